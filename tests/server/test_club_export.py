"""``canasta club export`` (issue 34, section 2): the hand-worked club of ``test_club_records.py``
recorded through the store's real API, exported from the SQLite file and from PostgreSQL, and
every file checked line by line; then what an export refuses: files of an earlier export (without
``--force``), a missing, damaged or foreign database, and a directory that cannot be written."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from engines import pg_dsn, postgres  # noqa: F401  (fixtures)

from canasta_tui.cli import main
from canasta_tui.server.club.people import RatingChange, RatingRules, SqlitePeopleStore
from canasta_tui.server.club.pgpeople import PostgresPeopleStore

from .test_club_records import club

KINDS = ("matches", "seats", "hands", "ratings", "tournaments")
#: Every rated match moves its people (no newcomer rule), as in test_club_records.
EVERY_MATCH = RatingRules(provisional=0)

MATCHES = """\
match_id,game_id,finished,table_id,rules,game,rated,listed,winner,scores,hands,forfeit,record
1,m5,2026-11-26T05:00:00Z,7,classic,canasta,false,true,1,3002 5200,1,false,/srv/tables/m5.json
2,m1,2026-11-26T20:00:00Z,7,classic,canasta,true,true,0,5120 3450,2,false,/srv/tables/m1.json
3,m2,2026-11-26T21:30:00Z,7,classic,canasta,false,true,1,2000 5005,1,false,/srv/tables/m2.json
4,m3,2026-11-26T23:00:00Z,7,classic,canasta,false,true,0,5500 1200,2,false,/srv/tables/m3.json
5,m4,2026-11-27T01:00:00Z,7,classic,canasta,false,false,0,5010 4990,1,false,/srv/tables/m4.json
6,m6,2026-11-27T06:00:01Z,7,classic,canasta,false,true,0,5100 100,1,false,/srv/tables/m6.json
"""

HANDS = """\
match_id,hand,side,score,difference
1,1,0,3002,-2198
1,1,1,5200,2198
2,1,0,2000,500
2,1,1,1500,-500
2,2,0,3120,1170
2,2,1,1950,-1170
3,1,0,2000,-3005
3,1,1,5005,3005
4,1,0,900,200
4,1,1,700,-200
4,2,0,4600,4100
4,2,1,500,-4100
5,1,0,5010,20
5,1,1,4990,-20
6,1,0,5100,5000
6,1,1,100,-5000
"""


def seats_csv(changes: dict[str, list[RatingChange]]) -> str:
    """seats.csv as worked out by hand: only m1 (match 2) was rated; its ratings are the store's."""
    moved = {c.entry: c for c in changes["m1"]}

    def rated(entry: str) -> str:
        c = moved[entry]
        return f"{c.before.points},{c.after.points},{c.points}"

    plain = ",,"
    lines = ["match_id,seat,side,entry,name,rating_before,rating_after,rating_change,own_turns,stood_in,left,unrated"]
    people = {"ann": "key:SHA256:ann", "bob": "key:SHA256:bob", "cy": "key:SHA256:cy", "dee": "key:SHA256:dee",
              "eve": "key:SHA256:eve"}
    table = [(1, ("ann", "cy", "bob", "dee"), False), (2, ("ann", "cy", "bob", "dee"), True),
             (3, ("ann", "eve", "bob", "expert"), False), (4, ("ann", "bob", "cy", "dee"), False),
             (5, ("ann", "cy", "bob", "dee"), False), (6, ("ann", "cy", "gus", "dee"), False)]
    for mid, names, was_rated in table:
        for seat, name in enumerate(names):
            if name == "expert":
                lines.append(f"{mid},{seat},{seat % 2},computer:expert,Computer (expert),{plain},,,false,")
            elif name == "gus":
                lines.append(f"{mid},{seat},{seat % 2},guest,~gus,{plain},0,0,false,")
            else:
                entry = people[name]
                lines.append(f"{mid},{seat},{seat % 2},{entry},{name},{rated(entry) if was_rated else plain},0,0,false,")
    return "\n".join(lines) + "\n"


def ratings_csv(store: SqlitePeopleStore | PostgresPeopleStore) -> str:
    """ratings.csv: the four rated at m1, best first (ann and bob equal: by key), as the store keeps them."""
    lines = ["entry,game,name,rating,mu,sigma,matches,updated"]
    for who in ("ann", "bob", "cy", "dee"):
        r = store.rating(f"key:SHA256:{who}")
        lines.append(f"key:SHA256:{who},canasta,{who},{r.points},{r.mu!r},{r.sigma!r},1,2026-11-26T20:00:00Z")
    return "\n".join(lines) + "\n"


