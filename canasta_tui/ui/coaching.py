"""The coach at one terminal (issue 20, "A coach"): the hint key's answer on the hint line, each
human seat's decisions of the hand, and the review of the hand after it.

The work is the Expert's (:mod:`canasta_tui.ai.coach`) and takes a noticeable time, so it never
runs on the screen's thread: a :data:`Runner` given by the app runs it elsewhere (a worker thread
at home, the server's computer workers over SSH) and hands the answer back on the screen's
thread; meanwhile the hint line says "Thinking…" and the review page "Reviewing the hand…".
Without an app (tests of the model) the work runs at once.

The coach reads only the view of the seat it coaches: in hot-seat each human gets their own
hint and their own review, behind a screen that asks the others to look away.
"""

from __future__ import annotations

import functools
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..ai.asking import Outlook, going_out
from ..ai.coach import HINT_BUDGET, REVIEW_BUDGET, Decision, Hint, Mistake, hint, review
from ..engine import Phase, PlayerView
from ..engine.state import next_seat, team
from .canvas import Canvas, Options, card_label, first_fit, fit, folded, glyph_text, wrap
from .dialogs import SheetEnd, TableDialog, TableFacts, TableHost
from .lineedit import list_move
from .style import Glyphs
from .texts import meld_cell, ordered_slots, side_name, sort_hand

#: Runs ``work`` off the screen's thread, then ``done`` with its answer (None if it failed) on it.
Runner = Callable[[Callable[[], Any], Callable[[Any], None]], None]
#: What the hint line says while the Expert thinks.
THINKING = "Thinking… (the Expert looks for the best move)"
#: Query's look ahead on the screen's thread: at most this many positions (see Coach.quick).
QUICK = 100
#: What the hint line says while Query finds out whether asking could only cost.
CHECKING = "Query: looking whether you could go out this turn…"


def run_here(work: Callable[[], Any], done: Callable[[Any], None]) -> None:
    """The runner without an app: the work at once (the model's tests)."""
    try:
        answer = work()
    except Exception:
        answer = None
    done(answer)


def _nothing() -> None:
    pass


