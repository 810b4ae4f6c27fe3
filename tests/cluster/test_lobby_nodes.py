"""The lobby across a cluster's nodes (docs/cluster.md, "The lobby across nodes"): one owner and two
fronts on a real PostgreSQL and nats-server, people over real SSH at each front.  A table created at
one front is shown at the other; a seat taken there is shown here; an owner refuses what it must
(the seat is taken) and the refusal reaches the person's screen; a malformed message is refused,
logged and applies nothing."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from server.helpers import Term, create_table

from canasta_tui.server import ServerConfig
from canasta_tui.server.cluster.bus import Bus, Refused
from canasta_tui.server.cluster.lobby import LobbyMirror
from canasta_tui.server.cluster.node import FrontNode, OwnerNode

from .helpers import run, until
from .screens import public_part


def node_config(tmp: Path, name: str, role: str, nats_url: str, room: str, dsn: str) -> ServerConfig:
    return ServerConfig(host="127.0.0.1", port=0, open=True, delay_ms=0, seed=1, wrong_password_pause=0.01,
                        computer_processes=False, directory=tmp / name, role=role, database=dsn, bus=nats_url,
                        room=room, node=name).checked()


@contextlib.asynccontextmanager
async def room_of(tmp: Path, nats_url: str, room: str, dsn: str) -> AsyncIterator[tuple[OwnerNode, FrontNode, FrontNode]]:
    owner = OwnerNode(node_config(tmp, "owner-1", "owner", nats_url, room, dsn))
    fronts = [FrontNode(node_config(tmp, f"front-{i}", "front", nats_url, room, dsn)) for i in (1, 2)]
    try:
        await owner.start()
        for f in fronts:
            await f.start()
        # (each front hears the owner's rows once a second: the room is ready when both have)
        await until(lambda: all(f.lobby is not None and f.lobby.mirror.owners for f in fronts), "the owner's rows")
        yield owner, fronts[0], fronts[1]
    finally:
        for f in fronts:
            with contextlib.suppress(Exception):
                await f.stop()
        await owner.stop()


def test_a_table_created_at_one_front_is_seen_and_sat_at_from_the_other(tmp_path: Path, nats_url: str, nats_room: str,
                                                                         pg_dsn: str) -> None:
    async def go() -> None:
        async with room_of(tmp_path, nats_url, nats_room, pg_dsn) as (owner, one, two):
            alice = await Term.connect(one.server.port, "alice")
            bob = await Term.connect(two.server.port, "bob")
            carol = await Term.connect(two.server.port, "carol")
            await alice.wait_for("No tables yet")
            await create_table(alice)
            assert owner.registry is not None
            await until(lambda: len(owner.registry.tables) == 1, "the table at the owner")      # type: ignore[union-attr]
            (st,) = owner.registry.tables.values()
            await bob.wait_for("1  alice✓")
            await bob.press("3", "3  bob✓ (you)")
            await alice.wait_for("3  bob✓")
            assert [c.name if c else None for c in st.claims] == ["alice", None, "bob", None]
            # Seat 3 is bob's: the mirror says so at once; seat 1 is alice's, so carol is refused.
            await carol.wait_for("3  bob✓")
            await carol.press("1", "alice sits there")
            await carol.press("2", "2  carol✓ (you)")
            await alice.wait_for("2  carol✓")
            # bob leaves the server at his front: the owner lets go of his seat (as in one process).
            await bob.close()
            await alice.wait_for(lambda s: "3  bob✓" not in s)
            assert [c.name if c else None for c in st.claims] == ["alice", "carol", None, None]
            for t in (alice, carol):
                await t.close()
    run(go())


def test_an_owner_refuses_malformed_requests_and_a_front_malformed_rows(tmp_path: Path, nats_url: str, nats_room: str,
                                                                        pg_dsn: str) -> None:
    async def go() -> None:
        async with room_of(tmp_path, nats_url, nats_room, pg_dsn) as (owner, one, _two):
            assert owner.lobby is not None and one.lobby is not None and owner.registry is not None
            bus = await Bus.connect(nats_url, room=nats_room, name="stranger")
            try:
                person = {"name": "mallory", "fp": "", "guest": "abc", "address": "", "code": ""}
                for bad, says in [
                    ({"front": "f", "op": "sit", "person": person, "table": "1", "seat": 0}, "table is not a whole number"),
                    ({"front": "f", "op": "sit", "person": {**person, "fp": "x"}, "table": 1, "seat": 0}, "a person is"),
                    ({"front": "f", "op": "sit", "person": {**person, "name": "\x1b[2J"}, "table": 1, "seat": 0},
                     "name is not text"),
                    ({"front": "f", "op": "create", "person": person, "table": 9, "rules": {"players": "4"},
                      "level": "advanced"}, "rules:"),
                    ({"front": "f", "op": "explode", "person": person, "table": 1}, "no lobby action"),
                ]:
                    with pytest.raises(Refused, match=says):
                        await bus.request(f"owner.{owner.name}.lobby", bad, timeout=30)
                assert owner.lobby.refused == 5 and not owner.registry.tables
                # Rows that are not rows: refused whole, nothing shown.
                before = one.lobby.mirror.refused
                await bus.publish(f"lobby.rows.{owner.name}", {"owner": owner.name, "rows": [{"id": 1}], "load": 0})
                await bus.publish("lobby.rows.impostor", {"owner": owner.name, "rows": [], "load": 0})
                await until(lambda: one.lobby.mirror.refused == before + 2, "the rows refused")      # type: ignore[union-attr]
                assert set(one.lobby.mirror.owners) == {owner.name}
            finally:
                await bus.close()
    run(go())


def test_an_owner_not_heard_leaves_the_mirror_with_its_tables() -> None:
    now = [0.0]
    changes: list[int] = []
    mirror = LobbyMirror(lambda: changes.append(1), clock=lambda: now[0])
    from canasta_tui.server.cluster.bus import Incoming

    mirror.heard(Incoming("lobby.rows.o1", {"owner": "o1", "rows": [], "load": 3}, 10))
    mirror.heard(Incoming("lobby.rows.o2", {"owner": "o2", "rows": [], "load": 1}, 10))
    assert mirror.least_loaded() == "o2"
    now[0] = 3.0
    mirror.heard(Incoming("lobby.rows.o1", {"owner": "o1", "rows": [], "load": 3}, 10))
    now[0] = 5.0
    mirror.sweep()
    assert set(mirror.owners) == {"o1"} and mirror.least_loaded() == "o1" and changes


def _playing_row(table: int) -> dict[str, object]:
    """A started table's row as an owner sends it (four computers)."""
    seat = {"o": "computer", "name": "Computer", "note": "", "v": False}
    return {"id": table, "rules": "Classic", "level": "beginner", "target": 5000, "stage": "playing",
            "seats": [seat] * 4, "creator": "", "hand": 1, "score": "", "winner": "", "paused": False,
            "access": "open", "watchable": True, "rated": False, "listed": True, "by": "",
            "owners": [""] * 4, "keys": [""] * 4, "code": "", "allowed": []}


