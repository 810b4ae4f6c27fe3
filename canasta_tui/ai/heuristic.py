"""Rule-based play for the Beginner and Advanced levels (and the Expert's rollouts).

A decision is a pure function of the seat's view, a :class:`Style` (the level's habits)
and a small per-turn memory (:class:`TurnMemory`, so that a player that took back its
melds does not make them again).  Every choice is taken from ``view.legal``; when a
plan does not fit what is legal, a safe legal action is chosen instead.

The strategy follows the DOS manual's "Strategy" notes: take the pack and meld a lot,
keep a hand of pairs, make mixed canastas fast, do not meld out early, go out quickly
once the other side has the first big pack; plus safe discards (stop cards, cards the
next player cannot want) and freezing the pile when the opponents threaten it.  The
Expert's style adds a partner's habits (``Style.partner``, "A partner worth having").
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from functools import lru_cache

from ..engine import (
    Action,
    GameState,
    Phase,
    PlayerView,
    apply,
    determinize,
    legal_actions,
    unseen_cards,
    view_for,
)
from ..engine import actions as A
from ..engine.cards import (
    DEUCE,
    IS_BLACK_THREE,
    IS_RED_THREE,
    IS_WILD,
    JOKER,
    NATURAL_RANKS,
    RANK_OF,
    THREE,
    VALUE,
)
from ..engine.melds import Meld
from ..engine.moves import add_target, canastas_missing
from ..engine.state import team
from . import knowledge as K
from . import samba as S


@dataclass(frozen=True)
class Style:
    """The habits of a level.  ``advanced`` switches on the strategic rules."""

    advanced: bool = False
    aggressive: bool = False
    keep_cards: int = 2          # least cards kept in hand after optional melds (not going out)
    pair_wild_melds: bool = True  # meld a natural pair with a wild card once open
    ask_partner: bool = False
    go_out: int = 0              # 1: go out whenever possible, -1: never (this turn), 0: judge
    wild_from: int = 0           # put a wild card on a meld of at least this size (0: only to finish)
    partner: bool = False        # a partner's habits (issue 20): see "A partner worth having" below
    # Issue 33 ("Play"), each measured on its own (docs/expert-strength.md):
    races: bool = False          # the other side one turn from out: no small pile of dead cards


BEGINNER = Style()
ADVANCED = Style(advanced=True, keep_cards=5, pair_wild_melds=False, ask_partner=True)
ADVANCED_AGGRESSIVE = Style(advanced=True, aggressive=True, keep_cards=3, pair_wild_melds=True, ask_partner=True)
#: The Expert's own habits (its default play and its side's rollouts), found by duplicate
#: benches against Advanced: push a meld of five toward a mixed canasta with a wild card
#: ("make mixed canastas fast"), keep three cards back rather than five, and never open a
#: meld with a wild card on a bare pair.  Its aggressive hands meld down to two cards and
#: go out whenever they can, but do not spend wild cards on small piles (that loses).
#: It plays as a partner worth having (``partner``): see "A partner worth having" below.
EXPERT = replace(ADVANCED, keep_cards=3, wild_from=5, partner=True, races=True)
EXPERT_AGGRESSIVE = replace(EXPERT, keep_cards=2, go_out=1)


@lru_cache(maxsize=16)
def variant_style(style: Style, wild_melds: bool) -> Style:
    """Samba and Bolivia: hands are short races to two canastas (Samba) or long piles of
    canastas (Bolivia), and fifteen cards leave plenty to catch the pile with: an Advanced
    hand keeps at most three cards back.  In Samba it melds a natural pair with a wild card;
    in Bolivia it does not (``wild_melds``: its wild cards go together toward a bolivia).
    Both found by duplicate benches against Beginner (100 deal pairs, seed 7: Samba about
    +200 a hand for three cards and the pair with a wild card; Bolivia about +180 for keeping
    wild cards off pairs)."""
    return replace(style, keep_cards=min(style.keep_cards, 3), pair_wild_melds=not wild_melds)


@dataclass
class TurnMemory:
    """What a player remembers within one turn (reset when a new turn starts)."""

    key: tuple[int, int, int] = (-1, -1, -1)
    undone: bool = False
    steps: int = 0
    extra: dict[str, object] = field(default_factory=dict)

    def start(self, v: PlayerView) -> None:
        key = (v.dealer, v.turn_number, v.turn)
        if key != self.key:
            self.key = key
            self.undone = False
            self.steps = 0
            self.extra = {}
        self.steps += 1


# --------------------------------------------------------------------------- entry point

def decide(v: PlayerView, style: Style, mem: TurnMemory) -> Action:
    """The action this style takes; always one of ``v.legal``."""
    legal = v.legal
    if not legal:
        raise ValueError("no legal action: it is not this seat's turn")
    if len(legal) == 1:
        return legal[0]
    mem.start(v)
    if style.advanced and S.is_variant(v.rules):
        style = variant_style(style, v.rules.wild_melds_allowed)
    if mem.steps > 60:
        # Something keeps going round in circles: end the turn as simply as possible.
        return safe_fallback(v, mem)
    if v.phase == Phase.PERMISSION:
        return A.A_YES if answer_yes(v, style) else A.A_NO
    if v.phase == Phase.DRAW:
        return choose_draw(v, style)
    a = choose_meld_phase(v, style, mem)
    return a if a in legal else safe_fallback(v, mem)


# --------------------------------------------------------------------------- drawing

def pile_preference(a: Action) -> int:
    """Lower is better: onto a meld, with a natural pair, then with a deuce, then a joker."""
    if not a.ranks:
        return 0
    if a.ranks[1] == a.ranks[0]:
        return 1
    return 2 if a.ranks[1] == DEUCE else 3


def choose_draw(v: PlayerView, style: Style) -> Action:
    legal = v.legal
    piles = sorted((a for a in legal if a.kind == A.PILE), key=pile_preference)
    if not piles:
        return A.A_DRAW if A.A_DRAW in legal else legal[0]
    if style.advanced and v.rules.going_out_needs_sequence and A.A_DRAW in legal and len(v.pile) < 9:
        # Bolivia: a small pile is not worth a card the side's sequences need (its escalera)
        tm = K.my_team(v)
        piles = [a for a in piles if not a.ranks or not S.spends_sequence_card(v, a, tm)]
        if not piles:
            return A.A_DRAW
    best = piles[0]
    if A.A_DRAW not in legal:
        # Stock exhausted: take the pile when allowed (it keeps the hand going), else end.
        return best
    size = len(v.pile)
    if style.races and not S.is_variant(v.rules) and races_past_small_pile(v, best):
        return A.A_DRAW
    if not style.advanced:
        if pile_preference(best) <= 1 or size >= 4:
            return best
        return A.A_DRAW
    # Advanced: "the object of the game is to take the pack"; a wild card spent on a
    # pile of one or two cards is not worth it.
    if pile_preference(best) >= 2 and size < 3 and not style.aggressive:
        return A.A_DRAW
    if v.rules.wild_melds_allowed and pile_preference(best) >= 2 and size < 6:
        return A.A_DRAW  # Bolivia: a wild card is worth more toward a bolivia than a small pile
    return best


#: A pile of at most this many cards is "small" when racing (issue 33: with the other side one turn
#: from out, draw and shed rather than take a small pile of cards you cannot meld).
SMALL_PILE = 5
#: Cards an opponent holds, its side with the canastas it needs, to be "one turn from out".
NEARLY_OUT = 3


def races_past_small_pile(v: PlayerView, take: Action) -> bool:
    """Race at the end of a hand (issue 33, "Play"): an opponent is one turn from going out (its
    side has its canastas and it holds :data:`NEARLY_OUT` cards or fewer), the pile is small and
    taking it as ``take`` would leave cards in hand that cannot be melded this turn (a black three,
    a lone card of a rank the side has no meld of).  Every such card is caught at the end, so draw
    one card and shed the highest rather than take them."""
    if len(v.pile) > SMALL_PILE or not any(K.may_go_out_soon(v, p, NEARLY_OUT) for p in K.opponents(v)):
        return False
    tm = K.turn_team(v)
    row = v.melds[tm]
    cnt = K.counts(v.hand)
    for c in v.pile:
        cnt[RANK_OF[c]] += 0 if IS_RED_THREE[c] else 1
    if take.ranks:
        for q in take.ranks:
            cnt[q] -= 1  # the pair (or natural and wild card) melded with the upcard
        cnt[RANK_OF[v.pile[-1]]] -= 1
    opened = any(m is not None for m in row) or bool(take.ranks)
    for c in v.pile[:-1]:
        q = RANK_OF[c]
        if IS_RED_THREE[c]:
            continue
        if IS_BLACK_THREE[c]:
            return True
        if IS_WILD[c]:
            if not opened:
                return True
            continue
        if row[q] is None and cnt[q] < 3 and not (take.ranks and take.ranks[0] == q):
            return True
    return False


# --------------------------------------------------------------------------- answering

def answer_yes(v: PlayerView, style: Style) -> bool:
    """Partner asks "May I go out?": never "yes" when the side is far from the canastas it
    needs; otherwise "no" while this hand holds many points that a few more turns could
    meld, "yes" when the opponents threaten or the hand is cheap."""
    if not could_go_out(v):
        return False
    hand = v.hand
    pts = K.hand_points(hand)
    if not style.advanced:
        return pts < 150
    tm = K.my_team(v)
    if style.partner:
        judged = partner_answer(v, pts, K.meldable_points(v, hand, tm))
        if judged is not None:
            return judged
    if K.threat(v) >= 1.0 or v.stock_size < 8:
        return True
    if pts <= 60:
        return True
    meldable = K.meldable_points(v, hand, tm)
    behind = K.table_value(v, tm) < max(K.table_value(v, team(p, v.rules)) for p in K.opponents(v))
    if behind and pts < 120:
        return True
    return meldable < 90 and pts < 120


def could_go_out(v: PlayerView) -> bool:
    """Could the asker go out this turn, judged from what the partner sees: the side's
    melds, the asker's card count and the cards this seat has not seen (the asker's cards
    are among them, or publicly known).

    The side needs ``canastas_to_go_out`` canastas.  Each missing one must come from a meld
    on the table that the asker's cards could bring to seven (a meld of ``size`` needs
    ``7 - size`` of them, of its rank or wild; all may go, since "A player need not make a
    discard after going out and may meld all remaining cards"), or from a new meld of seven
    from the hand.  The cheapest missing canastas must fit in the asker's hand together.
    With no canasta needed for a concealed hand (``concealed_needs_canasta`` off) a side
    that has not melded may always go out.
    """
    rules = v.rules
    tm = team(v.turn, rules)
    missing = rules.canastas_to_go_out - K.canastas(v, tm)
    if S.is_variant(rules):
        return _could_go_out_variant(v, tm)
    if missing <= 0:
        return True
    row = v.melds[tm]
    if not rules.concealed_needs_canasta and all(m is None for m in row):
        return True
    pool = K.counts([*unseen_cards(v), *v.known[v.turn]])
    wilds = pool[DEUCE] + pool[JOKER]
    short = [7 - m.size for m in row if m is not None and not m.is_canasta and m.rank not in (THREE, DEUCE)
             and pool[m.rank] + wilds >= 7 - m.size]
    if any(pool[r] + wilds >= 7 for r in NATURAL_RANKS):
        short += [7] * missing  # new melds of seven from the hand
    short.sort()
    return len(short) >= missing and sum(short[:missing]) <= v.hand_sizes[v.turn]


def _could_go_out_variant(v: PlayerView, tm: int) -> bool:
    """Samba, Bolivia: the side's missing canastas (Bolivia: one an escalera) must come from
    its melds short of seven, the cheapest first, within the asker's hand."""
    rules = v.rules
    row = v.melds[tm]
    missing = canastas_missing(row, rules)
    if missing <= 0:
        return True
    short = sorted(7 - m.size for m in row if m is not None and not m.is_canasta and m.rank != THREE)
    if rules.going_out_needs_sequence and not any(m is not None and m.is_sequence and m.is_canasta for m in row):
        seqs = sorted(7 - m.size for m in row if m is not None and m.is_sequence)
        if not seqs:
            return False
        first = seqs[0]
        short.remove(first)
        return first + sum(short[:missing - 1]) <= v.hand_sizes[v.turn] and len(short) >= missing - 1
    return len(short) >= missing and sum(short[:missing]) <= v.hand_sizes[v.turn]


