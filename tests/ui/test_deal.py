"""Issue 17 #14: the deal shown card by card, as the DOS game shows it, at a local table: quick,
any key skips it, none at delay 0, none over SSH; the other seats' cards only as counts."""

from __future__ import annotations

from canasta_tui.engine.cards import card_text
from canasta_tui.presets import load_rules
from canasta_tui.table import Table, local_link, seats_for
from canasta_tui.ui.app import DEAL_SECONDS, TableApp, deal_pace
from canasta_tui.ui.controller import Controller

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


def test_any_key_skips_the_deal_and_does_nothing_else() -> None:
    t = table()
    ctl = Controller(local_link(t), deal_pace=PACE)
    ctl.deal_step()
    ctl.key("d")
    assert ctl.client.dealing is None and not t.holds
    assert len(ctl.client.hand()) == t.rules.hand_size and len(t.match.state.hands[0]) == t.rules.hand_size


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
