"""Friends at one table over real SSH: two humans and two computers play a seeded hand to its end
by keys; a third person watches and never sees a hand."""

from __future__ import annotations

import asyncio

from .helpers import Term, create_table, drive, run, serving


def header(screen: str) -> str:
    return screen.split("\n")[0]


def test_two_humans_and_two_computers_play_a_hand_to_its_end_while_a_third_watches() -> None:
    async def main() -> None:
        async with serving() as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            lobby = await create_table(alice)
            assert "1  alice✓ (you)" in lobby and "2  free" in lobby
            bob = await Term.connect(srv.port, "bob")
            await bob.wait_for("forming: 1 of 4 seated, alice starts it")
            await bob.press("3", "3  bob✓ (you)")
            await alice.wait_for("3  bob")
            # Only the creator starts the table.
            await bob.press("s", "alice starts this table")
            await alice.press("s", "CANASTA — classic rules — hand 1")
            screen = await bob.wait_for("CANASTA — classic rules — hand 1")
            assert "Your hand (11 cards)" in screen
            assert "○ alice" in screen or "● alice" in screen
            st = srv.registry.tables[1]
            assert st.table is not None
            assert [s.kind for s in st.table.seats] == ["remote", "computer", "remote", "computer"]

            carol = await Term.connect(srv.port, "carol")
            await carol.wait_for("hand 1")
            watching = await carol.press("w", "(no hand shown)")
            assert "Your hand" not in watching

            def hand_over(screen: str) -> bool:
                return "hand 2" in header(screen)

            task = asyncio.ensure_future(carol.wait_for(lambda s: " is over " in s and "Hand 1" in s, timeout=90))
            await asyncio.gather(drive(alice, hand_over), drive(bob, hand_over))
            await task
            # The hand was scored, then both players saw the score and the next hand was dealt.
            assert st.table.match.hand_number == 2
            assert len(st.table.match.sheet) == 1
            assert "Your hand" not in carol.text()
            for t in (alice, bob, carol):
                await t.close()
    run(main(), timeout=180)


def test_the_output_hook_sees_exactly_what_each_terminal_receives() -> None:
    """For the leak test and the benchmark: ``Server(on_output=...)`` is called with every piece of
    text sent to each connection, and nothing reaches a terminal any other way."""
    sent: dict[str, list[str]] = {}

    def record(session: object, text: str) -> None:
        sent.setdefault(session.identity.name, []).append(text)  # type: ignore[attr-defined]

    async def main() -> tuple[str, str]:
        async with serving(on_output=record) as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            await create_table(alice)
            await alice.press("s", "Your hand (11 cards)")
            await alice.press("d", "Your hand (12 cards)")
        await alice.wait_closed()       # the server's goodbye went through the hook too
        return alice.received(), "".join(sent["alice"])
    received, recorded = run(main())
    assert "shutting down" in recorded
    assert received == recorded
