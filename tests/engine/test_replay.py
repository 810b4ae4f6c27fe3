"""Replaying a log is linear, and a hand's log is bounded (issue 10, item 3: a legal file of
``"meld J J JK","undo"`` pairs froze ``--load``: 40k actions 2.3 s, 100k 12 s, 200k 48 s)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from positions import position, stacked_deck

from canasta_tui.engine import CLASSIC, Match, Phase, apply, cards_text, legal_actions, parse_action, record, replay
from canasta_tui.engine import actions as A
from canasta_tui.engine import match as M
from canasta_tui.engine.match import MAX_HAND_ACTIONS, TAKE_BACK_LIMIT, take_back_problem

DECK = stacked_deck(["Jh Jd JK 9c 9d 5c 5d 6c 6d 7s 8h"], upcards="Ks", stock="8c", dealer=3)
MELD, UNDO = parse_action("meld J J JK"), parse_action("undo")


def pairs_log(pairs: int) -> list[Any]:
    return [parse_action("draw")] + [MELD, UNDO] * pairs


def save(actions: list[str]) -> dict[str, Any]:
    return {"format": "canasta-tui-save", "version": 1, "rules": {}, "first_dealer": 3,
            "hands": [{"deck": cards_text(DECK), "actions": actions}]}


def count_matches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count every Match value built by ``_replace`` (each one copied the hand's log)."""
    built = [0]
    make = Match._make

    def counting(cls: type[Match], iterable: Any) -> Match:
        built[0] += 1
        return make(iterable)

    monkeypatch.setattr(Match, "_make", classmethod(counting))
    return built


@pytest.mark.parametrize("pairs", [500, 5000])
def test_replay_does_not_copy_the_log_per_action(monkeypatch: pytest.MonkeyPatch, pairs: int) -> None:
    """The quadratic replay built a new Match (copying the hand's log) for every action;
    now a hand is rebuilt once, whatever its length."""
    built = count_matches(monkeypatch)
    m = replay(CLASSIC, [DECK], [pairs_log(pairs)], 3)
    assert len(m.log[0]) == 2 * pairs + 1 and m.state.phase == Phase.MELD
    assert built[0] <= 2


def test_a_legal_file_of_meld_undo_pairs_loads() -> None:
    m = record.from_dict(save(["draw"] + ["meld J J JK", "undo"] * 3000))
    assert len(m.log[0]) == 6001
    assert record.from_dict(record.to_dict(m)).state == m.state


def test_a_hand_over_the_bound_is_refused_before_it_is_read() -> None:
    """The actions are not even parsed: the message is the bound, not "cannot read"."""
    with pytest.raises(record.RecordError) as exc:
        record.from_dict(save(["not an action"] * (MAX_HAND_ACTIONS + 1)))
    assert str(exc.value) == f"hand 1 has {MAX_HAND_ACTIONS + 1} actions; a hand holds at most 50000"


