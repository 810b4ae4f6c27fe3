"""The club's pages (``ui/club.py``) as text: the pure line functions give exact lines at 80
columns; the pages drawn at 80x24 and 120x40, ASCII and Unicode, keep within the screen; the keys
step through evenings, refuse the evening after tonight, and take a typed date only through the
service's check."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import pytest

from canasta_tui.ui.canvas import Options
from canasta_tui.ui.club import (
    EveningView,
    Line,
    MatchLine,
    PartnershipLine,
    PartnershipsPage,
    SideLine,
    TonightPage,
    evening_lines,
    partnership_lines,
    record_lines,
)
from canasta_tui.ui.style import ASCII, UNICODE

TONIGHT = dt.date(2026, 11, 26)
HOURS = "from 06:00 to 06:00 the next morning (Europe/Paris)"
MATCHES = (
    MatchLine("23:00", "classic", False, False, 2, 7,
              (SideLine(("ann", "cy"), (None, None), 5500, True), SideLine(("bob", "dee"), (None, None), 1200, False))),
    MatchLine("20:00", "windows", True, True, 1, 3,
              (SideLine(("ann", "bob"), (31, 28), 5120, True), SideLine(("cy", "dee"), (-12, -15), 3450, False))),
)
PAIRS = (PartnershipLine(("key:a", "key:c"), ("ann", "cy"), 1, 1, 5500),
         PartnershipLine(("key:a", "key:b"), ("ann", "bob"), 4, 2, 3783))


def texts(lines: Sequence[Line]) -> list[str]:
    return [line.text for line in lines]


def test_an_evening_is_its_matches_newest_first_each_side_with_its_rating_moves() -> None:
    got = texts(evening_lines(EveningView(TONIGHT, True, MATCHES, (), False, HOURS), 80))
    assert got == [
        "- Tonight, Thursday 26 November 2026: 2 matches " + "-" * 32,
        "  An evening runs from 06:00 to 06:00 the next morning (Europe/Paris).",
        "  +31 after a name: the rating points the match moved (rated tables only).",
        "  23:00  classic, not rated, 2 hands  (table 7)",
        f"    won   {'ann & cy':<50}  5,500",          # (the names' column: 50 at most)
        f"    lost  {'bob & dee':<50}  1,200",
        "  20:00  windows, rated, 1 hand, ended by a forfeit  (table 3)",
        f"    won   {'ann +31 & bob +28':<50}  5,120",
        f"    lost  {'cy -12 & dee -15':<50}  3,450",
        "- Tournaments " + "-" * 66,
        "  No tournament tonight.",
    ]
    assert all(len(line) <= 80 for line in got)


def test_an_evening_without_a_match_and_one_with_more_than_are_listed() -> None:
    got = texts(evening_lines(EveningView(TONIGHT - dt.timedelta(days=3), False, (), (), False, HOURS), 80))
    assert got[0].startswith("- The evening of Monday 23 November 2026: 0 matches ")
    assert got[2:] == ["  No match finished at a listed table that evening.", "- Tournaments " + "-" * 66,
                       "  No tournament that evening."]
    many = texts(evening_lines(EveningView(TONIGHT, True, MATCHES[:1], (), True, HOURS), 80))
    assert ": 1+ match " in many[0]
    assert "  (the newest 1 are listed: more matches were finished that evening)" in many


def test_partnership_lists_and_a_record() -> None:
    assert texts(partnership_lines(PAIRS, 80, 0, True)) == [
        f"    {'partner':<40} together   won  share  average",          # (the names' column: width - 40)
        f"  > {'cy':<40}        1     1   100%    5,500",
        f"    {'bob':<40}        4     2    50%    3,783"]
    assert texts(partnership_lines(PAIRS, 80, None, False))[1:] == [
        f"    {'ann & cy':<40}        1     1   100%    5,500",
        f"    {'ann & bob':<40}        4     2    50%    3,783"]
    record = PAIRS[1]._replace(best="5,010 (hand 1, classic, 2026-11-27)", counted="Counted: every match of yours.")
    assert texts(record_lines(record, 80)) == [
        "- ann & bob " + "-" * 68, "  Matches together  4", "  Wins              2 (50%)", "  Average score     3,783",
        "  Best hand         5,010 (hand 1, classic, 2026-11-27)", "", "  Counted: every match of yours."]


class Club:
    """The club's service with no server: two evenings, the pairs above; what was asked, kept."""

    min_matches = 3
    first_evening = dt.date(2026, 11, 1)

    def __init__(self) -> None:
        self.asked: list[dt.date] = []

    def tonight(self) -> dt.date:
        return TONIGHT

    def evening(self, day: dt.date) -> EveningView:
        self.asked.append(day)
        return EveningView(day, day == TONIGHT, MATCHES if day == TONIGHT else (), (), False, HOURS)

    def parse_day(self, text: str) -> dt.date | str:
        return dt.date.fromisoformat(text) if text == "2026-11-01" else "Type a date as YYYY-MM-DD"

    def partners(self) -> Sequence[PartnershipLine] | str:
        return PAIRS

    def best_pairs(self) -> Sequence[PartnershipLine] | str:
        return "The club's records cannot be read now"

    def partnership(self, line: PartnershipLine) -> PartnershipLine | str:
        return line._replace(best="-")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("glyphs", [ASCII, UNICODE])
