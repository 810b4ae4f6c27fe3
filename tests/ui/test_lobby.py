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
from canasta_tui.lobbyview import (
    OPEN_TABLE,
    Access,
    AdminAct,
    BanRow,
    Destination,
    InvitationRow,
    LobbyLine,
    LobbyService,
    LobbyView,
    PersonRow,
    SeatInfo,
    SeatState,
    TableRow,
    TableSettings,
    TableState,
    VisitorRow,
)
from canasta_tui.ui.dialogs import Confirm, InvitationBox
from canasta_tui.ui.keys import KeyHelp, check_commands
from canasta_tui.ui.lobby import (
    ADMIN_COMMANDS,
    COMMANDS,
    LOBBY_KEYS,
    AdminLine,
    BanPicker,
    BansPage,
    ChatLine,
    CodeLine,
    LeaveServer,
    LobbyHelp,
    LobbyScreen,
    NewTableForm,
    SeatQuestion,
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
                   "ann", True, 0, hand=3, score="1&3: 1,250  2&4: 980")
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
        self.people: tuple[PersonRow, ...] = ()
        self.invitations: tuple[InvitationRow, ...] = ()
        self.motd = ""
        self.admin_ = False
        self.ban_rows: tuple[BanRow, ...] = ()
        self.visitor_rows: tuple[VisitorRow, ...] = ()

    def view(self) -> LobbyView:
        return LobbyView("ann", self.verified, "" if self.verified else "K7PX-M2QA", 7, self.tables, tuple(self.chat),
                         self.people, self.invitations, self.motd, self.admin_)

    def subscribe(self, listener: Callable[[], None]) -> None:
        self.listeners.append(listener)

    def unsubscribe(self, listener: Callable[[], None]) -> None:
        self.listeners.remove(listener)

    def changed(self) -> None:
        for fn in list(self.listeners):
            fn()

    def may_create(self) -> str | None:
        return self.refuse or None

    def create(self, rules: Rules, level: str, settings: TableSettings = OPEN_TABLE, turn_timer: int = 0) -> int | str:
        extra = "" if settings == OPEN_TABLE else f" {settings.access.value}, listed {settings.listed}, " \
            f"watched {settings.watchable}, rated {settings.rated}"
        extra += f" timer {turn_timer}" if turn_timer else ""
        self.asked.append(f"create {rules.name} {level} {rules.target_score}{extra}")
        if settings.access == Access.CODE:
            self.tables = (*self.tables, FORMING._replace(id=4, created_by_me=True, my_seat=0, code="K3M9QX",
                                                          access=Access.CODE))
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

    def invite(self, person: str, table: int) -> str | None:
        self.asked.append(f"invite {person} {table}")
        return None

    def answer(self, invitation: int, accept: bool) -> tuple[str | None, Destination | None]:
        self.asked.append(f"answer {invitation} {accept}")
        self.invitations = tuple(i for i in self.invitations if i.id != invitation)
        return None, None

    def join(self, code: str) -> tuple[str | None, Destination | None]:
        self.asked.append(f"join {code}")
        return ("No table has that code", None) if code != "K3M9QX" else (None, None)

    def dismiss(self, table: int, seat: int) -> str | None:
        self.asked.append(f"dismiss {table} {seat}")
        return None

    def admin(self, act: AdminAct, target: str, text: str) -> str:
        self.asked.append(f"admin {act.value} {target!r} {text!r}")
        return "done"

    def admin_ask(self, act: AdminAct, target: str, text: str) -> tuple[str | None, str]:
        if target == "nobody":
            return "Nobody called nobody is here", ""
        return None, f"{act.value} {target} {text}?"

    def bans(self) -> tuple[BanRow, ...]:
        return self.ban_rows

    def visitors(self) -> tuple[VisitorRow, ...]:
        return self.visitor_rows


def lobby(service: LobbyService | None = None) -> LobbyScreen:
    return LobbyScreen(service or FakeLobby())


