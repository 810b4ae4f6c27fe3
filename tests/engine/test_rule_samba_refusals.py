"""Samba and Bolivia: the refusals name the rule that refuses and the thing refused (the open
issue "What players, a club and the test suite still trip on", section 3).  Each test quotes the
rule it checks: ``rules/RULES.md``, "Samba and Bolivia", and the Bicycle texts it follows
(``rules/README.md``).

The same sentences reach a player whatever way the move came: written in the notation
(``parse_action``, a game log, a test), or built as an action value (the UI, the server's
clients), since both go through ``explain``.
"""

from __future__ import annotations

import re

import pytest
from positions import legal, position, run, why

from canasta_tui.engine import IllegalActionError, InvalidActionError, explain, parse_action
from canasta_tui.engine import actions as A
from canasta_tui.engine.cards import HEARTS, JOKER_CARD
from canasta_tui.presets import load_rules

SAMBA = load_rules("samba")
BOLIVIA = load_rules("bolivia")
NO_WILD = "No wild card may stand in a sequence: it is natural cards of one suit in order"


# --------------------------------------------------------------------------- wild cards and sequences

@pytest.mark.parametrize("text", ["add JK to 9h-Jh", "add 2h to 9h-Jh", "add 2 to 9h-Jh", "add 2c to 9h-Jh",
                                  "meld 7h 8h JK", "meld 7h 8h 2", "meld 2s 7h 8h"])
@pytest.mark.parametrize("preset", ["samba", "bolivia"])
def test_a_wild_card_in_a_sequence_is_refused_with_the_rule(text: str, preset: str) -> None:
    """RULES.md: "no wild card (and no three) may stand in a sequence" (Bicycle, Samba: "no
    sequence meld may contain any wild card").  ``add JK to 9h-Jh`` was refused by the reader as
    "not a rank: '9h-Jh'": it is read, and refused with the rule."""
    s = position({0: "JK 2h 2c 2s 7h 8h Qh 5s 9d"}, rules=load_rules(preset),
                 melds={0: ["Ac Ad As", "seq 9h 10h Jh"]})
    assert why(s, text) == NO_WILD
    with pytest.raises(IllegalActionError, match=f"^{re.escape(NO_WILD)}$"):
        run(s, text)


def test_a_joker_onto_a_sequence_built_as_a_value_is_refused_with_the_rule() -> None:
    """The same rule for an action built as a value (the UI, a remote client): a joker has no
    suit, and the sequence's suit is the action's own, so the joker is no longer "read as a
    club" ("no sequence from 9c to Jc"), nor its rank as the Ace's place ("You do not hold Ac")."""
    s = position({0: "JK Ac 9c 5s 9d"}, rules=SAMBA, melds={0: ["Ac Ad As", "seq 9h 10h Jh"]})
    onto_hearts = A.add_to_sequence(int(JOKER_CARD), 9, 11, HEARTS)
    assert explain(s, onto_hearts) == NO_WILD
    assert str(onto_hearts) == "add JK to 9h-Jh" and parse_action(str(onto_hearts)) == onto_hearts
    assert explain(s, A.add_to_sequence(int(JOKER_CARD), 9, 11)) == NO_WILD   # no suit given: still the rule


def test_a_wild_card_onto_a_rank_the_side_holds_only_in_a_sequence_says_so() -> None:
    """RULES.md: "no wild card (and no three) may stand in a sequence": a player who puts a joker
    on "the Fours" while the side's only Four stands in 4♠-6♠ is told both things."""
    s = position({0: "JK 2c 8h 9d 9s"}, rules=SAMBA, melds={0: ["Ac Ad As", "seq 4s 5s 6s"]})
    assert why(s, "add JK to 4") == ("Your side has no meld of Fours to add to, "
                                     "and no wild card may stand in a sequence")
    assert why(s, "add 2 to 9") == "Your side has no meld of Nines to add to"


@pytest.mark.parametrize("text", ["add 3h to 4h-6h", "meld 3h 4h 5h"])
def test_a_three_in_a_sequence_is_refused_with_the_rule(text: str) -> None:
    """RULES.md: "4 is the lowest card, the Ace the highest, and no wild card (and no three) may
    stand in a sequence" (Bicycle: "ace high, four low")."""
    s = position({0: "3h 4h 5h 9d 9s"}, rules=SAMBA, melds={0: ["Ac Ad As", "seq 4h 5h 6h"]})
    assert why(s, text) == "No three may stand in a sequence: it runs from 4 up to the Ace"


