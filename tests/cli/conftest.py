from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    h = tmp_path / "home"
    monkeypatch.setenv("CANASTA_HOME", str(h))
    monkeypatch.delenv("PAGER", raising=False)
    # The game refuses TERM=dumb (some CI sets it): the tests that start it get a terminal that can
    # place the cursor, unless they set TERM themselves.
    monkeypatch.setenv("TERM", "xterm-256color")
    return h


@pytest.fixture(autouse=True)
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """CliRunner's input and output are not a terminal: the table's check is told they are
    (the check itself is tested with the installed program, in test_commands.py)."""
    monkeypatch.setattr("canasta_tui.cli.has_terminal", lambda: True)
