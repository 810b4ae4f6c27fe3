"""Scenario tests: every rule option of ``Rules``, both settings (the seed each comes from is
quoted; the defaults are the DOS manual's)."""

from __future__ import annotations

import pytest
from positions import cards, legal, position, run, stacked_deck, why

from canasta_tui.engine import CLASSIC, HandRecord, Phase, Rules, RulesError, deal, meld_count, new_match, score_hand
from canasta_tui.engine.state import HandEnd
from canasta_tui.presets import load_rules

D = Phase.DRAW
C7 = "Qh Qd Qc Qs Qh Qd Qc"
R = CLASSIC.replace


def test_two_player_game() -> None:
    """Windows 2.41: "Each player starts with 15 cards in hand"; mobile app: "For two
    players, you draw two cards at a time, and require two canastas to go out." """
    two = load_rules("two-player")
    s = deal(two, stacked_deck([], players=2, hand_size=15), 0)
    assert [len(h) for h in s.hands] == [15, 15] and s.turn == 1
    s = run(s, "draw")
    assert len(s.hands[1]) == 17
    assert why(s, "ask") == "There is no partner to ask in this game"
    p = position({0: "Kh Kd Kc 9h"}, rules=two, melds={0: [C7]})
    assert why(p, "meld K K K") == ("That would leave you one card, which you could not discard: "
                                    "your side needs two canastas to go out")


def test_three_player_game() -> None:
    """Three-handed Canasta: 13 cards each, each plays alone."""
    three = load_rules("three-player")
    s = deal(three, stacked_deck([], players=3, hand_size=13, dealer=2), 2)
    assert [len(h) for h in s.hands] == [13, 13, 13] and s.turn == 0
    assert s.requirements == (50, 50, 50)
    s = run(s, "draw")
    s = run(s, "discard " + str(legal(s)[-1].split()[1]))
    assert s.turn == 1 and s.actor == 1


def test_partnerships_need_four_players() -> None:
    with pytest.raises(RulesError, match="partnerships need 4 players"):
        Rules(players=3)


def test_hand_size_option() -> None:
    """Deal size: "Each player is dealt a total of eleven cards" (online rules: 15)."""
    s = deal(R(hand_size=15), stacked_deck([], hand_size=15), 0)
    assert all(len(h) == 15 for h in s.hands)
    assert s.stock_size == 108 - 60 - 1


def test_draw_count_option() -> None:
    """Windows 2.41, "Cards drawn each turn": one (default) or two."""
    s = position({0: "Kh"}, phase=D, melds={0: ["Ac Ad Ah"]}, stock="9c 8c 7c")
    assert run(s, "draw").hands[0] == tuple(sorted(cards("Kh 9c")))
    s2 = position({0: "Kh"}, rules=R(draw_count=2), phase=D, melds={0: ["Ac Ad Ah"]}, stock="9c 8c 7c")
    assert run(s2, "draw").hands[0] == tuple(sorted(cards("Kh 9c 8c")))


def test_target_score_option() -> None:
    """"The first partnership to reach or exceed 5000 points wins"; the target is an option."""
    for target, winner in ((5000, None), (3000, 0)):
        m = new_match(R(target_score=target), stacked_deck([]), 0)
        st = m.state._replace(phase=Phase.HAND_OVER)
        m = m._replace(state=st, sheet=(HandRecord(1, 0, score_hand(st), (3100, 200), -1, None),))
        assert m.winner == winner


def test_initial_meld_table_options() -> None:
    """The requirement table and the minus-score requirement are options."""
    r = R(initial_meld=[[0, 40], [2000, 100]], initial_meld_negative=0)
    assert (r.requirement(-1), r.requirement(0), r.requirement(1999), r.requirement(2000)) == (0, 40, 40, 100)
    assert deal(r, stacked_deck([]), 0, scores=(2500, -5)).requirements == (100, 0)


@pytest.mark.parametrize(("need", "message"), [
    (1, None), (2, "That would leave you one card, which you could not discard: your side needs two canastas to go out")])
