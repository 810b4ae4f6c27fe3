"""Invitation boxes over real SSH (the issue "What players, a club and the test suite still trip on",
section 2, "Invitations"): an invitation's number is never given twice, so a box left open for a
table that went cannot accept somebody else's invitation; a repeat invitation after a decline shows
its box again; and Enter alone never accepts (a box may pop up just as Enter is pressed): only y.
Each person has their own key.
"""

from __future__ import annotations

from pathlib import Path

from canasta_tui.server.club.people import SqlitePeopleStore
from canasta_tui.server.person import PersonId

from .helpers import ENTER, Term, create_table, fingerprint_of, run, serving, settle, words
from .test_private_tables import private_table


def key(name: str) -> PersonId:
    return PersonId.parse(f"key:{fingerprint_of(name)}")


def test_a_box_left_open_for_a_table_that_went_cannot_accept_another_invitation() -> None:
    """bob has a box for ann's table 1 open; ann leaves, and table 1 goes with its invitation: bob's
    box closes, saying so.  cy creates an unlisted table 2 and invites bob: a new number, so the
    answer bob's old box would have sent (a y pressed just as it closed) cannot seat him at cy's
    table; cy's invitation opens a box of its own."""
    async def main() -> None:
        async with serving() as srv:
            reg = srv.registry
            ann = await Term.connect(srv.port, "ann")
            await ann.wait_for("No tables yet")
            await create_table(ann)
            bob = await Term.connect(srv.port, "bob")
            await bob.wait_for("ann starts it")
            assert reg.invitations.invite(reg.clients[key("ann")], key("bob"), 1) is None
            await bob.wait_for("ann invites you to table 1")
            (old,) = reg.invitations.invitations_for(key("bob"))
            await ann.close()
            await bob.wait_for("ann's invitation to table 1 is no longer open")
            assert 1 not in reg.tables
            cy = await Term.connect(srv.port, "cy")
            await cy.wait_for("No tables yet")
            await private_table(cy, listed=False, watched=True)
            assert reg.invitations.invite(reg.clients[key("cy")], key("bob"), 2) is None
            await bob.wait_for("cy invites you to table 2")             # cy's, in a box of its own
            # The old box's answer, had bob pressed y as it closed: refused, nobody seated.
            why, where = words(reg.invitations.answer(reg.clients[key("bob")], old.id, accept=True))
            assert (why, where) == ("That invitation is no longer open", None)
            assert reg.tables[2].seat_of(key("bob")) is None
            await bob.press("y", "You sit at table 2")                  # cy's own box seats him
            for t in (bob, cy):
                await t.close()
    run(main(), timeout=120)


def test_enter_does_not_accept_and_a_second_invitation_after_a_decline_shows_a_box() -> None:
    """bob's box takes Enter then n: Enter does nothing, n declines (had Enter accepted, bob would
    sit at table 1).  ann invites him again: a box again (a new number), and y seats him."""
    async def main() -> None:
        async with serving() as srv:
            reg = srv.registry
            ann = await Term.connect(srv.port, "ann")
            await ann.wait_for("No tables yet")
            await create_table(ann)
            bob = await Term.connect(srv.port, "bob")
            await bob.wait_for("ann starts it")
            assert reg.invitations.invite(reg.clients[key("ann")], key("bob"), 1) is None
            await bob.wait_for("ann invites you to table 1")
            text = await bob.press(ENTER + "n", lambda s: "You declined ann's invitation" in s or "You sit at" in s)
            assert "You declined ann's invitation" in text
            assert reg.tables[1].seat_of(key("bob")) is None
            await ann.wait_for("bob declined your invitation to table 1")
            assert reg.invitations.invite(reg.clients[key("ann")], key("bob"), 1) is None
            await bob.wait_for("ann invites you to table 1")            # a box again
            await bob.press("y", "You sit at table 1")
            await settle(srv, lambda: reg.tables[1].seat_of(key("bob")) is not None)
            for t in (ann, bob):
                await t.close()
    run(main(), timeout=120)


def test_enter_does_not_accept_an_invitation_over_a_watched_table() -> None:
    """carol watches table 1; dave invites her to table 2: the box over her table takes Enter then
    n: Enter does nothing, n declines (had Enter accepted, she would sit at table 2)."""
    async def main() -> None:
        async with serving() as srv:
            reg = srv.registry
            ann = await Term.connect(srv.port, "ann")
            await ann.wait_for("No tables yet")
            await create_table(ann)
            await ann.press("s", "hand 1")
            carol = await Term.connect(srv.port, "carol")
            await carol.wait_for("hand 1")
            await carol.press("w", "(no hand shown)")
            dave = await Term.connect(srv.port, "dave")
            await dave.wait_for("hand 1")
            await create_table(dave)
            assert reg.invitations.invite(reg.clients[key("dave")], key("carol"), 2) is None
            await carol.wait_for("dave invites you to table 2")
            text = await carol.press(ENTER + "n", lambda s: "You declined the invitation" in s or "You sit at" in s)
            assert "You declined the invitation to table 2" in text
            assert reg.tables[2].seat_of(key("carol")) is None
            for t in (ann, carol, dave):
                await t.close()
    run(main(), timeout=120)


def test_invitation_numbers_are_never_given_twice_also_after_a_restart(tmp_path: Path) -> None:
    A, B, C = (PersonId.parse(f"key:SHA256:{n}") for n in "abc")
    path = tmp_path / "people.sqlite"
    store = SqlitePeopleStore(path)
    first = store.invite(A, "a", B, 1, 1.0)
    assert store.withdraw(first.id)
    second = store.invite(A, "a", B, 1, 2.0)
    assert second.id > first.id
    again = store.invite(C, "c", B, 1, 3.0)          # the same person and table: replaced
    assert again.id > second.id and [i.id for i in store.invitations()] == [again.id]
    store.withdraw_table(1)
    store.close()
    store = SqlitePeopleStore(path)
    assert store.invite(A, "a", B, 2, 4.0).id > again.id
    store.close()


def test_one_person_sends_at_most_ten_invitations_a_minute(tmp_path: Path) -> None:
    """ann and bob by turns: ann invites, bob declines, again and again.  Each is a write and a box:
    the eleventh within a minute is refused, saying when the next may go; a minute later it goes
    (the clock is handed in)."""
    from canasta_tui.presets import load_rules
    from canasta_tui.server.lobby.invitations import INVITE_WINDOW, INVITES_PER_WINDOW

    from .test_tables import Person, registry

    async def main() -> None:
        async with registry(tmp_path) as reg:
            now = [100.0]
            reg.invitations.clock = lambda: now[0]
            ann, bob = Person("ann"), Person("bob")
            for p in (ann, bob):
                reg.connect(p)
            st = reg.create(ann, load_rules("classic"), "beginner")
            for _ in range(INVITES_PER_WINDOW):
                assert reg.invitations.invite(ann, bob.identity.person, st.id) is None
                (inv,) = reg.invitations.invitations_for(bob.identity.person)
                assert words(reg.invitations.answer(bob, inv.id, accept=False)) == (None, None)
                now[0] += 1
            why = words(reg.invitations.invite(ann, bob.identity.person, st.id))
            assert why == "Not so fast: 10 invitations a minute at most (the next in 50 s)"
            assert reg.invitations.invitations_for(bob.identity.person) == []
            now[0] += INVITE_WINDOW
            assert reg.invitations.invite(ann, bob.identity.person, st.id) is None
    run(main())
