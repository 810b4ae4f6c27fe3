"""The server's package map (``canasta_tui/server/__init__.py``) stays true (issue 32, section 5:
"the package map in server/__init__.py true"): every module of the server is named there, by its
place (``:mod:`.club.people```), and everything named there is a module or package of the server."""

from __future__ import annotations

import re
from pathlib import Path

import canasta_tui.server

SERVER = Path(canasta_tui.server.__file__).parent
NAMED = re.compile(r":mod:`\.([a-z_][a-z_.]*)`")


def modules(root: Path) -> set[str]:
    """``club.people`` for ``root/club/people.py``; packages by their own name (``club``)."""
    out = set()
    for p in root.rglob("*.py"):
        parts = p.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts:
            out.add(".".join(parts))
    return out


def map_problems(root: Path) -> tuple[set[str], set[str]]:
    """(modules the map does not name, names in the map that are no module)."""
    doc = (root / "__init__.py").read_text(encoding="utf-8").split('"""')[1]
    named, there = set(NAMED.findall(doc)), modules(root)
    packages = {m for m in there if (root / m.replace(".", "/") / "__init__.py").exists()}
    return there - packages - named, named - there


def test_the_package_map_names_every_module_of_the_server_and_nothing_else() -> None:
    assert map_problems(SERVER) == (set(), set())


def test_a_module_left_out_of_the_map_or_a_stale_name_is_found(tmp_path: Path) -> None:
    (tmp_path / "club").mkdir()
    (tmp_path / "__init__.py").write_text('"""The map: :mod:`.club.people`, :mod:`.club.gone`."""\n')
    for name in ("club/__init__.py", "club/people.py", "club/new.py"):
        (tmp_path / name).write_text("")
    assert map_problems(tmp_path) == ({"club.new"}, {"club.gone"})
