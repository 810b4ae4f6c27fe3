"""The club's pages in the lobby (issue 34, section 2): "Tonight" and the partnerships.

``t`` opens :class:`TonightPage`: every match finished in one evening at a listed table, newest
first, who played with whom, the winners, the scores and the rating moves, and the evening's
tournaments (their place kept; none until the server runs them).  Left/Right step to the evening
before or after, ``t`` comes back to tonight, ``d`` asks for a date (``YYYY-MM-DD``).  ``b`` opens
:class:`PartnershipsPage`: who the person wins with (their partners ranked, with the counts, so a
small sample shows as one), and the club's best partnerships; Enter opens a partnership's own
record (:class:`PartnershipPage`: matches together, wins, average score, best hand).

Every page is drawn from pure functions of its view (:func:`evening_lines`,
:func:`partnership_lines`, :func:`record_lines`) that give lines of text and a style name each,
so a test reads them as text, and nothing needs colour.  What is shown comes through a
:class:`ClubService`, which the server implements (``canasta_tui.server.club.records``); the
views hold only public results of finished matches: no hand, no card, no table still playing.
"""

from __future__ import annotations

import datetime as dt
import textwrap
from collections.abc import Sequence
from typing import ClassVar, NamedTuple, Protocol

from ..text import points, printable
from .canvas import Canvas, Options, fit
from .lineedit import LineEdit
from .pages import Hint, Page

#: The longest date a person types (``YYYY-MM-DD``).
DATE_MAX = 10


# ---------------------------------------------------------------------- what the server says
class SideLine(NamedTuple):
    """One side of a finished match: its people, their rating moves (None: not moved), its score."""

    names: tuple[str, ...]
    changes: tuple[int | None, ...]
    score: int
    won: bool


class MatchLine(NamedTuple):
    """A finished match of the evening: when (the server's clock), its rules, its sides winner first."""

    time: str
    rules: str
    rated: bool
    forfeit: bool
    played: int                           # hands played (a count: no hand is shown)
    table: int
    sides: tuple[SideLine, ...]


class TournamentLine(NamedTuple):
    """A tournament of the evening and its winners (the server runs none yet)."""

    name: str
    winners: tuple[str, ...]


class EveningView(NamedTuple):
    """One evening as the page shows it."""

    day: dt.date
    tonight: bool                         # it is the server's evening now
    matches: tuple[MatchLine, ...]
    tournaments: tuple[TournamentLine, ...]
    more: bool                            # more matches were finished than are listed
    hours: str                            # when an evening runs, in words ("from 06:00 to 06:00, Europe/Paris")


class PartnershipLine(NamedTuple):
    """A partnership's record: the two (the looking person first, in their own list), matches
    together, wins, average final score; in its own record, its best hand and what was counted."""

    entries: tuple[str, str]
    names: tuple[str, str]
    matches: int
    wins: int
    average: int
    best: str = ""                        # "5,010 (hand 1, classic, 2026-11-27)", "" none
    counted: str = ""                     # which matches were counted, in words


class ClubService(Protocol):
    """What the club's pages ask of the server, for one person."""

    def tonight(self) -> dt.date:
        """The server's evening now (before 06:00 it is still yesterday's)."""

    @property
    def first_evening(self) -> dt.date: ...    # the earliest evening kept (Left stops there)

    def evening(self, day: dt.date) -> EveningView | None:
        """The evening of ``day`` (None: the server cannot say now)."""

    def parse_day(self, text: str) -> dt.date | str:
        """A typed date, or why it cannot be shown."""

    def partners(self) -> Sequence[PartnershipLine] | str:
        """Who the person wins with, ranked; or why not (a guest keeps no record)."""

    def best_pairs(self) -> Sequence[PartnershipLine] | str:
        """The club's best partnerships, ranked; or why not."""

    @property
    def min_matches(self) -> int: ...          # matches together to be among the club's best

    def partnership(self, line: PartnershipLine) -> PartnershipLine | str:
        """A partnership's own record (with its best hand), or why not."""


