"""The server's tables and who sits where.

A table is first *forming*: its creator picked the rules, the computers' level and the
score to play to, and people claim its free seats.  When the creator starts it, the
seats nobody claimed go to computers and the game is a :class:`~canasta_tui.table.Table`
that the server drives (its computers think in the server's shared threads).  A table
is *over* once a side has won; it goes when its last client leaves.

Every client of a table holds a :class:`~canasta_tui.table.Link`: a seated player's for
their one seat, a spectator's for no seat at all, so no connection can be handed another
seat's hand.  A seat remembers who plays it (``Seat.key``, the player's identity), also
while a computer stands in: a player who disconnected finds their seat waiting
(``takeover`` seconds, then a computer plays it), and gets it back, with what happened
meanwhile, when they connect again.  Another person can take a computer's seat; the
change happens at the next deal, never in the middle of a hand.

The tables all belong to the server's :class:`~.registry.Registry` (its own module), which
creates, seats, starts, restores and sets them aside.

Everything here runs on the event loop's thread.
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from ...engine import Phase, Rules, team, team_name
from ...lobbyview import (
    Access,
    Destination,
    LobbyLine,
    SeatInfo,
    SeatState,
    TableRow,
    TableState,
)
from ...persistence.recording import StatsRecording
from ...persistence.saves import table_meta
from ...table import COMPUTER, REMOTE, Change, Link, Seat, Table
from ...table.events import Event, recap
from ...table.table import ThinkingShare
from ...text import points, printable, side_name, span
from ..club.results import Club
from ..config import ServerConfig
from ..lobby.connected import Client
from ..lobby.forming import Claim, saved_text
from ..person import PersonId, Refusal, person_text, reason
from .store import TableStore

log = logging.getLogger("canasta.server")

FORMING, PLAYING, OVER = TableState.FORMING, TableState.PLAYING, TableState.OVER
#: Computer levels a table can be created with.
LEVELS = ("beginner", "advanced", "expert")
#: Why a rated table does not start with computers in every seat: such a match would rate a level
#: against itself (docs/ratings.md, "Computer levels").
NOBODY_RATED = "Sit down first: a rated table needs a person (computers alone are not rated)"
#: Lines of the lobby's chat kept.
LOBBY_CHAT_KEEP = 100
#: The mark after a chat line's speaker known by their SSH key (the table's chat is text, drawn
#: by the client, so the mark is in the text).
VERIFIED = "✓"
#: Lines of catch-up a returning player is shown at most (the newest).
CATCH_UP_LINES = 14
#: A private table's code: letters and digits nobody mistakes for each other, read over the phone.
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


def table_code() -> str:
    """A new private table's code (about 10^9 of them: not guessed in the time a table forms)."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def code_key(text: str) -> str:
    """A typed code as compared: spaces and dashes dropped, upper case."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


#: The turn timer's choices (seconds a human has for a turn; 0: no timer, the default).
TURN_TIMERS = (0, 30, 60, 120)
#: The least an Expert computer thinks at a busy server, in seconds: the bench's figures are at 0.1 s.
EXPERT_LEAST = 0.1
#: A timed player is warned this long before a computer plays their turn (at most a third of it).
TURN_WARNING = 10.0
#: The countdown of "play again?" (its deadline is ``ServerConfig.rematch_answer``) moves on in
#: steps of this many seconds: a screen over SSH is not repainted every second for it.
AGAIN_STEP = 5.0


def turn_timers(shortest: int = TURN_TIMERS[1]) -> tuple[int, ...]:
    """The turn timer's choices with ``shortest`` as the shortest one (tests make it short)."""
    return (0, shortest, *(t for t in TURN_TIMERS[2:] if t > shortest))


def timer_text(seconds: float) -> str:
    return f"{seconds:g} s" if seconds else "off"


class TableRefused(ValueError):
    """A table that cannot be created now; the message says why, and what to do."""


class LobbyRow(NamedTuple):
    """A table as the lobby shows it to anybody (:meth:`Registry.lobby_rows`), and whose each seat
    is, so that one person's view can mark theirs (``server.lobby.RegistryLobby``)."""

    row: TableRow                 # as nobody in particular sees it: no seat is anybody's
    creator: PersonId | None                # who starts it
    owners: tuple[PersonId | None, ...]     # per seat: the person it is "mine" for (SeatInfo.mine)
    keys: tuple[PersonId | None, ...]       # per seat: the person who owns it (:meth:`ServerTable.seat_of`)
    code: str = ""                # a table joined with a code: its code (only its creator is shown it)
    allowed: frozenset[PersonId] = frozenset()   # a private table: who may sit (invited, or gave the code)


class Host(Protocol):
    """The registry as its tables see it (a :class:`~.registry.Registry`: known by this protocol,
    so that the two modules do not import each other)."""

    config: ServerConfig
    store: TableStore
    club: Club
    closing: bool
    thinking: ThinkingShare
    recordings: list[StatsRecording]

    @property
    def clients(self) -> Mapping[PersonId, Client]: ...

    def changed(self) -> None: ...

    def rematch(self, st: ServerTable, seats: Sequence[int]) -> int: ...

    def drop_if_over(self, st: ServerTable) -> None: ...

    def say_at(self, st: ServerTable, client: Client, text: str) -> Refusal | None: ...