def test_undo_is_refused_once_the_hand_has_run_to_half_the_bound() -> None:
    """The engine never plays a hand the loader would refuse: once the log holds half the
    bound, ``play`` refuses ``undo`` (the only action, with ``unpile``, that can repeat
    without progress)."""
    m = replay(CLASSIC, [DECK], [pairs_log(TAKE_BACK_LIMIT // 2)[:-1]], 3)
    assert len(m.log[-1]) == TAKE_BACK_LIMIT and A.A_UNDO in legal_actions(m.state)
    with pytest.raises(M.IllegalActionError, match="This hand has run to 25000 actions: melds can no longer "
                                                   "be taken back, nor the pile put back"):
        M.play(m, UNDO)
    # the same log, in a file, is refused at the same action
    with pytest.raises(record.RecordError, match=r"hand 1, action 25001 \(undo\): This hand has run to 25000"):
        record.from_dict(save([str(a) for a in [*pairs_log(TAKE_BACK_LIMIT // 2)[:-1], UNDO]]))
    # play goes on: the meld stays and the turn ends with a discard
    after = M.play(m, parse_action("discard 7s"))
    assert after.state.turn == 1 and after.state.melds[0][11] is not None


def test_past_the_limit_a_player_is_never_stuck() -> None:
    """Past the limit a meld that would leave a turn that cannot end without undo is refused,
    and where such a turn is reached anyway, undo stays allowed."""
    s = position({0: "5c 5d 5h 9c 9d"})     # initial meld 50: five Fives make 15
    meld = parse_action("meld 5 5 5")
    assert take_back_problem(s, TAKE_BACK_LIMIT - 1, meld) is None
    assert take_back_problem(s, TAKE_BACK_LIMIT, meld) == (
        "This hand has run to 25000 actions: a meld now must leave a turn you can end without taking melds back")
    stuck = apply(s, meld)
    assert [str(a) for a in legal_actions(stuck)] == ["undo"]
    assert take_back_problem(stuck, TAKE_BACK_LIMIT + 7, UNDO) is None


def test_an_undo_happy_player_still_ends_the_hand_within_the_bound() -> None:
    """A player who takes back every meld as often as ``play`` lets them: the hand still ends,
    and its log is under the bound the loader enforces."""
    rng = random.Random(3)
    s = apply(replay(CLASSIC, [DECK], [[]], 3).state, parse_action("draw"))
    done = 1
    while s.phase != Phase.HAND_OVER:
        legal = legal_actions(s)
        allowed = [a for a in legal if take_back_problem(s, done, a) is None]
        assert allowed, "a position with no allowed action"
        pick = next((a for a in (UNDO, MELD) if a in allowed), None)
        s = apply(s, pick or rng.choice(allowed))
        done += 1
    assert TAKE_BACK_LIMIT < done < MAX_HAND_ACTIONS


def test_a_version_1_save_keeps_its_ask() -> None:
    """Save format 1 allowed ``ask`` after any draw from the stock, before a meld; the engine
    now offers it only when going out is possible.  An old save still loads (the corpus in
    tests/data/saves is such saves), and so does the same game saved again in today's format."""
    old = save(["draw", "ask", "no", "discard 7s"])
    m = record.from_dict(old)
    assert m.state.turn == 1 and str(m.log[0][1]) == "ask"
    again = record.to_dict(m)
    assert again["version"] == record.VERSION and record.from_dict(again).state == m.state
    # the engine itself refuses it
    with pytest.raises(M.IllegalActionError, match="Your side has no canasta yet"):
        M.play(M.play(replay(CLASSIC, [DECK], [[]], 3), parse_action("draw")), parse_action("ask"))


def test_a_game_saved_before_melds_down_to_a_dead_card_were_refused_loads() -> None:
    """A meld that leaves one card that can neither be discarded nor melded is refused now;
    a game saved before (in which only ``undo`` could follow it) replays as it was played,
    and its events are rebuilt alike (DOS "Going Out": "the player must keep at least one
    card in hand")."""
    from canasta_tui.table.events import hand_events

    # three cards dealt, one drawn: melding the Kings would leave the Eight, and no canasta
    deck = stacked_deck(["Kh Kd Kc"], upcards="Qs", stock="8c", dealer=3, hand_size=3)
    old = ["draw", "meld K K K", "undo", "discard 8c"]
    data = {"format": "canasta-tui-save", "version": 2, "rules": {"hand_size": 3}, "first_dealer": 3,
            "hands": [{"deck": cards_text(deck), "actions": old}]}
    m = record.from_dict(data)
    assert [str(a) for a in m.log[0]] == old and m.state.turn == 1
    drawn = replay(m.rules, m.decks, [[parse_action("draw")]], 3).state
    assert parse_action("meld K K K") not in legal_actions(drawn)
    events = hand_events(m.rules, m.decks[0], 3, (0, 0), m.log[0], 1)
    assert [e.kind for e in events][-3:] == ["melded", "took_back", "discarded"]
