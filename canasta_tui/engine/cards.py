"""Cards, ranks and suits: small immutable values.

A card is an ``int`` subclass (rank * 4 + suit, jokers 56) so that hands are plain
tuples of ints that sort, hash and compare at C speed, while still printing as
``Kh`` or ``JK``.  The 108-card Canasta deck holds two of every card of two
standard decks plus four jokers; identical copies are the same value.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

# Ranks.  2 is a wild card (deuce); JOKER is the other wild card.
ACE: Final = 1
DEUCE: Final = 2
THREE: Final = 3
JACK: Final = 11
QUEEN: Final = 12
KING: Final = 13
JOKER: Final = 14

CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3

RANK_NAMES: Final = {1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8",
                     9: "9", 10: "10", 11: "J", 12: "Q", 13: "K", 14: "JK"}
RANK_WORDS: Final = {1: "Ace", 2: "Deuce", 3: "Three", 4: "Four", 5: "Five", 6: "Six",
                     7: "Seven", 8: "Eight", 9: "Nine", 10: "Ten", 11: "Jack", 12: "Queen",
                     13: "King", 14: "Joker"}
SUIT_LETTERS: Final = "cdhs"
SUIT_SYMBOLS: Final = "♣♦♥♠"
_RANK_BY_NAME: Final = {v: k for k, v in RANK_NAMES.items()} | {"T": 10, "1": ACE}

#: Ranks that can be melded as naturals (A, 4..K); threes are special.
NATURAL_RANKS: Final = (1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)
#: Display order of ranks in a sorted hand: A, 3 ... K, then wild cards.
DISPLAY_ORDER: Final = (1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 2, 14)
_DISPLAY_POS: Final = {r: i for i, r in enumerate(DISPLAY_ORDER)}


def rank_value(rank: int, suit: int = CLUBS) -> int:
    """Point value of a card (DOS manual, "Point Values"); red threes score as bonuses."""
    if rank == JOKER:
        return 50
    if rank in (DEUCE, ACE):
        return 20
    if rank >= 8:
        return 10
    if rank == THREE:
        return 100 if suit in (DIAMONDS, HEARTS) else 5
    return 5


class Card(int):
    """One playing card.  Create with :func:`card` or :func:`parse_card`."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        return RANK_OF[self]

    @property
    def suit(self) -> int:
        return SUIT_OF[self]

    @property
    def is_wild(self) -> bool:
        return IS_WILD[self]

    @property
    def is_red_three(self) -> bool:
        return IS_RED_THREE[self]

    @property
    def is_black_three(self) -> bool:
        return IS_BLACK_THREE[self]

    @property
    def value(self) -> int:
        return VALUE[self]

    def __str__(self) -> str:
        return card_text(self)

    def __repr__(self) -> str:
        return f"Card({card_text(self)!r})"


def _code(rank: int, suit: int) -> int:
    return 56 if rank == JOKER else rank * 4 + suit


_ALL_CODES: Final = [c for r in range(1, 14) for s in range(4) for c in [_code(r, s)]] + [56]
#: Lookup tables indexed by card code (hot paths use these, not the properties).
RANK_OF: Final[list[int]] = [0] * 57
SUIT_OF: Final[list[int]] = [0] * 57
IS_WILD: Final[list[bool]] = [False] * 57
IS_RED_THREE: Final[list[bool]] = [False] * 57
IS_BLACK_THREE: Final[list[bool]] = [False] * 57
VALUE: Final[list[int]] = [0] * 57
CARDS: Final[dict[int, Card]] = {}
for _c in _ALL_CODES:
    _r, _s = (JOKER, 0) if _c == 56 else divmod(_c, 4)
    RANK_OF[_c] = _r
    SUIT_OF[_c] = _s
    IS_WILD[_c] = _r in (DEUCE, JOKER)
    IS_RED_THREE[_c] = _r == THREE and _s in (DIAMONDS, HEARTS)
    IS_BLACK_THREE[_c] = _r == THREE and _s in (CLUBS, SPADES)
    VALUE[_c] = rank_value(_r, _s)
    CARDS[_c] = Card(_c)
