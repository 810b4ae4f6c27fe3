"""The server's side of people in the lobby (issue 18 §1), without SSH: what the online list says,
private tables (by invitation, with a code, unlisted, not watched), the creator asking somebody to
leave, seats (a computer's seat claimed at a running table, a seat somebody holds), a table of
computers only, and the admins' lobby actions (each asked of :class:`Admin`, which logs it)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from canasta_tui.lobbyview import Access, AdminAct, TableSettings
from canasta_tui.presets import load_rules
from canasta_tui.server.club.admin import Admin, Bans
from canasta_tui.server.door.auth import Identity
from canasta_tui.server.lobby.service import RegistryLobby
from canasta_tui.server.person import PersonId, RefusalKind
from canasta_tui.server.tables.server_table import COMPUTER, PLAYING, Destination

from .helpers import run, words
from .test_tables import Person, registry


def test_the_online_list_says_where_each_is_and_their_rating(tmp_path: Path) -> None:
    async def main() -> None:
        async with registry(tmp_path) as reg:
            ann, bob, cy, dee = (Person(n) for n in ("ann", "bob", "cy", "dee"))
            for p in (ann, bob, cy, dee):
                reg.connect(p)
            st = reg.create(ann, load_rules("classic"), "beginner")
            reg.start(ann, st.id)
            st.enter(ann, 0)
            st.watch(cy)
            view = RegistryLobby(reg, dee).view()
            assert [(p.name, p.where, p.rating, p.me) for p in view.people] == [
                ("dee", "lobby", 0, True), ("bob", "lobby", 0, False), ("ann", "table 1", 0, False),
                ("cy", "watching 1", 0, False)]
            assert all(p.verified for p in view.people)
            st.unwatch(cy)                                   # leaving a table is told at once
            assert ("cy", "lobby") in [(p.name, p.where) for p in RegistryLobby(reg, dee).view().people]
    run(main())


def test_a_table_by_invitation_only_and_an_unlisted_one(tmp_path: Path) -> None:
    async def main() -> None:
        async with registry(tmp_path) as reg:
            ann, bob, cy = Person("ann"), Person("bob"), Person("cy")
            for p in (ann, bob, cy):
                reg.connect(p)
            st = reg.create(ann, load_rules("classic"), "beginner",
                            settings=TableSettings(Access.INVITE, listed=False, watchable=False))
            assert words(reg.sit(bob, st.id, 1)) == ("Table 1 is private: its players invite whom they want", None)
            assert RegistryLobby(reg, bob).view().tables == ()              # unlisted: bob does not see it
            assert reg.invitations.invite(ann, bob.identity.person, st.id) is None
            bob_view = RegistryLobby(reg, bob).view()
            assert [t.id for t in bob_view.tables] == [1]                   # ... until he is invited to it
            (inv,) = bob_view.invitations
            assert (inv.who, inv.table, inv.about) == ("ann", 1, "classic, 1 of 4 seated")
            assert words(reg.invitations.answer(bob, inv.id, accept=True)) == (None, None)
            assert st.seat_of(bob.identity.person) == 1
            assert RegistryLobby(reg, cy).view().tables == ()
            # Not watched: cy may not watch it; its players may.
            reg.start(ann, st.id)
            assert words(st.may_watch(cy.identity.person)) == "Table 1 is not watched: its creator chose so"
            assert st.may_watch(bob.identity.person) is None
    run(main())


def test_a_table_with_a_code_and_wrong_codes_cost_time(tmp_path: Path) -> None:
    async def main() -> None:
        async with registry(tmp_path) as reg:
            ann, bob = Person("ann"), Person("bob")
            for p in (ann, bob):
                reg.connect(p)
            st = reg.create(ann, load_rules("classic"), "beginner", settings=TableSettings(Access.CODE))
            assert len(st.code) == 6 and st.listed                         # private tables are listed as such
            rows = {p.identity.name: RegistryLobby(reg, p).view().table(st.id) for p in (ann, bob)}
            assert rows["ann"] is not None and rows["ann"].code == st.code   # its creator is shown the code
            assert rows["bob"] is not None and rows["bob"].code == "" and rows["bob"].access == Access.CODE
            for _ in range(3):                                               # three free tries ...
                assert words(reg.join(bob, "ZZZZZZ")) == ("No table has that code", None)
            why, _ = reg.join(bob, st.code)                                   # ... then each costs time
            assert why is not None and why.kind == RefusalKind.SLOW_DOWN and why.reason.startswith("Wrong codes cost time")
            reg.codes = type(reg.codes)()                                  # (the wait is over)
            assert words(reg.join(bob, "-".join((st.code[:3].lower(), st.code[3:])))) == (None, None)
            assert st.seat_of(bob.identity.person) == 1
    run(main())


def test_the_creator_asks_a_person_to_leave_a_forming_table(tmp_path: Path) -> None:
    async def main() -> None:
        async with registry(tmp_path) as reg:
            ann, bob = Person("ann"), Person("bob")
            for p in (ann, bob):
                reg.connect(p)
            st = reg.create(ann, load_rules("classic"), "beginner", settings=TableSettings(Access.CODE))
            reg.join(bob, st.code)
            assert words(reg.dismiss(bob, st.id, 0)) == "Only ann, who created table 1, may ask somebody to leave it"
            assert words(reg.dismiss(ann, st.id, 0)) == "That is your own seat: press u to stand up"
            assert words(reg.dismiss(ann, st.id, 2)) == "Nobody sits in seat 3"
            assert reg.dismiss(ann, st.id, 1) is None
            assert st.seat_of(bob.identity.person) is None and bob.notes[-1] == "ann asked you to leave table 1"
            assert words(reg.sit(bob, st.id, 1))[0] is not None                   # the code let him in once
    run(main())


def test_seats_at_a_running_table_and_a_table_of_computers_only(tmp_path: Path) -> None:
    async def main() -> None:
        async with registry(tmp_path) as reg:
            ann, bob, cy = Person("ann"), Person("bob"), Person("cy")
            for p in (ann, bob, cy):
                reg.connect(p)
            # A table of computers only: its creator stands up, the table stays, starts, and she watches.
            st = reg.create(ann, load_rules("classic"), "beginner")
            assert reg.stand(ann, st.id) is None
            assert st.id in reg.tables and st.creator_name() == "ann"
            assert RegistryLobby(reg, ann).view().table(st.id) is not None
            assert reg.start(ann, st.id) is None
            assert st.state == PLAYING and st.table is not None
            assert [s.kind for s in st.table.seats] == [COMPUTER] * 4
            assert ann.moves == [Destination(st.id, None)]
            # bob claims a computer's seat: he watches until the deal; the claim holds while he watches.
            assert words(reg.sit(bob, st.id, 1)) == (None, Destination(st.id, None))
            st.watch(bob)
            assert 1 in st.pending
            assert words(reg.sit(cy, st.id, 1)) == ("bob takes that seat at the next deal", None)
            st.unwatch(bob)
            assert 1 not in st.pending                                      # he left: the claim went
            # A seat somebody holds says whose it is: there, away, or played for them by a computer.
            t2 = reg.create(bob, load_rules("classic"), "beginner")
            reg.start(bob, t2.id)
            st2 = reg.tables[t2.id]
            st2.enter(bob, 0)
            assert words(reg.sit(cy, t2.id, 0)) == ("That is bob's seat", None)
            st2.leave(bob, 0, dropped=False)                               # a computer plays it meanwhile
            assert words(reg.sit(cy, t2.id, 0)) == ("That is bob's seat: a computer plays it until they come back", None)
    run(main())


def test_the_admins_lobby_actions_ask_the_admin_and_are_logged(tmp_path: Path,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="canasta.server")

    async def main() -> None:
        boss, eve, ann = Person("boss"), Person("eve"), Person("ann")
        boss.identity = Identity("boss", "SHA256:" + "B" * 43)
        eve.identity = Identity("eve", "SHA256:" + "E" * 43)
        async with registry(tmp_path, admins=frozenset({boss.identity.fingerprint})) as reg:
            admin = Admin(reg, Bans(reg.people))
            for p in (boss, eve, ann):
                reg.connect(p)
            lobby = RegistryLobby(reg, boss, admin)
            assert lobby.view().admin and not RegistryLobby(reg, ann, admin).view().admin
            assert RegistryLobby(reg, ann, admin).admin(AdminAct.ANNOUNCE, "", "hi") == \
                "Only the server's admins can do that"
            assert lobby.admin(AdminAct.ANNOUNCE, "", "Club night at 8") == "Announced to 3 people"
            assert ann.notes[-1] == "Announcement: Club night at 8"
            st = reg.create(ann, load_rules("classic"), "beginner")
            assert lobby.admin(AdminAct.CLOSE, "x", "") == "'x' is not a table's number"
            assert lobby.admin(AdminAct.CLOSE, str(st.id), "late") == "Table 1 was closed"
            assert st.id not in reg.tables and ann.notes[-1] == "Table 1 was closed by an admin: late"
            assert lobby.admin(AdminAct.REMOVE, "nobody", "") == "Nobody called nobody is here"
            assert lobby.admin(AdminAct.REMOVE, "ann", "rude") == "ann was removed"
            assert "rude" in ann.kicked
            assert lobby.admin(AdminAct.BAN, "eve", "") == "Say for how many hours, then why: e.g. 24 spam in the chat"
            said = lobby.admin(AdminAct.BAN, "eve", "24 spam")
            assert said.startswith(f"eve (key {eve.identity.fingerprint}) is banned until ")
            assert "is banned from this server" in eve.kicked
            assert admin.bans.key(eve.identity.fingerprint) is not None
            assert lobby.admin(AdminAct.BAN, "10.1.2.3", "1") .startswith("10.1.2.3 is banned until ")
            # A guest has no key: banning them by name bans the address they connect from, and
            # the admin is told that it keeps out everybody there.
            gus = Person("gus")
            gus.identity = Identity("gus", guest="G" * 16)
            reg.connect(gus)
            assert lobby.admin(AdminAct.BAN, "~gus", "2 spam") == \
                "~gus is a guest, and their address is not known: ban it by number"
            gus.address = "10.9.8.7"
            boss.address = "10.9.8.7"
            assert lobby.admin(AdminAct.BAN, "gus", "2 spam") == \
                "~gus connects from your own address (10.9.8.7): remove them instead"
            assert admin.bans.address("10.9.8.7") is None
            boss.address = "10.0.0.1"
            said = lobby.admin(AdminAct.BAN, "~gus", "2 spam")
            assert said.startswith("~gus's address 10.9.8.7 (everybody connecting from it) is banned until "), said
            assert admin.bans.address("10.9.8.7") is not None
        logged = caplog.text
        for line in ("announced: Club night at 8", "closed table 1 (late)", "removed", "banned key:SHA256:EEE",
                     "banned address:10.1.2.3", "banned address:10.9.8.7"):
            assert line in logged, line
    run(main())


def test_a_private_table_stays_private_after_a_restart(tmp_path: Path) -> None:
    async def main() -> None:
        async with registry(tmp_path) as reg:
            ann, bob = Person("ann"), Person("bob")
            for p in (ann, bob):
                reg.connect(p)
            st = reg.create(ann, load_rules("classic"), "beginner",
                            settings=TableSettings(Access.CODE, listed=False, watchable=False, rated=True))
            code = st.code
            reg.join(bob, code)
            reg.start(ann, st.id)
            reg.store.flush()
        async with registry(tmp_path) as reg:
            reg.restore(*reg.store.load())
            back = reg.tables[st.id]
            assert (back.access, back.code, back.listed, back.watchable, back.rated) == \
                (Access.CODE, code, False, False, True)
            assert back.allowed == {PersonId.parse("key:SHA256:bob")}
            assert words(back.may_watch(PersonId.parse("key:SHA256:cy"))) == "Table 1 is not watched: its creator chose so"
    run(main())
