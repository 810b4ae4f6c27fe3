"""Kill a game that autosaves (``kill -9``, SIGHUP) at random moments, then resume.

The subject is the headless driver ``python -m canasta_tui.persistence.selfplay``: it
prints the number of completed actions after each autosave.  After ``kill -9`` the
autosave holds the last printed action, or the one after it if the kill came between
the write and the print; after SIGHUP the exit saver writes the last completed action
and says which.  Either way the saved match equals the seeded game at that point.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from canasta_tui.engine import Match, record
from canasta_tui.persistence import load_file, paths
from canasta_tui.persistence.selfplay import actions_done, reference


def game(m: Match) -> dict[str, object]:
    d = record.to_dict(m)
    d.pop("meta")
    return d


def run(home: Path, *args: str) -> subprocess.Popen[str]:
    env = dict(os.environ, CANASTA_HOME=str(home), PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "canasta_tui.persistence.selfplay", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def kill_at(home: Path, seed: int, sig: int, after: int) -> tuple[list[str], int]:
    """Start a game, send ``sig`` once it has printed ``after`` actions; its output and exit code."""
    p = run(home, "--seed", str(seed), "--actions", "100000")
    assert p.stdout is not None
    lines = []
    for line in p.stdout:
        lines.append(line.strip())
        if line.strip().isdigit() and int(line) >= after:
            p.send_signal(sig)
            break
    # Read the rest through the same text wrapper: communicate() reads the pipe's file
    # descriptor directly and would lose the lines the loop above had already buffered (the
    # last printed action among them). The timer stands in for communicate()'s timeout.
    watchdog = threading.Timer(30, p.kill)
    watchdog.start()
    try:
        lines += p.stdout.read().split()
        err = p.stderr.read() if p.stderr is not None else ""
        p.wait()
    finally:
        watchdog.cancel()
    assert "Traceback" not in err, err
    return lines, p.returncode


def printed(lines: list[str]) -> int:
    return max(int(x) for x in lines if x.isdigit())


def candidates(seed: int, n: int) -> list[dict[str, object]]:
    """The saved game after n actions: before or after the deal that may follow the n-th."""
    return [game(reference(seed, n, deal=False)), game(reference(seed, n, deal=True))]


@pytest.mark.parametrize("trial", range(8))
def test_kill_9_loses_at_most_the_action_in_flight(trial: int, home: Path) -> None:
    rng = random.Random(trial)
    seed = 100 + trial
    lines, code = kill_at(home, seed, signal.SIGKILL, rng.randrange(1, 250))
    assert code == -signal.SIGKILL
    last = printed(lines)
    saved = load_file(paths.autosave_path()).match
    assert actions_done(saved) in (last, last + 1)
    assert game(saved) in candidates(seed, actions_done(saved))
    assert not [p for p in paths.state_dir().iterdir() if p.name != "autosave.json" and not p.name.endswith(".tmp")]


@pytest.mark.parametrize("trial", range(4))
def test_sighup_saves_the_last_completed_action(trial: int, home: Path) -> None:
    rng = random.Random(1000 + trial)
    seed = 200 + trial
    lines, code = kill_at(home, seed, signal.SIGHUP, rng.randrange(1, 250))
    assert code == 128 + signal.SIGHUP
    assert "exit-saved" in lines
    exit_saved = int(lines[lines.index("exit-saved") + 1])
    assert exit_saved >= printed(lines)
    saved = load_file(paths.autosave_path()).match
    assert actions_done(saved) == exit_saved
    assert game(saved) in candidates(seed, exit_saved)


def test_resume_after_kill_continues_exactly_as_an_uninterrupted_game(home: Path) -> None:
    seed = 77
    kill_at(home, seed, signal.SIGKILL, 60)
    n = actions_done(load_file(paths.autosave_path()).match)
    p = run(home, "--seed", str(seed), "--actions", str(n + 40), "--resume")
    out, err = p.communicate(timeout=30)
    assert p.returncode == 0, err
    assert out.split()[0] == str(n)  # it started where the killed game stopped
    assert game(load_file(paths.autosave_path()).match) == game(reference(seed, n + 40, deal=False))
