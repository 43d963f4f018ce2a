"""Read and write runs and relevance labels: TREC files, CSV, JSONL and DataFrames.

A **run** is what a retriever returned: question -> ranked IDs (best first), or question ->
{ID: score}. **Qrels** are the labels: question -> {ID: grade}, grades integers 0 to
:data:`MAX_GRADE`. Every format is read into one **table** (a polars DataFrame) and written from one:

- run table: ``question`` (text), ``id`` (text), ``score`` (float, null where only ranks are
  given), ``rank`` (integer, null where the source gives none); one row per line, in file order.
- qrels table: ``question``, ``id``, ``grade`` (integer).

Formats
-------
- TREC run, one result a line: ``qid Q0 docid rank score tag`` (six fields). The rank must be an
  integer but, as in trec_eval, the order comes from the score.
- TREC qrels, one label a line: ``qid 0 docid grade`` (four fields; the second is ignored).
- CSV (header row) or JSONL (one object a line) with ``question``, ``id`` and, for a run,
  ``score`` and/or ``rank``; for qrels, ``grade``. Other columns are ignored.
- DataFrames (pandas or polars) with the same columns, and mappings (:func:`run_table`).

In TREC files fields are separated by spaces or tabs (any number); blank lines are skipped, and so
is a **comment line**, whose first non-blank character is ``#``. Files are UTF-8; a byte-order mark
at the start is skipped. A source is a path, a named pipe, or ``"-"`` for standard input.

How a file is read
------------------
polars parses the file (:func:`polars.read_csv`); ragmath then checks the table in bulk. A file the
fast read refuses or finds odd (a bad number, a missing field, a forbidden character...) is read
again line by line, only to name the file, line and field of the first mistake. A TREC file with a
tab, a run of spaces or a comment line, which polars' one-byte separator cannot split, goes through
a second bulk read that splits each line on ``[ \\t]+``; no ID is ever cut short.
:func:`read_run_head` (what :func:`ragmath.evaluate` uses for a run file) reads a TREC run 16 MiB
at a time and keeps each question's top K, so its memory does not grow with the file.

Refused input (``ValueError`` naming file, line and field; a line is quoted up to 200 characters)
----------------------------------------------------------------------------------------------------
Too few or too many fields; a score that is not a finite decimal number written with ASCII
digits; a rank or grade that is not an ASCII integer, or does not fit (ranks: 64-bit, grades: 0 to
:data:`MAX_GRADE`); an ID that is empty or holds whitespace or a control character (NUL, CR, tab,
no-break space...); a duplicate (question, id) pair; in a table with ranks only, a rank used twice
in a question; a CSV header naming a column twice; bytes that are not UTF-8. Nothing is skipped
silently.

Writing
-------
Writers (:func:`write_run`, :func:`write_qrels`) write IDs exactly as read and scores at round-trip
precision, so a written file reads back to the same table. A scored run is written in the tie
rule's order (:mod:`ragmath.ranking`); a table that already holds both scores and ranks is written
row for row. A run given as ranked lists is written with scores n, n-1, ..., 1. Writes are atomic:
a temporary file in the target folder, renamed over the target when complete.
"""

from __future__ import annotations

import csv
import io as _stdio
import json
import math
import numbers
import os
import re
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from itertools import chain
from typing import Any

import numpy as np
import pandas as pd
import polars as pl

from ragmath.ranking import order_run_table

__all__ = [
    "MAX_GRADE",
    "read_run_table",
    "read_qrels_table",
    "read_run_head",
    "run_table",
    "qrels_table",
    "read_run",
    "read_qrels",
    "write_run",
    "write_qrels",
    "read_trec_run",
    "read_trec_qrels",
    "write_trec_run",
    "write_trec_qrels",
    "read_run_frame",
    "read_qrels_frame",
    "write_run_frame",
    "run_to_frame",
    "run_from_frame",
    "qrels_to_frame",
    "qrels_from_frame",
]

#: The largest grade accepted. nDCG's gain 2^g - 1 is then below 2^30, and sums of up to 2^23
#: such gains stay exact in float64 (53-bit mantissa); trec_eval itself keeps grades below 128.
MAX_GRADE = 30

#: At most this many characters of a line are quoted in an error message.
QUOTE_LIMIT = 200

FORMATS = ("trec", "csv", "jsonl")

PathLike = str | os.PathLike[str]

RUN_SCHEMA = {"question": pl.String, "id": pl.String, "score": pl.Float64, "rank": pl.Int64}
QRELS_SCHEMA = {"question": pl.String, "id": pl.String, "grade": pl.Int64}
_TREC_LAYOUT = {
    "run": ("qid", "Q0", "docid", "rank", "score", "tag"),
    "qrels": ("qid", "iteration", "docid", "grade"),
}

# One definition of each token, used by the line reader (Python re) and the bulk checks (polars).
_NUMBER = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"  # one way to match: linear time
_INTEGER = r"[+-]?[0-9]+"
_FORBIDDEN = r"[\x00-\x1f\x7f-\x9f\s]"  # control characters and every kind of whitespace
_NUMBER_RE, _INTEGER_RE, _FORBIDDEN_RE = map(re.compile, (_NUMBER, _INTEGER, _FORBIDDEN))
#: The same characters listed one by one, for polars' ``str.contains_any`` (twice as fast as the
#: regular expression on 10 million IDs); a test checks the list against ``_FORBIDDEN_RE``.
_FORBIDDEN_CHARS = [chr(c) for c in (*range(0x21), *range(0x7F, 0xA1), 0x1680, *range(0x2000, 0x200B),
                                     0x2028, 0x2029, 0x202F, 0x205F, 0x3000)]
_INT64_MAX = 2**63 - 1


# --------------------------------------------------------------------------- messages


def _quote(text: str) -> str:
    """``repr`` of ``text``, cut to :data:`QUOTE_LIMIT` characters."""
    if len(text) <= QUOTE_LIMIT:
        return repr(text)
    return f"{text[:QUOTE_LIMIT]!r}... ({len(text)} characters)"


