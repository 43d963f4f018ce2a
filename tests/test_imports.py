"""The import graph of ragmath, read from the source: no cycle, and the definitions stay apart.

Every ``import ragmath.x`` / ``from ragmath import x`` / ``from ragmath.x import y`` anywhere in a
module counts, inside functions too.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import ragmath

PACKAGE = Path(ragmath.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Module -> the ragmath modules it imports (the package ``ragmath`` itself excluded)."""
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets: set[str] = set()
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative import
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(anchor + ([node.module] if node.module else []))
                targets.add(base)
                targets.update(f"{base}.{alias.name}" for alias in node.names)
        graph[name] = {t for t in targets if t in modules and t != name and t != "ragmath"}
    return graph


def _reaches(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for target in graph.get(todo.pop(), ()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    for start in graph:
        if start in _reaches(graph, start):
            path, node = [start], start
            while True:  # walk back to start along edges that still reach it
                node = next(t for t in sorted(graph[node]) if t == start or start in _reaches(graph, t))
                path.append(node)
                if node == start:
                    return path
    return None


def test_the_graph_is_read_from_the_source():
    graph = import_graph()
    assert "ragmath.metrics" in graph["ragmath.evaluation"]
    assert "ragmath.lab.corpus" in graph["ragmath.lab.workbook"]


def test_no_import_cycle():
    assert _cycle(import_graph()) is None


def test_a_cycle_would_be_found():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_formats_and_the_tie_rule_do_not_reach_the_metrics():
    graph = import_graph()
    assert "ragmath.metrics" not in _reaches(graph, "ragmath.io")
    assert graph["ragmath.ranking"] == set()


def _private_reaches(path: Path) -> list[str]:
    """The imports of one module that reach into a private name or module of another folder, or
    into a private name of a public module of its own folder (``from ragmath.evaluation import _x``).

    A folder's private modules (``ragmath/io/_bulk.py``) are its own: its modules may use their names.
    """
    name = _module_name(path)
    folder = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ragmath"):
            pairs = [(node.module, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            pairs = [(alias.name, "") for alias in node.names if alias.name.startswith("ragmath")]
        else:
            continue
        for module, imported in pairs:
            parts = module.split(".")
            private_module = next((i for i, part in enumerate(parts) if part.startswith("_")), None)
            owner = module.rpartition(".")[0]
            if private_module is not None:
                owner = ".".join(parts[:private_module])
            if private_module is None and imported and (PACKAGE.parent / Path(*parts)).is_dir():
                owner = module  # from ragmath.io import writers: the package's own folder
            if owner != folder and (private_module is not None or imported.startswith("_")):
                found.append(f"{name}: from {module} import {imported}")
            elif owner == folder and private_module is None and imported.startswith("_"):
                found.append(f"{name}: from {module} import {imported} (a shared helper: name it)")
    return found


def test_no_module_reaches_into_another_folders_private_names():
    reaches = [line for path in sorted(PACKAGE.rglob("*.py")) for line in _private_reaches(path)]
    assert reaches == []


def test_a_private_reach_would_be_found(tmp_path, monkeypatch):
    module = PACKAGE / "lab" / "probe_private.py"
    text = "from ragmath.io._checks import Where\nfrom ragmath.evaluation import _keys\n"
    monkeypatch.setattr(Path, "read_text", lambda self, encoding=None: text)
    assert _private_reaches(module) == [
        "ragmath.lab.probe_private: from ragmath.io._checks import Where",
        "ragmath.lab.probe_private: from ragmath.evaluation import _keys"]


def test_import_ragmath_loads_neither_pandas_nor_polars():
    code = ("import sys, ragmath; from ragmath import recall_at_k, rrf, METRICS; "
            "print(sorted(m for m in ('pandas', 'polars') if m in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"


def test_evaluate_loads_them_when_asked_for():
    code = ("import sys, ragmath; ragmath.evaluate; "
            "print(sorted(m for m in ('pandas', 'polars') if m in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "['pandas', 'polars']"


def _core_modules(graph: dict[str, set[str]]) -> list[str]:
    return [name for name in graph if not name.startswith("ragmath.lab")]


def test_the_core_imports_nothing_of_the_workbook():
    graph = import_graph()
    core = _core_modules(graph)
    assert "ragmath.evaluation" in core and "ragmath.lab.corpus" in graph  # the graph sees both layers
    for module in core:
        workbook = {target for target in _reaches(graph, module) if target.startswith("ragmath.lab")}
        assert not workbook, f"{module} reaches the workbook: {sorted(workbook)}"


def test_the_pipeline_does_not_import_the_notebook_helpers():
    graph = import_graph()
    for module in graph:
        if module.startswith("ragmath.lab") and not module.startswith("ragmath.lab.notebook"):
            helpers = {t for t in _reaches(graph, module) if t.startswith("ragmath.lab.notebook")}
            assert not helpers, f"{module} reaches the notebook helpers: {sorted(helpers)}"


def test_a_core_module_importing_the_workbook_would_be_found():
    graph = {"ragmath.io": {"ragmath.lab.corpus"}, "ragmath.lab.corpus": set()}
    assert _reaches(graph, "ragmath.io") == {"ragmath.lab.corpus"}


if __name__ == "__main__":  # print the graph: python tests/test_imports.py
    for module, targets in sorted(import_graph().items()):
        print(f"{module:<28} -> {', '.join(sorted(targets)) or '-'}")


def test_nothing_imports_by_name():
    # importlib.import_module hides an edge from the graph above (selfcheck once loaded the exercises
    # that import selfcheck back; the message catalogue now imports its parts by name)
    users = sorted(_module_name(p) for p in PACKAGE.rglob("*.py") if "import_module" in p.read_text("utf-8"))
    assert users == []


def test_exercises_register_without_importing_selfcheck():
    graph = import_graph()
    exercises = [m for m in graph if m.startswith("ragmath.lab.notebook.exercises.nb")]
    files = sorted((PACKAGE / "lab" / "notebook" / "exercises").glob("nb*.py"))
    assert len(files) >= 8 and len(exercises) == len(files)  # 01..07 and 05b at least
    for module in exercises:
        assert "ragmath.lab.notebook.selfcheck" not in _reaches(graph, module), module
        assert module in graph["ragmath.lab.notebook.selfcheck"]
