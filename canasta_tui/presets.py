"""Finding and loading the rule presets (TOML files in ``rules/``)."""

from __future__ import annotations

import re
from functools import cache, lru_cache
from pathlib import Path
from typing import NamedTuple

from .engine.errors import RulesError
from .engine.rules import Rules, rules_from_toml
from .persistence.safe_io import Unreadable, read_regular

#: A rules file is a page of options; anything bigger is not one (and is not read into memory).
MAX_RULES_BYTES = 1024 * 1024


def rules_dir() -> Path:
    """The presets: packaged with the wheel, or the source tree's ``rules/``."""
    packaged = Path(__file__).parent / "_rules"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "rules"


def preset_names() -> list[str]:
    return sorted(p.stem for p in rules_dir().glob("*.toml"))


def load_rules(name_or_path: str = "classic") -> Rules:
    """A preset by name (``classic``, ``windows`` ...) or a TOML file by path."""
    path = Path(name_or_path)
    if not (path.suffix == ".toml" or path.exists()):
        path = rules_dir() / f"{name_or_path}.toml"
        if not path.exists():
            raise RulesError(f"no rules preset {name_or_path!r}; choose one of: {', '.join(preset_names())}, "
                             "or give a .toml file")
    try:
        text = read_regular(path, "a rules file", MAX_RULES_BYTES).decode("utf-8")
    except Unreadable as exc:
        raise RulesError(f"cannot read rules file {path}: {exc.reason}") from None
    except UnicodeDecodeError as exc:
        raise RulesError(f"{path}: not a rules file: not UTF-8 text (byte {exc.start})") from None
    try:
        return rules_from_toml(text)
    except RulesError as exc:
        raise RulesError(f"{path}: {exc}") from None


@cache
def preset(name: str) -> Rules | None:
    """The preset called ``name`` (None if there is none, or it cannot be read)."""
    if name not in preset_names():
        return None
    try:
        return load_rules(name)
    except RulesError:
        return None


def changes_from_preset(rules: Rules) -> list[str] | None:
    """The options of ``rules`` that differ from the preset it is named after (None: no such preset)."""
    base = preset(rules.name)
    if base is None:
        return None
    mine, theirs = rules.to_dict(), base.to_dict()
    return [k for k in mine if k not in ("name", "description") and mine[k] != theirs[k]]


@lru_cache(maxsize=64)
def rules_label(rules: Rules) -> str:
    """The rules in play as the table's header says them: ``classic``, or ``classic + 2 changes``
    when options differ from that preset, never a preset's name alone for rules that differ from it.
    (Kept: the header asks at every paint of every terminal.)"""
    changed = changes_from_preset(rules)
    if not changed:
        return rules.name
    return f"{rules.name} + {len(changed)} change" + ("s" if len(changed) != 1 else "")


class OptionHelp(NamedTuple):
    """One rule option as ``rules/README.md`` explains it: its values and what it does."""

    values: str
    meaning: str


_CELL_MARKS = re.compile(r"`([^`]*)`|\*\*([^*]*)\*\*")


@cache
def option_help() -> dict[str, OptionHelp]:
    """Every option of the README's table (``| `option` | default | values | what it does | seed |``)."""
    try:
        text = (rules_dir() / "README.md").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    out = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0].startswith("`") and cells[0].endswith("`"):
            def plain(t: str) -> str:
                return _CELL_MARKS.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(2), t)
            out[cells[0].strip("`")] = OptionHelp(plain(cells[2]), plain(cells[3]))
    return out
