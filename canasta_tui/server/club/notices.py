""""Read again" notices between server processes that share one people database (issue 32).

Several ``canasta serve --database`` processes keep what the door and the lobby need in memory
(the name book, the bans, the lobby's chat and invitations): when one writes a change, the others
are told to read that part again.  A notice carries no data, only what changed
(:data:`KINDS`: ``people.changed``, ``bans.changed``, ``lobby.changed``, ``notes.changed``); the data is in the
database, where each process reads it.  A notice that is not one of those words is refused
(logged, once in a while): another process's word is not trusted beyond that.

:class:`PgNotices` sends them with PostgreSQL's ``LISTEN``/``NOTIFY`` on the people database
itself (nothing else to run): one connection listens on a thread of its own, one sends from
another.  When the listening connection is lost it is opened again (every second at most) and
every kind is heard once then, since notices sent meanwhile are lost.  A transport over the
cluster's bus (NATS) can take its place: :class:`Notices` is all the server asks of one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import psycopg

from ...text import printable
from .people import StoreError
from .pgpeople import CONNECT_TIMEOUT, hide_password, where_of
from .writer import LOBBY_CHANGED, NOTES_CHANGED, PEOPLE_CHANGED

if TYPE_CHECKING:
    from ..cluster.bus import Bus, Incoming, Sub
    from ..lobby.registry import Registry
    from .admin import Admin

log = logging.getLogger("canasta.server")

BANS_CHANGED = "bans.changed"
#: Every notice there is: anything else heard is refused.
KINDS = frozenset({PEOPLE_CHANGED, BANS_CHANGED, LOBBY_CHANGED, NOTES_CHANGED})
#: The PostgreSQL channel the notices go on.
CHANNEL = "canasta_people"
#: A notice's text is a word and a process's id: anything longer is not one.
NOTICE_MAX = 120
#: How long a lost connection waits before it is opened again (seconds).
RECONNECT_EVERY = 1.0


class Notices(Protocol):
    """What the server asks of a transport of notices."""

    def start(self, hear: Callable[[str], None]) -> None:
        """Start hearing: ``hear(kind)`` is called on the running loop's thread for each notice."""

    def publish(self, kind: str) -> None:
        """Tell every process (this one too) that ``kind`` changed; never waits (any thread)."""

    def close(self) -> None: ...


def notice_kind(payload: object) -> str | None:
    """The kind a notice's text names (``kind`` or ``kind from``), or None: not a notice."""
    if not isinstance(payload, str) or len(payload) > NOTICE_MAX:
        return None
    kind = payload.split(" ", 1)[0]
    return kind if kind in KINDS else None


class PgNotices:
    """Notices over PostgreSQL ``LISTEN``/``NOTIFY`` on the people database (``dsn``)."""

    def __init__(self, dsn: str, node: str = "") -> None:
        self.dsn = dsn
        self.where = where_of(dsn)
        self.node = printable(node)[:40]
        self._closing = threading.Event()
        self._out: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._listening: psycopg.Connection[Any] | None = None
        self._refused = 0
        #: Set once the listening connection listens (tests wait for it).
        self.listening = threading.Event()

    def _connect(self) -> psycopg.Connection[Any]:
        return psycopg.connect(self.dsn, autocommit=True, connect_timeout=max(1, round(CONNECT_TIMEOUT)),
                               application_name="canasta serve notices")

    def start(self, hear: Callable[[str], None]) -> None:
        loop = asyncio.get_running_loop()

        def tell(kind: str) -> None:
            with contextlib.suppress(RuntimeError):     # (the loop has closed)
                loop.call_soon_threadsafe(hear, kind)

        for target, name in ((lambda: self._listen(tell), "canasta-notices-in"), (self._send, "canasta-notices-out")):
            t = threading.Thread(target=target, name=name, daemon=True)
            t.start()
            self._threads.append(t)

    def publish(self, kind: str) -> None:
        if kind in KINDS and not self._closing.is_set():
            self._out.put(kind)

    def close(self) -> None:
        self._closing.set()
        self._out.put(None)
        conn = self._listening
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.cancel_safe()
        for t in self._threads:
            t.join(5.0)

    # ------------------------------------------------------------------ the threads
    def _listen(self, tell: Callable[[str], None]) -> None:
        first = True
        while not self._closing.is_set():
            try:
                with self._connect() as conn:
                    self._listening = conn
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    if not first:
                        log.info("notices from the other servers are heard again (%s)", self.where)
                        for every in sorted(KINDS):     # (what was sent meanwhile is lost: read all again)
                            tell(every)
                    first = False
                    while not self._closing.is_set():
                        for n in conn.notifies(timeout=1.0):
                            heard = notice_kind(n.payload)
                            if heard is None:
                                self._refuse(n.payload)
                            else:
                                tell(heard)
            except psycopg.Error as exc:
                if self._closing.is_set():
                    return
                self.listening.clear()
                log.warning("notices from the other servers cannot be heard (%s: %s): trying again",
                            self.where, hide_password(printable(str(exc).strip().splitlines()[0] if str(exc).strip()
                                                                else type(exc).__name__), self.dsn)[:200])
            finally:
                self._listening = None
            self._closing.wait(RECONNECT_EVERY)

    def _refuse(self, payload: object) -> None:
        self._refused += 1
        if self._refused <= 10 or self._refused % 1000 == 0:
            log.warning("a notice that is not one was refused (%d so far): %s", self._refused,
                        printable(str(payload))[:60])

    def _send(self) -> None:
        conn: psycopg.Connection[Any] | None = None
        while True:
            first = self._out.get()
            if first is None:
                break
            kinds = {first}
            with contextlib.suppress(queue.Empty):          # (many at once: each kind once)
                while True:
                    more = self._out.get_nowait()
                    if more is None:
                        self._closing.set()
                        break
                    kinds.add(more)
            for k in sorted(kinds):
                payload = f"{k} {self.node}".strip()
                for _attempt in range(2):
                    try:
                        if conn is None or conn.closed or conn.broken:
                            conn = self._connect()
                        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
                        break
                    except psycopg.Error as exc:
                        if conn is not None:
                            conn.close()
                        conn = None
                        log.warning("a notice to the other servers could not be sent (%s): %s", self.where,
                                    hide_password(printable(str(exc).strip())[:200], self.dsn))
                        time.sleep(0.2)
            if self._closing.is_set():
                break
        if conn is not None:
            conn.close()


