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
