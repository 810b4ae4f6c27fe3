"""A meld of one rank, an add and a pile take that name the copies to use (``meld 9h 9h 9s``).

Classic Canasta never asks which nine: "Suits have no significance" (DOS manual, Chapter 2).
In Samba and Bolivia they do: a sequence is "three or more cards of the same suit in sequence"
(Bicycle, Samba), so the nine a player keeps may be the one their sequence needs.  The legal
actions name ranks only (the computers choose among them, and their counts stay as they were);
an action naming the copies is legal when its rank-only form is and the hand holds those cards.
"""

from __future__ import annotations

from collections import Counter

import pytest
from positions import cards, legal, position, run, why

from canasta_tui.engine import (
    IllegalActionError,
    Phase,
    apply,
    explain,
    is_legal,
    legal_actions,
    new_match,
    parse_action,
    play,
    record,
)
from canasta_tui.engine.actions import with_cards
from canasta_tui.engine.moves import _SORTED_DECKS
from canasta_tui.presets import load_rules

SAMBA = load_rules("samba")


def _hand(s, seat: int = 0) -> Counter[int]:  # type: ignore[no-untyped-def]
    return Counter(s.hands[seat])


def _samba(hand: str, **kw) -> object:  # type: ignore[no-untyped-def]
    return position({0: hand, 1: "4c 5c 6c", 2: "4d 5d 6d", 3: "4s 5s 6s"}, rules=SAMBA,
                    requirements=(0, 0), **kw)


def test_group_meld_takes_the_named_copies() -> None:
    """Bicycle, Samba: a sequence is "three or more cards of the same suit in sequence": holding
    9c 9h 9h 9s, ``meld 9h 9h 9s`` melds those and keeps 9c (the first copy is 9c)."""
    s = _samba("9c 9h 9h 9s 10c Jc Kd Kd Qs Qs", melds={0: ["Ac Ad As"]})
    after = run(s, "meld 9h 9h 9s")
    m = after.melds[0][9]
    assert m is not None and sorted(m.naturals) == sorted(cards("9h 9h 9s"))
    assert _hand(after)[cards("9c")[0]] == 1
    # The rank-only form keeps the old meaning: the first copies in the hand (9c 9h 9h).
    first = run(s, "meld 9 9 9")
    assert sorted(first.melds[0][9].naturals) == sorted(cards("9c 9h 9h"))  # type: ignore[union-attr]


def test_named_meld_with_a_wild_card_and_named_add() -> None:
    """A wild card is any copy ("Deuces and jokers are wild", Bicycle); the natural cards named."""
    s = _samba("9c 9h 9s 9d 2c Kd Kd Qs Qs 5h", melds={0: ["Ac Ad As"]})
    after = run(s, "meld 9s 9d 2", "add 9h")
    m = after.melds[0][9]
    assert m is not None and sorted(m.naturals) == sorted(cards("9s 9d 9h")) and len(m.wilds) == 1
    assert cards("9c")[0] in after.hands[0]


def test_pile_with_a_named_pair() -> None:
    """Bicycle, Samba: the pile may be taken "with a natural pair matching the top card": the
    pair the player names leaves the hand."""
    s = _samba("9c 9h 9s Kd Kd Kd Qs Qs 5h 6h", phase=Phase.DRAW, pile="4c 9d", melds={0: ["Ac Ad As"]})
    after = run(s, "pile 9h 9s")
    m = after.melds[0][9]
    assert m is not None and sorted(m.naturals) == sorted(cards("9d 9h 9s"))
    assert cards("9c")[0] in after.hands[0]


def test_named_cards_not_held_are_refused_with_the_reason() -> None:
    """Every bad input gets a clear message: the cards named must be in the hand."""
    s = _samba("9c 9h 9h 9s 10c Jc Kd Kd Qs Qs", melds={0: ["Ac Ad As"]})
    assert why(s, "meld 9s 9s 9h") == "You do not hold 9s 9s 9h"
    with pytest.raises(IllegalActionError, match="You do not hold 9s 9s 9h"):
        run(s, "meld 9s 9s 9h")
    # A named action whose rank-only form is not legal gets that form's reason.
    assert why(s, "meld Qs Qs 2") == why(s, "meld Q Q 2")
    assert why(s, "meld 9h 9h 9s") is None
    assert is_legal(s, parse_action("meld 9h 9h 9s")) and not is_legal(s, parse_action("meld 9s 9s 9h"))
    # Cards that are not the action's own (built by hand, not read): refused, not applied.
    bad = parse_action("meld 9h 9h 9s")._replace(cards=cards("Kd Kd Kd"))
    assert "names cards that are not the ones it melds" in (explain(s, bad) or "")
    with pytest.raises(IllegalActionError):
        apply(s, bad)


def test_legal_actions_stay_rank_only() -> None:
    """The enumeration is unchanged: no legal action names copies (the perft counts of
    ``test_perft`` check the numbers)."""
    s = _samba("9c 9h 9h 9s 10c Jc Kd Kd Qs Qs", melds={0: ["Ac Ad As"]})
    assert all(not a.cards for a in legal_actions(s))
    assert "meld 9 9 9" in legal(s)
    assert with_cards(parse_action("meld 9 9 9"), cards("9s 9h 9h")) == parse_action("meld 9s 9h 9h")
    assert with_cards(parse_action("meld 9 9 2"), cards("2c 9s 9h")) == parse_action("meld 9s 9h 2")
    with pytest.raises(ValueError):
        with_cards(parse_action("meld 9 9 9"), cards("9s 9h Kd"))


def test_a_game_with_named_copies_saves_and_loads() -> None:
    """The game log holds the new notation (save format 4) and replays to the same position."""
    import random
    deck = list(_SORTED_DECKS[3])
    random.Random(5).shuffle(deck)
    m = new_match(SAMBA, deck, first_dealer=3)
    s = m.state
    # Play until the player to act can meld a group, then meld it naming the last copies.
    for _ in range(400):
        s = m.state
        groups = [a for a in legal_actions(s) if a.kind.value == "meld" and a.card < 0 and a.ranks[0] != 2]
        if groups:
            a = groups[0]
            hand = list(s.hands[s.turn])
            picked = []
            for r in a.ranks:
                c = next(x for x in reversed(hand) if x // 4 == r)
                hand.remove(c)
                picked.append(c)
            named = with_cards(a, picked)
            m = play(m, named)
            break
        m = play(m, legal_actions(s)[0])
    else:
        pytest.fail("no group meld came up")
    text = record.dumps(m)
    assert f'"{named}"' in text and '"version": 4' in text
    again = record.loads(text)
    assert again.state == m.state and again.log == m.log
