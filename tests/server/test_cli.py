"""``canasta serve`` on the command line: it says who may enter, or refuses to start."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest
from click.testing import CliRunner

from canasta_tui.cli import main
from canasta_tui.server import ConfigError, ServerConfig


def serve(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    r = CliRunner().invoke(main, ["serve", *args], env=env)
    return r.exit_code, r.output


def test_without_a_way_in_the_server_does_not_start() -> None:
    code, out = serve()
    assert code == 2
    assert "say who may enter: --authorized-keys FILE, --password, or --open" in out


def test_the_password_is_never_an_argument_and_is_read_from_the_environment_or_asked() -> None:
    code, out = serve("--password", "secret")
    assert code == 2 and "unexpected extra argument" in out.lower()
    code, out = serve("--password", env={"CANASTA_SERVE_PASSWORD": ""})
    assert code == 2 and "set CANASTA_SERVE_PASSWORD, or start the server in a terminal" in out


@pytest.mark.parametrize(("args", "says"), [
    (("--open", "--authorized-keys", "keys"), "--open lets everybody in"),
    (("--port", "70000"), "70000 is not in the range"),
    (("--open", "--max-tables", "4", "--tables-per-person", "5"),
     "tables-per-person must be between 1 and max-tables, 4 (not 5)"),
    (("--open", "--max-tables", "0"), "0 is not in the range 1<=x<=1000"),
    (("--open", "--set-aside-days", "-1"), "-1.0 is not in the range 0<=x<=3650"),
    (("--open", "--max-logins", "2", "--max-logins-per-address", "5"),
     "max-logins-per-address (5) cannot be more than max-logins (2)"),
    (("--open", "--login-timeout", "0"), "0 is not in the range 1<=x<=600"),
])
def test_options_that_cannot_go_together_or_are_out_of_range(args: tuple[str, ...], says: str) -> None:
    code, out = serve(*args)
    assert code == 2 and says in out


@pytest.mark.parametrize(("changes", "says"), [
    ({"max_tables": 1001}, "max-tables must be between 1 and 1000 (not 1001)"),
    ({"tables_per_person": 0}, "tables-per-person must be between 1 and max-tables, 40 (not 0)"),
    ({"forming_timeout": -1.0}, "times must not be negative"),
    ({"set_aside_after": -1.0}, "times must not be negative"),
    ({"rematch_answer": 0.0}, "rematch-answer must be more than 0 seconds, not 0"),
])
def test_the_limits_on_tables_are_checked_however_the_server_is_configured(changes: dict[str, Any],
                                                                           says: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(says)):
        dataclasses.replace(ServerConfig(open=True), **changes).checked()
