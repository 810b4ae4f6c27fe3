"""The README's set-up leaves a ``canasta`` and a manual page that its own "Playing" lines can reach.

Issue 10, item 14: after the README's commands, ``canasta --players 2`` and ``man canasta`` failed
with "command not found" and "No manual entry": the install went into a virtual environment whose
``bin`` was not on PATH.  The first set-up command now activates the environment before installing,
so the shell it was typed in finds ``canasta`` on PATH and ``man`` finds the page (man-db derives
MANPATH from PATH: ``.venv/bin`` on PATH makes ``.venv/share/man`` searchable).

No network here: the command's steps are read from the README, and what activation does is tried
for real on the environment these tests run in, where the package is installed the same way.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent.parent


def section(title: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(f"\n## {title}")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else None]


def blocks(text: str) -> list[str]:
    return [b.strip() for b in re.findall(r"```sh\n(.*?)```", text, re.S)]


def setup_commands() -> list[str]:
    return blocks(section("Set up"))


def steps(command: str) -> list[str]:
    return [s.strip() for s in command.split("&&")]


def playing_programs() -> list[list[str]]:
    [block] = blocks(section("Playing"))
    return [shlex.split(line.split("#")[0]) for line in block.splitlines() if line.split("#")[0].strip()]


def test_exactly_two_set_up_commands_and_the_second_is_what_ci_runs() -> None:
    _install, tests = setup_commands()
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    venv, pip, pytest_ = steps(tests)
    assert f"{venv} && {pip}" in ci and pytest_ in ci


def test_the_set_up_says_what_a_fresh_debian_needs_first() -> None:
    assert "sudo apt install python3-venv" in section("Set up")


def test_the_install_command_activates_the_environment_before_installing_and_starting() -> None:
    """`python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/canasta` left `canasta` off PATH."""
    [install, _] = setup_commands()
    s = steps(install)
    assert s[0] == "python3 -m venv .venv"
    activate = next(i for i, step in enumerate(s) if shlex.split(step) in ([".", ".venv/bin/activate"],
                                                                           ["source", ".venv/bin/activate"]))
    pip = next(i for i, step in enumerate(s) if shlex.split(step)[:2] == ["pip", "install"])
    assert activate < pip and shlex.split(s[pip])[2:] == ["."]     # the activated environment's pip
    assert s[-1] == "canasta" and pip < len(s) - 1                # found on PATH, as in "Playing"


def test_every_playing_line_runs_a_program_the_activated_environment_provides() -> None:
    programs = {argv[0] for argv in playing_programs()}
    assert programs == {"canasta", "man"}
    assert ["man", "canasta"] in playing_programs()


@pytest.mark.skipif(shutil.which("man") is None, reason="man-db is not installed (CI installs it)")
def test_after_activation_path_finds_canasta_and_man_finds_its_page(tmp_path: Path) -> None:
    """What the README's activation does, for real: in a shell whose PATH knows nothing of the
    environment, source its activate script; then `canasta` and `man canasta` must resolve to it."""
    venv = Path(sys.prefix)
    if venv == Path(sys.base_prefix) or not (venv / "bin" / "activate").exists():
        pytest.skip("the tests do not run in a virtual environment (the README's set-up makes one)")
    assert (venv / "share" / "man" / "man6" / "canasta.6").exists()   # pyproject's shared-data put it there
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8",
           "CANASTA_HOME": str(tmp_path / "canasta")}
    script = '. "$1/bin/activate" && command -v canasta && man -w canasta && canasta --help'
    r = subprocess.run(["bash", "-c", script, "bash", str(venv)], env=env, capture_output=True, text=True,
                       timeout=60, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == str(venv / "bin" / "canasta")
    assert lines[1] == str(venv / "share" / "man" / "man6" / "canasta.6")
    assert lines[2].startswith("Usage: canasta")
