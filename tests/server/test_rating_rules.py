"""Who a rated match moves (``people.assess``, ``docs/ratings.md``), without SSH: the store as the
server makes it (``RatingRules()``, the newcomer rule on), each rule's case, and the ratings that
do move compared with openskill's own computation of the match."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from openskill.models import PlackettLuce

from canasta_tui.server.club.people import (
    MODEL,
    HandScore,
    MatchResult,
    RatingRules,
    SeatResult,
    SqlitePeopleStore,
    assess,
    rate,
    rating_text,
    result_ranks,
)
from canasta_tui.server.person import PersonId

ANN, BOB, CY, DEE = (f"key:SHA256:{n}" for n in ("ann", "bob", "cy", "dee"))
EXPERT, ADVANCED, BEGINNER = "computer:expert", "computer:advanced", "computer:beginner"


def seats(*entries: str, **extra: dict[str, object]) -> tuple[SeatResult, ...]:
    """Seats 1-4 of ``entries`` (sides 0, 1, 0, 1); ``extra``: per entry name, SeatResult fields."""
    out = []
    for i, e in enumerate(entries):
        name = e.rsplit(":", 1)[-1]
        out.append(SeatResult(e, name, i % 2, **extra.get(name, {})))     # type: ignore[arg-type]
    return tuple(out)


def match(game_id: str, s: tuple[SeatResult, ...], winner: int, *, forfeit: bool = False,
          scores: tuple[int, int] = (5000, 1000)) -> MatchResult:
    if winner == 1:
        scores = (scores[1], scores[0])
    return MatchResult(game_id, 1, 1.0, "classic", True, f"/srv/tables/{game_id}.json", winner, scores, s,
                       (HandScore(1, 0, scores[0], scores[0] - scores[1]),
                        HandScore(1, 1, scores[1], scores[1] - scores[0])), forfeit=forfeit)


def store(tmp_path: Path) -> SqlitePeopleStore:
    return SqlitePeopleStore(tmp_path / "people.sqlite", rules=RatingRules())


def establish(s: SqlitePeopleStore, key: str, n: int = 3) -> None:
    """``key`` plays ``n`` more rated matches against two Experts (with an Advanced partner), winning
    the first."""
    for i in range(n):
        played = len(s.matches_of(PersonId.parse(key), 1000))
        s.record_match(match(f"est-{key}-{played}", seats(key, EXPERT, ADVANCED, EXPERT), i % 2))


def test_a_newcomers_first_matches_count_only_against_computers_and_established_people(tmp_path: Path) -> None:
    """The farm: "50 wins over throwaway keys gave 1,548 rating points".  Nobody is rated against a
    newcomer; a newcomer is rated against computers and people with 3 counted matches, and is
    established after 3 of those."""
    s = store(tmp_path)
    # Two newcomers against each other: neither moves (nor would a farmer among them).
    s.record_match(match("new", seats(ANN, BOB, EXPERT, ADVANCED), 0))
    assert s.rating(ANN).matches == s.rating(BOB).matches == 0
    assert s.rating(EXPERT).matches == s.rating(ADVANCED).matches == 1    # computers are rated in their seats
    (row,) = s.matches_of(PersonId.parse(ANN))
    assert row.unrated == "newcomer" and row.change is None and row.mark == "-"
    assert row.note == "Not rated: somebody on the other side had no rating history yet"
    # Against computers a newcomer counts; three such matches and ann is established.
    establish(s, ANN, 2)
    assert s.rating(ANN).matches == 2 and not s.established(ANN)
    establish(s, ANN, 1)
    assert s.rating(ANN).matches == 3 and s.established(ANN)
    # ann (established) beats bob (new) again and again: ann does not move, bob does.
    ann = s.rating(ANN)
    for i in range(3):
        assert not s.established(BOB)
        s.record_match(match(f"farm-{i}", seats(ANN, BOB, EXPERT, EXPERT), 0))
    assert s.rating(ANN) == ann
    assert s.rating(BOB).matches == 3 and s.rating(BOB).mu < MODEL.mu
    # bob's three losses were counted, played by himself: he is established, and ann's next win
    # over him counts as any other (against his lowered rating).
    assert s.established(BOB)
    s.record_match(match("farm-3", seats(ANN, BOB, EXPERT, EXPERT), 0))
    assert s.rating(ANN).matches == 4


def test_a_guest_on_the_other_side_is_a_newcomer_for_ever(tmp_path: Path) -> None:
    s = store(tmp_path)
    establish(s, ANN)
    before = s.rating(ANN)
    s.record_match(match("g", seats(ANN, "guest:abc", CY, EXPERT), 0))
    assert s.rating(ANN) == before and not s.established("guest:abc")


def test_a_win_a_computer_played_for_is_not_the_persons_a_loss_is(tmp_path: Path) -> None:
    """"A person who played too little of a rated match is not rated for it": more than half of
    their turns played by a computer standing in, a win does not move them; a loss does (it would
    otherwise be a way to dodge one), exactly as openskill computes it."""
    s = store(tmp_path)
    establish(s, ANN)
    ann = s.rating(ANN)
    idle = {"ann": {"turns": 4, "stood_in": 5}}
    s.record_match(match("won", seats(ANN, EXPERT, ADVANCED, EXPERT, **idle), 0))
    assert s.rating(ANN) == ann
    row = s.matches_of(PersonId.parse(ANN))[0]
    assert (row.turns, row.stood_in, row.unrated, row.mark) == (4, 5, "stood-in", "C")
    assert row.note.startswith("A computer played 5 of your 9 turns; not rated")
    expert, advanced = s.rating(EXPERT), s.rating(ADVANCED)
    s.record_match(match("lost", seats(ANN, EXPERT, ADVANCED, EXPERT, **idle), 1))
    model = PlackettLuce()
    want = model.rate([[model.rating(mu=ann.mu, sigma=ann.sigma), model.rating(mu=advanced.mu, sigma=advanced.sigma)],
                       [model.rating(mu=expert.mu, sigma=expert.sigma) for _ in range(2)]], ranks=[1.0, 0.0])
    got = s.rating(ANN)
    assert (got.mu, got.sigma, got.matches) == (want[0][0].mu, want[0][0].sigma, 4)
    # Half of the turns played by the person is enough.
    s.record_match(match("half", seats(ANN, EXPERT, ADVANCED, EXPERT, ann={"turns": 5, "stood_in": 5}), 0))
    assert s.rating(ANN).matches == 5


def test_a_forfeit_ranks_the_leavers_side_last_whatever_the_score_and_spares_the_partner(tmp_path: Path) -> None:
    """"The leaver's side loses (recorded, rated as a loss for the leaver)": bob left while his side
    led; ann and cy win, bob loses, dee (his partner, who stayed) is not rated."""
    s = store(tmp_path)
    for k in (ANN, BOB, CY, DEE):
        establish(s, k)
    before = {k: s.rating(k) for k in (ANN, BOB, CY, DEE)}
    result = match("f", seats(ANN, BOB, CY, DEE, bob={"left": True}), 0, forfeit=True, scores=(100, 3000))
    assert result.scores == (100, 3000) and result_ranks(result) == {0: 0, 1: 1}
    assert assess(result, lambda e: True) == {ANN: "", BOB: "", CY: "", DEE: "partner-left"}
    s.record_match(result)
    model = PlackettLuce()

    def r(k: str) -> object:
        return model.rating(mu=before[k].mu, sigma=before[k].sigma)

    want = model.rate([[r(ANN), r(CY)], [r(BOB), r(DEE)]], ranks=[0.0, 1.0])
    for k, (side, i) in {ANN: (0, 0), CY: (0, 1), BOB: (1, 0)}.items():
        got = s.rating(k)
        assert (got.mu, got.sigma) == (want[side][i].mu, want[side][i].sigma)  # type: ignore[attr-defined]
    assert s.rating(DEE) == before[DEE]
    bob, dee = s.matches_of(PersonId.parse(BOB))[0], s.matches_of(PersonId.parse(DEE))[0]
    assert bob.left and bob.note == "You left and did not come back: your side lost by forfeit"
    assert dee.note == ("Lost by forfeit: a player left and did not come back; "
                        "not rated: your partner left, the loss is theirs")
    # A forfeited match does not make its leaver established: only matches played count.
    t = store(tmp_path / "other")
    establish(t, ANN)
    for i in range(3):
        t.record_match(match(f"x{i}", seats(BOB, ANN, EXPERT, EXPERT, bob={"left": True}), 1, forfeit=True))
    assert t.rating(BOB).matches == 3 and not t.established(BOB)


def test_a_late_sitter_is_not_rated_and_rate_moves_only_the_counted(tmp_path: Path) -> None:
    s = store(tmp_path)
    establish(s, ANN)
    ann = s.rating(ANN)
    s.record_match(match("late", seats(ANN, EXPERT, ADVANCED, EXPERT, ann={"late": True}), 0))
    assert s.rating(ANN) == ann and s.matches_of(PersonId.parse(ANN))[0].unrated == "late"
    # rate(): the others' ratings still make their side's strength.
    res = match("x", seats(ANN, EXPERT, CY, EXPERT), 0)
    cur = {ANN: ann, EXPERT: s.rating(EXPERT), CY: s.rating(CY)}
    assert set(rate(res, cur, [EXPERT])) == {EXPERT}
    assert rate(res, cur, [EXPERT])[EXPERT] == rate(res, cur)[EXPERT]


def test_the_leaderboard_counts_a_level_in_two_seats_once_a_match(tmp_path: Path) -> None:
    """"The leaderboard shows more wins than matches for a computer level that held two seats
    ('Computer (advanced) 89 1 2')"."""
    s = store(tmp_path)
    establish(s, ANN, 1)
    s.record_match(match("two", seats(ANN, ADVANCED, CY, ADVANCED), 1))
    board = {b.entry: (b.matches, b.wins) for b in s.leaderboard(10)}
    assert board[ADVANCED] == (2, 2) and board[EXPERT] == (1, 0) and board[ANN] == (2, 1)
    for b in s.leaderboard(10):
        assert b.wins <= b.matches


