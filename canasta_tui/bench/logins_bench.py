"""``canasta bench logins``: does a server give back the memory of the connections that closed?

A real ``canasta serve`` (its own process, a temporary home, 127.0.0.1, ``--open``) takes
thousands of short logins: each connects over SSH with an 80x24 pseudo-terminal, waits for the
lobby, and closes.  The server's resident memory (``VmRSS`` in ``/proc``) is read when it
listens, after a few warm-up logins (the lobby's code and the first tables of prompt-toolkit's
caches are loaded then, once), after all the logins, and again after a pause in which nobody
connects.  A server that keeps what closed connections left behind grows with every login and
stays grown.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

import asyncssh

from .serve_bench import BenchError, ServerProcess

#: Logins before the measured ones: what the first login loads is not what each login leaves.
WARM_UP = 20
#: Any one login may take this long.
LOGIN_TIMEOUT = 30.0


def rss_mb(pid: int) -> float | None:
    """The resident memory of process ``pid`` in MB (None without /proc)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


#: How many different people (keys) make the logins.
PEOPLE = 100


async def login(port: int, name: str, key: asyncssh.SSHKey | None = None) -> None:
    """One player: connect (with their key, or as a guest), see the lobby, close."""
    conn = await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None,
                                  client_keys=[key] if key is not None else None, password=None if key else "guest",
                                  agent_path=None, connect_timeout=LOGIN_TIMEOUT)
    try:
        proc = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        seen = b""
        while b"Lobby" not in seen:
            data = await proc.stdout.read(65536)
            if not data:
                raise BenchError(f"{name}'s connection closed before the lobby showed")
            seen = seen[-16:] + data
    finally:
        conn.close()
        with contextlib.suppress(Exception):
            await conn.wait_closed()


async def _run(logins: int, at_once: int, settle_s: float, progress: Callable[[str], None]) -> dict[str, Any]:
    server = ServerProcess(at_once, 0, 1)
    try:
        await server.start()
        pid = server.pid
        listening = rss_mb(pid)
        keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(PEOPLE)]
        for i in range(WARM_UP):
            await asyncio.wait_for(login(server.port, f"login{i % PEOPLE}", keys[i % PEOPLE]), LOGIN_TIMEOUT)
        await asyncio.sleep(1.0)
        start = rss_mb(pid)
        progress(f"{logins} logins, {at_once} at once, to canasta serve (pid {pid}, {start or 0:.1f} MB)")
        done = 0

        async def player(k: int) -> None:
            nonlocal done
            for i in range(k, logins, at_once):
                # PEOPLE people, each with their own key, come and go (a name is reserved once).
                await asyncio.wait_for(login(server.port, f"login{i % PEOPLE}", keys[i % PEOPLE]), LOGIN_TIMEOUT)
                done += 1
                if done % 500 == 0:
                    progress(f"  {done} logins, {rss_mb(pid) or 0:.1f} MB")

        t0 = time.perf_counter()
        try:
            await asyncio.gather(*(player(k) for k in range(at_once)))
        except (OSError, asyncssh.Error, TimeoutError) as exc:
            raise BenchError(f"a login failed after {done} logins: {exc}\n" + "\n".join(server.log[-20:])) from None
        seconds = time.perf_counter() - t0
        after = rss_mb(pid)
        progress(f"{logins} logins in {seconds:.1f} s; {after or 0:.1f} MB; nobody connects for {settle_s:g} s")
        waited = 0.0
        while waited < settle_s:
            step = min(10.0, settle_s - waited)
            await asyncio.sleep(step)
            waited += step
            progress(f"  +{waited:g} s: {rss_mb(pid) or 0:.1f} MB")
        settled = rss_mb(pid)
    finally:
        status = await server.stop()
    return {"logins": logins, "at_once": at_once, "seconds": seconds, "logins_per_s": logins / seconds,
            "settle_s": settle_s, "rss_listening_mb": listening, "rss_start_mb": start, "rss_after_mb": after,
            "rss_settled_mb": settled, "server_exit": status, "warm_up": WARM_UP}


def run(logins: int = 3000, at_once: int = 4, settle_s: float = 60.0,
        progress: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    return asyncio.run(_run(logins, at_once, settle_s, progress))


def _mb(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.1f} MB"


def report(r: dict[str, Any]) -> str:
    start, after, settled = r["rss_start_mb"], r["rss_after_mb"], r["rss_settled_mb"]
    lines = [
        f"canasta serve: {r['logins']} logins over SSH ({r['at_once']} at once), each to the lobby and out",
        f"  logins/s              {r['logins_per_s']:.1f}   ({r['seconds']:.1f} s)",
        f"  server memory (RSS)   listening {_mb(r['rss_listening_mb'])}; start (after {r['warm_up']} warm-up "
        f"logins) {_mb(start)}; after the logins {_mb(after)}; {r['settle_s']:g} s later {_mb(settled)}",
    ]
    if start is not None and after is not None and settled is not None:
        lines.append(f"  kept                  {(after - start) * 1024 / r['logins']:.1f} KB per login after the logins, "
                     f"{settled - start:+.1f} MB over the start {r['settle_s']:g} s later")
    if r["server_exit"] not in (0, None):
        lines.append(f"  problems              server exit status {r['server_exit']}")
    return "\n".join(lines)


__all__ = ["WARM_UP", "login", "report", "rss_mb", "run"]
