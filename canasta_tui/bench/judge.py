"""The judge (issue 33, "How it is measured"): a set of positions checked as a strong player checks
a move, and ``canasta bench coach``, which asks the Expert, Advanced and the coach's hint to play them.

A position is one decision of a player, from the player's own view, taken from hands the existing
computer players played from a seed (the Expert, counted in work, against Advanced).  The judge
plays **every legal action** there, each in the same sampled deals of the cards the player cannot
see (their hands and the order of the stock: :func:`~canasta_tui.ai.heuristic.deal_after_ask`),
and rolls each **out to the end of the hand** with a fixed policy (:data:`POLICY`: the player's
side by the Expert's rules of thumb, the other side by Advanced's), scoring the hand's real result
for the player's side.  A position is kept when its best action is clear: ahead of every other by
more than :data:`CLEAR_POINTS` points and :data:`CLEAR_ERRORS` standard errors of the paired
difference over the deals both were played in.

The deals are drawn in rounds of :data:`ROUND`; an action clearly behind the leader (by
:data:`CLEAR_POINTS` and :data:`DROP_ERRORS` standard errors, a stricter test than the one that
keeps a position) plays no more rounds, and a position stops early once no action can come out
clear (its leaders are within :data:`CLEAR_POINTS` of each other and the noise is small), or when
one action is left, or after ``max_deals``.  Everything is counted in deals and rollout steps, never
in time: a seed gives the same set on any machine at any load.  The set is written to a JSON file
(``--positions``) and read back by the next run, so runs are repeatable and fast.
"""

from __future__ import annotations

import json
import math
import multiprocessing as mp
import os
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..ai import make_player
from ..ai.expert import ExpertPlayer
from ..ai.heuristic import ADVANCED, EXPERT, Style, TurnMemory, deal_after_ask, decide
from ..engine import CLASSIC, Action, GameState, Phase, PlayerView, apply, deal, full_deck, score_hand, view_for
from ..engine.actions import ActionKind
from ..engine.cards import RANK_OF
from ..engine.moves import apply_legal
from ..engine.state import team
from ..engine.view import view_from_dict, view_to_dict

#: The position set's file format (a file of another version is built again, not misread).
VERSION = 1
#: The rollout policy, named in the file: the player's side plays the Expert's rules of thumb,
#: the other side Advanced's (the Expert's own model of a hand, played to its end).
POLICY = "expert-rules-v-advanced"
#: A clear best: ahead of every other action by more than this many points ...
CLEAR_POINTS = 20.0
#: ... and this many standard errors of the paired difference.
CLEAR_ERRORS = 2.0
#: An action this many standard errors (and CLEAR_POINTS) behind the leader plays no more deals.
DROP_ERRORS = 3.0
#: Deals drawn at a time for every action still in play.
ROUND = 16
#: The fewest deals before any action is dropped or the position given up.
FIRST = 32
#: A hand's rollout that runs this many steps is scored where it stands (never seen in practice).
MAX_STEPS = 3000
#: The Expert's budget in the bench, seconds of the bench machine's work (counted, not timed).
EXPERT_BUDGET = 0.1


# ---------------------------------------------------------------------- positions