class _Where:
    """Where a value came from: a file line, a table row, or a mapping entry."""

    def __init__(self, source: str, kind: str = "line", number: int | None = None) -> None:
        self.source, self.kind, self.number = source, kind, number

    def fail(self, field: str | None, problem: str) -> ValueError:
        where = self.source if self.number is None else f"{self.source}, {self.kind} {self.number}"
        return ValueError(f"{where}, {field}: {problem}" if field else f"{where}: {problem}")


def _check_id(value: Any, where: _Where, field: str) -> str:
    """An ID as text: str, or an int written in decimal; refuse empty, whitespace, control chars."""
    if isinstance(value, (bool, np.bool_)):
        raise where.fail(field, f"{value!r} is a boolean, not an ID; IDs are text")
    if isinstance(value, numbers.Integral):
        value = str(int(value))
    if not isinstance(value, str):
        raise where.fail(field, f"{_quote(repr(value))} ({type(value).__name__}) is not an ID; IDs are text")
    if value == "":
        raise where.fail(field, "empty ID; every row needs a question and an ID")
    bad = _FORBIDDEN_RE.search(value)
    if bad:
        raise where.fail(
            field,
            f"ID {_quote(value)} holds U+{ord(bad.group()):04X} (whitespace or a control character) at "
            f"position {bad.start() + 1}; IDs may not contain whitespace, NUL or control characters",
        )
    return value


def _check_score(value: Any, where: _Where, field: str) -> float:
    """A finite score: a number, or text written as a decimal with ASCII digits."""
    if isinstance(value, str):
        text = value.strip(" ")
        if not _NUMBER_RE.fullmatch(text):
            raise where.fail(field, f"{_quote(value)} is not a number; write a decimal such as 0.25 or 1e-3")
        out = float(text)
    elif isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise where.fail(field, f"{_quote(repr(value))} is not a number; scores are decimals")
    else:
        out = float(value)
    if not math.isfinite(out):
        raise where.fail(field, f"{_quote(str(value))} is not a finite number; scores must be finite")
    return out


def _check_int(value: Any, where: _Where, field: str, what: str, low: int, high: int) -> int:
    """An integer in [low, high]: an int, an integral float, or ASCII digits."""
    if isinstance(value, str):
        text = value.strip(" ")
        if not _INTEGER_RE.fullmatch(text):
            kind = "not an integer" if _NUMBER_RE.fullmatch(text) else "not a number"
            raise where.fail(field, f"{_quote(value)} is {kind}; {what}s are whole numbers written 0-9")
        number = int(text)
    elif isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise where.fail(field, f"{_quote(repr(value))} is not a number; {what}s are whole numbers")
    elif isinstance(value, numbers.Integral):
        number = int(value)
    else:
        as_float = float(value)
        if not math.isfinite(as_float) or not as_float.is_integer():
            raise where.fail(field, f"{value!r} is not an integer; {what}s are whole numbers")
        number = int(as_float)
    if what == "grade" and number < 0:
        problem = f"grade {_quote(str(value))} is negative; grades are 0 (not relevant) to {high}"
        raise where.fail(field, problem)
    if not low <= number <= high:
        limit = f"from {low} to {high}" if what == "grade" else "that fits in 64 bits"
        raise where.fail(
            field,
            f"{what} {_quote(str(value))} is out of range; a {what} is an integer {limit}"
            + ("; 0 means not relevant" if what == "grade" else ""),
        )
    return number


def _check_rank(value: Any, where: _Where, field: str) -> int:
    return _check_int(value, where, field, "rank", -_INT64_MAX - 1, _INT64_MAX)


def _check_grade(value: Any, where: _Where, field: str) -> int:
    return _check_int(value, where, field, "grade", 0, MAX_GRADE)


# --------------------------------------------------------------------------- sources


class _Source:
    """A file to read: its name for messages and its data (a path, or the bytes of a pipe)."""

    def __init__(self, source: Any) -> None:
        if isinstance(source, (bytes, bytearray)):
            self.name, self.data = "<bytes>", bytes(source)
            return
        if not isinstance(source, (str, os.PathLike)):
            raise TypeError(f"source must be a path or '-', got {type(source).__name__}")
        path = os.fspath(source)
        if path == "-":
            self.name, self.data = "<stdin>", sys.stdin.buffer.read()
            return
        self.name = path
        mode = os.stat(path).st_mode  # FileNotFoundError names the path
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(f"{path}: is a folder, not a file")
        # A named pipe (or /dev/stdin) can be read only once: keep its bytes for a second pass.
        self.data = path if stat.S_ISREG(mode) else open(path, "rb").read()

    def polars_input(self) -> Any:
        return self.data if isinstance(self.data, str) else _stdio.BytesIO(self.data)

    def slices(self, size: int) -> Iterator[bytes]:
        """The data in pieces of about ``size`` bytes, each ending at a line end (the last may not)."""
        handle = open(self.data, "rb") if isinstance(self.data, str) else _stdio.BytesIO(self.data)
        with handle:
            while block := handle.read(size):
                yield block if block.endswith(b"\n") else block + handle.readline()

    def has_tab(self) -> bool:
        """True if the data holds a tab anywhere (searched 16 MiB at a time).

        Plain reads, not :meth:`slices`: completing each line costs a copy, and this search runs
        before every whole-file TREC read (0.23 s against 0.65 s on a 434 MiB run)."""
        if not isinstance(self.data, str):
            return b"\t" in self.data
        with open(self.data, "rb") as handle:
            while chunk := handle.read(1 << 24):
                if b"\t" in chunk:
                    return True
        return False

    def is_empty(self) -> bool:
        return (os.path.getsize(self.data) if isinstance(self.data, str) else len(self.data)) == 0

    def lines(self) -> Iterator[tuple[int, str]]:
        """(line number, text without line ending) for each line, decoded as UTF-8."""
        handle = open(self.data, "rb") if isinstance(self.data, str) else _stdio.BytesIO(self.data)
        with handle:
            for number, raw in enumerate(handle, start=1):
                if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                    raw = raw[3:]
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise _Where(self.name, "line", number).fail(
                        None, f"not UTF-8 text ({exc.reason} at byte {exc.start}); save the file as UTF-8"
                    ) from None
                yield number, text[:-1] if text.endswith("\n") else text


