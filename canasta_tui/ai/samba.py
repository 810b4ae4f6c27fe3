"""Samba and Bolivia habits of the computer players (issue 19): sequences toward a samba
(escalera), joins, wild melds toward a bolivia, and going out with the canastas the rules
want.

Pure functions of a seat's :class:`~canasta_tui.engine.PlayerView`, as in ``knowledge``;
every action they suggest is one of ``view.legal`` (or checked against it by the caller).
What is legal is the engine's to say: the search for a way out (:func:`out_path`) plays the
engine's own legal actions on a position consistent with the view (only the seat's hand and
its side's melds decide which melds are legal, so no hidden card is used).

The habits, from the Bicycle texts' advice and a club player's common sense:

* a suited run in hand is the start of a samba (1,500): keep its cards, do not discard them,
  meld a run of three early (the pile can never take a sequence, so nothing is gained by
  holding it back) and extend it toward seven;
* join two melds of a rank when together they make a canasta the side still needs;
* in Bolivia, wild cards go together toward a bolivia (2,500) rather than one by one onto
  groups, and a pile topped by a wild card is a stop;
* going out needs two canastas, in Bolivia one of them an escalera: the plan to go out is
  found by playing the engine's legal melds, never by counting alone;
* black threes left in hand cost 100 in Bolivia: throw them early.
"""

from __future__ import annotations

import random

from ..engine import Action, GameState, Phase, PlayerView, determinize, legal_actions
from ..engine import actions as A
from ..engine.cards import (
    DEUCE,
    IS_BLACK_THREE,
    IS_WILD,
    JOKER,
    RANK_OF,
    SUIT_OF,
    THREE,
    VALUE,
    sequence_position,
    sequence_rank,
)
from ..engine.melds import SEQUENCE_MAX, Meld
from ..engine.moves import add_target, apply_legal, canastas_missing, group_slot
from ..engine.rules import Rules
from ..engine.state import team


def is_variant(rules: Rules) -> bool:
    """Rules with sequences, several melds of a rank or wild melds (Samba, Bolivia)."""
    return rules.sequences or rules.several_groups or rules.wild_melds_allowed


# --------------------------------------------------------------------------- suited runs

def _positions(hand: tuple[int, ...]) -> list[set[int]]:
    """Sequence positions (4 ... 14) held in each suit: natural cards other than threes."""
    held: list[set[int]] = [set(), set(), set(), set()]
    for c in hand:
        r = RANK_OF[c]
        if r not in (DEUCE, THREE, JOKER):
            held[SUIT_OF[c]].add(sequence_position(r))
    return held


def hand_runs(hand: tuple[int, ...], ranks: list[int]) -> list[list[int]]:
    """Runs of three to seven cards of one suit in order in the hand, from cards of ``ranks``
    only, the most valuable first (the cards of a sequence meld, lowest first)."""
    allowed = set(ranks)
    held = _positions(tuple(c for c in hand if RANK_OF[c] in allowed))
    runs: list[list[int]] = []
    for suit in range(4):
        p = 4
        while p <= 14:
            if p not in held[suit]:
                p += 1
                continue
            q = p
            while q + 1 in held[suit] and q + 1 - p < SEQUENCE_MAX:
                q += 1
            if q - p >= 2:
                runs.append([sequence_rank(x) * 4 + suit for x in range(p, q + 1)])
            p = q + 1
    runs.sort(key=lambda run: -sum(VALUE[c] for c in run))
    return runs


def extensions(row: tuple[Meld | None, ...], hand: tuple[int, ...], ranks: list[int]) -> list[tuple[Action, int]]:
    """The adds that extend the side's sequences from the hand's cards of ``ranks``, one card
    at a time at either end until seven (each with the card it adds)."""
    allowed = set(ranks)
    held = _positions(tuple(c for c in hand if RANK_OF[c] in allowed))
    out: list[tuple[Action, int]] = []
    for m in row:
        if m is None or not m.is_sequence:
            continue
        low, high, h = m.low, m.high, held[m.suit]
        while high - low + 1 < SEQUENCE_MAX:
            if high < 14 and high + 1 in h:
                c = sequence_rank(high + 1) * 4 + m.suit
                out.append((A.add_to_sequence(c, low, high), c))
                h.discard(high + 1)
                high += 1
            elif low > 4 and low - 1 in h:
                c = sequence_rank(low - 1) * 4 + m.suit
                out.append((A.add_to_sequence(c, low, high), c))
                h.discard(low - 1)
                low -= 1
            else:
                break
    return out


