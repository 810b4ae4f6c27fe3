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

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ...text import printable
from ..door.names import NameRefused
from ..person import PersonId
from .evening import EVENING_MATCHES, BestHand, ClubMatch, PairRow
from .people import (
    CHAT_KEEP,
    NOTES_KEEP,
    NOTES_WAITING,
    VISITS_KEEP,
    Ban,
    ChatLine,
    Game,
    HighScore,
    HistoryRow,
    Invitation,
    Mark,
    MarkKind,
    MatchResult,
    NameRow,
    PeopleStore,
    PersonNote,
    PersonOptions,
    Rating,
    RatingChange,
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


class KeptStore(PeopleStore, Protocol):
    """A store the writer writes: a :class:`~.people.PeopleStore` with batches, a bounded wait for
    another process's locks, and invitations numbered by their caller (the SQLite file,
    :class:`~.people.SqlitePeopleStore`, or the database, :class:`~.pgpeople.PostgresPeopleStore`)."""

    @property
    def path(self) -> Path | str: ...
    @property
    def problem(self) -> str: ...
    #: Several processes write it (a database): a name is reserved there before it is let in.
    shared: bool

    def batch(self) -> AbstractContextManager[None]: ...
    def write_wait(self, seconds: float) -> None: ...
    def last_invitation(self) -> int: ...
    def put_invitation(self, inv: Invitation) -> None: ...
    def claim_invitations(self, n: int) -> int: ...


#: The notices a write sends other processes (``docs/cluster.md``): read the names again, the
#: lobby's chat and invitations again.  (Bans are :mod:`.admin`'s: ``bans.changed``.)
PEOPLE_CHANGED, LOBBY_CHANGED = "people.changed", "lobby.changed"
#: A note was left for somebody: each process counts again the notes waiting for its people.
NOTES_CHANGED = "notes.changed"
#: Invitation numbers a process claims at once in a shared store (a block lasts it for years).
INVITATION_BLOCK = 1_000_000


@dataclass(frozen=True)
class SharedLobby:
    """The lobby's chat and open invitations as a shared store holds them, read on a thread."""

    chat: list[ChatLine]
    invitations: list[Invitation]


@dataclass
class _Write:
    """One queued write: what it does to the store, whose it is (told if it waits), its row's pace,
    and the notice other processes are sent once it is written ("": none; :mod:`..cluster.notices`)."""

    run: Callable[[KeptStore], object]
    who: PersonId | None = None
    every: float = 0.0
    notice: str = ""
    #: A reservation's row: the name book is told if the shared store finds the name another key's.
    name_row: NameRow | None = None
    #: Run once the batch that holds it is committed (what memory held in its place can go: before
    #: the commit a read of the store would not see it yet).
    after: Callable[[], None] | None = None


class Writer:
    """One thread that writes a queue to the store in batches, one write per row (the last)."""

    def __init__(self, store: KeptStore, on_trouble: Callable[[frozenset[PersonId]], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.on_trouble = on_trouble
        self.clock = clock
        #: Told (on the writer's thread) the notices of each batch written: other processes read again.
        self.on_written: Callable[[frozenset[str]], None] | None = None
        #: Told (on the writer's thread) of a name another key holds in the shared store: the row and why.
        self.on_name_held: Callable[[NameRow, str], None] | None = None
        self._queue: dict[Hashable, _Write] = {}            # in the order first queued
        self._written: dict[Hashable, float] = {}           # when a paced row was last written
        self._cond = threading.Condition()
        self._busy = False                                  # a batch is being written
        self._closing = False
        #: The trouble now ("" when writes go through): logged once, and who was told of it.
        self.trouble = ""
        self._told: set[PersonId] = set()
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
        except NameRefused as exc:
            # A name another process's key reserved first (the shared store refused the batch whole).
            if len(batch) > 1:
                return [b for b in batch if self._write([b])]
            log.warning("the server's people store refused a name: %s", exc)
            refused, held = batch[0][1].name_row, self.on_name_held
            if held is not None and refused is not None:
                held(refused, str(exc))
            return []
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
            if w.after is not None:
                w.after()
        self.written += len(batch)
        notices = frozenset(w.notice for _, w in batch if w.notice)
        if notices and self.on_written is not None:
            try:
                self.on_written(notices)
            except Exception:       # (telling the others must never stop the writer)
                log.exception("the notices of a write could not be sent")
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
        who = frozenset(w.who for _, w in batch if w.who is not None and w.who not in self._told)
        if who and self.on_trouble is not None:
            self._told |= who
            self.on_trouble(who)


def _waits(exc: StoreError) -> bool:
    """A failure that may pass (a lock held elsewhere, a full or failing disk, a database that cannot
    be reached or cancelled a statement at its lock timeout), not a bad write."""
    if exc.waits:
        return True
    text = str(exc).lower()
    return any(w in text for w in ("locked", "busy", "disk", "full", "i/o", "readonly", "read-only", "unable to open"))


class QueuedPeople:
    """The people store as the server uses it: reads from the store, writes queued to :class:`Writer`
    (a :class:`~.people.PeopleStore`).  Open invitations are held here (read once at start): their
    numbers are given here, never twice, and the store keeps them for a restart."""

    def __init__(self, store: KeptStore, on_trouble: Callable[[frozenset[PersonId]], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.shared = store.shared
        self.path = store.path
        self.problem = store.problem
        store.write_wait(WRITE_WAIT)
        self.writer = Writer(store, on_trouble, clock)
        #: The options queued or written in this run, by key: what the store will hold.
        self._options: dict[PersonId, PersonOptions] = {}
        self._notes: dict[str, str] = {}
        # (in a shared store an invitation stays with the process that made it and its table: a
        # process starting reads none, and closes none of the others')
        self._invitations: dict[int, Invitation] = {} if self.shared else {i.id: i for i in store.invitations()}
        self._last_invitation = store.last_invitation()
        self._invitation_block_end = 0
        self._claim_invitations()
        #: Invitations (None: withdrawals) queued and not written yet, by number.
        self._invitations_queued: dict[int, Invitation | None] = {}
        #: The lobby's last chat lines (read at start, and again when another process wrote some;
        #: each new one kept here and queued).
        self._chat: list[ChatLine] = store.last_chat(CHAT_KEEP)
        self._chat_queued = 0
        self._chat_unwritten: list[ChatLine] = []
        #: Whom each person marked (a friend, muted), read once a visit (:meth:`forget_marks`), with
        #: this process's changes; and the marks queued and not written yet (None: taken off).
        self._marks: dict[str, dict[tuple[MarkKind, str], Mark]] = {}
        self._marks_queued: dict[tuple[str, MarkKind, str], Mark | None] = {}
        #: Notes left, read or deleted here and not written yet, by id (None: deleted).
        self._notes_queued: dict[str, PersonNote | None] = {}

    # ------------------------------------------------------------------ names and notes
    def names(self) -> list[NameRow]:
        return self.store.names()

    def put_names(self, rows: Sequence[NameRow], gone: Sequence[str] = ()) -> None:
        # (one write per name: a later write of a name replaces the queued one)
        for r in rows:
            self.writer.put(("name", r.skeleton), _Write(_put_name(r), notice=PEOPLE_CHANGED, name_row=r))
        for g in gone:
            self.writer.put(("name", g), _Write(_drop_name(g), notice=PEOPLE_CHANGED))

    def reserve(self, row: NameRow) -> None:
        """Write a new reservation now, on the caller's thread (never the loop's): NameRefused
        (:class:`~.pgpeople.NameHeld`) if another process's key reserved the name first, StoreError if
        the store cannot say.  Other processes are told to read the names again."""
        with self.store.batch():
            self.store.put_names([row])
        if self.writer.on_written is not None:
            self.writer.on_written(frozenset({PEOPLE_CHANGED}))

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

    def matches_of(self, person: PersonId, limit: int = 20) -> list[HistoryRow]:
        return self.store.matches_of(person, limit)

    def wins_by_partner(self, person: PersonId) -> list[Tally]:
        return self.store.wins_by_partner(person)

    def wins_by_rules(self, person: PersonId) -> list[Tally]:
        return self.store.wins_by_rules(person)

    def high_scores(self, person: PersonId, limit: int = 10) -> list[HighScore]:
        return self.store.high_scores(person, limit)

    def leaderboard(self, limit: int = 20, game: Game = Game.CANASTA) -> list[Standing]:
        return self.store.leaderboard(limit, game)

    # ------------------------------------------------------------------ options
    def club_matches(self, since: float, until: float, limit: int = EVENING_MATCHES) -> tuple[list[ClubMatch], bool]:
        return self.store.club_matches(since, until, limit)

    def pair_rows(self, entry: str | None, partner: str | None = None, listed_only: bool = False) -> list[PairRow]:
        return self.store.pair_rows(entry, partner, listed_only)

    def best_hand(self, entry: str, partner: str, listed_only: bool = False) -> BestHand | None:
        return self.store.best_hand(entry, partner, listed_only)

    def options_of(self, person: PersonId) -> PersonOptions | None:
        return self._options[person] if person in self._options else self.store.options_of(person)

    def set_options(self, person: PersonId, options: PersonOptions) -> None:
        self._options[person] = options

        def write(store: KeptStore) -> None:
            store.set_options(person, options)
            if self.shared and self._options.get(person) is options:
                # (written: the store answers from now on, as another process may change it next)
                self._options.pop(person, None)
        self.writer.put(("options", person), _Write(write, who=person, every=ROW_EVERY))

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
    def invite(self, from_key: PersonId, from_name: str, to_key: PersonId, table_id: int, made: float) -> Invitation:
        for old in [i for i in self._invitations.values() if i.to_key == to_key and i.table_id == table_id]:
            del self._invitations[old.id]
        if self._last_invitation >= self._invitation_block_end:
            self._claim_invitations()
        self._last_invitation += 1
        inv = Invitation(self._last_invitation, from_key, from_name, to_key, table_id, made)
        self._invitations[inv.id] = inv
        self._queue_invitation(inv.id, inv, lambda s: s.put_invitation(inv))
        return inv

    def _claim_invitations(self) -> None:
        """Numbers for this process's invitations: in a shared store a block of its own, claimed in
        the store (two processes never give one number twice); in a file, every number after the last."""
        if not self.shared:
            self._invitation_block_end = 1 << 62
            return
        first = self.store.claim_invitations(INVITATION_BLOCK)     # (once a start: a block lasts for years)
        self._last_invitation, self._invitation_block_end = first, first + INVITATION_BLOCK

    def _queue_invitation(self, number: int, inv: Invitation | None, run: Callable[[KeptStore], None]) -> None:
        self._invitations_queued[number] = inv

        def write(store: KeptStore) -> None:
            run(store)
            if self._invitations_queued.get(number, False) is inv:
                self._invitations_queued.pop(number, None)
        self.writer.put(("invitation", number), _Write(write, notice=LOBBY_CHANGED))

    def invitations_for(self, person: PersonId) -> list[Invitation]:
        return [i for i in self.invitations() if i.to_key == person]

    def invitations(self) -> list[Invitation]:
        return sorted(self._invitations.values(), key=lambda i: (i.made, i.id))

    def withdraw(self, invitation_id: int) -> bool:
        if self._invitations.pop(invitation_id, None) is None:
            return False
        self._queue_invitation(invitation_id, None, lambda s: _withdraw(s, invitation_id))
        return True

    def withdraw_table(self, table_id: int) -> int:
        gone = [i.id for i in self._invitations.values() if i.table_id == table_id]
        for n in gone:
            self.withdraw(n)
        return len(gone)

    # ------------------------------------------------------------------ what other processes wrote
    def read_shared(self) -> SharedLobby:
        """The lobby's chat and open invitations as the store holds them (on a thread, never the
        loop's): another process wrote some (a ``lobby.changed`` notice)."""
        return SharedLobby(self.store.last_chat(CHAT_KEEP), self.store.invitations())

    def take_shared(self, read: SharedLobby, invitations: bool = False) -> None:
        """On the loop: what :meth:`read_shared` read, with this process's writes still queued over
        it.  ``invitations``: the open invitations too, where every process sees the same tables
        (a cluster's); processes that each hold tables of their own number them alike, so there an
        invitation stays with the process that made it."""
        if invitations:
            held = {i.id: i for i in read.invitations}
            for number, inv in list(self._invitations_queued.items()):
                if inv is None:
                    held.pop(number, None)
                else:
                    held[number] = inv
            self._invitations = held
        queued = [line for line in self._chat_unwritten if line not in read.chat]
        self._chat = [*read.chat, *queued][-CHAT_KEEP:]

    # ------------------------------------------------------------------ the lobby's chat
    def add_chat(self, line: ChatLine, keep: int = CHAT_KEEP) -> None:
        self._chat.append(line)
        del self._chat[:-CHAT_KEEP]
        self._chat_queued += 1
        self._chat_unwritten.append(line)

        def write(store: KeptStore) -> None:
            store.add_chat(line, keep)
            with contextlib.suppress(ValueError):
                self._chat_unwritten.remove(line)
        self.writer.put(("chat", self._chat_queued), _Write(write, notice=LOBBY_CHANGED))

    def last_chat(self, n: int = CHAT_KEEP) -> list[ChatLine]:
        return self._chat[-n:] if n > 0 else []

    # ------------------------------------------------------------------ friends, mutes, notes (issue 34)
    def marks_of(self, key: str) -> list[Mark]:
        held = self._marks.get(key)
        if held is None:
            # (the queue is taken before the store is read: a write committed and let go of in
            # between is then read from the store, never missed by both)
            queued = list(self._marks_queued.items())
            held = {(m.kind, m.other): m for m in self.store.marks_of(key)}
            for (who, kind, other), m in queued:
                if who == key and m is None:
                    held.pop((kind, other), None)
                elif who == key and m is not None:
                    held[kind, other] = m
            self._marks[key] = held
        return sorted(held.values(), key=lambda m: (m.since, m.other))

    def forget_marks(self, key: str) -> None:
        """A visit begins: ``key``'s marks are read again (another process may have changed them)."""
        self._marks.pop(key, None)

    def mark(self, key: str, mark: Mark) -> None:
        self.marks_of(key)
        self._marks[key][mark.kind, mark.other] = mark
        self._queue_mark((key, mark.kind, mark.other), mark, lambda s: s.mark(key, mark))

    def unmark(self, key: str, other: str, kind: MarkKind) -> bool:
        self.marks_of(key)
        if self._marks[key].pop((kind, other), None) is None:
            return False
        self._queue_mark((key, kind, other), None, lambda s: s.unmark(key, other, kind))
        return True

    def _queue_mark(self, row: tuple[str, MarkKind, str], mark: Mark | None, run: Callable[[KeptStore], object]) -> None:
        self._marks_queued[row] = mark

        def written() -> None:
            if self._marks_queued.get(row, False) is mark:
                self._marks_queued.pop(row, None)
        self.writer.put(("mark", *row), _Write(run, who=PersonId.read(row[0]), after=written))

    def leave_note(self, note: PersonNote, waiting: int = NOTES_WAITING, keep: int = NOTES_KEEP) -> bool:
        """Queued (the caller checked the bounds: the store checks them again, and drops a note beyond)."""
        def run(store: KeptStore) -> None:
            if not store.leave_note(note, waiting, keep):
                log.warning("a note for %s was not kept: %d notes wait for them already", printable(note.to_key),
                            waiting)
        self._queue_note(note.id, note, run, NOTES_CHANGED)
        return True

    def notes_for(self, key: str) -> list[PersonNote]:
        queued = list(self._notes_queued.items())     # (before the store is read: as marks_of)
        got = {n.id: n for n in self.store.notes_for(key)}
        for number, n in queued:
            if n is None:
                got.pop(number, None)
            elif n.to_key == key:
                got[number] = n
        return sorted(got.values(), key=lambda n: (n.written, n.id))

    def read_notes(self, key: str, ids: Sequence[str]) -> None:
        # (a note read is written again whole, read: the one write of its row, whether or not the
        # note itself is written yet)
        held = {n.id: n for n in self.notes_for(key)}
        for number in ids:
            note = held.get(number)
            if note is not None and not note.read:
                seen = note._replace(read=True)
                self._queue_note(number, seen, _leave(seen))

    def drop_note(self, key: str, note_id: str) -> bool:
        if all(n.id != note_id for n in self.notes_for(key)):
            return False
        self._queue_note(note_id, None, lambda s: s.drop_note(key, note_id))
        return True

    def _queue_note(self, number: str, note: PersonNote | None, run: Callable[[KeptStore], object],
                    notice: str = "") -> None:
        self._notes_queued[number] = note

        def written() -> None:
            if self._notes_queued.get(number, False) is note:
                self._notes_queued.pop(number, None)
        self.writer.put(("person_note", number), _Write(run, notice=notice, after=written))

    def notes_waiting(self, keys: Sequence[str]) -> dict[str, tuple[int, float]]:
        """As the store counts them, and as this process's queue holds them for those it has changed."""
        # (whose notes wait in the queue is taken before the store is read: a write committed and
        # let go of in between is then counted again from the store, never missed by both)
        mine = {n.to_key for n in list(self._notes_queued.values()) if n is not None}
        out = self.store.notes_waiting(keys)
        for key in set(keys) & mine:
            unread = [n.written for n in self.notes_for(key) if not n.read]
            out.pop(key, None)
            if unread:
                out[key] = (len(unread), max(unread))
        return out

    # ------------------------------------------------------------------ the end
    def flush(self, timeout: float = CLOSE_WAIT) -> bool:
        return self.writer.flush(timeout)

    def close(self) -> None:
        self.writer.close()
        self.store.close()


def _put_name(row: NameRow) -> Callable[[KeptStore], None]:
    return lambda store: store.put_names([row])


def _drop_name(skeleton: str) -> Callable[[KeptStore], None]:
    return lambda store: store.put_names([], [skeleton])


def _leave(note: PersonNote) -> Callable[[KeptStore], object]:
    return lambda store: store.leave_note(note)


def _withdraw(store: KeptStore, invitation_id: int) -> None:
    store.withdraw(invitation_id)


__all__ = ["CLOSE_WAIT", "INVITATION_BLOCK", "LOBBY_CHANGED", "NOTES_CHANGED", "PEOPLE_CHANGED", "RETRY_EVERY",
           "ROW_EVERY", "WAITS", "WRITE_WAIT", "KeptStore", "QueuedPeople", "SharedLobby", "Writer"]
