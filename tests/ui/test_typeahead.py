"""Keys typed while the app changes screens (the start menu -> the table, the table -> the menu,
a resumed or loaded game) reach the screen that comes next, in order: a person typing fast, or a
paste, sends the menu's choice and the table's keys in one burst.  QA found (tmux, 80x24, 4 runs
of 4): `r d Right Right` at the start menu opened the table undrawn with the cursor on the first
card; the keys after the menu's choice had gone to the menu, which was done."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from canasta_tui.engine import Phase
from canasta_tui.play.home import LocalHome
from canasta_tui.ui.app import MAX_TYPEAHEAD, ScreenApp
from canasta_tui.ui.canvas import Canvas, Options
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.launch import GameApp
from canasta_tui.ui.menu import StartMenu
from canasta_tui.ui.screen import ScreenBase

RIGHT = "\x1b[C"
F2 = "\x1bOQ"
#: How long a test waits for what a burst of keys does (a busy 2-core machine; never a speed test).
WAIT = 60.0


async def until(pred: Callable[[], bool], what: str, seconds: float = WAIT) -> None:
    for _ in range(int(seconds / 0.01)):
        if pred():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


def table_screen(app: GameApp) -> Controller | None:
    """The table the app shows now (None: another screen)."""
    ctl = app.controller
    return ctl if ctl is not None and app.screen is ctl else None


async def at_menu(app: GameApp) -> None:
    await until(lambda: isinstance(app.screen, StartMenu) and app.screen.child is None, "the start menu")


async def my_table(app: GameApp, inp: Any, key: str) -> Controller:
    """Start a table from the menu with ``key`` (one key, waited for) and wait until it is the
    player's turn to draw on the dealt table."""
    await at_menu(app)
    inp.send_text(key)
    await until(lambda: table_screen(app) is not None, "the table")
    ctl = table_screen(app)
    assert ctl is not None
    await until(lambda: ctl.client.dealing is None, "the deal on the table")
    assert ctl.client.my_turn() and ctl.client.view().phase == Phase.DRAW, "Player 1 plays first here"
    return ctl


async def acted(app: GameApp, keys: int) -> Controller:
    """Wait until a table shows and has handled ``keys`` keys."""
    await until(lambda: (c := table_screen(app)) is not None and c.keys_handled >= keys, f"{keys} keys at the table")
    ctl = table_screen(app)
    assert ctl is not None
    return ctl


async def leave(app: GameApp, inp: Any, task: asyncio.Task[None]) -> None:
    """End the app (the table closes; its game stays autosaved)."""
    if app.app.is_running and not app.app.future.done():  # type: ignore[union-attr]
        app.app.exit()
    await asyncio.wait_for(task, WAIT)


def run(script: Callable[[GameApp, Any], Any]) -> Any:
    """Run the game's app (the start menu first, a seeded first deal, computers at the usual pace)
    with keys through a pipe, and ``script`` against it."""
    home = LocalHome(seed=3)

    async def go() -> Any:
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            app = GameApp(home=home, settings=home.settings, stats=home.stats, delay_ms=400,
                          input=inp, output=DummyOutput())
            task = asyncio.create_task(app.run_async())
            try:
                got = await script(app, inp)
            finally:
                await leave(app, inp, task)
            return got

    try:
        return asyncio.run(go())
    finally:
        home.close()


def test_the_keys_typed_with_a_new_games_key_act_at_the_new_table() -> None:
    async def script(app: GameApp, inp: Any) -> tuple[int, int, Phase]:
        await at_menu(app)
        inp.send_text("1d" + RIGHT + RIGHT)                  # one write: the menu's key and the table's
        ctl = await acted(app, 3)
        return len(ctl.client.hand()), ctl.client.cursor, ctl.client.view().phase

    held, cursor, phase = run(script)
    assert held == 12 and phase == Phase.MELD          # d drew: eleven dealt and one drawn
    assert cursor == 2                                  # Right, Right: the third card


