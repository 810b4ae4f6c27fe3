"""The people store's contract, run against both stores: SQLite (``SqlitePeopleStore``, one file)
and PostgreSQL (``PostgresPeopleStore``, on a real throwaway server started by ``tests/engines.py``).
Every method of ``PeopleStore`` is written and read back through a second store on the same
database (a restart, or another server process); the two stores give the same answers to one
script of writes; and what a shared database adds (issue 32, section 4, quoting
``docs/server-store.md``) is checked with real connections on threads: "ratings read and written
under row locks (two fronts finishing matches of one person at once give the same ratings as one
after the other)", and "a name reserved by two fronts at the same moment goes to one key and the
other is refused".  The helpers of ``test_people.py`` and ``test_rating_rules.py`` are reused."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import psycopg
import pytest
from engines import free_port, pg_dsn, postgres  # noqa: F401  (fixtures)
from openskill.models import PlackettLuce

from canasta_tui.server.club.people import (
    COMPUTER_PREFIX,
    Ban,
    ChatLine,
    Game,
    Invitation,
    NameRow,
    PersonOptions,
    Rating,
    RatingRules,
    SqlitePeopleStore,
    StoreError,
    Visit,
    new_rating,
    record_of,
)
from canasta_tui.server.club.pgpeople import VERSION, NameHeld, PostgresPeopleStore
from canasta_tui.server.door import names as names_module
from canasta_tui.server.person import PersonId

from .test_people import FOUR, result
from .test_rating_rules import ADVANCED, ANN, BOB, CY, DEE, EXPERT, establish, match, seats

#: The same people as the stores take them.
ANN_ID, BOB_ID, CY_ID, DEE_ID = (PersonId.parse(k) for k in (ANN, BOB, CY, DEE))

#: Every wait for another thread is bounded by this (a busy 2-core machine: generous).
WAIT = 60.0

Store = SqlitePeopleStore | PostgresPeopleStore


@dataclass
class Backend:
    """One kind of store over one database: ``open`` a store on it (each its own connections, as
    another server process would), ``sql`` runs a statement on it directly (as another program)."""

    kind: str
    open: Callable[..., Store]
    sql: Callable[[str, tuple[Any, ...]], None]
    dsn: str = ""

    def reopen(self, s: Store) -> Store:
        s.close()
        return self.open(rules=s.rules)


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    opened: list[Store] = []
    if request.param == "sqlite":
        path = tmp_path / "people.sqlite"

        def open_sqlite(rules: RatingRules | None = None) -> Store:
            opened.append(SqlitePeopleStore(path, rules=rules or RatingRules(provisional=0)))
            return opened[-1]

        def sql_sqlite(statement: str, args: tuple[Any, ...]) -> None:
            db = sqlite3.connect(path)
            with db:
                db.execute(statement.replace("%s", "?"), args)
            db.close()

        yield Backend("sqlite", open_sqlite, sql_sqlite)
    else:
        dsn = str(request.getfixturevalue("pg_dsn"))

        def open_pg(rules: RatingRules | None = None) -> Store:
            opened.append(PostgresPeopleStore(dsn, rules=rules or RatingRules(provisional=0)))
            return opened[-1]

        def sql_pg(statement: str, args: tuple[Any, ...]) -> None:
            with psycopg.connect(dsn, autocommit=True) as db:
                db.execute(statement.encode(), args)

        yield Backend("postgres", open_pg, sql_pg, dsn)
    for s in opened:        # (a store left open would hold its database: it could not be dropped)
        s.close()


# ---------------------------------------------------------------------- every method, both stores
def test_names_and_notes_are_kept_and_a_name_that_goes_is_gone(backend: Backend) -> None:
    s = backend.open()
    assert s.names() == [] and s.note("x") is None
    s.put_names([NameRow("alice", "Alice", "SHA256:a", 10.0, 20.0), NameRow("bob", "bob", "SHA256:b", 5.0, 6.0)])
    s.put_names([NameRow("alice", "alice", "SHA256:a", 10.0, 30.0)])        # the same key: seen again, renamed
    s.set_note("imported", "yes")
    s.set_note("imported", "twice")
    s = backend.reopen(s)
    assert s.names() == [NameRow("bob", "bob", "SHA256:b", 5.0, 6.0), NameRow("alice", "alice", "SHA256:a", 10.0, 30.0)]
    assert s.note("imported") == "twice"
    s.put_names([NameRow("cy", "cy", "SHA256:c", 40.0, 40.0)], gone=["bob"])
    assert [r.skeleton for r in backend.reopen(s).names()] == ["alice", "cy"]


def test_a_rated_match_moves_each_rated_entry_as_openskill_computes_it_once(backend: Backend) -> None:
    """As ``test_people``'s first test: computers rated by level, two Expert partners one entry, a
    guest not kept, the same game twice recorded once."""
    s = backend.open()
    assert s.rating(ANN) == new_rating(ANN, ANN)
    table = [FOUR[0], (COMPUTER_PREFIX + "expert", "Computer"), ("guest:gus", "~gus"), (EXPERT, "Computer")]
    changes = s.record_match(result("g1", table, 1, (900, 5100)))
    model = PlackettLuce()
    want = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[1.0, 0.0])
    assert {c.entry for c in changes} == {ANN, EXPERT}
    s = backend.reopen(s)
    expert, ann = s.rating(EXPERT), s.rating(ANN)
    assert (expert.mu, expert.sigma, expert.matches, expert.name) == (want[1][0].mu, want[1][0].sigma, 1, "Computer")
    assert (ann.mu, ann.sigma, ann.matches, ann.name) == (want[0][0].mu, want[0][0].sigma, 1, "ann")
    assert s.rating("guest:gus") == new_rating("guest:gus", "guest:gus")
    assert s.record_match(result("g1", table, 1, (900, 5100))) == []
    assert s.rating(ANN).matches == 1 and len(s.matches_of(PersonId.parse(ANN))) == 1
    assert s.ratings_of(ANN) == [ann] and s.ratings_of("guest:gus") == []


def test_who_is_established_and_who_a_match_moves_follow_the_rating_rules(backend: Backend) -> None:
    """``docs/ratings.md``: "a newcomer's first matches count only against computers and
    established people" (``test_rating_rules``' farm, on both stores)."""
    s = backend.open(rules=RatingRules())
    s.record_match(match("new", seats(ANN, BOB, EXPERT, ADVANCED), 0))
    assert s.rating(ANN).matches == 0 and s.rating(EXPERT).matches == 1      # (one level a side: rated)
    assert s.matches_of(PersonId.parse(ANN))[0].unrated == "newcomer"
    establish(s, ANN, 3)                        # type: ignore[arg-type]
    s = backend.reopen(s)
    assert s.established(ANN) and not s.established(BOB) and s.established(EXPERT)
    assert not s.established("guest:x") and s.rating(ANN).matches == 3
    s.record_match(match("idle", seats(ANN, EXPERT, ADVANCED, EXPERT, ann={"turns": 1, "stood_in": 9}), 0))
    assert s.matches_of(PersonId.parse(ANN))[0].unrated == "stood-in" and s.rating(ANN).matches == 3


