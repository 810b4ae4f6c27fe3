"""The computer players in Samba and Bolivia (issue 19): each test sets up a position and
checks one habit, naming the rule of play (the Bicycle texts, ``rules/README.md``, "Samba and
Bolivia") or the piece of advice it follows.  Every choice comes from ``view.legal``."""

from __future__ import annotations

import pytest

from canasta_tui.ai import make_player
from canasta_tui.ai import samba as S
from canasta_tui.ai.expert import evaluate
from canasta_tui.ai.heuristic import ADVANCED, BEGINNER, EXPERT, TurnMemory, decide, go_out_plan, opening_plan
from canasta_tui.engine import GameState, Phase, apply, parse_action, view_for
from canasta_tui.engine import actions as A
from canasta_tui.engine.melds import Meld
from canasta_tui.presets import load_rules

from .helpers import play_hand, variant_position

SAMBA = load_rules("samba")
BOLIVIA = load_rules("bolivia")
LEVELS = (BEGINNER, ADVANCED, EXPERT)


def choice(s: GameState, style: object = ADVANCED) -> str:
    v = view_for(s, s.actor)
    a = decide(v, style, TurnMemory())  # type: ignore[arg-type]
    assert a in v.legal
    return str(a)


def play_turn(s: GameState, style: object = ADVANCED, limit: int = 40) -> GameState:
    """Let ``style`` play seat 0's turn to its end (a discard, or going out)."""
    mem = TurnMemory()
    seat = s.turn
    for _ in range(limit):
        v = view_for(s, seat)
        a = decide(v, style, mem)  # type: ignore[arg-type]
        assert a in v.legal
        s = apply(s, a)
        if s.phase == Phase.HAND_OVER or s.turn != seat:
            return s
    raise AssertionError("the turn does not end")


# --------------------------------------------------------------------------- sequences

@pytest.mark.parametrize("style", LEVELS)
def test_melds_a_suited_run_of_three(style: object) -> None:
    """Samba: "Three or more cards of the same suit in sequence" make a meld, and a sequence of
    seven is a samba (1,500).  The upcard never starts or extends a sequence, so holding a run
    back catches no pile: every level melds it."""
    s = variant_position({0: "7h 8h 9h Kc 5d Qs 4c Jd"}, rules=SAMBA, melds={0: ["Ac Ad As"]})
    assert choice(s, style) == "meld 7h 8h 9h"


def test_completes_a_samba_before_anything_else() -> None:
    """Samba: "A sequence of seven is a samba" worth 1,500: the seventh card goes on first."""
    s = variant_position({0: "Jh Kc Kd 5d Qs 9c"}, rules=SAMBA, melds={0: ["seq 5h 6h 7h 8h 9h 10h", "Kh Ks Kc"]})
    assert choice(s) == "add Jh to 5h-10h"


def test_discards_a_lone_card_before_a_suited_pair() -> None:
    """Keep the start of a samba: two cards of a suit in order (7h 8h) stay in hand; a lone card
    goes.  A spare copy of a card (three packs) is no part of a run and may go."""
    s = variant_position({0: "7h 8h 4c 9s"}, rules=SAMBA, melds={0: ["Ac Ad As"]}, pile="5d")
    for style in LEVELS:
        assert choice(s, style) in ("discard 4c", "discard 9s")
    v = view_for(s, 0)
    assert S.run_strength(v, 0) == {int(parse_action("discard 7h").card): 2, int(parse_action("discard 8h").card): 2}
    spare = variant_position({0: "7h 7h 8h 9s"}, rules=SAMBA, melds={0: ["Ac Ad As"]})
    assert int(parse_action("discard 7h").card) not in S.run_strength(view_for(spare, 0), 0)


def test_keeps_cards_that_extend_a_sequence_on_the_table() -> None:
    """A card that goes onto the side's sequence is melded, not thrown away."""
    s = variant_position({0: "4h Kc Kd Qs 9c 5s"}, rules=SAMBA, melds={0: ["seq 5h 6h 7h"]})
    v = view_for(s, 0)
    assert S.run_strength(v, 0)[int(parse_action("discard 4h").card)] == 3
    assert choice(s) == "add 4h to 5h-7h"


# --------------------------------------------------------------------------- joins

