"""Invitations to a table's free seat: a person at a table invites somebody online, who is told
wherever they are and accepts (they take the seat, and a private table lets them in) or declines
(the inviter is told).

An invitation is kept in the people store (:mod:`.people`) until it is answered or its table goes,
also across a restart while the table is there.  :class:`Invitations` is held by the registry
(``registry.invitations``); everything here runs on the event loop's thread.
"""

from __future__ import annotations

import collections
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from ...lobbyview import Destination, TableState
from ...table import COMPUTER, Table
from ..club.people import Invitation, MarkKind, PeopleStore, StoreError
from ..person import PersonId, Refusal, RefusalKind
from .connected import Client

log = logging.getLogger("canasta.server")


class InvitedTable(Protocol):
    """A table as invitations see it (a ``tables.ServerTable``)."""

    @property
    def id(self) -> int: ...

    @property
    def creator(self) -> PersonId | None: ...

    @property
    def table(self) -> Table | None: ...

    @property
    def claims(self) -> Sequence[object | None]: ...

    @property
    def pending(self) -> Mapping[int, object]: ...

    @property
    def state(self) -> TableState: ...

    @property
    def allowed(self) -> set[PersonId]: ...

    def seat_of(self, person: PersonId) -> int | None: ...


class Host(Protocol):
    """The registry as invitations see it (a ``registry.Registry``)."""

    @property
    def tables(self) -> Mapping[int, InvitedTable]: ...

    @property
    def clients(self) -> Mapping[PersonId, Client]: ...

    @property
    def people(self) -> PeopleStore: ...

    @property
    def generation(self) -> int: ...

    def changed(self) -> None: ...

    def sit(self, client: Client, table_id: int, seat: int) -> tuple[Refusal | None, Destination | None]: ...


#: Invitations one person may send in :data:`INVITE_WINDOW` seconds: each is a write to the store
#: and a box on somebody's screen (a pair inviting and declining by turns would otherwise not stop).
INVITES_PER_WINDOW = 10
INVITE_WINDOW = 60.0


