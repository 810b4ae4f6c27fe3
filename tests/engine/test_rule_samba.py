"""Samba and Bolivia (issue 19): the rules as the Bicycle texts give them (``rules/README.md``,
"Samba and Bolivia"), each test quoting the rule it checks.

``position`` writes a sequence meld as ``"seq 7h 8h 9h"``; a further meld of a rank is
simply a second meld of that rank.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from positions import legal, position, run, why

from canasta_tui.engine import (
    CLASSIC,
    CanastaError,
    Phase,
    apply,
    deal,
    full_deck,
    legal_actions,
    new_match,
    parse_action,
    play,
    record,
    score_hand,
)
from canasta_tui.presets import load_rules

SAMBA = load_rules("samba")
BOLIVIA = load_rules("bolivia")
OLD_SAVE = Path(__file__).parent.parent / "data" / "old-saves" / "version-2-classic.json"


def over(s, went_out: int):  # type: ignore[no-untyped-def]
    return s._replace(phase=Phase.HAND_OVER, went_out=went_out)


# --------------------------------------------------------------------------- the pack and the deal

def test_three_packs_fifteen_cards_draw_two() -> None:
    """Bicycle, Samba: "Three standard 52-card packs plus six jokers for a total of 162 cards.
    ... The dealer distributes 15 cards to each player.  When drawing from the stock, a player
    takes two cards and discards one." """
    deck = [int(c) for c in full_deck(3)]
    assert len(deck) == 162 and deck.count(56) == 6
    random.Random(3).shuffle(deck)
    s = deal(SAMBA, deck, 3)
    assert all(len(h) == 15 for h in s.hands)  # red threes laid out are replaced
    before = len(s.hands[s.turn])
    after = apply(s, parse_action("draw"))
    assert len(after.hands[s.turn]) == before + 2 or after.red_threes[s.turn] != s.red_threes[s.turn]
    with pytest.raises(CanastaError, match="162 cards of these rules"):
        deal(SAMBA, [int(c) for c in full_deck()], 0)


def test_initial_meld_requirements_and_game() -> None:
    """Bicycle, Samba: "15 with a minus score; 50 with a score of 0 to 1,495; 90 with 1,500
    to 2,995; 120 with 3,000 to 6,995; 160 over 7,000.  Game is 10,000"; Bolivia: "Game is
    15,000.  The initial meld requirement stays at 150 from 7,000 points up." """
    assert [SAMBA.requirement(x) for x in (-5, 0, 1495, 1500, 3000, 6995, 7000)] == [15, 50, 50, 90, 120, 120, 160]
    assert [BOLIVIA.requirement(x) for x in (-5, 0, 1500, 3000, 7000, 14000)] == [15, 50, 90, 120, 150, 150]
    assert (SAMBA.target_score, BOLIVIA.target_score) == (10_000, 15_000)


# --------------------------------------------------------------------------- sequence melds

def test_perft_sequences_offered_beside_groups() -> None:
    """Bicycle, Samba: "Three or more cards of the same suit in sequence (ace high, four low)
    may be melded." """
    s = position({0: "7h 8h 9h 10h Kc Kd 5s 2c"}, rules=SAMBA, melds={0: ["Ac Ad As"]})
    assert legal(s) == [
        "meld K K 2", "add 2 to A", "meld 7h 8h 9h", "meld 8h 9h 10h",
        "discard 2c", "discard 5s", "discard 7h", "discard 8h", "discard 9h", "discard 10h",
        "discard Kc", "discard Kd", "ask",
    ]
    s = run(s, "meld 7h 8h 9h")
    assert legal(s) == ["meld K K 2", "add 2 to A", "add 10h to 7h-9h", "discard 2c", "discard 5s",
                        "discard 10h", "discard Kc", "discard Kd", "undo"]
    assert [str(m) for m in s.team_melds(0)] == ["A: Ac Ad As", "h: 7h 8h 9h"]


