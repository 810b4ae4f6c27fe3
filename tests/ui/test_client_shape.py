"""The client never reads the whole game (issue 11): only its seats' views, public events and
scores, through its Link.  Checked on the source, so a shortcut cannot creep back in."""

from __future__ import annotations

import ast
from pathlib import Path

import canasta_tui.ui

UI = Path(canasta_tui.ui.__file__).parent
#: Names that hold (or build) the whole position, every hand and the stock.
WHOLE_GAME = {"GameState", "Match", "view_for", "legal_actions", "apply", "apply_legal", "explain", "turn_problem",
              "deal", "replay", "determinize"}


def test_no_client_module_imports_what_holds_the_whole_game() -> None:
    found = []
    for path in sorted(UI.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                found += [f"{path.name}: {a.name}" for a in node.names if a.name in WHOLE_GAME]
    assert found == []


def test_no_client_module_reaches_into_a_table() -> None:
    """Only the app that drives a local table holds the Table (to run its computers); no module
    of the client reads its match, its state or a link's table.  (``launch.py`` is the local
    game's host, not a client: it owns the table and asks at the end whether the match is over.)"""
    found = []
    for path in sorted(p for p in UI.glob("*.py") if p.name != "launch.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("match", "state", "_table", "hands", "deck"):
                found.append(f"{path.name}:{node.lineno}: .{node.attr}")
    assert found == []
