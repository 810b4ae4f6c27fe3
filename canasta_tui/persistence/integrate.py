"""Tying persistence to the table: settings as the command line's defaults, resume, autosave,
exit savers, and the statistics when a match ends.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from ..engine import Rules, RulesError, player_name
from ..table import Table
from ..text import BadName, check_name, printable
from . import paths, stats
from . import settings as settings_mod
from .commands import choose_start
from .lock import claim_autosave
from .saves import (
    Autosaver,
    LoadedGame,
    SaveError,
    SaveInfo,
    attach_autosave,
    install_exit_savers,
    keep_copy,
    list_saves,
    load_file,
    save_named,
    table_meta,
)

#: settings key -> the parameter name of ``canasta``'s option
OPTION_FOR = {"rules": "rules_name", "level": "level", "delay": "delay", "four_color": "four_color",
              "mouse": "mouse", "name": "name", "color": "color", "sort": "sort"}


def default_map() -> dict[str, Any]:
    """The settings file as defaults for ``canasta``'s options (the command line still wins)."""
    loaded = settings_mod.load_settings()
    s = loaded.settings
    out: dict[str, Any] = {OPTION_FOR[k]: getattr(s, k) for k in loaded.from_file if k in OPTION_FOR}
    if "deck" in loaded.from_file:
        out["ascii_"] = s.deck == "ascii"
    return out


class SettingsGroup(click.Group):
    """A click group whose option defaults come from the settings file."""

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        with contextlib.suppress(Exception):  # settings must never stop the program from starting
            extra.setdefault("default_map", default_map())
        return super().make_context(info_name, args, parent, **extra)


def apply_rule_options(rules: Rules) -> Rules:
    loaded = settings_mod.load_settings()
    if not loaded.settings.rule_options:
        return rules
    try:
        return rules.replace(**loaded.settings.rule_options)
    except RulesError as exc:
        click.echo(f"warning: {loaded.path}: rule_options: {exc} (ignored)", err=True)
        return rules


def _shown(value: Any) -> str:
    """A value from a file, as a message may quote it: escaped, and short."""
    text = repr(value)
    return printable(text if len(text) <= 40 else text[:37] + "...")


def _column(meta: dict[str, Any], key: str, n: int, notices: list[str]) -> list[Any]:
    """``meta[key]`` as one entry per seat (None where the save says nothing)."""
    value = meta.get(key)
    if isinstance(value, list) and len(value) == n:
        return value
    if value is not None:
        notices.append(f"The save's {key} ({_shown(value)}) are not one per player; they are not used.")
    return [None] * n


def saved_seats(game: LoadedGame, fallback: Sequence[Any], source: str) -> tuple[tuple[Any, ...], list[str]]:
    """The seats ``game`` was saved with, checked, and notices for what could not be used.

    A save's ``meta`` (who is human, the computers' levels, the names) is not part of the
    game the engine replays and checks, so nothing in it is trusted: every value is checked
    here, before anything is built from it, and one that cannot be used is replaced by the
    seat's value in ``fallback`` (the seats ``source``, "the command line" or "this table",
    gives), with a notice that says what and why.  The game itself is never refused for it:
    a label should not cost a good game.
    """
    from ..ai import ALL_LEVELS
    from ..table import COMPUTER, LOCAL, Seat

    n = game.match.rules.players
    fb = list(fallback)[:n] + [Seat(COMPUTER)] * max(0, n - len(fallback))
    meta = game.meta
    kinds = meta.get("seats")
    if kinds is None:
        return tuple(fb), []
    notices: list[str] = []
    if not (isinstance(kinds, list) and len(kinds) == n and all(k in ("human", "computer", "remote") for k in kinds)):
        notices.append(f"The save's seats ({_shown(kinds)}) are not {n} of \"human\" or \"computer\"; "
                       f"the players sit as {source} has them.")
        return tuple(fb), notices
    levels = _column(meta, "levels", n, notices)
    names = _column(meta, "names", n, notices)
    seats = []
    for i, kind in enumerate(kinds):
        who = player_name(i)
        human = kind != "computer"     # a seat played over SSH is a human here too
        level = fb[i].level
        saved = levels[i]
        if isinstance(saved, str) and saved.strip().lower() in ALL_LEVELS:
            level = saved.strip().lower()
        elif saved not in (None, "") and not human:   # a human's level is not used: no need to say
            notices.append(f"{who}'s level in the save ({_shown(saved)}) is not a computer level "
                           f"({', '.join(ALL_LEVELS)}); {who} plays at {level}.")
        name = ""
        if names[i] not in (None, ""):
            try:
                name = check_name(names[i])
            except BadName as exc:
                notices.append(f"{who}'s name in the save cannot be used: {exc}; {who} is called {who}.")
        seats.append(Seat(LOCAL if human else COMPUTER, name, level))
    return tuple(seats), notices


