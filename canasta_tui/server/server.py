"""The table server: listen, let people in, drive the tables, stop cleanly.

>>> async with Server(ServerConfig(port=0, open=True)) as srv:   # doctest: +SKIP
...     print(srv.port)                                           # a free port on 127.0.0.1

Tests and benchmarks start it in their own event loop like that (``tests/server/helpers.py``
has ``serving()`` and ``Term``, an asyncssh client whose 80x24 screen pyte reads); ``canasta
serve`` runs :func:`serve`.  Every table runs in this one event loop: the computers think in
worker processes shared by all tables (a thinking computer never holds the interpreter the
loop needs), autosaves are written by the store's thread, statistics by threads of their
own, so nothing a table does blocks the others or the players' keys.

What a test or a benchmark can reach:

* ``Server(config, on_output=fn)``: ``fn(session, text)`` sees every piece of text sent to
  each connection, before it is sent and nothing else reaches a terminal (``session.identity``
  is whose it is, ``session.id`` numbers the connections);
* :attr:`Server.sessions` (the :class:`~.ssh.GameSession` of each connected player, with
  ``bytes_in``, ``bytes_out``, ``dropped_in``), :attr:`Server.registry` (the tables:
  ``registry.tables[n].table`` is table n's :class:`~canasta_tui.table.Table`),
  :attr:`Server.store` (``store.flush()`` waits for the autosaves);
* ``config.seed`` makes the deals of table n those of seed + n - 1, ``config.delay_ms`` the
  pause after each computer move (0 in tests), ``config.workers`` how many processes (or threads,
  ``config.computer_processes`` False) the computers think in.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import ctypes
import logging
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from types import TracebackType
from typing import TYPE_CHECKING

import asyncssh

from ..persistence.stats import RECORD_TIMEOUT
from ..text import printable
from .club.admin import Admin, Bans
from .cluster.ownership import OwnershipError
from .config import ConfigError, ServerConfig
from .door.auth import Gate, place
from .door.hostkey import fingerprint, host_key
from .door.proxy import ProxyDoor, networks
from .door.ssh import Connection, GameSession
from .lobby.registry import Registry
from .memory import TICK, Collector
from .tables.pgstore import PostgresTableStore, table_store_for
from .tables.store import StoredTable, TableStore

if TYPE_CHECKING:
    from .club.notices import Notices, SharedPeople

log = logging.getLogger("canasta.server")

#: What a player is told when the server stops.
SHUTDOWN = "The server is shutting down: your table is saved and waits for you."


def own_tables(store: PostgresTableStore, registry: Registry) -> None:
    """Serve ``registry``'s tables on PostgreSQL while ``store`` holds them (``cluster/ownership.py``):
    one it loses (its database session lost, or another owner took it) stops at once
    (:meth:`Registry.lost <.lobby.registry.Registry.lost>`); one its watch takes (a dead owner's, or
    its own when the database is back) is served from its save, its people's seats waiting as after
    a restart (:meth:`Registry.take_back <.lobby.registry.Registry.take_back>`); so are the forming
    tables: lost with the session (:meth:`Registry.lost_forming`), and a dead owner's taken
    (:meth:`Registry.take_forming`).  Called on the
    event loop, which the store's threads hand both to.  The one-process server on ``--database``
    calls it; so does a cluster's owner."""
    loop = asyncio.get_running_loop()

    def lost(table_id: int, why: str) -> None:
        with contextlib.suppress(RuntimeError):     # (the loop has closed)
            loop.call_soon_threadsafe(registry.lost, table_id, why)

    def taken(item: StoredTable) -> None:
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(registry.take_back, item)

    def forming_lost(why: str) -> None:
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(registry.lost_forming, why)

    def forming_taken(data: object) -> None:
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(registry.take_forming, data)

    store.on_lost, store.on_forming_lost = lost, forming_lost
    store.watch(taken, on_forming=forming_taken)