def test_canastas_to_go_out_option(need: int, message: str | None) -> None:
    """Windows 2.41, "Canastas needed to go out": "whether one or two canastas are needed
    before a player is allowed to finish a round"."""
    s = position({0: "Kh Kd Kc 9h"}, rules=R(canastas_to_go_out=need), melds={0: [C7]})
    assert why(s, "meld K K K") == message
    if message is None:
        assert why(run(s, "meld K K K"), "discard 9h") is None


@pytest.mark.parametrize(("required", "melds"), [(False, 60), (True, -60)])
def test_canasta_required_for_positive_score_option(required: bool, melds: int) -> None:
    """Windows 2.41: "If you select Yes, the cards on the table will only add to your score
    if you have made at least the number of Canastas ... otherwise their value will be
    deducted from the score." """
    s = position({0: "7c"}, rules=R(canasta_required_for_positive_score=required), melds={0: ["Ah Ad Ac"]})
    us = score_hand(s._replace(phase=Phase.HAND_OVER))[0]
    assert us.melds == melds and us.total == melds - 5


def test_wild_limit_three() -> None:
    """DOS: a meld holds "not more than three wild cards" (two naturals may carry three)."""
    s = run(position({0: "Kh Kd 2c 2d JK 9h 8h"}, melds={0: ["Ah Ad Ac"]}), "meld K K 2", "add 2 to K")
    assert "add JK to K" in legal(s)
    k = run(s, "add JK to K").melds[0][13]
    assert k is not None and len(k.naturals) == 2 and len(k.wilds) == 3


def test_wild_limit_naturals() -> None:
    """Windows 2.41: "there may never be more wildcards than other cards within one column"."""
    s = run(position({0: "Kh Kd 2c 2d JK 9h 8h"}, rules=R(wild_limit="naturals"), melds={0: ["Ah Ad Ac"]}),
            "meld K K 2", "add 2 to K")
    assert "add JK to K" not in legal(s)
    assert why(s, "add JK to K") == "Wild cards may never outnumber the natural cards of a meld"


def test_wild_limit_both() -> None:
    """Online rules: "No meld can contain more than three wild cards and there must be at
    least as many natural cards as wild cards"."""
    r = R(wild_limit="both")
    s = run(position({0: "Kh Kd 2c 2d JK 9h 8h"}, rules=r, melds={0: ["Ah Ad Ac As"]}), "meld K K 2", "add 2 to K")
    assert why(s, "add JK to K") == "A meld may hold at most 3 wild cards, never more than its natural cards"
    full = position({0: "2c 9h 8h"}, rules=r, melds={0: ["Ah Ad Ac As Ah 2d JK 2s"]})
    assert why(full, "add 2 to A") == "A meld may hold at most 3 wild cards, never more than its natural cards"


def test_max_wilds_option() -> None:
    s = position({0: "Kh Kd 2c 2d 9h 8h"}, rules=R(max_wilds=2), melds={0: ["Ah Ad Ac 2s 2h"]})
    assert why(s, "add 2 to A") == "A meld may hold at most 2 wild cards"


@pytest.mark.parametrize(("natural", "mixed"), [(500, 300), (400, 250)])
def test_canasta_bonus_options(natural: int, mixed: int) -> None:
    """"Canasta (natural) 500 points each, Canasta (mixed) 300 points each"."""
    r = R(natural_canasta_bonus=natural, mixed_canasta_bonus=mixed)
    s = position({0: "7c"}, rules=r, melds={0: [C7, "Kh Kd Kc Ks 2c 2d JK"]})._replace(phase=Phase.HAND_OVER)
    assert score_hand(s)[0].canasta_bonus == natural + mixed


