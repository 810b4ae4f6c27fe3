"""Perft-style exact legal-action lists from fixed positions (like python-chess perft):
any change in what the engine offers shows up here."""

from __future__ import annotations

from positions import legal, position, run, stacked_deck

from canasta_tui.engine import CLASSIC, Phase, apply, deal, legal_actions


def test_opening_position_of_a_fixed_deal() -> None:
    s = deal(CLASSIC, stacked_deck(["Kh Kd Qh Qd 9c 9d 5c 5d 2c JK 7s"], upcards="Ks", stock="8h", dealer=3), 3)
    assert legal(s) == ["draw", "pile K K"]
    after = run(s, "draw")
    assert legal(after) == [
        "meld 5 5 2", "meld 5 5 JK", "meld 9 9 2", "meld 9 9 JK", "meld Q Q 2", "meld Q Q JK",
        "meld K K 2", "meld K K JK",
        "discard 2c", "discard 5c", "discard 5d", "discard 7s", "discard 8h", "discard 9c", "discard 9d",
        "discard Qd", "discard Qh", "discard Kd", "discard Kh", "discard JK",
    ]  # no "ask": no canasta on the table and none this hand can complete (issue 10, item 8)


def test_opened_side_with_a_canasta() -> None:
    s = position({0: "Kh Kd Kc 2c 9h 3s"}, melds={0: ["Qh Qd Qc Qs Qh Qd Qc", "Ah Ad 2d"]})
    assert legal(s) == [
        "meld K K K", "meld K K 2", "add 2 to A", "add 2 to Q",
        "discard 2c", "discard 3s", "discard 9h", "discard Kc", "discard Kd", "discard Kh", "ask",
    ]
    assert legal(run(s, "meld K K 2")) == ["add K", "discard 3s", "discard 9h", "discard Kh", "undo"]


def test_perft_depth_two_from_a_draw_position() -> None:
    """Leaf counts two plies deep (every action, then every reply)."""
    s = position({0: "Kh Kd 9c 9d 5c"}, phase=Phase.DRAW, melds={0: ["Ah Ad Ac"]}, pile="7h 9s", stock="2c 8d 8s")
    first = legal_actions(s)
    assert [str(a) for a in first] == ["draw", "pile 9 9"]
    counts = {str(a): len(legal_actions(apply(s, a))) for a in first}
    # draw (2c): meld 9 9 2, meld K K 2, add 2 to A, six discards (no ask: the Aces can reach
    # four cards at most, going out needs a canasta);
    # pile 9 9 (hand Kh Kd 5c 7h): four discards (no ask after the pile, nothing to undo)
    assert counts == {"draw": 9, "pile 9 9": 4}
    assert sum(counts.values()) == 13
