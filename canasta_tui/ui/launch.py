"""Start the table at this terminal from the command line's options."""

from __future__ import annotations

from collections.abc import Callable

from ..engine import Rules
from ..table import Table, seats_for
from .app import TableApp
from .canvas import Options
from .controller import Files
from .style import ASCII, UNICODE, wants_ascii

#: Hooks run on the new table before play starts (tests attach observers here).
TABLE_HOOKS: list[Callable[[Table], None]] = []


def launch(rules: Rules, *, players: int = 1, seed: int | None = None, level: str = "advanced",
           delay_ms: int = 400, ascii: bool = False, four_color: bool = False, mouse: bool = False,
           color: str = "auto", sort: str = "rank",
           name: str = "", table: Table | None = None, files: Files | None = None) -> Table:
    """Play at the terminal until the user quits; returns the table."""
    if table is None:
        if not rules.partnerships and players > rules.players:
            players = rules.players
        table = Table(rules, seats_for(players, level, name)[: rules.players], seed)
    for hook in TABLE_HOOKS:
        hook(table)
    glyphs = ASCII if ascii or wants_ascii() else UNICODE
    app = TableApp.local(table, delay_ms=delay_ms, options=Options(glyphs, four_color, mouse), color=color,
                         files=files, sort=sort)
    try:
        app.run()
    finally:
        table.close()
    for line in farewell(table, files):
        print(line)
    return table


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
