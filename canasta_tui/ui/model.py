"""The table's client model: what one terminal at the table holds and knows.

The :class:`Client` is a client of its seat(s) at a :class:`~canasta_tui.table.Table`: it holds
a :class:`~canasta_tui.table.Link`, through which it reads only the view of the seats it plays
(one; several in hot-seat; none for a spectator), the public view, events and scores, and
submits moves.  It never sees the whole game, and knows nothing of keys, prompt-toolkit or
painting: the commands (:mod:`.commands`) change it, the screen (:mod:`.controller`) routes keys
to them, and :mod:`.render` draws a read-only :class:`~.snapshot.TableSnapshot` of it.  The
flow of play (whose hand shows, hot-seat privacy, the end of a hand) is :mod:`.flow`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Protocol

from ..ai.coach import Decision
from ..engine import Action, Phase, PlayerView
from ..engine import actions as A
from ..table import Change, Link, Outcome
from ..table.events import DEALT, LAID_OUT, coalesced, describe
from ..text import printable
from . import flow
from .coaching import Coach
from .dialogs import LeaveTable, Privacy, SheetEnd, TableDialog
from .files import Files, SavedGame
from .moves import arrange
from .pages import Page
from .texts import ASK_HINT, sort_hand

#: The events the terminal bell can ring for (as the Windows games' sounds); each a setting
#: ``bell_<event>``: your turn after a computer's, a question from your partner, a hand ended.
BELLS = ("turn", "question", "hand_over")


class Host(Protocol):
    """The app around a local table: the pages it opens over the table and where a player who
    leaves the table may go (``launch.GameApp``); a table over SSH has none."""

    def page(self, name: str) -> Page: ...           # "help", "options", "statistics"
    def offers(self) -> frozenset[str]: ...         # of "new" (F2), "again" and "menu" (after a match)


class TableLog:
    """The log of this hand as the client shows it, made again only when the table's events or
    chat grew (or a name changed), not at every paint: the same list while nothing changed."""

    def __init__(self) -> None:
        self._key: tuple[object, ...] | None = None   # what the lines were made from
        self._lines: list[tuple[int, str]] = []
        #: The speakers whose chat lines are not shown, as the table names them (the people this
        #: person muted, ``server/lobby/friends.py``).
        self.hidden: frozenset[str] = frozenset()

    def lines(self, link: Link) -> Sequence[tuple[int, str]]:
        """(who, text) per line: cards added to a meld just named told in one line, and the chat
        lines said meanwhile, each after the events its speaker had seen (table notices too)."""
        chat = link.chat
        key = (link.hand_number, len(link.events), len(chat), chat[-1].seq if chat else 0,
               tuple(link.name(s) for s in range(link.rules.players)), self.hidden)
        if self._key == key:
            return self._lines
        out: list[tuple[int, str]] = []
        i = 0
        for e in coalesced(link.events):
            while i < len(chat) and chat[i].at < e.seq:
                if chat[i].who not in self.hidden:
                    out.append(_chat_line(chat[i].who, chat[i].text))
                i += 1
            out.append((-1 if e.kind == DEALT else e.seat, describe(e, link.name)))
        out += [_chat_line(c.who, c.text) for c in chat[i:] if c.who not in self.hidden]
        self._key, self._lines = key, out
        return out


def _chat_line(who: str, text: str) -> tuple[int, str]:
    """A chat line as the log shows it: whatever a player typed is written out, never sent raw."""
    return (-1, f"{printable(who)}: {printable(text)}" if who else printable(text))


class Client:
    """One terminal at the table: who looks, the cursor, the selection, the order the player made
    of the hand, the hot-seat flow, messages and the open dialog."""

    def __init__(self, link: Link, files: Files | None = None, sort: str = "rank", *, remote: bool = False,
                 deal_pace: float = 0.0) -> None:
        self.link = link
        self.files = files
        self._sort = sort                    # the hand's order: "rank" (the DOS game's) or "suit"
        self.remote = remote                 # over SSH: quitting leaves the table, no Ctrl-Z
        #: Over SSH, what leaving does when it is not the usual (a rated match: a forfeit after a grace).
        self.leave_note: tuple[str, ...] = ()
        #: The deal shown card by card, as the DOS game shows it: seconds per card (0: not shown;
        #: a local table with a computer delay sets it, never a table over SSH).
        self.deal_pace = deal_pace
        #: Cards dealt so far while the deal is shown (None: it is not being shown).
        self.dealing: int | None = None
        #: The deal started being shown: the app deals a card every ``deal_pace``.
        self.on_deal: Callable[[], None] = lambda: None
        #: The events that ring the bell (:data:`BELLS`): all at a terminal of one's own, none over
        #: SSH (a server's players did not ask for noise); the Options page sets them.
        self.bells: set[str] = set() if remote else set(BELLS)
        self.bell = False                    # ring the bell at the next paint
        #: Ctrl-Z: the app suspends to the shell (None where that makes no sense, e.g. over SSH).
        self.on_suspend: Callable[[], None] | None = None
        self.rung: tuple[int, int, Phase] | None = None   # (hand, actor, phase) the bells last saw
        self.problem_shown: str | None = None   # the autosave failure already told
        self.message: list[str] = []
        #: Windows 2008's conveniences, off unless the Options page turns them on: two natural cards
        #: melded take a wild card from the hand; a right-click on a card of the hand discards it.
        self.auto_wild = False
        self.right_click_discard = False
        #: The hint line on this player's turn instead (a turn timer's warning: no box to close).
        self.turn_note = ""
        self.dialog: TableDialog | None = None
        self.quitting = False                # the user confirmed quit
        #: The app around the table (None: help only, no new game, no options).
        self.host: Host | None = None
        #: Where the player goes on leaving the table: "quit", or one of the host's offers.
        self.then = "quit"
        self.log = TableLog()
        #: The hint key's answers and the review of each hand (:mod:`.coaching`).
        self.coach = Coach()
        self.seat_players()

    def seat_players(self) -> None:
        """Who looks at the table: set up at the start and again when F3 loads another game."""
        seats = self.link.seats
        self.hot_seat = len(seats) > 1
        #: The seat whose hand is on screen (None: nobody's, e.g. between hot-seat turns).
        self.viewer: int | None = seats[0] if len(seats) == 1 else None
        self.cursor = 0
        self.selected: set[int] = set()      # indexes into the hand as shown
        #: Per seat: the order the player made of the hand (< and >); kept until the hand is sorted
        #: again (the sort option changes) or a new hand is dealt.
        self.arranged: dict[int, list[int]] = {}
        self.turn_start: dict[int, Counter[int]] = {}   # hand at the start of a human's turn
        self.seen_log: dict[int, int] = {s: 0 for s in seats}   # per seat: events seen up to here
        self.events_read = self.link.events[-1].seq if self.link.events else 0    # the last read (its seq)
        self.hand_seen = self.link.hand_number            # the hand the screen was last brought in line with
        self.acked = 0                        # the hand whose score this client has acknowledged
        self.rung = None                      # a game just seated or loaded rings for nothing yet

    def start(self) -> None:
        """The table opens on screen: in line with the game, the deal shown, the files' notices read."""
        self.after_change()
        if self.fresh_hand():
            self.begin_deal()
        files = self.files
        if files is not None and files.notices() and self.dialog is None:
            self.message = files.notices() + ([""] + self.message if self.message else [])

    def table_changed(self, what: Change) -> None:
        """The table changed (a move, a deal, a loaded game ...): bring the client in line."""
        if what == Change.LOAD:
            self.seat_players()
            self.close()
        self.after_change()

    def after_change(self) -> None:
        """Bring the client in line with the game after anything happened (see :mod:`.flow`)."""
        flow.after_change(self)

    # ------------------------------------------------------------------ what is shown
    @property
    def sort(self) -> str:
        return self._sort

    @sort.setter
    def sort(self, order: str) -> None:
        """The Options page's "Hand order": the hand is sorted again, and orders the players made go."""
        if order != self._sort:
            self.arranged.clear()
        self._sort = order

    def privacy(self) -> bool:
        return isinstance(self.dialog, Privacy)

    def view(self) -> PlayerView:
        """The view the table is drawn from: the viewer's, or the public one (no hand at all)."""
        if self.viewer is not None and not self.privacy():
            return self.link.view(self.viewer)
        return self.link.public_view()

    def mine(self) -> PlayerView:
        """The viewer's own view (there is a viewer: the commands ask only on this client's turn)."""
        assert self.viewer is not None
        return self.link.view(self.viewer)

    def hand(self) -> list[int]:
        if self.viewer is None or self.privacy():
            return []
        v = self.link.view(self.viewer)
        if self.dealing is not None:        # the hand fills in as its cards are dealt
            return sort_hand(v.hand[: self.shown_size(self.viewer, v)], self.sort)
        hand = sort_hand(v.hand, self.sort)
        mine = self.arranged.get(self.viewer)
        return hand if mine is None else arrange(hand, mine)

    def new_cards(self, hand: Sequence[int] | None = None) -> list[bool]:
        """Per card of :meth:`hand`: drawn or taken from the pile this turn?"""
        hand = self.hand() if hand is None else hand
        start = self.turn_start.get(self.viewer if self.viewer is not None else -1)
        v = self.view()
        if start is None or v.turn != self.viewer or v.phase == Phase.DRAW:
            return [False] * len(hand)
        left = Counter(start)
        out = []
        for c in hand:
            if left[c] > 0:
                left[c] -= 1
                out.append(False)
            else:
                out.append(True)
        return out

    def my_turn(self) -> bool:
        if self.viewer is None or self.privacy():
            return False
        v = self.link.view(self.viewer)
        return v.actor == self.viewer and v.phase != Phase.HAND_OVER

    def legal(self) -> list[Action]:
        return list(self.link.view(self.viewer).legal) if self.my_turn() and self.viewer is not None else []

    def lit(self) -> dict[str, bool]:
        """The command bar's lights: on exactly when the engine allows the command."""
        kinds = {a.kind for a in self.legal()} if self.dealing is None else set()
        return {
            "draw": A.DRAW in kinds, "pile": A.PILE in kinds, "meld": bool(kinds & {A.MELD, A.ADD}),
            "discard": A.DISCARD in kinds, "score": True, "query": A.ASK in kinds, "quit": True,
            "undo": A.UNDO in kinds, "help": True, "end": A.END in kinds, "unpile": A.UNPILE in kinds,
            "join": A.JOIN in kinds,
        }

    def log_lines(self) -> Sequence[tuple[int, str]]:
        """The log of this hand (see :class:`TableLog`)."""
        return self.log.lines(self.link)

    def status(self) -> str:
        """The hint line: whose move it is and what can be done."""
        return status_line(self)

    def quit_question(self) -> str:
        return "Leave the table?" if self.remote else "Quit the game?"

    # ------------------------------------------------------------------ the deal, card by card
    def fresh_hand(self) -> bool:
        """Nobody has moved in this hand yet (only the deal and the red threes laid out)."""
        return self.link.public_view().phase != Phase.HAND_OVER and all(
            e.kind in (DEALT, LAID_OUT) for e in self.link.events)

    def begin_deal(self) -> None:
        """Show the deal card by card (hot-seat: no, the privacy screen comes first anyway)."""
        if self.deal_pace <= 0 or self.hot_seat or self.dealing is not None:
            return
        self.dealing = 0
        self.link.hold()                  # the computers wait until the cards are on the table
        self.on_deal()

    def deal_step(self) -> None:
        """One more card dealt; after the last one play starts."""
        if self.dealing is None:
            return
        rules = self.link.rules
        self.dealing += 1
        if self.dealing >= rules.hand_size * rules.players:
            self.end_deal()

    def end_deal(self) -> None:
        """The deal is on the table (the last card dealt, or a key skipped the rest)."""
        if self.dealing is None:
            return
        self.dealing = None
        if self.dialog is None or not self.dialog.holds:
            self.link.release()

    def shown_size(self, seat: int, v: PlayerView) -> int:
        """How many cards ``seat`` holds on screen: its count, or while the deal is shown the
        cards dealt to it so far (one at a time from the dealer's left, as the engine deals)."""
        size = v.hand_sizes[seat]
        if self.dealing is None:
            return size
        n = self.link.rules.players
        place = (seat - v.dealer - 1) % n
        return min(size, self.dealing // n + (1 if self.dealing % n > place else 0))

    # ------------------------------------------------------------------ dialogs and leaving
    def open(self, d: TableDialog) -> None:
        self.dialog = d
        if d.holds:
            self.link.hold()

    def close(self, back: TableDialog | None = None) -> None:
        """Close the dialog (or go back to ``back``); computers held by it play on."""
        self.dialog = back
        if (back is None or not back.holds) and self.dealing is None:
            self.link.release()
        self.after_change()

    def quit(self) -> None:
        self.quitting = True
        self.dialog = None
        self.link.release()

    def leave(self, then: str) -> None:
        """Leave the table for ``then`` (a new game from the start menu, the same match again ...)."""
        self.then = then
        self.quit()

    def offers(self) -> frozenset[str]:
        return self.host.offers() if self.host is not None else frozenset()

    def offer_new_game(self) -> None:
        """F2, as Canasta for Windows 2.41's Game | New: asks first; the game stays saved."""
        if "new" not in self.offers():
            self.message = ["A new game is started at the start menu of a game at your own terminal"]
            return
        self.open(LeaveTable())

    # ------------------------------------------------------------------ the flow of play
    def reveal(self, seat: int) -> None:
        """Hot-seat: the player pressed Enter on their privacy screen."""
        flow.reveal(self, seat)

    def acknowledge(self) -> None:
        """This terminal has seen the score of the hand: the table deals when everybody has."""
        flow.acknowledge(self)

    def summary_seen(self) -> None:
        """The hand's summary was read: the review of the hand (when on), then the score sheet."""
        self.open(self.coach.review_page(self.link.seats, self.hot_seat, self.link.hand_number) or SheetEnd())

    def play(self, actions: Sequence[Action], then: Callable[[], None] | None = None) -> bool:
        """Submit these actions as one move: the table plays all of them, or none and says why.
        True when played by the time this returns (a table at this terminal answers at once; one
        over the bus later: ``then`` runs once it is played, and a refusal is shown when it comes)."""
        if self.viewer is None:
            return False
        seat, hand, kept, played = self.viewer, self.link.hand_number, [0], []

        def along(views: Callable[[], Sequence[PlayerView]]) -> None:
            # Kept before it is played (the review of a hand its last move ends begins at once): each
            # action of the move with the position it is played in (see Coach.record).
            kept[0] = self.coach.record(hand, seat, lambda: [
                Decision(v, a) for v, a in zip(views(), actions, strict=False)])  # shorter: refused

        def done(out: Outcome) -> None:
            played.append(out.ok)
            if out.ok or out.changed:
                self.selected.clear()
            if not out.ok:
                self.coach.forget_last(seat, kept[0])
                self.message = out.reason.split("\n")
                return
            self.after_change()
            (then or (lambda: None))()
        self.link.send(seat, actions, done, along)
        return played == [True]

    # ------------------------------------------------------------------ F3, F4 and chat
    def save_as(self, name: str) -> None:
        assert self.files is not None
        ok, text = self.files.save(name)
        self.message = [f"Saved: {text}"] if ok else ["Not saved:", text]

    def load(self, item: SavedGame) -> None:
        assert self.files is not None
        problem, notices = self.files.load(str(item.path))
        if problem is not None:
            self.message = ["Not loaded (the game goes on as it was):", problem]
            return
        if self.dialog is None:
            self.message = [f"Loaded {printable(item.name)}: hand {self.link.hand_number}", *notices]

    def send_chat(self, text: str) -> None:
        """Say ``text`` to the table; a refusal (too long, too fast) is shown."""
        refused = self.link.say(text)
        if refused:
            self.message = [refused]


def status_line(c: Client) -> str:
    """The hint line of ``c``: whose move it is and what can be done."""
    v = c.view()
    if c.remote and c.link.closed and c.link.winner is None:
        return "The match is over: q leaves the table"       # (a forfeit: the server says why)
    if c.dealing is not None:
        return "Dealing… any key ends the deal and acts at once"
    if v.phase == Phase.HAND_OVER:
        return "The hand is over"
    who = c.link.name(v.actor)
    if not c.my_turn():
        if c.link.is_human(v.actor):
            return f"{who} is up"
        if v.phase == Phase.PERMISSION:
            return f"{who} is deciding: may {c.link.name(v.turn)} go out?"
        return f"{who} is playing…"
    if c.turn_note:
        return c.turn_note
    coached = c.coach.line(c.mine())
    if coached:
        return coached
    if v.phase == Phase.DRAW:
        if A.A_DRAW not in v.legal:
            if tuple(v.legal) == (A.A_PILE,) and v.rules.stock_exhausted == "top_card":
                return "Your turn: the stock is exhausted: p puts the upcard on your meld (the pile stays)"
            if any(a.kind == A.PILE for a in v.legal):
                return "Your turn: the stock is exhausted: p takes the pile" + (", e ends the hand" if A.A_END in v.legal else "")
            return "Your turn: the stock is exhausted"
        if any(a.kind == A.PILE for a in v.legal):
            return "Your turn: d draws from the stock, p takes the pile"
        return "Your turn: d draws from the stock; the pile cannot be taken now (p says why)"
    if v.phase == Phase.PERMISSION:
        return "Answer your partner: y or n"
    if v.t.permission == 1:
        return f"Your partner said yes: you must go out this turn or pay {v.rules.permission_penalty}"
    if A.A_UNPILE in v.legal:
        return f"You took the pile: b puts it back ({v.rules.undo_pile_penalty}-point penalty); or meld and discard"
    if v.problem:
        return v.problem
    if A.A_ASK in v.legal:
        joins = "J joins, " if any(a.kind == A.JOIN for a in v.legal) else ""
        return f"m melds, {joins}c discards; {ASK_HINT}"
    if any(a.kind == A.JOIN for a in v.legal):
        return "Space selects, m melds, J joins your two melds of a rank, c discards"
    return "Space selects, m melds, w adds a wild card, c discards the cursor card"


__all__ = ["BELLS", "Client", "Host", "TableLog"]
