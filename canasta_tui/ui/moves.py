"""Moves made of the hand: pure functions from what the player holds and selected to the engine's
actions (or the reason there are none), and the order the player made of the hand.

They read a seat's view and the hand as shown, never the game; the commands (``commands``) and
the dialogs (``dialogs``) both use them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..engine import Action, PlayerView, Rules, team
from ..engine import actions as A
from ..engine.cards import (
    IS_WILD,
    RANK_OF,
    RANK_WORDS,
    SUIT_OF,
    THREE,
    a_or_an,
    card_text,
    plural,
    sequence_position,
    sequence_rank,
)
from ..engine.melds import SEQUENCE_MAX, Meld
from ..engine.moves import NO_WILD_IN_SEQUENCE, group_slot, may_start_group, sequence_closed_text

#: The ranks of wild cards (deuces and jokers).
WILD_RANKS = (2, 14)
_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def _run_text(cards: Sequence[int]) -> str:
    return " ".join(card_text(c, symbols=True) for c in cards)


def _extend_sequence(cards: Sequence[int], pos: Sequence[int], suit: int,
                     row: Sequence[Meld | None]) -> list[Action] | None:
    """The adds that put ``cards`` (one suit, positions ``pos`` ascending) at the ends of one of
    the side's sequences of that suit, so that it stays one run of at most seven; None if none."""
    for m in row[15:]:
        if m is None or m.suit != suit or m.is_closed:
            continue
        low, high = m.low, m.high
        if set(pos) & set(range(low, high + 1)) or len(pos) + high - low + 1 > SEQUENCE_MAX:
            continue
        below = [p for p in pos if p < low]
        above = [p for p in pos if p > high]
        if below != list(range(low - len(below), low)) or above != list(range(high + 1, high + 1 + len(above))):
            continue
        out: list[Action] = []
        for p in above:           # upwards from the top, then downwards from the bottom
            out.append(A.add_to_sequence(sequence_rank(p) * 4 + suit, low, high))
            high = p
        for p in reversed(below):
            out.append(A.add_to_sequence(sequence_rank(p) * 4 + suit, low, high))
            low = p
        return out
    return None


def _continues_closed(pos: Sequence[int], suit: int, row: Sequence[Meld | None]) -> bool:
    """Would the cards at positions ``pos`` (ascending, in order) continue one of the side's
    sequences of seven of ``suit`` at either end?"""
    if pos != list(range(pos[0], pos[0] + len(pos))):
        return False
    return any(m is not None and m.suit == suit and m.is_closed and (pos[-1] == m.low - 1 or pos[0] == m.high + 1)
               for m in row[15:])


def compose_sequence(cards: Sequence[int], row: Sequence[Meld | None], rules: Rules) -> list[Action] | str | None:
    """A selection meant as a sequence (Samba, Bolivia: "Three or more cards of the same suit in
    sequence (ace high, four low)", no wild card, "Cards may be added until there are seven"):
    natural cards of one suit, no two of a rank.  The cards that continue a sequence of the side at
    either end go onto it; three or more in order make a new sequence; else why not.  None: the
    selection is not a sequence (a meld of one rank, wild cards, or these rules have none)."""
    if not rules.sequences or not cards or any(RANK_OF[c] == THREE for c in cards):
        return None
    if any(IS_WILD[c] for c in cards):
        plain = [c for c in cards if not IS_WILD[c]]
        if len(plain) >= 2 and len({SUIT_OF[c] for c in plain}) == 1 and len({RANK_OF[c] for c in plain}) == len(plain):
            return NO_WILD_IN_SEQUENCE
        return None
    suits = {SUIT_OF[c] for c in cards}
    pos = sorted(sequence_position(RANK_OF[c]) for c in cards)
    if len(suits) != 1 or len(set(pos)) != len(pos):
        return None
    suit = suits.pop()
    run = [sequence_rank(p) * 4 + suit for p in pos]
    onto = _extend_sequence(cards, pos, suit, row)
    if onto is not None:
        return onto
    if len(cards) < 3 and _continues_closed(pos, suit, row):
        return sequence_closed_text(rules)    # the engine's words for an eighth card
    if len(cards) == 1:
        return None
    name = rules.sequence_canasta_name
    if pos != list(range(pos[0], pos[0] + len(pos))):
        missing = [sequence_rank(p) * 4 + suit for p in range(pos[0], pos[-1] + 1) if p not in pos]
        return (f"A sequence is three or more cards of one suit in order, 4 low and Ace high: "
                f"{_run_text(run)} lacks {_run_text(missing)}")
    if len(cards) < 3:
        return f"A new sequence needs three cards of one suit in order: you selected {_run_text(run)}"
    if len(cards) > SEQUENCE_MAX:
        return f"A sequence holds at most seven cards (seven make {a_or_an(name)})"
    out = [A.meld_sequence(*run[:3])]
    for i in range(3, len(run)):
        out.append(A.add_to_sequence(run[i], pos[0], pos[i - 1]))
    return out


