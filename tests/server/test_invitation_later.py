"""One invitation box, over the lobby and over a watched table alike, with one meaning for each key
(the issue "What players, a club and the test suite still trip on", section 4: the table's box
declined on Esc where the lobby's put the invitation off): y accepts, n declines, and Esc puts it
off: it stays open, and the lobby shows it again, where y answers it.  Each person has their own key.
"""

from __future__ import annotations

from canasta_tui.server.person import PersonId

from .helpers import ENTER, ESC, Term, create_table, fingerprint_of, run, serving


def key(name: str) -> PersonId:
    return PersonId.parse(f"key:{fingerprint_of(name)}")


def test_esc_over_a_watched_table_puts_the_invitation_off_and_the_lobby_shows_it_again() -> None:
    """carol watches table 1; dave invites her to table 2.  Esc over her table closes the box and
    answers nothing (the invitation is still open, dave is told nothing); back in the lobby the box
    is there again, and n declines it."""
    async def main() -> None:
        async with serving() as srv:
            reg = srv.registry
            ann = await Term.connect(srv.port, "ann")
            await ann.wait_for("No tables yet")
            await create_table(ann)
            await ann.press("s", "hand 1")
            carol = await Term.connect(srv.port, "carol")
            await carol.wait_for("hand 1")
            await carol.press("w", "(no hand shown)")
            dave = await Term.connect(srv.port, "dave")
            await dave.wait_for("hand 1")
            await create_table(dave)
            assert reg.invitations.invite(reg.clients[key("dave")], key("carol"), 2) is None
            text = await carol.wait_for("dave invites you to table 2")
            assert "n: decline    Esc: later (y in the lobby answers it)" in text
            text = await carol.press(ESC, "The invitation waits in the lobby: y there answers it")
            assert "dave invites you" not in text
            (still,) = reg.invitations.invitations_for(key("carol"))    # put off, not declined
            assert still.table_id == 2
            await carol.press(ENTER, lambda s: "The invitation waits" not in s)      # (the line, read)
            await carol.press("q", "y: leave")
            await carol.press("y", "dave invites you to table 2")         # the lobby shows it again
            await carol.press("n", "You declined dave's invitation")
            assert not reg.invitations.invitations_for(key("carol"))
            await dave.wait_for("carol declined your invitation to table 2")
            for t in (ann, carol, dave):
                await t.close()
    run(main(), timeout=120)
