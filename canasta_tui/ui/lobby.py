"""The lobby: the first screen of a connection to ``canasta serve``.

It lists the server's tables (rules, computer level, score to play to, the score, who sits
where), and from it a player creates a table, sits in a free seat, takes a computer's seat
(from the next deal), watches a table, starts the table they created, and chats with
everybody in the lobby.

It is a :class:`~.pages.Page` like the start menu: its keys at the list of tables are one
table (:data:`LOBBY_KEYS`) checked against their commands (:data:`LOBBY`) when this module
is imported, as the table's and the start menu's are, and the new-table form, the lines typed
on the message line, the online list, the admins' boxes, the help and "Leave the server?" are
dialogs (:class:`~.dialogs.Box`, as the table's) opened over it, each told what to do with
its answer.  It draws a :class:`~.lobbyview.LobbyView` and acts
through a :class:`~.lobbyview.LobbyService`: the server (``canasta_tui.server``) implements
that, and nothing here imports it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..ai import LEVELS
from ..engine import RulesError
from ..lobbyview import (
    CODE_MAX,
    NOTE_MAX,
    Access,
    AdminAct,
    BanRow,
    Destination,
    FriendRow,
    InvitationRow,
    LobbyService,
    LobbyView,
    Marked,
    NoteRow,
    PersonRow,
    SeatInfo,
    SeatState,
    TableRow,
    TableSettings,
    TableState,
    VisitorRow,
    ban_hours,
)
from ..presets import load_rules, preset_names
from ..text import points, printable
from .canvas import Canvas, Options, Region, draw_box, draw_too_small, first_fit, put_lines_up, too_small, wrap
from .club import ClubService, PartnershipsPage, TonightPage
from .dialogs import CHAT_MAX, Box, Confirm, Dialog, DialogHost, Info, InvitationBox
from .keys import CommandTable, KeyHelp
from .lineedit import LineEdit, list_move, step_choice
from .pages import Page
from .records import LeaderboardPage, PersonOptionsPage, RecordPage, RecordService
from .replay import ReplayPage

#: A note typed with its person's name before it (the server refuses a note beyond NOTE_MAX).
NOTE_LINE_MAX = NOTE_MAX + 40
#: Scores a new table can play to (the preset's own is added if it is not among them).
TARGETS = (1500, 3000, 5000, 7500, 10000, 15000)


#: The lobby's keys at the list of tables, as the table's are (``ui/keys.py``): one list, which
#: the help box shows and :data:`COMMANDS` must match (checked when this module is imported).
LOBBY_KEYS: list[KeyHelp] = [
    KeyHelp("up", ("up", "k"), "Up, Down", "choose a table"),
    KeyHelp("down", ("down", "j"), "", ""),
    KeyHelp("first", ("home", "pageup"), "", ""),
    KeyHelp("last", ("end", "pagedown"), "", ""),
    KeyHelp("new", ("n",), "n", "create a table (rules, computer level, score to play to)"),
    KeyHelp("sit", tuple("123456789"), "1-4", "sit in that seat (a computer's seat: from the next deal)"),
    KeyHelp("enter", ("enter",), "Enter", "go to your seat, sit down, or watch the chosen table"),
    KeyHelp("watch", ("w",), "w", "watch the chosen table (nobody's hand is shown)"),
    KeyHelp("start", ("s",), "s", "start the table you created: computers take the free seats"),
    KeyHelp("stand", ("u",), "u", "stand up from your seat at a table that has not started"),
    KeyHelp("chat", ("c",), "c", "chat with everybody in the lobby"),
    KeyHelp("people", ("p",), "p, f, m", "who is online (Enter invites); your friends; notes for you"),
    KeyHelp("friends", ("f",), "", ""),
    KeyHelp("notes", ("m",), "", ""),
    KeyHelp("answer", ("y",), "y", "answer an invitation to a table you put off"),
    KeyHelp("join", ("g",), "g", "sit at a private table with its code (Enter shows yours)"),
    KeyHelp("dismiss", ("x",), "x", "ask someone to leave the table you created"),
    KeyHelp("admin", ("a",), "a", "admins: announce, close a table, remove, ban, the bans"),
    KeyHelp("code", ("r",), "r", "a guest types the code of their seat to get it back"),
    # A person's own record (ui/records.py): statistics and history, leaderboard, options, replays.
    KeyHelp("record", ("i",), "i, l, o", "your record and matches, the leaderboard, your options"),
    KeyHelp("leaderboard", ("l",), "", ""),
    KeyHelp("person_options", ("o",), "", ""),
    KeyHelp("replay", ("v",), "v", "the replay of the chosen table's match, once it is over"),
    # The club's records (ui/club.py): the evening's results, partnerships.
    KeyHelp("tonight", ("t",), "t, b", "tonight's results (and past evenings); partnerships"),
    KeyHelp("partnerships", ("b",), "", ""),
    KeyHelp("redraw", (), "Ctrl-L", "redraw the screen"),
    KeyHelp("help", ("?", "f1"), "?, F1", "these keys"),
    KeyHelp("quit", ("q", "c-c"), "q", "leave the server (asks first)"),
]

#: The help box's lines below the keys: the marks of the lobby's names.
LEGEND = ("{verified} after a name: known by their SSH key; ~ before it: a guest",)


#: Commands only an admin has (the others neither see them in the help nor can use them).
ADMIN_COMMANDS = frozenset({"admin"})
#: Lines of the online list shown at once at 80x24 (it scrolls).
PEOPLE_ROWS = 12


def help_lines(keys: Sequence[KeyHelp] = LOBBY_KEYS, admin: bool = False) -> list[str]:
    """The help box's key lines (as the lobby's help shows them); the admins' keys to admins only."""
    shown = [k for k in keys if k.label and (admin or k.command not in ADMIN_COMMANDS)]
    width = max(len(k.label) for k in shown) + 2
    return [f"{k.label:<{width}}{k.description}" for k in shown]


#: The most lines of the message of the day the lobby shows (a server's settings allow 3).
MOTD_ROWS = 4

# ---------------------------------------------------------------------- the boxes over the lobby