def test_no_lobby_module_of_the_ui_imports_the_server() -> None:
    """The lobby lives with the other screens; ``server/`` implements its LobbyService and
    imports it, never the other way round (checked on the source, and on what an import loads)."""
    found = []
    for path in (UI / "lobby.py", UI.parent / "lobbyview.py"):
        name = path.name
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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
    text = screen(page, 132, 43)      # (at 80x24 the keys a person knows already may give way)
    for k in LOBBY_KEYS:
        if k.label and k.command not in ADMIN_COMMANDS:
            assert f"{k.label} " in text and k.description in text, k
    assert "admins:" not in text                          # the admins' keys show to admins only
    assert "✓ after a name: known by their SSH key; ~ before it: a guest" in text
    assert "✓ after a name: known by their SSH key; ~ before it: a guest" in screen(page)
    assert "+ after a name" in screen(page, ascii=True)
    typ(page, "q")                                   # any key closes the help, q too
    assert page.child is None and not page.done


def test_the_lobby_draws_its_view_at_every_size() -> None:
    page = lobby()
    for size, width, height, opts in SIZES:
        check_golden(f"lobby_{size}.txt", page.paint(width, height, opts).text())
    text = screen(page)
    assert "ann ✓ — 7 online" in text.split("\n")[0]
    assert ">   1  classic      expert    to 5,000  hand 3  1&3: 1,250  2&4: 980" in text
    assert "    2  windows      beginner  to 3,000  forming: 2 of 4 seated, carol starts it" in text
    assert "    3  two-player   advanced  to 1,500  over: Player 1 won" in text
    assert "  1  ann✓ (you)" in text and "  3  bob✓: away, a computer takes over soon" in text
    assert "  4  computer; dave✓ sits down at the next deal" in text
    assert "carol✓: anyone for a game?" in text and "~gus: me" in text
    assert text.split("\n")[-1].startswith("[N]ew [1-4] sit [W]atch  Start   Up  [C]hat [P]eople [F]riends [?]Help [Q]uit")


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
    typ(page, "down", "down", "down", "left")           # off is the smallest: it stays
    assert "> Per turn:  < off >" in screen(page)
    typ(page, "right")                                  # then 30 s
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
    page.unsubscribe()
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


# ---------------------------------------------------------------------- people in the lobby (issue 18)

PEOPLE = tuple(PersonRow(f"key:SHA256:p{i:02}", f"player{i:02}", i % 3 != 0, None if i < 8 else 1 + i % 2,
                         i % 5 == 0, None if i % 3 == 0 else 100 + i) for i in range(1, 30))
ME = PersonRow("key:SHA256:ann", "ann", True, 1, False, 250, True)


def test_the_online_list_shows_where_and_rating_and_scrolls_at_80x24() -> None:
    fake = FakeLobby()
    fake.people = (ME, *PEOPLE)
    page = lobby(fake)
    typ(page, "p")
    text = screen(page)
    rows = [line for line in text.split("\n") if "player" in line or "ann✓ (you)" in line]
    assert "ann✓ (you)" in rows[0] and "table 1" in rows[0] and "250" in rows[0]    # you first
    assert any("player01✓" in r and "lobby" in r and "101" in r for r in rows)
    assert any("player03 " in r and "guest" in r for r in rows)                       # a guest has no rating
    assert "1-12 of 30" in text and "player29" not in text
    typ(page, "end")
    text = screen(page)
    assert "19-30 of 30" in text and "player29" in text and "watching 2" not in text.split("player29")[1][:0]
    assert "> player29" in text
    typ(page, "pageup", "enter")            # invite player17 (29 - 12) to my table (1, where I sit)
    assert page.child is None
    assert fake.asked == ["invite key:SHA256:p17 1"]
    assert page.message == "player17 is invited to table 1: you are told their answer"
    typ(page, "p", "enter")                 # the first row is me
    assert page.message == "That is you: choose somebody else to invite"