def test_histories_tallies_high_scores_and_leaderboards(backend: Backend) -> None:
    s = backend.open()
    s.record_match(result("a", FOUR, 0, (5000, 1000), finished=1.0))
    s.record_match(result("b", FOUR, 1, (2000, 5000), finished=2.0, rules="windows"))
    s.record_match(result("c", [FOUR[0], FOUR[2], FOUR[1], FOUR[3]], 0, (5500, 100), finished=3.0, rated=False))
    s.record_match(replace(result("s", FOUR, 1, (100, 9000), finished=4.0, rules="samba"), game=Game.SAMBA))
    s = backend.reopen(s)
    rows = s.matches_of(PersonId.parse(ANN))
    assert [(r.game_id, r.partners, r.opponents, r.won, r.rated) for r in rows] == [
        ("s", ("cy",), ("bob", "dee"), False, True), ("c", ("bob",), ("cy", "dee"), True, False),
        ("b", ("cy",), ("bob", "dee"), False, True), ("a", ("cy",), ("bob", "dee"), True, True)]
    assert rows[1].change is None and rows[3].change is not None and rows[3].change > 0
    assert [r.game_id for r in s.matches_of(PersonId.parse(ANN), 2)] == ["s", "c"]
    assert [tuple(t) for t in s.wins_by_partner(PersonId.parse(ANN))] == [("cy", 1, 3), ("bob", 1, 1)]
    assert [tuple(t) for t in s.wins_by_rules(PersonId.parse(ANN))] == [("classic", 2, 2), ("samba", 0, 1), ("windows", 0, 1)]
    assert [h.difference for h in s.high_scores(PersonId.parse(ANN))] == [5400, 4000, -3000, -8900]
    person = PersonId.parse(ANN)
    assert [h.difference for h in s.high_scores(person, 1)] == [5400] and len(s.high_scores(person, -1)) == 4
    assert len(s.matches_of(PersonId.parse(ANN), -1)) == 4 and len(s.leaderboard(-1)) == 4
    board = s.leaderboard(10)
    assert [b.place for b in board] == [1, 2, 3, 4] and all(b.matches == 2 for b in board)
    assert {b.name: b.wins for b in board} == {"ann": 1, "bob": 1, "cy": 1, "dee": 1}
    assert [b.points for b in board] == sorted((b.points for b in board), reverse=True)
    assert {b.name: b.wins for b in s.leaderboard(10, Game.SAMBA)} == {"bob": 1, "dee": 1, "ann": 0, "cy": 0}
    assert s.leaderboard(10, Game.BOLIVIA) == []
    assert [r.game for r in s.ratings_of(ANN)] == [Game.CANASTA, Game.SAMBA]
    record = record_of(s, PersonId.parse(BOB), "bob")
    assert (record.rating.matches, len(record.matches), len(record.ratings)) == (2, 4, 2)


