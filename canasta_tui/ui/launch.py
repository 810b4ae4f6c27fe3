"""Start the table from the command line's options."""

from __future__ import annotations

from collections.abc import Callable

from ..engine import Rules
from ..session import Session, seats_for
from .app import TableApp
from .controller import Files
from .render import Options
from .style import ASCII, UNICODE, wants_ascii

#: Hooks run on the new session before play starts (the persistence layer attaches autosave here).
SESSION_HOOKS: list[Callable[[Session], None]] = []


def launch(rules: Rules, *, players: int = 1, seed: int | None = None, level: str = "advanced",
           delay_ms: int = 400, ascii: bool = False, four_color: bool = False, mouse: bool = False,
           color: str = "auto", sort: str = "rank",
           name: str = "", session: Session | None = None, files: Files | None = None) -> Session:
    """Play at the terminal until the user quits; returns the session."""
    if session is None:
        if not rules.partnerships and players > rules.players:
            players = rules.players
        seats = seats_for(players, level, name)[: rules.players]
        session = Session(rules, seats, seed)
    for hook in SESSION_HOOKS:
        hook(session)
    glyphs = ASCII if ascii or wants_ascii() else UNICODE
    app = TableApp(session, delay_ms=delay_ms, options=Options(glyphs, four_color, mouse), color=color,
                   files=files, sort=sort)
    app.run()
    for line in farewell(session, files):
        print(line)
    return session


def farewell(session: Session, files: Files | None) -> list[str]:
    """What the terminal says after the table closes: is the game kept, and how to go on."""
    if session.match.winner is not None:
        return ["The match is over."]
    problem = files.problem() if files is not None else None
    if problem is not None:
        return [problem, "The game could not be kept: it is lost when a new one starts."]
    saved = files.autosaved() if files is not None else None
    if saved is None:
        return []
    return [f"The game is saved ({saved}).", "Run canasta to resume it (canasta --resume resumes at once)."]