def sequence_actions(run: list[int]) -> list[Action]:
    """The actions that meld ``run`` (cards of one suit in order, lowest first): a meld of the
    first three, then one card at a time at the high end."""
    out = [A.meld_sequence(*run[:3])]
    low = sequence_position(RANK_OF[run[0]])
    for i, c in enumerate(run[3:]):
        out.append(A.add_to_sequence(c, low, low + 2 + i))
    return out


def sequence_ends(row: tuple[Meld | None, ...]) -> list[set[int]]:
    """Positions, per suit, that one card would add to one of the side's open sequences."""
    ends: list[set[int]] = [set(), set(), set(), set()]
    for m in row:
        if m is None or not m.is_sequence or len(m.naturals) >= SEQUENCE_MAX:
            continue
        if m.low > 4:
            ends[m.suit].add(m.low - 1)
        if m.high < 14:
            ends[m.suit].add(m.high + 1)
    return ends


def run_strength(v: PlayerView, tm: int) -> dict[int, int]:
    """How much each single card of the hand is worth to a sequence (0 none ... 3 now):

    3: it goes onto one of the side's sequences, or is part of a run of three in hand;
    2: it touches another card of its suit (a run of two);
    1: a gap of one from another card of its suit (7h 9h).

    A second copy of a card (three packs) adds nothing to a run: only cards held once are
    rated, so discarding the spare copy is never held back by this."""
    if not v.rules.sequences:
        return {}
    hand = v.hand
    held = _positions(hand)
    ends = sequence_ends(v.melds[tm])
    once: dict[int, int] = {}
    for c in hand:
        once[c] = once.get(c, 0) + 1
    out: dict[int, int] = {}
    for c, n in once.items():
        r = RANK_OF[c]
        if n != 1 or r in (DEUCE, THREE, JOKER):
            continue
        s, p = SUIT_OF[c], sequence_position(r)
        h = held[s]
        if p in ends[s] or (p - 1 in h and p + 1 in h) or (p - 1 in h and p - 2 in h) or (p + 1 in h and p + 2 in h):
            out[c] = 3
        elif p - 1 in h or p + 1 in h:
            out[c] = 2
        elif p - 2 in h or p + 2 in h:
            out[c] = 1
    return out


def sequence_keepers(v: PlayerView, tm: int) -> set[int]:
    """Cards of the hand a side building a samba (escalera) keeps out of groups: those that
    continue one of its sequences, or would after one more card (a gap of one at either end),
    and those of a run of three in hand (a sequence to meld)."""
    hand = v.hand
    ends = sequence_ends(v.melds[tm])
    held = _positions(hand)
    out: set[int] = set()
    for c in hand:
        r = RANK_OF[c]
        if r in (DEUCE, THREE, JOKER):
            continue
        s, p = SUIT_OF[c], sequence_position(r)
        e, h = ends[s], held[s]
        if p in e or p - 1 in e or p + 1 in e or (p - 1 in h and p + 1 in h) \
                or (p - 1 in h and p - 2 in h) or (p + 1 in h and p + 2 in h):
            out.add(c)
    return out


def group_cards_taken(hand: tuple[int, ...], a: Action) -> list[int]:
    """The natural cards a meld or add of one rank takes from ``hand``: the engine takes the
    first copies in the hand's order (the action names ranks, not suits)."""
    need = sum(1 for x in a.ranks if x == a.ranks[0])
    return [c for c in hand if RANK_OF[c] == a.ranks[0]][:need]


def spends_sequence_card(v: PlayerView, a: Action, tm: int) -> bool:
    """Would this meld or add of one rank take a card the side's sequences need (see
    :func:`sequence_keepers`)?  Only while the side lacks the sequence canasta it wants: in
    Bolivia one to go out, in Samba its first samba."""
    row = v.melds[tm]
    if any(m is not None and m.is_sequence and m.is_canasta for m in row):
        return False
    keep = sequence_keepers(v, tm)
    return any(c in keep for c in group_cards_taken(v.hand, a))


def takes_onto(row: tuple[Meld | None, ...], rank: int, rules: Rules) -> bool:
    """Could a side take the pile by adding an upcard of ``rank`` to its meld of that rank
    (Samba: only "to a meld that is less than a canasta")?"""
    if not rules.several_groups:
        return row[rank] is not None  # other rules: as the players have always judged it
    m = row[group_slot(row, rank, rules)]
    return m is not None and (m.size < 7 or rules.pile_onto_completed_canasta)