def test_options_are_kept_and_bad_stored_values_keep_the_default(backend: Backend) -> None:
    s = backend.open()
    assert s.options_of(PersonId.parse(ANN)) is None
    s.set_options(PersonId.parse(ANN), PersonOptions(sort="suit", four_color=True, deck="ascii"))
    s.set_options(PersonId.parse(ANN), PersonOptions(sort="suit", four_color=True, deck="ascii", bell_turn=True))
    s = backend.reopen(s)
    assert s.options_of(PersonId.parse(ANN)) == PersonOptions(sort="suit", four_color=True, deck="ascii", bell_turn=True)
    backend.sql("UPDATE options SET data = %s", (json.dumps({"sort": "suit", "deck": "emoji", "volume": 11}),))
    assert s.options_of(PersonId.parse(ANN)) == PersonOptions(sort="suit")
    backend.sql("UPDATE options SET data = %s", ("{not json",))
    assert s.options_of(PersonId.parse(ANN)) == PersonOptions()


def test_bans_last_until_they_end_and_visitors_are_kept_newest_first(backend: Backend) -> None:
    s = backend.open()
    eve = Ban("key:SHA256:eve", 2000.0, "spam", "key:SHA256:admin", 1000.0, "eve", ("10.0.0.9", "::1"))
    s.ban(eve)
    s.ban(Ban("address:10.0.0.9", 1500.0, "", "key:SHA256:admin", 1000.0))
    s = backend.reopen(s)
    assert [b.target for b in s.bans(1200.0)] == ["key:SHA256:eve", "address:10.0.0.9"]
    assert s.bans(1600.0) == [eve]
    s.ban(eve._replace(until=3000.0))                   # a ban written again: the new one holds
    assert s.bans(2500.0) == [eve._replace(until=3000.0)]
    assert s.unban(eve.target) and not s.unban(eve.target) and s.bans(1600.0) == []
    for i in range(5):
        s.visit(Visit(f"key:SHA256:p{i}", f"p{i}", (f"10.0.0.{i}",), 100.0 + i), keep=3)
    s.visit(Visit("key:SHA256:p3", "p3", ("10.0.1.1", "10.0.0.3"), 200.0), keep=3)
    s = backend.reopen(s)
    assert [(v.key, v.addresses) for v in s.visits()] == [
        ("key:SHA256:p3", ("10.0.1.1", "10.0.0.3")), ("key:SHA256:p4", ("10.0.0.4",)), ("key:SHA256:p2", ("10.0.0.2",))]
    assert [v.name for v in s.visits(2)] == ["p3", "p4"] and len(s.visits(-1)) == 3


