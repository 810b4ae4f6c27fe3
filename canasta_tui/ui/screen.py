"""What every screen of the app keeps for the app (:class:`~.app.Screen`): the table's client,
the pages (menu, options, help, statistics) and the SSH lobby."""

from __future__ import annotations

from collections.abc import Callable


class ScreenBase:
    """The app's side of a screen: whom to tell after a change, how many keys were handled (tests
    wait on it), a bell to ring at the next paint, and whether the terminal is too small.  A key
    goes to :meth:`handle`; it is counted and the change told even when handling it failed."""

    def __init__(self) -> None:
        self.on_change: Callable[[], None] = lambda: None
        #: Ctrl-Z: the app suspends to the shell (None where that makes no sense, e.g. over SSH).
        self.on_suspend: Callable[[], None] | None = None
        self.keys_handled = 0
        self.bell = False
        #: The terminal is smaller than the screen needs (the app says so before each key).
        self.too_small = False

    def key(self, name: str) -> None:
        """Handle one key (a prompt-toolkit key name or a character)."""
        try:
            self.handle(name)
        finally:
            self.keys_handled += 1
            self.on_change()

    def handle(self, name: str) -> None:
        raise NotImplementedError


__all__ = ["ScreenBase"]