def test_an_invitation_opens_in_a_box_and_one_key_answers_it() -> None:
    fake = FakeLobby()
    page = lobby(fake)
    fake.invitations = (InvitationRow(7, "carol", 2, "windows, 2 of 4 seated"),)
    fake.changed()
    assert isinstance(page.child, InvitationBox)
    text = screen(page)
    assert "carol invites you to table 2 (windows, 2 of 4 seated)." in text
    assert "y: accept    n: decline" in text
    typ(page, "escape")                     # later: y brings it back
    assert page.child is None and fake.asked == []
    typ(page, "y")
    assert isinstance(page.child, InvitationBox)
    typ(page, "y")
    assert fake.asked == ["answer 7 True"] and page.selected == 2
    assert page.message == "You sit at table 2: its creator starts it"
    typ(page, "y")
    assert page.message == "Nobody has invited you to a table"
    # An invitation that arrives while a line is being typed waits for it.
    typ(page, "c", "h")
    fake.invitations = (InvitationRow(8, "bob", 1),)
    fake.changed()
    assert isinstance(page.child, ChatLine)
    typ(page, "i", "enter")
    assert isinstance(page.child, InvitationBox)
    typ(page, "n")
    assert fake.asked[-2:] == ["say hi", "answer 8 False"] and page.message == "You declined bob's invitation"


def test_a_private_table_is_made_in_the_form_and_its_code_is_shown_to_its_creator() -> None:
    fake = FakeLobby()
    page = lobby(fake)
    typ(page, "n", "down", "down", "down", "down", "right", "right")  # Who sits: with a code
    assert "> Who sits:  < with a code >" in screen(page)
    typ(page, "down", "right", "down", "right", "down", "right")    # unlisted, not watched, rated
    text = screen(page)
    assert "Listed:    < no: only to its people >" in text and "Watchers:  < not allowed >" in text
    assert "Rated:     < yes: the match moves ratings >" in text
    typ(page, "enter")
    assert fake.asked == ["create classic advanced 5000 with a code, listed False, watched False, rated True"]
    assert page.message == "Table 4 is yours; its code is K3M9QX: give it to whom you want to play with"
    assert "Table 4 — code K3M9QX" in screen(page)
    # Somebody else joins with the code; a wrong one is refused with the reason.
    typ(page, "g", *"nope", "enter")
    assert page.message == "No table has that code"
    typ(page, "g", *"K3M9QX", "enter")
    assert fake.asked[-1] == "join K3M9QX" and page.message == "You sit at that table"


def test_a_private_or_unwatched_table_says_so_and_is_not_watched_from_the_lobby() -> None:
    playing = PLAYING._replace(my_seat=None, created_by_me=False, access=Access.INVITE, watchable=False,
                               seats=tuple(s._replace(mine=False) for s in PLAYING.seats))
    page = lobby(FakeLobby((playing,)))
    assert "hand 3  1&3: 1,250  2&4: 980 (private, not watched)" in screen(page)
    typ(page, "w")
    assert page.message == "Table 1 is not watched: its creator chose so" and not page.done


def test_the_creator_asks_a_person_to_leave_a_forming_table() -> None:
    mine = FORMING._replace(created_by_me=True, my_seat=0,
                            seats=(FORMING.seats[0]._replace(mine=True), *FORMING.seats[1:]))
    fake = FakeLobby((mine,))
    page = lobby(fake)
    typ(page, "x")
    assert isinstance(page.child, SeatQuestion)
    text = screen(page)
    assert "│ 4  ~gus" in text and "│ 1  carol" not in text      # not yourself
    typ(page, "4")
    assert fake.asked == ["dismiss 2 3"] and page.message == "You asked the person in seat 4 to leave"
    page = lobby(FakeLobby((FORMING,)))
    typ(page, "x")
    assert page.child is None
    assert page.message == "Only the creator of a table not started may ask somebody to leave it"


