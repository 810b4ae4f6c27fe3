"""Partnership: answering and asking "May I go out, partner?", and abiding by the answer.

DOS manual: "Before going out, a player may ask their partner 'May I go out?' ... the
partner must answer 'yes' or 'no' and the player must abide by the answer."
"""

from __future__ import annotations

from canasta_tui.ai import make_player
from canasta_tui.engine import GameState, Phase, apply, view_for
from canasta_tui.engine import actions as A

from .helpers import position

CANASTA = "Kh Kd Kc Ks Kh Kd 2c"


def answer(level: str, hand: str, **kw: object) -> str:
    s = position({0: "8h 8d 8c", 2: hand}, melds={0: [CANASTA, "9h 9d 9c"]}, phase=Phase.PERMISSION, **kw)  # type: ignore[arg-type]
    v = view_for(s, 2)
    assert v.legal == (A.A_YES, A.A_NO)
    return str(make_player(level, 1).choose(v))


def test_says_no_while_holding_many_meldable_points() -> None:
    """"no" while the hand holds many points that a few more turns could meld."""
    assert answer("advanced", "Ah Ad Ac Qh Qd Qs Jh Jd 9s JK 2d") == "no"


def test_says_yes_when_the_opponents_threaten() -> None:
    """The opponents have a canasta and one card left: let the partner go out now."""
    s = position({0: "8h 8d 8c", 1: "5c", 2: "Ah Ad Ac Qh Qd Qs Jh Jd 9s JK 2d"},
                 melds={0: [CANASTA, "9h 9d 9c"], 1: ["Qc Qh Qd Qs Qc Qh 2s"]}, phase=Phase.PERMISSION)
    assert str(make_player("advanced", 1).choose(view_for(s, 2))) == "yes"


def test_says_yes_with_a_cheap_hand() -> None:
    assert answer("advanced", "4c 5d 6h") == "yes"
    assert answer("beginner", "4c 5d 6h") == "yes"


BEHIND = {0: [CANASTA, "9h 9d 9c"], 1: ["Ac Ad Ah As Ac Ad Ah", "Jc Jd Jh Js Jc Jd Jh"]}


def test_asks_partner_holding_many_cards_then_goes_out_after_yes() -> None:
    """Behind, a player who can go out asks a partner holding many cards; after "yes" it goes out."""
    s = position({0: "8h 8d 8c Kc", 2: "4c 5d 6h 7s 9s 10c Jd Qh"}, melds=BEHIND)
    p = make_player("advanced", 3)
    assert p.choose(view_for(s, 0)) == A.A_ASK
    s = apply(s, A.A_ASK)
    s = apply(s, A.A_YES)
    for _ in range(10):
        if s.phase == Phase.HAND_OVER:
            break
        s = apply(s, p.choose(view_for(s, 0)))
    assert s.phase == Phase.HAND_OVER and s.went_out == 0
    assert s.penalties == (0, 0)


def test_abides_by_no() -> None:
    """After "no" the player keeps cards and discards, so no penalty is incurred."""
    s = position({0: "8h 8d 8c Kc", 2: "4c 5d 6h 7s 9s 10c Jd Qh"}, melds={0: [CANASTA, "9h 9d 9c"]},
                 asked=True, permission=0)
    p = make_player("advanced", 3)
    for _ in range(10):
        if s.turn != 0 or s.phase == Phase.HAND_OVER:
            break
        s = apply(s, p.choose(view_for(s, 0)))
    assert s.phase != Phase.HAND_OVER and s.turn == 1
    assert len(s.hands[0]) >= 1 and s.penalties == (0, 0)


def test_goes_out_without_asking_when_partner_holds_little() -> None:
    s = position({0: "8h 8d 8c Kc", 2: "4c 5d"}, melds=BEHIND)
    p = make_player("advanced", 3)
    for _ in range(10):
        if s.phase == Phase.HAND_OVER:
            break
        a = p.choose(view_for(s, 0))
        assert a != A.A_ASK
        s = apply(s, a)
    assert s.went_out == 0


