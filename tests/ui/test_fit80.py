"""Nothing that matters is cut at 80 columns (the issue "What players, a club and the test suite
still trip on", section 1): the replay's header keeps its move count, a table's code and a lobby
row's "(rated)" stay whole, a notice (an admin's close, a backup's file name) wraps instead of
running off the edge.  Golden screens at 80x24 and 120x40 show the full text."""

from __future__ import annotations

import pytest

from canasta_tui.lobbyview import Access
from canasta_tui.table.replay import MatchReplay, ReplaySource
from canasta_tui.ui.canvas import ASCII_OPTIONS, DEFAULT_OPTIONS, Canvas, Options, first_fit, fit_middle, put_lines_up, wrap
from canasta_tui.ui.replay import ReplayPage

from .helpers import check_golden
from .pages_helpers import finished_match, screen, typ
from .test_lobby import FORMING, OVER, PLAYING, FakeLobby, lobby

#: Where a screen is looked at: the smallest terminal, in ASCII too, and a roomy one.
SIZES = [("80x24", 80, 24, DEFAULT_OPTIONS), ("80x24_ascii", 80, 24, ASCII_OPTIONS), ("120x40", 120, 40, DEFAULT_OPTIONS)]

BACKUP = "/home/bartholomew/.local/state/canasta/autosave.backup-20261127-125200.json"
CLOSED = "Table 3 was closed by an admin: the players asked for it, it was late; the server keeps its game"


def test_a_word_too_long_for_a_line_is_broken_not_cut() -> None:
    lines = wrap(f"The unfinished game was kept as {BACKUP} (Load in the start menu lists it).", 50)
    assert all(len(line) <= 50 for line in lines)
    assert "".join(line.strip() for line in lines).replace(" ", "") == \
        f"The unfinished game was kept as {BACKUP} (Load in the start menu lists it).".replace(" ", "")
    # A path breaks after a slash, so it still reads as a path.
    assert any(line.strip().endswith("/") for line in lines)


def test_the_fitting_helpers_keep_what_matters() -> None:
    assert first_fit(["hand 3  1&3: 1,250 (rated)", "hand 3 (rated)"], 20) == "hand 3 (rated)"
    assert first_fit(["a long line"], 6, "~") == "a lon~"
    # The middle (a title) gives way; the head and the tail (the counts) show whole.
    assert fit_middle(" REPLAY — ", "a very long title of a saved game", " — move 110 of 118", 40, "…") == \
        " REPLAY — a very long… — move 110 of 118"
    cv = Canvas(30, 5)
    assert put_lines_up(cv, 4, 1, "a notice too long for one row of this canvas") == 3
    assert cv.lines()[3].strip() == "a notice too long for one" and cv.lines()[4].strip() == "row of this canvas"


def replay_page(title: str) -> ReplayPage:
    m = finished_match(7, target=1500)
    return ReplayPage(ReplaySource(MatchReplay(m), ("Ann", "Cy", "Bob", "Di"), (True, False, True, False), title))


@pytest.mark.parametrize(("size", "width", "height", "opts"), SIZES)
def test_the_replay_header_keeps_the_move_count(size: str, width: int, height: int, opts: Options) -> None:
    """At 80 columns "move 0 of 73" lost its end ("move 0 of 7"): the title gives way instead."""
    page = replay_page(BACKUP.rsplit("/", 1)[1])
    moves = len(page.steps) - 1
    typ(page, "end")
    text = page.paint(width, height, opts).text()
    check_golden(f"fit80_replay_{size}.txt", text)
    head = text.split("\n")[0]
    assert f"hand 1 of {page.game.hand_count}, move {moves} of {moves}" in head
    assert "1&3: " in head and "2&4: " in head


def club_lobby() -> FakeLobby:
    forming = FORMING._replace(id=12, creator="Bartholomew", access=Access.CODE, rated=True, code="K3M9QX",
                               created_by_me=True, my_seat=0)
    over = OVER._replace(rated=True, winner="ann & Bartholomew won")
    return FakeLobby((PLAYING._replace(rated=True, paused=True), forming, over))


@pytest.mark.parametrize(("size", "width", "height", "opts"), SIZES)
def test_lobby_rows_the_code_and_a_notice_fit(size: str, width: int, height: int, opts: Options) -> None:
    page = lobby(club_lobby())
    page.selected = 12
    page.notify(CLOSED)
    text = page.paint(width, height, opts).text()
    check_golden(f"fit80_lobby_{size}.txt", text)
    rows = text.split("\n")
    # Every table's row keeps its kind, the chosen table's heading its code, the notice every word.
    assert sum(row.rstrip().endswith("(rated)") for row in rows[2:5]) == 2
    assert any("(private, rated)" in row for row in rows[2:5])
    assert any("Table 12 - code K3M9QX" in row.replace("—", "-") for row in rows)
    assert " ".join(" ".join(rows[-4:-1]).split()).endswith(CLOSED.split(": ", 1)[1])


