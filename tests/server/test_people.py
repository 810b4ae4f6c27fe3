"""The server's store of people and records (``server/club/people.py``), without SSH: every kind of
record written, read back after the file is closed and opened again, bounded where it must be;
a damaged file kept aside, a newer one refused; the reservations of ``names.json`` read in once."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from canasta_tui.server.club.people import (
    COMPUTER_PREFIX,
    MIGRATIONS,
    PEOPLE,
    Ban,
    ChatLine,
    Game,
    HandScore,
    MatchResult,
    PersonOptions,
    RatingRules,
    SeatResult,
    SqlitePeopleStore,
    StoreError,
    Visit,
    game_of,
    ranks_of,
    rate,
    record_of,
    shown_points,
)
from canasta_tui.server.door import names
from canasta_tui.server.person import PersonId


def store(tmp_path: Path) -> SqlitePeopleStore:
    """A store where every rated match counts (``provisional=0``): these tests are about what the
    store keeps; the rules of who is rated (newcomers, stand-ins, forfeits) are tested in
    ``test_rating_rules.py``."""
    return SqlitePeopleStore(tmp_path / "people.sqlite", rules=RatingRules(provisional=0))


def reopen(s: SqlitePeopleStore) -> SqlitePeopleStore:
    s.close()
    return SqlitePeopleStore(s.path, rules=s.rules)


def result(game: str, seats: list[tuple[str, str]], winner: int, scores: tuple[int, ...], rated: bool = True,
           rules: str = "classic", finished: float = 1000.0) -> MatchResult:
    teams = len(scores)
    return MatchResult(game, 1, finished, rules, rated, f"/srv/tables/{game}.json", winner, scores,
                       tuple(SeatResult(e, n, i % teams) for i, (e, n) in enumerate(seats)),
                       tuple(HandScore(1, t, s, s - max(v for j, v in enumerate(scores) if j != t))
                             for t, s in enumerate(scores)))


FOUR = [("key:SHA256:ann", "ann"), ("key:SHA256:bob", "bob"), ("key:SHA256:cy", "cy"), ("key:SHA256:dee", "dee")]


def test_a_rated_match_with_computers_rates_each_level_as_its_own_entry(tmp_path: Path) -> None:
    """Computers' seats count as their level's rating entry; two Expert partners are one entry,
    given the mean of its seats' new ratings (here equal: they were one team)."""
    s = store(tmp_path)
    seats = [FOUR[0], (COMPUTER_PREFIX + "expert", "Computer"), FOUR[2], (COMPUTER_PREFIX + "expert", "Computer")]
    changes = s.record_match(result("g1", seats, 1, (900, 5100)))
    model = PlackettLuce()
    want = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[1.0, 0.0])
    assert {c.entry for c in changes} == {"key:SHA256:ann", "key:SHA256:cy", "computer:expert"}
    s = reopen(s)
    expert = s.rating("computer:expert")
    assert (expert.mu, expert.sigma, expert.matches) == (want[1][0].mu, want[1][0].sigma, 1)
    assert s.rating("key:SHA256:ann").mu == want[0][0].mu
    assert s.record_match(result("g1", seats, 1, (900, 5100))) == []          # the same game twice: once
    assert s.rating("key:SHA256:ann").matches == 1


def test_a_guest_plays_as_a_newcomer_and_is_not_rated(tmp_path: Path) -> None:
    s = store(tmp_path)
    seats = [FOUR[0], ("guest:abc", "~gus"), FOUR[2], FOUR[3]]
    s.record_match(result("g", seats, 0, (5000, 100)))
    assert s.rating("guest:abc").matches == 0
    assert s.rating("key:SHA256:ann").matches == 1
    assert [r.partners for r in s.matches_of(PersonId.parse("key:SHA256:ann"))] == [("cy",)]


def test_three_sides_are_ranked_winner_first_then_by_score() -> None:
    assert ranks_of([100, 5000, 300], 1) == [2, 0, 1]
    assert ranks_of([300, 5000, 300], 1) == [1, 0, 1]
    assert ranks_of([5200, 5000, 300], 1) == [1, 0, 2]      # the engine's winner is first, whatever the totals
    # Only entries whose rating is given are rated (here none: nothing comes back).
    assert rate(result("x", [("key:a", "a"), ("key:b", "b"), ("key:c", "c")], 1, (100, 5000, 300)), {}) == {}