class Server:
    """One table server.  ``async with Server(config) as srv`` starts it; :attr:`port` is where.

    ``on_output(session, text)`` is called with everything sent to each connection, before it is
    sent (``session.identity`` says whose it is): the leak test records the bytes there.
    """

    def __init__(self, config: ServerConfig, *, on_output: Callable[[GameSession, str], None] | None = None,
                 shortest_turn: int | None = None) -> None:
        self.config = config.checked()
        #: Tests only: the turn timer's shortest choice (the lobby offers 30 s; a test cannot wait that).
        self.shortest_turn = shortest_turn
        self.on_output = on_output
        self.sessions: set[GameSession] = set()
        self.connections: set[Connection] = set()
        self._per_address: collections.Counter[str] = collections.Counter()     # logged in or logging in
        self._silent: dict[Connection, None] = {}          # not a byte sent yet, in the order they came
        self._silent_from: collections.Counter[str] = collections.Counter()
        self._logging_in: dict[Connection, None] = {}      # spoken, not logged in
        self._logins_from: collections.Counter[str] = collections.Counter()     # silent or logging in, by place
        self._logged_in: set[Connection] = set()
        self.refused = 0          # connections refused at the door
        self.dropped = 0          # logins under way closed to make room for a new connection
        self.gate = Gate(self.config)
        self.host_key_made = False
        self.fingerprint = ""
        self._listener: asyncssh.SSHAcceptor | ProxyDoor | None = None
        self._idle: asyncio.Task[None] | None = None
        self._memory: asyncio.Task[None] | None = None
        self._sweep: asyncio.Task[None] | None = None
        self.collector = Collector()
        self._executor: Executor | None = None
        self._store: TableStore | None = None
        self._registry: Registry | None = None
        self._admin: Admin | None = None
        self._stopped = asyncio.Event()
        #: With a shared people database: the notices between the processes (:mod:`.club.notices`).
        self.shared: SharedPeople | None = None
        self._stopping: asyncio.Future[None] | None = None

    # ------------------------------------------------------------------ parts
    @property
    def registry(self) -> Registry:
        assert self._registry is not None, "the server is not started"
        return self._registry

    @property
    def admin(self) -> Admin:
        """The admins' actions, and the bans checked at the door (:mod:`.admin`)."""
        assert self._admin is not None, "the server is not started"
        return self._admin

    @property
    def store(self) -> TableStore:
        assert self._store is not None, "the server is not started"
        return self._store

    @property
    def port(self) -> int:
        assert self._listener is not None, "the server is not started"
        return int(self._listener.get_port())

    # ------------------------------------------------------------------ start and stop
    async def start(self) -> None:
        """Bring the saved tables back and listen; ConfigError says why it cannot."""
        config = self.config
        key, self.host_key_made = host_key(config.host_key_path)
        self.fingerprint = fingerprint(key)
        self._executor = computers_executor(config)
        try:
            # On PostgreSQL with --database (a cluster's front serves no table: it only reads records).
            self._store = table_store_for(config, owns=not config.cluster)
        except OwnershipError as exc:
            await self._wind_down()
            raise ConfigError(str(exc)) from None
        loop = asyncio.get_running_loop()

        def trouble(table_id: int, reason: str | None) -> None:
            # On the store's thread: the tables hear of it on the loop's.
            with contextlib.suppress(RuntimeError):     # (the loop has closed)
                loop.call_soon_threadsafe(self._save_trouble, table_id, reason)

        self._store.on_trouble = trouble
        stored, next_id = self._store.load()
        self._store.start()
        try:
            self._registry = (Registry(config, self._store, self._executor) if self.shortest_turn is None else
                              Registry(config, self._store, self._executor, shortest_turn=self.shortest_turn))
        except ConfigError:              # (the people store cannot be used: the message says why)
            await self._wind_down()
            raise
        self._registry.restore(stored, next_id)
        if isinstance(self._store, PostgresTableStore) and self._store.owns:
            own_tables(self._store, self._registry)
        self._admin = Admin(self._registry, Bans(self._registry.people))
        self._admin.drop_address = self._drop_address
        if config.database and not config.cluster:
            # (servers on one database without a bus tell each other through it; a cluster's
            # nodes through the bus: the node hands its notices to share_people)
            from .club.notices import PgNotices

            self.share_people(PgNotices(config.database, f"{os.getpid()}"))
        try:
            self._listener = await self._listen(key)
        except OSError as exc:
            await self._wind_down()
            raise ConfigError(f"cannot listen on {printable(config.host)} port {config.port}: "
                              f"{exc.strerror or exc}") from None
        self._idle = asyncio.get_running_loop().create_task(self._watch_idle())
        self._sweep = asyncio.get_running_loop().create_task(self._watch_tables())
        self.collector.start()
        self._memory = asyncio.get_running_loop().create_task(self._keep_pauses_short())
        log.info("listening on %s port %d (host key %s); %s%s", printable(config.host), self.port, self.fingerprint,
                 config.auth_mode(), "; behind a proxy: PROXY headers from " + ", ".join(config.proxy_from)
                 if config.proxy_protocol else "")

    async def _listen(self, key: asyncssh.SSHKey) -> asyncssh.SSHAcceptor | ProxyDoor:
        """SSH on the configured address; behind HAProxy (``proxy_protocol``) each connection's PROXY
        header is read first, and SSH runs on it for the address the header names (:mod:`.door.proxy`)."""
        config = self.config
        options = asyncssh.SSHServerConnectionOptions(
            server_host_keys=[key], server_version="canasta", agent_forwarding=False, x11_forwarding=False,
            allow_pty=True, line_editor=False, sftp_factory=None, allow_scp=False, gss_kex=False, gss_auth=False,
            host_based_auth=False, login_timeout=config.login_timeout, keepalive_interval=config.keepalive,
            keepalive_count_max=4, encoding="utf-8", errors="replace")
        if not config.proxy_protocol:
            return await asyncssh.listen(config.host, config.port, options=options, reuse_address=True,
                                         server_factory=lambda: Connection(self))

        async def enter(sock: socket.socket, address: str) -> None:
            await asyncssh.run_server(sock, options=options, server_factory=lambda: Connection(self, address))

        door = ProxyDoor(networks(config.proxy_from), config.proxy_timeout, config.max_silent, enter)
        await door.start(config.host, config.port)
        return door

    def share_people(self, notices: Notices) -> None:
        """The people database is shared with other server processes: each change written here is
        a notice to them (over ``notices``: the database's LISTEN/NOTIFY, or a cluster's bus), and
        theirs are read again here (:mod:`.club.notices`)."""
        from .club.notices import BANS_CHANGED, SharedPeople
        from .club.writer import QueuedPeople

        self.shared = SharedPeople(self.registry, self.admin, notices)
        people = self.registry.people
        if isinstance(people, QueuedPeople):

            def written(kinds: frozenset[str]) -> None:
                for kind in sorted(kinds):
                    notices.publish(kind)
            people.writer.on_written = written
        self.admin.bans.on_written = lambda: notices.publish(BANS_CHANGED)
        self.shared.start()

    def start_workers(self) -> None:
        """Start every computer's worker process now, not in the middle of a game (``canasta serve``
        does; tests leave them to start when a computer first thinks): the first computer move
        does not wait for a process to start, and a server killed during play never leaves a
        worker half-started (until its start-up asks to end with the server, it would not)."""
        if isinstance(self._executor, ProcessPoolExecutor):
            for _ in range(self.config.workers):
                self._executor.submit(_ready)

    async def stop(self, reason: str = SHUTDOWN, timeout: float = 5.0) -> None:
        """Tell everybody, close every connection, save every table, and stop (once: a second
        call waits for the first)."""
        if self._stopping is None:
            self._stopping = asyncio.ensure_future(self._stop(reason, timeout))
        await asyncio.shield(self._stopping)

    async def _stop(self, reason: str, timeout: float) -> None:
        if self._listener is not None:
            self._listener.close()
        if self._registry is not None:
            self._registry.closing = True     # (the people leave; their seats at forming tables are kept)
        for s in list(self.sessions):
            s.kick(reason)
        deadline = time.monotonic() + timeout
        while self.sessions and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        for c in list(self.connections):
            if c.conn is not None:
                c.conn.close()
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._listener.wait_closed(), timeout)
        await self._wind_down()
        self._stopped.set()

    async def _wind_down(self) -> None:
        for task in (self._idle, self._memory, self._sweep):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self._memory is not None:
            self.collector.stop()
        if self.shared is not None:
            await self.shared.close()
        if self._admin is not None:
            # The bans and visits under way are written first (the people store closes next).
            await asyncio.get_running_loop().run_in_executor(None, self._admin.bans.close)
        if self._registry is not None:
            self._registry.close()
            tasks = [st.task for st in self._registry.tables.values() if st.task is not None]
            if tasks:
                await asyncio.gather(*tasks, return_exceptions=True)
        loop = asyncio.get_running_loop()
        if self._store is not None:
            await loop.run_in_executor(None, self._store.close)
        if self._executor is not None:
            end_workers(self._executor)       # (before shutdown, which forgets its processes)
            self._executor.shutdown(wait=False, cancel_futures=True)
        if self._registry is not None:
            for rec in self._registry.recordings:
                problem = await loop.run_in_executor(None, rec.outcome, RECORD_TIMEOUT + 5)
                if problem:
                    log.warning("%s", problem)

    async def wait_stopped(self) -> None:
        await self._stopped.wait()

    async def __aenter__(self) -> Server:
        await self.start()
        return self

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.stop()

    def _drop_address(self, address: str, reason: str) -> int:
        """Close every connection from ``address`` (an admin banned it: a place, :func:`.auth.place`),
        telling why; how many."""
        dropped = 0
        for c in list(self.connections):
            if place(c.address) == address:              # (an IPv6 ban covers its /64)
                dropped += 1
                if c.playing is not None:
                    c.playing.kick(reason)
                else:
                    c.drop(reason)
        return dropped

    def _save_trouble(self, table_id: int, reason: str | None) -> None:
        if self._registry is not None:
            self._registry.save_trouble(table_id, reason)

    # ------------------------------------------------------------------ connection limits
    def admit(self, c: Connection) -> str:
        """Count a new connection, logging in until :meth:`logged_in`; why it is refused ("" if it
        is not).  Every limit "from one address" counts by place (an IPv6 address by its /64).

        Until it has sent a byte a connection waits among the *silent* (``max_silent``: when they are
        that many, the oldest from the place with the most of them goes); once it speaks
        (:meth:`spoke`) it is a login under way (``max_logins``: :meth:`_drop_a_login`).  A real
        client speaks at once, but only at the loop's next turn: one turn accepts up to a hundred
        connections, and when one pool held them all, a stranger's silent connections opened again
        and again from 30 addresses pushed every real login out before it was heard.  How many may
        be *in* is asked once they are (:meth:`key_proven`, :meth:`logged_in`)."""
        self.connections.add(c)
        config = self.config
        where = c.place
        if self._per_address[where] >= config.max_per_address:
            self.refused += 1
            return f"Too many connections from your address (at most {config.max_per_address})"
        if self._logins_from[where] >= config.max_logins_per_address:
            self.refused += 1
            return (f"Too many logins at once from your address (at most {config.max_logins_per_address}): "
                    "try again in a moment")
        if len(self._silent) >= config.max_silent:
            most = max(self._silent_from.values())
            oldest = next(x for x in self._silent if self._silent_from[x.place] == most)
            self._let_go(oldest)
        self._silent[c] = None
        self._silent_from[where] += 1
        self._logins_from[where] += 1
        self._per_address[where] += 1
        return ""

    def spoke(self, c: Connection) -> None:
        """``c`` sent its first bytes: it leaves the silent for the logins under way (making room
        there by letting go of the one that got least far, which may be ``c``)."""
        if c not in self._silent:
            return
        self._not_silent(c)
        self._logging_in[c] = None
        if len(self._logging_in) > self.config.max_logins:
            self._drop_a_login()

    def key_proven(self, c: Connection, lets_in: bool) -> str:
        """``c`` proved a key: one that lets it in (``lets_in``: open mode, a listed key, a key that
        holds a name here) leaves the logins' budget at once, so that strangers' connections never
        push it out; why it may not come in ("" if it may: keys may fill the server)."""
        if c not in self._logging_in:
            return ""
        if not lets_in:
            return ""              # (a key nobody knows, in password mode: a login like any other, but far on)
        if len(self._logged_in) >= self.config.max_connections and not self._yield_to(c):
            self.refused += 1
            return f"The server is full ({self.config.max_connections} connections): try again later"
        self._stop_logging_in(c)
        self._logged_in.add(c)
        return ""

    def logged_in(self, c: Connection) -> str:
        """``c`` has logged in (SSH authentication is complete): it leaves the logins' budget; why it
        may not stay ("" if it may).  Without a key it is let in only while fewer than
        ``guest_room`` are in: the rest is kept for people with keys."""
        if c not in self._logging_in:
            return ""
        config = self.config
        if c.proven is None:
            guests = sum(1 for x in self._logged_in if x.proven is None)
            if guests >= config.guest_room or len(self._logged_in) >= config.max_connections:
                self.refused += 1
                return (f"The server is full for connections without a key ({config.guest_room} of its "
                        f"{config.max_connections} places; the rest are kept for people with SSH keys): "
                        "try again later, or connect with a key")
        elif len(self._logged_in) >= config.max_connections and not self._yield_to(c):
            self.refused += 1
            return f"The server is full ({config.max_connections} connections): try again later"
        self._stop_logging_in(c)
        self._logged_in.add(c)
        return ""

    def _yield_to(self, c: Connection) -> bool:
        """The server is full and ``c`` proved a key: the connection idle longest (no key pressed for
        ``yield_after`` seconds, not at any table: no seat there, not watching) from the place holding
        the most connections gives its place up, if that place holds at least two more than ``c``'s.  Many
        idle lobbies from a few places (100 from 10 addresses) cannot keep a person with a key out; a
        place that holds no more than its share keeps its connections.  Whether one did."""
        counts = collections.Counter(x.place for x in self._logged_in)
        if not counts:
            return False
        where, most = counts.most_common(1)[0]
        if most < counts[c.place] + 2:
            return False
        now = asyncio.get_running_loop().time()
        tables = self.registry.tables.values()

        def idle(x: Connection) -> float:
            if x.playing is None:
                return float("inf")                 # no game opened: it will be closed anyway
            app, key = x.playing.app, x.playing.identity.person
            if any(st.seat_of(key) is not None or (app is not None and app in st.watchers) for st in tables):
                return -1.0                         # at a table (a seat, or watching): never made to yield
            return now - x.playing.last_input

        longest = max((x for x in self._logged_in if x.place == where), key=idle)
        if idle(longest) < self.config.yield_after:
            return False
        log.info("the server is full: %s, idle longest at %s, makes room for a key", longest.address, where)
        self.release(longest)
        reason = ("The server is full, and your connection, idle longest at an address holding many, made room "
                  "for another player: connect again when you are back")
        if longest.playing is not None:
            longest.playing.kick(reason)
        else:
            longest.drop(reason)
        return True

    def release(self, c: Connection) -> None:
        """``c`` is closed."""
        self.connections.discard(c)
        if c in self._silent:
            self._not_silent(c)
            self._stop_logging_in(c)
        elif c in self._logging_in:
            self._stop_logging_in(c)
        elif c in self._logged_in:
            self._logged_in.discard(c)
        else:
            return               # refused: never counted
        self._per_address[c.place] -= 1
        if self._per_address[c.place] <= 0:
            del self._per_address[c.place]

    @property
    def logging_in(self) -> int:
        """Connections that have not logged in yet (silent or under way)."""
        return len(self._silent) + len(self._logging_in)

    def _not_silent(self, c: Connection) -> None:
        del self._silent[c]
        self._silent_from[c.place] -= 1
        if self._silent_from[c.place] <= 0:
            del self._silent_from[c.place]

    def _stop_logging_in(self, c: Connection) -> None:
        self._logging_in.pop(c, None)
        self._logins_from[c.place] -= 1
        if self._logins_from[c.place] <= 0:
            del self._logins_from[c.place]

    def _drop_a_login(self) -> bool:
        """Make room: close the login under way that has got least far (it has said nothing, then:
        it has not begun to log in, then: it proved no key), from the place with the most of them,
        silent the longest.  (A key that lets its client in has left the budget already.)  A real
        client speaks at once and keeps speaking: a stranger's silent connections go first,
        whatever their number of addresses.  False: none may go."""
        if not self._logging_in:
            return False
        self._let_go(min(self._logging_in, key=lambda c: (c.progress, -self._logins_from[c.place], c.heard)))
        return True

    def _let_go(self, c: Connection) -> None:
        self.release(c)
        self.dropped += 1
        c.drop("The server has too many logins under way, and yours had got least far: connect again")

    # ------------------------------------------------------------------ garbage collection
    async def _keep_pauses_short(self) -> None:
        """The collector's pauses stay short however many players are connected (``memory.py``)."""
        while True:
            await asyncio.sleep(TICK)
            self.collector.tick(len(self.connections))

    # ------------------------------------------------------------------ tables left alone
    async def _watch_tables(self) -> None:
        while True:
            await asyncio.sleep(self.config.tick)
            self.registry.sweep()

    # ------------------------------------------------------------------ idle connections
    async def _watch_idle(self) -> None:
        config = self.config
        if not config.idle_timeout:
            return
        loop = asyncio.get_running_loop()
        warning = min(config.idle_warning, config.idle_timeout / 2)
        while True:
            await asyncio.sleep(min(config.tick, warning / 2 if warning else config.tick))
            # (in a function of its own: a loop variable here kept the last session it named, closed
            # or not, alive in this coroutine's frame until another session came)
            self._warn_or_kick_idle(loop.time(), warning)

    def _warn_or_kick_idle(self, now: float, warning: float) -> None:
        config = self.config
        for s in list(self.sessions):
            idle = now - s.last_input
            if idle >= config.idle_timeout:
                s.kick(f"No key pressed for {_duration(config.idle_timeout)}: disconnected "
                       "(a seat you had waits for you; connect again to play on).")
            elif idle >= config.idle_timeout - warning and not s.warned and s.app is not None:
                s.warned = True
                s.app.notify(f"Nobody has pressed a key here for a while: this connection closes in "
                             f"{_duration(config.idle_timeout - idle)} unless a key is pressed")


