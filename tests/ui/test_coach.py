"""The coach at the table (issue 20, "A coach"): h gives the Expert's hint on the hint line, on the
player's own turn, without freezing the screen; Review each hand (Options, off by default) shows
after a hand the decisions the Expert would have played otherwise, each person only their own."""

from __future__ import annotations

import asyncio
import random
import threading
import tomllib
from collections.abc import Callable
from typing import Any

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from canasta_tui.ai.coach import Decision, Hint, review
from canasta_tui.engine import CLASSIC, Action, Phase, apply, deal, full_deck, view_for
from canasta_tui.engine import actions as A
from canasta_tui.engine.cards import card_text, parse_card
from canasta_tui.persistence import paths
from canasta_tui.ui import coaching
from canasta_tui.ui.app import TableApp
from canasta_tui.ui.canvas import ASCII_OPTIONS
from canasta_tui.ui.coaching import THINKING, Review
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.dialogs import SheetEnd, Summary
from canasta_tui.ui.keys import keymap
from canasta_tui.ui.texts import sort_hand
from tests.ai.helpers import position

from .helpers import client, drive, render, session, table_of
from .pages_helpers import screen, typ
from .test_options import options, selected


def hint_line(ctl: Controller, opts: Any = None) -> str:
    return render(ctl, 80, 24, opts).text().splitlines()[22]


def test_h_is_the_hint_and_left_alone_moves_left() -> None:
    km = keymap()
    assert km["h"] == "hint" and km["left"] == "left" and km["l"] == "right"


def test_h_on_your_turn_shows_the_experts_move_and_why_on_the_hint_line() -> None:
    ctl = client(session(seed=5))
    ctl.key("h")
    line = hint_line(ctl).strip()
    assert line.startswith(("Draw from the stock: ", "Take the pile: ", "Take the pile with ")), line
    assert ctl.client.coach.line(ctl.client.mine()) == line
    # The hint answers this position only: after a move it is gone.
    ctl.key("d")
    assert not hint_line(ctl).strip().startswith(("Draw from", "Take the pile"))
    ctl.key("h")
    line = hint_line(ctl).strip()
    assert line.split(":")[0].split()[0] in ("Discard", "Meld", "Add", "Ask", "Take"), line
    ascii_line = hint_line(ctl, ASCII_OPTIONS)
    assert not any(s in ascii_line for s in "♣♦♥♠…") and len(ascii_line) <= 80


def test_h_when_it_is_not_your_turn_says_whose_it_is() -> None:
    t = session(seed=5)
    ctl = client(t)
    drive(ctl, lambda c: not c.client.my_turn() and c.client.view().phase != Phase.HAND_OVER
          and c.client.dialog is None and not c.message)
    ctl.key("h")
    assert ctl.message and ctl.message[0].startswith("It is Player ") and ctl.message[0].endswith("'s turn")


def test_a_table_that_gives_no_hints_says_why() -> None:
    ctl = client(session(seed=5))
    ctl.client.coach.refusal = "No hints at a rated table: its matches count for the ratings"
    ctl.key("h")
    assert ctl.message == ["No hints at a rated table: its matches count for the ratings"]
    assert ctl.client.coach.line(ctl.client.mine()) == ""


def test_thinking_shows_until_the_answer_comes_and_a_second_h_asks_nothing_more() -> None:
    ctl = client(session(seed=5))
    asked: list[tuple[Callable[[], Any], Callable[[Any], None]]] = []
    ctl.client.coach.run = lambda work, done: asked.append((work, done))
    ctl.key("h")
    assert hint_line(ctl).strip() == THINKING
    assert hint_line(ctl, ASCII_OPTIONS).strip() == THINKING.replace("…", "...")
    ctl.key("h")
    assert len(asked) == 1
    work, done = asked[0]
    answer = work()
    assert isinstance(answer, Hint)
    done(answer)
    assert hint_line(ctl).strip() == answer.text
    done(None)                                       # a failed worker: said, nothing lost
    assert "could not answer" in hint_line(ctl)


