"""What a server open to a group must take: huge pastes and floods, garbage bytes, too many
connections, idle connections, slow logins, and requests for anything but the game (a shell
command, SFTP, port forwarding).  The others at the server go on playing through all of it."""

from __future__ import annotations

import asyncio
import shutil
import time
from pathlib import Path

import asyncssh
import pytest

from .helpers import WAIT, Term, key_file, run, serving, settle


async def responsive(t: Term) -> bool:
    """The server answers keys of ``t`` (open and close the lobby's help), each within the helpers'
    generous wait: how fast is a bench's figure, not a test's."""
    await t.press("?", "Lobby keys")
    await t.press("x", lambda s: "Lobby keys" not in s)
    return True


def test_a_huge_paste_is_dropped_with_a_note_and_the_player_goes_on() -> None:
    async def main() -> None:
        async with serving() as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            alice.send("n" * 20000)          # one paste, far over the burst allowed
            await alice.wait_for("Too much input at once")
            assert "New table" not in alice.text()
            await asyncio.sleep(0.5)         # the allowance fills again
            await alice.press("n", "New table")
            session = next(iter(srv.sessions))
            assert session.dropped_in >= 20000
            await alice.close()
    run(main())


@pytest.mark.parametrize("bracketed", [False, True], ids=["plain", "bracketed"])
def test_a_1_mb_paste_is_ignored_with_a_note_and_the_player_stays_and_plays_on(bracketed: bool) -> None:
    """The man page says a huge paste is ignored with a note; 256 KB dropped in a row closed the
    connection ("Too much input: disconnected.").  Nothing of it is typed either: a paste comes
    in pieces, and its last one, small enough to be let through, typed its text as keys."""
    async def main() -> None:
        async with serving() as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            paste = "n" * (1024 * 1024 + 100)        # (its last piece small)
            alice.send("\x1b[200~" + paste + "\x1b[201~" if bracketed else paste)
            await alice.wait_for("Too much input at once (a paste?): it was ignored")
            session = next(iter(srv.sessions))
            await settle(srv, lambda: session.bytes_in >= len(paste))
            await asyncio.sleep(0.5)             # the paste is over; the allowance fills again
            assert "New table" not in alice.text() and not alice.closed.is_set()
            assert session.dropped_in >= len(paste)
            await alice.press("n", "New table")  # and she plays on
            await alice.close()
    run(main())


