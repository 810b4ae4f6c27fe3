"""The coach: a hint for the move now, and a review of a hand's decisions (issue 20, "A coach").

Both ask the Expert (:class:`~canasta_tui.ai.expert.ExpertPlayer`) and read only what the
player's own :class:`~canasta_tui.engine.PlayerView` shows: a hint or a review made from two
positions the player cannot tell apart (the same view) is the same, so neither can reveal a card
the player could not see.  The Expert's budget is counted in work, so a seed gives the same hint
and the same review on a quiet and on a busy machine.

* :func:`hint`: what the Expert would do now, in one line, with its reason in Canasta's words
  read from the view (the pile's cards and size, canastas missing, the initial meld, the other
  side close to going out, what a discard risks).
* :func:`review`: the decisions of a hand where a choice was clearly better, whoever would have
  made the one played (the Expert's rules of thumb too), with what each cost by the search: the
  mean difference over the same sampled deals (:func:`~canasta_tui.ai.expert.paired_gain`),
  measured again in fresh deals once the best was found, and its standard error, most costly
  first.  A difference within the noise (less than :data:`MIN_COST` points or :data:`NOISE`
  standard errors) is not called a mistake.

Pure: no I/O, no clock in the answer, randomness only from the seed handed in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from ..engine import Action, Phase, PlayerView
from ..engine import actions as A
from ..engine.cards import IS_BLACK_THREE, IS_WILD, RANK_NAMES, RANK_OF, RANK_WORDS, THREE, a_or_an, card_text, plural, rank_value
from ..engine.melds import Meld
from ..engine.moves import add_target, canastas_missing, group_slot
from ..engine.state import next_seat, team
from .expert import SE_MARGIN, ExpertPlayer, best_discards, paired_gain
from .heuristic import Style, decide
from .knowledge import canastas, counts, may_go_out_soon, my_team, opponents, passed_ranks
from .samba import is_variant, takes_onto

#: The Expert's budget for a hint, in seconds of the bench machine's work (the same on any machine).
HINT_BUDGET = 0.5
#: The Expert's budget for each decision of a review: longer than a move's (a review runs after the
#: hand, off the screen's thread), so that a choice that cost 30 points stands out of the noise.
REVIEW_BUDGET = 0.4
#: Of a review's budget, the share spent finding the best choice; the rest plays that choice and
#: the one played again in fresh deals, and only that second look says what the choice cost (the
#: best of many candidates is flattered by the deals it was found in).
FIND = 0.4
#: A choice costs less than this many points (issue 33: "down to 30 points where the evidence
#: holds it") ...
MIN_COST = 30.0
#: ... or less than this many standard errors: within the noise, not a mistake.
NOISE = SE_MARGIN
#: Seeds the second look's deals apart from the first's.
CHECK_SEED = 0x5EED
#: Cards in a canasta.
CANASTA = 7
#: The longest hint: it fits the hint line of an 80-column screen.
LINE = 78
#: The short reasons, for a hint whose full one does not fit its line.
SHORT = {A.DRAW: "the pile is not worth taking now", A.DISCARD: "the card you can best spare",
         A.MELD: "melded cards score for your side", A.ADD: "closer to a canasta",
         A.YES: "going out now pays", A.ASK: "going out now pays", A.NO: "your side is better off playing on"}
#: Words for small counts ("three Kings").
_COUNT = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


class Hint(NamedTuple):
    """What the Expert would do now (``action``, one of the view's legal actions) and ``text``, one
    line with its reason (suit symbols; a screen writes letters for ``--ascii``)."""

    action: Action
    text: str


class Decision(NamedTuple):
    """One decision of a player: the view they decided from and the action they took."""

    view: PlayerView
    action: Action


class Mistake(NamedTuple):
    """A decision where the Expert would have chosen ``better`` instead of ``played``: ``cost`` is the
    points the choice lost by its estimate, ``error`` that estimate's standard error; ``at`` is
    the decision's place in the list given to :func:`review`."""

    at: int
    view: PlayerView
    played: Action
    better: Action
    cost: float
    error: float

    @property
    def own_turn(self) -> int:
        """Which of the player's own turns of the hand it was (1: their first)."""
        v = self.view
        n = v.rules.players
        return (v.turn_number - (v.seat - v.dealer - 1) % n) // n + 1

    @property
    def text(self) -> str:
        """One line, the cost first: "-35 ±12  your turn 7: you discarded the 9♠; better: discard the 4♣"."""
        cost = f"-{self.cost:.0f} ±{self.error:.0f}"
        return (f"{cost:<10} your turn {self.own_turn}: you {done(self.played, self.view)}; "
                f"better: {_lower(todo(self.better, self.view))}")

    @property
    def why(self) -> str:
        """Why, in Canasta's words: between two discards, what the one played gave away when the view
        shows it (the next side could take the pile with it); else the reason for the better move."""
        v, played = self.view, self.played
        if played.kind == A.DISCARD and self.better.kind == A.DISCARD and not IS_WILD[played.card] \
                and not IS_BLACK_THREE[played.card] and not v.frozen:
            r = RANK_OF[played.card]
            their = team(next_seat(v.seat, v.rules.players), v.rules)
            if takes_onto(v.melds[their], r, v.rules):
                return f"the next side has {plural(r)} down: the pile ({_cards(len(v.pile) + 1)}) was theirs to take"
        return reasons(self.better, v)[0]


# ---------------------------------------------------------------------- the Expert's answers


def _expert(seed: int, budget: float) -> ExpertPlayer:
    # aggression 0: the coach plays the Expert's steady style, the same in every hand.  No wall-clock
    # safety stop: only the counted work ends a search, so the answer is the same however busy the
    # machine (four runs of one review on a loaded machine caught 5, 6, 6 and 5 planted blunders).
    return ExpertPlayer(seed, aggression=0, budget=budget, deadline=False)


def hint(view: PlayerView, seed: int = 0, budget: float = HINT_BUDGET) -> Hint:
    """What the Expert would do now in ``view`` (the player's own, on their turn), and why.  Counted
    in work: the same answer on a quiet and on a busy machine."""
    if not view.legal:
        raise ValueError("a hint is for the player to act: this view has no legal action")
    a = _expert(seed, budget).choose(view)
    why = reasons(a, view)
    if a.kind == A.DISCARD:
        # Issue 33: "A hint that is a discard comes from a search of the discards, not from the
        # rule of thumb alone."
        ranked = best_discards(view, budget, seed)
        if ranked and ranked[0].action in view.legal:
            a = ranked[0].action
            why = reasons(a, view)
            beaten = [d for d in ranked[1:] if d.gain == 0.0 and d.error == 0.0]    # the rules of thumb's
            if ranked[0].gain > 0.0 and beaten:
                # The search overrode the rules of thumb: say by how much, as it measured it.
                other = card_text(beaten[0].action.card, True)
                why = [f"by the search {ranked[0].gain:.0f} ±{ranked[0].error:.0f} points better than the {other}",
                       *why]
    what = todo(a, view)
    fits = [f"{what}: {w}" for w in why]
    return Hint(a, next((t for t in fits if len(t) <= LINE), fits[-1][:LINE]))


def review(decisions: Sequence[Decision], seed: int = 0, budget: float = REVIEW_BUDGET) -> list[Mistake]:
    """The decisions whose cost by the search is clear, by what they cost, most first.  Counted in
    work: the same review on a quiet and on a busy machine."""
    out = [m for i, d in enumerate(decisions) if (m := judge(i, d, seed, budget)) is not None]
    return sorted(out, key=lambda m: (-m.cost, m.at))


def review_candidates(v: PlayerView, played: Action, ex: ExpertPlayer) -> list[tuple[Action, Style | None]]:
    """What the review weighs the played action against: the Expert's own candidates (its rules of
    thumb's choice first, and the ways of playing the turn it compares), and more than the Expert
    weighs in a move: every way of taking the pile against drawing, and every discard (one of each
    rank: suits do not count)."""
    base = decide(v, ex.style, ex.memory)
    cands = ex._candidates(v, base if base in v.legal else v.legal[0])
    seen = {a for a, _ in cands}
    more: list[Action] = []
    if v.phase == Phase.DRAW:
        more = [a for a in v.legal if a.kind in (A.DRAW, A.PILE)]
    elif A.DISCARD in (played.kind, base.kind):
        ranks: set[int] = set()
        for a in v.legal:
            if a.kind == A.DISCARD and (RANK_OF[a.card] not in ranks or a == played):
                ranks.add(RANK_OF[a.card])
                more.append(a)
    for a in (*more, played):
        if a not in seen:
            seen.add(a)
            cands.append((a, None))
    return cands


def judge(index: int, d: Decision, seed: int, budget: float) -> Mistake | None:
    """The mistake in decision ``d`` (None: no choice is clearly better).

    Every candidate (:func:`review_candidates`) and the player's action are played out in the same
    sampled deals, and the best by its mean is found, whoever would have made the choice (the rules
    of thumb's choice too: issue 33, "The review never questions a move that matches the rules of
    thumb").  Then that choice and the player's are played again in fresh deals: the cost is their
    paired difference there, a mistake when it is at least :data:`MIN_COST` points and
    :data:`NOISE` standard errors."""
    v, played = d
    if len(v.legal) < 2 or played not in v.legal:
        return None
    cands = review_candidates(v, played, _expert(seed, budget))
    if len(cands) < 2:
        return None
    values = _expert(seed, budget * FIND).sample_values(v, cands)
    if len(values[0]) < 2:
        return None
    mine = next(j for j, (a, _) in enumerate(cands) if a == played)
    means = [sum(x) / len(x) for x in values]
    best = max(range(len(cands)), key=lambda j: (means[j], -j))
    if best == mine or means[best] - means[mine] < MIN_COST:
        return None
    again = _expert(seed + CHECK_SEED, budget * (1.0 - FIND)).sample_values(v, [cands[best], cands[mine]])
    if len(again[0]) < 2:
        return None
    cost, error = paired_gain(again[0], again[1])
    if cost < max(MIN_COST, NOISE * error):
        return None
    return Mistake(index, v, played, cands[best][0], cost, error)


# ---------------------------------------------------------------------- Canasta's words


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def _cards(n: int, what: str = "card") -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def _count(n: int, rank: int) -> str:
    """"three Kings", "a King"."""
    return a_or_an(RANK_WORDS[rank]) if n == 1 else f"{_COUNT.get(n, str(n))} {plural(rank)}"


def todo(a: Action, v: PlayerView) -> str:
    """The action as advice: "Take the pile", "Discard the 5♣", "Meld K K 2"."""
    k = a.kind
    if k == A.DRAW:
        return "Draw from the stock"
    if k == A.PILE:
        if sum(1 for b in v.legal if b.kind == A.PILE) < 2:
            return "Take the pile"
        if len(set(a.ranks)) == 1 and len(a.ranks) == 2:
            return f"Take the pile with your two {plural(a.ranks[0])}"
        return "Take the pile" + (f" with your {' and '.join(RANK_NAMES[r] for r in a.ranks)}" if a.ranks else "")
    if k == A.DISCARD:
        return f"Discard the {card_text(a.card, True)}"
    if k == A.MELD:
        return "Meld " + str(a).removeprefix("meld ")
    if k == A.ADD:
        where = "your wild cards" if a.target == 2 else f"your {plural(a.target)}" if a.target < 15 else "your sequence"
        what = RANK_NAMES[a.ranks[0]] if not a.is_sequence else card_text(a.card, True)
        return f"Add {what} to {where}"
    if k == A.JOIN:
        return f"Join your two melds of {plural(a.ranks[0])}"
    if k == A.ASK:
        return "Ask \"May I go out, partner?\""
    if k in (A.YES, A.NO):
        return f"Answer {k.value}"
    if k == A.UNDO:
        return "Take back your last meld"
    if k == A.UNPILE:
        return "Put the pile back"
    return "End the hand"


def done(a: Action, v: PlayerView) -> str:
    """The action as something done: "discarded the 9♠", "drew from the stock"."""
    text = todo(a, v)
    first, _, rest = text.partition(" ")
    past = {"Draw": "drew", "Take": "took", "Discard": "discarded", "Meld": "melded", "Add": "added",
            "Join": "joined", "Ask": "asked", "Answer": "answered", "Put": "put", "End": "ended"}
    return f"{past.get(first, first.lower())} {rest}".strip()


def reason(a: Action, v: PlayerView) -> str:
    """Why, in Canasta's words, read from the view alone."""
    return reasons(a, v)[0]


def reasons(a: Action, v: PlayerView) -> list[str]:
    """Why, the fullest way first, then shorter ones (a hint takes the first that fits its line)."""
    if a.kind == A.PILE:
        return _pile_reasons(a, v)
    return [_reason(a, v), SHORT.get(a.kind, "the Expert's search finds it best")]


def _reason(a: Action, v: PlayerView) -> str:
    if v.phase == Phase.DRAW:
        return _draw_reason(v)
    if v.phase == Phase.PERMISSION:
        return _answer_reason(a, v)
    if a.kind == A.DISCARD:
        return _discard_reason(a, v)
    if a.kind == A.MELD:
        return _meld_reason(a, v)
    if a.kind == A.ADD:
        # The meld the card really goes onto: a sequence by its span, and in Samba the meld of the
        # rank that is short of a canasta (not a finished canasta of the same rank).
        m = add_target(v.melds[my_team(v)], a, v.rules)
        size = (m.size if m is not None else 0) + 1
        # Samba, Bolivia: a sequence of seven is a samba (escalera), by the rules' own name.
        what = a_or_an(v.rules.sequence_canasta_name) if m is not None and m.is_sequence else "a canasta"
        if size == CANASTA:
            return f"it completes {what}"
        if size < CANASTA:
            more = CANASTA - size
            return f"{more} more card{'s make' if more > 1 else ' makes'} {what}"
        return "a card on the table can no longer count against you"
    if a.kind == A.ASK:
        return "your canastas are made: end the hand now"
    if a.kind == A.END:
        return "the stock is exhausted and nothing more is worth playing"
    if a.kind == A.JOIN:
        return "one bigger meld is closer to a canasta"
    return "this turn's melds do not pay for themselves"


def _side_melds(v: PlayerView, side: int) -> list[Meld]:
    return [m for m in v.melds[side] if m is not None]


def _meld_of(v: PlayerView, rank: int) -> Meld | None:
    """The side's meld that cards of ``rank`` go onto (Samba: the one short of a canasta)."""
    row = v.melds[my_team(v)]
    return row[group_slot(row, rank, v.rules)] if 0 <= rank < len(row) else None


def _others_close(v: PlayerView) -> bool:
    """Could the other side go out soon: the canastas it needs to go out made (in Bolivia one of
    them an escalera) and a hand of three cards or fewer?"""
    return any(may_go_out_soon(v, p, 3) for p in opponents(v))


def _pile_reasons(a: Action, v: PlayerView) -> list[str]:
    up = v.upcard
    n = len(v.pile)
    if up is None:
        return ["it is there to take"]
    r = RANK_OF[up]
    in_pile = Counter(RANK_OF[c] for c in v.pile if not IS_WILD[c] and RANK_OF[c] != THREE)
    wild = sum(1 for c in v.pile if IS_WILD[c])
    shown = [_count(k, rank) for rank, k in in_pile.most_common(2) if k >= 2]
    if wild:
        shown.append("a wild card" if wild == 1 else f"{_COUNT.get(wild, str(wild))} wild cards")
    holds = f"it holds {' and '.join(shown)}" if shown else f"it holds {_cards(n)}"
    m = _meld_of(v, r)
    have = (m.size if m is not None else 0) + counts(v.hand)[r] + in_pile[r]
    short = [f"it holds {' and '.join(shown[:1])}", f"it holds {_cards(n)}"] if shown else [holds]
    if (m is None or not m.is_canasta) and have >= CANASTA:
        return [f"{holds} and gives your side a canasta of {plural(r)}", f"it gives your side a canasta of {plural(r)}"]
    # When nothing in it stands out: how the upcard is melded (and what comes with it).
    how = _upcard_meld(a, v, up)
    if v.meld_needed:
        # (when that line is too long for the hint, how the upcard is melded alone)
        return [f"{holds if shown else how}, toward your initial meld of {v.meld_needed}", *([] if shown else [how]), *short]
    if shown:
        return [f"{holds} ({_cards(n)} in all)", *short]
    more = f", and {_cards(n - 1)} come{'s' if n == 2 else ''} with it" if n > 1 else ""
    return [f"{how}{more}", how, *short]


def _upcard_meld(a: Action, v: PlayerView, up: int) -> str:
    """How a pile take melds the upcard: onto the side's meld, with a pair, or with a wild card."""
    r = RANK_OF[up]
    shown = card_text(up, True)
    if not a.ranks:
        return f"the {shown} goes onto your {plural(r)}"
    if all(x == r for x in a.ranks):
        return f"your pair of {plural(r)} melds the {shown}"
    return f"{a_or_an(RANK_WORDS[r])} and a wild card meld the {shown}"


def _draw_reason(v: PlayerView) -> str:
    up = v.upcard
    if any(a.kind == A.PILE for a in v.legal):
        n = len(v.pile)
        if n <= 3:
            return f"the pile holds only {_cards(n)}: not worth what it costs"
        return f"the pile ({_cards(n)}) would cost more than it brings now"
    if up is None:
        return "there is no pile to take"
    r = RANK_OF[up]
    if IS_BLACK_THREE[up]:
        return "a black three on top blocks the pile this turn"
    if IS_WILD[up]:
        return "a wild card on top: the pile is frozen and cannot be taken with it"
    pair = counts(v.hand)[r] >= 2           # a natural pair of the upcard's rank
    if v.frozen and not pair:
        return f"the pile is frozen: it takes a natural pair of {plural(r)}"
    if v.meld_needed:
        if not pair:
            # "Until your side has made its initial meld, the pile is frozen for you" (short enough
            # for the hint line with "Draw from the stock: " and the longest rank name).
            return f"the pile takes a natural pair of {plural(r)} (frozen for you)"
        return f"the upcard does not make your initial meld of {v.meld_needed}"
    if pair:
        # The pair is there: what stops the take is the card the turn must end with.
        return "taking the pile would leave you no card to discard"
    return f"you cannot meld the upcard {card_text(up, True)}"


def _answer_reason(a: Action, v: PlayerView) -> str:
    need = v.rules.canastas_to_go_out
    have = canastas(v, my_team(v))
    if a.kind == A.YES:
        return f"your side has {_cards(have, 'canasta')}; the other side still holds cards"
    if have < need:
        return f"your side has {_cards(have, 'canasta')} and needs {need} to go out"
    if canastas_missing(v.melds[my_team(v)], v.rules):
        return "your side still needs an escalera (a sequence canasta) to go out"
    return "your side scores more by melding on than by ending the hand now"


def _meld_reason(a: Action, v: PlayerView) -> str:
    if v.meld_needed and v.meld_count < v.meld_needed:
        need, so_far = v.meld_needed, v.meld_count
        if v.t.drew == "pile" or a.card >= 0:
            # Cards from the pile do not count toward it (only the upcard does), and a sequence's
            # worth depends on its cards: say what is needed, not a figure the view cannot check.
            return f"toward your initial meld of {need} ({so_far} so far)"
        total = so_far + sum(rank_value(r) for r in a.ranks)
        if total >= need:
            return f"it makes your initial meld: {total} points of the {need} needed"
        return f"it brings your initial meld to {total} of the {need} points it needs"
    if len(a.ranks) >= CANASTA:
        return "it is a canasta at once"
    if _others_close(v):
        return "the other side may go out soon: get your points down"
    return "melded cards score and cannot be caught in your hand"


def _discard_reason(a: Action, v: PlayerView) -> str:
    c = a.card
    n = len(v.pile)
    if IS_BLACK_THREE[c]:
        return "a black three stops the next player from taking the pile"
    if IS_WILD[c]:
        return f"a wild card freezes the pile ({_cards(n)}) for the other side"
    r = RANK_OF[c]
    nxt = next_seat(v.seat, v.rules.players)
    their = team(nxt, v.rules)
    if your_meld := _meld_of(v, r):
        if your_meld.is_canasta:
            return f"your {plural(r)} are a canasta: keep what can still be melded"
    if any(not m.is_sequence and m.rank == r for m in _side_melds(v, their)) and not v.frozen:
        return f"the next side has {plural(r)} down: a risk, but the others are worth keeping more"
    # Copies in the pile are what a taker would gain, never safety (issue 33: "copies of the rank
    # already in the pile count as making the card *safer*"): only the hand's and the melds' count.
    in_pile = sum(1 for c2 in v.pile if RANK_OF[c2] == r)
    in_sight = sum(1 for c2 in v.hand if RANK_OF[c2] == r) + sum(
        len(m.naturals) for side in v.melds for m in side if m is not None and not m.is_sequence and m.rank == r)
    total = 4 * v.rules.packs
    if r in {RANK_OF[k] for k in v.known[nxt]}:
        return f"the next player holds {plural(r)}: a risk, but the others are worth keeping more"
    if not is_variant(v.rules) and r in passed_ranks(v, nxt):  # measured in classic Canasta
        # A natural pair is what a frozen pile takes; an open one takes a natural card and a wild
        # card too (issue 33), which the pile does not rule out.
        if v.frozen or not v.has_melded[nxt]:
            return f"the next player let {plural(r)} go: no pair to take the pile"
        return f"the next player let {plural(r)} go: a pair of them is unlikely"
    if _others_close(v):
        return "the other side may go out soon: shed points you cannot meld"
    if in_sight >= total // 2 and not in_pile:
        return f"{in_sight} of the {total} {plural(r)} are in sight: a pair for it is unlikely"
    if v.frozen:
        return f"the pile is frozen: the next player needs a pair of {plural(r)}"
    if counts(v.hand)[r] == 1 and not in_pile:
        return f"the next side has no {plural(r)} down, and it is your only {RANK_WORDS[r]}"
    return f"the next side has no {plural(r)} down"


__all__ = ["HINT_BUDGET", "MIN_COST", "NOISE", "REVIEW_BUDGET", "Decision", "Hint", "Mistake", "done", "hint",
           "judge", "reason", "reasons", "review", "review_candidates", "todo"]
