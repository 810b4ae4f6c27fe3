"""The door behind a proxy (``server/door/proxy.py``; issue 32: "Bans and the login budget see the
real address (PROXY protocol)"): the header's parts, read byte by byte as the protocol spells
them; and a server with ``proxy_protocol`` attacked over raw sockets on 127.0.0.1: a header from
an address not listed, garbage, an SSH client without the proxy, a header too long, one that never
ends, each refused and logged with nothing passed to SSH; a real header (v2 and v1, written here by
hand) followed by a real asyncssh client on the same socket, and the server sees the address the
header names.  Through a real HAProxy: ``test_haproxy.py``."""

from __future__ import annotations

import asyncio
import dataclasses
import ipaddress
import logging
import socket
import struct

import asyncssh
import pytest

from canasta_tui.server import ConfigError, Server
from canasta_tui.server.config_file import merged, values_of
from canasta_tui.server.door.auth import Identity
from canasta_tui.server.door.proxy import (
    V1_MAX,
    V2_BODY_MAX,
    V2_SIGNATURE,
    Header,
    ProxyRefused,
    listed,
    networks,
    v1_source,
    v2_header,
    v2_source,
)

from .helpers import WAIT, Term, config, fingerprint_of, key_of, run, serving, settle

PROXY = ("127.0.0.1",)
#: Where the tests' strangers connect from (Linux's loopback answers all of 127.0.0.0/8).
STRANGER = "127.0.0.2"


def v2(source: str, port: int = 40000, dest: str = "127.0.0.1", dport: int = 2222, *, command: int = 0x21,
       tlv: bytes = b"") -> bytes:
    """A PROXY v2 header as HAProxy's ``send-proxy-v2`` writes it (TCP over IPv4 or IPv6)."""
    ip = ipaddress.ip_address(source)
    family = 0x11 if ip.version == 4 else 0x21
    body = ip.packed + ipaddress.ip_address(dest).packed + struct.pack("!HH", port, dport) + tlv
    return V2_SIGNATURE + bytes([command, family]) + struct.pack("!H", len(body)) + body


def local_v2() -> bytes:
    """HAProxy's health check with ``send-proxy-v2``: LOCAL, no address."""
    return V2_SIGNATURE + bytes([0x20, 0x00]) + struct.pack("!H", 0)


# ------------------------------------------------------------------------------ the header's parts
def test_a_v2_header_gives_the_players_address_ipv4_and_ipv6() -> None:
    head = v2("203.0.113.7")
    command, family, length = v2_header(head[:16])
    assert v2_source(command, family, head[16:16 + length]) == Header("203.0.113.7")
    head = v2("2001:db8::7", dest="2001:db8::1", tlv=b"\x04\x00\x01x")     # with a type-length-value field
    command, family, length = v2_header(head[:16])
    assert v2_source(command, family, head[16:16 + length]) == Header("2001:db8::7")
    # An IPv4-mapped IPv6 address is its IPv4 one, as everywhere at the door.
    head = v2("::ffff:198.51.100.4", dest="::1")
    command, family, length = v2_header(head[:16])
    assert v2_source(command, family, head[16:16 + length]) == Header("198.51.100.4")


def test_a_local_header_is_a_health_check_with_no_address() -> None:
    command, family, length = v2_header(local_v2())
    assert (command, length) == (0, 0) and v2_source(command, family, b"") == Header(None)
    assert v1_source(b"PROXY UNKNOWN\r\n") == Header(None)


@pytest.mark.parametrize(("head", "says"), [
    (b"SSH-2.0-OpenSSH_9.2p1\r\n" + b"x" * 8, "an SSH client reached the port without the proxy"),
    (b"GET / HTTP/1.1\r\nHost: x" + b"x" * 8, "not a PROXY header"),
    (V2_SIGNATURE + bytes([0x11, 0x11, 0, 12]), "version 1, not 2"),
    (V2_SIGNATURE + bytes([0x2F, 0x11, 0, 12]), "command 0xf"),
    (V2_SIGNATURE + bytes([0x21, 0x11]) + struct.pack("!H", V2_BODY_MAX + 1), f"at most {V2_BODY_MAX} are read"),
    (V2_SIGNATURE + bytes([0x21, 0x11, 0xFF, 0xFF]), "a PROXY header of 65535 bytes"),
])
def test_a_v2_fixed_part_that_is_not_one_to_believe_is_refused(head: bytes, says: str) -> None:
    with pytest.raises(ProxyRefused, match=says):
        v2_header(head[:16])


