"""Scenario tests: scoring a hand and the match to 5000 (DOS manual, Chapter 2, "Scoring")."""

from __future__ import annotations

import pytest
from positions import position, run, stacked_deck

from canasta_tui.engine import CLASSIC, CanastaError, HandRecord, Phase, new_match, next_hand, play, score_hand
from canasta_tui.engine.actions import parse_action
from canasta_tui.engine.cards import VALUE


def test_a_scored_hand_item_by_item() -> None:
    """"When a player goes out, each partnership counts the points contained in their melds,
    adds any earned bonuses and deducts any penalties or un-played cards." Values: "Jokers
    50, Deuces 20, Aces 20, K-8 10, 7-4 and black 3 5"; "Canasta (natural) 500, Canasta
    (mixed) 300, Red Threes (up to three) 100 points each, Melding out 100"."""
    s = position(
        {0: "8h 8d 8c 5s", 1: "JK 2c Ac 4d", 2: "Kc 7h", 3: "3s"},
        melds={0: ["Kh Kd Kc Ks Kh Kd Ks", "Ah Ad As 2d JK 2h 2s", "6c 6d 6h"], 1: ["Jh Jd Jc 2c"]},
        red_threes={0: "3h", 1: "3d", 3: "3h"},
    )
    out = run(s, "meld 8 8 8", "discard 5s")
    assert out.went_out == 0
    us, them = score_hand(out)
    # us: kings 7*10=70; aces 3*20=60 + 2d 20 + JK 50 + 2h 20 + 2s 20 = 170; sixes 15; eights 30
    assert us.melds == 70 + 170 + 15 + 30
    assert (us.natural_canastas, us.mixed_canastas, us.canasta_bonus) == (1, 1, 800)
    assert us.red_three_points == 100 and us.going_out == 100
    assert us.hand == 15  # partner holds Kc 7h
    assert us.total == 285 + 800 + 100 + 100 - 15 == 1270
    # them: jacks 30 + deuce 20 = 50; two red threes 200; hands JK 2c Ac 4d (50+20+20+5) and 3s (5)
    assert them.melds == 50 and them.red_three_points == 200 and them.hand == 100
    assert them.total == 50 + 200 - 100 == 150
    assert [label for label, _ in us.lines()] == ["Melded cards", "Canasta bonuses", "Red threes", "Going out",
                                                  "Cards in hand", "Penalties", "Total"]
    assert us.lines()[-1] == ("Total", 1270)


def test_minus_cards_in_hand_can_make_a_negative_hand() -> None:
    """"The value of all melded cards less any cards still remaining in the players hand plus
    all bonuses are added together": a side with no meld scores minus its hands."""
    s = position({0: "Kh Kd Kc", 1: "JK JK Ac", 3: "2c 3c 9d"}, melds={0: ["Qh Qd Qc Qs Qh Qd Qc"]})
    out = run(s, "meld K K K")
    them = score_hand(out)[1]
    assert them.total == -(50 + 50 + 20 + 20 + 5 + 10) == -155


def _match_at(totals: tuple[int, int]) -> object:
    m = new_match(CLASSIC, stacked_deck([]), 0)
    st = m.state._replace(phase=Phase.HAND_OVER)
    scores = score_hand(st)
    return m._replace(state=st, sheet=(HandRecord(1, 0, scores, totals, -1, "went out"),))


@pytest.mark.parametrize(("totals", "winner"), [
    ((5000, 4990), 0),      # "reach or exceed 5000 points wins"
    ((4990, 5010), 1),
    ((4995, 4990), None),   # nobody there yet
    ((5600, 5200), 0),      # "If both sides exceed 5000 points, the side with the higher score is the winner."
    ((5200, 6100), 1),
    ((5300, 5300), None),   # "If both sides are tied, a new hand is played to determine the winner."
])
def test_match_to_5000(totals: tuple[int, int], winner: int | None) -> None:
    """"The first partnership to reach or exceed 5000 points wins the game." """
    m = _match_at(totals)
    assert m.winner == winner  # type: ignore[attr-defined]
    assert m.needs_deal == (winner is None)  # type: ignore[attr-defined]


def test_the_dealer_rotates_and_the_requirement_follows_the_score() -> None:
    """Play goes clockwise and the deal passes to the left each hand; the next hand's initial
    meld requirement "depends on the accumulated score of the partnership at the beginning
    of the hand"."""
    m = _match_at((1600, -20))
    m2 = next_hand(m, stacked_deck([], dealer=1))  # type: ignore[arg-type]
    assert m2.state.dealer == 1 and m2.state.turn == 2
    assert m2.state.requirements == (90, 15)
    assert m2.hand_number == 2
    with pytest.raises(CanastaError, match="the current hand is not over"):
        next_hand(m2, stacked_deck([]))
    done = _match_at((5100, 10))
    with pytest.raises(CanastaError, match="the match is over"):
        next_hand(done, stacked_deck([]))  # type: ignore[arg-type]


def test_a_finished_hand_goes_on_the_score_sheet() -> None:
    """"... score sheet for every hand" (issue): the running totals add each hand's score."""
    deck = stacked_deck(["Kh Kd Kc Ks Kh Kd Kc Qh Qd Qc 5s"], upcards="9h", stock="Qs", dealer=3)
    m = new_match(CLASSIC, deck, 3)
    for text in ("draw", "meld K K K", "add K", "add K", "add K", "add K", "meld Q Q Q", "add Q", "discard 5s"):
        m = play(m, parse_action(text))
    assert m.state.phase == Phase.HAND_OVER and m.state.went_out == 0 and m.state.concealed
    rec = m.sheet[-1]
    partner_hand = sum(VALUE[c] for c in m.state.hands[2])
    assert rec.scores[0].hand == partner_hand > 0
    assert rec.scores[0].total == 70 + 40 + 500 + 200 - partner_hand
    assert m.scores == (rec.scores[0].total, rec.scores[1].total)
    assert m.log[0][-1] == parse_action("discard 5s")