# --------------------------------------------------------------------------- meld phase

def choose_meld_phase(v: PlayerView, style: Style, mem: TurnMemory) -> Action:
    legal = v.legal
    tm = K.turn_team(v)
    discards = [a for a in legal if a.kind == A.DISCARD]
    if v.t.final:
        melds = [a for a in legal if a.kind in (A.MELD, A.ADD)]
        return melds[0] if melds else (A.A_END if A.A_END in legal else legal[0])
    if mem.undone:
        if discards:
            return best_discard(v, style, discards)
        return A.A_UNDO if A.A_UNDO in legal else safe_fallback(v, mem)

    # Going out.
    plan_out = go_out_plan(v, tm)
    if v.t.permission != 0 and plan_out is not None and (style.go_out >= 0 or v.t.permission == 1):
        if v.t.permission == 1 or want_go_out(v, style, tm):
            if A.A_ASK in legal and style.ask_partner and should_ask(v, style):
                return A.A_ASK
            a = next_going_out_action(v, plan_out)
            if a is not None:
                return a

    # The initial meld.
    if v.meld_needed > v.meld_count:
        plan = opening_plan(v, style)
        if plan:
            for a in plan:
                if a in legal:
                    return a
        if discards and not v.t.melded:
            return best_discard(v, style, discards)
        if A.A_UNDO in legal and v.t.drew != "pile":
            mem.undone = True
            return A.A_UNDO
        return safe_fallback(v, mem)

    # Optional melds (the side is open).
    a = optional_meld(v, style, tm)
    if a is not None:
        return a
    if discards:
        return best_discard(v, style, discards)
    return safe_fallback(v, mem)


