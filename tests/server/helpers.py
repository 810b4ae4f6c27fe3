"""Real SSH in the tests: a server started in the test's own event loop on 127.0.0.1 (a free
port), and asyncssh clients at an 80x24 terminal whose screen a terminal emulator (pyte) reads.

Every wait here is bounded: a test that hangs fails with what the screen showed.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any

import asyncssh
import pyte

from canasta_tui.server import Server, ServerConfig
from canasta_tui.server.person import Refusal

#: How long any one wait for an event may take: generous, since the suite runs in parallel on a
#: busy 2-core machine (a wait that succeeds ends as soon as its event comes).
WAIT = 60.0

#: Keys as a terminal sends them.
ENTER, ESC, UP, DOWN, BACKSPACE = "\r", "\x1b", "\x1b[A", "\x1b[B", "\x7f"


_KEYS: dict[str, asyncssh.SSHKey] = {}


def key_of(name: str) -> asyncssh.SSHKey:
    """The SSH key of the person called ``name`` in these tests (made once)."""
    if name not in _KEYS:
        _KEYS[name] = asyncssh.generate_private_key("ssh-ed25519", comment=name)
    return _KEYS[name]


def key_file(directory: Path, name: str) -> Path:
    """``name``'s private key in a file, for OpenSSH's ``ssh -i`` (0600, as ssh insists)."""
    path = directory / f"id_{name}"
    if not path.exists():
        key_of(name).write_private_key(str(path))
        path.chmod(0o600)
    return path


def words(answer: Any) -> Any:
    """The server's answer with each refusal as its words (what the person is shown): a test reads them."""
    if isinstance(answer, Refusal):
        return answer.reason
    if isinstance(answer, tuple):
        return tuple(words(a) for a in answer)
    return answer


def fingerprint_of(name: str) -> str:
    return str(key_of(name).get_fingerprint("sha256"))


def run(coro: Coroutine[Any, Any, Any], timeout: float = 120.0) -> Any:
    """Run one test's coroutine, bounded."""
    return asyncio.run(asyncio.wait_for(coro, timeout))


def config(**changes: Any) -> ServerConfig:
    """A test server: 127.0.0.1, a free port, open, no pause after computer moves."""
    base = ServerConfig(host="127.0.0.1", port=0, open=True, delay_ms=0, seed=1, wrong_password_pause=0.01)
    return dataclasses.replace(base, **changes)


@contextlib.asynccontextmanager
async def serving(on_output: Callable[[Any, str], None] | None = None, shortest_turn: int | None = None,
                  **changes: Any) -> AsyncIterator[Server]:
    """A test server (``shortest_turn``: the turn timer's shortest choice in the lobby's form)."""
    async with Server(config(**changes), on_output=on_output, shortest_turn=shortest_turn) as srv:
        yield srv


class Term:
    """One player's terminal: an SSH session with a pseudo-terminal, its screen kept by pyte."""

    def __init__(self, conn: asyncssh.SSHClientConnection, proc: asyncssh.SSHClientProcess[str],
                 width: int = 80, height: int = 24) -> None:
        self.conn = conn
        self.proc = proc
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.Stream(self.screen)
        self.raw: list[str] = []          # everything received, as sent
        self.closed = asyncio.Event()
        self._data = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def connect(cls, port: int, name: str, *, width: int = 80, height: int = 24, guest: bool = False,
                      **options: Any) -> Term:
        """``name`` connects with their own key (the same one each time: they are a person), or,
        ``guest``, with no key at all (a password is sent, which open mode takes from anybody)."""
        if guest:
            options.setdefault("client_keys", None)
            options.setdefault("password", "guest")
        else:
            options.setdefault("client_keys", [key_of(name)])
        options.setdefault("agent_path", None)
        options.setdefault("known_hosts", None)          # (a test of the host key gives its own)
        conn = await asyncio.wait_for(asyncssh.connect("127.0.0.1", port, username=name, **options), WAIT)
        proc = await conn.create_process(term_type="xterm", term_size=(width, height))
        return cls(conn, proc, width, height)

    async def _read(self) -> None:
        try:
            while True:
                data = await self.proc.stdout.read(65536)
                if not data:
                    break
                self.raw.append(data)
                self.stream.feed(data)
                self._data.set()
        except (asyncssh.Error, OSError):
            pass
        finally:
            self.closed.set()
            self._data.set()

    # ------------------------------------------------------------------ reading the screen
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def line(self, y: int) -> str:
        return self.screen.display[y].rstrip()

    def received(self) -> str:
        return "".join(self.raw)

    async def wait_for(self, what: str | Callable[[str], bool], timeout: float = WAIT) -> str:
        """Wait until the screen shows ``what`` (text, or a test of the screen's text)."""
        test = (lambda s: what in s) if isinstance(what, str) else what
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            text = self.text()
            if test(text):
                return text
            left = deadline - loop.time()
            if left <= 0 or (self.closed.is_set() and not self._data.is_set()):
                raise AssertionError(f"the screen never showed {what!r}; it shows:\n{text}")
            self._data.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._data.wait(), min(left, 0.5))

    async def wait_closed(self, timeout: float = WAIT) -> None:
        await asyncio.wait_for(self.closed.wait(), timeout)

    # ------------------------------------------------------------------ typing
    def send(self, keys: str) -> None:
        self.proc.stdin.write(keys)

    async def press(self, keys: str, then: str | Callable[[str], bool]) -> str:
        self.send(keys)
        return await self.wait_for(then)

    async def close(self) -> None:
        self.conn.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.conn.wait_closed(), WAIT)
        self._task.cancel()