def test_does_not_join_a_meld_short_of_a_canasta_onto_the_canasta() -> None:
    """Samba: the upcard goes only "to a meld that is less than a canasta"; joining the second
    meld of Kings onto the canasta scores nothing more and loses the meld the upcard goes to.
    A join is made only when it makes a canasta the side still needs."""
    s = variant_position({0: "5d 9c Qs Jd 4c"}, rules=SAMBA, melds={0: ["Kc Kd Ks Kh Kc Kd Ks", "Kh Kd Kc"]})
    v = view_for(s, 0)
    join = parse_action("join K")
    assert join in v.legal
    assert S.meld_score(v, join, 0, True, len(v.hand), 3) is not None
    assert S.meld_score(v, join, 0, True, len(v.hand), 3) <= 0  # type: ignore[operator]
    for style in LEVELS:
        assert choice(s, style) != "join K"


# --------------------------------------------------------------------------- the pile

def test_a_card_of_the_opponents_canasta_is_a_safer_discard_than_one_of_their_short_meld() -> None:
    """Samba: the upcard is taken "when it is not frozen, [by adding it] to a meld that is less
    than a canasta"; beside a canasta only a natural pair takes it.  So a King (their canasta)
    is a safer discard than a 9 (their meld of three)."""
    s = variant_position({0: "Kd 9d 5c 6h 10s"}, rules=SAMBA, pile="4c 8d",
                         melds={0: ["Ac Ad As"], 1: ["Kc Kd Ks Kh Kc Kd Ks", "9c 9h 9s"]})
    assert choice(s) == "discard Kd"
    assert choice(s, EXPERT) == "discard Kd"


# --------------------------------------------------------------------------- Bolivia's wild melds

def test_bolivia_melds_wild_cards_together_toward_a_bolivia() -> None:
    """Bolivia: wild cards may be melded alone, and seven make a bolivia worth 2,500."""
    s = variant_position({0: "2c 2d JK 5s 9d Qc Jd"}, rules=BOLIVIA, melds={0: ["Ac Ad As"]})
    assert choice(s).startswith("meld 2 2")


def test_bolivia_wild_card_goes_to_the_wild_meld_not_a_group() -> None:
    """Bolivia: a wild card is worth most in a bolivia (2,500); Advanced puts it there, not on a
    group of five it does not finish."""
    s = variant_position({0: "2c 5s 9d Qc Jd 4h 6c"}, rules=BOLIVIA,
                         melds={0: ["Kc Kd Ks Kh Kc", "2d 2h JK"]})
    assert choice(s) == "add 2"  # onto the wild meld
    classic_like = variant_position({0: "2c 5s 9d Qc Jd 4h 6c"}, rules=SAMBA, melds={0: ["Kc Kd Ks Kh Kc"]})
    assert choice(classic_like, EXPERT) == "add 2 to K"  # Samba has no wild melds


# --------------------------------------------------------------------------- going out

def test_samba_goes_out_by_completing_a_samba_as_second_canasta() -> None:
    """Samba: "A side needs two canastas (mixed, natural, or samba) to go out": with one canasta,
    the hand completes a samba and goes out (the plan is the engine's legal melds)."""
    s = variant_position({0: "Jh Qh 9c 9d 9s"}, rules=SAMBA,
                         melds={0: ["seq 6h 7h 8h 9h 10h", "Ac Ad As Ac Ad As Ac"]}, stock=None)
    v = view_for(s, 0)
    plan = go_out_plan(v, 0)
    assert plan is not None and plan.path
    end = play_turn(s)
    assert end.phase == Phase.HAND_OVER and end.went_out == 0


def test_samba_does_not_plan_to_go_out_with_one_canasta() -> None:
    """Samba: two canastas to go out; one canasta and cards that all meld are not enough."""
    s = variant_position({0: "9c 9d 9s 5h"}, rules=SAMBA, melds={0: ["Ac Ad As Ac Ad As Ac"]})
    assert go_out_plan(view_for(s, 0), 0) is None


def test_bolivia_needs_an_escalera_to_plan_going_out() -> None:
    """Bolivia: "At least one of the two canastas must be a sequence canasta" (an escalera)."""
    groups = variant_position({0: "9c 9d 9s"}, rules=BOLIVIA,
                              melds={0: ["Ac Ad As Ac Ad As Ac", "Kc Kd Ks Kc Kd Ks Kh"]})
    assert go_out_plan(view_for(groups, 0), 0) is None
    escalera = variant_position({0: "9c 9d 9s"}, rules=BOLIVIA,
                                melds={0: ["Ac Ad As Ac Ad As Ac", "seq 4s 5s 6s 7s 8s 9s 10s"]})
    assert go_out_plan(view_for(escalera, 0), 0) is not None
    end = play_turn(escalera)
    assert end.phase == Phase.HAND_OVER and end.went_out == 0


