"""Players, results, high scores and match history in SQLite (the XDG data directory).

Several games may finish at once (two terminals, later a table server), so the
database runs in WAL mode with a busy timeout, every write is one short
``BEGIN IMMEDIATE`` transaction, and the schema is versioned with
``PRAGMA user_version`` and upgraded by :data:`MIGRATIONS` in order.

A database this program did not write, or one that is damaged, is never changed:
its schema (version, tables, columns) and its pages are checked before anything is
written or its journal mode switched, and the queries for display open it read-only.
Every failure is one :class:`StatsError` whose message says what and where; a lock
held by another process is reported as busy after a short wait instead of hanging.

As the Windows game defines them:

* **Win Ratio**: wins and losses of matches per player and computer level, and the
  percentage of matches won.  A reset sets the counters to zero (the match history
  is kept).
* **High scores**: per computer level, the top ten single hands, scored as the
  **difference** between the player's side and the best other side in that hand.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import time
import urllib.parse
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..engine import Match, end_text, team, team_name
from ..text import NAME_MAX, BadName, check_name, printable
from . import paths

#: How long an interactive command (``canasta stats``) waits for another writer before it says "busy".
BUSY_TIMEOUT = 2.0
#: How long recording a finished match waits (it runs off the table's thread).
RECORD_TIMEOUT = 5.0
#: SQLite keeps integers in 64 bits.
INT64 = (-(1 << 63), (1 << 63) - 1)

MIGRATIONS: list[str] = [
    # 1: players, matches (with the score sheet as JSON), hands (for high scores)
    """
    CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        created TEXT NOT NULL
    );
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        player_id INTEGER NOT NULL REFERENCES players(id),
        level TEXT NOT NULL,
        rules TEXT NOT NULL,
        finished TEXT NOT NULL,
        won INTEGER NOT NULL,
        our_score INTEGER NOT NULL,
        their_score INTEGER NOT NULL,
        hands INTEGER NOT NULL,
        sheet TEXT NOT NULL,
        counted INTEGER NOT NULL DEFAULT 1,
        game_key TEXT,
        UNIQUE (game_key, player_id)
    );
    CREATE INDEX matches_player_level ON matches(player_id, level);
    CREATE TABLE hands (
        match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        difference INTEGER NOT NULL,
        PRIMARY KEY (match_id, number)
    );
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)
_BUSY_CODES = {getattr(sqlite3, "SQLITE_BUSY", 5), getattr(sqlite3, "SQLITE_LOCKED", 6)}


@dataclass(frozen=True)
class Database:
    """A kind of SQLite file this program keeps: what it is called in messages, its schema's
    migrations (``PRAGMA user_version`` counts them), and what to do with a file that is not usable.
    The helpers below (:func:`connect`, :func:`reading`, :func:`check_schema`) serve every kind:
    the statistics here, the table server's people and records (``server/club/people.py``)."""

    noun: str
    migrations: tuple[str, ...]
    afresh: str

    @property
    def version(self) -> int:
        return len(self.migrations)


#: The statistics database.
STATS = Database("statistics", tuple(MIGRATIONS),
                 "it is left as it is (move it away and canasta starts new statistics)")
_AFRESH = STATS.afresh


class StatsError(Exception):
    """The statistics database (or another of :class:`Database`) cannot be used; says what and where, in one line."""


def _now() -> str:
    return time.strftime("%Y-%m-%d %H:%M")


def _where(path: Path) -> str:
    return printable(str(path))


def _statements(script: str) -> list[str]:
    return [s for s in script.split(";") if s.strip()]


def schema_of(version: int, kind: Database = STATS) -> dict[str, frozenset[str]]:
    """The tables and their columns at schema ``version`` (from the migrations, built in memory)."""
    return _schema_of(version, kind.migrations)


@cache
def _schema_of(version: int, migrations: tuple[str, ...]) -> dict[str, frozenset[str]]:
    with closing(sqlite3.connect(":memory:")) as db:
        for script in migrations[:version]:
            for statement in _statements(script):
                db.execute(statement)
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: frozenset(r[1] for r in db.execute(f"PRAGMA table_info({t})")) for t in tables}


