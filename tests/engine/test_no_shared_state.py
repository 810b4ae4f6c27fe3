"""The engine keeps no state between calls (issue 11, "Engine": "no module-global caches (a
server runs many tables from several threads)").

``legal_actions`` had a one-entry module-global cache (with several threads it could hand
one table another table's actions) and ``actions.action`` interned actions in a dict
filled at run time.  The race is gone by construction: playing whole hands from several
threads leaves every module-level value of the engine exactly as it was, and every thread
gets the same answers as a lone player.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
import threading
from typing import Any

import canasta_tui.engine as engine
from canasta_tui.engine import CLASSIC, Phase, apply, deal, full_deck, legal_actions, parse_action


def module_state() -> dict[str, Any]:
    """Every module-level value of the engine's modules, copied deeply enough to compare."""
    out: dict[str, Any] = {}
    for info in pkgutil.iter_modules(engine.__path__):
        mod = importlib.import_module(f"canasta_tui.engine.{info.name}")
        for name, value in vars(mod).items():
            if name.startswith("__") or callable(value) or isinstance(value, type(engine)):
                continue
            if isinstance(value, dict | list | set):
                out[f"{info.name}.{name}"] = repr(value)
            elif hasattr(value, "items"):            # a read-only mapping
                out[f"{info.name}.{name}"] = repr(dict(value.items()))
            else:
                out[f"{info.name}.{name}"] = repr(value)
    return out


def play_hands(seed: int, hands: int, record: list[tuple[int, ...]]) -> None:
    rng = random.Random(seed)
    for h in range(hands):
        deck = [int(c) for c in full_deck()]
        rng.shuffle(deck)
        s = deal(CLASSIC, deck, h % 4)
        while s.phase != Phase.HAND_OVER:
            legal = legal_actions(s)
            record.append(tuple(hash(a) for a in legal))
            s = apply(s, legal[rng.randrange(len(legal))])


def test_playing_leaves_no_module_state_behind() -> None:
    before = module_state()
    play_hands(3, 3, [])
    parse_action("meld K K K K K")     # an action outside the precomputed table
    assert module_state() == before


def test_threads_get_the_answers_a_lone_player_gets() -> None:
    alone: dict[int, list[tuple[int, ...]]] = {}
    for seed in range(4):
        alone[seed] = []
        play_hands(seed, 2, alone[seed])
    together: dict[int, list[tuple[int, ...]]] = {seed: [] for seed in range(4)}
    threads = [threading.Thread(target=play_hands, args=(seed, 2, together[seed])) for seed in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert together == alone


def test_actions_are_shared_values_from_a_read_only_table() -> None:
    from canasta_tui.engine import actions as A
    assert parse_action("meld K K 2") is A.meld(13, 13, 2)
    assert parse_action("discard 7h") is A.discard(30)
    odd = parse_action("meld K K K K")
    assert odd == A.Action("meld", (13, 13, 13, 13)) and str(odd) == "meld K K K K"
    assert not hasattr(A, "_cache")
