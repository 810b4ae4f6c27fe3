"""Issue 12: the start menu's games with the real files (each test has its own CANASTA_HOME): new
games seated as the DOS game seats them with every seat's name, Resume, Load, Play again, the
unfinished game kept as a backup when a new one starts, the rules new games play by."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from canasta_tui.engine import replay
from canasta_tui.persistence import Autosaver, paths, settings, stats
from canasta_tui.persistence.saves import save_named
from canasta_tui.persistence.selfplay import game_over, start, step
from canasta_tui.persistence.stores import SettingsFile
from canasta_tui.play.home import LocalHome
from canasta_tui.play.local import attach
from canasta_tui.play.seats import seating
from canasta_tui.presets import load_rules
from canasta_tui.table import LOCAL, Seat, Table


@pytest.fixture
def home() -> Iterator[LocalHome]:
    h = LocalHome()
    yield h
    h.close()


def started(got: object) -> Table:
    assert isinstance(got, tuple), got
    table = got[0]
    assert isinstance(table, Table)
    return table


def unfinished_autosave() -> None:
    m = step(step(step(start(1), 1), 1), 1)
    Autosaver({"seats": ["human", "computer", "computer", "computer"], "names": ["Ann", "", "", ""]}).save(m)


def test_one_and_two_human_players_are_seated_as_the_dos_game_seats_them() -> None:
    """DOS manual: 'Selecting the "One Human Player" option teams you as Player 1 with your partner,
    computer Player 3.  Selecting the "Two Human Player" option adds a second human as Player 4
    teaming with computer Player 2.'"""
    rules = load_rules("classic")
    assert [s.human for s in seating(1, rules, "expert", [])] == [True, False, False, False]
    assert [s.human for s in seating(2, rules, "expert", [])] == [True, False, False, True]
    assert [s.human for s in seating(3, rules, "expert", [])] == [True, False, True, True]
    assert [s.human for s in seating(0, rules, "expert", [])] == [False] * 4
    assert {s.level for s in seating(1, rules, "expert", [])} == {"expert"}
    two = load_rules("two-player")
    assert [s.human for s in seating(2, two, "advanced", [])] == [True, True]


def test_a_new_game_takes_the_settings_names_level_and_rules(home: LocalHome) -> None:
    settings.put_value("names", ["Ann", "", "", "Bob"])
    settings.put_value("level", "beginner")
    settings.put_value("rule_options", {"target_score": 2000})
    t = started(home.new(2))
    assert [(s.kind, s.name) for s in t.seats] == [(LOCAL, "Ann"), ("computer", ""), ("computer", ""), (LOCAL, "Bob")]
    assert {s.level for s in t.seats} == {"beginner"} and t.rules.target_score == 2000
    assert paths.autosave_path().exists() and [p.table for p in home.played] == [t]


def test_the_command_line_wins_until_the_options_change_that_setting(home: LocalHome) -> None:
    h = LocalHome(level="expert", name="Zed", rules=load_rules("windows"))
    try:
        settings.put_value("level", "beginner")
        t = started(h.new(1))
        assert (t.seats[0].name, t.seats[1].level, t.rules.name) == ("Zed", "expert", "windows")
        h.settings.save("level", "advanced")           # the options screen saves it: the file counts now
        h.settings.save("rule_options", {"hand_size": 13})
        t = started(h.new(1))
        assert (t.seats[1].level, t.rules.name, t.rules.hand_size) == ("advanced", "classic", 13)
    finally:
        h.close()


def test_a_preset_or_a_name_chosen_in_the_options_ends_what_the_command_line_said(home: LocalHome) -> None:
    h = LocalHome(name="Zed", rules=load_rules("windows"))
    try:
        h.settings.save("rules", "mobile")
        h.settings.save("name", "Ann")
        t = started(h.new(1))
        assert (t.seats[0].name, t.rules.name) == ("Ann", "mobile")
    finally:
        h.close()


