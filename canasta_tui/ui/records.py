"""A person's own record at a server: their rating and matches, statistics, the leaderboard,
their options, and the replays of their finished matches.

``i`` (in the lobby and at the table over SSH) opens :class:`RecordPage`: the person's rating at
each game they have played (Canasta, Samba, Bolivia are rated apart), their last matches (Enter
replays one), ``s`` their wins by partner and by rules preset and their high scores as the local
statistics screen draws them (:class:`ServerStatisticsPage`, the same page), ``l`` the leaderboard
(:class:`LeaderboardPage`: one game at a time, Left/Right or Tab for the next, with what a rating
means).
``o`` opens :class:`PersonOptionsPage`: the local options screen with the options a person
keeps on the server.  Everything comes through a :class:`RecordService`, which the server
implements (``canasta_tui.server.club.records``) and a test can implement without SSH; nothing
here imports the server.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, NamedTuple, Protocol

from ..text import points, printable
from .canvas import Canvas, Options, fit, wrap
from .options import ITEMS, OptionsPage
from .pages import Hint, Page, scroll_window
from .replay import ReplayPage, ReplaySource
from .statistics import StatisticsPage


# ---------------------------------------------------------------------- what the server says
class RatingLine(Protocol):
    @property
    def points(self) -> int: ...
    @property
    def matches(self) -> int: ...


class GameRatingLine(Protocol):
    """A person's rating at one game (``people.Rating``: ``game`` is ``canasta``, ``samba``, ...)."""

    @property
    def game(self) -> str: ...
    @property
    def points(self) -> int: ...
    @property
    def matches(self) -> int: ...


class HistoryLine(Protocol):
    """One of the person's finished matches (``people.HistoryRow``)."""

    @property
    def match_id(self) -> int: ...
    @property
    def date(self) -> str: ...
    @property
    def rules(self) -> str: ...
    @property
    def rated(self) -> bool: ...
    @property
    def partners(self) -> tuple[str, ...]: ...
    @property
    def opponents(self) -> tuple[str, ...]: ...
    @property
    def our_score(self) -> int: ...
    @property
    def their_score(self) -> int: ...
    @property
    def won(self) -> bool: ...
    @property
    def change(self) -> int | None: ...
    @property
    def mark(self) -> str: ...                 # one letter: F a forfeit, C a computer stood in, - not rated
    @property
    def note(self) -> str: ...                 # what was unusual about the match, in a sentence ("": nothing)


#: What a history row's mark says (shown under the list, so that no colour is needed).
MARKS = "F: ended by a forfeit  C: a computer stood in  -: rated, but not for you"
#: Lines under the list for the chosen match's note (or the marks' legend).
NOTE_ROWS = 2


class TallyLine(Protocol):
    @property
    def what(self) -> str: ...
    @property
    def wins(self) -> int: ...
    @property
    def matches(self) -> int: ...


class HighLine(Protocol):
    @property
    def difference(self) -> int: ...
    @property
    def hand(self) -> int: ...
    @property
    def rules(self) -> str: ...
    @property
    def finished(self) -> float: ...


class RecordView(Protocol):
    """Everything the record screens show of one person (``people.PersonRecord``)."""

    @property
    def rating(self) -> RatingLine: ...
    @property
    def ratings(self) -> Sequence[GameRatingLine]: ...   # one per game with a rated match
    @property
    def matches(self) -> Sequence[HistoryLine]: ...
    @property
    def by_partner(self) -> Sequence[TallyLine]: ...
    @property
    def by_rules(self) -> Sequence[TallyLine]: ...
    @property
    def high_scores(self) -> Sequence[HighLine]: ...


