"""Play again, the turn timer and a lobby that outlasts a restart, over real SSH on 127.0.0.1
(each person with their own key).

- Rematch: at the end of a match every human at the table is asked "play again with the
  same people?"; those who say yes play a new match with the same seats and options, and
  computers take the seats of those who say no.
- Turn timer: a human who does not act in time is warned, then a computer plays that turn
  for them; they keep the seat and play their next turn themselves.  The option is saved
  with the table.
- Forming tables (seats, options, creator) and their open invitations outlast a restart.
"""

from __future__ import annotations

import asyncio
import json
import re

from canasta_tui.persistence import paths
from canasta_tui.persistence.saves import read_record
from canasta_tui.server.door.auth import Identity
from canasta_tui.server.person import PersonId
from canasta_tui.server.server import Server
from canasta_tui.server.tables.server_table import FORMING, OVER, PLAYING, ServerTable
from canasta_tui.table import COMPUTER, REMOTE

from .helpers import DOWN, ENTER, WAIT, Term, drive, fingerprint_of, run, serving, settle, words
from .test_tables import Person

RIGHT = "\x1b[C"
QUESTION = "Play again with the same people?"


def key(name: str) -> str:
    return f"key:{fingerprint_of(name)}"


def person(name: str) -> PersonId:
    return PersonId.parse(key(name))


async def create_timed_table(t: Term, shown: str) -> None:
    """``t`` creates a table with the form's shortest turn timer (shown as ``shown``)."""
    await t.press("n", "New table")
    assert "Per turn:  < off >" in t.text()          # off by default
    for _ in range(3):
        t.send(DOWN)
    await t.press(RIGHT, f"Per turn:  < {shown} >")
    await t.press(ENTER, "is yours")


def test_a_player_who_does_not_act_in_time_is_warned_then_a_computer_plays_that_turn_and_the_next_is_theirs() -> None:
    async def main() -> None:
        async with serving(shortest_turn=6) as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            await create_timed_table(alice, "6 s")
            st = srv.registry.tables[1]
            assert st.turn_timer == 6
            await alice.press("s", "hand 1")
            await alice.wait_for("Your hand (11 cards)")
            table = st.table
            assert table is not None
            # She presses nothing: warned first (a third of the time before), then a computer plays.
            await alice.wait_for("2 s left: then a computer plays this turn for you (you keep your seat)", timeout=WAIT)
            assert table.seats[0].kind == REMOTE
            await alice.wait_for("Your time ran out: a computer plays this turn for you")
            assert table.seats[0].key == key("alice")
            await settle(srv, lambda: table.match.state.actor != 0)          # the computer ended her turn
            assert any(line.text == "alice's time ran out: a computer plays this turn for them" for line in table.chat)
            # Her next turn is hers: her seat is hers again, and her key plays it.
            await settle(srv, lambda: table.match.state.actor == 0 and table.seats[0].kind == REMOTE)
            assert 0 in st.links and st.standing_in is None
            while "(press any key)" in alice.text():
                await alice.press("x", lambda s: "(press any key)" not in s)
            cards = int(re.search(r"Your hand \((\d+) cards\)", alice.text()).group(1))  # type: ignore[union-attr]
            await alice.press("d", f"Your hand ({cards + 1} cards)")
            assert table.seats[0].kind == REMOTE and table.match.state.actor == 0
            await alice.close()
    run(main(), timeout=120)


def test_the_turn_timer_is_one_of_the_choices_and_is_saved_with_the_table() -> None:
    async def main() -> None:
        async with serving(shortest_turn=4) as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            client = srv.registry.clients[person("alice")]
            from canasta_tui.engine import CLASSIC
            from canasta_tui.server.tables.server_table import TableRefused
            try:
                srv.registry.create(client, CLASSIC, "advanced", turn_timer=7)
            except TableRefused as exc:
                assert str(exc) == "A turn timer is one of off, 4 s, 60 s, 120 s, not 7 s"
            else:
                raise AssertionError("a turn timer not offered was taken")
            await create_timed_table(alice, "4 s")
            await alice.press("s", "hand 1")
            await settle(srv, lambda: srv.store.flush(0.1) and (paths.data_dir() / "server/tables/1.json").exists())
            saved = read_record(paths.data_dir() / "server" / "tables" / "1.json")
            assert saved.meta["server"]["turn_timer"] == 4
        async with serving(shortest_turn=4) as srv:
            assert srv.registry.tables[1].turn_timer == 4
    run(main(), timeout=120)


