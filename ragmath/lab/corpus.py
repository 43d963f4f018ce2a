"""Load and check the toy corpus, the questions, their labels, the identities and the run config.

The workbook's data lives in ``ragmath.lab.paths.DATA_DIR`` (``<repo>/data``; ``data/README.md`` describes
every field): ``corpus.jsonl`` (a chunk a line; ``published_on`` defaults to ``effective_from``,
``effective_to`` is null or an exclusive date), ``questions.jsonl`` (a question a line), ``qrels.csv``
(``question_id,chunk_id,grade``: 2 answers, 1 helps, 0 checked and irrelevant), ``identities.csv``
(``identity,roles,description``, roles ``;``-separated) and ``config.json`` (see ``ragmath.lab.holdout``).

**The holdout is sealed.** Every loader validates every line, but returns only the dev questions and their
labels unless told ``include_holdout=True``, which only ``ragmath.lab.holdout.open_holdout`` passes.
:func:`split_manifest` lists IDs, types, groups and sides (no text, answers or labels) to check the split.

Every loader accepts a file path or the directory holding the file, returns new objects (pandas DataFrames
or a dict) and mutates nothing. Bad data is refused with a ``ValueError`` whose message starts with
``<file>, line <n>, field '<name>':`` (JSONL lines count from 1; in a CSV file the header is line 1), then
says what is wrong and how to fix it. Extra fields are kept, never refused.

>>> corpus = load_corpus()
>>> corpus.set_index("chunk_id").loc["TRV26-4.2-a", "clause_id"]
'TRV-2026§4.2'
>>> qrels_for(["Q07"])["Q07"]["TRV26-7.4"]
2
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
import numbers
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Union

import pandas as pd

from ragmath.io import read_jsonl
from ragmath.lab.paths import data_dir  # the data folder, or an error saying where it is expected

__all__ = ["CANONICAL_FILES", "CHUNK_KINDS", "QUESTION_TYPES", "SPLITS", "Dataset", "chunk_to_clause",
           "chunk_to_document", "corpus_hash", "data_dir", "load_config", "load_corpus", "load_dataset",
           "load_identities", "load_qrels", "load_questions", "parse_date", "qrels_for", "split_manifest",
           "split_problems"]

PathLike = Union[str, "os.PathLike[str]"]

#: The eight question types the ablation reports on (issue 3).
QUESTION_TYPES: tuple[str, ...] = ("single-hop", "multi-hop", "no-answer", "conflict", "table",
                                   "cross-permission", "exact-id", "paraphrase")
#: What a chunk holds: running text, a table kept whole (Markdown pipes), or one record.
CHUNK_KINDS: tuple[str, ...] = ("text", "table", "record")
#: The two sides of the grouped split.
SPLITS: tuple[str, ...] = ("dev", "holdout")
#: The files :func:`corpus_hash` reads, in this order.
CANONICAL_FILES: tuple[str, ...] = ("corpus.jsonl", "questions.jsonl", "qrels.csv", "identities.csv",
                                    "config.json")

CORPUS_FIELDS: tuple[str, ...] = ("chunk_id", "doc_id", "doc_title", "clause_id", "clause_no", "edition",
                                  "published_on", "effective_from", "effective_to", "readers", "kind",
                                  "title", "text", "gloss")
QUESTION_FIELDS: tuple[str, ...] = ("question_id", "text", "gloss", "type", "identity", "answer_text",
                                    "answer_number", "group", "split")
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_INT_RE = re.compile(r"^[+-]?\d+$")


def _resolve(path: PathLike | None, filename: str) -> Path:
    """Return the file to read: ``path`` itself, ``path/filename`` for a directory, or the default."""
    if path is None:
        return data_dir() / filename
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike pointing to {filename} (or its directory), got "
                        f"{type(path).__name__}")
    resolved = Path(path)
    if resolved.is_dir():
        resolved = resolved / filename
    if not resolved.is_file():
        raise FileNotFoundError(f"{resolved}: no such file; expected the workbook's {filename}")
    return resolved


class _Where:
    """A place in a data file, for error messages: the file's name, line number, ``field 'x'``."""

    def __init__(self, path: Path, line: int | None = None) -> None:
        self.source, self.number = path.name, line

    def fail(self, field: str | None, problem: str) -> ValueError:
        place = self.source if self.number is None else f"{self.source}, line {self.number}"
        if field is not None:
            place += f", field {field!r}"
        return ValueError(f"{place}: {problem}")