def safe_fallback(v: PlayerView, mem: TurnMemory) -> Action:
    """A legal action that moves the turn toward its end."""
    legal = v.legal
    discards = [a for a in legal if a.kind == A.DISCARD]
    if discards:
        return best_discard(v, BEGINNER, discards)
    if v.phase == Phase.MELD and not v.t.final:
        # No discard is legal yet (e.g. the initial meld is short): follow a sequence of
        # melds that makes one legal, or take back a meld and look again from there.
        plan = mem.extra.get("plan")
        if isinstance(plan, list) and plan and plan[0] in legal:
            return plan.pop(0)  # type: ignore[no-any-return]
        found = finish_turn_plan(v)
        if found:
            mem.extra["plan"] = found[1:]
            return found[0]
        if A.A_UNDO in legal:
            mem.undone = True
            return A.A_UNDO
    if v.phase == Phase.DRAW:
        return A.A_DRAW if A.A_DRAW in legal else legal[0]
    n = len(v.hand)
    melds = [a for a in legal if a.kind in (A.MELD, A.ADD) and (n - len(a.ranks) >= 2 or n - len(a.ranks) == 0)]
    if melds and not mem.undone:
        return max(melds, key=lambda a: sum(VALUE[r * 4] if r != JOKER else 50 for r in a.ranks))
    for simple in (A.A_END, A.A_UNDO, A.A_UNPILE):
        if simple in legal:
            if simple == A.A_UNDO:
                mem.undone = True
            return simple
    others = [a for a in legal if a.kind not in (A.ASK,)]
    return others[0] if others else legal[0]