def test_the_pages_fit_the_screen_and_step_through_evenings(size: tuple[int, int], glyphs: object) -> None:
    club = Club()
    page = TonightPage(club)
    opts = Options(glyphs, False, False)                    # type: ignore[arg-type]

    def screen() -> str:
        return page.paint(*size, opts).text()
    shown = screen()
    assert "Tonight, Thursday 26 November 2026" in shown and "won   ann +31 & bob +28" in shown
    assert all(len(line) <= size[0] for line in shown.split("\n")) and len(shown.split("\n")) == size[1]
    assert shown.split("\n")[-1].endswith("b pairs   Esc/q back")          # (every key's hint shows)
    page.handle("right")
    assert club.asked == [TONIGHT] and "have not come yet" in page.message
    page.handle("left")
    assert club.asked[-1] == TONIGHT - dt.timedelta(days=1) and "The evening of Wednesday 25 November" in screen()
    for key in "2026-11-01":
        page.handle(key)                                      # (not typing: d comes first)
    page.handle("d")
    for key in "2026-11-01-and-more":
        page.handle(key)
    assert page.typing is not None and page.typing.text == "2026-11-01" and "10 characters" in page.message
    page.handle("enter")
    assert club.asked[-1] == dt.date(2026, 11, 1) and "Sunday 1 November 2026" in screen()
    page.handle("d")
    page.handle("x")
    page.handle("enter")
    assert page.error and page.message == "Type a date as YYYY-MM-DD" and club.asked[-1] == dt.date(2026, 11, 1)
    asked = len(club.asked)
    page.handle("left")
    assert len(club.asked) == asked and "Nothing is kept from before 2026-11-01" in page.message
    page.handle("t")
    assert club.asked[-1] == TONIGHT
    page.handle("b")
    assert isinstance(page.child, PartnershipsPage)
    shown = screen()
    assert "> Who you win with" in shown and "The club's records cannot be read now" in shown
    assert "  Ranked by (wins + 1) / (matches + 2): one lucky win does not top the list." in shown.split("\n")
    assert all(len(line) <= size[0] for line in shown.split("\n"))
    page.handle("down")
    page.handle("enter")
    assert "ann & bob" in screen() and "Best hand         -" in screen()


class Newcomer(Club):
    """A club where the person looking has played with nobody, and no partnership has 3 matches."""

    def partners(self) -> Sequence[PartnershipLine] | str:
        return ()

    def best_pairs(self) -> Sequence[PartnershipLine] | str:
        return ()


@pytest.mark.parametrize("glyphs", [ASCII, UNICODE])
def test_the_empty_partnership_lists_are_said_whole_at_80_columns(glyphs: object) -> None:
    """Seen at 80x24 over SSH: "...every match you play at a table of four counts h" was cut off."""
    page = TonightPage(Newcomer())
    page.handle("b")
    shown = page.paint(80, 24, Options(glyphs, False, False)).text()  # type: ignore[arg-type]
    said = " ".join(line.strip() for line in shown.split("\n"))
    assert "No match with a partner yet: every match you play at a table of four counts here" in said
    assert "No partnership has played enough matches together at listed tables yet" in said
    assert all(len(line) <= 80 for line in shown.split("\n"))
