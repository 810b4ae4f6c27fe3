"""Friends, muted people and notes (issue 34, section 3), the server's side without SSH: the online
list with friends first and where they are, the friends list with offline friends and when they
were last seen; notes left for somebody offline, counted when they come in, read and deleted; the
attacks (a note too long, empty, full of control characters, a flood, too many waiting, a name
nobody has, marking oneself, a guest); and a mute: the muted person's lobby chat, invitations and
notes stop reaching the person who muted them, and the muted person is told what anybody is told."""

from __future__ import annotations

from pathlib import Path

from canasta_tui.lobbyview import Marked
from canasta_tui.presets import load_rules
from canasta_tui.server.club.people import NOTES_WAITING, PersonNote
from canasta_tui.server.door.auth import Identity
from canasta_tui.server.lobby.friends import NOTES_FROM_ONE, NOTES_PER_WINDOW
from canasta_tui.server.lobby.service import RegistryLobby
from canasta_tui.server.person import PersonId
from canasta_tui.server.tables.server_table import LOBBY_CHAT_KEEP

from .helpers import run
from .test_chat import HOSTILE
from .test_tables import Person, registry


class Guest(Person):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.identity = Identity(name, guest="a" * 64)


def key(p: Person) -> str:
    return str(p.identity.person)


def came(reg: object, *people: Person) -> None:
    """``people`` come in as the door lets them: their names reserved by their keys, then connected."""
    for p in people:
        assert reg.admit(p) is None          # type: ignore[attr-defined]
        reg.connect(p)                       # type: ignore[attr-defined]


def test_friends_are_listed_first_with_where_they_are_and_offline_with_when_last_seen(tmp_path: Path) -> None:
    async def main() -> None:
        async with registry(tmp_path) as reg:
            ann, bob, cy, dee, zed = (Person(n) for n in ("ann", "bob", "cy", "dee", "zed"))
            came(reg, ann, bob, cy, dee, zed)
            st = reg.create(dee, load_rules("classic"), "beginner")
            lobby = RegistryLobby(reg, ann)
            assert lobby.mark(key(dee), Marked.FRIEND, True) == "dee is your friend: listed first, with where they are"
            assert lobby.mark_name("ZED", Marked.FRIEND) == "zed is your friend: listed first, with where they are"
            people = lobby.view().people
            assert [(p.name, p.where, p.friend) for p in people] == [
                ("ann", "lobby", False), ("zed", "lobby", True), ("dee", f"table {st.id}", True),
                ("bob", "lobby", False), ("cy", "lobby", False)]
            # Offline friends stay in the friends list, with the day they were last seen.
            reg.disconnect(zed)
            rows = lobby.friends()
            assert [(f.name, f.online, f.kind) for f in rows] == [("dee", True, Marked.FRIEND),
                                                                  ("zed", False, Marked.FRIEND)]
            assert rows[0].where == f"table {st.id}" and rows[1].where.startswith("seen 20")
            assert lobby.mark_name("zed", Marked.FRIEND) == "zed is your friend already"
            assert lobby.mark(key(zed), Marked.FRIEND, False) == "zed is no longer your friend"
            assert [f.name for f in lobby.friends()] == ["dee"]
            # Only ann's list: bob's has nobody first.
            assert [p.name for p in RegistryLobby(reg, bob).view().people][:2] == ["bob", "ann"]
    run(main())


def test_marking_refuses_oneself_a_guest_friend_a_name_nobody_has_and_a_guest_marker(tmp_path: Path) -> None:
    async def main() -> None:
        async with registry(tmp_path) as reg:
            ann, bob, gus = Person("ann"), Person("bob"), Guest("gus")
            came(reg, ann, bob, gus)
            lobby = RegistryLobby(reg, ann)
            assert lobby.mark(key(ann), Marked.FRIEND, True) == "That is you: choose somebody else"
            assert lobby.mark(key(ann), Marked.MUTE, True) == "That is you: choose somebody else"
            assert lobby.mark_name("ann", Marked.MUTE) == "That is you: choose somebody else"
            assert lobby.mark(key(gus), Marked.FRIEND, True).startswith("~gus is a guest: friends are people with a key")
            assert lobby.mark_name("nobody", Marked.FRIEND) == ("Nobody here has the name nobody: a name a key "
                                                                "holds, or somebody online")
            assert lobby.mark_name("x" * 500, Marked.MUTE) == "Nobody here has that name"
            assert lobby.mark_name("bo\x1bb", Marked.MUTE) == "Nobody here has that name"
            assert lobby.mark("key:not a key", Marked.MUTE, True) == "Nobody here is that"
            assert lobby.mark(key(bob), Marked.MUTE, False) == "bob was not muted"
            # A guest is muted for this visit as anybody is (their lines stop); a guest marks nobody.
            assert lobby.mark(key(gus), Marked.MUTE, True).startswith("~gus is muted")
            assert RegistryLobby(reg, gus).mark(key(ann), Marked.FRIEND, True) == (
                "Friends, mutes and notes are kept for people who connect with an SSH key")
            assert reg.people.marks_of(key(gus)) == []
    run(main())


