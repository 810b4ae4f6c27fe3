"""The table's client: what one terminal shows and what each key does.

The controller is a client of its seat(s) at a :class:`~canasta_tui.table.Table`: it holds
a :class:`~canasta_tui.table.Link`, through which it reads only the view of the seats it
plays (one; several in hot-seat; none for a spectator), the public view, events and
scores, and submits moves.  It never sees the whole game.  It knows nothing of
prompt-toolkit either: keys arrive as names (``"d"``, ``"f6"``, ``"left"``, ``"enter"``)
through :meth:`Controller.key`; the renderer reads its fields.  Every move goes through the
table, hence through the engine's legal actions; a refused move shows the engine's reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from ..engine import Action, Phase, PlayerView, parse_action, partner, team
from ..engine import actions as A
from ..engine.cards import IS_RED_THREE, IS_WILD, RANK_OF, RANK_WORDS, card_text, plural
from ..table import Change, Link
from ..table.events import ANSWERED, describe, recap
from ..text import printable
from .canvas import Canvas, Options
from .dialogs import (
    NAME_MAX,
    Answer,
    ChatInput,
    Confirm,
    Dialog,
    LeaveTable,
    LoadList,
    Log,
    MatchOver,
    PileChoice,
    Privacy,
    Quit,
    SaveName,
    Score,
    Sheet,
    SheetEnd,
    Summary,
    Waiting,
    WildTarget,
)
from .keys import KEYS
from .pages import Page, PageDialog
from .screen import ScreenBase
from .texts import sort_hand

_WILD_RANKS = (2, 14)
_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}
#: Dialogs of the end of a hand: the next deal closes them.
_HAND_OVER_DIALOGS = (Summary, SheetEnd, Waiting, MatchOver)
#: The events the terminal bell can ring for (as the Windows games' sounds); each a setting
#: ``bell_<event>``: your turn after a computer's, a question from your partner, a hand ended.
BELLS = ("turn", "question", "hand_over")


class SavedGame(Protocol):
    """One line of the F3 list (``persistence.saves.SaveInfo``)."""

    @property
    def name(self) -> str: ...
    @property
    def path(self) -> Path: ...
    @property
    def modified(self) -> float: ...
    @property
    def summary(self) -> str: ...


class Files(Protocol):
    """What F3, F4 and the autosave notice need (``persistence.integrate.TableFiles``)."""

    def default_name(self) -> str: ...
    def where(self) -> str: ...
    def save(self, name: str) -> tuple[bool, str]: ...          # (True, path) or (False, why)
    def saved_games(self) -> Sequence[SavedGame]: ...
    def load(self, path: str) -> tuple[str | None, list[str]]: ...   # (why it was not loaded, or None; notices)
    def problem(self) -> str | None: ...                        # the autosave's failure, if any
    def notices(self) -> list[str]: ...                         # to read as the table opens
    def autosaved(self) -> str | None: ...                      # where the game is autosaved (None: nowhere)


class Host(Protocol):
    """The app around a local table: the pages it opens over the table and where a player who
    leaves the table may go (``launch.GameApp``); a table over SSH has none."""

    def page(self, name: str) -> Page: ...           # "help", "options", "statistics"
    def offers(self) -> frozenset[str]: ...         # of "new" (F2), "again" and "menu" (after a match)


def compose_meld(cards: Sequence[int], row: Sequence[object | None], wild_melds: bool) -> list[Action] | str:
    """Turn a selection of hand cards into the engine's atomic actions (or say why not).

    A new meld is always three cards, so a bigger selection is ``meld`` then ``add``s;
    wild cards go onto the selected rank.
    """
    naturals: dict[int, int] = {}
    wilds: list[int] = []
    for c in cards:
        r = RANK_OF[c]
        if r in _WILD_RANKS:
            wilds.append(r)
        else:
            naturals[r] = naturals.get(r, 0) + 1
    wilds.sort(key=lambda r: (r == 14, r))  # deuces before jokers
    if not naturals:
        if wild_melds and (len(wilds) >= 3 or row[2] is not None):
            out: list[Action] = []
            rest = wilds
            if row[2] is None:
                out.append(A.meld(*wilds[:3]))
                rest = wilds[3:]
            out.extend(A.add(w, 2) for w in rest)
            return out
        return "Select the rank to put a wild card on: press w, then the meld's rank"
    if wilds and len(naturals) > 1:
        return "Select wild cards together with one rank only, so it is clear which meld they join"
    short = [r for r, n in naturals.items() if row[r] is None and n < 3 and not (n == 2 and wilds)]

    def some(r: int, n: int) -> str:
        return f"{_NUMBER_WORDS.get(n, str(n))} {plural(r) if n != 1 else RANK_WORDS[r]}"
    # The whole selection, in words (the bar shows how many cards are selected).
    chosen = [some(r, n) for r, n in sorted(naturals.items())] + [some(w, wilds.count(w)) for w in sorted(set(wilds))]
    said = ", ".join(chosen[:-1]) + " and " + chosen[-1] if len(chosen) > 1 else chosen[0]
    if short and len(naturals) > 1:
        # Name the whole selection, not just the first rank that falls short.
        lacking = " and ".join(plural(r) for r in sorted(short))
        return f"A new meld needs three cards: you selected {said} (not enough {lacking})"
    out = []
    for r, n in sorted(naturals.items()):
        if row[r] is not None:
            out.extend(A.add(r) for _ in range(n))
            out.extend(A.add(w, r) for w in wilds)
            continue
        if n >= 3:
            out.append(A.meld(r, r, r))
            out.extend(A.add(r) for _ in range(n - 3))
            out.extend(A.add(w, r) for w in wilds)
        elif n == 2 and wilds:
            out.append(A.meld(r, r, wilds[0]))
            out.extend(A.add(w, r) for w in wilds[1:])
        elif wilds:
            return f"A new meld needs at least two natural cards: you selected {said}"
        else:
            return (f"A new meld needs three cards: you selected {said}"
                    + ("" if n == 2 else "; select at least two natural cards and a wild card"))
    return out


def arrange(hand: Sequence[int], order: Sequence[int]) -> list[int]:
    """``hand`` (sorted) in the order the player made (``order``, the cards as last arranged).

    The cards still held keep their places; a card that came since (drawn, taken from the pile,
    or back from an undone meld) goes right after its neighbour in the sort: the kept card the sort
    puts nearest at or before it (at the front if none), so a drawn 8 joins the 7s wherever the
    player put them.
    """
    left = Counter(hand)
    out: list[int] = []
    for c in order:
        if left[c] > 0:
            left[c] -= 1
            out.append(c)
    place = {c: i for i, c in reversed(list(enumerate(hand)))}
    for c in hand:
        if left[c] > 0:
            left[c] -= 1
            near = max(((place[k], j) for j, k in enumerate(out) if place[k] <= place[c]), default=None)
            out.insert(0 if near is None else near[1] + 1, c)
    return out


def _chat_line(who: str, text: str) -> tuple[int, str]:
    """A chat line as the log shows it: whatever a player typed is written out, never sent raw."""
    return (-1, f"{printable(who)}: {printable(text)}" if who else printable(text))


class Controller(ScreenBase):
    """One terminal at the table: cursor, selection, messages, dialogs, hot-seat privacy."""

    def __init__(self, link: Link, files: Files | None = None, sort: str = "rank", *, remote: bool = False,
                 deal_pace: float = 0.0) -> None:
        super().__init__()
        self.link = link
        #: The deal shown card by card, as the DOS game shows it: seconds per card (0: not shown;
        #: a local table with a computer delay sets it, never a table over SSH).
        self.deal_pace = deal_pace
        #: Cards dealt so far while the deal is shown (None: it is not being shown).
        self.dealing: int | None = None
        #: The deal started being shown: the app calls :meth:`deal_step` every ``deal_pace``.
        self.on_deal: Callable[[], None] = lambda: None
        self.files = files
        self._sort = sort                    # the hand's order: "rank" (the DOS game's) or "suit"
        self.remote = remote                 # over SSH: quitting leaves the table, no Ctrl-Z
        #: The events that ring the bell (:data:`BELLS`): all at a terminal of one's own, none over
        #: SSH (a server's players did not ask for noise); the Options page sets them.
        self.bells: set[str] = set() if remote else set(BELLS)
        self._rung: tuple[int, int, Phase] | None = None   # (hand, actor, phase) the bells last saw
        self._problem_shown: str | None = None   # the autosave failure already told
        self.message: list[str] = []
        self.dialog: Dialog | None = None
        self.quitting = False                # the user confirmed quit
        #: The app around the table (None: help only, no new game, no options).
        self.host: Host | None = None
        #: Where the player goes on leaving the table: "quit", or one of the host's offers.
        self.then = "quit"
        # too_small (ScreenBase): the screen shows only "terminal too small", so no key may act
        # blind there but quitting.
        self._log_key: tuple[object, ...] | None = None   # what the log below was made from
        #: The rows above the hand as last painted (``render.TableTop``), painted again as they were
        #: while the table has not changed.
        self.table_top: Any = None
        self.log_first: Any = None          # the first log entry the centre shows (render._fill_log)
        self._log: list[tuple[int, str]] = []
        self._keymap: dict[str, str] = {}
        for k in KEYS:
            if k.section != "Dialogs":
                for name in k.keys:
                    self._keymap.setdefault(name, k.command)
        self._seat_players()
        link.subscribe(self)
        self.after_change()
        if self._fresh_hand():
            self._begin_deal()
        if files is not None and files.notices() and self.dialog is None:
            self.message = files.notices() + ([""] + self.message if self.message else [])

    def _seat_players(self) -> None:
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
        self._events_read = len(self.link.events)         # events already turned into messages
        self._hand = self.link.hand_number
        self._acked = 0                       # the hand whose score this client has acknowledged
        self._rung = None                     # a game just seated or loaded rings for nothing yet

    # ------------------------------------------------------------------ a screen of the app
    @property
    def finished(self) -> bool:
        """The player has left the table (quit, or the match is over and seen)."""
        return self.quitting

    def paint(self, width: int, height: int, opts: Options) -> Canvas:
        from .render import render

        return render(self, width, height, opts)

    def table_changed(self, what: Change) -> None:
        """The table changed (a move, a deal, a loaded game ...): bring the screen in line."""
        if what == Change.LOAD:
            self._seat_players()
            self.close()
        self.after_change()
        self.on_change()

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
        return self.dialog is not None and isinstance(self.dialog, Privacy)

    def view(self) -> PlayerView:
        """The view the table is drawn from: the viewer's, or the public one (no hand at all)."""
        if self.viewer is not None and not self.privacy():
            return self.link.view(self.viewer)
        return self.link.public_view()

    def hand(self) -> list[int]:
        if self.viewer is None or self.privacy():
            return []
        v = self.link.view(self.viewer)
        if self.dealing is not None:        # the hand fills in as its cards are dealt
            return sort_hand(v.hand[: self.shown_size(self.viewer, v)], self.sort)
        hand = sort_hand(v.hand, self.sort)
        mine = self.arranged.get(self.viewer)
        return hand if mine is None else arrange(hand, mine)

    def new_cards(self) -> list[bool]:
        """Per card of :meth:`hand`: drawn or taken from the pile this turn?"""
        hand = self.hand()
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
        }

    def log_lines(self) -> Sequence[tuple[int, str]]:
        """The log of this hand: (who, text), cards added to a meld just named told in one line, and
        the chat lines said meanwhile, each after the events its speaker had seen (table notices too)."""
        from ..table.events import DEALT, coalesced

        link = self.link
        chat = link.chat
        # Events and chat only grow during a hand: the log is made again only when they did (or a
        # name changed), not at every paint.
        key = (link.hand_number, len(link.events), len(chat), chat[-1].seq if chat else 0,
               tuple(link.name(s) for s in range(link.rules.players)))
        if self._log_key == key:
            return self._log
        out: list[tuple[int, str]] = []
        i = 0
        for e in coalesced(self.link.events):
            while i < len(chat) and chat[i].at < e.seq:
                out.append(_chat_line(chat[i].who, chat[i].text))
                i += 1
            out.append((-1 if e.kind == DEALT else e.seat, describe(e, self.link.name)))
        out += [_chat_line(c.who, c.text) for c in chat[i:]]
        self._log_key, self._log = key, out
        return out

    def status(self) -> str:
        """The hint line: whose move it is and what can be done."""
        v = self.view()
        if self.dealing is not None:
            return "Dealing… any key skips the deal"
        if v.phase == Phase.HAND_OVER:
            return "The hand is over"
        who = self.link.name(v.actor)
        if not self.my_turn():
            if self.link.is_human(v.actor):
                return f"{who} is up"
            if v.phase == Phase.PERMISSION:
                return f"{who} is deciding: may {self.link.name(v.turn)} go out?"
            return f"{who} is playing…"
        if v.phase == Phase.DRAW:
            return "Your turn: d draws from the stock, p takes the pile"
        if v.phase == Phase.PERMISSION:
            return "Answer your partner: y or n"
        if v.t.permission == 1:
            return f"Your partner said yes: you must go out this turn or pay {v.rules.permission_penalty}"
        if A.A_UNPILE in v.legal:
            return f"You took the pile: b puts it back ({v.rules.undo_pile_penalty}-point penalty); or meld and discard"
        if v.problem:
            return v.problem
        return "Space selects, m melds, w adds a wild card, c discards the cursor card"

    def quit_question(self) -> str:
        return "Leave the table?" if self.remote else "Quit the game?"

    # ------------------------------------------------------------------ the deal, card by card
    def _fresh_hand(self) -> bool:
        """Nobody has moved in this hand yet (only the deal and the red threes laid out)."""
        from ..table.events import DEALT, LAID_OUT

        return self.link.public_view().phase != Phase.HAND_OVER and all(
            e.kind in (DEALT, LAID_OUT) for e in self.link.events)

    def _begin_deal(self) -> None:
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
        self.on_change()

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

    # ------------------------------------------------------------------ dialogs
    def open(self, d: Dialog) -> None:
        self.dialog = d
        if d.holds:
            self.link.hold()

    def close(self, back: Dialog | None = None) -> None:
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

    # ------------------------------------------------------------------ keys
    def handle(self, name: str) -> None:
        if self.dealing is not None and not self.too_small:
            self.end_deal()                   # any key skips the rest of the deal (and only that)
            return
        if self.too_small:
            if self.dialog is not None and isinstance(self.dialog, Quit):
                self.dialog.key(self, name)
            elif name in ("q", "c-c"):
                self.open(Quit(back=self.dialog))
            return
        if self.dialog is not None:
            if name == "c-c" and not isinstance(self.dialog, Quit):
                self.open(Quit(back=self.dialog))
            else:
                self.dialog.key(self, name)
            return
        if self.message:
            self.message = []
            if name not in ("c-c",):
                return
        cmd = self._keymap.get(name)
        if cmd is not None:
            COMMANDS[cmd](self)

    def click_away(self) -> None:
        """A click while a message or dialog is up: it goes as Enter, unless a question is open."""
        if self.dialog is None or self.dialog.click_closes:
            self.key("enter")

    def click_card(self, index: int) -> None:
        """A mouse click on a card of the hand: move there and toggle its selection."""
        if self.dialog is not None or self.message:
            self.click_away()
            return
        self.cursor = index
        self.cmd_select()
        self.on_change()

    def click_meld(self, side: int, rank: int) -> None:
        """A mouse click on a meld in a quadrant: the wild card under the cursor (or selected)
        goes onto it, as the DOS game's "move the cursor to the left column of the selected
        melded rank and click"; selected natural cards of its rank go onto it too."""
        if self.dialog is not None or self.message:
            self.click_away()
            return
        if not self._need_turn():
            self.on_change()
            return
        v = self._mine()
        if team(v.turn, v.rules) != side:
            self.message = ["You may never play on an opponent's meld"]
            self.on_change()
            return
        hand = self.hand()
        chosen = [hand[i] for i in sorted(self.selected)] if self.selected else hand[self.cursor:self.cursor + 1]
        wilds = [c for c in chosen if IS_WILD[c]]
        naturals = [c for c in chosen if not IS_WILD[c] and RANK_OF[c] == rank]
        if not wilds and not naturals:
            self.message = [f"Select the cards to add to the {plural(rank) if rank != 2 else 'wild cards'} first"]
        else:
            self.play([*(A.add(rank) for _ in naturals), *(A.add(RANK_OF[w], rank) for w in wilds)])
        self.on_change()

    def command(self, cmd: str) -> None:
        """Run a command by name (mouse clicks on the command bar)."""
        if self.dialog is not None or self.message:
            self.click_away()
            return
        COMMANDS[cmd](self)
        self.on_change()

    # ------------------------------------------------------------------ F3 and F4
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

    def cmd_save(self) -> None:
        if self.files is None:
            self.message = ["Saving is not available at this table"]
            return
        self.open(SaveName(text=self.files.default_name()[:NAME_MAX]))

    def cmd_load(self) -> None:
        if self.files is None:
            self.message = ["Loading is not available at this table"]
            return
        items = list(self.files.saved_games())
        if not items:
            self.message = [f"No saved games yet (F4 saves one; they go to {self.files.where()})"]
            return
        self.open(LoadList(items=items))

    def _tell_file_problem(self) -> None:
        """Show an autosave failure once (again only if it stops and comes back)."""
        problem = self.files.problem() if self.files is not None else None
        if problem is None:
            self._problem_shown = None
            return
        if problem == self._problem_shown or self.dialog is not None:
            return
        self._problem_shown = problem
        self.message = [problem] + ([""] + self.message if self.message else [])

    # ------------------------------------------------------------------ the flow of play
    def after_change(self) -> None:
        """Bring the screen in line with the game after anything happened."""
        self._after_change()
        self._ring_bells()
        self._read_events()
        self._tell_file_problem()

    def _after_change(self) -> None:
        link = self.link
        pv = link.public_view()
        if link.hand_number != self._hand:
            # A new hand: the end-of-hand screens go, and the cursor starts again.
            self._hand = link.hand_number
            self.cursor = 0
            self.arranged.clear()
            self.selected.clear()
            if self.dialog is not None and isinstance(self.dialog, _HAND_OVER_DIALOGS):
                self.dialog = None
            self.end_deal()
            if pv.phase != Phase.HAND_OVER:
                self._begin_deal()
        if self.hot_seat and self.viewer is not None and (pv.phase == Phase.HAND_OVER or pv.actor != self.viewer):
            # Hot-seat's one rule: a hand shows only while its seat has input to give.  Whatever
            # ended that input (a discard, going out, an answer, a question to a partner), the
            # hand goes away before anybody else acts.
            self._turn_ended(self.viewer)
        hand_len = len(self.hand())
        self.cursor = max(0, min(self.cursor, hand_len - 1))
        self.selected = {i for i in self.selected if i < hand_len}
        if pv.phase == Phase.HAND_OVER:
            if self.dialog is None or not isinstance(self.dialog, (*_HAND_OVER_DIALOGS, Quit, ChatInput)):
                self.message = []
                self.dialog = Waiting() if self._acked == link.hand_number else Summary()
            return
        if self.dialog is not None and isinstance(self.dialog, _HAND_OVER_DIALOGS):
            self.dialog = None
        actor = pv.actor
        if actor not in link.seats:
            return
        if actor != self.viewer:
            if self.hot_seat:
                self.viewer = None
                self.message = []
                if self.dialog is None or not isinstance(self.dialog, Privacy):
                    self.dialog = Privacy(seat=actor)
                return
            self.viewer = actor
        self._start_turn_if_needed()
        if pv.phase == Phase.PERMISSION and (self.dialog is None or not isinstance(self.dialog, Answer)):
            self.dialog = Answer(seat=actor)

    def _ring_bells(self) -> None:
        """Ring the bell (at the next paint) for the events the player wants to hear: their turn
        after a computer's, a question from their partner, the end of a hand; each once."""
        pv = self.link.public_view()
        now = (self.link.hand_number, pv.actor, pv.phase)
        before, self._rung = self._rung, now
        if before is None or before == now:
            return
        mine = pv.actor in self.link.seats
        if pv.phase == Phase.HAND_OVER:
            event = "hand_over" if before[2] != Phase.HAND_OVER else ""
        elif mine and pv.phase == Phase.PERMISSION:
            event = "question"
        elif (mine and pv.phase == Phase.DRAW and before[0] == now[0] and before[1] != pv.actor
              and not self.link.is_human(before[1])):
            event = "turn"
        else:
            event = ""
        if event in self.bells:
            self.bell = True

    def _read_events(self) -> None:
        """Messages from what others did: a partner's answer to this player's question."""
        events = self.link.events
        if self._events_read > len(events):      # rebuilt (a loaded game)
            self._events_read = 0
        for e in events[self._events_read:]:
            if e.kind == ANSWERED and e.seat not in self.link.seats and partner(e.seat) == self.viewer:
                said = "Yes, go out" if e.text == "yes" else "No, do not go out"
                self.message = [f"{self.link.name(e.seat)} says: {said}"]
        self._events_read = len(events)

    def _start_turn_if_needed(self) -> None:
        if self.viewer is None:
            return
        v = self.link.view(self.viewer)
        if v.turn == self.viewer and v.phase == Phase.DRAW:
            self.turn_start[self.viewer] = Counter(v.hand)

    def reveal(self, seat: int) -> None:
        """Hot-seat: the player pressed Enter on their privacy screen."""
        self.dialog = None
        self.viewer = seat
        self.cursor = 0
        self.selected.clear()
        events = self.link.events
        since = recap(events[self.seen_log.get(seat, 0):], self.link.name, skip=seat)
        self.seen_log[seat] = len(events)
        if since:
            # One line per player's moves, so every discard since this player's last turn fits.
            self.message = ["Since your last turn:", *since]
        self._start_turn_if_needed()
        if self.link.view(seat).phase == Phase.PERMISSION:
            self.dialog = Answer(seat=seat)

    def _turn_ended(self, seat: int) -> None:
        """A hot-seat human's input is done: hide the hand and ring the bell ("At the conclusion
        of the play a bell will sound indicating that it permissible, once again to look at the
        table", DOS manual)."""
        self.seen_log[seat] = len(self.link.events)
        self.viewer = None
        self.message = []        # a message to that player may speak of their hand
        self.bell = True

    def acknowledge(self) -> None:
        """This terminal has seen the score of the hand: the table deals when everybody has."""
        self._acked = self.link.hand_number
        self.dialog = None
        self.link.acknowledge()
        if self.link.public_view().phase == Phase.HAND_OVER:
            self.dialog = MatchOver() if self.link.winner is not None else Waiting()

    def play(self, actions: Sequence[Action]) -> bool:
        """Submit these actions as one move: the table plays all of them, or none and says why."""
        if self.viewer is None:
            return False
        out = self.link.submit(self.viewer, actions)
        if not out.ok:
            self.message = out.reason.split("\n")
            if out.changed:
                self.selected.clear()
            return False
        self.selected.clear()
        self.after_change()
        return True

    # ------------------------------------------------------------------ commands
    def _cards_for_meld(self) -> list[int]:
        hand = self.hand()
        if self.selected:
            return [hand[i] for i in sorted(self.selected)]
        if not hand:
            return []
        r = RANK_OF[hand[self.cursor]]
        return [c for c in hand if RANK_OF[c] == r]

    def _need_turn(self) -> bool:
        if not self.my_turn():
            v = self.view()
            if v.phase == Phase.HAND_OVER:
                self.message = ["The hand is over"]
            elif self.viewer is None and not self.link.seats:
                self.message = ["You are watching this table"]
            else:
                self.message = [f"It is {self.link.name(v.actor)}'s turn"]
            return False
        return True

    def _mine(self) -> PlayerView:
        assert self.viewer is not None
        return self.link.view(self.viewer)

    def cmd_draw(self) -> None:
        if self._need_turn():
            self.play([A.A_DRAW])

    def cmd_pile(self) -> None:
        if not self._need_turn():
            return
        v = self._mine()
        options = [a for a in v.legal if a.kind == A.PILE]
        if not options:
            self.play([A.A_PILE])            # refused: the table says why
            return
        if self.selected:
            hand = self.hand()
            ranks = sorted(RANK_OF[hand[i]] for i in self.selected)
            match = [a for a in options if sorted(a.ranks) == ranks]
            if match:
                self.play([match[0]])
                return
        if len(options) == 1:
            self.play([options[0]])
            return
        self.open(PileChoice(options=options))

    def cmd_meld(self) -> None:
        if not self._need_turn():
            return
        cards = self._cards_for_meld()
        if not cards:
            return
        v = self._mine()
        if not self.selected and all(IS_WILD[c] for c in cards):
            self.cmd_add_wild()
            return
        row = v.melds[team(v.turn, v.rules)]
        plan = compose_meld(cards, row, v.rules.wild_melds_allowed)
        if isinstance(plan, str):
            self.message = [plan]
            return
        self.play(plan)

    def cmd_meld_one(self) -> None:
        if not self._need_turn():
            return
        hand = self.hand()
        if not hand:
            return
        c = hand[self.cursor]
        if IS_WILD[c]:
            self.cmd_add_wild()
            return
        self.play([A.add(RANK_OF[c])])

    def cmd_meld_three(self) -> None:
        if not self._need_turn():
            return
        hand = self.hand()
        if not hand:
            return
        r = RANK_OF[hand[self.cursor]]
        n = sum(1 for c in hand if RANK_OF[c] == r)
        if r in _WILD_RANKS:
            self.message = ["Meld three needs a natural rank under the cursor"]
            return
        if n >= 3:
            self.play([A.meld(r, r, r)])
            return
        wild = next((RANK_OF[c] for c in hand if IS_WILD[c]), None)
        if n == 2 and wild is not None:
            self.play([A.meld(r, r, wild)])
            return
        self.message = [f"Meld three needs three {plural(r)} (or two and a wild card); you hold {n}"]

    def cmd_add_wild(self) -> None:
        if not self._need_turn():
            return
        hand = self.hand()
        cards = [hand[i] for i in sorted(self.selected)] if self.selected else hand[self.cursor:self.cursor + 1]
        wild = next((c for c in cards if IS_WILD[c]), None)
        if wild is None:
            wild = next((c for c in hand if IS_WILD[c]), None)
        if wild is None:
            self.message = ["You hold no wild card"]
            return
        self.open(WildTarget(card=wild))

    def cmd_wilds_to_canasta(self) -> None:
        """Windows 2.41: "Pressing SHIFT while clicking will add as many wildcards as necessary to
        create a canasta (if possible)"; here W, then the meld's rank."""
        if not self._need_turn():
            return
        if not any(IS_WILD[c] for c in self.hand()):
            self.message = ["You hold no wild card"]
            return
        self.open(WildTarget(until_canasta=True))

    def wilds_until_canasta(self, rank: int) -> None:
        v = self._mine()
        m = v.melds[team(v.turn, v.rules)][rank]
        name = plural(rank) if rank != 2 else "wild cards"
        if m is None:
            self.message = [f"Your side has no meld of {name}"]
            return
        need = 7 - m.size
        if need <= 0:
            self.message = [f"Your meld of {name} is a canasta already"]
            return
        # Deuces before jokers: a joker left in the hand is what costs most at the end.
        wilds = sorted((c for c in self.hand() if IS_WILD[c]), key=lambda c: RANK_OF[c] == 14)
        room = len(wilds) if rank == 2 else v.rules.wilds_allowed(len(m.naturals)) - len(m.wilds)
        if min(room, len(wilds)) < need:
            why = (f"you hold {len(wilds)} wild card{'s' if len(wilds) != 1 else ''}" if len(wilds) < need
                   else f"the meld may take only {max(0, room)} more")
            self.message = [f"Your meld of {name} needs {need} more cards to be a canasta; {why}"]
            return
        self.play([A.add(RANK_OF[w], rank) for w in wilds[:need]])

    def cmd_discard(self) -> None:
        if not self._need_turn():
            return
        hand = self.hand()
        if not hand:
            return
        if len(self.selected) == 1:
            c = hand[next(iter(self.selected))]
        elif len(self.selected) > 1:
            self.message = ["Select one card to discard (or none: the cursor card is discarded)"]
            return
        else:
            c = hand[self.cursor]
        a = A.discard(c)
        v = self._mine()
        if a in v.legal and v.t.permission == 1 and len(hand) > 1:
            # DOS "Asking Permission": "The player is bound by the reply ... Should the player
            # not abide by the answer, a 100 point penalty is assessed."  Say it before it costs.
            pen = v.rules.permission_penalty
            left = len(hand) - 1
            self.open(Confirm(options=[a], text="\n".join([
                f"Your partner said yes: you must go out this turn or pay {pen}.",
                f"Discarding {card_text(c, True)} keeps {left} card{'s' if left != 1 else ''} in your hand,",
                f"so your side pays {pen} points.", "",
                "y: discard anyway    n: go back and meld"])))
            return
        # Not legal: the table says why, and returns improper melds to the hand (DOS rule).
        self.play([a])

    def cmd_undo(self) -> None:
        if self._need_turn():
            self.play([A.A_UNDO])

    def cmd_undo_all(self) -> None:
        if self._need_turn():
            self.play([A.A_UNDO] * max(1, self._mine().undoable))

    def cmd_unpile(self) -> None:
        if not self._need_turn():
            return
        pen = self._mine().rules.undo_pile_penalty
        if self.play([A.A_UNPILE]):
            self.message = [f"The pile is back; your side pays a {pen}-point penalty. Draw from the stock."]

    def cmd_end(self) -> None:
        if self._need_turn():
            self.play([A.A_END])

    def cmd_query(self) -> None:
        if not self._need_turn():
            return
        v = self._mine()
        if A.A_ASK in v.legal:
            need = v.rules.canastas_to_go_out
            have = sum(1 for m in v.melds[team(v.turn, v.rules)] if m is not None and m.is_canasta)
            if have < need:
                # Tell first what going out would take: a "yes" binds, and costs 100 if not kept.
                pen = v.rules.permission_penalty
                what = "a canasta" if need - have == 1 else f"{need - have} more canastas"
                self.open(Confirm(options=[A.A_ASK], text="\n".join([
                    ("Your side has no canasta yet" if have == 0 else f"Your side has only {have} canasta")
                    + ": to go out this turn",
                    f"you must complete {what} and meld or discard every card.",
                    f"If your partner says yes and you do not go out, your side pays {pen}.", "",
                    "y: ask anyway    n: do not ask"])))
                return
        self.play([A.A_ASK])

    def cmd_discard_red_three(self) -> None:
        """Windows 2.41 "Red Three options - Freeze discard pile": a laid-out red three may be
        discarded to freeze the pile (right-click on it there; here a key)."""
        if not self._need_turn():
            return
        v = self._mine()
        threes = [a for a in v.legal if a.kind == A.DISCARD and IS_RED_THREE[a.card]]
        if threes:
            self.play([threes[0]])
        elif not v.rules.red_three_discard_freezes:
            self.message = ["These rules do not let a red three be discarded (the option 'red_three_discard_freezes')"]
        elif not v.red_threes[v.turn]:
            self.message = ["You have no red three laid out"]
        else:
            self.play([A.discard(v.red_threes[v.turn][0])])    # refused: the table says why

    def cmd_left(self) -> None:
        self.cursor = max(0, self.cursor - 1)

    def cmd_right(self) -> None:
        self.cursor = min(max(0, len(self.hand()) - 1), self.cursor + 1)

    def _move_card(self, step: int) -> None:
        """Move the cursor card one place (the mobile app lets a player arrange the hand); the
        cursor and the selection go with the cards."""
        hand = self.hand()
        here, there = self.cursor, self.cursor + step
        if self.viewer is None or not 0 <= there < len(hand):
            return
        hand[here], hand[there] = hand[there], hand[here]
        self.arranged[self.viewer] = hand
        self.selected = {there if i == here else here if i == there else i for i in self.selected}
        self.cursor = there

    def cmd_move_left(self) -> None:
        self._move_card(-1)

    def cmd_move_right(self) -> None:
        self._move_card(1)

    def _rank_jump(self, step: int) -> None:
        hand = self.hand()
        if not hand:
            return
        r = RANK_OF[hand[self.cursor]]
        i = self.cursor
        while 0 <= i + step < len(hand):
            i += step
            if RANK_OF[hand[i]] != r:
                if step < 0:
                    r2 = RANK_OF[hand[i]]
                    while i > 0 and RANK_OF[hand[i - 1]] == r2:
                        i -= 1
                self.cursor = i
                return

    def cmd_prev_rank(self) -> None:
        self._rank_jump(-1)

    def cmd_next_rank(self) -> None:
        self._rank_jump(1)

    def cmd_home(self) -> None:
        self.cursor = 0

    def cmd_end_of_hand(self) -> None:
        self.cursor = max(0, len(self.hand()) - 1)

    def cmd_select(self) -> None:
        if not self.hand():
            return
        self.selected ^= {self.cursor}

    def cmd_select_rank(self) -> None:
        hand = self.hand()
        if not hand:
            return
        r = RANK_OF[hand[self.cursor]]
        idx = {i for i, c in enumerate(hand) if RANK_OF[c] == r}
        self.selected = self.selected - idx if idx <= self.selected else self.selected | idx

    def cmd_clear(self) -> None:
        self.selected.clear()

    def cmd_score(self) -> None:
        self.open(Score())

    def cmd_sheet(self) -> None:
        self.open(Sheet())

    def cmd_log(self) -> None:
        self.open(Log())

    def cmd_help(self) -> None:
        if self.host is not None:
            self.open(PageDialog(self.host.page("help")))
            return
        from ..presets import rules_label
        from .helppages import HelpPage
        self.open(PageDialog(HelpPage(self.link.rules, rules_label(self.link.rules))))

    def cmd_options(self) -> None:
        if self.host is None:
            self.message = ["Options are set at the start menu of a game at your own terminal"]
            return
        self.open(PageDialog(self.host.page("options")))

    def cmd_statistics(self) -> None:
        if self.host is None:
            self.message = ["Statistics are shown at the start menu of a game at your own terminal"]
            return
        self.open(PageDialog(self.host.page("statistics")))

    def cmd_new_game(self) -> None:
        """F2, as Canasta for Windows 2.41's Game | New: asks first; the game stays saved."""
        if "new" not in self.offers():
            self.message = ["A new game is started at the start menu of a game at your own terminal"]
            return
        self.open(LeaveTable())

    def cmd_redraw(self) -> None:
        pass

    def cmd_suspend(self) -> None:
        if self.on_suspend is None:
            self.message = ["Ctrl-Z does nothing here"]
            return
        self.on_suspend()

    def cmd_quit(self) -> None:
        self.open(Quit())

    def cmd_chat(self) -> None:
        if not self.link.can_chat:
            self.message = ["Chat is for tables played over SSH (canasta serve): here everybody sees this screen"]
            return
        self.open(ChatInput())

    def send_chat(self, text: str) -> None:
        """Say ``text`` to the table; a refusal (too long, too fast) is shown."""
        refused = self.link.say(text)
        if refused:
            self.message = [refused]

    # ------------------------------------------------------------------ scripting (tests, demos)
    def type_action(self, text: str) -> bool:
        """Play an action written in the notation (``meld K K K``), as the player to act."""
        return self.play([parse_action(text)])


