"""What the server's lobby shows, as values, and what the lobby may ask of the server.

The lobby screen (:mod:`.lobby`) draws a :class:`LobbyView`: a read-only description of the
server's tables, who sits where, how many people are online and the lobby's chat, built for
one person.  It acts through a :class:`LobbyService` (create a table, sit, stand up, start,
chat, take a guest's seat back by its code), which the server implements
(``canasta_tui.server.lobby.service.RegistryLobby``) and a test can implement without SSH.  This
module knows nothing of the server: the server imports these types, never the other way.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from enum import StrEnum
from typing import NamedTuple, Protocol

from .engine import Rules

#: The longest seat code a guest can type (``K7PX-M2QA`` and some slack): the lobby's prompt
#: takes no more, and the server reads no more of one.
CODE_MAX = 16


class TableState(StrEnum):
    """Where a table is in its life: people claim seats, the game is played, a side has won."""

    FORMING = "forming"
    PLAYING = "playing"
    OVER = "over"


class SeatState(StrEnum):
    """Who is in a seat, as the lobby shows it."""

    FREE = "free"              # nobody has claimed it (the table is forming)
    HUMAN = "human"            # claimed, or played by its person, who is there
    AWAY = "away"              # its person left or dropped: it waits for them, or a computer takes over soon
    COMPUTER = "computer"      # a computer plays it (for a person who is away, when it has a name)
    CLAIMED = "claimed"        # a computer plays it until the deal, when the person who claimed it sits down


class Access(StrEnum):
    """Who may sit at a table: anybody, the people its players invite, or whoever has its code."""

    OPEN = "open"
    INVITE = "invitation only"
    CODE = "with a code"


class AdminAct(StrEnum):
    """What an admin may do from the lobby (``server/club/admin.py`` does it and logs it)."""

    ANNOUNCE = "announce"
    CLOSE = "close a table"
    REMOVE = "remove a person"
    BAN = "ban"
    LIFT = "lift a ban"


class BanRow(NamedTuple):
    """A ban in force as the admins' bans page lists it."""

    target: str                 # what lifting it names (``key:SHA256:…`` or ``address:…``)
    who: str                    # the person's name, or the address
    fingerprint: str            # the person's key ("" for an address's ban)
    addresses: tuple[str, ...]  # guests are kept out from these too (a person's ban)
    until: str                  # when it ends
    by: str                     # the admin who made it
    reason: str = ""


class VisitorRow(NamedTuple):
    """Somebody online or a recent visitor, as an admin picks whom to ban."""

    target: str                 # what a ban of them names (their key's fingerprint, or a guest's key)
    name: str                   # as shown ("~gus" for a guest)
    fingerprint: str            # their key ("" for a guest)
    address: str                # the address they came from last
    seen: str                   # "online", or when they were last seen


def ban_hours(text: str) -> float | None:
    """A ban's hours, the first word of what follows its target ("24 spam in the chat"); None
    when that is not a finite number.  The lobby asks again on None, the server refuses it."""
    words = text.split(None, 1)
    try:
        hours = float(words[0]) if words else math.nan
    except ValueError:
        return None
    return hours if math.isfinite(hours) else None


class TableSettings(NamedTuple):
    """How a new table is made, besides its rules: who may sit, whether it is listed to everybody
    (a private table, unlisted, shows only to its people and those invited), whether it may be
    watched, and whether its match moves ratings."""

    access: Access = Access.OPEN
    listed: bool = True
    watchable: bool = True
    rated: bool = False


#: The usual new table: open to anybody, listed, watched, not rated.
OPEN_TABLE = TableSettings()


class SeatInfo(NamedTuple):
    """One seat as the lobby shows it."""

    occupant: SeatState         # who is in it
    name: str = ""
    mine: bool = False
    note: str = ""
    verified: bool = False      # its person is known by their SSH key


class Destination(NamedTuple):
    """Where a client goes from the lobby: a table's seat, or (seat None) watching it."""

    table: int
    seat: int | None


class LobbyLine(NamedTuple):
    """One line of the lobby's chat: who said it (their label), what, and whether their key vouches for them."""

    who: str
    text: str
    verified: bool = False
    key: str = ""               # who said it, to the server (a person muted is not shown their lines); "": the server


