"""The server's side of the lobby: what one connected person may ask of the tables.

The lobby screen itself is :mod:`canasta_tui.ui.lobby`, with the other screens; it draws a
:class:`~canasta_tui.lobbyview.LobbyView` and acts through a
:class:`~canasta_tui.lobbyview.LobbyService`.  :class:`RegistryLobby` is that service for
one client of the server's :class:`~.registry.Registry` (and, for an admin, of :class:`~.admin.Admin`).
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable
from typing import NamedTuple

from ...engine import Rules
from ...lobbyview import (
    CODE_MAX,
    OPEN_TABLE,
    Access,
    AdminAct,
    BanRow,
    Destination,
    FriendRow,
    InvitationRow,
    LobbyView,
    Marked,
    NoteRow,
    PersonRow,
    TableRow,
    TableSettings,
    VisitorRow,
    ban_hours,
)
from ...table.seats import KEY_PREFIX, is_key
from ...text import printable
from ..club.admin import Admin, AdminRefused, announcement, ban_target, check_ban, listed, when
from ..club.people import ADDRESS_PREFIX, Ban, Invitation
from ..door.auth import Identity, place
from ..person import PersonId, reason
from ..tables.server_table import LobbyRow, TableRefused
from .connected import Client
from .registry import Registry

#: What the admins' lobby says above the tables when the people store was found damaged at start.
DAMAGED = "People store damaged: it started empty; names, bans, ratings are gone (see log)"


class RegistryLobby:
    """The lobby of ``client`` at ``registry``'s tables (a :class:`~canasta_tui.lobbyview.LobbyService`)."""

    def __init__(self, registry: Registry, client: Client, admin: Admin | None = None) -> None:
        self.registry = registry
        self.client = client
        self._admin = admin

    def view(self) -> LobbyView:
        me = self.client.identity
        reg = self.registry
        invitations = self.open_invitations(me.person)
        invited = {i.table_id for i in invitations}
        rows = tuple(table_row(shared, me.person) for shared in self.lobby_rows()
                     if shown_to(shared, me.person, invited))
        people = self._people({r.id for r in rows})
        about = {r.id: f"{r.rules}, {r.seated} of {r.players} seated" if r.stage.value == "forming"
                 else f"{r.rules}, hand {r.hand}" for r in rows}
        inv_rows = tuple(InvitationRow(i.id, i.from_name, i.table_id, about.get(i.table_id, "")) for i in invitations)
        admin = self._admin is not None and self._admin.is_admin(me)
        motd = reg.config.motd
        if admin and reg.people_problem:
            # (the admins are told at every visit: the host may not read the log)
            motd = "\n".join(line for line in (DAMAGED, motd) if line)
        muted = reg.friends.marked(me.person, Marked.MUTE)
        chat = tuple(line for line in reg.chat if not line.key or line.key not in muted)
        return LobbyView(me.label, me.verified, self.client.guest_code, reg.online(), rows, chat,
                         people, inv_rows, motd, admin, reg.friends.waiting(me.person))

    def open_invitations(self, key: PersonId) -> list[Invitation]:
        """``key``'s open invitations to the room's tables (a cluster's front: as the owners told it)."""
        return self.registry.invitations.open_invitations(key)

    def lobby_rows(self) -> list[LobbyRow]:
        """Every table of the room as anybody sees it (a cluster's front: from every owner)."""
        return self.registry.lobby_rows()

    def _people(self, shown: set[int]) -> tuple[PersonRow, ...]:
        """Who is online as this person may see them: somebody at a table not shown to them (unlisted,
        or private and unlisted) is "busy", with their Canasta rating (their table's game would tell of
        it), listed after everybody else; you first."""
        person = self.client.identity.person
        me = str(person)                            # (a row names its person as the screen does: text)
        friends = self.registry.friends.marked(person, Marked.FRIEND)
        muted = self.registry.friends.marked(person, Marked.MUTE)
        out = []
        for p in self.registry.online_rows():
            if p.key == me:
                p = p._replace(me=True)
            elif p.table is not None and p.table not in shown:
                who = PersonId.read(p.key)
                rating = self.registry.club.shown_rating(who) if p.verified and who is not None else None
                p = p._replace(table=None, watching=False, busy=True, rating=rating)
            out.append(p._replace(friend=p.key in friends, muted=p.key in muted))
        # (stable sorts: the busy after the rest, so that their place says nothing of a table's number;
        # your friends first after you, each part so)
        out.sort(key=lambda p: p.busy)
        out.sort(key=lambda p: not p.friend)
        out.sort(key=lambda p: not p.me)
        return tuple(out)

    def subscribe(self, listener: Callable[[], None]) -> None:
        self.registry.subscribe(listener)

    def unsubscribe(self, listener: Callable[[], None]) -> None:
        self.registry.unsubscribe(listener)

    # (the lobby's screen shows a refusal's words: they are what it is handed)
    def may_create(self) -> str | None:
        return reason(self.registry.may_create(self.client))

    def create(self, rules: Rules, level: str, settings: TableSettings = OPEN_TABLE, turn_timer: int = 0) -> int | str:
        try:
            return self.registry.create(self.client, rules, level, settings=settings, turn_timer=turn_timer).id
        except TableRefused as exc:
            return str(exc)

    def turn_timers(self) -> tuple[int, ...]:
        return self.registry.turn_timers

    def sit(self, table: int, seat: int) -> tuple[str | None, Destination | None]:
        why, where = self.registry.sit(self.client, table, seat)
        return reason(why), where

    def stand(self, table: int) -> str | None:
        return reason(self.registry.stand(self.client, table))

    def start(self, table: int) -> str | None:
        return reason(self.registry.start(self.client, table))

    def say(self, text: str) -> str | None:
        return reason(self.registry.say_lobby(self.client, text))

    def reclaim(self, code: str) -> str | None:
        return self.client.reclaim(code)

    def home(self) -> Destination | None:
        return self.registry.home(self.client)

    def invite(self, person: str, table: int) -> str | None:
        who = PersonId.read(person)          # (the screen names the person as the online list did)
        if who is None:
            return "They are not here any more"
        return reason(self.registry.invitations.invite(self.client, who, table))

    def answer(self, invitation: int, accept: bool) -> tuple[str | None, Destination | None]:
        why, where = self.registry.invitations.answer(self.client, invitation, accept)
        return reason(why), where

    def join(self, code: str) -> tuple[str | None, Destination | None]:
        why, where = self.registry.join(self.client, code)
        return reason(why), where

    def dismiss(self, table: int, seat: int) -> str | None:
        return reason(self.registry.dismiss(self.client, table, seat))

    def admin(self, act: AdminAct, target: str, text: str) -> str:
        try:
            return self._plan(act, target, text).do()
        except AdminRefused as exc:
            return str(exc)

    def admin_ask(self, act: AdminAct, target: str, text: str) -> tuple[str | None, str]:
        try:
            return None, self._plan(act, target, text).question
        except AdminRefused as exc:
            return str(exc), ""

    def _admin_of_me(self) -> Admin | None:
        """The admins' actions, when this person is an admin."""
        admin = self._admin
        return admin if admin is not None and admin.is_admin(self.client.identity) else None

    def _plan(self, act: AdminAct, target: str, text: str) -> AdminPlan:
        admin = self._admin_of_me()
        me = self.client.identity
        if admin is None:
            raise AdminRefused("Only the server's admins can do that")
        loop = asyncio.get_running_loop()
        client = self.client
        # (in this connection's context: its app repaints, not another's or none)
        context = contextvars.copy_context()

        def told(text: str) -> None:          # (from the store's thread: the admin hears it on the loop's)
            loop.call_soon_threadsafe(client.notify, text, context=context)
        return admin_plan(admin, self.registry, me, act, target.strip(), text.strip(), client.address, told)

    def bans(self) -> tuple[BanRow, ...]:
        admin = self._admin_of_me()
        if admin is None:
            return ()
        return tuple(ban_row(admin, b) for b in sorted(admin.bans.in_force(), key=lambda b: b.until))

    # ------------------------------------------------------------------ friends, mutes, notes (issue 34)
    def mark(self, person: str, kind: Marked, on: bool) -> str:
        row = next((r for r in self._people(set()) if r.key == person), None)
        shown = next((f for f in self.friends() if f.key == person), None)
        name = row.name if row is not None else shown.name if shown is not None else "They"
        return self.registry.friends.mark(self.client, person, name, kind, on)

    def mark_name(self, name: str, kind: Marked) -> str:
        return self.registry.friends.mark_name(self.client, name, kind)

    def friends(self) -> tuple[FriendRow, ...]:
        me = self.client.identity.person
        invited = {i.table_id for i in self.open_invitations(me)}
        shown = {r.row.id for r in self.lobby_rows() if shown_to(r, me, invited)}
        return self.registry.friends.rows(me, self._people(shown))

    def leave_note(self, person: str, text: str) -> str:
        return self.registry.friends.leave(self.client, person, text)

    def notes(self) -> tuple[NoteRow, ...]:
        return self.registry.friends.notes(self.client.identity.person)

    def read_notes(self, ids: tuple[str, ...]) -> None:
        self.registry.friends.read(self.client.identity.person, ids)

    def delete_note(self, note: str) -> str:
        return self.registry.friends.delete(self.client.identity.person, note)

    def visitors(self) -> tuple[VisitorRow, ...]:
        admin = self._admin_of_me()
        if admin is None:
            return ()
        online = self.registry.clients
        seen = [VisitorRow(v.key, v.name, v.key.removeprefix(KEY_PREFIX) if is_key(v.key) else "",
                           (v.addresses or ("",))[0], "online" if PersonId.read(v.key) in online else when(v.seen))
                for v in admin.bans.visitors()]
        return tuple(sorted(seen, key=lambda r: r.seen != "online"))     # (stable: online first, then the newest)


