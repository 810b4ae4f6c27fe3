"""Statistics in the game: high scores per level and the win ratio per player and level, as
Canasta for Windows 2.41's HiScores and Win Ratio dialogs, with the reset ``canasta stats
--reset`` has (it asks first; the match history is kept)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, Protocol

from ..text import points, printable
from .canvas import Canvas, Options
from .dialogs import Confirm
from .pages import Hint, Page, scroll_window


class Ratio(Protocol):
    @property
    def player(self) -> str: ...
    @property
    def level(self) -> str: ...
    @property
    def wins(self) -> int: ...
    @property
    def losses(self) -> int: ...
    @property
    def ratio(self) -> float: ...


class High(Protocol):
    @property
    def player(self) -> str: ...
    @property
    def difference(self) -> int: ...
    @property
    def hand(self) -> int: ...
    @property
    def date(self) -> str: ...


class StatsView(Protocol):
    @property
    def ratios(self) -> Sequence[Ratio]: ...
    @property
    def high(self) -> Mapping[str, Sequence[High]]: ...
    @property
    def problem(self) -> str | None: ...          # the statistics cannot be read: why


class StatsSource(Protocol):
    """The statistics database (``persistence.stores.StatsFile``)."""

    def read(self) -> StatsView: ...
    def reset(self, player: str | None) -> str: ...      # what was reset, or why nothing was


#: The levels in the order people think of them; others (hot-seat, mixed) after.
LEVEL_ORDER = ("beginner", "advanced", "expert")
HIGH_W = 41


class StatisticsPage(Page):
    """Win ratios (Up/Down picks a player), high scores per level (Left/Right), r resets."""

    title: ClassVar[str] = "Statistics"
    #: The win ratio's first two columns and what the high scores are grouped by: the words the
    #: rows are in (the server's record fills them with partners and rules, not players and levels).
    heads: ClassVar[tuple[str, str]] = ("player", "level")
    group: ClassVar[str] = "levels"

    def __init__(self, source: StatsSource) -> None:
        super().__init__()
        self.source = source
        self.current = 0
        self.level = 0
        self.top = 0
        self.view = source.read()
        if self.view.problem:
            self.say(self.view.problem, error=True)

    def levels(self) -> list[str]:
        have = list(self.view.high)
        return [lv for lv in LEVEL_ORDER if lv in have] + sorted(lv for lv in have if lv not in LEVEL_ORDER)

    def on_key(self, name: str) -> None:
        n = len(self.view.ratios)
        levels = self.levels()
        if name in ("escape", "q"):
            self.done = True
        elif name in ("down", "j") and n:
            self.current = min(n - 1, self.current + 1)
        elif name in ("up", "k") and n:
            self.current = max(0, self.current - 1)
        elif name in ("right", "l", "tab") and levels:
            self.level = (self.level + 1) % len(levels)
        elif name in ("left", "h", "s-tab") and levels:
            self.level = (self.level - 1) % len(levels)
        elif name == "r":
            self.ask_reset()

    def ask_reset(self) -> None:
        if not self.view.ratios and not self.view.high:
            self.say("Nothing to reset: no match has been recorded yet")
            return
        answers = []
        lines = ["Reset wins, losses and high scores?",
                 "The match history is kept (canasta stats --history lists it)."]
        if self.view.ratios:
            who = self.view.ratios[min(self.current, len(self.view.ratios) - 1)].player
            answers.append(("p", f"only {printable(who)}", lambda: self.reset(who)))
        answers.append(("a", "every player", lambda: self.reset(None)))
        self.open(Confirm("Reset the statistics", "\n".join(lines), answers, no=self.kept))

    def reset(self, player: str | None) -> None:
        said = self.source.reset(player)
        self.view = self.source.read()
        self.current = 0
        self.say(said, error=said.startswith("Not reset"))

    def kept(self) -> None:
        self.say("Nothing was reset")

    def hints(self) -> Sequence[Hint]:
        return [Hint("Up/Down", "player"), Hint("Left/Right", "level"), Hint("r", "reset"), Hint("Esc/q", "back")]

    def draw_body(self, cv: Canvas, opts: Options, top: int, rows: int) -> None:
        g = opts.glyphs
        y = top
        ratios = self.view.ratios
        levels = self.levels()
        longest = max((len(self.view.high[lv]) for lv in levels), default=0)
        high_rows = 3 + max(1, min(10, longest))     # heading, level, columns, the scores
        ratio_room = max(3, rows - high_rows - 3)
        heading = f"{g.hline} Win ratio " + g.hline * cv.width
        cv.put(y, 0, heading[: cv.width], "heading")
        y += 1
        if not ratios:
            cv.put(y, 2, "No finished matches yet: every match a person plays to its end counts.", "dim")
            y += 2
        else:
            first, second = self.heads
            pw = max(12, len(first), min(20, max(len(r.player) for r in ratios)))
            cv.put(y, 2, f"  {first:<{pw}}  {second:<18}{'wins':>6}{'losses':>8}{'win ratio':>11}", "dim")
            y += 1
            self.top = scroll_window(len(ratios), self.current, ratio_room - 1, self.top)
            shown = ratios[self.top:self.top + ratio_room - 1]
            for i, r in enumerate(shown, self.top):
                on = i == self.current
                line = (f"{'>' if on else ' '} {printable(r.player)[:pw]:<{pw}}  {printable(r.level)[:18]:<18}"
                        f"{r.wins:>6}{r.losses:>8}{r.ratio:>10.0f}%")
                cv.put(y, 2, line, "cursor" if on else "")
                y += 1
            if len(ratios) > len(shown):
                cv.put(y, 4, f"({self.top + 1}-{self.top + len(shown)} of {len(ratios)} players: Up/Down scrolls)", "dim")
                y += 1
            y += 1
        title = f"{g.hline} High scores {g.dash} best single hands: your side's score less the other side's "
        cv.put(y, 0, (title + g.hline * cv.width)[: cv.width], "heading")
        y += 1
        if not levels:
            cv.put(y, 2, "No high scores yet.", "dim")
            return
        # As many levels side by side as the width holds, the chosen one first.
        fit = max(1, (cv.width - 2) // (HIGH_W + 2))
        order = levels[self.level:] + levels[:self.level]
        for n, lv in enumerate(order[:fit]):
            self._draw_high(cv, y, 2 + n * (HIGH_W + 2), lv, n == 0 and len(levels) > fit)
        if len(levels) > fit:
            rest = ", ".join(order[fit:])
            cv.put(top + rows - 1, 2, f"more {self.group}: {rest} (Left/Right)"[: cv.width - 4], "dim")

    def _draw_high(self, cv: Canvas, y: int, x: int, level: str, chosen: bool) -> None:
        scores = self.view.high.get(level, ())
        cv.put(y, x, f"[{printable(level)}]" if chosen else printable(level), "name")
        cv.put(y + 1, x, f"{'#':>2}  {'player':<12}{'score':>7}{'hand':>6}  {'date':<10}", "dim")
        for i, h in enumerate(scores[:10], 1):
            cv.put(y + 1 + i, x, f"{i:>2}  {printable(h.player)[:12]:<12}{points(h.difference):>7}{h.hand:>6}  "
                                 f"{printable(h.date)[:10]:<10}")
        if not scores:
            cv.put(y + 2, x, "    none yet", "dim")


__all__ = ["High", "Ratio", "StatisticsPage", "StatsSource", "StatsView"]
