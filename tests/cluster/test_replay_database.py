"""A finished match's record is in the room's database, so its replay opens at any machine: the
server's replay page reads ``postgresql:table/<id>`` through the table store (the contract tests),
and ``canasta replay --database URL NUMBER`` reads it at a terminal.  A real PostgreSQL."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from canasta_tui.cli import _database_record, main
from canasta_tui.engine import record
from canasta_tui.persistence.saves import SaveError
from canasta_tui.server.tables.pgstore import PostgresTableStore

from .helpers import WAIT, play
from .test_table_store_contract import computers


def test_canasta_replay_reads_a_tables_record_from_the_database(pg_dsn: str) -> None:
    store = PostgresTableStore(pg_dsn, "owner-1")
    store.start()
    table = computers(3, 0)
    play(table, 100_000)
    table_id = store.new_id()
    store.save(table_id, table.match, {"seed": 3})
    assert store.flush(WAIT)
    ref = store.record_ref(table_id)
    store.close(WAIT)
    for asked in (ref, str(table_id)):
        game = _database_record(pg_dsn, asked)
        assert record.dumps(game.match, {}) == record.dumps(table.match, {})
    # What cannot be read is refused, saying why (and the command says so).
    for bad, why in ((str(table_id + 1), "no table of that number in the database"),
                     ("../etc/passwd", "not a table's record"), ("1" * 12, "not a table's record")):
        with pytest.raises(SaveError, match=why):
            _database_record(pg_dsn, bad)
    r = CliRunner().invoke(main, ["replay", "--database", pg_dsn, str(table_id + 1)])
    assert r.exit_code == 1 and "no table of that number in the database" in r.output, r.output
    r = CliRunner().invoke(main, ["replay", "--database", "mysql://x/y", "1"])
    assert r.exit_code == 1 and "--database is a PostgreSQL URL" in r.output, r.output
