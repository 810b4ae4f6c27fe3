"""Issue 12: the help pages (F1, ?) and the statistics screen by keys; both in the game too."""

from __future__ import annotations

import re

import pytest

from canasta_tui.persistence import stats
from canasta_tui.persistence.stores import StatsFile
from canasta_tui.presets import load_rules
from canasta_tui.table import local_link
from canasta_tui.ui.canvas import wrap
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.dialogs import Quit
from canasta_tui.ui.helppages import PAGES, HelpPage, markdown_lines
from canasta_tui.ui.keys import KEYS
from canasta_tui.ui.pages import PageDialog
from canasta_tui.ui.statistics import StatisticsPage

from .helpers import render, session
from .pages_helpers import FILES, screen, seed_statistics, typ


def help_page(page: int = 0) -> HelpPage:
    return HelpPage(load_rules("classic").replace(target_score=3000), "classic + 1 change", FILES, page=page)


def test_left_right_digits_and_tab_choose_the_page() -> None:
    page = help_page()
    assert "[1 Rules]" in screen(page) and "The rules of Canasta" in screen(page)
    typ(page, "right")
    assert "[2 How to play]" in screen(page)
    typ(page, "6")
    assert "[6 About]" in screen(page) and "canasta-tui" in screen(page)
    typ(page, "tab")                                  # round to the first
    assert "[1 Rules]" in screen(page)
    typ(page, "left")
    assert "[6 About]" in screen(page)


def test_how_to_play_lists_every_key_of_the_man_page() -> None:
    """The same list as man/canasta.6's KEYS (tests/cli/test_man.py compares that with KEYS)."""
    page = help_page(1)
    screen(page, 132, 43)
    text = "\n".join(line.text for line in page._lines)
    for k in KEYS:
        # The label, then the description on its line (or the next one, under a long label).
        assert re.search(rf"  {re.escape(k.label)}\s+{re.escape(wrap(k.description, 200)[0][:30])}", text), k.label


def test_the_scoring_page_speaks_of_the_rules_in_play() -> None:
    text = screen(help_page(2), 132, 43)
    assert "the first side to reach 3000 wins the match" in text
    assert "natural canasta (no wild card)         500" in text


def test_the_rules_page_is_rules_md_and_ends_with_the_options_in_play() -> None:
    page = help_page(0)
    screen(page)
    text = [line.text for line in page._lines]
    assert text[:2] == ["The rules of Canasta", "===================="]
    assert "The rule options in play: classic + 1 change" in text
    assert any(t.startswith("  Game: points to win the match") and t.endswith("3000 *") for t in text)
    # Options by their labels, in the text and in the list (the code names are for rules files).
    assert "Each player gets eleven cards (“Cards dealt to each player”), one at a time," in text
    assert not any(re.search(r"\b[a-z]+(_[a-z]+)+\b", t) for t in text), [t for t in text if "_" in t]
    typ(page, "end")
    end = screen(page)
    assert re.search(r"lines \d+-(\d+) of \1", end) and "Red threes need the canastas" in end
    typ(page, "home")
    assert "lines 1-18 of" in screen(page)
    typ(page, "pagedown")
    assert "lines 19-36 of" in screen(page)


def test_markdown_tables_lists_and_headings_read_as_text() -> None:
    md = "# T\n\nA **bold** `code`.\n\n* one\n  two\n\n| a | bb |\n|---|---|\n| ccc | d |\n"
    lines = [x.text for x in markdown_lines(md, 40)]
    assert lines == ["T", "=", "", "A bold `code`.", "", "  - one two", "", "  a     bb", "  ccc   d"]


def test_search_finds_the_next_line_and_says_when_there_is_none() -> None:
    page = help_page(0)
    typ(page, "/", "frozen", "enter")
    text = screen(page)
    assert '"frozen" found: n next, N previous' in text
    first = page.hit
    assert first is not None and "frozen" in page._lines[first].text.lower()
    typ(page, "n")
    assert page.hit is not None and page.hit > first
    typ(page, "N")
    assert page.hit == first
    typ(page, "/", "zebra", "enter")
    assert '"zebra" is not on this page' in screen(page)
    typ(page, "/", "x", "escape")                     # a search is left with Esc (or Tab)
    assert "Search:" not in screen(page) and not page.done


