"""View model -> text: pure functions that draw the table onto a character canvas.

``render(snapshot, width, height, options)`` returns a :class:`Canvas`; its ``text()`` is
what the tests compare and its ``fragments()`` is what prompt-toolkit paints.  It draws from a
:class:`~.snapshot.TableSnapshot`, a frozen value the screen takes of the client at each paint,
and changes nothing of the client: what it keeps between paints (the rows above the hand, where
the log began) is a :class:`TableCache` the screen owns and hands in.  Only the viewer's own
view is read for a hand: the other players' hands are drawn as folded counts, so hidden
information never reaches the screen.

The table is the DOS game's: "four quadrants, one for each player ... In each quadrant is
the name of the player alongside a light which illuminates when it is that player's turn.
The player's folded hand is placed either above or below the name."  Player 1 sits bottom
left, 2 top left, 3 top right, 4 bottom right (the order of play, partners opposite); the
stock, the upcard and the pile are in the centre; each meld lies in the quadrant of the
player who started it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from ..engine import Phase, PlayerView, Rules, team
from ..engine.cards import IS_BLACK_THREE, IS_RED_THREE, IS_WILD
from ..engine.melds import Meld
from ..presets import rules_label
from ..table.events import meld_starters
from ..text import points
from .canvas import (
    DEFAULT_OPTIONS,
    Canvas,
    Handler,
    Options,
    Rect,
    Region,
    card_label,
    card_style,
    draw_box,
    draw_too_small,
    first_fit,
    fit,
    fit_middle,
    folded,
    glyph_text,
    put_lines_up,
    too_small,
    wrap,
)
from .dialogs import Quit
from .keys import BAR
from .snapshot import Clicks, TableSnapshot
from .style import Glyphs
from .texts import canasta_tag, has_melded, meld_cards, meld_cell, meld_line, ordered_slots

if TYPE_CHECKING:
    from prompt_toolkit.mouse_events import MouseEvent


@dataclass
class TableCache:
    """What the table's painter keeps between paints (the screen owns it; the model never sees
    it): the rows above the hand as last painted, and where the centre's log began."""

    top: TableTop | None = None
    log_first: tuple[tuple[int, int], int] | None = None    # ((hand, width), first entry shown)


def render(snap: TableSnapshot, width: int, height: int, opts: Options | None = None,
           cache: TableCache | None = None) -> Canvas:
    """The whole screen for this snapshot of the client (``cache``: what the last paint kept;
    None paints from nothing)."""
    opts = opts or DEFAULT_OPTIONS
    cache = cache if cache is not None else TableCache()
    cv = Canvas(width, height)
    cv.glyphs = opts.glyphs
    d = snap.dialog
    if too_small(width, height):
        asking = isinstance(d, Quit)
        draw_too_small(cv, question=f"{snap.quit_question} y: quit, n: keep playing" if asking else "")
        return cv
    v = snap.view
    if d is not None and d.full_screen:
        d.draw(cv, snap.table, opts)
        return cv
    if isinstance(d, Quit) and d.back is not None and d.back.full_screen:
        # Quitting from the privacy screen (or a summary): nothing of the table behind the question.
        d.draw(cv, snap.table, opts)
        return cv
    draw_table(cv, snap, v, opts, cache)
    if d is not None:
        d.draw(cv, snap.table, opts)
    elif snap.message:
        lines = [w for t in snap.message for w in wrap(glyph_text(t, opts.glyphs), cv.width - 10)]
        draw_box(cv, "", lines + ["", "(press any key)"], style="message")
    return cv


# ---------------------------------------------------------------------- where things go

class TableLayout(NamedTuple):
    """The table's regions: a quadrant per seat, the centre (the pile, the log and the chat under
    it), the empty seat's place with three players, the log line and the hand's first row."""

    quadrants: tuple[Rect, ...]         # by seat
    centre: Rect
    spare: Rect | None
    log_row: int
    hand_row: int


#: The centre's width at 80 columns: 30 for the log (the game's lines, up to "Player 2 took the
#: pile (4 cards): 7♦ onto their Sevens", wrap to two rows), a space either side.
CENTRE_MIN = 32


