"""A finished match as a replay shows it: each position of each hand as every seat's view.

The replay viewer (``ui/replay.py``) is a client like the table's: it never holds the whole
game.  :class:`MatchReplay` does, here beside the table: it rebuilds each hand's positions
from its deck and action log as the loader replays them (lazily, a hand at a time) and hands
the viewer, for each position, the view of every seat (the match is over: every hand is
shown), the public events so far and the match's score.  Only a match that is over is
replayed for somebody else (the server refuses one still played); ``canasta replay FILE``
opens any save of one's own.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..engine import GameState, Match, Phase, PlayerView, Rules, deal, view_for
from ..engine.match import replay_steps
from ..engine.state import next_seat
from .events import Event, action_events, deal_events
from .seats import REMOTE


class Frame(NamedTuple):
    """One position of a hand: after the deal (``move`` empty) or after one move."""

    views: tuple[PlayerView, ...]    # every seat's
    move: str                        # the move that led here, in the game's notation ("" for the deal)
    events: int                      # how many of the hand's events had happened
    over: bool                       # the hand is over (scored)


class ReplayHand(NamedTuple):
    frames: tuple[Frame, ...]
    events: tuple[Event, ...]        # the hand's public events, numbered from 1
    before: tuple[int, ...]          # the match score before the hand
    after: tuple[int, ...] | None    # ... and after it, once it was scored


class MatchReplay:
    """Every hand of ``match`` as frames, a hand rebuilt when first asked for."""

    def __init__(self, match: Match) -> None:
        self._match = match
        self.rules: Rules = match.rules
        self.hand_count = len(match.decks)
        self.over = match.winner is not None
        self.scores: tuple[int, ...] = tuple(match.scores)
        self._hands: dict[int, ReplayHand] = {}

    def hand(self, h: int) -> ReplayHand:
        """Hand ``h`` (from 0): the deal, then the position after each of its moves."""
        got = self._hands.get(h)
        if got is not None:
            return got
        m = self._match
        sheet = m.sheet
        players = self.rules.players
        before = sheet[h - 1].totals if h else (0,) * self.rules.teams
        dealer = m.first_dealer if h == 0 else next_seat(sheet[h - 1].dealer, players)
        state = deal(self.rules, m.decks[h], dealer, before)
        events = deal_events(state, h + 1)

        def views(s: GameState) -> tuple[PlayerView, ...]:
            return tuple(view_for(s, p) for p in range(players))

        frames = [Frame(views(state), "", len(events), state.phase == Phase.HAND_OVER)]
        for prev, a, after in replay_steps(state, m.log[h] if h < len(m.log) else (), earlier_rules=True):
            events += action_events(prev, a, after, h + 1)
            frames.append(Frame(views(after), str(a), len(events), after.phase == Phase.HAND_OVER))
        numbered = tuple(e._replace(seq=i + 1) for i, e in enumerate(events))
        got = ReplayHand(tuple(frames), numbered, tuple(before), sheet[h].totals if h < len(sheet) else None)
        self._hands[h] = got
        return got


class ReplaySource(NamedTuple):
    """What a replay shows: the match's frames, each seat's name, whether a person played it, a title."""

    game: MatchReplay
    names: tuple[str, ...]
    humans: tuple[bool, ...]
    title: str


def replay_source(match: Match, meta: dict[str, Any], title: str) -> ReplaySource:
    """A save's match with the names and seats its meta records (``table_meta``'s)."""
    names, humans = replay_names(match.rules.players, meta)
    return ReplaySource(MatchReplay(match), names, humans, title)


def replay_names(players: int, meta: dict[str, Any]) -> tuple[tuple[str, ...], tuple[bool, ...]]:
    """Each seat's name and whether a person played it, as a save's meta records them (``table_meta``).
    A server's save says ``remote`` for a person at their own terminal, and keeps the person of a
    seat a computer played for them at the end (they left) under ``server.keys`` (a computer's is "")."""
    names = meta.get("names")
    seats = meta.get("seats")
    server = meta.get("server")
    keys = server.get("keys") if isinstance(server, dict) else None
    name_list = [n if isinstance(n, str) else "" for n in names] if isinstance(names, list) else []
    humans = [s in ("human", REMOTE) for s in seats] if isinstance(seats, list) else []
    if isinstance(keys, list):
        humans = [h or (i < len(keys) and isinstance(keys[i], str) and keys[i] != "")
                  for i, h in enumerate((humans + [False] * players)[:players])]
    padded = (name_list + [""] * players)[:players]
    return (tuple(n or f"Player {i + 1}" for i, n in enumerate(padded)),
            tuple((humans + [False] * players)[:players]))


__all__ = ["Frame", "MatchReplay", "ReplayHand", "ReplaySource", "replay_names", "replay_source"]
