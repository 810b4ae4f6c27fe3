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
before its key exchange, a banned key as soon as it has proven it holds the key.  A key's ban
also keeps guests out from the addresses its person came from (a banned person would come back
as a guest with the password otherwise), for as long as it lasts.  :class:`Bans` also keeps the
recent visitors (their key, name and addresses), from whom an admin picks somebody who is not
online.  What changes is in memory at once and written to the store by a thread of its own:
nothing an admin or a visitor does waits for a disk on the event loop.

An address is banned as the door's limits count it (:func:`.auth.place`): an IPv4-mapped IPv6
address (``::ffff:1.2.3.4``) is its IPv4 one, and an IPv6 address bans its /64, since one
machine or one home holds all 2^64 addresses of it and would step to the next one; the ban is
kept and listed as that /64 (``address:2001:db8::/64``).
"""

from __future__ import annotations

import collections
import concurrent.futures
import ipaddress
import logging
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ...table.seats import KEY_PREFIX
from ...text import printable
from ..config import is_fingerprint
from ..door.auth import GUEST_MARK, Identity, place
from ..person import PersonId
from ..tables.server_table import FORMING, LobbyLine
from .people import ADDRESS_PREFIX, VISITS_KEEP, Ban, PeopleStore, StoreError, Visit

if TYPE_CHECKING:
    from ..lobby.registry import Registry

log = logging.getLogger("canasta.server")

#: The longest ban (a year); a ban of 0 seconds is no ban.
LONGEST_BAN = 365 * 86400.0
#: The longest announcement.
ANNOUNCE_MAX = 200
#: The addresses a visitor's record keeps (the last first): a ban of them keeps guests out from these.
ADDRESSES_KEPT = 5


class AdminRefused(Exception):
    """An admin action that cannot be done; the message says why."""


def when(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(t))


def ban_message(ban: Ban, guest: bool = False) -> str:
    """What a banned key or address (``guest``: a guest from an address a banned person used) is told."""
    why = f" ({printable(ban.reason)})" if ban.reason else ""
    if guest:
        return f"Guests from your address are kept out of this server until {when(ban.until)}{why}."
    what = "Your key" if ban.target.startswith(KEY_PREFIX) else "Your address"
    return f"{what} is banned from this server until {when(ban.until)}{why}."


def listed(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return " and ".join(items) if len(items) < 3 else ", ".join(items[:-1]) + " and " + items[-1]


class Bans:
    """The bans in force and the recent visitors, read from the store at start; their changes are
    kept in memory at once and written to the store by :attr:`writer`'s thread (never on the loop)."""

    def __init__(self, people: PeopleStore, clock: Callable[[], float] = time.time) -> None:
        self.people = people
        self.clock = clock
        self._bans: dict[str, Ban] = {}
        #: Recent visitors by key, the newest last.
        self._visits: collections.OrderedDict[str, Visit] = collections.OrderedDict()
        self.writer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="canasta-bans")
        #: Bans added (or lifted: None) here and not written yet, by target: a read of the store
        #: made meanwhile (another process's notice) does not undo them.
        self._pending: dict[str, Ban | None] = {}
        #: Told (on the writer's thread) once a change is written: other processes sharing the store read again.
        self.on_written: Callable[[], None] | None = None
        self._writes: list[concurrent.futures.Future[None]] = []
        try:
            self._bans = {ban_key(b.target): b for b in people.bans(clock())}
            for v in reversed(people.visits(VISITS_KEEP)):
                self._visits[v.key] = v
        except StoreError as exc:
            log.warning("the bans could not be read: %s (nobody is banned until they are)", exc)
        if self._bans:
            log.info("%d bans in force", len(self._bans))

    # ------------------------------------------------------------------ the door asks
    def of(self, target: str) -> Ban | None:
        target = ban_key(target)
        ban = self._bans.get(target)
        if ban is not None and ban.until <= self.clock():
            del self._bans[target]
            return None
        return ban

    def key(self, fingerprint: str) -> Ban | None:
        return self.of(KEY_PREFIX + fingerprint)

    def address(self, address: str) -> Ban | None:
        """The ban of ``address``'s place (an IPv6 address's /64)."""
        return self.of(ADDRESS_PREFIX + address)

    def guest(self, address: str) -> Ban | None:
        """The ban of a person who came from ``address`` (its place): it keeps guests out from there too."""
        now = self.clock()
        return next((b for b in self._bans.values() if b.until > now and covers(b.addresses, address)), None)

    # ------------------------------------------------------------------ changes (the store's thread writes them)
    def _write(self, what: str, write: Callable[[], object], failed: Callable[[str], None] | None,
               pending: tuple[str, Ban | None] | None = None) -> None:
        if pending is not None:
            self._pending[pending[0]] = pending[1]

        def run() -> None:
            try:
                write()
                if pending is not None and self._pending.get(pending[0], False) is pending[1]:
                    del self._pending[pending[0]]          # (written: the store says it from now on)
                if self.on_written is not None:
                    self.on_written()
            except StoreError as exc:
                log.warning("%s could not be kept: %s (it holds until the server restarts)", what, exc)
                if failed is not None:
                    failed(f"{what} could not be kept (the server's store failed): it holds until the server "
                           "restarts")
        self._writes = [f for f in self._writes if not f.done()]
        self._writes.append(self.writer.submit(run))

    def add(self, ban: Ban, failed: Callable[[str], None] | None = None) -> None:
        """``ban`` is in force now; the store keeps it soon (``failed`` is told if it cannot, on the writer's thread)."""
        self._bans[ban_key(ban.target)] = ban
        whom = ban.name or ban.target.removeprefix(KEY_PREFIX).removeprefix(ADDRESS_PREFIX)
        self._write(f"The ban of {whom}", lambda: self.people.ban(ban), failed, (ban_key(ban.target), ban))

    def remove(self, target: str, failed: Callable[[str], None] | None = None) -> Ban | None:
        """The ban of ``target`` is lifted now (the one lifted, or None: there was none in force)."""
        gone = self._bans.pop(ban_key(target), None)
        # (a ban kept before addresses had one form is kept under the form it was given in)
        kept = {target} | ({gone.target} if gone is not None else set())
        self._write("The lifting of the ban", lambda: [self.people.unban(t) for t in sorted(kept)], failed,
                    (ban_key(target), None))
        return gone if gone is not None and gone.until > self.clock() else None

    def read_again(self, bans: list[Ban]) -> list[Ban]:
        """The bans as the shared store holds them now (another process banned or lifted one): they
        replace these; the bans new here (to enforce on whoever is connected)."""
        now = self.clock()
        fresh = {ban_key(b.target): b for b in bans if b.until > now}
        for key, mine in list(self._pending.items()):      # (this process's changes not written yet stand)
            if mine is None:
                fresh.pop(key, None)
            else:
                fresh[key] = mine
        new = [b for k, b in fresh.items() if self._bans.get(k) != b]
        self._bans = fresh
        return new

    def in_force(self) -> list[Ban]:
        now = self.clock()
        return [b for b in self._bans.values() if b.until > now]

    # ------------------------------------------------------------------ recent visitors
    def visited(self, ident: Identity, address: str) -> None:
        """``ident`` came in from ``address``: they are the newest visitor, with their addresses."""
        key = str(ident.person)           # (the store keeps its visitors as text)
        old = self._visits.pop(key, None)
        used = (address, *(a for a in (old.addresses if old else ()) if a != address))[:ADDRESSES_KEPT]
        visit = Visit(key, ident.label, tuple(a for a in used if a), self.clock())
        self._visits[key] = visit
        while len(self._visits) > VISITS_KEEP:
            self._visits.popitem(last=False)
        self._write("A visit", lambda: self.people.visit(visit), None)

    def visitors(self) -> list[Visit]:
        """The recent visitors, the newest first."""
        return list(reversed(self._visits.values()))

    def visitor(self, who: str) -> Visit | None:
        """The newest visitor ``who`` names: their key, their key's fingerprint, or their name."""
        who = who.strip()
        got = self._visits.get(who) or self._visits.get(KEY_PREFIX + who)
        if got is not None:
            return got
        wanted = who.casefold()
        return next((v for v in reversed(self._visits.values())
                     if wanted in (v.name.casefold(), v.name.casefold().lstrip(GUEST_MARK))), None)

    def flush(self, timeout: float = 30.0) -> None:
        """Wait for the writes under way (a test, and the server's stop)."""
        concurrent.futures.wait(list(self._writes), timeout)

    def close(self) -> None:
        self.writer.shutdown(wait=True)


