"""The server's people and records: one store, behind one small typed interface.

Everything the server keeps about people besides the tables' games lives here: the names
keys reserved, ratings, the finished matches (with the path of each match's record, for
replays), per-person options, bans, open invitations and the lobby's last chat lines.
:class:`PeopleStore` is the interface the server uses; :class:`SqlitePeopleStore` keeps it
in one SQLite file in the server's directory (``people.sqlite``).  ``docs/server-store.md``
says what a shared database in its place would take.

The file is opened with the statistics' helpers (:mod:`canasta_tui.persistence.stats`): its
schema is checked before anything is written, migrations are counted by ``PRAGMA
user_version``, WAL mode with a busy timeout, and every write is one ``BEGIN IMMEDIATE``
transaction.  A file that is damaged or is not this program's is reported in the log and kept
(renamed ``people.corrupt-TIME.sqlite``); the server starts a new one.  A file written by a
newer canasta stops the server with a message that says so (nothing is renamed).

A person is their key (``key:SHA256:…``, :class:`~.auth.Identity`); a guest (``guest:…``) is
kept only as long as a match's history row; computers are rated by level
(``computer:expert``).  Calls are short and synchronous; the one long write (a finished
match) is made off the event loop by its caller.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from pathlib import Path
from typing import Any, ClassVar, NamedTuple, Protocol

from openskill.models import PlackettLuce, PlackettLuceRating

from ...engine import Match, Rules, team
from ...lobbyview import NOTE_MAX
from ...lobbyview import Marked as MarkKind  # (what a person marked somebody: a friend, or muted)
from ...persistence.stats import BUSY_TIMEOUT, Database, StatsError, connect, transaction
from ...table.seats import GUEST_PREFIX, KEY_PREFIX
from ...text import printable
from ..person import PersonId, person_text
from .evening import (
    EVENING_MATCHES,
    BestHand,
    ClubMatch,
    PairRow,
    read_best_hand,
    read_club_matches,
    read_pair_rows,
)
from .points import COMPUTER_PREFIX, shown_points

log = logging.getLogger("canasta.server")

#: The store's file, in the server's directory.
PEOPLE_FILE = "people.sqlite"
#: Lobby chat lines kept across restarts.
CHAT_KEEP = 100
#: Recent visitors kept (an admin bans one who is not online from them).
VISITS_KEEP = 200

MIGRATIONS: tuple[str, ...] = (
    # 1: names, ratings, matches and their seats and hands, options, bans, invitations, chat, notes
    """
    CREATE TABLE names (
        skeleton TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        since REAL NOT NULL,
        seen REAL NOT NULL
    );
    CREATE TABLE ratings (
        entry TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        matches INTEGER NOT NULL DEFAULT 0,
        updated REAL NOT NULL
    );
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        game_id TEXT NOT NULL UNIQUE,
        table_id INTEGER NOT NULL,
        finished REAL NOT NULL,
        rules TEXT NOT NULL,
        rated INTEGER NOT NULL,
        record TEXT NOT NULL,
        winner INTEGER NOT NULL,
        scores TEXT NOT NULL,
        hands INTEGER NOT NULL
    );
    CREATE TABLE match_seats (
        match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        entry TEXT NOT NULL,
        name TEXT NOT NULL,
        team INTEGER NOT NULL,
        before_mu REAL,
        before_sigma REAL,
        after_mu REAL,
        after_sigma REAL,
        PRIMARY KEY (match_id, seat)
    );
    CREATE INDEX match_seats_entry ON match_seats(entry);
    CREATE TABLE hands (
        match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        team INTEGER NOT NULL,
        score INTEGER NOT NULL,
        difference INTEGER NOT NULL,
        PRIMARY KEY (match_id, number, team)
    );
    CREATE TABLE options (
        key TEXT PRIMARY KEY,
        data TEXT NOT NULL,
        updated REAL NOT NULL
    );
    CREATE TABLE bans (
        target TEXT PRIMARY KEY,
        until REAL NOT NULL,
        reason TEXT NOT NULL,
        by TEXT NOT NULL,
        since REAL NOT NULL
    );
    CREATE TABLE invitations (
        id INTEGER PRIMARY KEY,
        from_key TEXT NOT NULL,
        from_name TEXT NOT NULL,
        to_key TEXT NOT NULL,
        table_id INTEGER NOT NULL,
        made REAL NOT NULL,
        UNIQUE (to_key, table_id)
    );
    CREATE TABLE chat (
        id INTEGER PRIMARY KEY,
        who TEXT NOT NULL,
        text TEXT NOT NULL,
        verified INTEGER NOT NULL,
        said REAL NOT NULL
    );
    CREATE TABLE notes (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 2: ratings kept per game (canasta, samba, bolivia); the ratings and matches before it are Canasta's
    """
    CREATE TABLE ratings_by_game (
        entry TEXT NOT NULL,
        game TEXT NOT NULL,
        name TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        matches INTEGER NOT NULL DEFAULT 0,
        updated REAL NOT NULL,
        PRIMARY KEY (entry, game)
    );
    INSERT INTO ratings_by_game(entry, game, name, mu, sigma, matches, updated)
        SELECT entry, 'canasta', name, mu, sigma, matches, updated FROM ratings;
    DROP TABLE ratings;
    ALTER TABLE ratings_by_game RENAME TO ratings;
    ALTER TABLE matches ADD COLUMN game TEXT NOT NULL DEFAULT 'canasta';
    CREATE INDEX ratings_game ON ratings(game, mu, sigma);
    """,
    # 3: a ban names whom it keeps out and the addresses their guests are kept out from; recent visitors
    """
    ALTER TABLE bans ADD COLUMN name TEXT NOT NULL DEFAULT '';
    ALTER TABLE bans ADD COLUMN addresses TEXT NOT NULL DEFAULT '';
    CREATE TABLE visits (
        key TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        addresses TEXT NOT NULL,
        seen REAL NOT NULL
    );
    CREATE INDEX visits_seen ON visits(seen);
    """,
    # 4: who played a rated match: each seat's turns played by its person and by a computer standing
    # in, whether they left it for good, and why a seat was not rated; matches ended by a forfeit
    """
    ALTER TABLE match_seats ADD COLUMN own_turns INTEGER;
    ALTER TABLE match_seats ADD COLUMN stood_in INTEGER;
    ALTER TABLE match_seats ADD COLUMN left INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE match_seats ADD COLUMN unrated TEXT NOT NULL DEFAULT '';
    ALTER TABLE matches ADD COLUMN forfeit INTEGER NOT NULL DEFAULT 0;
    """,
    # 5: people (issue 34): whom a person marked a friend or muted, the notes left for a person, and
    # the key of who said each lobby chat line (a muted person's lines are not shown)
    """
    CREATE TABLE marks (
        key TEXT NOT NULL,
        other TEXT NOT NULL,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        since REAL NOT NULL,
        PRIMARY KEY (key, kind, other)
    );
    CREATE TABLE person_notes (
        id TEXT PRIMARY KEY,
        to_key TEXT NOT NULL,
        from_key TEXT NOT NULL,
        from_name TEXT NOT NULL,
        text TEXT NOT NULL,
        written REAL NOT NULL,
        read INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX person_notes_to ON person_notes(to_key, written);
    ALTER TABLE chat ADD COLUMN key TEXT NOT NULL DEFAULT '';
    """,
    # 6: whether a match was at a listed table (the club's evening and best partnerships show only
    # those; a match recorded before is taken as private: nobody knew then); matches by when
    """
    ALTER TABLE matches ADD COLUMN listed INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX matches_finished ON matches(finished);
    """,
)

PEOPLE = Database("server's people", MIGRATIONS,
                  "it is kept as it is under another name, and the server starts a new one")


