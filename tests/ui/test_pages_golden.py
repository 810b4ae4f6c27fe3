"""Issue 12: the pages around the table as exact text (golden files in tests/ui/golden) at 80x24,
80x24 with --ascii and 132x43: the start menu, Options, Rule options, each help page and the
statistics (from a seeded statistics database).

Regenerate after a deliberate change with ``UPDATE_GOLDEN=1 pytest tests/ui/test_pages_golden.py``
and review the diff.
"""

from __future__ import annotations

import pytest

from canasta_tui.persistence.stores import StatsFile
from canasta_tui.presets import load_rules
from canasta_tui.ui.canvas import Options
from canasta_tui.ui.helppages import PAGES, HelpPage
from canasta_tui.ui.menu import StartMenu
from canasta_tui.ui.options import OptionsPage, PresetSource, RuleOptionsPage
from canasta_tui.ui.pages import Page
from canasta_tui.ui.statistics import StatisticsPage

from .pages_helpers import FILES, SIZES, FixedHome, FixedPages, MemoryStore, check, seed_statistics


def store() -> MemoryStore:
    return MemoryStore({"name": "Ann", "names": ["Ann", "", "", "Bob"], "level": "expert", "delay": 200,
                        "rule_options": {"target_score": 3000, "wild_limit": "naturals"}})


def golden(name: str, page: Page) -> None:
    for size, w, h, opts in SIZES:
        text = page.paint(w, h, opts).text()
        check(f"{name}_{size}.txt", text)
        lines = text.splitlines()
        assert len(lines) <= h and all(len(line) <= w for line in lines)
        if opts.glyphs.suits == "cdhs":
            assert not any(ord(ch) > 127 for ch in text), f"{name}: not ASCII"


def test_start_menu() -> None:
    golden("menu", StartMenu(FixedHome(), FixedPages()))


def test_options() -> None:
    golden("options", OptionsPage(store(), rules_page=lambda: Page()))


def test_rule_options() -> None:
    golden("rule_options", RuleOptionsPage(store(), PresetSource()))


@pytest.mark.parametrize("page", range(len(PAGES)))
def test_help_pages(page: int) -> None:
    rules = load_rules("classic").replace(target_score=3000)
    golden(f"help_{PAGES[page].lower().replace(' ', '_')}", HelpPage(rules, "classic + 1 change", FILES, page=page))


def test_statistics(monkeypatch: pytest.MonkeyPatch) -> None:
    seed_statistics(monkeypatch)
    golden("statistics", StatisticsPage(StatsFile()))


def test_a_page_too_small_says_how_big_the_terminal_must_be() -> None:
    text = StartMenu(FixedHome(), FixedPages()).paint(79, 24, Options()).text()
    assert "terminal too small (need 80x24)" in text and "now 79x24; q quits" in text
    assert "One Human Player" not in text
