"""The table store's contract, run against both stores: on disk (``TableStore``, a file a table)
and on PostgreSQL (``PostgresTableStore``, a row a table, on a real throwaway server started by
``tests/engines.py``).  Each store is written, closed, and read back by a new store on the same
place (a restart, or another owner): saves after every move (the newest kept), a finished match
kept as its record (a replay reads it), forming tables, a table set aside, a damaged save or
forming record set aside and never lost, and the registry's own restart on each store."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest

from canasta_tui.engine import Match, record
from canasta_tui.persistence.saves import SaveError
from canasta_tui.presets import load_rules
from canasta_tui.server.door.auth import Identity
from canasta_tui.server.lobby.registry import Registry
from canasta_tui.server.tables.pgstore import PostgresTableStore
from canasta_tui.server.tables.store import TableStore
from canasta_tui.table.seats import COMPUTER, Seat
from canasta_tui.table.table import Table

from .helpers import WAIT, play, run, server_config


@dataclass
class Place:
    """Where a kind of store keeps its tables: ``open`` a store there (a new process's), ``damage``
    a table's save or the forming tables, ``kept`` says whether a damaged or set-aside thing is
    still there (never lost)."""

    kind: str
    open: Callable[[], TableStore]
    damage: Callable[[int | None], None]
    kept: Callable[[int | None, str], bool]


@pytest.fixture(params=["disk", "postgres"])
def place(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Place]:
    opened: list[TableStore] = []
    directory = tmp_path / "tables"
    if request.param == "disk":
        def open_disk() -> TableStore:
            opened.append(TableStore(directory))
            return opened[-1]

        def damage_disk(table_id: int | None) -> None:
            directory.mkdir(parents=True, exist_ok=True)
            name = "forming.json" if table_id is None else f"{table_id}.json"
            (directory / name).write_text('{"format": "canasta-tui-save", "rules": ', encoding="utf-8")

        def kept_disk(table_id: int | None, tag: str) -> bool:
            stem = "forming" if table_id is None else str(table_id)
            return any(directory.glob(f"{stem}.{tag}-*.json"))

        yield Place("disk", open_disk, damage_disk, kept_disk)
    else:
        dsn = request.getfixturevalue("pg_dsn")

        def open_pg() -> TableStore:
            opened.append(PostgresTableStore(dsn, "node-1", directory))
            return opened[-1]

        def damage_pg(table_id: int | None) -> None:
            PostgresTableStore(dsn, "migrator").close()        # (the schema is there)
            with psycopg.connect(dsn, autocommit=True) as db:
                if table_id is None:
                    db.execute("INSERT INTO canasta_tables.forming (owner, data) VALUES ('node-1', '{\"forming\": [')")
                else:
                    db.execute("INSERT INTO canasta_tables.tables (id, epoch, owner, state, save) VALUES "
                               "(%s, 1, 'gone', 'playing', '{\"format\": \"canasta-tui-save\", \"rules\": ')", (table_id,))

        def kept_pg(table_id: int | None, tag: str) -> bool:
            with psycopg.connect(dsn, autocommit=True) as db:
                if table_id is None:
                    return db.execute("SELECT count(*) FROM canasta_tables.forming WHERE owner LIKE %s",
                                      (f"node-1.{tag}-%",)).fetchone() == (1,)
                return db.execute("SELECT state FROM canasta_tables.tables WHERE id = %s",
                                  (table_id,)).fetchone() == (tag,)

        yield Place("postgres", open_pg, damage_pg, kept_pg)
    for store in opened:
        store.close(WAIT)


def computers(seed: int, moves: int) -> Table:
    """A table of four computers after ``moves`` of its moves (a seed: the same game every time)."""
    table = Table(load_rules("classic"), [Seat(COMPUTER, f"C{i}", "beginner") for i in range(4)], seed)
    play(table, moves)
    return table


def same(a: Match, b: Match) -> bool:
    return record.dumps(a, {}) == record.dumps(b, {})


def test_every_move_is_saved_and_a_new_store_loads_the_newest(place: Place) -> None:
    store = place.open()
    store.start()
    table = computers(7, 0)
    positions = []
    for _ in range(25):
        play(table, 1)
        positions.append(table.match)
        store.save(3, table.match, {"seed": 7, "names": ["C0", "C1", "C2", "C3"]})
    other = computers(8, 5)
    store.save(4, other.match, {"seed": 8})
    assert store.flush(WAIT)
    store.close(WAIT)
    again = place.open()
    stored, next_id = again.load()
    assert [t.id for t in stored] == [3, 4]
    assert same(stored[0].game.match, positions[-1])
    assert stored[0].game.meta["seed"] == 7 and stored[0].game.meta["names"] == ["C0", "C1", "C2", "C3"]
    assert same(stored[1].game.match, other.match)
    assert next_id >= 5


def test_a_finished_match_is_not_brought_back_but_its_record_opens_anywhere(place: Place) -> None:
    store = place.open()
    store.start()
    table = computers(3, 0)
    play(table, 100_000)
    assert table.match.winner is not None
    store.save(9, table.match, {"seed": 3})
    assert store.flush(WAIT)
    ref = store.record_ref(9)
    store.close(WAIT)
    again = place.open()
    assert again.load()[0] == []
    game = again.read_record(ref)                      # (as a replay reads a match's record)
    assert same(game.match, table.match) and game.match.winner == table.match.winner
    with pytest.raises(SaveError):
        again.read_record(again.record_ref(77))


def test_forming_tables_are_kept_and_removed(place: Place) -> None:
    store = place.open()
    store.start()
    assert store.load_forming() is None
    data = {"forming": [{"id": 5, "creator": "key:SHA256:ann", "claims": [["key:SHA256:ann", "ann"], None]}]}
    store.save_forming(json.dumps(data))
    assert store.flush(WAIT)
    assert place.open().load_forming() == data
    store.save_forming("")
    assert store.flush(WAIT)
    assert place.open().load_forming() is None


def test_a_table_set_aside_is_kept_but_not_brought_back(place: Place) -> None:
    store = place.open()
    store.start()
    store.save(2, computers(5, 10).match, {})
    store.save(6, computers(6, 10).match, {})
    assert store.flush(WAIT)
    store.set_aside(2, "nobody came back")
    store.save(2, computers(5, 12).match, {})          # (never written again)
    assert store.flush(WAIT)
    store.close(WAIT)
    assert [t.id for t in place.open().load()[0]] == [6]
    assert place.kept(2, "aside")


def test_a_damaged_save_and_damaged_forming_tables_are_set_aside_never_lost(
        place: Place, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="canasta.server")
    place.damage(12)
    place.damage(None)
    store = place.open()
    store.start()
    store.save(13, computers(2, 4).match, {})
    assert store.flush(WAIT)
    store.close(WAIT)
    again = place.open()
    stored, _ = again.load()
    assert [t.id for t in stored] == [13]
    assert again.load_forming() is None
    assert place.kept(12, "corrupt") and place.kept(None, "corrupt")
    text = caplog.text
    assert "table 12 could not be loaded" in text and "the tables not started could not be read" in text


def test_the_registry_brings_its_tables_back_from_either_store(place: Place) -> None:
    """The server's own restart (``Registry.restore`` of what the store loads): a started table
    comes back at the position it was saved at, and a forming table with its seat claimed."""
    async def main() -> None:
        store = place.open()
        store.start()
        with ThreadPoolExecutor(2) as pool:
            reg = Registry(server_config(), store, pool)
            ann, bob = _Person("ann"), _Person("bob")
            reg.connect(ann)
            reg.connect(bob)
            st = reg.create(ann, load_rules("classic"), "beginner")
            forming = reg.create(bob, load_rules("classic"), "beginner")
            assert reg.start(ann, st.id) is None and st.table is not None
            reg.close()
            kept = record.dumps(st.table.match, {})
            assert store.flush(WAIT)
            store.close(WAIT)
            store = place.open()
            store.start()
            reg = Registry(server_config(), store, pool)
            try:
                reg.restore(*store.load())
                back = reg.tables[st.id]
                assert back.table is not None and record.dumps(back.table.match, {}) == kept
                assert forming.id in reg.tables
                claim = reg.tables[forming.id].claims[0]
                assert claim is not None and claim.name == "bob"
            finally:
                reg.close()
    run(main())


class _Person:
    """A connected person, as the registry sees them (no terminal)."""

    def __init__(self, name: str) -> None:
        self.identity = Identity(name, f"SHA256:{name}")
        self.notes: list[str] = []

    def moved(self, where: object) -> None: ...

    def kick(self, reason: str) -> None: ...

    def back_to_lobby(self, note: str) -> None: ...

    def notify(self, text: str) -> None:
        self.notes.append(text)

    def invited(self, invitation: object) -> None: ...


def test_a_save_in_the_database_over_the_bound_is_refused_and_kept(pg_dsn: str, monkeypatch: pytest.MonkeyPatch,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    """What the database holds is not trusted more than a file: a save over the size a save may have
    (16 MB; here made 100,000 characters) is neither loaded nor replayed, and kept, marked corrupt."""
    import canasta_tui.server.tables.pgstore as pgstore

    caplog.set_level(logging.WARNING, logger="canasta.server")
    store = PostgresTableStore(pg_dsn, "node-1")
    store.start()
    store.save(21, computers(9, 40).match, {"pad": "x" * 200_000})
    store.save(22, computers(10, 3).match, {})
    assert store.flush(WAIT)
    store.close(WAIT)
    monkeypatch.setattr(pgstore, "MAX_SAVE_BYTES", 100_000)
    again = PostgresTableStore(pg_dsn, "node-2")
    try:
        assert [t.id for t in again.load()[0]] == [22]
        assert "table 21 could not be loaded (its save is over" in caplog.text
        with pytest.raises(SaveError, match="its save is over"):
            again.read_record(again.record_ref(21))
        with psycopg.connect(pg_dsn, autocommit=True) as db:
            row = db.execute("SELECT state, length(save) > 100000 FROM canasta_tables.tables WHERE id = 21").fetchone()
        assert row == ("corrupt", True)
    finally:
        again.close(WAIT)
