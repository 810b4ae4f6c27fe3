"""The keys a player sees lit lead somewhere (issue 17, "Meld is lit for a dead end").

DOS manual, "Going Out": "The player's side must have melded at least one Canasta. Failing
this requirement, the player must keep at least one card in hand."  With two cards and no
canasta, ``1`` laid one off; then "Your side needs a canasta to go out: keep at least one
card", Discard went dark and only Undo worked.  The engine refuses the lay-off up front, so
the Meld key is dark and pressing ``1`` says why, while Discard stays lit.
"""

from __future__ import annotations

import sys
from pathlib import Path

from canasta_tui.engine import GameState
from canasta_tui.engine.cards import card_text
from canasta_tui.table import local_link
from canasta_tui.ui.controller import Controller

from .helpers import session

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from positions import position


def at(state: GameState) -> Controller:
    s = session(seed=5)
    s.match = s.match._replace(state=state, rules=state.rules)
    ctl = Controller(local_link(s))
    ctl.client.viewer = 0
    return ctl


def test_laying_off_down_to_a_dead_card_is_dark_and_says_why() -> None:
    ctl = at(position({0: "Kh 9c"}, melds={0: ["Kc Kd Ks"]}))
    lit = ctl.client.lit()
    assert not lit["meld"] and lit["discard"] and not lit["undo"]
    ctl.client.cursor = [card_text(c) for c in ctl.client.hand()].index("Kh")
    ctl.key("1")
    assert ctl.message == ["That would leave you one card, which you could not discard: "
                           "your side needs a canasta to go out"]
    assert len(ctl.client.hand()) == 2 and ctl.client.link.view(0).undoable == 0


def test_with_the_canasta_the_same_lay_off_is_lit_and_played() -> None:
    ctl = at(position({0: "Kh 9c"}, melds={0: ["Kc Kd Ks", "Qh Qd Qc Qs Qh Qd Qc"]}))
    assert ctl.client.lit()["meld"]
    ctl.client.cursor = [card_text(c) for c in ctl.client.hand()].index("Kh")
    ctl.key("1")
    assert [card_text(c) for c in ctl.client.hand()] == ["9c"] and ctl.client.lit()["discard"]
