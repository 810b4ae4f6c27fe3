"""Text the dialogs show, built from public facts only: the score, the sheet, the scoring
summary of a finished hand, the help, the F3 list.  Pure functions, tested as text."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..ai.asking import Outlook
from ..engine import Action, HandRecord, Phase, PlayerView, Rules, end_text, player_name
from ..engine import team as _team
from ..engine.melds import Meld, ordered_melds
from ..engine.scoring import TeamScore
from ..text import points, side_name
from .canvas import card_label, first_fit, wrap
from .files import SavedGame
from .keys import KEYS
from .style import UNICODE, Glyphs

#: The order melds are shown in: A, 4 ... K, black threes, the wild meld (as the DOS game).
MELD_ORDER = (1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 3, 2)


def load_lines(items: Sequence[SavedGame], current: int, rows: int, width: int) -> list[str]:
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


#: The hint line's word on Query while asking is allowed: the DOS manual's "A player may go out
#: without asking permission" and "The player is bound by the reply".
ASK_HINT = 'y asks "May I go out?" (optional; answer binds)'


def ask_warning(outlook: Outlook, v: PlayerView) -> str | None:
    """What Query says before a question that can only cost (None: it asks at once).  A hand that
    cannot go out this turn gains nothing from a "yes" and pays for not keeping it; a hand that
    can go out concealed needs no question, and a "no" from the partner, who cannot see it,
    would stop it."""
    rules = v.rules
    pen = rules.permission_penalty
    if outlook == Outlook.CANNOT:
        lines = ["Asking can only cost you here: you cannot go out this turn",
                 f"({_why_not_out(v)}).",
                 f'A "yes" binds you to go out: your side would pay {pen} points',
                 'when you cannot.  A "no" changes nothing.  Asking is optional.']
    elif outlook == Outlook.CONCEALED:
        worth = rules.going_out_bonus + rules.concealed_bonus
        lines = ["You can go out concealed this turn, and going out needs no",
                 "question (asking is optional).  Your partner cannot see your",
                 f'hand: a "no" would stop you going out, and its {worth} points.']
    else:
        return None
    return "\n".join([*lines, "", "Ask anyway?    y: ask    n: do not ask"])


def _why_not_out(v: PlayerView) -> str:
    """Why the hand of ``v`` cannot go out this turn, as far as a few words can say it."""
    from ..ai.asking import canastas_within_reach, stuck_cards
    from ..engine.cards import card_text

    row = v.melds[_team(v.turn, v.rules)]
    stuck = stuck_cards(v.hand, row, v.rules)
    if len(stuck) >= 2:
        # Four cards at most by name; more as a count (a trailing "…" read as a line cut off).
        shown = [card_text(c, True) for c in stuck[:4]] if len(stuck) <= 4 else \
            [*(card_text(c, True) for c in stuck[:3]), f"{len(stuck) - 3} more"]
        return "no meld can take your " + ", ".join(shown[:-1]) + " and " + shown[-1]
    need = v.rules.canastas_to_go_out
    # (A concealed hand may go out without a canasta where the rules say so.)
    needs = v.rules.concealed_needs_canasta or v.t.opened_at_start or v.t.melded_before
    if needs and canastas_within_reach(v.hand, row, v.rules) < need:
        return "your side needs " + ("a canasta and cannot complete one" if need == 1 else
                                     "two canastas and cannot make them")
    return "your cards cannot all be melded, bar one to discard"


def pile_option_text(a: Action, v: PlayerView, g: Glyphs) -> str:
    from ..engine.cards import RANK_NAMES

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
        if len(k.label) > 11:                 # a long label gets a line of its own
            out.append(f"  {k.label}")
            desc = [" " * 14 + d for d in desc]
        else:
            desc[0] = f"  {k.label:<11} {desc[0]}"
        out.extend([desc[0], *(" " * 14 + d.strip() for d in desc[1:])])
    return out


#: What a mouse click does on the table (``render``'s handlers and the controller's ``click_*``).
MOUSE_HELP: list[tuple[str, str]] = [
    ("A card", "of your hand: move the cursor to it and select it (a second click unselects it); "
               "a right-click discards it when Right-click discards is on in the options"),
    ("A meld", "of your side: put the selected cards on it (the cursor card if none is selected): "
               "wild cards and cards of its rank; on a sequence (Samba, Bolivia), the cards that "
               "continue it at either end"),
    ("Stock", "in the centre: draw from the stock, as d"),
    ("Pile, Upcard", "in the centre: take the pile, as p"),
    ("A command", "of the bar at the bottom: does what its key does"),
]


def mouse_lines(width: int = 200) -> list[str]:
    """The help's Mouse section: what a click does, and how to turn the mouse on."""
    out = ["Mouse:"]
    intro = ("Off by default (mouse tracking sends every movement over the link): turn it on with "
             "canasta --mouse or Mouse in the options (o).  A click on:")
    out += ["  " + t.strip() for t in wrap(intro, max(20, width - 2))]
    for label, what in MOUSE_HELP:
        desc = wrap(what, max(20, width - 16))
        out.append(f"  {label:<13} {desc[0]}")
        out.extend(" " * 16 + d.strip() for d in desc[1:])
    tail = ("While a message or the score, sheet or log is shown, a click closes it as Enter does; "
            "a question (quit? which meld? a name) waits for its keys.")
    out += ["  " + t.strip() for t in wrap(tail, max(20, width - 2))]
    return out


