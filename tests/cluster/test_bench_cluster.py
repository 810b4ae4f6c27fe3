"""``canasta bench serve --cluster`` runs for real at its smallest size (issue 32, section 7): one
player against one ``canasta serve`` and against a room of 2 fronts and 2 owners behind HAProxy
(real PostgreSQL, NATS and HAProxy), a round trip over the bus, two take-overs of each kind.  Every
figure is there, positive, and agrees with the counts it comes from; no timing target is asserted
(the machine is shared).  Every process of the room is gone when the command ends."""

from __future__ import annotations

import contextlib
import json
import os

from click.testing import CliRunner

from canasta_tui.bench import cluster_bench
from canasta_tui.cli import main

ROUNDS, MOVES = 2, 10


def positive(*xs: float | None) -> bool:
    return all(x is not None and x > 0 for x in xs)


def test_bench_serve_cluster_at_its_smallest_size_reports_every_figure() -> None:
    out = CliRunner().invoke(main, ["bench", "serve", "--cluster", "--tables", "1", "--clients", "1", "--seconds", "2",
                                    "--no-busy", "--pace", "60-120", "--delay", "50", "--logins", "1",
                                    "--takeovers", str(ROUNDS), "--expert-tables", "1", "--bus-moves", str(MOVES),
                                    "--json"])
    assert out.exit_code == 0, out.output
    r = json.loads(out.stdout)
    single, room = r["single"]["even"], r["cluster"]["even"]

    # The same load on both: one player's cursor keys answered, each p95 in the ratio said.
    for run in (single, room):
        lat = run["latency_ms"]
        assert lat["n"] > 0 and lat["n"] + run["unanswered"] + run["lost_probes"] == run["probes"]
        assert 0 < lat["p50"] <= lat["p95"] <= lat["max"]
        assert run["dropped"] == 0
    assert r["p95_ratio"] == room["latency_ms"]["p95"] / single["latency_ms"]["p95"]

    c = r["cluster"]
    bus = c["bus_round_trip_ms"]
    assert bus["n"] == MOVES and 0 < bus["p50"] <= bus["p95"] <= bus["max"]
    link = c["bus_link"]
    # (each move: the request in, the answer and the frames out; and as many on the owner's side)
    assert link["front_messages"] >= 2 * MOVES and link["owner_messages"] >= 2 * MOVES
    assert positive(link["front_cpu_ms_per_message"], link["owner_cpu_ms_per_message"])

    # Per unit: each node measured; its players and messages add up to the room's.
    costs = c["costs"]
    assert set(costs["nodes"]) == {*c["owners"], *c["fronts"]} and len(c["owners"]) == len(c["fronts"]) == 2
    assert costs["players"] == 1 == sum(costs["nodes"][f]["players"] for f in c["fronts"])
    assert costs["bus_messages"] == sum(n["bus_messages"] for n in costs["nodes"].values()) > 0
    assert costs["actions"] == room["table_actions"] > 0
    assert positive(costs["front_cpu_ms_per_bus_message"], costs["owner_cpu_ms_per_bus_message"],
                    costs["front_cpu_ms_per_player_s"], costs["bus_messages_per_action"],
                    costs["db_writes_per_action"], costs["db_wal_bytes_per_action"])
    expert = c["expert"]
    assert expert["tables"] == 1 == sum(expert["tables_held"].values())
    assert positive(expert["owner_cpu_ms_per_table_s"], expert["owner_cpu_ms_per_action"])
    assert expert["actions"] == c["expert_run"]["table_actions"] > 0

    # Take-overs: each round timed; the last owner killed held every table of the room (the
    # Expert table, the load's table, the front take-over's table).
    front = c["front_takeover"]
    assert front["rounds"] == ROUNDS == front["seat_again"]["n"] == len(front["connections"])
    assert positive(*front["seat_again"]["each_ms"]) and all(n >= 1 for n in front["connections"])
    assert front["seat_again"]["worst_ms"] == max(front["seat_again"]["each_ms"])
    owner = c["owner_takeover"]
    assert owner["rounds"] == ROUNDS == len(owner["tables_moved"]) == owner["first_table"]["n"]
    assert all(n >= 1 for n in owner["tables_moved"]) and owner["tables_moved"][-1] == 3
    assert all(0 < a <= b for a, b in zip(owner["first_table"]["each_ms"], owner["every_table"]["each_ms"], strict=True))

    # Every process of the room (and each killed node's successor) was stopped by the bench.
    assert len(c["pids"]) == 3 + 4 + ROUNDS + (ROUNDS - 1)       # (engines, nodes, new fronts, new owners)
    for pid in c["pids"]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 0)
            raise AssertionError(f"process {pid} of the room is still running")

    text = cluster_bench.report(r)
    for words in ("single process     room (2+2, HAProxy)", "p95 room / single", "round trip over the bus",
                  "Take-over after kill -9 of an owner (2 rounds", "Take-over after kill -9 of a front (2 rounds)",
                  "CPU per bus message     front", "a front's link", "CPU per player          front",
                  "CPU per Expert table    owner", "writing transactions", "load"):
        assert words in text, words