def test_bolivia_goes_out_by_completing_the_escalera() -> None:
    """Bolivia: the hand that completes the escalera beside a canasta goes out with it."""
    s = variant_position({0: "10s Js 5d 5c 5h"}, rules=BOLIVIA,
                         melds={0: ["Ac Ad As Ac Ad As Ac", "seq 5s 6s 7s 8s 9s"]})
    end = play_turn(s)
    assert end.phase == Phase.HAND_OVER and end.went_out == 0
    assert any(m is not None and m.is_sequence and m.is_canasta for m in end.melds[0])


# --------------------------------------------------------------------------- black threes

@pytest.mark.parametrize("style", LEVELS)
def test_bolivia_throws_black_threes_first(style: object) -> None:
    """Bolivia: "black threes left in a hand cost 100": every level discards one first."""
    s = variant_position({0: "3c 9c Jd 5h Qs Kd"}, rules=BOLIVIA, melds={0: ["Ac Ad As"]})
    assert choice(s, style) == "discard 3c"


# --------------------------------------------------------------------------- the initial meld

def test_opening_counts_a_sequence_toward_the_requirement_by_score() -> None:
    """Samba: sequences "count toward the initial meld at their cards' values"; the requirement
    follows the side's score (90 from 1,500): 10h-Ah (60) and three Kings (30) make 90, not 120."""
    hand = {0: "10h Jh Qh Kh Ah Kc Kd Ks 5c 9d"}
    s = variant_position(hand, rules=SAMBA, requirements=(90, 90))
    plan = opening_plan(view_for(s, 0), ADVANCED)
    assert any(a.is_sequence for a in plan)
    end = play_turn(s)
    assert any(m is not None and m.is_sequence for m in end.melds[0])
    assert end.has_melded[0]
    short = variant_position(hand, rules=SAMBA, requirements=(120, 120))
    assert opening_plan(view_for(short, 0), ADVANCED) == []
    assert not play_turn(short).has_melded[0]


# --------------------------------------------------------------------------- the Expert's estimate

def test_expert_values_a_samba_on_the_way_above_a_group() -> None:
    """A sequence of six is one card from 1,500; a group of six one card from 300 or 500."""
    seq = variant_position({0: "5d 9c"}, rules=SAMBA, melds={0: ["seq 5h 6h 7h 8h 9h 10h"]})
    group = variant_position({0: "5d 9c"}, rules=SAMBA, melds={0: ["Kc Kd Ks Kh Kc Kd"]})
    assert evaluate(seq, 0) > evaluate(group, 0) + 200
    assert S.canasta_progress(Meld(13, (52, 53, 54, 55, 52, 53)), load_rules("classic")) == 150.0


# --------------------------------------------------------------------------- whole hands

@pytest.mark.parametrize("rules_name", ["samba", "bolivia"])
@pytest.mark.parametrize("level", ["beginner", "advanced"])
def test_whole_variant_hands_are_legal_and_end(rules_name: str, level: str) -> None:
    """Every choice is one of the legal actions (``play_hand`` checks), and hands end."""
    rules = load_rules(rules_name)
    for seed in range(2):
        players = [make_player(level, seed * 4 + i) for i in range(4)]
        s, _log = play_hand(players, seed, rules)
        assert s.is_over


def test_expert_plays_a_bolivia_hand_legally() -> None:
    players = [make_player("expert" if i % 2 == 0 else "advanced", i, budget=0.01) for i in range(4)]
    s, _log = play_hand(players, 3, BOLIVIA)
    assert s.is_over


# --------------------------------------------------------------------------- "May I go out?"

def test_bolivia_partner_says_no_without_an_escalera_in_reach() -> None:
    """Bolivia: going out needs an escalera; a partner whose side has none and no sequence to
    finish knows the asker cannot go out, and never says yes."""
    from canasta_tui.ai.heuristic import could_go_out

    groups = variant_position({0: "9c 9d 9s 5h"}, rules=BOLIVIA,
                              melds={0: ["Ac Ad As Ac Ad As Ac", "Kc Kd Ks Kc Kd Ks Kh"]})
    assert not could_go_out(view_for(groups, 0))
    near = variant_position({0: "9c 9d 9s 5h"}, rules=BOLIVIA,
                            melds={0: ["Ac Ad As Ac Ad As Ac", "seq 4s 5s 6s 7s 8s"]})
    assert could_go_out(view_for(near, 0))
    samba = variant_position({0: "9c 9d 9s 5h"}, rules=SAMBA,
                             melds={0: ["Ac Ad As Ac Ad As Ac", "Kc Kd Ks Kc Kd Ks Kh"]})
    assert could_go_out(view_for(samba, 0))  # Samba: any two canastas


