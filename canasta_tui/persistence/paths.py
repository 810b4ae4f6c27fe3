"""Where canasta keeps its files: the XDG directories, or ``$CANASTA_HOME`` for everything.

=============  ==============================  =====================================
what           default (Linux)                 with ``CANASTA_HOME=/h``
=============  ==============================  =====================================
autosave       ~/.local/state/canasta/         /h/state/autosave.json
named saves    ~/.local/share/canasta/saves/   /h/data/saves/NAME.json
statistics     ~/.local/share/canasta/         /h/data/canasta.db
settings       ~/.config/canasta/              /h/config/settings.toml
=============  ==============================  =====================================

platformdirs honours ``XDG_STATE_HOME``, ``XDG_DATA_HOME`` and ``XDG_CONFIG_HOME``.
Nothing here creates a directory: writers do that when they first write.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "canasta"
HOME_ENV = "CANASTA_HOME"


def _home() -> Path | None:
    value = os.environ.get(HOME_ENV)
    return Path(value).expanduser() if value else None


def state_dir() -> Path:
    """Autosave and its backups: state that matters but is not the user's own document."""
    home = _home()
    return home / "state" if home else Path(platformdirs.user_state_dir(APP, appauthor=False))


def config_dir() -> Path:
    home = _home()
    return home / "config" if home else Path(platformdirs.user_config_dir(APP, appauthor=False))


def data_dir() -> Path:
    home = _home()
    return home / "data" if home else Path(platformdirs.user_data_dir(APP, appauthor=False))


def autosave_path(slot: int = 1) -> Path:
    """The autosave; slot 2, 3 ... are the games started while another one runs (``autosave-2.json``)."""
    return state_dir() / ("autosave.json" if slot == 1 else f"autosave-{slot}.json")


def saves_dir() -> Path:
    return data_dir() / "saves"


def settings_path() -> Path:
    return config_dir() / "settings.toml"


def stats_path() -> Path:
    return data_dir() / "canasta.db"


def server_dir() -> Path:
    """``canasta serve``'s files: its SSH host key and its tables (``tables/N.json``)."""
    return data_dir() / "server"


def all_paths() -> dict[str, Path]:
    """Every file and directory, by what it holds (``canasta config`` prints this)."""
    return {
        "settings": settings_path(),
        "autosave": autosave_path(),
        "saves": saves_dir(),
        "statistics": stats_path(),
        "server": server_dir(),
    }


__all__ = ["HOME_ENV", "all_paths", "autosave_path", "config_dir", "data_dir", "saves_dir", "server_dir",
           "settings_path", "state_dir", "stats_path"]
