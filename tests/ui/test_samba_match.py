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
from dataclasses import dataclass, field

from canasta_tui.ai import make_player
from canasta_tui.engine import Phase
from canasta_tui.engine.melds import Meld
from canasta_tui.engine.state import team
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.dialogs import Answer, MatchOver, PileChoice, Privacy, Quit, SheetEnd, Summary

from .helpers import client, next_key, render, session, table_of
from .keys_for import keys_for


@dataclass
class Played:
    """What the person's keys did in a match, and the hands' summaries as the screen showed them."""

    summaries: list[str] = field(default_factory=list)
    sequences: int = 0       # sequences the person's keys melded
    sambas: int = 0          # sambas the person's keys completed
    keys: int = 0
    fallbacks: int = 0       # turns where the chosen action's keys played nothing


def _sequences(row: tuple[Meld | None, ...]) -> tuple[int, int]:
    """The side's sequences, and how many of them are sambas."""
    seqs = [m for m in row if m is not None and m.is_sequence]
    return len(seqs), sum(1 for m in seqs if m.is_canasta)


def play_match(ctl: Controller, steps: int = 60000) -> Played:
    """Play the match to its end by keys: the person's seat by an Advanced player's choices."""
    t = table_of(ctl)
    person = make_player("advanced", 11)
    seen = Played()
    for _ in range(steps):
        d = ctl.client.dialog
        if isinstance(d, MatchOver):
            return seen
        if isinstance(d, Summary):
            seen.summaries.append(render(ctl, 80, 24).text())
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
        before = _sequences(v.melds[team(0, v.rules)])
        state = t.state
        keys = keys_for(person.choose(v), ctl.client.hand(), v) or []
        for k in keys:
            ctl.key(k)
        seen.keys += len(keys)
        if t.state is state:
            # The keys did not play (a message says why, or they composed nothing): a simple
            # person's key moves the turn on.
            seen.fallbacks += 1
            if ctl.message:
                ctl.key("x")
            k = next_key(ctl)
            if k is not None:
                ctl.key(k)
            continue
        if t.state.dealer == state.dealer:   # the same hand
            after = _sequences(t.state.melds[0])
            seen.sequences += max(0, after[0] - before[0])
            seen.sambas += max(0, after[1] - before[1])
    raise AssertionError("the match never ended")


def test_a_whole_samba_match_by_keys_at_80x24_with_a_sequence_a_samba_and_its_1500() -> None:
    t = session(players=1, seed=8, rules="samba")
    ctl = client(t)
    seen = play_match(ctl)
    match = t.match
    assert match.winner is not None and max(match.scores) >= 10000      # "game to 10,000"
    summaries = seen.summaries
    assert len(summaries) == len(match.sheet) >= 2
    assert seen.sequences >= 1, "the person's keys never melded a sequence"
    assert seen.sambas >= 1, "the person's keys never completed a samba"
    # "a sequence of seven is a samba (a canasta with a 1,500 bonus)": named in the hand's summary
    # at 80x24 (its figures are written with a thousands separator, as a person reads scores).
    shown = [s for s in summaries if re.search(r" 1 samba +1,500\n", s)]
    assert shown and all(len(s.splitlines()) <= 24 and max(map(len, s.splitlines())) <= 80 for s in summaries)
    assert re.search(r"-[0-9JQKA]+[♣♦♥♠] ×7 +★samba", shown[0])
    assert seen.fallbacks * 20 < seen.keys
