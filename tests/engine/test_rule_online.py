"""Scenario tests: the ``online`` preset is the game of the classic-canasta online rules page
(``shared/seeds/classic-canasta-online-rules.txt``), rule by rule.  Each test quotes the page.

The page's game is for two players, each on their own: "Each player is dealt 15 cards",
"Each turn is begun by either drawing the top two cards from the face-down stock or taking
the whole of the discard pile", "When one or both players have a total of 5,000 or more
points at the end of a hand, the game ends".
"""

from __future__ import annotations

from positions import legal, position, run, stacked_deck, why

from canasta_tui.engine import Phase, deal, score_hand
from canasta_tui.presets import load_rules

ONLINE = load_rules("online")
D = Phase.DRAW
C7 = "Qh Qd Qc Qs Qh Qd Qc"


def test_fifteen_cards_to_each_of_two_players_and_two_drawn() -> None:
    """"Each player is dealt 15 cards" ... "drawing the top two cards from the face-down stock"."""
    assert (ONLINE.players, ONLINE.partnerships, ONLINE.hand_size, ONLINE.draw_count) == (2, False, 15, 2)
    s = deal(ONLINE, stacked_deck([], players=2, hand_size=15), 0)
    assert [len(h) for h in s.hands] == [15, 15] and s.turn == 1
    s = run(s, "draw")
    assert len(s.hands[1]) == 17 and s.stock_size == 108 - 30 - 1 - 2


def test_each_player_plays_alone_and_has_no_partner_to_ask() -> None:
    """"It is not allowed for one player to have two separate melds of the same rank ... It is
    however quite possible and not unusual have a meld of the same rank as one of your
    opponents' melds." """
    s = position({0: "Kh Kd Kc 9h 8h", 1: "5c"}, rules=ONLINE, melds={1: ["Ks Kc Kd"]})
    assert "meld K K K" in legal(s)           # the opponent's Kings are not ours
    assert why(s, "ask") == "There is no partner to ask in this game"


def test_one_canasta_to_go_out() -> None:
    """"You can only go out if you have melded at least one canastas. Once your side has one
    canastas, you may go out if you can and wish to, by melding all of your cards, or by
    melding all but one and discarding your last card."  (The two-player preset of Canasta
    for Windows and the mobile app needs two.)"""
    assert ONLINE.canastas_to_go_out == 1
    s = position({0: "Kh Kd Kc 9h", 1: "5c 6c"}, rules=ONLINE, melds={0: [C7]})
    out = run(s, "meld K K K", "discard 9h")
    assert out.phase == Phase.HAND_OVER and out.went_out == 0


def test_melding_all_but_one_card_without_a_canasta_is_against_the_rules() -> None:
    """"If you do not yet have one canastas, you are not allowed to leave yourself without any
    cards at the end of your turn ... It is against the rules in this case to meld all your
    cards except one. You would then be forced to discard this last card, which would
    constitute going out illegally." """
    s = position({0: "Kh Kd Kc 9h"}, rules=ONLINE, melds={0: ["Ac Ad Ah"]})
    assert "meld K K K" not in legal(s)
    assert why(s, "meld K K K") == ("That would leave you one card, which you could not discard: "
                                    "your side needs a canasta to go out")


def test_three_wild_cards_at_most_and_never_more_than_the_naturals() -> None:
    """"No meld can contain more than three wild cards and there must be at least as many
    natural cards as wild cards ... Once a canasta contains three wild cards, no further wild
    cards can be added." """
    limit = "A meld may hold at most 3 wild cards, never more than its natural cards"
    s = position({0: "JK 2h 9h 8h 7h"}, rules=ONLINE, melds={0: ["Qh Qd 2s"]})
    s1 = run(s, "add JK to Q")                # two naturals, two wild cards
    assert why(s1, "add 2 to Q") == limit     # a third would outnumber the naturals
    s = position({0: "JK 2h 9h 8h 7h"}, rules=ONLINE, melds={0: ["Kh Kd Ks Kc 2c 2d"]})
    s1 = run(s, "add JK to K")                # four naturals, three wild cards: a canasta
    assert why(s1, "add 2 to K") == limit


