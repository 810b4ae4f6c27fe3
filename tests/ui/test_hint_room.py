"""A hint line of two rows never covers the hand's mark row (QA at the local table: "a hint or
status that wraps to two lines is drawn over the hand's mark row ... so the cursor is
invisible").  The hand moves up a row into the log line's place, and the latest move goes to
the log in the centre, so nothing on the screen is lost; at 80x24 and at 120x40."""

from __future__ import annotations

import pytest

from canasta_tui.ui.canvas import DEFAULT_OPTIONS, wrap
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.render import table_layout
from canasta_tui.ui.tutorial import first_game_table, guided

from .helpers import client, render, session

SIZES = [(80, 24), (120, 40)]
NOTE = ("Bartholomew, 10 s are left of your turn: after that a computer plays this turn for you "
        "and gives your seat back after it")


def long_note(width: int) -> str:
    """A hint of two rows at ``width``."""
    note = NOTE if width < 120 else NOTE + ", and a few more words so it wraps at 120 columns"
    assert len(wrap(note, width)) == 2
    return note


def marks_row(text: str) -> int:
    """The row of the hand's marks: the one row holding the cursor's ▲."""
    rows = [i for i, line in enumerate(text.split("\n")) if DEFAULT_OPTIONS.glyphs.cursor in line]
    assert len(rows) == 1, text
    return rows[0]


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_two_row_hint_leaves_the_cursor_and_the_new_card_mark_in_sight(width: int, height: int) -> None:
    ctl = client(session())
    ctl.key("d")                                   # a card drawn: the "+" mark of a new card
    ctl.key("right")
    ctl.client.turn_note = note = long_note(width)
    text = render(ctl, width, height).text()
    rows = text.split("\n")
    m = marks_row(text)
    assert DEFAULT_OPTIONS.glyphs.new in rows[m]
    # The two rows of the hint are the two above the command bar, whole, under the marks.
    assert m == height - 4
    assert " ".join(" ".join(rows[-3:-1]).split()) == note
    assert "Draw" in rows[-1] and "Help" in rows[-1]
    # The hand's heading and its cards are all there, above the marks.
    heading = next(i for i, line in enumerate(rows) if "Your hand (12 cards)" in line)
    assert m - 5 <= heading <= m - 3


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_latest_move_goes_to_the_centre_s_log_while_the_hand_has_its_row(width: int, height: int) -> None:
    ctl = client(session())
    ctl.key("d")                                   # the person's draw: the latest move, on the log line
    row = table_layout(width, height).log_row
    latest = render(ctl, width, height).text().split("\n")[row].replace("g: log", "").strip()
    assert latest
    ctl.client.turn_note = long_note(width)
    text = render(ctl, width, height).text()
    centre = table_layout(width, height).centre
    log = " ".join(line[centre.x:centre.x + centre.w].strip() for line in text.split("\n")[1:row])
    assert latest in log
    assert "g: log" not in text                    # (its row is the hand's now)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_one_row_hint_keeps_the_log_line(width: int, height: int) -> None:
    ctl = client(session())
    text = render(ctl, width, height).text()
    assert "g: log" in text
    assert marks_row(text) == height - 3


def test_the_first_game_s_second_step_shows_the_cursor_at_80x24() -> None:
    """The repro: `f` (the first game), `d`: "Step 2 of 10, ... Cursor on an Ace, then m" and no ▲."""
    ctl: Controller = guided(first_game_table("Ann"))
    try:
        ctl.key("d")
        text = render(ctl, 80, 24).text()
        assert "Step 2 of 10" in text and "Cursor on an Ace, then m" in text.replace("\n  ", " ")
        m = marks_row(text)
        rows = text.split("\n")
        assert rows[m].strip().startswith(DEFAULT_OPTIONS.glyphs.cursor)
        assert "Step 2 of 10" not in rows[m]
    finally:
        ctl.client.link.close()


@pytest.mark.parametrize(("scores", "want"), [((740, 2985), ("740, needs 50", "2,985, needs 90")),
                                              ((-1250, 12345), ("-1,250, needs 50", "12,345, needs 120"))])
def test_a_side_s_score_stays_in_its_quadrant_footer_at_80_columns(scores: tuple[int, int],
                                                                   want: tuple[str, str]) -> None:
    """QA: at 80 columns `└─ 2&4: needs 90 ──┘` next to `1&3: 740, needs 50`: a score of 4 digits
    dropped out of its footer.  The score stays in every footer; the side's name gives way."""
    import dataclasses

    from canasta_tui.ui.render import render as draw

    ctl = client(session())
    snap = ctl.snapshot()
    v = snap.view
    reqs = tuple(50 if s < 1500 else 90 if s < 3000 else 120 for s in scores)
    snap = dataclasses.replace(snap, scores=scores, view=v._replace(requirements=reqs))
    for width, height in SIZES:
        text = draw(snap, width, height).text()
        rows = text.split("\n")
        footers = [rows[i] for i in (8, 16)] if width == 80 else [rows[i] for i in range(1, 35) if "needs" in rows[i]]
        for side, form in enumerate(want):
            assert any(form in line for line in footers), (side, footers)
        if width > 80:
            assert "2&4: " + want[1] in text and "1&3: " + want[0] in text


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_windows_rules_empty_stock_line_leaves_the_cursor_in_sight(width: int, height: int) -> None:
    """The second repro: `--rules windows` with an empty stock, "Your turn: the stock is exhausted:
    p puts the upcard on your meld (the pile" / "  stays)" over the ▲ (81 characters at 80)."""
    from canasta_tui.engine import CLASSIC, Phase
    from tests.ai.helpers import position

    s = position({0: "7h 7s 8s 9c"}, melds={0: ["5c 5h 5d"]}, phase=Phase.DRAW, pile="5s", stock=0)
    t = session()
    t.match = t.match._replace(state=s._replace(rules=CLASSIC.replace(stock_exhausted="top_card")))
    ctl = client(t)
    text = render(ctl, width, height).text()
    assert "p puts the upcard on your meld (the pile stays)" in " ".join(text.split())
    rows = text.split("\n")
    m = marks_row(text)
    assert rows[m].strip() == DEFAULT_OPTIONS.glyphs.cursor and "stays" not in rows[m]
