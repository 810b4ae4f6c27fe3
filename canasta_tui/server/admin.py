"""What the server's admins can do, and the bans checked at the door.

Admins are people, known by their key's fingerprint (``admins`` in the server's settings file,
:mod:`.config_file`).  Each action is a typed method of :class:`Admin` that checks who asks,
does it, and logs it with the admin's fingerprint:

* :meth:`Admin.announce`: a line to everybody connected (and into the lobby's chat);
* :meth:`Admin.close_table`: a table leaves the server, its game kept (set aside), its people told;
* :meth:`Admin.remove`: a person is disconnected, told why;
* :meth:`Admin.ban` / :meth:`Admin.unban`: a key or an address is kept out for a time.

Bans are kept in the people store (:mod:`.people`), so they outlast a restart; :class:`Bans`
holds the ones in force in memory for the door (``ssh.py``): a banned address is refused
before its key exchange, a banned key as soon as it has proven it holds the key.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..table.seats import KEY_PREFIX
from ..text import printable
from .auth import Identity
from .config import is_fingerprint
from .people import ADDRESS_PREFIX, Ban, PeopleStore, StoreError
from .tables import FORMING, Destination, LobbyLine

if TYPE_CHECKING:
    from .registry import Registry

log = logging.getLogger("canasta.server")

#: The longest ban (a year); a ban of 0 seconds is no ban.
LONGEST_BAN = 365 * 86400.0
#: The longest announcement.
ANNOUNCE_MAX = 200


class AdminRefused(Exception):
    """An admin action that cannot be done; the message says why."""


def when(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(t))


def ban_message(ban: Ban) -> str:
    """What a banned key or address is told at the door."""
    what = "Your key" if ban.target.startswith(KEY_PREFIX) else "Your address"
    why = f" ({printable(ban.reason)})" if ban.reason else ""
    return f"{what} is banned from this server until {when(ban.until)}{why}."


class Bans:
    """The bans in force, read from the store at start and kept there as they change."""

    def __init__(self, people: PeopleStore, clock: Callable[[], float] = time.time) -> None:
        self.people = people
        self.clock = clock
        self._bans: dict[str, Ban] = {}
        try:
            self._bans = {b.target: b for b in people.bans(clock())}
        except StoreError as exc:
            log.warning("the bans could not be read: %s (nobody is banned until they are)", exc)
        if self._bans:
            log.info("%d bans in force", len(self._bans))

    def of(self, target: str) -> Ban | None:
        ban = self._bans.get(target)
        if ban is not None and ban.until <= self.clock():
            del self._bans[target]
            return None
        return ban

    def key(self, fingerprint: str) -> Ban | None:
        return self.of(KEY_PREFIX + fingerprint)

    def address(self, address: str) -> Ban | None:
        return self.of(ADDRESS_PREFIX + address)

    def add(self, ban: Ban) -> None:
        self.people.ban(ban)            # StoreError: not in force either (it would not outlast a restart)
        self._bans[ban.target] = ban

    def remove(self, target: str) -> bool:
        self.people.unban(target)
        return self._bans.pop(target, None) is not None

    def in_force(self) -> list[Ban]:
        now = self.clock()
        return [b for b in self._bans.values() if b.until > now]


def ban_target(who: str) -> str:
    """A ban's target from what an admin typed: a key's fingerprint (``SHA256:…``, or ``key:SHA256:…``)
    or an IP address; AdminRefused otherwise."""
    who = who.strip()
    fp = who.removeprefix(KEY_PREFIX)
    if is_fingerprint(fp):
        return KEY_PREFIX + fp
    try:
        return ADDRESS_PREFIX + str(ipaddress.ip_address(who.removeprefix(ADDRESS_PREFIX)))
    except ValueError:
        raise AdminRefused(f"{printable(who)[:60]!r} is neither a key's fingerprint (SHA256:…) nor an IP "
                           "address") from None


class Admin:
    """The admins' actions on a server's tables and people."""

    def __init__(self, registry: Registry, bans: Bans) -> None:
        self.registry = registry
        self.bans = bans
        #: Disconnects everybody connected from an address (the server's sessions), with a reason.
        self.drop_address: Callable[[str, str], int] = lambda address, reason: 0

    def is_admin(self, ident: Identity) -> bool:
        return ident.verified and ident.fingerprint in self.registry.config.admins

    def _check(self, by: Identity, what: str) -> None:
        if not self.is_admin(by):
            log.warning("%s tried to %s: not an admin, refused", by.log_text(), what)
            raise AdminRefused("Only the server's admins can do that")

    # ------------------------------------------------------------------ the actions
    def announce(self, by: Identity, text: str) -> int:
        """A line to everybody connected, and into the lobby's chat; how many were told."""
        self._check(by, "announce")
        text = " ".join(printable(text).split())
        if not text:
            raise AdminRefused("An announcement needs some words")
        if len(text) > ANNOUNCE_MAX:
            raise AdminRefused(f"An announcement is at most {ANNOUNCE_MAX} characters (this one has {len(text)})")
        reg = self.registry
        line = LobbyLine("Server", text)
        reg.chat.append(line)
        reg.keep_chat(line)
        clients = list(reg.clients.values())
        for c in clients:
            c.notify(f"Announcement: {text}")
        reg.changed()
        log.info("admin %s announced: %s", by.log_text(), text)
        return len(clients)

    def close_table(self, by: Identity, table_id: int, reason: str = "") -> None:
        """Table ``table_id`` leaves the server: a table not started goes, a started one is set aside
        (its game kept in its file); everybody at it goes back to the lobby, told why."""
        self._check(by, f"close table {table_id}")
        reg = self.registry
        st = reg.tables.get(table_id)
        if st is None:
            raise AdminRefused(f"There is no table {table_id}")
        why = "closed by an admin" + (f": {printable(reason)}" if reason else "")
        if st.state == FORMING:
            reg.clear(st, f"Table {table_id} was {why}")
        else:
            present = [c for c, _ in st.links.values()] + list(st.watchers)
            reg.set_aside(st, why)
            for c in present:
                c.moved(Destination(table_id, None))      # the table is gone: they are back in the lobby
                c.notify(f"Table {table_id} was {why}; the server keeps its game")
        log.info("admin %s closed table %d%s", by.log_text(), table_id, f" ({printable(reason)})" if reason else "")

    def remove(self, by: Identity, key: str, reason: str = "") -> bool:
        """Disconnect the person ``key`` (``key:SHA256:…`` or a guest's), telling them why; whether they
        were connected.  Their seats wait for them as after any drop."""
        self._check(by, "remove somebody")
        client = self.registry.clients.get(key)
        if client is None:
            return False
        client.kick("An admin removed you from this server" + (f": {printable(reason)}" if reason else "."))
        log.info("admin %s removed %s%s", by.log_text(), client.identity.log_text(),
                 f" ({printable(reason)})" if reason else "")
        return True

    def ban(self, by: Identity, who: str, seconds: float, reason: str = "") -> Ban:
        """Keep a key (``SHA256:…``) or an address out for ``seconds``; whoever is connected with it is
        disconnected.  Kept across restarts."""
        self._check(by, "ban")
        target = ban_target(who)
        if not 0 < seconds <= LONGEST_BAN:
            raise AdminRefused(f"A ban lasts from 1 second to {round(LONGEST_BAN / 86400)} days")
        if target == KEY_PREFIX + by.fingerprint:
            raise AdminRefused("You cannot ban your own key")
        now = self.bans.clock()
        ban = Ban(target, now + seconds, printable(reason)[:200], by.key, now)
        try:
            self.bans.add(ban)
        except StoreError as exc:
            log.warning("admin %s could not ban %s: %s", by.log_text(), target, exc)
            raise AdminRefused("The ban could not be kept (the server's store failed): try again") from None
        log.warning("admin %s banned %s until %s%s", by.log_text(), target, when(ban.until),
                    f" ({ban.reason})" if ban.reason else "")
        message = ban_message(ban)
        if target.startswith(KEY_PREFIX):
            for key, client in list(self.registry.clients.items()):
                if key == target:
                    client.kick(message)
        else:
            self.drop_address(target.removeprefix(ADDRESS_PREFIX), message)
        return ban

    def unban(self, by: Identity, who: str) -> bool:
        self._check(by, "lift a ban")
        target = ban_target(who)
        try:
            gone = self.bans.remove(target)
        except StoreError as exc:
            raise AdminRefused(f"The ban could not be lifted (the server's store failed: {exc})") from None
        log.warning("admin %s lifted the ban of %s", by.log_text(), target)
        return gone


__all__ = ["ANNOUNCE_MAX", "LONGEST_BAN", "Admin", "AdminRefused", "Bans", "ban_message", "ban_target"]
