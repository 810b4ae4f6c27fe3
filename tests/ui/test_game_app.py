"""Issue 12: the local game's flow in the real prompt-toolkit app, fed keys through a pipe:
start menu -> Two Human Players -> a short match -> Play again -> F2 -> the menu's Resume; and
the table's keys for leaving it (F2 asks first; the game-over screen's choices)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from canasta_tui.persistence import settings, stats
from canasta_tui.play.home import LocalHome
from canasta_tui.presets import load_rules
from canasta_tui.table import Table, local_link, seats_for
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.dialogs import MatchOver, Privacy
from canasta_tui.ui.launch import GameApp
from canasta_tui.ui.menu import StartMenu
from canasta_tui.ui.pages import Page

from .helpers import drive, next_key, render
from .pages_helpers import FILES

SEQ = {"enter": "\r", "f2": "\x1bOQ", "escape": "\x1b"}


class Host:
    """The app around a table, as far as the table's keys need it."""

    def __init__(self, offers: frozenset[str] = frozenset({"new", "again", "menu"})) -> None:
        self._offers = offers

    def page(self, name: str) -> Page:
        from canasta_tui.ui.helppages import HelpPage
        return HelpPage(load_rules("classic"), "classic", FILES)

    def offers(self) -> frozenset[str]:
        return self._offers


def short_match(players: int = 1, target: int = 50) -> Table:
    rules = load_rules("classic").replace(target_score=target)
    return Table(rules, seats_for(players, "beginner"), 7)


def test_f2_asks_first_and_n_keeps_playing() -> None:
    t = short_match()
    ctl = Controller(local_link(t))
    ctl.client.host = Host()
    while not ctl.client.my_turn():
        t.step()
    ctl.key("f2")
    text = render(ctl, 80, 24).text()
    assert "Leave this game for the start menu?" in text and "y: go to the start menu    n: keep playing" in text
    assert t.holds                                    # the computers wait while the player decides
    ctl.key("n")
    assert ctl.client.dialog is None and not ctl.finished
    ctl.key("f2")
    ctl.key("y")
    assert ctl.finished and ctl.client.then == "new"


def test_the_game_over_screen_offers_play_again_the_menu_and_quit() -> None:
    for key, then in (("a", "again"), ("enter", "again"), ("m", "menu"), ("q", "quit")):
        t = short_match()
        ctl = Controller(local_link(t))
        ctl.client.host = Host()
        drive(ctl, lambda c: c.client.dialog is not None and isinstance(c.client.dialog, MatchOver))
        text = render(ctl, 80, 24).text()
        assert "a or Enter: Play again    m: start menu    q: quit" in text and "win the match!" in text
        ctl.key(key)
        assert ctl.finished and ctl.client.then == then, key


def test_without_an_app_around_it_the_game_over_screen_only_leaves() -> None:
    t = short_match()
    ctl = Controller(local_link(t))
    drive(ctl, lambda c: c.client.dialog is not None and isinstance(c.client.dialog, MatchOver))
    assert "Enter: leave the table" in render(ctl, 80, 24).text()
    ctl.key("a")
    assert not ctl.finished
    ctl.key("enter")
    assert ctl.finished and ctl.client.then == "quit"


async def until(pred: Callable[[], bool], what: str, seconds: float = 20) -> None:
    for _ in range(int(seconds / 0.005)):
        if pred():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"never: {what}")


async def press(app: GameApp, inp: Any, key: str) -> None:
    """Send one key and wait until the screen it went to has handled it."""
    screen = app.screen
    assert screen is not None
    n = screen.keys_handled
    inp.send_text(SEQ.get(key, key))
    await until(lambda: app.screen is not screen or screen.keys_handled != n, f"key {key!r} handled")


