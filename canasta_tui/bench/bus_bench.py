"""A move's round trip over the bus: ``python -m canasta_tui.bench.bus_bench [--bus nats://…] [--moves N]``.

An owner's process (a :class:`~canasta_tui.server.cluster.remote.TablePublisher` over a table
of three beginner computers and one remote seat) and a front's (a
:class:`~canasta_tui.server.cluster.remote.RemoteLink` for that seat), over a real NATS: the
front's moves are chosen by a beginner on its mirror, and the time from ``send`` to its answer
(``done``) is a round trip: the request, the owner's checks, the move, the frames published, the
answer.  (The computers' thinking is not in it: they move after the answer.)  Prints p50, p95 and the worst.
Without ``--bus`` it starts Debian's ``nats-server`` in a temporary directory (stopped by its PID).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from ..ai import make_player
from ..engine import Phase
from ..presets import load_rules
from ..server.cluster.bus import Bus
from ..server.cluster.remote import RemoteLink, TablePublisher
from ..table import COMPUTER, REMOTE, Change, Outcome, Seat, Table


@contextlib.contextmanager
def nats_server() -> Iterator[str]:
    """A throwaway nats-server on 127.0.0.1 (a port it picks), stopped by its PID."""
    exe = shutil.which("nats-server") or "/usr/sbin/nats-server"
    root = Path(tempfile.mkdtemp(prefix="canasta-bench-nats-"))
    proc = subprocess.Popen([exe, "-a", "127.0.0.1", "-p", "-1", "--ports_file_dir", str(root)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        ports = root / f"nats-server_{proc.pid}.ports"
        deadline = time.monotonic() + 30
        while not ports.exists():
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("nats-server did not start")
            time.sleep(0.05)
        time.sleep(0.1)
        yield str(json.loads(ports.read_text())["nats"][0])
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(root, ignore_errors=True)


class _Seat:
    """The front's player of one seat: a beginner choosing on its mirror, each move timed from
    ``send`` to its answer."""

    def __init__(self, link: RemoteLink, seat: int, moves: int) -> None:
        self.link, self.seat, self.moves = link, seat, moves
        self.times: list[float] = []
        self.brain = make_player("beginner", seat)
        self.busy = False
        self.acked = 0
        self.done = asyncio.Event()
        link.subscribe(self)

    def table_changed(self, what: Change) -> None:
        asyncio.get_running_loop().call_soon(self.act)

    def act(self) -> None:
        if len(self.times) >= self.moves:
            self.done.set()
            return
        if self.busy:
            return
        v = self.link.view(self.seat)
        if v.phase == Phase.HAND_OVER:
            if self.acked < self.link.hand_number:
                self.acked = self.link.hand_number
                self.link.acknowledge()
            return
        if v.actor != self.seat:
            return
        action = self.brain.choose(v)
        start = time.perf_counter()
        self.busy = True

        def done(out: Outcome) -> None:
            self.times.append(time.perf_counter() - start)
            self.busy = False
            if not out.ok:
                print(f"refused: {out.reason}")
        self.link.send(self.seat, [action], done)


async def own(url: str) -> None:
    """The owner's process: a table of three beginners and a remote seat 0, its token on stdout."""
    bus = await Bus.connect(url, room="bench", name="owner")
    seats = [Seat(REMOTE, "P1")] + [Seat(COMPUTER, "", "beginner")] * 3
    table = Table(load_rules("classic").replace(target_score=1_000_000), seats, 1)
    pub = TablePublisher(bus, "b1", table, epoch=1)
    await pub.start()
    print(pub.host(0, "front"), flush=True)
    await table.run()


async def measure(url: str, token: str, moves: int) -> list[float]:
    front = await Bus.connect(url, room="bench", name="front")
    link = RemoteLink(front, "b1", "front", [0], token)
    await link.start()
    player = _Seat(link, 0, moves)
    player.act()
    await asyncio.wait_for(player.done.wait(), 1200)
    await link.stop()
    await front.close()
    return player.times


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bus", help="a NATS to use (default: start nats-server here)")
    ap.add_argument("--moves", type=int, default=500, help="the front's moves to time")
    ap.add_argument("--owner", action="store_true", help=argparse.SUPPRESS)   # (the owner's process)
    args = ap.parse_args(argv)
    if args.owner:
        asyncio.run(own(args.bus))
        return
    with contextlib.ExitStack() as stack:
        url = args.bus or stack.enter_context(nats_server())
        owner = subprocess.Popen([sys.executable, "-m", "canasta_tui.bench.bus_bench", "--owner", "--bus", url],
                                 stdout=subprocess.PIPE, text=True)
        try:
            assert owner.stdout is not None
            token = owner.stdout.readline().strip()
            times = asyncio.run(measure(url, token, args.moves))
        finally:
            owner.terminate()
            owner.wait(30)
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    print(f"a front's moves over the bus to an owner in another process: {len(ms)}  round trip "
          f"p50 {statistics.median(ms):.2f} ms  p95 {p95:.2f} ms  worst {ms[-1]:.2f} ms")


if __name__ == "__main__":
    main()
