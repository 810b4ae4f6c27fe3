"""Start the table at this terminal from the command line's options; the local game's flow.

:class:`GameApp` is the app of a game at this terminal: the start menu (when nothing on the
command line says what to play, after a match, on F2), the table, the game-over screen's
Play again, and the pages around the game (help, options, statistics) over either.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from ..presets import rules_label
from ..table import Table, local_link, seats_for
from .app import ScreenApp, deal_pace
from .canvas import Options
from .controller import Controller
from .files import Files
from .helppages import PAGES, HelpPage
from .menu import Home, ResumeFirst, ResumeQuestion, Started, StartMenu
from .model import BELLS
from .options import OptionsPage, PresetSource, RuleOptionsPage, SettingsStore
from .pages import Page
from .statistics import StatsSource
from .style import ASCII, UNICODE, color_depth, make_style, wants_ascii

#: Hooks run on each new table before play starts (tests attach observers here).
TABLE_HOOKS: list[Callable[[Table], None]] = []


class GameApp(ScreenApp):
    """A game at this terminal: the start menu, tables one after another, and the pages around them.

    Without a ``home`` it shows one table and ends when the player leaves it (no menu, no Play
    again).  ``settings`` and ``stats`` feed the options and statistics pages; ``files`` says
    where the files live (the About page).
    """

    def __init__(self, *, home: Home | None = None, start: Started | None = None,
                 settings: SettingsStore | None = None, stats: StatsSource | None = None,
                 files: Sequence[tuple[str, str]] = (), delay_ms: int = 400, sort: str = "rank",
                 ask: ResumeFirst | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.home = home
        self.start = start
        self.ask = ask
        self.settings = settings
        self.stats = stats
        self.files = list(files)
        self.delay_ms = delay_ms
        self.sort = sort
        self.table: Table | None = None            # the table being played (or the last one)
        self.controller: Controller | None = None
        self.table_files: Files | None = None      # that table's files
        self.tables: list[Table] = []

    # ------------------------------------------------------------------ the pages (menu.Pages, model.Host)
    def offers(self) -> frozenset[str]:
        return frozenset({"new", "again", "menu"}) if self.home is not None else frozenset()

    def _in_game(self) -> bool:
        return self.controller is not None and self.screen is self.controller

    def page(self, name: str) -> Page:
        in_game = self._in_game() and self.table is not None
        if in_game and self.table is not None:
            rules = self.table.rules
        elif self.home is not None:
            rules = self.home.rules()
        else:
            from ..engine import CLASSIC
            rules = CLASSIC
        if name == "options" and self.settings is not None:
            return OptionsPage(self.settings, self.apply, rules_page=lambda: self.page("rules"), in_game=in_game)
        if name == "rules" and self.settings is not None:
            return RuleOptionsPage(self.settings, PresetSource(), self.apply,
                                   in_play=rules_label(rules) if in_game else "")
        if name == "statistics" and self.stats is not None:
            from .statistics import StatisticsPage
            return StatisticsPage(self.stats)
        return HelpPage(rules, rules_label(rules), self.files, page=0 if name == "help" else PAGES.index("About"))

    def apply(self, key: str, value: Any) -> None:
        """A setting was saved: what shows on this screen changes at once (level, names and rules
        wait for the next new game)."""
        if key == "deck":
            self.options = replace(self.options, glyphs=ASCII if value == "ascii" or wants_ascii() else UNICODE)
        elif key == "four_color":
            self.options = replace(self.options, four_color=bool(value))
        elif key == "mouse":
            self.options = replace(self.options, mouse=bool(value))
        elif key == "color":
            self.color_depth = color_depth(str(value))
            from prompt_toolkit.output import ColorDepth
            self.style = make_style(self.color_depth != ColorDepth.DEPTH_1_BIT)
        elif key == "sort":
            self.sort = str(value)
            if self.controller is not None:
                self.controller.client.sort = self.sort
        elif key.startswith("bell_"):
            if self.controller is not None:
                event = key.removeprefix("bell_")
                if value:
                    self.controller.client.bells.add(event)
                else:
                    self.controller.client.bells.discard(event)
        elif key == "review":
            if self.controller is not None:
                self.controller.client.coach.review_on = bool(value)
        elif key in ("auto_wild", "right_click_discard"):
            if self.controller is not None:
                setattr(self.controller.client, key, bool(value))
        elif key == "delay":
            self.delay_ms = int(value)
            if self.table is not None:
                self.table.delay = self.delay_ms / 1000
                if self.controller is not None:
                    self.controller.client.deal_pace = deal_pace(self.table.rules, self.delay_ms)

    # ------------------------------------------------------------------ the flow
    async def flow(self) -> None:
        start = self.start
        said: list[str] = []
        if self.ask is not None and start is None:
            question = ResumeQuestion(self.ask.about)
            await self.show(question)
            if question.resume is None:
                return
            got = self.ask.answer(question.resume)
            if isinstance(got, str):
                said = [got]
            else:
                start = got
        while True:
            if start is None:
                if self.home is None:
                    return
                menu = StartMenu(self.home, self, said)
                said = []
                self.controller = None
                await self.show(menu)
                if menu.started is None:
                    return
                start = menu.started
            table, files = start
            start = None
            ctl = await self.play(table, files)
            if ctl.client.then == "again" and self.home is not None:
                got = self.home.again(table)
                if isinstance(got, str):
                    said = [got]
                else:
                    start = got
            elif ctl.client.then not in ("new", "menu"):
                return

    async def play(self, table: Table, files: Files | None) -> Controller:
        """Play at ``table`` until the player leaves it; the table is closed then."""
        for hook in TABLE_HOOKS:
            hook(table)
        self.table, self.table_files = table, files
        self.tables.append(table)
        table.delay = self.delay_ms / 1000
        from .tutorial import FirstGameTable, GuidedController

        screen = GuidedController if isinstance(table, FirstGameTable) else Controller
        ctl = screen(local_link(table), files, sort=self.sort, deal_pace=deal_pace(table.rules, self.delay_ms))
        if self.settings is not None:
            values = self.settings.values()
            ctl.client.bells = {b for b in BELLS if values.get(f"bell_{b}", True)}
            ctl.client.coach.review_on = values.get("review") is True
            ctl.client.auto_wild = values.get("auto_wild") is True
            ctl.client.right_click_discard = values.get("right_click_discard") is True
        ctl.client.host = self if self.home is not None or self.settings is not None else None
        self.controller = ctl
        self.background(table.run())
        self.show_deals(ctl)
        try:
            await self.show(ctl)
        finally:
            ctl.client.link.unsubscribe(ctl)
            ctl.client.link.close()
            table.close()
        return ctl


def launch(rules: Any, *, players: int = 1, seed: int | None = None, level: str = "advanced",
           delay_ms: int = 400, ascii: bool = False, four_color: bool = False, mouse: bool = False,
           color: str = "auto", sort: str = "rank", name: str = "", table: Table | None = None,
           files: Files | None = None, home: Home | None = None, settings: SettingsStore | None = None,
           stats: StatsSource | None = None, where: Sequence[tuple[str, str]] = (),
           ask: ResumeFirst | None = None) -> Table | None:
    """Play at the terminal until the user quits; returns the last table played (None: none was).

    With ``table`` play starts there; with ``ask``, its question comes first; without either, the
    start menu comes first when there is a ``home`` (otherwise a new table of ``players``
    humans is set).
    """
    if table is None and home is None:
        if not rules.partnerships and players > rules.players:
            players = rules.players
        table = Table(rules, seats_for(players, level, name)[: rules.players], seed)
    glyphs = ASCII if ascii or wants_ascii() else UNICODE
    app = GameApp(home=home, start=(table, files) if table is not None else None, settings=settings, stats=stats,
                  files=where, delay_ms=delay_ms, sort=sort, ask=ask, options=Options(glyphs, four_color, mouse),
                  color=color)
    try:
        app.run()
    finally:
        for t in app.tables:
            t.close()
    last = app.table
    if last is not None:
        for line in farewell(last, app.table_files):
            print(line)
    return last


def farewell(table: Table, files: Files | None) -> list[str]:
    """What the terminal says after the table closes: is the game kept, and how to go on."""
    if table.match.winner is not None:
        return ["The match is over."]
    problem = files.problem() if files is not None else None
    if problem is not None:
        return [problem, "The game could not be kept: it is lost when a new one starts."]
    saved = files.autosaved() if files is not None else None
    if saved is None:
        return []
    return [f"The game is saved ({saved}).", "Run canasta to resume it (canasta --resume resumes at once)."]
