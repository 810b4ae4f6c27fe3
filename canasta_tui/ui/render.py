"""View model -> text: pure functions that draw the table onto a character canvas.

``render(controller, width, height, options)`` returns a :class:`Canvas`; its
``text()`` is what the tests compare and its ``fragments()`` is what prompt-toolkit
paints.  Only the viewer's :class:`PlayerView` is read for hands: other hands are
drawn as folded counts, so hidden information never reaches the screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..engine import Phase, PlayerView, player_name, team_name
from ..engine import team as team_of_seat
from ..engine.cards import IS_BLACK_THREE, IS_RED_THREE, IS_WILD, RANK_NAMES, RANK_OF, SUIT_OF
from ..engine.melds import Meld
from .keys import BAR, KEYS
from .style import ASCII, UNICODE, Glyphs

MIN_W, MIN_H = 80, 24
MELD_ORDER = (1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 3, 2)

Handler = Callable[[Any], object]


@dataclass(frozen=True)
class Options:
    glyphs: Glyphs = UNICODE
    four_color: bool = False
    mouse: bool = False


DEFAULT_OPTIONS = Options()
ASCII_OPTIONS = Options(ASCII)


class Canvas:
    """A grid of cells (character, style class, mouse handler)."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.chars = [[" "] * width for _ in range(height)]
        self.styles = [[""] * width for _ in range(height)]
        self.handlers: dict[tuple[int, int], Handler] = {}
        self.glyphs: Glyphs = UNICODE

    def put(self, y: int, x: int, text: str, style: str = "", handler: Handler | None = None) -> int:
        """Write ``text`` at row ``y``, column ``x`` (clipped); returns the column after it."""
        if not 0 <= y < self.height:
            return x + len(text)
        row, srow = self.chars[y], self.styles[y]
        for i, ch in enumerate(text):
            xx = x + i
            if 0 <= xx < self.width:
                row[xx] = ch
                srow[xx] = style
                if handler is not None:
                    self.handlers[(y, xx)] = handler
        return x + len(text)

    def fill(self, y: int, x: int, w: int, h: int, style: str = "") -> None:
        for yy in range(y, y + h):
            self.put(yy, x, " " * w, style)

    def text(self) -> str:
        return "\n".join("".join(r).rstrip() for r in self.chars)

    def lines(self) -> list[str]:
        return ["".join(r) for r in self.chars]

    def fragments(self) -> list[tuple[str, str] | tuple[str, str, Handler]]:
        out: list[tuple[str, str] | tuple[str, str, Handler]] = []
        for y in range(self.height):
            row, srow = self.chars[y], self.styles[y]
            start = 0
            for x in range(1, self.width + 1):
                if x == self.width or srow[x] != srow[start] or \
                        self.handlers.get((y, x)) is not self.handlers.get((y, start)):
                    h = self.handlers.get((y, start))
                    style = "class:" + srow[start] if srow[start] else ""
                    text = "".join(row[start:x])
                    out.append((style, text, h) if h is not None else (style, text))
                    start = x
            if y < self.height - 1:
                out.append(("", "\n"))
        return out


# ---------------------------------------------------------------------- small pieces

def card_label(c: int, g: Glyphs) -> str:
    r = RANK_OF[c]
    if r == 14:
        return "JK"
    return RANK_NAMES[r] + g.suits[SUIT_OF[c]]


def card_style(c: int, opts: Options) -> str:
    if IS_WILD[c]:
        return "wild"
    s = SUIT_OF[c]
    if opts.four_color:
        return ("suit.c", "suit.d", "suit.red", "suit.black")[s]
    return "suit.red" if s in (1, 2) else "suit.black"


def meld_line(m: Meld, width: int, g: Glyphs) -> tuple[str, str]:
    """One meld, compact: rank, how many naturals, the wild cards, the canasta kind.

    The widest form that fits ``width`` is used (``K ×5 +2 JK  ★mixed``, then shorter
    spellings), so a partnership's melds read the same at every size.
    """
    name = "W" if m.is_wild_meld else RANK_NAMES[m.rank]
    times = "×" if g is UNICODE else "x"
    wild_names = ["JK" if RANK_OF[w] == 14 else "2" for w in m.wilds]
    style = ""
    if m.is_canasta:
        style = "canasta.mixed" if not m.is_natural and not m.is_wild_meld else "canasta.natural"
    candidates = []
    for tag in (canasta_tag(m, g), canasta_tag(m, g, short=True)):
        for wild in (" +" + " ".join(wild_names), " +" + ",".join(wild_names), f" +{len(wild_names)}w"):
            left = f"{name:>2} {times}{len(m.naturals)}" + (wild if wild_names else "")
            candidates.append((left, tag))
    for left, tag in candidates:
        if len(left) + 1 + len(tag) <= width:
            gap = width - len(left) - len(tag)
            return left + " " * gap + tag, style
    left, tag = candidates[-1]
    return (left + " " + tag)[:width], style


