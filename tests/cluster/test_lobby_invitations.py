"""Invitations, a table's code and "play again?" across a cluster's nodes (docs/cluster.md, "The lobby
across nodes"): one owner and two fronts on a real PostgreSQL and nats-server, people over real SSH
at each front, each with their own key.  An invitation made at one front reaches a person at the
other and is accepted or declined there; a table's code typed at the other front seats the person at
the owner's table (a wrong one is refused); a short match ends with "play again?" answered at both
fronts, and the rematch is played at the owner.  Forged and malformed messages are refused, logged
and apply nothing."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import pytest
from server.helpers import DOWN, ENTER, Term, create_table, drive, fingerprint_of
from server.test_private_tables import private_table

from canasta_tui.lobbyview import Marked
from canasta_tui.server.club.writer import QueuedPeople
from canasta_tui.server.cluster.bus import Bus, Refused
from canasta_tui.server.cluster.node import FrontNode
from canasta_tui.server.person import PersonId
from canasta_tui.server.tables.server_table import OVER, PLAYING
from canasta_tui.table import COMPUTER, REMOTE

from .helpers import run, until
from .test_lobby_nodes import room_of

QUESTION = "Play again with the same people?"
RIGHT = "\x1b[C"


def key(name: str) -> PersonId:
    return PersonId.parse(f"key:{fingerprint_of(name)}")


def person_data(name: str) -> dict[str, str]:
    return {"name": name, "fp": fingerprint_of(name), "guest": "", "address": "127.0.0.1", "code": ""}


async def online_at(front: FrontNode, name: str) -> None:
    """``front``'s online list has ``name`` (at another front: through the presence)."""
    registry = front.server.registry
    await until(lambda: any(r.key == str(key(name)) for r in registry.online_rows()), f"{name} online at {front.name}")


async def invite(t: Term, name: str, front: FrontNode, table: int) -> float:
    """``t`` invites ``name`` from the online list (``name`` is its second row: the only other
    person); when the key was pressed."""
    await online_at(front, name)
    await t.press("p", f"{name}✓")
    sent = time.monotonic()
    await t.press(DOWN + ENTER, f"{name} is invited to table {table}: you are told their answer")
    return sent


def test_an_invitation_made_at_one_front_is_declined_then_accepted_at_the_other(
        tmp_path: Path, nats_url: str, nats_room: str, pg_dsn: str) -> None:
    """alice (front 1) creates a private unlisted table and invites bob (front 2): the box reaches
    him, he declines (alice is told; the table is not in his lobby); invited again, he accepts and
    sits at the owner's table, which lets him in.  carol, gone from the room, is not invited."""
    async def go() -> None:
        async with room_of(tmp_path, nats_url, nats_room, pg_dsn) as (owner, one, two):
            assert owner.registry is not None and one.lobby is not None
            alice = await Term.connect(one.server.port, "alice")
            await alice.wait_for("No tables yet")
            await private_table(alice, listed=False, watched=True)
            await until(lambda: len(owner.registry.tables) == 1, "the table at the owner")   # type: ignore[union-attr]
            (st,) = owner.registry.tables.values()
            bob = await Term.connect(two.server.port, "bob")
            await bob.wait_for("No tables yet")                   # (unlisted: not in bob's lobby)
            sent = await invite(alice, "bob", one, st.id)
            await bob.wait_for(f"alice invites you to table {st.id}")
            print(f"\ninvitation from front 1 to front 2's screen: {time.monotonic() - sent:.3f} s")
            await bob.press("n", "You declined alice's invitation")
            await alice.wait_for(f"bob declined your invitation to table {st.id}")
            await bob.wait_for("No tables yet")                   # (not invited any more: not shown)
            assert st.seat_of(key("bob")) is None and key("bob") not in st.allowed
            await invite(alice, "bob", one, st.id)
            await bob.wait_for(f"alice invites you to table {st.id}")
            await bob.press("y", f"You sit at table {st.id}")
            await bob.wait_for("2  bob✓ (you)")
            await alice.wait_for(f"bob accepted your invitation to table {st.id}")
            await alice.wait_for("2  bob✓")
            assert st.seat_of(key("bob")) == 1 and key("bob") in st.allowed
            # carol leaves the room: she is not invited, as in one process.
            carol = await Term.connect(two.server.port, "carol")
            await carol.wait_for("carol ✓")
            await online_at(one, "carol")
            await carol.close()
            registry = one.server.registry
            await until(lambda: all(r.key != str(key("carol")) for r in registry.online_rows()), "carol gone")
            lobby = one.lobby.lobby(registry.clients[key("alice")])
            assert lobby.invite(str(key("carol")), st.id) == "They are not here any more"
            for t in (alice, bob):
                await t.close()
    run(go())


