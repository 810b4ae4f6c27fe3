"""The pure view functions: exact text at fixed sizes (golden files in tests/ui/golden).

Regenerate after a deliberate change with ``UPDATE_GOLDEN=1 pytest tests/ui/test_render.py``
and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from canasta_tui.engine import Phase, parse_action
from canasta_tui.engine.cards import parse_card
from canasta_tui.engine.melds import Meld
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.render import ASCII_OPTIONS, meld_line, render, wrap
from canasta_tui.ui.style import UNICODE

from .helpers import session

GOLDEN = Path(__file__).parent / "golden"


def check(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN") or not path.exists():
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8")
    assert text + "\n" == path.read_text(encoding="utf-8")


def busy_controller() -> Controller:
    """Seed 5: play 40 actions so both sides have melds, red threes and a pile."""
    s = session(seed=5)
    ctl = Controller(s)
    while len(s.log) < 60 and s.state.phase != Phase.HAND_OVER:
        if ctl.my_turn():
            for a in ("draw", "meld K K K"):
                if parse_action(a) in ctl.legal():
                    ctl.type_action(a)
            if ctl.my_turn() and ctl.lit()["discard"]:
                ctl.key("c")
            elif ctl.my_turn():
                ctl.key("u")
                ctl.key("c")
        else:
            ctl.apply_computer(s.computer_choice())
        ctl.message = []
    while not ctl.my_turn():
        ctl.apply_computer(s.computer_choice())
    ctl.key("d")
    ctl.key("right")
    ctl.key("space")
    return ctl


@pytest.mark.parametrize("size", [(80, 24), (132, 43)])
def test_busy_table(size: tuple[int, int]) -> None:
    check(f"busy_{size[0]}x{size[1]}.txt", render(busy_controller(), *size).text())


def test_busy_table_ascii() -> None:
    text = render(busy_controller(), 80, 24, ASCII_OPTIONS).text()
    check("busy_80x24_ascii.txt", text)
    assert not any(ord(ch) > 127 for ch in text)


def test_too_small() -> None:
    text = render(busy_controller(), 79, 24).text()
    assert "terminal too small (need 80x24)" in text
    assert "♠" not in text and "K" not in text.replace("q quits", "")


def test_first_screen_80x24() -> None:
    ctl = Controller(session(seed=5))
    check("first_80x24.txt", render(ctl, 80, 24).text())


def test_hot_seat_privacy_screen_is_blank_but_for_the_prompt() -> None:
    ctl = Controller(session(players=2, seed=5))
    text = render(ctl, 80, 24).text()
    assert ctl.dialog is not None and ctl.dialog.kind == "privacy"
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    assert lines == ["Player 1 is up — press Enter", "(everybody else: please look away)"]


def test_meld_lines() -> None:
    m = Meld(13, tuple(int(parse_card(c)) for c in "Kh Ks Kc Kd Kh".split()), (int(parse_card("2c")), 56))
    assert meld_line(m, 25, UNICODE) == (" K ×5 +2 JK        ★mixed", "canasta.mixed")
    m = Meld(7, tuple(int(parse_card(c)) for c in "7h 7s 7c".split()))
    assert meld_line(m, 25, UNICODE) == (" 7 ×3                    ", "")


def test_wrap() -> None:
    assert wrap("Player 2 took the pile of 12, K♥ with K K", 25) == ["Player 2 took the pile of", "  12, K♥ with K K"]
