"""The club's evening and partnerships (issue 34, section 2), computed by both people stores from
a hand-worked example: six matches recorded through the store's real API (``record_match``), and
every figure the pages show worked out by hand below.

The example (evenings in UTC, from 06:00 to 06:00; seats 1 and 3 are side 0, seats 2 and 4 side 1):

===== ================ ============================ ======= ============= =======================
match finished (UTC)   side 0 v side 1              winner  final scores  hands (side 0 / side 1)
===== ================ ============================ ======= ============= =======================
m5    26 Nov 05:00     ann & bob v cy & dee         side 1  3,002 / 5,200 3,002 / 5,200
m1    26 Nov 20:00     ann & bob v cy & dee (rated) side 0  5,120 / 3,450 2,000 / 1,500; 3,120 / 1,950
m2    26 Nov 21:30     ann & bob v eve & Expert     side 1  2,000 / 5,005 2,000 / 5,005
m3    26 Nov 23:00     ann & cy v bob & dee         side 0  5,500 / 1,200 900 / 700; 4,600 / 500
m4    27 Nov 01:00     ann & bob v cy & dee (PRIVATE) side 0  5,010 / 4,990 5,010 / 4,990
m6    27 Nov 06:00:01  ann & ~gus v cy & dee        side 0  5,100 / 100   5,100 / 100
===== ================ ============================ ======= ============= =======================

* The evening of 26 November: m1, m2, m3 (m5 is the 25th's: before 06:00; m6 the 27th's; m4 was
  at an unlisted table: its players' own, never the club's page).
* Who ann wins with (all of her own matches, m4 too), ranked by (wins + 1) / (matches + 2):
  cy 1 of 1 (2/3, average 5,500), ~gus 1 of 1 (2/3, 5,100: cy's higher average first),
  bob 2 of 4 (3/6; average (5,120 + 2,000 + 5,010 + 3,002) / 4 = 3,783).
* The club's best (listed matches, two people with keys, at least 3 together): ann & bob 1 of 3
  (m5, m1, m2; average 10,122 / 3 = 3,374) and cy & dee 1 of 3 (m5, m1, m6; 8,750 / 3 = 2,917),
  equal at 2/5 and 3 matches: the higher average first.  From 1 match: ann & cy 1 of 1 (2/3)
  first, then ann & bob, cy & dee (2/5), bob & dee 0 of 1 (1/3).
* ann & bob's own record: 4 matches, 2 wins, average 3,783, best hand 5,010 (m4, hand 1); as the
  club sees it (listed only): 3 matches, 1 win, average 3,374, best hand 3,120 (m1, hand 2).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from engines import pg_dsn, postgres  # noqa: F401  (fixtures)

from canasta_tui.server.club.evening import (
    BestHand,
    best_pairs,
    evening_bounds,
    evening_of,
    parse_evening,
    partners_of,
    partnership_of,
)
from canasta_tui.server.club.people import HandScore, MatchResult, RatingChange, SeatResult

from .test_people_contract import Backend, Store
from .test_people_contract import backend as both_stores


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    """Each test on both stores: test_people_contract's fixture (a SQLite file, a PostgreSQL database)."""
    yield from both_stores.__wrapped__(request, tmp_path)          # type: ignore[attr-defined]

UTC = dt.UTC
ANN, BOB, CY, DEE, EVE = (f"key:SHA256:{n}" for n in ("ann", "bob", "cy", "dee", "eve"))
GUS, EXPERT = "guest:5f3a", "computer:expert"
NAMES = {ANN: "ann", BOB: "bob", CY: "cy", DEE: "dee", EVE: "eve", GUS: "~gus", EXPERT: "Computer (expert)"}
#: The evening of 26 November 2026 starts at 06:00 UTC.
T0 = dt.datetime(2026, 11, 26, 6, tzinfo=UTC).timestamp()
DAY = dt.date(2026, 11, 26)


def played(game_id: str, hours: float, seats: tuple[str, str, str, str], winner: int,
           hands: list[tuple[int, int]], *, rated: bool = False, listed: bool = True) -> MatchResult:
    """A finished match ``hours`` after T0: seats 1 and 3 side 0, seats 2 and 4 side 1, each hand's
    (side 0, side 1) scores; its final scores their sums."""
    scores = (sum(h[0] for h in hands), sum(h[1] for h in hands))
    return MatchResult(game_id, 7, T0 + hours * 3600, "classic", rated, f"/srv/tables/{game_id}.json", winner, scores,
                       tuple(SeatResult(e, NAMES[e], i % 2) for i, e in enumerate(seats)),
                       tuple(HandScore(n, t, h[t], h[t] - h[1 - t]) for n, h in enumerate(hands, 1) for t in (0, 1)),
                       listed=listed)


