"""Views as plain data, and the spectator's view (issue 11, "Engine": "a public (spectator)
view; ``PlayerView`` to/from a plain dict").  No client may ever receive a byte of another
seat's hidden cards."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta_tui.engine import (
    PUBLIC,
    CanastaError,
    GameState,
    Phase,
    PlayerView,
    apply,
    cards_text,
    deal,
    full_deck,
    legal_actions,
    public_view,
    view_for,
    view_from_dict,
)
from canasta_tui.engine.cards import parse_card
from canasta_tui.presets import load_rules, preset_names

CARD = re.compile(r"^(?:10|[2-9AJQK])[cdhs]$|^JK$")


def random_position(seed: int, steps: int, preset: str = "classic") -> GameState:
    rules = load_rules(preset)
    rng = random.Random(seed)
    deck = [int(c) for c in full_deck(rules.packs)]
    rng.shuffle(deck)
    s = deal(rules, deck, seed % rules.players)
    for _ in range(steps):
        if s.phase == Phase.HAND_OVER:
            break
        legal = legal_actions(s)
        s = apply(s, legal[rng.randrange(len(legal))])
    return s


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 100_000), st.integers(0, 400), st.sampled_from(preset_names()), st.integers(-1, 3))
def test_a_view_round_trips_through_json(seed: int, steps: int, preset: str, seat: int) -> None:
    s = random_position(seed, steps, preset)
    v = public_view(s) if seat == PUBLIC or seat >= s.rules.players else view_for(s, seat)
    data = v.to_dict()
    again = PlayerView.from_dict(json.loads(json.dumps(data)))
    assert again == v
    assert again.to_dict() == data


def card_tokens(data: Any) -> Counter[int]:
    """Every card named anywhere in the data (in any text: cards, melds, actions)."""
    found: Counter[int] = Counter()
    if isinstance(data, dict):
        for value in data.values():
            found += card_tokens(value)
    elif isinstance(data, list):
        for value in data:
            found += card_tokens(value)
    elif isinstance(data, str) and data.split()[:1] not in (["meld"], ["add"], ["pile"]):
        # (in "meld K K JK" the JK is a rank, not a card; "discard JK" names a card)
        found.update(int(parse_card(w)) for w in data.split() if CARD.match(w))
    return found


def allowed(s: GameState, seat: int) -> Counter[int]:
    """What a seat may be told: its own hand, and the public cards (the table, the pile,
    the rest of a taken pile waiting, red threes, cards known to be in a hand because they
    were taken from the pile, the cards melded this turn), each as often as it is named."""
    ok: Counter[int] = Counter(s.pile) + Counter(s.aside) + Counter(s.t.melded)
    for row in s.melds:
        for m in row:
            if m is not None:
                ok.update(m.naturals + m.wilds)
    for r in s.red_threes:
        ok.update(r)
    for k in s.known:
        ok.update(k)
    if seat != PUBLIC:
        ok.update(s.hands[seat])
        ok.update(s.hands[seat])    # named again in its legal discards
        ok.update(s.red_threes[seat])
        if seat == s.turn and s.t.own is not None:
            ok.update(s.t.own)
    return ok


@pytest.mark.parametrize("preset", ["classic", "windows", "two-player"])
def test_a_view_dict_names_no_hidden_card_of_another_seat(preset: str) -> None:
    """For seat N (and a spectator) the plain data names no card beyond its own hand and the
    public cards: another seat's hand is only ever its size and its known cards."""
    for seed in range(30):
        for steps in (0, 1, 7, 40, 120):
            s = random_position(seed, steps, preset)
            for seat in (*range(s.rules.players), PUBLIC):
                v = public_view(s) if seat == PUBLIC else view_for(s, seat)
                data = v.to_dict()
                extra = card_tokens(data) - allowed(s, seat)
                assert not extra, f"seed {seed} step {steps} seat {seat}: names {extra}"
                if seat != PUBLIC:
                    assert data["hand"] == cards_text(s.hands[seat])
                else:
                    assert data["hand"] == "" and data["legal"] == []


def test_the_public_view_has_no_hand_and_no_actions() -> None:
    s = random_position(4, 30)
    v = public_view(s)
    assert v.seat == PUBLIC and v.hand == () and v.legal == () and v.t.own is None
    assert v.hand_sizes == tuple(len(h) for h in s.hands) and v.pile == s.pile and v.melds == s.melds
    with pytest.raises(ValueError, match="no seat -1 at this table"):
        view_for(s, -1)    # it used to give the last seat's hand


@pytest.mark.parametrize("bad", [None, [], {"seat": 0}, {**public_view(random_position(1, 5)).to_dict(), "hand": 7},
                                 {**public_view(random_position(1, 5)).to_dict(), "pile": "Zz"}])
def test_bad_view_data_is_refused_with_a_message(bad: Any) -> None:
    with pytest.raises(CanastaError, match="not a player view"):
        view_from_dict(bad)
