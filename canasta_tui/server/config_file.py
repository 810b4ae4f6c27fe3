"""The server's settings file: ``canasta serve --config FILE``, or the ``[serve]`` section of the
settings file (``~/.config/canasta/settings.toml``).

::

    [serve]
    host = "0.0.0.0"
    port = 2222
    authorized_keys = "club_keys"          # a file of keys (relative to this file), or:
    # password_env = "CLUB_PASSWORD"       # the environment variable holding the password, or:
    # open = true                          # anybody who can reach the port
    max_connections = 100
    tables_per_person = 3
    login_attempts = 10
    motd = "Club night is Thursday: rated tables from 8 pm"
    timezone = "Europe/Paris"              # the club's evenings (the lobby's "Tonight"; else the machine's)
    admins = ["SHA256:..."]                # admins by their key's fingerprint (ssh-keygen -lf KEY)
    # role = "front"                       # a node of a cluster (docs/cluster.md), on its engines:
    # database = "postgresql://canasta@db.example/canasta"
    # bus = "nats://bus.example:4222"
    # Behind HAProxy (a cluster's one address; docs/cluster.md):
    # host_key = "/etc/canasta/ssh_host_ed25519_key"   # the same file for every front
    # proxy_protocol = true                # every connection begins with HAProxy's PROXY header
    # proxy_from = ["10.0.0.5"]            # HAProxy's addresses: nobody else's header is believed

Every value is checked: a wrong one stops the server with a message that names the key and
the file.  Options on the command line override the file; one that says who may enter
(``--authorized-keys``, ``--password``, ``--open``) replaces all of the file's.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import math
import os
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..persistence import paths
from ..persistence.safe_io import Unreadable, read_regular
from ..text import printable
from .config import DAY, EXPERT_BUDGET_RANGE, MAX_TABLES, PROXIES_MAX, ConfigError, ServerConfig, is_fingerprint

#: The settings file's section for the server.
SECTION = "serve"
#: A server's settings file is a few lines.
MAX_BYTES = 256 * 1024
#: The message of the day: at most this many characters, and lines.
MOTD_MAX, MOTD_LINES = 400, 3
#: Admins at most (a club has a few).
ADMINS_MAX = 100
#: What the file may say about who may enter (a command-line option about it replaces them all).
ENTRY_KEYS = ("authorized_keys", "password_env", "open")


def _int(lo: int, hi: int) -> Callable[[str, Any], int]:
    def check(key: str, v: Any) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ValueError(f"must be a whole number, not {_shown(v)}")
        if not lo <= v <= hi:
            raise ValueError(f"must be from {lo} to {hi}, not {v}")
        return v
    return check


def _number(lo: float, hi: float) -> Callable[[str, Any], float]:
    def check(key: str, v: Any) -> float:
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise ValueError(f"must be a number, not {_shown(v)}")
        if not lo <= v <= hi:
            raise ValueError(f"must be from {lo:g} to {hi:g}, not {v:g}")
        return float(v)
    return check


def _bool(key: str, v: Any) -> bool:
    if not isinstance(v, bool):
        raise ValueError(f"must be true or false, not {_shown(v)}")
    return v


def _text(key: str, v: Any) -> str:
    if not isinstance(v, str):
        raise ValueError(f"must be text in quotes, not {_shown(v)}")
    if printable(v) != v:
        raise ValueError(f"may not hold control characters ({printable(v)[:40]})")
    if not v.strip():
        raise ValueError("is empty")
    return v


def _motd(key: str, v: Any) -> str:
    if not isinstance(v, str):
        raise ValueError(f"must be text in quotes, not {_shown(v)}")
    lines = v.strip("\n").split("\n")
    if any(printable(line) != line for line in lines):
        raise ValueError("may not hold control characters (new lines are allowed)")
    if len(v) > MOTD_MAX or len(lines) > MOTD_LINES:
        raise ValueError(f"is at most {MOTD_LINES} lines and {MOTD_MAX} characters (it has {len(lines)} and {len(v)})")
    return "\n".join(line.rstrip() for line in lines)


def _zone(key: str, v: Any) -> str:
    name = _text(key, v)
    try:
        ServerConfig(timezone=name).zone()
    except ConfigError:
        raise ValueError(f"{_shown(v)} is not a time zone this machine knows (an IANA name, like Europe/Paris)") from None
    return name


def _env_name(key: str, v: Any) -> str:
    name = _text(key, v)
    if not (name.replace("_", "a").isalnum() and name.isascii() and not name[0].isdigit()):
        raise ValueError(f"must name an environment variable (letters, digits, _), not {_shown(v)}")
    return name


def _admins(key: str, v: Any) -> frozenset[str]:
    if not isinstance(v, list):
        raise ValueError(f'must be a list of key fingerprints, like ["SHA256:..."], not {_shown(v)}')
    if len(v) > ADMINS_MAX:
        raise ValueError(f"may list at most {ADMINS_MAX} keys, not {len(v)}")
    for item in v:
        if not isinstance(item, str) or not is_fingerprint(item.strip()):
            raise ValueError(f"{_shown(item)} is not a key's SHA256 fingerprint (SHA256: and 43 letters, as "
                             "ssh-keygen -lf KEYFILE shows it)")
    return frozenset(item.strip() for item in v)


def _proxies(key: str, v: Any) -> tuple[str, ...]:
    if not isinstance(v, list):
        raise ValueError(f'must be a list of addresses or networks, like ["10.0.0.5", "10.0.1.0/24"], not {_shown(v)}')
    if len(v) > PROXIES_MAX:
        raise ValueError(f"may list at most {PROXIES_MAX} addresses, not {len(v)}")
    out = []
    for item in v:
        try:
            out.append(str(ipaddress.ip_network(item.strip(), strict=False)) if isinstance(item, str) else "")
        except ValueError:
            out.append("")
        if not out[-1]:
            raise ValueError(f"{_shown(item)} is not an address or a network (10.0.0.5, 10.0.0.0/24, ::1)")
    return tuple(out)


def _seed(key: str, v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"must be a whole number, not {_shown(v)}")
    return v


#: Each key of the file: how it is checked, and the ServerConfig field it sets.
KEYS: dict[str, tuple[Callable[[str, Any], Any], str]] = {
    "host": (_text, "host"),
    "port": (_int(0, 65535), "port"),
    "authorized_keys": (_text, "authorized_keys"),
    "password_env": (_env_name, "password"),
    "open": (_bool, "open"),
    "delay": (_int(0, 10000), "delay_ms"),
    "takeover": (_int(0, 86400), "takeover"),
    "forfeit_after": (_int(1, 86400), "forfeit_after"),
    "provisional_matches": (_int(0, 100), "provisional_matches"),
    "idle_timeout": (_int(0, 7 * 86400), "idle_timeout"),
    "max_connections": (_int(1, 10000), "max_connections"),
    "max_per_address": (_int(1, 10000), "max_per_address"),
    "max_tables": (_int(1, MAX_TABLES), "max_tables"),
    "tables_per_person": (_int(1, MAX_TABLES), "tables_per_person"),
    "set_aside_days": (_number(0, 3650), "set_aside_after"),
    "login_timeout": (_int(1, 600), "login_timeout"),
    "login_attempts": (_int(1, 1000), "login_attempts"),
    "max_logins": (_int(1, 10000), "max_logins"),
    "max_logins_per_address": (_int(1, 10000), "max_logins_per_address"),
    "max_silent": (_int(1, 10000), "max_silent"),
    "room_for_keys": (_int(0, 10000), "room_for_keys"),
    "yield_after": (_int(0, 86400), "yield_after"),
    "motd": (_motd, "motd"),
    "timezone": (_zone, "timezone"),
    "admins": (_admins, "admins"),
    "seed": (_seed, "seed"),
    "expert_budget": (_number(*EXPERT_BUDGET_RANGE), "expert_budget"),
    "role": (_text, "role"),
    "database": (_text, "database"),
    "bus": (_text, "bus"),
    "host_key": (_text, "host_key"),
    "proxy_protocol": (_bool, "proxy_protocol"),
    "proxy_from": (_proxies, "proxy_from"),
    "proxy_timeout": (_number(0.1, 600), "proxy_timeout"),
    "room": (_text, "room"),
    "node": (_text, "node"),
}


def _shown(v: Any) -> str:
    from ..persistence.settings import shown

    return shown(v)


def read_file(path: Path, *, section_only: bool = False, env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The server settings of the TOML file ``path``, as ServerConfig fields; ConfigError naming the
    file and the key for anything wrong.  The settings are the file's ``[serve]`` table, or (a file
    of its own, not ``section_only``) its top-level keys when it has no such table.  A missing
    settings file (``section_only``) says nothing."""
    env = os.environ if env is None else env
    where = printable(str(path))
    try:
        raw = read_regular(path, "a server settings file", MAX_BYTES).decode("utf-8")
    except Unreadable as exc:
        if exc.missing and section_only:
            return {}
        raise ConfigError(f"{where}: {exc.reason}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{where}: not UTF-8 text (byte {exc.start})") from None
    try:
        data = tomllib.loads(raw)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}: not valid TOML ({exc})") from None
    except RecursionError:
        raise ConfigError(f"{where}: not valid TOML (nested too deeply)") from None
    table = data.get(SECTION)
    if table is None:
        if section_only:
            return {}
        table, label = data, ""
    else:
        label = f"[{SECTION}] "
        if not isinstance(table, dict):
            raise ConfigError(f"{where}: {SECTION} must be a table ([{SECTION}]), not {_shown(table)}")
        if not section_only:
            others = sorted(k for k in data if k != SECTION)
            if others:
                raise ConfigError(f"{where}: {printable(others[0])!r} is outside [{SECTION}]: put the server's "
                                  "settings under [serve]")
    return values_of(table, where, label, path.parent, env)


