"""The :class:`~canasta_tui.table.Link` over the bus: the owner's :class:`TablePublisher` and the
front's :class:`RemoteLink`.

The owner holds the :class:`~canasta_tui.table.Table` (the whole game); the front holds the
screens.  After every change the owner publishes numbered frames (as lichess's clients resync
from a version number):

* ``table.<id>.public``: what a spectator may see (the public view, the public events, chat, the
  score sheet, the seats' names), never a hand's card while it is hidden;
* ``table.<id>.seat.<seat>.<front>``: the same public part and that seat's own view, only to the
  front that hosts the seat.

A front asks on ``table.<id>.req``: ``move``, ``chat``, ``ack``, ``leave`` and ``snapshot``, each
with its id, the seat, the seat token the owner issued to it for that seat (:meth:`TablePublisher.host`)
and the epoch it knows.  The owner refuses and logs a request that does not read, comes from a
front that does not host that seat, carries a wrong token, or a stale epoch, and applies nothing.

The front's :class:`RemoteLink` keeps a mirror of the public state and of its seat's view, and
has the local link's interface (the screens cannot tell them apart): a frame whose number is
not the next one makes it ask for a snapshot; it tells its listeners on the event loop.  A
move's answer comes later than at a local table: :meth:`RemoteLink.send` calls ``along`` and
``done`` when the owner answers, and only then applies the frames that came meanwhile (so the
coach keeps a move before the hand it ends is reviewed).  The exact messages are in
``docs/cluster.md``.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import re
import secrets
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...engine import Action, HandRecord, Phase, PlayerView, Rules
from ...engine.cards import cards_text
from ...engine.view import PUBLIC
from ...table.events import Event
from ...table.link import Along, Link
from ...table.seats import KINDS
from ...table.table import CHAT_KEEP, Change, ChatLine, Listener, Outcome, Table
from .. import person
from . import wire as W
from .bus import Bus, BusError, Incoming, Message, NoAnswer, Refusal, Refused, Sub

log = logging.getLogger("canasta.cluster.remote")

#: A table's or a front's id: one subject token.
ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: How long a front waits for the owner's answer to a move (then: "the table is not answering").
MOVE_WAIT = 10.0
#: The frames a front holds while a move of its is answered (more: it asks for a snapshot instead).
MAX_HELD = 1000
#: A chat line's longest text over the bus (the front checks its own, shorter, bound first).
MAX_CHAT = 500
OPS = ("move", "chat", "ack", "leave", "snapshot", "sheet")
#: Hands of the score sheet a snapshot carries (its last ones), and a page of it asked for after
#: (``sheet``): a snapshot's size does not grow with the match's length (the bus's bound is 256 KB).
SHEET_PAGE = 32
#: Links closing (their last request to the owner, then their subscription ended).
_leaving: set[asyncio.Task[None]] = set()


def public_tail(table: str) -> str:
    return f"table.{table}.public"


def seat_tail(table: str, seat: int, front: str) -> str:
    return f"table.{table}.seat.{seat}.{front}"


def req_tail(table: str) -> str:
    return f"table.{table}.req"


def _id(value: str, what: str) -> str:
    if not ID.fullmatch(value):
        raise ValueError(f"not a {what} id: {value!r} (A-Z, a-z, 0-9, _ and -, at most 64)")
    return value


# ===================================================================================== the owner
@dataclass
class _Stream:
    """One subject the owner numbers its frames on."""

    tail: str
    n: int = 0


@dataclass
class _Host:
    front: str
    token: str
    stream: _Stream


@dataclass
class _Sent:
    """What the frames so far have carried of the table's events and chat."""

    events: list[Event] | None = None     # the table's list they came from (a new one: a loaded game)
    event_count: int = 0
    chat_seq: int = 0
    changes: list[str] = field(default_factory=list)
    sheet_count: int = 0                  # hands of the score sheet sent


def hand_start(events: Sequence[Event], hand: int) -> int:
    """Where the events of hand ``hand`` (the current one) start in ``events``."""
    i = len(events)
    while i > 0 and events[i - 1].hand >= hand:
        i -= 1
    return i


