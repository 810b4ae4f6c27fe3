"""Text from users and files reaches the terminal written out, never as markup or escape sequences.

Issue 10, items 10 and 11: a name or file name ``[/]`` gave rich's MarkupError in ``config``,
``stats`` and ``rules FILE``; names with escape sequences (ESC [2J, OSC 0) from ``--name``, the
settings or a finished save reached the terminal raw through ``config``, ``stats`` and ``--history``;
a newline in a name broke the table's layout.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner

from canasta_tui.cli import main
from canasta_tui.engine import RulesError
from canasta_tui.persistence import paths, settings, stats
from canasta_tui.presets import load_rules
from tests.persistence.test_stats import finished

CLEAR = "\x1b[2J"
TITLE = "\x1b]0;pwned\x07"


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    r = CliRunner().invoke(main, list(args), input=input)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output
    return r.exit_code, r.output


def settings_file(text: str) -> Path:
    p = paths.settings_path()
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


def no_control(out: str) -> None:
    """Nothing but newlines below space: no ESC, BEL or CR reaches the terminal."""
    assert [c for c in out if ord(c) < 32 and c != "\n"] == []


# ----------------------------------------------------------------- config

def test_config_shows_a_name_and_a_rules_file_called_brackets_slash() -> None:
    """`name = "[/]"` gave "MarkupError: closing tag '[/]' … has nothing to close" in `canasta config`."""
    settings_file('name = "[/]"\nrules = "[/].toml"\n[rule_options]\nname = "[bold]x[/]"\n')
    code, out = run("config")
    assert code == 0
    assert "[/]" in out and "[/].toml" in out and "name=[bold]x[/]" in out


def test_a_settings_name_with_an_escape_sequence_is_refused_with_the_usual_notice() -> None:
    p = settings_file('name = "\\u001b[2Jmallory"\nlevel = "expert"\n')
    loaded = settings.load_settings()
    assert loaded.settings.name == "" and loaded.settings.level == "expert"
    assert loaded.problem == (f"{p}: name: a name may not hold control characters (\\x1b) "
                              "(the default is used instead)")
    code, out = run("config")
    assert code == 0 and "(\\x1b)" in out
    no_control(out)


def test_a_name_with_a_newline_or_too_long_is_refused_in_the_settings_file() -> None:
    settings_file('name = "two\\nlines"\n')
    assert "a name may not hold control characters (\\n)" in (settings.load_settings().problem or "")
    settings_file(f'name = "{"x" * 21}"\n')
    assert "a name may be at most 20 characters long, not 21" in (settings.load_settings().problem or "")


def test_config_set_name_refuses_control_characters_and_writes_nothing() -> None:
    code, out = run("config", "set", "name", CLEAR + "eve")
    assert code == 1 and out == "Error: name: a name may not hold control characters (\\x1b)\n"
    assert not paths.settings_path().exists()
    code, out = run("config", "set", "name", "  Ann  ")
    assert code == 0 and settings.load_settings().settings.name == "Ann"


@pytest.mark.parametrize(("text", "said"), [
    ('rules = "x\\u001b[2J.toml"\n', "rules may not hold control characters (x\\x1b[2J.toml)"),
    ('rules = ["classic"]\n', "rules must be text, not a list"),
    ("name = 7\n", "a name must be text, not int"),
    ('[rule_options]\ndescription = "\\u001b]0;t\\u0007"\n',
     "rule_options: description may not hold control characters (\\x1b]0;t\\x07)"),
    ("[rule_options]\ntarget_score = true\n", "rule_options: rule option 'target_score' must be a whole number"),
    ("level = [" + "[" * 50 + "]" * 50 + "]\n", "level must be text, not a list"),
], ids=["rules-escape", "rules-list", "name-number", "rule-option-escape", "rule-option-type", "nested"])
def test_every_settings_value_is_checked_and_the_notice_is_printable(text: str, said: str) -> None:
    settings_file(text)
    loaded = settings.load_settings()
    assert loaded.problem is not None and said in loaded.problem, loaded.problem
    assert loaded.settings == settings.Settings()
    code, out = run("config")
    assert code == 0
    no_control(out)


# ----------------------------------------------------------------- --name

@pytest.mark.parametrize(("name", "reason"), [
    (CLEAR, "a name may not hold control characters (\\x1b)"),
    (TITLE, "a name may not hold control characters (\\x1b\\x07)"),
    ("Ann\nBob", "a name may not hold control characters (\\n)"),
    ("A" * 21, "a name may be at most 20 characters long, not 21"),
], ids=["clear-screen", "osc-title", "newline", "too-long"])
def test_name_option_refuses_control_characters_and_long_names(name: str, reason: str) -> None:
    code, out = run("--name", name)
    assert code == 2 and f"Invalid value for '--name': {reason}" in out
    no_control(out)


# ----------------------------------------------------------------- stats and --history

def hostile_names_in_the_database() -> None:
    """Names as an older version stored them (straight from --name or a save): raw SQL."""
    stats.record_match_result(finished(2), {0: "Ann", 2: "Bob"}, "expert", game_key="g")
    with closing(sqlite3.connect(paths.stats_path())) as db, db:
        db.execute("UPDATE players SET name = ? WHERE name = 'Ann'", (CLEAR + "ann" + TITLE,))
        db.execute("UPDATE players SET name = ? WHERE name = 'Bob'", ("[/]:smile:",))
        db.execute("UPDATE matches SET rules = ?, level = ?", ("[bold]", "expert\x1b[31m"))


def test_stats_shows_stored_names_written_out() -> None:
    hostile_names_in_the_database()
    code, out = run("stats")
    assert code == 0
    assert "\\x1b[2Jann\\x1b]0;pwned\\x07" in out
    assert "[/]:smile:" in out and "expert\\x1b[31m" in out
    no_control(out)


def test_history_shows_stored_names_and_rules_written_out() -> None:
    hostile_names_in_the_database()
    code, out = run("stats", "--history")
    assert code == 0
    assert "\\x1b[2Jann" in out and "[/]:smile:" in out and "[bold] rules" in out
    no_control(out)


def test_stats_player_option_echoes_the_name_written_out() -> None:
    code, out = run("stats", "--player", CLEAR)
    assert code == 0 and out == "No finished matches for \\x1b[2J.\n"
    code, out = run("stats", "--reset", "--player", TITLE, input="n\n")
    assert "Reset \\x1b]0;pwned\\x07's wins" in out
    no_control(out)


# ----------------------------------------------------------------- rules FILE

def test_rules_file_with_markup_and_escapes_in_its_name_and_description(tmp_path: Path) -> None:
    f = tmp_path / "[odd].toml"
    f.write_text('[rules]\nname = "[/]"\ndescription = "\\u001b[2J[bold]wipe[/bold]"\n', encoding="utf-8")
    code, out = run("rules", str(f))
    assert code == 0
    assert "[/]: \\x1b[2J[bold]wipe[/bold]" in out and "Rule options of the [/] preset" in out
    no_control(out)


def test_a_rules_file_that_is_not_text_is_refused_with_the_reason(tmp_path: Path) -> None:
    """`rules = "/bin/ls"` gave UnicodeDecodeError: a file that is not UTF-8 text is a RulesError."""
    f = tmp_path / "binary.toml"
    f.write_bytes(b"\x7fELF\x02\x01\x01\x00\xff\xfe" * 50)
    with pytest.raises(RulesError, match=f"{f}: not a rules file: not UTF-8 text \\(byte 8\\)"):
        load_rules(str(f))
    code, out = run("rules", str(f))
    assert code == 2 and "not a rules file: not UTF-8 text (byte 8)" in out


def test_a_rules_file_name_with_an_escape_sequence_is_written_out_in_the_error(tmp_path: Path) -> None:
    """--rules FILE goes through the same check for the game and for bench engine (which needs no terminal)."""
    code, out = run("bench", "engine", "--rules", str(tmp_path / "x\x1b[2J.toml"))
    assert code == 2 and "x\\x1b[2J.toml" in out
    no_control(out)
