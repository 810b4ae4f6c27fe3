"""Public events: what everybody at the table saw happen, as small values.

An event holds only public facts: who acted, and the cards that were shown (melded,
added, discarded, laid out, the upcard taken).  A card drawn from the stock is never
named.  The log text, the hot-seat "since your last turn" recap and a reconnecting
player's catch-up are all renderings of events (:func:`describe`), and the events of a
hand are a pure function of its deck and action log (:func:`hand_events`), so a
resumed game rebuilds them from the save.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from enum import StrEnum
from typing import NamedTuple

from ..engine import Action, GameState, Phase, Rules, deal, end_text, player_name
from ..engine.actions import ActionKind as AK
from ..engine.actions import target_span
from ..engine.cards import DEUCE, IS_WILD, RANK_OF, SUIT_OF, THREE, card_text, plural, sequence_position
from ..engine.match import replay_steps
from ..engine.moves import sequence_slot


class EventKind(StrEnum):
    """What an event tells, in Canasta's words (a ``str``: its value is the word)."""

    DEALT = "dealt"
    LAID_OUT = "laid_out"          # a red three laid out (cards)
    DREW = "drew"                  # amount: how many cards (never which)
    TOOK_PILE = "took_pile"        # cards: upcard then the hand's cards melded with it; amount: pile size; rank
    MELDED = "melded"              # cards; rank
    ADDED = "added"                # cards; rank: the meld they joined
    DISCARDED = "discarded"        # cards: the one card
    ASKED = "asked"
    ANSWERED = "answered"          # text: "yes" or "no"
    TOOK_BACK = "took_back"        # undo: cards back in the hand (they had been on the table)
    PUT_BACK = "put_back"          # unpile; amount: the penalty
    ENDED = "ended"                # a player ended the hand (stock exhausted)
    WENT_OUT = "went_out"          # text: "concealed" or ""
    HAND_OVER = "hand_over"        # text: why play ended (when nobody went out)


DEALT = EventKind.DEALT
LAID_OUT = EventKind.LAID_OUT
DREW = EventKind.DREW
TOOK_PILE = EventKind.TOOK_PILE
MELDED = EventKind.MELDED
ADDED = EventKind.ADDED
DISCARDED = EventKind.DISCARDED
ASKED = EventKind.ASKED
ANSWERED = EventKind.ANSWERED
TOOK_BACK = EventKind.TOOK_BACK
PUT_BACK = EventKind.PUT_BACK
ENDED = EventKind.ENDED
WENT_OUT = EventKind.WENT_OUT
HAND_OVER = EventKind.HAND_OVER


class Event(NamedTuple):
    """One public event.  ``seq`` numbers the events of a game from 1; ``hand`` from 1."""

    seq: int
    hand: int
    kind: EventKind
    seat: int = -1                 # who did it (-1: the table)
    cards: tuple[int, ...] = ()
    amount: int = 0                # DREW: cards drawn; TOOK_PILE: the cards taken off the pile; PUT_BACK: the penalty
    rank: int = 0
    text: str = ""


def _new_red_threes(before: GameState, after: GameState) -> Iterator[tuple[int, int]]:
    for p in range(len(after.red_threes)):
        for c in after.red_threes[p][len(before.red_threes[p]):]:
            yield p, c


def deal_events(state: GameState, hand: int) -> list[Event]:
    """The deal, and the red threes laid out before anybody acted (the first player's)."""
    out = [Event(0, hand, DEALT, state.dealer)]
    out += [Event(0, hand, LAID_OUT, p, (c,)) for p in range(len(state.red_threes)) for c in state.red_threes[p]]
    return out


