"""Improper melds are an engine rule (issue 10, item 21): attempting to discard returns the
turn's last meld to the hand, one meld per attempt, whatever the front end.

DOS manual, Chapter 1, "Improper Melds": "Should you make an improper meld or insufficient
meld, you can always have the melds returned to your hand by attempting to discard a card.
An error message will be generated and the cards will be returned to your hand. As an
example, suppose your meld requirement is 120, but you have only melded 110 consisting of
multiple melds. If you try to discard, an error message will be generated and one of the
melds will be returned to your hand. To have the remaining meld(s) returned, select the
discard function again."  Chapter 2, "Irregularities": "Improper Meld: If a player makes an
improper meld either from an insufficient meld count or number of cards contained in the
meld, the meld must be returned to the hand."
"""

from __future__ import annotations

from positions import cards, position, run

from canasta_tui.engine import Phase, apply, apply_legal, improper_melds, legal_actions, parse_action
from canasta_tui.engine.moves import may_meld_to_one_card

DISCARD_9C = parse_action("discard 9c")


def test_the_dos_example_returns_one_meld_per_attempt() -> None:
    """Requirement 120, 110 melded in three melds: each discard attempt returns one."""
    s = position({0: "Ah Ad Ac Kh Kd Kc 4c 4d 4h 4s 9c 5c"}, requirements=(120, 120))
    s = run(s, "meld A A A", "meld K K K", "meld 4 4 4", "add 4")
    assert DISCARD_9C not in legal_actions(s)
    first = improper_melds(s, DISCARD_9C)
    assert first is not None
    assert first.reason == "Initial meld needs 120 points; these melds count 110"
    assert first.undo == (parse_action("undo"),) * 2      # the Fours: the meld and the card added
    assert (first.rank, first.whole, first.more) == (4, True, True)
    assert first.cards == tuple(sorted(cards("4c 4d 4h 4s")))
    for u in first.undo:
        s = apply(s, u)                                    # legal undos: the log replays
    assert s.melds[0][4] is None and s.melds[0][13] is not None
    second = improper_melds(s, DISCARD_9C)
    assert second is not None and second.undo == (parse_action("undo"),)
    assert (second.rank, second.more) == (13, True)
    s = apply(s, second.undo[0])
    third = improper_melds(s, DISCARD_9C)
    assert third is not None and (third.rank, third.more) == (1, False)
    s = apply(s, third.undo[0])
    assert DISCARD_9C in legal_actions(s) and improper_melds(s, DISCARD_9C) is None
    assert len(s.hands[0]) == 12 and s.phase == Phase.MELD


def test_cards_added_to_an_older_meld_come_back_alone() -> None:
    """Melding the last card but one when the side has no canasta: the discard would be
    going out ("The player's side must have melded at least one Canasta"), so the card
    added goes back; the meld of Kings from an earlier turn stays.  Such a meld is refused
    up front now (it leaves no way to end the turn), but a game saved before that rule
    replays it (``may_meld_to_one_card``) and plays on from it."""
    before = position({0: "Kh 9c"}, melds={0: ["Kc Kd Ks"]})
    add_k = parse_action("add K")
    assert add_k not in legal_actions(before) and may_meld_to_one_card(before, add_k)
    s = apply_legal(before, add_k)
    im = improper_melds(s, DISCARD_9C)
    assert im is not None
    assert im.reason == "Your side needs a canasta to go out: keep at least one card"
    assert (im.undo, im.rank, im.whole, im.more, im.cards) == ((parse_action("undo"),), 13, False, False, cards("Kh"))
    back = apply(s, im.undo[0])
    assert DISCARD_9C in legal_actions(back)


def test_melds_made_to_take_the_pile_stay_and_only_the_reason_is_given() -> None:
    """Taking the pile melds the upcard with cards from the hand: that cannot be taken back."""
    s = run(position({0: "Kh Kd 8c 8d 8h 9c 5c"}, phase=Phase.DRAW, pile="4c Ks"), "pile K K")
    im = improper_melds(s, DISCARD_9C)
    assert im is not None and im.reason.startswith("Initial meld needs 50 points; these melds count 30")
    assert (im.undo, im.rank, im.more) == ((), 0, False)


def test_other_refusals_are_not_improper_melds() -> None:
    s = position({0: "Kh Kd Kc 9c 5c"})
    assert improper_melds(s, DISCARD_9C) is None                         # legal
    assert improper_melds(s, parse_action("discard 7h")) is None         # not held
    assert improper_melds(s, parse_action("meld K K K")) is None         # not a discard
    assert improper_melds(position({0: "Kh 9c"}, phase=Phase.DRAW), DISCARD_9C) is None  # not drawn yet
