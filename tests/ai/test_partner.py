"""A partner worth having (issue 20): the computer partner feeds its partner's melds, keeps
the pile safe when the other side is close, answers "May I go out?" from what it can see,
and asks where a good partner would.

Each test sets up a position, names the rule of play it checks (the DOS manual's "Strategy"
and "Asking Permission", ``canasta-dos-1994.txt`` in rules/README.md's sources, quoted as DOS) and
asserts what the levels do.  Beginner and Advanced are the bench's yardsticks: where the
Expert's partner habits (``Style.partner``) differ from them, the test says so.  Seat 0 and
seat 2 are partners; play goes 0, 1, 2, 3.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from canasta_tui.ai.heuristic import (
    ADVANCED,
    BEGINNER,
    EXPERT,
    EXPERT_AGGRESSIVE,
    Style,
    TurnMemory,
    best_discard,
    deal_after_ask,
    decide,
    go_out_plan,
)
from canasta_tui.engine import GameState, Phase, apply, full_deck, unseen_cards, view_for
from canasta_tui.engine import actions as A
from canasta_tui.engine.cards import card_text

from .helpers import cards, position

CANASTA = "Kh Kd Kc Ks Kh Kd 2c"


def fair(hands: dict[int, str], **kw: object) -> GameState:
    """A position a real deal could reach: no card more than twice (seats not given hold
    five low cards still free) and a stock of exactly the cards nobody can see, so that the
    Expert's sampled deals fit it."""
    hands = dict(hands)
    used = [c for h in hands.values() for c in cards(h)] + list(cards(str(kw.get("pile", "7c 9d"))))
    for text in [t for row in dict(kw.get("melds") or {}).values() for t in row]:  # type: ignore[call-overload]
        used += cards(text)
    assert not {card_text(c) for c in used if used.count(c) > 2}, "a card more than twice"
    free = [c for c in cards("4c 4d 4h 4s 5c 5d 5h 5s 6c 6d 6h 6s 7c 7d 7h 7s")
            for _ in range(2 - used.count(c))]
    for p in range(4):
        if p not in hands:
            hands[p], free = " ".join(card_text(c) for c in free[:5]), free[5:]
    s = position(hands, **kw)  # type: ignore[arg-type]
    v = view_for(s, s.actor)
    stock = len(unseen_cards(v)) - sum(len(h) for p, h in enumerate(s.hands) if p != v.seat)
    return position(hands, stock=stock, **kw)  # type: ignore[arg-type]


def play_turn(s: GameState, style: Style) -> list[str]:
    """Seat 0's turn played by ``style`` to its end; its actions in the game's notation."""
    mem = TurnMemory()
    done: list[str] = []
    while s.turn == 0 and s.phase == Phase.MELD and len(done) < 30:
        v = view_for(s, 0)
        a = decide(v, style, mem)
        assert a in v.legal
        done.append(str(a))
        s = apply(s, a)
    return done


def discard(s: GameState, style: Style) -> str:
    v = view_for(s, s.actor)
    return str(best_discard(v, style, [a for a in v.legal if a.kind == A.DISCARD]))


def answer(s: GameState, style: Style) -> str:
    v = view_for(s, 2)
    assert v.legal == (A.A_YES, A.A_NO)
    return str(decide(v, style, TurnMemory()))


# --------------------------------------------------------------------------- feeds its partner's melds

@pytest.mark.parametrize("style", [BEGINNER, ADVANCED, EXPERT, EXPERT_AGGRESSIVE])
def test_completes_the_canasta_its_partner_started(style: Style) -> None:
    """DOS "Going Out": "The player's side must have melded at least one Canasta."  The
    partner started six Kings and holds two cards: the King in this hand goes on first, so
    that the side has its canasta and the partner may go out."""
    s = fair({0: "Kc 5d 7s 8h Qc Jd", 2: "4h 6c"}, melds={0: ["Kh Kd Kc Ks Kh Kd", "9h 9d 9c"]})
    assert play_turn(s, style)[0] == "add K"


