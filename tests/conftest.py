"""Shared fixtures: seeded decks and a way to script exact hands."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import settings

from canasta_tui.engine import full_deck


def shuffled(seed: int) -> list[int]:
    deck = [int(c) for c in full_deck()]
    random.Random(seed).shuffle(deck)
    return deck


@pytest.fixture
def deck() -> list[int]:
    return shuffled(1)


# CI must be reproducible: Hypothesis explores the same examples on every CI run (and
# keeps no example database on the fresh machine).  Locally it still searches afresh.
if os.environ.get("CI"):
    settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
    settings.load_profile("ci")
