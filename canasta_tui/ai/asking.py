"""Before "May I go out, partner?": could this turn go out at all, and would it go out concealed?

The Query command is lit whenever the engine allows asking (a cheap bound: the side has its
canasta, or the hand might complete it).  A question that can only cost deserves a warning
first (DOS "Asking Permission": "The player is bound by the reply ... Should the player not
abide by the answer, a 100 point penalty is assessed.  A player may go out without asking
permission."): a hand that cannot go out this turn risks 100 on a "yes" and gains nothing; a
hand that can go out concealed needs no question, and a "no" from a partner who cannot see it
would stop it.

Which it is comes from the player's own view and the engine's legal actions only: the view is
made a position (:func:`~canasta_tui.engine.determinize`; this turn's melds depend only on the
player's own hand and their side's melds, never on a hidden card), the partner is supposed to
say yes, and the melds the engine allows are followed until the hand is gone or one card is
left that may be discarded.
"""

from __future__ import annotations

import enum
import random

from ..engine import GameState, Meld, Phase, PlayerView, Rules, apply, apply_legal, determinize, legal_actions, team
from ..engine import actions as A
from ..engine.cards import DEUCE, IS_BLACK_THREE, IS_WILD, JOKER, RANK_OF, SUIT_OF, THREE, sequence_position

#: Positions the search may visit before it gives up (then it knows nothing: no warning).  Nearly
#: every hand met in play takes under a hundred; a long hand of Samba beside many melds can take
#: thousands (a second or two, off the screen's thread).
LIMIT = 20000


class Outlook(enum.Enum):
    """What asking would lead to this turn."""

    CANNOT = "cannot"          # no way to go out this turn: asking can only cost
    CONCEALED = "concealed"    # the hand can go out concealed: it needs no question
    MAY = "may"                # it can go out (not concealed): asking is the player's choice
    UNKNOWN = "unknown"        # the search gave up (a very long hand): say nothing


def going_out(v: PlayerView, limit: int = LIMIT, prune: bool = True) -> Outlook:
    """Could the player of ``v`` (whose turn it is, asking allowed) go out this turn after a
    "yes", and would it be concealed?  (``prune`` False: every position is followed, without the
    shortcuts of :func:`stuck` and :func:`canastas_within_reach`; the tests check them so.)"""
    if A.A_ASK not in v.legal:
        return Outlook.UNKNOWN
    s = determinize(v, random.Random(0))
    s = apply(apply(s, A.A_ASK), A.A_YES)      # as if the partner said yes (a "no" forbids it)
    seat = s.turn
    tm = team(seat, s.rules)
    seen: set[tuple[object, ...]] = set()
    nodes = 0
    found = False
    # Every way out of a player who has not melded in this hand is concealed, unless the rules
    # leave out going out on the partner's melds: then the search goes on for one that is.
    may_conceal = not s.t.melded_before
    # "The player's side must have melded at least one Canasta" (Samba: two; Bolivia: one of them
    # a sequence), unless these rules let a concealed hand go out without one.
    rules = s.rules
    needs_canastas = rules.concealed_needs_canasta or s.t.opened_at_start or s.t.melded_before
    need = rules.canastas_to_go_out

    def out(after: GameState) -> bool | None:
        """None: not gone out; else whether it was concealed."""
        if after.phase == Phase.HAND_OVER and after.went_out == seat:
            return after.concealed
        return None

    def search(p: GameState) -> Outlook | None:
        nonlocal nodes, found
        nodes += 1
        if nodes > limit:
            return Outlook.UNKNOWN
        legal = legal_actions(p)
        hand = p.hands[seat]
        if len(hand) == 1:
            last = next((a for a in legal if a.kind == A.DISCARD and a.card == hand[0]), None)
            if last is not None:
                concealed = out(apply_legal(p, last))
                if concealed is not None:
                    if concealed or not may_conceal:
                        return Outlook.CONCEALED if concealed else Outlook.MAY
                    found = True
        if prune and stuck(hand, p.melds[tm], rules) > 1:
            return None                         # two cards no meld can take: one could be discarded
        if prune and needs_canastas and canastas_within_reach(hand, p.melds[tm], rules) < need:
            return None
        key = (_canon(hand), tuple(_meld_key(m) for m in p.melds[tm]), p.t.added_existing, p.t.black_threes)
        if key in seen:
            return None
        seen.add(key)
        for a in legal:
            if a.kind not in (A.MELD, A.ADD, A.JOIN):
                continue
            after = apply_legal(p, a)
            concealed = out(after)
            if concealed is not None:
                if concealed or not may_conceal:
                    return Outlook.CONCEALED if concealed else Outlook.MAY
                found = True
                continue
            got = search(after)
            if got is not None:
                return got
        return None

    got = search(s)
    if got is not None:
        return got
    return Outlook.MAY if found else Outlook.CANNOT


def stuck(hand: tuple[int, ...], row: tuple[Meld | None, ...], rules: Rules) -> int:
    """How many cards of ``hand`` no meld can take this turn (:func:`stuck_cards`)."""
    return len(stuck_cards(hand, row, rules))


