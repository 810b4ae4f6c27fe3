"""The Link over a real bus (``server/cluster/remote.py``): an owner's table with three computers
and one seat played from a front through a :class:`RemoteLink`, in one process over a real
nats-server; a lost frame mended by a snapshot; every request a front may not make refused, logged
and not applied; and every message on the bus read for cards it may not carry."""

from __future__ import annotations

import asyncio
import json
import logging
from collections import Counter
from typing import Any

import pytest

from canasta_tui.ai import make_player
from canasta_tui.engine import PUBLIC, Phase, full_deck, parse_action
from canasta_tui.presets import load_rules
from canasta_tui.server.cluster import wire as W
from canasta_tui.server.cluster.bus import Bus, Incoming, Refused
from canasta_tui.server.cluster.remote import MAX_CHAT, RemoteLink, TablePublisher, req_tail
from canasta_tui.server.person import Refusal
from canasta_tui.table import COMPUTER, REMOTE, Change, Link, Seat, Table
from canasta_tui.table.table import CHAT_KEEP
from canasta_tui.ui.model import Client

from .helpers import WAIT, run, until

SEAT = 2          # the remote player's seat (North)


def _table(seed: int, target: int = 5000) -> Table:
    seats = [Seat(COMPUTER, "", "beginner")] * 4
    seats[SEAT] = Seat(REMOTE, "Ann", "beginner", "key:SHA256:ann")
    return Table(load_rules("classic").replace(target_score=target), seats, seed)


class Player:
    """The remote seat's player: a beginner that answers through a Client on the RemoteLink,
    acknowledges each hand's end, and stops after ``hands`` hands."""

    def __init__(self, link: RemoteLink, hands: int) -> None:
        self.link = link
        self.client = Client(link, remote=True)
        self.brain = make_player("beginner", 7)
        self.hands = hands
        self.moves = 0
        self.refusals: list[str] = []
        self.acked = 0
        link.subscribe(self)

    def table_changed(self, what: Change) -> None:
        self.client.table_changed(what)
        loop = asyncio.get_running_loop()
        loop.call_soon(self.act)

    def act(self) -> None:
        link = self.link
        if link._in_flight:           # (one move at a time, as a person's keys)
            return
        v = link.view(SEAT)
        if v.phase == Phase.HAND_OVER:
            if self.acked < link.hand_number and link.hand_number < self.hands:
                self.acked = link.hand_number
                link.acknowledge()
            return
        if v.actor != SEAT:
            return
        a = self.brain.choose(v)
        self.moves += 1
        self.client.play([a])
        if self.client.message:
            self.refusals.append("\n".join(self.client.message))


async def _owner(nats_url: str, room: str, table: Table, epoch: int = 3) -> tuple[Bus, TablePublisher]:
    bus = await Bus.connect(nats_url, room=room, name="owner-1")
    pub = TablePublisher(bus, "t1", table, epoch=epoch)
    await pub.start()
    return bus, pub


def _this_hand(table: Table) -> list[Any]:
    """The current hand's events: what a front keeps (a snapshot carries no more)."""
    return [e for e in table.events if e.hand == table.match.hand_number]


def _agree(link: RemoteLink, table: Table) -> None:
    """The front's mirror is the owner's table, as far as the front may know it."""
    assert link.view(SEAT) == table.view(SEAT)
    assert link.public_view() == table.public_view()
    assert list(link.events) == _this_hand(table)
    assert link.hand_number == table.match.hand_number and link.sheet == table.match.sheet
    assert link.scores == table.match.scores and link.winner == table.match.winner
    assert [c for c in link.chat] == table.chat[-len(link.chat):] if link.chat else not table.chat
    assert [link.name(s) for s in range(4)] == [table.name(s) for s in range(4)]
    assert link.humans == table.humans and link.verified(SEAT) and not link.verified(0)


