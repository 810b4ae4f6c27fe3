"""The canvas the screens are drawn on, and the small pieces every screen uses.

A :class:`Canvas` is a grid of cells (character, style class, mouse handler); its
``text()`` is what tests compare and its ``fragments()`` is what prompt-toolkit paints.
A :class:`Region` clips drawing to a rectangle, so the parts of a screen never overlap.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from ..engine.cards import IS_WILD, RANK_NAMES, RANK_OF, SUIT_OF
from ..terminal import MIN_H, MIN_W
from .style import ASCII, UNICODE, Glyphs

if TYPE_CHECKING:
    from prompt_toolkit.mouse_events import MouseEvent


def too_small(width: int, height: int) -> bool:
    """Is a terminal of this size too small for any of the game's screens (then it shows only
    :func:`draw_too_small`, and no key but quitting acts)?"""
    return width < MIN_W or height < MIN_H

Handler = Callable[["MouseEvent"], object]


@dataclass(frozen=True)
class Options:
    glyphs: Glyphs = UNICODE
    four_color: bool = False
    mouse: bool = False


DEFAULT_OPTIONS = Options()
ASCII_OPTIONS = Options(ASCII)


#: Text already split into cells: text -> its characters.  The same text paints the same
#: character objects every time, so a row compares with the last frame's by identity (the
#: renderer's diff), and no character object is made again (bounded: names and chat bring new text).
_CELLS: dict[str, tuple[str, ...]] = {}
_CELLS_MAX = 20000


def _cells(text: str) -> tuple[str, ...]:
    cells = _CELLS.get(text)
    if cells is None:
        if len(_CELLS) >= _CELLS_MAX:
            _CELLS.clear()
        cells = _CELLS[text] = tuple(text)
    return cells


class Canvas:
    """A grid of cells (character, style class, mouse handler)."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.chars = [[" "] * width for _ in range(height)]
        self.styles = [[""] * width for _ in range(height)]
        self.handlers: dict[tuple[int, int], Handler] = {}
        self.glyphs: Glyphs = UNICODE

    def put(self, y: int, x: int, text: str, style: str = "", handler: Handler | None = None) -> int:
        """Write ``text`` at row ``y``, column ``x`` (clipped); returns the column after it."""
        end = x + len(text)
        if not 0 <= y < self.height:
            return end
        a, b = max(x, 0), min(end, self.width)
        if a < b:
            # Slices, not a loop over the characters: a paint puts thousands of them.
            self.chars[y][a:b] = _cells(text)[a - x:b - x]
            self.styles[y][a:b] = [style] * (b - a)
            if handler is not None:
                for xx in range(a, b):
                    self.handlers[(y, xx)] = handler
        return end

    def fill(self, y: int, x: int, w: int, h: int, style: str = "") -> None:
        for yy in range(y, y + h):
            self.put(yy, x, " " * w, style)

    def text(self) -> str:
        return "\n".join("".join(r).rstrip() for r in self.chars)

    def lines(self) -> list[str]:
        return ["".join(r) for r in self.chars]

    def fragments(self) -> list[tuple[str, str] | tuple[str, str, Handler]]:
        out: list[tuple[str, str] | tuple[str, str, Handler]] = []
        for y in range(self.height):
            row, srow = self.chars[y], self.styles[y]
            start = 0
            for x in range(1, self.width + 1):
                if x == self.width or srow[x] != srow[start] or \
                        self.handlers.get((y, x)) is not self.handlers.get((y, start)):
                    h = self.handlers.get((y, start))
                    style = "class:" + srow[start] if srow[start] else ""
                    text = "".join(row[start:x])
                    out.append((style, text, h) if h is not None else (style, text))
                    start = x
            if y < self.height - 1:
                out.append(("", "\n"))
        return out




def card_label(c: int, g: Glyphs) -> str:
    r = RANK_OF[c]
    if r == 14:
        return "JK"
    return RANK_NAMES[r] + g.suits[SUIT_OF[c]]


def card_style(c: int, opts: Options) -> str:
    if IS_WILD[c]:
        return "wild"
    s = SUIT_OF[c]
    if opts.four_color:
        return ("suit.c", "suit.d", "suit.red", "suit.black")[s]
    return "suit.red" if s in (1, 2) else "suit.black"



def folded(n: int) -> str:
    return f"{n} card" + ("" if n == 1 else "s")



_TO_ASCII = str.maketrans({"♣": "c", "♦": "d", "♥": "h", "♠": "s", "—": "-", "…": "...", "“": '"', "”": '"', "±": "+-"})


def glyph_text(text: str, g: Glyphs) -> str:
    """Text written with suit symbols, in the glyphs of this screen (letters for --ascii)."""
    return text.translate(_TO_ASCII) if g is ASCII else text


def fit(text: str, width: int, ellipsis: str) -> str:
    """``text`` cut to ``width``, with an ellipsis where it was cut."""
    return text if len(text) <= width else text[: max(0, width - len(ellipsis))] + ellipsis


def first_fit(forms: Sequence[str], width: int, ellipsis: str = "~") -> str:
    """The first (the fullest) of ``forms`` that fits ``width``; the last one cut with an
    ellipsis if none does.  Every line that says one thing in several lengths goes through it,
    so what matters is in the shorter forms and nothing is lost off the edge unmarked."""
    for text in forms:
        if len(text) <= width:
            return text
    return fit(forms[-1] if forms else "", width, ellipsis)