def test_wild_melds_and_wild_canasta_bonus() -> None:
    """Option (later Canasta variants): melds of wild cards only, a wild canasta scoring 1000;
    by default "Jokers and deuces may never be melded separately from natural cards"."""
    hand = "2c 2d JK JK 2h 2s JK 9h"
    assert why(position({0: hand}, melds={0: [C7]}), "meld 2 2 JK") == \
        "Jokers and deuces may never be melded apart from natural cards"
    r = R(wild_melds_allowed=True)
    s = run(position({0: hand}, rules=r, melds={0: [C7]}), "meld 2 2 JK", "add 2 to 2", "add 2 to 2",
            "add JK to 2", "add JK to 2", "discard 9h")
    assert s.went_out == 0
    us = score_hand(s)[0]
    assert us.wild_canastas == 1 and us.canasta_bonus == 500 + 1000
    assert us.melds == 70 + 4 * 20 + 3 * 50


@pytest.mark.parametrize(("out", "concealed"), [(100, 100), (50, 0)])
def test_going_out_bonus_options(out: int, concealed: int) -> None:
    """"Melding out 100 points; Concealed hand 100 points"."""
    r = R(going_out_bonus=out, concealed_bonus=concealed)
    s = position({0: "4h 4d 4c 4s 4h 4d 4c 9c"}, rules=r)
    end = run(s, "meld 4 4 4", "add 4", "add 4", "add 4", "add 4", "discard 9c")
    assert end.concealed and score_hand(end)[0].going_out == out + concealed


@pytest.mark.parametrize("needs", [True, False])
def test_concealed_needs_canasta_option(needs: bool) -> None:
    """Mobile app, "Concealed Going Out": "Concealed going out requires a canasta. If
    'Unrestricted' is selected, there are no restrictions." """
    s = run(position({0: "4h 4d 4c 5h 5d 5c 9c"}, rules=R(concealed_needs_canasta=needs)), "meld 4 4 4")
    if needs:
        assert why(s, "meld 5 5 5") == ("That would leave you one card, which you could not discard: "
                                        "your side needs a canasta to go out")
    else:
        end = run(s, "meld 5 5 5", "discard 9c")
        assert end.went_out == 0 and end.concealed


@pytest.mark.parametrize("counts", [True, False])
def test_concealed_counts_partner_melds_option(counts: bool) -> None:
    """DOS: concealed "By playing on the partner's exposed melds"; online rules: the player
    "must not add any cards to partner's melds"."""
    s = position({0: "Qh Qd 9c"}, rules=R(concealed_counts_partner_melds=counts), melds={0: ["Qh Qd Qc Qs Qc"]},
                 has_melded=(False, False, True, False))
    end = run(s, "add Q", "add Q", "discard 9c")
    assert end.went_out == 0 and end.concealed == counts


@pytest.mark.parametrize(("bonus", "four"), [(100, 800), (150, 1000)])
def test_red_three_bonus_options(bonus: int, four: int) -> None:
    r = R(red_three_bonus=bonus, red_three_all_four_bonus=four)
    one = position({0: "7c"}, rules=r, melds={0: [C7]}, red_threes={0: "3h"})._replace(phase=Phase.HAND_OVER)
    all4 = position({0: "7c"}, rules=r, melds={0: [C7]}, red_threes={0: "3h 3d", 2: "3h 3d"})._replace(phase=Phase.HAND_OVER)
    assert score_hand(one)[0].red_three_points == bonus and score_hand(all4)[0].red_three_points == four


@pytest.mark.parametrize(("replace", "hand"), [(True, "Kh 9c"), (False, "Kh")])
def test_red_three_replacement_option(replace: bool, hand: str) -> None:
    """Windows 2.41, "Red Three options - Draw extra card": "if it is allowed to draw a second
    card from the draw pile, when the first drawn card is a Red Three"."""
    s = position({0: "Kh"}, rules=R(red_three_replacement=replace), phase=D, melds={0: ["Ah Ad Ac"]}, stock="3h 9c")
    after = run(s, "draw")
    assert after.red_threes[0] == cards("3h") and after.hands[0] == tuple(sorted(cards(hand)))