def test_a_notice_of_a_backup_in_a_box_shows_the_whole_file_name() -> None:
    from canasta_tui.ui.canvas import draw_box

    cv = Canvas(80, 24)
    lines = wrap(f"The unfinished game was kept as {BACKUP} (Load in the start menu lists it).", 70)
    draw_box(cv, "", lines)
    shown = "".join(line.strip(" │") for line in cv.text().split("\n"))
    assert BACKUP in shown.replace(" ", "")


def test_a_page_message_at_80_columns() -> None:
    page = replay_page("a game")
    page.say(CLOSED)
    text = screen(page)
    assert " ".join(" ".join(text.split("\n")[-4:-1]).split()).endswith("the server keeps its game")


def test_the_log_scrolls_with_its_keys_in_its_footer() -> None:
    """The log (g) showed only its newest lines: Up/PgUp/Home now reach the first, the footer says
    which lines are shown and which keys scroll, and any other key closes it."""
    from canasta_tui.ui.dialogs import Log

    from .helpers import client, drive, render, session

    ctl = client(session(seed=5))
    drive(ctl, lambda c: len(c.client.log_lines()) > 40)
    ctl.key("g")
    assert isinstance(ctl.client.dialog, Log)
    text = render(ctl, 80, 24).text()
    check_golden("fit80_log_80x24.txt", text)
    assert "Up/Down PgUp/PgDn Home/End: scroll" in text and "any other key closes" in text
    first = ctl.client.log_lines()[0][1]
    assert first not in text
    ctl.key("home")
    text = render(ctl, 80, 24).text()
    assert first in text and "lines 1-15 of" in text
    ctl.key("down")
    assert "lines 2-16 of" in render(ctl, 80, 24).text()
    ctl.key("end")
    newest = render(ctl, 80, 24).text()
    n = int(newest.split(" of ")[1].split()[0])
    assert f"lines {n - 14}-{n} of {n}" in newest
    ctl.key("x")
    assert ctl.client.dialog is None


def test_a_watcher_leaving_is_not_told_a_computer_plays_their_seat() -> None:
    from types import SimpleNamespace

    from canasta_tui.ui.dialogs import quit_note

    watcher = SimpleNamespace(remote=True, view=lambda: SimpleNamespace(seat=-1))
    player = SimpleNamespace(remote=True, view=lambda: SimpleNamespace(seat=2), leave_note=())
    assert quit_note(watcher) == ["You are watching: the table plays on without you."]    # type: ignore[arg-type]
    assert "A computer plays your seat" in quit_note(player)[0]                          # type: ignore[arg-type]


def test_the_score_sheet_names_the_dealer_as_the_table_does() -> None:
    """At a table of named people the sheet's dealer is their name, not "Player 2"."""
    from canasta_tui.ui.texts import SHEET_WIDTH, sheet_lines

    m = finished_match(7, target=1500)
    names = ("Ann", "Bartholomew", "Bob", "Di")
    lines = sheet_lines(m.rules, m.sheet, m.scores, 20, names)
    assert not any("Player" in line for line in lines)
    rows = lines[2:2 + len(m.sheet)]
    assert [row.split()[1] for row in rows] == [names[rec.dealer] for rec in m.sheet]
    assert max(map(len, lines)) <= SHEET_WIDTH
    assert lines[1].split() == ["Hand", "Dealer", "bonus", "net", "total", "bonus", "net", "total"]


def test_the_lobby_names_the_winners_of_a_table_of_named_people() -> None:
    """The lobby said "Players 2 & 4 won" at a table of ann, bob, cy and di."""
    from canasta_tui.server.tables.server_table import ServerTable
    from canasta_tui.table import COMPUTER, REMOTE, Seat, Table

    m = finished_match(7, target=1500)
    assert m.winner is not None
    named = tuple(Seat(REMOTE, n) for n in ("ann", "bob", "cy", "di"))
    st = ServerTable(None, 1, m.rules, "advanced", "ann", 7, table=Table(m.rules, named, 7, match=m))  # type: ignore[arg-type]
    want = ("ann & cy", "bob & di")[m.winner]
    assert st.winner_text() == f"{want} won"
    computers = tuple(Seat(COMPUTER) for _ in range(4))
    st = ServerTable(None, 1, m.rules, "advanced", "ann", 7, table=Table(m.rules, computers, 7, match=m))  # type: ignore[arg-type]
    assert st.winner_text() == f"Players {('1 & 3', '2 & 4')[m.winner]} won"


