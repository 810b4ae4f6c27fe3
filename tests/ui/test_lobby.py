"""The server's lobby as a screen of the UI (issue 17): a Page whose boxes are child pages, whose
keys are one table checked at import, and which draws a LobbyView and acts through a
LobbyService, so that it is tested here without a server (``tests/server`` drive it over SSH)."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import canasta_tui.ui
from canasta_tui.engine import Rules
from canasta_tui.ui.keys import KeyHelp, check_commands
from canasta_tui.ui.lobby import (
    COMMANDS,
    LOBBY_KEYS,
    ChatLine,
    CodeLine,
    LeaveServer,
    LobbyHelp,
    LobbyScreen,
    NewTableForm,
)
from canasta_tui.ui.lobbyview import (
    Destination,
    LobbyLine,
    LobbyService,
    LobbyView,
    SeatInfo,
    SeatState,
    TableRow,
    TableState,
)

from .helpers import check_golden
from .pages_helpers import SIZES, screen, typ

UI = Path(canasta_tui.ui.__file__).parent

FORMING = TableRow(2, "windows", "beginner", 3000, TableState.FORMING,
                   (SeatInfo(SeatState.HUMAN, "carol", verified=True), SeatInfo(SeatState.FREE),
                    SeatInfo(SeatState.FREE), SeatInfo(SeatState.HUMAN, "~gus")), "carol", False, None)
PLAYING = TableRow(1, "classic", "expert", 5000, TableState.PLAYING,
                   (SeatInfo(SeatState.HUMAN, "ann", True, verified=True), SeatInfo(SeatState.COMPUTER),
                    SeatInfo(SeatState.AWAY, "bob", note="a computer takes over soon", verified=True),
                    SeatInfo(SeatState.CLAIMED, "dave", note="sits down at the next deal", verified=True)),
                   "ann", True, 0, hand=3, score="1&3: 1250  2&4: 980")
OVER = TableRow(3, "two-player", "advanced", 1500, TableState.OVER,
                (SeatInfo(SeatState.COMPUTER, "eve", note="for eve"), SeatInfo(SeatState.COMPUTER)),
                "eve", False, None, winner="Player 1 won")


class FakeLobby:
    """A LobbyService without a server: fixed tables, and a record of what the lobby asked."""

    def __init__(self, tables: tuple[TableRow, ...] = (PLAYING, FORMING, OVER), verified: bool = True) -> None:
        self.tables = tables
        self.verified = verified
        self.chat = [LobbyLine("carol", "anyone for a game?", True), LobbyLine("~gus", "me")]
        self.asked: list[str] = []
        self.listeners: list[Callable[[], None]] = []
        self.refuse = ""
        self.where: Destination | None = None

    def view(self) -> LobbyView:
        return LobbyView("ann", self.verified, "" if self.verified else "K7PX-M2QA", 7, self.tables, tuple(self.chat))

    def subscribe(self, listener: Callable[[], None]) -> None:
        self.listeners.append(listener)

    def unsubscribe(self, listener: Callable[[], None]) -> None:
        self.listeners.remove(listener)

    def changed(self) -> None:
        for fn in list(self.listeners):
            fn()

    def may_create(self) -> str | None:
        return self.refuse or None

    def create(self, rules: Rules, level: str, turn_timer: int = 0) -> int | str:
        self.asked.append(f"create {rules.name} {level} {rules.target_score}" + (f" timer {turn_timer}" if turn_timer else ""))
        return 4

    def turn_timers(self) -> tuple[int, ...]:
        return (0, 30, 60, 120)

    def sit(self, table: int, seat: int) -> tuple[str | None, Destination | None]:
        self.asked.append(f"sit {table} {seat}")
        return (None, Destination(table, seat)) if table == 1 else (None, None)

    def stand(self, table: int) -> str | None:
        self.asked.append(f"stand {table}")
        return None

    def start(self, table: int) -> str | None:
        self.asked.append(f"start {table}")
        return "carol starts this table (they created it)"

    def say(self, text: str) -> str | None:
        self.asked.append(f"say {text}")
        return None

    def reclaim(self, code: str) -> str | None:
        self.asked.append(f"reclaim {code}")
        return None if code == "K7PXM2QA" else "No seat has that code"

    def home(self) -> Destination | None:
        return self.where


def lobby(service: LobbyService | None = None) -> LobbyScreen:
    return LobbyScreen(service or FakeLobby())


def test_no_lobby_module_of_the_ui_imports_the_server() -> None:
    """The lobby lives with the other screens; ``server/`` implements its LobbyService and
    imports it, never the other way round (checked on the source, and on what an import loads)."""
    found = []
    for name in ("lobby.py", "lobbyview.py"):
        for node in ast.walk(ast.parse((UI / name).read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                module = ("." * node.level) + (node.module or "")
                if "server" in module.split("."):
                    found.append(f"{name}: from {module} import ...")
            elif isinstance(node, ast.Import):
                found += [f"{name}: import {a.name}" for a in node.names if "server" in a.name.split(".")]
    assert found == []
    loaded = subprocess.run([sys.executable, "-c", "import sys, canasta_tui.ui.lobby; "
                             "print(sorted(m for m in sys.modules if m.startswith('canasta_tui.server')))"],
                            capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "[]"


def test_a_key_table_that_disagrees_with_its_commands_is_refused_at_import() -> None:
    keys = [KeyHelp("new", ("n",), "n", "create"), KeyHelp("quit", ("q",), "q", "leave")]
    assert check_commands({"new": 1, "quit": 2}, keys, "test's") == {"n": "new", "q": "quit"}
    with pytest.raises(ImportError, match=r"ui.keys and test's commands disagree: \['quit'\]"):
        check_commands({"new": 1}, keys, "test's")                       # a key with no command
    with pytest.raises(ImportError, match=r"\['stand'\]"):
        check_commands({"new": 1, "quit": 2, "stand": 3}, keys, "test's")  # a command no key reaches
    twice = [*keys, KeyHelp("stand", ("q",), "q", "stand up")]
    with pytest.raises(ImportError, match="test's keys: 'q' is given to 'quit' and to 'stand'"):
        check_commands({"new": 1, "quit": 2, "stand": 3}, twice, "test's")
    # ... and the lobby's own table passed that check when ui.lobby was imported.
    assert set(COMMANDS) == {k.command for k in LOBBY_KEYS}


def test_every_lobby_key_is_in_its_help() -> None:
    page = lobby()
    typ(page, "?")
    assert isinstance(page.child, LobbyHelp)
    text = screen(page)
    for k in LOBBY_KEYS:
        if k.label:
            assert f"{k.label} " in text and k.description in text, k
    assert "✓ after a name: a person known by their SSH key" in text
    assert "+ after a name" in screen(page, ascii=True)
    typ(page, "q")                                   # any key closes the help, q too
    assert page.child is None and not page.done


def test_the_lobby_draws_its_view_at_every_size() -> None:
    page = lobby()
    for size, width, height, opts in SIZES:
        check_golden(f"lobby_{size}.txt", page.paint(width, height, opts).text())
    text = screen(page)
    assert "ann ✓ — 7 online" in text.split("\n")[0]
    assert ">   1  classic      expert    to 5000   hand 3  1&3: 1250  2&4: 980" in text
    assert "    2  windows      beginner  to 3000   forming: 2 of 4 seated, carol starts it" in text
    assert "    3  two-player   advanced  to 1500   over: Player 1 won" in text
    assert "  1  ann✓ (you)" in text and "  3  bob✓: away, a computer takes over soon" in text
    assert "  4  computer; dave✓ sits down at the next deal" in text
    assert "carol✓: anyone for a game?" in text and "~gus: me" in text
    assert text.split("\n")[-1].startswith("[N]ew [1-4] sit [W]atch  Start   Up  [C]hat [?]Help [Q]uit")


def test_the_new_table_form_is_a_box_and_enter_creates_the_table() -> None:
    fake = FakeLobby()
    page = lobby(fake)
    typ(page, "n")
    assert isinstance(page.child, NewTableForm)
    assert "> Rules:     < classic >" in screen(page)
    typ(page, "down", "left", "down", "right", "right")     # beginner, 10000 (past 7500)
    typ(page, "enter")
    assert page.child is None
    assert fake.asked == ["create classic beginner 10000"]
    assert page.message == "Table 4 is yours: you sit as Player 1; press s to start when everybody is seated"
    fake.refuse = "You have 3 tables already: finish one first (or stand up at one not started)"
    typ(page, "n")
    assert page.child is None and page.message == fake.refuse     # no form to fill in for nothing
    typ(page, "j")                                  # the message stays until the next command ...
    assert page.message == ""


def test_the_new_table_form_offers_the_servers_turn_timers_off_by_default() -> None:
    fake = FakeLobby()
    page = lobby(fake)
    typ(page, "n")
    assert "  Per turn:  < off >" in screen(page)
    typ(page, "down", "down", "down", "left")           # from off, back round to the longest
    assert "> Per turn:  < 120 s >" in screen(page)
    typ(page, "right", "right")                         # off, then 30 s
    assert "> Per turn:  < 30 s >" in screen(page)
    typ(page, "enter")
    assert fake.asked == ["create classic advanced 5000 timer 30"]


def test_the_chat_line_keeps_what_was_typed_until_enter_or_esc() -> None:
    fake = FakeLobby()
    page = lobby(fake)
    typ(page, "c")
    assert isinstance(page.child, ChatLine)
    typ(page, "hello", "up", "down", "tab", " there")   # (a stray arrow key loses nothing)
    assert "Say: hello there_" in screen(page)
    typ(page, "enter")
    assert fake.asked == ["say hello there"] and page.child is None
    typ(page, "c", "never sent", "escape")
    assert fake.asked == ["say hello there"] and page.child is None


def test_a_guest_types_their_code_and_goes_back_to_their_seat() -> None:
    fake = FakeLobby(verified=False)
    page = lobby(fake)
    assert "ann (guest, code K7PX-M2QA) — 7 online" in screen(page)
    typ(page, "r")
    assert isinstance(page.child, CodeLine)
    typ(page, "WRONG", "enter")
    assert page.message == "No seat has that code" and not page.done
    fake.where = Destination(1, 2)
    typ(page, "r", "K7PXM2QA")
    assert "Your seat's code (Enter: take the seat, Esc: cancel): K7PXM2QA_" in screen(page)
    typ(page, "enter")
    assert page.done and page.destination == Destination(1, 2)


def test_sit_watch_and_start_ask_the_server_and_go_where_it_says() -> None:
    fake = FakeLobby()
    page = lobby(fake)
    typ(page, "down", "s")                           # table 2: carol starts it
    assert fake.asked == ["start 2"] and page.message == "carol starts this table (they created it)"
    typ(page, "w")
    assert page.message == "This table has not started yet: there is nothing to watch"
    typ(page, "2")
    assert fake.asked[-1] == "sit 2 1" and page.message == "You sit as Player 2 at table 2: carol starts the table"
    typ(page, "end", "w")
    assert page.done and page.destination == Destination(3, None)
    page = lobby(fake)
    typ(page, "enter")                               # my own seat at table 1
    assert fake.asked[-1] == "sit 1 0" and page.destination == Destination(1, 0)


def test_a_change_anybody_makes_is_drawn_and_a_table_that_went_gives_way() -> None:
    fake = FakeLobby()
    page = lobby(fake)
    changes: list[int] = []
    page.on_change = lambda: changes.append(1)
    typ(page, "end")
    assert "> 3  two-player" in screen(page).replace(">   ", "> ")
    fake.tables = (PLAYING, FORMING)
    fake.changed()
    assert changes and "two-player" not in screen(page)
    assert ">   1  classic" in screen(page)                # back to the person's own table
    page.close()
    assert fake.listeners == []


def test_ctrl_c_anywhere_and_q_asks_before_leaving_the_server() -> None:
    page = lobby()
    typ(page, "c", "half a line", "c-c")
    assert isinstance(page.child, LeaveServer) and "Leave the server?" in screen(page)
    typ(page, "n")
    assert page.child is None and not page.done
    typ(page, "q", "y")
    assert page.done and page.destination is None
    small = lobby()
    small.too_small = True
    typ(small, "n", "c")                             # nothing but q works on a screen too small
    assert small.child is None
    typ(small, "q")
    assert "Leave the server? y: leave, n: stay" in screen(small, 60, 20)
    typ(small, "enter")
    assert small.done and small.destination is None
