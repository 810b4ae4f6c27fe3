"""The pure view functions: exact text at fixed sizes (golden files in tests/ui/golden).

Regenerate after a deliberate change with ``UPDATE_GOLDEN=1 pytest tests/ui/test_render.py``
and review the diff.
"""

from __future__ import annotations

import pytest

from canasta_tui.engine import Phase, parse_action
from canasta_tui.engine.cards import parse_card
from canasta_tui.engine.melds import Meld
from canasta_tui.table import local_link
from canasta_tui.ui.canvas import ASCII_OPTIONS, Options, wrap
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.dialogs import Privacy
from canasta_tui.ui.render import frozen_reason, pile_note, table_layout
from canasta_tui.ui.style import ASCII, UNICODE
from canasta_tui.ui.texts import meld_line, side_name

from .helpers import check_golden, client, render, session, table_of


def check(name: str, text: str) -> None:
    check_golden(name, text)


def busy_controller() -> Controller:
    """Seed 5: play 40 actions so both sides have melds, red threes and a pile."""
    s = session(seed=5)
    ctl = Controller(local_link(s))
    while len(s.events) < 60 and s.state.phase != Phase.HAND_OVER:
        if ctl.client.my_turn():
            for a in ("draw", "meld K K K"):
                if parse_action(a) in ctl.client.legal():
                    ctl.type_action(a)
            if ctl.client.my_turn() and ctl.client.lit()["discard"]:
                ctl.key("c")
            elif ctl.client.my_turn():
                ctl.key("u")
                ctl.key("c")
        else:
            s.step()
        ctl.message = []
    while not ctl.client.my_turn():
        s.step()
    ctl.key("d")
    ctl.key("right")
    ctl.key("space")
    return ctl


@pytest.mark.parametrize("size", [(80, 24), (132, 43)])
def test_busy_table(size: tuple[int, int]) -> None:
    check(f"busy_{size[0]}x{size[1]}.txt", render(busy_controller(), *size).text())


def test_busy_table_ascii() -> None:
    text = render(busy_controller(), 80, 24, ASCII_OPTIONS).text()
    check("busy_80x24_ascii.txt", text)
    assert not any(ord(ch) > 127 for ch in text)


def test_too_small() -> None:
    text = render(busy_controller(), 79, 24).text()
    assert "terminal too small (need 80x24)" in text
    assert "♠" not in text and "K" not in text.replace("q quits", "")
    ctl = busy_controller()
    ctl.key("q")
    assert "Quit the game? y: quit, n: keep playing" in render(ctl, 70, 20).text()


def test_first_screen_80x24() -> None:
    ctl = client(session(seed=5))
    check("first_80x24.txt", render(ctl, 80, 24).text())


def test_hot_seat_privacy_screen_is_blank_but_for_the_prompt() -> None:
    ctl = client(session(players=2, seed=5))
    text = render(ctl, 80, 24).text()
    assert ctl.client.dialog is not None and isinstance(ctl.client.dialog, Privacy)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    assert lines == ["Player 1 is up — press Enter", "(everybody else: please look away)"]


def test_meld_lines() -> None:
    m = Meld(13, tuple(int(parse_card(c)) for c in "Kh Ks Kc Kd Kh".split()), (int(parse_card("2c")), 56))
    # A deuce is named with its suit: "+2" alone reads as two wild cards, not one deuce.
    assert meld_line(m, 25, UNICODE) == (" K ×5 +2♣ JK       ★mixed", "canasta.mixed")
    one = Meld(6, tuple(int(parse_card(c)) for c in "6h 6s 6c 6d 6h 6s 6c".split()), (int(parse_card("2d")),))
    assert meld_line(one, 25, UNICODE)[0].startswith(" 6 ×7 +2♦ ")
    assert meld_line(one, 25, ASCII)[0].startswith(" 6 x7 +2d ")
    assert meld_line(one, 12, UNICODE) == (" 6 ×7 +1w ★m", "canasta.mixed")
    assert meld_line(m, 16, UNICODE) == (" K ×5 +2w ★mixed", "canasta.mixed")
    assert meld_line(m, 12, UNICODE) == (" K ×5 +2w ★m", "canasta.mixed")
    m = Meld(7, tuple(int(parse_card(c)) for c in "7h 7s 7c".split()))
    assert meld_line(m, 25, UNICODE) == (" 7 ×3                    ", "")


