"""Melds: three or more cards of one rank, naturals first, wild cards counted apart; and,
in Samba and Bolivia, sequences: three to seven cards of one suit in order (4 low, Ace high)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .cards import DEUCE, RANK_NAMES, RANK_OF, RANK_WORDS, SUIT_LETTERS, THREE, VALUE, card_text, sequence_position

#: The most cards a sequence meld holds: seven make a samba (escalera), closed to more.
SEQUENCE_MAX = 7


class Meld(NamedTuple):
    """A partnership's meld of one rank.  ``rank`` is 3 for black threes, 2 for a wild meld.

    A sequence meld has a ``suit`` (0-3; -1 for a meld of one rank): its ``naturals`` run in
    order from the lowest card, whose rank is ``rank``, and it holds no wild card."""

    rank: int
    naturals: tuple[int, ...]
    wilds: tuple[int, ...] = ()
    suit: int = -1

    @property
    def is_sequence(self) -> bool:
        return self.suit >= 0

    @property
    def low(self) -> int:
        """A sequence's lowest position (4 ... 14, the Ace 14)."""
        return sequence_position(RANK_OF[self.naturals[0]])

    @property
    def high(self) -> int:
        """A sequence's highest position (4 ... 14, the Ace 14)."""
        return sequence_position(RANK_OF[self.naturals[-1]])

    @property
    def size(self) -> int:
        return len(self.naturals) + len(self.wilds)

    @property
    def is_canasta(self) -> bool:
        return len(self.naturals) + len(self.wilds) >= 7

    @property
    def is_closed(self) -> bool:
        """A samba (escalera) takes no more cards."""
        return self.suit >= 0 and len(self.naturals) >= SEQUENCE_MAX

    @property
    def is_natural(self) -> bool:
        """A natural canasta holds no wild card (a wild meld is its own kind)."""
        return not self.wilds and self.rank != DEUCE

    @property
    def is_wild_meld(self) -> bool:
        return self.rank == DEUCE

    @property
    def is_black_threes(self) -> bool:
        return self.rank == THREE

    @property
    def points(self) -> int:
        """Face value of the cards (bonuses are separate)."""
        return sum(VALUE[c] for c in self.naturals) + sum(VALUE[c] for c in self.wilds)

    @property
    def kind(self) -> str:
        if not self.is_canasta:
            return "meld"
        if self.is_wild_meld:
            return "wild canasta"
        if self.is_sequence:
            return "sequence canasta"
        return "natural canasta" if self.is_natural else "mixed canasta"

    def cards(self) -> tuple[int, ...]:
        return self.naturals + self.wilds

    def label(self) -> str:
        if self.is_sequence:
            return f"{card_text(self.naturals[0])}-{card_text(self.naturals[-1])}"
        return "Wild cards" if self.is_wild_meld else RANK_WORDS[self.rank] + "s"

    def __str__(self) -> str:
        if self.is_sequence:
            return f"{SUIT_LETTERS[self.suit]}: " + " ".join(card_text(c) for c in self.naturals)
        name = "W" if self.is_wild_meld else RANK_NAMES[self.rank]
        return f"{name}: " + " ".join(card_text(c) for c in self.cards())


#: The order a side's melds of one rank are shown in: A, 4 ... K, black threes, wild cards.
RANK_ORDER = (1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 3, 2)


def ordered_melds(row: Sequence[Meld | None]) -> list[Meld]:
    """A side's melds as the table shows them: by rank (A, 4 ... K, black threes, wild cards),
    a further meld of a rank after the first (Samba, Bolivia), then the sequences by suit and
    from their lowest card.  ``row`` is the side's row of slots (``GameState.melds[team]``)."""
    out = [m for r in RANK_ORDER if (m := row[r]) is not None]
    if len(row) > 15:
        extra = [m for m in row[15:] if m is not None]
        for m in extra:
            if m.suit < 0:
                out.insert(max(i for i, x in enumerate(out) if x.rank == m.rank and x.suit < 0) + 1, m)
        out += sorted((m for m in extra if m.suit >= 0), key=lambda m: (m.suit, m.low))
    return out