def sort_hand(cards: Sequence[int], order: str = "rank") -> list[int]:
    """A hand in the order the player chose.

    ``rank``: as the DOS game, A, 3, 4 ... K, then deuces and jokers (suits in club, diamond,
    heart, spade order within a rank).  ``suit``: clubs, diamonds, hearts, spades, each in
    that rank order, then the wild cards.
    """
    from ..engine.cards import IS_WILD, SUIT_OF, display_key, sorted_for_display

    if order == "suit":
        return sorted((int(c) for c in cards),
                      key=lambda c: (IS_WILD[c], 0 if IS_WILD[c] else SUIT_OF[c], display_key(c)))
    return [int(c) for c in sorted_for_display(cards)]


def meld_cards(m: Meld, g: Glyphs) -> str:
    return " ".join(card_label(c, g) for c in (*m.naturals, *m.wilds))


def canasta_kind(m: Meld, rules: Rules | None = None) -> str:
    """A canasta's kind as the players of these rules say it: ``natural``, ``mixed``, ``wild``,
    and in Samba and Bolivia ``samba`` or ``escalera`` (a sequence of seven) and ``bolivia``
    (seven wild cards); "" for a meld short of a canasta."""
    if not m.is_canasta:
        return ""
    if m.is_wild_meld:
        name = rules.wild_canasta_name if rules is not None else "wild canasta"
        return "wild" if name == "wild canasta" else name
    if m.is_sequence:
        return rules.sequence_canasta_name if rules is not None else "sequence"
    return "natural" if m.is_natural else "mixed"


def canasta_tag(m: Meld, g: Glyphs, short: bool = False, rules: Rules | None = None) -> str:
    """The mark of a canasta: ``★natural`` (``★nat`` short), ``★samba``, ``★bolivia``."""
    kind = canasta_kind(m, rules)
    if not kind:
        return ""
    return g.star + (kind[:3] if short else kind)


def ordered_slots(row: Sequence[Meld | None]) -> list[tuple[int, Meld]]:
    """A side's melds in the table's order (:func:`~canasta_tui.engine.melds.ordered_melds`), each
    with its slot in the row: a rank's slot (0-14), or 15 and up for a sequence or a further meld
    of a rank (Samba, Bolivia).  The slot is what a click on the meld addresses."""
    slots = {id(m): i for i, m in enumerate(row) if m is not None}
    return [(slots[id(m)], m) for m in ordered_melds(row)]


def meld_name(m: Meld, g: Glyphs) -> str:
    """A meld's short name: its rank (``K``, ``W`` for wild cards), or a sequence's run ``7♥-10♥``."""
    from ..engine.cards import RANK_NAMES

    if m.is_sequence:
        return f"{card_label(m.naturals[0], g)}-{card_label(m.naturals[-1], g)}"
    return "W" if m.is_wild_meld else RANK_NAMES[m.rank]


