"""End to end over SSH (issue 11): the installed ``canasta serve`` on 127.0.0.1, and the system's
own OpenSSH client in tmux at 80x24 joining it and playing a turn, as a friend would with
``ssh -p 2222 HOST``.  Every wait is bounded; the server and tmux are always stopped."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .test_tmux import CANASTA, Tmux

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None or shutil.which("ssh") is None or not CANASTA.exists(),
    reason="needs tmux, the OpenSSH client and the installed canasta (.ci/run installs them)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[int]:
    """``canasta serve --open`` on 127.0.0.1 and a free port, in a home of its own."""
    port = free_port()
    env = dict(os.environ, CANASTA_HOME=str(tmp_path / "server-home"), HOME=str(tmp_path))
    proc = subprocess.Popen([str(CANASTA), "serve", "--open", "--host", "127.0.0.1", "--port", str(port),
                             "--delay", "0"], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 20
        while True:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if proc.poll() is not None or time.monotonic() > deadline:
                out = proc.communicate(timeout=5)[0] if proc.poll() is not None else ""
                raise AssertionError(f"canasta serve did not start: {out}")
            time.sleep(0.1)
        yield port
    finally:
        with_group = os.getpgid(proc.pid) if proc.poll() is None else None
        if with_group is not None:
            os.killpg(with_group, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


def key_file(directory: Path, name: str) -> Path:
    """A private key of ``name``'s own for ``ssh -i`` (0600, as ssh insists)."""
    import asyncssh

    path = directory / f"id_{name}"
    if not path.exists():
        asyncssh.generate_private_key("ssh-ed25519", comment=name).write_private_key(str(path))
        path.chmod(0o600)
    return path


@pytest.fixture
def ssh_pane(tmp_path: Path, server: int) -> Iterator[Callable[..., Tmux]]:
    """A tmux pane at 80x24 running OpenSSH's ``ssh`` to the server, as user ``name``."""
    t = Tmux(f"canasta-ssh-{uuid.uuid4().hex[:8]}")

    def start(name: str, key: bool = True) -> Tmux:
        """``name`` with their own key (as OpenSSH offers ~/.ssh/id_* by default), or a guest
        with none (keyboard-interactive asks nothing)."""
        auth = (f"-i {key_file(tmp_path, name)} -o PreferredAuthentications=publickey" if key else
                "-o PreferredAuthentications=none,keyboard-interactive")
        ssh = (f"ssh -F /dev/null -p {server} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null "
               f"-o LogLevel=ERROR -o IdentitiesOnly=yes {auth} {name}@127.0.0.1")
        t.run("new-session", "-d", "-s", "t", "-x", "80", "-y", "24",
              f"env -i PATH=/usr/bin:/bin HOME={tmp_path} LANG=C.UTF-8 TERM=xterm-256color {ssh}")
        return t
    try:
        yield start
    finally:
        subprocess.run(["tmux", "-L", t.socket, "kill-server"], capture_output=True, timeout=10)


def test_openssh_in_tmux_joins_the_server_and_plays_a_turn(ssh_pane: Callable[..., Tmux]) -> None:
    t = ssh_pane("ann")
    screen = t.wait(lambda s: "No tables yet" in s, timeout=20)
    assert "ann ✓ — 1 online" in screen          # known by her key
    t.keys("n")
    t.wait(lambda s: "New table" in s)
    t.keys("Enter")
    t.wait(lambda s: "is yours" in s)
    t.keys("s")
    # The table at 80x24: four quadrants, ann's hand, the command bar with Draw lit.
    screen = t.wait(lambda s: "CANASTA — classic rules — hand 1" in s and "[D]raw" in s, timeout=20)
    lines = screen.splitlines()
    assert len(lines) <= 24 and "Your hand (11 cards)" in screen and "● ann" in screen
    t.keys("d")
    screen = t.wait(lambda s: "Your hand (12 cards)" in s and "Dis[c]ard" in s)
    t.keys("c")
    # The turn passed: the computers play, and it comes back to ann with a draw to make.
    screen = t.wait(lambda s: "Your hand (11 cards)" in s and "[D]raw" in s
                    and "Player 4" in (s.splitlines() + [""] * 24)[17], timeout=30)   # the latest move: Player 4's
    # Leaving the table returns to the lobby; leaving the lobby ends the SSH session.
    t.keys("q")
    t.wait(lambda s: "Leave the table?" in s)
    t.keys("y")
    screen = t.wait(lambda s: "Lobby chat" in s and "1 table" in s)
    assert "Your hand" not in screen


def test_openssh_without_a_key_comes_in_as_a_guest(ssh_pane: Callable[..., Tmux]) -> None:
    t = ssh_pane("gus", False)
    screen = t.wait(lambda s: "No tables yet" in s, timeout=20)
    assert "~gus (guest, code " in screen
