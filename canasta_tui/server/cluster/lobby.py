"""The lobby across a cluster's nodes (``docs/cluster.md``, "The lobby across nodes").

A table lives on one owner, in that owner's :class:`~..lobby.registry.Registry`, which does what it
does in one process (forming seats, the start, the turn timer, forfeits, rematch).  The people who
act on it are connected at fronts: on the owner each is a :class:`StandIn`, a
:class:`~..lobby.connected.Client` whose every word for the person (moved, a notice, a warning,
kicked) goes on the bus to the front that holds their connection, which tells their screen.

* **Rows.**  Each owner publishes all its tables' lobby rows on ``lobby.rows.<owner>``, at every
  change and every :data:`HEARTBEAT` seconds (which is also how a front knows the owner is alive, and
  how a front that starts later fills in).  A front keeps a :class:`LobbyMirror` of every live owner's
  rows; an owner not heard for :data:`OWNER_GONE` seconds is dropped from it.
* **Actions.**  A front's lobby (:class:`ClusterLobby`) answers from the mirror where that is honest
  (the seat is taken, the table is gone, the creator starts it) and sends the action to the table's
  owner (``owner.<owner>.lobby``); the owner's registry decides, and a refusal comes back as a notice on
  the person's screen (a lobby key never waits for the bus).  A table's number comes from the room's
  database (:class:`TableNumbers`), so the front can name a table it has asked an owner to create.
* **Invitations, codes, play again.**  A front sends them to the table's owner (``invite``, ``answer``,
  ``join``, ``again``), which decides with the one-process code (the code, the seat and the person
  checked there) and tells the person's front (``invited``, ``again``): it keeps their invitations and
  shows the box, and the end of a match's question (:class:`RemoteAgain`).
* **People.**  A front publishes ``front.here.<front>`` every :data:`HEARTBEAT` seconds and
  ``front.left.<front>`` when a person's connection ends; an owner lets go of a person's stand-in then
  (they leave its forming tables, as in one process), and of all of a front's when it is silent for
  :data:`FRONT_GONE` seconds.

Everything from the bus is checked before it is used (:func:`person_of`, :func:`row_of`, the
request's fields): a malformed message is refused with its reason and logged, and nothing is applied.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from ...engine import Rules, RulesError
from ...engine.rules import rules_from_dict
from ...lobbyview import (
    OPEN_TABLE,
    Access,
    Destination,
    SeatInfo,
    SeatState,
    TableRow,
    TableSettings,
    TableState,
)
from ...text import printable
from ..club.people import Invitation
from ..club.writer import QueuedPeople
from ..config import is_fingerprint
from ..door.auth import GUEST_MARK, Identity
from ..lobby.connected import Client
from ..lobby.registry import Registry
from ..lobby.service import RegistryLobby
from ..person import BadPerson, PersonId, person_text, reason
from ..tables.server_table import FORMING, LEVELS, PLAYING, LobbyRow, TableRefused, code_key
from .bus import TOKEN, Bus, BusError, Incoming, Message, Refusal, Refused, Sub
from .remote import RemoteLink, TablePublisher

log = logging.getLogger("canasta.cluster.lobby")

#: Seconds between an owner's rows (and a front's "here"), whether anything changed or not.
HEARTBEAT = 1.0
#: An owner not heard for this long is gone: its tables leave the fronts' lobbies.
OWNER_GONE = 4.0
#: A front not heard for this long is gone: its people leave the owners' forming tables.
FRONT_GONE = 10.0
#: How long a front waits for an owner's answer to a lobby action.
ANSWER_WAIT = 5.0
#: Bounds on what a message may hold.
NAME_MAX, TEXT_MAX, SEATS_MAX, ROWS_MAX, KEY_MAX = 40, 500, 8, 1000, 200
#: Table numbers a node takes from the database at a time.
NUMBERS_AT_ONCE = 16
#: A table's code as typed (the lobby's line takes no more).
CODE_MAX = 16
#: Open invitations a front keeps for one of its people (the oldest go first): an owner's word is
#: bounded like any other.
INVITATIONS_KEPT = 20


class Malformed(ValueError):
    """A message from the bus that is not what it must be: the reason, for the log and the refusal."""


# ----------------------------------------------------------------------------- codecs
def _text(data: Mapping[str, Any], key: str, most: int = TEXT_MAX, empty: bool = True) -> str:
    v = data.get(key, "")
    if not isinstance(v, str) or len(v) > most or printable(v) != v or (not empty and not v):
        raise Malformed(f"{key} is not text of at most {most} printable characters")
    return v


def _int(data: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    v = data.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise Malformed(f"{key} is not a whole number from {lo} to {hi}")
    return v


def _bool(data: Mapping[str, Any], key: str) -> bool:
    v = data.get(key, False)
    if not isinstance(v, bool):
        raise Malformed(f"{key} is not true or false")
    return v


_E = TypeVar("_E", bound=StrEnum)


def _choice(data: Mapping[str, Any], key: str, kind: type[_E], what: str) -> _E:
    """One of ``kind``'s values, or :class:`Malformed` saying ``what`` is not one the lobby knows."""
    try:
        return kind(str(data.get(key)))
    except ValueError:
        raise Malformed(f"{what} is not one the lobby knows") from None


def person_data(ident: Identity, address: str, code: str) -> Message:
    return {"name": ident.name, "fp": ident.fingerprint, "guest": ident.guest, "address": address, "code": code}


def person_of(data: object) -> tuple[Identity, str, str]:
    """A person as a front sent them: (identity, address, guest code); Malformed says why not."""
    if not isinstance(data, dict):
        raise Malformed("a person is not an object")
    name = _text(data, "name", NAME_MAX, empty=False)
    fp, guest = _text(data, "fp", 60), _text(data, "guest", 100)
    if bool(fp) == bool(guest) or (fp and not is_fingerprint(fp)) or (guest and not guest.replace("-", "").replace(
            "_", "").replace("+", "").replace("/", "").replace("=", "").isalnum()):
        raise Malformed("a person is a key's fingerprint or a guest's code, one of them")
    ident = Identity(name, fp, guest)
    try:
        ident.person  # noqa: B018  (checked as every person is: PersonId refuses a malformed one)
    except BadPerson as exc:
        raise Malformed(str(exc)) from None
    return ident, _text(data, "address", 100), _text(data, "code", 20)


