"""A sampled deal (``determinize``: "unseen cards dealt at random") deals them at random
everywhere, the order of the stock included.  The computers' searches play out such deals, so a
stock whose top is not random makes them expect cards the real stock does not hold.

Found 2026-11-24: the hands of players who had laid out their red threes took plain cards from the
front of the shuffled unseen cards, which left the red threes they passed over at the stock's top:
in four deals of five the next card drawn was a red three (100 points to whoever drew it), so the
Expert thought drawing from the stock worth hundreds of points more than taking a small pile.
"""

from __future__ import annotations

import random

from canasta_tui.ai import make_player
from canasta_tui.engine import CLASSIC, GameState, Phase, apply, deal, determinize, full_deck, view_for
from canasta_tui.engine.cards import IS_RED_THREE
from canasta_tui.engine.view import unseen_cards

DEALS = 3000


def position_with_red_threes_unseen() -> GameState:
    """Early in a hand (every seat has had a turn, so every hand is dealt only plain cards) with
    at least two red threes still unseen, all of them in the stock."""
    for seed in range(200):
        rng = random.Random(seed)
        deck = list(full_deck(CLASSIC.packs))
        rng.shuffle(deck)
        s = deal(CLASSIC, deck, 0)
        ps = [make_player("beginner", seed + i) for i in range(4)]
        while s.turn_number < 5 and s.phase != Phase.HAND_OVER:
            s = apply(s, ps[s.actor].choose(view_for(s, s.actor)))
        if s.phase == Phase.DRAW and sum(IS_RED_THREE[c] for c in s.deck[s.stock_pos:]) >= 2:
            return s
    raise AssertionError("no such position in 200 deals")


def test_the_stock_of_a_sampled_deal_is_in_random_order() -> None:
    s = position_with_red_threes_unseen()
    v = view_for(s, s.turn)
    red = sum(IS_RED_THREE[c] for c in unseen_cards(v))
    stock = v.stock_size
    rng = random.Random(7)
    top = bottom = 0
    for _ in range(DEALS):
        w = determinize(v, rng)
        cards = w.deck[w.stock_pos:]
        assert len(cards) == stock and sum(IS_RED_THREE[c] for c in cards) == red   # all in the stock
        top += IS_RED_THREE[cards[0]]
        bottom += IS_RED_THREE[cards[-1]]
    expected = DEALS * red / stock
    spread = 4 * (expected * (1 - red / stock)) ** 0.5   # four standard deviations of a binomial
    assert abs(top - expected) < spread, f"a red three on top in {top} of {DEALS} deals; random: {expected:.0f}"
    assert abs(bottom - expected) < spread
