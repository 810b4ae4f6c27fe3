"""Samba and Bolivia at the screen (issue 19): sequences and further melds of a rank drawn on
the table and addressed by a click, melding a sequence and joining melds by keys, the canasta
kinds named as the rules name them, the Score dialog, the summary and the sheet naming the new
bonuses.  The rules quoted are ``rules/RULES.md``'s "Samba and Bolivia" (the Bicycle texts)."""

from __future__ import annotations

import pytest
from prompt_toolkit.data_structures import Point
from prompt_toolkit.mouse_events import MouseButton, MouseEvent, MouseEventType

from canasta_tui.engine import Phase, TeamScore, parse_action
from canasta_tui.engine import actions as A
from canasta_tui.engine.cards import parse_card
from canasta_tui.engine.match import HandRecord
from canasta_tui.engine.melds import Meld, ordered_melds
from canasta_tui.presets import load_rules
from canasta_tui.table import local_link
from canasta_tui.ui.canvas import ASCII_OPTIONS, Options
from canasta_tui.ui.commands import add_to_meld
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.moves import compose_meld
from canasta_tui.ui.render import bar_items
from canasta_tui.ui.texts import ordered_slots, score_lines, sheet_lines, summary_table

from .helpers import check_golden, render, select_cards, session, stacked

SAMBA = load_rules("samba")
BOLIVIA = load_rules("bolivia")


def cards(text: str) -> list[int]:
    return [int(parse_card(w)) for w in text.split()]


def group(text: str) -> Meld:
    """A meld of one rank (``"K K K 2c"``: its wild cards after its naturals)."""
    cs = cards(text)
    from canasta_tui.engine.cards import IS_WILD, RANK_OF
    nat = tuple(c for c in cs if not IS_WILD[c])
    wild = tuple(c for c in cs if IS_WILD[c])
    return Meld(RANK_OF[nat[0]] if nat else 2, nat, wild)


def run(text: str) -> Meld:
    """A sequence meld, its cards from the lowest (``"7h 8h 9h"``)."""
    from canasta_tui.engine.cards import RANK_OF, SUIT_OF
    cs = cards(text)
    return Meld(RANK_OF[cs[0]], tuple(cs), (), SUIT_OF[cs[0]])


def row_of(*melds: Meld) -> tuple[Meld | None, ...]:
    """A side's row: melds of one rank in their rank's slot (the first), the rest from slot 15."""
    row: list[Meld | None] = [None] * 15
    for m in melds:
        if m.is_sequence or row[m.rank] is not None:
            row.append(m)
        else:
            row[m.rank] = m
    return tuple(row)


# ---------------------------------------------------------------------- the table drawn

def samba_controller(rules: str = "samba") -> Controller:
    """A Samba table at its first turn, its view replaced by a crowded one: ten melds for
    Players 1 & 3 (a samba, sequences, two melds of Kings, a mixed and a natural canasta), four
    for Players 2 & 4 (an escalera or a bolivia in Bolivia)."""
    t = session(seed=5, rules=rules)
    ctl = Controller(local_link(t))
    v = ctl.client.view()
    ours = row_of(group("Ac As Ah"), group("5c 5s 5h 5d 5c 2c"), group("7h 7s 7c 7d 7h 7s 7c"),
                  group("Kh Ks Kc Kd Kh Ks JK"), group("Qh Qs Qd"),
                  group("Kh Ks Kc"), run("4h 5h 6h 7h 8h 9h 10h"), run("7s 8s 9s"), run("Jd Qd Kd Ad"),
                  run("4c 5c 6c"))
    theirs = [group("8c 8s 8d 8h"), run("8c 9c 10c Jc Qc Kc Ac"), group("Jh Js Jd")]
    if rules == "bolivia":
        theirs.append(Meld(2, (), tuple(cards("2c 2d 2h 2s JK JK JK"))))
    crowded = v._replace(melds=(ours, row_of(*theirs)))
    ctl.client.view = lambda: crowded  # type: ignore[method-assign]
    return ctl


