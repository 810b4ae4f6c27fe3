"""Issue 19, "Done means": a person plays a whole Samba match against three computers at 80x24,
melds a sequence, completes a samba and sees the 1,500 in the hand's summary (written 1500, as
the summary writes all its figures).

The person's keys are chosen by an Advanced computer player from the seat's own view and typed
as a person types them (:mod:`tests.ui.keys_for`): Home and Right to each card, Space, then the
command's key.  The three other seats are the table's computers.  The screens are the app's own
paint at 80x24 (the summary table, the quadrants).
"""

from __future__ import annotations

import re

from canasta_tui.ai import make_player
from canasta_tui.engine import Phase
from canasta_tui.engine.state import team
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.dialogs import Answer, MatchOver, PileChoice, Privacy, Quit, SheetEnd, Summary

from .helpers import client, next_key, render, session, table_of
from .keys_for import keys_for


def play_match(ctl: Controller, steps: int = 60000) -> dict[str, object]:
    """Play the match to its end; what the person's keys did and what the summaries showed."""
    t = table_of(ctl)
    person = make_player("advanced", 11)
    seen: dict[str, object] = {"summaries": [], "sequences": 0, "sambas": 0, "keys": 0, "fallbacks": 0}
    summaries: list[str] = seen["summaries"]  # type: ignore[assignment]
    for _ in range(steps):
        d = ctl.client.dialog
        if isinstance(d, MatchOver):
            return seen
        if isinstance(d, Summary):
            summaries.append(render(ctl, 80, 24).text())
            ctl.key("enter")
            continue
        if isinstance(d, (SheetEnd, Privacy)):
            ctl.key("enter")
            continue
        if isinstance(d, Answer):
            v = ctl.client.mine()
            ctl.key("y" if v.phase == Phase.PERMISSION and person.choose(v).kind == "yes" else "n")
            continue
        if isinstance(d, (Quit, PileChoice)):
            ctl.key("n")
            continue
        if d is not None or ctl.message:
            ctl.key("enter" if d is not None else "x")
            continue
        if not ctl.client.my_turn():
            if not t.step():
                raise AssertionError("nobody can move")
            continue
        v = ctl.client.mine()
        row = v.melds[team(0, v.rules)]
        before = (sum(1 for m in row if m is not None and m.is_sequence),
                  sum(1 for m in row if m is not None and m.is_sequence and m.is_canasta))
        state = t.state
        keys = keys_for(person.choose(v), ctl.client.hand(), v)
        for k in keys or []:
            ctl.key(k)
            seen["keys"] = int(seen["keys"]) + 1  # type: ignore[call-overload]
        if t.state is state:
            # The keys did not play (a message says why, or they composed nothing): a simple
            # person's key moves the turn on.
            seen["fallbacks"] = int(seen["fallbacks"]) + 1  # type: ignore[call-overload]
            if ctl.message:
                ctl.key("x")
            k = next_key(ctl)
            if k is not None:
                ctl.key(k)
            continue
        after_row = t.state.melds[0]
        seqs = sum(1 for m in after_row if m is not None and m.is_sequence)
        sambas = sum(1 for m in after_row if m is not None and m.is_sequence and m.is_canasta)
        if t.state.dealer == state.dealer:   # the same hand
            seen["sequences"] = int(seen["sequences"]) + max(0, seqs - before[0])  # type: ignore[call-overload]
            seen["sambas"] = int(seen["sambas"]) + max(0, sambas - before[1])  # type: ignore[call-overload]
    raise AssertionError("the match never ended")


def test_a_whole_samba_match_by_keys_at_80x24_with_a_sequence_a_samba_and_its_1500() -> None:
    t = session(players=1, seed=8, rules="samba")
    ctl = client(t)
    seen = play_match(ctl)
    match = t.match
    assert match.winner is not None and max(match.scores) >= 10000      # "game to 10,000"
    summaries: list[str] = seen["summaries"]  # type: ignore[assignment]
    assert len(summaries) == len(match.sheet) >= 2
    assert seen["sequences"] >= 1, "the person's keys never melded a sequence"
    assert seen["sambas"] >= 1, "the person's keys never completed a samba"
    # "a sequence of seven is a samba (a canasta with a 1,500 bonus)": named in the hand's summary
    # at 80x24 (its figures are written without a thousands separator, as all of them are).
    shown = [s for s in summaries if re.search(r" 1 samba +1500\n", s)]
    assert shown and all(len(s.splitlines()) <= 24 and max(map(len, s.splitlines())) <= 80 for s in summaries)
    assert re.search(r"-[0-9JQKA]+[♣♦♥♠] ×7 +★samba", shown[0])
    assert int(seen["fallbacks"]) * 20 < int(seen["keys"])  # type: ignore[call-overload]
