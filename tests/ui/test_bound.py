"""What the table tells a player before a move costs points (issue 10 #8, #23)."""

from __future__ import annotations

import sys
from pathlib import Path

from canasta_tui.engine import GameState, Phase, parse_action
from canasta_tui.presets import load_rules
from canasta_tui.table import local_link
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.dialogs import Confirm, PileChoice

from .helpers import render, session, table_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from positions import position


def at(state: GameState, rules: str = "classic") -> Controller:
    s = session(seed=5, rules=rules)
    s.match = s.match._replace(state=state, rules=state.rules)
    s.rules = state.rules
    ctl = Controller(local_link(s))
    ctl.client.viewer = 0
    return ctl


def test_a_yes_binds_and_the_prompt_and_the_discard_key_say_so() -> None:
    """Issue 10 #8: the asker was charged 100 at the end of the hand without being told.
    DOS "Asking Permission": "The player is bound by the reply ... Should the player not abide
    by the answer, a 100 point penalty is assessed." """
    st = position({0: "Kh Kd 5c 9d 7s", 2: "4c 4d"}, melds={0: ["Ac Ad Ah As Ac Ad 2c"]}, stock="8c 8d 8h")
    st = GameState(*st)._replace(t=st.t._replace(asked=True, permission=1))
    ctl = at(st)
    assert ctl.client.status() == "Your partner said yes: you must go out this turn or pay 100"
    assert "Your partner said yes: you must go out this turn or pay 100" in render(ctl, 80, 24).text()
    ctl.client.cursor = 0
    ctl.key("c")
    assert ctl.client.dialog is not None and isinstance(ctl.client.dialog, Confirm)
    text = render(ctl, 80, 24).text()
    assert "Discarding 5♣ keeps 4 cards in your hand," in text and "so your side pays 100 points." in text
    ctl.key("n")                                   # back: nothing discarded
    assert table_of(ctl).state.phase == Phase.MELD and len(table_of(ctl).state.hands[0]) == 5
    ctl.key("c")
    ctl.key("y")
    after = table_of(ctl).state
    assert len(after.hands[0]) == 4 and after.penalties[0] == 100
    assert after.penalty_log[-1].reason == "did not go out after 'yes'"


def test_r_discards_a_laid_out_red_three_when_the_rules_allow() -> None:
    """Issue 10 #23: the option existed, but no key let a human discard a laid-out red three.
    Windows 2.41, "Red Three options - Freeze discard pile": "it is allowed to use a Red Three to
    freeze the discard pile as with a wildcard"."""
    rules = load_rules("classic").replace(red_three_discard_freezes=True)
    st = position({0: "Kh Kd 5c 9d 7s"}, rules=rules, red_threes={0: "3h"})
    ctl = at(st)
    ctl.key("r")
    after = table_of(ctl).state
    assert after.pile[-1] == int(parse_action("discard 3h").card) and after.frozen
    assert after.red_threes[0] == () and after.turn == 1
    ctl = at(position({0: "Kh Kd 5c 9d 7s"}, red_threes={0: "3h"}))
    ctl.key("r")
    assert ctl.message and "These rules do not let a red three be discarded" in ctl.message[0]


def test_the_pile_choice_offers_putting_it_back_only_to_a_side_that_has_not_melded() -> None:
    """Windows 2.41: the pile can be put back "only if you have not yet received the rest of
    the pile in your hand", and a side that has melded receives it at once (issue 10 #23)."""
    rules = load_rules("windows")
    opened = position({0: "9h 9d 9s 5c 6c 7c"}, rules=rules, phase=Phase.DRAW, melds={0: ["9c 9s 9d"]},
                      pile="4h 9c", frozen=False)
    ctl = at(opened, "windows")
    ctl.key("p")
    assert ctl.client.dialog is not None and isinstance(ctl.client.dialog, PileChoice)
    text = render(ctl, 80, 24).text()
    assert "How do you want to take the pile?" in text and "puts the pile back" not in text
    fresh = position({0: "9h 9d Ac Ad Ah 2c 5c 6c 7c"}, rules=rules, phase=Phase.DRAW, pile="4h 9c", frozen=False)
    ctl = at(fresh, "windows")
    ctl.key("p")
    if ctl.client.dialog is None:                      # one way only: taken at once, said in the status line
        assert "b puts it back (50-point penalty)" in ctl.client.status()
    else:
        assert "b puts the pile back until your initial meld is met" in render(ctl, 80, 24).text()
