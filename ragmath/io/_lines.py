"""The line reader: reads a file record by record, to name the file, line and field of the first mistake."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import polars as pl

from ragmath.io._checks import BLANK, SCHEMAS, _check_id, _check_int, _check_score, _quote, _Where
from ragmath.io._sources import _Source

#: The fields of a TREC line, and the table's column for each field that is read.
_TREC_LAYOUT = {
    "run": ("qid", "Q0", "docid", "rank", "score", "tag"),
    "qrels": ("qid", "iteration", "docid", "grade"),
}
_TREC_COLUMNS = {"qid": "question", "docid": "id", "rank": "rank", "score": "score", "grade": "grade"}
#: How an error names each column of a table (``column 'score'``); a TREC line's are ``field 5 (score)``.
COLUMN_NAMES = {c: f"column {c!r}" for c in ("question", "id", "score", "rank", "grade")}


def _trec_records(src: _Source, kind: str) -> Iterator[tuple[_Where, dict[str, str]]]:
    """(where, record) per data line of a TREC file; blank and ``#`` comment lines skipped."""
    layout = _TREC_LAYOUT[kind]
    read = {i: _TREC_COLUMNS[name] for i, name in enumerate(layout) if name in _TREC_COLUMNS}
    for number, text in src.lines():
        line = text.removesuffix("\r")
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
        yield where, {column: fields[i] for i, column in read.items()}


def _csv_records(src: _Source, kind: str) -> Iterator[tuple[_Where, dict[str, str]]]:
    # Lines keep their ends, so that a quoted field keeps a line break inside it (and an ID with
    # one is refused, as the bulk read refuses it) instead of losing it.
    rows = csv.reader(text for _number, text in src.lines(keep_ends=True))
    try:
        header = [name.strip() for name in next(rows)]
    except StopIteration:
        raise ValueError(f"{src.name}: empty file; a CSV needs a header row") from None
    _check_header(header, src.name, kind)
    try:
        for row in rows:
            where = _Where(src.name, "line", rows.line_num)
            if not row or all(cell.strip() == "" for cell in row):
                continue
            if len(row) != len(header):
                raise where.fail(None, f"expected {len(header)} fields as in the header, found {len(row)}: "
                                       f"{_quote(','.join(row))}")
            yield where, dict(zip(header, row, strict=True))
    except csv.Error as exc:  # e.g. a carriage return inside an unquoted field
        where = _Where(src.name, "line", rows.line_num)
        if "new-line character" in str(exc):  # csv's own words name Python's modes, not the file's problem
            raise where.fail(None, "a carriage return (\\r) alone ends a line here, outside quotes (old Mac "
                                   "line endings, or line endings mixed by an editor); ragmath does not read "
                                   "it: save the file with \\n (Unix) or \\r\\n (Windows) line endings, e.g. "
                                   "from a spreadsheet as 'CSV UTF-8'") from None
        raise where.fail(None, f"not valid CSV ({exc})") from None


class _RepeatedKey(Exception):
    pass


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's pairs as a dict; a key given twice raises (``json`` would keep the last)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _RepeatedKey(key)
        out[key] = value
    return out


def read_jsonl(source: Any, name: str | None = None) -> list[tuple[int, dict[str, Any]]]:
    """(line number, object) for each non-blank line of a JSONL file (a path, ``"-"`` or bytes), read
    as :func:`jsonl_objects` reads it; ``name`` names the file in messages.

    >>> read_jsonl(b'{"a": 1}\\n\\n{"a": 2}\\n')
    [(1, {'a': 1}), (3, {'a': 2})]
    """
    return [(where.number, record) for where, record in jsonl_objects(_Source(source, name=name))]


def jsonl_objects(src: _Source) -> Iterator[tuple[_Where, dict[str, Any]]]:
    """(where, object) for each non-blank line of a JSONL file: the one JSONL reader (the workbook's
    data files too). Refused (``ValueError`` naming file and line): invalid JSON, a value that is not
    an object, a key given twice, a value nested too deeply (about 1,000 levels), an integer of over
    4,300 digits, bytes not UTF-8.

    >>> [(w.number, o) for w, o in jsonl_objects(_Source(b'{"a": 1}\\n\\n{"a": 2}\\n'))]
    [(1, {'a': 1}), (3, {'a': 2})]
    >>> next(jsonl_objects(_Source(b'{"a": 1, "a": 2}')))
    Traceback (most recent call last):
    ...
    ValueError: <bytes>, line 1, key 'a': given twice in one object; keep one
    """
    for number, text in src.lines():
        if not text.strip():
            continue
        where = _Where(src.name, "line", number)
        try:
            obj = json.loads(text, object_pairs_hook=_unique_keys)
        except json.JSONDecodeError as exc:
            problem = f"not valid JSON ({exc.msg}, column {exc.colno}): {_quote(text)}"
            raise where.fail(None, problem) from None
        except _RepeatedKey as exc:
            raise where.fail(f"key {exc.args[0]!r}", "given twice in one object; keep one") from None
        except RecursionError:
            raise where.fail(None, "a value nested too deeply to read (over about 1,000 levels); "
                                   "flatten it") from None
        except ValueError as exc:  # an integer of more than 4,300 digits
            raise where.fail(None, f"not readable JSON ({exc})") from None
        if not isinstance(obj, dict):
            problem = f"expected a JSON object {{...}}, got {type(obj).__name__}: {_quote(text)}"
            raise where.fail(None, problem)
        yield where, obj


