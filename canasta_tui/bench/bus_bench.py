"""A move's round trip over the bus: ``python -m canasta_tui.bench.bus_bench [--bus nats://…] [--moves N]``.

An owner's process (a :class:`~canasta_tui.server.cluster.remote.TablePublisher` over a table
of three beginner computers and one remote seat) and a front's (a
:class:`~canasta_tui.server.cluster.remote.RemoteLink` for that seat), over a real NATS: the
front's moves are chosen by a beginner on its mirror, and the time from ``send`` to its answer
(``done``) is a round trip: the request, the owner's checks, the move, the frames published, the
answer.  (The computers' thinking is not in it: they move after the answer.)  Prints p50, p95 and the worst.
Without ``--bus`` it starts Debian's ``nats-server`` in a temporary directory (``server/cluster/local.py``,
stopped by its PID).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import time
from dataclasses import dataclass

from ..ai import make_player
from ..engine import Phase
from ..presets import load_rules
from ..server.cluster.bus import Bus
from ..server.cluster.local import nats_server
from ..server.cluster.remote import RemoteLink, TablePublisher
from ..table import COMPUTER, REMOTE, Change, Outcome, Seat, Table
from .serve_bench import own_cpu, process_cpu


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
    await asyncio.wait_for(player.done.wait(), ANSWER_WAIT * moves)
    await link.stop()
    await front.close()
    return player.times


#: How long the owner's process may take to start and say its seat's token.
OWNER_START = 60.0
#: How long one move's answer may take before the bench gives up.
ANSWER_WAIT = 30.0


@dataclass
class Trips:
    """``moves`` round trips: each one's seconds, and the CPU seconds the owner's process and this
    (the front's) process spent meanwhile."""

    times: list[float]
    owner_cpu_s: float
    front_cpu_s: float


async def round_trips(url: str, moves: int) -> Trips:
    """``moves`` round trips of a front's move (from this process, on the bus as ``front``) to an
    owner in a process of its own (this module with ``--owner``, on the bus as ``owner``), over the
    NATS at ``url``; the owner's process is stopped by its PID however it ends.  (``canasta bench
    serve --cluster`` calls it on its room's NATS.)"""
    owner = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "canasta_tui.bench.bus_bench", "--owner", "--bus", url,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    try:
        assert owner.stdout is not None
        token = (await asyncio.wait_for(owner.stdout.readline(), OWNER_START)).decode().strip()
        if not token:
            raise RuntimeError(f"the bus bench's owner process ended ({await owner.wait()}) before it played")
        owner0, front0 = process_cpu(owner.pid) or 0.0, own_cpu()
        times = await measure(url, token, moves)
        return Trips(times, (process_cpu(owner.pid) or 0.0) - owner0, own_cpu() - front0)
    finally:
        if owner.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                owner.kill()
        await owner.wait()


def figures(times: list[float]) -> dict[str, float | int]:
    """A round trip's n, p50, p95 and worst, in milliseconds."""
    ms = sorted(t * 1000 for t in times)
    return {"n": len(ms), "p50": statistics.median(ms), "p95": ms[min(len(ms) - 1, int(len(ms) * 0.95))],
            "max": ms[-1]}


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
        url = args.bus or stack.enter_context(nats_server()).url
        f = figures(asyncio.run(round_trips(url, max(1, min(args.moves, 100_000)))).times)
    print(f"a front's moves over the bus to an owner in another process: {f['n']}  round trip "
          f"p50 {f['p50']:.2f} ms  p95 {f['p95']:.2f} ms  worst {f['max']:.2f} ms")


if __name__ == "__main__":
    main()