def _seat_or_none(data: Mapping[str, Any]) -> int | None:
    return None if data.get("seat") is None else _int(data, "seat", 0, SEATS_MAX - 1)


def seat_data(s: SeatInfo) -> Message:
    return {"o": s.occupant.value, "name": s.name, "note": s.note, "v": s.verified}


def seat_of(data: object) -> SeatInfo:
    if not isinstance(data, dict):
        raise Malformed("a seat is not an object")
    occupant = _choice(data, "o", SeatState, "a seat's occupant")
    return SeatInfo(occupant, _text(data, "name", NAME_MAX), False, _text(data, "note", 100), _bool(data, "v"))


def row_data(lr: LobbyRow) -> Message:
    r = lr.row
    return {"id": r.id, "rules": r.rules, "level": r.level, "target": r.target, "stage": r.stage.value,
            "seats": [seat_data(s) for s in r.seats], "creator": r.creator, "hand": r.hand, "score": r.score,
            "winner": r.winner, "paused": r.paused, "access": r.access.value, "watchable": r.watchable,
            "rated": r.rated, "listed": r.listed, "by": person_text(lr.creator),
            "owners": [person_text(p) for p in lr.owners], "keys": [person_text(p) for p in lr.keys],
            "code": lr.code, "allowed": sorted(str(p) for p in lr.allowed)[:SEATS_MAX * 8]}


def _person(text: str) -> PersonId | None:
    """A person as a message writes them ("" for nobody); Malformed when it is not one."""
    try:
        return PersonId.parse(text) if text else None
    except BadPerson as exc:
        raise Malformed(str(exc)) from None


def _keys(data: Mapping[str, Any], key: str, n: int) -> tuple[PersonId | None, ...]:
    v = data.get(key)
    if not isinstance(v, list) or len(v) != n or not all(isinstance(x, str) and len(x) <= KEY_MAX for x in v):
        raise Malformed(f"{key} is not a list of {n} people")
    return tuple(_person(x) for x in v)


def row_of(data: object) -> LobbyRow:
    """A table's lobby row as an owner sent it; Malformed says why not."""
    if not isinstance(data, dict):
        raise Malformed("a row is not an object")
    seats_raw = data.get("seats")
    if not isinstance(seats_raw, list) or not 2 <= len(seats_raw) <= SEATS_MAX:
        raise Malformed(f"a table has 2 to {SEATS_MAX} seats")
    seats = tuple(seat_of(s) for s in seats_raw)
    n = len(seats)
    stage = _choice(data, "stage", TableState, "a table's stage")
    access = _choice(data, "access", Access, "a table's access")
    row = TableRow(_int(data, "id", 1, 2**62), _text(data, "rules", 60), _text(data, "level", 20),
                   _int(data, "target", 0, 10**6), stage, seats, _text(data, "creator", NAME_MAX), False, None,
                   hand=_int(data, "hand", 0, 10**4), score=_text(data, "score", 100), winner=_text(data, "winner", 200),
                   paused=_bool(data, "paused"), access=access, watchable=_bool(data, "watchable"),
                   rated=_bool(data, "rated"), listed=_bool(data, "listed"))
    allowed = data.get("allowed")
    if not isinstance(allowed, list) or len(allowed) > SEATS_MAX * 8 or not all(
            isinstance(x, str) and len(x) <= KEY_MAX for x in allowed):
        raise Malformed("allowed is not a list of people")
    let_in = frozenset(p for p in (_person(x) for x in allowed) if p is not None)
    return LobbyRow(row, _person(_text(data, "by", KEY_MAX)), _keys(data, "owners", n), _keys(data, "keys", n),
                    _text(data, "code", 20), let_in)


def settings_data(s: TableSettings) -> Message:
    return {"access": s.access.value, "listed": s.listed, "watchable": s.watchable, "rated": s.rated}


def settings_of(data: object) -> TableSettings:
    if not isinstance(data, dict):
        raise Malformed("settings are not an object")
    access = _choice(data, "access", Access, "access")
    return TableSettings(access, _bool(data, "listed"), _bool(data, "watchable"), _bool(data, "rated"))


def where_data(where: Destination | None) -> list[int | None] | None:
    return None if where is None else [where.table, where.seat]


def where_of(data: object) -> Destination | None:
    if data is None:
        return None
    if (not isinstance(data, list) or len(data) != 2 or isinstance(data[0], bool) or not isinstance(data[0], int)
            or not (data[1] is None or (isinstance(data[1], int) and not isinstance(data[1], bool)
                                        and 0 <= data[1] < SEATS_MAX))):
        raise Malformed("a destination is [table, seat or null]")
    return Destination(data[0], data[1])


# ----------------------------------------------------------------------------- table numbers
class TableNumbers:
    """New tables' numbers, from the room's database (a sequence: every node's are different),
    taken :data:`NUMBERS_AT_ONCE` at a time off the loop, so that taking one never waits."""

    def __init__(self, database: str) -> None:
        self.database = database
        self._ready: list[int] = []
        self._filling: asyncio.Task[None] | None = None

    def _fetch(self) -> list[int]:
        from ..tables.pgstore import SCHEMA, migrate
        from .ownership import connect, where_of

        # (the table store's own sequence: an owner's numbers and a front's are never the same)
        with connect(self.database, "canasta table numbers") as conn:
            migrate(conn, where_of(self.database))
            rows = conn.execute(f"SELECT nextval('{SCHEMA}.table_ids') FROM generate_series(1, %s)",
                                (NUMBERS_AT_ONCE,)).fetchall()
        return [int(r[0]) for r in rows]

    async def fill(self) -> None:
        """Have numbers ready (at start, and whenever half are used)."""
        got = await asyncio.get_running_loop().run_in_executor(None, self._fetch)
        self._ready.extend(got)

    def take(self) -> int | None:
        """A new number, or None when the database has not given any yet."""
        if len(self._ready) <= NUMBERS_AT_ONCE // 2 and (self._filling is None or self._filling.done()):
            self._filling = asyncio.get_running_loop().create_task(self._refill())
        return self._ready.pop(0) if self._ready else None

    async def _refill(self) -> None:
        try:
            await self.fill()
        except Exception as exc:                 # (the next take tries again)
            log.warning("no table numbers from the database: %s", printable(str(exc))[:200])

    def take_or_refuse(self) -> int:
        n = self.take()
        if n is None:
            raise TableRefused("The room's database gives no table number right now: try again in a moment")
        return n


