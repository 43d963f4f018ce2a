"""Runs and labels as files, DataFrames (pandas, polars) or mappings: to tables, and to mappings."""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import numpy as np
import pandas as pd
import polars as pl

from ragmath.io._bulk import _odd_rows, _read_qrels_table, _read_run_head, _read_run_table
from ragmath.io._checks import SCHEMAS, _check_id, _is_bool, _Where
from ragmath.io._lines import COLUMN_NAMES, _check_header, _table_from_records
from ragmath.ranking import order_run_table
from ragmath.validation import check_k, is_source

_IDS = ("question", "id")


def _refuse_dtype(name: str, dtype: Any) -> None:
    """Refuse a boolean column, and a float column of IDs, by name (``ValueError``)."""
    text = str(dtype)
    if text.lower() in ("bool", "boolean"):
        what = "IDs are text or whole numbers" if name in _IDS else f"{name}s are numbers"
        fix = "to text" if name in _IDS else "to 1/0"
        raise ValueError(f"DataFrame column {name!r} is boolean ({text}); {what}: convert the column "
                         f"{fix} first")
    if name in _IDS and (text.startswith("float") or text.startswith("Float")):
        raise ValueError(f"DataFrame column {name!r} holds floats ({text}); IDs are text or whole numbers "
                         "(is 1.0 the ID '1' or '1.0'?): convert the column to text or to integers first "
                         "(floats here often mean a missing value: drop those rows)")


def _pandas_ids(column: pd.Series, name: str) -> pl.Series | None:
    """A pandas column of IDs as polars text: strings as they are, integers in decimal; None if
    some value is neither (the row checker then names it)."""
    try:  # text: polars refuses (TypeError) any value that is not a string
        return pl.Series(name, np.asarray(column, dtype=object), dtype=pl.String, strict=True)
    except UnicodeEncodeError:  # a lone surrogate, which UTF-8 cannot hold: the row checker names it
        return None
    except (TypeError, pl.exceptions.PolarsError):
        pass
    codes, uniques = pd.factorize(column, use_na_sentinel=True)  # each distinct value once
    if (codes < 0).any():
        return None
    labels = [str(int(v)) if isinstance(v, numbers.Integral) and not _is_bool(v) else v
              for v in np.asarray(uniques, dtype=object).tolist()]
    if not all(isinstance(label, str) for label in labels):
        return None
    return pl.Series(name, labels, dtype=pl.String).gather(pl.Series(codes, dtype=pl.Int64))


def _frame_columns(frame: Any, kind: str) -> dict[str, pl.Series] | None:
    """The wanted columns of a pandas or polars DataFrame as polars Series, IDs as text (integers in
    decimal); None if a column needs the row checker. Boolean columns and float IDs are refused."""
    polars = isinstance(frame, pl.DataFrame)
    names = frame.columns if polars else [str(c) for c in frame.columns]
    _check_header(names, "DataFrame", kind)  # a column named twice, a column missing
    out: dict[str, pl.Series] = {}
    for name in (c for c in SCHEMAS[kind] if c in names):
        column = frame.get_column(name) if polars else frame[name]
        if len(column):  # an empty column's type says nothing (pandas makes it float)
            _refuse_dtype(name, column.dtype)
        if polars:
            series = column
            if name in _IDS and (series.dtype.is_integer() or series.dtype in (pl.Categorical, pl.Enum)):
                series = series.cast(pl.String)
        elif name in _IDS:
            series = _pandas_ids(column, name)
        else:
            values = column.to_numpy()
            series = pl.Series(name, values) if values.dtype.kind in "iuf" else None
        if series is None:
            return None
        out[name] = series
    return out


