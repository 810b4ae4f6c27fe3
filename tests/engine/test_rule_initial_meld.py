"""Scenario tests: the initial meld requirement and the turn-end checks (DOS manual,
Chapter 2, "Initial Meld Requirement", "Irregularities: Improper Meld")."""

from __future__ import annotations

import pytest
from positions import hand_text, legal, position, run, stacked_deck, why

from canasta_tui.engine import CLASSIC, IllegalActionError, Phase, deal, meld_count, meld_needed, score_hand
from canasta_tui.presets import load_rules

D = Phase.DRAW


@pytest.mark.parametrize(("score", "needed"), [
    (-5, 15), (-2000, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120), (4995, 120), (7000, 120),
])
def test_the_requirement_table(score: int, needed: int) -> None:
    """"PLAYERS SCORE / REQUIRED MELD: minus 15 points; from 0 to 1495 50 points; from 1500 to
    2995 90 points; from 3000 to 4995 120 points." """
    assert CLASSIC.requirement(score) == needed


def test_the_requirement_depends_on_the_score_at_the_start_of_the_hand() -> None:
    """The requirement "depends on the accumulated score of the partnership at the beginning
    of the hand"."""
    s = deal(CLASSIC, stacked_deck([]), 0, scores=(1500, -40))
    assert s.requirements == (90, 15)
    assert meld_needed(s) == 15  # seat 1 (team 1) plays first


def test_several_melds_count_together_checked_at_the_discard() -> None:
    """"To meet the minimum a player may meld two or more different ranks." The count is
    checked when the turn ends: "If a player makes an improper meld either from an
    insufficient meld count ... the meld must be returned to the hand." """
    s = position({0: "Kh Kd Kc 7h 7d 7c Ac Ad 2s 9s 8s"})
    s1 = run(s, "meld K K K")
    assert meld_count(s1) == 30
    assert not any(a.startswith("discard") for a in legal(s1))
    assert why(s1, "discard 9s") == "Initial meld needs 50 points; these melds count 30"
    with pytest.raises(IllegalActionError, match="Initial meld needs 50 points; these melds count 30"):
        run(s1, "discard 9s")
    s2 = run(s1, "meld 7 7 7")
    assert why(s2, "discard 9s") == "Initial meld needs 50 points; these melds count 45"
    s3 = run(s2, "meld A A 2")
    assert meld_count(s3) == 105
    after = run(s3, "discard 9s")
    assert after.turn == 1 and after.opened(0)


def test_an_improper_meld_goes_back_to_the_hand_nothing_lost() -> None:
    """"If a player makes an improper meld ... the meld must be returned to the hand":
    undo gives back exactly the position before the melds."""
    s = position({0: "Kh Kd Kc 7h 7d 7c 9s 8s"})
    s2 = run(s, "meld K K K", "meld 7 7 7")
    assert legal(s2) == ["undo"]
    assert run(s2, "undo") == run(s, "meld K K K")
    assert run(s2, "undo", "undo") == s
    assert "discard 9s" in legal(s)


def test_bonuses_do_not_count_toward_the_requirement() -> None:
    """"Bonuses for red Threes and Canastas do not count toward the requirement." """
    s = position({0: "4h 4d 4c 4s 4h 4d 4c 9s 8s"}, red_threes={0: "3h 3d"})
    s = run(s, "meld 4 4 4", "add 4", "add 4", "add 4", "add 4")
    assert s.canastas(0) == 1
    assert why(s, "discard 9s") == "Initial meld needs 50 points; these melds count 35"


def test_from_the_pile_only_the_upcard_counts() -> None:
    """"If the player takes the discard pile, only the upcard (and no other card from the
    pile) may count toward this requirement." (Online rules' example: a king on top, a king
    and a queen buried; two kings, two queens and a two in hand: K-K-K and Q-Q-2 make 70.)"""
    s = position({0: "Kh Kd Qh Qd 2c 5c 6c"}, phase=D, pile="Kc Qs Ks")
    assert legal(s) == ["draw", "pile K K"]
    s1 = run(s, "pile K K")
    assert meld_count(s1) == 30
    assert why(s1, "discard 5c") == "Initial meld needs 50 points; these melds count 30"
    s2 = run(s1, "meld Q Q 2")
    assert meld_count(s2) == 70
    s3 = run(s2, "add K", "add Q")  # the buried king and queen do not count
    assert meld_count(s3) == 70
    assert "discard 5c" in legal(s3)