def test_invitations_are_numbered_never_twice_and_go_with_their_table(backend: Backend) -> None:
    s = backend.open()
    one = s.invite(ANN_ID, "ann", BOB_ID, 3, 10.0)
    again = s.invite(ANN_ID, "ann", BOB_ID, 3, 11.0)          # the same again: one invitation, a new number
    s.invite(ANN_ID, "ann", CY_ID, 3, 12.0)
    s.invite(DEE_ID, "dee", BOB_ID, 4, 13.0)
    s = backend.reopen(s)
    assert again.id > one.id and s.last_invitation() == again.id + 2
    assert [(i.from_name, i.table_id) for i in s.invitations_for(BOB_ID)] == [("ann", 3), ("dee", 4)]
    assert not s.withdraw(one.id) and s.withdraw(again.id) and not s.withdraw(again.id)
    assert s.withdraw_table(3) == 1 and [i.table_id for i in s.invitations()] == [4]
    # Numbered by the caller (the writer numbers them in memory): kept, and never given again.
    s.put_invitation(Invitation(40, ANN_ID, "ann", CY_ID, 5, 20.0))
    s.put_invitation(Invitation(41, ANN_ID, "ann", CY_ID, 5, 21.0))   # the same person and table: replaced
    s = backend.reopen(s)
    assert [i.id for i in s.invitations()] == [again.id + 2, 41] and s.last_invitation() == 41
    s.withdraw(41)
    assert s.invite(ANN_ID, "ann", DEE_ID, 6, 30.0).id == 42


def test_the_chat_keeps_its_last_lines(backend: Backend) -> None:
    s = backend.open()
    for i in range(30):
        s.add_chat(ChatLine("ann", f"line {i}", i % 2 == 0, float(i)), keep=10)
    s = backend.reopen(s)
    assert [c.text for c in s.last_chat(100)] == [f"line {i}" for i in range(20, 30)]
    assert s.last_chat(2) == [ChatLine("ann", "line 28", True, 28.0), ChatLine("ann", "line 29", False, 29.0)]
    # A negative count is no limit, as SQLite reads LIMIT -1 (PostgreSQL would refuse it).
    assert len(s.last_chat(-1)) == 10 and s.last_chat(0) == []
    s.add_chat(ChatLine("bob", "kept all", True, 99.0), keep=-1)
    assert len(s.last_chat(-1)) == 11


def test_text_with_a_nul_character_is_kept(backend: Backend) -> None:
    """A chat line, a ban's reason or a visitor's name pasted with a NUL is kept, not refused (the
    person would lose it): SQLite keeps the NUL, PostgreSQL, whose text cannot hold one, U+FFFD."""
    s = backend.open()
    kept = "\x00" if backend.kind == "sqlite" else "\ufffd"
    s.add_chat(ChatLine("ann", "hi\x00there", True, 1.0))
    s.ban(Ban("key:SHA256:eve", 2000.0, "spam\x00", "key:SHA256:admin", 1000.0))
    s.visit(Visit("guest:x", "~x\x00", ("10.0.0.1",), 5.0))
    s = backend.reopen(s)
    assert [c.text for c in s.last_chat()] == [f"hi{kept}there"]
    assert [b.reason for b in s.bans(1500.0)] == [f"spam{kept}"]
    assert [v.name for v in s.visits()] == [f"~x{kept}"]


def test_a_batch_is_written_whole_or_not_at_all(backend: Backend) -> None:
    """The writer's batches (``server/club/writer.py``): one transaction; a failure inside loses all of it."""
    s = backend.open()
    with s.batch():
        s.set_note("a", "1")
        s.add_chat(ChatLine("ann", "hi", True, 1.0))
    with pytest.raises(RuntimeError), s.batch():
        s.set_note("b", "2")
        raise RuntimeError("a bug in one write")
    s = backend.reopen(s)
    assert (s.note("a"), s.note("b"), [c.text for c in s.last_chat()]) == ("1", None, ["hi"])


