"""Judgements on disk: a qrels CSV written whole after every judgement, and a pool as a spreadsheet template.

The labelling widget (:mod:`ragmath.lab.notebook.labelling`) keeps its judgements in a
:class:`JudgementFile`: every change re-reads the file and rewrites it atomically (a temporary file
renamed over the old one) under the file's lock (:func:`ragmath.io.writers.locked`), so a kernel restart,
a crash or a closed laptop loses nothing, never leaves half a file, and two widgets or two processes
labelling into one file keep each other's judgements. An existing file is rewritten row for row: only
the grade cells of the pairs judged change, new pairs are added at the end, and everything else (a
filled-in template's blank rows and text columns, an ID's protective apostrophe) stays as written.

The same pool can go out to a spreadsheet: :func:`write_template` writes one row per pool item with an
empty ``grade`` column and the texts to read; :func:`read_labels` reads it back with ragmath's qrels
reader, a blank grade meaning "not yet labelled". Both files are plain qrels CSV (``question,id,grade``,
other columns ignored), so ``python -m ragmath evaluate`` reads them as they are. In both, a
cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return (after any apostrophes) gets
one more apostrophe in front, so a spreadsheet shows it as text, never runs it as a formula; ragmath's
qrels reader (and so :func:`read_labels` and ``evaluate``) takes that apostrophe off the questions and IDs
again (:func:`ragmath.io.escape_formula`).
"""

from __future__ import annotations

import csv
import io
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import polars as pl

from ragmath.io import (
    escape_formula,
    qrels_table,
    read_qrels,
    unescape_formula,
    write_qrels,
)
from ragmath.io.writers import atomic_write, locked
from ragmath.lab.messages import message

__all__ = ["JudgementFile", "pool_items", "write_template", "read_labels"]

#: The grades a person gives: 0 irrelevant, 1 helps, 2 answers directly.
GRADES = (0, 1, 2)


def pool_items(pool: Any) -> list[tuple[str, str]]:
    """The (question, id) pairs of a pool table (pandas or polars, columns ``question`` and ``id``), in order.

    >>> pool_items(pl.DataFrame({"question": ["q1", "q1"], "id": ["b", "a"], "best rank": [1, 2]}))
    [('q1', 'b'), ('q1', 'a')]

    Raises ``ValueError`` when a column is missing or a pair is listed twice.
    """
    columns = list(getattr(pool, "columns", []))
    missing = [c for c in ("question", "id") if c not in columns]
    if missing:
        raise ValueError(message("notebook.judgements.pool_columns", missing=missing, columns=columns))
    items = [(str(q), str(i)) for q, i in zip(list(pool["question"]), list(pool["id"]), strict=True)]
    seen: set[tuple[str, str]] = set()
    for item in items:
        if item in seen:
            raise ValueError(message("notebook.judgements.pair_twice", question=repr(item[0]),
                                     item=repr(item[1])))
        seen.add(item)
    return items