def test_the_screen_answers_keys_while_the_expert_thinks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hint is thought off the screen's thread: a key pressed meanwhile is handled at once.  The
    Expert here thinks until the test lets it go, after the key has acted: no clock decides it."""
    moved = threading.Event()

    def slow_hint(view: Any, seed: int, budget: float) -> Hint:
        assert moved.wait(60), "the key pressed while the Expert thought was never handled"
        return Hint(view.legal[0], "Draw from the stock: slowly")
    monkeypatch.setattr(coaching, "hint", slow_hint)

    async def run() -> None:
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            app = TableApp.local(session(seed=5), delay_ms=0, input=inp, output=DummyOutput())
            task = asyncio.create_task(app.run_async())
            ctl = app.controller
            await until(lambda: app.screen is ctl, "the table")
            inp.send_text("h")
            await until(lambda: ctl.client.status() == THINKING, "Thinking…")
            inp.send_text("\x1b[C")                   # Right: the cursor moves while the Expert thinks
            await until(lambda: ctl.client.cursor == 1, "the cursor moved")
            assert ctl.client.status() == THINKING
            moved.set()
            await until(lambda: ctl.client.status() == "Draw from the stock: slowly", "the hint", 10)
            inp.send_text("q")
            inp.send_text("y")
            await asyncio.wait_for(task, 10)

    asyncio.run(run())


async def until(pred: Callable[[], bool], what: str, seconds: float = 10) -> None:
    for _ in range(int(seconds / 0.005)):
        if pred():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"never: {what}")


# ---------------------------------------------------------------------- the review of a hand


def play_to_summary(ctl: Controller) -> None:
    drive(ctl, lambda c: isinstance(c.client.dialog, Summary), steps=6000)


@pytest.fixture
def quick_review(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(coaching, "REVIEW_BUDGET", 0.03)


def test_no_review_unless_the_option_is_on() -> None:
    ctl = client(session(seed=3))
    play_to_summary(ctl)
    assert ctl.client.coach.decisions == {}
    assert render(ctl, 80, 24).text().splitlines()[-1].strip() == "Enter: the score sheet"
    ctl.key("enter")
    assert isinstance(ctl.client.dialog, SheetEnd)


def test_the_review_after_a_hand_lists_costs_and_fits_80x24(quick_review: None) -> None:
    ctl = client(session(seed=3))
    ctl.client.coach.review_on = True
    play_to_summary(ctl)
    coach = ctl.client.coach
    assert len(coach.decisions[0]) >= 5 and set(coach.decisions) == {0}       # only the human's seat
    mistakes = coach.reviews[0]
    assert mistakes is not None
    assert render(ctl, 80, 24).text().splitlines()[-1].strip() == "Enter: the review of the hand"
    ctl.key("enter")
    d = ctl.client.dialog
    assert isinstance(d, Review) and d.seats == (0,) and not d.private
    text = render(ctl, 80, 24).text()
    lines = text.splitlines()
    assert lines[0].startswith("─ Review of the hand: Player 1 ") and len(lines) == 24
    assert all(len(line) <= 80 for line in lines)
    costs = [m.cost for m in mistakes]
    assert costs == sorted(costs, reverse=True)
    if mistakes:
        assert lines[5] == "> " + mistakes[0].text[:76] or lines[5].endswith("…")    # the chosen one
        assert lines[6].startswith(" " * 13) and mistakes[0].why.startswith(lines[6].strip().rstrip("…"))  # why
        assert "±" in text
        # The explanation whole at 80 columns (issue 33's review: the search's best, whoever's choice).
        assert lines[2:4] == ["  Where the Expert's search found a clearly better choice, most costly first:",
                              "  the points each choice lost by its estimate, ± its standard error."]
    else:
        assert "well played" in text and "30 points" in text
    assert "Enter: the score sheet" in lines[-1]
    ctl.key("down")
    ctl.key("enter")
    assert isinstance(ctl.client.dialog, SheetEnd)


def test_the_review_shows_the_position_of_the_chosen_decision(quick_review: None) -> None:
    """A choice is understood in its position: under the list, the chosen decision's position as
    the player saw it (their hand then, the pile, the melds, the others' cards in hand); Down
    chooses the next decision and shows its position, the list following the choice."""
    ctl = client(session(seed=3))
    ctl.client.coach.review_on = True
    play_to_summary(ctl)
    mistakes = ctl.client.coach.reviews[0]
    assert mistakes is not None and len(mistakes) >= 6, "seed 3's simple player makes mistakes enough"
    ctl.key("enter")
    for i, m in enumerate(mistakes):
        lines = render(ctl, 80, 24).text().splitlines()
        v = m.view
        chosen = [line for line in lines if line.startswith("> ")]
        assert len(chosen) == 1 and chosen[0][2:].startswith(m.text[:70])
        hand = next(line for line in lines if line.startswith("  Your hand ("))
        assert hand.startswith(f"  Your hand ({len(v.hand)}): ")
        shown = hand.split(": ", 1)[1].rstrip("…").split()
        assert shown == [card_text(c, symbols=True) for c in sort_hand(v.hand)][:len(shown)]
        assert f"your turn {m.own_turn}" in chosen[0] and f"Your turn {m.own_turn}, " in "\n".join(lines)
        assert f"stock {v.stock_size}" in "\n".join(lines)
        assert all(len(line) <= 80 for line in lines) and len(lines) == 24
        # The chosen decision and its reason whole, however long (the list's lines are cut at 80).
        said = " ".join(" ".join(line.strip("> ") for line in lines).split())
        assert " ".join(m.text.split()) in said and " ".join(m.why.split()) in said, (m.text, m.why)
        if i < len(mistakes) - 1:
            ctl.key("down")
    ctl.key("down")                                      # the last stays chosen
    assert render(ctl, 80, 24).text().count("\n> ") == 1
    ctl.key("home")
    assert render(ctl, 80, 24).text().splitlines()[5] == "> " + mistakes[0].text[:76]


def test_esc_skips_a_review_still_being_made() -> None:
    ctl = client(session(seed=3))
    ctl.client.coach.review_on = True
    waiting: list[Any] = []
    ctl.client.coach.run = lambda work, done: waiting.append(done)
    play_to_summary(ctl)
    hints = len(waiting)
    ctl.key("enter")
    text = render(ctl, 80, 24).text()
    assert "Reviewing the hand…" in text and "Esc: skip the review" in text
    ctl.key("escape")
    assert isinstance(ctl.client.dialog, SheetEnd)
    waiting[hints - 1]([])                      # the answer that comes later changes nothing on screen
    assert isinstance(ctl.client.dialog, SheetEnd)


def test_hot_seat_each_person_sees_only_their_own_review(quick_review: None) -> None:
    ctl = client(session(players=2, seed=4))
    ctl.client.coach.review_on = True
    play_to_summary(ctl)
    coach = ctl.client.coach
    assert set(coach.decisions) == {0, 3}
    assert all(d.view.seat == s for s in (0, 3) for d in coach.decisions[s])
    ctl.key("enter")
    for seat in (0, 3):
        text = render(ctl, 80, 24).text()
        assert f"Player {seat + 1}'s review of the hand" in text and "please look away" in text
        assert "Turn " not in text                          # nothing of it before that player is there
        ctl.key("enter")
        text = render(ctl, 80, 24).text()
        assert f"Review of the hand: Player {seat + 1} " in text
        ctl.key("enter")
    assert isinstance(ctl.client.dialog, SheetEnd)


def test_the_option_is_saved_and_off_by_default() -> None:
    page, seen = options()
    typ(page, "up", "up")                                 # the last but one line
    assert selected(screen(page)).startswith("  > Review each hand         off")
    typ(page, "right")
    data = tomllib.loads(paths.settings_path().read_text(encoding="utf-8"))
    assert data["review"] is True and seen[-1] == ("review", True)
    assert "Saved: Review each hand = on" in screen(page)


def _views(n: int) -> list[Any]:
    """``n`` different views of seat 0 (positions of one deal, a move apart)."""
    deck = [int(c) for c in full_deck(2)]
    random.Random(3).shuffle(deck)
    s = deal(CLASSIC, deck, 3)
    out = []
    while len(out) < n:
        out.append(view_for(s, 0))
        s = apply(s, view_for(s, s.actor).legal[0])
    return out


def test_one_hint_is_worked_out_at_a_time_and_the_newest_asked_comes_next() -> None:
    """Melding and taking it back makes new positions as fast as keys come: the coach works out one
    hint at a time, and of those asked meanwhile only the newest (the one on the screen)."""
    coach = coaching.Coach()
    runs: list[tuple[Callable[[], Any], Callable[[Any], None]]] = []
    coach.run = lambda work, done: runs.append((work, done))
    v1, v2, v3 = _views(3)
    coach.ask(v1)
    coach.ask(v2)
    coach.ask(v3)
    assert len(runs) == 1 and coach.line(v3) == THINKING
    runs[0][1](Hint(v1.legal[0], "first"))
    assert len(runs) == 2                            # v3, the newest; v2 is never worked out
    assert runs[1][0].args[0] == v3                  # type: ignore[attr-defined]
    runs[1][1](Hint(v3.legal[0], "third"))
    assert coach.line(v3) == "third" and len(runs) == 2


def test_hints_are_bounded_per_minute_where_the_coach_says_so() -> None:
    now = [0.0]
    coach = coaching.Coach(per_minute=2, clock=lambda: now[0])
    v1, v2, v3 = _views(3)
    coach.run = lambda work, done: done(Hint(v1.legal[0], "ok"))
    coach.ask(v1)
    now[0] = 10.0
    coach.ask(v2)
    now[0] = 20.0
    coach.ask(v3)
    assert coach.line(v3) == "Hints: at most 2 a minute; the next one in 40 s"
    now[0] = 59.0
    coach.ask(v3)                                    # asking again looks again
    assert coach.line(v3) == "Hints: at most 2 a minute; the next one in 1 s"
    now[0] = 60.0
    coach.ask(v3)
    assert coach.line(v3) == "ok"


# ---------------------------------------------------------------------- a move of several actions


def _meld_then_give_the_pile() -> tuple[Controller, Action, Action]:
    """Player 1 (the person) has drawn, holds three 7s, and the next side has six Queens down with
    15 cards in the pile; melding the 7s and then discarding the Q♠ (one move of two actions, as a
    meld with its discard) hands the other side the pile and its canasta.  Returns the client and
    the two actions."""
    t = session(seed=5)
    # 108 cards: 8 in Player 1's hand, 5 in each other hand, 9 melded, 15 in the pile, 61 in the stock.
    s = position({0: "7c 7d 7h Qs 4c 5d 9h Jc"}, melds={0: ["Kc Kd Kh"], 1: ["Qc Qd Qh Qs Qc Qd"]},
                 pile="4h 5s 6c 8d 9s 10c Jd Kd 6h 8c Ah As Jh Js 10d", stock=61)
    t.match = t.match._replace(state=s)
    ctl = client(t)
    ctl.client.coach.review_on = True
    return ctl, A.meld(7, 7, 7), A.discard(int(parse_card("Qs")))


def test_every_action_of_a_move_is_a_decision_judged_where_it_was_played() -> None:
    """A move sends its actions in one batch (the Meld dialog's melds, melds then a discard): each
    is a decision of its own, judged in the position it was played in.  Here the costly choice is
    the second action (the discard that gives the other side the pile), and the review lists it."""
    ctl, meld, discard = _meld_then_give_the_pile()
    t = table_of(ctl)
    before = t.view(0)
    assert ctl.client.play([meld, discard])
    decisions = ctl.client.coach.decisions[0]
    assert [d.action for d in decisions] == [meld, discard]
    assert decisions[0].view == before
    second = decisions[1].view
    assert second.seat == 0 and second.phase == Phase.MELD and len(second.hand) == len(before.hand) - 3
    assert discard in second.legal and meld not in second.legal
    mistakes = review(tuple(decisions), 1, 0.1)
    assert [m.played for m in mistakes] == [discard]
    assert mistakes[0].at == 1 and mistakes[0].view == second and mistakes[0].cost > 100
    assert isinstance(decisions[1], Decision)


def test_a_refused_move_leaves_none_of_its_decisions() -> None:
    """A move the table refuses was no decision: none of its actions stays for the review."""
    ctl, meld, _ = _meld_then_give_the_pile()
    assert not ctl.client.play([meld, A.meld(9, 9, 9)])          # no three 9s: refused, nothing played
    assert ctl.client.coach.decisions.get(0, []) == []
    assert ctl.client.play([meld])
    assert [d.action for d in ctl.client.coach.decisions[0]] == [meld]


@pytest.mark.parametrize("preset", ["classic", "three-player", "samba"])
def test_the_position_of_a_decision_reads_from_the_players_own_view(preset: str) -> None:
    """The review's position: the player's hand (their sort order), the pile and stock, each side's
    melds by its name (three players: each player is a side), and the others' cards in hand; from
    the view alone, so another seat's hidden cards cannot appear in it."""
    from canasta_tui.ai import make_player
    from canasta_tui.engine import team_name
    from canasta_tui.presets import load_rules
    from canasta_tui.ui.canvas import DEFAULT_OPTIONS
    from canasta_tui.ui.coaching import position_lines
    rules = load_rules(preset)
    rng = random.Random(4)
    deck = list(full_deck(rules.packs))
    rng.shuffle(deck)
    s = deal(rules, deck, 0)
    ps = [make_player("beginner", i) for i in range(rules.players)]
    while s.turn_number < 12 and s.phase != Phase.HAND_OVER:
        s = apply(s, ps[s.actor].choose(view_for(s, s.actor)))
    v = view_for(s, 0)
    names = {0: "ann"}.get
    lines = position_lines(v, "suit", DEFAULT_OPTIONS.glyphs, lambda seat: names(seat) or f"Player {seat + 1}")
    assert lines[0] == f"Your hand ({len(v.hand)}): " + " ".join(card_text(c, symbols=True) for c in sort_hand(v.hand, "suit"))
    assert lines[1].endswith(f"; stock {v.stock_size}") and (f"Pile: {len(v.pile)} card" in lines[1] or not v.pile)
    assert lines[2].startswith("Your side: ")
    sides = [line.split(":")[0] for line in lines[3:-1]]
    assert sides == (["Theirs"] if rules.teams == 2 else [team_name(t, rules) for t in range(1, rules.teams)])
    held = ", ".join(f"Player {p + 1} {v.hand_sizes[p]}" for p in range(1, rules.players))
    assert lines[-1] == f"Cards in hand: {held} (next: Player 2)"
    others = {c for p in range(1, rules.players) for c in s.hands[p]} - set(v.hand)
    assert not any(card_text(c, symbols=True) in lines[0].split() for c in others)


def test_a_review_reason_too_long_for_its_line_is_shown_whole(quick_review: None) -> None:
    """The issue: review reasons were cut at 80 columns.  The chosen decision's reason, when its line
    cuts it, is told whole (wrapped) above its position."""
    from typing import NamedTuple

    ctl = client(session(seed=3))
    ctl.client.coach.review_on = True
    play_to_summary(ctl)
    mistakes = ctl.client.coach.reviews[0]
    assert mistakes

    class Long(NamedTuple):
        view: object
        own_turn: int
        cost: float
        text: str
        why: str

    m = mistakes[0]
    why = ("the next side has Kings down and three of them in the pile, so the pile of twelve cards was "
           "theirs to take with the King you threw, and with it a canasta of Kings: keep the Kings")
    ctl.client.coach.reviews[0] = [Long(m.view, m.own_turn, m.cost, m.text, why)]  # type: ignore[list-item]
    ctl.key("enter")
    lines = render(ctl, 80, 24).text().splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert " ".join(why.split()) in " ".join(" ".join(lines).split())


def test_the_chosen_decision_s_reason_is_whole_in_the_list_and_the_others_keep_their_point(quick_review: None) -> None:
    """QA: "the next side has Sevens down: the pile (2 cards) was theirs to t…" in the review list,
    and still cut when chosen.  The chosen decision's lines are whole (wrapped) where it stands in
    the list; another's reason too long for its line says its point (before the colon), uncut."""
    from typing import NamedTuple

    ctl = client(session(seed=3))
    ctl.client.coach.review_on = True
    play_to_summary(ctl)
    mistakes = ctl.client.coach.reviews[0]
    assert mistakes

    class Long(NamedTuple):
        view: object
        own_turn: int
        cost: float
        text: str
        why: str

    m = mistakes[0]
    whys = ["the next side has Sevens down: the pile (2 cards) was theirs to take",
            "the next side has Kings down: the pile (11 cards) was theirs to take"]
    ctl.client.coach.reviews[0] = [Long(m.view, m.own_turn, m.cost, m.text, w) for w in whys]  # type: ignore[misc]
    ctl.key("enter")
    for chosen, other in ((0, 1), (1, 0)):
        lines = render(ctl, 80, 24).text().splitlines()
        assert all(len(line) <= 80 for line in lines)
        start = next(i for i, line in enumerate(lines) if line.startswith("> "))
        rows = [lines[start]]
        for line in lines[start + 1:]:
            if not line.startswith("   ") or line.startswith(f"  {m.text[:8]}"):
                break
            rows.append(line)
        said = " ".join(" ".join(r[2:] for r in rows).split())
        assert " ".join(whys[chosen].split()) in said and "…" not in said, rows
        point = whys[other].split(":")[0]
        assert any(line.strip() == point for line in lines), lines
        ctl.key("down")
