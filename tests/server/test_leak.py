"""No client ever receives a byte of another seat's hidden cards (issue 11, "Security").

Every byte the server sends to each connection during a seeded hand is recorded, as it is
sent, and fed to a terminal emulator of that connection's own.  After each piece, every card
on that terminal's screen is checked against what its seat could know at that moment: its own
hand, and every card that has been public in this hand (melded, in the pile, laid out, known
to be in a hand because it was taken from the pile).  Cards of a rank and suit come in two
copies, so the check counts: a screen may show a card as many times as the seat can know of
it.  The check stops when the hand is over (the scoring summary then shows every hand).
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from typing import Any

import pyte

from canasta_tui.engine import Phase, card_text
from canasta_tui.server.person import PersonId
from canasta_tui.table import Table
from canasta_tui.table.events import describe
from canasta_tui.ui.render import table_layout

from .helpers import ESC, Term, create_table, drive, fingerprint_of, run, serving

CARD = re.compile(r"(10|[2-9AJQK])([♣♦♥♠])|\bJK\b")


def cards_in(lines: list[str]) -> Counter[str]:
    """The card labels in some lines of text ("K♥", "10♠", "JK"), with how often each shows."""
    out: Counter[str] = Counter()
    for line in lines:
        for m in CARD.finditer(line):
            out[m.group(0)] += 1
    return out


def split_screen(screen: pyte.Screen) -> tuple[list[str], list[str]]:
    """An 80x24 table screen as (the table: quadrants, centre, hand; the log: the centre's moves
    below its "─ log ─" line and the line under the table).  The log repeats cards the table
    shows, so the two are counted apart."""
    layout = table_layout(80, 24)
    c = layout.centre
    lines = list(screen.display)
    log: list[str] = [lines[layout.log_row]]
    table: list[str] = [line for y, line in enumerate(lines) if y != layout.log_row]
    top = next((y for y in range(c.y, c.y + c.h) if "─ log ─" in lines[y][c.x:c.x + c.w]), None)
    if top is not None:
        for y in range(top + 1, c.y + c.h):
            log.append(lines[y][c.x:c.x + c.w])
            table[y if y < layout.log_row else y - 1] = lines[y][:c.x] + " " * c.w + lines[y][c.x + c.w:]
    return table, log


def label(c: int) -> str:
    return card_text(c, True)


def public_cards(t: Table) -> Counter[str]:
    s = t.state
    out: Counter[str] = Counter()
    for row in s.melds:
        for m in row:
            if m is not None:
                out.update(label(c) for c in (*m.naturals, *m.wilds))
    out.update(label(c) for c in s.pile)
    out.update(label(c) for c in s.aside)
    for p in range(s.rules.players):
        out.update(label(c) for c in s.red_threes[p])
        out.update(label(c) for c in s.known[p])
    return out


class Watcher:
    """Checks every piece of output as it is sent, against what its seat may know then."""

    def __init__(self) -> None:
        self.table: Table | None = None
        self.screens: dict[str, pyte.Screen] = {}
        self.streams: dict[str, pyte.Stream] = {}
        self.seen_public: Counter[str] = Counter()      # the most of each card public at once, so far
        self.over = False
        self.checked = 0
        self.cards_seen = 0
        self.leaks: list[str] = []

    def output(self, session: Any, text: str) -> None:
        who = session.identity.name
        if who not in self.screens:
            self.screens[who] = pyte.Screen(80, 24)
            self.streams[who] = pyte.Stream(self.screens[who])
        self.streams[who].feed(text)
        t = self.table
        if t is None or self.over:
            return
        if t.state.phase == Phase.HAND_OVER or t.match.hand_number > 1:
            self.over = True
            return
        self.check(who, t)

    def knowable(self, who: str, t: Table) -> Counter[str]:
        pub = public_cards(t)
        for k, n in pub.items():
            self.seen_public[k] = max(self.seen_public[k], n)
        may = Counter(self.seen_public)
        seats = [i for i, seat in enumerate(t.seats) if seat.name == who]
        if seats:
            may.update(label(c) for c in t.state.hands[seats[0]])
        return may

    def check(self, who: str, t: Table) -> None:
        table, log = split_screen(self.screens[who])
        shown = cards_in(table)
        may = self.knowable(who, t)
        # The log may name only cards that public events of this hand named, as often as they did.
        told = cards_in([describe(e) for e in t.events if e.hand == t.match.hand_number])
        self.checked += 1
        self.cards_seen += sum(shown.values())
        for what, counted, allowed in (("saw", shown, may), ("read in the log", cards_in(log), told)):
            for k, n in counted.items():
                if n > allowed[k]:
                    self.leaks.append(f"{who} {what} {k} {n} times but may know it {allowed[k]} times "
                                      f"(turn {t.state.turn_number}): " + " | ".join(self.screens[who].display))


def test_no_byte_of_a_hidden_hand_reaches_another_client() -> None:
    watcher = Watcher()

    async def main() -> None:
        async with serving(on_output=watcher.output, seed=7) as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            await create_table(alice)
            bob = await Term.connect(srv.port, "bob")
            await bob.wait_for("alice starts it")
            await bob.press("4", "4  bob✓ (you)")
            carol = await Term.connect(srv.port, "carol")
            await carol.wait_for("alice starts it")
            st = srv.registry.tables[1]
            await alice.press("s", "CANASTA — classic rules — hand 1")
            assert st.table is not None
            watcher.table = st.table
            await bob.wait_for("hand 1")
            await carol.press("w", "(no hand shown)")
            # Issue 18: the online list and invitations are screens too.  dave, in the lobby, gets an
            # invitation to the running table (a box) and keeps the online list open; carol, watching,
            # gets one over the table she watches.  Every byte they are sent is checked as the others'.
            dave = await Term.connect(srv.port, "dave")
            await dave.wait_for("hand 1")
            inviter = srv.registry.clients[PersonId.parse(f"key:{fingerprint_of('alice')}")]
            assert srv.registry.invitations.invite(inviter, PersonId.parse(f"key:{fingerprint_of('dave')}"), 1) is None
            await dave.wait_for("alice invites you to table 1")
            await dave.press(ESC, lambda s: "Invitation" not in s)
            await dave.press("p", "table 1")
            assert srv.registry.invitations.invite(inviter, PersonId.parse(f"key:{fingerprint_of('carol')}"), 1) is None
            await carol.wait_for("alice invites you to table 1")
            checked = watcher.checked

            def over(screen: str) -> bool:
                return " is over " in screen or "hand 2" in screen.split("\n")[0]
            await asyncio.gather(drive(alice, over), drive(bob, over))
            assert "carol" in watcher.screens and "dave" in watcher.screens and watcher.checked > checked
            for t in (alice, bob, carol, dave):
                await t.close()
    run(main(), timeout=180)
    assert watcher.over, "the hand never ended"
    assert watcher.checked > 100 and watcher.cards_seen > 1000      # the check looked at real screens
    assert watcher.leaks == []


def test_the_check_catches_a_hidden_card_on_a_screen() -> None:
    """The watcher itself: a screen showing a card of another seat's hand is a leak."""
    from canasta_tui.presets import load_rules
    from canasta_tui.table import REMOTE, Seat, seats_for

    t = Table(load_rules("classic"), [Seat(REMOTE, "alice"), *seats_for(0)[1:]], 3)
    watcher = Watcher()
    watcher.table = t

    class Session:
        class identity:      # the shape of the server's session
            name = "alice"

    mine = Counter(label(c) for c in t.state.hands[0])
    hidden = next(label(c) for c in t.state.hands[1] if mine[label(c)] == 0 and public_cards(t)[label(c)] == 0)
    watcher.output(Session(), "Your hand: " + " ".join(label(c) for c in t.state.hands[0]))
    assert watcher.leaks == []
    watcher.output(Session(), "\r\n" + hidden)
    assert len(watcher.leaks) == 1 and f"alice saw {hidden} 1 times but may know it 0 times" in watcher.leaks[0]
