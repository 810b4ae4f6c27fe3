"""What kind of terminal the table gets: the locale decides UTF-8 or ASCII, TERM=dumb is refused.

Issue 10, item 17: a non-UTF-8 locale still got UTF-8 suits and box lines, though --help and the
man page promise an automatic ASCII fallback (Python's UTF-8 mode says utf-8 under LANG=C, and
Python itself rewrites LC_CTYPE to C.UTF-8 when the locale is C); TERM=dumb got full-screen
escape sequences.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from canasta_tui.cli import main
from canasta_tui.persistence import paths
from canasta_tui.ui.style import wants_ascii

LOCALE_VARS = ("LC_ALL", "LC_CTYPE", "LANG")


@pytest.mark.parametrize(("env", "ascii_"), [
    ({}, True),                                                      # nothing set: the C locale
    ({"LANG": "C"}, True),
    ({"LANG": "POSIX"}, True),
    ({"LANG": "C.UTF-8"}, False),
    ({"LANG": "de_DE.utf8"}, False),
    ({"LANG": "en_US.ISO-8859-1"}, True),
    ({"LANG": "ru_RU.KOI8-R"}, True),
    ({"LC_CTYPE": "C", "LANG": "en_US.UTF-8"}, True),                # LC_CTYPE wins over LANG
    ({"LC_CTYPE": "en_GB.UTF-8", "LANG": "C"}, False),
    ({"LC_ALL": "C", "LC_CTYPE": "en_GB.UTF-8", "LANG": "en_GB.UTF-8"}, True),   # LC_ALL wins over both
    ({"LC_ALL": "fr_FR.UTF-8@euro", "LC_CTYPE": "C"}, False),
    ({"LC_ALL": "", "LC_CTYPE": "", "LANG": "en_US.UTF-8"}, False),  # an empty value does not count
    ({"LC_ALL": "", "LANG": "C"}, True),
], ids=lambda v: repr(v) if isinstance(v, dict) else str(v))
def test_the_locale_decides_ascii(env: dict[str, str], ascii_: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    for var in LOCALE_VARS:
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    assert wants_ascii() is ascii_


def test_a_locale_without_a_codeset_asks_the_c_library(monkeypatch: pytest.MonkeyPatch) -> None:
    """A locale name without a codeset is looked up; one this system does not have is the C locale
    (what the C library falls back to): ASCII."""
    for var in LOCALE_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "xx_NOWHERE")
    assert wants_ascii() is True


@pytest.mark.parametrize(("env", "ascii_"), [
    ({"LANG": "C"}, True),
    ({"LC_CTYPE": "C", "LANG": "C.UTF-8"}, True),
    ({"LANG": "C.UTF-8"}, False),
    ({"LC_ALL": "C.UTF-8", "LANG": "C"}, False),
], ids=lambda v: repr(v) if isinstance(v, dict) else str(v))
def test_a_fresh_process_under_the_c_locale_gets_ascii(env: dict[str, str], ascii_: bool) -> None:
    """In a new interpreter Python's locale coercion has rewritten LC_CTYPE to C.UTF-8 and UTF-8 mode
    says utf-8: the locale the program was started with still decides."""
    base = {k: v for k, v in os.environ.items() if k not in (*LOCALE_VARS, "PYTHONUTF8", "PYTHONIOENCODING")}
    r = subprocess.run([sys.executable, "-c", "from canasta_tui.ui.style import wants_ascii; print(wants_ascii())"],
                       env=base | env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(ascii_)


def test_term_dumb_is_refused_before_anything_is_drawn(home: Path) -> None:
    """TERM=dumb (Emacs' shell, some CI) cannot place the cursor: say so, exit 1, draw nothing."""
    r = CliRunner().invoke(main, ["--seed", "3"], env={"TERM": "dumb"})
    assert r.exit_code == 1
    assert r.output == ("Error: canasta needs a terminal that can place the cursor, and TERM=dumb cannot: "
                        "play in a terminal window, or in tmux or screen (canasta rules, stats and config work "
                        "here)\n")
    assert not paths.state_dir().exists()       # no autosave, no lock: nothing was started


def test_term_dumb_still_runs_the_commands_that_only_print(home: Path) -> None:
    r = CliRunner().invoke(main, ["stats"], env={"TERM": "dumb"})
    assert r.exit_code == 0 and r.output == "No finished matches yet.\n"
