"""Dialogs: small typed objects, each its own state, what its keys do, and what it shows.

:class:`Dialog` is the machinery every screen may use.  It is generic over what its keys act on
(the screen's side it is open on, ``H``) and what it draws from (``R``, read only), so the
table's dialogs and another screen's (the lobby's) are the same kind of object, told apart by
their type.  A screen holds at most one dialog; keys go to it first.  A dialog changes its host
only through the host's public methods (``close``, ``play``, ``reveal`` ...), and draws from what
the screen shows (its view and the table's public facts), never the game.

The table's dialogs are ``Dialog[TableHost, TableFacts]`` (:data:`TableDialog`): protocols of
what they may ask of the table's client and what they may read of it (``model.Client`` has
both); nothing here imports the client or the screen.  A :data:`Box` asks only to be closed and
draws from itself: it opens over the table, the lobby and every page alike (a page is a host as
the client is), and is told what to do with its answer (:class:`Confirm`, :class:`InvitationBox`,
:class:`LoadList`, :class:`Info`; the lobby's boxes in ``ui/lobby.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Generic, NamedTuple, Protocol, TypeVar

from ..engine import Action, HandRecord, Phase, PlayerView, Rules
from ..engine import actions as A
from ..engine.cards import RANK_OF
from ..table import Link
from ..text import points, printable
from .canvas import Canvas, Options, card_label, draw_box, glyph_text, wrap
from .files import Files, SavedGame
from .lineedit import LineEdit, list_move
from .moves import wilds_until_canasta
from .texts import load_lines, pile_option_text, score_lines, sheet_lines, side_name, summary_table

#: Longest name the F4 dialog takes.
NAME_MAX = 40
#: Longest chat line the chat input takes (the server may allow less).
CHAT_MAX = 200

#: Keys that name a meld's rank (for "add the wild card to which meld?").
RANK_KEYS = {"a": 1, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "0": 10, "t": 10,
             "j": 11, "q": 12, "k": 13, "3": 3, "2": 2, "w": 2}


class DialogHost(Protocol):
    """What every dialog may ask of the screen it is open on: to be closed."""

    def close(self) -> None: ...


#: What a dialog's keys act on (the screen's side it is open on) ...
H = TypeVar("H", bound=DialogHost, contravariant=True)
#: ... and what it draws from (read only).  (Both contravariant: a dialog that asks less of its
#: screen, a :data:`Box`, opens on any screen.)
R = TypeVar("R", contravariant=True)


@dataclass
class Dialog(Generic[H, R]):
    """A dialog box over a screen: its keys act on ``H``, and it draws from ``R``; any key
    closes it unless a subclass says otherwise."""

    #: While open on a local table, the computers wait (the player is deciding something).
    holds: ClassVar[bool] = False
    #: Drawn instead of the screen (nothing of it must show behind).
    full_screen: ClassVar[bool] = False
    title: ClassVar[str] = ""

    def key(self, host: H, name: str) -> None:
        host.close()

    @property
    def click_closes(self) -> bool:
        """A mouse click on the table closes the dialog only where any key would: a question
        (quit? which meld? a name to save under) waits for its own keys, never for a stray click."""
        return type(self).key is Dialog.key

    def lines(self, seen: R, cv: Canvas, opts: Options) -> list[str]:
        return []

    def draw(self, cv: Canvas, seen: R, opts: Options) -> None:
        draw_box(cv, self.title, self.lines(seen, cv, opts))


#: A dialog that asks nothing of its screen but to be closed and draws from itself alone: it opens
#: over the table, the lobby and every page alike (a page is a :class:`DialogHost` too).
Box = Dialog[DialogHost, object]


def _nothing() -> None:
    return None


@dataclass
class Info(Box):
    """A few lines in a box (each wrapped to it); any key closes it."""

    heading: str = ""
    text: Sequence[str] = ()

    def draw(self, cv: Canvas, seen: object, opts: Options) -> None:
        body = [w for t in self.text for w in wrap(glyph_text(printable(t), opts.glyphs), cv.width - 10)]
        draw_box(cv, self.heading, [*body, "", "(press any key)"])


#: One answer of a :class:`Confirm`: its key, its label, and what it does.
Reply = tuple[str, str, Callable[[], object]]


@dataclass
class Confirm(Box):
    """A question in a box, the one of every screen: each answer is a key, its label and what it
    does (after the box closed); Enter is the first answer where ``enter`` says so (a plain yes/no
    question), and any other key is no (``no`` runs).  ``footer`` None: the answers' keys are said
    below the question, then the no's (``no_label``, else "any other key: no")."""

    heading: str = "Before you do"
    text: str = ""                              # the question; lines apart by "\n", each wrapped to the box
    answers: Sequence[Reply] = ()
    no: Callable[[], None] = _nothing
    enter: bool = False
    footer: str | None = None
    no_label: str = ""

    def key(self, host: DialogHost, name: str) -> None:
        host.close()
        for i, (k, _, act) in enumerate(self.answers):
            if name == k or (name == "enter" and self.enter and i == 0):
                act()
                return
        self.no()

    def lines(self, seen: object, cv: Canvas, opts: Options) -> list[str]:
        room = cv.width - 10
        body = [w for line in glyph_text(self.text, opts.glyphs).split("\n")
                for w in ([printable(line)] if len(line) <= room else wrap(printable(line), room))]
        footer = self.footer
        if footer is None:
            no = f"n: {self.no_label}" if self.no_label else "any other key: no"
            footer = "    ".join([*(f"{k}: {label}" for k, label, _ in self.answers), no])
        return [*body, *(["", footer] if footer else [])]

    def draw(self, cv: Canvas, seen: object, opts: Options) -> None:
        draw_box(cv, self.heading, self.lines(seen, cv, opts))


