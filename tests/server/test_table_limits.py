"""Tables cost the server memory, a file, and time at every start: one person may have only so many,
the server holds only so many, a table that never starts goes, and a started table nobody comes
back to is set aside (its game kept in a file, not brought back at every start)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from canasta_tui.persistence import paths
from canasta_tui.persistence.saves import read_record

from .helpers import ENTER, Term, create_table, run, serving, settle


def tables_dir() -> Path:
    return paths.data_dir() / "server" / "tables"


async def start_and_leave(t: Term) -> None:
    """``t`` creates a table, starts it with computers, and goes back to the lobby."""
    await create_table(t)
    await t.press("s", "Your hand (11 cards)")
    await t.press("q", "Leave the table?")
    await t.press("y", "paused: nobody there")


def test_a_new_table_replaces_the_one_its_creator_sat_alone_at() -> None:
    """A person sits at one table that has not started at a time: creating another stands them up
    from the first, which goes when nobody is left there (the lobby's loop over the tables once
    failed as it went)."""
    async def main() -> None:
        async with serving() as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            await alice.press("n", "New table")
            await alice.press(ENTER, "Table 1 is yours")
            await alice.press("n", "New table")
            screen = await alice.press(ENTER, "Table 2 is yours")
            assert "1 table" in screen and sorted(srv.registry.tables) == [2]
            await alice.close()
    run(main())


def test_one_person_has_at_most_so_many_tables_and_the_server_holds_at_most_so_many() -> None:
    async def main() -> None:
        async with serving(tables_per_person=2, max_tables=3) as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            await start_and_leave(alice)
            await start_and_leave(alice)
            screen = await alice.press("n", "You have 2 tables already: finish one first (or stand up at one not "
                                            "started)")
            assert "New table" not in screen             # no form to fill in for nothing
            bob = await Term.connect(srv.port, "bob")
            await bob.wait_for("2 tables")
            await create_table(bob)
            carol = await Term.connect(srv.port, "carol")
            await carol.wait_for("3 tables")
            screen = await carol.press("n", "The server holds 3 tables, its most: join one, or wait until one is over")
            assert "New table" not in screen
            # bob's new table replaces his one that had not started (he stands up from it): allowed.
            await bob.press("n", "New table")
            await bob.press(ENTER, "Table 4 is yours")
            assert sorted(srv.registry.tables) == [1, 2, 4]
            for t in (alice, bob, carol):
                await t.close()
    run(main())


def test_a_table_that_never_starts_is_cleared_and_its_players_are_told() -> None:
    async def main() -> None:
        # 4 s: bob's connection must sit down before the table is cleared, on a loaded machine too
        # (at 0.5 s it was cleared before bob's screen came up, now and then).
        async with serving(forming_timeout=4.0, tick=0.1) as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            await create_table(alice)
            bob = await Term.connect(srv.port, "bob")
            await bob.press("3", "3  bob✓ (you)")
            for t in (alice, bob):
                screen = await t.wait_for("Table 1 was cleared: it had not started 4 s after somebody last sat")
                assert "No tables yet" in screen
            assert srv.registry.tables == {}
            for t in (alice, bob):
                await t.close()
    run(main())


def test_a_started_table_nobody_comes_back_to_is_set_aside_with_its_game_kept() -> None:
    async def main() -> None:
        async with serving(set_aside_after=1.0, tick=0.1) as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            await create_table(alice)
            await alice.press("s", "Your hand (11 cards)")
            await alice.press("d", "Your hand (12 cards)")
            await asyncio.sleep(1.5)                   # somebody at the table: it stays, however long
            assert 1 in srv.registry.tables
            await alice.press("q", "Leave the table?")
            await alice.press("y", "paused: nobody there")
            screen = await alice.wait_for("No tables yet")
            assert "Your table 1 was set aside (nobody had been at it for 1" in screen
            await settle(srv, lambda: srv.store.flush(0.1))
            await alice.close()
        names = [p.name for p in tables_dir().iterdir()]
        assert "1.json" not in names
        aside = [n for n in names if n.startswith("1.aside-")]
        assert len(aside) == 1
        kept = read_record(tables_dir() / aside[0])
        assert [str(a) for a in kept.match.log[-1]] == ["draw"]        # the game, as it was left
        async with serving() as srv:
            assert srv.registry.tables == {} and srv.registry.next_id == 2
    run(main())


def test_a_table_left_alone_while_the_server_was_down_is_set_aside_at_start() -> None:
    async def main() -> None:
        async with serving() as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            await start_and_leave(alice)
            await settle(srv, lambda: srv.store.flush(0.1))
            await alice.close()
        saved = read_record(tables_dir() / "1.json").meta["server"]["visited"]
        await asyncio.sleep(2.0)                       # (the save keeps whole seconds)
        async with serving(set_aside_after=1.0) as srv:
            assert srv.registry.tables == {}
            await settle(srv, lambda: srv.store.flush(0.1))
        assert isinstance(saved, int)
        assert [p.name.split("-")[0] for p in tables_dir().iterdir()] == ["1.aside"]
    run(main())
