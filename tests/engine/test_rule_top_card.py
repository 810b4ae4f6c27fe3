"""Scenario tests: the Windows 2008 rule for an empty stock (``stock_exhausted = "top_card"``).

Canasta for Windows 2008 help, "The rules explained": "When there are no more cards on the
stock a special situation occurs: If the discard pile is not frozen and you can add the top
discard to one of your melds, you must take that top discard. Only that card is removed from
the pile; you do not receive the rest. You must discard normally. 2. If you can take the
discard pile in the normal way, you may. You must discard normally. 3. If you can do neither,
press the 'End Hand' button ... You do not have to discard."

The DOS manual's "Exhausting the Stock" stays the default (``forced``): the forced player
takes the whole pile.
"""

from __future__ import annotations

from positions import cards, legal, position, run, why

from canasta_tui.engine import CLASSIC, Phase
from canasta_tui.engine.state import HandEnd
from canasta_tui.presets import preset

TOP = CLASSIC.replace(stock_exhausted="top_card")
FORCED = "You must take the upcard onto your side's meld: the stock is exhausted (only that card comes off the pile)"


def test_the_windows_preset_takes_the_top_card_only_and_classic_keeps_the_dos_rule() -> None:
    windows = preset("windows")
    assert windows is not None and windows.stock_exhausted == "top_card"
    assert CLASSIC.stock_exhausted == "forced"


def test_with_the_stock_empty_the_fitting_upcard_alone_is_taken() -> None:
    """"you must take that top discard. Only that card is removed from the pile; you do not
    receive the rest. You must discard normally." """
    s = position({0: "Kh 9d 7c", 1: "5c 6c 8d 4h"}, rules=TOP,
                 melds={0: ["Ac Ad Ah"], 1: ["9c 9s 9h"]}, pile="Jc 8s", stock="")
    s1 = run(s, "discard 9d")
    assert s1.turn == 1 and s1.phase == Phase.DRAW
    assert legal(s1) == ["pile"]
    assert why(s1, "draw") == FORCED
    assert why(s1, "end") == FORCED
    took = run(s1, "pile")
    # the nine went onto the meld of nines; the Jack and eight stay on the pile
    assert took.melds[1][9] is not None and took.melds[1][9].size == 4
    assert took.pile == cards("Jc 8s")
    assert took.hands[1] == tuple(sorted(cards("5c 6c 8d 4h")))
    assert took.phase == Phase.MELD
    # "You must discard normally": the turn goes on with a discard, and nothing can be put back
    assert "discard 5c" in legal(took) and "unpile" not in legal(took)
    after = run(took, "discard 5c")
    assert after.turn == 2 and after.pile == cards("Jc 8s 5c")


def test_with_the_dos_rule_the_forced_player_takes_the_whole_pile() -> None:
    """DOS "Exhausting the Stock": "the next player is 'forced' to pick up the discard provided it
    can be melded on an existing meld" (the pile, as any take of the pile)."""
    s = position({0: "Kh 9d 7c", 1: "5c 6c 8d 4h"},
                 melds={0: ["Ac Ad Ah"], 1: ["9c 9s 9h"]}, pile="Jc 8s", stock="")
    took = run(s, "discard 9d", "pile")
    assert took.pile == () and cards("Jc")[0] in took.hands[1] and cards("8s")[0] in took.hands[1]


def test_a_frozen_pile_is_taken_in_the_normal_way_or_the_hand_ends() -> None:
    """"If the discard pile is not frozen ...": a frozen pile is never taken for its top card
    alone; "2. If you can take the discard pile in the normal way, you may" (a natural pair);
    "3. If you can do neither" the hand ends."""
    s = position({0: "Kh 9d 7c", 1: "9h 9d 5c"}, rules=TOP,
                 melds={0: ["Ac Ad Ah"], 1: ["9c 9s 9h"]}, pile="2c Jc", stock="")
    s1 = run(s, "discard 9d")
    assert s1.frozen
    assert legal(s1) == ["pile 9 9", "end"]
    took = run(s1, "pile 9 9")
    # the normal way: the whole pile, the deuce and Jack into the hand
    assert took.pile == () and cards("Jc")[0] in took.hands[1]
    ended = run(s1, "end")
    assert ended.phase == Phase.HAND_OVER and ended.end_reason == HandEnd.STOCK_EXHAUSTED


def test_without_a_meld_for_the_upcard_a_new_meld_takes_the_whole_pile() -> None:
    """"2. If you can take the discard pile in the normal way, you may. You must discard
    normally." """
    s = position({0: "Kh Kd 7c", 1: "Kh Kd 5c 6c"}, rules=TOP,
                 melds={0: ["Ac Ad Ah"], 1: ["9c 9s 9h"]}, pile="Jc", stock="")
    s1 = run(s, "discard Kd")
    assert legal(s1) == ["pile K K", "end"]
    took = run(s1, "pile K K")
    assert took.pile == () and cards("Jc")[0] in took.hands[1]


def test_when_the_upcard_is_of_no_use_the_hand_ends() -> None:
    """"3. If you can do neither, press the 'End Hand' button": nothing to take, so play ends."""
    s = position({0: "Kh Kd 7c", 1: "8h 5c 6c"}, rules=TOP,
                 melds={0: ["Ac Ad Ah"], 1: ["9c 9s 9h"]}, stock="")
    end = run(s, "discard Kh")
    assert end.phase == Phase.HAND_OVER and end.end_reason == HandEnd.STOCK_EXHAUSTED


def test_taking_the_top_card_with_one_card_left_keeps_a_card_to_discard() -> None:
    """A player holding one card takes the upcard onto a meld and must then discard their last
    card, which is going out: offered only when the side has its canasta ("A player can only go
    out when he has at least one or two canastas")."""
    canasta = "Qh Qd Qc Qs Qh Qd Qc"
    ok = position({0: "Kh 9d", 1: "5c"}, rules=TOP.replace(one_card_pile_rule=False),
                  melds={0: ["Ac Ad Ah"], 1: ["9c 9s 9h", canasta]}, stock="")
    s1 = run(ok, "discard 9d")
    assert legal(s1) == ["pile"]
    out = run(s1, "pile", "discard 5c")
    assert out.phase == Phase.HAND_OVER and out.went_out == 1
    short = position({0: "Kh 9d", 1: "5c"}, rules=TOP.replace(one_card_pile_rule=False),
                     melds={0: ["Ac Ad Ah"], 1: ["9c 9s 9h"]}, stock="")
    s2 = run(short, "discard 9d")
    # no canasta: taking the nine would leave a last card that may not be discarded
    assert s2.phase == Phase.HAND_OVER and s2.end_reason == HandEnd.STOCK_EXHAUSTED


def test_the_log_says_the_upcard_alone_was_taken() -> None:
    """Everybody sees that "Only that card is removed from the pile", not the pile taken."""
    from canasta_tui.engine import parse_action
    from canasta_tui.table.events import action_events, describe

    s = position({0: "Kh 9d 7c", 1: "5c 6c 8d 4h"}, rules=TOP,
                 melds={0: ["Ac Ad Ah"], 1: ["9c 9s 9h"]}, pile="Jc 8s", stock="")
    s1 = run(s, "discard 9d")
    took = run(s1, "pile")
    (e,) = action_events(s1, parse_action("pile"), took, 1)
    assert e.amount == 1
    assert describe(e) == "Player 2 took the upcard 9♦ onto their Nines"
    whole = run(s1._replace(rules=CLASSIC), "pile")
    (e2,) = action_events(s1, parse_action("pile"), whole, 1)
    assert describe(e2).startswith("Player 2 took the pile (3 cards): 9♦")