@pytest.mark.parametrize(("size", "width", "height", "opts"), SIZES)
def test_a_long_status_line_wraps_above_the_command_bar(size: str, width: int, height: int, opts: Options) -> None:
    """The hint line at the table takes the row above it when its text is longer than the screen
    is wide (a turn timer's warning at a table of named people), rather than losing its end."""
    from canasta_tui.presets import load_rules
    from canasta_tui.table import Table, seats_for

    from .helpers import client, render

    r = load_rules("classic")
    ctl = client(Table(r, seats_for(1, "beginner", name="Bartholomew")[: r.players], 5))
    assert ctl.client.my_turn()
    note = ("Bartholomew, 10 s are left of your turn: after that a computer plays this turn for you "
            "and gives your seat back after it")
    ctl.client.turn_note = note
    text = render(ctl, width, height, opts).text()
    check_golden(f"fit80_status_{size}.txt", text)
    rows = text.split("\n")
    assert " ".join(" ".join(rows[-3:-1]).split()).endswith(note)
    assert "[D]raw" in rows[-1]


def test_the_summary_s_match_line_keeps_both_scores_with_long_names() -> None:
    from canasta_tui.engine import public_view
    from canasta_tui.ui.texts import summary_table

    m = finished_match(7, target=1500)
    names = ["Alexandrina Vasquez", "Bartholomew Smythe", "Constantine Papado", "Dorothea Wilhelmina"]
    rec = m.sheet[-1]
    lines = summary_table(public_view(m.state), m.state.hands, rec, names, 80, 24)
    match = next(line for line in lines if line.startswith("Match: "))
    assert len(match) <= 80 and all(f": {t:,}" in match for t in rec.totals), match
    assert "Alexandri" in match and "Dorothea" in match


@pytest.mark.parametrize(("size", "width", "height", "opts"), SIZES)
def test_the_backup_s_file_name_shows_whole_in_the_menu_s_notice(size: str, width: int, height: int,
                                                                  opts: Options) -> None:
    """A new game keeps the unfinished one as a backup and says where: the file's name was cut at 80."""
    from canasta_tui.ui.dialogs import Info

    box = Info("Notice", [f"The unfinished game was kept as {BACKUP} (Load in the start menu lists it)."])
    cv = Canvas(width, height)
    cv.glyphs = opts.glyphs
    box.draw(cv, None, opts)
    text = cv.text()
    check_golden(f"fit80_backup_{size}.txt", text)
    inside = "".join(line.strip().strip("│|").strip() for line in text.split("\n"))
    assert BACKUP in inside


def test_a_three_player_score_sheet_fits_its_box_at_80_columns() -> None:
    from canasta_tui.ui.texts import SHEET_WIDTH, sheet_lines

    from .helpers import session

    t = session(players=0, rules="three-player", seed=4)
    for _ in range(5000):
        if len(t.match.sheet) >= 2 or not t.step():
            break
    assert len(t.match.sheet) >= 2
    names = ["Alexandrina", "Bartholomew", "Constantine"]
    lines = sheet_lines(t.match.rules, t.match.sheet, t.match.scores, 20, names)
    assert max(map(len, lines)) <= SHEET_WIDTH
    assert all(f"{total:,}" in lines[-2] for total in t.match.scores)
    assert lines[1].split()[2:] == ["bonus", "net", "total"] * 3


def test_a_draw_that_leaves_the_hand_as_it_was_is_not_drew_0_cards() -> None:
    """The last card of the stock a red three: it is laid out with nothing to replace it, and the
    log said "Ann drew 0 cards"."""
    from canasta_tui.table.events import DREW, Event, describe

    assert describe(Event(1, 1, DREW, 0, amount=0), lambda s: "Ann") == "Ann drew"
    assert describe(Event(1, 1, DREW, 0, amount=2), lambda s: "Ann") == "Ann drew 2 cards"


def test_a_box_wraps_a_line_wider_than_itself() -> None:
    """Every dialog box draws through draw_box: a line wider than the box wraps inside it."""
    from canasta_tui.ui.canvas import draw_box

    cv = Canvas(80, 24)
    long = "word " * 30 + "END"
    draw_box(cv, "Box", [long], width=40)
    inside = " ".join(line.strip().strip("│").strip() for line in cv.text().split("\n") if "│" in line)
    assert " ".join(inside.split()) == " ".join(long.split())
    assert all(len(line) <= 80 for line in cv.lines())
