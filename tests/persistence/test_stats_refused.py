"""Statistics databases the program must refuse, built for real: one clear line each, no traceback,
and a refused file is left exactly as it was (bytes and journal mode).

Issue 10, item 9: corruption that shows only at query time ("malformed"), a schema with
user_version=1 but missing tables or columns, or a ``sheet`` that is not JSON gave ``canasta stats``
a traceback; a lock held by another process made ``stats --reset`` wait 30 s and raise; ``stats``
switched a file it then refused to WAL mode.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from canasta_tui.cli import main
from canasta_tui.persistence import paths, stats
from tests.persistence.test_stats import finished


def run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, list(args))
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r.exit_code, r.output


def one_error_line(out: str) -> str:
    """The command's output is exactly one line, an error (click's "Error: ...")."""
    lines = out.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), out
    assert "Traceback" not in out
    return lines[0]


def fingerprint(path: Path) -> tuple[str, str, list[str]]:
    """The file's bytes, its journal mode (read without changing it) and the files beside it."""
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        mode = db.execute("PRAGMA journal_mode").fetchone()[0]
    return digest, mode, sorted(p.name for p in path.parent.iterdir())


def plain_db(statements: str) -> Path:
    """A database in SQLite's default (rollback journal) mode, as another program would leave it."""
    path = paths.stats_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(path)) as db:
        db.executescript(statements)
    return path


# ----------------------------------------------------------------- schemas this program did not write

NO_TABLES = "PRAGMA user_version = 1;"
ONLY_PLAYERS = "CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT, created TEXT); PRAGMA user_version = 1;"
NO_SHEET_COLUMN = stats.MIGRATIONS[0].replace("sheet TEXT NOT NULL,", "") + "; PRAGMA user_version = 1;"
FOREIGN = "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');"


@pytest.mark.parametrize(("schema", "said"), [
    (NO_TABLES, "lacks the table players, the table matches, the table hands"),
    (ONLY_PLAYERS, "lacks the table matches, the table hands"),
    (NO_SHEET_COLUMN, "lacks matches.sheet"),
    (FOREIGN, "not a canasta statistics database (it holds the tables notes)"),
], ids=["user_version-1-no-tables", "only-players", "no-sheet-column", "another-programs-database"])
@pytest.mark.parametrize("command", [("stats",), ("stats", "--history"), ("stats", "--reset", "--yes")],
                         ids=["stats", "history", "reset"])
def test_a_schema_with_missing_tables_or_columns_is_refused_in_one_line_and_not_touched(
        schema: str, said: str, command: tuple[str, ...]) -> None:
    """user_version=1 but no `players` table gave "no such table: players" as a traceback, after
    `stats` had switched the file to WAL mode."""
    path = plain_db(schema)
    before = fingerprint(path)
    assert before[1] == "delete"
    code, out = run(*command)
    line = one_error_line(out)
    assert code == 1 and str(path) in line and said in line
    assert fingerprint(path) == before


def test_recording_into_a_refused_schema_says_so_and_changes_nothing() -> None:
    path = plain_db(NO_TABLES)
    before = fingerprint(path)
    with pytest.raises(stats.StatsError, match="lacks the table players"):
        stats.record_match_result(finished(2), {0: "Ann"}, "expert")
    assert fingerprint(path) == before


KILLED_WRITER = textwrap.dedent("""
    import os, sqlite3, sys
    db = sqlite3.connect(sys.argv[1], isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA wal_autocheckpoint = 0")
    db.execute("CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT, created TEXT)")
    db.execute("PRAGMA user_version = 1")
    os._exit(0)               # killed: its writes stay in the -wal file, not in the database file
""")


def test_a_refused_file_whose_wal_holds_another_writers_pages_is_not_checkpointed() -> None:
    """Closing the last read-write connection copies the WAL into the database file: a file that is
    refused is checked through a read-only connection, so even that does not happen."""
    path = paths.stats_path()
    path.parent.mkdir(parents=True)
    subprocess.run([sys.executable, "-c", KILLED_WRITER, str(path)], check=True, timeout=60)
    wal = path.with_name(path.name + "-wal")
    assert wal.stat().st_size > 0
    main_file, wal_file = path.read_bytes(), wal.read_bytes()
    for command in (("stats",), ("stats", "--reset", "--yes")):
        code, out = run(*command)
        assert code == 1 and "lacks the table matches, the table hands" in one_error_line(out)
    assert (path.read_bytes(), wal.read_bytes()) == (main_file, wal_file)


# ----------------------------------------------------------------- damage that only a query finds