# ----------------------------------------------------------------------------- the owner's side
class StandIn:
    """A person connected at a front, as an owner's tables see them: what the tables tell them goes
    to that front."""

    def __init__(self, owner: OwnerLobby, front: str, identity: Identity, address: str, code: str) -> None:
        self.owner, self.front = owner, front
        self._identity, self._address, self._code = identity, address, code

    @property
    def identity(self) -> Identity:
        return self._identity

    @property
    def address(self) -> str:
        return self._address

    @property
    def guest_code(self) -> str:
        return self._code

    def _tell(self, what: str, **more: Any) -> None:
        self.owner.tell(self.front, {"to": str(self._identity.person), "what": what, **more})

    def moved(self, where: Destination) -> None:
        self._tell("moved", where=where_data(where))

    def back_to_lobby(self, note: str) -> None:
        self._tell("back", text=note[:TEXT_MAX])

    def kick(self, reason: str) -> None:
        self._tell("kick", text=reason[:TEXT_MAX])

    def notify(self, text: str) -> None:
        self._tell("notify", text=text[:TEXT_MAX])

    def warn(self, text: str) -> None:
        self._tell("warn", text=text[:TEXT_MAX])

    def reclaim(self, code: str) -> str | None:
        return "A seat's code is typed in the lobby of your front"

    def invited(self, invitation: Invitation) -> None:
        self._tell("invited", id=invitation.id, table=invitation.table_id, text=invitation.from_name[:NAME_MAX + 1],
                   by=person_text(invitation.from_key))

    def again(self, table: int, asked: bool, status: str) -> None:
        """"Play again?" at ``table`` as it stands for this player (their front's box shows it)."""
        self._tell("again", table=table, asked=asked, text=status[:TEXT_MAX])