def computers_executor(config: ServerConfig) -> Executor:
    """Where the computers think: worker processes (started fresh, not forked from a server with
    threads and sockets), or threads."""
    if config.computer_processes:
        return ProcessPoolExecutor(config.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_worker_start, initargs=(os.getpid(),))
    return ThreadPoolExecutor(config.workers, thread_name_prefix="canasta-computer")


def end_workers(executor: Executor) -> None:
    """End a pool's worker processes now.  They think under SCHED_IDLE: on a machine whose cores
    are busy they get almost no CPU, and took more than 20 s just to read the pool's "stop" and
    end, while the server's exit waited for them.  A computer's thinking holds nothing worth
    keeping (a table plays its move only when the answer has come)."""
    if isinstance(executor, ProcessPoolExecutor):
        # The pool keeps its processes in a private dict; it has no public way to end them.
        for proc in list((getattr(executor, "_processes", None) or {}).values()):
            with contextlib.suppress(OSError, ValueError):
                proc.kill()


def _ready() -> None:
    """Nothing: a task that makes the pool start a worker."""


def _worker_start(server: int) -> None:
    """A computer's worker: it ends with the server, gives way to its loop, and keeps no hold on
    the server's standard output."""
    _end_with(server)
    _think_politely()
    _let_go_of_stdout()


