"""Issue 15, item 1: no import circles.

A circle between modules is a crash that waits for the right order: the
first module imported decides whether the other finds its names yet.  Once
Decrypto's key flow imported the web and the web imported the flow, so a
box restarted with Decrypto on screen died on every start.  Two checks:

- the graph of the imports every module of ``games``, ``hal`` and
  ``referee`` makes when it is loaded (its top level, class bodies included;
  not inside functions, which run later, nor under ``TYPE_CHECKING``) has no
  circle.  A package's ``__init__`` loaded before its submodule is Python's
  own order and no edge here; what each statement names is;
- every module imports alone, first, in a fresh interpreter (forked from one
  that has loaded nothing of the project), so no module works only because
  another was imported before it;
- the layers point one way: ``games`` and ``hal`` never import ``referee``,
  nor each other, and the key flows never import the web.
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "hal", "referee")


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _loaded_at_import(tree: ast.Module):
    """The import statements that run when the module is loaded."""
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            todo.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
            continue
        todo.extend(ast.iter_child_nodes(node))


def import_graph() -> dict[str, set[str]]:
    known = modules()
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in _loaded_at_import(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
                continue
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            submodules = {f"{base}.{alias.name}" for alias in node.names} & known.keys()
            # ``from pkg import a, b`` of submodules needs a and b, not what
            # else pkg's __init__ holds; a name from pkg itself needs pkg.
            targets.update(submodules if len(submodules) == len(node.names) else submodules | {base})
        graph[name] = {t for t in targets if t in known and t != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_item1_the_graph_sees_a_circle_it_is_shown():
    # The check itself: the circle that bricked the box is one it finds.
    graph = {name: set(edges) for name, edges in import_graph().items()}
    graph["referee.catalogue"].add("referee.web.sheets")
    assert any({"referee.catalogue", "referee.web.sheets"} <= set(part) for part in circles(graph))


def test_item1_no_import_circle_between_games_hal_referee():
    assert circles(import_graph()) == []


def test_item1_layers_point_one_way():
    graph = import_graph()
    wrong = sorted(
        (name, target) for name, targets in graph.items() for target in targets
        if (name.startswith(("games", "hal")) and target.startswith("referee"))
        or (name.startswith("games") and target.startswith("hal"))
        or (name.startswith("hal") and target.startswith("games"))
        or (name.startswith("referee.flows") and target.startswith("referee.web")))
    assert wrong == []


FORK_EACH = r"""
import importlib, os, sys, traceback
failed = []
for name in sys.stdin.read().split():
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            importlib.import_module(name)
        except BaseException:
            traceback.print_exc()
            code = 1
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    if os.waitpid(pid, 0)[1] != 0:
        failed.append(name)
print(" ".join(failed))
"""


def test_item1_every_module_imports_alone_in_a_fresh_interpreter():
    names = sorted(modules())
    assert "referee.flows.decrypto" in names and "hal.sim.dice_module" in names
    done = subprocess.run([sys.executable, "-c", FORK_EACH], input=" ".join(names), cwd=ROOT,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [], done.stderr