def test_wrap() -> None:
    assert wrap("Player 2 took the pile of 12, K♥ with K K", 25) == ["Player 2 took the pile of", "  12, K♥ with K K"]


# ---------------------------------------------------------------------- regions never overlap

def crowded_controller(rules: str = "classic", players: int = 1) -> Controller:
    """Everything at once: long names, long log lines, nine melds a side with canastas, red threes,
    an empty pile, a long selection."""
    from canasta_tui.engine.cards import IS_RED_THREE, RANK_NAMES
    from canasta_tui.ui.texts import MELD_ORDER

    s = session(players=players, seed=5, rules=rules)
    s.seats = tuple(x.with_(name="Bartholomew Fitzwilliam-Smythe the Third") for x in s.seats)
    ctl = Controller(local_link(s))
    long_lines = [(1, "Player 2 took the pile of 23, K♥ with K K and a very long tail of words " + "x" * (10 + 7 * i))
                  for i in range(12)]
    ctl.client.log_lines = lambda: long_lines  # type: ignore[method-assign]
    v = ctl.client.view()

    def card(text: str) -> int:
        return int(parse_card(text))
    melds = []
    for _team in range(v.rules.teams):
        row: list[Meld | None] = [None] * 15
        for r in MELD_ORDER[:9]:
            if r in (2, 3):
                continue
            nat = tuple(card(RANK_NAMES[r] + "h")
                        for _ in range(6))
            row[r] = Meld(r, nat, (card("2c"), 56)) if r % 2 else Meld(r, nat + nat[:2])
        melds.append(tuple(row))
    red = [c for c in range(len(IS_RED_THREE)) if IS_RED_THREE[c]]
    threes = tuple(tuple(red[:4]) for _ in range(v.rules.players))
    crowded = v._replace(melds=tuple(melds), pile=(), red_threes=threes, stock_size=0)
    ctl.client.view = lambda: crowded  # type: ignore[method-assign]
    ctl.client.selected = set(range(len(ctl.client.hand())))
    return ctl


@pytest.mark.parametrize("rules,players", [("classic", 1), ("classic", 2), ("two-player", 1), ("three-player", 1)])
@pytest.mark.parametrize("size", [(80, 24), (81, 25), (100, 30), (132, 43), (200, 60)])
def test_regions_never_run_into_each_other(rules: str, players: int, size: tuple[int, int]) -> None:
    from canasta_tui.table.events import meld_starters
    from canasta_tui.ui.canvas import Canvas, Region
    from canasta_tui.ui.render import draw_centre, draw_quadrant, table_layout
    ctl = crowded_controller(rules, players)
    if ctl.client.dialog is not None:
        ctl.client.dialog = None
        ctl.client.viewer = table_of(ctl).humans[0]
    W, H = size
    v = ctl.client.view()
    lines = render(ctl, W, H).lines()
    layout = table_layout(W, H, v.rules.players)
    regions = [*layout.quadrants, layout.centre, *([layout.spare] if layout.spare else [])]
    # No two regions share a cell, and together they stay between the header and the log line.
    cells = [(x, y) for r in regions for x in range(r.x, r.x + r.w) for y in range(r.y, r.y + r.h)]
    assert len(cells) == len(set(cells))
    assert all(1 <= y < layout.log_row and 0 <= x < W for x, y in cells)
    # Each quadrant of the full screen is exactly what that quadrant draws alone.
    starters = meld_starters(ctl.client.link.events, v.rules)
    for seat, rect in enumerate(layout.quadrants):
        alone = Canvas(W, H)
        draw_quadrant(Region(alone, *rect), ctl.snapshot(), v, seat, starters, DEFAULT)
        for y in range(rect.y, rect.y + rect.h):
            assert lines[y][rect.x:rect.x + rect.w] == alone.lines()[y][rect.x:rect.x + rect.w]
    alone = Canvas(W, H)
    draw_centre(Region(alone, *layout.centre), ctl.snapshot(), v, DEFAULT, ctl.client.log_lines()[:-1], ctl.cache)
    c = layout.centre
    for y in range(c.y, c.y + c.h):
        assert lines[y][c.x:c.x + c.w] == alone.lines()[y][c.x:c.x + c.w]
    text = "\n".join(lines)
    assert "Upcard — (empty)" in text
    assert "Barthol" in text
    # Every line is exactly the screen's width: nothing spills past the edge.
    assert all(len(line) == W for line in lines)


