"""The canvas renderer (``ui/terminal.py``) paints only the changed columns of the changed rows,
straight from the canvas.  What a terminal shows after each frame must be what it showed with
prompt-toolkit's own renderer: every character, colour and attribute, frame after frame, also
after a resize, with wide and combining characters, and in monochrome.  The terminal here is
pyte, fed with the bytes each renderer wrote."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

import pyte
from hypothesis import given
from hypothesis import strategies as st
from prompt_toolkit.application import Application
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import DummyInput
from prompt_toolkit.layout import Layout
from prompt_toolkit.output import ColorDepth
from prompt_toolkit.output.vt100 import Vt100_Output
from prompt_toolkit.renderer import Renderer

from canasta_tui.bench.ui_bench import busy_controller
from canasta_tui.ui.canvas import DEFAULT_OPTIONS, Canvas, Options
from canasta_tui.ui.style import make_style
from canasta_tui.ui.terminal import CanvasRenderer, CanvasWindow, Row, changed_span

from .helpers import render

Cells = list[list[tuple[str, str, str, bool, bool, bool]]]
Frame = tuple[int, int, Canvas]       # terminal width, height, and what is painted


class Terminal:
    """A renderer writing to a pyte screen through prompt-toolkit's Vt100 output."""

    def __init__(self, renderer: type[Renderer], color: bool, width: int, height: int) -> None:
        self.size = Size(rows=height, columns=width)
        self.stream_out = io.StringIO()
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.Stream(self.screen)
        self.frame: Canvas | None = None
        out = Vt100_Output(self.stream_out, lambda: self.size, term="xterm", enable_cpr=False)
        depth = ColorDepth.DEPTH_8_BIT if color else ColorDepth.DEPTH_1_BIT
        self.app: Application[None] = Application(layout=Layout(CanvasWindow(lambda w, h: self.frame)),
                                                  style=make_style(color), full_screen=True, output=out,
                                                  input=DummyInput(), color_depth=depth)
        self.app.renderer = renderer(self.app.renderer.style, out, full_screen=True)
        self.written = 0

    def paint(self, width: int, height: int, cv: Canvas) -> Cells:
        if (width, height) != (self.size.columns, self.size.rows):
            self.size = Size(rows=height, columns=width)
            self.screen.resize(height, width)
        self.frame = cv
        self.app.renderer.render(self.app, self.app.layout)
        data = self.stream_out.getvalue()
        self.stream_out.seek(0)
        self.stream_out.truncate()
        self.written += len(data)
        self.stream.feed(data)
        return [[shown(self.screen.buffer[y][x]) for x in range(self.screen.columns)] for y in range(self.screen.lines)]


def shown(c: pyte.screens.Char) -> tuple[str, str, str, bool, bool, bool]:
    """What a cell looks like: a space's colour and boldness do not show (its background does)."""
    if c.data == " ":
        return (" ", "", c.bg, False, c.reverse, c.underscore)
    return (c.data, c.fg, c.bg, c.bold, c.reverse, c.underscore)


def both_renderers(frames: Sequence[Frame], color: bool = True) -> tuple[int, int]:
    """Paint the frames with both renderers; every frame must look the same.  Returns the bytes each wrote."""
    w0, h0 = frames[0][0], frames[0][1]
    theirs, ours = Terminal(Renderer, color, w0, h0), Terminal(CanvasRenderer, color, w0, h0)
    for i, (w, h, cv) in enumerate(frames):
        expected = theirs.paint(w, h, cv)
        shown = ours.paint(w, h, cv)
        for y, (a, b) in enumerate(zip(expected, shown, strict=True)):
            assert a == b, f"frame {i}, row {y}:\n{''.join(c[0] for c in a)}\n{''.join(c[0] for c in b)}"
    return theirs.written, ours.written


def table_frames(keys: Sequence[str], width: int = 80, height: int = 24, opts: Options = DEFAULT_OPTIONS) -> list[Frame]:
    ctl = busy_controller()
    frames = [(width, height, render(ctl, width, height, opts))]
    for k in keys:
        ctl.key(k)
        frames.append((width, height, render(ctl, width, height, opts)))
    return frames


def test_a_table_and_its_cursor_keys_look_as_they_did() -> None:
    frames = table_frames(["right", "right", "space", "left", "home", "end", "space", "?", "escape"])
    theirs, ours = both_renderers(frames)
    # A cursor key rewrites a few columns of a row or two, not the screen.
    assert ours < theirs * 1.5


def test_in_monochrome_too() -> None:
    both_renderers(table_frames(["right", "space", "left"]), color=False)


def test_a_bigger_terminal_then_a_resize() -> None:
    frames = table_frames(["right", "space"], 120, 40, Options(mouse=True))
    frames += table_frames(["left"], 80, 24)
    frames += table_frames(["right"], 100, 30)
    both_renderers(frames)


def canvas(width: int, height: int, draw: Callable[[Canvas], None]) -> Frame:
    cv = Canvas(width, height)
    draw(cv)
    return (width, height, cv)


def test_wide_and_combining_characters_take_the_columns_they_take() -> None:
    """A chat line with a wide character (a CJK name) or a combining accent moves the rest of its
    row, exactly as prompt-toolkit placed it; a row that stops having one is painted right again."""
    frames = [
        canvas(30, 4, lambda cv: (cv.put(0, 2, "名前 and more", "name"), cv.put(1, 0, "cafe\u0301 au lait", "message"),
                                  cv.put(2, 28, "宽x"), cv.put(3, 0, "plain row", "heading"))),
        canvas(30, 4, lambda cv: (cv.put(0, 2, "names and more", "name"), cv.put(1, 0, "cafe\u0301 au lait!"),
                                  cv.put(3, 1, "plain row", "heading"))),
        canvas(30, 4, lambda cv: (cv.put(0, 0, "全" * 20),)),
    ]
    both_renderers(frames)


def row(chars: str, styles: str) -> Row:
    """A row of a canvas: a character and a style class per column."""
    return (list(chars), list(styles))


def test_only_the_changed_columns_are_compared_and_written() -> None:
    old = row("abcdef", "..x...")
    assert changed_span(old, row("abcdef", "..x...")) is None
    assert changed_span(old, row("abXdef", "..x...")) == (2, 2)
    assert changed_span(old, row("abcdef", "...y..")) == (2, 3)
    assert changed_span(old, row("abcdef", "......")) == (2, 2)
    assert changed_span(old, row("Zbcdeg", "..x...")) == (0, 5)


@given(st.data())
def test_the_changed_span_is_from_the_first_to_the_last_changed_cell(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 120))
    chars = st.text("ab ♠名", min_size=n, max_size=n)
    styles = st.text("xyz", min_size=n, max_size=n)
    old = row(data.draw(chars), data.draw(styles))
    new = row(data.draw(chars), data.draw(styles))
    changed = [i for i in range(n) if (old[0][i], old[1][i]) != (new[0][i], new[1][i])]
    assert changed_span(old, new) == ((changed[0], changed[-1]) if changed else None)


def test_an_unchanged_frame_writes_no_cell() -> None:
    ours = Terminal(CanvasRenderer, True, 80, 24)
    cv = render(busy_controller(), 80, 24)
    ours.paint(80, 24, cv)
    first = ours.written
    ours.paint(80, 24, cv)
    assert first > 1000
    assert ours.written - first < 20          # the hidden cursor, the attributes reset: no characters
