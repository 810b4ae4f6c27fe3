"""View model -> text: pure functions that draw the table onto a character canvas.

``render(controller, width, height, options)`` returns a :class:`Canvas`; its
``text()`` is what the tests compare and its ``fragments()`` is what prompt-toolkit
paints.  Only the viewer's :class:`PlayerView` is read for hands: other hands are
drawn as folded counts, so hidden information never reaches the screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine import Phase, PlayerView, player_name, team_name
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
    """One meld in a partnership's column: rank, size, wild cards, canasta kind."""
    name = "W" if m.is_wild_meld else RANK_NAMES[m.rank]
    wild = " ".join("JK" if RANK_OF[w] == 14 else "2" for w in m.wilds)
    left = f"{name:>2} ×{len(m.naturals)}" if g is UNICODE else f"{name:>2} x{len(m.naturals)}"
    if wild:
        left += f" +{wild}"
    tag, style = "", ""
    if m.is_canasta:
        kind = "wild" if m.is_wild_meld else ("natural" if m.is_natural else "mixed")
        tag = g.star + kind
        style = "canasta.natural" if kind != "mixed" else "canasta.mixed"
    gap = max(1, width - len(left) - len(tag))
    return (left + " " * gap + tag)[:width], style


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
        cv.put(height // 2 - 1, max(0, (width - len(msg)) // 2), msg, "error")
        cv.put(height // 2, max(0, (width - len(sub)) // 2), sub)
        return cv
    d = ctl.dialog
    if d is not None and d.kind == "privacy":
        draw_privacy(cv, ctl, d.seat)
        return cv
    v: PlayerView = ctl.table_view()
    draw_table(cv, ctl, v, opts)
    if d is not None:
        draw_dialog(cv, ctl, v, opts)
    elif ctl.message:
        draw_box(cv, "", [glyph_text(t, opts.glyphs) for t in ctl.message] + ["", "(press any key)"],
                 style="message")
    return cv


def draw_privacy(cv: Canvas, ctl: Any, seat: int) -> None:
    name = ctl.session.name(seat)
    s = ctl.session.state
    what = "is up" if s.phase != Phase.PERMISSION else "is asked a question"
    g = cv.glyphs.dash
    lines = [f"{name} {what} {g} press Enter", "", "(everybody else: please look away)"]
    for i, line in enumerate(lines):
        cv.put(cv.height // 2 - 1 + i, max(0, (cv.width - len(line)) // 2), line, "message" if i == 0 else "")


def _player_line(ctl: Any, v: PlayerView, seat: int, g: Glyphs, width: int, you: bool = False,
                 two_lines: bool = False) -> list[tuple[str, str]]:
    active = v.turn == seat and v.phase != Phase.HAND_OVER
    light = (g.light_on, "light.on") if active or (v.actor == seat and v.phase == Phase.PERMISSION) \
        else (g.light_off, "light.off")
    name = ctl.session.name(seat)
    kind = "" if ctl.session.is_human(seat) else " (computer)"
    if you:
        kind = " (you)"
    parts: list[tuple[str, str]] = [(light[0] + " ", light[1]), (name + kind, "name.active" if active else "name")]
    if two_lines:
        parts = parts[:1] + [(name, parts[1][1]), (f" {folded(v.hand_sizes[seat])}", "count"), ("\n", "")]
        parts.append(("  " + (kind.strip(" ()") or "human"), "dim"))
    else:
        parts.append((f" {folded(v.hand_sizes[seat])}", "count"))
    threes = v.red_threes[seat]
    if threes:
        parts.append(("  red 3s: ", ""))
        parts.extend((card_label(c, g) + " ", "suit.red") for c in threes)
    if v.dealer == seat:
        parts.append(("  dealer", "dim"))
    return parts


def _put_parts(cv: Canvas, y: int, x: int, parts: Sequence[tuple[str, str]], width: int) -> int:
    end = x + width
    x0 = x
    for text, style in parts:
        if text == "\n":
            y += 1
            x = x0
            continue
        if x >= end:
            continue
        x = cv.put(y, x, text[: end - x], style)
    return x


def _parts_len(parts: Sequence[tuple[str, str]]) -> int:
    return sum(len(t) for t, _ in parts)


def draw_melds(cv: Canvas, y: int, x: int, w: int, rows: int, v: PlayerView, team: int, g: Glyphs,
               title: str) -> None:
    head = f"{g.hline} {title} {g.hline}"
    cv.put(y, x, (head + g.hline * w)[:w], "heading")
    row = v.melds[team]
    melds = [m for r in MELD_ORDER if (m := row[r]) is not None]
    if not melds:
        cv.put(y + 1, x, " no melds yet"[:w], "dim")
        return
    shown = melds if len(melds) <= rows else melds[: rows - 1]
    for i, m in enumerate(shown):
        text, style = meld_line(m, w, g)
        cv.put(y + 1 + i, x, text, style)
    if len(shown) < len(melds):
        cv.put(y + rows, x, f" {g.ellipsis}{len(melds) - len(shown)} more"[:w], "dim")


def draw_table(cv: Canvas, ctl: Any, v: PlayerView, opts: Options) -> None:
    g = opts.glyphs
    W, H = cv.width, cv.height
    s = ctl.session
    rules = v.rules
    scores = s.match.scores
    # Header.
    cv.fill(0, 0, W, 1, "header")
    head = f" CANASTA {g.dash} {rules.name} rules {g.dash} hand {s.match.hand_number}"
    cv.put(0, 0, head, "header")
    if rules.teams == 2:
        right = f"{team_name(0, rules)}: {scores[0]}   {team_name(1, rules)}: {scores[1]} "
    else:
        right = "   ".join(f"{team_name(t, rules)}: {scores[t]}" for t in range(rules.teams)) + " "
    cv.put(0, W - len(right), right, "header")

    n = rules.players
    side = max(25, W * 5 // 16)
    centre_x = side + 1
    centre_w = W - 2 * side - 2
    right_x = W - side
    mid_top = 2
    bottom_y = H - 6           # Player 1's line
    mid_h = bottom_y - mid_top  # rows between

    # Seats: 0 bottom, 1 left, 2 top, 3 right (four players); fewer players: no side seats.
    top = 2 if n == 4 else (1 if n == 2 else None)
    left = 1 if n >= 3 else None
    right_seat = 3 if n == 4 else (2 if n == 3 else None)

    if top is not None:
        parts = _player_line(ctl, v, top, g, W)
        _put_parts(cv, 1, max(0, (W - _parts_len(parts)) // 2), parts, W)
    for seat, x in ((left, 0), (right_seat, right_x)):
        if seat is None:
            continue
        _put_parts(cv, mid_top, x, _player_line(ctl, v, seat, g, side, two_lines=True), side)

    if rules.partnerships:
        draw_melds(cv, mid_top + 2, 0, side, mid_h - 3, v, 1, g, team_name(1, rules) + " melds")
        draw_melds(cv, mid_top, centre_x, centre_w, mid_h - 6, v, 0, g, team_name(0, rules) + " melds")
    else:
        # Each player melds alone: show the bottom player's melds in the centre, the others at their seat.
        draw_melds(cv, mid_top, centre_x, centre_w, mid_h - 6, v, 0, g, player_name(0) + " melds")
        if left is not None:
            draw_melds(cv, mid_top + 2, 0, side, mid_h - 3, v, left, g, player_name(left) + " melds")
    # Log on the right.
    log_y = mid_top + 2
    if rules.partnerships or right_seat is None:
        cv.put(log_y, right_x, (f"{g.hline} Table log {g.hline}" + g.hline * side)[:side], "heading")
        rows = mid_h - 3
        lines: list[str] = []
        for line in s.log[-rows:]:
            lines.extend(wrap(glyph_text(line.text, g), side))
        for i, text in enumerate(lines[-rows:]):
            cv.put(log_y + 1 + i, right_x, text)
    else:
        draw_melds(cv, log_y, right_x, side, mid_h - 3, v, right_seat, g, player_name(right_seat) + " melds")

    # Centre: stock and pile.
    py = bottom_y - 4
    cx = centre_x
    cv.put(py, cx, g.hline * centre_w, "dim")
    up = v.upcard
    x = cv.put(py + 1, cx, f"Stock {v.stock_size:<3} Pile {v.pile_size:<3} Upcard ")
    if up is None:
        cv.put(py + 1, x, "none", "dim")
    else:
        x = cv.put(py + 1, x, card_label(up, g), card_style(up, opts))
    notes = [t for t in (frozen_reason(v), stop_card(v)) if t]
    cv.put(py + 2, cx, ("; ".join(notes)).upper()[:centre_w] if notes else "pile not frozen", "frozen" if notes else "dim")
    if rules.teams == 2:
        need = f"Meld needs: 1&3 {v.requirements[0]}, 2&4 {v.requirements[1]}"
    else:
        need = "Meld needs: " + " ".join(f"P{t + 1} {v.requirements[t]}" for t in range(rules.teams))
    cv.put(py + 3, cx, need[:centre_w])

    # Bottom: Player 1 and the viewer's hand.
    you = ctl.viewer == 0
    parts = _player_line(ctl, v, 0, g, W, you=you and len(s.humans) == 1)
    x = _put_parts(cv, bottom_y, 0, parts, W)
    if ctl.viewer is not None and v.hand:
        info = ""
        if ctl.viewer != 0:
            info = f"{s.name(ctl.viewer)}'s hand  "
        if v.turn == ctl.viewer and v.meld_needed:
            info += f"meld count: {v.meld_count} / {v.meld_needed} needed"
        if ctl.selected:
            info += f"  selected: {len(ctl.selected)}"
        info = info.strip()
        cv.put(bottom_y, max(x + 2, W - len(info) - 1), info, "count")
    draw_hand(cv, ctl, v, opts, bottom_y + 1)
    cv.put(H - 2, 0, glyph_text(ctl.status(), g)[:W], "hint")
    draw_bar(cv, ctl, H - 1, opts)


def draw_hand(cv: Canvas, ctl: Any, v: PlayerView, opts: Options, y: int) -> None:
    g = opts.glyphs
    hand = ctl.hand()
    W = cv.width
    if not hand:
        if ctl.viewer is None:
            cv.put(y + 1, 2, "(no hand shown)", "dim")
        return
    new = ctl.new_cards()
    cell = 4
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
        cv.put(row, x, f"{card_label(c, g):<3}", style, handler)
        mark = (g.cursor if i == ctl.cursor else " ") + (g.new if new[i] else " ")
        cv.put(y + 2, x, mark, "count")


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
    x = 0
    for cmd, label, on in bar_items(ctl):
        handler = _bar_handler(ctl, cmd) if opts.mouse else None
        if on:
            a, rest = label.split("[", 1)
            key, b = rest.split("]", 1)
            x = cv.put(y, x, a, "bar.on", handler)
            x = cv.put(y, x, "[" + key + "]", "bar.key", handler)
            x = cv.put(y, x, b, "bar.on", handler)
        else:
            x = cv.put(y, x, " " + label.replace("[", "").replace("]", "") + " ", "bar.off", handler)
        x += 1


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
        draw_box(cv, "Score sheet", sheet_lines(ctl, cv.height - 8) + ["", foot])
    elif k == "summary":
        draw_box(cv, f"Hand {s.match.hand_number} is over", summary_lines(ctl) + ["", "Enter: the score sheet"])
    elif k == "match_over":
        w = s.match.winner
        totals = s.match.scores
        lines = [f"{team_name(w, rules)} win the match!" if w is not None else "The match is over", ""]
        lines += [f"{team_name(t, rules)}: {totals[t]}" for t in range(rules.teams)]
        draw_box(cv, "Game over", lines + ["", "Enter: leave the table"])
    elif k == "quit":
        draw_box(cv, "Quit", ["Quit the game?", "", "y: quit    n: keep playing"])
    elif k == "answer":
        asker = s.name(s.state.turn)
        draw_box(cv, "Query", [f"{asker} asks: \"May I go out, partner?\"", "",
                               "y: Yes (they must go out)    n: No"])
    elif k == "pile_choice":
        lines = ["How do you want to take the pile?", ""]
        for i, a in enumerate(d.options, 1):
            lines.append(f"{i}: " + pile_option_text(a, v, opts.glyphs))
        lines += ["", "Esc or n: cancel"]
        draw_box(cv, "Take the pile", lines)
    elif k == "wild_target":
        draw_box(cv, "Wild card", [f"Add {card_label(d.card, opts.glyphs)} to which meld?",
                                   "Press its rank: A 4-9 0(=10) J Q K" + (" W(ild meld)" if rules.wild_melds_allowed else ""),
                                   "", "any other key: cancel"])
    elif k == "log":
        lines = [glyph_text(line.text, opts.glyphs) for line in s.log][-(cv.height - 8):]
        draw_box(cv, "Table log", lines + ["", "(press any key)"])


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


def summary_lines(ctl: Any) -> list[str]:
    s = ctl.session
    rules = s.rules
    rec = s.match.sheet[-1]
    out = [f"{'':<18}" + "".join(f"{team_name(t, rules):>15}" for t in range(rules.teams))]
    rows = [ts.lines() for ts in rec.scores]
    for i, (label, _) in enumerate(rows[0]):
        if label == "Total":
            out.append(f"{'':<18}" + "".join(f"{'-----':>15}" for _ in rows))
        out.append(f"{label:<18}" + "".join(f"{r[i][1]:>15}" for r in rows))
    out.append(f"{'Canastas nat/mix':<18}" + "".join(
        f"{f'{ts.natural_canastas}/{ts.mixed_canastas + ts.wild_canastas}':>15}" for ts in rec.scores))
    out.append(f"{'Match total':<18}" + "".join(f"{t:>15}" for t in rec.totals))
    out.append("")
    if rec.went_out >= 0:
        out.append(f"{s.name(rec.went_out)} went out.")
    elif rec.end_reason:
        out.append(f"The hand ended: {rec.end_reason}.")
    return out


def sheet_lines(ctl: Any, room: int) -> list[str]:
    s = ctl.session
    rules = s.rules
    sheet = s.match.sheet
    out = [f"{'Hand':<6}{'Dealer':<10}" + "".join(f"{team_name(t, rules):>15}" for t in range(rules.teams))]
    shown = sheet[-max(4, room - 4):] if len(sheet) > 4 else sheet
    if len(shown) < len(sheet):
        out.append(f"({len(sheet) - len(shown)} earlier hands)")
    for rec in shown:
        out.append(f"{rec.number:<6}{player_name(rec.dealer):<10}" + "".join(f"{ts.total:>15}" for ts in rec.scores))
    totals = s.match.scores
    out.append(f"{'Totals':<16}" + "".join(f"{t:>15}" for t in totals))
    out.append(f"{'Next needs':<16}" + "".join(f"{rules.requirement(t):>15}" for t in totals))
    return out