def test_a_computer_level_counts_a_match_and_a_win_only_where_its_side_won(tmp_path: Path) -> None:
    """QA: "Computer (beginner) 37 2 2 on the leaderboard: 2 wins out of 2 matches, although the
    beginner level lost table 9".  docs/ratings.md: "a win only when the side it sat on won, and its
    rating moves exactly as openskill computes for the teams as they were"; a level that sat on
    both sides played itself: it is not rated for it, and the person is rated against it."""
    s = store(tmp_path)
    establish(s, ANN)
    establish(s, BOB)
    model = PlackettLuce()

    def r(k: str) -> object:
        """A rating object of its own for each seat (openskill treats one object twice otherwise)."""
        x = s.rating(k)
        return model.rating(mu=x.mu, sigma=x.sigma)

    # ann and an Advanced partner beat two Beginners: the Beginner loses once, the Advanced wins once.
    teams = [[r(ANN), r(ADVANCED)], [r(BEGINNER), r(BEGINNER)]]
    board = {b.entry: (b.matches, b.wins) for b in s.leaderboard(20)}
    s.record_match(match("t8", seats(ANN, BEGINNER, ADVANCED, BEGINNER), 0))
    want = model.rate(teams, ranks=[0.0, 1.0])
    for entry, got in ((ANN, want[0][0]), (ADVANCED, want[0][1]), (BEGINNER, want[1][0])):
        now = s.rating(entry)
        assert (now.mu, now.sigma) == (got.mu, got.sigma), entry  # type: ignore[attr-defined]
    after = {b.entry: (b.matches, b.wins) for b in s.leaderboard(20)}
    assert after[BEGINNER] == (1, 0)
    assert after[ADVANCED] == (board[ADVANCED][0] + 1, board[ADVANCED][1] + 1)
    # Table 9: bob's partner is a Beginner, and so are both his opponents; bob's side loses.  The
    # level sat on both sides: its rating and its row stay as they were (neither a win nor a loss
    # of the level), while bob is rated against the Beginners as openskill computes the match.
    teams = [[r(BOB), r(BEGINNER)], [r(BEGINNER), r(BEGINNER)]]
    level = s.rating(BEGINNER)
    s.record_match(match("t9", seats(BOB, BEGINNER, BEGINNER, BEGINNER), 1))
    assert s.rating(BEGINNER) == level
    want = model.rate(teams, ranks=[1.0, 0.0])
    now = s.rating(BOB)
    assert (now.mu, now.sigma) == (want[0][0].mu, want[0][0].sigma)  # type: ignore[attr-defined]
    assert {b.entry: (b.matches, b.wins) for b in s.leaderboard(20)}[BEGINNER] == (1, 0)
    for b in s.leaderboard(20):
        assert b.wins <= b.matches
    assert assess(match("x", seats(BOB, ANN, BEGINNER, BEGINNER), 0), lambda e: True)[BEGINNER] == "both-sides"


