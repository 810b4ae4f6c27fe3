"""Rated matches measure the people who played them, attacked over real SSH (docs/ratings.md).

The issue ("What players, a club and the test suite still trip on", section 2): a player could
leave a rated table at the start and let a computer play under their name; a rated match whose
only human left was paused for ever and set aside with nothing recorded (losses dodged); 50 wins
over throwaway keys gave 1,548 rating points; the leaderboard showed "Computer (advanced) 89 1 2"
(more wins than matches) for a level that held two seats.  Each test below plays the attack at a
server on 127.0.0.1 with real asyncssh clients, each person with their own key, and fails on the
code before the rules: there the leaver's match was never recorded (the table waited for ever),
a win played by a computer moved its person's rating, and a farmer's wins counted.

Every wait is bounded; the forfeit's grace is handed to the server short (``forfeit_after``)."""

from __future__ import annotations

import asyncio

from openskill.models import PlackettLuce

from canasta_tui.server.club.people import (
    MODEL,
    Game,
    HandScore,
    MatchResult,
    PeopleStore,
    Rating,
    SeatResult,
)
from canasta_tui.server.person import PersonId
from canasta_tui.server.tables.server_table import FORMING, NOBODY_RATED, OVER, PLAYING, ServerTable

from .helpers import Term, create_table, fingerprint_of, run, serving, settle

GRACE = 0.5


def key(name: str) -> str:
    return f"key:{fingerprint_of(name)}"


def establish(people: PeopleStore, *names: str, game: Game = Game.CANASTA) -> dict[str, Rating]:
    """Each of ``names`` has played three rated matches of ``game`` against computers (what the
    newcomer rule asks before others are rated against them); their ratings now."""
    for n in names:
        for i in range(3):
            people.record_match(MatchResult(
                f"earlier-{game.value}-{n}-{i}", 90, float(i), "classic", True, "/srv/tables/90.json", i % 2,
                (5000, 100) if i % 2 == 0 else (100, 5000),
                (SeatResult(key(n), n, 0), SeatResult("computer:expert", "Computer (expert)", 1),
                 SeatResult("computer:advanced", "Computer (advanced)", 0),
                 SeatResult("computer:expert", "Computer (expert)", 1)),
                (HandScore(1, 0, 5000, 4900), HandScore(1, 1, 100, -4900)), game))
        assert people.established(key(n), game)      # type: ignore[attr-defined]
    return {n: people.rating(key(n), game) for n in names}


async def recorded(srv: object) -> None:
    """Wait for the finished matches being written (on the recorder's thread)."""
    for f in list(srv.registry.club.results):         # type: ignore[attr-defined]
        await asyncio.wait_for(asyncio.wrap_future(f), 30)


async def rated_table(creator: Term, srv: object, table_id: int, *, turn_timer: float = 0.0) -> ServerTable:
    """``creator`` creates a rated table, one hand long (target 1)."""
    await create_table(creator, level_steps=-1)
    st: ServerTable = srv.registry.tables[table_id]   # type: ignore[attr-defined]
    st.rated = True                                     # (the lobby's form sets it: tested elsewhere)
    st.rules = st.rules.replace(target_score=1)
    st.turn_timer = turn_timer
    return st


async def leave(t: Term) -> None:
    """``t`` leaves the table: a line the server showed is closed first, then q and the question."""
    if "(press any key)" in t.text():
        await t.press("x", lambda s: "(press any key)" not in s)
    await t.press("q", lambda s: "Tables" in s or "Leave the table?" in s)
    if "Tables" not in t.text():
        await t.press("y", "Tables")


