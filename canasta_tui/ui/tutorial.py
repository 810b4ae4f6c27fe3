"""A first game: one guided hand for a player new to Canasta.

The start menu offers it once (``first_game_offered`` in the settings) and keeps it as ``f``.  It is
a real hand of classic rules on a fixed deal (:func:`first_game_deck`) in which the person, Player
1, draws, makes the initial meld, takes the pile, completes a canasta, asks "May I go out,
partner?" and goes out, in three turns.  The computers only draw and discard the card they drew
(:class:`GuidePlayer`), so the deal shows all of that whatever the person does in between; the
partner answers yes.  The person makes every move: the hint line says which key (``step_for``, a
pure function of the view); any key the step does not expect leaves the first game for the start
menu (the hint line says so).  Nothing is saved and nothing counts in the statistics.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from dataclasses import dataclass

from ..engine import CLASSIC, Action, Phase, PlayerView
from ..engine import actions as A
from ..engine.cards import ACE, IS_RED_THREE, IS_WILD, KING, RANK_OF, card_text, full_deck, parse_card
from ..engine.match import new_match
from ..table import COMPUTER, LOCAL, Seat, Table, local_link
from .controller import Controller
from .dialogs import PileChoice, SheetEnd, WildTarget
from .snapshot import TableSnapshot

#: Player 1's eleven cards, the upcard, and the stock from the top: Player 1 draws the 9♣; the
#: others draw (and discard) K♣, 5♠ and K♠, so the pile is 5♥ 6♣ K♣ 5♠ K♠ when Player 1 takes
#: it with the two Kings; then 8♦, 7♥, 4♠; Player 1's last draw is the 5♦.
PERSON = "Ah Ad Ac Kh Kd 2c 2d JK 9h 9s 6c"
UPCARD = "5h"
STOCK = "9c Kc 5s Ks 8d 7h 4s 5d"
#: Orders the cards nobody is meant to see (the other hands, the rest of the stock).
SEED = 1994
#: Keys that move the cursor or the selection, and the help: always expected (they play nothing).
MOVES = frozenset({"left", "right", "up", "down", "home", "end", "l", "j", "k", "space", "a", "n", "<", ">",
                   "s-left", "s-right", "c-l", "?", "f1"})
LEAVE = "other keys leave the first game"


def _cards(text: str) -> list[int]:
    return [int(parse_card(w)) for w in text.split()]


def first_game_deck() -> list[int]:
    """The 108 cards, top first, dealt by Player 4 so that Player 1 gets :data:`PERSON` and plays
    first.  No other hand holds a red three (laid out, it would take a card of the stock first)."""
    mine, up, stock = _cards(PERSON), _cards(UPCARD), _cards(STOCK)
    rest = Counter(int(c) for c in full_deck(2))
    rest.subtract(Counter(mine + up + stock))
    others = sorted(rest.elements())
    random.Random(SEED).shuffle(others)
    plain = [c for c in others if not IS_RED_THREE[c] and not IS_WILD[c]]
    late = [c for c in others if IS_RED_THREE[c] or IS_WILD[c]]
    deck: list[int] = []
    for i in range(44):                    # the deal goes round from Player 1
        deck.append(mine[i // 4] if i % 4 == 0 else plain.pop())
    return deck + up + stock + plain + late


class GuidePlayer:
    """A computer of the first game: draws, and discards the card it drew; says yes when asked."""

    name = "guide"

    def __init__(self) -> None:
        self.before: Counter[int] = Counter()

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal
        if view.phase == Phase.PERMISSION and A.A_YES in legal:
            return A.A_YES
        if view.phase == Phase.DRAW and A.A_DRAW in legal:
            self.before = Counter(view.hand)
            return A.A_DRAW
        for c in (Counter(view.hand) - self.before):
            if A.discard(c) in legal:
                return A.discard(c)
        return next((a for a in legal if a.kind == A.DISCARD), legal[0])


class FirstGameTable(Table):
    """The first game's table (the app shows it through a :class:`GuidedController`)."""


def first_game_table(name: str = "") -> FirstGameTable:
    """The first game: classic rules, the fixed deal, the person in Player 1's seat."""
    seats = (Seat(LOCAL, name, "beginner"), *(Seat(COMPUTER, "", "beginner") for _ in range(3)))
    return FirstGameTable(CLASSIC, seats, SEED, match=new_match(CLASSIC, first_game_deck(), first_dealer=3),
                          computer_factory=lambda level, seed: GuidePlayer())


@dataclass(frozen=True)
class Step:
    """What the hint line asks now, and the keys that do it (besides :data:`MOVES`)."""

    text: str
    keys: frozenset[str] = frozenset()
    wait: bool = False       # the others play: keys wait (nothing is asked of the person)
    end: bool = False        # over: the next key goes back to the start menu


def _c(text: str) -> str:
    return card_text(int(parse_card(text)), True)


OFF = Step("The hand has left the first game's path: any key goes back to the start menu "
           "(f there plays the first game again)", end=True)