@pytest.mark.parametrize("freezes", [False, True])
def test_red_three_discard_freezes_option(freezes: bool) -> None:
    """Windows 2.41, "Red Three options - Freeze discard pile": "if it is allowed to use a Red
    Three to freeze the discard pile as with a wildcard"."""
    s = position({0: "Kh 9c"}, rules=R(red_three_discard_freezes=freezes), melds={0: ["Ah Ad Ac"]},
                 red_threes={0: "3h"}, pile="8c")
    if freezes:
        assert "discard 3h" in legal(s)
        after = run(s, "discard 3h")
        assert after.frozen and after.pile == cards("8c 3h") and after.red_threes[0] == ()
    else:
        assert why(s, "discard 3h") == "Red threes are laid out, never discarded"


def test_last_draw_red_three_options() -> None:
    """DOS: "If a player draws the last card of the stock and it is a red Three, the card is
    placed face up on the table and the play ends." Mobile app, "Last Draw Red Three": "A
    deal ends, and the last player may meld or lay off cards" / "A deal ends immediately"."""
    base = {"hands": {0: "Kh Kd Kc 9c"}, "phase": D, "melds": {0: ["Ah Ad Ac"]}, "stock": "3h"}
    end = run(position(**base, rules=R(last_draw_red_three="end")), "draw")  # type: ignore[arg-type]
    assert end.phase == Phase.HAND_OVER
    meld = run(position(**base, rules=R(last_draw_red_three="meld_then_end")), "draw")  # type: ignore[arg-type]
    assert legal(meld) == ["meld K K K", "end"]
    assert why(meld, "discard 9c") == "The last card of the stock was a red three: meld if you like, then end the hand"
    done = run(meld, "meld K K K", "end")
    assert done.phase == Phase.HAND_OVER and done.melds[0][13] is not None
    on = run(position(**base, rules=R(last_draw_red_three="play_on")), "draw")  # type: ignore[arg-type]
    assert on.phase == Phase.MELD and "discard 9c" in legal(on)


@pytest.mark.parametrize("with_wild", [False, True])
def test_black_three_meld_with_wild_option(with_wild: bool) -> None:
    """Windows 2.41: going out "by melding a column of three or four Black Threes, or two
    Black Threes and a wildcard"; DOS: never "melded with wild cards"."""
    s = position({0: "3c 3s 2c 9h"}, rules=R(black_three_meld_with_wild=with_wild), melds={0: [C7]})
    if with_wild:
        assert "meld 3 3 2" in legal(s)
        assert run(s, "meld 3 3 2", "discard 9h").went_out == 0
    else:
        assert why(s, "meld 3 3 2") == "Black threes cannot be melded with wild cards"


@pytest.mark.parametrize(("turn", "pile"), [(True, "3s 9c"), (False, "3s")])
def test_turn_upcard_three_option(turn: bool, pile: str) -> None:
    """Mobile app, "First Upcard Black Three": "If a black three is the first upcard, the next
    card is turned up. If 'Disabled' is selected, this does not work." """
    s = deal(R(turn_upcard_three=turn), stacked_deck([], upcards="3s 9c"), 0)
    assert s.pile == cards(pile)
    if not turn:
        assert why(s, "pile 9 9") == "A black three on the pile is a stop card: draw from the stock"


@pytest.mark.parametrize("initially", [False, True])
def test_pile_initially_frozen_option(initially: bool) -> None:
    """Windows 2.41, "Discard Pile options - Initially frozen": "if the discard pile is
    frozen, when a new hand of cards is dealt. This is regardless of whether there is a
    wildcard or Red Three in the pile!" """
    s = deal(R(pile_initially_frozen=initially), stacked_deck([], upcards="9c"), 0)
    assert s.frozen == initially