# --------------------------------------------------------------------------- seeing only the view

@pytest.mark.parametrize("rules_name", ["samba", "bolivia"])
def test_permuting_hidden_cards_never_changes_a_variant_decision(rules_name: str) -> None:
    """The search for a way out plays the engine on a position dealt from the view: the cards a
    seat cannot see (other hands, the stock) never change what it does."""
    import random

    from canasta_tui.ai.expert import ExpertPlayer
    from canasta_tui.engine import deal

    from .helpers import shuffled
    from .test_fair_and_robust import permute_hidden

    rules = load_rules(rules_name)
    checked = 0
    for seed in range(3):
        s = deal(rules, shuffled(seed, rules.packs), seed % 4)
        ps = [make_player("beginner", seed + i) for i in range(4)]
        for step in range(120):
            if s.phase == Phase.HAND_OVER:
                break
            if step in (9, 41, 87, 119):
                seat = s.actor
                other = permute_hidden(s, seat, random.Random(seed * 100 + step))
                v1, v2 = view_for(s, seat), view_for(other, seat)
                assert v1 == v2
                for p1, p2 in ((make_player("beginner", 5), make_player("beginner", 5)),
                               (make_player("advanced", 5), make_player("advanced", 5)),
                               (ExpertPlayer(5, samples=2, deadline=False), ExpertPlayer(5, samples=2, deadline=False))):
                    assert p1.choose(v1) == p2.choose(v2)
                    checked += 1
            s = apply(s, ps[s.actor].choose(view_for(s, s.actor)))
    assert checked >= 12


# --------------------------------------------------------------------------- Bolivia's escalera

def test_bolivia_advanced_keeps_a_card_its_sequence_needs_out_of_a_group() -> None:
    """Bolivia: "at least one of the two canastas [needed to go out] must be a sequence canasta"
    (an escalera).  The 10h is one place beyond the side's 5h-8h (the 9h joins them): Advanced
    does not put it on the Tens, as it would in Samba, where any two canastas go out; once the
    side has its escalera, the card may go."""
    melds = ["seq 5h 6h 7h 8h", "10c 10d 10s"]
    s = variant_position({0: "10h Kc Kd Ks 4c 9d Qc"}, rules=BOLIVIA, melds={0: melds})
    v = view_for(s, 0)
    add10 = parse_action("add 10")
    assert add10 in v.legal and S.spends_sequence_card(v, add10, 0)
    assert choice(s) != "add 10"
    samba = variant_position({0: "10h Kc Kd Ks 4c 9d Qc"}, rules=SAMBA, melds={0: melds})
    assert choice(samba) == "add 10"
    done = variant_position({0: "10h Kc Kd Ks 4c 9d Qc"}, rules=BOLIVIA,
                            melds={0: ["seq 5c 6c 7c 8c 9c 10c Jc", *melds]})
    assert not S.spends_sequence_card(view_for(done, 0), add10, 0)
    assert choice(done) == "add 10"


def test_bolivia_advanced_does_not_take_a_small_pile_with_a_card_its_sequence_needs() -> None:
    """Bolivia: the pair that takes the pile goes into a group; a pile of three is not worth the
    10h the side's 5h-8h needs toward its escalera, a pile of nine is."""
    melds = {0: ["seq 5h 6h 7h 8h", "Ac Ad As"]}
    s = variant_position({0: "10h 10s Kc 4c 9d Qc"}, rules=BOLIVIA, phase=Phase.DRAW, melds=melds, pile="4d 9s 10d")
    v = view_for(s, 0)
    assert A.pile_with(10, 10) in v.legal
    assert choice(s) == "draw"
    big = variant_position({0: "10h 10s Kc 4c 9d Qc"}, rules=BOLIVIA, phase=Phase.DRAW, melds=melds,
                           pile="4d 9s 5c 6c Jd Qd Kd 7s 10d")
    assert choice(big) == "pile 10 10"