def meld_line(m: Meld, width: int, g: Glyphs, rules: Rules | None = None) -> tuple[str, str]:
    """One meld, compact: rank, how many naturals, the wild cards, the canasta kind.

    The widest form that fits ``width`` is used (``K ×5 +2 JK  ★mixed``, then shorter
    spellings), so a partnership's melds read the same at every size.
    """
    from ..engine.cards import RANK_OF

    name = meld_name(m, g)  # Samba, Bolivia: a sequence is "7♥-9♥ ×3"
    times = "×" if g is UNICODE else "x"
    # A deuce by its suit too ("+2♠", not "+2", which reads as two wild cards).
    wild_names = ["JK" if RANK_OF[w] == 14 else card_label(w, g) for w in m.wilds]
    style = ""
    if m.is_canasta:
        style = "canasta.mixed" if not m.is_natural and not m.is_wild_meld else "canasta.natural"
    candidates = []
    for tag in (canasta_tag(m, g, rules=rules), canasta_tag(m, g, short=True, rules=rules)):
        if m.is_wild_meld:      # Bolivia: a meld of wild cards only, "W ×4 2 2 JK JK"
            for wild in (" " + " ".join(wild_names), " " + ",".join(wild_names), ""):
                candidates.append((f"{name:>2} {times}{len(m.wilds)}{wild}", tag))
            continue
        for wild in (" +" + " ".join(wild_names), " +" + ",".join(wild_names), f" +{len(wild_names)}w"):
            left = f"{name:>2} {times}{len(m.naturals)}" + (wild if wild_names else "")
            candidates.append((left, tag))
    for left, tag in candidates:
        if len(left) + 1 + len(tag) <= width:
            gap = width - len(left) - len(tag)
            return left + " " * gap + tag, style
    left, tag = candidates[-1]
    return (left + " " + tag)[:width], style


def meld_cell(m: Meld, width: int, g: Glyphs, rules: Rules | None = None) -> str:
    """A meld in a narrow cell: ``K×5+2 ★mix`` (rank, natural cards, wild cards, canasta kind);
    a sequence by its run, ``7♥-10♥``, ``8♥-A♥★sa`` for a samba (Samba, Bolivia)."""
    name = meld_name(m, g)
    tag = canasta_tag(m, g, short=True, rules=rules)
    if m.is_sequence:
        for text in (f"{name} {tag}", f"{name}{tag}", f"{name} {tag[:3]}", f"{name}{tag[:3]}", f"{name}{tag[:2]}",
                     f"{name}{tag[:1]}"):
            if len(text) <= width:
                return text.rstrip()
        return name[:width]
    times = "×" if g is UNICODE else "x"
    if m.is_wild_meld:          # Bolivia: "W×4", "W×7★bol"
        for text in (f"{name:>2}{times}{len(m.wilds)} {tag}", f"{name}{times}{len(m.wilds)}{tag}"):
            if len(text) <= width:
                return text.rstrip()
        return f"{name}{times}{len(m.wilds)}{tag}"[:width]
    wilds = f"+{len(m.wilds)}" if m.wilds else ""
    # The widest spelling that fits: a 24-column quadrant (80x24) has cells of 9.
    forms = [f"{name:>2}{times}{len(m.naturals)}{wilds}" + ("w" if wilds else "") + (" " + tag if tag else ""),
             f"{name}{times}{len(m.naturals)}{wilds}" + ("w" if wilds else "") + (" " + tag if tag else ""),
             f"{name}{times}{len(m.naturals)}{wilds}{tag}",
             f"{name}{times}{len(m.naturals)}{wilds}{tag[:2]}"]
    for text in forms:
        if len(text) <= width:
            return text
    return forms[-1][:width]


def has_melded(v: PlayerView, t: int) -> bool:
    """Side ``t`` has made its initial meld: it has melds, and if it is the side playing now,
    this turn's melds meet the requirement (until then they may still come back)."""
    short = (v.turn >= 0 and v.phase != Phase.HAND_OVER and _team(v.turn, v.rules) == t
             and v.meld_needed > v.meld_count)
    return any(m is not None for m in v.melds[t]) and not short


