"""The people store's writes never hold up the event loop (the issue "What players, a club and the
test suite still trip on", section 2: "Options freeze every table"), over real SSH.

Every change on the options page was a write to ``people.sqlite`` on the loop: with the file locked
by another process, each one held every screen of the server for the busy timeout.  Now writes go
to the store's own thread, one per row (the last), batched; the loop never waits.  Here another
connection holds the file's write lock while alice keeps changing an option: every change shows
at once on her screen, bob's screen answers too, alice is told that her change waits, the host's
log says so, and when the lock goes the last value is written.  The store's busy timeout is made
a minute long, as a lock held for long would be: before, the first change held the loop that long.
"""

from __future__ import annotations

import logging
import re
import sqlite3
import time
from pathlib import Path

import pytest

from canasta_tui.server.club.people import PersonOptions, SqlitePeopleStore
from canasta_tui.server.person import PersonId

from .helpers import ENTER, Term, fingerprint_of, run, serving, settle

#: One person (a key) whose options are written and read back.
A = PersonId.parse("key:SHA256:a")


def test_a_locked_people_file_never_holds_up_a_screen(monkeypatch: pytest.MonkeyPatch,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(SqlitePeopleStore.__init__, "__defaults__", (60.0,))
    caplog.set_level(logging.WARNING, logger="canasta.server")

    async def main() -> None:
        async with serving() as srv:
            alice = await Term.connect(srv.port, "alice")
            bob = await Term.connect(srv.port, "bob")
            await alice.wait_for("No tables yet")
            await bob.wait_for("No tables yet")
            await alice.press("o", "Card faces")
            path = srv.registry.people.path          # type: ignore[attr-defined]
            lock = sqlite3.connect(path, isolation_level=None)
            lock.execute("BEGIN IMMEDIATE")           # another process's write lock on the file
            try:
                for i in range(8):
                    value = "on" if i % 2 == 0 else "off"
                    await alice.press(ENTER, lambda s, v=value: re.search(rf"> Four-colour deck +{v}\b", s) is not None)
                    await bob.press("?", "Lobby keys")                  # bob's help opens and closes
                    await bob.press("q", lambda s: "Lobby keys" not in s)
                # Once the writer knows the trouble, the host's log says so, and alice is told: on the
                # page at her next change, and in the lobby.
                people = srv.registry.people
                await settle(srv, lambda: bool(people.writer.trouble))          # type: ignore[attr-defined]
                assert any("tries again" in r.getMessage() for r in caplog.records)
                text = await alice.press(ENTER, lambda s: "Four-colour deck = on" in s or "its store is busy" in s)
                assert "its store is busy" in text, text
                text = await alice.press("q", "Tables")
                assert "The server cannot keep your change just now" in text, text
            finally:
                lock.execute("ROLLBACK")
                lock.close()
            key = f"key:{fingerprint_of('alice')}"
            await settle(srv, lambda: people.writer.pending() == 0, timeout=60)   # type: ignore[attr-defined]
            check = SqlitePeopleStore(path)
            try:
                assert check.options_of(PersonId.parse(key)) == PersonOptions(four_color=True)     # the ninth change: on
            finally:
                check.close()
            assert any("written again" in r.getMessage() for r in caplog.records)
            for t in (alice, bob):
                await t.close()
    run(main(), timeout=120)


def test_the_writer_keeps_one_write_per_row_and_paces_a_row(tmp_path: Path) -> None:
    """Ten changes of one person's options queued at once are one write of the last; a row is not
    written again within ROW_EVERY of its last write (the clock is handed in)."""
    from canasta_tui.server.club.writer import ROW_EVERY, QueuedPeople, Writer

    now = [1000.0]
    store = SqlitePeopleStore(tmp_path / "people.sqlite")
    people = QueuedPeople(store, clock=lambda: now[0])
    try:
        with store.batch():       # (the writer waits for the batch's lock: every change below is queued)
            for i in range(10):
                people.set_options(A, PersonOptions(four_color=i % 2 == 1))
            assert people.options_of(A) == PersonOptions(four_color=True)
        assert people.flush(30)
        assert people.writer.written == 1
        assert store.options_of(A) == PersonOptions(four_color=True)
        people.set_options(A, PersonOptions(deck="ascii"))
        time.sleep(0.2)
        assert people.writer.pending() == 1 and store.options_of(A) == PersonOptions(four_color=True)
        now[0] += ROW_EVERY
        assert people.flush(30)
        assert store.options_of(A) == PersonOptions(deck="ascii") and people.writer.written == 2
    finally:
        people.close()
    assert isinstance(people.writer, Writer)


def test_no_write_of_the_people_store_runs_on_the_event_loops_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """Everything people do that the store keeps (a name reserved at the door, a chat line, options,
    an invitation sent and declined) is written, and never by the event loop's thread (the test's
    own: asyncio.run runs the server's loop here)."""
    import threading
    from contextlib import contextmanager

    loop_thread = threading.current_thread()
    writers: list[str] = []
    real = SqlitePeopleStore._writing

    @contextmanager
    def writing(self: SqlitePeopleStore):  # type: ignore[no-untyped-def]
        writers.append(threading.current_thread().name)
        with real(self) as db:
            yield db

    monkeypatch.setattr(SqlitePeopleStore, "_writing", writing)
    first = [0]

    async def main() -> None:
        async with serving() as srv:
            reg = srv.registry
            first[0] = len(writers)          # (at start the server clears bans that are over: nobody waits yet)
            alice = await Term.connect(srv.port, "alice")
            bob = await Term.connect(srv.port, "bob")
            await alice.wait_for("No tables yet")
            await bob.wait_for("No tables yet")
            start = len(writers)
            await alice.press("c", "Say:")
            await alice.press("hello" + ENTER, "alice✓: hello")
            await alice.press("o", "Card faces")
            await alice.press(ENTER, "Four-colour deck = on")
            await alice.press("q", "Tables")
            await alice.press("n", "New table")
            await alice.press(ENTER, "is yours")
            assert reg.invitations.invite(reg.clients[PersonId.parse(f"key:{fingerprint_of('alice')}")],
                                          PersonId.parse(f"key:{fingerprint_of('bob')}"), 1) is None
            await bob.wait_for("alice invites you to table 1")
            await bob.press("n", "You declined alice's invitation")
            people = reg.people
            assert people.flush(30)                                         # type: ignore[attr-defined]
            # Written: the chat line, the options, the invitation (the writer may batch several of
            # them into one transaction, so the writes are counted by what the store holds).
            assert len(writers) > start
            assert any(line.text == "hello" for line in people.last_chat(10))
            options = people.options_of(PersonId.parse(f"key:{fingerprint_of('alice')}"))
            assert options is not None and options.four_color
            assert people.invitations_for(PersonId.parse(f"key:{fingerprint_of('bob')}")) == []
            for t in (alice, bob):
                await t.close()
    run(main(), timeout=120)
    assert len(writers) > first[0] and loop_thread.name not in writers[first[0]:], writers