def test_both_stores_answer_one_script_alike(tmp_path: Path, pg_dsn: str) -> None:  # noqa: F811
    """The same writes to a SQLite and a PostgreSQL store: every read answers the same."""
    stores: list[Store] = [SqlitePeopleStore(tmp_path / "p.sqlite", rules=RatingRules()),
                           PostgresPeopleStore(pg_dsn, rules=RatingRules())]
    try:
        for s in stores:
            for k in (ANN, BOB, CY, DEE):
                establish(s, k, 3)              # type: ignore[arg-type]
            s.record_match(match("x", seats(ANN, BOB, CY, DEE, bob={"left": True}), 0, forfeit=True))
            s.record_match(match("y", seats(ANN, EXPERT, BOB, ADVANCED, ann={"late": True}), 1))
            s.record_match(match("z", seats(CY, DEE, EXPERT, ADVANCED, dee={"turns": 2, "stood_in": 8}), 1))

        def answers(s: Store) -> list[object]:
            out: list[object] = [s.leaderboard(50), s.leaderboard(50, Game.SAMBA)]
            for k in (ANN, BOB, CY, DEE, EXPERT, ADVANCED):
                who = PersonId.parse(k)
                out += [s.rating(k), s.ratings_of(k), s.established(k), s.wins_by_partner(who), s.wins_by_rules(who),
                        s.high_scores(who), [r._replace(match_id=0) for r in s.matches_of(who, 100)]]
            return out

        sqlite_answers, pg_answers = answers(stores[0]), answers(stores[1])
        for i, (a, b) in enumerate(zip(sqlite_answers, pg_answers, strict=True)):
            assert a == b, i
    finally:
        for s in stores:
            s.close()


# ---------------------------------------------------------------------- two processes at once
@contextmanager
def holding(backend: Backend, lock: str, waiters: int) -> Iterator[Callable[[], None]]:
    """A third connection holds ``lock`` (PostgreSQL: a statement; SQLite: nothing, the threads
    only start together); the function it gives waits until ``waiters`` other connections wait for
    a lock (bounded), then lets them go."""
    if backend.kind == "sqlite":
        yield lambda: None
        return
    with psycopg.connect(backend.dsn) as gate:
        gate.execute(lock.encode())

        def release() -> None:
            deadline = time.monotonic() + WAIT
            with psycopg.connect(backend.dsn, autocommit=True) as watch:
                while True:
                    row = watch.execute("SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()"
                                        " AND wait_event_type = 'Lock'").fetchone()
                    if row is not None and int(row[0]) >= waiters:
                        break
                    assert time.monotonic() < deadline, f"{waiters} writers did not come to the lock within {WAIT:g} s"
                    time.sleep(0.02)
            gate.rollback()

        yield release


def both(calls: list[Callable[[], object]], release: Callable[[], None]) -> list[object]:
    """Run ``calls`` on threads of their own, started together; what each gave back or raised."""
    got: list[object] = [None] * len(calls)
    start = threading.Barrier(len(calls) + 1)

    def run(i: int) -> None:
        start.wait(WAIT)
        try:
            got[i] = calls[i]()
        except Exception as exc:            # (what the call raised is its answer here)
            got[i] = exc

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(len(calls))]
    for t in threads:
        t.start()
    start.wait(WAIT)
    release()
    for t in threads:
        t.join(WAIT)
        assert not t.is_alive(), "a store call did not come back"
    return got


def test_two_servers_finishing_matches_of_one_person_at_once_rate_them_one_after_the_other(backend: Backend) -> None:
    """Issue 32: "two fronts finishing matches of one person at once give the same ratings as one
    after the other".  ann plays two matches at two servers (two stores, each its own connection)
    that finish at the same moment: her rating is exactly what openskill gives for one match and
    then the other (in either order), with both matches counted."""
    first = backend.open()
    first.record_match(result("warm-up", FOUR, 0, (5000, 1000)))     # (ann's rating row exists now)
    second = backend.open()
    start = first.rating(ANN)
    one = match("one", seats(ANN, EXPERT, CY, EXPERT), 0)
    two = match("two", seats(BOB, ANN, DEE, ADVANCED), 0)
    expert, advanced, bob, cy, dee = (first.rating(e) for e in (EXPERT, ADVANCED, BOB, CY, DEE))
    model = PlackettLuce()

    def r(x: Rating) -> Any:
        return model.rating(mu=x.mu, sigma=x.sigma)

    def after_one(ann: Rating) -> Rating:
        new = model.rate([[r(ann), r(cy)], [r(expert), r(expert)]], ranks=[0.0, 1.0])[0][0]
        return ann._replace(mu=new.mu, sigma=new.sigma, matches=ann.matches + 1)

    def after_two(ann: Rating) -> Rating:
        new = model.rate([[r(bob), r(dee)], [r(ann), r(advanced)]], ranks=[0.0, 1.0])[1][0]
        return ann._replace(mu=new.mu, sigma=new.sigma, matches=ann.matches + 1)

    serial = {(x.mu, x.sigma) for x in (after_two(after_one(start)), after_one(after_two(start)))}
    with holding(backend, "SELECT 1 FROM ratings WHERE entry = 'key:SHA256:ann' FOR UPDATE", 2) as release:
        got = both([lambda: first.record_match(one), lambda: second.record_match(two)], release)
    assert all(isinstance(g, list) and g for g in got), got
    final = backend.open().rating(ANN)
    assert final.matches == start.matches + 2
    assert (final.mu, final.sigma) in serial, (final, serial)
    assert {m.game_id for m in first.matches_of(PersonId.parse(ANN))} == {"warm-up", "one", "two"}


