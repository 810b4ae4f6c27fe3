"""The end of a hand at 80x24: the DOS "Scoring Summary Table", then the score sheet.

"Once a hand has ended, a new screen will appear showing the combined melds for each
partnership, the partnership's un-played cards remaining and a scoring summary.  The top
half of the screen is for Players 1 and 3, while Players 2 and 4 occupy the bottom half."
"The Canasta score sheet shows the bonus points and net cards ... for the last four hands.
Shown at the bottom of the sheet is each partnership's 'Initial Meld Requirement' for the
next hand." (DOS manual, Chapter 1)

The hands are played by the seeded uniform-random self-play of ``persistence.selfplay``
(engine only), so the texts do not move when the computer players change.
"""

from __future__ import annotations

from canasta_tui.engine import Match, player_name
from canasta_tui.persistence.selfplay import start, step
from canasta_tui.ui.controller import Controller, Dialog
from canasta_tui.ui.render import render, summary_table

from .helpers import session

WENT_OUT = '''\
 Hand 1 is over — Player 3 went out
─ Players 1 & 3 ────────────────────────────────────────────────────────────────
 A ×8 +2 2      ★mixed Player 1: 3♣ 4♥ 6♣ 7♦            Melded cards         635
 5 ×3 +2               Player 3: no cards               Canasta bonuses      600
 7 ×6                                                   Red threes           100
 8 ×5 +2                                                Going out            100
 9 ×4                                                   Cards in hand        -20
10 ×5                                                   Yes, not out x2     -200
 J ×6 +2 2      ★mixed                                                    ------
 Q ×6                                                   Total               1215
 K ×5
─ Players 2 & 4 ────────────────────────────────────────────────────────────────
 4 ×5                  Player 2: 3♣ 3♠ 4♣ 4♥ 6♦ 8♠ 9♣   Melded cards         230
 5 ×5 +2 JK     ★mixed   9♠ J♠ K♦                       Canasta bonuses      300
 6 ×4 +JK              Player 4: Q♦ K♥ JK               Red threes           200
10 ×2 +2                                                Going out              0
                                                        Cards in hand       -145
                                                        Yes, not out x3     -300
                                                                          ------
                                                        Total                285


Match: Players 1 & 3: 1215   Players 2 & 4: 285
Enter: the score sheet'''

TWO_COLUMNS_OF_MELDS = '''\
 Hand 1 is over — the hand ended: the stock is exhausted
─ Players 1 & 3 ────────────────────────────────────────────────────────────────
 4 ×5 +2               Player 1: A♠ 3♣ 5♦ 7♣ 7♥ 10♥ J♣  Melded cards         210
 6 ×4                    J♥                             Canasta bonuses        0
 7 ×3                  Player 3: 10♥                    Red threes           100
 8 ×3                                                   Going out              0
 Q ×3                                                   Cards in hand        -80
 K ×5 +2                                                Yes, not out x2     -200
                                                                          ------
                                                        Total                 30
─ Players 2 & 4 ────────────────────────────────────────────────────────────────
 A×4+1w     8×3+1w     Player 2: A♠ 3♠ 3♠ 4♦ 7♦ 9♥ 10♣  Melded cards         680
 4×2+3w     9×5+1w       J♦ K♦                          Canasta bonuses        0
 5×6       10×4+1w     Player 4: A♦ A♥ 3♣ 5♠ 8♦ 8♠ 9♣   Red threes           300
 6×4+1w     J×4+1w       9♠ 10♠ K♣ K♥                   Going out              0
 7×2+1w     Q×5                                         Cards in hand       -200
                                                        Yes, not out        -100
                                                                          ------
                                                        Total                680



Match: Players 1 & 3: 30   Players 2 & 4: 680
Enter: the score sheet'''


def first_hand(seed: int) -> Match:
    m = start(seed)
    while not m.needs_deal:
        m = step(m, seed)
    return m


def names() -> list[str]:
    return [player_name(p) for p in range(4)]


def test_summary_table_went_out_at_80x24() -> None:
    m = first_hand(14)
    lines = summary_table(m.state, m.sheet[-1], names(), 80, 24)
    assert len(lines) == 24 and max(map(len, lines)) <= 80
    assert "\n".join(line.rstrip() for line in lines) == WENT_OUT


def test_summary_table_many_melds_go_in_two_columns_at_80x24() -> None:
    m = first_hand(22)
    lines = summary_table(m.state, m.sheet[-1], names(), 80, 24)
    assert len(lines) == 24 and max(map(len, lines)) <= 80
    assert "\n".join(line.rstrip() for line in lines) == TWO_COLUMNS_OF_MELDS


def test_the_summary_screen_then_the_sheet_of_the_last_four_hands() -> None:
    seed = 5
    m = start(seed)
    while len(m.sheet) < 6:
        m = step(m, seed)
    while not m.needs_deal:       # finish the sixth hand, deal nothing more
        m = step(m, seed)
    s = session()
    s.match = m
    ctl = Controller(s)
    ctl.dialog = Dialog("summary")
    text = render(ctl, 80, 24).text()
    assert text.splitlines()[0].startswith(" Hand 6 is over")
    assert "Players 1 & 3" in text.splitlines()[1] and "Enter: the score sheet" in text
    ctl.key("enter")
    assert ctl.dialog is not None and ctl.dialog.kind == "sheet_end"
    text = render(ctl, 80, 24).text()
    rows = [line for line in text.splitlines() if "Player " in line and "│" in line]
    hands = [int(r.split("│")[1].split()[0]) for r in rows if r.split("│")[1].split()[0].isdigit()]
    assert hands == [3, 4, 5, 6]
    assert "(2 earlier hands" in text
    t1, t2 = m.scores
    assert f"Totals       {t1:>21}{t2:>21}" in text
    need = [m.rules.requirement(t) for t in m.scores]
    assert f"Next needs   {need[0]:>21}{need[1]:>21}" in text
