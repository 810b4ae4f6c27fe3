"""The replay viewer: a finished match stepped through move by move, every hand shown.

A :class:`~canasta_tui.table.replay.ReplaySource` is a match's frames (each position as every
seat's view, rebuilt beside the table by :class:`~canasta_tui.table.replay.MatchReplay`: the
viewer is a client and never holds the whole game), the seats' names and a title.
:class:`ReplayPage` shows them: the table as one seat saw it (drawn by the table's own
:func:`~.render.render` from a snapshot), or every hand at once.  Right/Left step a move,
n/p go to the next or previous hand, Tab (or 1-4) changes whose point of view, a shows every
hand.  ``canasta replay FILE`` opens it on a local save; over SSH the history opens it on a
finished match of the server (a match that is still played is refused before it gets here).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ..engine import Phase, PlayerView, team
from ..table.events import coalesced, describe
from ..table.replay import Frame, ReplayHand, ReplaySource, replay_source
from ..text import printable
from .canvas import (
    Canvas,
    Options,
    card_label,
    card_style,
    fit,
    fit_middle,
    folded,
    glyph_text,
    put_lines_up,
    too_small,
    wrap,
)
from .dialogs import TableFacts
from .pages import Hint, Page, draw_hints
from .render import match_score, render, short_team, table_layout
from .snapshot import TableSnapshot
from .texts import meld_line, sort_hand


class _NoClicks:
    """Mouse clicks of the drawn table go nowhere: a replay is looked at, not played."""

    def click_card(self, index: int) -> None:
        return None

    def right_click_card(self, index: int) -> None:
        return None

    def click_meld(self, side: int, rank: int) -> None:
        return None

    def command(self, cmd: str) -> None:
        return None


_DARK = {k: False for k in ("draw", "pile", "meld", "discard", "score", "query", "quit", "undo", "help", "end",
                            "unpile")}


class ReplayPage(Page):
    """A finished match, move by move, from any seat's point of view, every hand shown."""

    title: ClassVar[str] = "Replay"

    def __init__(self, source: ReplaySource, sort: str = "rank") -> None:
        super().__init__()
        self.source = source
        self.game = source.game
        self.sort = sort
        self.h = 0
        self.i = 0
        self.seat = 0
        self.every_hand = False
        players = self.game.rules.players
        self.names = tuple(printable(n) or f"Player {s + 1}" for s, n in
                           zip(range(players), (*source.names, *[""] * players), strict=False))

    # ------------------------------------------------------------------ where we are
    @property
    def steps(self) -> tuple[Frame, ...]:
        return self.game.hand(self.h).frames

    def step(self) -> Frame:
        return self.steps[self.i]

    def forward(self) -> None:
        if self.i + 1 < len(self.steps):
            self.i += 1
        elif self.h + 1 < self.game.hand_count:
            self.h, self.i = self.h + 1, 0
        else:
            self.say("The end of the match: Left goes back, p to the previous hand")

    def back(self) -> None:
        if self.i > 0:
            self.i -= 1
        elif self.h > 0:
            self.h -= 1
            self.i = len(self.steps) - 1
        else:
            self.say("The deal of the first hand: the start of the match")

    def to_hand(self, h: int) -> None:
        if h < 0:
            self.i = 0
            self.say("This is the first hand: its deal")
            return
        if h >= self.game.hand_count:
            self.say("This is the last hand: End goes to its last move")
            return
        self.h, self.i = h, 0

    # ------------------------------------------------------------------ keys
    def on_key(self, name: str) -> None:
        players = self.game.rules.players
        if name in ("escape", "q"):
            self.done = True
        elif name in ("right", "l", "space", "enter"):
            self.forward()
        elif name in ("left", "h", "backspace", "c-h"):
            self.back()
        elif name in ("n", "pagedown", "down"):
            self.to_hand(self.h + 1)
        elif name in ("p", "pageup", "up"):
            self.to_hand(self.h - 1)
        elif name == "home":
            self.i = 0
        elif name == "end":
            self.i = len(self.steps) - 1
        elif name == "tab":
            self.seat = (self.seat + 1) % players
        elif name == "s-tab":
            self.seat = (self.seat - 1) % players
        elif name.isdigit() and 1 <= int(name) <= players:
            self.seat = int(name) - 1
        elif name == "a":
            self.every_hand = not self.every_hand
        elif len(name) == 1 or name in ("f1", "?"):
            self.say("Right/Left: a move   n/p: next or previous hand   Tab or 1-4: whose view   a: every hand")

    # ------------------------------------------------------------------ what is shown
    def scores(self) -> tuple[int, ...]:
        hs: ReplayHand = self.game.hand(self.h)
        return hs.after if self.step().over and hs.after is not None else hs.before

    def move_text(self) -> str:
        """The last move, as the table's log told it (the deal at a hand's start)."""
        hs = self.game.hand(self.h)
        st = self.step()
        before = self.steps[self.i - 1].events if self.i else 0
        done = hs.events[before:st.events] if self.i else hs.events[:st.events]
        said = [describe(e, self.names.__getitem__) for e in coalesced(done)]
        return "; ".join(said) if said else st.move

    def snapshot(self) -> TableSnapshot:
        frame = self.step()
        v: PlayerView = frame.views[self.seat]
        players = self.game.rules.players
        hs = self.game.hand(self.h)
        shown = hs.events[:self.step().events]
        log = tuple((-1 if e.kind == "dealt" else e.seat, describe(e, self.names.__getitem__))
                    for e in coalesced(shown))
        return TableSnapshot(
            view=v, viewer=self.seat, seats=(), hand=tuple(sort_hand(v.hand, self.sort)), new=(False,) * len(v.hand),
            cursor=-1, selected=frozenset(), dealing=None, shown=tuple(v.hand_sizes),
            names=self.names, humans=tuple((*self.source.humans, *[False] * players)[:players]),
            verified=(False,) * players, scores=self.scores(), hand_number=self.h + 1, events=shown, log=log,
            status="", lit=_DARK, message=(), dialog=None, quit_question="",
            table=_NO_FACTS, clicks=_NoClicks())

    # ------------------------------------------------------------------ drawing
    def draw(self, cv: Canvas, opts: Options) -> None:
        if too_small(cv.width, cv.height):
            return
        if self.every_hand:
            self.draw_hands(cv, opts)
        else:
            table = render(self.snapshot(), cv.width, cv.height, opts)
            for y in range(cv.height - 2):
                cv.chars[y][:] = table.chars[y]
                cv.styles[y][:] = table.styles[y]
            # (the table's "g: log" hint: the replay's status line tells each move instead)
            row = table_layout(cv.width, cv.height, self.game.rules.players).log_row
            if "".join(cv.chars[row][-8:]).strip() == "g: log":     # (a long move took its place)
                cv.put(row, cv.width - 8, " " * 8)
        self.draw_header(cv, opts)
        self.draw_status(cv, opts)

    def draw_header(self, cv: Canvas, opts: Options) -> None:
        g = opts.glyphs
        rules = self.game.rules
        right = match_score(rules, self.scores())
        cv.fill(0, 0, cv.width, 1, "header")
        cv.put(0, max(0, cv.width - len(right)), right, "header")
        # The title gives way (with an ellipsis) before the hand and the move do.
        where = f" {g.dash} hand {self.h + 1} of {self.game.hand_count}, move {self.i} of {len(self.steps) - 1}"
        left = fit_middle(f" REPLAY {g.dash} ", printable(self.source.title), where, cv.width - len(right) - 1,
                          g.ellipsis)
        cv.put(0, 0, left, "header")

    def draw_status(self, cv: Canvas, opts: Options) -> None:
        g = opts.glyphs
        y = cv.height - 2
        cv.fill(y, 0, cv.width, 1)
        # A long move (a pile taken and melded) takes the rows above rather than being cut.
        if self.message:
            put_lines_up(cv, y, 1, glyph_text(self.message, g), "error" if self.error else "message")
        else:
            who = "" if self.every_hand else f"[{self.names[self.seat]}'s view] "
            put_lines_up(cv, y, 1, glyph_text(who + (self.move_text() or "the deal"), g), "hint")
        draw_hints(cv, cv.height - 1, self.hints())

    def hints(self) -> Sequence[Hint]:
        return [Hint("Left/Right", "move"), Hint("n/p", "hand"), Hint("Tab", "view"),
                Hint("a", "table" if self.every_hand else "all hands"), Hint("Esc/q", "back")]

    def draw_hands(self, cv: Canvas, opts: Options) -> None:
        """Every hand in full, the melds of each side, the pile and the stock."""
        g = opts.glyphs
        views = self.step().views
        st = views[0]
        rules = self.game.rules
        y = 1
        bottom = cv.height - 3
        for seat in range(rules.players):
            if y > bottom:
                break
            on = seat == st.turn and st.phase != Phase.HAND_OVER
            cards = sort_hand(views[seat].hand, self.sort)
            name = fit(self.names[seat], 14, g.ellipsis)
            head = f"{'>' if on else ' '} {seat + 1} {name:<14} ({short_team(team(seat, rules), rules)}) "
            cv.put(y, 0, head, "name.active" if on else "name")
            x = len(head)
            if not cards:
                cv.put(y, x, "no cards", "dim")
            for c in cards:
                label = card_label(c, g)
                if x + len(label) > cv.width - 1:
                    y += 1
                    x = len(head)
                    if y > bottom:
                        break
                x = cv.put(y, x, label, card_style(c, opts)) + 1
            y += 1
        y += 1
        width = min(24, max(12, (cv.width - 4) // 3))
        for t in range(rules.teams):
            if y > bottom:
                break
            melds = [m for m in st.melds[t] if m is not None]
            threes = " ".join(card_label(c, g) for s in range(rules.players) if team(s, rules) == t
                              for c in st.red_threes[s])
            label = f"{short_team(t, rules)} melds:" + (f" (red threes {threes})" if threes else "")
            cv.put(y, 0, label, "heading")
            y += 1
            if not melds:
                cv.put(y, 2, "none", "dim")
                y += 1
            cols = max(1, (cv.width - 2) // (width + 2))
            for k, m in enumerate(melds):
                if y > bottom:
                    break
                text, style = meld_line(m, width, g)
                cv.put(y, 2 + (k % cols) * (width + 2), text, style)
                if k % cols == cols - 1 or k == len(melds) - 1:
                    y += 1
        if y <= bottom:
            top = card_label(st.pile[-1], g) if st.pile else "empty"
            frozen = ", frozen" if st.frozen else ""
            for line in wrap(f"Pile: {folded(len(st.pile))}, top {top}{frozen}   Stock: {folded(st.stock_size)}", cv.width - 2):
                if y <= bottom:
                    cv.put(y, 0, line)
                    y += 1


class _NoFacts:
    """Nothing for a dialog to read: a replay's table has no dialog."""


_NO_FACTS: TableFacts = _NoFacts()  # type: ignore[assignment]


def run_replay(source: ReplaySource, *, options: Options, color: bool | str = "auto", sort: str = "rank") -> None:
    """``canasta replay FILE``: the viewer alone, full screen, until Esc or q."""
    from .app import ScreenApp

    class ReplayApp(ScreenApp):
        async def flow(self) -> None:
            await self.show(ReplayPage(source, sort))

    ReplayApp(options=options, color=color).run()


__all__ = ["ReplayPage", "ReplaySource", "replay_source", "run_replay"]