def folded(n: int) -> str:
    return f"{n} card" + ("" if n == 1 else "s")


def frozen_reason(v: PlayerView) -> str:
    if not v.frozen:
        return ""
    if any(IS_WILD[c] for c in v.pile):
        return "frozen: wild card in pile"
    if any(IS_RED_THREE[c] for c in v.pile):
        return "frozen: red three in pile"
    return "frozen"


def stop_card(v: PlayerView) -> str:
    up = v.upcard
    if up is None:
        return ""
    if IS_BLACK_THREE[up]:
        return "stop card: black three"
    if IS_WILD[up]:
        return "stop card: wild card"
    return ""


_TO_ASCII = str.maketrans({"♣": "c", "♦": "d", "♥": "h", "♠": "s", "—": "-", "…": "...", "“": '"', "”": '"'})


def glyph_text(text: str, g: Glyphs) -> str:
    """Text written with suit symbols, in the glyphs of this screen (letters for --ascii)."""
    return text.translate(_TO_ASCII) if g is ASCII else text


def wrap(text: str, width: int) -> list[str]:
    """Split ``text`` into lines of at most ``width`` (continuation lines indented)."""
    out: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = "  " + word
        else:
            line = f"{line} {word}" if line else word
    out.append(line[:width])
    return out


# ---------------------------------------------------------------------- the table