def finish_turn_plan(v: PlayerView, limit: int = 2000) -> list[Action] | None:
    """Meld and add actions after which this turn can end (a discard is legal, or the
    player has gone out); None if there are none from here.

    Only the seat's own hand and its side's melds decide which melds are legal, so any
    position consistent with the view serves for the search (no hidden card is used).
    """
    start = determinize(v, random.Random(0))
    tm = start.team_of(start.turn)
    seen: set[tuple[object, ...]] = set()
    nodes = 0

    def search(s: GameState, path: list[Action]) -> list[Action] | None:
        nonlocal nodes
        nodes += 1
        if s.phase == Phase.HAND_OVER:
            return path
        legal = legal_actions(s)
        if any(a.kind == A.DISCARD for a in legal):
            return path
        key = (s.hands[s.turn], s.melds[tm])
        if key in seen or nodes > limit:
            return None
        seen.add(key)
        steps = [a for a in legal if a.kind in (A.MELD, A.ADD)]
        steps.sort(key=lambda a: -sum(VALUE[r * 4] if r != JOKER else 50 for r in a.ranks))
        for a in steps:
            found = search(apply(s, a), [*path, a])
            if found is not None:
                return found
        return None

    found = search(start, [])
    return found or None


# --------------------------------------------------------------------------- going out

class OutPlan:
    """Cards of the hand that can all be melded now (maybe bar one to discard)."""

    __slots__ = ("leftover", "new_melds", "path", "wild_targets")

    def __init__(self, leftover: list[int], new_melds: list[int], wild_targets: list[int],
                 path: list[Action] | None = None) -> None:
        self.leftover = leftover
        self.new_melds = new_melds
        self.wild_targets = wild_targets
        #: Samba, Bolivia: the engine's legal actions that go out, in order (see samba.out_path).
        self.path = path


def go_out_plan(v: PlayerView, tm: int) -> OutPlan | None:
    """Can this hand be melded out this turn, reaching the canastas needed?  A counting
    model of the rules (the engine still decides what is legal)."""
    rules = v.rules
    if v.meld_needed > 0 and v.meld_needed > v.meld_count:
        return None  # going out concealed is left to chance
    if S.is_variant(rules):
        # Sequences, joins and wild melds: ask the engine's legal actions for a way out.
        path = S.out_path(v)
        return None if path is None else OutPlan([], [], [], path)
    hand = v.hand
    cnt = K.counts(hand)
    r = v.melds[tm]
    sizes = [m.size if m is not None else 0 for m in r]
    wild_in = [len(m.wilds) if m is not None else 0 for m in r]
    nats = [len(m.naturals) if m is not None else 0 for m in r]
    wilds = sorted((c for c in hand if IS_WILD[c]), key=lambda c: VALUE[c])
    leftover: list[int] = []
    new_melds: list[int] = []
    pairs: list[int] = []
    for q in NATURAL_RANKS:
        n = cnt[q]
        if not n:
            continue
        if r[q] is not None or n >= 3:
            if r[q] is None:
                new_melds.append(q)
            sizes[q] += n
            nats[q] += n
        elif n == 2:
            pairs.append(q)
        else:
            leftover.extend(c for c in hand if RANK_OF[c] == q)
    wi = 0
    for q in sorted(pairs, key=lambda q: -VALUE[q * 4]):
        if wi < len(wilds) and rules.wilds_allowed(2) >= 1:
            new_melds.append(q)
            sizes[q] += 3
            nats[q] += 2
            wild_in[q] += 1
            wi += 1
        else:
            leftover.extend(c for c in hand if RANK_OF[c] == q)
    # Spare wild cards go where they complete canastas first, then anywhere there is room.
    targets: list[int] = []
    for w in wilds[wi:]:
        spots = [q for q in NATURAL_RANKS if sizes[q] and wild_in[q] < rules.wilds_allowed(nats[q])]
        if not spots:
            leftover.append(w)
            continue
        spots.sort(key=lambda q: (sizes[q] >= 7, -sizes[q]))
        q = spots[0]
        sizes[q] += 1
        wild_in[q] += 1
        targets.append(q)
    b3 = [c for c in hand if IS_BLACK_THREE[c]]
    have = sum(1 for q in range(15) if sizes[q] >= 7) + (1 if r[DEUCE] is not None and r[DEUCE].is_canasta else 0)
    have += sum(1 for m in r[15:] if m is not None and m.is_canasta)  # Samba's sequences and further melds
    if rules.going_out_needs_sequence and not any(m is not None and m.is_sequence and m.is_canasta for m in r):
        return None  # Bolivia: no escalera yet (this plan does not build sequences)
    if b3:
        if len(b3) >= 3 and have >= rules.canastas_to_go_out and r[THREE] is None:
            pass
        else:
            leftover.extend(b3)
    if len(leftover) > 1 or have < rules.canastas_to_go_out:
        return None
    return OutPlan(leftover, new_melds, targets)


