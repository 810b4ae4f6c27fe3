"""Every table of the server kept in PostgreSQL (issue 32): :class:`PostgresTableStore`, the same
:class:`~.store.TableStore` the server uses on disk, method for method, for table owners that share
one database.

* **One row a table** (``canasta_tables.tables``): ``id`` (from the sequence ``table_ids``, so two
  owners never pick one number), ``epoch``, ``owner``, ``state`` (``playing``, ``over``, ``aside``,
  ``corrupt``), ``save`` (the game's own save format, ``docs/save-format.md``), ``meta`` (its JSON),
  ``why`` (why set aside) and ``updated``.
* **Saves after every move, off the event loop**: the disk store's writer thread, coalescing, and
  telling of trouble, with each write an ``UPDATE … WHERE epoch = mine``
  (:mod:`..cluster.ownership`): a table another owner took is never written again, and its server
  hears :attr:`PostgresTableStore.on_lost`.  :attr:`PostgresTableStore.on_saved` hears each commit
  (a move counts once its save commits).
* **Reading at start** takes the playing tables nobody owns (each locked, its epoch bumped), and a
  survivor's :meth:`PostgresTableStore.watch` takes a dead owner's tables the same way.
* **A finished match's save stays** (``state = over``): it is the match's record, and a replay
  opens at any machine (:meth:`PostgresTableStore.read_record` of ``postgresql:table/<id>``).
* **The forming tables** of an owner are one row of ``canasta_tables.forming``, by owner's name.
* **A damaged save** (or forming row) is kept, marked ``corrupt`` (renamed), with a line in the log.

Its schema is in a PostgreSQL schema of its own, ``canasta_tables`` (:data:`MIGRATIONS`, counted
in ``canasta_tables.version``, applied under the people store's migration lock), so one database
holds the people store's tables and these side by side, whichever starts first.
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg

from ...engine import Match, record
from ...persistence.saves import MAX_SAVE_BYTES, LoadedGame, SaveError, now_iso, parse_record, stamp
from ...text import printable
from ..cluster.ownership import (
    ASIDE,
    CORRUPT,
    OVER,
    OWNER_MAX,
    PLAYING,
    Conn,
    Ownership,
    OwnershipError,
    Taken,
    TakeOver,
    connect,
    first_line,
    where_of,
)
from ..config import ServerConfig
from .store import StoredTable, TableStore

log = logging.getLogger("canasta.server")

#: The advisory lock a migration runs under: the people store's (``club/pgpeople.py``), so the
#: two stores never migrate one database at the same moment.
MIGRATION_LOCK = 0x63616E61737461
#: The PostgreSQL schema the table store's tables live in.
SCHEMA = "canasta_tables"
#: A record kept in the database, as a match's record names it (``matches.record``).
RECORD_REF = re.compile(r"postgresql:table/(\d{1,9})")
#: The longest forming tables' text kept (a server's forming tables are a few KB).
FORMING_MAX = 4 * 1024 * 1024

MIGRATIONS: tuple[str, ...] = (
    # 1: tables and their owners (issue 32, section 3).
    f"""
    CREATE SEQUENCE {SCHEMA}.table_ids MINVALUE 1 MAXVALUE 999999999;
    CREATE TABLE {SCHEMA}.tables (
        id BIGINT PRIMARY KEY CHECK (id BETWEEN 1 AND 999999999),
        epoch BIGINT NOT NULL,
        owner TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('playing', 'over', 'aside', 'corrupt')),
        save TEXT NOT NULL,
        meta TEXT NOT NULL DEFAULT '{{}}',
        why TEXT NOT NULL DEFAULT '',
        updated TIMESTAMPTZ NOT NULL DEFAULT now()
    );
    CREATE INDEX tables_playing ON {SCHEMA}.tables (id) WHERE state = 'playing';
    CREATE TABLE {SCHEMA}.forming (
        owner TEXT PRIMARY KEY,
        data TEXT NOT NULL,
        updated TIMESTAMPTZ NOT NULL DEFAULT now()
    );
    """,
    # 2: owners' names, numbered for their name locks (a dead owner's forming tables are taken over).
    f"""
    CREATE TABLE {SCHEMA}.owners (
        name TEXT PRIMARY KEY,
        n SERIAL UNIQUE
    );
    """,
)
#: The schema version this program writes.
VERSION = len(MIGRATIONS)


def migrate(conn: Conn, where: str) -> None:
    """Bring the table store's schema to :data:`VERSION` (once, however many owners start at once);
    OwnershipError if the database's is newer, or ``canasta_tables`` is another program's."""
    try:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            found = conn.execute("SELECT 1 FROM information_schema.schemata WHERE schema_name = %s", (SCHEMA,)).fetchone()
            if found is None:
                conn.execute(f"CREATE SCHEMA {SCHEMA}")
            names = {str(r[0]) for r in conn.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = %s", (SCHEMA,))}
            if "version" not in names:
                if names:
                    raise OwnershipError(f"{where}: the schema {SCHEMA} is not a canasta table store's (it holds "
                                         f"{', '.join(sorted(printable(n) for n in names)[:8])}); it is left as it is")
                conn.execute(f"CREATE TABLE {SCHEMA}.version (version INTEGER NOT NULL)")
                conn.execute(f"INSERT INTO {SCHEMA}.version (version) VALUES (0)")
            row = conn.execute(f"SELECT version FROM {SCHEMA}.version").fetchone()
            version = int(row[0]) if row else 0
            if version > VERSION:
                raise OwnershipError(f"{where}: the tables' database is of schema {version}, newer than this "
                                     f"program knows ({VERSION}): update canasta")
            for script in MIGRATIONS[version:]:
                conn.execute(script.encode())       # (several statements: sent as they are, no parameters)
            conn.execute(f"UPDATE {SCHEMA}.version SET version = %s", (VERSION,))
    except psycopg.Error as exc:
        raise OwnershipError(f"{where}: the tables' schema could not be made: {first_line(exc)}") from None


def read_table_record(conn: Conn, ref: str) -> LoadedGame:
    """The record of a table kept in the database (``postgresql:table/<id>``, or its number alone),
    read on ``conn`` and checked as a file is; SaveError says why not (no such table, a save over
    :data:`MAX_SAVE_BYTES`, a damaged one, a database that cannot be read)."""
    m = RECORD_REF.fullmatch(ref) or re.fullmatch(r"(\d{1,9})", ref)
    where = Path(ref)
    if m is None:
        raise SaveError(where, "not a table's record (postgresql:table/NUMBER)")
    try:
        row = conn.execute(f"SELECT save, length(save) FROM {SCHEMA}.tables WHERE id = %s",
                           (int(m.group(1)),)).fetchone()
    except psycopg.Error as exc:
        raise SaveError(where, f"the tables' database cannot be read: {first_line(exc)}") from None
    if row is None:
        raise SaveError(where, "no table of that number in the database")
    if int(row[1]) > MAX_SAVE_BYTES:
        raise SaveError(where, f"its save is over {MAX_SAVE_BYTES:,} characters, longer than a save may be")
    return parse_record(str(row[0]), where)


def _finished(match: Match, meta: dict[str, Any]) -> bool:
    """Is the match over (won, or ended by a forfeit)?  Its save is then its record, never taken."""
    server = meta.get("server")
    return match.winner is not None or (isinstance(server, dict) and bool(server.get("forfeit")))


class PostgresTableStore(TableStore):
    """The tables in a PostgreSQL database, owned by ``owner`` (this process: one name a process
    of the cluster).  ``directory`` is where a disk store kept records before (replays of them)."""

    def __init__(self, dsn: str, owner: str = "", directory: Path | None = None, *, owns: bool = True,
                 connect_timeout: float = 5.0, statement_timeout: float = 10.0, name_taken_refuses: bool = False) -> None:
        super().__init__(directory or Path("tables"))
        #: A cluster's owner (its name is its subject on the bus) does not start when another live
        #: process holds its name; a one-process server keeps its forming tables under another.
        self.name_taken_refuses = name_taken_refuses
        self.dsn = dsn
        #: False for a process that serves no table (a cluster's front): it reads records (replays)
        #: and takes, writes and keeps nothing.
        self.owns = owns
        self.where = where_of(dsn)
        self.ownership = Ownership(dsn, owner, connect_timeout=connect_timeout, statement_timeout=statement_timeout)
        self.ownership.on_lost = self._lost
        self.owner = self.ownership.owner
        #: Called (table id, why) when a table is no longer this owner's: stop serving it at once.
        self.on_lost: Callable[[int, str], None] | None = None
        #: Called (why) when the forming tables are no longer this owner's (its session lost: a
        #: survivor may take them): stop showing them at once.
        self.on_forming_lost: Callable[[str], None] | None = None
        self.ownership.on_forming_lost = self._forming_lost
        #: Called (table id, epoch, match) on the writer's thread when a save commits: the moves in
        #: it count now (a publisher may send them on).
        self.on_saved: Callable[[int, int, Match], None] | None = None
        self._timeouts = (connect_timeout, statement_timeout)
        self._db: Conn | None = None        # for the forming tables and records (not the owner's session)
        self._db_lock = threading.Lock()
        self._watch: TakeOver | None = None
        with self._db_lock:
            migrate(self._conn(), self.where)

    def _conn(self) -> Conn:
        if self._db is None or self._db.closed or self._db.broken:
            if self._db is not None:
                self._db.close()
            self._db = connect(self.dsn, f"canasta tables {self.owner}", connect_timeout=self._timeouts[0],
                               statement_timeout=self._timeouts[1])
        return self._db

    # ------------------------------------------------------------------ numbers and records
    def new_id(self) -> int:
        """A table number no other owner will use (the database's sequence).  It may wait for the
        network: call it off the event loop."""
        return self.ownership.new_id()

    def record_ref(self, table_id: int) -> str:
        return f"postgresql:table/{table_id}"

    def read_record(self, ref: str) -> LoadedGame:
        """The record ``ref`` names: a table's save in the database (``postgresql:table/<id>``), or
        a file (a match recorded before the database)."""
        if RECORD_REF.fullmatch(ref) is None:
            return super().read_record(ref)
        with self._db_lock:
            try:
                conn = self._conn()
            except OwnershipError as exc:
                raise SaveError(Path(ref), str(exc)) from None
            return read_table_record(conn, ref)

    # ------------------------------------------------------------------ reading at start, taking over
    def load(self) -> tuple[list[StoredTable], int]:
        """Take every playing table nobody owns (in id order), and the next free id.  A save that
        cannot be loaded is marked ``corrupt`` with a line in the log, never lost."""
        out: list[StoredTable] = []
        if not self.owns:
            return out, 1
        if not self.ownership.hold_name():
            if self.name_taken_refuses:
                raise OwnershipError(f"{self.where}: another owner named {self.owner} is running: give each its "
                                     "own name (--node)")
            # (two one-process servers on one database, neither named: this one's forming tables are
            # kept under a name of its own, which a survivor takes over once this process has ended)
            other = f"{self.owner[:OWNER_MAX - 12]}-{os.getpid()}"
            log.info("another server keeps its tables not started as %s: this one's are kept as %s",
                     printable(self.owner), printable(other))
            self.owner = self.ownership.owner = other
            if not self.ownership.hold_name():
                raise OwnershipError(f"{self.where}: another owner named {other} is running")
        try:
            while True:
                taken = self.ownership.take_orphans()
                out.extend(st for st in map(self.loaded, taken) if st is not None)
                if not taken:
                    break
            with self._db_lock:
                row = self._conn().execute(f"SELECT coalesce(max(id), 0) FROM {SCHEMA}.tables").fetchone()
        except (psycopg.Error, OwnershipError) as exc:
            log.warning("the tables could not be read from %s: %s", self.where, first_line(exc))
            return sorted(out, key=lambda t: t.id), 1
        out.sort(key=lambda t: t.id)
        return out, int(row[0]) + 1 if row else 1

    def loaded(self, taken: Taken) -> StoredTable | None:
        """A table just taken, loaded from its save; None (marked corrupt, or over) if it is not to
        be served."""
        where = Path(self.record_ref(taken.id))
        try:
            if len(taken.save) > MAX_SAVE_BYTES:
                raise SaveError(where, f"its save is over {MAX_SAVE_BYTES:,} characters, longer than a save may be")
            game = parse_record(taken.save, where)
        except SaveError as exc:
            log.warning("table %d could not be loaded (%s); it is kept in the database, marked corrupt",
                        taken.id, printable(exc.reason))
            self._mark(taken.id, CORRUPT, exc.reason)
            return None
        if _finished(game.match, game.meta):
            self._mark(taken.id, OVER, "")
            return None
        with self._lock:
            self._retired.discard(taken.id)      # (taken again after this owner lost it: written again)
        return StoredTable(taken.id, game)

    def _mark(self, table_id: int, state: str, why: str) -> None:
        try:
            self.ownership.set_state(table_id, state, why)
        except OwnershipError as exc:
            log.warning("table %d could not be marked %s: %s", table_id, state, exc)

    def watch(self, on_taken: Callable[[StoredTable], None], *, interval: float = 0.5,
              wait: Callable[[float], bool] | None = None, start: bool = True,
              on_forming: Callable[[object], None] | None = None) -> TakeOver:
        """A survivor's watch (:class:`~..cluster.ownership.TakeOver`): every ``interval`` seconds the
        tables nobody owns are taken, loaded, and each handed to ``on_taken`` (on the watch's thread);
        with ``on_forming``, so are the forming tables of owners gone (each owner's as the JSON data
        :meth:`load_forming` reads).  ``wait`` replaces the wait between scans (tests);
        ``start=False`` leaves it to :meth:`TakeOver.scan`."""
        def taken(t: Taken) -> None:
            st = self.loaded(t)
            if st is not None:
                on_taken(st)

        def forming(owner: str, text: str) -> None:
            data = self._forming_data(owner, text)
            if data is not None and on_forming is not None:
                on_forming(data)

        self._watch = TakeOver(self.ownership, taken, interval=interval, wait=wait,
                               on_forming=forming if on_forming is not None else None)
        if start:
            self._watch.start()
        return self._watch

    def load_forming(self) -> object:
        """This owner's forming tables (JSON data; None if there are none).  A row that cannot be
        read is kept under ``<owner>.corrupt-TIME`` with a line in the log."""
        if not self.owns:
            return None
        try:
            with self._db_lock:
                row = self._conn().execute(f"SELECT data FROM {SCHEMA}.forming WHERE owner = %s",
                                           (self.owner,)).fetchone()
        except (psycopg.Error, OwnershipError) as exc:
            log.warning("the tables not started could not be read from %s: %s", self.where, first_line(exc))
            return None
        if row is None:
            return None
        return self._forming_data(self.owner, str(row[0]))

    def _forming_data(self, owner: str, text: str) -> object:
        """An owner's forming tables' text read (None: it does not read; it is kept, with a line in
        the log, under ``<owner>.corrupt-TIME``, where no owner takes it)."""
        try:
            if len(text) > FORMING_MAX:
                raise ValueError(f"{len(text)} characters, over {FORMING_MAX}")
            return json.loads(text)
        except (ValueError, RecursionError) as exc:
            kept = f"{owner}.corrupt-{stamp()}"
            try:
                with self._db_lock:
                    self._conn().execute(f"INSERT INTO {SCHEMA}.forming (owner, data) VALUES (%s, %s) ON CONFLICT "
                                         "(owner) DO UPDATE SET data = excluded.data", (kept, text))
                    if owner == self.owner:
                        self._conn().execute(f"DELETE FROM {SCHEMA}.forming WHERE owner = %s", (owner,))
            except (psycopg.Error, OwnershipError) as exc2:
                kept = f"nowhere ({first_line(exc2)})"
            log.warning("the tables not started could not be read (%s: %s); the row is kept as %s",
                        printable(owner), printable(str(exc))[:200], printable(kept))
            return None

    # ------------------------------------------------------------------ writing (the writer's thread)
    def _write(self, table_id: int, match: Match, meta: dict[str, Any]) -> None:
        if not self.owns:
            log.warning("table %d was not saved: this process serves no table (%s)", table_id, self.owner)
            return
        try:
            meta = dict(meta)
            meta["saved_at"] = now_iso()
            text = record.dumps(match, meta)
            state = OVER if _finished(match, meta) else PLAYING
            written = self.ownership.save(table_id, text, state, json.dumps(meta, ensure_ascii=False, default=str))
        except OwnershipError as exc:
            self._failed(table_id, str(exc))
            return
        except Exception:  # the writer must outlive any one bad write
            log.exception("table %d could not be saved", table_id)
            self._failed(table_id, "an error in the server")
            return
        if not written:
            with self._lock:
                self._retired.add(table_id)
                self._pending.pop(table_id, None)
            return
        self.writes += 1
        self._saved(table_id)
        if self.on_saved is not None:
            try:
                self.on_saved(table_id, self.ownership.held.get(table_id, 0), match)
            except Exception:
                log.exception("the save of table %d could not be told", table_id)

    def _lost(self, table_id: int, why: str) -> None:
        """The ownership lost ``table_id``: nothing of it is written from here again."""
        with self._lock:
            self._retired.add(table_id)
            self._pending.pop(table_id, None)
        if self.on_lost is not None:
            self.on_lost(table_id, why)

    def _forming_lost(self, why: str) -> None:
        if self.on_forming_lost is not None:
            self.on_forming_lost(why)

    def _put_aside(self, table_id: int, why: str) -> None:
        try:
            done = self.ownership.set_state(table_id, ASIDE, why)
        except OwnershipError as exc:
            log.warning("table %d could not be set aside (%s): %s", table_id, printable(why), exc)
            return
        if done:
            log.warning("table %d was set aside (%s): it is kept in the database as %s", table_id,
                        printable(why), self.record_ref(table_id))

    def _write_forming(self, text: str) -> None:
        if not self.owns:
            return
        try:
            # (on the owner's session, under its name lock: never once a survivor may have them)
            self.ownership.write_forming(text)
        except OwnershipError as exc:
            self.failures += 1
            log.warning("the tables not started could not be kept: %s", exc)

    def close(self, timeout: float = 10.0) -> None:
        """Write what is pending, stop the writer and the watch, and let every table go."""
        if self._watch is not None:
            self._watch.stop(timeout)
        super().close(timeout)
        self.ownership.close()
        with self._db_lock:
            if self._db is not None:
                self._db.close()
                self._db = None


def table_store_for(config: ServerConfig, owner: str = "", owns: bool = True) -> TableStore:
    """The table store of a server of ``config``: its tables' directory (the one-process server), or
    the tables in ``config.database`` (PostgreSQL), owned by ``owner`` (``config.node``, or this
    host: a name per owner of a room).  ``owns=False`` (a cluster's front) only reads records.
    OwnershipError when the database cannot be reached or is not a table store's."""
    if not config.database:
        return TableStore(config.tables_dir)
    return PostgresTableStore(config.database, owner or config.node, config.tables_dir, owns=owns)


__all__ = ["MIGRATIONS", "RECORD_REF", "SCHEMA", "VERSION", "PostgresTableStore", "migrate", "read_table_record",
           "table_store_for"]