class Invitations:
    """The open invitations of ``registry``'s people to its tables."""

    def __init__(self, registry: Host, clock: Callable[[], float] = time.monotonic) -> None:
        self.registry = registry
        self.clock = clock
        #: When each person's last invitations were sent (the window's), oldest first.
        self._sent: dict[PersonId, collections.deque[float]] = {}
        #: The open invitations by invited person, as read after one of the registry's changes.
        self._open: tuple[int, dict[PersonId, list[Invitation]]] = (-1, {})

    def free_seat(self, st: InvitedTable) -> int | None:
        """A seat somebody invited could take: a free one at a forming table, a computer's nobody
        claimed at a table being played."""
        if st.table is None:
            return next((i for i, c in enumerate(st.claims) if c is None), None)
        if st.state != TableState.PLAYING:
            return None
        return next((i for i, s in enumerate(st.table.seats)
                     if s.kind == COMPUTER and not s.key and i not in st.pending), None)

    def invite(self, client: Client, to_key: PersonId, table_id: int, guest: Client | None = None) -> Refusal | None:
        """``client``, seated at table ``table_id``, invites the person ``to_key`` (online) to its
        free seat; they are told wherever they are.  Why not, or None.  Kept until answered or the
        table goes (also across a restart, while the table is there).  ``guest``: the invited
        person as connected elsewhere (a cluster's owner: at a front), else as connected here."""
        ident = client.identity
        st = self.registry.tables.get(table_id)
        if st is None:
            return Refusal("That table is gone", RefusalKind.GONE)
        if st.seat_of(ident.person) is None and st.creator != ident.person:
            return Refusal("Sit at a table to invite somebody to it")
        if to_key == ident.person:
            return Refusal("You are at this table already")
        if guest is None or guest.identity.person != to_key:
            guest = self.registry.clients.get(to_key)
        if guest is None:
            return Refusal("They are not here any more", RefusalKind.GONE)
        if st.seat_of(to_key) is not None:
            return Refusal(f"{guest.identity.label} has a seat at this table already")
        if self.free_seat(st) is None:
            return Refusal("This table has no free seat")
        if any(i.table_id == table_id for i in self.invitations_for(to_key)):
            return Refusal(f"{guest.identity.label} has your invitation to this table already")
        why = self._pace(ident.person)
        if why:
            return why
        if self._muted(to_key, ident.person):
            # (muted: no invitation reaches them, and the inviter is told what anybody is told)
            log.info("%s invited %s, who muted them: not sent", ident.log_text(), guest.identity.log_text())
            return None
        try:
            inv = self.registry.people.invite(ident.person, ident.label, to_key, table_id, time.time())
        except StoreError as exc:
            log.warning("an invitation could not be kept: %s", exc)
            return Refusal("The invitation could not be kept (the server's store failed): try again")
        self.registry.changed()
        guest.invited(inv)
        log.info("%s invited %s to table %d", ident.log_text(), guest.identity.log_text(), table_id)
        return None

    def _muted(self, to_key: PersonId, by: PersonId) -> bool:
        """Has ``to_key`` muted ``by``?"""
        if not to_key.is_key:
            return False
        try:
            return any(m.kind == MarkKind.MUTE and m.other == str(by) for m in self.registry.people.marks_of(str(to_key)))
        except StoreError as exc:
            log.warning("the marks of %s could not be read: %s", to_key, exc)
            return False

    def _pace(self, key: PersonId) -> Refusal | None:
        """Why ``key`` may not send another invitation now (too many in the window), or None (counted)."""
        now = self.clock()
        sent = self._sent.setdefault(key, collections.deque())
        while sent and now - sent[0] >= INVITE_WINDOW:
            sent.popleft()
        if len(sent) >= INVITES_PER_WINDOW:
            wait = INVITE_WINDOW - (now - sent[0])
            return Refusal(f"Not so fast: {INVITES_PER_WINDOW} invitations a minute at most "
                           f"(the next in {max(1, round(wait))} s)", RefusalKind.SLOW_DOWN)
        sent.append(now)
        for other in [k for k, q in self._sent.items() if now - q[-1] >= INVITE_WINDOW]:
            del self._sent[other]            # (the map holds only those whose invitations still count)
        return None

    def invitations_for(self, key: PersonId) -> list[Invitation]:
        """The open invitations of ``key``, to tables that are still there."""
        try:
            return [i for i in self.registry.people.invitations_for(key) if i.table_id in self.registry.tables]
        except StoreError as exc:
            log.warning("the invitations could not be read: %s", exc)
            return []

    def answer(self, client: Client, invitation_id: int, accept: bool) -> tuple[Refusal | None, Destination | None]:
        """``client`` accepts or declines an invitation; the inviter is told.  (Why not, or None;
        where to go now, as :meth:`Registry.sit` says.)"""
        key = client.identity.person
        inv = next((i for i in self.invitations_for(key) if i.id == invitation_id), None)
        if inv is None:
            return Refusal("That invitation is no longer open", RefusalKind.GONE), None
        try:
            self.registry.people.withdraw(inv.id)
        except StoreError as exc:
            log.warning("an invitation could not be closed: %s", exc)
        inviter = self.registry.clients.get(inv.from_key) if inv.from_key is not None else None
        label = client.identity.label
        st = self.registry.tables.get(inv.table_id)
        if not accept:
            if inviter is not None:
                inviter.notify(f"{label} declined your invitation to table {inv.table_id}")
            self.registry.changed()
            return None, None
        seat = self.free_seat(st) if st is not None else None
        if st is None or seat is None:
            return Refusal("That table has no free seat any more", RefusalKind.GONE), None
        st.allowed.add(key)                  # an invitation opens a private table to its guest
        why, where = self.registry.sit(client, st.id, seat)
        self.registry.changed()
        if why is None and inviter is not None:
            inviter.notify(f"{label} accepted your invitation to table {inv.table_id}")
        return why, where

    def forget(self, table_id: int) -> None:
        """Table ``table_id`` goes: so do the invitations to it."""
        try:
            self.registry.people.withdraw_table(table_id)
        except StoreError as exc:
            log.warning("the invitations to table %d could not be closed: %s", table_id, exc)

    def open_invitations(self, key: PersonId) -> list[Invitation]:
        """``key``'s open invitations to tables that are here, read once after each change for
        every lobby ([] if the store cannot say, logged)."""
        reg = self.registry
        at, by_key = self._open
        if at != reg.generation:
            by_key = {}
            try:
                for inv in reg.people.invitations():
                    if inv.table_id in reg.tables:
                        by_key.setdefault(inv.to_key, []).append(inv)
            except StoreError as exc:
                log.warning("the invitations could not be read: %s", exc)
            self._open = (reg.generation, by_key)
        return by_key.get(key, [])

    def close_gone(self) -> None:
        """At start: invitations to tables that did not come back are closed (a new table may get
        that number)."""
        reg = self.registry
        try:
            for inv in reg.people.invitations():
                if inv.table_id not in reg.tables:
                    reg.people.withdraw(inv.id)
        except StoreError as exc:
            log.warning("the open invitations could not be read: %s", exc)


__all__ = ["INVITES_PER_WINDOW", "INVITE_WINDOW", "Host", "Invitations", "InvitedTable"]
