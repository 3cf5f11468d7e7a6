"""Layers point down: the import graph of ``server/`` and the dashboard, read from the source.

A newcomer trusts the layout: declarations (``catalog``) and pure models import nothing above
them, endpoints never import the web layer, and no module imports another that imports it back
(directly or round a longer circle). The dashboard reads the service only through ``services/``
(its one HTTP client) and may share the service's declarations (``server.catalog``: the clock),
nothing else of it. Imports made only for type checking count too.
"""
from __future__ import annotations

import ast
import functools
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A package of server/ may import only packages of a lower rank (and itself).
RANK = {"errors": 0, "catalog": 1, "models": 2, "store": 2, "keys": 3, "ingest": 3,
        "endpoints": 3, "jobs": 4, "http": 5, "cli": 6, "__main__": 7}
DASHBOARD = ("app.py", "app_pages", "components", "services")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules(*tops: str) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for top in tops:
        where = ROOT / top
        for path in ([where] if where.is_file() else sorted(where.rglob("*.py"))):
            found[_module_name(path)] = path
    return found


SERVER = _modules("server")


def _imports(name: str, path: Path) -> set[str]:
    """Every module named by the file's imports (``from pkg import sub`` names ``pkg.sub``)."""
    out: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            subs = {f"{base}.{alias.name}" for alias in node.names}
            named = {s for s in subs if s in SERVER}
            out.update(named if named == subs else named | {base})
    return out


@functools.cache
def _edges() -> dict[str, set[str]]:
    return {name: {m for m in _imports(name, path) if m in SERVER and m != name}
            for name, path in SERVER.items()}


def _package(module: str) -> str:
    return module.split(".")[1] if "." in module else module


def test_every_package_is_ranked() -> None:
    assert {_package(m) for m in SERVER if m != "server"} == set(RANK)


def test_no_package_imports_one_above_it() -> None:
    upward = sorted(f"{a} imports {b}" for a, targets in _edges().items() for b in targets
                    if a != "server" and b != "server" and _package(a) != _package(b)
                    and RANK[_package(b)] >= RANK[_package(a)])
    assert upward == []


def test_no_import_circles() -> None:
    edges = _edges()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    assert circles == []


def test_the_dashboard_shares_only_declarations_and_talks_http_only_in_services() -> None:
    reached: dict[str, set[str]] = defaultdict(set)
    for name, path in _modules(*DASHBOARD).items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                reached[node.module.split(".")[0]].add(name)
                if node.module.startswith("server"):
                    reached[node.module].add(name)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    reached[alias.name.split(".")[0]].add(name)
    server_parts = {m for m in reached if m.startswith("server.")}
    assert all(m.startswith("server.catalog") for m in server_parts), server_parts
    http_clients = reached["requests"] | reached["httpx"]
    assert http_clients and all(m.startswith("services") for m in http_clients), http_clients


def test_the_reader_finds_the_imports_that_are_there() -> None:
    """The graph is read, not empty: the web layer's known imports of the layers below it."""
    reached = {_package(b) for a, targets in _edges().items() if _package(a) == "http"
               for b in targets}
    assert {"endpoints", "errors", "catalog", "store"} <= reached