def parse_date(value: Any, name: str = "date") -> date:
    """Return ``value`` as a ``datetime.date``; accepts a date or an ISO string ``YYYY-MM-DD``.

    >>> parse_date("2026-06-30")
    datetime.date(2026, 6, 30)

    Raises ``ValueError`` (bad string) or ``TypeError`` (other types), naming ``name``.
    """
    if isinstance(value, date):
        return value.date() if hasattr(value, "date") and callable(value.date) else value
    if isinstance(value, str):
        if _DATE_RE.match(value):
            try:
                return date.fromisoformat(value)
            except ValueError:
                pass
        raise ValueError(f"{name} must be a date written YYYY-MM-DD, e.g. '2026-06-30', got {value!r}")
    raise TypeError(f"{name} must be a datetime.date or a string 'YYYY-MM-DD', got {type(value).__name__} "
                    f"{value!r}")


def _date_field(value: Any, where: _Where, field: str, *, nullable: bool = False) -> date | None:
    if value is None and nullable:
        return None
    if not isinstance(value, str):
        accepted = "null or a string" if nullable else "a string"
        raise where.fail(field, f"{value!r} is not a date; write {accepted} 'YYYY-MM-DD', e.g. "
                                "\"2026-01-01\"")
    try:
        return parse_date(value, field)
    except ValueError:
        raise where.fail(field, f'{value!r} is not a valid date; write YYYY-MM-DD, e.g. '
                                '"2026-01-01"') from None


def _text_field(record: Mapping[str, Any], where: _Where, field: str) -> str:
    if field not in record:
        raise where.fail(field, "missing; every row needs it")
    value = record[field]
    if not isinstance(value, str) or not value.strip():
        raise where.fail(field, f"must be a non-empty string, got {value!r}")
    if value != value.strip():
        raise where.fail(field, f"{value!r} has leading or trailing whitespace; remove it")
    return value


