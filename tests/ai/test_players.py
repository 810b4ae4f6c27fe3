"""Every level plays whole hands legally, reproducibly, and sensibly."""

from __future__ import annotations

import pytest

from canasta_tui.ai import ALL_LEVELS, make_player
from canasta_tui.ai.heuristic import ADVANCED, EXPERT, TurnMemory, decide
from canasta_tui.engine import Phase, score_hand, view_for
from canasta_tui.engine import actions as A
from canasta_tui.engine.cards import DEUCE, KING

from .helpers import play_hand, position


@pytest.mark.parametrize("level", ["random", "beginner", "advanced"])
def test_whole_hands_are_legal_and_end(level: str) -> None:
    for seed in range(4):
        players = [make_player(level, seed * 4 + i) for i in range(4)]
        s, _log = play_hand(players, seed)
        assert s.is_over


def test_same_seed_same_choices() -> None:
    """Determinism: tests and bug reports depend on replaying a computer's choices."""
    for level in ("beginner", "advanced", "random"):
        logs = []
        for _ in range(2):
            players = [make_player(level, 100 + i) for i in range(4)]
            logs.append(play_hand(players, 7)[1])
        assert logs[0] == logs[1]


def test_beginner_melds_and_beats_random() -> None:
    """A Beginner meets the initial meld and outscores uniform random play by far."""
    margin = 0
    opened = 0
    for seed in range(3):
        players = [make_player("beginner" if i % 2 == 0 else "random", seed * 4 + i) for i in range(4)]
        s, _ = play_hand(players, seed)
        sc = score_hand(s)
        margin += sc[0].total - sc[1].total
        opened += s.opened(0)
    assert opened == 3
    assert margin > 600


def test_unknown_level_and_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown level"):
        make_player("grandmaster", 1)
    with pytest.raises(ValueError, match="aggression"):
        make_player("expert", 1, aggression=101)
    assert set(ALL_LEVELS) == {"random", "beginner", "advanced", "expert"}


def test_expert_habit_pushes_a_meld_of_five_toward_a_mixed_canasta() -> None:
    """"Make mixed canastas fast": the Expert's own style puts a wild card on a meld of
    five (Advanced waits until its wild cards finish the canasta)."""
    s = position({0: "2c 4d 6h 8s 9c 10d Jh Qs"}, melds={0: ["Kh Kd Kc Ks Kh", "7h 7d 7c"]}, phase=Phase.MELD)
    v = view_for(s, 0)
    wild_on_kings = A.add(DEUCE, KING)
    assert wild_on_kings in v.legal
    assert decide(v, EXPERT, TurnMemory()) == wild_on_kings
    assert decide(v, ADVANCED, TurnMemory()) != wild_on_kings


@pytest.mark.parametrize(("preset", "next_hand", "gap", "takes"),
                         [("classic", "4c 5d 6h 8s 9c", -30.0, False), ("classic", "4c 5d 6h", -30.0, False),
                          ("classic", "4c 5d 6h 8s 9c", 30.0, True), ("samba", "", -30.0, False),
                          ("samba", "", 30.0, True)])
def test_the_expert_draws_or_takes_the_pile_as_its_samples_say(
        monkeypatch: pytest.MonkeyPatch, preset: str, next_hand: str, gap: float, takes: bool) -> None:
    """RULES.md "Draw or take the pile".  The Expert takes the pile when its sampled deals put it
    clearly above drawing, and not when they put it below, whatever the next player holds: its
    samples deal the stock in random order (engine ``determinize``), so they no longer undervalue
    the pile, and the 60-110 points once added back for it are gone (docs/expert-strength.md,
    "the red threes at the top of the stock")."""
    from canasta_tui.ai.expert import ExpertPlayer
    from canasta_tui.engine import Action, PlayerView
    from canasta_tui.presets import load_rules

    from .helpers import variant_position

    def values(self: ExpertPlayer, v: PlayerView, cands: list[tuple[Action, object]]) -> list[list[float]]:
        return [[100.0 + (gap if a.kind == A.PILE else 0.0) + d for d in (0.0, 1.0, -1.0, 0.5)] for a, _ in cands]
    monkeypatch.setattr(ExpertPlayer, "sample_values", values)
    if preset == "classic":
        s = position({0: "Kc Kd 2c Jh 9s 4d", 1: next_hand}, pile="5c 9d Kh", phase=Phase.DRAW, drew="",
                     melds={0: ["Qh Qd Qc"]})
    else:
        s = variant_position({0: "Kc Kd Jh 9s 4d 6c 7d 8h"}, rules=load_rules(preset), pile="5c 9d Kh",
                             phase=Phase.DRAW, melds={0: ["Qh Qd Qc"]})
    v = view_for(s, 0)
    assert any(a.kind == A.PILE for a in v.legal) and A.A_DRAW in v.legal
    chosen = ExpertPlayer(1, aggression=0, budget=0.1).choose(v)
    assert chosen.kind == (A.PILE if takes else A.DRAW)


@pytest.mark.parametrize(("next_hand", "searched"), [("4c 5d 6h 8s 9c", False), ("4c 5d 6h", True)])
def test_the_expert_keeps_its_habits_discard_when_the_next_hand_is_long(next_hand: str, searched: bool) -> None:
    """RULES.md "Draw or take the pile": the next player takes the pile with a natural pair of the
    upcard.  A long hand keeps about twice the pairs a sampled deal gives it, so the samples
    underrate what a discard gives away: against a hand of five cards or more the Expert keeps its
    rules of thumb's discard (they weigh the danger themselves) and compares no others; against a
    short hand it still searches the discard (docs/expert-strength.md)."""
    from canasta_tui.ai.expert import ExpertPlayer, trusts_discard_habit

    s = position({0: "Kc 7d Jh 9s 4d 5c", 1: next_hand}, melds={0: ["Qh Qd Qc"]})
    v = view_for(s, 0)
    ex = ExpertPlayer(1, aggression=0, budget=0.1)
    ex.memory.start(v)
    ex.memory.extra["planned"] = True               # the turn's way of playing is chosen already
    base = decide(v, ex.style, ex.memory)
    assert base.kind == A.DISCARD
    cands = ex._candidates(v, base)
    assert trusts_discard_habit(v) is not searched
    assert (len(cands) > 1) is searched
    assert cands[0] == (base, None)
