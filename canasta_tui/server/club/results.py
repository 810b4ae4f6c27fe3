"""The people store's side of the server: records, the leaderboard, a person's options, the shown
ratings of the online list, and a finished match's result (and ratings).

:class:`Club` is held by the registry (``registry.club``); every query here reads or writes the
people store (:mod:`.people`), and a store error is logged and answered with ``None``, ``[]`` or a
sentence, never raised to the person.  Everything but the recording of a match (on a thread of
its own) runs on the event loop's thread.
"""

from __future__ import annotations

import concurrent.futures
import datetime as dt
import logging
import time
from typing import Protocol

from ...table import Table
from ...text import printable
from ..door.auth import Identity
from ..person import PersonId, Refusal
from ..tables.store import TableStore
from .evening import EVENING_MATCHES, Evening, Partnership, best_pairs, evening_bounds, partners_of, partnership_of
from .people import (
    Game,
    PeopleStore,
    PersonOptions,
    PersonRecord,
    RatingChange,
    Standing,
    StoreError,
    record_of,
    result_of,
    shown_points,
)
from .writer import WAITS, QueuedPeople

log = logging.getLogger("canasta.server")

#: How long a person's shown rating is kept in memory for the online list (seconds).
RATING_CACHE = 60.0
#: How long the club's best partnerships are kept in memory (seconds; a match recorded here ends it).
BEST_CACHE = 60.0


class FinishedTable(Protocol):
    """A server's table as its finished match is recorded (a ``tables.ServerTable``)."""

    @property
    def id(self) -> int: ...

    @property
    def game_id(self) -> str: ...

    @property
    def rated(self) -> bool: ...

    @property
    def level(self) -> str: ...

    @property
    def turns(self) -> dict[str, list[int]]: ...     # per person: [turns played, turns a computer played]

    @property
    def late(self) -> set[str]: ...                  # who sat down after the start

    @property
    def forfeited(self) -> str: ...                  # who left, when the match ended by a forfeit

    @property
    def forfeit_winner(self) -> int | None: ...

    @property
    def forfeit_left(self) -> set[str]: ...          # the losing side's people away at the forfeit

    @property
    def listed(self) -> bool: ...                    # shown in everybody's lobby (its result is the club's)


