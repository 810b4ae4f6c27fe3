"""A person's own record over real SSH: their matches and statistics (i), the leaderboard (l),
their options (o), and the replay of a finished match, which shows the same hands and scores
as the match did.  A replay of a match that is still played is refused (the leak rule: no
card hidden at the time is shown to anyone while the match runs)."""

from __future__ import annotations

import asyncio
import re

from canasta_tui.engine import deal
from canasta_tui.server.club.people import PersonOptions
from canasta_tui.server.club.records import STILL_PLAYED
from canasta_tui.server.person import PersonId
from canasta_tui.server.tables.server_table import OVER, PLAYING
from canasta_tui.ui.canvas import card_label
from canasta_tui.ui.style import UNICODE
from canasta_tui.ui.texts import sort_hand

from .helpers import DOWN, ENTER, Term, create_table, fingerprint_of, run, serving, settle

NAMES = ("alice", "bob", "carol", "dave")
CARD = re.compile(r"(?:10|[A2-9JQK])[♣♦♥♠]|JK")


def cards_in(line: str) -> list[str]:
    return CARD.findall(line)


def hand_cards(screen: str, who: str = "Your hand") -> list[str]:
    """The cards of the hand drawn under the table (its first row of cards)."""
    lines = screen.split("\n")
    at = next(i for i, line in enumerate(lines) if who in line)
    return next(cards_in(line) for line in lines[at + 1:] if cards_in(line))


def test_a_finished_match_replays_with_the_same_hands_and_scores_and_a_running_one_is_refused() -> None:
    async def main() -> None:
        async with serving(takeover=0) as srv:
            registry = srv.registry
            terms = [await Term.connect(srv.port, n) for n in NAMES]
            await terms[0].wait_for("No tables yet")
            await create_table(terms[0], level_steps=-1)              # beginner computers
            st = registry.tables[1]
            st.rules = st.rules.replace(target_score=1)               # one hand is the match
            for t, seat in zip(terms[1:], "234", strict=True):
                await t.press(seat, f"{seat}  {NAMES[int(seat) - 1]}✓ (you)")
            await terms[0].press("s", "hand 1")
            dealt = []
            for t in terms:
                dealt.append(hand_cards(await t.wait_for("Your hand (11 cards)")))
            # While the match runs nobody gets its replay: not from the lobby, not by its file.
            alice = terms[0]
            await alice.press("q", "Leave the table?")
            await alice.press("y", "Tables")
            await alice.press("v", "still being played")
            assert "REPLAY" not in alice.text()
            assert st.state == PLAYING
            app = next(s.app for s in srv.sessions if s.identity.name == "alice")
            assert app is not None
            assert app.records.table_replay(1) == "Table 1 is still being played: its replay opens when the match is over"
            from canasta_tui.server.club.records import open_record
            assert open_record(app, str(registry.store.path(1)), "t") == STILL_PLAYED
            # Computers play the match out for everybody; alice watches.
            for t in terms[1:]:
                await t.press("q", "Leave the table?")
                await t.press("y", "Tables")
            await alice.press("w", "hand 1")
            await settle(srv, lambda: st.state == OVER, timeout=120)
            for f in list(registry.club.results):
                await asyncio.wrap_future(f)
            assert st.table is not None
            match = st.table.match
            scores = match.scores
            # The finished table, still in the lobby (alice watches it), opens its replay there.
            bob = terms[1]
            screen = await bob.press("v", "REPLAY")
            assert "REPLAY — table 1 — hand 1 of 1, move 0 of" in screen
            await bob.press("\x1b[F", lambda s: "move 0 of" not in s)
            assert f"1&3: {scores[0]}   2&4: {scores[1]}" in bob.line(0)
            await bob.press("q", "Tables")
            await alice.press("q", lambda s: "Tables" in s or "Leave the table?" in s)
            if "Leave the table?" in alice.text():
                await alice.press("y", "Tables")
            # Her record: the match, then its replay, opened from the history.
            screen = await alice.press("i", "Your record")
            assert "No rated match yet" in screen and ("won" in screen or "lost" in screen) and "classic" in screen
            screen = await alice.press(ENTER, "REPLAY")
            assert "hand 1 of 1, move 0 of" in screen
            # The deal: each seat's hand as that player saw it at the table.
            assert hand_cards(screen, "alice's hand") == dealt[0]
            for seat in (1, 2, 3):
                screen = await alice.press(str(seat + 1), f"{NAMES[seat]}'s hand")
                assert hand_cards(screen, f"{NAMES[seat]}'s hand") == dealt[seat], NAMES[seat]
            # Every hand at once, as the engine dealt them.
            screen = await alice.press("a", "melds:")
            first = deal(match.rules, match.decks[0], match.first_dealer, (0, 0))
            for seat in range(4):
                want = [card_label(c, UNICODE) for c in sort_hand(first.hands[seat])]
                row = next(line for line in screen.split("\n") if f" {seat + 1} {NAMES[seat]}" in line)
                assert cards_in(row) == want[: len(cards_in(row))] and cards_in(row), NAMES[seat]
            # The end: the match's score.
            screen = await alice.press("\x1b[F", lambda s: "move 0 of" not in s)          # End
            assert f"1&3: {scores[0]}   2&4: {scores[1]}" in screen.split("\n")[0]
            # Back out: the record, the statistics (as the local screen draws them), the leaderboard.
            await alice.press("q", "Your record")
            screen = await alice.press("s", "Win ratio")
            assert re.search(r"carol +partner ", screen) and re.search(r"classic +rules ", screen)
            assert "High scores" in screen
            await alice.press("q", "Your record")
            screen = await alice.press("l", "Leaderboard")
            assert "What a rating means" in screen and "openskill" in screen
            await alice.press("q", "Your record")
            await alice.press("q", "Tables")
            for t in terms:
                await t.close()
    run(main(), timeout=300)


