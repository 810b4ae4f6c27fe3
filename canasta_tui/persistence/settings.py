"""Settings that stick: a TOML file in the XDG config directory.

::

    # ~/.config/canasta/settings.toml
    rules = "windows"          # a preset name or a .toml file
    level = "expert"
    aggression = 50
    name = "Ann"
    names = ["", "", "", "Bob"]  # every seat's name, Player 1 first (name wins for Player 1)

    [rule_options]             # optional: change single rule options of the preset
    target_score = 3000

Command-line options override a setting for one run; ``canasta config set KEY VALUE``
changes the file.  A file that cannot be read is reported (what and where) and left
alone: the defaults are used for that run and ``config set`` refuses to overwrite it.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from ..text import BadName, check_name, printable
from . import paths
from .safe_io import Unreadable, read_regular
from .saves import SaveError, atomic_write_text

#: Sections of the file read by others (``canasta serve``), not settings of the game.
SECTIONS = ("serve",)

#: A settings file is a few lines; anything bigger is not one (and is not read into memory).
MAX_SETTINGS_BYTES = 1024 * 1024

LEVELS = ("beginner", "advanced", "expert")
CHOICES: dict[str, tuple[str, ...]] = {
    "level": LEVELS,
    "color": ("auto", "always", "never"),
    "deck": ("unicode", "ascii"),
    "sort": ("rank", "suit"),
}
RANGES: dict[str, tuple[int, int]] = {"aggression": (0, 100), "delay": (0, 10000)}
HELP: dict[str, str] = {
    "rules": "rules preset (canasta rules lists them) or a .toml file",
    "level": "computer level: beginner, advanced or expert",
    "aggression": "expert computers' chance of playing aggressively in a hand, 0-100 %",
    "delay": "pause after each computer play, in milliseconds (0-10000)",
    "color": "colours: auto (off when NO_COLOR is set), always (on even then), never",
    "four_color": "four-colour deck: clubs green, diamonds blue",
    "deck": "card faces: unicode suit symbols or ascii letters",
    "sort": "order of the cards in your hand: rank (A, 3 ... K, wild cards) or suit (then rank; wild cards last)",
    "name": "your name (player profile and statistics), up to 20 characters",
    "names": "the human players' names by seat, Player 1 first, comma-separated (name wins for Player 1)",
    "mouse": "mouse clicks on (sends every movement over SSH)",
    "bell_turn": "terminal bell when your turn comes after a computer's",
    "bell_question": "terminal bell when your partner asks \"May I go out?\"",
    "bell_hand_over": "terminal bell when a hand ends",
    "review": "after each hand, a review of your decisions by the Expert (what each choice cost)",
    "auto_wild": "melding two natural cards of a rank adds a wild card from your hand (a deuce before a joker)",
    "right_click_discard": "with the mouse on, a right-click on a card of your hand discards it",
    "first_game_offered": "the start menu has offered the guided first game (it offers it once)",
    "rule_options": "single rule options over the preset (a TOML table; see canasta rules)",
}


class SettingsError(ValueError):
    """A setting that cannot be used; says which and why."""


@dataclass
class Settings:
    rules: str = "classic"
    level: str = "advanced"
    aggression: int = 50
    delay: int = 400
    color: str = "auto"
    four_color: bool = False
    deck: str = "unicode"
    sort: str = "rank"
    name: str = ""
    names: list[str] = field(default_factory=list)
    mouse: bool = False
    bell_turn: bool = True
    bell_question: bool = True
    bell_hand_over: bool = True
    review: bool = False
    auto_wild: bool = False
    right_click_discard: bool = False
    first_game_offered: bool = False
    rule_options: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


KEYS = tuple(f.name for f in fields(Settings))
_DEFAULTS = Settings()


def shown(value: Any) -> str:
    """A value as a message quotes it: short, and never the raw text (it may be huge, nested, or hold
    escape sequences)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:40])[:-1] + "...'"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return f"a {type(value).__name__}"


def _no_control(what: str, text: str) -> None:
    if printable(text) != text:
        raise SettingsError(f"{what} may not hold control characters ({printable(text)})")


