"""Friends, notes and mutes over real SSH on 127.0.0.1 (issue 34, section 3), each person with their
own key at an 80x24 terminal: ann makes bob her friend from the online list and he is listed first
with where he is; ann leaves a note for cy, who is offline, and cy sees it when he comes in (a note
full of escape sequences is shown written out and sends none); ann mutes bob, whose lobby chat and
invitation never reach her while he sees what anybody sees; and the attacks typed at the keys: a
note too long, a flood of notes, a note to a name nobody has, marking oneself."""

from __future__ import annotations

from canasta_tui.server.lobby.friends import NOTES_PER_WINDOW

from .helpers import DOWN, ENTER, Term, create_table, in_log, run, serving
from .test_chat import HOSTILE


def rows_of(screen: str, *names: str) -> list[int]:
    """The screen's line number of each name's row in a list (-1: not shown)."""
    lines = screen.split("\n")
    return [next((i for i, line in enumerate(lines) if f" {n}✓" in line), -1) for n in names]


async def leave(t: Term, typed: str, then: str) -> str:
    """``t`` leaves a note from the notes box (m, then n): a name, then the note."""
    await t.press("m", "Notes for you")
    await t.press("n", "Note for (a name, then the note):")
    t.send(typed)
    return await t.press(ENTER, then)


def test_a_friend_is_listed_first_with_where_they_are() -> None:
    async def main() -> None:
        async with serving() as srv:
            ann = await Term.connect(srv.port, "ann")
            cy = await Term.connect(srv.port, "cy")
            bob = await Term.connect(srv.port, "bob")
            await create_table(bob)                      # bob sits at table 1
            await ann.wait_for("3 online")
            listed = await ann.press("p", lambda s: "table 1" in s and "Online" in s)
            _, cy_row, bob_row = rows_of(listed, "ann", "cy", "bob")
            assert 0 < cy_row < bob_row                  # (the lobby first, then by table)
            ann.send(DOWN + DOWN)                        # bob, the third
            shown = await ann.press("f", lambda s: "bob is your friend" in s and "friend" in s.split("\n")[
                rows_of(s, "bob")[0]])
            ann_row, bob_row, cy_row = rows_of(shown, "ann", "bob", "cy")
            assert ann_row < bob_row < cy_row, shown      # you, then your friends, then the rest
            bob_line = shown.split("\n")[bob_row]
            assert "table 1" in bob_line and "friend" in bob_line
            # Marking oneself is refused in words.
            ann.send("\x1b[H")                           # (Home: the first row, ann)
            await ann.press("f", "That is you: choose somebody else")
            await ann.press("\x1b", lambda s: "Online" not in s)
            # A friend by name, from the friends list (f): both there, bob with where he is.
            await ann.press("f", "Friends")
            await ann.press("a", "Your friend (a name):")
            ann.send("cy")
            await ann.press(ENTER, "cy is your friend")
            friends = await ann.press("f", "Friends")
            lines = friends.split("\n")
            bob_line = next(line for line in lines if " bob " in line and "friend" in line)
            cy_line = next(line for line in lines if " cy " in line and "friend" in line)
            assert "table 1" in bob_line and "friend" in bob_line and "lobby" in cy_line, friends
            assert lines.index(bob_line) < lines.index(cy_line)          # (by name, online first)
            for t in (ann, bob, cy):
                await t.close()
    run(main())


def test_a_note_left_for_somebody_offline_is_seen_when_they_come_in() -> None:
    async def main() -> None:
        async with serving() as srv:
            cy = await Term.connect(srv.port, "cy")          # cy's name is his key's from now on
            await cy.wait_for("No tables yet")
            await cy.press("q", "Leave the server?")
            await cy.press("y", lambda s: True)
            await cy.wait_closed()
            ann = await Term.connect(srv.port, "ann")
            await ann.wait_for("1 online")
            await leave(ann, "cy see you at eight", "Your note is left for cy: they see it when they next come in")
            # One full of escape sequences, whatever its source: shown written out, never sent.
            session = next(s for s in srv.sessions if s.identity.name == "ann")
            assert session.app is not None
            assert srv.registry.friends.leave(session.app, "cy", HOSTILE).startswith("Your note is left")
            cy = await Term.connect(srv.port, "cy")
            shown = await cy.wait_for(lambda s: "Notes for you" in s and "see you at eight" in s)
            assert "ann, 20" in shown and "(new)" in shown
            await cy.wait_for("\\x1b[2J\\x1b]0;owned\\x07\\x1b[31mred\\u202eevil")
            assert "\x1b]0;owned" not in cy.received() and "\x1b[2J\x1b]" not in cy.received()
            # Read: the next look marks nothing new; d deletes the chosen one.
            await cy.press("\x1b", lambda s: "Notes for you" not in s)
            again = await cy.press("m", "Notes for you")
            assert "(new)" not in again
            await cy.press("d", "The note is deleted")
            assert len(srv.registry.people.notes_for("key:" + fingerprint_here(srv, "cy"))) == 1
            for t in (ann, cy):
                await t.close()
    run(main())


