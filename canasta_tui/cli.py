"""The ``canasta`` command."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .bench.ai_bench import ai_command
from .engine.errors import RulesError
from .files_cmd import config_command, stats_command
from .persistence import settings as settings_mod
from .play.local import TableFiles
from .play.start import open_for_play, start_table
from .presets import load_rules, preset_names
from .rules_cmd import rules_command
from .server.config import DAY, EXPERT_BUDGET_RANGE, MAX_TABLES, PASSWORD_ENV
from .text import BadName, check_name, printable

if TYPE_CHECKING:
    from .persistence.saves import LoadedGame
    from .server.server import Server
    from .table import Table

#: settings key -> the parameter name of ``canasta``'s option
OPTION_FOR = {"rules": "rules_name", "level": "level", "delay": "delay", "four_color": "four_color",
              "mouse": "mouse", "name": "name", "color": "color", "sort": "sort"}


def default_map() -> dict[str, object]:
    """The settings file as defaults for ``canasta``'s options (the command line still wins)."""
    loaded = settings_mod.load_settings()
    s = loaded.settings
    out: dict[str, object] = {OPTION_FOR[k]: getattr(s, k) for k in loaded.from_file if k in OPTION_FOR}
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


def _name_option(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """--name: a name the table can show (no control characters, at most NAME_MAX characters)."""
    try:
        return check_name(value)
    except BadName as exc:
        raise click.BadParameter(str(exc)) from None


def _check_terminal() -> None:
    """The table places the cursor anywhere on the screen; a dumb terminal cannot."""
    if os.environ.get("TERM") == "dumb":
        raise click.ClickException(
            "canasta needs a terminal that can place the cursor, and TERM=dumb cannot: play in a terminal "
            "window, or in tmux or screen (canasta rules, stats and config work here)")

NO_TERMINAL = ("canasta needs a terminal to play: its input and output are a file or a pipe here. "
               "Run it in a terminal window (or over ssh -t); canasta stats, canasta rules and "
               "canasta config work without one.")


def has_terminal() -> bool:
    """The table reads keys from the terminal and draws on it: both must be one."""
    return all(f is not None and f.isatty() for f in (sys.stdin, sys.stdout))


@click.group(cls=SettingsGroup, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--rules", "rules_name", default="classic", show_default=True, metavar="NAME|FILE",
              help="Rules preset (" + ", ".join(preset_names()) + ") or a TOML file.")
@click.option("--players", type=click.IntRange(0, 4), default=1, show_default=True,
              help="Human players: 1 (you, Player 1), 2 (Players 1 and 4), 3, 4 (hot-seat) or 0 (watch). "
                   "A resumed game keeps its seats.")
@click.option("--seed", type=int, default=None, help="Seed of the shuffles (reproducible deals).")
@click.option("--level", type=click.Choice(["beginner", "advanced", "expert"], case_sensitive=False),
              default="advanced", show_default=True,
              help="Strength of the computer players (given with a resumed game, it sets theirs).")
@click.option("--delay", type=click.IntRange(0, 10000), default=400, show_default=True, metavar="MS",
              help="Pause after each computer action, in milliseconds (0-10000).")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
              help="Colours: auto (off with NO_COLOR), always (on even then), never.")
@click.option("--sort", type=click.Choice(["rank", "suit"]), default="rank", show_default=True,
              help="Your hand's order: rank (A, 3 ... K, wild cards) or suit.")
@click.option("--ascii", "ascii_", is_flag=True, help="Suits as letters (c d h s), ASCII lines (automatic without UTF-8).")
@click.option("--four-color", is_flag=True, help="Four-colour deck: clubs green, diamonds blue.")
@click.option("--mouse", is_flag=True, help="Mouse clicks on cards and commands (off by default: it costs bytes).")
@click.option("--name", default="", metavar="NAME", callback=_name_option,
              help="Your name at the table (Player 1), up to 20 characters.")