def _error(exc: BaseException, path: Path, kind: Database = STATS) -> StatsError:
    """One line for what SQLite (or the data in the file) said."""
    where = _where(path)
    what = f"the {kind.noun} database"
    if isinstance(exc, sqlite3.OperationalError) and (
            getattr(exc, "sqlite_errorcode", None) in _BUSY_CODES or "locked" in str(exc)):
        return StatsError(f"{where}: {what} is busy: another canasta is writing to it; try again")
    if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
        return StatsError(f"{where}: {what} is damaged ({printable(str(exc))}); {kind.afresh}")
    return StatsError(f"{where}: {what} cannot be used: {printable(str(exc))}")


@contextmanager
def _errors(path: Path, kind: Database = STATS) -> Iterator[None]:
    """Every SQLite error inside becomes one StatsError that says what and where."""
    try:
        yield
    except sqlite3.Error as exc:
        raise _error(exc, path, kind) from None


def _check_file(path: Path, kind: Database = STATS) -> bool:
    """Whether the database file exists; StatsError if it is not a regular file (a FIFO would hang)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise StatsError(f"{_where(path)}: cannot open the {kind.noun} database: {exc.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        raise StatsError(f"{_where(path)}: the {kind.noun} database is not a regular file; {kind.afresh}")
    return True


def check_schema(db: sqlite3.Connection, path: Path, kind: Database = STATS) -> int:
    """The schema version, after checking (reading only) that the file holds what that version needs.

    0 means an empty database (no tables yet).  StatsError for a newer version, another
    program's database, or missing tables or columns.

    The version and the tables are read in one read transaction: another process may create the
    schema between two reads, and a version 0 read before it with the tables read after it would
    call a canasta database another program's.
    """
    own = not db.in_transaction
    if own:
        db.execute("BEGIN")
    try:
        return _check_schema(db, path, kind)
    finally:
        if own:
            db.execute("COMMIT")


def _check_schema(db: sqlite3.Connection, path: Path, kind: Database) -> int:
    version = db.execute("PRAGMA user_version").fetchone()[0]
    where = _where(path)
    what = f"the {kind.noun} database"
    if not isinstance(version, int) or version < 0:
        raise StatsError(f"{where}: {what} has schema version {version}; {kind.afresh}")
    if version > kind.version:
        raise StatsError(f"{where}: {what} is schema version {version}, newer than this "
                         f"program knows ({kind.version}): update canasta")
    tables = {str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
              if not str(r[0]).startswith("sqlite_")}
    if version == 0:
        if tables:
            names = printable(", ".join(sorted(tables)))
            raise StatsError(f"{where}: not a canasta {kind.noun} database (it holds the tables {names}); "
                             f"{kind.afresh}")
        return 0
    missing = []
    for table, columns in schema_of(version, kind).items():
        if table not in tables:
            missing.append(f"the table {table}")
            continue
        have = {str(r[1]) for r in db.execute(f"PRAGMA table_info({table})")}
        missing += [f"{table}.{c}" for c in sorted(columns - have)]
    if missing:
        raise StatsError(f"{where}: {what} (schema version {version}) lacks "
                         f"{', '.join(missing)}; {kind.afresh}")
    return version


def _check_pages(db: sqlite3.Connection, path: Path, kind: Database = STATS) -> None:
    """Refuse a damaged file before writing to it (writing could spread the damage)."""
    problems = [str(r[0]) for r in db.execute("PRAGMA quick_check(3)")]
    if problems != ["ok"]:
        raise StatsError(f"{_where(path)}: the {kind.noun} database is damaged ({printable(problems[0])}); "
                         f"{kind.afresh}")


def _open_read_only(path: Path, timeout: float, kind: Database = STATS) -> sqlite3.Connection:
    uri = "file:" + urllib.parse.quote(str(path.absolute())) + "?mode=ro"
    try:
        db = sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None)
    except sqlite3.Error as exc:
        raise StatsError(f"{_where(path)}: cannot open the {kind.noun} database: {printable(str(exc))}") from None
    db.text_factory = _decode           # text that is not UTF-8 is shown, not a crash
    return db


def connect(path: Path | None = None, timeout: float = BUSY_TIMEOUT, kind: Database = STATS, *,
            check_same_thread: bool = True) -> sqlite3.Connection:
    """Open a database for writing: created if missing, checked, then WAL mode and upgrades.

    An existing file is checked through a read-only connection first (schema and pages), so that
    nothing, not even closing a connection, writes to a file that fails the checks.
    """
    path = path or paths.stats_path()
    if _check_file(path, kind):
        with closing(_open_read_only(path, timeout, kind)) as ro, _errors(path, kind):
            if check_schema(ro, path, kind):
                _check_pages(ro, path, kind)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=check_same_thread)
    except (OSError, sqlite3.Error) as exc:
        raise StatsError(f"{_where(path)}: cannot open the {kind.noun} database: {printable(str(exc))}") from None
    try:
        with _errors(path, kind):
            # Only now may the file change: WAL for concurrent writers, then the schema.
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA foreign_keys = ON")
            migrate(db, path, kind)
    except BaseException:
        db.close()
        raise
    return db


def migrate(db: sqlite3.Connection, path: Path | str = "", kind: Database = STATS) -> None:
    where = printable(str(path))
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > kind.version:
        raise StatsError(f"{where}: the {kind.noun} database is schema version {version}, newer than this "
                         f"program knows ({kind.version}): update canasta")
    if version == kind.version:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]  # another process may have done it
        for n in range(version, kind.version):
            for statement in _statements(kind.migrations[n]):
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {n + 1}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


@contextmanager
def opened(path: Path | None = None, timeout: float = BUSY_TIMEOUT) -> Iterator[sqlite3.Connection]:
    """The database opened for writing (see :func:`connect`)."""
    with closing(connect(path, timeout)) as db:
        yield db


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


@contextmanager
def reading(path: Path | None = None, timeout: float = BUSY_TIMEOUT) -> Iterator[sqlite3.Connection | None]:
    """The database opened read-only and checked, or None when nothing has been recorded yet.

    SQLite errors inside (a page damaged where only a query finds it) become StatsError.
    """
    path = path or paths.stats_path()
    if not _check_file(path):
        yield None
        return
    with closing(_open_read_only(path, timeout)) as db, _errors(path):
        if check_schema(db, path) == 0:
            yield None
            return
        yield db


@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write: ``BEGIN IMMEDIATE`` (the lock taken at once, or the busy timeout), then COMMIT, or
    ROLLBACK if anything inside fails."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


_write = transaction


def _player_id(db: sqlite3.Connection, name: str) -> int:
    db.execute("INSERT OR IGNORE INTO players(name, created) VALUES (?, ?)", (name, _now()))
    row = db.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()
    return int(row[0])


def sheet_of(m: Match) -> list[dict[str, Any]]:
    """The score sheet in plain data: per hand, each side's items and running totals."""
    return [{"hand": h.number, "dealer": h.dealer, "went_out": h.went_out, "end": end_text(h.end_reason),
             "scores": [s._asdict() for s in h.scores], "totals": list(h.totals)} for h in m.sheet]


