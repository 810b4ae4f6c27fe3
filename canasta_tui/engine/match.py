"""A match: hands dealt in turn until a side reaches the target score (5000).

"The first partnership to reach or exceed 5000 points wins the game ... If both sides
exceed 5000 points, the side with the higher score is the winner. If both sides are
tied, a new hand is played to determine the winner."

The match is fully described by its rules, the deck order of each hand and the
action log; randomness (the shuffle) is handed in, never drawn here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .actions import Action
from .errors import CanastaError
from .play import apply, deal, legal_actions
from .rules import Rules
from .scoring import TeamScore, score_hand
from .state import GameState, Phase, next_seat


class HandRecord(NamedTuple):
    """One finished hand on the score sheet."""

    number: int
    dealer: int
    scores: tuple[TeamScore, ...]
    totals: tuple[int, ...]      # running totals after this hand
    went_out: int
    end_reason: str


class Match(NamedTuple):
    rules: Rules
    first_dealer: int
    decks: tuple[tuple[int, ...], ...]   # deck order of every hand dealt so far
    log: tuple[tuple[Action, ...], ...]  # actions of every hand dealt so far
    sheet: tuple[HandRecord, ...]        # finished hands
    state: GameState                     # the current (or last) hand

    @property
    def scores(self) -> tuple[int, ...]:
        return self.sheet[-1].totals if self.sheet else (0,) * self.rules.teams

    @property
    def hand_number(self) -> int:
        return len(self.decks)

    @property
    def winner(self) -> int | None:
        """The winning side, once the match is over; None while it goes on."""
        if not self.sheet or self.state.phase != Phase.HAND_OVER:
            return None
        totals = self.sheet[-1].totals
        best = max(totals)
        if best < self.rules.target_score or list(totals).count(best) > 1:
            return None
        return totals.index(best)

    @property
    def needs_deal(self) -> bool:
        """The hand is over and scored, and the match goes on: a new deck is wanted."""
        return self.state.phase == Phase.HAND_OVER and self.winner is None


def new_match(rules: Rules, deck: Sequence[int], first_dealer: int = 0) -> Match:
    state = deal(rules, deck, first_dealer)
    return Match(rules, first_dealer, (tuple(int(c) for c in deck),), ((),), (), state)


def play(m: Match, action: Action) -> Match:
    """Apply ``action`` to the current hand; when the hand ends, score it."""
    state = apply(m.state, action)
    log = (*m.log[:-1], m.log[-1] + (action,))
    sheet = m.sheet
    if state.phase == Phase.HAND_OVER:
        scores = score_hand(state)
        before = m.scores
        totals = tuple(before[i] + scores[i].total for i in range(len(scores)))
        sheet = (*sheet, HandRecord(len(m.decks), state.dealer, scores, totals, state.went_out, state.end_reason))
    return m._replace(state=state, log=log, sheet=sheet)


def next_hand(m: Match, deck: Sequence[int]) -> Match:
    """Deal the next hand (the dealer moves one seat to the left)."""
    if not m.needs_deal:
        raise CanastaError("the current hand is not over" if m.state.phase != Phase.HAND_OVER
                           else "the match is over")
    dealer = next_seat(m.state.dealer, m.rules.players)
    state = deal(m.rules, deck, dealer, m.scores)
    return m._replace(state=state, decks=(*m.decks, tuple(int(c) for c in deck)), log=(*m.log, ()))


def replay(rules: Rules, decks: Sequence[Sequence[int]], log: Sequence[Sequence[Action]],
           first_dealer: int = 0) -> Match:
    """Rebuild a match from its decks and action log; raises CanastaError naming the bad step."""
    if not decks:
        raise CanastaError("a match needs at least one deck")
    if len(log) > len(decks):
        raise CanastaError(f"the log has {len(log)} hands but only {len(decks)} decks")
    m = new_match(rules, decks[0], first_dealer)
    for h, deck in enumerate(decks):
        if h:
            m = next_hand(m, deck)
        for i, a in enumerate(log[h] if h < len(log) else ()):
            try:
                m = play(m, a)
            except CanastaError as exc:
                raise CanastaError(f"hand {h + 1}, action {i + 1} ({a}): {exc}") from None
    return m


__all__ = ["HandRecord", "Match", "legal_actions", "new_match", "next_hand", "play", "replay"]
