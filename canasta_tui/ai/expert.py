"""Expert: placeholder until the search lands (plays as Advanced)."""

from __future__ import annotations

from ..engine import Action, PlayerView
from .players import advanced


class ExpertPlayer:
    def __init__(self, seed: int, *, aggression: int = 50, budget: float = 1.0) -> None:
        self.name = "expert"
        self.inner = advanced(seed)

    def choose(self, view: PlayerView) -> Action:
        return self.inner.choose(view)