@pytest.mark.parametrize("size", [(80, 24), (132, 43)])
def test_a_samba_table_with_sequences(size: tuple[int, int]) -> None:
    """Issue 19: "sequences drawn in suit order in the quadrants, sambas/escaleras/bolivias marked
    as such, a side's eight or more melds still fit"."""
    cv = render(samba_controller(), *size)
    check_golden(f"samba_{size[0]}x{size[1]}.txt", cv.text())
    assert all(len(line) == size[0] for line in cv.lines())


def test_a_bolivia_table_at_80x24() -> None:
    """Bolivia: the escalera and the bolivia (seven wild cards, "W ×7") named in the quadrant."""
    cv = render(samba_controller("bolivia"), 80, 24)
    check_golden("bolivia_80x24.txt", cv.text())
    theirs = "\n".join(line[:24] for line in cv.lines()[2:8])
    assert " W ×7" in theirs and "★bolivia" in theirs and "★escalera" in theirs


def test_a_samba_table_with_sequences_ascii() -> None:
    text = render(samba_controller(), 80, 24, ASCII_OPTIONS).text()
    check_golden("samba_80x24_ascii.txt", text)
    assert not any(ord(ch) > 127 for ch in text)


def test_every_meld_of_a_side_is_drawn_and_named_at_80x24() -> None:
    """Sequences by their run (``4♥-10♥``), the samba and the canastas marked, the second meld of
    Kings after the first; at 80x24 the ten cells of a quadrant hold all ten melds."""
    lines = render(samba_controller(), 80, 24).lines()
    q = "\n".join(line[:24] for line in lines[10:16])        # Player 1's quadrant
    for label in ("A×3", "5×5+1w", "7×7 ★nat", "Q×3", "K×6+1★mix", "K×3", "4♣-6♣", "J♦-A♦", "4♥-10♥★sa", "7♠-9♠"):
        assert q.count(label) == 1, (label, q)
    assert "more" not in q
    theirs = "\n".join(line[:24] for line in lines[2:8])     # Player 2's
    assert "8♣-A♣ ×7      ★samba" in theirs and " 8 ×4" in theirs and " J ×3" in theirs


def test_canasta_kinds_are_named_as_the_rules_name_them_on_a_big_table() -> None:
    """RULES.md: seven in sequence make "a **samba** in Samba, an **escalera** in Bolivia";
    seven wild cards "make a **bolivia**"."""
    samba = render(samba_controller(), 132, 43).text()
    assert "★samba" in samba and "★natural" in samba and "★mixed" in samba and "escalera" not in samba
    bolivia = render(samba_controller("bolivia"), 132, 43).text()
    assert "★escalera" in bolivia and "★bolivia" in bolivia and "★samba" not in bolivia


def test_the_quadrant_order_is_the_engines_order_with_each_melds_slot() -> None:
    row = samba_controller().client.view().melds[0]
    slotted = ordered_slots(row)
    assert [m for _, m in slotted] == ordered_melds(row)
    assert all(row[slot] is m for slot, m in slotted)
    # Sequences by suit (clubs, diamonds, hearts, spades), after the melds of one rank.
    assert [slot for slot, m in slotted if m.is_sequence] == [19, 18, 16, 17]


# ---------------------------------------------------------------------- melding by keys

def my_turn_drawn(rules: str, mine: str) -> Controller:
    ctl = Controller(local_link(stacked(rules, mine)))
    assert ctl.client.my_turn()
    ctl.key("d")
    assert ctl.client.view().phase == Phase.MELD
    return ctl


