"""The door behind a real HAProxy (issue 32, section 3: "When a front dies, its players reconnect
through HAProxy to another front and find their seats.  Every front uses the same host key, so ssh
never warns of a changed host key.  Bans and the login budget see the real address (PROXY
protocol)").

HAProxy (``haproxy -db``, TCP mode, ``send-proxy-v2``, health checks) is started by
``tests/engines.py`` on 127.0.0.1 and a free port in front of servers started with
``proxy_protocol``; the players are real SSH clients (asyncssh with their own keys, and OpenSSH for
the host key) from 127.0.0.2 and 127.0.0.1 (Linux's loopback answers all of 127.0.0.0/8), so that
the address HAProxy connects from (127.0.0.1) is never the one a player has.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from e2e.test_tmux import Tmux
from engines import HAProxy, haproxy_server

from canasta_tui.server.door.auth import Identity

from .helpers import WAIT, Term, fingerprint_of, key_file, run, serving, settle

HERE, THERE = "127.0.0.1", "127.0.0.2"
PROXIED: dict[str, Any] = {"proxy_protocol": True, "proxy_from": ("127.0.0.1",)}
PASSWORD = "open sesame"


async def through(hp: HAProxy, name: str, source: str, **options: Any) -> Term:
    """``name`` connects to HAProxy's one address from ``source``."""
    return await Term.connect(hp.port, name, local_addr=(source, 0), **options)


async def refused(hp: HAProxy, name: str, source: str, says: str, **options: Any) -> None:
    """``name`` from ``source`` is refused at the door, told ``says``."""
    with pytest.raises(asyncssh.Error) as told:
        t = await through(hp, name, source, **options)
        await t.wait_closed()
        raise AssertionError(f"{name} got in:\n{t.text()}")
    reason = getattr(told.value, "reason", str(told.value))
    assert says in reason, reason


def test_through_haproxy_the_server_sees_each_players_own_address_and_bans_it() -> None:
    root = Identity("root", fingerprint_of("root"))

    async def main() -> None:
        async with serving(**PROXIED, admins=frozenset({root.fingerprint})) as srv:
            with haproxy_server([srv.port]) as hp:
                alice = await through(hp, "alice", THERE)
                await alice.wait_for("No tables yet")
                bob = await through(hp, "bob", HERE)
                await bob.wait_for("No tables yet")
                assert sorted(c.address for c in srv.connections) == [HERE, THERE]
                # HAProxy's health checks (a LOCAL header each) are closed quietly, never refused.
                await settle(srv, lambda: getattr(srv._listener, "checks", 0) >= 2)
                assert getattr(srv._listener, "refused", 0) == 0
                visit = srv.admin.bans.visitor(fingerprint_of("alice"))      # the recent visitors' page
                assert visit is not None and visit.addresses == (THERE,)
                # alice's address is banned: she is put out, and kept out through HAProxy, while
                # 127.0.0.1 (HAProxy's own address, and bob's) still comes in.
                srv.admin.ban(root, THERE, 600)
                await alice.wait_closed()
                assert "Your address is banned from this server" in alice.received()
                await refused(hp, "carol", THERE, "Your address is banned from this server")
                dave = await through(hp, "dave", HERE)
                await dave.wait_for("No tables yet")
                assert not bob.closed.is_set()
                for t in (bob, dave):
                    await t.close()
    run(main())


