"""The computer players: random, Beginner, Advanced (rule-based).  The Expert is in ``expert``."""

from __future__ import annotations

import random

from ..engine import Action, PlayerView
from .heuristic import ADVANCED, ADVANCED_AGGRESSIVE, BEGINNER, Style, TurnMemory, decide, safe_fallback


class RandomPlayer:
    """Uniform over the legal actions (a yardstick for the bench)."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal
        return legal[self.rng.randrange(len(legal))]


class HeuristicPlayer:
    """Beginner or Advanced: rules of thumb, no look-ahead, a few hundred microseconds a move."""

    def __init__(self, name: str, style: Style, seed: int = 0) -> None:
        self.name = name
        self.style = style
        self.seed = seed
        self.memory = TurnMemory()

    def choose(self, view: PlayerView) -> Action:
        try:
            a = decide(view, self.style, self.memory)
        except Exception:  # never fail in front of a player: fall back to a safe legal action
            a = safe_fallback(view, self.memory)
        return a if a in view.legal else view.legal[0]


def beginner(seed: int = 0) -> HeuristicPlayer:
    return HeuristicPlayer("beginner", BEGINNER, seed)


def advanced(seed: int = 0, aggressive: bool = False) -> HeuristicPlayer:
    return HeuristicPlayer("advanced", ADVANCED_AGGRESSIVE if aggressive else ADVANCED, seed)