def test_two_newcomers_first_matches_at_two_servers_at_once_both_count(backend: Backend) -> None:
    """The same for a person with no rating yet (no row to lock: the store makes one first)."""
    stores = [backend.open(), backend.open()]
    got = both([lambda: stores[0].record_match(match("p", seats(ANN, EXPERT, CY, EXPERT), 0)),
                lambda: stores[1].record_match(match("q", seats(ANN, ADVANCED, DEE, ADVANCED), 1))], lambda: None)
    assert all(isinstance(g, list) and g for g in got), got
    assert backend.open().rating(ANN).matches == 2


def test_one_game_recorded_by_two_servers_at_once_is_recorded_once(backend: Backend) -> None:
    stores = [backend.open(), backend.open()]
    one = match("same", seats(ANN, EXPERT, CY, EXPERT), 0)
    got = both([lambda: stores[0].record_match(one), lambda: stores[1].record_match(one)], lambda: None)
    assert sorted(len(g) for g in got if isinstance(g, list)) == [0, 3], got
    assert backend.open().rating(ANN).matches == 1 and len(stores[0].matches_of(PersonId.parse(ANN))) == 1


def test_a_name_reserved_at_two_servers_at_once_goes_to_one_key_and_the_other_is_refused(pg_dsn: str) -> None:  # noqa: F811
    """Issue 32: "a name reserved by two fronts at the same moment goes to one key and the other
    is refused", with the door's refusal.  (PostgreSQL only: a SQLite file serves one process,
    whose name book in memory is the one that decides.)"""
    stores = [PostgresPeopleStore(pg_dsn), PostgresPeopleStore(pg_dsn)]
    backend = Backend("postgres", lambda **_: stores[0], lambda *_: None, pg_dsn)
    try:
        rows = [NameRow("alice", "alice", "SHA256:one", 1.0, 1.0), NameRow("alice", "аlice", "SHA256:two", 1.0, 1.0)]
        with holding(backend, "LOCK TABLE names IN SHARE ROW EXCLUSIVE MODE", 2) as release:
            got = both([lambda: stores[0].put_names([rows[0]]), lambda: stores[1].put_names([rows[1]])], release)
        refused = [g for g in got if isinstance(g, NameHeld)]
        assert len(refused) == 1 and got.count(None) == 1, got
        assert isinstance(refused[0], names_module.NameRefused)
        (kept,) = stores[0].names()
        loser = rows[1] if kept.fingerprint == "SHA256:one" else rows[0]
        said = "is" if loser.name == kept.name else f"looks like {kept.name}, which is"
        assert str(refused[0]) == (f"the name {loser.name} {said} reserved by another person's key on this server. "
                                   "Connect with another name: ssh -l NAME ...")
        # The refused call wrote nothing, also of its other rows; the holder may use its name on.
        with pytest.raises(NameHeld):
            stores[1].put_names([NameRow("aaron", "aaron", loser.fingerprint, 2.0, 2.0), loser._replace(seen=3.0)])
        assert [r.skeleton for r in stores[0].names()] == ["alice"]
        stores[0].put_names([kept._replace(seen=9.0)])
        assert stores[1].names() == [kept._replace(seen=9.0)]
    finally:
        for s in stores:
            s.close()


