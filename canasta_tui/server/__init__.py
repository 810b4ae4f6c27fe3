"""``canasta serve``: the table server.  Friends join with ``ssh -p PORT HOST``.

* :mod:`.config`: what the server is told (address, who may enter, limits);
* :mod:`.hostkey` and :mod:`.auth`: the server's host key and who may enter;
* :mod:`.tables`: the tables of the server (forming, playing, over), their seats and the
  lobby's chat: the lobby's model;
* :mod:`.store`: every table autosaved (off the event loop) and brought back at start;
* :mod:`.lobby`: what one person's lobby asks of the tables (the screen is
  :mod:`canasta_tui.ui.lobby`); :mod:`.client`: the app one connection runs;
* :mod:`.ssh`: the asyncssh glue (sessions, limits); :mod:`.server`: :class:`Server`.
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
