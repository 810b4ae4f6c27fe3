"""``canasta bench ai``: a partnership of level A against one of level B, duplicate style.

Every deal is played twice with the same deck, the partnerships swapped (A on seats 0 and
2, then on seats 1 and 3), so the luck of the deal cancels out.  A deal pair is won by
the side with more points over both plays.  With ``--matches`` whole matches to 5000 are
played, each twice with the seats swapped and the same sequence of decks.

Figures come with 95% confidence intervals (Wilson for shares, normal for means).  The
bench also counts how often each side asks "May I go out, partner?" (per 100 hands) and
what the partners answer.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from ..ai import ComputerPlayer, make_player
from ..ai.expert import ExpertPlayer
from ..engine import (
    CLASSIC,
    Action,
    GameState,
    Match,
    Phase,
    Rules,
    apply,
    deal,
    full_deck,
    new_match,
    next_hand,
    play,
    score_hand,
    view_for,
)
from ..engine import actions as A
from .oracle import ORACLE, OraclePlayer

#: A match that runs this many hands is stopped and decided on the scores (never seen in practice).
MAX_HANDS = 200
#: A hand that runs this many actions is ended (a safety net against a stuck player).
MAX_ACTIONS = 5000


class Settings(NamedTuple):
    a: str
    b: str
    budget: float
    seed: int
    rules: Rules
    aggression: int = 50
    #: Side B's budget when it differs from side A's (Expert at 1 s against Expert at 0.1 s).
    budget_b: float | None = None
    #: The Expert's wall-clock safety stop; off, its searches are counted in work only and
    #: the figures do not move with the machine's load (a shared machine cuts many searches).
    clock: bool = True


def _deck(seed: int, index: int, hand: int, packs: int = 2) -> list[int]:
    deck = [int(c) for c in full_deck(packs)]
    random.Random(f"canasta-bench:{seed}:{index}:{hand}").shuffle(deck)
    return deck


def _players(st: Settings, a_team: int, index: int, play_no: int) -> tuple[list[ComputerPlayer], list[str]]:
    players: list[ComputerPlayer] = []
    sides: list[str] = []
    for seat in range(4):
        side = "A" if seat % 2 == a_team else "B"
        level = st.a if side == "A" else st.b
        seed = (st.seed * 1_000_003 + index * 16 + play_no * 4 + seat) & 0x7FFFFFFF
        budget = st.budget_b if side == "B" and st.budget_b is not None else st.budget
        player = _player(level, seed, st.aggression, budget)
        if not st.clock and isinstance(player, ExpertPlayer):
            player.deadline = False
        players.append(player)
        sides.append(side)
    return players, sides


def _player(level: str, seed: int, aggression: int, budget: float) -> ComputerPlayer:
    """A level's player, or the bench's reference, the oracle (never offered to a person)."""
    if level == ORACLE:
        return OraclePlayer(seed, aggression=aggression, budget=budget)
    return make_player(level, seed, aggression=aggression, budget=budget)


def _choose(player: ComputerPlayer, s: GameState, seat: int) -> Action:
    """``player``'s action in ``s``: it gets its seat's view, and only the oracle (a reference the
    bench measures against) is handed the whole state, here and nowhere else."""
    if isinstance(player, OraclePlayer):
        player.see(s)
    return player.choose(view_for(s, seat))


def _clock_stop(stops: dict[str, int], side: str, player: ComputerPlayer) -> None:
    """Count a search the Expert's wall-clock safety stop cut short (its decision then depends
    on the machine's load, not only on the seed)."""
    search = getattr(player, "last_search", None)
    if search and search.get("clock_stop"):
        stops[side] += 1
        search["clock_stop"] = 0.0  # counted once: a decision without a search keeps the last one


def _asked(asks: dict[str, int], side: str, a: Action) -> None:
    """Count ``a`` if it is "May I go out, partner?" (by ``side``) or an answer to it."""
    if a.kind == A.ASK:
        asks[side] += 1
    elif a.kind in (A.YES, A.NO):
        asks[a.kind] += 1


def _new_asks() -> dict[str, int]:
    return {"A": 0, "B": 0, A.YES: 0, A.NO: 0}


