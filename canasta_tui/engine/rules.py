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
StockExhausted = Literal["forced", "end", "turn_over", "top_card"]
LastRedThree = Literal["end", "meld_then_end", "play_on"]


#: Bounds of the numeric options, so that no score can come near a 64-bit integer's range
#: (a hand scores at most a few hundred thousand points with every bonus at its cap).
MAX_POINTS = 10_000
MAX_TARGET = 1_000_000
_BOUNDS: tuple[tuple[str, int, int], ...] = (
    ("target_score", 1, MAX_TARGET),
    ("initial_meld_negative", 0, MAX_POINTS),
    ("max_wilds", 0, 12),          # the deck holds 8 deuces and 4 jokers
    *((name, 0, MAX_POINTS) for name in (
        "natural_canasta_bonus", "mixed_canasta_bonus", "wild_canasta_bonus", "going_out_bonus",
        "concealed_bonus", "red_three_bonus", "red_three_all_four_bonus", "red_three_penalty",
        "red_three_all_four_penalty", "undo_pile_penalty", "permission_penalty", "sequence_bonus",
        "black_three_hand_penalty")),
)


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
    # Samba and Bolivia (rules/samba.toml, rules/bolivia.toml; see rules/README.md).
    packs: int = 2
    sequences: bool = False
    sequence_bonus: int = 1500
    sequence_canasta_name: str = "samba"
    several_groups: bool = False
    going_out_needs_sequence: bool = False
    wild_canasta_closed: bool = False
    wild_canasta_name: str = "wild canasta"
    black_three_hand_penalty: int = 0
    red_three_needs_canastas: bool = False
    description: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        problems = []
        for name, low, high in _BOUNDS:
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
                problems.append(f"{name} must be a whole number from {low} to {high}")
        if not self.initial_meld:
            problems.append("initial_meld must list at least one [lowest score, points] pair")
        elif len(self.initial_meld) > 100:
            problems.append("initial_meld may list at most 100 [lowest score, points] pairs")
        elif not all(isinstance(p, tuple) and len(p) == 2 and all(type(x) is int for x in p)
                     and 0 <= p[0] <= MAX_TARGET and 0 <= p[1] <= MAX_POINTS for p in self.initial_meld):
            problems.append(f"initial_meld pairs must be [lowest score 0-{MAX_TARGET}, points 0-{MAX_POINTS}]")
        if self.players not in (2, 3, 4):
            problems.append("players must be 2, 3 or 4")
        if self.partnerships and self.players != 4:
            problems.append("partnerships need 4 players")
        if not 1 <= self.hand_size <= 20:
            problems.append("hand_size must be 1-20")
        if self.packs not in (2, 3):
            problems.append("packs must be 2 or 3")
        for name in ("sequence_canasta_name", "wild_canasta_name"):
            text = getattr(self, name)
            if not isinstance(text, str) or not 1 <= len(text) <= 20 or not text.isprintable():
                problems.append(f"{name} must be a name of 1-20 printable characters")
        if self.going_out_needs_sequence and not self.sequences:
            problems.append("going_out_needs_sequence needs sequences = true")
        if self.hand_size * self.players + 10 > self.deck_size:
            problems.append("hand_size too large for the deck")
        if self.draw_count not in (1, 2):
            problems.append("draw_count must be 1 or 2")
        if self.canastas_to_go_out not in (1, 2):
            problems.append("canastas_to_go_out must be 1 or 2")
        if self.wild_limit not in ("three", "naturals", "both"):
            problems.append("wild_limit must be three, naturals or both")
        if self.stock_exhausted not in ("forced", "end", "turn_over", "top_card"):
            problems.append("stock_exhausted must be forced, end, turn_over or top_card")
        if self.last_draw_red_three not in ("end", "meld_then_end", "play_on"):
            problems.append("last_draw_red_three must be end, meld_then_end or play_on")
        if problems:
            raise RulesError(f"rules {_shown(self.name)}: " + "; ".join(problems))

    @property
    def deck_size(self) -> int:
        """108 cards with two packs (two decks and four jokers), 162 with three."""
        return 54 * self.packs

    @property
    def red_threes_in_deck(self) -> int:
        """How many red threes the deck holds ("all four", "all six")."""
        return 2 * self.packs

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


def _shown(value: Any) -> str:
    """A value for a message: short, and never the repr of a deep or huge structure."""
    if isinstance(value, bool | float) or (isinstance(value, int) and abs(value) < 10**12):
        return repr(value)
    if isinstance(value, int):
        return "a very large number"
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:40]) + "..."
    if isinstance(value, list | tuple):
        return "a list"
    return "a table" if isinstance(value, dict) else "a " + type(value).__name__


def _meld_table(value: Any) -> list[tuple[int, int]]:
    bad = RulesError("initial_meld must be a list of [lowest score, points] pairs of whole numbers")
    if not isinstance(value, list | tuple):
        raise bad
    pairs = []
    for p in value:
        if not isinstance(p, list | tuple) or len(p) != 2 or not all(type(x) is int for x in p):
            raise bad
        pairs.append((p[0], p[1]))
    return pairs


def rules_from_dict(data: dict[str, Any], base: Rules | None = None) -> Rules:
    """Build Rules from a mapping (a TOML table or a save file's ``rules``), checking every option."""
    values = (base or Rules()).to_dict()
    for key, value in data.items():
        if key not in _FIELD_TYPES:
            raise RulesError(f"unknown rule option {_shown(key)}")
        current = values[key]
        if key == "initial_meld":
            value = _meld_table(value)
        elif isinstance(current, bool):
            if not isinstance(value, bool):
                raise RulesError(f"rule option {key!r} must be true or false, not {_shown(value)}")
        elif isinstance(current, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(f"rule option {key!r} must be a whole number, not {_shown(value)}")
        elif isinstance(current, str) and not isinstance(value, str):
            raise RulesError(f"rule option {key!r} must be text, not {_shown(value)}")
        values[key] = value
    values["initial_meld"] = tuple(sorted((tuple(p) for p in values["initial_meld"]), reverse=True))
    return Rules(**values)


def rules_from_toml(text: str, base: Rules | None = None) -> Rules:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"not valid TOML: {exc}") from None
    except RecursionError:
        raise RulesError("not valid rules: arrays or tables nested too deeply") from None
    table = data.get("rules", data)
    if not isinstance(table, dict):
        raise RulesError("the [rules] table is missing")
    return rules_from_dict(table, base)


CLASSIC = Rules()
__all__ = ["CLASSIC", "Rules", "dataclasses", "rules_from_dict", "rules_from_toml"]
