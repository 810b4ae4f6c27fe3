"""The server's registry: every table, the connected people, and the lobby's chat.

The registry creates tables (:class:`~.tables.ServerTable`), seats people at them, starts them,
brings them back after a restart and sets aside those nobody visits; it admits connections
(each person once), keeps the lobby's chat and tells the lobbies when anything changed.

Tables cost the server memory, a file and time at every start, so they are bounded: one person
may have created ``tables_per_person`` tables that are not over, the server holds at most
``max_tables``; a table that never starts goes (:meth:`Registry.sweep`), and a started table
nobody has been at for ``set_aside_after`` seconds is set aside, its game kept in a file.

The registry holds three collaborators of their own modules: ``registry.club`` (:mod:`.club`: the
people store's side: records, the leaderboard, a person's options, shown ratings, a match's result),
``registry.invitations`` (:mod:`.invitations`) and ``registry.forming`` (:mod:`.forming`: the tables
not started yet, kept across a restart, and a seat's :class:`Claim`); they know the registry and its tables by
protocols, so no server module imports another in a circle.

Everything here runs on the event loop's thread.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import math
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from concurrent.futures import Executor
from typing import TYPE_CHECKING

from ...engine import Rules
from ...lobbyview import (
    Access,
    Destination,
    LobbyLine,
    PersonRow,
    TableSettings,
)
from ...persistence.recording import StatsRecording
from ...table import COMPUTER, REMOTE, Seat, Table
from ...table.table import ThinkingShare
from ...text import printable, span
from ..club.people import (
    PEOPLE_FILE,
    ChatLine,
    Game,
    NameRow,
    PeopleStore,
    RatingRules,
    SqlitePeopleStore,
    StoreError,
    game_of,
)
from ..club.results import Club
from ..club.writer import WAITS, KeptStore, QueuedPeople, SharedLobby
from ..config import ConfigError, ServerConfig
from ..door.auth import GUEST_MARK, GuessThrottle, Identity, guest_identity, place
from ..door.names import NameBook, NameRefused, skeleton
from ..person import PersonId, Refusal, RefusalKind, person_text, reason
from ..tables.server_table import (
    EXPERT_LEAST,
    FORMING,
    LOBBY_CHAT_KEEP,
    NOBODY_RATED,
    OVER,
    PLAYING,
    TURN_TIMERS,
    VERIFIED,
    LobbyRow,
    ServerTable,
    TableRefused,
    code_key,
    seen_from,
    table_code,
    timer_text,
    turn_timers,
)
from ..tables.store import StoredTable, TableStore
from .connected import Client, Room
from .forming import Claim, FormingTables, saved_column, saved_person, saved_text, tell_left
from .friends import NOTE_WINDOW, NOTES_PER_WINDOW, Friends
from .invitations import Invitations

if TYPE_CHECKING:
    from ..cluster.presence import Here, Presence

log = logging.getLogger("canasta.server")


class ChatLimit:
    """At most ``lines`` lines per ``window`` seconds per player."""

    def __init__(self, lines: int, window: float, clock: Callable[[], float] = time.monotonic,
                 what: str = "lines") -> None:
        self.lines, self.window, self.clock, self.what = lines, window, clock, what
        self._said: dict[Hashable, collections.deque[float]] = {}

    def check(self, who: Hashable) -> Refusal | None:
        """Why ``who`` may not say a line now (too many too fast), or None (and the line counts)."""
        now = self.clock()
        q = self._said.setdefault(who, collections.deque())
        while q and now - q[0] >= self.window:
            q.popleft()
        if len(q) >= self.lines:
            wait = self.window - (now - q[0])
            return Refusal(f"Not so fast: {self.lines} {self.what} per {self.window:g} s (wait {max(1, round(wait))} s)",
                           RefusalKind.SLOW_DOWN)
        q.append(now)
        return None


class Registry:
    """Every table of the server, the connected people, and the lobby's chat."""

    def __init__(self, config: ServerConfig, store: TableStore, executor: Executor,
                 people: PeopleStore | None = None, shortest_turn: int = TURN_TIMERS[1]) -> None:
        self.config = config
        #: The turn timer's choices (seconds; 0: none); only tests make the shortest one shorter.
        self.turn_timers = turn_timers(shortest_turn)
        #: The server is stopping: its people leave, but their seats at forming tables stay (kept).
        self.closing = False
        self.store = store
        self.executor = executor
        #: The Experts' share of the workers: every table's computers keep moving (ThinkingShare).
        self.thinking = ThinkingShare(config.workers, config.expert_budget, min(EXPERT_LEAST, config.expert_budget))
        self.tables: dict[int, ServerTable] = {}
        self.clients: dict[PersonId, Client] = {}      # a person -> their one live connection
        try:
            self._loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            self._loop = None
        if people is None:
            # Writes go to the store's own thread, queued and batched: never on the loop (:mod:`.writer`).
            people = QueuedPeople(open_store(config), on_trouble=self._writes_wait)
            people.writer.on_name_held = self._name_held
        #: The people and records (:mod:`.people`): names, ratings, histories, options, bans, chat.
        self.people: PeopleStore = people
        #: The store's file was damaged and set aside at start: what the log said ("" if not).
        self.people_problem = people.problem if isinstance(people, QueuedPeople) else ""
        #: The people store's side: records, the leaderboard, options, shown ratings, results.
        self.club = Club(people, store)
        #: Invitations to a table's free seat, kept in the people store until answered.
        self.invitations = Invitations(self)
        #: The tables not started yet, kept across a restart (``tables/forming.json``).
        self.forming = FormingTables(self)
        #: Friends, muted people and notes left for a person (issue 34).
        notes_pace = ChatLimit(NOTES_PER_WINDOW, NOTE_WINDOW, what="notes")
        self.friends = Friends(self, lambda who: reason(notes_pace.check(who)))
        self.chat: list[LobbyLine] = [LobbyLine(c.who, c.text, c.verified, c.key) for c in self._last_chat()]
        self.limit = ChatLimit(config.chat_lines, config.chat_window)
        self.recordings: list[StatsRecording] = []
        shared = people if isinstance(people, QueuedPeople) and people.shared else None
        self.names = NameBook(config.home / NAMES_FILE, store=self.people,
                              reserve=shared.reserve if shared is not None else None)
        skeleton("")           # the confusables are read now, not at the first login (0.1 s)
        #: Wrong seat and table codes cost time, per place typing them (as wrong passwords do).
        self.codes = GuessThrottle()
        self.next_id = 1
        #: A cluster's owner takes new tables' numbers from the room's database (every owner's
        #: are different); None: this server numbers them (:attr:`next_id`).
        self.ids: Callable[[], int] | None = None
        #: A cluster's front: the room's other nodes, whose tables its lobby shows (None: one process).
        self.room: Room | None = None
        #: The address each table a guest created was created from (guests are bounded by address).
        self.created_from: dict[int, str] = {}
        self._listeners: list[Callable[[], None]] = []
        #: Changes told to the listeners so far; the lobby's rows as of one of them.
        self.generation = 0
        self._rows: tuple[int, list[LobbyRow]] = (-1, [])
        self._online: tuple[int, list[PersonRow]] = (-1, [])
        #: A front of a cluster: who is online at every front (:meth:`use_presence`).
        self.presence: Presence | None = None

    def _writes_wait(self, people: frozenset[PersonId]) -> None:
        """On the store's writer thread: the changes of ``people`` wait (the store cannot be written);
        each of them is told, on the loop's thread."""
        def tell() -> None:
            for person in people:
                who = self.clients.get(person)
                if who is not None:
                    who.notify(WAITS)
        if self._loop is None:
            tell()
        else:
            with contextlib.suppress(RuntimeError):      # (the loop has closed)
                self._loop.call_soon_threadsafe(tell)

    def _name_held(self, row: NameRow, why: str) -> None:
        """On the writer's thread: the shared store found a name this process let in another key's
        (another process reserved it first): it goes from the book, and whoever uses it here is told."""
        def drop() -> None:
            if not self.names.held_elsewhere(row):
                return
            for c in list(self.clients.values()):
                ident = c.identity
                if ident.verified and ident.fingerprint == row.fingerprint and skeleton(ident.name) == row.skeleton:
                    c.kick(f"Not let in: {why}")
        if self._loop is None:
            drop()
        else:
            with contextlib.suppress(RuntimeError):      # (the loop has closed)
                self._loop.call_soon_threadsafe(drop)

    async def confirm(self, client: Client) -> Refusal | None:
        """After :meth:`admit`, with a store shared by several processes: the name a key reserved is
        written there before the person comes in; why not (another process's key has it), or None."""
        ident = client.identity
        if not ident.verified:
            return None
        why = await self.names.confirm(ident.name, ident.fingerprint)
        return Refusal(f"Not let in: {why}") if why else None

    def shared_lobby(self) -> SharedLobby | None:
        """On a thread: the lobby's chat and invitations as a shared store holds them (None: no shared store)."""
        people = self.people
        return people.read_shared() if isinstance(people, QueuedPeople) and people.shared else None

    def lobby_read_again(self, read: SharedLobby | None) -> None:
        """What :meth:`shared_lobby` read (another process said in the lobby): the chat as the store
        holds it, for every lobby here."""
        people = self.people
        if read is None or not isinstance(people, QueuedPeople):
            return
        people.take_shared(read)
        chat = [LobbyLine(c.who, c.text, c.verified, c.key) for c in people.last_chat(LOBBY_CHAT_KEEP)]
        if chat != self.chat:
            self.chat = chat
            self.changed()

    # ------------------------------------------------------------------ listeners (lobby screens)
    def subscribe(self, fn: Callable[[], None]) -> None:
        self._listeners.append(fn)

    def unsubscribe(self, fn: Callable[[], None]) -> None:
        if fn in self._listeners:
            self._listeners.remove(fn)

    def changed(self) -> None:
        if self.presence is not None:
            self.presence.changed()
        self.generation += 1
        self.forming.keep()
        for fn in list(self._listeners):
            fn()

    def bring_back(self, table_id: int, rules: Rules, level: str, creator: PersonId, seed: int | None, rated: bool,
                   turn_timer: float, claims: list[Claim | None], private: Mapping[str, object], kept_until: float,
                   age: float = 0.0) -> None:
        """A forming table an earlier run kept is here again (:meth:`.forming.FormingTables.restore`);
        its seats last changed ``age`` seconds ago (the forming timeout counts from then)."""
        st = ServerTable(self, table_id, rules, level, creator, seed, rated=rated, turn_timer=turn_timer)
        st.claims = claims
        st.take_private(private)
        st.kept_until = kept_until
        st.touched = time.monotonic() - age
        self.tables[table_id] = st
        self.next_id = max(self.next_id, table_id + 1)

    # ------------------------------------------------------------------ restart
    def restore(self, stored: list[StoredTable], next_id: int) -> None:
        """Bring back the tables saved by an earlier run (their humans' seats wait for them)."""
        self.next_id = max(self.next_id, next_id)
        for item in stored:
            try:
                self._restore(item)
            except Exception as exc:      # one bad table must not keep the others (or the server) down
                self.tables.pop(item.id, None)
                log.warning("table %d could not be brought back (%s: %s); its file is left as it is",
                            item.id, type(exc).__name__, printable(str(exc)))
        self.forming.restore(self.store.load_forming())
        self.sweep()
        self.invitations.close_gone()
        if len(self.tables) > self.config.max_tables:
            # Every saved game comes back, even over the limit: nobody's table is lost to a setting.
            log.warning("%d tables came back, more than the server's most (%d): no table can be created "
                        "until some are over", len(self.tables), self.config.max_tables)

    def take_back(self, item: StoredTable) -> None:
        """A started table this server had lost (its database connection) and has taken again
        (``tables/pgstore.py``): served again from its last committed save, its people's seats
        waiting for them as after a restart."""
        if item.id in self.tables:
            return
        try:
            self._restore(item)
        except Exception as exc:
            self.tables.pop(item.id, None)
            log.warning("table %d could not be taken back (%s: %s)", item.id, type(exc).__name__, printable(str(exc)))
            return
        self.next_id = max(self.next_id, item.id + 1)
        log.info("table %d is served again", item.id)
        self.changed()

    def take_forming(self, data: object) -> None:
        """The forming tables of an owner gone (its name's lock was free: ``cluster/ownership.py``)
        are this server's now: the same seats, options and creator, kept as its own from now on;
        their people, still connected at their fronts, act on them here."""
        before = set(self.tables)
        self.forming.restore(data, taken=True)
        if set(self.tables) - before:
            self.changed()

    def lost_forming(self, why: str) -> None:
        """The forming tables are no longer this server's (its database session was lost: another
        owner may take them): they go from here at once, and nothing of them is written from here."""
        gone = [st for st in self.tables.values() if st.state == FORMING]
        for st in gone:
            self.tables.pop(st.id, None)
            self.invitations.forget(st.id)
        if gone:
            log.warning("tables %s, not started, are no longer served here: %s",
                        ", ".join(str(st.id) for st in gone), printable(why))
        self.forming.forget()
        self.changed()

    def lost(self, table_id: int, why: str) -> None:
        """A table that is no longer this server's (``tables/pgstore.py``: its database connection
        lost, or another owner took it) stops at once: nothing of it is served nor written here."""
        st = self.tables.pop(table_id, None)
        if st is None:
            return
        st.close()
        self.invitations.forget(table_id)
        if st.table is not None:
            for s in st.table.seats:
                who = self._client_in(s)
                if who is not None:
                    who.notify(f"Table {table_id} stopped here ({why}): it is served again as soon as it can be")
        self.changed()

    def _restore(self, item: StoredTable) -> None:
        from ...ai import ALL_LEVELS

        game = item.game
        meta = game.meta
        server = meta.get("server")
        server = server if isinstance(server, dict) else {}
        if server.get("forfeit"):
            log.info("table %d ended by a forfeit: its record stays, for replays", item.id)
            return
        n = game.match.rules.players
        kinds = saved_column(meta.get("seats"), n)
        names = saved_column(meta.get("names"), n)
        keys = saved_column(server.get("keys"), n)
        level = saved_text(server.get("level"))
        level = level if level in ALL_LEVELS else "advanced"
        seats = []
        for i in range(n):
            person, name = saved_person(saved_text(keys[i])), printable(saved_text(names[i]))[:20]
            kind = REMOTE if kinds[i] == "remote" and person is not None else COMPUTER
            seats.append(Seat(kind, name, level, person_text(person)))
        seed = meta.get("seed")
        seed = seed if isinstance(seed, int) and not isinstance(seed, bool) else None
        timer = server.get("turn_timer")
        timer = float(timer) if isinstance(timer, int | float) and not isinstance(timer, bool) and timer > 0 else 0.0
        st = ServerTable(self, item.id, game.match.rules, level, saved_person(saved_text(server.get("creator"))), seed,
                         rated=server.get("rated") is True, turn_timer=timer)
        st.take_private(server)
        gid = meta.get("game_id")
        st.game_id = gid if isinstance(gid, str) and gid else f"server-{item.id}"
        table = Table(game.match.rules, seats, seed, match=game.match, delay_ms=self.config.delay_ms,
                      game_id=st.game_id)
        # The shuffles go on where they stopped: one per hand dealt so far.
        for _ in range(game.match.hand_number):
            table.shuffled_deck()
        st.claims = [None] * n
        st.left_at = seen_from(server.get("seen"), table.events, {s.key for s in seats if s.key})
        st.visited = _visited(server.get("visited"))
        st.take_turns(server, {s.key for s in seats if s.key})
        self.tables[item.id] = st
        st.attach(table, self.executor)
        st.wait_for_all()
        log.info("table %d is back: hand %d, %s", item.id, game.match.hand_number, st.score_text(str))

    # ------------------------------------------------------------------ people
    def admit(self, client: Client) -> Refusal | None:
        """May this person come in under their name?  Why not (None: they may).  A key reserves its
        name (or is refused one another key reserved); a guest may not use a reserved name; and
        nobody may use a name that looks like that of somebody else who is here or seated."""
        ident = client.identity
        mine = skeleton(ident.name)
        try:
            if ident.verified:
                self.names.check(ident.name, ident.fingerprint)
            else:
                self.names.guest_may_use(ident.name)
            for other, label in self._people():
                if other != ident.person and skeleton(label.removeprefix(GUEST_MARK)) == mine:
                    if other not in self.clients and label.startswith(GUEST_MARK) and not ident.verified:
                        # A dropped guest coming back by name alone: their seat wants its code.
                        return Refusal(f"Not let in: {label} holds a seat here, and the name {ident.name} looks the "
                                       f"same. If the seat is yours, come back with the code you were shown when "
                                       f"you sat down: ssh -l {ident.name}+CODE ... (else connect with another name)")
                    return Refusal(f"Not let in: somebody called {label} is here, and the name {ident.name} looks the "
                                   "same. Connect with another name: ssh -l NAME ...")
            for here in self.presence.others() if self.presence is not None else ():
                # (at another front of the room: as much here as anybody in this lobby)
                if here.key != str(ident.person) and skeleton(here.name.removeprefix(GUEST_MARK)) == mine:
                    return Refusal(f"Not let in: somebody called {here.name} is here, and the name {ident.name} "
                                   "looks the same. Connect with another name: ssh -l NAME ...")
            if ident.verified:
                # A place's daily bound on new names is against keys anybody can make (open or password
                # mode); every key an authorized_keys file lets in is one the host listed (a club's
                # evening, the serve bench's hundred players behind one address): no bound there.
                where = "" if self.config.authorized_keys else place(client.address)
                self.names.take(ident.name, ident.fingerprint, where)   # last: only a name let in
        except NameRefused as exc:
            return Refusal(f"Not let in: {exc}")
        return None

    def _people(self) -> list[tuple[PersonId, str]]:
        """Everybody who is here or holds a seat: (who they are, their name as shown)."""
        out = [(c.identity.person, c.identity.label) for c in self.clients.values()]
        for st in self.tables.values():
            if st.table is None:
                out += [(c.person, c.name) for c in st.claims if c is not None]
            else:
                seated = ((PersonId.read(s.key), s.name) for s in st.table.seats)
                out += [(p, name) for p, name in seated if p is not None and not p.is_legacy]
        return out

    def reclaim(self, client: Client, code: str) -> tuple[Refusal | None, Identity | None]:
        """A guest typed the code of a seat: (why not; or the guest identity that holds the seat)."""
        ident = client.identity
        if ident.verified:
            return Refusal("Your key is who you are here: your seats come back to you by themselves"), None
        wanted = guest_identity(ident.name, code).person
        for st in self.tables.values():
            seat = st.seat_of(wanted)
            if seat is not None and st.table is not None:
                return None, guest_identity(st.table.seats[seat].name.removeprefix(GUEST_MARK), code)
        return Refusal("No seat has that code"), None

    def guess_wait(self, client: Client) -> Refusal | None:
        """Why a guest may not try a code now (too many wrong ones), or None."""
        wait = self.codes.wait(*_code_guessers(client))
        if wait is None:
            return Refusal("Too many wrong codes from your address: try again in a quarter of an hour",
                           RefusalKind.SLOW_DOWN)
        if wait > 0:
            return Refusal(f"Wrong codes cost time: try again in {max(1, round(wait))} s", RefusalKind.SLOW_DOWN)
        return None

    def guess_failed(self, client: Client) -> None:
        self.codes.failed(*_code_guessers(client))
        log.warning("a wrong seat code typed by %s", client.identity.log_text())

    def rekey(self, client: Client, old: PersonId) -> None:
        """``client`` is now known by another key (a guest who typed their code)."""
        if self.clients.get(old) is client:
            del self.clients[old]
        self.connect(client)

    def connect(self, client: Client) -> None:
        """One connection per identity: a newer one closes the older (a player's new terminal)."""
        ident = client.identity
        key = ident.person
        old = self.clients.get(key)
        self.clients[key] = client
        if old is not None and old is not client:
            old.kick("You connected again from another terminal: this connection is closed.")
        if ident.verified:
            self._adopt_legacy_seats(ident)
        self.friends.came(key)
        self.changed()

    def _adopt_legacy_seats(self, ident: Identity) -> None:
        """Seats saved before people were keys hold a name alone: the key that reserved the name
        takes them (a guest never does)."""
        mine = skeleton(ident.name)
        for st in self.tables.values():
            if st.table is None:
                continue
            for i, s in enumerate(st.table.seats):
                # (a key saved under an older skeleton, before ALICE was alice, is read as today's)
                saved = PersonId.read(s.key)
                if saved is not None and saved.is_legacy and skeleton(saved.value) == mine:
                    st.table.set_seat(i, s.with_(key=str(ident.person)))
                    log.info("table %d: Player %d's seat (saved under the name %s) is now %s's", st.id, i + 1,
                             printable(ident.name), ident.log_text())

    def disconnect(self, client: Client) -> None:
        key = client.identity.person
        if self.clients.get(key) is client:
            del self.clients[key]
            self.friends.went(key)
            for st in list(self.tables.values()):
                # (a server that stops keeps its forming tables as they are: they come back)
                if st.state == FORMING and not self.closing:
                    before = st.creator
                    seated = st.stand(key)
                    if st.creator == key:        # (a creator who had stood up: the next in line starts it)
                        nxt = next((c for c in st.claims if c is not None), None)
                        if nxt is not None:
                            st.creator = nxt.person
                    if seated or st.creator != before:
                        tell_left(self.clients, st, client.identity.label, before, ": they left the server")
                    self._drop_if_empty(st)
        self.changed()

    def online(self) -> int:
        return len(self.online_rows()) if self.presence is not None else len(self.clients)

    def use_presence(self, presence: Presence) -> None:
        """A front of a cluster: its people are written to the cluster's presence, and the online
        list shows the other fronts' people too (:mod:`..cluster.presence`)."""
        self.presence = presence
        presence.on_change = self.changed
        presence.start(self.here)

    def here(self) -> list[Here]:
        """Everybody connected to this server, where they are, as the cluster's presence keeps them."""
        from ..cluster.presence import Here

        front = self.presence.front if self.presence is not None else ""
        where = self._where()
        out = []
        for person, c in self.clients.items():
            table, watching = where.get(person, (None, False))
            out.append(Here(str(person), c.identity.label, c.identity.verified, table, watching, front))
        return out

    def _where(self) -> dict[PersonId, tuple[int, bool]]:
        """The table each person connected is at, and whether they watch it."""
        where: dict[PersonId, tuple[int, bool]] = {}
        for st in self.tables.values():
            for who in st.watchers:
                where[who.identity.person] = (st.id, True)
            for who, _ in st.links.values():
                where[who.identity.person] = (st.id, False)
        for st in self.tables.values():        # seated at a table not started: at that table too
            for claim in st.claims if st.state == FORMING else ():
                if claim is not None:
                    where.setdefault(claim.person, (st.id, False))
        return where

    def online_rows(self) -> list[PersonRow]:
        """Everybody connected, where they are and their rating at the game of the table they are at
        (in the lobby: Canasta), built once after each change for every lobby (each marks its own
        person).  Sorted by where they are (the lobby first, then by table), then by name.  A front
        of a cluster shows the other fronts' people too (the presence; their ratings read here)."""
        at, rows = self._online
        if at == self.generation:
            return rows
        where = self._where()
        people = [(person, c.identity.label, c.identity.verified, *where.get(person, (None, False)))
                  for person, c in self.clients.items()]
        if self.presence is not None:
            for h in self.presence.others():
                other = PersonId.read(h.key)            # (checked when read: a key or a guest)
                if other is not None and other not in self.clients:
                    people.append((other, h.name, h.verified, h.table, h.watching))
        rows = []
        shown: set[PersonId] = set()
        for key, label, verified, table, watching in people:
            if key in shown:
                continue                    # (connected at two fronts a moment: once)
            shown.add(key)
            sits = self.tables.get(table) if table is not None else None
            game = game_of(sits.rules) if sits is not None else Game.CANASTA
            rows.append(PersonRow(str(key), label, verified, table, watching,
                                  self.club.shown_rating(key, game) if verified else None))
        rows.sort(key=lambda r: (r.table is not None, r.table or 0, r.watching, r.name.casefold()))
        self._online = (self.generation, rows)
        return rows

    def lobby_rows(self) -> list[LobbyRow]:
        """Every table as the lobby shows it, built once after each change for every lobby (each
        marks its person's seats on them): everything a lobby shows changes with a :meth:`changed`."""
        at, rows = self._rows
        if at != self.generation:
            rows = [st.lobby_row() for st in self.tables.values()]
            self._rows = (self.generation, rows)
        return rows

    def home(self, client: Client) -> Destination | None:
        """Where a connecting player belongs: the seat that waits for them, else one a computer keeps."""
        key = client.identity.person
        found: Destination | None = None
        for st in self.tables.values():
            if st.table is None or st.state != PLAYING:
                continue
            seat = st.seat_of(key)
            if seat is None:
                continue
            if st.table.seats[seat].kind == REMOTE:
                return Destination(st.id, seat)
            found = found or Destination(st.id, seat)
        return found

    # ------------------------------------------------------------------ the lobby's commands
    def may_create(self, client: Client) -> Refusal | None:
        """Why ``client`` cannot create a table now (None: they can).  Creating one stands them up
        from a table that has not started: that one does not count."""
        key = client.identity.person
        config = self.config
        left = [st for st in self.tables.values() if st.state == FORMING and st.seat_of(key) is not None]
        mine = sum(1 for st in self.tables.values() if st.creator == key and st.state != OVER and st not in left)
        if mine >= config.tables_per_person:
            return Refusal(f"You have {mine} tables already: finish one first (or stand up at one not started)")
        dropped = sum(1 for st in left if sum(c is not None for c in st.claims) == 1)
        if len(self.tables) - dropped >= config.max_tables:
            return Refusal(f"The server holds {len(self.tables)} tables, its most: join one, or wait until one is over")
        if not client.identity.verified:
            return self._guest_may_create(client, left)
        return None

    def _guest_may_create(self, client: Client, left: Sequence[ServerTable]) -> Refusal | None:
        """Each guest connection is a new person, so guests are bounded apart: the tables guests
        created that are not over, from one address (:data:`GUEST_TABLES_PER_ADDRESS`) and in all (a
        share of the server's most, :func:`guest_tables`), so that guests can never fill the server."""
        theirs = [st for st in self.tables.values() if st.state != OVER and st not in left
                  and st.creator is not None and not st.creator.is_key]
        mine = [st for st in theirs if self.created_from.get(st.id) == client.address]
        if client.address and len(mine) >= GUEST_TABLES_PER_ADDRESS:
            return Refusal(f"Guests from your address have {len(mine)} tables not over, their most: join a table, "
                           "or connect with your SSH key (ssh-keygen makes one)")
        most = guest_tables(self.config.max_tables)
        if len(theirs) >= most:
            n = len(theirs)
            return Refusal(f"Guests have {n} table{'' if n == 1 else 's'} not over, the most this server gives "
                           "guests: join a table, or connect with your SSH key (ssh-keygen makes one)")
        return None

    def create(self, client: Client, rules: Rules, level: str, rated: bool = False,
               settings: TableSettings | None = None, turn_timer: float = 0, table_id: int | None = None) -> ServerTable:
        """A new table with ``client`` in seat 1; TableRefused says why not (:meth:`may_create`).
        ``rated``: its finished match moves its players' ratings; ``settings`` (who may sit, listed,
        watched, rated) take the place of ``rated`` when given; ``turn_timer``: seconds a human
        has for a turn (one of :attr:`turn_timers`; 0: no timer); ``table_id``: its number, when a
        cluster's front took it from the room's database (else :meth:`take_id`)."""
        if turn_timer not in self.turn_timers:
            raise TableRefused(f"A turn timer is one of {', '.join(timer_text(t) for t in self.turn_timers)}, "
                               f"not {turn_timer:g} s")
        why = self.may_create(client)
        if why is not None:
            raise TableRefused(why.reason)
        if table_id is not None and table_id in self.tables:
            raise TableRefused(f"Table {table_id} is here already")
        settings = settings or TableSettings(rated=rated)
        table_id = self.take_id() if table_id is None else table_id
        seed = None if self.config.seed is None else self.config.seed + table_id - 1
        st = ServerTable(self, table_id, rules, level, client.identity.person, seed, rated=settings.rated,
                         access=settings.access, listed=settings.listed or settings.access == Access.OPEN,
                         watchable=settings.watchable, turn_timer=float(turn_timer))
        self._give_code(st)
        st.claims = [None] * rules.players
        self.tables[st.id] = st
        if not client.identity.verified:
            self.created_from[st.id] = client.address
        self._leave_forming(client.identity.person, st)     # a person claims one seat at a time
        st.claim(client, 0)
        private = "" if st.access == Access.OPEN else f", {st.access.value}{'' if st.listed else ', unlisted'}"
        log.info("%s created table %d (%s rules, %s computers, to %d%s%s%s%s)", client.identity.log_text(), st.id,
                 rules.name, level, rules.target_score, ", rated" if st.rated else "", private,
                 "" if st.watchable else ", not watched",
                 f", turn timer {timer_text(turn_timer)}" if turn_timer else "")
        self.changed()
        return st

    def sit(self, client: Client, table_id: int, seat: int) -> tuple[Refusal | None, Destination | None]:
        """``client`` wants ``seat`` of a table: (why not, or None; where to go now, if anywhere)."""
        st = self.tables.get(table_id)
        if st is None:
            return Refusal("That table is gone", RefusalKind.GONE), None
        if not 0 <= seat < st.players:
            return Refusal(f"This table has seats 1 to {st.players}"), None
        key = client.identity.person
        if st.state == FORMING:
            c = st.claims[seat]
            if c is not None and c.person != key:
                return Refusal(f"{c.name} sits there"), None
            why = st.may_sit(key)
            if why:
                return why, None
            self._leave_forming(key, st)
            why = st.claim(client, seat)
            self.changed()
            return why, None
        if st.state == OVER or st.table is None:
            return Refusal("This match is over"), None
        s = st.table.seats[seat]
        if s.key == str(key):
            return None, Destination(st.id, seat)
        if s.kind == REMOTE:
            here = seat in st.links
            return Refusal(f"That is {s.name}'s seat" if here else f"{s.name}'s seat waits for them"), None
        if s.key:
            return Refusal(f"That is {s.name}'s seat: a computer plays it until they come back"), None
        if seat in st.pending:
            return Refusal(f"{st.pending[seat][1].name} takes that seat at the next deal"), None
        mine = st.seat_of(key)
        if mine is not None:
            return Refusal(f"You play Player {mine + 1} at this table"), None
        why = st.may_sit(key)
        if why:
            return why, None
        st.pending[seat] = (client, Claim(key, client.identity.label))
        self.changed()
        return None, Destination(st.id, None)

    def _leave_forming(self, key: PersonId, st: ServerTable) -> None:
        """``key`` sits at ``st``: they give up a seat claimed at another forming table (one that
        is left empty goes)."""
        for other in list(self.tables.values()):
            before = other.creator
            name = next((c.name for c in other.claims if c is not None and c.person == key), "")
            if other is st or other.state != FORMING or not other.stand(key):
                continue
            # (the new table's number is not told: it may be private)
            tell_left(self.clients, other, name, before, " for a table of their own" if st.creator == key
                      else " for another table")
            if other.empty():
                self.tables.pop(other.id, None)
                self.invitations.forget(other.id)

    def stand(self, client: Client, table_id: int) -> Refusal | None:
        """``client`` stands up at a forming table.  Its creator still starts it (a table of
        computers only, to watch); the table goes when it is empty and its creator is gone."""
        st = self.tables.get(table_id)
        if st is None or st.state != FORMING or not st.stand(client.identity.person, keep_creator=True):
            return Refusal("You have no seat to leave at this table")
        self._drop_if_empty(st)
        self.changed()
        return None

    def dismiss(self, client: Client, table_id: int, seat: int) -> Refusal | None:
        """The creator of a forming table asks the person in ``seat`` to leave (they are told)."""
        st = self.tables.get(table_id)
        if st is None:
            return Refusal("That table is gone", RefusalKind.GONE)
        why, gone = st.dismiss(client.identity.person, seat)
        if why or gone is None:
            return why
        who = self.clients.get(gone.person)
        if who is not None:
            who.notify(f"{client.identity.label} asked you to leave table {st.id}")
        log.info("%s asked %s to leave table %d", client.identity.log_text(), printable(gone.name), st.id)
        self.changed()
        return None

    def join(self, client: Client, code: str) -> tuple[Refusal | None, Destination | None]:
        """``client`` typed a table's code: they may sit there, and take its free seat.  Wrong codes
        cost time (as a guest's seat codes do)."""
        why = self.table_code_wait(client)
        if why is not None:
            return why, None
        typed = code_key(code)
        st = next((t for t in self.tables.values() if t.code and t.code == typed), None) if typed else None
        if st is None:
            return self.wrong_table_code(client), None
        st.allowed.add(client.identity.person)
        mine = st.seat_of(client.identity.person)
        if mine is not None:
            self.changed()
            return (None, Destination(st.id, mine)) if st.state == PLAYING else (None, None)
        seat = self.invitations.free_seat(st)
        if seat is None:
            self.changed()
            return Refusal(f"Table {st.id} has no free seat (you may watch it)"), None
        return self.sit(client, st.id, seat)

    def table_code_wait(self, client: Client) -> Refusal | None:
        """Why ``client`` may not try a table's code now (too many wrong ones from their place), or None."""
        wait = self.codes.wait(_table_guessers(client))
        if wait is None:
            return Refusal("Too many wrong codes: try again in a quarter of an hour", RefusalKind.SLOW_DOWN)
        if wait > 0:
            return Refusal(f"Wrong codes cost time: try again in {max(1, round(wait))} s", RefusalKind.SLOW_DOWN)
        return None

    def wrong_table_code(self, client: Client) -> Refusal:
        """``client`` typed a code no table has: it costs their place time (logged)."""
        self.codes.failed(_table_guessers(client))
        log.warning("a wrong table code typed by %s", client.identity.log_text())
        return Refusal("No table has that code")

    def start(self, client: Client, table_id: int) -> Refusal | None:
        st = self.tables.get(table_id)
        if st is None:
            return Refusal("That table is gone", RefusalKind.GONE)
        if st.state != FORMING:
            return Refusal("This table has started")
        if st.creator != client.identity.person:
            return Refusal(f"{st.creator_name()} starts this table (they created it)")
        seated = [(i, c) for i, c in enumerate(st.claims) if c is not None]
        if st.rated and not seated:
            # A match of computers alone would rate a level against itself (docs/ratings.md).
            return Refusal(NOBODY_RATED)
        st.start(self.executor)
        log.info("table %d starts: %s", st.id, ", ".join(printable(c.name) for _, c in seated) or "computers only")
        for seat, c in seated:
            who = self.clients.get(c.person)
            if who is not None:
                who.moved(Destination(st.id, seat))
        if not any(c.person == st.creator for _, c in seated):
            client.moved(Destination(st.id, None))          # a table of computers: its creator watches it
        st.wait_for_all(catch_up=False)     # until each of them has sat down (at once, unless they dropped)
        self.changed()
        return None

    def take_id(self) -> int:
        """A new table's number: this server's next, or (a cluster's owner) one from the room's database."""
        if self.ids is not None:
            return self.ids()
        self.next_id += 1
        return self.next_id - 1

    def _give_code(self, st: ServerTable) -> None:
        """A table joined with a code gets one no other table has."""
        if st.access == Access.CODE:
            codes = {t.code for t in self.tables.values() if t is not st}
            st.code = ""
            while not st.code or st.code in codes:
                st.code = table_code()

    def rematch(self, st: ServerTable, seats: Sequence[int]) -> int:
        """The players of ``st``'s finished match in ``seats`` play again, at a new table with the same
        seats and options (rules, computers, rated, turn timer); computers take the other seats.  Its
        number.  (Not bounded by the tables per person: the finished table goes as they leave it.)"""
        assert st.table is not None
        old = st.table.seats
        players = {i: p for i in seats if (p := PersonId.read(old[i].key)) is not None}
        creator = st.creator if st.creator in players.values() else next(iter(players.values()), None)
        table_id = self.take_id()
        seed = None if self.config.seed is None else self.config.seed + table_id - 1
        new = ServerTable(self, table_id, st.rules, st.level, creator, seed, rated=st.rated,
                          turn_timer=st.turn_timer)
        new.take_private(st.private_data())          # (who may sit and watch)
        new.allowed |= set(players.values())
        self._give_code(new)                         # (a code of its own: the old table is still there)
        new.claims = [Claim(players[i], old[i].name) if i in players else None for i in range(st.players)]
        self.tables[new.id] = new
        new.start(self.executor)
        log.info("table %d: %s play again at table %d", st.id, ", ".join(printable(old[i].name) for i in seats), new.id)
        st.table.say("", f"The new match is at table {new.id}")
        for seat in seats:
            entry = st.links.get(seat)
            if entry is not None:
                entry[0].moved(Destination(new.id, seat))
        new.wait_for_all(catch_up=False)
        self.changed()
        return new.id

    def sweep(self) -> None:
        """Tables left alone go (every ``tick`` seconds, and at start).  One that has not started
        goes when nobody connected holds a seat there, or when its seats have not changed for
        ``forming_timeout`` (counted across restarts); a started table of computers only that nobody
        has watched for ``forming_timeout``, and any started table nobody has been at for
        ``set_aside_after``, is set aside: its file is kept under another name, and it is not
        brought back at start."""
        config = self.config
        now, wall = time.monotonic(), time.time()
        for gone in [t for t in self.created_from if t not in self.tables]:
            del self.created_from[gone]
        for st in list(self.tables.values()):
            if st.state == FORMING:
                if st.creator not in self.clients and not any(c is not None and c.person in self.clients
                                                              for c in st.claims):
                    if st.kept_until > now:
                        continue       # (brought back by a restart: its people have a while to come back)
                    self.clear(st, "")
                elif config.forming_timeout and now - st.touched >= config.forming_timeout:
                    self.clear(st, f"Table {st.id} was cleared: it had not started "
                                    f"{span(config.forming_timeout)} after somebody last sat down")
            elif (st.state == PLAYING and config.forming_timeout and st.table is not None and not st.present()
                  and not st.pending and not any(s.key for s in st.table.seats)
                  and wall - st.visited >= config.forming_timeout):
                # A table of computers only (its creator stood up and started it) holds nobody's seat:
                # once nobody has watched it for the forming timeout, it goes (its file kept).
                self.set_aside(st, f"only computers play it, and nobody had watched it for {span(wall - st.visited)}")
            elif (st.state == PLAYING and config.set_aside_after and not st.present() and not st.pending
                  and wall - st.visited >= config.set_aside_after):
                self.set_aside(st, f"nobody had been at it for {span(wall - st.visited)}")

    def clear(self, st: ServerTable, why: str) -> None:
        """A table that has not started goes; who sat there is told ``why``."""
        self.tables.pop(st.id, None)
        self.invitations.forget(st.id)
        log.info("table %d was cleared before it started%s", st.id, f": {why}" if why else "")
        for c in st.claims:
            who = self.clients.get(c.person) if c is not None else None
            if who is not None and why:
                who.notify(why)
        self.changed()

    def set_aside(self, st: ServerTable, why: str) -> None:
        """A started table leaves the server, its game kept: its file is renamed (the store logs
        to what), where ``canasta --load`` plays it on."""
        st.close()
        self.tables.pop(st.id, None)
        self.invitations.forget(st.id)
        self.store.set_aside(st.id, why)
        assert st.table is not None
        for s in st.table.seats:
            who = self._client_in(s)
            if who is not None:
                who.notify(f"Your table {st.id} was set aside ({why}): the server's host keeps its game")
        self.changed()

    def _client_in(self, seat: Seat) -> Client | None:
        """The connection of the person a table's seat keeps, if they are here."""
        person = PersonId.read(seat.key)          # (a seat keeps its person as the save writes it)
        return self.clients.get(person) if person is not None else None

    def _drop_if_empty(self, st: ServerTable) -> None:
        """A forming table nobody sits at goes, unless its creator is here (a table of computers)."""
        if st.state == FORMING and st.empty() and st.creator not in self.clients:
            self.tables.pop(st.id, None)
            self.invitations.forget(st.id)

    def drop_if_over(self, st: ServerTable) -> None:
        """A finished table goes when its last client leaves."""
        if st.state == OVER and not st.present():
            st.close()
            self.tables.pop(st.id, None)
            self.invitations.forget(st.id)
            self.changed()

    # ------------------------------------------------------------------ chat
    def check_chat(self, client: Client, text: str) -> Refusal | None:
        """Why ``client`` may not say ``text`` (too long, too fast), or None (and the line counts)."""
        if len(text) > self.config.chat_max:
            return Refusal(f"A chat line is at most {self.config.chat_max} characters (this one has {len(text)})")
        return self.limit.check(client.identity.person)

    def say_lobby(self, client: Client, text: str) -> Refusal | None:
        text = text.strip()
        if not text:
            return None
        why = self.check_chat(client, text)
        if why:
            return why
        ident = client.identity
        self.chat.append(LobbyLine(ident.label, text, ident.verified, str(ident.person)))
        del self.chat[:-LOBBY_CHAT_KEEP]
        self.keep_chat(self.chat[-1])
        self.changed()
        return None

    def keep_chat(self, line: LobbyLine) -> None:
        """The lobby's chat outlasts a restart (its last :data:`LOBBY_CHAT_KEEP` lines)."""
        try:
            self.people.add_chat(ChatLine(line.who, line.text, line.verified, time.time(), line.key), LOBBY_CHAT_KEEP)
        except StoreError as exc:
            log.warning("a chat line could not be kept: %s", exc)

    def _last_chat(self) -> list[ChatLine]:
        try:
            return self.people.last_chat(LOBBY_CHAT_KEEP)
        except StoreError as exc:
            log.warning("the lobby's last chat lines could not be read: %s", exc)
            return []

    def say_at(self, st: ServerTable, client: Client, text: str) -> Refusal | None:
        text = text.strip()
        if not text or st.table is None:
            return None
        why = self.check_chat(client, text)
        if why:
            return why
        ident = client.identity
        st.table.say(ident.label + (VERIFIED if ident.verified else ""), text)
        return None

    # ------------------------------------------------------------------ saving
    def save_trouble(self, table_id: int, reason: str | None) -> None:
        """The table's file could not be written (``reason``), or it can again (None): the players
        there are told, once each (the store says so only when it changes)."""
        st = self.tables.get(table_id)
        if st is None or st.table is None:
            return
        if reason is None:
            st.table.say("", "This table is saved again: a restart would lose nothing")
        else:
            st.table.say("", f"This table cannot be saved right now ({_system_words(reason)}): play on, "
                             "but a restart would lose the moves since")

    # ------------------------------------------------------------------ the end
    def close(self) -> None:
        for st in self.tables.values():
            st.close()
        self.names.flush()
        self.club.close()        # (a match being recorded is written first)
        self.people.close()



