"""Headless app: the real prompt-toolkit application fed keys through a pipe.

A whole seeded hand is played by keys, one human and then two humans hot-seat; the
computer players run in the background task exactly as in the game.
"""

from __future__ import annotations

import asyncio

from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.filters import Condition
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from canasta_tui.engine import Phase
from canasta_tui.ui.app import TableApp
from canasta_tui.ui.dialogs import Privacy, Quit, Summary
from canasta_tui.ui.style import make_style

from .helpers import next_key, render, session

SEQ = {"enter": "\r", "x": "x"}


async def play_hand(players: int, seed: int, watch=None) -> TableApp:  # type: ignore[no-untyped-def]
    s = session(players=players, seed=seed)
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        app = TableApp.local(s, delay_ms=0, input=inp, output=DummyOutput())
        task = asyncio.create_task(app.run_async())
        ctl = app.controller
        for _ in range(20000):
            await asyncio.sleep(0)
            if s.state.phase == Phase.HAND_OVER and ctl.client.dialog is not None and isinstance(ctl.client.dialog, Summary):
                break
            k = next_key(ctl)
            if k is None:
                await asyncio.sleep(0.001)
                continue
            if watch is not None:
                watch(ctl)
            n = ctl.keys_handled
            inp.send_text(SEQ.get(k, k))
            for _ in range(2000):
                if ctl.keys_handled != n:
                    break
                await asyncio.sleep(0.001)
        assert s.state.phase == Phase.HAND_OVER
        assert app.frames > 0
        inp.send_text("q")
        inp.send_text("y")
        await asyncio.wait_for(task, 5)
    return app


def test_one_human_plays_a_whole_hand_by_keys() -> None:
    app = asyncio.run(play_hand(1, seed=11))
    assert app.controller.quitting
    assert len(app.table.match.sheet) == 1


def test_hot_seat_hand_never_shows_a_hand_at_the_privacy_screen() -> None:
    seen: list[int] = []
    shown_during_privacy: list[str] = []

    def watch(ctl) -> None:  # type: ignore[no-untyped-def]
        d = ctl.client.dialog
        if d is not None and isinstance(d, Privacy):
            seen.append(d.seat)
            text = render(ctl, 80, 24).text()
            if ctl.client.hand() or any(s in text for s in "♣♦♥♠"):
                shown_during_privacy.append(text)
    asyncio.run(play_hand(2, seed=12, watch=watch))
    assert {0, 3} <= set(seen)
    assert not shown_during_privacy


def test_terminal_reports_never_dismiss_a_message() -> None:
    """Only a person's key dismisses a message: a cursor-position report, a mouse report with
    the mouse off, scrolling, a pasted text or an 'ignore' sequence that the terminal sends
    reach the ``Keys.Any`` binding too, and must leave the message where it is."""
    async def run() -> tuple[list[str], list[str], int]:
        s = session(players=1, seed=5)
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            app = TableApp.local(s, delay_ms=0, input=inp, output=DummyOutput())
            task = asyncio.create_task(app.run_async())
            ctl = app.controller
            for _ in range(2000):
                if ctl.client.my_turn():
                    break
                await asyncio.sleep(0.005)
            ctl.message = ["Since your last turn:", "Player 3 discarded 7♥"]
            for seq in ("\x1b[12;40R",          # cursor position report (Keys.CPRResponse)
                        "\x1b[E",               # Keys.Ignore
                        "\x1b[<0;10;5M",        # SGR mouse press (Keys.Vt100MouseEvent)
                        "\x1b[<64;10;5M",       # wheel (a mouse event too)
                        "\x1b[200~pasted\x1b[201~"):   # bracketed paste
                inp.send_text(seq)
            await asyncio.sleep(0.3)
            kept = list(ctl.message)
            handled = ctl.keys_handled
            inp.send_text("x")                  # a person's key: this one dismisses it
            for _ in range(400):
                if not ctl.message:
                    break
                await asyncio.sleep(0.005)
            after = list(ctl.message)
            inp.send_text("q")
            inp.send_text("y")
            await asyncio.wait_for(task, 5)
        return kept, after, handled
    kept, after, handled = asyncio.run(run())
    assert kept == ["Since your last turn:", "Player 3 discarded 7♥"]
    assert handled == 0
    assert after == []


class ResizableOutput(DummyOutput):
    """A dummy terminal whose size the test changes (as a user resizing the window)."""

    def __init__(self) -> None:
        super().__init__()
        self.size = Size(rows=24, columns=80)

    def get_size(self) -> Size:
        return self.size


