"""Scenario tests: melds, canastas and black threes (DOS manual, Chapter 2, "Melds",
"Black Threes", "Canastas")."""

from __future__ import annotations

import pytest
from positions import cards, legal, position, run, why

from canasta_tui.engine import IllegalActionError, Phase, legal_actions, parse_action, score_hand

C7 = "Qh Qd Qc Qs Qh Qd Qc"  # a natural canasta of Queens
HAND = "Kh Kd Kc 2c 2d JK 9h 9d 5c 6c"


def opened() -> object:
    return position({0: HAND}, melds={0: ["Qh Qd Qc 2s 2h JK"], 1: ["Jh Jd Jc"]})


def test_a_meld_is_three_or_more_cards_of_one_rank() -> None:
    """"A Meld is a combination of three or more cards of the same rank, with or without the
    help of wild cards." """
    s = position({0: HAND}, melds={0: ["Qh Qd Qc 2s 2h JK"], 1: ["Jh Jd Jc"]})
    assert "meld K K K" in legal(s) and "meld K K 2" in legal(s) and "meld K K JK" in legal(s)
    assert why(s, "meld K K") == "Start a meld with three cards (K K K or K K 2), then add more"
    assert why(s, "meld K K 9") == "A meld is made of one rank (with wild cards)"
    after = run(s, "meld K K 2", "add K")
    m = after.melds[0][13]
    assert m is not None and m.naturals == cards("Kc Kd Kh") and m.wilds == cards("2c")
    assert after.hands[0] == tuple(sorted(cards("2d JK 9h 9d 5c 6c")))


def test_a_meld_needs_two_naturals() -> None:
    """"A meld is valid if it contains at least two natural cards of the same rank." """
    s = position({0: HAND}, melds={0: ["Ah Ad Ac"]})
    assert why(s, "meld K 2 2") == "A meld needs at least two natural cards"
    with pytest.raises(IllegalActionError, match="A meld needs at least two natural cards"):
        run(s, "meld K 2 JK")


def test_a_meld_holds_at_most_three_wild_cards() -> None:
    """A meld is valid if it contains "not more than three wild cards"."""
    s = position({0: HAND}, melds={0: ["Qh Qd Qc 2s 2h JK"]})
    assert why(s, "add 2 to Q") == "A meld may hold at most 3 wild cards"
    assert not any(a.startswith("add") and a.endswith("to Q") for a in legal(s))
    s2 = position({0: HAND}, melds={0: ["Qh Qd Qc 2s 2h"]})
    assert run(s2, "add JK to Q").melds[0][12].wilds == cards("2s 2h JK")  # type: ignore[union-attr]
    assert why(run(s2, "add JK to Q"), "add 2 to Q") == "A meld may hold at most 3 wild cards"


def test_wild_cards_are_never_melded_alone() -> None:
    """"Jokers and deuces may never be melded separately from natural cards." """
    s = position({0: "2c 2d JK 9h 5c"}, melds={0: ["Ah Ad Ac"]})
    assert why(s, "meld 2 2 JK") == "Jokers and deuces may never be melded apart from natural cards"
    assert not any(a.startswith("meld") for a in legal(s))


def test_partnership_melds_are_shared_one_per_rank() -> None:
    """"A partnership may not make two separate melds of the same rank"; the partner adds to
    the side's meld ("A player may add one or more cards of the same rank including wild
    cards to a previous meld")."""
    s = position({2: "Qs Qs Qd 8c 9c"}, turn=2, melds={0: ["Qh Qd Qc"]})
    assert why(s, "meld Q Q Q") == "Your side already has a meld of Queens: add to it"
    assert "meld Q Q Q" not in legal(s) and "add Q" in legal(s)
    after = run(s, "add Q", "add Q", "add Q")
    assert after.melds[0][12].size == 6  # type: ignore[union-attr]


def test_a_rank_melded_by_the_opponents_may_be_melded_too() -> None:
    """A partnership "may meld a rank also melded by the opponent"."""
    s = position({1: "Qs Qs Qd 8c 9c"}, turn=1, melds={0: ["Qh Qd Qc"]})
    after = run(s, "meld Q Q Q")
    assert after.melds[1][12] is not None and after.melds[0][12] is not None