@pytest.mark.parametrize("pair", [False, True])
def test_pile_new_meld_needs_natural_pair_option(pair: bool) -> None:
    """Mobile app, "New Meld": "If a player takes the upcard and creates a new meld, the meld
    requires two natural cards." """
    s = position({0: "Kh 2d Ac Ad As 7c"}, rules=R(pile_new_meld_needs_natural_pair=pair), phase=D,
                 melds={0: ["5c 5d 5h"]}, pile="8h Ks")
    if pair:
        assert legal(s) == ["draw"]
        assert why(s, "pile K 2") == "These rules need a natural pair of Kings to take the pile for a new meld"
    else:
        assert legal(s) == ["draw", "pile K 2"]


@pytest.mark.parametrize("onto", [True, False])
def test_pile_onto_completed_canasta_option(onto: bool) -> None:
    """Windows 2.41, "Add top card to canasta": "if it is allowed to take the discard pile by
    adding the top card to a canasta you have made on the table"."""
    s = position({0: "Kh 2d Ac Ad As 7c"}, rules=R(pile_onto_completed_canasta=onto), phase=D,
                 melds={0: [C7]}, pile="8h Qs")
    if onto:
        assert legal(s) == ["draw", "pile"]
    else:
        assert legal(s) == ["draw"]
        assert why(s, "pile") == "These rules do not allow adding the upcard to your completed canasta of Queens"


@pytest.mark.parametrize("counts", [True, False])
def test_top_card_counts_for_initial_meld_option(counts: bool) -> None:
    """Windows 2.41, Note 2: "If you turn off the option 'Top card counts for initial meld',
    you must add the value of the top card to the minimum needed when taking the discard
    pile. E.g., if the minimum is 50 and you took an Ace from the pile, you must have 50 + 20
    = 70 points on the table." """
    r = R(top_card_counts_for_initial_meld=counts)
    # K K K + 8 8 8 = 60 on the table: enough for 50, and for 50 + 10 when the top card does not count
    s = position({0: "Kh Kd 8c 8d 8h 7c 6c"}, rules=r, phase=D, pile="9h Ks")
    assert legal(s) == ["draw", "pile K K"]
    s1 = run(s, "pile K K")
    assert why(s1, "discard 7c") == f"Initial meld needs {50 if counts else 60} points; these melds count 30"
    assert meld_count(run(s1, "meld 8 8 8")) == 60
    assert "discard 7c" in legal(run(s1, "meld 8 8 8"))
    # K K K + 7 7 7 = 45 on the table (one four left to keep): not enough either way
    s2 = position({0: "Kh Kd 7c 7d 7h 4c 4d"}, rules=r, phase=D, pile="9h Ks")
    assert legal(s2) == ["draw"]


@pytest.mark.parametrize("rule", [True, False])
def test_one_card_pile_rule_option(rule: bool) -> None:
    """Mobile app, "Going Out": "If a player has one card and the discard pile contains just
    one card, the player cannot go out by taking the upcard. If 'Unrestricted' is selected,
    there are no restrictions." """
    s = position({0: "Kh"}, rules=R(one_card_pile_rule=rule), phase=D, melds={0: ["Kc Kd Ks", C7]}, pile="Ks")
    if rule:
        assert legal(s) == ["draw"]
    else:
        assert legal(s) == ["draw", "pile"]
        assert run(s, "pile", "add K").went_out == 0


def test_stock_exhausted_end_option() -> None:
    """Windows 2.41: "When there are no more cards on the draw pile, the player may choose to
    stop playing" (``end``: play ends at once, no forced pile)."""
    s = position({0: "Kh 9d 7c", 1: "5c 6c 8d"}, rules=R(stock_exhausted="end"),
                 melds={0: ["Ac Ad Ah"], 1: ["9c 9s 9h"]}, stock="")
    end = run(s, "discard 9d")
    assert end.phase == Phase.HAND_OVER and end.end_reason == HandEnd.STOCK_EXHAUSTED


