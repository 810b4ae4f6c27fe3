"""Over SSH, a terminal asked for more than HOT_PAINTS_PER_S paints a second (a key held down,
players typing as fast as they can) has its frames gathered while that lasts, so that the other
tables keep their share of the server; at a human pace nothing is held back."""

from __future__ import annotations

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from canasta_tui.ui.app import HOT_PAINTS_PER_S, ScreenApp


def paints(app: ScreenApp, start: float, every: float, n: int) -> float:
    t = start
    for _ in range(n):
        app._pace_paints(t)
        t += every
    return t


def test_a_held_key_gathers_frames_and_a_human_pace_paints_at_once_again() -> None:
    with create_pipe_input() as pipe:
        app = ScreenApp(input=pipe, output=DummyOutput(), remote=True)
        t = paints(app, 0.0, 0.3, 40)                       # a key every 300 ms
        assert not app.gathering and app.app.min_redraw_interval is None
        t = paints(app, t, 0.02, HOT_PAINTS_PER_S)           # held down: 50 a second
        assert app.gathering and app.app.min_redraw_interval == 1 / HOT_PAINTS_PER_S
        t = paints(app, t, 1 / HOT_PAINTS_PER_S, 40)         # still held: painted HOT_PAINTS_PER_S a second
        assert app.gathering
        paints(app, t, 0.3, HOT_PAINTS_PER_S)                # let go: a human pace again
        assert not app.gathering and app.app.min_redraw_interval is None


def test_a_terminal_of_its_own_is_never_held_back() -> None:
    with create_pipe_input() as pipe:
        app = ScreenApp(input=pipe, output=DummyOutput())
        paints(app, 0.0, 0.001, 100)
        assert not app.gathering and app.app.min_redraw_interval is None
