"""Two servers on one people database (issue 32, section 4): ``canasta serve --database``.

Real PostgreSQL (``tests/engines.py``), real SSH clients (asyncssh, each person with their own
key).  Two servers share one database: each has its own directory (host key, tables) and its own
connections, and they hear each other's changes only through the database (``LISTEN``/``NOTIFY``
notices, ``server/club/notices.py``), as two processes do; the last test runs two real
``canasta serve`` processes.  A ban made at one holds at the other, a name reserved at both at
once goes to one key and the other is told, a lobby chat line said at one is shown at the other,
a rated match recorded at one is rated as openskill computes it and read so at the other.

Every wait is bounded (``WAIT``); every server is stopped (``async with``, or by its PID).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import asyncssh
import psycopg
import pytest
from engines import free_port, pg_dsn, postgres  # noqa: F401  (fixtures)
from openskill.models import PlackettLuce
from psycopg.conninfo import conninfo_to_dict

from canasta_tui.server import ConfigError, Server, ServerConfig
from canasta_tui.server.club.admin import Bans
from canasta_tui.server.club.notices import CHANNEL, KINDS, LOBBY_CHANGED, PgNotices, notice_kind
from canasta_tui.server.club.people import Ban, NameRow, PersonOptions
from canasta_tui.server.club.pgpeople import PostgresPeopleStore
from canasta_tui.server.club.writer import QueuedPeople
from canasta_tui.server.config_file import merged, values_of
from canasta_tui.server.door.auth import Identity
from canasta_tui.server.door.names import NameBook, skeleton
from canasta_tui.server.person import PersonId

from .helpers import ENTER, WAIT, Term, config, fingerprint_of, key_of, run, settle
from .test_rated_matches import GRACE, key, rated_table, recorded


def url_of(dsn: str) -> str:
    """The test database as ``--database`` takes it: a postgresql:// URL."""
    d = conninfo_to_dict(dsn)
    return f"postgresql://{d['user']}@{d['host']}:{d['port']}/{d['dbname']}"


@contextlib.asynccontextmanager
async def two_servers(dsn: str, tmp_path: Path, **changes: Any) -> AsyncIterator[tuple[Server, Server]]:
    """Two servers on one database, each in a directory of its own, on free ports."""
    async with Server(config(database=url_of(dsn), directory=tmp_path / "a", **changes)) as a, \
            Server(config(database=url_of(dsn), directory=tmp_path / "b", **changes)) as b:
        for srv in (a, b):
            assert srv.shared is not None
            notices = srv.shared.notices
            assert isinstance(notices, PgNotices)
            await settle(srv, notices.listening.is_set)
        yield a, b


async def refused(port: int, name: str) -> str:
    """``name`` connects with their key and is not let in: what they were told (screen or refusal)."""
    try:
        t = await Term.connect(port, name)
    except (asyncssh.Error, OSError) as exc:
        return str(exc)
    try:
        await t.wait_closed()
        return " ".join(t.received().split())
    finally:
        await t.close()


# ---------------------------------------------------------------------- the database URL
@pytest.mark.parametrize("url", ["postgresql://ann:sekrit@[::1/canasta", "postgresql://ann:sek rit@db/canasta",
                                 "mysql://ann:sekrit@db/canasta", "postgresql://ann:sekrit@db:port/canasta"])
def test_a_database_url_that_is_not_one_is_refused_without_its_password(url: str) -> None:
    with pytest.raises(ConfigError) as err:
        ServerConfig(open=True, database=url).checked()
    assert str(err.value).startswith("--database is ") and "sekrit" not in str(err.value), str(err.value)
    with pytest.raises(ConfigError) as err:
        merged(values_of({"database": url, "open": True}, "serve.toml", "[serve] ", Path("."), {}), {})
    assert "sekrit" not in str(err.value), str(err.value)


