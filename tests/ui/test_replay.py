"""The replay viewer and a person's record screens, as text: a finished match stepped move by
move (forward, back, to the next hand) from any seat's point of view with every hand shown;
the record, statistics, leaderboard and options pages drawn from a fake service."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from click.testing import CliRunner

from canasta_tui.cli import main
from canasta_tui.engine import Match, deal, replay, view_for
from canasta_tui.persistence.saves import write_save
from canasta_tui.table.replay import MatchReplay, ReplaySource, replay_source
from canasta_tui.ui.canvas import card_label
from canasta_tui.ui.records import MARKS, LeaderboardPage, PersonOptionsPage, RecordPage
from canasta_tui.ui.replay import ReplayPage
from canasta_tui.ui.statistics import StatisticsPage
from canasta_tui.ui.style import UNICODE
from canasta_tui.ui.texts import sort_hand

from .pages_helpers import finished_match, screen, typ

CARD = re.compile(r"(?:10|[A2-9JQK])[♣♦♥♠]|JK")


def two_hands() -> Match:
    """A finished match of at least two hands (target 1500: a few hands of self-play)."""
    m = finished_match(7, target=1500)
    assert len(m.decks) >= 2
    return m


def page_of(m: Match) -> ReplayPage:
    return ReplayPage(ReplaySource(MatchReplay(m), ("Ann", "Cy", "Bob", "Di"), (True, False, True, False), "test"))


def test_the_replay_steps_forward_back_and_to_the_next_hand() -> None:
    m = two_hands()
    p = page_of(m)
    moves = len(m.log[0])
    assert f"hand 1 of {len(m.decks)}, move 0 of {moves}" in screen(p).split("\n")[0]
    typ(p, "right", "right", "right")
    assert p.i == 3 and "move 3 of" in screen(p)
    typ(p, "left")
    assert p.i == 2
    typ(p, "n")
    assert (p.h, p.i) == (1, 0) and f"hand 2 of {len(m.decks)}, move 0 of {len(m.log[1])}" in screen(p)
    typ(p, "left")                                  # back over the hand's start: the end of the hand before
    assert (p.h, p.i) == (0, moves)
    # Every position is the engine's own replay of the log.
    end = replay(m.rules, m.decks[:1], m.log[:1], m.first_dealer).state
    assert p.step().views == tuple(view_for(end, s) for s in range(4))
    typ(p, "p")
    assert (p.h, p.i) == (0, 0) and "This is the first hand" in screen(p)


def test_the_replay_shows_the_match_score_after_each_hand_and_at_the_end() -> None:
    m = two_hands()
    p = page_of(m)
    typ(p, "end")
    assert f"1&3: {m.sheet[0].totals[0]}   2&4: {m.sheet[0].totals[1]}" in screen(p).split("\n")[0]
    typ(p, "n", "left", "right")           # the next hand's deal shows the score so far
    for _ in range(len(m.decks) - 1):
        typ(p, "n")
    typ(p, "end")
    assert f"1&3: {m.scores[0]:,}   2&4: {m.scores[1]:,}" in screen(p).split("\n")[0]
    typ(p, "right")
    assert "The end of the match" in screen(p)


def test_any_seats_point_of_view_and_every_hand_at_once() -> None:
    m = two_hands()
    p = page_of(m)
    dealt = deal(m.rules, m.decks[0], m.first_dealer, (0, 0))
    for seat, name in enumerate(("Ann", "Cy", "Bob", "Di")):
        typ(p, str(seat + 1))
        text = screen(p)
        want = [card_label(c, UNICODE) for c in sort_hand(dealt.hands[seat])]
        row = text.split("\n")[text.split("\n").index(next(x for x in text.split("\n") if f"{name}'s hand" in x)) + 2]
        assert CARD.findall(row) == want, name
        assert f"[{name}'s view]" in text
    typ(p, "tab")
    assert p.seat == 0
    typ(p, "a")
    text = screen(p)
    for seat, name in enumerate(("Ann", "Cy", "Bob", "Di")):
        line = next(x for x in text.split("\n") if f" {seat + 1} {name}" in x)
        want = [card_label(c, UNICODE) for c in sort_hand(dealt.hands[seat])]
        assert CARD.findall(line) == want
    assert "1&3 melds:" in text and "2&4 melds:" in text and "Stock:" in text
    ascii_text = screen(p, ascii=True)
    assert not any(s in ascii_text for s in "♠♥♦♣")
    typ(p, "a", "q")
    assert p.done


def test_a_saves_names_come_from_its_meta() -> None:
    m = two_hands()
    src = replay_source(m, {"names": ["Ann", "", "Bob"], "seats": ["human", "computer", "human", "computer"]}, "t")
    assert src.names == ("Ann", "Player 2", "Bob", "Player 4") and src.humans == (True, False, True, False)


def test_canasta_replay_refuses_a_bad_file_with_its_reason_and_needs_a_terminal(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    r = CliRunner().invoke(main, ["replay", str(bad)])
    assert r.exit_code == 1 and f"cannot replay {bad}: not a Canasta save" in r.output
    good = write_save(tmp_path / "good.json", two_hands(), {})
    r = CliRunner().invoke(main, ["replay", str(good)])
    assert r.exit_code == 1 and "canasta needs a terminal to play" in r.output
    r = CliRunner().invoke(main, ["replay", str(tmp_path / "none.json")])
    assert r.exit_code == 1 and "cannot replay" in r.output


# ---------------------------------------------------------------------- the record screens
class Row(NamedTuple):
    match_id: int
    date: str
    rules: str
    rated: bool
    partners: tuple[str, ...]
    opponents: tuple[str, ...]
    our_score: int
    their_score: int
    won: bool
    change: int | None
    mark: str = ""
    note: str = ""


class Tally(NamedTuple):
    what: str
    wins: int
    matches: int


class High(NamedTuple):
    difference: int
    hand: int
    rules: str
    finished: float


class Rating(NamedTuple):
    points: int
    matches: int


class GameRating(NamedTuple):
    game: str
    points: int
    matches: int


class Record(NamedTuple):
    rating: Rating
    matches: tuple[Row, ...]
    by_partner: tuple[Tally, ...]
    by_rules: tuple[Tally, ...]
    high_scores: tuple[High, ...]
    ratings: tuple[GameRating, ...] = ()


class Standing(NamedTuple):
    place: int
    entry: str
    name: str
    points: int
    matches: int
    wins: int


class FakeRecords:
    label = "ann"
    entry = "key:ann"
    rating_text = "Ratings (openskill)\nA newcomer starts at 0."

    def __init__(self) -> None:
        self.options: dict[str, Any] = {"sort": "rank", "four_color": False, "deck": "unicode", "mouse": False,
                                        "bell_turn": False, "bell_question": False, "bell_hand_over": False}
        self.asked: list[int] = []
        self.boards: list[str] = []

    def record(self) -> Record:
        return Record(Rating(137, 3),
                      (Row(3, "2026-11-20 21:00", "classic", True, ("bob",), ("cy", "di"), 5120, 3300, True, 42),
                       Row(2, "2026-11-13 21:00", "windows", False, ("cy",), ("bob", "di"), 2100, 5010, False, None)),
                      (Tally("bob", 1, 1), Tally("cy", 0, 1)), (Tally("classic", 1, 1), Tally("windows", 0, 1)),
                      (High(1450, 2, "classic", 1763600000.0),),
                      (GameRating("canasta", 137, 3), GameRating("samba", 88, 1)))

    games = ("canasta", "samba", "bolivia")

    def leaderboard(self, game: str) -> Sequence[Standing]:
        self.boards.append(game)
        if game == "samba":
            return [Standing(1, "key:ann", "ann", 88, 1, 1), Standing(2, "key:cy", "cy", 80, 1, 1)]
        if game == "bolivia":
            return []
        return [Standing(1, "key:bob", "bob", 210, 4, 3), Standing(2, "key:ann", "ann", 137, 3, 2)]

    def option_values(self) -> Mapping[str, Any]:
        return self.options

    def set_option(self, key: str, value: Any) -> str | None:
        self.options[key] = value
        return None

    def options_kept(self) -> str:
        return "kept for your key on this server"

    def replay(self, match_id: int) -> ReplaySource | str:
        self.asked.append(match_id)
        if match_id == 2:
            return "That match is still being played: its replay opens when it is over"
        return ReplaySource(MatchReplay(two_hands()), ("ann", "cy", "bob", "di"), (True,) * 4, "classic")

    def table_replay(self, table_id: int) -> ReplaySource | str:
        return "no"


def test_the_record_lists_matches_and_opens_their_replays() -> None:
    p = RecordPage(FakeRecords())
    text = screen(p)
    assert "Your record" in text.split("\n")[0]
    assert "Canasta  137 points after 3 rated matches" in text and "Samba    88 points after 1 rated match" in text
    assert "2026-11-20 21:00 classic    bob        cy, di        won 5,120-3,300  +42" in text
    assert "2026-11-13 21:00 windows    cy         bob, di       lost 2,100-5,010" in text
    typ(p, "down", "enter")
    assert "still being played" in screen(p) and p.child is None
    typ(p, "up", "enter")
    assert isinstance(p.child, ReplayPage) and "REPLAY — classic" in screen(p)
    typ(p, "q", "s")
    assert isinstance(p.child, StatisticsPage)
    text = screen(p)
    # The columns say what the rows hold: partners and rules, not players and levels.
    assert "partner or rules  by    " in text and "level" not in text
    assert re.search(r"> bob +partner +\d", text) and re.search(r"classic +rules +\d", text) and "1,450" in text
    typ(p, "r")
    assert "reset" not in screen(p).split("\n")[-1]          # the server's records are not reset here
    typ(p, "q", "l")
    text = screen(p)
    assert isinstance(p.child, LeaderboardPage)
    assert ">   2  ann" in text and "(you)" in text and "A newcomer starts at 0." in text


def test_the_history_marks_forfeits_and_stand_ins_in_its_gutter_and_says_why_under_the_list() -> None:
    """The issue: "the history marks matches where a computer stood in".  A letter in the gutter
    (no colour needed), the chosen match's note under the list at 80x24, the legend otherwise."""
    svc = FakeRecords()
    stood_in = Row(5, "2026-11-27 20:00", "classic", True, ("bob",), ("cy", "di"), 4000, 900, True, None, "C",
                   "A computer played 9 of your 12 turns; not rated: a computer played more than half of your "
                   "turns (a loss would count)")
    forfeit = Row(4, "2026-11-26 20:00", "classic", True, ("bob",), ("cy", "di"), 300, 1200, True, 31, "F",
                  "Won by forfeit: a player left and did not come back")
    record = svc.record()
    svc.record = lambda: record._replace(matches=(stood_in, forfeit, *record.matches))  # type: ignore[method-assign]
    p = RecordPage(svc)
    lines = screen(p).split("\n")
    assert all(len(line) <= 80 for line in lines)
    rows = [line for line in lines if "2026-11-" in line]
    assert [r[:1] for r in rows] == ["C", "F", " ", " "]
    note = " ".join(line.strip() for line in lines[-5:-1] if line.strip())
    assert note == ("C: A computer played 9 of your 12 turns; not rated: a computer played more than half of your "
                    "turns (a loss would count)")
    typ(p, "down")
    text = screen(p)
    assert "F: Won by forfeit: a player left and did not come back" in text
    typ(p, "down")
    assert MARKS in screen(p)                 # a match with nothing to say: what the letters mean


