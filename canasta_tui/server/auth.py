"""Who may enter the server, and who they are once in.

A player's name is the SSH user name (``ssh alice@host``), checked like ``--name``.  Their
*identity* (what a seat remembers, so that reconnecting gives it back) is the name alone
with a password or in open mode, and the name with the fingerprint of the key they logged
in with when the server takes an authorized-keys file: then nobody else can take a seat
by typing the same name.
"""

from __future__ import annotations

import hmac
import logging
import os
from pathlib import Path
from typing import NamedTuple

import asyncssh

from ..persistence.safe_io import Unreadable, read_regular
from ..text import BadName, check_name, printable
from .config import ConfigError, ServerConfig

log = logging.getLogger("canasta.server")

#: An authorized-keys file is a list of keys; anything much bigger is not one.
MAX_KEYS_BYTES = 1024 * 1024


class Identity(NamedTuple):
    """Who a connection is: the name shown at the table, and the key's fingerprint if any."""

    name: str
    fingerprint: str = ""

    @property
    def key(self) -> str:
        """The identity as a seat keeps it (and the save records it)."""
        return f"{self.name} {self.fingerprint}" if self.fingerprint else self.name


class NameRefused(Exception):
    """The SSH user name cannot be a player's name; the message says why."""


def player_name(username: str) -> str:
    """The name a user name gives at the table, or NameRefused saying why it cannot."""
    try:
        name = check_name(username)
    except BadName as exc:
        raise NameRefused(f"the user name cannot be your name at the table: {exc}; "
                          "connect with ssh -l NAME (up to 20 characters)") from None
    if not name:
        raise NameRefused("the user name is empty: connect with ssh -l NAME")
    return name


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
    """The server's door: names, keys and the password."""

    def __init__(self, config: ServerConfig) -> None:
        self.open = config.open
        self._password = config.password.encode("utf-8") if config.password else None
        self.keys = AuthorizedKeys(config.authorized_keys) if config.authorized_keys else None

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


__all__ = ["AuthorizedKeys", "Gate", "Identity", "NameRefused", "fingerprint", "player_name"]