def test_through_haproxy_the_login_budget_and_wrong_passwords_count_each_real_address() -> None:
    async def main() -> None:
        async with serving(**PROXIED, open=False, password=PASSWORD, login_attempts=3,
                           max_logins_per_address=3) as srv:
            with haproxy_server([srv.port]) as hp:
                # Three connections from 127.0.0.2 that say nothing fill its budget of logins under way ...
                held = [await asyncio.open_connection("127.0.0.1", hp.port, local_addr=(THERE, 0)) for _ in range(3)]
                await settle(srv, lambda: srv.logging_in == 3)
                assert {c.address for c in srv.connections} == {THERE}
                with pytest.raises(asyncssh.DisconnectError, match=r"Too many logins at once from your address"):
                    await through(hp, "mallory", THERE, password=PASSWORD)
                # ... and only its budget: 127.0.0.1 (HAProxy's own address) comes in.
                alice = await through(hp, "alice", HERE, password=PASSWORD)
                await alice.wait_for("No tables yet")
                for _, w in held:
                    w.close()
                await settle(srv, lambda: srv.logging_in == 0)
                # Wrong passwords from 127.0.0.2 lock 127.0.0.2 out, not everybody behind HAProxy.
                for i in range(3):
                    with pytest.raises(asyncssh.PermissionDenied):
                        await through(hp, "mallory", THERE, guest=True, password=f"wrong {i}")
                locked = "Too many wrong passwords with your address"
                with pytest.raises(asyncssh.PermissionDenied, match=locked):
                    await through(hp, "mallory", THERE, guest=True, password=PASSWORD)
                bob = await through(hp, "bob", HERE, guest=True, password=PASSWORD)
                await bob.wait_for("No tables yet")
                for t in (alice, bob):
                    await t.close()
    run(main())


def test_a_header_forged_by_a_client_that_reaches_a_front_without_haproxy_is_refused() -> None:
    """A front's port reachable by a player (a firewall forgotten): a PROXY header naming another
    address is not believed from anybody but HAProxy, and a plain SSH client is refused too."""
    async def main() -> None:
        async with serving(**PROXIED) as srv:
            with haproxy_server([srv.port]) as hp:
                from .test_proxy_door import raw, v2
                assert await raw(srv.port, v2("203.0.113.7") + b"SSH-2.0-x\r\n", source=THERE) == b""
                with pytest.raises((asyncssh.Error, OSError)):
                    await Term.connect(srv.port, "eve")          # (from 127.0.0.1, but without a header)
                alice = await through(hp, "alice", THERE)           # through HAProxy: in
                await alice.wait_for("No tables yet")
                assert [c.address for c in srv.connections] == [THERE]
                assert getattr(srv._listener, "refused", 0) == 2
                await alice.close()
    run(main())


# ------------------------------------------------------------------------------ one host key, two fronts
def one_key(path: Path) -> str:
    """The public host key in ``path``, as a known_hosts line's key part."""
    return asyncssh.read_private_key(str(path)).export_public_key().decode().strip()


def test_two_fronts_with_one_host_key_file_show_one_key_behind_haproxy(tmp_path: Path) -> None:
    """Both fronts name one host key file: a client that knows the key from one front (strict
    known_hosts) reaches either through HAProxy's one address, and a front with another key is caught
    by the same check.  OpenSSH itself learns the key at the first connection and, told to be strict,
    reaches the other front without a word about the host key."""
    shared = tmp_path / "ssh_host_ed25519_key"
    seen: dict[str, list[str]] = {"one": [], "two": []}

    def recorder(name: str) -> Any:
        return lambda session, text: seen[name].append(text)

    async def main() -> None:
        async with serving(on_output=recorder("one"), directory=tmp_path / "one", host_key=shared, **PROXIED) as one, \
                serving(on_output=recorder("two"), directory=tmp_path / "two", host_key=shared, **PROXIED) as two, \
                serving(directory=tmp_path / "three") as other:      # (straight, no proxy)
            assert one.fingerprint == two.fingerprint != other.fingerprint
            assert one.host_key_made != two.host_key_made             # one made it, the other read it
            with haproxy_server([one.port, two.port]) as hp:
                known = tmp_path / "known_hosts"
                known.write_text(f"[127.0.0.1]:{hp.port} {one_key(shared)}\n")
                terms = [await through(hp, f"guest{i}x", THERE, known_hosts=str(known)) for i in range(4)]
                for t in terms:
                    await t.wait_for("No tables yet")
                assert len(one.connections) == len(two.connections) == 2      # (round robin: both fronts)
                for t in terms:
                    await t.close()
                # The check is real: a front with a key of its own fails it.
                known.write_text(f"[127.0.0.1]:{other.port} {one_key(shared)}\n")
                with pytest.raises(asyncssh.HostKeyNotVerifiable):
                    await Term.connect(other.port, "zed", known_hosts=str(known))
                # OpenSSH: learn the key once, then be strict, three times (both fronts, round robin).
                known.write_text("")
                outs = [await openssh(hp.port, tmp_path, known, "accept-new")]
                outs += [await openssh(hp.port, tmp_path, known, "yes") for _ in range(3)]
                for code, text in outs:
                    assert "canasta needs a terminal" in text and code == 1, text     # past the host key, logged in
                    assert "IDENTIFICATION HAS CHANGED" not in text and "Host key verification failed" not in text
                assert "Permanently added" in outs[0][1]
                assert all("Warning" not in text for _, text in outs[1:]), outs
                assert known.read_text().count("ssh-ed25519") == 1
        for name in ("one", "two"):
            assert any("canasta needs a terminal" in text for text in seen[name]), name
    run(main(), timeout=240)