def test_the_options_a_person_keeps_are_the_local_screens_with_five_kinds() -> None:
    svc = FakeRecords()
    p = PersonOptionsPage(svc)
    text = screen(p)
    for label in ("Four-colour deck", "Card faces", "Hand order", "Mouse", "Bell: your turn"):
        assert label in text
    assert "Computer level" not in text and "Player 1 name" not in text and "kept for your key" in text
    typ(p, "down", "enter")
    assert svc.options["deck"] == "ascii" and "Saved: Card faces = ascii" in screen(p)
    assert "Saved" in screen(p, ascii=True)


def test_the_leaderboard_shows_one_game_at_a_time_canasta_first_left_right_and_tab_switch() -> None:
    """Issue 19 ("Server"): ratings are kept apart per variant, so the leaderboard is per game."""
    svc = FakeRecords()
    p = LeaderboardPage(svc)
    text = screen(p)
    assert svc.boards == ["canasta"] and "Rated players: Canasta" in text and "[Canasta]" in text
    assert "1  bob" in text and "Left/Right" in text.split("\n")[-1]
    typ(p, "right")
    text = screen(p)
    assert svc.boards[-1] == "samba" and "Rated players: Samba" in text and "[Samba]" in text
    assert ">   1  ann" in text and "bob" not in text
    typ(p, "tab")
    assert "Nobody is rated at Bolivia yet" in screen(p)
    typ(p, "tab")
    assert "Rated players: Canasta" in screen(p)                          # round the list
    typ(p, "left")
    assert "Rated players: Bolivia" in screen(p) and svc.boards == ["canasta", "samba", "bolivia", "canasta", "bolivia"]
    assert "[Bolivia]" in screen(p, ascii=True)
