"""Scenario tests: taking the discard pile, the frozen pile and stop cards (DOS manual,
Chapter 2, "Frozen Pile", "Stop Cards", "Taking the Discard Pile")."""

from __future__ import annotations

import pytest
from positions import cards, legal, position, run, why

from canasta_tui.engine import IllegalActionError, Phase

D = Phase.DRAW
FROZEN_MSG = "The pile is frozen (it holds a wild card): you need a natural pair of Nines from your hand"


def test_the_unfrozen_pile_goes_onto_an_existing_meld() -> None:
    """"When the discard pile is not frozen a player may add the upcard to an existing meld
    ... After the upcard has been melded, the remainder of the discard pile is incorporated
    into the player's hand." """
    s = position({0: "9h 2c 6c 7c"}, phase=D, melds={0: ["9c 9s 9h"]}, pile="8h Kd 9c")
    assert legal(s) == ["draw", "pile"]
    after = run(s, "pile")
    assert after.phase == Phase.MELD and after.pile == ()
    assert after.melds[0][9].naturals == cards("9c 9s 9h 9c")  # type: ignore[union-attr]
    assert after.hands[0] == tuple(sorted(cards("9h 2c 6c 7c 8h Kd")))
    assert why(s, "pile 9 2") == "Your side already has a meld of Nines: take the pile onto it with: pile"


def test_the_unfrozen_pile_makes_a_new_meld_with_a_pair_or_a_card_and_a_wild() -> None:
    """"... or may draw the upcard to complete a meld with two natural cards of the same rank
    from the hand"; when the pile is not frozen, one natural and a wild card will do (only
    the frozen pile excludes it: "A frozen pile cannot be taken with one natural card and
    one wild card")."""
    s = position({0: "9h 9d 2c 6c 7c"}, phase=D, melds={0: ["Ac Ad Ah"]}, pile="8h 9c")
    assert legal(s) == ["draw", "pile 9 9", "pile 9 2"]
    assert why(s, "pile") == ("Your side has no meld of Nines to add the upcard to; a new meld of Nines takes "
                              "a natural pair of them, or one and a wild card, from your hand")
    after = run(s, "pile 9 2")
    m = after.melds[0][9]
    assert m is not None and m.naturals == cards("9c 9d") and m.wilds == cards("2c")


def test_the_frozen_pile_needs_a_natural_pair() -> None:
    """"The frozen pile may be taken up only when the player holds two natural cards matching
    the upcard." "A frozen pile cannot be taken with one natural card and one wild card." """
    s = position({0: "9h 2d 6c 7c"}, phase=D, melds={0: ["Ac Ad Ah"]}, pile="2c 8h 9c")
    assert s.frozen
    assert legal(s) == ["draw"]
    assert why(s, "pile 9 2") == FROZEN_MSG
    with pytest.raises(IllegalActionError, match="you need a natural pair of Nines"):
        run(s, "pile 9 2")
    s2 = position({0: "9h 9d 6c 7c"}, phase=D, melds={0: ["Ac Ad Ah"]}, pile="2c 8h 9c")
    after = run(s2, "pile 9 9")
    assert not after.frozen  # "Once the pile is taken, it is no longer frozen."
    assert after.hands[0] == tuple(sorted(cards("6c 7c 2c 8h")))


def test_the_frozen_pile_never_goes_onto_an_existing_meld() -> None:
    """"It cannot be taken up to play on an existing meld." (Windows 2.41: "the pile may only
    be taken if the player has two Sevens in his hand, even though he has a column of three
    Sevens on the table".)"""
    s = position({0: "9h 5c 6c 7c"}, phase=D, melds={0: ["9c 9s 9h"]}, pile="2c 8h 9c")
    assert legal(s) == ["draw"]
    assert why(s, "pile") == FROZEN_MSG
    # with the natural pair it may be taken; the three nines join the side's meld of Nines
    s2 = position({0: "9h 9d 6c 7c"}, phase=D, melds={0: ["9c 9s 9h"]}, pile="2c 8h 9c")
    assert legal(s2) == ["draw", "pile 9 9"]
    assert run(s2, "pile 9 9").melds[0][9].size == 6  # type: ignore[union-attr]


def test_a_discarded_wild_card_freezes_the_pile() -> None:
    """"The discard pile is 'frozen' whenever it contains a wild card or red Three." """
    s = position({0: "JK 5c 6c 7c"}, melds={0: ["Ac Ad Ah"]}, pile="9c")
    assert not s.frozen
    after = run(s, "discard JK")
    assert after.frozen and after.pile == cards("9c JK")


