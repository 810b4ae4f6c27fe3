"""Persistence: saves and the autosave, settings, player statistics, in the XDG directories.

Nothing here is needed to play; everything here is needed to keep playing for years.
Only the files are here: what starts a game from them is :mod:`canasta_tui.play` (and the
server's tables, :mod:`canasta_tui.server`); ``canasta config`` and ``canasta stats`` are
``canasta_tui/files_cmd.py``.  This package imports neither the UI nor click
(``tests/test_import_rules.py``).
"""

from . import paths
from .saves import (
    Autosaver,
    LoadedGame,
    Resume,
    SaveError,
    SaveInfo,
    atomic_write_text,
    attach_autosave,
    backup_autosave,
    exit_savers,
    find_autosave,
    install_exit_savers,
    list_saves,
    load_file,
    save_named,
    write_save,
)

__all__ = [
    "Autosaver",
    "LoadedGame",
    "Resume",
    "SaveError",
    "SaveInfo",
    "atomic_write_text",
    "attach_autosave",
    "backup_autosave",
    "exit_savers",
    "find_autosave",
    "install_exit_savers",
    "list_saves",
    "load_file",
    "paths",
    "save_named",
    "write_save",
]
