"""A table that cannot be saved (a full disk) plays on, and its players are told: once when saving
stops working, once when it works again; never at every move."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from canasta_tui.engine import Match
from canasta_tui.persistence.saves import SaveError
from canasta_tui.server.tables import store

from .helpers import in_log, run, serving, settle, two_at_a_table

CANNOT = "This table cannot be saved right now (No space left on device): play on, but a restart"
AGAIN = "This table is saved again: a restart would lose nothing"


def shown(screen: str, text: str) -> int:
    """How many lines of the table's log (the ``g`` box on ``screen``) hold ``text``."""
    lines = screen.split("\n")
    top = next(i for i, line in enumerate(lines) if "Table log" in line)
    end = next(i for i, line in enumerate(lines) if "any other key closes" in line)
    return sum(text in line for line in lines[top:end])


def test_the_players_are_told_once_that_their_table_cannot_be_saved_and_once_that_it_can_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    full = [False]
    write = store.write_save

    def write_save(path: Path, match: Match, meta: dict[str, Any] | None = None) -> Path:
        if full[0]:      # what atomic_write_text raises when the disk is full
            raise SaveError(path, "cannot write: No space left on device")
        return write(path, match, meta)

    monkeypatch.setattr(store, "write_save", write_save)

    async def main() -> None:
        async with serving(takeover=60) as srv:
            alice, bob = await two_at_a_table(srv)
            table = srv.registry.tables[1].table
            assert table is not None
            await settle(srv, lambda: srv.store.flush(0.1))
            full[0] = True
            await alice.press("d", "Your hand (12 cards)")
            for t in (alice, bob):
                await t.wait_for(in_log("This table cannot be saved right now"))
            # Alice discards, the computer of seat 2 plays: every move fails to be saved, told once.
            await alice.press("c", "Your hand (11 cards)")
            await bob.wait_for(lambda s: "[D]raw" in s.split("\n")[-1])
            assert srv.store.failures >= 3
            full[0] = False
            await bob.press("d", "Your hand (12 cards)")
            for t in (alice, bob):
                await t.wait_for(in_log(AGAIN))
                # The table's whole log (g): each said once, with the moves between them.
                screen = await t.press("g", "Table log")
                assert shown(screen, "This table cannot be saved right now") == 1, screen
                assert shown(screen, AGAIN) == 1, screen
                assert shown(screen, "alice discarded") == 1, screen
                await t.press("x", lambda s: "Table log" not in s)
            notices = [line.text for line in table.chat]
            assert [n for n in notices if n.startswith("This table")] == [
                CANNOT + " would lose the moves since", AGAIN]
            for t in (alice, bob):
                await t.close()
    run(main())
