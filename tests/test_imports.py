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
  that has loaded nothing of the project, only the libraries it uses), so no
  module works only because another was imported before it;
- the layers point one way: ``games`` and ``hal`` never import ``referee``,
  nor each other, and the key flows never import the web.

Issue 24, item 6: an import inside a function is an arrow all the same, only
a later one; circles and wrong-way arrows hid there.  So the same graph is
also drawn with every import, wherever it stands (``every=True``), and it
too has no circle, no arrow upward through the layers (``LAYERS``), and the
web apart from the box process (its flows, session, panels and devices).

Issue 24, item 4: the modules live in a folder per process, so a move is
an import changed in many places; every import of the project's own
modules, wherever it stands, must name a module and names that exist.
"""
from __future__ import annotations

import ast
import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "hal", "referee")
# The checks share the modules' trees (``parsed``): one worker runs them all.
pytestmark = pytest.mark.xdist_group("imports")


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


@functools.cache
def parsed(path: Path) -> ast.Module:
    """A module's syntax tree, read once for all the checks here (none
    changes it)."""
    return ast.parse(path.read_text(), str(path))


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


def _anywhere(tree: ast.Module):
    """Every import statement, in functions too; not under TYPE_CHECKING."""
    skipped = {id(n) for node in ast.walk(tree)
               if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
               for part in node.body for n in ast.walk(part)}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in skipped:
            yield node


def import_graph(every: bool = False) -> dict[str, set[str]]:
    known = modules()
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        tree = parsed(path)
        for node in _anywhere(tree) if every else _loaded_at_import(tree):
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
        or (name.startswith("referee.box.flows") and target.startswith("referee.web")))
    assert wrong == []


# From the bottom up: a module imports only from its own layer or below.
# ``referee`` itself and ``referee.store`` are the core both processes share
# (the catalogue, the configuration, the channel's protocol, the store and
# what is read from it); then what draws and answers: the key flows (with
# the panels' drawing and the network they show) and the web, side by side;
# then the processes made of them, the box and the club, and the virtual
# table over the box; then the command line and the tools that start or
# check those.
LAYERS = (
    ("games", "hal"),
    ("referee", "referee.store"),
    ("referee.box.flows", "referee.box.screen", "referee.box.wifi", "referee.box.address", "referee.web"),
    ("referee.box", "referee.club", "referee.testing"),
    ("referee.cli", "referee.tools"),
)


def layer(name: str) -> int:
    """The layer of a module: that of the longest prefix naming it."""
    found = [(len(prefix), n) for n, prefixes in enumerate(LAYERS) for prefix in prefixes
             if name == prefix or name.startswith(prefix + ".")]
    return max(found)[1]


def reach(graph: dict[str, set[str]], start) -> set[str]:
    seen: set[str] = set()
    todo = list(start)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(graph[name])
    return seen


def test_the_graph_with_every_import_sees_one_inside_a_function():
    # The check itself: the circle once hidden in forms.key is found.
    graph = import_graph(every=True)
    assert "referee.box.flows.menu" in graph["referee.box.flows.forms"]
    graph["referee.box.flows.numbered"].add("referee.box.flows.forms")
    assert any({"referee.box.flows.forms", "referee.box.flows.menu", "referee.box.flows.numbered"} <= set(part)
               for part in circles(graph))


def test_no_circle_counting_imports_inside_functions():
    assert circles(import_graph(every=True)) == []


def test_no_arrow_upward_counting_imports_inside_functions():
    graph = import_graph(every=True)
    upward = sorted((name, target) for name, targets in graph.items() for target in targets
                    if layer(target) > layer(name))
    assert upward == []
    assert layer("referee.config") < layer("referee.club.messages") < layer("referee.cli")


def test_the_web_stays_apart_from_the_box_and_the_flows_from_the_web():
    graph = import_graph(every=True)
    web = [name for name in graph if name.startswith("referee.web")]
    reached = reach(graph, web)
    assert sorted(name for name in reached if name.startswith("referee.box")) == []
    flows = [name for name in graph if name.startswith("referee.box.flows")]
    assert sorted(name for name in reach(graph, flows) if name.startswith("referee.web")) == []


WEB_ALONE = r"""
import importlib, json, pkgutil, sys
import referee.web
for found in pkgutil.iter_modules(referee.web.__path__, "referee.web."):
    importlib.import_module(found.name)
print(json.dumps(sorted(name for name in sys.modules
                        if name.split(".")[0] in ("PIL", "qrcode", "gpiozero", "luma", "serial", "hal")
                        or name.startswith("referee.box"))))
"""


def test_the_web_process_loads_no_drawing_and_nothing_of_hal():
    # Every module of the web (the games' own web modules too, which the
    # catalogue loads by name), in a fresh interpreter.  The devices' facts
    # the configuration checks in every process (the buzzer's band and what
    # its TonalBuzzer spans, the dice module's port, the pin map) are the
    # configuration's own, and the drivers are given them.
    done = subprocess.run([sys.executable, "-c", WEB_ALONE], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []


FORK_EACH = r"""
import importlib, os, sys, traceback
names, libraries = sys.stdin.read().split("|")
for library in libraries.split():
    importlib.import_module(library)
failed = []
for name in names.split():
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


def libraries() -> set[str]:
    """What the project's modules import at their top from outside it (not
    the standard library, nor the project's other folders such as
    ``firmware``): aiohttp, Jinja2, Pillow and the rest."""
    found = set()
    for path in modules().values():
        for node in _loaded_at_import(parsed(path)):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            found.update(n for n in names if n.split(".")[0] not in sys.stdlib_module_names
                         and not (ROOT / n.split(".")[0]).is_dir())   # the project's own folders
    return found


def test_item1_every_module_imports_alone_in_a_fresh_interpreter():
    # The libraries are loaded once before the forks, each project module
    # then alone in its own child: what is checked is the order among the
    # project's modules, and loading aiohttp anew for each of them took most
    # of this test's time.
    names = sorted(modules())
    assert "referee.box.flows.decrypto" in names and "hal.sim.dice_module" in names
    assert {"aiohttp", "jinja2", "PIL"} <= libraries() and "firmware" not in libraries()
    done = subprocess.run([sys.executable, "-c", FORK_EACH], cwd=ROOT, capture_output=True, text=True,
                          input=" ".join(names) + "|" + " ".join(sorted(libraries())), timeout=240)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [], done.stderr


def test_every_import_of_the_project_names_a_module_and_a_name_that_exist():
    # The import graph above leaves out what is not a module of the project,
    # so an import of a module that moved would hide there, inside a function,
    # until the day it runs.  Every import anywhere (the tests, the benches
    # and the scripts too) must find its module and each name it takes.
    import importlib
    missing = []
    for folder in (*PACKAGES, "tests", "bench", "scripts"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in _anywhere(parsed(path)):
                if isinstance(node, ast.Import):
                    wanted = [(alias.name, None) for alias in node.names]
                elif node.level == 0 and node.module:
                    wanted = [(node.module, alias.name) for alias in node.names]
                else:
                    continue
                for module, name in wanted:
                    if module.split(".")[0] not in PACKAGES:
                        continue
                    where = f"{path.relative_to(ROOT)}:{node.lineno}"
                    try:
                        found = importlib.import_module(module)
                    except ImportError:
                        missing.append(f"{where} {module}")
                        continue
                    if name not in (None, "*") and not hasattr(found, name):
                        try:
                            importlib.import_module(f"{module}.{name}")
                        except ImportError:
                            missing.append(f"{where} {module}.{name}")
    assert missing == []
