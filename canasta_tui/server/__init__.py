"""``canasta serve``: the table server.  Friends join with ``ssh -p PORT HOST``.

The package, by concept (issue 32, section 5):

* :mod:`.door`: who comes in and how: the SSH connections and prompt-toolkit sessions
  (:mod:`.door.ssh`), the PROXY header HAProxy puts before them (:mod:`.door.proxy`), the host
  key (:mod:`.door.hostkey`), who may enter and who they are
  (:mod:`.door.auth`), names a key reserves (:mod:`.door.names`), and the app one connection
  runs (:mod:`.door.client`);
* :mod:`.lobby`: every table, the connected people and the lobby's chat (:mod:`.lobby.registry`),
  what one person may ask of them (:mod:`.lobby.service`), invitations to a free seat
  (:mod:`.lobby.invitations`), friends, muted people and notes (:mod:`.lobby.friends`), the tables
  not started yet (:mod:`.lobby.forming`) and a connected person as the tables see them
  (:mod:`.lobby.connected`);
* :mod:`.club`: the people and their records: the store (:mod:`.club.people` on SQLite,
  :mod:`.club.pgpeople` on PostgreSQL), its writes off the event loop (:mod:`.club.writer`) and
  the "read again" notices between processes sharing it (:mod:`.club.notices`), ratings and
  finished matches (:mod:`.club.results`), a person's own record (:mod:`.club.records`), the
  club's evening and partnerships (:mod:`.club.evening`), a rated seat's name and a rating as
  shown (:mod:`.club.points`), ``canasta club export``
  (:mod:`.club.export`), admins and bans (:mod:`.club.admin`);
* :mod:`.tables`: a server's table and who sits where, its turn timer, forfeits and rematch
  (:mod:`.tables.server_table`), and every table autosaved and brought back (:mod:`.tables.store`
  on disk, :mod:`.tables.pgstore` on PostgreSQL);
* :mod:`.cluster`: one room over several processes (issue 32, ``docs/cluster.md``): the roles put
  together (:mod:`.cluster.node`) and their engines checked at start (:mod:`.cluster.engines`);
  the NATS bus (:mod:`.cluster.bus`) and what crosses it about a table (:mod:`.cluster.wire`);
  one owner per table and the take-over of a dead owner's tables (:mod:`.cluster.ownership`); a
  table played over the bus (:mod:`.cluster.remote`); the lobby across nodes
  (:mod:`.cluster.lobby`); who is online at every front (:mod:`.cluster.presence`); and a whole
  room on one machine for ``canasta cluster try`` and the tests (:mod:`.cluster.local`);
* :mod:`.person`: who a person is (:class:`~.person.PersonId`: a key, a guest, a computer level,
  read from and written to the ``key:…`` text the stores and saves keep) and the server's no
  (:class:`~.person.Refusal`), which every part above speaks;
* :mod:`.config` and :mod:`.config_file`: what the server is told; :mod:`.memory`: the garbage
  collector's pauses; :mod:`.server`: :class:`Server`, which puts it all together.

What the lobby's screen and the server share (tables, seats, rows) is in the neutral
:mod:`canasta_tui.lobbyview`, the smallest terminal in :mod:`canasta_tui.terminal`, a side's
name in :mod:`canasta_tui.text`: ``ui/`` never imports the server, and the server imports ``ui/``
only where it paints the screens, the door and the record pages (``tests/test_import_rules.py``).
"""

from typing import Any

from .config import ConfigError, ServerConfig


def __getattr__(name: str) -> Any:
    # asyncssh is loaded only by those who serve: ``canasta`` itself starts without it.
    if name == "Server":
        from .server import Server

        return Server
    raise AttributeError(name)


__all__ = ["ConfigError", "Server", "ServerConfig"]