def test_resume_plays_the_unfinished_game_on_with_its_seats(home: LocalHome) -> None:
    assert home.unfinished() is None and home.resume() == "There is no unfinished game to resume"
    unfinished_autosave()
    home._found = None
    assert home.unfinished() == "hand 1, 0 to 0"
    t = started(home.resume())
    assert t.seats[0].name == "Ann" and t.match.hand_number == 1 and len(t.match.log[-1]) == 3


def test_a_new_game_keeps_the_unfinished_one_as_a_backup_that_load_lists(home: LocalHome) -> None:
    unfinished_autosave()
    t = started(home.new(1))
    notice = t and home.current is not None and home.current.saver.notices[0]
    assert isinstance(notice, str) and notice.startswith("The unfinished game was kept as ")
    backups = list(paths.state_dir().glob("autosave.backup-*.json"))
    assert len(backups) == 1 and str(backups[0]) in notice
    assert [s.path for s in home.saved_games()] == backups
    loaded = started(home.load(str(backups[0])))
    assert loaded.seats[0].name == "Ann" and len(loaded.match.log[-1]) == 3


def test_load_refuses_what_cannot_be_played_on_with_the_reason(home: LocalHome, tmp_path: object) -> None:
    assert home.load("/nonexistent/game.json").startswith("Not loaded: ")    # type: ignore[union-attr]
    m = start(2)
    rules = m.rules.replace(target_score=50)
    m = m._replace(rules=rules, state=m.state._replace(rules=rules))
    while not game_over(m):
        m = step(m, 2)
    path = save_named(m, {}, "over")
    said = home.load(str(path))
    assert isinstance(said, str) and said.startswith(f"Not loaded: the match in {path} is over")


def test_play_again_keeps_the_seats_and_rules_and_deals_a_new_match(home: LocalHome) -> None:
    settings.put_value("names", ["Ann"])
    t = started(home.new(1))
    again = started(home.again(t))
    assert again is not t and again.seats == t.seats and again.rules == t.rules
    assert again.match.hand_number == 1 and [p.table for p in home.played] == [t, again]


def test_the_home_reads_what_the_settings_file_and_the_statistics_say(home: LocalHome) -> None:
    f = SettingsFile()
    assert f.save("level", "godlike") == "level must be one of beginner, advanced, expert, not 'godlike'"
    assert f.save("level", "expert") is None and f.values()["level"] == "expert"
    assert home.stats.read().ratios == [] and home.stats.read().problem is None
    assert home.stats.reset(None) == "Reset: 0 matches no longer counted (the history is kept)."
    assert [w for w, _ in home.files()] == ["settings", "autosave", "saves", "statistics", "server"]


def test_two_unnamed_humans_are_recorded_as_two_players(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hot-seat with no names: both humans were recorded under the login name, so the second
    one's result was dropped (one row per game and name)."""
    monkeypatch.setenv("USER", "ann")
    m = start(3)
    rules = m.rules.replace(target_score=50)
    m = m._replace(rules=rules, state=m.state._replace(rules=rules))
    while not game_over(m):
        m = step(m, 3)
    last = m.log[-1][-1]
    before = replay(m.rules, m.decks, (*m.log[:-1], m.log[-1][:-1]), m.first_dealer)
    seats = [Seat(LOCAL), Seat(), Seat(), Seat(LOCAL)]
    table = Table(before.rules, seats, 1, match=before)
    local = attach(table, "game-2", exit_savers=False)
    assert table.submit(table.state.actor, [last]).ok
    assert local.statistics_outcome() is None
    assert sorted(r.player for r in stats.history()) == ["Player 4", "ann"]


def test_rules_the_settings_name_but_cannot_give_are_told_once_and_classic_is_played(home: LocalHome) -> None:
    settings.put_value("rules", "no-such-preset")
    assert home.rules().name == "classic" and home.rules().name == "classic"
    [notice] = home.notices()
    assert notice.startswith("The rules in the settings cannot be used (no rules preset 'no-such-preset'")
    assert notice.endswith("new games play classic.")
    home.rules()
    assert home.notices() == []