@dataclass(frozen=True)
class Judged:
    """One position and the judge's figures: each legal action's mean result for the player's side
    over the deals it played (``deals``), and ``best``, the clear best's index (None: no clear best).
    ``margin`` and ``error``: for each action, the paired difference of the best (the highest mean)
    over it and that difference's standard error (0 for the best itself)."""

    view: PlayerView
    source: str
    actions: tuple[Action, ...]
    means: tuple[float, ...]
    deals: tuple[int, ...]
    margin: tuple[float, ...]
    error: tuple[float, ...]
    best: int | None
    #: The choice each action is: its own index, or an earlier action's that came out alike in every deal.
    group: tuple[int, ...] = ()

    def chose_best(self, a: Action) -> bool:
        """Did ``a`` make the clear best choice?"""
        i = self.index(a)
        return self.best is not None and (self.group[i] if self.group else i) == self.best

    def index(self, a: Action) -> int:
        """Which of the judged choices ``a`` is (a discard of another suit of the same rank is the same)."""
        return next(i for i, b in enumerate(self.actions) if same(b) == same(a))

    def lost(self, a: Action) -> float:
        """The points ``a`` loses against the judge's best (the paired difference; 0 for the best)."""
        return self.margin[self.index(a)]

    def to_dict(self) -> dict[str, Any]:
        return {"view": view_to_dict(self.view), "source": self.source,
                "actions": [_action_to_list(a) for a in self.actions], "means": list(self.means),
                "deals": list(self.deals), "margin": list(self.margin), "error": list(self.error), "best": self.best,
                "group": list(self.group)}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Judged:
        return Judged(view_from_dict(d["view"]), str(d["source"]),
                      tuple(_action_from_list(a) for a in d["actions"]), tuple(float(x) for x in d["means"]),
                      tuple(int(x) for x in d["deals"]), tuple(float(x) for x in d["margin"]),
                      tuple(float(x) for x in d["error"]), None if d["best"] is None else int(d["best"]),
                      tuple(int(x) for x in d.get("group", ())))


def _action_to_list(a: Action) -> list[Any]:
    return [a.kind.value, list(a.ranks), a.card, a.target]


def _action_from_list(x: list[Any]) -> Action:
    return Action(ActionKind(x[0]), tuple(int(r) for r in x[1]), int(x[2]), int(x[3]))


def _deck(seed: int, hand: int) -> list[int]:
    deck = [int(c) for c in full_deck(2)]
    random.Random(f"canasta-judge:{seed}:{hand}").shuffle(deck)
    return deck


def game_positions(seed: int, hand: int, per_hand: int) -> list[tuple[PlayerView, str]]:
    """``per_hand`` decisions (two legal actions or more) of one hand the Expert (counted in work,
    on seats of one side) played against Advanced, each from the deciding player's own view."""
    s = deal(CLASSIC, _deck(seed, hand), hand % 4)
    expert_side = hand % 2
    players = [ExpertPlayer(seed * 1000 + hand * 4 + p, aggression=50, budget=EXPERT_BUDGET, deadline=False)
               if p % 2 == expert_side else make_player("advanced", seed * 1000 + hand * 4 + p) for p in range(4)]
    found: list[tuple[PlayerView, str]] = []
    steps = 0
    while s.phase != Phase.HAND_OVER and steps < MAX_STEPS:
        v = view_for(s, s.actor)
        if len(candidates(v)) >= 2:
            who = "Expert" if s.actor % 2 == expert_side else "Advanced"
            found.append((v, f"seed {seed}, hand {hand}, turn {v.turn_number}, seat {s.actor} ({who})"))
        s = apply(s, players[s.actor].choose(v))
        steps += 1
    rng = random.Random(f"canasta-judge-pick:{seed}:{hand}")
    return sorted(rng.sample(found, min(per_hand, len(found))), key=lambda x: x[0].turn_number)


def rollout(world: GameState, seat: int, first: Action) -> float:
    """The hand's result for ``seat``'s side (its score less the other side's) after ``first`` in
    ``world``, played to the end by :data:`POLICY`."""
    me = team(seat, world.rules)
    s = apply(world, first)
    mems = [TurnMemory() for _ in range(world.rules.players)]
    steps = 0
    while s.phase != Phase.HAND_OVER and steps < MAX_STEPS:
        actor = s.actor
        v = view_for(s, actor)
        style: Style = EXPERT if team(actor, s.rules) == me else ADVANCED
        a = decide(v, style, mems[actor])
        s = apply_legal(s, a if a in v.legal else v.legal[0])
        steps += 1
    if s.phase != Phase.HAND_OVER:
        from ..ai.expert import evaluate
        return evaluate(s, me)
    sc = score_hand(s)
    return float(sc[me].total - max(x.total for i, x in enumerate(sc) if i != me))


