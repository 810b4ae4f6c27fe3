"""Scenario tests: a meld or a pile take may not paint the turn into a corner.

DOS manual, Chapter 2: "The player then ends the turn by selecting a card from the hand for
discard", and "Going Out": "The player's side must have melded at least one Canasta.
Failing this requirement, the player must keep at least one card in hand. A player need not
make a discard after going out and may meld all remaining cards."

So a meld (or a card laid off) that leaves one card which may be neither discarded (that
would be going out) nor melded, leaves no legal way to end the turn: it is not a legal
action, and ``explain`` says why.  The UI lights its keys from the legal actions, so the
Meld key goes dark instead of leading to a position where only Undo works.

The online rules page says it in so many words: "It is against the rules in this case to
meld all your cards except one. You would then be forced to discard this last card, which
would constitute going out illegally."

An initial meld still short of the requirement is not such a corner: "Should you make an
improper meld or insufficient meld, you can always have the melds returned to your hand by
attempting to discard a card" (DOS manual, Chapter 1; see test_rule_improper_melds.py).
"""

from __future__ import annotations

import pytest
from positions import legal, position, run, why

from canasta_tui.engine import IllegalActionError, Phase, Rules

D = Phase.DRAW
C7 = "Qh Qd Qc Qs Qh Qd Qc"
ONE_LEFT = "That would leave you one card, which you could not discard: "


def test_laying_off_down_to_one_card_without_a_canasta_is_refused() -> None:
    """Issue 17: with two cards and no canasta, ``1`` laid one of them off; then "Your side
    needs a canasta to go out: keep at least one card", Discard went dark and only Undo
    worked.  Laying off is refused up front; discarding (keeping one card) is what is left."""
    s = position({0: "Kh 9c"}, melds={0: ["Kc Kd Ks"]})
    assert legal(s) == ["discard 9c", "discard Kh"]
    assert why(s, "add K") == ONE_LEFT + "your side needs a canasta to go out"
    with pytest.raises(IllegalActionError, match="which you could not discard"):
        run(s, "add K")


def test_a_wild_card_laid_off_down_to_one_card_is_refused_too() -> None:
    s = position({0: "JK 9c"}, melds={0: ["Kc Kd Ks"]})
    assert legal(s) == ["discard 9c", "discard JK"]
    assert why(s, "add JK to K") == ONE_LEFT + "your side needs a canasta to go out"


def test_a_new_meld_down_to_one_card_without_a_canasta_is_refused() -> None:
    s = position({0: "Kh Kd Kc 9c"}, melds={0: ["Ac Ad Ah"]})
    assert "meld K K K" not in legal(s)
    assert why(s, "meld K K K") == ONE_LEFT + "your side needs a canasta to go out"


def test_a_meld_that_completes_the_canasta_may_leave_one_card() -> None:
    """The canasta made by the meld itself lets the last card go: discarding it goes out."""
    s = position({0: "Kh 9c"}, melds={0: ["Kc Kd Ks Kc Kd 2s"]})
    assert "add K" in legal(s)
    out = run(s, "add K", "discard 9c")
    assert out.phase == Phase.HAND_OVER and out.went_out == 0


def test_one_card_may_be_left_when_it_can_be_melded_out() -> None:
    """"A player need not make a discard after going out and may meld all remaining cards":
    the card left cannot be discarded, but adding it completes a canasta and goes out."""
    s = position({0: "Kh Kd"}, melds={0: ["Kc Kd Ks Kc Ks"]})
    s1 = run(s, "add K")                      # six Kings, one King left
    assert legal(s1) == ["add K", "undo"]
    assert why(s1, "discard Kh") == "Your side needs a canasta to go out: keep at least one card"
    out = run(s1, "add K")
    assert out.phase == Phase.HAND_OVER and out.went_out == 0


def test_with_the_canasta_a_meld_may_leave_one_card() -> None:
    s = position({0: "Kh Kd Kc 9c"}, melds={0: [C7]})
    assert "meld K K K" in legal(s)
    assert run(s, "meld K K K", "discard 9c").went_out == 0