@pytest.mark.parametrize(("family", "body", "says"), [
    (0x31, b"/tmp/x".ljust(216, b"\0") * 2, "carries no TCP address"),       # a Unix socket
    (0x12, bytes(12), "carries no TCP address"),                           # UDP
    (0x00, b"", "carries no TCP address"),                                 # PROXY with no family
    (0x11, bytes(11), "cut short"),
    (0x21, bytes(35), "cut short"),
])
def test_a_v2_body_without_a_tcp_address_is_refused(family: int, body: bytes, says: str) -> None:
    with pytest.raises(ProxyRefused, match=says):
        v2_source(0x1, family, body)


def test_a_v1_header_gives_the_address_and_a_wrong_one_is_refused() -> None:
    assert v1_source(b"PROXY TCP4 203.0.113.7 10.0.0.2 51234 2222\r\n") == Header("203.0.113.7")
    assert v1_source(b"PROXY TCP6 2001:db8::7 2001:db8::1 51234 2222\r\n") == Header("2001:db8::7")
    for line, says in [
        (b"PROXY TCP4 203.0.113.7 10.0.0.2 51234\r\n", "four fields"),
        (b"PROXY TCP5 203.0.113.7 10.0.0.2 1 2\r\n", "TCP4 or TCP6"),
        (b"PROXY TCP4 2001:db8::7 10.0.0.2 1 2\r\n", "wrong address or port"),
        (b"PROXY TCP4 203.0.113.999 10.0.0.2 1 2\r\n", "wrong address"),
        (b"PROXY TCP4 203.0.113.7 10.0.0.2 1 99999\r\n", "wrong address or port"),
        (b"PROXY TCP4 203.0.113.7 10.0.0.2 \xd9\xa1 2\r\n", "not ASCII"),
        (b"PROXY TCP4 203.0.113.7 10.0.0.2 1 2\n", "not a PROXY header"),
        (b"PROXY TCP4 " + b"1" * V1_MAX + b"\r\n", "not a PROXY header"),
    ]:
        with pytest.raises(ProxyRefused, match=says):
            v1_source(line)


def test_only_the_listed_proxies_are_believed() -> None:
    trusted = networks(["127.0.0.1", "10.0.0.0/24", "::1"])
    assert listed("127.0.0.1", trusted) and listed("10.0.0.200", trusted) and listed("::1", trusted)
    assert listed("::ffff:10.0.0.9", trusted)                # (a dual-stack socket's form of 10.0.0.9)
    assert not listed("127.0.0.2", trusted) and not listed("10.0.1.1", trusted) and not listed("?", trusted)
    with pytest.raises(ValueError, match="not an address or a network"):
        networks(["haproxy.example"])