def test_the_keys_typed_with_resume_act_at_the_resumed_table() -> None:
    async def script(app: GameApp, inp: Any) -> tuple[bool, int, int, Phase]:
        first = await my_table(app, inp, "1")
        inp.send_text(F2)
        inp.send_text("y")                                   # leave it for the menu: it stays saved
        await at_menu(app)
        inp.send_text("rd" + RIGHT + RIGHT)
        ctl = await acted(app, 3)
        return ctl is not first, len(ctl.client.hand()), ctl.client.cursor, ctl.client.view().phase

    other, held, cursor, phase = run(script)
    assert other
    assert held == 12 and phase == Phase.MELD
    assert cursor == 2


def test_a_burst_from_the_table_through_the_menu_to_the_resumed_table_is_played_in_order() -> None:
    """F2, y (to the menu), r (resume), d, Right, Right in one write: each key on the screen that
    is up when its turn comes."""
    async def script(app: GameApp, inp: Any) -> tuple[int, int, Phase]:
        first = await my_table(app, inp, "1")
        inp.send_text(F2 + "yrd" + RIGHT + RIGHT)
        await until(lambda: table_screen(app) not in (None, first), "the resumed table")
        ctl = await acted(app, 3)
        return len(ctl.client.hand()), ctl.client.cursor, ctl.client.view().phase

    held, cursor, phase = run(script)
    assert held == 12 and phase == Phase.MELD
    assert cursor == 2


def test_a_box_that_comes_up_with_the_new_table_gets_the_first_key() -> None:
    """A new game over an unfinished one says where that one was kept, in a box over the new
    table: the first key of the burst closes it (as any key does) and the rest act on the table."""
    async def script(app: GameApp, inp: Any) -> tuple[list[str], list[str], int, int, Phase]:
        await my_table(app, inp, "1")
        inp.send_text(F2)
        inp.send_text("y")
        await at_menu(app)
        inp.send_text("1d" + RIGHT + RIGHT)
        ctl = await acted(app, 3)
        told = app.table_files.notices() if app.table_files is not None else []
        return told, ctl.message, len(ctl.client.hand()), ctl.client.cursor, ctl.client.view().phase

    told, message, held, cursor, phase = run(script)
    assert any("The unfinished game was kept as" in line for line in told)    # the box was up
    assert message == []                                # d closed it, and only that:
    assert held == 11 and phase == Phase.DRAW
    assert cursor == 2                                  # Right, Right moved on the table


class Recorder(ScreenBase):
    """A screen that keeps the keys it gets; ``stop`` finishes it."""

    def __init__(self, stop: str = "") -> None:
        super().__init__()
        self.got: list[str] = []
        self.stop = stop
        self.done = False

    @property
    def finished(self) -> bool:
        return self.done

    def handle(self, name: str) -> None:
        self.got.append(name)
        self.done = name == self.stop

    def paint(self, width: int, height: int, opts: Options) -> Canvas:
        return Canvas(width, height)


class BellOutput(DummyOutput):
    def __init__(self) -> None:
        super().__init__()
        self.bells = 0

    def bell(self) -> None:
        self.bells += 1


def test_keys_before_the_first_screen_and_between_two_wait_in_order_and_a_flood_is_refused() -> None:
    """Keys typed before a screen is up wait for it, in order, and those after the key that ends it
    wait for the next one; more than MAX_TYPEAHEAD waiting (a flood over SSH while a table
    opens) are refused with the bell, not held."""
    first, second = Recorder(stop="x"), Recorder()
    go = asyncio.Event()
    output = BellOutput()

    class TwoScreens(ScreenApp):
        async def flow(self) -> None:
            await go.wait()
            await self.show(first)
            await self.show(second)

    async def run() -> int:
        with create_pipe_input() as inp, create_app_session(input=inp, output=output):
            app = TwoScreens(input=inp, output=output)
            task = asyncio.create_task(app.run_async())
            flood = MAX_TYPEAHEAD + 40
            inp.send_text("abx" + "c" * (flood - 3))
            await until(lambda: output.bells == 40, "the keys past the bound refused")
            held = len(app.typeahead)
            go.set()
            await until(lambda: app.screen is second and not app.typeahead, "the second screen")
            app.app.exit()
            await asyncio.wait_for(task, WAIT)
            return held

    held = asyncio.run(run())
    assert held == MAX_TYPEAHEAD
    assert first.got == ["a", "b", "x"]
    assert second.got == ["c"] * (MAX_TYPEAHEAD - 3)
