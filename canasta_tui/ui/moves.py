"""Moves made of the hand: pure functions from what the player holds and selected to the engine's
actions (or the reason there are none), and the order the player made of the hand.

They read a seat's view and the hand as shown, never the game; the commands (``commands``) and
the dialogs (``dialogs``) both use them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..engine import Action, PlayerView, team
from ..engine import actions as A
from ..engine.cards import IS_WILD, RANK_OF, RANK_WORDS, plural

#: The ranks of wild cards (deuces and jokers).
WILD_RANKS = (2, 14)
_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def compose_meld(cards: Sequence[int], row: Sequence[object | None], wild_melds: bool) -> list[Action] | str:
    """Turn a selection of hand cards into the engine's atomic actions (or say why not).

    A new meld is always three cards, so a bigger selection is ``meld`` then ``add``s;
    wild cards go onto the selected rank.
    """
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
        if wild_melds and (len(wilds) >= 3 or row[2] is not None):
            out: list[Action] = []
            rest = wilds
            if row[2] is None:
                out.append(A.meld(*wilds[:3]))
                rest = wilds[3:]
            out.extend(A.add(w, 2) for w in rest)
            return out
        return "Select the rank to put a wild card on: press w, then the meld's rank"
    if wilds and len(naturals) > 1:
        return "Select wild cards together with one rank only, so it is clear which meld they join"
    short = [r for r, n in naturals.items() if row[r] is None and n < 3 and not (n == 2 and wilds)]

    def some(r: int, n: int) -> str:
        return f"{_NUMBER_WORDS.get(n, str(n))} {plural(r) if n != 1 else RANK_WORDS[r]}"
    # The whole selection, in words (the bar shows how many cards are selected).
    chosen = [some(r, n) for r, n in sorted(naturals.items())] + [some(w, wilds.count(w)) for w in sorted(set(wilds))]
    said = ", ".join(chosen[:-1]) + " and " + chosen[-1] if len(chosen) > 1 else chosen[0]
    if short and len(naturals) > 1:
        # Name the whole selection, not just the first rank that falls short.
        lacking = " and ".join(plural(r) for r in sorted(short))
        return f"A new meld needs three cards: you selected {said} (not enough {lacking})"
    out = []
    for r, n in sorted(naturals.items()):
        if row[r] is not None:
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
            return f"A new meld needs at least two natural cards: you selected {said}"
        else:
            return (f"A new meld needs three cards: you selected {said}"
                    + ("" if n == 2 else "; select at least two natural cards and a wild card"))
    return out


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
    m = v.melds[team(v.turn, v.rules)][rank]
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


__all__ = ["WILD_RANKS", "arrange", "compose_meld", "wilds_until_canasta"]
