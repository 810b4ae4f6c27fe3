"""The keys a person presses at the table for one of the engine's actions (issue 19's drivers).

A driver that plays a seat as a person does asks a computer player for the seat's action (it
sees only the seat's view) and types it with :func:`keys_for`: the hand as the screen shows
it (its order), Home and Right to a card, Space to select it, then the command's key.  The
names are prompt-toolkit's (``home``, ``right``, ``space``, ``enter``); :func:`tmux_keys`
spells them for ``tmux send-keys``.

The table's own commands turn the keys back into actions (``ui.commands``); which copy of a
card goes to a meld of one rank is the engine's choice (the action names ranks only), so the
keys select the first copies in the hand's order, as the engine takes them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from canasta_tui.engine import Action, PlayerView
from canasta_tui.engine import actions as A
from canasta_tui.engine.cards import IS_WILD, RANK_OF, SUIT_OF, parse_card, sequence_position, sequence_rank
from canasta_tui.ui.dialogs import RANK_KEYS
from canasta_tui.ui.texts import sort_hand

#: The key of each meld rank in the "which meld?" question (A 4-9 0 J Q K, W the wild meld).
RANK_KEY = {v: k for k, v in reversed(list(RANK_KEYS.items()))}
RANK_KEY[10] = "0"
RANK_KEY[2] = "w"


def _go(i: int) -> list[str]:
    return ["home", *["right"] * i]


def _select(hand: Sequence[int], cards: Sequence[int]) -> list[str] | None:
    """Clear the selection, then select ``cards`` (a card named twice: two copies), the first
    copies in the hand's order; None if the hand lacks one."""
    keys = ["n"]
    taken: set[int] = set()
    for c in cards:
        i = next((i for i, x in enumerate(hand) if x == c and i not in taken), None)
        if i is None:
            return None
        taken.add(i)
        keys += [*_go(i), "space"]
    return keys


def _of_ranks(hand: Sequence[int], ranks: Sequence[int]) -> list[int] | None:
    """The first copies in the hand's order of cards of ``ranks`` (a rank named twice: two)."""
    out: list[int] = []
    used: set[int] = set()
    for r in ranks:
        i = next((i for i, x in enumerate(hand) if RANK_OF[x] == r and i not in used), None)
        if i is None:
            return None
        used.add(i)
        out.append(hand[i])
    return out


def keys_for(a: Action, hand: Sequence[int], v: PlayerView) -> list[str] | None:
    """The keys that play ``a`` with ``hand`` shown in this order; None when no key does (the
    driver then lets the table go on, e.g. an action the keys compose differently)."""
    k = a.kind
    if k == A.DRAW:
        return ["d"]
    if k == A.DISCARD:
        i = hand.index(a.card) if a.card in hand else -1
        return None if i < 0 else ["n", *_go(i), "c"]
    if k == A.PILE:
        options = [x for x in v.legal if x.kind == A.PILE]
        if a.ranks:
            cards = _of_ranks(hand, a.ranks)
            sel = _select(hand, cards) if cards is not None else None
            return None if sel is None else [*sel, "p"]
        return ["n", "p"] if len(options) == 1 else ["n", "p", str(options.index(a) + 1)]
    if k in (A.ASK,):
        return ["y"]
    if k in (A.YES, A.NO):
        return ["y" if k == A.YES else "n"]
    if k == A.UNDO:
        return ["u"]
    if k == A.END:
        return ["e"]
    if k == A.JOIN:
        i = next((i for i, x in enumerate(hand) if RANK_OF[x] == a.ranks[0]), 0)
        return ["n", *_go(i), "J"]
    if k == A.MELD and a.is_sequence:
        suit = SUIT_OF[a.card]
        cards = [sequence_rank(sequence_position(r)) * 4 + suit for r in a.ranks]
        sel = _select(hand, cards)
        return None if sel is None else [*sel, "m"]
    if k == A.ADD and a.is_sequence:
        sel = _select(hand, [a.card])
        return None if sel is None else [*sel, "m"]
    if k == A.MELD:
        cards = _of_ranks(hand, a.ranks)
        sel = _select(hand, cards) if cards is not None else None
        return None if sel is None else [*sel, "m"]
    if k == A.ADD:
        cards = _of_ranks(hand, a.ranks[:1])
        if cards is None:
            return None
        i = hand.index(cards[0])
        if IS_WILD[cards[0]]:
            return ["n", *_go(i), "w", RANK_KEY[a.target]]
        return ["n", *_go(i), "1"]
    return None


_TMUX = {"home": "Home", "right": "Right", "space": "Space", "enter": "Enter", "escape": "Escape"}


def tmux_keys(keys: Sequence[str]) -> list[str]:
    """``keys`` as ``tmux send-keys`` names them."""
    return [_TMUX.get(x, x) for x in keys]


# --------------------------------------------------------------------------- reading the screen

CARD = re.compile(r"(?:10|[2-9AJQK])[♣♦♥♠]|JK")


def hand_on_screen(text: str) -> list[int] | None:
    """The hand in the order the screen shows it (None: no hand on the screen)."""
    lines = text.splitlines()
    top = next((i for i, line in enumerate(lines) if "Your hand (" in line), None)
    if top is None:
        return None
    m = re.search(r"Your hand \((\d+) cards?\)", lines[top])
    cards: list[int] = []
    for line in lines[top + 1:]:
        if "▲" in line or (line.strip() and not CARD.search(line) and set(line.strip()) <= {"+", " "}):
            continue
        found = CARD.findall(line)
        if not found:
            if cards:
                break
            continue
        cards += [int(parse_card(w)) for w in found]
    if m is None:
        return None
    return cards


def hand_order(shown: list[int], hand: tuple[int, ...]) -> list[int] | None:
    """The whole hand in the screen's order: what it shows, or, when the hand is wider than the
    screen (it scrolls, marked by a ‹ or ›), the rank order the options choose if what it shows
    is a run of that order; None if the screen and the hand disagree."""
    if len(shown) == len(hand):
        return shown if sorted(shown) == sorted(hand) else None
    order = sort_hand(hand, "rank")
    n = len(shown)
    if any(order[i:i + n] == shown for i in range(len(order) - n + 1)):
        return order
    return None
