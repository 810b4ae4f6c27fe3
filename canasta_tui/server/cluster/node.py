"""The roles put together: ``canasta serve --role single|front|owner|both`` (``docs/cluster.md``).

``single`` (the default) is :func:`~..server.serve`, today's one-process server on SQLite,
unchanged.  A node of a cluster first reaches its engines, PostgreSQL and NATS, each with a
bounded wait (:func:`reach_engines`): a node that cannot reach one stops at once, saying which,
where and why (:class:`~.engines.EngineError`), before it listens or takes a table.  Then:

* a **front** (:class:`FrontNode`) is the SSH server of one process (the door, the apps, the lobby,
  records and replays) whose lobby shows every owner's tables and sends the actions on them to their
  owners (:class:`~.lobby.FrontLobby`); it holds no table;
* an **owner** (:class:`OwnerNode`) holds tables in a :class:`~..lobby.registry.Registry` of its own
  (forming seats, the start, turn timers, forfeits, rematch, the computers' workers) and publishes
  their rows (:class:`~.lobby.OwnerLobby`); it listens to no SSH;
* **both** is one of each in one process, speaking over the bus as two nodes would.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import re
import signal
import socket
from collections.abc import Callable
from concurrent.futures import Executor
from typing import TYPE_CHECKING

from ..config import ConfigError, ServerConfig
from ..lobby.registry import Registry
from ..tables.store import TableStore
from .engines import EngineError, bus_urls, reach_bus, reach_database, shown_bus, shown_database

if TYPE_CHECKING:
    from ..server import Server
    from .bus import Bus
    from .lobby import FrontLobby, OwnerLobby
    from .presence import Presence

log = logging.getLogger("canasta.server")


async def reach_engines(config: ServerConfig) -> None:
    """Reach the node's database and bus once each (EngineError says which cannot be reached)."""
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, reach_database, config.database)
    await reach_bus(bus_urls(config.bus))
    log.info("%s node: database %s, bus %s", config.role, shown_database(config.database), shown_bus(config.bus))


def node_name(config: ServerConfig, role: str) -> str:
    """This node's name on the bus: as configured, or its role, host and process (one token)."""
    if config.node:
        name = config.node if role == config.role else f"{config.node}-{role}"
    else:
        name = f"{role}-{socket.gethostname()}-{os.getpid()}"
    return re.sub(r"[^A-Za-z0-9_-]", "-", name)[:64]


async def connect_bus(config: ServerConfig, name: str) -> Bus:
    from .bus import Bus, BusError

    try:
        return await Bus.connect(bus_urls(config.bus)[0], room=config.room, name=name)
    except (BusError, ValueError) as exc:
        raise EngineError(f"cannot reach the bus at {shown_bus(config.bus)}: {exc}") from None


