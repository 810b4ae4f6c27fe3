"""Scenario tests: going out, asking permission and exhausting the stock (DOS manual,
Chapter 2, "Going Out", "Concealed Hand", "Asking Permission", "Exhausting the Stock")."""

from __future__ import annotations

import pytest
from positions import cards, legal, position, run, why

from canasta_tui.engine import CLASSIC, IllegalActionError, Phase, score_hand
from canasta_tui.engine.state import HandEnd

D = Phase.DRAW
C7 = "Qh Qd Qc Qs Qh Qd Qc"
NO_CANASTA = "Your side needs a canasta to go out: keep at least one card"
ONE_LEFT = "That would leave you one card, which you could not discard: "


def test_going_out_needs_a_canasta() -> None:
    """"The player's side must have melded at least one Canasta. Failing this requirement,
    the player must keep at least one card in hand."  A turn ends by a discard ("The player
    then ends the turn by selecting a card from the hand for discard"), so a meld that leaves
    one card is a meld that leaves no way to end the turn: it is refused up front (it was
    offered, and then only ``undo`` was)."""
    s = position({0: "Kh Kd Kc 9h"}, melds={0: ["Qh Qd Qc"]})
    assert "meld K K K" not in legal(s) and "discard 9h" in legal(s)
    assert why(s, "meld K K K") == ONE_LEFT + "your side needs a canasta to go out"
    with pytest.raises(IllegalActionError, match=ONE_LEFT):
        run(s, "meld K K K")
    s2 = position({0: "Kh Kd Kc"}, melds={0: ["Qh Qd Qc"]})
    assert "meld K K K" not in legal(s2)
    assert why(s2, "meld K K K") == NO_CANASTA
    with pytest.raises(IllegalActionError, match=NO_CANASTA):
        run(s2, "meld K K K")


def test_going_out_by_discarding_the_last_card() -> None:
    """"A player 'Goes Out' when the last card from the players hand is either melded or
    discarded. When any player goes out, play ends and the hand is scored." Bonus:
    "Melding out 100 points"."""
    s = position({0: "Kh Kd Kc 9h", 1: "5c 6c", 2: "Ac", 3: "JK"}, melds={0: [C7]})
    out = run(s, "meld K K K", "discard 9h")
    assert out.phase == Phase.HAND_OVER and out.went_out == 0 and out.end_reason == HandEnd.WENT_OUT
    assert not out.concealed
    us, them = score_hand(out)
    # Queens 70 + Kings 30, natural canasta 500, going out 100, partner's ace -20
    assert us.total == 100 + 500 + 100 - 20
    # opponents: no meld, cards in hand 5 + 5 + 50
    assert them.total == -60


def test_going_out_by_melding_every_card_without_a_discard() -> None:
    """"A player need not make a discard after going out and may meld all remaining cards." """
    s = position({0: "Kh Kd Kc"}, melds={0: [C7]})
    out = run(s, "meld K K K")
    assert out.phase == Phase.HAND_OVER and out.went_out == 0
    assert out.pile == cards("7c")
    assert score_hand(out)[0].going_out == 100


def test_completing_the_canasta_while_going_out() -> None:
    """Concealed hand way 1: "the side must either have previously made a Canasta or the
    player must complete a Canasta in the course of melding out."  Going out on the
    partner's melds without having melded before is concealed (DOS manual)."""
    short = position({0: "Qh Qd 9c"}, melds={0: ["Qh Qd Qc Qs"]}, has_melded=(False, False, True, False))
    s1 = run(short, "add Q")
    assert "add Q" not in legal(s1)       # six Queens, one card left: no canasta to go out with
    assert why(s1, "add Q") == ONE_LEFT + "your side needs a canasta to go out"
    s = position({0: "Qh Qd 9c"}, melds={0: ["Qh Qd Qc Qs Qc"]}, has_melded=(False, False, True, False))
    out = run(s, "add Q", "add Q", "discard 9c")
    assert out.went_out == 0 and out.concealed
    assert score_hand(out)[0].going_out == 200


def test_melding_before_makes_going_out_not_concealed() -> None:
    """"A concealed hand is one in which a player goes out without previously having melded
    on the table." """
    s = position({0: "Qh Qd 9c"}, melds={0: ["Qh Qd Qc Qs Qc"]}, has_melded=(True, False, True, False))
    out = run(s, "add Q", "add Q", "discard 9c")
    assert out.went_out == 0 and not out.concealed
    assert score_hand(out)[0].going_out == 100


