"""What one seat may know: the per-seat view given to a player (human UI or computer).

Hidden information is structural: a :class:`PlayerView` is built from the state by
copying only public facts and the seat's own hand, so a player that holds a view
cannot read another hand or the stock.  ``determinize`` turns a view back into a
full position by dealing the unseen cards at random (for computer players that
search); the randomness is handed in.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, NamedTuple

from .actions import Action, ActionKind, parse_action
from .cards import IS_RED_THREE, RANK_NAMES, SUIT_LETTERS, cards_text, full_deck, parse_card, parse_rank
from .errors import CanastaError
from .melds import Meld
from .moves import legal_actions, meld_count, meld_needed, turn_problem
from .rules import Rules, rules_from_dict
from .state import GameState, HandEnd, Penalty, Phase, Turn, end_text, hand_end


class PlayerView(NamedTuple):
    seat: int
    rules: Rules
    phase: Phase
    turn: int
    actor: int
    dealer: int
    turn_number: int
    hand: tuple[int, ...]                     # this seat's own cards
    hand_sizes: tuple[int, ...]               # every player's card count
    known: tuple[tuple[int, ...], ...]        # per seat: cards known to be in that hand (taken from the pile)
    melds: tuple[tuple[Meld | None, ...], ...]
    red_threes: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...]                     # every card in the pile was seen going in; pile[-1] is the upcard
    frozen: bool
    stock_size: int
    stock_turned: bool
    requirements: tuple[int, ...]
    has_melded: tuple[bool, ...]
    penalties: tuple[int, ...]
    t: Turn                                   # the current turn (public part; undo history removed)
    meld_count: int                           # initial-meld points melded this turn
    meld_needed: int                          # what the turn must reach (0 once the side has melded)
    legal: tuple[Action, ...]                 # this seat's legal actions when it is to act
    went_out: int
    concealed: bool
    end_reason: HandEnd | None
    penalty_log: tuple[Penalty, ...]          # every penalty of the hand, with its reason
    aside: tuple[int, ...]                    # the rest of a taken pile, waiting for the initial meld (public)
    problem: str = ""                         # to act, no discard legal: why the turn cannot end yet
    undoable: int = 0                         # to act: how many melds of this turn ``undo`` can take back

    @property
    def upcard(self) -> int | None:
        return self.pile[-1] if self.pile else None

    @property
    def pile_size(self) -> int:
        return len(self.pile)

    @property
    def waiting(self) -> int:
        """Cards of a taken pile waiting for the initial meld (they come into the hand then)."""
        return len(self.aside)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-safe data: cards as text (``"Kh 10s JK"``), actions in their notation,
        the rules as ``Rules.to_dict``.  :meth:`from_dict` reads it back to an equal view."""
        return view_to_dict(self)

    @staticmethod
    def from_dict(data: Any) -> PlayerView:
        return view_from_dict(data)


#: The seat of a spectator's view: no hand, no actions.
PUBLIC = -1


def view_for(s: GameState, seat: int) -> PlayerView:
    """The view of ``s`` for ``seat``: its own hand and what everyone can see."""
    if not 0 <= seat < s.rules.players:
        raise ValueError(f"no seat {seat} at this table (seats 0 to {s.rules.players - 1}; public_view for a spectator)")
    return _view(s, seat)


def public_view(s: GameState) -> PlayerView:
    """What a spectator sees: everything on the table and each hand's size, no hand's cards
    (``seat`` is :data:`PUBLIC`, ``hand`` and ``legal`` are empty)."""
    return _view(s, PUBLIC)


def _view(s: GameState, seat: int) -> PlayerView:
    t = s.t._replace(prev=None, pile_undo=None, own=s.t.own if seat == s.turn else None)
    acting = s.actor == seat and s.phase != Phase.HAND_OVER
    legal = tuple(legal_actions(s)) if acting else ()
    return PlayerView(
        seat=seat, rules=s.rules, phase=s.phase, turn=s.turn, actor=s.actor, dealer=s.dealer,
        turn_number=s.turn_number, hand=s.hands[seat] if seat != PUBLIC else (),
        hand_sizes=tuple(len(h) for h in s.hands),
        known=s.known, melds=s.melds, red_threes=s.red_threes, pile=s.pile, frozen=s.frozen,
        stock_size=s.stock_size, stock_turned=s.stock_turned, requirements=s.requirements,
        has_melded=s.has_melded, penalties=s.penalties, t=t,
        meld_count=meld_count(s) if s.phase != Phase.HAND_OVER else 0,
        meld_needed=meld_needed(s) if s.phase != Phase.HAND_OVER else 0,
        legal=legal,
        went_out=s.went_out, concealed=s.concealed, end_reason=s.end_reason, penalty_log=s.penalty_log,
        aside=s.aside, problem=_problem(s, legal) if acting else "", undoable=_undoable(s) if acting else 0,
    )


