"""A cluster's nodes as the tests run them: ``canasta serve --role …`` as separate processes, each
in a directory of its own, started by a test and stopped by its PID however the test ends
(``canasta_tui/server/cluster/local.py``'s :func:`node`, which ``canasta cluster try`` runs too)."""

from __future__ import annotations

from canasta_tui.server.cluster.local import Node, node

__all__ = ["Node", "node"]
