"""What one seat may know: the per-seat view given to a player (human UI or computer).

Hidden information is structural: a :class:`PlayerView` is built from the state by
copying only public facts and the seat's own hand, so a player that holds a view
cannot read another hand or the stock.  ``determinize`` turns a view back into a
full position by dealing the unseen cards at random (for computer players that
search); the randomness is handed in.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from .actions import Action
from .cards import IS_RED_THREE, full_deck
from .melds import Meld
from .play import legal_actions, meld_count, meld_needed
from .rules import Rules
from .state import GameState, Penalty, Phase, Turn


class PlayerView(NamedTuple):
    seat: int
    rules: Rules
    phase: Phase
    turn: int
    actor: int
    dealer: int
    turn_number: int
    hand: tuple[int, ...]                     # this seat's own cards
    hand_sizes: tuple[int, ...]               # every player's card count
    known: tuple[tuple[int, ...], ...]        # per seat: cards known to be in that hand (taken from the pile)
    melds: tuple[tuple[Meld | None, ...], ...]
    red_threes: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...]                     # every card in the pile was seen going in; pile[-1] is the upcard
    frozen: bool
    stock_size: int
    stock_turned: bool
    requirements: tuple[int, ...]
    has_melded: tuple[bool, ...]
    penalties: tuple[int, ...]
    t: Turn                                   # the current turn (public part; undo history removed)
    meld_count: int                           # initial-meld points melded this turn
    meld_needed: int                          # what the turn must reach (0 once the side has melded)
    legal: tuple[Action, ...]                 # this seat's legal actions when it is to act
    went_out: int
    concealed: bool
    end_reason: str
    penalty_log: tuple[Penalty, ...]          # every penalty of the hand, with its reason
    aside: tuple[int, ...]                    # the rest of a taken pile, waiting for the initial meld (public)

    @property
    def upcard(self) -> int | None:
        return self.pile[-1] if self.pile else None

    @property
    def pile_size(self) -> int:
        return len(self.pile)

    @property
    def waiting(self) -> int:
        """Cards of a taken pile waiting for the initial meld (they come into the hand then)."""
        return len(self.aside)


def view_for(s: GameState, seat: int) -> PlayerView:
    """The view of ``s`` for ``seat``: its own hand and what everyone can see."""
    t = s.t._replace(prev=None, pile_undo=None, own=s.t.own if seat == s.turn else None)
    return PlayerView(
        seat=seat, rules=s.rules, phase=s.phase, turn=s.turn, actor=s.actor, dealer=s.dealer,
        turn_number=s.turn_number, hand=s.hands[seat], hand_sizes=tuple(len(h) for h in s.hands),
        known=s.known, melds=s.melds, red_threes=s.red_threes, pile=s.pile, frozen=s.frozen,
        stock_size=s.stock_size, stock_turned=s.stock_turned, requirements=s.requirements,
        has_melded=s.has_melded, penalties=s.penalties, t=t,
        meld_count=meld_count(s) if s.phase != Phase.HAND_OVER else 0,
        meld_needed=meld_needed(s) if s.phase != Phase.HAND_OVER else 0,
        legal=tuple(legal_actions(s)) if s.actor == seat else (),
        went_out=s.went_out, concealed=s.concealed, end_reason=s.end_reason, penalty_log=s.penalty_log,
        aside=s.aside,
    )


def unseen_cards(v: PlayerView) -> list[int]:
    """The cards this seat cannot see: other hands (less their known cards) and the stock."""
    pool = [int(c) for c in full_deck()]
    seen: list[int] = list(v.hand) + list(v.pile) + list(v.aside)
    for row in v.melds:
        for m in row:
            if m is not None:
                seen.extend(m.naturals)
                seen.extend(m.wilds)
    for rt in v.red_threes:
        seen.extend(rt)
    for p, k in enumerate(v.known):
        if p != v.seat:
            seen.extend(k)
    for c in seen:
        pool.remove(c)
    return pool


def determinize(v: PlayerView, rng: random.Random) -> GameState:
    """A full position consistent with everything ``v`` shows, unseen cards dealt at random.

    Other hands hold their known cards plus random unseen ones; the stock gets the rest.
    The result plays on with the real rules, so a search can look ahead in it.
    """
    pool = unseen_cards(v)
    rng.shuffle(pool)
    laid = tuple(_had_turn(v, p) for p in range(len(v.hand_sizes)))
    # A player who has had a turn has laid out every red three: none may be dealt to them.
    plain = [c for c in pool if not IS_RED_THREE[c]]
    hands: list[tuple[int, ...]] = []
    taken: list[int] = []
    for p, size in enumerate(v.hand_sizes):
        if p == v.seat:
            hands.append(v.hand)
            continue
        k = v.known[p]
        need = size - len(k)
        if laid[p]:
            got, plain = plain[:need], plain[need:]
        else:
            got = []
        hands.append(k + tuple(got))
        taken.extend(got)
    for c in taken:
        pool.remove(c)
    i = 0
    for p, size in enumerate(v.hand_sizes):
        if p != v.seat and not laid[p]:
            need = size - len(hands[p])
            hands[p] = hands[p] + tuple(pool[i:i + need])
            i += need
    hands = [tuple(sorted(h)) for h in hands]
    stock = pool[i:]
    assert len(stock) == v.stock_size, "view is inconsistent: the unseen cards do not fill the stock"
    # The deck is a permutation of the 108 cards: everything out of the stock, then the stock.
    rest = [int(c) for c in full_deck()]
    for c in stock:
        rest.remove(c)
    deck = tuple(rest) + tuple(stock)
    return GameState(
        rules=v.rules, dealer=v.dealer, requirements=v.requirements, deck=deck, stock_pos=len(rest),
        hands=tuple(hands), melds=v.melds, red_threes=v.red_threes, pile=v.pile, frozen=v.frozen,
        phase=v.phase, turn=v.turn, actor=v.actor, turn_number=v.turn_number, has_melded=v.has_melded,
        threes_laid=laid,
        known=v.known, penalties=v.penalties, t=v.t, stock_turned=v.stock_turned,
        went_out=v.went_out, concealed=v.concealed, end_reason=v.end_reason, penalty_log=v.penalty_log,
        aside=v.aside,
    )


def _had_turn(v: PlayerView, p: int) -> bool:
    """Has seat ``p`` had its first turn (so its dealt red threes are laid out)?"""
    n = len(v.hand_sizes)
    first = (v.dealer + 1) % n
    return (p - first) % n < v.turn_number