def test_perft_depth_two_drawing_two() -> None:
    """Leaf counts two plies deep from a Samba draw: "a player takes two cards" from the stock
    (9h and 2c here), or the pile with a natural pair; the 9h then melds in a group or in the
    sequence 7h 8h 9h."""
    s = position({0: "7h 8h 9c 9d Kc 5s"}, rules=SAMBA, phase=Phase.DRAW, melds={0: ["Ac Ad As"]},
                 pile="4c 9h", stock="9h 2c 4d 4s")
    first = legal_actions(s)
    assert [str(a) for a in first] == ["draw", "pile 9 9"]
    after = {str(a): legal(apply(s, a)) for a in first}
    assert after["draw"] == ["meld 9 9 9", "meld 9 9 2", "add 2 to A", "meld 7h 8h 9h", "discard 2c", "discard 5s",
                             "discard 7h", "discard 8h", "discard 9c", "discard 9d", "discard 9h", "discard Kc", "ask"]
    assert after["pile 9 9"] == ["discard 4c", "discard 5s", "discard 7h", "discard 8h", "discard Kc"]
    assert sum(map(len, after.values())) == 18


def test_ace_is_high_and_four_low() -> None:
    """"ace high, four low": Q K A is a sequence; K A 4 is not, and nothing goes below the 4."""
    s = position({0: "Qs Ks As 4s 5s 6s 9d"}, rules=SAMBA, melds={0: ["Ac Ad Ah"]})
    assert [a for a in legal(s) if a.startswith("meld")] == ["meld 4s 5s 6s", "meld Qs Ks As"]
    assert why(s, "meld Ks As 4s") == "A sequence is three or more cards of one suit in order, 4 low and Ace high"


def test_a_sequence_of_seven_is_a_samba_closed_to_more_cards() -> None:
    """"Cards may be added until there are seven cards, at which point the meld becomes a
    'samba,' or sequence canasta, ranking as a canasta but receiving a bonus of 1,500." """
    s = position({0: "6h Jh Qh Kc 5s 9d"}, rules=SAMBA, melds={0: ["Ac Ad As", "seq 7h 8h 9h 10h"]})
    assert legal(s) == ["add 6h to 7h-10h", "add Jh to 7h-10h", "discard 5s", "discard 6h", "discard 9d",
                        "discard Jh", "discard Qh", "discard Kc", "ask"]
    s = run(s, "add 6h to 7h-10h", "add Jh to 6h-10h", "add Qh to 6h-Jh")
    samba = s.team_melds(0)[1]
    assert samba.is_canasta and samba.is_sequence and samba.kind == "sequence canasta"
    assert s.canastas(0) == 1
    assert not any(a.startswith("add") for a in legal(s))
    s2 = position({0: "Kh 5s 9d"}, rules=SAMBA, melds={0: ["seq 6h 7h 8h 9h 10h Jh Qh"]})
    assert why(s2, "add Kh to 6h-Qh") == "A samba is a sequence of exactly seven cards: it takes no more"


def test_no_wild_card_in_a_sequence() -> None:
    """"no sequence meld may contain any wild card": a wild card is never offered onto a
    sequence, and a sequence written with one is refused with that rule."""
    s = position({0: "2c JK 5s 9d 7h 8h"}, rules=SAMBA, melds={0: ["seq 7s 8s 9s"]})
    assert not any(a.startswith(("add", "meld")) for a in legal(s))
    assert why(s, "meld 7h 8h JK") == "No wild card may stand in a sequence: it is natural cards of one suit in order"


def test_classic_has_no_sequences() -> None:
    """Classic Canasta melds cards of one rank only."""
    s = position({0: "7h 8h 9h 5s"}, rules=CLASSIC, melds={0: ["Ac Ad As"]})
    assert not any(a.startswith("meld") for a in legal(s))
    assert why(s, "meld 7h 8h 9h") == "These rules have no sequence melds: a meld is made of one rank"


@pytest.mark.parametrize("text", ["meld 7h 8h 9h", "meld Qs Ks As", "add 10h to 7h-9h", "add 4d to 5d-7d",
                                  "add Ac to Jc-Kc", "join K", "join 2"])
def test_sequence_notation_round_trips(text: str) -> None:
    """A game log and a save hold these words; they read back to the same action."""
    a = parse_action(text)
    assert str(a) == text and parse_action(str(a)) == a


# --------------------------------------------------------------------------- groups and wild cards

def test_groups_hold_at_most_two_wild_cards() -> None:
    """Bicycle, Samba: "no regular meld may contain more than two wild cards"."""
    s = position({0: "2c JK Kh 5s 9d"}, rules=SAMBA, melds={0: ["Kc Kd Ks 2d 2s"]})
    assert legal(s) == ["add K", "discard 2c", "discard 5s", "discard 9d", "discard Kh", "discard JK", "ask"]
    assert why(s, "add 2 to K") == "A meld may hold at most 2 wild cards"