def test_a_remote_seat_plays_two_hands_over_the_bus_and_every_message_is_clean(
        nats_url: str, nats_room: str) -> None:
    async def go() -> None:
        table = _table(5)
        owner_bus, pub = await _owner(nats_url, nats_room, table)
        spy = await Bus.connect(nats_url, room=nats_room, name="spy")
        heard: list[Incoming] = []

        async def listen(m: Incoming) -> None:
            heard.append(m)
        await spy.subscribe(">", listen)
        await spy.flush()
        # what the owner knew at each frame, by frame number (public) and per seat
        truth: dict[int, tuple[Any, ...]] = {}
        publish = pub.publish

        async def publishing() -> None:
            await publish()
            truth[pub._public.n] = (table.public_view(), tuple(table.view(s).hand for s in range(4)))
        pub.publish = publishing  # type: ignore[method-assign]

        front_bus = await Bus.connect(nats_url, room=nats_room, name="front-a")
        token = pub.host(SEAT, "front-a")
        link = RemoteLink(front_bus, "t1", "front-a", [SEAT], token)
        await link.start()
        player = Player(link, hands=2)
        runner = asyncio.create_task(table.run())
        player.act()
        await until(lambda: table.match.hand_number == 2 and table.match.state.phase == Phase.HAND_OVER,
                    "two hands played", timeout=WAIT * 3)
        await until(lambda: link.hand_number == 2 and link.public_view().phase == Phase.HAND_OVER, "the mirror")
        await until(lambda: list(link.events) == _this_hand(table), "the last frame")
        assert player.moves > 10 and player.refusals == []
        _agree(link, table)
        await spy.flush()
        table.close()
        await runner
        await pub.stop()
        _clean(heard, truth, nats_room)
        for b in (spy, front_bus, owner_bus):
            await b.close()
    run(go(), 300)


DECK = Counter(int(c) for c in full_deck(2))


def _shown(v: Any) -> Counter[int]:
    out: Counter[int] = Counter(v.hand)
    for part in (v.pile, v.aside, *v.red_threes, *v.known):
        out.update(part)
    for row in v.melds:
        for m in row:
            if m is not None:
                out.update(m.naturals + m.wilds)
    return out


PUBLIC_KEYS = {"table", "epoch", "n", "state", "events_at", "events", "sheet_at", "sheet", "chat", "changes"}
STATE_KEYS = {"view", "hand", "version", "closed", "winner", "scores", "waiting", "seats", "final_hands"}


def _clean(heard: list[Incoming], truth: dict[int, tuple[Any, ...]], room: str) -> None:
    """The bus leak test: no public message holds a card of a hidden hand, each seat subject
    carries its own seat's hand and nobody else's, and no subject exists for another seat."""
    subjects = {m.subject for m in heard}
    assert subjects <= {"table.t1.public", f"table.t1.seat.{SEAT}.front-a", "table.t1.req"}, subjects
    public = [m for m in heard if m.subject == "table.t1.public"]
    seat = [m for m in heard if m.subject.startswith("table.t1.seat.")]
    assert len(public) > 20 and len(seat) > 20
    assert sum(m.data["n"] in truth for m in public) > 20         # (the owner's truth beside most of them)
    for m in public:
        d = m.data
        assert set(d) == PUBLIC_KEYS and set(d["state"]) == STATE_KEYS
        v = W.view_from_wire(d["state"]["view"], PUBLIC)
        assert v.hand == () and v.legal == ()
        over = v.phase == Phase.HAND_OVER
        assert (d["state"]["final_hands"] is not None) == over      # hands shown only once the hand is over
        for e in d["events"]:
            assert e["kind"] != "drew" or e["cards"] == ""          # a card drawn is never named
        if d["n"] in truth:
            pv, hands = truth[d["n"]]
            assert v == pv                                          # exactly the spectator's view
            if not over:
                # what the frame shows, and the hidden cards (each hand less what is known of it),
                # together never more copies of a card than the deck holds
                hidden: Counter[int] = Counter()
                for s in range(4):
                    hidden.update(Counter(hands[s]) - Counter(v.known[s]))
                assert not (_shown(v) + hidden) - DECK
    for m in seat:
        d = m.data
        assert set(d) == PUBLIC_KEYS | {"seat", "me"}
        assert d["seat"] == SEAT
        me = W.view_from_wire(d["me"], SEAT)
        assert me.seat == SEAT
        assert W.view_from_wire(d["state"]["view"], PUBLIC).hand == ()
    # and the owner's truth: every seat frame's hand is the seat's own, as the owner held it then
    owned = {tuple(h[SEAT]) for _pv, h in truth.values()}
    assert {W.view_from_wire(m.data["me"], SEAT).hand for m in seat} <= owned | {()}


