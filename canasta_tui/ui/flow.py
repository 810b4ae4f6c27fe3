"""The flow of play at one terminal: after anything happened at the table, whose hand shows,
which end-of-hand screen is up, hot-seat privacy, the bell, a partner's answer, the autosave's
trouble.  Free functions of the client model (:class:`~.model.Client`), which calls
:func:`after_change` whenever the table or the client changed.

Hot-seat's one rule: a hand shows only while its seat has input to give; the others look at a
blank screen that names whose turn it is ("Player 4 is up — press Enter").
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import TYPE_CHECKING

from ..engine import Phase, partner
from ..table.events import ANSWERED, recap
from .coaching import Review
from .dialogs import Answer, ChatInput, MatchOver, Privacy, Quit, SheetEnd, Summary, Waiting

if TYPE_CHECKING:       # (the model calls these; nothing here needs it at run time)
    from .model import Client

#: Dialogs of the end of a hand: the next deal closes them.
HAND_OVER_DIALOGS = (Summary, Review, SheetEnd, Waiting, MatchOver)


def after_change(c: Client) -> None:
    """Bring the client in line with the game after anything happened."""
    _follow_the_game(c)
    _ring_bells(c)
    _read_events(c)
    _tell_file_problem(c)


def _new_hand(c: Client, dealt: bool) -> None:
    """A new hand: the end-of-hand screens go, and the cursor starts again."""
    c.hand_seen = c.link.hand_number
    c.cursor = 0
    c.arranged.clear()
    c.selected.clear()
    if isinstance(c.dialog, HAND_OVER_DIALOGS):
        c.dialog = None
    c.end_deal()
    if dealt:
        c.begin_deal()


def _follow_the_game(c: Client) -> None:
    link = c.link
    pv = link.public_view()
    if link.hand_number != c.hand_seen:
        _new_hand(c, pv.phase != Phase.HAND_OVER)
    if c.hot_seat and c.viewer is not None and (pv.phase == Phase.HAND_OVER or pv.actor != c.viewer):
        # Whatever ended that seat's input (a discard, going out, an answer, a question to a
        # partner), the hand goes away before anybody else acts.
        _turn_ended(c, c.viewer)
    hand_len = len(c.hand())
    c.cursor = max(0, min(c.cursor, hand_len - 1))
    c.selected = {i for i in c.selected if i < hand_len}
    if pv.phase == Phase.HAND_OVER:
        c.coach.hand_over(link.hand_number)
        if not isinstance(c.dialog, (*HAND_OVER_DIALOGS, Quit, ChatInput)):
            c.message = []
            review = c.coach.review_page(link.seats, c.hot_seat, link.hand_number) is not None
            c.dialog = Waiting() if c.acked == link.hand_number else Summary(review=review)
        return
    if isinstance(c.dialog, HAND_OVER_DIALOGS):
        c.dialog = None
    actor = pv.actor
    if actor not in link.seats:
        return
    if actor != c.viewer:
        if c.hot_seat:
            c.viewer = None
            c.message = []
            if not isinstance(c.dialog, Privacy):
                c.dialog = Privacy(seat=actor)
            return
        c.viewer = actor
    _start_turn_if_needed(c)
    if pv.phase == Phase.PERMISSION and not isinstance(c.dialog, Answer):
        c.dialog = Answer(seat=actor)


def _ring_bells(c: Client) -> None:
    """Ring the bell (at the next paint) for the events the player wants to hear: their turn
    after a computer's, a question from their partner, the end of a hand; each once."""
    pv = c.link.public_view()
    now = (c.link.hand_number, pv.actor, pv.phase)
    before, c.rung = c.rung, now
    if before is None or before == now:
        return
    mine = pv.actor in c.link.seats
    if pv.phase == Phase.HAND_OVER:
        event = "hand_over" if before[2] != Phase.HAND_OVER else ""
    elif mine and pv.phase == Phase.PERMISSION:
        event = "question"
    elif (mine and pv.phase == Phase.DRAW and before[0] == now[0] and before[1] != pv.actor
          and not c.link.is_human(before[1])):
        event = "turn"
    else:
        event = ""
    if event in c.bells:
        c.bell = True


def _read_events(c: Client) -> None:
    """Messages from what others did: a partner's answer to this player's question."""
    events = c.link.events
    if events and events[-1].seq < c.events_read:      # rebuilt (a loaded game)
        c.events_read = 0
    # (by their numbers, not their places: a remote table's list holds only the current hand's)
    fresh = list(itertools.takewhile(lambda e: e.seq > c.events_read, reversed(events)))
    for e in reversed(fresh):
        if e.kind == ANSWERED and e.seat not in c.link.seats and partner(e.seat) == c.viewer:
            said = "Yes, go out" if e.text == "yes" else "No, do not go out"
            c.message = [f"{c.link.name(e.seat)} says: {said}"]
    c.events_read = events[-1].seq if events else c.events_read


def _tell_file_problem(c: Client) -> None:
    """Show an autosave failure once (again only if it stops and comes back)."""
    problem = c.files.problem() if c.files is not None else None
    if problem is None:
        c.problem_shown = None
        return
    if problem == c.problem_shown or c.dialog is not None:
        return
    c.problem_shown = problem
    c.message = [problem] + ([""] + c.message if c.message else [])


def _start_turn_if_needed(c: Client) -> None:
    if c.viewer is None:
        return
    v = c.link.view(c.viewer)
    if v.turn == c.viewer and v.phase == Phase.DRAW:
        c.turn_start[c.viewer] = Counter(v.hand)


def reveal(c: Client, seat: int) -> None:
    """Hot-seat: the player pressed Enter on their privacy screen; they get a short log of what
    the others did since their last turn (public information only)."""
    c.dialog = None
    c.viewer = seat
    c.cursor = 0
    c.selected.clear()
    events = c.link.events
    since = recap(events[c.seen_log.get(seat, 0):], c.link.name, skip=seat)
    c.seen_log[seat] = len(events)
    if since:
        # One line per player's moves, so every discard since this player's last turn fits.
        c.message = ["Since your last turn:", *since]
    _start_turn_if_needed(c)
    if c.link.view(seat).phase == Phase.PERMISSION:
        c.dialog = Answer(seat=seat)


def _turn_ended(c: Client, seat: int) -> None:
    """A hot-seat human's input is done: hide the hand and ring the bell ("At the conclusion
    of the play a bell will sound indicating that it permissible, once again to look at the
    table", DOS manual)."""
    c.seen_log[seat] = len(c.link.events)
    c.viewer = None
    c.message = []        # a message to that player may speak of their hand
    c.bell = True


def acknowledge(c: Client) -> None:
    """This terminal has seen the score of the hand: the table deals when everybody has."""
    c.acked = c.link.hand_number
    c.dialog = None
    c.link.acknowledge()
    if c.link.public_view().phase == Phase.HAND_OVER:
        c.dialog = MatchOver() if c.link.winner is not None else Waiting()


__all__ = ["HAND_OVER_DIALOGS", "acknowledge", "after_change", "reveal"]
