"""One owner per table (issue 32, section 3): a PostgreSQL advisory lock on the table's id, held by
the owner's database session, plus an ``epoch`` in the table's row.

* **Taking a table**: ``pg_try_advisory_lock(TABLE_LOCKS, id)`` on the owner's one session, then
  ``epoch = epoch + 1`` in the row; the epoch read back is the owner's (:attr:`Ownership.held`).
* **Every save** is ``UPDATE … WHERE id = … AND epoch = mine``.  A save that updates no row means
  another owner took the table: this owner stops serving it at once (:attr:`Ownership.on_lost`) and
  never writes it again.  No two owners of one table, ever: the lock keeps a second owner out while
  the first lives, and the epoch refuses the first's writes once a second has it.
* **A lost connection** loses every table at once: the locks die with the session (PostgreSQL
  frees them), so another owner may be taking them already.  The session is never silently opened
  again under the tables: the next scan opens a new one and takes tables as any survivor would.
* **Take-over** (:class:`TakeOver`): every ``interval`` (0.5 s) a survivor asks, in one statement,
  for the playing tables whose lock nobody holds, takes each (lock, epoch + 1), reads its save and
  hands it on (``on_taken``).  PostgreSQL frees a killed owner's locks when its backend sees the
  connection close (milliseconds after ``kill -9``), so a dead owner's tables come back within
  about one interval.  No home-made consensus: the database's locks decide.

Every call may wait for the network: they are made from the table store's writer thread and the
take-over thread, never on the event loop.  The one session is shared by both (psycopg serialises a
connection's statements; :attr:`Ownership._lock` keeps a take and a save apart).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psycopg
import psycopg.errors

from ...text import printable
from ..club.pgpeople import where_of

log = logging.getLogger("canasta.server")

#: The first key of every table's advisory lock (the second is the table's id): "cnst" in ASCII,
#: apart from any other use of advisory locks in the database (two-key locks are a space of their own).
TABLE_LOCKS = 0x636E7374
#: The first key of every owner's name lock (the second is the owner's number in
#: ``canasta_tables.owners``): "cnsf".  An owner holds its name's lock while it lives; its forming
#: tables (``canasta_tables.forming``, by owner) are taken over by a survivor once it is free.
FORMING_LOCKS = 0x636E7366
#: How many dead owners' forming tables one scan takes at most (the next scan takes more).
FORMING_AT_ONCE = 20
#: The highest table id (an advisory lock's second key is a 4-byte integer; a disk store's file
#: names take 9 digits).
MAX_TABLE_ID = 999_999_999
#: How many orphaned tables one scan takes at most (the next scan takes more).
TAKE_AT_ONCE = 50
#: Seconds between two scans for tables nobody owns.
SCAN_INTERVAL = 0.5
#: The longest owner's name kept in a row.
OWNER_MAX = 100

CONNECT_TIMEOUT = 5.0
STATEMENT_TIMEOUT = 10.0
#: TCP keepalives of the owner's session, both ways, in seconds (idle, interval, count): a network
#: gone dead is noticed by both ends within about 11 s, and the database frees the locks.
KEEPALIVES = (5, 2, 3)

PLAYING = "playing"     # a live table: it has an owner, or a survivor takes it
OVER = "over"           # its match is over: its save is the match's record (replays)
ASIDE = "aside"         # set aside (nobody came back): kept, not taken
CORRUPT = "corrupt"     # its save could not be loaded: kept, not taken
STATES = (PLAYING, OVER, ASIDE, CORRUPT)


class OwnershipError(Exception):
    """The database cannot be reached or refused a statement; the message says why (no password)."""


@dataclass(frozen=True)
class Taken:
    """A table this owner just took: its id, its new epoch, and its save's text (the game's format)."""

    id: int
    epoch: int
    save: str


def default_owner() -> str:
    """This machine's name, as an owner's when none is given (a restarted owner keeps its forming
    tables by its name: a room with several owners on one machine names each, ``--node``)."""
    return socket.gethostname()[:OWNER_MAX] or f"pid-{os.getpid()}"


def first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return printable(text[0] if text else type(exc).__name__)[:300]


Conn = psycopg.Connection[tuple[Any, ...]]


def connect(dsn: str, name: str, *, connect_timeout: float = CONNECT_TIMEOUT,
            statement_timeout: float = STATEMENT_TIMEOUT) -> Conn:
    """An autocommit session with bounded waits and keepalives both ways; OwnershipError if none."""
    idle, interval, count = KEEPALIVES
    options = (f"-c statement_timeout={max(1, round(statement_timeout * 1000))} -c client_encoding=UTF8"
               f" -c TimeZone=UTC -c tcp_keepalives_idle={idle} -c tcp_keepalives_interval={interval}"
               f" -c tcp_keepalives_count={count}")
    try:
        return psycopg.connect(dsn, autocommit=True, connect_timeout=max(1, round(connect_timeout)), options=options,
                               application_name=printable(name)[:60], keepalives=1, keepalives_idle=idle,
                               keepalives_interval=interval, keepalives_count=count)
    except psycopg.Error as exc:
        raise OwnershipError(f"{where_of(dsn)}: the tables' database cannot be reached: {first_line(exc)}") from None


class Ownership:
    """The tables this process owns, on one database session that holds their locks."""

    def __init__(self, dsn: str, owner: str = "", *, connect_timeout: float = CONNECT_TIMEOUT,
                 statement_timeout: float = STATEMENT_TIMEOUT) -> None:
        self.dsn = dsn
        self.where = where_of(dsn)
        self.owner = printable(owner or default_owner())[:OWNER_MAX]
        self.connect_timeout = connect_timeout
        self.statement_timeout = statement_timeout
        #: The tables owned now: id -> the epoch this owner holds (a finished one's, to write its end).
        self.held: dict[int, int] = {}
        #: The tables whose lock this session holds (the playing ones of :attr:`held`).
        self.locked: set[int] = set()
        #: Called (table id, why) when a table is lost: its server stops serving it at once.  On the
        #: thread that found out (the writer's or the take-over's): it must not wait for another thread.
        self.on_lost: Callable[[int, str], None] | None = None
        #: Writes refused because the table is not this owner's (a stale epoch, a table never taken).
        self.refused = 0
        #: This session holds the owner's name lock: its forming tables are its own (nobody takes
        #: them) and it may write them.  Lost with the session (:attr:`on_forming_lost`).
        self.named = False
        #: The name lock was lost with a session: the next scan takes it again, and its forming row.
        self._unnamed = False
        #: Called (why) when the name lock is lost with the session: the forming tables stop here
        #: at once (a survivor may take them); on the thread that found out.
        self.on_forming_lost: Callable[[str], None] | None = None
        self._lock = threading.RLock()
        self._conn: Conn | None = None

    # ------------------------------------------------------------------ the session
    def _session(self) -> Conn:
        """The owner's session; a new one only when no table is held (a lost session loses them all)."""
        if self._conn is not None and not self._conn.closed and not self._conn.broken:
            return self._conn
        if self.held or self.named:     # (never a new session under held locks: they died with the old one)
            self.lose_all("the connection to the tables' database was lost")
            raise OwnershipError(f"{self.where}: the connection to the tables' database was lost")
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self._conn = connect(self.dsn, f"canasta owner {self.owner}", connect_timeout=self.connect_timeout,
                             statement_timeout=self.statement_timeout)
        return self._conn

    def _broken(self, exc: psycopg.Error) -> bool:
        """After a failed statement: was the session lost (every table with it)?  A statement the
        database cancelled (its timeout) leaves the session and its locks as they were."""
        conn = self._conn
        if conn is None or conn.closed or conn.broken:
            return True
        return isinstance(exc, psycopg.OperationalError) and not isinstance(exc, psycopg.errors.QueryCanceled)

    def _failed(self, exc: psycopg.Error, what: str) -> OwnershipError:
        """A statement failed: when the session is gone, every table is lost at once."""
        why = first_line(exc)
        if self._broken(exc):
            self.lose_all(f"the connection to the tables' database was lost ({why})")
        return OwnershipError(f"{self.where}: {what}: {why}")

    def check(self) -> bool:
        """Is the session alive?  A dead one loses every table held (and False)."""
        with self._lock:
            if self._conn is None:
                return not self.held
            try:
                self._conn.execute("SELECT 1")
                return True
            except psycopg.Error as exc:
                self._failed(exc, "the session was checked")
                return False

    def lose_all(self, why: str) -> None:
        """Every table held is lost (the session died): each is told, and the session closed."""
        with self._lock:
            lost = sorted(self.held)
            self.held.clear()
            self.locked.clear()
            named, self.named = self.named, False
            self._unnamed = self._unnamed or named
            if self._conn is not None:
                self._conn.close()
                self._conn = None
        if lost:
            log.warning("owner %s lost its tables %s: %s", self.owner, ", ".join(map(str, lost)), why)
        for table_id in lost:
            self._tell_lost(table_id, why)
        if named:
            log.warning("owner %s lost its tables not started: %s", self.owner, why)
            if self.on_forming_lost is not None:
                try:
                    self.on_forming_lost(why)
                except Exception:
                    log.exception("the loss of the tables not started could not be told")

    def _tell_lost(self, table_id: int, why: str) -> None:
        if self.on_lost is not None:
            try:
                self.on_lost(table_id, why)
            except Exception:
                log.exception("the loss of table %d could not be told", table_id)

    def lose(self, table_id: int, why: str) -> None:
        """Table ``table_id`` is no longer this owner's: it is never written again from here."""
        with self._lock:
            had = self.held.pop(table_id, None)
            if had is not None and self._conn is not None and not self._conn.broken:
                try:
                    self._unlock(table_id)
                except psycopg.Error as exc:
                    self._failed(exc, "a lock could not be let go")
        if had is not None:
            log.warning("owner %s no longer serves table %d: %s", self.owner, table_id, why)
            self._tell_lost(table_id, why)

    # ------------------------------------------------------------------ the owner's name
    def _name_number(self, conn: Conn, name: str) -> int:
        """The number of ``name``'s lock (``canasta_tables.owners``: one a name, never two alike)."""
        conn.execute("INSERT INTO canasta_tables.owners (name) VALUES (%s) ON CONFLICT (name) DO NOTHING", (name,))
        row = conn.execute("SELECT n FROM canasta_tables.owners WHERE name = %s", (name,)).fetchone()
        assert row is not None
        return int(row[0])

    def hold_name(self) -> bool:
        """Take this owner's name lock (its forming tables are its own while it lives); False when
        another live process holds it (an owner of the same name: each needs its own)."""
        with self._lock:
            if self.named:
                return True
            try:
                conn = self._session()
                n = self._name_number(conn, self.owner)
                got = conn.execute("SELECT pg_try_advisory_lock(%s, %s)", (FORMING_LOCKS, n)).fetchone()
            except psycopg.Error as exc:
                raise self._failed(exc, "the owner's name could not be held") from None
            self.named = bool(got and got[0])
            return self.named

    def write_forming(self, text: str) -> bool:
        """Keep this owner's forming tables (``""``: it has none), only while it holds its name
        (a survivor may have taken them since the session was lost).  False (logged) if not."""
        with self._lock:
            if not self.named and not self._unnamed:
                self.hold_name()         # (never held yet: a store that did not load first)
            if not self.named:
                self.refused += 1
                log.warning("owner %s: its tables not started were not written: it does not hold its name", self.owner)
                return False
            try:
                conn = self._session()
                if not text:
                    conn.execute("DELETE FROM canasta_tables.forming WHERE owner = %s", (self.owner,))
                else:
                    conn.execute("INSERT INTO canasta_tables.forming (owner, data, updated) VALUES (%s, %s, now())"
                                 " ON CONFLICT (owner) DO UPDATE SET data = excluded.data, updated = now()",
                                 (self.owner, text))
            except psycopg.Error as exc:
                raise self._failed(exc, "the tables not started could not be kept") from None
            return True

    def take_forming(self, limit: int = FORMING_AT_ONCE) -> list[tuple[str, str]]:
        """The forming tables of owners whose name nobody holds (dead ones), as (owner, text): each
        row is taken in one statement under that owner's name lock (deleted: they are this owner's
        now, kept in its own row at its next write), then the lock let go.  After a lost session,
        this owner's own name and row first (its row is kept where it is)."""
        out: list[tuple[str, str]] = []
        with self._lock:
            try:
                conn = self._session()
                if self._unnamed and self.hold_name():
                    self._unnamed = False
                    row = conn.execute("SELECT data FROM canasta_tables.forming WHERE owner = %s",
                                       (self.owner,)).fetchone()
                    if row is not None:
                        out.append((self.owner, str(row[0])))
                if not self.named:
                    return out
                # (the candidates are read first, MATERIALIZED: a lock is tried only on rows returned)
                dead = [(str(r[0]), int(r[1])) for r in conn.execute(
                    "WITH c AS MATERIALIZED (SELECT f.owner, o.n FROM canasta_tables.forming f"
                    " JOIN canasta_tables.owners o ON o.name = f.owner WHERE f.owner <> %s ORDER BY f.owner LIMIT %s)"
                    " SELECT owner, n FROM c WHERE pg_try_advisory_lock(%s, n)",
                    (self.owner, limit, FORMING_LOCKS)).fetchall()]
                for owner, n in dead:
                    row = conn.execute("DELETE FROM canasta_tables.forming WHERE owner = %s RETURNING data",
                                       (owner,)).fetchone()
                    conn.execute("SELECT pg_advisory_unlock(%s, %s)", (FORMING_LOCKS, n))
                    if row is not None:
                        out.append((owner, str(row[0])))
            except psycopg.Error as exc:
                raise self._failed(exc, "the tables not started of owners gone could not be taken") from None
        for owner, _ in out:
            if owner != self.owner:
                log.info("owner %s took the tables not started of owner %s", self.owner, printable(owner))
        return out

    # ------------------------------------------------------------------ taking tables
    def _adopt(self, table_id: int, save: str, state: str, meta: str) -> bool:
        """Own a table that has no row yet (a new table; its number from :meth:`new_id`): lock it,
        then make its row at epoch 1 with its first save.  False (logged) if its row exists already:
        another owner's table, or an old one, is never taken this way."""
        if not 1 <= table_id <= MAX_TABLE_ID:
            self._refused(table_id, "its number is out of bounds")
            return False
        try:
            conn = self._session()
            got = conn.execute("SELECT pg_try_advisory_lock(%s, %s)", (TABLE_LOCKS, table_id)).fetchone()
            if not got or not got[0]:
                self._refused(table_id, "its lock is held by another owner")
                return False
            row = conn.execute(
                "INSERT INTO canasta_tables.tables (id, epoch, owner, state, save, meta, updated)"
                " VALUES (%s, 1, %s, %s, %s, %s, now()) ON CONFLICT (id) DO NOTHING RETURNING epoch",
                (table_id, self.owner, state, save, meta)).fetchone()
            if row is None:
                conn.execute("SELECT pg_advisory_unlock(%s, %s)", (TABLE_LOCKS, table_id))
                self._refused(table_id, "a table of that number is in the database already")
                return False
            # (the sequence never gives this number to another owner)
            conn.execute("SELECT setval('canasta_tables.table_ids', greatest(%s, (SELECT last_value FROM "
                         "canasta_tables.table_ids)))", (table_id,))
        except psycopg.Error as exc:
            raise self._failed(exc, f"table {table_id} could not be made") from None
        self.held[table_id] = 1
        self.locked.add(table_id)
        if state != PLAYING:
            self._unlock(table_id)
        return True

    def _unlock(self, table_id: int) -> None:
        """Let go of a table's lock (its match is over: nobody is to take it), keeping its epoch."""
        if table_id in self.locked:
            self.locked.discard(table_id)
            assert self._conn is not None
            self._conn.execute("SELECT pg_advisory_unlock(%s, %s)", (TABLE_LOCKS, table_id))

    def new_id(self) -> int:
        """A table number no other owner will ever use (from the database's sequence)."""
        with self._lock:
            try:
                row = self._session().execute("SELECT nextval('canasta_tables.table_ids')").fetchone()
            except psycopg.Error as exc:
                raise self._failed(exc, "no table number could be had") from None
            assert row is not None
            return int(row[0])

    def take_orphans(self, limit: int = TAKE_AT_ONCE) -> list[Taken]:
        """Take the playing tables whose lock nobody holds (at most ``limit``): each is locked on this
        session and its epoch bumped; their saves are returned, to be loaded and served."""
        with self._lock:
            try:
                conn = self._session()
                # The candidates are read first (MATERIALIZED): a lock is tried only on rows that are
                # returned, so none is taken and forgotten.
                ids = [int(r[0]) for r in conn.execute(
                    "WITH c AS MATERIALIZED (SELECT id FROM canasta_tables.tables WHERE state = %s"
                    " AND NOT (id = ANY(%s)) ORDER BY id LIMIT %s)"
                    " SELECT id FROM c WHERE pg_try_advisory_lock(%s, id::integer)",
                    (PLAYING, sorted(self.held), limit, TABLE_LOCKS)).fetchall()]
                out: list[Taken] = []
                for table_id in ids:
                    row = conn.execute(
                        "UPDATE canasta_tables.tables SET epoch = epoch + 1, owner = %s, updated = now()"
                        " WHERE id = %s AND state = %s RETURNING epoch, save", (self.owner, table_id, PLAYING)).fetchone()
                    if row is None:     # (finished or set aside between the two statements)
                        conn.execute("SELECT pg_advisory_unlock(%s, %s)", (TABLE_LOCKS, table_id))
                        continue
                    self.held[table_id] = int(row[0])
                    self.locked.add(table_id)
                    out.append(Taken(table_id, int(row[0]), str(row[1])))
            except psycopg.Error as exc:
                raise self._failed(exc, "the tables nobody owns could not be taken") from None
        for t in out:
            log.info("owner %s took table %d (epoch %d)", self.owner, t.id, t.epoch)
        return out

    # ------------------------------------------------------------------ writing
    def save(self, table_id: int, save: str, state: str, meta: str) -> bool:
        """Write table ``table_id``'s save, only if this owner still holds it (``WHERE epoch =
        mine``); a table with no row yet is made (:meth:`_adopt`).  False when the table is not this
        owner's: refused (logged), and lost if it was held.  OwnershipError when the database failed
        (the session lost: every table with it).  A finished table's lock is let go (nobody takes it)."""
        if state not in STATES:
            raise ValueError(f"no table state {state!r}")
        with self._lock:
            epoch = self.held.get(table_id)
            if epoch is None:
                return self._adopt(table_id, save, state, meta)
            try:
                cur = self._session().execute(
                    "UPDATE canasta_tables.tables SET save = %s, state = %s, meta = %s, updated = now()"
                    " WHERE id = %s AND epoch = %s", (save, state, meta, table_id, epoch))
                written = cur.rowcount == 1
                if written and state != PLAYING:
                    self._unlock(table_id)
            except psycopg.Error as exc:
                raise self._failed(exc, f"table {table_id} could not be saved") from None
        if not written:
            self._refused(table_id, f"its epoch is no longer {epoch}: another owner took it")
            self.lose(table_id, f"another owner took it (the save at epoch {epoch} was refused)")
        return written

    def set_state(self, table_id: int, state: str, why: str = "") -> bool:
        """Mark a held table (finished, set aside, damaged: :data:`STATES`) and let it go: it is no
        longer served nor taken.  False if it was not this owner's (refused, logged)."""
        with self._lock:
            epoch = self.held.get(table_id)
            if epoch is None:
                self._refused(table_id, "this owner does not hold it")
                return False
            try:
                conn = self._session()
                cur = conn.execute("UPDATE canasta_tables.tables SET state = %s, why = %s, updated = now()"
                                   " WHERE id = %s AND epoch = %s", (state, why[:500], table_id, epoch))
                del self.held[table_id]
                self._unlock(table_id)
            except psycopg.Error as exc:
                raise self._failed(exc, f"table {table_id} could not be marked {state}") from None
            return cur.rowcount == 1

    def _refused(self, table_id: int, why: str) -> None:
        self.refused += 1
        log.warning("owner %s: a write of table %d was refused: %s", self.owner, table_id, why)

    def close(self) -> None:
        """Let every table go (the session's end frees the locks: a survivor may take them)."""
        with self._lock:
            self.held.clear()
            self.locked.clear()
            self.named = False
            if self._conn is not None:
                self._conn.close()
                self._conn = None