class TablePublisher:
    """The owner's side of one table on the bus (it listens to the table; the table does not know)."""

    def __init__(self, bus: Bus, table_id: str, table: Table, *, epoch: int = 1) -> None:
        self.bus = bus
        self.id = _id(table_id, "table")
        self.table = table
        self.epoch = epoch
        self._public = _Stream(public_tail(self.id))
        self._hosts: dict[int, _Host] = {}
        self._watchers: dict[str, str] = {}          # front -> its token for watching (chat)
        self._sent = _Sent()
        self._dirty = asyncio.Event()
        self._publishing_lock = asyncio.Lock()      # (one frame at a time: their numbers in order)
        self._task: asyncio.Task[None] | None = None
        self._sub: Sub | None = None
        #: How many requests were refused (a test reads it; each is logged).
        self.refused = 0

    # ------------------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        """Answer requests and publish a frame after every change of the table."""
        self._sub = await self.bus.serve(req_tail(self.id), self._answer)
        self.table.subscribe(self)
        self._task = asyncio.create_task(self._publishing(), name=f"publish table {self.id}")
        await self.publish()

    async def stop(self) -> None:
        self.table.unsubscribe(self)
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        if self._sub is not None:
            await self._sub.stop()

    def host(self, seat: int, front: str) -> str:
        """``front`` hosts ``seat`` now (a player sat down there): the token its requests must
        carry.  A seat has one host: another front's token for it stops counting."""
        if not 0 <= seat < self.table.rules.players:
            raise ValueError(f"no seat {seat}")
        _id(front, "front")
        old = self._hosts.get(seat)
        if old is not None:
            self.table.leave(("front", old.front, seat))
        token = secrets.token_urlsafe(24)
        stream = old.stream if old is not None else _Stream("")
        stream.tail = seat_tail(self.id, seat, front)
        self._hosts[seat] = _Host(front, token, stream)
        self.table.attend(("front", front, seat))
        self._dirty.set()
        return token

    def unhost(self, seat: int) -> None:
        old = self._hosts.pop(seat, None)
        if old is not None:
            self.table.leave(("front", old.front, seat))

    def watch(self, front: str) -> str:
        """``front`` has people watching: the token its chat requests carry."""
        token = self._watchers.get(_id(front, "front"))
        if token is None:
            token = self._watchers[front] = secrets.token_urlsafe(24)
        return token

    def hosts(self, seat: int) -> str | None:
        """The front that hosts ``seat``, if any."""
        h = self._hosts.get(seat)
        return h.front if h is not None else None

    # ------------------------------------------------------------------------- frames
    def table_changed(self, what: Change) -> None:
        self._sent.changes.append(what.value)
        self._dirty.set()

    async def _publishing(self) -> None:
        while True:
            await self._dirty.wait()
            try:
                await self.publish()
            except BusError as e:
                log.error("table %s: a frame was not published: %s", self.id, e)
                await asyncio.sleep(0.05)
            except Exception:       # (a bug must not end the table's frames: the next change tries again)
                log.exception("table %s: a frame was not published", self.id)
                await asyncio.sleep(0.05)

    def public_state(self) -> dict[str, Any]:
        """The public part of every frame: what a spectator may see."""
        t, m = self.table, self.table.match
        s = m.state
        return {
            "view": W.view_to_wire(t.public_view()), "hand": m.hand_number, "version": t.version,
            "closed": t.closed, "winner": m.winner, "scores": list(m.scores), "waiting": len(t.waiting),
            "seats": [{"name": t.name(i), "kind": seat.kind.value, "verified": seat.verified}
                      for i, seat in enumerate(t.seats)],
            # the hands are shown face up once the hand is over (every client's table shows them)
            "final_hands": [cards_text(h) for h in s.hands] if s.phase == Phase.HAND_OVER else None,
        }

    def _news(self, everything: bool) -> dict[str, Any]:
        """The events, hands of the score sheet and chat lines since the last frame.  A snapshot
        carries the current hand's events (a front keeps no more), the sheet's last
        :data:`SHEET_PAGE` hands (the front asks for the earlier ones a page at a time) and the chat
        the table keeps: bounded whatever the match's length."""
        t, sent = self.table, self._sent
        sheet = t.match.sheet
        if everything:
            at, sheet_at, after = hand_start(t.events, t.match.hand_number), max(0, len(sheet) - SHEET_PAGE), 0
        elif sent.events is not t.events:       # (a new list of events: a loaded game, all of it anew)
            at, sheet_at, after = 0, 0, sent.chat_seq
        else:
            at, sheet_at, after = min(sent.event_count, len(t.events)), min(sent.sheet_count, len(sheet)), sent.chat_seq
        return {"events_at": at, "events": [W.event_to_wire(e) for e in t.events[at:]],
                "sheet_at": sheet_at, "sheet": [W.hand_record_to_wire(h) for h in sheet[sheet_at:]],
                "chat": [W.chat_to_wire(c) for c in t.chat if c.seq > after]}

    def sheet_page(self, before: int) -> dict[str, Any]:
        """The score sheet's hands before hand ``before`` (counted from 0), at most :data:`SHEET_PAGE`."""
        lo = max(0, before - SHEET_PAGE)
        return {"sheet_at": lo, "sheet": [W.hand_record_to_wire(h) for h in self.table.match.sheet[lo:before]]}

    def _frame(self, stream: _Stream, body: dict[str, Any], seat: int | None) -> dict[str, Any]:
        out = {"table": self.id, "epoch": self.epoch, "n": stream.n, **body}
        if seat is not None:
            out["seat"] = seat
            out["me"] = W.view_to_wire(self.table.view(seat))
        return out

    async def publish(self) -> None:
        """A frame on the public subject and on each hosted seat's, numbered, from the table as it is."""
        async with self._publishing_lock:
            self._dirty.clear()
            t = self.table
            body = {"state": self.public_state(), **self._news(False),
                    "changes": list(dict.fromkeys(self._sent.changes))}
            self._sent = _Sent(t.events, len(t.events), t.chat[-1].seq if t.chat else 0,
                               sheet_count=len(t.match.sheet))
            frames = [(self._public, None)] + [(h.stream, seat) for seat, h in self._hosts.items()]
            for stream, seat in frames:
                stream.n += 1
                await self.bus.publish(stream.tail, self._frame(stream, body, seat))

    def snapshot(self, seat: int | None) -> dict[str, Any]:
        """Everything a front needs to start its mirror again, numbered as the stream's last frame."""
        stream = self._public if seat is None else self._hosts[seat].stream
        body = {"state": self.public_state(), **self._news(True), "changes": [], "snapshot": True}
        return self._frame(stream, body, seat)

    # ------------------------------------------------------------------------- requests
    def _refuse(self, m: Incoming, why: str) -> Refusal:
        self.refused += 1
        d = m.data
        log.warning("table %s: refused %s from front %r seat %r: %s", self.id, str(d.get("op"))[:20],
                    str(d.get("front"))[:64], d.get("seat") if type(d.get("seat")) is int else "?", why)
        return Refusal(why)

    def _check(self, m: Incoming) -> tuple[str, str, int]:
        """The request's op, front and seat, once its front is known to host that seat."""
        d = m.data
        op, front, seat, token, epoch = d.get("op"), d.get("front"), d.get("seat"), d.get("token"), d.get("epoch")
        if op not in OPS:
            raise self._refuse(m, "malformed: no such request")
        if not isinstance(front, str) or not ID.fullmatch(front):
            raise self._refuse(m, "malformed: front")
        if type(seat) is not int or not -1 <= seat < self.table.rules.players:
            raise self._refuse(m, "malformed: seat")
        if op in ("snapshot", "sheet") and seat == -1:
            return op, front, seat                 # (the public snapshot: what anyone on the bus may see)
        if type(epoch) is not int:
            raise self._refuse(m, "malformed: epoch")
        if op not in ("snapshot", "sheet") and epoch != self.epoch:
            raise self._refuse(m, f"stale epoch {epoch} (the table's is {self.epoch})")
        if not isinstance(token, str) or len(token) > 100:
            raise self._refuse(m, "malformed: token")
        want = self._watchers.get(front) if seat == -1 else (
            h.token if (h := self._hosts.get(seat)) is not None and h.front == front else None)
        if want is None or not hmac.compare_digest(want.encode(), token.encode()):
            raise self._refuse(m, "this front does not host that seat (unknown token)")
        return op, front, seat

    async def _answer(self, m: Incoming) -> dict[str, Any]:
        op, front, seat = self._check(m)
        d = m.data
        try:
            if op == "snapshot":
                return self.snapshot(None if seat == -1 else seat)
            if op == "sheet":
                before = d.get("before")
                if type(before) is not int or not 0 < before <= len(self.table.match.sheet):
                    raise self._refuse(m, "malformed: before (a hand of the score sheet)")
                return self.sheet_page(before)
            if op == "move":
                if seat == -1:
                    raise self._refuse(m, "a watcher has no moves")
                actions = W.actions_from_wire(d.get("actions"))
                along = d.get("along") is True
                views = self.table.views_along(seat, actions) if along else ()
                out = self.table.submit(seat, actions)
                await self.publish()               # (the frames first: the front holds them for the answer)
                return {"outcome": W.outcome_to_wire(out), "along": [W.view_to_wire(v) for v in views]}
            if op == "chat":
                who = d.get("who") if seat == -1 else self.table.name(seat)
                text = d.get("text")
                if not isinstance(who, str) or not 1 <= len(who) <= W.MAX_NAME or not who.isprintable():
                    raise self._refuse(m, "malformed: who")
                if not isinstance(text, str) or not 1 <= len(text) <= MAX_CHAT:
                    raise self._refuse(m, f"malformed: a chat line is 1 to {MAX_CHAT} characters")
                self.table.say(who, text)
                return {"ok": True}
            if seat == -1:
                raise self._refuse(m, "a watcher has no seat to acknowledge or leave")
            if op == "ack":
                self.table.acknowledge(("front", front, seat))
            else:
                self.unhost(seat)
            return {"ok": True}
        except W.WireError as e:
            raise self._refuse(m, f"malformed: {e.reason}") from None


