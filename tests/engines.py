"""Real engines for tests (issue 32, section 6): PostgreSQL, NATS and HAProxy as plain processes in
a temporary directory on free ports of 127.0.0.1, stopped by their PIDs even when a test fails.
Never mocked, never the machine's own service.  The code that starts them is the package's
(``canasta_tui/server/cluster/local.py``, which ``canasta cluster try`` runs too); this module
gives it to the tests, with their fixtures:

* ``postgres``: one server per pytest process (each xdist worker starts its own), ``pg_dsn`` a new
  empty database on it for each test, dropped after;
* ``nats``: one nats-server per pytest process, ``nats_url`` its address, ``nats_room`` a room of
  the test's own (its subjects are heard by no other test); a test that kills or restarts the bus
  starts its own with ``with nats_server() as bus: ...``;
* HAProxy has no fixture: a test starts ``haproxy_server(backends)`` once its servers listen.

A test module uses them by importing them (``from engines import pg_dsn, postgres``).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import psycopg
import pytest

from canasta_tui.server.cluster.local import (  # noqa: F401  (the tests' names for them)
    HAPROXY,
    NATS_BIN,
    PG_USER,
    START_WAIT,
    STOP_WAIT,
    EngineMissing,
    HAProxy,
    Nats,
    Postgres,
    free_port,
    haproxy_config,
    haproxy_server,
    nats_server,
    pg_bin,
    postgres_server,
)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """One throwaway PostgreSQL for this pytest process (with xdist: for this worker)."""
    with postgres_server() as server:
        yield server

@pytest.fixture
def pg_dsn(postgres: Postgres) -> Iterator[str]:
    """A new empty database for one test on the process's server, dropped after it."""
    name = f"t_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(postgres.dsn(), autocommit=True, connect_timeout=10) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield postgres.dsn(name)
    finally:
        with psycopg.connect(postgres.dsn(), autocommit=True, connect_timeout=10) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

@pytest.fixture(scope="session")
def nats() -> Iterator[Nats]:
    """One throwaway nats-server for this pytest process (with xdist: for this worker)."""
    with nats_server() as server:
        yield server

@pytest.fixture
def nats_url(nats: Nats) -> str:
    """The address of the process's nats-server."""
    return nats.url

@pytest.fixture
def nats_room() -> str:
    """A room name of this test's own: its subjects (``canasta.<room>.…``) are heard by no other test."""
    return f"t{uuid.uuid4().hex[:12]}"
