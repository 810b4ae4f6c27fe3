"""What a club saw wrong at the server (the issue's section 2), each over real SSH on 127.0.0.1:
the replay names who played each seat and draws the hand in the person's own order; the online
list says where people seated at a forming table are; a coded table's creator sees its code
again; a dropped guest who comes back by name is told how to get their seat back; creating a
table tells the inviter whose invitee left, and a creator's role that passes is said."""

from __future__ import annotations

import asyncio
import re

from canasta_tui.engine import deal
from canasta_tui.server.club.people import PersonOptions
from canasta_tui.server.person import PersonId
from canasta_tui.server.tables.server_table import OVER
from canasta_tui.ui.canvas import card_label
from canasta_tui.ui.style import UNICODE
from canasta_tui.ui.texts import sort_hand

from .helpers import DOWN, ENTER, ESC, Term, create_table, fingerprint_of, run, serving, settle

RIGHT = "\x1b[C"

CARD = re.compile(r"(?:10|[A2-9JQK])[♣♦♥♠]|JK")


def test_the_replay_names_the_people_who_played_and_keeps_the_hand_order_they_chose() -> None:
    async def main() -> None:
        async with serving(takeover=0) as srv:
            reg = srv.registry
            reg.people.set_options(PersonId.parse(f"key:{fingerprint_of('alice')}"), PersonOptions(sort="suit"))
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            await create_table(alice, level_steps=-1)
            st = reg.tables[1]
            st.rules = st.rules.replace(target_score=1)               # one hand is the match
            await alice.press("s", "Your hand (11 cards)")
            await alice.press("q", "Leave the table?")
            await alice.press("y", "Tables")
            await alice.press("w", "hand 1")
            await settle(srv, lambda: st.state == OVER, timeout=120)
            for f in list(reg.club.results):
                await asyncio.wrap_future(f)
            await alice.press("q", lambda s: "Tables" in s or "Leave the table?" in s)
            if "Leave the table?" in alice.text():
                await alice.press("y", "Tables")
            await alice.press("i", "Your record")
            screen = await alice.press("\r", "REPLAY")
            lines = screen.split("\n")
            # Her seat (a computer finished it for her) is a person's, named; the others computers.
            box = next(i for i, line in enumerate(lines) if "● alice" in line)
            assert lines[box + 1][:24].split() == ["║", "human", "║"]
            assert sum(line.count("│ computer") + line.count("║ computer") for line in lines) == 3
            # Her hand in the order she chose (by suit), not the rank order of the default.
            assert st.table is not None
            match = st.table.match
            dealt = deal(match.rules, match.decks[0], match.first_dealer, (0, 0)).hands[0]
            at = next(i for i, line in enumerate(lines) if "alice's hand" in line)
            shown = next(CARD.findall(line) for line in lines[at + 1:] if CARD.findall(line))
            want = [card_label(c, UNICODE) for c in sort_hand(dealt, "suit")]
            assert shown == want and shown != [card_label(c, UNICODE) for c in sort_hand(dealt, "rank")]
            await alice.close()
    run(main(), timeout=200)


def test_people_seated_at_a_forming_table_are_at_that_table_in_the_online_list() -> None:
    async def main() -> None:
        async with serving() as srv:
            alice, bob, carol = [await Term.connect(srv.port, n) for n in ("alice", "bob", "carol")]
            await alice.wait_for("No tables yet")
            await create_table(alice)
            await bob.press("3", "3  bob✓ (you)")
            screen = await carol.press("p", "Online")
            inside = [line.split("│")[1] for line in screen.split("\n") if line.count("│") >= 2]
            rows = {name: cell for cell in inside for name in ("alice", "bob", "carol") if f"{name}✓" in cell}
            assert re.search(r"alice✓\s+table 1\b", rows["alice"]), rows
            assert re.search(r"bob✓\s+table 1\b", rows["bob"]), rows
            assert re.search(r"carol✓ \(you\)\s+lobby\b", rows["carol"]), rows
            # Standing up puts bob back in the lobby.
            await bob.press("u", "You stood up")
            await settle(srv, lambda: all(p.table is None for p in srv.registry.online_rows() if p.name == "bob"))
            for t in (alice, bob, carol):
                await t.close()
    run(main())


def test_the_creator_of_a_coded_table_sees_its_code_again_with_enter() -> None:
    async def main() -> None:
        async with serving() as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            await alice.press("n", "New table")
            await alice.press(DOWN * 4 + RIGHT + RIGHT, "Who sits:  < with a code >")
            await alice.press(ENTER, "its code is")
            code = srv.registry.tables[1].code
            await alice.press("c", "Say: ")                      # the message line moves on ...
            await alice.press(ESC, lambda s: "its code" not in s.split("\n")[-2])
            screen = await alice.press(ENTER, "Press s to start the table")
            assert f"its code: {code} (give it to your friends)" in screen.split("\n")[-2]   # ... and comes back
            bob = await Term.connect(srv.port, "bob")                # nobody else is shown it
            await bob.wait_for("Tables")
            assert code not in bob.text()
            for t in (alice, bob):
                await t.close()
    run(main())


def test_who_leaves_a_forming_table_for_their_own_is_told_to_its_people_and_so_is_who_starts_it_now() -> None:
    async def main() -> None:
        async with serving() as srv:
            reg = srv.registry
            alice, bob, carol = [await Term.connect(srv.port, n) for n in ("alice", "bob", "carol")]
            await alice.wait_for("No tables yet")
            await create_table(alice)
            # alice invites bob (second in her online list, after herself); he accepts.
            await alice.press("p", "Online")
            await alice.press(DOWN + ENTER, "bob is invited to table 1")
            await bob.wait_for("alice invites you to table 1")
            await bob.press("y", "You sit at table 1")
            await alice.wait_for("bob accepted your invitation to table 1")
            await carol.press("3", "3  carol✓ (you)")
            # bob creates a table of his own: the form says what he gives up, and alice (his inviter)
            # and carol are told he left; nobody may read "accepted" any more.
            screen = await bob.press("n", "New table")
            assert "Creating it gives up your seat at table 1" in screen
            await bob.press(ENTER, "is yours")
            await alice.wait_for("bob left table 1 for a table of their own")
            await carol.wait_for("bob left table 1 for a table of their own")
            assert reg.tables[1].seat_of(PersonId.parse(f"key:{fingerprint_of('bob')}")) is None
            # alice, its creator, creates another: the role passes to carol, who is told, as the table shows.
            await create_table(alice)
            await carol.wait_for("alice left table 1 for a table of their own; you start it now (s)")
            assert reg.tables[1].creator == PersonId.parse(f"key:{fingerprint_of('carol')}")
            await carol.wait_for("carol starts it")
            # carol stands up, bob sits at table 1; carol, its creator still, leaves the server: bob starts it.
            await carol.press("u", "You stood up")
            await bob.press("\x1b[A" * 3 + "2", "2  bob✓ (you)")
            assert reg.tables[1].seat_of(PersonId.parse(f"key:{fingerprint_of('bob')}")) == 1
            await carol.close()
            await bob.wait_for("carol left table 1: they left the server; you start it now (s)")
            for t in (alice, bob):
                await t.close()
    run(main())
