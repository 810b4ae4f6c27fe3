"""People in the lobby over real SSH (issue 18 §1): who is online and where, an invitation from
the online list answered with one key in the lobby and over a watched table, and a private table
that is refused to a third person and joined with its code.  Each person has their own key."""

from __future__ import annotations

import re

from canasta_tui.server.person import PersonId

from .helpers import DOWN, ENTER, Term, run, serving, settle

RIGHT = "\x1b[C"


def test_the_online_list_and_an_invitation_between_two_people() -> None:
    async def main() -> None:
        async with serving() as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            await alice.press("n", "New table")
            await alice.press(ENTER, "is yours")
            bob = await Term.connect(srv.port, "bob")
            await bob.wait_for("alice starts it")
            # Who is online: alice first (her list; she sits at table 1), then bob, in the lobby; ratings (0).
            text = await alice.press("p", "Online")
            rows = [line for line in text.split("\n") if "alice✓" in line or "bob✓" in line]
            assert re.search(r"> alice✓ \(you\) +table 1 +0 ", rows[0]) and re.search(r"  bob✓ +lobby +0 ", rows[1])
            await alice.press(DOWN + ENTER, "bob is invited to table 1: you are told their answer")
            # bob sees the invitation at once, in a box, and accepts it with one key.
            await bob.wait_for("alice invites you to table 1 (classic, 1 of 4 seated).")
            await bob.press("y", "You sit at table 1: its creator starts it")
            await bob.wait_for("2  bob✓ (you)")
            await alice.wait_for("bob accepted your invitation to table 1")
            await alice.wait_for("2  bob✓")
            # The list says where everybody is: start the table; carol watches it; dave, in the
            # lobby, sees them there and invites carol (watching) to his table: a box over her table.
            await alice.press("s", "hand 1")
            carol = await Term.connect(srv.port, "carol")
            await carol.wait_for("hand 1")
            await carol.press("w", "(no hand shown)")
            dave = await Term.connect(srv.port, "dave")
            await dave.wait_for("hand 1")
            await dave.press("n", "New table")
            await dave.press(ENTER, "is yours")
            text = await dave.press("p", "watching 1")
            order = [name for name in ("dave✓ (you)", "alice✓", "bob✓", "carol✓") if name in text]
            assert order == ["dave✓ (you)", "alice✓", "bob✓", "carol✓"]
            assert sorted(text.index(n) for n in order) == [text.index(n) for n in order]
            assert re.search(r"alice✓ +table 1 ", text) and re.search(r"carol✓ +watching 1 ", text)
            await dave.press(DOWN * 3 + ENTER, "carol is invited to table 2")
            await carol.wait_for("dave invites you to table 2")
            assert "y: accept    n: decline" in carol.text()
            await carol.press("y", "You sit at table 2: it starts when its creator starts it")   # back in the lobby
            await dave.wait_for("carol accepted your invitation to table 2")
            await settle(srv, lambda: srv.registry.tables[2].seat_of(PersonId.parse(f"key:{_fp('carol')}")) == 1)
            for t in (alice, bob, carol, dave):
                await t.close()
    run(main(), timeout=120)


def test_a_private_table_is_refused_to_a_third_and_joined_with_its_code() -> None:
    async def main() -> None:
        async with serving() as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            await alice.press("n", "New table")
            await alice.press(DOWN * 4 + RIGHT + RIGHT, "Who sits:  < with a code >")
            text = await alice.press(ENTER, "its code is")
            code = re.search(r"its code is ([A-Z0-9]{6})", text)
            assert code is not None
            await alice.wait_for(f"Table 1 — code {code.group(1)}")
            bob = await Term.connect(srv.port, "bob")
            await bob.wait_for("(private)")
            assert code.group(1) not in bob.text()               # the code is its creator's to give
            await bob.press("2", "Table 1 is private: press g and type its code (its creator has it)")
            await bob.press("g" + "WRONG1" + ENTER, "No table has that code")
            carol = await Term.connect(srv.port, "carol")
            await carol.wait_for("(private)")
            await carol.press("g" + code.group(1).lower() + ENTER, "2  carol✓ (you)")
            await alice.wait_for("2  carol✓")
            await bob.press("3", "Table 1 is private")          # the code is carol's, not bob's
            for t in (alice, bob, carol):
                await t.close()
    run(main(), timeout=120)


def _fp(name: str) -> str:
    from .helpers import fingerprint_of

    return fingerprint_of(name)