def test_a_refused_move_reaches_the_player_with_its_reason(nats_url: str, nats_room: str) -> None:
    async def go() -> None:
        table = _table(9)
        owner_bus, pub = await _owner(nats_url, nats_room, table)
        front_bus = await Bus.connect(nats_url, room=nats_room, name="front-a")
        link = RemoteLink(front_bus, "t1", "front-a", [SEAT], pub.host(SEAT, "front-a"))
        await link.start()
        client = Client(link, remote=True)
        assert not client.play([parse_action("draw")])      # not North's turn: no answer yet
        await until(lambda: client.message != [], "the refusal")
        assert client.message == [f"It is {table.name(table.match.state.actor)}'s turn"]
        assert table.events == list(link.events)
        await pub.stop()
        await front_bus.close()
        await owner_bus.close()
    run(go())


def test_a_lost_frame_makes_the_front_take_a_snapshot(nats_url: str, nats_room: str) -> None:
    async def go() -> None:
        table = _table(4)
        owner_bus, pub = await _owner(nats_url, nats_room, table)
        front_bus = await Bus.connect(nats_url, room=nats_room, name="front-a")
        link = RemoteLink(front_bus, "t1", "front-a", [SEAT], pub.host(SEAT, "front-a"))
        await link.start()
        watcher = RemoteLink(front_bus, "t1", "front-a", [], "")
        await watcher.start()
        assert link.snapshots == 1 and watcher.snapshots == 1
        for _ in range(3):
            table.step()
            await pub.publish()
        await until(lambda: link.frame == pub._hosts[SEAT].stream.n, "the frames")
        # a frame lost on the way: numbers skip one, for the seat and the public subject
        pub._hosts[SEAT].stream.n += 1
        pub._public.n += 1
        table.step()
        table.say("Bob", "hello")
        await pub.publish()
        await until(lambda: link.snapshots == 2 and watcher.snapshots == 2, "the snapshots")
        await until(lambda: link.frame == pub._hosts[SEAT].stream.n, "in line")
        assert link.gaps == 1 and watcher.gaps == 1
        _agree(link, table)
        assert watcher.public_view() == table.public_view() and list(watcher.events) == table.events
        assert list(watcher.chat) == table.chat
        with pytest.raises(PermissionError):
            watcher.view(SEAT)
        await pub.stop()
        await front_bus.close()
        await owner_bus.close()
    run(go())


@pytest.mark.parametrize(("change", "why"), [
    ({"token": "not-the-token"}, "unknown token"),
    ({"front": "front-b"}, "unknown token"),
    ({"seat": 0}, "unknown token"),
    ({"epoch": 2}, "stale epoch 2"),
    ({"epoch": "3"}, "malformed: epoch"),
    ({"actions": "draw"}, "malformed: a move"),
    ({"actions": ["draw", 7]}, "malformed: an action"),
    ({"actions": ["fly"]}, "malformed: not an action"),
    ({"op": "cheat"}, "no such request"),
    ({"seat": 4}, "malformed: seat"),
    ({"seat": True}, "malformed: seat"),
    ({"front": "a.b"}, "malformed: front"),
    ({"token": "x" * 1000}, "malformed: token"),
])
def test_a_request_the_front_may_not_make_is_refused_logged_and_not_applied(
        nats_url: str, nats_room: str, change: dict[str, Any], why: str, caplog: pytest.LogCaptureFixture) -> None:
    async def go() -> None:
        table = _table(6)
        while table.match.state.actor != SEAT:        # North to move: only the check stands between
            table.step()
        owner_bus, pub = await _owner(nats_url, nats_room, table)
        token = pub.host(SEAT, "front-a")
        other = await Bus.connect(nats_url, room=nats_room, name="front-b")
        good = {"op": "move", "front": "front-a", "seat": SEAT, "token": token, "epoch": 3, "actions": ["draw"]}
        version, events = table.version, list(table.events)
        with pytest.raises(Refused, match=why):
            await other.request(req_tail("t1"), good | change)
        assert table.version == version and table.events == events and pub.refused == 1
        answer = await other.request(req_tail("t1"), good)        # the same, as it should be: played
        assert answer["outcome"]["ok"] and table.version > version
        await pub.stop()
        await other.close()
        await owner_bus.close()
    with caplog.at_level(logging.WARNING, "canasta.cluster.remote"):
        run(go())
    assert any("refused move" in r.getMessage() or "refused cheat" in r.getMessage() for r in caplog.records)


