"""Invitations' back end (the lobby's screens for them are built apart): a person seated at a table
invites somebody online to its free seat; they are told, accept (and are seated) or decline (and
the inviter is told); an invitation goes with its table, and outlasts a restart while the table is
there."""

from __future__ import annotations

from pathlib import Path

from canasta_tui.presets import load_rules
from canasta_tui.server.person import PersonId
from canasta_tui.server.tables.server_table import Destination

from .helpers import run, words
from .test_tables import Person, registry


def test_an_invitation_is_told_accepted_and_seats_the_guest(tmp_path: Path) -> None:
    async def main() -> None:
        async with registry(tmp_path) as reg:
            ann, bob, cy, dee = (Person(n) for n in ("ann", "bob", "cy", "dee"))
            for p in (ann, bob, cy):
                reg.connect(p)
            st = reg.create(ann, load_rules("classic"), "beginner")
            assert words(reg.invitations.invite(bob, cy.identity.person, st.id)) == "Sit at a table to invite somebody to it"
            assert words(reg.invitations.invite(ann, dee.identity.person, st.id)) == "They are not here any more"
            assert words(reg.invitations.invite(ann, ann.identity.person, st.id)) == "You are at this table already"
            assert reg.invitations.invite(ann, bob.identity.person, st.id) is None
            assert bob.notes[-1] == "ann invites you to table 1"
            (inv,) = reg.invitations.invitations_for(bob.identity.person)
            assert (inv.from_name, inv.table_id) == (ann.identity.label, st.id)
            assert words(reg.invitations.answer(bob, inv.id, accept=True)) == (None, None)  # a forming table: a claimed seat
            assert st.seat_of(bob.identity.person) == 1
            assert ann.notes[-1] == f"{bob.identity.label} accepted your invitation to table 1"
            assert reg.invitations.invitations_for(bob.identity.person) == []
            assert words(reg.invitations.answer(bob, inv.id, accept=True))[0] == "That invitation is no longer open"
            # Declined: the inviter is told, nobody moves.
            assert reg.invitations.invite(ann, cy.identity.person, st.id) is None
            (inv,) = reg.invitations.invitations_for(cy.identity.person)
            assert words(reg.invitations.answer(cy, inv.id, accept=False)) == (None, None)
            assert ann.notes[-1] == f"{cy.identity.label} declined your invitation to table 1"
            assert st.seat_of(cy.identity.person) is None
    run(main())


def test_at_a_table_being_played_the_guest_gets_a_computers_seat_at_the_next_deal(tmp_path: Path) -> None:
    async def main() -> None:
        async with registry(tmp_path) as reg:
            ann, bob = Person("ann"), Person("bob")
            for p in (ann, bob):
                reg.connect(p)
            st = reg.create(ann, load_rules("classic"), "beginner")
            reg.start(ann, st.id)
            assert reg.invitations.invite(ann, bob.identity.person, st.id) is None
            (inv,) = reg.invitations.invitations_for(bob.identity.person)
            why, where = words(reg.invitations.answer(bob, inv.id, accept=True))
            assert why is None and where == Destination(st.id, None)          # they watch until the deal
            assert st.pending[1][1].person == bob.identity.person
    run(main())


def test_an_invitation_goes_with_its_table_and_outlasts_a_restart_while_it_is_there(tmp_path: Path) -> None:
    async def main() -> None:
        async with registry(tmp_path) as reg:
            ann, bob = Person("ann"), Person("bob")
            for p in (ann, bob):
                reg.connect(p)
            st = reg.create(ann, load_rules("classic"), "beginner")
            assert reg.invitations.invite(ann, bob.identity.person, st.id) is None
            reg.disconnect(ann)                               # the table empties: it goes, and its invitation
            reg.connect(ann)
            assert reg.invitations.invitations_for(bob.identity.person) == []
            assert reg.people.invitations() == []
            st = reg.create(ann, load_rules("classic"), "beginner")
            reg.start(ann, st.id)
            assert reg.invitations.invite(ann, bob.identity.person, st.id) is None
            reg.store.flush()
        async with registry(tmp_path) as reg:
            reg.restore(*reg.store.load())
            assert [i.table_id for i in reg.invitations.invitations_for(PersonId.parse("key:SHA256:bob"))] == [st.id]
    run(main())
