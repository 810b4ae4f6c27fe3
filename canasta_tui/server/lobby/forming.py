"""Tables not started yet outlast a restart: their seats, options and creator are kept in one small
file, ``tables/forming.json``, written by the table store's thread (:mod:`.store`) whenever they
change, and brought back at start.

:class:`FormingTables` is held by the registry (``registry.forming``); everything here runs on the
event loop's thread.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ...engine import Rules
from ...lobbyview import TableState
from ...text import printable, span
from ..config import ServerConfig
from ..door.names import skeleton
from ..person import PersonId, person_text
from ..tables.store import TableStore
from .connected import Client

log = logging.getLogger("canasta.server")


@dataclass
class Claim:
    """A human's claim of a seat before the table starts (or of a computer's seat, until the deal)."""

    person: PersonId
    name: str


class FormingTable(Protocol):
    """A table as the forming tables' file keeps it (a ``tables.ServerTable``)."""

    @property
    def id(self) -> int: ...

    @property
    def rules(self) -> Rules: ...

    @property
    def level(self) -> str: ...

    @property
    def creator(self) -> PersonId | None: ...

    @property
    def seed(self) -> int | None: ...

    @property
    def rated(self) -> bool: ...

    @property
    def turn_timer(self) -> float: ...

    @property
    def state(self) -> TableState: ...

    @property
    def claims(self) -> Sequence[Claim | None]: ...

    @property
    def touched(self) -> float: ...

    def private_data(self) -> dict[str, Any]: ...


class Host(Protocol):
    """The registry as the forming tables see it (a ``registry.Registry``)."""

    @property
    def closing(self) -> bool: ...

    @property
    def config(self) -> ServerConfig: ...

    @property
    def store(self) -> TableStore: ...

    @property
    def tables(self) -> Mapping[int, FormingTable]: ...

    def bring_back(self, table_id: int, rules: Rules, level: str, creator: PersonId, seed: int | None, rated: bool,
                   turn_timer: float, claims: list[Claim | None], private: Mapping[str, object], kept_until: float,
                   age: float = 0.0) -> None: ...


class FormingTables:
    """The registry's forming tables as the table store keeps them."""

    def __init__(self, registry: Host) -> None:
        self.registry = registry
        #: The forming tables as last written (none: no file is written until there are some).
        self._kept = _forming_text([])

    def data(self) -> list[dict[str, Any]]:
        """The tables not started yet, as the store keeps them: seats, options, creator."""
        reg = self.registry
        # When its seats last changed, in seconds since the epoch (whole ones: the file is written only
        # when it changes), so that a restart does not make an old table young again.
        since = time.time() - time.monotonic()
        return [{"id": st.id, "rules": st.rules.to_dict(), "level": st.level, "creator": person_text(st.creator),
                 "seed": st.seed, "rated": st.rated, "turn_timer": st.turn_timer, **st.private_data(),
                 "changed": round(since + st.touched),
                 "claims": [[str(c.person), c.name] if c is not None else None for c in st.claims]}
                for st in reg.tables.values() if st.state == TableState.FORMING]

    def keep(self) -> None:
        """Write the forming tables when they changed (off the loop, by the store's thread)."""
        if self.registry.closing:
            return
        data = self.data()
        text = _forming_text(data)
        if text != self._kept:
            self._kept = text
            self.registry.store.save_forming(text if data else "")

    def forget(self) -> None:
        """The forming tables shown now are taken as written (those gone were another owner's to
        keep): nothing is written until they change."""
        self._kept = _forming_text(self.data())

    def restore(self, data: object, taken: bool = False) -> None:
        """Bring back the forming tables an earlier run kept; their people have until the forming
        timeout (counted from now) to come back, each finding their seat claimed (``data``: what
        :meth:`TableStore.load_forming <.store.TableStore.load_forming>` read).  ``taken``: they
        are a dead owner's, whose people are connected still (guests too)."""
        from ...ai import ALL_LEVELS
        from ...engine import RulesError, rules_from_dict

        reg = self.registry
        if data is not None:
            self._kept = ""        # (the file is written again at the next change)
        items = data.get("forming") if isinstance(data, dict) else None
        if not isinstance(items, list):
            return
        keep = reg.config.forming_timeout or 3600.0
        for item in items:
            try:
                if not isinstance(item, dict):
                    raise ValueError("not a table")
                table_id = item.get("id")
                if not isinstance(table_id, int) or isinstance(table_id, bool) or table_id < 1 or table_id in reg.tables:
                    raise ValueError(f"a bad or taken number {table_id!r}")
                rules_data = item.get("rules")
                if not isinstance(rules_data, dict):
                    raise ValueError("no rules")
                rules = rules_from_dict(rules_data)
                level = saved_text(item.get("level"))
                level = level if level in ALL_LEVELS else "advanced"
                seed = item.get("seed")
                seed = seed if isinstance(seed, int) and not isinstance(seed, bool) else None
                timer = item.get("turn_timer")
                timer = float(timer) if isinstance(timer, int | float) and not isinstance(timer, bool) and timer > 0 else 0.0
                claims: list[Claim | None] = []
                for c in saved_column(item.get("claims"), rules.players):
                    ok = isinstance(c, list) and len(c) == 2 and all(isinstance(x, str) and x for x in c)
                    person = saved_person(c[0]) if ok and isinstance(c, list) else None
                    claims.append(Claim(person, printable(c[1])[:20]) if person is not None and isinstance(c, list)
                                  else None)
                if all(c is None for c in claims):
                    continue
                if not taken and all(c is None or c.person.is_guest for c in claims):
                    # (a guest is their connection: none of them can come back to claim a seat)
                    log.info("table %d was not brought back: it had not started, and only guests sat there", table_id)
                    continue
                changed = item.get("changed")
                age = 0.0
                if isinstance(changed, int | float) and not isinstance(changed, bool):
                    age = max(0.0, time.time() - float(changed))
                if reg.config.forming_timeout and age >= reg.config.forming_timeout:
                    log.info("table %d was not brought back: it had not started %s after its seats last changed",
                             table_id, span(age))
                    continue
                creator = saved_person(saved_text(item.get("creator")))
                if creator is None or creator not in {c.person for c in claims if c is not None}:
                    creator = next(c.person for c in claims if c is not None)
                reg.bring_back(table_id, rules, level, creator, seed, item.get("rated") is True, timer, claims, item,
                               time.monotonic() + max(0.0, keep - age), age)
                log.info("table %d is %s, not started: %s", table_id, "taken over" if taken else "back",
                         ", ".join(printable(c.name) for c in claims if c is not None))
            except (ValueError, RulesError, TypeError) as exc:
                log.warning("a table not started could not be brought back (%s)", printable(str(exc)))