@dataclass
class NewTable:
    """The form of a new table: rules preset, computer level, score to play to, turn timer."""

    presets: list[str] = field(default_factory=preset_names)
    preset: int = 0
    level: int = 1
    target: int = 5000
    row: int = 0
    access: Access = Access.OPEN
    listed: bool = True
    watchable: bool = True
    rated: bool = False
    #: The turn timer's choices (seconds; 0: none, the default) and the one chosen.
    timers: tuple[int, ...] = (0,)
    timer: int = 0
    #: A seat the person gives up by creating it ("" none): said before they do.
    leaves: str = ""

    ROWS: ClassVar[int] = 8

    def __post_init__(self) -> None:
        if "classic" in self.presets:
            self.preset = self.presets.index("classic")

    def targets(self) -> list[int]:
        return sorted({*TARGETS, self.target})

    def change(self, step: int) -> None:
        if self.row == 0:
            self.preset = (self.preset + step) % len(self.presets)
            try:       # each preset plays to its own score (Samba 10,000, Bolivia 15,000)
                self.target = load_rules(self.presets[self.preset]).target_score
            except RulesError:
                pass   # (a preset file that cannot be read is refused with its reason on Enter)
        elif self.row == 1:
            self.level = (self.level + step) % len(LEVELS)
        elif self.row == 3:
            # Numbers stop at their ends (no 15,000 after 1,500); named choices go round.
            i = self.timers.index(self.timer) if self.timer in self.timers else 0
            self.timer = self.timers[max(0, min(len(self.timers) - 1, i + step))]
        elif self.row == 2:
            self.target = step_choice(self.targets(), self.target, step, cycle=False)
        elif self.row == 4:
            self.access = step_choice(list(Access), self.access, step, cycle=True)
        elif self.row == 5:
            self.listed = not self.listed
        elif self.row == 6:
            self.watchable = not self.watchable
        else:
            self.rated = not self.rated

    def settings(self) -> TableSettings:
        return TableSettings(self.access, self.listed or self.access == Access.OPEN, self.watchable, self.rated)

    def lines(self) -> list[str]:
        listed = ("yes (an open table)" if self.access == Access.OPEN
                  else "yes, as private" if self.listed else "no: only to its people")
        fields = [("Rules", self.presets[self.preset]), ("Computers", LEVELS[self.level]),
                  ("Play to", points(self.target)),
                  ("Per turn", f"{self.timer} s" if self.timer else "off"),
                  ("Who sits", self.access.value), ("Listed", listed),
                  ("Watchers", "welcome" if self.watchable else "not allowed"),
                  ("Rated", "yes: the match moves ratings" if self.rated else "no")]
        out = []
        for i, (label, value) in enumerate(fields):
            mark = ">" if i == self.row else " "
            out.append(f"{mark} {label + ':':<11}< {value} >")
        leaves = ["", self.leaves] if self.leaves else []
        return [*out, *leaves, "", "Up/Down: choose a line   Left/Right: change it",
                "Enter: create the table   Esc: cancel"]


def _ignore(*args: object) -> None:
    return None


@dataclass
class NewTableForm(Box):
    """The new-table form in a box over the lobby: Enter creates the table (``create`` is told the
    form), Esc or q cancels."""

    timers: tuple[int, ...] = (0,)
    leaves: str = ""
    create: Callable[[NewTable], object] = _ignore
    form: NewTable = field(init=False)

    def __post_init__(self) -> None:
        self.form = NewTable(timers=self.timers, leaves=self.leaves)

    def key(self, host: DialogHost, name: str) -> None:
        f = self.form
        row = list_move(name, f.row, f.ROWS, cycle=True)
        if row is not None:
            f.row = row
        elif name in ("escape", "q"):
            host.close()
        elif name in ("left", "h"):
            f.change(-1)
        elif name in ("right", "l", "space"):
            f.change(1)
        elif name == "enter":
            host.close()
            self.create(f)

    def draw(self, cv: Canvas, seen: object, opts: Options) -> None:
        draw_box(cv, "New table", self.form.lines())


@dataclass
class TextLine(Box):
    """A line typed on the lobby's message line (:class:`~.lineedit.LineEdit`): Enter takes it
    (``then`` is told it), Esc cancels.  Any other key edits the line, so that a stray arrow key
    never throws away what was typed."""

    prompt: ClassVar[str] = ""
    limit: ClassVar[int] = CHAT_MAX
    then: Callable[[str], object] = _ignore
    text: str = ""

    def __post_init__(self) -> None:
        self.edit = LineEdit(self.text, self.limit)

    def key(self, host: DialogHost, name: str) -> None:
        if name == "escape":
            host.close()
        elif name == "enter":
            host.close()
            self.then(self.edit.text)
        else:
            self.edit.key(name)

    def shown(self, width: int) -> str:
        return self.prompt + self.edit.text + "_"

    def draw(self, cv: Canvas, seen: object, opts: Options) -> None:
        y = cv.height - 2
        cv.fill(y, 0, cv.width, 1)
        cv.put(y, 0, self.shown(cv.width)[: cv.width], "message")


@dataclass
class ChatLine(TextLine):
    """A line to everybody in the lobby (its end shows while it is longer than the screen)."""

    prompt: ClassVar[str] = "Say: "

    def shown(self, width: int) -> str:
        return self.prompt + (self.edit.text + "_")[-(width - 8):]


@dataclass
class CodeLine(TextLine):
    """A guest types the code of their seat."""

    prompt: ClassVar[str] = "Your seat's code (Enter: take the seat, Esc: cancel): "
    limit: ClassVar[int] = CODE_MAX


@dataclass
class JoinLine(TextLine):
    """The code of a private table, to sit at it."""

    prompt: ClassVar[str] = "The table's code (Enter: sit there, Esc: cancel): "
    limit: ClassVar[int] = CODE_MAX


@dataclass
class AdminLine(TextLine):
    """What an admin's action needs (its :attr:`act` says which), typed on the message line."""

    PROMPTS: ClassVar[dict[AdminAct, str]] = {
        AdminAct.ANNOUNCE: "Announce to everybody: ",
        AdminAct.CLOSE: "Close table (number, then why): ",
        AdminAct.REMOVE: "Remove (a name online, then why): ",
        AdminAct.BAN: "Ban (a name online, SHA256:... or an address, then hours, then why): ",
    }
    act: AdminAct = AdminAct.ANNOUNCE
    #: A target picked from a list (``about``: how the prompt names it): the line is the rest.
    target: str = ""
    about: str = ""

    def shown(self, width: int) -> str:
        prompt = f"Ban {self.about}: hours, then why: " if self.target else self.PROMPTS[self.act]
        return prompt + (self.edit.text + "_")[-max(8, width - len(prompt) - 1):]

    def parts(self, entered: str) -> tuple[str, str]:
        """(target, text) of the line ``entered``: the announcement is all text; the others' first
        word is the target (and a ban's second its hours), whether spaces, commas or semicolons
        come between them."""
        text = entered.strip()
        if self.target:
            return self.target, " ".join(w for w in _FIELDS.split(text, maxsplit=1) if w)
        if self.act == AdminAct.ANNOUNCE:
            return "", text
        fields = 3 if self.act == AdminAct.BAN else 2
        words = [w for w in _FIELDS.split(text, maxsplit=fields - 1) if w] + ["", ""]
        return words[0], " ".join(w for w in words[1:fields] if w)


#: What may stand between an admin line's fields: spaces, commas, semicolons.
_FIELDS = re.compile(r"[\s,;]+")


@dataclass
class AdminMenu(Box):
    """The admins' actions: a digit picks one (``act`` is told it), 5 the bans page (``bans``),
    any other key cancels."""

    ACTS: ClassVar[tuple[AdminAct, ...]] = (AdminAct.ANNOUNCE, AdminAct.CLOSE, AdminAct.REMOVE, AdminAct.BAN)
    act: Callable[[AdminAct], object] = _ignore
    bans: Callable[[], object] = _ignore

    def key(self, host: DialogHost, name: str) -> None:
        host.close()
        if name in ("1", "2", "3", "4"):
            self.act(self.ACTS[int(name) - 1])
        elif name == "5":
            self.bans()

    def draw(self, cv: Canvas, seen: object, opts: Options) -> None:
        draw_box(cv, "Admin", ["1  announce a line to everybody", "2  close a table (its game is kept)",
                               "3  remove a person from the server", "4  ban a person, a key or an address for a time",
                               "5  the bans: lift one, or ban somebody online or a recent visitor", "",
                               "Each asks before it is done, and is logged.", "Any other key: cancel"])


def _no_rows() -> Sequence[Any]:
    return ()


