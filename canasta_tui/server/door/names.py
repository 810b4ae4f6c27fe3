"""Names at the server: what a name may be, when two names look alike, and who reserved which.

A person is their SSH key (:mod:`.auth`); a name is a label the key reserves on this server.
The first key to use a name reserves it; another key that types it is refused, and so is a
guest (a client with no key).  Reservations live in ``names.json`` beside the tables and
outlast restarts.

Two names are the same name when they *look* alike: both are brought to a skeleton (Unicode
NFKC, then every character to one representative of its class of confusable characters, as
Unicode TR39 does with its ``confusables.txt``; the classes come from the maintained
``confusable_homoglyphs`` package, which ships that data), and compared.  So Cyrillic
``аlice`` is ``alice``, ``AIice`` (a capital I) is ``Alice``, ``rnary`` is ``mary``.

Case is folded too, and since a capital ``I`` is a small ``l`` to the eye, ``i`` and ``l`` are
one letter in a skeleton: ``ALICE``, ``AIice`` and ``alice`` are one name (and so, the price of
it, are ``Eli`` and ``Ell``).  Characters Unicode calls *default ignorable* (zero-width ones, the
Khmer inherent vowels U+17B4/U+17B5, variation selectors, ...) are drawn as nothing: a name
holding one is refused, and a skeleton leaves them out.

The book is bounded (:data:`MAX_NAMES`): when it is full and no name in it has gone unused for
:data:`EVICT_UNUSED`, a key with a new name is refused at the door, saying so, rather than let in
under a name nobody reserves (which the next key could then take: ``zoe ✓`` twice).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ...persistence.safe_io import Unreadable, read_regular
from ...text import NAME_MAX, printable

if TYPE_CHECKING:
    from ..club.people import NameRow, PeopleStore

log = logging.getLogger("canasta.server")

#: Characters a name may hold besides letters, digits and marks (a name is not a sentence).
NAME_PUNCTUATION = " -_.'"
#: How many names one key may reserve (a person has a name or two, not a dictionary).
NAMES_PER_KEY = 5
#: A reservation nobody has used for this long is given up (seconds: a year).
KEEP_UNUSED = 365 * 24 * 3600.0
#: The reservations file is a list of names; anything much bigger is not one.
MAX_NAMES_BYTES = 4 * 1024 * 1024
#: Names a server keeps reserved at most: in open mode anybody can make keys, so the book is
#: bounded; when it is full the name unused the longest goes (if unused for :data:`EVICT_UNUSED`).
MAX_NAMES = 10000
EVICT_UNUSED = 7 * 24 * 3600.0
#: New names one place (an address, an IPv6 /64) may reserve in a day: a club's evening of
#: newcomers, not a book filled from one machine (10,000 logins in open mode filled it).
NEW_NAMES_PER_PLACE = 30
DAY = 24 * 3600.0
#: Places whose new names are counted, at most (the ones seen longest ago are forgotten first).
PLACES_KEPT = 10000
#: A new reservation is written within this many seconds (many at once make one write).
SAVE_DELAY = 1.0

#: Skeletons of words the screens use for seats and people: a name like them would pass for them.
_TAKEN_WORDS = ("you", "me", "partner", "computer", "nobody", "somebody", "guest", "server", "admin",
                "everybody", "free", "beginner", "advanced", "expert", "system")


class NameRefused(Exception):
    """A name that cannot be used here; the message says why and what to do."""


#: Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt, Unicode 15): drawn as
#: nothing, so ``al\u17b4ice`` shows as ``alice``.  Python's unicodedata has no such property.
_IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
              (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
              (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
              (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))


def ignorable(c: str) -> bool:
    """Is ``c`` a default-ignorable code point (drawn as nothing)?"""
    o = ord(c)
    return any(low <= o <= high for low, high in _IGNORABLE)


def _clean_homoglyph(text: str) -> str:
    # The data marks right-to-left characters with LEFT-TO-RIGHT MARKs around them.
    return text.replace("\u200e", "").replace("\u200f", "")


@functools.cache
def _classes() -> tuple[dict[str, str], tuple[tuple[str, str], ...]]:
    """Each confusable character's representative, and the multi-letter look-alikes (``rn``: ``m``)."""
    from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent.get(c, c) != c:
            parent[c] = parent.get(parent[c], parent[c])
            c = parent[c]
        return c

    def rank(c: str) -> tuple[bool, bool, bool, int]:
        # An ASCII lower-case letter stands for its class where there is one (``l``, not ``1``).
        return (not c.isascii(), not c.islower(), not c.isalpha(), ord(c))

    multi: list[tuple[str, str]] = []
    for ch, glyphs in confusables.confusables_data.items():
        ch = _clean_homoglyph(ch)
        if len(ch) != 1:
            continue
        for g in glyphs:
            other = _clean_homoglyph(g["c"])
            if len(other) == 1:
                a, b = find(ch), find(other)
                if a != b:
                    low, high = sorted((a, b), key=rank)
                    parent[high] = low
            elif other and other.isascii() and ch.isascii() and other.isalpha():
                multi.append((other, ch))
    reps = {c: find(c) for c in list(parent)}
    return reps, tuple(sorted(set(multi), key=lambda m: -len(m[0])))