def render(ctl: Any, width: int, height: int, opts: Options | None = None) -> Canvas:
    """The whole screen for the controller's current state."""
    opts = opts or DEFAULT_OPTIONS
    cv = Canvas(width, height)
    cv.glyphs = opts.glyphs
    if width < MIN_W or height < MIN_H:
        msg = f"terminal too small (need {MIN_W}x{MIN_H})"
        sub = f"now {width}x{height}; q quits"
        if ctl.dialog is not None and ctl.dialog.kind == "quit":
            sub = "Quit the game? y: quit, n: keep playing"
        cv.put(height // 2 - 1, max(0, (width - len(msg)) // 2), msg, "error")
        cv.put(height // 2, max(0, (width - len(sub)) // 2), sub)
        return cv
    d = ctl.dialog
    if d is not None and d.kind == "privacy":
        draw_privacy(cv, ctl, d.seat)
        return cv
    if d is not None and d.kind == "quit" and d.back is not None and d.back.kind == "privacy":
        # Quitting from the privacy screen: the table stays hidden behind the question.
        draw_dialog(cv, ctl, ctl.table_view(), opts)
        return cv
    v: PlayerView = ctl.table_view()
    draw_table(cv, ctl, v, opts)
    if d is not None:
        draw_dialog(cv, ctl, v, opts)
    elif ctl.message:
        lines = [w for t in ctl.message for w in wrap(glyph_text(t, opts.glyphs), cv.width - 10)]
        draw_box(cv, "", lines + ["", "(press any key)"], style="message")
    return cv


def draw_privacy(cv: Canvas, ctl: Any, seat: int) -> None:
    name = ctl.session.name(seat)
    s = ctl.session.state
    what = "is up" if s.phase != Phase.PERMISSION else "is asked a question"
    g = cv.glyphs.dash
    lines = [f"{name} {what} {g} press Enter", "", "(everybody else: please look away)"]
    for i, line in enumerate(lines):
        cv.put(cv.height // 2 - 1 + i, max(0, (cv.width - len(line)) // 2), line, "message" if i == 0 else "")


class Region:
    """A rectangle of a canvas: whatever is drawn through it is clipped to it, so regions never overlap."""

    def __init__(self, cv: Canvas, x: int, y: int, w: int, h: int) -> None:
        self.cv, self.x, self.y, self.w, self.h = cv, x, y, max(0, w), max(0, h)

    def put(self, row: int, col: int, text: str, style: str = "", handler: Handler | None = None) -> int:
        """Write ``text`` at (row, col) inside the region, clipped to it; returns the column after it."""
        end = col + len(text)
        if not 0 <= row < self.h or col >= self.w:
            return end
        if col < 0:
            text, col = text[-col:], 0
        self.cv.put(self.y + row, self.x + col, text[: self.w - col], style, handler)
        return end

    def parts(self, row: int, col: int, parts: Sequence[tuple[str, str]]) -> int:
        for text, style in parts:
            col = self.put(row, col, text, style)
        return col

    def heading(self, row: int, title: str, right: str = "") -> None:
        g = self.cv.glyphs
        line = f"{g.hline} {title} " + g.hline * self.w
        if right:
            line = line[: max(0, self.w - len(right) - 2)] + f" {right} " + g.hline
        self.put(row, 0, line[: self.w], "heading")


class Rect(NamedTuple):
    x: int
    y: int
    w: int
    h: int


def table_layout(width: int, height: int, teams: int) -> tuple[list[Rect], Rect, list[int]]:
    """Where the partnerships' panels and the centre (pile and log) go.

    Returns (one panel per position, the centre, the team shown at each position).  The
    columns are separated by one blank column; the centre sits between the other side(s)
    and Players 1 & 3 (or Player 1), who sit on the right, nearest the hand.
    """
    order = list(range(1, teams)) + [0]          # team at each panel position
    cols = teams + 1
    top, h = 1, height - 7 - hand_extra(width, height)
    avail = width - (cols - 1)
    widths = [avail // cols + (1 if i < avail % cols else 0) for i in range(cols)]
    centre_at = 1
    rects: list[Rect] = []
    x = 0
    centre = Rect(0, 0, 0, 0)
    for i, w in enumerate(widths):
        if i == centre_at:
            centre = Rect(x, top, w, h)
        else:
            rects.append(Rect(x, top, w, h))
        x += w + 1
    return rects, centre, order


def short_team(t: int, rules: Any) -> str:
    """A side's short name: ``1&3``/``2&4`` for partnerships, ``P2`` for a player alone."""
    if rules.partnerships:
        return "1&3" if t == 0 else "2&4"
    return f"P{t + 1}"


def hand_extra(width: int, height: int) -> int:
    """Extra rows the hand gets on a big terminal, where cards are drawn framed (0 at 80x24)."""
    return 2 if width >= 100 and height >= 34 else 0


def _kind(ctl: Any, seat: int) -> str:
    s = ctl.session
    if not s.is_human(seat):
        return "computer"
    if ctl.viewer == seat and len(s.humans) == 1:
        return "you"
    return "human"


def draw_seat(r: Region, row: int, ctl: Any, v: PlayerView, seat: int, opts: Options) -> None:
    """Two lines for one player: turn light, name, folded hand; who plays it, dealer, red threes."""
    g = opts.glyphs
    active = v.phase != Phase.HAND_OVER and (v.turn == seat or (v.actor == seat and v.phase == Phase.PERMISSION))
    light = (g.light_on, "light.on") if active else (g.light_off, "light.off")
    count = folded(v.hand_sizes[seat])
    name = ctl.session.name(seat)
    room = r.w - 2 - len(count) - 1
    if len(name) > room:
        name = name[: max(1, room - 1)] + g.ellipsis[:1]
    r.put(row, 0, light[0] + " ", light[1])
    r.put(row, 2, name, "name.active" if active else "name")
    r.put(row, max(2 + len(name) + 1, r.w - len(count)), count, "count")
    kind = "  " + _kind(ctl, seat)
    infos = [kind + ", dealer", "  dealer"] if v.dealer == seat else [kind]
    threes = " ".join(card_label(c, g) for c in v.red_threes[seat])
    if threes and len(infos[-1]) + 1 + len(threes) > r.w:
        threes = "".join(card_label(c, g) for c in v.red_threes[seat])
    room = r.w - (len(threes) + 1 if threes else 0)
    info = next((t for t in infos if len(t) <= room), infos[-1][:room])
    if threes:
        r.put(row + 1, r.w - len(threes), threes, "suit.red")
    r.put(row + 1, 0, info, "dim")


def draw_team(r: Region, ctl: Any, v: PlayerView, team: int, opts: Options) -> None:
    rules = v.rules
    canastas = sum(1 for m in v.melds[team] if m is not None and m.is_canasta)
    right = f"{canastas} canasta" + ("" if canastas == 1 else "s") if canastas else ""
    r.heading(0, team_name(team, rules), right if len(team_name(team, rules)) + len(right) + 6 <= r.w else "")
    seats = (team, team + 2) if rules.partnerships else (team,)
    # The player sitting opposite the bottom seat first, as at the table: 3 above 1, 2 above 4.
    row = 1
    for seat in sorted(seats, key=lambda s: (s == 0, s)):
        draw_seat(r, row, ctl, v, seat, opts)
        row += 2
    draw_melds(r, row, v, team, opts)


def draw_melds(r: Region, row: int, v: PlayerView, team: int, opts: Options) -> None:
    g = opts.glyphs
    melds = [m for rk in MELD_ORDER if (m := v.melds[team][rk]) is not None]
    r.put(row, 0, (f"{g.hline} melds " + g.hline * r.w)[: r.w], "dim")
    row += 1
    rows = r.h - row
    if not melds:
        r.put(row, 1, "no melds yet", "dim")
        return
    show_cards = all(len(meld_cards(m, g)) + 1 + len(canasta_tag(m, g)) <= r.w for m in melds)
    shown = melds if len(melds) <= rows else melds[: max(0, rows - 1)]
    for i, m in enumerate(shown):
        draw_meld(r, row + i, m, opts, show_cards)
    if len(shown) < len(melds):
        r.put(row + rows - 1, 1, f"{g.ellipsis}{len(melds) - len(shown)} more", "dim")


def meld_cards(m: Meld, g: Glyphs) -> str:
    return " ".join(card_label(c, g) for c in (*m.naturals, *m.wilds))


def canasta_tag(m: Meld, g: Glyphs, short: bool = False) -> str:
    if not m.is_canasta:
        return ""
    kind = "wild" if m.is_wild_meld else ("natural" if m.is_natural else "mixed")
    return g.star + (kind[:3] if short else kind)


def draw_meld(r: Region, row: int, m: Meld, opts: Options, show_cards: bool) -> None:
    g = opts.glyphs
    tag = canasta_tag(m, g)
    style = "" if not tag else ("canasta.mixed" if "mixed" in tag else "canasta.natural")
    if show_cards:
        x = 0
        for c in (*m.naturals, *m.wilds):
            x = r.put(row, x, card_label(c, g), card_style(c, opts)) + 1
        if tag:
            r.put(row, r.w - len(tag), tag, style)
        return
    text, style = meld_line(m, r.w, g)
    r.put(row, 0, text, style)


def draw_centre(r: Region, ctl: Any, v: PlayerView, opts: Options) -> None:
    """The middle of the table: stock, pile and upcard, frozen and stop-card notes, meld needs; the log."""
    g = opts.glyphs
    rules = v.rules
    r.heading(0, "Table")
    r.put(1, 0, f"Stock {v.stock_size:<4}Pile {v.pile_size}")
    x = r.put(2, 0, "Upcard ")
    up = v.upcard
    if up is None:
        r.put(2, x, f"{g.dash} (empty)", "dim")
    else:
        r.put(2, x, card_label(up, g), card_style(up, opts))
    # The rest of a pile taken for an initial meld, held back until the meld is met (Windows 2.41).
    waiting = f"held back: {v.waiting} pile card{'s' if v.waiting != 1 else ''}" if v.waiting else ""
    notes = [t for t in (frozen_reason(v), stop_card(v), waiting) if t]
    if notes:
        for i, t in enumerate(notes[:2]):
            r.put(3 + i, 0, t.upper() if i == 0 and v.frozen else t, "frozen" if t != waiting else "count")
    else:
        r.put(3, 0, "pile not frozen", "dim")
    # A side that has melded needs nothing more this hand: say so instead of its old requirement.
    def made(t: int) -> bool:
        # The turn's own side has made it only once this turn's melds meet the requirement.
        short = t == team_of_seat(v.turn, rules) and v.meld_needed > v.meld_count
        return any(m is not None for m in v.melds[t]) and not short

    needs = ["made" if made(t) else str(v.requirements[t]) for t in range(rules.teams)]
    r.put(5, 0, "Initial melds:" if all(n == "made" for n in needs) else "Initial meld needs:")
    need = "   ".join(f"{short_team(t, rules)}: {needs[t]}" for t in range(rules.teams))
    if len(need) + 2 > r.w:
        need = " ".join(f"{short_team(t, rules)} {needs[t]}" for t in range(rules.teams))
    r.put(6, 0, ("  " + need) if len(need) + 2 <= r.w else need)
    top = 7
    r.heading(top, "Log")
    rows = r.h - top - 1
    # The newest entries that fit, each whole (no entry starts half-way down its wrapped lines).
    lines: list[str] = []
    for line in reversed(ctl.session.log):
        wrapped = wrap(glyph_text(line.text, g), r.w)
        if len(lines) + len(wrapped) > rows:
            if not lines:
                lines = wrapped[-rows:] if rows > 0 else []
            break
        lines[:0] = wrapped
    for i, text in enumerate(lines):
        r.put(top + 1 + i, 0, text)


def draw_table(cv: Canvas, ctl: Any, v: PlayerView, opts: Options) -> None:
    g = opts.glyphs
    W, H = cv.width, cv.height
    s = ctl.session
    rules = v.rules
    scores = s.match.scores
    # Header: the rules and hand on the left, the match score on the right (never overlapping).
    cv.fill(0, 0, W, 1, "header")
    right = "   ".join(f"{short_team(t, rules)}: {scores[t]}" for t in range(rules.teams)) + " "
    right = right[-W:]
    cv.put(0, W - len(right), right, "header")
    Region(cv, 0, 0, W - len(right) - 1, 1).put(
        0, 0, f" CANASTA {g.dash} {rules.name} rules {g.dash} hand {s.match.hand_number}", "header")

    panels, centre, order = table_layout(W, H, rules.teams)
    for rect, team in zip(panels, order, strict=True):
        draw_team(Region(cv, *rect), ctl, v, team, opts)
    draw_centre(Region(cv, *centre), ctl, v, opts)
    for rect in sorted([*panels, centre])[:-1]:
        for yy in range(rect.y, rect.y + rect.h):
            cv.put(yy, rect.x + rect.w, g.vline, "dim")

    # Bottom: whose hand this is, the live meld count, then the hand itself.
    hand_y = H - 6 - hand_extra(W, H)
    row = Region(cv, 0, hand_y, W, 1)
    row.put(0, 0, g.hline * W, "dim")
    if ctl.viewer is not None and v.hand:
        who = "Your hand" if len(s.humans) == 1 else f"{s.name(ctl.viewer)}'s hand"
        x = row.put(0, 1, f" {who} ({folded(len(v.hand))}) ", "name")
        info = []
        if v.turn == ctl.viewer and v.meld_needed and v.phase != Phase.HAND_OVER:
            info.append(f"meld count: {v.meld_count} / {v.meld_needed} needed")
        if ctl.selected:
            info.append(f"selected: {len(ctl.selected)}")
        if info:
            text = " " + "   ".join(info) + " "
            row.put(0, max(x + 1, W - len(text) - 1), text, "count")
    draw_hand(cv, ctl, v, opts, hand_y + 1)
    Region(cv, 0, H - 2, W, 1).put(0, 0, glyph_text(ctl.status(), g), "hint")
    draw_bar(cv, ctl, H - 1, opts)


def draw_hand(cv: Canvas, ctl: Any, v: PlayerView, opts: Options, y: int) -> None:
    """The viewer's hand: three rows (selected cards raised, the cards, cursor and new marks)."""
    g = opts.glyphs
    hand = ctl.hand()
    W = cv.width
    if not hand:
        cv.put(y + 1, 2, "(no hand shown)", "dim")
        return
    new = ctl.new_cards()
    framed = hand_extra(W, cv.height) > 0
    cell = max(4, min(6, (W - 2) // len(hand))) if not framed else max(6, min(8, (W - 2) // len(hand)))
    fit = (W - 2) // cell
    start = 0
    if len(hand) > fit:
        start = min(max(0, ctl.cursor - fit // 2), len(hand) - fit)
        if start > 0:
            cv.put(y + 1, 0, g.left_more, "dim")
        if start + fit < len(hand):
            cv.put(y + 1, W - 1, g.right_more, "dim")
    for i in range(start, min(len(hand), start + fit)):
        c = hand[i]
        x = 1 + (i - start) * cell
        row = y if i in ctl.selected else y + 1
        style = card_style(c, opts)
        if i == ctl.cursor:
            style = "cursor"
        elif new[i]:
            style = f"{style},new" if style else "new"
        handler = _card_handler(ctl, i) if opts.mouse else None
        if framed:
            # A small card: frame, then the label; selected cards stand one row higher.
            top = y if i in ctl.selected else y + 1
            frame = "box" if i != ctl.cursor else "cursor"
            cv.put(top, x, g.corners[0] + g.hline * 3 + g.corners[1], frame, handler)
            cv.put(top + 1, x, g.vline, frame, handler)
            cv.put(top + 1, x + 1, f"{card_label(c, g):<3}", style, handler)
            cv.put(top + 1, x + 4, g.vline, frame, handler)
            cv.put(top + 2, x, g.corners[2] + g.hline * 3 + g.corners[3], frame, handler)
            other = y + 3 if top == y else y
            cv.put(other, x, "     ", "", handler)
            mark = (g.cursor if i == ctl.cursor else " ") + (g.new if new[i] else " ")
            cv.put(y + 4, x + 1, mark, "count", handler)
            continue
        cv.put(row, x, f"{card_label(c, g):<3}", style, handler)
        if handler is not None:
            other = y + 1 if row == y else y
            cv.put(other, x, "   ", "", handler)
        mark = (g.cursor if i == ctl.cursor else " ") + (g.new if new[i] else " ")
        cv.put(y + 2, x, mark, "count", handler)


def _card_handler(ctl: Any, i: int) -> Handler:
    from prompt_toolkit.mouse_events import MouseEventType

    def handler(ev: Any) -> object:
        if ev.event_type == MouseEventType.MOUSE_UP:
            ctl.click_card(i)
            return None
        return NotImplemented
    return handler


def _bar_handler(ctl: Any, cmd: str) -> Handler:
    from prompt_toolkit.mouse_events import MouseEventType

    def handler(ev: Any) -> object:
        if ev.event_type == MouseEventType.MOUSE_UP:
            ctl.command(cmd)
            return None
        return NotImplemented
    return handler


def bar_items(ctl: Any) -> list[tuple[str, str, bool]]:
    """The command bar: (command, label, lit)."""
    lit = ctl.lit()
    items = [(cmd, label, lit[cmd]) for cmd, label in BAR]
    if lit["end"]:
        items.insert(4, ("end", "[E]nd", True))
    if lit["unpile"]:
        items.insert(4, ("unpile", "[B]ack", True))
    return items


def draw_bar(cv: Canvas, ctl: Any, y: int, opts: Options) -> None:
    """The command bar: lit commands show their hotkey in brackets, dark ones are dimmed.

    Items keep their width whether lit or not, so nothing moves when the lights change;
    when the extra items (Back, End) make it too wide, the gaps shrink.
    """
    items = bar_items(ctl)
    total = sum(len(label) for _, label, _ in items)
    gap = 1 if total + len(items) - 1 <= cv.width else 0
    x = 0
    for cmd, label, on in items:
        handler = _bar_handler(ctl, cmd) if opts.mouse else None
        if on:
            a, rest = label.split("[", 1)
            key, b = rest.split("]", 1)
            x = cv.put(y, x, a, "bar.on", handler)
            x = cv.put(y, x, "[" + key + "]", "bar.key", handler)
            x = cv.put(y, x, b, "bar.on", handler)
        else:
            x = cv.put(y, x, " " + label.replace("[", "").replace("]", "") + " ", "bar.off", handler)
        x += gap


# ---------------------------------------------------------------------- dialogs

def draw_box(cv: Canvas, title: str, lines: Sequence[str], style: str = "box", width: int | None = None) -> None:
    g = cv.glyphs
    g_h, g_v, corners = g.hline, g.vline, g.corners
    inner = width or min(cv.width - 6, max([len(t) for t in lines] + [len(title) + 2, 20]) + 2)
    inner = min(inner, cv.width - 4)
    shown = list(lines)[: cv.height - 4]
    h = len(shown) + 2
    x = (cv.width - inner - 2) // 2
    y = max(1, (cv.height - h) // 2 - 1)
    cv.put(y, x, corners[0] + g_h * inner + corners[1], style)
    if title:
        cv.put(y, x + 2, f" {title} ", "box.title")
    for i, text in enumerate(shown):
        cv.put(y + 1 + i, x, g_v + " " + text[: inner - 2].ljust(inner - 2) + " " + g_v, style)
    cv.put(y + h - 1, x, corners[2] + g_h * inner + corners[3], style)


def draw_dialog(cv: Canvas, ctl: Any, v: PlayerView, opts: Options) -> None:
    d = ctl.dialog
    k = d.kind
    s = ctl.session
    rules = s.rules
    if k == "help":
        lines = help_lines(cv.width - 8)
        per = cv.height - 6
        pages = max(1, (len(lines) + per - 1) // per)
        page = min(d.page, pages - 1)
        body = lines[page * per:(page + 1) * per]
        body += ["", f"page {page + 1}/{pages}: Space next page, any other key closes"]
        draw_box(cv, "Keys", body, width=cv.width - 4)
    elif k == "score":
        draw_box(cv, "Score", score_lines(ctl) + ["", "(press any key)"])
    elif k in ("sheet", "sheet_end"):
        foot = "Enter: next hand" if k == "sheet_end" else "(press any key)"
        if k == "sheet_end" and s.match.winner is not None:
            foot = "Enter: continue"
        room = 4 if k == "sheet_end" else cv.height - 12
        draw_box(cv, "Score sheet", sheet_lines(ctl, room) + ["", foot])
    elif k == "summary":
        names = [s.name(p) for p in range(rules.players)]
        lines = summary_table(s.state, s.match.sheet[-1], names, cv.width, cv.height, opts.glyphs,
                              getattr(ctl, "sort", "rank"))
        cv.fill(0, 0, cv.width, cv.height)
        for y, text in enumerate(lines):
            cv.put(y, 0, text, "heading" if y == 0 or text.startswith(opts.glyphs.hline) else "")
    elif k == "match_over":
        w = s.match.winner
        totals = s.match.scores
        lines = [f"{team_name(w, rules)} win the match!" if w is not None else "The match is over", ""]
        lines += [f"{team_name(t, rules)}: {totals[t]}" for t in range(rules.teams)]
        draw_box(cv, "Game over", lines + ["", "Enter: leave the table"])
    elif k == "quit":
        draw_box(cv, "Quit", ["Quit the game?", "", "y: quit    n: keep playing"])
    elif k == "confirm":
        draw_box(cv, "Before you do", d.text.split("\n"))
    elif k == "answer":
        asker = s.name(s.state.turn)
        draw_box(cv, "Query", [f"{asker} asks: \"May I go out, partner?\"", "",
                               "y: Yes (they must go out)    n: No"])
    elif k == "pile_choice":
        lines = ["How do you want to take the pile?", ""]
        for i, a in enumerate(d.options, 1):
            lines.append(f"{i}: " + pile_option_text(a, v, opts.glyphs))
        if rules.undo_pile_allowed and not v.t.opened_at_start:
            # Windows 2.41: the pile can be put back only until its rest is in the hand, which for
            # a side that has melded is at once; for one that has not, when its initial meld is met.
            lines += ["", f"(b puts the pile back until your initial meld is met, for a "
                          f"{rules.undo_pile_penalty}-point penalty)"]
        lines += ["", "Esc or n: cancel"]
        draw_box(cv, "Take the pile", lines)
    elif k == "wild_target":
        draw_box(cv, "Wild card", [f"Add {card_label(d.card, opts.glyphs)} to which meld?",
                                   "Press its rank: A 4-9 0(=10) J Q K" + (" W(ild meld)" if rules.wild_melds_allowed else ""),
                                   "", "any other key: cancel"])
    elif k == "log":
        lines = [glyph_text(line.text, opts.glyphs) for line in s.log][-(cv.height - 8):]
        draw_box(cv, "Table log", lines + ["", "(press any key)"])
    elif k == "save_name":
        where = ctl.files.where() if ctl.files is not None else ""
        field = (d.text + "_").ljust(42)
        lines = ["Save the game as:", "", "> " + field, ""]
        lines.append("Enter: save    Esc: cancel" if d.text.strip() else "Type a name (Esc: cancel)")
        lines += ["", f"(in {where}; a name with / is a path)"]
        draw_box(cv, "Save", lines)
    elif k == "load_list":
        draw_box(cv, "Load a saved game", load_lines(d.items, d.page, cv.height - 10, cv.width - 10),
                 width=cv.width - 6)


def load_lines(items: Sequence[Any], current: int, rows: int, width: int) -> list[str]:
    """The F3 list: name, hand and score, date; the highlighted line marked with ``>``."""
    import time

    rows = max(1, rows)
    start = min(max(0, current - rows // 2), max(0, len(items) - rows))
    out = []
    shown = range(start, min(len(items), start + rows))
    sw = max((len(items[i].summary) for i in shown), default=0)
    for i in shown:
        it = items[i]
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(it.modified))
        room = max(8, width - len(when) - sw - 6)
        name = it.name if len(it.name) <= room else it.name[: room - 1] + "~"
        mark = ">" if i == current else " "
        out.append(f"{mark} {name:<{room}}  {it.summary:<{sw}}  {when}"[:width])
    more = len(items) - rows
    out += ["", (f"{len(items)} saved games; " if more > 0 else "") + "Up/Down: choose  Enter: load  Esc or q: back"]
    return out


def pile_option_text(a: Any, v: PlayerView, g: Glyphs) -> str:
    up = card_label(v.upcard, g) if v.upcard is not None else "?"
    if not a.ranks:
        return f"put the upcard {up} on your side's meld"
    return f"meld the upcard {up} with your " + " ".join(RANK_NAMES[r] for r in a.ranks)


def help_lines(width: int = 200) -> list[str]:
    """The help screen's lines (every key of :data:`KEYS`), descriptions wrapped to ``width``."""
    out: list[str] = []
    section = ""
    for k in KEYS:
        if k.section != section:
            if out:
                out.append("")
            out.append(k.section + ":")
            section = k.section
        desc = wrap(k.description, max(20, width - 14))
        out.append(f"  {k.label:<11} {desc[0]}")
        out.extend(" " * 14 + d.strip() for d in desc[1:])
    return out


def score_lines(ctl: Any) -> list[str]:
    s = ctl.session
    rules = s.rules
    st = s.state
    totals = s.match.scores
    out = [f"{'':<16}" + "".join(f"{team_name(t, rules):>15}" for t in range(rules.teams))]
    out.append(f"{'Score':<16}" + "".join(f"{totals[t]:>15}" for t in range(rules.teams)))
    out.append(f"{'Initial meld':<16}" + "".join(f"{st.requirements[t]:>15}" for t in range(rules.teams)))
    out.append(f"{'Canastas':<16}" + "".join(f"{st.canastas(t):>15}" for t in range(rules.teams)))
    out.append(f"{'Hands played':<16}{len(s.match.sheet):>15}")
    out.append(f"The match is played to {rules.target_score}.")
    return out


def sheet_lines(ctl: Any, room: int) -> list[str]:
    """The score sheet: per hand and side the bonuses and the net cards (melded cards less the
    cards in hand less penalties) and the running total, as the DOS sheet; at least the last
    four hands; then the totals and each side's initial meld requirement for the next hand."""
    s = ctl.session
    rules = s.rules
    sheet = s.match.sheet
    col = 21
    out = [f"{'':<13}" + "".join(f"{team_name(t, rules):>{col}}" for t in range(rules.teams))]
    out.append(f"{'Hand Dealer':<13}" + f"{'bonus   net  total':>{col}}" * rules.teams)
    keep = max(4, room - 5)
    shown = sheet[-keep:]
    if len(shown) < len(sheet):
        out.append(f"({len(sheet) - len(shown)} earlier hands: t shows more on a taller screen)")
    for rec in shown:
        cells = ""
        for ts, total in zip(rec.scores, rec.totals, strict=True):
            bonus = ts.canasta_bonus + ts.red_three_points + ts.going_out
            net = ts.melds - ts.hand - ts.penalties
            cells += f"{bonus:>{col - 14}}{net:>6}{total:>7}"
        out.append(f"{rec.number:<5}{player_name(rec.dealer):<8}" + cells)
    totals = s.match.scores
    out.append(f"{'Totals':<13}" + "".join(f"{t:>{col}}" for t in totals))
    out.append(f"{'Next needs':<13}" + "".join(f"{rules.requirement(t):>{col}}" for t in totals))
    return out


def summary_table(state: Any, rec: Any, names: Sequence[str], width: int, height: int,
                  g: Glyphs = UNICODE, sort: str = "rank") -> list[str]:
    """The DOS "Scoring Summary Table" of a finished hand, one screen.

    One half per side (Players 1 & 3 on top, Players 2 & 4 below): the side's combined melds
    down the left (rank and count), the cards left in each partner's hand in the middle, the
    scoring summary on the right.
    """
    from .controller import sort_hand

    rules = state.rules
    teams = rules.teams
    left_w, right_w = 22, 24
    mid_w = width - left_w - right_w - 2
    how = (f"{names[rec.went_out]} went out" + (" concealed" if state.concealed else "")
           if rec.went_out >= 0 else f"the hand ended: {rec.end_reason}")
    out = [f" Hand {rec.number} is over {g.dash} {how}"[:width]]
    half = max(4, (height - 3 - teams) // teams)
    for t in range(teams):
        title = f"{g.hline} {team_name(t, rules)} "
        out.append((title + g.hline * width)[:width])
        melds = [m for rk in MELD_ORDER if (m := state.melds[t][rk]) is not None]
        left = [meld_line(m, left_w, g)[0] for m in melds] or ["no melds"]
        if len(left) > half:
            # Too many for one column: two narrow ones, "K×5+2w" and a star for a canasta.
            short = [f"{'W' if m.is_wild_meld else RANK_NAMES[m.rank]:>2}×{len(m.naturals)}"
                     .replace("×", "×" if g is UNICODE else "x")
                     + (f"+{len(m.wilds)}w" if m.wilds else "") + (g.star if m.is_canasta else "")
                     for m in melds]
            per = (len(short) + 1) // 2
            left = [f"{short[i]:<11}" + (short[i + per] if i + per < len(short) else "") for i in range(per)]
        mid: list[str] = []
        seats = (t, t + 2) if rules.partnerships else (t,)
        for p in seats:
            cards = sort_hand(state.hands[p], sort)
            text = f"{names[p]}: " + (" ".join(card_label(c, g) for c in cards) if cards else "no cards")
            mid += wrap(text, mid_w)
        ts = rec.scores[t]
        # Every penalty named in full (the summary's column has only room for a short label).
        minus = "\u2212" if g is UNICODE else "-"
        for reason, points in ts.penalty_items:
            mid += wrap(f"{minus}{points} {reason}", mid_w)
        right = [f"{label:<16}{value:>{right_w - 16}}" for label, value in ts.lines()]
        right.insert(-1, " " * (right_w - 6) + "-" * 6)
        rows = max(len(left), len(mid), len(right))
        rows = min(rows, half)
        for i in range(rows):
            a = left[i] if i < len(left) else ""
            b = mid[i] if i < len(mid) else ""
            c = right[i] if i < len(right) else ""
            out.append(f"{a:<{left_w}} {b:<{mid_w}} {c:>{right_w}}".rstrip())
    while len(out) < height - 2:
        out.append("")
    totals = "   ".join(f"{team_name(t, rules)}: {rec.totals[t]}" for t in range(teams))
    out = out[: height - 2]
    out.append(f"Match: {totals}"[:width])
    out.append("Enter: the score sheet")
    return out