def test_wild_cards_never_melded_alone_in_samba_but_in_bolivia() -> None:
    """Samba: "Wild cards may not be melded separately"; Bolivia: "Three or more wild cards may
    be melded ... A canasta of seven wild cards, called a 'bolivia,' counts 2,500"."""
    hand = {0: "2c 2d JK 5s 9d"}
    assert "meld 2 2 JK" not in legal(position(hand, rules=SAMBA, melds={0: ["Ac Ad As"]}))
    assert "meld 2 2 JK" in legal(position(hand, rules=BOLIVIA, melds={0: ["Ac Ad As"]}))
    full = position({0: "2h 5s 9d"}, rules=BOLIVIA, melds={0: ["2c 2d 2h 2s JK JK 2c"]})
    assert not any(a.startswith("add") for a in legal(full))  # a bolivia takes no more cards
    assert why(full, "add 2") == "Nothing may be added to a bolivia"


def test_a_side_may_hold_two_melds_of_a_rank_and_join_them() -> None:
    """Bicycle, Samba: "A side may have two canastas in the same rank and may combine its melds
    in the same rank at any time." """
    s = position({0: "Kh Kd Kc 5s 9d"}, rules=SAMBA, melds={0: ["Kc Kd Ks Kh Kc Kd Ks"]})
    assert legal(s)[:2] == ["add K", "meld K K K"]
    s = run(s, "meld K K K")
    assert [m.size for m in s.team_melds(0)] == [7, 3]
    assert "join K" in legal(s)
    s = run(s, "add K") if "add K" in legal(s) else s
    joined = run(s, "join K")
    assert [m.size for m in joined.team_melds(0)] == [10]
    assert run(joined, "undo").team_melds(0) == s.team_melds(0)


# --------------------------------------------------------------------------- the pile

def test_pile_upcard_goes_only_to_a_group_short_of_a_canasta() -> None:
    """Bicycle, Samba: "The discard pile may be taken only with a natural matching pair or,
    when it is not frozen, the top card can be added to a meld that is less than a canasta"."""
    short = position({0: "Kh 5s 9d 7c 8c"}, rules=SAMBA, phase=Phase.DRAW, melds={0: ["Kc Kd Ks Kh"]},
                     pile="4c Kc")
    assert legal(short) == ["draw", "pile"]
    canasta = position({0: "Kh 5s 9d 7c 8c"}, rules=SAMBA, phase=Phase.DRAW,
                       melds={0: ["Kc Kd Ks Kh Kc Kd Ks"]}, pile="4c Kc")
    assert legal(canasta) == ["draw"]
    assert why(canasta, "pile") == ("These rules do not allow adding the upcard to your completed canasta of Kings; "
                                    "a natural pair of Kings from your hand would start a new meld beside it")
    pair = position({0: "Kh Kd 5s 9d 7c"}, rules=SAMBA, phase=Phase.DRAW,
                    melds={0: ["Kc Kd Ks Kh Kc Kd Ks"]}, pile="4c Kc")
    assert legal(pair) == ["draw", "pile K K"]
    after = run(pair, "pile K K")
    assert [m.size for m in after.team_melds(0)] == [7, 3]  # a new meld beside the canasta


@pytest.mark.parametrize("preset", ["samba", "bolivia"])
def test_pile_new_meld_takes_a_natural_pair_never_one_and_a_wild_card(preset: str) -> None:
    """Bicycle, Samba: "The discard pile may be taken only with a natural matching pair or, when it
    is not frozen, the top card can be added to a meld that is less than a canasta" (Bolivia: "the
    same game as Samba"): one natural card and a wild card never take it for a new meld."""
    rules = load_rules(preset)
    one = position({0: "Jc 2c 9h 7c 8c"}, rules=rules, phase=Phase.DRAW, melds={0: ["Ac Ad Ah"]}, pile="4c Jh")
    assert legal(one) == ["draw"]
    assert why(one, "pile J 2") == "These rules need a natural pair of Jacks to take the pile for a new meld"
    assert why(one, "pile") == ("Your side has no meld of Jacks to add the upcard to (it never goes onto a "
                                "sequence); a new meld of Jacks takes a natural pair of them from your hand")
    pair = position({0: "Jc Jd 2c 9h 7c"}, rules=rules, phase=Phase.DRAW, melds={0: ["Ac Ad Ah"]}, pile="4c Jh")
    assert legal(pair) == ["draw", "pile J J"]
    onto = position({0: "2c 9h 7c 8c"}, rules=rules, phase=Phase.DRAW, melds={0: ["Jc Jd Js"]}, pile="4c Jh")
    assert legal(onto) == ["draw", "pile"]


