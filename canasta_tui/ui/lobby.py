"""The lobby: the first screen of a connection to ``canasta serve``.

It lists the server's tables (rules, computer level, score to play to, the score, who sits
where), and from it a player creates a table, sits in a free seat, takes a computer's seat
(from the next deal), watches a table, starts the table they created, and chats with
everybody in the lobby.

It is a :class:`~.pages.Page` like the start menu: its keys at the list of tables are one
table (:data:`LOBBY_KEYS`) checked against their commands (:data:`COMMANDS`) when this module
is imported, and the new-table form, the chat line, a guest's code, the help and "Leave the
server?" are child pages opened over it.  It draws a :class:`~.lobbyview.LobbyView` and acts
through a :class:`~.lobbyview.LobbyService`: the server (``canasta_tui.server``) implements
that, and nothing here imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from ..ai import LEVELS
from ..engine import RulesError
from ..presets import load_rules, preset_names
from ..text import printable
from .canvas import Canvas, Options, Region, draw_box, draw_too_small, too_small, wrap
from .dialogs import CHAT_MAX
from .keys import KeyHelp, check_commands
from .lineedit import LineEdit, list_move
from .lobbyview import Destination, LobbyService, LobbyView, SeatInfo, SeatState, TableRow, TableState
from .menu import Info
from .pages import Page

#: The longest seat code a guest can type (``K7PX-M2QA`` and some slack).
CODE_MAX = 16
#: Scores a new table can play to (the preset's own is added if it is not among them).
TARGETS = (1500, 3000, 5000, 7500, 10000)


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
    KeyHelp("code", ("r",), "r", "a guest types the code of their seat to get it back"),
    KeyHelp("redraw", (), "Ctrl-L", "redraw the screen"),
    KeyHelp("help", ("?", "f1"), "?, F1", "these keys"),
    KeyHelp("quit", ("q", "c-c"), "q", "leave the server (asks first)"),
]

#: The help box's lines below the keys: the marks of the lobby's names.
LEGEND = ("{verified} after a name: a person known by their SSH key",
          "~ before a name: a guest, who came without a key")


def help_lines(keys: Sequence[KeyHelp] = LOBBY_KEYS) -> list[str]:
    """The help box's key lines (as the lobby's help shows them)."""
    shown = [k for k in keys if k.label]
    width = max(len(k.label) for k in shown) + 2
    return [f"{k.label:<{width}}{k.description}" for k in shown]


# ---------------------------------------------------------------------- the boxes over the lobby


@dataclass
class NewTable:
    """The form of a new table: rules preset, computer level, score to play to, turn timer."""

    presets: list[str] = field(default_factory=preset_names)
    preset: int = 0
    level: int = 1
    target: int = 5000
    row: int = 0
    #: The turn timer's choices (seconds; 0: none, the default) and the one chosen.
    timers: tuple[int, ...] = (0,)
    timer: int = 0

    ROWS: ClassVar[int] = 4

    def __post_init__(self) -> None:
        if "classic" in self.presets:
            self.preset = self.presets.index("classic")

    def targets(self) -> list[int]:
        return sorted({*TARGETS, self.target})

    def change(self, step: int) -> None:
        if self.row == 0:
            self.preset = (self.preset + step) % len(self.presets)
        elif self.row == 1:
            self.level = (self.level + step) % len(LEVELS)
        elif self.row == 3:
            i = self.timers.index(self.timer) if self.timer in self.timers else 0
            self.timer = self.timers[(i + step) % len(self.timers)]
        else:
            ts = self.targets()
            self.target = ts[(ts.index(self.target) + step) % len(ts)]

    def lines(self) -> list[str]:
        fields = [("Rules", self.presets[self.preset]), ("Computers", LEVELS[self.level]),
                  ("Play to", str(self.target)),
                  ("Per turn", f"{self.timer} s" if self.timer else "off")]
        out = []
        for i, (label, value) in enumerate(fields):
            mark = ">" if i == self.row else " "
            out.append(f"{mark} {label + ':':<11}< {value} >")
        return [*out, "", "Up/Down: choose a line   Left/Right: change it", "Enter: create the table   Esc: cancel"]


class NewTableForm(Page):
    """The new-table form in a box over the lobby; :attr:`create` once Enter took it."""

    overlay: ClassVar[bool] = True

    def __init__(self, timers: tuple[int, ...] = (0,)) -> None:
        super().__init__()
        self.form = NewTable(timers=timers)
        self.create = False

    def on_key(self, name: str) -> None:
        f = self.form
        row = list_move(name, f.row, f.ROWS, cycle=True)
        if row is not None:
            f.row = row
        elif name in ("escape", "q"):
            self.done = True
        elif name in ("left", "h"):
            f.change(-1)
        elif name in ("right", "l", "space"):
            f.change(1)
        elif name == "enter":
            self.create = self.done = True

    def draw(self, cv: Canvas, opts: Options) -> None:
        draw_box(cv, "New table", self.form.lines())


class TextLine(Page):
    """A line typed on the lobby's message line (:class:`~.lineedit.LineEdit`): Enter takes it
    (:attr:`entered`), Esc cancels.  Any other key edits the line, so that a stray arrow key
    never throws away what was typed."""

    overlay: ClassVar[bool] = True
    prompt: ClassVar[str] = ""
    limit: ClassVar[int] = CHAT_MAX

    def __init__(self) -> None:
        super().__init__()
        self.edit = LineEdit("", self.limit)
        self.entered: str | None = None

    def on_key(self, name: str) -> None:
        if name == "escape":
            self.done = True
        elif name == "enter":
            self.entered, self.done = self.edit.text, True
        else:
            self.edit.key(name)

    def shown(self, width: int) -> str:
        return self.prompt + self.edit.text + "_"

    def draw(self, cv: Canvas, opts: Options) -> None:
        y = cv.height - 2
        cv.fill(y, 0, cv.width, 1)
        cv.put(y, 0, self.shown(cv.width)[: cv.width], "message")


class ChatLine(TextLine):
    """A line to everybody in the lobby (its end shows while it is longer than the screen)."""

    prompt: ClassVar[str] = "Say: "

    def shown(self, width: int) -> str:
        return self.prompt + (self.edit.text + "_")[-(width - 8):]


class CodeLine(TextLine):
    """A guest types the code of their seat."""

    prompt: ClassVar[str] = "Your seat's code (Enter: take the seat, Esc: cancel): "
    limit: ClassVar[int] = CODE_MAX


class LobbyHelp(Info):
    """The lobby's keys (:data:`LOBBY_KEYS`) and the marks of its names; any key closes it."""

    def __init__(self) -> None:
        super().__init__("Lobby keys", [])

    def draw(self, cv: Canvas, opts: Options) -> None:
        self.lines = [*help_lines(), "", *(line.format(verified=opts.glyphs.verified) for line in LEGEND)]
        super().draw(cv, opts)