def test_asking_permission_yes_then_going_out() -> None:
    """"A player is legally entitled to ask, 'May I go out, partner?'. The partner must
    respond either 'Yes' or 'No'." """
    s = position({0: "Kh Kd Kc 9h"}, melds={0: [C7]})
    assert "ask" in legal(s)
    asked = run(s, "ask")
    assert asked.phase == Phase.PERMISSION and asked.actor == 2 and asked.turn == 0
    assert legal(asked) == ["yes", "no"]
    assert why(asked, "discard 9h") == "Player 3 must first answer: may Player 1 go out?"
    yes = run(asked, "yes")
    assert yes.actor == 0 and yes.phase == Phase.MELD
    assert why(yes, "ask") == "You have already asked this turn"
    out = run(yes, "meld K K K", "discard 9h")
    assert out.went_out == 0 and score_hand(out)[0].penalties == 0


def test_a_no_binds_for_the_turn() -> None:
    """"The player is bound by the reply for that round only." """
    s = position({0: "Kh Kd Kc 9h"}, melds={0: [C7]})
    no = run(s, "ask", "no")
    # melding the Kings would leave the Nine, and discarding it would be going out
    assert "meld K K K" not in legal(no)
    assert why(no, "meld K K K") == ONE_LEFT + "your partner said no to going out this turn"
    # the next turn the answer no longer binds
    later = run(no, "discard 9h")
    assert later.turn == 1 and later.t.permission == -1


def test_not_going_out_after_a_yes_costs_100() -> None:
    """"Should the player not abide by the answer, a 100 point penalty is assessed." """
    s = position({0: "Kh Kd Kc 9h", 1: "5c"}, melds={0: [C7]})
    s1 = run(s, "ask", "yes", "discard 9h")
    assert s1.turn == 1 and s1.penalties == (100, 0)
    end = s1._replace(phase=Phase.HAND_OVER)
    us = score_hand(end)[0]
    assert us.penalties == 100
    assert us.total == 70 + 500 - 30 - 100  # queens, canasta, three kings in hand, penalty


def test_ask_only_after_drawing_and_before_any_meld() -> None:
    """"Permission may only be asked after the player has drawn but before any meld." """
    d = position({0: "Kh Kd Kc 9h"}, phase=D, melds={0: [C7]})
    assert why(d, "ask") == "Permission may only be asked after drawing and before any meld"
    s = position({0: "Kh Kd Kc 9h 8h"}, melds={0: [C7]})
    s1 = run(s, "meld K K K")
    assert "ask" not in legal(s1)
    assert why(s1, "ask") == "Permission may only be asked after drawing from the stock and before any meld"
    assert why(s, "yes") == "Nobody has asked to go out"


def test_going_out_without_asking_is_allowed() -> None:
    """"A player may go out without asking permission." """
    s = position({0: "Kh Kd Kc 9h"}, melds={0: [C7]})
    assert run(s, "meld K K K", "discard 9h").went_out == 0


def test_a_red_three_as_last_card_of_the_stock_ends_play() -> None:
    """"If a player draws the last card of the stock and it is a red Three, the card is placed
    face up on the table and the play ends." """
    s = position({0: "Kh Kd 7c"}, phase=D, melds={0: ["Ac Ad Ah"]}, stock="3h")
    end = run(s, "draw")
    assert end.phase == Phase.HAND_OVER
    assert end.end_reason == HandEnd.LAST_CARD_RED_THREE
    assert end.red_threes[0] == cards("3h") and end.hands[0] == tuple(sorted(cards("Kd Kh 7c")))


def test_after_the_last_card_the_next_player_is_forced_to_take_a_fitting_upcard() -> None:
    """"If the last card is not a red Three then play continues and the next player is
    'forced' to pick up the discard provided it can be melded on an existing meld." """
    s = position({0: "Kh 9d 7c", 1: "5c 6c 8d"}, melds={0: ["Ac Ad Ah"], 1: ["9c 9s 9h"]}, stock="")
    s1 = run(s, "discard 9d")
    assert s1.turn == 1 and s1.phase == Phase.DRAW
    assert legal(s1) == ["pile"]
    assert why(s1, "draw") == "You must take the pile: the upcard fits a meld of your side and the stock is exhausted"
    assert why(s1, "end") == "You must take the pile: the upcard fits a meld of your side and the stock is exhausted"