@dataclass
class BansPage(Box):
    """The bans in force (who, their key, the addresses their guests are kept out from, until when,
    by whom): Up/Down choose one, l lifts it (``lift``), b bans somebody online or a recent
    visitor (``pick``), Esc or q closes."""

    rows: Callable[[], Sequence[BanRow]] = _no_rows
    lift: Callable[[BanRow], object] = _ignore
    pick: Callable[[], object] = _ignore
    at: int = 0

    def key(self, host: DialogHost, name: str) -> None:
        rows = self.rows()
        step = {"up": -1, "k": -1, "down": 1, "j": 1}.get(name)
        if step is not None:
            self.at = max(0, min(len(rows) - 1, self.at + step))
        elif name in ("l", "delete") and rows:
            host.close()
            self.lift(rows[min(self.at, len(rows) - 1)])
        elif name in ("b", "n"):
            host.close()
            self.pick()
        elif name in ("escape", "q"):
            host.close()

    def body(self, room: int) -> list[str]:
        """Three lines a ban (the chosen one's marked), as many bans as ``room`` lines hold."""
        rows = self.rows()
        self.at = max(0, min(self.at, len(rows) - 1))
        per = max(1, (room - 4) // 3)
        first = min(max(0, self.at - per + 1), max(0, len(rows) - per))
        out: list[str] = [] if rows else ["Nobody is banned."]
        for i, b in enumerate(rows[first:first + per], first):
            why = f": {printable(b.reason)}" if b.reason else ""
            out.append(f"{'>' if i == self.at else ' '} {printable(b.who)} until {b.until}, by {printable(b.by)}{why}")
            out.append(f"    key {b.fingerprint}" if b.fingerprint else "    everybody from this address")
            out.append(f"    guests kept out from {', '.join(b.addresses)}" if b.addresses
                       else "    (no address of theirs known)" if b.fingerprint else "")
        more = f"{first + 1}-{min(len(rows), first + per)} of {len(rows)} bans" if len(rows) > per else ""
        return [*out, *([more] if more else []), "", "Up/Down: choose   l: lift the ban   b: ban somebody   Esc: close"]

    def draw(self, cv: Canvas, seen: object, opts: Options) -> None:
        draw_box(cv, "Bans", self.body(cv.height - 6), width=cv.width - 6)


@dataclass
class BanPicker(Box):
    """Whom to ban: who is online, then the recent visitors, each with the address they came
    from last; the chosen one's key shows in full below.  Enter picks (``chosen``), Esc closes."""

    rows: Callable[[], Sequence[VisitorRow]] = _no_rows
    chosen: Callable[[VisitorRow], object] = _ignore
    at: int = 0

    def key(self, host: DialogHost, name: str) -> None:
        rows = self.rows()
        n = len(rows)
        step = {"up": -1, "k": -1, "down": 1, "j": 1, "pageup": -PEOPLE_ROWS, "pagedown": PEOPLE_ROWS}.get(name)
        if step is not None:
            self.at = max(0, min(n - 1, self.at + step))
        elif name == "enter" and rows:
            host.close()
            self.chosen(rows[min(self.at, n - 1)])
        elif name in ("escape", "q"):
            host.close()

    def body(self, room: int) -> list[str]:
        rows = self.rows()
        n = len(rows)
        self.at = max(0, min(self.at, n - 1))
        room = max(3, min(PEOPLE_ROWS, room - 6))
        first = min(max(0, self.at - room + 1), max(0, n - room))
        out = [f"  {'Name':<22} {'Last address':<28} {'Seen':<16}"]
        for i, r in enumerate(rows[first:first + room], first):
            out.append(f"{'>' if i == self.at else ' '} {printable(r.name)[:22]:<22} {r.address[:28]:<28} {r.seen:<16}")
        if not rows:
            out.append("  Nobody has come yet.")
        chosen = rows[self.at] if rows else None
        key = (f"key {chosen.fingerprint}" if chosen.fingerprint else "a guest: banning them bans their address"
               ) if chosen is not None else ""
        return [*out, "", key, "Enter: ban them (hours, then why)   Up/Down: choose   Esc: close"]

    def draw(self, cv: Canvas, seen: object, opts: Options) -> None:
        draw_box(cv, "Ban whom?", self.body(cv.height - 6), width=cv.width - 6)


@dataclass
class SeatQuestion(Box):
    """Which seat's person the creator asks to leave: a digit (``seat`` is told it), any other key cancels."""

    table: TableRow
    seat: Callable[[int], object] = _ignore

    def key(self, host: DialogHost, name: str) -> None:
        host.close()
        if name.isdigit() and 1 <= int(name) <= self.table.players:
            self.seat(int(name) - 1)

    def draw(self, cv: Canvas, seen: object, opts: Options) -> None:
        lines = [f"{i + 1}  {printable(s.name)}" for i, s in enumerate(self.table.seats)
                 if s.occupant != SeatState.FREE and not s.mine]
        draw_box(cv, f"Table {self.table.id}", ["Ask the person in which seat to leave?", "", *lines, "",
                                                "A digit: that seat    any other key: cancel"])


@dataclass
class OnlineList(Box):
    """Who is online (:attr:`LobbyView.people`): you first, then your friends, then the lobby, then
    by table; their place, rating and your mark.  Up/Down and Page Up/Down scroll; Enter invites the
    chosen person to your table (``invite``), f makes them your friend or no longer, m mutes them or
    no longer (``mark``), n leaves them a note (``note``), an admin's b bans them (``ban``); Esc, q
    or p closes it."""

    people: Callable[[], Sequence[PersonRow]] = _no_rows
    admin: bool = False
    invite: Callable[[PersonRow], object] = _ignore
    ban: Callable[[PersonRow], object] = _ignore
    mark: Callable[[PersonRow, Marked, bool], object] = _ignore
    note: Callable[[PersonRow], object] = _ignore
    at: int = 0
    top: int = 0

    def key(self, host: DialogHost, name: str) -> None:
        rows = self.people()
        n = len(rows)
        step = {"up": -1, "k": -1, "down": 1, "j": 1, "pageup": -PEOPLE_ROWS, "pagedown": PEOPLE_ROWS,
                "home": -n, "end": n}.get(name)
        chosen = rows[min(self.at, n - 1)] if rows else None
        if step is not None:
            self.at = max(0, min(n - 1, self.at + step))
        elif name in ("enter", "i") and chosen is not None:
            host.close()
            self.invite(chosen)
        elif name == "f" and chosen is not None:
            self.mark(chosen, Marked.FRIEND, not chosen.friend)       # (the list stays: its marks change)
        elif name == "m" and chosen is not None:
            self.mark(chosen, Marked.MUTE, not chosen.muted)
        elif name == "n" and chosen is not None:
            host.close()
            self.note(chosen)
        elif name == "b" and self.admin and chosen is not None:
            host.close()
            self.ban(chosen)
        elif name in ("escape", "q", "p"):
            host.close()

    def body(self, verified: str, room: int, width: int) -> list[str]:
        rows = self.people()
        n = len(rows)
        self.at = max(0, min(self.at, n - 1))
        room = max(3, min(PEOPLE_ROWS, room))
        if self.at < self.top:
            self.top = self.at
        elif self.at >= self.top + room:
            self.top = self.at - room + 1
        self.top = max(0, min(self.top, max(0, n - room)))
        name_w = max(12, min(24, width - 44))
        out = [f"  {'Name':<{name_w}} {'Where':<12} {'Rating':>6}  {'Mark':<6}"]
        for i, p in enumerate(rows[self.top:self.top + room], self.top):
            name = (printable(p.name) + (verified if p.verified else "") + (" (you)" if p.me else ""))[:name_w]
            rating = "guest" if p.rating is None else str(p.rating)
            mark = "friend" if p.friend else "muted" if p.muted else ""
            out.append(f"{'>' if i == self.at else ' '} {name:<{name_w}} {p.where:<12} {rating:>6}  {mark:<6}")
        more = f"{self.top + 1}-{min(n, self.top + room)} of {n}" if n > room else f"{n} online"
        keys = "Enter: invite   f: friend   m: mute   n: note   " + ("b: ban   " if self.admin else "") + "Esc: close"
        return [*out, "", more, keys]

    def draw(self, cv: Canvas, seen: object, opts: Options) -> None:
        draw_box(cv, "Online", self.body(opts.glyphs.verified, cv.height - 10, cv.width))


@dataclass
class NoteLine(TextLine):
    """A note for somebody: for the person chosen in a list (``about`` names them: the line is the
    note), or typed as a name, then the note."""

    limit: ClassVar[int] = NOTE_LINE_MAX
    about: str = ""

    def shown(self, width: int) -> str:
        prompt = f"Note for {printable(self.about)}: " if self.about else "Note for (a name, then the note): "
        return prompt + (self.edit.text + "_")[-max(8, width - len(prompt) - 1):]


@dataclass
class MarkLine(TextLine):
    """The name of somebody to mark a friend, or to mute (:attr:`kind`)."""

    limit: ClassVar[int] = CODE_MAX * 4
    kind: Marked = Marked.FRIEND

    def shown(self, width: int) -> str:
        prompt = "Your friend (a name): " if self.kind == Marked.FRIEND else "Mute (a name; they are not told): "
        return prompt + self.edit.text + "_"


@dataclass
class FriendsList(Box):
    """Your friends (online first, where they are; then offline, when last seen), then the people
    you muted.  Up/Down choose; n leaves the chosen a note (``note``), d takes them off (``unmark``),
    a marks a friend by name, m mutes somebody by name (``by_name``); Esc, q or f closes it."""

    rows: Callable[[], Sequence[FriendRow]] = _no_rows
    note: Callable[[FriendRow], object] = _ignore
    unmark: Callable[[FriendRow], object] = _ignore
    by_name: Callable[[Marked], object] = _ignore
    at: int = 0

    def key(self, host: DialogHost, name: str) -> None:
        rows = self.rows()
        n = len(rows)
        chosen = rows[min(self.at, n - 1)] if rows else None
        step = {"up": -1, "k": -1, "down": 1, "j": 1, "pageup": -PEOPLE_ROWS, "pagedown": PEOPLE_ROWS}.get(name)
        if step is not None:
            self.at = max(0, min(n - 1, self.at + step))
        elif name in ("n", "enter") and chosen is not None and chosen.kind == Marked.FRIEND:
            host.close()
            self.note(chosen)
        elif name in ("d", "delete") and chosen is not None:
            self.unmark(chosen)
        elif name in ("a", "m"):
            host.close()
            self.by_name(Marked.FRIEND if name == "a" else Marked.MUTE)
        elif name in ("escape", "q", "f"):
            host.close()

    def body(self, room: int, width: int) -> list[str]:
        rows = self.rows()
        n = len(rows)
        self.at = max(0, min(self.at, n - 1))
        room = max(3, min(PEOPLE_ROWS, room))
        first = min(max(0, self.at - room + 1), max(0, n - room))
        name_w = max(12, min(24, width - 40))
        out = [f"  {'Name':<{name_w}} {'Where':<18} {'Mark':<6}"]
        for i, f in enumerate(rows[first:first + room], first):
            mark = "friend" if f.kind == Marked.FRIEND else "muted"
            out.append(f"{'>' if i == self.at else ' '} {printable(f.name)[:name_w]:<{name_w}} {f.where[:18]:<18} {mark}")
        if not rows:
            out.append("  No friends yet: a adds one by name (or f in the online list, p).")
        more = f"{first + 1}-{first + min(room, n - first)} of {n}" if n > room else ""
        return [*out, "", *([more] if more else []),
                "n: note   d: take off   a: add a friend   m: mute a name   Esc: close"]

    def draw(self, cv: Canvas, seen: object, opts: Options) -> None:
        draw_box(cv, "Friends", self.body(cv.height - 10, cv.width), width=min(cv.width - 6, 76))


@dataclass
class NotesBox(Box):
    """The notes left for you, the newest first (the new ones marked): Up/Down choose, d deletes the
    chosen (``delete``), n leaves a note for somebody (``write``); Esc, q or m closes it."""

    rows: Callable[[], Sequence[NoteRow]] = _no_rows
    delete: Callable[[NoteRow], object] = _ignore
    write: Callable[[], object] = _ignore
    at: int = 0

    def key(self, host: DialogHost, name: str) -> None:
        rows = self.rows()
        n = len(rows)
        step = {"up": -1, "k": -1, "down": 1, "j": 1}.get(name)
        if step is not None:
            self.at = max(0, min(n - 1, self.at + step))
        elif name in ("d", "delete") and rows:
            self.delete(rows[min(self.at, n - 1)])
        elif name == "n":
            host.close()
            self.write()
        elif name in ("escape", "q", "m", "enter"):
            host.close()

    def body(self, room: int, width: int) -> list[str]:
        """Each note: who left it and when, then its text (wrapped, every character shown as text:
        no control character reaches the screen), the chosen marked; as many as ``room`` holds."""
        rows = self.rows()
        n = len(rows)
        self.at = max(0, min(self.at, n - 1))
        out: list[str] = [] if rows else ["No notes for you."]
        first = self.at
        # (from the chosen note on, as many whole notes as fit; the chosen one always shows)
        for i, note in enumerate(rows[first:], first):
            head = f"{'>' if i == self.at else ' '} {printable(note.who)}, {note.when}{'' if note.read else '  (new)'}"
            lines = [head, *("    " + w for w in wrap(printable(note.text), width - 6))]
            if out and len(out) + len(lines) > room:
                break
            out += lines
        more = f"note {self.at + 1} of {n}" if n > 1 else ""
        return [*out, "", *([more] if more else []), "Up/Down: choose   d: delete   n: leave a note   Esc: close"]

    def draw(self, cv: Canvas, seen: object, opts: Options) -> None:
        width = min(cv.width - 6, 76)
        draw_box(cv, "Notes for you", self.body(cv.height - 10, width), width=width)


@dataclass
class LobbyHelp(Info):
    """The lobby's keys (:data:`LOBBY_KEYS`) and the marks of its names; any key closes it.  An
    admin's keys show to admins only."""

    heading: str = "Lobby keys"
    admin: bool = False

    def draw(self, cv: Canvas, seen: object, opts: Options) -> None:
        keys = help_lines(admin=self.admin)
        legend = [line.format(verified=opts.glyphs.verified) for line in LEGEND]
        gap = [""]
        # At 80x24 the box (a box keeps 4 rows free; its frame and "(press any key)" take 4 more)
        # gives up, in turn, the blank line and the keys a person knows already (?, Ctrl-L, the
        # arrows), never the legend.
        spare = [k for k in keys if k.startswith(("?, F1", "Ctrl-L", "Up, Down"))]
        while len(keys) + len(gap) + len(legend) + 6 > cv.height and (gap or spare):
            if gap:
                gap = []
            else:
                keys.remove(spare.pop(0))
        self.text = [*keys, *gap, *legend]
        super().draw(cv, seen, opts)


@dataclass
class LeaveServer(Box):
    """"Leave the server?": y, Enter or q again leaves (``leave``); any other key stays."""

    QUESTION: ClassVar[str] = "Leave the server?"
    leave: Callable[[], object] = _ignore

    def key(self, host: DialogHost, name: str) -> None:
        host.close()
        if name in ("y", "enter", "q", "c-c"):
            self.leave()

    def draw(self, cv: Canvas, seen: object, opts: Options) -> None:
        draw_box(cv, "Leave", [self.QUESTION, "", "y: leave    n: stay"])


# ---------------------------------------------------------------------- the lobby


class LobbyPeople(Page):
    """The lobby's part about people (issue 18): invitations (a box that opens by itself), the
    online list and inviting from it, a private table's code, asking somebody to leave, and the
    admins' actions.  :class:`LobbyScreen` is the rest: tables, seats, chat, painting."""

    service: LobbyService
    selected: int | None
    _view: LobbyView | None
    _shown_invitations: dict[int, InvitationRow]

    @property
    def view(self) -> LobbyView:
        raise NotImplementedError

    def current(self) -> TableRow | None:
        raise NotImplementedError

    def go(self, where: Destination) -> None:
        raise NotImplementedError

    def offer_invitation(self, again: bool = False) -> bool:
        """An invitation not yet shown opens in a box, unless a box is open (it opens when that
        closes); ``again``: the first open one, shown or not (v).  Whether one opened."""
        if self.child is not None or self.done:
            return False
        for inv in self.view.invitations:
            if again or inv.id not in self._shown_invitations:
                self._shown_invitations[inv.id] = inv
                self._box(inv)
                return True
        return False

    def _box(self, inv: InvitationRow) -> None:
        self.open(InvitationBox(text=_invitation_text(inv), invitation=inv.id,
                                answer=lambda accept: self._answered(inv, accept),
                                later=lambda: self.say(f"{printable(inv.who)}'s invitation waits: y answers it")))

    def _answered(self, inv: InvitationRow, accept: bool) -> None:
        why, where = self.service.answer(inv.id, accept)
        if not accept:
            self.message = why or f"You declined {printable(inv.who)}'s invitation"
        else:
            self.selected = inv.table
            self._arrive(why, where, f"You sit at table {inv.table}: its creator starts it")

    def _arrive(self, why: str | None, where: Destination | None, seated: str) -> None:
        """After a join or an accepted invitation: the reason it failed, the table, or a seat claimed."""
        if why:
            self.message = why
        elif where is not None:
            self.go(where)
        else:
            self._view = None
            self.message = seated

    def my_table(self) -> TableRow | None:
        """The table this person invites people to: the chosen one if they sit there (or created
        it), else the first where they sit."""
        st = self.current()
        if st is not None and st.stage != TableState.OVER and (st.my_seat is not None or st.created_by_me):
            return st
        return next((t for t in self.view.tables if t.stage != TableState.OVER
                     and (t.my_seat is not None or t.created_by_me)), None)

    def _invite(self, person: PersonRow) -> None:
        st = self.my_table()
        if person.me:
            self.message = "That is you: choose somebody else to invite"
        elif st is None:
            self.message = "Sit at a table first (or create one with n): then invite people to it"
        else:
            self.message = (self.service.invite(person.key, st.id)
                            or f"{printable(person.name)} is invited to table {st.id}: you are told their answer")

    def _admin_ask(self, act: AdminAct, target: str, text: str, picked: bool = False) -> None:
        """Check an admin's action with the server first (whom, what): only then "Are you sure?"
        (``picked``: the target was chosen from a list, not typed)."""
        if act == AdminAct.BAN and (not target or ban_hours(text) is None):
            self.message = ("Say for how many hours, then why: e.g. 24 spam in the chat" if picked
                            else "Say whom, for how many hours, then why: e.g. eve 24 spam in the chat")
            return
        why, question = self.service.admin_ask(act, target, text)
        if why is not None:
            self.message = why
            return

        def do() -> None:
            self.message = self.service.admin(act, target, text)

        def nothing() -> None:
            self.message = "Nothing was done"
        self.open(Confirm("Are you sure?", question, [("y", "do it", do)], no=nothing, enter=True, no_label="cancel"))

    # ------------------------------------------------------------------ the boxes' answers
    def joined(self, code: str) -> None:
        if code.strip():
            self._arrive(*self.service.join(code), "You sit at that table")

    def dismissed(self, table: TableRow, seat: int) -> None:
        self.message = self.service.dismiss(table.id, seat) or f"You asked the person in seat {seat + 1} to leave"

    def admin_line(self, act: AdminAct, text: str = "", target: str = "", about: str = "") -> None:
        """What an admin's action needs, typed on the message line (a target picked from a list: the rest)."""
        line = AdminLine(act=act, text=text, target=target, about=about)
        line.then = lambda entered: self._admin_typed(line, entered)
        self.open(line)

    def _admin_typed(self, line: AdminLine, entered: str) -> None:
        if entered.strip():
            self._admin_ask(line.act, *line.parts(entered), picked=bool(line.target))

    def admin_act(self, act: AdminAct) -> None:
        st = self.current()
        self.admin_line(act, f"{st.id} " if act == AdminAct.CLOSE and st else "")

    def bans(self) -> None:
        self.open(BansPage(self.service.bans, lift=lambda ban: self._admin_ask(AdminAct.LIFT, ban.target, ""),
                           pick=lambda: self.open(BanPicker(self.service.visitors, chosen=self._ban_visitor))))

    def _ban_visitor(self, v: VisitorRow) -> None:
        self.admin_line(AdminAct.BAN, target=v.target, about=v.name)

    def online(self) -> None:
        self.open(OnlineList(lambda: self.view.people, self.view.admin, invite=self._invite,
                             ban=lambda p: self.admin_line(AdminAct.BAN, target=p.key, about=p.name),
                             mark=self._mark, note=lambda p: self.note_line(p.key, p.name)))

    # ------------------------------------------------------------------ friends, mutes, notes (issue 34)
    def _mark(self, person: PersonRow, kind: Marked, on: bool) -> None:
        self.message = self.service.mark(person.key, kind, on)
        self._view = None

    def friends(self) -> None:
        def unmark(f: FriendRow) -> None:
            self.message = self.service.mark(f.key, f.kind, False)
            self._view = None

        def by_name(kind: Marked) -> None:
            line = MarkLine(kind=kind)
            line.then = lambda name: self._mark_name(name, kind)
            self.open(line)
        self.open(FriendsList(self.service.friends, note=lambda f: self.note_line(f.key, f.name), unmark=unmark,
                              by_name=by_name))

    def _mark_name(self, name: str, kind: Marked) -> None:
        if name.strip():
            self.message = self.service.mark_name(name, kind)
            self._view = None

    def note_line(self, to: str = "", about: str = "") -> None:
        """A note typed on the message line: for ``to`` (a key, shown as ``about``), or a name then the note."""
        line = NoteLine(about=about)
        line.then = lambda text: self._leave_note(to, text)
        self.open(line)

    def _leave_note(self, to: str, text: str) -> None:
        if not to:
            name, _, text = text.strip().partition(" ")
            to = name.strip(",;:")
        if text.strip() or to:
            self.message = self.service.leave_note(to, text)

    def notes(self) -> None:
        """The notes left for this person; those shown are read from now on (their "new" marks stay
        while the box is open)."""
        shown = list(self.service.notes())
        self.service.read_notes(tuple(n.id for n in shown if not n.read))

        def delete(note: NoteRow) -> None:
            self.message = self.service.delete_note(note.id)
            shown[:] = [n for n in shown if n.id != note.id]
            self._view = None
        self.open(NotesBox(lambda: shown, delete=delete, write=self.note_line))


class LobbyScreen(LobbyPeople):
    """The lobby of one connection (a :class:`~.app.Screen`): it ends when the person goes to a
    table (:attr:`destination`) or leaves the server (:attr:`destination` None)."""

    title: ClassVar[str] = "tables on this server"

    def __init__(self, service: LobbyService, note: str = "", records: RecordService | None = None,
                 club: ClubService | None = None) -> None:
        super().__init__()
        self.service = service
        self.records = records               # the person's own record (i, l, o, v); None: not at this server
        self.club = club                     # the club's evenings and partnerships (t, b); None: none kept
        self.selected: int | None = None     # the chosen table's id
        self.message = note                  # one line of feedback
        self.destination: Destination | None = None
        self._view: LobbyView | None = None
        #: Invitations shown in a box already (Esc leaves them for later: y).
        self._shown_invitations: dict[int, InvitationRow] = {}
        service.subscribe(self._changed)
        if self.view.notes:
            # (notes left while this person was away: shown as they come in)
            self.notes()
        self.offer_invitation()

    # ------------------------------------------------------------------ what the server tells
    def unsubscribe(self) -> None:
        self.service.unsubscribe(self._changed)

    @property
    def view(self) -> LobbyView:
        """What the lobby shows: asked of the server again after each change it tells (whoever made
        it: this person's commands too) and each line it sends.  A chosen table that went gives way
        to the person's own table."""
        if self._view is None:
            self._view = view = self.service.view()
            if view.table(self.selected) is None:
                self.selected = _default(view)
        return self._view

    def _changed(self) -> None:
        self._view = None
        self._close_withdrawn()
        self._refresh_invitation()
        self.offer_invitation()
        self.on_change()

    def _close_withdrawn(self) -> None:
        """A box whose invitation is no longer open (its table went, it was answered elsewhere) closes,
        saying so: it could not answer anything."""
        box = self.child
        if isinstance(box, InvitationBox) and all(i.id != box.invitation for i in self.view.invitations):
            self.child = None
            inv = self._shown_invitations[box.invitation]
            self.message = f"{printable(inv.who)}'s invitation to table {inv.table} is no longer open"

    def _refresh_invitation(self) -> None:
        """An invitation's box says how its table is now (its seats fill while it is open)."""
        box = self.child
        if isinstance(box, InvitationBox):
            inv = next((i for i in self.view.invitations if i.id == box.invitation), None)
            if inv is not None:
                box.text = _invitation_text(inv)

    def go(self, where: Destination) -> None:
        """The server seats this player (their table started): the lobby gives way to the table."""
        self.destination = where
        self.done = True
        self.on_change()

    def notify(self, text: str) -> None:
        self.message = text
        self._view = None
        self.on_change()

    # ------------------------------------------------------------------ what is chosen
    def current(self) -> TableRow | None:
        return self.view.table(self.selected)

    # ------------------------------------------------------------------ keys
    def handle(self, name: str) -> None:
        """Ctrl-C anywhere, and q on a screen too small to show more, ask "Leave the server?";
        other keys go to the open box, else to :data:`COMMANDS` through :data:`LOBBY_KEYS`."""
        child = self.child
        if not isinstance(child, LeaveServer) and (name == "c-c" or self.too_small):
            if name in ("q", "c-c"):
                self.open(LeaveServer(self.leave))
            return
        if child is not None:
            if isinstance(child, Dialog):
                child.key(self, name)            # (it closes itself, then acts)
            else:
                child.handle(name)
                if child.done and self.child is child:
                    self.child = None
                    self.child_done(child)
            self.offer_invitation()
            return
        command = LOBBY.for_key(name)
        if command is not None and (command not in ADMIN_COMMANDS or self.view.admin):
            self.message = ""
            COMMANDS[command](self, name)

    def leave(self) -> None:
        self.destination = None
        self.done = True

    def create(self, f: NewTable) -> None:
        try:
            rules = load_rules(f.presets[f.preset]).replace(target_score=f.target)
        except RulesError as exc:
            self.message = f"The table was not created: {printable(str(exc))}"
            return
        settings = f.settings()
        got = self.service.create(rules, LEVELS[f.level], settings, f.timer)
        if isinstance(got, str):         # (somebody else's table took the last place meanwhile)
            self.message = got
            return
        self.selected = got
        self._view = None
        row = self.view.table(got)
        if settings.access == Access.CODE and row is not None and row.code:
            self.message = f"Table {got} is yours; its code is {row.code}: give it to whom you want to play with"
        elif settings.access == Access.INVITE:
            self.message = f"Table {got} is yours: press p to invite people; s starts it"
        else:
            self.message = f"Table {got} is yours: you sit as Player 1; press s to start when everybody is seated"

    def reclaim(self, code: str) -> None:
        why = self.service.reclaim(code)
        if why:
            self.message = why
            return
        self._view = None
        self.selected = _default(self.view)
        where = self.service.home()
        if where is not None:
            self.go(where)
        else:
            self.message = "That seat is yours again"

    # ------------------------------------------------------------------ painting
    def paint(self, width: int, height: int, opts: Options) -> Canvas:
        if not too_small(width, height):
            return super().paint(width, height, opts)
        cv = Canvas(width, height)
        cv.glyphs = opts.glyphs
        question = f"{LeaveServer.QUESTION} y: leave, n: stay" if isinstance(self.child, LeaveServer) else ""
        draw_too_small(cv, "q leaves", question)
        return cv

    def draw_frame(self, cv: Canvas, opts: Options) -> None:
        """The header as every page's (who you are and how many are online on its right), the
        lobby's message line (unless a line is being typed there) and its command bar."""
        g = opts.glyphs
        v = self.view
        who = f"{printable(v.label)}{' ' + g.verified if v.verified else ''}"
        code = f" (guest, code {v.guest_code})" if v.guest_code else ""
        notes = f"{v.notes} new note{'s' if v.notes != 1 else ''} (m) {g.dash} " if v.notes else ""
        right = f"{who}{code} {g.dash} {notes}{v.online} online "
        cv.fill(0, 0, cv.width, 1, "header")
        cv.put(0, max(0, cv.width - len(right)), right, "header")
        cv.put(0, 0, f" CANASTA {g.dash} {self.title}"[: max(0, cv.width - len(right) - 1)], "header")
        if self.message and not isinstance(self.child, TextLine):
            # Up to 5 rows (over the chat): an admin's reason for closing a table (200 characters)
            # is read whole.
            put_lines_up(cv, cv.height - 2, 0, printable(self.message), "message", most=5)
        _bar(self, cv, cv.height - 1)

    def draw_body(self, cv: Canvas, opts: Options, top: int, rows: int) -> None:
        g = opts.glyphs
        width, height = cv.width, cv.height
        v = self.view
        tables = v.tables
        list_rows = max(3, height - 17)
        top = 0
        if v.motd:
            # Each line of a multi-line message its own (a line too long for the screen is cut).
            motd = [printable(said) for said in v.motd.split("\n")][:MOTD_ROWS]
            list_rows = max(2, list_rows - len(motd))
            for i, said in enumerate(motd):
                cv.put(1 + i, 0, f" {said}"[:width], "title")
            top = len(motd)
        full = Region(cv, 0, 1 + top, width, height - 1 - top)
        full.heading(0, "Tables", f"{len(tables)} table{'s' if len(tables) != 1 else ''}")
        if not tables:
            full.put(1, 2, "No tables yet: press n to create one.", "dim")
        ids = [t.id for t in tables]
        at = ids.index(self.selected) if self.selected in ids else 0
        first = min(max(0, at - list_rows // 2), max(0, len(tables) - list_rows))
        for row, st in enumerate(tables[first:first + list_rows]):
            chosen = st.id == self.selected
            full.put(1 + row, 0, (">" if chosen else " ") + " " + _row(st, width - 2), "cursor" if chosen else "")
        y = 1 + list_rows
        shown = self.current()
        if shown is not None:
            code = f" {g.dash} code {shown.code}" if shown.code else ""
            full.heading(y, f"Table {shown.id}{code}", _state(shown))
            for i, info in enumerate(shown.seats):
                _seat_line(full, y + 1 + i, i, info, g.verified)
            y += 1 + max(4, shown.players)
        else:
            full.heading(y, "Table")
            y += 5
        chat_top = y
        full.heading(chat_top, "Lobby chat")
        room = height - 1 - top - chat_top - 3
        lines: list[str] = []
        for line in reversed(v.chat):
            mark = g.verified if line.verified else ""
            wrapped = wrap(f"{printable(line.who)}{mark}: {printable(line.text)}", width - 2)
            if len(lines) + len(wrapped) > room:
                break
            lines[:0] = wrapped
        for i, text in enumerate(lines):
            full.put(chat_top + 1 + i, 1, text)


def _bar(lobby: LobbyScreen, cv: Canvas, y: int) -> None:
    """The lobby's command bar: the keys that act on the chosen table lit, the others dim."""
    st = lobby.current()
    forming = st is not None and st.stage == TableState.FORMING
    items = [
        ("[N]ew", True),
        (f"[1-{st.players if st is not None else 4}] sit", st is not None and st.stage != TableState.OVER),
        ("[W]atch", st is not None and st.stage != TableState.FORMING),
        ("[S]tart", forming and st is not None and st.created_by_me),
        ("[U]p", forming and st is not None and st.my_seat is not None),
        ("[C]hat", True),
        ("[P]eople", True),
        ("[F]riends", True),
        *([("[I]nfo", True), ("[O]ptions", True)] if lobby.records is not None else []),
        *([("[A]dmin", True)] if lobby.view.admin else []),
        ("[?]Help", True),
        ("[Q]uit", True),
    ]
    # At 80 columns not every key fits: the dim ones go first, then Info and Options (in the help).
    def width() -> int:
        return sum(len(label) + 1 if on else len(label.replace("[", "").replace("]", "")) + 3 for label, on in items) - 1
    for label, on in [*items]:
        if width() > cv.width and not on:
            items.remove((label, on))
    for optional in ("[O]ptions", "[I]nfo", "[F]riends", "[P]eople"):
        if width() > cv.width and (optional, True) in items:
            items.remove((optional, True))
    x = 0
    for label, on in items:
        if on:
            a, rest = label.split("[", 1)
            key, b = rest.split("]", 1)
            x = cv.put(y, x, a, "bar.on")
            x = cv.put(y, x, "[" + key + "]", "bar.key")
            x = cv.put(y, x, b, "bar.on")
        else:
            x = cv.put(y, x, " " + label.replace("[", "").replace("]", "") + " ", "bar.off")
        x += 1


def _default(view: LobbyView) -> int | None:
    """The table chosen at first: the person's own table if any, else the first one."""
    mine = [t for t in view.tables if t.my_seat is not None and t.stage != TableState.OVER]
    pick = mine[0] if mine else (view.tables[0] if view.tables else None)
    return pick.id if pick is not None else None


def _row(st: TableRow, width: int) -> str:
    head = f"{st.id:>3}  {st.rules:<12} {st.level:<9} to {points(st.target):<6} "
    return head + first_fit(_state(st), width - len(head))


def _state(st: TableRow) -> list[str]:
    """Where the table is, fullest first: its kind's words stay whole while a shorter stage makes
    room for them; then the least important go ("not watched", then "private"), "(rated)" last."""
    stages = _stage(st)
    forms = [stage + kind for kind in _kinds(st) for stage in stages]
    return list(dict.fromkeys(forms))


def _kinds(st: TableRow) -> list[str]:
    """A table's kind in a few words, where it is not the usual (open, watched, unrated), fullest
    first: each shorter form drops the least important word left ("rated" stays to the end)."""
    words = [(2, "private") if st.access != Access.OPEN else None, (3, "not watched") if not st.watchable else None,
             (1, "rated") if st.rated else None]
    kept = [w for w in words if w is not None]
    forms: list[str] = []
    while kept:
        forms.append(f" ({', '.join(word for _, word in kept)})")
        kept.remove(max(kept))
    return [*forms, ""]


def _invitation_text(inv: InvitationRow) -> str:
    """What an invitation's box says: who invites, to which table, and how that table is now."""
    about = f" ({inv.about})" if inv.about else ""
    return f"{inv.who} invites you to table {inv.table}{about}."


def _stage(st: TableRow) -> list[str]:
    if st.stage == TableState.FORMING:
        seated = f"{st.seated} of {st.players} seated"
        return [f"forming: {seated}, {printable(st.creator)} starts it", f"forming: {seated}", seated]
    if st.stage == TableState.OVER:
        return [f"over: {st.winner}", "over"]
    paused = ", paused: nobody there" if st.paused else ""
    short = ", paused" if st.paused else ""
    return [f"hand {st.hand}  {st.score}{paused}", f"hand {st.hand}  {st.score}{short}", f"{st.score}{short}",
            f"hand {st.hand}{short}"]


def _seat_line(r: Region, row: int, seat: int, info: SeatInfo, verified: str) -> None:
    name = printable(info.name) + (verified if info.verified else "")
    you = " (you)" if info.mine else ""
    text, style = {
        SeatState.FREE: ("free", "dim"),
        SeatState.HUMAN: (f"{name}{you}", "name"),
        SeatState.AWAY: (f"{name}{you}: away, {info.note}", "frozen"),
        SeatState.COMPUTER: (f"computer{' for ' + name if name else ''}{you}", ""),
        SeatState.CLAIMED: (f"computer; {name}{you} {info.note}", ""),
    }[info.occupant]
    r.put(row, 2, f"{seat + 1}", "count")
    r.put(row, 5, text, style)


# ---------------------------------------------------------------------- the lobby's commands

#: A command of the lobby: what a key of :data:`LOBBY_KEYS` does (given the lobby and the key pressed).
LobbyCommand = Callable[[LobbyScreen, str], None]
#: The lobby's commands, checked against :data:`LOBBY_KEYS` at the end of this module (on import).
LOBBY: CommandTable[LobbyCommand] = CommandTable("the lobby's", LOBBY_KEYS)
COMMANDS: dict[str, LobbyCommand] = LOBBY.commands
command = LOBBY.command


def move(lobby: LobbyScreen, step: int) -> None:
    """The chosen table moves ``step`` places (within the list)."""
    ids = [t.id for t in lobby.view.tables]
    if not ids:
        return
    i = ids.index(lobby.selected) if lobby.selected in ids else 0
    lobby.selected = ids[max(0, min(len(ids) - 1, i + step))]


@command("up")
def up(lobby: LobbyScreen, key: str) -> None:
    move(lobby, -1)


@command("down")
def down(lobby: LobbyScreen, key: str) -> None:
    move(lobby, 1)


@command("first")
def first(lobby: LobbyScreen, key: str) -> None:
    move(lobby, -len(lobby.view.tables))


@command("last")
def last(lobby: LobbyScreen, key: str) -> None:
    move(lobby, len(lobby.view.tables))


@command("new")
def new(lobby: LobbyScreen, key: str) -> None:
    why = lobby.service.may_create()
    if why:
        lobby.message = why          # (before the form: it could not be used)
    else:
        seated = next((t for t in lobby.view.tables if t.stage == TableState.FORMING and t.my_seat is not None), None)
        leaves = f"Creating it gives up your seat at table {seated.id}" if seated is not None else ""
        lobby.open(NewTableForm(lobby.service.turn_timers(), leaves, lobby.create))


@command("sit")
def sit(lobby: LobbyScreen, key: str) -> None:
    """A digit: sit in that seat of the chosen table."""
    sit_at(lobby, int(key) - 1)


def sit_at(lobby: LobbyScreen, seat: int) -> None:
    st = lobby.current()
    if st is None:
        lobby.message = "There is no table yet: press n to create one"
        return
    why, where = lobby.service.sit(st.id, seat)
    if why:
        lobby.message = why
    elif where is not None:
        lobby.go(where)
    elif st.stage == TableState.FORMING:
        lobby.message = f"You sit as Player {seat + 1} at table {st.id}: " + (
            "press s to start" if st.created_by_me else f"{printable(st.creator)} starts the table")


@command("enter")
def enter(lobby: LobbyScreen, key: str) -> None:
    st = lobby.current()
    if st is None:
        lobby.message = "There is no table yet: press n to create one"
        return
    if st.stage == TableState.FORMING:
        if st.my_seat is not None:
            # The creator of a coded table sees its code here again (a long header cuts it).
            code = f"; its code: {st.code} (give it to your friends)" if st.code else ""
            lobby.message = ("Press s to start the table" + code if st.created_by_me
                             else f"Waiting for {printable(st.creator)} to start the table")
            return
        free = st.free_seat
        if free is None:
            lobby.message = "Every seat is taken"
            return
        sit_at(lobby, free)
    elif st.my_seat is not None and st.stage == TableState.PLAYING:
        sit_at(lobby, st.my_seat)
    else:
        watch(lobby, key)


@command("watch")
def watch(lobby: LobbyScreen, key: str) -> None:
    st = lobby.current()
    if st is None:
        lobby.message = "There is no table yet: press n to create one"
    elif st.stage == TableState.FORMING:
        lobby.message = "This table has not started yet: there is nothing to watch"
    elif not st.watchable and st.my_seat is None and not st.created_by_me:
        lobby.message = f"Table {st.id} is not watched: its creator chose so"
    else:
        lobby.go(Destination(st.id, None))


@command("start")
def start(lobby: LobbyScreen, key: str) -> None:
    st = lobby.current()
    if st is None:
        lobby.message = "There is no table yet: press n to create one"
        return
    why = lobby.service.start(st.id)
    if why:
        lobby.message = why


@command("stand")
def stand(lobby: LobbyScreen, key: str) -> None:
    st = lobby.current()
    if st is not None:
        lobby.message = lobby.service.stand(st.id) or "You stood up"


@command("chat")
def chat(lobby: LobbyScreen, key: str) -> None:
    lobby.open(ChatLine(lambda text: setattr(lobby, "message", lobby.service.say(text) or "")))


@command("people")
def people(lobby: LobbyScreen, key: str) -> None:
    lobby.online()


@command("answer")
def answer(lobby: LobbyScreen, key: str) -> None:
    if not lobby.offer_invitation(again=True):
        lobby.message = "Nobody has invited you to a table"


@command("join")
def join(lobby: LobbyScreen, key: str) -> None:
    lobby.open(JoinLine(lobby.joined))


@command("dismiss")
def dismiss(lobby: LobbyScreen, key: str) -> None:
    st = lobby.current()
    if st is None or st.stage != TableState.FORMING or not st.created_by_me:
        lobby.message = "Only the creator of a table not started may ask somebody to leave it"
    elif all(s.occupant == SeatState.FREE or s.mine for s in st.seats):
        lobby.message = "Nobody else sits at this table"
    else:
        lobby.open(SeatQuestion(st, lambda seat: lobby.dismissed(st, seat)))


@command("friends")
def friends(lobby: LobbyScreen, key: str) -> None:
    lobby.friends()


@command("notes")
def notes(lobby: LobbyScreen, key: str) -> None:
    lobby.notes()


@command("admin")
def admin(lobby: LobbyScreen, key: str) -> None:
    lobby.open(AdminMenu(lobby.admin_act, lobby.bans))


@command("code")
def code(lobby: LobbyScreen, key: str) -> None:
    if lobby.view.verified:
        lobby.message = "Your key is who you are here: your seats come back to you by themselves"
    else:
        lobby.open(CodeLine(lobby.reclaim))


# A person's own record (ui/records.py): i, l, o, v.
def _sort(records: RecordService) -> str:
    """The person's hand order, as at their tables, in their record's and the table's replays."""
    return str(records.option_values().get("sort", "rank"))


def _records(lobby: LobbyScreen) -> RecordService | None:
    """The server's records; None where it keeps none, and the message line says so."""
    if lobby.records is None:
        lobby.message = "This server keeps no records"
    return lobby.records


@command("record")
def record(lobby: LobbyScreen, key: str) -> None:
    if (records := _records(lobby)) is not None:
        lobby.open(RecordPage(records, _sort(records)))


@command("leaderboard")
def leaderboard(lobby: LobbyScreen, key: str) -> None:
    if (records := _records(lobby)) is not None:
        lobby.open(LeaderboardPage(records))


@command("person_options")
def person_options(lobby: LobbyScreen, key: str) -> None:
    if (records := _records(lobby)) is not None:
        lobby.open(PersonOptionsPage(records))


@command("replay")
def replay(lobby: LobbyScreen, key: str) -> None:
    if (records := _records(lobby)) is None:
        return
    st = lobby.current()
    got = records.table_replay(st.id) if st is not None else "There is no table yet: nothing to replay"
    if isinstance(got, str):
        lobby.message = got
    else:
        lobby.open(ReplayPage(got, _sort(records)))


# The club's records (ui/club.py): t, b.
def _club(lobby: LobbyScreen) -> ClubService | None:
    if lobby.club is None:
        lobby.message = "This server keeps no records"
    return lobby.club


@command("tonight")
def tonight(lobby: LobbyScreen, key: str) -> None:
    if (club := _club(lobby)) is not None:
        lobby.open(TonightPage(club))


@command("partnerships")
def partnerships(lobby: LobbyScreen, key: str) -> None:
    if (club := _club(lobby)) is not None:
        lobby.open(PartnershipsPage(club))


@command("redraw")
def redraw(lobby: LobbyScreen, key: str) -> None:
    """(The app itself repaints every cell at Ctrl-L.)"""


@command("help")
def show_help(lobby: LobbyScreen, key: str) -> None:
    lobby.open(LobbyHelp(admin=lobby.view.admin))


@command("quit")
def leave(lobby: LobbyScreen, key: str) -> None:
    lobby.open(LeaveServer(lobby.leave))


LOBBY.check()


__all__ = ["ADMIN_COMMANDS", "CODE_MAX", "COMMANDS", "LOBBY", "LOBBY_KEYS",
           "TARGETS", "AdminLine", "AdminMenu", "BanPicker", "BansPage",
           "ChatLine",
           "CodeLine", "FriendsList", "JoinLine", "LeaveServer", "LobbyHelp", "LobbyPeople", "LobbyScreen",
           "MarkLine", "NewTable", "NewTableForm", "NoteLine", "NotesBox", "OnlineList", "SeatQuestion", "TextLine", "help_lines"]
