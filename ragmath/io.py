"""Read and write runs and relevance labels: TREC files, CSV, JSONL and pandas tables.

A **run** is what a retriever returned: question -> ranked IDs (best first), or question ->
{ID: score}. **Qrels** are the labels: question -> {ID: grade}, grades non-negative integers.

Formats
-------
- TREC run, one result a line: ``qid Q0 docid rank score tag`` (six fields).
- TREC qrels, one label a line: ``qid 0 docid grade`` (four fields).
- CSV (header row) or JSONL (one object a line) with keys ``question``, ``id`` and, for a run,
  ``score`` and/or ``rank``; for qrels, ``grade``. Other columns are ignored.
- pandas DataFrames with the same columns (:func:`run_to_frame`, :func:`run_from_frame`, ...).

Fields are separated by runs of spaces or tabs; blank lines are allowed; every other line must
be complete. Files are UTF-8.

Order and ties
--------------
A run read from a TREC file is ordered by its **score**, descending, ties broken by **ID
ascending** (the project's rule for scored runs). The file's rank column must be an integer but
is otherwise ignored, as trec_eval ignores it. trec_eval breaks score ties the other way (docid
descending), so on tied scores the two can order a run differently; ranx keeps whatever order
its dicts hold. A table with a ``score`` column is ordered the same way; a table with only a
``rank`` column is ordered by rank ascending (ranks must be distinct integers within a question;
gaps are allowed, metrics then count positions 1, 2, 3, ...).

Refused input
-------------
Every malformed line raises ``ValueError`` naming the file, the line and the field: too few or too
many fields, a score that is not a finite decimal number, a rank that is not an integer, a grade
that is not an integer or is negative, a duplicate (question, id) pair, an empty or whitespace-
containing ID on writing. Nothing is skipped silently.

Writers use ``repr`` precision for scores, so writing then reading gives back the same floats.
A run given as ranked lists (no scores) is written with scores n, n-1, ..., 1 so any reader
keeps its order. A question with an empty ranking (or no labels) has no line to write and
reads back as absent.
"""

from __future__ import annotations

import csv
import json
import math
import numbers
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = [
    "read_run",
    "write_run",
    "read_qrels",
    "write_qrels",
    "read_trec_run",
    "write_trec_run",
    "read_trec_qrels",
    "write_trec_qrels",
    "run_to_frame",
    "run_from_frame",
    "qrels_to_frame",
    "qrels_from_frame",
    "read_run_frame",
    "read_qrels_frame",
    "order_scored",
    "write_run_frame",
]

PathLike = str | os.PathLike[str]
Ranking = Sequence[str] | Mapping[str, float]
Run = Mapping[str, Ranking]
Qrels = Mapping[str, Mapping[str, int]]

_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_INTEGER = re.compile(r"[+-]?\d+")
_SEP = re.compile(r"[ \t]+")
_WS = re.compile(r"\s")

RUN_FIELDS = ("qid", "Q0", "docid", "rank", "score", "tag")
QRELS_FIELDS = ("qid", "iteration", "docid", "grade")


# --------------------------------------------------------------------------- helpers


class _Where:
    """Where a value came from, for error messages: file + line, or a DataFrame row."""

    __slots__ = ("source", "line", "kind")

    def __init__(self, source: str, line: int | None = None, kind: str = "line") -> None:
        self.source = source
        self.line = line
        self.kind = kind

    def at(self, field: str | None) -> str:
        where = self.source if self.line is None else f"{self.source}, {self.kind} {self.line}"
        return where if field is None else f"{where}, {field}"


def _fail(where: _Where, field: str | None, problem: str) -> ValueError:
    return ValueError(f"{where.at(field)}: {problem}")


def _name(path: PathLike) -> str:
    return os.fspath(path)


def _split_fields(line: str) -> list[str]:
    stripped = line.rstrip("\r\n").strip(" \t")
    return _SEP.split(stripped) if stripped else []


def _text_lines(path: PathLike) -> Iterator[tuple[int, str]]:
    """Yield (line number, text) for each line of a UTF-8 file, refusing bad bytes by line."""
    source = _name(path)
    with open(path, "rb") as handle:
        for lineno, raw in enumerate(handle, start=1):
            try:
                yield lineno, raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ValueError(
                    f"{source}, line {lineno}: not UTF-8 text ({exc.reason} at byte "
                    f"{exc.start}); save the file as UTF-8"
                ) from None