def next_going_out_action(v: PlayerView, plan: OutPlan) -> Action | None:
    """The next step of melding out: new melds, naturals, wild cards (canastas first), black
    threes last, then the final discard."""
    legal = v.legal
    if plan.path is not None:
        if plan.path:
            return plan.path[0] if plan.path[0] in legal else None
        discards = [a for a in legal if a.kind == A.DISCARD]
        return discards[0] if discards and len(v.hand) == 1 else None
    by_kind: dict[str, list[Action]] = {}
    for a in legal:
        by_kind.setdefault(a.kind, []).append(a)
    tm = K.turn_team(v)
    r = v.melds[tm]
    for a in by_kind.get(A.MELD, []):
        if a.ranks[0] != THREE and all(x == a.ranks[0] for x in a.ranks):
            return a
    for a in by_kind.get(A.ADD, []):
        if a.ranks[0] not in (DEUCE, JOKER, THREE):
            return a
    for a in by_kind.get(A.MELD, []):
        if a.ranks[0] != THREE:
            return a
    wild_adds = [a for a in by_kind.get(A.ADD, []) if a.ranks[0] in (DEUCE, JOKER)]
    if wild_adds:
        def key(a: Action) -> tuple[bool, int, int]:
            m = add_target(r, a, v.rules)
            size = m.size if m is not None else 0
            return (size >= 7, -size, a.ranks[0] == JOKER)
        return min(wild_adds, key=key)
    for a in legal:
        if a.kind in (A.MELD, A.ADD) and a.ranks[0] == THREE:
            return a
    discards = by_kind.get(A.DISCARD, [])
    if discards and len(v.hand) == 1:
        return discards[0]
    return None


def want_go_out(v: PlayerView, style: Style, tm: int) -> bool:
    """Go out now, or keep scoring?  "Don't be in a hurry to go out if you have a better
    chance for further scoring"; but once the other side has the big pack, go out fast."""
    if style.go_out:
        return style.go_out > 0
    if not style.advanced or style.aggressive:
        return True
    if style.partner and catches_opponents(v):
        return True
    opp = [team(p, v.rules) for p in K.opponents(v)]
    mine = K.table_value(v, tm)
    theirs = max(K.table_value(v, o) for o in opp)
    if theirs >= mine - 150:
        return True   # behind (or level): stop their scoring
    if K.threat(v) >= 1.0 or v.stock_size < 15:
        return True
    partner = K.partner_seat(v, v.turn)
    if partner is not None and v.hand_sizes[partner] <= 3:
        return True
    return len(v.hand) <= 3


def should_ask(v: PlayerView, style: Style | None = None) -> bool:
    """Ask "May I go out, partner?" before going out (a human partner too) when the partner may
    lose by it: going out now counts the partner's cards against the side, and only the
    partner knows whether a few more turns would meld them.  So not when the partner holds
    two cards or fewer (little to lose: just go out), nor when a "no" would hand the hand to
    the opponents: one of them can go out (the canastas, two cards or fewer) before the
    next chance, or the stock is nearly gone."""
    partner = K.partner_seat(v, v.turn)
    if partner is None or v.hand_sizes[partner] <= 2 or v.stock_size < 4:
        return False
    if style is not None and style.partner and catches_opponents(v):
        return False  # clearly right to go out now: a "no" would give them turns to meld
    return not any(K.may_go_out_soon(v, p, 2) for p in K.opponents(v, v.turn))


# --------------------------------------------------------------------------- a partner worth having

# Issue 20: "the computer partner feeds its partner's melds, keeps the pile safe when the
# other side is close, answers 'May I go out?' from what it can see, and asks where a good
# partner would."  The Expert's habits (``Style.partner``); tests/ai/test_partner.py shows
# each with a position that names its rule of play.

#: Points a card held by a side that has not melded is counted at, on average (going out
#: counts the whole hand against that side).
CAUGHT_CARD = 8
#: "No" while this hand holds at least this many points it could meld on its own turn.
MELD_SOON = 90
#: The opponents' table ahead of the side's by this much: "the other side has the first
#: large pack".
BIG_PACK = 300


def caught_cards(v: PlayerView) -> int:
    """Cards held by the opponents of the side to play whose side has not melded: going
    out now counts them all against that side (DOS "Scoring": "deducts any ... un-played
    cards"; "If a partnership has not satisfied the initial meld requirement, any melded
    red Threes are penalized 200 points each")."""
    return sum(v.hand_sizes[p] for p in K.opponents(v, v.turn)
               if not any(m is not None for m in v.melds[team(p, v.rules)]))


def catches_opponents(v: PlayerView) -> bool:
    """Going out now catches the other side unmelded, holding clearly more cards than the
    partner of the side to play (whose cards count against its side): go out, do not wait."""
    partner = K.partner_seat(v, v.turn)
    own = v.hand_sizes[partner] if partner is not None else 0
    return caught_cards(v) >= own + 4


def partner_may_go_out(v: PlayerView) -> bool:
    """The partner of the seat to play could go out at its next turn: the side has the
    canastas it needs and the partner holds three cards or fewer.  Then the cards this
    hand keeps back would count against the side: meld them now."""
    partner = K.partner_seat(v, v.turn)
    return partner is not None and K.may_go_out_soon(v, partner, 3)