# --------------------------------------------------------------------------- optional melds

def meld_score(v: PlayerView, a: Action, tm: int, advanced: bool, n: int, keep: int) -> float | None:
    """Worth of a sequence, join or wild-meld action (higher is better; <= 0: not now), or
    None when ``a`` is none of these (the caller's rules of thumb for groups apply)."""
    rules = v.rules
    row = v.melds[tm]
    rest = n - len(a.ranks)
    if a.kind == A.JOIN:
        # "may combine its melds in the same rank at any time": worth it when the two make a
        # canasta the side still needs to go out.
        first = row[a.ranks[0]]
        other = row[group_slot(row, a.ranks[0], rules)] if rules.several_groups else None
        if first is None or other is None or other is first:
            return -1.0
        if first.size + other.size >= 7 and first.size < 7 and canastas_missing(row, rules) > 0:
            return 65.0
        return -1.0
    if a.is_sequence:
        if a.kind == A.ADD:
            m = add_target(row, a, rules)
            if m is None:
                return -1.0
            return 90.0 if m.size == SEQUENCE_MAX - 1 else 55.0 + m.size
        # A new sequence: the pile can never take one, so there is no reason to hold it back
        # beyond the cards kept to catch the pile.
        if rest < 2:
            return -1.0
        return 45.0 if (not advanced or rest >= min(keep, 3)) else -1.0
    q = a.ranks[0]
    if advanced and rules.going_out_needs_sequence and a.kind in (A.MELD, A.ADD) and q not in (DEUCE, THREE, JOKER) \
            and spends_sequence_card(v, a, tm):
        return -1.0
    if q in (DEUCE, JOKER) and rules.wild_melds_allowed:
        if a.kind == A.MELD and all(x in (DEUCE, JOKER) for x in a.ranks):
            # A wild meld toward a bolivia (2,500): with three or more wild cards in hand.
            return 42.0 if rest >= 2 else -1.0
        if a.kind == A.ADD and a.target == DEUCE:
            m = add_target(row, a, rules)
            if m is None or m.size >= 7:
                return -1.0
            return 40.0 + m.size if advanced or m.size >= 5 else 25.0
    return None


# --------------------------------------------------------------------------- going out

def _hopeless(v: PlayerView, tm: int) -> int:
    """Cards of the hand that no meld this turn could take (a cheap bound: black threes, lone
    naturals with no meld of their rank and no suited neighbour)."""
    rules = v.rules
    row = v.melds[tm]
    hand = v.hand
    cnt = [0] * 15
    for c in hand:
        cnt[RANK_OF[c]] += 1
    wilds = cnt[DEUCE] + cnt[JOKER]
    held = _positions(hand) if rules.sequences else None
    ends = sequence_ends(row) if rules.sequences else None
    bad = 0
    for c in hand:
        r = RANK_OF[c]
        if IS_WILD[c]:
            continue
        if IS_BLACK_THREE[c]:
            if cnt[THREE] < 3:
                bad += 1
            continue
        if row[r] is not None or cnt[r] >= 3 or (cnt[r] == 2 and wilds):
            continue
        if held is not None and ends is not None:
            s, p = SUIT_OF[c], sequence_position(r)
            h = held[s]
            if p in ends[s] or p - 1 in h or p + 1 in h or p - 1 in ends[s] or p + 1 in ends[s]:
                continue
        bad += 1
    return bad


def _canastas_within_reach(v: PlayerView, tm: int) -> bool:
    """A cheap bound: could the hand's cards bring enough of the side's melds (or new ones) to
    seven for the canastas still missing (Bolivia: one of them a sequence)?"""
    rules = v.rules
    row = v.melds[tm]
    missing = canastas_missing(row, rules)
    if missing <= 0:
        return True
    hand = v.hand
    cnt = [0] * 15
    suits = [0, 0, 0, 0]
    for c in hand:
        r = RANK_OF[c]
        cnt[r] += 1
        if r not in (DEUCE, THREE, JOKER):
            suits[SUIT_OF[c]] += 1
    wilds = cnt[DEUCE] + cnt[JOKER]
    need_seq = rules.going_out_needs_sequence and not any(
        m is not None and m.is_sequence and m.is_canasta for m in row)
    reach = 0
    seq_reach = False
    for m in row:
        if m is None or m.is_canasta or m.rank == THREE:
            continue
        if m.is_sequence:
            if m.size + suits[m.suit] >= 7:
                reach += 1
                seq_reach = True
        elif m.is_wild_meld:
            reach += m.size + wilds >= 7
        else:
            room = max(0, rules.wilds_allowed(len(m.naturals) + cnt[m.rank]) - len(m.wilds))
            reach += m.size + cnt[m.rank] + min(wilds, room) >= 7
    for r in range(15):
        if r not in (DEUCE, THREE, JOKER) and cnt[r] >= 2 and cnt[r] + min(wilds, rules.wilds_allowed(cnt[r])) >= 7:
            reach += 1
    if rules.sequences and any(n >= 7 for n in suits):
        reach += 1
        seq_reach = True
    return reach >= missing and (seq_reach or not need_seq)


