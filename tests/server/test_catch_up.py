"""After a restart, a returning player's "While you were away" starts where their screen stopped
(the table's save remembers how far each person saw), not at the deal: nobody reads again the
moves they watched live."""

from __future__ import annotations

from canasta_tui.persistence import paths
from canasta_tui.persistence.saves import read_record

from .helpers import Term, fingerprint_of, run, serving, settle, two_at_a_table


def bar(screen: str) -> str:
    return screen.split("\n")[-1]


def catch_up(screen: str) -> list[str]:
    """The lines of the "While you were away" box on ``screen``."""
    lines = screen.split("\n")
    top = next(i for i, line in enumerate(lines) if "While you were away:" in line)
    left = lines[top].index("While you were away:") - 2
    right = lines[top].index("│", left + 1)
    out = []
    for line in lines[top + 1:]:
        text = line[left + 1:right].strip()
        if text == "(press any key)":
            return out
        if text:
            out.append(text)
    raise AssertionError(f"the box has no end:\n{screen}")


def test_after_a_restart_each_player_catches_up_only_on_what_they_did_not_see() -> None:
    async def main() -> None:
        async with serving(takeover=60) as srv:
            alice, bob = await two_at_a_table(srv)
            # A round that both see: alice, Player 2, bob, Player 4.
            await alice.press("d", "Dis[c]ard")
            alice.send("c")
            await bob.wait_for(lambda s: "[D]raw" in bar(s))
            await bob.press("d", "Dis[c]ard")
            bob.send("c")
            await alice.wait_for(lambda s: "[D]raw" in bar(s))
            # bob's connection drops; alice and Player 2 play on, then the table waits for bob's seat.
            await bob.close()
            await alice.press("d", "Dis[c]ard")
            alice.send("c")
            await alice.wait_for("bob is up")
            st = srv.registry.tables[1]
            assert st.table is not None
            alice_saw = len(st.table.events)
            bob_saw = st.left_at[f"key:{fingerprint_of('bob')}"]
            assert 0 < bob_saw < alice_saw
            await settle(srv, lambda: srv.store.flush(0.1))
        await alice.wait_closed()
        saved = read_record(paths.data_dir() / "server" / "tables" / "1.json").meta["server"]
        async with serving(takeover=60) as srv:
            bob = await Term.connect(srv.port, "bob")
            screen = await bob.wait_for("While you were away:")
            # Only alice's second turn and Player 2's: not the round bob watched.
            away = catch_up(screen)
            assert [line.split(",")[0] for line in away] == ["alice drew", "Player 2 drew"], screen
            alice = await Term.connect(srv.port, "alice")
            screen = await alice.wait_for("Your hand (11 cards)")
            assert "While you were away" not in screen         # she saw every move
            for t in (alice, bob):
                await t.close()
        # How far each saw, by hand: the table's events are numbered afresh when it comes back.
        assert saved.get("seen") == {f"key:{fingerprint_of('alice')}": [1, alice_saw],
                                     f"key:{fingerprint_of('bob')}": [1, bob_saw]}
    run(main())


def test_how_far_somebody_saw_is_kept_by_hand_and_read_back_against_fewer_events() -> None:
    from canasta_tui.server.tables.server_table import seen_from, seen_index, seen_position
    from canasta_tui.table.events import DEALT, DREW, Event

    def hand(h: int, n: int, start: int = 0) -> list[Event]:
        return [Event(start + i + 1, h, DEALT if i == 0 else DREW, 0) for i in range(n)]

    live = hand(1, 5) + hand(2, 3, 5)             # a table that played on from hand 1
    assert [seen_position(live, n) for n in (0, 4, 5, 6, 8, 99)] == [(1, 0), (1, 4), (1, 5), (2, 1), (2, 3), (2, 3)]
    back = hand(2, 3)                             # the same table restarted: hand 2's events only
    assert seen_index(back, 2, 1) == 1
    assert seen_index(back, 1, 5) == 0            # the end of hand 1 was all they saw: hand 2 is news
    assert seen_index(back, 2, 99) == 3
    # What a save says is read only for the seats' players, and only as [hand, count].
    assert seen_from({"ann": [2, 2], "bob": [2, "x"], "eve": [2, 1], "cat": [True, 1]}, back,
                      {"ann", "bob", "cat"}) == {"ann": 2}
    assert seen_from(["ann"], back, {"ann"}) == {}