def tell_left(clients: Mapping[PersonId, Client], st: FormingTable, name: str, creator_before: PersonId | None,
              why: str) -> None:
    """``name`` left the forming table ``st`` (``why``, in a few words after "left table N"): everybody
    still there (their inviter among them) hears it, and, when the creator's role passed to
    another, who starts the table now (they first of all)."""
    starts = next((c.name for c in st.claims if c is not None and c.person == st.creator), "")
    passed = bool(starts) and st.creator != creator_before
    text = f"{printable(name)} left table {st.id}{why}"
    creator = {st.creator} if st.creator is not None else set()
    for key in {c.person for c in st.claims if c is not None} | creator:
        who = clients.get(key)
        if who is None:
            continue
        if passed:
            who.notify(text + ("; you start it now (s)" if key == st.creator else f"; {printable(starts)} starts it now"))
        else:
            who.notify(text)


def _forming_text(data: list[dict[str, Any]]) -> str:
    return json.dumps({"forming": data}, ensure_ascii=False, sort_keys=True)


def saved_person(saved: str) -> PersonId | None:
    """A seat's person as a save records it, in today's terms (None: nobody, or not a person):
    ``key:…`` and ``guest:…`` as they are; ``name SHA256:…`` (an older server's key mode) the key;
    a name alone a legacy seat."""
    if not saved:
        return None
    person = PersonId.read(saved)
    if person is not None:
        return person
    name, _, fp = saved.rpartition(" ")
    if name and fp.startswith("SHA256:"):
        return PersonId.read(f"key:{fp}")
    if saved.startswith(("key:", "guest:", "computer:", "legacy:")):
        return None           # (a damaged one: its seat waits for nobody)
    return PersonId.read(f"legacy:{skeleton(saved)}")


def saved_column(value: object, n: int) -> list[object]:
    return list(value) if isinstance(value, list) and len(value) == n else [None] * n


def saved_text(value: object) -> str:
    return value if isinstance(value, str) else ""


__all__ = ["Claim", "FormingTable", "FormingTables", "Host", "saved_column", "saved_person", "saved_text", "tell_left"]
