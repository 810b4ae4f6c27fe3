"""The coach (issue 20, "A coach"): a hint with its reason in Canasta's words, a review of a hand's
decisions by what they cost, and neither ever reveals a card the player could not see."""

from __future__ import annotations

import random

import pytest

from canasta_tui.ai import coach, make_player
from canasta_tui.ai.coach import Decision, Mistake
from canasta_tui.ai.expert import ExpertPlayer
from canasta_tui.engine import CLASSIC, Action, GameState, Phase, PlayerView, apply, deal, view_for
from canasta_tui.engine import actions as A
from canasta_tui.engine.cards import parse_cards
from canasta_tui.presets import load_rules
from canasta_tui.table import Table, seats_for

from .helpers import position, shuffled, variant_position
from .test_fair_and_robust import midgame, permute_hidden

#: Small budgets keep the tests quick; the work-counted Expert makes them exact all the same.
QUICK = 0.1


# Issue 33: "Under load the clock's safety stop changes its answers: four runs of one review caught
# 5, 6, 6 and 5 of the six planted blunders".  The coach's searches are counted in work alone (no
# wall-clock stop), so these tests pass on a busy machine; nothing here switches a stop off.
hint = coach.hint
review = coach.review

BOLIVIA = load_rules("bolivia")


def test_take_the_pile_that_gives_the_side_its_canasta() -> None:
    """RULES.md "Draw or take the pile": the pile goes to a player who melds its upcard; here it
    holds three Kings, and with the side's three Kings down and a pair in hand they make a canasta."""
    s = position({0: "Kc Ks 5h 6d 9c 10s Jh"}, melds={0: ["Kc Kd Kh"], 1: ["8c 8d 8h"]},
                 phase=Phase.DRAW, pile="4c 7d Kh Kd Ks")
    v = view_for(s, 0)
    h = hint(v, 1, QUICK)
    assert h.action.kind == A.PILE
    assert h.text.startswith("Take the pile: it holds three Kings")
    assert "gives your side a canasta of Kings" in h.text
    assert len(h.text) <= 78


def test_a_black_three_stops_the_pile() -> None:
    """RULES.md "Stop cards": "A wild card or a black three on top of the pile stops it: the next
    player must draw from the stock."  The Expert discards the black three and says why."""
    s = position({0: "3c 5h 9d Qs Kc"}, melds={0: ["Jc Jd Jh"], 1: ["9c 9h 9s", "Qc Qd Qh"]},
                 pile="4c 5d 6h 7c 8d 10c Kh")
    v = view_for(s, 0)
    h = hint(v, 1, QUICK)
    assert h.action == A.discard(s.hands[0][0])          # the 3♣ (the lowest card code)
    assert h.text == "Discard the 3♣: a black three stops the next player from taking the pile"


def test_a_frozen_pile_is_drawn_past_with_the_reason() -> None:
    """RULES.md "The frozen pile": "A frozen pile may be taken only with a natural pair matching
    the upcard"; without one, draw, and the hint says what taking it would need."""
    s = position({0: "Qs 5h 6d 9c 10s"}, melds={0: ["Jc Jd Jh"]}, phase=Phase.DRAW, pile="4c 2d 7h Kh")
    s = s._replace(frozen=True)
    v = view_for(s, 0)
    h = hint(v, 1, QUICK)
    assert h.action == A.A_DRAW
    assert h.text == "Draw from the stock: the pile is frozen: it takes a natural pair of Kings"


def test_no_to_a_partner_whose_side_has_no_canasta() -> None:
    """RULES.md: going out needs the side's canasta; asked "May I go out, partner?" with none
    made and no canasta the partner's hand could complete, the answer is no, and why."""
    s = position({0: "4c 5d", 2: "6h 7s 9c 10d Jh Qs Kc"}, melds={0: ["8c 8d 8h"]}, phase=Phase.PERMISSION,
                 asked=True)
    v = view_for(s, 2)
    h = hint(v, 1, QUICK)
    assert h.action == A.A_NO
    assert h.text == "Answer no: your side has 0 canastas and needs 1 to go out"