def score_lines(rules: Rules, v: PlayerView, totals: Sequence[int], hands_played: int,
                names: Sequence[str] | None = None) -> list[str]:
    """The Score dialog: each side's match score and initial meld requirement, and what each
    side would score if the hand ended now, item by item: the table is public, the viewer's own
    hand counts against its side, the hands it cannot see are only counted (DOS "The Score": "To
    see the score of each partnership and their respective initial meld requirements")."""
    from ..engine import score_so_far

    teams = range(rules.teams)
    col = 15 if rules.teams <= 2 else 11
    heads = [side_name(t, rules, names, col - 1) if rules.teams <= 2 or names is not None else f"P{t + 1}"
             for t in teams]
    scores, unseen = score_so_far(v)

    def row(label: str, cells: Sequence[object]) -> str:
        return f"{label:<18}" + "".join(f"{points(c) if isinstance(c, int) else c:>{col}}" for c in cells)

    def canastas(t: int) -> str:
        ts = scores[t]
        parts = [f"{ts.natural_canastas} nat"] if ts.natural_canastas else []
        # Samba, Bolivia: sambas (escaleras) and bolivias have rows of their own (see below).
        mixed = ts.mixed_canastas + (0 if rules.sequences else ts.wild_canastas)
        parts += [f"{mixed} mix"] if mixed else []
        return ", ".join(parts) or "none"

    out = [row("", heads), row("Match score", [totals[t] for t in teams]),
           row("Initial meld", ["melded" if has_melded(v, t) else f"needs {points(v.requirements[t])}" for t in teams]),
           row("Canastas of a rank" if rules.sequences else "Canastas", [canastas(t) for t in teams])]
    kinds = special_canastas(rules)
    out += [row(name.capitalize() + "s", [count(scores[t]) for t in teams]) for name, _, count in kinds]
    out += ["", "If the hand ended now:", row("  Melded cards", [scores[t].melds for t in teams]),
            row("  Canasta bonuses", [scores[t].canasta_bonus for t in teams])]
    out += [row(f"    {name}s {points(bonus)}", [count(scores[t]) * bonus for t in teams]) for name, bonus, count in kinds]
    out.append(row("  Red threes", [scores[t].red_three_points for t in teams]))
    if any(scores[t].penalties for t in teams):
        out.append(row("  Penalties", [-scores[t].penalties for t in teams]))
    mine = _team(v.seat, rules) if v.seat >= 0 else -1
    if mine >= 0:
        out.append(row("  Your hand", [-scores[t].hand if t == mine else "" for t in teams]))
    out.append(row("  So far", [scores[t].total for t in teams]))
    out.append(row("  Cards not seen", [unseen[t] or "" for t in teams]))
    out.append(f"{hands_played} hand{'s' if hands_played != 1 else ''} played; the match is played to "
               f"{points(rules.target_score)}.")
    if rules.black_three_hand_penalty:
        out.append(f"A black three left in a hand at the end costs {points(rules.black_three_hand_penalty)}.")
    return out


def special_canastas(rules: Rules) -> list[tuple[str, int, Callable[[TeamScore], int]]]:
    """Samba's and Bolivia's canastas with bonuses of their own, as (name, bonus, how many a side
    has): the samba (escalera), a sequence of seven, and Bolivia's bolivia, seven wild cards
    (none in the other rules: their wild canastas count with the mixed ones)."""
    if not rules.sequences:
        return []
    out: list[tuple[str, int, Callable[[TeamScore], int]]] = [
        (rules.sequence_canasta_name, rules.sequence_bonus, lambda ts: ts.sequence_canastas)]
    if rules.wild_melds_allowed:
        out.append((rules.wild_canasta_name, rules.wild_canasta_bonus, lambda ts: ts.wild_canastas))
    return out


def bonus_legend(rules: Rules) -> str:
    """What the score sheet's bonus column holds, naming Samba's and Bolivia's own bonuses and
    Bolivia's black-three penalty ("" for the other rules: their sheet is as it always was)."""
    if not rules.sequences:
        return ""
    kinds = ", ".join(f"{name} {points(bonus)}" for name, bonus, _ in special_canastas(rules))
    text = f"bonus: canastas ({kinds}), red threes, going out; net: melded cards less cards in hand and penalties"
    if rules.black_three_hand_penalty:
        text += f" (a black three left in hand {points(rules.black_three_hand_penalty)})"
    return text