def _decide(s: GameState, players: list[ComputerPlayer], sides: list[str],
            lat: dict[str, list[float]], asks: dict[str, int], stops: dict[str, int]) -> Action:
    """The action of the player to act in ``s``, its time, a clock stop and a question counted."""
    seat = s.actor
    side = sides[seat]
    t0 = time.perf_counter()
    a = _choose(players[seat], s, seat)
    lat[side].append(time.perf_counter() - t0)
    _clock_stop(stops, side, players[seat])
    _asked(asks, side, a)
    return a


def _play_out(s: GameState, players: list[ComputerPlayer], sides: list[str],
              lat: dict[str, list[float]], asks: dict[str, int], stops: dict[str, int]) -> GameState:
    n = 0
    while s.phase != Phase.HAND_OVER and n < MAX_ACTIONS:
        s = apply(s, _decide(s, players, sides, lat, asks, stops))
        n += 1
    return s


def _play_match_hand(m: Match, players: list[ComputerPlayer], sides: list[str],
                     lat: dict[str, list[float]], asks: dict[str, int], stops: dict[str, int]) -> Match:
    n = 0
    while m.state.phase != Phase.HAND_OVER and n < MAX_ACTIONS:
        m = play(m, _decide(m.state, players, sides, lat, asks, stops))
        n += 1
    return m


def _ended(ends: dict[str, int], s: GameState) -> None:
    """Count why a hand ended (went out, stock exhausted, ...; "unfinished" past MAX_ACTIONS)."""
    why = s.end_reason.name.lower() if s.phase == Phase.HAND_OVER and s.end_reason is not None else "unfinished"
    ends[why] = ends.get(why, 0) + 1


def play_deal_pair(st: Settings, index: int) -> dict[str, Any]:
    """Both plays of one deal: points of A and B summed over the two plays."""
    lat: dict[str, list[float]] = {"A": [], "B": []}
    asks = _new_asks()
    stops = {"A": 0, "B": 0}
    points = {"A": 0, "B": 0}
    hands = 0
    ends: dict[str, int] = {}
    t0 = time.perf_counter()
    deck = _deck(st.seed, index, 0, st.rules.packs)
    for play_no, a_team in enumerate((0, 1)):
        players, sides = _players(st, a_team, index, play_no)
        s = deal(st.rules, deck, index % 4)
        s = _play_out(s, players, sides, lat, asks, stops)
        sc = score_hand(s)
        points["A"] += sc[a_team].total
        points["B"] += sc[1 - a_team].total
        hands += 1
        _ended(ends, s)
    return {"index": index, "A": points["A"], "B": points["B"], "hands": hands, "lat": lat, "asks": asks, "stops": stops,
            "ends": ends, "seconds": time.perf_counter() - t0}


def play_match_pair(st: Settings, index: int) -> dict[str, Any]:
    """One match played twice with the seats swapped and the same decks: who won each."""
    lat: dict[str, list[float]] = {"A": [], "B": []}
    asks = _new_asks()
    stops = {"A": 0, "B": 0}
    winners: list[str] = []
    diff = 0
    hands = 0
    ends: dict[str, int] = {}
    t0 = time.perf_counter()
    for play_no, a_team in enumerate((0, 1)):
        players, sides = _players(st, a_team, index, play_no)
        m: Match = new_match(st.rules, _deck(st.seed, index, 0, st.rules.packs), index % 4)
        h = 0
        while True:
            m = _play_match_hand(m, players, sides, lat, asks, stops)
            h += 1
            _ended(ends, m.state)
            if m.state.phase != Phase.HAND_OVER or not m.needs_deal or h >= MAX_HANDS:
                break
            m = next_hand(m, _deck(st.seed, index, h, st.rules.packs))
        hands += h
        scores = m.scores
        w = m.winner
        if w is None:
            w = 0 if scores[0] > scores[1] else 1
        winners.append("A" if w == a_team else "B")
        diff += scores[a_team] - scores[1 - a_team]
    return {"index": index, "winners": winners, "diff": diff, "hands": hands, "lat": lat, "asks": asks, "stops": stops,
            "ends": ends, "seconds": time.perf_counter() - t0}