def test_never_play_on_the_opponents_melds() -> None:
    """"A player may never play on an opponents meld." """
    s = position({0: "Jh 2c 9c 8c"}, melds={0: ["Ah Ad Ac"], 1: ["Jh Jd Jc"]})
    assert why(s, "add J") == "Your side has no meld of Jacks to add to"
    assert why(s, "add 2 to J") == "Your side has no meld of Jacks to add to"
    assert not any("J" in a.split()[1:] for a in legal(s) if not a.startswith("discard"))


def test_canastas_natural_500_mixed_300() -> None:
    """"A meld comprising seven or more cards is a Canasta ... A natural Canasta consists of
    seven cards of the same rank without any wild cards ... A mixed Canasta must have at
    least four natural cards and not more than three wild cards." Scoring: "Canasta
    (natural) 500 points each, Canasta (mixed) 300 points each"."""
    s = position({0: "Kc 9c", 1: "8c"}, melds={0: ["Kh Kd Kc Ks Kh Kd", "Ah Ad Ac As 2c 2d JK"]})
    assert s.canastas(0) == 1
    s = run(s, "add K")
    assert s.canastas(0) == 2
    k, a = s.melds[0][13], s.melds[0][1]
    assert k is not None and a is not None
    assert k.kind == "natural canasta" and a.kind == "mixed canasta"
    end = run(s, "discard 9c")
    assert end.phase == Phase.HAND_OVER and end.went_out == 0
    us = score_hand(end)[0]
    assert us.natural_canastas == 1 and us.mixed_canastas == 1
    assert us.canasta_bonus == 800
    # 7 kings 70, 4 aces 80 + 2 deuces 40 + joker 50, going out 100
    assert us.melds == 70 + 80 + 40 + 50
    assert us.total == 240 + 800 + 100


def test_black_threes_only_when_going_out() -> None:
    """"A set of three or four black Threes may only be melded when the player goes out in
    the same turn." "Black Threes cannot be melded at any other time." They must be "the
    last cards to be melded" (Windows 2.41)."""
    s = position({0: "3c 3s 3c 9h"}, melds={0: [C7]})
    assert "meld 3 3 3" in legal(s)
    out = run(s, "meld 3 3 3", "discard 9h")
    assert out.phase == Phase.HAND_OVER and out.went_out == 0
    assert out.melds[0][3] is not None and out.melds[0][3].size == 3
    # with two other cards left the black threes are not the last cards melded
    s2 = position({0: "3c 3s 3c 9h 8h"}, melds={0: [C7]})
    assert "meld 3 3 3" not in legal(s2)
    assert why(s2, "meld 3 3 3") == \
        "Black threes may be melded only when going out, once your side has the canastas to go out"


def test_black_threes_need_the_canasta_to_go_out() -> None:
    """Black threes are melded only when going out, and "The player's side must have melded
    at least one Canasta" to go out."""
    s = position({0: "3c 3s 3c 9h"}, melds={0: ["Qh Qd Qc Qs"]})
    assert why(s, "meld 3 3 3") == \
        "Black threes may be melded only when going out, once your side has the canastas to go out"


def test_black_threes_never_with_wild_cards() -> None:
    """"Black Threes cannot be melded at any other time, nor melded with wild cards." """
    s = position({0: "3c 3s 2c 9h"}, melds={0: [C7]})
    assert why(s, "meld 3 3 2") == "Black threes cannot be melded with wild cards"


def test_four_black_threes_go_out_without_discard() -> None:
    """"A set of three or four black Threes"; "A player need not make a discard after going
    out and may meld all remaining cards." """
    s = position({0: "3c 3s 3c 3s"}, melds={0: [C7]})
    assert legal(s)[:2] == ["meld 3 3 3", "discard 3c"]
    s = run(s, "meld 3 3 3")
    assert legal(s) == ["add 3", "discard 3s", "undo"]
    out = run(s, "add 3")
    assert out.went_out == 0 and out.melds[0][3].size == 4  # type: ignore[union-attr]


def test_melding_an_unknown_rank_is_refused_with_what_the_hand_holds() -> None:
    s = position({0: "Kh Kd 9c"}, melds={0: ["Ah Ad Ac"]})
    assert why(s, "meld K K K") == "You hold 2 Kings; the meld needs 3"
    assert why(s, "add 9 to K") == "Your side has no meld of Kings to add to"
    with pytest.raises(IllegalActionError, match="You hold 2 Kings; the meld needs 3"):
        run(s, "meld K K K")
    assert parse_action("meld K K K") not in legal_actions(s)
