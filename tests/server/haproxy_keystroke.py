"""What HAProxy costs a keystroke: one ``canasta serve --proxy-protocol`` (a process of its own), a
real HAProxy in front of it (``tests/engines.py``), and two players at tables of their own, one
connected straight to the server (writing the PROXY header itself, as HAProxy would) and one through
HAProxy.  They press Right and Left in their hand by turns, and each key is timed from its write to
the first bytes of the screen update it causes; the players alternate key by key, so the machine's
noise falls on both alike.  A benchmark, not a test: it prints figures::

    .venv/bin/python tests/server/haproxy_keystroke.py [KEYS]      # KEYS per player, default 400
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))        # tests/, for engines
from engines import haproxy_server

from canasta_tui.bench.serve_bench import latency_figures
from canasta_tui.bench.vt import VtScreen
from canasta_tui.server.door.proxy import V2_SIGNATURE

RIGHT, LEFT, ENTER = "\x1b[C", "\x1b[D", "\r"
WAIT = 60.0
PAUSE = 0.15          # after each key (a player's keys 0.3 s apart, a brisk human pace: the app paints a
                      # burst of keys at most HOT_PAINTS_PER_S times a second, which is not what is measured)


class Player:
    def __init__(self, name: str) -> None:
        self.name = name
        self.screen = VtScreen(80, 24)
        self.chunk = asyncio.Event()
        self.proc: asyncssh.SSHClientProcess[str] | None = None
        self.conn: asyncssh.SSHClientConnection | None = None
        self.times: list[float] = []

    async def connect(self, port: int, header: bytes = b"") -> None:
        key = asyncssh.generate_private_key("ssh-ed25519")
        sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
        sock.sendall(header)
        sock.setblocking(False)
        self.conn = await asyncssh.connect(sock=sock, username=self.name, known_hosts=None, agent_path=None,
                                           client_keys=[key])
        self.proc = await self.conn.create_process(term_type="xterm", term_size=(80, 24))
        asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        assert self.proc is not None
        with contextlib.suppress(asyncssh.Error, OSError):
            while data := await self.proc.stdout.read(65536):
                self.screen.feed(data)
                self.chunk.set()

    def text(self) -> str:
        return "\n".join(self.screen.lines())

    async def wait_for(self, what: str) -> None:
        deadline = time.monotonic() + WAIT
        while what not in self.text():
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.name}: the screen never showed {what!r}:\n{self.text()}")
            self.chunk.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.chunk.wait(), 0.5)

    async def press(self, keys: str, then: str) -> None:
        assert self.proc is not None
        self.proc.stdin.write(keys)
        await self.wait_for(then)

    async def at_my_turn(self) -> None:
        """A table of one's own with three computers, started, at one's first draw."""
        await self.wait_for("CANASTA — tables on this server")
        await self.press("n", "New table")
        await self.press(ENTER, "is yours")
        await self.press("s", "hand 1")
        await self.wait_for("[D]raw")

    async def key(self, keys: str) -> None:
        assert self.proc is not None
        self.chunk.clear()
        start = time.perf_counter()
        self.proc.stdin.write(keys)
        await asyncio.wait_for(self.chunk.wait(), WAIT)
        self.times.append(time.perf_counter() - start)


def v2(source: str) -> bytes:
    body = ipaddress.ip_address(source).packed + bytes(4) + struct.pack("!HH", 40000, 2222)
    return V2_SIGNATURE + bytes([0x21, 0x11]) + struct.pack("!H", len(body)) + body


async def measure(keys: int, server_port: int, proxy_port: int) -> dict[str, dict[str, object]]:
    direct, through = Player("direct"), Player("through")
    await direct.connect(server_port, v2("127.0.0.1"))
    await through.connect(proxy_port)
    await direct.at_my_turn()
    await through.at_my_turn()
    for i in range(keys):
        for p in (direct, through) if i % 2 else (through, direct):
            await p.key(RIGHT if i % 2 else LEFT)
            await asyncio.sleep(PAUSE)
    return {p.name: latency_figures(p.times[10:]) for p in (direct, through)}      # (the first keys warm up)


def main() -> None:
    keys = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    home = tempfile.mkdtemp(prefix="canasta-haproxy-bench-")
    log = Path(home) / "serve.log"
    with open(log, "wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-c", "from canasta_tui.cli import main; main()", "serve", "--open", "--port", "0",
             "--delay", "0", "--seed", "7", "--proxy-protocol", "--proxy-from", "127.0.0.1"],
            stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            env={**os.environ, "CANASTA_HOME": home})
    try:
        deadline = time.monotonic() + WAIT
        while not (found := re.search(r"ssh -p (\d+) ", log.read_text(errors="replace"))):
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"canasta serve did not start:\n{log.read_text(errors='replace')}")
            time.sleep(0.05)
        port = int(found.group(1))
        with haproxy_server([port]) as hp:
            figures = asyncio.run(measure(keys, port, hp.port))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(20)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
    d, t = figures["direct"], figures["through"]
    print(f"keystroke to screen, {d['n']} keys each (ms):  p50   p95   p99   max")
    for name, f in (("straight to the server", d), ("through HAProxy", t)):
        print(f"  {name:<24} {f['p50']:6.2f} {f['p95']:5.2f} {f['p99']:5.2f} {f['max']:6.2f}")
    print(f"  through / straight:      {t['p50'] / d['p50']:5.2f}x {t['p95'] / d['p95']:5.2f}x")  # type: ignore[operator]


if __name__ == "__main__":
    main()