def test_m_melds_the_selected_cards_as_a_sequence_and_extends_it() -> None:
    """RULES.md: "a side may meld three or more cards of one suit in order: 4 is the lowest card,
    the Ace the highest ... Cards go on at either end."  Selected by keys, m melds J♥ Q♥ K♥ A♥
    (50 points: Samba's initial meld from 0); then 10♥ goes onto it."""
    ctl = my_turn_drawn("samba", "Jh Qh Kh Ah 10h 7s 8s 9s")
    select_cards(ctl, "Jh Qh Kh Ah")
    ctl.key("m")
    assert not ctl.client.message
    row = ctl.client.view().melds[0]
    assert [m.naturals for m in row[15:] if m is not None] == [tuple(cards("Jh Qh Kh Ah"))]
    select_cards(ctl, "10h")
    ctl.key("m")
    seq = ctl.client.view().melds[0][15]
    assert seq is not None and len(seq.naturals) == 5 and seq.low == 10
    text = render(ctl, 80, 24).text()
    assert "10♥ J♥ Q♥ K♥ A♥" in text            # drawn as its cards while the quadrant has room
    # The log reads the sequence in order, whichever end the card went on.
    assert ctl.client.log_lines()[-1][1] == "Player 1 melded 10♥ J♥ Q♥ K♥ A♥"


def test_a_click_on_a_sequence_puts_the_selected_card_on_it() -> None:
    """The help's Mouse section: a click on a meld of your side puts the selected cards on it; a
    sequence is addressed by its slot (15 and up), not by a rank."""
    ctl = my_turn_drawn("samba", "Jh Qh Kh Ah 10h 7s 8s 9s")
    select_cards(ctl, "Jh Qh Kh Ah")
    ctl.key("m")
    select_cards(ctl, "10h")
    cv = render(ctl, 80, 24, Options(mouse=True))
    y, x = next((y, line.index("J♥ Q♥")) for y, line in enumerate(cv.text().splitlines()) if "J♥ Q♥" in line)
    handler = cv.handlers.get((y, x))
    assert handler is not None
    handler(MouseEvent(Point(x, y), MouseEventType.MOUSE_UP, MouseButton.LEFT, frozenset()))
    seq = ctl.client.view().melds[0][15]
    assert seq is not None and len(seq.naturals) == 5


def test_a_click_on_a_sequence_with_a_wild_card_or_on_a_samba_says_why_in_the_engines_words() -> None:
    """RULES.md: "no wild card (and no three) may stand in a sequence"; seven in sequence are
    "closed to further cards".  A click on a sequence gives the engine's sentences, not only
    "Select cards that continue the sequence"."""
    ctl = my_turn_drawn("samba", "8h 9h 10h Jh Qh Kh Ah JK Ac 9s")
    select_cards(ctl, "8h 9h 10h Jh Qh Kh Ah")
    ctl.key("m")
    assert not ctl.client.message
    hand = ctl.client.hand()
    select_cards(ctl, "JK")
    add_to_meld(ctl.client, 0, 15)
    assert ctl.client.message == ["No wild card may stand in a sequence: it is natural cards of one suit in order"]
    ctl.client.message = []
    select_cards(ctl, "Ac")
    add_to_meld(ctl.client, 0, 15)
    assert ctl.client.message == ["A samba is a sequence of exactly seven cards: it takes no more"]
    assert ctl.client.hand() == hand                         # nothing played


def test_the_table_refuses_a_remote_seats_move_with_the_same_sentences() -> None:
    """What a seat over SSH submits goes through ``Table.submit``: its refusals are the engine's
    sentences, the same the screen shows (RULES.md: "no wild card (and no three) may stand in a
    sequence"; "Seven in sequence make a canasta of their own, closed to further cards")."""
    t = stacked("samba", "8h 9h 10h Jh Qh Kh Ah JK 7h 9s")
    assert t.submit(0, [A.A_DRAW]).ok
    assert t.submit(0, [parse_action(x) for x in ("meld 8h 9h 10h", "add Jh to 8h-10h", "add Qh to 8h-Jh",
                                                   "add Kh to 8h-Qh", "add Ah to 8h-Kh")]).ok
    before = t.match
    for text, reason in (("add JK to 8h-Ah", "No wild card may stand in a sequence: it is natural cards of one suit in "
                                             "order"),
                         ("add 7h to 8h-Ah", "A samba is a sequence of exactly seven cards: it takes no more")):
        out = t.submit(0, [parse_action(text)])
        assert not out.ok and out.reason == reason
        assert t.match is before