def _frame_table(frame: Any, kind: str) -> pl.DataFrame:
    schema = SCHEMAS[kind]
    columns = _frame_columns(frame, kind)
    if columns is not None:
        try:
            table = pl.DataFrame([
                columns[c].cast(dtype, strict=True).alias(c) if c in columns
                else pl.Series(c, [None] * len(frame), dtype)
                for c, dtype in schema.items()
            ])
            integral = [c for c in ("rank", "grade") if c in columns and columns[c].dtype.is_float()]
            exact = all(((columns[c].fill_nan(0.5).drop_nulls() % 1) == 0).all() for c in integral)
            if exact and not _odd_rows(table, kind):
                return table
        except (pl.exceptions.PolarsError, TypeError, ValueError, OverflowError):
            pass
    # Something is wrong (or unusual): check row by row, naming the first bad row.
    polars = isinstance(frame, pl.DataFrame)
    rows = frame.to_dicts() if polars else frame.to_dict("records")

    def records() -> Iterator[tuple[_Where, dict[str, Any]]]:
        for position, row in enumerate(rows, start=1):
            where = _Where("DataFrame", "row", position)
            record = {str(k): v for k, v in row.items() if str(k) in schema}
            score = record.get("score")
            # A missing score: NaN anywhere, or pandas' None; a polars null marks a ranked list.
            if "score" in record and _is_missing(score) and (score is not None or not polars):
                raise where.fail(COLUMN_NAMES["score"], "missing (NaN or null); give every row a finite "
                                 "score, or drop the score column and give ranks for a ranked list")
            if _is_missing(record.get("rank")):
                record["rank"] = None
            yield where, record

    return _table_from_records(records(), kind, COLUMN_NAMES)


def _is_missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _table(given: Any, kind: str, expected: str) -> pl.DataFrame:
    """A DataFrame, or a mapping question -> {ID: score or grade} (for a run also -> [IDs, best
    first]) checked entry by entry, as a table; ``TypeError`` naming ``expected`` for anything else."""
    if isinstance(given, (pl.DataFrame, pd.DataFrame)):
        return _frame_table(given, kind)
    if not isinstance(given, Mapping):
        raise TypeError(f"{kind} must be {expected}, got {type(given).__name__}")
    value = "score" if kind == "run" else "grade"
    wanted = "a list of IDs or a dict {id: score}" if kind == "run" else "a dict {id: grade}"

    def records() -> Iterator[tuple[_Where, dict[str, Any]]]:
        questions: set[str] = set()
        for question, ranking in given.items():
            q = _check_id(question, _Where(kind, "question", None), "question")
            if q in questions:  # a dict holds each key once: this is an integer beside its text
                raise ValueError(f"{kind} holds a question twice, as an integer and as text (e.g. 1 and "
                                 "'1'); IDs are text, so they are one question: merge them")
            questions.add(q)
            entry = f"{kind}[{q!r}]"
            if isinstance(ranking, Mapping):  # errors name the entry: run['q1'], ID 'd3', ...
                for doc, number in ranking.items():
                    yield _Where(entry, "ID", repr(doc)), {"question": q, "id": doc, value: number}
            elif kind == "qrels" or isinstance(ranking, (str, bytes)) or not isinstance(ranking, Iterable):
                raise TypeError(f"{entry} is {type(ranking).__name__}; give {wanted}")
            else:
                for position, doc in enumerate(ranking, start=1):
                    yield _Where(entry, "rank", position), {"question": q, "id": doc, "rank": position}

    return _table_from_records(records(), kind, {c: c for c in SCHEMAS[kind]})


def _in_memory(given: Any, format: str | None) -> None:
    """Refuse ``format`` beside a run or labels that are not a file."""
    if format is not None:
        raise ValueError(f"format={format!r} names a file's format, but a {type(given).__name__} was given, "
                         "not a file path; leave format out")