class OwnerLobby:
    """An owner's side of the lobby: its tables' rows on the bus, and the fronts' actions on them."""

    def __init__(self, bus: Bus, registry: Registry, name: str, numbers: TableNumbers | None = None,
                 epoch_of: Callable[[int], int] = lambda table: 1) -> None:
        self.bus, self.registry, self.name = bus, registry, name
        self.numbers = numbers
        #: The epoch this owner holds each table at (its frames carry it: a front drops older ones).
        self.epoch_of = epoch_of
        #: Each started table's frames on the bus (``remote.py``), while this owner holds it.
        self.publishers: dict[int, TablePublisher] = {}
        if numbers is not None:
            registry.ids = numbers.take_or_refuse
        #: The people of each front that acted here: front -> identity -> stand-in.
        self.people: dict[str, dict[PersonId, StandIn]] = {}
        self.fronts: dict[str, float] = {}          # front -> when last heard (the loop's clock)
        self.refused = 0
        self._subs: list[Sub] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._beat: asyncio.Task[None] | None = None
        self._dirty = False
        #: "Play again?" as each remote player's front was last told it: (table, seat, front) -> (asked, status).
        self._again_told: dict[tuple[int, int, str], tuple[bool, str]] = {}

    async def start(self) -> None:
        self._subs = [await self.bus.serve(f"owner.{self.name}.lobby", self._answer),
                      await self.bus.subscribe("front.here.*", self._front_here),
                      await self.bus.subscribe("front.left.*", self._front_left)]
        self.registry.subscribe(self._changed)
        await self.publish_rows()
        self._beat = asyncio.get_running_loop().create_task(self._heartbeat())

    async def stop(self) -> None:
        self.registry.unsubscribe(self._changed)
        if self._beat is not None:
            self._beat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._beat
        for sub in self._subs:
            await sub.stop()
        for pub in list(self.publishers.values()):
            await pub.stop()
        self.publishers.clear()

    # -- rows
    def _changed(self) -> None:
        if not self._dirty:
            self._dirty = True
            self._spawn(self.publish_rows())

    async def _sync_publishers(self) -> None:
        """A started table's frames go on the bus while this owner holds it (and stop when it goes)."""
        for table_id, pub in list(self.publishers.items()):
            st = self.registry.tables.get(table_id)
            if st is None or st.table is not pub.table:
                del self.publishers[table_id]
                await pub.stop()
        for st in list(self.registry.tables.values()):
            if st.table is not None and st.id not in self.publishers:
                pub = TablePublisher(self.bus, str(st.id), st.table, epoch=self.epoch_of(st.id))
                self.publishers[st.id] = pub
                await pub.start()

    async def publish_rows(self) -> None:
        self._dirty = False
        await self._sync_publishers()
        rows = self.registry.lobby_rows()[:ROWS_MAX]
        await self.bus.publish(f"lobby.rows.{self.name}",
                               {"owner": self.name, "rows": [row_data(r) for r in rows], "load": len(self.registry.tables)})
        self._tell_again()

    def _tell_again(self) -> None:
        """Each remote player of a finished match is told "play again?" as it stands for them (who
        plays again, who has not answered and their seconds left) when it changed: at every change
        and every heartbeat, so that the countdown moves on their screen as in one process."""
        told: dict[tuple[int, int, str], tuple[bool, str]] = {}
        for st in self.registry.tables.values():
            if st.again is None or st.table is None:
                continue
            status = st.again_status()
            for seat, (who, _) in st.links.items():
                if isinstance(who, StandIn):
                    state = (st.asks_again(who.identity.person), status)
                    told[st.id, seat, who.front] = state
                    if self._again_told.get((st.id, seat, who.front)) != state:
                        who.again(st.id, *state)
        self._again_told = told

    async def _heartbeat(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(HEARTBEAT)
            try:
                await self.publish_rows()
            except BusError as exc:
                log.warning("owner %s: rows not published: %s", self.name, exc)
            now = loop.time()
            for front, heard in list(self.fronts.items()):
                if now - heard > FRONT_GONE:
                    log.info("owner %s: front %s is silent: its people leave this owner's forming tables", self.name, front)
                    del self.fronts[front]
                    for person in list(self.people.pop(front, {}).values()):
                        self.registry.disconnect(person)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def tell(self, front: str, message: Message) -> None:
        """A word for a person at ``front`` (in the order said: publishes keep their order)."""
        self._spawn(self.bus.publish(f"front.{front}.tell", message))

    # -- fronts
    async def _front_here(self, m: Incoming) -> None:
        front = m.subject.rsplit(".", 1)[-1]
        new = front not in self.fronts
        self.fronts[front] = asyncio.get_running_loop().time()
        if new:
            # A front that has just come up learns this owner's tables at once, not at the next
            # heartbeat: until then its lobby would say no owner is running.
            try:
                await self.publish_rows()
            except BusError as exc:
                log.warning("owner %s: rows not published to the new front %s: %s", self.name, front, exc)

    async def _front_left(self, m: Incoming) -> None:
        front = m.subject.rsplit(".", 1)[-1]
        key = PersonId.read(m.data.get("key"))
        person = self.people.get(front, {}).pop(key, None) if key is not None else None
        if person is not None:
            self.registry.disconnect(person)

    def _person(self, front: str, data: object) -> StandIn:
        ident, address, code = person_of(data)
        mine = self.people.setdefault(front, {})
        who = ident.person
        person = mine.get(who)
        if person is None or person.identity != ident:
            for other_front, others in self.people.items():      # (they went to another front)
                if other_front != front:
                    others.pop(who, None)
            person = StandIn(self, front, ident, address, code)
            mine[who] = person
            self.registry.clients[who] = person
            self.registry.changed()
        elif self.registry.clients.get(who) is not person:
            self.registry.clients[who] = person
        self.fronts.setdefault(front, asyncio.get_running_loop().time())
        return person

    # -- actions
    async def _answer(self, m: Incoming) -> Mapping[str, Any]:
        if m.data.get("op") == "enter":
            await self._sync_publishers()       # (a table started a moment ago: its frames first)
        try:
            return self._act(m.data)
        except Malformed as exc:
            self.refused += 1
            log.warning("owner %s: refused a lobby request: %s", self.name, exc)
            raise Refusal(f"malformed: {exc}") from None

    def _act(self, data: Message) -> Message:
        front = _text(data, "front", 64, empty=False)
        op = _text(data, "op", 20, empty=False)
        person = self._person(front, data.get("person"))
        reg = self.registry
        client: Client = person
        if op == "create":
            raw = data.get("rules")
            try:
                rules = rules_from_dict(raw) if isinstance(raw, dict) else None
            except RulesError as exc:
                raise Malformed(f"rules: {exc}") from None
            level = _text(data, "level", 20)
            if rules is None or level not in LEVELS:
                raise Malformed("a table is created with rules and a level")
            table_id = _int(data, "table", 1, 2**62)
            try:
                st = reg.create(client, rules, level, settings=settings_of(data.get("settings")),
                                turn_timer=_int(data, "timer", 0, 86400), table_id=table_id)
            except TableRefused as exc:
                return {"why": str(exc)}
            return {"table": st.id}
        if op == "join":
            why, where = reg.join(client, _text(data, "code", CODE_MAX, empty=False))
            return {"why": reason(why), "where": where_data(where)}
        if op == "answer":
            why, where = reg.invitations.answer(client, _int(data, "invitation", 1, 2**62), _bool(data, "accept"))
            return {"why": reason(why), "where": where_data(where)}
        table = _int(data, "table", 1, 2**62)
        if op == "invite":
            to, guest = self._invitee(data)
            if isinstance(reg.people, QueuedPeople):
                reg.people.forget_marks(str(to))      # (read again: they may have muted somebody at their front)
            return {"why": reason(reg.invitations.invite(client, to, table, guest))}
        if op in ("again", "again_seen"):
            over = reg.tables.get(table)
            if over is None:
                return {"why": "That table is gone"}
            if op == "again_seen":
                over.saw_again(person.identity.person)
                return {"why": None}
            return {"why": reason(over.answer_again(client, _bool(data, "yes")))}
        if op == "here":
            # (a person seated at a forming table this owner took over from a dead one: their stand-in
            # is here now, so the start, a notice or a dismissal reaches them at their front)
            return {}
        if op == "sit":
            why, where = reg.sit(client, table, _int(data, "seat", 0, SEATS_MAX - 1))
            return {"why": reason(why), "where": where_data(where)}
        # (a refusal crosses the bus as its words: the front shows them)
        if op == "stand":
            return {"why": reason(reg.stand(client, table))}
        if op == "start":
            return {"why": reason(reg.start(client, table))}
        if op == "dismiss":
            return {"why": reason(reg.dismiss(client, table, _int(data, "seat", 0, SEATS_MAX - 1)))}
        if op == "enter":
            return self._enter(person, front, table, _seat_or_none(data))
        if op == "left":
            return self._left(person, table, _seat_or_none(data), _bool(data, "dropped"))
        raise Malformed(f"no lobby action {op!r}")

    def _invitee(self, data: Message) -> tuple[PersonId, StandIn]:
        """The person invited, as the inviter's front found them online (at which front, under what
        name): the owner tells them there.  (Who may invite whom to which seat, the owner decides.)"""
        to = _person(_text(data, "to", KEY_MAX, empty=False))
        label = _text(data, "to_name", NAME_MAX + 1, empty=False)
        at = _text(data, "at", 64, empty=False)
        if to is None or not (to.is_key or to.is_guest):
            raise Malformed("to is not a person with a key or a guest")
        if not TOKEN.fullmatch(at):
            raise Malformed("at is not a front's name")
        name = label.removeprefix(GUEST_MARK) if to.is_guest else label
        if not name:
            raise Malformed("to_name is not a name")
        return to, StandIn(self, at, Identity(name, to.fingerprint, "" if to.is_key else to.value), "", "")

    def _enter(self, person: StandIn, front: str, table: int, seat: int | None) -> Message:
        """``person`` sits down at their seat of a started table (None: watches it) from ``front``:
        the token their front's requests carry (``remote.py``), and what happened while they were away."""
        st = self.registry.tables.get(table)
        pub = self.publishers.get(table)
        if st is None or st.table is None:
            return {"why": "That table is gone"}
        if pub is None:
            return {"why": "The table is starting: press Enter on it again in a moment"}
        if seat is None:
            refused = st.may_watch(person.identity.person)
            if refused:
                return {"why": reason(refused)}
            st.watch(person)
            claimed = [s for s, (who, _) in st.pending.items() if who is person]
            return {"token": pub.watch(front), "epoch": pub.epoch, "claimed": claimed[:1]}
        if not 0 <= seat < st.players or st.table.seats[seat].key != str(person.identity.person):
            return {"why": "That seat is not yours"}
        _link, since = st.enter(person, seat)
        # (the front's host of the seat acknowledges the hands, not this stand-in's link)
        st.table.leave(person)
        token = pub.host(seat, front)
        return {"token": token, "epoch": pub.epoch, "since": [printable(x)[:TEXT_MAX] for x in since[:40]],
                "rated": st.rated}

    def _left(self, person: StandIn, table: int, seat: int | None, dropped: bool) -> Message:
        st = self.registry.tables.get(table)
        if st is None:
            return {"note": ""}
        note = ""
        if seat is None:
            st.unwatch(person)
        else:
            entry = st.links.get(seat)
            if entry is not None and entry[0] is person:
                note = st.leave(person, seat, dropped=dropped)
                pub = self.publishers.get(table)
                if pub is not None and pub.hosts(seat) == person.front:
                    pub.unhost(seat)
        self.registry.drop_if_over(st)
        return {"note": note}


# ----------------------------------------------------------------------------- the front's side
@dataclass(eq=False)
class _Follower:
    """A screen at a table held elsewhere: the owner it was last told of, and how to tell it."""

    owner: str | None
    moved: Callable[[str | None], None]


class LobbyMirror:
    """A front's copy of every live owner's tables (their rows, as the owners last sent them), and the
    tables this front asked an owner to create that the owner's rows do not show yet."""

    def __init__(self, on_change: Callable[[], None], clock: Callable[[], float] = time.monotonic) -> None:
        self.on_change, self.clock = on_change, clock
        self.owners: dict[str, tuple[float, tuple[LobbyRow, ...], int]] = {}
        self.waiting: dict[int, tuple[str, LobbyRow]] = {}
        self.refused = 0
        #: The screens at each table held elsewhere, told when its owner changes (:meth:`follow`):
        self._followers: dict[int, list[_Follower]] = {}

    def heard(self, m: Incoming) -> None:
        """An owner's rows (a malformed message is refused whole: logged, nothing kept)."""
        try:
            owner = _text(m.data, "owner", 64, empty=False)
            if m.subject != f"lobby.rows.{owner}":
                raise Malformed(f"rows of {owner} on {m.subject}")
            raw = m.data.get("rows")
            if not isinstance(raw, list) or len(raw) > ROWS_MAX:
                raise Malformed(f"rows are a list of at most {ROWS_MAX}")
            rows = tuple(row_of(r) for r in raw)
            load = _int(m.data, "load", 0, 10**6)
        except Malformed as exc:
            self.refused += 1
            log.warning("refused an owner's rows on %s: %s", printable(m.subject)[:100], exc)
            return
        before = self.owners.get(owner)
        self.owners[owner] = (self.clock(), rows, load)
        shown = {r.row.id for r in rows}
        for t in [t for t, (o, _) in self.waiting.items() if t in shown]:
            del self.waiting[t]
        # A table is one owner's: one that lists a table another listed has taken it over (the
        # database's lock decides who may), so the other's row of it is old news.
        for other, (heard, others, n) in list(self.owners.items()):
            if other != owner and any(r.row.id in shown for r in others):
                self.owners[other] = (heard, tuple(r for r in others if r.row.id not in shown), n)
        if before is None or before[1] != rows:
            self.on_change()
            self._tell_followers()

    def sweep(self) -> None:
        """Owners not heard for :data:`OWNER_GONE` leave (their tables with them)."""
        now = self.clock()
        gone = [o for o, (heard, _, _) in self.owners.items() if now - heard > OWNER_GONE]
        for o in gone:
            log.info("owner %s is silent: its tables leave the lobby until another owner has them", o)
            del self.owners[o]
        if gone:
            self.on_change()
            self._tell_followers()

    def follow(self, table: int, owner: str, moved: Callable[[str | None], None]) -> Callable[[], None]:
        """Tell ``moved`` each time ``table``'s owner is no longer ``owner`` (the one last told): the
        new owner's name once another owner lists it (a take-over), None while no live owner does
        (its owner went silent).  Returns the call that stops it.  A screen at a table held elsewhere
        follows it so, with no polling: the rows that move a table are what tell it."""
        entry = _Follower(owner, moved)
        self._followers.setdefault(table, []).append(entry)

        def stop() -> None:
            entries = self._followers.get(table, [])
            if entry in entries:
                entries.remove(entry)
            if not entries:
                self._followers.pop(table, None)
        if self.owner_of(table) != owner:       # (it moved between the enter and now)
            self._tell_followers()
        return stop

    def _tell_followers(self) -> None:
        if not self._followers:
            return
        owner_of = {r.row.id: o for o, (_, rows, _) in self.owners.items() for r in rows}
        for table, entries in list(self._followers.items()):
            now = owner_of.get(table) or (self.waiting[table][0] if table in self.waiting else None)
            for entry in list(entries):
                if entry.owner != now:
                    entry.owner = now
                    try:
                        entry.moved(now)
                    except Exception:          # (one screen's trouble is not the mirror's)
                        log.exception("a screen at table %d was not told of its new owner", table)

    def rows(self) -> list[LobbyRow]:
        out = [r for _, rows, _ in self.owners.values() for r in rows]
        out += [r for _, r in self.waiting.values()]
        return sorted(out, key=lambda r: r.row.id)

    def row(self, table: int) -> LobbyRow | None:
        return next((r for r in self.rows() if r.row.id == table), None)

    def owner_of(self, table: int) -> str | None:
        for owner, (_, rows, _) in self.owners.items():
            if any(r.row.id == table for r in rows):
                return owner
        waiting = self.waiting.get(table)
        return waiting[0] if waiting is not None else None

    def least_loaded(self) -> str | None:
        """The live owner with the fewest tables (by name among equals)."""
        live = sorted((load, owner) for owner, (_, _, load) in self.owners.items())
        return live[0][1] if live else None


class FrontLobby:
    """A front's side of the lobby: the mirror of the owners' rows, its people's actions sent to the
    tables' owners, and the owners' words for its people."""

    def __init__(self, bus: Bus, registry: Registry, name: str, numbers: TableNumbers) -> None:
        self.bus, self.registry, self.name, self.numbers = bus, registry, name, numbers
        self.mirror = LobbyMirror(registry.changed)
        self.refused = 0
        self._subs: list[Sub] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._beat: asyncio.Task[None] | None = None
        self._here: set[PersonId] = set()
        #: The open invitations the owners told this front's people of, by person and number.
        self.invitations: dict[PersonId, dict[int, Invitation]] = {}
        #: "Play again?" of the table held elsewhere each of this front's people has just finished.
        self.again_of: dict[PersonId, RemoteAgain] = {}
        #: The owner of each forming table where this front's people sit, as its rows last said.
        self._forming_at: dict[int, str] = {}

    async def start(self) -> None:
        self._subs = [await self.bus.subscribe("lobby.rows.*", self._rows),
                      await self.bus.subscribe(f"front.{self.name}.tell", self._told)]
        self.registry.subscribe(self._people_changed)
        await self.numbers.fill()
        await self.bus.publish(f"front.here.{self.name}", {"front": self.name})
        self._beat = asyncio.get_running_loop().create_task(self._heartbeat())

    async def stop(self) -> None:
        self.registry.unsubscribe(self._people_changed)
        if self._beat is not None:
            self._beat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._beat
        for sub in self._subs:
            await sub.stop()

    async def _rows(self, m: Incoming) -> None:
        self.mirror.heard(m)
        self._seated_moved()

    def _seated_moved(self) -> None:
        """A forming table where this front's people sit has another owner (its owner died and a
        survivor took it over): each of them says they are here to the new owner, whose stand-in
        for them then hears the start, a notice or a dismissal as the old one did."""
        clients = self.registry.clients
        now: dict[int, str] = {}
        for owner, (_, rows, _) in self.mirror.owners.items():
            for r in rows:
                if r.row.stage == FORMING and any(k in clients for k in (*r.keys, r.creator) if k is not None):
                    now[r.row.id] = owner
                    before = self._forming_at.get(r.row.id)
                    if before is not None and before != owner:
                        log.info("front %s: table %d, not started, is at owner %s now (it was at %s)",
                                 self.name, r.row.id, owner, before)
                        for key in {k for k in (*r.keys, r.creator) if k is not None}:
                            who = clients.get(key)
                            if who is not None:
                                self.ask(who, owner, {"op": "here", "table": r.row.id}, _told_why(who))
        # (a table whose owner is silent for now keeps the owner it had: the one it is taken from)
        for table, owner in self._forming_at.items():
            if table not in now and self.mirror.owner_of(table) is None:
                now[table] = owner
        self._forming_at = now

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT)
            self.mirror.sweep()
            with contextlib.suppress(BusError):
                await self.bus.publish(f"front.here.{self.name}", {"front": self.name})

    def _people_changed(self) -> None:
        here = set(self.registry.clients)
        for key in self._here - here:
            self._spawn(self.bus.publish(f"front.left.{self.name}", {"key": str(key)}))
            self.invitations.pop(key, None)
            self.again_of.pop(key, None)
        self._here = here

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _told(self, m: Incoming) -> None:
        """An owner's word for one of this front's people."""
        try:
            key = _person(_text(m.data, "to", KEY_MAX, empty=False))
            what = _text(m.data, "what", 20, empty=False)
            text = _text(m.data, "text", TEXT_MAX)
            where = where_of(m.data.get("where"))
            table = _int(m.data, "table", 1, 2**62) if what in ("invited", "again") else 0
            number = _int(m.data, "id", 1, 2**62) if what == "invited" else 0
            asked = _bool(m.data, "asked")
            if what == "invited" and not 0 < len(text) <= NAME_MAX + 1:
                raise Malformed("an invitation's text is the inviter's name")
            by = _person(_text(m.data, "by", KEY_MAX, empty=False)) if what == "invited" else None
            if what == "invited" and (by is None or not (by.is_key or by.is_guest)):
                raise Malformed("an invitation is by a person with a key or a guest")
        except Malformed as exc:
            self.refused += 1
            log.warning("front %s: refused an owner's word: %s", self.name, exc)
            return
        client = self.registry.clients.get(key) if key is not None else None
        if client is None or key is None:
            return
        if what == "moved" and where is not None:
            if self.mirror.owner_of(where.table) is None and where.table not in self.registry.tables:
                # (a table made a moment ago, a rematch's: its owner's rows may come after this word)
                self._spawn(self._moved_when_listed(client, where))
            else:
                client.moved(where)
        elif what == "invited":
            self._invited(client, key, Invitation(number, by, text, key, table, time.time()))
        elif what == "again":
            again = self.again_of.get(key)
            if again is not None and again.table == table:
                again.told(asked, text)
        elif what == "notify":
            client.notify(text)
        elif what == "warn":
            client.warn(text)
        elif what == "back":
            client.back_to_lobby(text)
        elif what == "kick":
            client.kick(text)

    async def _moved_when_listed(self, client: Client, where: Destination) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ANSWER_WAIT
        while self.mirror.owner_of(where.table) is None and loop.time() < deadline:
            await asyncio.sleep(0.02)
        client.moved(where)

    def _invited(self, client: Client, key: PersonId, invitation: Invitation) -> None:
        """An owner keeps an invitation of this front's person: their lobby lists it (while its table
        is in the room), and they are told wherever they are.  One from somebody they muted is not
        (their marks are this front's to know first: the owner may have read them before the mute)."""
        if self.registry.friends.mutes(key, person_text(invitation.from_key)):
            log.info("front %s: an invitation to table %d from somebody %s muted: not shown", self.name,
                     invitation.table_id, key)
            return
        mine = self.invitations.setdefault(key, {})
        for old in [i for i in mine.values() if i.table_id == invitation.table_id]:
            del mine[old.id]
        mine[invitation.id] = invitation
        while len(mine) > INVITATIONS_KEPT:
            del mine[min(mine.values(), key=lambda i: (i.made, i.id)).id]
        self.registry.changed()
        client.invited(invitation)

    def open_invitations(self, key: PersonId) -> list[Invitation]:
        """``key``'s invitations the owners told of, to tables still in the room."""
        tables = {r.row.id for r in self.mirror.rows()}
        return sorted((i for i in self.invitations.get(key, {}).values() if i.table_id in tables),
                      key=lambda i: (i.made, i.id))

    def where_is(self, key: PersonId) -> tuple[str, str] | None:
        """The front ``key`` is connected at, and their name as shown (None: not online in the room)."""
        here = self.registry.clients.get(key)
        if here is not None:
            return self.name, here.identity.label
        presence = self.registry.presence
        found = next((h for h in presence.others() if h.key == str(key)), None) if presence is not None else None
        return (found.front, found.name) if found is not None else None

    def again(self, client: Client, table: int, repaint: Callable[[], None]) -> RemoteAgain:
        """``client``'s "play again?" at the end of the match of ``table`` (held elsewhere), which
        its owner tells this front of; ``repaint`` when it changes."""
        again = RemoteAgain(self, client, table, repaint)
        self.again_of[client.identity.person] = again
        return again

    def ask(self, client: Client, owner: str, request: Message, then: Callable[[Message], None]) -> None:
        """Send a lobby action to ``owner``; ``then`` gets its answer (a refusal or no answer: the
        person is told why, on the screen they see)."""
        ident = client.identity
        body = {"front": self.name, "person": person_data(ident, client.address, client.guest_code), **request}

        async def go() -> None:
            try:
                answer = await self.bus.request(f"owner.{owner}.lobby", body, timeout=ANSWER_WAIT)
            except Refused as exc:
                answer = {"why": exc.reason}
            except BusError:
                answer = {"why": "The table's owner did not answer: try again in a moment", "lost": True}
            then(answer)
        self._spawn(go())

    def lobby(self, client: Client, admin: Any = None) -> ClusterLobby:
        return ClusterLobby(self, client, admin)

    def holds(self, table: int) -> bool:
        """Is ``table`` one of the room's, at an owner?"""
        return self.mirror.owner_of(table) is not None

    def owner_of(self, table: int) -> str | None:
        return self.mirror.owner_of(table)

    def follow(self, table: int, owner: str, moved: Callable[[str | None], None]) -> Callable[[], None]:
        return self.mirror.follow(table, owner, moved)

    async def enter(self, client: Client, where: Destination) -> tuple[str, RemoteLink | None, Message]:
        """``client`` sits down at their seat of a table an owner holds (or watches it): (why not,
        or ""; the link to it; what the owner said: ``since``, ``rated``, ``claimed``)."""
        owner = self.mirror.owner_of(where.table)
        if owner is None:
            return "That table is gone", None, {}
        body = {"front": self.name, "op": "enter", "table": where.table, "seat": where.seat,
                "person": person_data(client.identity, client.address, client.guest_code)}
        try:
            answer = await self.bus.request(f"owner.{owner}.lobby", body, timeout=ANSWER_WAIT)
        except Refused as exc:
            return printable(exc.reason)[:TEXT_MAX], None, {}
        except BusError:
            return "The table's owner did not answer: try again in a moment", None, {}
        why, token = answer.get("why"), answer.get("token")
        if isinstance(why, str) and why:
            return printable(why)[:TEXT_MAX], None, {}
        if not isinstance(token, str) or not 0 < len(token) <= 100:
            self.refused += 1
            log.warning("front %s: refused an owner's answer to enter table %d: no token", self.name, where.table)
            return "The table's owner answered in a way this front does not read", None, {}
        registry = self.registry
        link = RemoteLink(self.bus, str(where.table), self.name, () if where.seat is None else (where.seat,), token,
                          chat=lambda text: registry.check_chat(client, text.strip()), who=client.identity.label)
        try:
            await link.start()
        except (BusError, TimeoutError):
            await link.stop()
            return "The table did not answer: press Enter on it again in a moment", None, {}
        answer["owner"] = owner
        return "", link, answer

    def left(self, client: Client, where: Destination, owner: str, dropped: bool,
             then: Callable[[str], None] | None = None) -> None:
        """``client`` left the table (``dropped``: their connection did): its owner lets their seat
        wait as in one process; ``then`` hears what they are to be told (a rated match's forfeit clock)."""
        def told(answer: Message) -> None:
            note = answer.get("note")
            if then is not None and isinstance(note, str) and note:
                then(printable(note)[:TEXT_MAX])
        again = self.again_of.get(client.identity.person)
        if again is not None and again.table == where.table:
            del self.again_of[client.identity.person]
        self.ask(client, self.mirror.owner_of(where.table) or owner,
                 {"op": "left", "table": where.table, "seat": where.seat, "dropped": dropped}, told)

    def home(self, client: Client) -> Destination | None:
        """The seat of a started table that waits for ``client`` at an owner, if any."""
        key = client.identity.person
        for shared in self.mirror.rows():
            if shared.row.stage == PLAYING and key in shared.keys:
                return Destination(shared.row.id, shared.keys.index(key))
        return None