# ---------------------------------------------------------------------- PostgreSQL's own bounds
def test_a_database_that_cannot_be_reached_is_a_clear_error_without_the_password() -> None:
    dsn = f"postgresql://canasta:s3cret@127.0.0.1:{free_port()}/people"
    started = time.monotonic()
    with pytest.raises(StoreError) as caught:
        PostgresPeopleStore(dsn, connect_timeout=2)
    text = str(caught.value)
    assert text.startswith("postgresql://canasta@127.0.0.1:")
    assert "/people: the server's people database cannot be reached" in text
    assert "s3cret" not in text
    assert time.monotonic() - started < WAIT            # (bounded: it did not hang)


def test_a_write_that_waits_too_long_for_a_lock_fails_with_a_store_error(pg_dsn: str) -> None:  # noqa: F811
    """The statement timeout: a lock held elsewhere does not hold a writer's thread for ever."""
    s = PostgresPeopleStore(pg_dsn, statement_timeout=0.5)
    try:
        with psycopg.connect(pg_dsn) as other:
            other.execute("LOCK TABLE notes IN ACCESS EXCLUSIVE MODE")
            with pytest.raises(StoreError, match="the server's people database: canceling statement due to"):
                s.set_note("x", "y")
            other.rollback()
        s.set_note("x", "y")                            # and the store goes on once the lock is gone
        assert s.note("x") == "y"
    finally:
        s.close()


def test_a_lost_connection_is_opened_again_on_the_next_call(pg_dsn: str) -> None:  # noqa: F811
    s = PostgresPeopleStore(pg_dsn)
    try:
        s.set_note("x", "1")
        assert s.note("x") == "1"
        with psycopg.connect(pg_dsn, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()"
                          " AND pid != pg_backend_pid()")
        assert s.note("x") == "1"                       # (each connection is found lost, and opened again)
        s.set_note("x", "2")
        assert s.note("x") == "2"
    finally:
        s.close()


def test_a_newer_schema_stops_the_store_and_another_programs_database_is_left_alone(pg_dsn: str) -> None:  # noqa: F811
    PostgresPeopleStore(pg_dsn).close()
    with psycopg.connect(pg_dsn, autocommit=True) as db:
        db.execute("UPDATE canasta_schema SET version = 99")
    with pytest.raises(StoreError, match=rf"of schema 99, newer than this program knows \({VERSION}\): update canasta"):
        PostgresPeopleStore(pg_dsn)
    with psycopg.connect(pg_dsn, autocommit=True) as db:
        db.execute("DROP SCHEMA public CASCADE")
        db.execute("CREATE SCHEMA public")
        db.execute("CREATE TABLE accounts (id INTEGER)")
    with pytest.raises(StoreError, match=r"not a canasta server's people database \(it holds the tables accounts\)"):
        PostgresPeopleStore(pg_dsn)
    with psycopg.connect(pg_dsn, autocommit=True) as db:
        tables = [r[0] for r in db.execute("SELECT table_name FROM information_schema.tables"
                                           " WHERE table_schema = 'public'")]
    assert tables == ["accounts"]


def test_two_servers_starting_at_once_migrate_the_database_once(pg_dsn: str) -> None:  # noqa: F811
    got = both([lambda: PostgresPeopleStore(pg_dsn), lambda: PostgresPeopleStore(pg_dsn)], lambda: None)
    assert all(isinstance(g, PostgresPeopleStore) for g in got), got
    for g in got:
        assert isinstance(g, PostgresPeopleStore)
        g.close()
    with psycopg.connect(pg_dsn) as db:
        assert db.execute("SELECT version FROM canasta_schema").fetchall() == [(VERSION,)]



def test_the_harness_stops_its_postgres_by_pid_and_removes_its_directory_when_a_test_fails() -> None:
    """Issue 32: "every engine process a test starts is stopped by its PID, even when the test fails"."""
    from engines import postgres_server

    seen: list[tuple[int, Path]] = []
    clients: list[psycopg.Connection[tuple[Any, ...]]] = []
    with pytest.raises(RuntimeError, match="a failing test"), postgres_server() as pg:
        seen.append((pg.pid, pg.root))
        clients.append(psycopg.connect(pg.dsn(), connect_timeout=10))   # (still connected when it stops)
        assert clients[0].execute("SELECT 1").fetchone() == (1,)
        raise RuntimeError("a failing test")
    clients[0].close()
    ((pid, root),) = seen
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert not root.exists()


