"""The server's host key: made once, kept private, and the same on every start.

Clients remember the key the first time they connect (OpenSSH's ``known_hosts``), so it
must not change: it is generated only when there is none, with ``O_EXCL`` (two servers
starting at once cannot both write one) and mode 0600 from the moment the file exists.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import asyncssh

from ...text import printable
from ..config import ConfigError

#: A host key is a few hundred bytes; anything much bigger is not one.
MAX_KEY_BYTES = 64 * 1024


def _read_key(path: Path) -> asyncssh.SSHKey:
    try:
        st = path.lstat()
    except OSError as exc:
        raise ConfigError(f"{printable(str(path))}: cannot read the host key: {exc.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        raise ConfigError(f"{printable(str(path))}: the host key is not a regular file; move it away")
    if st.st_mode & 0o077:
        raise ConfigError(f"{printable(str(path))}: the host key may be read by others (mode "
                          f"{stat.S_IMODE(st.st_mode):04o}); run chmod 600 on it, or move it away to make a new one")
    if st.st_size > MAX_KEY_BYTES:
        raise ConfigError(f"{printable(str(path))}: too big to be a host key")
    try:
        return asyncssh.read_private_key(str(path))
    except (OSError, ValueError, asyncssh.KeyImportError) as exc:
        raise ConfigError(f"{printable(str(path))}: not a usable host key ({printable(str(exc))}); "
                          "move it away to make a new one") from None


def host_key(path: Path) -> tuple[asyncssh.SSHKey, bool]:
    """The host key at ``path``, made now if there is none: (key, made now)."""
    if path.exists() or path.is_symlink():
        return _read_key(path), False
    key = asyncssh.generate_private_key("ssh-ed25519", comment="canasta serve")
    data = key.export_private_key()
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except FileExistsError:
        return _read_key(path), False       # another server made it a moment ago
    except OSError as exc:
        raise ConfigError(f"{printable(str(path))}: cannot write the host key: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except OSError as exc:
        path.unlink(missing_ok=True)
        raise ConfigError(f"{printable(str(path))}: cannot write the host key: {exc.strerror}") from None
    return key, True


def fingerprint(key: asyncssh.SSHKey) -> str:
    """``SHA256:...``, as ``ssh`` shows it when it first meets the server."""
    return str(key.get_fingerprint("sha256"))


__all__ = ["fingerprint", "host_key"]
