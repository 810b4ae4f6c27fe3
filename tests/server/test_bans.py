"""The admins' bans page over real SSH (the issue: "the target is checked only after 'Are you
sure?'; there is no list of bans and no unban; fingerprints never show on screen, so banning
someone offline needs the server log; a banned key holder comes straight back in as a guest with
the password").  An admin lists the bans (who, key, addresses, until, by whom), lifts one, and
bans a person picked from who is online or the recent visitors (key and last address shown); the
ban keeps the key out, and guests from the addresses that person used, for its time (the admin
is told so); the target is checked before "Are you sure?"; the store is written off the loop."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import asyncssh

from canasta_tui.lobbyview import AdminAct
from canasta_tui.server.club.admin import Admin, Bans
from canasta_tui.server.club.people import Ban, StoreError
from canasta_tui.server.door.auth import Identity
from canasta_tui.server.lobby.service import RegistryLobby
from canasta_tui.server.person import PersonId

from .helpers import DOWN, ENTER, WAIT, Term, fingerprint_of, key_of, run, serving, settle
from .test_tables import Person, registry


async def kept_out(port: int, name: str, says: str, *, guest: bool = False, **options: Any) -> None:
    """``name`` (with their key, or a guest) cannot get in: the server says ``says``."""
    if guest:
        options.setdefault("password", "guest")
    options["client_keys"] = None if guest else [key_of(name)]
    try:
        conn = await asyncio.wait_for(asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None,
                                                       agent_path=None, **options), WAIT)
    except (asyncssh.Error, OSError) as exc:
        assert says in str(exc), str(exc)
        return
    t = Term(conn, await conn.create_process(term_type="xterm", term_size=(80, 24)))
    try:
        await t.wait_closed()
    finally:
        conn.close()
    flat = " ".join(t.received().split())
    assert says in flat or says in " ".join(t.text().split()), t.text()


def boxed(screen: str) -> str:
    """The words inside the box on the screen (its wrapped lines joined)."""
    inside = [line[line.index("│") + 1:line.rindex("│")] for line in screen.split("\n") if line.count("│") >= 2]
    return " ".join(" ".join(inside).split())


def test_an_admin_bans_a_recent_visitor_from_the_list_guests_from_their_address_too_and_lifts_it() -> None:
    alice_fp, eve_fp = fingerprint_of("alice"), fingerprint_of("eve")

    async def main() -> None:
        async with serving(admins=frozenset({alice_fp})) as srv:
            writes: list[str] = []
            people = srv.registry.people
            store_ban, store_unban = people.ban, people.unban

            def ban(b: Ban) -> None:
                writes.append(threading.current_thread().name)
                store_ban(b)

            def unban(target: str) -> bool:
                writes.append(threading.current_thread().name)
                return store_unban(target)
            people.ban, people.unban = ban, unban          # type: ignore[method-assign]
            # eve came from 127.0.0.2, and left: she is a recent visitor, not online.
            eve = await Term.connect(srv.port, "eve", local_addr=("127.0.0.2", 0))
            await eve.wait_for("No tables yet")
            await eve.close()
            await settle(srv, lambda: PersonId.parse(f"key:{eve_fp}") not in srv.registry.clients)
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            screen = await alice.press("a", "5  the bans")
            screen = await alice.press("5", "Nobody is banned.")
            # Whom to ban: alice online, then eve, with her last address; the chosen one's key in full.
            screen = await alice.press("b", "Ban whom?")
            rows = [line for line in screen.split("\n") if "│ > alice " in line or "│   eve " in line]
            assert "online" in rows[0] and "127.0.0.2" in rows[1], rows
            screen = await alice.press(DOWN, f"key {eve_fp}")
            await alice.press(ENTER, "Ban eve: hours, then why: ")
            alice.send("24 spam in the chat")
            screen = await alice.press(ENTER, "Are you sure?")
            flat = boxed(screen)
            assert f"Ban eve (key {eve_fp}) for 24 hours? Guests from 127.0.0.2 are kept out as long." in flat, flat
            screen = await alice.press("y", "is banned until")
            told = " ".join(screen.split())
            assert f"eve (key {eve_fp}) is banned until " in told, told
            assert "; guests from 127.0.0.2 are kept out until then too" in told, told
            # The key is kept out; guests from her address too; a guest from elsewhere and others come in.
            await kept_out(srv.port, "eve", "Your key is banned from this server until")
            await kept_out(srv.port, "eve", "Guests from your address are kept out of this server until", guest=True,
                           local_addr=("127.0.0.2", 0))
            gus = await Term.connect(srv.port, "gus", guest=True, local_addr=("127.0.0.3", 0))
            await gus.wait_for("No tables yet")
            await gus.close()
            # The list: who, key, the addresses, until, by whom, why.
            screen = await alice.press("a", "5  the bans")
            screen = await alice.press("5", "Bans")
            flat = screen.replace("│", " ")
            assert "> eve until " in flat and ", by alice: spam in the chat" in flat, flat
            assert f"key {eve_fp}" in flat and "guests kept out from 127.0.0.2" in flat
            # Kept by the store, written off the event loop.
            srv.admin.bans.flush()
            kept = people.bans(time.time())
            assert [(b.target, b.name, b.addresses) for b in kept] == [(f"key:{eve_fp}", "eve", ("127.0.0.2",))]
            # Lifted: asked first, then she and guests from her address come in again.
            screen = await alice.press("l", "Are you sure?")
            assert f"Lift the ban of eve (key {eve_fp}) (and of guests from 127.0.0.2), until" in boxed(screen)
            await alice.press("y", lambda s: f"The ban of eve (key {eve_fp}) is lifted: they may come in again"
                              in " ".join(s.split()))
            eve = await Term.connect(srv.port, "eve", local_addr=("127.0.0.2", 0))
            await eve.wait_for("No tables yet")
            gus = await Term.connect(srv.port, "gus", guest=True, local_addr=("127.0.0.2", 0))
            await gus.wait_for("No tables yet")
            srv.admin.bans.flush()
            assert people.bans(time.time()) == []
            assert writes and "MainThread" not in writes and all(w.startswith("canasta-bans") for w in writes), writes
            for t in (alice, eve, gus):
                await t.close()
    run(main(), timeout=180)


def test_the_target_is_checked_before_are_you_sure() -> None:
    async def main() -> None:
        async with serving(admins=frozenset({fingerprint_of("alice")})) as srv:
            alice = await Term.connect(srv.port, "alice")
            await alice.wait_for("No tables yet")
            await alice.press("a", "4  ban")
            alice.send("4")
            await alice.press("nobody 24 spam" + ENTER, "is neither a key's fingerprint")
            assert "Are you sure?" not in alice.text()
            await alice.press("a", "4  ban")
            alice.send("4")
            await alice.press("alice 24 oops" + ENTER, "You cannot ban your own key")
            assert "Are you sure?" not in alice.text()
            await alice.press("a", "2  close")
            alice.send("2")
            await alice.press("\x7f\x7f\x7f9 late" + ENTER, "There is no table 9")
            assert "Are you sure?" not in alice.text() and not srv.admin.bans.in_force()
            await alice.close()
    run(main())


def test_with_the_password_a_banned_person_cannot_come_back_as_a_guest_and_a_store_failure_is_told() -> None:
    """The issue: "a banned key holder comes straight back in as a guest with the password"."""
    alice_fp, eve_fp = fingerprint_of("alice"), fingerprint_of("eve")

    async def main() -> None:
        async with serving(admins=frozenset({alice_fp}), open=False, password="pw") as srv:
            people = srv.registry.people

            def failing(ban: Ban) -> None:
                raise StoreError("people.sqlite: disk I/O error")
            people.ban = failing                          # type: ignore[method-assign]
            eve = await Term.connect(srv.port, "eve", password="pw", local_addr=("127.0.0.4", 0))
            await eve.wait_for("No tables yet")
            alice = await Term.connect(srv.port, "alice", password="pw")
            await alice.wait_for("2 online")
            # Typed by name: she is online; the question says what it will do.
            await alice.press("a", "4  ban")
            alice.send("4")
            screen = await alice.press("eve 2 spam" + ENTER, "Are you sure?")
            assert f"Ban eve (key {eve_fp}) for 2 hours? Guests from 127.0.0.4 are kept out as long." in boxed(screen)
            # The store failed: the ban holds (in memory) and the admin is told so.
            await alice.press("y", lambda s: "The ban of eve could not be kept (the server's store failed): it holds "
                                             "until the server restarts" in " ".join(s.split()))
            await eve.wait_closed()
            await kept_out(srv.port, "eve", "Guests from your address are kept out of this server until", guest=True,
                           password="pw", local_addr=("127.0.0.4", 0))
            await kept_out(srv.port, "eve", "Your key is banned from this server until", password="pw")
            other = await Term.connect(srv.port, "gus", guest=True, password="pw", local_addr=("127.0.0.5", 0))
            await other.wait_for("No tables yet")
            for t in (alice, other):
                await t.close()
    run(main(), timeout=180)


EVE = "SHA256:" + "E" * 43


def test_a_person_not_online_is_banned_by_name_from_the_recent_visitors_and_the_ban_is_lifted(tmp_path: Path) -> None:
    """Banning somebody offline needed the server log: the recent visitors know their key and addresses."""
    async def main() -> None:
        async with registry(tmp_path, admins=frozenset({"SHA256:boss"})) as reg:
            admin = Admin(reg, Bans(reg.people))
            boss, eve = Person("boss"), Person("eve")
            eve.identity = Identity("eve", EVE)
            boss.address = "10.0.0.1"
            reg.connect(boss)
            admin.bans.visited(eve.identity, "10.0.0.8")
            admin.bans.visited(eve.identity, "10.0.0.9")            # her last address first
            lobby = RegistryLobby(reg, boss, admin)
            assert lobby.admin_ask(AdminAct.BAN, "eve", "3 cheating") == (
                None, f"Ban eve (key {EVE}) for 3 hours? Guests from 10.0.0.9 and 10.0.0.8 are kept out as long.")
            assert lobby.admin(AdminAct.BAN, "eve", "3 cheating").endswith(
                "; guests from 10.0.0.9 and 10.0.0.8 are kept out until then too")
            assert admin.bans.key(EVE) is not None and admin.bans.guest("10.0.0.8") is not None
            assert admin.bans.guest("10.0.0.7") is None and admin.bans.address("10.0.0.8") is None
            [row] = lobby.bans()
            assert (row.who, row.fingerprint, row.addresses, row.by, row.reason) == (
                "eve", EVE, ("10.0.0.9", "10.0.0.8"), "an admin", "cheating")
            # Refused before "Are you sure?": nobody known, one's own address, a ban not in force.
            assert lobby.admin_ask(AdminAct.BAN, "zed", "3")[0] == ("'zed' is neither a key's fingerprint (SHA256:…) "
                                                                   "nor an IP address")
            assert lobby.admin_ask(AdminAct.BAN, "10.0.0.1", "3")[0] == "10.0.0.1 is your own address: you would be kept out too"
            assert lobby.admin_ask(AdminAct.LIFT, "10.0.0.8", "")[0] == "10.0.0.8 is not banned"
            assert lobby.admin_ask(AdminAct.LIFT, row.target, "") == (
                None, f"Lift the ban of eve (key {EVE}) (and of guests from 10.0.0.9 and 10.0.0.8), until "
                      f"{row.until}?")
            assert lobby.admin(AdminAct.LIFT, "eve", "") == f"The ban of eve (key {EVE}) is lifted: they may come in again"
            assert admin.bans.guest("10.0.0.8") is None and lobby.bans() == ()
            # Online, picked from the online list (by key): her address there is the newest.
            eve.address = "10.0.0.10"
            reg.connect(eve)
            admin.bans.visited(eve.identity, eve.address)
            assert lobby.admin_ask(AdminAct.BAN, str(eve.identity.person), "1") == (None, (
                f"Ban eve (key {EVE}) for 1 hour? Guests from 10.0.0.10, 10.0.0.9 and 10.0.0.8 are kept out as long."))
            gus = Person("gus")
            gus.identity, gus.address = Identity("gus", guest="G" * 16), "10.0.0.11"
            reg.connect(gus)
            assert lobby.admin_ask(AdminAct.BAN, str(gus.identity.person), "1") == (
                None, "Ban ~gus's address 10.0.0.11 (everybody connecting from it) for 1 hour?")
            # Nobody but an admin sees the bans or the visitors.
            assert RegistryLobby(reg, eve, admin).bans() == () and RegistryLobby(reg, eve, admin).visitors() == ()
            admin.bans.flush()
            assert reg.people.bans(time.time()) == []
            admin.bans.close()
    run(main())
