"""End to end: keys sent in one burst with the start menu's choice (tmux send-keys of several
keys: a person typing fast, or a paste) act at the table that opens, for a new game and a resumed
one.  QA found, 4 runs of 4, the table open undrawn with the cursor on the first card."""

from __future__ import annotations

import re
from collections.abc import Callable

from . import test_tmux as e2e
from .test_tmux import Tmux

pytestmark = e2e.pytestmark      # skipped without tmux or the installed canasta
tmux = e2e.tmux                  # the fixture: a tmux server of the test's own, killed after it

#: Generous: the suite runs in parallel on a busy machine (this waits for events, never times them).
WAIT = 45.0


def cursor_card(screen: str) -> int:
    """Which card of the hand (0 is the first) the cursor ▲ is under."""
    lines = screen.splitlines()
    below = next(i for i, line in enumerate(lines) if "▲" in line)
    cards = [m.start() for m in re.finditer(r"\S+", lines[below - 1])]
    return cards.index(lines[below].index("▲"))


def drawn_and_moved(screen: str) -> bool:
    return "Your hand (12 cards)" in screen and "▲" in screen


def test_new_game_key_then_draw_and_two_rights_in_one_burst(tmux: Callable[[str], Tmux]) -> None:
    t = tmux("")
    t.wait(lambda s: "Start menu" in s and "One Human Player" in s, WAIT)
    t.keys("1", "d", "Right", "Right")
    screen = t.wait(drawn_and_moved, WAIT)
    assert cursor_card(screen) == 2, screen


def test_resume_key_then_draw_and_two_rights_in_one_burst(tmux: Callable[[str], Tmux]) -> None:
    t = tmux("")
    t.wait(lambda s: "Start menu" in s, WAIT)
    t.keys("1")
    t.wait(lambda s: "Your hand (11 cards)" in s and "[D]raw" in s, WAIT)
    t.keys("F2")
    t.wait(lambda s: "Leave this game for the start menu?" in s, WAIT)
    t.keys("y")
    t.wait(lambda s: "Start menu" in s and "Resume" in s, WAIT)
    t.keys("r", "d", "Right", "Right")
    screen = t.wait(drawn_and_moved, WAIT)
    assert cursor_card(screen) == 2, screen
