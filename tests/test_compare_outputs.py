"""tools/compare_outputs.py: a moved number is a difference; run-to-run noise is not."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("compare_outputs", ROOT / "tools" / "compare_outputs.py")
compare_outputs = importlib.util.module_from_spec(spec)
sys.modules["compare_outputs"] = compare_outputs
spec.loader.exec_module(compare_outputs)


def _executed(folder: Path, outputs: list[list[dict]]) -> None:
    folder.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.cells.append(nbformat.v4.new_markdown_cell("# 99 · A title"))
    for i, outs in enumerate(outputs):
        cell = nbformat.v4.new_code_cell("x")
        cell.id = f"c{i}"
        cell.outputs = [nbformat.from_dict(o) for o in outs]
        nb.cells.append(cell)
    nbformat.write(nb, folder / "a.ipynb")


def _stream(text: str) -> dict:
    return {"output_type": "stream", "name": "stdout", "text": text}


def test_a_changed_number_is_reported(tmp_path):
    _executed(tmp_path / "before", [[_stream("nDCG@5 0.716\n")]])
    _executed(tmp_path / "after", [[_stream("nDCG@5 0.717\n")]])
    compared, report = compare_outputs.differences(tmp_path / "before", tmp_path / "after", set())
    assert compared == 1 and len(report) == 1 and "0.717" in report[0]


def test_noise_and_cut_streams_are_not_differences(tmp_path):
    _executed(tmp_path / "before", [[_stream("took 12.5 ms, sealed 2026-12-04T00:55:34+00:00\n")],
                                    [_stream("mean 0.5\n")]])
    _executed(tmp_path / "after", [[_stream("took 9 ms, sealed 2026-12-04T01:44:30+00:00\n")],
                                   [_stream("mean "), _stream("0.5\n")]])
    assert compare_outputs.differences(tmp_path / "before", tmp_path / "after", set()) == (2, [])


def test_skipped_cells_and_new_cells_are_not_compared(tmp_path):
    _executed(tmp_path / "before", [[_stream("12 ms\n")], [_stream("1\n")]])
    _executed(tmp_path / "after", [[_stream("table of 3\n")], [_stream("1\n")], [_stream("new\n")]])
    assert compare_outputs.differences(tmp_path / "before", tmp_path / "after", {"c0"}) == (1, [])
    compared, report = compare_outputs.differences(tmp_path / "before", tmp_path / "after", set())
    assert compared == 2 and len(report) == 1
