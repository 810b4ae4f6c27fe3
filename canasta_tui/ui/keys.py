"""Every key of the table and what it does: ONE list, rendered by the help screen.

The manual page (``man/canasta.6``) must list the same keys; a test compares them.
``keys`` are prompt-toolkit key names (``f6``, ``c-c``, ``left``) or single characters;
``label`` is how the help screen and the man page write them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any, Generic, NamedTuple, TypeVar


class KeyHelp(NamedTuple):
    command: str             # the command the key runs (``commands.COMMANDS``)
    keys: tuple[str, ...]    # prompt-toolkit key names
    label: str               # how people write the keys ("d, F6")
    description: str
    section: str = "Play"


KEYS: list[KeyHelp] = [
    KeyHelp("draw", ("d", "f6"), "d, F6", "Draw from the stock"),
    KeyHelp("pile", ("p", "f7"), "p, F7", "Take the pile (asks how to meld the upcard when there is a choice)"),
    KeyHelp("meld", ("m", "f8"), "m, F8",
            "Meld the selected cards; with nothing selected, meld all of the cursor card's rank. "
            "Samba, Bolivia: cards of one suit in order make a sequence, or go onto the end of one"),
    KeyHelp("meld_one", ("1",), "1", "Meld one: put the cursor card on your side's meld of its rank"),
    KeyHelp("meld_three", ("3",), "3", "Meld three: a new meld of three cards of the cursor card's rank"),
    KeyHelp("join", ("J",), "J",
            "Join: Samba, Bolivia: your side's second meld of the cursor card's rank joins the first "
            "(lit in the bar when a join is allowed)"),
    KeyHelp("add_wild", ("w", "f9"), "w, F9", "Add the wild card under the cursor to a meld (then press the meld's rank)"),
    KeyHelp("wilds_to_canasta", ("W",), "W", "Add wild cards onto a meld until it is a canasta (then press its rank)"),
    KeyHelp("discard", ("c", "f10"), "c, F10", "Discard the card under the cursor (or the one selected card)"),
    KeyHelp("undo", ("u", "delete"), "u, Del", "Undo the last meld of this turn"),
    KeyHelp("undo_all", ("U",), "U", "Undo every meld of this turn"),
    KeyHelp("unpile", ("b",), "b", "Put the pile back (when the rules allow; a penalty is charged)"),
    KeyHelp("end", ("e",), "e", "End the hand (when the stock is exhausted)"),
    KeyHelp("query", ("y",), "y",
            # (at most 186 characters: the help's one line at 200 columns)
            "Query: \"May I go out, partner?\" (lit before any meld while your side has or can make the canastas "
            "going out needs): optional, and the answer binds; warns if you cannot go out this turn"),
    KeyHelp("discard_red_three", ("r",), "r",
            "Discard a laid-out red three to freeze the pile (only when the rules allow it)"),
    KeyHelp("hint", ("h",), "h",
            "Hint: what the Expert would play now, and why, on the hint line (your turn; never at a rated table)"),
    KeyHelp("left", ("left",), "Left", "Move the cursor left in your hand", "Hand"),
    KeyHelp("right", ("right", "l"), "Right, l", "Move the cursor right in your hand", "Hand"),
    KeyHelp("prev_rank", ("up", "k"), "Up, k", "Move the cursor to the previous rank", "Hand"),
    KeyHelp("next_rank", ("down", "j"), "Down, j", "Move the cursor to the next rank", "Hand"),
    KeyHelp("home", ("home",), "Home", "First card", "Hand"),
    KeyHelp("end_of_hand", ("end",), "End", "Last card", "Hand"),
    KeyHelp("move_left", ("<", "s-left"), "<, Shift-Left",
            "Move the cursor card one place left (kept until the next sort or deal)",
            "Hand"),
    KeyHelp("move_right", (">", "s-right"), ">, Shift-Right",
            "Move the cursor card one place right (kept until the next sort or deal)", "Hand"),
    KeyHelp("select", ("space",), "Space", "Select or unselect the card under the cursor", "Hand"),
    KeyHelp("select_rank", ("a",), "a", "Select every card of the cursor card's rank", "Hand"),
    KeyHelp("clear", ("escape", "n"), "n, Esc", "Clear the selection", "Hand"),
    KeyHelp("score", ("s",), "s", "Show the scores and each side's initial meld requirement", "Game"),
    KeyHelp("sheet", ("t",), "t", "Show the score sheet of every hand so far", "Game"),
    KeyHelp("log", ("g",), "g", "Show the log of this hand (public information); Up/Down, PgUp/PgDn, Home/End scroll it",
            "Game"),
    KeyHelp("load", ("f3",), "F3", "Load a saved game: Up/Down choose, Enter loads, Esc or q goes back", "Game"),
    KeyHelp("save", ("f4",), "F4", "Save the game under a name (asks for it; your name is offered)", "Game"),
    KeyHelp("help", ("?", "f1"), "?, F1", "Help: the rules, these keys, scoring, strategy, FAQ, about", "Game"),
    KeyHelp("new_game", ("f2",), "F2",
            "New game: leave this game for the start menu (asks first; the game stays saved)", "Game"),
    KeyHelp("options", ("o",), "o", "Options: computer level, delay, names, cards, mouse, rule options", "Game"),
    KeyHelp("statistics", ("i",), "i", "Statistics: high scores per level and win ratios", "Game"),
    KeyHelp("chat", ("/",), "/",
            "Chat: type a line to the other players at a table over SSH (Enter sends it, Esc cancels)", "Game"),
    KeyHelp("redraw", ("c-l",), "Ctrl-L", "Redraw the screen", "Game"),
    KeyHelp("suspend", ("c-z",), "Ctrl-Z", "Suspend the game to the shell (fg brings it back, redrawn)", "Game"),
    KeyHelp("quit", ("q", "c-c"), "q, Ctrl-C", "Quit (asks first)", "Game"),
    KeyHelp("confirm", ("enter",), "Enter", "Continue: dismiss a message, show the next hand, take your turn in hot-seat",
            "Dialogs"),
    KeyHelp("yes", ("y",), "y", "Yes (in a question)", "Dialogs"),
    KeyHelp("no", ("n",), "n", "No (in a question)", "Dialogs"),
]

#: Commands shown in the command bar, in order: (command, label with the hotkey in brackets).
BAR: list[tuple[str, str]] = [
    ("draw", "[D]raw"), ("pile", "[P]ile"), ("meld", "[M]eld"), ("discard", "Dis[c]ard"),
    ("score", "[S]core"), ("query", "Quer[y]"), ("quit", "[Q]uit"), ("undo", "[U]ndo"), ("help", "[?]Help"),
]


def check_commands(commands: Collection[str], keys: Sequence[KeyHelp] | None = None,
                   whose: str = "the table's") -> dict[str, str]:
    """Which command each key runs, for a screen whose keys are ``keys`` (the table's :data:`KEYS`
    unless given; a dialog's own keys left out) and whose commands are ``commands``.  A screen's
    commands module calls this when it is imported, so a key with no command, a command with no
    key, or one key given two commands stops the program at once (ImportError), naming them."""
    listed = [k for k in (KEYS if keys is None else keys) if k.section != "Dialogs"]
    wanted = {k.command for k in listed}
    if set(commands) != wanted:
        raise ImportError(f"ui.keys and {whose} commands disagree: {sorted(set(commands) ^ wanted)}")
    by_key: dict[str, str] = {}
    for k in listed:
        for name in k.keys:
            if by_key.setdefault(name, k.command) != k.command:
                raise ImportError(f"{whose} keys: {name!r} is given to {by_key[name]!r} and to {k.command!r}")
    return by_key


#: A command of one screen: what a key does to it (the table's take the client; the lobby's and the
#: start menu's their screen and the key pressed).
F = TypeVar("F", bound=Callable[..., Any])


class CommandTable(Generic[F]):
    """The commands of one screen by name, the one way every screen (the table, the lobby, the
    start menu) binds its keys: :meth:`command` registers a function under the name its key list
    gives it, and :meth:`check`, called at the end of the commands' module (so on import), stops
    the program if a key has no command, a command no key, or one key two commands
    (:func:`check_commands`).  :meth:`for_key` then says which command a key runs."""

    def __init__(self, whose: str, keys: Sequence[KeyHelp] | None = None) -> None:
        self.whose = whose
        self.keys = keys
        self.commands: dict[str, F] = {}
        self.by_key: dict[str, str] = {}
        self.checked = False

    def command(self, name: str) -> Callable[[F], F]:
        """Register the function below as the command ``name`` of the key list."""
        def register(fn: F) -> F:
            if name in self.commands:
                raise ImportError(f"{self.whose} commands: two are named {name!r}")
            self.commands[name] = fn
            return fn
        return register

    def check(self) -> None:
        self.by_key = check_commands(self.commands, self.keys, self.whose)
        self.checked = True

    def for_key(self, name: str) -> str | None:
        """The command key ``name`` runs (None: no command); only a checked table answers."""
        if not self.checked:
            raise RuntimeError(f"{self.whose} commands were never checked against their keys")
        return self.by_key.get(name)


def keymap() -> dict[str, str]:
    """Key name -> the command it runs at the table (one each: the commands' module checks it)."""
    out: dict[str, str] = {}
    for k in KEYS:
        if k.section != "Dialogs":
            for name in k.keys:
                out.setdefault(name, k.command)
    return out


def keys_for(command: str) -> tuple[str, ...]:
    for k in KEYS:
        if k.command == command:
            return k.keys
    raise KeyError(command)

