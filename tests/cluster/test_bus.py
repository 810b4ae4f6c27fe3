"""The bus (``server/cluster/bus.py``) on a real nats-server: a room's subjects, requests and their
refusals, and every malformed or oversized message refused, counted and logged before a handler
sees it."""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

import pytest
from engines import nats_server

from canasta_tui.server.cluster.bus import (
    MAX_MESSAGE,
    BadMessage,
    Bus,
    BusError,
    Incoming,
    NoAnswer,
    Refusal,
    Refused,
    TooLarge,
    check_tail,
    decode,
    encode,
)

from .helpers import WAIT, run, until


async def _bus(url: str, room: str, name: str = "t") -> Bus:
    return await Bus.connect(url, room=room, name=name)


def test_publish_reaches_the_room_and_only_the_room(nats_url: str, nats_room: str) -> None:
    async def go() -> None:
        a, b, other = await _bus(nats_url, nats_room, "a"), await _bus(nats_url, nats_room, "b"), \
            await _bus(nats_url, nats_room + "x", "other")
        got: list[Incoming] = []
        heard_elsewhere: list[Incoming] = []

        async def on(m: Incoming) -> None:
            got.append(m)

        async def elsewhere(m: Incoming) -> None:
            heard_elsewhere.append(m)

        await b.subscribe("table.*.public", on)
        await other.subscribe(">", elsewhere)
        await b.flush()
        await other.flush()
        await a.publish("table.7.public", {"n": 1, "text": "é"})
        await a.publish("table.8.public", {"n": 2})
        await until(lambda: len(got) == 2, "two frames")
        assert [(m.subject, m.data) for m in got] == [("table.7.public", {"n": 1, "text": "é"}),
                                                      ("table.8.public", {"n": 2})]
        await other.flush()
        assert heard_elsewhere == []
        for x in (a, b, other):
            await x.close()
    run(go())


def test_request_is_answered_or_refused_with_its_reason(nats_url: str, nats_room: str) -> None:
    async def go() -> None:
        owner, front = await _bus(nats_url, nats_room, "owner"), await _bus(nats_url, nats_room, "front")

        async def answer(m: Incoming) -> dict[str, Any]:
            if m.data.get("op") == "no":
                raise Refusal("not your seat")
            return {"echo": m.data}

        await owner.serve("table.1.req", answer)
        await owner.flush()
        assert await front.request("table.1.req", {"op": "yes"}) == {"echo": {"op": "yes"}}
        with pytest.raises(Refused, match="not your seat"):
            await front.request("table.1.req", {"op": "no"})
        with pytest.raises(NoAnswer):
            await front.request("table.2.req", {"op": "yes"}, timeout=5)
        # a request that does not decode is answered with why
        msg = await front.nats.request(front.subject("table.1.req"), b"{nope", timeout=5)
        assert decode(msg.data)["refused"].startswith("malformed: not JSON")
        assert owner.refused == 1
        await owner.close()
        await front.close()
    run(go())


@pytest.mark.parametrize(("payload", "why"), [
    (b"x" * (MAX_MESSAGE + 1), "more than"),
    (b"\xff\xfe{}", "not UTF-8"),
    (b"{\"a\": 1", "not JSON"),
    (b"[1, 2]", "not an object"),
    (b"\"text\"", "not an object"),
    (b"{\"n\": NaN}", "NaN"),
    (b"{\"n\": Infinity}", "Infinity"),
    (b"{\"n\": 1, \"n\": 2}", "twice"),
    (b"{\"a\": " + b"[" * 20 + b"]" * 20 + b"}", "nested"),
    (b"{\"a\": " + b"[" * 100_000 + b"]" * 100_000 + b"}", "nested"),
    (b"{\"n\": " + b"9" * 5000 + b"}", "not JSON"),
])
def test_what_does_not_decode_is_refused_counted_and_logged(
        nats_url: str, nats_room: str, payload: bytes, why: str, caplog: pytest.LogCaptureFixture) -> None:
    with pytest.raises(BadMessage, match=why):
        decode(payload)

    async def go() -> None:
        rx, tx = await _bus(nats_url, nats_room, "rx"), await _bus(nats_url, nats_room, "tx")
        got: list[dict[str, Any]] = []

        async def on(m: Incoming) -> None:
            got.append(m.data)

        await rx.subscribe("t.>", on)
        await rx.flush()
        await tx.nats.publish(tx.subject("t.x"), payload)      # (raw: the bus itself never sends these)
        await tx.publish("t.x", {"after": True})
        await until(lambda: got != [], "the good message after the bad")
        assert got == [{"after": True}]                         # in order: the bad one never reached it
        assert rx.refused == 1
        await rx.close()
        await tx.close()
    with caplog.at_level(logging.WARNING, "canasta.cluster.bus"):
        run(go())
    assert any("refused a message on" in r.getMessage() and why.split()[0] in r.getMessage()
               for r in caplog.records)