def partner_answer(v: PlayerView, pts: int, meldable: int) -> bool | None:
    """"May I go out?" answered from what this seat sees (its hand ``pts`` points, of which
    ``meldable`` could go down soon; the table; the hand sizes; the stock); None when none
    of these habits decides.

    The asker's side plays in the order asker, an opponent, this seat, the other opponent:
    after a "no" this seat melds at its next turn with only one opponent playing before it,
    and the asker may still go out at its own next turn ("bound by the reply for that round
    only").  So:

    - "yes" when going out catches the other side unmelded (:func:`catches_opponents`), a
      "no" would give them turns to open, and this hand costs less than their cards;
    - "yes" when the stock is nearly gone, or when the opponent who plays next could go
      out before this seat's turn (its side has the canastas, two cards or fewer): this
      hand counts against the side either way;
    - "yes" when the other side has the first large pack: "a good player often abandons
      hope for that particular hand and attempts to 'Go Out' as quickly as possible";
    - "no" while this hand holds many points it could meld at its own turn: "don't be in a
      hurry to go out if you have a better chance for further scoring".
    """
    asker = v.turn
    tm = team(asker, v.rules)
    if catches_opponents(v) and pts <= CAUGHT_CARD * caught_cards(v):
        return True
    if v.stock_size < 8:
        return True
    if K.may_go_out_soon(v, K.opponents(v, asker)[0], 2):
        return True
    theirs = max(K.table_value(v, team(p, v.rules)) for p in K.opponents(v, asker))
    if theirs >= K.table_value(v, tm) + BIG_PACK:
        return True
    if meldable >= MELD_SOON:
        return False
    return None


#: Hands tried for the asker by :func:`deal_after_ask` before it gives up.
ASK_TRIES = 12


def deal_after_ask(v: PlayerView, rng: random.Random, tries: int = ASK_TRIES) -> GameState:
    """A deal of the cards this seat cannot see, for answering "May I go out?": consistent
    with its view *and with the question*.  "Permission may only be asked after the player
    has drawn but before any meld" and, here, only when going out is possible: a partner
    who asks can meld out.  A deal that ignores this mostly gives the asker a hand that
    cannot go out, where "yes" only costs the 100 penalty for not abiding by it, and a
    search over such deals answers "no" to everything.

    The asker's hand is dealt from the unseen cards, the cards that fit the side's melds
    (its ranks, wild cards) first and maybe one to discard, until :func:`go_out_plan` can
    meld it out (at most ``tries`` hands); the rest is dealt at random.  When no hand is
    found the deal is the plain one.  The deal's public facts are the view's: what the
    asker's hand was built from stays unknown to the players of the rollouts."""
    asker = v.turn
    if v.phase != Phase.PERMISSION or S.is_variant(v.rules):
        return determinize(v, rng)
    tm = team(asker, v.rules)
    row = v.melds[tm]
    fixed = v.known[asker]
    need = v.hand_sizes[asker] - len(fixed)
    pool = [c for c in unseen_cards(v) if not IS_RED_THREE[c]]  # the asker has laid out its red threes
    if need <= 0 or len(pool) < need:
        return determinize(v, rng)
    for _ in range(tries):
        rng.shuffle(pool)
        fits = [i for i, c in enumerate(pool) if IS_WILD[c] or (RANK_OF[c] != THREE and row[RANK_OF[c]] is not None)]
        take = fits[:need - 1 if rng.random() < 0.5 else need]
        chosen = set(take)
        take += [i for i in range(len(pool)) if i not in chosen][:need - len(take)]
        hand = fixed + tuple(pool[i] for i in take)
        known = tuple(hand if p == asker else k for p, k in enumerate(v.known))
        world = determinize(v._replace(known=known), rng)._replace(known=v.known)
        if go_out_plan(view_for(world, asker), tm) is not None:
            return world
    return determinize(v, rng)


# --------------------------------------------------------------------------- opening

def _own_avail(v: PlayerView) -> list[int] | None:
    """After taking the pile unopened: cards of each rank that came from the hand (they
    count toward the initial meld; pile cards do not).  None when everything counts."""
    own = v.t.own
    if own is None:
        return None
    avail = K.counts(own)
    for c in v.t.melded:
        q = RANK_OF[c] if not IS_RED_THREE[c] else 0
        if avail[q] > 0:
            avail[q] -= 1
    return avail


def opening_plan(v: PlayerView, style: Style) -> list[Action]:
    """Melds that reach the initial meld requirement, naturals before wild cards, keeping
    at least two cards; empty when the requirement cannot be reached.  In Samba and Bolivia
    sequences count too: after the sets of a rank, or before them when that reaches the
    requirement and the other order does not (10h-Ah and three Kings make 90; four Kings and
    10h-Qh only 70)."""
    plan = _opening_plan(v, style, sequences_first=False)
    if not plan and v.rules.sequences:
        plan = _opening_plan(v, style, sequences_first=True)
    return plan


