"""Who may enter the server, and who they are once in.

**A person is their key.**  OpenSSH offers the user's keys by default; whenever a client
proves that it holds a key (a valid signature), the person is that key's fingerprint, in
every mode: with ``--open`` any key gets in, with ``--authorized-keys`` a listed one, and with
``--password`` the key is proven first and the password is still the door.  The SSH user
name is the name shown at the table, a label that the key reserves (:mod:`.names`).

A client that proves no key may come in where the mode allows it (``--open``, or the
password) as a *guest*: their name is shown with a ``~`` and can never be one a key
reserved.  A guest is their connection: the server gives them a short code, and their seat
goes back only to whoever types that code, never to the name.

Every failed password or guest code costs time: a few are free, then one try every
:data:`GuessThrottle.SLOW` seconds, then none for a while.  What pays is where the guesses come
from and what they guess, never a name alone (three wrong passwords typed as ``alice`` from
anywhere kept the real alice out): the place (:func:`place`: an IPv4 address, an IPv6 /64), and
the place with the name guessed for.  A person who proves a key that holds a name here pays only
for their own wrong passwords (their key), never for anybody else's guesses.
"""

from __future__ import annotations

import collections
import hashlib
import hmac
import ipaddress
import logging
import os
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import asyncssh

from ...persistence.safe_io import Unreadable, read_regular
from ...text import printable
from ..config import ConfigError, ServerConfig
from ..person import PersonId
from .names import NameRefused, check_name

log = logging.getLogger("canasta.server")

#: An authorized-keys file is a list of keys; anything much bigger is not one.
MAX_KEYS_BYTES = 1024 * 1024
#: The mark of a guest's name (a client with no key), at the tables and in the lobby.
GUEST_MARK = "~"
#: A guest's code: letters and digits nobody misreads (no 0/O, 1/I/L), in two groups of four.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 8


class Identity(NamedTuple):
    """Who a connection is: the name shown, and the fingerprint of the key it proved, or (a
    guest) the digest of the code the server gave it."""

    name: str
    fingerprint: str = ""
    guest: str = ""

    @property
    def person(self) -> PersonId:
        """The person: their key, or their guest code's digest."""
        if not (self.fingerprint or self.guest):
            raise ValueError("an identity is a key's fingerprint or a guest's code")
        return PersonId.of_key(self.fingerprint) if self.fingerprint else PersonId.of_guest(self.guest)

    @property
    def verified(self) -> bool:
        """Proven by a key: the name is theirs on this server."""
        return bool(self.fingerprint)

    @property
    def label(self) -> str:
        """The name at the tables: a guest's is marked."""
        return self.name if self.verified else GUEST_MARK + self.name

    def log_text(self) -> str:
        """Who this is, for the server's log: the name and the key (or that it is a guest)."""
        return f"{printable(self.name)} (key {self.fingerprint})" if self.verified else f"{printable(self.label)} (guest)"


def new_guest_code() -> str:
    """A fresh code for a guest: ``K7PX-M2QA`` (40 bits: not guessed at a few tries a minute)."""
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return f"{code[:4]}-{code[4:]}"


def _code_letters(code: str) -> str:
    """A code's letters and digits, as typed in any case and with any separators."""
    return "".join(c for c in code.upper() if c.isalnum())


def code_text(code: str) -> str:
    """A code as typed (``k7pxm2qa``, ``K7PX M2QA``) as it is shown: ``K7PX-M2QA``."""
    clean = _code_letters(code)
    return f"{clean[:4]}-{clean[4:]}" if len(clean) > 4 else clean


def guest_digest(code: str) -> str:
    """What a seat keeps of a guest's code (the code itself is never written down)."""
    return hashlib.sha256(b"canasta-guest:" + _code_letters(code).encode()).hexdigest()[:24]


def guest_identity(name: str, code: str) -> Identity:
    return Identity(name, guest=guest_digest(code))


