"""Connections that have not logged in have a budget of their own (``max_logins``, 20, and
``max_logins_per_address``, 3): 120 TCP connections that never sent a byte, 10 from each of 12
addresses, filled the server's 100 places, and a player was told "The server is full" for 28 s
(for ever, by a stranger who connected again every 30 s).  Now connections that have not sent a
byte wait apart (``max_silent``; when full, the oldest from the busiest address goes), a login
under way that got least far goes first, a key that lets its client in leaves the budget at once,
guests leave the last places to keys (``room_for_keys``), and a full server makes room for a key
(``yield_after``): players get in, however many addresses the stranger has.

The stranger's addresses are 127.0.0.2 ... 127.0.0.13 (Linux lets a socket bind to any address
of 127/8 on the loopback interface); the server listens on 127.0.0.1 only."""

from __future__ import annotations

import asyncio
import contextlib

import asyncssh
import pytest

from .helpers import WAIT, Term, create_table, run, serving, settle

STRANGER = [f"127.0.0.{n}" for n in range(2, 14)]
PEOPLE = ("ann", "bea", "cy", "dee", "eve", "fay")


async def silent(port: int, address: str, stop: asyncio.Event, opened: list[int], told: list[bytes]) -> None:
    """One of the stranger's connections: it never sends a byte; closed by the server, it is
    opened again a moment later, until ``stop``."""
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
        except OSError:
            await asyncio.sleep(0.2)
            continue
        opened[0] += 1
        try:
            stopping = asyncio.ensure_future(stop.wait())
            reading = asyncio.ensure_future(reader.read())        # until the server closes it
            await asyncio.wait({stopping, reading}, return_when=asyncio.FIRST_COMPLETED)
            stopping.cancel()
            if reading.done() and not reading.exception():
                told.append(reading.result())
            else:
                reading.cancel()
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()
        await asyncio.sleep(0.5)


def test_120_silent_connections_from_12_addresses_keep_no_player_out() -> None:
    async def main() -> None:
        async with serving() as srv:
            bob = await Term.connect(srv.port, "bob")          # logged in before the stranger came
            await bob.wait_for("No tables yet")
            stop = asyncio.Event()
            opened, told = [0], []
            stranger = [asyncio.ensure_future(silent(srv.port, a, stop, opened, told))
                        for a in STRANGER for _ in range(10)]
            await settle(srv, lambda: opened[0] >= 120)
            await asyncio.sleep(0.5)
            budget = srv.config
            assert len(srv._logging_in) <= budget.max_logins
            assert srv.logging_in <= budget.max_logins + budget.max_silent

            alice = await Term.connect(srv.port, "alice")         # she gets in, never "full"
            await alice.wait_for("No tables yet")
            await bob.press("?", "Lobby keys")                  # bob plays on
            await bob.press("x", lambda s: "Lobby keys" not in s)
            # The stranger keeps connecting again, and another player still gets in.
            carol = await Term.connect(srv.port, "carol")
            await carol.wait_for("3 online")
            assert len(srv._logging_in) <= budget.max_logins
            assert max(srv._logins_from.values()) <= budget.max_logins_per_address

            stop.set()
            await asyncio.wait_for(asyncio.gather(*stranger), WAIT)
            assert srv.dropped + srv.refused > 0
            # A connection closed at the door was told why, in words (SSH sends the reason in the clear).
            assert any(b"logins" in data for data in told)
            for t in (alice, bob, carol):
                await t.close()
    run(main())


def test_too_many_logins_at_once_from_one_address_are_refused_with_a_message() -> None:
    async def main() -> None:
        async with serving() as srv:
            stop = asyncio.Event()
            opened: list[int] = [0]
            told: list[bytes] = []
            three = [asyncio.ensure_future(silent(srv.port, "127.0.0.2", stop, opened, told)) for _ in range(3)]
            await settle(srv, lambda: srv.logging_in == 3)
            with pytest.raises(asyncssh.DisconnectError, match=r"Too many logins at once from your address \(at most 3\)"):
                await Term.connect(srv.port, "eve", local_addr=("127.0.0.2", 0))
            # From another address a player gets in.
            ann = await Term.connect(srv.port, "ann", local_addr=("127.0.0.3", 0))
            await ann.wait_for("No tables yet")
            stop.set()
            await asyncio.wait_for(asyncio.gather(*three), WAIT)
            await ann.close()
    run(main())


