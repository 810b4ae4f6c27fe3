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
from typing import TYPE_CHECKING, ClassVar, Protocol, TypeAlias

from ..engine import Rules
from ..presets import rules_label
from ..text import printable
from .canvas import Canvas, Options, draw_box, glyph_text
from .dialogs import LoadList
from .lineedit import list_move
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


@dataclass(frozen=True)
class Choice:
    what: str          # "resume", "new1" ... "new4", "watch", "first", "load", "options", "rules", "statistics",
    #                    "help", "quit"
    key: str
    label: str
    about: str


def choices(home: Home) -> list[Choice]:
    """The menu's lines for this home: Resume only when there is a game to resume."""
    rules = home.rules()
    players, partners = rules.players, rules.partnerships
    out = []
    unfinished = home.unfinished()
    if unfinished:
        out.append(Choice("resume", "r", "Resume", f"the unfinished game: {unfinished}"))
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
        out.append(Choice(f"new{n}", str(n), label, about))
    watch = f"Watch {_COUNT.get(players, str(players)).lower()} computers"
    out += [Choice("watch", "0", watch, "the computers play every seat"),
            Choice("first", "f", "First game", "a short guided hand for a player new to Canasta"),
            Choice("load", "l", "Load a saved game", "saved with F4, or kept as a backup"),
            Choice("options", "o", "Options", "computer level, delay, names, cards, mouse"),
            Choice("rules", "u", "Rules", f"the rule options: {rules_label(rules)}"),
            Choice("statistics", "s", "Statistics", "high scores and win ratios"),
            Choice("help", "?", "Help", "rules, keys, scoring, strategy, FAQ, about"),
            Choice("quit", "q", "Quit", "the unfinished game stays saved" if unfinished else "")]
    return out


class Info(Page):
    """A few lines in a box over the page; any key closes it."""

    overlay: ClassVar[bool] = True

    def __init__(self, title: str, lines: Sequence[str]) -> None:
        super().__init__()
        self.box_title = title
        self.lines = list(lines)

    def handle(self, name: str) -> None:
        self.done = True

    def draw(self, cv: Canvas, opts: Options) -> None:
        from .canvas import wrap

        body = [w for t in self.lines for w in wrap(glyph_text(printable(t), opts.glyphs), cv.width - 10)]
        draw_box(cv, self.box_title, [*body, "", "(press any key)"])


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
            self.current = next(i for i, c in enumerate(self.items) if c.what == "first")
            self.say("New to Canasta?  Enter plays a short guided first game (f, later too)")
        if notices:
            self.open(Info("Notice", notices))

    def _refresh(self) -> None:
        """The lines again (a game kept, rules changed): the same choice stays highlighted."""
        what = self.items[self.current].what
        self.items = choices(self.home)
        self.rules = rules_label(self.home.rules())
        self.current = next((i for i, c in enumerate(self.items) if c.what == what), 0)

    def on_key(self, name: str) -> None:
        moved = list_move(name, self.current, len(self.items), cycle=True)
        if moved is not None:
            self.current = moved
        elif name in ("enter", "space"):
            self.choose(self.items[self.current])
        elif name in ("f1",):
            self.choose(next(c for c in self.items if c.what == "help"))
        elif name in ("f3",):
            self.choose(next(c for c in self.items if c.what == "load"))
        elif name == "escape":
            self.say("q quits; Enter starts the highlighted choice")
        else:
            for i, c in enumerate(self.items):
                if name == c.key:
                    self.current = i
                    self.choose(c)
                    return

    def choose(self, c: Choice) -> None:
        if c.what == "quit":
            self.quit = self.done = True
        elif c.what in ("options", "rules", "statistics", "help"):
            self.open(self.pages.page(c.what))
        elif c.what == "load":
            items = list(self.home.saved_games())
            if not items:
                self.say("No saved games yet: F4 in the game saves one", error=True)
            else:
                self.open(LoadList(items=items, chosen=lambda item: self._start(self.home.load(str(item.path)))))
        elif c.what == "resume":
            self._start(self.home.resume())
        elif c.what == "first":
            self._start(self.home.first_game())
        else:
            self._start(self.home.new(0 if c.what == "watch" else int(c.what[3:])))

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


__all__ = ["Choice", "Home", "Info", "Pages", "ResumeFirst", "ResumeQuestion", "StartMenu", "Started",
           "choices"]
