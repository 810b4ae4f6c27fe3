"""What the server keeps for people, over real SSH: a person's options follow their key to the
table; the lobby's last chat lines and a reserved name outlast a restart."""

from __future__ import annotations

import asyncssh

from canasta_tui.server.auth import Identity
from canasta_tui.server.people import PersonOptions

from .helpers import ENTER, Term, create_table, fingerprint_of, run, serving
from .test_identity import said

SUITS = "♠♥♦♣"


def hand_rows(screen: str) -> str:
    lines = screen.split("\n")
    start = next(i for i, line in enumerate(lines) if "Your hand" in line)
    return "\n".join(lines[start:start + 4])


def test_a_persons_kept_options_follow_their_key_to_the_table() -> None:
    async def main() -> None:
        async with serving() as srv:
            reg = srv.registry
            alice = f"key:{fingerprint_of('alice')}"
            reg.people.set_options(alice, PersonOptions(sort="suit", deck="ascii", bell_turn=True))
            a = await Term.connect(srv.port, "alice")
            await a.wait_for("No tables yet")
            await create_table(a)
            b = await Term.connect(srv.port, "bob")
            await b.press("3", "3  bob✓ (you)")
            await a.press("s", "Your hand (11 cards)")
            screen_b = await b.wait_for("Your hand (11 cards)")
            # alice's cards are drawn with letters (her option), bob's with suit symbols (the default).
            assert not any(s in hand_rows(a.text()) for s in SUITS)
            assert any(s in hand_rows(screen_b) for s in SUITS)
            apps = {s.identity.name: s.app for s in srv.sessions}
            ctl_a, ctl_b = apps["alice"].screen, apps["bob"].screen          # type: ignore[union-attr]
            assert (ctl_a.sort, ctl_a.bells) == ("suit", {"turn"})           # type: ignore[union-attr]
            assert (ctl_b.sort, ctl_b.bells) == ("rank", set())              # type: ignore[union-attr]
            # A guest keeps no options.
            assert reg.set_person_options(Identity("gus", guest="x"), PersonOptions()) is not None
            for t in (a, b):
                await t.close()
    run(main(), timeout=120)


def test_the_lobbys_last_chat_lines_and_the_names_outlast_a_restart() -> None:
    async def main() -> None:
        async with serving() as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            await alice.press("c", "Say: _")
            alice.send("thursday at eight?")
            await alice.press(ENTER, "alice✓: thursday at eight?")
            await alice.close()
        async with serving() as srv:
            bob = await Term.connect(srv.port, "bob")
            await bob.wait_for("alice✓: thursday at eight?")
            impostor = await Term.connect(srv.port, "alice", client_keys=[asyncssh.generate_private_key("ssh-ed25519")])
            await impostor.wait_for(said("reserved by another person's key"))
            await bob.close()
    run(main(), timeout=120)
