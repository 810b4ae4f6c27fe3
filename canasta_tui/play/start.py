"""What ``canasta`` starts with: a loaded game (``--load``), the autosave, or a new game, and
the table built from it with the settings, the save's seats and the command line's options.

Errors are :class:`click.ClickException`: this is the command line's start (the start menu's
games are :class:`~canasta_tui.play.home.LocalHome`'s, which turns them into sentences).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Sequence
from pathlib import Path

import click

from ..engine import Rules, RulesError, team_name
from ..persistence import paths
from ..persistence import settings as settings_mod
from ..persistence.lock import MAX_SLOTS, AutosaveLock, claim_autosave
from ..persistence.saves import (
    LoadedGame,
    SaveError,
    backup_autosave,
    find_autosave,
    is_finished,
    load_file,
    read_record,
)
from ..table import COMPUTER, Seat, Table, seats_for
from ..text import points
from .local import LocalTable, attach
from .seats import saved_seats


def open_for_play(load: str) -> LoadedGame:
    """``--load FILE``: the game in FILE if it can be played on, else click.ClickException saying why.

    Reads only: nothing is changed, so the command line may check the file before anything else.
    A match that is over is refused: playing it "on" would only overwrite the autosave with
    a finished game.
    """
    try:
        game = load_file(load)
    except SaveError as exc:
        raise click.ClickException(f"cannot load {exc}") from None
    m = game.match
    if m.winner is not None:
        totals = " to ".join(points(s) for s in m.scores)
        raise click.ClickException(f"{game.path}: this match is over ({team_name(m.winner, m.rules)} won, "
                                   f"{totals}); there is nothing to play on. canasta --new starts a new game.")
    return game


def _keep_unfinished_autosave(autosave: Path | None, loading: Path) -> list[str]:
    """``--load``: the game it replaces in the autosave is kept, as ``--new`` keeps it.

    An unfinished game is renamed to ``autosave.backup-TIME.json`` (a notice says where and
    how to play it on); one that cannot be read is set aside as corrupt; a finished one,
    or the very file being loaded, is left to be replaced.
    """
    path = autosave or paths.autosave_path()
    with contextlib.suppress(OSError):
        if path.exists() and os.path.samefile(path, loading):
            return []                   # --load of the autosave itself: play it on, in place
    found = find_autosave(path, then=f"{loading} is played instead")
    if found.game is None:
        return found.notices
    try:
        kept = backup_autosave(path)
    except SaveError as exc:
        raise click.ClickException(f"{exc}; not loading {loading}, so that the unfinished game in the autosave "
                                   "is not overwritten") from None
    if kept is None:
        return found.notices
    return [*found.notices, f"The unfinished game in the autosave was kept as {kept} "
                            f"(canasta --load {kept} plays it on)."]


def choose_start(resume: bool, new: bool, load: str | LoadedGame | None,
                 autosave: Path | None = None) -> tuple[LoadedGame | None, list[str]]:
    """What ``canasta`` starts with: a loaded game (``--load``), the autosave, or None for a new game.

    ``--new`` and ``--load`` keep an unfinished autosave as a backup; otherwise an unfinished
    autosave is played on (whether to is asked inside the app, before this is called: see
    ``cli.main``).  Returns notices to show (a corrupt autosave set aside, a backup made).
    Raises click.ClickException for --load errors.
    ``load`` may be a path or a game :func:`open_for_play` has read already.
    """
    notices: list[str] = []
    if load:
        game = open_for_play(load) if isinstance(load, str) else load
        return game, _keep_unfinished_autosave(autosave, game.path)
    if new:
        try:
            kept = backup_autosave(autosave)
        except SaveError as exc:
            raise click.ClickException(str(exc)) from None
        if kept is not None:
            notices.append(f"The unfinished game was kept as {kept}.")
        return None, notices
    found = find_autosave(autosave)
    notices += found.notices
    if found.game is None:
        if resume:
            # --resume asked for a game that is not there: a new one starts, and the player is told.
            notices.append("There is no unfinished game to resume: a new game starts.")
        return None, notices + other_unfinished(autosave)
    return found.game, notices


def other_unfinished(autosave: Path | None) -> list[str]:
    """Notices for unfinished games left in the other autosaves (``autosave-2.json`` ...,
    played while another game held the first): only ``--load`` reaches them, so say so.
    Games still running elsewhere (their lock is held) and unreadable files are left alone."""
    first = paths.autosave_path()
    if autosave not in (None, first):
        return []
    out: list[str] = []
    for n in range(2, MAX_SLOTS + 1):
        path = paths.autosave_path(n)
        if not path.exists():
            continue
        lock = AutosaveLock(path)
        if lock.acquire() is False:
            continue
        try:
            game = read_record(path)
        except SaveError:
            continue
        finally:
            lock.release()
        if not is_finished(game.match):
            out.append(f"Another unfinished game is autosaved in {path} (canasta --load {path} plays it on).")
    return out


def apply_rule_options(rules: Rules) -> Rules:
    """``rules`` with the settings' rule options; options that do not fit are told and ignored."""
    loaded = settings_mod.load_settings()
    if not loaded.settings.rule_options:
        return rules
    try:
        return rules.replace(**loaded.settings.rule_options)
    except RulesError as exc:
        click.echo(f"warning: {loaded.path}: rule_options: {exc} (ignored)", err=True)
        return rules


def _seats_from(game: LoadedGame, players: int, level: str, name: str) -> tuple[tuple[Seat, ...], list[str]]:
    """``--resume`` and ``--load``: the saved seats, the command line's where the save's cannot be used."""
    return saved_seats(game, seats_for(players, level, name), "the command line")


def start_table(rules: Rules, *, resume: bool, new: bool, load: str | LoadedGame | None, players: int,
                seed: int | None, level: str, name: str, given: frozenset[str] = frozenset(),
                echo: bool = True, early: Sequence[str] = ()) -> LocalTable:
    """The table to play at (loaded, resumed or new), with its autosaver and statistics recording.

    A saved game keeps its seats: who is human comes from the save, so ``--players`` (named
    in ``given``, the options typed on the command line) is ignored with a notice; ``--level``
    given on the command line sets the level of the saved game's computer players.  What the
    save says about its seats is checked first (:func:`~.seats.saved_seats`): a bad autosave
    never stops the program.  ``load`` is ``--load``'s path, or the game already read from it.

    Shows notices (a corrupt autosave set aside, a backup kept) on the terminal before the table
    opens, and at the table; with ``echo`` False (the app is running already) only at the table.
    ``early`` are notices told before (the start menu's home claimed the autosave).
    """
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
    local = attach(table, game_id, autosave)
    local.saver.notices[:0] = notices if echo else told   # the table shows them too (the terminal is cleared)
    return local


__all__ = ["apply_rule_options", "choose_start", "open_for_play", "other_unfinished", "start_table"]