def club(s: Store) -> dict[str, list[RatingChange]]:
    """The example's six matches, recorded through the store's real API."""
    return {m.game_id: s.record_match(m) for m in (
        played("m5", -1, (ANN, CY, BOB, DEE), 1, [(3002, 5200)]),
        played("m1", 14, (ANN, CY, BOB, DEE), 0, [(2000, 1500), (3120, 1950)], rated=True),
        played("m2", 15.5, (ANN, EVE, BOB, EXPERT), 1, [(2000, 5005)]),
        played("m3", 17, (ANN, BOB, CY, DEE), 0, [(900, 700), (4600, 500)]),
        played("m4", 19, (ANN, CY, BOB, DEE), 0, [(5010, 4990)], listed=False),
        played("m6", 24 + 1 / 3600, (ANN, CY, GUS, DEE), 0, [(5100, 100)]),
    )}


def test_the_evening_lists_the_listed_matches_finished_between_six_and_six(backend: Backend) -> None:
    s = backend.open()
    changes = club(s)
    since, until = evening_bounds(DAY, UTC)
    assert (since, until) == (T0, T0 + 86400)
    matches, more = s.club_matches(since, until)
    assert not more
    assert [m.finished for m in matches] == [T0 + 17 * 3600, T0 + 15.5 * 3600, T0 + 14 * 3600]      # m3, m2, m1
    m3, m2, m1 = matches
    assert [(side.names, side.score, side.won) for side in m1.sides()] == [
        (("ann", "bob"), 5120, True), (("cy", "dee"), 3450, False)]
    assert [(side.names, side.score, side.won) for side in m2.sides()] == [
        (("eve", "Computer (expert)"), 5005, True), (("ann", "bob"), 2000, False)]
    assert (m3.scores, m3.winner, m3.hands, m3.rated, m3.forfeit, m3.table_id, m3.rules) == (
        (5500, 1200), 0, 2, False, False, 7, "classic")
    # The rated match's rating moves, as the store computed them (shown points, after - before).
    moved = {c.entry: c.points for c in changes["m1"]}
    assert {s.entry: s.change for s in m1.seats} == moved and set(moved) == {ANN, BOB, CY, DEE}
    assert all(moved[e] > 0 for e in (ANN, BOB)) and all(moved[e] < 0 for e in (CY, DEE))
    assert m1.sides()[0].changes == (moved[ANN], moved[BOB])
    assert all(seat.change is None for seat in m2.seats + m3.seats)
    # The evenings either side: m5 finished at 05:00 (the 25th's), m6 at 06:00:01 on the 27th (its own).
    assert [m.finished for m in s.club_matches(*evening_bounds(DAY - dt.timedelta(days=1), UTC))[0]] == [T0 - 3600]
    assert [m.finished for m in s.club_matches(*evening_bounds(DAY + dt.timedelta(days=1), UTC))[0]] == [T0 + 86401]
    # At most ``limit``, and whether there were more.
    got, more = s.club_matches(since, until, 2)
    assert [m.finished for m in got] == [T0 + 17 * 3600, T0 + 15.5 * 3600] and more


