"""The oracle: a reference in ``canasta bench ai`` that sees the whole deal, and is never a player.

Issue 20: "a labelled reference in the bench (sees the whole deal; never offered to a
player)".  It must not be reachable through ``make_player`` (which the UI, the server and
the table use), and it may see hidden cards only through the bench's own hand-off.
"""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from canasta_tui.ai import ALL_LEVELS, LEVELS, make_player
from canasta_tui.ai.expert import ExpertPlayer
from canasta_tui.bench import ai_bench
from canasta_tui.bench.oracle import ORACLE, OracleError, OraclePlayer
from canasta_tui.cli import main
from canasta_tui.engine import Action, GameState, Phase, PlayerView, determinize, view_for
from canasta_tui.engine import actions as A

from .test_fair_and_robust import midgame


def test_no_player_can_be_made_an_oracle() -> None:
    assert ORACLE not in LEVELS and ORACLE not in ALL_LEVELS
    with pytest.raises(ValueError, match="unknown level 'oracle'"):
        make_player(ORACLE, 1)


def draw_positions() -> list[GameState]:
    """Positions where the player to act may draw or take the pile."""
    out = []
    for seed, steps in ((seed, steps) for seed in range(30) for steps in (28, 32, 36)):
        s = midgame(seed, steps)
        if s.phase == Phase.DRAW and A.A_DRAW in (legal := view_for(s, s.actor).legal) and len(legal) > 1:
            out.append(s)
    assert len(out) >= 5
    return out[:8]


def test_the_oracle_refuses_to_play_without_the_benchs_hand_off() -> None:
    s = draw_positions()[0]
    v = view_for(s, s.actor)
    o = OraclePlayer(1)
    with pytest.raises(OracleError, match="only in the bench"):
        o.choose(v)
    o.see(s)
    assert o.choose(v) in v.legal
    with pytest.raises(OracleError):  # the hand-off serves one decision only
        o.choose(v)
    other = next(t for t in draw_positions() if view_for(t, t.actor) != v)
    o.see(other)
    with pytest.raises(OracleError):  # the state handed over must be the one the view shows
        o.choose(v)


def test_the_oracle_reads_the_hidden_cards_from_the_hand_off_only() -> None:
    """Re-deal the cards the seat cannot see: its view is the same, the oracle's values are not
    (it reads them from the state handed over), while the bench gives every other player a view."""
    changed = 0
    for s in draw_positions():
        v = view_for(s, s.actor)
        redealt = determinize(v, random.Random(7))
        assert view_for(redealt, s.actor) == v
        cands: list[tuple[Action, None]] = [(A.A_DRAW, None), (next(a for a in v.legal if a != A.A_DRAW), None)]
        got = []
        for state in (s, redealt):
            o = OraclePlayer(1)
            o.see(state)
            o._truth = state  # what choose keeps from the hand-off
            got.append(o.sample_values(v, cands))
        changed += got[0] != got[1]
    assert changed >= 1

    class Spy:
        name = "spy"

        def __init__(self) -> None:
            self.seen: list[PlayerView] = []

        def choose(self, view: PlayerView) -> Action:
            self.seen.append(view)
            return view.legal[0]

    s = draw_positions()[0]
    spy = Spy()
    ai_bench._choose(spy, s, s.actor)
    assert spy.seen == [view_for(s, s.actor)]


def test_the_bench_labels_the_oracle_as_a_reference() -> None:
    res = CliRunner().invoke(main, ["bench", "ai", "--a", "oracle", "--b", "beginner", "--deals", "2", "--json"])
    assert res.exit_code == 0, res.output
    r = json.loads(res.output)
    assert r["a"] == "oracle" and r["reference"] == ["A"]
    assert r["pairs_won_a"] + r["pairs_won_b"] + r["pairs_tied"] == 2
    text = CliRunner().invoke(main, ["bench", "ai", "--a", "beginner", "--b", "oracle", "--deals", "1"])
    assert text.exit_code == 0, text.output
    assert "reference:         B is the oracle, which sees every hand and the stock" in text.output
    plain = CliRunner().invoke(main, ["bench", "ai", "--a", "beginner", "--b", "random", "--deals", "1", "--json"])
    assert json.loads(plain.output)["reference"] == []


def test_each_side_may_have_its_own_budget() -> None:
    res = CliRunner().invoke(main, ["bench", "ai", "--a", "expert", "--b", "expert", "--deals", "1",
                                    "--budget", "0.02", "--budget-b", "0.01", "--json"])
    assert res.exit_code == 0, res.output
    r = json.loads(res.output)
    assert (r["budget"], r["budget_b"]) == (0.02, 0.01)
    players, sides = ai_bench._players(ai_bench.Settings("expert", "expert", 0.02, 1, ai_bench.CLASSIC,
                                                         budget_b=0.01), 0, 0, 0)
    assert all(isinstance(p, ExpertPlayer) for p in players)
    assert [(side, p.budget) for p, side in zip(players, sides, strict=True)
            if isinstance(p, ExpertPlayer)] == [
        ("A", 0.02), ("B", 0.01), ("A", 0.02), ("B", 0.01)]


def test_work_only_takes_the_clock_out_of_the_experts_searches() -> None:
    """Issue 20: "strength independent of load".  On a shared machine the wall-clock safety
    stop cuts searches short; --work-only leaves only the work count, so a seed's figures
    are the same however busy the machine is."""
    st = ai_bench.Settings("expert", "beginner", 0.02, 1, ai_bench.CLASSIC)
    players, _ = ai_bench._players(st, 0, 0, 0)
    assert [getattr(p, "deadline", None) for p in players] == [True, None, True, None]
    players, _ = ai_bench._players(st._replace(clock=False), 0, 0, 0)
    assert [getattr(p, "deadline", None) for p in players] == [False, None, False, None]
    res = CliRunner().invoke(main, ["bench", "ai", "--a", "expert", "--b", "beginner", "--deals", "1",
                                    "--budget", "0.01", "--work-only"])
    assert res.exit_code == 0, res.output
    assert "budget 0.01 s counted in work only" in res.output
    assert "0 cut by the clock" in res.output