def test_stock_exhausted_turn_over_option() -> None:
    """Windows 2.41: "... or to turn the discard pile upside down and use it as the new draw
    pile." """
    s = position({0: "Kh 9d 7c", 1: "5c 6c 8d"}, rules=R(stock_exhausted="turn_over"),
                 melds={0: ["Ac Ad Ah"], 1: ["9c 9s 9h"]}, pile="4c 5d", stock="")
    s1 = run(s, "discard 9d")
    assert legal(s1) == ["draw", "pile", "end"]
    s2 = run(s1, "draw")
    assert s2.stock_turned and s2.pile == () and not s2.frozen
    assert s2.hands[1] == tuple(sorted(cards("5c 6c 8d 4c")))  # the bottom card is now on top
    assert s2.stock_size == 2


@pytest.mark.parametrize("allowed", [False, True])
def test_undo_pile_option(allowed: bool) -> None:
    """Windows 2.41 rule 7: "If you have taken the discard pile but discover that you cannot
    use the top card, you can restore the pile by clicking on it. This carries a penalty of
    50 points."  And: "you can put the top card back ... this is only possible if you have
    not yet received the rest of the pile in your hand"; "if you had zero points on the
    table before taking the discard pile, you must have melded at least the minimum amount
    of points" before "you receive the rest of the discard pile"."""
    s = position({0: "Kh Kd Ac Ad Ah 7c 6c"}, rules=R(undo_pile_allowed=allowed), phase=D,
                 pile="8h 9s Ks", stock="4c 5c")
    s1 = run(s, "pile K K")
    if not allowed:
        assert s1.aside == () and cards("8h")[0] in s1.hands[0]
        assert why(s1, "unpile") == "These rules do not allow putting the pile back"
        return
    # the side had not made its initial meld: the rest of the pile waits, in sight
    assert s1.aside == cards("8h 9s") and s1.hands[0] == tuple(sorted(cards("Ac Ad Ah 7c 6c")))
    assert "unpile" in legal(s1)
    back = run(s1, "unpile")
    assert back.pile == s.pile and back.hands == s.hands and back.penalties == (50, 0)
    assert legal(back) == ["draw"]
    assert why(back, "pile K K") == "You put the pile back this turn: draw from the stock"
    assert score_hand(back._replace(phase=Phase.HAND_OVER))[0].penalties == 50
    # meeting the requirement (30 + 60) brings the rest into the hand: no putting back now
    got = run(s1, "meld A A A")
    assert got.aside == () and got.hands[0] == tuple(sorted(cards("7c 6c 8h 9s")))
    assert "unpile" not in legal(got) and "undo" not in legal(got)   # the melds that earned it stay
    assert why(got, "unpile") == "The rest of the pile is in your hand: it can no longer be put back"


def test_pile_put_back_only_before_the_rest_is_received() -> None:
    """Issue 10, item 23b: ``unpile`` was allowed after ``pile 7 7`` with the whole pile
    already in the hand.  A side that has made its initial meld receives the whole pile at
    once ("you receive the rest of the discard pile" as soon as the upcard is melded with
    two cards from the hand), so it cannot put it back; a side that has not can, while the
    rest waits, once the melds made since are taken back."""
    r = R(undo_pile_allowed=True)
    opened = position({0: "Kh Kd 7c 6c"}, rules=r, phase=D, melds={0: ["Ac Ad Ah"]}, pile="8h Ks", stock="4c 5c")
    s = run(opened, "pile K K")
    assert s.aside == () and cards("8h")[0] in s.hands[0]
    assert "unpile" not in legal(s)
    assert why(s, "unpile") == "Your side had made its initial meld, so the whole pile came at once: it cannot go back"
    fresh = position({0: "Kh Kd 4c 4d 4h Ac Ad Ah 7c"}, rules=r, phase=D, pile="8h Ks", stock="4c 5c")
    s = run(fresh, "pile K K", "meld 4 4 4")          # 30 + 15: not yet 50, the rest waits
    assert s.aside == cards("8h") and "unpile" not in legal(s)
    assert why(s, "unpile") == "Take back the melds you made since taking the pile first (undo), then put it back"
    assert why(s, "discard 7c") == ("Initial meld needs 50 points; these melds count 45 "
                                    "(then the rest of the pile comes into your hand)")
    assert "unpile" in legal(run(s, "undo"))
    # going on: the Aces make 105, the rest arrives, and the turn ends normally
    done = run(s, "meld A A A", "discard 7c")
    assert done.turn == 1 and done.hands[0] == tuple(sorted(cards("8h")))
    assert done.aside == ()


