"""The table as the DOS game laid it out (issue 12): four quadrants, melds where they were
started, a side's two quadrants reading as one; the score during a hand; wild cards onto a meld
until it is a canasta; the mouse on cards, melds, stock, upcard and buttons."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from canasta_tui.engine import GameState, Phase, public_view
from canasta_tui.engine.cards import parse_card
from canasta_tui.engine.state import HandEnd
from canasta_tui.table import Table, local_link, seats_for
from canasta_tui.table.events import MELDED, Event
from canasta_tui.ui.app import TableApp
from canasta_tui.ui.canvas import ASCII_OPTIONS, Options
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.dialogs import WildTarget
from canasta_tui.ui.pages import PageDialog
from canasta_tui.ui.render import table_layout
from canasta_tui.ui.texts import summary_table

from .helpers import check_golden, render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from positions import position

#: Eight melds a side, with canastas of both kinds, a frozen pile, red threes.
EIGHT = {
    0: ["Ac Ad Ah As 2c", "4c 4d 4h 4s 4c 4d 4h", "5c 5d JK", "6c 6d 6h", "7c 7d 7h 7s 2d 2h JK",
        "8c 8d 8h", "9c 9d 9h 9s", "Kc Kd Kh"],
    1: ["Ah Ad Ac 2s", "10c 10d 10h 10s 10c 10d 10h", "Jc Jd Jh", "Qc Qd Qh Qs JK", "Kc Ks Ks",
        "5h 5s 5h", "6s 6s 6h 2c", "9c 9d 9h 9s 2d 2h JK"],
}
#: Who started each meld (the rest went onto them): partners share the side's melds.
STARTED = {0: {1: 0, 4: 2, 5: 0, 6: 2, 7: 0, 8: 2, 9: 0, 13: 2},
           1: {1: 1, 10: 3, 11: 1, 12: 3, 13: 1, 5: 3, 6: 1, 9: 3}}


def c(text: str) -> int:
    return int(parse_card(text))


def busy_eight() -> Controller:
    """A busy hand: Player 1 to discard, eight melds a side started by both partners."""
    state = position({0: "3s 5s 8s Jd Qh Kd", 1: "7h 8d", 2: "3c 7s 8h Qs Qd", 3: "As"},
                     melds=EIGHT, pile="2s 7d 10s 6d", red_threes={0: "3h", 3: "3d 3h"},
                     stock="4s 5c 8c Jc Qc", turn=0)
    t = Table(state.rules, seats_for(1, "beginner"), 5)
    t.match = t.match._replace(state=state)
    seq = len(t.events)
    for side, started in STARTED.items():
        for rank, seat in started.items():
            m = state.melds[side][rank]
            assert m is not None
            seq += 1
            t.events.append(Event(seq, 1, MELDED, seat, (*m.naturals[:3],), rank=rank))
    return Controller(local_link(t))


def check(name: str, text: str) -> None:
    check_golden(name, text)


@pytest.mark.parametrize(("size", "opts", "name"), [((80, 24), Options(), "eight_melds_80x24.txt"),
                                                     ((80, 24), ASCII_OPTIONS, "eight_melds_80x24_ascii.txt"),
                                                     ((132, 43), Options(), "eight_melds_132x43.txt")])
def test_golden_busy_table_with_eight_melds_a_side(size: tuple[int, int], opts: Options, name: str) -> None:
    text = render(busy_eight(), *size, opts).text()
    check(name, text)
    if opts is ASCII_OPTIONS:
        assert not any(ord(ch) > 127 for ch in text)


def test_each_meld_lies_in_the_quadrant_of_the_player_who_started_it() -> None:
    """DOS: "When a player chooses to Meld, each card is placed on the table in the proper
    quadrant"; issue 12: "When a partner adds to a meld, the card goes onto that meld, in
    whichever quadrant it is"."""
    lines = render(busy_eight(), 132, 43).lines()
    layout = table_layout(132, 43)

    def inside(seat: int) -> str:
        q = layout.quadrants[seat]
        return "\n".join(line[q.x:q.x + q.w] for line in lines[q.y:q.y + q.h])
    assert "A♣ A♦ A♥ A♠ 2♣" in inside(0) and "A♣ A♦ A♥ A♠ 2♣" not in inside(2)
    assert "4♣ 4♦ 4♥ 4♠ 4♣ 4♦ 4♥" in inside(2) and "★natural" in inside(2)
    assert "10♣ 10♦ 10♥ 10♠ 10♣ 10♦ 10♥" in inside(3) and "J♣ J♦ J♥" in inside(1)
    assert inside(0).count("★") == 1 and inside(2).count("★") == 1      # 7s mixed (P1), 4s natural (P3)