@functools.lru_cache(maxsize=4096)
def skeleton(name: str) -> str:
    """What ``name`` looks like: equal skeletons are names a reader cannot tell apart."""
    reps, multi = _classes()

    def fold(text: str) -> str:
        return "".join(reps.get(c, c) for c in text)

    text = "".join(c for c in unicodedata.normalize("NFKC", name) if not ignorable(c))
    text = fold(text)
    text = fold(text.casefold())
    # A capital I is a small l: after case folding, i and l are one letter (ALICE is alice).
    text = text.replace("i", "l")
    for seq, single in multi:
        text = text.replace(seq, single)
    # Spaces, dashes and dots are not what tells two names apart either.
    return "".join(c for c in text if c.isalnum() or unicodedata.category(c).startswith("M"))


def check_name(raw: str) -> str:
    """The name as it will be shown (NFKC, trimmed), or NameRefused saying why it cannot be one."""
    name = unicodedata.normalize("NFKC", raw).strip()
    if not name:
        raise NameRefused("the name is empty")
    bad = sorted({c for c in name if _invisible(c)})
    if bad:
        shown = ", ".join(f"U+{ord(c):04X}" for c in bad)
        raise NameRefused(f"a name may not hold invisible or control characters ({shown})")
    if len(name) > NAME_MAX:
        raise NameRefused(f"a name may be at most {NAME_MAX} characters long, not {len(name)}")
    odd = sorted({c for c in name if not (c.isalnum() or c in NAME_PUNCTUATION or unicodedata.category(c)[0] == "M")})
    if odd:
        raise NameRefused(f"a name holds letters, digits, spaces and - _ . ' only, not {printable(''.join(odd))}")
    if "  " in name:
        raise NameRefused("a name may not hold two spaces in a row")
    if not any(c.isalnum() for c in name):
        raise NameRefused("a name needs a letter or a digit")
    sk = skeleton(name)
    if sk in _refused_skeletons():
        raise NameRefused(f"{name} is a word the table uses for seats and players")
    return name


def _invisible(c: str) -> bool:
    """Format characters (zero-width, bidirectional), default-ignorable ones (drawn as nothing,
    some of them marks), controls, unassigned and private-use characters, and every space but
    the plain one."""
    cat = unicodedata.category(c)
    return ignorable(c) or cat in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") or (cat == "Zs" and c != " ") or \
        c in "\u115f\u1160\u3164\uffa0\u2800"          # Hangul fillers and the blank Braille cell


#: The labels the table gives seats (``Player 2``, ``P2``; up to four players).
_SEAT_LABELS = tuple(f"{prefix}{n}" for prefix in ("player", "p") for n in range(1, 5))


@functools.cache
def _refused_skeletons() -> frozenset[str]:
    """What the words the table uses and its seat labels look like: a name that looks the same
    would pass for them (``Pl`` for P1; but ``Po``, ``Pool`` and ``Polo`` are names).  Worked out
    once, at the first name checked (the confusables' data loads then, not at import)."""
    return frozenset(skeleton(w) for w in (*_TAKEN_WORDS, *_SEAT_LABELS))


@dataclass
class Reservation:
    """A name a key reserved: the name as first shown, the key's fingerprint, when it was last used."""

    name: str
    fingerprint: str
    since: float
    seen: float


#: The store's note that ``names.json`` was read into it (it is read once).
NAMES_IMPORTED = "names.json imported"


