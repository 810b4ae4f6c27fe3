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

from ..engine import Rules, RulesError
from ..text import printable
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
    list_saves,
    load_file,
    save_named,
    session_meta,
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


def _seats_from(game: LoadedGame, players: int, level: str, name: str) -> Sequence[Any]:
    from ..session import Seat, seats_for

    meta = game.meta
    kinds, levels, names = meta.get("seats"), meta.get("levels"), meta.get("names")
    n = game.match.rules.players
    if isinstance(kinds, list) and len(kinds) == n:
        lv = levels if isinstance(levels, list) and len(levels) == n else [level] * n
        nm = names if isinstance(names, list) and len(names) == n else [""] * n
        return tuple(Seat(k == "human", str(lv[i] or level), str(nm[i] or "")) for i, k in enumerate(kinds))
    return seats_for(players, level, name)[:n]


def start_session(rules: Rules, *, resume: bool, new: bool, load: str | None, players: int, seed: int | None,
                  level: str, name: str, given: frozenset[str] = frozenset()) -> tuple[Any, Autosaver]:
    """The Session to play (loaded, resumed or new) and its autosaver; statistics are attached.

    A saved game keeps its seats: who is human comes from the save, so ``--players`` (named
    in ``given``, the options typed on the command line) is ignored with a notice; ``--level``
    given on the command line sets the level of the saved game's computer players.

    Shows notices (a corrupt autosave set aside, a backup kept) before the table opens.
    """
    from ..session import Session, seats_for

    try:
        autosave, locked = claim_autosave()
    except RuntimeError as exc:
        raise click.ClickException(str(exc)) from None
    game, notices = choose_start(resume, new, load, autosave=autosave)
    notices = locked + notices
    for n in notices:
        click.echo(n, err=True)
    aggression = settings_mod.load_settings().settings.aggression
    if game is not None:
        seats = list(_seats_from(game, players, level, name))
        if "level" in given:
            seats = [s if s.human else s.__class__(False, level, s.name) for s in seats]
            click.echo(f"The saved game's computer players play at {level} level (--level).", err=True)
        if "players" in given:
            humans = [i + 1 for i, s in enumerate(seats) if s.human]
            who = ("Player " + ", ".join(map(str, humans))) if humans else "nobody (four computers)"
            click.echo(f"--players {players} is ignored: the saved game keeps its seats (human: {who}); "
                       "--new starts a new game.", err=True)
        session = Session.from_match(game.match, seats, seed, aggression=aggression)
        game_id = str(game.meta.get("game_id") or f"{time.time():.0f}-{session.seed}")
    else:
        rules = apply_rule_options(rules)
        if not rules.partnerships and players > rules.players:
            players = rules.players
        session = Session(rules, seats_for(players, level, name)[: rules.players], seed, aggression=aggression)
        game_id = f"{time.strftime('%Y%m%dT%H%M%S')}-{session.seed}"
    saver = attach(session, game_id, autosave)
    saver.notices[:0] = notices        # the table shows them too (the terminal is cleared)
    return session, saver


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


def statistics_outcome(session: Any, timeout: float = stats.RECORD_TIMEOUT + 5) -> str | None:
    """After play: wait for the end-of-match statistics of ``session`` and return why they were
    not recorded (once, one line), or None (recorded, or nothing to record)."""
    recording = _RECORDINGS.get(session)
    return recording.outcome(timeout) if recording is not None else None


def attach(session: Any, game_id: str, path: Path | None = None) -> Autosaver:
    """Autosave after every action and deal, save on SIGHUP/SIGTERM/SIGINT, record the result at the end."""
    def meta() -> dict[str, Any]:
        return session_meta(session) | {"game_id": getattr(session, "game_id", game_id)}

    session.game_id = game_id

    saver = attach_autosave(session, meta, path=path, on_error=lambda msg: None)
    install_exit_savers(lambda: saver.save(session.match))
    recording = _RECORDINGS[session] = StatsRecording()
    recorded: list[bool] = []

    def on_event(s: Any, event: str = "") -> None:
        if recorded or s.match.winner is None:
            return
        recorded.append(True)
        humans = {i: (seat.name or os.environ.get("USER") or "Player") for i, seat in enumerate(s.seats) if seat.human}
        levels = {seat.level for seat in s.seats if not seat.human}
        level = "hot-seat" if not levels else "/".join(sorted(levels))
        if humans:
            recording.start(s.match, humans, level, getattr(s, "game_id", "") or game_id)

    session.add_observer(on_event)
    return saver


def seats_of_save(game: LoadedGame, current: Sequence[Any]) -> Sequence[Any]:
    """The seats a loaded game was saved with (the current seats' levels fill gaps)."""
    from ..session import Seat

    n = game.match.rules.players
    cur = list(current)[:n] + [Seat(False, "advanced")] * max(0, n - len(current))
    meta = game.meta
    kinds, levels, names = meta.get("seats"), meta.get("levels"), meta.get("names")
    if not (isinstance(kinds, list) and len(kinds) == n):
        return tuple(cur)
    lv = levels if isinstance(levels, list) and len(levels) == n else [c.level for c in cur]
    nm = names if isinstance(names, list) and len(names) == n else [""] * n
    return tuple(Seat(k == "human", str(lv[i] or cur[i].level), str(nm[i] or "")) for i, k in enumerate(kinds))


class TableFiles:
    """What the table's F3, F4 and autosave notice need from the files (see ``ui.controller.Files``)."""

    def __init__(self, session: Any, saver: Autosaver | None = None) -> None:
        self.session = session
        self.saver = saver

    def default_name(self) -> str:
        s = self.session
        humans = [i for i, seat in enumerate(s.seats) if seat.human]
        return str(s.name(humans[0]) if humans else "game")

    def where(self) -> str:
        return str(paths.saves_dir())

    def save(self, name: str) -> tuple[bool, str]:
        meta = session_meta(self.session) | {"game_id": getattr(self.session, "game_id", "")}
        try:
            path = save_named(self.session.match, meta, name)
        except SaveError as exc:
            return False, str(exc)
        return True, str(path)

    def saved_games(self) -> list[SaveInfo]:
        return list_saves()

    def load(self, path: str) -> str | None:
        """Replace the session's match with the saved one; the reason it failed, or None."""
        try:
            game = load_file(path)
        except SaveError as exc:
            return str(exc)
        if game.match.winner is not None:
            return f"{path}: the match in this file is already over"
        try:
            self.session.replace_match(game.match, seats_of_save(game, self.session.seats),
                                       f"Loaded {game.path.stem}: hand {game.match.hand_number}")
        except ValueError as exc:
            return f"{path}: {exc}"
        gid = game.meta.get("game_id")
        if isinstance(gid, str) and gid:
            self.session.game_id = gid
        return None

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
           "seats_of_save", "start_session", "statistics_outcome"]