def _no_answer(accept: bool) -> None:
    return None


@dataclass
class InvitationBox(Box):
    """Somebody invites this person to a table (over SSH), in a box over the lobby or the table
    they watch: y accepts (Enter does not: the box may pop up just as it is pressed), n declines,
    Esc or q puts it off: it stays open, listed in the lobby, where y answers it (``later`` runs).
    ``answer`` takes the answer to the server; ``invitation`` is its id there."""

    heading: str = "Invitation"
    text: str = ""
    answer: Callable[[bool], object] = _no_answer
    later: Callable[[], None] = _nothing
    invitation: int = -1

    #: What the box says of its keys (each of them, Esc and n differ).
    KEYS: ClassVar[str] = "y: accept    n: decline    Esc: later (y in the lobby answers it)"

    def key(self, host: DialogHost, name: str) -> None:
        if name in ("y", "n"):
            host.close()
            self.answer(name == "y")
        elif name in ("escape", "q"):
            host.close()
            self.later()

    def lines(self, seen: object, cv: Canvas, opts: Options) -> list[str]:
        return [*wrap(printable(self.text), cv.width - 10), "", self.KEYS]

    def draw(self, cv: Canvas, seen: object, opts: Options) -> None:
        draw_box(cv, self.heading, self.lines(seen, cv, opts))


class TableReader(Protocol):
    """The public facts of the table a dialog draws from (a :class:`~canasta_tui.table.Link` has them)."""

    @property
    def rules(self) -> Rules: ...
    @property
    def hand_number(self) -> int: ...
    @property
    def sheet(self) -> Sequence[HandRecord]: ...
    @property
    def scores(self) -> Sequence[int]: ...
    @property
    def winner(self) -> int | None: ...

    def name(self, seat: int) -> str: ...
    def waiting(self) -> int: ...
    def final_hands(self) -> tuple[tuple[int, ...], ...] | None: ...


