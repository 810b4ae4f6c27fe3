"""The server's side of the lobby: what one connected person may ask of the tables.

The lobby screen itself is :mod:`canasta_tui.ui.lobby`, with the other screens; it draws a
:class:`~canasta_tui.ui.lobbyview.LobbyView` and acts through a
:class:`~canasta_tui.ui.lobbyview.LobbyService`.  :class:`RegistryLobby` is that service for
one client of the server's :class:`~.registry.Registry` (and, for an admin, of :class:`~.admin.Admin`).
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine import Rules
from ..text import printable
from ..ui.lobby import CODE_MAX
from ..ui.lobbyview import (
    OPEN_TABLE,
    Access,
    AdminAct,
    Destination,
    InvitationRow,
    LobbyView,
    PersonRow,
    TableRow,
    TableSettings,
    ban_hours,
)
from .admin import Admin, AdminRefused, when
from .auth import Identity
from .connected import Client
from .registry import Registry
from .tables import LobbyRow, TableRefused


class RegistryLobby:
    """The lobby of ``client`` at ``registry``'s tables (a :class:`~canasta_tui.ui.lobbyview.LobbyService`)."""

    def __init__(self, registry: Registry, client: Client, admin: Admin | None = None) -> None:
        self.registry = registry
        self.client = client
        self._admin = admin

    def view(self) -> LobbyView:
        me = self.client.identity
        reg = self.registry
        invitations = reg.invitations.open_invitations(me.key)
        invited = {i.table_id for i in invitations}
        rows = tuple(table_row(shared, me.key) for shared in reg.lobby_rows() if shown_to(shared, me.key, invited))
        people = self._people({r.id for r in rows})
        about = {r.id: f"{r.rules}, {r.seated} of {r.players} seated" if r.stage.value == "forming"
                 else f"{r.rules}, hand {r.hand}" for r in rows}
        inv_rows = tuple(InvitationRow(i.id, i.from_name, i.table_id, about.get(i.table_id, "")) for i in invitations)
        return LobbyView(me.label, me.verified, self.client.guest_code, reg.online(), rows, tuple(reg.chat),
                         people, inv_rows, reg.config.motd, self._admin is not None and self._admin.is_admin(me))

    def _people(self, shown: set[int]) -> tuple[PersonRow, ...]:
        """Who is online as this person may see them: somebody at a table not shown to them (unlisted,
        or private and unlisted) is "busy", with their Canasta rating (their table's game would tell of
        it), listed after everybody else; you first."""
        me = self.client.identity.key
        out = []
        for p in self.registry.online_rows():
            if p.key == me:
                p = p._replace(me=True)
            elif p.table is not None and p.table not in shown:
                rating = self.registry.club.shown_rating(p.key) if p.verified else None
                p = p._replace(table=None, watching=False, busy=True, rating=rating)
            out.append(p)
        # (stable sorts: the busy after the rest, so that their place says nothing of a table's number)
        out.sort(key=lambda p: p.busy)
        out.sort(key=lambda p: not p.me)
        return tuple(out)

    def subscribe(self, listener: Callable[[], None]) -> None:
        self.registry.subscribe(listener)

    def unsubscribe(self, listener: Callable[[], None]) -> None:
        self.registry.unsubscribe(listener)

    def may_create(self) -> str | None:
        return self.registry.may_create(self.client)

    def create(self, rules: Rules, level: str, settings: TableSettings = OPEN_TABLE, turn_timer: int = 0) -> int | str:
        try:
            return self.registry.create(self.client, rules, level, settings=settings, turn_timer=turn_timer).id
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

    def invite(self, person: str, table: int) -> str | None:
        return self.registry.invitations.invite(self.client, person, table)

    def answer(self, invitation: int, accept: bool) -> tuple[str | None, Destination | None]:
        return self.registry.invitations.answer(self.client, invitation, accept)

    def join(self, code: str) -> tuple[str | None, Destination | None]:
        return self.registry.join(self.client, code)

    def dismiss(self, table: int, seat: int) -> str | None:
        return self.registry.dismiss(self.client, table, seat)

    def admin(self, act: AdminAct, target: str, text: str) -> str:
        admin = self._admin
        me = self.client.identity
        if admin is None or not admin.is_admin(me):
            return "Only the server's admins can do that"
        try:
            return admin_act(admin, self.registry, me, act, target.strip(), text.strip(), self.client.address)
        except AdminRefused as exc:
            return str(exc)