def values_of(table: Mapping[str, Any], where: str, label: str, base: Path,
              env: Mapping[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in table.items():
        spec = KEYS.get(key)
        if spec is None:
            raise ConfigError(f"{where}: {label}unknown key {printable(str(key))[:40]!r}; the keys are: "
                              + ", ".join(KEYS))
        check, name = spec
        try:
            out[name] = check(key, value)
        except ValueError as exc:
            raise ConfigError(f"{where}: {label}{key} {exc}") from None
    # Who may enter is said once: the file's own words in the message (not the command line's flags).
    entries = [k for k in ENTRY_KEYS if table.get(k) not in (None, False)]
    if "open" in entries and len(entries) > 1:
        others = " or ".join(k for k in entries if k != "open")
        raise ConfigError(f"{where}: {label}open = true lets everybody in: it cannot go with {others} "
                          "(keep one way in)")
    for field in ("authorized_keys", "host_key"):
        if field in out:
            p = Path(out[field]).expanduser()
            out[field] = p if p.is_absolute() else base / p
    if "password" in out:
        var = out["password"]
        password = env.get(var, "")
        if not password:
            raise ConfigError(f"{where}: {label}password_env: the environment variable {var} is not set "
                              "(or is empty): set it to the players' password")
        out["password"] = password
    if "set_aside_after" in out:
        out["set_aside_after"] *= DAY
    for field in ("takeover", "idle_timeout", "login_timeout", "forfeit_after"):
        if field in out:
            out[field] = float(out[field])
    return out


def serve_settings(config_file: Path | None, env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The server's settings from ``--config FILE``, or else from the settings file's ``[serve]``."""
    if config_file is not None:
        return read_file(config_file, env=env)
    return read_file(paths.settings_path(), section_only=True, env=env)


def merged(file_values: Mapping[str, Any], flags: Mapping[str, Any]) -> ServerConfig:
    """A checked ServerConfig: the defaults, then the file's values, then the command line's
    (``flags``: the options given, as ServerConfig fields).  A flag about who may enter drops all
    of the file's (``--open`` does not go with the file's password: it replaces it)."""
    values = dict(file_values)
    if any(flags.get(k) for k in ("authorized_keys", "password", "open")):
        for k in ("authorized_keys", "password", "open"):
            values.pop(k, None)
    values.update(flags)
    return dataclasses.replace(ServerConfig(), **values).checked()


__all__ = ["ENTRY_KEYS", "KEYS", "SECTION", "merged", "read_file", "serve_settings", "values_of"]