class StoreError(Exception):
    """The people store cannot be used; the message says what and where.  ``waits``: a failure
    that may pass (the database cannot be reached, a lock held elsewhere), so a queued write waits
    and is tried again rather than dropped."""

    def __init__(self, message: str, *, waits: bool = False) -> None:
        super().__init__(message)
        self.waits = waits


# ---------------------------------------------------------------------- values
class NameRow(NamedTuple):
    """A name a key reserved (:class:`~.names.Reservation`, as stored)."""

    skeleton: str
    name: str
    fingerprint: str
    since: float
    seen: float


class Game(StrEnum):
    """The game a rating is kept for: every Canasta preset (classic, windows, two-player, ...) is
    Canasta; Samba and Bolivia are rated apart (:func:`game_of` says which a table's rules play)."""

    CANASTA = "canasta"
    SAMBA = "samba"
    BOLIVIA = "bolivia"

    @property
    def label(self) -> str:
        return self.value.title()


#: The games in the order the screens show them (the leaderboard starts at Canasta).
GAMES: tuple[Game, ...] = tuple(Game)


def game_of(rules: Rules) -> Game:
    """The game ``rules`` play, from what the rules are, not their preset's name: sequence melds
    make Samba, and Bolivia is Samba where going out needs a sequence canasta (an escalera)."""
    if not rules.sequences:
        return Game.CANASTA
    return Game.BOLIVIA if rules.going_out_needs_sequence else Game.SAMBA


class Rating(NamedTuple):
    """A rating entry's rating at one game: a person's key, or a computer level's ``computer:LEVEL``."""

    entry: str
    name: str
    mu: float
    sigma: float
    matches: int = 0
    game: Game = Game.CANASTA

    @property
    def conservative(self) -> float:
        """What the player is at least, with 99.7 % confidence: mu - 3 sigma (openskill's ordinal)."""
        return self.mu - 3 * self.sigma

    @property
    def points(self) -> int:
        """The rating as shown: the conservative estimate in points (0 for a newcomer)."""
        return shown_points(self.mu, self.sigma)



def rating_text(provisional: int = 3, forfeit_after: float = 120.0) -> str:
    """What a rating is and how it moves, in 8 lines of at most 76 characters (the leaderboard's
    page at 80 columns), with the server's numbers: ``provisional`` matches, a forfeit after
    ``forfeit_after`` seconds."""
    wait = f"{forfeit_after / 60:g} min" if forfeit_after >= 60 and forfeit_after % 60 == 0 else f"{forfeit_after:g} s"
    newcomer = (f"A match counts only against computers and people with {provisional} counted ones."
                if provisional else "Every rated match counts, whoever the other side is.")
    return "\n".join((
        "Ratings (openskill, Plackett-Luce; partnerships rate as teams of two)",
        "Only rated tables count.  A rating is skill minus three times its",
        "uncertainty, in points (40 per unit); a newcomer starts at 0.  Winning",
        "raises it, losing lowers it, more against stronger sides.  Computers are",
        "rated by level, against people; Canasta, Samba and Bolivia rated apart.",
        newcomer,
        "A win counts only if you played half your turns; a loss always counts.",
        f"Leave a rated match for {wait} and your side loses it by forfeit."))


#: What a rating is, with the default numbers.
RATING_TEXT = rating_text()

#: Why a seat of a rated match did not move its person's rating (``match_seats.unrated``).
UNRATED = {
    "stood-in": "not rated: a computer played more than half of your turns (a loss would count)",
    "newcomer": "not rated: somebody on the other side had no rating history yet",
    "partner-left": "not rated: your partner left, the loss is theirs",
    "late": "not rated: you sat down after the match began",
    # A computer level's seats (they have no history; the leaderboard counts only rated seats):
    "no-person": "not rated: nobody but computers played the match",
    "both-sides": "not rated: the level played on more than one side, against itself",
}


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished match: who played it (entry), their name, their side; for a person,
    the turns they played themselves (``turns``) and those a computer played for them (``stood_in``:
    they were away, or their turn's time ran out), whether they left the match and did not come
    back (``left``: their side lost by forfeit), and whether they sat down after it began (``late``)."""

    entry: str
    name: str
    team: int
    turns: int = 0
    stood_in: int = 0
    left: bool = False
    late: bool = False


@dataclass(frozen=True)
class HandScore:
    """One side's score in one hand, and how far ahead of the best other side it was."""

    number: int
    team: int
    score: int
    difference: int


@dataclass(frozen=True)
class MatchResult:
    """A finished match as the store records it."""

    game_id: str
    table_id: int
    finished: float
    rules: str
    rated: bool
    record: str                 # the path of the match's record (its save file), for replays
    winner: int
    scores: tuple[int, ...]     # per side
    seats: tuple[SeatResult, ...]
    hands: tuple[HandScore, ...] = ()
    game: Game = Game.CANASTA   # whose ratings a rated match moves (:func:`game_of` its rules)
    #: The match ended when a player who left did not come back in time: their side (the seats
    #: marked ``left``) lost by forfeit, whatever the scores.
    forfeit: bool = False
    #: The table was listed in the lobby (not a private, unlisted one): its result is the club's
    #: (the evening's page, the best partnerships); an unlisted table's stays its players'.
    listed: bool = False


class RatingChange(NamedTuple):
    entry: str
    before: Rating
    after: Rating

    @property
    def points(self) -> int:
        return self.after.points - self.before.points


class HistoryRow(NamedTuple):
    """One of a person's matches, as a history screen shows it."""

    match_id: int
    game_id: str
    finished: float
    rules: str
    rated: bool
    record: str
    partners: tuple[str, ...]
    opponents: tuple[str, ...]
    our_score: int
    their_score: int
    won: bool
    change: int | None           # rating points won or lost (None: not rated)
    turns: int | None = None     # the turns the person played themselves (None: not counted then)
    stood_in: int = 0            # the turns a computer played for them
    left: bool = False           # they left and did not come back: their side lost by forfeit
    unrated: str = ""            # a rated match that did not move their rating: why (:data:`UNRATED`)
    forfeit: bool = False        # the match ended by a forfeit
    others_stood_in: tuple[str, ...] = ()   # the other players a computer played for, some turns

    @property
    def date(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.finished))

    @property
    def mark(self) -> str:
        """One letter for the history's list (colour-free): ``F`` a forfeit, ``C`` a computer stood
        in for somebody in the match, ``-`` a rated match that did not count for this person."""
        if self.forfeit:
            return "F"
        if self.stood_in or self.others_stood_in:
            return "C"
        return "-" if self.rated and self.change is None else ""

    @property
    def note(self) -> str:
        """What was unusual about this match for this person, in a sentence ("" if nothing)."""
        parts = []
        if self.left:
            parts.append("you left and did not come back: your side lost by forfeit")
        elif self.forfeit:
            parts.append(f"{'won' if self.won else 'lost'} by forfeit: a player left and did not come back")
        if self.stood_in and self.turns is not None:
            total = self.turns + self.stood_in
            parts.append(f"a computer played {self.stood_in} of your {total} turn{'s' if total != 1 else ''}")
        if self.others_stood_in:
            parts.append(f"a computer stood in for {', '.join(self.others_stood_in)}")
        if self.unrated:
            parts.append(UNRATED.get(self.unrated, "not rated"))
        text = "; ".join(parts)
        return text[:1].upper() + text[1:]


class Tally(NamedTuple):
    """Wins and matches with something in common (a partner, a rules preset)."""

    what: str
    wins: int
    matches: int

    @property
    def losses(self) -> int:
        return self.matches - self.wins


class HighScore(NamedTuple):
    difference: int
    score: int
    hand: int
    rules: str
    finished: float


class Standing(NamedTuple):
    """One line of the leaderboard."""

    place: int
    entry: str
    name: str
    points: int
    matches: int
    wins: int


