"""Notebooks 06 and 07: solutions that do not copy the notebooks, and identical tables on a second run."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAIRS = [("06_ablation.ipynb", "solutions/06_ablation_solutions.ipynb"),
         ("07_honest_numbers.ipynb", "solutions/07_honest_numbers_solutions.ipynb")]


def _cells(name: str, kind: str) -> list[str]:
    nb = json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == kind]


def _lines(source: str) -> set[str]:
    """A cell's meaningful lines: stripped, no comments, no blank lines, no bare imports."""
    out = set()
    for line in source.splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith(("import ", "from ")):
            out.add(line)
    return out


@pytest.mark.parametrize("notebook, solutions", PAIRS)
def test_solutions_share_the_exercises_and_their_titles(notebook, solutions):
    asked = [m.groups() for c in _cells(notebook, "markdown")
             for m in [re.match(r"\*\*Exercise (\d\d\.\d) — (.+?)\.\*\*", c)] if m]
    solved = [m.groups() for c in _cells(solutions, "markdown")
              for m in [re.match(r"## Exercise (\d\d\.\d) — (.+)", c.splitlines()[0])] if m]
    assert asked and asked == solved
    assert all("**Common mistakes:**" in c for c in _cells(solutions, "markdown")
               if c.startswith("**Common mistakes:**")) and sum(
        c.startswith("**Common mistakes:**") for c in _cells(solutions, "markdown")) == len(asked)


@pytest.mark.parametrize("notebook, solutions", PAIRS)
def test_solutions_do_not_copy_the_notebook(notebook, solutions):
    notebook_lines = set().union(*(_lines(c) for c in _cells(notebook, "code")
                                   if not c.startswith("# Versions in use")))
    for cell in _cells(solutions, "code"):
        if cell.startswith("# Versions in use"):
            continue
        lines = _lines(cell)
        shared = lines & notebook_lines
        assert len(shared) <= max(1, len(lines) // 3), f"{solutions} repeats {notebook}: {sorted(shared)}"


def _tables(nb) -> list[str]:
    """Every text output except the versions cell and the latency table (which varies by design)."""
    out = []
    for cell in nb.cells:
        if cell.cell_type != "code" or "latency" in cell.source or "Versions in use" in cell.source:
            continue
        for o in cell.get("outputs", []):
            if o.output_type == "stream":
                out.append(o.text)
            elif o.output_type in ("execute_result", "display_data"):
                data = o.get("data", {})
                out.append(str(data.get("text/markdown", data.get("text/plain", ""))))
    return out


@pytest.mark.notebooks
@pytest.mark.slow
@pytest.mark.parametrize("name", ["06_ablation.ipynb", "07_honest_numbers.ipynb"])
def test_notebook_runs_twice_with_identical_tables(name):
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_html", ROOT / "tools" / "build_html.py")
    build_html = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_html)
    first = _tables(build_html.execute_notebook(ROOT / "notebooks" / name))
    second = _tables(build_html.execute_notebook(ROOT / "notebooks" / name))
    assert first and first == second
