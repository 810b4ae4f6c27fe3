"""Short garbage-collector pauses for a server full of players.

A server holds a few hundred thousand objects (every connection has its own prompt-toolkit
application), and Python's full collection walks them all: 90 to 150 ms with 100 players
(measured during ``canasta bench serve``), a pause every few seconds in which no key of any
table is answered.  The objects that live long (the server's, the tables', the connected
players') are moved out of the collector's way (``gc.freeze``) every little while, so that a
collection walks only what is new.  Frozen objects are still freed when nothing refers to
them; only cycles among them wait, and the ones a closed connection leaves are collected by
one full collection now and then, at most every :data:`FULL_EVERY` seconds and only after a
connection closed.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

#: How often what has lived through the young collections is frozen (seconds).
TICK = 5.0
#: The least time between two full collections (seconds).
FULL_EVERY = 600.0


class Collector:
    """The server's use of the garbage collector: :meth:`start`, :meth:`tick` every :data:`TICK`
    seconds, :meth:`connection_closed`, and :meth:`stop` (which gives the process its usual
    collector back)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.closed_since_full = False          # a connection closed since the last full collection
        self._last_full = clock()
        self.full_collections = 0

    def start(self) -> None:
        gc.collect()
        gc.freeze()
        self._last_full = self._clock()

    def connection_closed(self) -> None:
        self.closed_since_full = True

    def tick(self) -> str:
        """Freeze what lived through a young collection; or, when a connection has closed and the
        last full collection is long ago, collect everything first.  Says which it did."""
        now = self._clock()
        if self.closed_since_full and now - self._last_full >= FULL_EVERY:
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            self.closed_since_full = False
            self._last_full = now
            self.full_collections += 1
            return "full"
        gc.collect(1)
        gc.freeze()
        return "young"

    def stop(self) -> None:
        gc.unfreeze()


__all__ = ["FULL_EVERY", "TICK", "Collector"]
