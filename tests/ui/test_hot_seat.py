"""Hot-seat privacy: a hand shows only while its own seat has input to give."""

from __future__ import annotations

import pytest

from canasta_tui.engine import Phase
from canasta_tui.presets import load_rules
from canasta_tui.table import Table, local_link, seats_for
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.dialogs import Answer, Privacy

from .helpers import render

SUITS = "♣♦♥♠"


def hand_visible_while_others_act(seed: int, level: str = "advanced") -> list[str]:
    """Play one hand of ``canasta --players 2`` with humans pressing only d, c, Enter and n;
    return a note for every moment a human's hand was on screen while somebody else acted."""
    s = Table(load_rules("classic"), seats_for(2, level), seed)
    ctl = Controller(local_link(s))
    leaks: list[str] = []
    for _ in range(20000):
        st = s.state
        if st.phase == Phase.HAND_OVER:
            return leaks
        d = ctl.client.dialog
        if d is not None:
            ctl.key("n" if isinstance(d, Answer) else "enter")
            continue
        if ctl.message:
            ctl.key("x")
            continue
        if ctl.client.my_turn():
            ctl.key("d" if ctl.client.lit()["draw"] else "c")
            continue
        text = render(ctl, 80, 24).text()
        hand_rows = "\n".join(text.splitlines()[19:21])
        if ctl.client.hand() or any(ch in hand_rows for ch in SUITS):
            leaks.append(f"turn {st.turn_number}: Player {st.actor + 1} acts, Player {ctl.client.viewer} hand shown")
        s.step()
    raise AssertionError("the hand never ended")


def test_answering_a_computer_partner_hides_the_hand_at_once() -> None:
    """Issue 10 #6: ``canasta --players 2 --seed 1 --delay 500 --level advanced``, the humans
    pressing only d, c, Enter and n: at hand 1, turn 63, Player 3 (a computer) asks Player 1
    "May I go out?".  Player 1 passes the privacy screen and answers, and then their hand
    stayed on screen for the rest of Player 3's turn (the next human is an opponent)."""
    assert hand_visible_while_others_act(1) == []


@pytest.mark.parametrize("seed", [2, 3, 4])
def test_no_hand_shows_while_another_seat_acts(seed: int) -> None:
    assert hand_visible_while_others_act(seed) == []


@pytest.mark.parametrize("seed", [2, 3, 4, 5])
def test_the_recap_always_holds_the_other_humans_discard(seed: int) -> None:
    """Issue 10 #19: the recap showed the last 8 moves only, so after a busy round the other
    human's discard (the earliest move since) fell off.  Now each player's moves make one line."""
    s = Table(load_rules("classic"), seats_for(2, "advanced"), seed)
    ctl = Controller(local_link(s))
    checked = 0
    for _ in range(20000):
        if s.state.phase == Phase.HAND_OVER:
            break
        d = ctl.client.dialog
        if d is not None and isinstance(d, Privacy):
            seat, other = d.seat, 3 - d.seat
            discarded_since = s.state.turn_number > 1 and s.state.phase == Phase.DRAW
            ctl.key("enter")
            if discarded_since:
                checked += 1
                lines = ctl.message[1:]
                assert ctl.message[0] == "Since your last turn:"
                assert any(t.startswith(f"Player {other + 1} ") and " discarded " in f" {t}" for t in lines), lines
                assert not any(t.startswith(f"Player {seat + 1} ") for t in lines)
            continue
        if d is not None:
            ctl.key({"answer": "n"}.get(d.kind, "enter"))
        elif ctl.message:
            ctl.key("x")
        elif ctl.client.my_turn():
            ctl.key("d" if ctl.client.lit()["draw"] else "c")
        else:
            s.step()
    assert checked >= 5
