"""The client's shape (issue 17, "The shape"): the one key list checked against the commands when
they are imported, no import circle among the ui modules, each ui module importable first in a
fresh interpreter, and the table's screen split into parts no bigger than a reader can hold."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import canasta_tui.ui
from canasta_tui.ui.commands import COMMANDS
from canasta_tui.ui.keys import KEYS, check_commands

UI = Path(canasta_tui.ui.__file__).parent
MODULES = sorted(f"canasta_tui.ui.{p.stem}" for p in UI.glob("*.py") if p.stem != "__init__")


def test_every_key_has_a_command_and_every_command_a_key() -> None:
    assert set(COMMANDS) == {k.command for k in KEYS if k.section != "Dialogs"}
    check_commands(COMMANDS)                  # as the commands' module does when imported


@pytest.mark.parametrize("change", ["a key without a command", "a command without a key"])
def test_a_key_list_and_commands_that_disagree_stop_the_import(change: str) -> None:
    """The check is loud: importing the commands fails, naming what is missing."""
    if change == "a key without a command":
        setup = "keys.KEYS.append(keys.KeyHelp('fly', ('F',), 'F', 'Fly away'))"
        missing = "fly"
    else:
        setup = "keys.KEYS[:] = [k for k in keys.KEYS if k.command != 'sheet']"
        missing = "sheet"
    code = textwrap.dedent(f"""
        import canasta_tui.ui.keys as keys
        {setup}
        try:
            import canasta_tui.ui.commands
        except ImportError as e:
            print("refused:", e)
        else:
            print("imported")
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.startswith("refused: ui.keys and the table's commands disagree") and repr(missing) in out, out
    with pytest.raises(ImportError, match=missing):
        check_commands({**COMMANDS, "fly": COMMANDS["draw"]} if missing == "fly"
                       else {k: v for k, v in COMMANDS.items() if k != "sheet"})


#: Imports that name a module back only for its types (under ``if TYPE_CHECKING:``, never run):
#: the flow of play is the model's (the model calls it), and types its functions by the model.
TYPES_ONLY_BACK = {("canasta_tui.ui.flow", "canasta_tui.ui.model")}


def _imports(path: Path, typing_too: bool) -> set[str]:
    """The ui modules ``path`` imports: at the top or inside a function, and with ``typing_too``
    under ``if TYPE_CHECKING:`` as well."""
    module = f"canasta_tui.ui.{path.stem}"
    typing_only: set[int] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            typing_only |= {id(n) for n in ast.walk(node)}
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only and not typing_too:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level == 0:
                names = [node.module or ""]
            else:
                base = module.rsplit(".", node.level)[0]
                names = [f"{base}.{node.module}"] if node.module else [f"{base}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        out |= {n for n in names if n in MODULES}
    return out - {module}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph`` (module -> the modules it imports): each group of modules
    that reach each other, sorted (Tarjan's strongly connected components of more than one)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(m: str) -> None:
        index[m] = low[m] = len(index)
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if n not in index:
                visit(n)
                low[m] = min(low[m], low[n])
            elif n in stack:
                low[m] = min(low[m], index[n])
        if low[m] == index[m]:
            group = []
            while True:
                n = stack.pop()
                group.append(n)
                if n == m:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for m in sorted(graph):
        if m not in index:
            visit(m)
    return out


def test_circles_are_found() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_no_import_circle_among_the_ui_modules() -> None:
    """``controller <-> dialogs <-> pages <-> helppages`` was a circle (the dialogs and the pages
    named the controller for their types, the controller imported them, help lazily): no circle is
    left, counting the imports inside functions and those for types only.  The one kind of import
    allowed to point back is a types-only one listed in TYPES_ONLY_BACK: it never runs, so the
    order the modules are imported in cannot matter (the next test imports each one first)."""
    graph = {m: _imports(UI / f"{m.rsplit('.', 1)[1]}.py", typing_too=True) for m in MODULES}
    runs = {m: _imports(UI / f"{m.rsplit('.', 1)[1]}.py", typing_too=False) for m in MODULES}
    for a, b in TYPES_ONLY_BACK:
        assert b in graph[a] and b not in runs[a]      # (still there, and for types only)
        graph[a].discard(b)
    assert circles(graph) == []
    # The dialogs know the table's client only by the protocol they use (TableHost).
    assert graph["canasta_tui.ui.dialogs"].isdisjoint({"canasta_tui.ui.controller", "canasta_tui.ui.model",
                                                       "canasta_tui.ui.pages", "canasta_tui.ui.commands"})


def test_each_ui_module_imports_first_in_a_fresh_interpreter() -> None:
    code = textwrap.dedent("""
        import importlib, sys
        for name in sys.argv[1:]:
            for m in [m for m in sys.modules if m.startswith("canasta_tui")]:
                del sys.modules[m]
            importlib.import_module(name)
        print("ok")
    """)
    done = subprocess.run([sys.executable, "-c", code, *MODULES], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_no_class_of_the_ui_over_300_lines_and_no_function_over_60() -> None:
    """The table's client was one class of about 900 lines; it is a model, the flow of play,
    commands, a snapshot and a thin screen now, and no class or function of the ui grows past
    what a reader can hold."""
    big = []
    for path in sorted(UI.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno:
                size = node.end_lineno - node.lineno + 1
                if size > (300 if isinstance(node, ast.ClassDef) else 60):
                    big.append(f"{path.name}:{node.name}: {size} lines")
    assert big == []


def test_painting_changes_nothing_of_the_client() -> None:
    """``render`` draws from a frozen snapshot; what it keeps between paints is the screen's
    cache, never the client's state."""
    import copy
    import dataclasses

    from canasta_tui.ui.canvas import ASCII_OPTIONS, DEFAULT_OPTIONS, Options
    from canasta_tui.ui.render import render

    from .helpers import client, session

    ctl = client(session(seed=5))
    for k in ("x", "d", "right", "space", "right", "space", ">"):
        ctl.key(k)
    ctl.paint(80, 24, DEFAULT_OPTIONS)
    before = copy.deepcopy({k: v for k, v in vars(ctl.client).items() if k not in ("link", "files", "host", "log")})
    snap = ctl.snapshot()
    for w, h, opts in ((80, 24, DEFAULT_OPTIONS), (132, 43, Options(mouse=True)), (100, 30, ASCII_OPTIONS)):
        ctl.paint(w, h, opts)
        render(snap, w, h, opts)
    after = {k: v for k, v in vars(ctl.client).items() if k not in ("link", "files", "host", "log")}
    assert after.keys() == before.keys()
    assert all(after[k] == before[k] for k in before if not callable(before[k]))
    assert ctl.cache.top is not None                  # the painter kept the rows above the hand
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.cursor = 3  # type: ignore[misc]