def test_at_the_end_of_a_match_those_who_say_yes_play_again_with_the_same_options_and_computers_fill_the_rest() -> None:
    async def main() -> None:
        async with serving(takeover=60) as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            await alice.press("n", "New table")
            await alice.press(ENTER, "is yours")
            st = srv.registry.tables[1]
            st.rated = True                                    # (the form's rated field is another's work)
            st.turn_timer = 0.3                                # (the players' turns go fast: computers play them)
            st.rules = st.rules.replace(target_score=1)        # one hand is the match
            bob = await Term.connect(srv.port, "bob")
            await bob.press("3", "3  bob✓ (you)")
            await alice.press("s", "hand 1")
            question = "Play again with the same people?"
            await asyncio.gather(drive(alice, lambda s: question in s, timeout=100),
                                 drive(bob, lambda s: question in s, timeout=100))
            assert st.state == OVER
            assert "y: yes    n: no, leave the table" in alice.text()
            await alice.press("y", "Playing again: alice. Waiting for bob")
            assert "q: leave the table" in alice.text()
            await bob.press("n", "Tables")                     # no: back in the lobby
            await alice.wait_for("hand 1")
            await settle(srv, lambda: 2 in srv.registry.tables and st.again_at == 2)
            new = srv.registry.tables[2]
            assert new.state == PLAYING and new.table is not None
            # The same seats for those who said yes, computers for the others, the same options.
            assert [(s.kind, s.key) for s in new.table.seats] == [(REMOTE, key("alice")), (COMPUTER, ""),
                                                                  (COMPUTER, ""), (COMPUTER, "")]
            assert (new.rules, new.level, new.rated, new.turn_timer) == (st.rules, st.level, True, 0.3)
            await settle(srv, lambda: 0 in new.links)
            # bob was told; the finished table goes once its last player left it.
            assert any(line.text == "bob does not play again" for line in st.table.chat) if st.table else True
            await settle(srv, lambda: 1 not in srv.registry.tables)
            for t in (alice, bob):
                await t.close()
    run(main(), timeout=200)


async def finish_a_match_of_two(srv: Server) -> tuple[Term, Term, ServerTable]:
    """alice and bob (Players 1 and 3) play a one-hand match, their turns played by computers, up
    to "Play again with the same people?" on both screens."""
    alice = await Term.connect(srv.port, "alice")
    await alice.wait_for("No tables yet")
    await alice.press("n", "New table")
    await alice.press(ENTER, "is yours")
    st = srv.registry.tables[1]
    st.turn_timer = 0.3                                # (the players' turns go fast: computers play them)
    st.rules = st.rules.replace(target_score=1)        # one hand is the match
    bob = await Term.connect(srv.port, "bob")
    await bob.press("3", "3  bob✓ (you)")
    await alice.press("s", "hand 1")
    await asyncio.gather(drive(alice, lambda s: QUESTION in s, timeout=100),
                         drive(bob, lambda s: QUESTION in s, timeout=100))
    assert st.state == OVER
    return alice, bob, st


def test_play_again_has_a_deadline_after_which_no_answer_is_a_no() -> None:
    """One person who walked away does not hold the others: "Play again?" counts down (its deadline
    shortened here through the server's rematch_answer), then whoever has not answered says no, and
    those who said yes play on."""
    async def main() -> None:
        async with serving(takeover=60, rematch_answer=7) as srv:
            alice, bob, st = await finish_a_match_of_two(srv)
            # The question shows its countdown; bob, who walked away, presses nothing.
            screen = await alice.press("y", "Playing again: alice. Waiting for bob: ")
            left = int(re.search(r"Waiting for bob: (\d+) s left", screen).group(1))  # type: ignore[union-attr]
            assert "(no answer is a no)" in screen
            assert 0 < left <= 7
            screen = await bob.wait_for(lambda s: re.search(r"Waiting for bob: \d s left", s) is not None)
            assert "(no answer is a no)" in screen and "y: yes    n: no, leave the table" in screen
            # The countdown moves on by itself, in steps of AGAIN_STEP (5 s) seconds left.
            await bob.wait_for("Waiting for bob: 5 s left", timeout=10)
            # The time runs out: bob's no is counted, and alice plays again with computers.
            await settle(srv, lambda: st.again_at == 2 and 2 in srv.registry.tables, timeout=20)
            await settle(srv, lambda: 0 in srv.registry.tables[2].links)
            new = srv.registry.tables[2]
            assert new.table is not None
            assert [(s.kind, s.key) for s in new.table.seats] == [(REMOTE, key("alice")), (COMPUTER, ""),
                                                                  (COMPUTER, ""), (COMPUTER, "")]
            assert st.table is not None
            assert any(line.text == "bob did not answer in time: does not play again" for line in st.table.chat)
            # bob's screen says so; the question is no longer his to answer.
            screen = await bob.wait_for("The new match is at table 2")
            assert "q: leave the table" in screen and "y: yes" not in screen
            assert words(st.answer_again(srv.registry.clients[person("bob")], True)) == (
                "Too late: the time to answer ran out, and no answer is a no")
            await bob.press("y", lambda s: "q: leave the table" in s)          # nothing happens
            assert srv.registry.tables[2].claims[2] is None
            await bob.press("q", "Tables")
            for t in (alice, bob):
                await t.close()
    run(main(), timeout=200)


