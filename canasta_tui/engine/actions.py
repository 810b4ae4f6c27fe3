"""Actions: small immutable values with a short text notation that round-trips.

Notation (a game log is a list of these, one per line)::

    draw              draw from the stock (the rules say how many cards)
    pile              take the pile by adding the upcard to our meld of its rank
    pile K K          take the pile: the upcard with this natural pair (or K 2, K JK) from the hand
    meld K K K        a new meld of three cards from the hand (K K 2, K K JK, 3 3 3, 2 2 JK)
    add K             one natural card onto our meld of that rank
    add 2 to K        a wild card (2 or JK) onto our meld of Kings
    discard 7h        discard this card, ending the turn (JK for a joker)
    ask               "May I go out, partner?"
    yes / no          the partner's answer
    undo              take back the last meld of this turn
    unpile            put the pile back (when the rules allow, with a penalty)
    end               end the hand (the stock is exhausted and no play is wanted)

Ranks are written A 2 3 4 5 6 7 8 9 10 J Q K JK (T for 10 is read too).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import NamedTuple

from .cards import RANK_NAMES, card_text, parse_card, parse_rank
from .errors import InvalidActionError


class ActionKind(StrEnum):
    """What an action does, as the notation's first word (a ``str``: ``"draw"``, so logs, saves
    and the notation read the same as when kinds were plain text)."""

    DRAW = "draw"
    PILE = "pile"
    MELD = "meld"
    ADD = "add"
    DISCARD = "discard"
    ASK = "ask"
    YES = "yes"
    NO = "no"
    UNDO = "undo"
    UNPILE = "unpile"
    END = "end"


DRAW = ActionKind.DRAW
PILE = ActionKind.PILE
MELD = ActionKind.MELD
ADD = ActionKind.ADD
DISCARD = ActionKind.DISCARD
ASK = ActionKind.ASK
YES = ActionKind.YES
NO = ActionKind.NO
UNDO = ActionKind.UNDO
UNPILE = ActionKind.UNPILE
END = ActionKind.END
KINDS = tuple(ActionKind)


class Action(NamedTuple):
    """``kind`` plus what it needs: ``ranks`` (melds, pile), ``card`` (discard), ``target`` (add)."""

    kind: ActionKind
    ranks: tuple[int, ...] = ()
    card: int = -1
    target: int = 0

    def __str__(self) -> str:
        k = self.kind
        if k in (PILE, MELD) and self.ranks:
            return k + " " + " ".join(RANK_NAMES[r] for r in self.ranks)
        if k == ADD:
            card_rank = RANK_NAMES[self.ranks[0]]
            if self.target == self.ranks[0]:
                return f"add {card_rank}"
            return f"add {card_rank} to {RANK_NAMES[self.target]}"
        if k == DISCARD:
            return "discard " + card_text(self.card)
        return k.value


# Interned simple actions (hot paths compare and hash these constantly).
A_DRAW = Action(DRAW)
A_PILE = Action(PILE)
A_ASK = Action(ASK)
A_YES = Action(YES)
A_NO = Action(NO)
A_UNDO = Action(UNDO)
A_UNPILE = Action(UNPILE)
A_END = Action(END)
_SIMPLE: dict[str, Action] = {a.kind.value: a for a in (A_DRAW, A_PILE, A_ASK, A_YES, A_NO, A_UNDO, A_UNPILE, A_END)}

def _every_action() -> dict[tuple[ActionKind, tuple[int, ...], int, int], Action]:
    """Every action the engine can offer, built once at import: melds of three ranks, pile
    takes, adds and discards (about three thousand).  Hot paths compare and hash these
    constantly, so each exists once; the table is read-only, so threads share it safely."""
    ranks = range(1, 15)
    out = [*_SIMPLE.values()]
    out += [Action(MELD, (a, b, c)) for a in ranks for b in ranks for c in ranks]
    out += [Action(PILE, (a, b)) for a in ranks for b in ranks]
    out += [Action(ADD, (r,), target=t) for r in ranks for t in ranks]
    out += [Action(DISCARD, card=c) for c in range(4, 57)]  # card codes: rank * 4 + suit, joker 56
    return {(a.kind, a.ranks, a.card, a.target): a for a in out}


_ACTIONS: Mapping[tuple[ActionKind, tuple[int, ...], int, int], Action] = MappingProxyType(_every_action())


def action(kind: ActionKind, ranks: tuple[int, ...] = (), card: int = -1, target: int = 0) -> Action:
    """The action with these fields: the shared one from the table, or a new value for the
    rest (a meld of two or five cards written by hand; it compares equal all the same)."""
    a = _ACTIONS.get((kind, ranks, card, target))
    return a if a is not None else Action(kind, ranks, card, target)


def meld(*ranks: int) -> Action:
    return action(MELD, tuple(ranks))


def pile_with(*ranks: int) -> Action:
    return action(PILE, tuple(ranks))


def add(rank: int, target: int | None = None) -> Action:
    return action(ADD, (rank,), target=rank if target is None else target)


def discard(card: int) -> Action:
    return action(DISCARD, card=int(card))


def parse_action(text: str) -> Action:
    """Read the notation above.  Raises InvalidActionError saying what could not be read."""
    words = text.split()
    if not words:
        raise InvalidActionError("empty action")
    kind = words[0].lower()
    args = words[1:]
    try:
        if kind in _SIMPLE and not args:
            return _SIMPLE[kind]
        if kind == PILE:
            return pile_with(*(parse_rank(w) for w in args))
        if kind == MELD and args:
            return meld(*(parse_rank(w) for w in args))
        if kind == ADD and len(args) == 1:
            return add(parse_rank(args[0]))
        if kind == ADD and len(args) == 3 and args[1].lower() == "to":
            return add(parse_rank(args[0]), parse_rank(args[2]))
        if kind == DISCARD and len(args) == 1:
            return discard(parse_card(args[0]))
    except ValueError as exc:
        raise InvalidActionError(f"cannot read {text!r}: {exc}") from None
    raise InvalidActionError(
        f"cannot read {text!r}: expected draw, pile [K K], meld K K K, add K [to K], "
        "discard Kh, ask, yes, no, undo, unpile or end"
    )