@dataclass(frozen=True)
class PersonRecord:
    """Everything a person's statistics screen shows, in one value.  ``rating`` is their Canasta
    rating; ``ratings`` one per game they have played a rated match of (in :data:`GAMES` order)."""

    rating: Rating
    matches: tuple[HistoryRow, ...]
    by_partner: tuple[Tally, ...]
    by_rules: tuple[Tally, ...]
    high_scores: tuple[HighScore, ...]
    ratings: tuple[Rating, ...] = ()


def record_of(store: PeopleStore, person: PersonId, name: str = "", limit: int = 20) -> PersonRecord:
    """A person's ratings, last ``limit`` matches, wins by partner and by rules preset, and high scores."""
    rating = store.rating(str(person))
    return PersonRecord(rating._replace(name=rating.name if rating.matches else name or rating.name),
                        tuple(store.matches_of(person, limit)), tuple(store.wins_by_partner(person)),
                        tuple(store.wins_by_rules(person)), tuple(store.high_scores(person)),
                        tuple(store.ratings_of(str(person))))


#: Hand order, four-colour deck, card faces, mouse and sounds: what a person may set over SSH.
SORTS = ("rank", "suit")
DECKS = ("unicode", "ascii")


@dataclass(frozen=True)
class PersonOptions:
    """A person's options at every table of the server."""

    sort: str = "rank"
    four_color: bool = False
    deck: str = "unicode"
    mouse: bool = False
    bell_turn: bool = False
    bell_question: bool = False
    bell_hand_over: bool = False
    review: bool = False

    def __post_init__(self) -> None:
        if self.sort not in SORTS:
            raise ValueError(f"sort must be one of {', '.join(SORTS)}, not {printable(str(self.sort))[:20]!r}")
        if self.deck not in DECKS:
            raise ValueError(f"deck must be one of {', '.join(DECKS)}, not {printable(str(self.deck))[:20]!r}")
        for f in fields(self):
            if f.type == "bool" and not isinstance(getattr(self, f.name), bool):
                raise ValueError(f"{f.name} must be true or false")

    @property
    def bells(self) -> set[str]:
        return {b for b in ("turn", "question", "hand_over") if getattr(self, f"bell_{b}")}

    @classmethod
    def from_data(cls, data: object) -> tuple[PersonOptions, list[str]]:
        """Options from stored data, and what in it could not be used (the default is kept for that)."""
        out = cls()
        problems: list[str] = []
        if not isinstance(data, dict):
            return out, ["not a table of options"]
        names = {f.name for f in fields(cls)}
        for k, v in data.items():
            if k not in names:
                problems.append(f"unknown option {printable(str(k))[:20]}")
                continue
            try:
                out = cls(**(asdict(out) | {k: v}))
            except ValueError as exc:
                problems.append(str(exc))
        return out, problems


class Ban(NamedTuple):
    """A key (``key:SHA256:…``) or an address (``address:1.2.3.4``) kept out until ``until``.  A
    key's ban keeps guests out from the ``addresses`` its person used too; ``name``: whom it bans."""

    target: str
    until: float
    reason: str
    by: str
    since: float
    name: str = ""
    addresses: tuple[str, ...] = ()


ADDRESS_PREFIX = "address:"


class Visit(NamedTuple):
    """A recent visitor: their key (``key:…``, or a guest's ``guest:…``), name as shown, the
    addresses they came from (the last first) and when they were last seen."""

    key: str
    name: str
    addresses: tuple[str, ...]
    seen: float


class Invitation(NamedTuple):
    id: int
    from_key: PersonId | None   # (None: not known here, a front told of it by the table's owner)
    from_name: str
    to_key: PersonId
    table_id: int
    made: float

    def row(self) -> tuple[int, str, str, str, int, float]:
        """As the stores write it (people as text)."""
        return self.id, person_text(self.from_key), self.from_name, str(self.to_key), self.table_id, self.made


def options_read(person: PersonId, text: object) -> PersonOptions:
    """A person's options as a store kept them (JSON text): what is not an option, or not one of its
    values, is left at its default, and logged (a damaged row, a newer program's option)."""
    try:
        data = json.loads(str(text))
    except ValueError:
        data = None
    options, problems = PersonOptions.from_data(data)
    if problems:
        log.warning("the options of %s: %s (the default is used for those)", person, "; ".join(problems))
    return options


def invitation_of(row: Sequence[Any]) -> Invitation | None:
    """An invitation as a store read it (``id, from_key, from_name, to_key, table_id, made``); None
    (logged) when a person in it is not one (a damaged row: no invitation is better than a wrong one)."""
    number, from_text, from_name, to_text, table_id, made = row
    from_key, to_key = PersonId.read(from_text), PersonId.read(to_text)
    if from_key is None or to_key is None:
        log.warning("invitation %s left out: %s invites %s", printable(str(number)), printable(str(from_text))[:100],
                    printable(str(to_text))[:100])
        return None
    return Invitation(int(number), from_key, str(from_name), to_key, int(table_id), float(made))


class ChatLine(NamedTuple):
    who: str
    text: str
    verified: bool
    said: float
    key: str = ""           # who said it (``key:…``, ``guest:…``; "" the server): a muted person's is not shown


class Mark(NamedTuple):
    """Somebody a person marked: their key, the kind, their name when marked, since when."""

    other: str
    kind: MarkKind
    name: str
    since: float


class PersonNote(NamedTuple):
    """A short note left for a person (``to_key``), read when they next come in.  ``id``: given by
    whoever leaves it (unique: a random token), so a queued note can be read or deleted before it
    is written."""

    id: str
    to_key: str
    from_key: str
    from_name: str
    text: str
    written: float
    read: bool = False


#: The notes that may wait unread for one person (a note beyond is refused), and the notes kept for
#: one person, read or not (the oldest read ones go first).  (The longest note: ``NOTE_MAX``, of the lobby's view.)
NOTES_WAITING = 50
NOTES_KEEP = 100
#: The most friends, and the most people muted, one person may mark.
MARKS_MAX = 200


# ---------------------------------------------------------------------- the interface
class PeopleStore(Protocol):
    """What the server keeps about people.  Every write is whole or not at all."""

    # names a key reserved (:class:`~.names.NameBook` keeps them in memory and writes here)
    def names(self) -> list[NameRow]: ...
    def put_names(self, rows: Sequence[NameRow], gone: Sequence[str] = ()) -> None: ...
    def note(self, name: str) -> str | None: ...
    def set_note(self, name: str, value: str) -> None: ...

    # ratings (one per entry and game) and finished matches
    def rating(self, entry: str, game: Game = Game.CANASTA) -> Rating: ...
    def ratings_of(self, entry: str) -> list[Rating]: ...
    def established(self, entry: str, game: Game = Game.CANASTA) -> bool: ...
    def record_match(self, result: MatchResult) -> list[RatingChange]: ...

    # what a person's screens show
    def matches_of(self, person: PersonId, limit: int = 20) -> list[HistoryRow]: ...
    def wins_by_partner(self, person: PersonId) -> list[Tally]: ...
    def wins_by_rules(self, person: PersonId) -> list[Tally]: ...
    def high_scores(self, person: PersonId, limit: int = 10) -> list[HighScore]: ...
    def leaderboard(self, limit: int = 20, game: Game = Game.CANASTA) -> list[Standing]: ...

    # the club's evening and partnerships (:mod:`.evening`)
    def club_matches(self, since: float, until: float, limit: int = EVENING_MATCHES) -> tuple[list[ClubMatch], bool]: ...
    def pair_rows(self, entry: str | None, partner: str | None = None, listed_only: bool = False) -> list[PairRow]: ...
    def best_hand(self, entry: str, partner: str, listed_only: bool = False) -> BestHand | None: ...

    # options
    def options_of(self, person: PersonId) -> PersonOptions | None: ...
    def set_options(self, person: PersonId, options: PersonOptions) -> None: ...

    # bans
    def ban(self, ban: Ban) -> None: ...
    def unban(self, target: str) -> bool: ...
    def bans(self, now: float) -> list[Ban]: ...
    def visit(self, visit: Visit, keep: int = VISITS_KEEP) -> None: ...
    def visits(self, limit: int = VISITS_KEEP) -> list[Visit]: ...

    # invitations
    def invite(self, from_key: PersonId, from_name: str, to_key: PersonId, table_id: int, made: float) -> Invitation: ...
    def invitations_for(self, person: PersonId) -> list[Invitation]: ...
    def invitations(self) -> list[Invitation]: ...
    def withdraw(self, invitation_id: int) -> bool: ...
    def withdraw_table(self, table_id: int) -> int: ...

    # the lobby's chat
    def add_chat(self, line: ChatLine, keep: int = CHAT_KEEP) -> None: ...
    def last_chat(self, n: int = CHAT_KEEP) -> list[ChatLine]: ...

    # people (issue 34): friends and muted people, and notes left for a person
    def marks_of(self, key: str) -> list[Mark]: ...
    def mark(self, key: str, mark: Mark) -> None: ...
    def unmark(self, key: str, other: str, kind: MarkKind) -> bool: ...
    def leave_note(self, note: PersonNote, waiting: int = NOTES_WAITING, keep: int = NOTES_KEEP) -> bool: ...
    def notes_for(self, key: str) -> list[PersonNote]: ...
    def notes_waiting(self, keys: Sequence[str]) -> dict[str, tuple[int, float]]: ...
    def read_notes(self, key: str, ids: Sequence[str]) -> None: ...
    def drop_note(self, key: str, note_id: str) -> bool: ...

    def close(self) -> None: ...


