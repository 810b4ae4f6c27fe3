"""A person's own record over SSH: the server's side of :mod:`canasta_tui.ui.records`.

:class:`PersonRecords` is the :class:`~canasta_tui.ui.records.RecordService` of one
connection: the person's record and the leaderboard from the people store, their options
(kept by their key; a guest's last for the visit), and replays.  A replay opens only a match
that is over: the record of a table still being played is refused (its hands are hidden to
somebody while it runs), whoever asks.  :class:`TableHost` gives the table's client over SSH
the same pages (``i``, ``o``) as the lobby.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from ...engine import Match, Rules
from ...lobbyview import Access
from ...persistence.saves import SaveError
from ...presets import rules_label
from ...table.replay import ReplaySource, replay_source
from ...text import points, printable
from ...ui.canvas import Options
from ...ui.club import EveningView, MatchLine, PartnershipLine, SideLine, TournamentLine
from ...ui.helppages import HelpPage
from ...ui.pages import Page
from ...ui.records import PersonOptionsPage, RecordPage, RecordView, StandingLine
from ...ui.style import ASCII
from ..door.auth import Identity
from ..lobby.registry import Registry
from ..lobby.service import shown_to
from ..person import PersonId, reason
from ..tables.server_table import OVER, ServerTable
from .evening import EVENING_STARTS, FIRST_EVENING, PAIR_MIN_MATCHES, Partnership, evening_of, parse_evening
from .people import GAMES, Game, PersonOptions, rating_text


class ServerApp(Protocol):
    """What the record screens need of a connection (``client.ServerApp``)."""

    registry: Registry
    kept: PersonOptions

    @property
    def identity(self) -> Identity: ...

    def apply_options(self, kept: PersonOptions) -> None: ...

log = logging.getLogger("canasta.server")

#: How many of a person's matches the record screen lists (and replays open from).
HISTORY_ROWS = 50
LEADERBOARD_ROWS = 50

STILL_PLAYED = "That match is still being played: its replay opens when it is over"


def screen_options(base: Options, kept: PersonOptions) -> Options:
    """The screen's options of a connection: what its terminal can show (``base``) with the
    person's four-colour deck, mouse and card faces (ASCII where asked; Unicode only where the
    terminal takes it)."""
    glyphs = ASCII if kept.deck == "ascii" else base.glyphs
    return dataclasses.replace(base, glyphs=glyphs, four_color=kept.four_color, mouse=kept.mouse)


class PersonRecords:
    """The record screens' service for the person of one connection (``app``)."""

    def __init__(self, app: ServerApp) -> None:
        self.app = app
        self.registry = app.registry

    @property
    def label(self) -> str:
        return self.app.identity.label

    @property
    def entry(self) -> str:
        ident = self.app.identity
        return str(ident.person) if ident.verified else ""

    @property
    def rating_text(self) -> str:
        config = self.registry.config
        return rating_text(config.provisional_matches, config.forfeit_after)

    def record(self) -> RecordView | None:
        return self.registry.club.record_of(self.app.identity, HISTORY_ROWS)

    @property
    def games(self) -> Sequence[str]:
        return [g.value for g in GAMES]

    def leaderboard(self, game: str) -> Sequence[StandingLine]:
        try:
            which = Game(game)
        except ValueError:
            return []
        return self.registry.club.leaderboard(LEADERBOARD_ROWS, which)

    # ------------------------------------------------------------------ options
    def option_values(self) -> Mapping[str, Any]:
        return dataclasses.asdict(self.app.kept)

    def set_option(self, key: str, value: Any) -> str | None:
        if key not in {f.name for f in dataclasses.fields(PersonOptions)}:
            return f"{printable(key)[:20]} is not an option a server keeps"
        try:
            new = dataclasses.replace(self.app.kept, **{key: value})
        except (TypeError, ValueError) as exc:
            return f"Not changed: {exc}"
        why = None
        if self.app.identity.verified:
            why = self.registry.club.set_person_options(self.app.identity, new)
        self.app.apply_options(new)          # at once (and for this visit, even when it could not be kept)
        return reason(why)

    def options_kept(self) -> str:
        if self.app.identity.verified:
            return "kept for your key on this server"
        return "a guest's options last until you leave"

    # ------------------------------------------------------------------ replays
    def replay(self, match_id: int) -> ReplaySource | str:
        view = self.registry.club.record_of(self.app.identity, HISTORY_ROWS)
        if view is None:
            return "Your matches cannot be read now (the server's store failed): try again later"
        row = next((m for m in view.matches if m.match_id == match_id), None)
        if row is None:
            return "That match is not in your history"
        return open_record(self.app, row.record, f"{row.rules}, {row.date}")

    def table_replay(self, table_id: int) -> ReplaySource | str:
        """The match of a table in the lobby: only once it is over."""
        st = self.registry.tables.get(table_id)
        if st is None or st.table is None:
            return "That table is gone: its match is in the history of those who played it"
        if st.state != OVER:
            return f"Table {table_id} is still being played: its replay opens when the match is over"
        me = self.app.identity.person
        if not replay_open_to(st, me):
            if not shown_to(st.lobby_row(), me):
                return "That table is gone: its match is in the history of those who played it"
            return f"Table {table_id} was private: its replay is its players' (it is in their history)"
        return _source(st.table.match, st.meta(), f"table {table_id}")


