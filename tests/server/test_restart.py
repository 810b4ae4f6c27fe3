"""Nothing lost: every table is autosaved after every move, and a server started again (after a
clean stop, or ``kill -9``) brings its tables back; their players' seats wait for them."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys
from pathlib import Path

from canasta_tui.persistence import paths
from canasta_tui.persistence.saves import read_record

from .helpers import WAIT, Term, create_table, fingerprint_of, run, serving, settle, two_at_a_table


def table_file(n: int = 1) -> Path:
    return paths.data_dir() / "server" / "tables" / f"{n}.json"


def test_a_restarted_server_brings_its_tables_back_and_seats_wait_for_their_players() -> None:
    async def main() -> None:
        async with serving(takeover=60) as srv:
            alice, _ = await two_at_a_table(srv)
            await alice.wait_for("Your hand (11 cards)")
            await alice.press("d", "Your hand (12 cards)")
            table = srv.registry.tables[1].table
            assert table is not None
            hand_before = table.view(0).hand
            await settle(srv, lambda: srv.store.flush(0.1) and table_file().exists())
            saved = read_record(table_file())
            assert saved.meta["seats"] == ["remote", "computer", "remote", "computer"]
            assert saved.meta["server"]["keys"] == [f"key:{fingerprint_of('alice')}", "", f"key:{fingerprint_of('bob')}", ""]
            assert [str(a) for a in saved.match.log[-1]] == ["draw"]
        # The server stopped: both were told, and their connections closed.
        await alice.wait_closed()
        assert "The server is shutting down: your table is saved" in alice.received()
        async with serving(takeover=60) as srv:
            st = srv.registry.tables[1]
            assert st.table is not None and st.table.view(0).hand == hand_before
            assert [s.kind for s in st.table.seats] == ["remote", "computer", "remote", "computer"]
            dave = await Term.connect(srv.port, "dave")
            lobby = await dave.wait_for("1  alice✓: away")
            assert "3  bob✓: away" in lobby and "hand 1" in lobby
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("Your hand (12 cards)")       # straight back to her seat, mid-turn
            await alice.press("x", "Dis[c]ard")
            for t in (alice, dave):
                await t.close()
            # A new table gets the next number.
            erin = await Term.connect(srv.port, "erin")
            await create_table(erin)
            assert sorted(srv.registry.tables) == [1, 2]
            await erin.close()
    run(main())


async def start() -> tuple[asyncio.subprocess.Process, int]:
    """The real ``canasta serve`` (its own process, this test's home); its port."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", "from canasta_tui.cli import main; main()", "serve", "--open", "--port", "0",
        "--delay", "0", "--seed", "3", stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE, env=os.environ.copy())
    assert proc.stderr is not None
    while True:
        line = (await asyncio.wait_for(proc.stderr.readline(), WAIT)).decode()
        assert line, "the server ended before it listened"
        m = re.search(r"ssh -p (\d+) ", line)
        if m:
            return proc, int(m.group(1))


def test_ctrl_c_stops_a_server_that_players_have_left() -> None:
    """Reproduction: each player's app took SIGINT while it ran and, when it ended, removed the
    handler, the server's own with it: Ctrl-C did nothing (the server had to be killed)."""
    async def main() -> None:
        proc, port = await start()
        try:
            alice = await Term.connect(port, "alice")
            await alice.wait_for("No tables yet")
            await alice.close()
            await asyncio.sleep(0.2)
            proc.send_signal(signal.SIGINT)
            await asyncio.wait_for(proc.wait(), WAIT)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        assert proc.returncode == 0
    run(main())


def test_kill_9_loses_no_move() -> None:
    """The real program, killed: every move it answered is in the table's file, and the next
    ``canasta serve`` plays on from it."""
    async def main() -> None:
        proc, port = await start()
        try:
            alice = await Term.connect(port, "alice")
            await alice.wait_for("No tables yet")
            await create_table(alice)
            await alice.press("s", "Your hand (11 cards)")
            await alice.press("d", "Your hand (12 cards)")
            shown = alice.text().split("\n")[-4]          # the hand row

            def saved_draw() -> bool:
                try:
                    return json.loads(table_file().read_text())["hands"][0]["actions"] == ["draw"]
                except (OSError, ValueError, KeyError):
                    return False
            for _ in range(int(WAIT / 0.02)):
                if saved_draw():
                    break
                await asyncio.sleep(0.02)
            assert saved_draw()
        finally:
            proc.send_signal(signal.SIGKILL)
            await proc.wait()
        await alice.wait_closed()
        proc, port = await start()
        try:
            alice = await Term.connect(port, "alice")
            screen = await alice.wait_for("Your hand (12 cards)")
            assert screen.split("\n")[-4] == shown
            await alice.close()
        finally:
            proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(proc.wait(), WAIT)
        assert proc.returncode == 0
    run(main())


def test_a_table_file_that_cannot_be_loaded_is_set_aside_and_the_server_starts() -> None:
    directory = table_file().parent
    directory.mkdir(parents=True)
    (directory / "7.json").write_text('{"format": "canasta-save", "hands": [')

    async def main() -> None:
        async with serving() as srv:
            assert srv.registry.tables == {}
            assert srv.registry.next_id == 8             # numbers are never used twice
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            await alice.close()
    run(main())
    kept = [p.name for p in directory.iterdir()]
    assert "7.json" not in kept and any(n.startswith("7.corrupt-") for n in kept)