def test_a_screen_at_a_table_held_elsewhere_is_told_when_its_owner_changes() -> None:
    """No polling: the rows that move a table tell the screens that follow it, once each change
    (its owner silent: None; another owner lists it: that owner), and never after they stop."""
    from canasta_tui.server.cluster.bus import Incoming

    now = [0.0]
    mirror = LobbyMirror(lambda: None, clock=lambda: now[0])

    def rows(owner: str, *tables: int) -> Incoming:
        return Incoming(f"lobby.rows.{owner}", {"owner": owner, "rows": [_playing_row(t) for t in tables], "load": 1}, 10)
    mirror.heard(rows("o1", 7, 8))
    mirror.heard(rows("o2"))
    told: list[str | None] = []
    other: list[str | None] = []
    stop = mirror.follow(7, "o1", told.append)
    mirror.follow(8, "o1", other.append)
    mirror.heard(rows("o1", 7, 8))              # (a heartbeat: nothing moved)
    assert told == [] and other == []
    now[0] = 3.0
    mirror.heard(rows("o2"))
    now[0] = 5.0
    mirror.sweep()                              # o1 is silent: its tables have no owner for now
    assert told == [None] and other == [None]
    mirror.heard(rows("o2", 7))                 # o2 took table 7 over
    assert told == [None, "o2"] and other == [None]
    mirror.heard(rows("o2", 7))
    assert told == [None, "o2"]
    stop()
    mirror.heard(rows("o1", 7, 8))              # (o1 back with both: 8 is told, 7 no longer listens)
    assert told == [None, "o2"] and other == [None, "o1"]
    # A table that moved between a screen's sitting down and its following is told at once.
    late: list[str | None] = []
    mirror.follow(8, "o2", late.append)
    assert late == ["o1"]



def test_four_people_over_two_fronts_play_at_a_table_of_an_owner(tmp_path: Path, nats_url: str, nats_room: str,
                                                                 pg_dsn: str) -> None:
    from server.helpers import drive

    async def go() -> None:
        async with room_of(tmp_path, nats_url, nats_room, pg_dsn) as (owner, one, two):
            assert owner.registry is not None
            alice, dave = await Term.connect(one.server.port, "alice"), await Term.connect(one.server.port, "dave")
            bob, carol = await Term.connect(two.server.port, "bob"), await Term.connect(two.server.port, "carol")
            people = (alice, bob, carol, dave)
            await alice.wait_for("No tables yet")
            await create_table(alice)
            await bob.wait_for("1  alice✓")
            await bob.press("2", "2  bob✓ (you)")
            await carol.wait_for("2  bob✓")
            await carol.press("3", "3  carol✓ (you)")
            await dave.wait_for("3  carol✓")
            await dave.press("4", "4  dave✓ (you)")
            await alice.wait_for("4  dave✓")
            alice.send("s")
            for t in people:
                await t.wait_for("Your hand")
            (st,) = owner.registry.tables.values()
            assert st.table is not None and all(s.kind.value == "remote" for s in st.table.seats)
            table = st.table
            await asyncio.gather(*(drive(t, lambda s: len(table.events) >= 30, timeout=120) for t in people))
            # Nobody drives now (four people, no turn timer: nothing moves): every screen comes to
            # show the same public table (the scores, the stock, the pile, the upcard, the log).
            await until(lambda: len({public_part(t.text()) for t in people}) == 1, "the four screens agreeing")
            stock = f"Stock {len(table.match.state.deck) - table.match.state.stock_pos}"
            assert stock in public_part(alice.text()), (stock, alice.text())
            for t in people:
                await t.close()
    run(go())