async def settle(srv: Server, test: Callable[[], bool], timeout: float = WAIT) -> None:
    """Wait until ``test()`` holds on the server's side."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not test():
        if loop.time() > deadline:
            raise AssertionError("the server never got there")
        await asyncio.sleep(0.01)


async def create_table(t: Term, *, level_steps: int = 0) -> str:
    """``t`` creates a table with the form's defaults (classic, advanced, 5000); the lobby's text."""
    await t.press("n", "New table")
    if level_steps:
        t.send(DOWN)
        t.send("\x1b[D" * level_steps if level_steps < 0 else "\x1b[C" * level_steps)
    return await t.press(ENTER, "is yours")


async def two_at_a_table(srv: Server) -> tuple[Term, Term]:
    """alice (Player 1) and bob (Player 3) at table 1, started; computers play 2 and 4."""
    alice = await Term.connect(srv.port, "alice")
    await alice.wait_for("No tables yet")
    await create_table(alice)
    bob = await Term.connect(srv.port, "bob")
    await bob.press("3", "3  bob✓ (you)")
    await alice.press("s", "hand 1")
    await bob.wait_for("Your hand (11 cards)")
    return alice, bob


def lit(bar: str, label: str) -> bool:
    """Is a command lit on the table's command bar (its hotkey in brackets)?"""
    return label in bar


def table_key(screen: str) -> str | None:
    """The key a simple player presses at the table, read from the screen alone (None: wait)."""
    lines = screen.split("\n")
    bar, status = lines[-1], lines[-2]
    if "(press any key)" in screen:
        return "x"
    if "May I go out, partner?" in screen and "y: Yes" in screen:
        return "n"
    if " is over " in lines[0] and "Hand " in lines[0]:
        return ENTER
    if "Enter: next hand" in screen or "Enter: continue" in screen or "Enter: leave the table" in screen:
        return ENTER
    if "How do you want to take the pile?" in screen:
        return "1"
    if lit(bar, "[D]raw"):
        return "d"
    if lit(bar, "[E]nd"):
        return "e"
    if lit(bar, "Dis[c]ard"):
        return "c"
    if lit(bar, "[P]ile"):
        return "p"
    del status
    return None


async def drive(t: Term, until: Callable[[str], bool], timeout: float = 90.0,
                watch: Callable[[str], None] | None = None) -> str:
    """Play by keys, reading only ``t``'s screen, until ``until(screen)``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        screen = t.text()
        if watch is not None:
            watch(screen)
        if until(screen):
            return screen
        if loop.time() > deadline:
            raise AssertionError(f"play never got there; the screen shows:\n{screen}")
        key = table_key(screen)
        if key is not None:
            t.send(key)
        with contextlib.suppress(AssertionError):
            await t.wait_for(lambda s, before=screen: s != before, timeout=1.0 if key else 0.3)


def log_of(screen: str) -> list[str]:
    """The table's log as an 80x24 screen shows it: the earlier moves in the centre column (below
    its "─ log ─" line, wrapped lines joined) and the latest move on the line under the table."""
    from canasta_tui.ui.render import table_layout

    lines = screen.split("\n")
    if len(lines) < 24:
        return []
    layout = table_layout(80, 24)
    c = layout.centre
    column = [line[c.x + 1:c.x + c.w - 1].rstrip() if len(line) > c.x else "" for line in lines[c.y:c.y + c.h]]
    out: list[str] = []
    try:
        top = next(i for i, cell in enumerate(column) if cell.lstrip().startswith("─ log ─"))
    except StopIteration:
        top = len(column)
    for cell in column[top + 1:]:
        if cell.startswith("  ") and out:
            out[-1] += " " + cell.strip()
        elif cell.strip():
            out.append(cell.strip())
    latest = lines[layout.log_row][:80 - len("g: log") - 2].strip()
    if latest:
        out.append(latest)
    return out


def in_log(text: str) -> Callable[[str], bool]:
    """A screen test: an entry of the log panel holds ``text``."""
    return lambda screen: any(text in entry for entry in log_of(screen))