def test_a_sides_eight_melds_and_canasta_kinds_fit_one_quadrant_at_80x24() -> None:
    """Issue 12: "Canastas are marked natural or mixed, and a side's eight melds must still fit" (nine here),
    even when one player started them all (here Player 1 and Player 2 each started their side's)."""
    from canasta_tui.ui.render import table_layout

    ctl = crowded_controller()
    lines = render(ctl, 80, 24).lines()
    layout = table_layout(80, 24)
    for seat in (0, 1):
        q = layout.quadrants[seat]
        inside = "\n".join(line[q.x:q.x + q.w] for line in lines[q.y:q.y + q.h])
        for rank in ("A×", "4×", "5×", "6×", "7×", "8×", "9×", "10×", "J×"):
            assert inside.count(rank) == 1, (seat, rank, inside)
        assert inside.count("★nat") == 4 and inside.count("★mix") == 5, inside
    for seat in (2, 3):        # the partners started none
        q = layout.quadrants[seat]
        # (Player 4's red threes have a row of their own beside "computer, dealer": the melds start under it)
        assert "no melds" in "".join(line[q.x:q.x + q.w] for line in lines[q.y + 2:q.y + 4])


def test_the_quadrants_sit_in_the_order_of_play_with_partners_opposite() -> None:
    """DOS "The Play Table": "four quadrants, one for each player ... the name of the player ...
    alongside a light which illuminates when it is that player's turn"; issue 12: Player 1
    bottom left, 2 top left, 3 top right, 4 bottom right; a side's two quadrants share a frame."""
    ctl = client(session(seed=5))
    lines = render(ctl, 80, 24).lines()
    assert lines[1].startswith("┌ ○ Player 2 ") and "╔ ○ Player 3 " in lines[1]
    assert lines[9].startswith("╔ ● Player 1 ") and "┌ ○ Player 4 " in lines[9]
    assert "11 cards ┐" in lines[1] and "12 cards ╗" not in lines[9]
    assert lines[8].startswith("└─ 2&4: 0, needs 50 ") and "╚═ 1&3: 0, needs 50 " in lines[8]
    assert lines[16].startswith("╚═ 1&3: 0, needs 50 ") and "└─ 2&4: 0, needs 50 " in lines[16]


DEFAULT = Options()


def centre_text(text: str, width: int, height: int, players: int = 4) -> str:
    """The words of the table's centre, its wrapped lines joined."""
    c = table_layout(width, height, players).centre
    rows = text.splitlines()[c.y: c.y + c.h]
    return " ".join(" ".join(row[c.x: c.x + c.w].split()) for row in rows)


