"""Query ("May I go out, partner?") before a question that can only cost, the hint line's words on
asking, and h always answering.

DOS "Asking Permission": "The player is bound by the reply for that round only ... Should the
player not abide by the answer, a 100 point penalty is assessed.  A player may go out without
asking permission."  DOS "Concealed Hand": "2) By melding out with a Canasta concealed in the
hand.  In this case the Initial Meld Requirement is waived."
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from canasta_tui.ai.asking import Outlook, canastas_within_reach, going_out, stuck
from canasta_tui.ai.players import advanced, beginner
from canasta_tui.engine import CLASSIC, GameState, Phase, apply, deal, full_deck, view_for
from canasta_tui.engine import actions as A
from canasta_tui.engine.state import team
from canasta_tui.presets import load_rules
from canasta_tui.table import Table
from canasta_tui.ui.app import TableApp
from canasta_tui.ui.coaching import CHECKING
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.dialogs import Confirm
from canasta_tui.ui.texts import ASK_HINT, ask_warning
from tests.ai.helpers import cards, position, variant_position

from .helpers import client, render, session

CANNOT_WORDS = "Asking can only cost you here: you cannot go out this turn"
CONCEALED_WORDS = "You can go out concealed this turn, and going out needs no"


def at(hands: dict[int, str], **kw: Any) -> GameState:
    """A constructed position whose 108 cards add up (the view's unseen cards fill the stock):
    Player 1 to meld after drawing from the stock; the other seats hold five cards each."""
    s = position(hands, **kw)
    seen = len(s.hands[0]) + sum(m.size for row in s.melds for m in row if m is not None) + len(s.pile)
    others = sum(len(h) for h in s.hands[1:])
    stock = 108 - seen - others
    return s._replace(stock_pos=len(s.deck) - stock)


def table_at(s: GameState) -> tuple[Table, Controller]:
    t = session(seed=5)
    t.match = t.match._replace(state=s)
    return t, client(t)


# A canasta of Kings on the table; the hand holds two odd cards (a Four and a Nine), which no
# meld can take: one of them could be the discard, never both.
CANNOT = {"hands": {0: "4c 9d 7h 7s 7d 5c 5d 5h"}, "melds": {0: ["Kc Kd Kh Ks Kc Kd Kh"]}}
# The same canasta; the hand melds out (three Sevens, three Fives) and discards the Nine.
MAY = {"hands": {0: "9d 7h 7s 7d 5c 5d 5h"}, "melds": {0: ["Kc Kd Kh Ks Kc Kd Kh"]}}
# No side has melded; the hand holds a canasta of Queens, three Fives and a Nine to discard.
CONCEALED = {"hands": {0: "Qc Qd Qh Qs Qc Qd Qh 5c 5d 5h 9s"}}


def test_the_look_ahead_reads_the_three_kinds_of_hand() -> None:
    for spec, want in ((CANNOT, Outlook.CANNOT), (MAY, Outlook.MAY), (CONCEALED, Outlook.CONCEALED)):
        v = view_for(at(**spec), 0)
        assert A.A_ASK in v.legal, spec           # Query is lit in all three
        assert going_out(v) == want, spec
        assert going_out(v, prune=False) == want, spec


def test_query_that_can_only_cost_warns_and_n_takes_it_back() -> None:
    """The side has a canasta, so Query is lit; this hand cannot go out this turn, so a "yes"
    could only cost 100: say so first, and let the player take the question back."""
    t, ctl = table_at(at(**CANNOT))
    ctl.key("y")
    assert isinstance(ctl.client.dialog, Confirm)
    text = render(ctl, 80, 24).text()
    assert CANNOT_WORDS in text
    assert "(no meld can take your 4♣ and 9♦)." in text
    assert 'A "yes" binds you to go out: your side would pay 100 points' in text
    assert "Asking is optional" in text and "Ask anyway?    y: ask    n: do not ask" in text
    ctl.key("n")
    st = t.match.state
    assert ctl.client.dialog is None and st.phase == Phase.MELD and not st.t.asked     # nothing asked, nothing lost
    assert A.A_ASK in ctl.client.mine().legal
    ctl.key("y")                                   # asked again: the same warning, at once
    assert isinstance(ctl.client.dialog, Confirm)
    ctl.key("y")                                   # ask anyway: the partner is asked
    assert t.match.state.phase == Phase.PERMISSION and t.match.state.actor == 2


def test_the_warning_says_why_the_hand_cannot_go_out() -> None:
    # Samba (Query lit at every turn): "two canastas" to go out, and none in reach.
    v = view_for(variant_position({0: "5c 5d 5h 9s 9h 9d Kc Kd Kh"}, rules=load_rules("samba"),
                                  melds={0: ["Qc Qd Qh Qs"]}, pile="7c"), 0)
    assert A.A_ASK in v.legal and going_out(v) == Outlook.CANNOT
    text = ask_warning(Outlook.CANNOT, v)
    assert text is not None and "(your side needs two canastas and cannot make them)." in text
    # A pair of Nines with no wild card makes no meld, and the Six must be the discard: the
    # general words.
    v = view_for(at({0: "9d 9h 6h"}, melds={0: ["Kc Kd Kh Ks Kc Kd Kh"]}), 0)
    assert A.A_ASK in v.legal and going_out(v) == Outlook.CANNOT
    assert "(your cards cannot all be melded, bar one to discard)." in (ask_warning(Outlook.CANNOT, v) or "")
    assert ask_warning(Outlook.MAY, v) is None and ask_warning(Outlook.UNKNOWN, v) is None


def test_the_warning_counts_the_stuck_cards_it_does_not_name() -> None:
    """QA: the warning ended "…your 3♣, 3♠, 7♠, 9♦ and …", which reads as cut: more than four
    cards no meld can take are named three and counted ("and 3 more"); four are all named."""
    v = view_for(at({0: "4c 9d 6s 8h Jc 7h 7s 7d"}, melds={0: ["Kc Kd Kh Ks Kc Kd Kh"]}), 0)
    assert going_out(v) == Outlook.CANNOT
    text = ask_warning(Outlook.CANNOT, v) or ""
    assert "(no meld can take your 4♣, 6♠, 8♥ and 2 more)." in text.replace("\n", " "), text
    assert "…" not in text
    v = view_for(at({0: "4c 9d 6s 8h 7h 7s 7d"}, melds={0: ["Kc Kd Kh Ks Kc Kd Kh"]}), 0)
    assert "(no meld can take your 4♣, 6♠, 8♥ and 9♦)." in (ask_warning(Outlook.CANNOT, v) or "")


def test_query_with_a_concealed_canasta_in_hand_warns_that_a_no_would_stop_it() -> None:
    """The partner cannot see the Queens: their "no" would stop a concealed going out worth 200
    that needed no question."""
    t, ctl = table_at(at(**CONCEALED))
    ctl.key("y")
    assert isinstance(ctl.client.dialog, Confirm)
    text = render(ctl, 80, 24).text()
    assert CONCEALED_WORDS in text
    assert 'hand: a "no" would stop you going out, and its 200 points.' in text
    assert "(asking is optional)" in text
    ctl.key("n")
    assert ctl.client.dialog is None and t.match.state.phase == Phase.MELD and not t.match.state.t.asked
    # ... and going out without asking is allowed: the Queens, the Fives, the Nine discarded.
    for move in ("meld Q Q Q", "add Q", "add Q", "add Q", "add Q", "meld 5 5 5", "discard 9s"):
        assert ctl.type_action(move), (move, ctl.message)
    st = t.match.state
    assert st.phase == Phase.HAND_OVER and st.went_out == 0 and st.concealed


def test_query_that_can_go_out_asks_at_once() -> None:
    t, ctl = table_at(at(**MAY))
    ctl.key("y")
    assert ctl.client.dialog is None or not isinstance(ctl.client.dialog, Confirm)
    assert t.match.state.phase == Phase.PERMISSION


def test_the_look_ahead_runs_off_the_screen_and_says_so_meanwhile() -> None:
    """The look ahead goes to the coach's runner (off the screen's thread in the app): the hint
    line says what is going on, and the answer acts when it comes, unless the player moved on."""
    t, ctl = table_at(at(**CANNOT))
    waiting: list[Any] = []
    ctl.client.coach.quick = 0                     # (as a hand too long to look at at once)
    ctl.client.coach.run = lambda work, done: waiting.append((work, done))
    ctl.key("y")
    assert ctl.client.dialog is None and len(waiting) == 1
    assert render(ctl, 80, 24).text().splitlines()[22].strip() == CHECKING
    ctl.key("y")                                   # pressed again meanwhile: no second search
    assert len(waiting) == 1
    work, done = waiting[0]
    done(work())
    assert isinstance(ctl.client.dialog, Confirm) and CANNOT_WORDS in render(ctl, 80, 24).text()
    # A player who melded before the answer came is not asked anything.
    t, ctl = table_at(at(**CANNOT))
    waiting.clear()
    ctl.client.coach.quick = 0
    ctl.client.coach.run = lambda work, done: waiting.append((work, done))
    ctl.key("y")
    assert ctl.type_action("meld 7 7 7")
    work, done = waiting[0]
    done(work())
    assert ctl.client.dialog is None and not t.match.state.t.asked


def test_keys_typed_right_after_y_find_the_warning_open() -> None:
    """A short hand is looked at at once: y y (ask, then the warning's "ask anyway") asks, with
    no key lost to a look ahead still under way."""
    t, ctl = table_at(at(**CANNOT))
    ctl.client.coach.run = lambda work, done: None     # nothing may wait for another thread
    ctl.key("y")
    ctl.key("y")
    assert t.match.state.phase == Phase.PERMISSION


def test_the_hint_line_says_asking_is_optional_and_binding_while_query_is_lit() -> None:
    _, ctl = table_at(at(**CANNOT))
    line = render(ctl, 80, 24).text().splitlines()[22]
    assert line.strip() == 'm melds, c discards; y asks "May I go out?" (optional; answer binds)'
    assert ctl.type_action("meld 7 7 7")           # melded: asking is over for this turn
    line = render(ctl, 80, 24).text().splitlines()[22]
    assert ASK_HINT not in line


def test_in_samba_the_hint_line_keeps_the_join_beside_the_question() -> None:
    """Samba: "may combine its melds in the same rank at any time", and Query is lit at every turn."""
    s = variant_position({0: "5c 5d 5h 9s 4c 6d 8h"}, rules=load_rules("samba"),
                         melds={0: ["Kc Kd Kh Ks Kc Kd Kh", "Kc Kh Ks"]}, pile="7c")
    t = session(seed=5, rules="samba")
    t.match = t.match._replace(state=s)
    line = render(client(t), 80, 24).text().splitlines()[22]
    assert line.strip() == 'm melds, J joins, c discards; y asks "May I go out?" (optional; answer binds)'


def test_help_says_asking_is_optional_and_binding() -> None:
    from canasta_tui.ui.helppages import how_to_play_lines
    from canasta_tui.ui.keys import KEYS

    query = next(k for k in KEYS if k.command == "query")
    assert "optional, and the answer binds" in query.description
    text = " ".join(line.text for line in how_to_play_lines(78))
    assert "Asking is optional" in text and "binds you" in text


def test_the_help_says_when_query_is_lit_as_the_bar_lights_it() -> None:
    """QA: the help said y is "(lit when going out is possible this turn)", but the bar lights
    Query whenever the side has the canasta going out needs, also where this hand cannot go out
    this turn (CANNOT: the warning then says so).  The help, the man page and the bar agree."""
    from pathlib import Path

    from canasta_tui.ui.helppages import how_to_play_lines
    from canasta_tui.ui.keys import KEYS

    _t, ctl = table_at(at(**CANNOT))
    assert ctl.client.lit()["query"] and going_out(ctl.client.mine()) == Outlook.CANNOT
    query = next(k for k in KEYS if k.command == "query").description
    assert "going out is possible this turn" not in query
    assert "canastas going out needs" in query and "cannot go out this turn" in query
    help_text = " ".join(line.text for line in how_to_play_lines(200))
    man = (Path(__file__).parents[2] / "man" / "canasta.6").read_text(encoding="utf-8")
    for text in (help_text, man, (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")):
        assert "lit when going out is possible" not in " ".join(text.split())


# ---------------------------------------------------------------------- the prunes against the search


def _asking_views(rules_name: str, games: int) -> list[Any]:
    rules = load_rules(rules_name)
    out = []
    for g in range(games):
        rng = random.Random(g)
        players = [advanced(g * 4 + i) if i % 2 else beginner(g * 4 + i) for i in range(rules.players)]
        deck = [int(c) for c in full_deck(rules.packs)]
        rng.shuffle(deck)
        s = deal(rules, deck, g % rules.players)
        for _ in range(3000):
            if s.phase == Phase.HAND_OVER:
                break
            v = view_for(s, s.actor)
            if A.A_ASK in v.legal:
                out.append(v)
            s = apply(s, players[s.actor].choose(v))
    return out


def test_the_prunes_never_change_the_answer() -> None:
    """stuck() and canastas_within_reach() only cut the search short where it would find no way
    out anyway: over the positions where players could ask in real hands of Canasta, Samba and
    Bolivia, the search gives the same answer with them as without them (where the search without
    them finishes within its bound)."""
    compared = {"cannot": 0, "out": 0}
    for name, games in (("classic", 6), ("samba", 3), ("bolivia", 3)):
        for v in _asking_views(name, games):
            full = going_out(v, limit=3000, prune=False)
            if full == Outlook.UNKNOWN:
                continue
            assert going_out(v) == full, (name, v.hand)
            compared["cannot" if full == Outlook.CANNOT else "out"] += 1
            tm = team(v.turn, v.rules)
            if full != Outlook.CANNOT:
                assert stuck(v.hand, v.melds[tm], v.rules) <= 1
    assert compared["cannot"] >= 30 and compared["out"] >= 5, compared


def test_stuck_counts_only_cards_no_meld_can_take() -> None:
    row = at(**CANNOT).melds[0]
    assert stuck(cards("4c 9d 7h 7s 7d 5c 5d 5h"), row, CLASSIC) == 2      # the Four and the Nine
    assert stuck(cards("4c 9d Kh 2c"), row, CLASSIC) == 2                  # Kh goes on the Kings; the deuce anywhere
    assert stuck(cards("4c 4d 9d"), row, CLASSIC) == 1
    assert stuck(cards("3c 3s 9d"), row, CLASSIC) == 3                     # two black threes make no meld
    samba = load_rules("samba")
    assert stuck(cards("4c 5c 6c 9d Jh"), row, samba) == 2                 # 4-5-6 of clubs is a sequence
    # The Kings, and four Sevens with three wild cards; three Sevens take at most three ("not more
    # than three wild cards"), six cards.
    assert canastas_within_reach(cards("7h 7s 7d 7c 2c 2d 2h"), row, CLASSIC) == 2
    assert canastas_within_reach(cards("7h 7s 7d 2c 2d 2h JK"), row, CLASSIC) == 1


# ---------------------------------------------------------------------- h always answers


def test_h_over_a_message_answers_instead_of_only_closing_it() -> None:
    ctl = client(session(seed=5))
    ctl.message = ["Player 3 says: No, do not go out"]
    ctl.key("h")
    assert ctl.message == []
    line = render(ctl, 80, 24).text().splitlines()[22].strip()
    assert line.startswith(("Draw from the stock: ", "Take the pile")), line


def test_h_at_a_rated_table_answers_every_time() -> None:
    """Pressed twice, the second h only closed the first refusal: it said nothing."""
    ctl = client(session(seed=5))
    ctl.client.coach.refusal = "No hints at a rated table: its matches count for the ratings"
    for _ in range(3):
        ctl.key("h")
        assert ctl.message == ["No hints at a rated table: its matches count for the ratings"]
        assert "No hints at a rated table" in render(ctl, 80, 24).text()


def test_h_shows_its_answer_over_a_turn_timers_warning() -> None:
    ctl = client(session(seed=5))
    ctl.client.turn_note = "10 s left in your turn"
    assert render(ctl, 80, 24).text().splitlines()[22].strip() == "10 s left in your turn"
    ctl.key("h")
    line = render(ctl, 80, 24).text().splitlines()[22].strip()
    assert line.startswith(("Draw from the stock: ", "Take the pile")), line


def test_in_the_running_app_the_warning_comes_from_the_worker_and_takes_its_keys() -> None:
    """In the app the long look ahead runs on a worker thread (the coach's runner): the warning
    opens when it is done, and y there asks."""
    async def run() -> tuple[bool, bool]:
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            t = session(seed=5)
            t.match = t.match._replace(state=at(**CANNOT))
            app = TableApp.local(t, delay_ms=0, input=inp, output=DummyOutput())
            task = asyncio.create_task(app.run_async())
            ctl = app.controller
            ctl.client.coach.quick = 0                 # (as a hand too long to look at at once)
            await until(lambda: app.screen is ctl and ctl.client.my_turn(), "the table")
            inp.send_text("y")
            await until(lambda: isinstance(ctl.client.dialog, Confirm), "the warning")
            warned = CANNOT_WORDS in render(ctl, 80, 24).text() and not t.match.state.t.asked
            inp.send_text("y")
            await until(lambda: t.match.state.t.asked, "the question asked")
            app.app.exit()
            await asyncio.wait_for(task, 60)
            return warned, t.match.state.t.asked
    warned, asked = asyncio.run(run())
    assert warned and asked


async def until(pred: Callable[[], bool], what: str, seconds: float = 60) -> None:
    for _ in range(int(seconds / 0.01)):
        if pred():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")
