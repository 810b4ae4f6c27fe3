"""The lobby: the first screen of a connection to ``canasta serve``.

It lists the server's tables (rules, computer level, score to play to, the score, who sits
where), and from it a player creates a table, sits in a free seat, takes a computer's seat
(from the next deal), watches a table, starts the table they created, and chats with
everybody in the lobby.  It is a :class:`~canasta_tui.ui.app.Screen` of the connection's
app, drawn on a canvas like the table; colours come only from style classes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from ..engine import RulesError
from ..presets import load_rules, preset_names
from ..text import printable
from ..ui.canvas import Canvas, Options, Region, draw_box, draw_too_small, too_small, wrap
from ..ui.dialogs import CHAT_MAX
from ..ui.keys import KeyHelp
from ..ui.lineedit import LineEdit
from ..ui.screen import ScreenBase
from .tables import (
    FORMING,
    LEVELS,
    OVER,
    PLAYING,
    Client,
    Destination,
    Registry,
    SeatInfo,
    SeatState,
    ServerTable,
    TableRefused,
)

#: The longest seat code a guest can type (``K7PX-M2QA`` and some slack).
CODE_MAX = 16
#: Scores a new table can play to (the preset's own is added if it is not among them).
TARGETS = (1500, 3000, 5000, 7500, 10000)

class Mode(Enum):
    """What the lobby's keys go to: the list of tables, or one of the boxes over it."""

    TABLES = "tables"
    NEW = "new table"         # the form of a new table
    CHAT = "chat"             # a chat line being typed
    CODE = "code"             # a guest typing the code of their seat
    QUIT = "quit"             # "Leave the server?"
    HELP = "help"


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


@dataclass
class NewTable:
    """The form of a new table: rules preset, computer level, score to play to."""

    presets: list[str] = field(default_factory=preset_names)
    preset: int = 0
    level: int = 1
    target: int = 5000
    row: int = 0

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
        else:
            ts = self.targets()
            self.target = ts[(ts.index(self.target) + step) % len(ts)]

    def lines(self) -> list[str]:
        fields = [("Rules", self.presets[self.preset]), ("Computers", LEVELS[self.level]),
                  ("Play to", str(self.target))]
        out = []
        for i, (label, value) in enumerate(fields):
            mark = ">" if i == self.row else " "
            out.append(f"{mark} {label + ':':<11}< {value} >")
        return [*out, "", "Up/Down: choose a line   Left/Right: change it", "Enter: create the table   Esc: cancel"]


