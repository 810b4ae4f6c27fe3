"""The Expert's budget is counted in work, so its strength does not move with the machine's load.

A busy machine makes everything take longer; the Expert must still make the same decisions
for the same seed.  The machine's speed is played here by a clock that moves on by a fixed
tick each time it is read (the Expert reads it at every rollout step), so the test is exact
whatever the real load: a tick of a budget's worth of work per step is a machine about as
slow as the budget, which the old clock-based Expert answered by cutting its searches short.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from canasta_tui.ai import expert as expert_module
from canasta_tui.ai.expert import NODES_PER_SECOND, SAFETY_FACTOR, VARIANT_WORK, ExpertPlayer
from canasta_tui.engine import CLASSIC, Action, Phase, Rules, apply, deal, view_for
from canasta_tui.presets import load_rules

from .helpers import shuffled


class TickClock:
    """A clock that moves on by ``tick`` seconds each time it is read."""

    def __init__(self, tick: float) -> None:
        self.now = 0.0
        self.tick = tick

    def __call__(self) -> float:
        self.now += self.tick
        return self.now


def machine(speed_ticks: float, budget: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Expert's clock: each reading ``speed_ticks`` budgets' worth of a rollout step (1.0: the
    whole work cap of a decision takes about its budget)."""
    cap = ExpertPlayer(0, budget=budget).work_budget()
    monkeypatch.setattr(expert_module, "time", SimpleNamespace(perf_counter=TickClock(speed_ticks * budget / cap)))


def decisions(seed: int, budget: float, count: int,
              rules: Rules = CLASSIC) -> tuple[list[Action], list[dict[str, float]]]:
    """The first ``count`` searched decisions of four Experts playing one deal."""
    s = deal(rules, shuffled(seed, rules.packs), seed % 4)
    players = [ExpertPlayer(seed * 10 + i, budget=budget) for i in range(4)]
    chosen: list[Action] = []
    searches: list[dict[str, float]] = []
    while s.phase != Phase.HAND_OVER and len(searches) < count:
        p = players[s.actor]
        p.last_search = {}
        a = p.choose(view_for(s, s.actor))
        chosen.append(a)
        if p.last_search:
            searches.append(p.last_search)
        s = apply(s, a)
    return chosen, searches


def test_the_same_seed_makes_the_same_decisions_on_a_busy_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        machine(0.05, 0.05, m)           # a quiet machine: the whole cap in a twentieth of the budget
        quiet, quiet_searches = decisions(3, 0.05, 12)
    with monkeypatch.context() as m:
        machine(2.0, 0.05, m)            # a busy one: the cap takes two budgets
        busy, busy_searches = decisions(3, 0.05, 12)
    assert len(quiet_searches) == 12
    assert busy == quiet
    assert [x["samples"] for x in busy_searches] == [x["samples"] for x in quiet_searches]
    assert [x["nodes"] for x in busy_searches] == [x["nodes"] for x in quiet_searches]
    assert not any(x["clock_stop"] for x in busy_searches)
    # The busy machine took longer than the old Expert's deadline (80% of the budget) on some
    # decisions, where that Expert cut its search short (else this would prove nothing).
    assert max(x["seconds"] for x in busy_searches) > 0.8 * 0.05


@pytest.mark.parametrize("preset", ["classic", "samba", "bolivia"])
def test_the_work_of_a_decision_stays_within_its_cap(preset: str) -> None:
    """In Samba and Bolivia a step costs about three times classic's: a second buys less work
    (``VARIANT_WORK``), so the Expert there keeps to its budget too."""
    rules = load_rules(preset)
    _, searches = decisions(5, 0.05, 12, rules)
    cap = ExpertPlayer(0, budget=0.05).work_budget(rules)
    assert cap == int(0.05 * NODES_PER_SECOND * (1.0 if preset == "classic" else VARIANT_WORK))
    assert len(searches) == 12
    # Only whole samples count, and a sample is never started past the cap; one sample's
    # rollouts may run over it by what a sample costs.
    for x in searches:
        per_sample = x["nodes"] / max(1.0, x["samples"])
        assert x["nodes"] <= cap + per_sample


def test_a_machine_far_too_slow_meets_the_safety_stop_and_still_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    budget = 0.02
    machine(50.0, budget, monkeypatch)   # the work cap would take 50 budgets
    cap = ExpertPlayer(0, budget=budget).work_budget()
    s = deal(CLASSIC, shuffled(8), 0)
    p = ExpertPlayer(8, budget=budget)
    stops = 0
    for _ in range(60):
        if s.phase == Phase.HAND_OVER:
            break
        v = view_for(s, s.actor)
        p.last_search = {}
        a = p.choose(v)
        assert a in v.legal
        if p.last_search:
            stops += int(p.last_search["clock_stop"])
            # The stop is read at every rollout step: no search goes on past it.
            assert p.last_search["seconds"] <= budget * SAFETY_FACTOR + 2 * 50.0 * budget / cap
            assert p.last_search["nodes"] < cap / 4          # cut far short of its cap
        s = apply(s, a)
    assert stops > 0