class TableRow(NamedTuple):
    """One table of the server as one person sees it in the lobby."""

    id: int
    rules: str                  # the rules' name (a preset's)
    level: str                  # the computers' level
    target: int                 # the score to play to
    stage: TableState           # forming, playing or over
    seats: tuple[SeatInfo, ...]
    creator: str                # the name of whoever starts it
    created_by_me: bool         # the viewer created it (and starts it)
    my_seat: int | None         # the viewer's seat here (claimed, playing, away, or a computer's meanwhile)
    hand: int = 0               # the hand being played (a started table)
    score: str = ""             # each side's score, in a few words (a started table)
    winner: str = ""            # who won ("Players 1 & 3 won"; a table that is over)
    paused: bool = False        # nobody is there: the computers wait
    access: Access = Access.OPEN  # who may sit here
    watchable: bool = True      # people may watch it
    rated: bool = False         # its match moves ratings
    code: str = ""              # its code (shown to its creator only, a table joined with a code)
    listed: bool = True         # everybody sees it in the lobby (else its people and those invited)

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def seated(self) -> int:
        """Seats somebody claimed (a forming table)."""
        return sum(1 for s in self.seats if s.occupant != SeatState.FREE)

    @property
    def free_seat(self) -> int | None:
        """The first seat nobody claimed (a forming table), or None."""
        return next((i for i, s in enumerate(self.seats) if s.occupant == SeatState.FREE), None)


class PersonRow(NamedTuple):
    """One person online as the lobby lists them: where they are and their rating."""

    key: str                    # who they are to the server (what an invitation names)
    name: str                   # as shown ("~gus" for a guest)
    verified: bool              # known by their SSH key
    table: int | None = None    # the table they are at (playing, or watching), or None: in the lobby
    watching: bool = False      # at ``table`` as a spectator
    rating: int | None = None   # their shown rating (None: a guest, who is never rated)
    me: bool = False            # the person whose lobby it is
    busy: bool = False          # at a table not shown to the person looking (unlisted, or private)
    friend: bool = False        # the person looking marked them a friend (listed first after them)
    muted: bool = False         # the person looking muted them (they are not told)

    @property
    def where(self) -> str:
        if self.busy:
            return "busy"
        if self.table is None:
            return "lobby"
        return f"watching {self.table}" if self.watching else f"table {self.table}"


#: The longest note a person may leave for another (characters).
NOTE_MAX = 280


class Marked(StrEnum):
    """Somebody a person marked: a friend, or muted."""

    FRIEND = "friend"
    MUTE = "mute"


class FriendRow(NamedTuple):
    """A friend, or somebody muted, as the friends list shows them (offline ones too)."""

    key: str                    # who they are to the server
    name: str                   # their name as last known
    kind: Marked
    where: str                  # "lobby", "table 3", "watching 3", "busy", or "seen 2026-11-27" (offline)
    online: bool = False


class NoteRow(NamedTuple):
    """A note left for this person: who left it, when, its text, whether it was read before."""

    id: str
    who: str
    when: str
    text: str
    read: bool = False


class InvitationRow(NamedTuple):
    """An open invitation to this person: who invites them, to which table."""

    id: int
    who: str
    table: int
    about: str = ""             # the table in a few words (rules, how many seated)


class LobbyView(NamedTuple):
    """Everything the lobby shows one person: who they are, the tables, the chat, who else is
    online, their open invitations, the server's message of the day; and whether they are an
    admin (the admin keys show only to admins)."""

    label: str                  # the person's name as shown ("~gus" for a guest)
    verified: bool              # known by their SSH key
    guest_code: str             # a guest's seat code ("" for a key)
    online: int                 # people connected to the server
    tables: tuple[TableRow, ...]
    chat: tuple[LobbyLine, ...]
    people: tuple[PersonRow, ...] = ()
    invitations: tuple[InvitationRow, ...] = ()
    motd: str = ""
    admin: bool = False
    notes: int = 0              # notes left for this person and not read yet

    def table(self, table_id: int | None) -> TableRow | None:
        return next((t for t in self.tables if t.id == table_id), None)