def _jsonl_records(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """(line number, object) per non-blank line, by the one JSONL reader, :func:`ragmath.io.read_jsonl`."""
    return read_jsonl(path, name=path.name)


def _csv_rows(path: Path, required: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    """Read a CSV file with a header into (line number, row) pairs; the header is line 1."""
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            reader = csv.reader(handle)
            header = next(reader, None)
            if header is None:
                raise _Where(path, 1).fail(None, f"empty file; expected the header {','.join(required)}")
            header = [name.strip() for name in header]
            for name in required:
                if name not in header:
                    raise _Where(path, 1).fail(name, f"missing from the header {header}; expected "
                                                     f"{','.join(required)}")
            rows = []
            for cells in reader:
                if not any(cell.strip() for cell in cells):
                    continue
                where = _Where(path, reader.line_num)
                if len(cells) != len(header):
                    raise where.fail(None, f"has {len(cells)} cells, the header has {len(header)}; quote "
                                           "cells that contain commas")
                rows.append((reader.line_num, dict(zip(header, (c.strip() for c in cells), strict=True))))
            return rows
    except UnicodeDecodeError as error:
        raise ValueError(f"{path.name}: not UTF-8 ({error}); save the file as UTF-8") from None


def _frame(rows: list[dict[str, Any]], fields: tuple[str, ...]) -> pd.DataFrame:
    """The rows as a DataFrame: ``fields`` first, then any extra field in the order the rows name them."""
    extras = [c for c in dict.fromkeys(k for r in rows for k in r) if c not in fields]
    return pd.DataFrame(rows, columns=[*fields, *extras])


def _check_include_holdout(include_holdout: Any) -> None:
    if not isinstance(include_holdout, bool):
        raise TypeError(f"include_holdout must be True or False, got {include_holdout!r}")


def load_corpus(path: PathLike | None = None) -> pd.DataFrame:
    """Load ``corpus.jsonl`` as a DataFrame, one row per chunk, in file order.

    ``readers`` becomes a tuple of role names, the dates ``datetime.date`` (``effective_to`` may be None).

    >>> corpus = load_corpus()
    >>> corpus.loc[corpus.chunk_id == "TRV25-4.2-a", "effective_to"].item()
    datetime.date(2026, 1, 1)

    Raises ``ValueError`` naming file, line and field for: invalid JSON, a missing or empty field, a duplicate
    ``chunk_id``, an unknown ``kind``, empty ``readers``, a bad date, ``effective_to`` not after
    ``effective_from``, a ``clause_id`` used by two documents, or one ``doc_id`` with two titles or editions.
    """
    file = _resolve(path, "corpus.jsonl")
    rows, first_line = [], {}
    clause_doc: dict[str, tuple[str, int]] = {}
    doc_meta: dict[str, tuple[str, str, int]] = {}
    for number, record in _jsonl_records(file):
        where = _Where(file, number)
        row = dict(record)
        for field in ("chunk_id", "doc_id", "doc_title", "clause_id", "clause_no", "edition",
                      "title", "text", "gloss"):
            row[field] = _text_field(record, where, field)
        chunk_id = row["chunk_id"]
        if chunk_id in first_line:
            raise where.fail("chunk_id", f"duplicate chunk ID {chunk_id!r} (first on line "
                                         f"{first_line[chunk_id]}); chunk IDs must be unique")
        first_line[chunk_id] = number
        if record.get("kind") not in CHUNK_KINDS:
            raise where.fail("kind", f"{record.get('kind')!r} is not one of {list(CHUNK_KINDS)}")
        row["readers"] = _readers_field(record, where)
        row["effective_from"], row["effective_to"], row["published_on"] = _chunk_dates(record, where)
        _check_document(row, where, number, clause_doc, doc_meta)
        rows.append(row)
    if not rows:
        raise _Where(file).fail(None, "no chunks; the corpus needs at least one line")
    return _frame(rows, CORPUS_FIELDS)


def _readers_field(record: Mapping[str, Any], where: _Where) -> tuple[str, ...]:
    """A chunk's ``readers`` as a tuple; an error unless it is a non-empty list of role names."""
    readers = record.get("readers")
    if (not isinstance(readers, list) or not readers
            or not all(isinstance(r, str) and r.strip() for r in readers)):
        raise where.fail("readers", 'must be a non-empty list of role names, e.g. ["employee"], got '
                                    f'{readers!r}')
    return tuple(readers)


def _chunk_dates(record: Mapping[str, Any], where: _Where) -> tuple[date, date | None, date]:
    """A chunk's ``effective_from``, ``effective_to`` and ``published_on`` (default: effective_from)."""
    if "effective_from" not in record:
        raise where.fail("effective_from", "missing; every chunk needs the date it takes effect")
    if "effective_to" not in record:
        raise where.fail("effective_to", "missing; write null when the chunk is still in force")
    effective_from = _date_field(record["effective_from"], where, "effective_from")
    effective_to = _date_field(record["effective_to"], where, "effective_to", nullable=True)
    if effective_to is not None and effective_to <= effective_from:
        raise where.fail("effective_to", f"{record['effective_to']} is not after effective_from "
                                         f"{record['effective_from']} (effective_to is exclusive); fix "
                                         "one of the dates")
    published_on = (effective_from if record.get("published_on") is None
                    else _date_field(record["published_on"], where, "published_on"))
    return effective_from, effective_to, published_on


def _check_document(row: Mapping[str, Any], where: _Where, number: int,
                    clauses: dict[str, tuple[str, int]], documents: dict[str, tuple[str, str, int]]) -> None:
    """Refuse a clause ID another document owns, or a second title or edition of a document."""
    doc, clause = row["doc_id"], row["clause_id"]
    if clause in clauses and clauses[clause][0] != doc:
        owner, line = clauses[clause]
        raise where.fail("clause_id", f"{clause!r} already belongs to document {owner!r} (line {line}); "
                                      "clause IDs are unique across documents")
    clauses.setdefault(clause, (doc, number))
    meta = (row["doc_title"], row["edition"])
    if doc in documents and documents[doc][:2] != meta:
        field = "doc_title" if documents[doc][0] != meta[0] else "edition"
        value = documents[doc][0 if field == "doc_title" else 1]
        raise where.fail(field, f"document {doc!r} has {field} {value!r} on line {documents[doc][2]}; "
                                "one document has one title and one edition")
    documents.setdefault(doc, (*meta, number))


def load_identities(path: PathLike | None = None) -> pd.DataFrame:
    """Load ``identities.csv`` as a DataFrame indexed by identity; ``roles`` is a tuple of str.

    >>> load_identities().loc["finance_officer", "roles"]
    ('employee', 'finance')

    Raises ``ValueError`` (file, line, field) for an empty identity, a duplicate identity, or empty roles.
    """
    file = _resolve(path, "identities.csv")
    rows, seen = [], {}
    for number, cells in _csv_rows(file, ("identity", "roles", "description")):
        where = _Where(file, number)
        name = cells["identity"]
        if not name or any(ch.isspace() for ch in name):
            raise where.fail("identity", f"{name!r} must be a non-empty name without spaces")
        if name in seen:
            raise where.fail("identity", f"duplicate identity {name!r} (first on line {seen[name]})")
        seen[name] = number
        roles = tuple(r.strip() for r in cells["roles"].split(";"))
        if not cells["roles"] or not all(roles):
            raise where.fail("roles", f"{cells['roles']!r}: list one or more roles separated by ';', e.g. "
                                      "employee;finance")
        rows.append({**cells, "roles": roles})
    if not rows:
        raise _Where(file).fail(None, "no identities; add at least one row")
    return pd.DataFrame(rows).set_index("identity")


def _identity_names(identities: pd.DataFrame | Mapping[str, Any] | None, sibling: Path) -> set[str]:
    if identities is None:
        identities = load_identities(sibling)
    if isinstance(identities, pd.DataFrame):
        return set(identities.index if "identity" not in identities.columns else identities.identity)
    if isinstance(identities, Mapping):
        return set(identities)
    raise TypeError("identities must be the DataFrame of load_identities() or a mapping identity -> roles, "
                    f"got {type(identities).__name__}")


def load_questions(path: PathLike | None = None, *, include_holdout: bool = False,
                   identities: pd.DataFrame | Mapping[str, Any] | None = None) -> pd.DataFrame:
    """Load ``questions.jsonl`` as a DataFrame, one row per dev question, in file order.

    Holdout lines are returned too with ``include_holdout=True``; identities are checked against
    ``identities`` (default: ``identities.csv`` beside the file).

    >>> questions = load_questions()
    >>> questions.set_index("question_id").loc["Q08", "answer_number"]
    38.5

    Raises ``ValueError`` (file, line, field) for a missing or empty field, a duplicate ``question_id``, a
    ``type`` outside :data:`QUESTION_TYPES`, an unknown ``identity``, an ``answer_number`` that is not a
    finite number or null, or a ``split`` other than dev/holdout.
    """
    file = _resolve(path, "questions.jsonl")
    known = _identity_names(identities, file.parent)
    rows, seen = [], {}
    for number, record in _jsonl_records(file):
        where = _Where(file, number)
        row = dict(record)
        for field in ("question_id", "text", "gloss", "answer_text", "group"):
            row[field] = _text_field(record, where, field)
        qid = row["question_id"]
        if qid in seen:
            raise where.fail("question_id", f"duplicate question ID {qid!r} (first on line {seen[qid]})")
        seen[qid] = number
        if record.get("type") not in QUESTION_TYPES:
            raise where.fail("type", f"{record.get('type')!r} is not one of {list(QUESTION_TYPES)}")
        if record.get("identity") not in known:
            raise where.fail("identity", f"unknown identity {record.get('identity')!r}; known: "
                                         f"{sorted(known)} (add it to identities.csv)")
        if "answer_number" not in record:
            raise where.fail("answer_number", "missing; write null when the answer is not a number")
        value = record["answer_number"]
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
                raise where.fail("answer_number", f"{value!r} must be a finite number or null")
            row["answer_number"] = float(value)
        if record.get("split") not in SPLITS:
            raise where.fail("split", f"{record.get('split')!r} is not one of {list(SPLITS)}; run "
                                      "data/make_split.py")
        rows.append(row)
    if not rows:
        raise _Where(file).fail(None, "no questions; add at least one line")
    _check_include_holdout(include_holdout)
    if not include_holdout:
        rows = [r for r in rows if r["split"] == "dev"]
    frame = _frame(rows, QUESTION_FIELDS)
    frame["answer_number"] = frame["answer_number"].astype(object)
    frame.loc[frame["answer_number"].isna(), "answer_number"] = None
    return frame


def load_qrels(path: PathLike | None = None, *, corpus: pd.DataFrame | None = None,
               questions: pd.DataFrame | None = None, identities: pd.DataFrame | None = None,
               include_holdout: bool = False) -> pd.DataFrame:
    """Load ``qrels.csv`` as a DataFrame with columns question_id, chunk_id, grade (int).

    Labels are checked against the corpus, questions and identities (default: the files beside
    ``qrels.csv``): no label with grade > 0 may point to a chunk the question's identity cannot read.
    Holdout labels are returned only with ``include_holdout=True``, skipped if ``questions`` leaves them out.

    >>> qrels = load_qrels()
    >>> qrels[(qrels.question_id == "Q42")].set_index("chunk_id").grade.to_dict()["INV-102"]
    2

    Raises ``ValueError`` (file, line, field) for a grade other than the integers 0, 1 and 2, an unknown
    chunk or question, a duplicate (question, chunk) pair, or a readable-by violation.
    """
    file = _resolve(path, "qrels.csv")
    _check_include_holdout(include_holdout)
    corpus, questions, identities, sealed = _label_references(file, corpus, questions, identities)
    readers = dict(zip(corpus["chunk_id"], corpus["readers"], strict=True))
    asker = dict(zip(questions["question_id"], questions["identity"], strict=True))
    sides = questions["split"] if "split" in questions.columns else ["dev"] * len(questions)
    side = dict(zip(questions["question_id"], sides, strict=True))
    roles = identities["roles"].to_dict()
    rows, seen = [], {}
    for number, cells in _csv_rows(file, ("question_id", "chunk_id", "grade")):
        where = _Where(file, number)
        qid, cid, raw = cells["question_id"], cells["chunk_id"], cells["grade"]
        if qid in sealed:
            continue  # a sealed holdout question's label, validated when the holdout is opened
        grade = _label_grade(where, qid, cid, raw, asker, readers)
        if (qid, cid) in seen:
            raise where.fail("chunk_id", f"({qid}, {cid}) is labelled twice (first on line {seen[qid, cid]})")
        seen[qid, cid] = number
        _check_readable(where, qid, cid, grade, asker[qid], readers, roles)
        if include_holdout or side[qid] == "dev":
            rows.append({"question_id": qid, "chunk_id": cid, "grade": grade})
    return pd.DataFrame(rows, columns=["question_id", "chunk_id", "grade"]).astype({"grade": int})


def _label_references(
    file: Path, corpus: pd.DataFrame | None, questions: pd.DataFrame | None, identities: pd.DataFrame | None,
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, set[str]]:
    """The corpus, questions and identities (default: the files beside ``file``) and the sealed IDs."""
    identities = load_identities(file.parent) if identities is None else identities
    corpus = load_corpus(file.parent) if corpus is None else corpus
    sealed: set[str] = set()
    if questions is None:
        questions = load_questions(file.parent, identities=identities, include_holdout=True)
    elif (file.parent / "questions.jsonl").is_file():
        manifest = split_manifest(file.parent, with_answerable=False)
        sealed = set(manifest.loc[manifest["split"] == "holdout", "question_id"])
        sealed -= set(questions["question_id"])
    return corpus, questions, identities, sealed


def _label_grade(where: _Where, qid: str, cid: str, raw: str, asker: Mapping[str, Any],
                 readers: Mapping[str, Any]) -> int:
    """A label's grade; an error for an unknown question or chunk or a grade other than 0, 1 or 2."""
    if qid not in asker:
        raise where.fail("question_id", f"unknown question {qid!r}; it is not in questions.jsonl")
    if cid not in readers:
        raise where.fail("chunk_id", f"label points to a missing chunk {cid!r}; it is not in "
                                     "corpus.jsonl")
    if not _INT_RE.match(raw) or not 0 <= int(raw) <= 2:
        raise where.fail("grade", f"{raw!r} is not a grade; use the integers 2 (answers), 1 (helps) or 0 "
                                  "(checked, irrelevant)")
    return int(raw)


def _check_readable(where: _Where, qid: str, cid: str, grade: int, identity: str,
                    readers: Mapping[str, Any], roles: Mapping[str, Any]) -> None:
    """Refuse a grade above 0 on a chunk that the question's identity cannot read."""
    if grade > 0 and not set(readers[cid]) & set(roles.get(identity, ())):
        raise where.fail("chunk_id", f"{qid} is asked as {identity!r}, who cannot read {cid!r} (readers "
                                     f"{list(readers[cid])}); label it 0 or drop the row: for this "
                                     "identity the question has no answer")


def load_config(path: PathLike | None = None) -> dict[str, Any]:
    """Load ``config.json``: ``snapshot_date`` (as ``datetime.date``) and the other keys unchanged.

    >>> load_config()["snapshot_date"]
    datetime.date(2026, 6, 30)

    Raises ``ValueError`` naming the file and field for invalid JSON, a missing or bad ``snapshot_date``,
    or a ``frozen_design`` that is not a JSON object (``ragmath.lab.holdout`` checks its fields).
    """
    file = _resolve(path, "config.json")
    where = _Where(file)
    try:
        config = json.loads(file.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise _Where(file, error.lineno).fail(None, f"not valid JSON ({error.msg})") from None
    if not isinstance(config, dict):
        raise where.fail(None, "must be a JSON object with snapshot_date (and split_rule, frozen_design)")
    if "snapshot_date" not in config:
        raise where.fail("snapshot_date", 'missing; the date of the index evaluated, e.g. "2026-06-30"')
    result = {**config, "snapshot_date": _date_field(config["snapshot_date"], where, "snapshot_date")}
    if "frozen_design" in config and not isinstance(config["frozen_design"], dict):
        raise where.fail("frozen_design", "must be a JSON object of AblationConfig fields, got "
                                          f"{config['frozen_design']!r}")
    return result


@dataclass(frozen=True)
class Dataset:
    """The five data files loaded and cross-checked together (see :func:`load_dataset`)."""

    corpus: pd.DataFrame
    questions: pd.DataFrame
    qrels: pd.DataFrame
    identities: pd.DataFrame
    config: dict
    holdout_included: bool = False
    #: Manifests of stored e5 vectors beyond ``data/vectors`` (a holdout opening's questions), as paths.
    vectors: tuple = ()


def load_dataset(path: PathLike | None = None, *, include_holdout: bool = False) -> Dataset:
    """Load every data file from one directory (default ``DATA_DIR``) and check them together.

    Questions and labels are dev only unless ``include_holdout=True`` (``Dataset.holdout_included``).

    >>> ds = load_dataset()
    >>> sorted(ds.identities.index), set(ds.questions["split"]), ds.holdout_included
    (['finance_officer', 'p6_employee'], {'dev'}, False)

    Raises the loaders' ``ValueError`` for any bad row (see each loader).
    """
    _check_include_holdout(include_holdout)
    folder = data_dir() if path is None else Path(path)
    identities = load_identities(folder)
    corpus = load_corpus(folder)
    every = load_questions(folder, identities=identities, include_holdout=True)
    qrels = load_qrels(folder, corpus=corpus, questions=every, identities=identities,
                       include_holdout=include_holdout)
    questions = every if include_holdout else every[every["split"] == "dev"].reset_index(drop=True)
    return Dataset(corpus, questions, qrels, identities, load_config(folder), include_holdout)


def qrels_for(question_ids: Iterable[str] | None = None, *, qrels: pd.DataFrame | None = None,
              questions: pd.DataFrame | None = None) -> dict[str, dict[str, int]]:
    """Return labels as question -> {chunk_id: grade}, the shape ``ragmath.evaluate`` takes.

    Every asked question (default: all, in file order) is a key; one without labels maps to ``{}``.

    >>> qrels_for(["Q42"])["Q42"]["INV-103"]
    0

    Raises ``TypeError`` for a bare string (wrap it in a list) and ``ValueError`` for an unknown question ID.
    """
    if isinstance(question_ids, str):
        raise TypeError(f"question_ids must be a list of IDs, got the string {question_ids!r}; write "
                        f"[{question_ids!r}]")
    questions = load_questions() if questions is None else questions
    qrels = load_qrels(questions=questions) if qrels is None else qrels
    known = list(questions["question_id"])
    wanted = known if question_ids is None else list(question_ids)
    unknown = [q for q in wanted if q not in set(known)]
    if unknown:
        manifest = split_manifest(with_answerable=False)
        if unknown[0] in set(manifest.loc[manifest["split"] == "holdout", "question_id"]):
            raise ValueError(f"question_ids: {unknown[0]!r} is a sealed holdout question; its labels are "
                             "read only by ragmath.lab.holdout.open_holdout (the one final run)")
        raise ValueError(f"question_ids: unknown question {unknown[0]!r}; known IDs look like {known[0]!r}")
    result: dict[str, dict[str, int]] = {q: {} for q in wanted}
    for qid, cid, grade in qrels[["question_id", "chunk_id", "grade"]].itertuples(index=False):
        if qid in result:
            result[qid][cid] = int(grade)
    return result


def chunk_to_clause(corpus: pd.DataFrame | None = None) -> dict[str, str]:
    """Return {chunk_id: clause_id}, the mapping ``ragmath.units`` takes to score at clause level.

    >>> chunk_to_clause()["TRV26-4.2-b"]
    'TRV-2026§4.2'
    """
    corpus = load_corpus() if corpus is None else corpus
    return dict(zip(corpus["chunk_id"], corpus["clause_id"], strict=True))


def chunk_to_document(corpus: pd.DataFrame | None = None) -> dict[str, str]:
    """Return {chunk_id: doc_id}, the mapping ``ragmath.units`` takes to score at document level.

    >>> chunk_to_document()["TRV25-4.2-a"]
    'TRV-2025'
    """
    corpus = load_corpus() if corpus is None else corpus
    return dict(zip(corpus["chunk_id"], corpus["doc_id"], strict=True))


def corpus_hash(path: PathLike | None = None, files: Iterable[str] = CANONICAL_FILES) -> str:
    """Return the SHA-256 (hex) of the canonical data files: each one's name, length and bytes, in order.

    >>> len(corpus_hash())
    64

    Raises ``FileNotFoundError`` naming a missing file.
    """
    folder = data_dir() if path is None else Path(path)
    digest = hashlib.sha256()
    for name in files:
        file = folder / name
        if not file.is_file():
            raise FileNotFoundError(f"{file}: missing; corpus_hash reads {list(files)}")
        content = file.read_bytes()
        digest.update(f"{name}\0{len(content)}\0".encode())
        digest.update(content)
    return digest.hexdigest()


def split_manifest(path: PathLike | None = None, *, with_answerable: bool = True) -> pd.DataFrame:
    """The split's envelope: one row per question with ID, type, identity, group and side only.

    No question text, answer or label, so the split can be checked and counted without reading the
    holdout; ``answerable`` (``with_answerable``) is True when the question has a label with grade > 0.
    ``path``: the data directory (default ``DATA_DIR``) or its ``questions.jsonl``.

    >>> manifest = split_manifest()
    >>> list(manifest.columns)
    ['question_id', 'type', 'identity', 'group', 'split', 'answerable']

    Raises the loaders' ``ValueError`` for a bad row.
    """
    file = _resolve(path, "questions.jsonl")
    every = load_questions(file, include_holdout=True)
    manifest = every[["question_id", "type", "identity", "group", "split"]].copy()
    if with_answerable:
        labels = _csv_rows(_resolve(file.parent, "qrels.csv"), ("question_id", "chunk_id", "grade"))
        positive = {cells["question_id"] for _number, cells in labels
                    if _INT_RE.match(cells["grade"]) and int(cells["grade"]) > 0}
        manifest["answerable"] = manifest["question_id"].isin(positive)
    return manifest.reset_index(drop=True)


def split_problems(manifest: pd.DataFrame | None = None) -> list[str]:
    """Return what is wrong with the stored split (an empty list when nothing is).

    The rule: questions written before the holdout was sealed are dev; the sealed set is holdout;
    no ``group`` (where an answer lives) may have questions on both sides, and both sides exist.

    >>> split_problems(pd.DataFrame({"question_id": ["a", "b"], "group": ["g", "g"],
    ...                              "split": ["dev", "holdout"]}))
    ["group 'g' has questions on both sides: dev ['a'], holdout ['b']"]
    """
    manifest = split_manifest(with_answerable=False) if manifest is None else manifest
    problems = []
    for side in SPLITS:
        if not (manifest["split"] == side).any():
            problems.append(f"no question has split {side!r}")
    for group, part in manifest.groupby("group", sort=True):
        if part["split"].nunique() > 1:
            dev = sorted(part.loc[part["split"] == "dev", "question_id"])
            hold = sorted(part.loc[part["split"] == "holdout", "question_id"])
            problems.append(f"group {group!r} has questions on both sides: dev {dev}, holdout {hold}")
    return problems
