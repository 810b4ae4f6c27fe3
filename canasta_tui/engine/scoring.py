"""Scoring a hand: card values, bonuses, minus the cards left in the hands.

DOS manual, "Scoring": "each partnership counts the points contained in their melds,
adds any earned bonuses and deducts any penalties or un-played cards."
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import VALUE
from .melds import Meld
from .rules import Rules
from .state import GameState, team_seats


class TeamScore(NamedTuple):
    """One side's score for one hand, item by item (the scoring summary table)."""

    team: int
    melds: int            # face value of melded cards (negative if a canasta was required and missing)
    natural_canastas: int
    mixed_canastas: int
    wild_canastas: int
    canasta_bonus: int
    red_threes: int       # how many
    red_three_points: int  # bonus, or penalty when the side made no meld
    going_out: int        # going out bonus (including concealed)
    hand: int             # value of cards left in the hands (subtracted)
    penalties: int        # permission broken, pile put back
    total: int

    def lines(self) -> list[tuple[str, int]]:
        return [("Melded cards", self.melds), ("Canasta bonuses", self.canasta_bonus),
                ("Red threes", self.red_three_points), ("Going out", self.going_out),
                ("Cards in hand", -self.hand), ("Penalties", -self.penalties), ("Total", self.total)]


def canasta_bonus(m: Meld, rules: Rules) -> int:
    """The bonus a meld earns: none until it is a canasta; then wild, natural or mixed."""
    if not m.is_canasta:
        return 0
    if m.is_wild_meld:
        return rules.wild_canasta_bonus
    return rules.natural_canasta_bonus if m.is_natural else rules.mixed_canasta_bonus


def red_three_points(count: int, melded: bool, rules: Rules) -> int:
    """A side's red threes: a bonus once it has melded; against it if it has made no meld
    (Hoyle, and the DOS manual's "penalized")."""
    if melded:
        return rules.red_three_all_four_bonus if count == 4 else count * rules.red_three_bonus
    return -(rules.red_three_all_four_penalty if count == 4 else count * rules.red_three_penalty)


def score_hand(s: GameState) -> tuple[TeamScore, ...]:
    """The score of every side for the hand in ``s`` (normally a finished hand)."""
    rules = s.rules
    out = []
    for tm in range(rules.teams):
        seats = team_seats(tm, rules)
        row = [m for m in s.melds[tm] if m is not None]
        meld_points = sum(m.points for m in row)
        nat = sum(1 for m in row if m.is_canasta and m.is_natural)
        wild = sum(1 for m in row if m.is_canasta and m.is_wild_meld)
        mixed = sum(1 for m in row if m.is_canasta) - nat - wild
        bonus = sum(canasta_bonus(m, rules) for m in row)
        threes = sum(len(s.red_threes[p]) for p in seats)
        red = red_three_points(threes, bool(row), rules)
        out_bonus = 0
        if s.went_out >= 0 and s.went_out in seats:
            out_bonus = rules.going_out_bonus + (rules.concealed_bonus if s.concealed else 0)
        hand = sum(VALUE[c] for p in seats for c in s.hands[p])
        if rules.canasta_required_for_positive_score and nat + mixed + wild < rules.canastas_to_go_out:
            meld_points = -meld_points  # Windows: "their value will be deducted from the score"
        pen = s.penalties[tm]
        total = meld_points + bonus + red + out_bonus - hand - pen
        out.append(TeamScore(tm, meld_points, nat, mixed, wild, bonus, threes, red, out_bonus, hand, pen, total))
    return tuple(out)
