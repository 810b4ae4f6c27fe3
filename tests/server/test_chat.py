"""Chat over SSH, at the table and in the lobby: what one player types reaches the others as text,
never as control sequences; lines have a length limit and each player a rate limit."""

from __future__ import annotations

from .helpers import ENTER, Term, in_log, run, serving, two_at_a_table

HOSTILE = "\x1b[2J\x1b]0;owned\x07\x1b[31mred\u202eevil"


def test_a_line_said_at_the_table_reaches_the_others_in_their_log() -> None:
    async def main() -> None:
        async with serving() as srv:
            alice, bob = await two_at_a_table(srv)
            await alice.press("/", "Say to the table:")
            alice.send("good luck")
            await alice.press(ENTER, in_log("alice✓: good luck"))
            await bob.wait_for(in_log("alice✓: good luck"))
            for t in (alice, bob):
                await t.close()
    run(main())


def test_escape_sequences_typed_in_chat_never_reach_another_terminal() -> None:
    async def main() -> None:
        async with serving() as srv:
            alice, bob = await two_at_a_table(srv)
            title = bob.screen.title
            before = len(bob.received())
            await alice.press("/", "Say to the table:")
            alice.send("hi" + HOSTILE + "!")
            alice.send(ENTER)
            # Its escape ended the chat line and the rest were keys at the table, where o opens the
            # options a person keeps (issue 18): alice leaves them.
            await alice.wait_for("CANASTA — Options")
            await alice.press("q", lambda s: "Options" not in s.split("\n")[0])
            # Whatever the input made of it, bob's terminal got no escape sequence from it.
            await alice.press("/", "Say to the table:")
            alice.send("done")
            await alice.press(ENTER, in_log("alice✓: done"))
            await bob.wait_for(in_log("alice✓: done"))
            got = bob.received()[before:]
            assert "\x1b]0;owned" not in got and "\x1b[2J" not in got and "\u202e" not in got
            assert bob.screen.title == title
            # A line that holds them (whatever its source) is shown written out.
            table = srv.registry.tables[1].table
            assert table is not None
            table.say("eve", HOSTILE)
            await bob.wait_for(in_log("eve: \\x1b[2J\\x1b]0;owned\\x07"))
            # The log dialog is wide enough for the whole line.
            await bob.press("g", "eve: \\x1b[2J\\x1b]0;owned\\x07\\x1b[31mred\\u202eevil")
            assert bob.screen.title == title
            assert "\x1b]0;owned" not in bob.received()[before:]
            for t in (alice, bob):
                await t.close()
    run(main())


def test_a_line_too_long_is_refused_with_the_limit() -> None:
    async def main() -> None:
        async with serving(chat_max=20) as srv:
            alice, bob = await two_at_a_table(srv)
            await alice.press("/", "Say to the table:")
            alice.send("x" * 30)
            await alice.press(ENTER, "A chat line is at most 20 characters (this one has 30)")
            assert srv.registry.tables[1].table.chat == []  # type: ignore[union-attr]
            for t in (alice, bob):
                await t.close()
    run(main())


def test_a_player_who_chats_too_fast_is_told_to_wait() -> None:
    async def main() -> None:
        async with serving(chat_lines=2, chat_window=60) as srv:
            alice, bob = await two_at_a_table(srv)
            for n in (1, 2):
                await alice.press("/", "Say to the table:")
                alice.send(f"line {n}")
                await alice.press(ENTER, in_log(f"alice✓: line {n}"))
            await alice.press("/", "Say to the table:")
            alice.send("line 3")
            await alice.press(ENTER, "Not so fast: 2 lines per 60 s")
            assert [c.text for c in srv.registry.tables[1].table.chat] == ["line 1", "line 2"]  # type: ignore[union-attr]
            for t in (alice, bob):
                await t.close()
    run(main())


def test_the_lobby_has_a_chat_line_for_everybody_there() -> None:
    async def main() -> None:
        async with serving() as srv:
            alice = await Term.connect(srv.port, "alice")
            bob = await Term.connect(srv.port, "bob")
            await bob.wait_for("2 online")
            await alice.press("c", "Say: _")
            alice.send("anyone for canasta?")
            await alice.press(ENTER, "alice✓: anyone for canasta?")
            await bob.wait_for("alice✓: anyone for canasta?")
            # A line holding escapes (whatever its source) is shown written out, and does nothing.
            title = bob.screen.title
            session = next(s for s in srv.sessions if s.identity.name == "alice")
            assert session.app is not None
            assert srv.registry.say_lobby(session.app, HOSTILE) is None
            await bob.wait_for("alice✓: \\x1b[2J\\x1b]0;owned\\x07\\x1b[31mred\\u202eevil")
            assert "\x1b]0;owned" not in bob.received() and bob.screen.title == title
            for t in (alice, bob):
                await t.close()
    run(main())