def recorded_name(name: str) -> str:
    """The name a player is recorded under: a name that is not allowed at the table (control
    characters, too long) is kept written out and cut to length, so it can be shown safely."""
    try:
        clean = check_name(name)
    except BadName:
        clean = printable(name.strip())[:NAME_MAX]
    return clean or "Player"


def _fits(match: Match) -> None:
    """StatsError unless every number recorded fits SQLite's 64 bits."""
    lo, hi = INT64
    numbers = list(match.scores) + [s.total for h in match.sheet for s in h.scores]
    numbers += [a - b for h in match.sheet for a in (s.total for s in h.scores) for b in (s.total for s in h.scores)]
    big = [n for n in numbers if not lo <= n <= hi]
    if big:
        raise StatsError(f"a score of {max(big, key=abs)} does not fit the statistics (they keep numbers up to "
                         f"{hi}); the match was not recorded")


def record_match_result(match: Match, humans: Mapping[int, str], level: str, *, game_key: str | None = None,
                        path: Path | None = None, timeout: float = RECORD_TIMEOUT) -> list[int]:
    """Record a finished match for each human seat (seat -> player name); the new match ids.

    ``game_key`` (for instance the game's start time and seed) makes recording the
    same match twice harmless.  The table calls this (off its thread) when the match is over.
    """
    winner = match.winner
    if winner is None:
        raise StatsError("the match is not over")
    _fits(match)
    rules = match.rules
    sheet = json.dumps(sheet_of(match))
    ids = []
    path = path or paths.stats_path()
    with opened(path, timeout) as db, _errors(path), _write(db):
        for seat, name in humans.items():
            ours = team(seat, rules)
            totals = match.scores
            theirs = max(t for i, t in enumerate(totals) if i != ours)
            pid = _player_id(db, recorded_name(name))
            cur = db.execute(
                "INSERT OR IGNORE INTO matches(player_id, level, rules, finished, won, our_score, their_score, hands,"
                " sheet, game_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (pid, printable(level), printable(rules.name), _now(), int(winner == ours), totals[ours], theirs,
                 len(match.sheet), sheet, None if game_key is None else printable(game_key)))
            if not cur.rowcount or cur.lastrowid is None:
                continue
            mid = cur.lastrowid
            ids.append(mid)
            for h in match.sheet:
                mine = h.scores[ours].total
                best_other = max(s.total for i, s in enumerate(h.scores) if i != ours)
                db.execute("INSERT INTO hands(match_id, number, difference) VALUES (?, ?, ?)",
                           (mid, h.number, mine - best_other))
    return ids


