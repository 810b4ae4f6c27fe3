"""A server's computers think in worker processes (a thinking Expert in a thread held the
interpreter that every player's keys need: ``canasta bench serve`` saw every other table's
p95 go from 16 ms to 480 ms).  The player travels to the worker and back by pickle, and the
table keeps the copy that thought: the computers play exactly as they do in threads."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor

import pytest

from canasta_tui.presets import load_rules
from canasta_tui.table import Table, seats_for

MOVES = 120


def moves(executor: Executor, seed: int) -> list[str]:
    async def main() -> list[str]:
        t = Table(load_rules("classic"), seats_for(0, "advanced"), seed)
        task = asyncio.create_task(t.run(executor))
        for _ in range(3000):
            if len(t.events) >= MOVES:
                break
            await asyncio.sleep(0.01)
        t.close()
        await asyncio.wait_for(task, 10)
        return [repr(e) for e in t.events[:MOVES]]
    return asyncio.run(main())


def test_computers_play_the_same_moves_in_worker_processes_as_in_threads() -> None:
    with ThreadPoolExecutor(2) as threads:
        in_threads = moves(threads, seed=9)
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as processes:
        in_processes = moves(processes, seed=9)
    assert len(in_threads) == MOVES
    assert in_processes == in_threads


def test_a_dead_worker_process_does_not_stop_the_table() -> None:
    """A worker that dies (killed by the system) breaks the pool: the table thinks in threads."""
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    try:
        with pytest.raises(BrokenExecutor):
            pool.submit(os._exit, 1).result(timeout=30)
        played = moves(pool, seed=9)
    finally:
        pool.shutdown()
    assert len(played) == MOVES


def test_the_servers_computers_think_at_a_lower_priority_than_its_loop() -> None:
    """The loop answers every player's keys; an Expert thinking in a worker gives way to it."""
    import os

    from canasta_tui.server.config import ServerConfig
    from canasta_tui.server.server import computers_executor

    pool = computers_executor(ServerConfig(open=True, workers=1))
    try:
        assert pool.submit(os.nice, 0).result(timeout=60) >= min(19, os.nice(0) + 10)
        if hasattr(os, "SCHED_IDLE"):      # Linux: only on a core nothing else wants
            assert pool.submit(os.sched_getscheduler, 0).result(timeout=60) == os.SCHED_IDLE
    finally:
        pool.shutdown()
