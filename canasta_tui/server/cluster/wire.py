"""What crosses the bus about a table, as strict JSON codecs: views, events, actions, rules, the
score sheet, chat lines and a move's outcome.

Where a codec exists it is the one used: a :class:`~canasta_tui.engine.PlayerView` is
``view_to_dict``/``view_from_dict`` (cards as text, actions in their notation, the rules as
``Rules.to_dict``/``rules_from_dict``), an action its notation (``parse_action``).  What this
module adds is the distrust a network needs: before anything is built, every value has its type
(an ``int`` is never a ``bool`` or a float, a flag is ``true``/``false``), every number its range,
every text and list its length; after, the view as a whole must make sense (seats 0..3 or the
public -1, one hand size per player, each of a seat's counts within the deck, and every card it
shows, counted together, a part of the deck: no card twice more than the deck holds).  Anything
else raises :class:`WireError` with the reason.

Every ``*_to_wire`` returns plain JSON data (dicts, lists, strings, ints, bools, None) that
the matching ``*_from_wire`` reads back to an equal value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ...engine import Action, CanastaError, HandRecord, PlayerView, Rules, parse_action, rules_from_dict
from ...engine.cards import cards_text, full_deck, parse_card
from ...engine.rules import MAX_POINTS, MAX_TARGET
from ...engine.scoring import TeamScore
from ...engine.state import hand_end
from ...engine.view import PUBLIC, view_from_dict, view_to_dict
from ...table.events import Event, EventKind
from ...table.table import CHAT_KEEP, ChatLine, Outcome

#: The longest text in any message (a refusal's reason, a chat line, a rule's description).
MAX_TEXT = 2000
#: The longest name (a player's, a seat token's, a front's).
MAX_NAME = 100
#: The longest list in any message (the legal actions of a Samba turn are some hundreds).
MAX_LIST = 5000
#: Any whole number in a message (scores are bounded far below: see ``engine.rules``).
MAX_INT = 10**9
#: The actions of one move (a turn composed at once: melds, adds, a discard).
MAX_MOVE = 64
#: An action's notation ("add 10h to 7h-9h").
MAX_ACTION_TEXT = 80
#: The hands of a match (a target of 1 000 000 points is many hands, but not more than this).
MAX_HANDS = 10_000
#: The events of a table between two deals can be many (a long hand); a frame carries at most this.
MAX_EVENTS = 20_000


class WireError(ValueError):
    """A message about a table that does not read: ``reason`` says what is wrong."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# ------------------------------------------------------------------------------ the shape first
def bounded(value: Any) -> None:
    """Refuse a message with a text, list or number past the bounds anywhere in it, before any
    of it is read (walked without recursion; the bus has bounded its depth)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if len(v) > MAX_TEXT:
                raise WireError(f"a text of {len(v)} characters (at most {MAX_TEXT})")
        elif isinstance(v, bool) or v is None:
            pass
        elif isinstance(v, int):
            if abs(v) > MAX_INT:
                raise WireError("a number out of range")
        elif isinstance(v, list):
            if len(v) > MAX_LIST:
                raise WireError(f"a list of {len(v)} items (at most {MAX_LIST})")
            stack.extend(v)
        elif isinstance(v, dict):
            if len(v) > 200:
                raise WireError(f"an object of {len(v)} keys")
            stack.extend(v.values())
        else:
            raise WireError(f"a {type(v).__name__} where only JSON values may be")


def obj(d: Any, what: str) -> dict[str, Any]:
    if not isinstance(d, dict):
        raise WireError(f"{what}: expected an object")
    return d


def whole(d: dict[str, Any], key: str, low: int, high: int) -> int:
    """``d[key]``: an ``int`` (not a bool, not a float) from ``low`` to ``high``."""
    v = d.get(key)
    if type(v) is not int or not low <= v <= high:
        raise WireError(f"{key} must be a whole number from {low} to {high}")
    return v


def flag(d: dict[str, Any], key: str) -> bool:
    v = d.get(key)
    if type(v) is not bool:
        raise WireError(f"{key} must be true or false")
    return v


def text(d: dict[str, Any], key: str, longest: int = MAX_TEXT) -> str:
    v = d.get(key)
    if not isinstance(v, str) or len(v) > longest:
        raise WireError(f"{key} must be a text of at most {longest} characters")
    return v


def items(d: dict[str, Any], key: str, longest: int = MAX_LIST) -> list[Any]:
    v = d.get(key)
    if not isinstance(v, list) or len(v) > longest:
        raise WireError(f"{key} must be a list of at most {longest} items")
    return v


def _cards(value: Any, what: str, packs: int = 3) -> tuple[int, ...]:
    if not isinstance(value, str) or len(value) > 4 * 54 * packs:
        raise WireError(f"{what}: expected cards as text")
    try:
        cards = tuple(int(parse_card(w)) for w in value.split())
    except ValueError as e:
        raise WireError(f"{what}: {e}") from None
    if len(cards) > 54 * packs:
        raise WireError(f"{what}: {len(cards)} cards (the deck holds {54 * packs})")
    return cards


def cards_from_wire(value: Any, what: str, packs: int = 3) -> tuple[int, ...]:
    """Cards as text (``"Kh 10s JK"``), at most a deck's worth."""
    return _cards(value, what, packs)