class JudgementFile:
    """The judgements of one person in one qrels CSV: each change re-read, merged and rewritten under a lock.

    >>> folder = Path(tempfile.mkdtemp())
    >>> store = JudgementFile(folder / "labels.csv")
    >>> store.set("q1", "a", 2)
    >>> JudgementFile(folder / "labels.csv").grades
    {('q1', 'a'): 2}

    An existing file is read first (a template with blank grades too, see :func:`read_labels`), so a new
    session resumes with everything judged before; :attr:`grades` is the file as last written. Raises
    ``ValueError`` for a grade outside 0, 1, 2 or an ID a qrels file refuses, before anything changes.
    """

    def __init__(self, path: Any) -> None:
        self.path = Path(os.fspath(path))
        self.grades = self._read()

    def _read(self) -> dict[tuple[str, str], int]:
        labels = read_labels(self.path) if self.path.exists() else {}
        return {(q, i): grade for q, items in labels.items() for i, grade in items.items()}

    def set(self, question: str, item: str, grade: int) -> None:
        """Record one judgement (replacing an earlier one of the same pair) and rewrite the file."""
        self.set_many([(question, item)], grade)

    def set_many(self, pairs: list[tuple[str, str]], grade: int) -> None:
        """Give every pair the same grade: under the file's lock, read it, add them, write it once."""
        _check(pairs, grade)
        self._change(lambda grades: {pair: int(grade) for pair in pairs})

    def set_unjudged(self, pairs: list[tuple[str, str]], grade: int) -> bool:
        """Give ``grade`` to those of ``pairs`` the file holds no grade for, unless one is graded above 0.

        Decided on the file as it is under the lock, not on :attr:`grades`: a grade another widget or
        process wrote since is kept, and counts. Returns False (nothing written) when a pair is
        graded above 0.
        """
        _check(pairs, grade)

        def unjudged(grades: dict[tuple[str, str], int]) -> dict[tuple[str, str], int] | None:
            if any(grades.get(pair, 0) > 0 for pair in pairs):
                return None
            return {pair: int(grade) for pair in pairs if pair not in grades}

        return self._change(unjudged)

    def _change(self, decide: Any) -> bool:
        """Under the lock: read the file, ``decide`` the new grades from it, write them; False if refused.

        An existing file is rewritten row for row (:func:`_rewrite`): a template's blank rows and
        text columns, and each cell as it was written, stay; a new file is a plain qrels CSV.
        """
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with locked(self.path):
            grades = self._read()
            new = decide(grades)
            if new is None:
                self.grades = grades
                return False
            if new:
                if self.path.exists() and self.path.stat().st_size:
                    _rewrite(self.path, new)
                else:
                    write_qrels(_table(new), self.path, "csv")
            self.grades = grades | new
        return True


def _check(pairs: list[tuple[str, str]], grade: Any) -> None:
    """Refuse a grade outside 0, 1, 2 or an ID the file's writer refuses, before anything changes."""
    if isinstance(grade, bool) or grade not in GRADES:
        raise ValueError(message("notebook.judgements.bad_grade", grade=repr(grade)))
    labels: dict[str, dict[str, int]] = {}
    for question, item in pairs:
        labels.setdefault(question, {})[item] = 0
    qrels_table(labels)  # each ID checked as the file's writer checks it (a mapping: errors name the ID)


def _rewrite(path: Path, new: Mapping[tuple[str, str], int]) -> None:
    """Write ``new`` grades into the CSV at ``path``, keeping every other row, column and cell as it is.

    A pair the file holds gets its grade cell changed; a new pair is a row at the end (its question
    and ID escaped as :func:`write_template` escapes them, other cells blank). The byte-order mark and
    the line ends (``\\r\\n`` or ``\\n``) stay as they were. The file was read whole just before
    (:func:`read_labels`), so its header names question, id and grade and each pair is on one row.
    """
    data = path.read_bytes()
    text = data.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    header = [name.strip() for name in rows[0]]
    at = {name: header.index(name) for name in ("question", "id", "grade")}
    row_of = {(unescape_formula(row[at["question"]]), unescape_formula(row[at["id"]])): row
              for row in rows[1:] if len(row) > max(at["question"], at["id"])}
    for (question, item), grade in new.items():
        row = row_of.get((question, item))
        if row is None:
            row = [""] * len(header)
            row[at["question"]], row[at["id"]] = escape_formula(question), escape_formula(item)
            rows.append(row)
        row.extend([""] * (at["grade"] + 1 - len(row)))
        row[at["grade"]] = str(grade)
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n" if "\r\n" in text else "\n").writerows(rows)
    bom = b"\xef\xbb\xbf" if data.startswith(b"\xef\xbb\xbf") else b""
    atomic_write(path, bom + buffer.getvalue().encode("utf-8"))


def _table(grades: Mapping[tuple[str, str], int]) -> pl.DataFrame:
    return pl.DataFrame([(q, i, g) for (q, i), g in grades.items()],
                        schema={"question": pl.String, "id": pl.String, "grade": pl.Int64}, orient="row")


