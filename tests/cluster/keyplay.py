"""A person playing a seat of a cluster's table by keys, quickly and well enough to finish a match:
what to play is chosen by an advanced computer from the seat's own view as its front receives it
(the seat's subject on the bus, which the test reads as any node may), and played by the keys a
person would press at their terminal (cursor, Space, m, 1, w, p, d, c, e), each move once the
screen shows the view it was chosen from.  Nothing reaches the table but those keys.

And a reader of every message of a room on the bus (``BusLog``): the raw NATS subjects ``>``,
kept whole, for the leak test and for the seats' views."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from server.helpers import ENTER, Term

from canasta_tui.ai import make_player
from canasta_tui.engine import PUBLIC, Phase, PlayerView
from canasta_tui.engine import actions as A
from canasta_tui.engine.cards import IS_WILD, RANK_OF
from canasta_tui.server.cluster import wire as W
from canasta_tui.ui.canvas import card_label
from canasta_tui.ui.style import UNICODE
from canasta_tui.ui.texts import sort_hand

HOME, RIGHT = "\x1b[H", "\x1b[C"
CARD = re.compile(r"(?:10|[A2-9JQK])[♣♦♥♠]|JK")
#: The key that names a meld's rank in the wild card's question (``ui/dialogs.py``'s RANK_KEYS).
RANK_KEY = {1: "a", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "0", 11: "j", 12: "q", 13: "k"}
#: What the computer is not asked to choose: asking the partner (a question to answer), undoing.
NOT_CHOSEN = {A.ASK, A.UNDO, A.UNPILE, A.JOIN}
#: A move whose frame has not come this long after its keys is chosen again.
STALL = 8.0


@dataclass
class Heard:
    subject: str
    data: dict[str, Any]
    #: A request's reply subject (the asking node's inbox); an answer's request, when it is one.
    reply: str = ""
    request: Heard | None = None


@dataclass
class BusLog:
    """Every message of one room on the bus, as a spy subscribed to ``>`` hears it."""

    room: str
    heard: list[Heard] = field(default_factory=list)
    others: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    #: Per seat: the latest view its own subject carried (seat -> (frame number, view)).
    views: dict[int, tuple[int, PlayerView]] = field(default_factory=dict)
    public: dict[str, Any] = field(default_factory=dict)
    #: The requests of this room by their reply subject: an answer there is this room's, to its asker.
    asked: dict[str, Heard] = field(default_factory=dict)

    def ours(self, subject: str) -> bool:
        return (subject.startswith(f"canasta.{self.room}.") or f"canasta_{self.room}_" in subject
                or subject in self.asked)

    async def on(self, msg: Any) -> None:
        import json

        if not self.ours(msg.subject):
            self.others += 1
            return
        try:
            data = json.loads(msg.data) if msg.data else {}
        except ValueError:
            data = {"(not json)": msg.data.decode("utf-8", "replace")}
        subject = msg.subject.removeprefix(f"canasta.{self.room}.")
        heard = Heard(subject, data if isinstance(data, dict) else {"(value)": data}, msg.reply or "",
                      self.asked.pop(msg.subject, None))
        self.heard.append(heard)
        if msg.reply and subject.startswith(("table.", "owner.")):
            self.asked[msg.reply] = heard
        parts = subject.split(".")
        if len(parts) == 5 and parts[0] == "table" and parts[2] == "seat" and isinstance(data, dict):
            seat = int(parts[3])
            n = int(data["n"])
            if n > self.views.get(seat, (-1, None))[0]:
                self.views[seat] = (n, W.view_from_wire(data["me"], seat))
        elif len(parts) == 3 and parts[0] == "table" and parts[2] == "public" and isinstance(data, dict):
            if int(data["n"]) >= int(self.public.get("n", -1)):
                self.public = data
        self.changed.set()

    def winner(self) -> int | None:
        state = self.public.get("state") or {}
        w = state.get("winner")
        return int(w) if w is not None else None

    def public_view(self) -> PlayerView | None:
        state = self.public.get("state")
        return W.view_from_wire(state["view"], PUBLIC) if state else None

    async def news(self, timeout: float) -> None:
        """Wait (at most ``timeout``) for the next message."""
        self.changed.clear()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.changed.wait(), timeout)


def labels(cards: list[int]) -> list[str]:
    return [card_label(c, UNICODE) for c in cards]


def hand_shown(screen: str) -> tuple[int, list[str]] | None:
    """The hand under the table as the screen shows it: (its count, the labels in view)."""
    lines = screen.split("\n")
    at = next((i for i, line in enumerate(lines) if "Your hand (" in line), None)
    if at is None:
        return None
    m = re.search(r"Your hand \((\d+) cards?\)", lines[at])
    if m is None:
        return None
    # (a selected card stands a row higher: both rows, by column)
    found = sorted((x.start(), x.group(0)) for line in lines[at + 1:at + 3] for x in CARD.finditer(line))
    return int(m.group(1)), [label for _, label in found]


def shows(screen: str, v: PlayerView) -> bool:
    """Does the screen show ``v``: the seat's turn at its step (Draw lit only to draw) and its hand
    (the count, and the cards in view in their order)?"""
    if ("[D]raw" in screen.split("\n")[-1]) != (A.A_DRAW in v.legal):
        return False
    got = hand_shown(screen)
    if got is None:
        return False
    count, seen = got
    want = labels(sort_hand(v.hand))
    if count != len(want) or not seen:
        return False
    return any(want[i:i + len(seen)] == seen for i in range(len(want) - len(seen) + 1))


def keys_for(a: A.Action, v: PlayerView) -> str:
    """The keys a person presses at the table to play ``a`` from ``v`` (nothing selected, the hand
    in the table's own order)."""
    hand = sort_hand(v.hand)

    def at(i: int) -> str:
        return HOME + RIGHT * i

    def index(rank: int, used: set[int]) -> int:
        i = next(i for i, c in enumerate(hand) if i not in used and
                 (RANK_OF[c] == rank or (rank == 2 and IS_WILD[c] and RANK_OF[c] == 2)))
        used.add(i)
        return i

    if a.kind == A.DRAW:
        return "d"
    if a.kind == A.END:
        return "e"
    if a.kind == A.DISCARD:
        return at(hand.index(a.card)) + "c"
    if a.kind == A.PILE:
        options = [x for x in v.legal if x.kind == A.PILE]
        return "p" if len(options) == 1 else "p" + str(options.index(a) + 1)
    if a.kind == A.MELD:
        used: set[int] = set()
        return "".join(at(index(r, used)) + " " for r in a.ranks) + "m"
    if a.kind == A.ADD:
        i = index(a.ranks[0], set())
        if IS_WILD[hand[i]]:
            return at(i) + "w" + RANK_KEY[a.target]
        return at(i) + "1"
    raise AssertionError(f"no keys for {a}")


async def play_seat(t: Term, seat: int, bus: BusLog, over: Callable[[], bool], *, seed: int,
                    timeout: float = 400.0, moves: list[str] | None = None) -> None:
    """Play ``seat`` at ``t``'s terminal by keys until ``over()``: the advanced computer chooses
    from the seat's view, the keys play it once the screen shows that view; a hand's end is
    acknowledged with Enter, a line the server showed closed with a key."""
    brain = make_player("advanced", seed)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    played, since = -1, loop.time()
    while not over():
        if loop.time() > deadline:
            raise AssertionError(f"seat {seat} never finished the match; its screen:\n{t.text()}")
        screen = t.text()
        got = bus.views.get(seat)
        if "(press any key)" in screen:
            t.send("x")
        elif got is not None and got[1].phase == Phase.HAND_OVER:
            if "Enter: next hand" in screen or "Enter: continue" in screen or (
                    " is over " in screen.split("\n")[0] and "Hand " in screen.split("\n")[0]):
                t.send(ENTER)
        elif got is not None and got[0] != played and got[1].actor == seat and got[1].legal \
                and shows(screen, got[1]):
            n, v = got
            choice = brain.choose(v._replace(legal=tuple(a for a in v.legal if a.kind not in NOT_CHOSEN)))
            if moves is not None:
                moves.append(f"{seat}: {choice}")
            played, since = n, loop.time()
            t.send(keys_for(choice, v))
        elif got is not None and got[0] == played and loop.time() - since > STALL:
            # The move changed nothing the seat's subject carried (refused, or its keys were read
            # before the screen had the view): choose again from the screen as it is now.
            if moves is not None:
                moves.append(f"{seat}: stalled; the screen shows:\n{screen}")
            played = -1
        await bus.news(0.2)
