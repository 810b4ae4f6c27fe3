"""A headless computer-vs-computer game that autosaves: the crash tests' subject.

``python -m canasta_tui.persistence.selfplay --seed 7 --actions 300`` plays uniform-random
legal actions (each chosen from the seed and the action's number, so a resumed game
continues exactly as an uninterrupted one would), autosaving after every completed
action and every deal, with the exit savers installed.  It prints the number of
completed actions after each autosave, and ``exit-saved N`` when a signal made it
save and stop.  ``--resume`` continues from the autosave.  Files go where
``CANASTA_HOME`` (or the XDG directories) say.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from ..engine import Match, full_deck, legal_actions, new_match, next_hand, play
from ..presets import load_rules
from .saves import Autosaver, SaveError, find_autosave, install_exit_savers


def actions_done(m: Match) -> int:
    return sum(len(hand) for hand in m.log)


def deck_for(seed: int, hand: int, packs: int = 2) -> list[int]:
    deck = [int(c) for c in full_deck(packs)]
    random.Random(seed * 7919 + hand).shuffle(deck)
    return deck


def start(seed: int, rules_name: str = "classic") -> Match:
    rules = load_rules(rules_name)
    return new_match(rules, deck_for(seed, 1, rules.packs), seed % 4)


def step(m: Match, seed: int) -> Match:
    """One deal or one action, determined by the seed and how far the match has gone."""
    if m.needs_deal:
        return next_hand(m, deck_for(seed, m.hand_number + 1, m.rules.packs))
    legal = legal_actions(m.state)
    n = actions_done(m)
    return play(m, legal[random.Random(seed * 1_000_003 + n).randrange(len(legal))])


def game_over(m: Match) -> bool:
    return m.winner is not None


def reference(seed: int, actions: int, rules_name: str = "classic", deal: bool = True) -> Match:
    """The match after ``actions`` completed actions (and the deal that follows them, if ``deal``)."""
    m = start(seed, rules_name)
    while (actions_done(m) < actions or (deal and m.needs_deal)) and not game_over(m):
        m = step(m, seed)
    return m


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="canasta-selfplay", description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--actions", type=int, default=200, help="stop after this many completed actions")
    ap.add_argument("--delay", type=float, default=0.0, help="seconds to wait after each action")
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--resume", action="store_true")
    args = ap.parse_args(argv)

    m: Match | None = None
    if args.resume:
        found = find_autosave()
        for notice in found.notices:
            print(notice, file=sys.stderr, flush=True)
        if found.game is not None:
            m = found.game.match
    if m is None:
        m = start(args.seed, args.rules)
    saver = Autosaver({"seats": ["computer"] * m.rules.players, "seed": args.seed, "kind": "selfplay"})
    current = [m]

    def exit_save() -> None:
        saver.save(current[0])
        print(f"exit-saved {actions_done(current[0])}", flush=True)

    install_exit_savers(exit_save)
    if not saver.save(m):
        print(saver.error, file=sys.stderr, flush=True)
        return 1
    print(actions_done(m), flush=True)
    while actions_done(m) < args.actions and not game_over(m):
        m = step(m, args.seed)
        current[0] = m
        if not saver.save(m):
            print(saver.error, file=sys.stderr, flush=True)
            return 1
        print(actions_done(m), flush=True)
        if args.delay:
            time.sleep(args.delay)
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except SaveError as exc:
        print(exc, file=sys.stderr)
        sys.exit(1)
