"""The ``canasta`` command."""

from __future__ import annotations

import json

import click

from .bench.ai_bench import ai_command
from .engine.errors import RulesError
from .presets import load_rules, preset_names


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--rules", "rules_name", default="classic", show_default=True, metavar="NAME|FILE",
              help="Rules preset (" + ", ".join(preset_names()) + ") or a TOML file.")
@click.pass_context
def main(ctx: click.Context, rules_name: str) -> None:
    """Four-player partnership Canasta at the terminal."""
    if ctx.invoked_subcommand is not None:
        return
    try:
        rules = load_rules(rules_name)
    except RulesError as exc:
        raise click.BadParameter(str(exc), param_hint="--rules") from None
    click.echo(f"Canasta ({rules.name} rules): {rules.description}")
    click.echo("The full-screen table is not built yet; `canasta bench engine` exercises the rules engine.")


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
        raise click.BadParameter(str(exc), param_hint="--rules") from None
    result = run(seconds, seed, rules)
    click.echo(json.dumps(result) if as_json else report(result))


bench.add_command(ai_command)
