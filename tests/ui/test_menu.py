"""Issue 12: the start menu by keys: its choices (the DOS game's One and Two Human Players, three
and four, watching, Resume only when a game is unfinished), hotkeys and the pages it opens."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from canasta_tui.presets import load_rules
from canasta_tui.ui.dialogs import LoadList
from canasta_tui.ui.menu import StartMenu, choices

from .pages_helpers import FixedHome, FixedPages, screen, typ


def test_the_choices_are_the_dos_games_and_resume_only_with_a_game_to_resume() -> None:
    labels = [c.label for c in choices(FixedHome())]
    assert labels == ["Resume", "One Human Player", "Two Human Players", "Three Human Players", "Four Human Players",
                      "Watch four computers", "First game", "Load a saved game", "Options", "Rules", "Statistics", "Help", "Quit"]
    assert "Resume" not in [c.label for c in choices(FixedHome(game=None))]
    text = screen(StartMenu(FixedHome(), FixedPages()))
    assert "> r  Resume                  the unfinished game: hand 3, 1,250 to 980" in text
    assert "Two Human Players       Players 1 and 4, each with a computer partner" in text


def test_without_partners_the_menu_counts_the_preset_s_players() -> None:
    home = FixedHome(rules_=load_rules("two-player"), game=None)
    assert [c.label for c in choices(home)][:3] == ["One Human Player", "Two Human Players", "Watch two computers"]
    assert choices(home)[1].about == "Players 1 to 2 at this keyboard, in turn"


def test_arrows_move_enter_chooses_and_hotkeys_choose_at_once() -> None:
    home = FixedHome()
    menu = StartMenu(home, FixedPages())
    typ(menu, "down", "down", "enter")
    assert home.asked == ["new 2"]
    # The home could not start it: the reason shows and the menu stays, the same line highlighted.
    assert "no tables in this test" in screen(menu) and not menu.done
    assert "> 2  Two Human Players" in screen(menu)
    typ(menu, "up", "up", "up")                       # wraps round to Quit
    assert "> q  Quit" in screen(menu)
    typ(menu, "0", "r")
    assert home.asked == ["new 2", "new 0", "resume"]


def test_options_rules_statistics_and_help_open_their_pages_and_q_comes_back() -> None:
    pages = FixedPages()
    menu = StartMenu(FixedHome(), pages)
    for key, name, title in (("o", "options", "Options"), ("u", "rules", "Rule options"), ("?", "help", "Help"),
                             ("f1", "help", "Help")):
        typ(menu, key)
        assert pages.opened[-1] == name and f"CANASTA — {title}" in screen(menu)
        typ(menu, "q")                                # q leaves the page, not the program
        assert "CANASTA — Start menu" in screen(menu) and not menu.done
    typ(menu, "o", "escape")
    assert "CANASTA — Start menu" in screen(menu)
    typ(menu, "q")
    assert menu.done and menu.quit and menu.started is None


def test_ctrl_c_on_any_page_leaves_the_program() -> None:
    menu = StartMenu(FixedHome(), FixedPages())
    typ(menu, "o", "enter", "c-c")
    assert menu.done and menu.quit


def test_esc_at_the_menu_says_how_to_quit_instead_of_quitting() -> None:
    menu = StartMenu(FixedHome(), FixedPages())
    typ(menu, "escape")
    assert not menu.done and "q quits; Enter starts the highlighted choice" in screen(menu)


def test_notices_are_read_first_in_a_box_any_key_closes() -> None:
    home = FixedHome(told=["The autosaved game could not be loaded: it is kept as x.json."])
    menu = StartMenu(home, FixedPages())
    text = screen(menu)
    assert "Notice" in text and "The autosaved game could not be loaded" in text and "(press any key)" in text
    typ(menu, "2")                                    # closes the box; does not start a game
    assert home.asked == [] and "Notice" not in screen(menu)


class Saved:
    def __init__(self, name: str) -> None:
        self.name, self.path, self.modified, self.summary = name, Path(f"/saves/{name}.json"), 0.0, "hand 2, 5 to 9"


def test_load_lists_the_saves_and_enter_loads_the_chosen_one() -> None:
    home = FixedHome()
    menu = StartMenu(home, FixedPages())
    typ(menu, "l")
    assert "No saved games yet: F4 in the game saves one" in screen(menu)
    games: list[Any] = [Saved("ann"), Saved("bob")]
    home.saved_games = lambda: games          # type: ignore[method-assign]
    typ(menu, "l")
    assert isinstance(menu.child, LoadList)          # the box F3 opens at the table
    text = screen(menu)
    assert "> ann" in text and "hand 2, 5 to 9" in text and "Enter: load" in text
    typ(menu, "down", "enter")
    assert home.asked == ["load /saves/bob.json"]
    assert "no tables in this test" in screen(menu)
    typ(menu, "l", "q")
    assert "CANASTA — Start menu" in screen(menu) and home.asked == ["load /saves/bob.json"]
