"""Ratings over real SSH: two people, each with their own key, play a match by keys at a rated
table, each partnered by a computer; their ratings move exactly as the rating library (openskill)
computes them (the computers' level, on both sides, is not rated: it played itself), and their
histories show the match.  A table not created as rated moves nobody's rating.  A rated Samba
match moves only Samba ratings (issue 19: ratings are kept apart per variant).  The two have
rating histories already (docs/ratings.md: nobody is rated against a newcomer); the rules of who
is rated are attacked in ``test_rated_matches.py``."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from openskill.models import PlackettLuce

from canasta_tui.engine import Rules
from canasta_tui.presets import load_rules
from canasta_tui.server.club.people import Game, HandScore, MatchResult, Rating, SeatResult, shown_points
from canasta_tui.server.door.auth import Identity
from canasta_tui.server.person import PersonId
from canasta_tui.server.tables.server_table import OVER

from .helpers import Term, create_table, drive, fingerprint_of, run, serving
from .test_rated_matches import establish

NAMES = ("alice", "bob")


async def play_out(srv: object, rated: bool, rules: Rules | None = None,
                   playing: Callable[[], None] = lambda: None) -> tuple[int, list[int], str]:
    """alice (Player 1) and bob (Player 2) sit at table 1 (rated or not; classic unless ``rules``),
    start it and play it to the end by keys, each at their own terminal; computers play Players 3
    and 4 (each one's partner).  ``playing`` is called when both play at the table.  (winner,
    scores, the computers' rating entry)"""
    registry = srv.registry  # type: ignore[attr-defined]
    port = srv.port          # type: ignore[attr-defined]
    terms = [await Term.connect(port, n) for n in NAMES]
    await terms[0].wait_for("No tables yet")
    await create_table(terms[0], level_steps=-1)
    st = registry.tables[1]
    st.rated = rated                                          # (the lobby's form to set it is another's work)
    st.rules = (rules or st.rules).replace(target_score=1)    # short: the first hand a side ends above 0
    await terms[1].press("2", "2  bob✓ (you)")
    await terms[0].press("s", "hand 1")
    for t in terms:
        await t.wait_for(f"Your hand ({st.rules.hand_size} cards)")
    playing()
    await asyncio.gather(*(drive(t, lambda _: st.state == OVER, timeout=200) for t in terms))
    assert st.state == OVER
    assert st.table is not None
    assert [s.key for s in st.table.seats] == [f"key:{fingerprint_of(n)}" for n in NAMES] + ["", ""]
    assert all(v[1] == 0 and v[0] > 0 for v in st.turns.values()) and len(st.turns) == 2
    for f in list(registry.club.results):
        await asyncio.wrap_future(f)
    winner, scores = st.table.match.winner, list(st.table.match.scores)
    for t in terms:
        await t.close()
    assert winner is not None
    return winner, scores, f"computer:{st.level}"


def ratings(model: PlackettLuce, before: dict[str, Rating], computer: Rating, winner: int) -> list[list[object]]:
    """What the library says of the match: alice and a computer against bob and a computer, from
    their ratings before it, the winner first."""
    def r(x: Rating) -> object:
        return model.rating(mu=x.mu, sigma=x.sigma)

    teams = [[r(before["alice"]), r(computer)], [r(before["bob"]), r(computer)]]
    return model.rate(teams, ranks=[0.0, 1.0] if winner == 0 else [1.0, 0.0])


def test_a_rated_match_moves_its_players_ratings_as_openskill_computes_them() -> None:
    async def main() -> None:
        async with serving(takeover=0) as srv:
            people = srv.registry.people
            before = establish(people, *NAMES)
            board_before = {s.name: (s.matches, s.wins) for s in people.leaderboard(10)}
            computers: dict[str, Rating] = {}

            def at_the_table() -> None:
                st = srv.registry.tables[1]
                computers["before"] = people.rating(f"computer:{st.level}")

            winner, scores, entry = await play_out(srv, rated=True, playing=at_the_table)
            keys = [f"key:{fingerprint_of(n)}" for n in NAMES]
            model = PlackettLuce()
            expected = ratings(model, before, computers["before"], winner)
            for seat, key in enumerate(keys):
                got = people.rating(key)
                want = expected[seat][0]
                assert (got.mu, got.sigma, got.matches) == (want.mu, want.sigma, 4), NAMES[seat]  # type: ignore[attr-defined]
                assert got.name == NAMES[seat]
            # The level partnered both: it played itself, and is not rated for it (docs/ratings.md).
            assert people.rating(entry) == computers["before"]
            assert people.rating(keys[winner]).mu > before[NAMES[winner]].mu
            assert people.rating(keys[1 - winner]).mu < before[NAMES[1 - winner]].mu
            # The leaderboard: one more match each, one more win for the winner.
            board = people.leaderboard(10)
            for s in board:
                if s.name in NAMES:
                    m, w = board_before[s.name]
                    assert (s.matches, s.wins) == (m + 1, w + (NAMES.index(s.name) == winner)), s.name
            # alice's history: partner the computer, opponents bob and a computer, the scores, the change.
            row = people.matches_of(PersonId.parse(keys[0]))[0]
            assert row.partners == (f"Computer ({entry.removeprefix('computer:')})",)
            assert row.opponents == ("bob", f"Computer ({entry.removeprefix('computer:')})")
            assert (row.our_score, row.their_score, row.won) == (scores[0], scores[1], winner == 0)
            b = before["alice"]
            want0 = expected[0][0]
            assert row.change == shown_points(want0.mu, want0.sigma) - shown_points(b.mu, b.sigma)  # type: ignore[attr-defined]
            assert row.rated and row.rules == "classic" and row.record.endswith("tables/1.json")
            assert row.turns is not None and row.turns > 0 and row.stood_in == 0 and row.mark == "" and row.note == ""
            assert people.high_scores(PersonId.parse(keys[0]))
            # What a statistics screen asks for, in one call, by the person's key.
            record = srv.registry.club.record_of(Identity("alice", fingerprint_of("alice")))
            assert record is not None and record.rating.matches == 4 and record.matches[0] == row
            assert srv.registry.club.leaderboard(10) == board
    run(main(), timeout=300)


def test_a_table_not_created_as_rated_moves_no_rating_but_is_in_the_history() -> None:
    async def main() -> None:
        async with serving(takeover=0) as srv:
            people = srv.registry.people
            before = establish(people, *NAMES)
            await play_out(srv, rated=False)
            key = f"key:{fingerprint_of('bob')}"
            assert people.rating(key) == before["bob"]
            row = people.matches_of(PersonId.parse(key))[0]
            assert not row.rated and row.change is None and row.mark == ""
    run(main(), timeout=300)


def test_a_rated_samba_match_moves_only_samba_ratings() -> None:
    """Issue 19 ("Server"): "ratings … are kept apart per variant".  alice and bob have Canasta
    ratings already; a rated Samba match leaves them as they were and moves their Samba ratings,
    as openskill computes them.  The online list shows, at the Samba table, the Samba rating; in
    the lobby, the Canasta rating."""
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
            before = establish(people, *NAMES, game=Game.SAMBA)

            shown: dict[str, int | None] = {}
            computers: dict[str, Rating] = {}

            def at_the_table() -> None:
                shown.update({r.name: r.rating for r in srv.registry.online_rows()})
                computers["before"] = people.rating(f"computer:{srv.registry.tables[1].level}", Game.SAMBA)

            winner, _, _ = await play_out(srv, rated=True, rules=load_rules("samba"), playing=at_the_table)
            assert shown == {n: before[n].points for n in NAMES}             # at the Samba table: Samba's
            assert shown["alice"] != canasta[keys[0]].points
            model = PlackettLuce()
            expected = ratings(model, before, computers["before"], winner)
            for seat, key in enumerate(keys):
                assert people.rating(key) == canasta[key], NAMES[seat]             # Canasta's untouched
                got = people.rating(key, Game.SAMBA)
                want = expected[seat][0]
                assert (got.mu, got.sigma, got.matches) == (want.mu, want.sigma, 4), NAMES[seat]  # type: ignore[attr-defined]
                assert people.rating(key, Game.BOLIVIA).matches == 0
            samba = {s.name: s.wins for s in srv.registry.club.leaderboard(10, Game.SAMBA)}
            assert {n: samba[n] for n in NAMES} == {n: 2 + int(i == winner) for i, n in enumerate(NAMES)}  # (2 of 3 before)
            assert {s.name for s in srv.registry.club.leaderboard(10)} == {"alice", "bob", "Computer (expert)"}
            (row,) = [m for m in people.matches_of(PersonId.parse(keys[1])) if m.rules == "samba"]
            b = before["bob"]
            assert row.rated and row.change == (shown_points(expected[1][0].mu, expected[1][0].sigma)  # type: ignore[attr-defined]
                                                - shown_points(b.mu, b.sigma))
            record = srv.registry.club.record_of(Identity("alice", fingerprint_of("alice")))
            assert record is not None and [(r.game, r.matches) for r in record.ratings] == [
                (Game.CANASTA, 1), (Game.SAMBA, 4)]
            # Back in the lobby the online list shows the Canasta rating again.
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("Tables")
            srv.registry.club._ratings.clear()                                       # (kept a minute in memory)
            srv.registry.changed()
            rows = {r.name: r.rating for r in srv.registry.online_rows()}
            assert rows["alice"] == canasta[keys[0]].points
            await alice.close()
    run(main(), timeout=300)