def test_a_full_room_of_silent_connections_drops_the_busiest_address_not_the_newcomer() -> None:
    async def main() -> None:
        async with serving(max_silent=4, max_logins_per_address=3) as srv:
            stop = asyncio.Event()
            opened: list[int] = [0]
            told: list[bytes] = []
            busy = [asyncio.ensure_future(silent(srv.port, "127.0.0.2", stop, opened, told)) for _ in range(3)]
            await settle(srv, lambda: srv.logging_in == 3)
            quiet = asyncio.ensure_future(silent(srv.port, "127.0.0.3", stop, opened, told))
            await settle(srv, lambda: srv.logging_in == 4)
            # The budget is full: a player from a third address takes the place of one of
            # 127.0.0.2's, and 127.0.0.3's one connection is left alone.
            ann = await Term.connect(srv.port, "ann", local_addr=("127.0.0.4", 0))
            await ann.wait_for("No tables yet")
            assert srv.dropped >= 1
            assert srv._logins_from["127.0.0.3"] == 1
            assert any(b"The server has too many logins under way" in data for data in told)
            stop.set()
            await asyncio.wait_for(asyncio.gather(*busy, quiet), WAIT)
            await ann.close()
    run(main())


def test_a_full_server_of_players_still_says_so() -> None:
    async def main() -> None:
        async with serving(max_connections=2) as srv:
            a = await Term.connect(srv.port, "a")
            b = await Term.connect(srv.port, "b")
            await b.wait_for("2 online")
            with pytest.raises(asyncssh.DisconnectError, match=r"The server is full \(2 connections\)"):
                await Term.connect(srv.port, "c")
            for t in (a, b):
                await t.close()
    run(main())


async def silent_again(port: int, address: str, stop: asyncio.Event, opened: list[int]) -> None:
    """A stranger's silent connection that is opened again the moment the server closes it (not
    half a second later), until ``stop``: the churn that pushed real logins out of the budget."""
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
        except OSError:
            await asyncio.sleep(0.05)
            continue
        opened[0] += 1
        try:
            stopping = asyncio.ensure_future(stop.wait())
            reading = asyncio.ensure_future(reader.read())
            await asyncio.wait({stopping, reading}, return_when=asyncio.FIRST_COMPLETED)
            stopping.cancel()
            reading.cancel()
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()


@pytest.mark.parametrize(("addresses", "logins"), [(30, 6), (200, 5)])
def test_silent_connections_from_many_addresses_never_push_a_key_login_out(addresses: int, logins: int) -> None:
    """Before: 30 addresses with one silent connection each, opened again as soon as it was
    closed, kept a real login out (0 of 6 got in: a new connection took the place of the oldest
    login under way, and the real one was soon the oldest); with 200 addresses 2 of 5 key logins
    were dropped.  Now connections that have not sent a byte wait apart (``max_silent``, 256),
    a login under way that has got least far goes first, and one that proved a key leaves the
    budget."""
    strangers = [f"127.0.{n // 250 + 1}.{n % 250 + 2}" for n in range(addresses)]

    async def main() -> None:
        async with serving() as srv:
            stop = asyncio.Event()
            opened = [0]
            stranger = [asyncio.ensure_future(silent_again(srv.port, a, stop, opened)) for a in strangers]
            await settle(srv, lambda: opened[0] >= addresses)      # every stranger has connected
            got_in = 0
            for n in range(logins):
                try:
                    t = await Term.connect(srv.port, PEOPLE[n])
                    await t.wait_for(f"{PEOPLE[n]} ✓")
                except (asyncssh.Error, OSError, AssertionError):
                    continue
                got_in += 1
                await t.close()
            stop.set()
            await asyncio.wait_for(asyncio.gather(*stranger), WAIT)
            assert got_in == logins
    run(main(), timeout=240)


async def refusal(port: int, name: str, **options: object) -> str:
    """What the server said when it closed a guest's connection just after SSH let it in."""
    said: list[str] = []

    class Client(asyncssh.SSHClient):
        def connection_lost(self, exc: Exception | None) -> None:
            said.append(getattr(exc, "reason", str(exc)))

    conn, _ = await asyncio.wait_for(asyncssh.create_connection(
        Client, "127.0.0.1", port, username=name, password="guest", client_keys=None, agent_path=None,
        known_hosts=None, **options), WAIT)                 # type: ignore[arg-type]
    await asyncio.wait_for(conn.wait_closed(), WAIT)
    return said[0] if said else ""


