"""``canasta bench serve --cluster``: the same players against one ``canasta serve`` and against a
room of 2 fronts and 2 owners behind HAProxy, in one run (issue 32, section 7).

The single process is :mod:`.serve_bench`'s run as it is.  The room is started as the tests and
``canasta cluster try`` start it (``server/cluster/local.py``: PostgreSQL, NATS with its monitoring
port, two owners, two fronts, HAProxy, each a process of its own in a temporary directory, all
stopped by their PIDs when the bench ends, however it ends), and the same players play in it
through HAProxy's one port.  Then, in the same room:

* **Expert tables**: ``--expert-tables`` tables of one player and three Expert computers: the
  owners' CPU (their own and their computers' workers') per table per second.  It is run first,
  while the room holds no other table, so that nothing else plays at the owners meanwhile.
* **The keystroke load** (the same tables, clients, pace and turns as the single process's), with
  each node's CPU time (``/proc/PID/stat``, its workers too), its messages on the bus (NATS's
  ``/connz``: messages in and out of each node's connection, by the node's name) and its players
  (HAProxy's ``show stat``: the connections open to each front) read as the measured window opens
  and closes: CPU per bus message on a front and on an owner, CPU per player on a front, bus
  messages and database writes (``pg_stat_database``) per action played.
* **A move's round trip over the bus**: :func:`.bus_bench.round_trips` on the room's NATS.
* **Take-over after kill -9 of a front**, ``--takeovers`` times: a player seated at a table
  through HAProxy; the front holding their connection is killed; they connect again to HAProxy's
  port at once (and again until it answers), and the time is taken until their screen shows their
  table again; the front is started again on its port for the next round.
* **Take-over after kill -9 of an owner**, as many times: the owner holding the most tables (every
  table of the runs before) is killed, and the time is taken until the other owner's rows on the
  bus show the first and every one of them (served again); a new owner is started for the next round.

Every figure is a count or a time divided by a count; :func:`report` prints them beside the
issue's targets (p95 ratio at most :data:`TARGET_RATIO`, a bus round trip p95 under
:data:`TARGET_BUS_P95_MS`), which are said, never enforced.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import statistics
import tempfile
import time
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

from ..server.cluster.bus import Bus, Incoming
from ..server.cluster.local import EngineMissing, Node, TrialRoom, front_node_args, node, try_room
from . import bus_bench, serve_bench
from .serve_bench import CONNECT_AT_ONCE, BenchError, Player, Settings, actions_in, children_cpu, new_key, process_cpu

#: The issue's targets, printed beside the figures (never enforced: the machine is shared).
TARGET_RATIO = 1.3
TARGET_BUS_P95_MS = 20.0
#: The room measured: two of each, as the issue names it.
OWNERS, FRONTS = 2, 2
TAKEOVERS = 10
EXPERT_TABLES = 4
BUS_MOVES = 300
#: A dead node's tables or players not back within this long stop the bench (it says which).
TAKE_OVER_WAIT = 60.0
#: The most of NATS's connection list read (a few nodes' connections take a few KB).
CONNZ_MAX = 8 * 1024 * 1024
#: How long the rows of every live owner may take to be heard (they come every second).
ROWS_WAIT = 30.0


class Rows:
    """Which owner serves which table, as the owners say it on the bus, and when each table last
    moved to another owner (this process's clock)."""

    def __init__(self) -> None:
        self.owner_of: dict[int, str] = {}
        self.moved_at: dict[int, float] = {}
        self.heard: dict[str, float] = {}

    async def on_rows(self, m: Incoming) -> None:
        now = time.monotonic()
        owner = str(m.data.get("owner"))
        self.heard[owner] = now
        for row in m.data.get("rows", []):
            with contextlib.suppress(KeyError, TypeError, ValueError):
                table = int(row["id"])
                if self.owner_of.get(table) != owner:
                    self.owner_of[table] = owner
                    self.moved_at[table] = now


@dataclass
class Mark:
    """The room read at one moment: each node's CPU seconds (its own, its workers'), its messages on
    the bus (in and out), each front's connections through HAProxy, the database's transaction id
    (one more for every transaction that wrote, this mark's own included) and WAL position (bytes),
    and the playing tables each owner holds."""

    at: float
    cpu: dict[str, tuple[float, float]]
    messages: dict[str, int]
    players: dict[str, int]
    xid: int
    wal: int
    tables: dict[str, int] = field(default_factory=dict)


def bus_messages(monitor: str) -> dict[str, int]:
    """Messages in and out of each connection to NATS, by the connection's name (a node's name)."""
    # (state=all: a connection closed since, a killed node's, keeps its counts there)
    with urllib.request.urlopen(f"{monitor}/connz?state=all&limit=1024", timeout=10) as answer:
        data = json.loads(answer.read(CONNZ_MAX))
    counts: dict[str, int] = {}
    for c in data.get("connections", []):
        name = str(c.get("name") or "")
        counts[name] = counts.get(name, 0) + int(c.get("in_msgs", 0)) + int(c.get("out_msgs", 0))
    return counts


class RoomTarget:
    """The room behind HAProxy as :func:`.serve_bench.run_once`'s server: it is started and stopped
    by the bench, not by the run; every ``cpu()`` (the window's opening and close) is a :class:`Mark`."""

    def __init__(self, room: TrialRoom) -> None:
        self.room = room
        self.marks: list[Mark] = []

    @property
    def port(self) -> int:
        return self.room.port

    @property
    def pid(self) -> int:
        return self.room.haproxy.pid

    async def start(self) -> None:
        return None

    async def stop(self) -> int | None:
        return None

    def nodes(self) -> list[Node]:
        return [*self.room.owners, *self.room.fronts]

    def mark(self) -> Mark:
        room = self.room
        cpu = {n.name: (process_cpu(n.pid) or 0.0, children_cpu(n.pid) or 0.0) for n in self.nodes()}
        at = time.perf_counter()
        messages = bus_messages(room.nats.monitor)
        by_port = room.haproxy.sessions()
        players = {f.name: by_port.get(f.port, 0) for f in room.fronts}
        with psycopg.connect(room.database, connect_timeout=10, autocommit=True) as db:
            # (exact where pg_stat_database's counts lag by up to seconds: a writing transaction
            # takes a transaction id, and every write goes through the WAL)
            row = db.execute("SELECT txid_current(), pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint").fetchone()
            held = db.execute("SELECT owner, count(*) FROM canasta_tables.tables WHERE state = 'playing' "
                              "GROUP BY owner").fetchall()
        xid, wal = (int(row[0]), int(row[1])) if row else (0, 0)
        return Mark(at, cpu, messages, players, xid, wal, {str(o): int(n) for o, n in held})

    def cpu(self) -> tuple[float | None, float | None]:
        m = self.mark()
        self.marks.append(m)
        return sum(own for own, _ in m.cpu.values()), sum(kids for _, kids in m.cpu.values())

    def table_actions(self) -> int:
        with psycopg.connect(self.room.database, connect_timeout=10) as db:
            return sum(actions_in(str(save)) for (save,) in db.execute("SELECT save FROM canasta_tables.tables"))

    def window(self) -> tuple[Mark, Mark]:
        if len(self.marks) < 2:
            raise BenchError("the room's measured window was not read")
        return self.marks[-2], self.marks[-1]


def _per(x: float, n: float) -> float | None:
    return x / n if n > 0 else None


def node_costs(m0: Mark, m1: Mark, owners: Sequence[str], fronts: Sequence[str], actions: int) -> dict[str, Any]:
    """CPU per bus message (fronts, owners), CPU per player on a front, bus messages and database
    writes per action, over the window from ``m0`` to ``m1``.  "Per message" is a node's own
    process's CPU (for a front: SSH, screens and the bus; for an owner: its tables and the bus, not
    its computers' workers) divided by its messages; "per player" a front's divided by its players:
    each its whole cost over that one count, an upper bound of the one cost."""
    wall = m1.at - m0.at
    per_node: dict[str, dict[str, Any]] = {}
    for name in (*owners, *fronts):
        own = m1.cpu[name][0] - m0.cpu[name][0]
        kids = m1.cpu[name][1] - m0.cpu[name][1]
        msgs = m1.messages.get(name, 0) - m0.messages.get(name, 0)
        per_node[name] = {"role": "owner" if name in owners else "front", "cpu_s": own + kids, "workers_cpu_s": kids,
                          "bus_messages": msgs, "players": m0.players.get(name) if name in fronts else None}
    front_cpu = sum(per_node[n]["cpu_s"] - per_node[n]["workers_cpu_s"] for n in fronts)
    owner_cpu = sum(per_node[n]["cpu_s"] - per_node[n]["workers_cpu_s"] for n in owners)
    front_msgs = sum(per_node[n]["bus_messages"] for n in fronts)
    owner_msgs = sum(per_node[n]["bus_messages"] for n in owners)
    players = sum(m0.players.values())
    every_msg = sum(m1.messages.values()) - sum(m0.messages.get(k, 0) for k in m1.messages)
    writes = m1.xid - m0.xid - 1            # (m1's own transaction id is not the room's)
    return {
        "seconds": wall,
        "nodes": per_node,
        "players": players,
        "actions": actions,
        "front_cpu_ms_per_bus_message": _ms_per(front_cpu, front_msgs),
        "owner_cpu_ms_per_bus_message": _ms_per(owner_cpu, owner_msgs),
        "front_cpu_ms_per_player_s": _ms_per(front_cpu, players * wall),
        "front_cpu_share": _per(front_cpu, wall),
        "owner_cpu_share": _per(owner_cpu, wall),
        "bus_messages": every_msg,
        "bus_messages_per_s": _per(every_msg, wall),
        "bus_messages_per_action": _per(every_msg, actions),
        "db_writes": writes,
        "db_wal_bytes": m1.wal - m0.wal,
        "db_writes_per_action": _per(writes, actions),
        "db_wal_bytes_per_action": _per(m1.wal - m0.wal, actions),
    }


def _ms_per(seconds: float, n: float) -> float | None:
    return seconds * 1000 / n if n > 0 else None


def expert_costs(m0: Mark, m1: Mark, owners: Sequence[str], tables: int, actions: int) -> dict[str, Any]:
    """The owners' CPU per table of Expert computers, per second of play and per action played
    (their own process and their computers' workers)."""
    wall = m1.at - m0.at
    own = sum(m1.cpu[n][0] - m0.cpu[n][0] for n in owners)
    kids = sum(m1.cpu[n][1] - m0.cpu[n][1] for n in owners)
    return {"seconds": wall, "tables": tables, "tables_held": dict(m1.tables), "owner_cpu_s": own,
            "workers_cpu_s": kids, "owner_cpu_ms_per_table_s": _ms_per(own + kids, tables * wall),
            "workers_cpu_ms_per_table_s": _ms_per(kids, tables * wall), "actions": actions,
            "actions_per_table_min": _per(actions * 60, tables * wall),
            "owner_cpu_ms_per_action": _ms_per(own + kids, actions)}


def link_costs(trips: bus_bench.Trips, before: dict[str, int], after: dict[str, int]) -> dict[str, Any]:
    """The bus bench's two processes alone on the bus: CPU per message of a front's link (its process
    does nothing else but choose its seat's moves as a beginner) and of an owner's table (its moves
    and three beginners' included)."""
    front = after.get("front", 0) - before.get("front", 0)
    owner = after.get("owner", 0) - before.get("owner", 0)
    return {"front_messages": front, "owner_messages": owner, "front_cpu_s": trips.front_cpu_s,
            "owner_cpu_s": trips.owner_cpu_s, "front_cpu_ms_per_message": _ms_per(trips.front_cpu_s, front),
            "owner_cpu_ms_per_message": _ms_per(trips.owner_cpu_s, owner)}


def spread(seconds: Sequence[float]) -> dict[str, Any]:
    """n, median, worst, each, in milliseconds."""
    ms = [x * 1000 for x in seconds]
    return {"n": len(ms), "median_ms": statistics.median(ms) if ms else None, "worst_ms": max(ms) if ms else None,
            "each_ms": ms}


# ---------------------------------------------------------------------------------------------- take-overs

async def _until(check: Callable[[], bool], what: str, timeout: float) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline:
            raise BenchError(f"waited {timeout:g} s for {what}")
        await asyncio.sleep(0.005)


async def _start(stack: contextlib.ExitStack, started: list[int], *args: Any, **kwargs: Any) -> Node:
    """A node started (off the loop: it waits for the node to say it is ready), stopped with the room;
    its PID added to ``started``."""
    loop = asyncio.get_running_loop()
    new = await loop.run_in_executor(None, lambda: stack.enter_context(node(*args, **kwargs)))
    started.append(new.pid)
    return new


async def owner_takeovers(room: TrialRoom, stack: contextlib.ExitStack, started: list[int], rounds: int,
                          owner_args: tuple[str, ...], progress: Callable[[str], None]) -> dict[str, Any]:
    """``rounds`` times: kill -9 of the owner holding the most tables; how long until the other
    owner's rows show the first and every one of them; a new owner started for the next round."""
    rows = Rows()
    bus = await Bus.connect(room.nats.url, room=room.name, name="bench")
    firsts: list[float] = []
    alls: list[float] = []
    moved: list[int] = []
    try:
        await bus.subscribe("lobby.rows.*", rows.on_rows)
        for i in range(rounds):
            alive = list(room.owners)
            def heard(alive: list[Node] = alive) -> bool:
                return (all(time.monotonic() - rows.heard.get(n.name, -1e9) < 2 for n in alive)
                        and any(o == n.name for o in rows.owner_of.values() for n in alive))

            await _until(heard, "every owner's rows", ROWS_WAIT)
            victim = max(alive, key=lambda n: sum(1 for o in rows.owner_of.values() if o == n.name))
            held = {t for t, o in rows.owner_of.items() if o == victim.name}
            killed = time.monotonic()
            victim.kill()
            def gone(victim: Node = victim, held: set[int] = held) -> bool:
                return all(rows.owner_of[t] != victim.name for t in held)

            await _until(gone,
                         f"{victim.name}'s {len(held)} tables at another owner", TAKE_OVER_WAIT)
            times = [rows.moved_at[t] - killed for t in held]
            firsts.append(min(times))
            alls.append(max(times))
            moved.append(len(held))
            progress(f"owner take-over {i + 1}/{rounds}: kill -9 of {victim.name}, its {len(held)} tables served "
                     f"again after {min(times) * 1000:.0f}-{max(times) * 1000:.0f} ms")
            room.owners.remove(victim)
            if i + 1 < rounds:
                room.owners.append(await _start(stack, started, room.root, f"owner-{OWNERS + i + 1}", "owner",
                                                database=room.database, bus=room.nats.url, room=room.name,
                                                args=owner_args))
    finally:
        await bus.close()
    return {"rounds": rounds, "tables_moved": moved, "first_table": spread(firsts), "every_table": spread(alls)}


def _at_table(text: str) -> bool:
    return serve_bench._HEADER.search(text.split("\n", 1)[0]) is not None


async def front_takeovers(room: TrialRoom, stack: contextlib.ExitStack, started: list[int], rounds: int,
                          front_args: tuple[str, ...], progress: Callable[[str], None]) -> dict[str, Any]:
    """``rounds`` times: kill -9 of the front holding a seated player's connection; how long until
    the player, connecting again through HAProxy at once (and again until it answers), sees their
    table; the front started again on its port (HAProxy's backend) for the next round."""
    p = Player("mover", 0, 0, (0.3, 0.6), random.Random(1), key=new_key(), address=serve_bench.address(0))
    times: list[float] = []
    tries: list[int] = []
    try:
        await p.connect(room.port)
        await serve_bench.form_table([p], "beginner")
        for i in range(rounds):
            by_port = await asyncio.get_running_loop().run_in_executor(None, room.haproxy.sessions)
            front = max(room.fronts, key=lambda f: by_port.get(f.port, 0))
            if by_port.get(front.port, 0) != 1 or sum(by_port.values()) != 1:
                raise BenchError(f"the player's one connection is not seen at one front: {by_port}")
            killed = time.monotonic()
            front.kill()
            await _until(lambda: p.closed, "the player's connection to close with its front", TAKE_OVER_WAIT)
            n = 0
            while True:
                n += 1
                try:
                    await p.connect(room.port, _at_table, "their table again")
                    break
                except BenchError:
                    if time.monotonic() - killed > TAKE_OVER_WAIT:
                        raise
                    await p.close()
                    await asyncio.sleep(0.05)
            took = time.monotonic() - killed
            times.append(took)
            tries.append(n)
            progress(f"front take-over {i + 1}/{rounds}: kill -9 of {front.name}, the player at their table again "
                     f"after {took * 1000:.0f} ms ({n} connection(s))")
            at = room.fronts.index(front)
            room.fronts[at] = await _start(stack, started, room.root, f"front-{FRONTS + i + 1}", "front", database=room.database,
                                           bus=room.nats.url, room=room.name,
                                           args=front_node_args(room.host_key, front.port, front_args))
            await _until(lambda: all(room.haproxy.servers().get(f.port) for f in room.fronts),
                         "HAProxy to see every front up", TAKE_OVER_WAIT)
    finally:
        await p.close()
    return {"rounds": rounds, "connections": tries, "seat_again": spread(times)}


# ---------------------------------------------------------------------------------------------- the whole bench

def room_limits(st: Settings, expert_tables: int) -> tuple[str, ...]:
    """A front's limits, wide enough for every player of the bench from one address (HAProxy's)."""
    n = str(max(st.tables * st.clients + st.lobby, expert_tables, 1) + CONNECT_AT_ONCE + 10)
    return ("--idle-timeout", "0", "--max-connections", n, "--max-per-address", n, "--max-logins", n,
            "--max-logins-per-address", n)


async def in_room(room: TrialRoom, stack: contextlib.ExitStack, st: Settings, busy: bool, takeovers: int,
                  expert_tables: int, bus_moves: int, owner_args: tuple[str, ...], front_args: tuple[str, ...],
                  progress: Callable[[str], None]) -> dict[str, Any]:
    owners = [n.name for n in room.owners]
    fronts = [n.name for n in room.fronts]
    # (every process of the room by PID, a killed node's successors too: all stopped when the bench ends)
    started = [room.postgres.pid, room.nats.pid, room.haproxy.pid, *(n.pid for n in (*room.owners, *room.fronts))]
    out: dict[str, Any] = {"owners": owners, "fronts": fronts, "pids": started}

    experts = RoomTarget(room)
    ex = Settings(expert_tables, 1, st.seconds, st.pace_ms, st.busy_pace_ms, st.delay_ms, st.seed, st.phase_s,
                  logins=0, lobby=0, level="expert")
    out["expert_run"] = await serve_bench.run_once(ex, busy=False, progress=lambda s: progress(f"room, Expert: {s}"),
                                                   target=experts, prefix="x", addresses=True)
    out["expert"] = expert_costs(*experts.window(), owners, expert_tables, out["expert_run"]["table_actions"])

    target = RoomTarget(room)
    out["even"] = await serve_bench.run_once(st, busy=False, progress=lambda s: progress(f"room: {s}"),
                                             target=target, prefix="e", addresses=True)
    out["costs"] = node_costs(*target.window(), owners, fronts, out["even"]["table_actions"])
    if busy:
        out["busy"] = await serve_bench.run_once(st, busy=True, progress=lambda s: progress(f"room: {s}"),
                                                 target=RoomTarget(room), prefix="b", addresses=True)

    progress(f"room: {bus_moves} moves' round trips over the bus")
    loop = asyncio.get_running_loop()
    before = await loop.run_in_executor(None, bus_messages, room.nats.monitor)
    trips = await bus_bench.round_trips(room.nats.url, bus_moves)
    after = await loop.run_in_executor(None, bus_messages, room.nats.monitor)
    out["bus_round_trip_ms"] = bus_bench.figures(trips.times)
    out["bus_link"] = link_costs(trips, before, after)
    out["front_takeover"] = await front_takeovers(room, stack, started, takeovers, front_args, progress)
    # Last: a front still counts a killed owner live for a few seconds (lobby.OWNER_GONE), and would
    # send a new table there.
    out["owner_takeover"] = await owner_takeovers(room, stack, started, takeovers, owner_args, progress)
    return out


def run(tables: int, clients: int, seconds: float = 30.0, *, busy: bool = True, pace_ms: tuple[int, int] = (200, 500),
        busy_pace_ms: tuple[int, int] = (20, 60), delay_ms: int = 400, seed: int = 1,
        phase_s: float = serve_bench.PHASE_S, logins: int = serve_bench.LOGINS, lobby: int = 0,
        level: str = "advanced", takeovers: int = TAKEOVERS, expert_tables: int = EXPERT_TABLES,
        bus_moves: int = BUS_MOVES, progress: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    """The single process's bench, then the room's: the same load, and the room's own figures."""
    load0 = os.getloadavg()
    single = serve_bench.run(tables, clients, seconds, busy=busy, pace_ms=pace_ms, busy_pace_ms=busy_pace_ms,
                             delay_ms=delay_ms, seed=seed, phase_s=phase_s, logins=logins, lobby=lobby, level=level,
                             progress=lambda s: progress(f"single: {s}"))
    st = Settings(tables, clients, seconds, pace_ms, busy_pace_ms, delay_ms, seed, phase_s, logins, lobby, level)
    # The owners as the single server: the same pause after a computer's move and the same seed; a
    # dropped player's seat kept through the bench (the earlier runs' tables wait, they do not play).
    owner_args = ("--delay", str(delay_ms), "--seed", str(seed), "--takeover", "86400")
    front_args = room_limits(st, expert_tables)
    root = Path(tempfile.mkdtemp(prefix="canasta-bench-room-"))
    try:
        progress(f"room: PostgreSQL, NATS, {OWNERS} owners, {FRONTS} fronts and HAProxy start in {root}")
        with contextlib.ExitStack() as stack:
            room = stack.enter_context(try_room(root, owners=OWNERS, fronts=FRONTS, owner_args=owner_args,
                                                front_args=front_args, monitor=True))
            cluster = asyncio.run(in_room(room, stack, st, busy, takeovers, expert_tables, bus_moves, owner_args,
                                          front_args, progress))
    except (EngineMissing, OSError, RuntimeError, psycopg.Error) as exc:
        if isinstance(exc, BenchError):
            raise
        raise BenchError(f"the room could not be measured: {exc}") from None
    finally:
        shutil.rmtree(root, ignore_errors=True)
    a = single["even"]["latency_ms"]["p95"]
    b = cluster["even"]["latency_ms"]["p95"]
    result: dict[str, Any] = {
        "single": single, "cluster": cluster, "cores": os.cpu_count(), "load_before": list(load0),
        "load_after": list(os.getloadavg()),
        "targets": {"p95_ratio": TARGET_RATIO, "bus_round_trip_p95_ms": TARGET_BUS_P95_MS},
        "p95_ratio": b / a if a and b is not None else None,
    }
    if busy:
        qa = single["busy"]["quiet_tables_latency_ms"]["p95"]
        qb = cluster["busy"]["quiet_tables_latency_ms"]["p95"]
        result["busy_p95_ratio"] = qb / qa if qa and qb is not None else None
    return result


# ---------------------------------------------------------------------------------------------- the report

def _n(x: float | None, fmt: str = ".1f") -> str:
    return "n/a" if x is None else format(x, fmt)


def _ok(x: float | None, target: float, below: bool = False) -> str:
    if x is None:
        return "no data"
    return "ok" if (x < target if below else x <= target) else "OVER TARGET"


def report(r: dict[str, Any]) -> str:
    s, c = r["single"], r["cluster"]
    costs, ex = c["costs"], c["expert"]
    bus, own, front = c["bus_round_trip_ms"], c["owner_takeover"], c["front_takeover"]
    ls, lc = s["even"]["latency_ms"], c["even"]["latency_ms"]
    lines = [
        f"canasta serve against a room of {OWNERS} fronts and {OWNERS} owners behind HAProxy: {s['tables']} tables x "
        f"{s['clients_per_table']} players over SSH, {s['seconds']:g} s per run, a key every {s['pace_ms'][0]}-"
        f"{s['pace_ms'][1]} ms, computers' delay {s['delay_ms']} ms; {r['cores']} cores, load "
        f"{r['load_before'][0]:.2f} before, {r['load_after'][0]:.2f} after",
        "",
        "                          single process     room (2+2, HAProxy)",
        f"  key to screen p50       {_n(ls['p50']):>8} ms        {_n(lc['p50']):>8} ms",
        f"  key to screen p95       {_n(ls['p95']):>8} ms        {_n(lc['p95']):>8} ms",
        f"  key to screen p99       {_n(ls['p99']):>8} ms        {_n(lc['p99']):>8} ms",
        f"  cursor keys answered    {ls['n']:>8}           {lc['n']:>8}",
        f"  p95 room / single       {_n(r['p95_ratio'], '.2f')}x (target <= {TARGET_RATIO}x: "
        f"{_ok(r['p95_ratio'], TARGET_RATIO)})",
    ]
    if "busy_p95_ratio" in r:
        lines.append(f"  with table 1 busy by turns, the other tables' p95: single "
                     f"{_n(s['busy']['quiet_tables_latency_ms']['p95'])} ms, room "
                     f"{_n(c['busy']['quiet_tables_latency_ms']['p95'])} ms ({_n(r['busy_p95_ratio'], '.2f')}x)")
    lines += [
        "",
        f"A move's round trip over the bus (front to owner and back, {bus['n']} moves): p50 {bus['p50']:.2f} ms  "
        f"p95 {bus['p95']:.2f} ms  worst {bus['max']:.2f} ms (target p95 < {TARGET_BUS_P95_MS:g} ms: "
        f"{_ok(bus['p95'], TARGET_BUS_P95_MS, below=True)})",
        f"Take-over after kill -9 of an owner ({own['rounds']} rounds, {sum(own['tables_moved'])} tables moved): "
        f"first table median {_n(own['first_table']['median_ms'], '.0f')} ms, worst "
        f"{_n(own['first_table']['worst_ms'], '.0f')} ms; every table median {_n(own['every_table']['median_ms'], '.0f')}"
        f" ms, worst {_n(own['every_table']['worst_ms'], '.0f')} ms",
        f"Take-over after kill -9 of a front ({front['rounds']} rounds): the player at their table again through "
        f"HAProxy, median {_n(front['seat_again']['median_ms'], '.0f')} ms, worst "
        f"{_n(front['seat_again']['worst_ms'], '.0f')} ms",
        "",
        f"Per unit, over the room's {costs['seconds']:.1f} s of the keystroke load ({costs['players']} players, "
        f"{costs['actions']} actions played, {costs['bus_messages']} bus messages):",
        f"  CPU per bus message     front {_n(costs['front_cpu_ms_per_bus_message'], '.3f')} ms   owner "
        f"{_n(costs['owner_cpu_ms_per_bus_message'], '.3f')} ms   (the node's process's CPU / its messages in and out)",
        f"  CPU per player          front {_n(costs['front_cpu_ms_per_player_s'], '.2f')} ms per second of play",
        f"  bus messages            {_n(costs['bus_messages_per_s'], '.0f')} a second, "
        f"{_n(costs['bus_messages_per_action'], '.1f')} per action played",
        f"  database                {_n(costs['db_writes_per_action'], '.2f')} writing transactions and "
        f"{_n(costs['db_wal_bytes_per_action'], '.0f')} bytes of WAL per action played",
    ]
    for name, row in costs["nodes"].items():
        lines.append(f"    {name:<10} {row['cpu_s']:7.2f} s CPU ({row['workers_cpu_s']:.2f} in workers), "
                     f"{row['bus_messages']:7d} bus messages" + (f", {row['players']} players"
                                                                  if row["players"] is not None else ""))
    link = c["bus_link"]
    lines += [
        f"  CPU per bus message, alone on the bus (the round trips' {link['front_messages']} and "
        f"{link['owner_messages']} messages): a front's link {_n(link['front_cpu_ms_per_message'], '.3f')} ms "
        f"(a beginner choosing its moves on the mirror in it), an owner's table "
        f"{_n(link['owner_cpu_ms_per_message'], '.3f')} ms (its moves and three beginners in it)",
        f"  CPU per Expert table    owner {_n(ex['owner_cpu_ms_per_table_s'], '.1f')} ms per second of play, "
        f"of which its computers' workers {_n(ex['workers_cpu_ms_per_table_s'], '.1f')} ms ({ex['tables']} "
        f"tables of 1 player and 3 Expert computers, {ex['seconds']:.1f} s); {_n(ex['owner_cpu_ms_per_action'], '.1f')}"
        f" ms per action, {_n(ex['actions_per_table_min'], '.0f')} actions per table a minute",
    ]
    return "\n".join(lines)


__all__ = ["BUS_MOVES", "EXPERT_TABLES", "TAKEOVERS", "TARGET_BUS_P95_MS", "TARGET_RATIO", "Mark", "RoomTarget", "Rows",
           "expert_costs", "node_costs", "report", "run"]