def write_template(pool: Any, path: Any, *, questions: Mapping[str, str] | None = None,
                   texts: Mapping[str, str] | None = None) -> None:
    """Write the pool as a spreadsheet template: ``question,id,grade`` (grade empty), then the texts.

    Columns after ``grade``: ``question_text`` and ``text`` (when ``questions`` / ``texts`` are given),
    then the pool's other columns (e.g. best rank, versions), lists joined with ``;``. Fill in the grade
    column (0, 1 or 2; leave it blank for "not yet") and read it back with :func:`read_labels`. A text
    cell that a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``, ...) gets an apostrophe
    in front, which the spreadsheet shows as text.

    >>> folder = Path(tempfile.mkdtemp())
    >>> pool = pl.DataFrame({"question": ["q1"], "id": ["a"], "versions": [["bm25", "rrf"]]})
    >>> write_template(pool, folder / "t.csv", texts={"a": "taxi: 80 yuan"})
    >>> print((folder / "t.csv").read_text(), end="")
    question,id,grade,text,versions
    q1,a,,taxi: 80 yuan,bm25;rrf
    """
    items = pool_items(pool)
    columns: dict[str, list[Any]] = {"question": [q for q, _ in items], "id": [i for _, i in items],
                                     "grade": [""] * len(items)}
    if questions is not None:
        columns["question_text"] = [questions.get(q, "") for q, _ in items]
    if texts is not None:
        columns["text"] = [texts.get(i, "") for _, i in items]
    for name in pool.columns:
        if name not in columns:
            columns[str(name)] = [_cell(v) for v in _values(pool[name])]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([_text(name) for name in columns])
    writer.writerows([_text(c) for c in row] for row in zip(*columns.values(), strict=True))
    atomic_write(path, buffer.getvalue().encode("utf-8"))


def _values(column: Any) -> list[Any]:
    """A pandas or polars column as Python values."""
    return column.to_list() if hasattr(column, "to_list") else column.tolist()


def _cell(value: Any) -> Any:
    return ";".join(map(str, value)) if isinstance(value, (list, tuple)) else value


def _text(cell: Any) -> Any:
    """A cell a spreadsheet shows as text (:func:`ragmath.io.escape_formula`); numbers as they are."""
    return escape_formula(cell) if isinstance(cell, str) else cell


def read_labels(path: Any) -> dict[str, dict[str, int]]:
    """The labelled rows of a qrels CSV or a filled-in template, question -> {id: grade}; blank = not yet.

    The file is read by ragmath's qrels reader (:func:`ragmath.io.read_qrels`), with the rows whose
    grade is blank left out, so a mistake is reported with this file's name and line, as for any qrels file.
    A question or ID escaped by :func:`write_template` (an apostrophe before ``=``, ``+``, ``-``, ``@``)
    is returned as it was before, as ``python -m ragmath evaluate`` reads it
    (:func:`ragmath.io.unescape_formula`).

    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "t.csv").write_text("question,id,grade,text\\nq1,a,2,x\\nq1,b,,y\\n", encoding="utf-8")
    >>> read_labels(folder / "t.csv")
    {'q1': {'a': 2}}

    Raises ``ValueError`` for a grade that is not blank nor a whole number 0-9, a duplicate pair, ...
    (everything the qrels reader refuses).
    """
    path = Path(os.fspath(path))
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start}); a judgement file is a "
                         "CSV saved as UTF-8 (question,id,grade): point to that file, or save it as UTF-8 "
                         "CSV") from None
    lines = text.split("\n")
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader, None)
    if header is None or "grade" not in header:
        return _read_table(path, path)  # the reader says what is missing
    column = header.index("grade")
    start = reader.line_num  # physical lines read so far (a quoted field may span several)
    blank = []
    for row in reader:
        end = reader.line_num
        if row and len(row) > column and row[column].strip() == "":
            blank.append((start, end))
        start = end
    if not blank:
        return _read_table(path, path)
    for first, last in blank:  # blank lines are skipped by the reader, so line numbers stay the file's
        lines[first:last] = [""] * (last - first)
    handle = tempfile.NamedTemporaryFile("wb", dir=path.parent, prefix=f".{path.name}.", suffix=".csv",
                                         delete=False)
    try:
        with handle:
            handle.write("\n".join(lines).encode("utf-8"))
        return _read_table(Path(handle.name), path)
    finally:
        os.unlink(handle.name)


def _read_table(source: Path, path: Path) -> dict[str, dict[str, int]]:
    """The labels of a qrels CSV (the reader takes a template's escapes off); errors name ``path``."""
    try:
        return read_qrels(source, "csv")
    except ValueError as error:
        raise ValueError(str(error).replace(str(source), str(path))) from None