def test_idle_guests_from_a_few_addresses_never_make_the_server_full_for_a_key() -> None:
    """Before: 100 idle lobbies from 10 addresses gave a real player "The server is full".  Now
    guests (no key) fill at most ``max_connections - room_for_keys`` places; the rest wait for
    people who prove a key (here 6 places, 2 kept: guests from two addresses get 4)."""
    async def main() -> None:
        async with serving(max_connections=6, max_per_address=3, room_for_keys=2) as srv:
            guests, told = [], []
            for n in range(6):
                where = (f"127.0.0.{2 + n % 2}", 0)
                if n < 4:
                    t = await Term.connect(srv.port, f"idler{n}x", guest=True, local_addr=where)
                    await t.wait_for("No tables yet")
                    guests.append(t)
                else:
                    told.append(await refusal(srv.port, f"idler{n}x", local_addr=where))
            assert len(srv.sessions) == 4
            alice = await Term.connect(srv.port, "alice", local_addr=("127.0.0.4", 0))
            await alice.wait_for("alice ✓")
            bob = await Term.connect(srv.port, "bob", local_addr=("127.0.0.5", 0))
            await bob.wait_for("bob ✓")
            with pytest.raises(asyncssh.DisconnectError, match=r"The server is full \(6 connections\)"):
                await Term.connect(srv.port, "carol", local_addr=("127.0.0.6", 0))
            assert told == [told[0]] * 2 and "the rest are kept for people with SSH keys" in told[0], told
            for t in (*guests, alice, bob):
                await t.close()
    run(main())


def test_idle_lobbies_with_keys_from_a_few_addresses_make_room_for_a_key() -> None:
    """Before: 100 idle lobbies from 10 addresses gave a real player "The server is full" (and in open
    mode anybody's lobbies may hold keys).  Now, when the server is full, a person who proves a key
    takes the place of the connection idle longest from the address holding the most (if it holds
    at least two more than theirs), never one at a table, seated or watching (here 5 places, idle
    after 0.3 s: 127.0.0.2 holds 2, 127.0.0.3 holds 3, one of them seated and one watching)."""
    async def main() -> None:
        async with serving(max_connections=5, max_per_address=3, room_for_keys=0, yield_after=0.3) as srv:
            idlers = {}
            for name, where in (("ann", "127.0.0.2"), ("bea", "127.0.0.2"), ("cy", "127.0.0.3"),
                                ("dee", "127.0.0.3"), ("eve", "127.0.0.3")):
                idlers[name] = await Term.connect(srv.port, name, local_addr=(where, 0))
                await idlers[name].wait_for(f"{name} ✓")
            await create_table(idlers["cy"])                      # cy has a seat: she stays ...
            await idlers["cy"].press("s", "hand 1")
            await idlers["dee"].press("w", "(no hand shown)")     # ... and dee watches her table
            await idlers["eve"].press("?", "Lobby keys")            # (eve pressed a key after dee did)
            await idlers["eve"].press("x", lambda s: "Lobby keys" not in s)
            with pytest.raises(asyncssh.DisconnectError, match=r"The server is full \(5 connections\)"):
                await Term.connect(srv.port, "zed", local_addr=("127.0.0.2", 0))    # (2 there: its share)
            await asyncio.sleep(0.5)
            alice = await Term.connect(srv.port, "alice", local_addr=("127.0.0.4", 0))
            await alice.wait_for("alice ✓")
            gone = [n for n, t in idlers.items() if t.closed.is_set()]
            assert gone == ["eve"], gone
            assert "made room for another player" in idlers[gone[0]].received()
            # Now 127.0.0.3 holds 2, alice's address 1: a second newcomer finds every place in its share.
            with pytest.raises(asyncssh.DisconnectError, match=r"The server is full \(5 connections\)"):
                await Term.connect(srv.port, "bob", local_addr=("127.0.0.4", 0))
            for t in (*idlers.values(), alice):
                await t.close()
    run(main())
