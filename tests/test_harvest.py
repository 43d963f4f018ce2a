"""The generated module ``ragmath/lab/workbook.py`` is what the notebooks' ``#@save`` cells say, and the
Chinese notebooks save the same cells (tools/harvest.py)."""

from __future__ import annotations

import ast
import importlib.util
import shutil
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("harvest", ROOT / "tools" / "harvest.py")
harvest = importlib.util.module_from_spec(spec)
sys.modules["harvest"] = harvest
spec.loader.exec_module(harvest)


def test_committed_module_equals_a_fresh_harvest():
    assert harvest.stale() is None, harvest.stale()


def test_a_hand_edited_module_is_stale(tmp_path):
    edited = tmp_path / "workbook.py"
    text = harvest.MODULE.read_text(encoding="utf-8")
    edited.write_text(text.replace("def in_index(", "def in_index_edited(", 1), encoding="utf-8")
    problem = harvest.stale(edited)
    assert problem is not None and "in_index_edited" in problem and "python tools/harvest.py" in problem


def test_a_changed_cell_makes_the_module_stale(tmp_path):
    notebooks = tmp_path / "notebooks"
    shutil.copytree(ROOT / "notebooks", notebooks, ignore=shutil.ignore_patterns("own_system_work", "zh"))
    path = notebooks / "01_unit_of_evaluation.ipynb"
    nb = nbformat.read(path, as_version=4)
    cell = next(c for c in nb.cells if c.cell_type == "code" and harvest.is_saved(c.source))
    cell.source += "\n\nEXTRA = 1\n"
    nbformat.write(nb, path)
    assert "EXTRA = 1" in harvest.harvest(notebooks)
    assert harvest.stale(notebook_dir=notebooks) is not None


def test_a_saved_cell_that_prints_is_refused(tmp_path):
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("#@save\ndef f():\n    return 1\n\nprint(f())")
    cell.id = "c1"
    nb.cells.append(cell)
    nbformat.write(nb, notebooks / "01_x.ipynb")
    with pytest.raises(ValueError, match=r"01_x.ipynb, cell c1 \[0\], line 4: .*Expr"):
        harvest.harvest(notebooks)


def test_a_name_saved_twice_is_refused(tmp_path):
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    for name in ("01_a.ipynb", "02_b.ipynb"):
        nb = nbformat.v4.new_notebook()
        nb.cells.append(nbformat.v4.new_code_cell("#@save\ndef f():\n    return 1"))
        nbformat.write(nb, notebooks / name)
    with pytest.raises(ValueError, match="f is defined again"):
        harvest.harvest(notebooks)


def test_every_section_names_its_notebook_cell():
    text = harvest.MODULE.read_text(encoding="utf-8")
    for path in harvest.harvest_notebooks():
        for cell_id, index, _ in harvest.saved_cells(path):
            assert f"# ---- notebooks/{path.name}, cell {cell_id} [{index}]" in text


def _defined(source: str) -> list[str]:
    body = ast.parse(source).body
    return [n.name for n in body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]


def test_chinese_notebooks_save_the_same_cells():
    for english in harvest.harvest_notebooks():
        chinese = english.parent / "zh" / english.name
        zh_cells = {cell_id: source for cell_id, _, source in harvest.saved_cells(chinese)}
        en_cells = {cell_id: source for cell_id, _, source in harvest.saved_cells(english)}
        assert list(zh_cells) == list(en_cells), english.name
        for cell_id, source in en_cells.items():
            assert _defined(zh_cells[cell_id]) == _defined(source), (english.name, cell_id)


def test_the_generated_module_imports_and_exports_what_the_cells_define():
    from ragmath.lab import workbook

    saved = [name for path in harvest.harvest_notebooks()
             for _, _, source in harvest.saved_cells(path) for name in _defined(source.split("\n", 1)[1])]
    assert saved and all(name in workbook.__all__ and hasattr(workbook, name) for name in saved)