def test_histories_wins_by_partner_and_rules_high_scores_and_the_leaderboard(tmp_path: Path) -> None:
    s = store(tmp_path)
    ann = "key:SHA256:ann"
    s.record_match(result("a", FOUR, 0, (5000, 1000), finished=1.0))
    s.record_match(result("b", FOUR, 1, (2000, 5000), finished=2.0, rules="windows"))
    swapped = [FOUR[0], FOUR[2], FOUR[1], FOUR[3]]                 # ann with bob this time
    s.record_match(result("c", swapped, 0, (5500, 100), finished=3.0, rated=False))
    rows = s.matches_of(PersonId.parse(ann))
    assert [r.game_id for r in rows] == ["c", "b", "a"]
    assert [(r.partners, r.opponents, r.won, r.rated) for r in rows] == [
        (("bob",), ("cy", "dee"), True, False), (("cy",), ("bob", "dee"), False, True),
        (("cy",), ("bob", "dee"), True, True)]
    assert rows[0].change is None and rows[2].change is not None and rows[2].change > 0
    assert [tuple(t) for t in s.wins_by_partner(PersonId.parse(ann))] == [("cy", 1, 2), ("bob", 1, 1)]
    assert [tuple(t) for t in s.wins_by_rules(PersonId.parse(ann))] == [("classic", 2, 2), ("windows", 0, 1)]
    assert [h.difference for h in s.high_scores(PersonId.parse(ann))] == [5400, 4000, -3000]
    board = s.leaderboard(3)
    assert [b.place for b in board] == [1, 2, 3]
    assert all(b.matches == 2 for b in board)                      # the unrated match is not counted
    r = s.rating(board[0].entry)
    assert board[0].points == shown_points(r.mu, r.sigma) == r.points
    assert board[0].points >= board[1].points >= board[2].points


def test_options_follow_a_person_and_bad_stored_values_keep_the_default(tmp_path: Path) -> None:
    s = store(tmp_path)
    assert s.options_of(PersonId.parse("key:SHA256:ann")) is None
    s.set_options(PersonId.parse("key:SHA256:ann"), PersonOptions(sort="suit", four_color=True, deck="ascii", mouse=True,
                                                  bell_turn=True))
    s = reopen(s)
    got = s.options_of(PersonId.parse("key:SHA256:ann"))
    assert got == PersonOptions("suit", True, "ascii", True, True, False, False)
    assert got is not None and got.bells == {"turn"}
    with pytest.raises(ValueError, match="sort must be one of rank, suit"):
        PersonOptions(sort="colour")
    with sqlite3.connect(s.path) as db:
        db.execute("UPDATE options SET data = ?", (json.dumps({"sort": "suit", "deck": "emoji", "mouse": "yes",
                                                               "volume": 11}),))
    assert s.options_of(PersonId.parse("key:SHA256:ann")) == PersonOptions(sort="suit")


def test_bans_are_kept_until_they_end(tmp_path: Path) -> None:
    s = store(tmp_path)
    s.ban(Ban("key:SHA256:eve", 2000.0, "spam", "key:SHA256:admin", 1000.0))
    s.ban(Ban("address:10.0.0.9", 1500.0, "", "key:SHA256:admin", 1000.0))
    s = reopen(s)
    assert [b.target for b in s.bans(1200.0)] == ["key:SHA256:eve", "address:10.0.0.9"]
    assert [b.target for b in s.bans(1600.0)] == ["key:SHA256:eve"]
    assert s.unban("key:SHA256:eve") and not s.unban("key:SHA256:eve")
    assert s.bans(1600.0) == []


