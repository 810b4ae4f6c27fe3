"""Finding and loading the rule presets (TOML files in ``rules/``)."""

from __future__ import annotations

from pathlib import Path

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