class StandingLine(Protocol):
    """One line of the leaderboard (``people.Standing``)."""

    @property
    def place(self) -> int: ...
    @property
    def entry(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def points(self) -> int: ...
    @property
    def matches(self) -> int: ...
    @property
    def wins(self) -> int: ...


class RecordService(Protocol):
    """What the record screens ask of the server, for one person."""

    @property
    def label(self) -> str: ...                 # the person's name as shown
    @property
    def entry(self) -> str: ...                 # their rating entry (their key; "" for a guest)
    @property
    def rating_text(self) -> str: ...           # what a rating means and how it moves

    def record(self) -> RecordView | None:
        """The person's record (None: the server cannot say now)."""

    @property
    def games(self) -> Sequence[str]: ...       # the rated games, the leaderboard's first shown first

    def leaderboard(self, game: str) -> Sequence[StandingLine]:
        """The best at ``game`` (one of :attr:`games`)."""

    def option_values(self) -> Mapping[str, Any]:
        """The person's options now (hand order, four-colour deck, card faces, mouse, sounds)."""

    def set_option(self, key: str, value: Any) -> str | None:
        """Set one option, applied at once and at every table: why not (nothing changed), or None."""

    def options_kept(self) -> str:
        """Where the options are kept, in a few words (a guest's: for this visit only)."""

    def replay(self, match_id: int) -> ReplaySource | str:
        """One of the person's finished matches to replay, or why not."""

    def table_replay(self, table_id: int) -> ReplaySource | str:
        """The match of a table in the lobby to replay (only once it is over), or why not."""


# ---------------------------------------------------------------------- the record
class RecordPage(Page):
    """The person's rating and last matches: Up/Down choose, Enter replays, s statistics, l leaderboard."""

    title: ClassVar[str] = "Your record"

    def __init__(self, service: RecordService, sort: str = "rank") -> None:
        super().__init__()
        self.service = service
        self.sort = sort
        self.current = 0
        self.top = 0
        self.view = service.record()
        if self.view is None:
            self.say("Your record cannot be read now (the server's store failed): try again later", error=True)

    @property
    def matches(self) -> Sequence[HistoryLine]:
        return self.view.matches if self.view is not None else ()

    def on_key(self, name: str) -> None:
        n = len(self.matches)
        if name in ("escape", "q"):
            self.done = True
        elif name in ("down", "j") and n:
            self.current = min(n - 1, self.current + 1)
        elif name in ("up", "k") and n:
            self.current = max(0, self.current - 1)
        elif name in ("enter", "v"):
            self.open_replay()
        elif name == "s":
            if self.view is not None:
                self.open(ServerStatisticsPage(self.service.label, self.view))
        elif name == "l":
            self.open(LeaderboardPage(self.service))

    def open_replay(self) -> None:
        if not self.matches:
            self.say("No finished match yet: every match you play to its end is kept here")
            return
        got = self.service.replay(self.matches[self.current].match_id)
        if isinstance(got, str):
            self.say(got, error=True)
        else:
            self.open(ReplayPage(got, self.sort))

    def header_right(self) -> str:
        return printable(self.service.label)

    def hints(self) -> Sequence[Hint]:
        return [Hint("Up/Down", "match"), Hint("Enter", "replay"), Hint("s", "statistics"), Hint("l", "leaderboard"),
                Hint("Esc/q", "back")]

    def draw_body(self, cv: Canvas, opts: Options, top: int, rows: int) -> None:
        g = opts.glyphs
        y = top
        v = self.view
        if v is None:
            return
        cv.put(y, 0, (f"{g.hline} Rating " + g.hline * cv.width)[: cv.width], "heading")
        y += 1
        lines = [f"{printable(r.game).title()[:8]:<8} {points(r.points)} points after {r.matches} rated "
                 f"match{'es' if r.matches != 1 else ''}" for r in v.ratings if r.matches]
        if not lines:
            lines = ["No rated match yet: you start at 0 points"]
        for i, line in enumerate(lines):
            cv.put(y, 2, (line + ("   (l: the leaderboard)" if i == 0 else ""))[: cv.width - 3], "name")
            y += 1
        y += 1
        heading_y = y
        heading = "Your matches, newest first"
        y += 1
        ms = self.matches
        if not ms:
            cv.put(heading_y, 0, (f"{g.hline} {heading} " + g.hline * cv.width)[: cv.width], "heading")
            cv.put(y, 2, "No finished match yet: every match you play to its end is kept here.", "dim")
            return
        cv.put(y, 2, f"  {'finished':<16} {'rules':<10} {'partner':<10} {'opponents':<13} {'score':<16} rating", "dim")
        y += 1
        room = max(1, top + rows - y - NOTE_ROWS)
        self.top = scroll_window(len(ms), self.current, room, self.top)
        if len(ms) > room:
            heading += f" ({self.top + 1}-{min(len(ms), self.top + room)} of {len(ms)})"
        cv.put(heading_y, 0, (f"{g.hline} {heading} " + g.hline * cv.width)[: cv.width], "heading")
        for i in range(self.top, min(len(ms), self.top + room)):
            m = ms[i]
            on = i == self.current
            partner = ", ".join(printable(p) for p in m.partners) or "-"
            opponents = ", ".join(printable(p) for p in m.opponents)
            score = f"{'won' if m.won else 'lost'} {points(m.our_score)}-{points(m.their_score)}"
            change = "" if m.change is None else f"{m.change:+d}"
            # A name too long for its column is marked where it was cut (Enter's replay names everyone).
            text = (f"{'>' if on else ' '} {m.date:<16} {fit(printable(m.rules), 10, '~'):<10} {fit(partner, 10, '~'):<10} "
                    f"{fit(opponents, 13, '~'):<13} {score:<16} {change}")
            if m.mark:
                cv.put(y, 0, m.mark[:1], "dim")          # (the gutter: a letter, no colour needed)
            cv.put(y, 2, text[: cv.width - 3], "cursor" if on else "")
            y += 1
        chosen = ms[self.current] if 0 <= self.current < len(ms) else None
        if chosen is not None and chosen.note:
            lines = wrap(f"{chosen.mark}: {printable(chosen.note)}" if chosen.mark else printable(chosen.note),
                         cv.width - 4)
        elif any(m.mark for m in ms):
            lines = [MARKS]
        else:
            lines = []
        for i, line in enumerate(lines[:NOTE_ROWS]):
            cv.put(top + rows - NOTE_ROWS + i, 2, line[: cv.width - 3], "dim")


# ---------------------------------------------------------------------- statistics, as at home
class _Ratio(NamedTuple):
    player: str
    level: str
    wins: int
    losses: int
    ratio: float


class _High(NamedTuple):
    player: str
    difference: int
    hand: int
    date: str


class _Stats(NamedTuple):
    ratios: Sequence[_Ratio]
    high: Mapping[str, Sequence[_High]]
    problem: str | None


class _RecordStats:
    """A person's record as the local statistics screen reads its file: wins with each partner
    and at each rules preset as win ratios, high scores by rules preset."""

    def __init__(self, who: str, view: RecordView) -> None:
        import time

        ratios = [_Ratio(t.what, "partner", t.wins, t.matches - t.wins, 100 * t.wins / t.matches)
                  for t in view.by_partner if t.matches]
        ratios += [_Ratio(t.what, "rules", t.wins, t.matches - t.wins, 100 * t.wins / t.matches)
                   for t in view.by_rules if t.matches]
        high: dict[str, list[_High]] = {}
        for h in view.high_scores:
            high.setdefault(h.rules, []).append(
                _High(who, h.difference, h.hand, time.strftime("%Y-%m-%d", time.localtime(h.finished))))
        self.stats = _Stats(ratios, high, None)

    def read(self) -> _Stats:
        return self.stats

    def reset(self, player: str | None) -> str:
        return "Not reset: the server keeps every person's record"


class ServerStatisticsPage(StatisticsPage):
    """The local statistics screen, drawing a person's record at the server (no reset there):
    their wins by partner and by rules, their high scores by rules."""

    heads: ClassVar[tuple[str, str]] = ("partner or rules", "by")
    group: ClassVar[str] = "rules"

    def __init__(self, who: str, view: RecordView) -> None:
        super().__init__(_RecordStats(printable(who), view))

    def on_key(self, name: str) -> None:
        if name != "r":
            super().on_key(name)

    def hints(self) -> Sequence[Hint]:
        return [Hint("Up/Down", "line"), Hint("Left/Right", "rules"), Hint("Esc/q", "back")]


# ---------------------------------------------------------------------- the leaderboard
class LeaderboardPage(Page):
    """The server's best by rating at one game (Canasta first; Left/Right or Tab the next), the
    person's own line marked, and what a rating means."""

    title: ClassVar[str] = "Leaderboard"

    def __init__(self, service: RecordService) -> None:
        super().__init__()
        self.service = service
        self.games = list(service.games)
        self.index = 0
        self.board: list[StandingLine] = []
        self.top = 0
        self.show(0)

    @property
    def game(self) -> str:
        return self.games[self.index] if self.games else ""

    def show(self, index: int) -> None:
        """Show the leaderboard of the ``index``-th game (round the list)."""
        if not self.games:
            return
        self.index = index % len(self.games)
        self.board = list(self.service.leaderboard(self.game))
        self.top = 0

    def on_key(self, name: str) -> None:
        if name in ("escape", "q"):
            self.done = True
        elif name in ("down", "j"):
            self.top = min(max(0, len(self.board) - 1), self.top + 1)
        elif name in ("up", "k"):
            self.top = max(0, self.top - 1)
        elif name in ("right", "l", "tab"):
            self.show(self.index + 1)
        elif name in ("left", "h", "s-tab"):
            self.show(self.index - 1)

    def hints(self) -> Sequence[Hint]:
        return [Hint("Left/Right", "game"), Hint("Up/Down", "scroll"), Hint("Esc/q", "back")]

    def draw_body(self, cv: Canvas, opts: Options, top: int, rows: int) -> None:
        g = opts.glyphs
        # Its first line a heading, the rest one paragraph, wrapped to the screen as a whole (its
        # lines wrapped one by one broke mid-sentence: "three times its" / "uncertainty,").
        head, *body = self.service.rating_text.splitlines() or [""]
        about = [*wrap(head, cv.width - 4), *(w.strip() for w in wrap(" ".join(" ".join(body).split()), cv.width - 4)
                                              if body)]
        list_rows = max(3, rows - len(about) - 4)
        y = top
        shown = printable(self.game).title()
        cv.put(y, 0, (f"{g.hline} Rated players: {shown} " + g.hline * cv.width)[: cv.width], "heading")
        y += 1
        tabs = "  ".join(f"[{printable(n).title()}]" if i == self.index else f" {printable(n).title()} "
                         for i, n in enumerate(self.games))
        cv.put(y, 2, (tabs + "   (Left/Right: the game)")[: cv.width - 3], "dim")
        y += 1
        if not self.board:
            cv.put(y, 2, f"Nobody is rated at {shown} yet: matches at tables created as rated count.", "dim")
        else:
            cv.put(y, 2, f"  {'#':>3}  {'name':<24}{'rating':>8}{'matches':>9}{'wins':>6}", "dim")
            y += 1
            mine = self.service.entry
            for s in self.board[self.top:self.top + list_rows - 1]:
                me = bool(mine) and s.entry == mine
                text = (f"{'>' if me else ' '} {s.place:>3}  {printable(s.name)[:24]:<24}{points(s.points):>8}"
                        f"{s.matches:>9}{s.wins:>6}")
                cv.put(y, 2, text + ("  (you)" if me else ""), "cursor" if me else "")
                y += 1
        y = top + list_rows + 2
        cv.put(y, 0, (f"{g.hline} What a rating means " + g.hline * cv.width)[: cv.width], "heading")
        for i, line in enumerate(about):
            if y + 1 + i < top + rows:
                cv.put(y + 1 + i, 2, line, "")


# ---------------------------------------------------------------------- options
#: The options a person keeps at a server (``people.PersonOptions``' fields), in the local screen's order.
PERSON_OPTIONS = ("four_color", "deck", "sort", "mouse", "bell_turn", "bell_question", "bell_hand_over", "review")


class _PersonSettings:
    """The local options screen's settings store, over the person's options at the server."""

    def __init__(self, service: RecordService) -> None:
        self.service = service

    def values(self) -> Mapping[str, Any]:
        return self.service.option_values()

    def save(self, key: str, value: Any) -> str | None:
        return self.service.set_option(key, value)

    def where(self) -> str:
        return self.service.options_kept()


class PersonOptionsPage(OptionsPage):
    """The local Options screen with what a person keeps at the server: hand order, four-colour
    deck, card faces, mouse and sounds, applied at once and at every table."""

    def __init__(self, service: RecordService) -> None:
        super().__init__(_PersonSettings(service))
        self.items = [i for i in ITEMS if i.key in PERSON_OPTIONS]
        self.service = service

    def header_right(self) -> str:
        return self.service.options_kept()


__all__ = ["MARKS", "NOTE_ROWS", "PERSON_OPTIONS", "GameRatingLine", "HistoryLine", "LeaderboardPage",
           "PersonOptionsPage", "RecordPage", "RecordService", "RecordView", "ServerStatisticsPage", "StandingLine"]