def test_a_card_of_another_suit_names_the_sequence_it_was_meant_for() -> None:
    """Bicycle, Samba: "Three or more cards of the same suit in sequence": a 10 of clubs is
    refused on 7h-9h for its suit, not sent looking for a sequence of clubs ("Your side has no
    sequence from 7c to 9c")."""
    s = position({0: "10c 10h 5s 9d"}, rules=SAMBA, melds={0: ["Ac Ad As", "seq 7h 8h 9h"]})
    assert "add 10h to 7h-9h" in legal(s)
    assert why(s, "add 10c to 7h-9h") == "10c cannot go on 7h-9h: a sequence is of one suit"


# --------------------------------------------------------------------------- a samba or escalera holds seven

@pytest.mark.parametrize(("preset", "name"), [("samba", "A samba"), ("bolivia", "An escalera")])
def test_an_eighth_card_on_a_sequence_of_seven_says_it_holds_exactly_seven(preset: str, name: str) -> None:
    """Bicycle, Samba: "Cards may be added until there are seven cards, at which point the meld
    becomes a 'samba,' or sequence canasta"; RULES.md: "Seven in sequence make a canasta of their
    own, closed to further cards: a samba in Samba, an escalera in Bolivia"."""
    s = position({0: "Kh 5h 5s 9d"}, rules=load_rules(preset), melds={0: ["seq 6h 7h 8h 9h 10h Jh Qh"]})
    assert not any(a.startswith("add") for a in legal(s))
    for text in ("add Kh to 6h-Qh", "add 5h to 6h-Qh"):
        assert why(s, text) == f"{name} is a sequence of exactly seven cards: it takes no more"


# --------------------------------------------------------------------------- Bolivia's meld of wild cards

def test_a_natural_card_on_the_meld_of_wild_cards_names_it() -> None:
    """RULES.md, Bolivia only: "Three or more wild cards may be melded together; seven of them
    make a bolivia": its slot is the deuce's, but it is the meld of wild cards, not "of Deuces"."""
    s = position({0: "Kh Ah 5s 9d 7c"}, rules=BOLIVIA, melds={0: ["2c 2s JK", "Kc Kd Ks"]})
    assert "add K" in legal(s)
    assert why(s, "add K to 2") == "A King cannot go on the meld of wild cards: it takes only deuces and jokers"
    assert why(s, "add A to 2") == "An Ace cannot go on the meld of wild cards: it takes only deuces and jokers"


def test_a_natural_card_the_hand_lacks_is_refused_for_the_rule_first() -> None:
    """The meld of wild cards "takes only deuces and jokers" whatever the hand holds: without a
    King in hand, ``add K to 2`` is refused for that, not as "You hold 0 Kings; the meld needs 1"
    (which read as if a King would do); a plain ``add K`` without one says "You hold no King"."""
    s = position({0: "Qh 5s 9d 8c"}, rules=BOLIVIA, melds={0: ["2c 2s JK", "Kc Kd Ks", "Ac Ad As"]})
    assert why(s, "add K to 2") == "A King cannot go on the meld of wild cards: it takes only deuces and jokers"
    assert why(s, "add K to A") == "A King cannot go on the meld of Aces"
    assert why(s, "add K to Q") == "Your side has no meld of Queens to add to"
    assert why(s, "add K") == "You hold no King"


def test_a_second_meld_of_wild_cards_beside_one_short_of_a_bolivia_names_it() -> None:
    """RULES.md: "Once a side's meld of a rank is a canasta, it may start another of that rank";
    until then the wild cards go onto the meld of wild cards the side has."""
    s = position({0: "2h 2d JK 5s 9d"}, rules=BOLIVIA, melds={0: ["2c 2s JK", "Ac Ad As"]})
    assert "add 2" in legal(s) and "meld 2 2 JK" not in legal(s)
    assert why(s, "meld 2 2 JK") == "Your side already has a meld of wild cards: add to it"
    # suits written on wild cards are read (they do not matter): the same meld
    assert parse_action("meld 2h 2d JK") == parse_action("meld 2 2 JK")


