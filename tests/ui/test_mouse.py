"""Mouse clicks on the table (``--mouse``): what the help's Mouse section says they do, clicked
where the screen draws them."""

from __future__ import annotations

from prompt_toolkit.data_structures import Point
from prompt_toolkit.mouse_events import MouseButton, MouseEvent, MouseEventType

from canasta_tui.ui.canvas import Options
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.dialogs import Quit, Score

from .helpers import client, render, session

MOUSE = Options(mouse=True)


def click(ctl: Controller, text: str, nth: int = 0) -> None:
    """Click the first cell of the ``nth`` place where ``text`` is drawn at 80x24."""
    cv = render(ctl, 80, 24, MOUSE)
    spots = [(y, line.index(text)) for y, line in enumerate(cv.text().splitlines()) if text in line]
    y, x = spots[nth]
    handler = cv.handlers.get((y, x))
    assert handler is not None, f"nothing to click at {text!r}"
    handler(MouseEvent(Point(x, y), MouseEventType.MOUSE_UP, MouseButton.LEFT, frozenset()))


def test_clicks_on_a_card_the_stock_and_the_command_bar() -> None:
    ctl = client(session(seed=5))
    hand = render(ctl, 80, 24).text().splitlines()[20]
    first = hand.split()[2]
    click(ctl, first)                       # a card of the hand: the cursor goes there, it is selected
    assert ctl.client.cursor == 2 and ctl.client.selected == {2}
    click(ctl, first, 0)
    assert ctl.client.selected == set()
    stock = ctl.client.view().stock_size
    click(ctl, "Stock")                     # the stock: draw
    assert ctl.client.view().stock_size < stock and ctl.client.view().phase.name != "DRAW"
    click(ctl, "[S]core")                   # the command bar: the command
    assert ctl.client.dialog is not None and isinstance(ctl.client.dialog, Score)


def test_a_click_closes_what_any_key_closes_but_never_answers_a_question() -> None:
    """A click on a card while "Quit the game?" was open went as Enter: it quit the game."""
    ctl = client(session(seed=5))
    ctl.key("s")
    click(ctl, "Stock")
    assert ctl.client.dialog is None and ctl.client.view().phase.name == "DRAW"
    ctl.key("q")
    click(ctl, "Stock")
    click(ctl, "Help")
    assert not ctl.quitting and ctl.client.dialog is not None and isinstance(ctl.client.dialog, Quit)
    ctl.key("n")
    assert ctl.client.dialog is None
    ctl.message = ["Something to read"]
    click(ctl, "Stock")
    assert ctl.message == [] and ctl.client.view().phase.name == "DRAW"


def test_help_describes_what_each_click_does() -> None:
    """The How to play page says what a click on a card, a meld, the stock, the pile and a command
    of the bar does (it described only keys)."""
    from canasta_tui.ui.helppages import how_to_play_lines

    page = " ".join(" ".join(line.text.split()) for line in how_to_play_lines(76))
    assert "Mouse:" in page and "canasta --mouse" in page
    for words in ("A card of your hand: move the cursor to it and select it",
                  "A meld of your side: put the selected cards on it",
                  "Stock in the centre: draw from the stock", "Pile, Upcard in the centre: take the pile",
                  "A command of the bar at the bottom: does what its key does"):
        assert words in page
