"""The table's controller: what the screen shows besides the game, and what each key does.

It knows nothing of prompt-toolkit: keys arrive as names (``"d"``, ``"f6"``, ``"left"``,
``"enter"``) through :meth:`Controller.key`, and the renderer reads its fields.  Every
move goes through the session, hence through the engine's legal actions; a refused
move shows the engine's own reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ..engine import (
    Action,
    GameState,
    IllegalActionError,
    Phase,
    PlayerView,
    apply,
    explain,
    improper_melds,
    legal_actions,
    parse_action,
    player_name,
    turn_problem,
    view_for,
)
from ..engine import actions as A
from ..engine.cards import IS_RED_THREE, IS_WILD, RANK_OF, RANK_WORDS, SUIT_OF, display_key, plural, sorted_for_display
from ..engine.cards import card_text as _card_text
from ..events import recap
from ..session import Session
from .keys import KEYS

_WILD_RANKS = (2, 14)
_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}
#: Keys that name a meld's rank (for "add the wild card to which meld?").
RANK_KEYS = {"a": 1, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "0": 10, "t": 10,
             "j": 11, "q": 12, "k": 13, "3": 3, "2": 2, "w": 2}

#: Dialogs that stop computer players until the human has seen them.
BLOCKING = frozenset({"summary", "sheet_end", "match_over", "quit", "privacy", "save_name", "load_list"})


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
    def load(self, path: str) -> str | None: ...                # None, or why it was not loaded
    def problem(self) -> str | None: ...                        # the autosave's failure, if any
    def notices(self) -> list[str]: ...                         # to read as the table opens
    def autosaved(self) -> str | None: ...                      # where the game is autosaved (None: nowhere)

#: Longest name the F4 dialog takes.
NAME_MAX = 40


@dataclass
class Dialog:
    kind: str            # help, score, sheet, log, quit, answer, privacy, summary, sheet_end, match_over,
                         # pile_choice, wild_target
    seat: int = -1       # privacy/answer: whose turn it is
    options: list[Action] = field(default_factory=list)
    card: int = -1       # wild_target: the wild card
    page: int = 0                # help: the page; load_list: the highlighted line
    back: Dialog | None = None   # quit: the dialog to return to on "no" (e.g. the privacy screen)
    text: str = ""               # save_name: the name typed so far
    items: list[SavedGame] = field(default_factory=list)   # load_list: the saved games


def card_label_text(c: int) -> str:
    return _card_text(c, True)


def sort_hand(cards: Sequence[int], order: str = "rank") -> list[int]:
    """A hand in the order the player chose.

    ``rank``: as the DOS game, A, 3, 4 ... K, then deuces and jokers (suits in club, diamond,
    heart, spade order within a rank).  ``suit``: clubs, diamonds, hearts, spades, each in
    that rank order, then the wild cards.
    """
    if order == "suit":
        return sorted((int(c) for c in cards),
                      key=lambda c: (IS_WILD[c], 0 if IS_WILD[c] else SUIT_OF[c], display_key(c)))
    return [int(c) for c in sorted_for_display(cards)]


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
    if short and len(naturals) > 1:
        # Name the whole selection, not just the first rank that falls short.
        def some(r: int, n: int) -> str:
            return f"{_NUMBER_WORDS.get(n, str(n))} {plural(r) if n != 1 else RANK_WORDS[r]}"
        chosen = [some(r, n) for r, n in sorted(naturals.items())]
        said = ", ".join(chosen[:-1]) + " and " + chosen[-1]
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
        else:
            have = f"one {RANK_WORDS[r]}" if n == 1 else f"two {plural(r)}"
            return (f"A new meld needs three cards: you selected {have}"
                    + ("" if n == 2 else "; select at least two natural cards and a wild card"))
    return out


class Controller:
    """UI state around the session: cursor, selection, messages, dialogs, hot-seat privacy."""

    def __init__(self, session: Session, files: Files | None = None, sort: str = "rank") -> None:
        self.session = session
        self.files = files
        self.sort = sort                     # the hand's order: "rank" (the DOS game's) or "suit"
        self._problem_shown: str | None = None   # the autosave failure already told
        self.message: list[str] = []
        self.dialog: Dialog | None = None
        self.quitting = False                # the user confirmed quit
        self.bell = False                    # ring the terminal bell at the next paint
        self.on_change: Callable[[], None] = lambda: None
        #: Ctrl-Z: the app suspends to the shell (None where that makes no sense, e.g. over SSH).
        self.on_suspend: Callable[[], None] | None = None
        self.keys_handled = 0                # how many keys were handled (tests wait on it)
        #: The terminal is smaller than the table (the app says so before each key): the screen
        #: shows only "terminal too small", so no key may act blind there but quitting.
        self.too_small = False
        self._keymap: dict[str, str] = {}
        for k in KEYS:
            if k.section != "Dialogs":
                for name in k.keys:
                    self._keymap.setdefault(name, k.command)
        self._seat_players()
        self.after_change()
        if files is not None and files.notices() and self.dialog is None:
            self.message = files.notices() + ([""] + self.message if self.message else [])

    def _seat_players(self) -> None:
        """Who looks at the table: set up at the start and again when F3 loads another game."""
        session = self.session
        humans = session.humans
        self.hot_seat = len(humans) > 1
        #: The seat whose hand is on screen (None: nobody's, e.g. between hot-seat turns).
        self.viewer: int | None = humans[0] if len(humans) == 1 else None
        self.cursor = 0
        self.selected: set[int] = set()      # indexes into the sorted hand
        self.turn_start: dict[int, Counter[int]] = {}   # hand at the start of a human's turn
        self.seen_log: dict[int, int] = {s: 0 for s in humans}   # per human: events seen up to here

    # ------------------------------------------------------------------ what is shown
    @property
    def state(self) -> GameState:
        return self.session.state

    def table_view(self) -> PlayerView:
        """The view the table is drawn from: the viewer's, or one without any hand."""
        s = self.session.state
        if self.viewer is not None and self.dialog is not None and self.dialog.kind == "privacy":
            return view_for(s, self.viewer)._replace(hand=(), legal=(), t=s.t._replace(own=None, prev=None,
                                                                                       pile_undo=None))
        if self.viewer is None:
            v = view_for(s, 0)
            return v._replace(hand=(), legal=(), seat=-1, t=v.t._replace(own=None))
        return view_for(s, self.viewer)

    def hand(self) -> list[int]:
        if self.viewer is None or (self.dialog is not None and self.dialog.kind == "privacy"):
            return []
        return sort_hand(self.session.state.hands[self.viewer], self.sort)

    def new_cards(self) -> list[bool]:
        """Per card of :meth:`hand`: drawn or taken from the pile this turn?"""
        hand = self.hand()
        start = self.turn_start.get(self.viewer if self.viewer is not None else -1)
        s = self.session.state
        if start is None or s.turn != self.viewer or s.phase == Phase.DRAW:
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
        s = self.session.state
        return (self.viewer is not None and s.actor == self.viewer and s.phase != Phase.HAND_OVER
                and (self.dialog is None or self.dialog.kind != "privacy"))

    def legal(self) -> list[Action]:
        return legal_actions(self.session.state) if self.my_turn() else []

    def lit(self) -> dict[str, bool]:
        """The command bar's lights: on exactly when the engine allows the command."""
        kinds = {a.kind for a in self.legal()}
        return {
            "draw": "draw" in kinds, "pile": "pile" in kinds, "meld": bool(kinds & {"meld", "add"}),
            "discard": "discard" in kinds, "score": True, "query": "ask" in kinds, "quit": True,
            "undo": "undo" in kinds, "help": True, "end": "end" in kinds, "unpile": "unpile" in kinds,
        }

    def computer_to_act(self) -> bool:
        s = self.session.state
        if s.phase == Phase.HAND_OVER or self.quitting:
            return False
        if self.dialog is not None and self.dialog.kind in BLOCKING:
            return False
        return not self.session.is_human(s.actor)

    def status(self) -> str:
        """The hint line: whose move it is and what can be done."""
        s = self.session.state
        if s.phase == Phase.HAND_OVER:
            return "The hand is over"
        who = self.session.name(s.actor)
        if not self.my_turn():
            if self.session.is_human(s.actor):
                return f"{who} is up"
            if s.phase == Phase.PERMISSION:
                return f"{who} is deciding: may {player_name(s.turn)} go out?"
            return f"{who} is playing…"
        if s.phase == Phase.DRAW:
            return "Your turn: d draws from the stock, p takes the pile"
        if s.phase == Phase.PERMISSION:
            return "Answer your partner: y or n"
        if s.t.permission == 1 and s.phase == Phase.MELD:
            pen = self.session.rules.permission_penalty
            return f"Your partner said yes: you must go out this turn or pay {pen}"
        if A.A_UNPILE in self.legal():
            pen = self.session.rules.undo_pile_penalty
            return f"You took the pile: b puts it back ({pen}-point penalty); or meld and discard"
        if not any(a.kind == "discard" for a in self.legal()):
            reason = turn_problem(s, len(s.hands[s.turn]) == 1)
            if reason:
                return reason
        return "Space selects, m melds, w adds a wild card, c discards the cursor card"

    # ------------------------------------------------------------------ keys
    def key(self, name: str) -> None:
        """Handle one key (a prompt-toolkit key name or a character)."""
        try:
            self._key(name)
        finally:
            self.keys_handled += 1
            self.on_change()

    def _key(self, name: str) -> None:
        if self.too_small:
            if self.dialog is not None and self.dialog.kind == "quit":
                self._dialog_key(name)
            elif name in ("q", "c-c"):
                self.dialog = Dialog("quit", back=self.dialog)
            return
        if self.dialog is not None:
            self._dialog_key(name)
            return
        if self.message:
            self.message = []
            if name not in ("c-c",):
                return
        cmd = self._keymap.get(name)
        if cmd is None:
            return
        getattr(self, "cmd_" + cmd)()

    def click_card(self, index: int) -> None:
        """A mouse click on a card of the hand: move there and toggle its selection."""
        if self.dialog is not None or self.message:
            self.key("enter")
            return
        self.cursor = index
        self.cmd_select()
        self.on_change()

    def command(self, cmd: str) -> None:
        """Run a command by name (mouse clicks on the command bar)."""
        if self.dialog is not None or self.message:
            self.key("enter")
            return
        getattr(self, "cmd_" + cmd)()
        self.on_change()

    def _dialog_key(self, name: str) -> None:
        d = self.dialog
        assert d is not None
        k = d.kind
        if k == "quit":
            if name in ("y", "enter", "c-c", "q"):
                self.quitting = True
                self.dialog = None
                return
            self.dialog = d.back
            self.after_change()
            return
        if name == "c-c":
            self.dialog = Dialog("quit", back=d)
            return
        if k == "save_name":
            self._save_name_key(d, name)
            return
        if k == "confirm":
            # A question before a move whose cost the player should know (d.options: the move).
            self.dialog = None
            if name in ("y", "enter"):
                self._play(d.options)
            return
        if k == "load_list":
            self._load_list_key(d, name)
            return
        if k == "answer":
            if name in ("y", "n"):
                self.dialog = None
                self._play([A.A_YES if name == "y" else A.A_NO])
            elif name in ("?", "f1"):
                pass
            return
        if k == "privacy":
            if name == "enter":
                self._reveal(d.seat)
            elif name == "q":
                self.dialog = Dialog("quit", back=d)
            return
        if k == "pile_choice":
            if name.isdigit() and 1 <= int(name) <= len(d.options):
                self.dialog = None
                self._take_pile(d.options[int(name) - 1])
            elif name in ("escape", "n", "enter"):
                self.dialog = None
            return
        if k == "wild_target":
            target = RANK_KEYS.get(name.lower())
            self.dialog = None
            if target is not None:
                self._play([A.add(RANK_OF[d.card], target)])
            return
        if k == "help":
            if name in ("space", "pagedown", "down", "j"):
                d.page += 1
                return
            if name in ("pageup", "up", "k") and d.page:
                d.page -= 1
                return
            self.dialog = None
            return
        if k == "summary":
            if name in ("enter", "space"):
                self.dialog = Dialog("sheet_end")
            elif name == "q":
                self.dialog = Dialog("quit", back=d)
            return
        if k == "sheet_end":
            if name in ("enter", "space"):
                self.dialog = None
                if self.session.match.winner is not None:
                    self.dialog = Dialog("match_over")
                else:
                    self.session.deal_next()
                    self.selected.clear()
                    self.cursor = 0
                    self.after_change()
            elif name == "q":
                self.dialog = Dialog("quit", back=d)
            return
        if k == "match_over":
            if name in ("enter", "q", "space"):
                self.quitting = True
            return
        # score, sheet, log: any key closes
        self.dialog = None

    # ------------------------------------------------------------------ F3 and F4
    def _save_name_key(self, d: Dialog, name: str) -> None:
        if name == "escape":
            self.dialog = None
        elif name == "enter":
            typed = d.text.strip()
            if not typed:
                return       # the dialog says a name is needed
            self.dialog = None
            assert self.files is not None
            ok, text = self.files.save(typed)
            self.message = [f"Saved: {text}"] if ok else ["Not saved:", text]
        elif name in ("c-h", "backspace"):
            d.text = d.text[:-1]
        elif name == "c-u":
            d.text = ""
        elif name == "space":
            if len(d.text) < NAME_MAX:
                d.text += " "
        elif len(name) == 1 and name.isprintable() and len(d.text) < NAME_MAX:
            d.text += name

    def _load_list_key(self, d: Dialog, name: str) -> None:
        n = len(d.items)
        if name in ("escape", "q"):
            self.dialog = None
        elif name in ("down", "j", "tab"):
            d.page = min(n - 1, d.page + 1)
        elif name in ("up", "k", "s-tab"):
            d.page = max(0, d.page - 1)
        elif name in ("home", "pageup"):
            d.page = 0
        elif name in ("end", "pagedown"):
            d.page = n - 1
        elif name == "enter" and n:
            item = d.items[d.page]
            self.dialog = None
            assert self.files is not None
            problem = self.files.load(str(item.path))
            if problem is not None:
                self.message = ["Not loaded (the game goes on as it was):", problem]
                return
            self._seat_players()
            self.after_change()
            if self.dialog is None:
                self.message = [f"Loaded {item.name}: hand {self.session.match.hand_number}"]

    def cmd_save(self) -> None:
        if self.files is None:
            self.message = ["Saving is not available at this table"]
            return
        self.dialog = Dialog("save_name", text=self.files.default_name()[:NAME_MAX])

    def cmd_load(self) -> None:
        if self.files is None:
            self.message = ["Loading is not available at this table"]
            return
        items = list(self.files.saved_games())
        if not items:
            self.message = [f"No saved games yet (F4 saves one; they go to {self.files.where()})"]
            return
        self.dialog = Dialog("load_list", items=items)

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
        self._tell_file_problem()

    def _after_change(self) -> None:
        s = self.session.state
        if self.hot_seat and self.viewer is not None and (s.phase == Phase.HAND_OVER or s.actor != self.viewer):
            # Hot-seat's one rule: a hand shows only while its seat has input to give.  Whatever
            # ended that input (a discard, going out, an answer, a question to a partner), the
            # hand goes away before anybody else acts.
            self._turn_ended(self.viewer)
        hand_len = len(self.hand())
        self.cursor = max(0, min(self.cursor, hand_len - 1))
        self.selected = {i for i in self.selected if i < hand_len}
        if s.phase == Phase.HAND_OVER:
            if self.dialog is None or self.dialog.kind not in ("summary", "sheet_end", "match_over", "quit"):
                self.dialog = Dialog("summary")
                self.message = []
            return
        actor = s.actor
        if not self.session.is_human(actor):
            return
        if actor != self.viewer:
            if self.hot_seat:
                self.viewer = None
                self.message = []
                if self.dialog is None or self.dialog.kind != "privacy":
                    self.dialog = Dialog("privacy", seat=actor)
                return
            self.viewer = actor
        self._start_turn_if_needed()
        if s.phase == Phase.PERMISSION and (self.dialog is None or self.dialog.kind != "answer"):
            self.dialog = Dialog("answer", seat=actor)

    def _start_turn_if_needed(self) -> None:
        s = self.session.state
        if self.viewer is not None and s.turn == self.viewer and s.phase == Phase.DRAW:
            self.turn_start[self.viewer] = Counter(s.hands[self.viewer])

    def _reveal(self, seat: int) -> None:
        """Hot-seat: the player pressed Enter on their privacy screen."""
        self.dialog = None
        self.viewer = seat
        self.cursor = 0
        self.selected.clear()
        events = self.session.events
        since = recap(events[self.seen_log.get(seat, 0):], self.session.name, skip=seat)
        self.seen_log[seat] = len(events)
        if since:
            # One line per player's moves, so every discard since this player's last turn fits.
            self.message = ["Since your last turn:", *since]
        self._start_turn_if_needed()
        if self.session.state.phase == Phase.PERMISSION:
            self.dialog = Dialog("answer", seat=seat)

    def _turn_ended(self, seat: int) -> None:
        """A hot-seat human's input is done: hide the hand and ring the bell ("At the conclusion
        of the play a bell will sound indicating that it permissible, once again to look at the
        table", DOS manual)."""
        self.seen_log[seat] = len(self.session.events)
        self.viewer = None
        self.message = []        # a message to that player may speak of their hand
        self.bell = True

    def _play(self, actions: Sequence[Action]) -> bool:
        """Play these actions as one move: all of them, or (with the engine's reason) none."""
        s = self.session.state
        trial = s
        for a in actions:
            try:
                trial = apply(trial, a)
            except IllegalActionError as exc:
                self.message = [str(exc)]
                return False
        for a in actions:
            self.session.play(a)
        self.selected.clear()
        self.after_change()
        return True

    def apply_computer(self, action: Action) -> None:
        """Play a computer player's chosen action (on the UI thread)."""
        s = self.session.state
        if self.session.is_human(s.actor) or s.phase == Phase.HAND_OVER:
            return
        asked_by_human = s.phase == Phase.PERMISSION and self.session.is_human(s.turn)
        self.session.play(action)
        if asked_by_human and self.viewer == s.turn:
            said = "Yes, go out" if action.kind == "yes" else "No, do not go out"
            self.message = [f"{self.session.name(s.actor)} says: {said}"]
        self.after_change()
        self.on_change()

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
            s = self.session.state
            if s.phase == Phase.HAND_OVER:
                self.message = ["The hand is over"]
            else:
                self.message = [f"It is {self.session.name(s.actor)}'s turn"]
            return False
        return True

    def cmd_draw(self) -> None:
        if self._need_turn():
            self._play([A.A_DRAW])

    def cmd_pile(self) -> None:
        if not self._need_turn():
            return
        s = self.session.state
        options = [a for a in legal_actions(s) if a.kind == "pile"]
        if not options:
            self.message = [explain(s, A.A_PILE) or "You may not take the pile now"]
            return
        if self.selected:
            hand = self.hand()
            ranks = sorted(RANK_OF[hand[i]] for i in self.selected)
            match = [a for a in options if sorted(a.ranks) == ranks]
            if match:
                self._take_pile(match[0])
                return
        if len(options) == 1:
            self._take_pile(options[0])
            return
        self.dialog = Dialog("pile_choice", options=options)

    def _take_pile(self, a: Action) -> None:
        self._play([a])

    def cmd_meld(self) -> None:
        if not self._need_turn():
            return
        cards = self._cards_for_meld()
        if not cards:
            return
        s = self.session.state
        if not self.selected and all(IS_WILD[c] for c in cards):
            self.cmd_add_wild()
            return
        row = s.melds[s.team_of(s.turn)]
        plan = compose_meld(cards, row, s.rules.wild_melds_allowed)
        if isinstance(plan, str):
            self.message = [plan]
            return
        self._play(plan)

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
        self._play([A.add(RANK_OF[c])])

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
            self._play([A.meld(r, r, r)])
            return
        wild = next((RANK_OF[c] for c in hand if IS_WILD[c]), None)
        if n == 2 and wild is not None:
            self._play([A.meld(r, r, wild)])
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
        self.dialog = Dialog("wild_target", card=wild)

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
        s = self.session.state
        if a in legal_actions(s):
            if s.t.permission == 1 and len(hand) > 1:
                # DOS "Asking Permission": "The player is bound by the reply ... Should the player
                # not abide by the answer, a 100 point penalty is assessed."  Say it before it costs.
                pen = self.session.rules.permission_penalty
                left = len(hand) - 1
                self.dialog = Dialog("confirm", options=[a], text="\n".join([
                    f"Your partner said yes: you must go out this turn or pay {pen}.",
                    f"Discarding {card_label_text(c)} keeps {left} card{'s' if left != 1 else ''} in your hand,",
                    f"so your side pays {pen} points.", "",
                    "y: discard anyway    n: go back and meld"]))
                return
            self._play([a])
            return
        improper = improper_melds(s, a)
        if improper is None:
            self.message = [explain(s, a) or f"You may not discard {c} now"]
            return
        # DOS "Improper Melds": each attempt to discard returns one meld to the hand (the
        # engine says which); melds made to take the pile stay, and only the reason shows.
        self.message = [f"Improper melds: {improper.reason}."]
        if improper.undo:
            try:
                for u in improper.undo:
                    self.session.play(u)
            except IllegalActionError as exc:  # a hand past its take-back limit
                self.message.append(str(exc))
                return
            self.selected.clear()
            self.after_change()
            what = "wild cards" if improper.rank == 2 else plural(improper.rank)
            back = f"Your meld of {what} is back in your hand" if improper.whole else \
                f"What you added to your meld of {what} is back in your hand"
            self.message = [f"Improper melds: {improper.reason}.",
                            back + (" (discard again to return the next one)." if improper.more else ".")]

    def cmd_undo(self) -> None:
        if self._need_turn():
            self._play([A.A_UNDO])

    def cmd_undo_all(self) -> None:
        if not self._need_turn():
            return
        if A.A_UNDO not in legal_actions(self.session.state):
            self.message = [explain(self.session.state, A.A_UNDO) or "Nothing to undo"]
            return
        while A.A_UNDO in legal_actions(self.session.state):
            self.session.play(A.A_UNDO)
        self.selected.clear()
        self.after_change()

    def cmd_unpile(self) -> None:
        if self._need_turn():
            if A.A_UNPILE in legal_actions(self.session.state):
                pen = self.session.rules.undo_pile_penalty
                if self._play([A.A_UNPILE]):
                    self.message = [f"The pile is back; your side pays a {pen}-point penalty. Draw from the stock."]
            else:
                self._play([A.A_UNPILE])

    def cmd_end(self) -> None:
        if self._need_turn():
            self._play([A.A_END])

    def cmd_query(self) -> None:
        if not self._need_turn():
            return
        s = self.session.state
        if A.A_ASK in legal_actions(s):
            need = s.rules.canastas_to_go_out
            have = s.canastas(s.team_of(s.turn))
            if have < need:
                # Tell first what going out would take: a "yes" binds, and costs 100 if not kept.
                pen = s.rules.permission_penalty
                what = "a canasta" if need - have == 1 else f"{need - have} more canastas"
                self.dialog = Dialog("confirm", options=[A.A_ASK], text="\n".join([
                    ("Your side has no canasta yet" if have == 0 else f"Your side has only {have} canasta")
                    + ": to go out this turn",
                    f"you must complete {what} and meld or discard every card.",
                    f"If your partner says yes and you do not go out, your side pays {pen}.", "",
                    "y: ask anyway    n: do not ask"]))
                return
        self._play([A.A_ASK])

    def cmd_discard_red_three(self) -> None:
        """Windows 2.41 "Red Three options - Freeze discard pile": a laid-out red three may be
        discarded to freeze the pile (right-click on it there; here a key)."""
        if not self._need_turn():
            return
        s = self.session.state
        threes = [a for a in legal_actions(s) if a.kind == "discard" and IS_RED_THREE[a.card]]
        if threes:
            self._play([threes[0]])
            return
        if not s.rules.red_three_discard_freezes:
            self.message = ["These rules do not let a red three be discarded (the option 'red_three_discard_freezes')"]
        elif not s.red_threes[s.turn]:
            self.message = ["You have no red three laid out"]
        else:
            self.message = [explain(s, A.discard(s.red_threes[s.turn][0])) or "You may not discard a red three now"]

    def cmd_left(self) -> None:
        self.cursor = max(0, self.cursor - 1)

    def cmd_right(self) -> None:
        self.cursor = min(max(0, len(self.hand()) - 1), self.cursor + 1)

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
        self.dialog = Dialog("score")

    def cmd_sheet(self) -> None:
        self.dialog = Dialog("sheet")

    def cmd_log(self) -> None:
        self.dialog = Dialog("log")

    def cmd_help(self) -> None:
        self.dialog = Dialog("help")

    def cmd_redraw(self) -> None:
        pass

    def cmd_suspend(self) -> None:
        if self.on_suspend is None:
            self.message = ["Ctrl-Z does nothing here"]
            return
        self.on_suspend()

    def cmd_quit(self) -> None:
        self.dialog = Dialog("quit")

    # ------------------------------------------------------------------ scripting (tests, demos)
    def type_action(self, text: str) -> bool:
        """Play an action written in the notation (``meld K K K``), as the player to act."""
        return self._play([parse_action(text)])