def test_a_meld_of_wild_cards_refused_for_the_last_card_says_so() -> None:
    """Bolivia: "At least one of the two canastas must be a sequence canasta"; a meld of three
    wild cards that would leave one card the player could not discard is refused for that, not
    as "A meld needs at least two natural cards" (a meld of wild cards needs none)."""
    s = position({0: "2h 2d JK 9d"}, rules=BOLIVIA, melds={0: ["Ac Ad As"]})
    assert "meld 2 2 JK" not in legal(s)
    assert why(s, "meld 2 2 JK") == ("That would leave you one card, which you could not discard: "
                                     "your side needs two canastas (one of them an escalera) to go out")


def test_samba_has_no_meld_of_wild_cards_to_add_to() -> None:
    """Bicycle, Samba: "Wild cards may not be melded separately" (RULES.md: in Bolivia only
    "Three or more wild cards may be melded together")."""
    s = position({0: "2h 5s 9d"}, rules=SAMBA, melds={0: ["Ac Ad As"]})
    assert why(s, "add 2 to 2") == "Jokers and deuces may never be melded apart from natural cards"


# --------------------------------------------------------------------------- a further meld of a rank

def test_a_further_meld_of_a_rank_refused_for_the_last_card_says_so() -> None:
    """Bicycle, Samba: "A side may have two canastas in the same rank": beside a canasta of Kings
    a new meld of Kings is allowed, so when it is refused (it would leave a card that cannot be
    discarded with one canasta) the reason is that, not "already has a meld of Kings"."""
    s = position({0: "Kh Kd Kc 9d"}, rules=SAMBA, melds={0: ["Kc Kd Ks Kh Kc Kd Ks"]})
    assert "meld K K K" not in legal(s)
    assert why(s, "meld K K K") == ("That would leave you one card, which you could not discard: "
                                    "your side needs two canastas to go out")
    more = position({0: "Kh Kd Kc 9d 8s"}, rules=SAMBA, melds={0: ["Kc Kd Ks Kh Kc Kd Ks"]})
    assert "meld K K K" in legal(more)


@pytest.mark.parametrize(("preset", "rank", "name"), [("samba", "K", "Kings"), ("samba", "2", "wild cards"),
                                                     ("bolivia", "2", "wild cards")])
def test_join_with_no_meld_of_the_rank_says_there_is_none(preset: str, rank: str, name: str) -> None:
    """Bicycle, Samba: a side "may combine its melds in the same rank at any time": with no meld
    of the rank there is nothing to join, and the refusal says so rather than "only one meld"."""
    s = position({0: "Qh 5s 9d 8c"}, rules=load_rules(preset), melds={0: ["Ac Ad As"]})
    assert why(s, f"join {rank}") == f"Your side has no meld of {name}: there is nothing to join"
    assert why(s, "join A") == "Your side has only one meld of Aces: there is nothing to join"


# --------------------------------------------------------------------------- the notation

@pytest.mark.parametrize("text", ["add JK to 9h-Jh", "add 2h to 9h-Jh", "meld 7h 8h JK", "meld 7h 8h 2h",
                                  "add 10c to 7h-9h", "add 10h to 7h-9h", "add Ac to Jc-Kc"])
def test_sequence_notation_with_any_card_round_trips(text: str) -> None:
    """A game log holds these words: each reads back to the same action, a refused one too, so
    that its refusal can be given by the rules rather than by the reader."""
    a = parse_action(text)
    assert str(a) == text and parse_action(str(a)) == a


@pytest.mark.parametrize(("text", "says"), [
    ("add 10 to 7h-9h", "name the card with its suit (like add 10h to 7h-9h)"),
    ("add 10h to 7h-9c", "its lowest and highest cards are of one suit"),
    ("meld 7h 8s 9h", "a sequence is of cards of one suit"),
    ("meld 7h 8 9h", "name every natural card with its suit"),
])
def test_sequence_notation_that_cannot_be_read_says_why(text: str, says: str) -> None:
    """What the reader refuses is what no action can hold: a sequence of two suits, a card of a
    sequence without its suit."""
    with pytest.raises(InvalidActionError, match=f"^cannot read {re.escape(repr(text))}: .*{re.escape(says)}"):
        parse_action(text)