def test_the_time_to_answer_play_again_starts_when_the_question_is_seen() -> None:
    """bob is still reading the last hand's score when alice has answered: his countdown waits
    until "Play again?" is on his screen (here 3.5 s after alice saw it, with 6 s to answer), so he
    has the whole time then.  It waits at most ``rematch_answer`` after the match ended."""
    async def main() -> None:
        async with serving(takeover=60, rematch_answer=6) as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            await alice.press("n", "New table")
            await alice.press(ENTER, "is yours")
            st = srv.registry.tables[1]
            st.turn_timer = 0.3
            st.rules = st.rules.replace(target_score=1)
            bob = await Term.connect(srv.port, "bob")
            await bob.press("3", "3  bob✓ (you)")
            await alice.press("s", "hand 1")
            await asyncio.gather(drive(alice, lambda s: QUESTION in s, timeout=100),
                                 drive(bob, lambda s: "is over" in s, timeout=100))
            assert QUESTION not in bob.text()
            await alice.press("y", "Playing again: alice. Waiting for bob: ")
            # bob has not seen the question: his time starts at the latest 6 s after the match ended.
            assert st.again_until > 0 and key("bob") not in st.again_seen
            assert abs(st._again_deadline(key("bob")) - (st.again_until + 6)) < 1e-6
            await asyncio.sleep(3.5)
            assert st.asks_again(person("bob"))
            screen = await drive(bob, lambda s: QUESTION in s and "Waiting for bob" in s, timeout=10)
            left = int(re.search(r"Waiting for bob: (\d+) s left", screen).group(1))  # type: ignore[union-attr]
            assert left >= 5, screen               # the whole 6 s, not the 2.5 s a shared clock left
            bob.send("y")
            await settle(srv, lambda: st.again_at == 2)         # both said yes: the new match
            assert st.again == {key("alice"): True, key("bob"): True} and not st.again_late
            for t in (alice, bob):
                await t.close()
    run(main(), timeout=200)


def test_a_player_who_leaves_at_play_again_answers_no_at_once() -> None:
    """A person who leaves the table (here: their connection closes) has answered no at once: the
    one who said yes does not wait for the deadline.  The deadline here is an hour, so an answer
    that comes within the test's wait can only be the leave's, however busy the machine."""
    async def main() -> None:
        async with serving(takeover=60, rematch_answer=3600) as srv:
            alice, bob, st = await finish_a_match_of_two(srv)
            await alice.press("y", "Waiting for bob: ")
            await bob.close()
            await settle(srv, lambda: st.again_at == 2, timeout=WAIT)
            assert st.again == {key("alice"): True, key("bob"): False} and not st.again_late
            await alice.close()
    run(main(), timeout=200)


def test_forming_tables_their_seats_options_and_invitations_outlast_a_restart() -> None:
    async def main() -> None:
        forming = paths.data_dir() / "server" / "tables" / "forming.json"
        async with serving(shortest_turn=4) as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            await create_timed_table(alice, "4 s")
            bob = await Term.connect(srv.port, "bob")
            await bob.press("3", "3  bob✓ (you)")
            carol = await Term.connect(srv.port, "carol")
            await carol.wait_for("Tables")
            registry = srv.registry
            assert registry.invitations.invite(registry.clients[person("alice")], person("carol"), 1) is None
            await settle(srv, lambda: srv.store.flush(0.1) and forming.exists()
                         and json.loads(forming.read_text())["forming"][0]["claims"][2] is not None)
        # Everybody was sent away by the stop; their seats stay claimed (the file as it was).
        kept = json.loads(forming.read_text())["forming"]
        assert [c and c[1] for c in kept[0]["claims"]] == ["alice", None, "bob", None]
        async with serving(shortest_turn=4) as srv:
            registry = srv.registry
            st = registry.tables[1]
            assert st.state == FORMING and st.creator == person("alice") and st.turn_timer == 4
            assert [str(c.person) if c else None for c in st.claims] == [key("alice"), None, key("bob"), None]
            (inv,) = registry.invitations.invitations_for(person("carol"))
            assert (inv.table_id, inv.from_key) == (1, person("alice"))
            registry.sweep()                       # nobody is back yet: the table waits for them
            assert 1 in registry.tables
            dave = await Term.connect(srv.port, "dave")
            lobby = await dave.wait_for("1  alice✓")
            assert "3  bob✓" in lobby
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("1  alice✓ (you)")
            await alice.press("s", "hand 1")         # she created it: she starts it, bob's seat waits for him
            assert st.table is not None and [s.key for s in st.table.seats] == [key("alice"), "", key("bob"), ""]
            assert st.table.seats[2].kind == REMOTE
            for t in (alice, dave):
                await t.close()
    run(main(), timeout=120)


def test_the_answer_to_play_again_names_the_seat_not_the_name_connected_under() -> None:
    """A key may reserve several names: bob answering as "robert" is bob at this table, in the
    table's log as in the question's status (one name for a seat through a match)."""
    async def main() -> None:
        async with serving(takeover=60) as srv:
            alice, bob, st = await finish_a_match_of_two(srv)
            await alice.press("y", "Waiting for bob: ")
            robert = Person("robert")
            robert.identity = Identity("robert", fingerprint_of("bob"))
            assert st.answer_again(robert, False) is None    # type: ignore[arg-type]
            assert st.table is not None
            said = [line.text for line in st.table.chat]
            assert "bob does not play again" in said and not any("robert" in t for t in said)
            for t in (alice, bob):
                await t.close()
    run(main(), timeout=200)