def test_a_rated_match_whose_only_human_leaves_is_lost_by_forfeit_not_paused_for_ever() -> None:
    """The dodge: alone with three computers, alice leaves at the start.  She is told in the lobby
    how long she has; after the grace her side loses by forfeit: the match is recorded, her loss
    rated exactly as openskill computes it (partnered by a computer, against two), the table goes,
    her history marks the forfeit.  The computers' level held seats on both sides (her partner and
    both opponents): it played itself, so it is not rated and the leaderboard gives it no win (the
    old count was "Computer (beginner) 37 2 2": a win whenever any of its seats won)."""
    async def main() -> None:
        async with serving(takeover=0, forfeit_after=GRACE) as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            st = await rated_table(alice, srv, 1)
            await alice.press("s", "hand 1")
            await alice.wait_for("Your hand")
            await alice.press("q", "Leave the table?")
            await alice.press("y", "You left the rated match at table 1")
            await settle(srv, lambda: st.forfeited == key("alice"), timeout=30)
            await alice.wait_for("Your side lost the rated match at table 1 by forfeit")   # told in the lobby
            await settle(srv, lambda: 1 not in srv.registry.tables)      # nobody there: it went
            assert st.state == OVER and st.winner == 1
            await recorded(srv)
            people = srv.registry.people
            model = PlackettLuce()
            r = model.rating
            want = model.rate([[r(), r()], [r(), r()]], ranks=[1.0, 0.0])
            got = people.rating(key("alice"))
            assert (got.mu, got.sigma, got.matches) == (want[0][0].mu, want[0][0].sigma, 1)
            assert got.mu < MODEL.mu
            level = people.rating(f"computer:{st.level}")
            assert level.matches == 0 and level.mu == MODEL.mu      # it played itself: not rated
            board = {s.name: (s.matches, s.wins) for s in people.leaderboard(10)}
            assert board == {"alice": (1, 0)}
            (row,) = people.matches_of(PersonId.parse(key("alice")))
            assert row.rated and row.forfeit and row.left and not row.won and row.mark == "F"
            assert row.note.startswith("You left and did not come back")
            assert row.change is not None and row.change < 0
            await alice.close()
    run(main(), timeout=120)


def test_a_rated_table_of_computers_only_does_not_start_and_rates_nobody() -> None:
    """QA: carol stood up from her rated table and started it with computers in every seat; the
    level was rated against itself ("Computer (advanced) 0 -> 19, 1 match, 1 win").  docs/ratings.md:
    a match with no person in it moves no rating and counts for no one, so such a table is refused
    with the reason; carol keeps her table, sits down again and starts it."""
    async def main() -> None:
        async with serving(takeover=0) as srv:
            carol = await Term.connect(srv.port, "carol")
            await carol.wait_for("No tables yet")
            st = await rated_table(carol, srv, 1)
            await carol.press("u", "You stood up")
            screen = await carol.press("s", NOBODY_RATED)
            assert st.state == FORMING and st.table is None
            assert all(len(line) <= 80 for line in screen.splitlines())
            assert srv.registry.people.leaderboard(10) == []
            await carol.press("1", "1  carol✓ (you)")
            await carol.press("s", "hand 1")
            assert st.state == PLAYING and st.rated
            await carol.close()
    run(main(), timeout=120)


def test_a_player_back_within_the_grace_plays_on_and_nothing_is_forfeited() -> None:
    """The grace is a grace: alice leaves, reconnects, and is at her seat again; her forfeit's clock
    is stopped, and the others were told she would lose it only if she stayed away."""
    async def main() -> None:
        async with serving(takeover=0, forfeit_after=60) as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            st = await rated_table(alice, srv, 1)
            await alice.press("s", "hand 1")
            await alice.wait_for("Your hand")
            leaving = await alice.press("q", "Leave the table?")
            assert "This match is rated: if you are not back within 1 minute," in leaving
            assert "your side loses it by forfeit (a computer plays meanwhile)." in leaving
            await alice.press("y", "come back within 1 minute")
            assert set(st.forfeit_timers) == {key("alice")}
            assert st.table is not None
            assert any("if they are not back within 1 minute, alice & Player 3 lose it by forfeit" in c.text
                       for c in st.table.chat)
            await alice.close()
            alice = await Term.connect(srv.port, "alice")          # her seat brings her back
            await alice.wait_for("Your hand")
            await settle(srv, lambda: not st.forfeit_timers)
            assert st.state != OVER and not st.forfeited
            await alice.close()
    run(main(), timeout=120)


