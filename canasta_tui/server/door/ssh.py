"""The SSH side of the server: asyncssh connections and prompt-toolkit sessions.

Each TCP connection is a :class:`Connection` (who may enter, connection limits); its one
session is a :class:`GameSession`, prompt-toolkit's :class:`PromptToolkitSSHSession` with
what a server open to a group of friends needs on top:

* a terminal or nothing: a session without a pseudo-terminal is told to use ``ssh -t``;
  exec, subsystems (SFTP), and forwarding of any kind are refused;
* input is metered per connection (``input_rate`` bytes a second, bursts of
  ``input_burst``): a paste over that, however big, is dropped whole with a note instead of
  stalling the server, and only a flood far beyond any paste (``input_flood`` bytes dropped
  within ``input_flood_window`` seconds) closes the connection;
* a client that stops reading what it is sent is closed before its backlog grows without end;
* the terminal's size is taken at most ``max_columns`` x ``max_rows`` (what a paint costs grows
  with its cells: one window-change to 10000x10000 held every player for 12 s), and a burst of
  window-changes is painted at most :data:`RESIZES_PER_S` times a second;
* every byte sent goes through :meth:`GameSession.write`, where a hook can record it
  (:attr:`Server.on_output <canasta_tui.server.server.Server.on_output>`).

What a connection needs of the server that accepted it is :class:`Host` (the server's
:class:`~canasta_tui.server.server.Server` is one): this module does not import the server,
which imports this one.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
from collections.abc import Callable, Mapping
from typing import Protocol, TextIO, cast

import asyncssh
from asyncssh.public_key import decode_ssh_public_key
from prompt_toolkit.application.current import create_app_session
from prompt_toolkit.contrib.ssh import PromptToolkitSSHSession
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import PipeInput, create_pipe_input, typeahead
from prompt_toolkit.output.vt100 import Vt100_Output

from ...terminal import MIN_H, MIN_W
from ...text import printable
from ...ui.app import HOT_PAINTS_PER_S
from ...ui.canvas import DEFAULT_OPTIONS, Options
from ...ui.style import ASCII, LOCALE_VARS
from ..club.admin import Admin, ban_message, when
from ..config import ServerConfig
from ..lobby.registry import Registry
from ..lobby.service import CODE_MAX
from ..memory import Collector
from .auth import (
    Gate,
    Identity,
    NameRefused,
    code_text,
    fingerprint,
    guest_identity,
    new_guest_code,
    place,
    plain_address,
    player_name,
)
from .client import ServerApp
from .names import skeleton

log = logging.getLogger("canasta.server")

NO_TERMINAL = ("canasta needs a terminal: connect with ssh -t (and without a command), "
               "from a terminal window.\r\n")

_ids = itertools.count(1)

#: A paste is over when its terminal has sent nothing for this long (seconds): until then all of
#: it is dropped, its tail too (a paste arrives in pieces, and the last one, small enough to be let
#: through, typed its text as keys).
PASTE_QUIET = 0.25

#: A terminal resized again and again (a window dragged, or a client sending window-changes as
#: fast as it can) is painted anew at most this often: each of those paints is a whole screen.
RESIZES_PER_S = HOT_PAINTS_PER_S


def utf8_locale(env: dict[str, str]) -> bool:
    """Does the client's locale (the first of LC_ALL, LC_CTYPE, LANG it sent) take UTF-8?  A locale
    not sent, or one whose name does not say, counts as UTF-8 (today's terminals)."""
    name = next((env[v] for v in LOCALE_VARS if env.get(v)), "")
    if name in ("C", "POSIX"):
        return False
    base = name.split("@", 1)[0]
    if "." not in base:
        return True
    return base.split(".", 1)[1].lower().replace("-", "").replace("_", "") == "utf8"


def _size(n: int) -> str:
    """A number of bytes in words: 8 MB, 256 KB, 100 bytes."""
    for unit, name in ((1024 * 1024, "MB"), (1024, "KB")):
        if n >= unit:
            return f"{n / unit:g} {name}"
    return f"{n} bytes"


def _forget_typeahead(pipe: PipeInput) -> None:
    """prompt-toolkit keeps the keys an app had not read when it ended, for the next app on the
    same input, in a dict of its module keyed by the input: a new key ("pipe-input-N") for every
    connection, never removed, one entry more with every login for as long as the server runs."""
    kept = getattr(typeahead, "_buffer", None)
    if isinstance(kept, dict):
        kept.pop(pipe.typeahead_hash(), None)


class Host(Protocol):
    """What a connection and its session use of the server that accepted them
    (:class:`canasta_tui.server.server.Server`)."""

    @property
    def config(self) -> ServerConfig: ...
    @property
    def gate(self) -> Gate: ...                     # who may enter
    @property
    def collector(self) -> Collector: ...           # the garbage collector's freezes
    @property
    def registry(self) -> Registry: ...             # the tables
    @property
    def admin(self) -> Admin: ...                   # the admins' actions and the bans at the door
    @property
    def sessions(self) -> set[GameSession]: ...     # the connected players' sessions
    @property
    def on_output(self) -> Callable[[GameSession, str], None] | None: ...   # sees every text sent

    def admit(self, c: Connection) -> str: ...      # "" to let it in, else why not
    def spoke(self, c: Connection) -> None: ...     # its first bytes came
    def key_proven(self, c: Connection, lets_in: bool) -> str: ...     # "" or why not
    def logged_in(self, c: Connection) -> str: ...  # "" or why not
    def release(self, c: Connection) -> None: ...


class Connection(asyncssh.SSHServer):
    """One TCP connection: the limits, the player's name, and how they prove who they are.

    A key is *proven* when the client signs with it (asyncssh checks the signature after
    :meth:`validate_public_key` said the key may be tried): only then is it the person.  A key
    that was merely offered proves nothing (public keys are public), so the identity is made
    in :meth:`auth_completed`, from the proven key or, failing one, as a guest.
    """

    def __init__(self, server: Host, source: str | None = None) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        #: The player's address as a PROXY header gave it (behind HAProxy: :mod:`.proxy`); None: the
        #: socket's own peer is the player.
        self.source = source
        self.address = "?"
        self.place = "?"                # the address as limits count it (an IPv6 address by its /64)
        self.refused = ""
        self.name = ""
        self.proven: asyncssh.SSHKey | None = None     # the key this client signed with
        self.guest_code = ""                           # a guest's code (shown to them alone)
        self.seat_code = ""                            # the code a returning guest logged in with
        self.identity: Identity | None = None
        self.playing: GameSession | None = None     # the game this connection runs (one at a time)
        self.counted = False
        self.banned = ""              # the address is banned: only an admin's key comes in (why not)
        #: How far the login has got (:attr:`progress`), and when the client last sent anything (the
        #: loop's time): the login budget lets go of the least far first (``Server._drop_a_login``).
        self.spoke = False
        self.authing = False
        self.heard = 0.0
        self.opened_at = server.collector.freezes    # (a connection that lives through a freeze leaves frozen cycles)
        self.lost = False
        self._told_collector = False
        self._expecting: asyncio.TimerHandle | None = None    # closes a connection that opens no game

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        if self.source is not None:
            self.address = self.source                                  # (the socket's peer is the proxy)
        else:
            self.address = plain_address(str(peer[0])) if peer else "?"     # (::ffff:1.2.3.4 is 1.2.3.4)
        self.place = place(self.address)
        self.heard = asyncio.get_running_loop().time()
        self._listen(conn)
        self.refused = self.server.admit(self)
        self.counted = True
        ban = self.server.admin.bans.address(self.address) if not self.refused else None
        if ban is not None and self.server.config.admins:
            # An admin's key still comes in from a banned address (an admin who banned the address
            # they would connect from next, or a ban that outlasts a restart, must not lock them
            # out): everybody else is refused as soon as they try anything but an admin's key.
            self.banned = ban_message(ban)
        elif ban is not None:
            log.warning("a connection from %s refused: the address is banned until %s", self.address, when(ban.until))
            self.refused = ban_message(ban)
        if self.refused:
            # Told at once, before any key exchange (after the version line asyncssh sends next).
            asyncio.get_running_loop().call_soon(self.drop, self.refused)
            return
        self._watch_signatures(conn)

    @property
    def progress(self) -> int:
        """0: the client has sent nothing; 1: it has spoken (its version, the key exchange); 2: it
        has begun to log in; 3: it proved a key."""
        return 3 if self.proven is not None else 2 if self.authing else 1 if self.spoke else 0

    def _listen(self, conn: asyncssh.SSHServerConnection) -> None:
        """Note when the client sends anything, until it has logged in (what tells a real login,
        which speaks at once and keeps speaking, from a silent connection that holds a place)."""
        received = conn.data_received
        loop = asyncio.get_running_loop()

        def hearing(data: bytes, datatype: int | None = None) -> None:
            if not self.spoke:
                self.spoke = True
                self.server.spoke(self)
                if self.refused:
                    return              # let go to make room: nothing more is read
            self.heard = loop.time()
            received(data, datatype)

        conn.data_received = hearing            # type: ignore[method-assign]

    def _admin_key(self) -> bool:
        return self.proven is not None and fingerprint(self.proven) in self.server.config.admins

    def _refuse_banned(self) -> None:
        """The address is banned and this is not an admin's key: refused, told why."""
        log.warning("a connection from %s (%s) refused: the address is banned", self.address, printable(self.name))
        raise asyncssh.DisconnectError(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, self.banned)

    def _stop_listening(self) -> None:
        if self.conn is not None and "data_received" in vars(self.conn):
            del self.conn.data_received

    def _watch_signatures(self, conn: asyncssh.SSHServerConnection) -> None:
        """Note the key a client signs with.  asyncssh says only whether a signed request passed;
        in password mode a proven key is turned down (the password still has to be given) and
        yet it is who the person is."""
        check = conn.validate_public_key

        async def proving(username: str, key_data: bytes, msg: bytes, signature: bytes) -> bool:
            ok = await check(username, key_data, msg, signature)
            if not (ok and msg):
                return ok                 # a key offered, or refused: nothing proven
            try:
                key = decode_ssh_public_key(key_data)
            except (asyncssh.KeyImportError, ValueError):
                return False
            first = self.proven is None
            if first:
                self.proven = key
            if self.banned and fingerprint(key) not in self.server.config.admins:
                self._refuse_banned()
            ban = self.server.admin.bans.key(fingerprint(key))
            if ban is not None:           # proven: this person is banned, told so at once
                log.warning("%s refused: the key %s is banned until %s", printable(self.name), fingerprint(key),
                            when(ban.until))
                raise asyncssh.DisconnectError(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, ban_message(ban))
            enough = self.server.gate.key_enough(key, self.address)
            if first:
                # A key that lets its client in (or holds a name here) leaves the logins' budget now.
                known = enough or bool(self.server.registry.names.of_key(fingerprint(key)))
                full = self.server.key_proven(self, known)
                if full:
                    raise asyncssh.DisconnectError(asyncssh.DISC_TOO_MANY_CONNECTIONS, full)
            return enough

        conn.validate_public_key = proving      # type: ignore[method-assign]
    def drop(self, reason: str) -> None:
        """Close this connection before it has logged in, telling the client why."""
        self.refused = self.refused or reason
        if self.conn is not None:
            self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, reason)


    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        self._stop_expecting()
        if self.counted:
            self.counted = False
            self.server.release(self)
        self.gone()

    def gone(self) -> None:
        """Tell the collector once, when both the connection and its game are over, whether
        they lived through a freeze (``memory.py``)."""
        if self.lost and self.playing is None and not self._told_collector:
            self._told_collector = True
            self.server.collector.connection_closed(self.opened_at)

    # ------------------------------------------------------------------ who may enter
    def begin_auth(self, username: str) -> bool:
        if self.refused:
            raise asyncssh.DisconnectError(asyncssh.DISC_TOO_MANY_CONNECTIONS, self.refused)
        self.authing = True
        name, plus, code = username.partition("+")
        if plus:
            # ``gus+K7PXM2QA``: a guest comes back to the seat that code belongs to.
            self.seat_code = code[:CODE_MAX]
        try:
            self.name = player_name(name)
        except NameRefused as exc:
            raise asyncssh.DisconnectError(asyncssh.DISC_ILLEGAL_USER_NAME, str(exc)) from None
        return True              # always: a key offered is a person, in every mode

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """May the client prove this key?  One key a connection (the first it proves)."""
        gate = self.server.gate
        if self.proven is not None:
            return fingerprint(key) == fingerprint(self.proven) and gate.key_enough(key, self.address)
        return gate.key_enough(key, self.address) or gate.by_password

    def kbdint_auth_supported(self) -> bool:
        return self.server.gate.open

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        # Open mode: a client with no key is a guest, asked nothing.
        if self.banned:
            self._refuse_banned()
        return self.server.gate.open

    def password_auth_supported(self) -> bool:
        return self.server.gate.by_password or self.server.gate.open

    async def validate_password(self, username: str, password: str) -> bool:
        gate = self.server.gate
        if self.banned and not self._admin_key():
            self._refuse_banned()
        if gate.open:
            return True           # a client with no key that sends a password anyway: a guest
        who = self._guessers()
        wait = gate.throttle.wait(*who)
        # A refusal says why in words (the SSH client shows the reason), not only "Permission denied".
        whose = "your key" if len(who) == 1 else "your address"
        if wait is None:
            log.warning("a password from %s for %s refused: too many wrong ones, locked for a while",
                        self.address, printable(self.name))
            await asyncio.sleep(self.server.config.wrong_password_pause)
            raise asyncssh.DisconnectError(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                                           f"Too many wrong passwords with {whose}: try again in a quarter of "
                                           "an hour")
        if wait > self.server.config.login_timeout:
            log.warning("a password from %s for %s refused: the next try is booked %d s from now",
                        self.address, printable(self.name), round(wait))
            raise asyncssh.DisconnectError(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                                           f"Wrong passwords cost time: the next try with {whose} is in "
                                           f"{round(wait)} s")
        if wait > 0:
            await asyncio.sleep(wait)
        if gate.password_ok(password):
            gate.throttle.succeeded(*who)
            return True
        gate.throttle.failed(*who)
        log.warning("wrong password from %s for %s", self.address, printable(self.name))
        await asyncio.sleep(self.server.config.wrong_password_pause)    # guessing takes long
        return False

    def _guessers(self) -> tuple[str, ...]:
        """Who pays for a wrong password here: a key proven that holds a name on this server, itself
        alone (a person is never locked out by guesses made elsewhere, nor by others at their place);
        anybody else their place, and their place with the name they guess for (a fresh key for every
        guess buys nothing)."""
        if self.proven is not None:
            fp = fingerprint(self.proven)
            if self.server.registry.names.of_key(fp):
                return (f"key {fp}",)
        return (f"place {self.place}", f"place {self.place} name {skeleton(self.name)}")

    def auth_completed(self) -> None:
        """In: the person is the key they proved, or a guest with a fresh code; the connection
        leaves the budget of those logging in (``Server.logged_in``)."""
        self._stop_listening()
        if self.banned and not self._admin_key():
            self.drop(self.banned)          # (no way in above refused it: this is the last word)
            return
        if self.banned:
            log.warning("an admin's key comes in from %s, a banned address", self.address)
        full = self.server.logged_in(self)
        if full:
            log.info("%s (%s) logged in to a full server: refused", self.address, printable(self.name))
            self.drop(full)
            return
        self.expect_session()
        if self.proven is not None:
            self.identity = Identity(self.name, fingerprint(self.proven))
        else:
            self.guest_code = code_text(self.seat_code) if self.seat_code else new_guest_code()
            self.identity = guest_identity(self.name, self.guest_code)

    # ------------------------------------------------------------------ what may be opened
    def session_requested(self) -> GameSession | bool:
        if self.identity is None or self.playing is not None:
            return False         # one game per connection
        self._stop_expecting()
        self.playing = GameSession(self, self.identity)
        return self.playing

    def expect_session(self) -> None:
        """A connection is for a game: one that holds no game session (none opened after the
        login, or the game ended) is closed after ``login_timeout``, so that a place at the
        server is never held by a connection that does nothing."""
        wait = self.server.config.login_timeout
        self._stop_expecting()
        self._expecting = asyncio.get_running_loop().call_later(wait, self._check_session, wait)

    def _stop_expecting(self) -> None:
        # (a pending timer keeps the whole connection alive: cancelled as soon as it is moot)
        if self._expecting is not None:
            self._expecting.cancel()
            self._expecting = None

    def _check_session(self, wait: float) -> None:
        self._expecting = None
        if self.playing is None and not self.lost and self.conn is not None:
            log.info("%s opened no game in %g s: disconnected", self.address, wait)
            self.conn.disconnect(asyncssh.DISC_BY_APPLICATION, f"No game was opened in {wait:g} s: connect with "
                                 "ssh -t to play")


