"""Every screen binds its keys one way: a :class:`~canasta_tui.ui.keys.CommandTable` of named
commands, checked against the screen's key list when its module is imported.  The table, the
lobby and the start menu each have one; here a bad table is refused, and each real one passed."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from canasta_tui.presets import load_rules
from canasta_tui.ui import commands, lobby
from canasta_tui.ui.keys import KEYS, CommandTable, KeyHelp
from canasta_tui.ui.lobby import ADMIN_COMMANDS, LOBBY, LOBBY_KEYS, LobbyHelp, help_lines
from canasta_tui.ui.menu import MENU, MENU_KEYS, Pick, StartMenu, choices

from .pages_helpers import FixedHome, FixedPages, screen, typ
from .test_lobby import FakeLobby

KEYS_OF_A_SCREEN = [KeyHelp("new", ("n",), "n", "create"), KeyHelp("quit", ("q", "c-c"), "q", "leave")]


def table_with(keys: list[KeyHelp], names: list[str]) -> CommandTable[object]:
    t: CommandTable[object] = CommandTable("the test's", keys)
    for name in names:
        t.command(name)(lambda screen, key: None)
    return t


def test_a_checked_table_says_which_command_each_key_runs() -> None:
    t = table_with(KEYS_OF_A_SCREEN, ["new", "quit"])
    t.check()
    assert [t.for_key(k) for k in ("n", "q", "c-c", "x")] == ["new", "quit", "quit", None]


def test_a_key_bound_twice_is_refused() -> None:
    t = table_with([*KEYS_OF_A_SCREEN, KeyHelp("stand", ("n",), "n", "stand up")], ["new", "quit", "stand"])
    with pytest.raises(ImportError, match="the test's keys: 'n' is given to 'new' and to 'stand'"):
        t.check()


def test_a_key_whose_command_has_no_handler_is_refused() -> None:
    with pytest.raises(ImportError, match=r"ui.keys and the test's commands disagree: \['quit'\]"):
        table_with(KEYS_OF_A_SCREEN, ["new"]).check()


def test_a_handler_no_key_reaches_is_refused() -> None:
    with pytest.raises(ImportError, match=r"\['fly'\]"):
        table_with(KEYS_OF_A_SCREEN, ["new", "quit", "fly"]).check()


def test_two_handlers_of_one_name_are_refused() -> None:
    t = table_with(KEYS_OF_A_SCREEN, ["new"])
    with pytest.raises(ImportError, match="two are named 'new'"):
        t.command("new")(lambda screen, key: None)


def test_a_table_never_checked_answers_no_key() -> None:
    t = table_with(KEYS_OF_A_SCREEN, ["new", "quit"])
    with pytest.raises(RuntimeError, match="never checked"):
        t.for_key("n")


def test_a_module_whose_table_is_bad_does_not_import() -> None:
    """The check runs when the module is imported: the program stops at once, naming the key."""
    code = textwrap.dedent("""
        from canasta_tui.ui.keys import CommandTable, KeyHelp
        t = CommandTable("the broken screen's", [KeyHelp("a", ("x",), "x", "a"), KeyHelp("b", ("x",), "x", "b")])
        t.command("a")(print)
        t.command("b")(print)
        t.check()
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "ImportError: the broken screen's keys: 'x' is given to 'a' and to 'b'" in done.stderr


def test_the_table_the_lobby_and_the_menu_were_checked_on_import() -> None:
    assert commands.TABLE.checked and commands.TABLE.keys is KEYS
    assert set(commands.COMMANDS) == {k.command for k in KEYS if k.section != "Dialogs"}
    assert LOBBY.checked and LOBBY.keys is LOBBY_KEYS and lobby.COMMANDS is LOBBY.commands
    assert set(LOBBY.commands) == {k.command for k in LOBBY_KEYS}
    # Every key of the lobby's list runs its own command there, and no other key runs one.
    for k in LOBBY_KEYS:
        for name in k.keys:
            assert LOBBY.for_key(name) == k.command
    assert set(LOBBY.by_key) == {name for k in LOBBY_KEYS for name in k.keys}


def test_the_lobby_help_lists_exactly_its_key_table() -> None:
    """The help box's key lines are the labelled entries of LOBBY_KEYS, in order, nothing else
    (an admin's to admins only): a key added to the table shows in the help, and only then."""
    labelled = [k for k in LOBBY_KEYS if k.label]
    width = max(len(k.label) for k in labelled) + 2
    assert help_lines(admin=True) == [f"{k.label:<{width}}{k.description}" for k in labelled]
    assert help_lines() == [f"{k.label:<{width}}{k.description}" for k in labelled if k.command not in ADMIN_COMMANDS]
    # An unlabelled entry (Down beside "Up, Down") shares its neighbour's line; none is lost.
    for k in LOBBY_KEYS:
        assert k.label or not k.description, k
    page = lobby.LobbyScreen(FakeLobby())
    typ(page, "?")
    assert isinstance(page.child, LobbyHelp)
    text = screen(page, 132, 43)
    box = [line.strip(" │") for line in text.splitlines() if line.strip().startswith("│")]
    keys_shown = [line for line in box if line and not line.startswith(("✓", "(press any key)"))]
    assert keys_shown == help_lines()


def test_the_start_menu_is_on_a_checked_table_and_each_line_its_key() -> None:
    """Each line of the menu shows a key that runs that line's command (its Pick), and every Pick
    has a command and a key: the menu dispatches on the enum, never on a string's tail."""
    assert MENU.checked and MENU.keys is MENU_KEYS and set(MENU.commands) >= set(Pick)
    for players in (2, 4):
        home = FixedHome(rules_=load_rules("classic").replace(players=players, partnerships=players == 4))
        for c in choices(home):
            assert MENU.for_key(c.key) == c.what, c
        news = [c for c in choices(home) if c.what == Pick.NEW]
        assert [(c.key, c.humans) for c in news] == [(str(n), n) for n in range(1, players + 1)]


def test_a_line_s_key_starts_it_with_its_own_count_of_people() -> None:
    home = FixedHome()
    menu = StartMenu(home, FixedPages())
    typ(menu, "3", "0", "r", "f", "enter")
    # (each start fails in this test and leaves the menu up; Enter starts the line f highlighted)
    assert home.asked == ["new 3", "new 0", "resume", "first game", "first game"]
    typ(menu, "up", "enter")                         # the line above First game: Watch
    assert home.asked[-1] == "new 0"
    typ(menu, "8")                                   # no line of eight people: nothing
    assert home.asked[-1] == "new 0" and len(home.asked) == 6


def test_the_table_s_own_key_list_gives_no_key_two_commands() -> None:
    """The table's list is checked as the lobby's is: a key that ran two commands would be refused."""
    from canasta_tui.ui.keys import check_commands

    twice = [*KEYS, KeyHelp("draw", ("s",), "s", "Draw, again")]      # s is the score's key
    with pytest.raises(ImportError, match="the table's keys: 's' is given to 'score' and to 'draw'"):
        check_commands(commands.COMMANDS, twice)