def test_a_tables_code_typed_at_the_other_front_seats_there_and_a_wrong_one_is_refused(
        tmp_path: Path, nats_url: str, nats_room: str, pg_dsn: str) -> None:
    async def go() -> None:
        async with room_of(tmp_path, nats_url, nats_room, pg_dsn) as (owner, one, two):
            assert owner.registry is not None
            alice = await Term.connect(one.server.port, "alice")
            await alice.wait_for("No tables yet")
            await alice.press("n", "New table")
            await alice.press(DOWN * 4 + RIGHT + RIGHT, "Who sits:  < with a code >")
            await alice.press(ENTER, "is yours")
            text = await alice.wait_for(lambda s: re.search(r"— code [A-Z0-9]{6}", s) is not None)
            code = re.search(r"— code ([A-Z0-9]{6})", text).group(1)          # type: ignore[union-attr]
            (st,) = owner.registry.tables.values()
            assert st.code == code
            bob = await Term.connect(two.server.port, "bob")
            await bob.wait_for("(private)")
            assert code not in bob.text()
            await bob.press("2", "press g and type its code")              # (the owner's refusal)
            await bob.press("g" + "WRONG1" + ENTER, "No table has that code")
            carol = await Term.connect(two.server.port, "carol")
            await carol.wait_for("(private)")
            await carol.press("g" + code.lower() + ENTER, "2  carol✓ (you)")
            await alice.wait_for("2  carol✓")
            assert st.seat_of(key("carol")) == 1 and key("carol") in st.allowed
            for t in (alice, bob, carol):
                await t.close()
    run(go())


def test_a_short_match_of_a_table_held_elsewhere_ends_with_play_again_answered_at_both_fronts(
        tmp_path: Path, nats_url: str, nats_room: str, pg_dsn: str) -> None:
    """alice (front 1) and bob (front 2) play one hand (the match's target is 1 point; a turn timer
    of 0.3 s lets computers play their turns); each is asked "play again?" on their own front's
    screen: alice says yes, bob no; the rematch is at the owner, alice's seat hers, computers in
    bob's, and alice's screen follows it."""
    async def go() -> None:
        async with room_of(tmp_path, nats_url, nats_room, pg_dsn) as (owner, one, two):
            assert owner.registry is not None
            alice = await Term.connect(one.server.port, "alice")
            bob = await Term.connect(two.server.port, "bob")
            await alice.wait_for("No tables yet")
            await create_table(alice)
            await until(lambda: len(owner.registry.tables) == 1, "the table at the owner")   # type: ignore[union-attr]
            (st,) = owner.registry.tables.values()
            st.turn_timer = 0.3                                 # (the players' turns go fast: computers play them)
            st.rules = st.rules.replace(target_score=1)         # one hand is the match
            await bob.wait_for("1  alice✓")
            await bob.press("3", "3  bob✓ (you)")
            await alice.wait_for("3  bob✓")
            await alice.press("s", "hand 1")
            await asyncio.gather(drive(alice, lambda s: QUESTION in s, timeout=150),
                                 drive(bob, lambda s: QUESTION in s, timeout=150))
            assert st.state == OVER
            await alice.wait_for("y: yes    n: no, leave the table")
            await alice.press("y", "Playing again: alice. Waiting for bob")
            await bob.wait_for("Playing again: alice")
            await bob.press("n", "Tables")                      # no: back in his front's lobby
            await until(lambda: st.again_at is not None, "the rematch")
            new = owner.registry.tables[st.again_at]             # type: ignore[index]
            assert new.state == PLAYING and new.table is not None
            assert [(s.kind, s.key) for s in new.table.seats] == [(REMOTE, str(key("alice"))), (COMPUTER, ""),
                                                                  (COMPUTER, ""), (COMPUTER, "")]
            assert (new.rules, new.level, new.turn_timer) == (st.rules, st.level, 0.3)
            await until(lambda: 0 in new.links, "alice at the new table")
            await alice.wait_for("hand 1")
            assert st.table is not None and any(line.text == "bob does not play again" for line in st.table.chat)
            for t in (alice, bob):
                await t.close()
    run(go(), timeout=300)