def compose_meld(cards: Sequence[int], row: Sequence[Meld | None], wild_melds: bool,
                 rules: Rules | None = None, *, named: bool = False, selected: bool = True) -> list[Action] | str:
    """Turn a selection of hand cards into the engine's atomic actions (or say why not).

    A new meld is always three cards, so a bigger selection is ``meld`` then ``add``s;
    wild cards go onto the selected rank.  With ``rules`` of Samba or Bolivia: natural cards of
    one suit in order make or extend a sequence (:func:`compose_sequence`); cards of a rank whose
    melds are all canastas start a further meld of it (Samba: "A side may have two canastas in
    the same rank"), and wild cards start a further wild meld once the bolivia is complete.
    With ``named`` the melds of one rank name the natural cards of ``cards`` (``meld 9h 9h 9s``,
    ``add 9h``): the very cards the player selected leave the hand, not the first of their rank
    (in Samba and Bolivia the suit of a kept card matters to its sequences).  ``selected`` False:
    the cards are the cursor card's rank in the hand, and a refusal says "you hold", not "you selected".
    """
    seq = compose_sequence(cards, row, rules) if rules is not None else None
    if isinstance(seq, list):
        return seq
    plan = _compose_groups(cards, row, wild_melds, rules, "you selected" if selected else "you hold")
    if named and isinstance(plan, list):
        plan = _name_copies(plan, cards)
    # Not a sequence: the cards may still go onto the side's melds of their ranks.
    return seq if seq is not None and isinstance(plan, str) else plan


def _name_copies(plan: Sequence[Action], cards: Sequence[int]) -> list[Action]:
    """``plan`` (rank-only melds and adds of one rank) naming which of ``cards`` each uses."""
    left: dict[int, list[int]] = {}
    for c in cards:
        if not IS_WILD[c]:
            left.setdefault(RANK_OF[c], []).append(c)
    out: list[Action] = []
    for a in plan:
        if not a.may_name_copies or all(r in WILD_RANKS for r in a.ranks):
            out.append(a)
            continue
        natural = [left[r].pop(0) for r in a.ranks if r not in WILD_RANKS]
        wild = [r * 4 for r in a.ranks if r in WILD_RANKS]     # any copy of a wild card will do
        out.append(A.with_cards(a, natural + wild))
    return out


def _compose_wilds(wilds: Sequence[int], row: Sequence[Meld | None], wild_melds: bool,
                   rules: Rules | None) -> list[Action] | str:
    """Wild cards alone (``wilds``: their ranks, deuces first): a wild meld where the rules allow
    one (Bolivia: "wild cards may be melded alone"), onto the side's wild meld, or a new one of
    three once its bolivia is complete (several melds of a rank: Samba, Bolivia)."""
    closed = False
    if rules is not None and rules.several_groups and row[2] is not None:
        m2 = row[group_slot(row, 2, rules)]
        closed = m2 is not None and m2.size >= 7
    if wild_melds and (len(wilds) >= 3 or row[2] is not None):
        out: list[Action] = []
        rest = wilds
        if row[2] is None or (closed and len(wilds) >= 3):
            out.append(A.meld(*wilds[:3]))
            rest = wilds[3:]
        out.extend(A.add(w, 2) for w in rest)
        return out
    return "Select the rank to put a wild card on: press w, then the meld's rank"


