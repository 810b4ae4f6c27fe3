"""What a table server is told: where it listens, who may enter, and its limits."""

from __future__ import annotations

import datetime as dt
import ipaddress
import re
import zoneinfo
from dataclasses import dataclass
from pathlib import Path

from ..persistence import paths
from ..terminal import MIN_H, MIN_W
from ..text import printable

#: The most ``max_columns`` x ``max_rows`` may be (at least the game's 80x24).
LARGEST_COLUMNS, LARGEST_ROWS = 1000, 500

#: The environment variable ``canasta serve --password`` reads the password from.
PASSWORD_ENV = "CANASTA_SERVE_PASSWORD"
#: The most tables a server can be told to hold (every one is kept in memory, on disk, and read
#: again at every start).
MAX_TABLES = 1000
#: An Expert computer's thinking per decision at a server may be set from ... to ... seconds.
EXPERT_BUDGET_RANGE = (0.05, 10.0)
#: One day, in seconds (``--set-aside-days``).
DAY = 86400.0
#: Proxies' addresses (``proxy_from``) at most: a cluster has a few HAProxies.
PROXIES_MAX = 100


_B64 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")


def is_fingerprint(text: str) -> bool:
    """Is ``text`` an SSH key's SHA256 fingerprint as OpenSSH writes it (``SHA256:`` and 43 base64 letters)?"""
    body = text.removeprefix("SHA256:")
    return text.startswith("SHA256:") and len(body) == 43 and set(body) <= _B64


class ConfigError(ValueError):
    """A server that cannot start as configured; the message says why."""


