"""The coach over real SSH (issue 20: "h at the local table and at unrated server tables, never at
rated ones"): at an unrated table h puts the Expert's hint on the hint line, thought off the event
loop (another person's lobby answers meanwhile); at a rated table h says no and gives nothing."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from canasta_tui.server.door import client as client_module
from canasta_tui.ui import coaching

from .helpers import Term, create_table, drive, run, serving

YOUR_TURN = "Your turn: d draws from the stock"  # then what the pile allows


async def start_alone(t: Term) -> None:
    """``t`` creates a table (computers at the other seats) and starts it."""
    await create_table(t)
    await t.press("s", "hand 1")


def test_h_gives_a_hint_at_an_unrated_table_and_nothing_at_a_rated_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # The Expert's hint thinks until bob's key has been answered: the loop served him while it
    # thought (computers in threads here, so that the test can hold the thinking; no clock decides).
    bob_answered = threading.Event()
    real_hint = coaching.hint

    def held_hint(*args: Any, **kwargs: Any) -> Any:
        assert bob_answered.wait(60), "bob's lobby was not answered while the Expert thought"
        return real_hint(*args, **kwargs)
    monkeypatch.setattr(coaching, "hint", held_hint)

    async def main() -> None:
        async with serving(computer_processes=False) as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            await start_alone(alice)
            assert not srv.registry.tables[1].rated
            await alice.wait_for(YOUR_TURN, timeout=60)
            bob = await Term.connect(srv.port, "bob")
            await bob.wait_for("Tables")
            alice.send("h")
            await alice.wait_for("Thinking…")
            await bob.press("?", "Help")             # while the Expert thinks, the loop serves everybody
            bob_answered.set()
            screen = await alice.wait_for(lambda s: s.split("\n")[22].strip().startswith(
                ("Draw from the stock: ", "Take the pile")), timeout=30)
            line = screen.split("\n")[22].strip()
            assert ": " in line and len(line) <= 80
            await bob.press("q", "Tables")

            # bob's table is rated: h says so, and no hint comes.
            await create_table(bob)
            st = srv.registry.tables[2]
            st.rated = True                     # (as test_ratings: the lobby's form is another's work)
            await bob.press("s", "hand 1")
            await bob.wait_for(YOUR_TURN, timeout=60)
            screen = await bob.press("h", "No hints at a rated table")
            assert screen.split("\n")[22].startswith(YOUR_TURN) or "No hints at a rated table" in screen
            assert st.table is not None
            for t in (alice, bob):
                await t.close()
    run(main(), timeout=180)


def test_the_review_of_a_hand_at_an_unrated_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """Review each hand, set on the Options page over SSH (the person's option, kept by their key),
    shows after the hand the review of this person's decisions, at 80x24; Enter goes on to the score.

    The review thinks four times as long as a move (issue 33), counted in work, in the server's
    computer workers, which give way to everything else on the machine (they run at the lowest
    priority): on a test machine busy with other work a search may get a hundredth of a core.  Here
    the smallest budget keeps it within the wait (the review's strength is tests/ai's)."""
    from canasta_tui.ui import coaching

    monkeypatch.setattr(coaching, "REVIEW_BUDGET", 0.01)

    async def main() -> None:
        async with serving() as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            await create_table(alice)
            st = srv.registry.tables[1]
            st.rules = st.rules.replace(target_score=1)           # one hand is the match
            await alice.press("s", "hand 1")
            await alice.press("o", "Options")
            await alice.press("\x1b[A", "> Review each hand         off")      # Up: round to the last line
            await alice.press("\x1b[C", "Saved: Review each hand = on")
            await alice.press("q", "Your hand")
            assert [c.kept.review for c in srv.registry.clients.values()] == [True]  # type: ignore[attr-defined]

            def reviewed(screen: str) -> bool:
                return "Review of the hand: alice" in screen

            screen = await drive(alice, reviewed, timeout=150)
            screen = await alice.wait_for(lambda s: "Reviewing the hand" not in s and reviewed(s), timeout=120)
            lines = screen.split("\n")
            assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
            assert "well played" in screen or " your turn " in screen
            assert "Enter: the score sheet" in lines[-1]
            await alice.press("\r", "Score sheet")
            await alice.close()
    run(main(), timeout=330)



def test_hints_are_bounded_per_person(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each hint is a search in the workers every table's computers share, and new positions come
    as fast as keys do: a person gets HINTS_PER_MINUTE of them, then is told when the next comes."""
    monkeypatch.setattr(client_module, "HINTS_PER_MINUTE", 1)

    async def main() -> None:
        async with serving() as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            await start_alone(alice)
            await alice.wait_for(YOUR_TURN, timeout=60)
            alice.send("h")
            await alice.wait_for(lambda s: s.split("\n")[22].strip().startswith(("Draw from the stock: ", "Take the pile")),
                                 timeout=30)
            alice.send("d")                      # a new position: the hint line is for the last one
            await alice.wait_for(lambda s: not s.split("\n")[22].strip().startswith(("Draw from", "Take the pile")))
            screen = await alice.press("h", "Hints: at most 1 a minute; the next one in")
            assert "Thinking" not in screen.split("\n")[22]
            await alice.close()
    run(main(), timeout=120)
