"""A table played at this terminal and what keeps it: the autosave after every move, the exit
savers, the statistics when its match ends, and the files its F3 and F4 reach."""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

from ..engine import player_name
from ..persistence import paths, stats
from ..persistence.recording import StatsRecording
from ..persistence.saves import (
    Autosaver,
    SaveError,
    SaveInfo,
    attach_autosave,
    install_exit_savers,
    keep_copy,
    list_saves,
    load_file,
    save_named,
    table_meta,
)
from ..table import Change, Table
from ..text import printable
from .seats import seats_of_save


@dataclass(frozen=True, eq=False)
class LocalTable:
    """A table played here, with its autosaver and the recording of its result in the statistics.

    Whoever starts the table (``canasta``'s command line, the start menu's
    :class:`~canasta_tui.play.home.LocalHome`) keeps this object and, after play, asks it
    whether the result was recorded (:meth:`statistics_outcome`)."""

    table: Table
    saver: Autosaver
    recording: StatsRecording

    def files(self) -> TableFiles:
        """What the table's F3, F4 and autosave notice reach."""
        return TableFiles(self.table, self.saver)

    def statistics_outcome(self, timeout: float = stats.RECORD_TIMEOUT + 5) -> str | None:
        """After play: wait for the end-of-match statistics and return why they were not
        recorded (once, one line), or None (recorded, or nothing to record)."""
        return self.recording.outcome(timeout)


def attach(table: Table, game_id: str, path: Path | None = None, *, exit_savers: bool = True) -> LocalTable:
    """Autosave after every move and deal, save on SIGHUP/SIGTERM/SIGINT, record the result at the end.

    ``exit_savers`` False: the caller's exit saver saves this table (a table started while the
    app runs: a signal handler installed then would run inside the event loop)."""
    def meta() -> dict[str, object]:
        return table_meta(table) | {"game_id": table.game_id or game_id}

    table.game_id = game_id
    saver = attach_autosave(table, meta, path=path, on_error=lambda msg: None)
    if exit_savers:
        install_exit_savers(lambda: saver.save(table.match))
    recording = StatsRecording()
    recorded: list[bool] = []

    def on_event(t: Table, change: Change) -> None:
        if recorded or t.match.winner is None:
            return
        recorded.append(True)
        # The first unnamed human is the person at the terminal (their login name); another unnamed
        # human in hot-seat is "Player N", so that two people are never recorded as one.
        first = min((i for i, seat in enumerate(t.seats) if seat.human), default=-1)
        humans = {i: seat.name or ((os.environ.get("USER") or "Player") if i == first else player_name(i))
                  for i, seat in enumerate(t.seats) if seat.human}
        levels = {seat.level for seat in t.seats if not seat.human}
        level = "hot-seat" if not levels else "/".join(sorted(levels))
        if humans:
            recording.start(t.match, humans, level, t.game_id or game_id)

    table.add_observer(on_event)
    return LocalTable(table, saver, recording)


class TableFiles:
    """What the table's F3, F4 and autosave notice need from the files (see ``ui.controller.Files``)."""

    def __init__(self, table: Table, saver: Autosaver | None = None) -> None:
        self.table = table
        self.saver = saver

    def default_name(self) -> str:
        t = self.table
        humans = t.humans
        return str(t.name(humans[0]) if humans else "game")

    def where(self) -> str:
        return str(paths.saves_dir())

    def save(self, name: str) -> tuple[bool, str]:
        meta = table_meta(self.table) | {"game_id": self.table.game_id}
        try:
            path = save_named(self.table.match, meta, name)
        except SaveError as exc:
            return False, str(exc)
        return True, str(path)

    def saved_games(self) -> list[SaveInfo]:
        return list_saves()

    def load(self, path: str) -> tuple[str | None, list[str]]:
        """Play on from a saved game at this table: (why it was not loaded, or None; notices)."""
        try:
            game = load_file(path)
        except SaveError as exc:
            return str(exc), []
        if game.match.winner is not None:
            return f"{printable(path)}: the match in this file is already over", []
        table = self.table
        seats, notices = seats_of_save(game, table.seats)
        # The game being played is replaced in the autosave: keep it, as --load and --new keep theirs.
        current = table.match
        kept: Path | None = None
        if self.saver is not None and current.winner is None and any(current.log) and game.path != self.saver.path:
            try:
                kept = keep_copy(current, self.saver.meta())
            except SaveError as exc:
                return f"{printable(path)} was not loaded, because the game being played could not be kept: {exc}", []
            notices = [f"The game you were playing is saved as {kept.stem} (F3 lists it).", *notices]
        gid = game.meta.get("game_id")
        try:   # checks everything before it replaces anything: on failure the game goes on as it was
            table.replace_match(game.match, seats, game_id=gid if isinstance(gid, str) and gid else table.game_id)
        except ValueError as exc:
            if kept is not None:
                with contextlib.suppress(OSError):
                    kept.unlink()
            return f"{printable(path)}: {exc}", []
        return None, notices

    def notices(self) -> list[str]:
        """What the player should read as the table opens (another game running, a file set aside)."""
        return list(self.saver.notices) if self.saver is not None else []

    def autosaved(self) -> str | None:
        """Where the game is autosaved (said when the player quits), or None without an autosave."""
        return str(self.saver.path) if self.saver is not None else None

    def problem(self) -> str | None:
        """The autosave's failure as the table shows it, or None while it works."""
        f = self.saver.failure if self.saver is not None else None
        if f is None:
            return None
        return f"Autosave failed: {f.reason} ({f.path}); F4 saves elsewhere"


__all__ = ["LocalTable", "TableFiles", "attach"]