async def openssh(port: int, tmp: Path, known: Path, strict: str) -> tuple[int, str]:
    """OpenSSH's ``ssh`` to 127.0.0.1:``port`` (no terminal, alice's key, ``known`` as its known_hosts):
    its exit status and what it printed."""
    proc = await asyncio.create_subprocess_exec(
        "ssh", "-F", "/dev/null", "-p", str(port), "-T", "-i", str(key_file(tmp, "alice")),
        "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none", "-o", "BatchMode=yes",
        "-o", f"UserKnownHostsFile={known}", "-o", "GlobalKnownHostsFile=/dev/null",
        "-o", f"StrictHostKeyChecking={strict}", "-o", "LogLevel=INFO", "-o", "ConnectTimeout=30",
        "-b", THERE, "alice@127.0.0.1",
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), WAIT)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    return int(proc.returncode or 0), out.decode(errors="replace")


# ------------------------------------------------------------------------------ kill -9 of a front
@contextlib.contextmanager
def front(tmp: Path, name: str, host_key: Path) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """``canasta serve`` as a process of its own (a front: its own home, the shared host key, behind a
    proxy, its name as the message of the day): (its process, its port); killed by its PID at the end."""
    home = tmp / name
    home.mkdir()
    settings = home / "serve.toml"
    settings.write_text(f'open = true\nmotd = "This is front {name}"\n')
    log = home / "serve.log"
    env = {**os.environ, "CANASTA_HOME": str(home), "XDG_DATA_HOME": str(home / "data"),
           "XDG_CONFIG_HOME": str(home / "config"), "XDG_STATE_HOME": str(home / "state")}
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", "from canasta_tui.cli import main; main()", "serve", "--config", str(settings),
             "--port", "0", "--delay", "0", "--host-key", str(host_key), "--proxy-protocol", "--proxy-from",
             "127.0.0.1"], stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=env,
            start_new_session=True)
    try:
        deadline = time.monotonic() + WAIT
        port = 0
        while not port:
            found = re.search(r"ssh -p (\d+) ", log.read_text(errors="replace"))
            if found:
                port = int(found.group(1))
            elif proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"front {name} did not start:\n{log.read_text(errors='replace')}")
            else:
                time.sleep(0.05)
        yield proc, port
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(WAIT)