@pytest.mark.parametrize("style", [ADVANCED, EXPERT])
def test_a_wild_card_finishes_the_partners_meld_when_the_side_needs_its_canasta(style: Style) -> None:
    """DOS "Strategy": "Make mixed Canastas fast rather than wait for natural Canastas."
    Five Queens on the table, a Queen and a deuce in hand: both go on, and the side has the
    canasta it needs to go out."""
    s = fair({0: "Qs 2h 7s 8d 9c 5h", 2: "4c 5d"}, melds={0: ["Qh Qd Qc Qh 2d", "Jh Jd Jc"], 1: ["10c 10h 10d"]})
    done = play_turn(s, style)
    assert done[:2] == ["add Q", "add 2 to Q"] and done[-1].startswith("discard")


def test_gets_its_points_down_when_its_partner_may_go_out() -> None:
    """DOS "Scoring": at the end each side "deducts any ... un-played cards".  The side has
    its canasta and the partner holds two cards: it may go out at its next turn (a partner
    need not ask), and three Aces kept back would cost the side 60 instead of scoring 60.
    The Expert melds them down to two cards; Advanced (the yardstick) keeps five cards back
    as before.  With the partner holding nine cards the Expert keeps its three cards."""
    hands = {0: "Ah Ad Ac 7s 8d", 1: "4s 5s 6s 7d 9d", 3: "4h 5h 6d 7c 9h"}
    melds = {0: [CANASTA, "9h 9s 9c"], 1: ["Qc Qh Qd"]}
    soon = fair({**hands, 2: "4c 5d"}, melds=melds)
    assert play_turn(soon, EXPERT) == ["meld A A A", "discard 7s"]
    assert play_turn(soon, ADVANCED) == ["discard 7s"]
    later = fair({**hands, 2: "4c 5d 6h 7h 8h 10h Jh Qs Js"}, melds=melds)
    assert play_turn(later, EXPERT) == ["discard 7s"]


@pytest.mark.parametrize("style", [ADVANCED, EXPERT])
def test_throws_a_card_its_side_has_melded_not_one_the_next_opponent_takes_the_pile_with(style: Style) -> None:
    """DOS "Strategy": "The object of the game is to take the pack."  The next player is an
    opponent whose side has melded Queens: a Queen gives them the pile of six.  A Nine (the
    side's meld) goes on the pile instead: the opponent needs a natural pair to take it,
    and if the pile comes round to the partner the Nine goes onto the side's meld."""
    s = fair({0: "9c Qs 5h Jh 4d", 2: "4h 6c 7c 8d"}, melds={0: [CANASTA, "9h 9d 9s"], 1: ["Qh Qd Qc"]},
             pile="7c 9d 6h 8c 10d 4s")
    assert discard(s, style) == "discard 9c"


# --------------------------------------------------------------------------- keeps the pile safe

CLOSE = {1: ["Ah Ad Ac As Ah Ad 2d", "Kh Kd Ks", "9c 9d 9h", "7c 7s 7d"]}
BIG_PILE = "7c 9d 6h 8c 10d 4s Jh Js 5d 6s 8h"


@pytest.mark.parametrize("style", [ADVANCED, EXPERT, EXPERT_AGGRESSIVE])
def test_a_stop_card_when_the_other_side_is_close_and_the_pile_big(style: Style) -> None:
    """Classic online rules: "By discarding a black three you prevent the next player from
    taking the discard pile."  The other side has a canasta and three cards each, the pile
    eleven: the black three goes, not the deuce (kept for a canasta) nor a card they have
    melded."""
    s = fair({0: "2c 7h 7d Kc Qd 3s", 1: "4c 5c 6c", 3: "4h 5h 6h"}, melds={0: ["8h 8d 8c"], **CLOSE},
             pile=BIG_PILE)
    assert discard(s, style) == "discard 3s"


@pytest.mark.parametrize("style", [ADVANCED, EXPERT, EXPERT_AGGRESSIVE])
def test_freezes_a_big_pile_with_a_deuce_when_every_other_card_gives_it_away(style: Style) -> None:
    """Windows help: "The discard pile can be frozen by discarding a wildcard ... both players
    are only allowed to take the discard pile if they can meld the top card using only the
    cards in their hand."  The opponents have melded Kings, Nines and Sevens and are close
    (a canasta, three cards each); no stop card in hand: a deuce freezes the eleven cards
    (not the Joker, worth 50, nor a card they lay off and take the pile with)."""
    s = fair({0: "2s JK 7h Kc 9s", 1: "4c 5c 6c", 3: "4h 5h 6h"}, melds={0: ["8h 8d 8c"], **CLOSE},
             pile=BIG_PILE)
    assert discard(s, style) == "discard 2s"


