"""Tables cost the server memory, a file, and time at every start: one person may have only so many,
the server holds only so many, a table that never starts goes, and a started table nobody comes
back to is set aside (its game kept in a file, not brought back at every start)."""

from __future__ import annotations

from .helpers import ENTER, Term, run, serving


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
