"""Scenario tests: scoring a hand and the match to 5000 (DOS manual, Chapter 2, "Scoring")."""

from __future__ import annotations

import pytest
from positions import position, run, stacked_deck

from canasta_tui.engine import (
    CLASSIC,
    CanastaError,
    HandRecord,
    Phase,
    deal,
    new_match,
    next_hand,
    play,
    score_hand,
)
from canasta_tui.engine.actions import parse_action
from canasta_tui.engine.cards import VALUE
from canasta_tui.engine.state import HandEnd


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
    # no penalty this hand: no penalty line (each penalty has its own, see the tests below)
    assert [label for label, _ in us.lines()] == ["Melded cards", "Canasta bonuses", "Red threes", "Going out",
                                                  "Cards in hand", "Total"]
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
    return m._replace(state=st, sheet=(HandRecord(1, 0, scores, totals, -1, HandEnd.WENT_OUT),))


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


def test_every_penalty_is_named_in_the_scoring_summary() -> None:
    """Issue 10, item 8: the asker was charged 100 and the summary said only "Penalties -100".
    DOS "Asking Permission": "Should the player not abide by the answer, a 100 point penalty
    is assessed"; Windows 2.41 rule 7: putting the pile back "carries a penalty of 50 points"."""
    pile_back = CLASSIC.replace(undo_pile_allowed=True)
    s = position({0: "Kh Kd Kc 9h 7d", 1: "5c 5d 6c"}, rules=pile_back, melds={0: ["Qh Qd Qc Qs Qh Qd Qc"]})
    s = run(s, "ask", "yes", "discard 9h")                                  # Player 1 keeps cards: -100
    assert s.penalties == (100, 0)
    assert [(p.team, p.points, p.reason) for p in s.penalty_log] == [(0, 100, "did not go out after 'yes'")]
    end = s._replace(phase=Phase.HAND_OVER, penalty_log=(*s.penalty_log, *s.penalty_log[:1]),
                     penalties=(200, 0))
    us = score_hand(end)[0]
    assert us.penalties == 200
    assert us.penalty_items == (("did not go out after 'yes'", 100), ("did not go out after 'yes'", 100))
    assert us.penalty_text() == ["did not go out after 'yes': -100", "did not go out after 'yes': -100"]
    assert us.lines()[-3:] == [("Cards in hand", -(30 + 5)), ("Penalties", -200), ("Total", us.total)]
    # the pile put back
    p = position({0: "Kh Kd Ac Ad Ah 7c 6c"}, rules=pile_back, phase=Phase.DRAW, pile="8h Ks", stock="4c 5c")
    back = run(p, "pile K K", "unpile")
    assert back.penalty_log[-1].reason == "put the pile back" and back.penalties == (50, 0)
    assert score_hand(back._replace(phase=Phase.HAND_OVER))[0].penalty_text() == ["put the pile back: -50"]


def test_a_red_three_left_in_a_hand_costs_200() -> None:
    """DOS "Irregularities": "Failure to Declare a Red Three: If at the end of play a hand is
    found to contain a red Three, the side is penalized 200 points for each red Three found."
    Player 1 goes out concealed at the first turn, before Player 2 has laid out the red
    three dealt to them: it counted as a 100-point card in hand."""
    deck = stacked_deck(["Kh Kd Kc Ks Kh Kd Kc 4c 4d 4h 4s", "3h 3d 5c 6c 7c 8c 9c 10c Jc Qc Ac"],
                        upcards="9h", stock="9d", dealer=3)
    s = run(deal(CLASSIC, deck, 3), "draw", "meld K K K", "add K", "add K", "add K", "add K", "meld 4 4 4",
            "add 4", "discard 9d")
    assert s.went_out == 0 and s.concealed and s.red_threes[1] == ()
    them = score_hand(s)[1]
    assert them.hand == 5 + 5 + 5 + 10 + 10 + 10 + 10 + 10 + 20 + sum(VALUE[c] for c in s.hands[3])
    assert them.penalty_items == (("red three left in hand", 200), ("red three left in hand", 200))
    assert them.penalties == 400 and them.red_threes == 0
    assert them.total == -them.hand - 400
    assert ("Penalties", -400) in them.lines()
    # in the middle of a hand nothing is charged yet (the owner lays it out at their first turn)
    assert score_hand(deal(CLASSIC, deck, 3))[1].penalties == 0


def test_without_the_canastas_needed_the_score_is_minus_everything() -> None:
    """Windows 2.41, "Total Score": with "Canasta required for positive score", a side
    without "the number of canastas as it is shown in the 'Canastas needed to go out'
    setting" scores "a negative score ... consisting of the sum of the values of the cards
    in your hand *and on the table*": the canasta bonus it kept before is gone, and its red
    threes count against it."""
    rules = CLASSIC.replace(canasta_required_for_positive_score=True, canastas_to_go_out=2)
    s = position({0: "7c", 2: "Kc"}, rules=rules, melds={0: ["Qh Qd Qc Qs Qh Qd Qc", "Ah Ad Ac"]},
                 red_threes={0: "3h"})
    us = score_hand(s._replace(phase=Phase.HAND_OVER))[0]
    assert (us.natural_canastas, us.canasta_bonus, us.going_out) == (1, 0, 0)
    assert us.melds == -(70 + 60) and us.red_three_points == -100 and us.hand == 15
    assert us.total == -(70 + 60) - 100 - 15
    two = position({0: "7c"}, rules=rules, melds={0: ["Qh Qd Qc Qs Qh Qd Qc", "Ah Ad Ac As Ah Ad Ac"]},
                   red_threes={0: "3h"})
    ok = score_hand(two._replace(phase=Phase.HAND_OVER))[0]
    assert ok.total == 70 + 140 + 1000 + 100 - 5


def test_a_version_1_save_scored_under_the_old_rules_still_loads() -> None:
    """Format 1 was written when a red three left in a hand counted as a 100-point card.  Its
    snapshot's totals then differ from today's replay: the game is loaded (with today's
    totals) instead of being refused, so no game is lost to the rule fix.  A format 2 save
    whose snapshot disagrees is still refused."""
    from canasta_tui.engine import new_match, record
    from canasta_tui.engine import play as play_match

    deck = stacked_deck(["Kh Kd Kc Ks Kh Kd Kc 4c 4d 4h 4s", "3h 3d 5c 6c 7c 8c 9c 10c Jc Qc Ac"],
                        upcards="9h", stock="9d", dealer=3)
    m = new_match(CLASSIC, deck, first_dealer=3)
    for a in ("draw", "meld K K K", "add K", "add K", "add K", "add K", "meld 4 4 4", "add 4", "discard 9d"):
        m = play_match(m, parse_action(a))
    data = record.to_dict(m)
    old = dict(data["snapshot"])
    old["scores"] = [old["scores"][0], old["scores"][1] + 400]    # the old scoring's total
    v1 = data | {"version": 1, "snapshot": old}
    assert record.from_dict(v1).scores == m.scores
    with pytest.raises(record.RecordError, match=r"snapshot disagrees .*\(scores\)"):
        record.from_dict(data | {"snapshot": old})
    hands = dict(old) | {"hands": ["Kh"] + old["hands"][1:]}
    with pytest.raises(record.RecordError, match=r"\(hands\)"):
        record.from_dict(data | {"version": 1, "snapshot": hands})
