"""The controller: keys -> the engine's atomic actions, refusals with the engine's reason."""

from __future__ import annotations

from canasta_tui.engine import Phase
from canasta_tui.engine.cards import parse_card
from canasta_tui.table import local_link
from canasta_tui.ui.controller import Controller, compose_meld
from canasta_tui.ui.dialogs import Confirm, Privacy, Quit, Summary

from .helpers import client, drive, render, session, table_of

EMPTY = (None,) * 15


def cards(text: str) -> list[int]:
    return [int(parse_card(t)) for t in text.split()]


def test_compose_new_meld_of_five_is_meld_then_adds() -> None:
    # "a NEW meld is always exactly 3 cards; a bigger selection = a 3-card meld followed by adds"
    plan = compose_meld(cards("Kh Ks Kc Kd 2c"), EMPTY, False)
    assert [str(a) for a in plan] == ["meld K K K", "add K", "add 2 to K"]


def test_compose_pair_and_joker() -> None:
    plan = compose_meld(cards("7h 7s JK"), EMPTY, False)
    assert [str(a) for a in plan] == ["meld 7 7 JK"]


def test_compose_onto_existing_meld() -> None:
    row = list(EMPTY)
    row[13] = object()
    plan = compose_meld(cards("Kh 2c"), row, False)
    assert [str(a) for a in plan] == ["add K", "add 2 to K"]


def test_compose_refuses_single_card_new_meld() -> None:
    msg = compose_meld(cards("Kh"), EMPTY, False)
    assert msg == "A new meld needs three cards: you selected one King; select at least two natural cards and a wild card"


def test_compose_wilds_with_two_ranks_is_ambiguous() -> None:
    assert isinstance(compose_meld(cards("Kh Ks Kc 7h 7s 7c JK"), EMPTY, False), str)


def play_to_human(ctl: Controller) -> None:
    s = table_of(ctl)
    while not ctl.client.my_turn():
        s.step()


def test_lights_follow_the_phase() -> None:
    ctl = client(session(seed=5))
    play_to_human(ctl)
    lit = ctl.client.lit()
    assert lit["draw"] and not lit["discard"] and not lit["meld"]
    ctl.key("d")
    lit = ctl.client.lit()
    assert not lit["draw"] and lit["discard"]
    # Query is lit only when going out is possible this turn (issue 10, item 8): at the first
    # turn nobody has a canasta, and this hand cannot complete one.
    assert not lit["query"]


def test_discard_by_cursor_passes_the_turn() -> None:
    ctl = client(session(seed=5))
    play_to_human(ctl)
    ctl.key("d")
    hand = ctl.client.hand()
    ctl.key("right")
    ctl.key("c")
    s = table_of(ctl).state
    assert s.turn != 0
    assert s.pile[-1] == hand[1]


def test_illegal_move_shows_the_engine_reason() -> None:
    ctl = client(session(seed=5))
    play_to_human(ctl)
    ctl.key("c")  # discard before drawing
    assert ctl.message == ["It is Player 1's turn"] or ctl.message == ["Draw from the stock or take the pile first"]


