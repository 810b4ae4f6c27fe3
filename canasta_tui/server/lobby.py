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
from .tables import FORMING, OVER, Client, Registry, ServerTable, TableRefused


class RegistryLobby:
    """The lobby of ``client`` at ``registry``'s tables (a :class:`~canasta_tui.ui.lobbyview.LobbyService`)."""

    def __init__(self, registry: Registry, client: Client) -> None:
        self.registry = registry
        self.client = client

    def view(self) -> LobbyView:
        me = self.client.identity
        return LobbyView(me.label, me.verified, self.client.guest_code, self.registry.online(),
                         tuple(table_row(st, me.key) for st in self.registry.tables.values()),
                         tuple(self.registry.chat))

    def subscribe(self, listener: Callable[[], None]) -> None:
        self.registry.subscribe(listener)

    def unsubscribe(self, listener: Callable[[], None]) -> None:
        self.registry.unsubscribe(listener)

    def may_create(self) -> str | None:
        return self.registry.may_create(self.client)

    def create(self, rules: Rules, level: str) -> int | str:
        try:
            return self.registry.create(self.client, rules, level).id
        except TableRefused as exc:
            return str(exc)

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


def table_row(st: ServerTable, viewer: str) -> TableRow:
    """``st`` as the person whose identity is ``viewer`` sees it in the lobby."""
    r = st.rules
    stage = st.state
    row = TableRow(st.id, r.name, st.level, r.target_score, stage, tuple(st.seats(viewer)), "",
                   st.creator == viewer, st.seat_of(viewer))
    if stage == FORMING:
        return row._replace(creator=st.creator_name())
    if stage == OVER:
        return row._replace(winner=st.winner_text())
    return row._replace(hand=st.hand_number(), score=st.score_text(), paused=st.held())


__all__ = ["CODE_MAX", "RegistryLobby", "table_row"]
