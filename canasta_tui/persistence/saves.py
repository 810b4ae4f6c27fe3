"""Saving and loading games: atomic writes, the autosave, named saves and bad files.

A save is the engine's record (``canasta_tui.engine.record``, documented in
``docs/save-format.md``): rules, deck orders, action log and a snapshot.  Loading
replays the log and checks the snapshot, so a save can never hold an impossible
position.

Promises kept here:

* a write is atomic (temporary file in the same directory, fsync, rename, fsync of
  the directory): a crash or ``kill -9`` leaves either the old file or the new one;
* a file that cannot be loaded is never overwritten: the autosave is renamed aside
  (``autosave.corrupt-<time>.json``) and the game goes on, a named save is refused;
* every failure is a :class:`SaveError` whose message says what is wrong and where
  the file is; nothing here lets a traceback reach the player.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any, NamedTuple, Protocol

from ..engine import CanastaError, Match, record
from ..text import points, printable
from . import paths
from .safe_io import Unreadable, read_regular

MAX_SAVE_BYTES = 16 * 1024 * 1024
SUFFIX = ".json"
#: What a save file is, in the messages ("is a FIFO (named pipe), not a Canasta save").
SAVE_WHAT = "a Canasta save"


class SaveError(Exception):
    """A save that cannot be read or written; ``str()`` says what and where."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class LoadedGame(NamedTuple):
    match: Match
    meta: dict[str, Any]
    path: Path


# --------------------------------------------------------------------------- writing

def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a directory; the rename is still atomic
    finally:
        os.close(fd)


