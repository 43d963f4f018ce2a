"""Notebooks 06 and 07 give identical tables on a second run (solutions: see test_solutions.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from outputs import as_a_busy_kernel_sends, cell_outputs, split_streams_requested

ROOT = Path(__file__).resolve().parent.parent


def _tables(nb) -> list[str]:
    """Every text output except the versions cell and the latency table (which varies by design)."""
    out = []
    for cell in nb.cells:
        if cell.cell_type != "code" or "latency" in cell.source or "Versions in use" in cell.source:
            continue
        for o in cell_outputs(cell):
            if o.output_type == "stream":
                out.append(o.text)
            elif o.output_type in ("execute_result", "display_data"):
                data = o.get("data", {})
                out.append(str(data.get("text/markdown", data.get("text/plain", ""))))
    return out


TWICE = [ROOT / "notebooks" / name for name in ("06a_ablation_table.ipynb", "06b_tuning_and_rows.ipynb",
                                                   "07_honest_numbers.ipynb")]


@pytest.mark.notebooks
@pytest.mark.slow
@pytest.mark.parametrize("path", TWICE, ids=lambda p: p.name)
def test_notebook_runs_twice_with_identical_tables(path, executed):
    """The run every notebook test reads, and a second run here, give the same tables."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_html", ROOT / "tools" / "build_html.py")
    build_html = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_html)
    first = _tables(executed(path))
    second = build_html.execute_notebook(path)
    if split_streams_requested():
        second = as_a_busy_kernel_sends(second, seed=1)
    second = _tables(second)
    assert first and first == second