def test_centre_says_the_pile_is_frozen_for_a_side_that_has_not_melded() -> None:
    """Rules: until a side has made its initial meld the pile is frozen for it; the centre says
    so where the pile is drawn, as ``p`` does ("Until your side has made its initial meld, the
    pile is frozen for you"), not "pile not frozen"."""
    ctl = client(session(seed=2))
    v = ctl.client.view()
    assert not v.frozen
    text = render(ctl, 80, 24).text()
    assert "pile not frozen" not in text
    assert "frozen for every side until its initial meld" in centre_text(text, 80, 24)
    busy = busy_controller().client.view()
    assert pile_note(busy) == "pile not frozen"
    empty = (None,) * len(busy.melds[0])
    assert pile_note(busy._replace(melds=(empty, busy.melds[1]))) == "frozen for 1&3 until its initial meld"
    assert pile_note(busy._replace(melds=(busy.melds[0], empty))) == "frozen for 2&4 until its initial meld"


def test_windows_rules_frozen_pile_line_fits_at_80_columns() -> None:
    """The windows rules freeze the pile from the deal: at 80x24 the centre says so whole
    (it was cut to "FROZEN (by the rule")."""
    ctl = client(session(seed=2, rules="windows"))
    v = ctl.client.view()
    assert v.frozen
    text = render(ctl, 80, 24).text()
    assert "FROZEN at the deal" in centre_text(text, 80, 24)
    room = table_layout(80, 24).centre.w - 2
    assert all(len(note) <= room for note in ("FROZEN: wild card", "FROZEN: red three", frozen_reason(v),
                                              "stop: black three", "stop: wild card"))


def test_score_dialog_names_the_sides_by_their_players_names() -> None:
    """With names at the table the Score dialog (s) says "ann & Player 3", not "Players 1 & 3"."""
    from canasta_tui.presets import load_rules
    from canasta_tui.table import Table, seats_for

    t = Table(load_rules("classic"), seats_for(1, "beginner", name="ann"), 5)
    ctl = client(t)
    ctl.key("s")
    text = render(ctl, 80, 24).text()
    assert "ann & Player 3" in text and "Players 2 & 4" in text
    assert "Players 1 & 3" not in text
    names = ["a" * 20, "Player 2", "b" * 20, "Player 4"]
    assert side_name(0, t.rules, names, 14) == "aaaa~ & bbbb~"
    assert side_name(1, t.rules, names) == "Players 2 & 4"


def test_the_turn_line_offers_the_pile_only_when_it_can_be_taken() -> None:
    """RULES.md "Stop cards": a black three on the pile stops it for the next player.  The hint
    line then offers only the stock (p still says why), and offers the pile when it may be taken."""
    from canasta_tui.ui.model import status_line
    from tests.ai.helpers import position

    def line(pile: str) -> str:
        s = position({0: "7h 7s 8s 9c"}, melds={0: ["5c 5h 5d"]}, phase=Phase.DRAW)
        t = session()
        t.match = t.match._replace(state=s._replace(pile=tuple(int(parse_card(x)) for x in pile.split())))
        return status_line(client(t).client)

    assert line("4c 9d 3c") == "Your turn: d draws from the stock; the pile cannot be taken now (p says why)"
    assert line("4c 9d 7d") == "Your turn: d draws from the stock, p takes the pile"


def test_the_turn_line_with_the_stock_exhausted_never_offers_a_draw() -> None:
    """Windows 2008: "If the discard pile is not frozen and you can add the top discard to one of
    your melds, you must take that top discard. Only that card is removed from the pile"; DOS:
    "the next player is 'forced' to pick up the discard".  With no stock, d is never offered."""
    from canasta_tui.engine import CLASSIC
    from canasta_tui.ui.model import status_line
    from tests.ai.helpers import position

    def line(stock_exhausted: str, hand: str) -> str:
        s = position({0: hand}, melds={0: ["5c 5h 5d"]}, phase=Phase.DRAW, pile="5s", stock=0)
        s = s._replace(rules=CLASSIC.replace(stock_exhausted=stock_exhausted))
        t = session()
        t.match = t.match._replace(state=s)
        return status_line(client(t).client)

    assert line("top_card", "7h 7s 8s 9c") == \
        "Your turn: the stock is exhausted: p puts the upcard on your meld (the pile stays)"
    assert line("forced", "7h 7s 8s 9c") == "Your turn: the stock is exhausted: p takes the pile"