def _opening_plan(v: PlayerView, style: Style, sequences_first: bool) -> list[Action]:
    need = v.meld_needed - v.meld_count
    tm = K.turn_team(v)
    r = v.melds[tm]
    hand = v.hand
    cnt = K.counts(hand)
    avail = _own_avail(v)

    def pts(q: int, n: int) -> int:
        if avail is None:
            return n * VALUE[q * 4 if q != JOKER else 56]
        got = min(n, avail[q])
        avail[q] -= got
        return got * VALUE[q * 4 if q != JOKER else 56]

    plan: list[Action] = []
    left = len(hand)
    total = 0
    rules = v.rules

    def sequences() -> None:
        # Samba, Bolivia: sequences "count toward the initial meld at their cards' values"; from
        # ranks the plan has not touched (so the engine cannot take their cards for a set).
        nonlocal total, left
        untouched = K.counts(hand)
        for a, c in S.extensions(r, hand, [q for q in NATURAL_RANKS if cnt[q] == untouched[q]]):
            if total >= need or left - 1 < 2:
                break
            total += pts(RANK_OF[c], 1)
            cnt[RANK_OF[c]] -= 1
            left -= 1
            plan.append(a)
        for seq in S.hand_runs(hand, [q for q in NATURAL_RANKS if cnt[q] == untouched[q]]):
            if total >= need or left - 3 < 2:
                break
            seq = seq[:max(3, min(len(seq), left - 2))]
            for c in seq:
                total += pts(RANK_OF[c], 1)
                cnt[RANK_OF[c]] -= 1
            left -= len(seq)
            plan.extend(S.sequence_actions(seq))

    # Naturals onto melds made this turn (after taking the pile), then natural sets.
    for q in NATURAL_RANKS:
        if r[q] is not None and cnt[q] and total < need and left - cnt[q] >= 2:
            total += pts(q, cnt[q])
            left -= cnt[q]
            plan.extend([A.add(q)] * cnt[q])
            cnt[q] = 0
    if sequences_first:
        sequences()
    for q in sorted((q for q in NATURAL_RANKS if cnt[q] >= 3 and r[q] is None), key=lambda q: -VALUE[q * 4]):
        if total >= need:
            break
        n = cnt[q]
        if left - n < 2:
            n = 3
            if left - n < 2:
                continue
        total += pts(q, n)
        left -= n
        plan.append(A.meld(q, q, q))
        plan.extend([A.add(q)] * (n - 3))
        cnt[q] -= n
    if total < need and rules.sequences and not sequences_first:
        sequences()
    wild_ranks = sorted([DEUCE] * cnt[DEUCE] + [JOKER] * cnt[JOKER], key=lambda w: VALUE[w * 4 if w != JOKER else 56])
    if total < need and rules.wilds_allowed(2) >= 1:
        for q in sorted((q for q in NATURAL_RANKS if cnt[q] == 2 and r[q] is None), key=lambda q: -VALUE[q * 4]):
            if total >= need or not wild_ranks or left - 3 < 2:
                break
            # the highest-value wild card when far from the target, else the cheapest
            w = wild_ranks.pop() if need - total > 2 * VALUE[q * 4] + 20 else wild_ranks.pop(0)
            total += pts(q, 2) + pts(w, 1)
            left -= 3
            plan.append(A.meld(q, q, w))
            cnt[q] = 0
    if total < need:
        # wild cards onto the melds of the plan or the table
        targets = [a.ranks[0] for a in plan if a.kind == A.MELD] + [q for q in NATURAL_RANKS if r[q] is not None]
        for q in targets:
            while total < need and wild_ranks and left - 1 >= 2:
                m = r[q]
                have_w = len(m.wilds) if m is not None else sum(1 for a in plan if a.kind == A.MELD
                                                                and a.ranks[0] == q and a.ranks[2] != q)
                nat_n = (len(m.naturals) if m is not None else 3)
                if have_w >= rules.wilds_allowed(nat_n):
                    break
                w = wild_ranks.pop()
                total += pts(w, 1)
                left -= 1
                plan.append(A.add(w, q))
    if total < need:
        return []
    return plan


# --------------------------------------------------------------------------- optional melds

def optional_meld(v: PlayerView, style: Style, tm: int) -> Action | None:
    """A meld worth making now, or None (then discard)."""
    legal = v.legal
    hand = v.hand
    n = len(hand)
    r = v.melds[tm]
    cnt = K.counts(hand)
    keep = style.keep_cards
    if style.advanced and K.threat(v) >= 1.0:
        keep = 2  # the other side is about to go out: get the points down
    elif style.partner and partner_may_go_out(v):
        keep = 2  # so is the partner: this hand's cards would count against the side
    best: tuple[float, Action] | None = None
    variant = S.is_variant(v.rules)
    for a in legal:
        if a.kind not in (A.MELD, A.ADD, A.JOIN):
            continue
        k = len(a.ranks)
        rest = n - k if a.kind != A.JOIN else n
        if rest < 2:
            continue  # never meld down to one card unless going out (handled elsewhere)
        q = a.ranks[0]
        score = -1.0
        special = S.meld_score(v, a, tm, style.advanced, n, keep) if variant else None
        if special is not None:
            score = special
        elif a.kind == A.JOIN:
            continue
        elif a.kind == A.ADD and q not in (DEUCE, JOKER, THREE):
            # a natural onto our meld: always useful, it cannot be stolen from the hand
            m = add_target(r, a, v.rules)
            score = 50.0 + (20.0 if m is not None and m.size == 6 else 0.0)
            if style.advanced and rest < keep and cnt[q] == 1 and n <= keep:
                score = 5.0  # keep a few cards to catch the pile
        elif a.kind == A.ADD:
            m = add_target(r, a, v.rules)
            if m is None or q == THREE:
                continue
            score = _wild_add_score(v, style, m, cnt)
        elif a.kind == A.MELD:
            if q == THREE:
                continue
            natural = all(x == q for x in a.ranks)
            if natural:
                score = 40.0 if (not style.advanced or rest >= keep or cnt[q] >= 4) else -1.0
            elif style.pair_wild_melds or (style.advanced and n >= 10 and cnt[DEUCE] + cnt[JOKER] >= 2):
                score = 10.0 if rest >= keep else -1.0
                if a.ranks[2] == JOKER:
                    score -= 5.0
        if score > 0 and (best is None or score > best[0]):
            best = (score, a)
    return best[1] if best else None


