"""Who sits at the table: a seat is a kind (computer, local human, remote human) and an identity."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from ..engine import player_name


class SeatKind(StrEnum):
    """Who plays a seat (a ``str``: its value is the word)."""

    COMPUTER = "computer"
    LOCAL = "local"        # a human at this terminal (one of several in hot-seat)
    REMOTE = "remote"      # a human at their own terminal, over SSH


COMPUTER = SeatKind.COMPUTER
LOCAL = SeatKind.LOCAL
REMOTE = SeatKind.REMOTE
KINDS = tuple(SeatKind)


#: How a server writes down the person of a seat: ``key:`` and their key's fingerprint, or
#: ``guest:`` and the digest of a guest's code (``server/door/auth.py`` makes them).
KEY_PREFIX, GUEST_PREFIX = "key:", "guest:"


def is_key(person: str) -> bool:
    """Is this person (a seat's ``key``, a claim's identity) known by an SSH key, not a guest?"""
    return person.startswith(KEY_PREFIX)


@dataclass(frozen=True)
class Seat:
    """One seat: its kind, the player's name, the computer level (a human seat keeps the level a
    computer takes it over at), and for a remote seat the identity that joined (``key``)."""

    kind: SeatKind = COMPUTER
    name: str = ""
    level: str = "advanced"
    key: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"a seat is one of {', '.join(KINDS)}, not {self.kind!r}")
        object.__setattr__(self, "kind", SeatKind(self.kind))   # the kind itself, when given as its word

    @property
    def human(self) -> bool:
        return self.kind != COMPUTER

    @property
    def verified(self) -> bool:
        """Played by a person a server knows by their SSH key (``key:`` fingerprint)."""
        return is_key(self.key)

    def with_(self, **changes: object) -> Seat:
        return replace(self, **changes)  # type: ignore[arg-type]


def seat_name(seats: tuple[Seat, ...], seat: int) -> str:
    """The name shown for a seat: the player's own, or "Player N"."""
    n = seats[seat].name
    return n if n else player_name(seat)


def seats_for(players: int, level: str = "advanced", name: str = "") -> tuple[Seat, ...]:
    """The seating of ``canasta --players N``.

    0: four computers; 1: Player 1 (bottom); 2: Players 1 and 4 (each with a computer
    partner, as the DOS game's "Two Human Players"); 3: Players 1, 3, 4; 4: everyone.
    """
    humans = {0: (), 1: (0,), 2: (0, 3), 3: (0, 2, 3), 4: (0, 1, 2, 3)}[players]
    return tuple(Seat(LOCAL, name if s == 0 and name else "", level) if s in humans
                 else Seat(COMPUTER, "", level) for s in range(4))


__all__ = ["COMPUTER", "GUEST_PREFIX", "KEY_PREFIX", "KINDS", "LOCAL", "REMOTE", "Seat", "SeatKind", "is_key", "seat_name",
           "seats_for"]
