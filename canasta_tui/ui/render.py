"""View model -> text: pure functions that draw the table onto a character canvas.

``render(controller, width, height, options)`` returns a :class:`Canvas`; its
``text()`` is what the tests compare and its ``fragments()`` is what prompt-toolkit
paints.  Only the viewer's :class:`PlayerView` is read for hands: other hands are
drawn as folded counts, so hidden information never reaches the screen.
"""

from __future__ import annotations

from typing import Any

from ..engine import Phase, PlayerView, team_name
from ..engine import team as team_of_seat
from ..engine.cards import IS_BLACK_THREE, IS_RED_THREE, IS_WILD
from ..engine.melds import Meld
from ..presets import rules_label
from .canvas import (
    DEFAULT_OPTIONS,
    MIN_H,
    MIN_W,
    Canvas,
    Handler,
    Options,
    Rect,
    Region,
    card_label,
    card_style,
    draw_box,
    folded,
    glyph_text,
    wrap,
)
from .keys import BAR
from .texts import MELD_ORDER, canasta_tag, meld_cards, meld_line

# ---------------------------------------------------------------------- small pieces

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



def render(ctl: Any, width: int, height: int, opts: Options | None = None) -> Canvas:
    """The whole screen for the controller's current state."""
    opts = opts or DEFAULT_OPTIONS
    cv = Canvas(width, height)
    cv.glyphs = opts.glyphs
    d = ctl.dialog
    if width < MIN_W or height < MIN_H:
        msg = f"terminal too small (need {MIN_W}x{MIN_H})"
        sub = f"now {width}x{height}; q quits"
        if d is not None and d.kind == "quit":
            sub = f"{ctl.quit_question()} y: quit, n: keep playing"
        cv.put(height // 2 - 1, max(0, (width - len(msg)) // 2), msg, "error")
        cv.put(height // 2, max(0, (width - len(sub)) // 2), sub)
        return cv
    v: PlayerView = ctl.view()
    if d is not None and d.full_screen:
        d.draw(cv, ctl, v, opts)
        return cv
    if d is not None and d.kind == "quit" and d.back is not None and d.back.full_screen:
        # Quitting from the privacy screen (or a summary): nothing of the table behind the question.
        d.draw(cv, ctl, v, opts)
        return cv
    draw_table(cv, ctl, v, opts)
    if d is not None:
        d.draw(cv, ctl, v, opts)
    elif ctl.message:
        lines = [w for t in ctl.message for w in wrap(glyph_text(t, opts.glyphs), cv.width - 10)]
        draw_box(cv, "", lines + ["", "(press any key)"], style="message")
    return cv


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
    link = ctl.link
    if not link.is_human(seat):
        return "computer"
    if seat in link.seats and len(link.seats) == 1:
        return "you"
    return "human"


def draw_seat(r: Region, row: int, ctl: Any, v: PlayerView, seat: int, opts: Options) -> None:
    """Two lines for one player: turn light, name, folded hand; who plays it, dealer, red threes."""
    g = opts.glyphs
    active = v.phase != Phase.HAND_OVER and (v.turn == seat or (v.actor == seat and v.phase == Phase.PERMISSION))
    light = (g.light_on, "light.on") if active else (g.light_off, "light.off")
    count = folded(v.hand_sizes[seat])
    name = ctl.link.name(seat)
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
    for _, text in reversed(ctl.log_lines()):
        wrapped = wrap(glyph_text(text, g), r.w)
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
    link = ctl.link
    rules = v.rules
    scores = link.scores
    # Header: the rules and hand on the left, the match score on the right (never overlapping).
    cv.fill(0, 0, W, 1, "header")
    right = "   ".join(f"{short_team(t, rules)}: {scores[t]}" for t in range(rules.teams)) + " "
    right = right[-W:]
    cv.put(0, W - len(right), right, "header")
    Region(cv, 0, 0, W - len(right) - 1, 1).put(
        0, 0, f" CANASTA {g.dash} {rules_label(rules)} rules {g.dash} hand {link.hand_number}", "header")

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
        who = "Your hand" if len(link.seats) == 1 else f"{link.name(ctl.viewer)}'s hand"
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