def check(key: str, value: Any) -> Any:
    """The value if ``key`` may take it, else SettingsError saying what is allowed."""
    if key not in KEYS:
        raise SettingsError(f"unknown setting {printable(key)!r}; the settings are: {', '.join(KEYS)}")
    default = getattr(_DEFAULTS, key)
    if key == "name":
        try:
            return check_name(value)
        except BadName as exc:
            raise SettingsError(f"name: {exc}") from None
    if key == "names":
        return _check_names(value)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise SettingsError(f"{key} must be true or false, not {shown(value)}")
    elif isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise SettingsError(f"{key} must be a whole number, not {shown(value)}")
        lo, hi = RANGES[key]
        if not lo <= value <= hi:
            raise SettingsError(f"{key} must be from {lo} to {hi}, not {value}")
    elif isinstance(default, str):
        if not isinstance(value, str):
            raise SettingsError(f"{key} must be text, not {shown(value)}")
        _no_control(key, value)
        if key in CHOICES and value not in CHOICES[key]:
            raise SettingsError(f"{key} must be one of {', '.join(CHOICES[key])}, not {shown(value)}")
        if key == "rules" and not value.strip():
            raise SettingsError("rules must name a preset or a .toml file")
    elif isinstance(default, dict):
        if not isinstance(value, dict):
            raise SettingsError(f"{key} must be a table, not {shown(value)}")
        from ..engine import RulesError

        try:
            for option, v in value.items():
                if isinstance(v, str):
                    _no_control(option, v)
            _rule_options_fit_a_preset(value)
        except SettingsError as exc:
            raise SettingsError(f"{key}: {exc}") from None
        except (RulesError, TypeError, ValueError) as exc:
            raise SettingsError(f"{key}: {printable(str(exc))}") from None
        except RecursionError:
            raise SettingsError(f"{key}: a value is nested too deeply") from None
    return value


#: Seats at the table: ``names`` holds at most one name per seat.
SEATS = 4


def _check_names(value: Any) -> list[str]:
    if not isinstance(value, list):
        raise SettingsError(f"names must be a list of names, not {shown(value)}")
    if len(value) > SEATS:
        raise SettingsError(f"names may list at most {SEATS} names (one per seat), not {len(value)}")
    out = []
    for i, n in enumerate(value):
        try:
            out.append(check_name(n))
        except BadName as exc:
            raise SettingsError(f"names: Player {i + 1}: {exc}") from None
    return out


def seat_names(s: Settings) -> list[str]:
    """The name of each seat ("" where none is set): ``names``, with ``name`` for Player 1."""
    out = (list(s.names) + [""] * SEATS)[:SEATS]
    if s.name:
        out[0] = s.name
    return out


def _rule_options_fit_a_preset(options: dict[str, Any]) -> None:
    """RulesError unless ``options`` make good rules over classic or another preset.

    The options change the preset of the ``rules`` setting, which this check does not see:
    ``players = 3`` is wrong over classic (partnerships need four players) and right over
    three-player.  Unknown options, wrong types and values out of bounds fail over every
    preset; the error said is classic's.
    """
    from ..engine import RulesError, rules_from_dict
    from ..presets import preset, preset_names

    try:
        rules_from_dict(options)
        return
    except RulesError as first:
        problem = first
    for name in preset_names():
        base = preset(name)
        if base is None:
            continue
        try:
            rules_from_dict(options, base)
            return
        except RulesError:
            continue
    raise problem


def parse_value(key: str, text: str) -> Any:
    """``canasta config set KEY VALUE``: the text as the setting's type."""
    if key not in KEYS:
        check(key, None)
    default = getattr(_DEFAULTS, key)
    if isinstance(default, bool):
        words = {"true": True, "yes": True, "on": True, "1": True, "false": False, "no": False, "off": False, "0": False}
        if text.lower() not in words:
            raise SettingsError(f"{key} must be true or false, not {shown(text)}")
        return check(key, words[text.lower()])
    if isinstance(default, int):
        try:
            number = int(text)
        except ValueError:
            raise SettingsError(f"{key} must be a whole number, not {shown(text)}") from None
        return check(key, number)
    if isinstance(default, list):
        return check(key, [n.strip() for n in text.split(",")] if text.strip() else [])
    if isinstance(default, dict):
        try:
            table = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise SettingsError(f"{key} must be TOML like 'target_score = 3000': {exc}") from None
        except RecursionError:
            raise SettingsError(f"{key}: a value is nested too deeply") from None
        return check(key, table)
    return check(key, text)


