"""The lobby's club pages over real SSH (issue 34, section 2), each person with their own key:
"Tonight" (and the evening before, and dates typed wrong), the partnerships and a partnership's
record, from matches recorded through the people store's real API; and the leak test: while a
table is being played, somebody reading the club's pages receives not one card, and the table
still playing is on no page (only finished matches' public results are)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from engines import pg_dsn, postgres  # noqa: F401  (fixtures)

from canasta_tui.lobbyview import Access, TableSettings
from canasta_tui.presets import load_rules
from canasta_tui.server.club.evening import evening_bounds, evening_of
from canasta_tui.server.club.people import HandScore, MatchResult, SeatResult
from canasta_tui.server.tables.server_table import OVER
from canasta_tui.text import points

from .helpers import ENTER, ESC, Term, fingerprint_of, run, serving, settle, two_at_a_table
from .test_leak import cards_in
from .test_rated_matches import recorded
from .test_tables import Person

LEFT, RIGHT, TAB = "\x1b[D", "\x1b[C", "\t"


def person(name: str) -> str:
    return f"key:{fingerprint_of(name)}"


def finished(game_id: str, when: float, seats: tuple[str, str, str, str], winner: int, scores: tuple[int, int], *,
             rated: bool = False, listed: bool = True) -> MatchResult:
    """A one-hand match of four people (seats 1 and 3 side 0), finished at ``when``."""
    return MatchResult(game_id, 7, when, "classic", rated, f"/nowhere/{game_id}.json", winner, scores,
                       tuple(SeatResult(person(n), n, i % 2) for i, n in enumerate(seats)),
                       (HandScore(1, 0, scores[0], scores[0] - scores[1]), HandScore(1, 1, scores[1], scores[1] - scores[0])),
                       listed=listed)


def test_tonight_the_evening_before_dates_typed_wrong_and_the_partnerships_over_ssh() -> None:
    async def main() -> None:
        async with serving(provisional_matches=0) as srv:
            people = srv.registry.people
            since, _ = evening_bounds(evening_of(time.time()))
            moved = {c.entry: c.points for c in people.record_match(
                finished("r1", since + 1, ("alice", "carol", "bob", "dave"), 0, (5120, 3450), rated=True))}
            people.record_match(finished("r2", since - 3600, ("alice", "carol", "bob", "dave"), 1, (3002, 5200)))
            people.record_match(finished("r3", since + 2, ("carol", "bob", "alice", "dave"), 0, (5010, 4990),
                                         listed=False))
            carol = await Term.connect(srv.port, "carol")
            await carol.wait_for("No tables yet")
            screen = await carol.press("t", "Tonight,")
            a, b, c, d = (moved[person(n)] for n in ("alice", "bob", "carol", "dave"))
            assert f"won   alice {a:+d} & bob {b:+d}" in screen and screen.count("won ") == 1
            assert f"lost  carol {c:+d} & dave {d:+d}" in screen
            assert "5,120" in screen and "3,450" in screen and "1 match" in screen
            assert "5,010" not in screen            # (the private table's match is its players' own)
            assert "No tournament tonight." in screen
            screen = await carol.press(LEFT, "The evening of")
            assert "won   carol & dave" in screen and "5,200" in screen and "No tournament that evening." in screen
            await carol.press("t", "Tonight,")
            await carol.press(RIGHT, "the evenings after it have not come yet")
            # Dates typed wrong: each refused with why, the page as it was.
            for typed, why in [("2026-02-30", "There is no such day as 2026-02-30"),
                               ("1999-12-31", "Nothing is kept from before 2000-01-01"),
                               ("9999-12-31", "That evening has not come yet"),
                               ("26/11/2026", "Type a date as YYYY-MM-DD")]:
                await carol.press("d", "Show the evening of (YYYY-MM-DD): _")
                carol.send(typed)
                screen = await carol.press(ENTER, why)
                assert "Tonight," in screen
            await carol.press("d", "Show the evening of (YYYY-MM-DD): _")
            screen = await carol.press("7" * 400, "A date is 10 characters")
            assert "7" * 11 not in screen
            await carol.press(ESC, lambda s: "Show the evening of" not in s)
            # The partnerships: who carol wins with (the private match counts for her), the club's best.
            screen = await carol.press("b", "Who you win with")
            assert "> alice" in screen and " 100% " in screen.split("> alice")[1].split("\n")[0]
            dave = next(line for line in screen.split("\n") if line.strip().startswith("dave"))
            assert dave.split() == ["dave", "2", "1", "50%", points((3450 + 5200) // 2)]
            assert "No partnership has played enough matches together at listed tables yet" in screen
            screen = await carol.press(ENTER, "A partnership's record")
            assert "Matches together  1" in screen and "Best hand         5,010 (hand 1, classic," in screen
            assert "private tables too" in screen
            await carol.press(ESC, "Who you win with")
            await carol.press(ESC, "Tonight,")
            await carol.press(ESC, "No tables yet")
            # The lobby's help names the keys.
            screen = await carol.press("?", "t, b")
            assert "tonight's results (and past evenings); partnerships" in screen
            await carol.close()
    run(main(), timeout=240)


def test_the_club_pages_show_no_card_and_no_table_still_playing() -> None:
    async def main() -> None:
        async with serving() as srv:
            since, _ = evening_bounds(evening_of(time.time()))
            srv.registry.people.record_match(finished("done", since + 1, ("carol", "alice", "dave", "bob"), 0,
                                                      (5120, 3450)))
            alice, bob = await two_at_a_table(srv)         # table 1: dealt, its hands held
            st = srv.registry.tables[1]
            assert st.table is not None and st.table.match.winner is None
            carol = await Term.connect(srv.port, "carol")
            await carol.wait_for("Table 1")
            start = len(carol.received())
            screen = await carol.press("t", "Tonight,")
            assert "won   carol & dave" in screen and "(table 7)" in screen and "(table 1)" not in screen
            await carol.press("b", "Who you win with")
            await carol.press(ENTER, "A partnership's record")
            await carol.press(ESC, "Who you win with")
            await carol.press(TAB, "> The club's best")
            await carol.press(ESC, "Tonight,")
            await carol.press(ESC, "Table 1")
            seen = carol.received()[start:]
            assert cards_in([seen]) == {}, "a card reached the club's pages"
            for t in (alice, bob, carol):
                await t.close()
    run(main(), timeout=240)


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_matches_played_to_their_end_at_the_server_are_tonights_and_a_private_tables_is_not(
        store: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """Two tables of computers, one hand each, played to the end by the server and recorded by it
    (``Club.record_result``, with whether the table was listed): the listed one is on tonight's
    page, the private unlisted one is not; on the SQLite file and on PostgreSQL (``--database``)."""
    changes: dict[str, object] = {"directory": tmp_path / "server"}
    if store == "postgres":
        changes |= {"database": str(request.getfixturevalue("pg_dsn")), "node": "solo"}

    async def main() -> None:
        async with serving(**changes) as srv:
            reg = srv.registry
            ann = Person("ann")
            reg.connect(ann)
            tables = []
            for settings in (TableSettings(), TableSettings(Access.CODE, listed=False)):
                st = reg.create(ann, load_rules("classic").replace(target_score=1), "beginner", settings=settings)
                assert reg.stand(ann, st.id) is None and reg.start(ann, st.id) is None
                st.watch(ann)              # (computers play only while somebody is at the table)
                tables.append(st)
            await settle(srv, lambda: all(st.state == OVER for st in tables), timeout=120)
            await recorded(srv)
            listed, private = tables
            assert listed.table is not None
            scores = sorted(listed.table.match.scores, reverse=True)
            carol = await Term.connect(srv.port, "carol")
            await carol.wait_for("Tables")
            screen = await carol.press("t", f"(table {listed.id})")
            assert "Tonight," in screen and "1 match" in screen and f"(table {private.id})" not in screen
            assert "won   Computer (beginner) & Computer (beginner)" in screen
            assert points(scores[0]) in screen and points(scores[1]) in screen
            await carol.close()
    run(main(), timeout=300)