class RemoteAgain:
    """"Play again with the same people?" at the end of a match of a table held elsewhere, for one
    player at this front: their answer goes to the table's owner, which decides as in one process;
    what the box shows is what the owner last told (``FrontLobby._told``)."""

    def __init__(self, front: FrontLobby, client: Client, table: int, repaint: Callable[[], None]) -> None:
        self.front, self.client, self.table, self.repaint = front, client, table, repaint
        #: Whether the question still waits for this player's answer (None: the owner has not said yet).
        self.is_asked: bool | None = None
        self.said = ""

    def told(self, asked: bool, status: str) -> None:
        self.is_asked, self.said = asked, status
        self.repaint()

    def status(self) -> str:
        return self.said

    def asked(self) -> bool:
        return self.is_asked is not False

    def answer(self, yes: bool) -> str | None:
        owner = self.front.mirror.owner_of(self.table)
        if owner is None:
            return "That table is gone"
        self.front.ask(self.client, owner, {"op": "again", "table": self.table, "yes": yes}, _told_why(self.client))
        return None

    def seen(self) -> None:
        owner = self.front.mirror.owner_of(self.table)
        if owner is not None:
            self.front.ask(self.client, owner, {"op": "again_seen", "table": self.table}, _told_why(self.client))


def _told_why(client: Client) -> Callable[[Message], None]:
    def then(answer: Message) -> None:
        why = answer.get("why")
        if isinstance(why, str) and why:
            client.notify(printable(why)[:TEXT_MAX])
    return then


