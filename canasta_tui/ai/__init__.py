"""Computer players.  The interface every level implements (the UI and benches use only this).

A computer player receives one seat's :class:`~canasta_tui.engine.PlayerView` (which
carries that seat's legal actions in ``view.legal``) and returns one of them.  It never
sees another hand: the view does not hold them.

    from canasta_tui.ai import make_player
    p = make_player("advanced", seed=7)
    action = p.choose(view_for(state, seat))   # one of view.legal
"""

from __future__ import annotations

from typing import Protocol

from ..engine import Action, PlayerView

LEVELS = ("beginner", "advanced", "expert")
#: Every level ``make_player`` accepts (``random`` is a yardstick for benches).
ALL_LEVELS = ("random", *LEVELS)


class ComputerPlayer(Protocol):
    name: str

    def choose(self, view: PlayerView) -> Action:
        """One of ``view.legal``.  Answers "May I go out, partner?" too (legal is yes/no then)."""
        ...


def make_player(level: str, seed: int, *, aggression: int = 50, budget: float = 1.0) -> ComputerPlayer:
    """A computer player of ``level`` (random, beginner, advanced, expert).

    ``seed`` makes its choices reproducible.  ``aggression`` (0-100, Expert only) is the
    chance, drawn at the start of each hand, that the hand is played aggressively (fast
    melding, quick going out).  ``budget`` is the Expert's thinking time per decision in
    seconds.
    """
    from .players import RandomPlayer, advanced, beginner

    key = level.strip().lower()
    if key == "random":
        return RandomPlayer(seed)
    if key == "beginner":
        return beginner(seed)
    if key == "advanced":
        return advanced(seed)
    if key == "expert":
        if not 0 <= aggression <= 100:
            raise ValueError(f"aggression must be 0-100, not {aggression}")
        if budget <= 0:
            raise ValueError(f"budget must be positive, not {budget}")
        from .expert import ExpertPlayer

        return ExpertPlayer(seed, aggression=aggression, budget=budget)
    raise ValueError(f"unknown level {level!r}; choose one of: {', '.join(ALL_LEVELS)}")


__all__ = ["ALL_LEVELS", "LEVELS", "ComputerPlayer", "make_player"]