def test_the_meld_button_follows_the_legal_actions_and_refusals_say_why() -> None:
    """The bar's Meld is lit exactly when the engine offers a meld or an add; a selection that is
    no sequence gets the reason in words, and nothing is played."""
    ctl = Controller(local_link(stacked("samba", "Jh Qh Kh Ah 10h 7s 8s 9s")))
    assert not ctl.client.lit()["meld"]                 # before drawing: no meld is legal
    ctl.key("d")
    v = ctl.client.view()
    assert ctl.client.lit()["meld"] == any(a.kind in (A.MELD, A.ADD) for a in v.legal)
    select_cards(ctl, "Jh Kh Ah")
    ctl.key("m")
    assert ctl.client.message == ["A sequence is three or more cards of one suit in order, 4 low and Ace high: "
                                  "J♥ K♥ A♥ lacks Q♥"]
    assert ctl.client.view().melds[0] == v.melds[0]


def test_J_joins_a_sides_two_melds_of_a_rank() -> None:
    """RULES.md: "Once a side's meld of a rank is a canasta, it may start another of that rank, and
    may join the two later".  Seven Kings, then three more (m starts the second meld since the
    first is a canasta); the bar shows [J]oin and J joins them."""
    ctl = my_turn_drawn("samba", "Kh Kh Kh Ks Ks Ks Kc Kc Kc Kd")
    select_cards(ctl, "Kh Kh Kh Ks Ks Ks Kc")
    ctl.key("m")
    assert not ctl.client.lit()["join"]
    # The engine melds Kings by rank: three are left, whatever their suits; a selects them all.
    ctl.key("n")
    ctl.client.cursor = next(i for i, c in enumerate(ctl.client.hand()) if c in cards("Kh Ks Kc Kd"))
    ctl.key("a")
    assert len(ctl.client.selected) == 3
    ctl.key("m")
    row = ctl.client.view().melds[0]
    assert row[13] is not None and len(row[13].naturals) == 7
    assert [len(m.naturals) for m in row[15:] if m is not None] == [3]
    assert ctl.client.lit()["join"] and ("join", "[J]oin", True) in bar_items(ctl.client.lit())
    assert "[J]oin" in render(ctl, 80, 24).text()
    assert ctl.client.status() == "Space selects, m melds, J joins your two melds of a rank, c discards"
    ctl.key("J")
    row = ctl.client.view().melds[0]
    assert row[13] is not None and len(row[13].naturals) == 10
    assert all(m is None for m in row[15:])


def test_J_with_nothing_to_join_says_why_in_the_engines_words() -> None:
    ctl = my_turn_drawn("samba", "Kh Kh Kh Ks")
    ctl.key("J")
    assert ctl.client.message and "nothing to join" in ctl.client.message[0]
    classic = my_turn_drawn("classic", "Kh Kh Ks Kd")
    classic.key("J")
    assert classic.client.message == ["These rules give a side one meld of each rank: there is nothing to join"]


# ---------------------------------------------------------------------- compose_meld

EMPTY = (None,) * 15


def test_compose_a_new_sequence_of_five() -> None:
    """RULES.md: "three or more cards of one suit in order": a new meld is three cards, the rest
    go on at the end (``meld 7h 8h 9h``, ``add 10h to 7h-9h``, ``add Jh to 7h-10h``)."""
    plan = compose_meld(cards("9h 7h Jh 8h 10h"), EMPTY, False, SAMBA)
    assert [str(a) for a in plan] == ["meld 7h 8h 9h", "add 10h to 7h-9h", "add Jh to 7h-10h"]
    assert [str(a) for a in compose_meld(cards("Qd Kd Ad"), EMPTY, False, SAMBA)] == ["meld Qd Kd Ad"]


def test_compose_extends_a_sequence_at_either_end() -> None:
    """RULES.md: "Cards go on at either end"."""
    row = row_of(run("7h 8h 9h"))
    plan = compose_meld(cards("5h 6h 10h"), row, False, SAMBA)
    assert [str(a) for a in plan] == ["add 10h to 7h-9h", "add 6h to 7h-10h", "add 5h to 6h-10h"]
    # One card that continues the sequence goes onto it.
    assert [str(a) for a in compose_meld(cards("10h"), row, False, SAMBA)] == ["add 10h to 7h-9h"]