def _job(args: tuple[str, Settings, int]) -> dict[str, Any]:
    kind, st, index = args
    return play_deal_pair(st, index) if kind == "deals" else play_match_pair(st, index)


def _results(kind: str, st: Settings, n: int, jobs: int) -> Iterator[dict[str, Any]]:
    work = [(kind, st, i) for i in range(n)]
    if jobs <= 1:
        yield from map(_job, work)
        return
    import multiprocessing as mp

    with mp.Pool(jobs) as pool:
        yield from pool.imap_unordered(_job, work, chunksize=1)


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% confidence interval of a share k/n (Wilson score interval)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


def mean_ci(xs: list[float], z: float = 1.96) -> tuple[float, float]:
    """Mean and half-width of its 95% confidence interval."""
    n = len(xs)
    if n == 0:
        return (0.0, 0.0)
    mu = sum(xs) / n
    if n == 1:
        return (mu, 0.0)
    var = sum((x - mu) ** 2 for x in xs) / (n - 1)
    return (mu, z * math.sqrt(var / n))


def _quantile(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def run(a: str, b: str, *, deals: int | None = None, matches: int | None = None, budget: float = 0.1,
        seed: int = 1, jobs: int = 1, rules: Rules = CLASSIC, aggression: int = 50,
        budget_b: float | None = None, clock: bool = True,
        progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play the bench and return its figures (see :func:`report`).  ``budget_b`` is side B's
    budget when it differs from side A's."""
    for level in (a, b):
        if level != ORACLE:
            make_player(level, 0, budget=budget)  # refuse unknown levels before starting workers
    kind = "matches" if matches else "deals"
    n = matches if matches else (deals or 100)
    st = Settings(a, b, budget, seed, rules, aggression, budget_b, clock)
    start = time.perf_counter()
    rows: list[dict[str, Any]] = []
    for r in _results(kind, st, n, jobs):
        rows.append(r)
        if progress:
            progress(len(rows), n)
    elapsed = time.perf_counter() - start
    rows.sort(key=lambda r: r["index"])
    lat = {"A": sorted(x for r in rows for x in r["lat"]["A"]), "B": sorted(x for r in rows for x in r["lat"]["B"])}
    hands = sum(r["hands"] for r in rows)
    out: dict[str, Any] = {
        "benchmark": "ai", "a": a, "b": b, "mode": kind, "n": n, "budget": budget,
        "budget_b": budget if budget_b is None else budget_b, "clock": clock, "seed": seed,
        "reference": [side for side, level in (("A", a), ("B", b)) if level == ORACLE],
        "jobs": jobs, "rules": rules.name, "aggression": aggression, "seconds": round(elapsed, 1),
        "hands": hands, "hands_per_second": round(hands / elapsed, 2) if elapsed else 0.0,
        "decisions": len(lat["A"]) + len(lat["B"]),
        "decisions_per_second": round((len(lat["A"]) + len(lat["B"])) / elapsed, 1) if elapsed else 0.0,
    }
    if kind == "deals":
        wa = sum(1 for r in rows if r["A"] > r["B"])
        wb = sum(1 for r in rows if r["B"] > r["A"])
        ties = n - wa - wb
        per_hand = [(r["A"] - r["B"]) / 2 for r in rows]
        mu, half = mean_ci(per_hand)
        out.update({
            "pairs_won_a": wa, "pairs_won_b": wb, "pairs_tied": ties,
            "share_a": round((wa + ties / 2) / n, 4), "share_a_ci": [round(x, 4) for x in wilson(wa + ties / 2, n)],
            "share_b": round((wb + ties / 2) / n, 4), "share_b_ci": [round(x, 4) for x in wilson(wb + ties / 2, n)],
            "mean_diff_per_hand": round(mu, 1), "mean_diff_ci": [round(mu - half, 1), round(mu + half, 1)],
        })
    else:
        games = 2 * n
        wa = sum(r["winners"].count("A") for r in rows)
        pairs_a = sum(1 for r in rows if r["winners"].count("A") == 2)
        pairs_b = sum(1 for r in rows if r["winners"].count("B") == 2)
        per_match = [r["diff"] / 2 for r in rows]
        mu, half = mean_ci(per_match)
        hands_per_match = hands / games
        out.update({
            "matches_played": games, "matches_won_a": wa, "matches_won_b": games - wa,
            "share_a": round(wa / games, 4), "share_a_ci": [round(x, 4) for x in wilson(wa, games)],
            "share_b": round((games - wa) / games, 4),
            "share_b_ci": [round(x, 4) for x in wilson(games - wa, games)],
            "match_pairs_swept_a": pairs_a, "match_pairs_swept_b": pairs_b, "match_pairs_split": n - pairs_a - pairs_b,
            "mean_final_diff": round(mu, 1), "mean_final_diff_ci": [round(mu - half, 1), round(mu + half, 1)],
            "hands_per_match": round(hands_per_match, 2),
        })
    ends: dict[str, int] = {}
    for r in rows:
        for k, x in r["ends"].items():
            ends[k] = ends.get(k, 0) + x
    out["ends"] = dict(sorted(ends.items()))
    asked = {k: sum(r["asks"][k] for r in rows) for k in _new_asks()}
    out["asks"] = {
        side: {"level": a if side == "A" else b, "asks": asked[side],
               "per_100_hands": round(100 * asked[side] / hands, 1) if hands else 0.0}
        for side in ("A", "B")
    }
    out["answers"] = {"yes": asked[A.YES], "no": asked[A.NO]}
    out["latency_ms"] = {
        side: {"level": a if side == "A" else b, "decisions": len(xs),
               "p50": round(_quantile(xs, 0.5) * 1e3, 2), "p95": round(_quantile(xs, 0.95) * 1e3, 2),
               "max": round(xs[-1] * 1e3, 2) if xs else 0.0,
               "p99": round(_quantile(xs, 0.99) * 1e3, 2),
               "clock_stops": sum(r["stops"][side] for r in rows),
               "over_budget": sum(1 for x in xs if x > (budget if side == "A" or budget_b is None
                                                        else budget_b) * 1.1)}
        for side, xs in lat.items()
    }
    return out


def report(r: dict[str, Any]) -> str:
    budget = f"budget {r['budget']} s" if r.get("budget_b", r["budget"]) == r["budget"] else (
        f"budget A {r['budget']} s, B {r['budget_b']} s")
    lines = [f"ai bench: A={r['a']} (seats 1 & 3 first) vs B={r['b']}, {r['rules']} rules, seed {r['seed']}, "
             f"{budget}{'' if r.get('clock', True) else ' counted in work only'}, {r['jobs']} job(s), {r['seconds']} s"]
    for side in r.get("reference", []):
        lines.append(f"  reference:         {side} is the oracle, which sees every hand and the stock: "
                     "a ceiling to read the levels against, not a player")
    if r["mode"] == "deals":
        lines += [
            f"  deal pairs:        {r['n']} (each deal played twice, partnerships swapped)",
            f"  pairs won:         A {r['pairs_won_a']}  B {r['pairs_won_b']}  tied {r['pairs_tied']}",
            f"  share won by A:    {r['share_a']:.1%}  (95% CI {r['share_a_ci'][0]:.1%} - {r['share_a_ci'][1]:.1%})",
            f"  share won by B:    {r['share_b']:.1%}  (95% CI {r['share_b_ci'][0]:.1%} - {r['share_b_ci'][1]:.1%})",
            f"  mean A-B per hand: {r['mean_diff_per_hand']:+.1f}  "
            f"(95% CI {r['mean_diff_ci'][0]:+.1f} .. {r['mean_diff_ci'][1]:+.1f})",
        ]
    else:
        lines += [
            f"  matches:           {r['matches_played']} ({r['n']} played twice, seats swapped, same decks)",
            f"  matches won:       A {r['matches_won_a']}  B {r['matches_won_b']}",
            f"  share won by A:    {r['share_a']:.1%}  (95% CI {r['share_a_ci'][0]:.1%} - {r['share_a_ci'][1]:.1%})",
            f"  share won by B:    {r['share_b']:.1%}  (95% CI {r['share_b_ci'][0]:.1%} - {r['share_b_ci'][1]:.1%})",
            f"  match pairs:       A won both {r['match_pairs_swept_a']}, B won both {r['match_pairs_swept_b']}, "
            f"split {r['match_pairs_split']}",
            f"  mean final A-B:    {r['mean_final_diff']:+.1f}  "
            f"(95% CI {r['mean_final_diff_ci'][0]:+.1f} .. {r['mean_final_diff_ci'][1]:+.1f}); "
            f"{r['hands_per_match']} hands per match",
        ]
    ends = r.get("ends", {})
    if ends:
        lines.append("  hands ended:       " + ", ".join(
            f"{k.replace('_', ' ')} {x} ({x / r['hands']:.0%})" for k, x in ends.items()))
    ak = r["asks"]
    lines.append(f"  May I go out?:     A ({ak['A']['level']}) asked {ak['A']['asks']} times, "
                 f"{ak['A']['per_100_hands']} per 100 hands; B ({ak['B']['level']}) {ak['B']['asks']}, "
                 f"{ak['B']['per_100_hands']} per 100 hands; answers yes {r['answers']['yes']}, no {r['answers']['no']}")
    for side in ("A", "B"):
        q = r["latency_ms"][side]
        lines.append(f"  latency {side} ({q['level']}): p50 {q['p50']} ms  p95 {q['p95']} ms  p99 {q['p99']} ms  "
                     f"max {q['max']} ms over {q['decisions']} decisions, {q['over_budget']} over budget+10%, "
                     f"{q['clock_stops']} cut by the clock")
    lines.append(f"  throughput:        {r['hands_per_second']} hands/s, {r['decisions_per_second']} decisions/s")
    return "\n".join(lines)


# --------------------------------------------------------------------------- command line

import click  # noqa: E402  (the command lives with the bench; cli.py only registers it)

_LEVEL = click.Choice(["random", "beginner", "advanced", "expert", ORACLE], case_sensitive=False)


@click.command("ai")
@click.option("--a", "level_a", type=_LEVEL, required=True,
              help="Level of side A (seats 1 & 3 in the first play); oracle is a reference that sees every card.")
@click.option("--b", "level_b", type=_LEVEL, required=True, help="Level of side B.")
@click.option("--deals", type=click.IntRange(1, 1_000_000), default=None,
              help="Deal pairs to play (default 100).")
@click.option("--matches", type=click.IntRange(1, 100_000), default=None,
              help="Play this many matches to 5000 instead (each twice, seats swapped).")
@click.option("--budget", type=click.FloatRange(0.001, 60), default=0.1, show_default=True,
              help="Expert thinking time per decision, seconds.")
@click.option("--budget-b", type=click.FloatRange(0.001, 60), default=None,
              help="Side B's thinking time, when it differs from side A's (default: --budget).")
@click.option("--work-only", is_flag=True,
              help="Expert searches counted in work only, without the clock's safety stop: the same figures "
                   "however busy the machine (decision times are still measured).")
@click.option("--aggression", type=click.IntRange(0, 100), default=50, show_default=True,
              help="Expert aggression, 0-100.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the deals and the players.")
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True, help="Worker processes.")
@click.option("--rules", "rules_name", default="classic", show_default=True, metavar="NAME|FILE",
              help="Rules preset or TOML file.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def ai_command(level_a: str, level_b: str, deals: int | None, matches: int | None, budget: float,
               budget_b: float | None, work_only: bool, aggression: int, seed: int, jobs: int, rules_name: str,
               as_json: bool) -> None:
    """Computer against computer, duplicate style: strength with 95% confidence intervals,
    decision latency and throughput."""
    import json

    from ..engine.errors import RulesError
    from ..presets import load_rules

    if deals and matches:
        raise click.UsageError("give --deals or --matches, not both")
    try:
        rules = load_rules(rules_name)
    except RulesError as exc:
        raise click.BadParameter(str(exc), param_hint="--rules") from None
    if not rules.partnerships:
        raise click.BadParameter("the bench plays the four-player partnership game", param_hint="--rules")
    result = run(level_a.lower(), level_b.lower(), deals=deals, matches=matches, budget=budget, seed=seed,
                 jobs=jobs, rules=rules, aggression=aggression, budget_b=budget_b,
                 clock=not work_only)
    click.echo(json.dumps(result) if as_json else report(result))
