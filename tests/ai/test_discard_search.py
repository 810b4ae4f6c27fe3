"""The discards the Expert's search sees (issue 33: "discard candidates the search never sees").

The positions are the judge's (``canasta bench coach``, the set of seed 33 that ships with the game):
each was played out to the end of the hand in the same sampled deals for every choice, and its best
is clear.  In both the Expert of before made the judge's mistake because of its candidates, not its
search: the discard the judge prefers was never weighed, or two Kings were weighed as two choices
and halved the samples of each.
"""

from __future__ import annotations

import json

from canasta_tui.ai.expert import ExpertPlayer, best_discards, discard_candidates, ranked_discards, same_discard
from canasta_tui.ai.heuristic import TurnMemory, decide
from canasta_tui.bench.judge import Judged, shipped
from canasta_tui.engine import PlayerView
from canasta_tui.engine import actions as A
from canasta_tui.engine.cards import RANK_OF


def position(source: str) -> Judged:
    data = json.loads(shipped(33).read_text(encoding="utf-8"))
    return next(j for j in map(Judged.from_dict, data["positions"]) if j.source == source)


def firsts(v: PlayerView) -> list[A.Action]:
    player = ExpertPlayer(1, aggression=0, budget=0.1, deadline=False)
    player._new_hand(v)
    return [a for a, _ in player._candidates(v, decide(v, player.style, TurnMemory()))]


# The other side (2 and 4 cards left) has canastas of Nines and Tens; this side has none.  The rules
# of thumb lay off a King on the side's four Kings and would then throw the Queen; the judge's best is
# to throw a Ten now (the pair is dead: the other side's canasta holds the rest), 133 ± 43 points
# ahead of the lay-off.
ENDS_THE_TURN = "seed 33, hand 5, turn 40, seat 1 (Expert)"


def test_the_search_weighs_ending_the_turn_with_a_discard_against_a_lay_off() -> None:
    j = position(ENDS_THE_TURN)
    v = j.view
    assert decide(v, ExpertPlayer(1, aggression=0).style, TurnMemory()).kind == A.ADD
    ranks = {RANK_OF[a.card] for a in firsts(v) if a.kind == A.DISCARD}
    assert 10 in ranks


def test_the_expert_throws_the_dead_ten_the_judge_prefers() -> None:
    j = position(ENDS_THE_TURN)
    a = ExpertPlayer(1, aggression=0, budget=0.1, deadline=False).choose(j.view)
    assert j.chose_best(a), a


def test_one_discard_of_each_rank_is_searched_in_classic() -> None:
    """Two Kings in hand: one choice (suits do not count in classic Canasta), searched once."""
    j = position("seed 33, hand 9, turn 21, seat 2 (Advanced)")
    v = j.view
    assert sum(RANK_OF[c] == 13 for c in v.hand) == 2
    ds = [a for a in firsts(v) if a.kind == A.DISCARD]
    assert len(ds) >= 2
    assert len({RANK_OF[a.card] for a in ds}) == len(ds)


def test_same_discard_is_one_rank_in_classic_only() -> None:
    v = position(ENDS_THE_TURN).view
    tens = [a for a in v.legal if a.kind == A.DISCARD and RANK_OF[a.card] == 10]
    assert len(tens) == 2 and same_discard(v, tens[0], tens[1])
    assert len([a for _, a in ranked_discards(v, ExpertPlayer(1).style) if RANK_OF[a.card] == 10]) == 1


def test_the_hint_weighs_a_discard_the_rules_of_thumb_put_far_behind() -> None:
    """The judge's best, an Eight onto the other side's meld with one card in the pile, is 123 points
    behind the Ten by the rules of thumb: the Expert's move does not weigh it (its samples are too
    few for many rivals), the hint, at five times the work, does."""
    j = position("seed 33, hand 9, turn 21, seat 2 (Advanced)")
    v = j.view
    style = ExpertPlayer(1, aggression=0).style
    base = next(a for _, a in ranked_discards(v, style))
    assert 8 not in {RANK_OF[a.card] for a in discard_candidates(v, style, base)}
    assert 8 in {RANK_OF[d.action.card] for d in best_discards(v, 0.1, 1)}
