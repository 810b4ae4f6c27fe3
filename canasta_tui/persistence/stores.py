"""The settings file and the statistics database as the start menu's pages use them: the options
screens (``ui.options.SettingsStore``) and the statistics screen (``ui.statistics.StatsSource``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..text import printable
from . import paths, stats
from . import settings as settings_mod

#: Told after a setting was saved: its key and new value.
OnSave = Callable[[str, object], None]


class SettingsFile:
    """The settings file as the options screens use it (``ui.options.SettingsStore``)."""

    def __init__(self, path: Path | None = None, on_save: OnSave | None = None) -> None:
        self.path = path
        self.on_save = on_save

    def values(self) -> dict[str, object]:
        return settings_mod.load_settings(self.path).settings.to_dict()

    def problem(self) -> str | None:
        return settings_mod.load_settings(self.path).problem

    def save(self, key: str, value: object) -> str | None:
        try:
            settings_mod.put_value(key, value, self.path)
        except settings_mod.SettingsError as exc:
            return printable(str(exc))
        if self.on_save is not None:
            self.on_save(key, value)
        return None

    def where(self) -> str:
        return str(self.path or paths.settings_path())


@dataclass
class StatsTables:
    """What the statistics screen shows (``ui.statistics.StatsView``)."""

    ratios: list[stats.WinRatio] = field(default_factory=list)
    high: dict[str, list[stats.HighScore]] = field(default_factory=dict)
    problem: str | None = None


class StatsFile:
    """The statistics database as the statistics screen reads and resets it."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path

    def read(self) -> StatsTables:
        try:
            return StatsTables(stats.win_ratios(path=self.path), stats.high_scores(path=self.path))
        except stats.StatsError as exc:
            return StatsTables(problem=f"The statistics cannot be read: {printable(str(exc))}")

    def reset(self, player: str | None) -> str:
        try:
            n = stats.reset(player, path=self.path)
        except stats.StatsError as exc:
            return f"Not reset: {printable(str(exc))}"
        who = f"{printable(player)}: " if player else ""
        return f"Reset: {who}{n} match{'es' if n != 1 else ''} no longer counted (the history is kept)."


__all__ = ["OnSave", "SettingsFile", "StatsFile", "StatsTables"]