# ------------------------------------------------------------------------------ actions and rules
def actions_to_wire(actions: Sequence[Action]) -> list[str]:
    """A move as the bus carries it: each action in its notation (``["meld K K K", "discard 7h"]``)."""
    return [str(a) for a in actions]


def actions_from_wire(value: Any) -> tuple[Action, ...]:
    """A move from the bus: 1 to :data:`MAX_MOVE` actions, each a notation the engine reads."""
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_MOVE:
        raise WireError(f"a move is a list of 1 to {MAX_MOVE} actions")
    out = []
    for a in value:
        if not isinstance(a, str) or len(a) > MAX_ACTION_TEXT:
            raise WireError(f"an action is a notation of at most {MAX_ACTION_TEXT} characters")
        try:
            out.append(parse_action(a))
        except (CanastaError, ValueError) as e:
            raise WireError(f"not an action: {e}") from None
    return tuple(out)


def rules_to_wire(rules: Rules) -> dict[str, Any]:
    return rules.to_dict()


def rules_from_wire(value: Any) -> Rules:
    d = obj(value, "rules")
    bounded(d)
    try:
        return rules_from_dict(d)
    except (CanastaError, ValueError, TypeError) as e:
        raise WireError(f"rules: {e}") from None


# ------------------------------------------------------------------------------ views
def view_to_wire(v: PlayerView) -> dict[str, Any]:
    """A seat's (or the public) view: the engine's own plain form (:func:`view_to_dict`)."""
    return view_to_dict(v)


_VIEW_INTS = ("seat", "turn", "actor", "dealer", "turn_number", "stock_size", "meld_count", "meld_needed",
              "went_out", "undoable")
_VIEW_FLAGS = ("frozen", "stock_turned", "concealed")
_TURN_TYPES: dict[str, type] = {
    "drew": str, "opened_at_start": bool, "melded_before": bool, "upcard_points": int, "extra_needed": int,
    "black_threes": bool, "added_existing": bool, "start_keys": int, "asked": bool, "permission": int,
    "pile_undone": bool, "final": bool}


def view_from_wire(value: Any, seat: int | None = None) -> PlayerView:
    """A view from the bus, checked whole; ``seat``: the seat it must be (:data:`PUBLIC` for a
    spectator's), or None for any."""
    d = obj(value, "a view")
    bounded(d)
    for k in _VIEW_INTS:
        whole(d, k, -1 if k in ("seat", "went_out") else 0, MAX_INT)
    for k in _VIEW_FLAGS:
        flag(d, k)
    for k in ("phase", "end_reason", "problem"):
        text(d, k)
    t = obj(d.get("turn_state"), "turn_state")
    for k, v in t.items():
        want = _TURN_TYPES.get(k)
        if k in ("melded", "own"):
            if v is not None:
                _cards(v, f"turn_state.{k}")
        elif want is None or type(v) is not want:
            raise WireError(f"turn_state.{k} is not part of a turn, or of the wrong type")
    pens = items(d, "penalty_log", 1000)
    for p in pens:
        if not (isinstance(p, list) and len(p) == 3 and type(p[0]) is int and type(p[1]) is int
                and isinstance(p[2], str) and len(p[2]) <= 200):
            raise WireError("penalty_log: each is [side, points, reason]")
    try:
        v = view_from_dict(d)
    except (CanastaError, ValueError, TypeError, KeyError) as e:
        raise WireError(str(e)) from None
    _check_view(v, seat)
    return v


