"""The server keeps the garbage collector's pauses short (``server/memory.py``): long-lived
objects are frozen out of its way, and the cycles a closed connection leaves are collected by
a full collection now and then, never lost."""

from __future__ import annotations

import gc
import weakref

from canasta_tui.server.memory import FULL_EVERY, Collector


class Node:
    """An object in a reference cycle: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_long_lived_objects_are_frozen_and_given_back_at_stop() -> None:
    now = [0.0]
    c = Collector(lambda: now[0])
    try:
        c.start()
        assert gc.get_freeze_count() > 0
        kept = [Node() for _ in range(100)]
        before = gc.get_freeze_count()
        assert c.tick() == "young"
        assert gc.get_freeze_count() >= before + 100      # what survived is out of the collector's way
        assert kept
    finally:
        c.stop()
    assert gc.get_freeze_count() == 0


def test_cycles_left_by_a_closed_connection_are_collected_by_a_full_collection_later() -> None:
    now = [0.0]
    c = Collector(lambda: now[0])
    try:
        c.start()
        node = Node()
        gone = weakref.ref(node)
        c.tick()                          # frozen while the connection lived
        del node
        gc.collect()
        assert gone() is not None         # a frozen cycle waits ...
        c.connection_closed()
        now[0] += FULL_EVERY / 2
        assert c.tick() == "young" and gone() is not None      # ... not at every tick ...
        now[0] += FULL_EVERY / 2
        assert c.tick() == "full"
        assert gone() is None             # ... but it is collected
        assert c.full_collections == 1
        now[0] += FULL_EVERY
        assert c.tick() == "young"        # no connection closed since: nothing to look for
    finally:
        c.stop()


def test_a_server_freezes_while_it_runs_and_counts_closed_connections() -> None:
    from .helpers import Term, run, serving, settle

    async def go() -> None:
        async with serving() as srv:
            assert gc.get_freeze_count() > 0
            t = await Term.connect(srv.port, "ann")
            await t.wait_for("Lobby")
            await t.close()
            await settle(srv, lambda: srv.collector.closed_since_full)
        assert gc.get_freeze_count() == 0         # the process has its usual collector back
    run(go())
