"""Who a person is to the server: a :class:`PersonId`, and why the server says no: a :class:`Refusal`.

A person is their key's fingerprint, a guest is the digest of the code their connection was
given, a computer (in the ratings) is its level, and a seat saved before people were keys is the
look of the name it held.  The server's stores, its saves and a table's seat records write a
person as text, ``kind:value`` (``key:SHA256:…``, ``guest:…``, ``computer:expert``,
``legacy:…``): :meth:`PersonId.parse` reads exactly that form back, and refuses anything else
(the text may come from a damaged file, or over the bus from another process); ``str()`` writes
it.  Nothing stored changes form.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from ..ai import ALL_LEVELS


class PersonKind(StrEnum):
    """What a person is known by (a ``str``: its value is the word written before the colon)."""

    KEY = "key"              # the SHA256 fingerprint of the SSH key they proved
    GUEST = "guest"          # the digest of a guest's code (the code itself is never kept)
    COMPUTER = "computer"    # a computer level, as the ratings rate it
    LEGACY = "legacy"        # a seat saved before people were keys: the look of its name


#: The longest person's text read back (a fingerprint is 50 characters): anything longer is not one.
MAX_PERSON = 100
# (base64, and the url-safe base64 of other tools: never a space, a colon or a control character)
_FINGERPRINT = re.compile(r"SHA256:[A-Za-z0-9+/=_.-]{1,64}")
_GUEST = re.compile(r"[A-Za-z0-9]{1,64}")
_KINDS = frozenset(k.value for k in PersonKind)


class BadPerson(ValueError):
    """A person's text that is not one (what was wrong is the message)."""


def _legacy_ok(value: str) -> bool:
    # (what ``door.names.skeleton`` makes of a name: letters, digits and combining marks)
    return 0 < len(value) <= 80 and all(c.isalnum() or unicodedata.category(c).startswith("M") for c in value)


def _check(kind: PersonKind, value: str) -> str | None:
    """Why ``value`` is not a person of ``kind`` (None: it is)."""
    if kind == PersonKind.KEY:
        return None if _FINGERPRINT.fullmatch(value) else "a key is SHA256: and its fingerprint"
    if kind == PersonKind.GUEST:
        return None if _GUEST.fullmatch(value) else "a guest is the letters and digits of their code's digest"
    if kind == PersonKind.COMPUTER:
        return None if value in ALL_LEVELS else f"a computer is one of the levels {', '.join(ALL_LEVELS)}"
    return None if _legacy_ok(value) else "a legacy seat is the look of a name: letters and digits"


@dataclass(frozen=True, slots=True, order=True)
class PersonId:
    """A person as the server knows them: a kind and its value (checked when made)."""

    kind: PersonKind
    value: str

    def __post_init__(self) -> None:
        if not isinstance(self.kind, PersonKind) or not isinstance(self.value, str):
            raise BadPerson("a person is a kind and a text")
        why = _check(self.kind, self.value)
        if why is not None:
            raise BadPerson(f"not a person: {why}")

    @classmethod
    def parse(cls, text: object) -> PersonId:
        """The person ``text`` writes (``key:SHA256:…``), or :class:`BadPerson` saying why it is not one."""
        if not isinstance(text, str):
            raise BadPerson(f"a person is a text, not {type(text).__name__}")
        if len(text) > MAX_PERSON:
            raise BadPerson(f"a person is at most {MAX_PERSON} characters, not {len(text)}")
        word, sep, value = text.partition(":")
        if not sep or word not in _KINDS:
            raise BadPerson("a person is key:, guest:, computer: or legacy: and its value")
        return cls(PersonKind(word), value)

    @classmethod
    def read(cls, text: object) -> PersonId | None:
        """The person ``text`` writes, or None when it writes none (a save's empty seat, a damaged one)."""
        try:
            return cls.parse(text)
        except BadPerson:
            return None

    @classmethod
    def of_key(cls, fingerprint: str) -> PersonId:
        return cls(PersonKind.KEY, fingerprint)

    @classmethod
    def of_guest(cls, digest: str) -> PersonId:
        return cls(PersonKind.GUEST, digest)

    @classmethod
    def of_computer(cls, level: str) -> PersonId:
        return cls(PersonKind.COMPUTER, level)

    @classmethod
    def of_legacy(cls, look: str) -> PersonId:
        return cls(PersonKind.LEGACY, look)

    @property
    def is_key(self) -> bool:
        """Known by an SSH key (their name is theirs on this server)."""
        return self.kind == PersonKind.KEY

    @property
    def is_guest(self) -> bool:
        return self.kind == PersonKind.GUEST

    @property
    def is_legacy(self) -> bool:
        return self.kind == PersonKind.LEGACY

    @property
    def fingerprint(self) -> str:
        """A key's fingerprint ("" for anybody else)."""
        return self.value if self.kind == PersonKind.KEY else ""

    def __str__(self) -> str:
        return f"{self.kind.value}:{self.value}"


def person_text(person: PersonId | None) -> str:
    """A person as a seat record or a save writes them ("" for nobody)."""
    return "" if person is None else str(person)


class RefusalKind(StrEnum):
    """Why the server says no, where a caller does something different for each."""

    NO = "no"                # the request is not allowed (the reason says why)
    GONE = "gone"            # what it names is not there (any more)
    SLOW_DOWN = "slow down"  # too many, too fast: the same request later may be let through


@dataclass(frozen=True, slots=True)
class Refusal:
    """The server's no to a request: the words the person is shown, and what kind of no it is."""

    reason: str
    kind: RefusalKind = RefusalKind.NO

    def __str__(self) -> str:
        return self.reason


def reason(refusal: Refusal | None) -> str | None:
    """A refusal's words for a screen (None: no refusal), where the lobby's screen takes text."""
    return None if refusal is None else refusal.reason


__all__ = ["MAX_PERSON", "BadPerson", "PersonId", "PersonKind", "Refusal", "RefusalKind", "person_text", "reason"]