def open_store(config: ServerConfig) -> KeptStore:
    """The server's people store: the database ``config.database`` names (PostgreSQL, shared by
    several processes), else the SQLite file in the server's directory; ConfigError says why it
    cannot be used (never with the database's password)."""
    rules = RatingRules(provisional=config.provisional_matches)
    try:
        if config.database:
            from ..club.pgpeople import PostgresPeopleStore

            return PostgresPeopleStore(config.database, rules=rules)
        return SqlitePeopleStore(config.home / PEOPLE_FILE, rules=rules)
    except StoreError as exc:
        raise ConfigError(str(exc)) from None


#: The file of reserved names, in the server's directory.
NAMES_FILE = "names.json"
#: Tables not over that guests may have created from one address.
GUEST_TABLES_PER_ADDRESS = 2


def guest_tables(max_tables: int) -> int:
    """Tables not over that guests may have created in all: a quarter of the server's most (at least 1)."""
    return max(1, max_tables // 4)


def _code_guessers(client: Client) -> tuple[str, str]:
    """Who pays for a wrong seat code: the place typing it, and the place with the name it guesses
    for; never the name alone (three wrong codes typed as gus anywhere kept the real gus out)."""
    where = place(client.address)
    return f"place {where}", f"place {where} name {skeleton(client.identity.name)}"


def _table_guessers(client: Client) -> str:
    """Who pays for a wrong table code: the place typing it (never the name typed: 13,500 guesses an
    hour rotated names)."""
    return f"place {place(client.address)} table"


def _system_words(reason: str) -> str:
    """What the system said of a failed write (``No space left on device``), without the save's
    own words around it (``cannot write: ...``)."""
    head, sep, tail = reason.partition(": ")
    return tail if sep and head.startswith("cannot write") else reason


def _visited(value: object) -> float:
    """When a restored table was last visited, as its save says; now if it does not say (a table is
    never set aside for want of a date: an older server's saves count from this start)."""
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return time.time()


__all__ = ["GUEST_TABLES_PER_ADDRESS", "NAMES_FILE", "ChatLimit", "Registry", "guest_tables"]