class LobbyScreen(ScreenBase):
    """The lobby of one connection (a :class:`~canasta_tui.ui.app.Screen`)."""

    def __init__(self, registry: Registry, client: Client, note: str = "") -> None:
        super().__init__()
        self.registry = registry
        self.client = client
        self.selected: int | None = None     # the chosen table's id
        self.mode = Mode.TABLES
        self.form = NewTable()
        self.text = ""                       # the chat line being typed
        self.note = note                     # one line of feedback
        self.destination: Destination | None = None
        self._done = False
        registry.subscribe(self._registry_changed)
        self._pick_default()

    # ------------------------------------------------------------------ a screen of the app
    @property
    def finished(self) -> bool:
        return self._done

    def close(self) -> None:
        self.registry.unsubscribe(self._registry_changed)

    def _registry_changed(self) -> None:
        if self.selected not in self.registry.tables:
            self._pick_default()
        self.on_change()

    def go(self, where: Destination) -> None:
        """The server seats this player (their table started): the lobby gives way to the table."""
        self.destination = where
        self._done = True
        self.on_change()

    def notify(self, text: str) -> None:
        self.note = text
        self.on_change()

    # ------------------------------------------------------------------ what is chosen
    def tables(self) -> list[ServerTable]:
        return list(self.registry.tables.values())

    def current(self) -> ServerTable | None:
        return self.registry.tables.get(self.selected) if self.selected is not None else None

    def _pick_default(self) -> None:
        """Choose the player's own table if any, else the first one."""
        me = self.client.identity.key
        tables = self.tables()
        mine = [t for t in tables if t.seat_of(me) is not None and t.state != OVER]
        pick = mine[0] if mine else (tables[0] if tables else None)
        self.selected = pick.id if pick is not None else None

    def _move(self, step: int) -> None:
        ids = [t.id for t in self.tables()]
        if not ids:
            return
        i = ids.index(self.selected) if self.selected in ids else 0
        self.selected = ids[max(0, min(len(ids) - 1, i + step))]

    # ------------------------------------------------------------------ keys
    def handle(self, name: str) -> None:
        if self.too_small and self.mode != Mode.QUIT:
            if name in ("q", "c-c"):
                self.mode = Mode.QUIT
            return
        if self.mode == Mode.QUIT:
            if name in ("y", "enter", "q", "c-c"):
                self.destination = None
                self._done = True
            else:
                self.mode = Mode.TABLES
            return
        if name == "c-c":
            self.mode = Mode.QUIT
        elif self.mode == Mode.HELP:
            self.mode = Mode.TABLES
        elif self.mode == Mode.NEW:
            self._form_key(name)
        elif self.mode == Mode.CHAT:
            self._chat_key(name)
        elif self.mode == Mode.CODE:
            self._code_key(name)
        else:
            command = _BY_KEY.get(name)
            if command is not None:
                self.note = ""
                COMMANDS[command](self, name)

    # ------------------------------------------------------------------ the commands of LOBBY_KEYS
    def cmd_new(self) -> None:
        why = self.registry.may_create(self.client)
        if why:
            self.note = why          # (before the form: it could not be used)
        else:
            self.form = NewTable()
            self.mode = Mode.NEW

    def cmd_chat(self) -> None:
        self.text = ""
        self.mode = Mode.CHAT

    def cmd_code(self) -> None:
        if self.client.identity.verified:
            self.note = "Your key is who you are here: your seats come back to you by themselves"
        else:
            self.text = ""
            self.mode = Mode.CODE

    def cmd_stand(self) -> None:
        st = self.current()
        if st is not None:
            self.note = self.registry.stand(self.client, st.id) or "You stood up"

    def _form_key(self, name: str) -> None:
        f = self.form
        if name in ("escape", "q"):
            self.mode = Mode.TABLES
        elif name in ("up", "k", "s-tab"):
            f.row = (f.row - 1) % 3
        elif name in ("down", "j", "tab"):
            f.row = (f.row + 1) % 3
        elif name in ("left", "h"):
            f.change(-1)
        elif name in ("right", "l", "space"):
            f.change(1)
        elif name == "enter":
            self.mode = Mode.TABLES
            self._create()

    def _chat_key(self, name: str) -> None:
        if name == "escape":
            self.mode = Mode.TABLES
        elif name == "enter":
            self.mode = Mode.TABLES
            self.note = self.registry.say_lobby(self.client, self.text) or ""
            self.text = ""
        else:
            field_ = LineEdit(self.text, CHAT_MAX)
            field_.key(name)
            self.text = field_.text

    def _code_key(self, name: str) -> None:
        if name == "escape":
            self.mode = Mode.TABLES
        elif name == "enter":
            self.mode = Mode.TABLES
            code, self.text = self.text, ""
            why = self.client.reclaim(code)
            if why:
                self.note = why
                return
            self._pick_default()
            where = self.registry.home(self.client)
            if where is not None:
                self.go(where)
            else:
                self.note = "That seat is yours again"
        else:
            field_ = LineEdit(self.text, CODE_MAX)
            field_.key(name)
            self.text = field_.text

    # ------------------------------------------------------------------ commands
    def _create(self) -> None:
        f = self.form
        try:
            rules = load_rules(f.presets[f.preset]).replace(target_score=f.target)
        except RulesError as exc:
            self.note = f"The table was not created: {printable(str(exc))}"
            return
        try:
            st = self.registry.create(self.client, rules, LEVELS[f.level])
        except TableRefused as exc:      # (somebody else's table took the last place meanwhile)
            self.note = str(exc)
            return
        self.selected = st.id
        self.note = f"Table {st.id} is yours: you sit as Player 1; press s to start when everybody is seated"

    def _sit(self, seat: int) -> None:
        st = self.current()
        if st is None:
            self.note = "There is no table yet: press n to create one"
            return
        why, where = self.registry.sit(self.client, st.id, seat)
        if why:
            self.note = why
        elif where is not None:
            self.go(where)
        elif st.state == FORMING:
            self.note = f"You sit as Player {seat + 1} at table {st.id}: " + (
                "press s to start" if st.creator == self.client.identity.key
                else f"{printable(st.creator_name())} starts the table")

    def _enter(self) -> None:
        st = self.current()
        if st is None:
            self.note = "There is no table yet: press n to create one"
            return
        seat = st.seat_of(self.client.identity.key)
        if st.state == FORMING:
            if seat is not None:
                self.note = ("Press s to start the table" if st.creator == self.client.identity.key
                             else f"Waiting for {printable(st.creator_name())} to start the table")
                return
            free = next((i for i, c in enumerate(st.claims) if c is None), None)
            if free is None:
                self.note = "Every seat is taken"
                return
            self._sit(free)
        elif seat is not None and st.state == PLAYING:
            self._sit(seat)
        else:
            self._watch()

    def _watch(self) -> None:
        st = self.current()
        if st is None:
            self.note = "There is no table yet: press n to create one"
        elif st.state == FORMING:
            self.note = "This table has not started yet: there is nothing to watch"
        else:
            self.go(Destination(st.id, None))

    def _start(self) -> None:
        st = self.current()
        if st is None:
            self.note = "There is no table yet: press n to create one"
            return
        why = self.registry.start(self.client, st.id)
        if why:
            self.note = why

    # ------------------------------------------------------------------ painting
    def paint(self, width: int, height: int, opts: Options) -> Canvas:
        cv = Canvas(width, height)
        cv.glyphs = opts.glyphs
        if too_small(width, height):
            draw_too_small(cv, "q leaves", "Leave the server? y: leave, n: stay" if self.mode == Mode.QUIT else "")
            return cv
        g = opts.glyphs
        me = self.client.identity
        cv.fill(0, 0, width, 1, "header")
        code = self.client.guest_code
        who = f"{printable(me.label)}{' ' + g.verified if me.verified else ''}"
        right = f"{who}{f' (guest, code {code})' if code else ''} {g.dash} {self.registry.online()} online "
        cv.put(0, max(0, width - len(right)), right, "header")
        Region(cv, 0, 0, width - len(right) - 1, 1).put(0, 0, f" CANASTA {g.dash} tables on this server", "header")

        tables = self.tables()
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
            full.put(1 + row, 0, (">" if chosen else " ") + " " + self._row(st, width - 2), "cursor" if chosen else "")
        y = 1 + list_rows
        shown = self.current()
        if shown is not None:
            full.heading(y, f"Table {shown.id}", self._state(shown))
            for i, info in enumerate(shown.seats(me.key)):
                self._seat_line(full, y + 1 + i, i, info, g.verified)
            y += 1 + max(4, shown.players)
        else:
            full.heading(y, "Table")
            y += 5
        chat_top = y
        full.heading(chat_top, "Lobby chat")
        rows = height - 1 - chat_top - 3
        lines: list[str] = []
        for line in reversed(self.registry.chat):
            mark = g.verified if line.verified else ""
            wrapped = wrap(f"{printable(line.who)}{mark}: {printable(line.text)}", width - 2)
            if len(lines) + len(wrapped) > rows:
                break
            lines[:0] = wrapped
        for i, text in enumerate(lines):
            full.put(chat_top + 1 + i, 1, text)
        if self.mode == Mode.CHAT:
            room = width - 8
            full.put(height - 3, 0, "Say: " + (self.text + "_")[-room:], "message")
        elif self.mode == Mode.CODE:
            full.put(height - 3, 0, "Your seat's code (Enter: take the seat, Esc: cancel): " + self.text + "_", "message")
        elif self.note:
            full.put(height - 3, 0, self.note[:width], "message")
        self._bar(cv, height - 1)
        if self.mode == Mode.NEW:
            draw_box(cv, "New table", self.form.lines())
        elif self.mode == Mode.QUIT:
            draw_box(cv, "Leave", ["Leave the server?", "", "y: leave    n: stay"])
        elif self.mode == Mode.HELP:
            keys = [k for k in LOBBY_KEYS if k.label]
            width_key = max(len(k.label) for k in keys) + 2
            legend = [f"{g.verified} after a name: a person known by their SSH key",
                      "~ before a name: a guest, who came without a key"]
            draw_box(cv, "Lobby keys", [f"{k.label:<{width_key}}{k.description}" for k in keys]
                     + ["", *legend, "", "(press any key)"])
        return cv

    def _row(self, st: ServerTable, width: int) -> str:
        r = st.rules
        head = f"{st.id:>3}  {r.name:<12} {st.level:<9} to {r.target_score:<6} "
        return (head + self._state(st))[:width]

    def _state(self, st: ServerTable) -> str:
        if st.state == FORMING:
            seated = sum(1 for c in st.claims if c is not None)
            return f"forming: {seated} of {st.players} seated, {printable(st.creator_name())} starts it"
        if st.state == OVER:
            return f"over: {st.winner_text()}"
        paused = ", paused: nobody there" if st.held() else ""
        return f"hand {st.hand_number()}  {st.score_text()}{paused}"

    def _seat_line(self, r: Region, row: int, seat: int, info: SeatInfo, verified: str) -> None:
        name = printable(info.name) + (verified if info.verified else "")
        you = " (you)" if info.mine else ""
        text, style = {
            SeatState.FREE: ("free", "dim"),
            SeatState.HUMAN: (f"{name}{you}", "name"),
            SeatState.AWAY: (f"{name}{you}: away, {info.note}", "frozen"),
            SeatState.COMPUTER: (f"computer{' for ' + name if name else ''}{you}", ""),
            SeatState.CLAIMED: (f"computer; {name}{you} {info.note}", ""),
        }[info.state]
        r.put(row, 2, f"{seat + 1}", "count")
        r.put(row, 5, text, style)

    def _bar(self, cv: Canvas, y: int) -> None:
        st = self.current()
        me = self.client.identity.key
        forming = st is not None and st.state == FORMING
        items = [
            ("[N]ew", True),
            (f"[1-{st.players if st is not None else 4}] sit", st is not None and st.state != OVER),
            ("[W]atch", st is not None and st.state != FORMING),
            ("[S]tart", forming and st is not None and st.creator == me),
            ("[U]p", forming and st is not None and st.seat_of(me) is not None),
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


#: What each command of :data:`LOBBY_KEYS` does (given the lobby and the key pressed).
COMMANDS: dict[str, Callable[[LobbyScreen, str], None]] = {
    "up": lambda lobby, key: lobby._move(-1),
    "down": lambda lobby, key: lobby._move(1),
    "first": lambda lobby, key: lobby._move(-len(lobby.registry.tables)),
    "last": lambda lobby, key: lobby._move(len(lobby.registry.tables)),
    "new": lambda lobby, key: lobby.cmd_new(),
    "sit": lambda lobby, key: lobby._sit(int(key) - 1),
    "enter": lambda lobby, key: lobby._enter(),
    "watch": lambda lobby, key: lobby._watch(),
    "start": lambda lobby, key: lobby._start(),
    "stand": lambda lobby, key: lobby.cmd_stand(),
    "chat": lambda lobby, key: lobby.cmd_chat(),
    "code": lambda lobby, key: lobby.cmd_code(),
    "redraw": lambda lobby, key: None,          # (the app itself repaints every cell at Ctrl-L)
    "help": lambda lobby, key: setattr(lobby, "mode", Mode.HELP),
    "quit": lambda lobby, key: setattr(lobby, "mode", Mode.QUIT),
}
_BY_KEY = {key: k.command for k in LOBBY_KEYS for key in k.keys}
if set(COMMANDS) != {k.command for k in LOBBY_KEYS} or len(_BY_KEY) != sum(len(k.keys) for k in LOBBY_KEYS):
    raise ImportError("the lobby's LOBBY_KEYS and COMMANDS disagree, or a key does two things")


__all__ = ["COMMANDS", "LOBBY_KEYS", "TARGETS", "LobbyScreen", "Mode", "NewTable"]
