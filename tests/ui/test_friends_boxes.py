"""The lobby's boxes for friends, mutes and notes (issue 34, section 3), drawn and driven without a
server (``tests/server/test_friends_ssh.py`` drives them over SSH): the notes that wait open by
themselves as the person comes in, a note of the longest length is read whole at 80x24 (ASCII too)
and one full of control characters is shown written out; the friends list and the online list's
keys ask the service what they should."""

from __future__ import annotations

from canasta_tui.lobbyview import NOTE_MAX, FriendRow, LobbyView, Marked, NoteRow, PersonRow
from canasta_tui.ui.lobby import FriendsList, LobbyScreen, MarkLine, NoteLine, NotesBox, OnlineList

from .pages_helpers import SIZES, screen, typ
from .test_lobby import FakeLobby

HOSTILE = "\x1b[2J\x1b]0;owned\x07\x1b[31mred\u202eevil"
LONG = " ".join(["eight"] * 46) + " at 8"          # 280 characters


class PeopleLobby(FakeLobby):
    """A lobby service with friends and notes."""

    def __init__(self) -> None:
        super().__init__()
        self.note_rows = [NoteRow("n2", "bob", "2026-11-27 18:30", HOSTILE),
                          NoteRow("n1", "cy", "2026-11-26 20:00", LONG, read=True)]
        self.friend_rows = (FriendRow("key:SHA256:bob", "bob", Marked.FRIEND, "table 1", True),
                            FriendRow("key:SHA256:zed", "zed", Marked.FRIEND, "seen 2026-11-20"),
                            FriendRow("key:SHA256:eve", "eve", Marked.MUTE, "lobby", True))
        self.people = (PersonRow("key:SHA256:ann", "ann", True, me=True),
                       PersonRow("key:SHA256:bob", "bob", True, 1, friend=True),
                       PersonRow("key:SHA256:eve", "eve", True, muted=True))

    def view(self) -> LobbyView:
        return super().view()._replace(notes=sum(1 for n in self.note_rows if not n.read))

    def mark(self, person: str, kind: Marked, on: bool) -> str:
        self.asked.append(f"mark {person} {kind.value} {on}")
        return "marked"

    def mark_name(self, name: str, kind: Marked) -> str:
        self.asked.append(f"mark name {name} {kind.value}")
        return "marked by name"

    def friends(self) -> tuple[FriendRow, ...]:
        return self.friend_rows

    def leave_note(self, person: str, text: str) -> str:
        self.asked.append(f"note {person} {text}")
        return "left"

    def notes(self) -> tuple[NoteRow, ...]:
        return tuple(self.note_rows)

    def read_notes(self, ids: tuple[str, ...]) -> None:
        self.asked.append(f"read {' '.join(ids)}")
        self.note_rows = [n._replace(read=True) for n in self.note_rows]

    def delete_note(self, note: str) -> str:
        self.asked.append(f"delete {note}")
        self.note_rows = [n for n in self.note_rows if n.id != note]
        return "The note is deleted"


def test_new_notes_open_as_the_person_comes_in_whole_and_written_out_at_every_size() -> None:
    assert len(LONG) == NOTE_MAX
    fake = PeopleLobby()
    page = LobbyScreen(fake)                            # type: ignore[arg-type]
    assert isinstance(page.child, NotesBox) and fake.asked == ["read n2"]
    for _, width, height, opts in SIZES:
        text = page.paint(width, height, opts).text()
        assert "Notes for you" in text and "bob, 2026-11-27 18:30  (new)" in text
        assert "\\x1b[2J\\x1b]0;owned\\x07\\x1b[31mred\\u202eevil" in text and "\x1b" not in text
        assert all(len(line) <= width for line in text.split("\n"))
    # The long one, chosen: every word of it on the screen at 80x24, in ASCII too.
    typ(page, "down")
    for ascii in (False, True):
        text = screen(page, ascii=ascii)
        assert " ".join(text.split()).count("eight") == 46 and "at 8" in text, text
    typ(page, "d")
    assert fake.asked[-1] == "delete n1" and page.message == "The note is deleted"
    assert "eight eight" not in screen(page)
    typ(page, "escape")
    assert page.child is None and "new note" not in screen(page).split("\n")[0]


def test_the_header_counts_new_notes_and_m_opens_them() -> None:
    fake = PeopleLobby()
    fake.note_rows[0] = fake.note_rows[0]._replace(read=True)
    page = LobbyScreen(fake)                            # type: ignore[arg-type]
    assert page.child is None                           # (nothing new: no box)
    fake.note_rows.append(NoteRow("n3", "dee", "2026-11-27 19:00", "hi"))
    page.notify("dee left you a note: press m to read it")
    assert "1 new note (m) — 7 online" in screen(page).split("\n")[0]
    typ(page, "m")
    assert isinstance(page.child, NotesBox) and "dee, 2026-11-27 19:00  (new)" in screen(page)
    typ(page, "n")
    assert isinstance(page.child, NoteLine)
    typ(page, "zed see you", "enter")
    assert fake.asked[-1] == "note zed see you" and page.message == "left"


def test_the_friends_list_and_its_keys() -> None:
    fake = PeopleLobby()
    fake.note_rows = []
    page = LobbyScreen(fake)                            # type: ignore[arg-type]
    typ(page, "f")
    assert isinstance(page.child, FriendsList)
    text = screen(page)
    lines = text.split("\n")
    bob = next(line for line in lines if " bob " in line)
    zed = next(line for line in lines if " zed " in line)
    eve = next(line for line in lines if " eve " in line)
    assert "table 1" in bob and "friend" in bob and "seen 2026-11-20" in zed and "muted" in eve
    assert lines.index(bob) < lines.index(zed) < lines.index(eve)
    typ(page, "down", "d")
    assert fake.asked[-1] == "mark key:SHA256:zed friend False"
    typ(page, "n")
    assert isinstance(page.child, NoteLine) and "Note for zed: _" in screen(page)
    typ(page, "back soon?", "enter")
    assert fake.asked[-1] == "note key:SHA256:zed back soon?"
    typ(page, "f", "m")
    assert isinstance(page.child, MarkLine) and "Mute (a name; they are not told): _" in screen(page)
    typ(page, "mallory", "enter")
    assert fake.asked[-1] == "mark name mallory mute" and page.message == "marked by name"


def test_the_online_lists_marks_and_keys() -> None:
    fake = PeopleLobby()
    fake.note_rows = []
    page = LobbyScreen(fake)                            # type: ignore[arg-type]
    typ(page, "p")
    assert isinstance(page.child, OnlineList)
    lines = screen(page).split("\n")
    assert "friend" in next(line for line in lines if " bob" in line and "table 1" in line)
    assert "muted" in next(line for line in lines if " eve" in line)
    assert any("f: friend   m: mute   n: note" in line for line in lines)
    typ(page, "down", "f")
    assert fake.asked[-1] == "mark key:SHA256:bob friend False" and isinstance(page.child, OnlineList)
    typ(page, "down", "m")
    assert fake.asked[-1] == "mark key:SHA256:eve mute False"
    typ(page, "n")
    assert isinstance(page.child, NoteLine) and "Note for eve: _" in screen(page)
