"""Item 15 of issue #17: the terminal bell for your turn after a computer's, a question from your
partner and the end of a hand; each switchable (settings ``bell_*``), off over SSH."""

from __future__ import annotations

from typing import Any

from canasta_tui.engine import Phase
from canasta_tui.engine import actions as A
from canasta_tui.persistence.settings import Settings
from canasta_tui.table import local_link
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.launch import GameApp

from .helpers import drive, session, table_of


class Asker:
    """A computer partner that asks "May I go out?" whenever it may."""

    def __init__(self, player: Any) -> None:
        self.player = player

    def choose(self, view: Any) -> Any:
        return A.A_ASK if A.A_ASK in view.legal else self.player.choose(view)


def rings(ctl: Controller, until_hand: int = 2) -> list[str]:
    """Play (simple keys) to hand ``until_hand``'s deal: what the screen showed at each bell."""
    t = table_of(ctl)
    heard: list[str] = []
    ctl.bell = False

    def listen(c: Controller) -> bool:
        if c.bell:
            c.bell = False
            v = t.state
            heard.append("hand_over" if v.phase == Phase.HAND_OVER
                         else "question" if v.phase == Phase.PERMISSION else "turn")
            assert v.phase == Phase.HAND_OVER or v.actor == 0
        return t.match.hand_number >= until_hand
    drive(ctl, listen, steps=5000)
    return heard


def asked_table(seed: int = 1) -> Controller:
    t = session(seed=seed)
    t.computers[2] = Asker(t.computers[2])   # type: ignore[assignment]
    return Controller(local_link(t))


def test_each_event_rings_once_and_nothing_else_does() -> None:
    heard = rings(asked_table())             # seed 1: Player 3 may ask five times in the hand
    assert heard == ["turn", "question"] * 5 + ["turn", "hand_over"]


def test_the_turn_rings_only_when_it_comes_back_from_a_computer() -> None:
    ctl = Controller(local_link(session(seed=5)))
    t = table_of(ctl)
    while not ctl.client.my_turn():
        t.step()
    ctl.key("d")
    ctl.key("c")
    ctl.bell = False
    while not ctl.client.my_turn():
        assert not ctl.bell                  # the computers' moves ring nothing
        t.step()
    assert ctl.bell                          # ... until it is Player 1's turn again
    ctl.bell = False
    ctl.key("d")
    assert not ctl.bell                      # the player's own moves ring nothing


def test_switched_off_they_ring_nothing_and_over_ssh_they_are_off() -> None:
    ctl = asked_table()
    ctl.client.bells = {"hand_over"}
    assert set(rings(ctl)) == {"hand_over"}
    ctl = asked_table()
    ctl.client.bells = {"turn", "question"}
    assert "hand_over" not in rings(ctl)
    remote = Controller(local_link(asked_table().client.link._table), remote=True)
    assert remote.client.bells == set() and rings(remote) == []
    assert Controller(local_link(session())).client.bells == {"turn", "question", "hand_over"}


def test_settings_default_on_and_the_options_page_switches_them_at_the_table() -> None:
    s = Settings()
    assert (s.bell_turn, s.bell_question, s.bell_hand_over) == (True, True, True)
    app = GameApp()
    app.controller = Controller(local_link(session()))
    app.apply("bell_turn", False)
    assert app.controller.client.bells == {"question", "hand_over"}
    app.apply("bell_turn", True)
    assert "turn" in app.controller.client.bells