@click.option("--resume", is_flag=True, help="Resume the unfinished game without asking.")
@click.option("--new", "new_game", is_flag=True, help="Start a new game; the unfinished one is kept as a backup.")
@click.option("--load", "load_file", metavar="FILE",
              help="Play on from a saved game (an unfinished autosaved game is kept as a backup).")
@click.version_option(package_name="canasta-tui", prog_name="canasta", message="%(prog)s %(version)s")
@click.pass_context
def main(ctx: click.Context, rules_name: str, players: int, seed: int | None, level: str, delay: int,
         color: str, sort: str, ascii_: bool, four_color: bool, mouse: bool, name: str,
         resume: bool = False, new_game: bool = False, load_file: str | None = None) -> None:
    """Four-player partnership Canasta at the terminal."""
    if ctx.invoked_subcommand is not None:
        return
    _check_terminal()
    try:
        rules = load_rules(rules_name)
    except RulesError as exc:
        raise click.BadParameter(printable(str(exc)), param_hint="--rules") from None
    # A file to load is checked before anything else happens (it only reads): a broken or finished
    # match is reported at once, terminal or not.
    loaded = open_for_play(load_file) if load_file else None
    if not has_terminal():
        raise click.ClickException(NO_TERMINAL)
    from .ui.launch import launch

    source = ctx.get_parameter_source
    given = frozenset(p for p in ("players", "level")
                      if source(p) is click.core.ParameterSource.COMMANDLINE)
    # Options that say what to play start it at once; without them the start menu comes first.
    direct = any(source(p) is click.core.ParameterSource.COMMANDLINE
                 for p in ("rules_name", "players", "seed", "level", "resume", "new_game", "load_file"))
    named = name if source("name") is click.core.ParameterSource.COMMANDLINE else None
    from .play.home import LocalHome
    from .ui.menu import ResumeFirst

    table = files = None
    ask = None
    if direct:
        home = LocalHome(level=level.lower() if "level" in given else None, name=named,
                         rules=rules if source("rules_name") is click.core.ParameterSource.COMMANDLINE else None)

        def begin(resume_it: bool, new_it: bool, echo: bool) -> tuple[Table, TableFiles]:
            local = start_table(rules, resume=resume_it, new=new_it, load=loaded, players=players, seed=seed,
                                level=level.lower(), name=name, given=given, echo=echo, early=home.notices())
            home.adopt(local)
            return local.table, local.files()

        def answer(resume_it: bool) -> tuple[Table, TableFiles] | str:
            try:
                return begin(resume_it, not resume_it, echo=False)
            except click.ClickException as exc:
                return exc.format_message()

        unfinished = None if resume or new_game or loaded else home.unfinished()
        if unfinished:
            # Whether to play it on is asked inside the app, not on the terminal before it.
            ask = ResumeFirst(unfinished, answer)
        else:
            table, files = begin(resume, new_game, echo=True)
    else:
        home = LocalHome(name=named)
    try:
        launch(rules, players=players, seed=seed, level=level.lower(), delay_ms=delay, ascii=ascii_,
               four_color=four_color, mouse=mouse, name=name, table=table, files=files, color=color, sort=sort,
               home=home, settings=home.settings, stats=home.stats, where=home.files(), ask=ask)
    finally:
        home.close()
    for played in home.played:
        problem = played.statistics_outcome()
        if problem:
            click.echo(problem, err=True)


@main.group()
def bench() -> None:
    """Benchmarks: print speed and strength figures."""


@bench.command("engine")
@click.option("--seconds", type=click.FloatRange(0.1, 3600), default=5.0, show_default=True,
              help="How long to play.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the random shuffles and choices.")
