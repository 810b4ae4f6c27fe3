"""Ratings over real SSH: four people, each with their own key, play a match at a rated table;
their four ratings move exactly as the rating library (openskill) computes them, and their
histories show the match.  A table not created as rated moves nobody's rating.  A rated Samba
match moves only Samba ratings (issue 19: ratings are kept apart per variant)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from openskill.models import PlackettLuce

from canasta_tui.engine import Rules
from canasta_tui.presets import load_rules
from canasta_tui.server.auth import Identity
from canasta_tui.server.people import MODEL, Game, HandScore, MatchResult, SeatResult, shown_points
from canasta_tui.server.tables import OVER

from .helpers import Term, create_table, fingerprint_of, run, serving

NAMES = ("alice", "bob", "carol", "dave")


async def play_out(srv: object, rated: bool, rules: Rules | None = None,
                   playing: Callable[[], None] = lambda: None) -> tuple[int, list[int]]:
    """The four sit at table 1 (rated or not; classic unless ``rules``), start it and leave it:
    computers finish the one-hand match for them (their seats stay theirs) while alice watches.
    ``playing`` is called when all four play at the table, before they leave.  (winner, scores)"""
    registry = srv.registry  # type: ignore[attr-defined]
    port = srv.port          # type: ignore[attr-defined]
    terms = [await Term.connect(port, n) for n in NAMES]
    await terms[0].wait_for("No tables yet")
    await create_table(terms[0], level_steps=-1)             # beginner computers
    st = registry.tables[1]
    st.rated = rated                                          # (the lobby's form to set it is another's work)
    st.rules = (rules or st.rules).replace(target_score=1)    # one hand is the match
    for t, seat in zip(terms[1:], "234", strict=True):
        await t.press(seat, f"{seat}  {NAMES[int(seat) - 1]}✓ (you)")
    await terms[0].press("s", "hand 1")
    for t in terms:
        await t.wait_for(f"Your hand ({st.rules.hand_size} cards)")
    playing()
    for t in terms:
        await t.press("q", "Leave the table?")
        await t.press("y", "Tables")
    await terms[0].press("w", "hand 1")                      # somebody watches: the computers play on
    for _ in range(6000):
        if st.state == OVER:
            break
        await asyncio.sleep(0.02)
    assert st.state == OVER
    assert st.table is not None
    assert [s.key for s in st.table.seats] == [f"key:{fingerprint_of(n)}" for n in NAMES]
    for f in list(registry.club.results):
        await asyncio.wrap_future(f)
    winner, scores = st.table.match.winner, list(st.table.match.scores)
    for t in terms:
        await t.close()
    assert winner is not None
    return winner, scores


def test_a_rated_match_between_four_people_moves_four_ratings_as_openskill_computes_them() -> None:
    async def main() -> None:
        async with serving(takeover=0) as srv:
            winner, scores = await play_out(srv, rated=True)
            people = srv.registry.people
            keys = [f"key:{fingerprint_of(n)}" for n in NAMES]
            # What the library says: two teams of two (Players 1 & 3, 2 & 4), everybody new, the winner first.
            model = PlackettLuce()
            teams = [[model.rating(), model.rating()], [model.rating(), model.rating()]]
            expected = model.rate(teams, ranks=[0.0, 1.0] if winner == 0 else [1.0, 0.0])
            for seat, key in enumerate(keys):
                got = people.rating(key)
                want = expected[seat % 2][seat // 2]
                assert (got.mu, got.sigma, got.matches) == (want.mu, want.sigma, 1), NAMES[seat]
                assert got.name == NAMES[seat]
            assert (people.rating(keys[winner]).mu > MODEL.mu) and (people.rating(keys[1 - winner]).mu < MODEL.mu)
            # The leaderboard: the two winners first, with one match each.
            board = people.leaderboard(10)
            assert sorted(s.name for s in board[:2]) == sorted([NAMES[winner], NAMES[winner + 2]])
            assert all(s.matches == 1 for s in board)
            # alice's history: partner carol, opponents bob and dave, the scores, the rating change.
            (row,) = people.matches_of(keys[0])
            assert row.partners == ("carol",) and row.opponents == ("bob", "dave")
            assert (row.our_score, row.their_score, row.won) == (scores[0], scores[1], winner == 0)
            before = shown_points(MODEL.mu, MODEL.sigma)
            assert row.change == shown_points(expected[0][0].mu, expected[0][0].sigma) - before
            assert row.rated and row.rules == "classic" and row.record.endswith("tables/1.json")
            assert people.wins_by_partner(keys[0])[0][:3] == ("carol", int(winner == 0), 1)
            assert people.high_scores(keys[0])
            # What a statistics screen asks for, in one call, by the person's key.
            record = srv.registry.club.record_of(Identity("alice", fingerprint_of("alice")))
            assert record is not None and record.rating.matches == 1 and record.matches == (row,)
            assert record.by_rules[0][:3] == ("classic", int(winner == 0), 1)
            assert srv.registry.club.leaderboard(10) == board
    run(main(), timeout=240)


def test_a_table_not_created_as_rated_moves_no_rating_but_is_in_the_history() -> None:
    async def main() -> None:
        async with serving(takeover=0) as srv:
            await play_out(srv, rated=False)
            people = srv.registry.people
            key = f"key:{fingerprint_of('bob')}"
            assert people.rating(key).matches == 0
            assert people.leaderboard() == []
            (row,) = people.matches_of(key)
            assert not row.rated and row.change is None
    run(main(), timeout=240)


def test_a_rated_samba_match_moves_only_samba_ratings() -> None:
    """Issue 19 ("Server"): "ratings … are kept apart per variant".  alice and bob have Canasta
    ratings already; a rated Samba match leaves them as they were and gives the four their first
    Samba ratings, as openskill computes them.  The online list shows, at the Samba table, the
    Samba rating; in the lobby, the Canasta rating."""
    async def main() -> None:
        async with serving(takeover=0) as srv:
            people = srv.registry.people
            keys = [f"key:{fingerprint_of(n)}" for n in NAMES]
            # An earlier rated Canasta match: alice and bob beat two Expert computers.
            people.record_match(MatchResult(
                "earlier", 9, 1.0, "classic", True, "/srv/tables/9.json", 0, (5000, 100),
                (SeatResult(keys[0], "alice", 0), SeatResult("computer:expert", "Computer (expert)", 1),
                 SeatResult(keys[1], "bob", 0), SeatResult("computer:expert", "Computer (expert)", 1)),
                (HandScore(1, 0, 5000, 4900), HandScore(1, 1, 100, -4900))))
            canasta = {k: people.rating(k) for k in keys}
            assert canasta[keys[0]].matches == 1 and canasta[keys[0]].points > 0

            shown: dict[str, int | None] = {}

            def at_the_table() -> None:
                shown.update({r.name: r.rating for r in srv.registry.online_rows()})

            winner, _ = await play_out(srv, rated=True, rules=load_rules("samba"), playing=at_the_table)
            assert shown == {"alice": 0, "bob": 0, "carol": 0, "dave": 0}      # at the Samba table: Samba's
            model = PlackettLuce()
            teams = [[model.rating(), model.rating()], [model.rating(), model.rating()]]
            expected = model.rate(teams, ranks=[0.0, 1.0] if winner == 0 else [1.0, 0.0])
            for seat, key in enumerate(keys):
                assert people.rating(key) == canasta[key], NAMES[seat]             # Canasta's untouched
                got = people.rating(key, Game.SAMBA)
                want = expected[seat % 2][seat // 2]
                assert (got.mu, got.sigma, got.matches) == (want.mu, want.sigma, 1), NAMES[seat]
                assert people.rating(key, Game.BOLIVIA).matches == 0
            samba = srv.registry.club.leaderboard(10, Game.SAMBA)
            assert sorted(s.name for s in samba[:2]) == sorted([NAMES[winner], NAMES[winner + 2]])
            assert {s.name for s in srv.registry.club.leaderboard(10)} == {"alice", "bob", "Computer (expert)"}
            (row,) = [m for m in people.matches_of(keys[2]) if m.rules == "samba"]
            assert row.rated and row.change == shown_points(expected[0][1].mu, expected[0][1].sigma) - 0
            record = srv.registry.club.record_of(Identity("alice", fingerprint_of("alice")))
            assert record is not None and [(r.game, r.matches) for r in record.ratings] == [
                (Game.CANASTA, 1), (Game.SAMBA, 1)]
            # Back in the lobby the online list shows the Canasta rating again.
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("Tables")
            srv.registry.club._ratings.clear()                                       # (kept a minute in memory)
            srv.registry.changed()
            rows = {r.name: r.rating for r in srv.registry.online_rows()}
            assert rows["alice"] == canasta[keys[0]].points
            await alice.close()
    run(main(), timeout=300)