def _paired(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float]:
    """Mean of ``x - y`` over the first ``min(len)`` deals (played by both) and its standard error."""
    k = min(len(xs), len(ys))
    d = [xs[i] - ys[i] for i in range(k)]
    mu = sum(d) / k
    var = sum((x - mu) ** 2 for x in d) / (k - 1) if k > 1 else 0.0
    return mu, math.sqrt(var / k)


def same(a: Action) -> tuple[Any, ...]:
    """What tells ``a`` from the other legal actions in classic Canasta, where suits do not count:
    discarding the 9♣ or the 9♠ is one choice (a wild card's or a black three's, one too)."""
    if a.kind == ActionKind.DISCARD:
        return (a.kind, RANK_OF[a.card])
    return (a.kind, a.ranks, a.card, a.target)


def candidates(v: PlayerView) -> tuple[Action, ...]:
    """Every choice of ``v``: its legal actions, one of each :func:`same` kind, without taking back a
    meld or the pile (a correction, not a move: the position before it is the choice)."""
    seen: set[tuple[Any, ...]] = set()
    out: list[Action] = []
    for a in v.legal:
        if a.kind in (ActionKind.UNDO, ActionKind.UNPILE) or same(a) in seen:
            continue
        seen.add(same(a))
        out.append(a)
    return tuple(out)


def judge(v: PlayerView, source: str, seed: int, max_deals: int) -> Judged:
    """Every choice of ``v`` (:func:`candidates`) in the same sampled deals, played out to the end
    of the hand."""
    actions = candidates(v)
    values: list[list[float]] = [[] for _ in actions]
    live = list(range(len(actions)))
    group = list(range(len(actions)))       # the choice each action is (itself, or an earlier twin)
    n = 0
    while n < max_deals and len(live) > 1:
        for i in range(n, min(n + ROUND, max_deals)):
            world = deal_after_ask(v, random.Random(f"canasta-judge-deal:{seed}:{source}:{i}"))
            for j in live:
                values[j].append(rollout(world, v.seat, actions[j]))
        n = min(n + ROUND, max_deals)
        for j in live[:]:
            # Two ways of writing one choice (melding a pair and a wild card or the wild card and the
            # pair) come out alike in every deal: one choice, played once from here on.
            twin = next((i for i in live if i < j and values[i] == values[j]), None)
            if twin is not None:
                group[j] = twin
                live.remove(j)
        if n < FIRST:
            continue
        lead = max(live, key=lambda j: sum(values[j]) / len(values[j]))
        keep = [lead]
        hopeless = False
        for j in live:
            if j == lead:
                continue
            mu, se = _paired(values[lead], values[j])
            if mu > CLEAR_POINTS and mu > DROP_ERRORS * se:
                continue                              # clearly behind: no more deals
            keep.append(j)
            # Even a standard error shrunk to what max_deals would give leaves it within the noise
            # of the leader (at its mean plus one error): the position will not come out clear.
            hopeless = hopeless or mu + se < max(CLEAR_POINTS, CLEAR_ERRORS * se * math.sqrt(n / max_deals))
        live = keep
        if len(live) > 1 and hopeless:
            break
    for j in range(len(actions)):
        values[j] = values[group[j]]
    means = tuple(sum(x) / len(x) for x in values)
    most = max(len(x) for x in values)          # the best of the actions played in every deal
    top = max((j for j in range(len(actions)) if len(values[j]) == most and group[j] == j), key=lambda j: means[j])
    margin: list[float] = []
    error: list[float] = []
    for j in range(len(actions)):
        mu, se = (0.0, 0.0) if group[j] == top else _paired(values[top], values[j])
        margin.append(round(mu, 2))
        error.append(round(se, 2))
    clear = all(group[j] == top or (margin[j] > CLEAR_POINTS and margin[j] > CLEAR_ERRORS * error[j])
                for j in range(len(actions)))
    return Judged(v, source, actions, tuple(round(m, 2) for m in means), tuple(len(x) for x in values),
                  tuple(margin), tuple(error), top if clear else None, tuple(group))


