"""The server's people and records on PostgreSQL: :class:`PostgresPeopleStore`, the same
:class:`~.people.PeopleStore` as :class:`~.people.SqlitePeopleStore`, method for method, for
several server processes that share one database (issue 32, ``docs/server-store.md``).

What a shared database needs beyond the SQLite file:

* **ratings under row locks**: :meth:`PostgresPeopleStore.record_match` is one transaction that
  locks the rating rows of every rated entry of the match (``SELECT … FOR UPDATE``, in the order
  of the entries, so two matches never wait for each other in a circle) before it reads them, so
  two processes finishing matches of one person at once give the ratings of one after the other;
* **a name goes to one key**: :meth:`PostgresPeopleStore.put_names` writes a reservation only
  where the name's skeleton (its primary key) is free or already this key's; a name another key
  holds is refused with :class:`NameHeld` (the door's own refusal, :class:`~.names.NameRefused`),
  and nothing of that call is written;
* **text as PostgreSQL can hold it**: a NUL character (which its text cannot hold) is kept as
  U+FFFD, so a line pasted with one is kept, not refused;
* **bounds**: a connection timeout, a statement timeout and an idle-in-transaction timeout on
  every connection; a database that cannot be reached is a :class:`~.people.StoreError` that
  says where (never the password) and why.  A broken connection is opened again on the next call.

Its schema is its own (:data:`MIGRATIONS`, counted in the one-row table ``canasta_schema``,
applied under an advisory lock so that two processes starting at once migrate once).  A database
that holds other tables and no ``canasta_schema`` is another program's: refused, never touched.

Calls are synchronous and may wait for the network: like the SQLite store's, they are made from
the writer's and the recorder's threads (:mod:`.writer`), never on the event loop.  ``canasta
serve`` does not use this store yet (no ``--database``): that is the cluster's next step.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import asdict
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import psycopg
from psycopg.abc import Buffer
from psycopg.conninfo import conninfo_to_dict
from psycopg.types.string import StrDumperUnknown

from ...table.seats import KEY_PREFIX
from ...text import printable
from ..door.names import NameRefused
from ..person import PersonId
from .people import (
    CHAT_KEEP,
    COMPUTER_PREFIX,
    GAMES,
    INVITATION_COUNTER,
    MARKS_MAX,
    MODEL,
    NOTES_KEEP,
    NOTES_WAITING,
    VISITS_KEEP,
    Ban,
    ChatLine,
    ClubReads,
    Game,
    HighScore,
    HistoryRow,
    Invitation,
    Mark,
    MarkKind,
    MatchResult,
    NameRow,
    PersonNote,
    PersonOptions,
    Rating,
    RatingChange,
    RatingRules,
    Standing,
    StoreError,
    Tally,
    Visit,
    _int,
    _tally,
    assess,
    history_row,
    invitation_of,
    marks_read,
    new_rating,
    options_read,
    rate,
    rated,
    shown_points,
)

#: Seconds to wait for a connection to the database.
CONNECT_TIMEOUT = 5.0
#: Seconds a statement may run (or wait for a lock) before it is cancelled.
STATEMENT_TIMEOUT = 10.0
#: Seconds a transaction may sit idle before the database ends it (a stuck process frees its locks).
IDLE_TIMEOUT = 30.0

#: The advisory lock a migration runs under (any fixed number; "canasta" in ASCII).
MIGRATION_LOCK = 0x63616E61737461
#: The advisory locks (with a person's key's hash) that one person's marks and notes are written under ("peop").
PEOPLE_LOCK = 0x70656F70

MIGRATIONS: tuple[str, ...] = (
    # 1: the SQLite store's schema 4 (docs/server-store.md), with PostgreSQL's types: booleans are
    # booleans, times are seconds since the epoch (as the SQLite store keeps them), JSON stays text
    # so that a bad stored value is reported as the SQLite store reports it.
    """
    CREATE TABLE names (
        skeleton TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        since DOUBLE PRECISION NOT NULL,
        seen DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE ratings (
        entry TEXT NOT NULL,
        game TEXT NOT NULL,
        name TEXT NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        matches INTEGER NOT NULL DEFAULT 0,
        updated DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (entry, game)
    );
    CREATE INDEX ratings_game ON ratings (game, (mu - 3 * sigma));
    CREATE TABLE matches (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        game_id TEXT NOT NULL UNIQUE,
        table_id BIGINT NOT NULL,
        finished DOUBLE PRECISION NOT NULL,
        rules TEXT NOT NULL,
        rated BOOLEAN NOT NULL,
        record TEXT NOT NULL,
        winner INTEGER NOT NULL,
        scores TEXT NOT NULL,
        hands INTEGER NOT NULL,
        game TEXT NOT NULL DEFAULT 'canasta',
        forfeit BOOLEAN NOT NULL DEFAULT FALSE
    );
    CREATE TABLE match_seats (
        match_id BIGINT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        entry TEXT NOT NULL,
        name TEXT NOT NULL,
        team INTEGER NOT NULL,
        before_mu DOUBLE PRECISION,
        before_sigma DOUBLE PRECISION,
        after_mu DOUBLE PRECISION,
        after_sigma DOUBLE PRECISION,
        own_turns INTEGER,
        stood_in INTEGER,
        left_match BOOLEAN NOT NULL DEFAULT FALSE,
        unrated TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (match_id, seat)
    );
    CREATE INDEX match_seats_entry ON match_seats (entry);
    CREATE TABLE hands (
        match_id BIGINT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        team INTEGER NOT NULL,
        score INTEGER NOT NULL,
        difference INTEGER NOT NULL,
        PRIMARY KEY (match_id, number, team)
    );
    CREATE TABLE options (
        key TEXT PRIMARY KEY,
        data TEXT NOT NULL,
        updated DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE bans (
        target TEXT PRIMARY KEY,
        until DOUBLE PRECISION NOT NULL,
        reason TEXT NOT NULL,
        banned_by TEXT NOT NULL,
        since DOUBLE PRECISION NOT NULL,
        name TEXT NOT NULL DEFAULT '',
        addresses TEXT NOT NULL DEFAULT '',
        -- (the order bans were written in, the last write of a target last, as the SQLite store's rowid)
        written BIGINT GENERATED BY DEFAULT AS IDENTITY
    );
    CREATE TABLE visits (
        key TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        addresses TEXT NOT NULL,
        seen DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX visits_seen ON visits (seen);
    CREATE TABLE invitations (
        id BIGINT PRIMARY KEY,
        from_key TEXT NOT NULL,
        from_name TEXT NOT NULL,
        to_key TEXT NOT NULL,
        table_id BIGINT NOT NULL,
        made DOUBLE PRECISION NOT NULL,
        UNIQUE (to_key, table_id)
    );
    CREATE TABLE chat (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        who TEXT NOT NULL,
        text TEXT NOT NULL,
        verified BOOLEAN NOT NULL,
        said DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE notes (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 2: the SQLite store's schema 5: friends and muted people, notes left for a person, and the key
    # of who said each lobby chat line
    """
    CREATE TABLE marks (
        key TEXT NOT NULL,
        other TEXT NOT NULL,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        since DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (key, kind, other)
    );
    CREATE TABLE person_notes (
        id TEXT PRIMARY KEY,
        to_key TEXT NOT NULL,
        from_key TEXT NOT NULL,
        from_name TEXT NOT NULL,
        text TEXT NOT NULL,
        written DOUBLE PRECISION NOT NULL,
        read BOOLEAN NOT NULL DEFAULT FALSE
    );
    CREATE INDEX person_notes_to ON person_notes (to_key, written);
    ALTER TABLE chat ADD COLUMN key TEXT NOT NULL DEFAULT '';
    """,
    # 3: the SQLite store's schema 6: whether a match was at a listed table (a match recorded before
    # is taken as private), and matches by when they finished (the club's evening)
    """
    ALTER TABLE matches ADD COLUMN listed BOOLEAN NOT NULL DEFAULT FALSE;
    CREATE INDEX matches_finished ON matches (finished);
    """,
)

#: The schema version this program writes.
VERSION = len(MIGRATIONS)


class NameHeld(NameRefused):
    """A reservation written for a name another key holds in the database (reserved there by
    another process a moment before): refused with the door's words, nothing of the call written."""


class _Text(StrDumperUnknown):
    """Text for the database with each NUL character kept as U+FFFD: PostgreSQL's text cannot hold
    NUL (SQLite's can), and a chat line or a ban's reason pasted with one must be kept, not lost."""

    def dump(self, obj: str) -> Buffer | None:
        return super().dump(obj.replace("\x00", "\ufffd"))


def where_of(dsn: str) -> str:
    """The database a DSN names, for messages and the log: never its password."""
    try:
        parts = conninfo_to_dict(dsn)
    except psycopg.ProgrammingError:
        return "postgresql (a connection string that cannot be read)"
    host = str(parts.get("host") or parts.get("hostaddr") or "localhost")
    port = f":{parts['port']}" if parts.get("port") else ""
    user = f"{parts['user']}@" if parts.get("user") else ""
    return printable(f"postgresql://{user}{host}{port}/{parts.get('dbname') or ''}")


#: SQLSTATE classes and codes of failures that may pass: a lock not available or a statement
#: cancelled by its timeout, a serialization failure or deadlock, too many connections or no room.
PASSING = ("55P03", "57014", "40001", "40P01", "53")


def password_of(dsn: str) -> str:
    """The password a connection string holds ("" if none, or if it cannot be read)."""
    try:
        return str(conninfo_to_dict(dsn).get("password") or "")
    except psycopg.ProgrammingError:
        return ""


def hide_password(text: str, dsn: str) -> str:
    """``text`` with ``dsn``'s password (as written, and as a URL writes it) put out of sight."""
    secret = password_of(dsn)
    for form in {secret, quote(secret, safe="")} if secret else ():
        text = text.replace(form, "***")
    return text


def _limit(n: int) -> int | None:
    """A LIMIT as SQLite reads it: a negative one is none (PostgreSQL refuses it; NULL is none)."""
    return None if n < 0 else n


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return printable(text[0] if text else type(exc).__name__)[:300]


class PostgresPeopleStore(ClubReads):
    """:class:`~.people.PeopleStore` in a PostgreSQL database.  Two connections, as the SQLite
    store's: one reads (a read-only, repeatable-read transaction a call, under its lock), one writes
    (one transaction a write, or a :meth:`batch`, under its own), so a read never waits behind a
    write's transaction."""

    #: Several processes write it: a new name is reserved here before it is let in (:mod:`.writer`).
    shared = True
    placeholder = "%s"

    def __init__(self, dsn: str, *, rules: RatingRules | None = None, connect_timeout: float = CONNECT_TIMEOUT,
                 statement_timeout: float = STATEMENT_TIMEOUT) -> None:
        self.dsn = dsn
        self.path = where_of(dsn)       # (what the SQLite store's path is in messages)
        self.rules = rules or RatingRules()
        self.problem = ""
        self.connect_timeout = connect_timeout
        self.statement_timeout = statement_timeout
        self._lock_wait: float | None = None
        self._lock = threading.RLock()
        self._wlock = threading.RLock()
        self._batch = threading.local()
        self._db: psycopg.Connection[tuple[Any, ...]] | None = None
        self._wdb: psycopg.Connection[tuple[Any, ...]] | None = None
        with self._wlock:
            self._wdb = self._connect()
            try:
                self._migrate(self._wdb)
            except BaseException:
                self._wdb.close()
                raise
        with self._lock:
            self._db = self._reader()

    # ------------------------------------------------------------------ connections
    def _connect(self, lock_wait: float | None = None) -> psycopg.Connection[tuple[Any, ...]]:
        ms = max(1, round(self.statement_timeout * 1000))
        options = (f"-c statement_timeout={ms} -c idle_in_transaction_session_timeout={round(IDLE_TIMEOUT * 1000)}"
                   " -c client_encoding=UTF8 -c TimeZone=UTC")
        if lock_wait is not None:
            options += f" -c lock_timeout={max(1, round(lock_wait * 1000))}"
        try:
            conn = psycopg.connect(self.dsn, autocommit=True, connect_timeout=max(1, round(self.connect_timeout)),
                                   options=options, application_name="canasta serve")
        except psycopg.Error as exc:
            raise StoreError(f"{self.path}: the server's people database cannot be reached: {self._said(exc)}",
                             waits=True) from None
        conn.adapters.register_dumper(str, _Text)
        return conn

    def _reader(self) -> psycopg.Connection[tuple[Any, ...]]:
        """The reading connection: each read one snapshot (a person's record is read in several
        statements; a match recorded meanwhile shows in all of them or in none)."""
        conn = self._connect()
        conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        conn.read_only = True
        return conn

    def _fresh(self, conn: psycopg.Connection[tuple[Any, ...]] | None,
               lock_wait: float | None = None) -> psycopg.Connection[tuple[Any, ...]]:
        """``conn``, or a new connection where it was lost (the database restarted, the network dropped)."""
        if conn is not None and not conn.closed and not conn.broken:
            return conn
        if conn is not None:
            conn.close()
        return self._connect(lock_wait)

    def _migrate(self, db: psycopg.Connection[tuple[Any, ...]]) -> None:
        with self._errors(), db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            tables = {str(r[0]) for r in db.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")}
            if "canasta_schema" not in tables:
                if tables:
                    raise StoreError(f"{self.path}: not a canasta server's people database (it holds the tables "
                                     f"{', '.join(sorted(printable(t) for t in tables)[:8])}); it is left as it is")
                db.execute("CREATE TABLE canasta_schema (version INTEGER NOT NULL)")
                db.execute("INSERT INTO canasta_schema(version) VALUES (0)")
            row = db.execute("SELECT version FROM canasta_schema").fetchone()
            version = int(row[0]) if row else 0
            if version > VERSION:
                raise StoreError(f"{self.path}: the server's people database is of schema {version}, newer than "
                                 f"this program knows ({VERSION}): update canasta")
            for script in MIGRATIONS[version:]:
                db.execute(script.encode())     # (several statements: sent as they are, no parameters)
            db.execute("UPDATE canasta_schema SET version = %s", (VERSION,))

    def write_wait(self, seconds: float) -> None:
        """How long a write waits for another process's lock on a row before it fails."""
        with self._wlock:
            self._lock_wait = max(0.0, seconds)
            self._wdb = self._fresh(self._wdb, self._lock_wait)
            with self._errors():
                self._wdb.execute(f"SET lock_timeout = {max(1, round(seconds * 1000))}")

    @contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction for every write made inside (on this thread): whole or not at all."""
        if getattr(self._batch, "db", None) is not None:
            yield
            return
        with self._writing() as db:
            self._batch.db = db
            try:
                yield
            finally:
                self._batch.db = None

    @contextmanager
    def _writing(self) -> Iterator[psycopg.Connection[tuple[Any, ...]]]:
        inside = getattr(self._batch, "db", None)
        if inside is not None:
            yield inside
            return
        with self._wlock, self._errors(), ExitStack() as stack:
            try:
                self._wdb = db = self._fresh(self._wdb, self._lock_wait)
                stack.enter_context(db.transaction())
            except psycopg.OperationalError:
                # (the connection was lost since its last call, the database restarted: nothing was
                # sent but BEGIN, so one new connection is tried at once)
                if self._wdb is not None:
                    self._wdb.close()
                self._wdb = db = self._connect(self._lock_wait)
                stack.enter_context(db.transaction())
            yield db

    @contextmanager
    def _reading(self) -> Iterator[psycopg.Connection[tuple[Any, ...]]]:
        # (one transaction a read, :meth:`_reader`; a connection lost since the last call is found
        # at BEGIN and opened again)
        with self._lock, self._errors(), ExitStack() as stack:
            try:
                db = self._db
                if db is None or db.closed or db.broken:
                    db = self._reader()
                self._db = db
                stack.enter_context(db.transaction())
            except psycopg.OperationalError:
                if self._db is not None:
                    self._db.close()
                self._db = db = self._reader()
                stack.enter_context(db.transaction())
            yield db

    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except psycopg.Error as exc:
            if exc.sqlstate is None or exc.sqlstate.startswith(("08", "57P")):     # (no answer, or shut down)
                raise StoreError(f"{self.path}: the server's people database cannot be reached: "
                                 f"{self._said(exc)}", waits=True) from None
            raise StoreError(f"{self.path}: the server's people database: {self._said(exc)}",
                             waits=exc.sqlstate.startswith(PASSING)) from None

    def _said(self, exc: BaseException) -> str:
        """The database's first line about ``exc``, never with the password in it."""
        return hide_password(_first_line(exc), self.dsn)

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
        with self._wlock:
            if self._wdb is not None:
                self._wdb.close()

    # ------------------------------------------------------------------ names
    def names(self) -> list[NameRow]:
        with self._reading() as db:
            return [NameRow(str(a), str(b), str(c), float(d), float(e)) for a, b, c, d, e in
                    db.execute("SELECT skeleton, name, fingerprint, since, seen FROM names ORDER BY since, skeleton")]

    def put_names(self, rows: Sequence[NameRow], gone: Sequence[str] = ()) -> None:
        """Write reservations and drop ``gone``; a row whose name another key holds in the database
        is refused (:class:`NameHeld`) and nothing of the call is written.  The skeleton's unique key
        decides between two processes reserving one name at once: the second waits for the first's
        transaction, then finds the name taken."""
        with self._writing() as db:
            if gone:
                db.execute("DELETE FROM names WHERE skeleton = ANY(%s)", (list(gone),))
            for r in sorted(rows, key=lambda r: r.skeleton):       # (one order: two calls never deadlock)
                got = db.execute(
                    "INSERT INTO names(skeleton, name, fingerprint, since, seen) VALUES (%s, %s, %s, %s, %s)"
                    " ON CONFLICT (skeleton) DO UPDATE SET name = EXCLUDED.name, since = EXCLUDED.since,"
                    " seen = EXCLUDED.seen WHERE names.fingerprint = EXCLUDED.fingerprint RETURNING skeleton",
                    tuple(r)).fetchone()
                if got is None:
                    held = db.execute("SELECT name FROM names WHERE skeleton = %s", (r.skeleton,)).fetchone()
                    shown = str(held[0]) if held else r.name
                    said = f"the name {r.name} is" if shown == r.name else f"the name {r.name} looks like {shown}, which is"
                    raise NameHeld(f"{said} reserved by another person's key on this server. "
                                   "Connect with another name: ssh -l NAME ...")

    def note(self, name: str) -> str | None:
        with self._reading() as db:
            row = db.execute("SELECT value FROM notes WHERE name = %s", (name,)).fetchone()
        return None if row is None else str(row[0])

    def set_note(self, name: str, value: str) -> None:
        with self._writing() as db:
            db.execute("INSERT INTO notes(name, value) VALUES (%s, %s)"
                       " ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value", (name, value))

    # ------------------------------------------------------------------ ratings and matches
    @staticmethod
    def _rating(db: psycopg.Connection[tuple[Any, ...]], entry: str, game: Game, name: str = "") -> Rating:
        row = db.execute("SELECT name, mu, sigma, matches FROM ratings WHERE entry = %s AND game = %s",
                         (entry, game.value)).fetchone()
        if row is None or int(row[3]) == 0:     # (a row record_match locked but did not move is no rating)
            return new_rating(entry, name or entry, game)
        return Rating(entry, str(row[0]), float(row[1]), float(row[2]), int(row[3]), game)

    def rating(self, entry: str, game: Game = Game.CANASTA) -> Rating:
        with self._reading() as db:
            return self._rating(db, entry, game)

    def _established(self, db: psycopg.Connection[tuple[Any, ...]], entry: str, game: Game) -> bool:
        """As :meth:`SqlitePeopleStore._established <.people.SqlitePeopleStore._established>`."""
        if entry.startswith(COMPUTER_PREFIX) or self.rules.provisional <= 0:
            return True
        if not entry.startswith(KEY_PREFIX):
            return False
        row = db.execute(
            "SELECT COUNT(*) FROM match_seats s JOIN matches m ON m.id = s.match_id WHERE s.entry = %s"
            " AND m.rated AND m.game = %s AND s.after_mu IS NOT NULL AND NOT s.left_match"
            " AND (s.own_turns IS NULL OR s.own_turns >= s.stood_in)", (entry, game.value)).fetchone()
        return int(row[0] if row else 0) >= self.rules.provisional

    def established(self, entry: str, game: Game = Game.CANASTA) -> bool:
        with self._reading() as db:
            return self._established(db, entry, game)

    def ratings_of(self, entry: str) -> list[Rating]:
        with self._reading() as db:
            rows = db.execute("SELECT game, name, mu, sigma, matches FROM ratings WHERE entry = %s AND matches > 0",
                              (entry,)).fetchall()
        known = {g.value: g for g in GAMES}
        got = [Rating(entry, str(n), float(mu), float(sg), int(m), known[str(g)])
               for g, n, mu, sg, m in rows if str(g) in known]
        return sorted(got, key=lambda r: GAMES.index(r.game))

    def record_match(self, result: MatchResult) -> list[RatingChange]:
        """Record a finished match (once: the same game again changes nothing) and, if it was
        rated, move its players' ratings; what changed.  One transaction: the rating rows of every
        rated entry are locked first, in the entries' order (a row not there yet is made so that it
        can be locked: it is no rating until a match moves it), then read, so that two processes
        recording matches of one person give the ratings of one match after the other."""
        changes: list[RatingChange] = []
        with self._writing() as db:
            entries = sorted({s.entry for s in result.seats if rated(s.entry)})
            game = result.game.value
            if entries:
                now = result.finished
                db.execute("INSERT INTO ratings(entry, game, name, mu, sigma, matches, updated)"
                           " SELECT e, %s, e, %s, %s, 0, %s FROM unnest(%s::text[]) AS e ORDER BY e"
                           " ON CONFLICT (entry, game) DO NOTHING",
                           (game, MODEL.mu, MODEL.sigma, now, entries))
                db.execute("SELECT entry FROM ratings WHERE game = %s AND entry = ANY(%s) ORDER BY entry FOR UPDATE",
                           (game, entries))
            # (after the locks: a match of the same game recorded meanwhile by another process is seen)
            if db.execute("SELECT 1 FROM matches WHERE game_id = %s", (result.game_id,)).fetchone():
                return []
            before: dict[str, Rating] = {}
            for s in result.seats:
                if rated(s.entry) and s.entry not in before:
                    before[s.entry] = self._rating(db, s.entry, result.game, s.name)._replace(name=s.name)
            why: dict[str, str] = {}
            after: dict[str, Rating] = {}
            if result.rated:
                why = assess(result, lambda e: self._established(db, e, result.game))
                after = rate(result, before, [e for e, w in why.items() if not w])
            row = db.execute(
                "INSERT INTO matches(game_id, table_id, finished, rules, rated, record, winner, scores, hands, game,"
                " forfeit, listed) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
                (result.game_id, result.table_id, result.finished, result.rules, result.rated, result.record,
                 result.winner, json.dumps(list(result.scores)), len({h.number for h in result.hands}),
                 game, result.forfeit, result.listed)).fetchone()
            assert row is not None
            mid = int(row[0])
            with db.cursor() as cur:
                seats = []
                for i, s in enumerate(result.seats):
                    b, a = before.get(s.entry), after.get(s.entry)
                    person = not s.entry.startswith(COMPUTER_PREFIX)
                    seats.append((mid, i, s.entry, s.name, s.team, b.mu if b and a else None,
                                  b.sigma if b and a else None, a.mu if a else None, a.sigma if a else None,
                                  s.turns if person else None, s.stood_in if person else None, s.left,
                                  why.get(s.entry, "")))
                cur.executemany("INSERT INTO match_seats(match_id, seat, entry, name, team, before_mu, before_sigma,"
                                " after_mu, after_sigma, own_turns, stood_in, left_match, unrated)"
                                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)", seats)
                if result.hands:
                    cur.executemany("INSERT INTO hands(match_id, number, team, score, difference)"
                                    " VALUES (%s, %s, %s, %s, %s)",
                                    [(mid, h.number, h.team, h.score, h.difference) for h in result.hands])
            for entry, r in after.items():
                db.execute("UPDATE ratings SET name = %s, mu = %s, sigma = %s, matches = %s, updated = %s"
                           " WHERE entry = %s AND game = %s", (r.name, r.mu, r.sigma, r.matches, result.finished,
                                                                 entry, game))
                changes.append(RatingChange(entry, before[entry], r))
        return changes

    # ------------------------------------------------------------------ a person's record
    def matches_of(self, person: PersonId, limit: int = 20) -> list[HistoryRow]:
        out = []
        with self._reading() as db:
            rows = db.execute(
                "SELECT m.id, m.game_id, m.finished, m.rules, m.rated, m.record, m.winner, m.scores, s.team,"
                " s.seat, s.before_mu, s.before_sigma, s.after_mu, s.after_sigma, s.own_turns, s.stood_in,"
                " s.left_match, s.unrated, m.forfeit FROM match_seats s JOIN matches m ON m.id = s.match_id"
                " WHERE s.entry = %s ORDER BY m.finished DESC, m.id DESC LIMIT %s", (str(person), _limit(limit))).fetchall()
            for row in rows:
                others = db.execute("SELECT name, team, stood_in FROM match_seats WHERE match_id = %s AND seat != %s"
                                    " ORDER BY seat", (row[0], row[9])).fetchall()
                out.append(history_row(row, others))
        return out

    def wins_by_partner(self, person: PersonId) -> list[Tally]:
        with self._reading() as db:
            rows = db.execute(
                "SELECT p.entry, p.name, m.winner = s.team FROM match_seats s JOIN matches m ON m.id = s.match_id"
                " JOIN match_seats p ON p.match_id = s.match_id AND p.team = s.team AND p.seat != s.seat"
                " WHERE s.entry = %s ORDER BY m.finished, m.id, p.seat", (str(person),)).fetchall()
        return _tally((str(e), str(n), bool(w)) for e, n, w in rows)

    def wins_by_rules(self, person: PersonId) -> list[Tally]:
        with self._reading() as db:
            rows = db.execute(
                "SELECT m.rules, m.rules, m.winner = s.team FROM match_seats s JOIN matches m ON m.id = s.match_id"
                " WHERE s.entry = %s ORDER BY m.finished, m.id", (str(person),)).fetchall()
        return _tally((str(e), str(n), bool(w)) for e, n, w in rows)

    def high_scores(self, person: PersonId, limit: int = 10) -> list[HighScore]:
        with self._reading() as db:
            rows = db.execute(
                "SELECT h.difference, h.score, h.number, m.rules, m.finished FROM match_seats s"
                " JOIN matches m ON m.id = s.match_id JOIN hands h ON h.match_id = s.match_id AND h.team = s.team"
                " WHERE s.entry = %s ORDER BY h.difference DESC, m.finished, m.id, h.number LIMIT %s",
                (str(person), _limit(limit))).fetchall()
        return [HighScore(int(d), int(sc), int(n), str(r), float(f)) for d, sc, n, r, f in rows]

    def leaderboard(self, limit: int = 20, game: Game = Game.CANASTA) -> list[Standing]:
        with self._reading() as db:
            rows = db.execute(
                "SELECT r.entry, r.name, r.mu, r.sigma, r.matches, (SELECT COUNT(DISTINCT m.id) FROM match_seats s"
                " JOIN matches m ON m.id = s.match_id WHERE s.entry = r.entry AND m.rated AND m.game = r.game"
                " AND m.winner = s.team AND s.unrated = '')"
                " FROM ratings r WHERE r.game = %s AND r.matches > 0"
                " ORDER BY r.mu - 3 * r.sigma DESC, r.matches DESC, r.entry LIMIT %s", (game.value, _limit(limit))).fetchall()
        return [Standing(i + 1, str(e), str(n), shown_points(float(mu), float(sg)), int(m), int(w))
                for i, (e, n, mu, sg, m, w) in enumerate(rows)]

    # ------------------------------------------------------------------ options
    def options_of(self, person: PersonId) -> PersonOptions | None:
        with self._reading() as db:
            row = db.execute("SELECT data FROM options WHERE key = %s", (str(person),)).fetchone()
        return None if row is None else options_read(person, row[0])

    def set_options(self, person: PersonId, options: PersonOptions) -> None:
        with self._writing() as db:
            db.execute("INSERT INTO options(key, data, updated) VALUES (%s, %s, %s) ON CONFLICT (key) DO UPDATE"
                       " SET data = EXCLUDED.data, updated = EXCLUDED.updated",
                       (str(person), json.dumps(asdict(options)), time.time()))

    # ------------------------------------------------------------------ bans
    def ban(self, ban: Ban) -> None:
        with self._writing() as db:
            db.execute("INSERT INTO bans(target, until, reason, banned_by, since, name, addresses)"
                       " VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (target) DO UPDATE SET until = EXCLUDED.until,"
                       " reason = EXCLUDED.reason, banned_by = EXCLUDED.banned_by, since = EXCLUDED.since,"
                       " name = EXCLUDED.name, addresses = EXCLUDED.addresses, written = EXCLUDED.written",
                       (*ban[:6], " ".join(ban.addresses)))

    def unban(self, target: str) -> bool:
        with self._writing() as db:
            return db.execute("DELETE FROM bans WHERE target = %s", (target,)).rowcount > 0

    def bans(self, now: float) -> list[Ban]:
        """The bans in force at ``now`` (those over are forgotten)."""
        with self._writing() as db:
            db.execute("DELETE FROM bans WHERE until <= %s", (now,))
            return [Ban(str(t), float(u), str(r), str(b), float(s), str(n), tuple(str(a).split()))
                    for t, u, r, b, s, n, a in db.execute(
                        "SELECT target, until, reason, banned_by, since, name, addresses FROM bans"
                        " ORDER BY since, written")]

    # ------------------------------------------------------------------ recent visitors
    def visit(self, visit: Visit, keep: int = VISITS_KEEP) -> None:
        with self._writing() as db:
            db.execute("INSERT INTO visits(key, name, addresses, seen) VALUES (%s, %s, %s, %s) ON CONFLICT (key)"
                       " DO UPDATE SET name = EXCLUDED.name, addresses = EXCLUDED.addresses, seen = EXCLUDED.seen",
                       (visit.key, visit.name, " ".join(visit.addresses), visit.seen))
            db.execute("DELETE FROM visits WHERE key NOT IN (SELECT key FROM visits ORDER BY seen DESC, key LIMIT %s)",
                       (_limit(keep),))

    def visits(self, limit: int = VISITS_KEEP) -> list[Visit]:
        with self._reading() as db:
            return [Visit(str(k), str(n), tuple(str(a).split()), float(s)) for k, n, a, s in
                    db.execute("SELECT key, name, addresses, seen FROM visits ORDER BY seen DESC, key LIMIT %s",
                               (_limit(limit),))]

    # ------------------------------------------------------------------ invitations
    @staticmethod
    def _counter(db: psycopg.Connection[tuple[Any, ...]]) -> int:
        """The last invitation number, its note locked until the transaction ends (two processes
        inviting at once never give one number twice)."""
        db.execute("INSERT INTO notes(name, value) VALUES (%s, '0') ON CONFLICT (name) DO NOTHING",
                   (INVITATION_COUNTER,))
        kept = db.execute("SELECT value FROM notes WHERE name = %s FOR UPDATE", (INVITATION_COUNTER,)).fetchone()
        highest = db.execute("SELECT MAX(id) FROM invitations").fetchone()
        return max(_int(kept[0]) if kept else 0, int(highest[0] or 0) if highest else 0)

    def invite(self, from_key: PersonId, from_name: str, to_key: PersonId, table_id: int, made: float) -> Invitation:
        with self._writing() as db:
            inv = Invitation(self._counter(db) + 1, from_key, from_name, to_key, table_id, made)
            db.execute("DELETE FROM invitations WHERE to_key = %s AND table_id = %s", (str(to_key), table_id))
            db.execute("INSERT INTO invitations(id, from_key, from_name, to_key, table_id, made)"
                       " VALUES (%s, %s, %s, %s, %s, %s)", inv.row())
            db.execute("UPDATE notes SET value = %s WHERE name = %s", (str(inv.id), INVITATION_COUNTER))
        return inv

    def last_invitation(self) -> int:
        with self._reading() as db:
            kept = db.execute("SELECT value FROM notes WHERE name = %s", (INVITATION_COUNTER,)).fetchone()
            highest = db.execute("SELECT MAX(id) FROM invitations").fetchone()
        return max(_int(kept[0]) if kept else 0, int(highest[0] or 0) if highest else 0)

    def claim_invitations(self, n: int) -> int:
        """Claim ``n`` invitation numbers for one process: the last number before them (the block is
        the ``n`` after it); no other process is given any of them."""
        with self._writing() as db:
            last = self._counter(db)
            db.execute("UPDATE notes SET value = %s WHERE name = %s", (str(last + n), INVITATION_COUNTER))
        return last

    def put_invitation(self, inv: Invitation) -> None:
        """Keep an invitation numbered by its caller (:mod:`.writer` numbers them in memory)."""
        with self._writing() as db:
            last = self._counter(db)
            db.execute("DELETE FROM invitations WHERE (to_key = %s AND table_id = %s) OR id = %s",
                       (str(inv.to_key), inv.table_id, inv.id))
            db.execute("INSERT INTO invitations(id, from_key, from_name, to_key, table_id, made)"
                       " VALUES (%s, %s, %s, %s, %s, %s)", inv.row())
            if inv.id > last:
                db.execute("UPDATE notes SET value = %s WHERE name = %s", (str(inv.id), INVITATION_COUNTER))

    def _invitations(self, where: str = "", args: tuple[Any, ...] = ()) -> list[Invitation]:
        with self._reading() as db:
            rows = db.execute("SELECT id, from_key, from_name, to_key, table_id, made FROM invitations"
                              f" {where} ORDER BY made, id", args).fetchall()
        return [inv for inv in map(invitation_of, rows) if inv is not None]

    def invitations_for(self, person: PersonId) -> list[Invitation]:
        return self._invitations("WHERE to_key = %s", (str(person),))

    def invitations(self) -> list[Invitation]:
        return self._invitations()

    def withdraw(self, invitation_id: int) -> bool:
        with self._writing() as db:
            return db.execute("DELETE FROM invitations WHERE id = %s", (invitation_id,)).rowcount > 0

    def withdraw_table(self, table_id: int) -> int:
        with self._writing() as db:
            return int(db.execute("DELETE FROM invitations WHERE table_id = %s", (table_id,)).rowcount)

    # ------------------------------------------------------------------ chat
    def add_chat(self, line: ChatLine, keep: int = CHAT_KEEP) -> None:
        with self._writing() as db:
            db.execute("INSERT INTO chat(who, text, verified, said, key) VALUES (%s, %s, %s, %s, %s)",
                       (line.who, line.text, line.verified, line.said, line.key))
            db.execute("DELETE FROM chat WHERE id NOT IN (SELECT id FROM chat ORDER BY id DESC LIMIT %s)",
                       (_limit(keep),))

    def last_chat(self, n: int = CHAT_KEEP) -> list[ChatLine]:
        with self._reading() as db:
            rows = db.execute("SELECT who, text, verified, said, key FROM chat ORDER BY id DESC LIMIT %s",
                              (_limit(n),)).fetchall()
        return [ChatLine(str(w), str(t), bool(v), float(s), str(k)) for w, t, v, s, k in reversed(rows)]

    # ------------------------------------------------------------------ friends, mutes, notes (issue 34)
    def marks_of(self, key: str) -> list[Mark]:
        with self._reading() as db:
            rows = db.execute("SELECT other, kind, name, since FROM marks WHERE key = %s ORDER BY since, other",
                              (key,)).fetchall()
        return marks_read(rows)

    def mark(self, key: str, mark: Mark) -> None:
        with self._writing() as db:
            # (the person's marks one writer at a time: two fronts never pass the bound together)
            db.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (PEOPLE_LOCK, key))
            held = db.execute("SELECT COUNT(*) FROM marks WHERE key = %s AND kind = %s AND other != %s",
                              (key, mark.kind.value, mark.other)).fetchone()
            if held is not None and int(held[0]) < MARKS_MAX:
                db.execute("INSERT INTO marks(key, other, kind, name, since) VALUES (%s, %s, %s, %s, %s)"
                           " ON CONFLICT (key, kind, other) DO UPDATE SET name = EXCLUDED.name, since = EXCLUDED.since",
                           (key, mark.other, mark.kind.value, mark.name, mark.since))

    def unmark(self, key: str, other: str, kind: MarkKind) -> bool:
        with self._writing() as db:
            return db.execute("DELETE FROM marks WHERE key = %s AND other = %s AND kind = %s",
                              (key, other, kind.value)).rowcount > 0

    def leave_note(self, note: PersonNote, waiting: int = NOTES_WAITING, keep: int = NOTES_KEEP) -> bool:
        with self._writing() as db:
            # (one recipient's notes one writer at a time: fronts leaving notes at once keep the bound)
            db.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (PEOPLE_LOCK, note.to_key))
            if db.execute("SELECT 1 FROM person_notes WHERE id = %s", (note.id,)).fetchone():
                db.execute("UPDATE person_notes SET read = %s WHERE id = %s", (note.read, note.id))
                return True
            unread = db.execute("SELECT COUNT(*) FROM person_notes WHERE to_key = %s AND NOT read",
                                (note.to_key,)).fetchone()
            if unread is not None and int(unread[0]) >= waiting:
                return False
            db.execute("INSERT INTO person_notes(id, to_key, from_key, from_name, text, written, read)"
                       " VALUES (%s, %s, %s, %s, %s, %s, %s)", tuple(note))
            db.execute("DELETE FROM person_notes WHERE to_key = %s AND read AND id NOT IN (SELECT id FROM"
                       " person_notes WHERE to_key = %s ORDER BY written DESC, id LIMIT %s)",
                       (note.to_key, note.to_key, _limit(keep)))
        return True

    def notes_for(self, key: str) -> list[PersonNote]:
        with self._reading() as db:
            rows = db.execute("SELECT id, to_key, from_key, from_name, text, written, read FROM person_notes"
                              " WHERE to_key = %s ORDER BY written, id", (key,)).fetchall()
        return [PersonNote(str(i), str(t), str(f), str(fn), str(x), float(w), bool(r)) for i, t, f, fn, x, w, r in rows]

    def notes_waiting(self, keys: Sequence[str]) -> dict[str, tuple[int, float]]:
        with self._reading() as db:
            rows = db.execute("SELECT to_key, COUNT(*), MAX(written) FROM person_notes WHERE NOT read"
                              " AND to_key = ANY(%s) GROUP BY to_key", (list(keys),)).fetchall()
        return {str(k): (int(n), float(w)) for k, n, w in rows}

    def read_notes(self, key: str, ids: Sequence[str]) -> None:
        with self._writing() as db:
            db.execute("UPDATE person_notes SET read = TRUE WHERE to_key = %s AND id = ANY(%s)", (key, list(ids)))

    def drop_note(self, key: str, note_id: str) -> bool:
        with self._writing() as db:
            return db.execute("DELETE FROM person_notes WHERE to_key = %s AND id = %s", (key, note_id)).rowcount > 0


if TYPE_CHECKING:       # (mypy --strict checks that the class is the whole PeopleStore)
    from .people import PeopleStore

    def _is_a_people_store(dsn: str) -> PeopleStore:
        return PostgresPeopleStore(dsn)


__all__ = ["CONNECT_TIMEOUT", "IDLE_TIMEOUT", "MIGRATIONS", "STATEMENT_TIMEOUT", "VERSION", "NameHeld",
           "PostgresPeopleStore", "where_of"]