def check_files(out: Path, changes: dict[str, list[RatingChange]], store: SqlitePeopleStore | PostgresPeopleStore,
                source: str) -> None:
    assert sorted(p.name for p in out.iterdir()) == sorted([*(f"{k}.{x}" for k in KINDS for x in ("csv", "json")),
                                                            "export.json"])
    assert (out / "matches.csv").read_text() == MATCHES
    assert (out / "hands.csv").read_text() == HANDS
    assert (out / "seats.csv").read_text() == seats_csv(changes)
    assert (out / "ratings.csv").read_text() == ratings_csv(store)
    assert (out / "tournaments.csv").read_text() == "tournament_id,name,started,finished,format,rounds,winners\n"
    assert json.loads((out / "tournaments.json").read_text()) == []
    matches = json.loads((out / "matches.json").read_text())
    assert matches[1] == {"match_id": 2, "game_id": "m1", "finished": "2026-11-26T20:00:00Z", "table_id": 7,
                          "rules": "classic", "game": "canasta", "rated": True, "listed": True, "winner": 0,
                          "scores": [5120, 3450], "hands": 2, "forfeit": False, "record": "/srv/tables/m1.json"}
    seats = json.loads((out / "seats.json").read_text())
    c = {ch.entry: ch for ch in changes["m1"]}["key:SHA256:cy"]
    assert seats[5] == {"match_id": 2, "seat": 1, "side": 1, "entry": "key:SHA256:cy", "name": "cy",
                        "rating_before": c.before.points, "rating_after": c.after.points, "rating_change": c.points,
                        "own_turns": 0, "stood_in": 0, "left": False, "unrated": ""}
    assert seats[11]["own_turns"] is None and seats[11]["entry"] == "computer:expert"      # (a computer's turns)
    assert json.loads((out / "hands.json").read_text())[0] == {"match_id": 1, "hand": 1, "side": 0, "score": 3002,
                                                                "difference": -2198}
    assert [r["entry"] for r in json.loads((out / "ratings.json").read_text())] == [
        "key:SHA256:ann", "key:SHA256:bob", "key:SHA256:cy", "key:SHA256:dee"]
    about = json.loads((out / "export.json").read_text())
    assert (about["format"], about["version"], about["source"], about["rows"]) == (
        "canasta club export", 1, source, {"matches": 6, "seats": 24, "hands": 16, "ratings": 4, "tournaments": 0})
    assert not [p for p in out.iterdir() if p.name.startswith(".")]          # (no temporary file left)


def export(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, ["club", "export", *args])
    return r.exit_code, r.output


def test_the_export_from_the_servers_sqlite_file_is_the_hand_worked_club(tmp_path: Path) -> None:
    server = tmp_path / "server"
    server.mkdir()
    store = SqlitePeopleStore(server / "people.sqlite", rules=EVERY_MATCH)
    changes = club(store)
    out = tmp_path / "export"
    code, said = export(str(out), "--dir", str(server))
    assert code == 0, said
    assert said == f"Exported 6 matches, 24 seats, 16 hands, 4 ratings, 0 tournaments to {out} (CSV and JSON)\n"
    check_files(out, changes, store, str(server / "people.sqlite"))
    # An earlier export is not replaced without --force (and is left as it was) ...
    (out / "matches.csv").write_text("kept\n")
    code, said = export(str(out), "--dir", str(server))
    assert code == 1 and "already holds export.json, hands.csv, hands.json, matches.csv" in said and "--force" in said
    assert (out / "matches.csv").read_text() == "kept\n"
    # ... and is with it.
    code, said = export(str(out), "--dir", str(server), "--force")
    assert code == 0, said
    check_files(out, changes, store, str(server / "people.sqlite"))
    store.close()


def test_the_export_from_postgresql_is_the_same_club(tmp_path: Path, pg_dsn: str) -> None:  # noqa: F811
    store = PostgresPeopleStore(pg_dsn, rules=EVERY_MATCH)
    try:
        changes = club(store)
        out = tmp_path / "export"
        code, said = export(str(out), "--database", pg_dsn)
        assert code == 0, said
        from canasta_tui.server.club.pgpeople import where_of

        check_files(out, changes, store, where_of(pg_dsn))
    finally:
        store.close()


def test_a_missing_damaged_or_foreign_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    out = tmp_path / "export"
    code, said = export(str(out), "--dir", str(tmp_path / "nowhere"))
    assert code == 1 and "people.sqlite: no such file" in said and "--dir" in said
    assert not out.exists()
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    junk = b"SQLite format 3\x00" + bytes(range(256)) * 16
    (damaged / "people.sqlite").write_bytes(junk)
    code, said = export(str(out), "--dir", str(damaged))
    assert code == 1 and "the server's people database" in said and "it is left as it is" in said, said
    assert (damaged / "people.sqlite").read_bytes() == junk and not out.exists()
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    with sqlite3.connect(foreign / "people.sqlite") as db:
        db.execute("CREATE TABLE recipes (name TEXT)")
    code, said = export(str(out), "--dir", str(foreign))
    assert code == 1 and "not a canasta server's people database (it holds the tables recipes)" in said, said
    newer = tmp_path / "newer"
    newer.mkdir()
    with sqlite3.connect(newer / "people.sqlite") as db:
        db.execute("PRAGMA user_version = 99")
    code, said = export(str(out), "--dir", str(newer))
    assert code == 1 and "newer than this program knows" in said and "update canasta" in said, said


def test_a_foreign_or_unreachable_postgresql_is_refused(tmp_path: Path, pg_dsn: str) -> None:  # noqa: F811
    import psycopg

    with psycopg.connect(pg_dsn, autocommit=True) as db:
        db.execute("CREATE TABLE recipes (name TEXT)")
    code, said = export(str(tmp_path / "out"), "--database", pg_dsn)
    assert code == 1 and "not a canasta server's people database" in said, said
    code, said = export(str(tmp_path / "out"), "--database", "postgresql://nobody:secret@127.0.0.1:1/none")
    assert code == 1 and "cannot be read" in said and "secret" not in said, said
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("where", ["under-a-file", "a-file", "proc"])
def test_an_export_to_a_directory_that_cannot_be_written_says_so(tmp_path: Path, where: str) -> None:
    server = tmp_path / "server"
    server.mkdir()
    SqlitePeopleStore(server / "people.sqlite").close()
    (tmp_path / "file").write_text("a file")
    out = {"under-a-file": tmp_path / "file" / "export", "a-file": tmp_path / "file",
           "proc": Path("/proc/canasta-export")}[where]
    code, said = export(str(out), "--dir", str(server))
    if where == "a-file":                     # (click's own refusal of DIRECTORY)
        assert code == 2 and f"Directory '{out}' is a file" in said, said
    else:
        assert code == 1 and said.startswith(f"Error: {out}: cannot write the export there: "), said
    assert (tmp_path / "file").read_text() == "a file"
