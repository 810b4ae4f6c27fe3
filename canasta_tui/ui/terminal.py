"""Painting a canvas on the terminal: row by row, only the cells that changed.

Every screen of the app is one :class:`~.canvas.Canvas` in one window.  prompt-toolkit's own
renderer copies it cell by cell into a ``Screen`` of ``Char`` objects and then compares that
screen with the last one cell by cell: two thirds of a busy server's CPU (``canasta bench
serve``), where every key and every move paints for every terminal at the table.
:class:`CanvasRenderer` compares each row of the canvas with the same row of the last frame
as a whole (most rows are as they were: a key moves a cursor, a move changes a quadrant)
and writes, for a row that changed, only the columns from its first to its last change,
through the same ``Output`` and the same style attributes.  What the terminal shows is
what prompt-toolkit's renderer would have shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import repeat
from operator import ne, or_
from typing import TYPE_CHECKING, Any

from prompt_toolkit.data_structures import Point
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Char, WritePosition
from prompt_toolkit.layout.screen import Screen as PtScreen
from prompt_toolkit.mouse_events import MouseEvent
from prompt_toolkit.renderer import Renderer
from prompt_toolkit.styles import Attrs
from prompt_toolkit.utils import get_cwidth

from .canvas import Canvas

if TYPE_CHECKING:
    from prompt_toolkit.application import Application
    from prompt_toolkit.output import ColorDepth

#: A painted row: its characters and its cells' style classes, one per column (the canvas's own
#: lists: a row compares with the last frame's in C, cell by cell).
Row = tuple[Sequence[str], Sequence[str]]


class CanvasWindow(Window):
    """The app's one window: a canvas as big as the terminal.  :class:`CanvasRenderer` paints it
    straight from the canvas; ``write_to_screen`` is prompt-toolkit's way (any other renderer),
    cell for cell what ``Window(FormattedTextControl(canvas.fragments()))`` would put there.
    Keys are the app's own bindings; the content control is only there to hold the focus.
    """

    def __init__(self, paint: Callable[[int, int], Canvas | None]) -> None:
        super().__init__(FormattedTextControl("", focusable=True, show_cursor=False), wrap_lines=False)
        self.canvas = paint

    def write_to_screen(self, screen: PtScreen, mouse_handlers: MouseHandlers, write_position: WritePosition,
                        parent_style: str, erase_bg: bool, z_index: int | None) -> None:
        wp = write_position
        if wp.width <= 0 or wp.height <= 0:
            return
        cv = self.canvas(wp.width, wp.height)
        for y, (text, styles) in enumerate(canvas_rows(cv, wp.width, wp.height)):
            cells = [Char(ch, "class:" + st if st else "") for ch, st in zip(text, styles, strict=True)]
            _copy_wide(screen.data_buffer[wp.ypos + y], cells, wp.xpos, wp.width)
        if cv is not None and cv.handlers:
            mouse_handlers.set_mouse_handler_for_range(wp.xpos, wp.xpos + wp.width, wp.ypos, wp.ypos + wp.height,
                                                       _on_mouse(cv, wp.xpos, wp.ypos))
        screen.height = max(screen.height, wp.ypos + wp.height)
        screen.visible_windows_to_write_positions[self] = wp


def _copy_wide(row: dict[int, Char], cells: list[Char], xpos: int, width: int) -> None:
    """A row placed as prompt-toolkit's Window places it: a wide character takes two columns, a
    combining one joins the character before it."""
    x = 0
    for c in cells:
        if x >= width:
            break
        w = c.width
        if w == 0:
            if x > 0:
                prev = row[xpos + x - 1]
                row[xpos + x - 1] = Char(prev.char + c.char, prev.style)
            continue
        row[xpos + x] = c
        for i in range(1, w):
            if x + i < width:
                row[xpos + x + i] = Char("", "")
        x += w
    for xx in range(x, width):
        row[xpos + xx] = Char(" ", "")


def _on_mouse(cv: Canvas, xpos: int, ypos: int) -> Callable[[MouseEvent], object]:
    """The mouse handler of a painted canvas: the handler of the cell clicked, if it has one."""
    handlers = cv.handlers

    def on_mouse(ev: MouseEvent) -> object:
        h = handlers.get((ev.position.y - ypos, ev.position.x - xpos))
        return h(ev) if h is not None else NotImplemented
    return on_mouse


def canvas_rows(cv: Canvas | None, width: int, height: int) -> list[Row]:
    """The rows a terminal of ``width`` x ``height`` shows of ``cv`` (blank where it has none).
    The canvas's own lists, not copies: a canvas is not drawn on once painted."""
    blank: Row = ([" "] * width, [""] * width)
    rows: list[Row] = []
    for y in range(height):
        if cv is None or y >= cv.height:
            rows.append(blank)
        else:
            chars, styles = cv.chars[y], cv.styles[y]
            if len(chars) != width:
                chars = (chars + [" "] * width)[:width]
                styles = (styles + [""] * width)[:width]
            rows.append((chars, styles))
    return rows


