"""Players, results, high scores and match history in SQLite (the XDG data directory).

Several games may finish at once (two terminals, later a table server), so the
database runs in WAL mode with a busy timeout, every write is one short
``BEGIN IMMEDIATE`` transaction, and the schema is versioned with
``PRAGMA user_version`` and upgraded by :data:`MIGRATIONS` in order.

As the Windows game defines them:

* **Win Ratio**: wins and losses of matches per player and computer level, and the
  percentage of matches won.  A reset sets the counters to zero (the match history
  is kept).
* **High scores**: per computer level, the top ten single hands, scored as the
  **difference** between the player's side and the best other side in that hand.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine import Match, team, team_name
from . import paths

BUSY_TIMEOUT_MS = 30_000

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


class StatsError(Exception):
    """The statistics database cannot be used; says what and where."""


def _now() -> str:
    return time.strftime("%Y-%m-%d %H:%M")


def connect(path: Path | None = None) -> sqlite3.Connection:
    """Open (creating and upgrading if needed) the statistics database."""
    path = path or paths.stats_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    except (OSError, sqlite3.Error) as exc:
        raise StatsError(f"{path}: cannot open the statistics database: {exc}") from None
    try:
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA foreign_keys = ON")
        migrate(db, path)
    except sqlite3.DatabaseError as exc:
        db.close()
        raise StatsError(f"{path}: the statistics database cannot be used: {exc}") from None
    return db


def migrate(db: sqlite3.Connection, path: Path | str = "") -> None:
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise StatsError(f"{path}: the statistics database is schema version {version}, newer than this "
                         f"program knows ({SCHEMA_VERSION}): update canasta")
    if version == SCHEMA_VERSION:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]  # another process may have done it
        for n in range(version, SCHEMA_VERSION):
            for statement in MIGRATIONS[n].split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version = {n + 1}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


@contextmanager
def opened(path: Path | None = None) -> Iterator[sqlite3.Connection]:
    with closing(connect(path)) as db:
        yield db


@contextmanager
def _write(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _player_id(db: sqlite3.Connection, name: str) -> int:
    db.execute("INSERT OR IGNORE INTO players(name, created) VALUES (?, ?)", (name, _now()))
    row = db.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()
    return int(row[0])


def sheet_of(m: Match) -> list[dict[str, Any]]:
    """The score sheet in plain data: per hand, each side's items and running totals."""
    return [{"hand": h.number, "dealer": h.dealer, "went_out": h.went_out, "end": h.end_reason,
             "scores": [s._asdict() for s in h.scores], "totals": list(h.totals)} for h in m.sheet]


def record_match_result(match: Match, humans: Mapping[int, str], level: str, *, game_key: str | None = None,
                        path: Path | None = None) -> list[int]:
    """Record a finished match for each human seat (seat -> player name); the new match ids.

    ``game_key`` (for instance the game's start time and seed) makes recording the
    same match twice harmless.  The app calls this when the match is over.
    """
    winner = match.winner
    if winner is None:
        raise StatsError("the match is not over")
    rules = match.rules
    sheet = json.dumps(sheet_of(match))
    ids = []
    with opened(path) as db, _write(db):
        for seat, name in humans.items():
            ours = team(seat, rules)
            totals = match.scores
            theirs = max(t for i, t in enumerate(totals) if i != ours)
            pid = _player_id(db, name.strip() or "Player")
            cur = db.execute(
                "INSERT OR IGNORE INTO matches(player_id, level, rules, finished, won, our_score, their_score, hands,"
                " sheet, game_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (pid, level, rules.name, _now(), int(winner == ours), totals[ours], theirs, len(match.sheet), sheet,
                 game_key))
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


def win_ratios(player: str | None = None, path: Path | None = None) -> list[WinRatio]:
    where, args = ("AND p.name = ?", (player,)) if player else ("", ())
    with opened(path) as db:
        rows = db.execute(
            "SELECT p.name, m.level, SUM(m.won), SUM(1 - m.won) FROM matches m JOIN players p ON p.id = m.player_id"
            f" WHERE m.counted = 1 {where} GROUP BY p.name, m.level ORDER BY p.name, m.level", args).fetchall()
    return [WinRatio(n, lv, int(w), int(lo)) for n, lv, w, lo in rows]


def high_scores(level: str | None = None, limit: int = 10, path: Path | None = None) -> dict[str, list[HighScore]]:
    """Per level, the top ``limit`` single-hand differences."""
    with opened(path) as db:
        levels = [level] if level else [r[0] for r in db.execute(
            "SELECT DISTINCT level FROM matches WHERE counted = 1 ORDER BY level")]
        out = {}
        for lv in levels:
            rows = db.execute(
                "SELECT p.name, h.difference, h.number, m.finished FROM hands h JOIN matches m ON m.id = h.match_id"
                " JOIN players p ON p.id = m.player_id WHERE m.level = ? AND m.counted = 1"
                " ORDER BY h.difference DESC, m.finished LIMIT ?", (lv, limit)).fetchall()
            out[lv] = [HighScore(lv, n, d, hn, f) for n, d, hn, f in rows]
    return out


def history(player: str | None = None, limit: int = 20, path: Path | None = None) -> list[MatchRow]:
    where, args = ("WHERE p.name = ?", (player, limit)) if player else ("", (limit,))
    with opened(path) as db:
        rows = db.execute(
            "SELECT m.id, p.name, m.level, m.rules, m.finished, m.won, m.our_score, m.their_score, m.hands, m.sheet"
            f" FROM matches m JOIN players p ON p.id = m.player_id {where} ORDER BY m.id DESC LIMIT ?", args).fetchall()
    return [MatchRow(i, n, lv, r, f, bool(w), o, t, h, json.loads(s)) for i, n, lv, r, f, w, o, t, h, s in rows]


def players(path: Path | None = None) -> list[str]:
    with opened(path) as db:
        return [r[0] for r in db.execute("SELECT name FROM players ORDER BY name")]


def reset(player: str | None = None, path: Path | None = None) -> int:
    """Set wins, losses and high scores to zero (for one player or all); the history stays.  Matches reset."""
    where, args = ("AND player_id = (SELECT id FROM players WHERE name = ?)", (player,)) if player else ("", ())
    with opened(path) as db, _write(db):
        return db.execute(f"UPDATE matches SET counted = 0 WHERE counted = 1 {where}", args).rowcount


def team_label(m: Match, seat: int) -> str:
    return team_name(team(seat, m.rules), m.rules)


__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "HighScore", "MatchRow", "StatsError", "WinRatio", "connect", "high_scores",
           "history", "players", "record_match_result", "reset", "sheet_of", "win_ratios"]
