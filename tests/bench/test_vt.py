"""The benchmark's small terminal screen reads what canasta serve sends exactly as pyte does."""

from __future__ import annotations

import pyte

from canasta_tui.bench.vt import VtScreen
from tests.server.helpers import Term, create_table, run, serving


def pyte_text(screen: pyte.Screen) -> str:
    return "\n".join(line.rstrip() for line in screen.display)


def test_the_lobby_and_a_table_read_the_same_as_with_pyte_after_every_piece() -> None:
    async def main() -> list[str]:
        async with serving() as srv:
            t = await Term.connect(srv.port, "alice")
            await t.wait_for("No tables yet")
            await create_table(t)
            await t.press("s", "Your hand (11 cards)")
            await t.press("d", "Your hand (12 cards)")
            await t.press("l", lambda s: True)
            await t.press("?", "Esc/q back")           # the help pages: the whole screen changes
            await t.press("q", "Your hand (12 cards)")
            await t.close()
        return t.raw
    pieces = run(main())
    ref = pyte.Screen(80, 24)
    stream = pyte.Stream(ref)
    vt = VtScreen(80, 24)
    for piece in pieces:
        stream.feed(piece)
        vt.feed(piece)
        assert vt.text() == pyte_text(ref)
    assert "Your hand (12 cards)" in vt.text()


def test_an_escape_sequence_cut_in_two_waits_for_its_end() -> None:
    vt = VtScreen(20, 3)
    for piece in ("ab\x1b", "[2;5", "Hxy\x1b[", "1;1Hz\x1b[K"):
        vt.feed(piece)
    assert vt.lines() == ["z", "    xy", ""]


def test_no_wrap_the_last_column_takes_what_overflows() -> None:
    vt = VtScreen(5, 2)
    vt.feed("abcdefg\r\nxy\x1b[2Dz")
    assert vt.lines() == ["abcdg", "zy"]