def replay_open_to(st: ServerTable, key: PersonId) -> bool:
    """May ``key`` replay the finished match of ``st`` from the lobby?  A replay shows every hand:
    an open, listed, watched table's is anybody's; any other's belongs to its players, its creator
    and those its creator let in (invited, or given its code)."""
    if st.access == Access.OPEN and st.listed and st.watchable:
        return True
    seated = {PersonId.read(s.key) for s in st.table.seats} if st.table is not None else set()
    return key == st.creator or key in st.allowed or key in seated


def _source(match: Match, meta: dict[str, Any], title: str) -> ReplaySource | str:
    server = meta.get("server")
    forfeit = isinstance(server, dict) and bool(server.get("forfeit"))     # (over, before its end)
    if match.winner is None and not forfeit:
        return STILL_PLAYED
    return replay_source(match, meta, title)


def open_record(app: ServerApp, path: str, title: str) -> ReplaySource | str:
    """The replay of the match recorded at ``path`` (a table's file, or its row in the tables'
    database: the table store's :meth:`~..tables.store.TableStore.record_ref`), or why not: a table
    still played (its hands are hidden while it runs) is refused; a finished table still in the
    lobby is read as it is held, any other from its record."""
    registry = app.registry
    for st in registry.tables.values():
        if registry.store.record_ref(st.id) == path and st.table is not None:
            if st.state != OVER:
                return STILL_PLAYED
            return _source(st.table.match, st.meta(), title)
    try:
        game = registry.store.read_record(path)
    except SaveError as exc:
        log.warning("the replay of %s could not be read: %s", printable(path), printable(exc.reason))
        return "The record of that match cannot be read (the server's log says why)"
    return _source(game.match, game.meta, title)


class ClubRecords:
    """The club's pages' service (:class:`~canasta_tui.ui.club.ClubService`) for the person of one
    connection: the evenings in the club's time zone (``[serve] timezone``), their partnerships and
    the club's best, from the people store through :class:`~.results.Club`."""

    def __init__(self, app: ServerApp) -> None:
        self.app = app
        self.registry = app.registry
        self.zone = self.registry.config.zone()

    @property
    def min_matches(self) -> int:
        return PAIR_MIN_MATCHES

    @property
    def first_evening(self) -> dt.date:
        return FIRST_EVENING

    def tonight(self) -> dt.date:
        return evening_of(time.time(), self.zone)

    def hours(self) -> str:
        where = self.registry.config.timezone or f"the server's clock, {time.strftime('%Z')}"
        return f"from {EVENING_STARTS:02d}:00 to {EVENING_STARTS:02d}:00 the next morning ({printable(where)})"

    def evening(self, day: dt.date) -> EveningView | None:
        got = self.registry.club.evening(day, self.zone)
        if got is None:
            return None
        matches = tuple(MatchLine(dt.datetime.fromtimestamp(m.finished, self.zone).strftime("%H:%M"), m.rules, m.rated,
                                  m.forfeit, m.hands, m.table_id,
                                  tuple(SideLine(s.names, s.changes, s.score, s.won) for s in m.sides()))
                        for m in got.matches)
        tournaments = tuple(TournamentLine(t.name, t.winners) for t in got.tournaments)
        return EveningView(day, day == self.tonight(), matches, tournaments, got.more, self.hours())

    def parse_day(self, text: str) -> dt.date | str:
        return parse_evening(text, self.tonight())

    def partners(self) -> Sequence[PartnershipLine] | str:
        ident = self.app.identity
        if not ident.verified:
            return "A guest keeps no record here: connect with your SSH key to have one"
        got = self.registry.club.partners(ident.person)
        return UNREAD if got is None else [_line(p) for p in got]

    def best_pairs(self) -> Sequence[PartnershipLine] | str:
        got = self.registry.club.best_pairs()
        return UNREAD if got is None else [_line(p) for p in got]

    def partnership(self, line: PartnershipLine) -> PartnershipLine | str:
        ident = self.app.identity
        mine = ident.verified and str(ident.person) in line.entries
        got = self.registry.club.partnership(Partnership(line.entries, line.names, line.matches, line.wins, 0), mine)
        if got is None:
            return UNREAD
        best = ""
        if got.best is not None:
            b = got.best
            when = dt.datetime.fromtimestamp(b.finished, self.zone).strftime("%Y-%m-%d")
            best = f"{points(b.score)} (hand {b.hand}, {printable(b.rules)}, {when})"
        counted = ("Counted: every match of yours together, private tables too." if mine
                   else "Counted: their matches together at listed tables.")
        return _line(got)._replace(best=best, counted=counted)


#: What the club's pages say when the store cannot be read (the log says why).
UNREAD = "The club's records cannot be read now (the server's store failed): try again later"


def _line(p: Partnership) -> PartnershipLine:
    return PartnershipLine(p.entries, p.names, p.matches, p.wins, p.average)


class TableHost:
    """The pages a table's client over SSH opens (``i``, ``o``, ``?``): the person's record and
    options, and the game's help; a server's table offers nothing after the match."""

    def __init__(self, records: PersonRecords, rules: Rules, sort: str = "rank") -> None:
        self.records = records
        self.rules = rules
        self.sort = sort

    def page(self, name: str) -> Page:
        if name == "statistics":
            return RecordPage(self.records, self.records.app.kept.sort)
        if name == "options":
            return PersonOptionsPage(self.records)
        return HelpPage(self.rules, rules_label(self.rules))

    def offers(self) -> frozenset[str]:
        return frozenset()


__all__ = ["STILL_PLAYED", "UNREAD", "ClubRecords", "PersonRecords", "TableHost", "open_record", "replay_open_to",
           "screen_options"]
