"""The table: the game driver that every seat plays at.

The table is the only place that holds the whole position (``Match``, hence every hand
and the stock).  Seats play at it through one protocol, whoever sits there:

* the table tells its listeners that something changed (``table_changed``);
* the seat to act answers with :meth:`Table.submit` — a move of one or more actions
  that the table applies atomically or refuses with the engine's reason.

A computer seat answers from a worker thread (its thinking never blocks a key); a
human seat answers when the person has composed the move, from a client that sees only
that seat's view (see :mod:`.link`).  At the end of a hand the table waits until every
attending client has acknowledged the score, then deals.  Randomness lives here, never in
the engine: decks are shuffled by a ``random.Random`` seeded from ``--seed``.

Every method runs on the event loop's thread (or, without a loop, the caller's); only a
computer's ``choose`` runs elsewhere, on a view taken beforehand.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import BrokenExecutor, Executor
from enum import StrEnum
from typing import NamedTuple, Protocol

from ..ai import ComputerPlayer, make_player
from ..ai.expert import ExpertPlayer
from ..engine import (
    PUBLIC,
    Action,
    GameState,
    IllegalActionError,
    Match,
    Phase,
    PlayerView,
    Rules,
    full_deck,
    new_match,
    next_hand,
    public_view,
    team,
    view_for,
)
from ..engine import play as play_action
from ..engine.cards import card_text, plural
from .events import DEALT, Event, action_events, deal_events, describe, hand_events
from .seats import COMPUTER, Seat, seat_name


class Change(StrEnum):
    """What changed at the table, as its observers and listeners are told."""

    ACTION = "action"      # a move was played (or improper melds went back to the hand)
    DEAL = "deal"          # the next hand was dealt
    LOAD = "load"          # a loaded game replaced the match
    SEATS = "seats"        # who plays a seat changed
    CLOSED = "closed"      # the table closed (listeners only)
    CHAT = "chat"          # a line was said (listeners only)
    CLOCK = "clock"        # a countdown shown over the table moved on (listeners only)


#: What an observer receives: the table and what happened (ACTION, DEAL, LOAD, SEATS).
Observer = Callable[["Table", Change], None]


class Outcome(NamedTuple):
    """The table's answer to a move: applied, or refused with the reason (``changed``: the
    refusal still changed the table, e.g. improper melds went back to the hand)."""

    ok: bool
    reason: str = ""
    changed: bool = False


class Listener(Protocol):
    """A client of the table: told after anything changed (on the table's thread)."""

    def table_changed(self, what: Change) -> None: ...


class ChatLine(NamedTuple):
    """A line said at the table: ``who`` said ``text`` (``who`` empty: the table's own notice, such as
    a player who disconnected) after the first ``at`` events, so the log shows it in its place."""

    seq: int
    who: str
    text: str
    at: int = 0


#: Chat lines a table keeps (the newest).
CHAT_KEEP = 200


class ThinkingShare:
    """The computers' share of the workers they think in, at a server with many tables.

    An Expert thinks ``budget`` seconds a decision while no more Experts think at once than
    there are workers; when more do, each thinks less (down to ``least``), so that every table's
    computers keep moving instead of queueing behind one another.  The budget is counted in
    work (:mod:`~canasta_tui.ai.expert`), so a decision still depends only on the budget it was
    given and its seed, not on how fast the worker happened to run.  Used on the event loop's
    thread only."""

    def __init__(self, workers: int, budget: float, least: float) -> None:
        if workers < 1 or not 0 < least <= budget:
            raise ValueError(f"need workers >= 1 and 0 < least ({least}) <= budget ({budget})")
        self.workers = workers
        self.budget = budget
        self.least = least
        self.thinking = 0

    def start(self) -> float:
        """One more computer starts thinking: the budget it gets."""
        self.thinking += 1
        return max(self.least, min(self.budget, self.budget * self.workers / self.thinking))

    def done(self) -> None:
        self.thinking = max(0, self.thinking - 1)


def make_computer(level: str, seed: int, aggression: int = 50) -> ComputerPlayer:
    """A computer player of ``level``; ``aggression`` (0-100) only changes how the Expert plays."""
    return make_player(level, seed, aggression=aggression)


def think(player: ComputerPlayer, view: PlayerView,
          choose: Callable[[ComputerPlayer, PlayerView], Action] | None = None) -> tuple[Action, ComputerPlayer]:
    """What ``player`` chooses (through ``choose``, the table's :meth:`Table._choose`), and the
    player as it is after choosing (its memory of the hand, its random numbers).  In a worker
    process both travel by pickle: the table keeps the copy that thought, so a computer plays
    the same in a process as in a thread."""
    return (choose or Table._choose)(player, view), player


class Table:
    """One game: rules, seats, the match, the shuffles still to come, events and observers."""

    def __init__(self, rules: Rules, seats: Sequence[Seat], seed: int | None = None, *,
                 match: Match | None = None, delay_ms: int = 0, aggression: int = 50,
                 computer_factory: Callable[[str, int], ComputerPlayer] | None = None,
                 game_id: str = "") -> None:
        if len(seats) != rules.players:
            raise ValueError(f"{rules.players} seats needed, got {len(seats)}")
        self.rules = rules
        self.seats = tuple(seats)
        self.seed = random.randrange(1 << 31) if seed is None else seed
        self.rng = random.Random(self.seed)
        self.delay = delay_ms / 1000
        self.aggression = aggression
        self.game_id = game_id
        self._factory: Callable[[str, int], ComputerPlayer] = computer_factory or (
            lambda level, s: make_computer(level, s, self.aggression))
        self._observers: list[Observer] = []
        self._listeners: list[Listener] = []
        self.events: list[Event] = []
        self.chat: list[ChatLine] = []
        self.version = 0                      # bumped by every change (a computer's stale answer is dropped)
        self._views_state: GameState | None = None    # the state the views below were made of
        self._views: dict[int, PlayerView] = {}       # seat (-1: a spectator's) -> its view
        self.closed = False
        #: Who must acknowledge the end of a hand before the next is dealt (clients that attend).
        self.attendees: set[Hashable] = set()
        self.waiting: set[Hashable] = set()
        #: Holds that stop the computers (a local player's quit question); a server never holds.
        self.holds: set[Hashable] = set()
        self._wake: asyncio.Event | None = None
        self.computers = self._make_computers()
        if match is None:
            match = new_match(rules, self.shuffled_deck(), first_dealer=rules.players - 1)
            self.match = match
            self._publish(deal_events(match.state, 1))
        else:
            self.match = match
            self._rebuild_events()

    @property
    def state(self) -> GameState:
        """The whole position: the table's own business (and tests'), never a client's."""
        return self.match.state

    # ----------------------------------------------------------------- who and what
    def name(self, seat: int) -> str:
        return seat_name(self.seats, seat)

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(s for s, seat in enumerate(self.seats) if seat.human)

    def is_human(self, seat: int) -> bool:
        return self.seats[seat].human

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know: its own hand and everything public."""
        views = self._views_of_state()
        v = views.get(seat)
        if v is None:
            v = views[seat] = view_for(self.match.state, seat)
        return v

    def public_view(self) -> PlayerView:
        """What a spectator may know: no hand at all (the engine's :func:`public_view`)."""
        views = self._views_of_state()
        v = views.get(PUBLIC)
        if v is None:
            v = views[PUBLIC] = public_view(self.match.state)
        return v

    def _views_of_state(self) -> dict[int, PlayerView]:
        """The views made of the game's state as it is: every client's paint asks for its seat's
        view several times, and a view holds the legal actions (states and views are immutable)."""
        state = self.match.state
        if self._views_state is not state:
            self._views_state, self._views = state, {}
        return self._views

    def shuffled_deck(self) -> list[int]:
        deck = [int(c) for c in full_deck(self.rules.packs)]
        self.rng.shuffle(deck)
        return deck

    def _make_computers(self) -> dict[int, ComputerPlayer]:
        return {s: self._factory(seat.level, self.seed * 7 + s)
                for s, seat in enumerate(self.seats) if seat.kind == COMPUTER}

    # ----------------------------------------------------------------- observers and listeners
    def add_observer(self, fn: Observer) -> None:
        """``fn(table, what)`` after every move (ACTION), deal (DEAL), loaded game (LOAD) and change
        of seats (SEATS): autosave and statistics."""
        self._observers.append(fn)

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _changed(self, what: Change, observe: bool = True) -> None:
        self.version += 1
        if observe:
            for fn in list(self._observers):
                fn(self, what)
        for listener in list(self._listeners):
            listener.table_changed(what)
        if self._wake is not None:
            self._wake.set()

    def _publish(self, events: Sequence[Event]) -> None:
        for e in events:
            self.events.append(e._replace(seq=len(self.events) + 1))

    def _rebuild_events(self) -> None:
        """The current hand's events again, from its deck and actions (a resumed or loaded game)."""
        m = self.match
        h = m.hand_number
        before = m.sheet[h - 2].totals if h >= 2 else (0,) * m.rules.teams
        self.events = []
        self._publish(hand_events(m.rules, m.decks[-1], m.state.dealer, before, m.log[-1], h))

    def log_lines(self) -> list[tuple[int, str]]:
        """The log: (who, text) per event; the deal counts as the table's (-1)."""
        return [(-1 if e.kind == DEALT else e.seat, describe(e, self.name)) for e in self.events]

    # ----------------------------------------------------------------- moves
    def submit(self, seat: int, actions: Sequence[Action]) -> Outcome:
        """Play ``actions`` for ``seat`` as one move: all of them, or none and the reason.

        A discard refused because of this turn's melds returns the last of them to the hand
        (DOS manual, "Improper Melds"): the refusal then says so and the table has changed.
        """
        if self.closed:
            return Outcome(False, "The table is closed")
        s = self.match.state
        if not actions:
            return Outcome(False, "Nothing to play")
        if s.phase == Phase.HAND_OVER:
            return Outcome(False, "The hand is over")
        if seat != s.actor:
            if s.phase == Phase.PERMISSION:
                return Outcome(False, f"{self.name(s.actor)} must first answer: may {self.name(s.turn)} go out?")
            return Outcome(False, f"It is {self.name(s.actor)}'s turn")
        try:
            match, events = self._try(seat, actions)
        except IllegalActionError as exc:
            if len(actions) == 1:
                returned = self._return_improper_melds(seat, actions[0])
                if returned is not None:
                    return returned
            return Outcome(False, str(exc))
        self._commit(match, events)
        self._after_move()
        return Outcome(True)

    def views_along(self, seat: int, actions: Sequence[Action]) -> tuple[PlayerView, ...]:
        """``seat``'s view before each of ``actions``, as :meth:`submit` would play them in turn (the
        table is not touched): the position each action of a move is played in, for the review of
        the hand.  Shorter than ``actions`` where one could not be played (the move is refused)."""
        m = self.match
        out: list[PlayerView] = []
        for a in actions:
            if m.state.actor != seat or m.state.phase == Phase.HAND_OVER:
                break
            out.append(self.view(seat) if m is self.match else view_for(m.state, seat))
            try:
                m = play_action(m, a)
            except IllegalActionError:
                break
        return tuple(out)

    def _try(self, seat: int, actions: Sequence[Action]) -> tuple[Match, list[Event]]:
        """The match after ``actions`` played in turn by ``seat``, and what everybody saw them do;
        raises IllegalActionError with the reason.  Each action is played once, by ``play``
        (every check it makes, the take-back limit too): the trial is the commit, and the table
        is not touched until :meth:`_commit`."""
        m = self.match
        events: list[Event] = []
        for i, a in enumerate(actions):
            if i and m.state.actor != seat:
                raise IllegalActionError(f"'{actions[i - 1]}' ends your part of the turn: nothing can follow it")
            before = m.state
            m = play_action(m, a)
            events += action_events(before, a, m.state, m.hand_number)
        return m, events

    def _commit(self, match: Match, events: Sequence[Event]) -> None:
        self.match = match
        self._publish(events)

    def _return_improper_melds(self, seat: int, a: Action) -> Outcome | None:
        from ..engine import improper_melds

        found = improper_melds(self.match.state, a)
        if found is None:
            return None
        if not found.undo:     # melds made to take the pile stay: only the reason
            return Outcome(False, f"Improper melds: {found.reason}.")
        tm = team(seat, self.match.rules)
        # A sequence (Samba) is named by its run, as the table shows it, not by a rank.
        seq = next((m for m in self.match.state.melds[tm] if m is not None and m.is_sequence
                    and not Counter(found.cards) - Counter(m.naturals)), None)
        try:
            match, events = self._try(seat, found.undo)
        except IllegalActionError as exc:       # a hand past its take-back limit
            return Outcome(False, f"Improper melds: {found.reason}.\n{exc}")
        if seq is not None and seq in match.state.melds[tm]:
            seq = None          # (that sequence stays as it was: the cards came off a meld of a rank)
        self._commit(match, events)
        self._changed(Change.ACTION)
        what = "wild cards" if found.rank == 2 else plural(found.rank)
        what = f"meld of {what}" if seq is None else \
            f"sequence {card_text(seq.naturals[0], True)}-{card_text(seq.naturals[-1], True)}"
        back = (f"Your {what} is back in your hand" if found.whole
                else f"What you added to your {what} is back in your hand")
        more = " (discard again to return the next one)." if found.more else "."
        return Outcome(False, f"Improper melds: {found.reason}.\n{back}{more}", changed=True)

    def _after_move(self) -> None:
        if self.match.state.phase == Phase.HAND_OVER:
            self.waiting = set(self.attendees)
        self._changed(Change.ACTION)
        self._deal_if_ready()

    # ----------------------------------------------------------------- the end of a hand
    def attend(self, who: Hashable) -> None:
        """``who`` (a client) must acknowledge the end of every hand before the next is dealt."""
        self.attendees.add(who)

    def leave(self, who: Hashable) -> None:
        self.attendees.discard(who)
        if who in self.waiting:
            self.acknowledge(who)

    def acknowledge(self, who: Hashable) -> None:
        """``who`` has seen the score of the hand: deal when everybody has."""
        self.waiting.discard(who)
        self._deal_if_ready()

    def _deal_if_ready(self) -> None:
        m = self.match
        if m.needs_deal and not self.waiting and not self.closed:
            self.match = next_hand(m, self.shuffled_deck())
            self._publish(deal_events(self.match.state, self.match.hand_number))
            self._changed(Change.DEAL)

    # ----------------------------------------------------------------- computers
    def computer_to_act(self) -> int | None:
        """The computer seat to act now, if any (none while a hand is over or the table is held)."""
        s = self.match.state
        if s.phase == Phase.HAND_OVER or self.closed or self.holds:
            return None
        return s.actor if s.actor in self.computers else None

    def computer_choice(self, seat: int | None = None) -> Action:
        """What the computer to act chooses (synchronously; tests and tools)."""
        seat = self.match.state.actor if seat is None else seat
        return self._choose(self.computers[seat], self.view(seat))

    @staticmethod
    def _choose(player: ComputerPlayer, view: PlayerView) -> Action:
        try:
            a = player.choose(view)
        except Exception:  # a computer never stalls the table: fall back to a legal action
            return view.legal[0]
        return a if a in view.legal else view.legal[0]

    def step(self) -> bool:
        """Play one computer move now (synchronously); False if no computer is to act."""
        seat = self.computer_to_act()
        if seat is None:
            return False
        self.submit(seat, [self.computer_choice(seat)])
        return True

    async def run(self, executor: Executor | None = None, share: ThinkingShare | None = None) -> None:
        """Drive the computers until the table closes: think in ``executor`` (threads, or worker
        processes at a server), check that nothing changed meanwhile, apply, then pause ``delay``
        so people can follow.  With ``share`` (a server's), an Expert's budget is its share of
        the workers at the moment it starts to think."""
        self._wake = asyncio.Event()
        loop = asyncio.get_running_loop()
        while not self.closed:
            seat = self.computer_to_act()
            if seat is None:
                self._wake.clear()
                await self._wake.wait()
                continue
            version = self.version
            view = self.view(seat)
            player = self.computers[seat]
            shared = None
            if share is not None and isinstance(player, ExpertPlayer):
                shared = share
                player.budget = share.start()
            try:
                action, thought = await loop.run_in_executor(executor, think, player, view, self._choose)
            except BrokenExecutor:
                executor = None      # a worker process died: think in the loop's own threads from now on
                continue
            finally:
                if shared is not None:
                    shared.done()
            if self.computers.get(seat) is player:
                self.computers[seat] = thought     # (a copy, when it thought in another process)
            if self.version != version or self.closed:
                continue
            self.submit(seat, [action])
            if self.delay:
                await asyncio.sleep(self.delay)

    def wake(self) -> None:
        if self._wake is not None:
            self._wake.set()

    def hold(self, who: Hashable) -> None:
        self.holds.add(who)

    def release(self, who: Hashable) -> None:
        self.holds.discard(who)
        self.wake()

    def close(self) -> None:
        self.closed = True
        self._changed(Change.CLOSED, observe=False)

    # ----------------------------------------------------------------- seats and games
    def set_seat(self, seat: int, new: Seat) -> None:
        """Change who plays a seat (a computer takes over a dropped player, a human sits down)."""
        seats = list(self.seats)
        seats[seat] = new
        self.seats = tuple(seats)
        if new.kind == COMPUTER:
            self.computers[seat] = self._factory(new.level, self.seed * 7 + seat)
        else:
            self.computers.pop(seat, None)
        self._changed(Change.SEATS)

    def replace_match(self, match: Match, seats: Sequence[Seat], game_id: str = "") -> None:
        """Play on from a loaded match, in one step: everything that can fail (the seat count, the
        computers' levels) is done first; on ValueError the table is exactly as it was."""
        if len(seats) != match.rules.players:
            raise ValueError(f"{match.rules.players} seats needed, got {len(seats)}")
        computers = {s: self._factory(seat.level, self.seed * 7 + s)
                     for s, seat in enumerate(seats) if seat.kind == COMPUTER}
        self.rules, self.seats, self.computers, self.match = match.rules, tuple(seats), computers, match
        if game_id:
            self.game_id = game_id
        self.waiting = set(self.attendees) if match.state.phase == Phase.HAND_OVER else set()
        self._rebuild_events()
        self._changed(Change.LOAD)

    def remind(self) -> None:
        """The clients paint again, nothing else changed: a countdown they show moved on (the
        server's "play again?" question)."""
        self._changed(Change.CLOCK, observe=False)

    def say(self, who: str, text: str) -> ChatLine:
        """A chat line at this table (the server checks length and rate)."""
        line = ChatLine(self.chat[-1].seq + 1 if self.chat else 1, who, text, len(self.events))
        self.chat.append(line)
        del self.chat[:-CHAT_KEEP]
        self._changed(Change.CHAT, observe=False)
        return line


__all__ = ["Change", "ChatLine", "Listener", "Observer", "Outcome", "Table", "make_computer", "think"]