def fit_middle(head: str, middle: str, tail: str, width: int, ellipsis: str = "~") -> str:
    """``head + middle + tail`` in ``width``: the middle (a title, a name: what may be shortened)
    gives way first, so the head and the tail (the numbers a person reads it for) show whole."""
    room = width - len(head) - len(tail)
    if len(middle) <= room:
        return head + middle + tail
    if room >= len(ellipsis) + 1:
        return head + fit(middle, room, ellipsis) + tail
    return fit(head + tail, width, ellipsis)


def _pieces(word: str, width: int) -> list[str]:
    """A word longer than ``width`` (a file's path, a key's fingerprint) broken into pieces that
    fit, after a ``/`` where there is one, so a path reads as a path."""
    out: list[str] = []
    while len(word) > width:
        cut = word.rfind("/", 0, width) + 1
        if cut <= width // 2:
            cut = width
        out.append(word[:cut])
        word = word[cut:]
    return [*out, word]


def wrap(text: str, width: int) -> list[str]:
    """Split ``text`` into lines of at most ``width`` (continuation lines indented by two); a
    word too long for a line is broken, never cut off."""
    width = max(4, width)
    out: list[str] = []
    line = ""
    for word in text.split(" "):
        while True:
            sep = " " if line.strip() else ""
            room = width - len(line) - len(sep)
            if len(word) <= room:
                line += sep + word
                break
            if sep:                     # the word goes to the next line
                out.append(line)
                line = "  "
                continue
            piece = _pieces(word, room)[0]
            out.append(line + piece)
            line, word = "  ", word[len(piece):]
    out.append(line)
    return out


def put_lines_up(cv: Canvas, y: int, x: int, text: str, style: str = "", most: int = 3) -> int:
    """A status or notice line at row ``y``, wrapped: when it does not fit one row it takes the
    rows above (up to ``most``), so the end of a long notice is never lost.  Returns the first
    row it used."""
    room = cv.width - 2 * x                 # the same margin on the right as on the left
    lines = wrap(text, room) if len(text) > room else [text]
    if len(lines) > most:
        lines = lines[: most - 1] + [fit(" ".join(w.strip() for w in lines[most - 1:]), room, cv.glyphs.ellipsis)]
    first = y - len(lines) + 1
    for i, line in enumerate(lines):
        cv.fill(first + i, 0, cv.width, 1)
        cv.put(first + i, x, line, style)
    return first


# ---------------------------------------------------------------------- the table


class Region:
    """A rectangle of a canvas: whatever is drawn through it is clipped to it, so regions never overlap."""

    def __init__(self, cv: Canvas, x: int, y: int, w: int, h: int) -> None:
        self.cv, self.x, self.y, self.w, self.h = cv, x, y, max(0, w), max(0, h)

    def put(self, row: int, col: int, text: str, style: str = "", handler: Handler | None = None) -> int:
        """Write ``text`` at (row, col) inside the region, clipped to it; returns the column after it."""
        end = col + len(text)
        if not 0 <= row < self.h or col >= self.w:
            return end
        if col < 0:
            text, col = text[-col:], 0
        self.cv.put(self.y + row, self.x + col, text[: self.w - col], style, handler)
        return end

    def parts(self, row: int, col: int, parts: Sequence[tuple[str, str]]) -> int:
        for text, style in parts:
            col = self.put(row, col, text, style)
        return col

    def heading(self, row: int, title: str, right: str | Sequence[str] = "") -> None:
        """A heading line: ``title`` on the left, whole (a table's code, a section's name), and on
        the right ``right``, or the first of its forms (fullest first) that fits beside it."""
        g = self.cv.glyphs
        line = f"{g.hline} {title} " + g.hline * self.w
        forms = [right] if isinstance(right, str) else list(right)
        if forms and forms[0]:
            text = first_fit(forms, max(0, self.w - len(title) - 6), g.ellipsis)
            if len(text) > len(g.ellipsis):
                line = line[: max(0, self.w - len(text) - 2)] + f" {text} " + g.hline
        self.put(row, 0, line[: self.w], "heading")


class Rect(NamedTuple):
    x: int
    y: int
    w: int
    h: int


def draw_box(cv: Canvas, title: str, lines: Sequence[str], style: str = "box", width: int | None = None) -> None:
    g = cv.glyphs
    g_h, g_v, corners = g.hline, g.vline, g.corners
    inner = width or min(cv.width - 6, max([len(t) for t in lines] + [len(title) + 2, 20]) + 2)
    inner = min(inner, cv.width - 4)
    # A line wider than the box wraps inside it rather than losing its end.
    shown = [w for t in lines for w in (wrap(t, inner - 2) if len(t) > inner - 2 else [t])][: cv.height - 4]
    h = len(shown) + 2
    x = (cv.width - inner - 2) // 2
    y = max(1, (cv.height - h) // 2 - 1)
    cv.put(y, x, corners[0] + g_h * inner + corners[1], style)
    if title:
        cv.put(y, x + 2, f" {title} ", "box.title")
    for i, text in enumerate(shown):
        cv.put(y + 1 + i, x, g_v + " " + text[: inner - 2].ljust(inner - 2) + " " + g_v, style)
    cv.put(y + h - 1, x, corners[2] + g_h * inner + corners[3], style)


def draw_too_small(cv: Canvas, hint: str = "q quits", question: str = "") -> None:
    """The one screen of a terminal that is too small: what the game needs, the size now and
    ``hint``, or ``question`` in their place while one is asked (quit?)."""
    msg = f"terminal too small (need {MIN_W}x{MIN_H})"
    sub = question or f"now {cv.width}x{cv.height}; {hint}"
    cv.put(cv.height // 2 - 1, max(0, (cv.width - len(msg)) // 2), msg, "error")
    cv.put(cv.height // 2, max(0, (cv.width - len(sub)) // 2), sub)