@dataclass(frozen=True)
class WinRatio:
    player: str
    level: str
    wins: int
    losses: int

    @property
    def ratio(self) -> float:
        played = self.wins + self.losses
        return 100.0 * self.wins / played if played else 0.0


@dataclass(frozen=True)
class HighScore:
    level: str
    player: str
    difference: int
    hand: int
    date: str


@dataclass(frozen=True)
class MatchRow:
    id: int
    player: str
    level: str
    rules: str
    finished: str
    won: bool
    our_score: int
    their_score: int
    hands: int
    sheet: list[dict[str, Any]]
    sheet_problem: str | None = None     # the stored score sheet cannot be read: why


def _text(value: object) -> str:
    """A stored text as it may be shown (written out, whatever the column held)."""
    return printable("" if value is None else str(value))


def _number(value: object, path: Path) -> int:
    if isinstance(value, int):
        return value
    try:
        return int(value)  # type: ignore[call-overload, no-any-return]
    except (TypeError, ValueError, OverflowError):
        raise StatsError(f"{_where(path)}: the statistics database holds {printable(repr(value))[:40]} where a number "
                         f"belongs; {_AFRESH}") from None


def read_sheet(text: object) -> tuple[list[dict[str, Any]], str | None]:
    """A stored score sheet checked for the shape the history shows; ([], why) if it is not one."""
    if not isinstance(text, str):
        return [], "it is not text"
    try:
        sheet = json.loads(text)
    except (ValueError, RecursionError):
        return [], "it is not JSON"
    if not isinstance(sheet, list):
        return [], "it is not a list of hands"
    sides = None
    for h in sheet:
        scores, totals = (h.get("scores"), h.get("totals")) if isinstance(h, dict) else (None, None)
        if not (isinstance(h, dict) and isinstance(h.get("hand"), int) and isinstance(scores, list)
                and isinstance(totals, list) and len(scores) == len(totals)
                and all(isinstance(s, dict) and isinstance(s.get("total"), int) for s in scores)
                and all(isinstance(t, int) for t in totals) and sides in (None, len(scores))):
            return [], "a hand in it is not hand, scores and totals"
        sides = len(scores)
    return sheet, None


