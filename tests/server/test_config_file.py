"""The server's settings file (``canasta serve --config FILE``, the settings file's ``[serve]``):
every value checked with a message naming the key and the file; options on the command line
override it; the game's own settings leave ``[serve]`` alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from canasta_tui.cli import main
from canasta_tui.persistence import paths, settings
from canasta_tui.server import ConfigError
from canasta_tui.server.config_file import merged, read_file, serve_settings

ADMIN = "SHA256:" + "A" * 42 + "Q"


def write(tmp_path: Path, text: str, name: str = "club.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_club_file_sets_the_server(tmp_path: Path) -> None:
    path = write(tmp_path, f"""
[serve]
host = "0.0.0.0"
port = 2300
authorized_keys = "club_keys"
max_connections = 50
tables_per_person = 2
login_attempts = 5
set_aside_days = 7.5
motd = "Club night: Thursday"
timezone = "Europe/Paris"
admins = ["{ADMIN}"]
expert_budget = 0.3
room_for_keys = 4
max_silent = 64
""")
    config = merged(read_file(path), {})
    assert (config.room_for_keys, config.max_silent, config.guest_room) == (4, 64, 46)
    assert (config.host, config.port, config.max_connections, config.tables_per_person) == ("0.0.0.0", 2300, 50, 2)
    assert config.authorized_keys == tmp_path / "club_keys"          # relative to the file
    assert config.login_attempts == 5 and config.set_aside_after == 7.5 * 86400
    assert config.motd == "Club night: Thursday" and config.admins == frozenset({ADMIN})
    assert config.expert_budget == 0.3
    assert config.timezone == "Europe/Paris" and str(config.zone()) == "Europe/Paris"


def test_the_password_comes_from_the_variable_the_file_names(tmp_path: Path) -> None:
    path = write(tmp_path, 'password_env = "CLUB_PASSWORD"\n')
    assert merged(read_file(path, env={"CLUB_PASSWORD": "s3cret"}), {}).password == "s3cret"
    with pytest.raises(ConfigError, match=r"club\.toml: password_env: the environment variable CLUB_PASSWORD is not set"):
        read_file(path, env={})


@pytest.mark.parametrize(("text", "says"), [
    ('[serve]\nport = 70000', "club.toml: [serve] port must be from 0 to 65535, not 70000"),
    ('[serve]\nport = "22"', "club.toml: [serve] port must be a whole number, not '22'"),
    ('[serve]\nopen = "yes"', "club.toml: [serve] open must be true or false, not 'yes'"),
    ('[serve]\nmax_tables = 0', "club.toml: [serve] max_tables must be from 1 to 1000, not 0"),
    ('[serve]\nexpert_budget = 0.01', "club.toml: [serve] expert_budget must be from 0.05 to 10, not 0.01"),
    ('[serve]\nset_aside_days = -1', "club.toml: [serve] set_aside_days must be from 0 to 3650, not -1"),
    ('[serve]\nadmins = "SHA256:x"', "club.toml: [serve] admins must be a list of key fingerprints"),
    ('[serve]\nadmins = ["alice"]', "club.toml: [serve] admins 'alice' is not a key's SHA256 fingerprint"),
    ('[serve]\nmotd = "a\\u001b[2Jb"', "club.toml: [serve] motd may not hold control characters"),
    ('[serve]\nmotd = "1\\n2\\n3\\n4"', "club.toml: [serve] motd is at most 3 lines and 400 characters"),
    ('[serve]\ntimezone = "Mars/Olympus"', "club.toml: [serve] timezone 'Mars/Olympus' is not a time zone"),
    ('[serve]\ntimezone = "../../etc/passwd"', "club.toml: [serve] timezone '../../etc/passwd' is not a time zone"),
    ('[serve]\ntimezone = 1', "club.toml: [serve] timezone must be text in quotes, not 1"),
    ('[serve]\nhots = "x"', "club.toml: [serve] unknown key 'hots'; the keys are: host, port,"),
    ('[serve]\npassword_env = "A B"', "club.toml: [serve] password_env must name an environment variable"),
    ('[serve]\nhost = ""', "club.toml: [serve] host is empty"),
    ('port = 1\n[serve]\nhost = "x"', "club.toml: 'port' is outside [serve]"),
    ('[serve', "club.toml: not valid TOML"),
])
def test_every_bad_value_is_refused_naming_the_key_and_the_file(tmp_path: Path, text: str, says: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as exc:
        read_file(path, env={})
    assert says in str(exc.value)
    assert str(tmp_path) in str(exc.value)


def test_values_that_do_not_go_together_are_refused(tmp_path: Path) -> None:
    path = write(tmp_path, '[serve]\nopen = true\nmax_tables = 2\ntables_per_person = 3\n')
    with pytest.raises(ConfigError, match=r"tables-per-person must be between 1 and max-tables, 2 \(not 3\)"):
        merged(read_file(path), {})


def test_command_line_options_override_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, '[serve]\nport = 2300\nmax_tables = 9\npassword_env = "P"\n')
    config = merged(read_file(path, env={"P": "pw"}), {"port": 2400, "open": True})
    # The port given wins, the file's max_tables stays, and --open replaces the file's password.
    assert (config.port, config.max_tables, config.open, config.password) == (2400, 9, True, None)


def test_the_settings_files_serve_section_is_read_and_kept_by_the_game(tmp_path: Path) -> None:
    path = paths.settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('level = "expert"\n\n[serve]\nopen = true\nport = 2301\nset_aside_days = 2.5\n')
    assert merged(serve_settings(None), {}).port == 2301
    loaded = settings.load_settings()
    assert loaded.problem is None and loaded.settings.level == "expert"
    settings.set_value("delay", "100")                         # the game changes a setting ...
    assert merged(serve_settings(None), {}).set_aside_after == 2.5 * 86400      # ... the server's stay
    assert settings.load_settings().settings.delay == 100


def test_a_settings_file_without_serve_says_nothing_but_a_missing_config_file_is_an_error(tmp_path: Path) -> None:
    assert serve_settings(None) == {}
    with pytest.raises(ConfigError, match=r"missing\.toml"):
        serve_settings(tmp_path / "missing.toml")


def test_canasta_serve_config_refuses_a_bad_file_before_it_listens(tmp_path: Path) -> None:
    path = write(tmp_path, '[serve]\nopen = true\nlogin_attempts = 0\n')
    r = CliRunner().invoke(main, ["serve", "--config", str(path)])
    assert r.exit_code == 2
    assert "club.toml: [serve] login_attempts must be from 1 to 1000, not 0" in r.output
    # A flag says who may enter: the file's way in is replaced, its bad value still refused.
    path = write(tmp_path, '[serve]\nopen = true\nport = 99999\n')
    r = CliRunner().invoke(main, ["serve", "--config", str(path), "--port", "0"])
    assert r.exit_code == 2 and "[serve] port must be from 0 to 65535, not 99999" in r.output


@pytest.mark.parametrize(("text", "says"), [
    ('[serve]\nopen = true\npassword_env = "P"\n',
     r"club\.toml: \[serve\] open = true lets everybody in: it cannot go with password_env \(keep one way in\)"),
    ('open = true\nauthorized_keys = "keys"\npassword_env = "P"\n',
     r"club\.toml: open = true lets everybody in: it cannot go with authorized_keys or password_env"),
])
def test_a_file_with_open_and_a_password_is_named_in_its_own_words(tmp_path: Path, text: str, says: str) -> None:
    """The club's file is what is wrong, so the message names it and its keys, not --open and --password."""
    path = write(tmp_path, text)
    with pytest.raises(ConfigError, match=says) as got:
        merged(read_file(path, env={"P": "pw"}), {})
    assert "--" not in str(got.value)
    # open = false with a password is simply the password.
    assert merged(read_file(write(tmp_path, 'open = false\npassword_env = "P"\n', "two.toml"), env={"P": "pw"}),
                  {}).password == "pw"
    r = CliRunner().invoke(main, ["serve", "--config", str(path)], env={"P": "pw"})
    assert r.exit_code == 2 and "club.toml: " in r.output and "--open" not in r.output
