"""Reading the pile: the cards in it are the discards in turn order, so a seat can tell which
ranks the next player let go (DOS "Strategy": "The object of the game is to take the pack";
"Build up a hand of pairs").  A player who keeps pairs to take the pile does not discard one of
them, and does not draw over an upcard it holds a natural pair of once its side has melded
(the classic rule of taking the pile: the upcard and a natural pair of its rank).  So a rank the
next player discarded, or passed, is a safe discard, and the coach says so
(tests/ai/test_coach.py).  Seat 0 and seat 2 are partners; play goes 0, 1, 2, 3.
"""

from __future__ import annotations

from canasta_tui.ai.knowledge import passed_ranks
from canasta_tui.engine import GameState, view_for
from canasta_tui.engine.cards import RANK_OF, parse_cards

from .helpers import position


def piled(s: GameState, pile: str) -> GameState:
    """``s`` with the pile in the order written: bottom first, the upcard last."""
    return s._replace(pile=tuple(int(c) for c in parse_cards(pile)))


def ranks(text: str) -> frozenset[int]:
    return frozenset(RANK_OF[int(c)] for c in parse_cards(text))


# Bottom to top: seat 2 threw the 4, seat 3 the 9, seat 0 the Queen, seat 1 the Seven, seat 2
# the Six, seat 3 the Eight (the upcard); seat 0 is to discard.
PILE = "4s 9d Qh 7c 6h 8c"


def test_the_pile_tells_which_ranks_the_next_player_discarded_and_drew_over() -> None:
    s = piled(position({0: "Jc Kd 5h 10s 6c"}, melds={1: ["Ah Ad As"]}), PILE)
    # Seat 1 discarded the Seven, and drew over seat 0's Queen with its side open.
    assert passed_ranks(view_for(s, 0), 1) == ranks("7c Qh")
    # Seat 2 (the partner) discarded the Six and the Four; it drew over the Seven, but its side
    # has not melded.
    assert passed_ranks(view_for(s, 0), 2) == ranks("6h 4s")


def test_an_upcard_drawn_over_before_the_side_melded_says_nothing() -> None:
    """Before its side's initial meld a natural pair may not be enough to take the pile (the
    initial meld requirement), so drawing over the Queen does not show that seat 1 lacks two."""
    s = piled(position({0: "Jc Kd 5h 10s 6c"}), PILE)
    assert passed_ranks(view_for(s, 0), 1) == ranks("7c")


def test_the_cards_turned_up_at_the_deal_are_nobodys_discards() -> None:
    """Two turns into the hand (seats 2 and 3 have played), the bottom four cards of a pile of six
    were turned up at the deal (a Deuce turned up freezes the pile and another card follows):
    only the top two are discards, and seat 1 has not had a turn, so nothing is known of it."""
    s = piled(position({0: "Jc Kd 5h 10s 6c"}, melds={1: ["Ah Ad As"]}, turn_number=2), "4s 2d Qh 7c 6h 8c")
    assert passed_ranks(view_for(s, 0), 2) == ranks("6h")
    assert passed_ranks(view_for(s, 0), 1) == frozenset()


def test_a_stop_card_drawn_over_says_nothing() -> None:
    """Classic online rules: "By discarding a black three you prevent the next player from taking
    the discard pile": seat 1 drew over seat 0's black three because it had to, pair or not."""
    s = piled(position({0: "Jc Kd 5h 10s 6c"}, melds={1: ["Ah Ad As"]}), "4s 9d 3c 7c 6h 8c")
    assert passed_ranks(view_for(s, 0), 1) == ranks("7c")
