"""The people store's writes, off the event loop: nothing a person does waits for the disk.

:class:`QueuedPeople` is the :class:`~.people.PeopleStore` the server uses.  Reads go to the
store (its reading connection, which no write and no other process's lock holds up); writes go
to a queue that one thread of their own (:class:`Writer`) empties in batches, one transaction per
batch.  The queue keeps one write per row: pressing space ten times on the options page is one
write of the last options, and a person's options are written at most once every
:data:`ROW_EVERY` seconds (the screen takes each change at once).  What is queued is also what the
reads answer with (a person's options, the open invitations), so nobody sees an older value.

When the file cannot be written (another process holds its lock, the disk failed), the server
keeps serving: the writes wait in the queue and are tried again every :data:`RETRY_EVERY`
seconds; the host is told in the log (once, and again when writes go through), and each person
whose write waits is told on their screen (once a trouble).  A queue that cannot be written
when the server stops is logged with what it held.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from ...text import printable
from .people import (
    CHAT_KEEP,
    VISITS_KEEP,
    Ban,
    ChatLine,
    Game,
    HighScore,
    HistoryRow,
    Invitation,
    MatchResult,
    NameRow,
    PersonOptions,
    Rating,
    RatingChange,
    SqlitePeopleStore,
    Standing,
    StoreError,
    Tally,
    Visit,
)

log = logging.getLogger("canasta.server")

#: How long one write waits for another process's lock before the batch is put back (seconds).
WRITE_WAIT = 0.5
#: How often writes that failed are tried again.
RETRY_EVERY = 2.0
#: A row (a person's options, a note) is written at most once in this many seconds; the last value wins.
ROW_EVERY = 1.0
#: How long closing waits for the queue to be written.
CLOSE_WAIT = 10.0

#: What a person is told when a write of theirs waits (their options: they hold for the visit).
WAITS = ("The server cannot keep your change just now (its store is busy): it holds while you are "
         "here, and is kept once the store answers")


@dataclass
class _Write:
    """One queued write: what it does to the store, whose it is (told if it waits), its row's pace."""

    run: Callable[[SqlitePeopleStore], None]
    who: str = ""
    every: float = 0.0


