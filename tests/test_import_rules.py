"""Import rules, read from the source with ``ast`` (nothing is imported to check them).

1. ``canasta_tui/persistence/`` is storage: saves, settings, statistics.  It must not import
   the UI (``canasta_tui.ui``, prompt-toolkit), the command line (``click``, ``canasta_tui.cli``)
   or what assembles the program from it (``canasta_tui.play``, ``canasta_tui.server``)
   (issue 17: "persistence/ also assembles the program ... Keep storage there; move the
   assembly where a reader looks for it").
2. The modules of ``canasta_tui.server`` import one another without a circle (issue 17: "The
   import circles ... ``server/server ↔ ssh`` go").  Every import counts: at the top of a
   module, inside a function, and under ``if TYPE_CHECKING:`` (the circle the issue names
   was one of those: a reader and mypy follow it all the same).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import canasta_tui

PACKAGE = Path(canasta_tui.__file__).parent


def module_of(path: Path, root: Path) -> str:
    """``root/canasta_tui/server/door/ssh.py`` -> ``canasta_tui.server.door.ssh`` (a package is its ``__init__``)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(path: Path, root: Path, modules: set[str]) -> Iterator[tuple[str, int]]:
    """Every module ``path`` imports, anywhere in it, as (absolute name, line).

    ``from .x import y`` names ``pkg.x`` (and ``pkg.x.y`` when that is a module of ``modules``);
    ``from . import y`` names ``pkg.y`` when that is a module, else ``pkg``.  The parent
    packages Python runs on the way are not counted: only what the line names."""
    name = module_of(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
            yield from ((sub, node.lineno) for sub in subs)
            if node.module or len(subs) < len(node.names):
                yield base, node.lineno


def modules_under(root: Path, package: str) -> dict[str, Path]:
    where = root.joinpath(*package.split("."))
    return {module_of(p, root): p for p in sorted(where.rglob("*.py"))}


def forbidden_imports(root: Path, package: str, forbidden: tuple[str, ...]) -> list[str]:
    """``file:line imports name`` for each import in ``package`` of a module under ``forbidden``."""
    mods = modules_under(root, package)
    out = []
    for path in mods.values():
        for target, line in imported(path, root, set(mods)):
            if any(target == f or target.startswith(f + ".") for f in forbidden):
                out.append(f"{path.relative_to(root)}:{line} imports {target}")
    return out


def circles(root: Path, package: str) -> list[list[str]]:
    """The import circles among the modules of ``package`` (each once, as a path back to its start)."""
    mods = modules_under(root, package)
    edges = {name: sorted({t for t, _ in imported(path, root, set(mods)) if t in mods and t != name})
             for name, path in mods.items()}
    found: list[list[str]] = []
    seen: set[frozenset[str]] = set()

    def walk(path: list[str]) -> None:
        for nxt in edges[path[-1]]:
            if nxt == path[0]:
                key = frozenset(path)
                if key not in seen:
                    seen.add(key)
                    found.append([*path, nxt])
            elif nxt not in path and nxt > path[0]:   # each circle from its smallest module only
                walk([*path, nxt])

    for start in sorted(mods):
        walk([start])
    return found


# ---------------------------------------------------------------------------- the rules

PERSISTENCE_MUST_NOT_IMPORT = ("canasta_tui.ui", "prompt_toolkit", "click", "canasta_tui.cli",
                               "canasta_tui.play", "canasta_tui.server")


def test_persistence_imports_neither_the_ui_nor_click_nor_the_assembly() -> None:
    """Rule 1 (issue 17): persistence/ is storage; the UI, click and the assembly sit on top of it."""
    assert forbidden_imports(PACKAGE.parent, "canasta_tui.persistence", PERSISTENCE_MUST_NOT_IMPORT) == []


def test_the_server_modules_import_one_another_without_a_circle() -> None:
    """Rule 2 (issue 17): no import circle among canasta_tui.server's modules, TYPE_CHECKING
    imports included (server.py imports ssh.py; ssh.py knows the server as its ``Host`` protocol)."""
    assert circles(PACKAGE.parent, "canasta_tui.server") == []


UI_MUST_NOT_IMPORT = ("canasta_tui.server",)


def test_the_ui_never_imports_the_server() -> None:
    """Rule 3 (issue 32, section 5): "ui/ must not import the server"; the lobby's shared types
    live in the neutral ``canasta_tui.lobbyview``."""
    assert forbidden_imports(PACKAGE.parent, "canasta_tui.ui", UI_MUST_NOT_IMPORT) == []


#: What the screens and the server both read: neither's own.
NEUTRAL = ("lobbyview.py", "terminal.py", "text.py")


def test_the_lobbys_shared_types_import_neither_ui_nor_server() -> None:
    """Rule 4 (issue 32, section 5): the server must not import ui's own types for its data: the
    types both use (``canasta_tui.lobbyview``, ``terminal``, ``text``) belong to neither."""
    found = [f"{name} imports {what}" for neutral in NEUTRAL for name, what in _imports_of(PACKAGE / neutral)
             if what.startswith(("canasta_tui.ui", "canasta_tui.server", "prompt_toolkit"))]
    assert found == []


SERVER_MUST_NOT_IMPORT = ("canasta_tui.ui", "prompt_toolkit")
#: What paints the game's own screens for a connection: the door (the app, its lobby, the SSH
#: session) and the record pages' service (``club/records.py``, the server's side of
#: ``ui/records.py``): the only parts of the server that may import ``ui`` and prompt-toolkit.
SERVER_SCREENS = ("canasta_tui/server/door/", "canasta_tui/server/club/records.py")


def test_the_server_imports_the_screens_only_where_it_paints_them() -> None:
    """Rule 5 (issue 32, section 5): the server must not import ui's own types for its data.
    What both need (``lobbyview``, ``terminal``'s smallest size, ``text.side_name``) is neutral;
    only what paints the screens over SSH imports ``ui`` and prompt-toolkit."""
    found = forbidden_imports(PACKAGE.parent, "canasta_tui.server", SERVER_MUST_NOT_IMPORT)
    assert [line for line in found if not line.startswith(SERVER_SCREENS)] == []
    # (and those do import them: the exception is not an empty one)
    assert {s for s in SERVER_SCREENS if any(line.startswith(s) for line in found)} == set(SERVER_SCREENS)


def _imports_of(path: Path) -> list[tuple[str, str]]:
    name = module_of(path, PACKAGE.parent)
    return [(name, what) for what, _line in imported(path, PACKAGE.parent, set())]


# ---------------------------------------------------------------------------- the checks can fail

def _package(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def test_a_circle_through_a_type_checking_import_is_found(tmp_path: Path) -> None:
    """The circle the issue named, as it was: ssh imported the server only for its types."""
    _package(tmp_path, {
        "pkg/__init__.py": "from .config import X\n",
        "pkg/config.py": "X = 1\n",
        "pkg/server.py": "from .config import X\nfrom .ssh import Connection\n",
        "pkg/ssh.py": ("from typing import TYPE_CHECKING\nfrom . import config\n"
                       "if TYPE_CHECKING:\n    from .server import Server\n"),
    })
    assert circles(tmp_path, "pkg") == [["pkg.server", "pkg.ssh", "pkg.server"]]
    (tmp_path / "pkg/ssh.py").write_text("from . import config\n")
    assert circles(tmp_path, "pkg") == []


def test_a_longer_circle_and_a_function_level_import_are_found(tmp_path: Path) -> None:
    _package(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "from .b import f\n",
        "pkg/b.py": "def f():\n    from . import c\n",
        "pkg/c.py": "import pkg.a\n",
    })
    assert circles(tmp_path, "pkg") == [["pkg.a", "pkg.b", "pkg.c", "pkg.a"]]


def test_a_forbidden_import_is_found_wherever_it_is(tmp_path: Path) -> None:
    _package(tmp_path, {
        "top/__init__.py": "",
        "top/store/__init__.py": "",
        "top/store/files.py": ("from typing import TYPE_CHECKING\nimport os\n"
                               "if TYPE_CHECKING:\n    from ..ui.app import App\n"
                               "def ask():\n    import click.testing\n"),
        "top/ui/__init__.py": "",
        "top/ui/app.py": "App = 1\n",
    })
    assert forbidden_imports(tmp_path, "top.store", ("top.ui", "click")) == [
        "top/store/files.py:4 imports top.ui.app", "top/store/files.py:6 imports click.testing"]
