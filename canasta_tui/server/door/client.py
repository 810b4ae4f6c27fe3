"""What one connection runs: the lobby, then a table, then the lobby again.

The app is the game's own :class:`~canasta_tui.ui.app.ScreenApp`; its flow shows the lobby
(:mod:`canasta_tui.ui.lobby`, acting through :class:`.lobby.RegistryLobby`) and the table's
client (:class:`~canasta_tui.ui.controller.Controller` with ``remote=True``: quitting leaves
the table, Ctrl-Z does nothing).  A connection only ever receives a
:class:`~canasta_tui.table.Link` for its own seat, or a spectator's.

Nothing here knows about SSH: the app takes prompt-toolkit's input and output, so tests
and benchmarks can run it on a pipe as well.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol, cast

from ...lobbyview import LobbyService
from ...table import Change, Link
from ...text import printable, span
from ...ui.app import ScreenApp
from ...ui.canvas import Canvas, Options
from ...ui.controller import Controller
from ...ui.dialogs import InvitationBox, MatchOver, Rematch, RematchQuestion
from ...ui.lobby import LobbyScreen
from ..club.admin import Admin, ban_message
from ..club.people import Invitation, PersonOptions
from ..club.records import ClubRecords, PersonRecords, TableHost, screen_options
from ..lobby.connected import Room
from ..lobby.registry import Registry
from ..lobby.service import RegistryLobby
from ..person import Refusal, reason
from ..tables.server_table import Destination
from .auth import Identity, code_text

#: Hints one person may ask for in a minute: each is the Expert's search, in the workers that
#: every table's computers share (ui.coaching.Coach.per_minute).
HINTS_PER_MINUTE = 20

#: What a player sees while their table moves to another machine of the room (its owner died).
MOVING = "Table moving to another machine of the room…"

log = logging.getLogger("canasta.server")


class ServerScreen(Protocol):
    """A screen the server can reach while it is shown (the lobby, a table's client): it moves its
    person (their table started, a claimed seat is theirs at the deal) and shows them a line.
    The connection's flow knows which one it shows (:attr:`ServerApp.shown`)."""

    def go(self, where: Destination) -> None: ...

    def notify(self, text: str) -> None: ...


class SeatClient(Controller):
    """The table's client at a server: it finishes when the player leaves, or when the server
    moves them (a spectator whose claimed seat is theirs at the deal)."""

    def __init__(self, link: Link, table: int | None = None, watching: bool = False) -> None:
        super().__init__(link, None, remote=True)
        self.next: Destination | None = None
        #: The server's table it shows, and whether as a spectator (who may answer an invitation here).
        self.table = table
        self.watching = watching
        #: Leave for the lobby, with this line there (an invitation accepted to a forming table).
        self.lobby_note: str | None = None
        #: A player's: at the end of the match, "play again with the same people?".
        self.again: RematchQuestion | None = None

    @property
    def finished(self) -> bool:
        return self.quitting or self.next is not None or self.lobby_note is not None

    def ask(self, text: str, answer: Callable[[bool], None]) -> None:
        """A question over the table (an invitation): y or n answers it; Esc leaves it for the lobby."""
        self.client.open(InvitationBox(text=text, answer=answer,
                                       later=lambda: self.notify("The invitation waits in the lobby: y there answers it")))
        self.on_change()

    def go(self, where: Destination) -> None:
        self.next = where
        self.on_change()

    def notify(self, text: str) -> None:
        self.message = [text]
        self.client.turn_note = ""
        self.on_change()

    def warn(self, text: str) -> None:
        """The turn timer's warning: on the hint line while the turn lasts (no box whose key would be
        lost to closing it), and the bell if the person rings it for their turn."""
        self.client.turn_note = text
        if "turn" in self.client.bells:
            self.bell = True
        self.on_change()

    def table_changed(self, what: Change) -> None:
        if self.client.turn_note and not self.client.my_turn():
            self.client.turn_note = ""
        super().table_changed(what)

    def _offer_again(self) -> None:
        """A player's end of the match asks "play again?" instead of only saying who won."""
        dialog = self.client.dialog
        if self.again is not None and isinstance(dialog, MatchOver) and not isinstance(dialog, Rematch):
            q = self.again
            self.client.dialog = Rematch(answer=q.answer, status=q.status, asked=q.asked)
            q.seen()

    def paint(self, width: int, height: int, opts: Options) -> Canvas:
        self._offer_again()
        return super().paint(width, height, opts)

    def handle(self, name: str) -> None:
        self._offer_again()
        super().handle(name)


class ServerApp(ScreenApp):
    """The app of one connection: lobby and tables in turn, until the player leaves the server."""

    def __init__(self, registry: Registry, identity: Identity, guest_code: str = "", returning: bool = False,
                 admin: Admin | None = None, address: str = "", **kw: Any) -> None:
        super().__init__(remote=True, **kw)
        self.registry = registry
        #: The admins' actions (the lobby offers them to an admin).
        self.admin = admin
        self._identity = identity
        #: A guest's code (their seat comes back to whoever types it); "" for a person with a key.
        self.guest_code = guest_code
        #: A guest who logged in with a seat's code (``gus+CODE``): they must hold that seat.
        self.returning = returning
        #: Where the connection comes from (a guest, who has no key, is banned by it).
        self.address = address
        self.reason = ""                 # why the server closed this connection (told to the player)
        self.kicked = False
        #: The lobby or the table's client this connection shows now (None between them).
        self.shown: ServerScreen | None = None
        #: What the terminal can show (``options`` as given); the person's options go on top.
        self.terminal_options = self.options
        #: The person's options (kept by their key; a guest's for this visit), applied at once.
        self.kept = registry.club.person_options(identity) or PersonOptions()
        self.options = screen_options(self.terminal_options, self.kept)
        self.records = PersonRecords(self)
        #: The coach's hints and reviews think where the computers do (never on the loop).
        self.executor = registry.executor

    # ------------------------------------------------------------------ a client of the tables
    @property
    def identity(self) -> Identity:
        return self._identity

    def reclaim(self, code: str) -> str | None:
        """A guest typed a seat's code: they are that seat's guest from now on (why not, or None)."""
        limit = self.registry.guess_wait(self)
        if limit is not None:
            return limit.reason
        why, ident = self.registry.reclaim(self, code)
        if ident is None:
            self.registry.guess_failed(self)
            return reason(why)
        old = self._identity.person
        self._identity = ident
        self.guest_code = code_text(code)
        self.registry.rekey(self, old)
        log.info("%s typed the code of their seat", ident.log_text())
        return None

    def _check_code(self) -> Refusal | None:
        """A guest who came back with a seat's code: why not let in (a wrong code costs time)."""
        if not self.returning or self._identity.verified:
            return None
        limit = self.registry.guess_wait(self)
        if limit is not None:
            return Refusal(f"Not let in: {limit.reason}", limit.kind)
        if any(st.seat_of(self._identity.person) is not None for st in self.registry.tables.values()):
            return None
        self.registry.guess_failed(self)
        return Refusal("Not let in: no seat has that code. Connect with your name alone to come in as a new guest")

    def apply_options(self, kept: PersonOptions) -> None:
        """The person changed their options: the screen takes them at once, and so does the table
        they are at (hand order, sounds) and every table after it."""
        self.kept = kept
        self.options = screen_options(self.terminal_options, kept)
        if isinstance(self.shown, SeatClient):
            self._seat_options(self.shown)
        self._changed()

    def _seat_options(self, ctl: SeatClient) -> None:
        ctl.client.sort = self.kept.sort
        ctl.client.bells = self.kept.bells
        st = self.registry.tables.get(ctl.table) if ctl.table is not None else None
        rated = st is None or st.rated
        # A rated table is played alone: no hint, no review (its matches move ratings).
        ctl.client.coach.refusal = "No hints at a rated table: its matches count for the ratings" if rated else ""
        ctl.client.coach.review_on = self.kept.review and not rated
        ctl.client.coach.per_minute = HINTS_PER_MINUTE

    def _table_client(self, link: Link, table: int, watching: bool = False) -> SeatClient:
        """The table's client of this person: their hand order and sounds, their record and options
        behind i and o."""
        ctl = SeatClient(link, table, watching=watching)
        self._seat_options(ctl)
        # (the people this person muted say nothing at the table either: as they sit down)
        ctl.client.log.hidden = self.registry.friends.muted_names(self.identity.person)
        ctl.client.host = TableHost(self.records, link.rules)
        return ctl

    def moved(self, where: Destination) -> None:
        if self.shown is not None:
            self.shown.go(where)

    def back_to_lobby(self, note: str) -> None:
        """The table shown is gone: the lobby shows ``note`` (a line on the table's screen would
        be lost with it, and the table's number only says "That table is gone")."""
        shown = self.shown
        if isinstance(shown, SeatClient):
            shown.lobby_note = note
            shown.on_change()
        elif shown is not None:
            shown.notify(note)

    def kick(self, reason: str) -> None:
        """Close this connection: the app ends (the SSH layer tells ``reason`` and hangs up)."""
        if not self.reason:
            self.reason = reason
        self.kicked = True               # (before the app runs, its flow ends at once)
        if self.app.is_running and not self.app.future.done():  # type: ignore[union-attr]
            self.app.exit()

    def notify(self, text: str) -> None:
        """A line for the player, on whichever screen is shown (the idle warning)."""
        if self.shown is not None:
            self.shown.notify(text)

    def invited(self, invitation: Invitation) -> None:
        """Somebody invites this person: the lobby lists it in a box (its view has it); a spectator
        is asked over the table; a player at their seat is told to answer in the lobby."""
        text = f"{invitation.from_name} invites you to table {invitation.table_id}"
        shown = self.shown
        if isinstance(shown, SeatClient):
            if shown.watching:
                shown.ask(text, lambda accept: self._answer(shown, invitation, accept))
            else:
                shown.notify(f"{text}: answer in the lobby when you leave this table")
        elif shown is not None:
            shown.notify(text)

    def _answer(self, ctl: SeatClient, invitation: Invitation, accept: bool) -> None:
        """A spectator answered an invitation over the table they watch (a cluster's front: its
        lobby sends the answer to the table's owner)."""
        room = self.registry.room
        if room is None:
            refused, where = self.registry.invitations.answer(self, invitation.id, accept)
            why = reason(refused)
        else:
            why, where = cast(LobbyService, room.lobby(self, self.admin)).answer(invitation.id, accept)
        if why is not None:
            ctl.notify(why)
        elif not accept:
            ctl.notify(f"You declined the invitation to table {invitation.table_id}")
        elif where is None:                  # a seat at a forming table: wait for its start in the lobby
            ctl.lobby_note = f"You sit at table {invitation.table_id}: it starts when its creator starts it"
            ctl.on_change()
        elif where.seat is None and where.table == ctl.table:
            ctl.notify("You sit down at this table at the next deal: until then you watch")
        else:
            ctl.go(where)
    def warn(self, text: str) -> None:
        """A line for the player with the bell they chose for their turn (the turn timer)."""
        if isinstance(self.shown, SeatClient):
            self.shown.warn(text)
        elif self.shown is not None:
            self.shown.notify(text)

    # ------------------------------------------------------------------ the flow
    async def flow(self) -> None:
        if self.kicked:
            return
        registry = self.registry
        refused = self._banned_guest() or self._check_code() or registry.admit(self)
        if refused is None:
            refused = await registry.confirm(self)      # (a shared store: the name is reserved there first)
        if refused is not None:
            self.reason = refused.reason
            log.info("%s was not let in: %s", self._identity.log_text(), refused)
            return
        registry.connect(self)
        if self.admin is not None:
            self.admin.bans.visited(self._identity, self.address)     # (an admin may ban them later)
        log.info("%s is in", self._identity.log_text())
        try:
            room = registry.room
            where = registry.home(self) or (room.home(self) if room is not None else None)
            note = ""
            while True:
                if where is None:
                    service = (RegistryLobby(registry, self, self.admin) if room is None
                               else cast(LobbyService, room.lobby(self, self.admin)))
                    lobby = LobbyScreen(service, note, records=self.records, club=ClubRecords(self))
                    try:
                        await self._show(lobby)
                    finally:
                        lobby.unsubscribe()
                    where = lobby.destination
                    if where is None:
                        return
                where, note = await self._visit(where)
        finally:
            registry.disconnect(self)
            log.info("%s is out%s", self._identity.log_text(), f" ({printable(self.reason)})" if self.reason else "")

    def _banned_guest(self) -> Refusal | None:
        """A guest from an address a banned person came from is kept out while the ban lasts (None: not)."""
        ban = self.admin.bans.guest(self.address) if self.admin is not None and not self._identity.verified else None
        return Refusal(ban_message(ban, guest=True)) if ban is not None else None

    async def _visit(self, where: Destination) -> tuple[Destination | None, str]:
        """Play or watch a table until the player leaves it: (where next, a note for the lobby)."""
        st = self.registry.tables.get(where.table)
        room = self.registry.room
        if st is None and room is not None and room.holds(where.table):
            return await self._visit_remote(room, where)
        if st is None or st.table is None:
            return None, "That table is gone"
        if where.seat is None:
            refused = st.may_watch(self._identity.person)
            if refused is not None:
                return None, refused.reason
            link = st.watch(self)
            ctl = self._table_client(link, st.id, watching=True)
            claimed = [seat for seat, (who, _) in st.pending.items() if who is self]
            if claimed:
                ctl.message = [f"You sit down as Player {claimed[0] + 1} at the next deal: until then you watch "
                               "(your claim holds while you watch)"]
            try:
                await self._show(ctl)
            finally:
                link.unsubscribe(ctl)
                st.unwatch(self)
                self.registry.drop_if_over(st)
            return ctl.next, ctl.lobby_note or ""
        seat = where.seat
        if st.table.seats[seat].key != str(self._identity.person):
            return None, "That seat is not yours"
        link, since = st.enter(self, seat)
        ctl = self._table_client(link, st.id)
        if st.rated:
            grace = span(self.registry.config.forfeit_after)
            ctl.client.leave_note = (f"This match is rated: if you are not back within {grace},",
                                     "your side loses it by forfeit (a computer plays meanwhile).")
        ctl.again = RematchQuestion(answer=lambda yes: reason(st.answer_again(self, yes)), status=st.again_status,
                                    asked=lambda: st.asks_again(self._identity.person),
                                    seen=lambda: st.saw_again(self._identity.person))
        if since:
            ctl.message = ["While you were away:", *since]
        elif self.guest_code:
            # The code one way, as shown in the lobby: the user name takes it with its dash too.
            ctl.message = [f"You play as a guest: your seat's code is {self.guest_code}. If your link drops, connect "
                           f"as {self._identity.name}+{self.guest_code} (or press r in the lobby and type the code)"]
        left = False
        note = ""
        try:
            await self._show(ctl)
            left = True
        finally:
            link.unsubscribe(ctl)
            if self.registry.tables.get(st.id) is st:
                # Leaving by the menu lets a computer play at once; a dropped connection's seat waits.
                note = st.leave(self, seat, dropped=not left)
                self.registry.drop_if_over(st)
            else:
                # The table was set aside (an admin closed it): there is nothing to leave, and no
                # forfeit clock to start for a rated match the server keeps.
                if st.links.get(seat, (None,))[0] is self:
                    del st.links[seat]
                link.close()
        return ctl.next, ctl.lobby_note or note

    async def _visit_remote(self, room: Room, where: Destination) -> tuple[Destination | None, str]:
        """Play or watch a table another node of the room holds: the same screen, its frames over the
        bus.  When that node dies and another takes the table over, the screen says so and the
        player sits down again at the one that has it."""
        why, link, said = await room.enter(self, where)
        if link is None:
            return None, why
        owner = str(said.get("owner", ""))
        ctl = self._table_client(link, where.table, watching=where.seat is None)
        if where.seat is None:
            if said.get("claimed"):
                ctl.message = ["You sit down at the next deal: until then you watch (your claim holds while you watch)"]
        else:
            again = room.again(self, where.table, ctl.on_change)
            ctl.again = RematchQuestion(answer=again.answer, status=again.status, asked=again.asked, seen=again.seen)
            if said.get("rated") is True:
                grace = span(self.registry.config.forfeit_after)
                ctl.client.leave_note = (f"This match is rated: if you are not back within {grace},",
                                         "your side loses it by forfeit (a computer plays meanwhile).")
            since = [x for x in said.get("since") or () if isinstance(x, str)]
            if since:
                ctl.message = ["While you were away:", *since]
            elif self.guest_code:
                ctl.message = [f"You play as a guest: your seat's code is {self.guest_code}. If your link drops, connect "
                               f"as {self._identity.name}+{self.guest_code} (or press r in the lobby and type the code)"]
        moved: list[bool] = []

        def owner_now(now: str | None) -> None:
            """The room's rows moved the table (its owner died): the screen says so, and once
            another node holds it the player sits down again there."""
            if now == owner:            # (its owner was silent a moment, and is heard again)
                return
            if not moved:
                ctl.notify(MOVING)
            if now is not None and not ctl.finished:
                moved.append(True)
                ctl.go(where)
        unfollow = room.follow(where.table, owner, owner_now)
        left = False
        try:
            await self._show(ctl)
            left = True
        finally:
            unfollow()
            link.unsubscribe(ctl)
            link.close()
            if not moved:
                room.left(self, where, owner, dropped=not left, then=self.notify)
        return ctl.next, ctl.lobby_note or ""

    async def _show(self, screen: LobbyScreen | SeatClient) -> None:
        """Show ``screen`` until it finishes; the server reaches it meanwhile (:meth:`moved`, :meth:`notify`)."""
        self.shown = screen
        try:
            await self.show(screen)
        finally:
            self.shown = None

    async def run_session(self) -> str:
        """Run until the player leaves or the server closes the connection; why it was closed."""
        try:
            # The loop is every player's: an error is logged, never shown in one player's terminal.
            await self.run_async(set_exception_handler=False)
        except EOFError:           # the input closed under the app: the connection is gone
            pass
        return self.reason


__all__ = ["SeatClient", "ServerApp", "ServerScreen"]