@dataclass(eq=True)
class Coach:
    """The coach at one terminal: hints asked, decisions recorded, reviews made."""

    seed: int = 1
    #: Why this table gives no hints ("No hints at a rated table"); "" where it does.
    refusal: str = ""
    #: Options: "Review each hand".
    review_on: bool = False
    #: Runs the Expert's work off the screen's thread (the app sets it).
    run: Runner = run_here
    #: The screen repaints after an answer came (the app repaints after its runner anyway).
    changed: Callable[[], None] = _nothing
    #: Per seat, this hand's decisions (view, action); ``hand`` is the hand they are of.
    decisions: dict[int, list[Decision]] = field(default_factory=dict)
    hand: int = 0
    #: Per seat, the review of the hand (None while it is being made).
    reviews: dict[int, list[Mistake] | None] = field(default_factory=dict)
    #: Hints one person may ask for in a minute (0: no limit).  At a server each hint is a search
    #: in the workers that every table's computers think in, and melding and taking it back makes
    #: new positions as fast as keys come: a bound, so that nobody can keep the workers busy.
    per_minute: int = 0
    clock: Callable[[], float] = time.monotonic
    _asked: PlayerView | None = None       # the view the hint line answers
    _line: str = ""
    _thinking: bool = False                # a hint is being worked out (one at a time)
    _limited: bool = False                 # the hint line says to wait (asking again looks again)
    _next: PlayerView | None = None        # asked meanwhile: worked out when the one before is done
    _times: deque[float] = field(default_factory=deque)
    #: Positions Query's look ahead may visit on the screen's thread before it goes elsewhere
    #: (a hundred: a few hundredths of a second at most; nearly every hand needs fewer).
    quick: int = QUICK
    _checking: PlayerView | None = None    # Query's look ahead is under way for this view
    _outlook: tuple[PlayerView, Outlook] | None = None   # its last answer

    # ------------------------------------------------------------------ before asking
    def before_asking(self, view: PlayerView, done: Callable[[Outlook], None]) -> None:
        """Query: could this turn go out, and concealed (:func:`~canasta_tui.ai.asking.going_out`)?
        Most hands answer at once, so the keys typed after y (the warning's y) find the warning
        open; a hand that takes longer (a long hand of Samba can take a second) is looked at off
        the screen's thread, then ``done`` has the answer on it.  Each position once (the same
        view asked again, after "n", answers at once)."""
        if self._outlook is not None and self._outlook[0] == view:
            done(self._outlook[1])
            return
        if self._checking == view:
            return                               # on its way: its answer acts
        quick = going_out(view, limit=self.quick) if self.quick else Outlook.UNKNOWN
        if quick != Outlook.UNKNOWN:
            self._outlook = (view, quick)
            done(quick)
            return
        self._checking = view

        def finished(answer: Outlook | None) -> None:
            if self._checking == view:
                self._checking = None
            outlook = answer if isinstance(answer, Outlook) else Outlook.UNKNOWN
            self._outlook = (view, outlook)
            done(outlook)
            self.changed()
        self.run(functools.partial(going_out, view), finished)

    # ------------------------------------------------------------------ the hint
    def ask(self, view: PlayerView) -> None:
        """The hint key on the player's turn: the Expert thinks about ``view`` off the screen's thread."""
        if self._asked == view and self._line and not self._limited:
            return                               # asked already: the answer is on its way or shown
        wait = self._wait()
        self._asked = view
        self._limited = bool(wait)
        if wait:
            self._line = f"Hints: at most {self.per_minute} a minute; the next one in {wait} s"
            return
        self._times.append(self.clock())
        self._line = THINKING
        if self._thinking:
            self._next = view                    # one search at a time: this one after it
            return
        self._think(view)

    def _wait(self) -> int:
        """Seconds until a hint may be asked again (0: now)."""
        if not self.per_minute:
            return 0
        now = self.clock()
        while self._times and now - self._times[0] >= 60.0:
            self._times.popleft()
        if len(self._times) < self.per_minute:
            return 0
        return max(1, int(60.0 - (now - self._times[0]) + 0.999))

    def _think(self, view: PlayerView) -> None:
        self._thinking = True

        def done(answer: Hint | None) -> None:
            self._thinking = False
            if self._asked == view:
                self._line = answer.text if answer is not None else "The coach could not answer: try again"
                self.changed()
            later, self._next = self._next, None
            if later is not None and later == self._asked:
                self._think(later)
        self.run(functools.partial(hint, view, self.seed, HINT_BUDGET), done)

    def line(self, view: PlayerView) -> str:
        """The hint line for ``view``: the hint (or "Thinking…") while nothing changed since it was
        asked; Query's "looking" while it looks."""
        if self._checking is not None and self._checking == view:
            return CHECKING
        return self._line if self._asked == view else ""

    # ------------------------------------------------------------------ the review
    def record(self, hand: int, seat: int, move: Callable[[], Sequence[Decision]]) -> int:
        """A human ``seat`` plays a move in hand ``hand``: with the review on, its decisions (``move``
        gives them: each action of the move with the view it is played from) are kept; how many.

        Every action of a move is a decision of its own: the Expert, too, decides one action at a
        time (comparing ways to play the rest of the turn after it), so an action judged in the
        position it was played in costs what it adds to the actions before it, and a move's
        actions never count one choice twice."""
        if hand != self.hand:
            self.decisions.clear()
            self.reviews.clear()
            self.hand = hand
        if not self.review_on or seat in self.reviews:
            return 0
        kept = list(move())
        self.decisions.setdefault(seat, []).extend(kept)
        return len(kept)

    def forget_last(self, seat: int, n: int = 1) -> None:
        """The move just kept (its ``n`` decisions) was refused: it was no decision."""
        kept = self.decisions.get(seat)
        if kept and n > 0:
            del kept[-n:]

    def hand_over(self, hand: int) -> None:
        """The hand is over: review each seat's decisions off the screen's thread."""
        if not self.review_on or hand != self.hand:
            return
        for seat, decisions in self.decisions.items():
            if seat in self.reviews:
                continue
            self.reviews[seat] = None

            def done(answer: list[Mistake] | None, seat: int = seat) -> None:
                if self.hand == hand:
                    self.reviews[seat] = answer if answer is not None else []
                    self.changed()
            self.run(functools.partial(review, tuple(decisions), self.seed, REVIEW_BUDGET), done)

    def review_page(self, seats: tuple[int, ...], hot_seat: bool, hand: int) -> TableDialog | None:
        """The review page for these seats after hand ``hand`` (None: nothing to review)."""
        mine = tuple(s for s in seats if s in self.reviews and self.hand == hand)
        if not self.review_on or not mine:
            return None
        return Review(coach=self, seats=mine, private=hot_seat)


