"""Defects QA found in the lobby's text at 80 columns (``canasta serve`` over OpenSSH)."""

from __future__ import annotations

from canasta_tui.lobbyview import Access, SeatInfo, SeatState, TableRow, TableState
from canasta_tui.ui.canvas import DEFAULT_OPTIONS
from canasta_tui.ui.lobby import _row

from .test_lobby import FakeLobby, lobby

#: Alice's table as Bob sees it: with a code (private), watchers not allowed, rated; 1 of 4 seated.
PRIVATE = TableRow(13, "classic", "advanced", 5000, TableState.FORMING,
                   (SeatInfo(SeatState.HUMAN, "alice", verified=True), SeatInfo(SeatState.FREE),
                    SeatInfo(SeatState.FREE), SeatInfo(SeatState.FREE)), "alice", False, None,
                   access=Access.CODE, watchable=False, rated=True)


def rows_of(*tables: TableRow, width: int = 80) -> list[str]:
    page = lobby(FakeLobby(tables))
    page.selected = -1
    return [line.rstrip() for line in page.paint(width, 24, DEFAULT_OPTIONS).text().split("\n")[2:2 + len(tables)]]


def test_a_lobby_row_keeps_the_tables_kind_rated_first_when_it_does_not_fit_whole() -> None:
    """QA: "Bob's lobby row: '13  classic  advanced  to 5,000  1 of 4 seated': the kind is gone
    although 27 columns are free"."""
    assert rows_of(PRIVATE) == ["   13  classic      advanced  to 5,000  forming: 1 of 4 seated (private, rated)"]
    # In less room (the row's text alone): "private" gives way before "rated", "rated" goes last.
    assert _row(PRIVATE, 68) == " 13  classic      advanced  to 5,000  1 of 4 seated (private, rated)"
    assert _row(PRIVATE, 60) == " 13  classic      advanced  to 5,000  1 of 4 seated (rated)"
    assert all(len(_row(PRIVATE, width)) <= width for width in range(40, 120))
    # Where the whole kind fits, it is all said.
    assert rows_of(PRIVATE._replace(rated=False))[0].endswith(" 1 of 4 seated (private, not watched)")
    assert _row(PRIVATE, 120).endswith("forming: 1 of 4 seated, alice starts it (private, not watched, rated)")
