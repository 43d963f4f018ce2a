"""Notebooks 08 and 09 print their readings in lines a notebook shows whole: JupyterLab breaks a longer
output line wherever it runs out of room, in the middle of a word ("los" / "ses 7") at about 100
characters beside the file browser. A reading longer than that is printed as a line and continuation lines
indented by two spaces (``tests/outputs.py``'s ``unwrapped`` joins them back for the tests that read them).

Checked: every line that starts at the margin, in both editions, measured in display columns (a Chinese
character takes two). Indented lines are details or items under a line, and may run longer.
"""
import pytest
from outputs import cell_outputs, wide
from test_notebooks import NOTEBOOK_DIR

WIDEST = 100


def columns(line: str) -> int:
    """The columns a line takes in a monospaced font: two for a wide (Chinese) character, one otherwise.

    >>> columns("abc"), columns("区间 0")
    (3, 6)
    """
    return sum(2 if wide(c) else 1 for c in line)


def too_wide(text: str) -> list[str]:
    """The lines of a printed text that start at the margin and take more than :data:`WIDEST` columns."""
    return [line for line in text.splitlines() if line[:1].strip() and columns(line) > WIDEST]


def test_a_long_reading_is_found_and_its_continuations_pass():
    long = "x" * 60 + "；" * 21
    assert too_wide(f"{long}\n  {long}\n    {long}") == [long]
    assert too_wide("short\n  continued") == []


@pytest.mark.notebooks
@pytest.mark.slow
@pytest.mark.parametrize("name", ["08_your_own_system.ipynb", "09_release_gate.ipynb",
                                  "zh/08_your_own_system.ipynb", "zh/09_release_gate.ipynb"])
def test_every_reading_line_fits_a_notebook(name, executed):
    nb = executed(NOTEBOOK_DIR / name)
    found = [(cell.get("id"), line) for cell in nb.cells if cell.cell_type == "code"
             for out in cell_outputs(cell) if out.get("output_type") == "stream"
             for line in too_wide(out.get("text", ""))]
    assert not found, f"{name}: lines wider than {WIDEST} columns (cell, line): {found}"