def _judge_job(job: tuple[PlayerView, str, int, int]) -> Judged:
    return judge(*job)


def _hand_job(job: tuple[int, int, int]) -> list[tuple[PlayerView, str]]:
    return game_positions(*job)


def _map(fn: Callable[[Any], Any], jobs: list[Any], workers: int) -> Iterator[Any]:
    if workers <= 1:
        yield from map(fn, jobs)
        return
    with mp.get_context("fork").Pool(workers) as pool:
        yield from pool.imap(fn, jobs)


def _cpu() -> float:
    """CPU seconds of this process and of its finished workers."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def build(seed: int, hands: int, per_hand: int, max_deals: int, jobs: int = 1,
          progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The position set of ``seed``: ``per_hand`` positions from each of ``hands`` hands, each judged."""
    start = _cpu()
    picked = [p for got in _map(_hand_job, [(seed, h, per_hand) for h in range(hands)], jobs) for p in got]
    judged: list[Judged] = []
    for j in _map(_judge_job, [(v, src, seed, max_deals) for v, src in picked], jobs):
        judged.append(j)
        if progress is not None:
            progress(f"judged {len(judged)} of {len(picked)} positions, {sum(x.best is not None for x in judged)} clear")
    # Only the clear positions are kept: the others measure nobody.
    return {"version": VERSION, "policy": POLICY, "seed": seed, "hands": hands, "per_hand": per_hand,
            "max_deals": max_deals, "clear_points": CLEAR_POINTS, "clear_errors": CLEAR_ERRORS,
            "cpu_seconds": round(_cpu() - start, 1), "judged": len(judged),
            "positions": [j.to_dict() for j in judged if j.best is not None]}