def test_score_during_a_hand_is_itemised_as_if_the_hand_ended_now() -> None:
    """Issue 12: "Score shows what each side would score if the hand ended now, itemised (melded
    cards, canasta bonuses, red threes, cards in hand) next to the match scores and initial meld
    requirements."  The other hands are not seen, so they are only counted."""
    ctl = busy_eight()
    ctl.key("s")
    text = render(ctl, 80, 24).text()

    def row(label: str) -> list[str]:
        line = next(line for line in text.splitlines() if f"│ {label}" in line or f"│   {label}" in line)
        return line.split(label, 1)[1].split("│")[0].split()
    v = ctl.client.view()
    us, them = (sum(m.points for m in v.melds[t] if m is not None) for t in (0, 1))
    assert row("Melded cards") == [str(us), str(them)]
    assert row("Canasta bonuses") == ["800", "800"]      # 4s natural + 7s mixed; 10s natural + 9s mixed
    assert row("Red threes") == ["100", "200"]
    assert row("Your hand") == [str(-(5 + 5 + 10 + 10 + 10 + 10))]      # 3s 5s 8s Jd Qh Kd
    assert row("So far") == [f"{us + 800 + 100 - 50:,}", f"{them + 800 + 200:,}"]      # "1,270": thousands grouped
    assert row("Cards not seen") == ["5", "3"]          # Player 3's five; Players 2 and 4's two and one
    assert row("Match score") == ["0", "0"] and row("Initial meld") == ["melded", "melded"]


def test_the_scoring_summary_shows_combined_melds_as_cards_on_a_big_terminal() -> None:
    """Issue 12: "where the terminal is large enough, show each side's combined melds as cards, as
    the DOS screen does, not only as 'rank × count'"."""
    from canasta_tui.engine.match import HandRecord
    from canasta_tui.engine.scoring import score_hand

    ctl = busy_eight()
    s: GameState = ctl.client.link._table.state._replace(phase=Phase.HAND_OVER, went_out=0)
    rec = HandRecord(1, 3, score_hand(s), tuple(x.total for x in score_hand(s)), 0, HandEnd.WENT_OUT)
    names = [f"Player {p + 1}" for p in range(4)]
    big = "\n".join(summary_table(public_view(s), s.hands, rec, names, 132, 43))
    small = "\n".join(summary_table(public_view(s), s.hands, rec, names, 80, 24))
    assert "7♣ 7♦ 7♥ 7♠ 2♦ 2♥ JK" in big and "★mixed" in big
    assert "7♣ 7♦ 7♥ 7♠" not in small and " 7 ×4 +2♦ 2♥ JK" in small


def test_W_adds_wild_cards_until_the_meld_is_a_canasta() -> None:
    """Windows 2.41: "Pressing SHIFT while clicking will add as many wildcards as necessary to
    create a canasta (if possible)"."""
    state = position({0: "2c 2d JK 5h 6h 7s"}, melds={0: ["Kc Kd Kh Ks"]}, stock="8c 8d")
    ctl = _at(state)
    ctl.key("W")
    assert ctl.client.dialog is not None and isinstance(ctl.client.dialog, WildTarget)
    ctl.key("k")
    m = ctl.client.view().melds[0][13]
    assert m is not None and m.is_canasta and m.size == 7
    assert sorted(ctl.client.hand()) == sorted(c(x) for x in "5h 6h 7s".split())   # deuces and the joker all went
    # Not possible: the meld would need more wild cards than the limit allows (three).
    ctl = _at(position({0: "2c 2d JK 2h 5h 6h"}, melds={0: ["Qc Qd Qh"]}, stock="8c 8d"))
    ctl.key("W")
    ctl.key("q")
    assert ctl.message == ["Your meld of Queens needs 4 more cards to be a canasta; the meld may take only 3 more"]
    assert ctl.client.view().melds[0][12].size == 3        # type: ignore[union-attr]


