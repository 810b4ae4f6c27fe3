"""man/canasta.6: lint-clean roff, every option of every command, every key of the in-game help."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import click
import pytest

from canasta_tui.cli import main
from canasta_tui.ui.keys import KEYS

PAGE = Path(__file__).parent.parent.parent / "man" / "canasta.6"


def source() -> str:
    return PAGE.read_text(encoding="utf-8")


def section(name: str) -> str:
    text = source()
    start = text.index(f".SH {name}\n")
    end = text.find("\n.SH ", start + 1)
    return text[start:end]


@pytest.mark.skipif(shutil.which("mandoc") is None, reason="mandoc is not installed (CI installs it)")
def test_mandoc_lint_reports_nothing() -> None:
    r = subprocess.run(["mandoc", "-T", "lint", str(PAGE)], capture_output=True, text=True)
    assert (r.returncode, r.stdout + r.stderr) == (0, "")


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff is not installed (CI installs it)")
def test_groff_warns_about_nothing() -> None:
    r = subprocess.run(["groff", "-man", "-ww", "-z", str(PAGE)], capture_output=True, text=True)
    assert (r.returncode, r.stdout + r.stderr) == (0, "")


def test_the_sections_a_section_6_page_needs() -> None:
    assert source().startswith(".TH CANASTA 6 ")
    heads = re.findall(r"^\.SH (.+)$", source(), re.M)
    assert heads == ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "KEYS", "RULES", "FILES", "ENVIRONMENT",
                     "EXIT STATUS", "EXAMPLES", "REPORTING BUGS", "SEE ALSO"]


def commands(cmd: click.Command, path: str = "canasta") -> list[tuple[str, click.Command]]:
    out = [(path, cmd)]
    if isinstance(cmd, click.Group):
        for name, sub in cmd.commands.items():
            out += commands(sub, f"{path} {name}")
    return out


def long_options() -> set[str]:
    return {opt for _, cmd in commands(main) for p in cmd.params for opt in p.opts + p.secondary_opts
            if opt.startswith("--")} | {"--help"}


def test_every_long_option_of_every_command_is_in_the_page() -> None:
    missing = sorted(o for o in long_options() if "\\-\\-" + o[2:].replace("-", "\\-") not in source())
    assert missing == []


def test_every_command_is_in_the_synopsis() -> None:
    synopsis = section("SYNOPSIS")
    for path, cmd in commands(main):
        if isinstance(cmd, click.Group) and path != "canasta":
            continue
        words = path.split()[1:]
        assert all(w in synopsis for w in words), path


def test_keys_match_the_in_game_help_exactly() -> None:
    """The KEYS section lists ui/keys.py's KEYS: same sections, labels and descriptions, same order."""
    keys = section("KEYS")
    got = []
    current = ""
    lines = keys.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith(".SS "):
            current = line[4:]
        elif line == ".TP":
            label = lines[i + 1].removeprefix(".B ")
            desc = []
            j = i + 2
            while j < len(lines) and not lines[j].startswith("."):
                desc.append(lines[j])
                j += 1
            got.append((current, label, " ".join(desc).replace("\\\\", "\\")))
            i = j
            continue
        i += 1
    assert got == [(k.section, k.label, k.description) for k in KEYS]


def test_files_and_environment_name_every_path_and_variable() -> None:
    files = section("FILES")
    for name in ("settings.toml", "autosave.json", "autosave.json.lock", "autosave-2.json", "autosave.backup",
                 "autosave.corrupt", "saves/NAME.json",
                 "canasta.db", "CANASTA_HOME"):
        assert name in files.replace("\\-", "-")
    env = section("ENVIRONMENT")
    for var in ("NO_COLOR", "CANASTA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME"):
        assert f".B {var}" in env


def test_the_page_is_installed_with_the_package() -> None:
    pyproject = (PAGE.parent.parent / "pyproject.toml").read_text()
    assert '"man/canasta.6" = "share/man/man6/canasta.6"' in pyproject