def _problem(s: GameState, legal: Sequence[Action]) -> str:
    """Why the acting seat may not end its turn now (what a client says instead of lighting Discard)."""
    if s.phase != Phase.MELD or any(a.kind == ActionKind.DISCARD for a in legal):
        return ""
    return turn_problem(s, len(s.hands[s.turn]) == 1) or ""


def _undoable(s: GameState) -> int:
    n = 0
    t = s.t
    while t.prev is not None:
        n += 1
        t = t.prev.t
    return n


def unseen_cards(v: PlayerView) -> list[int]:
    """The cards this seat cannot see: other hands (less their known cards) and the stock."""
    pool = [int(c) for c in full_deck(v.rules.packs)]
    seen: list[int] = list(v.hand) + list(v.pile) + list(v.aside)
    for row in v.melds:
        for m in row:
            if m is not None:
                seen.extend(m.naturals)
                seen.extend(m.wilds)
    for rt in v.red_threes:
        seen.extend(rt)
    for p, k in enumerate(v.known):
        if p != v.seat:
            seen.extend(k)
    for c in seen:
        pool.remove(c)
    return pool


def determinize(v: PlayerView, rng: random.Random) -> GameState:
    """A full position consistent with everything ``v`` shows, unseen cards dealt at random.

    Other hands hold their known cards plus random unseen ones; the stock gets the rest.
    The result plays on with the real rules, so a search can look ahead in it.
    """
    pool = unseen_cards(v)
    rng.shuffle(pool)
    laid = tuple(_had_turn(v, p) for p in range(len(v.hand_sizes)))
    # A player who has had a turn has laid out every red three: none may be dealt to them.
    plain = [c for c in pool if not IS_RED_THREE[c]]
    hands: list[tuple[int, ...]] = []
    taken: list[int] = []
    for p, size in enumerate(v.hand_sizes):
        if p == v.seat:
            hands.append(v.hand)
            continue
        k = v.known[p]
        need = size - len(k)
        if laid[p]:
            got, plain = plain[:need], plain[need:]
        else:
            got = []
        hands.append(k + tuple(got))
        taken.extend(got)
    for c in taken:
        pool.remove(c)
    # Shuffled again: the laid hands took only plain cards from the front of the pool, which
    # leaves the red threes they passed over bunched at its front, so without this the stock's
    # top would hold a red three in most deals (the next draw "finds" 100 points).
    rng.shuffle(pool)
    i = 0
    for p, size in enumerate(v.hand_sizes):
        if p != v.seat and not laid[p]:
            need = size - len(hands[p])
            hands[p] = hands[p] + tuple(pool[i:i + need])
            i += need
    hands = [tuple(sorted(h)) for h in hands]
    stock = pool[i:]
    assert len(stock) == v.stock_size, "view is inconsistent: the unseen cards do not fill the stock"
    # The deck is a permutation of the 108 cards: everything out of the stock, then the stock.
    rest = [int(c) for c in full_deck(v.rules.packs)]
    for c in stock:
        rest.remove(c)
    deck = tuple(rest) + tuple(stock)
    return GameState(
        rules=v.rules, dealer=v.dealer, requirements=v.requirements, deck=deck, stock_pos=len(rest),
        hands=tuple(hands), melds=v.melds, red_threes=v.red_threes, pile=v.pile, frozen=v.frozen,
        phase=v.phase, turn=v.turn, actor=v.actor, turn_number=v.turn_number, has_melded=v.has_melded,
        threes_laid=laid,
        known=v.known, penalties=v.penalties, t=v.t, stock_turned=v.stock_turned,
        went_out=v.went_out, concealed=v.concealed, end_reason=v.end_reason, penalty_log=v.penalty_log,
        aside=v.aside,
    )


def _had_turn(v: PlayerView, p: int) -> bool:
    """Has seat ``p`` had its first turn (so its dealt red threes are laid out)?"""
    n = len(v.hand_sizes)
    first = (v.dealer + 1) % n
    return (p - first) % n < v.turn_number


# --------------------------------------------------------------------------- plain data

_TURN_CARDS = ("melded", "own")


def _cards(text: Any) -> tuple[int, ...]:
    if not isinstance(text, str):
        raise CanastaError(f"expected cards as text, got {type(text).__name__}")
    try:
        return tuple(int(parse_card(w)) for w in text.split())
    except ValueError as exc:
        raise CanastaError(str(exc)) from None


