"""One game per autosave: an advisory lock (``fcntl.flock``) on ``autosave.json.lock``.

The lock is held for as long as the game runs (the open file descriptor holds it; the
kernel drops it when the process ends, even after ``kill -9``).  A second ``canasta``
started meanwhile does not touch that autosave: it plays a separate game autosaved to
``autosave-2.json`` (then ``-3`` ...), and says so.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

from . import paths
from .safe_io import Unreadable, kind_of, read_regular
from .saves import remove_stale_temps

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: no locking, one game at a time is up to the user
    fcntl = None  # type: ignore[assignment]

MAX_SLOTS = 9
_held: list[AutosaveLock] = []   # the locks of this process (kept open until it ends)


class AutosaveLock:
    """The lock of one autosave file."""

    def __init__(self, autosave: Path) -> None:
        self.autosave = autosave
        self.path = autosave.with_name(autosave.name + ".lock")
        self.fd: int | None = None
        self.problem: str | None = None

    def acquire(self) -> bool | None:
        """True: ours now; False: another process holds it; None: locking is impossible here
        (:attr:`problem` then says why, when the lock file itself is the reason).

        The lock file is opened without following a symbolic link, and anything but a regular
        file is left alone: the PID written into it must never land in somebody's file.
        """
        self.problem = None
        if fcntl is None:
            return None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            st = os.lstat(self.path)
        except FileNotFoundError:
            pass
        except OSError:
            return None
        else:
            if not stat.S_ISREG(st.st_mode):        # a FIFO or a device is not even opened
                self.problem = f"is {kind_of(st.st_mode)}, not a lock file"
                return None
        flags = (os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
                 | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
        try:
            fd = os.open(self.path, flags, 0o644)
        except OSError as exc:
            if exc.errno == errno.ELOOP:            # made a symbolic link since the lstat
                self.problem = "is a symbolic link, not a lock file"
            return None
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            os.close(fd)
            self.problem = f"is {kind_of(mode)}, not a lock file"
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        except OSError:
            os.close(fd)
            return None
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        self.fd = fd
        return True

    def holder(self) -> str:
        """The process id written by whoever holds the lock ("" if unknown)."""
        try:
            return read_regular(self.path, "a lock file", 64, follow_symlinks=False).decode("ascii").strip()
        except (Unreadable, UnicodeDecodeError):
            return ""

    def release(self) -> None:
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = None


def claim_autosave() -> tuple[Path, list[str]]:
    """The autosave this game may use, locked for the life of the process, and what to tell the player."""
    first = paths.autosave_path()
    for n in range(1, MAX_SLOTS + 1):
        path = paths.autosave_path(n)
        if any(h.autosave == path for h in _held):   # this process holds it already (tests, a restart)
            return path, []
        lock = AutosaveLock(path)
        got = lock.acquire()
        if got is None:          # cannot lock (read-only directory...): play on; autosave errors show
            if lock.problem is None:
                return path, []
            return path, [f"The lock file {lock.path} {lock.problem}; it is left alone, so this game is "
                          f"not protected from a second canasta autosaving to {path}. Remove it to fix this."]
        if got:
            _held.append(lock)
            remove_stale_temps(path)   # ours now: a temporary file left there is a write that was killed
            if n == 1:
                return path, []
            who = AutosaveLock(first).holder()
            return path, [f"Another canasta{f' (process {who})' if who else ''} is playing the game "
                          f"autosaved in {first}. This is a separate game, autosaved to {path} "
                          f"(canasta --load {path} plays it on later)."]
    raise RuntimeError(f"{MAX_SLOTS} games are running already (every {first.stem}-N.json is in use)")


def release_all() -> None:
    while _held:
        _held.pop().release()


__all__ = ["MAX_SLOTS", "AutosaveLock", "claim_autosave", "release_all"]
