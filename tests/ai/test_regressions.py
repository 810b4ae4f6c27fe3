"""Positions that once caught a computer player out, kept so they never do again."""

from __future__ import annotations

from canasta_tui.ai import make_player
from canasta_tui.engine import CLASSIC, GameState, Phase, Turn, apply, view_for

#: Found by Hypothesis (test_never_stuck): Player 4 takes a pile of 5s before the side has
#: melded, spends the deuce on a meld of cards from the pile (which do not count toward the
#: requirement) and went round "add 5" / "undo" for ever.  The initial meld is reachable
#: (5 5 + upcard, K K 2 = 55 >= 50), so the player must find it and end the turn.
DECK = (31, 18, 4, 44, 17, 8, 18, 51, 52, 39, 19, 54, 26, 41, 17, 35, 43, 52, 51, 55, 28, 6, 25, 15, 21, 37, 23,
        43, 53, 56, 39, 40, 20, 5, 34, 46, 10, 13, 6, 48, 14, 54, 24, 22, 37, 14, 32, 49, 22, 16, 30, 9, 16, 11,
        34, 36, 31, 44, 41, 40, 15, 38, 47, 7, 19, 24, 27, 36, 9, 46, 29, 56, 27, 45, 13, 30, 49, 23, 5, 56, 21,
        42, 12, 10, 20, 38, 45, 56, 47, 42, 28, 33, 33, 25, 29, 11, 50, 55, 4, 12, 53, 8, 7, 26, 48, 35, 32, 50)


def loop_position() -> GameState:
    return GameState(
        rules=CLASSIC, dealer=2, requirements=(50, 50), deck=DECK, stock_pos=47,
        hands=((5, 6, 8, 13, 18, 37, 39, 41, 52, 54, 56), (4, 6, 17, 18, 19, 23, 24, 25, 34, 39, 51),
               (15, 22, 35, 40, 43, 44, 46, 48, 51, 54, 55), (10, 17, 20, 21, 26, 28, 31, 32, 43, 52, 53)),
        melds=((None,) * 15, (None,) * 15), red_threes=((), (), (), (14, 14)), pile=(37,), frozen=False,
        phase=Phase.DRAW, turn=3, actor=3, turn_number=1, has_melded=(False,) * 4,
        threes_laid=(False, False, False, True), known=((), (), (), ()), penalties=(0, 0), t=Turn(),
    )


def test_beginner_finds_the_initial_meld_instead_of_melding_and_undoing_for_ever() -> None:
    """DOS "Improper Melds": an insufficient meld goes back to the hand; the turn must still end."""
    for level in ("beginner", "advanced"):
        s = loop_position()
        p = make_player(level, 1)
        longest_turn = 0
        this_turn = 0
        turn = s.turn_number
        for _ in range(1500):
            if s.phase == Phase.HAND_OVER:
                break
            a = p.choose(view_for(s, s.actor))
            s = apply(s, a)
            this_turn = this_turn + 1 if s.turn_number == turn else 0
            turn = s.turn_number
            longest_turn = max(longest_turn, this_turn)
        assert s.phase == Phase.HAND_OVER, f"{level} did not finish the hand"
        assert longest_turn < 150, f"{level} needed {longest_turn} actions for one turn"


def test_every_level_opens_with_a_pile_whose_rest_waits() -> None:
    """Issue 10, item 23b: with ``undo_pile_allowed`` (the windows preset) the rest of the
    pile taken by a side without its initial meld waits until the requirement is met
    (Windows 2.41: "you must have melded at least the minimum amount of points"); the
    computer players meld from their own cards, receive the pile and end the turn."""
    from canasta_tui.engine import deal
    from canasta_tui.presets import load_rules

    from .helpers import shuffled
    windows = load_rules("windows")
    for level in ("beginner", "advanced", "expert"):
        waited = 0
        for seed in range(8):
            players = [make_player(level, seed + i, budget=0.01) for i in range(4)]
            s = deal(windows, shuffled(seed), seed % 4)
            steps = 0
            while s.phase != Phase.HAND_OVER:
                v = view_for(s, s.actor)
                a = players[s.actor].choose(v)
                assert a in v.legal
                before = s
                s = apply(s, a)
                steps += 1
                assert steps < 3000, "the hand does not end"
                if s.aside and not before.aside:
                    waited += 1
                if before.aside and s.turn != before.turn:
                    raise AssertionError("a turn ended with the rest of the pile still waiting")
        if level != "expert":  # the Expert's choices depend on its time budget (and the machine's load)
            assert waited, f"{level}: no pile taken before the initial meld in these hands"