def _ints(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(type(x) is int for x in value):
        raise CanastaError("expected a list of whole numbers")
    return tuple(value)


def _bools(value: Any) -> tuple[bool, ...]:
    if not isinstance(value, list) or not all(type(x) is bool for x in value):
        raise CanastaError("expected a list of true/false")
    return tuple(value)


def view_to_dict(v: PlayerView) -> dict[str, Any]:
    """A view as plain JSON-safe data (see :meth:`PlayerView.to_dict`)."""
    t: dict[str, Any] = {}
    for k, value in v.t._asdict().items():
        if k in ("prev", "pile_undo"):
            continue  # never in a view (whole positions, with hidden cards)
        t[k] = (None if value is None else cards_text(value)) if k in _TURN_CARDS else value
    return {
        "seat": v.seat, "rules": v.rules.to_dict(), "phase": v.phase.word, "turn": v.turn, "actor": v.actor,
        "dealer": v.dealer, "turn_number": v.turn_number, "hand": cards_text(v.hand),
        "hand_sizes": list(v.hand_sizes), "known": [cards_text(k) for k in v.known],
        "melds": [[_meld_dict(i, m) for i, m in enumerate(row) if m is not None] for row in v.melds],
        "meld_slots": [len(row) for row in v.melds],
        "red_threes": [cards_text(r) for r in v.red_threes], "pile": cards_text(v.pile), "frozen": v.frozen,
        "stock_size": v.stock_size, "stock_turned": v.stock_turned, "requirements": list(v.requirements),
        "has_melded": list(v.has_melded), "penalties": list(v.penalties), "turn_state": t,
        "meld_count": v.meld_count, "meld_needed": v.meld_needed, "legal": [str(a) for a in v.legal],
        "went_out": v.went_out, "concealed": v.concealed, "end_reason": end_text(v.end_reason),
        "penalty_log": [[p.team, p.points, p.reason] for p in v.penalty_log], "aside": cards_text(v.aside),
        "problem": v.problem, "undoable": v.undoable,
    }


def _meld_dict(slot: int, m: Meld) -> dict[str, Any]:
    """One meld of a view's row; a meld past the rank slots (Samba's sequences and further
    melds of a rank) says its slot, and a sequence its suit."""
    d: dict[str, Any] = {"rank": RANK_NAMES[m.rank], "naturals": cards_text(m.naturals), "wilds": cards_text(m.wilds)}
    if slot >= 15:
        d["slot"] = slot
    if m.suit >= 0:
        d["suit"] = SUIT_LETTERS[m.suit]
    return d


def view_from_dict(data: Any) -> PlayerView:
    """Read :func:`view_to_dict`'s data back; raises CanastaError saying what is wrong."""
    if not isinstance(data, dict):
        raise CanastaError("not a player view: expected an object")
    try:
        return _view_from_dict(data)
    except CanastaError as exc:
        raise CanastaError(f"not a player view: {exc}") from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise CanastaError(f"not a player view: bad or missing field ({exc})") from None


def _view_from_dict(d: dict[str, Any]) -> PlayerView:
    rules = rules_from_dict(d["rules"])
    words = [p.word for p in Phase]
    rows: list[tuple[Meld | None, ...]] = []
    sizes = d.get("meld_slots") or [15] * len(d["melds"])
    for row, size in zip(d["melds"], sizes, strict=True):
        if type(size) is not int or not 15 <= size <= 200:
            raise CanastaError("meld_slots must be whole numbers from 15 to 200")
        slots: list[Meld | None] = [None] * size
        for m in row:
            rank = parse_rank(m["rank"])
            if "suit" in m and (not isinstance(m["suit"], str) or len(m["suit"]) != 1 or m["suit"] not in SUIT_LETTERS):
                raise CanastaError(f"not a suit: {m['suit']!r}")
            suit = SUIT_LETTERS.index(m["suit"]) if "suit" in m else -1
            slot = int(m.get("slot", rank))
            if not (slot == rank or 15 <= slot < size) or (suit >= 0 and slot < 15) or slots[slot] is not None:
                raise CanastaError(f"a meld in slot {slot} cannot be there")
            slots[slot] = Meld(rank, _cards(m["naturals"]), _cards(m["wilds"]), suit)
        rows.append(tuple(slots))
    td = dict(d["turn_state"])
    for k in _TURN_CARDS:
        td[k] = None if td.get(k) is None else _cards(td[k])
    t = Turn(**td)
    return PlayerView(
        seat=int(d["seat"]), rules=rules, phase=Phase(words.index(d["phase"])), turn=int(d["turn"]),
        actor=int(d["actor"]), dealer=int(d["dealer"]), turn_number=int(d["turn_number"]), hand=_cards(d["hand"]),
        hand_sizes=_ints(d["hand_sizes"]), known=tuple(_cards(k) for k in d["known"]), melds=tuple(rows),
        red_threes=tuple(_cards(r) for r in d["red_threes"]), pile=_cards(d["pile"]), frozen=bool(d["frozen"]),
        stock_size=int(d["stock_size"]), stock_turned=bool(d["stock_turned"]), requirements=_ints(d["requirements"]),
        has_melded=_bools(d["has_melded"]), penalties=_ints(d["penalties"]), t=t, meld_count=int(d["meld_count"]),
        meld_needed=int(d["meld_needed"]), legal=tuple(parse_action(a) for a in d["legal"]),
        went_out=int(d["went_out"]), concealed=bool(d["concealed"]), end_reason=hand_end(str(d["end_reason"])),
        penalty_log=tuple(Penalty(int(a), int(b), str(c)) for a, b, c in d["penalty_log"]), aside=_cards(d["aside"]),
        problem=str(d.get("problem", "")), undoable=int(d.get("undoable", 0)),
    )
