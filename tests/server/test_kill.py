"""``kill -9`` of the server ends its computers' workers with it: nothing of it is left running,
and a pipe from its output (``canasta serve --open | tee log``) ends at once."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
import time
from pathlib import Path

import pytest

from .helpers import WAIT, Term, create_table, run

#: How long the test waits for the server's pipes to close after it was killed (held by a worker
#: they stay open for ever; generous, since the workers run last on a busy machine).
EOF_WITHIN = WAIT


def children(pid: int) -> dict[int, str]:
    """The processes whose parent is ``pid``: their command lines."""
    out: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            if parent == pid:
                out[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError, ValueError):
            continue
    return out


def running(pid: int) -> bool:
    """Is ``pid`` still a live process (not gone, not a zombie waiting to be reaped)?"""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes in /proc")
def test_kill_9_of_the_server_ends_its_workers_and_its_output() -> None:
    async def main() -> None:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", "from canasta_tui.cli import main; main()", "serve", "--open", "--port", "0",
            "--delay", "0", "--seed", "3", stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=os.environ.copy())
        assert proc.stdout is not None and proc.stderr is not None
        left: dict[int, str] = {}
        try:
            port = 0
            while not port:
                line = (await asyncio.wait_for(proc.stderr.readline(), WAIT)).decode()
                assert line, "the server ended before it listened"
                m = re.search(r"ssh -p (\d+) ", line)
                port = int(m.group(1)) if m else 0
            alice = await Term.connect(port, "alice")
            await alice.wait_for("No tables yet")
            await create_table(alice)
            await alice.press("s", "Your hand (11 cards)")
            await alice.press("d", "Your hand (12 cards)")
            await alice.press("c", "Your hand (11 cards)")      # the computers play: their workers start
            deadline = time.monotonic() + WAIT
            while not any("spawn_main" in c for c in children(proc.pid).values()):
                assert time.monotonic() < deadline, f"no computer's worker started: {children(proc.pid)}"
                await asyncio.sleep(0.05)
            left = children(proc.pid)
            assert any("resource_tracker" in c for c in left.values()), left
        finally:
            proc.send_signal(signal.SIGKILL)
        # Whoever reads the server's output sees it end: nothing it started holds a copy.
        t0 = time.monotonic()
        try:
            out = await asyncio.wait_for(proc.stdout.read(), EOF_WITHIN)
            err = await asyncio.wait_for(proc.stderr.read(), EOF_WITHIN)
            ended = time.monotonic() - t0
        except TimeoutError:
            out, err, ended = b"", b"", -1.0
        deadline = time.monotonic() + EOF_WITHIN
        while any(running(pid) for pid in left) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        alive = {pid: c for pid, c in left.items() if running(pid)}
        for pid in alive:                   # (a broken server's leftovers are not left to the machine)
            os.kill(pid, signal.SIGKILL)
        await asyncio.wait_for(proc.wait(), WAIT)
        await proc.stdout.read()
        await proc.stderr.read()
        await alice.close()
        assert alive == {}
        assert 0 <= ended < EOF_WITHIN, "the server's output stayed open after kill -9"
        assert out == b"" and b"Traceback" not in err, err.decode(errors="replace")
    run(main())
