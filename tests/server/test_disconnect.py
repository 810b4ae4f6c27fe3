"""Players who drop: the seat waits, the others are told, a computer takes over after the wait,
and the player who comes back gets the seat with what happened meanwhile; the end of a hand never
waits for somebody who is gone; a newcomer takes a computer's seat at the next deal."""

from __future__ import annotations

import asyncio

import pytest

from canasta_tui.engine import Phase

from .helpers import ENTER, Term, drive, fingerprint_of, in_log, key_of, run, serving, settle, two_at_a_table


def test_a_dropped_seat_waits_and_its_player_comes_back_to_it_with_what_happened() -> None:
    async def main() -> None:
        async with serving(takeover=60) as srv:
            alice, bob = await two_at_a_table(srv)
            await bob.close()
            await alice.wait_for(in_log("bob disconnected: a computer takes over in 60 s"))
            # alice plays her turn; Player 2's computer plays; then the table waits for bob.
            await alice.press("d", "Dis[c]ard")
            alice.send("c")
            await alice.wait_for("bob is up")
            table = srv.registry.tables[1].table
            assert table is not None and table.state.actor == 2 and table.seats[2].kind == "remote"
            await asyncio.sleep(0.3)
            assert table.state.actor == 2           # nobody plays bob's seat while it waits
            # The lobby shows the seat waiting.
            dave = await Term.connect(srv.port, "dave")
            await dave.wait_for("3  bob✓: away, a computer takes over soon")
            # bob connects again: straight to his seat, with what the others did since he left.
            bob = await Term.connect(srv.port, "bob")
            screen = await bob.wait_for("While you were away:")
            assert "alice drew, discarded" in screen
            assert "Player 2 " in screen
            await alice.wait_for(in_log("bob is back"))
            screen = await bob.press("x", "Your turn: d draws")
            for t in (alice, bob, dave):
                await t.close()
    run(main())


def test_after_the_wait_a_computer_plays_the_seat_until_its_player_returns() -> None:
    async def main() -> None:
        async with serving(takeover=0.5) as srv:
            alice, bob = await two_at_a_table(srv)
            await bob.close()
            await alice.wait_for(in_log("bob disconnected: a computer takes over in 0.5 s"))
            await alice.wait_for(in_log("A computer plays for bob"))
            table = srv.registry.tables[1].table
            assert table is not None
            assert table.seats[2].kind == "computer" and table.seats[2].key == f"key:{fingerprint_of('bob')}"
            # A whole round: alice, then three computers (one of them in bob's seat), then alice again.
            await alice.press("d", "Dis[c]ard")
            alice.send("c")
            await alice.wait_for(lambda s: "[D]raw" in s.split("\n")[-1])
            assert table.match.log[-1][-1].kind == "discard"
            assert any(e.seat == 2 and e.kind == "discarded" for e in table.events)
            bob = await Term.connect(srv.port, "bob")
            screen = await bob.wait_for("Your hand")
            await alice.wait_for(in_log("bob is back"))
            assert table.seats[2].kind == "remote"
            # The catch-up tells bob what the computer did in his seat too, not only the others.
            assert "While you were away:" in screen
            assert any("│ bob " in line and "discarded" in line for line in screen.splitlines()), screen
            for t in (alice, bob):
                await t.close()
    run(main())


def test_leaving_on_purpose_lets_a_computer_play_at_once_and_the_seat_is_still_yours() -> None:
    async def main() -> None:
        async with serving(takeover=60) as srv:
            alice, bob = await two_at_a_table(srv)
            await bob.press("q", "Leave the table?")
            lobby = await bob.press("y", "Tables")
            assert "3  computer for bob✓ (you)" in lobby
            await alice.wait_for(in_log("bob left the table: a computer plays for them"))
            table = srv.registry.tables[1].table
            assert table is not None and table.seats[2].kind == "computer"
            await bob.press("3", "Your hand")
            assert table.seats[2].kind == "remote"
            for t in (alice, bob):
                await t.close()
    run(main())


def test_the_end_of_a_hand_does_not_wait_for_a_player_who_is_gone() -> None:
    async def main() -> None:
        async with serving(takeover=60) as srv:
            alice, bob = await two_at_a_table(srv)

            def over(screen: str) -> bool:
                return " is over " in screen.split("\n")[0]

            await asyncio.gather(drive(alice, over), drive(bob, over))
            table = srv.registry.tables[1].table
            assert table is not None and table.state.phase == Phase.HAND_OVER
            await bob.close()         # gone before seeing the score
            await alice.press(ENTER, "Enter: next hand")
            await alice.press(ENTER, "hand 2")
            assert table.match.hand_number == 2
            await alice.close()
    run(main(), timeout=180)


def test_a_newcomer_takes_a_computers_seat_at_the_next_deal_not_in_the_middle_of_a_hand() -> None:
    async def main() -> None:
        async with serving(takeover=60) as srv:
            alice, bob = await two_at_a_table(srv)
            carol = await Term.connect(srv.port, "carol")
            await carol.wait_for("2  computer")
            screen = await carol.press("2", "(no hand shown)")     # she watches until the deal
            assert "Your hand" not in screen
            await alice.press("q", "Leave the table?")
            await alice.press("n", "Your hand")
            table = srv.registry.tables[1].table
            assert table is not None and table.seats[1].kind == "computer"
            dave = await Term.connect(srv.port, "dave")
            await dave.wait_for("2  computer; carol✓ sits down at the next deal")

            def dealt(screen: str) -> bool:
                return "hand 2" in screen.split("\n")[0]

            await asyncio.gather(drive(alice, dealt), drive(bob, dealt))
            await carol.wait_for(lambda s: "hand 2" in s.split("\n")[0] and "Your hand (11 cards)" in s)
            assert table.seats[1].kind == "remote" and table.seats[1].name == "carol"
            await alice.wait_for(in_log("carol sits down as Player 2"))
            await settle(srv, lambda: 1 in srv.registry.tables[1].links)
            for t in (alice, bob, carol, dave):
                await t.close()
    run(main(), timeout=180)


@pytest.mark.parametrize("takeover", [60.0, 0.3], ids=["seat-waiting", "computer-playing"])
def test_a_player_back_under_another_name_of_their_key_keeps_the_seat_and_its_name(takeover: float) -> None:
    """A key may reserve several names; the person is the key, so bob connecting as "robert"
    gets bob's seat back, and the table goes on calling the seat by the name it has in this
    match (the quadrants, the log and the records agree), saying who came back as whom."""
    async def main() -> None:
        async with serving(takeover=takeover) as srv:
            alice, bob = await two_at_a_table(srv)
            await bob.close()
            table = srv.registry.tables[1].table
            assert table is not None
            if takeover < 1:                    # back after a computer took the seat
                await alice.wait_for(in_log("A computer plays for bob"))
                assert table.seats[2].kind == "computer"
            robert = await Term.connect(srv.port, "robert", client_keys=[key_of("bob")])
            await robert.wait_for("Your hand")
            await alice.wait_for(in_log("bob is back (as robert)"))
            assert table.seats[2].kind == "remote" and table.seats[2].name == "bob"
            assert table.seats[2].key == f"key:{fingerprint_of('bob')}"
            for t in (alice, robert):
                await t.close()
    run(main())