# ===================================================================================== the front
@dataclass
class _Mirror:
    """What the front knows of the table: the public state and its seat's view, as of frame ``n``."""

    epoch: int = 0
    n: int = 0
    #: Where :attr:`events` (the current hand's) start in the owner's list of the match's events.
    base: int = 0
    view: PlayerView | None = None
    me: PlayerView | None = None
    hand: int = 0
    version: int = 0
    closed: bool = False
    winner: int | None = None
    scores: tuple[int, ...] = ()
    sheet: tuple[HandRecord, ...] = ()
    waiting: int = 0
    seats: tuple[tuple[str, str, bool], ...] = ()
    final_hands: tuple[tuple[int, ...], ...] | None = None
    events: list[Event] = field(default_factory=list)
    chat: list[ChatLine] = field(default_factory=list)


@dataclass
class _Frame:
    """A frame read: the mirror it describes (without events, sheet and chat), and its news."""

    mirror: _Mirror
    events_at: int
    events: list[Event]
    sheet_at: int
    sheet: tuple[HandRecord, ...]
    chat: list[ChatLine]
    changes: list[str]


def _state(frame: Message, seat: int | None) -> _Frame:
    """A frame read strictly; :class:`~.wire.WireError` if anything is wrong."""
    # (the events are read one by one, each field bounded: a busy hand has some hundreds)
    W.bounded({k: v for k, v in frame.items() if k != "events"})
    st = W.obj(frame.get("state"), "state")
    view = W.view_from_wire(st.get("view"), PUBLIC)
    r = view.rules
    me = W.view_from_wire(frame.get("me"), seat) if seat is not None else None
    seats = W.items(st, "seats", r.players)
    if len(seats) != r.players:
        raise W.WireError("seats: one per player")
    who = []
    for s in seats:
        s = W.obj(s, "a seat")
        kind = W.text(s, "kind", 20)
        if kind not in KINDS:
            raise W.WireError(f"not a seat's kind: {kind!r}")
        who.append((W.text(s, "name", W.MAX_NAME), kind, W.flag(s, "verified")))
    winner = st.get("winner")
    if winner is not None and (type(winner) is not int or not 0 <= winner < r.teams):
        raise W.WireError("winner: a side or null")
    scores = W.items(st, "scores", r.teams)
    if len(scores) != r.teams or any(type(x) is not int for x in scores):
        raise W.WireError("scores: one per side")
    final = st.get("final_hands")
    if final is not None:
        if not isinstance(final, list) or len(final) != r.players or not all(isinstance(h, str) for h in final):
            raise W.WireError("final_hands: one hand per player, or null")
        hands = tuple(W.cards_from_wire(h, "final_hands", r.packs) for h in final)
    else:
        hands = None
    changes = W.items(frame, "changes", 20)
    if not all(c in {x.value for x in Change} for c in changes):
        raise W.WireError("changes: not a change")
    mirror = _Mirror(
        epoch=W.whole(frame, "epoch", 0, W.MAX_INT), n=W.whole(frame, "n", 0, W.MAX_INT), view=view, me=me,
        hand=W.whole(st, "hand", 1, W.MAX_HANDS), version=W.whole(st, "version", 0, W.MAX_INT),
        closed=W.flag(st, "closed"), winner=winner, scores=tuple(scores), waiting=W.whole(st, "waiting", 0, 1000),
        seats=tuple(who), final_hands=hands)
    return _Frame(mirror, W.whole(frame, "events_at", 0, W.MAX_INT), W.events_from_wire(frame.get("events"), r.players),
                  W.whole(frame, "sheet_at", 0, W.MAX_HANDS), W.sheet_from_wire(frame.get("sheet"), r.teams, r.players),
                  W.chats_from_wire(frame.get("chat")), changes)


