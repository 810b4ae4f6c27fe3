"""Paths a whole seeded hand rarely takes: the pile-choice dialog, putting the pile back,
mouse clicks, Ctrl-L, the two- and three-player tables."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from canasta_tui.engine import Phase, legal_actions, meld_needed
from canasta_tui.table import local_link
from canasta_tui.ui.app import TableApp
from canasta_tui.ui.canvas import Options
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.dialogs import PileChoice, Privacy

from .helpers import client, drive, render, session, table_of


def pile_choices(ctl: Controller) -> int:
    st = table_of(ctl).state
    if not ctl.client.my_turn() or st.phase != Phase.DRAW:
        return 0
    return sum(1 for a in legal_actions(st) if a.kind == "pile")


def test_pile_choice_dialog_asks_how_to_meld_the_upcard() -> None:
    # Seed 1: Player 1 may take the pile with J J or with J 2 (issue 4: "choose how the upcard is melded").
    ctl = client(session(seed=1))
    drive(ctl, lambda c: pile_choices(c) >= 2)
    options = [a for a in legal_actions(table_of(ctl).state) if a.kind == "pile"]
    ctl.key("p")
    assert ctl.client.dialog is not None and isinstance(ctl.client.dialog, PileChoice)
    text = render(ctl, 80, 24).text()
    assert "How do you want to take the pile?" in text
    assert "1: meld the upcard" in text and "2: meld the upcard" in text
    assert "penalty" not in text                      # classic rules: no putting the pile back
    ctl.key("escape")                                  # cancel: nothing happened
    assert ctl.client.dialog is None and table_of(ctl).state.phase == Phase.DRAW
    ctl.key("p")
    pile_before = len(table_of(ctl).state.pile)
    ctl.key("2")
    st = table_of(ctl).state
    assert ctl.client.dialog is None and st.phase == Phase.MELD and st.t.drew == "pile"
    # The log names the cards melded with the upcard, suits and all (issue 10 #19: it dropped suits).
    line = ctl.client.log_lines()[-1][1]
    used = line.split(" with ")[1].split()
    assert [w[:-1] if w != "JK" else w for w in used] == str(options[1]).split()[1:], line
    assert len(st.pile) == 0 and pile_before > 0


def test_unpile_says_the_penalty_up_front_and_charges_it() -> None:
    # Issue 10, item 23b: only a side without its initial meld may put the pile back (its rest
    # waits until the requirement is met); seed 4 gives Player 1 such a pile of several cards.
    ctl = client(session(seed=4, rules="windows"))
    drive(ctl, lambda c: pile_choices(c) >= 1 and meld_needed(table_of(c).state) > 0 and len(table_of(c).state.pile) >= 2)
    ctl.key("p")
    if ctl.client.dialog is not None:
        assert "for a 50-point penalty" in render(ctl, 80, 24).text()   # said before the pile is taken
        ctl.key("1")
    assert table_of(ctl).state.aside == table_of(ctl).state.t.pile_undo.pile[:-1]  # type: ignore[union-attr]
    assert ctl.client.lit()["unpile"]
    text = render(ctl, 80, 24).text()
    assert "[B]ack" in text
    assert "b puts it back (50-point penalty)" in text
    waiting = len(table_of(ctl).state.aside)
    assert f"held back: {waiting} card{'s' if waiting != 1 else ''}" in text
    st = table_of(ctl).state
    team = st.team_of(0)
    pen = st.penalties[team]
    ctl.key("b")
    st = table_of(ctl).state
    assert st.penalties[team] == pen + 50
    assert st.phase == Phase.DRAW and ctl.client.my_turn()
    assert ctl.message and "50-point penalty" in ctl.message[0]
    assert ctl.client.log_lines()[-1][1] == "Player 1 put the pile back (50-point penalty)"
    ctl.key("x")
    assert not ctl.client.lit()["unpile"]             # once back, it cannot be put back again


async def _with_app(players: int, seed: int, body: Callable[[TableApp, object], object],
                    mouse: bool = False) -> TableApp:
    s = session(players=players, seed=seed)
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        app = TableApp.local(s, delay_ms=0, input=inp, output=DummyOutput(), options=Options(mouse=mouse))
        task = asyncio.create_task(app.run_async())
        for _ in range(500):
            await asyncio.sleep(0.002)
            if app.frames and app.controller.client.my_turn():
                break
        await body(app, inp)  # type: ignore[misc]
        app.controller.quitting = True
        app.app.exit()
        await asyncio.wait_for(task, 5)
    return app


async def _settle(app: TableApp, frames: int | None = None) -> None:
    n = app.frames if frames is None else frames
    for _ in range(500):
        await asyncio.sleep(0.002)
        if app.frames > n:
            await asyncio.sleep(0.01)
            return


def click(inp: object, x: int, y: int) -> None:
    """An SGR mouse click (press and release) at screen column ``x``, row ``y`` (0-based)."""
    inp.send_text(f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m")  # type: ignore[attr-defined]


def test_mouse_clicks_on_cards_and_the_command_bar() -> None:
    seen: dict[str, object] = {}

    async def body(app: TableApp, inp: object) -> None:
        ctl = app.controller
        size = app.app.output.get_size()
        W, H = size.columns, size.rows
        cv = render(ctl, W, H, app.options)
        bar = cv.lines()[H - 1]
        click(inp, bar.index("raw"), H - 1)           # the command bar: Draw
        for _ in range(200):
            await asyncio.sleep(0.002)
            if table_of(ctl).state.phase == Phase.MELD:
                break
        seen["phase"] = table_of(ctl).state.phase
        await _settle(app)
        cv = render(ctl, W, H, app.options)
        row = cv.lines()[H - 4]                               # the cards' row
        label = row.split()[2]
        click(inp, row.index(label), H - 4)                   # the third card
        await _settle(app)
        seen["cursor"], seen["selected"] = ctl.client.cursor, set(ctl.client.selected)

    app = asyncio.run(_with_app(1, 5, body, mouse=True))
    assert seen["phase"] == Phase.MELD
    assert seen["cursor"] == 2 and seen["selected"] == {2}
    assert app.app.mouse_support()


def test_mouse_is_off_by_default() -> None:
    async def body(app: TableApp, inp: object) -> None:
        click(inp, 1, app.app.output.get_size().rows - 1)
        await asyncio.sleep(0.05)

    app = asyncio.run(_with_app(1, 5, body))
    assert not app.app.mouse_support()
    assert app.table.state.phase == Phase.DRAW


def test_ctrl_l_forces_a_full_redraw() -> None:
    cleared: list[int] = []

    async def body(app: TableApp, inp: object) -> None:
        real = app.app.renderer.clear

        def spy() -> None:
            cleared.append(app.frames)
            real()
        app.app.renderer.clear = spy  # type: ignore[method-assign]
        n = app.frames
        inp.send_text("\x0c")  # type: ignore[attr-defined]
        await _settle(app, n)
        cleared.append(app.frames - n)

    asyncio.run(_with_app(1, 5, body))
    assert len(cleared) == 2 and cleared[-1] >= 1     # cleared, then painted again


def test_hot_seat_quit_from_the_privacy_screen_keeps_the_table_hidden() -> None:
    ctl = client(session(players=2, seed=5))
    assert ctl.client.dialog is not None and isinstance(ctl.client.dialog, Privacy)
    ctl.key("q")
    text = render(ctl, 80, 24).text()
    assert "Quit the game?" in text and "Stock" not in text and not any(ch in text for ch in "♣♦♥♠")
    ctl.key("n")
    assert ctl.client.dialog is not None and isinstance(ctl.client.dialog, Privacy) and not ctl.quitting
    ctl.key("enter")
    assert ctl.client.hand() and ctl.client.my_turn()


def test_two_player_table() -> None:
    s = session(seed=4, rules="two-player")
    ctl = Controller(local_link(s))
    text = render(ctl, 80, 24).text()
    lines = text.splitlines()
    assert "P1: 0   P2: 0" in lines[0] and "1&3" not in text
    # Player 2's quadrant top left, Player 1's bottom left; the centre (the pile, the log under
    # it) takes the right side too, where nobody sits.
    assert lines[1].startswith("┌ ○ Player 2 ") and "Stock" in lines[1]
    from canasta_tui.ui.render import table_layout
    assert table_layout(80, 24, 2).centre.x + table_layout(80, 24, 2).centre.w == 80
    assert lines[9].startswith("┌ ● Player 1 ") and lines[8].startswith("└─ P2: 0, needs 50 ")
    assert "15 cards" in text and "Your hand (15 cards)" in text
    drive(ctl, lambda c: s.state.phase == Phase.HAND_OVER, 6000)
    assert "is over" in render(ctl, 80, 24).text()


def test_three_player_table() -> None:
    s = session(seed=4, rules="three-player")
    ctl = Controller(local_link(s))
    lines = render(ctl, 80, 24).lines()
    assert "P1: 0   P2: 0   P3: 0" in lines[0]
    assert lines[1].startswith("┌ ○ Player 2 ") and "┌ ○ Player 3 " in lines[1]
    assert lines[9].startswith("┌ ● Player 1 ") and "Stock" in lines[1]     # the log is under the pile
    assert "└─ P3: 0, needs 50 " in lines[8] and lines[16].startswith("└─ P1: 0, needs 50 ")
    drive(ctl, lambda c: s.state.phase == Phase.HAND_OVER, 6000)
    assert "is over" in render(ctl, 80, 24).text()