class TableFacts(Protocol):
    """What the table's dialogs draw from, read only (``model.Client`` has it; the snapshot the
    table is painted from hands it to the dialog)."""

    @property
    def link(self) -> TableReader: ...
    @property
    def files(self) -> Files | None: ...
    @property
    def remote(self) -> bool: ...
    @property
    def leave_note(self) -> tuple[str, ...]: ...
    @property
    def sort(self) -> str: ...

    def view(self) -> PlayerView: ...
    def hand(self) -> list[int]: ...
    def log_lines(self) -> Sequence[tuple[int, str]]: ...
    def quit_question(self) -> str: ...
    def offers(self) -> frozenset[str]: ...


class TableHost(TableFacts, Protocol):
    """What the table's dialogs' keys ask of the table's client (``model.Client``)."""

    message: list[str]

    @property
    def link(self) -> Link: ...

    def open(self, d: TableDialog) -> None: ...
    def close(self, back: TableDialog | None = None) -> None: ...
    def play(self, actions: Sequence[Action]) -> bool: ...
    def reveal(self, seat: int) -> None: ...
    def acknowledge(self) -> None: ...
    def summary_seen(self) -> None: ...
    def quit(self) -> None: ...
    def leave(self, then: str) -> None: ...
    def offer_new_game(self) -> None: ...
    def save_as(self, name: str) -> None: ...
    def send_chat(self, text: str) -> None: ...


#: A dialog of the table: its keys act on the client, it draws from the client's facts.
TableDialog = Dialog[TableHost, TableFacts]


def seat_names(table: TableFacts) -> list[str]:
    """Every seat's name at this table, by seat (the score names the sides by them)."""
    return [table.link.name(s) for s in range(table.link.rules.players)]


@dataclass
class Score(TableDialog):
    title: ClassVar[str] = "Score"

    def lines(self, table: TableFacts, cv: Canvas, opts: Options) -> list[str]:
        link = table.link
        return score_lines(link.rules, table.view(), link.scores, len(link.sheet), seat_names(table)) + ["", "(press any key)"]


@dataclass
class Sheet(TableDialog):
    title: ClassVar[str] = "Score sheet"

    def lines(self, table: TableFacts, cv: Canvas, opts: Options) -> list[str]:
        link = table.link
        return sheet_lines(link.rules, link.sheet, link.scores, cv.height - 12, seat_names(table)) + ["", "(press any key)"]


@dataclass
class Log(TableDialog):
    """The whole log of the hand, each entry wrapped, newest at the bottom: Up/Down, PgUp/PgDn and
    Home/End scroll it, any other key closes it."""

    title: ClassVar[str] = "Table log"
    back: int = 0               # rows scrolled back from the newest

    #: The keys that scroll, and by how many rows (Home and End: to the oldest and the newest).
    SCROLL: ClassVar[dict[str, int]] = {"up": 1, "k": 1, "down": -1, "j": -1, "pageup": 10, "pagedown": -10,
                                        "home": 1 << 30, "end": -(1 << 30)}

    def key(self, host: TableHost, name: str) -> None:
        step = self.SCROLL.get(name)
        if step is None:
            host.close()
        else:
            self.back = max(0, self.back + step)

    def lines(self, table: TableFacts, cv: Canvas, opts: Options) -> list[str]:
        rows = max(1, cv.height - 9)
        wrapped = [w for _, text in table.log_lines() for w in wrap(glyph_text(text, opts.glyphs), _log_width(cv) - 2)]
        # (kept within the log, so a key pressed past the top is not owed back)
        self.back = min(self.back, max(0, len(wrapped) - rows))
        end = len(wrapped) - self.back
        start = max(0, end - rows)
        where = f"lines {start + 1}-{end} of {len(wrapped)}" if wrapped else "nothing yet"
        return [*wrapped[start:end], "", f"{where}   Up/Down PgUp/PgDn Home/End: scroll", "any other key closes"]

    def draw(self, cv: Canvas, seen: TableFacts, opts: Options) -> None:
        # One width whatever is shown, so that the box stands still while it scrolls.
        draw_box(cv, self.title, self.lines(seen, cv, opts), width=_log_width(cv))


