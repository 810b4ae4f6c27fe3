"""The club's evening and its partnerships: what the lobby's "Tonight" and "Partnerships" pages
show (issue 34, section 2), computed from the people store's finished matches.

* **An evening** is a day of the server's time zone (``[serve] timezone``, else the machine's
  own) that runs from 06:00 to 06:00 the next morning (:data:`EVENING_STARTS`): a club night that
  goes on past midnight stays one evening.  :func:`evening_bounds` gives its two instants,
  :func:`evening_of` the evening an instant belongs to.
* **Tonight** lists the matches finished in one evening at a **listed** table (a private,
  unlisted table's match stays its players': ``matches.listed``), with each side's people, score
  and rating moves; the tournaments of the evening have their place (:attr:`Evening.tournaments`),
  empty until the server runs tournaments.
* **A partnership** is two seats of one side in a match of two sides of two (four-player
  partnership Canasta).  :class:`Partnership` is its record: matches together, wins, average
  final score, best hand.  "Who do I win with" (:func:`partners_of`) ranks a person's partners
  over all their own matches; the club's best (:func:`best_pairs`) ranks pairs of people with keys
  over listed matches, from :data:`PAIR_MIN_MATCHES` matches together.

Everything here is read from finished matches only (a row is written when a match ends), so
nothing about a match still being played, let alone a card, can reach these pages.  The SQL is
shared by both stores (:func:`read_club_matches`, :func:`read_pair_rows`, :func:`read_best_hand`
take a connection and its placeholder), so the SQLite file and PostgreSQL answer alike.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from ...table.seats import KEY_PREFIX
from .points import COMPUTER_PREFIX, shown_points

#: The most matches the club's evening lists (the page says when there were more).
EVENING_MATCHES = 400
#: The hour an evening starts (and the previous one ends), in the server's time zone.
EVENING_STARTS = 6
#: Matches together a partnership needs to be among the club's best.
PAIR_MIN_MATCHES = 3
#: Partnerships the club's best lists.
BEST_PAIRS = 30
#: The earliest evening a person may ask for (nothing older was ever recorded).
FIRST_EVENING = dt.date(2000, 1, 1)


# ---------------------------------------------------------------------- evenings
def evening_bounds(day: dt.date, zone: dt.tzinfo | None = None) -> tuple[float, float]:
    """The evening of ``day``: from 06:00 that day to 06:00 the next, in ``zone`` (None: the
    machine's own), as seconds since the epoch.  (A day of a clock change is 23 or 25 hours.)"""
    def at(d: dt.date) -> float:
        t = dt.datetime(d.year, d.month, d.day, EVENING_STARTS, tzinfo=zone)
        return t.timestamp()           # (a naive time is the machine's local time)
    return at(day), at(day + dt.timedelta(days=1))


def evening_of(when: float, zone: dt.tzinfo | None = None) -> dt.date:
    """The evening the instant ``when`` belongs to: its day, or the day before before 06:00."""
    local = dt.datetime.fromtimestamp(when, zone)
    return (local - dt.timedelta(hours=EVENING_STARTS)).date()


_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def parse_evening(text: str, today: dt.date) -> dt.date | str:
    """The evening a person typed (``YYYY-MM-DD``), or why it cannot be shown: anything else, a
    day that does not exist, one before :data:`FIRST_EVENING` or after ``today``."""
    text = text.strip()
    if not _DATE.fullmatch(text):
        return "Type a date as YYYY-MM-DD, like 2026-11-26"
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        return f"There is no such day as {text}"
    if day < FIRST_EVENING:
        return f"Nothing is kept from before {FIRST_EVENING.isoformat()}"
    if day > today:
        return f"That evening has not come yet (tonight is {today.isoformat()})"
    return day


# ---------------------------------------------------------------------- values
class ClubSeat(NamedTuple):
    """One seat of a finished match as the club sees it: who, their side, their rating's move in
    shown points (None: the match did not move it)."""

    entry: str
    name: str
    team: int
    change: int | None


class ClubSide(NamedTuple):
    """One side of a finished match: its people (names as shown), score, and whether it won."""

    team: int
    names: tuple[str, ...]
    changes: tuple[int | None, ...]
    score: int
    won: bool


class ClubMatch(NamedTuple):
    """A finished match of the evening: public results only (no hand, no card)."""

    match_id: int
    finished: float
    table_id: int
    rules: str
    rated: bool
    winner: int
    scores: tuple[int, ...]
    hands: int
    forfeit: bool
    seats: tuple[ClubSeat, ...]

    def sides(self) -> list[ClubSide]:
        """The sides, the winner first, then by score."""
        teams = sorted({s.team for s in self.seats} | set(range(len(self.scores))))
        out = []
        for t in teams:
            seats = [s for s in self.seats if s.team == t]
            out.append(ClubSide(t, tuple(shown_name(s.entry, s.name) for s in seats), tuple(s.change for s in seats),
                                self.scores[t] if t < len(self.scores) else 0, t == self.winner))
        return sorted(out, key=lambda s: (not s.won, -s.score, s.team))


class Tournament(NamedTuple):
    """A tournament of the evening and its winners (none yet: the server runs no tournaments)."""

    name: str
    winners: tuple[str, ...]


class Evening(NamedTuple):
    """One evening's results: the matches finished (newest first), the tournaments (their place
    kept; empty until the server runs them), and whether there were more than were listed."""

    day: dt.date
    matches: tuple[ClubMatch, ...]
    tournaments: tuple[Tournament, ...] = ()
    more: bool = False
    zone: str = ""


class BestHand(NamedTuple):
    """A partnership's best hand: its score, the hand's number in its match, rules, when."""

    score: int
    hand: int
    rules: str
    finished: float


class PairRow(NamedTuple):
    """One match of a partnership, as the stores read it: ``entry`` and ``partner`` sat on side
    ``team``; ``scores`` the match's final scores per side."""

    match_id: int
    finished: float
    entry: str
    name: str
    partner: str
    partner_name: str
    team: int
    winner: int
    scores: tuple[int, ...]

    @property
    def won(self) -> bool:
        return self.team == self.winner

    @property
    def score(self) -> int:
        return self.scores[self.team] if 0 <= self.team < len(self.scores) else 0


class Partnership(NamedTuple):
    """A partnership's record: its two entries and names (the looking person's first, in "who do
    I win with"), matches together, wins, the sum of its final scores, and (in its own record) its
    best hand."""

    entries: tuple[str, str]
    names: tuple[str, str]
    matches: int
    wins: int
    total: int
    best: BestHand | None = None

    @property
    def average(self) -> int:
        """Its average final score, rounded (0 with no match)."""
        return round(self.total / self.matches) if self.matches else 0

    @property
    def share(self) -> float:
        """Its wins as a share of its matches, 0 to 1."""
        return self.wins / self.matches if self.matches else 0.0

    @property
    def rank_share(self) -> float:
        """What partnerships are ranked by: (wins + 1) / (matches + 2), Laplace's rule of
        succession, so that 1 win of 1 (0.67) does not outrank 9 of 10 (0.83): a small sample
        is pulled towards one half."""
        return (self.wins + 1) / (self.matches + 2)


def shown_name(entry: str, name: str) -> str:
    """A seat's name as the club's pages show it: a computer by its level, a guest marked ``~``."""
    if entry.startswith(COMPUTER_PREFIX):
        return f"Computer ({entry.removeprefix(COMPUTER_PREFIX)})"
    if not entry.startswith(KEY_PREFIX) and not name.startswith("~"):
        return "~" + name
    return name or entry


def scores_of(text: object) -> tuple[int, ...]:
    """A match's stored scores (JSON, a list of whole numbers); () when they cannot be read."""
    try:
        value = json.loads(str(text))
    except ValueError:
        return ()
    if not isinstance(value, list):
        return ()
    return tuple(v for v in value if isinstance(v, int) and not isinstance(v, bool))


# ---------------------------------------------------------------------- the stores' shared SQL
def _sql(text: str, mark: str) -> str:
    """``text`` written with ``%s`` placeholders, for a connection that takes ``mark``."""
    return text.replace("%s", mark)


def read_club_matches(db: Any, mark: str, since: float, until: float, limit: int) -> tuple[list[ClubMatch], bool]:
    """The matches finished in ``[since, until)`` at listed tables, newest first (at most
    ``limit``), and whether there were more; ``db`` a connection of either store."""
    rows = db.execute(_sql(
        "SELECT id, finished, table_id, rules, rated, winner, scores, hands, forfeit FROM matches"
        " WHERE finished >= %s AND finished < %s AND listed ORDER BY finished DESC, id DESC LIMIT %s", mark),
        (since, until, limit + 1)).fetchall()
    more = len(rows) > limit
    rows = rows[:limit]
    seats: dict[int, list[ClubSeat]] = {}
    if rows:
        ids = [int(r[0]) for r in rows]
        marks = ", ".join([mark] * len(ids))
        for mid, entry, name, team, bmu, bsg, amu, asg in db.execute(
                "SELECT match_id, entry, name, team, before_mu, before_sigma, after_mu, after_sigma FROM match_seats"
                f" WHERE match_id IN ({marks}) ORDER BY match_id, seat", tuple(ids)).fetchall():
            change = (shown_points(float(amu), float(asg)) - shown_points(float(bmu), float(bsg))
                      if None not in (bmu, bsg, amu, asg) else None)
            seats.setdefault(int(mid), []).append(ClubSeat(str(entry), str(name), int(team), change))
    out = [ClubMatch(int(mid), float(fin), int(tid), str(rules), bool(rated), int(winner), scores_of(scores),
                     int(hands), bool(forfeit), tuple(seats.get(int(mid), ())))
           for mid, fin, tid, rules, rated, winner, scores, hands, forfeit in rows]
    return out, more


#: Two seats of one side, alone on it (a side of two), with the match; ``a`` the first.
_PAIRED = (" FROM match_seats a JOIN match_seats b ON b.match_id = a.match_id AND b.team = a.team AND b.seat != a.seat"
           " JOIN matches m ON m.id = a.match_id"
           " WHERE (SELECT COUNT(*) FROM match_seats c WHERE c.match_id = a.match_id AND c.team = a.team) = 2")
_PAIRS = "SELECT m.id, m.finished, a.entry, a.name, b.entry, b.name, a.team, m.winner, m.scores" + _PAIRED


def read_pair_rows(db: Any, mark: str, entry: str | None, partner: str | None = None,
                   listed_only: bool = False) -> list[PairRow]:
    """The partnerships' matches, oldest first: ``entry``'s with each partner (or with ``partner``
    only), all of their own (``listed_only``: those at listed tables); with ``entry`` None, the
    club's: every pair of people with keys, once a match, at listed tables only."""
    if entry is None:
        sql = _PAIRS + " AND a.seat < b.seat AND m.listed AND a.entry LIKE %s AND b.entry LIKE %s"
        args: tuple[Any, ...] = (KEY_PREFIX + "%", KEY_PREFIX + "%")
    else:
        sql = _PAIRS + " AND a.entry = %s"
        args = (entry,)
        if partner is not None:
            sql += " AND b.entry = %s"
            args += (partner,)
        if listed_only:
            sql += " AND m.listed"
    rows = db.execute(_sql(sql + " ORDER BY m.finished, m.id, a.seat", mark), args).fetchall()
    return [PairRow(int(mid), float(fin), str(e), str(n), str(p), str(pn), int(t), int(w), scores_of(sc))
            for mid, fin, e, n, p, pn, t, w, sc in rows]


def read_best_hand(db: Any, mark: str, entry: str, partner: str, listed_only: bool) -> BestHand | None:
    """The best hand ``entry`` and ``partner`` scored together (the first, of equal ones)."""
    row = db.execute(_sql(
        "SELECT h.score, h.number, m.rules, m.finished" + _PAIRED.replace(
            " WHERE", " JOIN hands h ON h.match_id = a.match_id AND h.team = a.team WHERE", 1)
        + " AND a.entry = %s AND b.entry = %s" + (" AND m.listed" if listed_only else "")
        + " ORDER BY h.score DESC, m.finished, m.id, h.number LIMIT 1", mark), (entry, partner)).fetchone()
    return None if row is None else BestHand(int(row[0]), int(row[1]), str(row[2]), float(row[3]))


# ---------------------------------------------------------------------- records from rows
def _ranked(pairs: Iterable[Partnership]) -> list[Partnership]:
    return sorted(pairs, key=lambda p: (-p.rank_share, -p.matches, -p.average, p.names))


def _tally(rows: Iterable[PairRow], key: Any) -> list[Partnership]:
    got: dict[tuple[str, str], Partnership] = {}
    for r in rows:
        entries, names = key(r)
        was = got.get(entries, Partnership(entries, names, 0, 0, 0))
        # (the newest names: rows come oldest first)
        got[entries] = Partnership(entries, names, was.matches + 1, was.wins + int(r.won), was.total + r.score)
    return list(got.values())


def partners_of(rows: Iterable[PairRow]) -> list[Partnership]:
    """"Who do I win with": one person's partners (their rows of :func:`read_pair_rows`), ranked by
    :attr:`Partnership.rank_share`, then by matches together; every partner listed, with counts."""
    return _ranked(_tally(rows, lambda r: ((r.entry, r.partner),
                                           (shown_name(r.entry, r.name), shown_name(r.partner, r.partner_name)))))


def best_pairs(rows: Iterable[PairRow], min_matches: int = PAIR_MIN_MATCHES, limit: int = BEST_PAIRS) -> list[Partnership]:
    """The club's best partnerships (the club's rows of :func:`read_pair_rows`): pairs with at
    least ``min_matches`` matches together, ranked as :func:`partners_of` ranks them."""
    def key(r: PairRow) -> tuple[tuple[str, str], tuple[str, str]]:
        if r.entry <= r.partner:
            return (r.entry, r.partner), (r.name, r.partner_name)
        return (r.partner, r.entry), (r.partner_name, r.name)
    return _ranked(p for p in _tally(rows, key) if p.matches >= min_matches)[:limit]


def partnership_of(rows: Sequence[PairRow], entry: str, partner: str, names: tuple[str, str],
                   best: BestHand | None) -> Partnership:
    """The record of ``entry`` with ``partner`` from their rows (:func:`read_pair_rows`)."""
    got = _tally((r for r in rows if (r.entry, r.partner) == (entry, partner)),
                 lambda r: ((r.entry, r.partner), (shown_name(r.entry, r.name), shown_name(r.partner, r.partner_name))))
    if not got:
        return Partnership((entry, partner), names, 0, 0, 0, best)
    return got[0]._replace(best=best)


__all__ = ["BEST_PAIRS", "EVENING_MATCHES", "EVENING_STARTS", "FIRST_EVENING", "PAIR_MIN_MATCHES", "BestHand",
           "ClubMatch", "ClubSeat", "ClubSide", "Evening", "PairRow", "Partnership", "Tournament", "best_pairs",
           "evening_bounds", "evening_of", "parse_evening", "partners_of", "partnership_of", "read_best_hand",
           "read_club_matches", "read_pair_rows", "scores_of", "shown_name"]
