"""``canasta rules`` through a pager and through a pipe.

Issue 10, item 15: on stock Debian (PAGER and LESS unset) ``canasta rules`` showed raw escape
codes (ESC[1;4m…): rules_cmd.py passed color=True to click.echo_via_pager, and click sets LESS=-R
only when color is None.  Piped, the text had trailing spaces on 113 lines.

The pager here is a script called ``less`` first on PATH that records its environment and its
input; the program runs on a pseudo-terminal, as it would in a terminal window.
"""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from canasta_tui.cli import main
from canasta_tui.presets import load_rules
from canasta_tui.rules_cmd import render

FAKE_LESS = """#!/bin/sh
printf '%s' "${LESS-<unset>}" > "$RECORD.env"
printf '%s' "$*" > "$RECORD.args"
cat > "$RECORD.input"
"""


def page_rules(tmp_path: Path, **env: str) -> tuple[str, str]:
    """Run `canasta rules` on a pty with the fake less; (LESS as the pager saw it, what it was sent)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    less = bin_dir / "less"
    less.write_text(FAKE_LESS)
    less.chmod(0o755)
    record = tmp_path / "pager"
    base = {k: v for k, v in os.environ.items() if k not in ("PAGER", "LESS", "NO_COLOR")}
    full_env = base | {"PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "RECORD": str(record),
                       "TERM": "xterm", "COLUMNS": "80", "LINES": "24"} | env
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-c", "from canasta_tui.cli import main; main()", "rules"],
                                stdin=slave, stdout=slave, stderr=slave, env=full_env, close_fds=True)
        os.close(slave)
        seen = b""
        while True:                       # drain the terminal until the program closes it
            ready, _, _ = select.select([master], [], [], 60)
            if not ready:
                proc.kill()
                pytest.fail(f"canasta rules did not finish; it wrote {seen!r}")
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        assert proc.wait(timeout=60) == 0, seen
    finally:
        os.close(master)
    return (Path(f"{record}.env").read_text(), Path(f"{record}.input").read_text(encoding="utf-8"))


def test_colours_reach_less_only_with_less_told_to_show_them(tmp_path: Path) -> None:
    """PAGER and LESS unset: the colours go to less together with LESS=-R (raw control characters)."""
    less_env, text = page_rules(tmp_path)
    assert "\x1b[" in text and "The rules of Canasta" in text
    assert less_env == "-R"


def test_a_less_setting_without_R_gets_plain_text(tmp_path: Path) -> None:
    """LESS=-X (no -R): less would show ESC[… as text, so the text goes without colours."""
    less_env, text = page_rules(tmp_path, LESS="-X")
    assert less_env == "-X"
    assert "\x1b" not in text and "The rules of Canasta" in text


def test_no_color_pages_plain_text(tmp_path: Path) -> None:
    less_env, text = page_rules(tmp_path, NO_COLOR="1")
    assert "\x1b" not in text and "The rules of Canasta" in text
    assert less_env == "<unset>"          # plain text needs no -R: the user's less is left as it is


def test_piped_output_has_no_trailing_spaces() -> None:
    r = CliRunner().invoke(main, ["rules", "windows"])
    assert r.exit_code == 0
    lines = r.output.splitlines()
    assert len(lines) > 100
    assert [n for n, line in enumerate(lines, 1) if line != line.rstrip()] == []


def test_coloured_rendering_has_no_spaces_before_the_line_ends() -> None:
    text = render(load_rules("classic"), 80, color=True)
    assert "\x1b[" in text
    plain_ends = [line for line in text.splitlines() if re.search(r" +(\x1b\[[0-9;]*m)*$", line)]
    assert plain_ends == []
