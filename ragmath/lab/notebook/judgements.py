"""Judgements on disk: a qrels CSV written whole after every judgement, and a pool as a spreadsheet template.

:class:`JudgementFile` (the labelling widget's store) rewrites its file atomically under the file's lock
after each change, so nothing is lost and two writers keep each other's judgements; an existing file is
rewritten row for row (only the grade cells judged change). :func:`write_template` and :func:`read_labels`
take a pool to a spreadsheet and back; the template is written once (run again, it appends the new pairs
and keeps every row), and the widget may work on it too. Both files are plain qrels CSV
(``question,id,grade``, other columns ignored; a blank grade is a pair not judged yet, left out), read by
:func:`ragmath.io.read_qrels`, so ``python -m ragmath evaluate`` and ``compare`` read them as they are; a
cell a spreadsheet would run as a formula gets an apostrophe in front (:func:`ragmath.io.escape_formula`),
which the reader takes off again. :func:`merge_labels` joins the two routes' labels and lists the pairs
they grade differently.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd
import polars as pl

from ragmath.io import escape_formula, qrels_table, read_qrels, unescape_formula, write_qrels
from ragmath.io.writers import atomic_write, locked
from ragmath.lab.messages import message
from ragmath.validation import surrogate_problem

__all__ = ["JudgementFile", "pool_items", "write_template", "read_labels", "merge_labels"]

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

    An existing file is read first (a template with blank grades too), so a new session resumes with
    everything judged before; :attr:`grades` is the file as last written. Raises ``ValueError`` for a
    grade outside 0, 1, 2 or an ID a qrels file refuses, before anything changes.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> store = JudgementFile(folder / "labels.csv")
    >>> store.set("q1", "a", 2)
    >>> JudgementFile(folder / "labels.csv").grades
    {('q1', 'a'): 2}
    """

    def __init__(self, path: Any) -> None:
        self.path = Path(os.fspath(path))
        self.grades = self._read()

    def _read(self) -> dict[tuple[str, str], int]:
        labels = read_labels(self.path) if self.path.exists() else {}
        return {(q, i): grade for q, items in labels.items() for i, grade in items.items()}

    def set(self, question: str, item: str, grade: int) -> None:
        """Record one judgement (replacing an earlier one of the same pair) and rewrite the file."""
        _check([(question, item)], grade)
        self._change(lambda grades: {(question, item): int(grade)})

    def set_unjudged(self, pairs: list[tuple[str, str]], grade: int) -> bool:
        """Give ``grade`` to those of ``pairs`` the file holds no grade for, unless one is graded above 0.

        Decided on the file as it is under the lock, not on :attr:`grades`: a grade another writer saved
        since counts. Returns False (nothing written) when a pair is graded above 0.
        """
        _check(pairs, grade)

        def unjudged(grades: dict[tuple[str, str], int]) -> dict[tuple[str, str], int] | None:
            if any(grades.get(pair, 0) > 0 for pair in pairs):
                return None
            return {pair: int(grade) for pair in pairs if pair not in grades}

        return self._change(unjudged)

    def _change(self, decide: Any) -> bool:
        """Under the lock: read the file, ``decide`` the new grades from it, write them; False if refused."""
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
                    table = pl.DataFrame([(q, i, g) for (q, i), g in new.items()], orient="row",
                                         schema={"question": pl.String, "id": pl.String, "grade": pl.Int64})
                    write_qrels(table, self.path, "csv")
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

    A new pair is a row at the end (question and ID escaped, other cells blank); the byte-order mark and
    the line ends stay as they were. A question or ID cell another tool wrote unescaped (``=x``) is
    written escaped (``'=x``, read back as the same ID), so the file never holds a formula cell. The file
    was read whole just before (:func:`read_labels`), so its header names question, id and grade and each
    pair is on one row.
    """
    data = path.read_bytes()
    text = data.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    header = [name.strip() for name in rows[0]]
    at = {name: header.index(name) for name in ("question", "id", "grade")}
    row_of = {}
    for row in rows[1:]:
        if len(row) > max(at["question"], at["id"]):
            key = unescape_formula(row[at["question"]]), unescape_formula(row[at["id"]])
            row[at["question"]], row[at["id"]] = map(escape_formula, key)  # the same IDs, never a formula
            row_of[key] = row
    for (question, item), grade in new.items():
        row = row_of.get((question, item))
        if row is None:
            row = [""] * len(header)
            row[at["question"]], row[at["id"]] = escape_formula(question), escape_formula(item)
            rows.append(row)
        row.extend([""] * (at["grade"] + 1 - len(row)))
        row[at["grade"]] = str(grade)
    crlf = text.partition("\n")[0].endswith("\r")  # the header's line end (a text cell may hold others)
    bom = b"\xef\xbb\xbf" if data.startswith(b"\xef\xbb\xbf") else b""
    atomic_write(path, bom + _csv_text(rows, "\r\n" if crlf else "\n").encode("utf-8"))


def _csv_text(rows: list[list[Any]], end: str) -> str:
    """CSV text of ``rows``, each ended by ``end``; a cell holding a line break (\\r or \\n) is quoted.

    >>> _csv_text([["q1", "a\\rb"]], "\\n")
    'q1,"a\\rb"\\n'
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")  # csv quotes a cell holding a character of this
    for row in rows:
        writer.writerow(row)
        buffer.seek(buffer.tell() - 2)  # the row's own \r\n is replaced by ``end``
        buffer.truncate()
        buffer.write(end)
    return buffer.getvalue()


def write_template(pool: Any, path: Any, *, questions: Mapping[str, str] | None = None,
                   texts: Mapping[str, str] | None = None) -> dict[str, int]:
    """Write the pool as a spreadsheet template once; on an existing template, append only the new pairs.

    Columns: ``question,id,grade`` (grade empty), then ``question_text`` and ``text`` (when ``questions``
    / ``texts`` are given), then the pool's other columns, lists joined with ``;``. Fill in the grades (0,
    1 or 2; blank for "not yet") and read them with :func:`read_labels` (or ``python -m ragmath evaluate``).
    An existing template is never rewritten: every row stays as it is (rows the pool lacks too), and a
    blank-grade row in the file's columns is appended for each new pair, under the file's lock (as
    :class:`JudgementFile` writes). Returns the rows in the file, those with a grade, those added now:

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "t.csv"
    >>> write_template(pl.DataFrame({"question": ["q1"], "id": ["a"]}), path, texts={"a": "taxi"})
    {'rows': 1, 'graded': 0, 'added': 1}
    >>> _ = path.write_text("question,id,grade,text\\nq1,a,2,taxi\\n")  # graded in a spreadsheet
    >>> write_template(pl.DataFrame({"question": ["q1", "q1"], "id": ["a", "b"]}), path,
    ...                texts={"a": "taxi", "b": "hotel"})
    {'rows': 2, 'graded': 1, 'added': 1}
    >>> print(path.read_text(), end="")
    question,id,grade,text
    q1,a,2,taxi
    q1,b,,hotel

    Raises ``ValueError`` (the file left as it was) for a pool ID the qrels reader refuses, a cell or column
    name no UTF-8 file can hold, a file that is not a template or whose labels do not read.
    """
    items = pool_items(pool)
    columns: dict[str, list[Any]] = {"question": [q for q, _ in items], "id": [i for _, i in items],
                                     "grade": [""] * len(items)}
    if questions is not None:
        columns["question_text"] = [questions.get(q, "") for q, _ in items]
    if texts is not None:
        columns["text"] = [texts.get(i, "") for _, i in items]
    for name in pool.columns:
        if str(name) not in columns:
            columns[str(name)] = [_cell(v) for v in pool[name].to_list()]
    _check_encodable(columns)
    _check(items, 0)  # each ID as the reader will check it: a template that cannot be read back is refused
    path = Path(os.fspath(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    with locked(path):
        if path.exists() and path.stat().st_size:
            return _append_to_template(path, items, columns)
        rows = [[_text(name) for name in columns]]
        rows += [[_text(c) for c in row] for row in zip(*columns.values(), strict=True)]
        atomic_write(path, _csv_text(rows, "\n").encode("utf-8"))
        return {"rows": len(items), "graded": 0, "added": len(items)}


def _append_to_template(path: Path, items: list[tuple[str, str]],
                        columns: Mapping[str, list[Any]]) -> dict[str, int]:
    """Append a blank row for each of ``items`` the template at ``path`` lacks; its old bytes stay."""
    data = path.read_bytes()
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig", errors="replace"), newline="")))
    header = [name.strip() for name in (rows or [[]])[0]]
    if not {"question", "id", "grade"} <= set(header):
        raise ValueError(message("notebook.judgements.not_a_template", path=str(path), header=header))
    graded = sum(map(len, read_labels(path).values()))  # a bad grade or ID refused, naming file and line
    q, i = header.index("question"), header.index("id")
    held = {(unescape_formula(row[q]), unescape_formula(row[i])) for row in rows[1:] if len(row) > max(q, i)}
    new = [position for position, item in enumerate(items) if item not in held]
    if new:
        end = "\r\n" if data.partition(b"\n")[0].endswith(b"\r") else "\n"  # the header's line end
        tail = _csv_text([[_text(columns[n][p]) if n in columns else "" for n in header] for p in new], end)
        atomic_write(path, data + (b"" if data.endswith(b"\n") else end.encode()) + tail.encode("utf-8"))
    return {"rows": len(held) + len(new), "graded": graded, "added": len(new)}


def _check_encodable(columns: Mapping[str, list[Any]]) -> None:
    """Refuse, naming it, a cell or column name a UTF-8 file cannot hold (a lone surrogate)."""
    for name, cells in columns.items():
        if problem := surrogate_problem(name):
            raise ValueError(message("notebook.judgements.column_name", column=repr(name), problem=problem))
        for row, cell in enumerate(cells, start=1):
            problem = surrogate_problem(cell) if isinstance(cell, str) else None
            if problem:
                raise ValueError(message("notebook.judgements.not_encodable", row=row, line=row + 1,
                                         column=repr(name), cell=repr(cell), problem=problem))


def _cell(value: Any) -> Any:
    return ";".join(map(str, value)) if isinstance(value, (list, tuple)) else value


def _text(cell: Any) -> Any:
    """A cell a spreadsheet shows as text (:func:`ragmath.io.escape_formula`); numbers as they are."""
    return escape_formula(cell) if isinstance(cell, str) else cell


def read_labels(path: Any) -> dict[str, dict[str, int]]:
    """The labelled rows of a qrels CSV or a filled-in template, question -> {id: grade}; blank = not yet.

    The file is read as CSV by :func:`ragmath.io.read_qrels` (whatever its extension), the one reader of
    labels: a row whose grade cell is blank is a pair not judged yet and is left out, other columns are
    ignored, an escaped question or ID (``'=x``) comes back unescaped.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "t.csv").write_text("question,id,grade,text\\nq1,a,2,x\\nq1,b,,y\\n", encoding="utf-8")
    >>> read_labels(folder / "t.csv")
    {'q1': {'a': 2}}

    Header names may carry spaces (``question, id, grade``). A line break inside a quoted cell (``\\r``
    or ``\\n``) is text; a lone ``\\r`` ending a line (old Mac line endings) is refused, naming the line.

    Raises ``ValueError`` naming the file and line for a file not in UTF-8, a grade that is not blank nor
    a whole number 0-30, an empty or spaced question or ID (on a blank row too), a duplicate pair, ...
    (everything the qrels reader refuses).
    """
    return read_qrels(os.fspath(path), "csv")


def merge_labels(
    sources: Mapping[str, Mapping[str, Mapping[str, int]]],
) -> tuple[dict[str, dict[str, int]], pd.DataFrame]:
    """The union of several label sets, and a table of the pairs they grade differently (left out).

    ``sources``: name -> labels (e.g. ``{"widget": read_labels(judgements), "template": read_labels(t)}``).
    A pair graded the same in several sources is kept once; a pair graded differently is left out and
    listed in the conflicts table (``question``, ``id``, then each source's grade or ``<NA>``), sorted by
    question and id: settle it in one file and merge again. The inputs are not changed.

    >>> labels, conflicts = merge_labels({"widget": {"q1": {"a": 2, "b": 0}},
    ...                                   "template": {"q1": {"a": 2, "b": 1, "c": 0}, "q2": {"x": 1}}})
    >>> labels
    {'q1': {'a': 2, 'c': 0}, 'q2': {'x': 1}}
    >>> conflicts
      question id  widget  template
    0       q1  b       0         1

    Raises ``ValueError`` naming the source for labels the qrels reader refuses, or named question or id.
    """
    grades: dict[tuple[str, str], dict[str, int]] = {}  # pair -> {source: grade}, pairs in first-seen order
    for name, labels in sources.items():
        try:
            if name in ("question", "id"):
                raise ValueError("a source may not be named question or id (the table's first columns)")
            checked = read_qrels(labels)  # a checked copy: IDs as text, grades 0-30
        except (TypeError, ValueError) as error:
            raise ValueError(message("notebook.judgements.merge", name=repr(name), error=error)) from None
        for question, items in checked.items():
            for item, grade in items.items():
                grades.setdefault((question, item), {})[name] = grade
    merged: dict[str, dict[str, int]] = {}
    conflicts = []
    for (question, item), given in grades.items():
        if len(values := set(given.values())) == 1:
            merged.setdefault(question, {})[item] = values.pop()
        else:
            conflicts.append({"question": question, "id": item, **given})
    table = pd.DataFrame(conflicts, columns=["question", "id", *sources])
    table = table.astype({"question": object, "id": object} | {name: "Int64" for name in sources})
    return merged, table.sort_values(["question", "id"], ignore_index=True)
