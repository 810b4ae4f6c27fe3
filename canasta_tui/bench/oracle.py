"""The oracle: a reference for ``canasta bench ai``, never a player anyone can sit with.

It is the Expert's search run on the true state of the hand instead of sampled deals: it
knows every hand and the order of the stock, so each candidate is played out once, exactly
as it would go on with the rules of thumb, and the best is taken.  Its figures in the
bench are the ceiling a fair player of this design can approach.

It is not a level: :func:`~canasta_tui.ai.make_player` does not know it, and nothing outside
the bench builds it.  It sees the whole deal only through the bench's own hand-off
(:meth:`OraclePlayer.see`), given just before each decision and checked against the view
the oracle is asked about; without it, it refuses to play.
"""

from __future__ import annotations

from ..ai.expert import MIN_GAIN, ExpertPlayer
from ..ai.heuristic import Style
from ..engine import Action, GameState, PlayerView, view_for
from ..engine.state import team

#: The bench's name for the reference (``--a oracle``); not in ``ai.LEVELS``.
ORACLE = "oracle"


class OracleError(RuntimeError):
    """The oracle was asked to play without the bench's hand-off of the true state."""


class OraclePlayer(ExpertPlayer):
    """The Expert's candidates, each played out once in the true state (a bench reference)."""

    def __init__(self, seed: int, *, aggression: int = 50, budget: float = 0.1) -> None:
        super().__init__(seed, aggression=aggression, budget=budget)
        self.name = ORACLE
        self._state: GameState | None = None
        self._truth: GameState | None = None

    def see(self, state: GameState) -> None:
        """The bench hands over the whole state before the oracle's decision."""
        self._state = state

    def choose(self, view: PlayerView) -> Action:
        state, self._state = self._state, None
        if state is None or view_for(state, view.seat) != view:
            raise OracleError("the oracle plays only in the bench, handed the true state of the hand")
        self._truth = state
        return super().choose(view)

    def sample_values(self, v: PlayerView, cands: list[tuple[Action, Style | None]]) -> list[list[float]]:
        """One "sample": the true state (the rollouts are deterministic, so one is enough)."""
        me = team(v.seat, v.rules)
        truth = self._truth
        assert truth is not None, "sample_values runs inside choose, after the hand-off"
        values: list[list[float]] = []
        nodes = 0
        for a, st in cands:
            x = self._rollout(truth, v.seat, a, st, me, float("inf"))
            assert x is not None
            values.append([x[0]])
            nodes += x[1]
        self.last_search = {"samples": 1, "candidates": len(cands), "nodes": nodes, "seconds": 0.0,
                            "clock_stop": 0.0}
        return values

    def _search(self, v: PlayerView, cands: list[tuple[Action, Style | None]],
                base: Action) -> tuple[Action, Style | None]:
        values = self.sample_values(v, cands)
        best_j, best = 0, values[0][0] + MIN_GAIN
        for j in range(1, len(cands)):
            if values[j][0] > best:
                best_j, best = j, values[j][0]
        return cands[best_j]
