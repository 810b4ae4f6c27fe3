"""Friends, muted people and notes left for a person (issue 34, section 3).

A person with a key marks people they play with as friends (the online list shows them first, with
where they are; the friends list shows them offline too, with when they were last seen), mutes a
person (their lobby chat, invitations and notes stop reaching them; the muted person is never told:
what they do looks as usual to them), and leaves a short note for somebody, who sees it when they
next come in, at any front of a room.  Marks and notes are kept in the people store
(:mod:`..club.people`: ``marks``, ``person_notes``); :class:`Friends` is held by the registry
(``registry.friends``) and runs on the event loop's thread.

Everything typed is bounded and checked before it is kept: a name (at most :data:`NAME_MAX`
characters, a name a key holds or somebody online), a note's text (at most :data:`~.people.NOTE_MAX`
characters, not empty; shown through ``printable`` on every screen, so no control character or
escape sequence reaches one), the pace (:data:`NOTES_PER_WINDOW` notes a minute per person, as the
chat's lines), the notes waiting for one person (:data:`~.people.NOTES_WAITING`, and
:data:`NOTES_FROM_ONE` of them from one sender) and the marks of one person
(:data:`~.people.MARKS_MAX` of a kind).  Every refusal says why, in words, and is logged.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Protocol

from ...lobbyview import FriendRow, Marked, NoteRow, PersonRow
from ...text import printable
from ..club.people import MARKS_MAX, NOTE_MAX, NOTES_WAITING, Mark, PeopleStore, PersonNote, StoreError
from ..club.writer import QueuedPeople
from ..door.auth import GUEST_MARK
from ..door.names import NameBook, skeleton
from ..person import PersonId
from ..tables.server_table import VERIFIED
from .connected import Client

log = logging.getLogger("canasta.server")

#: Notes one person may leave a minute (each is a write, and a line on somebody's screen).
NOTES_PER_WINDOW = 5
NOTE_WINDOW = 60.0
#: Notes from one person that may wait unread for another (one sender cannot fill a box alone).
NOTES_FROM_ONE = 10
#: The longest name looked up (names are shorter: this bounds what is typed, before any lookup).
NAME_MAX = 64

#: What a person without a key is told (friends, mutes and notes are kept for a key).
KEY_ONLY = "Friends, mutes and notes are kept for people who connect with an SSH key"


class Host(Protocol):
    """The registry as friends see it (a ``registry.Registry``)."""

    @property
    def clients(self) -> Mapping[PersonId, Client]: ...

    @property
    def people(self) -> PeopleStore: ...

    @property
    def names(self) -> NameBook: ...

    def changed(self) -> None: ...

    def online_rows(self) -> list[PersonRow]: ...


class Friends:
    """Whom each person marked, and the notes left for them, as the lobbies use them."""

    def __init__(self, registry: Host, pace: Callable[[Hashable], str | None]) -> None:
        self.registry = registry
        self.pace = pace
        #: Notes waiting unread for each person connected here (read when they came, kept up to date here).
        self._waiting: dict[PersonId, int] = {}
        #: The newest note each person here was shown or told of (when it was left): a newer one is news.
        self._told: dict[PersonId, float] = {}

    # ------------------------------------------------------------------ a visit
    def came(self, person: PersonId) -> None:
        """``person`` connected: their marks and notes are read again (another front may have changed them)."""
        if not person.is_key:
            return
        people = self.registry.people
        if isinstance(people, QueuedPeople):
            people.forget_marks(str(person))
        notes = self._notes_of(person)
        self._waiting[person] = sum(1 for n in notes if not n.read)
        self._told[person] = max((n.written for n in notes), default=0.0)

    def went(self, person: PersonId) -> None:
        self._waiting.pop(person, None)
        self._told.pop(person, None)

    def waiting(self, person: PersonId) -> int:
        return self._waiting.get(person, 0)

    def read_again(self, asked: Sequence[str], counts: Mapping[str, tuple[int, float]]) -> None:
        """A process left a note (``notes.changed``): ``counts`` of those waiting unread for the people
        here, and when the newest was left, as the store holds them now; whoever has a note newer
        than any they were shown or told of is told."""
        changed = False
        read = set(asked)           # (somebody who came while the store was read was counted as they came)
        for person in [p for p in self._waiting if p in self.registry.clients and str(p) in read]:
            now, newest = counts.get(str(person), (0, 0.0))
            changed = changed or now != self._waiting[person]
            self._waiting[person] = now
            if now and newest > self._told.get(person, 0.0):
                self._told[person] = newest
                self.registry.clients[person].notify(f"You have {now} new note{'s' if now != 1 else ''}: press m to read")
        if changed:
            self.registry.changed()

    # ------------------------------------------------------------------ marks
    def marks(self, person: PersonId) -> list[Mark]:
        if not person.is_key:
            return []
        try:
            return self.registry.people.marks_of(str(person))
        except StoreError as exc:
            log.warning("the marks of %s could not be read: %s", person, exc)
            return []

    def marked(self, person: PersonId, kind: Marked) -> set[str]:
        """The keys ``person`` marked ``kind`` (friends, or those muted)."""
        return {m.other for m in self.marks(person) if m.kind == kind}

    def mutes(self, person: PersonId, other: str) -> bool:
        """Has ``person`` muted ``other`` (a person's key as text)?"""
        return other in self.marked(person, Marked.MUTE)

    def muted_names(self, person: PersonId) -> frozenset[str]:
        """The names a table's chat gives the people ``person`` muted: a key's names, marked as a
        table marks a key's (a name is one key's only), and a guest's name as shown while online."""
        muted = self.marked(person, Marked.MUTE)
        if not muted:
            return frozenset()
        out = {r.name for r in self.registry.online_rows() if r.key in muted and not r.verified}
        for other in muted:
            who = PersonId.read(other)
            if who is not None and who.is_key:
                out |= {r.name + VERIFIED for r in self.registry.names.of_key(who.fingerprint)}
        return frozenset(out)

    def whom(self, name: str) -> tuple[str, str] | str:
        """The person a typed name names: (their key as text, their name as shown), or why none.
        Somebody online by their name as shown (a guest's too), else a name a key holds."""
        typed = name.strip()
        if not typed:
            return "Type a name"
        if len(typed) > NAME_MAX or not typed.isprintable():
            return "Nobody here has that name"
        look = skeleton(typed.removeprefix(GUEST_MARK))
        for row in self.registry.online_rows():
            if skeleton(row.name.removeprefix(GUEST_MARK)) == look:
                return row.key, row.name
        held = self.registry.names.owner(typed.removeprefix(GUEST_MARK))
        if held is None:
            return f"Nobody here has the name {printable(typed)}: a name a key holds, or somebody online"
        return str(PersonId.of_key(held.fingerprint)), held.name

    def mark(self, client: Client, other: str, name: str, kind: Marked, on: bool) -> str:
        """``client`` marks ``other`` (a key as text, shown as ``name``) ``kind``, or takes it off: what was done."""
        me = client.identity
        who = PersonId.read(other)
        shown = printable(name)
        if not me.verified:
            return KEY_ONLY
        if who is None or not (who.is_key or who.is_guest):
            return "Nobody here is that"
        if who == me.person:
            return "That is you: choose somebody else"
        if kind == Marked.FRIEND and on and not who.is_key:
            return f"{shown} is a guest: friends are people with a key (they are not kept for a guest)"
        key = str(me.person)
        try:
            if not on:
                if not self.registry.people.unmark(key, other, kind):
                    return f"{shown} was not {_marked(kind)}"
                log.info("%s took %s off their %s", me.log_text(), other, "friends" if kind == Marked.FRIEND else "muted")
                self.registry.changed()
                return f"{shown} is no longer your friend" if kind == Marked.FRIEND else f"{shown} is no longer muted"
            held = self.marked(me.person, kind)
            if other in held:
                return f"{shown} is {_marked(kind)} already"
            if len(held) >= MARKS_MAX:
                return (f"You have {MARKS_MAX} {'friends' if kind == Marked.FRIEND else 'people muted'} already: "
                        "take one off first")
            self.registry.people.mark(key, Mark(other, kind, name[:NAME_MAX], time.time()))
        except StoreError as exc:
            log.warning("a mark could not be kept: %s", exc)
            return "That could not be kept (the server's store failed): try again"
        log.info("%s marked %s %s", me.log_text(), other, kind.value)
        self.registry.changed()
        if kind == Marked.FRIEND:
            return f"{shown} is your friend: listed first, with where they are"
        return f"{shown} is muted: their chat, invitations and notes no longer reach you (they are not told)"

    def mark_name(self, client: Client, name: str, kind: Marked) -> str:
        found = self.whom(name)
        if isinstance(found, str):
            log.info("%s marked a name nobody has (%s)", client.identity.log_text(), printable(name[:NAME_MAX]))
            return found
        return self.mark(client, *found, kind, True)

    def rows(self, person: PersonId, online: Sequence[PersonRow]) -> tuple[FriendRow, ...]:
        """``person``'s friends, online first (where they are, as ``online`` shows them to this person),
        then offline (when last seen); then the people they muted."""
        here = {r.key: r for r in online}
        seen: dict[str, tuple[float, str]] = {}
        for r in self.registry.names.names.values():       # (the names a key holds: the last used shown)
            if seen.get(r.fingerprint, (-1.0, ""))[0] < r.seen:
                seen[r.fingerprint] = (r.seen, r.name)
        out = []
        for m in self.marks(person):
            row = here.get(m.other)
            other = PersonId.read(m.other)
            last = seen.get(other.fingerprint if other is not None else "")
            if row is not None:
                out.append(FriendRow(m.other, row.name, m.kind, row.where, True))
            else:
                when = time.strftime("seen %Y-%m-%d", time.localtime(last[0])) if last else "offline"
                out.append(FriendRow(m.other, last[1] if last else m.name, m.kind, when))
        return tuple(sorted(out, key=lambda f: (f.kind != Marked.FRIEND, not f.online, f.name.casefold())))

    # ------------------------------------------------------------------ notes
    def _notes_of(self, person: PersonId) -> list[PersonNote]:
        try:
            return self.registry.people.notes_for(str(person))
        except StoreError as exc:
            log.warning("the notes of %s could not be read: %s", person, exc)
            return []

    def leave(self, client: Client, to: str, text: str) -> str:
        """``client`` leaves ``text`` for ``to`` (a key from a list, or a name typed): what was done, or why not."""
        me = client.identity
        if not me.verified:
            return KEY_ONLY
        text = text.strip()
        if not text:
            return "Type the note after the name"
        if len(text) > NOTE_MAX:
            log.info("%s: a note of %d characters refused", me.log_text(), len(text))
            return f"A note is at most {NOTE_MAX} characters (this one has {len(text)})"
        found: tuple[str, str] | str
        who = PersonId.read(to)
        if who is not None and who.is_key:
            row = next((r for r in self.registry.online_rows() if r.key == to), None)
            held = self.registry.names.of_key(who.fingerprint)
            found = (to, row.name if row else held[0].name if held else to)
        else:
            found = self.whom(to)
        if isinstance(found, str):
            log.info("%s: a note to a name nobody has refused (%s)", me.log_text(), printable(to[:NAME_MAX]))
            return found
        key, name = found
        shown = printable(name)
        recipient = PersonId.read(key)
        if recipient == me.person:
            return "That is you: a note is for somebody else"
        if recipient is None or not recipient.is_key:
            return f"{shown} is a guest: notes are kept for people with a key"
        why = self.pace(("note", me.person))
        if why:
            log.info("%s: a note refused (%s)", me.log_text(), why)
            return why
        notes = self._notes_of(recipient)
        unread = [n for n in notes if not n.read]
        if len(unread) >= NOTES_WAITING:
            log.info("%s: a note to %s refused: %d wait", me.log_text(), key, len(unread))
            return f"{shown} has {len(unread)} notes waiting; try later"
        if sum(1 for n in unread if n.from_key == str(me.person)) >= NOTES_FROM_ONE:
            return f"{shown} has {NOTES_FROM_ONE} of your notes waiting unread: wait till they read them"
        done = f"Your note is left for {shown}: they see it when they next come in"
        if self.mutes(recipient, str(me.person)):
            # (muted: the note is never kept, and its writer is told what anybody is told)
            log.info("%s left a note for %s, who muted them: not kept", me.log_text(), key)
            return done
        note = PersonNote(secrets.token_hex(8), key, str(me.person), me.label, text, time.time())
        try:
            self.registry.people.leave_note(note)
        except StoreError as exc:
            log.warning("a note could not be kept: %s", exc)
            return "The note could not be kept (the server's store failed): try again"
        log.info("%s left a note for %s", me.log_text(), key)
        there = self.registry.clients.get(recipient)
        if there is not None:
            self._waiting[recipient] = self._waiting.get(recipient, 0) + 1
            self._told[recipient] = max(self._told.get(recipient, 0.0), note.written)
            there.notify(f"{printable(me.label)} left you a note: press m to read it")
            self.registry.changed()
        return done

    def notes(self, person: PersonId) -> tuple[NoteRow, ...]:
        """The notes left for ``person``, the newest first (they have been shown them)."""
        notes = self._notes_of(person)
        if person in self._told:
            self._told[person] = max([self._told[person], *(n.written for n in notes)])
        return tuple(NoteRow(n.id, n.from_name, time.strftime("%Y-%m-%d %H:%M", time.localtime(n.written)),
                             n.text, n.read) for n in reversed(notes))

    def read(self, person: PersonId, ids: Sequence[str]) -> None:
        if not person.is_key or not ids:
            return
        try:
            self.registry.people.read_notes(str(person), list(ids)[:NOTES_WAITING * 2])
        except StoreError as exc:
            log.warning("notes could not be marked read: %s", exc)
            return
        unread = sum(1 for n in self._notes_of(person) if not n.read)
        if unread != self._waiting.get(person, 0):
            self._waiting[person] = unread
            self.registry.changed()

    def delete(self, person: PersonId, note_id: str) -> str:
        if not person.is_key:
            return KEY_ONLY
        try:
            if not self.registry.people.drop_note(str(person), note_id[:64]):
                return "That note is gone already"
        except StoreError as exc:
            log.warning("a note could not be deleted: %s", exc)
            return "The note could not be deleted (the server's store failed): try again"
        self._waiting[person] = sum(1 for n in self._notes_of(person) if not n.read)
        return "The note is deleted"


def _marked(kind: Marked) -> str:
    return "your friend" if kind == Marked.FRIEND else "muted"


__all__ = ["KEY_ONLY", "NAME_MAX", "NOTES_FROM_ONE", "NOTES_PER_WINDOW", "NOTE_WINDOW", "Friends"]