def plain_address(address: str) -> str:
    """An address in the one form it is compared, kept and shown in: an IPv4-mapped IPv6 address
    (``::ffff:127.0.0.1``, what a dual-stack socket reports for an IPv4 client) as its IPv4 one,
    an IPv6 address compressed; anything else ("?", "") as it is."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ip)


def place(address: str) -> str:
    """Where a connection comes from, as the door's limits and the bans count it: an IPv4 address
    as it is, an IPv6 address by its /64 (one machine, or one home: it holds 2^64 addresses to
    rotate through), an IPv4-mapped IPv6 address as its IPv4 one; anything else ("?", "") as it is."""
    plain = plain_address(address)
    try:
        ip = ipaddress.ip_address(plain)
    except ValueError:
        return plain
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return plain


def player_name(username: str) -> str:
    """The name a user name gives at the table, or NameRefused saying why it cannot."""
    try:
        return check_name(username)
    except NameRefused as exc:
        raise NameRefused(f"the user name cannot be your name at the table: {exc}. "
                          "Connect with ssh -l NAME (up to 20 letters, digits, spaces, - _ . ')") from None


class GuessThrottle:
    """What a wrong password (or guest code) costs: per place and per what was guessed, the first
    :attr:`FREE` failures in :attr:`WINDOW` are free, then each try waits until :attr:`SLOW`
    seconds after the last failure, and after :attr:`LOCK_AFTER` failures every try is refused
    for :attr:`LOCKED` seconds."""

    FREE = 3
    SLOW = 20.0
    LOCK_AFTER = 10
    LOCKED = 900.0
    WINDOW = 900.0
    #: Places and guesses remembered at most (the oldest are forgotten first).
    KEEP = 10000

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._failures: collections.OrderedDict[str, list[float]] = collections.OrderedDict()
        self._next: dict[str, float] = {}        # the earliest time of the next try booked

    def _recent(self, who: str) -> list[float]:
        now = self.clock()
        times = [t for t in self._failures.get(who, ()) if now - t < max(self.WINDOW, self.LOCKED)]
        if times:
            self._failures[who] = times
            self._failures.move_to_end(who)
        else:
            self._failures.pop(who, None)
            self._next.pop(who, None)
        return times

    def wait(self, *who: str) -> float | None:
        """Book the next try from ``who``: seconds to wait before it is looked at (tries waiting
        at once are spaced :attr:`SLOW` apart, not let through together); None: refused (locked)."""
        now = self.clock()
        start = now
        slowed = []
        for w in who:
            times = self._recent(w)
            if len(times) >= self.LOCK_AFTER and now - times[-1] < self.LOCKED:
                return None
            if len(times) >= self.FREE:
                slowed.append(w)
                start = max(start, times[-1] + self.SLOW, self._next.get(w, 0.0))
        for w in slowed:
            self._next[w] = start + self.SLOW
        return start - now

    def failed(self, *who: str) -> None:
        now = self.clock()
        for w in who:
            self._recent(w)
            self._failures.setdefault(w, []).append(now)
            self._failures.move_to_end(w)
        while len(self._failures) > self.KEEP:
            gone, _ = self._failures.popitem(last=False)
            self._next.pop(gone, None)

    def succeeded(self, *who: str) -> None:
        for w in who:
            self._failures.pop(w, None)
            self._next.pop(w, None)


class AuthorizedKeys:
    """An authorized-keys file, read again whenever it changes (friends can be added while it runs)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp: tuple[int, int, int] | None = None
        self._keys: asyncssh.SSHAuthorizedKeys | None = None
        self.load(strict=True)

    def load(self, strict: bool = False) -> None:
        try:
            st = os.stat(self.path)
            stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
            if stamp == self._stamp:
                return
            text = read_regular(self.path, "an authorized-keys file", MAX_KEYS_BYTES).decode("utf-8")
            keys = asyncssh.import_authorized_keys(text)
        except (OSError, Unreadable, UnicodeDecodeError, ValueError, asyncssh.KeyImportError) as exc:
            why = exc.reason if isinstance(exc, Unreadable) else getattr(exc, "strerror", None) or str(exc)
            message = f"{printable(str(self.path))}: cannot use the authorized keys: {printable(str(why))}"
            if strict:
                raise ConfigError(message) from None
            log.warning("%s (the keys read before still count)", message)
            return
        self._stamp, self._keys = stamp, keys

    def allows(self, key: asyncssh.SSHKey, address: str) -> bool:
        self.load()
        return self._keys is not None and self._keys.validate(key, address, address) is not None


class Gate:
    """The server's door: keys, the password, and the price of a wrong guess."""

    def __init__(self, config: ServerConfig) -> None:
        self.open = config.open
        self._password = config.password.encode("utf-8") if config.password else None
        self.keys = AuthorizedKeys(config.authorized_keys) if config.authorized_keys else None
        self.throttle = GuessThrottle()
        # ``login_attempts`` wrong ones lock the address (or name) out for a while.
        self.throttle.LOCK_AFTER = config.login_attempts
        self.throttle.FREE = min(GuessThrottle.FREE, config.login_attempts)

    def key_enough(self, key: asyncssh.SSHKey, address: str) -> bool:
        """Does proving this key let the client in by itself (open mode, or a listed key)?"""
        return self.open or self.key_allowed(key, address)

    @property
    def by_key(self) -> bool:
        return self.keys is not None

    @property
    def by_password(self) -> bool:
        return self._password is not None

    def key_allowed(self, key: asyncssh.SSHKey, address: str) -> bool:
        return self.keys is not None and self.keys.allows(key, address)

    def password_ok(self, password: str) -> bool:
        if self._password is None:
            return False
        return hmac.compare_digest(password.encode("utf-8", "surrogatepass"), self._password)


def fingerprint(key: asyncssh.SSHKey) -> str:
    return str(key.get_fingerprint("sha256"))


__all__ = ["GUEST_MARK", "AuthorizedKeys", "Gate", "GuessThrottle", "Identity", "NameRefused", "code_text",
           "fingerprint", "guest_digest", "guest_identity", "new_guest_code", "place", "player_name"]