@pytest.mark.parametrize("style", [ADVANCED, EXPERT, EXPERT_AGGRESSIVE])
def test_does_not_spend_a_wild_card_on_a_small_pile(style: Style) -> None:
    """DOS "Strategy": "Make mixed Canastas fast": a deuce is worth more on a meld than
    freezing two cards.  The Queen, a rank nobody has melded, goes instead."""
    s = fair({0: "2s 7h Kc Qd 9s", 1: "4c 5c 6c", 3: "4h 5h 6h"}, melds={0: ["8h 8d 8c"], **CLOSE},
             pile="7c 9d")
    assert discard(s, style) == "discard Qd"


@pytest.mark.parametrize("style", [ADVANCED, EXPERT])
def test_never_gives_the_next_opponent_a_card_it_is_known_to_hold_a_pair_of(style: Style) -> None:
    """The classic rule of taking the pile: the top card and two natural cards of its rank
    from the hand.  The next opponent took two Jacks with an earlier pile and still holds
    them (everyone saw them): a Jack would hand over the pile of eleven, a Four would not."""
    s = fair({0: "Jc 4d 5h 10s 6c", 1: "Jh Jd 9s 10c 5c", 3: "4h 5s 6h"},
             melds={0: ["8h 8d 8c"], 1: ["Kh Kd Ks"]}, pile=BIG_PILE)
    s = s._replace(known=((), cards("Jh Jd"), (), ()))
    assert discard(s, style) != "discard Jc"


# --------------------------------------------------------------------------- answers "May I go out?"

def asked(hands: dict[int, str], melds: dict[int, list[str]], **kw: object) -> GameState:
    """Seat 0 (it holds three Eights and can meld out) has asked; seat 2 answers."""
    return fair({0: "8h 8d 8c", **hands}, melds=melds, phase=Phase.PERMISSION, **kw)


OURS = [CANASTA, "9h 9s 9c"]
MANY = "Ah Ad Ac Qh Qd Qs Jh Jd 9s JK 2d"     # 235 points, nearly all of them meldable


@pytest.mark.parametrize("style", [BEGINNER, ADVANCED, EXPERT])
def test_yes_with_a_cheap_hand(style: Style) -> None:
    """DOS "Scoring": the side that goes out scores 100 for it; three low cards cost it 15."""
    s = asked({2: "4c 5d 6h", 1: "4s 5s 6s 7d", 3: "4h 5h 6d 7c"}, {0: OURS, 1: ["10c 10h 10d"]})
    assert answer(s, style) == "yes"


@pytest.mark.parametrize("style", [ADVANCED, EXPERT])
def test_no_while_holding_many_points_to_meld_at_its_own_turn(style: Style) -> None:
    """DOS "Strategy": "Don't be in a hurry to go out if you have a better chance for
    further scoring."  This hand holds 235 points it can meld at its next turn, and the
    opponents are far from going out."""
    s = asked({2: MANY, 1: "4s 5s 6s 7d 7h 8s", 3: "4h 5h 6d 7c 9h 10s"}, {0: OURS, 1: ["10c 10h 10d"]})
    assert answer(s, style) == "no"


def test_no_when_only_the_opponent_after_it_is_close() -> None:
    """DOS "Asking Permission": "The player is bound by the reply for that round only."
    After a "no" only one opponent plays before this seat melds its 235 points, and the
    asker may go out at its next turn.  That opponent holds six cards; the other one, close
    to going out (a canasta, three cards), plays only after this seat.  The Expert says
    "no"; Advanced (the yardstick) counts both opponents together and says "yes"."""
    s = asked({2: MANY, 1: "4s 5s 6s 7d 7h 8s", 3: "4h 5h 6d"},
              {0: OURS, 1: ["10c 10h 10d 10s 10c 10h 2s"]})
    assert answer(s, EXPERT) == "no"
    assert answer(s, ADVANCED) == "yes"


