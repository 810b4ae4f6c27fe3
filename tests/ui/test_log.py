"""The table's log: public events told in full words, rebuilt on resume (issue 10 #18, #19)."""

from __future__ import annotations

import itertools
import re

from canasta_tui.engine import Phase, record
from canasta_tui.table import Table, local_link
from canasta_tui.table.events import DREW, LAID_OUT
from canasta_tui.ui.controller import Controller

from .helpers import drive, render, session

CARD = r"(?:10|[A2-9JQK])[♣♦♥♠]|JK"


def played(seed: int = 5, until: int = 80) -> Table:
    s = session(seed=seed)
    ctl = Controller(local_link(s))
    drive(ctl, lambda c: len(s.events) >= until or s.state.phase == Phase.HAND_OVER)
    return s


def log(t: Table) -> list[str]:
    """The log as the table's client shows it."""
    return [text for _, text in Controller(local_link(t)).client.log_lines()]


def test_resume_rebuilds_the_log_of_the_hand() -> None:
    """#18: after a dropped SSH link, --resume brought the hand back exactly but the log showed
    only "Hand 1 resumed": the player could not see what the opponents had discarded."""
    s = played()
    saved = log(s)
    again = Table(s.rules, s.seats, 1, match=record.loads(record.dumps(s.match)))
    assert log(again) == saved
    assert again.events == s.events
    assert any("discarded" in t for t in saved)


def test_log_names_cards_with_suits_and_pile_sizes_in_words() -> None:
    """#19: "melded 6 6 6" dropped the suits; "took the pile of 3, 9♥" read as a card 3."""
    s = played(seed=5, until=200)
    texts = log(s)
    melds = [t for t in texts if " melded " in t]
    assert melds and all(re.fullmatch(rf"Player \d melded( (?:{CARD}))+", t) for t in melds), melds
    piles = [t for t in texts if "took the pile" in t]
    assert piles and all(re.fullmatch(rf"Player \d took the pile \(\d+ cards?\): (?:{CARD}) (with|onto) .+", t)
                         for t in piles), piles
    adds = [t for t in texts if " added " in t]
    assert all(re.fullmatch(rf"Player \d added( (?:{CARD}))+ to the \w+( \w+)?", t) for t in adds), adds


def test_no_event_names_a_card_drawn_from_the_stock() -> None:
    s = played(seed=5, until=200)
    draws = [e for e in s.events if e.kind == DREW]
    assert draws and all(e.cards == () for e in draws)


def test_a_red_three_laid_out_at_the_deal_is_logged() -> None:
    """#19: the first player lays out a dealt red three before anybody acts; it was not logged."""
    for seed in range(1, 200):
        s = session(seed=seed)
        first = s.state.turn
        if s.state.red_threes[first]:
            break
    else:
        raise AssertionError("no seed deals the first player a red three")
    laid = [e for e in s.events if e.kind == LAID_OUT]
    assert [e.seat for e in laid] == [first] * len(s.state.red_threes[first])
    assert log(s)[1].startswith(f"Player {first + 1} laid out 3")


def test_initial_meld_requirement_of_a_side_that_has_melded_is_not_shown() -> None:
    """#19: "Initial meld needs: 1&3: 50" stayed on screen after the side had melded."""
    s = session(seed=5)
    ctl = Controller(local_link(s))
    text = render(ctl, 80, 24).text()
    assert "1&3: 0, needs 50" in text and "2&4: 0, needs 50" in text
    drive(ctl, lambda c: any(m is not None for m in s.state.melds[1]) and not any(m is not None for m in s.state.melds[0])
          and s.state.turn % 2 == 0)
    need = s.state.requirements[0]
    text = render(ctl, 80, 24).text()
    assert f", needs {need}" in text and "2&4: " in text and ", melded" in text
    assert text.count(", melded") == 2 and text.count(f", needs {need}") == 2     # each side's two quadrants