def _compose_groups(cards: Sequence[int], row: Sequence[Meld | None], wild_melds: bool,
                    rules: Rules | None, you: str = "you selected") -> list[Action] | str:
    """:func:`compose_meld` for melds of one rank and of wild cards."""
    several = rules is not None and rules.several_groups
    naturals: dict[int, int] = {}
    wilds: list[int] = []
    for c in cards:
        r = RANK_OF[c]
        if r in WILD_RANKS:
            wilds.append(r)
        else:
            naturals[r] = naturals.get(r, 0) + 1
    wilds.sort(key=lambda r: (r == 14, r))  # deuces before jokers
    if not naturals:
        return _compose_wilds(wilds, row, wild_melds, rules)
    if wilds and len(naturals) > 1:
        return "Select wild cards together with one rank only, so it is clear which meld they join"
    # A rank's cards start a meld when the side has none, or (Samba) when its melds are canastas.
    fresh = {r for r, n in naturals.items() if row[r] is None or (
        several and rules is not None and may_start_group(row, r, rules) and (n >= 3 or (n == 2 and bool(wilds))))}
    short = [r for r, n in naturals.items() if r in fresh and n < 3 and not (n == 2 and wilds)]

    def some(r: int, n: int) -> str:
        return f"{_NUMBER_WORDS.get(n, str(n))} {plural(r) if n != 1 else RANK_WORDS[r]}"
    # The whole selection, in words (the bar shows how many cards are selected).
    chosen = [some(r, n) for r, n in sorted(naturals.items())] + [some(w, wilds.count(w)) for w in sorted(set(wilds))]
    said = ", ".join(chosen[:-1]) + " and " + chosen[-1] if len(chosen) > 1 else chosen[0]
    if short and len(naturals) > 1:
        # Name the whole selection, not just the first rank that falls short.
        lacking = " and ".join(plural(r) for r in sorted(short))
        return f"A new meld needs three cards: {you} {said} (not enough {lacking})"
    out: list[Action] = []
    for r, n in sorted(naturals.items()):
        if r not in fresh:
            out.extend(A.add(r) for _ in range(n))
            out.extend(A.add(w, r) for w in wilds)
            continue
        if n >= 3:
            out.append(A.meld(r, r, r))
            out.extend(A.add(r) for _ in range(n - 3))
            out.extend(A.add(w, r) for w in wilds)
        elif n == 2 and wilds:
            out.append(A.meld(r, r, wilds[0]))
            out.extend(A.add(w, r) for w in wilds[1:])
        elif wilds:
            return f"A new meld needs at least two natural cards: {you} {said}"
        elif r == THREE:
            # Not "add a wild card": black threes meld only in going out, three or four of them.
            return f"A new meld needs three cards: {you} {said}; black threes meld only when going out"
        else:
            return (f"A new meld needs three cards: {you} {said}"
                    + ("" if n == 2 else "; select at least two natural cards and a wild card"))
    return out


def with_wild_for_pair(cards: Sequence[int], hand: Sequence[int], legal: Sequence[Action]) -> list[int]:
    """``cards`` with a wild card from the hand when they are two natural cards of a rank that would
    start a new meld (Windows 2008: "Melding a column of two cards will automatically cause a wildcard
    to be added (if available)"); a deuce before a joker, which costs more if it stays in the hand.
    Only when the engine offers that meld of three (``legal``): else ``cards`` as they are, and the
    meld is refused with its reason as without the setting."""
    if len(cards) != 2 or any(IS_WILD[c] for c in cards) or RANK_OF[cards[0]] != RANK_OF[cards[1]]:
        return list(cards)
    r = RANK_OF[cards[0]]
    for w in WILD_RANKS:         # deuces first
        wild = next((c for c in hand if RANK_OF[c] == w and c not in cards), None)
        if wild is not None and A.meld(r, r, w) in legal:
            return [*cards, wild]
    return list(cards)


def arrange(hand: Sequence[int], order: Sequence[int]) -> list[int]:
    """``hand`` (sorted) in the order the player made (``order``, the cards as last arranged).

    The cards still held keep their places; a card that came since (drawn, taken from the pile,
    or back from an undone meld) goes right after its neighbour in the sort: the kept card the sort
    puts nearest at or before it (at the front if none), so a drawn 8 joins the 7s wherever the
    player put them.
    """
    left = Counter(hand)
    out: list[int] = []
    for c in order:
        if left[c] > 0:
            left[c] -= 1
            out.append(c)
    place = {c: i for i, c in reversed(list(enumerate(hand)))}
    for c in hand:
        if left[c] > 0:
            left[c] -= 1
            near = max(((place[k], j) for j, k in enumerate(out) if place[k] <= place[c]), default=None)
            out.insert(0 if near is None else near[1] + 1, c)
    return out


def wilds_until_canasta(v: PlayerView, hand: Sequence[int], rank: int) -> list[Action] | str:
    """The wild cards to add to the side's meld of ``rank`` so that it is a canasta (Windows 2.41's
    shift-click), or why that cannot be done.  Deuces go before jokers: a joker left in the hand
    is what costs most at the end."""
    row = v.melds[team(v.turn, v.rules)]
    # Samba, Bolivia: wild cards go onto the side's meld of the rank short of a canasta.
    m = row[group_slot(row, rank, v.rules)] if row[rank] is not None else None
    name = plural(rank) if rank != 2 else "wild cards"
    if m is None:
        return f"Your side has no meld of {name}"
    need = 7 - m.size
    if need <= 0:
        return f"Your meld of {name} is a canasta already"
    wilds = sorted((c for c in hand if IS_WILD[c]), key=lambda c: RANK_OF[c] == 14)
    room = len(wilds) if rank == 2 else v.rules.wilds_allowed(len(m.naturals)) - len(m.wilds)
    if min(room, len(wilds)) < need:
        why = (f"you hold {len(wilds)} wild card{'s' if len(wilds) != 1 else ''}" if len(wilds) < need
               else f"the meld may take only {max(0, room)} more")
        return f"Your meld of {name} needs {need} more cards to be a canasta; {why}"
    return [A.add(RANK_OF[w], rank) for w in wilds[:need]]


__all__ = ["WILD_RANKS", "arrange", "compose_meld", "compose_sequence", "wilds_until_canasta", "with_wild_for_pair"]