@dataclass
class ServerTable:
    """One table of the server, forming, playing or over."""

    registry: Host
    id: int
    rules: Rules
    level: str
    creator: PersonId | None          # who starts it (None: a restored table's save did not say)
    seed: int | None
    #: A rated table's finished match moves its players' ratings (:mod:`.people`).
    rated: bool = False
    #: Seconds a human has for a turn before a computer plays it for them (0: no timer).
    turn_timer: float = 0.0
    claims: list[Claim | None] = field(default_factory=list)
    table: Table | None = None
    #: Connected players: seat -> (client, their link).
    links: dict[int, tuple[Client, Link]] = field(default_factory=dict)
    watchers: dict[Client, Link] = field(default_factory=dict)
    #: Computers' seats claimed by people, given to them at the next deal.
    pending: dict[int, tuple[Client, Claim]] = field(default_factory=dict)
    #: Seats waiting for their dropped player: the timer of the computer that takes over.
    timers: dict[int, asyncio.TimerHandle] = field(default_factory=dict)
    #: Per identity: how many events the table had when they left (their catch-up starts there).
    left_at: dict[str, int] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None
    stats: StatsRecording | None = None
    game_id: str = ""
    #: When its seats last changed before the start (the loop's clock): a table that never starts goes.
    touched: float = field(default_factory=time.monotonic)
    #: When a person was last at it, playing or watching (seconds since the epoch, kept in the
    #: save): a table left alone for long is set aside.
    visited: float = field(default_factory=time.time)
    #: Who may sit: anybody, those invited, or those who gave the code (:attr:`code`).
    access: Access = Access.OPEN
    code: str = ""
    #: Shown in everybody's lobby (else to its people and those invited only).
    listed: bool = True
    #: People who are not at it may watch it.
    watchable: bool = True
    #: A private table: the people let in (invited, or who gave its code), besides its creator.
    allowed: set[PersonId] = field(default_factory=set)
    #: A forming table brought back by a restart stays (its people not yet back) until then (the
    #: loop's clock); 0: it goes as soon as nobody connected holds a seat.
    kept_until: float = 0.0
    #: The turn timed now, (seat, hand), and its warning's and time-out's timers.
    timed: tuple[int, int] | None = None
    turn_timers: list[asyncio.TimerHandle] = field(default_factory=list)
    #: The seat a computer plays this one turn for (its player ran out of time; they keep the seat).
    standing_in: int | None = None
    #: Once the match is over: who answered "play again with the same people" (identity -> yes).
    again: dict[str, bool] | None = None
    #: The table the rematch is played at, once everybody answered and somebody said yes.
    again_at: int | None = None
    #: Each player's time to answer "play again?" starts when their screen first shows it
    #: (``again_seen``, the loop's clock), or at ``again_until`` (``rematch_answer`` after the match
    #: ended) if that is earlier, so that nobody holds the table for ever; the timer of the
    #: countdown's next step, and who did not answer in time (their no was not theirs).
    again_until: float = 0.0
    again_seen: dict[str, float] = field(default_factory=dict)
    again_timer: asyncio.TimerHandle | None = None
    again_late: set[str] = field(default_factory=set)
    #: Per person (identity) of a seat: [turns they played themselves, turns a computer played for
    #: them] in this match (a rated match counts them: ``people.assess``); kept in the save.
    turns: dict[str, list[int]] = field(default_factory=dict)
    #: The turn under way, (hand, turn number, seat): counted for whoever plays its last move.
    turn_at: tuple[int, int, int] | None = None
    #: People who sat down in a computer's seat after the match began (not rated for it).
    late: set[str] = field(default_factory=set)
    #: A rated match: per person away from their seat, the timer after which their side loses.
    forfeit_timers: dict[str, asyncio.TimerHandle] = field(default_factory=dict)
    #: The match ended by a forfeit: who left (their side lost) and the side that won.
    forfeited: str = ""
    forfeit_winner: int | None = None
    #: Everybody of the losing side who was away when it was lost (the one whose grace ran out
    #: first, and a partner away too): each is rated a loss, as a leaver.
    forfeit_left: set[str] = field(default_factory=set)

    # ------------------------------------------------------------------ what the lobby shows
    @property
    def state(self) -> TableState:
        if self.table is None:
            return FORMING
        return OVER if self.table.match.winner is not None or self.forfeited else PLAYING

    @property
    def winner(self) -> int | None:
        """The side that won: by the scores, or by a forfeit."""
        if self.forfeit_winner is not None:
            return self.forfeit_winner
        return self.table.match.winner if self.table is not None else None

    @property
    def players(self) -> int:
        return self.rules.players

    def creator_name(self) -> str:
        """The name of whoever starts this table (the creator is a key, never shown as one)."""
        if self.table is None:
            names = [c.name for c in self.claims if c is not None and c.person == self.creator]
        else:
            names = [s.name for s in self.table.seats if s.key == person_text(self.creator)]
        if names:
            return names[0]
        # (a creator who stood up: a table of computers)
        who = self.registry.clients.get(self.creator) if self.creator is not None else None
        return who.identity.label if who is not None else "its creator"

    def seat(self, seat: int, viewer: PersonId | None = None) -> SeatInfo:
        """Who is in ``seat``, for the lobby (``viewer``: the person looking)."""
        if self.table is None:
            c = self.claims[seat]
            if c is None:
                return SeatInfo(SeatState.FREE)
            return SeatInfo(SeatState.HUMAN, c.name, c.person == viewer, verified=c.person.is_key)
        s = self.table.seats[seat]
        mine = bool(s.key) and s.key == person_text(viewer)
        if s.kind == COMPUTER:
            claim = self.pending.get(seat)
            if claim is not None:
                return SeatInfo(SeatState.CLAIMED, claim[1].name, claim[1].person == viewer, "sits down at the next deal",
                                claim[1].person.is_key)
            return SeatInfo(SeatState.COMPUTER, s.name, mine, f"for {s.name}" if s.name else "", s.verified)
        if seat in self.links:
            return SeatInfo(SeatState.HUMAN, s.name, mine, verified=s.verified)
        note = "a computer takes over soon" if seat in self.timers else "waiting"
        if s.key in self.forfeit_timers:
            note = "back soon, or their side forfeits"
        return SeatInfo(SeatState.AWAY, s.name, mine, note, s.verified)

    def seats(self, viewer: PersonId | None = None) -> list[SeatInfo]:
        return [self.seat(i, viewer) for i in range(self.players)]

    def lobby_row(self) -> LobbyRow:
        """This table for the lobby, as anybody sees it (see :class:`LobbyRow`)."""
        stage = self.state
        seats = tuple(self.seats())
        if self.table is None:
            keys = tuple(c.person if c is not None else None for c in self.claims)
            owners = keys
        else:
            keys = tuple(PersonId.read(s.key) for s in self.table.seats)
            owners = tuple(self.pending[i][1].person if i in self.pending else k for i, k in enumerate(keys))
        row = TableRow(self.id, self.rules.name, self.level, self.rules.target_score, stage, seats, "", False, None,
                       access=self.access, watchable=self.watchable, rated=self.rated, listed=self.listed)
        if stage == FORMING:
            row = row._replace(creator=self.creator_name())
        elif stage == OVER:
            row = row._replace(winner=self.winner_text())
        else:
            row = row._replace(hand=self.hand_number(), score=self.score_text(), paused=self.held())
        creator = {self.creator} if self.creator is not None else set()
        return LobbyRow(row, self.creator, owners, keys, self.code, frozenset(self.allowed | creator))

    def score_text(self, number: Callable[[int], str] = points) -> str:
        """Each side's score in a few words ("1&3: 1,250  2&4: 980"; a log passes ``str``)."""
        if self.table is None:
            return ""
        m = self.table.match
        return "  ".join(f"{short_side(t, self.rules)}: {number(m.scores[t])}" for t in range(self.rules.teams))

    def winner_text(self) -> str:
        w = self.winner
        if w is None or self.table is None:
            return ""
        # At a table of named people the winners by name ("ann & bob won"), as the table names them.
        names = side_name(w, self.rules, [self.table.name(s) for s in range(self.rules.players)])
        return f"{names} won{' by forfeit' if self.forfeited else ''}"

    def hand_number(self) -> int:
        return self.table.match.hand_number if self.table is not None else 0

    def held(self) -> bool:
        """Nobody is at the table: the computers wait (a table is never played out alone)."""
        return self.table is not None and bool(self.table.holds)

    def seat_of(self, person: PersonId) -> int | None:
        """The seat ``person`` owns here (claimed, playing, away, or a computer standing in)."""
        if self.table is None:
            return next((i for i, c in enumerate(self.claims) if c is not None and c.person == person), None)
        key = str(person)        # (the table's seats keep their person as the save writes it)
        return next((i for i, s in enumerate(self.table.seats) if s.key == key), None)

    def may_sit(self, person: PersonId) -> Refusal | None:
        """Why ``person`` may not take a seat here (a private table), or None."""
        if self.access == Access.OPEN or person == self.creator or person in self.allowed:
            return None
        if self.seat_of(person) is not None:
            return None
        if self.access == Access.INVITE:
            return Refusal(f"Table {self.id} is private: its players invite whom they want")
        return Refusal(f"Table {self.id} is private: press g and type its code (its creator has it)")

    def may_watch(self, person: PersonId) -> Refusal | None:
        """Why ``person`` may not watch this table, or None (its people always may)."""
        if self.watchable or person == self.creator or person in self.allowed:
            return None
        if self.seat_of(person) is not None or any(c.person == person for _, c in self.pending.values()):
            return None
        return Refusal(f"Table {self.id} is not watched: its creator chose so")

    def dismiss(self, person: PersonId, seat: int) -> tuple[Refusal | None, Claim | None]:
        """The creator (``person``) asks the person in ``seat`` of this forming table to leave:
        (why not; the claim that went)."""
        if person != self.creator:
            return Refusal(f"Only {self.creator_name()}, who created table {self.id}, may ask somebody to leave it"), None
        if self.table is not None:
            return Refusal("The table has started: everybody keeps their seat"), None
        if not 0 <= seat < self.players:
            return Refusal(f"This table has seats 1 to {self.players}"), None
        c = self.claims[seat]
        if c is None:
            return Refusal(f"Nobody sits in seat {seat + 1}"), None
        if c.person == person:
            return Refusal("That is your own seat: press u to stand up"), None
        self.claims[seat] = None
        self.allowed.discard(c.person)
        self.touched = time.monotonic()
        return None, c

    # ------------------------------------------------------------------ forming
    def claim(self, client: Client, seat: int) -> Refusal | None:
        ident = client.identity
        if self.claims[seat] is not None:
            c = self.claims[seat]
            return Refusal("That is your seat already" if c is not None and c.person == ident.person else
                           f"{c.name if c else 'Somebody'} sits there")
        old = self.seat_of(ident.person)
        if old is not None:
            self.claims[old] = None
        self.claims[seat] = Claim(ident.person, ident.label)
        self.touched = time.monotonic()
        return None

    def stand(self, person: PersonId, keep_creator: bool = False) -> bool:
        """``person`` gives up their claim.  The creator standing up on purpose
        (``keep_creator``) still starts the table: a table of computers only, to watch."""
        seat = self.seat_of(person)
        if seat is None or self.table is not None:
            return False
        self.claims[seat] = None
        self.touched = time.monotonic()
        if person == self.creator and not keep_creator:
            # Whoever sits next in line may start the table now.
            nxt = next((c for c in self.claims if c is not None), None)
            if nxt is not None:
                self.creator = nxt.person
        return True

    def empty(self) -> bool:
        return all(c is None for c in self.claims)

    # ------------------------------------------------------------------ playing
    def start(self, executor: Executor) -> None:
        """Deal: claimed seats to their players, the others to computers."""
        config = self.registry.config
        seats = [Seat(REMOTE, c.name, self.level, str(c.person)) if c is not None else Seat(COMPUTER, "", self.level)
                 for c in self.claims]
        # (a random part: servers sharing one people database number their tables alike, and a match
        # is recorded once per game id; two tables 1 started in one second were one match there)
        self.game_id = f"server-{time.strftime('%Y%m%dT%H%M%S')}-{self.id}-{secrets.token_hex(4)}"
        table = Table(self.rules, seats, self.seed, delay_ms=config.delay_ms, game_id=self.game_id)
        self.attach(table, executor)

    def attach(self, table: Table, executor: Executor) -> None:
        """Drive ``table`` from now on: autosave, statistics, the lobby told, the computers run."""
        self.table = table
        self.stats = StatsRecording()
        self.turn_at = _turn_of(table)
        table.add_observer(self._observe)
        self.update_hold()
        self.registry.store.save(self.id, table.match, self.meta())
        self.task = asyncio.get_running_loop().create_task(self._drive(table, executor))

    async def _drive(self, table: Table, executor: Executor) -> None:
        try:
            await table.run(executor, self.registry.thinking)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %d stopped", self.id)
            table.say("", "This table stopped because of an error in the server; it is saved.")

    def meta(self) -> dict[str, Any]:
        """What the save records besides the game: seats (with who plays them) and the table's settings."""
        assert self.table is not None
        t = self.table
        return table_meta(t) | {
            "seats": ["remote" if s.kind == REMOTE else "computer" for s in t.seats],
            "game_id": self.game_id,
            "server": {"table": self.id, "level": self.level, "creator": person_text(self.creator),
                       "rated": self.rated,
                       "turn_timer": self.turn_timer,
                       "keys": [s.key for s in t.seats], "seen": self.seen_positions(),
                       "turns": {k: list(v) for k, v in self.turns.items()}, "late": sorted(self.late),
                       **({"forfeit": {"by": self.forfeited, "winner": self.forfeit_winner}} if self.forfeited else {}),
                       "visited": round(time.time() if self.present() else self.visited),
                       **self.private_data()},
        }

    def private_data(self) -> dict[str, Any]:
        """Who may sit and watch, as a table's file (and the forming tables' file) keeps it."""
        return {"access": self.access.value, "code": self.code, "listed": self.listed,
                "watchable": self.watchable, "allowed": sorted(str(a) for a in self.allowed)}

    def take_private(self, data: Mapping[str, object]) -> None:
        """Who may sit and watch, as :meth:`private_data` wrote it (a file from before private
        tables: an open table)."""
        access = saved_text(data.get("access"))
        self.access = Access(access) if access in set(Access) else Access.OPEN
        self.code = code_key(saved_text(data.get("code")))[:CODE_LENGTH] if self.access == Access.CODE else ""
        self.listed = data.get("listed") is not False
        self.watchable = data.get("watchable") is not False
        allowed = data.get("allowed")
        people = (PersonId.read(a) for a in allowed) if isinstance(allowed, list) else ()
        self.allowed = {a for a in people if a is not None}

    def take_turns(self, data: Mapping[str, object], keys: set[str]) -> None:
        """Who of the seats' people (``keys``) played how many turns, and who sat down late, as
        :meth:`meta` wrote them (a file from before they were counted: nobody has played any yet)."""
        turns = data.get("turns")
        if isinstance(turns, dict):
            self.turns = {k: [int(v[0]), int(v[1])] for k, v in turns.items()
                          if k in keys and isinstance(v, list) and len(v) == 2
                          and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 1 << 20 for x in v)}
        late = data.get("late")
        self.late = {k for k in late if k in keys} if isinstance(late, list) else set()

    def seen_positions(self) -> dict[str, list[int]]:
        """Per identity of a seat: how far they have seen the table's events, as [hand, events of
        that hand] (a restarted table has only its current hand's events, numbered afresh).  A player
        at the table has seen everything its screen shows; one away, what it showed when they left."""
        assert self.table is not None
        events = self.table.events
        seen = dict(self.left_at)
        for client, _ in self.links.values():
            seen[str(client.identity.person)] = len(events)
        return {key: list(seen_position(events, n)) for key, n in seen.items()}

    def _count_turn(self, table: Table) -> None:
        """A move was played: if it ended the turn under way, that turn counts for the seat's person
        as theirs, or as a computer's if a computer played it for them (away, or out of time)."""
        now = _turn_of(table)
        if self.turn_at is not None and now != self.turn_at:
            s = table.seats[self.turn_at[2]]
            if s.key:
                self.turns.setdefault(s.key, [0, 0])[0 if s.kind == REMOTE else 1] += 1
        self.turn_at = now

    def _observe(self, table: Table, what: Change) -> None:
        if what == Change.ACTION:
            self._count_turn(table)
        elif what in (Change.DEAL, Change.LOAD):
            self.turn_at = _turn_of(table)
        if what in (Change.ACTION, Change.DEAL, Change.SEATS, Change.LOAD):
            self.registry.store.save(self.id, table.match, self.meta())
        if what == Change.DEAL:
            self._seat_claims()
            self.registry.changed()
        elif what == Change.ACTION and table.match.state.phase == Phase.HAND_OVER:
            self.registry.changed()
        if table.match.winner is not None and self.stats is not None and what == Change.ACTION:
            self._record(table)
        if table.match.winner is not None and self.again is None:
            self._stop_forfeits()
            self._open_again()
        if what in (Change.ACTION, Change.DEAL, Change.SEATS, Change.LOAD):
            self.time_turn()

    # ------------------------------------------------------------------ the turn timer
    def time_turn(self) -> None:
        """Time the turn of the human to act now (a table with a turn timer, a player at their
        screen); a computer that stood in for one turn gives the seat back once that turn is over.

        The timer runs also while the player answers their partner's "may I go out?" (the
        partner waits just as much), and whatever dialog their own screen shows: the server
        cannot tell a player reading the help from one who walked away, and the others wait
        the same.  It does not run at the end of a hand (each player's Enter deals the next)."""
        t = self.table
        if t is None:
            return
        m = t.match
        s = m.state
        over = s.phase == Phase.HAND_OVER or m.winner is not None or t.closed
        if self.standing_in is not None and (over or s.actor != self.standing_in):
            seat, self.standing_in = self.standing_in, None
            cur = t.seats[seat]
            if cur.kind == COMPUTER and cur.key and seat in self.links:
                t.set_seat(seat, cur.with_(kind=REMOTE))      # (that change times the next turn)
                return
        timed: tuple[int, int] | None = None
        if self.turn_timer > 0 and not over and t.seats[s.actor].kind == REMOTE and s.actor in self.links:
            timed = (s.actor, m.hand_number)
        if timed is not None and timed == self.timed:
            return
        self._stop_turn()
        self.timed = timed
        if timed is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        lead = min(TURN_WARNING, self.turn_timer / 3)
        self.turn_timers = [loop.call_later(self.turn_timer - lead, self._warn_turn, timed, lead),
                            loop.call_later(self.turn_timer, self._turn_out, timed)]

    def _stop_turn(self) -> None:
        for h in self.turn_timers:
            h.cancel()
        self.turn_timers = []
        self.timed = None

    def _warn_turn(self, timed: tuple[int, int], lead: float) -> None:
        entry = self.links.get(timed[0])
        if self.timed != timed or entry is None:
            return
        entry[0].warn(f"{lead:.0f} s left: then a computer plays this turn for you (you keep your seat)")

    def _turn_out(self, timed: tuple[int, int]) -> None:
        """The timed player's time is up: a computer plays this turn, and gives the seat back after it."""
        t = self.table
        if self.timed != timed or t is None:
            return
        seat = timed[0]
        self.turn_timers = []
        self.timed = None
        s = t.seats[seat]
        if t.match.state.actor != seat or s.kind != REMOTE or t.match.state.phase == Phase.HAND_OVER:
            return
        self.standing_in = seat
        log.info("table %d: %s's time ran out (seat %d, %s)", self.id, printable(s.name), seat + 1,
                 timer_text(self.turn_timer))
        t.set_seat(seat, s.with_(kind=COMPUTER))
        t.say("", f"{s.name}'s time ran out: a computer plays this turn for them")
        entry = self.links.get(seat)
        if entry is not None:
            entry[0].notify("Your time ran out: a computer plays this turn for you; the next one is yours")
        self.registry.changed()

    # ------------------------------------------------------------------ play again
    def _open_again(self) -> None:
        """The match is over: every human at the table is asked to play again with the same people;
        those away count as no (a computer takes their seat), and so does an answer not given within
        ``rematch_answer`` seconds (the question counts down)."""
        assert self.table is not None
        self.again = {s.key: False for i, s in enumerate(self.table.seats) if s.key and i not in self.links}
        self._settle_again()
        if self._unanswered():
            # Each player's countdown waits until they see the question (the last hand's score and
            # its review come first), up to this.
            self.again_until = time.monotonic() + self.registry.config.rematch_answer
            self._again_step()

    def _player_names(self) -> dict[str, str]:
        """The match's players (identity -> the seat's name in this match, whatever name they
        connected under since)."""
        assert self.table is not None
        return {s.key: s.name for s in self.table.seats if s.key}

    def _unanswered(self) -> list[str]:
        """The players who have not answered "play again?" while it is asked."""
        if self.table is None or self.again is None or self.again_at is not None:
            return []
        return [s.key for s in self.table.seats if s.key and s.key not in self.again]

    def saw_again(self, person: PersonId) -> None:
        """``person``'s screen shows "play again?": their time to answer starts now (once)."""
        key = str(person)          # (the answers are kept by the seats' people, as the seats write them)
        if key in self.again_seen or key not in self._unanswered():
            return
        self.again_seen[key] = time.monotonic()
        self._stop_again()
        self._again_step()

    def _again_deadline(self, key: str) -> float:
        """When ``key``'s time to answer runs out: ``rematch_answer`` after they first saw the
        question, or after ``again_until`` when they had not seen it by then."""
        start = min(self.again_seen.get(key, self.again_until), self.again_until)
        return start + self.registry.config.rematch_answer

    def asks_again(self, person: PersonId) -> bool:
        """Whether "play again?" still waits for ``person``'s answer (false once it was given, or
        its time ran out)."""
        return str(person) in self._unanswered()

    def again_left(self, key: str) -> int:
        """Whole seconds ``key`` has left to answer "play again?" (0: no time, or not asked)."""
        if key not in self._unanswered():
            return 0
        return max(0, math.ceil(self._again_deadline(key) - time.monotonic()))

    def _again_step(self) -> None:
        """The countdown moved on: the players' screens show it; at the end, who has not answered
        says no."""
        self.again_timer = None
        if not self._unanswered() or self.table is None:
            return
        now = time.monotonic()
        late = [k for k in self._unanswered() if self._again_deadline(k) <= now]
        if late:
            self._again_ran_out(late)
        waiting = self._unanswered()
        if not waiting:
            return
        self.table.remind()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:                    # (no loop: a test of the registry alone)
            return
        # To the next whole step of someone's countdown (60, 55, 50 ... s left), or to its end.
        step = min((self._again_deadline(k) - now) % AGAIN_STEP or AGAIN_STEP for k in waiting)
        self.again_timer = loop.call_later(step, self._again_step)

    def _again_ran_out(self, late: list[str]) -> None:
        """The time to answer ran out for ``late``: they did not answer, and do not play again."""
        assert self.table is not None and self.again is not None
        names = self._player_names()
        for k in late:
            self.again[k] = False
        self.again_late.update(late)
        who = ", ".join(printable(names[k]) for k in late)
        log.info("table %d: %s did not answer 'play again?' within %s", self.id, who,
                 _seconds(self.registry.config.rematch_answer))
        self.table.say("", f"{who} did not answer in time: {'does' if len(late) == 1 else 'do'} not play again")
        self._settle_again()
        self.registry.changed()

    def _stop_again(self) -> None:
        if self.again_timer is not None:
            self.again_timer.cancel()
            self.again_timer = None

    def again_status(self) -> str:
        """Who has not answered yet, and who plays again, for the players' box."""
        if self.table is None or self.again is None:
            return ""
        if self.again_at is not None:
            return f"The new match is at table {self.again_at}"
        names = self._player_names()
        yes = [names[k] for k, v in self.again.items() if v and k in names]
        waiting = [f"{n}: {self.again_left(k)} s left" for k, n in names.items() if k not in self.again]
        out = f"Playing again: {', '.join(yes) or 'nobody yet'}"
        if waiting:
            return out + f". Waiting for {', '.join(waiting)} (no answer is a no)"
        late = [names[k] for k in self.again_late if k in names]
        return out + (f". {', '.join(late)} did not answer in time" if late else "")

    def answer_again(self, client: Client, yes: bool) -> Refusal | None:
        """``client``, a player of this finished match, answers "play again?" (why not, or None)."""
        key = str(client.identity.person)
        if self.again is None or self.table is None:
            return Refusal("The match is not over")
        if self.seat_of(client.identity.person) is None:
            return Refusal("Only the match's players are asked")
        if key in self.again_late:
            return Refusal("Too late: the time to answer ran out, and no answer is a no")
        if self.again_at is not None or key in self.again:
            return Refusal("You have answered")
        self.again[key] = yes
        self.table.say("", f"{self._player_names()[key]} {'plays again' if yes else 'does not play again'}")
        self._settle_again()
        self.registry.changed()
        return None

    def _settle_again(self) -> None:
        """Everybody answered: those who said yes play a new match (:meth:`Registry.rematch`)."""
        if self.table is None or self.again is None or self.again_at is not None:
            return
        keys = [s.key for s in self.table.seats if s.key]
        if any(k not in self.again for k in keys):
            return
        self._stop_again()
        yes = [i for i, s in enumerate(self.table.seats) if s.key and self.again.get(s.key)]
        if yes:
            self.again_at = self.registry.rematch(self, yes)

    def _record(self, table: Table) -> None:
        stats, self.stats = self.stats, None
        humans = {i: s.name for i, s in enumerate(table.seats) if s.key}
        if stats is None:
            return
        self.registry.club.record_result(self, table)
        if not humans or self.forfeited:
            return
        level = self.level if any(s.kind == COMPUTER for s in table.seats) else "humans"
        stats.start(table.match, humans, level, self.game_id)
        self.registry.recordings.append(stats)

    def _seat_claims(self) -> None:
        """The deal: people who claimed a computer's seat sit down now."""
        assert self.table is not None
        pending, self.pending = self.pending, {}
        for seat, (client, claim) in pending.items():
            s = self.table.seats[seat]
            if s.kind != COMPUTER:
                continue
            self.table.set_seat(seat, Seat(REMOTE, claim.name, self.level, str(claim.person)))
            self.late.add(str(claim.person))
            self.table.say("", f"{claim.name} sits down as Player {seat + 1}")
            client.moved(Destination(self.id, seat))

    def enter(self, client: Client, seat: int) -> tuple[Link, list[str]]:
        """``client`` takes their seat (a computer standing in for them gives it back at once): their
        link, and what happened since they left (empty if nothing, or the first time)."""
        assert self.table is not None
        table = self.table
        ident = client.identity
        key = str(ident.person)           # (as the table's seats and its save keep the person)
        s = table.seats[seat]
        old = self.links.pop(seat, None)
        if old is not None:
            old[1].close()
        timer = self.timers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        forfeit = self.forfeit_timers.pop(key, None)
        if forfeit is not None:
            forfeit.cancel()
        self.pending.pop(seat, None)
        self.visited = time.time()
        back = key in self.left_at
        played_for = s.kind == COMPUTER      # a computer played this seat while its player was away
        if self.standing_in == seat:
            self.standing_in = None
        # The seat keeps the name it has in this match (a key may reserve several names).
        name = s.name
        if s.kind == COMPUTER:
            table.set_seat(seat, Seat(REMOTE, name, self.level, key))
        if back and old is None:
            table.say("", f"{name} is back" if ident.label == name else f"{name} is back (as {ident.label})")
        link = Link(table, (seat,), client, chat=lambda text: reason(self.registry.say_at(self, client, text)))
        self.links[seat] = (client, link)
        since = self.left_at.pop(key, None)
        lines: list[str] = []
        if since is not None:
            events = table.events[since:] if since <= len(table.events) else table.events
            # What the computer did in this seat is news to its player too.
            lines = recap(events, table.name, skip=-1 if played_for else seat)
            if len(lines) > CATCH_UP_LINES:
                lines = ["…", *lines[-CATCH_UP_LINES:]]
        self.update_hold()
        self.time_turn()
        self.registry.changed()
        return link, lines

    def leave(self, client: Client, seat: int, dropped: bool) -> str:
        """``client`` left ``seat``: on purpose (a computer plays it until they come back), or the
        connection dropped (the seat waits ``takeover`` seconds first).  A rated match is lost by
        their side if they are not back within ``forfeit_after``.  What the player is told."""
        entry = self.links.get(seat)
        if entry is None or entry[0] is not client or self.table is None:
            return ""
        del self.links[seat]
        entry[1].close()
        self.visited = time.time()
        table = self.table
        name = table.seats[seat].name
        self.left_at[str(client.identity.person)] = len(table.events)
        if self.standing_in == seat:          # (the computer that stood in for one turn stays)
            self.standing_in = None
            table.set_seat(seat, table.seats[seat].with_(kind=REMOTE))
        if self.state == OVER and self.again is not None:
            self.again.setdefault(str(client.identity.person), False)      # leaving is a no
            self._settle_again()
        note = ""
        if self.state == PLAYING:
            wait = self.registry.config.takeover
            if dropped and wait > 0:
                self.timers[seat] = asyncio.get_running_loop().call_later(wait, self.take_over, seat)
                table.say("", f"{name} disconnected: a computer takes over in {_seconds(wait)}")
            else:
                self.take_over(seat, "left the table: a computer plays for them until they come back")
            if self._start_forfeit(seat):
                grace = span(self.registry.config.forfeit_after)
                side = self.side_names(team(seat, self.rules))
                table.say("", f"{name} left this rated match: if they are not back within {grace}, "
                              f"{side} {'lose' if ' & ' in side else 'loses'} it by forfeit")
                note = (f"You left the rated match at table {self.id}: come back within {grace} "
                        "(press Enter on it), or your side loses it by forfeit")
        self.update_hold()
        self.time_turn()
        self.registry.changed()
        return note

    # ------------------------------------------------------------------ forfeits
    def _start_forfeit(self, seat: int) -> bool:
        """The person of ``seat`` is away from a rated match: their side loses it unless they are back
        within ``forfeit_after`` (a match nobody plays is never left waiting for ever).  Whether the
        clock started now."""
        t = self.table
        if not self.rated or t is None or self.state != PLAYING:
            return False
        key = t.seats[seat].key
        if not key or key in self.forfeit_timers:
            return False
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:                    # (no loop: a test of the registry alone)
            return False
        self.forfeit_timers[key] = loop.call_later(self.registry.config.forfeit_after, self.forfeit, key)
        return True

    def side_names(self, side: int) -> str:
        """The players of ``side`` by name, as the table names them ("alice & Player 3")."""
        if self.table is None:
            return team_name(side, self.rules)
        return side_name(side, self.rules, [self.table.name(s) for s in range(self.players)])

    def _stop_forfeits(self) -> None:
        for h in self.forfeit_timers.values():
            h.cancel()
        self.forfeit_timers.clear()

    def forfeit(self, key: str) -> None:
        """``key`` did not come back to the rated match in time: their side loses it, and the match is
        over (recorded and rated: :func:`~.people.assess`).  Everybody at the table is told; they
        leave it when they like."""
        self.forfeit_timers.pop(key, None)
        t = self.table
        if t is None or self.state != PLAYING or self.registry.closing:
            return
        seat = next((i for i, s in enumerate(t.seats) if s.key == key), None)
        if seat is None or seat in self.links:
            return
        rules = self.rules
        lost = team(seat, rules)
        scores = t.match.scores
        self.forfeit_winner = max((x for x in range(rules.teams) if x != lost), key=lambda x: scores[x])
        self.forfeited = key
        self.forfeit_left = {s.key for i, s in enumerate(t.seats)
                             if s.key and team(i, rules) == lost and i not in self.links}
        self._stop_forfeits()
        self._stop_turn()
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()
        name = t.seats[seat].name
        losers, winners = self.side_names(lost), self.side_names(self.forfeit_winner)
        text = (f"{name} did not come back within {span(self.registry.config.forfeit_after)}: {losers} "
                f"{'lose' if ' & ' in losers else 'loses'} this rated match by forfeit, {winners} "
                f"{'win' if ' & ' in winners else 'wins'} it")
        log.info("table %d: %s", self.id, printable(text))
        t.say("", text + ". The match is over: q leaves the table")
        self.registry.store.save(self.id, t.match, self.meta())
        self._record(t)
        t.close()                                   # no move more, by anybody
        for client, _ in self.links.values():
            client.notify(text + ". The match is over: q leaves the table")
        for client in self.watchers:
            client.notify(text)
        person = PersonId.read(key)
        gone = self.registry.clients.get(person) if person is not None else None   # (the leaver, if still here)
        if gone is not None:
            gone.notify(f"Your side lost the rated match at table {self.id} by forfeit: you did not come back "
                        f"within {span(self.registry.config.forfeit_after)}")
        self.registry.changed()
        self.registry.drop_if_over(self)

    def take_over(self, seat: int, why: str = "") -> None:
        """A computer plays ``seat`` (its player is remembered, and gets it back on return)."""
        self.timers.pop(seat, None)
        if self.table is None or seat in self.links or self.state != PLAYING:
            return
        s = self.table.seats[seat]
        if s.kind != REMOTE:
            return
        self.table.set_seat(seat, s.with_(kind=COMPUTER))
        self.table.say("", f"{s.name} {why}" if why else f"A computer plays for {s.name} until they come back")
        self.registry.changed()

    def wait_for_all(self, catch_up: bool = True) -> None:
        """Every human's seat with nobody in it waits for its player as after a disconnect (after a
        restart; and at the start, until each player's screen has sat down)."""
        assert self.table is not None
        wait = self.registry.config.takeover
        for seat, s in enumerate(self.table.seats):
            if s.kind == REMOTE and seat not in self.links and seat not in self.timers:
                if catch_up:
                    self.left_at.setdefault(s.key, 0)
                if wait > 0:
                    self.timers[seat] = asyncio.get_running_loop().call_later(wait, self.take_over, seat)
                else:
                    self.take_over(seat)
        for seat, s in enumerate(self.table.seats):
            if s.key and seat not in self.links:
                # A rated match: back in time, or the side loses it (also a seat a computer was
                # already playing for its person when the server stopped).
                self._start_forfeit(seat)

    def watch(self, client: Client) -> Link:
        assert self.table is not None
        old = self.watchers.pop(client, None)
        if old is not None:
            old.close()
        link = Link(self.table, (), client, attend=False,
                    chat=lambda text: reason(self.registry.say_at(self, client, text)))
        self.watchers[client] = link
        self.visited = time.time()
        self.update_hold()
        self.registry.changed()            # (the online list says who watches what)
        return link

    def unwatch(self, client: Client) -> None:
        link = self.watchers.pop(client, None)
        if link is not None:
            link.close()
            self.visited = time.time()
        for seat, (who, _) in list(self.pending.items()):
            if who is client:
                del self.pending[seat]
        self.update_hold()
        self.registry.changed()            # (the online list says who watches what)

    def update_hold(self) -> None:
        """The computers play only while somebody is at the table (a player, a spectator, a claim):
        a table everybody left waits for them, it is not played out by computers alone."""
        if self.table is None:
            return
        was = "nobody" in self.table.holds
        if self.links or self.watchers or self.pending:
            self.table.release("nobody")
        elif not was:
            # The last one left: the save says when (a table left alone for long is set aside).
            self.table.hold("nobody")
            self.registry.store.save(self.id, self.table.match, self.meta())
        if was != ("nobody" in self.table.holds):
            self.registry.changed()        # (the lobbies say whether anybody is there)

    def present(self) -> bool:
        return bool(self.links or self.watchers)

    def close(self) -> None:
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()
        self._stop_forfeits()
        self._stop_turn()
        self._stop_again()
        if self.table is not None:
            self.table.close()
        if self.task is not None:
            self.task.cancel()