@pytest.mark.parametrize(("top", "msg"), [
    ("2d", "A wild card on the pile is a stop card: draw from the stock"),
    ("JK", "A wild card on the pile is a stop card: draw from the stock"),
    ("3s", "A black three on the pile is a stop card: draw from the stock"),
    ("3c", "A black three on the pile is a stop card: draw from the stock"),
])
def test_stop_cards(top: str, msg: str) -> None:
    """"When the upcard of the discard pile is a wild card or a black Three, it is a called a
    'stop card'. The next player cannot take the discard pile but must draw from the stock." """
    s = position({0: "9h 9d 3c 3s 2c JK 7c"}, phase=D, melds={0: ["Ac Ad Ah"]}, pile="9s " + top)
    assert legal(s) == ["draw"]
    assert why(s, "pile") == msg
    assert why(s, "pile 9 9") == msg


def test_a_black_three_stops_only_while_it_is_the_upcard() -> None:
    """Online rules: "After the black three is covered by another card, it has no further
    effect, and the pile can be taken in the usual way." """
    s = position({0: "9h 9d 6c 7c"}, phase=D, melds={0: ["Ac Ad Ah"]}, pile="3s 9s")
    assert not s.frozen
    assert legal(s) == ["draw", "pile 9 9"]


def test_a_side_without_its_initial_meld_needs_a_natural_pair() -> None:
    """"The player may pick up the entire discard pile if the upcard can be used with two
    other natural cards of the same numerical rank to form a meld. Again since this is the
    player's initial meld, it must total at least 50 points." """
    s = position({0: "Kh 2d Ac Ad As 7c"}, phase=D, pile="8h Ks")
    assert legal(s) == ["draw"]
    assert why(s, "pile K 2") == ("Until your side has made its initial meld, the pile is frozen for you: "
                                  "you need a natural pair of Kings from your hand")
    s2 = position({0: "Kh Kd Ac Ad As 7c"}, phase=D, pile="8h Ks")
    assert legal(s2) == ["draw", "pile K K"]


def test_one_card_may_not_take_a_pile_of_one_card() -> None:
    """"A 'special rule' is that at no time may a player having only one card in hand take a
    discard pile consisting of only one card." """
    canasta = "Qh Qd Qc Qs Qh Qd Qc"
    s = position({0: "Kh"}, phase=D, melds={0: ["Kc Kd Ks", canasta]}, pile="Ks")
    assert legal(s) == ["draw"]
    assert why(s, "pile") == "With one card in your hand you may not take a pile of one card"
    s2 = position({0: "Kh"}, phase=D, melds={0: ["Kc Kd Ks", canasta]}, pile="7c Ks")
    assert legal(s2) == ["draw", "pile"]
    after = run(s2, "pile")
    assert legal(after) == ["add K", "discard 7c", "discard Kh"]


def test_taking_the_pile_must_leave_a_card_to_keep_or_go_out() -> None:
    """"The player's side must have melded at least one Canasta. Failing this requirement,
    the player must keep at least one card in hand": a pile that would leave no card to
    keep is not taken."""
    s = position({0: "Kh Kd"}, phase=D, melds={0: ["Ac Ad Ah"]}, pile="Ks")
    assert legal(s) == ["draw"]
    assert why(s, "pile K K") == "Taking the pile would leave you no card: your side cannot go out yet"


def test_an_empty_pile_cannot_be_taken() -> None:
    s = position({0: "Kh Kd 7c"}, phase=D, melds={0: ["Ac Ad Ah"]}, pile="")
    assert legal(s) == ["draw"]
    assert why(s, "pile K K") == "The pile is empty"


def test_after_drawing_the_pile_cannot_be_taken() -> None:
    """"must either draw a card from the stock or the upcard" (one or the other)."""
    s = position({0: "Kh Kd 7c"}, melds={0: ["Ac Ad Ah"]}, pile="Ks")
    assert why(s, "pile K K") == "You have already drawn this turn: meld or discard"
    assert why(s, "draw") == "You have already drawn this turn: meld or discard"
    d = position({0: "Kh Kd 7c"}, phase=D, melds={0: ["Ac Ad Ah"]}, pile="Ks")
    assert why(d, "discard 7c") == "Draw from the stock or take the pile first"
    assert why(d, "meld K K K") == "Draw from the stock or take the pile first"


def test_a_pile_frozen_by_a_wild_card_says_so_even_before_the_initial_meld() -> None:
    """Issue 10 #19: a pile frozen by a wild card was refused with "Until your side has made
    its initial meld, the pile is frozen for you", which hid the real reason.  DOS: "The
    discard pile is 'frozen' whenever it contains a wild card or red Three." """
    s = position({0: "9h 2d 6c 7c"}, phase=D, pile="2c 8h 9c")
    assert why(s, "pile 9 2") == FROZEN_MSG
    s = position({0: "9h 2d 6c 7c"}, phase=D, pile="3h 8h 9c")
    assert why(s, "pile 9 2") == FROZEN_MSG.replace("a wild card", "a red three")
