"""Issue 19 over SSH: a Samba table made in the lobby's form deals fifteen cards each, and a
person at 80x24 melds a sequence by keys, which the quadrant shows in suit order.

The person's keys are an Advanced computer player's choices from the seat's own view, typed as a
person types them (``tests/ui/keys_for.py``), the hand read from the terminal's screen."""

from __future__ import annotations

import asyncio

from canasta_tui.ai import make_player
from canasta_tui.engine import Phase
from canasta_tui.engine.cards import card_text
from tests.ui.keys_for import hand_on_screen, hand_order, keys_for

from .helpers import ENTER, WAIT, Term, run, serving, table_key

#: Keys as a terminal sends them.
BYTES = {"home": "\x1b[H", "right": "\x1b[C", "space": " ", "enter": ENTER}


def test_a_samba_table_deals_fifteen_and_a_sequence_melded_by_keys_shows_in_the_quadrant() -> None:
    async def main() -> None:
        async with serving(seed=2) as srv:             # a deal whose first turn holds a run
            ann = await Term.connect(srv.port, "ann")
            await ann.wait_for("No tables yet")
            await ann.press("n", "New table")
            for _ in range(12):                           # Left/Right change the rules preset
                before = ann.text()
                if "Rules:     < samba >" in before:
                    break
                await ann.press("\x1b[C", lambda s, before=before: s != before)
            form = ann.text()
            assert "Rules:     < samba >" in form and "Play to:   < 10,000 >" in form   # "game to 10,000"
            await ann.press(ENTER, "is yours")
            screen = await ann.press("s", "CANASTA — samba rules — hand 1")
            screen = await ann.wait_for("Your hand (15 cards)")          # "15 cards each"
            assert all(len(line) <= 80 for line in screen.splitlines()) and len(screen.splitlines()) <= 24
            table = srv.registry.tables[1].table
            assert table.rules.name == "samba" and len(table.state.deck) == 162
            person = make_player("advanced", 3)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 90
            while loop.time() < deadline:
                st = table.state
                seqs = [m for m in st.melds[0] if m is not None and m.is_sequence]
                if seqs:
                    break
                screen = ann.text()
                shown = hand_on_screen(screen)
                order = hand_order(shown, st.hands[0]) if shown is not None else None
                if st.actor == 0 and st.phase not in (Phase.HAND_OVER, Phase.PERMISSION) and order is not None \
                        and "May I go out" not in screen:
                    v = table.view(0)
                    keys = keys_for(person.choose(v), order, v)
                    if keys:
                        ann.send("".join(BYTES.get(k, k) for k in keys))
                        await asyncio.sleep(0.05)
                        continue
                key = table_key(screen)
                if key is not None and st.actor != 0:
                    ann.send(key)
                await asyncio.sleep(0.05)
            else:
                raise AssertionError(f"no sequence melded; the screen shows:\n{ann.text()}")
            # The quadrant draws the sequence in suit order, lowest card first.
            m = seqs[0]
            cards = " ".join(card_text(c, symbols=True) for c in m.naturals)
            short = f"{card_text(m.naturals[0], symbols=True)}-{card_text(m.naturals[-1], symbols=True)}"
            screen = await ann.wait_for(lambda s: cards in s or short in s, timeout=WAIT)
            assert any(f"ann melded {cards}" in line for _, line in table.log_lines())   # by ann's keys
            assert m.naturals == tuple(sorted(m.naturals, key=lambda c: (c >> 2) if c >> 2 != 1 else 14))
            await ann.close()
    run(main())