def _seats_from(game: LoadedGame, players: int, level: str, name: str) -> tuple[tuple[Any, ...], list[str]]:
    """``--resume`` and ``--load``: the saved seats, the command line's where the save's cannot be used."""
    from ..table import seats_for

    return saved_seats(game, seats_for(players, level, name), "the command line")


def start_table(rules: Rules, *, resume: bool, new: bool, load: str | LoadedGame | None, players: int,
                seed: int | None, level: str, name: str, given: frozenset[str] = frozenset(),
                echo: bool = True, early: Sequence[str] = ()) -> tuple[Table, Autosaver]:
    """The table to play at (loaded, resumed or new) and its autosaver; statistics are attached.

    A saved game keeps its seats: who is human comes from the save, so ``--players`` (named
    in ``given``, the options typed on the command line) is ignored with a notice; ``--level``
    given on the command line sets the level of the saved game's computer players.  What the
    save says about its seats is checked first (:func:`saved_seats`): a bad autosave never
    stops the program.  ``load`` is ``--load``'s path, or the game already read from it.

    Shows notices (a corrupt autosave set aside, a backup kept) on the terminal before the table
    opens, and at the table; with ``echo`` False (the app is running already) only at the table.
    ``early`` are notices told before (the start menu's home claimed the autosave).
    """
    from ..table import COMPUTER, seats_for

    try:
        autosave, locked = claim_autosave()
    except RuntimeError as exc:
        raise click.ClickException(str(exc)) from None
    game, notices = choose_start(resume, new, load, autosave=autosave)
    notices = [*early, *locked, *notices]
    told: list[str] = []

    def tell(text: str) -> None:
        if echo:
            click.echo(text, err=True)
        else:
            told.append(text)
    aggression = settings_mod.load_settings().settings.aggression
    if game is None:
        for n in notices:
            tell(n)
        rules = apply_rule_options(rules)
        if not rules.partnerships and players > rules.players:
            players = rules.players
        table = Table(rules, seats_for(players, level, name)[: rules.players], seed, aggression=aggression)
        game_id = f"{time.strftime('%Y%m%dT%H%M%S')}-{table.seed}"
    else:
        seats, seat_notices = _seats_from(game, players, level, name)
        notices += seat_notices
        for n in notices:
            tell(n)
        if "level" in given:
            seats = tuple(s if s.human else s.with_(kind=COMPUTER, level=level) for s in seats)
            tell(f"The saved game's computer players play at {level} level (--level).")
        if "players" in given:
            humans = [i + 1 for i, s in enumerate(seats) if s.human]
            who = ("Player " + ", ".join(map(str, humans))) if humans else "nobody (four computers)"
            tell(f"--players {players} is ignored: the saved game keeps its seats (human: {who}); "
                 "--new starts a new game.")
        table = Table(game.match.rules, seats, seed, match=game.match, aggression=aggression)
        gid = game.meta.get("game_id")
        game_id = gid if isinstance(gid, str) and gid else f"{time.time():.0f}-{table.seed}"
    saver = attach(table, game_id, autosave)
    saver.notices[:0] = notices if echo else told   # the table shows them too (the terminal is cleared)
    return table, saver


