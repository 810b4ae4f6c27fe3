"""``canasta serve --role single|front|owner|both --database … --bus …`` (issue 32, docs/cluster.md):
the one-process server stays the default; a node of a cluster names both engines, in a form that is
checked, and stops with a clear message and exit code when one cannot be reached."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from engines import free_port, pg_dsn, postgres  # noqa: F401  (fixtures)

from canasta_tui.cli import main
from canasta_tui.server import ConfigError, ServerConfig
from canasta_tui.server.config_file import read_file

BUS = "nats://127.0.0.1:4222"
DB = "postgresql://canasta@127.0.0.1:5432/canasta"


def serve(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, ["serve", "--open", "--port", "0", *args])
    return r.exit_code, r.output


def test_the_one_process_server_is_the_default_and_needs_no_engine() -> None:
    config = ServerConfig(open=True).checked()
    assert config.role == "single" and not config.cluster
    # (the people store may be on PostgreSQL for one process too: only the bus makes a cluster)
    assert ServerConfig(open=True, database=DB).checked().database == DB


@pytest.mark.parametrize(("args", "says"), [
    (("--role", "front"), "--role front runs on the cluster's engines: give --database postgresql://USER@HOST/DATABASE "
                          "and --bus nats://HOST:4222"),
    (("--role", "owner", "--database", DB), "--role owner runs on the cluster's engines: give --bus nats://HOST:4222"),
    (("--role", "both", "--bus", BUS), "give --database postgresql://USER@HOST/DATABASE"),
    (("--bus", BUS), "--bus is for a node of a cluster: give --role front, owner or both"),
    (("--role", "boss"), "'boss' is not one of 'single', 'front', 'owner', 'both'"),
    (("--role", "front", "--bus", BUS, "--database", "mysql://root:hunter2@db/x"),
     "--database is a PostgreSQL URL (postgresql://USER@HOST:PORT/DATABASE), not 'mysql://db/x'"),
    (("--role", "front", "--bus", BUS, "--database", "postgresql://h:notaport/x"), "--database is not a PostgreSQL URL"),
    (("--role", "front", "--database", DB, "--bus", "http://127.0.0.1:4222"), "--bus is a NATS URL (nats://HOST:PORT)"),
    (("--role", "front", "--database", DB, "--bus", "nats://127.0.0.1:99999"), "--bus is a NATS URL"),
    (("--role", "front", "--database", DB, "--bus", "nats://"), "--bus is a NATS URL"),
    (("--role", "front", "--database", DB, "--bus", ",".join([BUS] * 17)), "--bus lists at most 16 servers (it lists 17)"),
    (("--role", "front", "--bus", BUS, "--database", "postgresql://" + "h" * 1000), "--database is at most 1000 characters"),
    (("--role", "front", "--database", DB, "--bus", "nats://a\x1b[2Jb:4222"), "--bus is empty or holds control characters"),
])
def test_a_cluster_node_names_both_engines_in_a_form_that_is_checked(args: tuple[str, ...], says: str) -> None:
    code, out = serve(*args)
    assert code == 2, out
    assert says in " ".join(out.split())
    assert "hunter2" not in out                  # (a password is never repeated)


def test_an_owner_lets_nobody_in_so_it_names_no_way_in() -> None:
    assert ServerConfig(role="owner", database=DB, bus=BUS).checked().role == "owner"
    with pytest.raises(ConfigError, match="say who may enter"):
        ServerConfig(role="front", database=DB, bus=BUS).checked()


def test_the_settings_file_takes_the_role_and_the_engines(tmp_path: Path) -> None:
    f = tmp_path / "serve.toml"
    f.write_text(f'[serve]\nopen = true\nrole = "owner"\ndatabase = "{DB}"\nbus = "{BUS}"\n')
    values = read_file(f)
    assert (values["role"], values["database"], values["bus"]) == ("owner", DB, BUS)
    f.write_text('[serve]\nopen = true\nrole = "captain"\n')
    with pytest.raises(ConfigError, match="role is one of single, front, owner, both, not 'captain'"):
        ServerConfig(**read_file(f)).checked()


def test_a_database_that_cannot_be_reached_stops_the_node_saying_where_and_why() -> None:
    port = free_port()              # (nothing listens there)
    code, out = serve("--role", "front", "--database", f"postgresql://canasta:hunter2@127.0.0.1:{port}/canasta",
                      "--bus", BUS)
    assert code == 1
    assert f"cannot reach the database at 127.0.0.1:{port}/canasta" in out
    assert "hunter2" not in out


def test_a_bus_that_cannot_be_reached_stops_the_node_saying_where(pg_dsn: str) -> None:  # noqa: F811
    port = free_port()
    code, out = serve("--role", "owner", "--database", pg_dsn, "--bus", f"nats://127.0.0.1:{port}")
    assert code == 1
    assert f"cannot reach the bus at nats://127.0.0.1:{port}" in out