def stuck_cards(hand: tuple[int, ...], row: tuple[Meld | None, ...], rules: Rules) -> list[int]:
    """The cards of ``hand`` no meld can take this turn, whatever is melded first: a natural
    card of a rank the side has no meld of and the hand holds no other natural card of (DOS: "A
    meld is valid if it contains at least two natural cards of the same rank"), that (Samba,
    Bolivia) no run of three of its suit could hold either; a black three short of the three
    ("or two and a wild card") a meld of them needs.  A card is counted only when that is certain
    (wild cards never are), so the search may stop where two are: it prunes, the engine's legal
    actions still decide every way it follows.  (tests/ui/test_asking.py checks it against the
    search without it.)"""
    count = [0] * 15
    for c in hand:
        if not IS_WILD[c]:
            count[RANK_OF[c]] += 1
    have = {m.rank for m in row if m is not None and m.suit < 0}
    runs: list[set[int]] = [set(), set(), set(), set()]
    if rules.sequences:
        for c in hand:
            if not IS_WILD[c] and RANK_OF[c] != THREE:
                runs[SUIT_OF[c]].add(sequence_position(RANK_OF[c]))
        for m in row:
            if m is not None and m.suit >= 0:
                runs[m.suit].update(range(m.low, m.high + 1))
    wild = any(IS_WILD[c] for c in hand)
    out: list[int] = []
    for c in hand:
        if IS_WILD[c]:
            continue
        r = RANK_OF[c]
        if IS_BLACK_THREE[c]:
            threes = count[THREE]
            if threes < 3 and not (rules.black_three_meld_with_wild and threes >= 2 and wild) and THREE not in have:
                out.append(c)
            continue
        if r == THREE or count[r] >= 2 or r in have:       # (a red three is never the search's)
            continue
        if rules.sequences:
            at, mine = sequence_position(r), runs[SUIT_OF[c]]
            if any(all(q in mine for q in range(low, low + 3)) for low in range(at - 2, at + 1)):
                continue
        out.append(c)
    return out


def canastas_within_reach(hand: tuple[int, ...], row: tuple[Meld | None, ...], rules: Rules) -> int:
    """At most how many canastas the side could have after this turn: no fewer than the turn can
    make, counted generously (every wild card of the hand offered to each meld at once, up to
    the wild limit), so that the search may stop below what going out needs.  Bolivia, which needs one
    of them a sequence: 0 when no suit holds seven cards between the hand and the side's
    sequences."""
    count = [0] * 15
    wilds = 0
    suits = [0, 0, 0, 0]
    for c in hand:
        if IS_WILD[c]:
            wilds += 1
        else:
            count[RANK_OF[c]] += 1
            if RANK_OF[c] != THREE:
                suits[SUIT_OF[c]] += 1
    total = 0
    melded = set()
    for m in row:
        if m is None:
            continue
        if m.suit >= 0:
            suits[m.suit] += len(m.naturals)
            continue
        melded.add(m.rank)
        if m.rank == DEUCE:
            total += (m.size + wilds) // 7 or m.is_canasta
        elif m.is_canasta or m.size + count[m.rank] + _room(rules, len(m.naturals) + count[m.rank], len(m.wilds), wilds) >= 7:
            total += 1
    for r in range(15):
        if r != DEUCE and count[r] >= 2 and (r not in melded or rules.several_groups):
            total += (count[r] + _room(rules, count[r], 0, wilds)) // 7
    if rules.wild_melds_allowed and DEUCE not in melded:
        total += wilds // 7
    sequences = sum(n // 7 for n in suits) if rules.sequences else 0
    if rules.going_out_needs_sequence and not sequences:
        return 0
    return total + sequences


def _room(rules: Rules, naturals: int, held: int, wilds: int) -> int:
    """How many of ``wilds`` a meld of ``naturals`` natural cards holding ``held`` wild cards could
    still take (the wild limit: "not more than three wild cards")."""
    return max(0, min(wilds, rules.wilds_allowed(naturals) - held))


def _canon(cards: tuple[int, ...]) -> tuple[int, ...]:
    """Cards as play tells them apart: a deuce is a deuce whatever its suit (two hands that differ
    only in which deuce went where are one position to the search)."""
    return tuple(sorted(-RANK_OF[c] if IS_WILD[c] else c for c in cards))


def _meld_key(m: Meld | None) -> tuple[object, ...] | None:
    """A meld as the rest of the turn tells it apart: a sequence by its run, a meld of a rank by
    how many natural cards, deuces and jokers it holds (which suits they are changes nothing)."""
    if m is None:
        return None
    if m.suit >= 0:
        return (m.rank, m.suit, m.naturals)
    deuces = sum(1 for w in m.wilds if RANK_OF[w] != JOKER)
    return (m.rank, len(m.naturals), deuces, len(m.wilds) - deuces)


__all__ = ["LIMIT", "Outlook", "canastas_within_reach", "going_out", "stuck", "stuck_cards"]
