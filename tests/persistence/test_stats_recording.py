"""Recording the result when a match ends at the table: never a traceback, never a frozen table,
a failure told once.

Issue 10, item 9: at the end of a match the table showed "Unhandled exception in event loop …
no such table: players", froze for 30 s while another process held the database, or raised
OverflowError on a score above 2^63.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from canasta_tui.engine import Action, Match, replay
from canasta_tui.persistence import paths, stats
from canasta_tui.play.local import LocalTable, attach
from canasta_tui.table import COMPUTER, LOCAL, Seat, Table
from tests.persistence.test_stats import finished

SEATS = [Seat(LOCAL, "Ann", "expert"), Seat(COMPUTER, "", "expert"), Seat(COMPUTER, "", "expert"),
         Seat(COMPUTER, "", "expert")]


def one_action_from_the_end(m: Match) -> tuple[LocalTable, Action]:
    """A real table one action before ``m`` ends, with persistence attached, and that action."""
    last = m.log[-1][-1]
    before = replay(m.rules, m.decks, (*m.log[:-1], m.log[-1][:-1]), m.first_dealer)
    table = Table(before.rules, SEATS, 1, match=before)
    return attach(table, "game-1"), last


def play(table: Table, a: Action) -> None:
    assert table.submit(table.state.actor, [a]).ok


def test_a_finished_match_is_recorded_off_the_tables_thread() -> None:
    local, last = one_action_from_the_end(finished(3))
    play(local.table, last)
    assert local.statistics_outcome() is None
    [row] = stats.history()
    assert (row.player, row.level) == ("Ann", "expert")


def test_no_such_table_players_is_told_once_and_play_goes_on() -> None:
    """A database with user_version=1 and no tables: "Unhandled exception in event loop … no such
    table: players" at the end of the match.  Now the action completes, the file is left alone and
    the reason comes back once, in one line."""
    path = paths.stats_path()
    path.parent.mkdir(parents=True)
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA user_version = 1")
    before = path.read_bytes()
    local, last = one_action_from_the_end(finished(3))
    play(local.table, last)
    assert local.table.match.winner is not None
    told = local.statistics_outcome()
    assert told == (f"The match was not recorded in the statistics: {path}: the statistics database (schema "
                    "version 1) lacks the table players, the table matches, the table hands; it is left as it is "
                    "(move it away and canasta starts new statistics)")
    assert local.statistics_outcome() is None          # told once
    assert path.read_bytes() == before


def test_a_locked_database_does_not_freeze_the_table() -> None:
    """Another process held the database: the end of the match froze the table for 30 s.  Here the
    lock is held (by a second connection) across the last action: the action must return while the
    lock is still held, and the result is recorded once the lock is released."""
    stats.record_match_result(finished(2), {0: "Bob"}, "expert")     # the database exists, in WAL mode
    local, last = one_action_from_the_end(finished(3))
    with closing(sqlite3.connect(paths.stats_path(), isolation_level=None)) as holder:
        holder.execute("BEGIN EXCLUSIVE")
        play(local.table, last)
        assert [r.player for r in stats.history()] == ["Bob"]        # not yet: the lock is still held
        holder.execute("ROLLBACK")
    assert local.statistics_outcome() is None
    assert sorted(r.player for r in stats.history()) == ["Ann", "Bob"]


def test_a_score_above_2_to_the_63_is_told_not_raised() -> None:
    """OverflowError at the end of a match: a loaded finished match with a score that does not fit."""
    m = finished(3)
    w = m.winner
    assert w is not None
    last = m.sheet[-1]
    huge = tuple((1 << 63) + 1 if i == w else t for i, t in enumerate(last.totals))
    m = m._replace(sheet=(*m.sheet[:-1], last._replace(totals=huge)))
    before = replay(m.rules, m.decks, (*m.log[:-1], m.log[-1][:-1]), m.first_dealer)
    session = Table(before.rules, SEATS, 1, match=before)
    local = attach(session, "game-2")
    session.replace_match(m, SEATS)
    told = local.statistics_outcome()
    assert told is not None and "a score of 9223372036854775809 does not fit the statistics" in told
    assert "\n" not in told
    assert not paths.stats_path().exists()


def test_a_name_with_escape_sequences_is_recorded_written_out(home: Path) -> None:
    """A name from a finished save's meta may hold ESC [2J: it reaches the statistics written out."""
    stats.record_match_result(finished(2), {0: "\x1b[2Jevil\x1b]0;title\x07"}, "expert")
    [row] = stats.history()
    assert row.player == "\\x1b[2Jevil\\x1b]0;ti"      # written out, cut to 20 characters
    assert "\x1b" not in row.player