class StatsRecording:
    """Recording a finished match in the statistics, on a thread of its own: the table never waits
    for the database (another process may hold it), and a failure is kept to be told once."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None
        self._problem: str | None = None
        self._told = False

    def start(self, match: Any, humans: dict[int, str], level: str, game_key: str) -> None:
        def record() -> None:
            try:
                stats.record_match_result(match, humans, level, game_key=game_key)
            except stats.StatsError as exc:
                self._problem = f"The match was not recorded in the statistics: {exc}"
            except Exception as exc:  # a traceback from this thread would be printed over the table
                self._problem = f"The match was not recorded in the statistics: {type(exc).__name__}: {exc}"

        # Not a daemon: a result being written when the player leaves the table is still written.
        self._thread = threading.Thread(target=record, name="canasta-statistics")
        self._thread.start()

    def outcome(self, timeout: float | None = None) -> str | None:
        """Wait for the recording (if any) to finish; the reason it failed, once, or None."""
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                return None
        if self._problem is None or self._told:
            return None
        self._told = True
        return printable(self._problem)


_RECORDINGS: weakref.WeakKeyDictionary[Any, StatsRecording] = weakref.WeakKeyDictionary()


def statistics_outcome(table: Any, timeout: float = stats.RECORD_TIMEOUT + 5) -> str | None:
    """After play: wait for the end-of-match statistics of ``table`` and return why they were
    not recorded (once, one line), or None (recorded, or nothing to record)."""
    recording = _RECORDINGS.get(table)
    return recording.outcome(timeout) if recording is not None else None


def attach(table: Table, game_id: str, path: Path | None = None, *, exit_savers: bool = True) -> Autosaver:
    """Autosave after every move and deal, save on SIGHUP/SIGTERM/SIGINT, record the result at the end.

    ``exit_savers`` False: the caller's exit saver saves this table (a table started while the
    app runs: a signal handler installed then would run inside the event loop)."""
    def meta() -> dict[str, Any]:
        return table_meta(table) | {"game_id": table.game_id or game_id}

    table.game_id = game_id
    saver = attach_autosave(table, meta, path=path, on_error=lambda msg: None)
    if exit_savers:
        install_exit_savers(lambda: saver.save(table.match))
    recording = _RECORDINGS[table] = StatsRecording()
    recorded: list[bool] = []

    def on_event(t: Table, event: str = "") -> None:
        if recorded or t.match.winner is None:
            return
        recorded.append(True)
        # The first unnamed human is the person at the terminal (their login name); another unnamed
        # human in hot-seat is "Player N", so that two people are never recorded as one.
        first = min((i for i, seat in enumerate(t.seats) if seat.human), default=-1)
        humans = {i: seat.name or ((os.environ.get("USER") or "Player") if i == first else player_name(i))
                  for i, seat in enumerate(t.seats) if seat.human}
        levels = {seat.level for seat in t.seats if not seat.human}
        level = "hot-seat" if not levels else "/".join(sorted(levels))
        if humans:
            recording.start(t.match, humans, level, t.game_id or game_id)

    table.add_observer(on_event)
    return saver


def seats_of_save(game: LoadedGame, current: Sequence[Any]) -> tuple[tuple[Any, ...], list[str]]:
    """F3: the seats a loaded game was saved with (the current seats fill what the save cannot give)."""
    return saved_seats(game, current, "this table")


class TableFiles:
    """What the table's F3, F4 and autosave notice need from the files (see ``ui.controller.Files``)."""

    def __init__(self, table: Table, saver: Autosaver | None = None) -> None:
        self.table = table
        self.saver = saver

    def default_name(self) -> str:
        t = self.table
        humans = t.humans
        return str(t.name(humans[0]) if humans else "game")

    def where(self) -> str:
        return str(paths.saves_dir())

    def save(self, name: str) -> tuple[bool, str]:
        meta = table_meta(self.table) | {"game_id": self.table.game_id}
        try:
            path = save_named(self.table.match, meta, name)
        except SaveError as exc:
            return False, str(exc)
        return True, str(path)

    def saved_games(self) -> list[SaveInfo]:
        return list_saves()

    def load(self, path: str) -> tuple[str | None, list[str]]:
        """Play on from a saved game at this table: (why it was not loaded, or None; notices)."""
        try:
            game = load_file(path)
        except SaveError as exc:
            return str(exc), []
        if game.match.winner is not None:
            return f"{printable(path)}: the match in this file is already over", []
        table = self.table
        seats, notices = seats_of_save(game, table.seats)
        # The game being played is replaced in the autosave: keep it, as --load and --new keep theirs.
        current = table.match
        kept: Path | None = None
        if self.saver is not None and current.winner is None and any(current.log) and game.path != self.saver.path:
            try:
                kept = keep_copy(current, self.saver.meta())
            except SaveError as exc:
                return f"{printable(path)} was not loaded, because the game being played could not be kept: {exc}", []
            notices = [f"The game you were playing is saved as {kept.stem} (F3 lists it).", *notices]
        gid = game.meta.get("game_id")
        try:   # checks everything before it replaces anything: on failure the game goes on as it was
            table.replace_match(game.match, seats, game_id=gid if isinstance(gid, str) and gid else table.game_id)
        except ValueError as exc:
            if kept is not None:
                with contextlib.suppress(OSError):
                    kept.unlink()
            return f"{printable(path)}: {exc}", []
        return None, notices

    def notices(self) -> list[str]:
        """What the player should read as the table opens (another game running, a file set aside)."""
        return list(self.saver.notices) if self.saver is not None else []

    def autosaved(self) -> str | None:
        """Where the game is autosaved (said when the player quits), or None without an autosave."""
        return str(self.saver.path) if self.saver is not None else None

    def problem(self) -> str | None:
        """The autosave's failure as the table shows it, or None while it works."""
        f = self.saver.failure if self.saver is not None else None
        if f is None:
            return None
        return f"Autosave failed: {f.reason} ({f.path}); F4 saves elsewhere"


__all__ = ["SettingsGroup", "StatsRecording", "TableFiles", "apply_rule_options", "attach", "default_map",
           "saved_seats", "seats_of_save", "start_table", "statistics_outcome"]