class RemoteLink(Link):
    """A front's link to a table another process owns: the same interface as the local
    :class:`~canasta_tui.table.Link` (every public name of it is overridden here, a test checks),
    over the bus.  ``seats``: the one seat this client plays (with its ``token`` from the owner),
    or none to watch.  Made, then :meth:`start` ed on the event loop."""

    def __init__(self, bus: Bus, table_id: str, front: str, seats: Sequence[int], token: str, *,
                 chat: Callable[[str], person.Refusal | None] | None = None, who: str = "") -> None:
        """``chat``: the front's own check of a line (length, rate): why it may not be said, or
        None; then it goes to the owner.  ``who``: a watcher's name in the chat."""
        if len(seats) > 1:
            raise ValueError("a remote client plays one seat (or none, to watch)")
        self.bus = bus
        self.table_id = _id(table_id, "table")
        self.front = _id(front, "front")
        self._mine = tuple(seats)
        self._seat = self._mine[0] if self._mine else None
        self.token: Hashable = token
        self._token = token
        self._chat_check = chat
        self._who = who
        self._m = _Mirror()
        self._listeners: list[Listener] = []
        self._sub: Sub | None = None
        self._in_flight = 0
        self._held: list[Message] = []
        self._asking = False
        self._ready = asyncio.Event()
        self._tasks: set[asyncio.Task[Any]] = set()
        #: Frames refused (malformed), gaps seen and snapshots taken (tests read them).
        self.refused = self.gaps = self.snapshots = 0

    # ------------------------------------------------------------------------- lifecycle
    async def start(self, timeout: float = MOVE_WAIT) -> None:
        """Listen to the table's frames and take a snapshot; returns once the mirror is filled."""
        tail = public_tail(self.table_id) if self._seat is None else seat_tail(self.table_id, self._seat, self.front)
        self._sub = await self.bus.subscribe(tail, self._on_frame)
        await self._snapshot()
        await asyncio.wait_for(self._ready.wait(), timeout)

    async def stop(self) -> None:
        if self._sub is not None:
            await self._sub.stop()
            self._sub = None
        for t in list(self._tasks):
            t.cancel()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _request(self, op: str, **more: Any) -> dict[str, Any]:
        return {"op": op, "front": self.front, "seat": -1 if self._seat is None else self._seat,
                "token": self._token, "epoch": self._m.epoch, **more}

    # ------------------------------------------------------------------------- frames
    async def _on_frame(self, m: Incoming) -> None:
        if self._in_flight or self._asking:
            if len(self._held) >= MAX_HELD:
                self._held.clear()
                self.gaps += 1
                self._resync()
            else:
                self._held.append(m.data)
            return
        self._apply(m.data)

    def _read(self, frame: Message) -> _Frame | None:
        try:
            return _state(frame, self._seat)
        except W.WireError as e:
            self.refused += 1
            log.warning("table %s: refused a frame: %s", self.table_id, e.reason)
            return None

    def _apply(self, frame: Message, snapshot: bool = False, earlier: tuple[HandRecord, ...] = ()) -> None:
        """Take a frame into the mirror (a snapshot: with the score sheet's ``earlier`` hands, asked
        for a page at a time).  The mirror keeps the current hand's events, as a snapshot has them:
        a front that saw every frame and one that took a snapshot show the same."""
        f = self._read(frame)
        if f is None:
            return
        mirror, old = f.mirror, self._m
        if snapshot:
            events, base, sheet = f.events, f.events_at, earlier + f.sheet
        else:
            if mirror.epoch < old.epoch or (mirror.n <= old.n and mirror.epoch == old.epoch):
                return                              # a stale owner's, or one already seen
            if (mirror.epoch > old.epoch or mirror.n != old.n + 1 or f.events_at > old.base + len(old.events)
                    or f.sheet_at > len(old.sheet)):
                log.info("table %s: frame %d after %d (epoch %d, %d): a snapshot", self.table_id, mirror.n, old.n,
                         mirror.epoch, old.epoch)
                self.gaps += 1                      # a frame lost (or a new owner): start again
                self._resync()
                return
            if f.events_at >= old.base:
                events, base = old.events[:f.events_at - old.base] + f.events, old.base
            else:                                   # (the owner's events anew: a loaded game)
                events, base = f.events, f.events_at
            sheet = old.sheet[:f.sheet_at] + f.sheet
        start = hand_start(events, mirror.hand)
        mirror.events, mirror.base, mirror.sheet = events[start:], base + start, sheet
        kept = [c for c in old.chat if not snapshot and (not f.chat or c.seq < f.chat[0].seq)]
        mirror.chat = (kept + f.chat)[-CHAT_KEEP:]
        self._m = mirror
        self._ready.set()
        self._tell([Change.LOAD] if snapshot and old.n else [Change(c) for c in f.changes] or [Change.CLOCK])

    def _tell(self, changes: Sequence[Change]) -> None:
        for what in changes:
            for listener in list(self._listeners):
                listener.table_changed(what)

    def _resync(self) -> None:
        """Ask for a snapshot (once: the frames that come meanwhile are held, not counted as gaps)."""
        if not self._asking:
            self._asking = True
            self._spawn(self._snapshot())

    async def _snapshot(self) -> None:
        self._asking = True
        try:
            answer = await self.bus.request(req_tail(self.table_id), self._request("snapshot"), MOVE_WAIT)
            self.snapshots += 1
            f = self._read(answer)
            if f is not None:
                self._apply(answer, snapshot=True, earlier=await self._earlier(f))
        except BusError as e:
            log.warning("table %s: no snapshot: %s", self.table_id, e)
        except W.WireError as e:
            self.refused += 1
            log.warning("table %s: refused a page of the score sheet: %s", self.table_id, e.reason)
        finally:
            self._asking = False
        self._release()

    async def _earlier(self, f: _Frame) -> tuple[HandRecord, ...]:
        """The score sheet's hands before a snapshot's, a page of :data:`SHEET_PAGE` at a time (past
        hands never change); each page must be exactly the one asked for."""
        rules = f.mirror.view.rules if f.mirror.view is not None else self.rules
        pages: list[tuple[HandRecord, ...]] = []
        at = f.sheet_at
        while at > 0:
            page = await self.bus.request(req_tail(self.table_id), self._request("sheet", before=at), MOVE_WAIT)
            W.bounded(page)
            lo = W.whole(page, "sheet_at", 0, W.MAX_HANDS)
            got = W.sheet_from_wire(page.get("sheet"), rules.teams, rules.players)
            if lo != max(0, at - SHEET_PAGE) or len(got) != at - lo:
                raise W.WireError(f"a page of the score sheet is hands {lo + 1} to {lo + len(got)}, not the ones "
                                  f"before hand {at + 1}")
            pages.append(got)
            at = lo
        return tuple(h for page in reversed(pages) for h in page)

    def _release(self) -> None:
        """Apply the frames held while a move or a snapshot was answered, in order."""
        if self._in_flight or self._asking:
            return
        held, self._held = self._held, []
        for f in held:
            self._apply(f)

    # ------------------------------------------------------------------------- moves
    def send(self, seat: int, actions: Sequence[Action], done: Callable[[Outcome], None],
             along: Along | None = None) -> None:
        if seat not in self._mine:
            done(Outcome(False, f"You do not play {self.name(seat)}"))
            return
        self._in_flight += 1
        self._spawn(self._move(actions, done, along))

    async def _move(self, actions: Sequence[Action], done: Callable[[Outcome], None], along: Along | None) -> None:
        out = Outcome(False, "The table is not answering (it may be moving to another server): try again")
        views: tuple[PlayerView, ...] = ()
        try:
            answer = await self.bus.request(req_tail(self.table_id), self._request(
                "move", actions=W.actions_to_wire(actions), along=along is not None), MOVE_WAIT)
            out = W.outcome_from_wire(answer.get("outcome"))
            if along is not None:
                got = W.items(answer, "along", len(actions))
                views = tuple(W.view_from_wire(v, self._seat) for v in got)
        except Refused as e:
            out = Outcome(False, f"The table refused the move: {e.reason}")
        except NoAnswer:
            pass
        except (BusError, W.WireError) as e:
            log.warning("table %s: a move's answer did not read: %s", self.table_id, e)
        finally:
            self._in_flight -= 1
        if along is not None and out.ok:
            along(lambda: views)
        done(out)
        self._release()
        self._tell([Change.CLOCK])                  # (paint: the refusal, or the move's answer)

    def submit(self, seat: int, actions: Sequence[Action]) -> Outcome:
        """Over the bus a move's answer comes later: :meth:`send` is the form a remote link has."""
        raise NotImplementedError("a remote link's moves go by send()")

    def views_along(self, seat: int, actions: Sequence[Action]) -> tuple[PlayerView, ...]:
        """Over the bus the views along come with the move's answer (:meth:`send`'s ``along``)."""
        raise NotImplementedError("a remote link's views along come with send()")

    def acknowledge(self) -> None:
        if self._seat is not None:
            self._spawn(self._tell_owner("ack"))

    async def _tell_owner(self, op: str, **more: Any) -> None:
        try:
            await self.bus.request(req_tail(self.table_id), self._request(op, **more), MOVE_WAIT)
        except BusError as e:
            log.warning("table %s: %s not taken: %s", self.table_id, op, e)

    def say(self, text: str) -> str | None:
        if self._chat_check is None:
            return "There is nobody to chat with here: everyone at this table sees this screen"
        why = self._chat_check(text)
        if why is None:
            self._spawn(self._tell_owner("chat", text=text[:MAX_CHAT], who=self._who or "watcher"))
        return person.reason(why)

    @property
    def can_chat(self) -> bool:
        return self._chat_check is not None

    # ------------------------------------------------------------------------- the mirror, as Link reads it
    @property
    def seats(self) -> tuple[int, ...]:
        return self._mine

    @property
    def rules(self) -> Rules:
        return self.public_view().rules

    @property
    def hand_number(self) -> int:
        return self._m.hand

    @property
    def sheet(self) -> tuple[HandRecord, ...]:
        return self._m.sheet

    @property
    def scores(self) -> tuple[int, ...]:
        return self._m.scores

    @property
    def winner(self) -> int | None:
        return self._m.winner

    @property
    def closed(self) -> bool:
        return self._m.closed

    @property
    def events(self) -> Sequence[Event]:
        return self._m.events

    @property
    def chat(self) -> Sequence[ChatLine]:
        return self._m.chat

    @property
    def version(self) -> int:
        return self._m.version

    @property
    def epoch(self) -> int:
        return self._m.epoch

    @property
    def frame(self) -> int:
        """The number of the last frame in the mirror."""
        return self._m.n

    def name(self, seat: int) -> str:
        return self._m.seats[seat][0]

    def verified(self, seat: int) -> bool:
        return self._m.seats[seat][2]

    def is_human(self, seat: int) -> bool:
        return self._m.seats[seat][1] != "computer"

    def kind(self, seat: int) -> str:
        return self._m.seats[seat][1]

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(s for s in range(len(self._m.seats)) if self.is_human(s))

    def waiting(self) -> int:
        return self._m.waiting

    def public_view(self) -> PlayerView:
        if self._m.view is None:
            raise RuntimeError("the remote link has no snapshot yet (start() it first)")
        return self._m.view

    def final_hands(self) -> tuple[tuple[int, ...], ...] | None:
        return self._m.final_hands

    def view(self, seat: int) -> PlayerView:
        if seat not in self._mine or self._m.me is None:
            raise PermissionError(f"this client does not play Player {seat + 1}")
        return self._m.me

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def hold(self) -> None:
        """Only a local table holds its computers."""

    def release(self) -> None:
        """Only a local table holds its computers."""

    def close(self) -> None:
        """The client leaves the table: the owner stops counting it (its seat's token ends)."""
        task = asyncio.get_running_loop().create_task(self._leave())
        _leaving.add(task)                  # (held until done: the loop keeps only weak references)
        task.add_done_callback(_leaving.discard)

    async def _leave(self) -> None:
        if self._seat is not None:
            await self._tell_owner("leave")
        await self.stop()


__all__ = ["MOVE_WAIT", "SHEET_PAGE", "RemoteLink", "TablePublisher", "public_tail", "req_tail", "seat_tail"]