def action_events(before: GameState, action: Action, after: GameState, hand: int) -> list[Event]:
    """What everybody saw ``action`` do (``seq`` still 0: the table numbers them)."""
    seat = before.actor
    k = action.kind
    out: list[Event] = []

    def add(kind: EventKind, **kw: object) -> None:
        out.append(Event(0, hand, kind, seat, **kw))  # type: ignore[arg-type]

    tm = before.team_of(seat)
    if k == AK.DRAW:
        add(DREW, amount=len(after.hands[seat]) - len(before.hands[seat]))
    elif k == AK.PILE:
        up = before.pile[-1]
        used = tuple(after.t.melded)
        # The cards that left the pile: all of it, or the upcard alone (Windows 2008, stock empty).
        add(TOOK_PILE, cards=(up, *used), amount=len(before.pile) - len(after.pile), rank=RANK_OF[up])
    elif k in (AK.MELD, AK.ADD):
        cards = tuple(after.t.melded[len(before.t.melded):])
        key = action.target if k == AK.ADD else (DEUCE if all(RANK_OF[c] in (DEUCE, 14) for c in cards) else action.ranks[0])
        if action.is_sequence:
            # Samba, Bolivia: a sequence is named by its slot in the side's row (15 and up).
            row = before.melds[tm]
            key = len(row) if k == AK.MELD else sequence_slot(row, SUIT_OF[action.card], *target_span(action.target))
        add(MELDED if k == AK.MELD else ADDED, cards=cards, rank=key)
    elif k == AK.DISCARD:
        add(DISCARDED, cards=(action.card,))
    elif k == AK.ASK:
        add(ASKED)
    elif k in (AK.YES, AK.NO):
        add(ANSWERED, text=k.value)
    elif k == AK.UNDO:
        gone = tuple(before.t.melded[len(after.t.melded):])
        row = before.melds[tm]
        now = after.melds[tm]
        rank = next((r for r in range(len(row)) if row[r] is not None and (r >= len(now) or row[r] != now[r])), 0)
        gone_meld = row[rank]
        if rank >= 15 and gone_meld is not None and gone_meld.suit < 0:
            rank = gone_meld.rank  # a further meld of a rank is named by its rank
        add(TOOK_BACK, cards=gone, rank=rank)
    elif k == AK.UNPILE:
        add(PUT_BACK, amount=before.rules.undo_pile_penalty)
    elif k == AK.END:
        add(ENDED)
    for p, c in _new_red_threes(before, after):
        out.append(Event(0, hand, LAID_OUT, p, (c,)))
    if after.phase == Phase.HAND_OVER and before.phase != Phase.HAND_OVER:
        if after.went_out >= 0:
            out.append(Event(0, hand, WENT_OUT, after.went_out, text="concealed" if after.concealed else ""))
        else:
            out.append(Event(0, hand, HAND_OVER, text=end_text(after.end_reason)))
    return out


def hand_events(rules: Rules, deck: Sequence[int], dealer: int, scores: Sequence[int],
                actions: Sequence[Action], hand: int) -> list[Event]:
    """Every public event of one hand, rebuilt from its deck and actions (``seq`` 0)."""
    state = deal(rules, deck, dealer, scores)
    out = deal_events(state, hand)
    # The actions of a loaded game, replayed as the loader replays them (earlier rules' too).
    for before, a, after in replay_steps(state, actions, earlier_rules=True):
        out += action_events(before, a, after, hand)
    return out


def meld_starters(events: Sequence[Event], rules: Rules) -> dict[tuple[int, int], int]:
    """Who started each meld of the current hand: (side, rank) -> seat.

    The DOS table puts a meld in the quadrant of the player who made it ("When a player
    chooses to Meld, each card is placed on the table in the proper quadrant"); cards a
    partner adds go onto that meld, wherever it is.  Public events say it all: a meld is
    started by ``melded`` (or by taking the pile for a new meld); a meld made again after it
    was taken back belongs to whoever made it again.
    """
    from ..engine import team

    out: dict[tuple[int, int], int] = {}
    hand = events[-1].hand if events else 0
    for e in events:
        if e.hand != hand or e.seat < 0:
            continue
        key = (team(e.seat, rules), e.rank)
        if e.kind == MELDED:
            out[key] = e.seat
        elif e.kind == TOOK_PILE and key not in out:
            out[key] = e.seat
    return out


def merged(prev: Event, e: Event) -> Event | None:
    """One event for two that read as one move: cards added to the meld just made or added to
    by the same player ("melded K♣ K♠ K♥" + "added K♦ to the Kings" = "melded K♣ K♠ K♥ K♦")."""
    if e.kind == ADDED and prev.kind in (MELDED, ADDED) and prev.seat == e.seat and prev.rank == e.rank \
            and prev.hand == e.hand:
        cards = prev.cards + e.cards
        if e.rank >= 15 and not any(IS_WILD[c] for c in cards):
            # A sequence (Samba, Bolivia) reads in order, whichever end the cards went on: "9♥ 10♥ J♥".
            cards = tuple(sorted(cards, key=lambda c: sequence_position(RANK_OF[c])))
        return prev._replace(cards=cards, seq=e.seq)
    return None


