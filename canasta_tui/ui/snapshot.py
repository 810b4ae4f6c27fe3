"""What the table's screen shows, taken from the client model at each paint: a frozen value.

:func:`take` reads the :class:`~.model.Client` once; :func:`~.render.render` draws from the
:class:`TableSnapshot` alone and can change nothing of the client.  Its dialog draws from the
client through :class:`~.dialogs.TableFacts` (what the table's dialogs may read, read only), and its mouse
handlers go to :class:`Clicks` (the screen), which routes a click as it routes a key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..engine import PlayerView
from ..table.events import Event
from .dialogs import TableDialog, TableFacts
from .model import Client


class Clicks(Protocol):
    """Where the table's mouse handlers send a click (the screen, :class:`~.controller.Controller`)."""

    def click_card(self, index: int) -> None: ...
    def right_click_card(self, index: int) -> None: ...
    def click_meld(self, side: int, slot: int) -> None: ...
    def command(self, cmd: str) -> None: ...


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """One paint's worth of the client: the view the table is drawn from, the hand as shown, the
    cursor and selection, the seats' public facts, the log, the hint and the lights, the message
    or the dialog on top."""

    view: PlayerView                       # the viewer's, or the public one
    viewer: int | None                     # whose hand is shown (None: nobody's)
    seats: tuple[int, ...]                 # the seats this terminal plays
    hand: tuple[int, ...]                  # the viewer's hand as shown (sorted or arranged)
    new: tuple[bool, ...]                  # per card of the hand: drawn or taken this turn
    cursor: int
    selected: frozenset[int]               # indexes into the hand
    dealing: int | None                    # cards dealt so far while the deal is shown
    shown: tuple[int, ...]                 # per seat: the cards it holds on screen
    names: tuple[str, ...]                 # per seat
    humans: tuple[bool, ...]               # per seat: a person plays it
    verified: tuple[bool, ...]             # per seat: a person known by their key
    scores: tuple[int, ...]                # per side
    hand_number: int
    events: tuple[Event, ...]              # the hand's public events (who started which meld)
    log: Sequence[tuple[int, str]]         # the log of the hand (the client's list, made anew when it changes)
    status: str                            # the hint line
    lit: Mapping[str, bool]                # the command bar's lights
    message: tuple[str, ...]
    dialog: TableDialog | None
    quit_question: str
    table: TableFacts                      # what the dialog draws from (read only)
    clicks: Clicks                         # where the mouse handlers send clicks


def take(client: Client, clicks: Clicks) -> TableSnapshot:
    """The client as the screen shows it now."""
    link = client.link
    v = client.view()
    hand = client.hand()
    seats = range(link.rules.players)
    return TableSnapshot(
        view=v, viewer=client.viewer, seats=link.seats, hand=tuple(hand), new=tuple(client.new_cards(hand)),
        cursor=client.cursor, selected=frozenset(client.selected), dealing=client.dealing,
        shown=tuple(client.shown_size(s, v) for s in seats), names=tuple(link.name(s) for s in seats),
        humans=tuple(link.is_human(s) for s in seats), verified=tuple(link.verified(s) for s in seats),
        scores=tuple(link.scores), hand_number=link.hand_number, events=tuple(link.events), log=client.log_lines(),
        status=client.status(), lit=client.lit(), message=tuple(client.message), dialog=client.dialog,
        quit_question=client.quit_question(), table=client, clicks=clicks)


__all__ = ["Clicks", "TableSnapshot", "take"]
