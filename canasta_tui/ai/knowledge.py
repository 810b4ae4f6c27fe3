"""What a seat can work out from its view: card counts, table values, threats, safe discards.

Pure functions of a :class:`~canasta_tui.engine.PlayerView` (public facts and the seat's own
hand), shared by every level.  Nothing here can see a hidden card: it only gets the view.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import Meld, PlayerView, Rules
from ..engine.cards import DEUCE, IS_BLACK_THREE, IS_RED_THREE, IS_WILD, JOKER, NATURAL_RANKS, RANK_OF, THREE, VALUE
from ..engine.moves import canastas_missing
from ..engine.scoring import canasta_bonus, red_three_points
from ..engine.state import partner, team

#: Copies of each natural rank in the deck (two standard decks).
COPIES = 8


def copies(rules: Rules) -> int:
    """Copies of each natural rank in the deck: 8 with two packs, 12 with three (Samba)."""
    return 4 * rules.packs


def counts(cards: Sequence[int]) -> list[int]:
    """Cards per rank (index 3 counts black threes only; red threes are never held)."""
    out = [0] * 15
    for c in cards:
        if not IS_RED_THREE[c]:
            out[RANK_OF[c]] += 1
    return out


def my_team(v: PlayerView) -> int:
    return team(v.seat, v.rules)


def turn_team(v: PlayerView) -> int:
    return team(v.turn, v.rules)


def opponents(v: PlayerView, seat: int | None = None) -> list[int]:
    """Seats of the other sides, in playing order after ``seat``."""
    seat = v.seat if seat is None else seat
    n = len(v.hand_sizes)
    mine = team(seat, v.rules)
    return [p for p in ((seat + i) % n for i in range(1, n)) if team(p, v.rules) != mine]


def partner_seat(v: PlayerView, seat: int | None = None) -> int | None:
    seat = v.seat if seat is None else seat
    if not v.rules.partnerships:
        return None
    return partner(seat)


def may_go_out_soon(v: PlayerView, seat: int, cards: int) -> bool:
    """``seat`` could go out at its next turn: its side has the canastas it needs to go out (in
    Bolivia one an escalera) and it holds ``cards`` cards or fewer."""
    return v.hand_sizes[seat] <= cards and canastas_missing(v.melds[team(seat, v.rules)], v.rules) <= 0


def next_player(v: PlayerView, seat: int | None = None) -> int:
    seat = v.seat if seat is None else seat
    return (seat + 1) % len(v.hand_sizes)


def row(v: PlayerView, tm: int) -> tuple[Meld | None, ...]:
    return v.melds[tm]


def table_value(v: PlayerView, tm: int) -> int:
    """Face value of a side's melds plus its canasta and red-three bonuses (no hand deduction)."""
    rules = v.rules
    total = 0
    opened = False
    for m in v.melds[tm]:
        if m is None:
            continue
        opened = True
        total += m.points + canasta_bonus(m, rules)
    threes = sum(len(v.red_threes[p]) for p in range(len(v.hand_sizes)) if team(p, rules) == tm)
    return total + red_three_points(threes, opened, rules)


def canastas(v: PlayerView, tm: int) -> int:
    return sum(1 for m in v.melds[tm] if m is not None and m.is_canasta)


def seen_counts(v: PlayerView) -> list[int]:
    """Cards of each rank this seat knows the whereabouts of (own hand, pile, table, known cards)."""
    seen = counts(v.hand)
    for c in v.pile:
        if not IS_RED_THREE[c]:
            seen[RANK_OF[c]] += 1
    for tr in v.melds:
        for m in tr:
            if m is not None:
                for c in m.naturals:
                    seen[RANK_OF[c]] += 1
    for p, k in enumerate(v.known):
        if p != v.seat:
            for c in k:
                seen[RANK_OF[c]] += 1
    return seen


def passed_ranks(v: PlayerView, taker: int) -> frozenset[int]:
    """Ranks the pile shows ``taker`` not to hold a natural pair of: the ones it discarded that
    lie in the pile now, and the upcard it drew over at its last turn (when its side had melded,
    so a natural pair would have taken the pile).

    The pile's cards are the discards in turn order since it was last taken (the upcard is the
    discard of the player before the one whose turn it is), above at most the cards turned up at
    the deal, so who discarded each card can be read from it.  Players keep pairs to take the
    pile: in the Expert's play against Advanced the next player held a natural pair of such a
    rank about once in a hundred cases, against one in four or five for the other ranks.

    The deal's upcard is nobody's discard: counting it as the dealer's made the coach say "the
    next player let Eights go" of an Eight turned up at the deal (issue 33)."""
    n = len(v.hand_sizes)
    pile = v.pile
    # The game numbers the first turn 1 (the deal's ``_begin_turn``), so ``turn_number - 1`` turns
    # have ended in a discard; below those lie the cards turned up at the deal, nobody's discard.
    discards = min(len(pile), v.turn_number - 1)
    own = (v.turn - 1 - taker) % n              # how deep ``taker``'s last discard lies
    if own >= discards:
        return frozenset()
    ranks = {RANK_OF[pile[-1 - i]] for i in range(own, discards, n)}
    faced = pile[-2 - own] if own + 1 < len(pile) else None   # the upcard it drew over
    if faced is not None and any(m is not None for m in v.melds[team(taker, v.rules)]):
        ranks.add(RANK_OF[faced])
    # No natural pair takes a pile topped by a wild card or a black three (a stop card).
    return frozenset(r for r in ranks if r not in (JOKER, DEUCE, THREE))


def known_counts(v: PlayerView, seat: int) -> list[int]:
    return counts(v.known[seat]) if seat != v.seat else counts(v.hand)


def threat(v: PlayerView) -> float:
    """How close the other side is to going out or to a big score (0 calm .. about 3 urgent)."""
    t = 0.0
    for p in opponents(v):
        tm = team(p, v.rules)
        if canastas_missing(v.melds[tm], v.rules) <= 0:
            t += 0.6
            size = v.hand_sizes[p]
            if size <= 2:
                t += 1.2
            elif size <= 4:
                t += 0.6
    if v.stock_size < 12:
        t += 0.5
    return t


def hand_points(cards: Sequence[int]) -> int:
    return sum(VALUE[c] for c in cards)


def meldable_points(v: PlayerView, cards: Sequence[int], tm: int) -> int:
    """Points of the cards that could go on the table soon: matches of the side's melds,
    pairs and sets of naturals, and wild cards (when the side has somewhere to put them)."""
    cnt = counts(cards)
    r = v.melds[tm]
    total = 0
    groups = 0
    for q in NATURAL_RANKS:
        n = cnt[q]
        if not n:
            continue
        if r[q] is not None or n >= 2:
            total += n * VALUE[q * 4]
            groups += 1
    wilds = cnt[DEUCE] * 20 + cnt[JOKER] * 50
    if groups or any(m is not None for m in r):
        total += wilds
    return total


def pile_value(v: PlayerView) -> int:
    """Rough worth of taking the pile: cards are material, red threes are bonuses."""
    total = 0
    for c in v.pile:
        if IS_RED_THREE[c]:
            total += 100
        elif IS_WILD[c]:
            total += 40
        elif IS_BLACK_THREE[c]:
            total += 1
        else:
            total += 8
    return total