class LeaveServer(Page):
    """"Leave the server?": y, Enter or q again leaves (:attr:`leave`); any other key stays."""

    overlay: ClassVar[bool] = True
    QUESTION: ClassVar[str] = "Leave the server?"

    def __init__(self) -> None:
        super().__init__()
        self.leave = False

    def handle(self, name: str) -> None:
        self.leave = name in ("y", "enter", "q", "c-c")
        self.done = True

    def draw(self, cv: Canvas, opts: Options) -> None:
        draw_box(cv, "Leave", [self.QUESTION, "", "y: leave    n: stay"])


# ---------------------------------------------------------------------- the lobby


class LobbyScreen(Page):
    """The lobby of one connection (a :class:`~.app.Screen`): it ends when the person goes to a
    table (:attr:`destination`) or leaves the server (:attr:`destination` None)."""

    title: ClassVar[str] = "tables on this server"

    def __init__(self, service: LobbyService, note: str = "") -> None:
        super().__init__()
        self.service = service
        self.selected: int | None = None     # the chosen table's id
        self.message = note                  # one line of feedback
        self.destination: Destination | None = None
        self._view: LobbyView | None = None
        service.subscribe(self._changed)

    # ------------------------------------------------------------------ what the server tells
    def close(self) -> None:
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
        self.on_change()

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

    def _move(self, step: int) -> None:
        ids = [t.id for t in self.view.tables]
        if not ids:
            return
        i = ids.index(self.selected) if self.selected in ids else 0
        self.selected = ids[max(0, min(len(ids) - 1, i + step))]

    # ------------------------------------------------------------------ keys
    def handle(self, name: str) -> None:
        """Ctrl-C anywhere, and q on a screen too small to show more, ask "Leave the server?";
        other keys go to the open box, else to :data:`COMMANDS` through :data:`LOBBY_KEYS`."""
        child = self.child
        if not isinstance(child, LeaveServer) and (name == "c-c" or self.too_small):
            if name in ("q", "c-c"):
                self.open(LeaveServer())
            return
        if child is not None:
            child.handle(name)
            if child.done and self.child is child:
                self.child = None
                self.child_done(child)
            return
        command = _BY_KEY.get(name)
        if command is not None:
            self.message = ""
            COMMANDS[command](self, name)

    def child_done(self, child: Page) -> None:
        if isinstance(child, LeaveServer):
            if child.leave:
                self.destination = None
                self.done = True
        elif isinstance(child, NewTableForm):
            if child.create:
                self._create(child.form)
        elif isinstance(child, ChatLine):
            if child.entered is not None:
                self.message = self.service.say(child.entered) or ""
        elif isinstance(child, CodeLine):
            if child.entered is not None:
                self._reclaim(child.entered)

    # ------------------------------------------------------------------ the commands of LOBBY_KEYS
    def cmd_new(self) -> None:
        why = self.service.may_create()
        if why:
            self.message = why          # (before the form: it could not be used)
        else:
            self.open(NewTableForm(self.service.turn_timers()))

    def cmd_code(self) -> None:
        if self.view.verified:
            self.message = "Your key is who you are here: your seats come back to you by themselves"
        else:
            self.open(CodeLine())

    def cmd_stand(self) -> None:
        st = self.current()
        if st is not None:
            self.message = self.service.stand(st.id) or "You stood up"

    def _create(self, f: NewTable) -> None:
        try:
            rules = load_rules(f.presets[f.preset]).replace(target_score=f.target)
        except RulesError as exc:
            self.message = f"The table was not created: {printable(str(exc))}"
            return
        got = self.service.create(rules, LEVELS[f.level], f.timer)
        if isinstance(got, str):         # (somebody else's table took the last place meanwhile)
            self.message = got
            return
        self.selected = got
        self.message = f"Table {got} is yours: you sit as Player 1; press s to start when everybody is seated"

    def _reclaim(self, code: str) -> None:
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

    def _sit(self, seat: int) -> None:
        st = self.current()
        if st is None:
            self.message = "There is no table yet: press n to create one"
            return
        why, where = self.service.sit(st.id, seat)
        if why:
            self.message = why
        elif where is not None:
            self.go(where)
        elif st.stage == TableState.FORMING:
            self.message = f"You sit as Player {seat + 1} at table {st.id}: " + (
                "press s to start" if st.created_by_me else f"{printable(st.creator)} starts the table")

    def _enter(self) -> None:
        st = self.current()
        if st is None:
            self.message = "There is no table yet: press n to create one"
            return
        if st.stage == TableState.FORMING:
            if st.my_seat is not None:
                self.message = ("Press s to start the table" if st.created_by_me
                                else f"Waiting for {printable(st.creator)} to start the table")
                return
            free = st.free_seat
            if free is None:
                self.message = "Every seat is taken"
                return
            self._sit(free)
        elif st.my_seat is not None and st.stage == TableState.PLAYING:
            self._sit(st.my_seat)
        else:
            self._watch()

    def _watch(self) -> None:
        st = self.current()
        if st is None:
            self.message = "There is no table yet: press n to create one"
        elif st.stage == TableState.FORMING:
            self.message = "This table has not started yet: there is nothing to watch"
        else:
            self.go(Destination(st.id, None))

    def _start(self) -> None:
        st = self.current()
        if st is None:
            self.message = "There is no table yet: press n to create one"
            return
        why = self.service.start(st.id)
        if why:
            self.message = why

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
        right = f"{who}{code} {g.dash} {v.online} online "
        cv.fill(0, 0, cv.width, 1, "header")
        cv.put(0, max(0, cv.width - len(right)), right, "header")
        cv.put(0, 0, f" CANASTA {g.dash} {self.title}"[: max(0, cv.width - len(right) - 1)], "header")
        if self.message and not isinstance(self.child, TextLine):
            cv.put(cv.height - 2, 0, self.message[: cv.width], "message")
        self._bar(cv, cv.height - 1)

    def draw_body(self, cv: Canvas, opts: Options, top: int, rows: int) -> None:
        g = opts.glyphs
        width, height = cv.width, cv.height
        v = self.view
        tables = v.tables
        list_rows = max(3, height - 17)
        full = Region(cv, 0, 1, width, height - 1)
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
            full.heading(y, f"Table {shown.id}", _state(shown))
            for i, info in enumerate(shown.seats):
                _seat_line(full, y + 1 + i, i, info, g.verified)
            y += 1 + max(4, shown.players)
        else:
            full.heading(y, "Table")
            y += 5
        chat_top = y
        full.heading(chat_top, "Lobby chat")
        room = height - 1 - chat_top - 3
        lines: list[str] = []
        for line in reversed(v.chat):
            mark = g.verified if line.verified else ""
            wrapped = wrap(f"{printable(line.who)}{mark}: {printable(line.text)}", width - 2)
            if len(lines) + len(wrapped) > room:
                break
            lines[:0] = wrapped
        for i, text in enumerate(lines):
            full.put(chat_top + 1 + i, 1, text)

    def _bar(self, cv: Canvas, y: int) -> None:
        st = self.current()
        forming = st is not None and st.stage == TableState.FORMING
        items = [
            ("[N]ew", True),
            (f"[1-{st.players if st is not None else 4}] sit", st is not None and st.stage != TableState.OVER),
            ("[W]atch", st is not None and st.stage != TableState.FORMING),
            ("[S]tart", forming and st is not None and st.created_by_me),
            ("[U]p", forming and st is not None and st.my_seat is not None),
            ("[C]hat", True),
            ("[?]Help", True),
            ("[Q]uit", True),
        ]
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
    head = f"{st.id:>3}  {st.rules:<12} {st.level:<9} to {st.target:<6} "
    return (head + _state(st))[:width]


