"""The cluster (issue 32) against real engines: a nats-server (and PostgreSQL) started by
``tests/engines.py`` as plain processes on 127.0.0.1, stopped by their PIDs."""