class AdminPlan(NamedTuple):
    """An admin's action, checked: the question to ask first, and what does it (what was done)."""

    question: str
    do: Callable[[], str]


def admin_act(admin: Admin, registry: Registry, me: Identity, act: AdminAct, target: str, text: str,
              my_address: str = "") -> str:
    """An admin's action as the lobby asks it (``me``: the admin's identity, connected from
    ``my_address``): what was done.  AdminRefused says why not."""
    return admin_plan(admin, registry, me, act, target, text, my_address).do()


def admin_plan(admin: Admin, registry: Registry, me: Identity, act: AdminAct, target: str, text: str,
               my_address: str = "", told: Callable[[str], None] | None = None) -> AdminPlan:
    """An admin's action checked before "Are you sure?" (its target, hours and words), as a
    question and what does it; AdminRefused says why it cannot be done.  ``told``: the admin,
    should the store fail to keep a ban."""
    if act == AdminAct.ANNOUNCE:
        line = announcement(text)

        def announce() -> str:
            n = admin.announce(me, line)
            return f"Announced to {n} {'person' if n == 1 else 'people'}"
        return AdminPlan(f"Announce to everybody: {line}?", announce)
    if act == AdminAct.CLOSE:
        try:
            table = int(target.removeprefix("table").strip())
        except ValueError:
            raise AdminRefused(f"{printable(target)[:20]!r} is not a table's number") from None
        if table not in registry.tables:
            raise AdminRefused(f"There is no table {table}")

        def close() -> str:
            admin.close_table(me, table, text)
            return f"Table {table} was closed"
        return AdminPlan(f"Close table {table}? Everybody at it goes back to the lobby; its game is kept.", close)
    if act == AdminAct.LIFT:
        return _lift_plan(admin, me, target, told)
    person = find_person(registry, target)
    if act == AdminAct.REMOVE:
        if person is None:
            raise AdminRefused(f"Nobody called {printable(target)[:40]} is here")
        if person.identity.person == me.person:
            raise AdminRefused("You cannot remove yourself")
        key, label = person.identity.person, person.identity.label

        def remove() -> str:
            if not admin.remove(me, key, text):
                raise AdminRefused(f"{label} is not here any more")
            return f"{label} was removed"
        return AdminPlan(f"Remove {label} from the server?", remove)
    return _ban_plan(admin, me, target, text, person, my_address, told)