def _check_view(v: PlayerView, seat: int | None) -> None:
    """The view as a whole: seats, counts and cards that a real game could show."""
    r = v.rules
    n, teams, size = r.players, r.teams, r.deck_size
    if seat is not None and v.seat != seat:
        raise WireError(f"a view of seat {v.seat} where seat {seat}'s was expected")
    if not (v.seat == PUBLIC or 0 <= v.seat < n):
        raise WireError(f"no seat {v.seat} at a table of {n}")
    for name in ("turn", "actor", "dealer"):
        if not 0 <= getattr(v, name) < n:
            raise WireError(f"{name} must be a seat from 0 to {n - 1}")
    if not -1 <= v.went_out < n:
        raise WireError("went_out must be a seat or -1")
    if len(v.hand_sizes) != n or any(not 0 <= h <= size for h in v.hand_sizes):
        raise WireError(f"hand_sizes: one count of 0 to {size} per player")
    if (v.seat == PUBLIC and v.hand) or (v.seat != PUBLIC and len(v.hand) != v.hand_sizes[v.seat]):
        raise WireError("the hand does not match its count")
    if v.seat == PUBLIC and v.legal:
        raise WireError("a spectator's view has no legal actions")
    for name, rows in (("known", v.known), ("red_threes", v.red_threes), ("has_melded", v.has_melded)):
        if len(rows) != n:
            raise WireError(f"{name}: one list per player")
    if any(len(k) > h for k, h in zip(v.known, v.hand_sizes, strict=True)):
        raise WireError("known: more cards known in a hand than it holds")
    for name, per in (("melds", v.melds), ("requirements", v.requirements), ("penalties", v.penalties)):
        if len(per) != teams:
            raise WireError(f"{name}: one per side ({teams})")
    if any(not 0 <= x <= MAX_POINTS for x in v.requirements) or any(abs(x) > MAX_TARGET for x in v.penalties):
        raise WireError("requirements or penalties out of range")
    if any(not 0 <= p.team < teams or abs(p.points) > MAX_POINTS for p in v.penalty_log):
        raise WireError("penalty_log: a side or points out of range")
    if v.stock_size > size or len(v.legal) > MAX_LIST:
        raise WireError("stock_size or legal out of range")
    shown: Counter[int] = Counter(v.hand)
    shown.update(v.pile)
    shown.update(v.aside)
    for row in v.melds:
        for m in row:
            if m is not None:
                shown.update(m.naturals)
                shown.update(m.wilds)
    for rt in v.red_threes:
        shown.update(rt)
    for p, k in enumerate(v.known):
        if p != v.seat:
            shown.update(k)
    if shown - Counter(int(c) for c in full_deck(r.packs)):
        raise WireError("the view shows cards the deck does not hold (a card too many times)")
    if sum(shown.values()) + v.stock_size > size:
        raise WireError("the view shows more cards than the deck holds")


# ------------------------------------------------------------------------------ events
def event_to_wire(e: Event) -> dict[str, Any]:
    return {"seq": e.seq, "hand": e.hand, "kind": e.kind.value, "seat": e.seat, "cards": cards_text(e.cards),
            "amount": e.amount, "rank": e.rank, "text": e.text}


_KINDS = {k.value: k for k in EventKind}


def event_from_wire(value: Any, players: int = 4) -> Event:
    d = obj(value, "an event")
    kind = _KINDS.get(text(d, "kind", 20))
    if kind is None:
        raise WireError(f"not an event: {d.get('kind')!r}")
    return Event(seq=whole(d, "seq", 1, MAX_INT), hand=whole(d, "hand", 1, MAX_HANDS), kind=kind,
                 seat=whole(d, "seat", -1, players - 1), cards=_cards(d.get("cards"), "an event's cards"),
                 amount=whole(d, "amount", 0, MAX_POINTS), rank=whole(d, "rank", 0, 200),
                 text=text(d, "text", 100))


def events_from_wire(value: Any, players: int = 4) -> list[Event]:
    if not isinstance(value, list) or len(value) > MAX_EVENTS:
        raise WireError(f"events: a list of at most {MAX_EVENTS}")
    return [event_from_wire(e, players) for e in value]


