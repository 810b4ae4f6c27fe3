"""Shared fixtures: every test's own game directory, seeded decks and a way to script exact hands."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from hypothesis import settings

from canasta_tui.engine import full_deck


def shuffled(seed: int) -> list[int]:
    deck = [int(c) for c in full_deck()]
    random.Random(seed).shuffle(deck)
    return deck


#: Where canasta keeps files: every one of them is moved into the test's own directory.
HOME_VARIABLES = ("CANASTA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME")


@pytest.fixture(autouse=True)
def own_game_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test plays in its own directories, whatever the environment holds: with CANASTA_HOME
    exported (as the man page suggests), tests wrote an autosave into the player's real one.
    Subprocesses (the installed canasta, tmux) inherit these variables."""
    root = tmp_path_factory.mktemp("canasta-home")
    for name in HOME_VARIABLES:
        monkeypatch.setenv(name, str(root / name.lower()))
    return root


@pytest.fixture
def deck() -> list[int]:
    return shuffled(1)


# CI must be reproducible: Hypothesis explores the same examples on every CI run (and
# keeps no example database on the fresh machine).  Locally it still searches afresh.
if os.environ.get("CI"):
    settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
    settings.load_profile("ci")