#: Linux's prctl(2) option: the signal a process gets when its parent ends.
PR_SET_PDEATHSIG = 1
#: How often a worker looks whether the server is still there, where Linux cannot tell it (s).
PARENT_POLL = 1.0


def _end_with(server: int) -> None:
    """The worker ends when the server does, however the server ends: killed (``kill -9``), the
    worker waited for work that would never come, for good, and held what the server's
    ``| tee log`` waits to see closed.  Linux kills it at once (``PR_SET_PDEATHSIG``: it is
    the server's loop thread that starts workers, and that thread lives as long as the server);
    everywhere a thread of the worker also looks every :data:`PARENT_POLL` seconds whether
    its parent is still the server, as an orphan is given another parent."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != server:        # the server ended before the line above was in force
        os._exit(0)

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(PARENT_POLL)
        os._exit(0)

    threading.Thread(target=watch, name="canasta-worker-parent", daemon=True).start()


def _let_go_of_stdout() -> None:
    """A worker writes nothing to standard output, so it does not hold the server's: a pipe
    reader (``canasta serve | tee log``) sees the end as soon as the server ends."""
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)


def _think_politely() -> None:
    """A computer's worker gives way to the event loop that answers every player's keys: a
    thinking Expert waits a moment longer, nobody's key does ("no table slower because another
    one is busy").  Where Linux allows it, the worker thinks only on a core nothing else wants
    (SCHED_IDLE: niced, an Expert's search still took a core from the loop or the players'
    ssh now and then); elsewhere it is niced."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def _duration(seconds: float) -> str:
    s = max(0, round(seconds))
    if s >= 120:
        return f"{s // 60} minutes"
    return f"{s} s"


async def serve(config: ServerConfig, ready: Callable[[Server], None] | None = None) -> None:
    """``canasta serve``: run until SIGINT or SIGTERM, then stop cleanly."""
    server = Server(config)
    await server.start()
    server.start_workers()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, lambda: loop.create_task(server.stop()))
    if ready is not None:
        ready(server)
    await server.wait_stopped()


__all__ = ["SHUTDOWN", "Server", "serve"]