@pytest.mark.parametrize("style", [ADVANCED, EXPERT])
def test_yes_when_the_next_opponent_could_go_out_first(style: Style) -> None:
    """DOS "Strategy": once the other side is ahead "a good player ... attempts to 'Go Out'
    as quickly as possible".  The opponent who plays next has a canasta and one card: after
    a "no" it may go out before this seat can meld, and the 235 points count anyway."""
    s = asked({2: MANY, 1: "5c", 3: "4h 5h 6d 7c 9h 10s"}, {0: OURS, 1: ["10c 10h 10d 10s 10c 10h 2s"]})
    assert answer(s, style) == "yes"


def test_yes_when_going_out_catches_the_opponents_unmelded() -> None:
    """DOS "Scoring": each side "deducts any ... un-played cards", and a side that has not
    made its initial meld loses its red threes too.  The opponents hold eleven cards each
    and have not melded; this hand's 75 points are meldable (a pair of Aces and a Joker), so
    Advanced says "no"; the Expert says "yes": the 22 cards caught outweigh them."""
    s = asked({2: "Ah Ad JK 4c 5d", 1: "4s 5s 6s 7d 9d 10d Jc Js Qc Qd 10h",
               3: "4h 5h 6d 7c 9h 10s Jh Ac As Ah 5c"}, {0: OURS})
    assert answer(s, EXPERT) == "yes"
    assert answer(s, ADVANCED) == "no"


@pytest.mark.parametrize("style", [BEGINNER, ADVANCED, EXPERT])
def test_no_when_the_side_cannot_reach_its_canasta(style: Style) -> None:
    """DOS "Going Out": "The player's side must have melded at least one Canasta."  Melds of
    three and an asker with three cards: no canasta can be made this turn, from what the
    partner sees; a "yes" would only cost the 100 penalty."""
    s = asked({2: "4c 5d 6h"}, {0: ["Jh Jd Jc", "Ah Ad Ac"]})
    assert answer(s, style) == "no"


# --------------------------------------------------------------------------- asks where a good partner would

LATE = {0: [CANASTA, "9h 9s 9c"], 1: ["Ac Ad Ah As Ac Ad Ah", "Jc Jd Jh Js Jc Jd Jh"]}


@pytest.mark.parametrize("style", [ADVANCED, EXPERT, EXPERT_AGGRESSIVE])
def test_asks_a_partner_who_holds_many_cards(style: Style) -> None:
    """DOS "Asking Permission": "A player is legally entitled to ask, 'May I go out,
    partner?'"  Going out counts the partner's eight cards against the side and only the
    partner knows whether it could meld them: ask (the opponents hold five cards each)."""
    s = fair({0: "8h 8d 8c Qs", 1: "5c 6c 7c 9c 4h", 2: "4c 5d 6h 7s 9s 10c Qd Qh", 3: "4h 5h 6d 7d 9d"},
             melds=LATE)
    assert play_turn(s, style)[0] == "ask"


@pytest.mark.parametrize("style", [ADVANCED, EXPERT, EXPERT_AGGRESSIVE])
def test_goes_out_without_asking_a_partner_with_two_cards(style: Style) -> None:
    """With two cards the partner has little to lose: going out at once is clearly right."""
    s = fair({0: "8h 8d 8c Qs", 1: "5c 6c 7c 9c 4h", 2: "4c 5d", 3: "4h 5h 6d 7d 9d"}, melds=LATE)
    assert play_turn(s, style) == ["meld 8 8 8", "discard Qs"]


def test_goes_out_at_once_when_it_catches_the_opponents_unmelded() -> None:
    """DOS "Scoring": a side that has not melded counts its whole hand against it.  The
    opponents hold eleven cards each and have not melded: the Expert goes out at once
    (a "no" would give them turns to open).  Advanced (the yardstick), ahead on the table
    and unhurried, keeps playing: "Don't be in a hurry to go out"."""
    s = fair({0: "8h 8d 8c Qs", 1: "4s 5s 6s 7d 9d 10d Jc Js Qc Qd 10h", 2: "4c 5d 6h 7s 9s 10c Jd Qh",
              3: "4h 5h 6d 7c 9h 10s Jh Ac As Ah 5c"}, melds={0: [CANASTA, "9h 9s 9c"]})
    assert play_turn(s, EXPERT) == ["meld 8 8 8", "discard Qs"]
    assert "ask" not in play_turn(s, ADVANCED) and play_turn(s, ADVANCED)[-1] == "discard Qs"