def test_options_over_ssh_apply_at_once_and_are_kept_for_the_key_not_for_a_guest() -> None:
    async def main() -> None:
        async with serving() as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            assert "alice ✓" in alice.line(0)
            screen = await alice.press("o", "Card faces")
            assert "kept for your key on this server" in screen
            alice.send(DOWN)                                  # Four-colour deck, then Card faces
            await alice.press(ENTER, "Saved: Card faces = ascii")
            # At once: the verified mark is drawn in ASCII.
            await alice.press("q", "Tables")
            assert "alice +" in alice.line(0)
            key = f"key:{fingerprint_of('alice')}"
            assert srv.registry.people.options_of(PersonId.parse(key)) == PersonOptions(deck="ascii")
            # ... and at every table: her hand is drawn with letters.
            await create_table(alice)
            screen = await alice.press("s", "Your hand (11 cards)")
            assert not any(s in screen for s in "♠♥♦♣")
            # At the table, i and o open the same pages.
            await alice.press("o", "Hand order")
            alice.send(DOWN)
            alice.send(DOWN)
            await alice.press(ENTER, "Saved: Hand order = suit")
            app = next(s.app for s in srv.sessions if s.identity.name == "alice")
            assert app is not None and app.screen.client.sort == "suit"   # type: ignore[union-attr]
            await alice.press("q", "Your hand")
            await alice.press("i", "Your record")
            await alice.press("q", "Your hand")
            # A guest's options are for the visit only.
            gus = await Term.connect(srv.port, "gus", guest=True)
            await gus.wait_for("Tables")
            screen = await gus.press("o", "Card faces")
            assert "a guest's options last until you leave" in screen
            gus.send(DOWN)
            await gus.press(ENTER, "Card faces = ascii")
            await gus.press("q", "Tables")
            assert "~gus" in gus.line(0) and "✓" not in gus.line(0)
            await alice.close()
            await gus.close()
    run(main(), timeout=180)