def test_after_the_last_card_a_new_meld_is_optional() -> None:
    """"If it can't, then the player has the option of taking the pile so long as a valid new
    meld can be created, otherwise play ends." """
    s = position({0: "Kh Kd 7c", 1: "Kh Kd 5c 6c"}, melds={0: ["Ac Ad Ah"], 1: ["9c 9s 9h"]}, stock="")
    s1 = run(s, "discard Kd")
    assert legal(s1) == ["pile K K", "end"]
    assert why(s1, "draw") == "The stock is exhausted"
    ended = run(s1, "end")
    assert ended.phase == Phase.HAND_OVER and ended.end_reason == HandEnd.STOCK_EXHAUSTED
    took = run(s1, "pile K K")
    assert took.melds[1][13] is not None and took.phase == Phase.MELD


def test_after_the_last_card_play_ends_when_the_upcard_is_of_no_use() -> None:
    """"... otherwise play ends." """
    s = position({0: "Kh Kd 7c", 1: "9h 9d 5c 6c"}, melds={0: ["Ac Ad Ah"], 1: ["9c 9s 9h"]}, stock="")
    end = run(s, "discard Kh")
    assert end.phase == Phase.HAND_OVER and end.end_reason == HandEnd.STOCK_EXHAUSTED
    assert end.went_out == -1
    assert score_hand(end)[0].going_out == 0


def test_ask_is_offered_only_when_going_out_is_possible_this_turn() -> None:
    """Issue 10, item 8: a partner said "Yes, go out" with no canasta on the table, and the
    asker paid 100.  DOS "Going Out": "The player's side must have melded at least one
    Canasta. Failing this requirement, the player must keep at least one card in hand";
    "Asking Permission": "May I go out, partner?".  Query is lit only when going out is
    possible in principle this turn, and otherwise says what going out would take."""
    far = position({0: "Kh Kd 9c 8c 7d 6d"}, melds={0: ["Jh Jd Jc 2c", "Ah Ad Ac"]})
    assert "ask" not in legal(far)
    assert why(far, "ask") == ("Your side has no canasta yet: going out needs one, and your hand cannot "
                               "complete one this turn: there is nothing to ask")
    # five Jacks on the table and two in the hand make seven: asking makes sense
    near = position({0: "Jh Jd 9c 8c"}, melds={0: ["Jh Jd Jc Js 2c"]})
    assert "ask" in legal(near)
    # wild cards count within the wild limit: J J J J + 2 + JK + JK in hand would hold three wilds
    wild = position({0: "Jh JK JK 9c"}, melds={0: ["Jh Jd Jc 2c"]})
    assert "ask" in legal(wild)
    assert "ask" not in legal(position({0: "Jh JK JK 9c"}, rules=CLASSIC.replace(max_wilds=2),
                                       melds={0: ["Jh Jd Jc 2c"]}))
    # a concealed canasta in the hand
    assert "ask" in legal(position({0: "Qh Qd Qc Qs Qh Qd Qc 9c"}))


def test_ask_with_two_canastas_needed() -> None:
    """Windows 2.41, "Canastas needed to go out": one or two."""
    two = CLASSIC.replace(canastas_to_go_out=2)
    s = position({0: "Kh Kd Kc 9h"}, rules=two, melds={0: [C7]})
    assert why(s, "ask") == ("Your side has one canasta: going out needs two, and your hand cannot complete "
                             "another this turn: there is nothing to ask")
    assert "ask" in legal(position({0: "Kh Kd 9h"}, rules=two, melds={0: [C7, "Kc Ks Kh Kd Kc"]}))


def test_ask_when_a_concealed_hand_needs_no_canasta() -> None:
    """Mobile app, "Concealed Going Out": "If 'Unrestricted' is selected, there are no
    restrictions": a player who has not melded may go out with any melds."""
    free = CLASSIC.replace(concealed_needs_canasta=False)
    assert "ask" in legal(position({0: "Kh Kd Kc 9h"}, rules=free))
    assert "ask" not in legal(position({0: "Kh Kd Kc 9h"}))