class TakeOver:
    """A survivor's watch: every ``interval`` seconds, check the session (a dead one loses every
    table) and take the tables nobody owns, handing each to ``on_taken`` (on this thread).

    ``wait`` is how the watch waits between scans (``threading.Event.wait`` of its stop event by
    default): a test hands its own to run scans when it says.  :meth:`scan` is one scan."""

    def __init__(self, ownership: Ownership, on_taken: Callable[[Taken], None], *, interval: float = SCAN_INTERVAL,
                 wait: Callable[[float], bool] | None = None,
                 on_forming: Callable[[str, str], None] | None = None) -> None:
        self.ownership = ownership
        self.on_taken = on_taken
        #: Hears (owner, text) of the forming tables taken from an owner gone (None: not taken).
        self.on_forming = on_forming
        self.interval = interval
        self._stop = threading.Event()
        self._wait = wait or self._stop.wait
        self._thread: threading.Thread | None = None
        self.scans = 0
        #: Seconds the last failure to reach the database was logged at (logged once a minute).
        self._complained = 0.0

    def scan(self) -> list[Taken]:
        """One scan: the tables taken (each already handed to ``on_taken``)."""
        self.scans += 1
        own = self.ownership
        if not own.check():
            return []
        try:
            taken = own.take_orphans()
            forming = own.take_forming() if self.on_forming is not None else []
        except OwnershipError as exc:
            now = time.monotonic()
            if now - self._complained > 60:
                self._complained = now
                log.warning("owner %s cannot look for tables to take: %s", own.owner, exc)
            return []
        for t in taken:
            try:
                self.on_taken(t)
            except Exception:
                log.exception("table %d was taken but could not be served", t.id)
                own.lose(t.id, "it could not be served here")
        for owner, text in forming:
            if self.on_forming is not None:
                try:
                    self.on_forming(owner, text)
                except Exception:
                    log.exception("the tables not started of owner %s were taken but could not be served",
                                  printable(owner))
        return taken

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="canasta-take-over", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.scan()
            if self._wait(self.interval) and self._stop.is_set():
                return

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)


__all__ = ["ASIDE", "CORRUPT", "FORMING_LOCKS", "MAX_TABLE_ID", "OVER", "PLAYING", "SCAN_INTERVAL", "STATES", "TABLE_LOCKS",
           "Ownership", "OwnershipError", "TakeOver", "Taken", "connect", "default_owner", "where_of"]
