"""Help in the game (F1, ``?``): Rules, How to play, Scoring, Strategy, FAQ, About.

As Canasta for Windows 2.41's Help menu has them (Rules, How to Play, Scoring, About),
with our own strategy where the DOS manual has its strategy section, and the questions a
first-time player asks.  Every page scrolls
(Up/Down, PgUp/PgDn, Home/End) and can be searched (``/``, then ``n`` for the next match).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from ..engine import Rules
from ..text import printable
from .canvas import Canvas, Options, glyph_text, wrap
from .options import RULE_ABOUT, RULE_LABELS, choice_word, rule_label, rule_value, rule_words
from .pages import Hint, LineEdit, Page
from .texts import help_lines, mouse_lines

#: The pages, in order (their number is their key).
PAGES = ("Rules", "How to play", "Scoring", "Strategy", "FAQ", "About")
#: Widest a line of running text gets on a wide terminal (easier to read).
TEXT_MAX = 100


@dataclass(frozen=True)
class Line:
    text: str
    style: str = ""


# ---------------------------------------------------------------------- Markdown, as text

_INLINE = re.compile(r"\*\*(.+?)\*\*|\*(\S.*?)\*")


#: A rule option named in the rules text (`hand_size`, `stock_exhausted = "top_card"`).
_OPTION = re.compile(r'`([a-z][a-z0-9_]*)(?: = "([a-z_]+)")?`')


def _inline(text: str) -> str:
    """Markdown's emphasis dropped (**bold**, *italic*); a rule option named in `code` by its
    label in quotes, as the Rule options page names it (the code name is for rules files and
    the command line); other `code` keeps its quotes."""
    def option(m: re.Match[str]) -> str:
        key, value = m.group(1), m.group(2)
        if key not in RULE_LABELS:
            return m.group(0)
        return f"\u201c{RULE_LABELS[key]}\u201d" + (f": {choice_word(key, value)}" if value else "")
    text = text.replace("named in `code`", "named in quotes")
    return _OPTION.sub(option, _INLINE.sub(lambda m: next(g for g in m.groups() if g is not None), text))


def markdown_lines(text: str, width: int) -> list[Line]:
    """The rules text (Markdown: headings, paragraphs, lists, tables) as lines of ``width``."""
    out: list[Line] = []
    para: list[str] = []
    table: list[list[str]] = []

    def flush() -> None:
        if para:
            joined = _inline(" ".join(p.strip() for p in para))
            if joined.startswith(("* ", "- ")):
                lines = wrap(joined[2:], width - 4)
                out.append(Line("  - " + lines[0]))
                out.extend(Line("    " + t.strip()) for t in lines[1:])
            else:
                out.extend(Line(t.strip()) for t in wrap(joined, width))
            para.clear()
        if table:
            cols = max(len(r) for r in table)
            widths = [max(len(r[i]) if i < len(r) else 0 for r in table) for i in range(cols)]
            for n, row in enumerate(table):
                cells = [(row[i] if i < len(row) else "").ljust(widths[i]) for i in range(cols)]
                out.append(Line(("  " + "   ".join(cells)).rstrip()[:width], "heading" if n == 0 else ""))
            table.clear()

    for raw in text.splitlines():
        line = raw.rstrip()
        if line.startswith("#"):
            flush()
            title = _inline(line.lstrip("#").strip())
            if out and out[-1].text:
                out.append(Line(""))
            out.append(Line(title, "heading"))
            if not line.startswith("###"):
                rule = "=" if line.startswith("# ") else "-"
                out.append(Line(rule * min(len(title), width), "heading"))
        elif line.startswith("|"):
            if para:
                flush()
            cells = [_inline(c.strip()) for c in line.strip("|").split("|")]
            if all(set(c) <= set("-: ") for c in cells):
                continue
            table.append(cells)
        elif not line.strip():
            flush()
            if out and out[-1].text:
                out.append(Line(""))
        elif line.lstrip().startswith(("* ", "- ")):
            flush()
            para.append(line.strip())
        else:
            if table:
                flush()
            para.append(line)
    flush()
    while out and not out[-1].text:
        out.pop()
    return out


# ---------------------------------------------------------------------- the texts

def rules_text() -> str:
    from ..presets import rules_dir

    path = rules_dir() / "RULES.md"
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return f"# The rules of Canasta\n\nThe rules text cannot be read ({printable(str(path))}: {exc})."


def options_lines(rules: Rules, label: str, width: int) -> list[Line]:
    """The value of every rule option in play (what the rules text's `code` names refer to), and
    what each does (the options table installed with the game, as ``canasta rules --options``)."""
    from ..presets import option_help, preset

    base = preset(rules.name)
    mine = rules.to_dict()
    out = [Line(""), Line(f"The rule options in play: {label}", "heading"), Line("-" * min(width, 26 + len(label)), "heading")]
    if base is not None and label != rules.name:
        out += _para(f"* marks an option that differs from the {rules.name} preset.", width)
    keys = [k for k in mine if k not in ("name", "description")]
    kw = max(len(rule_label(k)) for k in keys)
    helps = option_help()
    for k in keys:
        v = mine[k]
        mark = " *" if base is not None and base.to_dict()[k] != v else ""
        out += [Line("  " + t.strip()) for t in wrap(f"{rule_label(k):<{kw}}  {rule_value(k, v)}{mark}", width - 2)]
        h = helps.get(k)
        about = RULE_ABOUT.get(k) or (rule_words(h.meaning) if h is not None else "")
        if about:
            values = _values(k, h.values) if h is not None else ""
            out += [Line("      " + t.strip()) for t in wrap(about + values, width - 6)]
    return out


_QUOTED = re.compile(r'"([^"]+)"')


def _values(key: str, allowed: str) -> str:
    """An option's values as the help says them after what it does ("" for yes/no and text)."""
    if allowed in ("bool", "text"):
        return ""
    words = [choice_word(key, c) for c in _QUOTED.findall(allowed)]
    return f" (values: {', '.join(words) if words else allowed})"


def _para(text: str, width: int) -> list[Line]:
    return [Line(t.strip()) for t in wrap(text, width)]


def how_to_play_lines(width: int) -> list[Line]:
    intro = ("A turn is: draw a card from the stock (d) or take the pile (p); meld if you want to "
             "(select cards with Space, then m; or 1 and 3 for one or three of the cursor card's rank; "
             "w puts a wild card on a meld); then discard (c).  The command bar lights the commands the "
             "rules allow now; a refused move says why and nothing is lost.  Before going out you may ask "
             "your partner \"May I go out?\" (y, after drawing from the stock and before melding).  Asking is "
             "optional: you may go out without asking.  The answer binds you: after a \"yes\" you must go "
             "out this turn or your side pays the penalty, after a \"no\" you may not go out.  Where asking "
             "can only cost you (you cannot go out this turn, or you could go out concealed, which needs no "
             "question), y says so first and n takes it back.  Every key:")
    samba = ("In Samba and Bolivia, select three or more cards of one suit in order (4 low, Ace high) "
             "and press m to meld a sequence; selected cards that continue one of your sequences at "
             "either end go onto it (or click it).  Once your meld of a rank is a canasta, m with three "
             "more of that rank starts a second one; J joins the two (the bar shows Join when you may).")
    out = [*_para(intro, width), Line(""), *_para(samba, width), Line("")]
    for text in [*help_lines(width), "", *mouse_lines(width)]:
        out.append(Line(text, "heading" if text.endswith(":") and not text.startswith(" ") else ""))
    return out


def scoring_lines(rules: Rules, width: int) -> list[Line]:
    """How a hand is scored, with the values of the rules in play."""
    r = rules

    def row(label: str, value: object) -> Line:
        return Line(f"  {label:<36}{value:>6}")

    meld = "  ".join(f"{'below 0' if lo < 0 else f'{lo}+'}: {need}" for lo, need in
                     [(-1, r.initial_meld_negative), *sorted(r.initial_meld)])
    out = [Line("Each hand", "heading"), Line("-" * 9, "heading")]
    out += _para("Each side scores the cards it has melded and its bonuses, less the cards left in its "
                 "players' hands and any penalties.  The scores add up hand after hand; the first side "
                 f"to reach {r.target_score} wins the match (the higher score if both do).", width)
    out += [Line(""), Line("Card values", "heading"),
            row("joker", 50), row("deuce, ace", 20), row("K, Q, J, 10, 9, 8", 10), row("7, 6, 5, 4, black three", 5),
            Line(""), Line("Bonuses", "heading"),
            row("natural canasta (no wild card)", r.natural_canasta_bonus),
            row("mixed canasta", r.mixed_canasta_bonus)]
    if r.sequences:
        out.append(row(f"{r.sequence_canasta_name} (seven in sequence)", r.sequence_bonus))
    if r.wild_melds_allowed:
        wild = "canasta of wild cards" if r.wild_canasta_name == "wild canasta" else \
            f"{r.wild_canasta_name} (seven wild cards)"
        out.append(row(wild, r.wild_canasta_bonus))
    every = "all six red threes" if r.packs == 3 else "all four red threes"
    out += [row("each red three", r.red_three_bonus), row(every, r.red_three_all_four_bonus),
            row("going out", r.going_out_bonus), row("going out concealed, in addition", r.concealed_bonus),
            Line(""), Line("Penalties", "heading"),
            row("each red three of a side with no meld", -r.red_three_penalty),
            row("all four, with no meld", -r.red_three_all_four_penalty),
            row("a red three left in a hand", -200)]
    if r.black_three_hand_penalty:
        out.append(row("a black three left in a hand", -r.black_three_hand_penalty))
    if r.permission_allowed:
        out.append(row('not going out after a "yes"', -r.permission_penalty))
    if r.undo_pile_allowed:
        out.append(row("putting the pile back", -r.undo_pile_penalty))
    out += [Line(""), Line("Initial meld", "heading")]
    out += _para("A side's first meld of a hand must be worth at least (by the side's score): " + meld + ".", width)
    if r.canasta_required_for_positive_score:
        out += [Line(""), *_para(f"A side without {r.canastas_to_go_out} canasta(s) scores its melded cards and "
                                 "its hand against it, without bonuses.", width)]
    out += [Line(""), Line("During a hand", "heading")]
    out += _para("s shows the match score and each side's initial meld requirement; t shows the score sheet.  "
                 "When a hand ends the scoring summary shows each side's melds, the cards left in every hand "
                 "and the points item by item, then the score sheet.", width)
    return out


STRATEGY = """\
Keep your hand long early in a hand.  The pile is where the points are, and a hand full of \
pairs is what takes it: every pair is a meld waiting for the right upcard.  Melding out fast \
leaves you with a few cards and no way to take a pile.

Make the initial meld with as few cards as you can.  Once your side has melded, an upcard that \
matches one of your melds takes the whole pile, as long as the pile is not frozen.

Watch what the player on your left discards and picks up, and do not feed them: a card they \
have melded or just taken the pile for is the worst discard you can make.  Safe discards are \
cards of ranks they have thrown away themselves.

Freeze the pile with a wild card when the other side is about to take a big one, or when they \
have melded and you have not.  A frozen pile can only be taken with a natural pair.

Black threes are the best stop cards: the next player cannot take the pile on them.  Keep one \
for the moment a fat pile would otherwise go to the other side.

Mixed canastas count; do not wait for a natural one when the other side is close to going out.  \
A side with a canasta can go out, and that decides how long the hand lasts.

Going out is not always best.  If your side is far ahead on the table, end the hand before the \
others catch up; if the other side has taken a big pile, go out as soon as you can to cut their \
score short.  Ask your partner ("May I go out?") when you are unsure whether they want the \
hand to end: asking is optional, and the answer binds you (a "yes" you do not keep costs 100).

Near 1500 and 3000 points the initial meld grows (50, 90, 120).  A side just under a \
threshold melds more easily in the next hand than one just over it.

Count the wild cards: there are twelve (eight deuces and four jokers).  Knowing how many are \
still out tells you how safe it is to let a pile grow.

A coach sits at the table: h on your turn shows what the Expert would play now and why, from \
what you can see.  With Review each hand on (Options), each hand ends with your decisions where \
the Expert would have played otherwise and the points each cost by its estimate (± its \
uncertainty), most costly first; Up and Down choose one and show the position you made it in."""


def strategy_lines(width: int) -> list[Line]:
    out: list[Line] = [Line("Playing well", "heading"), Line("-" * 12, "heading")]
    for para in STRATEGY.split("\n\n"):
        out += [*_para(para.replace("\n", " "), width), Line("")]
    return out[:-1]


def _faq_taking(rules: Rules) -> list[tuple[str, str]]:
    """The FAQ's questions about the pile and melds."""
    need = rules.requirement(0)
    if rules.wilds_allowed(2) >= 1 and not rules.pile_new_meld_needs_natural_pair:
        pair = "two natural cards of its rank from your hand (or one and a wild card, when the pile is not frozen)"
    else:
        pair = "two natural cards of its rank from your hand"
    canastas = "a canasta" if rules.canastas_to_go_out == 1 else "two canastas"
    return [
        ("Why can't I take the pile?",
         f"The upcard (the top card of the pile) must go into a meld at once: with {pair}, or onto your "
         "side's meld of its rank once your side has made its initial meld.  A wild card, a black three or "
         "a red three on top is a stop card: nobody may take the pile then.  Before your side's first meld "
         f"of the hand, the upcard and the cards you meld must together make the initial meld requirement "
         f"({need} points at the start of a match).  Press p: if it is refused, the message says why."),
        ("What is a frozen pile?",
         "A pile with a wild card in it (or a red three, or frozen from the deal by some rules) is frozen: "
         "the table shows FROZEN beside it.  It may be taken only with a natural pair of the upcard's rank "
         "from your hand, never onto a meld on the table and never with a wild card.  Until your side has "
         "made its initial meld, the pile is frozen for your side whatever it holds.  Taking it unfreezes it."),
        ("Why was my meld refused?",
         "The message says the rule.  The usual ones: a new meld needs three cards, at least two of them "
         f"natural (not deuces or jokers); a meld holds at most {rules.max_wilds} wild cards"
         + (" and never more wild cards than natural ones" if rules.wild_limit != "three" else "")
         + "; black threes meld only when you go out; your side's first meld of the hand must be worth the "
         f"initial meld requirement ({need} points at first: s shows each side's); and you may not meld your "
         f"last cards until your side has {canastas}.  Nothing is lost: the cards stay in your hand."),
    ]


def _faq_playing(rules: Rules) -> list[tuple[str, str]]:
    """The FAQ's questions about asking, threes, scoring, canastas and the end of the stock."""
    canastas = "a canasta" if rules.canastas_to_go_out == 1 else "two canastas"
    return [
        ("What does asking (y, Query) do?",
         'It asks your partner "May I go out, partner?" before you meld.  Asking is optional: you may go '
         "out without asking.  Their answer binds you: after a "
         f"yes you must go out this turn or your side pays {rules.permission_penalty} points; after a no you "
         "may not go out this turn.  Ask when going out now would help your side but your partner may hold "
         "many cards that would count against you.  Where a question can only cost you (you cannot go out "
         "this turn, or you could go out concealed, which needs none) y says so first, and n takes it back."),
        ("What do red and black threes do?",
         f"A red three is a bonus card: it is laid out at once and replaced from the stock, and counts "
         f"{rules.red_three_bonus} points for your side ({rules.red_three_all_four_bonus} for all four), but "
         f"{rules.red_three_penalty} against it if your side has made no meld when the hand ends.  A black three is a stop "
         "card: discarded, it stops the next player from taking the pile.  Black threes are melded only "
         "when going out, three or four of them."),
        ("How is a hand scored?",
         "Each side scores the cards it has melded (joker 50, deuce and ace 20, K to 8 10, 7 to 4 and "
         f"black threes 5), plus {rules.natural_canasta_bonus} for each natural canasta (seven cards, no "
         f"wild card), {rules.mixed_canasta_bonus} for each mixed one, {rules.going_out_bonus} for going "
         "out and the red threes, less the cards left in its players' hands.  The Scoring page has every "
         f"figure; the first side to {rules.target_score} wins the match."),
        ("What is a canasta?",
         "A meld of seven or more cards.  Your side needs " + canastas + " before any of you may go out, "
         "and canastas bring the big bonuses; the table marks them."),
        ("The stock ran out: what now?",
         "The hand ends when nobody can (or, with some rules, must) take the upcard.  "
         + ("With these rules a player whose side has a meld of the upcard's rank must take that card "
            "alone onto it (the pile not frozen), then discard."
            if rules.stock_exhausted == "top_card" else
            "With these rules a player whose side has a meld of the upcard's rank must take the pile onto "
            "it; otherwise they may take it for a new meld or end the hand (e)."
            if rules.stock_exhausted == "forced" else "The Rules page says what these rules do.")),
        ("Where do I learn by playing?",
         "A first game (in the start menu) is a short guided hand: it shows drawing, melding, the initial "
         "meld, the pile, a canasta, asking and going out, one step at a time.  At the table, h shows what "
         "the Expert would play and why."),
    ]


def faq_lines(rules: Rules, width: int) -> list[Line]:
    """The questions a player at their first game of Canasta asks, answered for the rules in play."""
    out: list[Line] = [Line("Questions a first game asks", "heading"), Line("-" * 27, "heading")]
    for q, a in [*_faq_taking(rules), *_faq_playing(rules)]:
        out += [Line(""), *[Line(t.strip(), "heading") for t in wrap(q, width)], *_para(a, width)]
    return out


#: Where a problem is reported: the README's section, which names the issue tracker; nothing in
#: the game sends anything anywhere.
REPORT = ("Open an issue on the issue tracker of the repository you got canasta from (the README's "
          "\"Report a problem\" section and man canasta say what to include): the version above, what you "
          "did and what you saw, the rules in play (canasta rules), and the game if you can (F4 saves it; "
          "canasta config shows where files live).  The game itself never sends anything anywhere.")


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("canasta-tui")
    except PackageNotFoundError:
        return "(not installed)"


def about_lines(rules_label: str, files: Sequence[tuple[str, str]], width: int) -> list[Line]:
    out = [Line(f"canasta-tui {version()}", "heading"), Line("")]
    out += _para("Four-player partnership Canasta at the terminal, played the way Hoyle and the 1994 DOS "
                 "game play it, with the rule options of Canasta for Windows 2.41.", width)
    out += [Line(""), Line("Licence: MIT."), Line(""), Line(f"Rules in play: {rules_label}"), Line("")]
    if files:
        out.append(Line("Where files live", "heading"))
        w = max(len(what) for what, _ in files)
        for what, where in files:
            out.append(Line(f"  {what:<{w}}  {printable(where)}"))
        out.append(Line(""))
    out += _para("canasta --help lists the options, man canasta is the manual, canasta config shows the "
                 "settings and canasta stats the statistics.", width)
    out += [Line(""), Line("Report a problem", "heading"), *_para(REPORT, width)]
    return out


# ---------------------------------------------------------------------- the help screen

class HelpPage(Page):
    """The help: one of :data:`PAGES` at a time, scrolled and searched."""

    title: ClassVar[str] = "Help"

    def __init__(self, rules: Rules, rules_label: str = "", files: Sequence[tuple[str, str]] = (), page: int = 0) -> None:
        super().__init__()
        self.rules = rules
        self.rules_label = rules_label or rules.name
        self.files = list(files)
        self.page = page
        self.top = 0
        self.search: LineEdit | None = None
        self.found = ""               # the last search (n finds the next)
        self.hit: int | None = None   # the line of the last match
        self._lines: list[Line] = []
        self._rows = 10               # body rows at the last paint
        self._width = 76              # text width at the last paint

    def lines(self, width: int) -> list[Line]:
        w = min(width, TEXT_MAX)
        p = PAGES[self.page]
        if p == "Rules":
            return markdown_lines(rules_text(), w) + options_lines(self.rules, self.rules_label, w)
        if p == "How to play":
            return how_to_play_lines(w)
        if p == "Scoring":
            return scoring_lines(self.rules, w)
        if p == "Strategy":
            return strategy_lines(w)
        if p == "FAQ":
            return faq_lines(self.rules, w)
        return about_lines(self.rules_label, self.files, w)

    def _go(self, page: int) -> None:
        self.page = page % len(PAGES)
        self.top, self.hit, self._lines = 0, None, []

    def on_key(self, name: str) -> None:
        if self.search is not None:
            done = self.search.key(name)
            if done == "enter":
                self.found = self.search.text.strip()
                self.search = None
                self._find(self.top if self.hit is None else self.hit + 1)
            elif done == "cancel":
                self.search = None
            return
        rows = max(1, self._rows)
        last = max(0, len(self._lines) - rows)
        if name in ("escape", "q"):
            self.done = True
        elif name in ("right", "tab", "l"):
            self._go(self.page + 1)
        elif name in ("left", "s-tab", "h"):
            self._go(self.page - 1)
        elif name.isdigit() and 1 <= int(name) <= len(PAGES):
            self._go(int(name) - 1)
        elif name in ("down", "j", "enter"):
            self.top = min(last, self.top + 1)
        elif name in ("up", "k"):
            self.top = max(0, self.top - 1)
        elif name in ("pagedown", "space"):
            self.top = min(last, self.top + rows)
        elif name in ("pageup", "b"):
            self.top = max(0, self.top - rows)
        elif name == "home":
            self.top = 0
        elif name == "end":
            self.top = last
        elif name == "/":
            self.search = LineEdit("", 40)
        elif name == "n" and self.found:
            self._find((self.hit + 1) if self.hit is not None else self.top)
        elif name == "N" and self.found:
            self._find((self.hit - 1) if self.hit is not None else self.top, step=-1)

    def _find(self, start: int, step: int = 1) -> None:
        """The next line (from ``start``, wrapping round) holding the search text; scroll to it."""
        want = self.found.lower()
        if not want:
            return
        if not self._lines:
            self._lines = self.lines(self._width)
        n = len(self._lines)
        for i in range(n):
            at = (start + step * i) % n
            if want in self._lines[at].text.lower():
                wrapped = (step > 0 and at < start) or (step < 0 and at > start)
                self.hit = at
                self.top = max(0, min(at - 2, n - self._rows))
                self.say(f"\"{self.found}\" found" + (" (from the top again)" if wrapped else "")
                         + ": n next, N previous")
                return
        self.hit = None
        self.say(f"\"{self.found}\" is not on this page", error=True)

    def header_right(self) -> str:
        if not self._lines:
            return ""
        end = min(len(self._lines), self.top + self._rows)
        return f"lines {self.top + 1}-{end} of {len(self._lines)}"

    def hints(self) -> Sequence[Hint]:
        if self.search is not None:
            return [Hint("Enter", "find"), Hint("Esc/Tab", "cancel")]
        return [Hint("Left/Right", "page"), Hint("Up/Down PgUp/PgDn", "scroll"), Hint("/", "search"),
                Hint("n", "next"), Hint("Esc/q", "back")]

    def draw(self, cv: Canvas, opts: Options) -> None:
        # Laid out first: the header says which lines show.
        self._width = cv.width - 4
        self._lines = [Line(glyph_text(ln.text, opts.glyphs), ln.style) for ln in self.lines(self._width)]
        self._rows = max(1, cv.height - 6)
        self.top = max(0, min(self.top, len(self._lines) - self._rows))
        super().draw(cv, opts)

    def draw_body(self, cv: Canvas, opts: Options, top: int, rows: int) -> None:
        x = 1
        for i, name in enumerate(PAGES):
            label = f"{i + 1} {name}"
            if i == self.page:
                x = cv.put(top, x, f"[{label}]", "cursor")
            else:
                x = cv.put(top, x, f" {label} ", "dim")
            x += 1
        cv.put(top + 1, 0, opts.glyphs.hline * cv.width, "dim")
        left = 2 if cv.width - 4 <= TEXT_MAX else (cv.width - TEXT_MAX) // 2
        for row in range(self._rows):
            i = self.top + row
            if i >= len(self._lines):
                break
            ln = self._lines[i]
            cv.put(top + 2 + row, left, ln.text, ln.style)
            if self.hit == i and self.found:
                at = ln.text.lower().find(self.found.lower())
                if at >= 0:
                    cv.put(top + 2 + row, left + at, ln.text[at:at + len(self.found)], "cursor")
        if self.search is not None:
            cv.fill(cv.height - 2, 0, cv.width, 1)
            cv.put(cv.height - 2, 1, "Search: " + self.search.text + "_", "message")


__all__ = ["PAGES", "REPORT", "HelpPage", "Line", "about_lines", "faq_lines", "how_to_play_lines", "markdown_lines", "rules_text",
           "scoring_lines", "strategy_lines", "version"]
