"""A terminal's size is what its client says, up to a bound: one window-change to 10000x10000
took the server from 62 MB to 1.6 GB and left every other player unanswered for 12 s, and a pty
request that size at login held everybody for 18 s.  The server paints at most ``max_columns`` x
``max_rows`` (500x200), and a burst of window-changes costs at most a few whole paints a second."""

from __future__ import annotations

import asyncio
import re

import asyncssh

from canasta_tui.server.door.ssh import RESIZES_PER_S

from .helpers import WAIT, Term, run, serving, settle

_CURSOR_TO = re.compile(rb"\x1b\[(\d+);(\d+)H")


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS")) / 1024


async def keys_at_a_human_pace(t: Term, stop: asyncio.Event, latencies: list[float]) -> None:
    """``t`` opens and closes the lobby's help, a key every 0.15 s, until ``stop``; the time from
    when each key was due to her screen showing what it did.  Each key must be answered (within
    the helpers' generous wait); how fast is no test's business on a busy machine: what keeps her
    answered is that the other client's paints are bounded in size and in number, asserted below."""
    loop = asyncio.get_running_loop()
    shown = False
    due = loop.time()
    while not stop.is_set():
        await asyncio.sleep(max(0.0, due - loop.time()))
        if shown:
            await t.press("x", lambda s: "Lobby keys" not in s)
        else:
            await t.press("?", "Lobby keys")
        latencies.append(loop.time() - due)
        shown = not shown
        due = max(due + 0.15, loop.time())


def test_a_huge_terminal_is_painted_at_most_500x200_and_holds_nobody_up() -> None:
    async def main() -> None:
        async with serving() as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            start_mb = rss_mb()
            stop, latencies = asyncio.Event(), []
            probing = asyncio.ensure_future(keys_at_a_human_pace(alice, stop, latencies))

            # mallory asks for a pty of 10000x10000 at login ...
            conn = await asyncio.wait_for(asyncssh.connect("127.0.0.1", srv.port, username="mallory",
                                                           known_hosts=None, client_keys=None, agent_path=None,
                                                           password="guest"), WAIT)
            proc = await conn.create_process(term_type="xterm", term_size=(10000, 10000), encoding=None)
            received = bytearray()

            async def read() -> None:
                while data := await proc.stdout.read(65536):
                    received.extend(data)

            reading = asyncio.ensure_future(read())
            await settle(srv, lambda: b"Lobby" in received)
            session = next(s for s in srv.sessions if s.identity.name == "mallory")
            assert session.app is not None
            frames = session.app.frames

            # ... then sends window-changes as fast as it can: huge ones, the largest SSH can say,
            # zeros, and sizes inside the bounds that each would need a whole new paint.
            sizes = [(10000, 10000), (2**32 - 1, 2**32 - 1), (0, 0), (100000, 30), (90, 100000)]
            loop = asyncio.get_running_loop()
            burst_start = loop.time()
            for i in range(40):
                for j in range(25):
                    w, h = sizes[j % len(sizes)] if j % 2 else (300 + (i * 25 + j) % 200, 100 + (i + j) % 100)
                    proc.change_terminal_size(w, h)
                await asyncio.sleep(0.05)
            burst = loop.time() - burst_start
            await asyncio.sleep(0.5)
            stop.set()
            await asyncio.wait_for(probing, WAIT)
            painted = session.app.frames - frames
            conn.close()
            reading.cancel()
            await alice.close()

        assert len(latencies) >= 10               # alice was answered all along
        # Every cursor position sent to mallory is inside 500x200.
        rows, columns = zip(*((int(y), int(x)) for y, x in _CURSOR_TO.findall(bytes(received))), strict=True)
        assert max(rows) <= 200 and max(columns) <= 500
        assert max(rows) > 24, (max(rows), max(columns))   # (a big terminal is painted big)
        # 1000 window-changes in 2.5 s: whole paints at most RESIZES_PER_S a second.
        assert painted <= RESIZES_PER_S * burst + 5, (painted, burst)
        assert rss_mb() - start_mb < 50
    run(main())


def test_a_terminal_resized_within_the_bounds_is_painted_at_its_size() -> None:
    async def main() -> None:
        async with serving() as srv:
            t = await Term.connect(srv.port, "ann", width=80, height=24)
            await t.wait_for("No tables yet")
            t.proc.change_terminal_size(120, 40)
            session = next(iter(srv.sessions))
            await settle(srv, lambda: session._get_size() == (40, 120))
            t.proc.change_terminal_size(0, 0)           # says nothing: the size stays
            t.proc.change_terminal_size(600, 300)
            await settle(srv, lambda: session._get_size() == (200, 500))
            await t.close()
    run(main())