def test_improper_melds_come_back_to_the_hand() -> None:
    # DOS: "Improper Melds ... attempting to discard ... error message ... cards returned to your hand".
    s = session(seed=5)
    ctl = Controller(local_link(s))
    play_to_human(ctl)
    ctl.key("d")
    hand = ctl.client.hand()
    # A♠ ... the seeded hand holds 6♣ 6♣ and K♠ K♠ K♥: meld three Kings (30 points < 50 needed).
    k = hand.index(next(c for c in hand if c // 4 == 13))
    ctl.client.cursor = k
    ctl.key("3")
    assert table_of(ctl).state.t.melded, ctl.message
    assert not ctl.client.lit()["discard"]
    assert "Initial meld needs 50 points; these melds count 30" in ctl.client.status()
    before = len(ctl.client.hand())
    ctl.key("home")
    ctl.key("c")
    assert ctl.message == ["Improper melds: Initial meld needs 50 points; these melds count 30.",
                           "Your meld of Kings is back in your hand."]
    assert len(ctl.client.hand()) == before + 3
    assert table_of(ctl).state.phase == Phase.MELD


def test_help_lists_every_key() -> None:
    from canasta_tui.ui.keys import KEYS
    from canasta_tui.ui.texts import help_lines
    text = "\n".join(help_lines())
    for k in KEYS:
        assert k.label in text and k.description in text


def test_score_dialog_and_quit_asks_first() -> None:
    ctl = client(session(seed=5))
    ctl.key("s")
    assert "Initial meld" in render(ctl, 80, 24).text()
    ctl.key("x")
    ctl.key("q")
    assert ctl.client.dialog is not None and isinstance(ctl.client.dialog, Quit) and not ctl.quitting
    ctl.key("n")
    assert ctl.client.dialog is None and not ctl.quitting
    ctl.key("c-c")
    ctl.key("y")
    assert ctl.quitting


def test_whole_hand_by_keys_without_the_app() -> None:
    ctl = client(session(seed=11))
    s = table_of(ctl)
    # 5001 checks: up to 5000 actions, then the hand must be over
    drive(ctl, lambda c: table_of(c).state.phase == Phase.HAND_OVER, steps=5001)
    assert s.state.phase == Phase.HAND_OVER
    assert ctl.client.dialog is not None and isinstance(ctl.client.dialog, Summary)
    text = render(ctl, 80, 24).text()
    assert "Melded cards" in text and "Total" in text
    ctl.key("enter")
    assert "Score sheet" in render(ctl, 80, 24).text()
    ctl.key("enter")
    assert s.match.hand_number == 2 and s.state.phase == Phase.DRAW


def test_query_a_computer_partner_shows_the_answer() -> None:
    ctl = client(session(seed=5))
    # Query is lit after drawing from the stock, before melding, when going out is possible.
    drive(ctl, lambda c: c.client.my_turn() and c.client.dialog is None and not c.message
          and table_of(c).state.phase == Phase.MELD and c.client.lit()["query"])
    from canasta_tui.ai.asking import Outlook, going_out
    outlook = going_out(ctl.client.mine())
    ctl.key("y")
    if outlook in (Outlook.CANNOT, Outlook.CONCEALED):
        # A question that can only cost is said first (tests/ui/test_asking.py has the cases).
        assert ctl.client.dialog is not None and isinstance(ctl.client.dialog, Confirm)
        assert "Ask anyway?" in render(ctl, 80, 24).text()
        ctl.key("y")
    assert table_of(ctl).state.phase == Phase.PERMISSION
    table_of(ctl).step()
    assert ctl.message and ctl.message[0].startswith("Player 3 says: ")
    assert table_of(ctl).state.t.permission in (0, 1)


def test_hot_seat_returning_player_sees_what_the_others_did() -> None:
    # Issue 4: "then show that player's hand with a short log of what happened since their last turn".
    ctl = client(session(players=2, seed=7))
    s = table_of(ctl)
    ctl.key("enter")                      # Player 1 reveals
    ctl.key("d")
    hand1 = set(ctl.client.hand())
    ctl.key("c")
    assert ctl.client.viewer is None and ctl.bell and not ctl.client.hand()    # hidden again, bell rung
    while ctl.client.dialog is None or not isinstance(ctl.client.dialog, Privacy):
        s.step()
    assert ctl.client.dialog.seat == 3 and not ctl.client.hand()
    ctl.key("enter")                      # Player 4 reveals
    assert ctl.client.viewer == 3 and ctl.client.hand()
    assert ctl.message[0] == "Since your last turn:"
    assert any(m.startswith("Player 1 ") and "discarded" in m for m in ctl.message)
    assert not any(m.startswith("Player 4 ") for m in ctl.message[1:])
    # Public information only: a card is named only where everybody saw it (discards, the pile, red threes).
    for m in ctl.message[1:]:
        if any(ch in m for ch in "♣♦♥♠"):
            assert any(w in m for w in ("discarded", "took the pile", "laid out")), m
    assert "Since your last turn:" in render(ctl, 80, 24).text()
    assert hand1


def test_compose_names_the_whole_selection_when_a_rank_falls_short() -> None:
    """Issue 10 #19: selecting 5♥ 5♠ 7♣ and pressing m said "you selected two Fives",
    ignoring the 7♣."""
    msg = compose_meld(cards("5h 5s 7c"), EMPTY, False)
    assert msg == "A new meld needs three cards: you selected two Fives and one Seven (not enough Fives and Sevens)"
    msg = compose_meld(cards("5h 5s 5c 7c"), EMPTY, False)
    assert msg == "A new meld needs three cards: you selected three Fives and one Seven (not enough Sevens)"


def test_compose_names_the_wild_cards_selected_too() -> None:
    """Issue 17: refusing A JK JK said "you selected one Ace" while the bar showed
    "selected: 3".  The refusal names the whole selection, and what a new meld lacks: "at
    least two natural cards" (DOS manual: "A meld is valid if it contains at least two natural cards
    of the same rank")."""
    assert compose_meld(cards("Ac JK JK"), EMPTY, False) == (
        "A new meld needs at least two natural cards: you selected one Ace and two Jokers")
    assert compose_meld(cards("Ac 2c JK"), EMPTY, False) == (
        "A new meld needs at least two natural cards: you selected one Ace, one Deuce and one Joker")
    assert compose_meld(cards("Ac Ad"), EMPTY, False) == "A new meld needs three cards: you selected two Aces"


def test_the_refusal_and_the_bar_count_the_same_cards() -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
    from positions import position

    from canasta_tui.engine.cards import card_text

    s = session(seed=5)
    state = position({0: "Ac JK JK 7s 9c 9d"})
    s.match = s.match._replace(state=state)
    ctl = Controller(local_link(s))
    ctl.client.viewer = 0
    names = [card_text(c) for c in ctl.client.hand()]
    ctl.client.selected = {names.index("Ac"), names.index("JK"), len(names) - 1 - names[::-1].index("JK")}
    ctl.key("m")
    assert ctl.message == ["A new meld needs at least two natural cards: you selected one Ace and two Jokers"]
    assert "selected: 3" in render(ctl, 80, 24).text()


def test_m_on_the_cursor_card_says_what_the_hand_holds_and_threes_meld_only_going_out() -> None:
    """m with nothing selected melds the cursor card's rank, so a refusal says "you hold", not
    "you selected" (nothing was).  RULES.md "Black threes": they are melded only when going out,
    so the refusal does not suggest a wild card for them."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
    from positions import position

    from canasta_tui.engine.cards import card_text

    s = session(seed=5)
    s.match = s.match._replace(state=position({0: "Kc 3s 3c 7s 9c 9d"}))
    ctl = Controller(local_link(s))
    ctl.client.viewer = 0
    names = [card_text(c) for c in ctl.client.hand()]
    ctl.client.cursor = names.index("Kc")
    ctl.key("m")
    assert ctl.message == ["A new meld needs three cards: you hold one King; select at least two natural cards "
                           "and a wild card"]
    ctl.client.message = []                   # (a key first closes the message shown)
    ctl.client.cursor = names.index("3s")
    ctl.key("m")
    assert ctl.message == ["A new meld needs three cards: you hold two Threes; black threes meld only when going out"]
    ctl.client.message = []
    ctl.client.selected = {names.index("3s")}
    ctl.key("m")
    assert ctl.message == ["A new meld needs three cards: you selected one Three; black threes meld only when going out"]