def step_for(v: PlayerView, dialog: object, hand_number: int) -> Step:
    """The step of the first game at the person's view ``v`` (``dialog``: the box open, if any)."""
    row = v.melds[0]
    aces, kings = row[ACE], row[KING]
    if hand_number > 1:
        return Step("That was your first game: any key goes back to the start menu (the help has an FAQ)", end=True)
    if v.phase == Phase.HAND_OVER:
        if dialog is None:
            return Step("That was your first game: any key goes back to the start menu (the help has an FAQ)",
                        end=True)
        return Step("The hand is over: you went out.  Enter shows how it scored, then the score sheet; "
                    "a key there ends the first game", frozenset({"enter"}))
    if v.actor != 0:
        if v.phase == Phase.PERMISSION:
            return Step("Your partner is answering: may you go out?", wait=True)
        return Step("The others play: each draws from the stock and discards onto the pile…", wait=True)
    if isinstance(dialog, PileChoice):
        return Step("Press 1: the upcard goes with your two Kings (" + LEAVE + ")", frozenset({"1"}))
    if isinstance(dialog, WildTarget):
        return Step("Press K: the wild cards go onto your Kings (" + LEAVE + ")", frozenset({"k", "K"}))
    if v.phase == Phase.DRAW:
        if aces is None:
            return Step("First game, step 1 of 10: a turn begins with a draw.  Press d to draw a card from the stock ("
                        + LEAVE + ")", frozenset({"d"}))
        if kings is None:
            if A.pile_with(KING, KING) not in v.legal:
                return OFF
            return Step(f"Step 4 of 10, the pile: the upcard {_c('Ks')} matches your two Kings and your side has melded: "
                        f"p, then 1, takes the whole pile ({LEAVE})", frozenset({"p"}))
        return Step(f"Step 8 of 10: press d to draw ({LEAVE})", frozenset({"d"}))
    if aces is None:
        if A.meld(ACE, ACE, ACE) not in v.legal:
            return OFF
        return Step("Step 2 of 10, the initial meld: a side's first meld must be worth 50; three Aces make 60.  "
                    f"Cursor on an Ace, then m ({LEAVE})", frozenset({"m", "3"}))
    if v.t.drew == "stock" and kings is None:
        return Step(f"Step 3 of 10: a turn ends with a discard onto the pile: put the cursor on the {_c('6c')} and press c ("
                    + LEAVE + ")", frozenset({"c"}))
    if kings is not None and kings.size < 7:
        if any(RANK_OF[c] == KING for c in v.hand):
            return Step(f"Step 5 of 10: the rest of the pile is in your hand.  Cursor on the {_c('Kc')}, then m: it goes "
                        f"onto your Kings ({LEAVE})", frozenset({"m", "1"}))
        return Step("Step 6 of 10: a canasta is a meld of seven.  Press W, then K: your deuces and joker go onto the "
                    f"Kings ({LEAVE})", frozenset({"W"}))
    if v.t.drew == "pile":
        return Step(f"Step 7 of 10: your side has a canasta now, so it may go out.  Discard the {_c('6c')} (cursor on it, c; "
                    f"{LEAVE})", frozenset({"c"}))
    if v.t.permission == 1:
        return Step("Step 10 of 10: your partner said yes.  Go out: put the cursor on a 9 and press m, then on a 5 and m ("
                    + LEAVE + ")", frozenset({"m", "3"}))
    if not v.t.asked:
        if A.A_ASK not in v.legal:
            return OFF
        return Step('Step 9 of 10: you may ask before you go out: press y, "May I go out, partner?" (a yes binds you to go '
                    f"out this turn; {LEAVE})", frozenset({"y"}))
    return OFF


class GuidedController(Controller):
    """The table's screen for the first game: the hint line is the step's, and a key the step does
    not expect leaves the first game for the start menu."""

    def step(self) -> Step:
        c = self.client
        return step_for(c.view(), c.dialog, c.link.hand_number)

    def snapshot(self) -> TableSnapshot:
        snap = super().snapshot()
        c = self.client
        if c.dealing is not None:
            return snap
        return dataclasses.replace(snap, status=self.step().text)

    def handle(self, name: str) -> None:
        c = self.client
        if self.too_small or c.dealing is not None or c.message:
            super().handle(name)                 # the deal, a message: as at any table
            return
        s = self.step()
        if s.end or (isinstance(c.dialog, SheetEnd) and c.view().phase == Phase.HAND_OVER):
            # The score sheet read: back to the menu before the next hand is dealt.
            c.leave("menu")
        elif c.dialog is not None and not isinstance(c.dialog, (PileChoice, WildTarget)):
            super().handle(name)                 # a box the step does not ask about (the help, the score)
        elif s.wait:
            if name in MOVES:                    # the cursor, the help; nothing else while they play
                super().handle(name)
        elif name in s.keys or (c.dialog is None and name in MOVES):
            super().handle(name)
        else:
            c.leave("menu")


def guided(table: Table) -> GuidedController:
    """The first game's screen at ``table`` (tests; the app builds it as it builds any table's)."""
    return GuidedController(local_link(table))


__all__ = ["PERSON", "STOCK", "UPCARD", "FirstGameTable", "GuidePlayer", "GuidedController", "Step",
           "first_game_deck", "first_game_table", "guided", "step_for"]
