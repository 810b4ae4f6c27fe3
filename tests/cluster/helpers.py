"""Bounded waits for the cluster's tests (a test waits for an event, never for a time), and a table of
computers played by a seed."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from canasta_tui.server.config import ServerConfig
from canasta_tui.table.table import Table

#: How long any one wait for an event may take (a busy 2-core machine; a wait ends with its event).
WAIT = 60.0


def run(coro: Coroutine[Any, Any, Any], timeout: float = 180.0) -> Any:
    """Run a test's coroutine in a fresh event loop, bounded."""
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def until(check: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
    """Wait (bounded) until ``check()`` holds; fail saying ``what`` was awaited."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        await asyncio.sleep(0.005)


def play(table: Table, moves: int) -> int:
    """Play up to ``moves`` computer moves at ``table`` (dealing on at the end of a hand), synchronously;
    how many were played (fewer when the match ends)."""
    done = 0
    while done < moves and table.match.winner is None and table.step():
        done += 1
    return done


def server_config() -> ServerConfig:
    """A test server's settings: 127.0.0.1, open, no pause after computer moves, seeded."""
    return ServerConfig(host="127.0.0.1", port=0, open=True, delay_ms=0, seed=1, wrong_password_pause=0.01)