def _format_of(source: Any, format: str | None) -> str:
    if format is not None:
        fmt = str(format).lower()
        if fmt not in FORMATS:
            raise ValueError(f"format {format!r} is unknown; use one of {', '.join(FORMATS)}")
        return fmt
    suffix = os.path.splitext(os.fspath(source))[1].lower() if isinstance(source, (str, os.PathLike)) else ""
    return {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl"}.get(suffix, "trec")


# --------------------------------------------------------------------------- the line reader


def _trec_records(src: _Source, kind: str) -> Iterator[tuple[_Where, list[str]]]:
    """(where, fields) per data line of a TREC file; blank and ``#`` comment lines skipped."""
    layout = _TREC_LAYOUT[kind]
    for number, text in src.lines():
        line = text[:-1] if text.endswith("\r") else text
        stripped = line.strip(" \t")
        if not stripped or stripped.startswith("#"):
            continue
        fields = re.split(r"[ \t]+", stripped)
        where = _Where(src.name, "line", number)
        if len(fields) != len(layout):
            raise where.fail(
                None,
                f"expected {len(layout)} fields '{' '.join(layout)}' separated by spaces or tabs, "
                f"found {len(fields)}: {_quote(line)}",
            )
        yield where, fields


def _csv_records(src: _Source, kind: str) -> Iterator[tuple[_Where, dict[str, str]]]:
    lines = src.lines()
    rows = csv.reader(text for _number, text in lines)
    try:
        header = [name.strip() for name in next(rows)]
    except StopIteration:
        raise ValueError(f"{src.name}: empty file; a CSV needs a header row") from None
    _check_header(header, src.name, kind)
    while True:
        try:
            row = next(rows)
        except StopIteration:
            return
        except csv.Error as exc:  # e.g. a carriage return inside an unquoted field
            raise _Where(src.name, "line", rows.line_num).fail(None, f"not valid CSV ({exc})") from None
        where = _Where(src.name, "line", rows.line_num)
        if not row or all(cell.strip() == "" for cell in row):
            continue
        if len(row) != len(header):
            raise where.fail(
                None,
                f"expected {len(header)} fields as in the header, found {len(row)}: {_quote(','.join(row))}",
            )
        yield where, dict(zip(header, row, strict=True))


def _jsonl_records(src: _Source, kind: str) -> Iterator[tuple[_Where, dict[str, Any]]]:
    needed: list[str] | None = None
    for number, text in src.lines():
        if not text.strip():
            continue
        where = _Where(src.name, "line", number)
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise where.fail(None, f"not JSON ({exc.msg}, column {exc.colno}): {_quote(text)}") from None
        if not isinstance(obj, dict):
            raise where.fail(None, f'expected a JSON object {{"question": ..., "id": ...}}: {_quote(text)}')
        if needed is None:
            _check_header(list(obj), src.name, kind)
            needed = [c for c in ("question", "id", "score", "rank", "grade") if c in obj]
        for key in needed:
            if key not in obj:
                raise where.fail(
                    f"field {key!r}", f"missing; the first object has {needed}, every line needs them"
                )
        yield where, obj


def _check_header(columns: list[str], name: str, kind: str) -> None:
    repeated = sorted({c for c in columns if columns.count(c) > 1})
    if repeated:
        raise ValueError(f"{name}: the header names column(s) {repeated} more than once; keep one of each")
    missing = [c for c in ("question", "id") if c not in columns]
    if kind == "run" and "score" not in columns and "rank" not in columns:
        missing.append("score or rank")
    if kind == "qrels" and "grade" not in columns:
        missing.append("grade")
    if missing:
        raise ValueError(
            f"{name}: missing column(s) {', '.join(missing)}; found {columns}. A run table needs "
            "question, id and score (or rank); a qrels table question, id, grade"
        )


def _records(src: _Source, fmt: str, kind: str) -> Iterator[tuple[_Where, dict[str, Any]]]:
    if fmt == "trec":
        for where, fields in _trec_records(src, kind):
            if kind == "run":
                yield where, {"question": fields[0], "id": fields[2], "rank": fields[3], "score": fields[4]}
            else:
                yield where, {"question": fields[0], "id": fields[2], "grade": fields[3]}
        return
    yield from (_csv_records if fmt == "csv" else _jsonl_records)(src, kind)


def _field_names(fmt: str, kind: str) -> dict[str, str]:
    if fmt != "trec":
        return {c: f"column {c!r}" for c in ("question", "id", "score", "rank", "grade")}
    layout = _TREC_LAYOUT[kind]
    return {
        "question": "field 1 (qid)",
        "id": "field 3 (docid)",
        "rank": "field 4 (rank)",
        "score": "field 5 (score)",
        "grade": f"field {len(layout)} (grade)",
    }


def _table_from_records(
    records: Iterable[tuple[_Where, Mapping[str, Any]]], kind: str, names: dict[str, str]
) -> pl.DataFrame:
    """Check every record, in order, and build the table: the reference for every reader."""
    columns: dict[str, list] = {c: [] for c in (RUN_SCHEMA if kind == "run" else QRELS_SCHEMA)}
    first: dict[tuple[str, str], _Where] = {}
    rank_first: dict[tuple[str, int], _Where] = {}
    for where, record in records:
        question = _check_id(record["question"], where, names["question"])
        doc = _check_id(record["id"], where, names["id"])
        if (question, doc) in first:
            raise where.fail(
                names["id"],
                f"duplicate (question {_quote(question)}, id {_quote(doc)}), first seen on "
                f"{first[question, doc].kind} {first[question, doc].number}; each ID may appear once "
                "per question (dedupe first, e.g. ragmath.units.dedupe)",
            )
        first[question, doc] = where
        columns["question"].append(question)
        columns["id"].append(doc)
        if kind == "qrels":
            columns["grade"].append(_check_grade(record["grade"], where, names["grade"]))
            continue
        score = record.get("score")
        rank = record.get("rank")
        columns["score"].append(None if score is None else _check_score(score, where, names["score"]))
        columns["rank"].append(None if rank is None else _check_rank(rank, where, names["rank"]))
        if score is None and rank is not None:
            key = (question, columns["rank"][-1])
            if key in rank_first:
                raise where.fail(
                    names["rank"],
                    f"rank {key[1]} of question {_quote(question)} already used on "
                    f"{rank_first[key].kind} {rank_first[key].number}; ranks must be distinct within a "
                    "question (or give a score column)",
                )
            rank_first[key] = where
        if score is None and rank is None:
            raise where.fail(names["score"], "no score and no rank; give one of them")
    return pl.DataFrame(columns, schema=RUN_SCHEMA if kind == "run" else QRELS_SCHEMA)


def _line_reader(src: _Source, fmt: str, kind: str) -> pl.DataFrame:
    """Read ``src`` line by line: slow, and the one place that words a file's errors."""
    return _table_from_records(_records(src, fmt, kind), kind, _field_names(fmt, kind))


# --------------------------------------------------------------------------- the bulk reader


def _odd_rows(table: pl.DataFrame, kind: str, questions: pl.Series | None = None) -> bool:
    """True if any row breaks a rule: then the line reader (or the row checker) names it.

    Questions are checked once per block of equal neighbours (a file lists a question's results
    together), IDs one by one. Duplicates are found through a 64-bit hash of each (question, id)
    pair: no repeated hash means no repeated pair; a repeated hash (a duplicate, or a one-in-2^64
    collision) sends the table to the exact check of the line reader. The hashes are sorted and
    neighbours compared (numpy's sort: a third of the CPU time of polars' ``n_unique``, measured
    on 16 MiB slices of a 434 MiB run).
    """
    if table.height == 0:
        return False
    if questions is None:  # the question of each block of equal neighbours (a caller may know them)
        questions = table["question"].rle().struct.field("value")
    if questions.null_count() or questions.str.len_bytes().eq(0).any():
        return True
    if questions.str.contains_any(_FORBIDDEN_CHARS).any():
        return True
    doc = pl.col("id")
    checks = [doc.is_null() | doc.str.len_bytes().eq(0) | doc.str.contains_any(_FORBIDDEN_CHARS)]
    if kind == "run":
        checks += [
            pl.col("score").is_not_null() & ~pl.col("score").is_finite(),
            pl.col("score").is_null() & pl.col("rank").is_null(),
        ]
    else:
        checks.append(pl.col("grade").is_null() | ~pl.col("grade").is_between(0, MAX_GRADE))
    if table.select(pl.any_horizontal(checks).any()).item():
        return True
    if _repeats(table, "id"):
        return True
    if kind == "run" and table["score"].null_count() > 0:
        return _repeats(table.filter(pl.col("score").is_null()), "rank")
    return False


def _repeats(table: pl.DataFrame, column: str) -> bool:
    """True if two rows may share (question, ``column``): their 64-bit hashes repeat."""
    pair = pl.col("question").hash(seed=0).xor(pl.col(column).hash(seed=1))
    hashes = np.sort(table.select(pair).to_series().to_numpy())
    return bool(np.any(hashes[1:] == hashes[:-1]))


def _trec_schema(kind: str) -> dict[str, pl.DataType]:
    """The polars schema of a TREC line (the ignored fields start with ``_``)."""
    if kind == "run":
        return {"question": pl.String, "_iter": pl.String, "id": pl.String, "rank": pl.Int64,
                "score": pl.Float64, "_tag": pl.String}
    return {"question": pl.String, "_iter": pl.String, "id": pl.String, "grade": pl.Int64}


#: How polars reads a TREC file: fields split on one space, no quoting. Comment lines are left to
#: the line-splitting read (polars' ``comment_prefix`` made every read 20 % slower, measured on
#: a 434 MiB run): a comment shows up as a missing field, too many fields, or a question "#...".
_TREC_CSV = {"separator": " ", "has_header": False, "quote_char": None}


def _clean_trec(table: pl.DataFrame) -> pl.DataFrame | None:
    """A table as polars read it with :data:`_TREC_CSV` from a file without tabs, minus blank
    lines and ignored fields; None if a field is missing or a line is a comment."""
    if any(table.null_count().row(0)):
        table = table.filter(~pl.all_horizontal(pl.all().is_null()))  # blank lines
        if any(table.null_count().row(0)):
            return None
    if table["question"].str.starts_with("#").any():
        return None
    return table.drop([c for c in table.columns if c.startswith("_")])


def _bulk_trec(src: _Source, kind: str) -> pl.DataFrame | None:
    """Parse a TREC file with polars; None where it cannot (the caller then reads line by line)."""
    schema = _trec_schema(kind)
    table = None
    if not src.has_tab():  # one space between fields: the common case, parsed and typed by polars
        try:
            table = _clean_trec(pl.read_csv(src.polars_input(), schema=schema, **_TREC_CSV))
        except pl.exceptions.PolarsError:
            pass
    if table is None:
        table = _bulk_trec_split(src, schema)
    return table


def _bulk_trec_split(src: _Source, types: dict[str, pl.DataType]) -> pl.DataFrame | None:
    """Tabs and runs of spaces: read whole lines, split each on ``[ \\t]+``, then type the fields."""
    try:
        lines = pl.read_csv(src.polars_input(), separator="\x1f", has_header=False, quote_char=None,
                            new_columns=["line"], schema={"line": pl.String})
    except pl.exceptions.PolarsError:
        return None
    text = pl.col("line").str.strip_chars(" \t\r")
    lines = lines.select(text.alias("line")).filter(
        pl.col("line").is_not_null() & (pl.col("line") != "") & ~pl.col("line").str.starts_with("#")
    )
    names = list(types)
    pattern = r"^" + r"[ \t]+".join([r"([^ \t]+)"] * len(names)) + r"$"
    fields = pl.col("line").str.extract_groups(pattern).struct.rename_fields(names)
    parts = lines.select(fields).unnest("line")
    if parts.select(pl.any_horizontal(pl.all().is_null()).any()).item():
        return None
    typed = parts.select(
        pl.col(c).str.strip_chars().cast(types[c], strict=False) if types[c].is_numeric() else pl.col(c)
        for c in names if not c.startswith("_")
    )
    if any(typed.null_count().row(0)):
        return None
    return typed


def _bulk_csv(src: _Source, kind: str) -> pl.DataFrame | None:
    first = next(src.lines(), (1, ""))[1]
    header = [name.strip() for name in next(csv.reader([first]), [])]
    _check_header(header, src.name, kind)  # a repeated or missing column is refused by name here
    try:
        raw = pl.read_csv(src.polars_input(), infer_schema=False)
    except pl.exceptions.PolarsError:
        return None
    if header != raw.columns:
        return None
    schema = RUN_SCHEMA if kind == "run" else QRELS_SCHEMA
    out = []
    for name, dtype in schema.items():
        if name not in raw.columns:
            out.append(pl.lit(None, dtype=dtype).alias(name))
        elif dtype == pl.String:
            out.append(pl.col(name))
        else:  # polars' number parser, then the ASCII pattern of the line reader
            text = pl.col(name).str.strip_chars(" ")
            pattern = _INTEGER if dtype == pl.Int64 else _NUMBER
            number = text.cast(dtype, strict=False)
            out.append(pl.when(text.str.contains(f"^{pattern}$")).then(number).alias(name))
    table = raw.select(out)
    present = [c for c in schema if c in raw.columns]
    if table.select(pl.any_horizontal([pl.col(c).is_null() for c in present]).any()).item():
        return None
    return table


def _read_table(source: Any, format: str | None, kind: str) -> pl.DataFrame:
    return _read_source(_Source(source), _format_of(source, format), kind)


def _read_source(src: _Source, fmt: str, kind: str) -> pl.DataFrame:
    if fmt == "trec" and src.is_empty():
        return pl.DataFrame(schema=RUN_SCHEMA if kind == "run" else QRELS_SCHEMA)
    table = None
    if fmt == "trec":
        table = _bulk_trec(src, kind)
    elif fmt == "csv" and not src.is_empty():
        table = _bulk_csv(src, kind)
    if table is not None:
        table = table.select(list(RUN_SCHEMA if kind == "run" else QRELS_SCHEMA))
        if not _odd_rows(table, kind):
            return table
    return _line_reader(src, fmt, kind)


#: Bytes per slice when :func:`read_run_head` reads a TREC run a slice at a time. Measured on a
#: 434 MiB run (docs/design-notes.md): 16 MiB slices, the next parsed ahead, peak at 310-340 MiB of
#: memory, polars' own batches (``collect_batches``) at 450-770 MiB, the whole file at about 940 MiB,
#: for about the same time.
HEAD_SLICE_BYTES = 1 << 24


class _OddSlice(Exception):
    """A slice that :func:`read_run_head` leaves to the whole-file read."""


def _parsed_slices(src: _Source) -> Iterator[pl.DataFrame]:
    """Each slice of a TREC run as polars parses it; the next slice is parsed (in a thread, as
    polars releases the GIL) while the caller checks this one."""
    def parse(piece: bytes) -> pl.DataFrame:
        if b"\t" in piece:  # polars' one-byte separator cannot split it: the whole-file path can
            raise _OddSlice
        return pl.read_csv(piece, schema=_trec_schema("run"), **_TREC_CSV)

    with ThreadPoolExecutor(max_workers=1) as pool:
        pending = None
        for piece in src.slices(HEAD_SLICE_BYTES):
            ahead = pool.submit(parse, piece)
            if pending is not None:
                yield pending.result()
            pending = ahead
        if pending is not None:
            yield pending.result()


def _trec_head(src: _Source, k: int | None) -> pl.DataFrame | None:
    """:func:`read_run_head` of a TREC run, a slice at a time; None where a slice is odd (a tab,
    a comment, a bad field...) or a question comes back after other questions (the caller then
    reads the whole file)."""
    seen: set[str] = set()
    heads, held = [], None  # held: the last question read so far, whose lines may go on
    try:
        for parsed in chain(_parsed_slices(src), [None]):
            if parsed is None:
                batch, held = held, None
                if batch is None:
                    break
            else:
                batch = _clean_trec(parsed)
                if batch is None:
                    return None
                if held is not None:
                    batch = pl.concat([held, batch])
            blocks = batch["question"].rle()  # (len, value) per block of equal questions
            questions = blocks.struct.field("value")
            if parsed is not None and len(blocks):  # hold the last question back
                last = blocks[-1]["len"]
                batch, held, questions = batch.head(batch.height - last), batch.tail(last), questions.head(-1)
            if batch.height == 0:
                continue
            names = questions.to_list()
            if len(set(names)) != len(names) or not seen.isdisjoint(names):
                return None
            seen.update(names)
            if _odd_rows(batch, "run", questions):
                return None
            heads.append(order_run_table(batch, top=k))
    except (pl.exceptions.PolarsError, _OddSlice):
        return None
    return pl.concat(heads) if heads else None


def read_run_head(source: Any, k: int | None, format: str | None = None) -> pl.DataFrame:
    """Each question's first ``k`` results (all if None) in the tie rule's order, as ranked lists.

    What :func:`read_run_table` followed by :func:`ragmath.ranking.order_run_table` with
    ``top=k`` gives, in a run table's columns: ``score`` null and ``rank`` the position 1..k.
    ``ragmath.evaluate`` reads a run file with it (metrics at K need only the top K), and
    ``ragmath.fuse_runs`` with ``k`` = its window.
    Metrics at K <= ``k`` are the same on it as on the whole run. A TREC run whose questions each
    come as one block of lines (what programs write) is read and checked a slice of
    :data:`HEAD_SLICE_BYTES` bytes at a time, so memory follows ``k`` and the slice, not the file;
    any other source is read whole. Raises as :func:`read_run_table` does.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "run.trec"
    >>> _ = p.write_text("q1 Q0 d2 1 0.5 bm25\\nq1 Q0 d1 2 0.25 bm25\\nq1 Q0 d3 3 0.75 bm25\\n")
    >>> read_run_head(p, 2).rows()
    [('q1', 'd3', None, 1), ('q1', 'd2', None, 2)]
    """
    if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
        raise ValueError(f"k must be a whole number >= 1 or None, got {k!r}")
    fmt, src = _format_of(source, format), _Source(source)
    ordered = None
    if fmt == "trec" and not src.is_empty():
        ordered = _trec_head(src, k)
    if ordered is None:
        ordered = order_run_table(_read_source(src, fmt, "run"), top=k)
    return ordered.select(
        "question", "id", pl.lit(None, pl.Float64).alias("score"), pl.col("position").alias("rank")
    )


def read_run_table(source: Any, format: str | None = None) -> pl.DataFrame:
    """Read a run file (TREC, CSV or JSONL) into a run table, one row per line in file order.

    ``format`` is taken from the extension unless given (``.csv``, ``.jsonl``/``.ndjson``, else
    TREC); ``source`` may be a path, a named pipe or ``"-"`` (standard input). Raises
    ``ValueError`` naming file, line and field for malformed input (see the module docstring).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "run.trec"
    >>> _ = p.write_text("q1 Q0 d2 1 0.5 bm25\\nq1\\tQ0\\td1  2 0.25 bm25\\n")
    >>> read_run_table(p).rows()
    [('q1', 'd2', 0.5, 1), ('q1', 'd1', 0.25, 2)]
    """
    return _read_table(source, format, "run")


def read_qrels_table(source: Any, format: str | None = None) -> pl.DataFrame:
    """Read a qrels file (TREC, CSV or JSONL) into a qrels table (question, id, grade).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "qrels.trec"
    >>> _ = p.write_text("# judged by two people\\nq1 0 d1 2\\nq1 0 d7 0\\n")
    >>> read_qrels_table(p).rows()
    [('q1', 'd1', 2), ('q1', 'd7', 0)]
    """
    return _read_table(source, format, "qrels")


# --------------------------------------------------------------------------- DataFrames and mappings


def _frame_columns(frame: Any, kind: str) -> tuple[str, dict[str, pl.Series]]:
    """The wanted columns of a pandas or polars DataFrame as polars Series (IDs as text)."""
    if isinstance(frame, pl.DataFrame):
        names = frame.columns
        get = frame.get_column
    else:
        names = [str(c) for c in frame.columns]
        get = None
    if len(set(names)) != len(names):
        repeated = sorted({c for c in names if names.count(c) > 1})
        raise ValueError(f"DataFrame names column(s) {repeated} more than once; keep one of each")
    _check_header(names, "DataFrame", kind)
    out: dict[str, pl.Series] = {}
    for name in RUN_SCHEMA if kind == "run" else QRELS_SCHEMA:
        if name not in names:
            continue
        if get is not None:
            out[name] = get(name)
            continue
        column = frame[name]
        if name in ("question", "id"):
            try:  # text: polars refuses (TypeError) any value that is not a string
                out[name] = pl.Series(name, np.asarray(column, dtype=object), dtype=pl.String, strict=True)
                continue
            except TypeError:
                pass
            # Integers become their decimal text: converted once per distinct value.
            codes, uniques = pd.factorize(column, use_na_sentinel=True)
            if (codes < 0).any():
                return "rows", {}
            labels = [str(int(v)) if isinstance(v, numbers.Integral) and not _is_bool(v) else v
                      for v in np.asarray(uniques, dtype=object).tolist()]
            if not all(isinstance(label, str) for label in labels):
                return "rows", {}
            out[name] = pl.Series(name, labels, dtype=pl.String).gather(pl.Series(codes, dtype=pl.Int64))
        else:
            values = column.to_numpy()
            if values.dtype.kind not in "iuf":
                return "rows", {}
            out[name] = pl.Series(name, values)
    return "columns", out


def _frame_table(frame: Any, kind: str) -> pl.DataFrame:
    schema = RUN_SCHEMA if kind == "run" else QRELS_SCHEMA
    how, columns = _frame_columns(frame, kind)
    if how == "columns":
        try:
            table = pl.DataFrame(
                [
                    columns[c].cast(dtype, strict=True).alias(c) if c in columns
                    else pl.Series(c, [None] * len(frame), dtype)
                    for c, dtype in schema.items()
                ]
            )
            integral = [c for c in ("rank", "grade") if c in columns and columns[c].dtype.is_float()]
            exact = all(((columns[c].fill_nan(0.5).drop_nulls() % 1) == 0).all() for c in integral)
            if exact and not _odd_rows(table, kind):
                return table
        except (pl.exceptions.PolarsError, TypeError, ValueError, OverflowError):
            pass
    # Something is wrong (or unusual): check row by row, naming the first bad row.
    rows = frame.to_dicts() if isinstance(frame, pl.DataFrame) else frame.to_dict("records")
    names = {c: f"column {c!r}" for c in ("question", "id", "score", "rank", "grade")}
    records = (
        (_Where("DataFrame", "row", position), {k: (None if _is_missing(v) and k in ("score", "rank") else v)
                                                for k, v in row.items() if str(k) in schema})
        for position, row in enumerate(rows, start=1)
    )
    return _table_from_records(records, kind, names)


def _is_bool(value: Any) -> bool:
    return isinstance(value, (bool, np.bool_))


def _is_missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def run_table(run: Any) -> pl.DataFrame:
    """A run as a run table: from a pandas/polars DataFrame or a mapping, checked as files are.

    A DataFrame has columns ``question``, ``id`` and ``score`` and/or ``rank`` (errors name the
    row, 1 = first). A mapping gives question -> [IDs, best first] (rank 1, 2, ...; score null) or
    question -> {ID: score} (rank null). Integer IDs become their decimal text, so ``1`` and
    ``"1"`` in one question are a duplicate.

    >>> run_table({"q1": {"a": 0.5, "b": 0.75}, "q2": ["x", "y"]}).rows()
    [('q1', 'a', 0.5, None), ('q1', 'b', 0.75, None), ('q2', 'x', None, 1), ('q2', 'y', None, 2)]
    """
    if isinstance(run, (pl.DataFrame, pd.DataFrame)):
        return _frame_table(run, "run")
    if not isinstance(run, Mapping):
        raise TypeError(
            f"run must be a mapping question -> ranking, a DataFrame or a file path, got {type(run).__name__}"
        )

    def records() -> Iterator[tuple[_Where, dict[str, Any]]]:
        for question, ranking in run.items():
            q = _check_id(question, _Where("run", "question", None), "question")
            where = _Where(f"run[{q!r}]", "entry", None)
            if isinstance(ranking, Mapping):
                for doc, score in ranking.items():
                    yield where, {"question": q, "id": doc, "score": score, "rank": None}
            elif isinstance(ranking, (str, bytes)) or not isinstance(ranking, Iterable):
                raise TypeError(
                    f"run[{q!r}] is {type(ranking).__name__}; give a list of IDs or a dict {{id: score}}"
                )
            else:
                for position, doc in enumerate(ranking, start=1):
                    yield where, {"question": q, "id": doc, "score": None, "rank": position}

    return _table_from_records(records(), "run", {c: c for c in RUN_SCHEMA})


def qrels_table(qrels: Any) -> pl.DataFrame:
    """Labels as a qrels table: from a DataFrame (question, id, grade) or question -> {ID: grade}.

    >>> qrels_table({"q1": {"d1": 2, "d7": 0}}).rows()
    [('q1', 'd1', 2), ('q1', 'd7', 0)]
    """
    if isinstance(qrels, (pl.DataFrame, pd.DataFrame)):
        return _frame_table(qrels, "qrels")
    if not isinstance(qrels, Mapping):
        raise TypeError(
            f"qrels must be a mapping question -> {{id: grade}} or a DataFrame, got {type(qrels).__name__}"
        )

    def records() -> Iterator[tuple[_Where, dict[str, Any]]]:
        for question, labels in qrels.items():
            q = _check_id(question, _Where("qrels", "question", None), "question")
            if not isinstance(labels, Mapping):
                raise TypeError(f"qrels[{q!r}] is {type(labels).__name__}; give a dict {{id: grade}}")
            for doc, grade in labels.items():
                yield _Where(f"qrels[{q!r}]", "entry", None), {"question": q, "id": doc, "grade": grade}

    return _table_from_records(records(), "qrels", {c: c for c in QRELS_SCHEMA})


# --------------------------------------------------------------------------- mappings (views)


def run_mapping(table: pl.DataFrame) -> dict[str, Any]:
    """A run table as question -> {ID: score} in the tie rule's order, or -> [IDs] for ranks only.

    >>> run_mapping(run_table({"q1": {"b": 0.5, "a": 0.5, "c": 0.9}}))
    {'q1': {'c': 0.9, 'a': 0.5, 'b': 0.5}}
    """
    ordered = order_run_table(table)
    scored = table["score"].null_count() < table.height or table.height == 0
    if not scored:
        return {q: ids for q, ids in ordered.group_by("question", maintain_order=True).agg("id").iter_rows()}
    scores = ordered.join(table.select("question", "id", "score"), on=["question", "id"], how="left",
                          maintain_order="left")
    run: dict[str, Any] = {}
    for question, doc, score in scores.select("question", "id", "score").iter_rows():
        run.setdefault(question, {})[doc] = score
    return run


def qrels_mapping(table: pl.DataFrame) -> dict[str, dict[str, int]]:
    """A qrels table as question -> {ID: grade}, in file order."""
    qrels: dict[str, dict[str, int]] = {}
    for question, doc, grade in table.iter_rows():
        qrels.setdefault(question, {})[doc] = grade
    return qrels


def read_run(source: Any, format: str | None = None) -> dict[str, Any]:
    """Read a run file into question -> {ID: score} (tie rule's order), or -> [IDs] for ranks only.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "run.csv"
    >>> _ = p.write_text("question,id,rank\\nq1,b,2\\nq1,a,1\\n")
    >>> read_run(p)
    {'q1': ['a', 'b']}
    """
    return run_mapping(read_run_table(source, format))


def read_qrels(source: Any, format: str | None = None) -> dict[str, dict[str, int]]:
    """Read a qrels file into question -> {ID: grade}.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "qrels.jsonl"
    >>> _ = p.write_text('{"question": "q1", "id": "d1", "grade": 2}\\n')
    >>> read_qrels(p)
    {'q1': {'d1': 2}}
    """
    return qrels_mapping(read_qrels_table(source, format))


def read_trec_run(path: Any) -> dict[str, Any]:
    """:func:`read_run` of a TREC run file."""
    return read_run(path, "trec")


def read_trec_qrels(path: Any) -> dict[str, dict[str, int]]:
    """:func:`read_qrels` of a TREC qrels file."""
    return read_qrels(path, "trec")


def read_run_frame(source: Any, format: str | None = None) -> pd.DataFrame:
    """A run file as a pandas DataFrame (question, id, rank, score), rows as in the file."""
    return _to_pandas(read_run_table(source, format).select("question", "id", "rank", "score"))


def read_qrels_frame(source: Any, format: str | None = None) -> pd.DataFrame:
    """A qrels file as a pandas DataFrame (question, id, grade)."""
    return _to_pandas(read_qrels_table(source, format))


def _to_pandas(table: pl.DataFrame) -> pd.DataFrame:
    """A polars table as a pandas DataFrame, text as Python strings (no pyarrow needed)."""
    return pd.DataFrame({name: table[name].to_numpy() for name in table.columns})


def run_to_frame(run: Any) -> pd.DataFrame:
    """A run as a pandas DataFrame (question, id, rank and, if scored, score), best first."""
    table = run_table(run)
    frame = _to_pandas(_ordered_for_writing(table))
    return frame.drop(columns="score") if _ranked_only(table) else frame


def run_from_frame(frame: Any) -> dict[str, Any]:
    """A run DataFrame as a mapping (see :func:`run_mapping`)."""
    return run_mapping(run_table(frame))


def qrels_to_frame(qrels: Any) -> pd.DataFrame:
    """Labels as a pandas DataFrame (question, id, grade)."""
    return _to_pandas(qrels_table(qrels))


def qrels_from_frame(frame: Any) -> dict[str, dict[str, int]]:
    """A qrels DataFrame as question -> {ID: grade}."""
    return qrels_mapping(qrels_table(frame))


# --------------------------------------------------------------------------- writers


def _ordered_for_writing(table: pl.DataFrame) -> pl.DataFrame:
    """(question, id, rank, score) rows as written: a table with scores and ranks row for row,
    else in the tie rule's order with ranks 1..n; ranked lists get scores n, n-1, ..., 1."""
    if table.height and table["score"].null_count() == 0 and table["rank"].null_count() == 0:
        return table.select("question", "id", "rank", "score")
    ordered = order_run_table(table).join(
        table.select("question", "id", "score"), on=["question", "id"], how="left", maintain_order="left"
    )
    size = pl.len().over("question")
    return ordered.select(
        "question", "id", pl.col("position").alias("rank"),
        pl.col("score").fill_null((size - pl.col("position") + 1).cast(pl.Float64)),
    )


def _ranked_only(table: pl.DataFrame) -> bool:
    return table.height > 0 and table["score"].null_count() == table.height


def _check_tag(tag: Any) -> str:
    if not isinstance(tag, str) or tag == "" or _FORBIDDEN_RE.search(tag) or tag.startswith("#"):
        raise ValueError(f"tag {tag!r} must be non-empty text without whitespace, e.g. 'rrf'")
    return tag


def _refuse_comment_questions(table: pl.DataFrame) -> None:
    hashed = table.filter(pl.col("question").str.starts_with("#"))
    if hashed.height:
        raise ValueError(
            f"question {_quote(hashed['question'][0])} starts with '#', which a TREC file reads as a "
            "comment line; rename it or write CSV/JSONL"
        )


def _atomic_write(target: Any, data: bytes) -> None:
    """Write ``data`` to ``target``: a stream, ``"-"`` (standard output), or a path written atomically."""
    if hasattr(target, "write"):
        target.write(data.decode("utf-8") if isinstance(target, _stdio.TextIOBase) else data)
        return
    path = os.fspath(target)
    if path == "-":
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    folder = os.path.dirname(os.path.abspath(path))
    prefix = f".{os.path.basename(path)}."
    handle = tempfile.NamedTemporaryFile(dir=folder, prefix=prefix, suffix=".tmp", delete=False)
    try:
        with handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if os.path.exists(path):
            os.chmod(handle.name, stat.S_IMODE(os.stat(path).st_mode))
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(handle.name, 0o666 & ~umask)
        os.replace(handle.name, path)
    except BaseException:
        if os.path.exists(handle.name):
            os.unlink(handle.name)
        raise


def _table_bytes(table: pl.DataFrame, fmt: str, columns: list[str]) -> bytes:
    if fmt == "jsonl":
        return table.select(columns).write_ndjson().encode("utf-8")
    return table.select(columns).write_csv(quote_style="necessary").encode("utf-8")


def write_run(run: Any, path: Any, format: str | None = None, tag: str = "ragmath") -> None:
    """Write a run (mapping, DataFrame or run table) as TREC, CSV or JSONL, atomically.

    ``path`` may be a file path (format from its extension unless given), ``"-"`` for standard
    output, or an open stream (TREC unless ``format`` says otherwise). Raises ``ValueError`` or
    ``TypeError`` on a bad run before anything is written.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "run.trec"
    >>> write_run({"q1": {"a": 0.25, "b": 0.5}, "q2": ["x"]}, p, tag="demo")
    >>> print(p.read_text(), end="")
    q1 Q0 b 1 0.5 demo
    q1 Q0 a 2 0.25 demo
    q2 Q0 x 1 1.0 demo
    """
    fmt = _format_of(path if not hasattr(path, "write") else "", format)
    table = run_table(run)
    rows = _ordered_for_writing(table)
    if fmt == "trec":
        tag = _check_tag(tag)
        _refuse_comment_questions(rows)
        q0, tag_column = pl.lit("Q0").alias("q0"), pl.lit(tag).alias("tag")
        rows = rows.select("question", q0, "id", "rank", "score", tag_column)
        data = rows.write_csv(separator=" ", include_header=False, quote_style="never").encode("utf-8")
    else:  # a run of ranked lists keeps no score column, so it reads back as ranked lists
        columns = ["question", "id", "rank"] + ([] if _ranked_only(table) else ["score"])
        data = _table_bytes(rows, fmt, columns)
    _atomic_write(path, data)


def write_qrels(qrels: Any, path: Any, format: str | None = None) -> None:
    """Write labels (mapping, DataFrame or qrels table) as TREC qrels, CSV or JSONL, atomically.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "qrels.csv"
    >>> write_qrels({"q1": {"d1": 2}}, p)
    >>> print(p.read_text(), end="")
    question,id,grade
    q1,d1,2
    """
    fmt = _format_of(path if not hasattr(path, "write") else "", format)
    table = qrels_table(qrels)
    if fmt == "trec":
        _refuse_comment_questions(table)
        rows = table.select("question", pl.lit("0").alias("iteration"), "id", "grade")
        data = rows.write_csv(separator=" ", include_header=False, quote_style="never").encode("utf-8")
    else:
        data = _table_bytes(table, fmt, ["question", "id", "grade"])
    _atomic_write(path, data)


def write_trec_run(run: Any, path: Any, tag: str = "ragmath") -> None:
    """:func:`write_run` as a TREC run file."""
    write_run(run, path, "trec", tag=tag)


def write_trec_qrels(qrels: Any, path: Any) -> None:
    """:func:`write_qrels` as a TREC qrels file."""
    write_qrels(qrels, path, "trec")


def write_run_frame(frame: Any, path: Any, format: str | None = None, tag: str = "ragmath") -> None:
    """:func:`write_run` of a run DataFrame (e.g. a fused run), kept for older code."""
    write_run(frame, path, format, tag=tag)