def _step_order(a: Action) -> tuple[int, int]:
    """Melds that make canastas first: joins, sequence cards, naturals, new melds, then wild
    cards, black threes last (they "must then be the last cards to be melded")."""
    if a.kind == A.JOIN:
        return (0, 0)
    if a.is_sequence:
        return (1 if a.kind == A.ADD else 3, 0)
    q = a.ranks[0]
    if q == THREE:
        return (7, 0)
    wild = sum(1 for x in a.ranks if x in (DEUCE, JOKER))
    if a.kind == A.ADD:
        return (2, 0) if not wild else (5, -a.target)
    return (4 + (wild > 0), -len(a.ranks))


def out_path(v: PlayerView, limit: int = 60) -> list[Action] | None:
    """Meld, add and join actions after which this seat has gone out, or holds one card whose
    discard goes out; None if the engine's legal actions show no such way within ``limit``
    positions (or the cheap bound rules it out)."""
    rules = v.rules
    if v.phase != Phase.MELD or v.t.final or v.t.permission == 0:
        return None
    if v.meld_needed > v.meld_count:
        return None  # going out concealed is left to chance
    tm = team(v.turn, rules)
    if len(v.hand) > 12 or _hopeless(v, tm) > 1 or not _canastas_within_reach(v, tm):
        return None
    key = (rules, v.hand, v.melds[tm], v.t.permission, v.t.black_threes, v.t.melded, v.meld_needed, v.meld_count)
    if key in _OUT_CACHE:
        found = _OUT_CACHE[key]
        return None if found is None else list(found)
    start = determinize(v, random.Random(0))
    seen: set[tuple[object, ...]] = set()
    nodes = 0

    def gone(s: GameState) -> bool:
        return s.phase == Phase.HAND_OVER and s.went_out == s.turn

    def search(s: GameState, path: list[Action]) -> list[Action] | None:
        nonlocal nodes
        nodes += 1
        if gone(s):
            return path
        hand = s.hands[s.turn]
        legal = legal_actions(s)
        if len(hand) == 1 and any(a.kind == A.DISCARD for a in legal):
            return path
        key = (hand, s.melds[tm])
        if key in seen or nodes > limit:
            return None
        seen.add(key)
        steps = sorted((a for a in legal if a.kind in (A.MELD, A.ADD, A.JOIN)), key=_step_order)
        for a in steps:
            found = search(apply_legal(s, a), [*path, a])
            if found is not None:
                return found
        return None

    path = search(start, [])
    if len(_OUT_CACHE) >= 512:
        _OUT_CACHE.clear()
    _OUT_CACHE[key] = None if path is None else tuple(path)
    return path


#: out_path's answers for recent positions (a pure function of the key: the hand, the side's
#: melds and the turn's state that the legal melds depend on).
_OUT_CACHE: dict[tuple[object, ...], tuple[Action, ...] | None] = {}


def canasta_progress(m: Meld, rules: Rules) -> float:
    """Worth of a meld short of a canasta on the way to one (the Expert's estimate): what
    classic play counts for a meld of four to six (25, 70, 150), scaled in Samba and Bolivia
    by the bonus a sequence or wild meld of seven would score."""
    size = m.size
    base = 150.0 if size == 6 else 70.0 if size == 5 else 25.0 if size == 4 else 0.0
    if m.is_sequence:
        return base * rules.sequence_bonus / 500.0
    if m.is_wild_meld:
        return base * rules.wild_canasta_bonus / 500.0
    return base


def hand_card_cost(c: int, rules: Rules) -> int:
    """What a card left in hand costs at the end (Bolivia: a black three costs 100)."""
    if IS_BLACK_THREE[c] and rules.black_three_hand_penalty:
        return rules.black_three_hand_penalty
    return VALUE[c]
