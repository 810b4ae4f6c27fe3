"""Who is online across a cluster (issue 32, section 4; ``server/cluster/presence.py``), and the
people shared between fronts over the bus: a real nats-server with JetStream and a real PostgreSQL
(``tests/engines.py``), people over real SSH (asyncssh, each with their own key).

* an entry that is not a person online (too large, not strict JSON, a key, name, table or front
  that is not one, filed under another front) is refused and counted, and never shown;
* a front killed with ``kill -9`` (a process of its own, ``presence_proc.py``) has its people drop
  out of the others' lists once their entries expire, and out of the bucket;
* two fronts and an owner: each front's online list shows the other's people; a lobby chat line
  said at one front is shown at the other; a ban made at one front disconnects at the other and
  keeps out there.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncssh
import nats.js.errors
import pytest
from psycopg.conninfo import conninfo_to_dict
from server.helpers import ENTER, ESC, Term, fingerprint_of

from canasta_tui.server import ServerConfig
from canasta_tui.server.cluster.bus import BadMessage, Bus, encode
from canasta_tui.server.cluster.node import FrontNode, OwnerNode
from canasta_tui.server.cluster.presence import ENTRY_MAX, Here, Presence, entry_key, read_entry
from canasta_tui.server.door.auth import Identity

from .helpers import WAIT, run, until

ANN = "key:SHA256:" + "a" * 43


def good(**changes: object) -> tuple[str, bytes]:
    """ann's entry at front-2, filed as front-2 files it, with ``changes`` made to what it says."""
    data = {**Here(ANN, "ann", True, 7, False, "front-2").data(), **changes}
    return entry_key("front-2", ANN), encode(data)


@pytest.mark.parametrize(("changes", "says"), [
    ({"name": "x" * 200}, "not a name"),
    ({"name": "ann\x1b[2J"}, "not a name"),
    ({"table": True}, "not a table"),
    ({"table": -1}, "not a table"),
    ({"table": 10**12}, "not a table"),
    ({"verified": False}, "a key vouches for a person with a key only"),
    ({"watching": "yes"}, "verified and watching are true or false"),
    ({"key": "root"}, "not a person's key"),
    ({"rating": 9999}, "not the fields of a person online"),
    ({"front": "front 2"}, "not a front's name"),
    ({"front": "front-3"}, "filed under another front or person"),
])
def test_an_entry_that_is_not_a_person_online_is_refused(changes: dict[str, object], says: str) -> None:
    key, raw = good(**changes)
    with pytest.raises(BadMessage) as err:
        read_entry(key, raw)
    assert says in err.value.reason


def test_an_entry_too_large_or_not_strict_json_is_refused() -> None:
    key, raw = good()
    assert read_entry(key, raw) == Here(ANN, "ann", True, 7, False, "front-2")
    for bad in (raw + b" " * ENTRY_MAX, b"[1]", b'{"key": 1, "key": 2}', b"\xff", b'{"table": NaN}'):
        with pytest.raises(BadMessage):
            read_entry(key, bad)