def test_the_others_are_told_of_a_forfeit_can_leave_and_only_the_leaver_and_the_winners_move() -> None:
    """bob leaves a rated match against alice and carol (partners; all three established) and does
    not come back.  alice and carol are told at the table and leave it; bob's loss and their win are
    rated exactly as openskill computes the match with bob's side last; bob's partner (a computer
    seat from the start) loses with him; the history says who won by forfeit."""
    async def main() -> None:
        async with serving(takeover=0, forfeit_after=GRACE) as srv:
            people = srv.registry.people
            before = establish(people, "alice", "bob", "carol")
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            st = await rated_table(alice, srv, 1)
            computer = people.rating(f"computer:{st.level}")
            bob = await Term.connect(srv.port, "bob")
            await bob.press("2", "2  bob✓ (you)")
            carol = await Term.connect(srv.port, "carol")
            await carol.press("3", "3  carol✓ (you)")
            await alice.press("s", "hand 1")
            for t in (alice, bob, carol):
                await t.wait_for("Your hand")
            await bob.press("q", "Leave the table?")
            await bob.press("y", "You left the rated match")
            for t in (alice, carol):
                await t.wait_for("bob did not come back", timeout=30)
                if "(press any key)" in t.text():
                    await t.press("x", lambda s: "(press any key)" not in s)
                assert t.line(22) == "The match is over: q leaves the table"
            assert st.state == OVER and st.winner == 0 and st.table is not None and st.table.closed
            await recorded(srv)
            model = PlackettLuce()

            def r(x: Rating) -> object:
                return model.rating(mu=x.mu, sigma=x.sigma)

            want = model.rate([[r(before["alice"]), r(before["carol"])], [r(before["bob"]), r(computer)]],
                              ranks=[0.0, 1.0])
            for name, (side, i) in {"alice": (0, 0), "carol": (0, 1), "bob": (1, 0)}.items():
                got = people.rating(key(name))
                assert (got.mu, got.sigma, got.matches) == (want[side][i].mu, want[side][i].sigma, 4), name
            assert people.rating(key("alice")).mu > before["alice"].mu
            assert people.rating(key("bob")).mu < before["bob"].mu
            (row,) = [m for m in people.matches_of(PersonId.parse(key("carol"))) if m.forfeit]
            assert row.won and not row.left and row.note == "Won by forfeit: a player left and did not come back"
            # They leave when they like; the table goes with the last of them.
            for t in (alice, carol):
                await leave(t)
            await settle(srv, lambda: 1 not in srv.registry.tables)
            for t in (alice, bob, carol):
                await t.close()
    run(main(), timeout=180)


def test_farming_wins_over_throwaway_keys_moves_the_farmers_rating_not_at_all() -> None:
    """The farm: an established farmer beats three fresh keys in a row (each sits down and walks
    away: a win by forfeit in a few seconds).  A key's first rated matches count only against
    established people and computers, and nobody is rated against a newcomer: the farmer's rating
    is exactly what it was, their leaderboard line too; each throwaway's loss counts for it (its
    opponent, the farmer, is established), so a throwaway ends lower than a newcomer."""
    async def main() -> None:
        async with serving(takeover=0, forfeit_after=GRACE) as srv:
            people = srv.registry.people
            farmer_before = establish(people, "farmer")["farmer"]
            board_before = [(s.name, s.points, s.matches, s.wins) for s in people.leaderboard(10) if s.name == "farmer"]
            farmer = await Term.connect(srv.port, "farmer")
            await farmer.wait_for("No tables yet")
            throwaways = ("tw1", "tw2", "tw3")
            for n, name in enumerate(throwaways, start=1):
                st = await rated_table(farmer, srv, n)
                tw = await Term.connect(srv.port, name)
                await tw.press("2", f"2  {name}✓ (you)")
                await farmer.press("s", "hand 1")
                await tw.wait_for("Your hand")
                await tw.press("q", "Leave the table?")
                await tw.press("y", "You left the rated match")
                await farmer.wait_for(f"{name} did not come back", timeout=30)
                assert st.winner == 0
                await leave(farmer)
                await tw.close()
            await recorded(srv)
            after = people.rating(key("farmer"))
            assert after == farmer_before._replace(name=after.name)
            assert [(s.name, s.points, s.matches, s.wins) for s in people.leaderboard(10)
                    if s.name == "farmer"] == board_before
            rows = [m for m in people.matches_of(PersonId.parse(key("farmer"))) if m.forfeit]
            assert len(rows) == 3 and all(m.won and m.change is None and m.mark == "F" for m in rows)
            assert all("somebody on the other side had no rating history yet" in m.note for m in rows)
            for name in throwaways:
                lost = people.rating(key(name))
                assert lost.matches == 1 and lost.mu < MODEL.mu
    run(main(), timeout=240)