def atomic_write_text(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` atomically, or raise SaveError and leave it as it was."""
    path = Path(path)
    directory = path.parent
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as exc:   # a lone surrogate (from a hand-edited file, or undecodable argv)
        raise SaveError(path, f"not written: the text holds {printable(exc.object[exc.start:exc.end])}, "
                              "which is not Unicode text") from None
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise SaveError(path, f"cannot write here: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise SaveError(path, f"cannot write: {exc.strerror or exc}") from None
        raise
    _fsync_dir(directory)


#: A temporary file older than this is no write in progress (a write takes milliseconds).
STALE_TEMP_SECONDS = 60.0


def remove_stale_temps(path: Path, older_than: float = STALE_TEMP_SECONDS) -> list[Path]:
    """Delete what writes of ``path`` left behind when they were killed (``kill -9``, a power cut).

    Only the names :func:`atomic_write_text` gives (``.<name>.XXXXXXXX.tmp`` next to ``path``, so
    ``autosave-2.json``'s are not ``autosave.json``'s), only regular files, only those older than
    ``older_than`` seconds.  The caller makes sure that nobody else writes ``path`` (it holds the lock).
    """
    path = Path(path)
    ours = re.compile(re.escape(f".{path.name}.") + r"[a-z0-9_]{8}" + re.escape(".tmp"))
    removed = []
    now = time.time()
    try:
        names = [e.name for e in os.scandir(path.parent)]
    except OSError:
        return []
    for name in names:
        if not ours.fullmatch(name):
            continue
        tmp = path.parent / name
        try:
            st = tmp.lstat()
            if stat.S_ISREG(st.st_mode) and now - st.st_mtime > older_than:
                tmp.unlink()
                removed.append(tmp)
        except OSError:
            continue
    return removed


def stamp() -> str:
    """A timestamp for file names: sortable, no colons (``20261121-204501``)."""
    return time.strftime("%Y%m%d-%H%M%S")


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def _aside(path: Path, tag: str) -> Path:
    """Rename ``path`` to ``<stem>.<tag>-<time>.json`` next to it (never replacing a file)."""
    base = f"{path.stem}.{tag}-{stamp()}"
    target = path.with_name(base + path.suffix)
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{base}-{n}{path.suffix}")
    try:
        os.rename(path, target)
    except OSError as exc:
        raise SaveError(path, f"cannot rename it to {target.name}: {exc.strerror or exc}") from None
    _fsync_dir(path.parent)
    return target


def write_save(path: Path, match: Match, meta: dict[str, Any] | None = None) -> Path:
    """Write ``match`` to ``path`` atomically (meta gets ``saved_at``)."""
    meta = dict(meta or {})
    meta["saved_at"] = now_iso()
    atomic_write_text(Path(path), record.dumps(match, meta))
    return Path(path)


# --------------------------------------------------------------------------- reading

def _reason_for_json(text: str, exc: json.JSONDecodeError) -> str:
    stripped = text.rstrip()
    if not stripped:
        return "the file is empty"
    if not stripped.strip("\0"):
        return "the file holds only zero bytes (the disk lost what was written?)"
    if exc.pos >= len(stripped) or (stripped[0] in "{[" and not stripped.endswith(("}", "]"))):
        return f"the file ends too early (truncated at line {exc.lineno}, column {exc.colno})"
    return f"not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}"


def read_record(path: Path) -> LoadedGame:
    """Load and check one save file; raises SaveError saying what is wrong with it."""
    path = Path(path)
    try:
        raw = read_regular(path, SAVE_WHAT, MAX_SAVE_BYTES)
    except Unreadable as exc:
        raise SaveError(path, exc.reason) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SaveError(path, f"not a Canasta save: not UTF-8 text (byte {exc.start})") from None
    return parse_record(text, path)


def parse_record(text: str, path: Path) -> LoadedGame:
    """Load and check one save's ``text`` (read from ``path``, or kept in a database under that
    name); raises SaveError saying what is wrong with it."""
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveError(path, _reason_for_json(text, exc)) from None
    except RecursionError:
        raise SaveError(path, "not a Canasta save: the JSON is nested too deeply") from None
    except ValueError as exc:  # a 5000-digit number
        raise SaveError(path, f"not a Canasta save: unreadable JSON ({str(exc)[:80]})") from None
    try:
        match = record.from_dict(data)
    except record.RecordError as exc:
        raise SaveError(path, str(exc)) from None
    except (CanastaError, ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as exc:
        # The engine's checks should catch everything; this is the last net under hostile files.
        raise SaveError(path, f"not a usable Canasta save ({type(exc).__name__}: {exc})") from None
    meta = data.get("meta") if isinstance(data, dict) else None
    return LoadedGame(match, meta if isinstance(meta, dict) else {}, path)


def load_file(path: str | os.PathLike[str]) -> LoadedGame:
    """``canasta --load FILE`` and F3: a save by path."""
    return read_record(Path(path).expanduser())


def is_finished(match: Match) -> bool:
    return match.winner is not None


# --------------------------------------------------------------------------- named saves

_NAME_OK = re.compile(r"[^\w.-]+")


def save_path_for(name: str) -> Path:
    """The file of a named save: ``NAME`` in the saves directory, or a path if it has a slash."""
    if os.sep in name or "/" in name:
        p = Path(name).expanduser()
        return p if p.suffix else p.with_suffix(SUFFIX)
    clean = _NAME_OK.sub("-", name.strip()).strip(".-") or "game"
    if clean.endswith(SUFFIX):
        clean = clean[: -len(SUFFIX)]
    return paths.saves_dir() / (clean + SUFFIX)


def save_named(match: Match, meta: dict[str, Any] | None, name: str) -> Path:
    """F4: save under a name (replacing an older save of ours with that name).

    A file of that name that is not a loadable Canasta save is never overwritten:
    SaveError says so and where it is.
    """
    path = save_path_for(name)
    if path.exists():
        try:
            read_record(path)
        except SaveError as exc:
            raise SaveError(path, f"not overwriting it: it is not a save this program can read ({exc.reason})") from None
    return write_save(path, match, meta)


@dataclass(frozen=True)
class SaveInfo:
    """One line of the F3 list."""

    name: str
    path: Path
    modified: float
    summary: str          # "hand 3, 1,250 to 980" or what is wrong with the file
    ok: bool


def _summary(data: Any) -> str:
    snap = data.get("snapshot") if isinstance(data, dict) else None
    hands = data.get("hands") if isinstance(data, dict) else None
    if not isinstance(snap, dict) or not isinstance(hands, list):
        return "not a Canasta save"
    scores = snap.get("scores")
    # Only numbers are shown: the file is not trusted until it is loaded, and text in it may hold escapes.
    score_text = (" to ".join(points(s) if type(s) is int else "?" for s in scores[:4])
                  if isinstance(scores, list) else "?")
    return f"hand {len(hands)}, {score_text}"


def list_saves(directory: Path | None = None) -> list[SaveInfo]:
    """The named saves, newest first.  Cheap: reads each file's summary, does not replay."""
    directory = directory or paths.saves_dir()
    out = []
    try:
        files = [p for p in directory.iterdir() if p.suffix == SUFFIX and not p.name.startswith(".")]
    except OSError:
        return []
    for p in files:
        try:
            modified = p.stat().st_mtime
        except OSError:
            continue
        try:
            data = json.loads(read_regular(p, SAVE_WHAT, MAX_SAVE_BYTES).decode("utf-8"))
            summary, ok = _summary(data), isinstance(data, dict) and data.get("format") == record.FORMAT
        except Unreadable as exc:
            summary, ok = exc.reason, False     # a FIFO or /dev/zero is named, never read
        except (ValueError, RecursionError):
            summary, ok = "unreadable", False
        out.append(SaveInfo(printable(p.stem), p, modified, summary, ok))
    out.sort(key=lambda s: s.modified, reverse=True)
    return out


# --------------------------------------------------------------------------- the autosave

@dataclass
class Resume:
    """What ``canasta`` finds at start: an unfinished game to offer, and notices to show."""

    game: LoadedGame | None = None
    notices: list[str] = field(default_factory=list)


def find_autosave(path: Path | None = None, then: str = "a new game starts") -> Resume:
    """The unfinished autosaved game, if any.

    A corrupt autosave is renamed aside (``autosave.corrupt-<time>.json``), never
    deleted or overwritten, and a notice says why and where it went.  A finished
    match is not offered.
    """
    path = path or paths.autosave_path()
    if not path.exists():
        return Resume()
    try:
        game = read_record(path)
    except SaveError as exc:
        notice = f"The autosaved game could not be loaded: {exc}."
        try:
            kept = _aside(path, "corrupt")
        except SaveError as exc2:
            return Resume(None, [notice, f"It could not be set aside either ({exc2.reason}); a new game will not "
                                         "overwrite it, so it will not be autosaved."])
        return Resume(None, [notice + f" It is kept as {kept}; {then}."])
    if is_finished(game.match):
        return Resume()
    return Resume(game)


def keep_copy(match: Match, meta: dict[str, Any] | None = None, directory: Path | None = None) -> Path:
    """Save ``match`` as a new ``kept-<time>.json`` among the named saves, where F3 lists it
    (F3 keeps so the game it replaces; the name fits the log)."""
    directory = directory or paths.saves_dir()
    base = f"kept-{stamp()}"
    target = directory / (base + SUFFIX)
    n = 1
    while target.exists() or target.is_symlink():
        n += 1
        target = directory / f"{base}-{n}{SUFFIX}"
    return write_save(target, match, meta)


def backup_autosave(path: Path | None = None) -> Path | None:
    """``canasta --new``: keep the old autosave as ``autosave.backup-<time>.json``."""
    path = path or paths.autosave_path()
    if not path.exists():
        return None
    return _aside(path, "backup")


class HasMatch(Protocol):
    @property
    def match(self) -> Match: ...


class Autosaver:
    """Writes the autosave; call :meth:`save` after every completed action.

    The file is checked once before the first write: if something is there that
    this program cannot load, it is renamed aside, not overwritten.  Write errors
    (a full disk, a read-only directory) do not stop the game: :attr:`error` holds
    the message and ``on_error`` is called once with it.
    """

    def __init__(self, meta: dict[str, Any] | Callable[[], dict[str, Any]] | None = None,
                 path: Path | None = None, on_error: Callable[[str], None] | None = None) -> None:
        self.path = path or paths.autosave_path()
        self._meta = meta
        self.on_error = on_error
        self.error: str | None = None
        self.failure: SaveError | None = None   # the last write's failure (path and reason), if it failed
        self.notices: list[str] = []
        self.last: Match | None = None
        self.saves = 0
        self._checked = False
        self._source: HasMatch | None = None

    def meta(self) -> dict[str, Any]:
        m = self._meta() if callable(self._meta) else self._meta
        return dict(m or {})

    def _check_existing(self) -> None:
        self._checked = True
        if not self.path.exists():
            return
        try:
            read_record(self.path)
        except SaveError as exc:
            kept = _aside(self.path, "corrupt")
            self.notices.append(f"The old autosave could not be loaded ({exc.reason}); it is kept as {kept}.")

    def save(self, match: Match) -> bool:
        """Write ``match`` now; False (and :attr:`error` set) if it could not be written."""
        self.last = match
        try:
            if not self._checked:
                self._check_existing()
            write_save(self.path, match, self.meta())
        except SaveError as exc:
            first = self.error is None
            self.failure = exc
            self.error = f"The game cannot be autosaved: {exc}"
            if first and self.on_error is not None:
                self.on_error(self.error)
            return False
        self.error = None
        self.failure = None
        self.saves += 1
        return True

    def save_last(self) -> bool:
        """Write the last match seen again (the exit savers call this)."""
        return self.save(self.last) if self.last is not None else False

    def __call__(self, *args: Any) -> None:
        """As a table observer: the table (or a match) is among the arguments."""
        for a in args:
            if isinstance(a, Match):
                self.save(a)
                return
            m = getattr(a, "match", None)
            if isinstance(m, Match):
                self.save(m)
                return
        if self._source is not None:
            self.save(self._source.match)


def table_meta(table: Any) -> dict[str, Any]:
    """What a save records about the table: seats (human or computer level), names, seed."""
    seats = getattr(table, "seats", ())
    return {
        "seats": ["human" if getattr(s, "human", False) else "computer" for s in seats],
        "levels": [getattr(s, "level", "") for s in seats],
        "names": [getattr(s, "name", "") for s in seats],
        "seed": getattr(table, "seed", None),
    }


def attach_autosave(table: Any, meta: dict[str, Any] | Callable[[], dict[str, Any]] | None = None,
                    path: Path | None = None, on_error: Callable[[str], None] | None = None) -> Autosaver:
    """Autosave ``table`` after every completed action and every deal.

    ``table`` needs a ``match`` attribute and ``add_observer(fn)``; its ``meta()``
    (or ``meta`` mapping), if present, is stored in the save unless ``meta`` is given.
    The current position is written at once.
    """
    if meta is None:
        sm = getattr(table, "meta", None)
        meta = sm if callable(sm) else (dict(sm) if isinstance(sm, dict) else None)
    if meta is None and hasattr(table, "seats"):
        def meta() -> dict[str, Any]:
            return table_meta(table)
    saver = Autosaver(meta, path, on_error)
    saver._source = table
    table.add_observer(saver)
    saver.save(table.match)
    return saver


# --------------------------------------------------------------------------- signals

EXIT_SIGNALS = tuple(s for s in (getattr(signal, "SIGHUP", None), signal.SIGTERM, signal.SIGINT) if s is not None)


def install_exit_savers(save: Callable[[], object], exit_after: bool = True) -> Callable[[], None]:
    """On SIGHUP (the SSH link dropped), SIGTERM and SIGINT: call ``save()``, then exit.

    The exit is ``SystemExit(128 + signal)``, so ``finally`` blocks still run (the
    terminal is restored).  Returns a function that puts the old handlers back.
    Must be called from the main thread.
    """
    old: dict[int, Any] = {}

    def handler(signum: int, frame: FrameType | None) -> None:
        with contextlib.suppress(Exception):
            save()
        if exit_after:
            for s, h in old.items():
                with contextlib.suppress(ValueError, OSError):
                    signal.signal(s, h)
            raise SystemExit(128 + signum)

    for s in EXIT_SIGNALS:
        old[s] = signal.signal(s, handler)

    def restore() -> None:
        for s, h in old.items():
            with contextlib.suppress(ValueError, OSError):
                signal.signal(s, h)

    return restore


@contextlib.contextmanager
def exit_savers(save: Callable[[], object]) -> Iterator[None]:
    restore = install_exit_savers(save)
    try:
        yield
    finally:
        restore()


__all__ = ["MAX_SAVE_BYTES", "Autosaver", "LoadedGame", "Resume", "SaveError", "SaveInfo", "atomic_write_text",
           "attach_autosave", "backup_autosave", "exit_savers", "find_autosave", "install_exit_savers",
           "is_finished", "keep_copy", "list_saves", "load_file", "parse_record", "read_record", "remove_stale_temps",
           "save_named", "save_path_for", "table_meta", "write_save"]
