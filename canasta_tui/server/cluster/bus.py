"""The bus: one NATS connection of a node, with every message a bounded, strictly decoded JSON object.

Every subject of a room starts with ``canasta.<room>.``; callers name only the rest (the *tail*,
``table.7.public``), so two rooms on one NATS never hear each other.  What crosses is a JSON object
(never a list, a number or a string at the top), encoded compactly; what arrives is refused, counted
and logged before any handler sees it when it is larger than the bus's bound, not UTF-8, not JSON
(``NaN``, a key twice, nesting too deep) or not an object.  A node that publishes more than the bound
is told at once (:class:`TooLarge`), since no receiver would take it.

The API, for every module of the cluster::

    bus = await Bus.connect("nats://127.0.0.1:4222", room="main", name="front-1")
    sub = await bus.subscribe("table.7.public", on_frame)      # async def on_frame(m: Incoming)
    await bus.publish("table.7.public", {"n": 1, ...})
    srv = await bus.serve("table.7.req", answer)               # async def answer(m) -> dict
    reply = await bus.request("table.7.req", {"op": "snapshot"}, timeout=2.0)
    await sub.stop(); await bus.close()

``serve``'s ``answer`` may raise :class:`Refusal` (its reason goes back as ``{"refused": reason}``,
which :meth:`Bus.request` raises as :class:`Refused`); a request that does not decode is answered
the same way.  A request nobody answers in time raises :class:`NoAnswer`.  ``bus.nats`` is the
underlying nats-py client, for JetStream (presence's key-value).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import nats
import nats.errors
from nats.aio.client import Client as NatsClient
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

log = logging.getLogger("canasta.cluster.bus")

#: The largest message a node takes or sends, in bytes: a frame is a few KB, a table's snapshot
#: about 8 KB more per hand of its match.  (Nearer NATS's 1 MB ``max_payload``, a receiver on a
#: loaded machine was cut off as a slow consumer in a test, and lost what followed.)
MAX_MESSAGE = 256 * 1024
#: The deepest nesting of lists and objects a message may have (ours have 5 or fewer).
MAX_DEPTH = 12
#: How long a request waits for its answer by default, in seconds.
REQUEST_WAIT = 5.0
#: What one subscription may hold unread before NATS drops messages for it (a slow consumer): the
#: frames are numbered, so a front that lost some asks for a snapshot.
PENDING_MESSAGES = 20_000
PENDING_BYTES = 32 * 1024 * 1024
#: Refusals logged one by one; after that one line in :data:`LOG_EVERY` (a flood fills no disk).
LOG_FIRST, LOG_EVERY = 50, 1000

#: A room's name: it is one token of every subject.
ROOM = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
#: One token of a subject tail (``*`` and ``>`` only where a subscription allows them).
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")

#: A message as it crosses the bus: a JSON object.
Message = dict[str, Any]


class BusError(Exception):
    """Something the bus could not do; the message says what."""


class TooLarge(BusError):
    """A message to send is larger than :data:`MAX_MESSAGE` (no receiver would take it)."""


class NoAnswer(BusError):
    """A request that nobody answered in time (no owner serves that table, or it is gone)."""


class Refused(BusError):
    """The answerer refused the request; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Refusal(Exception):
    """Raised by a :meth:`Bus.serve` answerer to refuse a request with a reason."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class BadMessage(BusError):
    """A message that does not decode: ``reason`` says why (it is refused and logged)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Incoming:
    """A message that arrived and decoded: its subject's tail (after ``canasta.<room>.``), the
    object, and its size in bytes."""

    subject: str
    data: Message
    size: int


Handler = Callable[[Incoming], Awaitable[None]]
Answerer = Callable[[Incoming], Awaitable[Mapping[str, Any]]]


# ----------------------------------------------------------------------------- the JSON, strictly
def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise BadMessage(f"the key {k!r} twice")
        out[k] = v
    return out


def _no_constant(name: str) -> Any:
    raise BadMessage(f"{name} is not a number a message may hold")


