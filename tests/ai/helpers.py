"""Playing whole hands between computer players, for the tests."""

from __future__ import annotations

import functools
import importlib.util
import random
import types
from pathlib import Path

from canasta_tui.ai import ComputerPlayer
from canasta_tui.engine import CLASSIC, GameState, Meld, Phase, Rules, Turn, apply, deal, full_deck, view_for


def shuffled(seed: int, packs: int = 2) -> list[int]:
    deck = [int(c) for c in full_deck(packs)]
    random.Random(seed).shuffle(deck)
    return deck


def play_hand(players: list[ComputerPlayer], seed: int, rules: Rules = CLASSIC,
              limit: int = 4000) -> tuple[GameState, list[str]]:
    """Play one hand; every choice must be legal (``apply`` raises otherwise)."""
    s = deal(rules, shuffled(seed, rules.packs), seed % rules.players)
    log: list[str] = []
    while s.phase != Phase.HAND_OVER:
        v = view_for(s, s.actor)
        a = players[s.actor].choose(v)
        assert a in v.legal, f"{players[s.actor].name} chose {a} not in {v.legal}"
        log.append(f"{s.actor}:{a}")
        s = apply(s, a)
        assert len(log) < limit, "the hand does not end"
    return s, log


def cards(text: str) -> tuple[int, ...]:
    from canasta_tui.engine.cards import parse_cards

    return tuple(sorted(int(c) for c in parse_cards(text)))


def meld(text: str) -> Meld:
    from canasta_tui.engine.cards import IS_WILD, RANK_OF

    cs = cards(text)
    nat = tuple(c for c in cs if not IS_WILD[c])
    return Meld(RANK_OF[nat[0]], nat, tuple(c for c in cs if IS_WILD[c]))


def position(hands: dict[int, str], *, melds: dict[int, list[str]] | None = None, turn: int = 0,
             phase: Phase = Phase.MELD, pile: str = "7c 9d", stock: int = 40, asked: bool = False,
             permission: int = -1, drew: str = "stock", turn_number: int = 9) -> GameState:
    """A constructed position (cards need not add up to 108: the engine does not mind).
    Seats not given hold five low cards; every side given melds is open."""
    from canasta_tui.engine.moves import EMPTY_ROW

    base = deal(CLASSIC, shuffled(0), 3)
    hs = [cards(hands.get(p, "4c 5d 6h 8s 9c")) for p in range(4)]
    rows = []
    for tm in range(2):
        row = list(EMPTY_ROW)
        for text in (melds or {}).get(tm, []):
            m = meld(text)
            row[m.rank] = m
        rows.append(tuple(row))
    opened = tuple(any(m is not None for m in rows[p % 2]) for p in range(4))
    keys = sum(1 << r for r, m in enumerate(rows[turn % 2]) if m is not None)
    t = Turn(drew=drew if phase == Phase.MELD else "", opened_at_start=opened[turn], melded_before=opened[turn],
             start_keys=keys, asked=asked or phase == Phase.PERMISSION, permission=permission)
    deck = base.deck
    return base._replace(
        hands=tuple(hs), melds=tuple(rows), red_threes=((),) * 4, pile=cards(pile), frozen=False,
        phase=phase, turn=turn, actor=(turn + 2) % 4 if phase == Phase.PERMISSION else turn,
        turn_number=turn_number, has_melded=opened, threes_laid=(True,) * 4, known=((),) * 4,
        stock_pos=len(deck) - stock, t=t, requirements=(50, 50))


def variant_position(hands: dict[int, str], **kw: object) -> GameState:
    """A Samba or Bolivia position, built by the engine tests' ``positions.position`` (a sequence
    written ``"seq 7h 8h 9h"``; ``rules=`` the preset; seats not given hold no cards)."""
    return _engine_positions().position(hands, **kw)  # type: ignore[no-any-return]


@functools.cache
def _engine_positions() -> types.ModuleType:
    path = Path(__file__).parent.parent / "engine" / "positions.py"
    spec = importlib.util.spec_from_file_location("ai_engine_positions", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