def test_every_hint_is_legal_and_fits_the_hint_line() -> None:
    checked = 0
    for seed in range(8):
        for steps in (0, 9, 23, 41, 66, 90):
            s = midgame(seed, steps)
            if s.phase == Phase.HAND_OVER:
                continue
            v = view_for(s, s.actor)
            h = hint(v, 2, QUICK)
            assert h.action in v.legal
            assert 10 < len(h.text) <= 78, h.text
            assert any(h.text == f"{coach.todo(h.action, v)}: {r}" for r in coach.reasons(h.action, v)) or (
                h.action.kind == A.DISCARD and h.text.startswith(f"{coach.todo(h.action, v)}: by the search ")), h.text
            assert "\n" not in h.text
            checked += 1
    assert checked >= 15


def test_a_hint_that_is_a_discard_is_the_search_of_the_discards_first() -> None:
    """Issue 33: "A hint that is a discard comes from a search of the discards, not from the rule of
    thumb alone": the hint's discard is the first of the Expert's searched discards (best_discards),
    and when the search overrode the rules of thumb the hint says by how much, as it measured it."""
    from canasta_tui.ai.expert import best_discards

    checked = 0
    for seed in range(10):
        for steps in (9, 23, 41, 66):
            s = midgame(seed, steps)
            if s.phase != Phase.MELD:
                continue
            v = view_for(s, s.actor)
            h = hint(v, 2, QUICK)
            if h.action.kind != A.DISCARD:
                continue
            ranked = best_discards(v, QUICK, 2)
            assert h.action == ranked[0].action
            said = f"{coach.todo(h.action, v)}: by the search {ranked[0].gain:.0f} ±{ranked[0].error:.0f} points better"
            if ranked[0].gain <= 0:
                assert "by the search" not in h.text                  # the rules of thumb's own discard
            elif len(said) + 16 <= coach.LINE:                       # " than the 10♦" fits the line
                assert h.text.startswith(said + " than the "), h.text
            checked += 1
    assert checked >= 3


def test_a_hint_is_only_for_the_player_to_act() -> None:
    s = midgame(1, 5)
    other = (s.actor + 1) % 4
    with pytest.raises(ValueError, match="no legal action"):
        hint(view_for(s, other), 1, QUICK)


# ---------------------------------------------------------------------- review


def beginner_hand(seed: int, seat: int = 0, limit: int = 200) -> list[Decision]:
    """``seat``'s decisions in a hand played by Beginners."""
    s = deal(CLASSIC, shuffled(seed), seed % 4)
    ps = [make_player("beginner", seed + i) for i in range(4)]
    out: list[Decision] = []
    for _ in range(limit):
        if s.phase == Phase.HAND_OVER:
            break
        v = view_for(s, s.actor)
        a = ps[s.actor].choose(v)
        if s.actor == seat:
            out.append(Decision(v, a))
        s = apply(s, a)
    return out


def test_a_review_lists_costly_choices_by_cost_and_leaves_out_the_noise() -> None:
    found: list[Mistake] = []
    for seed in range(3):
        decisions = beginner_hand(seed)
        mistakes = review(decisions, 3, QUICK)
        costs = [m.cost for m in mistakes]
        assert costs == sorted(costs, reverse=True)
        for m in mistakes:
            assert m.played == decisions[m.at].action and m.view == decisions[m.at].view
            assert m.better != m.played and m.better in m.view.legal
            assert m.cost >= max(coach.MIN_COST, coach.NOISE * m.error)
            assert m.text.startswith(f"-{m.cost:.0f} ±{m.error:.0f}")
            assert f" your turn {m.own_turn}: you " in m.text and 1 <= m.own_turn <= m.view.turn_number // 4 + 1
        found += mistakes
    assert found, "a Beginner's hands hold no choice the Expert finds costly"