class BusNotices:
    """Notices over the cluster's bus (:mod:`..cluster.bus`): each kind is its subject
    (``canasta.<room>.people.changed``, …), the message ``{"from": node}``; what else comes on
    them is refused by the bus (size, strict JSON) or here (a subject that is not a kind)."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self._loop: asyncio.AbstractEventLoop | None = None
        self._subs: list[Sub] = []
        self._closed = False
        #: Set once every kind is subscribed (tests wait for it).
        self.listening = threading.Event()

    def start(self, hear: Callable[[str], None]) -> None:
        loop = self._loop = asyncio.get_running_loop()

        async def heard(m: Incoming) -> None:
            kind = notice_kind(m.subject)
            if kind is not None:
                hear(kind)

        async def subscribe() -> None:
            for kind in sorted(KINDS):
                self._subs.append(await self.bus.subscribe(kind, heard))
            self.listening.set()
        self._task = loop.create_task(subscribe())

    def publish(self, kind: str) -> None:
        loop = self._loop
        if kind not in KINDS or loop is None or self._closed:
            return

        def send() -> None:
            task = loop.create_task(self.bus.publish(kind, {"from": self.bus.name}))
            task.add_done_callback(_sent)
        with contextlib.suppress(RuntimeError):         # (the loop has closed)
            loop.call_soon_threadsafe(send)

    def close(self) -> None:
        """(From a thread other than the loop's: the subscriptions end on the loop.)"""
        self._closed = True
        loop = self._loop
        if loop is None or loop.is_closed():
            return

        async def stop() -> None:
            for sub in self._subs:
                await sub.stop()
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(stop(), loop).result(5.0)


def _sent(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("a notice to the other servers could not be sent: %s", task.exception())


class SharedPeople:
    """What another process changed, read again: on a notice, the part it names is read from the
    store on a thread (never the loop's) and put in place on the loop.  One read of a kind at a
    time; notices that come meanwhile make one more read after it."""

    def __init__(self, registry: Registry, admin: Admin, notices: Notices) -> None:
        self.registry = registry
        self.admin = admin
        self.notices = notices
        self._reading: set[str] = set()
        self._again: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        #: Reads done, by kind (tests and the log count them).
        self.reads: dict[str, int] = dict.fromkeys(sorted(KINDS), 0)

    def start(self) -> None:
        self.notices.start(self.hear)

    def hear(self, kind: str) -> None:
        if kind in self._reading:
            self._again.add(kind)
            return
        self._reading.add(kind)
        task = asyncio.get_running_loop().create_task(self._read(kind))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _read(self, kind: str) -> None:
        try:
            while True:
                self._again.discard(kind)
                await self._read_once(kind)
                self.reads[kind] += 1
                if kind not in self._again:
                    return
        finally:
            self._reading.discard(kind)

    async def _read_once(self, kind: str) -> None:
        loop = asyncio.get_running_loop()
        reg = self.registry
        try:
            if kind == PEOPLE_CHANGED:
                rows = await loop.run_in_executor(None, reg.people.names)
                reg.names.read_again(rows)
            elif kind == BANS_CHANGED:
                bans = await loop.run_in_executor(None, reg.people.bans, time.time())
                self.admin.read_again(bans)
            elif kind == LOBBY_CHANGED:
                reg.lobby_read_again(await loop.run_in_executor(None, reg.shared_lobby))
            elif kind == NOTES_CHANGED:
                keys = [str(p) for p in reg.clients if p.is_key]
                reg.friends.read_again(keys, await loop.run_in_executor(None, reg.people.notes_waiting, keys))
        except StoreError as exc:
            log.warning("what another server changed (%s) could not be read: %s", kind, exc)

    async def close(self) -> None:
        await asyncio.get_running_loop().run_in_executor(None, self.notices.close)
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


__all__ = [
    "BANS_CHANGED",
    "CHANNEL",
    "KINDS",
    "LOBBY_CHANGED",
    "NOTES_CHANGED",
    "NOTICE_MAX",
    "PEOPLE_CHANGED",
    "Notices",
    "PgNotices",
    "SharedPeople",
    "notice_kind",
]