def test_pile_upcard_never_starts_or_extends_a_sequence() -> None:
    """"The top card may not be taken to start a sequence meld" (nor, here, to extend one:
    see rules/README.md)."""
    s = position({0: "Qh 10h 9h 7c 8c"}, rules=SAMBA, phase=Phase.DRAW, melds={0: ["seq 7h 8h 9h 10h"]},
                 pile="4c Jh")
    assert legal(s) == ["draw"]
    assert why(s, "pile") == ("Your side has no meld of Jacks to add the upcard to (it never goes onto a sequence); "
                              "a new meld of Jacks takes a natural pair of them from your hand")


def test_bolivia_pile_topped_by_a_wild_card_cannot_be_taken() -> None:
    """Bicycle, Bolivia: "When the discard pile is topped by a wild card, it may not be taken." """
    s = position({0: "2h 2d 5s 9d"}, rules=BOLIVIA, phase=Phase.DRAW, melds={0: ["2c 2s JK"]}, pile="4c 2c")
    assert legal(s) == ["draw"]
    assert why(s, "pile") == "A wild card on the pile is a stop card: draw from the stock"


# --------------------------------------------------------------------------- going out

def test_samba_needs_two_canastas_to_go_out() -> None:
    """Bicycle, Samba: "A side needs two canastas (mixed, natural, or samba) to go out." """
    one = position({0: "9d"}, rules=SAMBA, melds={0: ["Ac Ad As Ac Ad As Ac"]})
    assert "discard 9d" not in legal(one)
    assert why(one, "discard 9d") == "Your side needs two canastas to go out: keep at least one card"
    two = position({0: "9d"}, rules=SAMBA, melds={0: ["Ac Ad As Ac Ad As Ac", "seq 4s 5s 6s 7s 8s 9s 10s"]})
    assert "discard 9d" in legal(two)
    assert run(two, "discard 9d").went_out == 0


def test_bolivia_needs_an_escalera_among_its_canastas() -> None:
    """Bicycle, Bolivia: "At least one of the two canastas must be a sequence canasta, which in
    this game is called an 'escalera'." """
    groups = position({0: "9d"}, rules=BOLIVIA, melds={0: ["Ac Ad As Ac Ad As Ac", "Kc Kd Ks Kc Kd Ks Kh"]})
    assert "discard 9d" not in legal(groups)
    assert why(groups, "discard 9d") == ("Your side needs two canastas (one of them an escalera) to go out: "
                                         "keep at least one card")
    with_escalera = position({0: "9d"}, rules=BOLIVIA,
                             melds={0: ["Ac Ad As Ac Ad As Ac", "seq 4s 5s 6s 7s 8s 9s 10s"]})
    assert "discard 9d" in legal(with_escalera)


# --------------------------------------------------------------------------- scored hands

def test_scored_samba_hand() -> None:
    """Bicycle, Samba: a samba's "bonus of 1,500"; "a 200-point bonus for going out"; red
    threes "100 each"; they count for a side only with the two canastas (Bolivian Canasta:
    "They count plus if partnership has melded two canastas ... otherwise they are negative")."""
    s = position({0: "", 1: "4c 4d", 2: "5s 9d", 3: "Jc"}, rules=SAMBA,
                 melds={0: ["seq 7h 8h 9h 10h Jh Qh Kh", "Ac Ad As Ac Ad As 2c"], 1: ["Kc Kd Ks"]},
                 red_threes={0: "3h 3d", 1: "3h"})
    mine, theirs = score_hand(over(s, 0))
    # melds 65 + 140; bonuses 1,500 + 300; red threes +200; out 200; hand -15
    assert (mine.melds, mine.canasta_bonus, mine.sequence_canastas, mine.mixed_canastas) == (205, 1800, 1, 1)
    assert (mine.red_three_points, mine.going_out, mine.hand, mine.total) == (200, 200, 15, 2390)
    # no canasta: the red three counts against; melds 30, hands -20
    assert (theirs.red_three_points, theirs.total) == (-100, -90)


