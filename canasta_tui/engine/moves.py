"""Dealing, the legal actions of a position, and applying an action.

``legal_actions(state)`` is the single source of truth: the UI lights its buttons
from it, the computer players choose from it, and ``apply`` refuses anything else
with a :class:`CanastaError` whose message (from ``explain``) says why.

Rule references in comments are to Chapter 2 of the DOS manual
(``shared/seeds/canasta-dos-1994.txt``) unless they say otherwise.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, NamedTuple

from . import actions as A
from .actions import Action
from .cards import (
    DEUCE,
    IS_BLACK_THREE,
    IS_RED_THREE,
    IS_WILD,
    JOKER,
    NATURAL_RANKS,
    RANK_NAMES,
    RANK_OF,
    RANK_WORDS,
    SUIT_OF,
    THREE,
    VALUE,
    a_or_an,
    card_text,
    full_deck,
    plural,
    sequence_position,
    sequence_rank,
)
from .errors import CanastaError, IllegalActionError
from .melds import SEQUENCE_MAX, Meld
from .rules import Rules
from .state import PERMISSION_BROKEN, PILE_PUT_BACK, GameState, HandEnd, Phase, Turn, next_seat, partner, player_name, team

EMPTY_ROW: tuple[Meld | None, ...] = (None,) * 15
#: A side's row of melds: slot r (0-14) holds its meld of rank r (2: the wild meld); with
#: sequences or several melds of a rank (Samba, Bolivia) the row grows past slot 14, one slot
#: per further meld, in the order they were made.
RANK_SLOTS = 15
_SORTED_DECKS = {packs: tuple(sorted(full_deck(packs))) for packs in (2, 3)}
_WILD_RANKS = (DEUCE, JOKER)


# --------------------------------------------------------------------------- deal

def deal(rules: Rules, deck: Sequence[int], dealer: int = 0,
         scores: Sequence[int] | None = None) -> GameState:
    """Deal a hand from ``deck`` (108 cards, top first).

    "Each player is dealt a total of eleven cards, one at a time, in a clockwise
    rotation ... the top card of the stock is turned face up (the upcard) ... If the
    upcard is a wild card or a Three, then one or more additional cards must be
    turned upon it until some other card appears."
    """
    deck = tuple(int(c) for c in deck)
    if tuple(sorted(deck)) != _SORTED_DECKS[rules.packs]:
        if rules.packs == 3:
            raise CanastaError("a deck must hold the 162 cards of these rules: three standard decks and six jokers")
        raise CanastaError("a deck must hold the 108 Canasta cards: two standard decks and four jokers")
    n = rules.players
    if not 0 <= dealer < n:
        raise CanastaError(f"dealer must be a seat from 0 to {n - 1}")
    scores = tuple(scores) if scores is not None else (0,) * rules.teams
    if len(scores) != rules.teams:
        raise CanastaError(f"expected {rules.teams} scores, got {len(scores)}")
    hands: list[list[int]] = [[] for _ in range(n)]
    pos = 0
    for i in range(rules.hand_size * n):
        hands[(dealer + 1 + i) % n].append(deck[pos])
        pos += 1
    pile: list[int] = []
    frozen = rules.pile_initially_frozen
    while True:
        c = deck[pos]
        pos += 1
        pile.append(c)
        if IS_WILD[c] or IS_RED_THREE[c]:
            frozen = True  # "a wild or red three among them freezes it"
            continue
        if RANK_OF[c] == THREE and rules.turn_upcard_three:
            continue
        break
    first = next_seat(dealer, n)
    state = GameState(
        rules=rules, dealer=dealer,
        requirements=tuple(rules.requirement(s) for s in scores),
        deck=deck, stock_pos=pos,
        hands=tuple(tuple(sorted(h)) for h in hands),
        melds=(EMPTY_ROW,) * rules.teams,
        red_threes=((),) * n,
        pile=tuple(pile), frozen=frozen,
        phase=Phase.DRAW, turn=first, actor=first, turn_number=0,
        has_melded=(False,) * n, threes_laid=(False,) * n,
        known=((),) * n, penalties=(0,) * rules.teams, t=Turn(),
    )
    return _begin_turn(state, first)


def _begin_turn(s: GameState, seat: int, **changes: Any) -> GameState:
    """Start ``seat``'s turn; ``changes`` are applied in the same step (one copy, not two)."""
    melds: tuple[tuple[Meld | None, ...], ...] = changes.get("melds", s.melds)
    keys = 0
    r = 0
    for m in melds[team(seat, s.rules)]:
        if m is not None:
            keys |= 1 << r
        r += 1
    s = s._replace(phase=Phase.DRAW, turn=seat, actor=seat, turn_number=s.turn_number + 1,
                   t=Turn(opened_at_start=keys != 0, melded_before=s.has_melded[seat], start_keys=keys),
                   **changes)
    if not s.threes_laid[seat]:
        s = _lay_dealt_red_threes(s, seat)
    if s.stock_size == 0:
        # "Exhausting the stock": with no card to draw, play ends unless a pile play remains.
        if s.rules.stock_exhausted == "end" or not legal_actions(s):
            return _end_hand(s, HandEnd.STOCK_EXHAUSTED)
    return s


def _lay_dealt_red_threes(s: GameState, seat: int) -> GameState:
    """"A player finding a red Three in the hand must, at their first turn, place it face up
    on the table and draw a replacement card from the stock." """
    hand = list(s.hands[seat])
    laid = list(s.red_threes[seat])
    pos = s.stock_pos
    while True:
        threes = [c for c in hand if IS_RED_THREE[c]]
        if not threes:
            break
        for c in threes:
            hand.remove(c)
            laid.append(c)
            if pos < len(s.deck):
                hand.append(s.deck[pos])
                pos += 1
    return s._replace(hands=_set(s.hands, seat, tuple(sorted(hand))), red_threes=_set(s.red_threes, seat, tuple(laid)),
                      stock_pos=pos, threes_laid=_set(s.threes_laid, seat, True))


def _set(tup: tuple, i: int, value: object) -> tuple:  # type: ignore[type-arg]
    return (*tup[:i], value, *tup[i + 1:])


def _end_hand(s: GameState, reason: HandEnd, went_out: int = -1, concealed: bool = False) -> GameState:
    return s._replace(phase=Phase.HAND_OVER, end_reason=reason, went_out=went_out, concealed=concealed,
                      t=s.t._replace(prev=None, pile_undo=None))


# --------------------------------------------------------------------------- helpers

def group_slot(row: Sequence[Meld | None], rank: int, rules: Rules) -> int:
    """The slot of the side's meld of ``rank`` that cards of that rank go onto: the one short of
    a canasta when the rules let a side hold several (Samba: "A side may have two canastas in
    the same rank"), else the first; ``rank`` itself when there is none."""
    if rules.several_groups:
        for i in range(RANK_SLOTS, len(row)):
            m = row[i]
            if m is not None and m.rank == rank and not m.is_sequence and m.size < 7:
                return i
    return rank


def may_start_group(row: Sequence[Meld | None], rank: int, rules: Rules) -> bool:
    """May the side start a meld of ``rank``: it has none, or (Samba) those it has are canastas."""
    m = row[rank]
    if m is None:
        return True
    return rules.several_groups and row[group_slot(row, rank, rules)].size >= 7  # type: ignore[union-attr]


def _new_slot(row: tuple[Meld | None, ...], rank: int) -> int:
    """Where a new meld goes: slot ``rank`` when free (a meld of one rank), else a new slot."""
    return rank if rank < RANK_SLOTS and row[rank] is None else len(row)


def _put(row: tuple[Meld | None, ...], slot: int, m: Meld | None) -> tuple[Meld | None, ...]:
    if slot >= len(row):
        return (*row, m)
    return (*row[:slot], m, *row[slot + 1:])


def sequence_slot(row: Sequence[Meld | None], suit: int, low: int, high: int) -> int:
    """The slot of the side's sequence of ``suit`` from position ``low`` to ``high`` (-1: none)."""
    for i in range(RANK_SLOTS, len(row)):
        m = row[i]
        if m is not None and m.suit == suit and m.low == low and m.high == high:
            return i
    return -1


def add_target(row: Sequence[Meld | None], a: Action, rules: Rules) -> Meld | None:
    """The meld an ``add`` goes onto: the sequence it names, or the side's meld of its rank
    that takes cards (None: there is none)."""
    if a.card >= 0:
        slot = sequence_slot(row, SUIT_OF[a.card], *A.target_span(a.target))
        return row[slot] if slot >= 0 else None
    if not 0 <= a.target < RANK_SLOTS:
        return None
    return row[group_slot(row, a.target, rules) if rules.several_groups else a.target]


def canastas_missing(row: Sequence[Meld | None], rules: Rules) -> int:
    """How many more canastas the side needs to go out (Bolivia: "At least one of the two
    canastas must be a sequence canasta")."""
    have = 0
    sequence = False
    for m in row:
        if m is not None and len(m.naturals) + len(m.wilds) >= 7:
            have += 1
            sequence = sequence or m.suit >= 0
    missing = rules.canastas_to_go_out - have
    if rules.going_out_needs_sequence and not sequence:
        return max(missing, 1)
    return max(missing, 0)

