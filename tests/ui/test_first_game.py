"""The first game (``ui.tutorial``): a guided hand on a fixed deal, offered once from the start menu.

Played through the table's screen (:class:`GuidedController`), key by key as a person plays it,
the computers moved with ``Table.step``; the hint line is read from the 80x24 screen.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from canasta_tui.engine import Phase
from canasta_tui.engine.cards import ACE, IS_RED_THREE, KING, full_deck, parse_card
from canasta_tui.play.home import LocalHome
from canasta_tui.ui.menu import StartMenu
from canasta_tui.ui.tutorial import PERSON, GuidedController, first_game_deck, first_game_table, guided

from .helpers import render
from .pages_helpers import FixedHome, FixedPages, screen


def hint(ctl: GuidedController) -> str:
    """The hint line as the 80x24 screen shows it (two rows at most, joined)."""
    rows = render(ctl, 80, 24).text().splitlines()
    return " ".join(r.strip() for r in rows[21:23] if r.strip())


def cursor_to(ctl: GuidedController, card: str) -> None:
    """The cursor onto ``card`` with Home and Right, as a person moves it."""
    i = ctl.client.hand().index(int(parse_card(card)))
    ctl.key("home")
    for _ in range(i):
        ctl.key("right")


def computers(ctl: GuidedController) -> None:
    t = ctl.client.link._table
    while t.step():
        pass


@pytest.fixture
def ctl() -> Iterator[GuidedController]:
    c = guided(first_game_table("Ann"))
    yield c
    c.client.link.close()


def test_the_deal_is_fixed_and_no_other_hand_holds_a_red_three() -> None:
    deck = first_game_deck()
    assert Counter(deck) == Counter(int(c) for c in full_deck(2))
    t = first_game_table("Ann")
    s = t.state
    assert sorted(s.hands[0]) == sorted(int(parse_card(c)) for c in PERSON.split())
    assert not any(IS_RED_THREE[c] for h in s.hands for c in h)
    assert s.turn == 0 and s.phase == Phase.DRAW and t.name(0) == "Ann"


def test_the_whole_first_game_key_by_key(ctl: GuidedController) -> None:
    """Draw, the initial meld, a discard, the pile, a canasta, asking and going out, each step said
    on the hint line before the person does it."""
    said = [hint(ctl)]
    assert "Press d to draw" in said[0] and "other keys leave the first game" in said[0]
    ctl.key("d")
    said.append(hint(ctl))
    assert "initial meld" in said[-1] and "50" in said[-1]
    cursor_to(ctl, "Ah")
    ctl.key("m")
    assert ctl.client.view().melds[0][ACE] is not None
    said.append(hint(ctl))
    assert "discard" in said[-1] and "press c" in said[-1]
    cursor_to(ctl, "6c")
    ctl.key("c")
    computers(ctl)
    said.append(hint(ctl))
    assert "the pile" in said[-1] and "p, then 1" in said[-1]
    ctl.key("p")
    ctl.key("1")
    v = ctl.client.view()
    assert v.melds[0][KING] is not None and v.pile == ()
    cursor_to(ctl, "Kc")
    ctl.key("m")
    said.append(hint(ctl))
    assert "canasta" in said[-1] and "W, then K" in said[-1]
    ctl.key("W")
    ctl.key("k")
    kings = ctl.client.view().melds[0][KING]
    assert kings is not None and kings.size == 7
    cursor_to(ctl, "6c")
    ctl.key("c")
    computers(ctl)
    ctl.key("d")
    said.append(hint(ctl))
    assert "May I go out, partner?" in said[-1] and "press y" in said[-1]
    ctl.key("y")
    computers(ctl)                       # the partner answers yes
    ctl.key("enter")                     # the answer read
    said.append(hint(ctl))
    assert "Go out" in said[-1]
    cursor_to(ctl, "9c")
    ctl.key("m")
    cursor_to(ctl, "5d")
    ctl.key("m")
    v = ctl.client.view()
    assert v.phase == Phase.HAND_OVER and v.went_out == 0
    assert "you went out" in ctl.step().text       # (the score covers the hint line)
    ctl.key("enter")                     # the score, then the sheet
    assert not ctl.client.quitting
    ctl.key("enter")                     # the sheet read: back to the start menu, no second hand dealt
    assert ctl.client.quitting and ctl.client.then == "menu" and ctl.client.link.hand_number == 1
    # every step was numbered in order
    steps = [int(s.split("step ")[-1].split(" of")[0]) if "step " in s.lower() else 0 for s in
             (x.lower() for x in said)]
    assert steps == sorted(steps) and steps[0] == 1


@pytest.mark.parametrize("key", ["x", "q", "escape", "h", "c-c"])
def test_a_key_the_step_does_not_expect_leaves_for_the_start_menu(ctl: GuidedController, key: str) -> None:
    ctl.key(key)
    assert ctl.client.quitting and ctl.client.then == "menu"
    assert ctl.client.view().phase == Phase.DRAW       # nothing was played


def test_moving_the_cursor_selecting_and_the_help_never_leave(ctl: GuidedController) -> None:
    for key in ("right", "left", "down", "up", "home", "end", "space", "n"):
        ctl.key(key)
    assert not ctl.client.quitting
    assert "Press d to draw" in hint(ctl)
    ctl.key("?")
    assert ctl.client.dialog is not None and not ctl.client.quitting
    ctl.key("escape")                    # the help closed: the step goes on
    assert ctl.client.dialog is None and not ctl.client.quitting
    assert "Press d to draw" in hint(ctl)


def test_in_the_pile_s_box_only_the_step_s_choice_is_expected(ctl: GuidedController) -> None:
    ctl.key("d")
    cursor_to(ctl, "Ah")
    ctl.key("m")
    cursor_to(ctl, "6c")
    ctl.key("c")
    computers(ctl)
    ctl.key("p")
    assert "Press 1" in hint(ctl)
    ctl.key("2")                         # the upcard with a King and a deuce: not the first game's way
    assert ctl.client.quitting and ctl.client.then == "menu"
    assert ctl.client.view().phase == Phase.DRAW


def test_keys_wait_while_the_others_play(ctl: GuidedController) -> None:
    ctl.key("d")
    cursor_to(ctl, "Ah")
    ctl.key("m")
    cursor_to(ctl, "6c")
    ctl.key("c")
    assert "The others play" in hint(ctl)
    ctl.key("x")
    assert not ctl.client.quitting
    ctl.key("?")                         # the help opens and closes while they play
    assert ctl.client.dialog is not None
    ctl.key("escape")
    assert ctl.client.dialog is None and not ctl.client.quitting


def test_a_hand_off_the_path_says_so_and_goes_back(ctl: GuidedController) -> None:
    """Discarding a King instead of the 6: the pile cannot be taken with two Kings any more."""
    ctl.key("d")
    cursor_to(ctl, "Ah")
    ctl.key("m")
    cursor_to(ctl, "Kd")
    ctl.key("c")
    computers(ctl)
    assert "left the first game's path" in hint(ctl)
    ctl.key("d")
    assert ctl.client.quitting and ctl.client.then == "menu"


def test_the_start_menu_offers_the_first_game_once() -> None:
    home = FixedHome(offer=True)
    menu = StartMenu(home, FixedPages())
    text = screen(menu)
    assert "> f  First game" in text and "New to Canasta?" in text
    again = StartMenu(home, FixedPages())
    assert "> f  First game" not in screen(again) and "f  First game" in screen(again)
    again.key("f")
    assert home.asked == ["first game"]


def test_the_home_remembers_it_offered_the_first_game() -> None:
    from canasta_tui.persistence import settings
    from canasta_tui.ui.tutorial import FirstGameTable

    home = LocalHome()
    try:
        assert home.offer_first_game() is True
        assert settings.load_settings().settings.first_game_offered is True
        assert home.offer_first_game() is False
        table, files = home.first_game()
        assert isinstance(table, FirstGameTable) and files is None
        table.close()
    finally:
        home.close()


def test_in_the_app_f_plays_the_first_game_with_the_settings_and_x_goes_back_to_the_menu() -> None:
    """The real app, keys through a pipe: the first start menu offers the first game, f starts it
    on the guided screen (the options of the settings file reach it), a key it does not expect
    goes back to the start menu, and the autosave is never touched."""
    import asyncio

    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from canasta_tui.persistence import paths, settings
    from canasta_tui.ui.launch import GameApp

    from .test_game_app import press, until

    settings.put_value("auto_wild", True)
    settings.put_value("right_click_discard", True)
    home = LocalHome()

    async def run() -> GameApp:
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            app = GameApp(home=home, settings=home.settings, stats=home.stats, files=home.files(), delay_ms=0,
                          input=inp, output=DummyOutput())
            task = asyncio.create_task(app.run_async())
            await until(lambda: isinstance(app.screen, StartMenu), "the start menu")
            assert "New to Canasta?" in app.screen.paint(80, 24, app.options).text()   # type: ignore[union-attr]
            await press(app, inp, "f")
            await until(lambda: isinstance(app.controller, GuidedController) and app.screen is app.controller,
                        "the first game")
            ctl = app.controller
            assert isinstance(ctl, GuidedController)
            assert ctl.client.auto_wild and ctl.client.right_click_discard
            await press(app, inp, "d")
            assert ctl.client.view().phase == Phase.MELD
            await press(app, inp, "x")
            await until(lambda: isinstance(app.screen, StartMenu), "the menu again")
            text = app.screen.paint(80, 24, app.options).text()   # type: ignore[union-attr]
            assert "New to Canasta?" not in text and "f  First game" in text
            await press(app, inp, "q")
            await asyncio.wait_for(task, 10)
            return app

    try:
        app = asyncio.run(run())
    finally:
        home.close()
    assert all(t.closed for t in app.tables)
    assert not paths.autosave_path().exists()
