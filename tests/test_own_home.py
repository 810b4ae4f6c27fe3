"""The test suite never writes into the player's game directory (issue 10, item 16).

With CANASTA_HOME exported, as the man page suggests, the tmux tests left ``state/autosave.json``
in the player's real directory: their next ``canasta`` offered to resume a game they never played.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from canasta_tui.persistence import Autosaver, paths, settings
from canasta_tui.persistence.selfplay import start, step

ROOT = Path(__file__).resolve().parents[1]
HOME_VARIABLES = ("CANASTA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME")
#: CANASTA_HOME as the test run found it (collection happens before any fixture runs).
FOUND = os.environ.get("CANASTA_HOME")


def test_a_test_without_fixtures_of_its_own_writes_into_its_own_home(own_game_home: Path) -> None:
    """The suite-wide fixture alone keeps the autosave and the settings away from the player's."""
    Autosaver({}).save(step(start(1), 1))
    settings.set_value("level", "expert")
    assert paths.autosave_path().is_relative_to(own_game_home)
    assert paths.settings_path().is_relative_to(own_game_home)
    if FOUND:
        assert not paths.autosave_path().is_relative_to(FOUND)


def test_the_suite_leaves_an_exported_canasta_home_untouched(tmp_path: Path) -> None:
    """A test run with CANASTA_HOME and the XDG directories pointing at the player's (here a
    sentinel directory) writes nothing there: this module's test above, and a tmux test that
    plays and quits (it left state/autosave.json behind)."""
    sentinel = tmp_path / "players-home"
    sentinel.mkdir()
    env = dict(os.environ, **{v: str(sentinel / v.lower()) for v in HOME_VARIABLES})
    tests = ["tests/test_own_home.py::test_a_test_without_fixtures_of_its_own_writes_into_its_own_home",
             "tests/e2e/test_tmux.py::test_too_small_and_quit_asks_first"]
    # (-o addopts= : the suite's own -n auto would need the xdist that -p no:xdist leaves out)
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-o", "addopts=", "-p", "no:cacheprovider", "-p", "no:xdist",
                        *tests],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert sorted(str(p.relative_to(sentinel)) for p in sentinel.rglob("*")) == []
