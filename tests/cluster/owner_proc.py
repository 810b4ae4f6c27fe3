"""A table owner as a process of its own, for the take-over tests (``test_takeover.py``): the real
:class:`~canasta_tui.server.tables.pgstore.PostgresTableStore` and its ownership, a real
:class:`~canasta_tui.table.table.Table` of four computers played by a seed.

    python owner_proc.py DSN OWNER INTERVAL

INTERVAL > 0 watches for tables nobody owns every INTERVAL seconds (a survivor).  Commands, a line
each on stdin: ``new SEED`` (a table of computers, its number from the database), ``go N`` (N moves
at it, each saved and committed before the next), ``run`` (moves without end, each committed),
``quit``.  It says, a line each on stdout:

    ready
    table ID
    saved ID EPOCH MOVES PHASE DIGEST      (a save committed: the moves in it count)
    taken ID EPOCH MOVES PHASE DIGEST T    (a table taken over; T its time.monotonic())
    lost ID                                (a table no longer this owner's: it stops serving it)

DIGEST is the first 16 hex digits of the SHA-256 of the match's record without meta (the same
match, the same digest), MOVES the actions in it, PHASE the hand's phase.
"""

from __future__ import annotations

import hashlib
import logging
import sys
import threading
import time

from canasta_tui.engine import Match, record
from canasta_tui.presets import load_rules
from canasta_tui.server.tables.pgstore import PostgresTableStore
from canasta_tui.server.tables.store import StoredTable
from canasta_tui.table.seats import COMPUTER, Seat
from canasta_tui.table.table import Table

_out = threading.Lock()


def say(*words: object) -> None:
    with _out:
        sys.stdout.write(" ".join(str(w) for w in words) + "\n")
        sys.stdout.flush()


def digest(match: Match) -> str:
    return hashlib.sha256(record.dumps(match, {}).encode()).hexdigest()[:16]


def moves(match: Match) -> int:
    return sum(len(hand) for hand in match.log)


def described(match: Match) -> str:
    return f"{moves(match)} {match.state.phase.word.replace(' ', '-')} {digest(match)}"


def main() -> None:
    dsn, owner, interval = sys.argv[1], sys.argv[2], float(sys.argv[3])
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format=f"{owner} %(levelname)s %(message)s")
    store = PostgresTableStore(dsn, owner)
    store.on_saved = lambda table_id, epoch, match: say("saved", table_id, epoch, described(match))
    lost: set[int] = set()

    def on_lost(table_id: int, why: str) -> None:
        lost.add(table_id)
        say("lost", table_id)

    def on_taken(st: StoredTable) -> None:
        say("taken", st.id, store.ownership.held.get(st.id, 0), described(st.game.match), repr(time.monotonic()))

    store.on_lost = on_lost
    store.start()
    for st in store.load()[0]:
        on_taken(st)
    if interval > 0:
        store.watch(on_taken, interval=interval)
    say("ready")
    table: Table | None = None
    table_id = 0

    def step() -> bool:
        assert table is not None
        if table.match.winner is not None or not table.step():
            return False
        if table_id in lost:        # (the table is no longer this owner's: nothing is served or saved)
            return False
        store.save(table_id, table.match, {"seed": table.seed})
        store.flush(60)
        return True

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "new":
            table = Table(load_rules("classic"), [Seat(COMPUTER, f"C{i}", "beginner") for i in range(4)], int(words[1]))
            table_id = store.new_id()
            store.save(table_id, table.match, {"seed": table.seed})
            store.flush(60)
            say("table", table_id)
        elif words[0] == "go":
            for _ in range(int(words[1])):
                if not step():
                    break
        elif words[0] == "run":
            while step():
                pass
        elif words[0] == "quit":
            break
    store.close(60)


if __name__ == "__main__":
    main()