# ---------------------------------------------------------------------- ratings
MODEL = PlackettLuce()


def new_rating(entry: str, name: str, game: Game = Game.CANASTA) -> Rating:
    return Rating(entry, name, MODEL.mu, MODEL.sigma, 0, game)


def ranks_of(scores: Sequence[int], winner: int) -> list[int]:
    """Each side's place (0 best): the winner first, the others by score (equal scores share a place)."""
    order = sorted(range(len(scores)), key=lambda t: (t != winner, -scores[t]))
    ranks = [0] * len(scores)
    place = 0
    for i, t in enumerate(order):
        if i and (order[i - 1] == winner or scores[order[i - 1]] != scores[t]):
            place = i
        ranks[t] = place
    return ranks


def rated(entry: str) -> bool:
    """Is this seat's player rated (and their rating kept)?  People with a key, and computers."""
    return entry.startswith((KEY_PREFIX, COMPUTER_PREFIX))


@dataclass(frozen=True)
class RatingRules:
    """How a server's rated matches count (``docs/ratings.md``).  ``provisional``: a person's
    first rated matches at a game that count only against computers and established people (0:
    everybody is established, every match counts)."""

    provisional: int = 3


def assess(result: MatchResult, established: Callable[[str], bool]) -> dict[str, str]:
    """Which of the match's rated entries its result moves: entry -> "" (it counts) or why not (a
    key of :data:`UNRATED`).  ``established(entry)``: a person with enough counted rated matches at
    the match's game to rate others against.  The rules, in order, for a person's seat:

    * sat down after the match began (took a computer's seat): not rated (``late``);
    * the match was lost by forfeit and they did not leave (their partner did): not rated
      (``partner-left``); whoever left is rated, as a loss;
    * a person on another side is not established (a newcomer, a guest): not rated (``newcomer``),
      so a key's first matches move nobody and throwaway keys cannot be farmed for points;
    * a computer played more than half of their turns and their side did not lose: not rated
      (``stood-in``): a computer's win is not theirs; a loss counts (it cannot be dodged).

    A computer level is rated against people, as one player on the side it sat on:

    * a match with no person in it from the start (computers only) moves nobody (``no-person``);
    * a level that held seats on more than one side played itself: its seats on one side won what
      those on the other lost, so it is not rated (``both-sides``); its rating still makes those
      sides' strength, so the people in the match are rated against it.

    Otherwise a level is rated in every seat it holds from the start (partners: the same side)."""
    out: dict[str, str] = {}
    lost = {s.team for s in result.seats if s.left} if result.forfeit else set()
    # (somebody who sat down after the start, in a computer's seat, is not rated: they do not count)
    person = any(not s.entry.startswith(COMPUTER_PREFIX) and not s.late for s in result.seats)
    for s in result.seats:
        if not rated(s.entry):
            continue
        if s.entry.startswith(COMPUTER_PREFIX):
            sides = {o.team for o in result.seats if o.entry == s.entry}
            out[s.entry] = "no-person" if not person else "both-sides" if len(sides) > 1 else ""
            continue
        others = [o for o in result.seats if o.team != s.team and not o.entry.startswith(COMPUTER_PREFIX)]
        why = ""
        if s.late:
            why = "late"
        elif s.team in lost and not s.left:
            why = "partner-left"
        elif any(not established(o.entry) for o in others):
            why = "newcomer"
        elif s.stood_in > s.turns and result.winner == s.team:
            why = "stood-in"
        out[s.entry] = why
    return out


def result_ranks(result: MatchResult) -> dict[int, int]:
    """Each side's place (0 best): the winner first, then by score, and a side that lost by forfeit
    last, whatever its score."""
    teams = sorted({s.team for s in result.seats})
    lost = {s.team for s in result.seats if s.left} if result.forfeit else set()
    kept = [t for t in teams if t not in lost]
    ranks = dict(zip(kept, ranks_of([result.scores[t] for t in kept], kept.index(result.winner)), strict=True))
    return ranks | {t: len(kept) for t in teams if t in lost}


def rate(result: MatchResult, current: dict[str, Rating], counted: Iterable[str] | None = None) -> dict[str, Rating]:
    """The new ratings of the match's rated entries: each side a team of its seats (a partnership is
    a team of two), ranked winner first (a side that lost by forfeit last).  ``current`` holds each
    rated entry's rating now; a guest plays as a newcomer and is not kept.  An entry in several
    seats (two Expert computers) gets the mean of its seats' new ratings.  ``counted``: the entries
    whose ratings move (:func:`assess`; None: all of ``current``); the others' ratings still make
    their side's strength, as openskill computes the match."""
    teams = sorted({s.team for s in result.seats})
    players: list[list[PlackettLuceRating]] = []
    entries: list[list[str]] = []
    for t in teams:
        seats = [s for s in result.seats if s.team == t]
        entries.append([s.entry for s in seats])
        players.append([MODEL.rating(mu=current[s.entry].mu, sigma=current[s.entry].sigma) if s.entry in current
                        else MODEL.rating() for s in seats])
    places = result_ranks(result)
    new = MODEL.rate(players, ranks=[float(places[t]) for t in teams])
    moved = set(current) if counted is None else set(counted) & set(current)
    got: dict[str, list[tuple[float, float]]] = {}
    for es, rs in zip(entries, new, strict=True):
        for e, r in zip(es, rs, strict=True):
            if e in moved:
                got.setdefault(e, []).append((r.mu, r.sigma))
    out = {}
    for e, values in got.items():
        old = current[e]
        out[e] = old._replace(mu=sum(v[0] for v in values) / len(values),
                              sigma=sum(v[1] for v in values) / len(values), matches=old.matches + 1)
    return out


