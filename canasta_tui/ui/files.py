"""What the table's client is given to reach the saved games (F3, F4, the autosave notice).

The table's storage (``play.local.TableFiles``) implements these; the client, its
dialogs and the start menu know only these protocols.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol


class SavedGame(Protocol):
    """One line of the F3 list (``persistence.saves.SaveInfo``)."""

    @property
    def name(self) -> str: ...
    @property
    def path(self) -> Path: ...
    @property
    def modified(self) -> float: ...
    @property
    def summary(self) -> str: ...


class Files(Protocol):
    """What F3, F4 and the autosave notice need (``play.local.TableFiles``)."""

    def default_name(self) -> str: ...
    def where(self) -> str: ...
    def save(self, name: str) -> tuple[bool, str]: ...          # (True, path) or (False, why)
    def saved_games(self) -> Sequence[SavedGame]: ...
    def load(self, path: str) -> tuple[str | None, list[str]]: ...   # (why it was not loaded, or None; notices)
    def problem(self) -> str | None: ...                        # the autosave's failure, if any
    def notices(self) -> list[str]: ...                         # to read as the table opens
    def autosaved(self) -> str | None: ...                      # where the game is autosaved (None: nowhere)


__all__ = ["Files", "SavedGame"]