@pytest.mark.parametrize("allowed", [True, False])
def test_permission_allowed_option(allowed: bool) -> None:
    s = position({0: "Kh Kd Kc 9h"}, rules=R(permission_allowed=allowed), melds={0: [C7]})
    if allowed:
        assert "ask" in legal(s)
    else:
        assert why(s, "ask") == "These rules do not allow asking permission"


def test_permission_penalty_option() -> None:
    s = position({0: "Kh Kd Kc 9h", 1: "5c"}, rules=R(permission_penalty=250), melds={0: [C7]})
    assert run(s, "ask", "yes", "discard 9h").penalties == (250, 0)


def test_with_the_turn_over_option_the_player_may_stop_playing() -> None:
    """Issue 10, item 23c: there was no way to stop, and ``end`` was refused with "You may end
    the hand only when the stock is exhausted" while the stock was empty.  Windows 2.41 rule
    11: "When there are no more cards on the draw pile, the player may choose to stop
    playing, or to turn the discard pile upside down and use it as the new draw pile." """
    s = position({0: "Kh 9d 7c", 1: "5c 6c 8d"}, rules=R(stock_exhausted="turn_over"),
                 melds={0: ["Ac Ad Ah"], 1: ["9c 9s 9h"]}, pile="4c 5d", stock="")
    s1 = run(s, "discard 7c")
    assert s1.stock_size == 0 and legal(s1) == ["draw", "end"]
    ended = run(s1, "end")
    assert ended.phase == Phase.HAND_OVER and ended.end_reason == HandEnd.STOCK_EXHAUSTED and ended.went_out == -1
    # once a card is drawn the hand goes on to the discard, and the refusal says so
    drawn = run(s1, "draw")
    assert drawn.stock_turned and why(drawn, "end") == (
        "You may end the hand only when the stock is exhausted")
    # while the stock holds cards, ending is refused as before
    assert why(position({0: "Kh"}, phase=D, rules=R(stock_exhausted="turn_over")), "end") == \
        "You may end the hand only when the stock is exhausted"


def test_a_laid_out_red_three_is_offered_as_a_discard_when_it_freezes() -> None:
    """Issue 10, item 23d: Windows 2.41, "Red Three options - Freeze discard pile"; the engine
    offers ``discard 3h`` (the key is the front end's), after the draw, next to the others."""
    r = R(red_three_discard_freezes=True)
    s = run(position({0: "Kh 9c"}, rules=r, phase=D, melds={0: ["Ah Ad Ac"]}, red_threes={0: "3h 3d"},
                     stock="5s 6s"), "draw")
    assert [x for x in legal(s) if x.startswith("discard")] == [
        "discard 5s", "discard 9c", "discard Kh", "discard 3d", "discard 3h"]


def test_every_preset_loads_and_differs_as_documented() -> None:
    assert load_rules("classic") == CLASSIC
    windows = load_rules("windows")
    assert windows.pile_initially_frozen and windows.wild_limit == "naturals" and windows.undo_pile_allowed
    mobile = load_rules("mobile")
    assert not mobile.pile_onto_completed_canasta and mobile.pile_new_meld_needs_natural_pair
    online = load_rules("online")      # the online rules page's two-player game (test_rule_online.py)
    assert (online.players, online.hand_size, online.draw_count, online.canastas_to_go_out) == (2, 15, 2, 1)
    assert online.wild_limit == "both" and online.pile_new_meld_needs_natural_pair
    with pytest.raises(RulesError, match="no rules preset 'nope'"):
        load_rules("nope")
