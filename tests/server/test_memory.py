"""The server keeps the garbage collector's pauses short (``server/memory.py``): long-lived
objects are frozen out of its way; what a closed connection leaves is given back, never frozen
for good (3,000 logins that each saw the lobby and closed took a server to 806 MB, linearly:
``canasta bench logins`` measures that; here a few hundred over real SSH)."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref
from typing import Any

from prompt_toolkit.input import typeahead

from canasta_tui.bench.logins_bench import login
from canasta_tui.server.memory import FULL_AFTER, FULL_EVERY, FULL_SOON, Collector

from .helpers import WAIT, Term, run, serving, settle


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


def test_cycles_that_died_before_a_freeze_are_collected_not_frozen() -> None:
    """Garbage in the oldest generation was frozen with the rest (``gc.collect(1)`` left it there)."""
    c = Collector()
    try:
        c.start()
        node = Node()
        gone = weakref.ref(node)
        gc.collect()                      # (a cycle that lived long enough to reach the oldest generation)
        del node
        assert c.tick() == "young"
        assert gone() is None
    finally:
        c.stop()


def test_cycles_left_by_a_closed_connection_are_collected_by_a_full_collection_later() -> None:
    now = [0.0]
    c = Collector(lambda: now[0])
    try:
        c.start()
        opened_at = c.freezes
        node = Node()
        gone = weakref.ref(node)
        c.tick()                          # frozen while the connection lived
        del node
        gc.collect()
        assert gone() is not None         # a frozen cycle waits ...
        c.connection_closed(opened_at)
        assert c.closed_since_full == 1
        now[0] += FULL_EVERY / 2
        assert c.tick() == "young" and gone() is not None      # ... not at every tick ...
        now[0] += FULL_EVERY / 2
        assert c.tick() == "full"
        assert gone() is None             # ... but it is collected
        assert c.full_collections == 1 and c.closed_since_full == 0
        c.connection_closed(c.freezes)    # opened and closed between two freezes: nothing frozen
        now[0] += FULL_EVERY
        assert c.tick() == "young"        # nothing to look for
    finally:
        c.stop()


def test_many_closed_connections_are_collected_sooner_as_the_connections_open_allow() -> None:
    """A full collection's pause grows with the connections open, what waits for it with those
    that closed: it comes once a quarter as many have closed as are open (FULL_AFTER at least),
    never twice within FULL_SOON."""
    now = [0.0]
    c = Collector(lambda: now[0])
    try:
        c.start()
        opened_at = c.freezes
        c.tick()
        for _ in range(FULL_AFTER):
            c.connection_closed(opened_at)
        assert c.tick(connections=10) == "young"        # not within FULL_SOON of the last one
        now[0] += FULL_SOON
        assert c.tick(connections=4 * FULL_AFTER + 4) == "young"     # not yet a quarter of those open
        assert c.tick(connections=4 * FULL_AFTER) == "full"
        for _ in range(FULL_AFTER - 1):
            c.connection_closed(opened_at)
        now[0] += FULL_SOON
        assert c.tick(connections=0) == "young"         # fewer than FULL_AFTER: they wait ...
        now[0] += FULL_EVERY
        assert c.tick(connections=0) == "full"          # ... FULL_EVERY at most
    finally:
        c.stop()


def test_a_server_freezes_while_it_runs_and_counts_closed_connections() -> None:
    async def go() -> None:
        async with serving() as srv:
            assert gc.get_freeze_count() > 0
            t = await Term.connect(srv.port, "ann")
            await t.wait_for("Lobby")
            srv.collector.tick()          # (as every TICK seconds) while ann is connected
            await t.close()
            await settle(srv, lambda: srv.collector.closed_since_full > 0)
        assert gc.get_freeze_count() == 0         # the process has its usual collector back
    run(go())


def test_hundreds_of_logins_leave_nothing_behind() -> None:
    """300 logins over SSH, 4 at once, each to the lobby and out, in rounds of 20 with a tick of
    the collector after each round (as the server does every TICK seconds): what the round's
    closed connections left is freed at that tick, never frozen (the server kept a frozen part of
    every login until its full collection, 10 minutes later); nothing prompt-toolkit kept for each
    connection stays either (its typeahead, a resize signal handler that kept an ended app)."""
    async def go() -> None:
        seen: weakref.WeakSet[Any] = weakref.WeakSet()
        connections: weakref.WeakSet[Any] = weakref.WeakSet()

        def record(session: Any, text: str) -> None:
            seen.add(session)
            connections.add(session.connection)

        async with serving(on_output=record, max_per_address=50,
                           max_logins_per_address=10) as srv:
            typeahead_before = len(typeahead._buffer)     # (prompt-toolkit's own, private)
            freezes = srv.collector.freezes
            left = []
            for first in range(0, 300, 20):
                await asyncio.gather(*(login_several(srv.port, range(first + k, first + 20, 4)) for k in range(4)))
                await settle(srv, lambda: not srv.connections and not srv.sessions)
                # The callbacks that close them run a little later on a busy machine: until they
                # have, a young collection (which is all a tick does before it freezes) is retried,
                # until no more is left than the server's own ticks may have frozen (a bound in
                # time only so that a test that fails ends).
                deadline = time.monotonic() + WAIT
                while True:
                    await asyncio.sleep(0.05)
                    gc.collect()
                    own_so_far = srv.collector.freezes - freezes - len(left)
                    if len(seen) <= 8 * own_so_far or time.monotonic() > deadline:
                        break
                srv.collector.tick()
                left.append(len(seen))
            # The server's own ticks, every TICK seconds, may have frozen the sessions open then
            # (4 at a time, and as many closing): those wait for the full collection.
            own_ticks = srv.collector.freezes - freezes - len(left)
            assert max(left) <= 8 * own_ticks, (left, own_ticks)
            srv.collector.collect_all()            # what the server does FULL_EVERY seconds later
            # (the last round's closing callbacks may still be queued on a busy machine: a
            # session they hold is freed by the next full collection once they have run)
            deadline = time.monotonic() + WAIT
            while seen and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
                srv.collector.collect_all()
            assert len(seen) == 0, [s.identity.name for s in seen]
            assert len(connections) == 0, "a closed connection is still held (a pending timer?)"
            assert len(typeahead._buffer) <= typeahead_before + 1
    run(go(), timeout=240)


async def login_several(port: int, numbers: range) -> None:
    for i in numbers:
        await asyncio.wait_for(login(port, f"g{i}"), 30)         # a guest each time
