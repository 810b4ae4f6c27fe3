"""Nothing about an unlisted or private table reaches a person it was not shown to (the issue
"What players, a club and the test suite still trip on", section 2), path by path, over real SSH:
the lobby's list, the online list (where each person is, and the game their rating is at), a
finished match's replay (``v``), and the histories and leaderboard of those who did not play it.

A private table is one created "by invitation only" or "with a code"; it may be unlisted ("Listed:
no: only to its people") and unwatched ("Watchers: not allowed").  Each person has their own key.
"""

from __future__ import annotations

import re

from canasta_tui.presets import preset_names
from canasta_tui.server.tables.server_table import OVER

from .helpers import DOWN, ENTER, Term, fingerprint_of, run, serving, settle

RIGHT = "\x1b[C"


async def private_table(t: Term, *, listed: bool, watched: bool, rules_steps: int = 0) -> str:
    """``t`` creates a table by invitation only (``listed``, ``watched`` as asked; the rules preset
    ``rules_steps`` along the form's list)."""
    await t.press("n", "New table")
    if rules_steps:
        t.send(RIGHT * rules_steps)
    keys = DOWN * 4 + RIGHT                         # Who sits: by invitation only
    keys += DOWN + ("" if listed else RIGHT)        # Listed
    keys += DOWN + ("" if watched else RIGHT)       # Watchers
    await t.press(keys, "Watchers:  < " + ("welcome" if watched else "not allowed"))
    return await t.press(ENTER, "is yours")


def test_the_online_list_does_not_tell_where_an_unlisted_table_is() -> None:
    """cy creates an unlisted table by invitation only, stands up and starts it (computers only, which
    cy watches).  bob's online list says cy is busy, never "watching 1" nor the table's number;
    cy's own list says where cy is."""
    async def main() -> None:
        async with serving() as srv:
            cy = await Term.connect(srv.port, "cy")
            await cy.wait_for("No tables yet")
            await private_table(cy, listed=False, watched=False)
            await cy.press("u", "You stood up")
            await cy.press("s", "hand 1")
            bob = await Term.connect(srv.port, "bob")
            await bob.wait_for("No tables yet")                  # the table is not in bob's lobby
            await settle(srv, lambda: any(w.identity.name == "cy" for w in srv.registry.tables[1].watchers))
            text = await bob.press("p", "Online")
            row = next(line for line in text.split("\n") if "cy✓" in line)
            assert re.search(r"cy✓ +busy ", row), row
            assert "watching" not in text and "table 1" not in text
            await bob.press("q", "Tables")
            for t in (cy, bob):
                await t.close()
    run(main(), timeout=120)


def test_the_online_list_does_not_tell_an_unlisted_tables_game_by_its_rating() -> None:
    """A person at a table is shown with their rating at its game (a Samba table: Samba).  At a table
    not shown to the person looking, their Canasta rating is shown instead: the Samba rating would
    tell of a Samba table somewhere.  carol's Samba rating is made to differ from her Canasta one."""
    async def main() -> None:
        async with serving() as srv:
            from canasta_tui.server.club.people import Game, Rating

            carol_key = f"key:{fingerprint_of('carol')}"
            store = srv.registry.people.store          # type: ignore[attr-defined]
            with store._writing() as db:
                db.execute("INSERT INTO ratings(entry, game, name, mu, sigma, matches, updated)"
                           " VALUES (?, ?, ?, ?, ?, ?, ?)", (carol_key, Game.SAMBA.value, "carol", 40.0, 2.0, 5, 0.0))
            assert Rating(carol_key, "carol", 40.0, 2.0).points == 1360
            carol = await Term.connect(srv.port, "carol")
            await carol.wait_for("No tables yet")
            presets = preset_names()
            await private_table(carol, listed=False, watched=True,
                                rules_steps=presets.index("samba") - presets.index("classic"))
            assert srv.registry.tables[1].rules.sequences          # a Samba table
            await carol.press("u", "You stood up")
            await carol.press("s", "hand 1")
            await settle(srv, lambda: any(w.identity.name == "carol" for w in srv.registry.tables[1].watchers))
            bob = await Term.connect(srv.port, "bob")
            await bob.wait_for("No tables yet")
            text = await bob.press("p", "Online")
            row = next(line for line in text.split("\n") if "carol✓" in line)
            assert re.search(r"carol✓ +busy +0 ", row), row
            assert "1360" not in text
            for t in (carol, bob):
                await t.close()
    run(main(), timeout=120)


def test_a_private_unwatched_tables_replay_is_its_players_not_a_strangers() -> None:
    """cy's table, by invitation only and not watched but listed, plays one hand of computers to the
    end (cy watches).  bob sees it in the lobby, over, and presses v: refused, no hand shown.  cy, who
    created it, may replay it."""
    async def main() -> None:
        async with serving() as srv:
            cy = await Term.connect(srv.port, "cy")
            await cy.wait_for("No tables yet")
            await private_table(cy, listed=True, watched=False)
            st = srv.registry.tables[1]
            st.rules = st.rules.replace(target_score=1)          # one hand is the match
            await cy.press("u", "You stood up")
            await cy.press("s", "hand 1")
            await settle(srv, lambda: st.state == OVER, timeout=120)
            bob = await Term.connect(srv.port, "bob")
            await bob.wait_for("over:")
            text = await bob.press("v", "its replay is its players'")
            assert "REPLAY" not in text
            assert "Table 1 was private: its replay is its players' (it is in their history)" in text
            # Its creator may: the same replay, asked by cy's connection (cy still watches the table).
            app = next(x.app for x in srv.sessions if x.identity.name == "cy")
            assert app is not None and not isinstance(app.records.table_replay(1), str)
            for t in (cy, bob):
                await t.close()
    run(main(), timeout=180)
