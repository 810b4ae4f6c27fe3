"""Who is online, and where, across the cluster (issue 32, ``docs/cluster.md``): a NATS JetStream
key-value bucket whose entries expire.

Each front writes one entry per person connected to it (the key: the front's name and a digest
of the person's key; the value: a small JSON object, :class:`Here`) and writes them all again
every :data:`REFRESH` seconds; the bucket keeps an entry at most :data:`EXPIRE` seconds
(``max_age``).  A front that stops cleanly deletes its entries; a front killed with ``kill -9``
writes nothing more, so its people drop out of everybody's online list once their entries are
older than :data:`EXPIRE` (each reader drops what it has not seen written again for that long, as
NATS 2.9 tells a watcher nothing when an entry ages out; the bucket forgets it by then too).

Every front watches the whole bucket and keeps the others' people in memory (:meth:`Presence.others`)
for the lobby's online list (``Registry.online_rows``).  A front's word is not trusted blindly:
an entry larger than :data:`ENTRY_MAX`, not strict JSON, with a key, name, table or front that is
not one, or past :data:`MAX_PEOPLE` people in all, is refused and logged (counted in
:attr:`Presence.refused`), and never shown.  A person's rating is never taken from the entry:
each front reads it from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import nats.errors
from nats.js.api import KeyValueConfig
from nats.js.kv import KeyValue

from ...table.seats import KEY_PREFIX
from ...text import NAME_MAX, printable
from ..person import PersonId
from .bus import TOKEN, BadMessage, Bus, decode, encode

log = logging.getLogger("canasta.cluster.presence")

#: An entry is kept this long after it was last written (seconds): a killed front's people drop out then.
EXPIRE = 12.0
#: How often a front writes its people's entries again (well within :data:`EXPIRE`).
REFRESH = 4.0
#: How many times a stopping presence cancels each of its loops (0.1 s apart) before it gives up on it.
STOP_TRIES = 50
#: The largest entry taken (a person's key, name, table: under 300 bytes).
ENTRY_MAX = 1024
#: People online in all that a front keeps from the others (a bound on what the bucket can make it hold).
MAX_PEOPLE = 20_000
#: The longest person's key taken (``key:SHA256:`` and 43 letters, or a guest's code).
PERSON_MAX = 100
#: The largest table number taken.
TABLE_MAX = 10**9
#: Refusals logged one by one; after that one line in :data:`LOG_EVERY`.
LOG_FIRST, LOG_EVERY = 20, 1000


@dataclass(frozen=True)
class Here:
    """One person online at a front: their key (``key:SHA256:…`` or a guest's), the name shown,
    whether a key vouches for it, and the table they are at (None: the lobby) and whether they watch."""

    key: str
    name: str
    verified: bool
    table: int | None
    watching: bool
    front: str

    def data(self) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "verified": self.verified, "table": self.table,
                "watching": self.watching, "front": self.front}


def entry_key(front: str, person: str) -> str:
    """The bucket's key of ``person`` at ``front``: the front's name and a digest of the person's key
    (a key holds ``:`` ``+`` ``/``, which a bucket's key may not)."""
    return f"{front}.{hashlib.sha256(person.encode()).hexdigest()[:32]}"


def read_entry(key: str, raw: bytes) -> Here:
    """The person an entry says is online; BadMessage saying why it is not one."""
    if len(raw) > ENTRY_MAX:
        raise BadMessage(f"{len(raw)} bytes, more than {ENTRY_MAX}")
    data = decode(raw, ENTRY_MAX)
    if set(data) != {"key", "name", "verified", "table", "watching", "front"}:
        raise BadMessage("not the fields of a person online")
    person, name, verified = data["key"], data["name"], data["verified"]
    table, watching, front = data["table"], data["watching"], data["front"]
    who = PersonId.read(person) if isinstance(person, str) and len(person) <= PERSON_MAX else None
    if who is None or not (who.is_key or who.is_guest) or str(who) != person:
        raise BadMessage("not a person's key")
    if not (isinstance(name, str) and 0 < len(name) <= NAME_MAX + 1 and printable(name) == name):
        raise BadMessage("not a name")
    if not isinstance(verified, bool) or not isinstance(watching, bool):
        raise BadMessage("verified and watching are true or false")
    if verified != person.startswith(KEY_PREFIX):
        raise BadMessage("a key vouches for a person with a key only")
    if table is not None and (isinstance(table, bool) or not isinstance(table, int) or not 0 < table <= TABLE_MAX):
        raise BadMessage("not a table")
    if not (isinstance(front, str) and TOKEN.fullmatch(front)):
        raise BadMessage("not a front's name")
    if key != entry_key(front, person):
        raise BadMessage("filed under another front or person")
    return Here(person, name, verified, table, watching, front)


class Presence:
    """One front's side of the presence bucket: it writes its own people, and watches everybody's."""

    def __init__(self, bus: Bus, kv: KeyValue, front: str, *, clock: Callable[[], float] = time.monotonic,
                 expire: float = EXPIRE, refresh: float = REFRESH) -> None:
        if not TOKEN.fullmatch(front):
            raise ValueError(f"not a front's name: {front!r}")
        self.bus = bus
        self.kv = kv
        self.front = front
        self.clock = clock
        self.expire = expire
        self.refresh = refresh
        #: Told (on the loop) when the others' people changed: the lobby's online list is built again.
        self.on_change: Callable[[], None] | None = None
        #: This front's people as last written, by entry key.
        self._mine: dict[str, Here] = {}
        self._local: Callable[[], Sequence[Here]] = tuple
        #: The others' people, by entry key, with when each was last written (by this front's clock).
        self._others: dict[str, tuple[Here, float]] = {}
        self.refused = 0
        self._trouble = False
        self._poke = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._watcher: Any = None
        #: Set once the watcher has read what the bucket held when it started (tests wait for it).
        self.ready = asyncio.Event()

    @classmethod
    async def open(cls, bus: Bus, front: str, *, expire: float = EXPIRE, refresh: float = REFRESH,
                   clock: Callable[[], float] = time.monotonic) -> Presence:
        """The room's presence bucket (made by the first front that opens it), for ``front``."""
        js = bus.nats.jetstream()
        bucket = f"canasta_{bus.room}_presence".replace("-", "_")
        try:
            kv = await js.key_value(bucket)
        except nats.js.errors.BucketNotFoundError:
            with contextlib.suppress(nats.js.errors.BadRequestError):   # (another front made it meanwhile)
                await js.create_key_value(KeyValueConfig(bucket=bucket, history=1, ttl=expire,
                                                         max_value_size=ENTRY_MAX))
            kv = await js.key_value(bucket)
        return cls(bus, kv, front, clock=clock, expire=expire, refresh=refresh)

    # ------------------------------------------------------------------ running
    def start(self, local: Callable[[], Sequence[Here]]) -> None:
        """Write ``local()`` (this front's people) when poked and every :attr:`refresh` seconds, and
        watch the others'."""
        self._local = local
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._write_loop()), loop.create_task(self._watch_loop()),
                       loop.create_task(self._expire_loop())]

    def changed(self) -> None:
        """This front's people changed (somebody came, left, sat down): written soon."""
        self._poke.set()

    async def close(self) -> None:
        """Stop, and delete this front's entries (its people are not online here any more)."""
        for task in self._tasks:
            # On Python 3.11 a cancel that lands just as an inner wait_for (ours, or nats-py's around a
            # request) finishes is lost, and the loop goes on: cancel again until it ends (a front's
            # stop waited for it until the test's bound, 180 s, now and then).
            for _ in range(STOP_TRIES):
                if task.done():
                    break
                task.cancel()
                await asyncio.wait({task}, timeout=0.1)
            if not task.done():
                log.warning("presence %s: a loop did not stop", self.front)
        if self._watcher is not None:
            with contextlib.suppress(Exception):
                await self._watcher.stop()
        for key in list(self._mine):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.kv.delete(key), 2.0)
        self._mine.clear()

    # ------------------------------------------------------------------ writing this front's people
    async def _write_loop(self) -> None:
        last_all = -1e18
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.refresh / 4):        # (a cancel meanwhile is never lost)
                    await self._poke.wait()
            self._poke.clear()
            now = self.clock()
            every = now - last_all >= self.refresh
            try:
                await self._write(every)
            except (TimeoutError, nats.errors.Error, OSError) as exc:
                if not self._trouble:           # (once a trouble: the bus may be down a while)
                    log.warning("presence %s: the people here could not be written (%s); tried again every %g s",
                                self.front, exc or type(exc).__name__, self.refresh / 4)
                self._trouble = True
                continue
            if self._trouble:
                log.info("presence %s: the people here are written again", self.front)
                self._trouble = False
            if every:
                last_all = now

    async def _write(self, every: bool) -> None:
        now = {entry_key(self.front, h.key): h for h in self._local()}
        for key, here in now.items():
            if every or self._mine.get(key) != here:
                await self.kv.put(key, encode(here.data(), ENTRY_MAX))
                self._mine[key] = here
        for key in [k for k in self._mine if k not in now]:
            await self.kv.delete(key)
            del self._mine[key]

    # ------------------------------------------------------------------ the others' people
    async def _watch_loop(self) -> None:
        while True:
            try:
                self._watcher = await self.kv.watchall()
                async for entry in self._watcher:
                    if entry is None:
                        self.ready.set()
                        continue
                    self._take(entry.key, entry.value, entry.operation)
            except (nats.errors.Error, OSError) as exc:
                log.warning("presence %s: watching the others stopped (%s); watching again", self.front,
                            exc or type(exc).__name__)
            await asyncio.sleep(1.0)

    def _take(self, key: str, value: bytes | None, operation: str | None) -> None:
        if key.startswith(self.front + "."):
            return                              # (this front's own people: the registry knows them)
        if operation in ("DEL", "PURGE"):
            if self._others.pop(key, None) is not None:
                self._tell()
            return
        try:
            here = read_entry(key, value or b"")
        except BadMessage as exc:
            self._refuse(key, exc.reason)
            return
        if key not in self._others and len(self._others) >= MAX_PEOPLE:
            self._refuse(key, f"more than {MAX_PEOPLE} people online")
            return
        before = self._others.get(key)
        self._others[key] = (here, self.clock())
        if before is None or before[0] != here:
            self._tell()

    async def _expire_loop(self) -> None:
        while True:
            await asyncio.sleep(min(1.0, self.expire / 4))
            self.expire_now()

    def expire_now(self) -> int:
        """Drop the others' people not written again within :attr:`expire` (a front that died); how many."""
        now = self.clock()
        gone = [k for k, (_, at) in self._others.items() if now - at > self.expire]
        for k in gone:
            del self._others[k]
        if gone:
            log.info("presence %s: %d people dropped out (their front wrote nothing for %g s)", self.front,
                     len(gone), self.expire)
            self._tell()
        return len(gone)

    def _refuse(self, key: str, why: str) -> None:
        self.refused += 1
        if self.refused <= LOG_FIRST or self.refused % LOG_EVERY == 0:
            log.warning("presence %s: refused the entry %s: %s [refusal %d]", self.front, printable(key)[:80], why,
                        self.refused)

    def _tell(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def others(self) -> list[Here]:
        """The people online at the other fronts, as last written and not expired."""
        return [h for h, _ in self._others.values()]


__all__ = ["ENTRY_MAX", "EXPIRE", "MAX_PEOPLE", "REFRESH", "Here", "Presence", "entry_key", "read_entry"]