def _rigged(gains: dict[str, float], check: dict[str, float] | None = None) -> object:
    """sample_values where a candidate whose action's text is in ``gains`` is worth that much more
    than the others in each of 40 deals (noise shared by all: a standard error of 0); ``check``, when
    given, replaces ``gains`` in the review's second look (an Expert seeded CHECK_SEED apart)."""
    def values(self: ExpertPlayer, v: PlayerView, cands: list[tuple[Action, object]]) -> list[list[float]]:
        rng = random.Random(7)
        common = [rng.gauss(0, 80) for _ in range(40)]
        table = check if check is not None and self.seed >= coach.CHECK_SEED else gains
        return [[x + table.get(str(a), 0.0) for x in common] for a, _ in cands]
    return values


def _discard_position() -> tuple[PlayerView, Action, Action]:
    """A discard, the rules of thumb's choice (``base``) and another discard (``other``)."""
    from canasta_tui.ai.heuristic import decide

    s = position({0: "3c 5h 9d Qs Kc"}, melds={0: ["Jc Jd Jh"]})
    v = view_for(s, 0)
    ex = ExpertPlayer(0, aggression=0)
    base = decide(v, ex.style, ex.memory)
    other = next(a for a in v.legal if a.kind == A.DISCARD and a != base and a.card != s.hands[0][0])
    return v, base, other