# ---------------------------------------------------------------------- lines, as text
class Line(NamedTuple):
    """One line of a page: its text, and the style it is drawn in ("" plain)."""

    text: str
    style: str = ""


def heading(text: str, width: int, hline: str) -> Line:
    return Line((f"{hline} {text} " + hline * width)[:width], "heading")


def _who(side: SideLine) -> str:
    """A side's people with their rating moves: ``ann +31 & bob +28``."""
    return " & ".join(printable(n) + ("" if c is None else f" {c:+d}") for n, c in zip(side.names, side.changes,
                                                                                          strict=False))


def evening_lines(view: EveningView, width: int, hline: str = "-") -> list[Line]:
    """The evening's page body: a heading, when an evening runs, then each match (a line of when,
    the rules and the table, a line a side: won or lost, its people and their rating moves, its
    score), then the tournaments."""
    n = len(view.matches)
    what = "Tonight," if view.tonight else "The evening of"
    day = f"{view.day:%A} {view.day.day} {view.day:%B %Y}"
    count = f"{n}{'+' if view.more else ''} match{'es' if n != 1 else ''}"
    out = [heading(f"{what} {day}: {count}", width, hline),
           Line(f"  An evening runs {view.hours}.", "dim")]
    if any(c is not None for m in view.matches for side in m.sides for c in side.changes):
        out.append(Line("  +31 after a name: the rating points the match moved (rated tables only).", "dim"))
    if not view.matches:
        out.append(Line("  No match finished at a listed table " + ("yet tonight." if view.tonight else "that evening."),
                        "dim"))
    score_w = max((len(points(s.score)) for m in view.matches for s in m.sides), default=1)
    names_w = max(8, min(50, width - 4 - 6 - score_w - 2))
    for m in view.matches:
        kinds = [printable(m.rules), "rated" if m.rated else "not rated", f"{m.played} hand{'s' if m.played != 1 else ''}"]
        if m.forfeit:
            kinds.append("ended by a forfeit")
        out.append(Line(f"  {m.time}  {', '.join(kinds)}  (table {m.table})"[:width]))
        for s in m.sides:
            out.append(Line(f"    {'won' if s.won else 'lost':<5} {fit(_who(s), names_w, '~'):<{names_w}}  "
                            f"{points(s.score):>{score_w}}"[:width], "name" if s.won else ""))     # (the words say who won)
    if view.more:
        out.append(Line(f"  (the newest {n} are listed: more matches were finished that evening)", "dim"))
    out.append(heading("Tournaments", width, hline))
    if not view.tournaments:
        out.append(Line("  No tournament " + ("tonight." if view.tonight else "that evening."), "dim"))
    for t in view.tournaments:
        out.append(Line(f"  {printable(t.name)}: won by {' & '.join(printable(w) for w in t.winners)}"[:width]))
    return out


def _share(p: PartnershipLine) -> str:
    return f"{round(100 * p.wins / p.matches)}%" if p.matches else "-"


#: How partnerships are ranked, in a line under each list.
RANKED = "Ranked by (wins + 1) / (matches + 2): one lucky win does not top the list."


def partnership_lines(rows: Sequence[PartnershipLine], width: int, chosen: int | None, yours: bool) -> list[Line]:
    """A list of partnerships: the partner (``yours``: the person's own list) or the pair, matches
    together, wins, the share of wins, average score; ``chosen`` marked with ``>``."""
    name_w = max(10, width - 40)
    out = [Line(f"    {'partner' if yours else 'partnership':<{name_w}} {'together':>8} {'won':>5} "
                f"{'share':>6} {'average':>8}", "dim")]
    for i, p in enumerate(rows):
        who = printable(p.names[1]) if yours else " & ".join(printable(n) for n in p.names)
        on = i == chosen
        out.append(Line(f"  {'>' if on else ' '} {fit(who, name_w, '~'):<{name_w}} {p.matches:>8} {p.wins:>5} "
                        f"{_share(p):>6} {points(p.average):>8}"[:width], "cursor" if on else ""))
    return out