def test_admin_keys_ask_first_and_only_admins_have_them() -> None:
    fake = FakeLobby()
    page = lobby(fake)
    typ(page, "a")                                   # not an admin: nothing happens
    assert page.child is None and "[A]dmin" not in screen(page)
    fake.admin_ = True
    fake.changed()
    assert "[A]dmin" in screen(page)
    typ(page, "?")
    assert "admins: announce, close a table, remove, ban" in screen(page)
    typ(page, "q", "a", "4")
    assert isinstance(page.child, AdminLine)
    typ(page, *"bob 24 spam", "enter")
    assert isinstance(page.child, Confirm) and "ban bob 24 spam?" in screen(page)    # the server's question
    typ(page, "n")
    assert fake.asked == [] and page.message == "Nothing was done"
    # The target is checked before "Are you sure?": one the server refuses never asks.
    typ(page, "a", "4", *"nobody 24 spam", "enter")
    assert page.child is None and page.message == "Nobody called nobody is here" and fake.asked == []
    # Commas or semicolons between the fields read as spaces; a ban without its hours is asked again.
    typ(page, "a", "4", *"~gus; 1; flooding the chat, twice", "enter")
    assert isinstance(page.child, Confirm) and "ban ~gus 1 flooding the chat, twice?" in screen(page)
    typ(page, "y")
    assert fake.asked[-1] == "admin ban '~gus' '1 flooding the chat, twice'"
    typ(page, "a", "4", *"eve spam", "enter")
    assert page.child is None and page.message == "Say whom, for how many hours, then why: e.g. eve 24 spam in the chat"
    fake.asked.clear()
    typ(page, "a", "2")                               # close: the chosen table is offered
    typ(page, *"late", "enter", "y")
    assert fake.asked == ["admin close a table '1' 'late'"] and page.message == "done"
    typ(page, "a", "1", *"Club night at 8", "enter", "y")
    assert fake.asked[-1] == "admin announce '' 'Club night at 8'"


EVE_FP = "SHA256:" + "E" * 43


def test_the_bans_page_lists_lifts_and_bans_a_person_picked_from_the_visitors() -> None:
    """The issue: "there is no list of bans and no unban"; "fingerprints never show on screen"."""
    fake = FakeLobby()
    fake.admin_ = True
    fake.ban_rows = (BanRow("key:" + EVE_FP, "eve", EVE_FP, ("10.0.0.5", "10.0.0.6"), "2026-11-28 13:00", "boss", "spam"),
                     BanRow("address:10.9.8.7", "10.9.8.7", "", (), "2026-11-27 20:00", "boss"))
    fake.visitor_rows = (VisitorRow("key:" + EVE_FP, "eve", EVE_FP, "10.0.0.5", "online"),
                         VisitorRow("guest:abc", "~gus", "", "10.0.0.7", "2026-11-27 12:00"))
    page = lobby(fake)
    typ(page, "a")
    assert "5  the bans: lift one, or ban somebody online or a recent visitor │" in screen(page)
    typ(page, "5")
    assert isinstance(page.child, BansPage)
    text = screen(page)
    assert all(len(line) <= 80 for line in text.split("\n"))
    assert "> eve until 2026-11-28 13:00, by boss: spam" in text and f"key {EVE_FP}" in text
    assert "guests kept out from 10.0.0.5, 10.0.0.6" in text
    assert "  10.9.8.7 until 2026-11-27 20:00, by boss" in text and "everybody from this address" in text
    assert all(len(line) <= 80 for line in text.split("\n"))
    typ(page, "down", "l")                                        # lift the second: asked first
    assert isinstance(page.child, Confirm) and "lift a ban address:10.9.8.7 ?" in screen(page)
    typ(page, "y")
    assert fake.asked[-1] == "admin lift a ban 'address:10.9.8.7' ''" and page.message == "done"
    typ(page, "a", "5", "b")                                      # ban somebody: online first, then visitors
    assert isinstance(page.child, BanPicker)
    text = screen(page)
    assert "> eve" in text and "10.0.0.5" in text and "online" in text and f"key {EVE_FP}" in text
    typ(page, "down")
    assert "a guest: banning them bans their address" in screen(page) and "10.0.0.7" in screen(page)
    typ(page, "up", "enter")
    assert isinstance(page.child, AdminLine) and "Ban eve: hours, then why: " in screen(page)
    typ(page, *"24 spam again", "enter")
    assert isinstance(page.child, Confirm) and page.child.text == f"ban key:{EVE_FP} 24 spam again?"
    typ(page, "y")
    assert fake.asked[-1] == f"admin ban 'key:{EVE_FP}' '24 spam again'"
    typ(page, "a", "5", "b", "enter", *"soon", "enter")           # no hours: asked again, nothing asked of the server
    assert page.child is None and page.message == "Say for how many hours, then why: e.g. 24 spam in the chat"
    # From the online list too: b bans the chosen person (an admin's list says so).
    fake.people = (PersonRow("key:" + EVE_FP, "eve", True),)
    fake.changed()
    typ(page, "p")
    assert "b: ban" in screen(page)
    typ(page, "b", *"2 spam", "enter")
    assert isinstance(page.child, Confirm) and page.child.text == f"ban key:{EVE_FP} 2 spam?"


