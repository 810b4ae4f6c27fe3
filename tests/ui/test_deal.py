"""Issue 17 #14: the deal shown card by card, as the DOS game shows it, at a local table: quick,
a key ends it and acts, none at delay 0, none over SSH; the other seats' cards only as counts."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from canasta_tui.engine import Phase
from canasta_tui.engine.cards import card_text
from canasta_tui.presets import load_rules
from canasta_tui.table import Table, local_link, seats_for
from canasta_tui.table.seats import COMPUTER, LOCAL, Seat
from canasta_tui.ui import app as app_module
from canasta_tui.ui.app import DEAL_SECONDS, TableApp, deal_pace
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.dialogs import Score

from .helpers import drive, render

PACE = 0.02


def table(players: int = 1, seed: int = 3) -> Table:
    return Table(load_rules("classic"), seats_for(players, "beginner"), seed)


def test_the_deal_fills_the_hand_card_by_card_and_deals_face_down_to_the_others() -> None:
    t = table()
    ctl = Controller(local_link(t), deal_pace=PACE)
    assert ctl.client.dealing == 0 and t.holds                  # the computers wait for the cards
    assert ctl.client.hand() == [] and "(no hand shown)" not in render(ctl, 80, 24).text()
    v = ctl.client.link.view(0)
    dealer = v.dealer
    n, size = 4, t.rules.hand_size
    for k in range(1, n * size):
        ctl.deal_step()
        assert ctl.client.dealing == k
        shown = [ctl.client.shown_size(s, v) for s in range(n)]
        # One card at a time from the dealer's left: nobody is ever more than one card ahead.
        assert sum(shown) == k and max(shown) - min(shown) <= 1
        assert shown[(dealer + 1) % n] >= shown[dealer]
        assert len(ctl.client.hand()) == shown[0] and set(ctl.client.hand()) <= set(v.hand)
        text = render(ctl, 80, 24).text()
        top = text.splitlines()[1]
        assert f" {shown[1]} card" in top and f" {shown[2]} card" in top
        assert "Dealing" in text and not any(ctl.client.lit()[c] for c in ("draw", "pile", "discard"))
    ctl.deal_step()
    assert ctl.client.dealing is None and not t.holds and len(ctl.client.hand()) == size
    assert "Dealing" not in render(ctl, 80, 24).text()


def test_the_other_hands_never_show_a_card() -> None:
    t = table()
    ctl = Controller(local_link(t), deal_pace=PACE)
    others = [c for s in (1, 2, 3) for c in t.match.state.hands[s]]
    mine = set(t.match.state.hands[0])
    for _ in range(30):
        ctl.deal_step()
        hand_rows = render(ctl, 80, 24).text().splitlines()[19:21]
        for c in set(others) - mine:
            assert card_text(c) not in " ".join(hand_rows)


def test_a_key_during_the_deal_ends_it_and_acts_too() -> None:
    """The first key after a deal was lost (it only skipped the animation), and every key after it
    landed one step late: now the key ends the deal and then does what it says."""
    t = table()
    ctl = Controller(local_link(t), deal_pace=PACE)
    ctl.deal_step()
    size = t.rules.hand_size
    assert ctl.client.my_turn(), "seed 3: Player 1 plays first"
    ctl.key("d")                            # d, pressed during the deal, draws
    assert ctl.client.dealing is None
    assert len(t.match.state.hands[0]) == size + 1 and ctl.client.view().phase == Phase.MELD
    ctl.key("s")                            # the next key lands where it was meant: the score
    assert isinstance(ctl.client.dialog, Score)


def test_a_key_during_the_deal_when_a_computer_plays_first_says_whose_turn_it_is() -> None:
    # The person sits where the dealer's left is a computer (Player 1 is first to play).
    seats = tuple(Seat(LOCAL if s == 1 else COMPUTER, "", "beginner") for s in range(4))
    t = Table(load_rules("classic"), seats, 3)
    ctl = Controller(local_link(t), deal_pace=PACE)
    assert ctl.client.dealing == 0 and not ctl.client.my_turn()
    ctl.key("d")
    assert ctl.client.dealing is None and not t.holds
    assert ctl.message == ["It is Player 1's turn"]


def test_enter_during_the_deal_only_ends_it() -> None:
    """Enter means nothing at the table itself: pressed to hurry the deal, it does only that."""
    t = table()
    ctl = Controller(local_link(t), deal_pace=PACE)
    ctl.key("enter")
    assert ctl.client.dealing is None and not t.holds and ctl.client.dialog is None and not ctl.message
    assert len(t.match.state.hands[0]) == t.rules.hand_size


def test_no_deal_without_a_pace_in_hot_seat_or_over_ssh() -> None:
    assert Controller(local_link(table())).client.dealing is None
    assert Controller(local_link(table(2)), deal_pace=PACE).client.dealing is None      # the privacy screen first
    assert deal_pace(load_rules("classic"), 0) == 0
    assert 0 < deal_pace(load_rules("classic"), 400) * 44 <= DEAL_SECONDS + 1e-9 <= 1.0 + 1e-9
    t = table()
    assert TableApp.local(t, delay_ms=0).controller.client.dealing is None
    assert TableApp.local(table(), delay_ms=400).controller.client.dealing == 0
    assert TableApp(local_link(table()), drive=table(), delay_ms=400, remote=True).controller.client.dealing is None


def test_each_new_hand_is_dealt_on_screen_too() -> None:
    t = table()
    ctl = Controller(local_link(t), deal_pace=PACE)
    ctl.key("x")
    assert ctl.client.dealing is None
    drive(ctl, lambda c: c.client.link.hand_number == 2, steps=20000)
    assert ctl.client.dealing == 0 and t.holds


def test_keys_typed_during_the_deal_act_in_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    """In the running app (keys through prompt-toolkit's input): d typed while the deal is on
    screen draws, and the keys typed after it land where they were meant (a card selected, then
    the score), none of them lost to the animation."""
    monkeypatch.setattr(app_module, "DEAL_SECONDS", 120.0)     # the deal is still on when the keys come

    async def run() -> tuple[int | None, int, Phase, set[int], type | None, int | None]:
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            t = table()
            app = TableApp.local(t, delay_ms=400, input=inp, output=DummyOutput())
            task = asyncio.create_task(app.run_async())
            ctl = app.controller
            await until(lambda: app.screen is ctl and ctl.client.dealing is not None, "the deal on screen")
            dealing = ctl.client.dealing
            inp.send_text("d")
            inp.send_text("l")                 # Right: the cursor to the second card
            inp.send_text(" ")                 # select it
            inp.send_text("s")                 # the scores
            await until(lambda: ctl.keys_handled >= 4, "four keys handled")
            got = (dealing, len(t.match.state.hands[0]), t.match.state.phase, set(ctl.client.selected),
                   type(ctl.client.dialog), ctl.client.dealing)
            inp.send_text("x")                 # close the scores
            inp.send_text("q")
            inp.send_text("y")
            await asyncio.wait_for(task, 60)
            return got
    dealing, held, phase, selected, dialog, after = asyncio.run(run())
    assert dealing is not None and dealing < 44          # the keys came while the deal was shown
    assert after is None
    assert held == 12 and phase == Phase.MELD             # d drew: eleven dealt and one drawn
    assert selected == {1}
    assert dialog is Score


async def until(pred: Callable[[], bool], what: str, seconds: float = 60) -> None:
    for _ in range(int(seconds / 0.01)):
        if pred():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")
