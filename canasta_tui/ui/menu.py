"""The start menu: what ``canasta`` shows when nothing on the command line says what to play,
after a match, and on F2 (New game, as Canasta for Windows 2.41's F2).

Its choices are the DOS game's "One Human Player" and "Two Human Players", three or four
people at one keyboard, four computers to watch, the unfinished game, a saved one, and the
pages around the game (options, rules, statistics, help).  The menu knows nothing of files:
a :class:`Home` starts the tables, and the app (:class:`Pages`) builds the other pages.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar, Protocol, TypeAlias, assert_never

from ..engine import Rules
from ..presets import rules_label
from ..text import printable
from .canvas import Canvas, Options, draw_box, glyph_text
from .dialogs import Info, LoadList
from .keys import CommandTable, KeyHelp
from .pages import Hint, Page, scroll_window

if TYPE_CHECKING:
    from ..table import Table
    from .files import Files, SavedGame


#: A table to play at, and its files (F3, F4, the autosave).
Started: TypeAlias = "tuple[Table, Files | None]"


class Home(Protocol):
    """Where games come from (``play.home.LocalHome``): each call either starts a table or
    says, in a sentence, why it could not (nothing is lost then)."""

    def unfinished(self) -> str | None: ...            # the autosaved unfinished game, in a few words
    def notices(self) -> list[str]: ...                # to read at the menu (each told once)
    def rules(self) -> Rules: ...                      # the rules a new game plays by
    def new(self, humans: int) -> Started | str: ...
    def resume(self) -> Started | str: ...
    def saved_games(self) -> Sequence[SavedGame]: ...
    def load(self, path: str) -> Started | str: ...
    def again(self, table: Table) -> Started | str: ...  # the same seats and rules, a new match
    def first_game(self) -> Started | str: ...          # the guided first game (``ui.tutorial``)
    def offer_first_game(self) -> bool: ...             # True once ever: the menu offers the first game


class Pages(Protocol):
    """The app: it builds the pages the menu opens (``options``, ``rules``, ``statistics``, ``help``)."""

    def page(self, name: str) -> Page: ...


_COUNT = {1: "One", 2: "Two", 3: "Three", 4: "Four"}


class Pick(StrEnum):
    """What a line of the start menu does (its value is its command in :data:`MENU_KEYS`, and for
    the pages the app builds, the page's name)."""

    RESUME = "resume"
    NEW = "new"                  # a new game, ``Choice.humans`` of its players at this keyboard
    WATCH = "watch"
    FIRST = "first"
    LOAD = "load"
    OPTIONS = "options"
    RULES = "rules"
    STATISTICS = "statistics"
    HELP = "help"
    QUIT = "quit"


@dataclass(frozen=True)
class Choice:
    what: Pick
    key: str           # the key shown on its line (one of its command's in MENU_KEYS)
    label: str
    about: str
    humans: int = 0    # Pick.NEW: how many people play at this keyboard


#: The start menu's keys, as the table's and the lobby's are (``ui/keys.py``): one list, checked
#: against :data:`MENU`'s commands when this module is imported.  A line's key picks it (1-4 the
#: line of that many people, where the rules have that many players).
MENU_KEYS: list[KeyHelp] = [
    KeyHelp("up", ("up", "k", "s-tab"), "Up, Down", "choose a line"),
    KeyHelp("down", ("down", "j", "tab"), "", ""),
    KeyHelp("first_line", ("home", "pageup"), "", ""),
    KeyHelp("last_line", ("end", "pagedown"), "", ""),
    KeyHelp("start", ("enter", "space"), "Enter", "start the highlighted line"),
    KeyHelp("escape", ("escape",), "Esc", "says how to quit (q)"),
    KeyHelp(Pick.RESUME, ("r",), "r", "resume the unfinished game"),
    KeyHelp(Pick.NEW, ("1", "2", "3", "4"), "1-4", "a new game, that many people at this keyboard"),
    KeyHelp(Pick.WATCH, ("0",), "0", "watch the computers play every seat"),
    KeyHelp(Pick.FIRST, ("f",), "f", "a short guided first game"),
    KeyHelp(Pick.LOAD, ("l", "f3"), "l, F3", "load a saved game"),
    KeyHelp(Pick.OPTIONS, ("o",), "o", "options"),
    KeyHelp(Pick.RULES, ("u",), "u", "the rule options"),
    KeyHelp(Pick.STATISTICS, ("s",), "s", "statistics"),
    KeyHelp(Pick.HELP, ("?", "f1"), "?, F1", "help"),
    KeyHelp(Pick.QUIT, ("q",), "q", "quit"),
]


def choices(home: Home) -> list[Choice]:
    """The menu's lines for this home: Resume only when there is a game to resume."""
    rules = home.rules()
    players, partners = rules.players, rules.partnerships
    out = []
    unfinished = home.unfinished()
    if unfinished:
        out.append(Choice(Pick.RESUME, "r", "Resume", f"the unfinished game: {unfinished}"))
    for n in range(1, players + 1):
        label = f"{_COUNT[n]} Human Player" + ("s" if n > 1 else "")
        if partners:
            about = {1: "you and computer Player 3 against two computers",
                     2: "Players 1 and 4, each with a computer partner",
                     3: "Players 1, 3 and 4 at this keyboard, in turn",
                     4: "everybody at this keyboard, in turn"}[n]
        else:
            others = players - n
            about = (f"Players 1 to {n} at this keyboard, in turn" if n > 1 else "you, Player 1") + (
                f", against {others} computer{'s' if others != 1 else ''}" if others else "")
        out.append(Choice(Pick.NEW, str(n), label, about, humans=n))
    watch = f"Watch {_COUNT.get(players, str(players)).lower()} computers"
    out += [Choice(Pick.WATCH, "0", watch, "the computers play every seat"),
            Choice(Pick.FIRST, "f", "First game", "a short guided hand for a player new to Canasta"),
            Choice(Pick.LOAD, "l", "Load a saved game", "saved with F4, or kept as a backup"),
            Choice(Pick.OPTIONS, "o", "Options", "computer level, delay, names, cards, mouse"),
            Choice(Pick.RULES, "u", "Rules", f"the rule options: {rules_label(rules)}"),
            Choice(Pick.STATISTICS, "s", "Statistics", "high scores and win ratios"),
            Choice(Pick.HELP, "?", "Help", "rules, keys, scoring, strategy, FAQ, about"),
            Choice(Pick.QUIT, "q", "Quit", "the unfinished game stays saved" if unfinished else "")]
    return out


@dataclass(frozen=True)
class ResumeFirst:
    """``canasta --players 2`` (an option that says what to play) with an unfinished game in the
    autosave: whether to play it on is the app's first question.  ``about`` is the game in a
    few words; ``answer(True)`` resumes it, ``answer(False)`` starts the command line's new
    game and keeps the unfinished one as a backup (``--new``); each returns the table, or
    says in a sentence why it could not start."""

    about: str
    answer: Callable[[bool], Started | str]


class ResumeQuestion(Page):
    """The question :class:`ResumeFirst` asks, in a box: y or Enter resumes, n starts a new game
    (the unfinished one is kept), q or Esc leaves (it stays saved).  :attr:`resume` is the
    answer (None with :attr:`quit`)."""

    title: ClassVar[str] = "Unfinished game"

    def __init__(self, about: str) -> None:
        super().__init__()
        self.about = about
        self.resume: bool | None = None

    def on_key(self, name: str) -> None:
        if name in ("y", "enter"):
            self.resume, self.done = True, True
        elif name == "n":
            self.resume, self.done = False, True
        elif name in ("q", "escape"):
            self.quit = self.done = True
        else:
            self.say("y or Enter resumes it; n starts a new game; q quits", error=True)

    def hints(self) -> Sequence[Hint]:
        return [Hint("y/Enter", "resume"), Hint("n", "new game"), Hint("q", "quit")]

    def draw_body(self, cv: Canvas, opts: Options, top: int, rows: int) -> None:
        draw_box(cv, "Unfinished game", [glyph_text(printable(f"Resume the unfinished game ({self.about})?"),
                                                    opts.glyphs),
                                         "",
                                         "y or Enter: resume it",
                                         "n: a new game (the unfinished one is kept as a backup)",
                                         "q: quit (it stays saved)"])


class StartMenu(Page):
    """The start menu; :attr:`started` is the table chosen (None with :attr:`quit`: leave)."""

    title: ClassVar[str] = "Start menu"

    def __init__(self, home: Home, pages: Pages, message: Sequence[str] = ()) -> None:
        super().__init__()
        self.home = home
        self.pages = pages
        self.started: Started | None = None
        self.items = choices(home)
        self.rules = rules_label(home.rules())
        self.current = 0
        notices = [*message, *home.notices()]
        if home.offer_first_game():
            # Offered once ever, without a box in the way: highlighted, and said on the message line.
            self.current = next(i for i, c in enumerate(self.items) if c.what == Pick.FIRST)
            self.say("New to Canasta?  Enter plays a short guided first game (f, later too)")
        if notices:
            self.open(Info("Notice", notices))

    def _refresh(self) -> None:
        """The lines again (a game kept, rules changed): the same choice stays highlighted."""
        was = self.items[self.current]
        self.items = choices(self.home)
        self.rules = rules_label(self.home.rules())
        self.current = next((i for i, c in enumerate(self.items) if (c.what, c.humans) == (was.what, was.humans)), 0)

    def on_key(self, name: str) -> None:
        """A key runs its command of :data:`MENU_KEYS` (the others do nothing)."""
        command = MENU.for_key(name)
        if command is not None:
            MENU.commands[command](self, name)

    def pick(self, what: Pick, key: str) -> None:
        """The line of ``what`` that ``key`` names starts (a line's own key highlights it too)."""
        for i, c in enumerate(self.items):
            if c.what == what and (what != Pick.NEW or c.key == key):
                if key == c.key:
                    self.current = i
                self.choose(c)
                return

    def choose(self, c: Choice) -> None:
        match c.what:
            case Pick.QUIT:
                self.quit = self.done = True
            case Pick.OPTIONS | Pick.RULES | Pick.STATISTICS | Pick.HELP:
                self.open(self.pages.page(c.what.value))
            case Pick.LOAD:
                items = list(self.home.saved_games())
                if not items:
                    self.say("No saved games yet: F4 in the game saves one", error=True)
                else:
                    self.open(LoadList(items=items, chosen=lambda item: self._start(self.home.load(str(item.path)))))
            case Pick.RESUME:
                self._start(self.home.resume())
            case Pick.FIRST:
                self._start(self.home.first_game())
            case Pick.WATCH:
                self._start(self.home.new(0))
            case Pick.NEW:
                self._start(self.home.new(c.humans))
            case _:
                assert_never(c.what)

    def _start(self, got: Started | str) -> None:
        if isinstance(got, str):
            self.say(got, error=True)
            self._refresh()
            return
        self.started = got
        self.done = True

    def child_done(self, child: Page) -> None:
        self._refresh()

    def header_right(self) -> str:
        return f"rules: {self.rules}"

    def hints(self) -> Sequence[Hint]:
        return [Hint("Up/Down", "choose"), Hint("Enter", "start"), Hint("keys", "as marked"), Hint("q", "quit")]

    def draw_body(self, cv: Canvas, opts: Options, top: int, rows: int) -> None:
        title = "Four-player partnership Canasta"
        block = min(cv.width - 4, 76)
        x0 = (cv.width - block) // 2
        y = top + max(1, (rows - len(self.items) - 3) // 2)
        cv.put(y, (cv.width - len(title)) // 2, title, "heading")
        y += 2
        room = rows - (y - top)
        start = scroll_window(len(self.items), self.current, room, 0)
        for i in range(start, min(len(self.items), start + room)):
            c = self.items[i]
            on = i == self.current
            cv.put(y, x0, ">" if on else " ", "cursor" if on else "")
            cv.put(y, x0 + 2, f"{c.key:>1}", "bar.key")
            cv.put(y, x0 + 5, f"{c.label:<22}", "cursor" if on else "name")
            about = glyph_text(printable(c.about), opts.glyphs)
            cv.put(y, x0 + 29, about[: block - 29], "dim" if not on else "")
            y += 1


# ---------------------------------------------------------------------- the start menu's commands

#: A command of the start menu: what a key of :data:`MENU_KEYS` does (given the menu and the key).
MenuCommand = Callable[[StartMenu, str], None]
#: The start menu's commands, checked against :data:`MENU_KEYS` at the end of this module (on import).
MENU: CommandTable[MenuCommand] = CommandTable("the start menu's", MENU_KEYS)


def _move(to: Callable[[int, int], int]) -> MenuCommand:
    def move(menu: StartMenu, key: str) -> None:
        menu.current = to(menu.current, len(menu.items))
    return move


MENU.command("up")(_move(lambda at, n: (at - 1) % n))
MENU.command("down")(_move(lambda at, n: (at + 1) % n))
MENU.command("first_line")(_move(lambda at, n: 0))
MENU.command("last_line")(_move(lambda at, n: n - 1))


@MENU.command("start")
def start(menu: StartMenu, key: str) -> None:
    menu.choose(menu.items[menu.current])


@MENU.command("escape")
def escape(menu: StartMenu, key: str) -> None:
    menu.say("q quits; Enter starts the highlighted choice")


def _pick(what: Pick) -> MenuCommand:
    def pick(menu: StartMenu, key: str) -> None:
        menu.pick(what, key)
    return pick


for _what in Pick:       # each line's command picks it (the menu says which lines there are)
    MENU.command(_what)(_pick(_what))
MENU.check()


__all__ = [
    "MENU",
    "MENU_KEYS",
    "Choice",
    "Home",
    "Info",
    "Pages",
    "Pick",
    "ResumeFirst",
    "ResumeQuestion",
    "StartMenu",
    "Started",
    "choices",
]