@dataclass
class Loaded:
    settings: Settings
    path: Path
    exists: bool
    from_file: set[str]
    problem: str | None = None   # the file could not be used: what and where
    #: Sections of the file that are not the game's (``[serve]``: ``canasta serve`` reads and checks
    #: it), kept as they are when a setting is changed.
    sections: dict[str, Any] = field(default_factory=dict)


def load_settings(path: Path | None = None) -> Loaded:
    """The settings file, checked; never raises: a bad file gives the defaults and a ``problem``."""
    path = path or paths.settings_path()
    try:
        text = read_regular(path, "a settings file", MAX_SETTINGS_BYTES).decode("utf-8")
    except Unreadable as exc:
        if exc.missing:
            return Loaded(Settings(), path, False, set())
        return Loaded(Settings(), path, True, set(), f"{path}: {exc.reason}; using the defaults")
    except UnicodeDecodeError as exc:
        return Loaded(Settings(), path, True, set(),
                      f"{path}: not a settings file: not UTF-8 text (byte {exc.start}); using the defaults")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return Loaded(Settings(), path, True, set(), f"{path}: not valid TOML ({exc}); using the defaults")
    except RecursionError:
        return Loaded(Settings(), path, True, set(), f"{path}: not valid TOML (nested too deeply); using the defaults")
    values = {}
    problems = []
    sections = {k: data[k] for k in SECTIONS if k in data}
    for key, value in data.items():
        if key in SECTIONS:
            continue
        try:
            values[key] = check(key, value)
        except SettingsError as exc:
            problems.append(str(exc))
    loaded = Loaded(Settings(**values), path, True, set(values), sections=sections)
    if problems:
        loaded.problem = f"{path}: " + "; ".join(problems) + " (the default is used instead)"
    return loaded


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float) and v == v and abs(v) != float("inf"):
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise SettingsError(f"cannot write {v!r} to TOML")


def dumps(values: dict[str, Any]) -> str:
    lines = ["# canasta settings: `canasta config` shows them, `canasta config set KEY VALUE` changes them."]
    tables = {k: v for k, v in values.items() if isinstance(v, dict)}
    for k, v in values.items():
        if not isinstance(v, dict):
            lines.append(f"{k} = {_toml_value(v)}")
    for k, table in tables.items():
        if table:
            lines.append(f"\n[{k}]")
            lines.extend(f"{kk} = {_toml_value(vv)}" for kk, vv in table.items())
    return "\n".join(lines) + "\n"


def set_value(key: str, text: str, path: Path | None = None) -> Path:
    """Change one setting in the file (atomically); a broken file is never overwritten."""
    return put_value(key, parse_value(key, text), path)


def put_value(key: str, value: Any, path: Path | None = None) -> Path:
    """Change one setting to ``value`` (checked) in the file, atomically: the options screen's save.
    A broken file is never overwritten."""
    loaded = load_settings(path)
    if loaded.problem:
        raise SettingsError(f"{loaded.problem}; not changing it: fix or remove the file first")
    value = check(key, value)
    current = {k: getattr(loaded.settings, k) for k in loaded.from_file}
    current[key] = value
    current.update(loaded.sections)
    try:
        atomic_write_text(loaded.path, dumps(current))
    except SaveError as exc:
        raise SettingsError(str(exc)) from None
    return loaded.path


def unset_value(key: str, path: Path | None = None) -> Path:
    check(key, getattr(_DEFAULTS, key, None))
    loaded = load_settings(path)
    if loaded.problem:
        raise SettingsError(f"{loaded.problem}; not changing it: fix or remove the file first")
    current = {k: getattr(loaded.settings, k) for k in loaded.from_file if k != key}
    current.update(loaded.sections)
    try:
        atomic_write_text(loaded.path, dumps(current))
    except SaveError as exc:
        raise SettingsError(str(exc)) from None
    return loaded.path


__all__ = ["CHOICES", "HELP", "KEYS", "LEVELS", "SEATS", "Loaded", "Settings", "SettingsError", "check", "dumps",
           "load_settings", "parse_value", "put_value", "seat_names", "set_value", "shown", "unset_value"]
