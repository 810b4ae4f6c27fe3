"""The door behind HAProxy: the PROXY protocol (v2, and v1), read before SSH.

In a cluster every player connects to one address, HAProxy in TCP mode, which opens its own
connection to a front: the front's socket sees HAProxy's address, not the player's.  HAProxy's
``send-proxy-v2`` puts the player's address in a short header before the client's first byte,
and the door reads it here, so that bans, the login budget, the guess throttle, new names per
place, visits and every per-address limit see the player (issue 32, section 3).  asyncssh knows
nothing of the header: the door reads it from the accepted socket, then hands the socket, at the
client's first byte, to ``asyncssh.run_server`` with the address the header gave.

A header is believed only from the addresses listed (``proxy_from``: HAProxy's own); anybody
else could write one naming any address (a banned person would name another).  What is not
believed is refused, logged, and never reaches SSH:

* a connection from an address not listed, closed at once;
* anything that is not a header (an SSH client that reached the port without HAProxy: ``SSH-2.0-…``),
  a header of another version or command, or one that carries no TCP address;
* a header longer than :data:`V2_BODY_MAX` (v2: it says its length first, and is not read) or
  :data:`V1_MAX` bytes (v1: a line), or one not complete within ``proxy_timeout`` seconds.

A LOCAL header (v2) or ``PROXY UNKNOWN`` (v1) is HAProxy's health check: closed quietly.  A
connection that closes before its first byte (HAProxy's plain TCP check) is closed quietly too.

The format (``doc/proxy-protocol.txt`` of HAProxy)::

    v2: 12-byte signature, version|command, family|transport, length (2 bytes, big-endian), body
        body of TCP over IPv4: source, destination (4 bytes each), source port, destination port
        body of TCP over IPv6: the same with 16-byte addresses; then type-length-value fields
    v1: "PROXY TCP4 203.0.113.7 10.0.0.2 51234 2222\\r\\n" (at most 107 bytes)
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
from collections.abc import Awaitable, Callable, Iterable
from typing import NamedTuple

from ...text import printable
from .auth import plain_address

log = logging.getLogger("canasta.server")

#: The first 12 bytes of a v2 header.
V2_SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"
#: A v2 header's fixed part: signature, version|command, family|transport, length.
V2_FIXED = 16
#: The most a v2 header's body may say it holds: an IPv6 address block is 36 bytes, the rest are
#: type-length-value fields HAProxy adds only when told to (``proxy-v2-options``).  The protocol
#: allows 65535; a door has no use for that much from anybody.
V2_BODY_MAX = 512
#: A v1 header is one line of at most 107 bytes, CR LF included (the protocol's own bound).
V1_MAX = 107
V1_PREFIX = b"PROXY "

_LOCAL, _PROXY = 0x0, 0x1
_INET, _INET6 = 0x1, 0x2
_STREAM = 0x1

#: Networks a proxy may connect from, as ``proxy_from`` lists them.
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class ProxyRefused(Exception):
    """A connection whose PROXY header is not to be believed; the message says why (for the log)."""


class Header(NamedTuple):
    """What a header said: the player's address, or None for a proxy's own connection (a health check)."""

    source: str | None


def networks(texts: Iterable[str]) -> tuple[Network, ...]:
    """``proxy_from``'s addresses and networks (``10.0.0.5``, ``10.0.0.0/24``, ``::1``); ValueError
    names the first that is not one."""
    out = []
    for text in texts:
        try:
            out.append(ipaddress.ip_network(text.strip(), strict=False))
        except ValueError:
            raise ValueError(f"{printable(text)[:60]!r} is not an address or a network (10.0.0.5, 10.0.0.0/24)") from None
    return tuple(out)


def listed(address: str, trusted: tuple[Network, ...]) -> bool:
    """Is ``address`` (as a socket reports it: an IPv4-mapped IPv6 address is its IPv4 one) in ``trusted``?"""
    try:
        ip = ipaddress.ip_address(plain_address(address))
    except ValueError:
        return False
    return any(ip.version == net.version and ip in net for net in trusted)


def _shown(data: bytes) -> str:
    """The first bytes of what came, for the log (never the raw bytes: they are anybody's)."""
    text = f'"{printable(data[:24].decode("ascii", "replace"))}"'
    if data.startswith(b"SSH-"):
        return f"{text}: an SSH client reached the port without the proxy"
    return text


def v2_header(fixed: bytes) -> tuple[int, int, int]:
    """A v2 header's fixed 16 bytes: (command, family|transport, length of the body), or ProxyRefused."""
    if len(fixed) != V2_FIXED or not fixed.startswith(V2_SIGNATURE):
        raise ProxyRefused(f"not a PROXY header: {_shown(fixed)}")
    version, command = fixed[12] >> 4, fixed[12] & 0x0F
    if version != 2:
        raise ProxyRefused(f"a PROXY header of version {version}, not 2")
    if command not in (_LOCAL, _PROXY):
        raise ProxyRefused(f"a PROXY header with the command {command:#x} (neither LOCAL nor PROXY)")
    length = int.from_bytes(fixed[14:16], "big")
    if length > V2_BODY_MAX:
        raise ProxyRefused(f"a PROXY header of {length} bytes (at most {V2_BODY_MAX} are read)")
    return command, fixed[13], length


def v2_source(command: int, family: int, body: bytes) -> Header:
    """The address in a v2 header's body (its fixed part said ``command`` and ``family``)."""
    if command == _LOCAL:
        return Header(None)
    af, transport = family >> 4, family & 0x0F
    if transport != _STREAM or af not in (_INET, _INET6):
        raise ProxyRefused(f"a PROXY header that carries no TCP address (family {family:#04x})")
    size = 4 if af == _INET else 16
    if len(body) < 2 * size + 4:
        raise ProxyRefused(f"a PROXY header whose address block is cut short ({len(body)} bytes)")
    raw = body[:size]
    ip = ipaddress.IPv4Address(raw) if af == _INET else ipaddress.IPv6Address(raw)
    return Header(plain_address(str(ip)))


def v1_source(line: bytes) -> Header:
    """The address in a v1 header (``PROXY TCP4 src dst sport dport\\r\\n``), or ProxyRefused."""
    if not (line.startswith(V1_PREFIX) and line.endswith(b"\r\n")) or len(line) > V1_MAX:
        raise ProxyRefused(f"not a PROXY header: {_shown(line)}")
    try:
        parts = line[:-2].decode("ascii").split(" ")
    except UnicodeDecodeError:
        raise ProxyRefused(f"a PROXY v1 header that is not ASCII: {_shown(line)}") from None
    if len(parts) >= 2 and parts[1] == "UNKNOWN":
        return Header(None)
    if len(parts) != 6 or parts[1] not in ("TCP4", "TCP6"):
        raise ProxyRefused(f"a PROXY v1 header that is not TCP4 or TCP6 with four fields: {_shown(line)}")
    _, proto, src, dst, sport, dport = parts
    try:
        ips = [ipaddress.ip_address(a) for a in (src, dst)]
    except ValueError:
        raise ProxyRefused(f"a PROXY v1 header with a wrong address: {_shown(line)}") from None
    if any(ip.version != (4 if proto == "TCP4" else 6) for ip in ips) or not all(
            p.isdigit() and p.isascii() and len(p) <= 5 and int(p) <= 65535 for p in (sport, dport)):
        raise ProxyRefused(f"a PROXY v1 header with a wrong address or port: {_shown(line)}")
    return Header(plain_address(src))


class _Closed(Exception):
    """The connection closed before its header was complete."""

    def __init__(self, got: bytes) -> None:
        super().__init__()
        self.got = got


async def _exactly(loop: asyncio.AbstractEventLoop, sock: socket.socket, n: int, got: bytes = b"") -> bytes:
    """``n`` bytes from ``sock``, and not one more (what follows is the client's SSH)."""
    data = bytearray()
    while len(data) < n:
        chunk = await loop.sock_recv(sock, n - len(data))
        if not chunk:
            raise _Closed(got + bytes(data))
        data += chunk
    return bytes(data)


async def read_header(sock: socket.socket) -> Header:
    """Read a PROXY header (v2 or v1) from ``sock`` and nothing after it; ProxyRefused if it is not
    one to believe, _Closed if the connection ends first.  The caller bounds the time."""
    loop = asyncio.get_running_loop()
    first = await _exactly(loop, sock, len(V1_PREFIX))
    if first == V1_PREFIX:
        # A line: read a byte at a time (what follows the line is the client's, and the socket has
        # no way to put bytes back); at most V1_MAX reads, most of them already waiting.
        line = bytearray(first)
        while not line.endswith(b"\r\n"):
            if len(line) >= V1_MAX:
                raise ProxyRefused(f"a PROXY v1 header longer than {V1_MAX} bytes: {_shown(bytes(line))}")
            line += await _exactly(loop, sock, 1, bytes(line))
        return v1_source(bytes(line))
    if not V2_SIGNATURE.startswith(first):
        raise ProxyRefused(f"not a PROXY header: {_shown(first)}")
    fixed = first + await _exactly(loop, sock, V2_FIXED - len(first), first)
    command, family, length = v2_header(fixed)
    body = await _exactly(loop, sock, length, fixed)
    return v2_source(command, family, body)


class ProxyDoor:
    """A listener for connections from a proxy: each must come from an address of ``trusted`` and
    begin with a PROXY header; then ``enter(sock, address)`` runs SSH on it for that address.

    At most ``max_waiting`` connections may be waiting for their header at once (HAProxy sends it
    with the connection: only a stranger's connections wait), each at most ``timeout`` seconds.
    It has what :class:`~canasta_tui.server.server.Server` uses of asyncssh's listener
    (:meth:`get_port`, :meth:`close`, :meth:`wait_closed`).
    """

    def __init__(self, trusted: tuple[Network, ...], timeout: float, max_waiting: int,
                 enter: Callable[[socket.socket, str], Awaitable[None]]) -> None:
        self.trusted = trusted
        self.timeout = timeout
        self.max_waiting = max_waiting
        self.enter = enter
        self.refused = 0                  # connections refused here (for tests and the log)
        self.checks = 0                   # the proxy's own connections (health checks), closed
        self._sockets: list[socket.socket] = []
        self._accepting: list[asyncio.Task[None]] = []
        self._waiting: set[asyncio.Task[None]] = set()     # reading a header
        self._inside: set[asyncio.Task[None]] = set()      # handed to SSH

    async def start(self, host: str, port: int) -> None:
        """Listen on ``host`` (every address it names) and ``port``; OSError if it cannot."""
        loop = asyncio.get_running_loop()
        infos = await loop.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        seen = set()
        try:
            for family, kind, proto, _name, address in infos:
                if (family, address) in seen:
                    continue
                seen.add((family, address))
                sock = socket.socket(family, kind, proto)
                self._sockets.append(sock)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                if port == 0 and len(self._sockets) > 1:
                    address = (address[0], self.get_port(), *address[2:])    # one port for every family
                sock.bind(address)
                sock.listen(100)
                sock.setblocking(False)
        except OSError:
            self._close_sockets()
            raise
        self._accepting = [loop.create_task(self._accept(s)) for s in self._sockets]

    def get_port(self) -> int:
        return int(self._sockets[0].getsockname()[1])

    async def _accept(self, listener: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                sock, peer = await loop.sock_accept(listener)
            except OSError as exc:            # (out of file descriptors: the next accept may work)
                log.warning("the door could not accept a connection: %s", exc.strerror or exc)
                await asyncio.sleep(0.1)
                continue
            address = plain_address(str(peer[0]))
            if not listed(address, self.trusted):
                self._refuse(sock, f"a connection from {printable(address)} refused: not a listed proxy "
                             "(proxy_from): a PROXY header from it would not be believed")
                continue
            if len(self._waiting) >= self.max_waiting:
                self._refuse(sock, f"a connection from the proxy {address} refused: {self.max_waiting} are "
                             "already waiting for their PROXY header")
                continue
            task = loop.create_task(self._admit(sock, address))
            self._waiting.add(task)
            task.add_done_callback(self._waiting.discard)

    def _refuse(self, sock: socket.socket, why: str) -> None:
        self.refused += 1
        log.warning("%s", why)
        sock.close()

    async def _admit(self, sock: socket.socket, proxy: str) -> None:
        sock.setblocking(False)
        try:
            async with asyncio.timeout(self.timeout):
                header = await read_header(sock)
        except ProxyRefused as exc:
            self._refuse(sock, f"a connection from the proxy {proxy} refused: {exc}")
            return
        except TimeoutError:
            self._refuse(sock, f"a connection from the proxy {proxy} refused: no complete PROXY header "
                         f"in {self.timeout:g} s")
            return
        except _Closed as exc:
            if exc.got:
                self._refuse(sock, f"a connection from the proxy {proxy} closed in its PROXY header: "
                             f"{_shown(exc.got)}")
            else:
                self.checks += 1         # (HAProxy's plain TCP check: connect, close)
                sock.close()
            return
        except OSError as exc:
            self._refuse(sock, f"a connection from the proxy {proxy} failed in its PROXY header: "
                         f"{exc.strerror or exc}")
            return
        except asyncio.CancelledError:
            sock.close()
            raise
        if header.source is None:
            self.checks += 1             # a health check (LOCAL): nothing to say
            sock.close()
            return
        task = asyncio.get_running_loop().create_task(self._inside_ssh(sock, header.source))
        self._inside.add(task)
        task.add_done_callback(self._inside.discard)

    async def _inside_ssh(self, sock: socket.socket, source: str) -> None:
        try:
            await self.enter(sock, source)
        except Exception as exc:          # (a login that failed: asyncssh has closed it, the door has logged why)
            log.debug("an SSH connection from %s ended at login: %s", source, exc)

    def _close_sockets(self) -> None:
        for s in self._sockets:
            s.close()

    def close(self) -> None:
        """Stop listening; connections still reading their header are closed."""
        for task in (*self._accepting, *self._waiting):
            task.cancel()
        self._close_sockets()

    async def wait_closed(self) -> None:
        tasks = [*self._accepting, *self._waiting]
        if tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.gather(*tasks, return_exceptions=True)


__all__ = ["V1_MAX", "V2_BODY_MAX", "V2_SIGNATURE", "Header", "ProxyDoor", "ProxyRefused", "listed", "networks",
           "read_header", "v1_source", "v2_header", "v2_source"]
