"""Random-simulation invariants over many seeded hands (the OpenSpiel random_sim_test idea).

After every action: all 108 cards (162 in Samba and Bolivia) are accounted for, every meld on the table is legal,
legal actions exist until the hand is over, no meld or pile take leaves a card that can
neither be discarded nor melded, and at the end the score recomputes and the action log
replays to the same position.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from canasta_tui.engine import (
    GameState,
    Phase,
    apply,
    deal,
    full_deck,
    legal_actions,
    new_match,
    next_hand,
    play,
    record,
    replay,
    score_hand,
)
from canasta_tui.engine.cards import IS_WILD, RANK_OF, SUIT_OF, sequence_position
from canasta_tui.presets import load_rules, preset_names

FULL = {packs: Counter(int(c) for c in full_deck(packs)) for packs in (2, 3)}


def all_cards(s: GameState) -> Counter[int]:
    c: Counter[int] = Counter()
    c.update(s.deck[s.stock_pos:])
    c.update(s.pile)
    c.update(s.aside)  # the rest of a taken pile waiting for the initial meld (undo_pile_allowed)
    for h in s.hands:
        c.update(h)
    for r in s.red_threes:
        c.update(r)
    for row in s.melds:
        for m in row:
            if m is not None:
                c.update(m.naturals)
                c.update(m.wilds)
    return c


def check_melds(s: GameState) -> None:
    rules = s.rules
    for row in s.melds:
        for key, m in enumerate(row):
            if m is None:
                continue
            if m.is_sequence:
                # Bicycle, Samba: "Three or more cards of the same suit in sequence (ace high, four
                # low) ... until there are seven cards"; "no sequence meld may contain any wild card".
                assert rules.sequences and key >= 15 and not m.wilds and 3 <= m.size <= 7, f"bad sequence: {m}"
                pos = [sequence_position(RANK_OF[c]) for c in m.naturals]
                assert pos == list(range(pos[0], pos[0] + len(pos))) and pos[0] >= 4, f"not in order: {m}"
                assert {SUIT_OF[c] for c in m.naturals} == {m.suit} and m.rank == RANK_OF[m.naturals[0]]
                continue
            if key >= 15:
                # "A side may have two canastas in the same rank": a further meld of a rank.
                assert rules.several_groups and row[m.rank] is not None, f"a further meld without a first: {m}"
                key = m.rank
            assert m.rank == key
            if m.is_wild_meld and rules.wild_canasta_closed:
                assert m.size <= 7, f"a closed wild canasta grew: {m}"
            assert m.size >= 3, f"meld of fewer than three cards: {m}"
            if m.is_wild_meld:
                assert all(IS_WILD[c] for c in m.wilds) and not m.naturals
                continue
            assert len(m.naturals) >= 2, f"meld with fewer than two naturals: {m}"
            assert all(RANK_OF[c] == key and not IS_WILD[c] for c in m.naturals)
            assert all(IS_WILD[c] for c in m.wilds)
            if key != 3 or not rules.black_three_meld_with_wild:
                assert len(m.wilds) <= rules.wilds_allowed(len(m.naturals)), f"too many wild cards: {m}"


def play_hand(seed: int, rules_name: str = "classic") -> tuple[GameState, list[object]]:
    rules = load_rules(rules_name)
    rng = random.Random(seed)
    deck = [int(c) for c in full_deck(rules.packs)]
    rng.shuffle(deck)
    s = deal(rules, deck, seed % rules.players)
    log = []
    steps = 0
    while s.phase != Phase.HAND_OVER:
        legal = legal_actions(s)
        assert legal, f"seed {seed}: a position that is not over has no legal action"
        a = rng.choice(legal)
        s = apply(s, a)
        if a.kind in ("meld", "add", "pile") and s.phase == Phase.MELD and len(s.hands[s.turn]) <= 1:
            # DOS "Going Out": without the canasta "the player must keep at least one card in hand"
            assert {x.kind for x in legal_actions(s)} - {"undo", "unpile"}, f"seed {seed}: '{a}' left a dead card"
        log.append(a)
        steps += 1
        assert steps < 5000, f"seed {seed}: the hand does not end"
        if steps % 7 == 0 or s.phase == Phase.HAND_OVER:
            assert all_cards(s) == FULL[rules.packs], f"seed {seed}: cards not conserved"
            check_melds(s)
    return s, log


@pytest.mark.parametrize("chunk", range(8))
def test_two_thousand_random_hands_keep_every_invariant(chunk: int) -> None:
    """2,000 classic hands (8 chunks of 250): conservation, legal melds, no stuck state, scores add up."""
    for seed in range(chunk * 250, chunk * 250 + 250):
        s, _ = play_hand(seed)
        scores = score_hand(s)
        for sc in scores:
            assert sc.total == (sc.melds + sc.canasta_bonus + sc.red_three_points + sc.going_out
                                - sc.hand - sc.penalties)
        if s.went_out >= 0:
            assert not s.hands[s.went_out]
            assert s.canastas(s.team_of(s.went_out)) >= s.rules.canastas_to_go_out or (
                s.concealed and not s.rules.concealed_needs_canasta)


@pytest.mark.parametrize("preset", [p for p in preset_names() if p != "classic"])
def test_every_preset_plays_without_stuck_states(preset: str) -> None:
    for seed in range(150):
        play_hand(seed, preset)


@pytest.mark.parametrize("preset", ["classic", "samba", "bolivia"])
def test_matches_replay_exactly_from_decks_and_log(preset: str) -> None:
    """A game is fully described by its rules, its deals and its action log (and its save)."""
    rules = load_rules(preset)
    rng = random.Random(7)
    for game in range(6):
        deck = [int(c) for c in full_deck(rules.packs)]
        rng.shuffle(deck)
        m = new_match(rules, deck, game % 4)
        for _ in range(3):
            while not m.state.is_over:
                m = play(m, rng.choice(legal_actions(m.state)))
            if not m.needs_deal:
                break
            deck = deck[:]
            rng.shuffle(deck)
            m = next_hand(m, deck)
        again = replay(rules, m.decks, m.log, game % 4)
        assert again.state == m.state
        assert again.sheet == m.sheet
        loaded = record.loads(record.dumps(m))
        assert loaded.state == m.state and loaded.scores == m.scores


@pytest.mark.parametrize("preset", ["samba", "bolivia"])
@pytest.mark.parametrize("chunk", range(4))
def test_a_thousand_samba_and_bolivia_hands_each_keep_every_invariant(preset: str, chunk: int) -> None:
    """1,000 random hands of each (4 chunks of 250): all 162 cards accounted for, every meld
    legal (sequences in order, of one suit, no wild card, at most seven), no stuck state, the
    score's items add up, going out only with the canastas the rules ask (Bolivia: one an
    escalera), and every 25th hand replays from its deck and log to the same position."""
    rules = load_rules(preset)
    for seed in range(10_000 + chunk * 250, 10_000 + chunk * 250 + 250):
        s, log = play_hand(seed, preset)
        for sc in score_hand(s):
            assert sc.total == (sc.melds + sc.canasta_bonus + sc.red_three_points + sc.going_out
                                - sc.hand - sc.penalties)
        if s.went_out >= 0:
            row = s.melds[s.team_of(s.went_out)]
            canastas = [m for m in row if m is not None and m.is_canasta]
            assert len(canastas) >= 2, f"seed {seed}: went out without two canastas"
            if rules.going_out_needs_sequence:
                assert any(m.is_sequence for m in canastas), f"seed {seed}: went out without an escalera"
        if seed % 25 == 0:
            deck = [int(c) for c in full_deck(rules.packs)]
            random.Random(seed).shuffle(deck)
            again = replay(rules, [deck], [log], seed % rules.players)  # type: ignore[list-item]
            assert again.state == s, f"seed {seed}: the replay differs"
