"""canasta bench serve runs for real at a tiny size: a real canasta serve process, SSH players
who form the tables in the lobby and play by keys; the report has every figure, and the keys
were answered.  No timing is asserted (the machine is shared)."""

from __future__ import annotations

import json
import os
from typing import Any

from click.testing import CliRunner

from canasta_tui.bench import serve_bench
from canasta_tui.cli import main


def check_run(r: dict[str, Any], tables: int, busy: bool) -> None:
    assert r["busy"] is busy
    lat = r["latency_ms"]
    # Cursor keys were sent and the screen answered them; every one is accounted for.
    assert lat["n"] > 0
    assert lat["n"] + r["unanswered"] + r["lost_probes"] == r["probes"]
    assert lat["p50"] <= lat["p95"] <= lat["p99"] <= lat["max"]
    per = r["per_table"]
    assert [row["table"] for row in per] == list(range(1, tables + 1))
    assert [row["busy"] for row in per] == [busy and t == 1 for t in range(1, tables + 1)]
    assert all(row["n"] > 0 and row["hand"] >= 1 for row in per)
    assert r["moves"] > 0                              # draws, discards: the tables played
    assert r["bytes_per_s_per_client"]["mean"] > 0
    assert r["connect_ms"]["max"] > 0
    assert r["dropped"] == 0
    assert r["server_exit"] == 0                       # SIGTERM: the server saved and ended by itself
    if os.path.exists("/proc/self/stat"):
        assert r["server_cpu_s"] > 0 and r["server_cpu_per_table_s_per_s"] > 0


def test_two_tables_play_alike_then_with_table_1_busy_and_calm_by_turns() -> None:
    r = serve_bench.run(2, 2, seconds=4, busy=True, pace_ms=(60, 120), busy_pace_ms=(10, 20), delay_ms=50, seed=3,
                        phase_s=1.0, logins=5)
    assert (r["tables"], r["clients_per_table"], r["sessions"]) == (2, 2, 4)
    # Five logins, each with its own key, reached the lobby; they are timed apart from the runs.
    logins = r["logins"]
    assert logins["n"] == 5 and logins["per_s"] > 0 and 0 < logins["p50_ms"] <= logins["p95_ms"] <= logins["max_ms"]
    assert "logins" not in r["even"] and "logins" not in r["busy"]
    check_run(r["even"], 2, busy=False)
    check_run(r["busy"], 2, busy=True)
    effect = r["busy_effect"]
    assert effect["others_p95_even_ms"] > 0 and effect["others_p95_busy_ms"] > 0
    # Table 2's keys were counted in both of table 1's turns, and all of them in one or the other.
    b = r["busy"]
    assert b["others_while_busy_ms"]["n"] > 0 and b["others_while_calm_ms"]["n"] > 0
    assert b["others_while_busy_ms"]["n"] + b["others_while_calm_ms"]["n"] == b["per_table"][1]["n"]
    assert b["others_busy_ratio"] > 0 and r["even"]["others_busy_ratio"] is None
    low, high = b["others_busy_ratio_interval"]
    assert 0 < low <= high and r["even"]["others_busy_ratio_interval"] is None
    # Table 1 typed faster in its busy turns than anybody in the even run.
    assert b["per_table"][0]["keys"] > r["even"]["per_table"][0]["keys"]
    text = serve_bench.report(r)
    for words in ("2 tables x 2 players over SSH (4 sessions)", "Every table alike:",
                  "Table 1 busy and calm by turns, 1 s each", "others, table 1 busy", "others, table 1 calm",
                  "key to screen update  p50", "Logins, each a fresh connection with its own ed25519 key",
                  "5 in", "logins/s;", "each table's p95 (ms) 1:", "bytes/s per client",
                  "connection setup", "server CPU", "clients' CPU",
                  "The other tables' p95 while table 1 is busy / while it is calm (one run)", "90% interval",
                  "The other tables' p95 in the two runs"):
        assert words in text, words
    assert "problems" not in text


def test_table_1_is_busy_and_calm_by_turns() -> None:
    p = serve_bench.Phases(True, start=100.0, length=5.0)
    assert [p.busy(100.0 + t) for t in (0, 4.9, 5.0, 9.9, 10.0, 15.0)] == [True, True, False, False, True, False]
    assert not serve_bench.Phases(False, start=100.0).busy(101.0)


