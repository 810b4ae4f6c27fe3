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

from canasta_tui.engine import Match, player_name, public_view
from canasta_tui.persistence.selfplay import start, step
from canasta_tui.table import local_link
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.dialogs import SheetEnd, Summary
from canasta_tui.ui.texts import summary_table

from .helpers import render, session

WENT_OUT = '''\
 Hand 1 is over — Player 1 went out
─ Players 1 & 3 ────────────────────────────────────────────────────────────────
 5 ×8 +2♠ JK    ★mixed Player 1: no cards               Melded cards         350
 6 ×4 +2♦              Player 3: A♣ A♣ A♦ 3♠ 8♣ 8♦ 8♥   Canasta bonuses      600
 7 ×2 +2♦                9♥ 9♠ J♥ Q♦ Q♠                 Red threes           200
 9 ×4                  −100 did not go out after 'yes'  Going out            100
10 ×4 +2♥ 2♣ 2♠ ★mixed −100 did not go out after 'yes'  Cards in hand       -145
 K ×3                                                   Penalties           -200
                                                                          ------
                                                        Total                905
─ Players 2 & 4 ────────────────────────────────────────────────────────────────
 4 ×5                  Player 2: A♥ A♥ A♠ A♠ 3♠ 4♥ 4♠   Melded cards         330
 7 ×5 +JK                4♠ 6♣ 6♥ 6♠ 8♣ 8♦ 8♠ 8♠ 9♣ 9♠  Canasta bonuses      300
10 ×3                    J♣ J♦ J♥ J♠ J♠ Q♣ Q♦           Red threes           200
 Q ×3 +JK              Player 4: A♦ 6♦                  Going out              0
 K ×5 +JK 2♥    ★mixed                                  Cards in hand       -270
                                                                          ------
                                                        Total                560




Match: Players 1 & 3: 905   Players 2 & 4: 560
Enter: the score sheet'''

TWO_COLUMNS_OF_MELDS = '''\
 Hand 1 is over — the hand ended: the stock is exhausted
─ Players 1 & 3 ────────────────────────────────────────────────────────────────
 A ×4                  Player 1: 3♣ 4♣ 8♣ 8♦ 8♦ Q♥      Melded cards         280
 7 ×4                  Player 3: 9♥ J♥                  Canasta bonuses        0
 Q ×3 +2♣ JK JK                                         Red threes           100
 K ×3                                                   Going out              0
                                                        Cards in hand        -70
                                                                          ------
                                                        Total                310
─ Players 2 & 4 ────────────────────────────────────────────────────────────────
 4×3+2w     9×6+2w★    Player 2: A♣ A♦ 3♣ 4♦ 4♥ 6♣ 6♥   Melded cards         595
 5×3       10×7★         6♥ 6♠ 7♦ 8♣ 9♥ 10♠ Q♦          Canasta bonuses      800
 6×4+1w     J×5+1w     Player 4: A♥ 3♠ 3♠ 4♣ 4♥ 5♣ 5♥   Red threes           300
 7×3        Q×3+1w       J♣ K♠                          Going out              0
 8×4+1w     K×4+1w     −100 did not go out after 'yes'  Cards in hand       -190
                                                        Penalties           -100
                                                                          ------
                                                        Total              1,405




Match: Players 1 & 3: 310   Players 2 & 4: 1,405
Enter: the score sheet'''


def first_hand(seed: int) -> Match:
    m = start(seed)
    while not m.needs_deal:
        m = step(m, seed)
    return m


def names() -> list[str]:
    return [player_name(p) for p in range(4)]


def test_summary_table_went_out_at_80x24() -> None:
    m = first_hand(58)  # seeds moved when 'ask' became legal only when going out is possible
    lines = summary_table(public_view(m.state), m.state.hands, m.sheet[-1], names(), 80, 24)
    assert len(lines) == 24 and max(map(len, lines)) <= 80
    assert "\n".join(line.rstrip() for line in lines) == WENT_OUT


def test_summary_table_many_melds_go_in_two_columns_at_80x24() -> None:
    m = first_hand(23)
    lines = summary_table(public_view(m.state), m.state.hands, m.sheet[-1], names(), 80, 24)
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
    ctl = Controller(local_link(s))
    assert ctl.client.dialog is not None and isinstance(ctl.client.dialog, Summary)   # the hand is over: its summary shows
    text = render(ctl, 80, 24).text()
    assert text.splitlines()[0].startswith(" Hand 6 is over")
    assert "Players 1 & 3" in text.splitlines()[1] and "Enter: the score sheet" in text
    ctl.key("enter")
    assert ctl.client.dialog is not None and isinstance(ctl.client.dialog, SheetEnd)
    text = render(ctl, 80, 24).text()
    rows = [line for line in text.splitlines() if "Player " in line and "│" in line]
    hands = [int(r.split("│")[1].split()[0]) for r in rows if r.split("│")[1].split()[0].isdigit()]
    assert hands == [3, 4, 5, 6]
    assert "(2 earlier hands" in text
    t1, t2 = m.scores
    assert t1 >= 1000 and t2 >= 1000                       # read with a thousands separator
    assert f"Totals       {t1:>21,}{t2:>21,}" in text
    need = [m.rules.requirement(t) for t in m.scores]
    assert f"Next needs   {need[0]:>21}{need[1]:>21}" in text
    # Each hand's total stands under the Totals row's (the last hand's is the match's).
    last = next(line for line in text.splitlines() if "│ 6    Player" in line)
    totals = next(line for line in text.splitlines() if "│ Totals" in line)
    for t in (f"{t1:,}", f"{t2:,}"):
        assert last.rindex(t) + len(t) == totals.rindex(t) + len(t)


def test_a_samba_summary_lists_the_sequences_at_80x24() -> None:
    """Samba (issue 19): the summary's melds include the side's sequences, named by their
    lowest card ("7♥×3": three hearts from the seven), after its melds of one rank."""
    m = start(0, "samba")
    while not m.sheet:
        m = step(m, 0)
    lines = summary_table(public_view(m.state), m.state.hands, m.sheet[-1], names(), 80, 24)
    assert len(lines) == 24 and max(map(len, lines)) <= 80
    top = "\n".join(lines[2:8])
    assert "7♥×3" in top and "9♠×5" in top