def test_a_seat_snapshot_needs_the_seat_token_and_a_new_host_ends_the_old_token(nats_url: str, nats_room: str) -> None:
    async def go() -> None:
        table = _table(8)
        owner_bus, pub = await _owner(nats_url, nats_room, table)
        other = await Bus.connect(nats_url, room=nats_room, name="x")
        old = pub.host(SEAT, "front-a")
        ask = {"op": "snapshot", "front": "front-a", "seat": SEAT, "token": "guess", "epoch": 0}
        with pytest.raises(Refused, match="unknown token"):
            await other.request(req_tail("t1"), ask)
        snap = await other.request(req_tail("t1"), ask | {"token": old})
        assert W.view_from_wire(snap["me"], SEAT) == table.view(SEAT)
        public = await other.request(req_tail("t1"), {"op": "snapshot", "front": "x", "seat": -1, "epoch": 0})
        assert "me" not in public and W.view_from_wire(public["state"]["view"], PUBLIC) == table.public_view()
        pub.host(SEAT, "front-b")                  # the player reconnected at another front
        with pytest.raises(Refused, match="unknown token"):
            await other.request(req_tail("t1"), ask | {"token": old})
        await pub.stop()
        await other.close()
        await owner_bus.close()
    run(go())


def test_a_frame_that_does_not_read_is_refused_by_the_front(nats_url: str, nats_room: str) -> None:
    async def go() -> None:
        table = _table(3)
        owner_bus, pub = await _owner(nats_url, nats_room, table)
        front_bus = await Bus.connect(nats_url, room=nats_room, name="front-a")
        link = RemoteLink(front_bus, "t1", "front-a", [SEAT], pub.host(SEAT, "front-a"))
        await link.start()
        before = link.view(SEAT)
        frame = pub.snapshot(SEAT) | {"n": link.frame + 1}
        frame["me"] = dict(frame["me"], hand="JK JK JK JK JK JK")
        await owner_bus.publish(f"table.t1.seat.{SEAT}.front-a", frame)
        stale = pub.snapshot(SEAT) | {"n": link.frame + 1, "epoch": 1}
        await owner_bus.publish(f"table.t1.seat.{SEAT}.front-a", stale)
        await until(lambda: link.refused == 1, "the refusal")
        assert link.view(SEAT) == before
        table.step()                        # the next frame, in order after both: the mirror follows it
        await pub.publish()
        await until(lambda: link.frame == pub._hosts[SEAT].stream.n, "the next frame")
        assert link.view(SEAT) == table.view(SEAT) and link.epoch == 3 and link.refused == 1
        assert link.gaps == 0 and link.snapshots == 1
        await pub.stop()
        await front_bus.close()
        await owner_bus.close()
    run(go())


def test_the_remote_link_has_every_name_of_the_local_one() -> None:
    """The screens cannot tell them apart: every public name of Link is RemoteLink's own."""
    names = {n for n in vars(Link) if not n.startswith("_")}
    assert names and names <= set(vars(RemoteLink)), names - set(vars(RemoteLink))


def test_chat_from_a_seat_and_from_a_watcher_goes_to_the_owner_and_back(nats_url: str, nats_room: str) -> None:
    async def go() -> None:
        table = _table(12)
        owner_bus, pub = await _owner(nats_url, nats_room, table)
        front_bus = await Bus.connect(nats_url, room=nats_room, name="front-a")
        link = RemoteLink(front_bus, "t1", "front-a", [SEAT], pub.host(SEAT, "front-a"),
                          chat=lambda text: Refusal("too long") if len(text) > 20 else None)
        watcher = RemoteLink(front_bus, "t1", "front-a", [], pub.watch("front-a"), chat=lambda text: None, who="Bob")
        mute = RemoteLink(front_bus, "t1", "front-a", [], "")
        for x in (link, watcher, mute):
            await x.start()
        assert link.say("x" * 21) == "too long"                 # the front's own check: nothing sent
        assert link.say("good luck") is None
        await until(lambda: [c.text for c in watcher.chat] == ["good luck"], "the seat's line at the watcher")
        assert watcher.say("hello all") is None
        await until(lambda: [(c.who, c.text) for c in link.chat] == [("Ann", "good luck"), ("Bob", "hello all")],
                    "both lines at the seat")
        assert [(c.who, c.text) for c in table.chat] == [("Ann", "good luck"), ("Bob", "hello all")]
        assert not mute.can_chat and mute.say("hi") is not None
        await pub.stop()
        await front_bus.close()
        await owner_bus.close()
    run(go())


