"""Chat at the table (issue 11): ``i`` opens a one-line input; lines said appear in the log among
the game's events, whatever a player typed written out so it cannot act on another terminal."""

from __future__ import annotations

from canasta_tui.table import Link, Table
from canasta_tui.ui.canvas import DEFAULT_OPTIONS
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.dialogs import ChatInput

from .helpers import client, render, session


def remote_client(t: Table, seat: int, said: list[str]) -> Controller:
    """A client of one seat whose chat goes through the table (as the server's does)."""
    def chat(text: str) -> str | None:
        if text == "too fast":
            return "Not so fast"
        said.append(text)
        t.say(t.name(seat), text)
        return None
    return Controller(Link(t, (seat,), f"seat{seat}", chat=chat), remote=True)


def type_keys(ctl: Controller, text: str) -> None:
    for ch in text:
        ctl.key("space" if ch == " " else ch)


def test_i_opens_the_chat_line_and_enter_says_it_to_the_table() -> None:
    t = session(players=1, seed=5)
    said: list[str] = []
    ctl = remote_client(t, 0, said)
    ctl.key("/")
    assert ctl.client.dialog is not None and isinstance(ctl.client.dialog, ChatInput)
    type_keys(ctl, "good luck all")
    screen = render(ctl, 80, 24, DEFAULT_OPTIONS).text()
    assert "> good luck all_" in screen
    ctl.key("enter")
    assert ctl.client.dialog is None
    assert said == ["good luck all"]
    assert ("Player 1: good luck all" in render(ctl, 80, 24, DEFAULT_OPTIONS).text())


def test_escape_cancels_and_nothing_is_said() -> None:
    t = session(players=1, seed=5)
    said: list[str] = []
    ctl = remote_client(t, 0, said)
    ctl.key("/")
    type_keys(ctl, "oops")
    ctl.key("escape")
    assert ctl.client.dialog is None and said == [] and t.chat == []


def test_a_refusal_is_shown() -> None:
    t = session(players=1, seed=5)
    ctl = remote_client(t, 0, [])
    ctl.key("/")
    type_keys(ctl, "too fast")
    ctl.key("enter")
    assert ctl.message == ["Not so fast"]


def test_chat_lines_sit_among_the_events_they_followed() -> None:
    t = session(players=1, seed=5)
    ctl = remote_client(t, 0, [])
    t.say("bob", "before")
    ctl.key("d")
    t.say("", "Player 3 disconnected: a computer takes over in 60 s")
    lines = [text for _, text in ctl.client.log_lines()]
    assert lines[0].startswith("Hand 1:")
    assert lines.index("bob: before") < lines.index("Player 1 drew")
    assert lines[-1] == "Player 3 disconnected: a computer takes over in 60 s"


def test_control_characters_in_chat_are_written_out_never_sent_raw() -> None:
    """An escape sequence said by one player must not clear or retitle another player's terminal."""
    t = session(players=1, seed=5)
    ctl = remote_client(t, 0, [])
    t.say("eve", "\x1b[2J\x1b]0;owned\x07hi\u202eevil\nnext")
    text = [text for _, text in ctl.client.log_lines()][-1]
    assert text == "eve: \\x1b[2J\\x1b]0;owned\\x07hi\\u202eevil\\nnext"
    assert not any(ord(c) < 32 or c == "\u202e" for c in render(ctl, 80, 24, DEFAULT_OPTIONS).text().replace("\n", ""))


def test_the_chat_input_takes_printable_characters_only() -> None:
    t = session(players=1, seed=5)
    ctl = remote_client(t, 0, [])
    ctl.key("/")
    for key in ("a", "c-a", "left", "\u202e", "b", "f5"):
        ctl.key(key)
    assert ctl.client.dialog is not None and getattr(ctl.client.dialog, "text", None) == "ab"


def test_a_local_table_has_nobody_to_chat_with() -> None:
    ctl = client(session(players=1, seed=5))
    ctl.key("/")
    assert ctl.client.dialog is None or not isinstance(ctl.client.dialog, ChatInput)
    assert any("SSH" in line for line in ctl.message)


def test_leaving_a_table_over_ssh_says_a_computer_plays_the_seat_until_you_return() -> None:
    ctl = remote_client(session(seed=5), 0, [])
    ctl.key("q")
    text = " ".join(render(ctl, 80, 24).text().split())
    assert "Leave the table?" in text
    assert "A computer plays your seat until you come back" in text and "y: leave" in text
