"""A front's presence alone, as a process of its own for ``test_presence.py`` to kill with -9:
``python presence_proc.py NATS_URL ROOM FRONT EXPIRE REFRESH NAME...`` writes each NAME online at
FRONT (their keys ``key:SHA256:<NAME>…``) until it is killed, and says ``ready`` once written."""

from __future__ import annotations

import asyncio
import sys

from canasta_tui.server.cluster.bus import Bus
from canasta_tui.server.cluster.presence import Here, Presence


async def main(url: str, room: str, front: str, expire: float, refresh: float, names: list[str]) -> None:
    bus = await Bus.connect(url, room=room, name=front)
    presence = await Presence.open(bus, front, expire=expire, refresh=refresh)
    people = [Here(f"key:SHA256:{n:A<43}", n, True, None, False, front) for n in names]
    presence.start(lambda: people)
    presence.changed()
    while len(presence._mine) < len(people):
        await asyncio.sleep(0.01)
    print("ready", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    url, room, front, expire, refresh, *names = sys.argv[1:]
    asyncio.run(main(url, room, front, float(expire), float(refresh), names))
