"""The lobby's model without SSH: seats, holds, the chat limit, statistics per player."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path

from canasta_tui.engine import HandRecord, TeamScore
from canasta_tui.persistence import stats
from canasta_tui.presets import load_rules
from canasta_tui.server.club.people import Invitation
from canasta_tui.server.door.auth import Identity
from canasta_tui.server.lobby.registry import ChatLimit, Registry
from canasta_tui.server.person import PersonId, Refusal, RefusalKind
from canasta_tui.server.tables.server_table import FORMING, OVER, Destination
from canasta_tui.server.tables.store import TableStore

from .helpers import config, run, words


class Person:
    """A connected person, as the tables see them (no terminal)."""

    def __init__(self, name: str) -> None:
        self.identity = Identity(name, f"SHA256:{name}")
        self.moves: list[Destination] = []
        self.kicked = ""
        self.notes: list[str] = []
        #: The notes they were sent back to the lobby with (their table gone).
        self.sent_back: list[str] = []

    def moved(self, where: Destination) -> None:
        self.moves.append(where)

    def kick(self, reason: str) -> None:
        self.kicked = reason

    def back_to_lobby(self, note: str) -> None:
        self.sent_back.append(note)

    def notify(self, text: str) -> None:
        self.notes.append(text)

    def invited(self, invitation: Invitation) -> None:
        self.notes.append(f"{invitation.from_name} invites you to table {invitation.table_id}")

    guest_code = ""
    address = ""

    def reclaim(self, code: str) -> str | None:
        return "Only a guest has a seat's code"


@asynccontextmanager
async def registry(tmp: Path, **changes: object) -> AsyncIterator[Registry]:
    store = TableStore(tmp / "tables")
    store.start()
    with ThreadPoolExecutor(2) as pool:
        reg = Registry(config(**changes), store, pool)
        try:
            yield reg
        finally:
            reg.close()
            store.close()


def test_the_chat_limit_counts_lines_per_window() -> None:
    now = [0.0]
    limit = ChatLimit(5, 10.0, clock=lambda: now[0])
    assert [limit.check("ann") for _ in range(5)] == [None] * 5
    assert limit.check("ann") == Refusal("Not so fast: 5 lines per 10 s (wait 10 s)", RefusalKind.SLOW_DOWN)
    assert limit.check("bob") is None           # per player
    now[0] = 10.0
    assert limit.check("ann") is None


def test_seats_before_the_start_and_who_starts(tmp_path: Path) -> None:
    async def main() -> None:
        async with registry(tmp_path) as reg:
            ann, bob = Person("ann"), Person("bob")
            reg.connect(ann)
            reg.connect(bob)
            st = reg.create(ann, load_rules("classic"), "beginner")
            assert st.state == FORMING and st.seat_of(PersonId.parse("key:SHA256:ann")) == 0
            assert words(reg.sit(bob, st.id, 0))[0] == "ann sits there"
            assert words(reg.sit(bob, st.id, 2)) == (None, None)
            assert words(reg.start(bob, st.id)) == "ann starts this table (they created it)"
            # The creator stands up: they still start it (issue 18: a table of computers is theirs to make
            # and watch); starting it seats the others and sends its creator to watch.
            assert reg.stand(ann, st.id) is None
            assert st.creator == PersonId.parse("key:SHA256:ann")
            assert words(reg.start(bob, st.id)) == "ann starts this table (they created it)"
            assert reg.start(ann, st.id) is None
            assert bob.moves == [Destination(st.id, 2)]
            assert ann.moves == [Destination(st.id, None)]
            assert st.table is not None and [s.kind for s in st.table.seats] == ["computer"] * 2 + ["remote", "computer"]
            # A creator who leaves the server: the next one seated starts it; the last one gone, it goes.
            third = reg.create(ann, load_rules("classic"), "beginner")
            assert words(reg.sit(bob, third.id, 1)) == (None, None)
            reg.disconnect(ann)
            assert third.creator == PersonId.parse("key:SHA256:bob") and third.id in reg.tables
            reg.connect(ann)
            other = reg.create(ann, load_rules("classic"), "beginner")
            reg.disconnect(ann)
            assert other.id not in reg.tables
    run(main())


def test_a_newer_connection_of_the_same_person_closes_the_older(tmp_path: Path) -> None:
    async def main() -> None:
        async with registry(tmp_path) as reg:
            old, new = Person("ann"), Person("ann")
            reg.connect(old)
            reg.connect(new)
            assert "connected again from another terminal" in old.kicked
            assert reg.clients[PersonId.parse("key:SHA256:ann")] is new
            reg.disconnect(old)            # the old one's goodbye does not log the new one out
            assert reg.clients[PersonId.parse("key:SHA256:ann")] is new
    run(main())


def test_a_table_nobody_is_at_waits_for_them_and_is_never_played_out_by_computers(tmp_path: Path) -> None:
    async def main() -> None:
        async with registry(tmp_path) as reg:
            ann, eve = Person("ann"), Person("eve")
            reg.connect(ann)
            st = reg.create(ann, load_rules("classic"), "beginner")
            reg.start(ann, st.id)
            assert st.table is not None
            st.enter(ann, 0)
            st.leave(ann, 0, dropped=False)          # a computer plays for her ...
            assert st.table.seats[0].kind == "computer" and st.table.seats[0].key == "key:SHA256:ann"
            assert st.held() and st.table.computer_to_act() is None       # ... once somebody is there
            moves = st.table.version
            await asyncio.sleep(0.2)
            assert st.table.version == moves
            st.watch(eve)
            assert not st.held()
            st.unwatch(eve)
            assert st.held()
    run(main())


def test_a_finished_match_is_recorded_for_each_player_who_played_it(tmp_path: Path) -> None:
    """Statistics per player: a seat remembers who played it, also when a computer finished for them."""
    async def main() -> None:
        async with registry(tmp_path) as reg:
            ann, eve = Person("ann"), Person("eve")
            reg.connect(ann)
            st = reg.create(ann, load_rules("classic").replace(target_score=1), "beginner")
            reg.start(ann, st.id)
            assert st.table is not None
            st.enter(ann, 0)
            st.leave(ann, 0, dropped=False)
            st.watch(eve)                             # somebody watches: the computers play
            for _ in range(3000):
                if st.state == OVER:
                    break
                await asyncio.sleep(0.01)
            assert st.state == OVER
            for rec in reg.recordings:
                assert await asyncio.get_running_loop().run_in_executor(None, rec.outcome, 10) is None
            st.unwatch(eve)
            reg.drop_if_over(st)
            assert st.id not in reg.tables
    run(main())
    rows = stats.win_ratios()
    assert [(r.player, r.level, r.wins + r.losses) for r in rows] == [("ann", "beginner", 1)]


def test_the_lobby_fits_80x24_and_shows_tables_seats_and_chat(tmp_path: Path) -> None:
    from canasta_tui.server.lobby.service import RegistryLobby
    from canasta_tui.ui.canvas import ASCII_OPTIONS, DEFAULT_OPTIONS
    from canasta_tui.ui.lobby import LobbyScreen

    async def main() -> tuple[str, str, str, str]:
        async with registry(tmp_path) as reg:
            people = [Person(n) for n in ("ann", "bob", "carol", "a-long-name-of-20-ch")]
            for p in people:
                reg.connect(p)
            ann, bob, carol, long_name = people
            playing = reg.create(ann, load_rules("classic"), "expert")
            reg.sit(bob, playing.id, 2)
            reg.start(ann, playing.id)
            assert playing.table is not None
            playing.enter(ann, 0)
            playing.enter(bob, 2)
            playing.leave(bob, 2, dropped=True)
            forming = reg.create(carol, load_rules("windows").replace(target_score=3000), "beginner")
            reg.sit(long_name, forming.id, 3)
            for i in range(12):
                reg.say_lobby(people[i % 4], f"line {i} " + "word " * (i * 3))
            lobby = LobbyScreen(RegistryLobby(reg, ann))
            text = lobby.paint(80, 24, DEFAULT_OPTIONS).text()
            lobby.key("down")
            second = lobby.paint(80, 24, ASCII_OPTIONS).text()
            lobby.key("n")
            form = lobby.paint(80, 24, DEFAULT_OPTIONS).text()
            small = lobby.paint(60, 20, DEFAULT_OPTIONS).text()
            lobby.unsubscribe()
            return text, second, form, small
    text, second, form, small = run(main())
    for screen in (text, second, form):
        lines = screen.split("\n")
        assert len(lines) == 24 and max(len(line) for line in lines) <= 80
    assert "ann ✓ — 4 online" in text
    assert ">   1  classic      expert    to 5,000  hand 1  1&3: 0  2&4: 0" in text
    assert "    2  windows      beginner  to 3,000  forming: 2 of 4 seated, carol starts it" in text
    assert "  1  ann✓ (you)" in text and "  2  computer" in text
    assert "  3  bob✓: away, a computer takes over soon" in text
    assert "line 11 word" in text                       # the newest chat line is shown
    assert "  4  a-long-name-of-20-ch+" in second and "  1  carol+" in second
    assert "- Table 2 -" in second                     # ASCII lines
    assert "New table" in form and "< classic >" in form
    assert "terminal too small (need 80x24)" in small


def test_every_lobby_key_is_in_its_help_and_does_what_the_table_of_keys_says(tmp_path: Path) -> None:
    """The lobby's keys are one checked table (as the table's are): the help box lists each one,
    and each key reaches its command (a key the table does not list does nothing)."""
    from canasta_tui.server.lobby.service import RegistryLobby
    from canasta_tui.ui.canvas import DEFAULT_OPTIONS
    from canasta_tui.ui.lobby import (
        ADMIN_COMMANDS,
        COMMANDS,
        LOBBY_KEYS,
        ChatLine,
        LeaveServer,
        LobbyHelp,
        LobbyScreen,
        NewTableForm,
    )

    assert set(COMMANDS) == {k.command for k in LOBBY_KEYS}

    async def main() -> None:
        async with registry(tmp_path) as reg:
            ann = Person("ann")
            reg.connect(ann)
            lobby = LobbyScreen(RegistryLobby(reg, ann))
            lobby.key("?")
            assert isinstance(lobby.child, LobbyHelp)
            text = lobby.paint(132, 43, DEFAULT_OPTIONS).text()    # (80x24 may drop the keys known already)
            for k in LOBBY_KEYS:
                if k.label and k.command not in ADMIN_COMMANDS:
                    assert f"{k.label} " in text and k.description in text, k
            assert "admins:" not in text                   # ann is no admin: the admins' keys are not hers
            lobby.key("x")                                # any key closes the help
            assert lobby.child is None
            lobby.key("n")
            assert isinstance(lobby.child, NewTableForm)
            lobby.key("escape")
            lobby.key("c")
            assert isinstance(lobby.child, ChatLine)
            lobby.key("escape")
            lobby.key("r")                                # ann has a key: no code to type
            assert lobby.child is None and "Your key is who you are here" in lobby.message
            lobby.key("Z")                                # not a lobby key: nothing happens
            assert lobby.child is None
            lobby.key("q")
            assert isinstance(lobby.child, LeaveServer)
            lobby.unsubscribe()
    run(main())


def test_each_person_s_lobby_marks_their_own_seats_on_the_rows_shared_by_everybody(tmp_path: Path) -> None:
    """The lobby's rows are built once per change for every lobby; each person's view marks their
    seats, the table they created and where they sit exactly as asking each table for them does."""
    from canasta_tui.server.lobby.service import RegistryLobby

    async def main() -> None:
        async with registry(tmp_path) as reg:
            people = [Person(n) for n in ("ann", "bob", "carol", "dave", "eve", "fay")]
            for p in people:
                reg.connect(p)
            ann, bob, carol, dave, eve, fay = people
            playing = reg.create(ann, load_rules("classic"), "expert")
            reg.sit(bob, playing.id, 2)
            reg.start(ann, playing.id)
            playing.enter(ann, 0)
            playing.enter(bob, 2)
            playing.leave(bob, 2, dropped=True)                 # bob is away
            assert words(reg.sit(carol, playing.id, 1))[0] is None     # carol takes a computer's seat at the deal
            forming = reg.create(dave, load_rules("windows"), "beginner")
            reg.sit(eve, forming.id, 3)
            before = reg.generation
            views = {p.identity.name: RegistryLobby(reg, p).view() for p in people}
            assert reg.generation == before
            for p in people:
                key = p.identity.person
                rows = views[p.identity.name].tables
                assert [r.id for r in rows] == list(reg.tables)
                for row, st in zip(rows, reg.tables.values(), strict=True):
                    assert row.seats == tuple(st.seats(key)), (p.identity.name, st.id)
                    assert row.my_seat == st.seat_of(key) and row.created_by_me == (st.creator == key)
            assert views["carol"].tables[0].seats[1].mine and not views["ann"].tables[0].seats[1].mine
            assert views["ann"].tables[0].my_seat == 0 and views["fay"].tables[0].my_seat is None
            # A change anybody makes is in the next view of everybody.
            reg.stand(eve, forming.id)
            assert reg.generation > before
            assert RegistryLobby(reg, fay).view().tables[1].seated == 1
    run(main())


def test_the_registrys_experts_share_the_workers_with_the_configured_budget(tmp_path: Path) -> None:
    async def main() -> None:
        async with registry(tmp_path, expert_budget=0.3, workers=3) as reg:
            assert (reg.thinking.workers, reg.thinking.budget, reg.thinking.least) == (3, 0.3, 0.1)
        async with registry(tmp_path, expert_budget=0.05) as reg:
            assert reg.thinking.least == 0.05      # never more than the budget itself
    asyncio.run(main())


def test_a_tables_score_reads_with_thousands_grouped_in_the_lobby_and_plain_in_the_log(tmp_path: Path) -> None:
    """The lobby's row is read by people ("1&3: 12,345"); the server's log keeps plain digits."""
    async def main() -> tuple[str, str]:
        async with registry(tmp_path) as reg:
            ann = Person("ann")
            reg.connect(ann)
            st = reg.create(ann, load_rules("classic"), "expert")
            reg.start(ann, st.id)
            assert st.table is not None
            side = TeamScore(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            rec = HandRecord(1, 3, (side, side._replace(team=1)), (12345, -1250), 0, None)
            st.table.match = st.table.match._replace(sheet=(rec,))
            return st.lobby_row().row.score, st.score_text(str)
    shown, logged = run(main())
    assert shown == "1&3: 12,345  2&4: -1,250"
    assert logged == "1&3: 12345  2&4: -1250"
