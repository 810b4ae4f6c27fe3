"""``canasta serve --database postgresql://…``: the one-process server keeps its tables in PostgreSQL
(``tables/pgstore.py``), owns them there (``cluster/ownership.py``), stops serving them the moment
it loses its database session, and serves them again when its watch takes them back.  A real
PostgreSQL (``tests/engines.py``); the server's own tables' directory is left empty, so what comes
back can only have come from the database."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import psycopg

from canasta_tui.engine import record
from canasta_tui.presets import load_rules
from canasta_tui.server.server import Server
from canasta_tui.server.tables.pgstore import PostgresTableStore

from .helpers import run, server_config, until
from .test_table_store_contract import _Person


def test_a_server_on_a_database_keeps_its_tables_there_and_takes_them_back(pg_dsn: str, tmp_path: Path) -> None:
    async def main() -> None:
        config = dataclasses.replace(server_config(), database=pg_dsn, node="solo", directory=tmp_path / "one")
        async with Server(config) as srv:
            reg = srv.registry
            assert isinstance(srv.store, PostgresTableStore) and srv.store.owner == "solo"
            ann = _Person("ann")
            reg.connect(ann)
            st = reg.create(ann, load_rules("classic"), "beginner")
            assert reg.start(ann, st.id) is None and st.table is not None
            await until(lambda: srv.store.flush(0.01) and _row(pg_dsn, st.id)[:2] == (1, "solo"), "the table's row")
            # The database session is lost: the table stops at once, and is served again from its save.
            with psycopg.connect(pg_dsn, autocommit=True) as db:
                db.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = "
                           "'canasta owner solo'")
            await until(lambda: st.id not in reg.tables, "the table stopped")
            assert any(f"Table {st.id} stopped here" in n for n in ann.notes)
            await until(lambda: st.id in reg.tables, "the table taken back")
            back = reg.tables[st.id]
            assert back is not st and back.table is not None
            assert record.dumps(back.table.match, {}) == record.dumps(st.table.match, {})
            assert _row(pg_dsn, st.id)[:2] == (2, "solo")
            kept = record.dumps(back.table.match, {})
        # Another machine (another directory) on the same database: the table is there.
        config = dataclasses.replace(config, directory=tmp_path / "two")
        async with Server(config) as srv:
            again = srv.registry.tables[st.id]
            assert again.table is not None and record.dumps(again.table.match, {}) == kept
            assert not any((tmp_path / "two").rglob("*.json"))
    run(main())


def _row(dsn: str, table_id: int) -> tuple[object, ...]:
    with psycopg.connect(dsn, autocommit=True) as db:
        row = db.execute("SELECT epoch, owner, state FROM canasta_tables.tables WHERE id = %s", (table_id,)).fetchone()
    return tuple(row) if row is not None else ()
