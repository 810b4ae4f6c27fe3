"""A rated match played to its end on the whole cluster, and every message of the room on the bus
read while it is played (issue 32, section 6).

Two owners and three fronts run as processes of their own (``canasta serve --role …``) on a real
PostgreSQL and nats-server; four people, each with their own key, connect over real SSH to two of
the fronts (each side split over both), sit at a rated table created with the lobby's form (its
shortest match, 1,500 points) and play it to its end by keys (``keyplay.py``: an advanced
computer chooses each move from the seat's own view, the person's keys play it); a fifth person
watches from the third front.  Then:

* every person's rating in PostgreSQL is exactly what openskill (the library, called here)
  computes from their ratings before the match, and the match is recorded once;
* the match's replay opens from the lobby of the other front, with the hands each person was dealt;
* the leak test over the bus: a spy subscribed to every subject (``>``) read each message: the
  public subject never carries a hand, a seat's subject goes only to the front that hosts that
  seat and carries only that seat's hand, the lobby's, presence's and the fronts' subjects carry no
  card at all;
* the leak test over the screens: no screen (the four players', the watcher's at the third front)
  ever showed a card its seat could not know in that hand.

Every node and engine is stopped by its PID when the test ends, however it ends."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from openskill.models import PlackettLuce
from server.helpers import DOWN, ENTER, Term, fingerprint_of
from server.test_leak import cards_in, split_screen
from server.test_rated_matches import establish
from server.test_replays import hand_cards

from canasta_tui.engine import CLASSIC, PUBLIC, Phase
from canasta_tui.engine.cards import parse_cards
from canasta_tui.server.club.people import Rating
from canasta_tui.server.club.pgpeople import PostgresPeopleStore
from canasta_tui.server.cluster import wire as W
from canasta_tui.text import points

from .helpers import run, until
from .keyplay import CARD, BusLog, labels, play_seat
from .nodes import Node, node
from .test_remote import PUBLIC_KEYS, STATE_KEYS, _shown

NAMES = ("alice", "bob", "carol", "dave")
#: Where each seat's person connects: each side (alice & carol, bob & dave) over both fronts.
FRONT_OF = ("front-1", "front-2", "front-2", "front-1")
LEFT = "\x1b[D"


def key(name: str) -> str:
    return f"key:{fingerprint_of(name)}"


def hand_number(screen: str) -> int | None:
    m = re.search(r"— hand (\d+)", screen.split("\n")[0])
    return int(m.group(1)) if m else None


def hand_is_over(screen: str) -> bool:
    top = screen.split("\n")[0]
    return " is over" in top or "Enter: next hand" in screen or "match is over" in screen.lower()


class Screens:
    """Each terminal's screens as they change during play (the table's only: not at a hand's end,
    when every hand is shown), by hand number."""

    def __init__(self) -> None:
        self.seen: dict[str, dict[int, set[str]]] = {}

    def take(self, who: str, screen: str) -> None:
        n = hand_number(screen)
        if n is not None and not hand_is_over(screen) and "REPLAY" not in screen:
            self.seen.setdefault(who, {}).setdefault(n, set()).add(screen)

    async def follow(self, who: str, t: Term, stop: asyncio.Event) -> None:
        while not stop.is_set():
            self.take(who, t.text())
            t._data.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(t._data.wait(), 0.5)


def cards_on(screen: str) -> tuple[Counter[str], set[str]]:
    """The cards a table's screen shows: counted on the table (quadrants, centre, hand), and the
    ones its log names (the log repeats what the table shows: counted apart, as test_leak does)."""
    table, log = split_screen(SimpleNamespace(display=(screen.split("\n") + [""] * 24)[:24]))  # type: ignore[arg-type]
    return cards_in(table), set(cards_in(log))


def leak_check_bus(log: BusLog, table: int, seats_front: dict[int, str]) -> dict[str, Any]:
    """The bus leak test over everything heard; what it read, by kind (for the report)."""
    count: Counter[str] = Counter()
    public_of: dict[int, Counter[str]] = {}        # hand -> the most of each card public at once
    own_of: dict[tuple[int, int], Counter[str]] = {}   # (hand, seat) -> the most of each in the hand
    prefix = f"table.{table}."
    for h in log.heard:
        s, d = h.subject, h.data
        if s == prefix + "public":
            count["public"] += 1
            assert set(d) == PUBLIC_KEYS and set(d["state"]) == STATE_KEYS, s
            v = W.view_from_wire(d["state"]["view"], PUBLIC)
            assert v.hand == () and v.legal == (), "a public frame carried a hand or moves"
            over = v.phase == Phase.HAND_OVER
            assert (d["state"]["final_hands"] is not None) == over, "hands shown before the hand's end"
            shown = Counter(labels(list(_shown(v).elements())))
            for e in d["events"]:
                assert e["kind"] != "drew" or e["cards"] == "", "a drawn card named on the public subject"
                shown.update(labels(list(parse_cards(e["cards"]))))
            if not over:
                public_of[d["state"]["hand"]] = public_of.get(d["state"]["hand"], Counter()) | shown
        elif s.startswith(prefix + "seat."):
            count["seat"] += 1
            _, _, _, seat_text, front = s.split(".")
            seat = int(seat_text)
            assert front == seats_front[seat], f"seat {seat}'s frames went to {front}, not to the front hosting it"
            assert set(d) == PUBLIC_KEYS | {"seat", "me"} and d["seat"] == seat
            me = W.view_from_wire(d["me"], seat)
            assert me.seat == seat
            assert W.view_from_wire(d["state"]["view"], PUBLIC).hand == ()
            if me.phase != Phase.HAND_OVER:
                k = (d["state"]["hand"], seat)
                own_of[k] = own_of.get(k, Counter()) | Counter(labels(list(me.hand)))
        elif s == prefix + "req":
            count["req"] += 1
            seat = d.get("seat")
            assert d.get("front") in seats_front.values() or d.get("front") == "front-3", d
            if d.get("op") == "move":
                assert seats_front[seat] == d["front"], f"a move for seat {seat} from {d['front']}"
        elif h.request is not None and h.request.subject == prefix + "req":
            # An answer of the table's owner, on the inbox of the front that asked: a move's views
            # along and a seat's snapshot are that seat's, to the front hosting it; a public
            # snapshot carries no hand.
            count["answer"] += 1
            asked = h.request.data
            seat, front = asked.get("seat"), asked.get("front")
            views = [W.view_from_wire(v, seat) for v in d.get("along") or []]
            if "me" in d:
                views.append(W.view_from_wire(d["me"], seat))
            if "state" in d:
                assert W.view_from_wire(d["state"]["view"], PUBLIC).hand == ()
            if views:
                assert isinstance(seat, int) and seat >= 0 and seats_front[seat] == front, (asked, d)
                assert all(v.seat == seat for v in views)
            count["views answered"] += len(views)
        elif s.startswith("table."):
            raise AssertionError(f"a subject of the table the cluster does not speak: {s}")
        else:
            # The lobby, presence, the fronts' words, the "read again" notices: never a card.
            count[s.split(".")[0]] += 1
            for word in _strings(d):
                for token in word.split():
                    assert not _is_card(token), f"{s} carried {token!r}: {d}"
            assert not _has_key(d, {"me", "hand", "final_hands", "along", "view", "events"}), (s, d)
    return {"count": count, "public": public_of, "own": own_of}


def _strings(d: Any) -> list[str]:
    if isinstance(d, str):
        return [d]
    if isinstance(d, dict):
        return [x for v in d.values() for x in _strings(v)] + [k for k in d if isinstance(k, str)]
    if isinstance(d, list):
        return [x for v in d for x in _strings(v)]
    return []


def _has_key(d: Any, keys: set[str]) -> bool:
    """Does ``d`` hold one of ``keys`` with anything but a number (a row's hand is its number)?"""
    if isinstance(d, dict):
        return any((k in keys and not isinstance(v, int)) or _has_key(v, keys) for k, v in d.items())
    if isinstance(d, list):
        return any(_has_key(v, keys) for v in d)
    return False


def _is_card(token: str) -> bool:
    return bool(re.fullmatch(r"(?:10|[A2-9JQKT])[cdhs]|JK", token))


def test_a_rated_match_on_the_cluster_rates_as_openskill_replays_at_the_other_front_and_leaks_nothing(
        tmp_path: Path, nats_url: str, nats_room: str, pg_dsn: str) -> None:
    import nats as nats_py

    with contextlib.ExitStack() as stack:
        def start(name: str, role: str) -> Node:
            return stack.enter_context(node(tmp_path, name, role, database=pg_dsn, bus=nats_url, room=nats_room))
        nodes = [start("owner-1", "owner"), start("owner-2", "owner")]
        fronts = {n: start(n, "front") for n in ("front-1", "front-2", "front-3")}
        nodes += fronts.values()

        async def go() -> None:
            people = PostgresPeopleStore(pg_dsn)
            before = establish(people, *NAMES)       # each has three rated matches: all are rated
            log = BusLog(nats_room)
            spy = await nats_py.connect(nats_url)
            await spy.subscribe(">", cb=log.on)
            await spy.flush()
            terms = {n: await Term.connect(fronts[FRONT_OF[i]].port, n) for i, n in enumerate(NAMES)}
            alice = terms["alice"]
            await alice.wait_for("alice")
            await alice.wait_for(lambda s: "No tables yet" in s)
            # The lobby's form: the shortest match it offers (1,500), rated.
            await alice.press("n", "New table")
            alice.send(DOWN * 2 + LEFT * 2)
            await alice.wait_for("< 1,500 >")
            alice.send(DOWN * 5 + " ")
            await alice.wait_for("yes: the match moves ratings")
            await alice.press(ENTER, "is yours")
            for i, n in enumerate(NAMES[1:], start=2):
                t = terms[n]
                await t.wait_for("1  alice✓")
                await t.press(str(i), f"{i}  {n}✓ (you)")
            for t in terms.values():
                await t.wait_for(lambda s: all(f"{i}  {n}✓" in s for i, n in enumerate(NAMES, start=1)))
            eve = await Term.connect(fronts["front-3"].port, "eve")
            alice.send("s")
            dealt = [hand_cards(await terms[n].wait_for("Your hand (11 cards)")) for n in NAMES]
            table = next(int(h.subject.split(".")[1]) for h in log.heard if h.subject.startswith("table."))
            await eve.press("w", lambda s: hand_number(s) == 1)
            assert "Your hand" not in eve.text()
            # They play the match to its end, each by their own keys; every screen is kept.
            screens = Screens()
            stop = asyncio.Event()
            followers = [asyncio.create_task(screens.follow(n, t, stop)) for n, t in (*terms.items(), ("eve", eve))]
            moves: list[str] = []
            started = time.monotonic()
            await asyncio.gather(*(play_seat(terms[n], i, log, lambda: log.winner() is not None, seed=11 + i,
                                             moves=moves) for i, n in enumerate(NAMES)))
            took = time.monotonic() - started
            stop.set()
            await asyncio.gather(*followers)
            winner = log.winner()
            assert winner is not None
            pv = log.public_view()
            assert pv is not None
            hands = int(log.public["state"]["hand"])
            scores = log.public["state"]["scores"]
            print(f"the match: {hands} hands, {len(moves)} moves by keys in {took:.1f} s; scores {scores}, "
                  f"side {winner + 1}&{winner + 3} won")
            # The ratings, as openskill computes them from the ratings before (one match each: not twice).
            model = PlackettLuce()

            def r(x: Rating) -> Any:
                return model.rating(mu=x.mu, sigma=x.sigma)
            teams = [[r(before["alice"]), r(before["carol"])], [r(before["bob"]), r(before["dave"])]]
            want = model.rate(teams, ranks=[0.0, 1.0] if winner == 0 else [1.0, 0.0])
            await until(lambda: all(people.rating(key(n)).matches == 4 for n in NAMES), "the four ratings written",
                        timeout=60)
            for seat, n in enumerate(NAMES):
                got, exp = people.rating(key(n)), want[seat % 2][seat // 2]
                assert (got.mu, got.sigma, got.matches) == (exp.mu, exp.sigma, 4), n
                rows = [m for m in people.matches_of(key(n)) if m.rated and m.record.startswith("postgresql:")]
                assert len(rows) == 1 and rows[0].won == (seat % 2 == winner), (n, rows)
            assert people.rating(key(NAMES[winner])).mu > before[NAMES[winner]].mu
            # The replay, from the lobby of the other front: alice played at front-1; she comes to front-2.
            await alice.close()
            alice = await Term.connect(fronts["front-2"].port, "alice")
            await alice.wait_for("Tables")
            screen = await alice.press("i", "Your record")
            screen = await alice.press(ENTER, "REPLAY")
            assert screen.startswith(" REPLAY — classic") and f"hand 1 of {hands}, move 0 of" in screen
            assert hand_cards(screen, "alice's hand") == dealt[0]
            screen = await alice.press("a", "melds:")
            for seat, n in enumerate(NAMES):
                row = next(line for line in screen.split("\n") if f" {seat + 1} {n}" in line)
                shown = re.findall(CARD, row)
                assert shown and shown == dealt[seat][:len(shown)], n
            # Tonight at the club (issue 34, section 2), at that front: the match the owner recorded in
            # PostgreSQL, its winners first, each one's rating move, its scores.
            await alice.press("q", "Your record")
            await alice.press("q", "Tables")
            screen = await alice.press("t", "Tonight,")
            moved = {n: people.rating(key(n)).points - before[n].points for n in NAMES}
            won, lost = (NAMES[winner], NAMES[winner + 2]), (NAMES[1 - winner], NAMES[3 - winner])
            assert f"won   {won[0]} {moved[won[0]]:+d} & {won[1]} {moved[won[1]]:+d}" in screen, screen
            assert f"lost  {lost[0]} {moved[lost[0]]:+d} & {lost[1]} {moved[lost[1]]:+d}" in screen, screen
            assert points(scores[winner]) in screen and f"{hands} hand" in screen, screen
            # The leak test over the bus.
            await spy.flush()
            found = leak_check_bus(log, table, dict(enumerate(FRONT_OF)))
            print(f"read on the bus: {dict(found['count'])}; {log.others} messages of other rooms")
            assert found["count"]["public"] > 50 and found["count"]["seat"] > 50
            assert found["count"]["answer"] > 50 and found["count"]["views answered"] > 0
            kv = [h for h in log.heard if "presence" in h.subject]
            assert kv, "presence's entries were read too"
            # ... and over the screens: each shows only what its seat could know in that hand.
            checked = 0
            for who, by_hand in screens.seen.items():
                for h, seen in by_hand.items():
                    allowed = found["public"].get(h, Counter()).copy()
                    if who in NAMES:
                        allowed += found["own"].get((h, NAMES.index(who)), Counter())
                    for s in seen:
                        counted, logged = cards_on(s)
                        extra = counted - allowed
                        assert not extra, f"{who}'s screen in hand {h} showed {dict(extra)}:\n{s}"
                        # (the log goes on from the hand before: its last moves were public then)
                        said = {c for k, p in found["public"].items() if k <= h for c in p} | set(allowed)
                        assert logged <= said, f"{who}'s log in hand {h} named {logged - said}:\n{s}"
                        checked += 1
            assert len(screens.seen.get("eve", {})) == hands and checked > 100
            print(f"screens checked: {checked}")
            for t in (*terms.values(), alice, eve):
                await t.close()
            await spy.close()
            people.close()

        try:
            run(go(), timeout=900)
        except BaseException:
            for n in nodes:
                print(f"--- {n.name} ---\n{n.log_text()[-3000:]}")
            raise


def test_the_bus_check_catches_a_card_where_it_may_not_go() -> None:
    """The check above fails on what it is there to catch: a card named on a lobby subject, a
    seat's frames sent to a front that does not host the seat, a hand on the public subject."""
    from canasta_tui.engine import view_for
    from canasta_tui.table import COMPUTER, Seat, Table

    from .keyplay import Heard

    def check(*heard: Heard) -> None:
        log = BusLog("r")
        log.heard.extend(heard)
        leak_check_bus(log, 7, dict(enumerate(FRONT_OF)))

    check(Heard("lobby.rows.owner-1", {"owner": "owner-1", "rows": [{"id": 7, "hand": 2}]}))    # clean
    with pytest.raises(AssertionError, match="carried '7h'"):
        check(Heard("front.front-1.tell", {"to": "x", "what": "notify", "text": "alice holds 7h"}))
    with pytest.raises(AssertionError, match="not to the front hosting it"):
        check(Heard("table.7.seat.0.front-2", {}))
    asked = Heard("table.7.req", {"op": "snapshot", "front": "front-2", "seat": 0}, "_INBOX.x")
    t0 = Table(CLASSIC, [Seat(COMPUTER, "", "beginner")] * 4, 3)
    with pytest.raises(AssertionError):       # seat 0's view answered to front-2, which hosts seat 1
        check(asked, Heard("_INBOX.x", {"me": W.view_to_wire(view_for(t0.state, 0))}, "", asked))
    t = Table(CLASSIC, [Seat(COMPUTER, "", "beginner")] * 4, 3)
    frame = {"table": "7", "epoch": 1, "n": 1, "events_at": 0, "events": [], "chat": [], "changes": [],
             "state": {"view": W.view_to_wire(view_for(t.state, 0)), "hand": 1, "version": 1, "closed": False,
                       "winner": None, "scores": [0, 0], "sheet": [], "waiting": 0, "seats": [],
                       "final_hands": None}}
    with pytest.raises((AssertionError, ValueError)):
        check(Heard("table.7.public", frame))
