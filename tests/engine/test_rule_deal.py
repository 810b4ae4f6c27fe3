"""Scenario tests: cards, seats, the deal and the upcard (DOS manual, Chapter 2)."""

from __future__ import annotations

from collections import Counter

import pytest
from positions import cards, stacked_deck

from canasta_tui.engine import (
    CLASSIC,
    CanastaError,
    Phase,
    deal,
    full_deck,
    next_seat,
    partner,
    team,
    team_name,
    team_seats,
)
from canasta_tui.engine.cards import IS_WILD, JOKER, RANK_OF, VALUE, card, card_text, parse_card
from canasta_tui.presets import load_rules


def test_the_deck_has_108_cards_two_decks_and_four_jokers() -> None:
    """"The game is played with two regular decks of fifty-two cards plus four Jokers, all
    108 cards shuffled together." """
    deck = full_deck()
    assert len(deck) == 108
    counts = Counter(int(c) for c in deck)
    assert counts[int(card(JOKER))] == 4
    assert all(n == 2 for c, n in counts.items() if RANK_OF[c] != JOKER)
    assert len(counts) == 53
    assert sum(1 for c in deck if IS_WILD[c]) == 12  # "All Jokers and the eight Deuces"


def test_point_values_of_every_card() -> None:
    """"Jokers 50 points, Deuces 20, Aces 20, K, Q, J, 10, 9, 8 10 points, 7, 6, 5, 4,
    black 3 5 points." """
    expect = {"JK": 50, "2c": 20, "Ah": 20, "Ks": 10, "Qd": 10, "Jc": 10, "10h": 10, "9s": 10, "8c": 10,
              "7d": 5, "6h": 5, "5s": 5, "4c": 5, "3c": 5, "3s": 5}
    for text, value in expect.items():
        assert VALUE[parse_card(text)] == value, text


def test_card_notation_round_trips_for_the_whole_deck() -> None:
    for c in full_deck():
        assert parse_card(card_text(c)) == c


def test_partners_sit_opposite_and_play_goes_clockwise() -> None:
    """"Four players form two partnerships. The partners sit opposite each other at the
    table" and play proceeds "in a clockwise rotation" from the dealer's left."""
    assert [partner(s) for s in range(4)] == [2, 3, 0, 1]
    assert [next_seat(s) for s in range(4)] == [1, 2, 3, 0]
    assert [team(s, CLASSIC) for s in range(4)] == [0, 1, 0, 1]
    assert team_seats(0, CLASSIC) == (0, 2) and team_seats(1, CLASSIC) == (1, 3)
    assert team_name(0, CLASSIC) == "Players 1 & 3" and team_name(1, CLASSIC) == "Players 2 & 4"


def test_seat_maths_without_partnerships() -> None:
    """Two- and three-player games (Windows, mobile app): each player plays alone."""
    three = load_rules("three-player")
    assert [next_seat(s, 3) for s in range(3)] == [1, 2, 0]
    assert [team(s, three) for s in range(3)] == [0, 1, 2]
    assert team_seats(2, three) == (2,)
    assert team_name(1, three) == "Player 2"
    two = load_rules("two-player")
    assert [next_seat(s, 2) for s in range(2)] == [1, 0]
    assert [team(s, two) for s in range(2)] == [0, 1]


@pytest.mark.parametrize("dealer", range(4))
def test_eleven_cards_dealt_one_at_a_time_from_the_dealers_left(dealer: int) -> None:
    """"Each player is dealt a total of eleven cards, one at a time, in a clockwise
    rotation." The first player on the dealer's left gets the first card and plays first."""
    deck = stacked_deck([], upcards="9h", dealer=dealer)  # no red three dealt
    s = deal(CLASSIC, deck, dealer)
    for i in range(4):
        seat = (dealer + 1 + i) % 4
        # one card at a time: seat gets deck[i], deck[i+4], deck[i+8] ...
        assert s.hands[seat] == tuple(sorted(deck[i:44:4]))
    assert s.turn == s.actor == next_seat(dealer)
    assert s.phase == Phase.DRAW
    assert s.pile == (deck[44],)
    assert s.stock_size == 108 - 45


def test_the_upcard_starts_the_pile_unfrozen() -> None:
    """"The top card of the stock is turned face up (the upcard) and placed beside the
    stock, starting the discard pile." """
    s = deal(CLASSIC, stacked_deck([], upcards="9h"), 0)
    assert s.pile == cards("9h")
    assert not s.frozen


def test_a_wild_upcard_is_covered_and_freezes_the_pile() -> None:
    """"If the upcard is a wild card or a Three, then one or more additional cards must be
    turned upon it until some other card appears." A wild card among them freezes the
    pile ("The discard pile is 'frozen' whenever it contains a wild card or red Three")."""
    s = deal(CLASSIC, stacked_deck([], upcards="2c JK Kd"), 0)
    assert s.pile == cards("2c JK Kd")
    assert s.frozen
    assert s.stock_size == 108 - 44 - 3


def test_a_red_three_upcard_is_covered_and_freezes_the_pile() -> None:
    """"If the upcard is a wild card or a Three, then one or more additional cards must be
    turned upon it"; a red three in the pile freezes it."""
    s = deal(CLASSIC, stacked_deck([], upcards="3d 8s"), 0)
    assert s.pile == cards("3d 8s")
    assert s.frozen


def test_a_black_three_upcard_is_covered_without_freezing() -> None:
    """"If the upcard is a wild card or a Three ... additional cards must be turned upon it."
    A black three does not freeze the pile (only "a wild card or red Three" does)."""
    s = deal(CLASSIC, stacked_deck([], upcards="3c 3s Qh"), 0)
    assert s.pile == cards("3c 3s Qh")
    assert not s.frozen


def test_a_deck_must_hold_the_108_cards() -> None:
    deck = [int(c) for c in full_deck()]
    with pytest.raises(CanastaError, match="a deck must hold the 108 Canasta cards"):
        deal(CLASSIC, deck[:-1], 0)
    with pytest.raises(CanastaError, match="dealer must be a seat from 0 to 3"):
        deal(CLASSIC, deck, 4)


def test_dealt_red_threes_are_laid_out_at_the_owners_first_turn_with_a_replacement() -> None:
    """"A player finding a red Three in the hand must, at their first turn, place it face up
    on the table and draw a replacement card from the stock." """
    d = stacked_deck(["Kh 3h", "3d 3h 9c"], upcards="8c", stock="4c 5c 6c 7h", dealer=3)
    s = deal(CLASSIC, d, 3)
    # seat 0 plays first: its red three is laid out at once, replaced by the top of the stock
    assert s.red_threes[0] == cards("3h")
    assert 3 * 4 + 2 not in s.hands[0] and cards("4c")[0] in s.hands[0]
    assert len(s.hands[0]) == 11
    # seat 1 has not had a turn yet: its red threes are still in the hand
    assert s.red_threes[1] == ()
    assert sum(1 for c in s.hands[1] if RANK_OF[c] == 3) == 2
    s2 = deal(CLASSIC, d, 3)
    from positions import run
    s2 = run(s2, "draw", "discard 5c")  # seat 0 drew 5c and discards it
    assert s2.turn == 1
    assert s2.red_threes[1] == cards("3d 3h")
    assert cards("6c")[0] in s2.hands[1] and cards("7h")[0] in s2.hands[1]
    assert len(s2.hands[1]) == 11