def _at(state: GameState) -> Controller:
    t = Table(state.rules, seats_for(1, "beginner"), 5)
    t.match = t.match._replace(state=state)
    return Controller(local_link(t))


class Mouse:
    """The real app at 80x24 with --mouse, fed SGR mouse clicks through a pipe."""

    def __init__(self, state: GameState) -> None:
        self.table = Table(state.rules, seats_for(1, "beginner"), 5)
        self.table.match = self.table.match._replace(state=state)

    async def __aenter__(self) -> Mouse:
        out = DummyOutput()
        out.get_size = lambda: Size(rows=24, columns=80)  # type: ignore[method-assign]
        self._pipe = create_pipe_input()
        self.inp = self._pipe.__enter__()
        self._session = create_app_session(input=self.inp, output=out)
        self._session.__enter__()
        self.app = TableApp.local(self.table, delay_ms=0, input=self.inp, output=out, options=Options(mouse=True))
        self.ctl = self.app.controller
        self.task = asyncio.create_task(self.app.run_async())
        for _ in range(500):
            if self.app.frames:
                break
            await asyncio.sleep(0.002)
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.ctl.client.quit()
        self.app.app.exit()
        await asyncio.wait_for(self.task, 5)
        self._session.__exit__(None, None, None)
        self._pipe.__exit__(None, None, None)

    def where(self, text: str, row: int | None = None) -> tuple[int, int]:
        lines = render(self.ctl, 80, 24, self.app.options).lines()
        for y in [row] if row is not None else range(24):
            if text in lines[y]:
                return lines[y].index(text), y
        raise AssertionError(f"{text!r} is not on screen")

    async def click(self, text: str, row: int | None = None) -> None:
        x, y = self.where(text, row)
        n = self.app.frames
        self.inp.send_text(f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m")
        for _ in range(500):
            await asyncio.sleep(0.002)
            if self.app.frames > n:
                return


def test_the_mouse_works_on_the_stock_a_card_a_meld_and_the_buttons() -> None:
    """Issue 12, --mouse: "clicking a card, a meld in a quadrant (for a wild card), the stock, the
    upcard and each button works"."""
    state = position({0: "2c 5h 6h 7s 9c Kc"}, melds={0: ["Kd Kh Ks"]}, phase=Phase.DRAW, pile="8h 9d",
                     stock="8c 8d 4c")

    async def run() -> dict[str, object]:
        seen: dict[str, object] = {}
        async with Mouse(state) as m:
            t, ctl = m.table, m.ctl
            await m.click("Stock")                               # the stock: draw
            seen["drew"] = t.state.phase == Phase.MELD and t.state.t.drew == "stock"
            await m.click("2♣", 20)                              # a card of the hand: select it
            seen["selected"] = ctl.client.selected == {ctl.client.hand().index(c("2c"))}
            await m.click("K♦ K♥ K♠")                            # the meld of Kings: the wild card goes on
            meld = t.state.melds[0][13]
            seen["wild_on_meld"] = meld is not None and c("2c") in meld.wilds
            await m.click("[?]Help", 23)                         # a button
            seen["help"] = ctl.client.dialog is not None and isinstance(ctl.client.dialog, PageDialog)
        return seen

    assert asyncio.run(run()) == {"drew": True, "selected": True, "wild_on_meld": True, "help": True}


def test_clicking_the_upcard_takes_the_pile() -> None:
    state = position({0: "9c 9h 5h 6h 7s Kc"}, melds={0: ["Kd Kh Ks"]}, phase=Phase.DRAW, pile="8h 9d",
                     stock="8c 8d 4c")

    async def run() -> bool:
        async with Mouse(state) as m:
            await m.click("9♦")
            for _ in range(500):
                if m.table.state.phase == Phase.MELD:
                    break
                await asyncio.sleep(0.002)
            return m.table.state.t.drew == "pile"

    assert asyncio.run(run())