@click.option("--rules", "rules_name", default="classic", show_default=True, metavar="NAME|FILE",
              help="Rules preset or TOML file.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def bench_engine(seconds: float, seed: int, rules_name: str, as_json: bool) -> None:
    """Uniform-random legal self-play: hands/s, actions/s and stuck states."""
    from .bench.engine_bench import report, run

    try:
        rules = load_rules(rules_name)
    except RulesError as exc:
        raise click.BadParameter(printable(str(exc)), param_hint="--rules") from None
    result = run(seconds, seed, rules)
    click.echo(json.dumps(result) if as_json else report(result))


bench.add_command(ai_command)


@bench.command("coach")
@click.option("--seed", type=int, default=33, show_default=True, help="Seed of the position set (its hands and deals).")
@click.option("--hands", type=click.IntRange(1, 10_000), default=40, show_default=True,
              help="Hands the Expert plays against Advanced to take positions from.")
@click.option("--per-hand", type=click.IntRange(1, 200), default=8, show_default=True,
              help="Positions taken from each hand, at random.")
@click.option("--deals", type=click.IntRange(16, 100_000), default=128, show_default=True,
              help="Sampled deals a position's choices may be played out in, at most.")
@click.option("--positions", "path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The position set's file: read when it holds this set, else built and written there "
                   "(the sets of seeds 33 and 34 with the other settings as they are come with the game).")
@click.option("--who", default="expert,advanced,hint", show_default=True,
              help="Who plays the positions, comma-separated: expert, advanced, hint.")
@click.option("--bench-seed", type=int, default=1, show_default=True, help="Seed of the players asked.")
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True, help="Worker processes.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def bench_coach(seed: int, hands: int, per_hand: int, deals: int, path: Path | None, who: str, bench_seed: int,
                jobs: int, as_json: bool) -> None:
    """The judge's clear positions (every choice played out to the end of the hand in the same
    sampled deals): how often the Expert, Advanced and the coach's hint choose the clear best, and
    the points they lose.  Counted in work, not time: the same figures at any load."""
    from .bench.judge import CHOOSERS, load_or_build, report, run

    names = [w.strip().lower() for w in who.split(",") if w.strip()]
    unknown = [w for w in names if w not in CHOOSERS]
    if unknown or not names:
        raise click.BadParameter(f"choose from {', '.join(CHOOSERS)}", param_hint="--who")
    data, read = load_or_build(path, seed, hands, per_hand, deals, jobs,
                               progress=lambda line: click.echo(line, err=True))
    click.echo(f"position set {f'read from {read}' if read is not None else 'built'}"
               f"{f', written to {path}' if read is None and path is not None else ''}"
               f" ({data['cpu_seconds']} s of CPU to build)", err=True)
    result = run(data, names, bench_seed, jobs)
    click.echo(json.dumps(result) if as_json else report(result))


