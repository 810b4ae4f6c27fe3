"""h at a rated table over real SSH answers every time it is pressed (issue "What players, a club
and the test suite still trip on", 1: "`h` at a rated table said nothing in one local run; it must
always answer"): the second h only closed the box the first one opened."""

from __future__ import annotations

from canasta_tui.server.door.client import SeatClient

from .helpers import Term, create_table, run, serving

REFUSAL = "No hints at a rated table"


def test_h_pressed_again_at_a_rated_table_still_answers() -> None:
    async def main() -> None:
        async with serving() as srv:
            ann = await Term.connect(srv.port, "ann")
            await ann.wait_for("No tables yet")
            await create_table(ann)
            srv.registry.tables[1].rated = True     # (as tests/server/test_coach.py does)
            await ann.press("s", "hand 1")
            await ann.wait_for("Your turn: d draws from the stock", timeout=60)
            await ann.press("h", REFUSAL)
            ann.send("h")
            # The second h answers too: the table's client holds the refusal after it (it held
            # nothing: the key only closed the first answer), and the screen shows it.
            await ann.wait_for(lambda s: table_client(srv).keys_handled >= 2, timeout=60)
            assert table_client(srv).message == ["No hints at a rated table: its matches count for the ratings"]
            await ann.wait_for(REFUSAL, timeout=60)
            await ann.close()

    def table_client(srv: object) -> SeatClient:
        clients = list(srv.registry.clients.values())  # type: ignore[attr-defined]
        shown = clients[0].shown
        assert isinstance(shown, SeatClient)
        return shown

    run(main(), timeout=180)