# ---------------------------------------------------------------------- the club's reads, both stores
class ClubReads:
    """The club's evening and partnerships (:mod:`.evening`: one SQL for both stores), for a store
    that reads through ``_reading()`` with its connection's :attr:`placeholder`."""

    #: The placeholder of the store's connection (``?`` for SQLite, ``%s`` for PostgreSQL).
    placeholder: ClassVar[str] = "?"

    def _reading(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def club_matches(self, since: float, until: float, limit: int = EVENING_MATCHES) -> tuple[list[ClubMatch], bool]:
        """The matches finished in ``[since, until)`` at listed tables, newest first, and whether there were more."""
        with self._reading() as db:
            return read_club_matches(db, self.placeholder, since, until, limit)

    def pair_rows(self, entry: str | None, partner: str | None = None, listed_only: bool = False) -> list[PairRow]:
        """A person's partnerships' matches, or the club's (:func:`.evening.read_pair_rows`)."""
        with self._reading() as db:
            return read_pair_rows(db, self.placeholder, entry, partner, listed_only)

    def best_hand(self, entry: str, partner: str, listed_only: bool = False) -> BestHand | None:
        """The best hand of ``entry`` with ``partner`` (:func:`.evening.read_best_hand`)."""
        with self._reading() as db:
            return read_best_hand(db, self.placeholder, entry, partner, listed_only)


# ---------------------------------------------------------------------- SQLite
class SqlitePeopleStore(ClubReads):
    """:class:`PeopleStore` in one SQLite file.  Two connections: one reads (under its lock, from
    the event loop's thread), one writes (under its own, from the writers' threads: the store's
    writer, :mod:`.writer`, and the one that records a finished match), so that a read never waits
    for a write, nor for another process's lock on the file (WAL readers do not)."""

    #: One process writes it: its name book decides who holds a name (:mod:`.writer`).
    shared = False

    def __init__(self, path: Path, timeout: float = BUSY_TIMEOUT, *, rules: RatingRules | None = None) -> None:
        self.path = path
        self.rules = rules or RatingRules()
        self.problem = ""               # the file found was set aside: what the log said
        self._lock = threading.RLock()
        self._wlock = threading.RLock()
        self._batch = threading.local()
        try:
            self._db = connect(path, timeout, PEOPLE, check_same_thread=False)
        except StatsError as exc:
            text = str(exc)
            if "newer than this program" in text or "busy" in text or not path.exists():
                raise StoreError(text) from None
            kept = _set_aside(path)
            self.problem = f"{text}: now {printable(kept.name)}" if kept else text
            # Loudly: a store that starts empty has forgotten every reserved name (so the next key
            # to use a name takes it), every ban and every rating.
            log.error("%s.  The new store is EMPTY: every reserved name, ban, rating, match history and "
                      "person's option the old one held is gone from this server until the kept file is mended "
                      "(sqlite3 FILE .recover may get them back)", self.problem)
            try:
                self._db = connect(path, timeout, PEOPLE, check_same_thread=False)
            except StatsError as exc2:
                raise StoreError(str(exc2)) from None
        self._db.execute("PRAGMA synchronous = NORMAL")
        try:
            self._wdb = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
            self._wdb.execute("PRAGMA foreign_keys = ON")
            self._wdb.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.Error as exc:
            self._db.close()
            raise StoreError(f"{printable(str(path))}: the server's people database: {printable(str(exc))}") from None

    def write_wait(self, seconds: float) -> None:
        """How long a write waits for another process's lock on the file before it fails."""
        with self._wlock:
            self._wdb.execute(f"PRAGMA busy_timeout = {max(0, round(seconds * 1000))}")

    @contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction for every write made inside (on this thread): whole or not at all."""
        if getattr(self._batch, "db", None) is not None:
            yield
            return
        with self._wlock, self._errors(), transaction(self._wdb) as db:
            self._batch.db = db
            try:
                yield
            finally:
                self._batch.db = None

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        inside = getattr(self._batch, "db", None)
        if inside is not None:
            yield inside
            return
        with self._wlock, self._errors(), transaction(self._wdb) as db:
            yield db

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        with self._lock, self._errors():
            yield self._db

    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as exc:
            raise StoreError(f"{printable(str(self.path))}: the server's people database: "
                             f"{printable(str(exc))}") from None

    def close(self) -> None:
        with self._lock:
            self._db.close()
        with self._wlock:
            self._wdb.close()

    # ------------------------------------------------------------------ names
    def names(self) -> list[NameRow]:
        with self._reading() as db:
            return [NameRow(str(a), str(b), str(c), float(d), float(e)) for a, b, c, d, e in
                    db.execute("SELECT skeleton, name, fingerprint, since, seen FROM names ORDER BY since")]

    def put_names(self, rows: Sequence[NameRow], gone: Sequence[str] = ()) -> None:
        with self._writing() as db:
            db.executemany("DELETE FROM names WHERE skeleton = ?", [(g,) for g in gone])
            db.executemany("INSERT OR REPLACE INTO names(skeleton, name, fingerprint, since, seen) "
                           "VALUES (?, ?, ?, ?, ?)", [tuple(r) for r in rows])

    def note(self, name: str) -> str | None:
        with self._reading() as db:
            row = db.execute("SELECT value FROM notes WHERE name = ?", (name,)).fetchone()
        return None if row is None else str(row[0])

    def set_note(self, name: str, value: str) -> None:
        with self._writing() as db:
            db.execute("INSERT OR REPLACE INTO notes(name, value) VALUES (?, ?)", (name, value))

    # ------------------------------------------------------------------ ratings and matches
    def _rating(self, db: sqlite3.Connection, entry: str, game: Game, name: str = "") -> Rating:
        row = db.execute("SELECT name, mu, sigma, matches FROM ratings WHERE entry = ? AND game = ?",
                         (entry, game.value)).fetchone()
        if row is None:
            return new_rating(entry, name or entry, game)
        return Rating(entry, str(row[0]), float(row[1]), float(row[2]), int(row[3]), game)

    def rating(self, entry: str, game: Game = Game.CANASTA) -> Rating:
        with self._reading() as db:
            return self._rating(db, entry, game)

    def _established(self, db: sqlite3.Connection, entry: str, game: Game) -> bool:
        """Does ``entry`` count as an opponent at ``game``?  Computers always; a person once they have
        :attr:`RatingRules.provisional` rated matches there that moved their rating, played
        themselves (not left, at least half of their turns); a guest never (unless the rule is off)."""
        if entry.startswith(COMPUTER_PREFIX) or self.rules.provisional <= 0:
            return True
        if not entry.startswith(KEY_PREFIX):
            return False
        row = db.execute(
            "SELECT COUNT(*) FROM match_seats s JOIN matches m ON m.id = s.match_id WHERE s.entry = ?"
            " AND m.rated = 1 AND m.game = ? AND s.after_mu IS NOT NULL AND s.left = 0"
            " AND (s.own_turns IS NULL OR s.own_turns >= s.stood_in)", (entry, game.value)).fetchone()
        return int(row[0]) >= self.rules.provisional

    def established(self, entry: str, game: Game = Game.CANASTA) -> bool:
        """Whether ``entry`` has a rating history others are rated against (:meth:`_established`)."""
        with self._reading() as db:
            return self._established(db, entry, game)

    def ratings_of(self, entry: str) -> list[Rating]:
        """``entry``'s rating at each game they have played a rated match of, in :data:`GAMES` order
        (a game this program does not know, from a newer one, is left out)."""
        with self._reading() as db:
            rows = db.execute("SELECT game, name, mu, sigma, matches FROM ratings WHERE entry = ? AND matches > 0",
                              (entry,)).fetchall()
        known = {g.value: g for g in GAMES}
        got = [Rating(entry, str(n), float(mu), float(sg), int(m), known[str(g)])
               for g, n, mu, sg, m in rows if str(g) in known]
        return sorted(got, key=lambda r: GAMES.index(r.game))

    def record_match(self, result: MatchResult) -> list[RatingChange]:
        """Record a finished match (once: the same game again changes nothing) and, if it was
        rated, move its players' ratings; what changed."""
        changes: list[RatingChange] = []
        with self._writing() as db:
            if db.execute("SELECT 1 FROM matches WHERE game_id = ?", (result.game_id,)).fetchone():
                return []
            before: dict[str, Rating] = {}
            for s in result.seats:
                if rated(s.entry) and s.entry not in before:
                    before[s.entry] = self._rating(db, s.entry, result.game, s.name)._replace(name=s.name)
            why: dict[str, str] = {}
            after: dict[str, Rating] = {}
            if result.rated:
                why = assess(result, lambda e: self._established(db, e, result.game))
                after = rate(result, before, [e for e, w in why.items() if not w])
            cur = db.execute(
                "INSERT INTO matches(game_id, table_id, finished, rules, rated, record, winner, scores, hands, game,"
                " forfeit, listed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (result.game_id, result.table_id, result.finished, result.rules, int(result.rated), result.record,
                 result.winner, json.dumps(list(result.scores)), len({h.number for h in result.hands}),
                 result.game.value, int(result.forfeit), int(result.listed)))
            mid = cur.lastrowid
            for i, s in enumerate(result.seats):
                b, a = before.get(s.entry), after.get(s.entry)
                person = not s.entry.startswith(COMPUTER_PREFIX)
                db.execute("INSERT INTO match_seats(match_id, seat, entry, name, team, before_mu, before_sigma,"
                           " after_mu, after_sigma, own_turns, stood_in, left, unrated)"
                           " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           (mid, i, s.entry, s.name, s.team, b.mu if b and a else None, b.sigma if b and a else None,
                            a.mu if a else None, a.sigma if a else None, s.turns if person else None,
                            s.stood_in if person else None, int(s.left), why.get(s.entry, "")))
            db.executemany("INSERT INTO hands(match_id, number, team, score, difference) VALUES (?, ?, ?, ?, ?)",
                           [(mid, h.number, h.team, h.score, h.difference) for h in result.hands])
            now = result.finished
            for entry, r in after.items():
                db.execute("INSERT OR REPLACE INTO ratings(entry, game, name, mu, sigma, matches, updated)"
                           " VALUES (?, ?, ?, ?, ?, ?, ?)", (entry, result.game.value, r.name, r.mu, r.sigma,
                                                             r.matches, now))
                changes.append(RatingChange(entry, before[entry], r))
        return changes

    # ------------------------------------------------------------------ a person's record
    def _seats_of(self, db: sqlite3.Connection, person: PersonId, limit: int | None = None) -> list[tuple[Any, ...]]:
        sql = ("SELECT m.id, m.game_id, m.finished, m.rules, m.rated, m.record, m.winner, m.scores, s.team,"
               " s.seat, s.before_mu, s.before_sigma, s.after_mu, s.after_sigma, s.own_turns, s.stood_in, s.left,"
               " s.unrated, m.forfeit FROM match_seats s"
               " JOIN matches m ON m.id = s.match_id WHERE s.entry = ? ORDER BY m.finished DESC, m.id DESC")
        if limit is not None:
            return db.execute(sql + " LIMIT ?", (str(person), limit)).fetchall()
        return db.execute(sql, (str(person),)).fetchall()

    def matches_of(self, person: PersonId, limit: int = 20) -> list[HistoryRow]:
        out = []
        with self._reading() as db:
            for row in self._seats_of(db, person, limit):
                others = db.execute("SELECT name, team, stood_in FROM match_seats WHERE match_id = ? AND seat != ?"
                                    " ORDER BY seat", (row[0], row[9])).fetchall()
                out.append(history_row(row, others))
        return out

    def wins_by_partner(self, person: PersonId) -> list[Tally]:
        with self._reading() as db:
            rows = db.execute(
                "SELECT p.entry, p.name, m.winner = s.team FROM match_seats s JOIN matches m ON m.id = s.match_id"
                " JOIN match_seats p ON p.match_id = s.match_id AND p.team = s.team AND p.seat != s.seat"
                " WHERE s.entry = ? ORDER BY m.finished", (str(person),)).fetchall()
        return _tally((str(e), str(n), bool(w)) for e, n, w in rows)

    def wins_by_rules(self, person: PersonId) -> list[Tally]:
        with self._reading() as db:
            rows = db.execute(
                "SELECT m.rules, m.rules, m.winner = s.team FROM match_seats s JOIN matches m ON m.id = s.match_id"
                " WHERE s.entry = ? ORDER BY m.finished", (str(person),)).fetchall()
        return _tally((str(e), str(n), bool(w)) for e, n, w in rows)

    def high_scores(self, person: PersonId, limit: int = 10) -> list[HighScore]:
        with self._reading() as db:
            rows = db.execute(
                "SELECT h.difference, h.score, h.number, m.rules, m.finished FROM match_seats s"
                " JOIN matches m ON m.id = s.match_id JOIN hands h ON h.match_id = s.match_id AND h.team = s.team"
                " WHERE s.entry = ? ORDER BY h.difference DESC, m.finished LIMIT ?", (str(person), limit)).fetchall()
        return [HighScore(int(d), int(sc), int(n), str(r), float(f)) for d, sc, n, r, f in rows]

    def leaderboard(self, limit: int = 20, game: Game = Game.CANASTA) -> list[Standing]:
        """The top ``limit`` rated people and computer levels at ``game`` by conservative rating, with
        their rated matches and wins at that game: a win is a match whose every seat of the entry was
        on the winning side (matches recorded before levels on both sides went unrated moved the
        level's rating, but were never its win)."""
        with self._reading() as db:
            rows = db.execute(
                "SELECT r.entry, r.name, r.mu, r.sigma, r.matches, (SELECT COUNT(DISTINCT m.id) FROM match_seats s"
                " JOIN matches m ON m.id = s.match_id WHERE s.entry = r.entry AND m.rated = 1 AND m.game = r.game"
                " AND m.winner = s.team AND s.unrated = '' AND NOT EXISTS (SELECT 1 FROM match_seats o"
                " WHERE o.match_id = m.id AND o.entry = r.entry AND o.team != m.winner))"
                " FROM ratings r WHERE r.game = ? AND r.matches > 0"
                " ORDER BY r.mu - 3 * r.sigma DESC, r.matches DESC, r.entry LIMIT ?", (game.value, limit)).fetchall()
        return [Standing(i + 1, str(e), str(n), shown_points(float(mu), float(sg)), int(m), int(w))
                for i, (e, n, mu, sg, m, w) in enumerate(rows)]

    # ------------------------------------------------------------------ options
    def options_of(self, person: PersonId) -> PersonOptions | None:
        with self._reading() as db:
            row = db.execute("SELECT data FROM options WHERE key = ?", (str(person),)).fetchone()
        return None if row is None else options_read(person, row[0])

    def set_options(self, person: PersonId, options: PersonOptions) -> None:
        with self._writing() as db:
            db.execute("INSERT OR REPLACE INTO options(key, data, updated) VALUES (?, ?, ?)",
                       (str(person), json.dumps(asdict(options)), time.time()))

    # ------------------------------------------------------------------ bans
    def ban(self, ban: Ban) -> None:
        with self._writing() as db:
            db.execute("INSERT OR REPLACE INTO bans(target, until, reason, by, since, name, addresses) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)", (*ban[:6], " ".join(ban.addresses)))

    def unban(self, target: str) -> bool:
        with self._writing() as db:
            return db.execute("DELETE FROM bans WHERE target = ?", (target,)).rowcount > 0

    def bans(self, now: float) -> list[Ban]:
        """The bans in force at ``now`` (those over are forgotten)."""
        with self._writing() as db:
            db.execute("DELETE FROM bans WHERE until <= ?", (now,))
            return [Ban(str(t), float(u), str(r), str(b), float(s), str(n), tuple(str(a).split()))
                    for t, u, r, b, s, n, a in
                    db.execute("SELECT target, until, reason, by, since, name, addresses FROM bans ORDER BY since")]

    # ------------------------------------------------------------------ recent visitors
    def visit(self, visit: Visit, keep: int = VISITS_KEEP) -> None:
        """``visit`` is the newest of its key; only the ``keep`` most recent visitors are kept."""
        with self._writing() as db:
            db.execute("INSERT OR REPLACE INTO visits(key, name, addresses, seen) VALUES (?, ?, ?, ?)",
                       (visit.key, visit.name, " ".join(visit.addresses), visit.seen))
            db.execute("DELETE FROM visits WHERE key NOT IN (SELECT key FROM visits ORDER BY seen DESC LIMIT ?)",
                       (keep,))

    def visits(self, limit: int = VISITS_KEEP) -> list[Visit]:
        """The most recent visitors, the last first."""
        with self._reading() as db:
            return [Visit(str(k), str(n), tuple(str(a).split()), float(s)) for k, n, a, s in
                    db.execute("SELECT key, name, addresses, seen FROM visits ORDER BY seen DESC LIMIT ?", (limit,))]

    # ------------------------------------------------------------------ invitations
    def invite(self, from_key: PersonId, from_name: str, to_key: PersonId, table_id: int, made: float) -> Invitation:
        """A new invitation, under a number no invitation of this store had before (also across a
        restart): a box left open for an answered or withdrawn one can never answer another.  An
        invitation of ``to_key`` to the same table is replaced (and its number goes with it)."""
        with self._writing() as db:
            db.execute("DELETE FROM invitations WHERE to_key = ? AND table_id = ?", (str(to_key), table_id))
            kept = db.execute("SELECT value FROM notes WHERE name = ?", (INVITATION_COUNTER,)).fetchone()
            highest = db.execute("SELECT MAX(id) FROM invitations").fetchone()[0]
            last = max(_int(kept[0]) if kept else 0, int(highest or 0))
            inv = Invitation(last + 1, from_key, from_name, to_key, table_id, made)
            db.execute("INSERT INTO invitations(id, from_key, from_name, to_key, table_id, made)"
                       " VALUES (?, ?, ?, ?, ?, ?)", inv.row())
            db.execute("INSERT OR REPLACE INTO notes(name, value) VALUES (?, ?)", (INVITATION_COUNTER, str(inv.id)))
        return inv

    def last_invitation(self) -> int:
        """The highest number an invitation of this store has had (the next is one more)."""
        with self._reading() as db:
            kept = db.execute("SELECT value FROM notes WHERE name = ?", (INVITATION_COUNTER,)).fetchone()
            highest = db.execute("SELECT MAX(id) FROM invitations").fetchone()[0]
        return max(_int(kept[0]) if kept else 0, int(highest or 0))

    def claim_invitations(self, n: int) -> int:
        """The last invitation number (one process numbers its invitations after it)."""
        return self.last_invitation()

    def put_invitation(self, inv: Invitation) -> None:
        """Keep an invitation numbered by its caller (:mod:`.writer` numbers them in memory)."""
        with self._writing() as db:
            db.execute("DELETE FROM invitations WHERE to_key = ? AND table_id = ?", (str(inv.to_key), inv.table_id))
            db.execute("INSERT OR REPLACE INTO invitations(id, from_key, from_name, to_key, table_id, made)"
                       " VALUES (?, ?, ?, ?, ?, ?)", inv.row())
            kept = db.execute("SELECT value FROM notes WHERE name = ?", (INVITATION_COUNTER,)).fetchone()
            if inv.id > (_int(kept[0]) if kept else 0):
                db.execute("INSERT OR REPLACE INTO notes(name, value) VALUES (?, ?)", (INVITATION_COUNTER, str(inv.id)))

    def _invitations(self, where: str = "", args: tuple[Any, ...] = ()) -> list[Invitation]:
        with self._reading() as db:
            rows = db.execute("SELECT id, from_key, from_name, to_key, table_id, made FROM invitations"
                              f" {where} ORDER BY made, id", args).fetchall()
        return [inv for inv in map(invitation_of, rows) if inv is not None]

    def invitations_for(self, person: PersonId) -> list[Invitation]:
        return self._invitations("WHERE to_key = ?", (str(person),))

    def invitations(self) -> list[Invitation]:
        return self._invitations()

    def withdraw(self, invitation_id: int) -> bool:
        with self._writing() as db:
            return db.execute("DELETE FROM invitations WHERE id = ?", (invitation_id,)).rowcount > 0

    def withdraw_table(self, table_id: int) -> int:
        with self._writing() as db:
            return int(db.execute("DELETE FROM invitations WHERE table_id = ?", (table_id,)).rowcount)

    # ------------------------------------------------------------------ chat
    def add_chat(self, line: ChatLine, keep: int = CHAT_KEEP) -> None:
        with self._writing() as db:
            db.execute("INSERT INTO chat(who, text, verified, said, key) VALUES (?, ?, ?, ?, ?)",
                       (line.who, line.text, int(line.verified), line.said, line.key))
            db.execute("DELETE FROM chat WHERE id NOT IN (SELECT id FROM chat ORDER BY id DESC LIMIT ?)", (keep,))

    def last_chat(self, n: int = CHAT_KEEP) -> list[ChatLine]:
        with self._reading() as db:
            rows = db.execute("SELECT who, text, verified, said, key FROM chat ORDER BY id DESC LIMIT ?",
                              (n,)).fetchall()
        return [ChatLine(str(w), str(t), bool(v), float(s), str(k)) for w, t, v, s, k in reversed(rows)]

    # ------------------------------------------------------------------ friends, mutes, notes (issue 34)
    def marks_of(self, key: str) -> list[Mark]:
        """Whom ``key`` marked, each kind in the order marked (a kind this program does not know is left out)."""
        with self._reading() as db:
            rows = db.execute("SELECT other, kind, name, since FROM marks WHERE key = ? ORDER BY since, other",
                              (key,)).fetchall()
        return marks_read(rows)

    def mark(self, key: str, mark: Mark) -> None:
        """Mark somebody (again: their name and time are the new ones), unless ``key`` has
        :data:`MARKS_MAX` of that kind already (then nothing is written)."""
        with self._writing() as db:
            held = db.execute("SELECT COUNT(*) FROM marks WHERE key = ? AND kind = ? AND other != ?",
                              (key, mark.kind.value, mark.other)).fetchone()[0]
            if int(held) < MARKS_MAX:
                db.execute("INSERT OR REPLACE INTO marks(key, other, kind, name, since) VALUES (?, ?, ?, ?, ?)",
                           (key, mark.other, mark.kind.value, mark.name, mark.since))

    def unmark(self, key: str, other: str, kind: MarkKind) -> bool:
        with self._writing() as db:
            return db.execute("DELETE FROM marks WHERE key = ? AND other = ? AND kind = ?",
                              (key, other, kind.value)).rowcount > 0

    def leave_note(self, note: PersonNote, waiting: int = NOTES_WAITING, keep: int = NOTES_KEEP) -> bool:
        """Keep ``note`` for its person unless ``waiting`` notes wait unread for them already (then
        nothing is written: False); beyond ``keep`` notes the oldest read ones go.  A note kept
        already (its id) is written again with its read mark."""
        with self._writing() as db:
            if db.execute("SELECT 1 FROM person_notes WHERE id = ?", (note.id,)).fetchone():
                db.execute("UPDATE person_notes SET read = ? WHERE id = ?", (int(note.read), note.id))
                return True
            unread = db.execute("SELECT COUNT(*) FROM person_notes WHERE to_key = ? AND read = 0",
                                (note.to_key,)).fetchone()[0]
            if int(unread) >= waiting:
                return False
            db.execute("INSERT INTO person_notes(id, to_key, from_key, from_name, text, written, read)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?)", (*note[:6], int(note.read)))
            db.execute("DELETE FROM person_notes WHERE to_key = ? AND read = 1 AND id NOT IN (SELECT id FROM"
                       " person_notes WHERE to_key = ? ORDER BY written DESC, id LIMIT ?)",
                       (note.to_key, note.to_key, keep))
        return True

    def notes_for(self, key: str) -> list[PersonNote]:
        """The notes kept for ``key``, the oldest first."""
        with self._reading() as db:
            rows = db.execute("SELECT id, to_key, from_key, from_name, text, written, read FROM person_notes"
                              " WHERE to_key = ? ORDER BY written, id", (key,)).fetchall()
        return [PersonNote(str(i), str(t), str(f), str(fn), str(x), float(w), bool(r)) for i, t, f, fn, x, w, r in rows]

    def notes_waiting(self, keys: Sequence[str]) -> dict[str, tuple[int, float]]:
        """How many notes wait unread for each of ``keys``, and when the newest was left (those with
        none are left out)."""
        out: dict[str, tuple[int, float]] = {}
        with self._reading() as db:
            for i in range(0, len(keys), 500):       # (SQLite's bound on a statement's parameters)
                part = list(keys[i:i + 500])
                marks = ", ".join("?" * len(part))
                out |= {str(k): (int(n), float(w)) for k, n, w in db.execute(
                    f"SELECT to_key, COUNT(*), MAX(written) FROM person_notes WHERE read = 0 AND to_key IN ({marks})"
                    " GROUP BY to_key", part)}
        return out

    def read_notes(self, key: str, ids: Sequence[str]) -> None:
        with self._writing() as db:
            db.executemany("UPDATE person_notes SET read = 1 WHERE to_key = ? AND id = ?", [(key, i) for i in ids])

    def drop_note(self, key: str, note_id: str) -> bool:
        with self._writing() as db:
            return db.execute("DELETE FROM person_notes WHERE to_key = ? AND id = ?", (key, note_id)).rowcount > 0


