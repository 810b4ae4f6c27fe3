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


def test_names_hold_every_seat_and_name_still_wins_for_player_1() -> None:
    """Issue 12: the options screen sets every human seat's name, not only Player 1's."""
    settings.set_value("names", "Ann, , ,Bob")
    loaded = settings.load_settings()
    assert loaded.settings.names == ["Ann", "", "", "Bob"]
    assert settings.seat_names(loaded.settings) == ["Ann", "", "", "Bob"]
    settings.set_value("name", "Zoe")
    assert settings.seat_names(settings.load_settings().settings) == ["Zoe", "", "", "Bob"]
    assert 'names = ["Ann", "", "", "Bob"]' in paths.settings_path().read_text()


@pytest.mark.parametrize(("value", "message"), [
    (["a", "b", "c", "d", "e"], "names may list at most 4 names (one per seat), not 5"),
    (["Ann", "Bo\x1b"], "names: Player 2: a name may not hold control characters (\\x1b)"),
    (["x" * 21], "names: Player 1: a name may be at most 20 characters long, not 21"),
    ("Ann", "names must be a list of names, not 'Ann'"),
])
def test_bad_names_are_refused_with_the_seat_and_the_reason(value: object, message: str) -> None:
    with pytest.raises(settings.SettingsError) as exc:
        settings.put_value("names", value)
    assert str(exc.value) == message
    assert not paths.settings_path().exists()


def test_put_value_saves_a_typed_value_and_refuses_a_bad_one_leaving_the_file_as_it_was() -> None:
    settings.put_value("aggression", 70)
    settings.put_value("mouse", True)
    with pytest.raises(settings.SettingsError, match="aggression must be from 0 to 100, not 150"):
        settings.put_value("aggression", 150)
    loaded = settings.load_settings()
    assert (loaded.settings.aggression, loaded.settings.mouse) == (70, True)


def test_rule_options_are_checked_over_any_preset_not_only_classic() -> None:
    """The options change the chosen preset: players = 3 without partnerships is wrong over
    classic (partnerships need four players) and right over three-player; an unknown option or
    a value out of bounds is wrong over every preset, and the reason is classic's."""
    settings.put_value("rules", "three-player")
    settings.put_value("rule_options", {"players": 3, "hand_size": 12})
    assert settings.load_settings().settings.rule_options == {"players": 3, "hand_size": 12}
    with pytest.raises(settings.SettingsError, match="unknown rule option 'jokers'"):
        settings.put_value("rule_options", {"jokers": 9})
    with pytest.raises(settings.SettingsError, match="target_score must be a whole number from 1 to 1000000"):
        settings.put_value("rule_options", {"target_score": 0})
