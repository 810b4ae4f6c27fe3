"""Helpers for the pages around the table (menu, options, help, statistics): fixed sources of
settings and games (the golden screens must not show the test's own paths or dates), the
golden check, a seeded statistics database, and a key typist."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from canasta_tui.engine import Match, Rules
from canasta_tui.persistence import settings as settings_mod
from canasta_tui.persistence import stats
from canasta_tui.persistence.selfplay import game_over, start, step
from canasta_tui.presets import load_rules
from canasta_tui.ui.canvas import ASCII_OPTIONS, DEFAULT_OPTIONS
from canasta_tui.ui.pages import Page
from tests.ui.helpers import check_golden

#: The three sizes every page is checked at: (name, width, height, options).
SIZES = [("80x24", 80, 24, DEFAULT_OPTIONS), ("80x24_ascii", 80, 24, ASCII_OPTIONS), ("132x43", 132, 43, DEFAULT_OPTIONS)]
FILES = [("settings", "/home/ann/.config/canasta/settings.toml"),
         ("autosave", "/home/ann/.local/state/canasta/autosave.json"),
         ("saves", "/home/ann/.local/share/canasta/saves"),
         ("statistics", "/home/ann/.local/share/canasta/canasta.db")]


def check(name: str, text: str) -> None:
    check_golden(name, text)


def screen(page: Page, width: int = 80, height: int = 24, ascii: bool = False) -> str:
    return page.paint(width, height, ASCII_OPTIONS if ascii else DEFAULT_OPTIONS).text()


def typ(page: Page, *keys: str) -> None:
    """Press keys: names (``enter``, ``down``) or text, one character a key."""
    for k in keys:
        if len(k) > 1 and k not in ("c-h", "c-u"):
            if k in ("enter", "escape", "down", "up", "left", "right", "tab", "s-tab", "home", "end", "pageup",
                     "pagedown", "space", "c-c", "f1", "f2", "f3"):
                page.key(k)
                continue
            for ch in k:
                page.key("space" if ch == " " else ch)
        else:
            page.key("space" if k == " " else k)


@dataclass
class MemoryStore:
    """Settings kept in memory, checked as the file checks them (``settings.check``)."""

    data: dict[str, Any] = field(default_factory=dict)
    saved: list[tuple[str, Any]] = field(default_factory=list)

    def values(self) -> Mapping[str, Any]:
        return settings_mod.Settings(**self.data).to_dict()

    def save(self, key: str, value: Any) -> str | None:
        try:
            self.data[key] = settings_mod.check(key, value)
        except settings_mod.SettingsError as exc:
            return str(exc)
        self.saved.append((key, value))
        return None

    def where(self) -> str:
        return FILES[0][1]


@dataclass
class FixedHome:
    """A home whose unfinished game and rules are fixed (the menu's golden screens)."""

    rules_: Rules = field(default_factory=lambda: load_rules("classic"))
    game: str | None = "hand 3, 1,250 to 980"
    told: list[str] = field(default_factory=list)
    asked: list[str] = field(default_factory=list)
    offer: bool = False              # the first game not offered yet

    def unfinished(self) -> str | None:
        return self.game

    def notices(self) -> list[str]:
        out, self.told = self.told, []
        return out

    def rules(self) -> Rules:
        return self.rules_

    def new(self, humans: int) -> Any:
        self.asked.append(f"new {humans}")
        return "no tables in this test"

    def resume(self) -> Any:
        self.asked.append("resume")
        return "no tables in this test"

    def saved_games(self) -> Sequence[Any]:
        return []

    def load(self, path: str) -> Any:
        self.asked.append(f"load {path}")
        return "no tables in this test"

    def again(self, table: Any) -> Any:
        return "no tables in this test"

    def first_game(self) -> Any:
        self.asked.append("first game")
        return "no tables in this test"

    def offer_first_game(self) -> bool:
        offer, self.offer = self.offer, False
        return offer


class FixedPages:
    """The menu's pages, from fixed sources."""

    def __init__(self, store: MemoryStore | None = None) -> None:
        self.store = store or MemoryStore()
        self.opened: list[str] = []

    def page(self, name: str) -> Page:
        from canasta_tui.ui.helppages import HelpPage
        from canasta_tui.ui.options import OptionsPage, PresetSource, RuleOptionsPage

        self.opened.append(name)
        if name == "options":
            return OptionsPage(self.store, rules_page=lambda: self.page("rules"))
        if name == "rules":
            return RuleOptionsPage(self.store, PresetSource())
        rules = load_rules("classic")
        return HelpPage(rules, "classic", FILES)


def finished_match(seed: int, target: int = 50) -> Match:
    m = start(seed)
    rules = m.rules.replace(target_score=target)
    m = m._replace(rules=rules, state=m.state._replace(rules=rules))
    while not game_over(m):
        m = step(m, seed)
    return m


def seed_statistics(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three players at three levels, with their hands: dates fixed for the golden screens."""
    monkeypatch.setattr(stats, "_now", lambda: "2026-01-02 10:00")
    for n, (seed, humans, level) in enumerate([
            (2, {0: "Ann"}, "advanced"), (3, {0: "Ann"}, "advanced"), (4, {0: "Bob"}, "expert"),
            (5, {0: "Ann", 3: "Cy"}, "beginner"), (6, {0: "Bob"}, "advanced")]):
        stats.record_match_result(finished_match(seed), humans, level, game_key=f"game-{n}")
