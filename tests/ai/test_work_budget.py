"""The Expert's budget is counted in work, so its strength does not move with the machine's load.

A busy machine makes everything take longer; the Expert must still make the same decisions
for the same seed.  The busy machine is played here by a clock that runs faster than the
real one (so each rollout looks two and a half times slower), which the old clock-based
Expert answered by cutting its searches short.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from canasta_tui.ai import expert as expert_module
from canasta_tui.ai.expert import SAFETY_FACTOR, ExpertPlayer
from canasta_tui.engine import CLASSIC, Action, Phase, apply, deal, view_for

from .helpers import shuffled


@contextmanager
def clock_running(times: float, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The Expert's clock runs ``times`` as fast as the real one (a machine that much slower)."""
    real: Callable[[], float] = time.perf_counter
    t0 = real()
    with monkeypatch.context() as m:
        m.setattr(expert_module.time, "perf_counter", lambda: t0 + (real() - t0) * times)
        yield


def decisions(seed: int, budget: float, count: int) -> tuple[list[Action], list[dict[str, float]]]:
    """The first ``count`` searched decisions of four Experts playing one deal."""
    s = deal(CLASSIC, shuffled(seed), seed % 4)
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
    quiet, quiet_searches = decisions(3, 0.05, 12)
    with clock_running(2.5, monkeypatch):
        busy, busy_searches = decisions(3, 0.05, 12)
    assert len(quiet_searches) == 12
    assert busy == quiet
    assert [x["samples"] for x in busy_searches] == [x["samples"] for x in quiet_searches]
    assert [x["nodes"] for x in busy_searches] == [x["nodes"] for x in quiet_searches]
    assert not any(x["clock_stop"] for x in busy_searches)


def test_the_work_of_a_decision_stays_within_its_cap() -> None:
    _, searches = decisions(5, 0.05, 12)
    cap = ExpertPlayer(0, budget=0.05).work_budget()
    # Only whole samples count, and a sample is never started past the cap; one sample's
    # rollouts may run over it by what a sample costs.
    for x in searches:
        per_sample = x["nodes"] / max(1.0, x["samples"])
        assert x["nodes"] <= cap + per_sample


def test_a_machine_far_too_slow_meets_the_safety_stop_and_still_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    budget = 0.02
    cpu = time.process_time  # the work done, which a shared machine's load does not stretch
    with clock_running(400.0, monkeypatch):
        s = deal(CLASSIC, shuffled(8), 0)
        p = ExpertPlayer(8, budget=budget)
        stops = 0
        for _ in range(60):
            if s.phase == Phase.HAND_OVER:
                break
            v = view_for(s, s.actor)
            p.last_search = {}
            t0 = cpu()
            a = p.choose(v)
            spent = cpu() - t0
            assert a in v.legal
            if p.last_search:
                stops += int(p.last_search["clock_stop"])
                # The stop is checked at every rollout step: the work is bounded too, by the
                # stop (0.25 ms here) and the one step under way (the rules of thumb may plan a
                # whole turn in it, a few ms); each whole search here takes 12-18 ms of CPU.
                assert spent < budget * SAFETY_FACTOR / 400 + 0.008
            s = apply(s, a)
    assert stops > 0
