"""The admins' actions (``server/club/admin.py``): a ban keeps a key or an address out at the door,
over real SSH, also after a restart; announcing, closing a table and removing a person; every
action logged with the admin's key, and refused to anybody who is not an admin."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import asyncssh
import pytest

from canasta_tui.presets import load_rules
from canasta_tui.server.club.admin import Admin, AdminRefused, Bans, ban_target
from canasta_tui.server.door.auth import Identity

from .helpers import Term, fingerprint_of, key_of, run, serving
from .test_tables import Person, registry


def admin_of(name: str) -> Identity:
    return Identity(name, fingerprint_of(name))


async def refused(port: int, name: str, says: str) -> None:
    """``name`` (with their key) cannot get in: the server says ``says``."""
    try:
        conn = await asyncio.wait_for(asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None,
                                                       client_keys=[key_of(name)], agent_path=None), 20)
    except (asyncssh.Error, OSError) as exc:
        assert says in str(exc), str(exc)
        return
    try:
        proc = await conn.create_process(term_type="xterm", term_size=(80, 24))
        await asyncio.wait_for(proc.wait_closed(), 20)
    except (asyncssh.Error, OSError) as exc:
        assert says in str(exc), str(exc)
        return
    finally:
        conn.close()
    raise AssertionError(f"{name} got in")


def test_a_banned_key_is_kept_out_at_the_door_also_after_a_restart(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="canasta.server")
    admins = frozenset({fingerprint_of("alice")})

    async def main() -> None:
        async with serving(admins=admins) as srv:
            eve = await Term.connect(srv.port, "eve")
            await eve.wait_for("No tables yet")
            with pytest.raises(AdminRefused, match="Only the server's admins"):
                srv.admin.ban(admin_of("bob"), fingerprint_of("eve"), 3600)
            ban = srv.admin.ban(admin_of("alice"), fingerprint_of("eve"), 3600, "spam in the chat")
            assert ban.target == f"key:{fingerprint_of('eve')}"
            await eve.wait_closed()                          # eve, connected, is put out at once, told why
            assert "Your key is banned from this server until" in eve.received()
            assert "(spam in the chat)" in eve.received()
            await refused(srv.port, "eve", "Your key is banned from this server")
            bob = await Term.connect(srv.port, "bob")         # everybody else still comes in
            await bob.wait_for("No tables yet")
            await bob.close()
        async with serving(admins=admins) as srv:            # a restart: the ban holds
            await refused(srv.port, "eve", "Your key is banned from this server")
            assert srv.admin.unban(admin_of("alice"), fingerprint_of("eve"))
            eve = await Term.connect(srv.port, "eve")
            await eve.wait_for("No tables yet")
            await eve.close()
    run(main(), timeout=120)
    log = caplog.text
    assert f"admin alice (key {fingerprint_of('alice')}) banned key:{fingerprint_of('eve')} until" in log
    assert f"the key {fingerprint_of('eve')} is banned until" in log
    assert "bob (key" in log and "tried to ban: not an admin, refused" in log


def test_a_banned_address_is_refused_before_it_logs_in_until_the_ban_is_lifted() -> None:
    async def main() -> None:
        async with serving(admins=frozenset({fingerprint_of("alice")})) as srv:
            bob = await Term.connect(srv.port, "bob")
            await bob.wait_for("No tables yet")
            srv.admin.ban(admin_of("alice"), "127.0.0.1", 600)
            await bob.wait_closed()
            await refused(srv.port, "carol", "Your address is banned from this server until")
        async with serving(admins=frozenset({fingerprint_of("alice")})) as srv:
            await refused(srv.port, "carol", "Your address is banned from this server until")
            srv.admin.unban(admin_of("alice"), "127.0.0.1")
            carol = await Term.connect(srv.port, "carol")
            await carol.wait_for("No tables yet")
            await carol.close()
    run(main(), timeout=120)


def test_a_ban_ends_by_itself(tmp_path: Path) -> None:
    async def main() -> None:
        async with registry(tmp_path, admins=frozenset({fingerprint_of("alice")})) as reg:
            now = [1000.0]
            bans = Bans(reg.people, clock=lambda: now[0])
            admin = Admin(reg, bans)
            admin.ban(admin_of("alice"), "10.0.0.9", 60)
            assert bans.address("10.0.0.9") is not None and bans.address("10.0.0.8") is None
            now[0] += 61
            assert bans.address("10.0.0.9") is None
            with pytest.raises(AdminRefused, match="from 1 second to 365 days"):
                admin.ban(admin_of("alice"), "10.0.0.9", 0)
            with pytest.raises(AdminRefused, match="cannot ban your own key"):
                admin.ban(admin_of("alice"), fingerprint_of("alice"), 60)
    run(main())
    with pytest.raises(AdminRefused, match="neither a key's fingerprint"):
        ban_target("eve")
    assert ban_target("::1") == "address:::/64" and ban_target("SHA256:" + "a" * 43) == "key:SHA256:" + "a" * 43


def test_announce_close_a_table_and_remove_a_person(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="canasta.server")
    boss = Identity("boss", "SHA256:" + "B" * 43)

    async def main() -> None:
        async with registry(tmp_path, admins=frozenset({boss.fingerprint})) as reg:
            admin = Admin(reg, Bans(reg.people))
            ann, bob, cy = Person("ann"), Person("bob"), Person("cy")
            for p in (ann, bob, cy):
                reg.connect(p)
            # An announcement reaches everybody, and the lobby's chat (kept across restarts).
            assert admin.announce(boss, "  the server\x1b[2J restarts at 10  ") == 3
            assert ann.notes[-1] == "Announcement: the server\\x1b[2J restarts at 10"
            assert reg.chat[-1].who == "Server" and reg.people.last_chat(1)[0].text.endswith("restarts at 10")
            with pytest.raises(AdminRefused):
                admin.announce(ann.identity, "I am the admin now")
            # Closing a table being played: it is set aside, whoever is at it goes back to the lobby.
            st = reg.create(ann, load_rules("classic"), "beginner")
            reg.start(ann, st.id)
            st.enter(ann, 0)
            st.watch(bob)
            forming = reg.create(cy, load_rules("classic"), "beginner")
            admin.close_table(boss, st.id, "too late")
            assert st.id not in reg.tables
            told = f"Table {st.id} was closed by an admin: too late; the server keeps its game"
            assert ann.sent_back == [told] and bob.sent_back == [told]
            admin.close_table(boss, forming.id)
            assert forming.id not in reg.tables and cy.notes[-1] == f"Table {forming.id} was closed by an admin"
            with pytest.raises(AdminRefused, match="There is no table 99"):
                admin.close_table(boss, 99)
            # Removing a person disconnects them, told why.
            assert admin.remove(boss, bob.identity.person, "rude")
            assert bob.kicked == "An admin removed you from this server: rude"
            assert not admin.remove(boss, "key:SHA256:nobody")
            await asyncio.sleep(0)
    run(main())
    assert "admin boss (key SHA256:BBB" in caplog.text and "closed table 1 (too late)" in caplog.text
    assert "removed bob (key SHA256:bob) (rude)" in caplog.text
