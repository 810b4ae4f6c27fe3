"""A cluster's nodes as the tests run them: ``canasta serve --role …`` as separate processes, each
in a directory of its own, started by a test and stopped by its PID in a ``finally`` however the test
ends (SIGTERM, then SIGKILL after :data:`STOP_WAIT`), killed with the test process should it die
(``PR_SET_PDEATHSIG``).  A node is ready when it says so on stderr (its log, kept in its directory)."""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

#: How long a node may take to start (imports and worker processes on a busy 2-core machine).
START_WAIT = 90.0
STOP_WAIT = 20.0


@dataclass
class Node:
    """A running node: its name, role, PID, SSH port (a front's; 0 for an owner) and log."""

    name: str
    role: str
    proc: subprocess.Popen[bytes]
    root: Path
    port: int = 0

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def log(self) -> Path:
        return self.root / "node.log"

    def log_text(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except OSError:
            return "(no log)"

    def kill(self) -> None:
        """``kill -9``: the node dies at once, nothing of it runs after."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(STOP_WAIT)


def _die_with_parent() -> None:
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)      # PR_SET_PDEATHSIG


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(STOP_WAIT)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.kill(proc.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(STOP_WAIT)


def canasta() -> list[str]:
    """The ``canasta`` command of this Python."""
    return [sys.executable, "-c", "import sys; from canasta_tui.entry import main; sys.argv[0] = 'canasta'; main()"]


@contextlib.contextmanager
def node(root: Path, name: str, role: str, *, database: str, bus: str, room: str, args: tuple[str, ...] = ()) -> Iterator[Node]:
    """``canasta serve --role ROLE`` as a process of its own in ``root/name``, until the block ends."""
    home = root / name
    home.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, CANASTA_HOME=str(home), PYTHONUNBUFFERED="1")
    cmd = [*canasta(), "serve", "--role", role, "--database", database, "--bus", bus, "--room", room, "--node", name,
           "--open", "--port", "0", "--delay", "0", "--seed", "1", *args]
    proc: subprocess.Popen[bytes] | None = None
    try:
        with open(home / "node.log", "ab") as log:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env,
                                    start_new_session=True, preexec_fn=_die_with_parent)
        n = Node(name, role, proc, home)
        _ready(n)
        yield n
    finally:
        if proc is not None:
            _stop(proc)


def _ready(n: Node) -> None:
    """Wait (bounded) for the node to say it is ready: an owner its tables, a front its port."""
    deadline = time.monotonic() + START_WAIT
    while time.monotonic() < deadline:
        text = n.log_text()
        if n.proc.poll() is not None:
            raise RuntimeError(f"node {n.name} ended ({n.proc.returncode}) before it was ready:\n{text[-3000:]}")
        if n.role == "owner" and "canasta serve: owner " in text:
            return
        m = re.search(r"ssh -p (\d+) ", text)
        if n.role in ("front", "both") and m:
            n.port = int(m.group(1))
            if n.role == "front" or "canasta serve: owner " in text:
                return
        time.sleep(0.05)
    raise RuntimeError(f"node {n.name} was not ready within {START_WAIT:g} s:\n{n.log_text()[-3000:]}")


__all__ = ["Node", "node"]