@dataclass(frozen=True)
class ServerConfig:
    """Everything ``canasta serve`` takes, with the defaults a Canasta evening needs.

    Times are in seconds.  ``port`` 0 takes a free port (tests); :attr:`Server.port` says which.
    """

    host: str = "127.0.0.1"
    port: int = 2222
    #: Who may enter: an authorized-keys file, a password, or anybody (``open``, asked for by name).
    authorized_keys: Path | None = None
    password: str | None = None
    open: bool = False
    #: Where the host key and the tables live (default: the data directory's ``server``).
    directory: Path | None = None
    #: Pause after each computer move, in milliseconds (the game's own default).
    delay_ms: int = 400
    #: How long a dropped player's seat waits before a computer takes it over.
    takeover: float = 60.0
    #: A connection that sends nothing for this long is closed (0: never); warned ``idle_warning`` before.
    idle_timeout: float = 1800.0
    idle_warning: float = 60.0
    #: How long a client may take to log in (from its first byte to the end of SSH authentication:
    #: a first-time player reads the host key's fingerprint and types a password in that time),
    #: and the pause after a wrong password.
    login_timeout: float = 20.0
    wrong_password_pause: float = 1.0
    #: A client that answers nothing for ``keepalive`` seconds, four times over, is gone.
    keepalive: float = 30.0
    #: Connections at once (logged in or logging in), in all and from one address.
    max_connections: int = 100
    max_per_address: int = 10
    #: Connections that have not logged in yet have a budget of their own, so that connections
    #: that never log in (120 silent ones filled the server for a stranger) cannot keep the
    #: players out: at most ``max_logins`` at once, ``max_logins_per_address`` from one address.
    #: When it is full, a new connection takes the place of the oldest login under way from the
    #: address with the most of them.
    max_logins: int = 20
    max_logins_per_address: int = 3
    #: Connections that have not sent a byte yet are held apart, at most ``max_silent`` (the
    #: oldest from the place with the most of them goes first): a real client speaks at once.
    max_silent: int = 256
    #: Places kept for people who prove a key: guests (no key) are let in while fewer than
    #: ``max_connections - room_for_keys`` connections are in (at least half of them), so that a
    #: crowd of guests never makes the server full for a person with a key.  (IPv6 addresses count
    #: by their /64 in every limit "from one address".)
    room_for_keys: int = 10
    #: When the server is full, a person who proves a key takes the place of the connection idle
    #: longest (no key for ``yield_after`` seconds, no seat at any table) from the address holding
    #: the most, if it holds at least two more than theirs.
    yield_after: float = 300.0
    #: Input allowed per connection: ``input_rate`` bytes a second, in bursts of ``input_burst``;
    #: what is over (a paste, however big) is dropped with a note.  Only a flood far beyond any
    #: paste, more than ``input_flood`` bytes dropped within ``input_flood_window`` seconds, closes
    #: the connection (256 KB dropped in a row did: a 1 MB paste was "Too much input: disconnected").
    input_rate: int = 2048
    input_burst: int = 8192
    input_flood: int = 8 * 1024 * 1024
    input_flood_window: float = 10.0
    #: Output a client may leave unread before it is disconnected (a client that stopped reading).
    output_backlog: int = 4 * 1024 * 1024
    #: The largest terminal painted: a client that says its terminal is bigger is painted this big
    #: (the game needs 80x24; a paint, and the memory it takes, grow with the cells).
    max_columns: int = 500
    max_rows: int = 200
    #: Chat: the longest line, and how many lines a player may say per ``chat_window`` seconds.
    chat_max: int = 200
    chat_lines: int = 5
    chat_window: float = 10.0
    #: Seed of the tables' shuffles (table N plays seed + N - 1); None: random.
    seed: int | None = None
    #: Workers the computer players think in (shared by every table): processes of their own, or
    #: threads of the server's (``computer_processes`` False).  In threads a computer that thinks
    #: hard (an Expert) holds Python's one lock that the server's loop needs for every key of
    #: every table: ``canasta bench serve`` saw every table's p95 go from 16 ms to 480 ms.
    workers: int = 2
    computer_processes: bool = True
    #: An Expert computer's thinking per decision, in seconds, while no more Experts think at once
    #: than there are workers; when more do, each gets its share, down to 0.1 s
    #: (:class:`~canasta_tui.table.table.ThinkingShare`): 75 Experts at 1 s each saturated two
    #: workers and the tables waited (``canasta bench serve --level expert``).
    expert_budget: float = 1.0
    #: Tables cost the server memory, a file, and time at every start: one person may have created
    #: at most ``tables_per_person`` tables that are not over, the server holds at most ``max_tables``.
    tables_per_person: int = 3
    max_tables: int = 40
    #: A table that has not started this long after somebody last sat down or stood up there goes
    #: (0: never); one where nobody connected holds a seat goes at once.
    forming_timeout: float = 3600.0
    #: How long "Play again with the same people?" at the end of a match waits for the players'
    #: answers: one not given by then counts as no, so that one person who walked away does not
    #: hold the others (a person who leaves the table answers no at once).
    rematch_answer: float = 60.0
    #: A player away from a rated match this long (left it, or their connection dropped) loses it
    #: for their side by forfeit: a rated match is never left waiting for ever (``docs/ratings.md``).
    forfeit_after: float = 120.0
    #: A person's first rated matches at a game count only against computers and people with this
    #: many counted rated matches (0: every rated match counts, whoever plays it).
    provisional_matches: int = 3
    #: A started table no human has been at for this long is set aside (0: never): its file is kept,
    #: renamed ``<id>.aside-TIME.json``, and it is no longer brought back at start.
    set_aside_after: float = 30 * DAY
    #: Seconds between two checks of idle connections, and of tables left alone.
    tick: float = 5.0
    #: Wrong passwords (or guest codes) from one address or for one name before every try is
    #: refused for a while (the first few are free, then each waits; :class:`~.auth.GuessThrottle`).
    login_attempts: int = 10
    #: Admins, by the SHA256 fingerprint of their SSH key (``SHA256:…``): they may announce, close
    #: tables, remove people and ban keys or addresses (:mod:`.admin`).
    admins: frozenset[str] = frozenset()
    #: The message of the day, shown in the lobby ("" none).
    motd: str = ""
    #: The club's time zone (an IANA name, ``Europe/Paris``; "" the machine's own): the lobby's
    #: "Tonight" counts an evening from 06:00 to 06:00 there (``server/club/evening.py``).
    timezone: str = ""
    #: This process's part of the room (``docs/cluster.md``): ``single``, the one-process server on
    #: SQLite; or a node of a cluster on the engines: ``front`` (the SSH door, the lobby), ``owner``
    #: (the live tables) or ``both``.
    role: str = "single"
    #: A cluster's engines: the PostgreSQL database (a URL or connection string) and the NATS bus
    #: (``nats://HOST:PORT``, several separated by commas); "" for the one-process server.
    database: str = ""
    bus: str = ""
    #: The host key's file (default: ``ssh_host_ed25519_key`` in the server's directory; made when
    #: missing).  Every front of a cluster names one file, so that ``ssh`` meets one host key there.
    host_key: Path | None = None
    #: Behind HAProxy (``send-proxy-v2``): every connection begins with a PROXY header naming the
    #: player's address, believed only from the addresses and networks of ``proxy_from`` (HAProxy's
    #: own), and complete within ``proxy_timeout`` seconds (:mod:`.door.proxy`).
    proxy_protocol: bool = False
    proxy_from: tuple[str, ...] = ()
    proxy_timeout: float = 5.0
    #: The room on the bus (every subject starts ``canasta.<room>.``): nodes of one room hear each other.
    room: str = "main"
    #: This node's name on the bus (unique in the room); "" makes one of the role, host and process.
    node: str = ""

    def checked(self) -> ServerConfig:
        """This configuration, or ConfigError saying what cannot work."""
        if not (self.open or self.password or self.authorized_keys) and self.role != "owner":
            raise ConfigError("say who may enter: --authorized-keys FILE, --password, or --open "
                              "(anybody who can reach the port)")
        if self.open and (self.password or self.authorized_keys):
            raise ConfigError("--open lets everybody in: it cannot go with --password or --authorized-keys")
        if self.password is not None and not self.password:
            raise ConfigError("the password is empty")
        if not 0 <= self.port <= 65535:
            raise ConfigError(f"port {self.port} is not between 0 and 65535")
        for name in ("max_connections", "max_per_address", "max_logins", "max_logins_per_address", "max_silent",
                     "input_rate", "input_burst", "chat_max", "chat_lines", "workers"):
            if getattr(self, name) < 1:
                raise ConfigError(f"{name.replace('_', '-')} must be at least 1")
        low, high = EXPERT_BUDGET_RANGE
        if not low <= self.expert_budget <= high:
            raise ConfigError(f"expert-budget must be between {low:g} and {high:g} seconds, not {self.expert_budget}")
        if self.input_flood < self.input_burst or self.input_flood_window <= 0:
            raise ConfigError(f"input-flood ({self.input_flood} bytes) must be at least input-burst "
                              f"({self.input_burst}), in a window of more than 0 s")
        if self.room_for_keys < 0 or self.yield_after < 0:
            raise ConfigError("room-for-keys and yield-after must not be negative")
        if self.max_logins_per_address > self.max_logins:
            raise ConfigError(f"max-logins-per-address ({self.max_logins_per_address}) cannot be more than "
                              f"max-logins ({self.max_logins})")
        if not MIN_W <= self.max_columns <= LARGEST_COLUMNS or not MIN_H <= self.max_rows <= LARGEST_ROWS:
            raise ConfigError(f"the largest terminal painted must be from {MIN_W}x{MIN_H} to "
                              f"{LARGEST_COLUMNS}x{LARGEST_ROWS} (columns x rows), not {self.max_columns}x{self.max_rows}")
        if self.takeover < 0 or self.idle_timeout < 0 or self.login_timeout <= 0:
            raise ConfigError("times must not be negative")
        if not 1 <= self.max_tables <= MAX_TABLES:
            raise ConfigError(f"max-tables must be between 1 and {MAX_TABLES} (not {self.max_tables})")
        if not 1 <= self.tables_per_person <= self.max_tables:
            raise ConfigError(f"tables-per-person must be between 1 and max-tables, {self.max_tables} "
                              f"(not {self.tables_per_person})")
        if self.login_attempts < 1:
            raise ConfigError("login-attempts must be at least 1")
        bad = sorted(a for a in self.admins if not is_fingerprint(a))
        if bad:
            raise ConfigError(f"admins are SHA256 fingerprints of keys (SHA256: and 43 letters, as ssh-keygen -lf "
                              f"FILE shows them), not {printable(bad[0])[:60]!r}")
        if self.forming_timeout < 0 or self.set_aside_after < 0:
            raise ConfigError("times must not be negative")
        if self.rematch_answer <= 0:
            raise ConfigError(f"rematch-answer must be more than 0 seconds, not {self.rematch_answer:g}")
        if not 0 < self.forfeit_after <= DAY:
            raise ConfigError(f"forfeit-after must be more than 0 seconds and at most a day, not {self.forfeit_after:g}")
        if not 0 <= self.provisional_matches <= 100:
            raise ConfigError(f"provisional-matches must be from 0 to 100, not {self.provisional_matches}")
        self.zone()
        self._check_role()
        self._check_proxy()
        return self

    def zone(self) -> dt.tzinfo | None:
        """The club's time zone (None: the machine's own), or ConfigError for a name that is none."""
        if not self.timezone:
            return None
        try:
            return zoneinfo.ZoneInfo(self.timezone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise ConfigError(f"timezone {printable(self.timezone)[:60]!r} is not a time zone this machine knows "
                              "(an IANA name, like Europe/Paris or America/New_York)") from None

    def _check_role(self) -> None:
        """A node of a cluster names both engines; the one-process server names no bus."""
        from .cluster.engines import ROLES, SINGLE, EngineError, bus_urls, database_url

        if self.role not in ROLES:
            raise ConfigError(f"role is one of {', '.join(ROLES)}, not {printable(self.role)[:40]!r}")
        try:
            if self.database:
                database_url(self.database)
            if self.bus:
                bus_urls(self.bus)
        except EngineError as exc:
            raise ConfigError(str(exc)) from None
        token = re.compile(r"[A-Za-z0-9_-]{1,64}")
        if not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,31}", self.room):
            raise ConfigError(f"room is a-z, 0-9, _ and - (at most 32, starting with a letter or digit), "
                              f"not {printable(self.room)[:40]!r}")
        if self.node and not token.fullmatch(self.node):
            raise ConfigError(f"node is A-Z, a-z, 0-9, _ and - (at most 64), not {printable(self.node)[:70]!r}")
        if self.role == SINGLE and self.bus:
            raise ConfigError("--bus is for a node of a cluster: give --role front, owner or both "
                              "(the one-process server needs no bus)")
        if self.role != SINGLE and not (self.database and self.bus):
            missing = " and ".join(f"--{k} {v}" for k, v in (("database", "postgresql://USER@HOST/DATABASE"),
                                                              ("bus", "nats://HOST:4222"))
                                  if not getattr(self, k))
            raise ConfigError(f"--role {self.role} runs on the cluster's engines: give {missing}")

    @property
    def cluster(self) -> bool:
        """A node of a cluster (on PostgreSQL and NATS), not the one-process server."""
        return self.role != "single"

    def _check_proxy(self) -> None:
        if self.proxy_protocol and not self.proxy_from:
            raise ConfigError("--proxy-protocol: say which addresses the proxy connects from (--proxy-from ADDRESS, "
                              "HAProxy's): a PROXY header from anybody else is not believed")
        if self.proxy_from and not self.proxy_protocol:
            raise ConfigError("--proxy-from goes with --proxy-protocol (connections through HAProxy's send-proxy-v2)")
        if len(self.proxy_from) > PROXIES_MAX:
            raise ConfigError(f"proxy-from lists at most {PROXIES_MAX} addresses, not {len(self.proxy_from)}")
        for text in self.proxy_from:
            try:
                ipaddress.ip_network(text.strip(), strict=False)
            except ValueError:
                raise ConfigError(f"proxy-from: {printable(text)[:60]!r} is not an address or a network "
                                  "(10.0.0.5, 10.0.0.0/24, ::1)") from None
        if not 0 < self.proxy_timeout <= 600:
            raise ConfigError(f"proxy-timeout must be more than 0 and at most 600 seconds, not {self.proxy_timeout:g}")

    @property
    def guest_room(self) -> int:
        """Connections at once past which a guest is not let in (the rest are kept for keys)."""
        return max(self.max_connections - self.room_for_keys, (self.max_connections + 1) // 2)

    @property
    def home(self) -> Path:
        return self.directory if self.directory is not None else paths.server_dir()

    @property
    def tables_dir(self) -> Path:
        return self.home / "tables"

    @property
    def host_key_path(self) -> Path:
        return self.host_key if self.host_key is not None else self.home / "ssh_host_ed25519_key"

    def auth_mode(self) -> str:
        """Who gets in, in words (the start-up line says it)."""
        ways = []
        if self.authorized_keys:
            ways.append(f"a key of {printable(str(self.authorized_keys))}")
        if self.password:
            ways.append("the password")
        return ("players enter with " + " or ".join(ways)) if ways else "anybody who can reach the port may enter"


__all__ = ["DAY", "EXPERT_BUDGET_RANGE", "MAX_TABLES", "PASSWORD_ENV", "PROXIES_MAX", "ConfigError", "ServerConfig",
           "is_fingerprint"]
