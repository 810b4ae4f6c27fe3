"""Issue 12: the header shows the rules in play as "classic" or "classic + 2 changes", never a
preset's name for rules that differ from it; every rule option is explained (rules/README.md)."""

from __future__ import annotations

import dataclasses

from canasta_tui.engine import Rules
from canasta_tui.presets import changes_from_preset, load_rules, option_help, rules_label
from canasta_tui.table import Table, local_link, seats_for
from canasta_tui.ui.controller import Controller

from .helpers import render


def test_a_preset_as_it_is_is_named_alone() -> None:
    assert rules_label(load_rules("classic")) == "classic"
    assert rules_label(load_rules("windows")) == "windows"


def test_changed_rules_say_how_many_options_differ_from_their_preset() -> None:
    classic = load_rules("classic")
    assert rules_label(classic.replace(target_score=3000)) == "classic + 1 change"
    two = classic.replace(target_score=3000, wild_limit="naturals")
    assert rules_label(two) == "classic + 2 changes"
    assert changes_from_preset(two) == ["target_score", "wild_limit"]
    # A description is not a rule: it never counts as a change.
    assert rules_label(classic.replace(description="mine")) == "classic"


def test_rules_named_after_no_preset_keep_their_name() -> None:
    assert rules_label(Rules(name="house")) == "house"
    assert changes_from_preset(Rules(name="house")) is None


def test_the_table_header_says_classic_plus_changes() -> None:
    rules = load_rules("classic").replace(target_score=100, hand_size=9)
    t = Table(rules, seats_for(1, "beginner"), 5)
    header = render(Controller(local_link(t)), 80, 24).text().splitlines()[0]
    assert header.startswith(" CANASTA — classic + 2 changes rules — hand 1")


def test_every_rule_option_has_its_values_and_meaning_in_the_readme() -> None:
    helps = option_help()
    options = [f.name for f in dataclasses.fields(Rules) if f.name not in ("name", "description")]
    assert [o for o in options if o not in helps] == []
    assert helps["wild_limit"].values == '"three", "naturals", "both"'
    assert helps["target_score"].meaning == "a side that reaches it wins the match"
    # The README's `code` marks are gone: the screen shows plain words.
    assert "`" not in "".join(h.meaning + h.values for h in helps.values())
