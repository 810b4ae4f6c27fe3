"""``canasta config`` and ``canasta stats``: the persistence layer at the command line."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..engine import team_name
from ..text import printable
from . import paths, settings, stats
from .lock import MAX_SLOTS, AutosaveLock
from .saves import LoadedGame, SaveError, backup_autosave, find_autosave, is_finished, load_file, read_record


def _console() -> Console:
    return Console(highlight=False, soft_wrap=False)


def plain(text: object) -> Text:
    """Text from a user or a file as rich shows it: no markup (``[/]`` is text), no emoji codes,
    and every control character written out (an escape sequence would reach the terminal)."""
    return Text(printable(str(text)))


def _shown(value: object) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    return str(value)


@click.group("config", invoke_without_command=True)
@click.pass_context
def config_command(ctx: click.Context) -> None:
    """Show the settings and where every file lives.

    Settings live in a TOML file in the XDG config directory (CANASTA_HOME/config with
    CANASTA_HOME set); options on the command line override them for one run.
    """
    if ctx.invoked_subcommand is not None:
        return
    loaded = settings.load_settings()
    con = _console()
    t = Table(title="Settings", title_justify="left")
    t.add_column("setting")
    t.add_column("value")
    t.add_column("from")
    t.add_column("meaning")
    for key in settings.KEYS:
        value = getattr(loaded.settings, key)
        t.add_row(key, plain(_shown(value)), "file" if key in loaded.from_file else "default", settings.HELP[key])
    con.print(t)
    click.echo("Files:")
    for what, where in paths.all_paths().items():
        click.echo(f"  {what:<11} {printable(str(where))}" + ("" if where.exists() else "  (not yet created)"))
    if loaded.problem:
        click.echo(f"warning: {printable(loaded.problem)}", err=True)


@config_command.command("set")
@click.argument("key", type=click.Choice(settings.KEYS))
@click.argument("value")
def config_set(key: str, value: str) -> None:
    """Change one setting: canasta config set level expert."""
    try:
        path = settings.set_value(key, value)
    except settings.SettingsError as exc:
        raise click.ClickException(printable(str(exc))) from None
    click.echo(f"{key} = {printable(_shown(settings.load_settings(path).settings.to_dict()[key]))}  "
               f"({printable(str(path))})")


@config_command.command("unset")
@click.argument("key", type=click.Choice(settings.KEYS))
def config_unset(key: str) -> None:
    """Return one setting to its default."""
    try:
        path = settings.unset_value(key)
    except settings.SettingsError as exc:
        raise click.ClickException(printable(str(exc))) from None
    click.echo(f"{key} is back to its default  ({printable(str(path))})")


@config_command.command("path")
def config_path() -> None:
    """Print the settings file's path (for scripts and editors)."""
    click.echo(printable(str(paths.settings_path())))


def _history(con: Console, player: str | None, limit: int) -> None:
    rows = stats.history(player, limit)
    if not rows:
        click.echo("No finished matches yet.")
        return
    for row in rows:
        con.print(plain(f"#{row.id} {row.finished}  {row.player} ({row.level}, {row.rules} rules): "
                        f"{'won' if row.won else 'lost'} {row.our_score} to {row.their_score}"))
        if row.sheet_problem is not None:
            con.print(plain(f"  (the score sheet cannot be read: {row.sheet_problem})"))
            continue
        t = Table()
        t.add_column("hand", justify="right")
        sides = len(row.sheet[0]["scores"]) if row.sheet else 0
        for side in range(sides):
            t.add_column(f"side {side + 1}", justify="right")
            t.add_column("total", justify="right")
        for h in row.sheet:
            cells = [str(h["hand"])]
            for side in range(sides):
                cells += [str(h["scores"][side]["total"]), str(h["totals"][side])]
            t.add_row(*cells)
        con.print(t)


def _tables(con: Console, player: str | None) -> None:
    ratios = stats.win_ratios(player)
    if not ratios:
        click.echo("No finished matches yet." if not player else f"No finished matches for {printable(player)}.")
        return
    t = Table(title="Win ratio", title_justify="left")
    for col in ("player", "level", "wins", "losses", "win ratio"):
        t.add_column(col, justify="left" if col in ("player", "level") else "right")
    for wr in ratios:
        t.add_row(plain(wr.player), plain(wr.level), str(wr.wins), str(wr.losses), f"{wr.ratio:.0f}%")
    con.print(t)
    for level, scores in stats.high_scores().items():
        hs = Table(title=plain(f"High scores: {level} (best single hand, our side minus theirs)"),
                   title_justify="left")
        for col in ("#", "player", "score", "hand", "date"):
            hs.add_column(col, justify="right" if col in ("#", "score", "hand") else "left")
        for i, hsc in enumerate(scores, 1):
            hs.add_row(str(i), plain(hsc.player), str(hsc.difference), str(hsc.hand), plain(hsc.date))
        con.print(hs)


@click.command("stats")
@click.option("--player", metavar="NAME", help="Only this player.")
@click.option("--history", "show_history", is_flag=True, help="List finished matches with their score sheets.")
@click.option("--limit", type=click.IntRange(1, 1000), default=10, show_default=True,
              help="How many matches --history lists.")
@click.option("--reset", "do_reset", is_flag=True,
              help="Set wins, losses and high scores to zero (asks first; the history is kept).")
@click.option("--yes", "-y", is_flag=True, help="Do not ask before --reset.")
def stats_command(player: str | None, show_history: bool, limit: int, do_reset: bool, yes: bool) -> None:
    """Win ratio per computer level, high scores and match history."""
    try:
        if do_reset:
            who = f"{printable(player)}'s" if player else "every player's"
            if not yes and not click.confirm(f"Reset {who} wins, losses and high scores?", default=False):
                click.echo("Nothing was reset.")
                return
            n = stats.reset(player)
            click.echo(f"Reset: {n} match{'es' if n != 1 else ''} no longer counted (the history is kept).")
        elif show_history:
            _history(_console(), player, limit)
        else:
            _tables(_console(), player)
    except stats.StatsError as exc:
        raise click.ClickException(str(exc)) from None


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
        totals = " to ".join(str(s) for s in m.scores)
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


__all__ = ["choose_start", "config_command", "open_for_play", "other_unfinished", "stats_command"]
