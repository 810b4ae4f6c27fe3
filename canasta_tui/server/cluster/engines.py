"""A cluster node's engines as the host names them: the PostgreSQL database (``--database``) and
the NATS bus (``--bus``), checked before anything starts (issue 32, ``docs/cluster.md``).

A URL is checked for its form when the configuration is (:func:`database_url`, :func:`bus_urls`:
a wrong one is a :class:`~..config.ConfigError` naming the option), and each engine is reached
once at start with a bounded wait (:func:`reach_database`, :func:`reach_bus`): an engine that
cannot be reached stops the node with a message saying which, where and why, never the password.
"""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit

import psycopg
from psycopg.conninfo import conninfo_to_dict

from ...text import printable

#: The roles of ``canasta serve --role``: ``single`` is the one-process server on SQLite.
ROLES = ("single", "front", "owner", "both")
SINGLE = "single"
#: The longest ``--database`` or ``--bus`` taken (a URL, or a few of them for the bus).
URL_MAX = 1000
#: Servers one ``--bus`` may list (a NATS cluster's seeds).
BUS_SERVERS_MAX = 16
#: NATS's URL schemes (``tls`` for a bus behind TLS).
BUS_SCHEMES = ("nats", "tls")
#: How long a node waits for an engine at start before it says that engine cannot be reached.
REACH_WAIT = 5.0


class EngineError(Exception):
    """An engine's URL is wrong, or the engine cannot be reached: the message says which, and why."""


def database_url(text: str) -> str:
    """``--database`` as given, once it is a PostgreSQL URL (``postgresql://…``) or connection
    string (``host=… dbname=…``) psycopg reads; EngineError says what is wrong."""
    if len(text) > URL_MAX:
        raise EngineError(f"--database is at most {URL_MAX} characters (it has {len(text)})")
    if printable(text) != text or not text.strip():
        raise EngineError("--database is empty or holds control characters")
    if "://" in text and not text.startswith(("postgresql://", "postgres://")):
        raise EngineError(f"--database is a PostgreSQL URL (postgresql://USER@HOST:PORT/DATABASE), "
                          f"not {shown_database(text)}")
    try:
        parts = conninfo_to_dict(text)
    except psycopg.Error:
        # (psycopg's words here quote the text, password and all: not said)
        raise EngineError("--database is not a PostgreSQL URL psycopg can read: postgresql://USER@HOST:PORT/DATABASE "
                          "(a password with spaces or / @ : # in it is written with %XX)") from None
    ports = str(parts.get("port") or "5432").split(",")
    if not all(p.isdigit() and 0 < int(p) < 65536 for p in ports):
        raise EngineError(f"--database is not a PostgreSQL URL psycopg can read (port {printable(ports[0])[:20]!r}): "
                          "postgresql://USER@HOST:PORT/DATABASE")
    return text


def bus_urls(text: str) -> list[str]:
    """``--bus``'s servers (``nats://HOST:PORT``, several separated by commas); EngineError says
    what is wrong."""
    if len(text) > URL_MAX:
        raise EngineError(f"--bus is at most {URL_MAX} characters (it has {len(text)})")
    if printable(text) != text or not text.strip():
        raise EngineError("--bus is empty or holds control characters")
    urls = [u.strip() for u in text.split(",") if u.strip()]
    if len(urls) > BUS_SERVERS_MAX:
        raise EngineError(f"--bus lists at most {BUS_SERVERS_MAX} servers (it lists {len(urls)})")
    for url in urls:
        parts = urlsplit(url)
        try:
            port = parts.port
        except ValueError:
            port = -1
        if parts.scheme not in BUS_SCHEMES or not parts.hostname or port == -1 or parts.path not in ("", "/"):
            raise EngineError(f"--bus is a NATS URL (nats://HOST:PORT), not {shown_bus(url)}")
    return urls


def shown_database(text: str) -> str:
    """Where a database is, for a message or the log: its host, port and name, never its password."""
    if "://" in text and not text.startswith(("postgresql://", "postgres://")):
        url = urlsplit(text)
        return repr(printable(f"{url.scheme}://{url.hostname or ''}{url.path}")[:60])
    try:
        parts = conninfo_to_dict(text)
    except psycopg.Error:
        return repr(printable(text.split("@")[-1])[:60])
    host = str(parts.get("host") or "localhost")
    port = str(parts.get("port") or "5432")
    name = str(parts.get("dbname") or parts.get("user") or "")
    return printable(f"{host}:{port}/{name}")[:120]


def shown_bus(text: str) -> str:
    """A bus URL for a message or the log, without a user or token."""
    parts = urlsplit(text.split(",")[0].strip())
    try:
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        port = ""
    if not parts.scheme:
        return repr(printable(text)[:60])
    return printable(f"{parts.scheme}://{parts.hostname or ''}{port}")[:120]


def _first_line(exc: BaseException) -> str:
    return printable(str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__)[:200]


def reach_database(url: str, wait: float = REACH_WAIT) -> None:
    """Connect to the database once (blocking: called off the loop, or before it runs);
    EngineError says where and why it cannot."""
    try:
        with psycopg.connect(url, connect_timeout=max(1, round(wait)), autocommit=True) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        # (psycopg's message names the host and port, never the password)
        raise EngineError(f"cannot reach the database at {shown_database(url)}: {_first_line(exc)}") from None


async def reach_bus(urls: list[str], wait: float = REACH_WAIT) -> None:
    """Connect to the bus once and leave; EngineError says where and why it cannot."""
    import nats
    from nats.errors import Error as NatsError

    async def failed(exc: Exception) -> None:
        return None            # (told below, once; nats-py would log every attempt)

    try:
        nc = await asyncio.wait_for(nats.connect(servers=urls, connect_timeout=wait, allow_reconnect=False,
                                                 max_reconnect_attempts=0, error_cb=failed), wait + 1)
    except (TimeoutError, OSError, NatsError) as exc:
        why = _first_line(exc) if str(exc).strip() else "no answer"
        raise EngineError(f"cannot reach the bus at {shown_bus(urls[0])}: {why}") from None
    with contextlib.suppress(Exception):
        await nc.close()


__all__ = ["BUS_SERVERS_MAX", "REACH_WAIT", "ROLES", "SINGLE", "URL_MAX", "EngineError", "bus_urls",
           "database_url", "reach_bus", "reach_database", "shown_bus", "shown_database"]
