"""Guests cannot fill the server with tables (the issue "What players, a club and the test suite
still trip on", section 2: "The 40-table cap filled by guests for 30 days"), and tables that never
start do not last.

Each guest connection is a new person, so the tables per person never bound them: 16 connections
filled all 40 tables.  Now the tables guests created that are not over are bounded by address
(``GUEST_TABLES_PER_ADDRESS``) and in all (a quarter of the server's most).  A table not started
goes when its seats have not changed for the forming timeout, counted across a restart (its file
says when they last changed); one where only guests sat is not brought back (a guest is their
connection: none can come back to it); and a table of computers only that nobody has watched for
the forming timeout is set aside.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from canasta_tui.presets import load_rules
from canasta_tui.server.door.auth import guest_identity
from canasta_tui.server.lobby.registry import GUEST_TABLES_PER_ADDRESS, guest_tables
from canasta_tui.server.tables.server_table import PLAYING, TableRefused

from .helpers import ENTER, Term, create_table, run, serving, settle
from .test_tables import Person, registry


def test_guests_from_one_address_open_two_tables_not_sixteen() -> None:
    async def main() -> None:
        async with serving() as srv:
            guests = []
            for i in range(GUEST_TABLES_PER_ADDRESS):
                g = await Term.connect(srv.port, f"gus{i}", guest=True)
                guests.append(g)
                await g.wait_for("Tables")
                await create_table(g)
            extra = await Term.connect(srv.port, "gus9", guest=True)
            guests.append(extra)
            await extra.wait_for("Tables")
            text = await extra.press("n", lambda s: "New table" in s or "Guests from your address" in s)
            if "New table" in text:
                text = await extra.press(ENTER, lambda s: "is yours" in s or "Guests from your address" in s)
            assert "Guests from your address have 2 tables not over, their most" in text, text
            assert len(srv.registry.tables) == GUEST_TABLES_PER_ADDRESS
            # A person with a key still may (they are bounded as one person).
            ann = await Term.connect(srv.port, "ann")
            await ann.wait_for("Tables")
            await create_table(ann)
            for t in (*guests, ann):
                await t.close()
    run(main(), timeout=120)


def test_guests_from_anywhere_open_at_most_a_quarter_of_the_servers_tables_over_ssh() -> None:
    """A server of 4 tables gives guests 1: the second guest is refused (though their address has
    room), a person with a key is not."""
    async def main() -> None:
        async with serving(max_tables=4) as srv:
            gus = await Term.connect(srv.port, "gus", guest=True)
            await gus.wait_for("Tables")
            await create_table(gus)
            sam = await Term.connect(srv.port, "sam", guest=True)
            await sam.wait_for("Tables")
            text = await sam.press("n", lambda s: "New table" in s or "Guests have" in s)
            if "New table" in text:
                text = await sam.press(ENTER, lambda s: "is yours" in s or "Guests have" in s)
            assert "Guests have 1 table not over, the most this server gives guests" in text, text
            ann = await Term.connect(srv.port, "ann")
            await ann.wait_for("Tables")
            await create_table(ann)
            assert len(srv.registry.tables) == 2
            for t in (gus, sam, ann):
                await t.close()
    run(main(), timeout=120)


class Guest(Person):
    def __init__(self, name: str, address: str) -> None:
        super().__init__(name)
        self.identity = guest_identity(name, f"CODE{name}")
        self.address = address       # type: ignore[misc]


def test_guests_from_many_addresses_open_a_quarter_of_the_servers_tables(tmp_path: Path) -> None:
    async def main() -> None:
        async with registry(tmp_path, max_tables=8) as reg:
            most = guest_tables(8)
            assert most == 2
            made = 0
            for i in range(6):
                g = Guest(f"gus{i}", f"10.0.0.{i}")
                reg.connect(g)
                try:
                    reg.create(g, load_rules("classic"), "beginner")
                    made += 1
                except TableRefused as exc:
                    assert "Guests have 2 tables not over, the most this server gives guests" in str(exc)
            assert made == most
            ann = Person("ann")
            reg.connect(ann)
            reg.create(ann, load_rules("classic"), "beginner")       # a key is not held back by guests
    run(main())


def test_a_table_not_started_does_not_grow_young_again_at_a_restart(tmp_path: Path) -> None:
    """ann's forming table is kept across a restart with when its seats last changed.  Brought back
    within the forming timeout it is there; when its file says the seats changed longer ago than
    that, it is not brought back (said in the log).  A table where only a guest sat is not either."""
    async def main() -> None:
        async with registry(tmp_path) as reg:
            ann = Person("ann")
            reg.connect(ann)
            st = reg.create(ann, load_rules("classic"), "beginner")
            gus = Guest("gus", "10.0.0.1")
            reg.connect(gus)
            reg.create(gus, load_rules("classic"), "beginner")
            reg.store.flush()
            data = json.loads((tmp_path / "tables" / "forming.json").read_text())
            assert [abs(t["changed"] - time.time()) < 60 for t in data["forming"]] == [True, True]
        async with registry(tmp_path) as reg:
            reg.restore(*reg.store.load())
            assert list(reg.tables) == [st.id]             # the guest's is gone
            assert reg.tables[st.id].claims[0] is not None
            reg.store.flush()
        path = tmp_path / "tables" / "forming.json"
        data = json.loads(path.read_text())
        for t in data["forming"]:
            t["changed"] = time.time() - 7200              # two hours ago: past the hour's timeout
        path.write_text(json.dumps(data))
        async with registry(tmp_path) as reg:
            reg.restore(*reg.store.load())
            assert reg.tables == {}
    run(main())


def test_a_table_of_computers_only_that_nobody_watches_is_set_aside() -> None:
    """cy stands up at her table and starts it: computers only, which she watches.  She leaves; once
    nobody has watched it for the forming timeout, it goes (its file kept)."""
    async def main() -> None:
        async with serving(forming_timeout=1.0) as srv:
            cy = await Term.connect(srv.port, "cy")
            await cy.wait_for("No tables yet")
            await create_table(cy)
            await cy.press("u", "You stood up")
            await cy.press("s", "hand 1")
            st = srv.registry.tables[1]
            assert st.state == PLAYING
            await cy.press("q", lambda s: "Tables" in s or "Leave" in s)
            if "Leave" in cy.text():
                await cy.press("y", "Tables")
            await settle(srv, lambda: not st.present())
            st.visited = time.time() - 5                      # (the clock the sweep reads: nobody since)
            srv.registry.sweep()
            assert 1 not in srv.registry.tables
            await cy.wait_for("No tables yet")
            await cy.close()
    run(main(), timeout=120)
