"""The bus's codecs (``server/cluster/wire.py``): every view, event, score sheet, chat line and
move of whole games round-trips, and whatever a hostile or broken node sends is refused with a
reason."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta_tui.engine import PUBLIC, Rules
from canasta_tui.presets import load_rules
from canasta_tui.server.cluster import wire as W
from canasta_tui.table import Outcome, Table, seats_for
from canasta_tui.table.table import ChatLine


def _json(x: Any) -> Any:
    """As it crosses the bus (JSON text and back: tuples become lists)."""
    return json.loads(json.dumps(x))


def _play(rules: Rules, seed: int, hands: int = 1) -> list[Table]:
    """A table of four beginners after each move of ``hands`` hands."""
    t = Table(rules, seats_for(0, "beginner")[: rules.players], seed)
    t.attend("me")
    seen = [t]
    while t.match.hand_number <= hands and t.match.winner is None:
        if not t.step():
            if t.match.hand_number == hands:
                break
            t.acknowledge("me")
        seen.append(t)
        check(t)
    return seen


def check(t: Table) -> None:
    r = t.rules
    for seat in [PUBLIC, *range(r.players)]:
        v = t.public_view() if seat == PUBLIC else t.view(seat)
        back = W.view_from_wire(_json(W.view_to_wire(v)), seat)
        assert back == v
        for a in v.legal:
            assert W.actions_from_wire(_json(W.actions_to_wire([a]))) == (a,)
    assert W.events_from_wire(_json([W.event_to_wire(e) for e in t.events]), r.players) == t.events
    assert W.sheet_from_wire(_json([W.hand_record_to_wire(h) for h in t.match.sheet]), r.teams, r.players) \
        == t.match.sheet
    assert W.rules_from_wire(_json(W.rules_to_wire(r))) == r


@pytest.mark.parametrize(("preset", "seed"), [("classic", 3), ("samba", 5), ("bolivia", 8)])
def test_every_view_and_event_of_a_hand_round_trips(preset: str, seed: int) -> None:
    tables = _play(load_rules(preset), seed)
    assert tables[-1].match.state.phase.word == "hand_over" or tables[-1].match.sheet


def test_a_whole_match_round_trips() -> None:
    t = Table(load_rules("classic").replace(target_score=1500), seats_for(0, "beginner"), 11)
    t.attend("me")
    for _ in range(20_000):
        if t.match.winner is not None:
            break
        if not t.step():
            t.acknowledge("me")
            check(t)
    assert t.match.winner is not None
    check(t)


@given(st.integers(1, 10**6), st.text(max_size=50), st.text(max_size=300), st.integers(0, 10**6))
@settings(max_examples=200)
def test_chat_lines_round_trip(seq: int, who: str, text: str, at: int) -> None:
    c = ChatLine(seq, who, text, at)
    assert W.chat_from_wire(_json(W.chat_to_wire(c))) == c


@given(st.booleans(), st.text(max_size=300), st.booleans())
def test_outcomes_round_trip(ok: bool, reason: str, changed: bool) -> None:
    o = Outcome(ok, reason, changed)
    assert W.outcome_from_wire(_json(W.outcome_to_wire(o))) == o


# ------------------------------------------------------------------------------ attacks
def _a_view(seat: int = 0) -> dict[str, Any]:
    t = Table(load_rules("classic"), seats_for(0, "beginner"), 4)
    for _ in range(30):
        t.step()
    return _json(W.view_to_wire(t.view(seat) if seat >= 0 else t.public_view()))


def _set(d: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    d = copy.deepcopy(d)
    *keys, last = path.split(".")
    at: Any = d
    for k in keys:
        at = at[int(k)] if isinstance(at, list) else at[k]
    if isinstance(at, list):
        at[int(last)] = value
    else:
        at[last] = value
    return d


@pytest.mark.parametrize(("path", "value", "why"), [
    ("seat", 7, "seat 7 where"),
    ("seat", True, "seat must be a whole number"),
    ("seat", 0.0, "a float where"),
    ("seat", "0", "seat must be a whole number"),
    ("turn", 4, "turn must be a seat"),
    ("actor", -1, "actor must be a whole number"),
    ("dealer", 10**12, "number out of range"),
    ("frozen", 1, "frozen must be true or false"),
    ("hand_sizes", [11, 11, 11], "hand_sizes"),
    ("hand_sizes.1", 500, "hand_sizes"),
    ("hand", "Kh", "hand does not match"),
    ("hand", "JK JK JK JK JK", "a card too many times"),
    ("stock_size", 200, "stock_size"),
    ("problem", "x" * 5000, "a text of 5000"),
    ("legal", ["draw"] * 6000, "a list of 6000"),
    ("legal", ["fly away"], "not a player view"),
    ("turn_state.prev", None, "turn_state.prev"),
    ("turn_state.asked", 0, "turn_state.asked"),
    ("phase", "winning", "not a player view"),
    ("rules.players", 9, "players"),
    ("rules.secret", 1, "unknown rule option"),
    ("penalty_log", [[0, 10, "x", "y"]], "penalty_log"),
    ("penalty_log", [[5, 10, "x"]], "penalty_log"),
    ("known", ["", "", ""], "known"),
    ("known.1", "Kh Kh Kh Kh Kh Kh Kh Kh Kh Kh Kh Kh Kh", "known"),
    ("pile", "Qh Qh Qh Qh Qh", "the deck does not hold"),
    ("end_reason", "a dragon ate it", "not a player view"),
    ("hand", 12, "not a player view"),
    ("melds", [[{"rank": "K", "naturals": "Kh Kh Kh", "wilds": ""}]], "not a player view"),
])
def test_a_bad_view_is_refused_with_its_reason(path: str, value: Any, why: str) -> None:
    good = _a_view(0)
    W.view_from_wire(good, 0)
    with pytest.raises(W.WireError, match=why):
        W.view_from_wire(_set(good, path, value), 0)


def test_a_view_of_another_seat_or_a_hand_in_a_public_view_is_refused() -> None:
    with pytest.raises(W.WireError, match="seat 1's was expected"):
        W.view_from_wire(_a_view(0), 1)
    public = _a_view(PUBLIC)
    W.view_from_wire(public, PUBLIC)
    with pytest.raises(W.WireError, match="hand does not match"):
        W.view_from_wire(_set(public, "hand", "Kh"), PUBLIC)
    with pytest.raises(W.WireError, match="no legal actions"):
        W.view_from_wire(_set(public, "legal", ["draw"]), PUBLIC)
    with pytest.raises(W.WireError, match="an object"):
        W.view_from_wire([1, 2], None)


@pytest.mark.parametrize("move", [[], ["draw"] * 65, [5], ["x" * 100], ["meld"], ["discard 1z"], ["discard"], "draw", None])
def test_a_bad_move_is_refused(move: Any) -> None:
    with pytest.raises(W.WireError):
        W.actions_from_wire(move)


@pytest.mark.parametrize(("event", "why"), [
    ({"seq": 1, "hand": 1, "kind": "cheated", "seat": 0, "cards": "", "amount": 0, "rank": 0, "text": ""}, "not an event"),
    ({"seq": 1, "hand": 1, "kind": "drew", "seat": 4, "cards": "", "amount": 0, "rank": 0, "text": ""}, "seat"),
    ({"seq": 0, "hand": 1, "kind": "drew", "seat": 0, "cards": "", "amount": 0, "rank": 0, "text": ""}, "seq"),
    ({"seq": 1, "hand": 1, "kind": "drew", "seat": 0, "cards": "Zz", "amount": 0, "rank": 0, "text": ""}, "cards"),
    ({"seq": 1, "hand": 1, "kind": "drew", "seat": 0, "cards": "", "amount": True, "rank": 0, "text": ""}, "amount"),
    ({"seq": 1, "hand": 1, "kind": "drew", "seat": 0, "cards": "", "amount": 0, "rank": 0}, "text"),
    ({"seq": 1, "hand": 1, "kind": "drew", "seat": 0, "cards": "Kh " * 200, "amount": 0, "rank": 0, "text": ""},
     "cards"),
])
def test_a_bad_event_is_refused(event: dict[str, Any], why: str) -> None:
    with pytest.raises(W.WireError, match=why):
        W.event_from_wire(event)


def test_bad_chat_sheets_and_outcomes_are_refused() -> None:
    with pytest.raises(W.WireError, match="who"):
        W.chat_from_wire({"seq": 1, "who": "x" * 101, "text": "hi", "at": 0})
    with pytest.raises(W.WireError, match="at most 200"):
        W.chats_from_wire([{"seq": 1, "who": "a", "text": "hi", "at": 0}] * 201)
    with pytest.raises(W.WireError, match="ok"):
        W.outcome_from_wire({"ok": "yes", "reason": "", "changed": False})
    t = Table(load_rules("classic").replace(target_score=1500), seats_for(0, "beginner"), 2)
    t.attend("me")
    while not t.match.sheet:
        if not t.step():
            break
    sheet = _json([W.hand_record_to_wire(h) for h in t.match.sheet])
    assert W.sheet_from_wire(sheet) == t.match.sheet
    for path, value, why in [("0.dealer", 4, "dealer"), ("0.totals", [1], "totals"), ("0.scores", [], "one score"),
                             ("0.end_reason", "boredom", "end_reason"), ("0.scores.0.total", 1.5, "total"),
                             ("0.scores.0.penalty_items", [["x"]], "penalty_items")]:
        bad = copy.deepcopy(sheet)
        *keys, last = path.split(".")
        at: Any = bad
        for k in keys:
            at = at[int(k)] if isinstance(at, list) else at[k]
        at[last] = value
        with pytest.raises(W.WireError, match=why):
            W.sheet_from_wire(bad)