def record_lines(p: PartnershipLine, width: int, hline: str = "-") -> list[Line]:
    """A partnership's own record."""
    names = " & ".join(printable(n) for n in p.names)
    out = [heading(names, width, hline),
           Line(f"  Matches together  {p.matches}"),
           Line(f"  Wins              {p.wins}" + (f" ({_share(p)})" if p.matches else "")),
           Line(f"  Average score     {points(p.average) if p.matches else '-'}"),
           Line(f"  Best hand         {p.best or '-'}")]
    if p.counted:
        out.append(Line(""))
        out.append(Line(f"  {p.counted}"[:width], "dim"))
    return out


def _draw(cv: Canvas, lines: Sequence[Line], top: int, rows: int, start: int = 0) -> None:
    for i, line in enumerate(lines[start:start + rows]):
        cv.put(top + i, 0, line.text[: cv.width], line.style)


# ---------------------------------------------------------------------- the pages
class TonightPage(Page):
    """One evening's results: Left/Right the evening before or after, t tonight, d a date, Up/Down
    scroll, b the partnerships."""

    title: ClassVar[str] = "Tonight at the club"

    def __init__(self, service: ClubService) -> None:
        super().__init__()
        self.service = service
        self.day = service.tonight()
        self.top = 0
        self.typing: LineEdit | None = None           # a date being typed (d)
        self.view: EveningView | None = None
        self.show(self.day)

    def show(self, day: dt.date) -> None:
        self.day, self.top = day, 0
        self.view = self.service.evening(day)
        if self.view is None:
            self.say("The club's results cannot be read now (the server's store failed): try again later", error=True)

    def on_key(self, name: str) -> None:
        if self.typing is not None:
            self._type(name)
            return
        tonight = self.service.tonight()
        if name in ("escape", "q"):
            self.done = True
        elif name in ("left", "h", "p"):
            if self.day <= self.service.first_evening:
                self.say(f"Nothing is kept from before {self.service.first_evening.isoformat()}")
            else:
                self.show(self.day - dt.timedelta(days=1))
        elif name in ("right", "l", "n"):
            if self.day >= tonight:
                self.say("That is tonight: the evenings after it have not come yet")
            else:
                self.show(self.day + dt.timedelta(days=1))
        elif name == "t":
            self.show(tonight)
        elif name == "d":
            self.typing = LineEdit("", DATE_MAX)
        elif name in ("down", "j"):
            self.top += 1
        elif name in ("up", "k"):
            self.top = max(0, self.top - 1)
        elif name == "b":
            self.open(PartnershipsPage(self.service))

    def _type(self, name: str) -> None:
        assert self.typing is not None
        left = self.typing.key(name)
        if left == "cancel":
            self.typing = None
        elif left == "enter":
            got = self.service.parse_day(self.typing.text)
            self.typing = None
            if isinstance(got, str):
                self.say(got, error=True)
            else:
                self.show(got)
        elif self.typing.full:
            self.say(f"A date is {DATE_MAX} characters: YYYY-MM-DD", error=True)

    def header_right(self) -> str:
        return self.day.isoformat()

    def hints(self) -> Sequence[Hint]:
        if self.typing is not None:
            return [Hint("Enter", "show that evening"), Hint("Esc", "cancel")]
        # (every hint fits 80 columns: 79)
        return [Hint("Left/Right", "evening"), Hint("t", "tonight"), Hint("d", "date"), Hint("Up/Down", "scroll"),
                Hint("b", "pairs"), Hint("Esc/q", "back")]

    def draw_body(self, cv: Canvas, opts: Options, top: int, rows: int) -> None:
        if self.view is None:
            return
        lines = evening_lines(self.view, cv.width, opts.glyphs.hline)
        self.top = min(self.top, max(0, len(lines) - rows))
        _draw(cv, lines, top, rows, self.top)
        if self.typing is not None:
            y = cv.height - 2
            cv.fill(y, 0, cv.width, 1)
            cv.put(y, 0, f"Show the evening of (YYYY-MM-DD): {self.typing.text}_"[: cv.width], "message")