del _c, _r, _s

JOKER_CARD: Final = CARDS[56]


def plural(rank: int) -> str:
    """"Kings", "Sixes", "Jokers": a rank's name for a meld or a sentence."""
    return RANK_WORDS[rank] + ("es" if rank == 6 else "s")


def a_or_an(word: str) -> str:
    """"an Ace", "an escalera", "a samba": ``word`` with its indefinite article."""
    return f"{'an' if word[:1].lower() in ('a', 'e', 'i', 'o', 'u') else 'a'} {word}"


def card(rank: int, suit: int = CLUBS) -> Card:
    """The card of this rank and suit (suit is ignored for jokers)."""
    return CARDS[_code(rank, suit)]


def card_text(code: int, symbols: bool = False) -> str:
    """``Kh``, ``10s``, ``JK``; with ``symbols``: ``K♥``."""
    rank = RANK_OF[code]
    if rank == JOKER:
        return "JK"
    suits = SUIT_SYMBOLS if symbols else SUIT_LETTERS
    return RANK_NAMES[rank] + suits[SUIT_OF[code]]


def parse_rank(text: str) -> int:
    """``K`` -> 13, ``10``/``T`` -> 10, ``JK`` -> 14.  Raises ValueError with the reason."""
    rank = _RANK_BY_NAME.get(text.upper())
    if rank is None:
        raise ValueError(f"not a rank: {text!r} (use A, 2-10, J, Q, K or JK)")
    return rank


def parse_card(text: str) -> Card:
    """``Kh``, ``10s``, ``Ts``, ``JK`` (or ``K♥``) -> Card.  Raises ValueError with the reason."""
    t = text.strip()
    if t.upper() in ("JK", "JOKER"):
        return JOKER_CARD
    if len(t) < 2:
        raise ValueError(f"not a card: {text!r} (write rank then suit, like Kh, 10s or JK)")
    suit_char = t[-1]
    if suit_char in SUIT_SYMBOLS:
        suit = SUIT_SYMBOLS.index(suit_char)
    elif suit_char.lower() in SUIT_LETTERS:
        suit = SUIT_LETTERS.index(suit_char.lower())
    else:
        raise ValueError(f"not a card: {text!r} (suit must be c, d, h or s)")
    rank = parse_rank(t[:-1])
    if rank == JOKER:
        raise ValueError(f"not a card: {text!r} (a joker has no suit: write JK)")
    return card(rank, suit)


def parse_cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in text.replace(",", " ").split())


def cards_text(cards: Iterable[int]) -> str:
    return " ".join(card_text(c) for c in cards)


def display_key(code: int) -> tuple[int, int]:
    """Sort key for a hand as the DOS game shows it: A, 3 ... K, then deuces and jokers."""
    return (_DISPLAY_POS[RANK_OF[code]], SUIT_OF[code])


def sorted_for_display(cards: Iterable[int]) -> list[Card]:
    return [CARDS[c] for c in sorted(cards, key=display_key)]


def full_deck(packs: int = 2) -> tuple[Card, ...]:
    """The 108 cards: two standard 52-card decks and four jokers, in a fixed order; with
    ``packs=3`` the 162 cards of Samba and Bolivia (three decks and six jokers)."""
    one = [CARDS[_code(r, s)] for s in range(4) for r in range(1, 14)]
    return tuple(one * packs + [JOKER_CARD] * (2 * packs))


def sequence_position(rank: int) -> int:
    """Where a rank stands in a sequence meld: 4 lowest (4) ... King (13), Ace highest (14)."""
    return 14 if rank == ACE else rank


def sequence_rank(position: int) -> int:
    """:func:`sequence_position` read back (14 is the Ace)."""
    return ACE if position == 14 else position


def total_value(cards: Sequence[int]) -> int:
    return sum(VALUE[c] for c in cards)
