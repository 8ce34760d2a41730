"""No import cycle anywhere in the package, function-level (lazy) imports included.

import-linter's layers contract (``.ci/run``) keeps the packages pointing one way, but it does
not look inside a package, and a lazy import hides a cycle until the day it is moved to the
top of a module. This walks every import statement of every module with :mod:`ast` and fails
on any cycle between modules, naming it.
"""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "bayesbench"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in ROOT.rglob("*.py")}


def _targets(node, here: str, is_package: bool, modules) -> set[str]:
    """The package's modules that one import statement loads (a name imported from a package
    counts as its submodule when there is one, else as the package itself)."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
        return {n for n in names if n in modules}
    base = here if is_package else here.rpartition(".")[0]
    if node.level:
        for _ in range(node.level - 1):
            base = base.rpartition(".")[0]
        base = f"{base}.{node.module}" if node.module else base
    else:
        base = node.module or ""
    if base not in modules:
        return set()
    found = set()
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        found.add(sub if sub in modules else base)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    graph = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        edges = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                edges |= _targets(node, name, path.name == "__init__.py", modules)
        # A module importing its own package's __init__ (or an __init__ its submodules) is how
        # packages load, not a dependency between two rooms.
        graph[name] = {t for t in edges if t != name and not name.startswith(t + ".")
                       and not t.startswith(name + ".")}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_walk_finds_a_lazy_import_and_a_cycle():
    # The detector itself: a cycle closed only by a function-level import is found.
    graph = {"p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": {"p.a"}, "p.d": {"p.a"}}
    assert cycles(graph) == [["p.a", "p.b", "p.c"]]
    tree = ast.parse("def f():\n    from .pages import Network\n")
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom))
    assert _targets(node, "bayesbench.report.inputs", False,
                    {"bayesbench.report.pages": None}) == {"bayesbench.report.pages"}


def test_the_package_has_no_import_cycle():
    graph = import_graph()
    assert len(graph) > 90 and graph["bayesbench.models.learners.tan"]
    assert cycles(graph) == []
