"""The table's screen: keys and clicks to the dialog or the command they name, and the paint.

The :class:`Controller` is the screen of the app (:class:`~.app.Screen`) for one terminal at
a table.  What that terminal holds is the client model (:class:`~.model.Client`, ``.client``);
what each key does is a command (:mod:`.commands`); what is shown is drawn by
:func:`~.render.render` from a snapshot (:mod:`.snapshot`) taken at each paint.  Keys arrive as
names (``"d"``, ``"f6"``, ``"left"``, ``"enter"``) through :meth:`Controller.key`.
"""

from __future__ import annotations

from collections.abc import Callable

from ..table import Change, Link
from .canvas import Canvas, Options
from .commands import COMMANDS, add_to_meld, discard_card, type_action
from .dialogs import Quit
from .files import Files, SavedGame
from .keys import keymap
from .model import BELLS, Client, Host
from .moves import arrange, compose_meld
from .render import TableCache, render
from .screen import ScreenBase
from .snapshot import TableSnapshot, take
from .texts import sort_hand


class Controller(ScreenBase):
    """One terminal at the table: routes keys and clicks, paints the client's snapshot."""

    def __init__(self, link: Link, files: Files | None = None, sort: str = "rank", *, remote: bool = False,
                 deal_pace: float = 0.0) -> None:
        #: What this terminal holds: who looks, cursor, selection, hot-seat flow, messages, the dialog.
        #: (Made first: the screen's bell and Ctrl-Z, which ScreenBase sets, are the client's.)
        self.client = Client(link, files, sort, remote=remote, deal_pace=deal_pace)
        super().__init__()
        #: What the painter keeps between paints (the rows above the hand, where the log began).
        self.cache = TableCache()
        self._keymap = keymap()
        # too_small (ScreenBase): the screen shows only "terminal too small", so no key may act
        # blind there but quitting.
        link.subscribe(self)
        self.client.start()

    # ------------------------------------------------------------------ what the app and the server read
    @property
    def finished(self) -> bool:
        """The player has left the table (quit, or the match is over and seen)."""
        return self.client.quitting

    @property
    def quitting(self) -> bool:
        return self.client.quitting

    @quitting.setter
    def quitting(self, value: bool) -> None:
        self.client.quitting = value

    @property
    def message(self) -> list[str]:
        """The message box over the table (the server tells a returning player what they missed)."""
        return self.client.message

    @message.setter
    def message(self, lines: list[str]) -> None:
        self.client.message = lines

    @property
    def bell(self) -> bool:
        return self.client.bell

    @bell.setter
    def bell(self, ring: bool) -> None:
        self.client.bell = ring

    @property
    def on_suspend(self) -> Callable[[], None] | None:
        return self.client.on_suspend

    @on_suspend.setter
    def on_suspend(self, fn: Callable[[], None] | None) -> None:
        self.client.on_suspend = fn

    # ------------------------------------------------------------------ painting
    def snapshot(self) -> TableSnapshot:
        return take(self.client, self)

    def paint(self, width: int, height: int, opts: Options) -> Canvas:
        return render(self.snapshot(), width, height, opts, self.cache)

    def table_changed(self, what: Change) -> None:
        """The table changed (a move, a deal, a loaded game ...): bring the screen in line."""
        self.client.table_changed(what)
        self.on_change()

    def deal_step(self) -> None:
        """One more card dealt on screen (the app calls this every ``client.deal_pace``)."""
        self.client.deal_step()
        self.on_change()

    # ------------------------------------------------------------------ keys
    def handle(self, name: str) -> None:
        c = self.client
        if not self.too_small:
            # A key ends the deal shown card by card and then acts as on the dealt table: a key
            # that only skipped it was lost, and the keys typed after it each landed one step late.
            c.end_deal()
        if self.too_small:
            if isinstance(c.dialog, Quit):
                c.dialog.key(c, name)
            elif name in ("q", "c-c"):
                c.open(Quit(back=c.dialog))
            return
        if c.dialog is not None:
            if name == "c-c" and not isinstance(c.dialog, Quit):
                c.open(Quit(back=c.dialog))
            else:
                c.dialog.key(c, name)
            return
        if c.message:
            c.message = []
            # Any key closes a message; the hint key answers too (pressed again over the answer
            # it gave, a key that only closed the box said nothing).
            if name not in ("c-c",) and self._keymap.get(name) != "hint":
                return
        cmd = self._keymap.get(name)
        if cmd is not None:
            COMMANDS[cmd](c)

    # ------------------------------------------------------------------ the mouse
    def _busy(self) -> bool:
        """A message or dialog is up: a click goes as Enter, unless a question is open."""
        c = self.client
        c.end_deal()                       # a click, like a key, ends the deal and acts
        if c.dialog is None and not c.message:
            return False
        if c.dialog is None or c.dialog.click_closes:
            self.key("enter")
        return True

    def click_card(self, index: int) -> None:
        """A mouse click on a card of the hand: move there and toggle its selection."""
        if self._busy():
            return
        self.client.cursor = index
        COMMANDS["select"](self.client)
        self.on_change()

    def right_click_card(self, index: int) -> None:
        """A right-click on a card of the hand: with "Right-click discards" on, it is discarded
        (Windows 2008, "Card in hand ... Right click: Discard"), or the rules' reason why not is
        shown and the hand stays as it was; with it off, it is a click like the left one."""
        if not self.client.right_click_discard:
            self.click_card(index)
            return
        if self._busy():
            return
        discard_card(self.client, index)
        self.on_change()

    def click_meld(self, side: int, slot: int) -> None:
        """A mouse click on a meld in a quadrant: the wild card under the cursor (or selected)
        goes onto it, as the DOS game's "move the cursor to the left column of the selected
        melded rank and click"; selected natural cards of its rank go onto it too (``slot``: the
        meld's place in the side's row, 15 and up for a sequence or a further meld of a rank)."""
        if self._busy():
            return
        add_to_meld(self.client, side, slot)
        self.on_change()

    def command(self, cmd: str) -> None:
        """Run a command by name (mouse clicks on the command bar)."""
        if self._busy():
            return
        COMMANDS[cmd](self.client)
        self.on_change()

    # ------------------------------------------------------------------ scripting (tests, demos)
    def type_action(self, text: str) -> bool:
        """Play an action written in the notation (``meld K K K``), as the player to act."""
        return type_action(self.client, text)


#: Besides the screen, the names code written against the one-class controller imported from
#: here stay importable from here (their homes: model, commands, files, moves, texts).
__all__ = ["BELLS", "COMMANDS", "Controller", "Files", "Host", "SavedGame", "arrange", "compose_meld", "sort_hand"]