def test_never_says_yes_when_the_side_is_far_from_a_canasta() -> None:
    """Issue 10, item 8: a partner said "Yes, go out" with the side holding melds but no
    canasta, and the asker paid 100.  DOS "Going Out": "The player's side must have melded
    at least one Canasta."  From what the partner sees (melds of three, the asker's three
    cards) no meld can reach seven: every level says no, even with the cheap hand that
    says yes when going out is possible."""
    far = position({0: "8h 8d 9s", 2: "4c 5d 6h"}, melds={0: ["Jh Jd Jc", "Ah Ad Ac"]}, phase=Phase.PERMISSION)
    for level in ("beginner", "advanced", "expert"):
        assert str(make_player(level, 1).choose(view_for(far, 2))) == "no", level
    # a meld of four and three cards in the asker's hand: a canasta is within reach
    near = position({0: "8h 8d 9s", 2: "4c 5d 6h"}, melds={0: ["Jh Jd Jc Js", "Ah Ad Ac"]}, phase=Phase.PERMISSION)
    assert str(make_player("beginner", 1).choose(view_for(near, 2))) == "yes"
    # but not when the cards it needs are all in sight: the other four Jacks and every
    # wild card are on the opponents' table or in this hand
    seen = position({0: "8h 8d 9s", 2: "4c 5d 6h Jh"},
                    melds={0: ["Jh Jd Jc Js", "Ah Ad Ac"],
                           1: ["Jd Jc Js 2c 2d 2h", "Kh Kd Kc 2s 2c 2d", "Qh Qd Qc 2h 2s JK", "5h 5c 5s JK JK JK"]},
                    phase=Phase.PERMISSION)
    assert str(make_player("beginner", 1).choose(view_for(seen, 2))) == "no"


# The computer partner of a human asks "May I go out, partner?" where a good partner would
# (issue 17: it never asked in a whole five-hand match).  DOS "Asking Permission": "A player
# is legally entitled to ask, 'May I go out, partner?' ... The player is bound by the reply";
# the rule of play: going out counts the partner's cards against the side, and only the
# partner knows whether a few more turns would meld them, so ask when the partner holds
# cards, unless a "no" would let the opponents go out first.
LATE = {0: [CANASTA, "9h 9d 9c"], 1: ["Ac Ad Ah As Ac Ad Ah", "Jc Jd Jh Js Jc Jd Jh"]}


def partner_to_go_out(opponents: tuple[str, str], partner: str = "4c 5d 6h 7s 9s 10c Jd Qh") -> GameState:
    """Seat 2 (the computer partner of the human in seat 0) has drawn and can go out:
    Eights to meld, the King of Spades to discard; its side is behind."""
    return position({0: partner, 1: opponents[0], 2: "8h 8d 8c Ks", 3: opponents[1]}, melds=LATE, turn=2)


def test_asks_its_partner_late_in_the_hand_when_the_opponents_cannot_go_out_first() -> None:
    """The opponents have their canastas and one of them holds four cards: going out is
    urgent enough that it goes out, and calm enough that a "no" costs little.  It used to go
    out without asking whenever the opponents had a canasta and one of them four cards or
    fewer (a "threat" of 1.5), which is most of the hands' last turns."""
    s = partner_to_go_out(("5c 6c 7c 9c", "4h 5h 6d 7d 9d"))
    p = make_player("advanced", 3)
    assert p.choose(view_for(s, 2)) == A.A_ASK
    asked = apply(s, A.A_ASK)
    assert asked.actor == 0 and asked.phase == Phase.PERMISSION       # the human answers


def test_goes_out_at_once_when_an_opponent_could_go_out_before_its_next_turn() -> None:
    """An opponent of a side with its canastas holds two cards: after a "no" they may go out
    first, so a good partner goes out without asking."""
    s = partner_to_go_out(("5c 6c", "4h 5h 6d 7d 9d"))
    p = make_player("advanced", 3)
    a = p.choose(view_for(s, 2))
    assert a != A.A_ASK and a.kind == "meld"


def test_asks_are_counted_per_100_hands_by_the_bench() -> None:
    from canasta_tui.bench.ai_bench import report, run

    r = run("advanced", "beginner", deals=4)
    assert r["asks"]["B"]["asks"] == 0                      # a Beginner never asks
    assert r["asks"]["A"]["per_100_hands"] == round(100 * r["asks"]["A"]["asks"] / r["hands"], 1)
    assert r["answers"]["yes"] + r["answers"]["no"] == r["asks"]["A"]["asks"]
    assert "May I go out?:" in report(r)