def test_a_note_for_somebody_offline_is_seen_when_they_come_in_then_read_and_deleted(tmp_path: Path) -> None:
    async def main() -> None:
        async with registry(tmp_path) as reg:
            ann, cy = Person("ann"), Person("cy")
            came(reg, ann, cy)
            reg.disconnect(cy)
            lobby = RegistryLobby(reg, ann)
            assert lobby.leave_note("cy", "  table at eight?  ") == ("Your note is left for cy: they see it when "
                                                                   "they next come in")
            assert lobby.leave_note(key(cy), "or nine") == "Your note is left for cy: they see it when they next come in"
            reg.connect(cy)
            theirs = RegistryLobby(reg, cy)
            assert theirs.view().notes == 2
            notes = theirs.notes()
            assert [(n.who, n.text, n.read) for n in notes] == [("ann", "or nine", False),
                                                                ("ann", "table at eight?", False)]
            theirs.read_notes(tuple(n.id for n in notes))
            assert theirs.view().notes == 0 and all(n.read for n in theirs.notes())
            assert theirs.delete_note(notes[0].id) == "The note is deleted"
            assert theirs.delete_note(notes[0].id) == "That note is gone already"
            assert [n.text for n in theirs.notes()] == ["table at eight?"]
            # A note to somebody here tells them at once.
            assert lobby.leave_note("cy", "I am at table 1") .startswith("Your note is left for cy")
            assert cy.notes[-1] == "ann left you a note: press m to read it" and theirs.view().notes == 1
    run(main())


def test_notes_refuse_what_is_too_long_empty_too_fast_too_many_to_nobody_and_to_oneself(tmp_path: Path) -> None:
    async def main() -> None:
        async with registry(tmp_path) as reg:
            ann, bob, cy, gus = Person("ann"), Person("bob"), Person("cy"), Guest("gus")
            came(reg, ann, bob, cy, gus)
            lobby = RegistryLobby(reg, ann)
            assert lobby.leave_note("cy", "x" * 281) == "A note is at most 280 characters (this one has 281)"
            assert lobby.leave_note("cy", "   ") == "Type the note after the name"
            assert lobby.leave_note("zed", "hi") == ("Nobody here has the name zed: a name a key holds, or "
                                                     "somebody online")
            assert lobby.leave_note("ann", "hi") == "That is you: a note is for somebody else"
            assert lobby.leave_note("~gus", "hi") == "~gus is a guest: notes are kept for people with a key"
            assert RegistryLobby(reg, gus).leave_note("ann", "hi") == (
                "Friends, mutes and notes are kept for people who connect with an SSH key")
            # Control characters are kept as typed (they are shown written out, never sent raw).
            assert lobby.leave_note("cy", HOSTILE).startswith("Your note is left")
            assert [n.text for n in reg.people.notes_for(key(cy))] == [HOSTILE.strip()]
            # A flood: the pace of the chat's lines, in notes.
            for i in range(NOTES_PER_WINDOW - 1):
                assert lobby.leave_note("bob", f"note {i}").startswith("Your note is left")
            assert lobby.leave_note("bob", "one more").startswith("Not so fast: 5 notes per 60 s (wait ")
            assert len(reg.people.notes_for(key(bob))) == NOTES_PER_WINDOW - 1
            # One sender fills no box alone; and a box holds so many waiting.
            reg.friends.pace = lambda who: None
            for i in range(NOTES_FROM_ONE - NOTES_PER_WINDOW + 1):
                assert lobby.leave_note("bob", f"more {i}").startswith("Your note is left")
            assert lobby.leave_note("bob", "too many") == "bob has 10 of your notes waiting unread: wait till they read them"
            for i in range(NOTES_WAITING - NOTES_FROM_ONE):
                reg.people.leave_note(PersonNote(f"x{i}", key(bob), f"key:SHA256:p{i}", f"p{i}", "hi", float(i)))
            assert RegistryLobby(reg, cy).leave_note("bob", "hi") == "bob has 50 notes waiting; try later"
            assert len(reg.people.notes_for(key(bob))) == NOTES_WAITING
    run(main())


def test_a_muted_persons_chat_invitations_and_notes_stop_and_they_are_told_nothing(tmp_path: Path) -> None:
    async def main() -> None:
        async with registry(tmp_path) as reg:
            ann, bob, cy = Person("ann"), Person("bob"), Person("cy")
            came(reg, ann, bob, cy)
            lobby = RegistryLobby(reg, ann)
            assert lobby.mark_name("bob", Marked.MUTE) == ("bob is muted: their chat, invitations and notes no "
                                                           "longer reach you (they are not told)")
            assert [p.muted for p in lobby.view().people if p.name == "bob"] == [True]
            assert reg.say_lobby(bob, "hello from bob") is None and reg.say_lobby(cy, "hello from cy") is None
            assert [c.text for c in lobby.view().chat] == ["hello from cy"]
            assert [c.text for c in RegistryLobby(reg, bob).view().chat] == ["hello from bob", "hello from cy"]
            assert [c.text for c in RegistryLobby(reg, cy).view().chat] == ["hello from bob", "hello from cy"]
            # His invitation: he is told what anybody is told; none reaches ann.
            st = reg.create(bob, load_rules("classic"), "beginner")
            assert reg.invitations.invite(bob, ann.identity.person, st.id) is None
            assert ann.notes == [] and reg.invitations.invitations_for(ann.identity.person) == []
            assert lobby.view().invitations == ()
            assert reg.invitations.invite(bob, cy.identity.person, st.id) is None and cy.notes
            # His note: told it is left; never kept.
            assert RegistryLobby(reg, bob).leave_note("ann", "psst") == ("Your note is left for ann: they see it "
                                                                         "when they next come in")
            assert reg.people.notes_for(key(ann)) == [] and ann.notes == []
            # The mute outlasts the visit (kept in the store), and the chat as kept says who said each line.
            reg.disconnect(ann)
            reg.connect(ann)
            assert [c.text for c in RegistryLobby(reg, ann).view().chat] == ["hello from cy"]
            assert [c.key for c in reg.people.last_chat(LOBBY_CHAT_KEEP)] == [key(bob), key(cy)]
            assert lobby.mark(key(bob), Marked.MUTE, False) == "bob is no longer muted"
            assert [c.text for c in lobby.view().chat] == ["hello from bob", "hello from cy"]
            assert PersonId.read(key(bob)) is not None
    run(main())