class OwnerNode:
    """A table owner: the tables of its registry, their computers' workers, their rows on the bus."""

    def __init__(self, config: ServerConfig, name: str = "") -> None:
        self.config = config
        self.name = name or node_name(config, "owner")
        self.bus: Bus | None = None
        self.registry: Registry | None = None
        self.lobby: OwnerLobby | None = None
        self._store: TableStore | None = None
        self._executor: Executor | None = None
        self._sweep: asyncio.Task[None] | None = None

    async def start(self) -> None:
        from ..server import computers_executor, own_tables
        from ..tables.pgstore import PostgresTableStore
        from .lobby import OwnerLobby, TableNumbers
        from .ownership import OwnershipError

        config = self.config
        loop = asyncio.get_running_loop()
        self.bus = await connect_bus(config, self.name)
        self._executor = computers_executor(config)
        # Every table's save in the room's database, this owner's by lock and epoch (ownership.py);
        # at start it takes the playing tables nobody holds (a dead owner's, or its own of before).
        try:
            store = await loop.run_in_executor(None, lambda: PostgresTableStore(
                config.database, self.name, config.tables_dir, name_taken_refuses=True))
        except OwnershipError as exc:
            raise EngineError(str(exc)) from None
        self._store = store
        try:
            stored, next_id = await loop.run_in_executor(None, store.load)
        except OwnershipError as exc:
            raise EngineError(str(exc)) from None

        def trouble(table_id: int, reason: str | None) -> None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._trouble, table_id, reason)

        store.on_trouble = trouble
        store.start()
        self.registry = Registry(config, store, self._executor)
        self.registry.restore(stored, next_id)
        numbers = TableNumbers(config.database)
        await numbers.fill()
        self.lobby = OwnerLobby(self.bus, self.registry, self.name, numbers,
                                epoch_of=lambda table: store.ownership.held.get(table, 1))
        await self.lobby.start()

        # Tables lost stop at once; a dead owner's are taken, started ones and forming ones.
        own_tables(store, self.registry)
        self._sweep = asyncio.get_running_loop().create_task(self._watch_tables())
        log.info("owner %s: %d tables, in room %s", self.name, len(self.registry.tables), config.room)

    def _trouble(self, table_id: int, reason: str | None) -> None:
        if self.registry is not None:
            self.registry.save_trouble(table_id, reason)

    async def _watch_tables(self) -> None:
        while True:
            await asyncio.sleep(self.config.tick)
            if self.registry is not None:
                self.registry.sweep()

    async def stop(self) -> None:
        from ..server import end_workers

        if self._sweep is not None:
            self._sweep.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweep
        if self.lobby is not None:
            await self.lobby.stop()
        if self.registry is not None:
            self.registry.closing = True
            self.registry.close()
        loop = asyncio.get_running_loop()
        if self._store is not None:
            await loop.run_in_executor(None, self._store.close)
        if self._executor is not None:
            end_workers(self._executor)
            self._executor.shutdown(wait=False, cancel_futures=True)
        if self.bus is not None:
            await self.bus.close()


class FrontNode:
    """A front: the one-process server's door and apps, its lobby over every owner's tables."""

    def __init__(self, config: ServerConfig, name: str = "", server: Server | None = None) -> None:
        from ..server import Server

        self.config = config
        self.name = name or node_name(config, "front")
        self.server = server or Server(config)
        self.bus: Bus | None = None
        self.lobby: FrontLobby | None = None
        self.presence: Presence | None = None

    async def start(self) -> None:
        from .lobby import FrontLobby, TableNumbers

        self.bus = await connect_bus(self.config, self.name)
        await self.server.start()
        self.lobby = FrontLobby(self.bus, self.server.registry, self.name, TableNumbers(self.config.database))
        await self.lobby.start()
        self.server.registry.room = self.lobby
        # The people shared with the other fronts: their "read again" notices over the bus, and
        # who is online at every front (:mod:`..club.notices`, :mod:`.presence`).
        from ..club.notices import BusNotices
        from .presence import Presence

        self.server.share_people(BusNotices(self.bus))
        self.presence = await Presence.open(self.bus, self.name)
        self.server.registry.use_presence(self.presence)
        log.info("front %s: listening on port %d, in room %s", self.name, self.server.port, self.config.room)

    async def stop(self) -> None:
        await self.server.stop()
        if self.presence is not None:
            await self.presence.close()
        if self.lobby is not None:
            await self.lobby.stop()
        if self.bus is not None:
            await self.bus.close()


async def serve_node(config: ServerConfig, ready: Callable[[Server], None] | None = None,
                     owner_ready: Callable[[OwnerNode], None] | None = None) -> None:
    """``canasta serve``: the one-process server, or a node of a cluster in its role, until SIGINT
    or SIGTERM (then it stops cleanly)."""
    from ..server import serve

    if not config.cluster:
        await serve(config, ready)
        return
    await reach_engines(config)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)
    owner = OwnerNode(config) if config.role in ("owner", "both") else None
    front = FrontNode(config) if config.role in ("front", "both") else None
    try:
        if owner is not None:
            if front is not None:       # (its own directory: the front's tables and the owner's apart)
                owner.config = dataclasses.replace(config, directory=config.home / "owner")
            await owner.start()
            if owner_ready is not None:
                owner_ready(owner)
        if front is not None:
            await front.start()
            front.server.start_workers()
            if ready is not None:
                ready(front.server)
        await stop.wait()
    except ConfigError:
        raise
    finally:
        if front is not None:
            await front.stop()
        if owner is not None:
            await owner.stop()


__all__ = ["EngineError", "FrontNode", "OwnerNode", "node_name", "reach_engines", "serve_node"]
