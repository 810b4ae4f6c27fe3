"""Bounded waits for the cluster's tests: a test waits for an event, never for a time."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

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
