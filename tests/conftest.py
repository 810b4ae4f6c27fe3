"""Shared fixtures: seeded decks and a way to script exact hands."""

from __future__ import annotations

import random

import pytest

from canasta_tui.engine import full_deck


def shuffled(seed: int) -> list[int]:
    deck = [int(c) for c in full_deck()]
    random.Random(seed).shuffle(deck)
    return deck


@pytest.fixture
def deck() -> list[int]:
    return shuffled(1)