def test_the_pile_is_taken_with_natural_cards_from_the_hand() -> None:
    """"You can only take the discard pile if you can meld its top card, combined with natural
    cards from your hand": a King and a deuce do not take a King.  An unfrozen pile may go onto
    the player's own meld of its rank; a frozen one needs the natural pair: "When the discard
    pile is frozen against you, you can only take it if you hold in your hand two natural cards
    of the same rank as the top card"."""
    wild = position({0: "Kh 2c 9h 8h 7h 6h"}, rules=ONLINE, phase=D, melds={0: ["Ac Ad Ah"]}, pile="5c Ks")
    assert legal(wild) == ["draw"]
    assert why(wild, "pile K 2") == "These rules need a natural pair of Kings to take the pile for a new meld"
    pair = position({0: "Kh Kd 9h 8h 7h 6h"}, rules=ONLINE, phase=D, melds={0: ["Ac Ad Ah"]}, pile="5c Ks")
    assert legal(pair) == ["draw", "pile K K"]
    onto = position({0: "9h 8h 7h 6h"}, rules=ONLINE, phase=D, melds={0: ["Ac Ad Ah", "Kc Kd Kh"]}, pile="5c Ks")
    assert legal(onto) == ["draw", "pile"]
    frozen = position({0: "9h 8h 7h 6h"}, rules=ONLINE, phase=D, melds={0: ["Ac Ad Ah", "Kc Kd Kh"]}, pile="JK Ks")
    assert legal(frozen) == ["draw"]


def test_an_initial_meld_from_the_pile_needs_two_natural_cards_and_counts_only_the_top_card() -> None:
    """"you must use two natural cards from your hand which match the top card of the discard
    pile. In this second case, you can count the value of the top discard ... You cannot count
    any other cards in the pile" -- the page's example: K-K-K and Q-Q-2 with the King from the
    pile make 70, enough for 50 and not for 90."""
    hand = "Kh Kd Qh Qd 2c 9h 8h 7h"
    s = position({0: hand}, rules=ONLINE, phase=D, pile="Kc Qs Ks")
    assert legal(s) == ["draw", "pile K K"]
    s90 = position({0: hand}, rules=ONLINE, phase=D, pile="Kc Qs Ks", requirements=(90, 90))
    assert legal(s90) == ["draw"]


def test_the_first_upcard_is_covered_only_when_it_is_wild_or_a_red_three() -> None:
    """"If this first face-up card is wild or a red three, another card is turned and places on
    top of it, continuing until a card which is not a wild card or red three is turned up." """
    black = deal(ONLINE, stacked_deck([], upcards="3c", players=2, hand_size=15), 0)
    assert len(black.pile) == 1 and legal(black) == ["draw"]          # a stop card
    red = deal(ONLINE, stacked_deck([], upcards="3h 7c", players=2, hand_size=15), 0)
    assert len(red.pile) == 2 and red.frozen                           # "frozen against all players"


def test_going_out_concealed_needs_no_minimum_and_scores_200() -> None:
    """"If, having drawn from the stock, you are able to meld your entire hand, including one
    canasta, without having previously melded any cards, you may do so (with or without a
    final discard) and go out without having to meet any mimimum count requirement" ... "an
    extra 100 points, making 200 for going out"."""
    s = position({0: "4h 4d 4c 4s 4h 4d 4c 9c"}, rules=ONLINE)       # seven Fours: 35 points
    out = run(s, "meld 4 4 4", "add 4", "add 4", "add 4", "add 4", "discard 9c")
    assert out.went_out == 0 and out.concealed
    assert score_hand(out)[0].going_out == 200


def test_red_threes_score_100_each_and_800_all_four() -> None:
    """"For each red three laid out, if the team has at least one meld 100 points ... For all
    four red threes an extra 400 points, making 800" and "If a player did not manage to meld
    at all, then each of their red threes counts minus 100 points"."""
    def threes(text: str, melds: list[str]) -> int:
        s = position({0: "9c", 1: "8c"}, rules=ONLINE, melds={0: melds}, red_threes={0: text})
        return score_hand(s._replace(phase=Phase.HAND_OVER))[0].red_three_points
    assert threes("3h 3d 3h 3d", ["Ac Ad Ah"]) == 800
    assert threes("3h 3d", ["Ac Ad Ah"]) == 200
    assert threes("3h", []) == -100