@pytest.mark.parametrize("preset", ["classic", "samba", "bolivia"])
def test_from_the_pile_its_cards_of_a_rank_the_hand_holds_do_not_count(preset: str) -> None:
    """DOS, "Initial Meld Requirement": "If the player takes the discard pile, only the upcard
    (and no other card from the pile) may count toward this requirement"; online rules: "You
    cannot count any other cards in the pile which you may intend to add in the same turn."
    A♦ A♣ A♠ lie under the upcard and the hand holds A♥ A♥: melding the three Aces the pile
    brought counts none of them (the count was 70, crediting them for the hand's Aces).  Samba
    and Bolivia count the initial meld as classic does (rules/RULES.md, "Samba and Bolivia":
    only the requirement's figures change)."""
    s = position({0: "Ah Ah 2c 9h 9d 5c 6c 7d 8s"}, rules=load_rules(preset), phase=D, pile="Ad Ac As 9c")
    assert legal(s) == ["draw", "pile 9 9"]
    taken = run(s, "pile 9 9")
    assert meld_count(taken) == 30            # the upcard and the natural pair from the hand
    pile_aces = run(taken, "meld Ac Ad As")
    assert meld_count(pile_aces) == 30
    assert not any(a.startswith("discard") for a in legal(pile_aces))
    assert why(pile_aces, "discard 5c") == ("Initial meld needs 50 points; these melds count 30 "
                                            "(of the pile only the upcard counts, not the cards it brought)")
    # The hand's own Aces count: named, or written by rank (which then uses the hand's copies).
    own = run(taken, "meld Ah Ah Ac")
    by_rank = run(taken, "meld A A A")
    for after in (own, by_rank):
        assert meld_count(after) == 70
        assert sorted(hand_text(after, 0).split()).count("Ah") == 0
        assert "discard 5c" in legal(after)
    # An Ace the pile brought added to the hand's Aces adds nothing to the count.
    assert meld_count(run(by_rank, "add A")) == 70


def test_from_the_pile_the_rest_waits_where_the_rules_say_so() -> None:
    """Windows 2.41 rule 7 (``undo_pile_allowed``): "you must have melded at least the minimum
    amount of points" before "you receive the rest of the discard pile": the Aces under the
    upcard are not in the hand to meld until the requirement is met from the hand."""
    s = position({0: "Ah Ah 2c 9h 9d 5c 6c 7d 8s"}, rules=load_rules("windows"), phase=D, pile="Ad Ac As 9c")
    taken = run(s, "pile 9 9")
    assert "Ac" not in hand_text(taken, 0).split()
    assert why(taken, "meld A A A") == "You hold 2 Aces; the meld needs 3"
    after = run(taken, "meld A A 2")
    assert meld_count(after) == 90 and "Ac" in hand_text(after, 0).split()


def test_from_the_pile_a_requirement_out_of_reach_refuses_the_pile() -> None:
    """Same example with a requirement of 90: "you could not make this play if you needed a
    minimum count of 90"."""
    s = position({0: "Kh Kd Qh Qd 2c 5c 6c"}, phase=D, pile="Kc Qs Ks", requirements=(90, 50))
    assert legal(s) == ["draw"]
    assert why(s, "pile K K") == "Initial meld needs 90 points; taking the pile this way makes at most 70"
    # Asked without saying how (the Pile key): the pair is there, so the reason is the requirement,
    # not "you need a natural pair of Kings" (found playing: it told a player holding the pair so).
    assert why(s, "pile") == "Initial meld needs 90 points; taking the pile makes at most 70"


def test_after_the_initial_meld_any_valid_meld() -> None:
    """"After a partnership has made it's initial meld, either partner may make any valid
    melds without reference to any minimum count." """
    s = position({2: "4h 4d 4c 9s 8s"}, turn=2, melds={0: ["Ac Ad Ah"]}, requirements=(120, 50))
    assert meld_needed(s) == 0
    after = run(s, "meld 4 4 4", "discard 9s")
    assert after.turn == 3


def test_a_concealed_going_out_waives_the_requirement() -> None:
    """"When a player 'Goes Out' concealed, this requirement is waived however the player is
    still responsible for one Canasta." Concealed hand bonus: "Melding out 100 points,
    Concealed hand 100 points"."""
    s = position({0: "4h 4d 4c 4s 4h 4d 4c 9c"}, melds={1: ["Ah Ad Ac"]})
    s1 = run(s, "meld 4 4 4", "add 4", "add 4", "add 4")
    assert why(s1, "discard 9c") == "Initial meld needs 50 points; these melds count 30"
    out = run(s1, "add 4", "discard 9c")
    assert out.phase == Phase.HAND_OVER and out.went_out == 0 and out.concealed
    us = score_hand(out)[0]
    assert us.going_out == 200
    assert us.total == 35 + 500 + 200  # seven fours, natural canasta, going out concealed


def test_a_concealed_going_out_still_needs_a_canasta() -> None:
    """"... however the player is still responsible for one Canasta." """
    s = position({0: "4h 4d 4c 5h 5d 5c 9c"})
    s1 = run(s, "meld 4 4 4")
    assert "meld 5 5 5" not in legal(s1)      # it would leave one card, and no way to end the turn
    assert why(s1, "meld 5 5 5") == ("That would leave you one card, which you could not discard: "
                                     "your side needs a canasta to go out")


def test_taking_the_pile_is_never_a_concealed_waiver() -> None:
    """The waiver is for melding out concealed after drawing from the stock (online rules:
    "If, having drawn from the stock, you are able to meld your entire hand ...")."""
    s = position({0: "4h 4d 4s 4h 4d 4c"}, phase=D, pile="9c 4c")
    assert legal(s) == ["draw"]
    assert (why(s, "pile 4 4") or "").startswith("Initial meld needs 50 points; taking the pile this way makes at most")
