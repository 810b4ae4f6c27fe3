"""At a server with many tables, Expert computers share the workers they think in
(``ThinkingShare``): each thinks its full budget while no more think at once than there are
workers, and less (never under the least) when more do, so that every table keeps moving.
``canasta bench serve --tables 25 --clients 1 --level expert`` saw 75 Experts at 1 s each
saturate two workers: the tables waited for their computers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest

from canasta_tui.ai.expert import ExpertPlayer
from canasta_tui.presets import load_rules
from canasta_tui.server.config import ConfigError, ServerConfig
from canasta_tui.table import Table, seats_for
from canasta_tui.table.table import ThinkingShare


def test_each_gets_the_whole_budget_until_more_think_than_there_are_workers() -> None:
    share = ThinkingShare(workers=2, budget=1.0, least=0.1)
    assert [share.start() for _ in range(5)] == [1.0, 1.0, pytest.approx(2 / 3), 0.5, 0.4]
    for _ in range(5):
        share.done()
    assert share.thinking == 0 and share.start() == 1.0


def test_the_share_never_falls_below_the_least() -> None:
    share = ThinkingShare(workers=2, budget=1.0, least=0.1)
    budgets = [share.start() for _ in range(75)]     # 25 tables, three Experts each
    assert min(budgets) == 0.1 and budgets[19] == 0.1


@pytest.mark.parametrize(("workers", "budget", "least"), [(0, 1.0, 0.1), (2, 0.1, 0.2), (2, 1.0, 0.0)])
def test_a_share_that_cannot_work_is_refused(workers: int, budget: float, least: float) -> None:
    with pytest.raises(ValueError):
        ThinkingShare(workers, budget, least)


class Recording(ThreadPoolExecutor):
    """Threads that note the budget each Expert was given when it was sent to think."""

    def __init__(self) -> None:
        super().__init__(4)
        self.budgets: list[float] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        player = args[0] if args else None
        if isinstance(player, ExpertPlayer):
            self.budgets.append(player.budget)
        return super().submit(fn, *args, **kwargs)


def test_tables_that_think_at_once_share_the_workers() -> None:
    """Four tables of Experts at once, one worker's share: the first to think gets the whole
    budget, the others less, and every table plays on."""
    share = ThinkingShare(workers=1, budget=0.02, least=0.005)

    async def main(pool: Recording) -> list[int]:
        tables = [Table(load_rules("classic"), seats_for(0, "expert"), seed) for seed in range(4)]
        tasks = [asyncio.create_task(t.run(pool, share)) for t in tables]
        for _ in range(2000):
            if all(len(t.events) >= 40 for t in tables):
                break
            await asyncio.sleep(0.01)
        for t in tables:
            t.close()
        await asyncio.wait_for(asyncio.gather(*tasks), 30)
        return [len(t.events) for t in tables]

    with Recording() as pool:
        played = asyncio.run(main(pool))
    assert all(n >= 40 for n in played)
    assert max(pool.budgets) == 0.02
    assert min(pool.budgets) < 0.02 and min(pool.budgets) >= 0.005
    assert share.thinking == 0



def test_a_budget_out_of_range_is_refused_by_the_servers_configuration() -> None:
    assert ServerConfig().expert_budget == 1.0
    with pytest.raises(ConfigError, match=r"expert-budget must be between 0\.05 and 10 seconds"):
        ServerConfig(open=True, expert_budget=0.01).checked()