class LobbyService(Protocol):
    """What the lobby asks of the server, for the one person whose lobby it is.  Each command
    answers why it could not be done (a sentence for the person), or None when it was done."""

    def view(self) -> LobbyView:
        """What the lobby shows now."""

    def subscribe(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after anything the lobby shows changed (anybody's doing)."""

    def unsubscribe(self, listener: Callable[[], None]) -> None: ...

    def may_create(self) -> str | None:
        """Why this person cannot create a table now (None: they can)."""

    def create(self, rules: Rules, level: str, settings: TableSettings = OPEN_TABLE, turn_timer: int = 0) -> int | str:
        """A new table with this person in seat 1 (``turn_timer``: seconds a human has for a turn,
        0 for no timer): its id, or why not."""

    def turn_timers(self) -> tuple[int, ...]:
        """The turn timer's choices (seconds; 0: no timer)."""

    def sit(self, table: int, seat: int) -> tuple[str | None, Destination | None]:
        """Claim ``seat`` (from 0): (why not, or None; where to go now, if anywhere)."""

    def stand(self, table: int) -> str | None:
        """Give up the seat claimed at a table that has not started."""

    def start(self, table: int) -> str | None:
        """Start the table this person created: computers take the free seats."""

    def say(self, text: str) -> str | None:
        """A line to the lobby's chat."""

    def reclaim(self, code: str) -> str | None:
        """A guest typed their seat's code: they are that seat's guest from now on."""

    def home(self) -> Destination | None:
        """The seat that waits for this person at a started table, if any."""

    def invite(self, person: str, table: int) -> str | None:
        """Invite ``person`` (a :attr:`PersonRow.key`) to a free seat of ``table`` (where this person sits)."""

    def answer(self, invitation: int, accept: bool) -> tuple[str | None, Destination | None]:
        """Accept (and sit, as :meth:`sit`) or decline an invitation; the inviter is told."""

    def join(self, code: str) -> tuple[str | None, Destination | None]:
        """Sit at the table whose code this is, as :meth:`sit`."""

    def dismiss(self, table: int, seat: int) -> str | None:
        """The creator of a forming table asks the person in ``seat`` to leave it."""

    def admin(self, act: AdminAct, target: str, text: str) -> str:
        """An admin's action (``target``: a table's number, a person's name, a key or an address;
        ``text``: the announcement, or a ban's hours and reason): what was done, or why not."""

    def admin_ask(self, act: AdminAct, target: str, text: str) -> tuple[str | None, str]:
        """Before an admin's action is asked "Are you sure?": (why it cannot be done, or None; the
        question, saying what it will do to whom)."""

    def bans(self) -> tuple[BanRow, ...]:
        """The bans in force (an admin's; () for anybody else)."""

    def visitors(self) -> tuple[VisitorRow, ...]:
        """Who is online, then the recent visitors (an admin's; () for anybody else)."""

    # friends, muted people and notes (issue 34): each answers what was done, or why not, in words
    def mark(self, person: str, kind: Marked, on: bool) -> str:
        """Mark ``person`` (a :attr:`PersonRow.key` or :attr:`FriendRow.key`) a friend or muted (``on``), or take it off."""

    def mark_name(self, name: str, kind: Marked) -> str:
        """Mark the person with this name (somebody online, or a name a key holds) a friend or muted."""

    def friends(self) -> tuple[FriendRow, ...]:
        """This person's friends (online ones first, with where they are; then offline, last seen), then those muted."""

    def leave_note(self, person: str, text: str) -> str:
        """Leave ``text`` for ``person`` (a key from a list, or a name typed): they see it when they next come in."""

    def notes(self) -> tuple[NoteRow, ...]:
        """The notes left for this person, the newest first."""

    def read_notes(self, ids: tuple[str, ...]) -> None:
        """These notes were shown to this person: read."""

    def delete_note(self, note: str) -> str:
        """Delete one of this person's notes."""


__all__ = ["CODE_MAX", "NOTE_MAX", "OPEN_TABLE", "Access", "AdminAct", "BanRow", "Destination", "FriendRow",
           "InvitationRow", "LobbyLine", "LobbyService", "LobbyView", "Marked", "NoteRow", "PersonRow", "SeatInfo",
           "SeatState", "TableRow", "TableSettings", "TableState", "VisitorRow", "ban_hours"]
