"""Statistics: win ratio per level, high scores (best single-hand difference), history, concurrency."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from contextlib import closing
from pathlib import Path

import pytest

from canasta_tui.engine import Match
from canasta_tui.persistence import paths, stats
from canasta_tui.persistence.selfplay import game_over, start, step


def finished(seed: int) -> Match:
    """A short real match: random play to a 50-point target."""
    m = start(seed)
    m = m._replace(rules=m.rules.replace(target_score=50), state=m.state._replace(rules=m.rules.replace(target_score=50)))
    while not game_over(m):
        m = step(m, seed)
    return m


def test_win_ratio_per_level_as_the_windows_manual_counts_it() -> None:
    # "if you've won three matches and lost one, your win ratio is 75%"
    results = []
    seed = 1
    while len([r for r in results if r]) < 3 or len([r for r in results if not r]) < 1:
        m = finished(seed)
        won = m.winner == 0
        if (won and results.count(True) < 3) or (not won and results.count(False) < 1):
            stats.record_match_result(m, {0: "Ann"}, "expert", game_key=f"g{seed}")
            results.append(won)
        seed += 1
    [row] = stats.win_ratios("Ann")
    assert (row.player, row.level, row.wins, row.losses, row.ratio) == ("Ann", "expert", 3, 1, 75.0)


def test_high_scores_are_single_hand_differences_best_first() -> None:
    m = finished(4)
    stats.record_match_result(m, {0: "Ann", 1: "Bob"}, "beginner")
    table = stats.high_scores()["beginner"]
    diffs = [h.scores[0].total - h.scores[1].total for h in m.sheet]
    assert sorted([d for d in diffs] + [-d for d in diffs], reverse=True)[:10] == [h.difference for h in table]
    assert {h.player for h in table} <= {"Ann", "Bob"}


def test_recording_the_same_game_twice_counts_once_and_history_keeps_the_sheet() -> None:
    m = finished(2)
    assert len(stats.record_match_result(m, {0: "Ann"}, "advanced", game_key="k")) == 1
    assert stats.record_match_result(m, {0: "Ann"}, "advanced", game_key="k") == []
    [row] = stats.history()
    assert row.player == "Ann" and row.hands == len(m.sheet)
    assert row.sheet[-1]["totals"] == list(m.scores)


def test_reset_zeroes_the_counters_and_keeps_the_history() -> None:
    stats.record_match_result(finished(2), {0: "Ann"}, "advanced")
    stats.record_match_result(finished(3), {0: "Bob"}, "advanced")
    assert stats.reset("Ann") == 1
    assert [r.player for r in stats.win_ratios()] == ["Bob"]
    assert len(stats.history()) == 2
    stats.reset()
    assert stats.win_ratios() == [] and stats.high_scores() == {}


def test_schema_is_versioned_and_a_newer_database_is_refused() -> None:
    with stats.opened() as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == stats.SCHEMA_VERSION
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(stats.StatsError, match="newer than this program knows"):
        stats.connect()


def test_a_file_that_is_not_a_database_is_a_clear_error() -> None:
    paths.stats_path().parent.mkdir(parents=True)
    paths.stats_path().write_text("hello, not sqlite" * 100)
    with pytest.raises(stats.StatsError, match=str(paths.stats_path())):
        stats.win_ratios()


def test_unfinished_match_is_not_recorded() -> None:
    with pytest.raises(stats.StatsError, match="not over"):
        stats.record_match_result(start(1), {0: "Ann"}, "beginner")


WRITER = textwrap.dedent("""
    import sys
    from canasta_tui.persistence import stats
    from tests.persistence.test_stats import finished
    m = finished(int(sys.argv[1]))
    for i in range(int(sys.argv[2])):
        stats.record_match_result(m, {0: f"writer{sys.argv[1]}", 2: "shared"}, "expert", game_key=f"{sys.argv[1]}-{i}")
""")


def test_several_writers_at_once_lose_nothing() -> None:
    writers, each = 6, 15
    m = finished(1)  # warm the import cache before the race
    assert m.winner is not None
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(w + 1), str(each)]) for w in range(writers)]
    assert [p.wait(timeout=60) for p in procs] == [0] * writers
    with stats.opened() as db:
        assert db.execute("SELECT COUNT(*) FROM matches").fetchone()[0] == writers * each * 2
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    ratios = {r.player: r.wins + r.losses for r in stats.win_ratios()}
    assert ratios["shared"] == writers * each
    assert all(ratios[f"writer{w + 1}"] == each for w in range(writers))
    assert isinstance(sqlite3.sqlite_version, str)


class _SchemaMadeMidway:
    """A read-only connection during whose schema check another process creates the schema, just
    after the check read the version (the race several first writers ran into)."""

    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self.db, self.path, self.done = db, path, False

    @property
    def in_transaction(self) -> bool:
        return self.db.in_transaction

    def execute(self, sql: str) -> sqlite3.Cursor:
        cur = self.db.execute(sql)
        if sql.startswith("PRAGMA user_version") and not self.done:
            self.done = True
            with closing(sqlite3.connect(self.path, isolation_level=None)) as other:
                stats.migrate(other, self.path)
        return cur


def test_a_schema_made_by_another_writer_during_the_check_is_not_another_programs(tmp_path: Path) -> None:
    """Version and tables are read in one snapshot: a version 0 read before another writer created the
    schema, with its tables read after, would refuse a canasta database as another program's."""
    path = tmp_path / "canasta.db"
    with closing(sqlite3.connect(path, isolation_level=None)) as first:
        first.execute("PRAGMA journal_mode = WAL")          # what connect() does before migrating
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)) as ro:
        racing = _SchemaMadeMidway(ro, path)
        assert stats.check_schema(racing, path) == 0  # type: ignore[arg-type]  # the snapshot: not yet made
        assert racing.done
        assert stats.check_schema(ro, path) == stats.STATS.version   # and made, once looked at again