#: The widest line of the score sheet: its box's inside at 80 columns.
SHEET_WIDTH = 72


def sheet_lines(rules: Rules, sheet: Sequence[HandRecord], totals: Sequence[int], room: int,
                names: Sequence[str] | None = None) -> list[str]:
    """The score sheet: per hand and side the bonuses and the net cards (melded cards less the
    cards in hand less penalties) and the running total, as the DOS sheet; at least the last
    four hands; then the totals and each side's initial meld requirement for the next hand."""
    # Three sides' columns are narrower, so that the sheet fits its box at 80 columns.
    col, bw, nw = (21, 7, 7) if rules.teams <= 2 else (19, 6, 6)
    # The dealer by name (as the table names them), as wide as the box leaves room for.
    dealers = [names[r.dealer] if names is not None else player_name(r.dealer) for r in sheet]
    dw = max(8, min(SHEET_WIDTH - 5 - col * rules.teams, max(map(len, dealers), default=0)))
    lw = 5 + dw
    out = [f"{'':<{lw}}" + "".join(f"{side_name(t, rules, names, col - 1):>{col}}" for t in range(rules.teams))]
    out.append(f"{'Hand':<5}{'Dealer':<{dw}}" + f"{'bonus':>{col - bw - 7}}{'net':>{nw}}{'total':>7}" * rules.teams)
    keep = max(4, room - 5)
    shown = sheet[-keep:]
    if len(shown) < len(sheet):
        out.append(f"({len(sheet) - len(shown)} earlier hands: t shows more on a taller screen)")
    for rec, dealer in zip(shown, dealers[len(sheet) - len(shown):], strict=True):
        cells = ""
        for ts, total in zip(rec.scores, rec.totals, strict=True):
            bonus = ts.canasta_bonus + ts.red_three_points + ts.going_out
            net = ts.melds - ts.hand - ts.penalties
            # ("-1,250" keeps a space before it), the total under the Totals row's.
            cells += f"{points(bonus):>{col - bw - 7}}{points(net):>{nw}}{points(total):>7}"
        name = dealer if len(dealer) <= dw else dealer[: dw - 1] + "~"
        out.append(f"{rec.number:<5}{name:<{dw}}" + cells)
    out.append(f"{'Totals':<{lw}}" + "".join(f"{points(t):>{col}}" for t in totals))
    out.append(f"{'Next needs':<{lw}}" + "".join(f"{points(rules.requirement(t)):>{col}}" for t in totals))
    legend = bonus_legend(rules)
    if legend:
        out += wrap(legend, max(40, lw + col * rules.teams))
    return out


def _summary_melds(melds: Sequence[Meld], left_w: int, half: int, big: bool, g: Glyphs,
                   rules: Rules | None = None) -> list[str]:
    """A side's combined melds in the summary's left column: as cards on a big terminal when
    they fit, else a line each, else two narrow columns ("K×5+2w" and a star for a canasta)."""
    from ..engine.cards import RANK_NAMES

    def tag(m: Meld) -> str:
        return canasta_tag(m, g, rules=rules)
    if big and len(melds) <= half and all(len(meld_cards(m, g)) + 1 + len(tag(m)) <= left_w for m in melds):
        left = [meld_cards(m, g).ljust(left_w - len(tag(m))) + tag(m) for m in melds]
    else:
        left = [meld_line(m, left_w, g, rules)[0] for m in melds]
    left = left or ["no melds"]
    if len(left) > half:
        times = "×" if g is UNICODE else "x"

        def cell(m: Meld) -> str:
            if rules is not None and rules.sequences and m.is_canasta and (m.is_sequence or m.is_wild_meld):
                # Samba, Bolivia: a samba (escalera) or a bolivia is named: "4♥×7★sam", "W×7★bol".
                first = "W" if m.is_wild_meld else card_label(m.naturals[0], g)
                return f"{first:>2}{times}{m.size}{canasta_tag(m, g, short=True, rules=rules)}"
            if m.is_wild_meld:
                return f" W{times}{len(m.wilds)}" + (g.star if m.is_canasta else "")
            return (f"{card_label(m.naturals[0], g) if m.is_sequence else RANK_NAMES[m.rank]:>2}"
                    f"{times}{len(m.naturals)}" + (f"+{len(m.wilds)}w" if m.wilds else "") + (g.star if m.is_canasta else ""))
        short = [cell(m) for m in melds]
        per = (len(short) + 1) // 2
        left = [f"{short[i]:<11}" + (short[i + per] if i + per < len(short) else "") for i in range(per)]
    return left