@contextlib.contextmanager
def a_front_process(nats_url: str, room: str, front: str, *names: str, expire: float, refresh: float
                    ) -> Iterator[subprocess.Popen[str]]:
    """``presence_proc.py`` writing ``names`` online at ``front``; killed by its PID however the block ends."""
    script = Path(__file__).with_name("presence_proc.py")
    proc = subprocess.Popen([sys.executable, str(script), nats_url, room, front, str(expire), str(refresh), *names],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(WAIT)


def test_a_front_killed_with_kill_9_has_its_people_drop_out_when_their_entries_expire(
        nats_url: str, nats_room: str) -> None:
    """A front's process writes zed and zoe online; killed with -9 it writes nothing more: the
    other front's list drops them once their entries are older than the expiry, and the bucket
    has forgotten them by then too.  A malformed entry put straight into the bucket is refused."""
    expire, refresh = 3.0, 1.0

    async def go() -> None:
        bus = await Bus.connect(nats_url, room=nats_room, name="front-1")
        presence = await Presence.open(bus, "front-1", expire=expire, refresh=refresh)
        presence.start(list)
        try:
            await until(presence.ready.is_set, "the watcher's first read")
            with a_front_process(nats_url, nats_room, "front-9", "zed", "zoe", expire=expire, refresh=refresh) as proc:
                assert proc.stdout is not None
                line = await asyncio.wait_for(asyncio.get_running_loop().run_in_executor(None, proc.stdout.readline),
                                              WAIT)
                assert line.strip() == "ready", proc.stderr.read() if proc.stderr else ""
                await until(lambda: {h.name for h in presence.others()} == {"zed", "zoe"}, "zed and zoe online")
                # A front that writes what is not a person: refused, counted, never shown.
                await presence.kv.put("front-8.x", b'{"key": "key:SHA256:evil"}')
                await until(lambda: presence.refused >= 1, "the refusal")
                # Still there after more than the expiry: the live front writes them again.
                loop = asyncio.get_running_loop()
                start = loop.time()
                while loop.time() - start < expire * 1.5:
                    assert {h.name for h in presence.others()} == {"zed", "zoe"}
                    await asyncio.sleep(0.1)
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait(WAIT)
                killed = loop.time()
                await until(lambda: presence.others() == [], "zed and zoe dropping out")
                took = loop.time() - killed
                print(f"a killed front's people dropped out after {took:.2f} s (expiry {expire:g} s)")
                assert took >= expire - refresh      # (not before their entries could have expired)
                for name in ("zed", "zoe"):
                    key = entry_key("front-9", f"key:SHA256:{name:A<43}")
                    await until_gone(presence, key)
        finally:
            await presence.close()
            await bus.close()
    run(go())


async def until_gone(presence: Presence, key: str) -> None:
    """Wait (bounded) until the bucket no longer holds ``key`` (its age ran out there too)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while True:
        try:
            await presence.kv.get(key)
        except nats.js.errors.KeyNotFoundError:
            return
        assert loop.time() < deadline, f"the bucket still holds {key}"
        await asyncio.sleep(0.1)


# ---------------------------------------------------------------------- two fronts and an owner
def url_of(dsn: str) -> str:
    d = conninfo_to_dict(dsn)
    return f"postgresql://{d['user']}@{d['host']}:{d['port']}/{d['dbname']}"


def node_config(tmp: Path, name: str, role: str, nats_url: str, room: str, dsn: str, **more: object) -> ServerConfig:
    return ServerConfig(host="127.0.0.1", port=0, open=True, delay_ms=0, seed=1, wrong_password_pause=0.01,
                        computer_processes=False, directory=tmp / name, role=role, database=url_of(dsn),
                        bus=nats_url, room=room, node=name, **more).checked()  # type: ignore[arg-type]


@contextlib.asynccontextmanager
async def two_fronts(tmp: Path, nats_url: str, room: str, dsn: str, **more: object
                     ) -> AsyncIterator[tuple[FrontNode, FrontNode]]:
    owner = OwnerNode(node_config(tmp, "owner-1", "owner", nats_url, room, dsn))
    fronts = [FrontNode(node_config(tmp, f"front-{i}", "front", nats_url, room, dsn, **more)) for i in (1, 2)]
    try:
        await owner.start()
        for f in fronts:
            await f.start()
        await until(lambda: all(f.presence is not None and f.presence.ready.is_set() for f in fronts), "presence")
        yield fronts[0], fronts[1]
    finally:
        for f in fronts:
            with contextlib.suppress(Exception):
                await f.stop()
        await owner.stop()


def test_each_front_shows_the_other_fronts_people_and_their_chat(tmp_path: Path, nats_url: str, nats_room: str,
                                                                 pg_dsn: str) -> None:
    async def go() -> None:
        async with two_fronts(tmp_path, nats_url, nats_room, pg_dsn) as (one, two):
            alice = await Term.connect(one.server.port, "alice")
            bob = await Term.connect(two.server.port, "bob")
            await alice.wait_for("2 online")
            await bob.wait_for("2 online")
            # Who is online, at each front: both, each in the lobby, the other's rating read from the database.
            for me, other in ((alice, "bob"), (bob, "alice")):
                text = await me.press("p", f"{other}✓")
                assert re.search(rf"  {other}✓ +lobby +0 ", text), text
                await me.press(ESC, "No tables yet")
            await alice.press("c", "Say: _")
            alice.send("hello from front 1")
            await alice.press(ENTER, "alice✓: hello from front 1")
            await bob.wait_for("alice✓: hello from front 1")
            # A guest at one front holds their name at the other too (a look-alike is refused there).
            gus = await Term.connect(one.server.port, "gus", guest=True)
            await gus.wait_for("No tables yet")
            await bob.wait_for("3 online")
            other = await Term.connect(two.server.port, "Gus", guest=True)
            await other.wait_closed()
            said = " ".join(other.received().split())
            assert "Not let in: somebody called ~gus is here, and the name Gus looks the same." in said, said
            for t in (gus, bob):
                await t.close()
            await alice.wait_for("1 online")
            await alice.close()
    run(go())


def test_a_ban_made_at_one_front_holds_at_the_other(tmp_path: Path, nats_url: str, nats_room: str,
                                                     pg_dsn: str) -> None:
    boss = fingerprint_of("boss")

    async def go() -> None:
        async with two_fronts(tmp_path, nats_url, nats_room, pg_dsn, admins=frozenset({boss})) as (one, two):
            eve = await Term.connect(two.server.port, "eve")
            await eve.wait_for("No tables yet")
            one.server.admin.ban(Identity("boss", boss), fingerprint_of("eve"), 3600, "spam")
            await eve.wait_closed()
            assert "Your key is banned from this server" in " ".join(eve.received().split())
            await until(lambda: two.server.admin.bans.key(fingerprint_of("eve")) is not None, "the ban at front 2")
            try:
                again = await Term.connect(two.server.port, "eve")
            except (asyncssh.Error, OSError) as exc:
                said = str(exc)
            else:
                await again.wait_closed()
                said = " ".join(again.received().split())
            assert "Your key is banned from this server until" in said, said
    run(go())