def test_a_match_of_computers_only_moves_no_rating_and_counts_for_no_one(tmp_path: Path) -> None:
    """QA: a rated table of computers only "rated the level against itself: Computer (advanced)
    0 -> 19, 1 match, 1 win".  docs/ratings.md: "A match with no person in it moves no rating and
    counts for no one"."""
    s = store(tmp_path)
    s.record_match(match("c1", seats(ADVANCED, ADVANCED, ADVANCED, ADVANCED), 0))
    s.record_match(match("c2", seats(EXPERT, BEGINNER, EXPERT, BEGINNER), 0))     # one level a side
    for level in (ADVANCED, EXPERT, BEGINNER):
        assert s.rating(level).matches == 0 and s.rating(level).mu == MODEL.mu, level
    assert s.leaderboard(20) == []
    assert set(assess(match("c3", seats(EXPERT, BEGINNER, EXPERT, BEGINNER), 0), lambda e: True).values()) == {
        "no-person"}
    # Nor does somebody who sat down in a computer's seat after the start (not rated themselves).
    s.record_match(match("late", seats(EXPERT, BOB, EXPERT, BEGINNER, bob={"late": True}), 0))
    assert s.rating(EXPERT).matches == s.rating(BEGINNER).matches == 0
    # One person at the table from the start (even a newcomer) and the levels are rated again.
    s.record_match(match("p", seats(ANN, BEGINNER, EXPERT, BEGINNER), 0))
    assert s.rating(EXPERT).matches == s.rating(BEGINNER).matches == 1


