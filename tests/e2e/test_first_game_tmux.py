"""End to end: the first game in tmux at 80x24, from the first start menu to going out and back."""

from __future__ import annotations

from collections.abc import Callable

from . import test_tmux as e2e
from .test_tmux import Tmux

pytestmark = e2e.pytestmark      # skipped without tmux or the installed canasta
tmux = e2e.tmux                  # the fixture: a tmux server of the test's own, killed after it


def test_the_first_start_menu_offers_the_first_game_and_it_plays_to_going_out(tmux: Callable[[str], Tmux]) -> None:
    t = tmux("--delay 0")
    screen = t.wait(lambda s: "CANASTA — Start menu" in s)
    assert "> f  First game" in screen and "New to Canasta?" in screen
    t.keys("Enter")
    t.wait(lambda s: "step 1 of 10" in s and "other keys leave" in s)

    def step(keys: list[str], shows: str) -> str:
        for k in keys:
            t.keys(k)
        return t.wait(lambda s: shows in s, timeout=30)

    # The hand is sorted by rank: A A A 6 9 9 9 K K 2 2 JK after the draw.
    step(["d"], "Step 2 of 10, the initial meld")
    step(["Home", "m"], "Step 3 of 10")
    step(["Home", "c"], "Step 4 of 10, the pile")          # after the others drew and discarded
    step(["p"], "How do you want to take the pile?")
    step(["1"], "Step 5 of 10")                            # 5 5 6 9 9 9 K 2 2 JK
    step(["Home", *["Right"] * 6, "m"], "Step 6 of 10")
    step(["W"], "Add wild cards until which meld is a canasta?")
    screen = step(["k"], "Step 7 of 10")
    assert "mixed" in screen
    step(["Home", "Right", "Right", "c"], "Step 8 of 10")
    step(["d"], "Step 9 of 10")
    step(["y"], "says: Yes, go out")
    step(["Enter"], "Step 10 of 10")
    step(["End", "m", "Home", "m"], "Player 1 went out")
    step(["Enter"], "Score sheet")
    screen = step(["Enter"], "CANASTA — Start menu")
    assert "> f  First game" not in screen and "f  First game" in screen