def _trec_records(path: PathLike, layout: str) -> Iterator[tuple[_Where, list[str]]]:
    """Yield (where, fields) for each non-blank line of a TREC file with ``layout``'s field count.

    Refuses a line with another number of fields, and a repeated (qid, docid) pair, by line.
    """
    source = _name(path)
    expected = len(layout.split())
    first_line: dict[tuple[str, str], int] = {}
    for lineno, text in _text_lines(path):
        fields = _split_fields(text)
        if not fields:
            continue
        where = _Where(source, lineno)
        if len(fields) != expected:
            raise _fail(
                where, None,
                f"expected {expected} fields '{layout}' separated by spaces, "
                f"found {len(fields)}: {text.strip()!r}",
            )
        key = (fields[0], fields[2])
        if key in first_line:
            raise _duplicate(where, "field 3 (docid)", key[0], key[1], first_line[key], "line")
        first_line[key] = lineno
        yield where, fields


def _parse_score(text: str, where: _Where, field: str) -> float:
    if not _NUMBER.fullmatch(text):
        raise _fail(where, field, f"{text!r} is not a number; write a decimal such as 0.25 or 1e-3")
    value = float(text)
    if not math.isfinite(value):
        raise _fail(where, field, f"{text!r} is not a finite number; scores must be finite")
    return value


def _parse_int(text: str, where: _Where, field: str, what: str) -> int:
    if not _INTEGER.fullmatch(text):
        if _NUMBER.fullmatch(text):
            raise _fail(where, field, f"{text!r} is not an integer; {what} must be whole numbers")
        raise _fail(where, field, f"{text!r} is not a number; {what} must be whole numbers")
    return int(text)


def _check_grade(value: int, text: Any, where: _Where, field: str) -> int:
    if value < 0:
        raise _fail(
            where, field,
            f"grade {text!r} is negative; grades are 0 (not relevant) or positive integers",
        )
    return value


def _check_id(value: Any, where: _Where, field: str) -> str:
    """Accept str or int IDs (ints become their decimal text); refuse everything else."""
    if isinstance(value, (bool, np.bool_)):
        raise _fail(where, field, f"{value!r} is a boolean, not an ID; IDs are text")
    if isinstance(value, numbers.Integral):
        value = str(int(value))
    if not isinstance(value, str):
        raise _fail(
            where, field,
            f"{value!r} ({type(value).__name__}) is not an ID; IDs are text (or integers)",
        )
    if value == "" or _WS.search(value):
        raise _fail(
            where, field,
            f"ID {value!r} is empty or contains whitespace; TREC fields are separated by "
            "whitespace, so rename it",
        )
    return value


def _duplicate(where: _Where, field: str, question: str, doc: str, first: Any, kind: str) -> ValueError:
    return _fail(
        where, field,
        f"duplicate (question {question!r}, id {doc!r}), first seen on {kind} {first}; each ID may "
        "appear once per question (dedupe first, e.g. ragmath.units.dedupe)",
    )


def order_scored(scores: Mapping[str, float]) -> dict[str, float]:
    """Return ``scores`` as a new dict ordered by score descending, then ID ascending.

    >>> order_scored({"b": 1.0, "a": 1.0, "c": 2.0})
    {'c': 2.0, 'a': 1.0, 'b': 1.0}
    """
    return dict(sorted(scores.items(), key=lambda item: (-item[1], item[0])))


def _ranking_items(question: str, ranking: Any, where: _Where) -> list[tuple[str, float | None]]:
    """(id, score-or-None) pairs best first, for writing; validates IDs, scores, duplicates."""
    if isinstance(ranking, (str, bytes)):
        raise TypeError(
            f"run[{question!r}] is a string ({ranking!r}); give a list of IDs or a dict "
            "{id: score}"
        )
    if isinstance(ranking, Mapping):
        items: list[tuple[str, float | None]] = []
        for doc, score in ranking.items():
            doc = _check_id(doc, where, f"run[{question!r}] id")
            if isinstance(score, (bool, np.bool_)) or not isinstance(score, numbers.Real):
                raise TypeError(
                    f"run[{question!r}][{doc!r}] = {score!r} is not a number; scores are floats"
                )
            value = float(score)
            if not math.isfinite(value):
                raise ValueError(
                    f"run[{question!r}][{doc!r}] = {score!r} is not finite; scores must be finite"
                )
            items.append((doc, value))
        items.sort(key=lambda item: (-item[1], item[0]))  # type: ignore[operator]
        return items
    if not isinstance(ranking, Iterable):
        raise TypeError(
            f"run[{question!r}] is {type(ranking).__name__}; give a list of IDs or a dict"
        )
    seen: set[str] = set()
    out: list[tuple[str, float | None]] = []
    for doc in ranking:
        doc = _check_id(doc, where, f"run[{question!r}] id")
        if doc in seen:
            raise ValueError(
                f"run[{question!r}] lists ID {doc!r} twice; each ID may appear once per question "
                "(dedupe first, e.g. ragmath.units.dedupe)"
            )
        seen.add(doc)
        out.append((doc, None))
    return out