def _state(st: TableRow) -> str:
    if st.stage == TableState.FORMING:
        return f"forming: {st.seated} of {st.players} seated, {printable(st.creator)} starts it"
    if st.stage == TableState.OVER:
        return f"over: {st.winner}"
    paused = ", paused: nobody there" if st.paused else ""
    return f"hand {st.hand}  {st.score}{paused}"


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


#: What each command of :data:`LOBBY_KEYS` does (given the lobby and the key pressed).
COMMANDS: dict[str, Callable[[LobbyScreen, str], None]] = {
    "up": lambda lobby, key: lobby._move(-1),
    "down": lambda lobby, key: lobby._move(1),
    "first": lambda lobby, key: lobby._move(-len(lobby.view.tables)),
    "last": lambda lobby, key: lobby._move(len(lobby.view.tables)),
    "new": lambda lobby, key: lobby.cmd_new(),
    "sit": lambda lobby, key: lobby._sit(int(key) - 1),
    "enter": lambda lobby, key: lobby._enter(),
    "watch": lambda lobby, key: lobby._watch(),
    "start": lambda lobby, key: lobby._start(),
    "stand": lambda lobby, key: lobby.cmd_stand(),
    "chat": lambda lobby, key: lobby.open(ChatLine()),
    "code": lambda lobby, key: lobby.cmd_code(),
    "redraw": lambda lobby, key: None,          # (the app itself repaints every cell at Ctrl-L)
    "help": lambda lobby, key: lobby.open(LobbyHelp()),
    "quit": lambda lobby, key: lobby.open(LeaveServer()),
}
_BY_KEY = check_commands(COMMANDS, LOBBY_KEYS, "the lobby's")


__all__ = ["CODE_MAX", "COMMANDS", "LOBBY_KEYS", "TARGETS", "ChatLine", "CodeLine", "LeaveServer", "LobbyHelp", "LobbyScreen",
           "NewTable", "NewTableForm", "TextLine", "help_lines"]