class NameBook:
    """The names reserved on this server, by skeleton: in the server's people store
    (:mod:`.people`), or, without one, in a JSON file (``names.json``, what servers before the
    store kept: the store reads it once, and the file is then renamed ``names.json.imported``).

    Written within :data:`SAVE_DELAY` of every new reservation (a crash must not hand a name to
    somebody else); a file that cannot be read is kept as it is and the server starts with what
    it could read, saying so in its log.
    """

    def __init__(self, path: Path | None, now: Callable[[], float] = time.time,
                 store: PeopleStore | None = None, reserve: Callable[[NameRow], None] | None = None) -> None:
        self.path = path
        #: A store several processes share: writes a new reservation at once (on a thread), or
        #: raises NameRefused when another process's key holds the name (:meth:`confirm`).
        self.reserve = reserve
        self._unconfirmed: set[str] = set()     # new reservations not written to the shared store yet
        self._now = now
        self._new_from: dict[str, list[float]] = {}     # when each place reserved new names, today
        self._pending: asyncio.TimerHandle | None = None
        self.names: dict[str, Reservation] = {}
        self.problem = ""
        self.store = store
        self._dirty: set[str] = set()       # skeletons to write to the store
        self._gone: set[str] = set()        # ... and to remove from it
        if store is not None:
            self._load_store(store, path)
        elif path is not None:
            self._load(path)

    def _load_store(self, store: PeopleStore, legacy: Path | None) -> None:
        now = self._now()
        for row in store.names():
            try:
                name = check_name(row.name)
            except NameRefused:
                self._gone.add(row.skeleton)
                continue
            if now - row.seen > KEEP_UNUSED or not row.fingerprint.startswith("SHA256:"):
                self._gone.add(row.skeleton)
                continue
            sk = skeleton(name)
            if sk != row.skeleton:
                # Kept under an older skeleton (before ALICE was alice): kept under today's.
                self._gone.add(row.skeleton)
                self._dirty.add(sk)
            held = self.names.get(sk)
            if held is None or row.since < held.since:
                # Two keys that reserved look-alikes under an older skeleton: the first keeps it.
                self.names[sk] = Reservation(name, row.fingerprint, row.since, row.seen)
        if legacy is None or store.note(NAMES_IMPORTED) is not None:
            return
        # Once: the reservations of names.json (a server from before the store) come in.
        if not legacy.exists():
            store.set_note(NAMES_IMPORTED, "no file")
            return
        self._load(legacy)
        if self.problem:
            return                  # reported, kept as it is, and read again at the next start
        self._dirty.update(self.names)
        self._save()
        store.set_note(NAMES_IMPORTED, f"{round(now)}")
        try:
            legacy.rename(legacy.with_name(legacy.name + ".imported"))
        except OSError as exc:
            log.warning("%s could not be renamed (%s); it is not read again", printable(str(legacy)),
                        exc.strerror)
        log.info("%d reserved names were read from %s into the server's store", len(self.names),
                 printable(str(legacy)))

    # ------------------------------------------------------------------ the file
    def _load(self, path: Path) -> None:
        try:
            data = json.loads(read_regular(path, "the reserved names", MAX_NAMES_BYTES).decode("utf-8"))
        except Unreadable as exc:
            if exc.missing:
                return                  # no name reserved yet
            self._unreadable(path, exc.reason)
            return
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            self._unreadable(path, str(exc))
            return
        items = data.get("names") if isinstance(data, dict) else None
        if not isinstance(items, list):
            return
        now = self._now()
        for item in items:
            if not isinstance(item, dict):
                continue
            name, fp = item.get("name"), item.get("fingerprint")
            since, seen = item.get("since"), item.get("seen")
            if not (isinstance(name, str) and isinstance(fp, str) and fp.startswith("SHA256:")):
                continue
            try:
                name = check_name(name)
            except NameRefused:
                continue
            seen_at = float(seen) if isinstance(seen, (int, float)) and not isinstance(seen, bool) else now
            if now - seen_at > KEEP_UNUSED:
                continue
            since_at = float(since) if isinstance(since, (int, float)) and not isinstance(since, bool) else seen_at
            self.names.setdefault(skeleton(name), Reservation(name, fp, since_at, seen_at))

    def _unreadable(self, path: Path, why: str) -> None:
        self.problem = f"{printable(str(path))} could not be read ({printable(why)}); it is left as it is"
        log.warning("%s: names reserved now are kept until the server stops", self.problem)
        self.path = None        # never overwrite what could not be read

    def _save(self) -> None:
        if self.store is not None:
            self._save_store(self.store)
            return
        if self.path is None:
            return
        data = {"version": 1, "names": [
            {"name": r.name, "fingerprint": r.fingerprint, "since": round(r.since), "seen": round(r.seen)}
            for r in sorted(self.names.values(), key=lambda r: r.since)]}
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f, ensure_ascii=False, indent=1)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except OSError as exc:
            # The reservation still holds while the server runs; it is written with the next one.
            log.warning("the reserved names could not be saved: %s", printable(exc.strerror or str(exc)))

    def _save_store(self, store: PeopleStore) -> None:
        from ..club.people import NameRow, StoreError

        dirty, gone = self._dirty, self._gone
        rows = [NameRow(sk, r.name, r.fingerprint, r.since, r.seen) for sk in dirty
                if (r := self.names.get(sk)) is not None]
        try:
            store.put_names(rows, sorted(gone - set(self.names)))
        except StoreError as exc:
            # The reservations still hold while the server runs; they are written with the next one.
            log.warning("the reserved names could not be saved: %s", exc)
            return
        self._dirty, self._gone = set(), set()

    # ------------------------------------------------------------------ questions
    def owner(self, name: str) -> Reservation | None:
        return self.names.get(skeleton(name))

    def of_key(self, fingerprint: str) -> list[Reservation]:
        return [r for r in self.names.values() if r.fingerprint == fingerprint]

    # ------------------------------------------------------------------ the door
    def check(self, name: str, fingerprint: str) -> None:
        """NameRefused if ``fingerprint`` may not use ``name`` (another key has it, or this key has
        reserved as many names as a key may)."""
        held = self.names.get(skeleton(name))
        if held is not None:
            if held.fingerprint != fingerprint:
                raise NameRefused(f"{_held(name, held)} reserved by another person's key on this server. "
                                  "Connect with another name: ssh -l NAME ...")
            return
        mine = self.of_key(fingerprint)
        if len(mine) >= NAMES_PER_KEY:
            raise NameRefused(f"your key has reserved {len(mine)} names here, its most ("
                              + ", ".join(r.name for r in mine) + "): connect as one of them")

    def take(self, name: str, fingerprint: str, where: str = "") -> None:
        """``fingerprint`` uses ``name``: reserve it, or mark it used; NameRefused if it may not.
        ``where``: the place it comes from (:func:`~.auth.place`), which may reserve at most
        :data:`NEW_NAMES_PER_PLACE` new names a day."""
        self.check(name, fingerprint)
        sk = skeleton(name)
        now = self._now()
        held = self.names.get(sk)
        if held is not None:
            held.seen = now
            self._dirty.add(sk)             # (written with the next reservation, or at the end)
            return
        today = [t for t in self._new_from.get(where, ()) if now - t < DAY] if where else []
        if len(today) >= NEW_NAMES_PER_PLACE:
            log.warning("the name %s is refused to key %s: %s reserved %d new names today", printable(name),
                        fingerprint, where, len(today))
            raise NameRefused(f"{len(today)} new names were reserved from your address today, its most: "
                              "connect with a name your key already holds, or try again tomorrow")
        if len(self.names) >= MAX_NAMES:
            oldest = min(self.names, key=lambda k: self.names[k].seen)
            if now - self.names[oldest].seen < EVICT_UNUSED:
                # Let in unreserved, the name would be anybody's next: refused instead, saying so.
                log.warning("the name %s is refused to key %s: the server holds %d names, its most, all used "
                            "within %d days", printable(name), fingerprint, MAX_NAMES, EVICT_UNUSED // 86400)
                raise NameRefused(f"the server's book of names is full ({MAX_NAMES} names, all used lately), so "
                                  f"the name {name} cannot be reserved for your key now: try again another day")
            del self.names[oldest]
            self._gone.add(oldest)
            self._dirty.discard(oldest)
        self.names[sk] = Reservation(name, fingerprint, now, now)
        if where:
            self._new_from.pop(where, None)
            self._new_from[where] = [*today, now]       # (put last: the dict's end is the newest)
            while len(self._new_from) > PLACES_KEPT:
                del self._new_from[next(iter(self._new_from))]
        log.info("the name %s is now reserved by key %s", printable(name), fingerprint)
        if self.reserve is not None:
            self._unconfirmed.add(sk)           # (written by confirm, before the person is let in)
            return
        self._dirty.add(sk)
        self._save_soon()

    async def confirm(self, name: str, fingerprint: str) -> str | None:
        """After :meth:`take`, with a shared store: write a new reservation now (on a thread, never
        the loop's) and say why it is refused if another process's key reserved the name first
        (that key has it: the reservation made here goes); None if it holds.  A store that cannot
        be reached keeps it here (written later, as without a shared store)."""
        from ..club.people import NameRow, StoreError

        sk = skeleton(name)
        if self.reserve is None or sk not in self._unconfirmed:
            return None
        self._unconfirmed.discard(sk)
        held = self.names.get(sk)
        if held is None:
            return None
        if held.fingerprint != fingerprint:     # (the store said meanwhile: another process's key has it)
            return (f"{_held(name, held)} reserved by another person's key on this server. "
                    "Connect with another name: ssh -l NAME ...")
        row = NameRow(sk, held.name, held.fingerprint, held.since, held.seen)
        try:
            await asyncio.get_running_loop().run_in_executor(None, self.reserve, row)
        except NameRefused as exc:
            if self.names.get(sk) is held:
                del self.names[sk]
            log.warning("the name %s is refused to key %s: %s", printable(name), fingerprint, exc)
            return str(exc)
        except StoreError as exc:
            log.warning("the name %s could not be reserved in the shared store now (%s): it holds here and is "
                        "written later", printable(name), exc)
            self._dirty.add(sk)
            self._save_soon()
        return None

    def held_elsewhere(self, row: NameRow) -> bool:
        """The shared store found ``row``'s name another key's (written by another process first):
        this book's reservation of it goes; whether it held one for that key."""
        held = self.names.get(row.skeleton)
        if held is None or held.fingerprint != row.fingerprint:
            return False
        del self.names[row.skeleton]
        self._dirty.discard(row.skeleton)
        return True

    def read_again(self, rows: list[NameRow]) -> None:
        """The reservations as the shared store holds them now (another process wrote some): they
        replace this book's, but for the changes of this process not written yet.  At most
        :data:`MAX_NAMES`, the ones used last (a store is trusted no more than a file)."""
        now = self._now()
        fresh: dict[str, Reservation] = {}
        for row in sorted(rows, key=lambda r: r.seen, reverse=True)[:MAX_NAMES]:
            try:
                name = check_name(row.name)
            except NameRefused:
                continue
            if not row.fingerprint.startswith("SHA256:") or now - row.seen > KEEP_UNUSED or skeleton(name) != row.skeleton:
                continue
            fresh[row.skeleton] = Reservation(name, row.fingerprint, row.since, row.seen)
        for sk in self._dirty | self._unconfirmed:
            mine = self.names.get(sk)
            if mine is not None:
                fresh.setdefault(sk, mine)
        self.names = fresh

    def _save_soon(self) -> None:
        """Write the book within :data:`SAVE_DELAY` (at once where no event loop runs)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._save()
            return
        if self._pending is None:
            self._pending = loop.call_later(SAVE_DELAY, self.flush)

    def flush(self) -> None:
        """Write what is not written yet (the server calls it when it stops)."""
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
            self._save()
        elif self.store is not None and (self._dirty or self._gone):
            self._save()

    def guest_may_use(self, name: str) -> None:
        """NameRefused if ``name`` (or a look-alike) belongs to a key."""
        held = self.names.get(skeleton(name))
        if held is not None:
            raise NameRefused(f"{_held(name, held)} reserved by a person's key on this server; without a key "
                              "you come in as a guest: connect with another name (ssh -l NAME ...), "
                              "or with the key that reserved it")


def _held(name: str, held: Reservation) -> str:
    """``the name alice is`` or ``the name аlice looks like alice, which is`` (then: reserved by ...)."""
    return f"the name {name} is" if held.name == name else f"the name {name} looks like {held.name}, which is"


__all__ = ["NAMES_PER_KEY", "NameBook", "NameRefused", "Reservation", "check_name", "skeleton"]