class Club:
    """The people's records, ratings and options, as the server's screens and tables ask for them."""

    def __init__(self, people: PeopleStore, store: TableStore) -> None:
        self.people = people
        self.store = store
        #: Finished matches are recorded there on a thread of their own (the loop never waits).
        self._recorder = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="canasta-people")
        self.results: list[concurrent.futures.Future[list[RatingChange]]] = []
        #: Shown ratings read for the online list: (key, game) -> (points, when read).
        self._ratings: dict[tuple[str, Game], tuple[int, float]] = {}
        #: The club's best partnerships as last read: (when, them); None: to be read.
        self._best: tuple[float, list[Partnership]] | None = None

    # ------------------------------------------------------------------ records (the screens' queries)
    def record_of(self, ident: Identity, limit: int = 20) -> PersonRecord | None:
        """``ident``'s rating, history and statistics (by their key, never their name); None when the
        store cannot say (logged)."""
        try:
            return record_of(self.people, ident.person, ident.label, limit)
        except StoreError as exc:
            log.warning("the record of %s could not be read: %s", ident.log_text(), exc)
            return None

    def leaderboard(self, limit: int = 20, game: Game = Game.CANASTA) -> list[Standing]:
        """The top ``limit`` at ``game`` by conservative rating, with their rated matches and wins ([] if
        the store cannot say, logged)."""
        try:
            return self.people.leaderboard(limit, game)
        except StoreError as exc:
            log.warning("the leaderboard could not be read: %s", exc)
            return []

    def shown_rating(self, person: PersonId, game: Game = Game.CANASTA) -> int | None:
        """A person's shown rating at ``game`` (:func:`.people.shown_points`), kept a minute in
        memory; None if the store cannot say (logged)."""
        now = time.monotonic()
        key = str(person)          # (the store rates people by their text)
        got = self._ratings.get((key, game))
        if got is not None and now - got[1] < RATING_CACHE:
            return got[0]
        try:
            r = self.people.rating(key, game)
        except StoreError as exc:
            log.warning("a rating could not be read: %s", exc)
            return None
        points = shown_points(r.mu, r.sigma)
        self._ratings[(key, game)] = (points, now)
        return points

    # ------------------------------------------------------------------ the club's evening and partnerships
    def evening(self, day: dt.date, zone: dt.tzinfo | None = None) -> Evening | None:
        """The matches finished in the evening of ``day`` at listed tables, newest first; None when
        the store cannot say (logged)."""
        since, until = evening_bounds(day, zone)
        try:
            matches, more = self.people.club_matches(since, until, EVENING_MATCHES)
        except StoreError as exc:
            log.warning("the evening of %s could not be read: %s", day.isoformat(), exc)
            return None
        return Evening(day, tuple(matches), (), more)

    def partners(self, person: PersonId) -> list[Partnership] | None:
        """"Who do I win with": ``person``'s partners over all their matches, ranked (None: logged)."""
        try:
            return partners_of(self.people.pair_rows(str(person)))
        except StoreError as exc:
            log.warning("the partners of %s could not be read: %s", printable(str(person)), exc)
            return None

    def best_pairs(self) -> list[Partnership] | None:
        """The club's best partnerships of people with keys, at listed tables (None: logged).  Kept
        a minute in memory (:data:`BEST_CACHE`), or until this process records a match: it reads
        every listed match of the club (0.3 s for 20,000 matches on a quiet machine, seconds on a
        loaded one: ``docs/server-store.md``), and a lobby full of people pressing b reads it once."""
        now = time.monotonic()
        if self._best is not None and now - self._best[0] < BEST_CACHE:
            return self._best[1]
        try:
            got = best_pairs(self.people.pair_rows(None))
        except StoreError as exc:
            log.warning("the best partnerships could not be read: %s", exc)
            return None
        self._best = (now, got)
        return got

    def partnership(self, pair: Partnership, mine: bool) -> Partnership | None:
        """The record of ``pair`` with its best hand: all of its matches for one of its two
        (``mine``), its matches at listed tables for anybody else (None: logged)."""
        a, b = pair.entries
        try:
            rows = self.people.pair_rows(a, b, listed_only=not mine)
            best = self.people.best_hand(a, b, listed_only=not mine)
        except StoreError as exc:
            log.warning("a partnership's record could not be read: %s", exc)
            return None
        return partnership_of(rows, a, b, pair.names, best)

    # ------------------------------------------------------------------ a person's options
    def person_options(self, ident: Identity) -> PersonOptions | None:
        """The options ``ident`` keeps on this server (a person with a key; a guest keeps none)."""
        if not ident.verified:
            return None
        try:
            return self.people.options_of(ident.person)
        except StoreError as exc:
            log.warning("the options of %s could not be read: %s", ident.log_text(), exc)
            return None

    def set_person_options(self, ident: Identity, options: PersonOptions) -> Refusal | None:
        """Keep ``options`` for ``ident`` (at every table, from the next); why not, or None."""
        if not ident.verified:
            return Refusal("A guest's options are not kept: connect with your SSH key to keep them")
        try:
            self.people.set_options(ident.person, options)           # (queued: the store's thread writes it)
        except StoreError as exc:
            log.warning("the options of %s could not be kept: %s", ident.log_text(), exc)
            return Refusal("Your options could not be kept (the server's store failed): they hold until you leave")
        if isinstance(self.people, QueuedPeople) and self.people.writer.trouble:
            return Refusal(WAITS)     # (the person was told once already; each change says it again)
        return None

    # ------------------------------------------------------------------ results and ratings
    def record_result(self, st: FinishedTable, table: Table) -> None:
        """A match is over: its result (and, at a rated table, its players' new ratings) goes to the
        people store, on the recorder's thread; :attr:`results` holds what is under way."""
        # (a seat saved before people were keys is nobody's record until a key adopts it)
        persons = [PersonId.read(s.key) for s in table.seats]
        seats = [(str(p) if p is not None and not p.is_legacy else "", s.name) for p, s in zip(persons, table.seats, strict=True)]
        try:
            result = result_of(table.match, seats, game_id=st.game_id, table_id=st.id, rated=st.rated,
                               record=self.store.record_ref(st.id), level=st.level,
                               turns={k: (v[0], v[1]) for k, v in st.turns.items()},
                               left=st.forfeit_left if st.forfeited else set(), late=st.late,
                               forfeit_winner=st.forfeit_winner if st.forfeited else None, listed=st.listed)
        except ValueError:
            return
        people = self.people

        def record() -> list[RatingChange]:
            try:
                changes = people.record_match(result)
            except StoreError as exc:
                log.warning("table %d: the match was not recorded: %s", st.id, exc)
                return []
            except Exception:
                log.exception("table %d: the match was not recorded", st.id)
                return []
            self._best = None            # (the club's best is read again at its next look)
            if changes:
                log.info("table %d: ratings: %s", st.id, ", ".join(
                    f"{printable(c.after.name)} {shown_points(c.before.mu, c.before.sigma)} -> "
                    f"{shown_points(c.after.mu, c.after.sigma)}" for c in changes))
            return changes

        self.results = [f for f in self.results if not f.done()]
        self.results.append(self._recorder.submit(record))

    # ------------------------------------------------------------------ the end
    def close(self) -> None:
        """Wait for the matches being recorded (they are written first)."""
        self._recorder.shutdown(wait=True)


__all__ = ["BEST_CACHE", "RATING_CACHE", "Club", "FinishedTable"]