def test_a_persons_ban_keeps_its_name_and_addresses_and_recent_visitors_are_kept_newest_first(tmp_path: Path) -> None:
    s = SqlitePeopleStore(tmp_path / "people.sqlite")
    s.ban(Ban("key:SHA256:eve", 2000.0, "spam", "key:SHA256:admin", 1000.0, "eve", ("10.0.0.9", "::1")))
    assert s.bans(1200.0) == [Ban("key:SHA256:eve", 2000.0, "spam", "key:SHA256:admin", 1000.0, "eve",
                                  ("10.0.0.9", "::1"))]
    for i in range(5):
        s.visit(Visit(f"key:SHA256:p{i}", f"p{i}", (f"10.0.0.{i}",), 100.0 + i), keep=3)
    s.visit(Visit("key:SHA256:p3", "p3", ("10.0.1.1", "10.0.0.3"), 200.0), keep=3)
    assert [(v.key, v.addresses) for v in s.visits()] == [
        ("key:SHA256:p3", ("10.0.1.1", "10.0.0.3")), ("key:SHA256:p4", ("10.0.0.4",)), ("key:SHA256:p2", ("10.0.0.2",))]
    s.close()
    assert [v.name for v in SqlitePeopleStore(tmp_path / "people.sqlite").visits(2)] == ["p3", "p4"]


def test_invitations_stay_open_until_answered_or_their_table_goes(tmp_path: Path) -> None:
    ann, bob, cy, dee = (PersonId.parse(f"key:SHA256:{n}") for n in ("ann", "bob", "cy", "dee"))
    s = store(tmp_path)
    one = s.invite(ann, "ann", bob, 3, 10.0)
    again = s.invite(ann, "ann", bob, 3, 11.0)   # the same twice: one invitation,
    # under a new number (a number is never given twice: a box shown for the first cannot answer it)
    s.invite(ann, "ann", cy, 3, 12.0)
    s.invite(dee, "dee", bob, 4, 13.0)
    s = reopen(s)
    assert again.id > one.id
    assert [(i.from_name, i.table_id) for i in s.invitations_for(bob)] == [("ann", 3), ("dee", 4)]
    assert not s.withdraw(one.id)
    assert s.withdraw(again.id) and not s.withdraw(again.id)
    assert s.withdraw_table(3) == 1
    assert [i.table_id for i in s.invitations()] == [4]