def test_compose_refuses_what_is_no_sequence_in_canastas_words() -> None:
    """RULES.md: "4 is the lowest card, the Ace the highest, and no wild card (and no three) may
    stand in a sequence"; seven "make a canasta of their own, closed to further cards"."""
    assert compose_meld(cards("7h 8h 10h"), EMPTY, False, SAMBA) == (
        "A sequence is three or more cards of one suit in order, 4 low and Ace high: 7♥ 8♥ 10♥ lacks 9♥")
    assert compose_meld(cards("7h 8h"), EMPTY, False, SAMBA) == (
        "A new sequence needs three cards of one suit in order: you selected 7♥ 8♥")
    assert compose_meld(cards("7h 8h 2c"), EMPTY, False, SAMBA) == (
        "No wild card may stand in a sequence: it is natural cards of one suit in order")  # the engine's words
    assert compose_meld(cards("4h 5h 6h 7h 8h 9h 10h Jh"), EMPTY, False, SAMBA) == (
        "A sequence holds at most seven cards (seven make a samba)")
    # Ace high, 4 low: K A 4 is no sequence.
    assert isinstance(compose_meld(cards("Kh Ah 4h"), EMPTY, False, SAMBA), str)
    # A samba takes no more: a card beside it is refused in the engine's words for an eighth card.
    samba = row_of(run("4h 5h 6h 7h 8h 9h 10h"))
    for more in ("Jh", "Jh Qh"):
        assert compose_meld(cards(more), samba, False, SAMBA) == (
            "A samba is a sequence of exactly seven cards: it takes no more")
    assert [str(a) for a in compose_meld(cards("Jh Qh Kh"), samba, False, SAMBA)] == ["meld Jh Qh Kh"]


def test_compose_without_sequences_in_the_rules_is_as_before() -> None:
    """Classic Canasta has no sequences: 7♥ 8♥ 9♥ are three ranks short of a meld each."""
    msg = compose_meld(cards("7h 8h 9h"), EMPTY, False, load_rules("classic"))
    assert isinstance(msg, str) and msg.startswith("A new meld needs three cards")
    assert compose_meld(cards("7h 8h 9h"), EMPTY, False) == msg


def test_compose_one_suit_cards_go_onto_their_ranks_melds_when_they_are_no_sequence() -> None:
    """A side's melds of one rank still take their cards: 7♥ and 9♥ onto the Sevens and Nines."""
    row = row_of(group("7c 7s 7d"), group("9c 9s 9d"))
    assert compose_meld(cards("7h 9h"), row, False, SAMBA) == [A.add(7), A.add(9)]


def test_compose_starts_a_further_meld_once_the_rank_is_a_canasta() -> None:
    """RULES.md: "Once a side's meld of a rank is a canasta, it may start another of that rank";
    short of a canasta, the cards go onto the meld."""
    canasta = row_of(group("Kh Ks Kc Kd Kh Ks Kc"))
    assert compose_meld(cards("Kh Kd Kd"), canasta, False, SAMBA) == [A.meld(13, 13, 13)]
    assert compose_meld(cards("Kh Kd JK"), canasta, False, SAMBA) == [A.meld(13, 13, 14)]
    assert compose_meld(cards("Kh"), canasta, False, SAMBA) == [A.add(13)]
    short = row_of(group("Kh Ks Kc Kd"))
    assert compose_meld(cards("Kh Kd Kd"), short, False, SAMBA) == [A.add(13)] * 3
    # Classic: one meld of a rank, the cards go onto it.
    assert compose_meld(cards("Kh Kd Kd"), canasta, False, load_rules("classic")) == [A.add(13)] * 3


