"""``canasta bench engine``: uniform-random legal self-play through the engine.

Counts complete hands and actions per second, and stuck states (a position that is
not over but has no legal action: there must be none).  Other rules than classic (Samba,
Bolivia ...) are followed by as long a run of classic's, for the comparison.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..engine import CLASSIC, Phase, Rules, apply_legal, deal, full_deck, legal_actions


def run(seconds: float = 5.0, seed: int = 1, rules: Rules = CLASSIC) -> dict[str, Any]:
    """Play for ``seconds``; other rules than classic are then played for as long again
    under classic rules, so that their hands/s stand beside classic's on the same machine."""
    result = _run(seconds, seed, rules)
    if rules != CLASSIC:
        result["classic_hands_per_second"] = _run(seconds, seed, CLASSIC)["hands_per_second"]
    return result


def _run(seconds: float, seed: int, rules: Rules) -> dict[str, Any]:
    rng = random.Random(seed)
    base = list(full_deck(rules.packs))
    hands = actions = stuck = went_out = 0
    longest = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        deck = base[:]
        rng.shuffle(deck)
        s = deal(rules, deck, hands % rules.players)
        n = 0
        while s.phase != Phase.HAND_OVER:
            legal = legal_actions(s)
            if not legal:
                stuck += 1
                break
            # taken from legal_actions itself: checking it again would count the enumeration twice
            s = apply_legal(s, legal[rng.randrange(len(legal))])
            n += 1
        hands += 1
        actions += n
        longest = max(longest, n)
        went_out += s.went_out >= 0
    elapsed = time.perf_counter() - start
    return {
        "benchmark": "engine", "rules": rules.name, "seed": seed, "seconds": round(elapsed, 3),
        "hands": hands, "actions": actions,
        "hands_per_second": round(hands / elapsed, 1), "actions_per_second": round(actions / elapsed),
        "mean_actions_per_hand": round(actions / max(hands, 1), 1), "longest_hand_actions": longest,
        "hands_gone_out": went_out, "stuck_states": stuck,
    }


def report(result: dict[str, Any]) -> str:
    r = result
    return (f"engine bench ({r['rules']} rules, seed {r['seed']}, {r['seconds']} s)\n"
            f"  hands:          {r['hands']}  ({r['hands_per_second']} hands/s; {r['hands_gone_out']} ended by going out)\n"
            f"  actions:        {r['actions']}  ({r['actions_per_second']} actions/s, "
            f"{r['mean_actions_per_hand']} per hand, longest {r['longest_hand_actions']})\n"
            f"  stuck states:   {r['stuck_states']}"
            + (f"\n  classic rules:  {r['classic_hands_per_second']} hands/s on this machine, just after"
               if "classic_hands_per_second" in r else ""))