def hand_extra(width: int, height: int) -> int:
    """Extra rows the hand gets on a big terminal, where cards are drawn framed (0 at 80x24)."""
    return 2 if width >= 100 and height >= 34 else 0


def table_layout(width: int, height: int, players: int = 4) -> TableLayout:
    """Player 1 bottom left, 2 top left, 3 top right, 4 bottom right; the centre between them.

    The centre holds the stock and the pile, and under them the log and the chat: at 80x24 it
    is 32 columns wide (a log line of the game in at most two rows) and the quadrants 24 columns
    by 8 rows; a bigger terminal gives the centre three tenths of the width and the quadrants
    the rest.
    """
    extra = hand_extra(width, height)
    area = height - 8 - extra                 # rows 1 .. area: the quadrants and the centre
    cw = max(CENTRE_MIN, width * 3 // 10)
    left = (width - cw) // 2
    right = width - cw - left
    top_h = area // 2
    bottom_h = area - top_h
    tl = Rect(0, 1, left, top_h)
    bl = Rect(0, 1 + top_h, left, bottom_h)
    tr = Rect(left + cw, 1, right, top_h)
    br = Rect(left + cw, 1 + top_h, right, bottom_h)
    centre = Rect(left, 1, cw, area)
    quads: tuple[Rect, ...]
    spare: Rect | None
    if players == 4:
        quads, spare = (bl, tl, tr, br), None
    elif players == 3:
        quads, spare = (bl, tl, tr), br
    else:
        # Nobody on the right: the centre (the pile, and the log under it) takes that side too.
        quads, spare, centre = (bl, tl), None, Rect(left, 1, cw + right, area)
    return TableLayout(quads, centre, spare, 1 + area, height - 6 - extra)


def short_team(t: int, rules: Rules) -> str:
    """A side's short name: ``1&3``/``2&4`` for partnerships, ``P2`` for a player alone."""
    if rules.partnerships:
        return "1&3" if t == 0 else "2&4"
    return f"P{t + 1}"


# ---------------------------------------------------------------------- the table

class TableTop(NamedTuple):
    """The rows above the hand as last drawn (the header, the quadrants, the centre, the log
    line), with what they were drawn from: they depend only on the table, never on the keys of
    this terminal, and a cursor key paints them again as they were."""

    key: tuple[object, ...]
    view: PlayerView                    # held, so that its identity stands for it
    log: Sequence[tuple[int, str]]
    chars: list[list[str]]
    styles: list[list[str]]
    handlers: dict[tuple[int, int], Handler]


def draw_table(cv: Canvas, snap: TableSnapshot, v: PlayerView, opts: Options, cache: TableCache) -> None:
    W, H = cv.width, cv.height
    layout = table_layout(W, H, v.rules.players)
    lines = snap.log
    seats = range(v.rules.players)
    # A hint of two rows takes its second row from the log line, never from the hand's marks
    # (the cursor would vanish): the hand moves up a row and the latest move goes to the
    # centre's log with the moves before it.
    lift = 1 if len(glyph_text(snap.status, opts.glyphs)) > W else 0
    key = (W, H, opts, snap.hand_number, snap.scores, snap.names,
           tuple(_kind(snap, s, opts.glyphs) for s in seats), snap.dealing, lift)
    top = cache.top
    rows = layout.log_row + 1
    if top is not None and top.view is v and top.log is lines and top.key == key:
        for y in range(rows):
            cv.chars[y][:] = top.chars[y]
            cv.styles[y][:] = top.styles[y]
        cv.handlers.update(top.handlers)
    else:
        draw_table_top(cv, snap, v, opts, layout, lines, cache, lift)
        cache.top = TableTop(key, v, lines, [list(r) for r in cv.chars[:rows]],
                                 [list(r) for r in cv.styles[:rows]],
                                 {k: h for k, h in cv.handlers.items() if k[0] < rows})
    draw_table_bottom(cv, snap, v, opts, layout, lift)


def draw_table_top(cv: Canvas, snap: TableSnapshot, v: PlayerView, opts: Options, layout: TableLayout,
                   lines: Sequence[tuple[int, str]], cache: TableCache, lift: int = 0) -> None:
    """The header, the four quadrants, the centre and the log line (``lift``: the hand has the
    log line's row, and the latest move goes to the centre's log)."""
    g = opts.glyphs
    W = cv.width
    rules = v.rules
    scores = snap.scores
    # Header: the rules and hand on the left, the match score on the right (never overlapping).
    cv.fill(0, 0, W, 1, "header")
    right = match_score(rules, scores)[-W:]
    cv.put(0, W - len(right), right, "header")
    cv.put(0, 0, fit_middle(f" CANASTA {g.dash} ", f"{rules_label(rules)} rules", f" {g.dash} hand {snap.hand_number}",
                            W - len(right) - 1, g.ellipsis), "header")

    starters = meld_starters(snap.events, rules)
    for seat, rect in enumerate(layout.quadrants):
        draw_quadrant(Region(cv, *rect), snap, v, seat, starters, opts)
    # The log line under the table holds the latest move in full; the moves before it go in the
    # centre, under the pile (the widest place for them: an empty seat's is narrower or shorter);
    # g shows the whole log.
    earlier = lines[:-1] if not lift else lines
    draw_centre(Region(cv, *layout.centre), snap, v, opts, earlier, cache)
    if lift:
        return
    latest = glyph_text(lines[-1][1], g) if lines else ""
    hint = "g: log"
    row = Region(cv, 0, layout.log_row, W, 1)
    if len(latest) <= W - len(hint) - 3:
        row.put(0, 1, latest)
        row.put(0, W - len(hint) - 1, hint, "dim")
    else:
        # A long move takes the hint's place too; what still does not fit is marked, g shows it whole.
        row.put(0, 1, fit(latest, W - 2, g.ellipsis))


def draw_table_bottom(cv: Canvas, snap: TableSnapshot, v: PlayerView, opts: Options, layout: TableLayout,
                      lift: int = 0) -> None:
    """Whose hand this is, the live meld count, the hand itself, the hint and the command bar
    (``lift``: rows the hand moves up for a hint of two rows)."""
    g = opts.glyphs
    W, H = cv.width, cv.height
    hand_y = layout.hand_row - lift
    row = Region(cv, 0, hand_y, W, 1)
    row.put(0, 0, g.hline * W, "dim")
    if snap.viewer is not None and v.hand:
        who = "Your hand" if len(snap.seats) == 1 else f"{snap.names[snap.viewer]}'s hand"
        x = row.put(0, 1, f" {who} ({folded(len(snap.hand))}) ", "name")
        info = []
        if v.turn == snap.viewer and v.meld_needed and v.phase != Phase.HAND_OVER:
            info.append(f"meld count: {v.meld_count} / {v.meld_needed} needed")
        if snap.selected:
            info.append(f"selected: {len(snap.selected)}")
        if info:
            text = " " + "   ".join(info) + " "
            row.put(0, max(x + 1, W - len(text) - 1), text, "count")
    draw_hand(cv, snap, opts, hand_y + 1)
    # A status too long for its row takes the row above it, which the hand left it (see draw_table).
    put_lines_up(cv, H - 2, 0, glyph_text(snap.status, g), "hint", most=1 + lift)
    draw_bar(cv, snap, H - 1, opts)


def _kind(snap: TableSnapshot, seat: int, g: Glyphs) -> str:
    """Who plays the seat; over SSH a person known by their key gets the verified mark."""
    if not snap.humans[seat]:
        return "computer"
    mark = f" {g.verified}" if snap.verified[seat] else ""
    if seat in snap.seats and len(snap.seats) == 1:
        return "you" + mark
    return "human" + mark


def match_score(rules: Rules, scores: Sequence[int]) -> str:
    """The match score as the header of the table (and of a replay) shows it: "1&3: 1,250   2&4: 980 "."""
    return "   ".join(f"{short_team(t, rules)}: {points(scores[t])}" for t in range(rules.teams)) + " "


def side_line(v: PlayerView, t: int, scores: Sequence[int]) -> str:
    """A side's score and what its initial meld needs (``melded`` once it has made it)."""
    return side_forms(v, t, scores)[0]


def side_forms(v: PlayerView, t: int, scores: Sequence[int]) -> list[str]:
    """:func:`side_line` in the lengths a quadrant's footer may need, fullest first: the score
    stays in every one (at 80 columns "2&4: 2,985, needs 90" is too long for its frame), the
    side's name gives way first (the frame's lines and colour say whose it is)."""
    name, score = short_team(t, v.rules), points(scores[t])
    what = "melded" if has_melded(v, t) else f"needs {points(v.requirements[t])}"
    return [f"{name}: {score}, {what}", f"{name} {score}, {what}", f"{score}, {what}", f"{name}: {score}", score]


def draw_quadrant(r: Region, snap: TableSnapshot, v: PlayerView, seat: int, starters: dict[tuple[int, int], int],
                  opts: Options) -> None:
    """One player's quadrant: a frame in the side's style, with the turn light, the name and the
    folded hand on top, the side's score and initial meld requirement below; inside, who plays
    the seat (and the dealer), the red threes, and the melds this player started."""
    g = opts.glyphs
    rules = v.rules
    t = team(seat, rules)
    # Partners share a frame (double or single lines, and a colour); players alone all get one.
    style = t % 2 if rules.partnerships else 1
    hline, vline, corners = g.side_frames[style]
    frame = f"side.{style}"
    if r.w < 6 or r.h < 3:
        return
    # the frame
    r.put(0, 0, corners[0] + hline * (r.w - 2) + corners[1], frame)
    for y in range(1, r.h - 1):
        r.put(y, 0, vline, frame)
        r.put(y, r.w - 1, vline, frame)
    r.put(r.h - 1, 0, corners[2] + hline * (r.w - 2) + corners[3], frame)
    # the top line: light, name, folded hand
    active = v.phase != Phase.HAND_OVER and (v.turn == seat or (v.actor == seat and v.phase == Phase.PERMISSION))
    light = (g.light_on, "light.on") if active else (g.light_off, "light.off")
    count = f" {folded(snap.shown[seat])} "
    name = snap.names[seat]
    room = r.w - 6 - len(count)
    if len(name) > room:
        name = name[: max(1, room - 1)] + g.ellipsis[:1]
    x = r.put(0, 1, " ", frame)
    x = r.put(0, x, light[0], light[1])
    x = r.put(0, x, " ", frame)
    r.put(0, x, name, "name.active" if active else "name")
    r.put(0, x + len(name), " ", frame)
    r.put(0, r.w - 1 - len(count), count, "count")
    # the bottom line: the side's score and initial meld requirement
    side = f" {first_fit(side_forms(v, t, snap.scores), r.w - 6, g.ellipsis)} "
    r.put(r.h - 1, 2, side, f"{frame}.title")
    inner = Region(r.cv, r.x + 2, r.y + 1, r.w - 4, r.h - 2)      # a space inside the frame
    below = draw_seat_line(inner, snap, v, seat, g)
    first = min(s for s in range(rules.players) if team(s, rules) == t)
    # Each meld by its slot: a sequence's events name its slot, a further meld of a rank its rank.
    melds = [(slot, m) for slot, m in ordered_slots(v.melds[t])
             if starters.get((t, slot if slot < 15 or m.is_sequence else m.rank), first) == seat]
    draw_melds(Region(r.cv, inner.x, inner.y + below, inner.w, inner.h - below), snap.clicks, t, melds, opts, rules)


def draw_seat_line(inner: Region, snap: TableSnapshot, v: PlayerView, seat: int, g: Glyphs) -> int:
    """Who plays the seat (and the dealer) and its red threes, at the top of its quadrant; the
    rows used (2 when the red threes need a row of their own)."""
    kind = _kind(snap, seat, g) + (", dealer" if v.dealer == seat else "")
    threes = " ".join(card_label(c, g) for c in v.red_threes[seat])
    if threes and len(kind) + 1 + len(threes) > inner.w:
        threes = "".join(card_label(c, g) for c in v.red_threes[seat])
    below = 1
    if threes and len(kind) + 1 + len(threes) > inner.w:
        # No room beside who plays the seat: the red threes get a row of their own, in words, rather
        # than a clipped "dealer" that reads as "was dealt" them.
        inner.put(0, 0, kind[: inner.w], "dim")
        spaced = " ".join(card_label(c, g) for c in v.red_threes[seat])
        threes = spaced if len("red threes ") + len(spaced) <= inner.w else threes
        x = inner.put(1, 0, "red threes ", "dim")
        inner.put(1, min(x, inner.w - len(threes)), threes, "suit.red")
        below = 2
    else:
        inner.put(0, 0, kind[: inner.w - (len(threes) + 1 if threes else 0)], "dim")
        if threes:
            inner.put(0, inner.w - len(threes), threes, "suit.red")
    return below


def _meld_style(m: Meld) -> str:
    if not m.is_canasta:
        return ""
    return "canasta.mixed" if not m.is_natural and not m.is_wild_meld else "canasta.natural"


def draw_melds(r: Region, clicks: Clicks, t: int, slotted: list[tuple[int, Meld]], opts: Options,
               rules: Rules | None = None) -> None:
    """The melds of one player's quadrant, each with its slot in the side's row (what a click on
    it addresses): as cards when each fits a line, else one compact line each, else two columns
    (a side's ten melds fit at 80x24; beyond that the last cell says how many more)."""
    g = opts.glyphs
    if r.h <= 0:
        return
    if not slotted:
        r.put(0, 0, "no melds", "dim")
        return
    melds = [m for _, m in slotted]
    handlers = [(_meld_handler(clicks, t, slot) if opts.mouse else None) for slot, _ in slotted]
    if len(melds) <= r.h:
        tags = [canasta_tag(m, g, rules=rules) for m in melds]
        show_cards = all(len(meld_cards(m, g)) + 1 + len(tag) <= r.w for m, tag in zip(melds, tags, strict=True))
        for i, m in enumerate(melds):
            if show_cards:
                x = 0
                for c in (*m.naturals, *m.wilds):
                    x = r.put(i, x, card_label(c, g), card_style(c, opts), handlers[i]) + 1
                if tags[i]:
                    r.put(i, r.w - len(tags[i]), tags[i], _meld_style(m), handlers[i])
            else:
                text, style = meld_line(m, r.w, g, rules)
                r.put(i, 0, text, style, handlers[i])
        return
    cols = 2
    cell = (r.w - 1) // cols
    per = r.h
    room = per * cols
    shown = melds if len(melds) <= room else melds[: room - 1]
    for i, m in enumerate(shown):
        row, col = i % per, i // per
        r.put(row, col * (cell + 1), meld_cell(m, cell, g, rules).ljust(cell), _meld_style(m), handlers[i])
    if len(shown) < len(melds):
        r.put(per - 1, cell + 1, f"{g.ellipsis}{len(melds) - len(shown)} more", "dim")


def frozen_reason(v: PlayerView) -> str:
    if not v.frozen:
        return ""
    if any(IS_WILD[c] for c in v.pile):
        return "FROZEN: wild card"
    if any(IS_RED_THREE[c] for c in v.pile):
        return "FROZEN: red three"
    return "FROZEN at the deal"


def pile_note(v: PlayerView) -> str:
    """Who may not take an unfrozen pile yet: until a side has made its initial meld the pile is
    frozen for it (what ``p`` answers such a side); ``pile not frozen`` once every side has."""
    waiting = [t for t in range(v.rules.teams) if not has_melded(v, t)]
    if not waiting:
        return "pile not frozen"
    if len(waiting) == v.rules.teams:
        return "frozen for every side until its initial meld"
    if len(waiting) == 1:
        return f"frozen for {short_team(waiting[0], v.rules)} until its initial meld"
    return f"frozen for {', '.join(short_team(t, v.rules) for t in waiting)} until their initial melds"


def stop_card(v: PlayerView) -> str:
    up = v.upcard
    if up is None:
        return ""
    if IS_BLACK_THREE[up]:
        return "stop: black three"
    if IS_WILD[up]:
        return "stop: wild card"
    return ""


def draw_centre(r: Region, snap: TableSnapshot, v: PlayerView, opts: Options, lines: Sequence[tuple[int, str]],
                cache: TableCache | None = None) -> None:
    """The middle of the table: the stock, the pile and its upcard, frozen and why, a stop card,
    a pile held back for an initial meld; below, the moves before the latest when there is room."""
    g = opts.glyphs
    draw_h = _bar_handler(snap.clicks, "draw") if opts.mouse else None
    pile_h = _bar_handler(snap.clicks, "pile") if opts.mouse else None
    r.put(0, 1, f"Stock {v.stock_size}", "", draw_h)
    r.put(1, 1, f"Pile  {v.pile_size}", "", pile_h)
    x = r.put(2, 1, "Upcard ", "", pile_h)
    up = v.upcard
    if up is None:
        r.put(2, x, f"{g.dash} (empty)", "dim")
    else:
        r.put(2, x, card_label(up, g), card_style(up, opts), pile_h)
    row = 3
    for note, style in ((frozen_reason(v), "frozen"), (stop_card(v), "frozen"),
                        (f"held back: {folded(v.waiting)}" if v.waiting else "", "count"),
                        ("" if v.frozen or stop_card(v) else pile_note(v), "dim")):
        for text in wrap(note, r.w - 2) if note else []:
            r.put(row, 1, text, style)
            row += 1
    row += 1
    rows = r.h - row - 1
    if rows < 2 or not lines:
        return
    r.put(row, 1, (f"{g.hline} log " + g.hline * r.w)[: r.w - 2], "dim")
    # Where the log began last time (this hand, this width): it moves on in steps, see _fill_log.
    key = (snap.hand_number, r.w)
    cache = cache if cache is not None else TableCache()
    first = cache.log_first
    start = first[1] if first is not None and first[0] == key else None
    cache.log_first = (key, _fill_log(Region(r.cv, r.x + 1, r.y + row + 1, r.w - 2, rows), lines, g, start))


#: What the log keeps of its height when it moves on (see ``_fill_log``).
LOG_KEEP = 4 / 5


def _fill_log(r: Region, lines: Sequence[tuple[int, str]], g: Glyphs, start: int | None = None) -> int:
    """The log entries from ``start`` on (None: the newest that fill it), each whole (none starts
    half-way down its wrapped lines).  When the newest no longer fit, the log moves on by a fifth
    of its height at once, not a line at a time: most moves then write their own line only, not
    every line above it again (over SSH every byte counts).  Returns the first entry shown."""
    if r.h <= 0:
        return start or 0

    def rows(i: int) -> list[str]:
        return wrap(glyph_text(lines[i][1], g), r.w)

    fresh = start is None
    start = 0 if start is None else min(start, len(lines))
    shown = [rows(i) for i in range(start, len(lines))]
    if sum(map(len, shown)) > r.h:
        # The newest entries that fill LOG_KEEP of the height (all of it on a fresh screen; at
        # least the newest one).
        keep = r.h if fresh else max(1, int(r.h * LOG_KEEP))
        shown, used, start = [], 0, len(lines)
        while start > 0:
            w = rows(start - 1)
            if shown and used + len(w) > keep:
                break
            shown.insert(0, w)
            used += len(w)
            start -= 1
    out = [text for w in shown for text in w]
    for i, text in enumerate(out[-r.h:]):
        r.put(i, 0, text)
    return start


def draw_hand(cv: Canvas, snap: TableSnapshot, opts: Options, y: int) -> None:
    """The viewer's hand: three rows (selected cards raised, the cards, cursor and new marks)."""
    g = opts.glyphs
    hand = snap.hand
    W = cv.width
    if not hand:
        if snap.dealing is None:     # (while the deal is shown, its first card is coming)
            cv.put(y + 1, 2, "(no hand shown)", "dim")
        return
    new = snap.new
    cursor, selected = snap.cursor, snap.selected
    framed = hand_extra(W, cv.height) > 0
    cell = max(4, min(6, (W - 2) // len(hand))) if not framed else max(6, min(8, (W - 2) // len(hand)))
    fit = (W - 2) // cell
    start = 0
    if len(hand) > fit:
        start = min(max(0, cursor - fit // 2), len(hand) - fit)
        if start > 0:
            cv.put(y + 1, 0, g.left_more, "dim")
        if start + fit < len(hand):
            cv.put(y + 1, W - 1, g.right_more, "dim")
    for i in range(start, min(len(hand), start + fit)):
        c = hand[i]
        x = 1 + (i - start) * cell
        row = y if i in selected else y + 1
        style = card_style(c, opts)
        if i == cursor:
            style = "cursor"
        elif new[i]:
            style = f"{style},new" if style else "new"
        handler = _card_handler(snap.clicks, i) if opts.mouse else None
        if framed:
            # A small card: frame, then the label; selected cards stand one row higher.
            top = y if i in selected else y + 1
            frame = "box" if i != cursor else "cursor"
            cv.put(top, x, g.corners[0] + g.hline * 3 + g.corners[1], frame, handler)
            cv.put(top + 1, x, g.vline, frame, handler)
            cv.put(top + 1, x + 1, f"{card_label(c, g):<3}", style, handler)
            cv.put(top + 1, x + 4, g.vline, frame, handler)
            cv.put(top + 2, x, g.corners[2] + g.hline * 3 + g.corners[3], frame, handler)
            other = y + 3 if top == y else y
            cv.put(other, x, "     ", "", handler)
            mark = (g.cursor if i == cursor else " ") + (g.new if new[i] else " ")
            cv.put(y + 4, x + 1, mark, "count", handler)
            continue
        cv.put(row, x, f"{card_label(c, g):<3}", style, handler)
        if handler is not None:
            other = y + 1 if row == y else y
            cv.put(other, x, "   ", "", handler)
        mark = (g.cursor if i == cursor else " ") + (g.new if new[i] else " ")
        cv.put(y + 2, x, mark, "count", handler)


def _card_handler(clicks: Clicks, i: int) -> Handler:
    from prompt_toolkit.mouse_events import MouseButton, MouseEventType

    def handler(ev: MouseEvent) -> object:
        if ev.event_type == MouseEventType.MOUSE_UP:
            # The right button is told apart where the terminal reports it on release (SGR
            # mouse mode, which every current terminal speaks); elsewhere it clicks as the left.
            if ev.button == MouseButton.RIGHT:
                clicks.right_click_card(i)
            else:
                clicks.click_card(i)
            return None
        return NotImplemented
    return handler


def _bar_handler(clicks: Clicks, cmd: str) -> Handler:
    from prompt_toolkit.mouse_events import MouseEventType

    def handler(ev: MouseEvent) -> object:
        if ev.event_type == MouseEventType.MOUSE_UP:
            clicks.command(cmd)
            return None
        return NotImplemented
    return handler


def bar_items(lit: Mapping[str, bool]) -> list[tuple[str, str, bool]]:
    """The command bar: (command, label, lit)."""
    items = [(cmd, label, lit[cmd]) for cmd, label in BAR]
    if lit["end"]:
        items.insert(4, ("end", "[E]nd", True))
    if lit["unpile"]:
        items.insert(4, ("unpile", "[B]ack", True))
    if lit.get("join"):
        items.insert(3, ("join", "[J]oin", True))
    return items


def draw_bar(cv: Canvas, snap: TableSnapshot, y: int, opts: Options) -> None:
    """The command bar: lit commands show their hotkey in brackets, dark ones are dimmed.

    Items keep their width whether lit or not, so nothing moves when the lights change;
    when the extra items (Back, End) make it too wide, the gaps shrink.
    """
    items = bar_items(snap.lit)
    total = sum(len(label) for _, label, _ in items)
    gap = 1 if total + len(items) - 1 <= cv.width else 0
    x = 0
    for cmd, label, on in items:
        handler = _bar_handler(snap.clicks, cmd) if opts.mouse else None
        if on:
            a, rest = label.split("[", 1)
            key, b = rest.split("]", 1)
            x = cv.put(y, x, a, "bar.on", handler)
            x = cv.put(y, x, "[" + key + "]", "bar.key", handler)
            x = cv.put(y, x, b, "bar.on", handler)
        else:
            x = cv.put(y, x, " " + label.replace("[", "").replace("]", "") + " ", "bar.off", handler)
        x += gap


def _meld_handler(clicks: Clicks, t: int, slot: int) -> Handler:
    from prompt_toolkit.mouse_events import MouseEventType

    def handler(ev: MouseEvent) -> object:
        if ev.event_type == MouseEventType.MOUSE_UP:
            clicks.click_meld(t, slot)
            return None
        return NotImplemented
    return handler


