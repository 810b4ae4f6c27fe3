"""Small input pieces the screens share: a one-line text field, and moving through a list."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class LineEdit:
    """A one-line text field: type, Backspace, Ctrl-U; Enter to take it, Esc, Tab or Up/Down to leave it.

    ``selected``: the text is an offer, selected as in any dialog: the first character typed
    replaces it (Backspace clears it), Enter takes it as it is.  ``full`` is set when a character
    was refused because the field holds ``limit`` already (the screen says so: nothing typed is
    dropped unseen)."""

    def __init__(self, text: str, limit: int, selected: bool = False) -> None:
        self.text = text
        self.limit = limit
        self.selected = selected
        self.full = False

    def key(self, name: str) -> str | None:
        """Edit with ``name``; returns "enter" or "cancel" when the field is left, else None."""
        if name == "enter":
            return "enter"
        if name in ("escape", "tab", "s-tab", "up", "down", "c-g"):
            return "cancel"
        typed = " " if name == "space" else name if len(name) == 1 and name.isprintable() else ""
        if self.selected and (typed or name in ("c-h", "backspace", "c-u")):
            self.text = ""              # the offer goes: the key replaces it
            if not typed:
                name = ""
        self.selected = False
        if name in ("c-h", "backspace"):
            self.text = self.text[:-1]
        elif name == "c-u":
            self.text = ""
        elif typed:
            if len(self.text) < self.limit:
                self.text += typed
            else:
                self.full = True
                return None
        self.full = False
        return None


def list_move(name: str, current: int, n: int, cycle: bool = False) -> int | None:
    """Where a list's highlight goes for key ``name`` (Up/Down, j/k, Tab, Home/End, Page Up/Down);
    None when the key is not a move.  ``cycle``: past the last line comes the first (a menu)."""
    if n <= 0:
        return None
    if name in ("down", "j", "tab"):
        return (current + 1) % n if cycle else min(n - 1, current + 1)
    if name in ("up", "k", "s-tab"):
        return (current - 1) % n if cycle else max(0, current - 1)
    if name in ("home", "pageup"):
        return 0
    if name in ("end", "pagedown"):
        return n - 1
    return None


def step_choice(values: Sequence[T], now: T, by: int, *, cycle: bool) -> T:
    """The value ``by`` places from ``now`` among ``values`` (the first when ``now`` is none of
    them), for Left/Right on a choice: past either end it goes round with ``cycle`` (named
    choices), else it stays at the end (numbers in order: no 15,000 after 1,500)."""
    if now not in values:
        return values[0]
    i = values.index(now) + by
    return values[i % len(values)] if cycle else values[max(0, min(len(values) - 1, i))]


__all__ = ["LineEdit", "list_move", "step_choice"]
