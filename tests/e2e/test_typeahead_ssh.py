"""Over SSH, keys sent in one burst with the lobby's key that starts the table (a person typing
fast) act at the table that opens: before, they went to the lobby, which was done."""

from __future__ import annotations

import re

from tests.server.helpers import Term, create_table, run, serving

RIGHT = "\x1b[C"


def cursor_card(screen: str) -> int:
    """Which card of the hand (0 is the first) the cursor ▲ is under (-1: none yet, mid-paint)."""
    lines = screen.splitlines()
    below = next((i for i, line in enumerate(lines) if "▲" in line), 0)
    cards = [m.start() for m in re.finditer(r"\S+", lines[below - 1])] if below else []
    at = lines[below].index("▲") if below else -1
    return cards.index(at) if at in cards else -1


def test_keys_typed_with_the_lobbys_start_reach_the_table() -> None:
    async def main() -> int:
        async with serving() as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            await create_table(alice)
            alice.send("s" + RIGHT + RIGHT)          # start the match, and the cursor two cards on
            screen = await alice.wait_for(lambda s: "Your hand (11 cards)" in s and cursor_card(s) == 2)
            await alice.close()
            return cursor_card(screen)
    assert run(main()) == 2