@dataclass
class Review(TableDialog):
    """After a hand: the decisions where the Expert would have chosen otherwise, most costly first,
    and under them the position the chosen one was decided in, as the player saw it (their hand,
    the pile, both sides' melds, the others' cards in hand): a choice is understood in its position.
    Up/Down choose a decision (PgUp/PgDn, Home/End the first and the last); Enter goes on (to the
    next player's review in hot-seat, then the score sheet); Esc skips a review still being made.
    In hot-seat each player's review comes behind a screen that asks the others to look away."""

    full_screen: ClassVar[bool] = True
    title: ClassVar[str] = "Review of the hand"
    coach: Coach = field(default_factory=Coach)
    seats: tuple[int, ...] = ()
    private: bool = False        # hot-seat: ask the others to look away first
    at: int = 0                  # whose review (index into seats)
    shown: bool = False          # hot-seat: that player pressed Enter
    chosen: int = 0              # the decision whose position is shown (index into the review)
    top: int = 0                 # the first decision listed
    _chosen: tuple[int, ...] = field(default=(), init=False, repr=False)   # its rows, as last listed

    @property
    def seat(self) -> int:
        return self.seats[self.at]

    def key(self, host: TableHost, name: str) -> None:
        if self.private and not self.shown:
            if name == "enter":
                self.shown = True
            elif name == "escape":
                self._next(host)
            return
        moved = list_move(name, self.chosen, max(1, len(self._items())))
        if moved is not None:
            self.chosen = moved
        elif name in ("enter", "space", "escape", "q"):
            self._next(host)

    def _next(self, host: TableHost) -> None:
        self.at += 1
        self.top = self.chosen = 0
        self.shown = False
        if self.at >= len(self.seats):
            host.open(SheetEnd())

    def _items(self) -> list[Mistake]:
        return self.coach.reviews.get(self.seat) or []

    def draw(self, cv: Canvas, table: TableFacts, opts: Options) -> None:
        g = opts.glyphs
        name = table.link.name(self.seat)
        cv.fill(0, 0, cv.width, cv.height)
        if self.private and not self.shown:
            lines = [f"{name}'s review of the hand {g.dash} press Enter", "",
                     "(everybody else: please look away; Esc skips it)"]
            for i, line in enumerate(lines):
                cv.put(cv.height // 2 - 1 + i, max(0, (cv.width - len(line)) // 2), line, "message" if i == 0 else "")
            return
        cv.put(0, 0, (f"{g.hline} {self.title}: {name} " + g.hline * cv.width)[: cv.width], "heading")
        lines = self.lines(table, cv, opts)       # first: it scrolls the list to the chosen decision
        chosen = self._chosen_rows()
        for y, line in enumerate(lines, start=2):
            if y >= cv.height - 2:
                break
            style = "selected" if y - 2 in chosen else "dim" if line.startswith(g.hline) else ""
            cv.put(y, 2, fit(glyph_text(line, g), cv.width - 3, g.ellipsis), style)
            if y - 2 == min(chosen, default=-1):
                cv.put(y, 0, ">", "selected")       # the chosen decision, without colour too
        cv.put(cv.height - 1, 0, self._foot()[: cv.width], "dim")

    def _foot(self) -> str:
        last = self.at + 1 >= len(self.seats)
        go = "Enter: the score sheet" if last else "Enter: the next player's review"
        if self.coach.reviews.get(self.seat) is None:
            return f"{go}    Esc: skip the review"
        return f"Up/Down: choose a decision    {go}" if self._items() else go

    #: Lines above the list: the explanation and a blank line.
    HEAD = 3
    #: Where a decision's reason begins under it (after the cost's column).
    WHY = 11

    def _chosen_rows(self) -> set[int]:
        """The rows of :meth:`lines` (from 0) of the chosen decision: what was played, and why."""
        return set(self._chosen)

    def _item(self, m: Mistake, room: int, chosen: bool, g: Glyphs) -> list[str]:
        """A decision's lines in the list: what was played and the better move, then why.  The
        chosen one whole (wrapped); the others a line each, the reason's point first (what
        comes before its colon) where the whole does not fit."""
        pad = " " * self.WHY
        text, why = glyph_text(m.text, g), glyph_text(m.why, g)     # (--ascii's "+-" is longer than "±")
        if chosen:
            return [*wrap(text, room), *(pad + w.strip() for w in wrap(why, room - self.WHY))]
        return [fit(text, room, g.ellipsis), pad + first_fit([why, why.split(": ", 1)[0]], room - self.WHY, g.ellipsis)]

    def lines(self, table: TableFacts, cv: Canvas, opts: Options) -> list[str]:
        self._chosen = ()
        got = self.coach.reviews.get(self.seat)
        if got is None:
            return ["Reviewing the hand… (the Expert plays each of your decisions out)", "",
                    "Esc skips the review."]
        head = ["Where the Expert's search found a clearly better choice, most costly first:",
                "the points each choice lost by its estimate, ± its standard error.", ""]
        if not got:
            return ["No choice cost 30 points or more beyond the search's own uncertainty.", "",
                    "Nothing to review: well played."]
        self.chosen = max(0, min(self.chosen, len(got) - 1))
        m = got[self.chosen]
        when = {Phase.DRAW: "before you drew", Phase.PERMISSION: "when asked"}.get(m.view.phase, "after you drew")
        room = cv.width - 3
        below = [opts.glyphs.hline * 3 + f" Your turn {m.own_turn}, {when}: what you saw",
                 *(w for line in position_lines(m.view, table.sort, opts.glyphs, table.link.name)
                   for w in wrap(line, room))]
        # Each decision takes two lines (what was played and the better move, then why); the
        # chosen one as many as it needs to be read whole.
        mine = self._item(m, room, True, opts.glyphs)
        rows = max(1, (cv.height - 4 - len(head) - len(below) - 1 - (len(mine) - 2)) // 2)
        self.top = max(0, min(self.top, self.chosen, len(got) - rows))
        self.top = max(self.top, self.chosen - rows + 1)
        items = got[self.top:self.top + rows]
        shown: list[str] = []
        for i, it in enumerate(items, start=self.top):
            if i == self.chosen:
                self._chosen = tuple(range(self.HEAD + len(shown), self.HEAD + len(shown) + len(mine)))
                shown += mine
            else:
                shown += self._item(it, room, False, opts.glyphs)
        more = len(got) - self.top - len(items)
        if more > 0 and self.chosen < self.top + len(items) - 1:
            shown[-2:] = [f"    … {more + 1} more (Down goes on)"]
        elif more > 0:
            shown.append(f"    … {more} more (Down goes on)")
        gap = max(1, cv.height - 4 - len(head) - len(shown) - len(below))
        return [*head, *shown, *[""] * gap, *below]


def position_lines(v: PlayerView, order: str, g: Glyphs, name: Callable[[int], str]) -> list[str]:
    """The position of a decision in a few lines, from the player's own view only (what they saw
    then): their hand in their sort order, the pile and the stock, each side's melds, and how many
    cards the others held."""
    hand = " ".join(card_label(c, g) for c in sort_hand(v.hand, order))
    pile = "Pile: empty" if not v.pile else (
        f"Pile: {folded(len(v.pile))}, upcard {card_label(v.pile[-1], g)}" + (" (frozen)" if v.frozen else ""))
    mine = team(v.seat, v.rules)

    def melds(t: int) -> str:
        cells = [meld_cell(m, 12, g, v.rules).strip() for _, m in ordered_slots(v.melds[t])]
        return "  ".join(cells) if cells else "no melds yet"

    names = [name(s) for s in range(v.rules.players)]
    others = [s for s in range(v.rules.players) if s != v.seat]
    held = ", ".join(f"{names[s]} {v.hand_sizes[s]}" for s in others)
    nxt = next_seat(v.seat, v.rules.players)
    return [f"Your hand ({len(v.hand)}): {hand}",
            f"{pile}; stock {v.stock_size}",
            f"Your side: {melds(mine)}",
            *(f"{'Theirs' if v.rules.teams == 2 else side_name(t, v.rules, names)}: {melds(t)}"
              for t in range(v.rules.teams) if t != mine),
            f"Cards in hand: {held} (next: {names[nxt]})"]


__all__ = ["CHECKING", "THINKING", "Coach", "Review", "Runner", "position_lines", "run_here"]