def test_a_choice_the_rules_of_thumb_made_is_questioned_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33: "The review never questions a move that matches the rules of thumb"; it "questions
    every decision whose cost by the search is clear, including those the rules of thumb would have
    made".  The player made the rules of thumb's discard; another discard is 60 points better in
    every deal: it is listed, 60 points, with the better discard."""
    v, base, other = _discard_position()
    monkeypatch.setattr(ExpertPlayer, "sample_values", _rigged({str(other): 60.0}))
    got = review([Decision(v, base)], 0, QUICK)
    assert [(m.played, m.better) for m in got] == [(base, other)]
    assert got[0].cost == pytest.approx(60.0) and got[0].error == pytest.approx(0.0)
    # The other way round (the player's discard is the better one): nothing to say.
    assert review([Decision(v, other)], 0, QUICK) == []


@pytest.mark.parametrize(("gap", "listed"), [(25.0, False), (35.0, True)])
def test_a_cost_is_listed_down_to_thirty_points(monkeypatch: pytest.MonkeyPatch, gap: float, listed: bool) -> None:
    """Issue 33: "errors under about 80 points are not reported at its budget"; the review reports
    them "down to 30 points where the evidence holds it" (here it holds: no noise between choices)."""
    v, base, other = _discard_position()
    monkeypatch.setattr(ExpertPlayer, "sample_values", _rigged({str(other): gap}))
    got = review([Decision(v, base)], 0, QUICK)
    assert bool(got) == listed and coach.MIN_COST == 30.0
    if listed:
        assert got[0].cost == pytest.approx(gap)


def test_the_cost_is_measured_again_in_fresh_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """The best of many candidates is flattered by the deals it was found in: the cost the review
    reports is the second look's, in deals of their own.  Found 80 points better, checked 5 better:
    no mistake; checked 45 better: 45 points."""
    v, base, other = _discard_position()
    monkeypatch.setattr(ExpertPlayer, "sample_values", _rigged({str(other): 80.0}, {str(other): 5.0}))
    assert review([Decision(v, base)], 0, QUICK) == []
    monkeypatch.setattr(ExpertPlayer, "sample_values", _rigged({str(other): 80.0}, {str(other): 45.0}))
    assert [round(m.cost) for m in review([Decision(v, base)], 0, QUICK)] == [45]


def test_the_review_weighs_every_discard_and_every_way_of_taking_the_pile() -> None:
    """More than the Expert weighs in a move: one discard of each rank in hand, and at the draw every
    way of taking the pile as well as drawing."""
    v, base, _ = _discard_position()
    cands = [a for a, _ in coach.review_candidates(v, base, ExpertPlayer(0, aggression=0))]
    from canasta_tui.engine.cards import RANK_OF
    assert {RANK_OF[a.card] for a in cands if a.kind == A.DISCARD} == {RANK_OF[c] for c in v.hand}
    s = position({0: "Kc Kd 2c Jh 9s 4d"}, pile="5c 9d Kh", phase=Phase.DRAW, drew="", melds={0: ["Qh Qd Qc"]})
    w = view_for(s, 0)
    got = {a for a, _ in coach.review_candidates(w, A.A_DRAW, ExpertPlayer(0, aggression=0))}
    assert {a for a in w.legal if a.kind in (A.DRAW, A.PILE)} <= got and len(got) >= 3


def _fake_values(gap: float, spread: float) -> object:
    """sample_values giving the first candidate ``gap`` points more than every other one in 40
    sampled deals, the others off by +-``spread`` in turn (a standard error of spread / sqrt(40))."""
    def values(self: ExpertPlayer, v: PlayerView, cands: list[tuple[Action, object]]) -> list[list[float]]:
        rng = random.Random(1)
        common = [rng.gauss(0, 50) for _ in range(40)]
        return [[x + (gap if j == 0 else (spread if i % 2 else -spread)) for i, x in enumerate(common)]
                for j in range(len(cands))]
    return values


@pytest.mark.parametrize(("gap", "spread", "listed"), [(60.0, 5.0, True), (4.0, 1.0, False), (30.0, 200.0, False)])
def test_a_difference_within_the_noise_is_not_a_mistake(monkeypatch: pytest.MonkeyPatch, gap: float, spread: float,
                                                        listed: bool) -> None:
    """A choice is listed only when it cost more than MIN_COST points and NOISE standard errors."""
    monkeypatch.setattr(ExpertPlayer, "sample_values", _fake_values(gap, spread))
    s = position({0: "3c 5h 9d Qs Kc"}, melds={0: ["Jc Jd Jh"]})
    v = view_for(s, 0)
    ex = ExpertPlayer(0, aggression=0)
    from canasta_tui.ai.heuristic import decide
    base = decide(v, ex.style, ex.memory)
    other = next(a for a in v.legal if a.kind == A.DISCARD and a != base)
    got = review([Decision(v, other)], 0, QUICK)
    assert bool(got) == listed
    if listed:
        assert got[0].better == base and got[0].played == other and got[0].cost == pytest.approx(gap, abs=10)


def test_the_review_weighs_the_draw_as_the_expert_plays_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The review judges a draw by the Expert's samples alone, as the Expert plays it: a pile the
    samples put 30 points below drawing is the worse choice, by those 30 points (nothing is added
    back for the pile since the samples deal the stock in random order)."""
    def values(self: ExpertPlayer, v: PlayerView, cands: list[tuple[Action, object]]) -> list[list[float]]:
        return [[100.0 - (30.0 if a.kind == A.PILE else 0.0) + d for d in (0.0, 1.0, -1.0, 0.5)] for a, _ in cands]
    monkeypatch.setattr(ExpertPlayer, "sample_values", values)
    s = position({0: "Kc Kd 2c Jh 9s 4d"}, pile="5c 9d Kh", phase=Phase.DRAW, drew="", melds={0: ["Qh Qd Qc"]})
    v = view_for(s, 0)
    pile = next(a for a in v.legal if a.kind == A.PILE)
    got = review([Decision(v, A.A_DRAW), Decision(v, pile)], 0, QUICK)
    assert [(m.played, m.better) for m in got] == [(pile, A.A_DRAW)]
    assert got[0].cost == pytest.approx(30.0)


# ---------------------------------------------------------------------- no peeking


