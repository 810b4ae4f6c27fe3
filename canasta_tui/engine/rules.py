"""The rule options: one immutable object, loaded from TOML presets in ``rules/``.

Every field is documented in ``rules/README.md`` with its default and the seed
document it comes from.  The engine reads only this object, never a file: the
loader below turns TOML text into it and rejects unknown or ill-typed options.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from .errors import RulesError

WildLimit = Literal["three", "naturals", "both"]
StockExhausted = Literal["forced", "end", "turn_over"]
LastRedThree = Literal["end", "meld_then_end", "play_on"]


@dataclass(frozen=True, slots=True)
class Rules:
    """All rule options of one game.  Defaults are the DOS manual's Chapter 2 (``classic``)."""

    name: str = "classic"
    players: int = 4
    partnerships: bool = True
    hand_size: int = 11
    draw_count: int = 1
    target_score: int = 5000
    # Initial meld requirement: (lowest score, points needed), highest threshold first.
    initial_meld: tuple[tuple[int, int], ...] = ((3000, 120), (1500, 90), (0, 50))
    initial_meld_negative: int = 15
    canastas_to_go_out: int = 1
    canasta_required_for_positive_score: bool = False
    wild_limit: WildLimit = "three"
    max_wilds: int = 3
    natural_canasta_bonus: int = 500
    mixed_canasta_bonus: int = 300
    wild_melds_allowed: bool = False
    wild_canasta_bonus: int = 1000
    going_out_bonus: int = 100
    concealed_bonus: int = 100
    concealed_needs_canasta: bool = True
    concealed_counts_partner_melds: bool = True
    red_three_bonus: int = 100
    red_three_all_four_bonus: int = 800
    red_three_penalty: int = 100
    red_three_all_four_penalty: int = 800
    red_three_replacement: bool = True
    red_three_discard_freezes: bool = False
    last_draw_red_three: LastRedThree = "end"
    black_three_meld_with_wild: bool = False
    turn_upcard_three: bool = True
    pile_initially_frozen: bool = False
    pile_new_meld_needs_natural_pair: bool = False
    pile_onto_completed_canasta: bool = True
    top_card_counts_for_initial_meld: bool = True
    one_card_pile_rule: bool = True
    stock_exhausted: StockExhausted = "forced"
    undo_pile_allowed: bool = False
    undo_pile_penalty: int = 50
    permission_allowed: bool = True
    permission_penalty: int = 100
    description: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        problems = []
        if self.players not in (2, 3, 4):
            problems.append("players must be 2, 3 or 4")
        if self.partnerships and self.players != 4:
            problems.append("partnerships need 4 players")
        if not 1 <= self.hand_size <= 20:
            problems.append("hand_size must be 1-20")
        if self.hand_size * self.players + 10 > 108:
            problems.append("hand_size too large for the deck")
        if self.draw_count not in (1, 2):
            problems.append("draw_count must be 1 or 2")
        if self.canastas_to_go_out not in (1, 2):
            problems.append("canastas_to_go_out must be 1 or 2")
        if self.wild_limit not in ("three", "naturals", "both"):
            problems.append("wild_limit must be three, naturals or both")
        if self.stock_exhausted not in ("forced", "end", "turn_over"):
            problems.append("stock_exhausted must be forced, end or turn_over")
        if self.last_draw_red_three not in ("end", "meld_then_end", "play_on"):
            problems.append("last_draw_red_three must be end, meld_then_end or play_on")
        if self.target_score <= 0:
            problems.append("target_score must be positive")
        if problems:
            raise RulesError(f"rules {self.name!r}: " + "; ".join(problems))

    @property
    def teams(self) -> int:
        return 2 if self.partnerships else self.players

    def requirement(self, score: int) -> int:
        """Initial meld requirement for a side whose score at the start of the hand is ``score``."""
        if score < 0:
            return self.initial_meld_negative
        for lowest, needed in self.initial_meld:
            if score >= lowest:
                return needed
        return self.initial_meld[-1][1]

    def wilds_allowed(self, naturals: int) -> int:
        """How many wild cards a meld with this many naturals may hold."""
        if self.wild_limit == "three":
            return self.max_wilds
        if self.wild_limit == "naturals":
            return naturals
        return min(self.max_wilds, naturals)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = [list(p) for p in v] if f.name == "initial_meld" else v
        return out

    def replace(self, **changes: Any) -> Rules:
        return rules_from_dict(self.to_dict() | changes)


_FIELD_TYPES = {f.name: f.type for f in fields(Rules)}


def rules_from_dict(data: dict[str, Any], base: Rules | None = None) -> Rules:
    """Build Rules from a mapping (a TOML table or a save file's ``rules``), checking every option."""
    values = (base or Rules()).to_dict()
    for key, value in data.items():
        if key not in _FIELD_TYPES:
            raise RulesError(f"unknown rule option {key!r}")
        current = values[key]
        if key == "initial_meld":
            try:
                value = [(int(a), int(b)) for a, b in value]
            except (TypeError, ValueError):
                raise RulesError("initial_meld must be a list of [lowest score, points] pairs") from None
        elif isinstance(current, bool):
            if not isinstance(value, bool):
                raise RulesError(f"rule option {key!r} must be true or false, not {value!r}")
        elif isinstance(current, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(f"rule option {key!r} must be a whole number, not {value!r}")
        elif isinstance(current, str) and not isinstance(value, str):
            raise RulesError(f"rule option {key!r} must be text, not {value!r}")
        values[key] = value
    values["initial_meld"] = tuple(sorted((tuple(p) for p in values["initial_meld"]), reverse=True))
    return Rules(**values)


def rules_from_toml(text: str, base: Rules | None = None) -> Rules:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"not valid TOML: {exc}") from None
    table = data.get("rules", data)
    if not isinstance(table, dict):
        raise RulesError("the [rules] table is missing")
    return rules_from_dict(table, base)


CLASSIC = Rules()
__all__ = ["CLASSIC", "Rules", "dataclasses", "rules_from_dict", "rules_from_toml"]
