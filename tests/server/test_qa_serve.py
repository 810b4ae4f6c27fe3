"""Defects QA found in ``canasta serve`` over real SSH at 80x24, each attacked over SSH here."""

from __future__ import annotations

from canasta_tui.ui.lobby import AdminLine

from .helpers import Term, create_table, fingerprint_of, run, serving, settle

#: An admin's reason as long as the admin's line takes (200 characters).
REASON = ("the server is being reorganised: every table closes now and each game is kept by the host, "
          "who can play it on; the new tables open after nine tonight, with the same names, keys and ratings")


def flat(screen: str) -> str:
    """The screen's words on one line (a wrapped notice joined)."""
    return " ".join(screen.split())


def test_the_players_and_watchers_of_a_table_an_admin_closes_read_the_reason_in_the_lobby_whole() -> None:
    """QA: "Both players land in the lobby with only 'That table is gone' on the status line: the
    reason and 'the server keeps its game' never appear"."""
    assert len(REASON) <= AdminLine.limit

    async def main() -> None:
        async with serving(admins=frozenset({fingerprint_of("dan")})) as srv:
            bob = await Term.connect(srv.port, "bob")
            await bob.wait_for("No tables yet")
            await create_table(bob)
            await bob.press("s", "hand 1")
            gus = await Term.connect(srv.port, "gus", guest=True)
            await gus.wait_for("1 table")
            await gus.press("w", "(no hand shown)")
            dan = await Term.connect(srv.port, "dan")
            await dan.wait_for("1 table")
            await dan.press("a", "2  close")
            await dan.press("2", "Close table (number, then why): 1 _")
            await dan.press(REASON + "\r", "Are you sure?")
            await dan.press("y", "Table 1 was closed")
            told = f"Table 1 was closed by an admin: {REASON}; the server keeps its game"
            for t in (bob, gus):
                screen = await t.wait_for(lambda s: "No tables yet" in s and told in flat(s))
                assert "That table is gone" not in screen
                assert all(len(line) <= 80 for line in screen.split("\n"))
            await settle(srv, lambda: 1 not in srv.registry.tables)
            for t in (bob, gus, dan):
                await t.close()
    run(main(), timeout=180)