def test_kill_9_of_a_front_its_player_reconnects_through_haproxy_to_the_other(tmp_path: Path) -> None:
    """The door's part of "a front dies, its players reconnect": ``kill -9`` of the front a player is
    on; their connection ends, and connecting again at once (the same address, the same host key)
    reaches the other front, as does every new connection; HAProxy's health check marks the dead
    front down."""
    shared = tmp_path / "ssh_host_ed25519_key"
    with front(tmp_path, "one", shared) as (p1, port1), front(tmp_path, "two", shared) as (p2, port2), \
            haproxy_server([port1, port2]) as hp:
        known = tmp_path / "known_hosts"
        known.write_text(f"[127.0.0.1]:{hp.port} {one_key(shared)}\n")
        procs = {"one": p1, "two": p2}

        async def main() -> None:
            alice = await through(hp, "alice", THERE, known_hosts=str(known))
            screen = await alice.wait_for("This is front")
            where = "one" if "This is front one" in screen else "two"
            other = "two" if where == "one" else "one"
            procs[where].send_signal(signal.SIGKILL)
            await alice.wait_closed()
            alice = await through(hp, "alice", THERE, known_hosts=str(known))     # at once: HAProxy redispatches
            await alice.wait_for(f"This is front {other}")
            loop = asyncio.get_running_loop()
            deadline = loop.time() + WAIT
            dead = port1 if where == "one" else port2
            while hp.servers().get(dead, True):
                assert loop.time() < deadline, hp.log_tail()
                await asyncio.sleep(0.05)
            for i in range(3):
                t = await through(hp, f"guest{i}x", HERE, known_hosts=str(known))
                await t.wait_for(f"This is front {other}")
                await t.close()
            await alice.close()

        run(main(), timeout=180)


@pytest.mark.skipif(shutil.which("tmux") is None or shutil.which("ssh") is None, reason="needs tmux and OpenSSH")
def test_openssh_in_tmux_comes_back_through_haproxy_after_its_front_dies_without_a_host_key_warning(
        tmp_path: Path) -> None:
    """A player as in life: OpenSSH in a terminal (tmux, 80x24), through HAProxy's one address; it
    learns the host key at its first connection.  Its front is killed (``kill -9``): ``ssh`` ends.
    The same command again, now strict about the host key, reaches the other front: no warning, the
    lobby."""
    shared = tmp_path / "ssh_host_ed25519_key"
    known = tmp_path / "known_hosts"
    t = Tmux(f"canasta-door-{uuid.uuid4().hex[:8]}")

    def ssh(port: int, strict: str) -> None:
        command = (f"ssh -F /dev/null -p {port} -b {THERE} -i {key_file(tmp_path, 'ann')} -o IdentitiesOnly=yes "
                   f"-o IdentityAgent=none -o UserKnownHostsFile={known} -o GlobalKnownHostsFile=/dev/null "
                   f"-o StrictHostKeyChecking={strict} -o PreferredAuthentications=publickey ann@127.0.0.1")
        t.run("new-session", "-d", "-s", "t", "-x", "80", "-y", "24",
              f"env -i PATH=/usr/bin:/bin HOME={tmp_path} LANG=C.UTF-8 TERM=xterm-256color {command}; "
              "echo ssh ended $?; sleep 600")

    try:
        with front(tmp_path, "one", shared) as (p1, port1), front(tmp_path, "two", shared) as (p2, port2), \
                haproxy_server([port1, port2]) as hp:
            ssh(hp.port, "accept-new")
            screen = t.wait(lambda s: "This is front" in s, timeout=WAIT)
            where, other = ("one", "two") if "This is front one" in screen else ("two", "one")
            (p1 if where == "one" else p2).send_signal(signal.SIGKILL)
            t.wait(lambda s: "ssh ended 255" in s, timeout=WAIT)          # (OpenSSH's status for a lost connection)
            t.run("kill-session", "-t", "t")
            ssh(hp.port, "yes")
            screen = t.wait(lambda s: f"This is front {other}" in s, timeout=WAIT)
            assert "ann ✓" in screen and "WARNING" not in screen and "IDENTIFICATION" not in screen
            assert known.read_text().count("ssh-ed25519") == 1
    finally:
        subprocess.run(["tmux", "-L", t.socket, "kill-server"], capture_output=True, timeout=10)