# --------------------------------------------------------------------------- the deals an answer is searched in

def test_a_deal_for_the_answer_gives_the_asker_a_hand_that_can_go_out() -> None:
    """DOS "Asking Permission": "Permission may only be asked after the player has drawn but
    before any meld", and here only when going out is possible: the question tells the
    partner that the asker can meld out.  The deals a search answers in (``deal_after_ask``)
    say so too: the asker's hand can go out in every one, whether the side has its canasta
    or must complete it from a meld of four; everything public is the view's, the answerer
    holds its own cards, and every deal is a whole pack of 108."""
    for s in (asked({2: "4c 5d 6h", 1: "4s 5s 6s 7d", 3: "4h 5h 6d 7c"}, {0: OURS, 1: ["10c 10h 10d"]}),
              asked({2: "4c 5d 6h"}, {0: ["Jh Jd Jc Js", "Ah Ad Ac"]})):
        v = view_for(s, 2)
        found = 0
        for seed in range(20):
            w = deal_after_ask(v, random.Random(seed))
            found += go_out_plan(view_for(w, 0), 0) is not None
            assert w.hands[2] == v.hand and w.known == v.known and w.melds == v.melds and w.pile == v.pile
            assert tuple(len(h) for h in w.hands) == v.hand_sizes and len(w.deck) - w.stock_pos == v.stock_size
            table = [c for row in w.melds for m in row if m is not None for c in (*m.naturals, *m.wilds)]
            stock = w.deck[w.stock_pos:]
            assert Counter([*(c for h in w.hands for c in h), *w.pile, *table, *stock]) == \
                Counter(int(c) for c in full_deck(2))
        assert found >= 18


def test_a_deal_for_the_answer_knows_only_what_the_answerer_sees() -> None:
    """The answer never depends on a card the partner cannot see: two positions that differ
    only in the asker's and the opponents' hidden cards give the answerer the same view and
    the same deals."""
    one = asked({2: "4c 5d 6h", 1: "4s 5s 6s 7d", 3: "4h 5h 6d 7c"}, {0: OURS, 1: ["10c 10h 10d"]})
    hands = list(one.hands)
    hands[0], hands[1] = cards("8h 8d 4s"), cards("8c 5s 6s 7d")   # the asker can no longer go out
    other = one._replace(hands=tuple(hands))
    assert view_for(one, 2) == view_for(other, 2)
    for seed in range(5):
        assert deal_after_ask(view_for(one, 2), random.Random(seed)) == \
            deal_after_ask(view_for(other, 2), random.Random(seed))


@pytest.mark.parametrize("style", [ADVANCED, EXPERT, EXPERT_AGGRESSIVE])
def test_goes_out_without_asking_when_the_stock_is_nearly_gone(style: Style) -> None:
    """A "no" binds for the turn ("The player is bound by the reply for that round only"),
    and with three cards left in the stock the hand may end before the next chance: going
    out now is clearly right, the partner's eight cards notwithstanding."""
    s = fair({0: "8h 8d 8c Qs", 1: "5c 6c 7c 9c 4h", 2: "4c 5d 6h 7s 9s 10c Qd Qh", 3: "4h 5h 6d 7d 9d"},
             melds=LATE)
    assert play_turn(s, style)[0] == "ask"
    low = s._replace(stock_pos=len(s.deck) - 3)
    assert view_for(low, 0).stock_size == 3
    assert play_turn(low, style) == ["meld 8 8 8", "discard Qs"]


def test_the_expert_says_yes_when_its_own_hand_is_cheap_and_the_asker_can_go_out() -> None:
    """DOS manual, "Asking Permission": a partner asked "May I go out?" says yes when going out
    pays.  The Expert's search deals the hidden cards so that the asker can go out (its question
    says so); over plain deals the asker mostly could not, and the search turned every "yes"
    into "no" (a "yes" looked like the 100-point penalty for not going out)."""
    from canasta_tui.ai import make_player

    s = asked({2: "4c 5d 6h", 1: "4s 5s 6s 7d", 3: "4h 5h 6d 7c"}, {0: OURS, 1: ["10c 10h 10d"]})
    for seed in range(3):
        assert make_player("expert", seed, budget=0.1).choose(view_for(s, 2)) == A.A_YES