def marks_read(rows: Iterable[Sequence[Any]]) -> list[Mark]:
    """Marks as either store reads them (other, kind, name, since): a kind not known is left out."""
    known = {k.value: k for k in MarkKind}
    return [Mark(str(o), known[str(k)], str(n), float(s)) for o, k, n, s in rows if str(k) in known]


#: The note that holds the last invitation's number (numbers are never given twice).
INVITATION_COUNTER = "invitation_last"


def _int(text: object) -> int:
    try:
        return max(0, int(str(text)))
    except ValueError:
        return 0



def history_row(row: Sequence[Any], others: Sequence[Sequence[Any]]) -> HistoryRow:
    """A match in a person's history from their seat's row (the match and the seat: id, game id,
    finished, rules, rated, record, winner, scores, team, seat, rating before and after, turns, turns
    stood in for, left, why unrated, forfeit) and the other seats' (name, team, stood in), as either
    store reads them."""
    (mid, gid, fin, rules, was_rated, record, winner, scores, team, _seat,
     bmu, bsig, amu, asig, turns, stood_in, left, unrated, forfeit) = row
    sc = _scores(scores)
    ours = sc[team] if 0 <= team < len(sc) else 0
    theirs = max((v for t, v in enumerate(sc) if t != team), default=0)
    change = None
    if amu is not None and bmu is not None:
        change = shown_points(amu, asig) - shown_points(bmu, bsig)
    return HistoryRow(int(mid), str(gid), float(fin), str(rules), bool(was_rated), str(record),
                      tuple(str(n) for n, t, _ in others if t == team),
                      tuple(str(n) for n, t, _ in others if t != team),
                      ours, theirs, winner == team, change,
                      None if turns is None else int(turns), int(stood_in or 0), bool(left),
                      str(unrated or ""), bool(forfeit),
                      tuple(str(n) for n, _, si in others if si))

