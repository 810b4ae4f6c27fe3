"""Actions: small immutable values with a short text notation that round-trips.

Notation (a game log is a list of these, one per line)::

    draw              draw from the stock (the rules say how many cards)
    pile              take the pile by adding the upcard to our meld of its rank
    pile K K          take the pile: the upcard with this natural pair (or K 2, K JK) from the hand
    meld K K K        a new meld of three cards from the hand (K K 2, K K JK, 3 3 3, 2 2 JK)
    meld 7h 8h 9h     a new sequence meld (Samba, Bolivia): three cards of one suit in order
    add K             one natural card onto our meld of that rank
    meld 9h 9h 9s     a meld of one rank naming the copies to use (``pile 9h 9s``, ``add 9h``,
                      ``meld 9h 9s 2`` too): in Samba and Bolivia a suit matters for sequences,
                      so the cards the player chose leave the hand, not the first of the rank
    add 2 to K        a wild card (2 or JK) onto our meld of Kings
    add 10h to 7h-9h  a card onto our sequence 7h 8h 9h (at either end); a wild card written
                      in a sequence (``add JK to 7h-9h``, ``meld 7h 8h 2``) is read, so that
                      the engine refuses it with the rule, not the reader with its grammar
    join K            our second meld of Kings joins the first (Samba: "may combine its melds
                      in the same rank at any time")
    discard 7h        discard this card, ending the turn (JK for a joker)
    ask               "May I go out, partner?"
    yes / no          the partner's answer
    undo              take back the last meld of this turn
    unpile            put the pile back (when the rules allow, with a penalty)
    end               end the hand (the stock is exhausted and no play is wanted)

Ranks are written A 2 3 4 5 6 7 8 9 10 J Q K JK (T for 10 is read too).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from types import MappingProxyType
from typing import NamedTuple

from .cards import (
    JOKER,
    JOKER_CARD,
    RANK_NAMES,
    RANK_OF,
    SUIT_LETTERS,
    SUIT_OF,
    card_text,
    parse_card,
    parse_rank,
    sequence_position,
    sequence_rank,
)
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
    JOIN = "join"


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
JOIN = ActionKind.JOIN
KINDS = tuple(ActionKind)
_WILD = (2, JOKER)


#: ``target`` of an ``add`` onto a sequence: SEQUENCE_TARGET + the sequence's suit * 256 +
#: lowest position * 16 + highest position (positions 4 ... 14, the Ace 14).  The suit is the
#: sequence's own, not read from the added card: a joker has none, and a card of another suit
#: is refused as such rather than sent looking for a sequence of its own suit.
SEQUENCE_TARGET = 1000


def sequence_target(low: int, high: int, suit: int = 0) -> int:
    return SEQUENCE_TARGET + suit * 256 + low * 16 + high


def target_span(target: int) -> tuple[int, int]:
    """(lowest, highest) position of the sequence an ``add`` goes onto."""
    return divmod((target - SEQUENCE_TARGET) % 256, 16)


def target_suit(target: int) -> int:
    """The suit of the sequence an ``add`` goes onto."""
    return (target - SEQUENCE_TARGET) // 256


def _seq_card(position: int, suit: int) -> int:
    return sequence_rank(position) * 4 + suit


class Action(NamedTuple):
    """``kind`` plus what it needs: ``ranks`` (melds, pile), ``card`` (discard), ``target`` (add).

    A sequence meld has ``card`` set to its lowest card (a meld of one rank: -1); an ``add``
    onto a sequence has ``card`` set to the card and ``target`` from :func:`sequence_target`.

    ``cards`` refines a meld of one rank, a natural card added to one, or a pile take: it names
    the natural cards to use, one per natural rank of ``ranks`` in order (wild cards: any copy).
    Empty (the legal actions, the computers): the first copies in the hand.  The legal actions
    are rank-only; one with ``cards`` is legal when :meth:`general` is and the hand holds them."""

    kind: ActionKind
    ranks: tuple[int, ...] = ()
    card: int = -1
    target: int = 0
    cards: tuple[int, ...] = ()

    def general(self) -> Action:
        """The rank-only action (the one ``legal_actions`` lists): ``self`` without ``cards``."""
        return action(self.kind, self.ranks, self.card, self.target) if self.cards else self

    @property
    def may_name_copies(self) -> bool:
        """A meld of one rank, an ``add`` of a card onto the meld of its rank, or a pile take:
        the copies it takes from the hand may be named (:func:`with_cards`)."""
        return self.kind in (MELD, ADD, PILE) and self.card < 0 and (self.kind != ADD or self.target == self.ranks[0])

    @property
    def is_sequence(self) -> bool:
        """A sequence meld, or a card added to a sequence."""
        return self.card >= 0 and self.kind in (MELD, ADD)

    def __str__(self) -> str:
        k = self.kind
        if self.cards:
            named = iter(self.cards)
            words = [RANK_NAMES[r] if r in _WILD else card_text(next(named)) for r in self.ranks]
            return k + " " + " ".join(words)
        if k == MELD and self.card >= 0:
            suit = SUIT_OF[self.card]
            return "meld " + " ".join("JK" if r == JOKER else card_text(r * 4 + suit) for r in self.ranks)
        if k == ADD and self.card >= 0:
            low, high = target_span(self.target)
            suit = target_suit(self.target)
            return f"add {card_text(self.card)} to {card_text(_seq_card(low, suit))}-{card_text(_seq_card(high, suit))}"
        if k in (PILE, MELD, JOIN) and self.ranks:
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


def meld_sequence(*cards: int) -> Action:
    """A new sequence meld of these cards (one suit, in order, lowest first)."""
    return Action(MELD, tuple(RANK_OF[c] for c in cards), int(cards[0]))


def add_to_sequence(card: int, low: int, high: int, suit: int | None = None) -> Action:
    """``card`` onto the side's sequence of ``suit`` (default: the card's) running from position
    ``low`` to ``high``."""
    return Action(ADD, (RANK_OF[card],), int(card), sequence_target(low, high, SUIT_OF[card] if suit is None else suit))


def with_cards(a: Action, cards: Sequence[int]) -> Action:
    """``a`` (a meld of one rank, an ``add`` of a natural card to one, a pile take) naming the
    copies to use: ``cards`` are the cards meant for it, wild cards among them in any order
    (any copy of a wild card will do, so they are not named).  Raises ValueError when the
    cards are not those ``a`` melds."""
    if not a.may_name_copies:
        raise ValueError(f"'{a}' takes no named cards")
    natural = [int(c) for c in cards if RANK_OF[c] not in _WILD]
    want = [r for r in a.ranks if r not in _WILD]
    if sorted(RANK_OF[c] for c in natural) != sorted(want) or len(cards) - len(natural) != len(a.ranks) - len(want):
        raise ValueError(f"{' '.join(card_text(c) for c in cards)} are not the cards of '{a}'")
    if not natural:
        return a
    byrank: dict[int, list[int]] = {}
    for c in natural:
        byrank.setdefault(RANK_OF[c], []).append(c)
    named = tuple(byrank[r].pop(0) for r in want)
    return Action(a.kind, a.ranks, a.card, a.target, named)


def join(rank: int) -> Action:
    return action(JOIN, (rank,))


def _parse_sequence(args: list[str]) -> Action:
    """``meld 7h 8h 9h``: the cards of a new sequence, in any order.  A wild card among them is
    read all the same (``meld 7h 8h JK``, ``meld 7h 8h 2``), so that the engine refuses it with
    the rule ("no wild card may stand in a sequence") rather than the reader with its grammar."""
    naturals: list[int] = []
    wilds: list[int] = []
    for w in args:
        if _has_suit(w) or w.upper() in ("JK", "JOKER"):
            c = int(parse_card(w))
            if RANK_OF[c] in _WILD:
                wilds.append(RANK_OF[c])
            else:
                naturals.append(c)
        elif (r := parse_rank(w)) in _WILD:
            wilds.append(r)
        else:
            raise ValueError("name every natural card of a sequence with its suit (like 7h 8h 9h)")
    if len({SUIT_OF[c] for c in naturals}) != 1:
        raise ValueError("a sequence is of cards of one suit (like 7h 8h 9h)")
    naturals.sort(key=lambda c: sequence_position(RANK_OF[c]))
    return Action(MELD, (*(RANK_OF[c] for c in naturals), *wilds), naturals[0])


def _parse_span(text: str) -> tuple[int, int, int]:
    """``7h-9h``: (lowest position, highest position, suit) of a sequence."""
    low, sep, high = text.partition("-")
    if not sep:
        raise ValueError(f"not a sequence: {text!r} (write its lowest and highest cards, like 7h-9h)")
    a, b = parse_card(low), parse_card(high)
    if RANK_OF[a] == JOKER or RANK_OF[b] == JOKER or SUIT_OF[a] != SUIT_OF[b]:
        raise ValueError(f"not a sequence: {text!r} (its lowest and highest cards are of one suit, like 7h-9h)")
    return sequence_position(RANK_OF[a]), sequence_position(RANK_OF[b]), SUIT_OF[a]


def _parse_add_to_span(word: str, span: str) -> Action:
    """``add 10h to 7h-9h``; a wild card is read too (``add JK to 7h-9h``, ``add 2 to 7h-9h``),
    for the engine to refuse with the rule."""
    low, high, suit = _parse_span(span)
    if _has_suit(word) or word.upper() in ("JK", "JOKER"):
        c = int(parse_card(word))
    elif (r := parse_rank(word)) in _WILD:
        c = r * 4 + suit if r != JOKER else int(JOKER_CARD)   # any copy of a wild card will do
    else:
        raise ValueError(f"name the card with its suit (like add {RANK_NAMES[r]}{SUIT_LETTERS[suit]} to {span})")
    return add_to_sequence(c, low, high, suit)


def _has_suit(word: str) -> bool:
    return len(word) >= 2 and word.upper() not in ("JK", "JOKER") and (
        word[-1].lower() in "cdhs" or word[-1] in "♣♦♥♠")


def _parse_named(kind: ActionKind, args: list[str]) -> Action | None:
    """``meld 9h 9h 9s``, ``meld 9h 9s 2``, ``pile 9h 9s``, ``add 9h``: the copies of one natural
    rank named (wild cards as ranks; a suit written on one is ignored); None when the natural
    cards are of several ranks (a sequence)."""
    ranks: list[int] = []
    named: list[int] = []
    for w in args:
        if _has_suit(w):
            c = parse_card(w)
            r = RANK_OF[c]
            if r not in _WILD:
                named.append(c)
        else:
            r = parse_rank(w)
            if r not in _WILD:
                raise ValueError("name every natural card with its suit (like 9h 9h 9s) or none (like 9 9 9)")
        ranks.append(r)
    if not named and kind != ADD:
        return action(kind, tuple(ranks))   # wild cards only (``meld 2c 2d JK``): suits do not matter
    if len({RANK_OF[c] for c in named}) != 1:
        return None
    if kind == ADD and len(ranks) != 1:
        return None
    base = add(ranks[0]) if kind == ADD else action(kind, tuple(ranks))
    return Action(base.kind, base.ranks, base.card, base.target, tuple(named))


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
        if kind in (PILE, MELD) and any(_has_suit(w) for w in args):
            named = _parse_named(ActionKind(kind), args)
            if named is not None:
                return named
            if kind == PILE:
                raise ValueError("take the pile with cards of the upcard's rank (like pile 9h 9s) or wild cards")
            return _parse_sequence(args)
        if kind == PILE:
            return pile_with(*(parse_rank(w) for w in args))
        if kind == MELD and args:
            return meld(*(parse_rank(w) for w in args))
        if kind == JOIN and len(args) == 1:
            return join(parse_rank(args[0]))
        if kind == ADD and len(args) == 3 and args[1].lower() == "to" and ("-" in args[2] or _has_suit(args[0])):
            return _parse_add_to_span(args[0], args[2])
        if kind == ADD and len(args) == 1 and _has_suit(args[0]):
            return _parse_named(ADD, args) or add(RANK_OF[parse_card(args[0])])  # add 9h (add 2c: add 2)
        if kind == ADD and len(args) == 1:
            return add(parse_rank(args[0]))
        if kind == ADD and len(args) == 3 and args[1].lower() == "to":
            return add(parse_rank(args[0]), parse_rank(args[2]))
        if kind == DISCARD and len(args) == 1:
            return discard(parse_card(args[0]))
    except ValueError as exc:
        raise InvalidActionError(f"cannot read {text!r}: {exc}") from None
    raise InvalidActionError(
        f"cannot read {text!r}: expected draw, pile [K K], meld K K K, meld 9h 9h 9s, meld 7h 8h 9h, add K [to K], "
        "add 10h to 7h-9h, join K, discard Kh, ask, yes, no, undo, unpile or end"
    )