def _wild_add_score(v: PlayerView, style: Style, m: Meld, cnt: list[int]) -> float:
    """A wild card onto a meld: worth it when it makes (or nearly makes) a canasta."""
    size = m.size
    if size >= 7:
        return -1.0
    wilds_held = cnt[DEUCE] + cnt[JOKER]
    if not style.advanced:
        return 30.0 if size == 6 else -1.0
    if v.rules.wild_melds_allowed:
        # Bolivia: wild cards are worth most together (a bolivia scores 2,500); one goes onto a
        # group only to finish a canasta the side needs to go out.
        tm = K.turn_team(v)
        return 45.0 + size if size == 6 and canastas_missing(v.melds[tm], v.rules) > 0 else -1.0
    # "Make mixed canastas fast": when the wild cards in hand finish the canasta
    if size + wilds_held >= 7 and len(m.wilds) + (7 - size) <= v.rules.wilds_allowed(len(m.naturals)):
        return 45.0 + size
    if (style.aggressive and size >= 5) or (style.wild_from and size >= style.wild_from):
        return 20.0
    return -1.0


# --------------------------------------------------------------------------- discarding

def discard_scores(v: PlayerView, style: Style, discards: list[Action]) -> list[tuple[float, Action]]:
    """How much each discard would cost (lower is better)."""
    hand = v.hand
    cnt = K.counts(hand)
    tm = K.turn_team(v)
    mine = v.melds[tm]
    nxt = K.next_player(v, v.turn)
    opp_seats = K.opponents(v, v.turn)
    opp_rows = [v.melds[team(p, v.rules)] for p in opp_seats]
    opp_open = [any(m is not None for m in row) for row in opp_rows]
    seen = K.seen_counts(v)
    nxt_known = K.counts(v.known[nxt]) if nxt != v.seat else [0] * 15
    pile_n = len(v.pile)
    threat = K.threat(v)
    rules = v.rules
    runs = S.run_strength(v, tm)
    run_keep = (0.0, 10.0, 30.0, 50.0) if style.advanced else (0.0, 5.0, 15.0, 30.0)

    def onto(row: tuple[Meld | None, ...], q: int) -> bool:
        # Samba: the upcard goes only "to a meld that is less than a canasta" (beside a
        # canasta a natural pair takes it: the danger of a pair, below).
        return S.takes_onto(row, q, rules)
    out: list[tuple[float, Action]] = []
    for a in discards:
        c = a.card
        q = RANK_OF[c]
        if IS_RED_THREE[c]:
            out.append((500.0, a))
            continue
        if IS_BLACK_THREE[c]:
            # a stop card: the next player cannot take the pile
            score = -40.0 if style.advanced else 0.0
            if rules.black_three_hand_penalty:
                score = -60.0  # Bolivia: a black three left in hand costs 100
            if style.advanced and cnt[THREE] >= 3 and canastas_missing(mine, rules) <= 0:
                score = 20.0
            out.append((score, a))
            continue
        if IS_WILD[c]:
            score = 250.0 if q == JOKER else 200.0
            if style.advanced and not v.frozen and pile_n >= 6 and any(opp_open) and threat + pile_n / 8 >= 1.5 \
                    and not rules.wild_melds_allowed:
                score = 30.0 if q == DEUCE else 60.0  # freeze the big pile the opponents want
            out.append((score, a))
            continue
        keep = 0.0
        n = cnt[q]
        if n >= 2:
            keep += (60.0 if style.advanced else 25.0) * (n - 1)
        if mine[q] is not None:
            keep += 15.0
        keep += run_keep[runs.get(c, 0)]  # Samba, Bolivia: a suited run toward a samba
        danger = 0.0
        if style.advanced:
            unseen = max(0, K.copies(rules) - seen[q])
            if q in (JOKER, DEUCE):
                pass
            elif opp_rows and onto(opp_rows[0], q) and not v.frozen and opp_open[0]:
                danger = 150.0 + 12.0 * pile_n
            elif any(onto(row, q) for row in opp_rows) and not v.frozen:
                danger = 60.0 + 6.0 * pile_n
            else:
                kn = nxt_known[q]
                if kn >= 2:
                    danger = 120.0 + 8.0 * pile_n
                elif kn == 1:
                    danger = 40.0 + 4.0 * pile_n * (unseen > 0)
                else:
                    # chance the next player holds a pair of this rank grows with unseen copies
                    danger = unseen * unseen * 0.9 * (1.0 + pile_n / 5.0)
                if v.frozen:
                    danger *= 0.8
            keep += VALUE[c] * 0.3  # high cards make melds count
        else:
            if any(onto(row, q) for row in opp_rows) and not v.frozen:
                danger = 40.0
            keep -= VALUE[c] * 0.2  # beginners throw the expensive singletons
        out.append((keep + danger, a))
    return out


def best_discard(v: PlayerView, style: Style, discards: list[Action]) -> Action:
    scored = discard_scores(v, style, discards)
    return min(scored, key=lambda x: (x[0], x[1].card))[1]
