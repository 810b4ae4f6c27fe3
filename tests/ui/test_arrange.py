"""Item 13 of issue #17: the player moves cards in the hand (< and >), kept until the next sort."""

from __future__ import annotations

from canasta_tui.engine.cards import parse_card
from canasta_tui.ui.controller import arrange
from canasta_tui.ui.keys import keys_for
from canasta_tui.ui.texts import sort_hand

from .helpers import client, drive, session, table_of


def cards(text: str) -> list[int]:
    return [int(parse_card(t)) for t in text.split()]


def at_my_turn():  # type: ignore[no-untyped-def]
    ctl = client(session(seed=5))
    t = table_of(ctl)
    while not ctl.client.my_turn():
        t.step()
    return ctl


def test_the_keys_are_less_than_greater_than_and_shift_arrows() -> None:
    assert keys_for("move_left") == ("<", "s-left")
    assert keys_for("move_right") == (">", "s-right")


def test_moving_the_cursor_card_right_and_left_moves_the_cursor_and_the_selection_with_it() -> None:
    ctl = at_my_turn()
    before = ctl.client.hand()
    ctl.key("space")                      # the first card selected
    ctl.key(">")
    assert ctl.client.hand() == [before[1], before[0], *before[2:]]
    assert ctl.client.cursor == 1 and ctl.client.selected == {1}
    ctl.key("s-right")
    assert ctl.client.hand()[2] == before[0] and ctl.client.cursor == 2
    ctl.key("<")
    ctl.key("s-left")
    assert ctl.client.hand() == before and ctl.client.cursor == 0 and ctl.client.selected == {0}
    ctl.key("<")                          # at the left end: nothing moves
    assert ctl.client.hand() == before and ctl.client.cursor == 0


def test_the_order_stays_through_a_draw_and_goes_at_the_next_sort() -> None:
    ctl = at_my_turn()
    before = ctl.client.hand()
    ctl.key("end")
    for _ in range(len(before) - 1):
        ctl.key("<")                      # the last card walks to the front
    mine = [before[-1], *before[:-1]]
    assert ctl.client.hand() == mine
    ctl.key("d")                          # a drawn card goes where the sort puts it, the rest stay
    after = ctl.client.hand()
    assert len(after) == len(before) + 1
    drawn = next(c for c in after if after.count(c) > mine.count(c))
    kept = list(after)
    kept.remove(drawn)
    assert kept == mine
    ctl.client.sort = "rank"                     # the same order again: nothing changes
    assert ctl.client.hand() == after
    ctl.client.sort = "suit"                     # the Options page's "Hand order" changed: sorted again
    ctl.client.sort = "rank"
    assert ctl.client.hand() == sort_hand(after, "rank") != after


def test_a_new_hand_is_dealt_in_the_sorted_order() -> None:
    ctl = at_my_turn()
    ctl.key(">")
    assert ctl.client.arranged
    drive(ctl, lambda c: table_of(c).match.hand_number == 2 and c.client.my_turn())
    assert ctl.client.arranged == {} and ctl.client.hand() == sort_hand(ctl.client.hand(), "rank")


def test_a_new_card_goes_right_after_its_neighbour_in_the_sort() -> None:
    hand = cards("Ac 5d 9h Ks")
    mine = cards("Ks 9h 5d Ac")
    assert arrange(hand, mine) == mine
    assert arrange(cards("Ac 5d 7c 9h Ks"), mine) == cards("Ks 9h 5d 7c Ac")    # after the 5
    assert arrange(cards("Ac 5d 9h Jh Ks"), mine) == cards("Ks 9h Jh 5d Ac")    # after the 9
    assert arrange(cards("Ac Ac 5d 9h Ks"), mine) == cards("Ks 9h 5d Ac Ac")    # with its twin
    assert arrange(cards("Ac 3c 5d 9h Ks"), cards("Ks 9h 5d Ac")) == cards("Ks 9h 5d Ac 3c")    # after the ace
    assert arrange(cards("Ac 5d 9h Ks JK"), cards("5d Ac Ks 9h")) == cards("5d Ac Ks JK 9h")
    assert arrange(cards("Ac Ks"), mine) == cards("Ks Ac")                     # melded cards go