def _jsonl_records(src: _Source, kind: str) -> Iterator[tuple[_Where, dict[str, Any]]]:
    """The objects of a run or qrels JSONL file; every line has the first line's fields, none null."""
    needed: list[str] | None = None
    for where, obj in jsonl_objects(src):
        if needed is None:
            _check_header(list(obj), src.name, kind)
            needed = [c for c in ("question", "id", "score", "rank", "grade") if c in obj]
        for key in ("score", "rank") if kind == "run" else ():
            if key in obj and key not in needed:
                raise where.fail(
                    f"field {key!r}",
                    f"given here but not on the first line, whose fields are {needed}; give every line "
                    "the same fields (a run is scored on every line, or ranked on every line)",
                )
        for key in needed:
            if obj.get(key) is None and not (key == "grade" and key in obj):  # null grade: not judged yet
                what = "null; give a value on every line" if key in obj else "missing; every line needs it"
                raise where.fail(f"field {key!r}", f"{what} (the first line's fields are {needed})")
        yield where, obj


def _check_header(columns: list[str], name: str, kind: str) -> None:
    repeated = sorted({c for c in columns if columns.count(c) > 1})
    if repeated:
        raise ValueError(f"{name}: the header names {repeated} more than once; keep one column of each name")
    missing = [c for c in ("question", "id") if c not in columns]
    if kind == "run" and "score" not in columns and "rank" not in columns:
        missing.append("score or rank")
    if kind == "qrels" and "grade" not in columns:
        missing.append("grade")
    if missing and len(columns) == 1 and any(sep in columns[0] for sep in ";\t|"):
        sep = next(sep for sep in ";\t|" if sep in columns[0])  # a spreadsheet's locale-dependent "CSV"
        raise ValueError(f"{name}: the header {columns[0]!r} is separated by {sep!r}, not by commas; save "
                         "the file as CSV with commas (e.g. from a spreadsheet as 'CSV UTF-8 (comma "
                         "delimited)')")
    if missing:
        raise ValueError(
            f"{name}: missing columns: {', '.join(missing)}; found {columns}. A run table needs "
            "question, id and score (or rank); a qrels table question, id, grade"
        )


def _field_names(fmt: str, kind: str) -> dict[str, str]:
    """How an error names each column: ``field 5 (score)`` on a TREC line, ``column 'score'`` in a table."""
    if fmt != "trec":
        return COLUMN_NAMES
    return {_TREC_COLUMNS[name]: f"field {i + 1} ({name})"
            for i, name in enumerate(_TREC_LAYOUT[kind]) if name in _TREC_COLUMNS}


def blank_grade(value: Any) -> bool:
    """True for the grade of a pair not judged yet in a labels file: an empty cell (spaces and tabs
    only), JSON ``null`` or ``""``.

    >>> blank_grade(""), blank_grade(" \\t"), blank_grade(None), blank_grade("0"), blank_grade(0)
    (True, True, True, False, False)
    """
    return value is None or (isinstance(value, str) and value.strip(BLANK) == "")


def _table_from_records(
    records: Iterable[tuple[_Where, Mapping[str, Any]]], kind: str, names: dict[str, str],
    unjudged: bool = False,
) -> pl.DataFrame:
    """Check every record, in order, and build the table: the reference for every reader.

    With ``unjudged`` (a labels file), a row whose grade is blank (:func:`blank_grade`) is a pair not
    judged yet: its question and ID are checked (and count for duplicates), and the row is left out.
    """
    columns: dict[str, list] = {c: [] for c in SCHEMAS[kind]}
    id_first: dict[tuple[str, str], _Where] = {}  # where each (question, id) was first seen
    rank_first: dict[tuple[str, int], _Where] = {}  # where each (question, rank) of a ranked list
    scored_first: dict[str, tuple[bool, _Where]] = {}  # is each question scored, and where first seen
    for where, record in records:
        question = _check_id(record["question"], where, names["question"])
        doc = _check_id(record["id"], where, names["id"])
        seen = id_first.setdefault((question, doc), where)
        if seen is not where:
            raise where.fail(
                names["id"],
                f"duplicate (question {_quote(question)}, id {_quote(doc)}), first seen on {seen.kind} "
                f"{seen.number}; each ID may appear once per question (dedupe first, e.g. "
                "ragmath.units.dedupe)",
            )
        if unjudged and blank_grade(record["grade"]):
            continue
        columns["question"].append(question)
        columns["id"].append(doc)
        if kind == "qrels":
            columns["grade"].append(_check_int(record["grade"], where, names["grade"], "grade"))
            continue
        score, rank = record.get("score"), record.get("rank")
        if score is None and rank is None:
            raise where.fail(names["score"], "no score and no rank; give one of them")
        columns["score"].append(None if score is None else _check_score(score, where, names["score"]))
        columns["rank"].append(None if rank is None else _check_int(rank, where, names["rank"], "rank"))
        if score is None:
            seen = rank_first.setdefault((question, columns["rank"][-1]), where)
            if seen is not where:
                raise where.fail(
                    names["rank"],
                    f"rank {columns['rank'][-1]} of question {_quote(question)} already used on {seen.kind} "
                    f"{seen.number}; ranks must be distinct within a question (or give a score column)",
                )
        scored, seen = scored_first.setdefault(question, (score is not None, where))
        if scored != (score is not None):
            raise where.fail(
                names["score"],
                f"{'no score' if scored else 'a score'} here, but question {_quote(question)} has "
                f"{'one' if scored else 'none'} on {seen.kind} {seen.number}; a question is scored on "
                "every row or ranked on every row: give every row a score",
            )
    return pl.DataFrame(columns, schema=SCHEMAS[kind])


def _line_reader(src: _Source, fmt: str, kind: str) -> pl.DataFrame:
    """Read ``src`` line by line: slow, and the one place that words a file's errors."""
    records = {"trec": _trec_records, "csv": _csv_records, "jsonl": _jsonl_records}[fmt](src, kind)
    return _table_from_records(records, kind, _field_names(fmt, kind), unjudged=kind == "qrels")
