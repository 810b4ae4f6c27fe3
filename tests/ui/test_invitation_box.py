"""The one invitation box (``dialogs.InvitationBox``), over the lobby and over a watched table: y
accepts, n declines, Esc (or q) puts it off -- it stays open, and y in the lobby answers it -- and
Enter does nothing (a box may pop up just as Enter is pressed).  The box says so."""

from __future__ import annotations

from canasta_tui.lobbyview import InvitationRow
from canasta_tui.ui.canvas import DEFAULT_OPTIONS, Canvas
from canasta_tui.ui.dialogs import InvitationBox

from .pages_helpers import screen, typ
from .test_lobby import FakeLobby, lobby


class Host:
    """A screen the box is open on: it only counts being closed."""

    def __init__(self) -> None:
        self.closed = 0

    def close(self) -> None:
        self.closed += 1


def box_and_answers() -> tuple[InvitationBox, Host, list[object]]:
    said: list[object] = []
    box = InvitationBox(text="dave invites you to table 2", answer=said.append, later=lambda: said.append("later"))
    return box, Host(), said


def test_each_key_of_the_box_means_one_thing() -> None:
    for name, meant in (("y", True), ("n", False), ("escape", "later"), ("q", "later")):
        box, host, said = box_and_answers()
        box.key(host, name)
        assert (host.closed, said) == (1, [meant]), name
    for name in ("enter", "space", "x", "c-m"):
        box, host, said = box_and_answers()
        box.key(host, name)
        assert (host.closed, said) == (0, []), name               # nothing answered, the box stays


def test_the_box_says_what_esc_and_n_do() -> None:
    box, _, _ = box_and_answers()
    cv = Canvas(80, 24)
    box.draw(cv, None, DEFAULT_OPTIONS)
    text = cv.text()
    assert "dave invites you to table 2" in text
    assert "y: accept    n: decline    Esc: later (y in the lobby answers it)" in text


def test_in_the_lobby_esc_puts_it_off_and_n_declines() -> None:
    fake = FakeLobby()
    page = lobby(fake)
    fake.invitations = (InvitationRow(7, "carol", 2, "windows, 2 of 4 seated"),)
    fake.changed()
    assert isinstance(page.child, InvitationBox)
    assert "Esc: later (y in the lobby answers it)" in screen(page)
    typ(page, "enter")                                   # Enter answers nothing
    assert isinstance(page.child, InvitationBox) and fake.asked == []
    typ(page, "escape")                                  # put off: nothing sent, and it says so
    assert page.child is None and fake.asked == []
    assert page.message == "carol's invitation waits: y answers it"
    fake.changed()                                       # (shown once: a change does not reopen it)
    assert page.child is None
    typ(page, "y")                                       # y in the lobby brings it back
    assert isinstance(page.child, InvitationBox)
    typ(page, "n")
    assert fake.asked == ["answer 7 False"] and page.message == "You declined carol's invitation"
