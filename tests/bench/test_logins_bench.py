"""canasta bench logins runs for real at a tiny size: a real canasta serve process, SSH logins
that each see the lobby and close, and the server's memory read before, after and later.  No
figure is asserted (the machine is shared): tests/server/test_memory.py holds the server to
giving back what closed connections left."""

from __future__ import annotations

import json
import os

from click.testing import CliRunner

from canasta_tui.bench import logins_bench
from canasta_tui.cli import main


def test_a_few_logins_and_the_memory_figures() -> None:
    r = logins_bench.run(6, at_once=2, settle_s=0.5)
    assert (r["logins"], r["at_once"]) == (6, 2)
    assert r["logins_per_s"] > 0
    assert r["server_exit"] == 0                     # SIGTERM: the server ended by itself
    if os.path.exists("/proc/self/status"):
        assert all(r[k] > 0 for k in ("rss_listening_mb", "rss_start_mb", "rss_after_mb", "rss_settled_mb"))
    text = logins_bench.report(r)
    for words in ("6 logins over SSH (2 at once)", "logins/s", "server memory (RSS)", "warm-up logins", "0.5 s later"):
        assert words in text, words


def test_the_command_prints_json() -> None:
    result = CliRunner().invoke(main, ["bench", "logins", "--logins", "2", "--at-once", "1", "--settle", "0", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output.strip().splitlines()[-1])
    assert figures["logins"] == 2