class PartnershipsPage(Page):
    """Who the person wins with, and the club's best partnerships: Tab the other list, Up/Down
    choose, Enter a partnership's record."""

    title: ClassVar[str] = "Partnerships"

    def __init__(self, service: ClubService) -> None:
        super().__init__()
        self.service = service
        self.mine = service.partners()
        self.best = service.best_pairs()
        self.list = 0 if not isinstance(self.mine, str) and self.mine else 1
        self.chosen = 0

    def rows(self, which: int) -> Sequence[PartnershipLine]:
        got = self.mine if which == 0 else self.best
        return () if isinstance(got, str) else got

    def on_key(self, name: str) -> None:
        rows = self.rows(self.list)
        if name in ("escape", "q"):
            self.done = True
        elif name in ("tab", "s-tab"):
            self.list, self.chosen = 1 - self.list, 0
        elif name in ("down", "j") and rows:
            self.chosen = min(len(rows) - 1, self.chosen + 1)
        elif name in ("up", "k") and rows:
            self.chosen = max(0, self.chosen - 1)
        elif name == "enter":
            if not rows:
                self.say("No partnership in this list yet")
                return
            got = self.service.partnership(rows[self.chosen])
            if isinstance(got, str):
                self.say(got, error=True)
            else:
                self.open(PartnershipPage(got))

    def hints(self) -> Sequence[Hint]:
        return [Hint("Tab", "other list"), Hint("Up/Down", "choose"), Hint("Enter", "its record"), Hint("Esc/q", "back")]

    def draw_body(self, cv: Canvas, opts: Options, top: int, rows: int) -> None:
        g = opts.glyphs
        half = max(4, (rows - 1) // 2)
        sections = [(0, "Who you win with (your matches at every table)", self.mine, top, half),
                    (1, f"The club's best ({self.service.min_matches} matches together or more, listed tables)",
                     self.best, top + half, rows - half)]
        for which, title, got, y, room in sections:
            on = which == self.list
            cv.put(y, 0, heading(("> " if on else "") + title, cv.width, g.hline).text, "heading")
            if isinstance(got, str) or not got:
                said = got if isinstance(got, str) else (
                    "No match with a partner yet: every match you play at a table of four counts here" if which == 0
                    else "No partnership has played enough matches together at listed tables yet")
                # wrapped, never cut: at 80 columns the first of them is longer than a line
                for i, part in enumerate(textwrap.wrap(said, cv.width - 3)[: max(1, room - 1)]):
                    cv.put(y + 1 + i, 2, part, "dim")
                continue
            lines = partnership_lines(got, cv.width, self.chosen if on else None, which == 0)
            list_rows = room - 3
            start = max(0, self.chosen - list_rows + 1) if on else 0
            _draw(cv, lines[:1], y + 1, 1)
            _draw(cv, lines[1:], y + 2, list_rows, start)
            cv.put(y + room - 1, 2, RANKED[: cv.width - 3], "dim")


class PartnershipPage(Page):
    """A partnership's own record."""

    title: ClassVar[str] = "A partnership's record"

    def __init__(self, record: PartnershipLine) -> None:
        super().__init__()
        self.record = record

    def draw_body(self, cv: Canvas, opts: Options, top: int, rows: int) -> None:
        _draw(cv, record_lines(self.record, cv.width, opts.glyphs.hline), top, rows)


__all__ = ["DATE_MAX", "RANKED", "ClubService", "EveningView", "Line", "MatchLine", "PartnershipLine",
           "PartnershipPage", "PartnershipsPage", "SideLine", "TonightPage", "TournamentLine", "evening_lines",
           "partnership_lines", "record_lines"]
