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
    """The third turn of the hand (the game numbers the first turn 1; seats 2 and 3 have played),
    the bottom four cards of a pile of six were turned up at the deal (a Deuce turned up freezes
    the pile and another card follows): only the top two are discards, and seat 1 has not had a
    turn, so nothing is known of it."""
    s = piled(position({0: "Jc Kd 5h 10s 6c"}, melds={1: ["Ah Ad As"]}, turn_number=3), "4s 2d Qh 7c 6h 8c")
    assert passed_ranks(view_for(s, 0), 2) == ranks("6h")
    assert passed_ranks(view_for(s, 0), 1) == frozenset()


def test_a_stop_card_drawn_over_says_nothing() -> None:
    """Classic online rules: "By discarding a black three you prevent the next player from taking
    the discard pile": seat 1 drew over seat 0's black three because it had to, pair or not."""
    s = piled(position({0: "Jc Kd 5h 10s 6c"}, melds={1: ["Ah Ad As"]}), "4s 9d 3c 7c 6h 8c")
    assert passed_ranks(view_for(s, 0), 1) == ranks("7c")


def test_the_deals_upcard_is_not_the_dealers_discard_in_a_dealt_and_played_hand() -> None:
    """Issue 33: "`knowledge.passed_ranks` counts the upcard left in the pile at the deal as the
    dealer's discard ... and its test numbers the turns the same wrong way."  Dealt and played by the
    engine (the turns numbered as the game numbers them): after the first two players drew and
    discarded, the third player's next player is the dealer, who has not had a turn; the pile shows
    nothing of the dealer's hand, and the coach's reason for a discard of the upcard's rank does not
    say the dealer let it go.  The first player's discard is its own, known from the pile."""
    from canasta_tui.ai import make_player
    from canasta_tui.ai.coach import reason
    from canasta_tui.engine import CLASSIC, Phase, apply, deal
    from canasta_tui.engine import actions as A
    from canasta_tui.engine.cards import DEUCE, JOKER, THREE

    from .helpers import shuffled

    checked = reasons = 0
    for seed in range(60):
        s = deal(CLASSIC, shuffled(seed), seed % 4)
        if len(s.pile) != 1 or RANK_OF[s.pile[0]] in (THREE, DEUCE, JOKER):
            continue
        upcard = s.pile[0]
        players = [make_player("advanced", seed + p) for p in range(4)]
        while s.turn_number < 3 and s.phase != Phase.HAND_OVER:
            s = apply(s, players[s.actor].choose(view_for(s, s.actor)))
        if s.turn_number != 3 or len(s.pile) != 3 or s.pile[0] != upcard:
            continue                                    # the pile was taken: nothing to read here
        s = apply(s, A.A_DRAW) if s.phase == Phase.DRAW else s
        v = view_for(s, s.actor)
        dealer, first = s.dealer, (s.dealer + 1) % 4
        assert (s.actor + 1) % 4 == dealer
        assert passed_ranks(v, dealer) == frozenset()
        assert RANK_OF[s.pile[1]] in passed_ranks(v, first) or RANK_OF[s.pile[1]] in (THREE, DEUCE, JOKER)
        same = [a for a in v.legal if a.kind == A.DISCARD and RANK_OF[a.card] == RANK_OF[upcard]]
        for a in same:
            assert "let" not in reason(a, v), reason(a, v)
        checked += 1
        reasons += len(same)
    assert checked >= 8 and reasons >= 2
