"""The roles put together: ``canasta serve --role single|front|owner|both`` (``docs/cluster.md``).

``single`` (the default) is :func:`~..server.serve`, today's one-process server on SQLite,
unchanged.  A node of a cluster first reaches its engines, PostgreSQL and NATS, each with a
bounded wait (:func:`reach_engines`): a node that cannot reach one stops at once, saying which,
where and why (:class:`~.engines.EngineError`), before it listens or takes a table.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..config import ServerConfig
from .engines import EngineError, bus_urls, reach_bus, reach_database, shown_bus, shown_database

if TYPE_CHECKING:
    from ..server import Server

log = logging.getLogger("canasta.server")


async def reach_engines(config: ServerConfig) -> None:
    """Reach the node's database and bus once each (EngineError says which cannot be reached)."""
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, reach_database, config.database)
    await reach_bus(bus_urls(config.bus))
    log.info("%s node: database %s, bus %s", config.role, shown_database(config.database), shown_bus(config.bus))


async def serve_node(config: ServerConfig, ready: Callable[[Server], None] | None = None) -> None:
    """``canasta serve``: the one-process server, or a node of a cluster in its role, until SIGINT
    or SIGTERM."""
    from ..server import serve

    if not config.cluster:
        await serve(config, ready)
        return
    await reach_engines(config)
    raise EngineError(f"--role {config.role}: the engines answer, but this version of canasta runs a cluster's "
                      "nodes only in part (issue 32); serve with --role single")


__all__ = ["EngineError", "reach_engines", "serve_node"]
