"""The app's window copies the canvas into prompt-toolkit's screen itself (``CanvasWindow``):
cell for cell what ``Window(FormattedTextControl(canvas.fragments()))`` put there, which
cost three quarters of a paint (``canasta bench serve`` found it)."""

from __future__ import annotations

from prompt_toolkit.layout import Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Char, Screen, WritePosition

from canasta_tui.bench.ui_bench import busy_controller
from canasta_tui.ui.canvas import Canvas, Options
from canasta_tui.ui.terminal import CanvasWindow

from .helpers import render


def paint(window: Window, width: int, height: int) -> dict[tuple[int, int], tuple[str, str]]:
    screen = Screen(default_char=Char(" ", ""), initial_width=width)
    window.write_to_screen(screen, MouseHandlers(), WritePosition(0, 0, width, height), "", False, None)
    assert screen.height == height
    return {(y, x): (screen.data_buffer[y][x].char, screen.data_buffer[y][x].style)
            for y in range(height) for x in range(width)}


def the_old_way(cv: Canvas) -> dict[tuple[int, int], tuple[str, str]]:
    window = Window(FormattedTextControl(cv.fragments(), focusable=True, show_cursor=False), wrap_lines=False)
    cells = paint(window, cv.width, cv.height)
    # Window marks its last row "class:last-line" (no style of ours names it: the same colours).
    return {k: (ch, st.replace(" class:last-line", "")) for k, (ch, st) in cells.items()}


def test_a_busy_table_fills_the_screen_exactly_as_before() -> None:
    cv = render(busy_controller(), 80, 24)
    assert paint(CanvasWindow(lambda w, h: cv), 80, 24) == the_old_way(cv)


def test_a_bigger_terminal_and_the_mouse_handlers_too() -> None:
    cv = render(busy_controller(), 120, 40, Options(mouse=True))
    assert cv.handlers
    assert paint(CanvasWindow(lambda w, h: cv), 120, 40) == the_old_way(cv)


def test_wide_and_combining_characters_take_the_columns_they_took() -> None:
    """A name with a wide character (a CJK one) or a combining accent moves the rest of its row."""
    cv = Canvas(30, 3)
    cv.put(0, 2, "名前 and more", "name")
    cv.put(1, 0, "cafe\u0301 au lait", "message")
    cv.put(2, 28, "宽x")
    assert paint(CanvasWindow(lambda w, h: cv), 30, 3) == the_old_way(cv)
