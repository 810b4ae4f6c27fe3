"""The start menu's games at this terminal: new, resumed, loaded and replayed tables, the settings
the options screens change, and the statistics screen's figures.

:class:`LocalHome` is the start menu's :class:`~canasta_tui.ui.menu.Home`: each table it
starts autosaves to the one autosave this process holds and records its result when the
match ends, as ``canasta`` does for the table it starts from the command line.  One exit
saver, installed before the app runs, saves whichever table is being played.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import click

from ..engine import Rules, RulesError
from ..persistence import paths
from ..persistence import settings as settings_mod
from ..persistence.lock import claim_autosave
from ..persistence.saves import (
    LoadedGame,
    SaveError,
    SaveInfo,
    backup_autosave,
    find_autosave,
    install_exit_savers,
    list_saves,
    load_file,
)
from ..persistence.stores import SettingsFile, StatsFile
from ..presets import load_rules
from ..table import Table, seats_for
from ..text import points, printable
from .local import LocalTable, TableFiles, attach
from .seats import saved_seats, seating


class LocalHome:
    """The start menu's games at this terminal, from the settings and the command line.

    ``level``, ``name`` and ``rules`` given on the command line count for this run's new
    games until the options screens change that setting.  :attr:`played` are the tables
    started here, in order, each with its autosaver and statistics recording.
    """

    def __init__(self, *, level: str | None = None, name: str | None = None, rules: Rules | None = None,
                 seed: int | None = None) -> None:
        try:
            self.autosave, notices = claim_autosave()
        except RuntimeError as exc:
            raise click.ClickException(str(exc)) from None
        self._notices = list(notices)
        self._told: set[str] = set()
        # What the command line gave, until the options screens change that setting.
        self._level = level
        self._name = name
        self._rules = rules
        self.seed = seed
        self.settings = SettingsFile(on_save=self._saved)
        self.stats = StatsFile()
        self.played: list[LocalTable] = []
        self.current: LocalTable | None = None     # the table being played
        self._found: tuple[LoadedGame | None] | None = None
        self._restore = install_exit_savers(self._save_current)

    def close(self) -> None:
        """Put back the signal handlers this home replaced (the program is done playing)."""
        self._restore()

    # ------------------------------------------------------------------ the table being played
    def _save_current(self) -> object:
        return self.current.saver.save_last() if self.current is not None else False

    def adopt(self, local: LocalTable) -> None:
        """The table the command line started: this home's exit saver saves it from now on."""
        self.played.append(local)
        self.current = local
        self._found = None           # the autosave is this table's now

    def _started(self, table: Table, game_id: str, notices: Sequence[str]) -> tuple[Table, TableFiles]:
        local = attach(table, game_id, self.autosave, exit_savers=False)
        local.saver.notices[:0] = list(notices)
        self.adopt(local)
        return table, local.files()

    def _saved(self, key: str, value: object) -> None:
        """A setting changed on the options screens: the command line no longer overrides it."""
        if key == "level":
            self._level = None
        elif key == "name":
            self._name = None
        elif key in ("rules", "rule_options"):
            self._rules = None

    # ------------------------------------------------------------------ what new games are
    def _settings(self) -> settings_mod.Settings:
        return settings_mod.load_settings().settings

    def rules(self) -> Rules:
        """The rules of a new game: the command line's, or the settings' preset and rule options."""
        if self._rules is not None:
            return self._rules
        s = self._settings()
        try:
            base = load_rules(s.rules)
        except RulesError as exc:
            self._tell(f"The rules in the settings cannot be used ({printable(str(exc))}); new games play classic.")
            base = load_rules("classic")
        if not s.rule_options:
            return base
        try:
            return base.replace(**s.rule_options)
        except RulesError as exc:
            self._tell(f"The rule options in the settings do not fit {base.name} ({printable(str(exc))}); "
                       f"new games play {base.name} as it is.")
            return base

    def level(self) -> str:
        return self._level or self._settings().level

    def names(self) -> list[str]:
        names = settings_mod.seat_names(self._settings())
        if self._name:
            names[0] = self._name
        return names

    # ------------------------------------------------------------------ the menu's choices
    def _tell(self, notice: str) -> None:
        """A notice for the menu, once (the rules are read again and again)."""
        if notice not in self._notices and notice not in self._told:
            self._notices.append(notice)

    def notices(self) -> list[str]:
        out, self._notices = self._notices, []
        self._told.update(out)
        return out

    def _unfinished(self) -> LoadedGame | None:
        if self._found is None:
            found = find_autosave(self.autosave)
            self._notices += found.notices
            self._found = (found.game,)
        return self._found[0]

    def unfinished(self) -> str | None:
        game = self._unfinished()
        if game is None:
            return None
        m = game.match
        return f"hand {m.hand_number}, {' to '.join(points(s) for s in m.scores)}"

    def _keep_unfinished(self, loading: Path | None = None) -> tuple[list[str], str | None]:
        """A new game replaces the autosave: an unfinished game there is kept as a backup first
        (as ``--new`` keeps it).  Returns (notices, why the new game cannot start)."""
        game = self._unfinished()
        if game is None:
            return [], None
        if loading is not None:
            try:
                if loading.resolve() == self.autosave.resolve():
                    return [], None
            except OSError:
                pass
        try:
            kept = backup_autosave(self.autosave)
        except SaveError as exc:
            return [], f"{exc}; the unfinished game is not replaced"
        self._found = None
        if kept is None:
            return [], None
        return [f"The unfinished game was kept as {kept} (Load in the start menu lists it)."], None

    def new(self, humans: int) -> tuple[Table, TableFiles] | str:
        rules = self.rules()
        notices, why = self._keep_unfinished()
        if why is not None:
            return why
        aggression = self._settings().aggression
        table = Table(rules, seating(humans, rules, self.level(), self.names()), self.seed, aggression=aggression)
        self.seed = None             # a seed given on the command line deals the first game only
        return self._started(table, f"{time.strftime('%Y%m%dT%H%M%S')}-{table.seed}", notices)

    def _table_of(self, game: LoadedGame, notices: list[str]) -> tuple[Table, TableFiles]:
        seats, seat_notices = saved_seats(game, seats_for(1, self.level(), self.names()[0]), "the settings")
        table = Table(game.match.rules, seats, None, match=game.match, aggression=self._settings().aggression)
        gid = game.meta.get("game_id")
        game_id = gid if isinstance(gid, str) and gid else f"{time.time():.0f}-{table.seed}"
        return self._started(table, game_id, notices + seat_notices)

    def first_game(self) -> tuple[Table, None]:
        """The guided first game: a table of its own, never saved and never in the statistics (the
        unfinished game in the autosave stays as it is)."""
        from ..ui.tutorial import first_game_table

        return first_game_table(self.names()[0]), None

    def offer_first_game(self) -> bool:
        """True the first time it is asked, ever: the start menu offers the first game then.  Kept in
        the settings (``first_game_offered``); a settings file that cannot be written offers it again."""
        if self._settings().first_game_offered:
            return False
        self.settings.save("first_game_offered", True)
        return True

    def resume(self) -> tuple[Table, TableFiles] | str:
        game = self._unfinished()
        if game is None:
            return "There is no unfinished game to resume"
        return self._table_of(game, [])

    def saved_games(self) -> list[SaveInfo]:
        """The named saves, and the unfinished games kept as backups of the autosave, newest first."""
        backups = [s for s in list_saves(paths.state_dir()) if ".backup-" in s.path.name]
        return sorted(list_saves() + backups, key=lambda s: s.modified, reverse=True)

    def load(self, path: str) -> tuple[Table, TableFiles] | str:
        try:
            game = load_file(path)
        except SaveError as exc:
            return f"Not loaded: {printable(str(exc))}"
        m = game.match
        if m.winner is not None:
            return f"Not loaded: the match in {printable(str(game.path))} is over ({' to '.join(map(points, m.scores))})"
        notices, why = self._keep_unfinished(game.path)
        if why is not None:
            return why
        return self._table_of(game, notices)

    def again(self, table: Table) -> tuple[Table, TableFiles] | str:
        """Play again: the same seats and rules, a new match (Canasta for Windows 2.41's Game | New)."""
        seats = tuple(s for s in table.seats)
        new = Table(table.rules, seats, None, aggression=self._settings().aggression)
        return self._started(new, f"{time.strftime('%Y%m%dT%H%M%S')}-{new.seed}", [])

    def files(self) -> list[tuple[str, str]]:
        """Where every file lives (the About page)."""
        return [(what, str(where)) for what, where in paths.all_paths().items()]


__all__ = ["LocalHome"]