def _log_width(cv: Canvas) -> int:
    """The log box's inside: the screen's width less a margin, at most 72 (the width of a line at 80 columns)."""
    return min(cv.width - 8, 72)


@dataclass
class Quit(TableDialog):
    holds: ClassVar[bool] = True
    title: ClassVar[str] = "Quit"
    back: TableDialog | None = None      # where "no" returns to (the privacy screen, a summary ...)

    def key(self, host: TableHost, name: str) -> None:
        if name in ("y", "enter", "c-c", "q"):
            host.quit()
        else:
            host.close(self.back)

    def lines(self, table: TableFacts, cv: Canvas, opts: Options) -> list[str]:
        note = quit_note(table)
        yes = "y: leave" if table.remote else "y: quit"
        return [table.quit_question(), *([""] + note if note else []), "", f"{yes}    n: keep playing"]


def quit_note(table: TableFacts) -> list[str]:
    """What quitting does to the game: over SSH a computer keeps the seat warm; at home the
    game is kept (autosaved) and how to come back to it, or why it is not."""
    if table.remote and table.view().seat < 0:
        return ["You are watching: the table plays on without you."]
    if table.remote and table.leave_note:
        return list(table.leave_note)
    if table.remote:
        return ["A computer plays your seat until you come back:", "join this table again to take it back."]
    files = table.files
    if table.link.winner is not None or files is None:
        return []
    if files.problem() is not None:
        return ["The game could not be kept: it is lost when a new one starts."]
    if files.autosaved() is None:
        return []
    return ["The game is kept: run canasta to resume it", "(canasta --resume resumes at once)."]


@dataclass
class Answer(TableDialog):
    """Your partner asks "May I go out, partner?"."""

    title: ClassVar[str] = "Query"
    seat: int = -1

    def key(self, host: TableHost, name: str) -> None:
        if name in ("y", "n"):
            host.close()
            host.play([A.A_YES if name == "y" else A.A_NO])

    def lines(self, table: TableFacts, cv: Canvas, opts: Options) -> list[str]:
        asker = table.link.name(table.view().turn)
        return [f"{asker} asks: \"May I go out, partner?\"", "", "y: Yes (they must go out)    n: No"]