def test_cards_added_to_the_meld_just_named_make_one_line() -> None:
    """A meld of five is one move for the player (meld K K K, add K, add 2 to K): the log says
    it in one line, not three."""
    from canasta_tui.engine.cards import parse_card
    from canasta_tui.table.events import ADDED, MELDED, Event, coalesced, describe

    def c(t: str) -> int:
        return int(parse_card(t))
    evs = [Event(1, 1, MELDED, 0, (c("Kc"), c("Ks"), c("Kh")), rank=13),
           Event(2, 1, ADDED, 0, (c("Kd"),), rank=13), Event(3, 1, ADDED, 0, (c("2c"),), rank=13),
           Event(4, 1, ADDED, 0, (c("7c"),), rank=7), Event(5, 1, ADDED, 1, (c("7d"),), rank=7)]
    assert [describe(e) for e in coalesced(evs)] == [
        "Player 1 melded K♣ K♠ K♥ K♦ 2♣", "Player 1 added 7♣ to the Sevens", "Player 2 added 7♦ to the Sevens"]
    s = played(seed=5, until=200)
    texts = log(s)
    assert not any(a.endswith(b.split(" to the ")[-1]) and " added " in b and a.split()[1] == b.split()[1]
                   and " added " in a for a, b in itertools.pairwise(texts))


def test_the_log_and_chat_get_room_at_80x24_and_more_on_a_bigger_terminal() -> None:
    """Issue 17: at 80x24 the log column was 18 characters wide ("bob left the / table: a /
    computer plays / ..."), chat included.  Every line of a played hand now takes at most two
    rows of it, and a bigger terminal gives it more; the four quadrants, the centre's stock and
    pile, the hand and the command bar stay."""
    from canasta_tui.ui.canvas import wrap
    from canasta_tui.ui.render import table_layout

    room = table_layout(80, 24).centre.w - 2
    assert room >= 30 and table_layout(132, 43).centre.w - 2 > room
    lines: list[str] = []
    for seed in range(1, 7):
        t = session(players=0, seed=seed)
        ctl = Controller(local_link(t))
        while t.state.phase != Phase.HAND_OVER:
            t.step()
        lines += [text for _, text in ctl.client.log_lines()]
    assert max(len(wrap(text, room)) for text in lines) <= 2
    # On the screen: a chat line among the moves, whole in the centre, in two rows.
    s = played(5, 40)
    s.say("ann", "good luck everyone, and have fun tonight")
    s.say("bob", "thanks")
    ctl = Controller(local_link(s))
    screen = render(ctl, 80, 24).lines()
    c = table_layout(80, 24).centre
    centre = [row[c.x:c.x + c.w].strip() for row in screen[c.y:c.y + c.h]]
    i = centre.index("ann: good luck everyone, and")
    assert centre[i + 1] == "have fun tonight"
    assert screen[1].startswith("┌ ○ Player 2 ") and "Stock" in screen[1] and "Upcard" in screen[3]
    assert "Your hand" in screen[18] and "[?]Help" in screen[23]


def test_the_log_moves_on_in_steps_so_a_new_line_writes_only_itself() -> None:
    """Over SSH every byte counts: when the centre's log is full it moves on by a fifth of its
    height at once; the lines after that are added below, the ones above stay where they were."""
    from canasta_tui.ui.render import table_layout

    s = played(5, 60)
    ctl = Controller(local_link(s))
    c = table_layout(80, 24).centre

    def log_rows() -> list[str]:
        rows = [row[c.x:c.x + c.w] for row in render(ctl, 80, 24).lines()[c.y:c.y + c.h]]
        top = next(i for i, row in enumerate(rows) if "─ log ─" in row)
        return rows[top + 1:]

    full = log_rows()
    assert all(row.strip() for row in full[:-1])            # a fresh screen: the newest, all of it
    s.say("ann", "one")
    stepped = log_rows()
    used = [row for row in stepped if row.strip()]
    assert len(used) < len(full) and "ann: one" not in used[-1]   # the latest is on the log line
    s.say("bob", "two")
    after = log_rows()
    changed = [i for i, (a, b) in enumerate(zip(stepped, after, strict=True)) if a != b]
    assert changed == [len(used)] and "ann: one" in after[len(used)]
