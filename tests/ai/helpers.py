"""Playing whole hands between computer players, for the tests."""

from __future__ import annotations

import random

from canasta_tui.ai import ComputerPlayer
from canasta_tui.engine import CLASSIC, GameState, Phase, Rules, apply, deal, full_deck, view_for


def shuffled(seed: int) -> list[int]:
    deck = [int(c) for c in full_deck()]
    random.Random(seed).shuffle(deck)
    return deck


def play_hand(players: list[ComputerPlayer], seed: int, rules: Rules = CLASSIC,
              limit: int = 4000) -> tuple[GameState, list[str]]:
    """Play one hand; every choice must be legal (``apply`` raises otherwise)."""
    s = deal(rules, shuffled(seed), seed % rules.players)
    log: list[str] = []
    while s.phase != Phase.HAND_OVER:
        v = view_for(s, s.actor)
        a = players[s.actor].choose(v)
        assert a in v.legal, f"{players[s.actor].name} chose {a} not in {v.legal}"
        log.append(f"{s.actor}:{a}")
        s = apply(s, a)
        assert len(log) < limit, "the hand does not end"
    return s, log
