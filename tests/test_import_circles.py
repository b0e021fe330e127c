"""The systems hold no import circle but GURPS attack<->defense (issue #24): a section imports only
core/, dice/ and lower sections of its own system, never the module that dispatches to it.

Built from the source with ``ast``: every import, at module level or inside a function (a
deferred import still closes a circle, it only hides it), outside ``if TYPE_CHECKING`` blocks.
``from package import name`` is an edge to the submodule when ``name`` is one, else to the
package. Circles are the strongly connected components of that graph.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
ALLOWED = [{"rulekeeper.systems.gurps.attack", "rulekeeper.systems.gurps.defense"}]


def _modules() -> dict[str, tuple[Path, bool]]:
    found: dict[str, tuple[Path, bool]] = {}
    for path in (SRC / "rulekeeper").rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if package else parts)] = (path, package)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}

    def imports(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                children: list[ast.AST] = list(child.orelse)  # only for the type checker
            else:
                children = [child]
            for inner in children:
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    yield inner
                yield from imports(inner)

    def visit(name: str, package: bool, tree: ast.Module) -> None:
        for node in imports(tree):
            if isinstance(node, ast.Import):
                graph[name].update(a.name for a in node.names if a.name in modules)
                continue
            base = node.module or ""
            if node.level:
                here = name if package else name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    here = here.rpartition(".")[0]
                base = f"{here}.{base}" if base else here
            subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
            graph[name].update(subs)
            if len(subs) < len(node.names) and base in modules:
                graph[name].add(base)

    for name, (path, package) in modules.items():
        visit(name, package, ast.parse(path.read_text(encoding="utf-8")))
    return graph


def _circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """Strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def test_the_systems_hold_no_import_circle_but_attack_and_defense() -> None:
    inside = [c for c in _circles(_graph()) if any(m.startswith("rulekeeper.systems.") for m in c)]
    assert [c for c in inside if c not in ALLOWED] == [], inside


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [{"a", "b", "c"}]
    # The graph sees imports deferred into a function: they close a circle as surely.
    graph = _graph()
    assert "rulekeeper.systems.gurps.attack" in graph["rulekeeper.systems.gurps.defense"]
    assert "rulekeeper.systems.gurps.defense" in graph["rulekeeper.systems.gurps.attack"]