def test_forged_and_malformed_invitations_codes_and_answers_are_refused_and_apply_nothing(
        tmp_path: Path, nats_url: str, nats_room: str, pg_dsn: str) -> None:
    async def go() -> None:
        async with room_of(tmp_path, nats_url, nats_room, pg_dsn) as (owner, one, two):
            assert owner.registry is not None and owner.lobby is not None and two.lobby is not None
            alice = await Term.connect(one.server.port, "alice")
            await alice.wait_for("No tables yet")
            await create_table(alice)
            await until(lambda: len(owner.registry.tables) == 1, "the table at the owner")   # type: ignore[union-attr]
            (st,) = owner.registry.tables.values()
            bob = await Term.connect(two.server.port, "bob")
            await bob.wait_for("1  alice✓")
            bus = await Bus.connect(nats_url, room=nats_room, name="stranger")
            subject = f"owner.{owner.name}.lobby"
            alice_p, bob_p = person_data("alice"), person_data("bob")
            invite = {"front": one.name, "op": "invite", "person": alice_p, "table": st.id, "to": str(key("bob")),
                      "to_name": "bob", "at": two.name}
            try:
                for bad, says in [
                    ({**invite, "to": "key:not a key"}, "not a person"),
                    ({**invite, "to": "computer:advanced"}, "to is not a person with a key or a guest"),
                    ({**invite, "to": "x" * 5000}, "to is not text"),
                    ({**invite, "to_name": "\x1b[2Jbob"}, "to_name is not text"),
                    ({**invite, "to_name": "b" * 500}, "to_name is not text"),
                    ({**invite, "to_name": ""}, "to_name is not text"),
                    ({**invite, "at": "front.2"}, "at is not a front's name"),
                    ({**invite, "at": ["f"]}, "at is not text"),
                    ({**invite, "table": "1"}, "table is not a whole number"),
                    ({"front": two.name, "op": "answer", "person": bob_p, "invitation": "1", "accept": True},
                     "invitation is not a whole number"),
                    ({"front": two.name, "op": "answer", "person": bob_p, "invitation": 1, "accept": "yes"},
                     "accept is not true or false"),
                    ({"front": two.name, "op": "join", "person": bob_p, "code": "A" * 100}, "code is not text"),
                    ({"front": two.name, "op": "join", "person": bob_p, "code": "AB\x00CD"}, "code is not text"),
                    ({"front": two.name, "op": "join", "person": bob_p}, "code is not text"),
                    ({"front": one.name, "op": "again", "person": alice_p, "table": st.id, "yes": 1},
                     "yes is not true or false"),
                    ({"front": one.name, "op": "again_seen", "person": alice_p, "table": -1}, "table is not"),
                ]:
                    with pytest.raises(Refused, match=says):
                        await bus.request(subject, bad, timeout=30)
                assert owner.lobby.refused == 16
                assert not owner.registry.invitations.invitations_for(key("bob")) and st.seat_of(key("bob")) is None
                # Well formed but forged: the owner decides as in one process, from what it holds.
                said = await bus.request(subject, {"front": two.name, "op": "join", "person": bob_p, "code": "ZZZZZZ"},
                                         timeout=30)
                assert said["why"] == "No table has that code"                       # (the owner checks the code)
                said = await bus.request(subject, {**invite, "person": bob_p, "to": str(key("alice")),
                                                   "to_name": "alice", "at": one.name}, timeout=30)
                assert said["why"] == "Sit at a table to invite somebody to it"      # (and who invites)
                said = await bus.request(subject, {"front": two.name, "op": "answer", "person": bob_p,
                                                   "invitation": 7, "accept": True}, timeout=30)
                assert said["why"] == "That invitation is no longer open"            # (and whose invitation)
                said = await bus.request(subject, {"front": two.name, "op": "again", "person": bob_p,
                                                   "table": st.id, "yes": True}, timeout=30)
                assert said["why"] == "The match is not over"
                assert st.seat_of(key("bob")) is None and not owner.registry.invitations.invitations_for(key("bob"))
                # An owner's words to a front that are not what they must be: refused, nothing kept.
                tell = f"front.{two.name}.tell"
                word = {"to": str(key("bob")), "what": "invited", "id": 5, "table": st.id, "text": "carol",
                        "by": str(key("carol"))}
                before = two.lobby.refused
                for bad_word in [{**word, "id": "5"}, {**word, "id": 0}, {**word, "table": 2**63},
                                 {**word, "text": ""}, {**word, "text": "a" * 300}, {**word, "text": "\x07alice"},
                                 {**word, "to": "key:nope"}, {**word, "by": "computer:advanced"},
                                 {k: v for k, v in word.items() if k != "by"},
                                 {"to": str(key("bob")), "what": "again", "table": st.id, "asked": "no", "text": ""},
                                 {"to": str(key("bob")), "what": "again", "table": None, "asked": True, "text": ""}]:
                    await bus.publish(tell, bad_word)
                await until(lambda: two.lobby.refused == before + 11, "the words refused")      # type: ignore[union-attr]
                assert not two.lobby.invitations
                # bob mutes alice at his front: an invitation from her reaches him no more, and she is
                # told what anybody is told (the owner reads his marks again; his front checks them too).
                bob_lobby = two.lobby.lobby(two.server.registry.clients[key("bob")])
                bob_lobby.mark(str(key("alice")), Marked.MUTE, True)
                kept = owner.registry.people
                assert isinstance(kept, QueuedPeople)
                await until(lambda: any(m.other == str(key("alice")) for m in kept.store.marks_of(str(key("bob")))),
                            "the mute in the database")
                said = await bus.request(subject, invite, timeout=30)
                assert said["why"] is None and not owner.registry.invitations.invitations_for(key("bob"))
                await bus.publish(tell, {**word, "id": 6, "text": "alice", "by": str(key("alice"))})
                await bus.publish(tell, word)                    # (a word that reads is taken: the test can tell)
                await until(lambda: bool(two.lobby.invitations), "the invitation kept")        # type: ignore[union-attr]
                await bob.wait_for(f"carol invites you to table {st.id}")
                assert list(two.lobby.invitations[key("bob")]) == [5]        # (not alice's: muted)
            finally:
                await bus.close()
            for t in (alice, bob):
                await t.close()
    run(go())