def malformed_db() -> Path:
    """A real statistics file whose first page (the schema) is intact and whose other pages are
    overwritten: opening it and reading the schema work, the queries fail with "malformed"."""
    for seed in (2, 3, 4):
        stats.record_match_result(finished(seed), {0: "Ann", 2: "Bob"}, "expert", game_key=f"g{seed}")
    path = paths.stats_path()
    with closing(sqlite3.connect(path)) as db:
        page = db.execute("PRAGMA page_size").fetchone()[0]
        db.execute("PRAGMA journal_mode = DELETE")     # everything in the main file, no -wal
    data = path.read_bytes()
    assert len(data) > 2 * page
    garbage = bytes(range(7, 256)) * (len(data) // 249 + 1)
    path.write_bytes(data[:page] + garbage[: len(data) - page])
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == stats.SCHEMA_VERSION   # the header reads
        with pytest.raises(sqlite3.DatabaseError, match="malformed"):
            db.execute("SELECT * FROM matches JOIN players ON players.id = player_id").fetchall()
    return path


@pytest.mark.parametrize("command", [("stats",), ("stats", "--history"), ("stats", "--reset", "--yes")],
                         ids=["stats", "history", "reset"])
def test_pages_damaged_where_only_a_query_finds_it_give_one_line_and_the_file_is_untouched(
        command: tuple[str, ...]) -> None:
    """Corruption that shows only at query time ("database disk image is malformed") gave a traceback."""
    path = malformed_db()
    before = fingerprint(path)
    code, out = run(*command)
    line = one_error_line(out)
    assert code == 1 and str(path) in line and "damaged" in line and "move it away" in line
    assert fingerprint(path) == before


def test_a_damaged_file_is_not_written_when_a_match_ends() -> None:
    path = malformed_db()
    before = fingerprint(path)
    with pytest.raises(stats.StatsError, match="damaged"):
        stats.record_match_result(finished(5), {0: "Ann"}, "expert", game_key="new")
    assert fingerprint(path) == before


def test_a_fifo_in_place_of_the_database_is_refused_without_hanging(home: Path) -> None:
    """SQLite would block reading the header of a FIFO: the file type is checked first."""
    path = paths.stats_path()
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    for command in (["stats"], ["stats", "--reset", "--yes"]):
        r = subprocess.run([sys.executable, "-c", "from canasta_tui.cli import main; main()", *command],
                           capture_output=True, text=True, timeout=60, env=dict(os.environ, CANASTA_HOME=str(home)))
        assert r.returncode == 1 and r.stdout == ""
        assert r.stderr == f"Error: {path}: the statistics database is not a regular file; it is left as it is " \
                           "(move it away and canasta starts new statistics)\n"


# ----------------------------------------------------------------- score sheets that are not score sheets

@pytest.mark.parametrize(("sheet", "why"), [
    ("not json", "it is not JSON"),
    ("[" * 100_000, "it is not JSON"),
    ('{"hand": 1}', "it is not a list of hands"),
    ('[{"hand": 1}]', "a hand in it is not hand, scores and totals"),
    ('[{"hand": 1, "scores": [{"total": 5}], "totals": [5, 7]}]', "a hand in it is not hand, scores and totals"),
    ('[{"hand": 1, "scores": [{"total": "5"}, {"total": 1}], "totals": [5, 1]}]',
     "a hand in it is not hand, scores and totals"),
], ids=["not-json", "deep", "object", "no-scores", "sides-disagree", "total-is-text"])
def test_a_score_sheet_that_is_not_one_is_named_and_the_rest_of_the_history_shown(sheet: str, why: str) -> None:
    """A `sheet` that is not JSON or has the wrong shape gave `canasta stats --history` a traceback."""
    m = finished(2)
    stats.record_match_result(m, {0: "Ann"}, "expert", game_key="a")
    stats.record_match_result(finished(3), {0: "Ann"}, "expert", game_key="b")
    with closing(sqlite3.connect(paths.stats_path())) as db, db:
        db.execute("UPDATE matches SET sheet = ? WHERE game_key = 'a'", (sheet,))
    code, out = run("stats", "--history")
    assert code == 0 and "Traceback" not in out
    assert "#1 " in out and "#2 " in out                                 # both matches are listed
    assert f"(the score sheet cannot be read: {why})" in out
    [row] = [r for r in stats.history() if r.id == 1]
    assert row.sheet == [] and row.sheet_problem == why


# ----------------------------------------------------------------- a lock held by another process

HOLDER = textwrap.dedent("""
    import sqlite3, sys
    db = sqlite3.connect(sys.argv[1], isolation_level=None)
    db.execute("BEGIN EXCLUSIVE")
    print("locked", flush=True)
    sys.stdin.read()          # until the test closes the pipe
    db.execute("ROLLBACK")
""")


@contextmanager
def locked_by_another_process(path: Path) -> Iterator[None]:
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        yield
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)


@pytest.mark.parametrize("action", [
    lambda: run("stats", "--reset", "--yes"),
    lambda: run("stats", "--reset", "--yes", "--player", "Ann"),
], ids=["reset", "reset-one-player"])
def test_a_lock_held_by_another_process_makes_reset_say_busy(action: Callable[[], tuple[int, str]]) -> None:
    """`stats --reset` waited 30 s behind another process's lock, then raised "database is locked"."""
    stats.record_match_result(finished(2), {0: "Ann"}, "expert")
    path = paths.stats_path()
    with locked_by_another_process(path):
        code, out = action()
    line = one_error_line(out)
    assert code == 1 and line == (f"Error: {path}: the statistics database is busy: another canasta is writing "
                                  "to it; try again")
    assert len(stats.win_ratios()) == 1               # nothing was reset
    assert run("stats", "--reset", "--yes")[0] == 0   # and once the lock is gone it works


def test_reading_in_rollback_mode_behind_an_exclusive_lock_says_busy() -> None:
    path = plain_db(stats.MIGRATIONS[0] + "; PRAGMA user_version = 1;")
    with locked_by_another_process(path):
        code, out = run("stats")
    assert code == 1 and "is busy" in one_error_line(out)


# ----------------------------------------------------------------- numbers that do not fit

def test_a_score_above_2_to_the_63_is_refused_before_the_database_is_touched() -> None:
    """OverflowError ("Python int too large to convert to SQLite INTEGER") at the end of a match."""
    m = finished(2)
    last = m.sheet[-1]
    w = m.winner
    assert w is not None
    huge = tuple((1 << 63) + 5 if i == w else t for i, t in enumerate(last.totals))
    m = m._replace(sheet=(*m.sheet[:-1], last._replace(totals=huge)))
    assert m.winner == w
    with pytest.raises(stats.StatsError, match=r"a score of 9223372036854775813 does not fit the statistics"):
        stats.record_match_result(m, {0: "Ann"}, "expert")
    assert not paths.stats_path().exists()