def run_table(run: Any, top: int | None = None, format: str | None = None, *,
              ranked: bool = False) -> pl.DataFrame:
    """A run as a run table: from a file, a pandas/polars DataFrame or a mapping, checked alike.

    A file (a path, a named pipe or ``"-"`` for standard input) is TREC, CSV or JSONL, by its
    extension (``.csv``, ``.jsonl``/``.ndjson``, else TREC) unless ``format`` says; errors name file,
    line and field. A DataFrame has columns ``question``, ``id`` and ``score`` and/or ``rank`` (errors
    name the row, 1 = first). A mapping gives question -> [IDs, best first] (rank 1, 2, ...; score
    null) or question -> {ID: score} (rank null). Integer IDs become their decimal text, so ``1`` and
    ``"1"`` in one question are a duplicate. Rows come as given (a file's in file order).

    >>> run_table({"q1": {"a": 0.5, "b": 0.75}, "q2": ["x", "y"]}).rows()
    [('q1', 'a', 0.5, None), ('q1', 'b', 0.75, None), ('q2', 'x', None, 1), ('q2', 'y', None, 2)]

    With ``ranked=True``, each question in the tie rule's order, as ranked lists (``score`` null,
    ``rank`` 1, 2, ...); with ``top`` (which implies it) only its first ``top`` results: all that
    metrics at K <= ``top`` need. A TREC file whose questions each come as one block of lines is then
    read 16 MiB at a time, so memory follows the slice and the result, not the file.

    >>> run_table({"q1": {"a": 0.5, "b": 0.75, "c": 0.5}}, top=2).rows()
    [('q1', 'b', None, 1), ('q1', 'a', None, 2)]
    """
    ranked = ranked or top is not None
    if is_source(run):
        return _read_run_head(run, top, format) if ranked else _read_run_table(run, format)
    _in_memory(run, format)
    table = _table(run, "run", "a mapping question -> ranking, a DataFrame or a file path")
    if not ranked:
        return table
    return order_run_table(table, top=None if top is None else check_k(top, "top")).select(
        "question", "id", pl.lit(None, pl.Float64).alias("score"), pl.col("position").alias("rank")
    )


def qrels_table(qrels: Any, format: str | None = None) -> pl.DataFrame:
    """Labels as a qrels table (question, id, grade): from a file (TREC qrels, CSV or JSONL, as
    :func:`run_table` reads a run), a DataFrame (question, id, grade) or question -> {ID: grade}.

    >>> qrels_table({"q1": {"d1": 2, "d7": 0}}).rows()
    [('q1', 'd1', 2), ('q1', 'd7', 0)]
    """
    if is_source(qrels):
        return _read_qrels_table(qrels, format)
    _in_memory(qrels, format)
    return _table(qrels, "qrels", "a mapping question -> {id: grade}, a DataFrame or a file path")


def _run_mapping(table: pl.DataFrame) -> dict[str, Any]:
    """A run table as question -> {ID: score} in the tie rule's order, or -> [IDs] for ranks only."""
    ordered = order_run_table(table)
    if table.height and table["score"].null_count() == table.height:  # ranked lists
        return {q: ids for q, ids in ordered.group_by("question", maintain_order=True).agg("id").iter_rows()}
    scores = ordered.join(table.select("question", "id", "score"), on=["question", "id"], how="left",
                          maintain_order="left")
    run: dict[str, Any] = {}
    for question, doc, score in scores.select("question", "id", "score").iter_rows():
        run.setdefault(question, {})[doc] = score
    return run


def read_run(run: Any, format: str | None = None) -> dict[str, Any]:
    """A run (a file, a DataFrame or a mapping, as :func:`run_table` takes it) as question -> {ID:
    score} in the tie rule's order, or question -> [IDs, best first] for ranks only; IDs as text.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "run.csv"
    >>> _ = p.write_text("question,id,rank\\nq1,b,2\\nq1,a,1\\n")
    >>> read_run(p)
    {'q1': ['a', 'b']}
    >>> read_run({"q1": {"b": 0.5, "a": 0.5, "c": 0.9}})
    {'q1': {'c': 0.9, 'a': 0.5, 'b': 0.5}}
    """
    return _run_mapping(run_table(run, format=format))


def read_qrels(qrels: Any, format: str | None = None) -> dict[str, dict[str, int]]:
    """Labels (a file, a DataFrame or a mapping, as :func:`qrels_table` takes them) as question ->
    {ID: grade}, in file order; IDs as text.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "qrels.jsonl"
    >>> _ = p.write_text('{"question": "q1", "id": "d1", "grade": 2}\\n')
    >>> read_qrels(p)
    {'q1': {'d1': 2}}
    """
    labels: dict[str, dict[str, int]] = {}
    for question, doc, grade in qrels_table(qrels, format).iter_rows():
        labels.setdefault(question, {})[doc] = grade
    return labels