def _ban_plan(admin: Admin, me: Identity, target: str, text: str, person: Client | None, my_address: str,
              told: Callable[[str], None] | None) -> AdminPlan:
    """A ban of a person online or a recent visitor (by name, their key or a guest's), a key's
    fingerprint or an address, for the hours ``text`` starts with."""
    words = text.split(None, 1)
    hours = ban_hours(text)
    if hours is None:
        raise AdminRefused("Say for how many hours, then why: e.g. 24 spam in the chat")
    reason = words[1] if len(words) > 1 else ""
    span = f"{hours:g} hour{'' if hours == 1 else 's'}"
    visit = admin.bans.visitor(target) if person is None else None
    key = str(person.identity.person) if person is not None else visit.key if visit is not None else ""
    label = person.identity.label if person is not None else visit.name if visit is not None else ""
    if is_key(key):
        fp = key.removeprefix(KEY_PREFIX)
        check_ban(me, key, hours * 3600)
        seen = admin.bans.visitor(key)
        guests = seen.addresses if seen is not None else ()

        def ban_person() -> str:
            ban = admin.ban(me, fp, hours * 3600, reason, told)
            also = f"; guests from {listed(ban.addresses)} are kept out until then too" if ban.addresses else ""
            return f"{label} (key {fp}) is banned until {when(ban.until)}{also}"
        also = f" Guests from {listed(guests)} are kept out as long." if guests else ""
        return AdminPlan(f"Ban {label} (key {fp}) for {span}?{also}", ban_person)
    if key:
        # A guest has no key: their connection's address is what can be kept out (with everybody
        # else who connects from it, which the admin is told).
        where = person.address if person is not None else (visit.addresses[0] if visit and visit.addresses else "")
        if not where:
            raise AdminRefused(f"{label} is a guest, and their address is not known: ban it by number")
        if place(where) == place(my_address):
            raise AdminRefused(f"{label} connects from your own address ({where}): remove them instead")
        what = f"{label}'s address {where} (everybody connecting from it)"
        return _plain_ban(admin, me, where, hours, reason, span, what, told)
    who = ban_target(target)
    if my_address and who == ADDRESS_PREFIX + place(my_address):
        raise AdminRefused(f"{my_address} is your own address: you would be kept out too")
    return _plain_ban(admin, me, target, hours, reason, span, printable(target), told)


