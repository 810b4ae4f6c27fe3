"""Pages: the full screens around the table (start menu, options, help, statistics).

A :class:`Page` is a screen of the app (it has what :class:`~.app.Screen` asks for) and can
also be opened over the table as a full-screen dialog (:class:`PageDialog`), so the same
help, options and statistics serve the start menu and the game.  A page may open a child:
a sub-page, or a :class:`~.dialogs.Box` (a question such as :class:`~.dialogs.Confirm`, the
same dialogs the table opens: a page is their host as the table's client is); keys go to the
child until it is done (a sub-page) or has closed itself (a dialog).

Every page draws the same frame: a header line, its body, a message line, and a line of
key hints, so that every key has a visible hint and Esc is never the only way back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from ..text import printable
from .canvas import Canvas, Options, draw_too_small, glyph_text, too_small, wrap
from .dialogs import Box, Dialog, Quit, TableDialog, TableFacts, TableHost
from .lineedit import LineEdit
from .screen import ScreenBase

#: Keys that leave a page (Esc is never the only way back).
BACK = ("escape", "q")


@dataclass(frozen=True)
class Hint:
    """One key hint of the bottom line: the key as written, and what it does."""

    keys: str
    what: str


class Page(ScreenBase):
    """A full screen: header, body, message line, hints; keys through :meth:`handle`."""

    title: ClassVar[str] = ""

    def __init__(self) -> None:
        super().__init__()
        self.done = False
        #: The page asked to end the whole program (Ctrl-C or Quit at the start menu).
        self.quit = False
        self.child: Page | Box | None = None
        self.message = ""
        self.error = False

    # ------------------------------------------------------------------ a screen of the app
    @property
    def finished(self) -> bool:
        return self.done

    def paint(self, width: int, height: int, opts: Options) -> Canvas:
        cv = Canvas(width, height)
        cv.glyphs = opts.glyphs
        if too_small(width, height):
            draw_too_small(cv)
            return cv
        self.draw(cv, opts)
        return cv

    # ------------------------------------------------------------------ keys
    def handle(self, name: str) -> None:
        """One key: the child's if there is one, else this page's."""
        if name == "c-z" and self.on_suspend is not None:
            self.on_suspend()
            return
        if self.too_small:
            if name in ("q", "c-c"):
                self.quit = self.done = True
            return
        child = self.child
        if isinstance(child, Dialog):
            if name == "c-c":
                self.quit = self.done = True
            else:
                child.key(self, name)     # (it closes itself: :meth:`close`)
            return
        if child is not None:
            child.handle(name)
            if child.quit:
                self.quit = self.done = True
            elif child.done and self.child is child:
                self.child = None
                self.child_done(child)
            return
        if name == "c-c":
            self.quit = self.done = True
            return
        self.message, self.error = "", False
        self.on_key(name)

    def on_key(self, name: str) -> None:
        """This page's keys (a subclass's); the base leaves on q or Esc."""
        if name in BACK:
            self.done = True

    def child_done(self, child: Page) -> None:
        """A child page closed (a subclass may read its answer)."""

    def open(self, child: Page | Box) -> None:
        if isinstance(child, Page):
            child.on_suspend = self.on_suspend
        self.child = child

    def close(self) -> None:
        """What is open over this page closes (a dialog's answer: the page is its host)."""
        self.child = None

    def say(self, text: str, error: bool = False) -> None:
        self.message, self.error = text, error

    # ------------------------------------------------------------------ drawing
    def draw(self, cv: Canvas, opts: Options) -> None:
        child = self.child
        if isinstance(child, Page):          # a sub-page: instead of this one
            child.draw(cv, opts)
            return
        self.draw_body(cv, opts, 1, cv.height - 3)
        self.draw_frame(cv, opts)
        if child is not None:                # a dialog: over it
            child.draw(cv, self, opts)

    def header_right(self) -> str:
        return ""

    def hints(self) -> Sequence[Hint]:
        return [Hint("Esc/q", "back")]

    def draw_frame(self, cv: Canvas, opts: Options) -> None:
        g = opts.glyphs
        cv.fill(0, 0, cv.width, 1, "header")
        right = self.header_right()
        right = f"{right} " if right else ""
        cv.put(0, max(0, cv.width - len(right)), right, "header")
        left = f" CANASTA {g.dash} {self.title}" if self.title else " CANASTA"
        cv.put(0, 0, left[: max(0, cv.width - len(right) - 1)], "header")
        if self.message:
            # A long message (a path, the engine's reason) takes up to three lines, over the body's last.
            lines = wrap(glyph_text(printable(self.message), g), cv.width - 2)[:3]
            for i, text in enumerate(lines):
                y = cv.height - 1 - len(lines) + i
                cv.fill(y, 0, cv.width, 1)
                cv.put(y, 1, text, "error" if self.error else "message")
        draw_hints(cv, cv.height - 1, self.hints())

    def draw_body(self, cv: Canvas, opts: Options, top: int, rows: int) -> None:
        """The page's own content, rows ``top`` to ``top + rows - 1``."""


def draw_hints(cv: Canvas, y: int, hints: Sequence[Hint]) -> None:
    """The key hints: each key reversed (so it shows without colour), then what it does."""
    x = 0
    for i, h in enumerate(hints):
        need = len(h.keys) + 1 + len(h.what)
        if x + need > cv.width:
            break
        x = cv.put(y, x, h.keys, "bar.key")
        x = cv.put(y, x, " " + h.what, "bar.on")
        if i < len(hints) - 1:
            x += 3


class PageDialog(TableDialog):
    """A page opened over the table (help, options, statistics in the game): full screen, and
    the computers wait while it is open."""

    holds: ClassVar[bool] = True
    full_screen: ClassVar[bool] = True

    def __init__(self, page: Page) -> None:
        self.page = page

    def key(self, host: TableHost, name: str) -> None:
        self.page.handle(name)
        if self.page.quit:
            # Ctrl-C inside a page at the table: the table's own question, never a silent exit.
            self.page.quit = self.page.done = False
            host.open(Quit(back=self))
        elif self.page.done:
            host.close()

    def draw(self, cv: Canvas, table: TableFacts, opts: Options) -> None:
        self.page.draw(cv, opts)


def scroll_window(total: int, current: int, rows: int, start: int) -> int:
    """The first line to show so that ``current`` is visible, moving as little as possible."""
    if rows <= 0:
        return 0
    start = min(start, max(0, total - rows))
    if current < start:
        return current
    if current >= start + rows:
        return current - rows + 1
    return max(0, start)


__all__ = ["BACK", "Hint", "LineEdit", "Page", "PageDialog", "draw_hints", "scroll_window", "too_small"]