def _arrived(client: Client) -> Callable[[Message], None]:
    """An owner's answer to a seat asked for (a seat, a code, an invitation accepted): its refusal on
    the person's screen, or where they go now."""
    def then(answer: Message) -> None:
        why = answer.get("why")
        try:
            where = where_of(answer.get("where"))
        except Malformed:
            where = None
        if isinstance(why, str) and why:
            client.notify(printable(why)[:TEXT_MAX])
        elif where is not None:
            client.moved(where)
    return then


class ClusterLobby(RegistryLobby):
    """One person's lobby at a front: every owner's tables; an action on one goes to its owner."""

    def __init__(self, front: FrontLobby, client: Client, admin: Any = None) -> None:
        super().__init__(front.registry, client, admin)
        self.front = front

    def lobby_rows(self) -> list[LobbyRow]:
        return self.front.mirror.rows()

    def may_create(self) -> str | None:
        key = self.client.identity.person
        mine = sum(1 for r in self.front.mirror.rows() if r.creator == key and r.row.stage != TableState.OVER
                   and not (r.row.stage == FORMING and key in r.keys))
        if mine >= self.registry.config.tables_per_person:
            return f"You have {mine} tables already: finish one first (or stand up at one not started)"
        if self.front.mirror.least_loaded() is None:
            return "No table owner is running in this room right now: try again in a moment"
        return None

    def create(self, rules: Rules, level: str, settings: TableSettings = OPEN_TABLE, turn_timer: int = 0) -> int | str:
        why = self.may_create()
        if why:
            return why
        if turn_timer not in self.registry.turn_timers:
            return f"A turn timer is one of {', '.join(str(t) for t in self.registry.turn_timers)}"
        owner = self.front.mirror.least_loaded()
        number = self.front.numbers.take()
        if owner is None or number is None:
            return "The room cannot number a new table right now: try again in a moment"
        me = self.client.identity
        # Until the owner's rows show it, the lobby shows the table as asked: forming, you in seat 1.
        seats = tuple(SeatInfo(SeatState.HUMAN, me.label, verified=me.verified) if i == 0 else SeatInfo(SeatState.FREE)
                      for i in range(rules.players))
        keys = tuple(me.person if i == 0 else None for i in range(rules.players))
        row = TableRow(number, rules.name, level, rules.target_score, FORMING, seats, me.label, False, None,
                       access=settings.access, watchable=settings.watchable, rated=settings.rated,
                       listed=settings.listed or settings.access == Access.OPEN)
        self.front.mirror.waiting[number] = (owner, LobbyRow(row, me.person, keys, keys, "", frozenset({me.person})))
        client, mirror = self.client, self.front.mirror

        def then(answer: Message) -> None:
            if answer.get("table") != number:
                mirror.waiting.pop(number, None)
                mirror.on_change()
                why = answer.get("why")
                client.notify(printable(why if isinstance(why, str) else f"Table {number} was not created")[:TEXT_MAX])
        self.front.ask(client, owner, {"op": "create", "table": number, "rules": rules.to_dict(), "level": level,
                                       "settings": settings_data(settings), "timer": turn_timer}, then)
        self.registry.changed()
        return number

    def _on_owner(self, table: int, request: Message, then: Callable[[Message], None] | None = None) -> str | None:
        owner = self.front.mirror.owner_of(table)
        if owner is None:
            return "That table is gone"
        self.front.ask(self.client, owner, {"table": table, **request}, then or _told_why(self.client))
        return None

    def sit(self, table: int, seat: int) -> tuple[str | None, Destination | None]:
        shared = self.front.mirror.row(table)
        if shared is None:
            return "That table is gone", None
        row, key = shared.row, self.client.identity.person
        if not 0 <= seat < row.players:
            return f"This table has seats 1 to {row.players}", None
        if shared.keys[seat] == key and row.stage == PLAYING:
            return None, Destination(table, seat)
        if row.stage == FORMING and shared.keys[seat] not in (None, key):
            return f"{row.seats[seat].name} sits there", None
        return self._on_owner(table, {"op": "sit", "seat": seat}, _arrived(self.client)), None

    def stand(self, table: int) -> str | None:
        return self._on_owner(table, {"op": "stand"})

    def start(self, table: int) -> str | None:
        shared = self.front.mirror.row(table)
        if shared is not None and shared.row.stage != FORMING:
            return "This table has started"
        if shared is not None and shared.creator != self.client.identity.person:
            return f"{shared.row.creator} starts this table (they created it)"
        return self._on_owner(table, {"op": "start"})

    def dismiss(self, table: int, seat: int) -> str | None:
        return self._on_owner(table, {"op": "dismiss", "seat": seat})

    def home(self) -> Destination | None:
        return self.registry.home(self.client) or self.front.home(self.client)

    def join(self, code: str) -> tuple[str | None, Destination | None]:
        """A table's code: the table that has it goes to its owner, which checks the code again and
        seats the person there as in one process (a wrong code costs time here, as there)."""
        reg, client = self.registry, self.client
        why = reg.table_code_wait(client)
        if why is not None:
            return reason(why), None
        typed = code_key(code)
        shared = next((r for r in self.front.mirror.rows() if typed and r.code == typed), None)
        if shared is None:
            return reason(reg.wrong_table_code(client)), None
        return self._on_owner(shared.row.id, {"op": "join", "code": code.strip()[:CODE_MAX]}, _arrived(client)), None

    def open_invitations(self, key: PersonId) -> list[Invitation]:
        return self.front.open_invitations(key)

    def invite(self, person: str, table: int) -> str | None:
        """Invite somebody online at any front: the table's owner decides and keeps the invitation,
        and tells them at their front (a refusal comes back as a notice)."""
        who = PersonId.read(person)          # (the screen names the person as the online list did)
        found = self.front.where_is(who) if who is not None else None
        if who is None or found is None:
            return "They are not here any more"
        at, label = found
        return self._on_owner(table, {"op": "invite", "to": str(who), "to_name": label[:NAME_MAX + 1], "at": at})

    def answer(self, invitation: int, accept: bool) -> tuple[str | None, Destination | None]:
        """Accept or decline an invitation an owner told of: the owner checks it is this person's and
        open, seats them (accepted) and tells the inviter."""
        inv = self.front.invitations.get(self.client.identity.person, {}).pop(invitation, None)
        if inv is None:
            return "That invitation is no longer open", None
        self.registry.changed()
        return self._on_owner(inv.table_id, {"op": "answer", "invitation": invitation, "accept": accept},
                              _arrived(self.client)), None


__all__ = ["FRONT_GONE", "HEARTBEAT", "OWNER_GONE", "ClusterLobby", "FrontLobby", "LobbyMirror", "Malformed",
           "OwnerLobby", "RemoteAgain", "StandIn", "TableNumbers", "person_data", "person_of", "row_data", "row_of"]
