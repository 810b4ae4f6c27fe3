"""``canasta cluster try``: a whole room on this machine in one command, started as the tests start
the engines and nodes (``server/cluster/local.py``), entered over SSH through HAProxy, and stopped
whole by Ctrl-C: no process of it is left."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import time
from pathlib import Path

from server.helpers import Term

from canasta_tui.server.cluster.local import canasta_command

from .helpers import run

START = 240.0


def test_canasta_cluster_try_starts_a_room_a_player_enters_and_ctrl_c_stops_it_all(tmp_path: Path) -> None:
    log = tmp_path / "try.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([*canasta_command(), "cluster", "try", "--port", "0", "--owners", "1", "--fronts", "1"],
                                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + START
        while not re.search(r"ssh -p (\d+) ", log.read_text(errors="replace")):
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text(errors="replace")
            time.sleep(0.1)
        text = log.read_text(errors="replace")
        port = int(re.search(r"ssh -p (\d+) ", text).group(1))        # type: ignore[union-attr]
        pids = [int(p) for p in re.findall(r": pid (\d+)", text)]
        assert len(pids) == 5, text          # PostgreSQL, NATS, HAProxy, an owner, a front

        async def go() -> None:
            alice = await Term.connect(port, "alice")
            await alice.wait_for("No tables yet")
            await alice.close()
        run(go())
        proc.send_signal(signal.SIGINT)
        assert proc.wait(120) == 0, log.read_text(errors="replace")
        assert "The room is stopped." in log.read_text(errors="replace")
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, 0)
                raise AssertionError(f"process {pid} of the room is still running")
    finally:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(30)
