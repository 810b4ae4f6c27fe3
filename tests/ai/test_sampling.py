"""The Expert's sampled deals and the candidates it compares (classic Canasta).

The deals the Expert imagines must be ones its seat cannot tell from the real one, and should
look like the hands players really keep: a player keeps pairs to take the pile and throws
singletons, so a uniform deal gives the other players far fewer natural pairs than they hold
(``expert.shaped_deal``).  The search compares every way of taking the pile with drawing, and
corrects the sampled deals' measured undervaluing of the pile (``PILE_SAMPLING_BIAS``).
"""

from __future__ import annotations

import random
from collections import Counter

from canasta_tui.ai import expert as E
from canasta_tui.ai.expert import ExpertPlayer, shaped_deal
from canasta_tui.ai.heuristic import EXPERT, TurnMemory, decide
from canasta_tui.engine import GameState, Phase, determinize, full_deck, view_for
from canasta_tui.engine import actions as A
from canasta_tui.engine.cards import IS_RED_THREE, IS_WILD, RANK_OF
from canasta_tui.presets import load_rules

from .helpers import position, variant_position
from .test_fair_and_robust import midgame, permute_hidden


def pairs(hand: tuple[int, ...]) -> int:
    counts = Counter(RANK_OF[c] for c in hand if not IS_WILD[c])
    return sum(1 for n in counts.values() if n >= 2)


def positions() -> list[GameState]:
    """Positions a few rounds in (every seat has had turns), from Beginner play."""
    out = []
    for seed in range(8):
        s = midgame(seed, 40)
        if s.phase != Phase.HAND_OVER:
            out.append(s)
    return out


def test_a_shaped_deal_is_one_the_seat_cannot_tell_from_the_real_one() -> None:
    for n, s in enumerate(positions()):
        seat = s.actor
        v = view_for(s, seat)
        w = shaped_deal(v, random.Random(n))
        # Everything the seat sees is as it is (a deal keeps no undo history, as determinize's).
        assert view_for(w, seat)._replace(legal=(), undoable=0) == v._replace(legal=(), undoable=0)
        assert sorted(w.deck) == sorted(int(c) for c in full_deck(2))
        for p in range(4):
            assert len(w.hands[p]) == len(s.hands[p])
            assert not Counter(s.known[p]) - Counter(w.hands[p])   # known cards stay where they are
            if p != seat:
                assert not any(IS_RED_THREE[c] for c in w.hands[p])  # laid out at their first turn
        # Nothing hidden decides it: the hidden cards dealt otherwise give the same deal.
        other = permute_hidden(s, seat, random.Random(99 + n))
        assert shaped_deal(view_for(other, seat), random.Random(n)) == w


def test_shaped_deals_give_the_other_players_the_pairs_players_keep() -> None:
    """Measured in Expert v Advanced play: hands of 4-7 cards held 1.31 natural pairs, uniform deals
    gave them 0.73, shaped ones 1.27; wild cards about as often as uniform deals (0.47 v 0.50)."""
    uniform = shaped = wild_u = wild_s = 0
    for s in positions():
        v = view_for(s, s.actor)
        for k in range(40):
            u, w = determinize(v, random.Random(k)), shaped_deal(v, random.Random(k))
            for p in range(4):
                if p != s.actor:
                    uniform += pairs(u.hands[p])
                    shaped += pairs(w.hands[p])
                    wild_u += sum(IS_WILD[c] for c in u.hands[p])
                    wild_s += sum(IS_WILD[c] for c in w.hands[p])
    assert shaped > 1.4 * uniform, (shaped, uniform)
    assert wild_s <= 1.1 * wild_u, (wild_s, wild_u)        # wild cards drawn are melded, not hoarded


def test_samba_and_bolivia_deals_stay_uniform() -> None:
    """The shapes were measured in classic Canasta only: sequences make other hands."""
    s = variant_position({0: "4h 5h 6h 9c 9d", 1: "7c 7d", 2: "8h 8d", 3: "Kc Kd"}, rules=load_rules("samba"))
    v = view_for(s, s.actor)
    assert shaped_deal(v, random.Random(3)) == determinize(v, random.Random(3))


def test_at_the_draw_every_way_of_taking_the_pile_is_compared_with_drawing() -> None:
    """Draw or take the pile is where the search gains most: a pile taken with a natural pair, or
    with a King and a wild card, or onto the side's meld, are different positions afterwards."""
    s = position({0: "Kc Kd Ks 2c Jh 9s 4d"}, melds={0: ["Kh Kd Kc"]}, pile="5c 9d Kh", phase=Phase.DRAW,
                 drew="")
    v = view_for(s, 0)
    piles = [a for a in v.legal if a.kind == A.PILE]
    assert len(piles) >= 2
    player = ExpertPlayer(1, samples=4, deadline=False)
    base = decide(v, EXPERT, TurnMemory())
    compared = [a for a, _ in player._candidates(v, base)]
    assert compared[0] == base
    assert set(compared) == {A.A_DRAW, *piles[:E.PILE_CANDIDATES]}


def test_the_search_corrects_the_sampled_deals_for_the_pile() -> None:
    """Sampled deals undervalue taking the pile against drawing (by 51 points with shaped deals,
    measured against the same search told every hand): a pile that the samples put 30 points
    below drawing is still taken; one 80 points below is not."""
    s = position({0: "Kc Kd 2c Jh 9s 4d"}, pile="5c 9d Kh", phase=Phase.DRAW, drew="",
                 melds={0: ["Qh Qd Qc"]})
    v = view_for(s, 0)
    pile = next(a for a in v.legal if a.kind == A.PILE)
    player = ExpertPlayer(1, samples=4, deadline=False)
    for below, taken in ((30.0, True), (80.0, False)):
        def values(v: object, cands: list[tuple[A.Action, object]], below: float = below) -> list[list[float]]:
            return [[100.0 - (below if a.kind == A.PILE else 0.0) + d for d in (0.0, 1.0, -1.0, 0.5)]
                    for a, _ in cands]
        player.sample_values = values  # type: ignore[method-assign,assignment]
        chosen = player._search(v, [(A.A_DRAW, None), (pile, None)], A.A_DRAW)[0]
        assert (chosen == pile) is taken, below