def _depth(value: Any, limit: int) -> None:
    """Refuse nesting deeper than ``limit`` (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict | list):
            if d > limit:
                raise BadMessage(f"nested more than {limit} deep")
            stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))


def encode(data: Mapping[str, Any], limit: int = MAX_MESSAGE) -> bytes:
    """``data`` as the bus carries it: compact UTF-8 JSON; :class:`TooLarge` above ``limit``."""
    raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()
    if len(raw) > limit:
        raise TooLarge(f"a message of {len(raw)} bytes is more than the bus's {limit}")
    return raw


def decode(payload: bytes, limit: int = MAX_MESSAGE) -> Message:
    """A message from the bus, or :class:`BadMessage` saying why not (size first, before any work)."""
    if len(payload) > limit:
        raise BadMessage(f"{len(payload)} bytes, more than {limit}")
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError:
        raise BadMessage("not UTF-8") from None
    try:
        value = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except BadMessage:
        raise
    except RecursionError:
        raise BadMessage("nested too deep") from None
    except ValueError as e:          # (JSONDecodeError, and an integer of too many digits)
        raise BadMessage(f"not JSON: {e}") from None
    if not isinstance(value, dict):
        raise BadMessage(f"a JSON {type(value).__name__}, not an object")
    _depth(value, MAX_DEPTH)
    return value


def check_tail(tail: str, *, wildcards: bool = False) -> str:
    """A subject's tail, checked token by token (a name from elsewhere never makes a subject it
    should not: no dots, spaces or wildcards inside a token)."""
    tokens = tail.split(".")
    if not 1 <= len(tokens) <= 16:
        raise ValueError(f"a subject of {len(tokens)} tokens")
    for i, t in enumerate(tokens):
        if wildcards and (t == "*" or (t == ">" and i == len(tokens) - 1)):
            continue
        if not TOKEN.fullmatch(t):
            raise ValueError(f"not a subject token: {t!r}")
    return tail


class Sub:
    """One subscription of the bus: :meth:`stop` ends it."""

    def __init__(self, sub: Subscription) -> None:
        self._sub = sub

    async def stop(self) -> None:
        try:
            await self._sub.unsubscribe()
        except (nats.errors.ConnectionClosedError, nats.errors.BadSubscriptionError):
            pass                 # (already gone with the connection)


class Bus:
    """One node's connection to NATS for one room."""

    def __init__(self, nc: NatsClient, room: str, name: str, limit: int = MAX_MESSAGE) -> None:
        if not ROOM.fullmatch(room):
            raise ValueError(f"not a room's name: {room!r} (a-z, 0-9, _ and -, at most 32)")
        self.nats = nc
        self.room = room
        self.name = name
        self.limit = limit
        self.prefix = f"canasta.{room}."
        #: How many incoming messages were refused (too large, malformed): a test reads it.
        self.refused = 0

    @classmethod
    async def connect(cls, url: str, *, room: str, name: str, limit: int = MAX_MESSAGE,
                      connect_timeout: float = 5.0) -> Bus:
        """Connect to the NATS at ``url`` as ``name`` (the node's name, shown by NATS's monitoring);
        it reconnects by itself for as long as it lives."""
        if not ROOM.fullmatch(room):
            raise ValueError(f"not a room's name: {room!r} (a-z, 0-9, _ and -, at most 32)")

        async def error(e: Exception) -> None:
            log.warning("bus %s: %s", name, e)

        async def disconnected() -> None:
            log.warning("bus %s: disconnected from %s", name, url)

        async def reconnected() -> None:
            log.info("bus %s: reconnected to %s", name, url)

        nc = NatsClient()
        try:
            # (nats-py retries a first connection for ever when it may reconnect: bounded here)
            await asyncio.wait_for(nc.connect(
                url, name=name, connect_timeout=max(1, round(connect_timeout)), allow_reconnect=True,
                max_reconnect_attempts=-1, reconnect_time_wait=1, error_cb=error,
                disconnected_cb=disconnected, reconnected_cb=reconnected), connect_timeout)
        except (TimeoutError, OSError, nats.errors.Error) as e:
            await nc.close()
            raise BusError(f"no bus at {url}: {e or type(e).__name__}") from None
        return cls(nc, room, name, limit)

    def subject(self, tail: str, *, wildcards: bool = False) -> str:
        """The whole subject of ``tail`` in this room."""
        return self.prefix + check_tail(tail, wildcards=wildcards)

    # ------------------------------------------------------------------------- sending
    async def publish(self, tail: str, data: Mapping[str, Any]) -> None:
        """Send ``data`` on ``tail`` to whoever listens (nobody: it is lost, as NATS does)."""
        await self.nats.publish(self.subject(tail), encode(data, self.limit))

    async def request(self, tail: str, data: Mapping[str, Any], timeout: float = REQUEST_WAIT) -> Message:
        """Ask whoever serves ``tail`` and wait (at most ``timeout`` s) for the answer: the answer's
        object; :class:`Refused` if it refused, :class:`NoAnswer` if nobody answered, :class:`BadMessage`
        if the answer does not decode."""
        subject = self.subject(tail)
        try:
            msg = await self.nats.request(subject, encode(data, self.limit), timeout=timeout)
        except (nats.errors.TimeoutError, nats.errors.NoRespondersError) as e:
            raise NoAnswer(f"nobody answered on {tail} ({type(e).__name__})") from None
        try:
            answer = decode(msg.data, self.limit)
        except BadMessage as e:
            self._refuse(subject, len(msg.data), e.reason)
            raise
        refused = answer.get("refused")
        if refused is not None:
            raise Refused(str(refused)[:500])
        return answer

    async def flush(self, timeout: float = REQUEST_WAIT) -> None:
        """Wait until NATS has what was published and subscribed (a test's barrier; a node rarely
        needs it)."""
        # nats-py's flush writes its PING straight to the socket, ahead of a SUB or PUB still queued
        # for its flusher task: the PONG could then come back before NATS has the interest, and a
        # message published at once is lost.  So the queue goes out first, then the PING.
        await asyncio.wait_for(self.nats._flush_pending(force_flush=True), timeout)
        await self.nats.flush(timeout=max(1, round(timeout)))

    # ------------------------------------------------------------------------- receiving
    async def subscribe(self, tail: str, handler: Handler, *, queue: str = "") -> Sub:
        """Call ``handler`` with every message on ``tail`` (wildcards ``*`` and a last ``>``
        allowed) that decodes, one after the other in the order they came; ``queue``: one of
        the subscribers of that queue group gets each message."""
        subject = self.subject(tail, wildcards=True)

        async def on_message(msg: Msg) -> None:
            incoming = self._incoming(msg)
            if incoming is None:
                return
            try:
                await handler(incoming)
            except Exception:
                log.exception("bus %s: the handler of %s failed", self.name, msg.subject)

        sub = await self.nats.subscribe(subject, queue=queue, cb=on_message,
                                        pending_msgs_limit=PENDING_MESSAGES, pending_bytes_limit=PENDING_BYTES)
        return Sub(sub)

    async def serve(self, tail: str, answer: Answerer, *, queue: str = "") -> Sub:
        """Answer every request on ``tail`` with what ``answer`` returns; a :class:`Refusal` it
        raises, or a request that does not decode, is answered ``{"refused": reason}``."""
        subject = self.subject(tail, wildcards=True)

        async def on_request(msg: Msg) -> None:
            if not msg.reply:
                self._refuse(msg.subject, len(msg.data), "a request with nowhere to answer")
                return
            try:
                incoming = Incoming(msg.subject[len(self.prefix):], decode(msg.data, self.limit), len(msg.data))
            except BadMessage as e:
                self._refuse(msg.subject, len(msg.data), e.reason)
                await self._answer(msg, {"refused": f"malformed: {e.reason}"})
                return
            try:
                reply: Mapping[str, Any] = await answer(incoming)
            except Refusal as e:
                reply = {"refused": e.reason}
            except Exception:
                log.exception("bus %s: the answerer of %s failed", self.name, msg.subject)
                reply = {"refused": "the answerer failed"}
            await self._answer(msg, reply)

        sub = await self.nats.subscribe(subject, queue=queue, cb=on_request,
                                        pending_msgs_limit=PENDING_MESSAGES, pending_bytes_limit=PENDING_BYTES)
        return Sub(sub)

    async def _answer(self, msg: Msg, reply: Mapping[str, Any]) -> None:
        try:
            await self.nats.publish(msg.reply, encode(reply, self.limit))
        except TooLarge:
            log.error("bus %s: an answer on %s was too large to send", self.name, msg.subject)
            await self.nats.publish(msg.reply, encode({"refused": "the answer was too large"}))

    def _incoming(self, msg: Msg) -> Incoming | None:
        try:
            data = decode(msg.data, self.limit)
        except BadMessage as e:
            self._refuse(msg.subject, len(msg.data), e.reason)
            return None
        return Incoming(msg.subject[len(self.prefix):], data, len(msg.data))

    def _refuse(self, subject: str, size: int, reason: str) -> None:
        self.refused += 1
        if self.refused <= LOG_FIRST or self.refused % LOG_EVERY == 0:
            log.warning("bus %s: refused a message on %s (%d bytes): %s [refusal %d]",
                        self.name, subject[:200], size, reason, self.refused)

    async def close(self) -> None:
        """Drain and close the connection (its subscriptions end)."""
        if self.nats.is_closed:
            return
        try:
            await self.nats.drain()
        except (nats.errors.Error, OSError):
            await self.nats.close()


__all__ = ["MAX_MESSAGE", "REQUEST_WAIT", "Answerer", "BadMessage", "Bus", "BusError", "Handler", "Incoming",
           "Message", "NoAnswer", "Refusal", "Refused", "Sub", "TooLarge", "check_tail", "decode", "encode"]
