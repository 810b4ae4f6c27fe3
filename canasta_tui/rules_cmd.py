"""``canasta rules [PRESET]``: the rules text the game implements, with a preset's option values."""

from __future__ import annotations

import io
import os
import re
import shutil
import sys
import textwrap
from pathlib import Path

import click
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from .engine import CLASSIC, Rules, RulesError
from .presets import load_rules, option_help, preset_names, rules_dir
from .text import printable

#: The end of a line: spaces (rich pads lines to the width) mixed with colour codes.
_TRAILING = re.compile(r"(?:[ \t]|\x1b\[[0-9;]*m)+$", re.M)
_SGR = re.compile(r"\x1b\[[0-9;]*m")


def _strip_trailing_spaces(text: str) -> str:
    """Every line without the spaces at its end; the colour codes there stay (they reset the colours)."""
    return _TRAILING.sub(lambda m: "".join(_SGR.findall(m.group(0))), text)


def rules_text_path() -> Path:
    return rules_dir() / "RULES.md"


def options_table(rules: Rules) -> Table:
    """Every rule option with the preset's value; values that differ from classic are marked."""
    t = Table(title=Text(f"Rule options of the {printable(rules.name)} preset (* differs from classic)"),
              title_justify="left")
    t.add_column("option")
    t.add_column("value")
    base = CLASSIC.to_dict()
    for key, value in rules.to_dict().items():
        if key in ("name", "description"):
            continue
        t.add_row(key, Text(_value_text(key, value) + (" *" if base.get(key) != value else "")))
    return t


def _value_text(key: str, value: object) -> str:
    if key == "initial_meld" and isinstance(value, list | tuple):
        return printable(", ".join(f"{a}+: {b}" for a, b in value))
    return str(value).lower() if isinstance(value, bool) else printable(str(value))


def options_list(rules: Rules, width: int = 80) -> Text:
    """Every rule option: the preset's value (``*`` where it differs from classic), then what the
    option does and the values it takes (the options table installed with the game)."""
    base = CLASSIC.to_dict()
    explained = option_help()
    out = Text(f"Rule options of the {printable(rules.name)} preset (* differs from classic)\n", style="bold")
    for key, value in rules.to_dict().items():
        if key in ("name", "description"):
            continue
        out.append("\n")
        out.append(key, style="bold")
        out.append(f" = {_value_text(key, value)}" + (" *" if base.get(key) != value else "") + "\n")
        h = explained.get(key)
        if h is not None:
            values = "true, false" if h.values == "bool" else h.values
            for line in textwrap.wrap(f"{h.meaning} (values: {values})", max(20, width - 4)):
                out.append(f"    {line}\n")
    return out


def render(rules: Rules, width: int = 80, color: bool = False, text_too: bool = True) -> str:
    """The rules text and the preset's option table (``text_too`` False: the table alone)."""
    buf = io.StringIO()
    con = Console(file=buf, width=width, force_terminal=color, no_color=not color, highlight=False)
    if text_too:
        try:
            text = rules_text_path().read_text(encoding="utf-8")
        except OSError as exc:
            text = f"(The rules text is missing: {rules_text_path()}: {exc.strerror})"
        con.print(Markdown(text))
        con.print()
    if rules.description:
        con.print(Text(printable(f"{rules.name}: {rules.description}")))   # from a file: no markup, no escapes
    con.print(options_list(rules, width))
    return _strip_trailing_spaces(buf.getvalue())


@click.command("rules")
@click.argument("preset", default="classic", metavar="[PRESET|FILE]")
@click.option("--options", "options_only", is_flag=True,
              help="Only the rule options: each one's value in the preset and what it does.")
@click.option("--no-pager", is_flag=True, help="Print straight to the terminal, without a pager.")
def rules_command(preset: str, options_only: bool, no_pager: bool) -> None:
    """Show the rules the game plays by, with a preset's option values.

    PRESET is one of the presets (classic by default) or a rules TOML file.  On a
    terminal the text is paged ($PAGER, or less).
    """
    try:
        rules = load_rules(preset)
    except RulesError as exc:
        raise click.BadParameter(printable(str(exc)), param_hint="PRESET") from None
    tty = sys.stdout.isatty()
    width = shutil.get_terminal_size()[0] if tty else 80
    color = tty and not os.environ.get("NO_COLOR")
    text = render(rules, min(width, 100), color, text_too=not options_only)
    if tty and not no_pager:
        # color=None lets click decide with the pager: it sets LESS=-R for less when LESS is unset,
        # and strips the colours for a pager that would show them as ESC[... text.
        click.echo_via_pager(text, color=None if color else False)
    else:
        click.echo(text, nl=False)


__all__ = ["options_list", "options_table", "preset_names", "render", "rules_command", "rules_text_path"]