def win_ratios(player: str | None = None, path: Path | None = None) -> list[WinRatio]:
    path = path or paths.stats_path()
    where, args = ("AND p.name = ?", (player,)) if player else ("", ())
    with reading(path) as db:
        if db is None:
            return []
        rows = db.execute(
            "SELECT p.name, m.level, TOTAL(m.won), TOTAL(1 - m.won) FROM matches m JOIN players p"
            f" ON p.id = m.player_id WHERE m.counted = 1 {where} GROUP BY p.name, m.level ORDER BY p.name, m.level",
            args).fetchall()
    return [WinRatio(_text(n), _text(lv), _number(w, path), _number(lo, path)) for n, lv, w, lo in rows]


def high_scores(level: str | None = None, limit: int = 10, path: Path | None = None) -> dict[str, list[HighScore]]:
    """Per level, the top ``limit`` single-hand differences."""
    path = path or paths.stats_path()
    with reading(path) as db:
        if db is None:
            return {}
        levels = [level] if level else [r[0] for r in db.execute(
            "SELECT DISTINCT level FROM matches WHERE counted = 1 ORDER BY level")]
        out = {}
        for lv in levels:
            rows = db.execute(
                "SELECT p.name, h.difference, h.number, m.finished FROM hands h JOIN matches m ON m.id = h.match_id"
                " JOIN players p ON p.id = m.player_id WHERE m.level = ? AND m.counted = 1"
                " ORDER BY h.difference DESC, m.finished LIMIT ?", (lv, limit)).fetchall()
            out[_text(lv)] = [HighScore(_text(lv), _text(n), _number(d, path), _number(hn, path), _text(f))
                              for n, d, hn, f in rows]
    return out


def history(player: str | None = None, limit: int = 20, path: Path | None = None) -> list[MatchRow]:
    path = path or paths.stats_path()
    where, args = ("WHERE p.name = ?", (player, limit)) if player else ("", (limit,))
    with reading(path) as db:
        if db is None:
            return []
        rows = db.execute(
            "SELECT m.id, p.name, m.level, m.rules, m.finished, m.won, m.our_score, m.their_score, m.hands, m.sheet"
            f" FROM matches m JOIN players p ON p.id = m.player_id {where} ORDER BY m.id DESC LIMIT ?", args).fetchall()
    out = []
    for i, n, lv, r, f, w, o, t, h, s in rows:
        sheet, problem = read_sheet(s)
        out.append(MatchRow(_number(i, path), _text(n), _text(lv), _text(r), _text(f), bool(_number(w, path)),
                            _number(o, path), _number(t, path), _number(h, path), sheet, problem))
    return out


def players(path: Path | None = None) -> list[str]:
    with reading(path) as db:
        if db is None:
            return []
        return [_text(r[0]) for r in db.execute("SELECT name FROM players ORDER BY name")]


def reset(player: str | None = None, path: Path | None = None) -> int:
    """Set wins, losses and high scores to zero (for one player or all); the history stays.  Matches reset."""
    path = path or paths.stats_path()
    where, args = ("AND player_id = (SELECT id FROM players WHERE name = ?)", (player,)) if player else ("", ())
    with opened(path) as db, _errors(path), _write(db):
        return db.execute(f"UPDATE matches SET counted = 0 WHERE counted = 1 {where}", args).rowcount


def team_label(m: Match, seat: int) -> str:
    return team_name(team(seat, m.rules), m.rules)


__all__ = ["BUSY_TIMEOUT", "MIGRATIONS", "RECORD_TIMEOUT", "SCHEMA_VERSION", "STATS", "Database", "HighScore",
           "MatchRow", "StatsError", "WinRatio", "check_schema", "connect", "high_scores", "history", "opened", "players",
           "read_sheet", "reading", "record_match_result", "recorded_name", "reset", "schema_of", "sheet_of",
           "transaction", "win_ratios"]