def _scores(text: object) -> list[int]:
    try:
        value = json.loads(str(text))
    except ValueError:
        return []
    return [v for v in value if isinstance(v, int)] if isinstance(value, list) else []


def _tally(rows: Iterable[tuple[str, str, bool]]) -> list[Tally]:
    """Wins and matches per first column (shown by the newest second column), most matches first."""
    counts: dict[str, list[int]] = {}
    shown: dict[str, str] = {}
    for key, name, won in rows:
        c = counts.setdefault(key, [0, 0])
        c[0] += int(won)
        c[1] += 1
        shown[key] = _entry_name(key, name)
    return sorted((Tally(shown[k], w, m) for k, (w, m) in counts.items()), key=lambda t: (-t.matches, -t.wins, t.what))


def _entry_name(entry: str, name: str) -> str:
    if entry.startswith(COMPUTER_PREFIX):
        return f"Computer ({entry.removeprefix(COMPUTER_PREFIX)})"
    if entry.startswith(GUEST_PREFIX) and not name.startswith("~"):
        return "~" + name
    return name or entry


def _set_aside(path: Path) -> Path | None:
    """Rename a database file that cannot be used (and its WAL files): kept, out of the way."""
    stamp = time.strftime("%Y%m%dT%H%M%S")
    kept = path.with_name(f"{path.stem}.corrupt-{stamp}{path.suffix}")
    try:
        path.rename(kept)
    except OSError as exc:
        log.warning("%s could not be set aside: %s", printable(str(path)), exc.strerror)
        return None
    for extra in ("-wal", "-shm"):
        side = path.with_name(path.name + extra)
        if side.exists():
            try:
                side.rename(kept.with_name(kept.name + extra))
            except OSError:
                pass
    return kept


