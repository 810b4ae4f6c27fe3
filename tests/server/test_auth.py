"""Who may enter: the keys of an authorized-keys file, a password, or anybody in open mode (asked
for by name); the user name is the player's name; the host key is made once and kept private."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import asyncssh
import pytest

from canasta_tui.server import ConfigError, Server
from canasta_tui.server.door.auth import NameRefused, place, player_name
from canasta_tui.server.door.hostkey import host_key
from canasta_tui.server.person import PersonId

from .helpers import ENTER, Term, config, create_table, key_of, run, serving, settle


def keypair(tmp: Path, name: str) -> tuple[asyncssh.SSHKey, str]:
    key = asyncssh.generate_private_key("ssh-ed25519", comment=name)
    return key, key.export_public_key().decode()


def test_a_key_in_the_file_gets_in_and_its_fingerprint_is_part_of_the_identity(tmp_path: Path) -> None:
    alice_key, alice_pub = keypair(tmp_path, "alice")
    other_key, other_pub = keypair(tmp_path, "other")
    keys = tmp_path / "authorized_keys"
    keys.write_text(alice_pub)

    async def main() -> None:
        async with serving(open=False, authorized_keys=keys) as srv:
            alice = await Term.connect(srv.port, "alice", client_keys=[alice_key])
            await alice.wait_for("alice ✓ — 1 online")
            fp = alice_key.get_fingerprint("sha256")
            assert set(srv.registry.clients) == {PersonId.parse(f"key:{fp}")}
            with pytest.raises(asyncssh.PermissionDenied):
                await Term.connect(srv.port, "mallory", client_keys=[other_key])
            # Friends are added while the server runs: the file is read again.
            keys.write_text(alice_pub + other_pub)
            other = await Term.connect(srv.port, "carol", client_keys=[other_key])
            await other.wait_for("carol ✓ — 2 online")
            for t in (alice, other):
                await t.close()
    run(main())


def test_the_same_name_with_another_key_is_refused_and_cannot_take_the_seat(tmp_path: Path) -> None:
    """With keys, a seat is its player's key: typing the name is not enough to take it, and another
    listed key may not even use the name."""
    key1, pub1 = keypair(tmp_path, "one")
    key2, pub2 = keypair(tmp_path, "two")
    keys = tmp_path / "authorized_keys"
    keys.write_text(pub1 + pub2)

    async def main() -> None:
        async with serving(open=False, authorized_keys=keys) as srv:
            alice = await Term.connect(srv.port, "alice", client_keys=[key1])
            await alice.wait_for("No tables yet")
            await create_table(alice)
            await alice.press("s", "Your hand")
            await alice.close()
            await settle(srv, lambda: not srv.registry.tables[1].links)
            impostor = await Term.connect(srv.port, "alice", client_keys=[key2])
            await impostor.wait_for("reserved by another person's key")
            await impostor.wait_closed()
            assert "Your hand" not in impostor.received()
            mallory = await Term.connect(srv.port, "mallory", client_keys=[key2])
            await mallory.wait_for("Tables")
            await mallory.press("1", "alice's seat waits for them")
            await mallory.close()
            alice = await Term.connect(srv.port, "alice", client_keys=[key1])
            await alice.wait_for("Your hand")           # the real alice goes straight back to it
            await alice.close()
    run(main())


def test_the_password_lets_in_and_a_wrong_one_does_not() -> None:
    async def main() -> None:
        async with serving(open=False, password="open sesame") as srv:
            alice = await Term.connect(srv.port, "alice", password="open sesame")
            await alice.wait_for("alice ✓ — 1 online")
            with pytest.raises(asyncssh.PermissionDenied):
                await Term.connect(srv.port, "bob", password="open says me")
            with pytest.raises(asyncssh.PermissionDenied):
                await Term.connect(srv.port, "bob")                 # no password at all
            await alice.close()
    run(main())


@pytest.mark.parametrize(("user", "says"), [
    ("a" * 21, "at most 20 characters"),
    (" ", "the name is empty"),
])
def test_a_user_name_that_cannot_be_a_players_name_is_refused_with_the_reason(user: str, says: str) -> None:
    async def main() -> None:
        async with serving() as srv:
            with pytest.raises(asyncssh.DisconnectError, match=says):
                await Term.connect(srv.port, user)
            assert not srv.sessions
    run(main())


def test_a_name_with_control_characters_is_no_name() -> None:
    """(SSH clients and asyncssh refuse such user names before they reach the server; the check
    stands anyway.)"""
    with pytest.raises(NameRefused, match="control characters"):
        player_name("eve\x1b[2J")
    assert player_name(" ann ") == "ann"


def test_a_server_that_does_not_say_who_may_enter_does_not_start() -> None:
    with pytest.raises(ConfigError, match="--authorized-keys FILE, --password, or --open"):
        Server(config(open=False))
    with pytest.raises(ConfigError, match="cannot go with"):
        Server(config(open=True, password="x"))


def test_the_host_key_is_made_once_private_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "server" / "ssh_host_ed25519_key"
    key, made = host_key(path)
    assert made
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again, made_again = host_key(path)
    assert not made_again
    assert again.get_fingerprint() == key.get_fingerprint()
    os.chmod(path, 0o644)
    with pytest.raises(ConfigError, match="chmod 600"):
        host_key(path)


def test_the_server_keeps_its_host_key_across_restarts() -> None:
    async def main() -> tuple[str, str]:
        async with serving() as one:
            first = one.fingerprint
        async with serving() as two:
            return first, two.fingerprint
    first, second = run(main())
    assert first == second and first.startswith("SHA256:")


def test_a_port_in_use_is_said_and_nothing_is_left_running() -> None:
    async def main() -> None:
        async with serving() as one:
            with pytest.raises(ConfigError, match=f"cannot listen on 127.0.0.1 port {one.port}"):
                async with serving(port=one.port):
                    pass
    run(main())


# ---------------------------------------------------------------------- guesses made by others
PASSWORD = "open sesame"
ELSEWHERE = ("127.0.0.2", 0)


async def refused(port: int, name: str, says: str = "", **options: object) -> None:
    with pytest.raises(asyncssh.PermissionDenied) as told:
        await Term.connect(port, name, **options)      # type: ignore[arg-type]
    assert says in told.value.reason, told.value.reason


def test_wrong_passwords_typed_as_alice_elsewhere_never_lock_out_alice_with_her_key() -> None:
    """Before: in password mode, three wrong passwords as ``alice`` from another address, then one
    try every 10 s, and the real alice (her key, the right password, her own address) was refused 7
    times of 8, seeing only "Permission denied": the throttle counted the name.  Now it counts the
    place guessing and the name guessed for there, and a key that holds a name pays only for its own
    wrong passwords."""
    async def main() -> None:
        async with serving(open=False, password=PASSWORD, login_attempts=3) as srv:
            alice = await Term.connect(srv.port, "alice", password=PASSWORD)     # her key reserves alice
            await alice.wait_for("alice ✓")
            await alice.close()
            for i in range(3):
                await refused(srv.port, "alice", guest=True, password=f"wrong {i}", local_addr=ELSEWHERE)
            # The place that guessed is locked, even with the password, and a fresh key buys it nothing.
            locked = "Too many wrong passwords with your address: try again in a quarter of an hour"
            await refused(srv.port, "mallory", locked, guest=True, password=PASSWORD, local_addr=ELSEWHERE)
            await refused(srv.port, "alice", locked, password=PASSWORD, local_addr=ELSEWHERE,
                          client_keys=[asyncssh.generate_private_key("ssh-ed25519")])
            for _ in range(3):                           # alice, again and again: never refused
                alice = await Term.connect(srv.port, "alice", password=PASSWORD)
                await alice.wait_for("alice ✓")
                await alice.close()
            # alice's key with her password from the very place that guessed: still alice.
            alice = await Term.connect(srv.port, "alice", password=PASSWORD, local_addr=ELSEWHERE)
            await alice.wait_for("alice ✓")
            await alice.close()
            # Her own wrong passwords cost her key (3, then refused even with the right one).
            for i in range(3):
                await refused(srv.port, "alice", password=f"typo {i}")
            await refused(srv.port, "alice", "Too many wrong passwords with your key", password=PASSWORD)
    run(main())


def test_wrong_seat_codes_typed_as_gus_elsewhere_never_keep_gus_from_his_seat() -> None:
    """Before: three wrong codes typed as ``gus`` from anywhere made the real gus, with his seat's
    code, wait ("Wrong codes cost time"), again after every further wrong one: his seat could be
    held from him for as long as somebody kept typing."""
    async def main() -> None:
        async with serving() as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            await create_table(alice)
            gus = await Term.connect(srv.port, "gus", guest=True)
            header = await gus.press("2", "2  ~gus (you)")
            code = re.search(r"code ([A-Z0-9]{4}-[A-Z0-9]{4})", header)
            assert code is not None, header
            await alice.press("s", "hand 1")
            await gus.wait_for("Your hand (11 cards)")
            await gus.close()
            await settle(srv, lambda: 1 not in srv.registry.tables[1].links)
            for _ in range(3):
                t = await Term.connect(srv.port, "gus+WRNGCDE2", guest=True, local_addr=ELSEWHERE)
                await t.wait_for("no seat has that code")
                await t.wait_closed()
            t = await Term.connect(srv.port, "gus+WRNGCDE3", guest=True, local_addr=ELSEWHERE)
            await t.wait_for("Wrong codes cost time")          # the place that guessed waits
            await t.wait_closed()
            back = await Term.connect(srv.port, "gus+" + code.group(1).replace("-", ""), guest=True)
            await back.wait_for("Your hand (11 cards)")
            for t in (alice, back):
                await t.close()
    run(main())


def test_table_codes_guessed_under_ever_new_names_cost_the_place_time() -> None:
    """Before: table codes were throttled per name only, so a new guest name for every guess gave
    13,500 guesses an hour from one address.  Now the place pays: the fourth wrong code from one
    address waits, whatever the name; another address is not held up."""
    async def main() -> None:
        async with serving() as srv:
            for n in range(4):
                t = await Term.connect(srv.port, f"guesser{n}", guest=True, local_addr=ELSEWHERE)
                await t.wait_for("No tables yet")
                said = "No table has that code" if n < 3 else "Wrong codes cost time"
                await t.press("g" + "WRONG1" + ENTER, said)
                await t.close()
            other = await Term.connect(srv.port, "ann", guest=True, local_addr=("127.0.0.3", 0))
            await other.wait_for("No tables yet")
            await other.press("g" + "WRONG1" + ENTER, "No table has that code")
            await other.close()
    run(main())


@pytest.mark.parametrize(("address", "counted"), [
    ("127.0.0.5", "127.0.0.5"),
    ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"),
    ("2001:db8:1:2::1", "2001:db8:1:2::/64"),          # the same /64: one machine, one home
    ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
    ("::ffff:192.0.2.7", "192.0.2.7"),
    ("fe80::1%eth0", "fe80::/64"),
    ("?", "?"),
])
def test_a_place_is_an_ipv4_address_or_an_ipv6_64(address: str, counted: str) -> None:
    assert place(address) == counted


def test_a_connection_over_ipv6_is_counted_by_its_64() -> None:
    """One real connection over ::1: the door counts it by its /64."""
    async def main() -> None:
        async with serving(host="::1") as srv:
            conn = await asyncssh.connect("::1", srv.port, username="alice", known_hosts=None, agent_path=None,
                                          client_keys=[key_of("alice")])
            await settle(srv, lambda: any(c.identity is not None for c in srv.connections))
            (door,) = [c for c in srv.connections if c.identity is not None]
            assert door.address == "::1" and door.place == "::/64"
            conn.close()
            await conn.wait_closed()
    run(main())


# ---------------------------------------------------------------------- an admin and their own address
def test_an_admin_cannot_ban_their_own_address_and_a_ban_never_locks_an_admin_out() -> None:
    """Before: an admin could ban the address they were connected from, and stayed locked out
    across restarts (an address ban was refused before any key was seen).  Now banning one's own
    address is refused with the reason, and an admin's key comes in from a banned address (after a
    restart too); everybody else from there is still refused, told why."""
    from canasta_tui.server.club.admin import AdminRefused
    from canasta_tui.server.door.auth import Identity

    from .helpers import fingerprint_of

    alice_is = Identity("alice", fingerprint_of("alice"))
    admins = frozenset({alice_is.fingerprint})

    async def main() -> None:
        async with serving(admins=admins) as srv:
            alice = await Term.connect(srv.port, "alice", local_addr=ELSEWHERE)
            await alice.wait_for("alice ✓")
            with pytest.raises(AdminRefused, match="You cannot ban the address you are connected from"):
                srv.admin.ban(alice_is, "127.0.0.2", 600)
            assert srv.admin.bans.address("127.0.0.2") is None
            await alice.close()
            await settle(srv, lambda: not srv.registry.clients)
            srv.admin.ban(alice_is, "127.0.0.2", 600)           # not connected from there now: a ban
        async with serving(admins=admins) as srv:               # a restart: the ban holds ...
            assert srv.admin.bans.address("127.0.0.2") is not None
            alice = await Term.connect(srv.port, "alice", local_addr=ELSEWHERE)     # ... but not for her key
            await alice.wait_for("alice ✓")
            await alice.close()
            with pytest.raises(asyncssh.DisconnectError, match="Your address is banned from this server until"):
                await Term.connect(srv.port, "bob", local_addr=ELSEWHERE)
            with pytest.raises(asyncssh.DisconnectError, match="Your address is banned from this server until"):
                await Term.connect(srv.port, "gus", guest=True, local_addr=ELSEWHERE)
            assert not srv.sessions
    run(main())