def test_a_flood_far_beyond_any_paste_closes_that_connection_and_the_others_keep_playing() -> None:
    async def main() -> None:
        async with serving() as srv:
            bob = await Term.connect(srv.port, "bob")
            await bob.wait_for("No tables yet")
            mallory = await Term.connect(srv.port, "mallory")
            await mallory.wait_for("No tables yet")
            flood = srv.config.input_flood
            waits = []

            async def send() -> None:
                for _ in range(flood // 65536 * 3 // 2):      # 12 MB, as fast as SSH takes it
                    mallory.send("x" * 65536)
                    await asyncio.sleep(0)

            flooding = asyncio.ensure_future(send())
            for _ in range(5):
                waits.append(await responsive(bob))
            await mallory.wait_closed()
            flooding.cancel()
            assert "Your terminal sent more than 8 MB in 10 s, far more than any paste: disconnected." in \
                mallory.received().replace("\r\n", " ")
            assert waits == [True] * 5          # bob was answered all along
            await bob.close()
    run(main())


def test_garbage_bytes_and_stray_escape_sequences_break_nothing() -> None:
    async def main() -> None:
        async with serving() as srv:
            conn = await asyncssh.connect("127.0.0.1", srv.port, username="eve", known_hosts=None,
                                          client_keys=None, agent_path=None, password="guest")
            proc = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
            junk = (b"\xff\xfe\xc3\x28\x1b[999;999R\x1b[M\x00\x01\x1b[<1;2M\x1b[31m\x1b]0;x\x07\x1bP+q\x1b\\"
                    b"\x1b[200~half a paste\x00\x1b[?1049h\x1b[6n\x1b\x1b\x1b[1;5;9~\x1b[99Z")
            proc.stdin.write(junk)
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("2 online")
            assert await responsive(alice)
            # eve's own screen still works after all that.
            proc.stdin.write(b"\x1b[201~n")
            data = b""
            deadline = time.monotonic() + WAIT
            while b"New table" not in data and time.monotonic() < deadline:
                data += await asyncio.wait_for(proc.stdout.read(65536), WAIT)
            assert b"New table" in data
            conn.close()
            await alice.close()
    run(main())


def test_too_many_connections_from_one_address_are_refused_with_a_message() -> None:
    async def main() -> None:
        async with serving(max_per_address=2) as srv:
            a = await Term.connect(srv.port, "a")
            b = await Term.connect(srv.port, "b")
            with pytest.raises(asyncssh.DisconnectError, match="Too many connections from your address"):
                await Term.connect(srv.port, "c")
            await b.close()
            await asyncio.sleep(0.1)
            c = await Term.connect(srv.port, "c")          # a place is free again
            await c.wait_for("c ✓ —")
            for t in (a, c):
                await t.close()
    run(main())


def test_a_full_server_says_so() -> None:
    async def main() -> None:
        async with serving(max_connections=1) as srv:
            a = await Term.connect(srv.port, "a")
            with pytest.raises(asyncssh.DisconnectError, match="The server is full"):
                await Term.connect(srv.port, "b")
            await a.close()
    run(main())


def test_an_idle_connection_is_warned_then_closed() -> None:
    async def main() -> None:
        async with serving(idle_timeout=1.0, idle_warning=0.6, tick=0.05) as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("Nobody has pressed a key here for a while")
            await alice.wait_closed()
            assert "No key pressed for 1 s: disconnected" in alice.received()
            assert not srv.sessions
    run(main())


def test_a_login_that_never_comes_is_cut_off() -> None:
    async def main() -> None:
        async with serving(login_timeout=0.5) as srv:
            reader, writer = await asyncio.open_connection("127.0.0.1", srv.port)
            banner = await asyncio.wait_for(reader.readline(), WAIT)
            assert banner.startswith(b"SSH-2.0-canasta")
            rest = await asyncio.wait_for(reader.read(), WAIT)     # nothing more from us: closed
            assert isinstance(rest, bytes)
            writer.close()
    run(main())


def test_a_login_that_opens_no_game_is_closed_and_gives_its_place_back() -> None:
    """A connection that logs in and then does nothing (no session, or none after its game ended)
    held a place at the server for ever."""
    async def main() -> None:
        async with serving(login_timeout=0.5) as srv:
            conn = await asyncio.wait_for(asyncssh.connect("127.0.0.1", srv.port, username="idle", known_hosts=None,
                                                           client_keys=None, agent_path=None, password="guest"), WAIT)
            await settle(srv, lambda: len(srv.connections) == 1)
            await asyncio.wait_for(conn.wait_closed(), WAIT)
            await settle(srv, lambda: not srv.connections)
            # After a game, too: the session ends, the connection goes soon after.
            t = await Term.connect(srv.port, "ann")
            await t.wait_for("No tables yet")
            await t.press("q", "Leave the server?")
            t.send("y")
            await asyncio.wait_for(t.conn.wait_closed(), WAIT)
            await settle(srv, lambda: not srv.connections)
    run(main())


def test_no_command_no_sftp_and_no_forwarding_only_the_game() -> None:
    async def main() -> None:
        async with serving() as srv:
            async with asyncssh.connect("127.0.0.1", srv.port, username="eve", known_hosts=None,
                                        client_keys=None, agent_path=None, password="guest") as conn:
                with pytest.raises(asyncssh.ChannelOpenError):
                    await conn.run("cat /etc/passwd")
                with pytest.raises(asyncssh.ChannelOpenError):
                    await conn.start_sftp_client()
                with pytest.raises(asyncssh.ChannelOpenError):
                    await conn.create_connection(asyncssh.SSHTCPSession, "127.0.0.1", srv.port)
                with pytest.raises(asyncssh.ChannelListenError):
                    await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22)
                with pytest.raises(asyncssh.ChannelOpenError):
                    await conn.create_unix_connection(asyncssh.SSHUNIXSession, "/run/anything.sock")
                # A session without a terminal is told how to connect.
                result = await conn.run(term_type=None, check=False)
                assert "canasta needs a terminal: connect with ssh -t" in str(result.stdout)
                assert result.exit_status == 1
    run(main())


@pytest.mark.skipif(shutil.which("ssh") is None, reason="the OpenSSH client is not installed (.ci/run installs it)")
def test_openssh_without_a_terminal_is_told_and_let_go(tmp_path: Path) -> None:
    """Reproduction: ``ssh -T`` with its input closed hung until killed.  The session saw the
    client's end of input and closed its channel at once, before it had said why; OpenSSH then
    waited for an exit status that never came."""
    async def main() -> None:
        async with serving() as srv:
            for _ in range(3):
                proc = await asyncio.create_subprocess_exec(
                    "ssh", "-T", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                    "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes", "-i", str(key_file(tmp_path, "alice")),
                    "-p", str(srv.port), "alice@127.0.0.1",
                    stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
                out, _ = await asyncio.wait_for(proc.communicate(), WAIT)
                assert proc.returncode == 1
                assert b"canasta needs a terminal: connect with ssh -t" in out
    run(main())


def test_the_addresses_of_one_ipv6_64_share_the_limits_of_one_address() -> None:
    """An IPv6 /64 is one machine (or one home): its 2^64 addresses rotated through would each have
    had the limits of an address.  The door counts every limit "from one address" by place."""
    from typing import Any

    from canasta_tui.server import Server
    from canasta_tui.server.door.auth import place

    from .helpers import config

    srv = Server(config(max_per_address=2))

    class Door:                      # what the limits read of a connection
        def __init__(self, address: str) -> None:
            self.address, self.place, self.progress, self.heard = address, place(address), 0, 0.0

    def connection(address: str) -> Any:
        return Door(address)

    assert srv.admit(connection("2001:db8::1")) == ""
    assert srv.admit(connection("2001:db8::ffff:2")) == ""
    assert srv.admit(connection("2001:db8::1:0:0:3")) == "Too many connections from your address (at most 2)"
    assert srv.admit(connection("2001:db8:0:1::1")) == ""               # the next /64: another place
    assert srv.admit(connection("127.0.0.2")) == srv.admit(connection("127.0.0.3")) == ""
