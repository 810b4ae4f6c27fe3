"""Recording a finished match in the statistics without making the table wait.

The object is owned by whoever hosts the table: :class:`canasta_tui.play.local.LocalTable`
at this terminal, :class:`canasta_tui.server.tables.server_table.ServerTable` on the server.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping

from ..engine import Match
from ..text import printable
from . import stats


class StatsRecording:
    """Recording a finished match in the statistics, on a thread of its own: the table never waits
    for the database (another process may hold it), and a failure is kept to be told once."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None
        self._problem: str | None = None
        self._told = False

    def start(self, match: Match, humans: Mapping[int, str], level: str, game_key: str) -> None:
        def record() -> None:
            try:
                stats.record_match_result(match, humans, level, game_key=game_key)
            except stats.StatsError as exc:
                self._problem = f"The match was not recorded in the statistics: {exc}"
            except Exception as exc:  # a traceback from this thread would be printed over the table
                self._problem = f"The match was not recorded in the statistics: {type(exc).__name__}: {exc}"

        # Not a daemon: a result being written when the player leaves the table is still written.
        self._thread = threading.Thread(target=record, name="canasta-statistics")
        self._thread.start()

    def outcome(self, timeout: float | None = None) -> str | None:
        """Wait for the recording (if any) to finish; the reason it failed, once, or None."""
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                return None
        if self._problem is None or self._told:
            return None
        self._told = True
        return printable(self._problem)


__all__ = ["StatsRecording"]
