"""``canasta bench coach`` and its judge (issue 33, "How it is measured"): "positions from the
player's own view, every legal candidate, sampled deals of the unseen cards consistent with that
view (stock order too), each candidate rolled out **to the end of the hand**, the same deals for
every candidate, and keep the positions whose best move is clear (more than 2 standard errors and
20 points ahead of every other)"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import NoReturn

import pytest
from click.testing import CliRunner

from canasta_tui.ai import make_player
from canasta_tui.bench import judge as J
from canasta_tui.cli import main
from canasta_tui.engine import CLASSIC, PlayerView, apply, deal, view_for
from canasta_tui.engine import actions as A
from canasta_tui.engine.cards import RANK_OF, parse_cards
from tests.ai.helpers import position, shuffled


def _dealt(seed: int, steps: int) -> PlayerView:
    """A position of a dealt hand (the judge deals the unseen cards: the 108 must add up), after
    ``steps`` actions of Advanced players, at a decision of two choices or more."""
    s = deal(CLASSIC, shuffled(seed), seed % 4)
    players = [make_player("advanced", seed + p) for p in range(4)]
    for _ in range(steps):
        s = apply(s, players[s.actor].choose(view_for(s, s.actor)))
    while len(J.candidates(view_for(s, s.actor))) < 2:
        s = apply(s, players[s.actor].choose(view_for(s, s.actor)))
    return view_for(s, s.actor)


def test_the_judge_plays_every_choice_in_the_same_deals_and_keeps_a_clear_best_only() -> None:
    v = _dealt(3, 20)
    j = J.judge(v, "test", 1, 32)
    assert j.actions == J.candidates(v) and len(j.deals) == len(j.actions)
    top = max(range(len(j.actions)), key=lambda i: (j.deals[i], j.means[i]))
    assert j.margin[top] == 0.0
    clear = all(j.group[i] == top or (j.margin[i] > J.CLEAR_POINTS and j.margin[i] > J.CLEAR_ERRORS * j.error[i])
                for i in range(len(j.actions)))
    assert (j.best == top) if clear else j.best is None
    # Counted in deals, not time: the same figures again.
    assert J.judge(v, "test", 1, 32) == j


def test_a_rollout_ends_with_the_hand() -> None:
    """The value is the hand's score (an exact result, a multiple of 5), not an estimate at a horizon."""
    import random

    from canasta_tui.ai.heuristic import deal_after_ask

    v = _dealt(5, 12)
    for i, a in enumerate(J.candidates(v)[:4]):
        world = deal_after_ask(v, random.Random(i))
        x = J.rollout(world, v.seat, a)
        assert x == int(x) and int(x) % 5 == 0


def test_suits_do_not_make_two_choices_and_taking_back_is_none() -> None:
    s = position({0: "9c 9s 5h Kd"}, melds={0: ["Jc Jd Jh"]}, pile="4c 7d")
    v = view_for(s, 0)
    discards = [a for a in J.candidates(v) if a.kind == A.DISCARD]
    assert sorted(RANK_OF[a.card] for a in discards) == [5, 9, 13]
    assert all(a.kind not in (A.UNDO, A.UNPILE) for a in J.candidates(v))
    nine_s = A.discard(int(parse_cards("9s")[0]))
    assert J.same(nine_s) == J.same(A.discard(int(parse_cards("9c")[0])))


def test_a_position_without_a_clear_best_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Choices 10 points apart in every deal: one is ahead, but not by 20 points; 30 apart, it is clear."""
    v = _dealt(4, 10)
    cands = J.candidates(v)
    assert len(cands) >= 2
    for step, clear in ((10.0, False), (30.0, True)):
        worth = {a: step * i for i, a in enumerate(cands)}
        monkeypatch.setattr(J, "rollout", lambda world, seat, first, worth=worth: worth[first] + world.deck[-1] % 7)
        j = J.judge(v, f"step {step}", 1, 64)
        assert (j.best == len(cands) - 1) if clear else j.best is None
        assert j.lost(cands[0]) == pytest.approx(step * (len(cands) - 1))


def test_the_position_set_is_written_and_read_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cacheable to a file: the second run reads it (nothing is judged again), and another seed or
    other settings build their own."""
    path = tmp_path / "set.json"
    built, read = J.load_or_build(path, 7, 1, 3, 32, 1)
    assert read is None and path.exists() and built["judged"] == 3
    assert all(p["best"] is not None for p in built["positions"])
    monkeypatch.setattr(J, "judge", lambda *a: pytest.fail("judged again"))
    again, read = J.load_or_build(path, 7, 1, 3, 32, 1)
    assert read == path and again == json.loads(json.dumps(built))
    monkeypatch.undo()
    other, read = J.load_or_build(path, 8, 1, 2, 32, 1)
    assert read is None and other["seed"] == 8


def test_bench_coach_prints_each_players_share_of_the_clear_best(tmp_path: Path) -> None:
    """The shipped set of seed 33 is read (nothing built) and every clear position is asked."""
    data = json.loads(J.shipped(33).read_text(encoding="utf-8"))
    assert data["positions"] and all(p["best"] is not None for p in data["positions"])
    few = dict(data, positions=data["positions"][:3])
    path = tmp_path / "few.json"
    path.write_text(json.dumps(few), encoding="utf-8")
    r = CliRunner().invoke(main, ["bench", "coach", "--positions", str(path), "--who", "advanced,expert", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output.splitlines()[-1])
    assert out["clear"] == 3 and out["positions"] == data["judged"]
    for who in ("advanced", "expert"):
        c = out["choosers"][who]
        assert c["of"] == 3 and 0 <= c["best"] <= 3 and c["share"] == round(c["best"] / 3, 3) and c["mean_lost"] >= 0
    text = CliRunner().invoke(main, ["bench", "coach", "--positions", str(path), "--who", "advanced"]).output
    assert "3 with a clear best" in text and "advanced" in text and "plays the judge's best" in text
    bad = CliRunner().invoke(main, ["bench", "coach", "--positions", str(path), "--who", "oracle"])
    assert bad.exit_code != 0 and "choose from expert, advanced, hint" in bad.output


def test_the_set_of_seed_34_ships_with_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """A second set, from another seed, guards against fitting the players to seed 33's positions:
    `canasta bench coach --seed 34` reads it (nothing built) with the default settings."""
    def no_build(*args: object, **kw: object) -> NoReturn:
        raise AssertionError("the set of seed 34 was built, not read")
    monkeypatch.setattr(J, "build", no_build)
    data, read = J.load_or_build(None, 34, 40, 8, 128, 1)
    assert read == J.shipped(34) and data["seed"] == 34 and data["judged"] == 320
    assert len(data["positions"]) >= 40 and all(p["best"] is not None for p in data["positions"])
