"""``canasta club export``: the club's matches, seats, hands, ratings and tournaments as CSV and
JSON files in a directory, for people who keep their own tables (``docs/club-export.md`` says
what every field is).

It reads the server's people store as it is, never writing to it: the SQLite file
(``people.sqlite`` of the server's directory) through a read-only connection after the same
checks the server makes (schema, pages), or a PostgreSQL database (``--database
postgresql://…``) in one read-only, repeatable-read transaction, so the files are one moment of
the club even while the server records matches.  A file that is missing, damaged, another
program's or of another schema is refused with a sentence that says so, and left alone.

The files are written beside each other under temporary names and renamed into place once all
are written; files of an earlier export are replaced only with ``force``.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import os
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from ...persistence.stats import StatsError, _check_file, _check_pages, _errors, _open_read_only, check_schema
from ...table.seats import GUEST_PREFIX
from ...text import printable
from .people import PEOPLE, PEOPLE_FILE, shown_points

#: What an export holds, in the order it is written: each ``NAME.csv`` and ``NAME.json``.
KINDS = ("matches", "seats", "hands", "ratings", "tournaments")
#: The first schema of each store that an export reads (the one that added ``matches.listed``);
#: a newer one than this program knows is refused by the same checks as the server's.
SQLITE_SCHEMA = 6
POSTGRES_SCHEMA = 3
#: The export format's version (``export.json``): a field added is a new version.
FORMAT = 1
#: Cells of text that a spreadsheet would take for a formula start with one of these: such a cell
#: is written with a ``'`` before it in the CSV files (the JSON files keep the text as it is).
FORMULA = ("=", "+", "-", "@", "\t", "\r")

#: Each file's fields, in order (``docs/club-export.md`` describes each).
FIELDS: dict[str, tuple[str, ...]] = {
    "matches": ("match_id", "game_id", "finished", "table_id", "rules", "game", "rated", "listed", "winner",
                "scores", "hands", "forfeit", "record"),
    "seats": ("match_id", "seat", "side", "entry", "name", "rating_before", "rating_after", "rating_change",
              "own_turns", "stood_in", "left", "unrated"),
    "hands": ("match_id", "hand", "side", "score", "difference"),
    "ratings": ("entry", "game", "name", "rating", "mu", "sigma", "matches", "updated"),
    "tournaments": ("tournament_id", "name", "started", "finished", "format", "rounds", "winners"),
}


class ExportError(Exception):
    """The export cannot be made; the message says what and where, in one sentence."""


class Exported(NamedTuple):
    """What an export wrote: its directory, and the rows of each kind."""

    directory: Path
    rows: dict[str, int]


def utc(seconds: float) -> str:
    """An instant as the export writes it: ISO 8601 in UTC, to the second (``2026-11-26T20:00:00Z``)."""
    return dt.datetime.fromtimestamp(seconds, dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def entry_of(entry: str) -> str:
    """A rating entry as the export writes it: a person's key (``key:SHA256:…``) and a computer's
    level as kept; a guest as ``guest`` alone (the digest of their seat's code is theirs)."""
    return "guest" if entry.startswith(GUEST_PREFIX) else entry


def _scores(text: object) -> list[int]:
    try:
        value = json.loads(str(text))
    except ValueError:
        return []
    return [v for v in value if isinstance(v, int) and not isinstance(v, bool)] if isinstance(value, list) else []


def _points(mu: object, sigma: object) -> int | None:
    return None if mu is None or sigma is None else shown_points(float(str(mu)), float(str(sigma)))


# ---------------------------------------------------------------------- reading the store
class Rows(NamedTuple):
    """The club's rows, one moment of its store, as plain values."""

    matches: list[dict[str, Any]]
    seats: list[dict[str, Any]]
    hands: list[dict[str, Any]]
    ratings: list[dict[str, Any]]


def _read(db: Any, left: str) -> Rows:
    """Every row of the store ``db`` (either kind: its seats' "left" column is ``left``)."""
    matches = [dict(match_id=int(mid), game_id=str(gid), finished=utc(float(fin)), table_id=int(tid), rules=str(rules),
                    game=str(game), rated=bool(rated), listed=bool(listed), winner=int(winner), scores=_scores(scores),
                    hands=int(hands), forfeit=bool(forfeit), record=str(record))
               for mid, gid, fin, tid, rules, game, rated, listed, winner, scores, hands, forfeit, record in db.execute(
                   "SELECT id, game_id, finished, table_id, rules, game, rated, listed, winner, scores, hands, forfeit,"
                   " record FROM matches ORDER BY finished, id").fetchall()]
    seats = []
    for mid, seat, team, entry, name, bmu, bsg, amu, asg, own, stood, gone, unrated in db.execute(
            f"SELECT s.match_id, s.seat, s.team, s.entry, s.name, s.before_mu, s.before_sigma, s.after_mu,"
            f" s.after_sigma, s.own_turns, s.stood_in, s.{left}, s.unrated FROM match_seats s"
            " JOIN matches m ON m.id = s.match_id ORDER BY m.finished, m.id, s.seat").fetchall():
        before, after = _points(bmu, bsg), _points(amu, asg)
        seats.append(dict(match_id=int(mid), seat=int(seat), side=int(team), entry=entry_of(str(entry)), name=str(name),
                          rating_before=before if after is not None else None, rating_after=after,
                          rating_change=after - before if after is not None and before is not None else None,
                          own_turns=None if own is None else int(own), stood_in=None if stood is None else int(stood),
                          left=bool(gone), unrated=str(unrated or "")))
    hands = [dict(match_id=int(mid), hand=int(n), side=int(t), score=int(sc), difference=int(d))
             for mid, n, t, sc, d in db.execute(
                 "SELECT h.match_id, h.number, h.team, h.score, h.difference FROM hands h JOIN matches m"
                 " ON m.id = h.match_id ORDER BY m.finished, m.id, h.number, h.team").fetchall()]
    ratings = [dict(entry=entry_of(str(e)), game=str(g), name=str(n), rating=shown_points(float(mu), float(sg)),
                    mu=float(mu), sigma=float(sg), matches=int(m), updated=utc(float(u)))
               for e, g, n, mu, sg, m, u in db.execute(
                   "SELECT entry, game, name, mu, sigma, matches, updated FROM ratings WHERE matches > 0"
                   " ORDER BY game, mu - 3 * sigma DESC, entry").fetchall()]
    return Rows(matches, seats, hands, ratings)


def read_sqlite(path: Path) -> Rows:
    """The club's rows from the server's SQLite file at ``path``, read-only, or ExportError."""
    where = printable(str(path))
    try:
        if not _check_file(path, PEOPLE):
            raise ExportError(f"{where}: no such file: the server keeps its people there once it has run "
                              "(give the server's directory with --dir, or its database with --database)")
        with closing(_open_read_only(path, 10.0, PEOPLE)) as db, _errors(path, PEOPLE):
            version = check_schema(db, path, PEOPLE)
            _check_pages(db, path, PEOPLE)
            if version < SQLITE_SCHEMA:
                raise ExportError(f"{where}: the server's people database is of schema {version}, older than this "
                                  f"program's ({SQLITE_SCHEMA}): start canasta serve once to bring it up to date")
            db.execute("BEGIN")             # (one read transaction: one moment of the club)
            try:
                return _read(db, "left")
            finally:
                db.execute("COMMIT")
    except StatsError as exc:
        raise ExportError(str(exc).replace(PEOPLE.afresh, "it is left as it is")) from None


def read_postgres(dsn: str) -> Rows:
    """The club's rows from a room's PostgreSQL database, in one read-only transaction, or ExportError."""
    import psycopg

    from .pgpeople import CONNECT_TIMEOUT, VERSION, hide_password, where_of

    where = where_of(dsn)
    try:
        with psycopg.connect(dsn, connect_timeout=round(CONNECT_TIMEOUT), application_name="canasta club export",
                             options="-c TimeZone=UTC -c statement_timeout=600000") as db:
            db.read_only = True
            db.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
            with db.transaction():
                tables = {str(r[0]) for r in db.execute(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")}
                if "canasta_schema" not in tables:
                    raise ExportError(f"{where}: not a canasta server's people database (no canasta_schema)")
                row = db.execute("SELECT version FROM canasta_schema").fetchone()
                version = int(row[0]) if row else 0
                if not POSTGRES_SCHEMA <= version <= VERSION:
                    newer = version > VERSION
                    raise ExportError(f"{where}: the server's people database is of schema {version}, "
                                      f"{'newer' if newer else 'older'} than this program's "
                                      f"({VERSION if newer else POSTGRES_SCHEMA}): "
                                      + ("update canasta" if newer else "start canasta serve once to bring it up to date"))
                return _read(db, "left_match")
    except psycopg.Error as exc:
        said = hide_password(str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__, dsn)
        raise ExportError(f"{where}: the server's people database cannot be read: {printable(said)[:300]}") from None


# ---------------------------------------------------------------------- writing the files
def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    if isinstance(value, float):
        return repr(value)
    text = str(value)
    return "'" + text if isinstance(value, str) and text.startswith(FORMULA) else text


def csv_text(kind: str, rows: Sequence[dict[str, Any]]) -> str:
    """One kind's CSV file: a header of :data:`FIELDS`, a line a row (RFC 4180 quoting, ``\\n`` ends)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(FIELDS[kind])
    for r in rows:
        w.writerow([_cell(r[f]) for f in FIELDS[kind]])
    return out.getvalue()


def json_text(kind: str, rows: Sequence[dict[str, Any]]) -> str:
    """One kind's JSON file: a list of objects with the fields of :data:`FIELDS`, in order."""
    return json.dumps([{f: r[f] for f in FIELDS[kind]} for r in rows], indent=1, ensure_ascii=False) + "\n"


def files_of(rows: Rows, source: str, now: float) -> dict[str, str]:
    """Every file of an export, by name: each kind's CSV and JSON, and ``export.json`` (what, when, from where)."""
    kinds: dict[str, list[dict[str, Any]]] = {"matches": rows.matches, "seats": rows.seats, "hands": rows.hands,
                                              "ratings": rows.ratings, "tournaments": []}
    out = {}
    for kind in KINDS:
        out[f"{kind}.csv"] = csv_text(kind, kinds[kind])
        out[f"{kind}.json"] = json_text(kind, kinds[kind])
    out["export.json"] = json.dumps({"format": "canasta club export", "version": FORMAT, "exported": utc(now),
                                     "source": source, "rows": {k: len(kinds[k]) for k in KINDS}}, indent=1) + "\n"
    return out


@contextmanager
def _os_errors(where: Path) -> Iterator[None]:
    try:
        yield
    except OSError as exc:
        raise ExportError(f"{printable(str(where))}: cannot write the export there: "
                          f"{exc.strerror or type(exc).__name__}") from None


def write_export(directory: Path, files: dict[str, str], force: bool = False) -> None:
    """Write ``files`` into ``directory`` (made if missing).  Files of an earlier export there are
    replaced only with ``force`` (else ExportError naming them); each file is written under a
    temporary name and renamed into place once all are written, so an export that fails leaves
    no half-written file."""
    with _os_errors(directory):
        if directory.exists() and not directory.is_dir():
            raise ExportError(f"{printable(str(directory))}: not a directory")
        directory.mkdir(parents=True, exist_ok=True)
        there = sorted(name for name in files if (directory / name).exists() or (directory / name).is_symlink())
        if there and not force:
            raise ExportError(f"{printable(str(directory))} already holds {', '.join(there)}: "
                              "export to another directory, or give --force to replace them")
        written: list[tuple[str, Path]] = []
        try:
            for name, text in files.items():
                fd, temporary = tempfile.mkstemp(prefix=f".{name}.", dir=directory)
                written.append((name, Path(temporary)))
                with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
                    f.write(text)
            for name, kept in written:
                os.replace(kept, directory / name)
        finally:
            for _, kept in written:
                kept.unlink(missing_ok=True)


def export(directory: Path, *, database: str = "", server_dir: Path | None = None, force: bool = False,
           now: float | None = None) -> Exported:
    """Export the club: from ``database`` (a PostgreSQL URL) or the SQLite file of ``server_dir``."""
    import time

    from ...persistence import paths

    if database:
        from .pgpeople import where_of

        rows, source = read_postgres(database), where_of(database)
    else:
        path = (server_dir if server_dir is not None else paths.server_dir()) / PEOPLE_FILE
        rows, source = read_sqlite(path), printable(str(path))
    files = files_of(rows, source, time.time() if now is None else now)
    write_export(directory, files, force)
    return Exported(directory, {"matches": len(rows.matches), "seats": len(rows.seats), "hands": len(rows.hands),
                                "ratings": len(rows.ratings), "tournaments": 0})


__all__ = ["FIELDS", "FORMAT", "KINDS", "ExportError", "Exported", "Rows", "csv_text", "entry_of", "export", "files_of",
           "json_text", "read_postgres", "read_sqlite", "utc", "write_export"]
