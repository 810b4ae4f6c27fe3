"""The server's side of the lobby: what one connected person may ask of the tables.

The lobby screen itself is :mod:`canasta_tui.ui.lobby`, with the other screens; it draws a
:class:`~canasta_tui.ui.lobbyview.LobbyView` and acts through a
:class:`~canasta_tui.ui.lobbyview.LobbyService`.  :class:`RegistryLobby` is that service for
one client of the server's :class:`~.tables.Registry`.
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine import Rules
from ..ui.lobby import CODE_MAX
from ..ui.lobbyview import Destination, LobbyView, TableRow
from .tables import Client, LobbyRow, Registry, TableRefused


class RegistryLobby:
    """The lobby of ``client`` at ``registry``'s tables (a :class:`~canasta_tui.ui.lobbyview.LobbyService`)."""

    def __init__(self, registry: Registry, client: Client) -> None:
        self.registry = registry
        self.client = client

    def view(self) -> LobbyView:
        me = self.client.identity
        return LobbyView(me.label, me.verified, self.client.guest_code, self.registry.online(),
                         tuple(table_row(shared, me.key) for shared in self.registry.lobby_rows()),
                         tuple(self.registry.chat))

    def subscribe(self, listener: Callable[[], None]) -> None:
        self.registry.subscribe(listener)

    def unsubscribe(self, listener: Callable[[], None]) -> None:
        self.registry.unsubscribe(listener)

    def may_create(self) -> str | None:
        return self.registry.may_create(self.client)

    def create(self, rules: Rules, level: str, turn_timer: int = 0) -> int | str:
        try:
            return self.registry.create(self.client, rules, level, turn_timer=turn_timer).id
        except TableRefused as exc:
            return str(exc)

    def turn_timers(self) -> tuple[int, ...]:
        return self.registry.turn_timers

    def sit(self, table: int, seat: int) -> tuple[str | None, Destination | None]:
        return self.registry.sit(self.client, table, seat)

    def stand(self, table: int) -> str | None:
        return self.registry.stand(self.client, table)

    def start(self, table: int) -> str | None:
        return self.registry.start(self.client, table)

    def say(self, text: str) -> str | None:
        return self.registry.say_lobby(self.client, text)

    def reclaim(self, code: str) -> str | None:
        return self.client.reclaim(code)

    def home(self) -> Destination | None:
        return self.registry.home(self.client)


def table_row(shared: LobbyRow, viewer: str) -> TableRow:
    """A table as the person whose identity is ``viewer`` sees it: their seat marked as theirs."""
    row = shared.row
    created = shared.creator == viewer
    my_seat = shared.keys.index(viewer) if viewer in shared.keys else None
    seats = row.seats
    if viewer in shared.owners:
        seats = tuple(s._replace(mine=True) if owner == viewer else s
                      for s, owner in zip(seats, shared.owners, strict=True))
    if created or my_seat is not None or seats is not row.seats:
        return row._replace(seats=seats, created_by_me=created, my_seat=my_seat)
    return row


__all__ = ["CODE_MAX", "RegistryLobby", "table_row"]