def test_the_command_prints_json_and_refuses_a_bad_pace() -> None:
    runner = CliRunner()
    out = runner.invoke(main, ["bench", "serve", "--tables", "1", "--clients", "1", "--seconds", "2", "--no-busy",
                               "--pace", "50-100", "--delay", "50", "--json"])
    assert out.exit_code == 0, out.output
    r = json.loads(out.stdout)
    assert "busy" not in r and r["even"]["latency_ms"]["n"] > 0
    assert r["logins"]["n"] == 20
    bad = runner.invoke(main, ["bench", "serve", "--pace", "500-200"])
    assert bad.exit_code == 2 and "is not MIN-MAX milliseconds" in bad.output


def test_the_ratio_interval_is_drawn_over_whole_turns() -> None:
    calm = [0.010 + i / 100000 for i in range(100)]
    twice = [2 * x for x in calm]
    assert serve_bench.ratio_interval({0: twice, 1: calm, 2: twice, 3: calm}, seed=1) == [2.0, 2.0]
    # One slow calm turn among three: some draws have it twice, some not at all.
    low, high = serve_bench.ratio_interval({0: calm, 1: calm, 2: calm, 3: twice, 4: calm, 5: calm}, seed=1)
    assert low < 1.0 and high == 1.0
    assert serve_bench.ratio_interval({0: calm, 1: calm}, seed=1) is None      # one turn each: no interval


def test_people_idle_in_the_lobby_stay_connected_through_the_run_and_their_bytes_are_counted() -> None:
    r = serve_bench.run(1, 1, seconds=3, busy=False, pace_ms=(60, 120), delay_ms=50, seed=5, logins=0, lobby=4)
    assert (r["lobby"], r["online"]) == (4, 5)
    even = r["even"]
    check_run(even, 1, busy=False)
    # The four stayed the whole run (none dropped), each with its own key; what their lobby cost them.
    assert even["lobby_people"] == 4 and even["dropped"] == 0
    idle = even["bytes_per_s_per_lobby_person"]
    assert 0 <= idle["mean"] <= idle["max"]
    text = serve_bench.report(r)
    assert "4 more people idle in the lobby (5 online)" in text
    assert "bytes/s per person idle in the lobby" in text


def test_expert_computers_at_every_table_are_played_and_their_cpu_is_reported() -> None:
    """Issue 20, section 3: the bench can put Expert computers at every table and says the CPU they use."""
    r = serve_bench.run(2, 1, seconds=3, busy=False, pace_ms=(60, 120), delay_ms=50, seed=7, logins=0,
                        level="expert")
    assert (r["level"], r["computers_per_table"]) == ("expert", 3)
    check_run(r["even"], 2, busy=False)
    if os.path.exists("/proc/self/stat"):
        assert r["even"]["computers_cpu_s"] > 0       # the Experts thought in the server's workers
    # The tables played on: the computers' moves are in the tables' files.
    assert r["even"]["table_actions"] > 0 and r["even"]["actions_per_table_per_min"] > 0
    text = serve_bench.report(r)
    assert "3 expert computer(s) at every table" in text
    assert "of which the computers" in text
    assert f"{r['even']['table_actions']} actions at the tables" in text


def test_an_unknown_computer_level_is_refused_before_a_server_starts() -> None:
    result = CliRunner().invoke(main, ["bench", "serve", "--level", "oracle"])
    assert result.exit_code == 2 and "oracle" in result.output


def test_the_probe_finds_the_hand_under_a_hint_of_two_rows() -> None:
    """A hint of two rows moves the hand up a row (the log line's): the bench's probe reads the
    hand's rows where they are, so a cursor key there is still answered, not counted lost."""
    from types import SimpleNamespace

    from canasta_tui.ui.canvas import UNICODE
    from tests.ui.helpers import client, render, session

    ctl = client(session())
    for note in ("", "Bartholomew, 10 s are left of your turn: after that a computer plays this turn for "
                     "you and gives your seat back after it"):
        ctl.client.turn_note = note
        text = render(ctl, serve_bench.WIDTH, serve_bench.HEIGHT).text()
        stub = SimpleNamespace(screen=SimpleNamespace(rows=[list(line.ljust(serve_bench.WIDTH)) for line in
                                                            text.split("\n")]))
        *cards, marks = serve_bench.Player._hand_rows(stub)  # type: ignore[arg-type]
        assert UNICODE.cursor in marks and any(c.strip() for c in cards), text
