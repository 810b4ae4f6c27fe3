"""Hypothesis property tests: notation round-trips, explain agrees with legal_actions,
rules and records round-trip."""

from __future__ import annotations

import random
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta_tui.engine import (
    CLASSIC,
    Action,
    GameState,
    IllegalActionError,
    Match,
    Phase,
    apply,
    deal,
    explain,
    full_deck,
    legal_actions,
    new_match,
    parse_action,
    play,
    record,
)
from canasta_tui.engine import actions as A
from canasta_tui.engine.cards import NATURAL_RANKS
from canasta_tui.engine.rules import rules_from_dict, rules_from_toml
from canasta_tui.presets import load_rules, preset_names

RANKS = (*NATURAL_RANKS, 2, 3, 14)
WILD = (2, 14)
CARDS = sorted(set(int(c) for c in full_deck()))


def _broad_actions() -> list[Action]:
    """Every discard, meld of three, add, pile variant and simple action."""
    out: list[Action] = [A.A_DRAW, A.A_PILE, A.A_ASK, A.A_YES, A.A_NO, A.A_UNDO, A.A_UNPILE, A.A_END]
    out += [A.discard(c) for c in CARDS]
    for r in RANKS:
        out.append(A.add(r))
        out.append(A.pile_with(r, r))
        for w in WILD:
            out.append(A.meld(r, r, w))
            out.append(A.add(w, r))
            out.append(A.pile_with(r, w))
            out.append(A.meld(r, w, w))
        out.append(A.meld(r, r, r))
    out += [A.meld(2, 2, 14), A.meld(14, 14, 14)]
    return out


BROAD = _broad_actions()
actions_st = st.sampled_from(BROAD)


@given(actions_st)
def test_action_notation_round_trips(a: Action) -> None:
    assert parse_action(str(a)) == a


@cache
def _states(preset: str, seed: int) -> tuple[GameState, ...]:
    rules = load_rules(preset)
    rng = random.Random(seed)
    deck = [int(c) for c in full_deck(rules.packs)]
    rng.shuffle(deck)
    s = deal(rules, deck, seed % rules.players)
    out = [s]
    while s.phase != Phase.HAND_OVER and len(out) < 400:
        s = apply(s, rng.choice(legal_actions(s)))
        out.append(s)
    return tuple(out)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(preset_names()), st.integers(0, 7), st.integers(0, 399), st.lists(actions_st, min_size=1, max_size=12))
def test_explain_is_none_exactly_for_legal_actions(preset: str, seed: int, step: int, candidates: list[Action]) -> None:
    """``explain(state, a) is None`` iff ``a in legal_actions(state)``, and ``apply`` raises
    with exactly that reason otherwise."""
    states = _states(preset, seed)
    s = states[step % len(states)]
    legal = legal_actions(s)
    for a in [*candidates, *legal[:3]]:
        reason = explain(s, a)
        assert (reason is None) == (a in legal), (str(a), reason)
        if reason is not None:
            assert reason.strip()
            try:
                apply(s, a)
            except IllegalActionError as exc:
                assert str(exc) == reason
            else:
                raise AssertionError(f"{a} was applied though explain says: {reason}")


@given(st.sampled_from(preset_names()))
def test_rules_dict_and_toml_round_trip(preset: str) -> None:
    rules = load_rules(preset)
    assert rules_from_dict(rules.to_dict()) == rules
    lines = ["[rules]"]
    for k, v in rules.to_dict().items():
        if isinstance(v, bool):
            lines.append(f"{k} = {'true' if v else 'false'}")
        elif isinstance(v, (int, list)):
            lines.append(f"{k} = {v}")
        else:
            lines.append(f"{k} = {v!r}".replace("'", '"'))
    assert rules_from_toml("\n".join(lines)) == rules


@given(st.booleans(), st.integers(1, 2), st.sampled_from(["three", "naturals", "both"]), st.integers(500, 9000))
def test_rules_replace_round_trips(flag: bool, draw: int, limit: str, target: int) -> None:
    r = CLASSIC.replace(pile_initially_frozen=flag, draw_count=draw, wild_limit=limit, target_score=target)
    assert rules_from_dict(r.to_dict()) == r
    assert (r.pile_initially_frozen, r.draw_count, r.wild_limit, r.target_score) == (flag, draw, limit, target)


def random_match(seed: int, steps: int, preset: str, *, named: bool) -> Match:
    """A match of ``preset`` after ``steps`` random legal actions (``named``: melds name random
    copies from the hand)."""
    rules = load_rules(preset)
    rng = random.Random(seed)
    deck = [int(c) for c in full_deck(rules.packs)]
    rng.shuffle(deck)
    m = new_match(rules, deck, seed % 4)
    for _ in range(steps):
        if m.state.is_over:
            break
        a = rng.choice(legal_actions(m.state))
        m = play(m, _name_from_hand(m.state, a, rng) if named else a)
    return m


