"""SIGTERM and SIGHUP while the table runs (issue 10, item 12).

SIGTERM during an autosave write showed "Unhandled exception in event loop ... SystemExit: 143"
(2 of 65 runs): the exit saver raised SystemExit from a Python signal handler, which ran inside
the computer-player task that was writing the autosave, and prompt-toolkit reported the task's
exception.  The table now turns the signal into a clean exit on the event loop and hands it to
the exit saver once the terminal is restored.

The game runs under a pseudo-terminal, four computers at delay 0 (an autosave after every
action).  The first tests slow every fsync down and send the signal while a write is under way,
the moment that failed; the last sends SIGTERM to the installed ``canasta`` at random moments.
Each run is bounded in time.
"""

from __future__ import annotations

import fcntl
import os
import pty
import random
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from canasta_tui.persistence import load_file, paths

CANASTA = Path(sys.executable).with_name("canasta")
FSYNC_MARK = b"<fsync>"
#: prompt-toolkit switches to the alternate screen when the table's app starts.
SCREEN_STARTED = b"\x1b[?1049h"

#: The program, with every fsync slowed down and announced on the terminal.
SLOW_WRITES = f"""
import os, sys, time
real_fsync = os.fsync
def slow_fsync(fd):
    real_fsync(fd)
    os.write(2, {FSYNC_MARK!r})
    time.sleep(0.2)
os.fsync = slow_fsync
from canasta_tui.cli import main
main(sys.argv[1:], prog_name="canasta")
"""

#: The installed command's entry point, announcing (a file) when its start-up handler is in place,
#: with every import after that slowed down: a signal sent then falls while the game still imports.
SLOW_START_UP = """
import builtins, pathlib, sys, time
import canasta_tui.entry as entry
real_signal = entry.signal.signal
def announce(*args):
    old = real_signal(*args)
    if args[0] == entry.START_UP_SIGNALS[-1]:
        pathlib.Path(MARKER).touch()
    return old
entry.signal.signal = announce
real_import = builtins.__import__
def slow_import(*args, **kwargs):
    time.sleep(0.002)
    return real_import(*args, **kwargs)
builtins.__import__ = slow_import
sys.argv[0] = "canasta"
entry.main()
"""


class Run:
    """One game under a pseudo-terminal of 80x24."""

    def __init__(self, argv: list[str], home: Path) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        env = dict(os.environ, CANASTA_HOME=str(home), TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8")
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
        os.close(slave)
        self.out = b""

    def read(self, until: float) -> bool:
        """Collect output until the deadline; False once the program has closed the terminal."""
        while time.monotonic() < until:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                if self.proc.poll() is not None:
                    return False
                continue
            try:
                data = os.read(self.master, 65536)
            except OSError:          # EIO: the last process holding the terminal is gone
                return False
            if not data:
                return False
            self.out += data
        return True

    def finish(self, timeout: float = 15) -> tuple[int, str]:
        self.read(time.monotonic() + timeout)
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
            pytest.fail("the game did not stop after the signal:\n" + self.out.decode(errors="replace")[-2000:])
        finally:
            os.close(self.master)
        return code, self.out.decode(errors="replace")


def check_clean_exit(code: int, out: str, sig: int, table_shown: bool = True) -> None:
    """The exit is the exit savers' (128 + signal), with no traceback; once the table was on the screen
    the autosave is whole and loads, and no half-written temporary file is ever left beside it."""
    assert "Unhandled exception" not in out and "Traceback" not in out, out[-3000:]
    assert code == 128 + sig, out[-3000:]
    if table_shown or paths.autosave_path().exists():
        game = load_file(paths.autosave_path())
        assert game.match.winner is None
    if paths.state_dir().exists():
        assert [p.name for p in paths.state_dir().iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.parametrize(("seed", "sig", "again"), [(1, signal.SIGTERM, False), (2, signal.SIGTERM, True),
                                                     (3, signal.SIGHUP, False)])
def test_a_signal_during_an_autosave_write_exits_cleanly(home: Path, seed: int, sig: int, again: bool) -> None:
    """SIGTERM during an autosave write: "Unhandled exception in event loop ... SystemExit: 143"."""
    run = Run([sys.executable, "-c", SLOW_WRITES, "--players", "0", "--delay", "0", "--seed", str(seed)], home)
    deadline = time.monotonic() + 30
    while run.out.count(FSYNC_MARK) < 3:           # a few actions in, and a write under way right now
        alive = run.read(time.monotonic() + 0.05)
        assert alive and time.monotonic() < deadline, run.out.decode(errors="replace")[-2000:]
    run.proc.send_signal(sig)
    if again:                                       # and once more while it is stopping
        time.sleep(0.05)
        if run.proc.poll() is None:
            run.proc.send_signal(sig)
    check_clean_exit(*run.finish(), sig)


@pytest.mark.skipif(not CANASTA.exists(), reason="needs the installed canasta")
def test_sigterm_at_random_moments_always_exits_cleanly(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(12)
    for trial in range(4):
        h = home / str(trial)
        run = Run([str(CANASTA), "--players", "0", "--delay", "0", "--seed", str(trial)], h)
        monkeypatch.setenv("CANASTA_HOME", str(h))    # for paths.* in the checks
        run.read(time.monotonic() + rng.uniform(0.5, 1.5))
        # On a busy machine the moment can fall while Python is still importing: the start-up
        # handler (canasta_tui.entry) must make that a clean exit too, not a death by SIGTERM.
        table_shown = SCREEN_STARTED in run.out
        run.proc.send_signal(signal.SIGTERM)
        check_clean_exit(*run.finish(), signal.SIGTERM, table_shown)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_while_the_program_is_still_starting_exits_cleanly(home: Path, tmp_path: Path, sig: int) -> None:
    """A SIGTERM in the first moments of start-up (issue 31: exit status -15, "killed", instead of
    143): the installed command is signalled as soon as its Python runs our code, before click,
    prompt-toolkit or the table are imported, and it still exits as the exit savers would."""
    marker = tmp_path / "handler-in-place"
    probe = SLOW_START_UP.replace("MARKER", repr(str(marker)))
    run = Run([sys.executable, "-c", probe, "--players", "0", "--delay", "0", "--seed", "1"], home)
    deadline = time.monotonic() + 60
    while not marker.exists():                      # the start-up handler is in place: imports go on
        assert run.read(time.monotonic() + 0.01) and time.monotonic() < deadline, run.out.decode(errors="replace")
    assert SCREEN_STARTED not in run.out
    run.proc.send_signal(sig)
    check_clean_exit(*run.finish(), sig, table_shown=False)
