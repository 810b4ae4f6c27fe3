"""Scenario tests: red threes (DOS manual, Chapter 2, "Red Threes" and "Scoring")."""

from __future__ import annotations

from positions import cards, position, run, why

from canasta_tui.engine import CLASSIC, Phase, score_hand


def test_a_red_three_drawn_from_the_stock_is_laid_out_with_a_replacement() -> None:
    """"A player who draws a red Three from the stock must immediately place it face up on
    the table and draw a replacement card from the stock." """
    s = position({0: "Kh Kd 7c"}, phase=Phase.DRAW, pile="5c", stock="3h 3d 9c 4s")
    s = run(s, "draw")
    assert s.red_threes[0] == cards("3h 3d")
    assert s.hands[0] == tuple(sorted(cards("Kh Kd 7c 9c")))
    assert s.stock_size == 1


def test_a_red_three_in_a_taken_pile_is_laid_out_without_replacement() -> None:
    """"A player who takes the discard pile and finds a red Three in it must place the red
    Three face up on the table, but does not draw a replacement card." """
    s = position({0: "Qh Qd 7c 8c"}, phase=Phase.DRAW, melds={0: ["Kh Kc Ks"]},
                  pile="3h 9s Qs", frozen=True, stock="4s 5s")
    s = run(s, "pile Q Q")
    assert s.red_threes[0] == cards("3h")
    assert s.hands[0] == tuple(sorted(cards("7c 8c 9s")))
    assert s.stock_size == 2  # no replacement drawn
    assert not s.frozen  # "Once the pile is taken, it is no longer frozen."


def test_red_threes_are_never_discarded_or_melded() -> None:
    """Red threes are bonus cards, laid out on the table: "Red Threes are bonus cards
    counting for or against the side to which they belong." """
    s = position({0: "Kh Kd 7c"}, red_threes={0: "3h"})
    assert why(s, "discard 3h") == "Red threes are laid out, never discarded"
    assert why(s, "meld 3 3 3") == "You hold 0 black three(s)"


def test_red_three_bonus_100_each() -> None:
    """Scoring: "Red Threes (up to three)..... 100 points each"."""
    s = position({0: "7c", 1: "8c"}, melds={0: ["Kh Kd Kc"], 1: ["Qh Qd Qc"]},
                 red_threes={0: "3h", 2: "3d", 1: "3h"})
    s = s._replace(phase=Phase.HAND_OVER)
    us, them = score_hand(s)
    assert us.red_threes == 2 and us.red_three_points == 200
    assert them.red_threes == 1 and them.red_three_points == 100
    # melds 30, red threes 200, hand -5
    assert us.total == 30 + 200 - 5
    assert them.total == 30 + 100 - 10


def test_all_four_red_threes_score_800() -> None:
    """"Red Threes (all four)........ 200 points each": 800 for the four."""
    s = position({0: "7c"}, melds={0: ["Kh Kd Kc"]}, red_threes={0: "3h 3d", 2: "3h 3d"})
    s = s._replace(phase=Phase.HAND_OVER)
    us, them = score_hand(s)
    assert us.red_three_points == 800
    assert us.total == 30 + 800 - 5
    assert them.red_three_points == 0


def test_red_threes_count_against_a_side_that_made_no_meld() -> None:
    """"Red Threes are bonus cards counting for or against the side to which they belong";
    "If a partnership has not satisfied the initial meld requirement, any melded red Threes
    are penalized" (Hoyle: -100 each, the 200 being the swing from +100 to -100)."""
    s = position({0: "7c", 1: "8c"}, melds={0: ["Kh Kd Kc"]}, red_threes={1: "3h", 3: "3d"})
    s = s._replace(phase=Phase.HAND_OVER)
    us, them = score_hand(s)
    assert them.red_three_points == -200
    assert them.total == -200 - 10
    assert us.total == 30 - 5


def test_all_four_red_threes_without_a_meld_cost_800() -> None:
    """Hoyle: all four red threes count -800 for a side that made no meld."""
    s = position({0: "7c", 1: "8c"}, red_threes={1: "3h 3d", 3: "3h 3d"})
    s = s._replace(phase=Phase.HAND_OVER)
    _, them = score_hand(s)
    assert them.red_three_points == -800
    assert them.total == -800 - 10


def test_red_three_penalty_amount_is_a_rule_option() -> None:
    """Rule option ``red_three_penalty`` / ``red_three_all_four_penalty`` (the DOS manual's
    "penalized 200 points each" read literally)."""
    rules = CLASSIC.replace(red_three_penalty=200, red_three_all_four_penalty=1600)
    s = position({0: "7c", 1: "8c"}, rules=rules, red_threes={1: "3h"})
    s = s._replace(phase=Phase.HAND_OVER)
    assert score_hand(s)[1].red_three_points == -200
    s4 = position({0: "7c", 1: "8c"}, rules=rules, red_threes={1: "3h 3d", 3: "3h 3d"})._replace(phase=Phase.HAND_OVER)
    assert score_hand(s4)[1].red_three_points == -1600