def test_compose_bolivias_wild_melds() -> None:
    """RULES.md, Bolivia only: "Three or more wild cards may be melded together; seven of them
    make a **bolivia**, worth 2,500, which takes no more cards" (a new wild meld starts then)."""
    assert compose_meld(cards("2c 2d JK JK"), EMPTY, BOLIVIA.wild_melds_allowed, BOLIVIA) == [
        A.meld(2, 2, 14), A.add(14, 2)]
    some = row_of(Meld(2, (), tuple(cards("2c 2d JK"))))
    assert compose_meld(cards("2h"), some, True, BOLIVIA) == [A.add(2, 2)]
    full = row_of(Meld(2, (), tuple(cards("2c 2d 2h 2s JK JK JK"))))
    assert compose_meld(cards("2h 2h JK"), full, True, BOLIVIA) == [A.meld(2, 2, 14)]
    # Samba: wild cards are never melded alone.
    assert compose_meld(cards("2c 2d JK"), EMPTY, SAMBA.wild_melds_allowed, SAMBA) == (
        "Select the rank to put a wild card on: press w, then the meld's rank")


def test_compose_plans_are_legal_in_the_engine() -> None:
    """The plans above are what the engine plays: a new sequence of three is among the legal
    actions of a Samba turn whose hand holds it (single source of truth)."""
    ctl = my_turn_drawn("samba", "Jh Qh Kh Ah 10h 7s 8s 9s")
    v = ctl.client.view()
    plan = compose_meld(cards("7s 8s 9s"), v.melds[0], False, SAMBA)
    assert isinstance(plan, list) and plan[0] in v.legal


# ---------------------------------------------------------------------- scores named

def test_the_score_dialog_names_sambas_and_bolivias() -> None:
    """Issue 19: "the scoring summary and score sheet name the new bonuses"."""
    v = samba_controller().client.view()
    text = "\n".join(score_lines(SAMBA, v, (0, 0), 0))
    assert "Sambas" in text and "    sambas 1,500" in text
    bv = samba_controller("bolivia").client.view()
    text = "\n".join(score_lines(BOLIVIA, bv, (0, 0), 0))
    assert "Escaleras" in text and "Bolivias" in text and "bolivias 2,500" in text
    assert "A black three left in a hand at the end costs 100." in text
    classic_view = Controller(local_link(session(seed=5))).client.view()
    classic = "\n".join(score_lines(load_rules("classic"), classic_view, (0, 0), 0))
    assert "Sambas" not in classic and "black three" not in classic


def test_the_summary_and_the_sheet_name_the_new_bonuses() -> None:
    """The summary puts each escalera's and bolivia's bonus under the canasta bonuses; the sheet
    says what its bonus column holds, naming them and Bolivia's black-three penalty."""
    ts = TeamScore(0, 400, 1, 0, 1, 4500, 0, 0, 200, 0, 100, 5000, (("black three left in hand", 100),), 1)
    other = TeamScore(1, 100, 0, 0, 0, 0, 0, 0, 0, 50, 0, 50)
    rec = HandRecord(1, 3, (ts, other), (5000, 50), 0, None)
    v = samba_controller("bolivia").client.view()
    lines = summary_table(v, ((),) * 4, rec, ["Player 1", "Player 2", "Player 3", "Player 4"], 80, 24)
    text = "\n".join(lines)
    # With a penalty the column is full: the bonuses go in the middle, the total stays.
    assert "+1,500 1 escalera" in text and "+2,500 1 bolivia" in text and "−100 black three left in hand" in text
    assert f"{'Total':<16}{'5,000':>8}" in text
    assert "4♥×7★esc" in text                   # the side's many melds in short columns, the escalera named
    calm = rec._replace(scores=(ts._replace(penalties=0, penalty_items=(), total=5100), other))
    text = "\n".join(summary_table(v, ((),) * 4, calm, ["Player 1", "Player 2", "Player 3", "Player 4"], 80, 24))
    assert f"{' 1 escalera':<16}{'1,500':>8}" in text and f"{' 1 bolivia':<16}{'2,500':>8}" in text
    assert f"{'Total':<16}{'5,100':>8}" in text
    sheet = "\n".join(sheet_lines(BOLIVIA, [rec], (5000, 50), 10))
    assert "escalera 1,500" in sheet and "bolivia 2,500" in sheet and "black three left in hand 100" in sheet
    assert all(len(line) <= 80 for line in sheet.splitlines())


