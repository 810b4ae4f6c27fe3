"""The table: the one game driver that every kind of seat plays at (issue 11, "The shape")."""

from __future__ import annotations

import asyncio

from canasta_tui.engine import Phase, parse_action
from canasta_tui.presets import load_rules
from canasta_tui.table import COMPUTER, LOCAL, Link, Seat, Table, seats_for


def table(players: int = 1, seed: int = 5, rules: str = "classic") -> Table:
    r = load_rules(rules)
    return Table(r, seats_for(players, "beginner")[: r.players], seed)


def to_human(t: Table) -> None:
    while t.step():
        pass


def test_computers_play_until_a_human_is_to_act() -> None:
    t = table(seed=5)
    to_human(t)
    s = t.match.state
    assert s.actor == 0 and s.phase == Phase.DRAW
    assert t.computer_to_act() is None and not t.step()


def test_a_move_is_applied_whole_or_refused_whole_with_the_engines_reason() -> None:
    t = table(seed=5)
    to_human(t)
    assert t.submit(0, [parse_action("draw")]).ok
    before = t.match
    # A meld that cannot be made, then a discard: nothing of it happens.
    out = t.submit(0, [parse_action("meld K K K"), parse_action("discard JK")])
    assert not out.ok and out.reason
    assert t.match is before
    # Nothing may follow a discard in one move: the turn has passed.
    hand = t.match.state.hands[0]
    out = t.submit(0, [parse_action(f"discard {_text(hand[0])}"), parse_action("draw")])
    assert not out.ok and "nothing can follow it" in out.reason
    assert t.match is before


def _text(card: int) -> str:
    from canasta_tui.engine import card_text
    return card_text(card)


def test_only_the_seat_to_act_may_move() -> None:
    t = table(seed=5)
    to_human(t)
    out = t.submit(2, [parse_action("draw")])
    assert not out.ok and out.reason == "It is Player 1's turn"


def test_a_whole_hand_then_the_next_deal_waits_for_every_attending_client() -> None:
    t = table(players=0, seed=11)
    a = Link(t, (), "client-a")
    b = Link(t, (), "client-b")
    while t.step():
        pass
    assert t.match.state.phase == Phase.HAND_OVER and t.match.hand_number == 1
    a.acknowledge()
    assert t.match.hand_number == 1            # b has not seen the score yet
    b.acknowledge()
    assert t.match.hand_number == 2 and t.match.state.phase == Phase.DRAW
    assert [e.kind for e in t.events if e.kind == "dealt"] == ["dealt", "dealt"]


def test_a_client_that_leaves_no_longer_holds_up_the_deal() -> None:
    t = table(players=0, seed=11)
    a = Link(t, (), "a")
    b = Link(t, (), "b")
    while t.step():
        pass
    a.acknowledge()
    b.close()
    assert t.match.hand_number == 2


def test_a_link_reads_only_its_own_seats() -> None:
    t = table(players=2, seed=5)
    link = Link(t, (0,), "p1")
    assert link.view(0).hand == t.match.state.hands[0]
    try:
        link.view(3)
    except PermissionError:
        pass
    else:
        raise AssertionError("a link read another seat's view")
    assert not link.submit(3, [parse_action("draw")]).ok
    assert link.public_view().hand == () and link.final_hands() is None


def test_the_driver_drops_a_computers_answer_when_the_table_changed_meanwhile() -> None:
    """A computer thinks on a view; if the table changed while it thought (a game loaded, a
    seat taken over), its answer is not applied."""
    async def run() -> tuple[int, int]:
        t = table(players=0, seed=3)
        started = asyncio.Event()
        release = asyncio.Event()
        real = t._choose
        loop = asyncio.get_running_loop()

        def slow(player, view):  # type: ignore[no-untyped-def]
            loop.call_soon_threadsafe(started.set)
            asyncio.run_coroutine_threadsafe(release.wait(), loop).result(5)
            return real(player, view)
        t._choose = slow  # type: ignore[method-assign]
        task = asyncio.create_task(t.run())
        await asyncio.wait_for(started.wait(), 5)
        n = len(t.match.log[-1])
        # A human takes the thinking computer's seat while it thinks: its answer must be dropped.
        t.set_seat(t.match.state.actor, Seat(LOCAL, "Ann"))
        release.set()
        await asyncio.sleep(0.05)
        t.close()
        await asyncio.wait_for(task, 5)
        return n, len(t.match.log[-1])
    before, after = asyncio.run(run())
    assert after == before


def test_seat_kinds() -> None:
    assert [s.kind for s in seats_for(2)] == [LOCAL, COMPUTER, COMPUTER, LOCAL]
    assert Seat(COMPUTER).human is False and Seat(LOCAL).human is True


def test_a_game_saved_under_format_1_with_its_old_asks_resumes_with_its_log() -> None:
    """Format 1 let a player ask "May I go out?" whenever they had drawn from the stock; today's
    rule allows it only when going out is possible.  The loader replays such asks, and so must
    the rebuilding of the log on resume (it raised IllegalActionError and the game was lost)."""
    import json
    from pathlib import Path

    from canasta_tui.engine import record

    data = json.loads((Path(__file__).parents[1] / "data" / "saves" / "snapshot-scores.json").read_text())
    data["version"] = 1
    assert any("ask" in h["actions"] for h in data["hands"])
    m = record.from_dict(data)
    t = Table(m.rules, seats_for(1)[: m.rules.players], 1, match=m)
    asked = [e for e in t.events if e.kind == "asked"]
    assert asked and t.events[-1].seq == len(t.events) > 10


def test_views_are_made_once_per_state_and_again_after_every_move() -> None:
    """Every paint of every client asks for its seat's view; the table makes it once per state
    (a view holds the legal actions), and a move makes new ones that show it."""
    from canasta_tui.engine.view import view_for

    t = table(seed=5)
    to_human(t)
    v = t.view(0)
    assert t.view(0) is v and t.public_view() is t.public_view()
    assert v == view_for(t.match.state, 0)
    assert t.public_view().hand == () and t.public_view().legal == ()
    assert t.submit(0, [parse_action("draw")]).ok
    after = t.view(0)
    assert after is not v and after == view_for(t.match.state, 0)
    assert len(after.hand) > len(v.hand)
    assert t.view(2) == view_for(t.match.state, 2) and t.view(2).hand != after.hand