def short_side(t: int, rules: Rules) -> str:
    """A side in few letters: ``1&3``, ``2&4``, or ``P2`` for a player alone."""
    if rules.partnerships:
        return "1&3" if t == 0 else "2&4"
    return f"P{t + 1}"


def _seconds(s: float) -> str:
    return f"{s:g} s"


def _turn_of(table: Table) -> tuple[int, int, int] | None:
    """The turn under way at ``table``: (hand, turn number, seat); None between hands."""
    m = table.match
    s = m.state
    if s.phase == Phase.HAND_OVER or m.winner is not None:
        return None
    return m.hand_number, s.turn_number, s.turn


def seen_position(events: Sequence[Event], n: int) -> tuple[int, int]:
    """Where the first ``n`` of ``events`` end, as (hand, how many of that hand's events)."""
    n = max(0, min(n, len(events)))
    if not events:
        return 0, 0
    if n == 0:
        return events[0].hand, 0
    hand = events[n - 1].hand
    return hand, sum(1 for e in events[:n] if e.hand == hand)


def seen_index(events: Sequence[Event], hand: int, count: int) -> int:
    """How many of ``events`` were seen by who saw ``count`` events of ``hand``: an earlier hand
    than the events hold means none of them."""
    first = next((i for i, e in enumerate(events) if e.hand == hand), None)
    if first is not None:
        return min(len(events), first + max(0, count))
    return 0 if not events or hand < events[0].hand else len(events)


def seen_from(value: object, events: Sequence[Event], keys: set[str]) -> dict[str, int]:
    """The saved ``seen`` positions of the seats' players, as counts of ``events`` (anything else
    in the file is left out: those players catch up from the deal, as before)."""
    out: dict[str, int] = {}
    if not isinstance(value, dict):
        return out
    for key, pos in value.items():
        if (key in keys and isinstance(pos, list) and len(pos) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) for x in pos)):
            out[key] = seen_index(events, pos[0], pos[1])
    return out


__all__ = ["FORMING", "LEVELS", "NOBODY_RATED", "OVER", "PLAYING", "Destination", "LobbyLine", "LobbyRow", "SeatInfo",
           "SeatState", "ServerTable", "TableRefused", "TableState", "seen_index", "seen_position"]