def test_help_in_the_game_holds_the_computers_and_q_returns_to_the_table() -> None:
    t = session(seed=5)
    ctl = Controller(local_link(t))
    for key in ("?", "f1"):
        ctl.key(key)
        assert ctl.client.dialog is not None and isinstance(ctl.client.dialog, PageDialog) and t.holds
        text = render(ctl, 80, 24).text()
        assert "CANASTA — Help" in text and "[1 Rules]" in text and "Stock" not in text
        ctl.key("3")
        assert "[3 Scoring]" in render(ctl, 80, 24).text()
        ctl.key("q")
        assert ctl.client.dialog is None and not t.holds and not ctl.quitting


def test_ctrl_c_in_a_page_at_the_table_asks_before_quitting() -> None:
    ctl = Controller(local_link(session(seed=5)))
    ctl.key("f1")
    ctl.key("c-c")
    assert ctl.client.dialog is not None and isinstance(ctl.client.dialog, Quit)
    ctl.key("n")
    assert ctl.client.dialog is not None and isinstance(ctl.client.dialog, PageDialog)


def test_options_statistics_and_new_game_without_an_app_around_the_table_say_so() -> None:
    ctl = Controller(local_link(session(seed=5)))
    for key, said in (("o", "Options are set at the start menu"), ("i", "Statistics are shown at the start menu"),
                      ("f2", "A new game is started at the start menu")):
        ctl.key(key)
        assert ctl.client.dialog is None and ctl.message[0].startswith(said)
        ctl.key("x")


# ---------------------------------------------------------------------- statistics

def test_statistics_show_win_ratios_and_high_scores_per_level(monkeypatch: pytest.MonkeyPatch) -> None:
    seed_statistics(monkeypatch)
    page = StatisticsPage(StatsFile())
    text = screen(page)
    assert "> Ann           advanced               1       1        50%" in text
    assert "[beginner]" in text and "1  Ann             885     1  2026-01-02" in text
    typ(page, "right")
    assert "[advanced]" in screen(page)
    typ(page, "left", "left")
    assert "[expert]" in screen(page)
    typ(page, "down", "down")
    assert "> Bob           advanced" in screen(page)


def test_reset_asks_first_and_any_other_key_resets_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    seed_statistics(monkeypatch)
    page = StatisticsPage(StatsFile())
    typ(page, "r")
    text = screen(page)
    assert "Reset wins, losses and high scores?" in text and "p: only Ann" in text and "a: every player" in text
    typ(page, "n")
    assert "Nothing was reset" in screen(page) and len(stats.win_ratios()) == 5
    typ(page, "r", "p")
    assert "Reset: Ann: 3 matches no longer counted (the history is kept)." in screen(page)
    assert {r.player for r in stats.win_ratios()} == {"Bob", "Cy"}
    typ(page, "r", "a")
    assert stats.win_ratios() == [] and stats.high_scores() == {} and len(stats.history()) == 6
    assert "No finished matches yet" in screen(page)
    typ(page, "r")
    assert "Nothing to reset: no match has been recorded yet" in screen(page)


def test_a_database_that_cannot_be_read_is_said_in_a_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from canasta_tui.persistence import paths
    p = paths.stats_path()
    p.parent.mkdir(parents=True)
    p.write_bytes(b"not a database at all" * 100)
    page = StatisticsPage(StatsFile())
    text = screen(page)
    assert page.message.startswith("The statistics cannot be read:") and page.error
    assert "The statistics cannot be read:" in text and "Traceback" not in text
    typ(page, "r")
    assert "Nothing to reset" in screen(page) and p.read_bytes().startswith(b"not a database")


def test_pages_list() -> None:
    assert PAGES == ("Rules", "How to play", "Scoring", "Strategy", "FAQ", "About")