def test_the_leaderboard_gives_no_win_for_an_old_match_a_level_played_on_both_sides(tmp_path: Path) -> None:
    """Matches recorded before this rule rated a level that sat on both sides (its seats marked
    rated): the leaderboard no longer counts such a match as the level's win."""
    s = store(tmp_path)
    establish(s, ANN)
    s.record_match(match("old", seats(ANN, BEGINNER, BEGINNER, BEGINNER), 1))
    db = sqlite3.connect(tmp_path / "people.sqlite")
    with db:        # what the old code wrote: the level's seats rated, its rating moved
        db.execute("UPDATE match_seats SET unrated = '', after_mu = 20.0, after_sigma = 8.0 WHERE entry = ?",
                   (BEGINNER,))
        db.execute("INSERT OR REPLACE INTO ratings(entry, game, name, mu, sigma, matches, updated)"
                   " VALUES (?, 'canasta', 'Computer (beginner)', 20.0, 8.0, 1, 1.0)", (BEGINNER,))
    db.close()
    assert {b.entry: (b.matches, b.wins) for b in s.leaderboard(20)}[BEGINNER] == (1, 0)


def test_what_a_rating_means_says_the_servers_own_numbers_in_eight_lines_that_fit() -> None:
    for text in (rating_text(), rating_text(0, 90), rating_text(5, 300)):
        lines = text.splitlines()
        assert len(lines) <= 8 and max(len(line) for line in lines) <= 76       # (the page wraps at 76)
    assert "people with 3 counted ones" in rating_text() and "for 2 min" in rating_text()
    assert "Every rated match counts" in rating_text(0, 90) and "for 90 s" in rating_text(0, 90)
    assert "people with 5 counted ones" in rating_text(5, 300) and "for 5 min" in rating_text(5, 300)
    assert "Computers are rated by level, against people;" in rating_text().replace("\n", " ")
