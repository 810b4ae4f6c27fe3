"""Rule options and records from a hostile file (issue 10, items 9, 10 and 13): every bad value
gets a message naming the option, never an IndexError, RecursionError or an overflowing score."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from positions import stacked_deck

from canasta_tui.engine import CLASSIC, Rules, RulesError, cards_text, new_match, record, rules_from_dict, rules_from_toml
from canasta_tui.engine.rules import MAX_POINTS, MAX_TARGET

POINT_OPTIONS = ["natural_canasta_bonus", "mixed_canasta_bonus", "wild_canasta_bonus", "going_out_bonus",
                 "concealed_bonus", "red_three_bonus", "red_three_all_four_bonus", "red_three_penalty",
                 "red_three_all_four_penalty", "undo_pile_penalty", "permission_penalty", "initial_meld_negative"]


@pytest.mark.parametrize("option", POINT_OPTIONS)
def test_points_options_are_bounded(option: str) -> None:
    """A canasta bonus of 2**63 overflowed the statistics database (item 9): bonuses and
    penalties are 0-10000, so that no score can come near a 64-bit integer."""
    assert getattr(rules_from_dict({option: MAX_POINTS}), option) == MAX_POINTS
    for bad in (-1, MAX_POINTS + 1, 2**63):
        with pytest.raises(RulesError, match=f"{option} must be a whole number from 0 to 10000"):
            rules_from_dict({option: bad})


def test_target_score_and_max_wilds_are_bounded() -> None:
    for bad in (0, -5, MAX_TARGET + 1, 10**30):
        with pytest.raises(RulesError, match="target_score must be a whole number from 1 to 1000000"):
            rules_from_dict({"target_score": bad})
    with pytest.raises(RulesError, match="max_wilds must be a whole number from 0 to 12"):
        rules_from_dict({"max_wilds": 13})


def test_a_score_with_every_option_at_its_cap_fits_a_64_bit_integer() -> None:
    """15 canastas of every kind, all bonuses and penalties at their caps: far below 2**63."""
    worst_hand = 15 * MAX_POINTS + 4 * MAX_POINTS + 2 * MAX_POINTS + 108 * 50 + 100 * MAX_POINTS
    assert worst_hand * MAX_TARGET < 2**63


@pytest.mark.parametrize("source", ["toml", "dict", "save"])
def test_an_empty_initial_meld_table_is_refused_with_a_message(source: str) -> None:
    """``initial_meld = []`` gave IndexError at the start of a game (item 10) and a save with
    it was reported as "IndexError" (item 13)."""
    want = "initial_meld must list at least one [lowest score, points] pair"
    if source == "toml":
        with pytest.raises(RulesError, match=want.replace("[", r"\[").replace("]", r"\]")):
            rules_from_toml("[rules]\ninitial_meld = []\n")
    elif source == "dict":
        with pytest.raises(RulesError) as exc:
            rules_from_dict({"initial_meld": []})
        assert want in str(exc.value)
    else:
        data = record.to_dict(new_match(CLASSIC, stacked_deck([]), 0))
        data["rules"]["initial_meld"] = []
        with pytest.raises(record.RecordError) as rexc:
            record.from_dict(data)
        assert str(rexc.value) == f"the save's rules cannot be used: rules 'classic': {want}"


@pytest.mark.parametrize("value", [[[0, True]], [[0]], [[0, 50, 7]], "050", [["0", "50"]], [[0, -50]],
                                   [[-1, 50]], [[0, 50]] * 101])
def test_odd_initial_meld_tables_are_refused(value: Any) -> None:
    with pytest.raises(RulesError, match="initial_meld"):
        rules_from_dict({"initial_meld": value})


def test_deeply_nested_toml_is_refused_with_a_message() -> None:
    """"An array nested 5,000 deep gives RecursionError" (item 10)."""
    deep = "[" * 5000 + "]" * 5000
    for text in (f"rules = {deep}\n", f"[rules]\ninitial_meld = {deep}\n", f"[rules]\nmax_wilds = {deep}\n"):
        with pytest.raises(RulesError, match="nested too deeply"):
            rules_from_toml(text)


def test_deep_or_huge_values_in_a_mapping_get_short_messages() -> None:
    deep: Any = []
    for _ in range(3000):
        deep = [deep]
    with pytest.raises(RulesError, match=r"rule option 'max_wilds' must be a whole number, not a list$"):
        rules_from_dict({"max_wilds": deep})
    with pytest.raises(RulesError, match="initial_meld must be a list of"):
        rules_from_dict({"initial_meld": deep})
    with pytest.raises(RulesError, match=r"unknown rule option 'xxxxxxxxxx.*'\.\.\.$"):
        rules_from_dict({"x" * 10_000: 1})
    with pytest.raises(RulesError, match="must be true or false, not a very large number"):
        rules_from_dict({"wild_melds_allowed": 10**5000})


def saved() -> dict[str, Any]:
    return record.to_dict(new_match(CLASSIC, stacked_deck([]), 0))


def test_a_snapshot_with_an_extra_key_names_it() -> None:
    """It was refused with an empty field list: "disagrees with the replayed game ()"."""
    data = saved()
    data["snapshot"]["cheat"] = 1
    with pytest.raises(record.RecordError) as exc:
        record.from_dict(data)
    assert str(exc.value) == "the snapshot disagrees with the replayed game (unknown: 'cheat')"
    data = saved()
    del data["snapshot"]["end_reason"]
    data["snapshot"]["stock"] = 3
    with pytest.raises(record.RecordError) as exc:
        record.from_dict(data)
    assert str(exc.value) == "the snapshot disagrees with the replayed game (stock; missing: end_reason)"


def test_first_dealer_true_is_not_seat_one() -> None:
    data = saved()
    data["first_dealer"] = True
    with pytest.raises(record.RecordError, match="first_dealer must be a seat from 0 to 3"):
        record.from_dict(data)
    ok = copy.deepcopy(saved())
    ok["first_dealer"] = 1
    ok["hands"][0]["deck"] = cards_text(stacked_deck([], dealer=1))
    del ok["snapshot"]
    assert record.from_dict(ok).first_dealer == 1


def test_rules_built_directly_are_checked_too() -> None:
    with pytest.raises(RulesError, match="initial_meld must list at least one"):
        Rules(initial_meld=())
