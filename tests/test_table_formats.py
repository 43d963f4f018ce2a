"""One number format per column: in every table a notebook shows, the numbers of a column are written with
the same number of decimals, so 0.5 and 0.500, or 0.0 and 0.00 for the same absent score, never meet.

Two kinds of table are exempt, each listed with its reason in ``EXEMPT``: a column written by 05's ``fmt``
(the article's way of printing an RRF score: 4 decimals, trailing zeros dropped, so 0.75 beside 0.6667), and
a table whose rows are different quantities (a record shown as one column: a mean beside a p-value).
"""
import re
from html.parser import HTMLParser

import pytest
from outputs import cell_outputs
from test_notebooks import NOTEBOOK_DIR, NOTEBOOKS, _id

#: A cell that is one number: a sign, digits, decimals, maybe a percent sign.
NUMBER = re.compile(r"[+\-−]?\d+(?:\.(\d+))?%?")

#: (notebook file name, cell id) -> why its tables may mix decimals in a column.
EXEMPT = {
    ("05_rrf.ipynb", "d400d572"): "RRF scores written by fmt, as the article prints them (0.75, 0.6667)",
    ("05_rrf.ipynb", "2e8344e5"): "RRF scores written by fmt, as the article prints them",
    ("05_rrf.ipynb", "f8390f90"): "scores and margins written by fmt, as the article prints them (1, 0.6667)",
    ("05b_tools_for_the_ablation.ipynb", "f1a0c5d3"): "a record: the mean difference beside the p-value",
    ("09_release_gate.ipynb", "rep0903"): "a record: the gate's decision, counts and interval in one column",
}


class _Tables(HTMLParser):
    """The body cells (``td``) of every HTML table, row by row."""

    def __init__(self):
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._row: list[str] | None = None
        self._cell: str | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self._row = []
        elif tag == "td":
            self._cell = ""

    def handle_endtag(self, tag):
        if tag == "td" and self._row is not None and self._cell is not None:
            self._row.append(self._cell.strip())
            self._cell = None
        elif tag == "tr" and self.tables and self._row:
            self.tables[-1].append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data


def mixed_columns(html: str) -> list[list[str]]:
    """The columns of an HTML table whose numbers are written with different numbers of decimals.

    >>> mixed_columns("<table><tr><td>0.5</td><td>1.70</td></tr><tr><td>0.667</td><td>0.00</td></tr></table>")
    [['0.5', '0.667']]
    >>> mixed_columns("<table><tr><td>—</td><td>1.0</td></tr><tr><td>3</td><td>0.0</td></tr></table>")
    []
    """
    parser = _Tables()
    parser.feed(html)
    mixed = []
    for rows in parser.tables:
        for column in range(max((len(row) for row in rows), default=0)):
            cells = [row[column] for row in rows if column < len(row)]
            decimals = {len(match.group(1) or "") for cell in cells if (match := NUMBER.fullmatch(cell))}
            if len(decimals) > 1:
                mixed.append(cells)
    return mixed


def test_a_column_of_mixed_decimals_is_found():
    assert mixed_columns("<table><tr><td>0.0</td></tr><tr><td>0.00</td></tr></table>") == [["0.0", "0.00"]]


def test_text_and_one_format_pass():
    assert mixed_columns("<table><tr><td>a</td><td>0.50</td></tr><tr><td>b</td><td>—</td></tr></table>") == []


@pytest.mark.notebooks
@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_every_table_column_shows_one_number_format(path, executed):
    nb = executed(path)
    found = []
    for cell in nb.cells:
        if cell.cell_type != "code" or (path.name.replace("_solutions", ""), cell.get("id")) in EXEMPT:
            continue
        for out in cell_outputs(cell):
            html = out.get("data", {}).get("text/html", "")
            html = "".join(html) if isinstance(html, list) else html
            if "<table" in html:
                found += [(cell.get("id"), column) for column in mixed_columns(html)]
    assert not found, f"{_id(path)}: columns mixing decimals (cell, cells): {found}"


@pytest.mark.notebooks
@pytest.mark.slow
@pytest.mark.parametrize("edition", ["", "zh"])
def test_the_05_raw_score_table_writes_absent_scores_alike(edition, executed):
    """05's raw scores: BM25, cosine and their sum each show two decimals, so a chunk one searcher did not
    return reads 0.00 in either score column (it read 0.0 under BM25 and 0.00 under cosine)."""
    nb = executed(NOTEBOOK_DIR / edition / "05_rrf.ipynb")
    cell = next(c for c in nb.cells if c.get("id") == "63524ddd")
    html = "".join(out.get("data", {}).get("text/html", "") for out in cell_outputs(cell))
    parser = _Tables()
    parser.feed(html)
    (rows,) = parser.tables
    scores = [cell for row in rows for cell in row[:3]]  # BM25, cosine, sum; the share is a percentage
    assert len(scores) == 12 and all(re.fullmatch(r"\d+\.\d\d", s) for s in scores), scores
    assert scores.count("0.00") == 2, scores
