"""A connected person as the server's tables and invitations see them (a session of :mod:`.client`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ...lobbyview import Destination
from ..club.people import Invitation
from ..door.auth import Identity


class Client(Protocol):
    """A connected person, as the tables see them (a session of :mod:`.client`)."""

    @property
    def identity(self) -> Identity: ...

    def __hash__(self) -> int: ...

    def moved(self, where: Destination) -> None:
        """The server seated this client (the creator started the table, a claimed seat is free)."""

    def back_to_lobby(self, note: str) -> None:
        """The table this client is at is gone (an admin closed it): they go back to the lobby,
        which shows them ``note`` (a note on the table's screen would go with that screen)."""

    def kick(self, reason: str) -> None:
        """Close this connection, telling the person why."""

    def notify(self, text: str) -> None:
        """A line for the person on whichever screen they see (their table was cleared)."""

    def warn(self, text: str) -> None:
        """A line for the person, with the bell if they want it for their turn (the turn timer)."""

    @property
    def address(self) -> str:
        """The address the connection comes from ("" when not known): a guest is banned by it."""

    @property
    def guest_code(self) -> str:
        """A guest's code (their seat goes back only to whoever gives it); "" for a key."""

    def reclaim(self, code: str) -> str | None:
        """A guest typed a seat's code: they are that seat's guest now (why not, or None)."""

    def invited(self, invitation: Invitation) -> None:
        """Somebody invites this person to a table: shown wherever they are (the lobby, a table
        they watch), to accept or decline with one key."""


class Room(Protocol):
    """The rest of a cluster's room as a front's connections see it (``cluster.lobby.FrontLobby``):
    every owner's tables in the lobby, and where a person's seat waits at another node."""

    def lobby(self, client: Client, admin: object = None) -> object:
        """The person's lobby service (a ``lobbyview.LobbyService``) over the whole room."""

    def home(self, client: Client) -> Destination | None:
        """The seat of a started table at an owner that waits for ``client``, if any."""

    def holds(self, table: int) -> bool:
        """Is ``table`` held by another node of the room?"""

    def owner_of(self, table: int) -> str | None:
        """The node that holds ``table`` now (it changes when a dead owner's table is taken over)."""

    def follow(self, table: int, owner: str, moved: Callable[[str | None], None]) -> Callable[[], None]:
        """Tell ``moved`` when ``table``'s owner is no longer ``owner``: the new owner, or None while
        none holds it (its owner died, and no survivor has it yet).  Returns the call that stops it."""

    async def enter(self, client: Client, where: Destination) -> tuple[str, Any, dict[str, Any]]:
        """Sit down at ``where`` (or watch it): (why not, or ""; a ``Link`` to it; what its owner said)."""

    def left(self, client: Client, where: Destination, owner: str, dropped: bool,
             then: Callable[[str], None] | None = None) -> None:
        """``client`` left ``where`` (``dropped``: the connection did); ``then`` hears their note."""

    def again(self, client: Client, table: int, repaint: Callable[[], None]) -> Again:
        """``client``'s "play again?" at the end of the match of ``table``, held at another node
        (``repaint``: what it shows changed)."""


class Again(Protocol):
    """"Play again with the same people?" as a player's screen asks it (``ui.dialogs.RematchQuestion``)."""

    def answer(self, yes: bool) -> str | None: ...

    def status(self) -> str: ...

    def asked(self) -> bool: ...

    def seen(self) -> None: ...


__all__ = ["Again", "Client", "Room"]
