"""What the server's lobby shows, as values, and what the lobby may ask of the server.

The lobby screen (:mod:`.lobby`) draws a :class:`LobbyView`: a read-only description of the
server's tables, who sits where, how many people are online and the lobby's chat, built for
one person.  It acts through a :class:`LobbyService` (create a table, sit, stand up, start,
chat, take a guest's seat back by its code), which the server implements
(``canasta_tui.server.lobby.RegistryLobby``) and a test can implement without SSH.  This
module knows nothing of the server: the server imports these types, never the other way.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import NamedTuple, Protocol

from ..engine import Rules


class TableState(StrEnum):
    """Where a table is in its life: people claim seats, the game is played, a side has won."""

    FORMING = "forming"
    PLAYING = "playing"
    OVER = "over"


class SeatState(StrEnum):
    """Who is in a seat, as the lobby shows it."""

    FREE = "free"              # nobody has claimed it (the table is forming)
    HUMAN = "human"            # claimed, or played by its person, who is there
    AWAY = "away"              # its person left or dropped: it waits for them, or a computer takes over soon
    COMPUTER = "computer"      # a computer plays it (for a person who is away, when it has a name)
    CLAIMED = "claimed"        # a computer plays it until the deal, when the person who claimed it sits down


class SeatInfo(NamedTuple):
    """One seat as the lobby shows it."""

    occupant: SeatState         # who is in it
    name: str = ""
    mine: bool = False
    note: str = ""
    verified: bool = False      # its person is known by their SSH key


class Destination(NamedTuple):
    """Where a client goes from the lobby: a table's seat, or (seat None) watching it."""

    table: int
    seat: int | None


class LobbyLine(NamedTuple):
    """One line of the lobby's chat: who said it (their label), what, and whether their key vouches for them."""

    who: str
    text: str
    verified: bool = False


class TableRow(NamedTuple):
    """One table of the server as one person sees it in the lobby."""

    id: int
    rules: str                  # the rules' name (a preset's)
    level: str                  # the computers' level
    target: int                 # the score to play to
    stage: TableState           # forming, playing or over
    seats: tuple[SeatInfo, ...]
    creator: str                # the name of whoever starts it
    created_by_me: bool         # the viewer created it (and starts it)
    my_seat: int | None         # the viewer's seat here (claimed, playing, away, or a computer's meanwhile)
    hand: int = 0               # the hand being played (a started table)
    score: str = ""             # each side's score, in a few words (a started table)
    winner: str = ""            # who won ("Players 1 & 3 won"; a table that is over)
    paused: bool = False        # nobody is there: the computers wait

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def seated(self) -> int:
        """Seats somebody claimed (a forming table)."""
        return sum(1 for s in self.seats if s.occupant != SeatState.FREE)

    @property
    def free_seat(self) -> int | None:
        """The first seat nobody claimed (a forming table), or None."""
        return next((i for i, s in enumerate(self.seats) if s.occupant == SeatState.FREE), None)


class LobbyView(NamedTuple):
    """Everything the lobby shows one person: who they are, the tables, the chat."""

    label: str                  # the person's name as shown ("~gus" for a guest)
    verified: bool              # known by their SSH key
    guest_code: str             # a guest's seat code ("" for a key)
    online: int                 # people connected to the server
    tables: tuple[TableRow, ...]
    chat: tuple[LobbyLine, ...]

    def table(self, table_id: int | None) -> TableRow | None:
        return next((t for t in self.tables if t.id == table_id), None)


class LobbyService(Protocol):
    """What the lobby asks of the server, for the one person whose lobby it is.  Each command
    answers why it could not be done (a sentence for the person), or None when it was done."""

    def view(self) -> LobbyView:
        """What the lobby shows now."""

    def subscribe(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after anything the lobby shows changed (anybody's doing)."""

    def unsubscribe(self, listener: Callable[[], None]) -> None: ...

    def may_create(self) -> str | None:
        """Why this person cannot create a table now (None: they can)."""

    def create(self, rules: Rules, level: str, turn_timer: int = 0) -> int | str:
        """A new table with this person in seat 1 (``turn_timer``: seconds a human has for a turn,
        0 for no timer): its id, or why not."""

    def turn_timers(self) -> tuple[int, ...]:
        """The turn timer's choices (seconds; 0: no timer)."""

    def sit(self, table: int, seat: int) -> tuple[str | None, Destination | None]:
        """Claim ``seat`` (from 0): (why not, or None; where to go now, if anywhere)."""

    def stand(self, table: int) -> str | None:
        """Give up the seat claimed at a table that has not started."""

    def start(self, table: int) -> str | None:
        """Start the table this person created: computers take the free seats."""

    def say(self, text: str) -> str | None:
        """A line to the lobby's chat."""

    def reclaim(self, code: str) -> str | None:
        """A guest typed their seat's code: they are that seat's guest from now on."""

    def home(self) -> Destination | None:
        """The seat that waits for this person at a started table, if any."""


__all__ = ["Destination", "LobbyLine", "LobbyService", "LobbyView", "SeatInfo", "SeatState", "TableRow", "TableState"]