def test_permuting_the_hidden_cards_changes_neither_hint_nor_review() -> None:
    """The computer players' permutation check (test_fair_and_robust): re-deal the cards the player
    cannot see; with the work-counted Expert and a fixed seed, the hint and the review are the same."""
    checked = 0
    for seed in range(4):
        for steps in (3, 14, 35):
            s = midgame(seed, steps)
            if s.phase == Phase.HAND_OVER:
                continue
            seat = s.actor
            other = permute_hidden(s, seat, random.Random(seed * 31 + steps))
            assert other.hands != s.hands or other.deck != s.deck
            v1, v2 = view_for(s, seat), view_for(other, seat)
            assert hint(v1, 4, QUICK) == hint(v2, 4, QUICK)
            wrong = [a for a in v1.legal if a != hint(v1, 4, QUICK).action][:1]
            for a in wrong:
                assert review([Decision(v1, a)], 4, QUICK) == review([Decision(v2, a)], 4, QUICK)
            checked += 1
    assert checked >= 10
    # A move of several actions (a meld, then a discard the Expert would not make): each action is
    # a decision judged in the position the table says it is played in, the same for both deals.
    moves = 0
    judged: list[int] = []
    for seed in range(6):
        for steps in range(3, 60, 3):
            s = midgame(seed, steps)
            v = view_for(s, s.actor)
            melds = [a for a in v.legal if a.kind in (A.MELD, A.ADD)]
            if s.phase != Phase.MELD or not melds or moves >= 4:
                continue
            seat = s.actor
            other = permute_hidden(s, seat, random.Random(seed * 17 + steps))
            assert other.hands != s.hands or other.deck != s.deck
            after = view_for(apply(s, melds[0]), seat)
            discard = [a for a in after.legal if a.kind == A.DISCARD and a != hint(after, 4, QUICK).action][-1]
            move = [melds[0], discard]
            d1, d2 = (tuple(Decision(w, a) for w, a in zip(table_at(x).views_along(seat, move), move, strict=True))
                      for x in (s, other))
            assert d1 == d2 and [d.view for d in d1] == [v, after]
            got = review(d1, 4, QUICK)
            assert got == review(d2, 4, QUICK)
            judged += [m.at for m in got]
            moves += 1
    assert moves == 4 and 1 in judged         # a second action of a move was among the mistakes


def table_at(s: GameState) -> Table:
    """A table whose game is at position ``s`` (the review's decisions come from the table)."""
    t = Table(CLASSIC, seats_for(1, "beginner"), 0)
    t.match = t.match._replace(state=s)
    return t


def test_in_bolivia_a_side_without_its_escalera_is_not_close_to_going_out() -> None:
    """Bolivia: "At least one of the two canastas must be a sequence canasta" (an escalera)
    before a side may go out.  Two canastas of groups and two cards in hand do not make the other
    side close; with an escalera they do."""
    groups = ["Kh Kd Kc Ks Kh Kd Kc", "Qh Qd Qc Qs Qh Qd Qc"]
    escalera = ["seq 4h 5h 6h 7h 8h 9h 10h", "Qh Qd Qc Qs Qh Qd Qc"]
    for theirs, close in ((groups, False), (escalera, True)):
        s = variant_position({0: "5c 6d 8s Jc Jd", 1: "9c 9d", 3: "4c 4d"}, rules=BOLIVIA, melds={1: theirs})
        v = view_for(s, 0)
        assert coach._others_close(v) is close


def test_in_bolivia_the_answer_names_the_missing_escalera() -> None:
    s = variant_position({0: "5c 6d", 2: "8s Jc Jd"}, rules=BOLIVIA, phase=Phase.PERMISSION,
                         melds={0: ["Kh Kd Kc Ks Kh Kd Kc", "Qh Qd Qc Qs Qh Qd Qc"]})
    v = view_for(s, s.actor)
    assert coach._answer_reason(A.A_NO, v) == "your side still needs an escalera (a sequence canasta) to go out"