def test_keys_do_nothing_behind_the_terminal_too_small_screen() -> None:
    """Issue 10 #7: press d, shrink the terminal to 60x20, press c, and a card was discarded
    blind.  While that screen is up, only resizing and q (quit, asking first) may act."""
    async def run() -> tuple[int, int, Phase, bool, bool, int]:
        s = session(players=1, seed=5)
        out = ResizableOutput()
        with create_pipe_input() as inp, create_app_session(input=inp, output=out):
            app = TableApp.local(s, delay_ms=0, input=inp, output=out)
            task = asyncio.create_task(app.run_async())
            ctl = app.controller

            async def press(key: str) -> None:
                n = ctl.keys_handled
                inp.send_text(key)
                for _ in range(2000):
                    if ctl.keys_handled != n:
                        return
                    await asyncio.sleep(0.001)

            for _ in range(2000):
                if ctl.client.my_turn():
                    break
                await asyncio.sleep(0.005)
            await press("d")
            hand = len(s.state.hands[0])
            out.size = Size(rows=20, columns=60)
            for key in ("c", "\r", "d", "m", " "):
                await press(key)
            after = len(s.state.hands[0])
            phase = s.state.phase
            await press("q")
            asked = ctl.client.dialog is not None and isinstance(ctl.client.dialog, Quit)
            await press("n")
            back = ctl.client.dialog is None and not ctl.quitting
            out.size = Size(rows=24, columns=80)
            mine = sum(1 for e in s.events if e.kind == "discarded" and e.seat == 0)
            await press("c")
            discarded = sum(1 for e in s.events if e.kind == "discarded" and e.seat == 0) - mine
            ctl.quitting = True
            app.app.exit()
            await asyncio.wait_for(task, 5)
        return hand, after, phase, asked, back, discarded
    hand, after, phase, asked, back, discarded = asyncio.run(run())
    assert (after, phase) == (hand, Phase.MELD)          # nothing happened blind
    assert asked and back                                 # q still asks, n goes back
    assert discarded == 1                                 # big again: c discards


def test_a_malformed_mouse_report_is_ignored_and_the_keys_go_on() -> None:
    """Reproduction: ESC [ 3 1 m (a colour sequence pasted without bracketed paste, or typed over
    SSH) looks to prompt-toolkit like an urxvt mouse report; its mouse handler raised ("not enough
    values to unpack") and prompt-toolkit stopped the table to print "Press ENTER to continue"."""
    async def run() -> tuple[int, list[str]]:
        s = session(players=1, seed=5)
        errors: list[str] = []
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            app = TableApp.local(s, delay_ms=0, input=inp, output=DummyOutput())
            loop = asyncio.get_running_loop()
            loop.set_exception_handler(lambda _loop, ctx: errors.append(str(ctx.get("exception"))))
            task = asyncio.create_task(app.run_async(set_exception_handler=False))
            ctl = app.controller
            for _ in range(2000):
                if ctl.client.my_turn():
                    break
                await asyncio.sleep(0.005)
            for seq in ("\x1b[31m", "\x1b[1;2M", "\x1b[<1;2M", "\x1b[Mxyz"):
                inp.send_text(seq)
            await asyncio.sleep(0.2)
            inp.send_text("d")
            for _ in range(400):
                if len(ctl.client.hand()) == 12:
                    break
                await asyncio.sleep(0.005)
            drawn = len(ctl.client.hand())
            inp.send_text("q")
            inp.send_text("y")
            await asyncio.wait_for(task, 5)
        return drawn, errors
    drawn, errors = asyncio.run(run())
    assert errors == []
    assert drawn == 12


def test_apps_share_prompt_toolkits_default_key_bindings() -> None:
    """Each Application loaded its own (3,300 objects: nine tenths of a server connection's, which
    every full garbage collection walked); one set serves every app."""
    apps = [TableApp.local(session(players=1, seed=s), delay_ms=0, output=DummyOutput()) for s in (1, 2)]
    a, b = (x.app for x in apps)
    assert a._default_bindings is b._default_bindings
    assert a._page_navigation_bindings is b._page_navigation_bindings


def test_apps_share_one_merged_style_that_paints_as_prompt_toolkits_own() -> None:
    """Each Application merged prompt-toolkit's default styles and the game's into a Style of its
    own (900 objects for every connection to a server); one serves every app, cell for cell the
    same attributes."""
    from prompt_toolkit.application import Application

    from canasta_tui.ui.style import _COLOUR, _MONO

    a, b = (TableApp.local(session(players=1, seed=s), delay_ms=0, output=DummyOutput()) for s in (1, 2))
    for colour, table in ((True, _COLOUR), (False, _MONO)):
        a.style = b.style = make_style(colour)
        theirs = Application._create_merged_style(a.app, Condition(lambda: True))
        for name in [*table, "box.title heading", "nothing-styled"]:
            style_str = "class:" + name.replace(" ", ",")
            assert a.app._merged_style.get_attrs_for_style_str(style_str) == theirs.get_attrs_for_style_str(style_str)
        assert a.app._merged_style.invalidation_hash() == b.app._merged_style.invalidation_hash()