def test_a_link_that_closes_ends_its_seat_token_at_the_owner(nats_url: str, nats_room: str) -> None:
    async def go() -> None:
        table = _table(13)
        owner_bus, pub = await _owner(nats_url, nats_room, table)
        front_bus = await Bus.connect(nats_url, room=nats_room, name="front-a")
        link = RemoteLink(front_bus, "t1", "front-a", [SEAT], pub.host(SEAT, "front-a"))
        await link.start()
        assert ("front", "front-a", SEAT) in table.attendees
        link.close()
        await until(lambda: pub.hosts(SEAT) is None, "the seat let go")
        assert ("front", "front-a", SEAT) not in table.attendees
        await pub.stop()
        await front_bus.close()
        await owner_bus.close()
    run(go())


def test_a_sixty_hand_matchs_snapshot_stays_bounded_and_shows_what_every_frame_showed(
        nats_url: str, nats_room: str) -> None:
    """A snapshot carries the current hand's events, the score sheet's last hands (the front asks
    for the earlier ones a page at a time) and the chat the table keeps: at hand 60 of a match it
    stays under the bus's bound, the chat full of the longest lines too, and a front that took it
    shows exactly what a front that saw every frame shows (the mirror, the log, the screen)."""
    from canasta_tui.server.cluster.bus import MAX_MESSAGE, encode
    from canasta_tui.server.cluster.remote import SHEET_PAGE
    from canasta_tui.ui.canvas import DEFAULT_OPTIONS
    from canasta_tui.ui.controller import Controller

    async def go() -> None:
        table = Table(load_rules("classic").replace(target_score=10**6), [Seat(COMPUTER, "", "beginner")] * 4, 3)
        owner_bus, pub = await _owner(nats_url, nats_room, table)
        front_bus = await Bus.connect(nats_url, room=nats_room, name="front-a")
        early = RemoteLink(front_bus, "t1", "front-a", [], pub.watch("front-a"))
        await early.start()
        sizes: list[int] = []
        while table.match.hand_number < 60 or len(table.events) - table.events.index(
                next(e for e in table.events if e.hand == 60)) < 30:
            for _ in range(5):
                assert table.step(), "the computers play on"
            await pub.publish()
            await until(lambda: early.frame == pub._public.n, "the frame at the front")
            sizes.append(len(encode(pub.snapshot(None))))
        # The chat the table keeps, every line of the longest a front lets through.
        for i in range(CHAT_KEEP):
            table.say(f"watcher {i:03}", ("a line said at the table " * 40)[:MAX_CHAT])
        await pub.publish()
        await until(lambda: early.frame == pub._public.n, "the chat at the front")
        snapshot = len(encode(pub.snapshot(None)))
        print(f"snapshot at hand {table.match.hand_number}: {snapshot:,} bytes with the chat full "
              f"(at most {max(sizes):,} at any frame before it); every event of the match "
              f"would be {len(json.dumps([W.event_to_wire(e) for e in table.events])):,}")
        assert snapshot < MAX_MESSAGE and max(sizes) < MAX_MESSAGE // 2
        late = RemoteLink(front_bus, "t1", "front-a", [], pub.watch("front-a"))
        await late.start()
        assert early.snapshots == 1 and early.gaps == 0 and late.snapshots == 1 and late.refused == 0
        assert len(table.match.sheet) > SHEET_PAGE                # (earlier pages were asked for)
        for link in (early, late):
            assert link.public_view() == table.public_view() and link.sheet == table.match.sheet
            assert list(link.events) == _this_hand(table)
            assert list(link.chat) == table.chat[-CHAT_KEEP:]
            assert link.hand_number == 60 and link.scores == table.match.scores
        screens = [Controller(link, None, remote=True) for link in (early, late)]
        assert screens[0].client.log_lines() == screens[1].client.log_lines()
        assert screens[0].paint(100, 40, DEFAULT_OPTIONS).text() == screens[1].paint(100, 40, DEFAULT_OPTIONS).text()
        # The hand goes on: both fronts follow the next frames alike.
        for _ in range(5):
            table.step()
        await pub.publish()
        await until(lambda: early.frame == late.frame == pub._public.n, "the next frame at both")
        assert list(early.events) == list(late.events) and early.sheet == late.sheet
        # A page of the sheet that is not one is refused (logged), nothing else answered.
        refused = pub.refused
        for bad in (0, len(table.match.sheet) + 1, "3", True, None):
            with pytest.raises(Refused, match="malformed: before"):
                await front_bus.request(req_tail("t1"), {"op": "sheet", "front": "front-a", "seat": -1, "token": "",
                                                         "epoch": 0, "before": bad}, WAIT)
        assert pub.refused == refused + 5
        await pub.stop()
        await front_bus.close()
        await owner_bus.close()
    run(go(), timeout=600)
