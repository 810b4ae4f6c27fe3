"""A damaged people store is said loudly, and a multi-line message of the day shows as lines (the
issue "What players, a club and the test suite still trip on", section 2), over real SSH.

A ``people.sqlite`` that cannot be read is kept under another name and the server starts an empty
store: every reserved name, ban and rating is gone.  The log says so as an error, in those words,
and every admin's lobby says so above the tables (the host may not read the log); nobody else's.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from .helpers import Term, fingerprint_of, run, serving


def test_a_damaged_people_store_is_said_loudly_to_the_log_and_the_admins(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="canasta.server")
    (tmp_path / "people.sqlite").write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)

    async def main() -> None:
        async with serving(directory=tmp_path, admins=frozenset({fingerprint_of("alice")})) as srv:
            alice = await Term.connect(srv.port, "alice")
            bob = await Term.connect(srv.port, "bob")
            text = await alice.wait_for("Tables")
            assert "People store damaged: it started empty; names, bans, ratings are gone (see log)" in text
            text = await bob.wait_for("Tables")
            assert "damaged" not in text
            for t in (alice, bob):
                await t.close()
    run(main(), timeout=60)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("The new store is EMPTY" in m and "every reserved name, ban, rating" in m and "people.corrupt-" in m
               for m in errors), errors
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("people.corrupt-")]


def test_a_message_of_the_day_of_several_lines_shows_them_as_lines() -> None:
    async def main() -> None:
        async with serving(motd="Club night is Thursday\nRated tables from 8 pm") as srv:
            ann = await Term.connect(srv.port, "ann")
            await ann.wait_for("Tables")
            assert ann.line(1).strip() == "Club night is Thursday"
            assert ann.line(2).strip() == "Rated tables from 8 pm"
            assert "\\n" not in ann.text()
            await ann.close()
    run(main(), timeout=60)