class Writer:
    """One thread that writes a queue to the store in batches, one write per row (the last)."""

    def __init__(self, store: SqlitePeopleStore, on_trouble: Callable[[frozenset[str]], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.on_trouble = on_trouble
        self.clock = clock
        self._queue: dict[Hashable, _Write] = {}            # in the order first queued
        self._written: dict[Hashable, float] = {}           # when a paced row was last written
        self._cond = threading.Condition()
        self._busy = False                                  # a batch is being written
        self._closing = False
        #: The trouble now ("" when writes go through): logged once, and who was told of it.
        self.trouble = ""
        self._told: set[str] = set()
        self.written = 0                                    # writes done (tests and the log count them)
        self._thread = threading.Thread(target=self._run, name="canasta-people-writer", daemon=True)
        self._thread.start()

    def put(self, row: Hashable, write: _Write) -> None:
        """Queue ``write`` for ``row``, in place of one queued for it before."""
        with self._cond:
            self._queue[row] = write
            self._cond.notify()

    def pending(self) -> int:
        with self._cond:
            return len(self._queue) + (1 if self._busy else 0)

    def flush(self, timeout: float = CLOSE_WAIT) -> bool:
        """Wait until the queue is written (whether it was, within ``timeout``)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            self._cond.notify()
            while self._queue or self._busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.05))
                self._cond.notify_all()
        return True

    def close(self, timeout: float = CLOSE_WAIT) -> None:
        """Write what is queued (within ``timeout``), then stop; what could not be written is logged."""
        self.flush(timeout)
        with self._cond:
            self._closing = True
            left = list(self._queue)
            self._cond.notify_all()
        self._thread.join(timeout)
        if left:
            log.warning("the server's people store was not written before it stopped: %d change%s lost (%s)",
                        len(left), "" if len(left) == 1 else "s", ", ".join(printable(str(r))[:40] for r in left[:5]))

    # ------------------------------------------------------------------ the thread
    def _due(self, now: float) -> tuple[list[tuple[Hashable, _Write]], float | None]:
        """The writes due now (taken off the queue), and when the next paced one is due."""
        due, later = [], None
        for row, w in list(self._queue.items()):
            at = self._written.get(row, -1e18) + w.every
            if at <= now:
                due.append((row, w))
                del self._queue[row]
            else:
                later = at if later is None else min(later, at)
        return due, later

    def _run(self) -> None:
        retry_at = 0.0
        while True:
            with self._cond:
                while True:
                    if self._closing:
                        return
                    now = self.clock()
                    wait: float | None = None
                    if self._queue and now < retry_at:
                        wait = retry_at - now
                    elif self._queue:
                        batch, later = self._due(now)
                        if batch:
                            self._busy = True
                            break
                        wait = None if later is None else max(0.0, later - now)
                    self._cond.wait(0.5 if wait is None else min(wait, 0.5))
            failed = self._write(batch)
            with self._cond:
                self._busy = False
                for row, w in failed:                    # back in the queue, unless a newer one came
                    self._queue.setdefault(row, w)
                self._cond.notify_all()
            retry_at = self.clock() + RETRY_EVERY if failed else 0.0

    def _write(self, batch: list[tuple[Hashable, _Write]]) -> list[tuple[Hashable, _Write]]:
        """Write ``batch`` in one transaction; what failed (to try again)."""
        try:
            with self.store.batch():
                for _, w in batch:
                    w.run(self.store)
        except StoreError as exc:
            if len(batch) > 1 and not _waits(exc):
                return [b for b in batch if self._write([b])]    # (one bad write must not hold the others)
            if not _waits(exc):
                log.warning("a change to the server's people store was dropped: %s", exc)
                return []
            self._trouble(str(exc), batch)
            return batch
        except Exception:           # a bug in one write: logged, never a dead writer
            log.exception("a change to the server's people store failed")
            return []
        now = self.clock()
        for row, w in batch:
            if w.every:
                self._written[row] = now
        self.written += len(batch)
        if self.trouble:
            log.warning("the server's people store is written again (%d change%s waited)", len(batch),
                        "" if len(batch) == 1 else "s")
            self.trouble = ""
            self._told = set()
        return []

    def _trouble(self, why: str, batch: list[tuple[Hashable, _Write]]) -> None:
        if not self.trouble:
            log.warning("%s: the server goes on, and tries again every %g s (%d change%s wait)", why, RETRY_EVERY,
                        len(batch), "" if len(batch) == 1 else "s")
        self.trouble = why
        who = frozenset(w.who for _, w in batch if w.who and w.who not in self._told)
        if who and self.on_trouble is not None:
            self._told |= who
            self.on_trouble(who)


def _waits(exc: StoreError) -> bool:
    """A failure that may pass (a lock held elsewhere, a full or failing disk), not a bad write."""
    text = str(exc).lower()
    return any(w in text for w in ("locked", "busy", "disk", "full", "i/o", "readonly", "read-only", "unable to open"))


class QueuedPeople:
    """The people store as the server uses it: reads from the store, writes queued to :class:`Writer`
    (a :class:`~.people.PeopleStore`).  Open invitations are held here (read once at start): their
    numbers are given here, never twice, and the store keeps them for a restart."""

    def __init__(self, store: SqlitePeopleStore, on_trouble: Callable[[frozenset[str]], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.path = store.path
        self.problem = store.problem
        store.write_wait(WRITE_WAIT)
        self.writer = Writer(store, on_trouble, clock)
        #: The options queued or written in this run, by key: what the store will hold.
        self._options: dict[str, PersonOptions] = {}
        self._notes: dict[str, str] = {}
        self._invitations: dict[int, Invitation] = {i.id: i for i in store.invitations()}
        self._last_invitation = store.last_invitation()
        #: The lobby's last chat lines (read once at start; each new one kept here and queued).
        self._chat: list[ChatLine] = store.last_chat(CHAT_KEEP)
        self._chat_queued = 0

    # ------------------------------------------------------------------ names and notes
    def names(self) -> list[NameRow]:
        return self.store.names()

    def put_names(self, rows: Sequence[NameRow], gone: Sequence[str] = ()) -> None:
        # (one write per name: a later write of a name replaces the queued one)
        for r in rows:
            self.writer.put(("name", r.skeleton), _Write(_put_name(r)))
        for g in gone:
            self.writer.put(("name", g), _Write(_drop_name(g)))

    def note(self, name: str) -> str | None:
        return self._notes[name] if name in self._notes else self.store.note(name)

    def set_note(self, name: str, value: str) -> None:
        self._notes[name] = value
        self.writer.put(("note", name), _Write(lambda s: s.set_note(name, value), every=ROW_EVERY))

    # ------------------------------------------------------------------ ratings and records (reads; a match on its own thread)
    def rating(self, entry: str, game: Game = Game.CANASTA) -> Rating:
        return self.store.rating(entry, game)

    def ratings_of(self, entry: str) -> list[Rating]:
        return self.store.ratings_of(entry)

    def established(self, entry: str, game: Game = Game.CANASTA) -> bool:
        return self.store.established(entry, game)

    def record_match(self, result: MatchResult) -> list[RatingChange]:
        return self.store.record_match(result)           # (called on the recorder's thread, never the loop)

    def matches_of(self, key: str, limit: int = 20) -> list[HistoryRow]:
        return self.store.matches_of(key, limit)

    def wins_by_partner(self, key: str) -> list[Tally]:
        return self.store.wins_by_partner(key)

    def wins_by_rules(self, key: str) -> list[Tally]:
        return self.store.wins_by_rules(key)

    def high_scores(self, key: str, limit: int = 10) -> list[HighScore]:
        return self.store.high_scores(key, limit)

    def leaderboard(self, limit: int = 20, game: Game = Game.CANASTA) -> list[Standing]:
        return self.store.leaderboard(limit, game)

    # ------------------------------------------------------------------ options
    def options_of(self, key: str) -> PersonOptions | None:
        return self._options[key] if key in self._options else self.store.options_of(key)

    def set_options(self, key: str, options: PersonOptions) -> None:
        self._options[key] = options
        self.writer.put(("options", key), _Write(lambda s: s.set_options(key, options), who=key, every=ROW_EVERY))

    # ------------------------------------------------------------------ bans, visits (admin.py writes them off the loop)
    def ban(self, ban: Ban) -> None:
        self.store.ban(ban)

    def unban(self, target: str) -> bool:
        return self.store.unban(target)

    def bans(self, now: float) -> list[Ban]:
        return self.store.bans(now)

    def visit(self, visit: Visit, keep: int = VISITS_KEEP) -> None:
        self.store.visit(visit, keep)       # (the admin's bans write them on a thread of their own)

    def visits(self, limit: int = VISITS_KEEP) -> list[Visit]:
        return self.store.visits(limit)

    # ------------------------------------------------------------------ invitations (held here)
    def invite(self, from_key: str, from_name: str, to_key: str, table_id: int, made: float) -> Invitation:
        for old in [i for i in self._invitations.values() if i.to_key == to_key and i.table_id == table_id]:
            del self._invitations[old.id]
        self._last_invitation += 1
        inv = Invitation(self._last_invitation, from_key, from_name, to_key, table_id, made)
        self._invitations[inv.id] = inv
        self.writer.put(("invitation", inv.id), _Write(lambda s: s.put_invitation(inv)))
        return inv

    def invitations_for(self, key: str) -> list[Invitation]:
        return [i for i in self.invitations() if i.to_key == key]

    def invitations(self) -> list[Invitation]:
        return sorted(self._invitations.values(), key=lambda i: (i.made, i.id))

    def withdraw(self, invitation_id: int) -> bool:
        if self._invitations.pop(invitation_id, None) is None:
            return False
        self.writer.put(("invitation", invitation_id), _Write(lambda s: _withdraw(s, invitation_id)))
        return True

    def withdraw_table(self, table_id: int) -> int:
        gone = [i.id for i in self._invitations.values() if i.table_id == table_id]
        for n in gone:
            self.withdraw(n)
        return len(gone)

    # ------------------------------------------------------------------ the lobby's chat
    def add_chat(self, line: ChatLine, keep: int = CHAT_KEEP) -> None:
        self._chat.append(line)
        del self._chat[:-CHAT_KEEP]
        self._chat_queued += 1
        self.writer.put(("chat", self._chat_queued), _Write(lambda s: s.add_chat(line, keep)))

    def last_chat(self, n: int = CHAT_KEEP) -> list[ChatLine]:
        return self._chat[-n:] if n > 0 else []

    # ------------------------------------------------------------------ the end
    def flush(self, timeout: float = CLOSE_WAIT) -> bool:
        return self.writer.flush(timeout)

    def close(self) -> None:
        self.writer.close()
        self.store.close()


def _put_name(row: NameRow) -> Callable[[SqlitePeopleStore], None]:
    return lambda store: store.put_names([row])


def _drop_name(skeleton: str) -> Callable[[SqlitePeopleStore], None]:
    return lambda store: store.put_names([], [skeleton])


def _withdraw(store: SqlitePeopleStore, invitation_id: int) -> None:
    store.withdraw(invitation_id)


__all__ = ["CLOSE_WAIT", "RETRY_EVERY", "ROW_EVERY", "WAITS", "WRITE_WAIT", "QueuedPeople", "Writer"]
