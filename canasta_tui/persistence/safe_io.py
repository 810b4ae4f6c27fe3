"""Reading a file that a user, a setting or another program named: only regular files, and only so much.

A path may name anything: a FIFO (reading it waits for a writer, forever), ``/dev/zero``
(endless), a terminal, a directory, or a symbolic link to any of these.  :func:`read_regular`
looks at the path first (so that a device is never even opened), opens it without
blocking, checks the type and size again on the opened descriptor (the path may have
changed in between), and reads at most ``limit + 1`` bytes.  Every refusal is a
:class:`Unreadable` whose ``reason`` says what the path is.

Symbolic links are followed by default: a save or a settings file linked from elsewhere
(a dotfiles repository) is legitimate, and what is checked is the file reached.  Our own
bookkeeping files (the autosave's lock) are read with ``follow_symlinks=False``.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

#: How big a chunk to read at a time.
_CHUNK = 1 << 16

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link"))


class Unreadable(Exception):
    """A path that was not read: ``reason`` says why (``missing`` when nothing is there)."""

    def __init__(self, path: Path, reason: str, missing: bool = False) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason
        self.missing = missing


def kind_of(mode: int) -> str:
    """What a file of this ``st_mode`` is, in words ("a FIFO (named pipe)")."""
    for test, words in _KINDS:
        if test(mode):
            return words
    return "not a regular file"


def _os_reason(exc: OSError) -> str:
    if exc.errno == errno.ENOENT:
        return "no such file"
    return f"cannot read: {exc.strerror or exc}"


def _check(path: Path, st: os.stat_result, what: str, limit: int) -> None:
    if not stat.S_ISREG(st.st_mode):
        raise Unreadable(path, f"is {kind_of(st.st_mode)}, not {what}")
    if st.st_size > limit:
        raise Unreadable(path, f"too large to be {what} ({st.st_size} bytes; at most {limit})")


def read_regular(path: str | os.PathLike[str], what: str, limit: int, *, follow_symlinks: bool = True) -> bytes:
    """The bytes of the regular file at ``path`` (at most ``limit``), or :class:`Unreadable`.

    ``what`` names what the file should be ("a Canasta save"), for the messages:
    "is a FIFO (named pipe), not a Canasta save", "too large to be a Canasta save".
    """
    path = Path(path)
    try:
        _check(path, os.stat(path, follow_symlinks=follow_symlinks), what, limit)
        flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
        if not follow_symlinks:
            flags |= getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow_symlinks:
            raise Unreadable(path, f"is a symbolic link, not {what}") from None
        raise Unreadable(path, _os_reason(exc), missing=exc.errno == errno.ENOENT) from None
    try:
        _check(path, os.fstat(fd), what, limit)   # what was opened, not what the path named a moment ago
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise Unreadable(path, _os_reason(exc)) from None
    finally:
        os.close(fd)
    if total > limit:   # it grew after the check (or reports a size it does not hold, as /proc files do)
        raise Unreadable(path, f"too large to be {what} (more than {limit} bytes)")
    return b"".join(chunks)


__all__ = ["Unreadable", "kind_of", "read_regular"]