def test_a_muted_persons_chat_and_invitation_never_reach_and_they_are_told_nothing() -> None:
    async def main() -> None:
        async with serving() as srv:
            ann = await Term.connect(srv.port, "ann")
            bob = await Term.connect(srv.port, "bob")
            cy = await Term.connect(srv.port, "cy")
            await ann.wait_for("3 online")
            listed = await ann.press("p", "Online")
            ann.send(DOWN * (rows_of(listed, "bob")[0] - rows_of(listed, "ann")[0]))
            await ann.press("m", "bob is muted: their chat, invitations and notes no longer reach you")
            await ann.press("\x1b", lambda s: "Online" not in s)
            await bob.press("c", "Say: _")
            bob.send("hello from bob")
            await bob.press(ENTER, "bob✓: hello from bob")      # he sees his line as anybody would
            await cy.wait_for("bob✓: hello from bob")
            # bob invites ann and cy to his table: he is told as usual; only cy's box opens.
            await create_table(bob)
            for who in ("ann", "cy"):
                listed = await bob.press("p", "Online")
                bob.send(DOWN * (rows_of(listed, who)[0] - rows_of(listed, "bob")[0]))
                await bob.press(ENTER, f"{who} is invited to table 1: you are told their answer")
            await cy.wait_for("bob invites you to table 1")
            await cy.press("\x1b", lambda s: "invites you" not in s)
            await cy.press("c", "Say: _")
            cy.send("hello from cy")
            await cy.press(ENTER, "cy✓: hello from cy")
            seen = await ann.wait_for("cy✓: hello from cy")        # (everything before it has reached ann)
            assert "hello from bob" not in seen and "invites you" not in seen
            assert "hello from bob" not in ann.received()
            # His note: he is told it is left, as anybody; ann has none.
            await leave(bob, "ann psst", "Your note is left for ann: they see it when they next come in")
            assert "note" not in ann.text().split("\n")[0]
            for t in (ann, bob, cy):
                await t.close()
    run(main())


def test_a_muted_persons_lines_at_the_table_do_not_reach_either() -> None:
    async def main() -> None:
        async with serving() as srv:
            bob = await Term.connect(srv.port, "bob")
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("2 online")
            await alice.press("f", "Friends")
            await alice.press("m", "Mute (a name; they are not told):")
            alice.send("bob")
            await alice.press(ENTER, "bob is muted")
            await create_table(alice)
            await bob.press("3", "3  bob✓ (you)")
            await alice.press("s", "hand 1")
            await bob.wait_for("Your hand (11 cards)")
            await bob.press("/", "Say to the table:")
            bob.send("psst alice")
            await bob.press(ENTER, in_log("bob✓: psst alice"))          # his own log shows it, as anybody's
            await alice.press("/", "Say to the table:")
            alice.send("good luck")
            seen = await alice.press(ENTER, in_log("alice✓: good luck"))
            await bob.wait_for(in_log("alice✓: good luck"))
            assert "psst alice" not in seen and "psst alice" not in alice.received()
            for t in (alice, bob):
                await t.close()
    run(main())


def test_notes_typed_too_long_too_fast_or_to_nobody_are_refused_in_words() -> None:
    async def main() -> None:
        async with serving() as srv:
            ann = await Term.connect(srv.port, "ann")
            bob = await Term.connect(srv.port, "bob")
            await ann.wait_for("2 online")
            await leave(ann, "bob " + "x" * 300, "A note is at most 280 characters (this one has 300)")
            await leave(ann, "zed hello", "Nobody here has the name zed: a name a key holds, or somebody online")
            await leave(ann, "ann hello", "That is you: a note is for somebody else")
            for i in range(NOTES_PER_WINDOW):
                await leave(ann, f"bob note {i}", "Your note is left for bob")
            await leave(ann, "bob one more", "Not so fast: 5 notes per 60 s (wait ")
            assert [n.text for n in srv.registry.people.notes_for("key:" + fingerprint_here(srv, "bob"))] == [
                f"note {i}" for i in range(NOTES_PER_WINDOW)]
            await bob.wait_for("5 new notes (m)")
            for t in (ann, bob):
                await t.close()
    run(main())


def fingerprint_here(srv: object, name: str) -> str:
    session = next(s for s in srv.sessions if s.identity.name == name)    # type: ignore[attr-defined]
    return str(session.identity.fingerprint)