def test_who_a_person_wins_with_the_clubs_best_and_a_partnerships_record(backend: Backend) -> None:
    s = backend.open()
    club(s)
    mine = partners_of(s.pair_rows(ANN))
    assert [(p.names, p.matches, p.wins, p.average) for p in mine] == [
        (("ann", "cy"), 1, 1, 5500), (("ann", "~gus"), 1, 1, 5100), (("ann", "bob"), 4, 2, 3783)]
    assert [round(p.rank_share, 3) for p in mine] == [0.667, 0.667, 0.5]
    rows = s.pair_rows(None)
    assert [(p.names, p.matches, p.wins, p.average) for p in best_pairs(rows)] == [
        (("ann", "bob"), 3, 1, 3374), (("cy", "dee"), 3, 1, 2917)]
    assert [(p.names, p.matches, p.wins) for p in best_pairs(rows, min_matches=1)] == [
        (("ann", "cy"), 1, 1), (("ann", "bob"), 3, 1), (("cy", "dee"), 3, 1), (("bob", "dee"), 1, 0)]
    # ann & bob's own record (for one of them: every match of theirs, the private m4 too) ...
    pair = mine[2]
    own = partnership_of(s.pair_rows(ANN, BOB), ANN, BOB, pair.names, s.best_hand(ANN, BOB))
    assert (own.matches, own.wins, own.average, own.best) == (4, 2, 3783, BestHand(5010, 1, "classic", T0 + 19 * 3600))
    # ... and as the club sees it (listed tables only).
    seen = partnership_of(s.pair_rows(ANN, BOB, listed_only=True), ANN, BOB, pair.names,
                          s.best_hand(ANN, BOB, listed_only=True))
    assert (seen.matches, seen.wins, seen.average, seen.best) == (3, 1, 3374, BestHand(3120, 2, "classic", T0 + 14 * 3600))
    # A pair that never played together: nothing, and no best hand.
    none = partnership_of(s.pair_rows(EVE, DEE), EVE, DEE, ("eve", "dee"), s.best_hand(EVE, DEE))
    assert (none.matches, none.wins, none.average, none.best) == (0, 0, 0, None)
    # Read again by a second store on the same database (another process, or after a restart): the same.
    again = backend.reopen(s)
    assert partners_of(again.pair_rows(ANN)) == mine


def test_an_evening_is_a_day_of_the_servers_time_zone_from_six_to_six() -> None:
    assert evening_of(T0 + 19 * 3600, UTC) == DAY              # 01:00 the next morning: still the 26th's
    assert evening_of(T0 - 1, UTC) == DAY - dt.timedelta(days=1)
    assert evening_of(T0, UTC) == DAY
    paris = ZoneInfo("Europe/Paris")
    since, until = evening_bounds(DAY, paris)                     # (UTC+1 in November)
    assert since == T0 - 3600 and until - since == 86400
    # The night the clocks go back (25 October 2026 in Paris) is an evening of 25 hours.
    since, until = evening_bounds(dt.date(2026, 10, 24), paris)
    assert until - since == 25 * 3600


def test_a_typed_date_is_a_day_of_the_calendar_from_2000_to_tonight() -> None:
    today = dt.date(2026, 11, 27)
    assert parse_evening(" 2026-11-26 ", today) == DAY
    assert parse_evening("2026-11-27", today) == today
    for typed, why in [("2026-02-30", "There is no such day as 2026-02-30"), ("2026-13-01", "no such day"),
                       ("0000-01-01", "no such day"), ("1999-12-31", "Nothing is kept from before 2000-01-01"),
                       ("2026-11-28", "That evening has not come yet (tonight is 2026-11-27)"),
                       ("9999-12-31", "has not come yet"), ("20261126", "YYYY-MM-DD"), ("2026-W48-4", "YYYY-MM-DD"),
                       ("26/11/2026", "YYYY-MM-DD"), ("", "YYYY-MM-DD"), ("２０２６-11-26", "YYYY-MM-DD"),
                       ("2026-11-26\x1b[2J", "YYYY-MM-DD"), ("9" * 5000, "YYYY-MM-DD")]:
        got = parse_evening(typed, today)
        assert isinstance(got, str) and why in got, typed


def test_the_clubs_best_is_read_once_a_minute_by_the_server(backend: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    """``Club.best_pairs`` reads every listed match: a lobby full of people pressing b reads it once
    a minute (``BEST_CACHE``); a minute later a new partnership is there."""
    from canasta_tui.server.club import results

    s = backend.open()
    club(s)
    now = [1000.0]
    monkeypatch.setattr(results.time, "monotonic", lambda: now[0])
    c = results.Club(s, None)        # type: ignore[arg-type]   (no table is recorded here)
    try:
        first = c.best_pairs()
        assert first is not None and [p.names for p in first] == [("ann", "bob"), ("cy", "dee")]
        for i in range(3):
            s.record_match(played(f"x{i}", 2 + i / 10, (EVE, ANN, DEE, BOB), 0, [(5000, 100)]))
        now[0] += results.BEST_CACHE - 1
        assert c.best_pairs() is first
        now[0] += 2
        again = c.best_pairs()
        assert again is not None and again[0].names == ("dee", "eve") and (again[0].matches, again[0].wins) == (3, 3)
    finally:
        c.close()
