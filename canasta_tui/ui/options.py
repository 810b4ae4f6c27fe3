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
from .lineedit import list_move, step_choice
from .pages import Ask, Hint, LineEdit, Page, scroll_window


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
        current = getattr(rules, key)
        choices = re.findall(r'"([^"]+)"', allowed)
        numbers = [int(t) for t in re.findall(r"\d+", allowed)] if re.fullmatch(r"[\d, ]+", allowed) else []
        rng = _RANGE.fullmatch(allowed.replace(" ", ""))
        if key == "initial_meld":
            out.append(RuleItem(key, "meld", (), "pairs of lowest score:points", meaning))
        elif isinstance(current, bool):
            out.append(RuleItem(key, "bool", (False, True), "yes or no", meaning))
        elif choices:
            out.append(RuleItem(key, "choice", tuple(choices), ", ".join(choices), meaning))
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
            self.say(_reason(str(exc)), error=True)
            return False
        # Only what differs from the preset is kept: the file says what was changed.
        base_values = base.to_dict()
        kept = {k: v for k, v in rules.to_dict().items() if k in changes and base_values[k] != v}
        why = self.store.save("rule_options", kept)
        if why is not None:
            self.say(why, error=True)
            return False
        self.say(f"Saved: {item.key} = {rule_value(item.key, getattr(rules, item.key))}"
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
            self.open(Ask("Start from a preset", [
                f"Start from the {name} preset?",
                f"Your {n} change{'s' if n != 1 else ''} to {now} {'are' if n != 1 else 'is'} dropped."],
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
                        self.say(f"{item.key}: type a whole number, not {printable(typed)!r}", error=True)
                        return
                if self.set_option(item, value):
                    self.edit = None
            elif done == "cancel":
                self.edit = None
                self.say(f"{item.key} is unchanged")
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
                self.edit = LineEdit(rule_value(item.key, getattr(self.rules(), item.key)), 60)
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
            self.say(f"Enter types a value for {item.key} ({item.allowed})")

    def back_to_preset(self, item: RuleItem) -> None:
        changes = self.overrides()
        if item.key not in changes:
            self.say(f"{item.key} is the {self.preset_name()} preset's already")
            return
        del changes[item.key]
        try:
            self.base().replace(**changes)
        except RulesError as exc:
            self.say(_reason(str(exc)), error=True)
            return
        why = self.store.save("rule_options", changes)
        if why is not None:
            self.say(why, error=True)
            return
        self.saved("rule_options", changes)
        self.say(f"{item.key} is back to the {self.preset_name()} preset's: "
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
        kw = max(len(i.key) for i in items) + 1
        vw = 24
        y = top + (1 if self.in_play else 0)
        if self.in_play:
            cv.put(top, 2, f"The game being played keeps its rules ({self.in_play}); these are for new games.", "hint")
        it = items[self.current]
        text = f"{'preset' if it.kind == 'preset' else it.key}: {it.meaning}.  Values: {it.allowed}."
        explain = wrap(glyph_text(text, g), cv.width - 4)[:2]
        room = rows - (y - top) - len(explain) - 1
        self._rows = room
        self.top = scroll_window(len(items), self.current, room, self.top)
        for i in range(self.top, min(len(items), self.top + room)):
            it = items[i]
            on = i == self.current
            cv.put(y, 1, ">" if on else " ", "cursor" if on else "")
            name = "preset" if it.kind == "preset" else it.key
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


__all__ = ["ITEMS", "Item", "OptionsPage", "PresetSource", "RuleItem", "RuleOptionsPage", "RulesSource", "Saved", "SettingsStore",
           "label", "parse_meld", "rule_items", "rule_value"]


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
