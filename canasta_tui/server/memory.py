"""Short garbage-collector pauses for a server full of players, and the memory of closed
connections given back.

A server holds a few hundred thousand objects, and Python's full collection walks them all:
90 to 150 ms with 100 players (measured during ``canasta bench serve``), a pause every few
seconds in which no key of any table is answered.  The objects that live long (the server's,
the tables', the connected players') are moved out of the collector's way (``gc.freeze``)
every :data:`TICK` seconds, so that a collection walks only what is new.

Freezing must not keep what a closed connection leaves (its objects refer to each other in
cycles, which only the collector frees):

* before each freeze everything not frozen is collected, the oldest generation too (since the
  last freeze it holds only what came since: cheap), so the cycles of a connection that closed
  since are freed, never frozen (``gc.collect(1)`` there froze them: 3,000 short logins kept
  77 MB, ``canasta bench logins``);
* the cycles of a connection that lived through a freeze and closed afterwards are frozen; one
  full collection frees them, at most every :data:`FULL_EVERY` seconds and only after such a
  connection closed.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

#: How often what is not frozen is collected and the rest frozen (seconds).
TICK = 5.0
#: The least time between two full collections (seconds): what a connection that lived through a
#: freeze leaves waits at most about this long.
FULL_EVERY = 60.0


class Collector:
    """The server's use of the garbage collector: :meth:`start`, :meth:`tick` every :data:`TICK`
    seconds, :meth:`connection_closed`, and :meth:`stop` (which gives the process its usual
    collector back)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        #: How many freezes so far: a connection that opened at ``freezes`` n and closes after
        #: more of them left frozen cycles.
        self.freezes = 0
        #: Connections that closed since the last full collection and left frozen cycles.
        self.closed_since_full = 0
        self._last_full = clock()
        self.full_collections = 0

    def start(self) -> None:
        gc.collect()
        self._freeze()
        self._last_full = self._clock()

    def connection_closed(self, opened_at: int) -> None:
        """A connection closed; ``opened_at`` is what :attr:`freezes` was when it opened."""
        if self.freezes > opened_at:
            self.closed_since_full += 1

    def tick(self) -> str:
        """Collect what is not frozen and freeze the rest; or, when a connection that lived
        through a freeze has closed and the last full collection is :data:`FULL_EVERY` ago,
        collect everything first.  Says which it did."""
        now = self._clock()
        if self.closed_since_full and now - self._last_full >= FULL_EVERY:
            self.collect_all()
            return "full"
        gc.collect()             # walks only what is not frozen
        self._freeze()
        return "young"

    def collect_all(self) -> None:
        """A full collection: the frozen objects too (a pause as long as there are objects)."""
        gc.unfreeze()
        gc.collect()
        self._freeze()
        self.closed_since_full = 0
        self._last_full = self._clock()
        self.full_collections += 1

    def _freeze(self) -> None:
        gc.freeze()
        self.freezes += 1

    def stop(self) -> None:
        gc.unfreeze()


__all__ = ["FULL_EVERY", "TICK", "Collector"]
