"""Text from users and files never reaches a terminal raw (issue: terminal injection)."""

from __future__ import annotations

import pytest

from canasta_tui.text import NAME_MAX, BadName, check_name, points, printable


def test_printable_writes_escape_sequences_out() -> None:
    """A name like "\\x1b[2J" (clear screen) or an OSC 0 title must show as text, not act."""
    assert printable("Ann\x1b[2J") == "Ann\\x1b[2J"
    assert printable("\x1b]0;owned\x07") == "\\x1b]0;owned\\x07"
    assert printable("a\nb\tc\r") == "a\\nb\\tc\\r"
    assert printable("\x9b31m") == "\\x9b31m"          # C1 CSI
    assert printable("\ud800") == "\\ud800"            # a lone surrogate from a JSON file
    assert printable("evil\u202egnp.exe") == "evil\\u202egnp.exe"
    assert printable("Zoë ♥ 10♠") == "Zoë ♥ 10♠"


@pytest.mark.parametrize("bad", ["Ann\nBob", "\x1b[2J", "x\x00", "\ud800", "a\u2028b", "x" * (NAME_MAX + 1)])
def test_check_name_refuses_control_characters_and_long_names(bad: str) -> None:
    with pytest.raises(BadName) as info:
        check_name(bad)
    assert "\x1b" not in str(info.value) and "\n" not in str(info.value)


def test_check_name_keeps_ordinary_names() -> None:
    assert check_name("  Zoë  ") == "Zoë"
    assert check_name("x" * NAME_MAX) == "x" * NAME_MAX


@pytest.mark.parametrize(("n", "text"), [(0, "0"), (980, "980"), (1500, "1,500"), (12345, "12,345"),
                                         (-1250, "-1,250"), (-90, "-90"), (1234567, "1,234,567")])
def test_points_groups_thousands_as_a_person_reads_scores(n: int, text: str) -> None:
    """Scores a person reads (summaries, the Score page, the lobby, statistics) group thousands."""
    assert points(n) == text
