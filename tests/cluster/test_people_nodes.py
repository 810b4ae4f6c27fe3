"""Friends, notes and mutes across a cluster's fronts (issue 34, section 3; docs/cluster.md, "People
across the fronts"): one owner and two fronts on a real PostgreSQL and nats-server, people over real
SSH.  A note left at front 1 is seen when its person comes in at front 2; a mute made at front 1
holds for lines said at front 2, and again when the person who muted comes back at front 2; a note
left at front 1 for somebody at front 2 is told to them there at once."""

from __future__ import annotations

import asyncio
from pathlib import Path

from server.helpers import ENTER, Term

from .helpers import WAIT, run, until
from .test_lobby_nodes import room_of


def test_a_note_left_at_one_front_is_seen_at_the_other_and_a_mute_holds_across_fronts(
        tmp_path: Path, nats_url: str, nats_room: str, pg_dsn: str) -> None:
    async def go() -> None:
        async with room_of(tmp_path, nats_url, nats_room, pg_dsn) as (_owner, one, two):
            # cy came once, at front 2: his name is his key's in the room's database.
            cy = await Term.connect(two.server.port, "cy")
            await cy.wait_for("No tables yet")
            await cy.close()
            bob = await Term.connect(two.server.port, "bob")
            ann = await Term.connect(one.server.port, "ann")
            await ann.wait_for("2 online")                      # (bob, at the other front, through presence)
            # ann, at front 1, mutes bob (at front 2) by name, and leaves cy a note.
            await ann.press("f", "Friends")
            await ann.press("m", "Mute (a name; they are not told):")
            ann.send("bob")
            await ann.press(ENTER, "bob is muted")
            await ann.press("m", "Notes for you")
            await ann.press("n", "Note for (a name, then the note):")
            ann.send("cy hello from front 1")
            await ann.press(ENTER, "Your note is left for cy")
            people = one.server.registry.people
            assert await asyncio.to_thread(people.flush, WAIT)        # type: ignore[attr-defined]
            # bob's lobby line (front 2) reaches front 1's lobby, but not ann's screen there.
            await bob.press("c", "Say: _")
            bob.send("hello from bob")
            await bob.press(ENTER, "bob✓: hello from bob")
            await until(lambda: any(line.text == "hello from bob" for line in one.server.registry.chat),
                        "bob's line at front 1")
            ann.send("c")
            await ann.wait_for("Say: _")
            ann.send("and me")
            seen = await ann.press(ENTER, "ann✓: and me")
            assert "hello from bob" not in seen and "hello from bob" not in ann.received()
            # cy comes in at front 2: ann's note is there.
            cy = await Term.connect(two.server.port, "cy")
            shown = await cy.wait_for(lambda s: "Notes for you" in s and "hello from front 1" in s)
            assert "ann, 20" in shown and "(new)" in shown
            await cy.press("\x1b", lambda s: "Notes for you" not in s)
            # A note left at front 1 while cy is at front 2 is told to him there at once.
            await ann.press("m", "Notes for you")
            await ann.press("n", "Note for (a name, then the note):")
            ann.send("cy and another")
            await ann.press(ENTER, "Your note is left for cy")
            told = await cy.wait_for("You have 1 new note: press m to read")
            assert "1 new note (m)" in told.split("\n")[0]
            await cy.press("m", "and another")
            # ann comes back at front 2: the mute holds there too (read from the database).
            await ann.close()
            await until(lambda: all(c.identity.name != "ann" for c in one.server.registry.clients.values()),
                        "ann gone from front 1")
            ann = await Term.connect(two.server.port, "ann")
            await ann.wait_for("ann✓: and me")
            await bob.press("c", "Say: _")
            bob.send("bob again")
            await bob.press(ENTER, "bob✓: bob again")
            await cy.press("\x1b", lambda s: "Notes for you" not in s)
            await cy.press("c", "Say: _")
            cy.send("cy here")
            await cy.press(ENTER, "cy✓: cy here")
            seen = await ann.wait_for("cy✓: cy here")
            assert "bob again" not in seen and "hello from bob" not in seen, seen
            assert "bob again" not in ann.received()
            for t in (ann, bob, cy):
                await t.close()
    run(go())
