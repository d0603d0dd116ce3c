"""No import cycle anywhere in the project: the import graph of every package (the apps, the
settings, the benchmarks and the tests with their helpers), function-level imports included,
has no module that imports itself back through others. import-linter's contracts
(pyproject.toml) hold the layering; this holds the cycles module by module, where a
package-level contract cannot (the feature packages of `tournaments` and its shared models,
services and views import each other's modules one way).
"""

from __future__ import annotations

from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("api", "tournaments", "games", "config", "bench", "tests")


def cycles(imports: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other (Tarjan's strongly connected components of
    more than one module, or a module importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(imports):
        if start in index:
            continue
        work = [(start, iter(sorted(imports[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in imports:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(imports[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1 or node in imports[node]:
                        found.append(sorted(group))
    return found


def test_the_check_finds_a_cycle_where_there_is_one() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}, "f": set()}
    assert sorted(cycles(graph)) == [["a", "b", "c"], ["e"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_the_project_imports_itself_back() -> None:
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    imports = {
        module: set(graph.find_modules_directly_imported_by(module)) for module in graph.modules
    }
    found = cycles(imports)

    def line(a: str, b: str) -> int:
        return graph.get_import_details(importer=a, imported=b)[0]["line_number"]

    details = [
        [f"{a} -> {b} (line {line(a, b)})" for a in group for b in group if b in imports[a]]
        for group in found
    ]
    assert not found, f"import cycles: {details}"