#: Every command a key can run, checked against the key list when this module is imported.
COMMANDS: dict[str, Callable[[Controller], None]] = {
    "draw": Controller.cmd_draw, "pile": Controller.cmd_pile, "meld": Controller.cmd_meld,
    "meld_one": Controller.cmd_meld_one, "meld_three": Controller.cmd_meld_three,
    "add_wild": Controller.cmd_add_wild, "wilds_to_canasta": Controller.cmd_wilds_to_canasta,
    "discard": Controller.cmd_discard, "undo": Controller.cmd_undo,
    "undo_all": Controller.cmd_undo_all, "unpile": Controller.cmd_unpile, "end": Controller.cmd_end,
    "query": Controller.cmd_query, "discard_red_three": Controller.cmd_discard_red_three,
    "left": Controller.cmd_left, "right": Controller.cmd_right, "prev_rank": Controller.cmd_prev_rank,
    "next_rank": Controller.cmd_next_rank, "home": Controller.cmd_home, "end_of_hand": Controller.cmd_end_of_hand,
    "move_left": Controller.cmd_move_left, "move_right": Controller.cmd_move_right,
    "select": Controller.cmd_select, "select_rank": Controller.cmd_select_rank, "clear": Controller.cmd_clear,
    "score": Controller.cmd_score, "sheet": Controller.cmd_sheet, "log": Controller.cmd_log,
    "load": Controller.cmd_load, "save": Controller.cmd_save, "help": Controller.cmd_help,
    "new_game": Controller.cmd_new_game, "options": Controller.cmd_options, "statistics": Controller.cmd_statistics,
    "redraw": Controller.cmd_redraw, "suspend": Controller.cmd_suspend, "quit": Controller.cmd_quit,
    "chat": Controller.cmd_chat,
}
_wanted = {k.command for k in KEYS if k.section != "Dialogs"}
if set(COMMANDS) != _wanted:
    raise ImportError(f"ui.keys and the controller's COMMANDS disagree: {sorted(set(COMMANDS) ^ _wanted)}")


__all__ = ["BELLS", "COMMANDS", "Controller", "Files", "Host", "SavedGame", "arrange", "compose_meld", "sort_hand"]
