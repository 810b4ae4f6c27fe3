"""The table: the game driver that seats play at (computers, local and remote humans)."""

from .link import Link, local_link
from .seats import COMPUTER, LOCAL, REMOTE, Seat, SeatKind, seat_name, seats_for
from .table import Change, ChatLine, Listener, Observer, Outcome, Table, make_computer

__all__ = ["COMPUTER", "LOCAL", "REMOTE", "Change", "ChatLine", "Link", "Listener", "Observer", "Outcome", "Seat",
           "SeatKind", "Table", "local_link", "make_computer", "seat_name", "seats_for"]
