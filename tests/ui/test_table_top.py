"""The rows above the hand (header, quadrants, centre, log line) are painted again as they were
while the table has not changed (``render.TableTop``): a cursor key repaints only the hand.
Whatever happens at the table, a screen painted that way is the screen painted from nothing."""

from __future__ import annotations

import dataclasses
import itertools

from canasta_tui.engine import Phase
from canasta_tui.presets import load_rules
from canasta_tui.table import Table, local_link, seats_for
from canasta_tui.ui.canvas import ASCII_OPTIONS, DEFAULT_OPTIONS, Canvas, Options
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.dialogs import Privacy

from .helpers import render


def from_nothing(ctl: Controller, width: int, height: int, opts: Options) -> Canvas:
    kept, ctl.cache.top = ctl.cache.top, None
    try:
        return render(ctl, width, height, opts)
    finally:
        ctl.cache.top = kept


def check(ctl: Controller, width: int, height: int, opts: Options) -> None:
    for _ in range(2):                      # drawn once, then painted again as it was
        shown = render(ctl, width, height, opts)
        fresh = from_nothing(ctl, width, height, opts)
        assert shown.text() == fresh.text()
        assert shown.styles == fresh.styles
        assert shown.handlers.keys() == fresh.handlers.keys()


def play(players: int, seed: int, sizes: list[tuple[int, int, Options]], steps: int = 400) -> tuple[int, int]:
    """Play keys and computer moves; after each, every size is checked.  Returns how many times
    the rows above the hand were painted again as kept, and how many times drawn anew."""
    t = Table(load_rules("classic"), seats_for(players, "beginner"), seed)
    ctl = Controller(local_link(t))
    keys = itertools.cycle(["right", "space", "d", "left", "space", "m", "right", "c", "g", "W"])
    reused = drawn = 0
    for _ in range(steps):
        if t.match.state.phase == Phase.HAND_OVER:
            break
        if ctl.client.dialog is not None:
            ctl.key("enter" if isinstance(ctl.client.dialog, Privacy) else "escape")
        elif ctl.message:
            ctl.key("x")
        elif ctl.client.my_turn():
            ctl.key(next(keys))
        else:
            t.step()
        for w, h, opts in sizes:
            before = ctl.cache.top
            check(ctl, w, h, opts)
            if ctl.cache.top is before:
                reused += 1
            else:
                drawn += 1
    assert len(t.events) > 30              # the hand went on: moves, melds, discards
    return reused, drawn


def test_one_human_at_80x24_and_a_big_terminal_with_the_mouse() -> None:
    _, drawn = play(1, 5, [(80, 24, DEFAULT_OPTIONS), (132, 43, Options(mouse=True)),
                           (80, 24, ASCII_OPTIONS)])
    assert drawn > 30


def test_hot_seat_with_two_humans() -> None:
    reused, drawn = play(2, 11, [(80, 24, DEFAULT_OPTIONS)])
    assert reused > 30 and drawn > 30


def test_a_name_a_score_or_a_chat_line_is_never_painted_stale() -> None:
    t = Table(load_rules("classic"), seats_for(1, "beginner"), 3)
    ctl = Controller(local_link(t))
    first = render(ctl, 80, 24, DEFAULT_OPTIONS)
    t.set_seat(2, dataclasses.replace(t.seats[2], name="Zoë"))
    assert "Zoë" in render(ctl, 80, 24, DEFAULT_OPTIONS).text() and "Zoë" not in first.text()
    check(ctl, 80, 24, DEFAULT_OPTIONS)
    t.say("Ann", "good luck, all")
    assert "good luck, all" in render(ctl, 80, 24, DEFAULT_OPTIONS).text()
    check(ctl, 80, 24, DEFAULT_OPTIONS)
    check(ctl, 100, 30, Options(four_color=True))


def test_one_human_with_the_mouse_painted_again_key_after_key() -> None:
    reused, drawn = play(1, 7, [(132, 43, Options(mouse=True))])
    assert reused > 30 and drawn > 30