def canasta(*args: str, home: Path, timeout: float = WAIT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CANASTA_HOME": str(home)}
    return subprocess.run([sys.executable, "-c", "from canasta_tui.entry import main; main()", *args],
                          capture_output=True, text=True, timeout=timeout, env=env, check=False)


def test_serve_with_a_database_it_cannot_reach_stops_with_a_message_and_an_exit_code(tmp_path: Path) -> None:
    """Nothing listens on the port: one line saying where and why, exit code 1, no traceback, and
    the password is never printed (a URL that cannot be read: exit code 2, the same)."""
    url = f"postgresql://ann:sekrit%2Fword@127.0.0.1:{free_port()}/canasta"
    done = canasta("serve", "--open", "--port", "0", "--database", url, home=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "database cannot be reached" in done.stderr and "127.0.0.1:" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "sekrit" not in done.stderr + done.stdout and "Traceback" not in done.stderr
    done = canasta("serve", "--open", "--port", "0", "--database", "postgresql://ann:sekrit@[::1/c", home=tmp_path)
    assert done.returncode == 2 and "is not a PostgreSQL URL psycopg can read" in done.stderr, done.stderr
    assert "sekrit" not in done.stderr + done.stdout and "Traceback" not in done.stderr


# ---------------------------------------------------------------------- the writer and the name book
def test_a_write_that_waits_for_another_process_lock_waits_in_the_queue_and_is_not_lost(pg_dsn: str) -> None:  # noqa: F811
    """Another process holds the row's lock longer than the writer waits (its lock timeout): the
    write is tried again, not dropped (the writer knew only SQLite's words for it), and is kept
    once the lock is let go."""
    ann = "key:SHA256:ann"
    people = QueuedPeople(PostgresPeopleStore(pg_dsn))
    try:
        people.set_options(PersonId.parse(ann), PersonOptions(deck="ascii"))
        assert people.flush(WAIT)
        with psycopg.connect(pg_dsn) as holder:
            holder.execute("SELECT * FROM options WHERE key = %s FOR UPDATE", (ann,))
            people.set_options(PersonId.parse(ann), PersonOptions(deck="unicode"))
            deadline = time.monotonic() + WAIT
            while not people.writer.trouble:
                assert time.monotonic() < deadline, "the writer never met the lock"
                time.sleep(0.02)
            assert "lock timeout" in people.writer.trouble and people.writer.pending() == 1
            holder.rollback()
        assert people.flush(WAIT) and not people.writer.trouble
    finally:
        people.close()
    other = PostgresPeopleStore(pg_dsn)
    try:
        assert other.options_of(PersonId.parse(ann)) == PersonOptions(deck="unicode")
    finally:
        other.close()


def test_a_name_another_process_reserved_first_is_refused_by_the_name_book_not_replaced(pg_dsn: str) -> None:  # noqa: F811
    """Two books on one database, as two servers: ann's key reserves alice at one; at the other
    (which has not read it yet) bob's key takes alice in memory, and writing it there is refused
    with the door's words: the book drops it, the database still says ann's key.  A reservation
    queued later for a name another key holds is dropped from the book too (the writer's path)."""
    async def main() -> None:
        one, two = QueuedPeople(PostgresPeopleStore(pg_dsn)), QueuedPeople(PostgresPeopleStore(pg_dsn))
        try:
            first = NameBook(None, store=one, reserve=one.reserve)
            second = NameBook(None, store=two, reserve=two.reserve)
            first.take("alice", "SHA256:ann")
            assert await first.confirm("alice", "SHA256:ann") is None
            second.take("Alice", "SHA256:bob")                 # (it does not know yet)
            why = await second.confirm("Alice", "SHA256:bob")
            assert why == ("the name Alice looks like alice, which is reserved by another person's key on this "
                           "server. Connect with another name: ssh -l NAME ...")
            assert second.owner("alice") is None
            assert [(r.name, r.fingerprint) for r in one.names()] == [("alice", "SHA256:ann")]
            # Read again (a notice): the book holds what the database holds.
            second.read_again(two.names())
            owner = second.owner("ALICE")
            assert owner is not None and owner.fingerprint == "SHA256:ann"
            # The writer's path: a queued write of a name another key holds is refused, and told.
            told: list[tuple[NameRow, str]] = []
            two.writer.on_name_held = lambda row, why: told.append((row, why))
            two.put_names([NameRow(skeleton("alice"), "alice", "SHA256:bob", 1.0, 1.0)])
            assert two.flush(WAIT)
            assert [(r.fingerprint, w.startswith("the name alice is reserved by another person's key")) for r, w in told] \
                == [("SHA256:bob", True)]
            assert [(r.name, r.fingerprint) for r in one.names()] == [("alice", "SHA256:ann")]
        finally:
            one.close()
            two.close()
    run(main())


def test_two_processes_never_give_one_invitation_number(pg_dsn: str) -> None:  # noqa: F811
    """Each process numbers its invitations in a block it claimed in the database."""
    one, two = QueuedPeople(PostgresPeopleStore(pg_dsn)), QueuedPeople(PostgresPeopleStore(pg_dsn))
    try:
        got = [p.invite(PersonId.parse("key:SHA256:ann"), "ann", PersonId.parse(f"key:SHA256:{n}-{i}"), 1, 1.0).id
               for n in range(5) for i, p in enumerate((one, two))]
        assert len(set(got)) == len(got), got
        assert one.flush(WAIT) and two.flush(WAIT)
        assert sorted(i.id for i in one.store.invitations()) == sorted(got)
    finally:
        one.close()
        two.close()


def test_a_notice_that_is_not_one_is_refused(pg_dsn: str) -> None:  # noqa: F811
    """Another process's word is bounded: only the three kinds, short, are heard."""
    assert notice_kind("lobby.changed 123") == LOBBY_CHANGED
    assert notice_kind("tables.dropped") is None and notice_kind("lobby.changed " + "x" * 200) is None
    assert notice_kind(None) is None

    async def main() -> None:
        heard: list[str] = []
        notices = PgNotices(pg_dsn, "test")
        notices.start(heard.append)
        try:
            await asyncio.wait_for(asyncio.get_running_loop().run_in_executor(None, notices.listening.wait, WAIT), WAIT)
            with psycopg.connect(pg_dsn, autocommit=True) as db:
                for payload in ("drop tables", "x" * 5000, "people.changedX", LOBBY_CHANGED + " other"):
                    db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
            deadline = asyncio.get_running_loop().time() + WAIT
            while not heard:
                assert asyncio.get_running_loop().time() < deadline
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.2)
            assert heard == [LOBBY_CHANGED]
        finally:
            notices.close()
    run(main())


# ---------------------------------------------------------------------- two servers
def test_a_ban_made_at_one_server_holds_at_the_other(pg_dsn: str, tmp_path: Path) -> None:  # noqa: F811
    """eve is in at server B; an admin bans her key at server A: B disconnects her, telling why,
    and keeps her out (her key, at B's door); the ban lifted at A lets her in at B again."""
    boss = fingerprint_of("boss")

    async def main() -> None:
        async with two_servers(pg_dsn, tmp_path, admins=frozenset({boss})) as (a, b):
            eve = await Term.connect(b.port, "eve")
            await eve.wait_for("No tables yet")
            loop = asyncio.get_running_loop()
            banned = loop.time()
            a.admin.ban(Identity("boss", boss), fingerprint_of("eve"), 3600, "spam")
            await eve.wait_closed()
            took = loop.time() - banned
            assert "Your key is banned from this server" in " ".join(eve.received().split())
            assert b.admin.bans.key(fingerprint_of("eve")) is not None
            said = await refused(b.port, "eve")
            assert "Your key is banned from this server until" in said, said
            print(f"the ban held at the other server after {took:.3f} s")
            a.admin.unban(Identity("boss", boss), fingerprint_of("eve"))
            await settle(b, lambda: b.admin.bans.key(fingerprint_of("eve")) is None)
            eve = await Term.connect(b.port, "eve")
            await eve.wait_for("No tables yet")
            await eve.close()
    run(main())


def test_one_name_typed_at_both_servers_at_once_goes_to_one_key(pg_dsn: str, tmp_path: Path) -> None:  # noqa: F811
    """ann's key at A and bob's key at B both connect as zoe at the same moment: one of them is in
    as zoe, the other is told the name is another person's key's; the database holds the one."""
    async def main() -> None:
        async with two_servers(pg_dsn, tmp_path) as (a, b):
            async def attempt(srv: Server, who: str) -> Term:
                return await Term.connect(srv.port, "zoe", client_keys=[key_of(who)])
            ann, bob = await asyncio.gather(attempt(a, "ann"), attempt(b, "bob"))

            async def outcome(t: Term) -> str:
                def settled(s: str) -> bool:
                    return "No tables yet" in s or t.closed.is_set()
                await t.wait_for(settled)
                return "in" if "No tables yet" in t.text() and not t.closed.is_set() else " ".join(t.received().split())
            got = await asyncio.gather(outcome(ann), outcome(bob))
            assert sorted(g == "in" for g in got) == [False, True], got
            said = next(g for g in got if g != "in")
            assert "Not let in: the name zoe is reserved by another person's key on this server." in said, said
            winner = "ann" if got[0] == "in" else "bob"
            rows = a.registry.people.names()
            assert [(r.name, r.fingerprint) for r in rows] == [("zoe", fingerprint_of(winner))]
            # The one let in keeps it at both; the other is refused it at both.
            loser = "bob" if winner == "ann" else "ann"
            for srv in (a, b):
                t = await Term.connect(srv.port, "zoe", client_keys=[key_of(loser)])
                try:
                    await t.wait_closed()
                    assert "is reserved by another person's key" in " ".join(t.received().split())
                finally:
                    await t.close()
            for t in (ann, bob):
                await t.close()
    run(main())


def test_a_lobby_chat_line_said_at_one_server_is_seen_at_the_other(pg_dsn: str, tmp_path: Path) -> None:  # noqa: F811
    async def main() -> None:
        async with two_servers(pg_dsn, tmp_path) as (a, b):
            alice = await Term.connect(a.port, "alice")
            bob = await Term.connect(b.port, "bob")
            await alice.wait_for("No tables yet")
            await bob.wait_for("No tables yet")
            await alice.press("c", "Say: _")
            alice.send("anyone for canasta?")
            loop = asyncio.get_running_loop()
            said = loop.time()
            alice.send(ENTER)
            await bob.wait_for("alice✓: anyone for canasta?")
            print(f"the line was shown at the other server after {loop.time() - said:.3f} s")
            await bob.press("c", "Say: _")
            bob.send("me!")
            await bob.press(ENTER, "bob✓: me!")
            await alice.wait_for("bob✓: me!")
            # One chat, in the order said, at both (and in the database).
            assert [c.text for c in a.registry.people.store.last_chat()] == ["anyone for canasta?", "me!"]  # type: ignore[attr-defined]
            for srv in (a, b):
                assert [line.text for line in srv.registry.chat] == ["anyone for canasta?", "me!"]
            for t in (alice, bob):
                await t.close()
    run(main())


def test_a_rated_match_recorded_at_one_server_is_rated_as_openskill_computes_it_at_both(
        pg_dsn: str, tmp_path: Path) -> None:  # noqa: F811
    """alice forfeits a rated match at A while bob forfeits one at B, at the same time: each loss is
    rated exactly as openskill computes it, and each server reads both ratings alike."""
    async def main() -> None:
        async with two_servers(pg_dsn, tmp_path, takeover=0, forfeit_after=GRACE) as (a, b):
            async def forfeit(srv: Server, name: str) -> None:
                t = await Term.connect(srv.port, name)
                await t.wait_for("No tables yet")
                st = await rated_table(t, srv, 1)
                await t.press("s", "hand 1")
                await t.wait_for("Your hand")
                await t.press("q", "Leave the table?")
                await t.press("y", "You left the rated match at table 1")
                await settle(srv, lambda: st.forfeited == key(name), timeout=WAIT)
                await recorded(srv)
                await t.close()
            await asyncio.gather(forfeit(a, "alice"), forfeit(b, "bob"))
            model = PlackettLuce()
            r = model.rating
            want = model.rate([[r(), r()], [r(), r()]], ranks=[1.0, 0.0])[0][0]
            for srv in (a, b):
                for name in ("alice", "bob"):
                    got = srv.registry.people.rating(key(name))
                    assert (got.mu, got.sigma, got.matches) == (want.mu, want.sigma, 1), (name, got)
                board = {s.name: (s.matches, s.wins) for s in srv.registry.people.leaderboard(10)}
                assert board == {"alice": (1, 0), "bob": (1, 0)}
    run(main(), timeout=180)


# ---------------------------------------------------------------------- two canasta serve processes
@contextlib.contextmanager
def canasta_serve(home: Path, dsn: str) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """``canasta serve --open --port 0 --database DSN`` as a process of its own; its port (read from
    what it prints); stopped by its PID (SIGTERM, then SIGKILL) however the block ends."""
    env = {**os.environ, "CANASTA_HOME": str(home)}
    proc = subprocess.Popen([sys.executable, "-c", "from canasta_tui.entry import main; main()", "serve", "--open",
                             "--port", "0", "--delay", "0", "--database", url_of(dsn)], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    lines: list[str] = []
    port: list[int] = []
    ready = threading.Event()

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.append(line)
            m = re.search(r"ssh -p (\d+) ", line)
            if m:
                port.append(int(m.group(1)))
                ready.set()
        ready.set()
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert ready.wait(WAIT) and port, "".join(lines)
        yield proc, port[0]
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(WAIT)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(WAIT)
        reader.join(WAIT)


def test_two_canasta_serve_processes_share_names_and_the_lobby_chat(pg_dsn: str, tmp_path: Path) -> None:  # noqa: F811
    """Two real ``canasta serve --database`` processes: zoe's name reserved at one is refused to
    another key at the other, and a lobby line said at one is shown at the other."""
    with canasta_serve(tmp_path / "a", pg_dsn) as (_, port_a), canasta_serve(tmp_path / "b", pg_dsn) as (_, port_b):
        async def main() -> None:
            zoe = await Term.connect(port_a, "zoe")
            await zoe.wait_for("No tables yet")
            t = await Term.connect(port_b, "zoe", client_keys=[key_of("mallory")])
            await t.wait_closed()
            assert "Not let in: the name zoe is reserved by another person's key" in " ".join(t.received().split())
            await t.close()
            max_ = await Term.connect(port_b, "max")
            await max_.wait_for("No tables yet")
            await zoe.press("c", "Say: _")
            zoe.send("hello from a")
            await zoe.press(ENTER, "zoe✓: hello from a")
            await max_.wait_for("zoe✓: hello from a")
            for term in (zoe, max_):
                await term.close()
        run(main())


def test_a_ban_not_written_yet_is_not_undone_by_a_read_of_the_store(pg_dsn: str) -> None:  # noqa: F811
    """Another server's notice makes this one read the bans again while its own ban waits for its
    writer: the read (which cannot hold it yet) does not lift it; nor does it bring back a ban lifted
    here and not written yet."""
    store = PostgresPeopleStore(pg_dsn)
    bans = Bans(store)
    try:
        hold = threading.Event()
        bans.writer.submit(hold.wait, WAIT)             # (the writer is busy: what comes next waits)
        now = time.time()
        eve = Ban("key:SHA256:" + "e" * 43, now + 3600, "spam", "key:SHA256:" + "b" * 43, now)
        bans.add(eve)
        assert bans.read_again([]) == [] and bans.of(eve.target) == eve
        hold.set()
        bans.flush(WAIT)
        assert bans.read_again(store.bans(time.time())) == [] and bans.of(eve.target) == eve
        hold.clear()
        bans.writer.submit(hold.wait, WAIT)
        bans.remove(eve.target)
        assert bans.read_again([eve]) == [] and bans.of(eve.target) is None
        hold.set()
        bans.flush(WAIT)
        assert store.bans(time.time()) == [] and bans.read_again([]) == [] and bans.of(eve.target) is None
    finally:
        hold.set()
        bans.close()
        store.close()


def test_notices_are_heard_again_after_the_listening_connection_is_lost(pg_dsn: str) -> None:  # noqa: F811
    """The database ends the listening connection (a restart, a network drop): it is opened again,
    every kind is heard once then (what was sent meanwhile is lost: all is read again), and later
    notices are heard."""
    async def main() -> None:
        heard: list[str] = []
        notices = PgNotices(pg_dsn, "test")
        notices.start(heard.append)
        loop = asyncio.get_running_loop()
        try:
            await asyncio.wait_for(loop.run_in_executor(None, notices.listening.wait, WAIT), WAIT)
            with psycopg.connect(pg_dsn, autocommit=True) as db:
                ended = db.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                                   " WHERE application_name = 'canasta serve notices'").fetchall()
                assert ended == [(True,)]
            deadline = loop.time() + WAIT
            while sorted(heard) != sorted(KINDS):
                assert loop.time() < deadline, heard
                await asyncio.sleep(0.02)
            heard.clear()
            notices.publish(LOBBY_CHANGED)
            while heard != [LOBBY_CHANGED]:
                assert loop.time() < deadline and len(heard) <= 1, heard
                await asyncio.sleep(0.02)
        finally:
            notices.close()
    run(main())
