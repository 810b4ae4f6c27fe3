"""Helpers for the table's tests: seeded tables, a local client, and a key-pressing driver."""

from __future__ import annotations

from collections.abc import Callable

from canasta_tui.engine import Phase
from canasta_tui.presets import load_rules
from canasta_tui.table import Table, local_link, seats_for
from canasta_tui.ui.canvas import DEFAULT_OPTIONS, Canvas, Options
from canasta_tui.ui.controller import Controller
from canasta_tui.ui.dialogs import Answer, PileChoice, Quit


def session(players: int = 1, seed: int = 5, rules: str = "classic") -> Table:
    """A table as ``canasta --players N --seed S --level beginner`` sets it up."""
    r = load_rules(rules)
    return Table(r, seats_for(players, "beginner")[: r.players], seed)


def client(t: Table) -> Controller:
    """This terminal's client of ``t`` (its local seats)."""
    return Controller(local_link(t))


def render(ctl: Controller, width: int, height: int, opts: Options | None = None) -> Canvas:
    """The screen as the app paints it: the client's snapshot, drawn with the screen's cache."""
    return ctl.paint(width, height, opts or DEFAULT_OPTIONS)


def next_key(ctl: Controller) -> str | None:
    """The key a simple human would press now (None: nothing for a human to do)."""
    d = ctl.client.dialog
    if d is not None:
        return {Answer: "n", PileChoice: "1", Quit: "n"}.get(type(d), "enter")
    if ctl.message:
        return "x"
    if not ctl.client.my_turn():
        return None
    lit = ctl.client.lit()
    if lit["draw"]:
        return "d"
    if lit["pile"]:
        return "p"
    if lit["end"]:
        return "e"
    if ctl.client.view().phase == Phase.MELD and lit["meld"] and _meldable_three(ctl):
        return "3"
    return "c"


def _meldable_three(ctl: Controller) -> bool:
    hand = ctl.client.hand()
    if not hand:
        return False
    from canasta_tui.engine import actions as A
    from canasta_tui.engine.cards import RANK_OF
    r = RANK_OF[hand[ctl.client.cursor]]
    v = ctl.client.view()
    # Only once the side has opened: a lone meld of three rarely meets the initial requirement.
    return r not in (2, 3, 14) and v.meld_needed == 0 and A.meld(r, r, r) in v.legal


def drive(ctl: Controller, until: Callable[[Controller], bool], steps: int = 2000, table: Table | None = None) -> None:
    """Play (simple human keys, the computers' choices) until ``until(ctl)`` holds."""
    t = table if table is not None else ctl.client.link._table
    for _ in range(steps):
        if until(ctl):
            return
        k = next_key(ctl)
        if k is None:
            if not t.step():
                raise AssertionError("nobody can move")
        else:
            ctl.key(k)
    raise AssertionError("never got there")


def table_of(ctl: Controller) -> Table:
    """The table a test's client plays at (tests may look at the whole game; a client may not)."""
    t = ctl.client.link._table
    assert isinstance(t, Table)
    return t


GOLDEN = __import__("pathlib").Path(__file__).parent / "golden"


def check_golden(name: str, text: str) -> None:
    """``text`` is the golden screen ``tests/ui/golden/NAME``.  ``UPDATE_GOLDEN=1`` writes it after
    a deliberate change (review the diff); a missing golden fails, it is never made up."""
    import os

    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8")
    assert path.exists(), f"no golden screen {path}: run with UPDATE_GOLDEN=1 and review it"
    assert text + "\n" == path.read_text(encoding="utf-8")


def stacked(rules: str, mine: str, seed: int = 3, upcard: str = "") -> Table:
    """A table of ``rules`` whose first hand deals Player 1 (the person, seat 0) the cards
    ``mine`` (``"Jh Qh Kh"``), the rest shuffled with ``seed``; Player 4 deals, Player 1 plays first.
    With ``upcard`` (``"9d"``) that card is turned up after the deal."""
    import random

    from canasta_tui.engine.cards import parse_card
    from canasta_tui.engine.match import new_match
    from canasta_tui.engine.moves import _SORTED_DECKS

    r = load_rules(rules)
    rest = list(_SORTED_DECKS[r.packs])
    random.Random(seed).shuffle(rest)
    want = [int(parse_card(c)) for c in mine.split()]
    for c in want:
        rest.remove(c)
    fixed = {i * r.players: c for i, c in enumerate(want)}     # the deal goes round from Player 1
    if upcard:
        up = int(parse_card(upcard))
        rest.remove(up)
        fixed[r.hand_size * r.players] = up
    left = iter(rest)
    deck = [fixed[p] if p in fixed else next(left) for p in range(len(rest) + len(fixed))]
    return Table(r, seats_for(1, "beginner")[: r.players], seed,
                 match=new_match(r, deck, first_dealer=r.players - 1))


def select_cards(ctl: Controller, text: str) -> None:
    """Select the cards ``text`` (``"Jh Qh"``) of the hand by keys, as a person does: Home, then
    Right to each card and Space (a card named twice: two cards of it)."""
    from canasta_tui.engine.cards import parse_card

    ctl.key("n")
    taken: list[int] = []
    for word in text.split():
        c = int(parse_card(word))
        i = next(i for i, x in enumerate(ctl.client.hand()) if x == c and i not in taken)
        taken.append(i)
        ctl.key("home")
        for _ in range(i):
            ctl.key("right")
        ctl.key("space")
    assert ctl.client.selected == set(taken)
