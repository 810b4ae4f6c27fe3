"""The Options screen and the Rule Options screen, saved to the settings file.

Options (Canasta for Windows 2.41's Customize dialog, in a terminal's terms): the computer
level, the Expert's aggression, the computer delay, every human seat's name, colours, the
four-colour deck, ASCII cards, the order of the hand, the mouse.  Rule Options (Windows
2.41's Rule Options dialog box): a preset to start from, then every rule option with its
allowed values and what it does in one line (``rules/README.md``).  The engine's
:class:`~canasta_tui.engine.Rules` checks every value: a bad one is refused with its
reason and nothing changes.  Every change is saved at once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from ..engine import Rules, RulesError
from ..text import NAME_MAX, printable
from .canvas import Canvas, Options, fit, glyph_text, wrap
from .dialogs import Confirm
from .lineedit import list_move, step_choice
from .pages import Hint, LineEdit, Page, scroll_window


class SettingsStore(Protocol):
    """The settings file (``persistence.stores.SettingsFile``)."""

    def values(self) -> Mapping[str, Any]: ...          # every setting: the file's value or the default
    def save(self, key: str, value: Any) -> str | None: ...   # None: saved; else why not (nothing changed)
    def where(self) -> str: ...                         # the file's path


#: Called after a setting was saved (the app applies colours, cards, sort and delay at once).
Saved = Callable[[str, Any], None]

#: Seats whose names the options set (Player 1 is ``name``, the others ``names``).
SEATS = 4


@dataclass(frozen=True)
class Item:
    key: str                      # the setting ("names.2" for one seat of ``names``)
    label: str
    kind: str                     # "choice", "bool", "number", "text", "page"
    about: str
    values: tuple[Any, ...] = ()  # a choice's values; a number's (low, high, step)
    unit: str = ""
    later: bool = False           # applies to the next new game, not the one being played


ITEMS: tuple[Item, ...] = (
    Item("level", "Computer level", "choice", "how well the computers play: beginner, advanced or expert",
         ("beginner", "advanced", "expert"), later=True),
    Item("aggression", "Expert aggression", "number",
         "how often an expert computer plays a hand aggressively (melds fast, goes out quickly)", (0, 100, 10), "%",
         later=True),
    Item("delay", "Computer delay", "number", "pause after each computer play, so you can follow it",
         (0, 10000, 100), "ms"),
    Item("name", "Player 1 name (you)", "text", "your name at the table and in the statistics", later=True),
    *(Item(f"names.{i}", f"Player {i + 1} name", "text",
           f"Player {i + 1}'s name when a person plays that seat (empty: \"Player {i + 1}\")", later=True)
      for i in range(1, SEATS)),
    Item("color", "Colours", "choice", "auto: colours unless NO_COLOR is set; always; never (bold and reverse only)",
         ("auto", "always", "never")),
    Item("four_color", "Four-colour deck", "bool", "clubs green and diamonds blue, so no two suits share a colour"),
    Item("deck", "Card faces", "choice", "unicode suit symbols, or ascii letters (c d h s) for plain terminals",
         ("unicode", "ascii")),
    Item("sort", "Hand order", "choice", "rank: A, 3 ... K, wild cards (as the DOS game); suit: by suit, then rank",
         ("rank", "suit")),
    Item("mouse", "Mouse", "bool", "clicks on cards and commands (over SSH it sends every movement)"),
    Item("right_click_discard", "Right-click discards", "bool",
         "with the mouse on, a right-click on a card of your hand discards it (Windows game)"),
    Item("auto_wild", "Pair takes a wild card", "bool",
         "melding two natural cards of a rank adds a wild card from your hand, a deuce first (Windows game)"),
    Item("bell_turn", "Bell: your turn", "bool", "the terminal bell rings when your turn comes after a computer's"),
    Item("bell_question", "Bell: partner asks", "bool", "the bell rings when your partner asks \"May I go out?\""),
    Item("bell_hand_over", "Bell: hand over", "bool", "the bell rings when a hand ends"),
    Item("review", "Review each hand", "bool",
         "after each hand, where the Expert would have played otherwise"),
    Item("rules", "Rule options", "page", "the rules new games play by: a preset, then single options"),
)


def shown(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return printable(str(value))


class OptionsPage(Page):
    """Options: Up/Down choose, Left/Right change, Enter types a value or opens Rule options."""

    title: ClassVar[str] = "Options"

    def __init__(self, store: SettingsStore, saved: Saved | None = None, rules_page: Callable[[], Page] | None = None,
                 in_game: bool = False, source: RulesSource | None = None) -> None:
        super().__init__()
        self.store = store
        self.source = source or PresetSource()
        self.saved = saved or (lambda key, value: None)
        self.rules_page = rules_page
        self.in_game = in_game
        self.items = [i for i in ITEMS if i.kind != "page" or rules_page is not None]
        self.current = 0
        self.edit: LineEdit | None = None

    # ------------------------------------------------------------------ values
    def value(self, item: Item, values: Mapping[str, Any] | None = None) -> Any:
        values = self.store.values() if values is None else values
        if item.key.startswith("names."):
            i = int(item.key[6:])
            names = list(values.get("names", []))
            return names[i] if i < len(names) else ""
        if item.key == "name":
            names = list(values.get("names", []))
            return values.get("name") or (names[0] if names else "")
        return values.get(item.key)

    def put(self, item: Item, value: Any) -> bool:
        """Save ``item`` = ``value``; True if saved (else the reason is on the message line)."""
        key = item.key
        if key.startswith("names."):
            i = int(key[6:])
            names = (list(self.store.values().get("names", [])) + [""] * SEATS)[:SEATS]
            names[i] = value.strip() if isinstance(value, str) else value
            while names and not names[-1]:
                names.pop()
            key, value = "names", names
        why = self.store.save(key, value)
        if why is not None:
            self.say(why, error=True)
            return False
        when = " (from the next new game)" if item.later and self.in_game else ""
        self.say(f"Saved: {item.label} = {shown(self.value(item)) or '(none)'}{when}")
        self.saved(key, value)
        return True

    # ------------------------------------------------------------------ keys
    def on_key(self, name: str) -> None:
        item = self.items[self.current]
        if self.edit is not None:
            done = self.edit.key(name)
            if done == "enter":
                typed = self.edit.text
                value: Any = typed
                if item.kind == "number":
                    try:
                        value = int(typed.strip())
                    except ValueError:
                        self.say(f"{item.label}: type a whole number, not {printable(typed)!r}", error=True)
                        return
                if self.put(item, value):
                    self.edit = None
            elif done == "cancel":
                self.edit = None
                self.say(f"{item.label} is unchanged")
            return
        moved = list_move(name, self.current, len(self.items), cycle=True) if name not in ("pageup", "pagedown") else None
        if moved is not None:
            self.current = moved
        elif name in ("escape", "q"):
            self.done = True
        elif name in ("right", "l", "space", "left", "h"):
            self.step(item, -1 if name in ("left", "h") else 1)
        elif name == "enter":
            if item.kind == "page" and self.rules_page is not None:
                self.open(self.rules_page())
            elif item.kind in ("number", "text"):
                self.edit = LineEdit(shown(self.value(item)), NAME_MAX if item.kind == "text" else 6)
            else:
                self.step(item, 1)
        elif name == "r" and self.rules_page is not None:
            self.open(self.rules_page())

    def step(self, item: Item, by: int) -> None:
        v = self.value(item)
        if item.kind == "bool":
            self.put(item, not v)
        elif item.kind == "choice":
            vals = item.values
            self.put(item, step_choice(vals, v, by, cycle=True))
        elif item.kind == "number":
            lo, hi, step = item.values
            self.put(item, max(lo, min(hi, int(v) + by * step)))
        elif item.kind == "text":
            self.say(f"Enter types {item.label.lower()}")
        elif item.kind == "page" and self.rules_page is not None:
            self.open(self.rules_page())

    # ------------------------------------------------------------------ drawing
    def header_right(self) -> str:
        return "saved to the settings file"

    def hints(self) -> Sequence[Hint]:
        if self.edit is not None:
            return [Hint("Enter", "save"), Hint("Backspace", "erase"), Hint("Esc/Tab", "cancel")]
        item = self.items[self.current]
        change = [Hint("Left/Right", "change")] if item.kind in ("choice", "bool", "number") else []
        enter = {"number": "type", "text": "type", "page": "open"}.get(item.kind, "change")
        return [Hint("Up/Down", "choose"), *change, Hint("Enter", enter), Hint("Esc/q", "back")]

    def draw_body(self, cv: Canvas, opts: Options, top: int, rows: int) -> None:
        g = opts.glyphs
        lw = 24
        x0 = 2
        y = top + 1
        room = rows - 5
        start = scroll_window(len(self.items), self.current, room, 0)
        values = self.store.values()            # read once a paint
        for i in range(start, min(len(self.items), start + room)):
            item = self.items[i]
            on = i == self.current
            cv.put(y, x0, ">" if on else " ", "cursor" if on else "")
            cv.put(y, x0 + 2, f"{item.label:<{lw}}", "cursor" if on else "name")
            x = x0 + 3 + lw
            if on and self.edit is not None:
                cv.put(y, x, self.edit.text + "_", "selected")
            else:
                v = self.value(item, values)
                if item.kind == "page":
                    text, style = settings_label(values, self.source) + f"  {g.right_more} Enter", ""
                elif item.kind == "text" and not v:
                    text, style = f"(Player {int(item.key[6:]) + 1 if '.' in item.key else 1})", "dim"
                else:
                    text, style = shown(v) + (f" {item.unit}" if item.unit else ""), ""
                cv.put(y, x, glyph_text(text, g)[: cv.width - x - 1], style)
            if cv.width >= 120:
                # A wide terminal shows what every option does.
                mx = x + 30
                cv.put(y, mx, fit(glyph_text(item.about, g), cv.width - mx - 1, g.ellipsis), "dim")
            y += 1
        item = self.items[self.current]
        about = item.about + (" (from the next new game)" if item.later and self.in_game else "")
        lines = wrap(about, cv.width - 4)[:2]
        ay = top + rows - len(lines)
        cv.put(ay - 1, 0, g.hline * cv.width, "dim")
        for i, line in enumerate(lines):
            cv.put(ay + i, 2, line.strip(), "hint")


# ---------------------------------------------------------------------- rule options

#: Every rule option in Canasta's own words, as the Rule options page and the rules help name it
#: (at most 34 characters: the page's column).  The code name (``hand_size``) stays where a
#: person types it: a rules file, ``canasta rules --options``.
RULE_LABELS: dict[str, str] = {
    "players": "Players",
    "partnerships": "Partnerships",
    "hand_size": "Cards dealt to each player",
    "draw_count": "Cards drawn from the stock",
    "target_score": "Game: points to win the match",
    "initial_meld": "Initial meld requirement",
    "initial_meld_negative": "Initial meld with a minus score",
    "canastas_to_go_out": "Canastas needed to go out",
    "canasta_required_for_positive_score": "A canasta for a plus score",
    "wild_limit": "Wild cards in a meld",
    "max_wilds": "Most wild cards in a meld",
    "natural_canasta_bonus": "Natural canasta bonus",
    "mixed_canasta_bonus": "Mixed canasta bonus",
    "wild_melds_allowed": "Melds of wild cards only",
    "wild_canasta_bonus": "Wild canasta bonus",
    "going_out_bonus": "Going out bonus",
    "concealed_bonus": "Going out concealed: extra bonus",
    "concealed_needs_canasta": "Concealed going out needs canasta",
    "concealed_counts_partner_melds": "Concealed onto partner's melds",
    "red_three_bonus": "Red three bonus, each",
    "red_three_all_four_bonus": "All four red threes bonus",
    "red_three_penalty": "Red three with no meld, each",
    "red_three_all_four_penalty": "All four red threes, no meld",
    "red_three_replacement": "Red three drawn is replaced",
    "red_three_discard_freezes": "Red three discard freezes the pile",
    "last_draw_red_three": "Last stock card a red three",
    "black_three_meld_with_wild": "Black threes out with a wild card",
    "turn_upcard_three": "First upcard a black three: cover",
    "pile_initially_frozen": "Pile frozen from the deal",
    "pile_new_meld_needs_natural_pair": "Pile for a new meld: natural pair",
    "pile_onto_completed_canasta": "Upcard onto a completed canasta",
    "top_card_counts_for_initial_meld": "Upcard counts for initial meld",
    "one_card_pile_rule": "One card left: no pile of one",
    "stock_exhausted": "When the stock runs out",
    "undo_pile_allowed": "Pile may be put back",
    "undo_pile_penalty": "Pile put back: penalty",
    "permission_allowed": "\"May I go out, partner?\"",
    "permission_penalty": "Not going out after a yes: penalty",
    "packs": "Packs of cards",
    "sequences": "Sequence melds",
    "sequence_bonus": "Sequence canasta bonus",
    "sequence_canasta_name": "Name of a sequence canasta",
    "several_groups": "Several melds of a rank",
    "going_out_needs_sequence": "Going out needs a sequence canasta",
    "wild_canasta_closed": "Wild canasta takes no more cards",
    "wild_canasta_name": "Name of a wild canasta",
    "black_three_hand_penalty": "Black three left in hand: penalty",
    "red_three_needs_canastas": "Red threes need the canastas",
}

#: What every rule option does, in one line of at most 76 characters (a line at 80 columns).
RULE_ABOUT: dict[str, str] = {
    "players": "how many play: four in partnerships, or two or three each alone",
    "partnerships": "partners sit opposite and score together (Players 1 & 3 against 2 & 4)",
    "hand_size": "how many cards each player is dealt",
    "draw_count": "how many cards a player draws from the stock each turn",
    "target_score": "the match ends when a side reaches this score",
    "initial_meld": "points a side's first meld needs, by its score (lowest score:points)",
    "initial_meld_negative": "points the first meld needs while the side's score is below zero",
    "canastas_to_go_out": "canastas a side needs before one of its players may go out",
    "canasta_required_for_positive_score": "a side without the canastas to go out scores minus all its cards",
    "wild_limit": "a fixed most wild cards in a meld, never more than its naturals, or both",
    "max_wilds": "the most wild cards in one meld (with a fixed most)",
    "natural_canasta_bonus": "bonus for a canasta without wild cards",
    "mixed_canasta_bonus": "bonus for a canasta with wild cards",
    "wild_melds_allowed": "melds of deuces and jokers only may be made",
    "wild_canasta_bonus": "bonus for a canasta of wild cards only",
    "going_out_bonus": "bonus for the side of the player who goes out",
    "concealed_bonus": "extra bonus for going out concealed (melding the whole hand at once)",
    "concealed_needs_canasta": "going out concealed still needs a canasta",
    "concealed_counts_partner_melds": "going out onto the partner's melds without melding first is concealed",
    "red_three_bonus": "each red three of a side that has melded",
    "red_three_all_four_bonus": "one side's four red threes together",
    "red_three_penalty": "each red three of a side that has not melded counts minus this",
    "red_three_all_four_penalty": "four red threes of a side that has not melded count minus this",
    "red_three_replacement": "a red three drawn from the stock is laid out and another card drawn",
    "red_three_discard_freezes": "a player may discard a red three laid out, which freezes the pile",
    "last_draw_red_three": "what happens when the last card of the stock is a red three",
    "black_three_meld_with_wild": "a player may go out melding two black threes with a wild card",
    "turn_upcard_three": "a black three turned as the first upcard is covered by the next card",
    "pile_initially_frozen": "the pile is frozen from the deal, whatever it holds",
    "pile_new_meld_needs_natural_pair": "taking the pile for a new meld needs a natural pair, never a wild card",
    "pile_onto_completed_canasta": "the upcard may go onto a completed canasta to take the pile",
    "top_card_counts_for_initial_meld": "the upcard counts toward the initial meld requirement",
    "one_card_pile_rule": "a player holding one card may not take a pile of one card",
    "stock_exhausted": "what a player may do, or must, once the stock is empty",
    "undo_pile_allowed": "a side without its initial meld may put a pile it took back and draw",
    "undo_pile_penalty": "what putting the pile back costs",
    "permission_allowed": "a player may ask their partner \"May I go out, partner?\"",
    "permission_penalty": "what a player who was told yes and then did not go out pays",
    "packs": "decks shuffled together: 2 (108 cards, four jokers) or 3 (162, six jokers)",
    "sequences": "melds of three to seven cards of one suit in order (Samba, Bolivia)",
    "sequence_bonus": "bonus for a sequence of seven cards (a samba, an escalera)",
    "sequence_canasta_name": "what a sequence of seven is called: samba, or escalera in Bolivia",
    "several_groups": "a side may start another meld of a rank once its melds of it are canastas",
    "going_out_needs_sequence": "one of the canastas needed to go out must be a sequence",
    "wild_canasta_closed": "a canasta of wild cards takes no more cards",
    "wild_canasta_name": "what a canasta of wild cards is called: bolivia in Bolivia",
    "black_three_hand_penalty": "a black three left in a hand at the end costs this (0: it counts 5)",
    "red_three_needs_canastas": "red threes count for a side only once it has the canastas to go out",
}

#: The values of the options whose values are words, as a player says them.
CHOICE_WORDS: dict[str, dict[str, str]] = {
    "wild_limit": {"three": "a fixed most", "naturals": "never more than naturals", "both": "both"},
    "last_draw_red_three": {"end": "the hand ends", "meld_then_end": "meld, then the hand ends",
                            "play_on": "play goes on"},
    "stock_exhausted": {"forced": "forced to take the pile", "end": "the hand ends", "turn_over": "pile turned over",
                        "top_card": "upcard alone onto a meld"},
}

_OPTION_NAME = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


def rule_label(key: str) -> str:
    """An option as the page and the help name it (``Cards dealt to each player``)."""
    return RULE_LABELS.get(key, key.replace("_", " ").capitalize())


_WORD_VALUE = re.compile(r'"([a-z_]+)"|\b(true|false)\b')
_CHOICES = {code: word for words in CHOICE_WORDS.values() for code, word in words.items()}


def rule_words(text: str) -> str:
    """Text that names options and their values by code (the README's explanations) in words:
    an option by its label, "naturals" as "never more than naturals", false as no."""
    text = _OPTION_NAME.sub(lambda m: f"\u201c{RULE_LABELS[m.group(0)]}\u201d" if m.group(0) in RULE_LABELS
                            else m.group(0), text)

    def value(m: re.Match[str]) -> str:
        if m.group(2):
            return "yes" if m.group(2) == "true" else "no"
        return f"\u201c{_CHOICES[m.group(1)]}\u201d" if m.group(1) in _CHOICES else m.group(0)
    return _WORD_VALUE.sub(value, text)


def choice_word(key: str, value: Any) -> str:
    """A word value of an option as a player says it; other values as they are."""
    return CHOICE_WORDS.get(key, {}).get(str(value), printable(str(value)))


@dataclass(frozen=True)
class RuleItem:
    key: str
    kind: str                   # "preset", "bool", "choice", "number", "meld"
    values: tuple[Any, ...]     # a choice's values; a number's (low, high)
    allowed: str                # the README's "values" cell, as shown
    meaning: str


_RANGE = re.compile(r"^([\d,]+)\s*[–-]\s*([\d,]+)$")


def rule_items(helps: Mapping[str, tuple[str, str]], rules: Rules) -> list[RuleItem]:
    """One line per rule option, in the README's order, with how its value is edited."""
    out = []
    fields = [k for k in rules.to_dict() if k not in ("name", "description")]
    order = [k for k in helps if k in fields] + [k for k in fields if k not in helps]
    for key in order:
        allowed, meaning = helps.get(key, ("", ""))
        meaning = RULE_ABOUT.get(key) or rule_words(meaning)
        current = getattr(rules, key)
        choices = re.findall(r'"([^"]+)"', allowed)
        numbers = [int(t) for t in re.findall(r"\d+", allowed)] if re.fullmatch(r"[\d, ]+", allowed) else []
        rng = _RANGE.fullmatch(allowed.replace(" ", ""))
        if key == "initial_meld":
            out.append(RuleItem(key, "meld", (), "pairs of lowest score:points", meaning))
        elif isinstance(current, bool):
            out.append(RuleItem(key, "bool", (False, True), "yes or no", meaning))
        elif choices:
            out.append(RuleItem(key, "choice", tuple(choices), ", ".join(choice_word(key, c) for c in choices), meaning))
        elif len(numbers) > 1:
            out.append(RuleItem(key, "choice", tuple(numbers), ", ".join(map(str, numbers)), meaning))
        elif rng:
            lo, hi = (int(t.replace(",", "")) for t in rng.groups())
            out.append(RuleItem(key, "number", (lo, hi), f"{lo} to {hi}", meaning))
        else:
            out.append(RuleItem(key, "number", (), allowed, meaning))
    return out


def rule_value(key: str, value: Any) -> str:
    if key == "initial_meld":
        return "  ".join(f"{lo}:{need}" for lo, need in sorted(value))
    if isinstance(value, bool):
        return "yes" if value else "no"
    return choice_word(key, value)


def typed_value(key: str, value: Any) -> str:
    """A value as it is typed to change it (a number, the initial meld's steps)."""
    if key == "initial_meld":
        return rule_value(key, value)
    return printable(str(value))


def parse_meld(text: str) -> list[list[int]] | str:
    """``0:50 1500:90 3000:120`` as the initial_meld table, or why not."""
    pairs = []
    for part in text.replace(",", " ").split():
        lo, sep, need = part.partition(":")
        if not sep or not lo.isdigit() or not need.isdigit():
            return f"write each step as lowest score:points (as 0:50 1500:90 3000:120), not {printable(part)!r}"
        pairs.append([int(lo), int(need)])
    return pairs or "write at least one step, as 0:50"


class RulesSource(Protocol):
    """The presets (``canasta_tui.presets``): names, rules by name, the README's explanations."""

    def presets(self) -> list[str]: ...
    def load(self, name: str) -> Rules | str: ...       # the preset (or rules file), or why not
    def helps(self) -> Mapping[str, tuple[str, str]]: ...


def label(rules: Rules, base: Rules) -> str:
    changed = [k for k, v in rules.to_dict().items() if k not in ("name", "description") and base.to_dict()[k] != v]
    return rules.name + (f" + {len(changed)} change" + ("s" if len(changed) != 1 else "") if changed else "")


class RuleOptionsPage(Page):
    """Rule Options: the preset first, then each option; Left/Right or Enter change, d takes the preset's."""

    title: ClassVar[str] = "Rule options"

    def __init__(self, store: SettingsStore, source: RulesSource, saved: Saved | None = None,
                 in_play: str = "") -> None:
        super().__init__()
        self.store = store
        self.source = source
        self.saved = saved or (lambda key, value: None)
        self.in_play = in_play           # the rules of the game being played ("" outside a game)
        self.current = 0
        self.top = 0
        self.edit: LineEdit | None = None
        self._rows = 10

    # ------------------------------------------------------------------ the rules being set
    def preset_name(self) -> str:
        return str(self.store.values().get("rules") or "classic")

    def base(self) -> Rules:
        got = self.source.load(self.preset_name())
        return got if isinstance(got, Rules) else Rules()

    def overrides(self) -> dict[str, Any]:
        return dict(self.store.values().get("rule_options") or {})

    def rules(self) -> Rules:
        """The rules new games play by; the preset's alone if the changes do not fit it."""
        base = self.base()
        try:
            return base.replace(**self.overrides())
        except (RulesError, TypeError):
            return base

    def items(self) -> list[RuleItem]:
        return [RuleItem("rules", "preset", tuple(self.source.presets()), "a preset",
                         "the rules to start from; the options below change single rules of it"),
                *rule_items(self.source.helps(), self.rules())]

    # ------------------------------------------------------------------ saving
    def set_option(self, item: RuleItem, value: Any) -> bool:
        base = self.base()
        changes = self.overrides() | {item.key: value}
        try:
            rules = base.replace(**changes)
        except RulesError as exc:
            self.say(rule_words(_reason(str(exc))), error=True)
            return False
        # Only what differs from the preset is kept: the file says what was changed.
        base_values = base.to_dict()
        kept = {k: v for k, v in rules.to_dict().items() if k in changes and base_values[k] != v}
        why = self.store.save("rule_options", kept)
        if why is not None:
            self.say(why, error=True)
            return False
        self.say(f"Saved: {rule_label(item.key)} = {rule_value(item.key, getattr(rules, item.key))}"
                 + ("" if not self.in_play else " (from the next new game)"))
        self.saved("rule_options", kept)
        return True

    def set_preset(self, name: str) -> None:
        got = self.source.load(name)
        if isinstance(got, str):
            self.say(got, error=True)
            return
        for key, value in (("rules", name), ("rule_options", {})):
            why = self.store.save(key, value)
            if why is not None:
                self.say(why, error=True)
                return
            self.saved(key, value)
        self.say(f"Saved: new games start from the {name} preset" + ("" if not self.in_play else
                                                                       " (from the next new game)"))

    def choose_preset(self, by: int) -> None:
        names = self.source.presets()
        now = self.preset_name()
        name = step_choice(names, now, by, cycle=True)
        n = len(self.overrides())
        if n:
            self.open(Confirm("Start from a preset", "\n".join([
                f"Start from the {name} preset?",
                f"Your {n} change{'s' if n != 1 else ''} to {now} {'are' if n != 1 else 'is'} dropped."]),
                [("y", "yes", lambda: self.set_preset(name))]))
        else:
            self.set_preset(name)

    # ------------------------------------------------------------------ keys
    def on_key(self, name: str) -> None:
        items = self.items()
        self.current = min(self.current, len(items) - 1)
        item = items[self.current]
        if self.edit is not None:
            done = self.edit.key(name)
            if done == "enter":
                typed = self.edit.text.strip()
                value: Any
                if item.kind == "meld":
                    value = parse_meld(typed)
                    if isinstance(value, str):
                        self.say(value, error=True)
                        return
                else:
                    try:
                        value = int(typed)
                    except ValueError:
                        self.say(f"{rule_label(item.key)}: type a whole number, not {printable(typed)!r}", error=True)
                        return
                if self.set_option(item, value):
                    self.edit = None
            elif done == "cancel":
                self.edit = None
                self.say(f"{rule_label(item.key)} is unchanged")
            return
        n = len(items)
        rows = max(1, self._rows)
        if name in ("escape", "q"):
            self.done = True
        elif name in ("down", "j", "tab"):
            self.current = (self.current + 1) % n
        elif name in ("up", "k", "s-tab"):
            self.current = (self.current - 1) % n
        elif name == "pagedown":
            self.current = min(n - 1, self.current + rows)
        elif name == "pageup":
            self.current = max(0, self.current - rows)
        elif name == "home":
            self.current = 0
        elif name == "end":
            self.current = n - 1
        elif name in ("right", "l", "space", "left", "h"):
            self.step(item, -1 if name in ("left", "h") else 1)
        elif name == "enter":
            if item.kind in ("number", "meld"):
                self.edit = LineEdit(typed_value(item.key, getattr(self.rules(), item.key)), 60)
            else:
                self.step(item, 1)
        elif name == "d" and item.kind != "preset":
            self.back_to_preset(item)

    def step(self, item: RuleItem, by: int) -> None:
        if item.kind == "preset":
            self.choose_preset(by)
            return
        now = getattr(self.rules(), item.key)
        if item.kind in ("bool", "choice"):
            vals = item.values
            # numbers stop at their ends; words (and yes/no) go round
            self.set_option(item, step_choice(vals, now, by, cycle=not all(type(x) is int for x in vals)))
        else:
            self.say(f"Enter types a value for {rule_label(item.key)} ({item.allowed})")

    def back_to_preset(self, item: RuleItem) -> None:
        changes = self.overrides()
        if item.key not in changes:
            self.say(f"{rule_label(item.key)} is the {self.preset_name()} preset's already")
            return
        del changes[item.key]
        try:
            self.base().replace(**changes)
        except RulesError as exc:
            self.say(rule_words(_reason(str(exc))), error=True)
            return
        why = self.store.save("rule_options", changes)
        if why is not None:
            self.say(why, error=True)
            return
        self.saved("rule_options", changes)
        self.say(f"{rule_label(item.key)} is back to the {self.preset_name()} preset's: "
                 f"{rule_value(item.key, getattr(self.base(), item.key))}")

    # ------------------------------------------------------------------ drawing
    def header_right(self) -> str:
        return f"new games: {label(self.rules(), self.base())}"

    def hints(self) -> Sequence[Hint]:
        if self.edit is not None:
            return [Hint("Enter", "save"), Hint("Backspace", "erase"), Hint("Esc/Tab", "cancel")]
        item = self.items()[min(self.current, len(self.items()) - 1)]
        if item.kind in ("number", "meld"):
            change = [Hint("Enter", "type")]
        else:
            change = [Hint("Left/Right", "change")]
        return [Hint("Up/Down", "choose"), *change, Hint("d", "preset's value"), Hint("Esc/q", "back")]

    def draw_body(self, cv: Canvas, opts: Options, top: int, rows: int) -> None:
        g = opts.glyphs
        items = self.items()
        self.current = min(self.current, len(items) - 1)
        rules, base = self.rules(), self.base()
        wide = cv.width >= 120
        kw = max(len(rule_label(i.key)) for i in items) + 1
        vw = 26                 # the longest value in words, and its mark: "never more than naturals *"
        y = top + (1 if self.in_play else 0)
        if self.in_play:
            cv.put(top, 2, f"The game being played keeps its rules ({self.in_play}); these are for new games.", "hint")
        it = items[self.current]
        # The option's one line, then its values on a line of their own where they fit one.
        text = f"{it.meaning[:1].upper()}{it.meaning[1:]}."
        values = f"Values: {it.allowed}."
        explain = [*wrap(glyph_text(text, g), cv.width - 4), *wrap(glyph_text(values, g), cv.width - 4)][:3]
        room = rows - (y - top) - len(explain) - 1
        self._rows = room
        self.top = scroll_window(len(items), self.current, room, self.top)
        for i in range(self.top, min(len(items), self.top + room)):
            it = items[i]
            on = i == self.current
            cv.put(y, 1, ">" if on else " ", "cursor" if on else "")
            name = "Preset" if it.kind == "preset" else rule_label(it.key)
            cv.put(y, 3, f"{name:<{kw}}", "cursor" if on else "name")
            x = 3 + kw + 1
            if on and self.edit is not None:
                cv.put(y, x, self.edit.text + "_", "selected")
            else:
                if it.kind == "preset":
                    text = self.preset_name()
                else:
                    text = rule_value(it.key, getattr(rules, it.key))
                    if getattr(base, it.key) != getattr(rules, it.key):
                        text += " *"
                cv.put(y, x, text[:vw + 10] if wide else text[: cv.width - x - 1], "")
            if wide:
                mx = x + vw + 2
                cv.put(y, mx, fit(glyph_text(it.meaning, g), cv.width - mx - 1, g.ellipsis), "dim")
            y += 1
        it = items[self.current]
        ay = top + rows - len(explain)
        cv.put(ay - 1, 0, g.hline * cv.width, "dim")
        more = f" ({self.top + 1}-{min(len(items), self.top + room)} of {len(items)}; * differs from {base.name}) "
        cv.put(ay - 1, max(0, cv.width - len(more) - 1), more, "dim")
        for i, line in enumerate(explain):
            cv.put(ay + i, 2, line.strip(), "hint")


def settings_label(values: Mapping[str, Any], source: RulesSource) -> str:
    """The rules new games play by, as the settings say them ("classic + 2 changes")."""
    name = str(values.get("rules") or "classic")
    got = source.load(name)
    if isinstance(got, str):
        return name
    try:
        return label(got.replace(**dict(values.get("rule_options") or {})), got)
    except (RulesError, TypeError):
        return name


def _reason(text: str) -> str:
    """The engine's refusal without the rules' name in front (``rules 'classic': ...``)."""
    return re.sub(r"^rules '[^']*': ", "", text)


__all__ = ["CHOICE_WORDS", "ITEMS", "RULE_ABOUT", "RULE_LABELS", "Item", "OptionsPage", "PresetSource", "RuleItem",
           "RuleOptionsPage", "RulesSource", "Saved", "SettingsStore", "choice_word", "label", "parse_meld", "rule_items",
           "rule_label", "rule_value", "rule_words"]


class PresetSource:
    """The presets in ``rules/`` and the README's explanations (the default :class:`RulesSource`)."""

    def presets(self) -> list[str]:
        from ..presets import preset_names

        return preset_names()

    def load(self, name: str) -> Rules | str:
        from ..presets import load_rules, preset

        known = preset(name)            # the presets are read once; a file is read each time
        if known is not None:
            return known
        try:
            return load_rules(name)
        except RulesError as exc:
            return printable(str(exc))

    def helps(self) -> Mapping[str, tuple[str, str]]:
        from ..presets import option_help

        return option_help()