def test_flush_comes_after_the_subscription_on_the_wire(nats_url: str, nats_room: str) -> None:
    """``flush`` is the barrier after ``subscribe``: its PING must reach NATS after the SUB, or the
    PONG comes back before NATS knows of the interest and a message published at once is lost
    (nats-py writes a PING straight to the socket, past the SUB still queued for its flusher)."""
    async def go() -> None:
        host, port = nats_url.removeprefix("nats://").rsplit(":", 1)
        sent = bytearray()                       # what the client sent to NATS, in order

        async def pipe(r: asyncio.StreamReader, w: asyncio.StreamWriter, record: bool) -> None:
            try:
                while data := await r.read(65536):
                    if record:
                        sent.extend(data)
                    w.write(data)
                    await w.drain()
            except (ConnectionError, asyncio.CancelledError):
                pass
            finally:
                w.close()

        relays: list[asyncio.Task[Any]] = []

        async def relay(cr: asyncio.StreamReader, cw: asyncio.StreamWriter) -> None:
            me = asyncio.current_task()
            assert me is not None
            relays.append(me)
            sr, sw = await asyncio.open_connection(host, int(port))
            await asyncio.gather(pipe(cr, sw, True), pipe(sr, cw, False))

        server = await asyncio.start_server(relay, "127.0.0.1", 0)
        relay_port = server.sockets[0].getsockname()[1]
        bus = await _bus(f"nats://127.0.0.1:{relay_port}", nats_room)

        async def on(m: Incoming) -> None:
            pass

        await until(lambda: sent.endswith(b"PING\r\n"), "the connection's own PING")
        start = len(sent)
        await bus.subscribe("t.>", on)
        await bus.flush()
        await until(lambda: b"SUB " in sent[start:], "the SUB on the wire")
        lines = bytes(sent[start:]).split(b"\r\n")
        assert [line.split(b" ")[0] for line in lines if line] == [b"SUB", b"PING"]
        await bus.close()                        # (the relay ends with the client's connection)
        server.close()
        await asyncio.wait_for(asyncio.gather(*relays), WAIT)
    run(go())


def test_a_message_too_large_is_not_sent(nats_url: str, nats_room: str) -> None:
    with pytest.raises(TooLarge):
        encode({"x": "y" * MAX_MESSAGE})
    with pytest.raises(ValueError):
        encode({"n": float("nan")})

    async def go() -> None:
        bus = await _bus(nats_url, nats_room)
        with pytest.raises(TooLarge):
            await bus.publish("t", {"x": "y" * MAX_MESSAGE})
        await bus.close()
    run(go())


def test_a_failing_handler_does_not_end_its_subscription(nats_url: str, nats_room: str) -> None:
    async def go() -> None:
        bus = await _bus(nats_url, nats_room)
        got: list[int] = []

        async def on(m: Incoming) -> None:
            if m.data["n"] == 1:
                raise RuntimeError("a bug")
            got.append(m.data["n"])

        await bus.subscribe("t", on)
        await bus.flush()
        for n in (1, 2):
            await bus.publish("t", {"n": n})
        await until(lambda: got == [2], "the message after the failure")
        await bus.close()
    run(go())


@pytest.mark.parametrize("tail", ["", "a..b", "a b", "a.*", "a.>", "tab\tle", "x" * 65, "é", ".".join("a" * 17)])
def test_subject_tails_are_checked(tail: str) -> None:
    with pytest.raises(ValueError):
        check_tail(tail)


def test_wildcards_only_where_a_subscription_allows_them() -> None:
    assert check_tail("table.*.seat.>", wildcards=True)
    with pytest.raises(ValueError):
        check_tail("table.>.x", wildcards=True)
    with pytest.raises(ValueError):
        check_tail("table.a*", wildcards=True)


@pytest.mark.parametrize("room", ["", "Main", "a.b", "a*", "x" * 33, "-a"])
def test_room_names_are_checked(nats_url: str, room: str) -> None:
    with pytest.raises(ValueError):
        run(Bus.connect(nats_url, room=room, name="t"))


def test_no_bus_there_is_a_clear_error() -> None:
    from engines import free_port
    with pytest.raises(BusError, match="no bus at"):
        run(Bus.connect(f"nats://127.0.0.1:{free_port()}", room="r", name="t", connect_timeout=1))


def test_the_harness_stops_the_server_by_its_pid_even_when_the_test_fails() -> None:
    pid = 0
    with pytest.raises(RuntimeError, match="the test failed"), nats_server() as server:
        pid = server.pid
        os.kill(pid, 0)                    # running
        raise RuntimeError("the test failed")
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_clients_come_back_after_the_bus_restarts() -> None:
    """A node lives through a restart of nats-server on the same address (it reconnects)."""
    async def go() -> None:
        with nats_server() as first:
            port = first.port
            bus = await Bus.connect(first.url, room="r", name="t")
            got: list[int] = []

            async def on(m: Incoming) -> None:
                got.append(m.data["n"])

            await bus.subscribe("t", on)
            await bus.flush()
        with nats_server(port) as second:
            assert second.port == port
            await until(lambda: bus.nats.stats["reconnects"] >= 1 and bus.nats.is_connected, "the reconnection")
            await bus.publish("t", {"n": 1})
            await until(lambda: got == [1], "a message after the restart")
            await bus.close()
    run(asyncio.wait_for(go(), 120))
