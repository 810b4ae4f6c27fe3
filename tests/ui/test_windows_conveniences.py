"""The 2008 Windows game's conveniences, as options of this one (off by default).

Canasta for Windows 2008 help, "Mouse and Keyboard Controls": "Melding a column of two cards will
automatically cause a wildcard to be added (if available)", and "Card in hand ... Right click:
Discard".
"""

from __future__ import annotations

from prompt_toolkit.data_structures import Point
from prompt_toolkit.mouse_events import MouseButton, MouseEvent, MouseEventType

from canasta_tui.engine import Phase
from canasta_tui.engine import actions as A
from canasta_tui.engine.cards import RANK_OF, card_text, parse_card
from canasta_tui.ui.canvas import Options
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.moves import with_wild_for_pair

from .helpers import client, render, select_cards, stacked

MOUSE = Options(mouse=True)


def c(text: str) -> list[int]:
    return [int(parse_card(w)) for w in text.split()]


def test_a_pair_takes_a_deuce_before_a_joker() -> None:
    legal = [A.meld(13, 13, 2), A.meld(13, 13, 14)]
    hand = c("Kh Kd JK 2c 5s")
    assert with_wild_for_pair(c("Kh Kd"), hand, legal) == c("Kh Kd 2c")
    assert with_wild_for_pair(c("Kh Kd"), c("Kh Kd JK 5s"), legal) == c("Kh Kd JK")


def test_a_pair_stays_a_pair_unless_the_engine_offers_the_meld_of_three() -> None:
    """Only a meld the rules allow: two Kings with no wild card in hand, a side that has a meld of
    Kings already (the pair goes onto it), or three cards selected, are left as they are."""
    assert with_wild_for_pair(c("Kh Kd"), c("Kh Kd 5s"), [A.meld(13, 13, 2)]) == c("Kh Kd")
    assert with_wild_for_pair(c("Kh Kd"), c("Kh Kd 2c"), [A.add(13)]) == c("Kh Kd")
    assert with_wild_for_pair(c("Kh Kd Kc"), c("Kh Kd Kc 2c"), [A.meld(13, 13, 2)]) == c("Kh Kd Kc")
    assert with_wild_for_pair(c("Kh Qd"), c("Kh Qd 2c"), [A.meld(13, 13, 2)]) == c("Kh Qd")


def _drawn(auto_wild: bool = False, right_click: bool = False) -> Controller:
    t = stacked("classic", "Kh Kd 2c JK Ah Ad Ac 5s 6s 7d 8d", upcard="9c")
    ctl = client(t)
    ctl.client.auto_wild = auto_wild
    ctl.client.right_click_discard = right_click
    return ctl


def test_melding_two_kings_with_the_option_adds_the_deuce() -> None:
    ctl = _drawn(auto_wild=True)
    ctl.key("d")
    select_cards(ctl, "Kh Kd")
    ctl.key("m")
    kings = ctl.client.mine().melds[0][13]
    assert kings is not None and sorted(RANK_OF[x] for x in kings.wilds) == [2]
    assert c("JK")[0] in ctl.client.hand() and c("2c")[0] not in ctl.client.hand()


def test_melding_two_kings_without_the_option_is_refused_as_before() -> None:
    ctl = _drawn()
    ctl.key("d")
    select_cards(ctl, "Kh Kd")
    ctl.key("m")
    assert ctl.client.mine().melds[0][13] is None
    assert "A new meld needs three cards" in " ".join(ctl.message)


def _right_click(ctl: Controller, card: str) -> None:
    """A right-click where the screen draws ``card`` in the hand (80x24, the mouse on)."""
    label = card_text(int(parse_card(card)), True)
    cv = render(ctl, 80, 24, MOUSE)
    lines = cv.text().splitlines()
    y, x = next((y, line.index(label)) for y in range(len(lines) - 1, 0, -1)
                for line in [lines[y]] if label in line)
    handler = cv.handlers.get((y, x))
    assert handler is not None, f"nothing to click at {label!r}"
    handler(MouseEvent(Point(x, y), MouseEventType.MOUSE_UP, MouseButton.RIGHT, frozenset()))


def test_a_right_click_discards_the_card_with_the_option_on() -> None:
    ctl = _drawn(right_click=True)
    before = list(ctl.client.hand())
    # before drawing: refused with the rules' reason, nothing lost
    _right_click(ctl, "5s")
    assert ctl.message == ["Draw from the stock or take the pile first"]
    assert list(ctl.client.hand()) == before and ctl.client.view().phase == Phase.DRAW
    ctl.key("x")                 # the message read
    ctl.key("d")
    _right_click(ctl, "5s")
    v = ctl.client.view()
    assert v.pile[-1] == c("5s")[0] and c("5s")[0] not in ctl.client.hand()
    assert v.turn != 0


def test_a_right_click_selects_as_a_left_click_with_the_option_off() -> None:
    ctl = _drawn()
    ctl.key("d")
    _right_click(ctl, "5s")
    assert c("5s")[0] in ctl.client.hand()
    assert ctl.client.selected == {ctl.client.hand().index(c("5s")[0])}
