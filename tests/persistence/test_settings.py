"""Settings: a TOML file that sticks, checked, never overwritten when broken."""

from __future__ import annotations

import pytest

from canasta_tui.persistence import paths, settings


def test_defaults_without_a_file() -> None:
    loaded = settings.load_settings()
    assert not loaded.exists and loaded.problem is None and loaded.settings == settings.Settings()


def test_set_writes_the_file_and_load_reads_it_back() -> None:
    settings.set_value("level", "expert")
    settings.set_value("four_color", "yes")
    settings.set_value("rule_options", "target_score = 3000")
    loaded = settings.load_settings()
    assert (loaded.settings.level, loaded.settings.four_color) == ("expert", True)
    assert loaded.settings.rule_options == {"target_score": 3000}
    assert loaded.from_file == {"level", "four_color", "rule_options"}
    settings.unset_value("level")
    assert settings.load_settings().settings.level == "advanced"


@pytest.mark.parametrize(("key", "value", "message"), [
    ("level", "grandmaster", "level must be one of beginner, advanced, expert"),
    ("aggression", "150", "aggression must be from 0 to 100"),
    ("delay", "soon", "delay must be a whole number"),
    ("mouse", "maybe", "mouse must be true or false"),
    ("rule_options", "jokers = 9", "unknown rule option 'jokers'"),
])
def test_bad_values_are_refused_with_the_reason(key: str, value: str, message: str) -> None:
    with pytest.raises(settings.SettingsError, match=message):
        settings.set_value(key, value)
    assert not paths.settings_path().exists()


def test_a_broken_file_gives_the_defaults_a_message_and_is_never_overwritten() -> None:
    p = paths.settings_path()
    p.parent.mkdir(parents=True)
    p.write_text("level = \n")
    loaded = settings.load_settings()
    assert loaded.settings == settings.Settings()
    assert loaded.problem is not None and str(p) in loaded.problem and "not valid TOML" in loaded.problem
    with pytest.raises(settings.SettingsError, match="not changing it"):
        settings.set_value("level", "expert")
    assert p.read_text() == "level = \n"


def test_a_bad_value_in_the_file_falls_back_to_the_default_for_that_setting() -> None:
    p = paths.settings_path()
    p.parent.mkdir(parents=True)
    p.write_text('level = "expert"\ndelay = -4\n')
    loaded = settings.load_settings()
    assert loaded.settings.level == "expert" and loaded.settings.delay == 400
    assert loaded.problem is not None and "delay must be from 0 to 10000" in loaded.problem


def test_canasta_home_moves_every_directory(home: object) -> None:
    for p in paths.all_paths().values():
        assert str(p).startswith(str(home))


def test_an_array_nested_5000_deep_gives_the_defaults_and_a_message() -> None:
    """`name = [[[…]]]` nested 5,000 deep gave RecursionError from the TOML parser."""
    p = paths.settings_path()
    p.parent.mkdir(parents=True)
    p.write_text("name = " + "[" * 5000 + "]" * 5000 + "\n")
    loaded = settings.load_settings()
    assert loaded.settings == settings.Settings()
    assert loaded.problem == f"{p}: not valid TOML (nested too deeply); using the defaults"
    with pytest.raises(settings.SettingsError, match="rule_options: a value is nested too deeply"):
        settings.parse_value("rule_options", "initial_meld = " + "[" * 5000 + "]" * 5000)


@pytest.mark.parametrize(("key", "value", "message"), [
    ("rules", "", "rules must name a preset or a .toml file"),
    ("rules", "classic\x1b[2J", "rules may not hold control characters (classic\\x1b[2J)"),
    ("name", "Ann\x07", "name: a name may not hold control characters (\\x07)"),
    ("name", "\ud800", "name: a name may not hold control characters (\\ud800)"),
    ("level", "x" * 500, "level must be one of beginner, advanced, expert, not 'xxxxxxxxxx"),
])
def test_text_settings_are_checked_and_the_message_stays_short(key: str, value: str, message: str) -> None:
    with pytest.raises(settings.SettingsError) as err:
        settings.set_value(key, value)
    assert str(err.value).startswith(message) and len(str(err.value)) < 120
    assert not paths.settings_path().exists()