def test_a_test_process_killed_outright_takes_its_postgres_with_it(tmp_path: Path) -> None:
    """Where no ``finally`` runs (an xdist worker killed with SIGKILL), the server does not outlive it."""
    import signal
    import subprocess
    import sys

    tests = Path(__file__).resolve().parents[1]
    pid_file = tmp_path / "pid"
    roots: list[Path] = []
    script = ("import sys, time\nsys.path.insert(0, sys.argv[1])\nfrom engines import postgres_server\n"
              "with postgres_server() as pg:\n    open(sys.argv[2], 'w').write(f'{pg.pid} {pg.root}')\n    time.sleep(600)\n")
    runner = subprocess.Popen([sys.executable, "-c", script, str(tests), str(pid_file)])
    try:
        deadline = time.monotonic() + WAIT
        while not pid_file.exists() or not pid_file.read_text():
            assert runner.poll() is None and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        pid_text, root_text = pid_file.read_text().split(" ", 1)
        pid, roots = int(pid_text), [Path(root_text)]
        os.kill(pid, 0)                                 # (it runs)
        runner.send_signal(signal.SIGKILL)
        runner.wait(WAIT)
        while True:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            assert time.monotonic() < deadline + WAIT, "PostgreSQL outlived the test process that started it"
            time.sleep(0.05)
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait(WAIT)
        for root in roots:                              # (its directory is left: nothing ran to remove it)
            shutil.rmtree(root, ignore_errors=True)


def test_the_servers_queue_writes_to_postgresql_on_its_writer_thread(pg_dsn: str) -> None:  # noqa: F811
    """``server/club/writer.py``'s ``QueuedPeople`` over the PostgreSQL store as over SQLite's: what a
    person changes is answered at once from memory and written by the writer's thread, never the
    caller's (the event loop's, in the server); another store on the database reads it back."""
    from canasta_tui.server.club.writer import QueuedPeople

    threads: list[str] = []
    real = PostgresPeopleStore._writing

    @contextmanager
    def writing(self: PostgresPeopleStore) -> Iterator[Any]:
        threads.append(threading.current_thread().name)
        with real(self) as db:
            yield db

    store = PostgresPeopleStore(pg_dsn)
    store._writing = writing.__get__(store)            # type: ignore[method-assign]
    people = QueuedPeople(store)                        # type: ignore[arg-type]
    try:
        people.set_options(PersonId.parse(ANN), PersonOptions(deck="ascii"))
        people.add_chat(ChatLine("ann", "hello", True, 1.0))
        inv = people.invite(ANN_ID, "ann", BOB_ID, 7, 2.0)
        people.put_names([NameRow("ann", "ann", "SHA256:ann", 1.0, 1.0)])
        people.set_note("imported", "yes")
        assert people.options_of(ANN_ID) == PersonOptions(deck="ascii") and people.invitations_for(BOB_ID) == [inv]
        assert people.flush(WAIT)
    finally:
        people.close()
    # (the one write on the caller's thread is at start: the block of invitation numbers it claims)
    assert threads[0] == "MainThread" and set(threads[1:]) == {"canasta-people-writer"}, threads
    other = PostgresPeopleStore(pg_dsn)
    try:
        assert other.options_of(PersonId.parse(ANN)) == PersonOptions(deck="ascii")
        assert [c.text for c in other.last_chat()] == ["hello"] and other.invitations() == [inv]
        assert [r.name for r in other.names()] == ["ann"] and other.note("imported") == "yes"
    finally:
        other.close()


def test_a_read_of_several_statements_sees_one_moment(pg_dsn: str) -> None:  # noqa: F811
    """A person's history is read in several statements (each match's other seats): a match
    recorded by another server in between shows in all of them or in none."""
    s = PostgresPeopleStore(pg_dsn)
    other = PostgresPeopleStore(pg_dsn)
    try:
        s.record_match(result("a", FOUR, 0, (5000, 1000)))
        with s._reading() as db:
            count = "SELECT COUNT(*) FROM match_seats WHERE entry = %s"
            assert db.execute(count, (ANN,)).fetchone() == (1,)
            other.record_match(result("b", FOUR, 0, (5000, 1000)))
            assert db.execute(count, (ANN,)).fetchone() == (1,)
        assert len(s.matches_of(PersonId.parse(ANN))) == 2
    finally:
        s.close()
        other.close()