def round_trip(m: Match) -> Match:
    """``m`` saved and loaded: the same position, log and scores, and saved again the same text."""
    text = record.dumps(m)
    again = record.loads(text)
    assert again.state == m.state and again.log == m.log and again.scores == m.scores
    assert record.dumps(again) == text
    return again


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 300), st.sampled_from(["classic", "samba", "bolivia"]))
def test_record_dumps_loads_round_trip(seed: int, steps: int, preset: str) -> None:
    round_trip(random_match(seed, steps, preset, named=False))


def test_record_refuses_malformed_rules_and_hands_with_a_reason() -> None:
    """docs/save-format.md: "rules that cannot be used (naming the option)" and a clear word for each field."""
    import pytest as _pytest

    from canasta_tui.engine.record import FORMAT, RecordError, from_dict

    base = {"format": FORMAT, "version": 1}
    with _pytest.raises(RecordError, match="rules must be a table"):
        from_dict(base | {"rules": "classic", "hands": []})
    with _pytest.raises(RecordError, match="hands must be a list"):
        from_dict(base | {"rules": {}, "hands": "Kh Kd"})
    with _pytest.raises(RecordError, match="no hands"):
        from_dict(base | {"rules": {}, "hands": []})
    with _pytest.raises(RecordError, match="unknown rule option 'colour'"):
        from_dict(base | {"rules": {"colour": 1}, "hands": []})


# ------------------------------------------------------------------ actions naming their copies

def _named_st() -> st.SearchStrategy[Action]:
    """A meld of one rank, an add of a natural card or a pile take, naming the suit of each
    natural card (``meld 9h 9h 9s``, ``pile 9h 2``, ``add 9h``)."""
    groups = [a for a in BROAD if a.kind in (A.MELD, A.ADD, A.PILE) and a.ranks
              and not (a.kind == A.ADD and a.target != a.ranks[0])
              and any(r not in WILD for r in a.ranks)]

    def name(a: Action, suits: list[int]) -> Action:
        natural = [r * 4 + s for r, s in zip((r for r in a.ranks if r not in WILD), suits, strict=False)]
        return A.with_cards(a, natural + [r * 4 for r in a.ranks if r in WILD])
    return st.sampled_from(groups).flatmap(
        lambda a: st.lists(st.integers(0, 3), min_size=3, max_size=3).map(lambda suits: name(a, suits)))


@given(_named_st())
def test_named_copies_notation_round_trips(a: Action) -> None:
    """The copies named read back as written, and the rank-only form is the one enumerated."""
    assert a.cards
    assert parse_action(str(a)) == a and parse_action(str(a)).cards == a.cards
    assert parse_action(str(a.general())) == a.general() and not a.general().cards


def _name_from_hand(s: GameState, a: Action, rng: random.Random) -> Action:
    """``a`` naming random copies of its ranks from the hand (or ``a`` itself when it names none)."""
    if a.kind not in (A.MELD, A.ADD, A.PILE) or a.card >= 0 or not a.ranks or \
            (a.kind == A.ADD and a.target != a.ranks[0]):
        return a
    hand = list(s.hands[s.turn])
    rng.shuffle(hand)
    picked = []
    for r in a.ranks:
        c = next(x for x in hand if x // 4 == r)
        hand.remove(c)
        picked.append(c)
    return A.with_cards(a, picked)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["samba", "bolivia", "classic"]), st.integers(0, 7), st.integers(0, 399), st.integers(0, 99))
def test_explain_is_none_exactly_for_legal_named_actions(preset: str, seed: int, step: int, pick: int) -> None:
    """An action naming copies is legal exactly when its rank-only form is and the hand holds the
    copies (``explain`` None iff ``is_legal``); a copy not held is refused with the reason."""
    from canasta_tui.engine import is_legal
    s = _states(preset, seed)[step % len(_states(preset, seed))]
    rng = random.Random(pick)
    for a in legal_actions(s):
        named = _name_from_hand(s, a, rng)
        assert explain(s, named) is None and is_legal(s, named)
        if named.cards:
            after = apply(s, named)
            assert len(after.hands[s.turn]) <= len(s.hands[s.turn]) + len(s.pile)
            missing = [c for c in CARDS if c // 4 == named.cards[0] // 4 and c not in s.hands[s.turn]]
            if missing:
                wrong = named._replace(cards=(missing[0], *named.cards[1:]))
                reason = explain(s, wrong)
                assert reason is not None and reason.startswith("You do not hold")
                assert not is_legal(s, wrong)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 300), st.sampled_from(["samba", "bolivia", "classic"]))
def test_record_with_named_copies_round_trips(seed: int, steps: int, preset: str) -> None:
    """A game whose melds name random copies saves (format 4) and loads to the same position."""
    m = random_match(seed, steps, preset, named=True)
    again = round_trip(m)
    assert [[a.cards for a in h] for h in again.log] == [[a.cards for a in h] for h in m.log]