def ban_key(target: str) -> str:
    """A ban's target in its one form: an address's as its place (``::ffff:1.2.3.4`` is
    ``1.2.3.4``, an IPv6 address its /64); a key's as it is."""
    if target.startswith(ADDRESS_PREFIX):
        return ADDRESS_PREFIX + place(target.removeprefix(ADDRESS_PREFIX))
    return target


def covers(addresses: Sequence[str], address: str) -> bool:
    """Is ``address`` one of ``addresses``, as places (an IPv6 address's /64) count?"""
    where = place(address)
    return bool(address) and any(place(a) == where for a in addresses)


def ban_target(who: str) -> str:
    """A ban's target from what an admin typed: a key's fingerprint (``SHA256:…``, or ``key:SHA256:…``)
    or an IP address (an IPv6 address's /64, or the /64 as the bans page lists it); AdminRefused otherwise."""
    who = who.strip()
    fp = who.removeprefix(KEY_PREFIX)
    if is_fingerprint(fp):
        return KEY_PREFIX + fp
    text = who.removeprefix(ADDRESS_PREFIX)
    try:
        if text.endswith("/64"):
            net = ipaddress.ip_network(text, strict=False)
            if isinstance(net, ipaddress.IPv6Network):
                return ADDRESS_PREFIX + str(net)
        return ADDRESS_PREFIX + place(str(ipaddress.ip_address(text)))
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
        text = announcement(text)
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
                c.back_to_lobby(f"Table {table_id} was {why}; the server keeps its game")
        log.info("admin %s closed table %d%s", by.log_text(), table_id, f" ({printable(reason)})" if reason else "")

    def remove(self, by: Identity, key: PersonId, reason: str = "") -> bool:
        """Disconnect the person ``key`` (a key or a guest), telling them why; whether they
        were connected.  Their seats wait for them as after any drop."""
        self._check(by, "remove somebody")
        client = self.registry.clients.get(key)
        if client is None:
            return False
        client.kick("An admin removed you from this server" + (f": {printable(reason)}" if reason else "."))
        log.info("admin %s removed %s%s", by.log_text(), client.identity.log_text(),
                 f" ({printable(reason)})" if reason else "")
        return True

    def ban(self, by: Identity, who: str, seconds: float, reason: str = "", told: Callable[[str], None] | None = None
            ) -> Ban:
        """Keep a key (``SHA256:…``) or an address out for ``seconds``; whoever is connected with it is
        disconnected.  A key's ban keeps guests out from the addresses its person came from too (the
        recent visitors say which).  Kept across restarts (``told``: the admin, if the store fails)."""
        self._check(by, "ban")
        target = ban_target(who)
        check_ban(by, target, seconds)
        here = self.registry.clients.get(by.person)
        if here is not None and here.address and target == ADDRESS_PREFIX + place(here.address):
            raise AdminRefused("You cannot ban the address you are connected from")
        now = self.bans.clock()
        visit = self.bans.visitor(target) if target.startswith(KEY_PREFIX) else None
        ban = Ban(target, now + seconds, printable(reason)[:200], str(by.person), now, visit.name if visit else "",
                  visit.addresses if visit else ())
        self.bans.add(ban, told)
        log.warning("admin %s banned %s until %s%s%s", by.log_text(), target, when(ban.until),
                    f" ({ban.reason})" if ban.reason else "",
                    f", and guests from {', '.join(ban.addresses)}" if ban.addresses else "")
        self.enforce(ban)
        return ban

    def read_again(self, bans: list[Ban]) -> None:
        """The bans another process sharing the store wrote: in force here too, and whoever they
        keep out is disconnected here as well."""
        for ban in self.bans.read_again(bans):
            log.warning("a ban made at another server is in force here: %s until %s", ban.target, when(ban.until))
            self.enforce(ban)

    def enforce(self, ban: Ban) -> None:
        """Disconnect whoever ``ban`` keeps out, telling them why."""
        target = ban.target
        message = ban_message(ban)
        if target.startswith(KEY_PREFIX):
            for key, client in list(self.registry.clients.items()):
                if str(key) == target:
                    client.kick(message)
                elif not client.identity.verified and covers(ban.addresses, client.address):
                    client.kick(ban_message(ban, guest=True))
        else:
            self.drop_address(target.removeprefix(ADDRESS_PREFIX), message)

    def unban(self, by: Identity, who: str, told: Callable[[str], None] | None = None) -> bool:
        """Lift the ban of a key or an address (``who`` as :meth:`ban` takes it); whether one was in force."""
        self._check(by, "lift a ban")
        target = ban_target(who)
        gone = self.bans.remove(target, told)
        log.warning("admin %s lifted the ban of %s", by.log_text(), target)
        return gone is not None


def announcement(text: str) -> str:
    """An announcement as it is sent (one line, printable); AdminRefused when it cannot be one."""
    text = " ".join(printable(text).split())
    if not text:
        raise AdminRefused("An announcement needs some words")
    if len(text) > ANNOUNCE_MAX:
        raise AdminRefused(f"An announcement is at most {ANNOUNCE_MAX} characters (this one has {len(text)})")
    return text


def check_ban(by: Identity, target: str, seconds: float) -> None:
    """AdminRefused unless ``by`` may ban ``target`` for ``seconds``."""
    if not 0 < seconds <= LONGEST_BAN:
        raise AdminRefused(f"A ban lasts from 1 second to {round(LONGEST_BAN / 86400)} days")
    if target == KEY_PREFIX + by.fingerprint:
        raise AdminRefused("You cannot ban your own key")


__all__ = ["ADDRESSES_KEPT", "ANNOUNCE_MAX", "LONGEST_BAN", "Admin", "AdminRefused", "Bans", "announcement", "ban_message",
           "ban_target", "check_ban", "listed", "when"]
