"""Scoring a hand: card values, bonuses, minus the cards left in the hands.

DOS manual, "Scoring": "each partnership counts the points contained in their melds,
adds any earned bonuses and deducts any penalties or un-played cards."
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from .cards import IS_BLACK_THREE, IS_RED_THREE, VALUE
from .melds import Meld
from .rules import Rules
from .state import BLACK_THREE_IN_HAND, RED_THREE_IN_HAND, GameState, Penalty, team_seats

if TYPE_CHECKING:
    from .view import PlayerView

#: DOS "Irregularities": "Failure to Declare a Red Three: If at the end of play a hand is
#: found to contain a red Three, the side is penalized 200 points for each red Three found."
RED_THREE_IN_HAND_PENALTY = 200



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
    hand: int             # value of cards left in the hands (subtracted; red threes are penalties)
    penalties: int        # the sum of penalty_items
    total: int
    penalty_items: tuple[tuple[str, int], ...] = ()  # (reason, points) of every penalty, in order
    sequence_canastas: int = 0  # sambas (escaleras): sequences of seven (Samba, Bolivia)

    def lines(self) -> list[tuple[str, int]]:
        """The scoring summary's column: the items, the penalties' sum (each one is named in
        ``penalty_items``), and the total."""
        out = [("Melded cards", self.melds), ("Canasta bonuses", self.canasta_bonus),
               ("Red threes", self.red_three_points), ("Going out", self.going_out),
               ("Cards in hand", -self.hand)]
        if self.penalty_items:
            out.append(("Penalties", -self.penalties))
        out.append(("Total", self.total))
        return out

    def penalty_text(self) -> list[str]:
        """Every penalty in words, for a log or a message: "did not go out after 'yes': -100"."""
        return [f"{reason}: -{points}" for reason, points in self.penalty_items]


def canasta_bonus(m: Meld, rules: Rules) -> int:
    """The bonus a meld earns: none until it is a canasta; then wild, natural or mixed."""
    if not m.is_canasta:
        return 0
    if m.is_wild_meld:
        return rules.wild_canasta_bonus
    if m.is_sequence:
        return rules.sequence_bonus
    return rules.natural_canasta_bonus if m.is_natural else rules.mixed_canasta_bonus


def red_three_points(count: int, melded: bool, rules: Rules) -> int:
    """A side's red threes: a bonus once it has melded; against it if it has made no meld
    (Hoyle, and the DOS manual's "penalized").  "All four" is all the red threes of the deck
    (six with three packs: Bicycle, Samba, "unless one side holds all six")."""
    every = count == rules.red_threes_in_deck
    if melded:
        return rules.red_three_all_four_bonus if every else count * rules.red_three_bonus
    return -(rules.red_three_all_four_penalty if every else count * rules.red_three_penalty)


def score_hand(s: GameState) -> tuple[TeamScore, ...]:
    """The score of every side for the hand in ``s`` (normally a finished hand)."""
    rules = s.rules
    return tuple(_side(rules, tm, s.melds[tm], s.red_threes, s.hands, s.penalty_log, s.penalties[tm],
                       s.went_out, s.concealed, s.is_over) for tm in range(rules.teams))


def score_so_far(v: PlayerView) -> tuple[tuple[TeamScore, ...], tuple[int, ...]]:
    """What each side would score if the hand ended now, as far as ``v``'s seat can know it:
    the melds, canasta bonuses, red threes and penalties of both sides, less the cards in its
    own hand; the other hands are not seen, so they count nothing here and the number of their
    cards is returned per side (Score during a hand)."""
    rules = v.rules
    hands = tuple(v.hand if p == v.seat else () for p in range(rules.players))
    scores = tuple(_side(rules, tm, v.melds[tm], v.red_threes, hands, v.penalty_log, v.penalties[tm], -1,
                         False, False) for tm in range(rules.teams))
    unseen = tuple(sum(v.hand_sizes[p] for p in team_seats(tm, rules) if p != v.seat) for tm in range(rules.teams))
    return scores, unseen


def _side(rules: Rules, tm: int, melds: Sequence[Meld | None], red_threes: Sequence[Sequence[int]],
          hands: Sequence[Sequence[int]], penalty_log: Sequence[Penalty], penalties: int, went_out: int,
          concealed: bool, over: bool) -> TeamScore:
    seats = team_seats(tm, rules)
    row = [m for m in melds if m is not None]
    meld_points = sum(m.points for m in row)
    seq = sum(1 for m in row if m.is_canasta and m.is_sequence)
    nat = sum(1 for m in row if m.is_canasta and m.is_natural) - seq
    wild = sum(1 for m in row if m.is_canasta and m.is_wild_meld)
    mixed = sum(1 for m in row if m.is_canasta) - nat - wild - seq
    bonus = sum(canasta_bonus(m, rules) for m in row)
    threes = sum(len(red_threes[p]) for p in seats)
    # Samba, Bolivia: red threes count for the side only once it has the canastas to go out
    # (Bolivian Canasta: "They count plus if partnership has melded two canastas of any kind,
    # otherwise they are negative").
    counts_plus = nat + mixed + wild + seq >= rules.canastas_to_go_out if rules.red_three_needs_canastas else bool(row)
    red = red_three_points(threes, counts_plus, rules)
    out_bonus = 0
    if went_out >= 0 and went_out in seats:
        out_bonus = rules.going_out_bonus + (rules.concealed_bonus if concealed else 0)
    held = [c for p in seats for c in hands[p]]
    # Bolivia: "A black three left in the hand ... counts minus 100 points" (a named penalty
    # in place of its card value).
    black_pen = rules.black_three_hand_penalty if over else 0
    hand = sum(VALUE[c] for c in held if not IS_RED_THREE[c] and not (black_pen and IS_BLACK_THREE[c]))
    items = [(p.reason, p.points) for p in penalty_log if p.team == tm]
    unnamed = penalties - sum(points for _, points in items)
    if unnamed:
        items.append(("penalties", unnamed))  # a position built without its penalty log
    if over:
        items += [(RED_THREE_IN_HAND, RED_THREE_IN_HAND_PENALTY) for c in held if IS_RED_THREE[c]]
        if black_pen:
            items += [(BLACK_THREE_IN_HAND, black_pen) for c in held if IS_BLACK_THREE[c]]
    if rules.canasta_required_for_positive_score and nat + mixed + wild + seq < rules.canastas_to_go_out:
        # Windows 2.41, "Total Score": without the canastas needed to go out "a negative
        # score results consisting of the sum of the values of the cards in your hand and
        # on the table": no canasta or going-out bonus, and the red threes on the table
        # count against the side at what they would have scored.
        meld_points, bonus, out_bonus, red = -meld_points, 0, 0, -abs(red)
    pen = sum(points for _, points in items)
    total = meld_points + bonus + red + out_bonus - hand - pen
    return TeamScore(tm, meld_points, nat, mixed, wild, bonus, threes, red, out_bonus, hand, pen, total, tuple(items),
                     seq)
