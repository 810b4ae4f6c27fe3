"""Issue 12: Options and Rule options by keys, saved to the real settings file (each test has its
own CANASTA_HOME): navigation, changing and typing values, bad values refused with the reason
and nothing changed, every seat's name, the preset to start from."""

from __future__ import annotations

import tomllib
from typing import Any

from canasta_tui.persistence import paths
from canasta_tui.persistence.stores import SettingsFile
from canasta_tui.ui.options import RULE_ABOUT, RULE_LABELS, OptionsPage, PresetSource, RuleOptionsPage, rule_label

from .pages_helpers import screen, typ


def file() -> dict[str, Any]:
    return tomllib.loads(paths.settings_path().read_text(encoding="utf-8"))


def options(**kw: Any) -> tuple[OptionsPage, list[tuple[str, Any]]]:
    seen: list[tuple[str, Any]] = []
    page = OptionsPage(SettingsFile(), lambda k, v: seen.append((k, v)), rules_page=lambda: rules(), **kw)
    return page, seen


def rules() -> RuleOptionsPage:
    return RuleOptionsPage(SettingsFile(), PresetSource())


def selected(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("  > "))


def test_up_down_choose_and_the_line_below_explains_the_choice() -> None:
    page, _ = options()
    assert "how well the computers play" in screen(page)
    typ(page, "down", "down")
    text = screen(page)
    assert selected(text).startswith("  > Computer delay") and "pause after each computer play" in text
    typ(page, "up", "up", "up")                            # wraps round to the last line
    assert selected(screen(page)).startswith("  > Rule options")


def test_left_right_change_a_choice_and_it_is_saved_at_once() -> None:
    page, seen = options()
    typ(page, "right")
    assert file()["level"] == "expert" and "Saved: Computer level = expert" in screen(page)
    typ(page, "left", "left")
    assert file()["level"] == "beginner"
    typ(page, "down", "right")                               # aggression steps by 10
    assert file()["aggression"] == 60
    assert seen == [("level", "expert"), ("level", "advanced"), ("level", "beginner"), ("aggression", 60)]


def test_a_typed_number_out_of_range_is_refused_with_the_reason_and_kept_to_correct() -> None:
    page, _ = options()
    typ(page, "down", "enter", "c-u", "150", "enter")
    text = screen(page)
    assert "aggression must be from 0 to 100, not 150" in text
    assert "150_" in selected(text)                       # the field stays open with what was typed
    assert not paths.settings_path().exists()
    typ(page, "c-h", "c-h", "c-h", "x", "enter")
    assert "Expert aggression: type a whole number, not 'x'" in screen(page)
    typ(page, "c-h", "75", "enter")
    assert file()["aggression"] == 75 and "Saved: Expert aggression = 75" in screen(page)


def test_esc_tab_or_arrows_leave_a_field_unchanged() -> None:
    page, _ = options()
    for leave in ("escape", "tab", "up"):
        typ(page, "home", "down", "down", "enter", "9", leave)
        assert "Computer delay is unchanged" in screen(page)
    assert not paths.settings_path().exists()


def test_every_human_seat_has_its_name() -> None:
    page, seen = options()
    typ(page, "down", "down", "down", "enter", "Ann", "enter")
    typ(page, "down", "down", "down", "enter", "Bob", "enter")
    assert file()["name"] == "Ann" and file()["names"] == ["", "", "", "Bob"]
    text = screen(page)
    assert "Player 4 name            Bob" in text and "Player 2 name            (Player 2)" in text
    # Emptied, a seat is "Player N" again and the list gets shorter.
    typ(page, "enter", "c-u", "enter")
    assert "names" not in file() or file()["names"] == []
    assert ("names", ["", "", "", "Bob"]) in seen


def test_a_name_too_long_cannot_be_typed_past_twenty_characters() -> None:
    page, _ = options()
    typ(page, "down", "down", "down", "enter", "c-u", "x" * 30, "enter")
    assert file()["name"] == "x" * 20


def test_a_broken_settings_file_is_never_overwritten_and_the_screen_says_why() -> None:
    p = paths.settings_path()
    p.parent.mkdir(parents=True)
    p.write_text("level = \n")
    page, seen = options()
    typ(page, "right")
    assert "not changing it: fix or remove the file first" in screen(page)
    assert p.read_text() == "level = \n" and seen == []


def test_in_the_game_the_screen_says_what_waits_for_the_next_game() -> None:
    page, _ = options(in_game=True)
    assert "how well the computers play: beginner, advanced or expert (from the next new" in screen(page)
    typ(page, "right")
    assert "Saved: Computer level = expert (from the next new game)" in screen(page)
    typ(page, "down", "down", "right")
    assert "Saved: Computer delay = 500 ms" not in screen(page)      # the delay counts at once
    assert "Saved: Computer delay = 500" in screen(page) and "next new game" not in screen(page).splitlines()[-2]


def test_rule_options_open_from_options_and_come_back() -> None:
    page, _ = options()
    typ(page, "r")
    assert "CANASTA — Rule options" in screen(page)
    typ(page, "q")
    assert "CANASTA — Options" in screen(page)
    typ(page, "end", "enter")
    assert "CANASTA — Rule options" in screen(page)


# ---------------------------------------------------------------------- rule options

