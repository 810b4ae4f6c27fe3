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


def near_the_take_back_limit(hand: str, meld: str) -> Table:
    """A table whose first player has drawn, then melded ``meld`` and taken it back until the
    hand's log is one action short of the take-back limit (a meld is still allowed there)."""
    import sys
    from pathlib import Path

    from canasta_tui.engine import CLASSIC, replay
    from canasta_tui.engine.match import TAKE_BACK_LIMIT

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
    from positions import stacked_deck

    deck = stacked_deck([hand], upcards="Ks", stock="8c", dealer=3)
    log = [parse_action("draw")] + [parse_action(meld), parse_action("undo")] * (TAKE_BACK_LIMIT // 2 - 1)
    m = replay(CLASSIC, [deck], [log], 3)
    assert len(m.log[-1]) == TAKE_BACK_LIMIT - 1
    return Table(CLASSIC, [Seat(LOCAL, "Ann")] + [Seat(COMPUTER, "beginner")] * 3, 1, match=m)


def test_a_move_past_the_take_back_limit_is_refused_whole_with_the_engines_reason() -> None:
    """A move is applied once, atomically: its trial is its commit.  The table tried a move
    with ``apply`` and then played it again with ``play``, which also checks the take-back
    limit (``take_back_problem``): a ``meld`` then an ``undo`` that passes the limit got past
    the trial, the meld was played and the ``undo`` raised out of ``submit``."""
    from canasta_tui.engine import play
    from canasta_tui.engine.match import take_back_problem

    t = near_the_take_back_limit("Jh Jd JK 9c 9d 5c 5d 6c 6d 7s 8h", "meld J J JK")
    m = t.match
    meld, undo = parse_action("meld J J JK"), parse_action("undo")
    events, version, seen = list(t.events), t.version, []
    t.add_observer(lambda _t, what: seen.append(what))
    after_meld = play(m, meld)
    reason = take_back_problem(after_meld.state, len(after_meld.log[-1]), undo)
    assert reason is not None
    out = t.submit(0, [meld, undo])
    assert out == (False, reason, False)
    assert t.match is m and t.events == events and t.version == version and seen == []
    # each part alone is still what the engine says: the meld is played, its undo refused
    assert t.submit(0, [meld]).ok
    assert t.submit(0, [undo]) == (False, reason, False)



def test_improper_melds_past_the_take_back_limit_stay_with_the_reason() -> None:
    """DOS manual, "Improper Melds": an insufficient meld is "returned to your hand by attempting
    to discard a card" -- by ``undo``, which ``play`` refuses once the hand has run to the
    take-back limit (while more melds can still end the turn).  The table tried the undo with
    ``apply`` and played it with ``play``: the refusal raised out of ``submit``."""
    t = near_the_take_back_limit("5c 5d 5h Kc Kd Kh Ac Ad Ah 7s 8h", "meld 5 5 5")
    assert t.submit(0, [parse_action("meld 5 5 5")]).ok       # 15 of the 50 the initial meld needs
    m, events = t.match, list(t.events)
    out = t.submit(0, [parse_action("discard 7s")])
    assert out == (False, "Improper melds: Initial meld needs 50 points; these melds count 15.\n"
                          "This hand has run to 25000 actions: melds can no longer be taken back, "
                          "nor the pile put back", False)
    assert t.match is m and t.events == events
    # the turn still ends: meld the Aces, then discard
    assert t.submit(0, [parse_action("meld A A A"), parse_action("discard 7s")]).ok


def test_a_spectators_view_holds_no_seats_hand_problem_or_undo() -> None:
    """A spectator sees "everything on the table and each hand's size, no hand's cards" (the
    engine's ``public_view``).  The table made it from seat 0's view, dropping the hand and the
    legal actions but keeping seat 0's ``problem`` (why its turn cannot end) and ``undoable``."""
    import sys
    from pathlib import Path

    from canasta_tui.engine import CLASSIC, PUBLIC, new_match, public_view

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
    from positions import stacked_deck

    deck = stacked_deck(["5c 5d 5h Kc Kd 9c 9d 6c 6d 7s 8h"], upcards="Qs", stock="4c", dealer=3)
    t = Table(CLASSIC, [Seat(LOCAL, "Ann")] + [Seat(COMPUTER, "beginner")] * 3, 1,
              match=new_match(CLASSIC, deck, first_dealer=3))
    assert t.submit(0, [parse_action("draw"), parse_action("meld 5 5 5")]).ok
    own = t.view(0)
    assert own.problem == "Initial meld needs 50 points; these melds count 15" and own.undoable == 1
    v = t.public_view()
    assert v == public_view(t.match.state)
    assert v.seat == PUBLIC and v.hand == () and v.legal == () and v.t.own is None
    assert v.problem == "" and v.undoable == 0
    assert v.hand_sizes == own.hand_sizes and v.melds == own.melds