def _count(hand: Sequence[int]) -> list[int]:
    counts = [0] * 15
    for c in hand:
        counts[RANK_OF[c]] += 1
    return counts


def _take(hand: list[int], rank: int, prefer: Counter[int] | None = None) -> int:
    """Remove and return a card of ``rank`` from ``hand`` (a black three for rank 3): the first
    one that ``prefer`` holds (one copy of it used up there), else the first."""
    if prefer:
        for i, c in enumerate(hand):
            if RANK_OF[c] == rank and prefer[c] > 0 and not IS_RED_THREE[c]:
                prefer[c] -= 1
                del hand[i]
                return c
    for i, c in enumerate(hand):
        if RANK_OF[c] == rank and not IS_RED_THREE[c]:
            del hand[i]
            return c
    raise CanastaError(f"no {RANK_WORDS[rank]} in the hand")


def _take_card(hand: list[int], c: int) -> int:
    """Remove and return the card ``c`` from ``hand``."""
    try:
        hand.remove(c)
    except ValueError:
        raise CanastaError(f"no {card_text(c)} in the hand") from None
    return c


def _take_used(hand: list[int], a: Action, prefer: Counter[int] | None = None) -> list[int]:
    """Remove and return the cards of the meld, add or pile take ``a`` from ``hand``, one per
    rank of ``a.ranks``: the copies it names (``a.cards``), else the first of each rank that
    ``prefer`` holds (see :func:`_own_left`), else the first of each rank."""
    if not a.cards:
        return [_take(hand, r, prefer) for r in a.ranks]
    named = iter(a.cards)
    return [_take(hand, r, prefer) if r in _WILD_RANKS else _take_card(hand, next(named)) for r in a.ranks]


def named_problem(s: GameState, a: Action) -> str | None:
    """Why the cards ``a`` names (``a.cards``) cannot be the ones used; None when they can
    (or it names none).  Its rank-only form is checked apart, against ``legal_actions``."""
    if not a.cards:
        return None
    naturals = [r for r in a.ranks if r not in _WILD_RANKS]
    if not a.may_name_copies or len(a.cards) != len(naturals) \
            or any(RANK_OF[c] != r for c, r in zip(a.cards, naturals, strict=True)):
        return f"'{a}' names cards that are not the ones it melds"
    hand = list(s.hands[s.turn])
    for c in a.cards:
        if c not in hand or IS_RED_THREE[c]:
            return f"You do not hold {' '.join(card_text(x) for x in a.cards)}"
        hand.remove(c)
    return None


def is_legal(s: GameState, a: Action) -> bool:
    """``a`` may be applied here: it is one of ``legal_actions(s)``, or names the copies of one
    (``a.cards``) that the player holds."""
    if not a.cards:
        return a in legal_actions(s)
    return a.general() in legal_actions(s) and named_problem(s, a) is None


def _remove_known(known: tuple[int, ...], cards: Sequence[int]) -> tuple[int, ...]:
    if not known:
        return known
    k = list(known)
    for c in cards:
        if c in k:
            k.remove(c)
    return tuple(k)


def meld_count(s: GameState) -> int:
    """Points melded this turn that count toward the initial meld requirement."""
    return _initial_meld_points(s.t)[0]


def _initial_meld_points(t: Turn) -> tuple[int, int]:
    """(points that count toward the initial meld, cards melded this turn that do not).

    DOS, "Initial Meld Requirement": "If the player takes the discard pile, only the upcard
    (and no other card from the pile) may count toward this requirement."  After a pile take
    ``t.own`` is the hand before it: a melded card counts while the hand held a copy of that
    very card (the two decks' copies of a card are alike), so the Aces the pile brought do not
    count because the hand held Aces of other suits.
    """
    if t.own is None:
        return sum(VALUE[c] for c in t.melded), 0
    avail = Counter(t.own)
    total = t.upcard_points
    left_out = 0
    for c in t.melded:
        if avail[c] > 0:
            avail[c] -= 1
            total += VALUE[c]
        else:
            left_out += 1
    return total, left_out


def _own_left(t: Turn) -> Counter[int] | None:
    """After a pile take for an initial meld, the cards of the hand before it not yet melded
    this turn (None: the turn took no pile, or the side had melded): a meld written by rank
    uses these copies first, as a player meeting the requirement would."""
    if t.own is None:
        return None
    return Counter(t.own) - Counter(t.melded)


def meld_needed(s: GameState) -> int:
    """The initial meld requirement the current turn must meet (0 once the side has melded)."""
    if s.t.opened_at_start:
        return 0
    return s.requirements[team(s.turn, s.rules)] + s.t.extra_needed


def _concealed(s: GameState) -> bool:
    t = s.t
    return not t.melded_before and (s.rules.concealed_counts_partner_melds or not t.added_existing)


def _short_of_canastas(s: GameState) -> bool:
    """The side lacks the canastas going out needs (a concealed hand may not, by the rules)."""
    rules = s.rules
    t = s.t
    return canastas_missing(s.melds[team(s.turn, rules)], rules) > 0 and not (
        _concealed(s) and not rules.concealed_needs_canasta and not t.opened_at_start)


def _canastas_needed(rules: Rules) -> str:
    if rules.going_out_needs_sequence:
        return f"two canastas (one of them {_an(rules.sequence_canasta_name)})"
    return "a canasta" if rules.canastas_to_go_out == 1 else "two canastas"