def test_scored_bolivia_hand() -> None:
    """Bicycle, Bolivia: a bolivia "counts 2,500"; "A black three left in the hand when any
    other player (including a partner) goes out counts minus 100 points"; Samba: "Red threes
    are 100 each unless one side holds all six, in which case they count 1,000"."""
    s = position({0: "", 1: "3s", 2: "3c 9d", 3: "Jc"}, rules=BOLIVIA,
                 melds={0: ["2c 2d 2h 2s JK JK 2c", "seq 4s 5s 6s 7s 8s 9s 10s"]},
                 red_threes={0: "3h 3d 3h", 2: "3d 3h 3d"})
    mine, theirs = score_hand(over(s, 0))
    assert (mine.melds, mine.canasta_bonus, mine.wild_canastas, mine.sequence_canastas) == (250, 4000, 1, 1)
    assert (mine.red_three_points, mine.going_out, mine.hand) == (1000, 200, 10)
    assert mine.penalty_items == (("black three left in hand", 100),)
    assert mine.total == 250 + 4000 + 1000 + 200 - 10 - 100
    assert theirs.penalty_items == (("black three left in hand", 100),) and theirs.total == -110


# --------------------------------------------------------------------------- saves

def test_an_old_save_still_loads_and_is_written_again_as_the_current_version() -> None:
    """docs/save-format.md, "Versions": a version 2 file (written before Samba) loads as it was."""
    data = json.loads(OLD_SAVE.read_text(encoding="utf-8"))
    assert data["version"] == 2 and "packs" not in data["rules"]
    m = record.from_dict(data)
    assert m.rules == CLASSIC
    again = json.loads(record.dumps(m))
    assert again["version"] == record.VERSION == 4
    assert record.loads(record.dumps(m)).state == m.state


def test_a_samba_game_saves_and_loads() -> None:
    """A Samba match round-trips through its save, sequences and all."""
    rng = random.Random(11)
    deck = [int(c) for c in full_deck(3)]
    rng.shuffle(deck)
    m = new_match(SAMBA, deck, 0)
    seen_sequence = False
    while not m.state.is_over:
        legal_now = legal_actions(m.state)
        seqs = [a for a in legal_now if a.is_sequence]
        m = play(m, seqs[0] if seqs else rng.choice(legal_now))
        seen_sequence = seen_sequence or bool(seqs)
    assert seen_sequence
    text = record.dumps(m)
    assert '"meld ' in text and record.loads(text).state == m.state


def test_bolivia_ask_only_when_an_escalera_is_within_reach() -> None:
    """"May I go out, partner?" is asked only when going out is possible this turn (issue 10);
    in Bolivia that needs an escalera: seven of one suit in order, between the hand and the
    side's sequences."""
    melds = {0: ["Ac Ad As Ac Ad As Ac", "Kc Kd Ks Kc Kd Ks Kh"]}
    far = position({0: "4h 5h 6h 8h 9h 10h Jc"}, rules=BOLIVIA, melds=melds)
    assert "ask" not in legal(far)
    assert why(far, "ask") == ("Your side has no escalera yet: going out needs one, and your hand cannot "
                               "complete it this turn: there is nothing to ask")
    near = position({0: "4h 5h 6h 8h 9h 10h Jc"}, rules=BOLIVIA, melds={0: [*melds[0], "seq 7h 8h 9h"]})
    assert "ask" in legal(near)


def test_a_join_is_no_way_to_end_a_turn_with_one_card_left() -> None:
    """Bolivia: taking the pile with a natural pair may not leave one card that cannot be
    discarded (no escalera yet) just because a ``join`` is legal: a join melds no card of the
    hand, so the turn could never end (the computers looped join/undo for ever)."""
    s = position({0: "8d 8s"}, rules=BOLIVIA, phase=Phase.DRAW, pile="3c 8c",
                 melds={0: ["8c 8d 8h 8s 8c 8d 8h", "Ac Ad As"]})
    assert "pile 8 8" not in legal(s)
    assert legal(s) == ["draw"]