def test_the_message_of_the_day_shows_in_the_lobby() -> None:
    fake = FakeLobby()
    fake.motd = "Club night is Thursday: rated tables from 8 pm"
    text = screen(lobby(fake))
    assert text.split("\n")[1].strip() == "Club night is Thursday: rated tables from 8 pm"
    assert "carol✓: anyone for a game?" in text


@pytest.mark.parametrize("admin", [False, True])
def test_the_lobby_bar_fits_80_columns_with_every_key_a_person_may_have(admin: bool) -> None:
    """Over SSH the lobby has records (i, o) and, for an admin, a; at 80 columns the dim keys
    and then Info and Options leave the bar (they stay in the help), never Help or Quit."""
    from .test_replay import FakeRecords

    fake = FakeLobby()
    fake.admin_ = admin
    fake.changed()
    page = LobbyScreen(fake, records=FakeRecords())   # type: ignore[arg-type]
    bar = screen(page, 80, 24).splitlines()[-1]
    assert bar.rstrip().endswith("[Q]uit") and "[?]Help" in bar, bar
    assert ("[A]dmin" in bar) == admin
    wide = screen(page, 132, 43).splitlines()[-1]
    assert "[I]nfo" in wide and "[O]ptions" in wide


def test_a_new_tables_score_to_play_to_follows_its_rules_preset() -> None:
    """Samba is played to 10,000 and Bolivia to 15,000 (rules/samba.toml, rules/bolivia.toml):
    choosing the preset in the form sets its score; the player may change it after."""
    from canasta_tui.presets import load_rules
    from canasta_tui.ui.lobby import NewTable

    form = NewTable()
    for name in ("samba", "bolivia", "classic"):
        while form.presets[form.preset] != name:
            form.change(1)
        assert form.target == load_rules(name).target_score
    assert NewTable().target == 5000 and load_rules("bolivia").target_score == 15000


def test_a_new_tables_numbers_stop_at_their_ends() -> None:
    """The score to play to and the turn timer are numbers in order: Left at the smallest and
    Right at the largest stay there (they used to go round, from 1,500 to 15,000), while a
    named choice (the computers' level) still goes round."""
    from canasta_tui.ui.lobby import NewTable

    form = NewTable(timers=(0, 30, 60))
    form.row = 2
    for _ in range(len(form.targets()) + 2):
        form.change(-1)
    assert form.target == min(form.targets())
    for _ in range(len(form.targets()) + 2):
        form.change(1)
    assert form.target == max(form.targets())
    form.row = 3
    form.change(-1)
    assert form.timer == 0
    form.change(1), form.change(1), form.change(1)
    assert form.timer == 60
    form.row = 1
    form.level = 0
    form.change(-1)
    assert form.level == 2


@pytest.mark.parametrize("admin", [False, True])
def test_the_lobby_help_fits_80x24_with_its_legend_and_how_to_close_it(admin: bool) -> None:
    """With records and an admin's key the key list is 20 lines: at 80x24 the box drops its blank
    line and the keys a person knows already (?, Ctrl-L, the arrows), and still shows the legend and
    "(press any key)"; on a bigger terminal every key shows."""
    from .test_replay import FakeRecords

    fake = FakeLobby()
    fake.admin_ = admin
    fake.changed()
    page = LobbyScreen(fake, records=FakeRecords())   # type: ignore[arg-type]
    typ(page, "?")
    small = screen(page, 80, 24)
    assert "(press any key)" in small and "known by their SSH key" in small, small
    assert "leave the server (asks first)" in small and ("admins: announce" in small) == admin
    big = screen(page, 132, 43)
    assert "these keys" in big and "redraw the screen" in big and "choose a table" in big
