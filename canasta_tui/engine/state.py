"""The position of one hand: an immutable value with an explicit phase.

Seats are numbered from 0 (Player 1) clockwise; the UI adds one.  In the
partnership game seats 0 and 2 (Players 1 and 3) form team 0, seats 1 and 3
(Players 2 and 4) team 1.  In the two- and three-player games each seat is its
own team.
"""

from __future__ import annotations

from enum import Enum, IntEnum
from typing import NamedTuple

from .melds import Meld, ordered_melds
from .rules import Rules


class Phase(IntEnum):
    DRAW = 0        # the turn's player draws from the stock or takes the pile
    MELD = 1        # melds (optional), then a discard ends the turn
    PERMISSION = 2  # the partner answers "May I go out, partner?"
    HAND_OVER = 3   # play has ended; the hand is scored

    @property
    def word(self) -> str:
        return ("draw", "meld", "permission", "hand over")[self]


class HandEnd(Enum):
    """Why play of a hand ended (as python-chess's ``Termination`` says why a game did); ``text``
    says it in words, for the log, the score sheet and a save's snapshot."""

    WENT_OUT = "went out"
    STOCK_EXHAUSTED = "the stock is exhausted"
    LAST_CARD_RED_THREE = "the last card of the stock was a red three"

    @property
    def text(self) -> str:
        return str(self.value)


def end_text(reason: HandEnd | None) -> str:
    """Why a hand ended, in words ("" while it is played)."""
    return "" if reason is None else reason.text


def hand_end(text: str) -> HandEnd | None:
    """:func:`end_text` read back; raises ValueError for words that are no reason."""
    return None if text == "" else HandEnd(text)


def next_seat(seat: int, players: int = 4) -> int:
    """The player to the left, who plays next (play goes clockwise)."""
    return (seat + 1) % players


def partner(seat: int) -> int:
    """The partner sits opposite (partnership game only)."""
    return (seat + 2) % 4


def team(seat: int, rules: Rules) -> int:
    """Team 0 is Players 1 and 3, team 1 Players 2 and 4; without partnerships, the seat."""
    return seat % 2 if rules.partnerships else seat


def team_seats(t: int, rules: Rules) -> tuple[int, ...]:
    return (t, t + 2) if rules.partnerships else (t,)


def player_name(seat: int) -> str:
    return f"Player {seat + 1}"


def team_name(t: int, rules: Rules) -> str:
    if rules.partnerships:
        return "Players 1 & 3" if t == 0 else "Players 2 & 4"
    return player_name(t)


#: Why a side was charged a penalty (DOS "Irregularities", Windows 2.41 rule 7).
PERMISSION_BROKEN = "did not go out after 'yes'"
PILE_PUT_BACK = "put the pile back"
RED_THREE_IN_HAND = "red three left in hand"
BLACK_THREE_IN_HAND = "black three left in hand"


class Penalty(NamedTuple):
    """One penalty charged to a side during the hand, with its reason (for the scoring summary)."""

    team: int
    points: int
    reason: str


class Turn(NamedTuple):
    """What the rules need to remember within one turn (reset when the turn passes)."""

    drew: str = ""                    # "", "stock" or "pile"
    opened_at_start: bool = False     # the side had made its initial meld before this turn
    melded_before: bool = False       # this player had melded earlier in the hand
    melded: tuple[int, ...] = ()      # cards melded from the hand this turn (counts for the requirement)
    own: tuple[int, ...] | None = None  # after taking the pile: the hand's own cards (the rest came from the pile)
    upcard_points: int = 0            # what the taken upcard adds toward the initial meld requirement
    extra_needed: int = 0             # added to the requirement ("top card counts" off)
    black_threes: bool = False        # black threes were melded this turn: the player must go out
    added_existing: bool = False      # played on a meld that was on the table before the turn
    start_keys: int = 0               # bit r set: the side had a meld of rank r when the turn began
    asked: bool = False
    permission: int = -1              # -1 not asked, 0 "no", 1 "yes"
    prev: GameState | None = None       # the position before the last meld (for undo)
    pile_undo: GameState | None = None  # before taking the pile, while its rest waits (for unpile)
    pile_undone: bool = False
    final: bool = False               # last card was a red three: meld, then end

    def __repr__(self) -> str:
        # prev/pile_undo hold whole positions; printing them recursively would flood a log.
        shown = {k: v for k, v in self._asdict().items() if k not in ("prev", "pile_undo")}
        return "Turn(" + ", ".join(f"{k}={v!r}" for k, v in shown.items()) + \
            f", undo={self.prev is not None}, unpile={self.pile_undo is not None})"


class GameState(NamedTuple):
    rules: Rules
    dealer: int
    requirements: tuple[int, ...]            # per team: initial meld requirement this hand
    deck: tuple[int, ...]                    # the stock is deck[stock_pos:], drawn from the front
    stock_pos: int
    hands: tuple[tuple[int, ...], ...]       # per seat, sorted
    melds: tuple[tuple[Meld | None, ...], ...]  # per team, indexed by rank (15 slots)
    red_threes: tuple[tuple[int, ...], ...]  # per seat, as laid out
    pile: tuple[int, ...]                    # bottom first; pile[-1] is the upcard
    frozen: bool                             # the pile holds a wild card or red three
    phase: Phase
    turn: int                                # whose turn it is
    actor: int                               # who must act now (the partner, when asked)
    turn_number: int
    has_melded: tuple[bool, ...]             # per seat: has melded this hand
    threes_laid: tuple[bool, ...]            # per seat: red threes of the deal laid out (first turn)
    known: tuple[tuple[int, ...], ...]       # per seat: cards publicly known to be in the hand
    penalties: tuple[int, ...]               # per team (the sum of penalty_log's points)
    t: Turn
    stock_turned: bool = False
    went_out: int = -1
    concealed: bool = False
    end_reason: HandEnd | None = None        # set when play of the hand ends
    penalty_log: tuple[Penalty, ...] = ()    # every penalty of the hand, in order, with its reason
    aside: tuple[int, ...] = ()              # the rest of a taken pile, waiting for the initial meld

    @property
    def stock_size(self) -> int:
        return len(self.deck) - self.stock_pos

    @property
    def upcard(self) -> int | None:
        return self.pile[-1] if self.pile else None

    @property
    def players(self) -> int:
        return self.rules.players

    def charge(self, tm: int, points: int, reason: str) -> GameState:
        """This position with side ``tm`` charged ``points`` for ``reason``."""
        pen = self.penalties
        return self._replace(penalties=(*pen[:tm], pen[tm] + points, *pen[tm + 1:]),
                             penalty_log=(*self.penalty_log, Penalty(tm, points, reason)))

    def team_of(self, seat: int) -> int:
        return team(seat, self.rules)

    def team_melds(self, t: int) -> list[Meld]:
        """The side's melds in ascending rank order (A, 3 ... K as the DOS game shows them)."""
        return ordered_melds(self.melds[t])

    def canastas(self, t: int) -> int:
        return sum(1 for m in self.melds[t] if m is not None and len(m.naturals) + len(m.wilds) >= 7)

    def opened(self, t: int) -> bool:
        return any(m is not None for m in self.melds[t])

    @property
    def is_over(self) -> bool:
        return self.phase == Phase.HAND_OVER