def test_a_meld_toward_the_initial_meld_says_what_it_counts() -> None:
    """RULES.md "Initial meld": "the first meld of a side must count at least 50 points" (here,
    with 0 on the score).  The reason counts the meld's own cards: 5 5 Joker is 60 points and
    makes it; 5 5 5 is 15 and does not."""
    s = position({0: "5c 5h 5d 9s Kd 2c JK"}, melds={1: ["8c 8d 8h"]})
    s = s._replace(has_melded=(False, True, False, True), t=s.t._replace(opened_at_start=False, melded_before=False))
    v = view_for(s, 0)
    assert v.meld_needed == 50 and v.meld_count == 0
    assert coach.reason(A.meld(5, 5, 14), v) == "it makes your initial meld: 60 points of the 50 needed"
    assert coach.reason(A.meld(5, 5, 5), v) == "it brings your initial meld to 15 of the 50 points it needs"


@pytest.mark.parametrize(("hand", "melds", "said"), [
    ("7h 9c 10s Jh", ["7c 7s 7h"], "the 7♦ goes onto your Sevens, and 2 cards come with it"),
    ("7h 7s 9c 10s Jh", ["Qc Qd Qh"], "your pair of Sevens melds the 7♦, and 2 cards come with it"),
    ("Ah 9c 10s Jh 2c", ["Qc Qd Qh"], "an Ace and a wild card meld the A♦, and 2 cards come with it"),
])
def test_a_pile_with_nothing_in_it_says_how_the_upcard_is_melded(hand: str, melds: list[str], said: str) -> None:
    """RULES.md "Draw or take the pile": the player "must meld the upcard", onto the side's meld
    or with a natural pair (a natural card and a wild card, when the pile is not frozen); the
    reason says which, and what comes with it, where "it holds 3 cards" said nothing."""
    from canasta_tui.engine.cards import parse_card

    up = "Ad" if said.startswith("an Ace") else "7d"
    s = position({0: hand}, melds={0: melds, 1: ["8c 8d 8h"]}, phase=Phase.DRAW)
    s = s._replace(pile=tuple(int(parse_card(x)) for x in ("4c", "9d", up)))
    v = view_for(s, 0)
    takes = [a for a in v.legal if a.kind == A.PILE]
    assert takes
    assert coach.reason(takes[-1], v) == said


def test_a_pile_toward_the_initial_meld_says_how_the_upcard_is_melded() -> None:
    """RULES.md "Initial meld": until its side has melded, a player takes the pile only with a
    natural pair of the upcard's rank, and the upcard counts toward the initial meld."""
    from canasta_tui.engine.cards import parse_card

    s = position({0: "Kh Ks Qc Qd Qh 9c 4d"}, melds={1: ["8c 8d 8h"]}, phase=Phase.DRAW)
    s = s._replace(has_melded=(False, True, False, True), t=s.t._replace(opened_at_start=False, melded_before=False),
                   pile=tuple(int(parse_card(x)) for x in ("4c", "9d", "Kd")))
    v = view_for(s, 0)
    takes = [a for a in v.legal if a.kind == A.PILE]
    assert takes and v.meld_needed == 50
    assert coach.reason(takes[0], v) == "your pair of Kings melds the K♦, toward your initial meld of 50"
    assert coach.reasons(takes[0], v)[1] == "your pair of Kings melds the K♦"   # a hint line too short for it all


SAMBA = load_rules("samba")


def test_adding_to_a_sequence_counts_that_sequences_cards() -> None:
    """Samba (RULES.md "Sequences"): a sequence of seven cards of one suit is a samba.  With
    6♥ to 10♥ down, the J♥ makes six cards: one more makes the samba.  The reason counted the
    added card alone ("6 more cards make a canasta"); it names the samba (Bolivia: the escalera)."""
    s = variant_position({0: "Jh 5d 6c Kd"}, rules=SAMBA, melds={0: ["seq 6h 7h 8h 9h 10h"], 1: ["Qc Qd Qs"]})
    v = view_for(s, 0)
    add = next(a for a in v.legal if a.kind == A.ADD and a.is_sequence)
    assert coach.reason(add, v) == "1 more card makes a samba"
    bolivia = variant_position({0: "Jh 5d 6c Kd"}, rules=BOLIVIA, melds={0: ["seq 6h 7h 8h 9h 10h"], 1: ["Qc Qd Qs"]})
    v = view_for(bolivia, 0)
    add = next(a for a in v.legal if a.kind == A.ADD and a.is_sequence)
    assert coach.reason(add, v) == "1 more card makes an escalera"


