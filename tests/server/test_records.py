"""What the server keeps for people, over real SSH: a person's options follow their key to the
table; the lobby's last chat lines and a reserved name outlast a restart."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncssh
import pytest

from canasta_tui.presets import load_rules
from canasta_tui.server import ConfigError
from canasta_tui.server.club.people import PersonOptions
from canasta_tui.server.door.auth import Gate, Identity
from canasta_tui.server.person import PersonId, Refusal

from .helpers import ENTER, Term, config, create_table, fingerprint_of, run, serving
from .test_identity import said
from .test_tables import Person, registry

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
            reg.people.set_options(PersonId.parse(alice), PersonOptions(sort="suit", deck="ascii", bell_turn=True))
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
            assert (ctl_a.client.sort, ctl_a.client.bells) == ("suit", {"turn"})  # type: ignore[union-attr]
            assert (ctl_b.client.sort, ctl_b.client.bells) == ("rank", set())   # type: ignore[union-attr]
            # A guest keeps no options.
            assert reg.club.set_person_options(Identity("gus", guest="x"), PersonOptions()) == Refusal(
                "A guest's options are not kept: connect with your SSH key to keep them")
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


def test_a_rated_table_is_still_rated_after_a_restart(tmp_path: Path) -> None:
    async def main() -> int:
        async with registry(tmp_path) as reg:
            ann = Person("ann")
            reg.connect(ann)
            st = reg.create(ann, load_rules("classic"), "beginner", rated=True)
            plain = reg.create(Person("bob"), load_rules("classic"), "beginner")
            reg.start(ann, st.id)
            assert st.rated and not plain.rated
            reg.store.flush()
        async with registry(tmp_path) as reg:
            reg.restore(*reg.store.load())
            assert reg.tables[st.id].rated
        return st.id
    run(main())


def test_login_attempts_set_when_an_address_is_locked_out() -> None:
    gate = Gate(config(open=False, password="pw", login_attempts=2))
    gate.throttle.failed("address 10.0.0.1")
    assert gate.throttle.wait("address 10.0.0.1") is not None
    gate.throttle.failed("address 10.0.0.1")
    assert gate.throttle.wait("address 10.0.0.1") is None              # locked after 2 wrong ones
    assert Gate(config(open=False, password="pw")).throttle.LOCK_AFTER == 10


def test_a_store_that_cannot_be_used_stops_the_server_with_the_reason() -> None:
    from canasta_tui.persistence import paths

    path = paths.server_dir() / "people.sqlite"
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 99")

    async def main() -> None:
        with pytest.raises(ConfigError, match="newer than this program knows"):
            async with serving():
                pass
    run(main())
