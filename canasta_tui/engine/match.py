"""A match: hands dealt in turn until a side reaches the target score (5000).

"The first partnership to reach or exceed 5000 points wins the game ... If both sides
exceed 5000 points, the side with the higher score is the winner. If both sides are
tied, a new hand is played to determine the winner."

The match is fully described by its rules, the deck order of each hand and the
action log; randomness (the shuffle) is handed in, never drawn here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from . import actions as A
from .actions import Action
from .errors import CanastaError, IllegalActionError
from .moves import apply, apply_legal, deal, is_legal, legal_actions, may_ask_version_1, may_meld_to_one_card
from .rules import Rules
from .scoring import TeamScore, score_hand
from .state import GameState, HandEnd, Phase, next_seat

#: The most actions one hand's log may hold; a save with a longer hand is refused unread.
#: A hand needs a few hundred (random self-play's longest are under 300): past that only
#: ``undo`` and ``unpile`` can repeat without progress, and ``play`` stops them at half.
MAX_HAND_ACTIONS = 50_000
TAKE_BACK_LIMIT = MAX_HAND_ACTIONS // 2


class HandRecord(NamedTuple):
    """One finished hand on the score sheet."""

    number: int
    dealer: int
    scores: tuple[TeamScore, ...]
    totals: tuple[int, ...]      # running totals after this hand
    went_out: int
    end_reason: HandEnd | None


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
    hand_log = m.log[-1]
    problem = take_back_problem(m.state, len(hand_log), action)
    if problem is not None:
        raise IllegalActionError(problem)
    return _with_hand(m, apply(m.state, action), hand_log + (action,))


def _with_hand(m: Match, state: GameState, hand_log: tuple[Action, ...]) -> Match:
    """``m`` with the current hand at ``state`` after ``hand_log``, scored if it is over."""
    sheet = m.sheet
    if state.phase == Phase.HAND_OVER and len(sheet) < len(m.decks):
        scores = score_hand(state)
        before = m.scores
        totals = tuple(before[i] + scores[i].total for i in range(len(scores)))
        sheet = (*sheet, HandRecord(len(m.decks), state.dealer, scores, totals, state.went_out, state.end_reason))
    return m._replace(state=state, log=(*m.log[:-1], hand_log), sheet=sheet)


def take_back_problem(s: GameState, done: int, a: Action) -> str | None:
    """Why ``a`` may not follow the ``done`` actions of this hand, or None.

    Every action but ``undo`` and ``unpile`` makes progress (a card drawn, melded or
    discarded, a question asked once a turn), so a hand of them ends within a few
    thousand actions.  Once a hand has run to half of :data:`MAX_HAND_ACTIONS`, melds can
    no longer be taken back nor the pile put back, so its log stays under the bound and
    every game the engine plays can be saved and loaded.  A player is never left without
    a way on: past the limit a meld (or pile take) is refused when the turn could not end
    after it without taking melds back, and ``undo`` is still allowed where nothing else
    can end the turn.
    """
    if done < TAKE_BACK_LIMIT or a.kind not in (A.UNDO, A.UNPILE, A.MELD, A.ADD, A.PILE) \
            or not is_legal(s, a):
        return None  # not limited here (an illegal action gets the engine's own reason)
    head = f"This hand has run to {done} actions"
    if a.kind in (A.UNDO, A.UNPILE):
        if a.kind == A.UNDO and not turn_can_end(s):
            return None
        return f"{head}: melds can no longer be taken back, nor the pile put back"
    if not turn_can_end(apply_legal(s, a)):
        return f"{head}: a meld now must leave a turn you can end without taking melds back"
    return None


def turn_can_end(s: GameState, limit: int = 2000) -> bool:
    """Can the current turn end (a discard, the end of the hand) by melding on from ``s``,
    without ``undo``?  A depth-first search over melds; False when it gives up."""
    seen: set[tuple[object, ...]] = set()
    nodes = 0

    def search(x: GameState) -> bool:
        nonlocal nodes
        nodes += 1
        if x.phase != Phase.MELD:
            return True
        legal = legal_actions(x)
        if any(a.kind in (A.DISCARD, A.END) for a in legal):
            return True
        key = (x.hands[x.turn], x.melds, x.aside)
        if key in seen or nodes > limit:
            return False
        seen.add(key)
        return any(search(apply_legal(x, a)) for a in legal if a.kind in (A.MELD, A.ADD))

    return search(s)


def next_hand(m: Match, deck: Sequence[int]) -> Match:
    """Deal the next hand (the dealer moves one seat to the left)."""
    if not m.needs_deal:
        raise CanastaError("the current hand is not over" if m.state.phase != Phase.HAND_OVER
                           else "the match is over")
    dealer = next_seat(m.state.dealer, m.rules.players)
    state = deal(m.rules, deck, dealer, m.scores)
    return m._replace(state=state, decks=(*m.decks, tuple(int(c) for c in deck)), log=(*m.log, ()))


def replay(rules: Rules, decks: Sequence[Sequence[int]], log: Sequence[Sequence[Action]],
           first_dealer: int = 0, *, earlier_rules: bool = False) -> Match:
    """Rebuild a match from its decks and action log; raises CanastaError naming the bad step.

    Linear in the length of the log: each hand's actions are applied to the position
    and collected in a list, and the match is rebuilt once per hand (``play`` would copy
    the hand's log at every action).  With ``earlier_rules`` an action that an earlier rule of
    this engine allowed is replayed as it was played: an ``ask`` that save format 1 allowed
    (after drawing, before any meld) even where going out was impossible, and a meld down
    to one card that left no way to end the turn but ``undo`` (allowed until the meld
    was refused up front).  A game saved before such a rule, and saved again since, loads."""
    if not decks:
        raise CanastaError("a match needs at least one deck")
    if len(log) > len(decks):
        raise CanastaError(f"the log has {len(log)} hands but only {len(decks)} decks")
    m = new_match(rules, decks[0], first_dealer)
    for h, deck in enumerate(decks):
        if h:
            m = next_hand(m, deck)
        s = m.state
        done: list[Action] = []
        try:
            for _before, a, after in replay_steps(m.state, log[h] if h < len(log) else (),
                                                  earlier_rules=earlier_rules):
                done.append(a)
                s = after
        except CanastaError as exc:
            a = (log[h])[len(done)]
            raise CanastaError(f"hand {h + 1}, action {len(done) + 1} ({a}): {exc}") from None
        m = _with_hand(m, s, tuple(done))
    return m


def replay_steps(s: GameState, actions: Sequence[Action], *,
                 earlier_rules: bool = False) -> Iterator[tuple[GameState, Action, GameState]]:
    """Each action of a hand applied in turn from ``s``: (before, action, after), checked as
    ``replay`` checks them (the take-back limit, the earlier rules); raises CanastaError."""
    for i, a in enumerate(actions):
        problem = take_back_problem(s, i, a)
        if problem is not None:
            raise IllegalActionError(problem)
        try:
            after = apply(s, a)
        except IllegalActionError:
            if not (earlier_rules and (may_ask_version_1(s) if a == A.A_ASK else may_meld_to_one_card(s, a))):
                raise
            after = apply_legal(s, a)
        yield s, a, after
        s = after


__all__ = ["MAX_HAND_ACTIONS", "HandRecord", "Match", "legal_actions", "new_match", "next_hand", "play", "replay",
           "replay_steps", "take_back_problem", "turn_can_end"]