@bench.command("ui")
@click.option("--seed", type=int, default=5, show_default=True, help="Seed of the deal.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def bench_ui(seed: int, as_json: bool) -> None:
    """The table: first frame, render time, bytes per keypress and per computer turn."""
    from .bench.ui_bench import report, run

    result = run(seed)
    click.echo(json.dumps(result) if as_json else report(result))


def _pace_option(ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, int]:
    """--pace MIN-MAX: milliseconds between two keys of one player."""
    parts = value.split("-")
    try:
        low, high = (int(parts[0]), int(parts[-1])) if len(parts) in (1, 2) else (-1, -1)
    except ValueError:
        low = high = -1
    if not 1 <= low <= high <= 10000:
        raise click.BadParameter(f"{printable(value)!r} is not MIN-MAX milliseconds (like 200-500, from 1 to 10000)")
    return low, high


@bench.command("serve")
@click.option("--tables", type=click.IntRange(1, 200), default=25, show_default=True, help="Tables to play at.")
@click.option("--clients", type=click.IntRange(1, 4), default=4, show_default=True,
              help="Human players (SSH sessions) per table; computers take the other seats.")
@click.option("--seconds", type=click.FloatRange(1, 3600), default=30.0, show_default=True,
              help="How long each run plays (after everybody is seated).")
@click.option("--pace", default="200-500", show_default=True, metavar="MIN-MAX", callback=_pace_option,
              help="Milliseconds between two keys of a player (a random pause in this range).")
@click.option("--busy-pace", default="20-60", show_default=True, metavar="MIN-MAX", callback=_pace_option,
              help="The same for the players of the busy table.")
@click.option("--busy/--no-busy", default=True, show_default=True,
              help="Also run with table 1 busy and calm by turns (fast keys, Expert computers) and compare the "
                   "other tables' latency in the two.")
@click.option("--phase", type=click.FloatRange(0.5, 600), default=5.0, show_default=True, metavar="SECONDS",
              help="How long each busy and each calm turn of table 1 lasts.")
@click.option("--delay", type=click.IntRange(0, 10000), default=400, show_default=True, metavar="MS",
              help="The server's pause after each computer move.")
@click.option("--logins", type=click.IntRange(0, 1000), default=20, show_default=True, metavar="N",
              help="Logins to time first, each a fresh connection with its own key, to the lobby (0: none).")
@click.option("--lobby", type=click.IntRange(0, 400), default=0, show_default=True, metavar="N",
              help="People (each with their own key) who stay idle in the lobby through the runs: "
                   "--tables 25 --clients 1 --lobby 75 is 100 people online at 25 tables.")
@click.option("--level", type=click.Choice(["beginner", "advanced", "expert"], case_sensitive=False),
              default="advanced", show_default=True,
              help="The computers' level in the free seats of every table (with --clients below 4); "
                   "the busy table's computers are Expert.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the deals and of the players' pauses.")
@click.option("--cluster", is_flag=True,
              help="Then the same players against a room of 2 fronts and 2 owners behind HAProxy (PostgreSQL, NATS, "
                   "started here as `canasta cluster try` does): both p95s and their ratio, a move's round trip over "
                   "the bus, take-over times after kill -9 of an owner and of a front, CPU per bus message, per "
                   "player and per Expert table (docs/scale.md).")
@click.option("--takeovers", type=click.IntRange(1, 50), default=10, show_default=True, metavar="N",
              help="With --cluster: owners killed (kill -9) one after another, and as many fronts.")
@click.option("--expert-tables", type=click.IntRange(1, 50), default=4, show_default=True, metavar="N",
              help="With --cluster: tables of one player and three Expert computers whose owners' CPU is measured.")
@click.option("--bus-moves", type=click.IntRange(10, 10_000), default=300, show_default=True, metavar="N",
              help="With --cluster: moves whose round trip over the bus is timed.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def bench_serve(tables: int, clients: int, seconds: float, pace: tuple[int, int], busy_pace: tuple[int, int],
                busy: bool, phase: float, delay: int, logins: int, lobby: int, level: str, seed: int,
                cluster: bool, takeovers: int, expert_tables: int, bus_moves: int, as_json: bool) -> None:
    """SSH players against a real canasta serve: logins/s with keys, key-to-screen latency, bytes/s, server CPU;
    with --cluster, against a room of several processes too."""
    if cluster:
        from .bench import cluster_bench

        _server_bench(lambda progress: cluster_bench.run(
            tables, clients, seconds, busy=busy, pace_ms=pace, busy_pace_ms=busy_pace, delay_ms=delay, seed=seed,
            phase_s=phase, logins=logins, lobby=lobby, level=level.lower(), takeovers=takeovers,
            expert_tables=expert_tables, bus_moves=bus_moves, progress=progress), cluster_bench.report, as_json)
        return
    from .bench.serve_bench import report, run

    _server_bench(lambda progress: run(tables, clients, seconds, busy=busy, pace_ms=pace, busy_pace_ms=busy_pace,
                                       delay_ms=delay, seed=seed, phase_s=phase, logins=logins, lobby=lobby,
                                       level=level.lower(), progress=progress),
                  report, as_json)


@bench.command("logins")
@click.option("--logins", type=click.IntRange(1, 1_000_000), default=3000, show_default=True,
              help="Logins to make (each connects, waits for the lobby and closes).")
@click.option("--at-once", type=click.IntRange(1, 50), default=4, show_default=True,
              help="Logins under way at the same time.")
@click.option("--settle", type=click.FloatRange(0, 3600), default=60.0, show_default=True, metavar="SECONDS",
              help="How long nobody connects after the logins, before the memory is read again.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def bench_logins(logins: int, at_once: int, settle: float, as_json: bool) -> None:
    """Many short logins to a real canasta serve: logins/s and the server's memory before, after, and later."""
    from .bench.logins_bench import report, run

    _server_bench(lambda progress: run(logins, at_once, settle, progress=progress), report, as_json)


def _server_bench(run: Callable[[Callable[[str], None]], dict[str, Any]], report: Callable[[dict[str, Any]], str],
                  as_json: bool) -> None:
    """Run a benchmark that starts a real server (its progress on stderr) and print its figures;
    what stopped it is said as the command's error."""
    from .bench.serve_bench import BenchError

    try:
        result = run(lambda line: click.echo(line, err=True))
    except BenchError as exc:
        raise click.ClickException(str(exc)) from None
    except KeyboardInterrupt:
        raise click.Abort() from None
    click.echo(json.dumps(result) if as_json else report(result))


@main.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0 or :: for every interface: then friends on other machines can join).")
@click.option("--port", type=click.IntRange(0, 65535), default=2222, show_default=True, help="Port to listen on.")
@click.option("--authorized-keys", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Let in the keys of this file (OpenSSH authorized_keys format).")
@click.option("--password", "use_password", is_flag=True,
              help=f"Let in whoever knows a password: read from ${PASSWORD_ENV}, or asked for (never on the command line).")
@click.option("--open", "open_", is_flag=True, help="Let in anybody who can reach the port, without a key or password.")
@click.option("--delay", type=click.IntRange(0, 10000), default=400, show_default=True, metavar="MS",
              help="Pause after each computer move, in milliseconds.")
@click.option("--takeover", type=click.IntRange(0, 86400), default=60, show_default=True, metavar="SECONDS",
              help="How long a dropped player's seat waits before a computer plays it.")
@click.option("--idle-timeout", type=click.IntRange(0, 7 * 86400), default=1800, show_default=True, metavar="SECONDS",
              help="Close a connection where no key was pressed for this long (0: never).")
@click.option("--max-connections", type=click.IntRange(1, 10000), default=100, show_default=True, metavar="N",
              help="Connections at once, in all.")
@click.option("--max-per-address", type=click.IntRange(1, 10000), default=10, show_default=True, metavar="N",
              help="Connections at once from one address.")
@click.option("--max-tables", type=click.IntRange(1, MAX_TABLES), default=40, show_default=True, metavar="N",
              help="Tables the server holds at most (every one is kept on disk and brought back at start).")
@click.option("--tables-per-person", type=click.IntRange(1, MAX_TABLES), default=3, show_default=True, metavar="N",
              help="Tables one person may have created that are not over.")
@click.option("--set-aside-days", type=click.FloatRange(0, 3650), default=30, show_default=True, metavar="DAYS",
              help="Set aside a started table nobody has been at for this long: its file is kept, it is no "
                   "longer brought back (0: never).")
@click.option("--login-timeout", type=click.IntRange(1, 600), default=20, show_default=True, metavar="SECONDS",
              help="Close a connection that has not logged in after this long.")
@click.option("--max-logins", type=click.IntRange(1, 10000), default=20, show_default=True, metavar="N",
              help="Connections logging in at once (not logged in yet), in all.")
@click.option("--max-logins-per-address", type=click.IntRange(1, 10000), default=3, show_default=True, metavar="N",
              help="Connections logging in at once from one address.")
@click.option("--expert-budget", type=click.FloatRange(*EXPERT_BUDGET_RANGE), default=1.0, show_default=True, metavar="SECONDS",
              help="An Expert computer's thinking per decision while the workers are free; when more Experts "
                   "think at once than there are workers, each gets its share, down to 0.1 s.")
@click.option("--seed", type=int, default=None, help="Seed of the shuffles (table N plays seed + N - 1).")
@click.option("--host-key", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="The host key's file (made if missing). Every front of a cluster names the same one, so ssh "
                   "meets one host key behind the one address.")
@click.option("--proxy-protocol", is_flag=True,
              help="Behind HAProxy (send-proxy-v2): every connection begins with a PROXY header naming the "
                   "player's address; needs --proxy-from.")
@click.option("--proxy-from", multiple=True, metavar="ADDRESS",
              help="An address or network HAProxy connects from (repeatable): a PROXY header from anybody else is "
                   "refused.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="The server's settings (TOML, a [serve] table); without it, the [serve] section of the settings "
                   "file. Options given here override it.")
@click.option("--role", type=click.Choice(["single", "front", "owner", "both"]), default="single", show_default=True,
              help="single: the whole server in this one process, on SQLite. A node of a cluster on PostgreSQL and "
                   "NATS (docs/cluster.md): front (SSH, the lobby), owner (the live tables) or both.")
@click.option("--database", metavar="URL", default="",
              help="Keep the people (names, ratings, bans, chat) and the tables in this PostgreSQL database, "
                   "shared by several servers, a cluster's nodes too: postgresql://USER@HOST:PORT/DATABASE (the "
                   "password in PGPASSWORD or ~/.pgpass). Without it: files in the server's directory.")
@click.option("--bus", metavar="URL", default="", help="A cluster's NATS bus: nats://HOST:PORT.")
@click.option("--room", metavar="NAME", default="main", show_default=True,
              help="A cluster's room on the bus: the nodes of one room serve one lobby.")
@click.option("--node", "node_name", metavar="NAME", default="",
              help="This node's name in the room (default: its role, host and process number).")
def serve_command(host: str, port: int, authorized_keys: Path | None, use_password: bool, open_: bool, delay: int,
                  takeover: int, idle_timeout: int, max_connections: int, max_per_address: int, max_tables: int,
                  tables_per_person: int, set_aside_days: float, login_timeout: int, max_logins: int,
                  max_logins_per_address: int, expert_budget: float, seed: int | None, host_key: Path | None,
                  proxy_protocol: bool, proxy_from: tuple[str, ...], config_file: Path | None, role: str,
                  database: str, bus: str, room: str, node_name: str) -> None:
    """Host tables over SSH: friends join with ssh -p PORT NAME@HOST."""
    import asyncio
    import logging

    from .server import ConfigError
    from .server.cluster.node import EngineError, OwnerNode, serve_node

    password = None
    if use_password:
        password = os.environ.get(PASSWORD_ENV) or None
        if password is None:
            if not has_terminal():
                raise click.UsageError(f"--password: set {PASSWORD_ENV}, or start the server in a terminal to type it")
            password = click.prompt("Password for the players", hide_input=True, confirmation_prompt=True, err=True)
    flags = dict(host=host, port=port, authorized_keys=authorized_keys, password=password, open=open_,
                 delay_ms=delay, takeover=float(takeover), idle_timeout=float(idle_timeout),
                 max_connections=max_connections, max_per_address=max_per_address, max_tables=max_tables,
                 tables_per_person=tables_per_person, set_aside_after=set_aside_days * DAY,
                 login_timeout=float(login_timeout), max_logins=max_logins,
                 max_logins_per_address=max_logins_per_address, expert_budget=expert_budget, seed=seed,
                 role=role, database=database, bus=bus, host_key=host_key, proxy_protocol=proxy_protocol,
                 proxy_from=proxy_from, room=room, node=node_name)
    from .server.config_file import merged, serve_settings

    # The settings file (or --config FILE), then the options given on the command line.
    ctx = click.get_current_context()
    given = {p for p in ctx.params if ctx.get_parameter_source(p) != click.core.ParameterSource.DEFAULT}
    given = {_SERVE_FIELDS.get(p, p) for p in given}
    try:
        config = merged(serve_settings(config_file), {k: v for k, v in flags.items() if k in given})
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
    host, open_ = config.host, config.open
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    logging.getLogger("asyncssh").setLevel(logging.WARNING)

    def ready(server: Server) -> None:
        where = "HOST" if host in ("0.0.0.0", "::", "") else host
        if config.cluster:
            click.echo(f"canasta serve: front of room {config.room} on the bus", err=True)
        click.echo(f"canasta serve: {config.auth_mode()}; host key {server.fingerprint}"
                   + (" (new)" if server.host_key_made else ""), err=True)
        click.echo(f"Players join with:  ssh -p {server.port} NAME@{where}", err=True)
        if open_ and host not in ("127.0.0.1", "::1", "localhost"):
            click.echo("Warning: --open on a public address lets in anybody who can reach the port.", err=True)

    def owner_ready(owner: OwnerNode) -> None:
        tables = len(owner.registry.tables) if owner.registry is not None else 0
        click.echo(f"canasta serve: owner {owner.name} of room {config.room} holds {tables} tables", err=True)

    try:
        asyncio.run(serve_node(config, ready, owner_ready))
    except (ConfigError, EngineError) as exc:
        raise click.ClickException(str(exc)) from None
    except KeyboardInterrupt:
        pass


@main.group("cluster")
def cluster_group() -> None:
    """A room on several machines: front ends and table owners on PostgreSQL and NATS (docs/cluster.md)."""


@cluster_group.command("try")
@click.option("--port", type=click.IntRange(0, 65535), default=2222, show_default=True,
              help="Where players connect (HAProxy, on 127.0.0.1); 0: a free port.")
@click.option("--owners", type=click.IntRange(1, 8), default=2, show_default=True, help="Table owners to start.")
@click.option("--fronts", type=click.IntRange(1, 8), default=2, show_default=True, help="Front ends to start.")
def cluster_try_command(port: int, owners: int, fronts: int) -> None:
    """Try a whole room on this machine: PostgreSQL, NATS, owners, fronts and HAProxy as processes of
    their own in a temporary directory, as the tests start them; Ctrl-C stops them all."""
    import shutil
    import signal
    import tempfile
    import threading

    from .server.cluster.local import EngineMissing, try_room

    root = Path(tempfile.mkdtemp(prefix="canasta-room-"))
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda signum, frame: stop.set())
    try:
        click.echo(f"Starting a room in {root}: PostgreSQL, NATS, {owners} owners, {fronts} fronts, HAProxy...", err=True)
        with try_room(root, owners=owners, fronts=fronts, port=port or None) as room:
            for name, pid in [("PostgreSQL", room.postgres.pid), ("NATS", room.nats.pid), ("HAProxy", room.haproxy.pid),
                              *((n.name, n.pid) for n in (*room.owners, *room.fronts))]:
                click.echo(f"  {name}: pid {pid}", err=True)
            click.echo(f"Players join with:  ssh -p {room.port} NAME@127.0.0.1", err=True)
            click.echo("Try kill -9 of an owner's pid while a table plays; Ctrl-C stops the room.", err=True)
            while not stop.wait(0.5):
                pass
        click.echo("The room is stopped.", err=True)
    except (EngineMissing, RuntimeError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        shutil.rmtree(root, ignore_errors=True)


@main.group("club")
def club_group() -> None:
    """The club's records, from the host's side (the server's directory or its database)."""


@club_group.command("export")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--dir", "server_dir", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="The server's directory, whose people.sqlite is read (default: the one canasta serve uses).")
@click.option("--database", metavar="URL", default="",
              help="Read a room's PostgreSQL database instead: postgresql://USER@HOST:PORT/DATABASE (the password "
                   "in PGPASSWORD or ~/.pgpass).")
@click.option("--force", is_flag=True, help="Replace the files of an earlier export in DIRECTORY.")
def club_export_command(directory: Path, server_dir: Path | None, database: str, force: bool) -> None:
    """Write the club's matches, seats, hands, ratings and tournaments as CSV and JSON into
    DIRECTORY (docs/club-export.md says what every field is).  The store is only read."""
    from .server.club.export import ExportError, export

    try:
        done = export(directory, database=database, server_dir=server_dir, force=force)
    except ExportError as exc:
        raise click.ClickException(str(exc)) from None
    counts = ", ".join(f"{n} {kind}" for kind, n in done.rows.items())
    click.echo(f"Exported {counts} to {printable(str(done.directory))} (CSV and JSON)")


@main.command("replay")
@click.argument("file", metavar="FILE")
@click.option("--ascii", "ascii_", is_flag=True, help="Suits as letters (c d h s), ASCII lines (automatic without UTF-8).")
@click.option("--four-color", is_flag=True, help="Four-colour deck: clubs green, diamonds blue.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
              help="Colours (auto: unless NO_COLOR is set).")
@click.option("--sort", type=click.Choice(["rank", "suit"]), default="rank", show_default=True,
              help="The order of the hands shown.")
@click.option("--database", metavar="URL", default="",
              help="A room's PostgreSQL database: FILE is then a table's number (or postgresql:table/NUMBER, as "
                   "a match's record names it) whose record is read from there.")
def replay_command(file: str, ascii_: bool, four_color: bool, color: str, sort: str, database: str) -> None:
    """Step through a saved or finished game move by move, every hand shown.

    Right/Left step a move, n/p go to the next or previous hand, Tab (or 1-4) shows the table
    from another seat, a shows every hand at once, Esc or q leaves.  A game that is not over
    is shown too (it is your own file): every hand is in it.
    """
    from .persistence.saves import SaveError, load_file
    from .table.replay import replay_source
    from .ui.canvas import Options
    from .ui.replay import run_replay
    from .ui.style import ASCII, UNICODE, wants_ascii

    _check_terminal()
    try:
        game = _database_record(database, file) if database else load_file(file)
    except SaveError as exc:
        raise click.ClickException(f"cannot replay {printable(str(exc.path))}: {printable(exc.reason)}") from None
    if not has_terminal():
        raise click.ClickException(NO_TERMINAL)
    title = (f"table {game.path.name}" if database else game.path.name) + (
        "" if game.match.winner is not None else " (not finished)")
    glyphs = ASCII if ascii_ or wants_ascii() else UNICODE
    run_replay(replay_source(game.match, game.meta, title), options=Options(glyphs, four_color, False), color=color,
               sort=sort)


def _database_record(database: str, ref: str) -> LoadedGame:
    """``canasta replay --database URL REF``: a table's record from a room's database (SaveError why not)."""
    from .persistence.saves import SaveError
    from .server.cluster.engines import EngineError, database_url
    from .server.cluster.ownership import OwnershipError, connect
    from .server.tables.pgstore import read_table_record

    try:
        conn = connect(database_url(database), "canasta replay")
    except (EngineError, OwnershipError) as exc:
        raise SaveError(Path(ref), str(exc)) from None
    with conn:
        return read_table_record(conn, ref)


#: ``canasta serve``'s options that set a ServerConfig field of another name.
_SERVE_FIELDS = {"node_name": "node", "use_password": "password",
                 "open_": "open", "delay": "delay_ms", "set_aside_days": "set_aside_after"}


main.add_command(config_command)
main.add_command(stats_command)
main.add_command(rules_command)