def _plain_ban(admin: Admin, me: Identity, who: str, hours: float, reason: str, span: str, what: str,
               told: Callable[[str], None] | None) -> AdminPlan:
    check_ban(me, ban_target(who), hours * 3600)

    def ban() -> str:
        return f"{what} is banned until {when(admin.ban(me, who, hours * 3600, reason, told).until)}"
    return AdminPlan(f"Ban {what} for {span}?", ban)


def _lift_plan(admin: Admin, me: Identity, target: str, told: Callable[[str], None] | None) -> AdminPlan:
    try:
        who = ban_target(target)
    except AdminRefused:
        visit = admin.bans.visitor(target)
        if visit is None or not is_key(visit.key):
            raise
        who = visit.key
    ban = admin.bans.of(who)
    if ban is None:
        raise AdminRefused(f"{printable(target)[:60]} is not banned")
    row = ban_row(admin, ban)
    named = f"{row.who} (key {row.fingerprint})" if row.fingerprint else row.who

    def lift() -> str:
        if not admin.unban(me, who, told):
            raise AdminRefused(f"{named} is not banned any more")
        return f"The ban of {named} is lifted: they may come in again"
    guests = f" (and of guests from {listed(ban.addresses)})" if ban.addresses else ""
    return AdminPlan(f"Lift the ban of {named}{guests}, until {when(ban.until)}?", lift)


def ban_row(admin: Admin, ban: Ban) -> BanRow:
    """A ban as the bans page lists it: whom (their name, from the ban or the recent visitors), by whom."""
    fp = ban.target.removeprefix(KEY_PREFIX) if is_key(ban.target) else ""
    seen = admin.bans.visitor(ban.target) if fp else None
    who = ban.name or (seen.name if seen else "") or (f"key {fp[:15]}…" if fp else ban.target.removeprefix(ADDRESS_PREFIX))
    by = admin.bans.visitor(ban.by)
    return BanRow(ban.target, who, fp, ban.addresses, when(ban.until), by.name if by else "an admin", ban.reason)


def find_person(registry: Registry, name: str) -> Client | None:
    """The person connected under ``name`` (as shown, or without a guest's mark), or with that key
    (``key:SHA256:…``, a guest's ``guest:…``: the online list names them so), if any."""
    person = PersonId.read(name.strip())
    by_key = registry.clients.get(person) if person is not None else None
    if by_key is not None:
        return by_key
    wanted = name.casefold().strip()
    for c in registry.clients.values():
        label = c.identity.label.casefold()
        if wanted in (label, label.lstrip("~"), c.identity.name.casefold()):
            return c
    return None


def shown_to(shared: LobbyRow, viewer: PersonId, invited: set[int] | frozenset[int] = frozenset()) -> bool:
    """Is this table shown in ``viewer``'s lobby?  A listed table to everybody; an unlisted one only to its
    people (seated, claimed, let in, its creator) and those invited to it (``invited``: table ids).
    Everything else about a table (who is at it, its replay) follows this."""
    return (shared.row.listed or viewer in shared.allowed or viewer in shared.keys or viewer in shared.owners
            or shared.row.id in invited)


def table_row(shared: LobbyRow, viewer: PersonId) -> TableRow:
    """A table as the person ``viewer`` sees it: their seat marked as theirs,
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


__all__ = ["CODE_MAX", "DAMAGED", "Access", "PersonRow", "RegistryLobby", "admin_act", "find_person", "shown_to", "table_row"]