def match_line(rules: Rules, names: Sequence[str], totals: Sequence[int], width: int) -> str:
    """The match's score under a hand's summary: each side by its names where they fit, else by
    its names each shortened alike, so both scores always show."""
    room = max(8, (width - 7) // rules.teams - 12)
    return first_fit(["Match: " + "   ".join(f"{side_name(t, rules, names, w)}: {points(totals[t])}"
                                             for t in range(rules.teams)) for w in (0, room)], width)


def summary_table(v: PlayerView, hands: Sequence[Sequence[int]], rec: HandRecord, names: Sequence[str],
                  width: int, height: int, g: Glyphs = UNICODE, sort: str = "rank") -> list[str]:
    """The DOS "Scoring Summary Table" of a finished hand, one screen.

    One half per side (Players 1 & 3 on top, Players 2 & 4 below): the side's combined melds
    down the left (rank and count), the cards left in each partner's hand in the middle (all
    hands are shown when the hand is over), the scoring summary on the right.
    """
    rules = v.rules
    teams = rules.teams
    # A big terminal shows each side's combined melds as cards, as the DOS screen does.
    left_w, right_w = (40 if width >= 120 else 22), 24
    mid_w = width - left_w - right_w - 2
    how = (f"{names[rec.went_out]} went out" + (" concealed" if v.concealed else "")
           if rec.went_out >= 0 else f"the hand ended: {end_text(rec.end_reason)}")
    out = [f" Hand {rec.number} is over {g.dash} {how}"[:width]]
    half = max(4, (height - 3 - teams) // teams)
    for t in range(teams):
        title = f"{g.hline} {side_name(t, rules, names)} "
        out.append((title + g.hline * width)[:width])
        melds = ordered_melds(v.melds[t])  # sequences and further melds too (Samba, Bolivia)
        left = _summary_melds(melds, left_w, half, width >= 120, g, rules)
        mid: list[str] = []
        seats = (t, t + 2) if rules.partnerships else (t,)
        for p in seats:
            cards = sort_hand(hands[p], sort)
            text = f"{names[p]}: " + (" ".join(card_label(c, g) for c in cards) if cards else "no cards")
            mid += wrap(text, mid_w)
        ts = rec.scores[t]
        # Every penalty named in full (the summary's column has only room for the sum).
        minus = "\u2212" if g is UNICODE else "-"
        for reason, cost in ts.penalty_items:
            mid += wrap(f"{minus}{points(cost)} {reason}", mid_w)
        items = ts.lines()
        # Samba, Bolivia: the sambas' (escaleras') and bolivias' bonuses under the canasta bonuses,
        # or, where the column has no room for them, in the middle with the penalties.
        special = [(f" {count(ts)} {name}{'s' if count(ts) != 1 else ''}", count(ts) * bonus)
                   for name, bonus, count in special_canastas(rules) if count(ts)]
        if len(items) + 1 + len(special) <= half:
            items[2:2] = special
        else:
            mid += [line for label, bonus in special for line in wrap(f"+{points(bonus)}{label}", mid_w)]
        right = [f"{label:<16}{points(value):>{right_w - 16}}" for label, value in items]
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
    out = out[: height - 2]
    out.append(match_line(rules, names, rec.totals, width))
    out.append("Enter: the score sheet")
    return out


__all__ = ["ASK_HINT", "MELD_ORDER", "MOUSE_HELP", "ask_warning", "bonus_legend", "canasta_kind", "canasta_tag",
           "help_lines", "load_lines", "meld_cards",
           "meld_line", "meld_name", "mouse_lines", "ordered_slots", "pile_option_text", "score_lines", "sheet_lines",
           "side_name", "sort_hand", "special_canastas", "summary_table"]
