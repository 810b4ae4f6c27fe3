"""``canasta config`` and ``canasta stats``: the settings file and the statistics at the command line."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .persistence import paths, settings, stats
from .text import points, printable


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
        t.add_row(key, plain(_shown(value)), "file" if key in loaded.from_file else "default", _meaning(key))
    con.print(t)
    click.echo("Files:")
    for what, where in paths.all_paths().items():
        click.echo(f"  {what:<11} {printable(str(where))}" + ("" if where.exists() else "  (not yet created)"))
    if loaded.problem:
        click.echo(f"warning: {printable(loaded.problem)}", err=True)


def _meaning(key: str) -> str:
    """What a setting means; the rules' presets are the ones in rules/ (Samba and Bolivia too)."""
    if key == "rules":
        from .presets import preset_names

        return f"rules preset ({', '.join(preset_names())}) or a .toml file"
    return settings.HELP[key]


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
                        f"{'won' if row.won else 'lost'} {points(row.our_score)} to {points(row.their_score)}"))
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
                cells += [_number(h["scores"][side]["total"]), _number(h["totals"][side])]
            t.add_row(*cells)
        con.print(t)


def _number(value: object) -> str:
    """A score of a stored sheet as a person reads it ("1,500"; anything else as it was stored)."""
    return points(value) if isinstance(value, int) and not isinstance(value, bool) else str(value)


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
            hs.add_row(str(i), plain(hsc.player), points(hsc.difference), str(hsc.hand), plain(hsc.date))
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


__all__ = ["config_command", "plain", "stats_command"]