def rule_line(text: str, option: str) -> str:
    """The page's line of ``option`` (its code name), which the page shows by its label."""
    return next(line for line in text.splitlines() if line[3:].startswith(rule_label(option) + " "))


def test_a_yes_no_option_toggles_and_only_changes_are_saved() -> None:
    page = rules()
    go(page, "canasta_required_for_positive_score")
    typ(page, "right")
    assert file()["rule_options"] == {"canasta_required_for_positive_score": True}
    text = screen(page)
    assert rule_line(text, "canasta_required_for_positive_score").rstrip().endswith("yes *")
    assert "new games: classic + 1 change" in text
    typ(page, "right")                                   # back to the preset's value: nothing to keep
    assert file().get("rule_options", {}) == {}
    assert "new games: classic\n" in screen(page)


def selected_rule(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(" > "))


def go(page: RuleOptionsPage, option: str) -> None:
    for _ in range(60):
        if selected_rule(screen(page))[3:].startswith(rule_label(option) + " "):
            return
        typ(page, "down")
    raise AssertionError(option)


def test_a_number_out_of_the_engine_s_bounds_is_refused_with_the_reason() -> None:
    page = rules()
    go(page, "target_score")
    typ(page, "enter", "c-u", "0", "enter")
    text = screen(page)
    assert "“Game: points to win the match” must be a whole number from 1 to 1000000" in text
    assert "0_" in selected_rule(text) and "target_score" not in text
    assert not paths.settings_path().exists()
    typ(page, "c-u", "300", "enter")
    assert file()["rule_options"] == {"target_score": 300}
    assert "Saved: Game: points to win the match = 300" in screen(page)
    # The explanation says what the option does in one line, then its values (rules/README.md's).
    lines = [line.strip() for line in screen(page).splitlines()]
    assert lines[-4:-2] == ["The match ends when a side reaches this score.", "Values: 1 to 1000000."]


def test_a_combination_the_rules_refuse_says_why() -> None:
    page = rules()
    go(page, "players")
    typ(page, "left")
    assert "partnerships need 4 players" in screen(page)
    assert not paths.settings_path().exists()
    go(page, "partnerships")
    typ(page, "right")
    go(page, "players")
    typ(page, "left")                                    # 4 -> 3, without partnerships
    assert file()["rule_options"] == {"partnerships": False, "players": 3}


def test_a_number_chosen_from_a_list_stops_at_its_ends() -> None:
    """players is 2, 3 or 4 (rules/README.md): Right at 4 stays at 4 (it used to go round to 2)."""
    page = rules()
    go(page, "partnerships")
    typ(page, "right")                                   # off, so 2 and 3 players are allowed
    go(page, "players")
    typ(page, "right")
    assert "players" not in file().get("rule_options", {})
    typ(page, "left", "left", "left")
    assert file()["rule_options"]["players"] == 2


def test_the_initial_meld_is_typed_as_steps_and_a_bad_step_is_explained() -> None:
    page = rules()
    go(page, "initial_meld")
    typ(page, "enter", "c-u", "0:60 1500-90", "enter")
    assert page.message == "write each step as lowest score:points (as 0:50 1500:90 3000:120), not '1500-90'"
    assert page.error and "'1500-90'" in screen(page)
    typ(page, "c-u", "0:60 1500:100", "enter")
    assert file()["rule_options"] == {"initial_meld": [[1500, 100], [0, 60]]}
    assert rule_line(screen(page), "initial_meld").rstrip().endswith("0:60  1500:100 *")


def test_d_takes_the_preset_s_value_back() -> None:
    page = rules()
    go(page, "hand_size")
    typ(page, "enter", "c-u", "13", "enter", "d")
    assert file().get("rule_options", {}) == {}
    assert "Cards dealt to each player is back to the classic preset's: 11" in screen(page)
    typ(page, "d")
    assert "Cards dealt to each player is the classic preset's already" in screen(page)


def test_another_preset_drops_the_changes_only_after_asking() -> None:
    page = rules()
    go(page, "hand_size")
    typ(page, "enter", "c-u", "13", "enter", "home", "right")
    text = screen(page)
    assert "Start from the mobile preset?" in text and "Your 1 change to classic is dropped." in text
    typ(page, "n")                                     # any key but y keeps everything
    assert file() == {"rule_options": {"hand_size": 13}}
    typ(page, "right", "y")
    assert file()["rules"] == "mobile" and file().get("rule_options", {}) == {}
    assert "Saved: new games start from the mobile preset" in screen(page)
    typ(page, "right")                                 # no changes: no question
    assert file()["rules"] == "online"


def test_every_rule_option_has_a_label_and_a_line_in_words() -> None:
    """The issue: "rule options and the rules help show code names (canasta_required_for_positive_score)".
    Every option of every preset in rules/*.toml has a label of at most 34 characters and a one-line
    explanation of at most 76 (one line at 80 columns); the page shows no code name."""
    from canasta_tui.presets import load_rules, preset_names

    keys = {k for name in preset_names() for k in load_rules(name).to_dict() if k not in ("name", "description")}
    assert keys <= set(RULE_LABELS) and keys <= set(RULE_ABOUT)
    assert all(len(v) <= 34 for v in RULE_LABELS.values()) and all(len(v) <= 76 for v in RULE_ABOUT.values())
    page = rules()
    for _ in range(len(keys) + 1):
        text = screen(page)
        assert not any(k in text for k in keys if "_" in k), text
        typ(page, "down")