def test_a_partners_no_keeps_two_cards_in_the_hand() -> None:
    """"The player is bound by the reply for that round only": after a no, the last card may
    not go, so a meld may not leave only one."""
    s = position({0: "Kh Kd Kc 9h"}, melds={0: [C7]})
    no = run(s, "ask", "no")
    assert [a for a in legal(no) if not a.startswith("discard")] == []
    assert why(no, "meld K K K") == ONE_LEFT + "your partner said no to going out this turn"


def test_two_canastas_to_go_out() -> None:
    """Windows 2.41, "Canastas needed to go out" (the two-player preset needs two)."""
    s = position({0: "Kh 9c"}, rules=Rules(canastas_to_go_out=2), melds={0: [C7, "Kc Kd Ks"]})
    assert why(s, "add K") == ONE_LEFT + "your side needs two canastas to go out"


def test_melding_every_card_without_a_canasta_is_refused() -> None:
    """Zero cards left: that is going out, legal only if going out is."""
    s = position({0: "Kh Kd Kc"}, melds={0: ["Ac Ad Ah"]})
    assert [a for a in legal(s) if not a.startswith("discard")] == []
    assert why(s, "meld K K K") == "Your side needs a canasta to go out: keep at least one card"


def test_taking_the_pile_down_to_one_dead_card_is_refused() -> None:
    """Taking the pile is a meld too: with a natural pair of Kings and one more card, a pile of
    one leaves that card alone, and it could not go."""
    s = position({0: "Kh Kd 9c"}, phase=D, melds={0: ["Ac Ad Ah"]}, pile="Ks")
    assert legal(s) == ["draw"]
    assert why(s, "pile K K") == ("Taking the pile would leave you one card you may not discard: "
                                  "your side cannot go out yet")


def test_taking_the_pile_down_to_one_card_that_melds_out_is_allowed() -> None:
    """Without the one-card pile rule: the upcard makes six Kings, the King left in the hand
    completes the canasta and goes out (it was refused: only a discard was looked for)."""
    s = position({0: "Kh"}, rules=Rules(one_card_pile_rule=False), phase=D, melds={0: ["Kc Kd Ks Kc Kd"]},
                 pile="Ks")
    assert legal(s) == ["draw", "pile"]
    out = run(s, "pile", "add K")
    assert out.phase == Phase.HAND_OVER and out.went_out == 0


def test_an_insufficient_initial_meld_is_still_a_step_on_the_way() -> None:
    """DOS manual, "Improper Melds": an insufficient meld may be made (more melds may follow
    to reach the requirement), and a discard attempt returns it."""
    s = position({0: "5c 5d 5h Kc Kd Kh 9c 8d"})
    s1 = run(s, "meld 5 5 5")                 # 15 of 50
    assert why(s1, "discard 9c") == "Initial meld needs 50 points; these melds count 15"
    assert "meld K K K" in legal(s1)


@pytest.mark.parametrize("preset", ["classic", "two-player", "windows", "mobile"])
def test_what_is_known_without_looking_ahead_agrees_with_looking_ahead(preset: str) -> None:
    """``legal_actions`` decides most melds down to one card from the canastas alone (it is
    called for every position a computer looks at); over random hands that decision is the
    one a look ahead makes: is there a discard or a meld (or ``end``) after the meld?"""
    import random

    from canasta_tui.engine import apply_legal, deal, full_deck, legal_actions
    from canasta_tui.engine.moves import _apply_unchecked, _last_card_can_go, _leaves_a_way_out, _meld_actions
    from canasta_tui.presets import load_rules

    rules = load_rules(preset)
    rng = random.Random(17)
    seen = {True: 0, False: 0}
    for h in range(200):
        deck = [int(c) for c in full_deck()]
        rng.shuffle(deck)
        s = deal(rules, deck, h % rules.players)
        while s.phase != Phase.HAND_OVER:
            n = len(s.hands[s.turn])
            if s.phase == Phase.MELD and n <= 4:
                for a in _meld_actions(s, one_card_rule=False):
                    if a.kind in ("meld", "add") and len(a.ranks) == n - 1:
                        looked = _last_card_can_go(_apply_unchecked(s, a))
                        assert _leaves_a_way_out(s, a) == looked, (s, a)
                        seen[looked] += 1
            legal = legal_actions(s)
            s = apply_legal(s, legal[rng.randrange(len(legal))])
    assert seen[True] >= 3 and seen[False] >= 3, seen       # both answers were checked