class _Writer:
    """The terminal output of a session: every byte goes through :meth:`GameSession.write`.
    Once the game is over it lets go of the session (:meth:`detach`): the event loop's pending
    timers keep the context of the task that set them, with the app session's output in it,
    and through this writer they kept the whole closed connection."""

    def __init__(self, session: GameSession) -> None:
        self._session: GameSession | None = session

    def write(self, data: str) -> int:
        if self._session is not None:
            self._session.write(data.replace("\n", "\r\n"))
        return len(data)

    def detach(self) -> None:
        self._session = None

    def isatty(self) -> bool:
        return True

    def flush(self) -> None:
        pass

    @property
    def encoding(self) -> str:
        return "utf-8"


class GameSession(PromptToolkitSSHSession):
    """One player's terminal over SSH: the app, metered input, watched output."""

    def __init__(self, connection: Connection, identity: Identity) -> None:
        super().__init__(self._play, enable_cpr=False)
        self.id = next(_ids)
        self.connection = connection
        self.server = connection.server
        self._identity = identity
        self.address = connection.address
        self.app: ServerApp | None = None
        self._writer = _Writer(self)
        self.stdout = cast(TextIO, self._writer)
        self.closed = False                    # the channel is gone: nothing more is written
        self.bytes_out = 0
        self.bytes_in = 0
        self.dropped_in = 0
        config = self.server.config
        loop = asyncio.get_running_loop()
        self._tokens = float(config.input_burst)
        self._filled = loop.time()
        self.pasting = False                   # input is dropped until the terminal is quiet
        self._flood_start = loop.time()
        self._flooded = 0                      # bytes dropped since _flood_start
        self.last_input = loop.time()
        self.warned = False
        self._fd: int | None = None
        self._size = Size(rows=MIN_H, columns=MIN_W)    # until the pty request says
        self._resizing: asyncio.TimerHandle | None = None
        self._resized_at = -1.0

    @property
    def identity(self) -> Identity:
        """Who this terminal is now (a guest who typed a seat's code becomes that seat's guest)."""
        return self.app.identity if self.app is not None else self._identity

    # ------------------------------------------------------------------ what is refused
    def exec_requested(self, command: str) -> bool:
        log.info("%s asked to run a command: refused", self.identity.log_text())
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        log.info("%s asked for %s: refused", self.identity.log_text(), printable(subsystem))
        return False

    # ------------------------------------------------------------------ the terminal's size
    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: Mapping[int, int]) -> bool:
        self._size = self._fitted(term_size[0], term_size[1])
        return True

    def terminal_size_changed(self, width: int, height: int, pixwidth: object, pixheight: object) -> None:
        size = self._fitted(width, height)
        if size == self._size:
            return               # the same size again (or again over the bounds): nothing to paint
        self._size = size
        if self._resizing is None:
            loop = asyncio.get_running_loop()
            wait = max(0.0, self._resized_at + 1 / RESIZES_PER_S - loop.time())
            self._resizing = loop.call_later(wait, self._resize)

    def _fitted(self, width: int, height: int) -> Size:
        """The size a terminal is painted at: at most ``max_columns`` x ``max_rows``; a zero
        says nothing (RFC 4254 has it ignored): the size so far stays."""
        config = self.server.config
        return Size(rows=min(height, config.max_rows) if height else self._size.rows,
                    columns=min(width, config.max_columns) if width else self._size.columns)

    def _get_size(self) -> Size:
        return self._size

    def _resize(self) -> None:
        """Paint the whole screen at the latest size (what the window-changes since the last
        such paint asked for)."""
        self._resizing = None
        self._resized_at = asyncio.get_running_loop().time()
        app = self.app_session.app if self.app_session is not None else None
        if app is not None and app.is_running and not self.closed:
            app._on_resize()

    # ------------------------------------------------------------------ output
    def write(self, data: str) -> None:
        """Send ``data`` to the player's terminal (the recording hook sees it first)."""
        chan = self._chan
        if self.closed or chan is None:
            return
        hook = self.server.on_output
        if hook is not None:
            hook(self, data)
        self.bytes_out += len(data)
        try:
            chan.write(data)
        except (BrokenPipeError, OSError, asyncssh.Error):
            self.closed = True
            return
        if chan.get_write_buffer_size() > self.server.config.output_backlog:
            self.closed = True
            self.kick("Your terminal stopped reading what the server sends: disconnected.")
            chan.abort()

    # ------------------------------------------------------------------ input
    def data_received(self, data: str, datatype: object) -> None:
        if self._input is None or self._fd is None:
            return
        config = self.server.config
        now = asyncio.get_running_loop().time()
        quiet = now - self.last_input
        self.last_input = now
        if self.warned:
            self.warned = False
        raw = data.encode("utf-8", "surrogatepass")
        n = len(raw)
        self.bytes_in += n
        self._tokens = min(float(config.input_burst), self._tokens + (now - self._filled) * config.input_rate)
        self._filled = now
        if (self.pasting and quiet < PASTE_QUIET) or n > self._tokens:
            self._drop(n, now)
            return
        self.pasting = False
        self._tokens -= n
        try:
            os.write(self._fd, raw)
        except (BlockingIOError, OSError):
            self.dropped_in += n       # the app is far behind: never wait for it here

    def _drop(self, n: int, now: float) -> None:
        """Input over the allowance: a paste, dropped whole (half of one, or half an escape
        sequence, would be wrong keys) with a note, or a flood, which closes the connection."""
        config = self.server.config
        self.dropped_in += n
        if now - self._flood_start > config.input_flood_window:
            self._flood_start, self._flooded = now, 0
        self._flooded += n
        if self._flooded > config.input_flood:
            self.kick(f"Your terminal sent more than {_size(config.input_flood)} in {config.input_flood_window:g} s, "
                      "far more than any paste: disconnected.")
        elif not self.pasting and self.app is not None:
            self.app.notify("Too much input at once (a paste?): it was ignored")
        self.pasting = True

    def eof_received(self) -> bool:
        # The client sends nothing more: the game ends, and the channel stays open until it has
        # said why and sent the exit status (closing it here left OpenSSH's client waiting).
        self.kick("")
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self._resizing is not None:
            self._resizing.cancel()
            self._resizing = None
        self._leave_connection()
        self.kick("")

    def _leave_connection(self) -> None:
        if self.connection.playing is self:
            self.connection.playing = None
            self.connection.expect_session()

    def kick(self, reason: str) -> None:
        if self.app is not None:
            self.app.kick(reason)

    def break_received(self, msec: int) -> bool:
        return False

    # ------------------------------------------------------------------ the game
    def _options(self) -> Options:
        """Suit symbols, unless the locale ssh sent (OpenSSH sends LANG and LC_*) says the player's
        terminal is not UTF-8."""
        assert self._chan is not None
        # (the person's kept options go on top of these in the app: ServerApp.apply_options)
        return Options(ASCII) if not utf8_locale(dict(self._chan.get_environment())) else DEFAULT_OPTIONS

    async def _play(self, _session: PromptToolkitSSHSession) -> None:
        """Not used: :meth:`_interact` runs the app itself."""

    async def _interact(self) -> None:
        try:
            await self._run_game()
        except (OSError, asyncssh.Error):
            pass                 # the channel went away while the last words were written
        except Exception:
            log.exception("the connection of %s failed", self.identity.log_text())

    async def _run_game(self) -> None:
        chan = self._chan
        if chan is None:
            return
        term = chan.get_terminal_type()
        if self.closed:
            return               # gone before the game started
        if term is None:
            self.write(NO_TERMINAL)
            chan.exit(1)
            return
        self._output = Vt100_Output(self.stdout, self._get_size, term=term, enable_cpr=False)
        reason = ""
        with create_pipe_input() as pipe:
            self._input = pipe
            fd = getattr(getattr(pipe, "pipe", None), "write_fd", None)
            if isinstance(fd, int):
                os.set_blocking(fd, False)
                self._fd = fd
            with create_app_session(input=pipe, output=self._output) as app_session:
                self.app_session = app_session
                app = ServerApp(self.server.registry, self.identity, self.connection.guest_code,
                                returning=bool(self.connection.seat_code), admin=self.server.admin,
                                address="" if self.address == "?" else self.address, input=pipe,
                                output=self._output, options=self._options(), color=True)
                self.app = app
                self.server.sessions.add(self)
                try:
                    reason = await app.run_session()
                except Exception:
                    log.exception("the session of %s failed", self.identity.log_text())
                    reason = "The server had a problem with this connection; your seat is kept. Connect again."
                finally:
                    self.server.sessions.discard(self)
                    self._leave_connection()
                    self.connection.gone()
                    self._fd = None
                    self._writer.detach()
                    _forget_typeahead(pipe)
        if not self.closed:
            if reason:
                self.write(reason + "\r\n")
            chan.exit(0)


__all__ = ["Connection", "GameSession", "utf8_locale"]