def test_the_help_names_the_new_bonuses_keys_and_melds() -> None:
    """Issue 19: "help pages explain both games in our own words"; the Scoring page gives the
    values of the rules in play (RULES.md: a samba or escalera "worth 1,500", a bolivia "worth
    2,500", "A black three left in a hand when play ends costs 100", "1,000 for all six")."""
    from canasta_tui.ui.helppages import how_to_play_lines, scoring_lines

    samba = "\n".join(line.text for line in scoring_lines(SAMBA, 80))
    assert "samba (seven in sequence)" in samba and "1500" in samba and "all six red threes" in samba
    assert "black three left" not in samba
    bolivia = "\n".join(line.text for line in scoring_lines(BOLIVIA, 80))
    assert "escalera (seven in sequence)" in bolivia and "bolivia (seven wild cards)" in bolivia
    assert "a black three left in a hand" in bolivia
    classic = "\n".join(line.text for line in scoring_lines(load_rules("classic"), 80))
    assert "sequence" not in classic and "all four red threes" in classic
    how = " ".join(line.text.strip() for line in how_to_play_lines(200))
    assert "press m to meld a sequence" in how and "J joins the two" in how
    assert "J           Join: Samba, Bolivia" in "\n".join(line.text for line in how_to_play_lines(200))


def test_the_rules_lists_offer_samba_and_bolivia_and_a_game_starts_with_them() -> None:
    """Issue 19: "samba and bolivia in rules/, in canasta rules, the start menu's rules, the Rules
    dialog and the server's new-table dialog": each reads the presets of ``rules/``."""
    import importlib

    from canasta_tui.ui.helppages import rules_text

    # The new-table form: in server/lobby/service.py, or ui/lobby.py once the lobby is a page of ui/.
    try:
        NewTable = importlib.import_module("canasta_tui.ui.lobby").NewTable
    except ImportError:
        NewTable = importlib.import_module("canasta_tui.server.lobby.service").NewTable
    from canasta_tui.ui.options import PresetSource

    for name in ("samba", "bolivia"):
        assert name in PresetSource().presets() and name in NewTable().presets
        assert not isinstance(PresetSource().load(name), str)
        ctl = Controller(local_link(session(seed=4, rules=name)))
        assert f"{name} rules" in render(ctl, 80, 24).text()
        assert len(ctl.client.hand()) >= 15
    assert "## Samba and Bolivia" in rules_text()


def test_W_counts_the_wild_cards_the_open_meld_of_a_rank_needs() -> None:
    """Samba: wild cards for a rank go onto its meld short of a canasta (the engine's ``add 2 to
    K``), so W counts what that one needs, not the finished canasta."""
    from canasta_tui.ui.moves import wilds_until_canasta

    v = samba_controller().client.view()
    two_kings = v.melds[0]                       # Kings: a mixed canasta, and K K K beside it
    assert wilds_until_canasta(v._replace(turn=0), cards("2c JK 2d"), 13) == (
        "Your meld of Kings needs 4 more cards to be a canasta; you hold 3 wild cards")
    assert two_kings[13] is not None and two_kings[13].is_canasta


