"""What a client may touch of a table: its own seats' views, public facts, and its moves.

A client (the table screen, local or over SSH) is given a :class:`Link`, never the
:class:`~.table.Table`: through it, it can read the view of the seats it plays (one, or
several in hot-seat), the public view, the public events and scores, and submit moves
for its own seats.  Nothing here returns another seat's hand before the hand is over.
``server/cluster/remote.py``'s ``RemoteLink`` is the same seam over the bus (a move's answer
comes later there: :meth:`Link.send` is the form both have).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from ..engine import Action, HandRecord, Phase, PlayerView, Rules
from .events import Event
from .seats import LOCAL
from .table import ChatLine, Listener, Outcome, Table

#: What :meth:`Link.send` hands ``along``: a function giving a seat's views before each action of a move.
Along = Callable[[Callable[[], Sequence[PlayerView]]], None]


class Link:
    """One client's connection to a table, for the seats it plays (none for a spectator)."""

    def __init__(self, table: Table, seats: Sequence[int] | None, token: Hashable, *, attend: bool = True,
                 may_hold: bool = False, chat: Callable[[str], str | None] | None = None) -> None:
        """``seats`` None: the table's local seats, whichever they are (they change when F3 loads
        a game saved with other seats); a remote client names its one seat.  ``chat`` says a
        line for this client (the server's, which checks length and rate): the reason it was
        not said, or None."""
        self._table = table
        self._seats = None if seats is None else tuple(seats)
        self.token = token
        self._may_hold = may_hold
        self._chat = chat
        if attend:
            table.attend(token)

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats this client plays."""
        if self._seats is not None:
            return self._seats
        return tuple(s for s, seat in enumerate(self._table.seats) if seat.kind == LOCAL)

    # ----------------------------------------------------------------- public facts
    @property
    def rules(self) -> Rules:
        return self._table.rules

    @property
    def hand_number(self) -> int:
        return self._table.match.hand_number

    @property
    def sheet(self) -> tuple[HandRecord, ...]:
        return self._table.match.sheet

    @property
    def scores(self) -> tuple[int, ...]:
        return self._table.match.scores

    @property
    def winner(self) -> int | None:
        return self._table.match.winner

    @property
    def closed(self) -> bool:
        """The table takes no move any more (a server's rated match ended by a forfeit)."""
        return self._table.closed

    @property
    def events(self) -> Sequence[Event]:
        return self._table.events

    @property
    def chat(self) -> Sequence[ChatLine]:
        return self._table.chat

    @property
    def version(self) -> int:
        return self._table.version

    def name(self, seat: int) -> str:
        return self._table.name(seat)

    def verified(self, seat: int) -> bool:
        """Is this seat's player known by their SSH key (a server's seat; never at home)?"""
        return self._table.seats[seat].verified

    def is_human(self, seat: int) -> bool:
        return self._table.is_human(seat)

    def kind(self, seat: int) -> str:
        return self._table.seats[seat].kind

    @property
    def humans(self) -> tuple[int, ...]:
        return self._table.humans

    def waiting(self) -> int:
        """How many clients still have to acknowledge the end of the hand."""
        return len(self._table.waiting)

    def public_view(self) -> PlayerView:
        return self._table.public_view()

    def final_hands(self) -> tuple[tuple[int, ...], ...] | None:
        """Every hand as it ended, once the hand is over (they are shown face up then)."""
        s = self._table.match.state
        return s.hands if s.phase == Phase.HAND_OVER else None

    # ----------------------------------------------------------------- this client's seats
    def view(self, seat: int) -> PlayerView:
        if seat not in self.seats:
            raise PermissionError(f"this client does not play Player {seat + 1}")
        return self._table.view(seat)

    def submit(self, seat: int, actions: Sequence[Action]) -> Outcome:
        if seat not in self.seats:
            return Outcome(False, f"You do not play {self._table.name(seat)}")
        return self._table.submit(seat, actions)

    def send(self, seat: int, actions: Sequence[Action], done: Callable[[Outcome], None],
             along: Along | None = None) -> None:
        """Play ``actions`` for one of this client's seats as one move; the table's answer goes to
        ``done``.  This is the form every link has (a remote one answers when the table's owner
        does, on the event loop; this one at once, before ``send`` returns).  ``along``, before the
        move is played and the table's listeners hear of it, is handed a function giving the seat's
        view before each action (:meth:`views_along`): what the coach keeps of a move (the review of
        a hand that this move ends starts as the listeners hear of it)."""
        if seat not in self.seats:
            done(Outcome(False, f"You do not play {self._table.name(seat)}"))
            return
        if along is not None:
            along(lambda: self._table.views_along(seat, actions))
        done(self._table.submit(seat, actions))

    def views_along(self, seat: int, actions: Sequence[Action]) -> tuple[PlayerView, ...]:
        """The view of one of this client's seats before each action of a move it means to submit
        (the table's :meth:`~.table.Table.views_along`): only what that seat sees at each step."""
        if seat not in self.seats:
            raise PermissionError(f"this client does not play Player {seat + 1}")
        return self._table.views_along(seat, actions)

    def acknowledge(self) -> None:
        self._table.acknowledge(self.token)

    @property
    def can_chat(self) -> bool:
        return self._chat is not None

    def say(self, text: str) -> str | None:
        """Say ``text`` to the table: None once said, or why it was not."""
        if self._chat is None:
            return "There is nobody to chat with here: everyone at this table sees this screen"
        return self._chat(text)

    def subscribe(self, listener: Listener) -> None:
        self._table.subscribe(listener)

    def unsubscribe(self, listener: Listener) -> None:
        self._table.unsubscribe(listener)

    def hold(self) -> None:
        """Stop the computers (a local player's question on screen); only a local table honours it."""
        if self._may_hold:
            self._table.hold(self.token)

    def release(self) -> None:
        if self._may_hold:
            self._table.release(self.token)

    def close(self) -> None:
        self._table.leave(self.token)
        self.release()


def local_link(table: Table) -> Link:
    """The link of this terminal's players (one, several in hot-seat, none to watch): it holds
    the computers while the player decides something (quit, save, load)."""
    return Link(table, None, "local", may_hold=True)


__all__ = ["Along", "Link", "local_link"]