@dataclass
class Privacy(TableDialog):
    """Hot-seat: the screen is blank but for whose turn it is."""

    full_screen: ClassVar[bool] = True
    seat: int = -1

    def key(self, host: TableHost, name: str) -> None:
        if name == "enter":
            host.reveal(self.seat)
        elif name == "q":
            host.open(Quit(back=self))
        elif name == "f2":
            host.offer_new_game()

    def draw(self, cv: Canvas, table: TableFacts, opts: Options) -> None:
        name = table.link.name(self.seat)
        what = "is up" if table.view().phase != Phase.PERMISSION else "is asked a question"
        lines = [f"{name} {what} {cv.glyphs.dash} press Enter", "", "(everybody else: please look away)"]
        for i, line in enumerate(lines):
            cv.put(cv.height // 2 - 1 + i, max(0, (cv.width - len(line)) // 2), line, "message" if i == 0 else "")


@dataclass
class Summary(TableDialog):
    """The DOS "Scoring Summary Table" of the hand just over."""

    full_screen: ClassVar[bool] = True
    review: bool = False             # the review of the hand comes next (Options: Review each hand)

    def key(self, host: TableHost, name: str) -> None:
        if name in ("enter", "space"):
            host.summary_seen()           # the review of the hand (when on), then the score sheet
        elif name == "q":
            host.open(Quit(back=self))

    def draw(self, cv: Canvas, table: TableFacts, opts: Options) -> None:
        link = table.link
        hands = link.final_hands()
        if hands is None or not link.sheet:
            return
        v = table.view()
        names = [link.name(p) for p in range(v.rules.players)]
        lines = summary_table(v, hands, link.sheet[-1], names, cv.width, cv.height, opts.glyphs, table.sort)
        if self.review and lines and lines[-1] == "Enter: the score sheet":
            lines[-1] = "Enter: the review of the hand"
        cv.fill(0, 0, cv.width, cv.height)
        for y, text in enumerate(lines):
            cv.put(y, 0, text, "heading" if y == 0 or text.startswith(opts.glyphs.hline) else "")


@dataclass
class SheetEnd(TableDialog):
    """The score sheet at the end of a hand; Enter says this player has seen it."""

    title: ClassVar[str] = "Score sheet"

    def key(self, host: TableHost, name: str) -> None:
        if name in ("enter", "space"):
            host.acknowledge()
        elif name == "q":
            host.open(Quit(back=self))

    def lines(self, table: TableFacts, cv: Canvas, opts: Options) -> list[str]:
        link = table.link
        foot = "Enter: continue" if link.winner is not None else "Enter: next hand"
        return [*sheet_lines(link.rules, link.sheet, link.scores, 4, seat_names(table)), "", foot]


@dataclass
class Waiting(TableDialog):
    """This player has seen the score; others have not yet (a table of several terminals)."""

    title: ClassVar[str] = "Score sheet"

    def key(self, host: TableHost, name: str) -> None:
        if name == "q":
            host.open(Quit(back=self))

    def lines(self, table: TableFacts, cv: Canvas, opts: Options) -> list[str]:
        link = table.link
        n = link.waiting()
        who = f"{n} player{'s' if n != 1 else ''}"
        return [*sheet_lines(link.rules, link.sheet, link.scores, 4, seat_names(table)), "",
                f"Waiting for {who} to see the score: the next hand is dealt then."]


@dataclass
class MatchOver(TableDialog):
    """The end of the match: play again (same seats and rules), the start menu, or quit."""

    title: ClassVar[str] = "Game over"

    def key(self, host: TableHost, name: str) -> None:
        offers = host.offers()
        if "again" in offers and name in ("a", "enter", "space"):
            host.leave("again")
        elif "menu" in offers and name in ("m", "f2"):
            host.leave("menu")
        elif name in ("enter", "q", "space", "c-c"):
            host.quit()

    def lines(self, table: TableFacts, cv: Canvas, opts: Options) -> list[str]:
        link = table.link
        rules = link.rules
        w = link.winner
        verb = "win" if rules.partnerships else "wins"
        out = [f"{side_name(w, rules, seat_names(table))} {verb} the match!" if w is not None else "The match is over", ""]
        out += [f"{side_name(t, rules, seat_names(table))}: {points(link.scores[t])}" for t in range(rules.teams)]
        offers = table.offers()
        if "again" in offers:
            return [*out, "", "a or Enter: Play again    m: start menu    q: quit"]
        return [*out, "", "Enter: leave the table"]


class RematchQuestion(NamedTuple):
    """"Play again with the same people?" as the server asks one player: tell it the answer (why
    not, or None), say how things stand, and whether the question is still this player's."""

    answer: Callable[[bool], str | None]
    status: Callable[[], str]
    asked: Callable[[], bool]
    #: The question is on the player's screen: their time to answer starts.
    seen: Callable[[], None] = lambda: None


@dataclass
class Rematch(MatchOver):
    """The end of a match at a server: play again with the same people?  ``answer`` tells the
    server (yes or no); ``status`` says who plays again and who has not answered, and how long
    they have; ``asked`` is false once this player's time to answer ran out (no answer is a no).
    No leaves the table; so does q after a yes (which counts as no while the others have not all
    answered).  (A MatchOver: the end-of-hand flow leaves it open, as it does the plain one.)"""

    title: ClassVar[str] = "Game over"
    answer: Callable[[bool], str | None] = lambda yes: None
    status: Callable[[], str] = lambda: ""
    asked: Callable[[], bool] = lambda: True
    said: bool = False

    def key(self, host: TableHost, name: str) -> None:
        if not self.said and not self.asked():
            self.said = True                     # too late: the question is no longer this player's
        if not self.said and name in ("y", "a"):
            why = self.answer(True)
            self.said = True
            if why:
                host.message = [why]
        elif not self.said and name in ("n", "q", "enter", "c-c"):
            self.answer(False)
            host.quit()
        elif self.said and name in ("q", "enter", "c-c"):
            host.quit()

    def lines(self, table: TableFacts, cv: Canvas, opts: Options) -> list[str]:
        out = MatchOver().lines(table, cv, opts)[:-1]
        status = self.status()
        if self.said or not self.asked():
            return [*out, *wrap(status, 50), "", "q: leave the table"]
        return [*out, "Play again with the same people?", *wrap(status, 50), "",
                "y: yes    n: no, leave the table"]


@dataclass
class LeaveTable(TableDialog):
    """F2 (New game): leave this game for the start menu, after asking.  The game is not lost:
    it stays in the autosave, which Resume plays on; a new game keeps it as a backup."""

    holds: ClassVar[bool] = True
    title: ClassVar[str] = "New game"

    def key(self, host: TableHost, name: str) -> None:
        if name in ("y", "enter"):
            host.leave("new")
        else:
            host.close()

    def lines(self, table: TableFacts, cv: Canvas, opts: Options) -> list[str]:
        return ["Leave this game for the start menu?", "",
                "It stays saved: Resume in the menu plays it on, and a new game",
                "keeps it as a backup (Load in the menu lists it).", "",
                "y: go to the start menu    n: keep playing"]


@dataclass
class PileChoice(TableDialog):
    """There are several ways to meld the upcard: which?"""

    title: ClassVar[str] = "Take the pile"
    options: list[Action] = field(default_factory=list)

    def key(self, host: TableHost, name: str) -> None:
        if name.isdigit() and 1 <= int(name) <= len(self.options):
            host.close()
            host.play([self.options[int(name) - 1]])
        elif name in ("escape", "n", "enter"):
            host.close()

    def lines(self, table: TableFacts, cv: Canvas, opts: Options) -> list[str]:
        v = table.view()
        rules = v.rules
        lines = ["How do you want to take the pile?", ""]
        for i, a in enumerate(self.options, 1):
            lines.append(f"{i}: " + pile_option_text(a, v, opts.glyphs))
        if rules.undo_pile_allowed and not v.t.opened_at_start:
            # Windows 2.41: the pile can be put back only until its rest is in the hand, which for
            # a side that has melded is at once; for one that has not, when its initial meld is met.
            lines += ["", f"(b puts the pile back until your initial meld is met, for a "
                          f"{rules.undo_pile_penalty}-point penalty)"]
        return [*lines, "", "Esc or n: cancel"]


@dataclass
class WildTarget(TableDialog):
    """Which meld does the wild card join?"""

    title: ClassVar[str] = "Wild card"
    card: int = -1
    until_canasta: bool = False      # as many wild cards as make the meld a canasta (Windows: shift-click)

    def key(self, host: TableHost, name: str) -> None:
        target = RANK_KEYS.get(name.lower())
        host.close()
        if target is None:
            return
        if self.until_canasta:
            plan = wilds_until_canasta(host.view(), host.hand(), target)
            if isinstance(plan, str):
                host.message = [plan]
            else:
                host.play(plan)
        else:
            host.play([A.add(RANK_OF[self.card], target)])

    def lines(self, table: TableFacts, cv: Canvas, opts: Options) -> list[str]:
        what = ("Add wild cards until which meld is a canasta?" if self.until_canasta
                else f"Add {card_label(self.card, opts.glyphs)} to which meld?")
        return [what, "Press its rank: A 4-9 0(=10) J Q K" + (" W(ild meld)" if table.view().rules.wild_melds_allowed else ""),
                "", "any other key: cancel"]


@dataclass
class SaveName(TableDialog):
    """F4: the name to save the game under."""

    holds: ClassVar[bool] = True
    title: ClassVar[str] = "Save"
    text: str = ""
    offered: bool = True         # the text is the offered name: the first key typed replaces it
    full: bool = False           # the last key typed was refused: the name holds NAME_MAX already

    def key(self, host: TableHost, name: str) -> None:
        field_ = LineEdit(self.text, NAME_MAX, selected=self.offered)
        done = field_.key(name)
        self.text, self.offered, self.full = field_.text, field_.selected, field_.full
        if done == "cancel" and name == "escape":
            host.close()
        elif done == "enter" and self.text.strip():       # an empty name: the dialog says one is needed
            host.close()
            host.save_as(self.text.strip())

    def lines(self, table: TableFacts, cv: Canvas, opts: Options) -> list[str]:
        where = table.files.where() if table.files is not None else ""
        field_ = (f"[{self.text}]" if self.offered and self.text else self.text + "_").ljust(NAME_MAX + 2)
        lines = ["Save the game as:", "", "> " + field_, ""]
        if self.full:
            lines.append(f"A name holds at most {NAME_MAX} characters    Enter: save    Esc: cancel")
        elif self.offered and self.text.strip():
            lines.append("Enter: save    typing replaces the name    Esc: cancel")
        else:
            lines.append("Enter: save    Esc: cancel" if self.text.strip() else "Type a name (Esc: cancel)")
        return [*lines, "", f"(in {where}; a name with / is a path)"]


@dataclass
class ChatInput(TableDialog):
    """One line to say to the table: printable characters only, so nothing typed can reach another
    terminal as a control sequence (the table writes out whatever it gets anyway)."""

    title: ClassVar[str] = "Chat"
    text: str = ""

    def key(self, host: TableHost, name: str) -> None:
        field_ = LineEdit(self.text, CHAT_MAX)
        done = field_.key(name)
        self.text = field_.text
        if done == "cancel" and name == "escape":
            host.close()
        elif done == "enter":
            host.close()
            if self.text.strip():
                host.send_chat(self.text.strip())

    def draw(self, cv: Canvas, table: TableFacts, opts: Options) -> None:
        width = cv.width - 8
        shown = (self.text + "_")[-(width - 4):]
        lines = ["Say to the table:", "", "> " + shown, "",
                 f"Enter: send    Esc: cancel    ({len(self.text)}/{CHAT_MAX})"]
        draw_box(cv, self.title, lines, width=width)


def _load_nothing(item: SavedGame) -> None:
    return None


@dataclass
class LoadList(Box):
    """The saved games, newest first, in a box over the table (F3) or the start menu (l): Up/Down
    choose, Enter loads the chosen one (``chosen`` is told it, once the box closed), Esc or q goes back."""

    holds: ClassVar[bool] = True
    title: ClassVar[str] = "Load a saved game"
    items: Sequence[SavedGame] = field(default_factory=list)
    chosen: Callable[[SavedGame], object] = _load_nothing
    page: int = 0          # the highlighted line

    def key(self, host: DialogHost, name: str) -> None:
        moved = list_move(name, self.page, len(self.items))
        if moved is not None:
            self.page = moved
        elif name in ("escape", "q"):
            host.close()
        elif name == "enter" and self.items:
            host.close()
            self.chosen(self.items[self.page])

    def draw(self, cv: Canvas, seen: object, opts: Options) -> None:
        draw_box(cv, self.title, load_lines(self.items, self.page, cv.height - 10, cv.width - 10), width=cv.width - 6)


__all__ = [
    "CHAT_MAX",
    "NAME_MAX",
    "RANK_KEYS",
    "Answer",
    "Box",
    "ChatInput",
    "Confirm",
    "Dialog",
    "DialogHost",
    "InvitationBox",
    "LeaveTable",
    "LoadList",
    "Log",
    "MatchOver",
    "PileChoice",
    "Privacy",
    "Quit",
    "Rematch",
    "Reply",
    "SaveName",
    "Score",
    "Sheet",
    "SheetEnd",
    "Summary",
    "TableDialog",
    "TableFacts",
    "TableHost",
    "TableReader",
    "Waiting",
    "WildTarget",
]