def params(data: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(data.get(k) for k in ("version", "policy", "seed", "hands", "per_hand", "max_deals"))


#: The position sets that come with the game (built once: the judge's figures do not move when the
#: players' rules of thumb, which its rollouts play, change later).
SHIPPED = Path(__file__).parent / "positions"


def shipped(seed: int) -> Path:
    return SHIPPED / f"coach-{seed}.json"


def load_or_build(path: Path | None, seed: int, hands: int, per_hand: int, max_deals: int, jobs: int,
                  progress: Callable[[str], None] | None = None) -> tuple[dict[str, Any], Path | None]:
    """The position set from ``path`` when it holds this one (same seed and settings), or from the
    set shipped with the game for ``seed``, else built (and written to ``path``); the file it was
    read from (None: built)."""
    want = (VERSION, POLICY, seed, hands, per_hand, max_deals)
    for where in (path, shipped(seed)):
        if where is not None and where.exists():
            data = json.loads(where.read_text(encoding="utf-8"))
            if isinstance(data, dict) and params(data) == want:
                return data, where
    data = build(seed, hands, per_hand, max_deals, jobs, progress)
    if path is not None:
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(json.dumps(data), encoding="utf-8")
        tmp.replace(path)
    return data, None


# ---------------------------------------------------------------------- the bench


def _expert(seed: int) -> Callable[[PlayerView], Action]:
    def choose(v: PlayerView) -> Action:
        return ExpertPlayer(seed, aggression=0, budget=EXPERT_BUDGET, deadline=False).choose(v)
    return choose


def _advanced(seed: int) -> Callable[[PlayerView], Action]:
    def choose(v: PlayerView) -> Action:
        return make_player("advanced", seed).choose(v)
    return choose


def _hint(seed: int) -> Callable[[PlayerView], Action]:
    from ..ai.coach import hint

    def choose(v: PlayerView) -> Action:
        return hint(v, seed).action
    return choose


#: Who the bench asks, by name: each a fresh player for each position (as the hint is).
CHOOSERS: dict[str, Callable[[int], Callable[[PlayerView], Action]]] = {
    "expert": _expert, "advanced": _advanced, "hint": _hint}


def _kind(j: Judged) -> str:
    """What the position's clear best is: draw (from the stock or the pile), discard, meld (or add),
    answer (to "May I go out?"), other (asking, ending the hand)."""
    if j.view.phase == Phase.DRAW:
        return "draw"
    k = j.actions[j.best].kind if j.best is not None else None
    if k == ActionKind.DISCARD:
        return "discard"
    if k in (ActionKind.MELD, ActionKind.ADD, ActionKind.JOIN):
        return "meld"
    if k in (ActionKind.YES, ActionKind.NO):
        return "answer"
    return "other"


def _ask_job(job: tuple[str, int, dict[str, Any]]) -> tuple[str, list[float | None]]:
    """One chooser over one position: [1 if it chose the best else 0, points lost]."""
    who, seed, d = job
    j = Judged.from_dict(d)
    a = CHOOSERS[who](seed)(j.view)
    return who, [1.0 if j.chose_best(a) else 0.0, j.lost(a)]


def run(data: dict[str, Any], who: Sequence[str], seed: int, jobs: int = 1) -> dict[str, Any]:
    """Each chooser's share of the clear positions where it plays the judge's best, and its mean
    points lost there (by the judge's means)."""
    allpos = [Judged.from_dict(d) for d in data["positions"]]
    clear = [(j, d) for j, d in zip(allpos, data["positions"], strict=True) if j.best is not None]
    jobs_list = [(w, seed, d) for w in who for _, d in clear]
    got: dict[str, list[list[float | None]]] = {w: [] for w in who}
    for w, r in _map(_ask_job, jobs_list, jobs):
        got[w].append(r)
    kinds = [_kind(j) for j, _ in clear]
    out: dict[str, Any] = {"seed": data["seed"], "bench_seed": seed, "policy": data["policy"],
                           "positions": data.get("judged", len(allpos)), "clear": len(clear),
                           "by_kind": {k: kinds.count(k) for k in sorted(set(kinds))},
                           "cpu_seconds_to_build": data.get("cpu_seconds"), "choosers": {}}
    for w in who:
        rows = got[w]
        n = len(rows)
        hits = sum(float(r[0] or 0.0) for r in rows)
        lost = [float(r[1] or 0.0) for r in rows]
        mean = sum(lost) / n if n else 0.0
        sd = math.sqrt(sum((x - mean) ** 2 for x in lost) / (n - 1)) if n > 1 else 0.0
        per_kind = {k: round(sum(float(r[0] or 0.0) for r, kk in zip(rows, kinds, strict=True) if kk == k)
                             / max(1, kinds.count(k)), 3) for k in sorted(set(kinds))}
        out["choosers"][w] = {"share": round(hits / n, 3) if n else 0.0, "best": int(hits), "of": n,
                              "mean_lost": round(mean, 1), "mean_lost_se": round(sd / math.sqrt(n), 1) if n else 0.0,
                              "share_by_kind": per_kind}
    return out


def report(r: dict[str, Any]) -> str:
    kinds = ", ".join(f"{k} {n}" for k, n in r["by_kind"].items())
    lines = [f"coach bench: position set seed {r['seed']} (rollouts to the hand's end, {r['policy']}), "
             f"choosers' seed {r['bench_seed']}",
             f"  positions:   {r['positions']} judged, {r['clear']} with a clear best ({kinds})",
             "  who          plays the judge's best       mean points lost   by kind"]
    for w, c in r["choosers"].items():
        by = ", ".join(f"{k} {x:.0%}" for k, x in c["share_by_kind"].items())
        lines.append(f"  {w:<12} {c['share']:>6.1%} ({c['best']} of {c['of']})"
                     f"{'':>8}{c['mean_lost']:>6.1f} ±{c['mean_lost_se']:<5.1f}     {by}")
    return "\n".join(lines)


__all__ = ["CLEAR_ERRORS", "CLEAR_POINTS", "POLICY", "Judged", "build", "game_positions", "judge", "load_or_build",
           "report", "rollout", "run"]