def changed_span(old: Row, new: Row) -> tuple[int, int] | None:
    """The first and last column (inclusive) where two rows of one width differ, or None.
    (Compared column by column in C: ``map`` of ``!=``; a cell's characters are most often the
    very objects of the last frame's, see ``canvas._cells``.)"""
    (ot, os_), (nt, ns) = old, new
    if ot == nt and os_ == ns:
        return None
    changed = list(map(or_, map(ne, ot, nt), map(ne, os_, ns)))
    return changed.index(True), len(changed) - 1 - changed[::-1].index(True)


class CanvasRenderer(Renderer):
    """prompt-toolkit's renderer, painting a layout that is one canvas (:class:`CanvasWindow`)
    straight from the canvas; any other layout, and the last paint of an app, go the usual way."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        self._rows: list[Row] | None = None        # the frame on the terminal (None: paint all)
        self._frame_key: tuple[object, ...] | None = None
        self._attrs: dict[str, Attrs] = {}         # style class -> attributes, for this style
        self._narrow: set[str] = set()             # characters known to take one column
        self._no_mouse = MouseHandlers()
        self._widths: dict[str, int] = {}
        super().__init__(*args, **kw)

    def reset(self, _scroll: bool = False, leave_alternate_screen: bool = True) -> None:
        self._rows = None
        super().reset(_scroll, leave_alternate_screen)

    def render(self, app: Application[Any], layout: Layout, is_done: bool = False) -> None:
        source = layout.container
        if is_done or not isinstance(source, CanvasWindow):
            self._rows = None
            super().render(app, layout, is_done)
            return
        self._last_screen = None                   # the usual way, if ever taken again, paints all
        output = self.output
        self._modes()
        size = output.get_size()
        width, height = size.columns, size.rows
        depth = app.color_depth
        key = (size, self.style.invalidation_hash(), app.style_transformation.invalidation_hash(), depth)
        if key != self._frame_key:
            self._rows = None
            self._attrs = {}
            self._frame_key = key
        cv = source.canvas(width, height)
        rows = canvas_rows(cv, width, height)
        attrs_of = self._attrs_of(app)
        last: Attrs | None = None
        output.hide_cursor()
        x = y = 0
        old = self._rows
        if old is None:
            output.reset_attributes()
            output.disable_autowrap()
            output.cursor_goto(1, 1)
            output.erase_down()
        span: tuple[int, int] | None
        for y_, row in enumerate(rows):
            if old is None:
                # The whole row, but not its blank end (the screen was just erased).
                span = self._inked(row, attrs_of)
            else:
                span = changed_span(old[y_], row)
            if span is None:
                continue
            narrow = self._is_narrow(row[0])
            first, end = span if narrow else (0, width - 1)
            y = y_
            output.cursor_goto(y + 1, first + 1)
            col, last = self._write_span(row, first, end, narrow, width, attrs_of, depth, last)
            if not narrow and col < width:
                output.reset_attributes()
                last = None
                output.erase_end_of_line()
            x = col
        output.reset_attributes()       # as prompt-toolkit does: nothing else is painted in a colour
        self._rows = rows
        self._cursor_pos = Point(x=min(x, width - 1), y=y)
        self._last_size = size
        self.mouse_handlers = self._mouse(cv, width, height)
        shape = app.cursor.get_cursor_shape(app)
        if self._last_cursor_shape != shape:
            output.set_cursor_shape(shape)
            self._last_cursor_shape = shape
        output.flush()
        app.layout.visible_windows = [source]

    # ------------------------------------------------------------------ pieces
    def _write_span(self, row: Row, first: int, end: int, narrow: bool, width: int, attrs_of: Callable[[str], Attrs],
                    depth: ColorDepth, last: Attrs | None) -> tuple[int, Attrs | None]:
        """Write the cells ``first`` to ``end`` of a row (the cursor is at ``first``), a run of one
        style at a time; returns the column the cursor is at and the attributes last set."""
        output = self.output
        write = output.write
        text, styles = row
        col = i = first
        while i <= end:
            st = styles[i]
            j = i + 1
            while j <= end and styles[j] == st:
                j += 1
            attrs = attrs_of(st)
            if attrs != last:
                output.set_attributes(attrs, depth)
                last = attrs
            if narrow:
                write("".join(text[i:j]))
                col += j - i
            else:
                col = self._write_wide(write, text[i:j], col, width)
            i = j
        return col, last

    def _modes(self) -> None:
        """The terminal modes prompt-toolkit's renderer sets before a paint."""
        output = self.output
        if self.full_screen and not self._in_alternate_screen:
            self._in_alternate_screen = True
            output.enter_alternate_screen()
        if not self._bracketed_paste_enabled:
            output.enable_bracketed_paste()
            self._bracketed_paste_enabled = True
        if not self._cursor_key_mode_reset:
            output.reset_cursor_key_mode()
            self._cursor_key_mode_reset = True
        mouse = self.mouse_support()
        if mouse and not self._mouse_support_enabled:
            output.enable_mouse_support()
            self._mouse_support_enabled = True
        elif not mouse and self._mouse_support_enabled:
            output.disable_mouse_support()
            self._mouse_support_enabled = False

    def _attrs_of(self, app: Application[Any]) -> Callable[[str], Attrs]:
        cache = self._attrs
        style, transformation = self.style, app.style_transformation

        def attrs_of(cls: str) -> Attrs:
            a = cache.get(cls)
            if a is None:
                a = cache[cls] = transformation.transform_attrs(
                    style.get_attrs_for_style_str("class:" + cls if cls else ""))
            return a
        return attrs_of

    def _is_narrow(self, text: Sequence[str]) -> bool:
        """Does every character of the row take one column?  Asked of its set of characters."""
        chars = set(text)
        known = self._narrow
        if chars <= known:
            return True
        if len(known) > 4096:
            known.clear()
        narrow = True
        for ch in chars - known:
            if self._width(ch) == 1:
                known.add(ch)
            else:
                narrow = False
        return narrow

    @staticmethod
    def _inked(row: Row, attrs_of: Callable[[str], Attrs]) -> tuple[int, int] | None:
        """From the first column to the last that shows anything on an erased screen (None: none).
        (Column by column in C, as :func:`changed_span`: a row of a big terminal is mostly blank,
        and a loop over its cells in Python was nearly all of a paint of 500 columns.)"""
        text, styles = row
        shown = {st for st in set(styles) if not _invisible(attrs_of(st))}
        inked = list(map(or_, map(ne, text, repeat(" ")), map(shown.__contains__, styles)))
        if True not in inked:
            return None
        return 0, len(inked) - 1 - inked[::-1].index(True)

    def _width(self, ch: str) -> int:
        w = self._widths.get(ch)
        if w is None:
            if len(self._widths) > 4096:
                self._widths.clear()
            w = self._widths[ch] = get_cwidth(ch)
        return w

    def _write_wide(self, write: Any, piece: Sequence[str], col: int, width: int) -> int:
        """Write characters of any width from column ``col``, none past the last column; a
        combining character joins the one before it, as the terminal shows it."""
        for ch in piece:
            w = self._width(ch)
            if col + w > width:
                break
            write(ch)
            col += w
        return col

    def _mouse(self, cv: Canvas | None, width: int, height: int) -> MouseHandlers:
        if cv is None or not cv.handlers or not self._mouse_support_enabled:
            return self._no_mouse
        mh = MouseHandlers()
        mh.set_mouse_handler_for_range(0, width, 0, height, _on_mouse(cv, 0, 0))
        return mh


def _invisible(attrs: Attrs) -> bool:
    """A space in these attributes looks like an erased cell."""
    return not (attrs.bgcolor or attrs.reverse or attrs.underline or attrs.strike)


__all__ = ["CanvasRenderer", "CanvasWindow", "canvas_rows", "changed_span"]