def coalesced(events: Sequence[Event]) -> list[Event]:
    """The events with consecutive additions to one meld merged (what the log shows)."""
    out: list[Event] = []
    for e in events:
        m = merged(out[-1], e) if out else None
        if m is not None:
            out[-1] = m
        else:
            out.append(e)
    return out


def _cards(cards: Sequence[int]) -> str:
    return " ".join(card_text(c, True) for c in cards)


def _meld_name(rank: int) -> str:
    if rank >= 15:
        return "sequence"
    if rank == DEUCE:
        return "wild cards"
    if rank == THREE:
        return "black threes"
    return plural(rank)


def _what(e: Event) -> str:
    """What the event's player did, without their name ("discarded 7♥")."""
    k = e.kind
    if k == LAID_OUT:
        return f"laid out {_cards(e.cards)}"
    if k == DREW:
        # (0: the last card of the stock was a red three, laid out with nothing to replace it)
        return "drew" + ("" if e.amount <= 1 else f" {e.amount} cards")
    if k == TOOK_PILE:
        up, used = e.cards[0], e.cards[1:]
        how = f"with {_cards(used)}" if used else f"onto their {_meld_name(e.rank)}"
        size = f"{e.amount} card" + ("" if e.amount == 1 else "s")
        if e.amount == 1 and not used:
            return f"took the upcard {card_text(up, True)} {how}"
        return f"took the pile ({size}): {card_text(up, True)} {how}"
    if k == MELDED:
        return f"melded {_cards(e.cards)}"
    if k == ADDED:
        return f"added {_cards(e.cards)} to the {_meld_name(e.rank)}"
    if k == DISCARDED:
        return f"discarded {_cards(e.cards)}"
    if k == ASKED:
        return "asked: May I go out, partner?"
    if k == ANSWERED:
        return f"answered {e.text.capitalize()}"
    if k == TOOK_BACK:
        return f"took back {_cards(e.cards)}" if e.cards else "took back a meld"
    if k == PUT_BACK:
        return f"put the pile back ({e.amount}-point penalty)"
    if k == ENDED:
        return "ended the hand"
    if k == WENT_OUT:
        return "went out" + (" concealed" if e.text else "")
    return k.value


def describe(e: Event, name: Callable[[int], str] = player_name) -> str:
    """The log line of an event, with suit symbols (the screen turns them into letters for --ascii)."""
    if e.kind == DEALT:
        return f"Hand {e.hand}: {name(e.seat)} dealt"
    if e.kind == HAND_OVER:
        return f"The hand ended: {e.text}"
    return f"{name(e.seat)} {_what(e)}"


def recap(events: Sequence[Event], name: Callable[[int], str] = player_name, skip: int = -1) -> list[str]:
    """What happened, one line per player's run of moves ("Player 2 drew, melded 4♣ 4♥ 4♥,
    discarded 6♠"): short enough that every player's discard fits the hot-seat recap.
    Moves of seat ``skip`` (the reader's own) are left out; the deal is not a move."""
    out: list[str] = []
    seat = -2
    parts: list[str] = []
    for e in coalesced(events):
        if e.kind == DEALT or e.seat == skip:
            continue
        if e.kind == HAND_OVER:
            who, what = -1, describe(e, name)
        else:
            who, what = e.seat, _what(e)
        if who != seat and parts:
            out.append((f"{name(seat)} " if seat >= 0 else "") + ", ".join(parts))
            parts = []
        seat = who
        parts.append(what)
    if parts:
        out.append((f"{name(seat)} " if seat >= 0 else "") + ", ".join(parts))
    return out


__all__ = [
    "ADDED",
    "ANSWERED",
    "ASKED",
    "DEALT",
    "DISCARDED",
    "DREW",
    "ENDED",
    "HAND_OVER",
    "LAID_OUT",
    "MELDED",
    "PUT_BACK",
    "TOOK_BACK",
    "TOOK_PILE",
    "WENT_OUT",
    "Event",
    "EventKind",
    "action_events",
    "coalesced",
    "deal_events",
    "describe",
    "hand_events",
    "merged",
    "recap",
]
