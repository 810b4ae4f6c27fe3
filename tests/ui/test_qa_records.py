"""The leaderboard's "What a rating means" reads as one paragraph at any width (QA: it broke
lines badly: "…three times its" / "    uncertainty," / "  in points (40 per unit)…")."""

from __future__ import annotations

import itertools

import pytest

from canasta_tui.server.club.people import rating_text
from canasta_tui.ui.canvas import DEFAULT_OPTIONS
from canasta_tui.ui.records import LeaderboardPage

from .test_replay import FakeRecords


def about(width: int, height: int = 24) -> list[str]:
    svc = FakeRecords()
    svc.rating_text = rating_text(3, 120.0)        # type: ignore[misc]
    lines = LeaderboardPage(svc).paint(width, height, DEFAULT_OPTIONS).text().split("\n")
    top = next(i for i, line in enumerate(lines) if "What a rating means" in line)
    return [line.rstrip() for line in lines[top + 1:-1] if line.strip()]


@pytest.mark.parametrize("width", [80, 100, 132])
def test_what_a_rating_means_is_one_paragraph_wrapped_to_the_screen(width: int) -> None:
    text = rating_text(3, 120.0)
    head, *body = text.split("\n")
    lines = about(width)
    assert lines[0] == f"  {head}"
    paragraph = lines[1:]
    # Every word, in order, none lost; every line inside the screen, no hanging indent.
    assert " ".join(line.strip() for line in paragraph) == " ".join(" ".join(body).split())
    assert all(len(line) <= width - 2 and line.startswith("  ") and line[2] != " " for line in paragraph)
    # A paragraph: a line ends only where its next word would not fit (canvas.wrap keeps two
    # columns of a continuation line for its indent, which the paragraph does not show).
    for line, after in itertools.pairwise(paragraph):
        assert len(line.strip()) + 1 + len(after.split()[0]) > width - 6, (line, after)
