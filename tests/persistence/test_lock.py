"""Two games at once never share one autosave: the second plays a separate game in autosave-2.json."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from canasta_tui.persistence import paths
from canasta_tui.persistence.lock import claim_autosave, release_all

HOLD = """
import sys, time
from canasta_tui.persistence.lock import claim_autosave
path, notes = claim_autosave()
print(path, flush=True)
time.sleep(60)
"""

CLAIM = """
from canasta_tui.persistence.lock import claim_autosave
path, notes = claim_autosave()
print(path)
print("|".join(notes))
"""


def python(code: str, home: Path, **kw: object) -> subprocess.Popen[str]:
    env = dict(os.environ, CANASTA_HOME=str(home))
    return subprocess.Popen([sys.executable, "-c", code], env=env, text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, **kw)  # type: ignore[call-overload]


def test_a_second_game_gets_its_own_autosave_and_is_told_why(home: Path) -> None:
    first = python(HOLD, home)
    try:
        assert first.stdout is not None
        assert first.stdout.readline().strip() == str(paths.autosave_path())
        second = python(CLAIM, home)
        out, err = second.communicate(timeout=30)
        path, notes = out.splitlines()
        assert path == str(paths.state_dir() / "autosave-2.json"), err
        assert f"Another canasta (process {first.pid}) is playing the game autosaved in " \
               f"{paths.autosave_path()}" in notes
        assert f"canasta --load {path} plays it on later" in notes
    finally:
        first.kill()
        first.wait(10)
    # The first game is gone (killed: the kernel dropped its lock): the autosave is free again.
    third = python(CLAIM, home)
    out, _ = third.communicate(timeout=30)
    assert out.splitlines()[0] == str(paths.autosave_path())


def test_the_lock_is_held_while_the_game_runs_in_this_process(home: Path) -> None:
    path, notes = claim_autosave()
    try:
        assert path == paths.autosave_path() and notes == []
        other = python(CLAIM, home)
        out, _ = other.communicate(timeout=30)
        assert out.splitlines()[0].endswith("autosave-2.json")
    finally:
        release_all()
    time.sleep(0.01)
    out, _ = python(CLAIM, home).communicate(timeout=30)
    assert out.splitlines()[0] == str(paths.autosave_path())


def test_an_unfinished_game_in_another_autosave_is_pointed_out(home: Path) -> None:
    """A game played while another held the autosave lives on in autosave-2.json; a new
    ``canasta`` says where it is and how to play it on, unless it is running right now."""
    from canasta_tui.persistence import Autosaver
    from canasta_tui.persistence.lock import AutosaveLock
    from canasta_tui.persistence.selfplay import start, step
    from canasta_tui.play.start import choose_start

    second = paths.autosave_path(2)
    Autosaver({"seats": ["human", "computer", "computer", "computer"]}, path=second).save(step(start(4), 1))
    game, notices = choose_start(resume=False, new=False, load=None)
    assert game is None
    assert notices == [f"Another unfinished game is autosaved in {second} (canasta --load {second} plays it on)."]
    # Still being played by another canasta (its lock is held): nothing to point out.
    running = AutosaveLock(second)
    assert running.acquire() is True
    try:
        assert choose_start(resume=False, new=False, load=None) == (None, [])
    finally:
        running.release()
    # A file that cannot be read is left exactly as it is, and not offered.
    second.write_text("{not json", encoding="utf-8")
    assert choose_start(resume=False, new=False, load=None) == (None, [])
    assert second.read_text(encoding="utf-8") == "{not json"