def test_in_samba_a_card_of_a_rank_with_a_canasta_counts_toward_the_open_meld() -> None:
    """Samba: "A side may have two canastas in the same rank"; a King goes onto the open meld of
    Kings beside the finished canasta, and the reason counts that meld, not the canasta."""
    s = variant_position({0: "Kh 5d 6c 9s"}, rules=SAMBA,
                         melds={0: ["Kc Kd Ks Kh Kc Kd Ks", "Ks Kc Kd"], 1: ["Qc Qd Qs"]})
    v = view_for(s, 0)
    add = next(a for a in v.legal if a.kind == A.ADD)
    assert coach.reason(add, v) == "3 more cards make a canasta"


def test_a_review_says_why_a_discard_gave_the_pile_away() -> None:
    """RULES.md "Draw or take the pile": a player may take the pile by melding its upcard onto their
    side's meld of its rank.  A Five discarded where a Nine was better gave the next side, with
    Fives down, the pile; the review says so, and otherwise gives the reason for the better move."""
    s = position({0: "5d 9c Kh"}, melds={0: ["5c 5h 5s"], 1: ["5c 5d 5h"]}, pile="4c 7d 8h 9s")
    v = view_for(s, 0)
    five = next(a for a in v.legal if a.kind == A.DISCARD and a.card == s.hands[0][0])
    nine = next(a for a in v.legal if a.kind == A.DISCARD and a.card == s.hands[0][1])
    m = Mistake(0, v, five, nine, 120.0, 20.0)
    assert m.why == "the next side has Fives down: the pile (5 cards) was theirs to take"
    # Against a meld, what the meld does is the lesson (not the discard that came instead of it).
    onto = A.add(5)
    assert Mistake(0, v, five, onto, 120.0, 20.0).why == coach.reason(onto, v) == "3 more cards make a canasta"
    assert Mistake(0, v, nine, five, 120.0, 20.0).why == coach.reason(five, v)


@pytest.mark.parametrize(("hand", "under", "said"), [
    ("10h 4c 7s 8d 9c", "4d", "the pile takes a natural pair of Tens (frozen for you)"),
    ("10h 10s 4c 7s 8d", "4d", "the upcard does not make your initial meld of 50"),
    # Frozen by a wild card too: the pair is held, so the initial meld is what is short.
    ("10h 10s 4c 7s 8d", "2d", "the upcard does not make your initial meld of 50"),
    ("10h 4c 7s 8d 9c", "2d", "the pile is frozen: it takes a natural pair of Tens"),
])
def test_a_pile_frozen_until_the_initial_meld_says_what_taking_it_needs(hand: str, under: str, said: str) -> None:
    """RULES.md "The frozen pile": "Until your side has made its initial meld, the pile is frozen
    for you": taking it needs a natural pair of the upcard's rank, and then the initial meld."""
    from canasta_tui.engine.cards import parse_card

    s = position({0: hand}, melds={1: ["8c 8d 8h"]}, phase=Phase.DRAW)
    s = s._replace(has_melded=(False, True, False, True), t=s.t._replace(opened_at_start=False, melded_before=False),
                   pile=tuple(int(parse_card(x)) for x in (under, "10d")), frozen=under == "2d")
    v = view_for(s, 0)
    assert not any(a.kind == A.PILE for a in v.legal)
    assert coach.reason(A.A_DRAW, v) == said
    # It fits the hint line even with the longest rank names (else the hint says something vaguer).
    assert len(f"{coach.todo(A.A_DRAW, v)}: {said.replace('Tens', 'Queens')}") <= coach.LINE