def admin_act(admin: Admin, registry: Registry, me: Identity, act: AdminAct, target: str, text: str,
              my_address: str = "") -> str:
    """An admin's action as the lobby asks it (``me``: the admin's identity, connected from
    ``my_address``): what was done.  AdminRefused says why not."""
    if act == AdminAct.ANNOUNCE:
        n = admin.announce(me, text)
        return f"Announced to {n} {'person' if n == 1 else 'people'}"
    if act == AdminAct.CLOSE:
        try:
            table = int(target.removeprefix("table").strip())
        except ValueError:
            raise AdminRefused(f"{printable(target)[:20]!r} is not a table's number") from None
        admin.close_table(me, table, text)
        return f"Table {table} was closed"
    person = find_person(registry, target)
    if act == AdminAct.REMOVE:
        if person is None:
            raise AdminRefused(f"Nobody called {printable(target)[:40]} is here")
        if person.identity.key == me.key:
            raise AdminRefused("You cannot remove yourself")
        admin.remove(me, person.identity.key, text)
        return f"{person.identity.label} was removed"
    words = text.split(None, 1)
    hours = ban_hours(text)
    if hours is None:
        raise AdminRefused("Say for how many hours, then why: e.g. 24 spam in the chat")
    who, what = target, printable(target)
    if person is not None and person.identity.verified:
        who = person.identity.fingerprint
    elif person is not None:
        # A guest has no key: their connection's address is what can be kept out (with everybody
        # else who connects from it, which the admin is told).
        where = person.address
        if not where:
            raise AdminRefused(f"{person.identity.label} is a guest, and their address is not known: "
                               "ban it by number")
        if where == my_address:
            raise AdminRefused(f"{person.identity.label} connects from your own address ({where}): "
                               "remove them instead")
        who, what = where, f"{person.identity.label}'s address {where} (everybody connecting from it)"
    ban = admin.ban(me, who, hours * 3600, words[1] if len(words) > 1 else "")
    return f"{what} is banned until {when(ban.until)}"


def find_person(registry: Registry, name: str) -> Client | None:
    """The person connected under ``name`` (as shown, or without a guest's mark), if any."""
    wanted = name.casefold().strip()
    for c in registry.clients.values():
        label = c.identity.label.casefold()
        if wanted in (label, label.lstrip("~"), c.identity.name.casefold()):
            return c
    return None


def shown_to(shared: LobbyRow, viewer: str, invited: set[int] | frozenset[int] = frozenset()) -> bool:
    """Is this table shown in ``viewer``'s lobby?  A listed table to everybody; an unlisted one only to its
    people (seated, claimed, let in, its creator) and those invited to it (``invited``: table ids).
    Everything else about a table (who is at it, its replay) follows this."""
    return (shared.row.listed or viewer in shared.allowed or viewer in shared.keys or viewer in shared.owners
            or shared.row.id in invited)


def table_row(shared: LobbyRow, viewer: str) -> TableRow:
    """A table as the person whose identity is ``viewer`` sees it: their seat marked as theirs,
    and its code if they created it."""
    row = shared.row
    created = shared.creator == viewer
    my_seat = shared.keys.index(viewer) if viewer in shared.keys else None
    seats = row.seats
    if viewer in shared.owners:
        seats = tuple(s._replace(mine=True) if owner == viewer else s
                      for s, owner in zip(seats, shared.owners, strict=True))
    if created or my_seat is not None or seats is not row.seats:
        return row._replace(seats=seats, created_by_me=created, my_seat=my_seat,
                            code=shared.code if created else "")
    return row


__all__ = ["CODE_MAX", "Access", "PersonRow", "RegistryLobby", "admin_act", "find_person", "shown_to", "table_row"]