def _an(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def turn_problem(s: GameState, going_out: bool) -> str | None:
    """What the rules ask of the turn as a whole, checked when it ends; None when all is well."""
    t = s.t
    rules = s.rules
    if going_out:
        if t.permission == 0:
            return "Your partner said no: you may not go out this turn"
        if _short_of_canastas(s):
            return f"Your side needs {_canastas_needed(rules)} to go out: keep at least one card"
    if not t.opened_at_start and (t.melded or t.drew == "pile"):
        waived = going_out and not t.melded_before and t.drew == "stock"
        if not waived:
            need_pts = meld_needed(s)
            count, left_out = _initial_meld_points(t)
            if count < need_pts:
                waits = " (then the rest of the pile comes into your hand)" if t.pile_undo is not None else ""
                if left_out:
                    waits = " (of the pile only the upcard counts, not the cards it brought)"
                return f"Initial meld needs {need_pts} points; these melds count {count}{waits}"
    if t.black_threes and not going_out:
        return "Black threes may be melded only when going out"
    return None


# --------------------------------------------------------------------------- legal actions

def legal_actions(s: GameState) -> list[Action]:
    """Every action the player to act may take, in a stable order.

    Computed afresh on every call: a pure function of ``s`` with no cache, so that many
    tables can run in many threads (a caller that needs the list twice keeps it, and uses
    ``apply_legal`` for an action taken from it)."""
    if s.phase == Phase.DRAW:
        return _draw_actions(s)
    if s.phase == Phase.MELD:
        return _meld_actions(s)
    if s.phase == Phase.PERMISSION:
        return [A.A_YES, A.A_NO]
    return []


def _draw_actions(s: GameState) -> list[Action]:
    rules = s.rules
    out: list[Action] = []
    can_draw = s.stock_size > 0 or (rules.stock_exhausted == "turn_over" and not s.stock_turned and bool(s.pile))
    if can_draw:
        out.append(A.A_DRAW)
    if s.t.pile_undone:
        return out
    if s.stock_size == 0 and can_draw:
        # Windows 2.41 rule 11: "When there are no more cards on the draw pile, the player
        # may choose to stop playing, or to turn the discard pile upside down".
        return [*out, *_pile_actions(s), A.A_END]
    piles = _pile_actions(s)
    if s.stock_size == 0 and not can_draw and piles:
        # "the next player is 'forced' to pick up the discard provided it can be melded on
        # an existing meld. If it can't, then the player has the option of taking the pile so
        # long as a valid new meld can be created, otherwise play ends."
        if rules.stock_exhausted == "forced" and A.A_PILE in piles:
            return [A.A_PILE]
        if rules.stock_exhausted == "top_card" and A.A_PILE in piles:
            # Windows 2008: "If the discard pile is not frozen and you can add the top discard
            # to one of your melds, you must take that top discard. Only that card is removed
            # from the pile" (``pile`` is offered only onto a meld of an unfrozen pile).
            return [A.A_PILE]
        return [*piles, A.A_END]
    return out + piles


def _pile_block(s: GameState) -> str | None:
    """Why nobody (or this player) may take the pile at all, whatever they hold."""
    if not s.pile:
        return "The pile is empty"
    top = s.pile[-1]
    if IS_WILD[top]:
        return "A wild card on the pile is a stop card: draw from the stock"
    if IS_BLACK_THREE[top]:
        return "A black three on the pile is a stop card: draw from the stock"
    if IS_RED_THREE[top]:
        return "A red three on the pile cannot be melded: draw from the stock"
    if s.rules.one_card_pile_rule and len(s.hands[s.turn]) == 1 and len(s.pile) == 1:
        return "With one card in your hand you may not take a pile of one card"
    return None


def _pile_candidates(s: GameState) -> list[Action]:
    """Ways of taking the pile that the upcard rules allow, before the whole-turn checks."""
    if _pile_block(s) is not None:
        return []
    rules = s.rules
    seat = s.turn
    tm = team(seat, rules)
    top = s.pile[-1]
    r = RANK_OF[top]
    counts = _count(s.hands[seat])
    row = s.melds[tm]
    m = row[r] if not rules.several_groups else row[group_slot(row, r, rules)]
    opened = s.t.opened_at_start
    frozen_for_me = s.frozen or not opened
    out: list[Action] = []
    onto_ok = m is None or m.size < 7 or rules.pile_onto_completed_canasta
    if rules.several_groups and m is not None and m.size >= 7:
        # Samba: the pile goes "to a meld that is less than a canasta"; a natural pair starts
        # a new meld of the rank beside the canasta.
        if counts[r] >= 2:
            out.append(A.pile_with(r, r))
        if not frozen_for_me and counts[r] >= 1 and not rules.pile_new_meld_needs_natural_pair \
                and rules.wilds_allowed(2) >= 1:
            out += [A.pile_with(r, w) for w in _WILD_RANKS if counts[w]]
        return out
    if frozen_for_me:
        # "The frozen pile may be taken up only when the player holds two natural cards
        # matching the upcard. It cannot be taken up to play on an existing meld."
        if counts[r] >= 2 and onto_ok:
            out.append(A.pile_with(r, r))
        return out
    if m is not None and onto_ok:
        out.append(A.A_PILE)
    if counts[r] >= 2 and onto_ok:
        out.append(A.pile_with(r, r))
    if m is None and counts[r] >= 1 and not rules.pile_new_meld_needs_natural_pair and rules.wilds_allowed(2) >= 1:
        for w in _WILD_RANKS:
            if counts[w]:
                out.append(A.pile_with(r, w))
    return out


def _pile_actions(s: GameState) -> list[Action]:
    out = []
    for a in _pile_candidates(s):
        if _pile_problem(s, a) is None:
            out.append(a)
    return out


def _pile_problem(s: GameState, a: Action, way: str = " this way") -> str | None:
    """Whole-turn checks for taking the pile: the initial meld must be reachable and a
    card must remain to keep (or the side must be able to go out)."""
    seat = s.turn
    hand = s.hands[seat]
    used = len(a.ranks)
    rest = [] if top_card_only(s, a) else [c for c in s.pile[:-1] if not IS_RED_THREE[c]]
    left = len(hand) - used + len(rest)
    if not s.t.opened_at_start:
        need = meld_needed(s) + (0 if s.rules.top_card_counts_for_initial_meld else VALUE[s.pile[-1]])
        best = _best_initial_points(s, a, len(rest))
        if best < need:
            return f"Initial meld needs {need} points; taking the pile{way} makes at most {best}"
    if left <= 1:
        after = _apply_unchecked(s, a)
        if left == 0:
            if turn_problem(after, True) is not None:
                return "Taking the pile would leave you no card: your side cannot go out yet"
        elif not _last_card_can_go(after):
            return "Taking the pile would leave you one card you may not discard: your side cannot go out yet"
    return None


def _best_initial_points(s: GameState, a: Action, pile_extra: int) -> int:
    """Points of an initial meld that taking the pile with ``a`` can certainly reach from
    the upcard and the hand, keeping cards to end the turn (a sound lower bound)."""
    rules = s.rules
    top = s.pile[-1]
    r = RANK_OF[top]
    hand = list(s.hands[s.turn])
    used = [_take(hand, x) for x in a.ranks]
    # The upcard is always on the table; with "top card counts" off its value is added to
    # the requirement instead (Windows 2.41, Note 2: "you must have 50 + 20 = 70 points on
    # the table"), as ``meld_needed`` does at the end of the turn.
    points = VALUE[top] + sum(VALUE[c] for c in used)
    counts = _count(hand)
    wilds = sorted((c for c in hand if IS_WILD[c]), key=lambda c: -VALUE[c])
    # optional parts: (points, cards) that can be held back to keep cards in hand
    optional: list[tuple[int, int]] = []
    nat = len([c for c in used if not IS_WILD[c]]) + 1
    key_wilds = len(used) - (nat - 1)
    caps: list[int] = []
    for _x in range(counts[r]):
        optional.append((VALUE[top], 1))
    caps.append(rules.wilds_allowed(nat + counts[r]) - key_wilds)
    pairs = []
    for q in NATURAL_RANKS:
        if q == r:
            continue
        n = counts[q]
        if n >= 3:
            v = VALUE[q * 4]
            optional.append((n * v, n))
            caps.append(rules.wilds_allowed(n))
        elif n == 2:
            pairs.append(q)
    pairs.sort(key=lambda q: -VALUE[q * 4])
    wi = 0
    for q in pairs:
        if wi < len(wilds) and rules.wilds_allowed(2) >= 1:
            optional.append((2 * VALUE[q * 4] + VALUE[wilds[wi]], 3))
            caps.append(rules.wilds_allowed(2) - 1)
            wi += 1
    for w in wilds[wi:]:
        for i, cap in enumerate(caps):
            if cap > 0:
                caps[i] -= 1
                optional.append((VALUE[w], 1))
                break
    melded = sum(n for _, n in optional)
    leftover = len(hand) - melded + pile_extra
    optional.sort()
    while leftover < 2 and optional:
        v, n = optional.pop(0)
        leftover += n
    return points + sum(v for v, _ in optional)


_MELD_NNN = {r: A.meld(r, r, r) for r in NATURAL_RANKS}
_MELD_NNW = {(r, w): A.meld(r, r, w) for r in NATURAL_RANKS for w in _WILD_RANKS}
_ADD_N = {r: A.add(r) for r in NATURAL_RANKS}
_ADD_W = {(w, r): A.add(w, r) for r in NATURAL_RANKS for w in _WILD_RANKS}
_DISCARD: dict[int, Action] = {int(c): A.discard(c) for c in set(full_deck(3))}


def _meld_actions(s: GameState, one_card_rule: bool = True) -> list[Action]:
    rules = s.rules
    seat = s.turn
    tm = team(seat, rules)
    hand = s.hands[seat]
    t = s.t
    row = s.melds[tm]
    counts = [0] * 15
    for c in hand:
        counts[RANK_OF[c]] += 1
    n = len(hand)
    out: list[Action] = []
    two, jk = counts[DEUCE], counts[JOKER]
    wild_ranks = [w for w in _WILD_RANKS if counts[w]]
    pair_wild = rules.wilds_allowed(2) >= 1
    limit, max_w = rules.wild_limit, rules.max_wilds
    several = rules.several_groups
    for r in NATURAL_RANKS:
        c = counts[r]
        if not c:
            continue
        if row[r] is not None:
            out.append(_ADD_N[r])
            if not several or c < 2 or not may_start_group(row, r, rules):
                continue
        elif c < 2:
            continue
        if c >= 3:
            out.append(_MELD_NNN[r])
        if pair_wild:
            for w in wild_ranks:
                out.append(_MELD_NNW[r, w])
    if wild_ranks:
        for r in NATURAL_RANKS:
            m = row[r] if not several else row[group_slot(row, r, rules)]
            if m is not None and len(m.wilds) < (max_w if limit == "three" else rules.wilds_allowed(len(m.naturals))):
                for w in wild_ranks:
                    out.append(_ADD_W[w, r])
    # "A set of three or four black Threes may only be melded when the player goes out in
    # the same turn"; they "must then be the last cards to be melded" (Windows 2.41), so
    # they are offered only when at most the final discard would remain besides them.
    b3 = counts[THREE]
    # b3 >= 1, not >= 2: the fourth black three goes onto the meld of three just made.
    # ``rest``: the cards left besides the black threes (at most the final discard).
    rest = n - b3
    if b3 and t.permission != 0 and rest <= 2 \
            and s.canastas(tm) >= rules.canastas_to_go_out:
        m3 = row[THREE]
        if m3 is None:
            if b3 >= 3 and rest <= 1:
                out.append(A.meld(THREE, THREE, THREE))
            if rules.black_three_meld_with_wild and b3 >= 2:
                # "two Black Threes and a wildcard" (Windows 2.41): the wild card is melded too.
                for w in wild_ranks:
                    out.append(A.meld(THREE, THREE, w))
        elif t.black_threes and m3.size < 4 and rest <= 1:
            out.append(A.add(THREE))
    if rules.wild_melds_allowed and two + jk:
        mw = row[DEUCE] if not several else row[group_slot(row, DEUCE, rules)]
        if mw is not None and not (rules.wild_canasta_closed and mw.size >= 7):
            for w in wild_ranks:
                out.append(A.add(w, DEUCE))
        if (mw is None or (several and mw.size >= 7)) and two + jk >= 3:
            for combo in ((DEUCE, DEUCE, DEUCE), (DEUCE, DEUCE, JOKER), (DEUCE, JOKER, JOKER), (JOKER, JOKER, JOKER)):
                if combo.count(DEUCE) <= two and combo.count(JOKER) <= jk:
                    out.append(A.meld(*combo))
    if rules.sequences:
        out += _sequence_actions(row, hand)
    # An action that empties the hand is going out: legal only if going out is.  One that
    # leaves a single card must leave a way to end the turn with it (DOS "Going Out": without
    # the canasta "the player must keep at least one card in hand", and a turn ends "by
    # selecting a card from the hand for discard").
    if n <= 4:
        kept: list[Action] = []
        last: bool | None = None
        known = False
        for a in out:
            k = len(a.ranks)
            if k == n:
                if not _going_out_ok(s, a):
                    continue
            elif k == n - 1:
                if not known:     # mostly known without looking ahead (see _last_card_known)
                    last, known = True if not one_card_rule else _last_card_known(s), True
                if not (last if last is not None else _one_left_can_go(s, a)):
                    continue
            kept.append(a)
        out = kept
    if several:
        out += _join_actions(row, rules)
    if not t.final:
        if n >= 2:
            ok = turn_problem(s, False) is None
        else:
            ok = turn_problem(s, True) is None
        if ok:
            seen = -1
            for c in hand:
                if c != seen:
                    out.append(_DISCARD[c])
                    seen = c
        if rules.red_three_discard_freezes and n >= 2 and turn_problem(s, False) is None:
            for c in sorted(set(s.red_threes[seat])):
                out.append(A.discard(c))
    if may_ask_version_1(s) and _going_out_possible(s, counts):
        out.append(A.A_ASK)
    if t.prev is not None:
        out.append(A.A_UNDO)
    if t.pile_undo is not None and t.prev is None and s.stock_size > 0:
        # Putting the pile back means drawing from the stock instead: there must be one.
        out.append(A.A_UNPILE)
    if t.final:
        out.append(A.A_END)
    return out


def _sequence_actions(row: tuple[Meld | None, ...], hand: Sequence[int]) -> list[Action]:
    """Sequence melds (Bicycle, Samba: "Three or more cards of the same suit in sequence (ace
    high, four low) ... Cards may be added until there are seven cards") from the hand's
    natural cards of each suit: new melds of three, and one card at either end of a sequence
    short of seven."""
    have = [[False] * 16 for _ in range(4)]
    for c in hand:
        r = RANK_OF[c]
        if r != DEUCE and r != THREE and r != JOKER:
            have[SUIT_OF[c]][sequence_position(r)] = True
    out: list[Action] = []
    for suit in range(4):
        h = have[suit]
        for low in range(4, 13):
            if h[low] and h[low + 1] and h[low + 2]:
                out.append(A.meld_sequence(*(sequence_rank(p) * 4 + suit for p in (low, low + 1, low + 2))))
    for i in range(RANK_SLOTS, len(row)):
        m = row[i]
        if m is None or m.suit < 0 or len(m.naturals) >= SEQUENCE_MAX:
            continue
        h = have[m.suit]
        low, high = m.low, m.high
        if low > 4 and h[low - 1]:
            out.append(A.add_to_sequence(sequence_rank(low - 1) * 4 + m.suit, low, high))
        if high < 14 and h[high + 1]:
            out.append(A.add_to_sequence(sequence_rank(high + 1) * 4 + m.suit, low, high))
    return out


def _join_actions(row: tuple[Meld | None, ...], rules: Rules) -> list[Action]:
    """Bicycle, Samba: a side "may combine its melds in the same rank at any time", within the
    wild card limit (a closed wild canasta takes nothing)."""
    out: list[Action] = []
    for i in range(RANK_SLOTS, len(row)):
        m = row[i]
        if m is None or m.suit >= 0:
            continue
        first = row[m.rank]
        if first is None or A.join(m.rank) in out:
            continue
        if m.rank == DEUCE:
            if not rules.wild_canasta_closed:
                out.append(A.join(m.rank))
        elif len(first.wilds) + len(m.wilds) <= rules.wilds_allowed(len(first.naturals) + len(m.naturals)):
            out.append(A.join(m.rank))
    return out


def _join_slot(row: Sequence[Meld | None], rank: int) -> int:
    """The last further meld of ``rank`` (the one ``join`` puts onto the first)."""
    for i in range(len(row) - 1, RANK_SLOTS - 1, -1):
        m = row[i]
        if m is not None and m.suit < 0 and m.rank == rank:
            return i
    return -1


def may_meld_to_one_card(s: GameState, a: Action) -> bool:
    """Was ``a`` a meld that this engine allowed before it refused melds that leave one card
    and no way to end the turn?  (A game saved then replays as it was played.)"""
    return (s.phase == Phase.MELD and a.kind in (A.MELD, A.ADD) and len(a.ranks) == len(s.hands[s.turn]) - 1
            and a.general() in _meld_actions(s, one_card_rule=False) and named_problem(s, a) is None)


def may_ask_version_1(s: GameState) -> bool:
    """"Permission may only be asked after the player has drawn but before any meld": the
    whole rule for ``ask`` before save format 2, which also wants going out to be possible."""
    rules = s.rules
    t = s.t
    return (s.phase == Phase.MELD and rules.permission_allowed and rules.partnerships and not t.asked
            and t.drew == "stock" and not t.melded and not t.final)


def _going_out_possible(s: GameState, counts: list[int] | None = None) -> bool:
    """Could the player go out this turn at all?  A cheap upper bound, so that "May I go
    out, partner?" is asked only when the answer matters: the side has the canastas needed
    ("The player's side must have melded at least one Canasta"), or the hand could
    complete them now (for some rank: the meld on the table, the natural cards of that
    rank in the hand and the wild cards the wild limit lets it hold reach seven), or the
    rules let a concealed hand go out without a canasta."""
    rules = s.rules
    tm = team(s.turn, rules)
    row = s.melds[tm]
    if rules.sequences or rules.several_groups:
        # A cheap upper bound: the canastas are there, or this turn's melds might make them;
        # but a side that needs a sequence canasta (Bolivia's escalera) needs seven cards in
        # order of one suit between its sequences and the hand.
        if canastas_missing(row, rules) <= 0:
            return True
        if rules.going_out_needs_sequence and not any(
                m is not None and m.suit >= 0 and len(m.naturals) >= SEQUENCE_MAX for m in row):
            return _escalera_reachable(row, s.hands[s.turn])
        return True
    missing = rules.canastas_to_go_out
    for m in row:
        if m is not None and len(m.naturals) + len(m.wilds) >= 7:
            missing -= 1
    if missing <= 0:
        return True
    t = s.t
    if not rules.concealed_needs_canasta and not t.opened_at_start and not t.melded_before:
        return True
    if counts is None:
        counts = _count(s.hands[s.turn])
    wilds = counts[DEUCE] + counts[JOKER]
    for r in NATURAL_RANKS:
        n = counts[r]
        m = row[r]
        if m is None:
            if n < 2 or n + wilds < 7:
                continue  # a new meld needs two natural cards, and seven in all
            nat, held = n, 0
        else:
            held = len(m.wilds)
            nat = n + len(m.naturals)
            if nat + held + wilds < 7 or nat + held >= 7 + n:
                continue  # out of reach, or a canasta already (counted above)
        room = rules.wilds_allowed(nat) - held
        if nat + held + (wilds if wilds < room else max(room, 0)) >= 7:
            missing -= 1
    if rules.wild_melds_allowed:
        m = row[DEUCE]
        if (m is None or not m.is_canasta) and wilds + (m.size if m is not None else 0) >= 7:
            missing -= 1
    return missing <= 0


def _escalera_reachable(row: Sequence[Meld | None], hand: Sequence[int]) -> bool:
    """Could a sequence of seven be made this turn: seven cards in order of one suit among the
    hand's natural cards and the side's sequences of that suit?"""
    have = [[False] * 16 for _ in range(4)]
    for c in hand:
        r = RANK_OF[c]
        if r != DEUCE and r != THREE and r != JOKER:
            have[SUIT_OF[c]][sequence_position(r)] = True
    for m in row:
        if m is not None and m.suit >= 0:
            for p in range(m.low, m.high + 1):
                have[m.suit][p] = True
    return any(all(h[low:low + SEQUENCE_MAX]) for h in have for low in range(4, 16 - SEQUENCE_MAX))


def going_out_needs(s: GameState) -> str | None:
    """What going out would take when this turn cannot reach it; None if it might."""
    if _going_out_possible(s):
        return None
    rules = s.rules
    if rules.going_out_needs_sequence and canastas_missing(s.melds[team(s.turn, rules)], rules) > 0:
        name = rules.sequence_canasta_name
        return f"Your side has no {name} yet: going out needs one, and your hand cannot complete it this turn"
    need = s.rules.canastas_to_go_out
    have = s.canastas(team(s.turn, s.rules))
    if have == 0:
        side = "Your side has no canasta yet"
        wants = "going out needs one" if need == 1 else "going out needs two"
        more = "one" if need == 1 else "them"
    else:
        side, wants, more = "Your side has one canasta", "going out needs two", "another"
    return f"{side}: {wants}, and your hand cannot complete {more} this turn"


def _leaves_a_way_out(s: GameState, a: Action) -> bool:
    """Can the turn still end after the meld ``a``, without taking melds back?  Only a meld of
    the last cards (going out) or down to the last card can paint a turn into that corner:
    with two cards left one of them can always be discarded as far as going out goes (an
    initial meld still short is the DOS manual's "insufficient meld", which a discard
    returns to the hand: see :func:`improper_melds`).  ``_meld_actions`` inlines this."""
    n, k = len(s.hands[s.turn]), len(a.ranks)
    if k == n:
        return _going_out_ok(s, a)
    if k != n - 1:
        return True
    last = _last_card_known(s)
    return last if last is not None else _one_left_can_go(s, a)


def _last_card_known(s: GameState) -> bool | None:
    """May any meld leave the turn's player one card, known without looking ahead?  True:
    the turn can always end after it (the side had made its initial meld and has the
    canastas, and no "no" binds the player: the last card may be discarded; after the last
    card of the stock, a red three, the hand may be ended instead).  False: it never can
    (the partner said no, and going out is the only way on; or the side had made its initial
    meld and lacks one canasta, which no meld of the side is near enough to complete with the
    meld and the last card, one card each).  None: look ahead."""
    t = s.t
    if t.final:
        return True
    if not t.opened_at_start:
        return None if t.permission != 0 else False
    if t.permission == 0:
        return False
    row = s.melds[team(s.turn, s.rules)]
    if s.rules.sequences or s.rules.several_groups:
        return True if canastas_missing(row, s.rules) <= 0 else None
    have = near = 0
    for m in row:
        if m is not None:
            size = len(m.naturals) + len(m.wilds)
            if size >= 7:
                have += 1
            elif size >= 5:
                near += 1
    missing = s.rules.canastas_to_go_out - have
    if missing <= 0:
        return True
    return False if missing == 1 and not near else None


def _one_left_can_go(s: GameState, a: Action) -> bool:
    """After the meld ``a``, which leaves one card, can the turn end?  Looked ahead, unless the
    canastas alone decide it: when the side had made its initial meld and no "no" binds, the
    last card may be discarded once the side has its canastas, and melding it out needs them
    too, so then it must complete the one missing canasta: a meld of six cards after ``a``
    (its own rank's, for a natural card; a wild card is looked ahead where there is one).
    ``test_rule_dead_ends`` checks this against the look ahead."""
    t = s.t
    if t.opened_at_start and t.permission != 0 and not s.rules.sequences and not s.rules.several_groups:
        tm = team(s.turn, s.rules)
        row = s.melds[tm]
        ranks = a.ranks
        key = a.target if a.kind == A.ADD else DEUCE if all(r in _WILD_RANKS for r in ranks) else ranks[0]
        m = row[key]
        size = len(m.naturals) + len(m.wilds) if m is not None else 0
        have = s.canastas(tm) + (size < 7 <= size + len(ranks))
        need = s.rules.canastas_to_go_out
        if have >= need:
            return True
        if have + 1 < need:
            return False
        counts = _count(s.hands[s.turn])
        for r in ranks:
            counts[r] -= 1
        last = counts.index(1)
        if last not in _WILD_RANKS:
            x = row[last]
            grown = (len(x.naturals) + len(x.wilds) if x is not None else 0) + (len(ranks) if last == key else 0)
            return grown == 6 and last != THREE
        if size + len(ranks) != 6 and not any(x is not None and len(x.naturals) + len(x.wilds) == 6 for x in row):
            return False
    return _last_card_can_go(_apply_unchecked(s, a))


def _last_card_can_go(s: GameState) -> bool:
    """With at most one card left in the hand, can the turn end: discard it or meld it (both
    are going out), or end the hand?  (More cards, e.g. the rest of a pile received: yes.)"""
    if len(s.hands[s.turn]) > 1 or (s.hands[s.turn] and not s.t.final and turn_problem(s, True) is None):
        return True
    # A join melds no card of the hand: it is no way on (the turn would never end).
    return any(x.kind != A.UNDO and x.kind != A.UNPILE and x.kind != A.JOIN for x in _meld_actions(s))


def _last_card_reason(s: GameState, a: Action) -> str | None:
    """Why the meld ``a`` may not leave one card in the hand (None: it may)."""
    hand = s.hands[s.turn]
    if len(a.ranks) != len(hand) - 1 or _leaves_a_way_out(s, a):
        return None
    after = _apply_unchecked(s, a)
    if after.t.permission == 0:
        why = "your partner said no to going out this turn"
    elif _short_of_canastas(after):
        why = f"your side needs {_canastas_needed(s.rules)} to go out"
    else:
        problem = turn_problem(after, True) or "you may not go out this turn"
        why = problem[0].lower() + problem[1:]
    return f"That would leave you one card, which you could not discard: {why}"


def _going_out_ok(s: GameState, a: Action) -> bool:
    """A meld that melds the last cards of the hand: legal if going out is, or if the rest
    of the pile it earns comes into the hand."""
    after = _apply_unchecked(s, a)
    return bool(after.hands[s.turn]) or turn_problem(after, True) is None


# --------------------------------------------------------------------------- apply

def apply(s: GameState, a: Action) -> GameState:
    """The position after ``a``; raises IllegalActionError (with the reason) if it is not legal."""
    if not is_legal(s, a):
        raise IllegalActionError(explain(s, a) or f"'{a}' is not allowed now")
    return _apply_legal(s, a)


def apply_legal(s: GameState, a: Action) -> GameState:
    """``apply`` for an action taken from ``legal_actions(s)`` itself: skips checking it
    again (searches that play thousands of rollouts).  Anything else: use ``apply``."""
    return _apply_legal(s, a)


def _apply_legal(s: GameState, a: Action) -> GameState:
    k = a.kind
    if k == A.DISCARD:
        return _discard(s, a.card)
    if k == A.DRAW:
        return _draw(s)
    if k == A.ASK:
        return s._replace(phase=Phase.PERMISSION, actor=partner(s.turn), t=s.t._replace(asked=True))
    if k == A.YES or k == A.NO:
        return s._replace(phase=Phase.MELD, actor=s.turn, t=s.t._replace(permission=1 if k == A.YES else 0))
    if k == A.UNDO:
        assert s.t.prev is not None
        return s.t.prev
    if k == A.UNPILE:
        before = s.t.pile_undo
        assert before is not None
        tm = team(s.turn, s.rules)
        return before.charge(tm, s.rules.undo_pile_penalty, PILE_PUT_BACK)._replace(
            t=before.t._replace(pile_undone=True))
    if k == A.END:
        return _end_hand(s, HandEnd.STOCK_EXHAUSTED)
    after = _apply_unchecked(s, a)
    if not after.hands[s.turn]:
        return _end_hand(after, HandEnd.WENT_OUT, s.turn, _concealed(after))
    return after


def _apply_unchecked(s: GameState, a: Action) -> GameState:
    """Melds and pile takes, without the going-out check (used to look ahead too)."""
    if a.kind == A.PILE:
        return _take_pile(s, a)
    seat = s.turn
    rules = s.rules
    tm = team(seat, rules)
    row = s.melds[tm]
    t = s.t
    if a.kind == A.JOIN:
        # Samba: "may combine its melds in the same rank at any time" (no card leaves the hand).
        i = _join_slot(row, a.ranks[0])
        m, first = row[i], row[a.ranks[0]]
        assert m is not None and first is not None
        joined = first._replace(naturals=first.naturals + m.naturals, wilds=first.wilds + m.wilds)
        return s._replace(melds=_set(s.melds, tm, _put(_put(row, a.ranks[0], joined), i, None)),
                          t=t._replace(prev=s))
    hand = list(s.hands[seat])
    if a.card >= 0:
        cards = [_take_card(hand, sequence_rank(p) * 4 + SUIT_OF[a.card])
                 for p in map(sequence_position, a.ranks)]
    else:
        cards = _take_used(hand, a, _own_left(t))
    key = a.ranks[0]
    if a.kind == A.MELD:
        if a.card >= 0:
            slot = len(row)
            new = Meld(key, tuple(cards), (), SUIT_OF[a.card])
        elif IS_WILD[cards[0]] and all(IS_WILD[c] for c in cards):
            key = DEUCE
            slot = _new_slot(row, DEUCE)
            new = Meld(DEUCE, (), tuple(cards))
        else:
            slot = _new_slot(row, key)
            new = Meld(key, tuple(c for c in cards if not IS_WILD[c]), tuple(c for c in cards if IS_WILD[c]))
        added_existing = t.added_existing
    else:
        c = cards[0]
        if a.card >= 0:
            low, high = A.target_span(a.target)
            slot = sequence_slot(row, SUIT_OF[c], low, high)
            m = row[slot]
            assert m is not None
            nat = (c, *m.naturals) if sequence_position(RANK_OF[c]) < low else (*m.naturals, c)
            new = m._replace(rank=RANK_OF[nat[0]], naturals=nat)
        else:
            key = a.target
            slot = group_slot(row, key, rules) if rules.several_groups else key
            m = row[slot]
            assert m is not None
            if IS_WILD[c]:
                new = m._replace(wilds=(*m.wilds, c))
            else:
                new = m._replace(naturals=(*m.naturals, c))
        added_existing = t.added_existing or bool(t.start_keys >> slot & 1)
    after = s._replace(
        hands=_set(s.hands, seat, tuple(hand)),
        melds=_set(s.melds, tm, _put(row, slot, new)),
        has_melded=_set(s.has_melded, seat, True) if not s.has_melded[seat] else s.has_melded,
        known=_set(s.known, seat, _remove_known(s.known[seat], cards)) if s.known[seat] else s.known,
        t=t._replace(melded=t.melded + tuple(cards), prev=s,
                     black_threes=t.black_threes or key == THREE, added_existing=added_existing),
    )
    return _receive_if_opened(after) if _waiting(s) else after


def top_card_only(s: GameState, a: Action) -> bool:
    """Does ``a`` take the upcard alone?  Windows 2008, with no more cards on the stock: "you
    must take that top discard. Only that card is removed from the pile; you do not receive
    the rest. You must discard normally."  (``stock_exhausted = "top_card"``; ``pile`` there
    puts the upcard onto the side's meld of its rank.)"""
    return s.rules.stock_exhausted == "top_card" and s.stock_size == 0 and a.kind == A.PILE and not a.ranks


def _take_pile(s: GameState, a: Action) -> GameState:
    rules = s.rules
    if top_card_only(s, a):
        return _take_top_card(s)
    seat = s.turn
    tm = team(seat, rules)
    hand = list(s.hands[seat])
    own = tuple(hand)
    top = s.pile[-1]
    r = RANK_OF[top]
    used = _take_used(hand, a)
    row = s.melds[tm]
    slot = group_slot(row, r, rules) if rules.several_groups else r
    m = row[slot]
    if m is not None and rules.several_groups and m.size >= 7:
        slot, m = _new_slot(row, r), None   # Samba: a new meld beside the canasta
    nat = (top, *tuple(c for c in used if not IS_WILD[c]))
    wil = tuple(c for c in used if IS_WILD[c])
    new = Meld(r, nat, wil) if m is None else m._replace(naturals=m.naturals + nat, wilds=m.wilds + wil)
    t = s.t
    opened = t.opened_at_start
    taken = s._replace(
        hands=_set(s.hands, seat, tuple(hand)),
        melds=_set(s.melds, tm, _put(row, slot, new)),
        pile=(), frozen=False, phase=Phase.MELD, aside=s.pile[:-1],
        has_melded=_set(s.has_melded, seat, True),
        known=_set(s.known, seat, _remove_known(s.known[seat], used)) if s.known[seat] else s.known,
        t=t._replace(drew="pile", melded=tuple(used), own=None if opened else own,
                     upcard_points=VALUE[top] if not opened else 0,
                     extra_needed=0 if opened or rules.top_card_counts_for_initial_meld else VALUE[top],
                     added_existing=m is not None, prev=None),
    )
    if rules.undo_pile_allowed and not opened:
        # Windows 2.41: "if you had zero points on the table before taking the discard pile,
        # you must have melded at least the minimum amount of points" before "you receive
        # the rest of the discard pile"; until then the top card may be put back.
        waiting = taken._replace(t=taken.t._replace(pile_undo=s))
        return _receive_if_opened(waiting)
    return _receive(taken)


def _take_top_card(s: GameState) -> GameState:
    """The upcard alone onto the side's meld of its rank; the rest of the pile stays where it is."""
    seat = s.turn
    tm = team(seat, s.rules)
    top = s.pile[-1]
    row = s.melds[tm]
    slot = group_slot(row, RANK_OF[top], s.rules) if s.rules.several_groups else RANK_OF[top]
    m = row[slot]
    assert m is not None
    return s._replace(
        melds=_set(s.melds, tm, _put(row, slot, m._replace(naturals=(*m.naturals, top)))),
        pile=s.pile[:-1], phase=Phase.MELD,
        t=s.t._replace(drew="pile", melded=(), added_existing=True, prev=None),
    )


def _waiting(s: GameState) -> bool:
    """The rest of a taken pile waits for the initial meld (``pile_undo`` is set while it
    does; a position rebuilt from a view has no ``pile_undo``, only the cards aside)."""
    return s.t.pile_undo is not None or bool(s.aside)


def _receive_if_opened(s: GameState) -> GameState:
    """While the rest of the pile waits: hand it over once the turn's melds meet the
    initial meld requirement."""
    if _waiting(s) and meld_count(s) >= meld_needed(s):
        return _receive(s)
    return s


def _receive(s: GameState) -> GameState:
    """The rest of the taken pile goes into the hand; red threes in it are laid out ("must
    place the red Three face up on the table, but does not draw a replacement card").
    The pile can no longer be put back, and melds made to earn it stay on the table."""
    seat = s.turn
    rest = [c for c in s.aside if not IS_RED_THREE[c]]
    laid = s.red_threes[seat] + tuple(c for c in s.aside if IS_RED_THREE[c])
    return s._replace(
        hands=_set(s.hands, seat, tuple(sorted(s.hands[seat] + tuple(rest)))),
        red_threes=_set(s.red_threes, seat, laid), aside=(),
        known=_set(s.known, seat, tuple(sorted(s.known[seat] + tuple(rest)))) if rest else s.known,
        t=s.t._replace(pile_undo=None, prev=None if _waiting(s) else s.t.prev),
    )


def _draw(s: GameState) -> GameState:
    rules = s.rules
    seat = s.turn
    deck, pos = s.deck, s.stock_pos
    pile, frozen, turned = s.pile, s.frozen, s.stock_turned
    if pos >= len(deck):
        # "turn the discard pile upside down and use it as the new draw pile" (Windows 2.41)
        deck, pile, frozen, turned = deck + pile, (), False, True
    hand = list(s.hands[seat])
    laid = s.red_threes[seat]
    want = rules.draw_count
    last_red = False
    while want > 0 and pos < len(deck):
        c = deck[pos]
        pos += 1
        if IS_RED_THREE[c]:
            # "A player who draws a red Three from the stock must immediately place it face up
            # on the table and draw a replacement card from the stock."
            laid = (*laid, c)
            last_red = pos == len(deck)
            if not rules.red_three_replacement:
                want -= 1
            continue
        last_red = False
        hand.append(c)
        want -= 1
    s = s._replace(deck=deck, stock_pos=pos, pile=pile, frozen=frozen, stock_turned=turned,
                   hands=_set(s.hands, seat, tuple(sorted(hand))),
                   red_threes=_set(s.red_threes, seat, laid),
                   phase=Phase.MELD, t=s.t._replace(drew="stock"))
    if last_red and pos == len(deck):
        # "If a player draws the last card of the stock and it is a red Three, the card is
        # placed face up on the table and the play ends."
        if rules.last_draw_red_three == "end":
            return _end_hand(s, HandEnd.LAST_CARD_RED_THREE)
        if rules.last_draw_red_three == "meld_then_end":
            return s._replace(t=s.t._replace(final=True))
    return s


def _discard(s: GameState, c: int) -> GameState:
    rules = s.rules
    seat = s.turn
    tm = team(seat, rules)
    hand = list(s.hands[seat])
    red_threes = s.red_threes
    if IS_RED_THREE[c]:
        rt = list(red_threes[seat])
        rt.remove(c)
        red_threes = _set(red_threes, seat, tuple(rt))
    else:
        hand.remove(c)
    if s.t.permission == 1 and hand:
        # "Should the player not abide by the answer, a 100 point penalty is assessed."
        s = s.charge(tm, rules.permission_penalty, PERMISSION_BROKEN)
    frozen = s.frozen or IS_WILD[c] or IS_RED_THREE[c]
    changes: dict[str, Any] = dict(hands=_set(s.hands, seat, tuple(hand)), red_threes=red_threes,
                   pile=(*s.pile, c), frozen=frozen,
                   known=_set(s.known, seat, _remove_known(s.known[seat], (c,))) if s.known[seat] else s.known)
    if not hand:
        return _end_hand(s._replace(**changes), HandEnd.WENT_OUT, seat, _concealed(s))
    return _begin_turn(s, next_seat(seat, rules.players), **changes)


# --------------------------------------------------------------------------- improper melds

class ImproperMelds(NamedTuple):
    """A discard refused because of the turn's melds, and the melds it returns to the hand.

    DOS manual, Chapter 1, "Improper Melds": "you can always have the melds returned to your
    hand by attempting to discard a card. An error message will be generated and ... one of
    the melds will be returned to your hand. To have the remaining meld(s) returned, select
    the discard function again."  The caller applies ``undo`` (legal ``undo`` actions, so the
    log replays); it is empty when the melds were made to take the pile (they stay).
    """

    reason: str                  # why the discard is refused (the turn's problem)
    undo: tuple[Action, ...]     # the undos that return the most recent meld of one rank
    rank: int                    # that meld's rank (2: the wild meld); 0 when nothing returns
    cards: tuple[int, ...]       # the cards they return to the hand
    whole: bool                  # the meld itself was made this turn (not only cards added)
    more: bool                   # after them the discard is still refused and more can return


def improper_melds(s: GameState, a: Action) -> ImproperMelds | None:
    """What attempting the discard ``a`` does under the DOS rule for improper melds; None
    when ``a`` is legal or is refused for another reason than the turn's melds."""
    first = _improper(s, a)
    if first is None:
        return None
    reason, steps, key, back = first
    if not steps:
        return ImproperMelds(reason, (), 0, (), False, False)
    returned = Counter(back.hands[s.turn])
    returned.subtract(s.hands[s.turn])
    nxt = _improper(back, a)
    tm = team(s.turn, s.rules)
    was = back.melds[tm][key] if key < len(back.melds[tm]) else None
    shown = s.melds[tm][key]
    rank = shown.rank if shown is not None else key
    return ImproperMelds(reason, (A.A_UNDO,) * steps, rank, tuple(sorted(returned.elements())),
                         was is None, nxt is not None and nxt[1] > 0)


def _improper(s: GameState, a: Action) -> tuple[str, int, int, GameState] | None:
    """(reason, undo steps, rank, position after them) for a discard refused by the turn's melds."""
    t = s.t
    if a.kind != A.DISCARD or s.phase != Phase.MELD or t.final or not t.melded or a in legal_actions(s):
        return None
    seat = s.turn
    hand = s.hands[seat]
    c = a.card
    if IS_RED_THREE[c]:
        if not s.rules.red_three_discard_freezes or c not in s.red_threes[seat] or len(hand) < 2:
            return None
        reason = turn_problem(s, False)
    elif c in hand:
        reason = turn_problem(s, len(hand) == 1)
    else:
        return None
    if reason is None:
        return None
    tm = team(seat, s.rules)
    steps, key, cur = 0, 0, s
    while cur.t.prev is not None:
        prev = cur.t.prev
        before, now = prev.melds[tm], cur.melds[tm]
        changed = next(r for r in range(len(now)) if r >= len(before) or before[r] != now[r])
        if steps and changed != key:
            break
        steps, key, cur = steps + 1, changed, prev
    return reason, steps, key, cur


# --------------------------------------------------------------------------- explain

def explain(s: GameState, a: Action) -> str | None:
    """Why ``a`` is not legal here, in words for the player; None if it is legal."""
    if a.cards:
        return explain(s, a.general()) or named_problem(s, a)
    if a in legal_actions(s):
        return None
    k = a.kind
    who = player_name(s.actor)
    if s.phase == Phase.HAND_OVER:
        return "The hand is over"
    if s.phase == Phase.PERMISSION:
        return f"{who} must first answer: may {player_name(s.turn)} go out?"
    if k in (A.YES, A.NO):
        return "Nobody has asked to go out"
    if s.phase == Phase.DRAW:
        if k in (A.MELD, A.ADD, A.DISCARD, A.UNDO, A.JOIN):
            return "Draw from the stock or take the pile first"
        if k == A.ASK:
            return "Permission may only be asked after drawing and before any meld"
        if k == A.DRAW:
            return _forced_pile(s) or "The stock is exhausted"
        if k == A.PILE:
            if s.t.pile_undone:
                return "You put the pile back this turn: draw from the stock"
            if s.rules.stock_exhausted == "top_card":
                return _forced_pile(s) or _pile_reason(s, a)
            return _pile_reason(s, a)
        if k == A.END:
            return _forced_pile(s) or ("You may end the hand only when the stock is exhausted" if s.stock_size
                                       else "These rules do not let you end the hand now")
        return f"'{a}' is not allowed now"
    # MELD phase
    t = s.t
    seat = s.turn
    hand = s.hands[seat]
    counts = _count(hand)
    tm = team(seat, s.rules)
    row = s.melds[tm]
    if k in (A.DRAW, A.PILE):
        return "You have already drawn this turn: meld or discard"
    if k == A.ASK:
        if not s.rules.partnerships:
            return "There is no partner to ask in this game"
        if not s.rules.permission_allowed:
            return "These rules do not allow asking permission"
        if t.asked:
            return "You have already asked this turn"
        if t.drew == "stock" and not t.melded and not t.final:
            needs = going_out_needs(s)
            if needs is not None:
                return needs + ": there is nothing to ask"
        return "Permission may only be asked after drawing from the stock and before any meld"
    if k == A.UNDO:
        return "No meld of this turn to take back (melds made to take the pile stay)"
    if k == A.UNPILE:
        if not s.rules.undo_pile_allowed:
            return "These rules do not allow putting the pile back"
        if t.pile_undo is not None:
            if t.prev is not None:
                return "Take back the melds you made since taking the pile first (undo), then put it back"
            return "The stock is exhausted: there is no card to draw instead of the pile"
        if t.drew == "pile":
            if t.opened_at_start:
                return "Your side had made its initial meld, so the whole pile came at once: it cannot go back"
            return "The rest of the pile is in your hand: it can no longer be put back"
        return "You can put the pile back only right after taking it"
    if k == A.END:
        if s.stock_size == 0:
            return "You have drawn this turn: meld and discard (the hand may be ended instead of drawing)"
        return "You may end the hand only when the stock is exhausted"
    if t.final and k == A.DISCARD:
        return "The last card of the stock was a red three: meld if you like, then end the hand"
    if k == A.DISCARD:
        c = a.card
        if IS_RED_THREE[c]:
            if not s.rules.red_three_discard_freezes or c not in s.red_threes[seat]:
                return "Red threes are laid out, never discarded"
        elif c not in hand:
            return f"You do not hold {card_text(c)}"
        return turn_problem(s, len(hand) == 1) or f"You may not discard {card_text(c)} now"
    if k == A.JOIN:
        return _join_reason(s, a, row)
    if a.is_sequence:
        return _sequence_reason(s, a, row)
    if k in (A.MELD, A.ADD):
        return _meld_reason(s, a, counts, row)
    return f"'{a}' is not allowed now"


def _join_reason(s: GameState, a: Action, row: tuple[Meld | None, ...]) -> str:
    r = a.ranks[0]
    name = "wild cards" if r == DEUCE else plural(r)
    if not s.rules.several_groups:
        return "These rules give a side one meld of each rank: there is nothing to join"
    if row[r] is None:
        return f"Your side has no meld of {name}: there is nothing to join"
    if _join_slot(row, r) < 0:
        return f"Your side has only one meld of {name}: there is nothing to join"
    if r == DEUCE:
        return f"Nothing may be added to {_an(s.rules.wild_canasta_name)}"
    return f"Joined, the melds of {name} would hold too many wild cards: " + _wild_limit_text(s.rules).lower()


def _sequence_reason(s: GameState, a: Action, row: tuple[Meld | None, ...]) -> str:
    """Why a sequence meld or an add onto a sequence is refused."""
    rules = s.rules
    if not rules.sequences:
        return "These rules have no sequence melds: a meld is made of one rank"
    # Wild cards and threes first: a joker's rank reads as the Ace's place in a sequence and its
    # suit as clubs, so anything looked up from them would name a card nobody played.
    if any(r in _WILD_RANKS for r in a.ranks):
        return NO_WILD_IN_SEQUENCE
    if THREE in a.ranks:
        return NO_THREE_IN_SEQUENCE
    suit = SUIT_OF[a.card] if a.kind == A.MELD else A.target_suit(a.target)
    if SUIT_OF[a.card] != suit:
        low, high = A.target_span(a.target)
        return (f"{card_text(a.card)} cannot go on {card_text(sequence_rank(low) * 4 + suit)}-"
                f"{card_text(sequence_rank(high) * 4 + suit)}: a sequence is of one suit")
    hand = list(s.hands[s.turn])
    cards = [sequence_rank(sequence_position(r)) * 4 + suit for r in a.ranks]
    for c in cards:
        if c not in hand:
            return f"You do not hold {card_text(c)}"
        hand.remove(c)
    if a.kind == A.MELD:
        pos = [sequence_position(r) for r in a.ranks]
        if len(pos) != 3:
            return "Start a sequence with three cards (like 7h 8h 9h), then add more"
        if pos != list(range(pos[0], pos[0] + 3)):
            return "A sequence is three or more cards of one suit in order, 4 low and Ace high"
    else:
        low, high = A.target_span(a.target)
        slot = sequence_slot(row, suit, low, high)
        if slot < 0:
            return (f"Your side has no sequence from {card_text(sequence_rank(low) * 4 + suit)} to "
                    f"{card_text(sequence_rank(high) * 4 + suit)}")
        if high - low + 1 >= SEQUENCE_MAX:
            return sequence_closed_text(rules)
        p = sequence_position(a.ranks[0])
        if p not in (low - 1, high + 1):
            return f"{card_text(a.card)} does not continue that sequence at either end"
    if len(s.hands[s.turn]) == len(a.ranks):
        after = _apply_unchecked(s, a)
        return turn_problem(after, True) or "That would empty your hand"
    return _last_card_reason(s, a) or f"'{a}' is not allowed now"


#: Why a wild card is refused in a sequence (Bicycle, Samba: "no sequence meld may contain any
#: wild card"); the UI says the same when a selection holds one.
NO_WILD_IN_SEQUENCE = "No wild card may stand in a sequence: it is natural cards of one suit in order"
#: Why a three is refused in one ("ace high, four low").
NO_THREE_IN_SEQUENCE = "No three may stand in a sequence: it runs from 4 up to the Ace"


def sequence_closed_text(rules: Rules) -> str:
    """Why a card is refused on a sequence of seven (Bicycle, Samba: "Cards may be added until
    there are seven cards, at which point the meld becomes a 'samba'"): seven is all it holds."""
    return f"{_an(rules.sequence_canasta_name).capitalize()} is a sequence of exactly seven cards: it takes no more"


def _forced_pile(s: GameState) -> str | None:
    """The refusal of anything but the forced take: "the next player is 'forced' to pick up
    the discard provided it can be melded on an existing meld" (stock exhausted)."""
    if s.rules.stock_exhausted == "top_card" and legal_actions(s) == [A.A_PILE]:
        return ("You must take the upcard onto your side's meld: the stock is exhausted "
                "(only that card comes off the pile)")
    if legal_actions(s) == [A.A_PILE]:
        return "You must take the pile: the upcard fits a meld of your side and the stock is exhausted"
    return None


def _meld_reason(s: GameState, a: Action, counts: list[int], row: tuple[Meld | None, ...]) -> str:
    rules = s.rules
    need: dict[int, int] = {}
    for r in a.ranks:
        need[r] = need.get(r, 0) + 1
    if a.kind == A.ADD and a.ranks[0] not in _WILD_RANKS and a.ranks[0] != a.target and a.target < RANK_SLOTS:
        # The rule first, whatever the hand holds: no card of that rank would do.
        if add_target(row, a, rules) is None:
            return f"Your side has no meld of {_meld_name(a.target)} to add to"
        return _wrong_meld_text(a.ranks[0], a.target)
    for r, n in need.items():
        if counts[r] < n:
            have = counts[r]
            if r == THREE:
                return "Red threes are laid out, never melded" if have == n else f"You hold {have} black three(s)"
            if have == 0 and a.kind == A.ADD:
                return f"You hold no {RANK_WORDS[r]}"
            return f"You hold {have} {plural(r) if have != 1 else RANK_WORDS[r]}; the meld needs {n}"
    if a.kind == A.MELD:
        key = a.ranks[0]
        wild = sum(1 for r in a.ranks if r in _WILD_RANKS)
        if all(r in _WILD_RANKS for r in a.ranks):
            if not rules.wild_melds_allowed:
                return "Jokers and deuces may never be melded apart from natural cards"
            key = DEUCE
        elif key in _WILD_RANKS:
            return "Write the natural cards first, like: meld K K 2"
        if len(a.ranks) != 3:
            return "Start a meld with three cards (K K K or K K 2), then add more"
        if any(r != key and r not in _WILD_RANKS for r in a.ranks):
            return "A meld is made of one rank (with wild cards)"
        if row[key] is not None and not may_start_group(row, key, rules):
            return f"Your side already has a meld of {_meld_name(key)}: add to it"
        if key != DEUCE and len(a.ranks) - wild < 2:
            return "A meld needs at least two natural cards"
        if key == THREE:
            if wild and not rules.black_three_meld_with_wild:
                return "Black threes cannot be melded with wild cards"
            if s.t.permission == 0:
                return "Your partner said no: black threes may be melded only when going out"
            return "Black threes may be melded only when going out, once your side has the canastas to go out"
        if key != DEUCE and wild > rules.wilds_allowed(len(a.ranks) - wild):
            return _wild_limit_text(rules)
    else:
        target = a.target
        m = add_target(row, a, rules)
        if target == DEUCE and not rules.wild_melds_allowed:
            return "Jokers and deuces may never be melded apart from natural cards"
        if m is None:
            text = f"Your side has no meld of {_meld_name(target)} to add to"
            if a.ranks[0] in _WILD_RANKS and 0 < target < RANK_SLOTS and any(
                    x is not None and x.is_sequence and x.low <= sequence_position(target) <= x.high for x in row):
                # The player pointed at a sequence holding that rank: say why it is no meld for this.
                text += ", and no wild card may stand in a sequence"
            return text
        if target == DEUCE and rules.wild_canasta_closed and m.size >= 7:
            return f"Nothing may be added to {_an(rules.wild_canasta_name)}"
        r = a.ranks[0]
        if r in _WILD_RANKS and target != DEUCE and len(m.wilds) >= rules.wilds_allowed(len(m.naturals)):
            return _wild_limit_text(rules)
        if target == THREE:
            return "Black threes may be melded only when going out"
    if len(s.hands[s.turn]) == len(a.ranks):
        after = _apply_unchecked(s, a)
        if not after.hands[s.turn]:
            return turn_problem(after, True) or "That would empty your hand"
    return _last_card_reason(s, a) or f"'{a}' is not allowed now"


def _wrong_meld_text(rank: int, target: int) -> str:
    """Why a natural card of ``rank`` may not go on the meld of ``target``."""
    card = a_or_an(RANK_WORDS[rank])
    card = card[0].upper() + card[1:]
    if target == DEUCE:
        return f"{card} cannot go on the meld of wild cards: it takes only deuces and jokers"
    return f"{card} cannot go on the meld of {plural(target)}"


def _meld_name(rank: int) -> str:
    """What a meld of ``rank`` holds, as a sentence names it: "Kings", "wild cards" (the wild
    meld's slot is the deuce's, but jokers stand in it as much as deuces)."""
    return "wild cards" if rank == DEUCE else plural(rank)


def _wild_limit_text(rules: Rules) -> str:
    if rules.wild_limit == "naturals":
        return "Wild cards may never outnumber the natural cards of a meld"
    if rules.wild_limit == "both":
        return f"A meld may hold at most {rules.max_wilds} wild cards, never more than its natural cards"
    return f"A meld may hold at most {rules.max_wilds} wild cards"


def _why_frozen(s: GameState) -> str:
    """What freezes the pile: a wild card or red three in it, or the rules from the deal."""
    if any(IS_WILD[c] for c in s.pile):
        return "it holds a wild card"
    if any(IS_RED_THREE[c] for c in s.pile):
        return "it holds a red three"
    return "these rules freeze it from the deal"


def _pile_reason(s: GameState, a: Action) -> str:
    block = _pile_block(s)
    if block:
        return block
    rules = s.rules
    top = s.pile[-1]
    r = RANK_OF[top]
    seat = s.turn
    tm = team(seat, rules)
    counts = _count(s.hands[seat])
    row = s.melds[tm]
    m = row[group_slot(row, r, rules)]
    candidates = _pile_candidates(s)
    if a in candidates:
        return _pile_problem(s, a) or "You may not take the pile that way"
    if not a.ranks and candidates:
        # "Take the pile" asked without saying how, and the player holds what it takes (the natural
        # pair of a frozen pile, say): when no way passes, the reason is the whole turn's (the
        # initial meld, a card to keep).
        problems = [_pile_problem(s, c, way="") for c in candidates]
        if all(problems):
            return problems[0] or "You may not take the pile now"
    name = plural(r)
    if m is not None and m.size >= 7 and not rules.pile_onto_completed_canasta:
        text = f"These rules do not allow adding the upcard to your completed canasta of {name}"
        if rules.several_groups:
            text += f"; a natural pair of {name} from your hand would start a new meld beside it"
        return text
    if s.frozen:
        return f"The pile is frozen ({_why_frozen(s)}): you need a natural pair of {name} from your hand"
    if not s.t.opened_at_start:
        return (f"Until your side has made its initial meld, the pile is frozen for you: "
                f"you need a natural pair of {name} from your hand")
    if not a.ranks:
        # Say also what would take it: a player who presses Pile wants to know how, not only why not.
        text = f"Your side has no meld of {name} to add the upcard to"
        if rules.sequences:
            text += " (it never goes onto a sequence)"
        if rules.pile_new_meld_needs_natural_pair or rules.wilds_allowed(2) < 1:
            return f"{text}; a new meld of {name} takes a natural pair of them from your hand"
        return f"{text}; a new meld of {name} takes a natural pair of them, or one and a wild card, from your hand"
    if any(x != r and x not in _WILD_RANKS for x in a.ranks) or len(a.ranks) != 2:
        return f"Take the pile with cards that meld with the upcard, like: pile {RANK_NAMES[r]} {RANK_NAMES[r]}"
    if m is not None and any(x in _WILD_RANKS for x in a.ranks):
        return f"Your side already has a meld of {name}: take the pile onto it with: pile"
    if any(x in _WILD_RANKS for x in a.ranks) and rules.pile_new_meld_needs_natural_pair:
        return f"These rules need a natural pair of {name} to take the pile for a new meld"
    need = a.ranks.count(r)
    if counts[r] < need:
        return f"You need {'a natural pair' if need == 2 else 'a natural card'} of {name} in your hand"
    return "You may not take the pile that way"