# ------------------------------------------------------------------------------ the score sheet
_SCORE_INTS = ("melds", "natural_canastas", "mixed_canastas", "wild_canastas", "canasta_bonus", "red_threes",
               "red_three_points", "going_out", "hand", "penalties", "total", "sequence_canastas")


def hand_record_to_wire(h: HandRecord) -> dict[str, Any]:
    return {"number": h.number, "dealer": h.dealer, "went_out": h.went_out,
            "end_reason": "" if h.end_reason is None else h.end_reason.text, "totals": list(h.totals),
            "scores": [{**{k: getattr(s, k) for k in ("team", *_SCORE_INTS)},
                        "penalty_items": [[why, pts] for why, pts in s.penalty_items]} for s in h.scores]}


def hand_record_from_wire(value: Any, teams: int = 2, players: int = 4) -> HandRecord:
    d = obj(value, "a hand's score")
    scores = []
    for s in items(d, "scores", teams):
        s = obj(s, "a side's score")
        pens = items(s, "penalty_items", 1000)
        for p in pens:
            if not (isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) and len(p[0]) <= 200
                    and type(p[1]) is int and abs(p[1]) <= MAX_TARGET):
                raise WireError("penalty_items: each is [reason, points]")
        scores.append(TeamScore(team=whole(s, "team", 0, teams - 1),
                                **{k: whole(s, k, -MAX_INT, MAX_INT) for k in _SCORE_INTS},
                                penalty_items=tuple((p[0], p[1]) for p in pens)))
    if len(scores) != teams:
        raise WireError(f"a hand's score has one score per side ({teams})")
    totals = items(d, "totals", teams)
    if len(totals) != teams or any(type(t) is not int or abs(t) > MAX_INT for t in totals):
        raise WireError("totals: one whole number per side")
    try:
        end = hand_end(text(d, "end_reason", 100))
    except ValueError:
        raise WireError("end_reason: not a reason a hand ends") from None
    return HandRecord(number=whole(d, "number", 1, MAX_HANDS), dealer=whole(d, "dealer", 0, players - 1),
                      scores=tuple(scores), totals=tuple(totals), went_out=whole(d, "went_out", -1, players - 1),
                      end_reason=end)


def sheet_from_wire(value: Any, teams: int = 2, players: int = 4) -> tuple[HandRecord, ...]:
    if not isinstance(value, list) or len(value) > MAX_HANDS:
        raise WireError("sheet: a list of hands")
    return tuple(hand_record_from_wire(h, teams, players) for h in value)


# ------------------------------------------------------------------------------ chat and outcomes
def chat_to_wire(c: ChatLine) -> dict[str, Any]:
    return {"seq": c.seq, "who": c.who, "text": c.text, "at": c.at}


def chat_from_wire(value: Any) -> ChatLine:
    d = obj(value, "a chat line")
    return ChatLine(seq=whole(d, "seq", 1, MAX_INT), who=text(d, "who", MAX_NAME), text=text(d, "text", MAX_TEXT),
                    at=whole(d, "at", 0, MAX_INT))


def chats_from_wire(value: Any) -> list[ChatLine]:
    if not isinstance(value, list) or len(value) > CHAT_KEEP:
        raise WireError(f"chat: a list of at most {CHAT_KEEP} lines")
    return [chat_from_wire(c) for c in value]


def outcome_to_wire(o: Outcome) -> dict[str, Any]:
    return {"ok": o.ok, "reason": o.reason, "changed": o.changed}


def outcome_from_wire(value: Any) -> Outcome:
    d = obj(value, "an outcome")
    return Outcome(flag(d, "ok"), text(d, "reason"), flag(d, "changed"))


__all__ = ["MAX_MOVE", "WireError", "actions_from_wire", "actions_to_wire", "bounded", "cards_from_wire", "chat_from_wire",
           "chat_to_wire", "chats_from_wire", "event_from_wire", "event_to_wire", "events_from_wire", "flag",
           "hand_record_from_wire", "hand_record_to_wire", "items", "obj", "outcome_from_wire", "outcome_to_wire",
           "rules_from_wire", "rules_to_wire", "sheet_from_wire", "text", "view_from_wire", "view_to_wire", "whole"]
