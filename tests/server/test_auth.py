"""Who may enter: the keys of an authorized-keys file, a password, or anybody in open mode (asked
for by name); the user name is the player's name; the host key is made once and kept private."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import asyncssh
import pytest

from canasta_tui.server import ConfigError, Server
from canasta_tui.server.auth import NameRefused, player_name
from canasta_tui.server.hostkey import host_key

from .helpers import Term, config, create_table, run, serving, settle


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
            assert set(srv.registry.clients) == {f"key:{fp}"}
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
