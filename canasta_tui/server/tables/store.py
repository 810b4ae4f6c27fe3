"""Every table of the server kept on disk, in the game's own save format.

A table is autosaved after every move (the table's observer), but the file is written by a
thread of its own: the event loop that serves every player never waits for a disk.  Writes
of one table are coalesced (only its newest position is written) and atomic (the game's
``write_save``), so ``kill -9`` at any moment leaves every table's last or previous move.
A table's file is ``tables/<id>.json``; ``canasta --load`` can play it on at a terminal.  A
table set aside (nobody came back to it for long) is renamed ``<id>.aside-TIME.json``: kept,
but no longer brought back at start.

The tables not started yet (their seats, options and creator) are kept too, in one small file,
``tables/forming.json``, written by the same thread whenever they change.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from ...engine import Match
from ...persistence.saves import (
    LoadedGame,
    SaveError,
    _aside,
    atomic_write_text,
    read_record,
    remove_stale_temps,
    write_save,
)
from ...text import printable

log = logging.getLogger("canasta.server")

_NAME = re.compile(r"(\d{1,9})\.json")
#: The forming tables' file, in the tables' directory.
FORMING_FILE = "forming.json"


class StoredTable(NamedTuple):
    id: int
    game: LoadedGame


class TableStore:
    """The tables' directory: read at start, written from a thread of its own."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._pending: dict[int, tuple[Match, dict[str, Any]]] = {}
        self._forming: str | None = None            # the forming tables' newest text, to write
        self._asides: list[tuple[int, str]] = []    # tables whose file goes aside: (id, why)
        self._retired: set[int] = set()             # ... and which are never written again
        self._lock = threading.Condition()
        self._busy = False
        self._stop = False
        self._thread: threading.Thread | None = None
        self.failures = 0
        self.writes = 0
        #: Called on the writer's thread when a table's file cannot be written where it could
        #: (table id, why), and when it can again (table id, None): once each, not at every move.
        self.on_trouble: Callable[[int, str | None], None] | None = None
        #: The tables whose last write failed: how many writes failed since their last good one.
        self._failing: dict[int, int] = {}

    def path(self, table_id: int) -> Path:
        return self.directory / f"{table_id}.json"

    def record_ref(self, table_id: int) -> str:
        """Where table ``table_id``'s record is, as a match's record names it (replays read it with
        :meth:`read_record`): here its file."""
        return str(self.path(table_id))

    def read_record(self, ref: str) -> LoadedGame:
        """The record ``ref`` (a :meth:`record_ref`) names; SaveError says why it cannot be read."""
        return read_record(Path(ref))

    # ------------------------------------------------------------------ reading at start
    def load(self) -> tuple[list[StoredTable], int]:
        """The unfinished tables (in id order), and the next free id.  A file that cannot be
        loaded is set aside (``<id>.corrupt-TIME.json``) with a line in the log, never lost."""
        out: list[StoredTable] = []
        top = 0
        try:
            names = sorted(p.name for p in self.directory.iterdir())
        except FileNotFoundError:
            return [], 1
        except OSError as exc:
            log.warning("cannot read the tables in %s: %s", printable(str(self.directory)), exc.strerror)
            return [], 1
        for name in names:
            m = re.match(r"(\d{1,9})\.", name)
            if m:
                top = max(top, int(m.group(1)))
            full = _NAME.fullmatch(name)
            if full is None:
                continue
            path = self.directory / name
            remove_stale_temps(path)
            try:
                game = read_record(path)
            except SaveError as exc:
                try:
                    kept = _aside(path, "corrupt")
                    log.warning("table %s could not be loaded (%s); it is kept as %s", full.group(1),
                                printable(exc.reason), printable(kept.name))
                except SaveError as exc2:
                    log.warning("table %s could not be loaded (%s) nor set aside (%s)", full.group(1),
                                printable(exc.reason), printable(exc2.reason))
                continue
            if game.match.winner is not None:
                continue
            out.append(StoredTable(int(full.group(1)), game))
        out.sort(key=lambda t: t.id)
        return out, top + 1

    def load_forming(self) -> object:
        """The forming tables an earlier run kept (JSON data; None if there are none).  A file that
        cannot be read is set aside (``forming.corrupt-TIME.json``) with a line in the log."""
        path = self.directory / FORMING_FILE
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            why = exc.strerror if isinstance(exc, OSError) else str(exc)
            try:
                kept = _aside(path, "corrupt").name
            except SaveError as exc2:
                kept = f"where it was ({exc2.reason})"
            log.warning("the tables not started could not be read (%s); the file is kept as %s",
                        printable(str(why)), printable(kept))
            return None

    # ------------------------------------------------------------------ writing, off the loop
    def save_forming(self, text: str) -> None:
        """Write the forming tables' ``text`` soon (a newer text replaces it if not yet written; ""
        removes the file: there are none)."""
        with self._lock:
            self._forming = text
            self._lock.notify_all()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="canasta-server-store", daemon=True)
        self._thread.start()

    def save(self, table_id: int, match: Match, meta: dict[str, Any]) -> None:
        """Write this position of table ``table_id`` soon (a newer one replaces it if not yet written)."""
        with self._lock:
            if table_id in self._retired:
                return
            self._pending[table_id] = (match, meta)
            self._lock.notify_all()

    def set_aside(self, table_id: int, why: str) -> None:
        """Rename table ``table_id``'s file to ``<id>.aside-TIME.json`` soon (after a write of it under
        way, if any) and write it no more: it is kept, but not brought back at start."""
        with self._lock:
            self._pending.pop(table_id, None)
            self._retired.add(table_id)
            self._asides.append((table_id, why))
            self._lock.notify_all()

    def _put_aside(self, table_id: int, why: str) -> None:
        path = self.path(table_id)
        try:
            kept = _aside(path, "aside")
        except SaveError as exc:
            log.warning("table %d could not be set aside (%s): %s", table_id, why, printable(exc.reason))
            return
        log.warning("table %d was set aside (%s): its file is now %s", table_id, why, printable(kept.name))

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._pending and not self._asides and self._forming is None and not self._stop:
                    self._lock.wait()
                if not self._pending and not self._asides and self._forming is None and self._stop:
                    return
                forming, self._forming = self._forming, None
                aside = self._asides.pop(0) if self._asides and forming is None else None
                if forming is None and aside is None:
                    table_id = next(iter(self._pending))
                    match, meta = self._pending.pop(table_id)
                self._busy = True
            try:
                if forming is not None:
                    self._write_forming(forming)
                elif aside is not None:
                    self._put_aside(*aside)
                else:
                    self._write(table_id, match, meta)
            finally:
                with self._lock:
                    self._busy = False
                    self._lock.notify_all()

    def _write(self, table_id: int, match: Match, meta: dict[str, Any]) -> None:
        try:
            write_save(self.path(table_id), match, meta)
            self.writes += 1
            self._saved(table_id)
        except SaveError as exc:
            self._failed(table_id, exc.reason)
        except Exception:  # the writer must outlive any one bad write
            log.exception("table %d could not be saved", table_id)
            self._failed(table_id, "an error in the server")

    def _write_forming(self, text: str) -> None:
        try:
            if not text:
                (self.directory / FORMING_FILE).unlink(missing_ok=True)
            else:
                atomic_write_text(self.directory / FORMING_FILE, text + "\n")
        except OSError as exc:
            log.warning("the tables not started could not be kept: %s", exc.strerror)
        except SaveError as exc:
            self.failures += 1
            log.warning("the tables not started could not be kept: %s", printable(exc.reason))

    def _failed(self, table_id: int, reason: str) -> None:
        """A write failed: the log and the table hear of it the first time, not at every move."""
        self.failures += 1
        if table_id in self._failing:
            self._failing[table_id] += 1
            return
        self._failing[table_id] = 1
        log.warning("table %d could not be saved: %s (its players are told; it is written again at "
                    "its next move)", table_id, printable(reason))
        self._tell(table_id, reason)

    def _saved(self, table_id: int) -> None:
        failed = self._failing.pop(table_id, None)
        if failed is not None:
            log.warning("table %d is saved again (%d writes of it had failed)", table_id, failed)
            self._tell(table_id, None)

    def _tell(self, table_id: int, reason: str | None) -> None:
        if self.on_trouble is not None:
            try:
                self.on_trouble(table_id, reason)
            except Exception:  # (the loop it tells may be closing)
                log.exception("the trouble of table %d could not be told", table_id)

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until everything asked for is written; False if that took longer than ``timeout``."""
        with self._lock:
            return self._lock.wait_for(lambda: not self._pending and not self._asides and self._forming is None
                                       and not self._busy, timeout)

    def close(self, timeout: float = 10.0) -> None:
        """Write what is pending, then stop the writer."""
        with self._lock:
            self._stop = True
            self._lock.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)


__all__ = ["FORMING_FILE", "StoredTable", "TableStore"]