def test_menu_two_humans_play_again_f2_and_resume() -> None:
    settings.put_value("rule_options", {"target_score": 50})
    settings.put_value("names", ["Ann", "", "", "Bob"])
    home = LocalHome()

    async def run() -> GameApp:
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            app = GameApp(home=home, settings=home.settings, stats=home.stats, files=home.files(), delay_ms=0,
                          input=inp, output=DummyOutput())
            task = asyncio.create_task(app.run_async())
            await until(lambda: isinstance(app.screen, StartMenu), "the start menu")
            assert "Resume" not in app.screen.paint(80, 24, app.options).text()   # type: ignore[union-attr]
            await press(app, inp, "2")
            await until(lambda: app.controller is not None and app.screen is app.controller, "the table")
            first = app.controller
            assert first is not None and app.table is not None
            assert [(s.human, s.name) for s in app.table.seats] == [(True, "Ann"), (False, ""), (False, ""),
                                                                   (True, "Bob")]
            # Play the match: Enter at "Player N is up", draw and discard, until the game is over.
            for _ in range(4000):
                d = first.client.dialog
                if d is not None and isinstance(d, MatchOver):
                    break
                k = next_key(first)
                if k is None:
                    await asyncio.sleep(0.002)
                    continue
                await press(app, inp, k)
            else:
                raise AssertionError("the match never ended")
            played = app.table
            await press(app, inp, "a")                       # Play again
            await until(lambda: app.controller is not first and app.screen is app.controller, "a new table")
            again = app.table
            assert again is not played and again.match.hand_number == 1 and again.match.scores == (0, 0)
            assert again.seats == played.seats and again.rules == played.rules
            assert app.controller is not None and app.controller.client.dialog is not None
            assert isinstance(app.controller.client.dialog, Privacy)
            await press(app, inp, "f2")                      # F2 at "Player 1 is up": asks first
            assert "Leave this game for the start menu?" in render(app.controller, 80, 24).text()
            await press(app, inp, "y")
            await until(lambda: isinstance(app.screen, StartMenu), "the menu after F2")
            text = app.screen.paint(80, 24, app.options).text()   # type: ignore[union-attr]
            assert "> r  Resume                  the unfinished game: hand 1, 0 to 0" in text
            await press(app, inp, "r")
            await until(lambda: app.screen is app.controller and app.table is not again, "the resumed table")
            assert app.table is not None and app.table.match.state == again.match.state
            await press(app, inp, "q")
            await press(app, inp, "y")
            await asyncio.wait_for(task, 10)
            return app

    try:
        app = asyncio.run(run())
    finally:
        home.close()
    assert len(app.tables) == 3 and all(t.closed for t in app.tables)
    assert [p.table for p in home.played] == app.tables
    assert home.played[0].statistics_outcome() is None
    # The finished match is recorded once for each human, under their names.
    assert sorted(r.player for r in stats.history()) == ["Ann", "Bob"]


@pytest.mark.parametrize(("key", "want"), [("n", False), ("y", True), ("enter", True), ("q", None)])
def test_the_resume_question_is_asked_inside_the_app(key: str, want: bool | None) -> None:
    """Issue 17 #8: `canasta --players 2` with an unfinished game asks in the app's own screen:
    n starts the new game, y or Enter resumes, q leaves with nothing started."""
    from canasta_tui.ui.menu import ResumeFirst, ResumeQuestion

    answers: list[bool] = []

    def answer(resume: bool) -> Any:
        answers.append(resume)
        return short_match(), None

    async def run() -> GameApp:
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            app = GameApp(home=None, ask=ResumeFirst("hand 2, 120 to 90", answer), delay_ms=0,
                          input=inp, output=DummyOutput())
            task = asyncio.create_task(app.run_async())
            await until(lambda: isinstance(app.screen, ResumeQuestion), "the question")
            text = app.screen.paint(80, 24, app.options).text()   # type: ignore[union-attr]
            assert "Resume the unfinished game (hand 2, 120 to 90)?" in text and "n: a new game" in text
            await press(app, inp, key)
            if want is not None:
                await until(lambda: app.controller is not None and app.screen is app.controller, "the table")
                app.app.exit()
            await asyncio.wait_for(task, 10)
            return app

    app = asyncio.run(run())
    assert answers == ([] if want is None else [want])
    assert (app.table is None) == (want is None)
    for t in app.tables:
        t.close()
