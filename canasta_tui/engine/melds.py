"""Melds: three or more cards of one rank, naturals first, wild cards counted apart."""

from __future__ import annotations

from typing import NamedTuple

from .cards import DEUCE, RANK_NAMES, RANK_WORDS, THREE, VALUE, card_text


class Meld(NamedTuple):
    """A partnership's meld of one rank.  ``rank`` is 3 for black threes, 2 for a wild meld."""

    rank: int
    naturals: tuple[int, ...]
    wilds: tuple[int, ...] = ()

    @property
    def size(self) -> int:
        return len(self.naturals) + len(self.wilds)

    @property
    def is_canasta(self) -> bool:
        return len(self.naturals) + len(self.wilds) >= 7

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
        return "natural canasta" if self.is_natural else "mixed canasta"

    def cards(self) -> tuple[int, ...]:
        return self.naturals + self.wilds

    def label(self) -> str:
        return "Wild cards" if self.is_wild_meld else RANK_WORDS[self.rank] + "s"

    def __str__(self) -> str:
        name = "W" if self.is_wild_meld else RANK_NAMES[self.rank]
        return f"{name}: " + " ".join(card_text(c) for c in self.cards())