def test_the_options_are_checked_on_the_command_line_and_in_the_file() -> None:
    with pytest.raises(ConfigError, match="say which addresses the proxy connects from"):
        config(proxy_protocol=True).checked()
    with pytest.raises(ConfigError, match="--proxy-from goes with --proxy-protocol"):
        config(proxy_from=PROXY).checked()
    with pytest.raises(ConfigError, match="'haproxy' is not an address or a network"):
        config(proxy_protocol=True, proxy_from=("haproxy",)).checked()
    with pytest.raises(ConfigError, match="proxy-from lists at most 100"):
        config(proxy_protocol=True, proxy_from=("10.0.0.1",) * 101).checked()
    with pytest.raises(ConfigError, match="proxy-timeout must be more than 0"):
        config(proxy_protocol=True, proxy_from=PROXY, proxy_timeout=0).checked()
    from pathlib import Path
    base = Path("/etc/canasta")
    out = values_of({"proxy_protocol": True, "proxy_from": ["10.0.0.5", "10.0.1.0/24"], "host_key": "key",
                     "proxy_timeout": 2}, "f", "", base, {})
    assert out == {"proxy_protocol": True, "proxy_from": ("10.0.0.5/32", "10.0.1.0/24"), "host_key": base / "key",
                   "proxy_timeout": 2.0}
    assert merged(out, {"open": True}).host_key_path == base / "key"
    for bad, says in [({"proxy_from": "10.0.0.5"}, "must be a list"), ({"proxy_from": ["x"]}, "is not an address"),
                      ({"proxy_from": [5]}, "is not an address"), ({"proxy_protocol": "yes"}, "true or false")]:
        with pytest.raises(ConfigError, match=says):
            values_of(bad, "f", "", base, {})


# ------------------------------------------------------------------------------ attacks on a live door
async def raw(port: int, data: bytes, *, source: str = "127.0.0.1", then_wait: bool = True) -> bytes:
    """Connect from ``source``, send ``data``, and read what the server sends until it closes (bounded)."""
    loop = asyncio.get_running_loop()
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    try:
        if data:
            writer.write(data)
            await writer.drain()
        got = bytearray()
        if then_wait:
            deadline = loop.time() + WAIT
            try:
                while chunk := await asyncio.wait_for(reader.read(65536), max(0.1, deadline - loop.time())):
                    got += chunk
            except ConnectionResetError:
                pass            # (closed with bytes of ours unread: a reset)
        return bytes(got)
    finally:
        writer.close()


def proxied(**changes: object) -> dict[str, object]:
    return {"proxy_protocol": True, "proxy_from": PROXY, **changes}


