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
  full collection frees them, only after such connections closed: as soon as there are as many
  of them as a quarter of the connections open (and :data:`FULL_AFTER` at least), at most every
  :data:`FULL_SOON` seconds, or else :data:`FULL_EVERY` seconds after the last one.  A full
  collection's pause grows with the connections open (90 ms with 100 players), what waits for it
  with those closed: like Python's own rule for its full collections, the one is paid for by the
  other.  (Logins 16 at once that each lived through a freeze kept 110 closed connections for the
  full collection a minute later, and the server's memory never came back down from that peak.)
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

#: How often what is not frozen is collected and the rest frozen (seconds).
TICK = 5.0
#: What a connection that lived through a freeze leaves waits at most about this long (seconds) ...
FULL_EVERY = 60.0
#: ... or only this long once that many (and a quarter of the connections open) have closed, never
#: less: the least time between two full collections.
FULL_SOON = 10.0
FULL_AFTER = 8


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

    def tick(self, connections: int = 0) -> str:
        """Collect what is not frozen and freeze the rest; or, when connections that lived
        through a freeze have closed (see the module), collect everything first.  ``connections``
        is how many are open.  Says which it did."""
        since = self._clock() - self._last_full
        closed = self.closed_since_full
        if (closed and since >= FULL_EVERY) or (closed >= max(FULL_AFTER, connections / 4) and since >= FULL_SOON):
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


__all__ = ["FULL_AFTER", "FULL_EVERY", "FULL_SOON", "TICK", "Collector"]