def computer_entry(level: str) -> str:
    return COMPUTER_PREFIX + level


def result_of(match: Match, seats: Sequence[tuple[str, str]], *, game_id: str, table_id: int, rated: bool,
              record: str, level: str, finished: float | None = None,
              turns: Mapping[str, tuple[int, int]] | None = None, left: Collection[str] = (),
              late: Collection[str] = (), forfeit_winner: int | None = None, listed: bool = False) -> MatchResult:
    """A finished match as the store records it.  ``seats``: each seat's (person key or "", name);
    a seat without a person is a computer of ``level``.  ``turns``: per person, (turns played
    themselves, turns a computer played for them); ``late``: who sat down after the start.  A match
    ended by a forfeit (``forfeit_winner``: the side that wins it) is lost by the side of ``left``."""
    winner = match.winner if forfeit_winner is None else forfeit_winner
    if winner is None:
        raise ValueError("the match is not over")
    rules = match.rules
    turns = turns or {}
    out = tuple(SeatResult(key or computer_entry(level), name if key else f"Computer ({level})", team(i, rules),
                           *turns.get(key, (0, 0)), key in left, key in late) if key else
                SeatResult(computer_entry(level), f"Computer ({level})", team(i, rules))
                for i, (key, name) in enumerate(seats))
    hands = []
    for h in match.sheet:
        totals = [s.total for s in h.scores]
        for t, score in enumerate(totals):
            best_other = max((v for i, v in enumerate(totals) if i != t), default=0)
            hands.append(HandScore(h.number, t, score, score - best_other))
    return MatchResult(game_id, table_id, time.time() if finished is None else finished, rules.name, rated, record,
                       winner, tuple(match.scores), out, tuple(hands), game_of(rules),
                       forfeit=forfeit_winner is not None, listed=listed)


__all__ = [
    "ADDRESS_PREFIX",
    "CHAT_KEEP",
    "COMPUTER_PREFIX",
    "GAMES",
    "MARKS_MAX",
    "MODEL",
    "NOTES_KEEP",
    "NOTES_WAITING",
    "NOTE_MAX",
    "PEOPLE_FILE",
    "RATING_TEXT",
    "UNRATED",
    "VISITS_KEEP",
    "Ban",
    "ChatLine",
    "ClubReads",
    "Game",
    "HandScore",
    "HighScore",
    "HistoryRow",
    "Invitation",
    "Mark",
    "MarkKind",
    "MatchResult",
    "NameRow",
    "PeopleStore",
    "PersonNote",
    "PersonOptions",
    "PersonRecord",
    "Rating",
    "RatingChange",
    "RatingRules",
    "SeatResult",
    "SqlitePeopleStore",
    "Standing",
    "StoreError",
    "Tally",
    "Visit",
    "assess",
    "computer_entry",
    "game_of",
    "new_rating",
    "ranks_of",
    "rate",
    "rated",
    "rating_text",
    "record_of",
    "result_of",
    "result_ranks",
    "shown_points",
]