def test_a_pile_held_back_by_the_last_card_says_so() -> None:
    """RULES.md "Going out": a player may not take the pile and be left with no card to discard
    unless the side can go out; holding the pair, that (not the pair) is why the hint draws."""
    from canasta_tui.engine.cards import parse_card

    s = position({0: "10h 10s"}, melds={0: ["8c 8d 8h"]}, phase=Phase.DRAW)
    s = s._replace(pile=(int(parse_card("10d")),))
    v = view_for(s, 0)
    assert not any(a.kind == A.PILE for a in v.legal)
    said = coach.reason(A.A_DRAW, v)
    assert said == "taking the pile would leave you no card to discard"
    assert len(f"{coach.todo(A.A_DRAW, v)}: {said}") <= coach.LINE


def test_a_discard_the_next_player_let_go_says_so() -> None:
    """DOS "Strategy": "Build up a hand of pairs": a player keeps pairs to take the pile, so a rank
    it discarded since the pile was last taken (the pile holds the discards in turn order) is one
    it holds no pair of.  The Jack on the pile is the next player's discard; the Nine is not."""
    s = position({0: "Jd 9c Kd Kh 4c 4d"}, melds={1: ["Ah Ad As"]})
    s = s._replace(pile=tuple(int(c) for c in parse_cards("9s 9h 5s Jh 6h 8c")))  # bottom first
    v = view_for(s, 0)
    jack, nine = (A.discard(int(c)) for c in parse_cards("Jd 9c"))
    # The next side has melded and the pile is open: a Jack and a wild card would take it, which the
    # pile does not rule out (issue 33: "it asks whether the next player holds a pair, when one
    # natural card and a wild card take it too"), so the hint claims no more than the pile shows.
    assert coach.reason(jack, v) == "the next player let Jacks go: a pair of them is unlikely"
    assert "let" not in coach.reason(nine, v)
    assert len(f"Discard the J♦: {coach.reason(jack, v)}") <= 78  # the hint line
    # Frozen, the pile takes a natural pair, which the next player does not keep.
    frozen = view_for(s._replace(frozen=True), 0)
    assert coach.reason(jack, frozen) == "the next player let Jacks go: no pair to take the pile"


def test_copies_in_the_pile_are_never_called_safety() -> None:
    """Issue 33: "copies of the rank already in the pile count as making the card *safer*, so it
    threw a third 8 onto two 8s".  Four Eights in sight (three melded, one in hand) make a pair
    unlikely; two more in the pile are what the taker would gain, and the reason no longer says so."""
    hand = {0: "8d 5h 9c Kd Kh Ks"}
    melds = {0: ["8c 8s 8h"]}
    eight = A.discard(int(parse_cards("8d")[0]))
    clean = view_for(position(hand, melds=melds, pile="4c 7d 6h 9s"), 0)
    assert coach.reason(eight, clean) == "4 of the 8 Eights are in sight: a pair for it is unlikely"
    # (the Eights lie under the next player's discard, the Four: nobody's reading says it let them go)
    piled = view_for(position(hand, melds=melds)._replace(pile=tuple(int(c) for c in parse_cards("8c 8s 4c 7h 9s"))), 0)
    assert "in sight" not in coach.reason(eight, piled) and "unlikely" not in coach.reason(eight, piled)
    assert coach.reason(eight, piled) == "the next side has no Eights down"


def test_a_singleton_is_said_to_be_one() -> None:
    """The old fallback said a card "helps you least", which nothing checked; what the view shows is
    said instead: the next side has none down, and it is the only one in hand."""
    s = position({0: "7d 5h 9c Kd Kh Ks"}, melds={1: ["Ah Ad As"]}, pile="4c 10d 6h 9s")
    v = view_for(s, 0)
    assert coach.reason(A.discard(int(parse_cards("7d")[0])), v) == \
        "the next side has no Sevens down, and it is your only Seven"
    assert coach.reason(A.discard(int(parse_cards("Kd")[0])), v) == "the next side has no Kings down"