def _check_run_mapping(run: Any) -> None:
    if not isinstance(run, Mapping):
        raise TypeError(
            f"run must be a mapping question -> ranking, got {type(run).__name__}; "
            "for a DataFrame use run_from_frame()"
        )


def _check_qrels_mapping(qrels: Any) -> None:
    if not isinstance(qrels, Mapping):
        raise TypeError(
            f"qrels must be a mapping question -> {{id: grade}}, got {type(qrels).__name__}; "
            "for a DataFrame use qrels_from_frame()"
        )


def _grade_value(value: Any, where: _Where, field: str) -> int:
    """A typed grade (JSON number, DataFrame cell, dict value): integral, non-negative."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise _fail(where, field, f"{value!r} is not a number; grades are non-negative integers")
    if isinstance(value, numbers.Integral):
        grade = int(value)
    else:
        as_float = float(value)
        if not math.isfinite(as_float) or not as_float.is_integer():
            raise _fail(
                where, field, f"{value!r} is not an integer; grades must be whole numbers"
            )
        grade = int(as_float)
    return _check_grade(grade, value, where, field)


# --------------------------------------------------------------------------- TREC


def read_trec_run(path: PathLike) -> dict[str, dict[str, float]]:
    """Read a TREC run file into question -> {id: score}, each ordered score desc, ID asc.

    Questions keep the order of their first line. Raises ``ValueError`` naming file, line and
    field for a malformed line (see the module docstring).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "run.txt"
    >>> _ = p.write_text("q1 Q0 d2 1 0.5 bm25\\nq1 Q0 d1 2 0.5 bm25\\nq1 Q0 d3 3 0.9 bm25\\n")
    >>> read_trec_run(p)
    {'q1': {'d3': 0.9, 'd1': 0.5, 'd2': 0.5}}
    """
    run: dict[str, dict[str, float]] = {}
    for where, (question, _q0, doc, rank_text, score_text, _tag) in _trec_records(
        path, "qid Q0 docid rank score tag"
    ):
        _parse_int(rank_text, where, "field 4 (rank)", "ranks")
        run.setdefault(question, {})[doc] = _parse_score(score_text, where, "field 5 (score)")
    return {question: order_scored(scores) for question, scores in run.items()}


def read_trec_qrels(path: PathLike) -> dict[str, dict[str, int]]:
    """Read a TREC qrels file (``qid 0 docid grade``) into question -> {id: grade}.

    Grades must be non-negative integers; the second field is ignored (trec_eval ignores it).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "qrels.txt"
    >>> _ = p.write_text("q1 0 d1 2\\nq1 0 d7 0\\nq2 0 d3 1\\n")
    >>> read_trec_qrels(p)
    {'q1': {'d1': 2, 'd7': 0}, 'q2': {'d3': 1}}
    """
    qrels: dict[str, dict[str, int]] = {}
    for where, (question, _iteration, doc, grade_text) in _trec_records(path, "qid 0 docid grade"):
        field = "field 4 (grade)"
        grade = _check_grade(_parse_int(grade_text, where, field, "grades"), grade_text, where, field)
        qrels.setdefault(question, {})[doc] = grade
    return qrels


def _check_tag(tag: str) -> str:
    if not isinstance(tag, str) or tag == "" or _WS.search(tag):
        raise ValueError(f"tag {tag!r} must be a non-empty string without whitespace, e.g. 'rrf'")
    return tag


def write_trec_run(run: Run, path: PathLike, tag: str = "ragmath") -> None:
    """Write a run as a TREC run file, best first, ranks 1..n, scores at ``repr`` precision.

    ``run`` maps question -> ranked IDs or -> {id: score}; scored rankings are written in the
    project's order (score desc, ID asc). Raises ``TypeError``/``ValueError`` on a bad run
    (non-finite score, duplicate ID, ID with whitespace) before anything is written.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "run.txt"
    >>> write_trec_run({"q1": ["d3", "d1"]}, p, tag="demo")
    >>> print(p.read_text(), end="")
    q1 Q0 d3 1 2.0 demo
    q1 Q0 d1 2 1.0 demo
    """
    _check_run_mapping(run)
    tag = _check_tag(tag)
    lines: list[str] = []
    for question, ranking in run.items():
        q = _check_id(question, _Where("run"), "question")
        items = _ranking_items(q, ranking, _Where("run"))
        n = len(items)
        for position, (doc, score) in enumerate(items, start=1):
            value = float(n - position + 1) if score is None else score
            lines.append(f"{q} Q0 {doc} {position} {value!r} {tag}\n")
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.writelines(lines)


def write_trec_qrels(qrels: Qrels, path: PathLike) -> None:
    """Write labels as a TREC qrels file ``qid 0 docid grade``, in the mapping's order.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "qrels.txt"
    >>> write_trec_qrels({"q1": {"d1": 2, "d7": 0}}, p)
    >>> print(p.read_text(), end="")
    q1 0 d1 2
    q1 0 d7 0
    """
    lines = [
        f"{question} 0 {doc} {grade}\n" for question, doc, grade in _qrels_records(qrels)
    ]
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.writelines(lines)


def _qrels_records(qrels: Qrels) -> list[tuple[str, str, int]]:
    _check_qrels_mapping(qrels)
    records = []
    for question, labels in qrels.items():
        q = _check_id(question, _Where("qrels"), "question")
        if not isinstance(labels, Mapping):
            raise TypeError(
                f"qrels[{q!r}] is {type(labels).__name__}; give a dict {{id: grade}}"
            )
        for doc, grade in labels.items():
            d = _check_id(doc, _Where("qrels"), f"qrels[{q!r}] id")
            records.append((q, d, _grade_value(grade, _Where("qrels"), f"qrels[{q!r}][{d!r}]")))
    return records


# --------------------------------------------------------------------------- tables


def _run_records(run: Run) -> tuple[list[tuple[str, str, int, float | None]], bool]:
    """Flatten a run to (question, id, rank, score) rows; second value: whether it has scores."""
    _check_run_mapping(run)
    rows: list[tuple[str, str, int, float | None]] = []
    kinds = set()
    for question, ranking in run.items():
        q = _check_id(question, _Where("run"), "question")
        items = _ranking_items(q, ranking, _Where("run"))
        kinds.add(isinstance(ranking, Mapping))
        rows.extend((q, doc, pos, score) for pos, (doc, score) in enumerate(items, start=1))
    if len(kinds) > 1:
        raise TypeError(
            "run mixes ranked lists and {id: score} dicts; give every question the same kind"
        )
    return rows, kinds == {True}


class _Table:
    """Shared validation of table records (CSV rows, JSONL objects, DataFrame rows)."""

    def __init__(self, source: str, kind: str, columns: Iterable[str], what: str) -> None:
        self.source = source
        self.kind = kind  # "line" or "row"
        cols = set(columns)
        self.columns = cols
        missing = [c for c in ("question", "id") if c not in cols]
        if what == "run":
            if "score" not in cols and "rank" not in cols:
                missing.append("score or rank")
        elif "grade" not in cols:
            missing.append("grade")
        if missing:
            raise ValueError(
                f"{source}: missing column(s) {', '.join(missing)}; found {sorted(cols)}. A run "
                "table needs question, id and score (or rank); a qrels table question, id, grade"
            )

    def where(self, line: int) -> _Where:
        return _Where(self.source, line, self.kind)


def _typed_number(value: Any, where: _Where, field: str) -> float:
    if isinstance(value, str):
        return _parse_score(value.strip(), where, field)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise _fail(where, field, f"{value!r} is not a number; scores are floats")
    out = float(value)
    if not math.isfinite(out):
        raise _fail(where, field, f"{value!r} is not a finite number; scores must be finite")
    return out


def _typed_int(value: Any, where: _Where, field: str, what: str) -> int:
    if isinstance(value, str):
        return _parse_int(value.strip(), where, field, what)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise _fail(where, field, f"{value!r} is not a number; {what} must be whole numbers")
    if isinstance(value, numbers.Integral):
        return int(value)
    as_float = float(value)
    if not math.isfinite(as_float) or not as_float.is_integer():
        raise _fail(where, field, f"{value!r} is not an integer; {what} must be whole numbers")
    return int(as_float)


def _build_run(
    table: _Table, records: Iterable[tuple[int, Mapping[str, Any]]]
) -> dict[str, dict[str, float]] | dict[str, list[str]]:
    has_score = "score" in table.columns
    has_rank = "rank" in table.columns
    scored: dict[str, dict[str, float]] = {}
    ranked: dict[str, dict[str, int]] = {}
    first: dict[tuple[str, str], int] = {}
    rank_first: dict[tuple[str, int], int] = {}
    for line, rec in records:
        where = table.where(line)
        question = _check_id(rec["question"], where, "column 'question'")
        doc = _check_id(rec["id"], where, "column 'id'")
        rank = _typed_int(rec["rank"], where, "column 'rank'", "ranks") if has_rank else None
        if has_score:
            score = _typed_number(rec["score"], where, "column 'score'")
        key = (question, doc)
        if key in first:
            raise _duplicate(where, "column 'id'", question, doc, first[key], table.kind)
        first[key] = line
        if has_score:
            scored.setdefault(question, {})[doc] = score
        else:
            assert rank is not None
            rkey = (question, rank)
            if rkey in rank_first:
                raise _fail(
                    where, "column 'rank'",
                    f"rank {rank} of question {question!r} already used on {table.kind} "
                    f"{rank_first[rkey]}; ranks must be distinct within a question (or give "
                    "a score column)",
                )
            rank_first[rkey] = line
            ranked.setdefault(question, {})[doc] = rank
    if has_score:
        return {q: order_scored(s) for q, s in scored.items()}
    return {q: sorted(r, key=r.__getitem__) for q, r in ranked.items()}


def _build_qrels(
    table: _Table, records: Iterable[tuple[int, Mapping[str, Any]]]
) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    first: dict[tuple[str, str], int] = {}
    for line, rec in records:
        where = table.where(line)
        question = _check_id(rec["question"], where, "column 'question'")
        doc = _check_id(rec["id"], where, "column 'id'")
        raw = rec["grade"]
        field = "column 'grade'"
        if isinstance(raw, str):
            grade = _check_grade(_parse_int(raw.strip(), where, field, "grades"), raw, where, field)
        else:
            grade = _grade_value(raw, where, field)
        key = (question, doc)
        if key in first:
            raise _duplicate(where, "column 'id'", question, doc, first[key], table.kind)
        first[key] = line
        qrels.setdefault(question, {})[doc] = grade
    return qrels


def _csv_records(path: PathLike, what: str) -> tuple[_Table, Iterator[tuple[int, dict]]]:
    source = _name(path)
    handle = open(path, encoding="utf-8", newline="")
    reader = csv.reader(handle)
    try:
        header = next(reader)
    except StopIteration:
        handle.close()
        raise ValueError(f"{source}: empty file; a CSV needs a header row") from None
    except UnicodeDecodeError as exc:
        handle.close()
        raise ValueError(f"{source}: not UTF-8 text ({exc.reason}); save it as UTF-8") from None
    header = [h.strip() for h in header]
    try:
        table = _Table(source, "line", header, what)
    except ValueError:
        handle.close()
        raise

    def rows() -> Iterator[tuple[int, dict]]:
        with handle:
            line = reader.line_num
            try:
                for row in reader:
                    start, line = line + 1, reader.line_num
                    if not row or all(cell.strip() == "" for cell in row):
                        continue
                    if len(row) != len(header):
                        raise _fail(
                            _Where(source, start), None,
                            f"expected {len(header)} fields as in the header {header}, found "
                            f"{len(row)}: {row!r}",
                        )
                    yield start, dict(zip(header, row, strict=False))
            except UnicodeDecodeError as exc:
                raise ValueError(
                    f"{source}, after line {line}: not UTF-8 text ({exc.reason}); save as UTF-8"
                ) from None
            except csv.Error as exc:
                raise ValueError(f"{source}, line {reader.line_num}: bad CSV ({exc})") from None

    return table, rows()


def _jsonl_records(path: PathLike, what: str) -> tuple[_Table, Iterator[tuple[int, dict]]]:
    source = _name(path)
    parsed: list[tuple[int, dict]] = []
    keys: set[str] | None = None
    for lineno, text in _text_lines(path):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(
                f"{source}, line {lineno}: not JSON ({exc.msg}, column {exc.colno})"
            ) from None
        if not isinstance(obj, dict):
            raise ValueError(
                f"{source}, line {lineno}: expected a JSON object {{\"question\": ..., \"id\": "
                f"...}}, found {type(obj).__name__}"
            )
        if keys is None:
            keys = set(obj)
        parsed.append((lineno, obj))
    table = _Table(source, "line", keys or set(), what)
    needed = ["question", "id"] + [c for c in ("score", "rank", "grade") if c in table.columns]
    for lineno, obj in parsed:
        for key in needed:
            if key not in obj:
                raise _fail(
                    _Where(source, lineno), f"field {key!r}",
                    f"missing; the first line has {sorted(table.columns)}, every line needs them",
                )
    return table, iter(parsed)


def _frame_records(frame: pd.DataFrame, needed: Sequence[str]) -> Iterator[tuple[int, dict]]:
    columns = [c for c in needed if c in frame.columns]
    arrays = [frame[c].tolist() for c in columns]
    for position, values in enumerate(zip(*arrays, strict=False), start=1):
        yield position, dict(zip(columns, values, strict=False))


def run_to_frame(run: Run) -> pd.DataFrame:
    """Flatten a run to a DataFrame with columns question, id, rank (1..n) and score if scored.

    >>> run_to_frame({"q1": {"a": 0.2, "b": 0.9}})
      question id  rank  score
    0       q1  b     1    0.9
    1       q1  a     2    0.2
    """
    rows, scored = _run_records(run)
    frame = pd.DataFrame(
        {
            "question": pd.Series([r[0] for r in rows], dtype=object),
            "id": pd.Series([r[1] for r in rows], dtype=object),
            "rank": np.array([r[2] for r in rows], dtype=np.int64),
        }
    )
    if scored:
        frame["score"] = np.array([r[3] for r in rows], dtype=np.float64)
    return frame


def run_from_frame(frame: pd.DataFrame, *, name: str = "DataFrame"):
    """Build a run from a DataFrame with columns question, id and score (or rank only).

    With a ``score`` column: question -> {id: score} ordered score desc, ID asc (a ``rank``
    column, if any, must hold integers and is otherwise ignored). With ``rank`` only: question ->
    IDs ordered by rank. Errors name the row (1 = first row).

    >>> df = pd.DataFrame({"question": ["q1", "q1"], "id": ["a", "b"], "rank": [2, 1]})
    >>> run_from_frame(df)
    {'q1': ['b', 'a']}
    """
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame must be a pandas DataFrame, got {type(frame).__name__}")
    table = _Table(name, "row", [str(c) for c in frame.columns], "run")
    return _build_run(table, _frame_records(frame, ("question", "id", "rank", "score")))


def qrels_to_frame(qrels: Qrels) -> pd.DataFrame:
    """Flatten labels to a DataFrame with columns question, id, grade.

    >>> qrels_to_frame({"q1": {"d1": 2}})
      question  id  grade
    0       q1  d1      2
    """
    records = _qrels_records(qrels)
    return pd.DataFrame(
        {
            "question": pd.Series([r[0] for r in records], dtype=object),
            "id": pd.Series([r[1] for r in records], dtype=object),
            "grade": np.array([r[2] for r in records], dtype=np.int64),
        }
    )


def qrels_from_frame(frame: pd.DataFrame, *, name: str = "DataFrame") -> dict[str, dict[str, int]]:
    """Build labels question -> {id: grade} from a DataFrame with columns question, id, grade.

    >>> qrels_from_frame(pd.DataFrame({"question": ["q1"], "id": ["d1"], "grade": [3]}))
    {'q1': {'d1': 3}}
    """
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame must be a pandas DataFrame, got {type(frame).__name__}")
    table = _Table(name, "row", [str(c) for c in frame.columns], "qrels")
    return _build_qrels(table, _frame_records(frame, ("question", "id", "grade")))


# --------------------------------------------------------------------------- dispatch


_FORMATS = ("trec", "csv", "jsonl")


def _format_of(path: PathLike, format: str | None) -> str:
    if format is not None:
        fmt = format.lower()
        if fmt not in _FORMATS:
            raise ValueError(f"format {format!r} is unknown; use one of {', '.join(_FORMATS)}")
        return fmt
    suffix = os.path.splitext(_name(path))[1].lower()
    if suffix == ".csv":
        return "csv"
    if suffix in (".jsonl", ".ndjson"):
        return "jsonl"
    return "trec"


def read_run(path: PathLike, format: str | None = None):
    """Read a run from a TREC, CSV or JSONL file (format from the extension unless given).

    ``.csv`` -> CSV, ``.jsonl``/``.ndjson`` -> JSONL, anything else -> TREC. Returns question ->
    {id: score} (ordered score desc, ID asc), or question -> [ids] for a table with ranks only.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "run.csv"
    >>> _ = p.write_text("question,id,rank\\nq1,b,2\\nq1,a,1\\n")
    >>> read_run(p)
    {'q1': ['a', 'b']}
    """
    fmt = _format_of(path, format)
    if fmt == "trec":
        return read_trec_run(path)
    table, records = (_csv_records if fmt == "csv" else _jsonl_records)(path, "run")
    return _build_run(table, records)


def read_qrels(path: PathLike, format: str | None = None) -> dict[str, dict[str, int]]:
    """Read labels from a TREC qrels, CSV or JSONL file (format from the extension unless given).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "qrels.jsonl"
    >>> _ = p.write_text('{"question": "q1", "id": "d1", "grade": 2}\\n')
    >>> read_qrels(p)
    {'q1': {'d1': 2}}
    """
    fmt = _format_of(path, format)
    if fmt == "trec":
        return read_trec_qrels(path)
    table, records = (_csv_records if fmt == "csv" else _jsonl_records)(path, "qrels")
    return _build_qrels(table, records)


def write_run(run: Run, path: PathLike, format: str | None = None, tag: str = "ragmath") -> None:
    """Write a run as TREC, CSV or JSONL (format from the extension unless given).

    Tables get columns question, id, rank and, for a scored run, score (``repr`` precision).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "run.csv"
    >>> write_run({"q1": {"a": 0.25, "b": 0.5}}, p)
    >>> print(p.read_text(), end="")
    question,id,rank,score
    q1,b,1,0.5
    q1,a,2,0.25
    """
    fmt = _format_of(path, format)
    if fmt == "trec":
        write_trec_run(run, path, tag=tag)
        return
    rows, scored = _run_records(run)
    columns = ["question", "id", "rank"] + (["score"] if scored else [])
    with open(path, "w", encoding="utf-8", newline="") as handle:
        if fmt == "csv":
            writer = csv.writer(handle, lineterminator="\n")
            writer.writerow(columns)
            for q, doc, rank, score in rows:
                writer.writerow([q, doc, rank] + ([repr(score)] if scored else []))
        else:
            for q, doc, rank, score in rows:
                obj: dict[str, Any] = {"question": q, "id": doc, "rank": rank}
                if scored:
                    obj["score"] = score
                handle.write(json.dumps(obj, ensure_ascii=False) + "\n")


def write_qrels(qrels: Qrels, path: PathLike, format: str | None = None) -> None:
    """Write labels as TREC qrels, CSV or JSONL (format from the extension unless given).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "qrels.csv"
    >>> write_qrels({"q1": {"d1": 2}}, p)
    >>> print(p.read_text(), end="")
    question,id,grade
    q1,d1,2
    """
    fmt = _format_of(path, format)
    if fmt == "trec":
        write_trec_qrels(qrels, path)
        return
    records = _qrels_records(qrels)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        if fmt == "csv":
            writer = csv.writer(handle, lineterminator="\n")
            writer.writerow(["question", "id", "grade"])
            writer.writerows(records)
        else:
            for q, doc, grade in records:
                obj = {"question": q, "id": doc, "grade": grade}
                handle.write(json.dumps(obj, ensure_ascii=False) + "\n")


# --------------------------------------------------------------------------- large files


def read_run_frame(path: PathLike, format: str | None = None) -> pd.DataFrame:
    """Read a run file straight into a DataFrame (question, id, rank, score), for large runs.

    Same rules and the same errors as :func:`read_run`: a TREC or plain CSV file is parsed in bulk (numpy)
    and checked in bulk; if anything looks unusual it is read line by line, so an error names the
    exact line. Rows come best first within each question (score desc, ID asc); question and id
    are categorical columns; a table with ranks only has no score column.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "run.txt"
    >>> _ = p.write_text("q1 Q0 d2 1 0.25 t\\nq1 Q0 d1 2 0.5 t\\n")
    >>> read_run_frame(p)
      question  id  rank  score
    0       q1  d1     1   0.50
    1       q1  d2     2   0.25
    """
    from ragmath import _fast

    fmt = _format_of(path, format)
    flat = _fast.read_run_bulk(path, fmt)
    if flat is not None:
        return _fast.flat_run_frame(flat)
    frame = run_to_frame(read_run(path, fmt))
    if fmt == "trec" and "score" not in frame.columns:  # an empty file
        frame["score"] = np.zeros(0, dtype=np.float64)
    for column in ("question", "id"):
        frame[column] = pd.Categorical(frame[column], categories=pd.unique(frame[column]))
    return frame


def read_qrels_frame(path: PathLike, format: str | None = None) -> pd.DataFrame:
    """Read a qrels file straight into a DataFrame (question, id, grade), for large label sets.

    Same rules and errors as :func:`read_qrels` (bulk parse, line-by-line re-read on trouble);
    question and id are categorical columns.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "qrels.txt"
    >>> _ = p.write_text("q1 0 d1 2\\n")
    >>> read_qrels_frame(p)
      question  id  grade
    0       q1  d1      2
    """
    from ragmath import _fast

    fmt = _format_of(path, format)
    flat = _fast.read_qrels_bulk(path, fmt)
    if flat is not None:
        return _fast.flat_qrels_frame(flat)
    frame = qrels_to_frame(read_qrels(path, fmt))
    for column in ("question", "id"):
        frame[column] = pd.Categorical(frame[column], categories=pd.unique(frame[column]))
    return frame


def write_run_frame(
    frame: pd.DataFrame, path: PathLike | Any, format: str | None = None, tag: str = "ragmath"
) -> None:
    """Write a run DataFrame (question, id, rank, score) as it stands, e.g. a fused run.

    Rows are written in the frame's order with its ranks; TREC by default (``path`` may also be an
    open text stream, then ``format`` defaults to TREC), or CSV/JSONL by extension or ``format``.
    Scores are written at ``repr`` precision. Raises ``ValueError`` for a missing column, a
    non-finite score or an ID that is empty or holds whitespace.

    >>> import io as _io
    >>> out = _io.StringIO()
    >>> frame = pd.DataFrame({"question": ["q1"], "id": ["d1"], "rank": [1], "score": [0.5]})
    >>> write_run_frame(frame, out, tag="rrf")
    >>> out.getvalue()
    'q1 Q0 d1 1 0.5 rrf\\n'
    """
    missing = [c for c in ("question", "id", "rank", "score") if c not in frame.columns]
    if missing:
        raise ValueError(f"frame lacks column(s) {missing}; a run frame has question, id, rank, score")
    tag = _check_tag(tag)
    is_stream = hasattr(path, "write")
    fmt = "trec" if is_stream and format is None else _format_of(
        "stream" if is_stream else path, format
    )
    score = frame["score"].to_numpy(dtype=np.float64)
    if len(score) and not np.isfinite(score).all():
        bad = int(np.flatnonzero(~np.isfinite(score))[0])
        raise ValueError(f"frame row {bad + 1}: score {score[bad]!r} is not finite")
    coded = {}
    for name in ("question", "id"):
        col = frame[name]
        if len(col) and col.isna().any():
            bad = int(np.flatnonzero(col.isna().to_numpy())[0])
            raise ValueError(f"frame row {bad + 1}: column {name!r} is empty (NaN); every row needs an ID")
        if isinstance(col.dtype, pd.CategoricalDtype):
            codes, labels = col.cat.codes.to_numpy(), list(col.cat.categories)
        else:
            codes, uniques = pd.factorize(col, use_na_sentinel=False)
            labels = list(uniques)
        if not (set(map(type, labels)) <= {str} and all(labels) and not _WS.search("\0".join(labels))):
            labels = [_check_id(label, _Where("frame"), f"column {name!r}") for label in labels]
        coded[name] = (codes, labels)
    no_nul = "\0" not in tag and not any("\0" in "".join(labels) for _, labels in coded.values())
    if fmt == "trec" and no_nul:  # NUL is the bulk formatter's padding byte
        from ragmath._trec_bulk import format_run_lines

        lines = format_run_lines(*coded["question"], *coded["id"],
                                 frame["rank"].to_numpy(dtype=np.int64), score, tag)
        if is_stream:
            for block in lines:
                path.write(block.decode("utf-8"))
        else:
            with open(path, "wb") as binary:
                for block in lines:
                    binary.write(block)
        return
    columns = {name: [labels[c] for c in codes.tolist()] for name, (codes, labels) in coded.items()}
    ranks = frame["rank"].to_numpy(dtype=np.int64).tolist()
    scores = score.tolist()
    rows = zip(columns["question"], columns["id"], ranks, scores, strict=True)
    handle = path if is_stream else open(path, "w", encoding="utf-8", newline="")
    try:
        if fmt == "trec":
            step = 100_000
            batch: list[str] = []
            for q, d, r, s in rows:
                batch.append(f"{q} Q0 {d} {r} {s!r} {tag}\n")
                if len(batch) >= step:
                    handle.write("".join(batch))
                    batch.clear()
            handle.write("".join(batch))
        elif fmt == "csv":
            writer = csv.writer(handle, lineterminator="\n")
            writer.writerow(["question", "id", "rank", "score"])
            for q, d, r, s in rows:
                writer.writerow([q, d, r, repr(s)])
        else:
            for q, d, r, s in rows:
                obj = {"question": q, "id": d, "rank": r, "score": s}
                handle.write(json.dumps(obj, ensure_ascii=False) + "\n")
    finally:
        if not is_stream:
            handle.close()