def test_an_invitation_whose_person_is_not_one_is_left_out(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The store keeps people as text: a row whose text is not a person (a damaged file, another
    program's write) is no invitation, and says so in the log; the others are read."""
    ann, bob = PersonId.parse("key:SHA256:ann"), PersonId.parse("key:SHA256:bob")
    s = store(tmp_path)
    kept = s.invite(ann, "ann", bob, 3, 10.0)
    with sqlite3.connect(s.path) as db:
        db.execute("INSERT INTO invitations(id, from_key, from_name, to_key, table_id, made)"
                   " VALUES (99, 'key:SHA256:ann', 'ann', 'bob\x1b[2J', 4, 11.0)")
        db.execute("INSERT INTO invitations(id, from_key, from_name, to_key, table_id, made)"
                   " VALUES (98, 'root', 'ann', 'key:SHA256:bob', 5, 12.0)")
    s = reopen(s)
    assert s.invitations() == [kept] and s.invitations_for(bob) == [kept]
    assert kept.from_key == ann and kept.to_key == bob
    assert "invitation 99 left out" in caplog.text and "bob\\x1b[2J" in caplog.text
    assert "invitation 98 left out" in caplog.text


def test_the_chat_keeps_its_last_lines_only(tmp_path: Path) -> None:
    s = store(tmp_path)
    for i in range(30):
        s.add_chat(ChatLine("ann", f"line {i}", True, float(i)), keep=10)
    s = reopen(s)
    assert [c.text for c in s.last_chat(100)] == [f"line {i}" for i in range(20, 30)]
    assert s.last_chat(2)[-1] == ChatLine("ann", "line 29", True, 29.0)


def test_a_damaged_file_is_kept_aside_and_a_new_store_starts(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "people.sqlite"
    path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    s = SqlitePeopleStore(path)
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("people.corrupt-")]
    assert len(kept) == 1 and kept[0].read_bytes().startswith(b"SQLite format 3\x00\xff")
    assert "people.corrupt-" in s.problem and "people.corrupt-" in caplog.text
    s.set_note("x", "y")
    assert reopen(s).note("x") == "y"


def test_another_programs_database_is_kept_aside_too(tmp_path: Path) -> None:
    path = tmp_path / "people.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE accounts (id INTEGER)")
    s = SqlitePeopleStore(path)
    assert "not a canasta server's people database (it holds the tables accounts)" in s.problem


def test_a_newer_programs_file_stops_the_server_and_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "people.sqlite"
    store(tmp_path).close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(StoreError, match=rf"newer than this program knows \({PEOPLE.version}\): update canasta"):
        SqlitePeopleStore(path)
    assert [p.name for p in tmp_path.iterdir() if "corrupt" in p.name] == []


def test_the_reservations_of_names_json_are_read_in_once(tmp_path: Path) -> None:
    """A server from before the store kept its names in names.json: they come in once (the file
    is renamed names.json.imported), and from then on live in the store."""
    legacy = tmp_path / "names.json"
    legacy.write_text(json.dumps({"version": 1, "names": [
        {"name": "alice", "fingerprint": "SHA256:alice", "since": 100, "seen": 2000},
        {"name": "bob", "fingerprint": "SHA256:bob", "since": 200, "seen": 2000}]}))
    s = store(tmp_path)
    book = names.NameBook(legacy, now=lambda: 3000.0, store=s)
    assert book.owner("аlice") is not None and book.owner("alice").fingerprint == "SHA256:alice"  # type: ignore[union-attr]
    assert not legacy.exists() and (tmp_path / "names.json.imported").exists()
    with pytest.raises(names.NameRefused, match="reserved by another person's key"):
        book.check("alice", "SHA256:mallory")
    book.take("carol", "SHA256:carol")                  # no loop: written at once
    s = reopen(s)
    # A names.json that turns up again is not read a second time.
    legacy.write_text(json.dumps({"names": [{"name": "dave", "fingerprint": "SHA256:dave"}]}))
    again = names.NameBook(legacy, now=lambda: 4000.0, store=s)
    assert sorted(r.name for r in again.names.values()) == ["alice", "bob", "carol"]
    assert again.owner("carol").since == 3000.0          # type: ignore[union-attr]


def test_an_unreadable_names_json_is_reported_kept_and_read_again_next_time(tmp_path: Path) -> None:
    legacy = tmp_path / "names.json"
    legacy.write_text('{"names": [')
    s = store(tmp_path)
    book = names.NameBook(legacy, store=s)
    assert "could not be read" in book.problem and legacy.read_text() == '{"names": ['
    legacy.write_text(json.dumps({"names": [{"name": "alice", "fingerprint": "SHA256:alice"}]}))
    assert names.NameBook(legacy, store=s).owner("alice") is not None


def test_the_book_in_the_store_is_bounded_as_the_file_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(names, "MAX_NAMES", 2)
    now = [0.0]
    s = store(tmp_path)
    book = names.NameBook(None, now=lambda: now[0], store=s)
    book.take("ann", "SHA256:a")
    book.take("bea", "SHA256:b")
    now[0] += names.EVICT_UNUSED + 1
    book.take("cy", "SHA256:c")
    assert sorted(r.name for r in s.names()) == ["bea", "cy"]


def test_the_rating_text_fits_a_leaderboard_screen_and_says_how_it_moves() -> None:
    from canasta_tui.server.club.people import RATING_TEXT

    lines = RATING_TEXT.splitlines()
    assert len(lines) <= 8 and max(len(line) for line in lines) <= 78
    for words in ("openskill", "rated", "three times its uncertainty", "starts at 0", "Winning raises it"):
        assert words in RATING_TEXT.replace("\n", " ")


# ---------------------------------------------------------------------- ratings per game
def test_the_game_of_a_tables_rules_comes_from_what_they_play_not_from_the_presets_name() -> None:
    """Issue 19 ("Server"): ratings are kept apart per variant.  Every Canasta preset is Canasta;
    sequence melds make Samba; Samba where going out needs an escalera is Bolivia."""
    from canasta_tui.presets import load_rules, preset_names

    for name in preset_names():
        want = {"samba": Game.SAMBA, "bolivia": Game.BOLIVIA}.get(name, Game.CANASTA)
        assert game_of(load_rules(name)) == want, name
    renamed = load_rules("samba").replace(name="club night")
    assert game_of(renamed) == Game.SAMBA


def test_a_samba_match_moves_only_samba_ratings_and_each_game_has_its_own_leaderboard(tmp_path: Path) -> None:
    s = store(tmp_path)
    s.record_match(result("c1", FOUR, 0, (5100, 900)))                     # Canasta: ann and cy win
    canasta = {e: s.rating(e) for e, _ in FOUR}
    changes = s.record_match(replace(result("s1", FOUR, 1, (2000, 10400), rules="samba"), game=Game.SAMBA))
    assert {c.after.game for c in changes} == {Game.SAMBA}
    model = PlackettLuce()
    want = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[1.0, 0.0])
    s = reopen(s)
    for seat, (entry, _) in enumerate(FOUR):
        assert s.rating(entry) == canasta[entry]                              # Canasta's untouched
        got = s.rating(entry, Game.SAMBA)
        assert (got.mu, got.sigma, got.matches) == (want[seat % 2][seat // 2].mu, want[seat % 2][seat // 2].sigma, 1)
        assert s.rating(entry, Game.BOLIVIA).matches == 0
    assert [r.game for r in s.ratings_of("key:SHA256:ann")] == [Game.CANASTA, Game.SAMBA]
    assert {b.name for b in s.leaderboard(2)} == {"ann", "cy"}               # Canasta by default
    samba = s.leaderboard(10, Game.SAMBA)
    assert {b.name for b in samba[:2]} == {"bob", "dee"} and all(b.matches == 1 for b in samba)
    assert {b.name: b.wins for b in samba} == {"bob": 1, "dee": 1, "ann": 0, "cy": 0}
    assert {b.name: b.wins for b in s.leaderboard(10)} == {"ann": 1, "cy": 1, "bob": 0, "dee": 0}
    assert s.leaderboard(10, Game.BOLIVIA) == []
    record = record_of(s, PersonId.parse("key:SHA256:bob"), "bob")
    assert [(r.game, r.matches) for r in record.ratings] == [(Game.CANASTA, 1), (Game.SAMBA, 1)]


def test_a_store_of_schema_1_keeps_its_ratings_as_canasta_ratings(tmp_path: Path) -> None:
    """A store file made before ratings were kept per game (schema 1, one rating per entry) is
    migrated: each rating becomes that entry's Canasta rating, its matches Canasta's."""
    path = tmp_path / "people.sqlite"
    with sqlite3.connect(path) as db:
        db.executescript(MIGRATIONS[0])
        db.execute("PRAGMA user_version = 1")
        db.execute("INSERT INTO ratings(entry, name, mu, sigma, matches, updated) VALUES"
                   " ('key:SHA256:ann', 'ann', 28.5, 7.25, 3, 100.0), ('computer:expert', 'Computer', 26.0, 7.5, 3, 100.0)")
        db.execute("INSERT INTO matches(id, game_id, table_id, finished, rules, rated, record, winner, scores, hands)"
                   " VALUES (1, 'old', 1, 90.0, 'classic', 1, '/srv/tables/1.json', 0, '[5000, 100]', 1)")
        db.execute("INSERT INTO match_seats(match_id, seat, entry, name, team) VALUES"
                   " (1, 0, 'key:SHA256:ann', 'ann', 0), (1, 1, 'computer:expert', 'Computer', 1)")
    db.close()
    s = SqlitePeopleStore(path, rules=RatingRules(provisional=0))
    assert s.problem == ""
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == PEOPLE.version == 6
    db.close()
    ann = s.rating("key:SHA256:ann")
    assert (ann.game, ann.mu, ann.sigma, ann.matches) == (Game.CANASTA, 28.5, 7.25, 3)
    assert s.rating("key:SHA256:ann", Game.SAMBA).matches == 0
    assert [(b.name, b.matches, b.wins) for b in s.leaderboard()] == [("ann", 3, 1), ("Computer", 3, 0)]
    assert s.leaderboard(game=Game.SAMBA) == []
    assert [r.game for r in s.ratings_of("key:SHA256:ann")] == [Game.CANASTA]
    assert [m.game_id for m in s.matches_of(PersonId.parse("key:SHA256:ann"))] == ["old"]
    # And it rates on: a Bolivia match now starts ann's Bolivia rating from a newcomer's.
    s.record_match(replace(result("b1", [("key:SHA256:ann", "ann"), ("key:SHA256:bob", "bob")], 0, (15000, 20)),
                           game=Game.BOLIVIA))
    assert s.rating("key:SHA256:ann").mu == 28.5 and s.rating("key:SHA256:ann", Game.BOLIVIA).matches == 1
