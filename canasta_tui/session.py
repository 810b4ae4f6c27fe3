"""A session: who sits where, the rules, the match, seeded shuffles and computer players.

Data flows one way: the session holds the match; the UI and computer players read a
per-seat view and hand back an action; ``Session.play`` checks it through the engine.
Observers (autosave, logs, the UI) are called after every completed action and after
every new deal.  Randomness lives here, never in the engine: decks are shuffled with a
``random.Random`` seeded from ``--seed``.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .ai import ComputerPlayer
from .engine import (
    Action,
    GameState,
    Match,
    PlayerView,
    Rules,
    full_deck,
    legal_actions,
    new_match,
    next_hand,
    play,
    player_name,
    view_for,
)
from .events import DEALT, Event, action_events, coalesced, deal_events, describe, hand_events, merged

#: What an observer receives: the session and what happened ("action" or "deal").
Observer = Callable[["Session", str], None]


@dataclass(frozen=True)
class Seat:
    """Who plays one seat: a human (with a name) or a computer of some level."""

    human: bool
    level: str = "advanced"
    name: str = ""


def seats_for(players: int, level: str = "advanced", name: str = "") -> tuple[Seat, ...]:
    """The seating of ``canasta --players N``.

    0: four computers; 1: Player 1 (bottom); 2: Players 1 and 4 (each with a computer
    partner, as the DOS game's "Two Human Players"); 3: Players 1, 3, 4; 4: everyone.
    """
    humans = {0: (), 1: (0,), 2: (0, 3), 3: (0, 2, 3), 4: (0, 1, 2, 3)}[players]
    return tuple(Seat(True, level, name if s == 0 and name else "") if s in humans
                 else Seat(False, level) for s in range(4))


class LogLine(NamedTuple):
    """One line of the table's log: who did it and the text anybody at the table could see."""

    seat: int
    text: str


class _LegalPlayer:
    """Stand-in when no computer player module is installed: the first sensible legal action."""

    name = "simple"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Action:
        legal = list(view.legal)
        for kind in ("yes", "meld", "add"):
            for a in legal:
                if a.kind == kind:
                    return a
        if any(a.kind == "draw" for a in legal):
            return next(a for a in legal if a.kind == "draw")
        discards = [a for a in legal if a.kind == "discard"]
        if discards:
            return self.rng.choice(discards)
        return legal[0]


def make_computer(level: str, seed: int, aggression: int = 50) -> ComputerPlayer:
    """A computer player of ``level`` from :mod:`canasta_tui.ai` (a simple stand-in if it is missing).

    ``aggression`` (0-100, the ``aggression`` setting) only changes how the Expert plays.
    """
    try:
        from .ai import make_player
    except ImportError:  # pragma: no cover - only before the AI module lands
        return _LegalPlayer(seed)
    player: ComputerPlayer = make_player(level, seed, aggression=aggression)
    return player


class Session:
    """The game being played: rules, seats, the match, and the shuffles still to come."""

    def __init__(self, rules: Rules, seats: Sequence[Seat], seed: int | None = None, *,
                 match: Match | None = None,
                 computer_factory: Callable[[str, int], ComputerPlayer] | None = None,
                 aggression: int = 50) -> None:
        if len(seats) != rules.players:
            raise ValueError(f"{rules.players} seats needed, got {len(seats)}")
        self.rules = rules
        self.seats = tuple(seats)
        self.seed = random.randrange(1 << 31) if seed is None else seed
        self.rng = random.Random(self.seed)
        self.lock = threading.RLock()
        self._observers: list[Observer] = []
        self.log: list[LogLine] = []
        self.events: list[Event] = []           # public events of this game, numbered from 1
        self._tail: Event | None = None         # the event the last log line tells (merged ones too)
        self.aggression = aggression
        self._factory: Callable[[str, int], ComputerPlayer] = computer_factory or (
            lambda level, seed: make_computer(level, seed, self.aggression))
        self.game_id = ""                      # set by the persistence layer (saves, statistics)
        self.computers = self._make_computers()
        self.match = match if match is not None else new_match(rules, self.shuffled_deck(), first_dealer=rules.players - 1)
        if match is None:
            self._publish(deal_events(self.match.state, 1))

    @classmethod
    def from_match(cls, match: Match, seats: Sequence[Seat], seed: int | None = None, **kw: object) -> Session:
        """Resume a loaded match with these seats (new deals use ``seed``)."""
        s = cls(match.rules, seats, seed, match=match, **kw)  # type: ignore[arg-type]
        s._rebuild_log(f"Hand {match.hand_number} resumed")
        return s

    def _rebuild_log(self, note: str) -> None:
        """The current hand's events again, from its deck and saved actions (a player back from
        a dropped link sees what the others did), then ``note``."""
        self.events, self.log = self._log_of(self.match, [note], self.seats)

    def _log_of(self, m: Match, notes: Sequence[str], seats: Sequence[Seat]) -> tuple[list[Event], list[LogLine]]:
        def name(p: int) -> str:
            return seats[p].name or player_name(p)

        h = m.hand_number
        before = m.sheet[h - 2].totals if h >= 2 else (0,) * m.rules.teams
        events: list[Event] = []
        log: list[LogLine] = []
        for e in hand_events(m.rules, m.decks[-1], m.state.dealer, before, m.log[-1], h):
            events.append(e._replace(seq=len(events) + 1))
        # The deal is the table's doing, not a move of the dealer's (the hot-seat recap lists moves).
        log = [LogLine(-1 if e.kind == DEALT else e.seat, describe(e, name)) for e in coalesced(events)]
        log += [LogLine(-1, n) for n in notes]
        self._tail = None
        return events, log

    def _publish(self, events: Sequence[Event]) -> None:
        for e in events:
            e = e._replace(seq=len(self.events) + 1)
            self.events.append(e)
            both = merged(self._tail, e) if self._tail is not None else None
            if both is not None:     # more cards on the meld just named: one line says it
                self.log[-1] = LogLine(e.seat, describe(both, self.name))
                self._tail = both
            else:
                self.log.append(LogLine(-1 if e.kind == DEALT else e.seat, describe(e, self.name)))
                self._tail = e

    def _make_computers(self, seats: Sequence[Seat] | None = None) -> dict[int, ComputerPlayer]:
        """A computer player for every computer seat; ValueError for a level that does not exist."""
        seats = self.seats if seats is None else seats
        return {s: self._factory(seat.level, self.seed * 7 + s) for s, seat in enumerate(seats) if not seat.human}

    def replace_match(self, match: Match, seats: Sequence[Seat], note: str = "", notices: Sequence[str] = ()) -> None:
        """F3: play on from a loaded match, in place, with the seats it was saved with.

        Everything that can fail (the seat count, the computer players' levels) is done
        before anything is replaced: on ValueError the session is exactly as it was.
        Observers (autosave, statistics, the table) stay attached: they are told "load",
        so the autosave now holds the loaded game.  New deals keep using this session's seed.
        ``notices`` (what loading had to change) follow ``note`` in the log.
        """
        seats = tuple(seats)
        if len(seats) != match.rules.players:
            raise ValueError(f"{match.rules.players} seats needed, got {len(seats)}")
        computers = self._make_computers(seats)
        events, log = self._log_of(match, [note or f"Hand {match.hand_number} loaded", *notices], seats)
        with self.lock:    # one step: a painter never sees the new rules with the old match
            self.rules, self.seats, self.computers, self.match = match.rules, seats, computers, match
            self.events, self.log = events, log
        self._notify("load")

    # ----------------------------------------------------------------- observers
    def add_observer(self, fn: Observer) -> None:
        """Call ``fn(session, event)`` after every completed action ("action"), new deal ("deal")
        and loaded game ("load")."""
        self._observers.append(fn)

    def _notify(self, event: str) -> None:
        for fn in list(self._observers):
            fn(self, event)

    # ----------------------------------------------------------------- queries
    @property
    def state(self) -> GameState:
        return self.match.state

    def shuffled_deck(self) -> list[int]:
        deck = [int(c) for c in full_deck()]
        self.rng.shuffle(deck)
        return deck

    def is_human(self, seat: int) -> bool:
        return self.seats[seat].human

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(s for s, seat in enumerate(self.seats) if seat.human)

    def name(self, seat: int) -> str:
        n = self.seats[seat].name
        return n if n else player_name(seat)

    def view(self, seat: int) -> PlayerView:
        return view_for(self.state, seat)

    def legal(self) -> list[Action]:
        return legal_actions(self.state)

    # ----------------------------------------------------------------- changes
    def play(self, action: Action) -> GameState:
        """Apply ``action`` for the player to act; raises IllegalActionError with the reason."""
        with self.lock:
            before = self.state
            self.match = play(self.match, action)
            self._publish(action_events(before, action, self.state, self.match.hand_number))
        self._notify("action")
        return self.state

    def computer_choice(self) -> Action:
        """What the computer player to act chooses (may take a while: call from a worker)."""
        with self.lock:
            seat = self.state.actor
            view = view_for(self.state, seat)
        return self.computers[seat].choose(view)

    def deal_next(self) -> None:
        """Deal the next hand (the current one is over and the match goes on)."""
        with self.lock:
            self.match = next_hand(self.match, self.shuffled_deck())
            self._publish(deal_events(self.state, self.match.hand_number))
        self._notify("deal")