def test_what_is_not_a_believable_header_is_refused_logged_and_never_reaches_ssh(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="canasta.server")

    async def main() -> None:
        async with serving(**proxied(proxy_timeout=1.0)) as srv:
            door = srv._listener
            # Each is closed without a byte of SSH (no "SSH-2.0-canasta" version line).
            assert await raw(srv.port, v2("203.0.113.7"), source=STRANGER) == b""      # a forged header
            assert await raw(srv.port, b"SSH-2.0-OpenSSH_9.2p1\r\n") == b""           # no proxy in between
            assert await raw(srv.port, b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" * 4) == b""   # garbage
            assert await raw(srv.port, V2_SIGNATURE + bytes([0x21, 0x11, 0xFF, 0xFF]) + b"A" * 4096) == b""
            assert await raw(srv.port, b"PROXY TCP4 " + b"9" * 200 + b"\r\n") == b""   # a v1 line too long
            assert await raw(srv.port, V2_SIGNATURE + b"\x21\x11") == b""            # never finished: timed out
            assert await raw(srv.port, local_v2()) == b""                            # a health check
            await raw(srv.port, b"", then_wait=False)                                # a plain TCP check
            await settle(srv, lambda: getattr(door, "checks", 0) == 2)
            assert srv.connections == set() and srv.refused == 0
            assert getattr(door, "refused", 0) == 6
    run(main())
    log = caplog.text
    assert f"a connection from {STRANGER} refused: not a listed proxy (proxy_from)" in log
    assert "an SSH client reached the port without the proxy" in log
    assert 'refused: not a PROXY header: "\\x16\\x03' in log
    assert "refused: a PROXY header of 65535 bytes (at most 512 are read)" in log
    assert "refused: a PROXY v1 header longer than 107 bytes" in log
    assert "refused: no complete PROXY header in 1 s" in log
    assert log.count("refused") == 6, log       # (the health checks are not in the log)


def test_a_silent_connection_from_the_proxy_waits_no_longer_than_the_timeout_and_few_wait_at_once() -> None:
    """A stranger who reached HAProxy cannot hold the door's places for headers: 3 at most wait at once
    here (``max_silent``), each closed when its time is up."""
    async def main() -> None:
        async with serving(**proxied(proxy_timeout=30.0, max_silent=3)) as srv:
            door = srv._listener
            held = [await asyncio.open_connection("127.0.0.1", srv.port) for _ in range(3)]
            await settle(srv, lambda: len(getattr(door, "_waiting", ())) == 3)
            assert await raw(srv.port, v2("203.0.113.7")) == b""           # a fourth: refused at once
            assert getattr(door, "refused", 0) == 1
            for _, w in held:
                w.close()
            await settle(srv, lambda: not getattr(door, "_waiting", ()))
            alice = await through_header(srv.port, "alice", v2("203.0.113.7"))   # room again
            await alice.wait_for("No tables yet")
            await alice.close()
    run(main())


async def through_header(port: int, name: str, header: bytes, **options: object) -> Term:
    """``name`` connects as if through a proxy: the header, then a real asyncssh client on that socket."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
    sock.sendall(header)
    sock.setblocking(False)
    conn = await asyncio.wait_for(asyncssh.connect(sock=sock, username=name, known_hosts=None, agent_path=None,
                                                   client_keys=[key_of(name)], **options), WAIT)   # type: ignore[arg-type]
    proc = await conn.create_process(term_type="xterm", term_size=(80, 24))
    return Term(conn, proc)


def test_the_server_sees_the_address_the_header_names_v2_and_v1_and_bans_count_it() -> None:
    root = Identity("root", fingerprint_of("root"))

    async def main() -> None:
        async with serving(**proxied(), admins=frozenset({root.fingerprint})) as srv:
            alice = await through_header(srv.port, "alice", v2("203.0.113.7"))
            await alice.wait_for("No tables yet")
            bob = await through_header(srv.port, "bob", b"PROXY TCP6 2001:db8::b0b 2001:db8::1 5000 2222\r\n")
            await bob.wait_for("No tables yet")
            assert sorted(c.address for c in srv.connections) == ["2001:db8::b0b", "203.0.113.7"]
            assert sorted(c.place for c in srv.connections) == ["2001:db8::/64", "203.0.113.7"]
            # An admin's ban of alice's address puts her out and keeps her out, and nobody else: the
            # proxy's own address is everybody's, and is not what is banned.
            srv.admin.ban(root, "203.0.113.7", 600)
            await alice.wait_closed()
            with pytest.raises(asyncssh.Error, match="Your address is banned from this server"):
                await through_header(srv.port, "carol", v2("203.0.113.7", port=40001))
            dave = await through_header(srv.port, "dave", v2("203.0.113.8"))
            await dave.wait_for("No tables yet")
            assert not bob.closed.is_set()
            await bob.close()
            await dave.close()
    run(main())


def test_without_the_option_nothing_changes_a_header_is_not_read() -> None:
    """Without ``proxy_protocol`` the port is plain SSH: a PROXY header is the client's garbage, and
    the socket's address is the player's."""
    async def main() -> None:
        async with serving() as srv:
            with pytest.raises((asyncssh.Error, OSError)):
                await through_header(srv.port, "alice", v2("203.0.113.7"))
            alice = await Term.connect(srv.port, "alice", local_addr=(STRANGER, 0))
            await alice.wait_for("No tables yet")
            assert [c.address for c in srv.connections] == [STRANGER]
            await alice.close()
    run(main())


def test_a_server_behind_a_proxy_stops_cleanly_with_headers_half_read() -> None:
    async def main() -> None:
        srv = Server(dataclasses.replace(config(), **proxied()))    # type: ignore[arg-type]
        await srv.start()
        _, w = await asyncio.open_connection("127.0.0.1", srv.port)
        w.write(V2_SIGNATURE[:5])
        await settle(srv, lambda: len(getattr(srv._listener, "_waiting", ())) == 1)
        await asyncio.wait_for(srv.stop(), WAIT)
        with pytest.raises(OSError):
            await asyncio.open_connection("127.0.0.1", srv.port)
        w.close()
    run(main())