def test_a_win_a_computer_played_for_a_person_who_sat_idle_is_not_theirs() -> None:
    """The stand-in: alice sits at her rated table and lets the turn timer hand every turn to a
    computer.  Her turns are counted as the computer's; a win is not hers (her rating stays), a
    loss is (rated as openskill computes it); her history marks the match either way."""
    async def main() -> None:
        async with serving(takeover=0, forfeit_after=60) as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            st = await rated_table(alice, srv, 1, turn_timer=0.2)
            await alice.press("s", "hand 1")
            await alice.wait_for("Your hand")
            await settle(srv, lambda: st.state == OVER, timeout=150)
            await recorded(srv)
            own, stood_in = st.turns[key("alice")]
            assert own == 0 and stood_in > 0
            people = srv.registry.people
            got = people.rating(key("alice"))
            (row,) = people.matches_of(PersonId.parse(key("alice")))
            assert (row.turns, row.stood_in, row.mark) == (0, stood_in, "C")
            assert row.note.startswith(f"A computer played {stood_in} of your {stood_in} turns")
            if st.winner == 0:
                assert got.matches == 0 and got.mu == MODEL.mu and row.change is None
                assert row.unrated == "stood-in"
            else:
                model = PlackettLuce()
                r = model.rating
                want = model.rate([[r(), r()], [r(), r()]], ranks=[1.0, 0.0])
                assert (got.mu, got.sigma, got.matches) == (want[0][0].mu, want[0][0].sigma, 1)
            assert got.game == Game.CANASTA
            await alice.close()
    run(main(), timeout=200)


def test_a_restart_keeps_the_turns_counted_and_the_grace_runs_again_for_whoever_is_away() -> None:
    """The counts of turns are in the table's save; after a restart everybody away from a rated match
    (alice, who had left it, a computer playing for her; bob, whose connection the stop closed) has
    the grace again; bob comes back in it, alice does not (the grace's end is handed to the table,
    not waited for): her side loses by forfeit, and the forfeited table is not brought back by the
    next start."""
    async def main() -> None:
        async with serving(takeover=0, forfeit_after=60) as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            st = await rated_table(alice, srv, 1)
            bob = await Term.connect(srv.port, "bob")
            await bob.press("2", "2  bob✓ (you)")
            await alice.press("s", "hand 1")
            await alice.wait_for("Your hand (11 cards)")
            await alice.press("d", "Your hand (12 cards)")
            await alice.press("c", "Your hand (11 cards)")          # her own turn
            await alice.press("q", "Leave the table?")
            await alice.press("y", "You left the rated match")
            await settle(srv, lambda: st.turns.get(key("alice"), [0, 0])[0] == 1)
            assert st.turns[key("alice")] == [1, 0]
            await settle(srv, lambda: srv.store.flush(0.1))
        await bob.wait_closed()
        async with serving(takeover=0, forfeit_after=60) as srv:
            st = srv.registry.tables[1]
            assert st.rated and st.turns.get(key("alice"), [0, 0])[0] == 1
            assert set(st.forfeit_timers) == {key("alice"), key("bob")}
            bob = await Term.connect(srv.port, "bob")
            await bob.wait_for("Your hand")
            await settle(srv, lambda: set(st.forfeit_timers) == {key("alice")})
            st.forfeit(key("alice"))                                # (her grace ran out)
            await bob.wait_for("alice did not come back")
            await recorded(srv)
            (row,) = srv.registry.people.matches_of(PersonId.parse(key("alice")))
            assert row.left and row.forfeit and row.turns == 1
            await leave(bob)
            await bob.close()
        async with serving(takeover=0, forfeit_after=60) as srv:
            assert srv.registry.tables == {}
    run(main(), timeout=180)


def test_partners_who_both_walk_away_both_lose_not_only_the_first_whose_grace_ran_out() -> None:
    """A partner who stayed is spared a forfeit's loss, not one who left too: alice and carol both
    leave a rated match against bob; when the grace runs out both are rated a loss."""
    async def main() -> None:
        async with serving(takeover=0, forfeit_after=GRACE) as srv:
            people = srv.registry.people
            before = establish(people, "alice", "bob", "carol")
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            st = await rated_table(alice, srv, 1)
            bob = await Term.connect(srv.port, "bob")
            await bob.press("2", "2  bob✓ (you)")
            carol = await Term.connect(srv.port, "carol")
            await carol.press("3", "3  carol✓ (you)")
            await alice.press("s", "hand 1")
            for t in (alice, bob, carol):
                await t.wait_for("Your hand")
            for t in (alice, carol):
                await t.press("q", "Leave the table?")
                await t.press("y", "You left the rated match")
            await bob.wait_for("did not come back", timeout=30)
            assert st.forfeit_left == {key("alice"), key("carol")} and st.winner == 1
            await recorded(srv)
            for name in ("alice", "carol"):
                got = people.rating(key(name))
                assert got.matches == 4 and got.mu < before[name].mu, name
                (row,) = [m for m in people.matches_of(PersonId.parse(key(name))) if m.forfeit]
                assert row.left and row.unrated == "", name
            assert people.rating(key("bob")).matches == 4
            for t in (alice, bob, carol):
                await t.close()
    run(main(), timeout=180)