def test_m_melds_the_very_copies_selected_not_the_first_of_their_rank() -> None:
    """Bicycle, Samba: a sequence is "three or more cards of the same suit in sequence", so which
    nine a player keeps matters.  Holding 9♣ 9♥ 9♥ 9♠ and selecting 9♥ 9♥ 9♠ (with K K K for the
    initial meld of 50), m melds those three and 9♣ stays in the hand (it used to meld the first
    copies, 9♣ 9♥ 9♥, and keep 9♠)."""
    ctl = my_turn_drawn("samba", "9c 9h 9h 9s 10h Jh Kd Kd Kd Qs Qs")
    hand = ctl.client.hand()
    clubs = hand.count(int(parse_card("9c")))
    spades = hand.count(int(parse_card("9s")))
    select_cards(ctl, "9h 9h 9s Kd Kd Kd")
    ctl.key("m")
    assert not ctl.client.message
    v = ctl.client.view()
    nines = v.melds[0][9]
    assert nines is not None and sorted(nines.naturals) == sorted(cards("9h 9h 9s"))
    assert ctl.client.hand().count(int(parse_card("9c"))) == clubs
    assert ctl.client.hand().count(int(parse_card("9s"))) == spades - 1
    # The log of the game holds the copies chosen (and replays them: the save format's version 4).
    log = [str(a) for a in ctl.client.link._table.match.log[-1]]  # type: ignore[attr-defined]
    assert "meld 9h 9h 9s" in log


def test_p_takes_the_pile_with_the_very_pair_selected() -> None:
    """Bicycle, Samba: the pile is taken "with a natural pair matching the top card"; the pair the
    person selected (9♥ 9♠) goes with the upcard 9♦, and 9♣ stays in the hand for its sequence."""
    ctl = Controller(local_link(stacked("samba", "9c 9h 9s 10c Jc Kd Kd Kd Qs Qs 5h", upcard="9d")))
    assert ctl.client.view().pile[-1] == int(parse_card("9d"))
    clubs = ctl.client.hand().count(int(parse_card("9c")))
    select_cards(ctl, "9h 9s")
    ctl.key("p")
    assert not ctl.client.message
    v = ctl.client.view()
    assert v.phase == Phase.MELD
    nines = v.melds[0][9]
    assert nines is not None and sorted(nines.naturals) == sorted(cards("9d 9h 9s"))
    assert ctl.client.hand().count(int(parse_card("9c"))) == clubs


def test_a_click_with_a_natural_card_on_the_meld_of_wild_cards_says_why_in_the_engines_words() -> None:
    """Bolivia (RULES.md's meld of wild cards: it holds deuces and jokers only).  QA: Space on K♠,
    a click on the meld 2♦ 2♥ 2♠ said "Select the cards to add to the wild cards first" although
    the King was selected; the engine's sentence must reach the player, and nothing is played."""
    ctl = my_turn_drawn("bolivia", "2d 2h 2s Ks Kh Qc 9s")
    select_cards(ctl, "2d 2h 2s")
    ctl.key("m")
    assert not ctl.client.message and ctl.client.view().melds[0][2] is not None
    hand = ctl.client.hand()
    select_cards(ctl, "Ks")
    add_to_meld(ctl.client, 0, 2)
    assert ctl.client.message == ["A King cannot go on the meld of wild cards: it takes only deuces and jokers"]
    assert ctl.client.hand() == hand
    # A card of another rank under the cursor onto a meld of a rank: the engine says why too.
    ctl.client.message = []
    ctl.client.selected.clear()
    ctl.client.cursor = ctl.client.hand().index(int(parse_card("Qc")))
    add_to_meld(ctl.client, 0, 2)
    assert ctl.client.message == ["A Queen cannot go on the meld of wild cards: it takes only deuces and jokers"]


def test_an_improper_sequence_taken_back_is_named_by_its_run() -> None:
    """DOS manual, Chapter 1, "Improper Melds": "you can always have the melds returned to your
    hand by attempting to discard a card".  QA: for 7♦ 8♦ 9♦ (Samba's initial meld needs 50) the
    message said "Your meld of Sevens is back in your hand"; it is a sequence, named by its run."""
    ctl = my_turn_drawn("samba", "7d 8d 9d Kc 4s 5h Qc 9s")
    select_cards(ctl, "7d 8d 9d")
    ctl.key("m")
    assert ctl.client.view().melds[0][15] is not None
    ctl.client.cursor = ctl.client.hand().index(int(parse_card("Kc")))
    ctl.key("c")
    assert ctl.client.message[-1] == "Your sequence 7♦-9♦ is back in your hand."
    assert len(ctl.client.view().melds[0]) <= 15 or ctl.client.view().melds[0][15] is None
