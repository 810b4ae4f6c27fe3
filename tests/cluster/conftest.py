"""The engines' fixtures for every test of the cluster (``tests/`` is on ``sys.path``, as for
``tests/server``): ``nats``, ``nats_url``, ``nats_room``, ``postgres``, ``pg_dsn``."""

from __future__ import annotations

from engines import nats, nats_room, nats_url, pg_dsn, postgres  # noqa: F401  (fixtures)
