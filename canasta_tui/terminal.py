"""The smallest terminal the game's screens are drawn on.

The screens (:mod:`.ui.canvas`) draw only "terminal too small" below it, and the server
(:mod:`.server.config`) refuses to be told to paint anything smaller: both read it here, so the
server need not import the screens for a number.
"""

from __future__ import annotations

#: Columns and rows: the DOS game's 80x24.
MIN_W, MIN_H = 80, 24

__all__ = ["MIN_H", "MIN_W"]
