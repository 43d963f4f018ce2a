"""Vectorised (numpy/pandas) evaluation and fusion of whole runs, for large inputs.

The per-question functions in :mod:`ragmath.metrics` and :func:`ragmath.fusion.rrf` are the
definitions; this module computes the same numbers for many questions at once and is checked
against them in ``tests/test_fastpath.py``. Same conventions:

- a scored ranking is ordered by score descending, then ID ascending; a ranked list keeps its order;
- Recall/Hit/MRR/nDCG at K as in :mod:`ragmath.metrics`; IDCG from all labelled grades;
- RRF contributions 1 / (k + rank), ranks from 1, summed as exact fractions (as :func:`rrf` does),
  fused ties (exactly equal scores) broken by ID ascending.

DCG and IDCG sums use compensated (Neumaier) summation where the definitions use ``math.fsum``:
they agree to the last bit in practice and always to about 1e-15 relative. Means use ``math.fsum``.

How it is fast:

- a plain TREC or CSV file (one separator between fields, ``\\n`` or ``\\r\\n`` line ends, UTF-8
  for TREC, ASCII for CSV) is split and converted block by block with numpy by
  :mod:`ragmath._trec_bulk`; any other TREC file is parsed by numpy's C text reader into
  fixed-width byte columns after a chunked scan that makes sure numpy splits lines exactly as the
  line-by-line reader does; a JSONL file is parsed by ``json`` and checked in bulk. No Python
  object per line is kept; IDs are UTF-8 bytes (bytewise order = str order);
- fusion of runs with IDs of at most 8 bytes puts each question in one row of a matrix of IDs
  read as big-endian integers, so one row-wise sort groups an item's appearances and leaves items
  in ID order; the exact scores of all rank combinations are ranked once, so each question is
  ordered by a small integer that keeps the tie rule (other runs take a hash-based path);
- rankings are arrays grouped by question; only each question's top K is joined with the labels.

Anything the fast path cannot handle exactly as the reference does (an ID that is not a string,
a NaN score, a duplicate ID, a malformed line or ranking, unusual whitespace) makes the readers
and :func:`prepare_run` return ``None``; the caller then runs the reference implementation,
which raises the reference's error (or computes the same result, more slowly).
"""

from __future__ import annotations

import codecs
import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ragmath import _trec_bulk

__all__ = [
    "FlatRun",
    "FlatQrels",
    "prepare_run",
    "prepare_qrels",
    "evaluate_flat",
    "fuse_flat",
    "read_run_flat",
    "read_qrels_flat",
    "read_run_bulk",
    "read_qrels_bulk",
    "read_trec_run_flat",
    "read_trec_qrels_flat",
    "flat_run_frame",
    "flat_qrels_frame",
]

#: Largest number of matrix cells (questions x K) built at once.
_CHUNK_CELLS = 4_000_000


@dataclass
class FlatRun:
    """A run as parallel arrays, rows ordered by question, then rank (1-based)."""

    questions: list  # question keys, in the run's order
    qcode: np.ndarray  # int64, index into ``questions``, per row
    ids: np.ndarray  # per row: object array of str IDs, or UTF-8 bytes (dtype 'S') from a file
    rank: np.ndarray  # int64, 1-based rank within the question, per row
    score: np.ndarray | None = None  # float64 per row, when read from a scored file

    def __len__(self) -> int:
        return len(self.ids)


@dataclass
class FlatQrels:
    """Labels as parallel arrays; ``questions`` in the labels' order."""

    questions: list
    qcode: np.ndarray
    ids: np.ndarray  # object array of str, or UTF-8 bytes (dtype 'S') from a file
    grade: np.ndarray  # float64


_REAL_TYPES = (float, int, np.floating, np.integer)


def _all_numbers(values: Any) -> bool:
    for kind in set(map(type, values)):
        if not issubclass(kind, _REAL_TYPES) or issubclass(kind, (bool, np.bool_)):
            return False
    return True


def _all_str(values: Any) -> bool:
    return set(map(type, values)) <= {str}


def _segments(lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-row segment code and 0-based position within its segment, for segment lengths."""
    lengths = np.asarray(lengths, dtype=np.int64)
    code = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    starts = np.cumsum(lengths) - lengths
    position = np.arange(len(code), dtype=np.int64) - np.repeat(starts, lengths)
    return code, position


def _order_rows(
    qcode: np.ndarray, primary: np.ndarray, scored: np.ndarray, ids: np.ndarray
) -> np.ndarray:
    """Permutation ordering rows by question, then ``primary`` ascending, ties by ID ascending.

    ``primary`` is -score for scored rows and the list position for ranked-list rows (which have
    no ties). Rows with equal (question, primary) and ``scored`` are ordered by ID (str order).
    """
    n = len(qcode)
    if n == 0:
        return np.arange(0, dtype=np.int64)
    order = _order_or_none(qcode, primary, ids)
    return np.arange(n, dtype=np.int64) if order is None else order


def _order_or_none(qcode: np.ndarray, primary: np.ndarray, ids: np.ndarray) -> np.ndarray | None:
    """As :func:`_order_rows`, but None when the rows are already in order (the usual file)."""
    n = len(qcode)
    same_q = qcode[1:] == qcode[:-1]
    step = primary[1:] >= primary[:-1]
    in_order = bool(np.all(qcode[1:] >= qcode[:-1])) and bool(np.all(step | ~same_q))
    if in_order:
        tie = same_q
        tie &= primary[1:] == primary[:-1]
        if not tie.any():
            return None
        order = np.arange(n, dtype=np.int64)
        q_sorted, p_sorted = qcode, primary
    else:
        order = np.lexsort((primary, qcode))
        q_sorted = qcode[order]
        p_sorted = primary[order]
        tie = (q_sorted[1:] == q_sorted[:-1]) & (p_sorted[1:] == p_sorted[:-1])
        if not tie.any():
            return order
    in_tie = np.zeros(n, dtype=bool)
    in_tie[1:] |= tie
    in_tie[:-1] |= tie
    positions = np.flatnonzero(in_tie)
    rows = order[positions]
    tie_ids = ids[rows]
    # Object strings sort by Python comparison; UTF-8 bytes (dtype 'S') sort bytewise, which is
    # the same order (UTF-8 keeps code point order). Either way: str order.
    _, inverse = np.unique(tie_ids if tie_ids.dtype.kind == "S" else tie_ids.astype(object),
                           return_inverse=True)
    sub = np.lexsort((inverse.ravel(), p_sorted[positions], q_sorted[positions]))
    order = order.copy()
    order[positions] = rows[sub]
    return order


def _rank_from_sorted(qcode_sorted: np.ndarray) -> np.ndarray:
    n = len(qcode_sorted)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    start = np.empty(n, dtype=bool)
    start[0] = True
    start[1:] = qcode_sorted[1:] != qcode_sorted[:-1]
    start_index = np.flatnonzero(start)
    lengths = np.diff(np.append(start_index, n))
    return np.arange(n, dtype=np.int64) - np.repeat(start_index, lengths) + 1


_MIX = np.uint64(0x9E3779B97F4A7C15)


def _word_keys(ids: np.ndarray) -> tuple[np.ndarray, bool]:
    """uint64 key per row of a bytes array: the bytes themselves (exact) up to 8 bytes, else a hash."""
    width = ids.dtype.itemsize
    padded = -(-width // 8) * 8
    if padded != width:
        ids = ids.astype(f"S{padded}")
    words = np.ascontiguousarray(ids).view(np.uint64).reshape(len(ids), padded // 8)
    key = words[:, 0].copy()
    for j in range(1, padded // 8):
        key *= _MIX
        key ^= words[:, j]
        key ^= key >> np.uint64(29)
    if padded > 8:
        # A final mix (a bijection) so that every byte reaches the low bits too: IDs differing only
        # in one low bit of a later word would otherwise differ only in bit 0, which callers drop.
        key ^= key >> np.uint64(31)
        key *= np.uint64(0xBF58476D1CE4E5B9)
        key ^= key >> np.uint64(27)
        key *= np.uint64(0x94D049BB133111EB)
        key ^= key >> np.uint64(31)
    return key, padded == 8


def _factorize_ids(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes (order of first appearance) and one representative row index per code, exactly."""
    n = len(ids)
    if n > 64:
        # Rows usually come in blocks (a question's lines together): factorize one row per block.
        heads = np.flatnonzero(np.concatenate(([True], ids[1:] != ids[:-1])))
        if len(heads) * 4 < n:
            head_codes, head_first = _factorize_ids(ids[heads])
            lengths = np.diff(np.append(heads, n))
            return np.repeat(head_codes, lengths), heads[head_first]
    if ids.dtype.kind == "S" and n:
        key, exact = _word_keys(ids)
        codes, _ = pd.factorize(key)
        codes = codes.astype(np.int64)
        running = np.maximum.accumulate(codes)
        first = np.flatnonzero(np.concatenate(([True], codes[1:] > running[:-1])))
        if exact or bool(np.array_equal(ids[first][codes], ids)):
            return codes, first
        ids = ids.astype(object)  # a hash collision: exact (slower) path
    codes, _ = pd.factorize(ids)
    codes = codes.astype(np.int64)
    if len(codes) == 0:
        return codes, np.zeros(0, dtype=np.int64)
    running = np.maximum.accumulate(codes)
    first = np.flatnonzero(np.concatenate(([True], codes[1:] > running[:-1])))
    return codes, first


def _concat_ids(parts: Sequence[np.ndarray]) -> np.ndarray:
    """Concatenate ID arrays; UTF-8 bytes are decoded when mixed with str."""
    if all(p.dtype.kind == "S" for p in parts):
        return np.concatenate(parts) if parts else np.zeros(0, dtype="S1")
    out = []
    for part in parts:
        if part.dtype.kind == "S":
            decoded = np.empty(len(part), dtype=object)
            decoded[:] = _decode(part)
            part = decoded
        out.append(part.astype(object, copy=False))
    return np.concatenate(out)


def _has_duplicates(qcode: np.ndarray, ids: np.ndarray) -> bool:
    """Whether any (question, ID) pair repeats. Rows need not be grouped."""
    if len(ids) == 0:
        return False
    if ids.dtype.kind == "S" and ids.dtype.itemsize == 8:
        # The usual run file: every question holds the same number of lines, together. Eight-byte
        # IDs are their own exact keys, so sorting each question's row of IDs finds any repeat.
        starts = np.flatnonzero(np.concatenate(([True], qcode[1:] != qcode[:-1])))
        width = len(ids) // len(starts)
        if (width * len(starts) == len(ids) and np.array_equal(qcode[starts], np.arange(len(starts)))
                and bool(np.all(np.diff(starts) == width))):
            matrix = ids.view(np.uint64).reshape(len(starts), width).copy()
            matrix.sort(axis=1)
            return bool((matrix[:, 1:] == matrix[:, :-1]).any())
    if ids.dtype.kind == "S":
        key, _ = _word_keys(ids)
        key = key ^ (qcode.astype(np.uint64) * _MIX)
        grouped = bool(np.all(qcode[1:] >= qcode[:-1]))
        if not _dup_candidates(qcode if grouped else None, key):
            return False
        ids = ids.astype(object)  # candidates (a real duplicate or a hash collision): check exactly
    codes, _ = pd.factorize(ids)
    key = qcode.astype(np.int64) * (int(codes.max()) + 1) + codes
    return bool(pd.Index(key).has_duplicates)


def _dup_candidates(qcode: np.ndarray | None, key: np.ndarray) -> bool:
    """Any equal keys within a question (key already mixes in the question)."""
    n = len(key)
    if qcode is not None:
        starts = np.flatnonzero(np.concatenate(([True], qcode[1:] != qcode[:-1])))
        lengths = np.diff(np.append(starts, n))
        width = int(lengths.max())
        if width * len(starts) <= 2 * n + 1024:
            # One row per question, padded; the pad value is never a key after the shift.
            pad = np.iinfo(np.uint64).max
            matrix = np.full((len(starts), width), pad, dtype=np.uint64)
            row, position = _segments(lengths)
            matrix[row, position] = key >> np.uint64(1)
            matrix.sort(axis=1)
            equal = (matrix[:, 1:] == matrix[:, :-1]) & (matrix[:, 1:] != pad)
            return bool(equal.any())
    ordered = np.sort(key)
    return bool(np.any(ordered[1:] == ordered[:-1]))


def prepare_run(run: Any) -> FlatRun | None:
    """Flatten a run (mapping or DataFrame) into a :class:`FlatRun`, or None to defer to the reference.

    >>> flat = prepare_run({"q1": {"b": 0.5, "a": 0.5, "c": 0.9}, "q2": ["x", "y"]})
    >>> flat.ids.tolist(), flat.rank.tolist()
    (['c', 'a', 'b', 'x', 'y'], [1, 2, 3, 1, 2])
    """
    if isinstance(run, pd.DataFrame):
        return _prepare_run_frame(run)
    if not isinstance(run, Mapping):
        return None
    questions = list(run.keys())
    lengths = np.empty(len(questions), dtype=np.int64)
    is_scored = np.empty(len(questions), dtype=bool)
    ids: list = []
    scores: list = []
    for i, ranking in enumerate(run.values()):
        if isinstance(ranking, Mapping):
            ids.extend(ranking.keys())
            scores.extend(ranking.values())
            is_scored[i] = True
        elif isinstance(ranking, (list, tuple)):
            ids.extend(ranking)
            is_scored[i] = False
        else:
            return None  # strings, sets, generators...: the reference says what is wrong
        lengths[i] = len(ranking)
    if not _all_str(ids) or not _all_numbers(scores):
        return None
    qcode, position = _segments(lengths)
    row_scored = np.repeat(is_scored, lengths)
    primary = position.astype(np.float64)
    if len(scores):
        score_array = np.asarray(scores, dtype=np.float64)
        if np.isnan(score_array).any():
            return None
        primary[row_scored] = -score_array
    id_array = np.empty(len(ids), dtype=object)
    id_array[:] = ids
    if _has_duplicates(qcode, id_array):
        return None
    order = _order_rows(qcode, primary, row_scored, id_array)
    q_sorted = qcode[order]
    return FlatRun(questions, q_sorted, id_array[order], _rank_from_sorted(q_sorted))


def _prepare_run_frame(frame: pd.DataFrame) -> FlatRun | None:
    columns = set(frame.columns)
    if not {"question", "id"} <= columns or not ({"score", "rank"} & columns):
        return None
    qvalues = frame["question"].to_numpy(dtype=object)
    id_values = frame["id"].to_numpy(dtype=object)
    if len(id_values) and not _all_str(id_values):
        return None
    if len(qvalues) and not _all_str(qvalues):
        return None
    if any(i == "" or any(ch.isspace() for ch in i) for i in _sample_bad(id_values)):
        return None
    qcode, questions = pd.factorize(qvalues)
    qcode = qcode.astype(np.int64)
    if "score" in columns:
        score = frame["score"].to_numpy()
        if score.dtype.kind not in "fiu":
            return None
        score = score.astype(np.float64)
        if len(score) and not np.isfinite(score).all():
            return None
        if "rank" in columns:
            rank_col = frame["rank"].to_numpy()
            if rank_col.dtype.kind not in "iu":
                return None
        primary = -score
        scored = np.ones(len(score), dtype=bool)
    else:
        rank_col = frame["rank"].to_numpy()
        if rank_col.dtype.kind not in "iu":
            return None
        primary = rank_col.astype(np.float64)
        key = qcode * (int(rank_col.max()) - int(rank_col.min()) + 1 if len(rank_col) else 1) + (
            rank_col.astype(np.int64) - (int(rank_col.min()) if len(rank_col) else 0)
        )
        if pd.Index(key).has_duplicates:
            return None  # a repeated rank within a question: the reference names the row
        scored = np.zeros(len(primary), dtype=bool)
    if _has_duplicates(qcode, id_values):
        return None
    order = _order_rows(qcode, primary, scored, id_values)
    q_sorted = qcode[order]
    return FlatRun(list(questions), q_sorted, id_values[order], _rank_from_sorted(q_sorted))


def _sample_bad(values: np.ndarray):
    """IDs that are empty or contain whitespace (checked in bulk with pandas string methods)."""
    series = pd.Series(values, dtype=object)
    bad = (series.str.len() == 0) | series.str.contains(r"\s", regex=True)
    return series[bad.fillna(True)].tolist()


def prepare_qrels(qrels: Any) -> FlatQrels | None:
    """Flatten labels (mapping or DataFrame) into a :class:`FlatQrels`, or None to defer.

    >>> prepare_qrels({"q1": {"a": 2, "b": 0}}).grade.tolist()
    [2.0, 0.0]
    """
    if isinstance(qrels, pd.DataFrame):
        if not {"question", "id", "grade"} <= set(qrels.columns):
            return None
        qvalues = qrels["question"].to_numpy(dtype=object)
        id_values = qrels["id"].to_numpy(dtype=object)
        grade = qrels["grade"].to_numpy()
        if grade.dtype.kind not in "iuf":
            return None
        grade = grade.astype(np.float64)
        if len(grade) and (
            not np.isfinite(grade).all() or (grade < 0).any() or (grade != np.floor(grade)).any()
        ):
            return None
        if len(id_values) and (not _all_str(id_values) or not _all_str(qvalues)):
            return None
        if _sample_bad(id_values):
            return None
        qcode, questions = pd.factorize(qvalues)
        qcode = qcode.astype(np.int64)
        if _has_duplicates(qcode, id_values):
            return None
        return FlatQrels(list(questions), qcode, id_values, grade)
    if not isinstance(qrels, Mapping):
        return None
    questions = list(qrels.keys())
    lengths = np.empty(len(questions), dtype=np.int64)
    ids: list = []
    grades: list = []
    for i, labels in enumerate(qrels.values()):
        if not isinstance(labels, Mapping):
            return None
        ids.extend(labels.keys())
        grades.extend(labels.values())
        lengths[i] = len(labels)
    if not _all_str(ids) or not _all_numbers(grades):
        return None
    grade = np.asarray(grades, dtype=np.float64) if grades else np.zeros(0)
    if len(grade) and (not np.isfinite(grade).all() or (grade < 0).any()):
        return None
    qcode, _ = _segments(lengths)
    id_array = np.empty(len(ids), dtype=object)
    id_array[:] = ids
    return FlatQrels(questions, qcode, id_array, grade)


def _neumaier_rows(terms: np.ndarray) -> np.ndarray:
    """Row sums with Neumaier compensation (columns added left to right)."""
    total = np.zeros(terms.shape[0], dtype=np.float64)
    comp = np.zeros(terms.shape[0], dtype=np.float64)
    for j in range(terms.shape[1]):
        x = terms[:, j]
        t = total + x
        big = np.abs(total) >= np.abs(x)
        comp += np.where(big, (total - t) + x, (x - t) + total)
        total = t
    return total + comp


def _gain(grades: np.ndarray, gain: str) -> np.ndarray:
    if gain == "exp":
        return np.power(2.0, grades) - 1.0
    return grades.astype(np.float64, copy=False)


@dataclass
class FastResult:
    """What :func:`evaluate_flat` computes; ``evaluate`` wraps it in an ``Evaluation``."""

    per_question: pd.DataFrame
    means: pd.Series
    no_answer: list
    missing: list
    unjudged: list


def evaluate_flat(
    run: FlatRun,
    qrels: FlatQrels,
    parsed: Sequence[tuple[str, int]],
    gain: str = "exp",
) -> FastResult:
    """Per-question metrics and means for a whole run, vectorised.

    ``parsed`` holds (canonical name, K) pairs as from :func:`ragmath.evaluation.parse_metric`.

    >>> r = evaluate_flat(prepare_run({"q1": ["A", "X", "B"]}),
    ...                   prepare_qrels({"q1": {"A": 1, "B": 1, "C": 1}}), [("Recall", 3)])
    >>> round(float(r.means["Recall@3"]), 4)
    0.6667
    """
    names = [f"{c}@{k}" for c, k in parsed]
    max_k = max(k for _, k in parsed)

    # One code space for questions (labels' order first, then run-only ones) and for IDs.
    q_index: dict[Hashable, int] = {}
    for q in qrels.questions:
        q_index.setdefault(q, len(q_index))
    for q in run.questions:
        q_index.setdefault(q, len(q_index))
    n_q = len(q_index)
    qrels_q = np.fromiter((q_index[q] for q in qrels.questions), dtype=np.int64,
                          count=len(qrels.questions))[qrels.qcode] if len(qrels.qcode) else qrels.qcode
    run_q_map = np.fromiter((q_index[q] for q in run.questions), dtype=np.int64,
                            count=len(run.questions))
    run_q = run_q_map[run.qcode] if len(run.qcode) else run.qcode

    labelled = np.zeros(n_q, dtype=bool)
    labelled[[q_index[q] for q in qrels.questions]] = True
    in_run = np.zeros(n_q, dtype=bool)
    in_run[run_q_map] = True
    n_rel = np.bincount(qrels_q[qrels.grade > 0], minlength=n_q)
    no_answer_mask = labelled & (n_rel == 0)
    scored_mask = labelled & (n_rel > 0)
    keys = list(q_index)
    order_labels = [q_index[q] for q in qrels.questions]
    no_answer = [keys[c] for c in order_labels if no_answer_mask[c]]
    missing = [keys[c] for c in order_labels if scored_mask[c] and not in_run[c]]
    unjudged = [q for q in run.questions if not labelled[q_index[q]]]
    scored_codes = np.array([c for c in order_labels if scored_mask[c]], dtype=np.int64)
    n_s = len(scored_codes)
    slot = np.full(n_q, -1, dtype=np.int64)
    slot[scored_codes] = np.arange(n_s)

    # Grades of the top max_k results of scored questions.
    top = (run.rank <= max_k) & (slot[run_q] >= 0) if len(run_q) else np.zeros(0, dtype=bool)
    top_q = slot[run_q[top]]
    top_ids = run.ids[top]
    top_rank = run.rank[top]
    label_rows = slot[qrels_q] >= 0 if len(qrels_q) else np.zeros(0, dtype=bool)
    lab_q = slot[qrels_q[label_rows]]
    lab_ids = qrels.ids[label_rows]
    lab_grade = qrels.grade[label_rows]
    codes, _ = _factorize_ids(_concat_ids([top_ids, lab_ids]))
    width = int(codes.max()) + 1 if len(codes) else 1
    top_key = top_q * width + codes[: len(top_ids)]
    lab_key = lab_q * width + codes[len(top_ids):]
    found = pd.Index(lab_key).get_indexer(top_key) if len(lab_key) else np.full(len(top_key), -1)
    top_grade = np.where(found >= 0, lab_grade[found] if len(lab_grade) else 0.0, 0.0)

    # Ideal ordering of all labelled grades, per scored question.
    ideal_order = np.lexsort((-lab_grade, lab_q))
    ideal_q = lab_q[ideal_order]
    ideal_rank = _rank_from_sorted(ideal_q)
    keep = ideal_rank <= max_k
    ideal_q, ideal_rank, ideal_grade = ideal_q[keep], ideal_rank[keep], lab_grade[ideal_order][keep]

    discounts = np.array([math.log2(i + 1) for i in range(1, max_k + 1)], dtype=np.float64)
    results = {name: np.zeros(n_s, dtype=np.float64) for name in names}
    rows_per_chunk = max(1, _CHUNK_CELLS // max_k)
    top_sorted = np.argsort(top_q, kind="stable")
    ideal_sorted = np.argsort(ideal_q, kind="stable")
    top_bounds = np.searchsorted(top_q[top_sorted], np.arange(0, n_s + rows_per_chunk, rows_per_chunk))
    ideal_bounds = np.searchsorted(
        ideal_q[ideal_sorted], np.arange(0, n_s + rows_per_chunk, rows_per_chunk)
    )
    for c, lo in enumerate(range(0, max(n_s, 1), rows_per_chunk)):
        hi = min(lo + rows_per_chunk, n_s)
        if hi <= lo:
            break
        m = hi - lo
        sel = top_sorted[top_bounds[c]: top_bounds[c + 1]]
        grades = np.zeros((m, max_k), dtype=np.float64)
        grades[top_q[sel] - lo, top_rank[sel] - 1] = top_grade[sel]
        isel = ideal_sorted[ideal_bounds[c]: ideal_bounds[c + 1]]
        ideal = np.zeros((m, max_k), dtype=np.float64)
        ideal[ideal_q[isel] - lo, ideal_rank[isel] - 1] = ideal_grade[isel]
        relevant = grades > 0
        rel_count = n_rel[scored_codes[lo:hi]].astype(np.float64)
        for name, (canonical, k) in zip(names, parsed, strict=False):
            rel_k = relevant[:, :k]
            if canonical == "Recall":
                results[name][lo:hi] = rel_k.sum(axis=1) / rel_count
            elif canonical == "Hit":
                results[name][lo:hi] = rel_k.any(axis=1).astype(np.float64)
            elif canonical == "MRR":
                first = np.argmax(rel_k, axis=1)
                results[name][lo:hi] = np.where(rel_k.any(axis=1), 1.0 / (first + 1.0), 0.0)
            else:
                dcg = _neumaier_rows(_gain(grades[:, :k], gain) / discounts[:k])
                idcg = _neumaier_rows(_gain(ideal[:, :k], gain) / discounts[:k])
                results[name][lo:hi] = dcg / idcg

    if n_s:
        index = pd.Index([keys[c] for c in scored_codes], name="question")
        per_question = pd.DataFrame(results, index=index, columns=names)
    else:  # built the way the reference builds it, so empty results compare equal too
        per_question = pd.DataFrame.from_dict({}, orient="index", columns=names)
        per_question.index.name = "question"
    means = pd.Series(
        {name: (math.fsum(results[name].tolist()) / n_s if n_s else math.nan) for name in names},
        dtype=float,
    )
    return FastResult(per_question, means, no_answer, missing, unjudged)


# --------------------------------------------------------------------------- fusion


def fuse_flat(
    runs: Sequence[FlatRun], k: float, window: int | None, *, consume: bool = False
) -> pd.DataFrame:
    """RRF of whole runs: DataFrame (question, id, rank, score), best first within each question.

    Questions appear in order of first appearance across ``runs``; a run lacking a question adds
    nothing for it; ties in the fused score are broken by ID ascending. The question and id
    columns are categorical. ``consume=True`` lets it empty the list ``runs`` to free memory early.

    >>> a = prepare_run({"q1": ["x", "y"]}); b = prepare_run({"q1": ["y", "z"]})
    >>> fuse_flat([a, b], k=1, window=None)[["id", "rank"]].values.tolist()
    [['y', 1], ['x', 2], ['z', 3]]
    """
    q_index = _question_index(runs)
    numerator_k, denominator_k = float(k).as_integer_ratio()  # k = p / q exactly
    matrix = _fuse_matrix(runs, q_index, numerator_k, denominator_k, window, consume)
    if matrix is not None:
        return matrix
    parts_q, parts_ids, parts_a, parts_list = [], [], [], []
    for j, run in enumerate(runs):
        mapping = np.fromiter((q_index[q] for q in run.questions), dtype=np.int64,
                              count=len(run.questions))
        keep = run.rank <= window if window is not None else slice(None)
        parts_q.append(mapping[run.qcode[keep]] if len(run.qcode) else run.qcode)
        parts_ids.append(run.ids[keep])
        parts_a.append(run.rank[keep].astype(np.int64))
        parts_list.append(np.full(len(parts_ids[-1]), j, dtype=np.int64))
    all_q = np.concatenate(parts_q)
    all_ids = _concat_ids(parts_ids)
    rank = np.concatenate(parts_a)
    which = np.concatenate(parts_list)
    del parts_q, parts_ids, parts_a, parts_list
    id_codes, id_first = _factorize_ids(all_ids)
    width = max(len(id_first), 1)
    pair_codes, pair_keys = pd.factorize(all_q * width + id_codes)
    pair_keys = np.asarray(pair_keys, dtype=np.int64)
    n_pairs = len(pair_keys)
    numerator, denominator = _exact_rrf(
        pair_codes, which, rank, n_pairs, len(runs), numerator_k, denominator_k
    )
    score = _true_divide(numerator, denominator)
    pair_q = pair_keys // width
    pair_idcode = pair_keys % width
    unique_ids = all_ids[id_first]
    pair_ids = unique_ids[pair_idcode]
    order = _order_rows(pair_q, -score, np.ones(n_pairs, dtype=bool), pair_ids)
    order = _exact_tie_fix(order, pair_q, score, numerator, denominator, pair_ids)
    q_sorted = pair_q[order]
    keys = list(q_index)
    id_labels = _decode(unique_ids) if unique_ids.dtype.kind == "S" else list(unique_ids)
    frame = pd.DataFrame(
        {
            "question": _categorical(q_sorted, keys),
            "id": _categorical(pair_idcode[order], id_labels),
            "rank": _rank_from_sorted(q_sorted),
            "score": score[order],
        }
    )
    frame.attrs["questions"] = keys  # every question, also those with nothing to fuse
    return frame


_PAD = np.uint64(np.iinfo(np.uint64).max)


def _question_index(runs: Sequence[FlatRun]) -> dict[Hashable, int]:
    """Every question of ``runs``, numbered in order of first appearance."""
    q_index: dict[Hashable, int] = {}
    for run in runs:
        for q in run.questions:
            q_index.setdefault(q, len(q_index))
    return q_index


#: Largest number of rank combinations (a rank or none in each run) whose exact fused scores
#: :func:`_combo_table` ranks once; int16 ranks then let a radix sort order each question.
_COMBO_LIMIT = 32_000


def _fuse_matrix(runs, q_index, p, q, window, consume=False):
    """RRF with one row per question, for runs of short byte IDs (<= 8 bytes) and bounded lists.

    An ID of at most 8 bytes, read as a big-endian number, is exact and sorts as its text does
    (UTF-8 keeps code point order), so sorting each question's row of IDs groups an item's
    occurrences together and leaves items in ID order; a stable sort by score then gives the
    tie rule for free. An item's score depends only on its ranks in the runs, so when the runs
    are short the exact scores of all rank combinations are ranked once (:func:`_combo_table`)
    and items are sorted by that rank. None when the runs do not fit this shape (the general
    path runs instead).
    """
    if not runs or any(r.ids.dtype.kind != "S" or r.ids.dtype.itemsize > 8 for r in runs):
        return None
    n_q = len(q_index)
    n_runs = len(runs)  # ``runs`` may be emptied below (consume)
    blocks, total = [], 0
    for run in runs:
        keep = None
        if window is not None and len(run.rank) and int(run.rank.max()) > window:
            keep = run.rank <= window
        rank = run.rank if keep is None else run.rank[keep]
        blocks.append((keep, int(rank.max()) if len(rank) else 0))
        total += len(rank)
    widths = [w for _, w in blocks]
    columns = sum(widths)
    if n_q == 0 or columns == 0 or n_q * columns > 3 * total + 4096:
        return None
    keys = np.full((n_q, columns), _PAD, dtype=np.uint64)
    cells = keys.reshape(-1)
    n_valid = np.zeros(n_q, dtype=np.int64)
    offset = 0
    for run, (keep, width) in zip(runs, blocks, strict=True):
        mapping = np.fromiter((q_index[x] for x in run.questions), dtype=np.int64,
                              count=len(run.questions))
        qcode, rank, ids = run.qcode, run.rank, run.ids
        if keep is not None:
            qcode, rank, ids = qcode[keep], rank[keep], ids[keep]
        row = mapping[qcode]
        n_valid += np.bincount(row, minlength=n_q)
        row *= columns
        row += rank.astype(np.int64, copy=False)
        row += offset - 1
        cells[row] = np.ascontiguousarray(ids.astype("S8", copy=False)).view(">u8")
        offset += width
    del run, qcode, rank, ids, row, mapping
    if consume and isinstance(runs, list):
        runs.clear()  # the caller handed the runs over: free them before the big sorts
    column = np.argsort(keys, axis=1)  # which column each sorted cell came from (any order of ties)
    keys.sort(axis=1)
    # Pads sort last, so each row's valid cells are a prefix; an item starts where the key changes.
    full = bool(np.all(n_valid == columns))
    if full:
        flat_keys = keys.reshape(-1)
        column = column.reshape(-1)
    else:
        row, position = _segments(n_valid)
        cell = row * columns + position
        del position
        flat_keys = keys.reshape(-1)[cell]
        column = column.reshape(-1)[cell]
        del cell
    del keys
    starts = np.empty(len(flat_keys), dtype=bool)
    starts[0] = True
    np.not_equal(flat_keys[1:], flat_keys[:-1], out=starts[1:])
    if full:
        starts[::columns] = True
    else:
        starts[1:] |= row[1:] != row[:-1]
        del row
    first = np.flatnonzero(starts)
    del starts
    n_items = len(first)
    item_key = flat_keys[first]
    del flat_keys
    # Items come by question, then ID ascending.
    item_start = np.searchsorted(first, np.cumsum(n_valid) - n_valid)
    per_question = np.diff(np.append(item_start, n_items))
    sizes = [w + 1 for w in widths]
    # The table costs about a microsecond per combination: worth it when items outnumber them.
    if math.prod(sizes) <= min(_COMBO_LIMIT, 4 * n_items + 4096):
        strides = [math.prod(sizes[j + 1:]) for j in range(n_runs)]
        column_code = np.concatenate([np.arange(1, w + 1, dtype=np.int64) * s
                                      for w, s in zip(widths, strides, strict=True)])
        # An item's combination is the sum of its cells' codes (one rank digit per run).
        running = column_code[column]
        del column
        np.cumsum(running, out=running)
        combo = np.diff(running[np.append(first[1:], len(running)) - 1], prepend=0)
        del running, first
        rank_of_combo, score_of_rank = _combo_table(widths, p, q)
        item_rank = rank_of_combo[combo]
        del combo
        final = _order_within_rows(item_rank, per_question, item_start)
        score = score_of_rank[item_rank[final]]
        del item_rank
    else:
        if n_runs == 2:
            which = (column >= widths[0]).astype(np.int8)
            rank = column + 1
            rank -= which * widths[0]
            item = None
        else:
            bounds = np.cumsum(widths)
            which = np.searchsorted(bounds, column, side="right")
            rank = column - np.concatenate(([0], bounds[:-1]))[which] + 1
            item = np.repeat(np.arange(n_items), np.diff(np.append(first, len(column))))
        del column
        numerator, denominator = _exact_rrf(item, which, rank, n_items, n_runs, p, q, first)
        del which, rank, item, first
        item_score = _true_divide(numerator, denominator)
        final = _order_within_rows(-item_score, per_question, item_start)
        item_q = np.repeat(np.arange(n_q, dtype=np.int64), per_question)
        final = _exact_tie_fix(final, item_q, item_score, numerator, denominator,
                               item_key.astype(">u8").view("S8"))
        del item_q, numerator, denominator
        score = item_score[final]
        del item_score
    ordered_keys = item_key[final]
    del item_key, final
    id_codes, id_keys = _factorize_keys(ordered_keys)  # 8-byte keys are the IDs themselves
    del ordered_keys
    keys_list = list(q_index)
    width = int(per_question.max()) if n_q else 0
    rank_column = np.broadcast_to(np.arange(1, width + 1, dtype=np.int64), (n_q, width))
    frame = pd.DataFrame(
        {
            "question": _categorical(np.repeat(np.arange(n_q, dtype=np.int32), per_question),
                                     keys_list),
            "id": _unique_categorical(id_codes, _labels_of_keys(id_keys)),
            "rank": rank_column[np.arange(width) < per_question[:, None]],
            "score": score,
        },
        copy=False,  # fresh arrays: no need to copy them into consolidated blocks
    )
    frame.attrs["questions"] = keys_list
    return frame


def _order_within_rows(values: np.ndarray, per_row: np.ndarray, row_start: np.ndarray) -> np.ndarray:
    """Permutation sorting consecutive rows of ``per_row`` values each by value, stably.

    >>> _order_within_rows(np.array([3, 1, 1, 5, 2]), np.array([3, 0, 2]), np.array([0, 3, 3])).tolist()
    [1, 2, 0, 4, 3]
    """
    n_rows = len(per_row)
    width = int(per_row.max()) if n_rows else 0
    if width == 0:
        return np.zeros(0, dtype=np.int64)
    if bool(np.all(per_row == width)):
        mask = None
        grid = values.reshape(n_rows, width)
    else:
        mask = np.arange(width) < per_row[:, None]
        pad = np.iinfo(values.dtype).max if values.dtype.kind in "iu" else np.inf
        grid = np.full((n_rows, width), pad, dtype=values.dtype)
        grid[mask] = values  # pads sort after every value: each row's values stay a prefix
    within = np.argsort(grid, axis=1, kind="stable")  # a radix sort for 16-bit integers
    del grid
    within += row_start[:, None]
    return within.reshape(-1) if mask is None else within[mask]


def _combo_table(widths: Sequence[int], p: int, q: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact RRF scores of every rank combination, ranked: (dense rank per combination, float per rank).

    Combination ``m`` has, for run ``j``, the digit ``m // stride_j % (widths[j] + 1)``: the item's
    rank in that run, 0 when the run lacks it (strides as in mixed radix, last run fastest).
    Rank 0 is the highest exact score; exactly equal scores share a rank, and two different
    scores never do (even when they round to the same float).

    >>> ranks, scores = _combo_table([2, 2], 1, 1)  # k = 1: ranks 1, 2 score 1/2, 1/3
    >>> ranks.reshape(3, 3).tolist()
    [[5, 3, 4], [3, 0, 1], [4, 1, 2]]
    >>> scores.tolist() == [1.0, 5 / 6, 2 / 3, 1 / 2, 1 / 3, 0.0]  # correctly rounded fractions
    True
    """
    from fractions import Fraction

    sizes = [w + 1 for w in widths]
    combos = np.arange(math.prod(sizes), dtype=np.int64)
    numerator = np.zeros(len(combos), dtype=object)  # Python ints: exact at any k
    denominator = np.ones(len(combos), dtype=object)
    stride = len(combos)
    for size in sizes:
        stride //= size
        digit = combos // stride % size
        a = digit.astype(object) * q + p
        present = digit > 0
        numerator = np.where(present, numerator * a + q * denominator, numerator)
        denominator = np.where(present, denominator * a, denominator)
    score = _true_divide(numerator, denominator)
    order = np.argsort(-score, kind="stable")
    s_sorted = score[order]
    new = np.ones(len(order), dtype=bool)
    new[1:] = s_sorted[1:] != s_sorted[:-1]  # equal fractions give equal floats
    # Equal floats can still hide different fractions: order those groups exactly.
    group_starts = np.flatnonzero(new)
    group_ends = np.append(group_starts[1:], len(order))
    for start, end in zip(group_starts.tolist(), group_ends.tolist(), strict=True):
        if end - start > 1:
            exact = sorted(((Fraction(int(numerator[m]), int(denominator[m])), m)
                            for m in order[start:end].tolist()), reverse=True)
            order[start:end] = [m for _, m in exact]
            new[start + 1:end] = [a[0] != b[0] for a, b in zip(exact[1:], exact[:-1], strict=True)]
    rank_of_combo = np.empty(len(order), dtype=np.int16 if len(order) <= 2**15 - 1 else np.int64)
    rank_of_combo[order] = np.cumsum(new) - 1
    return rank_of_combo, s_sorted[new]


#: Fewest keys for which :func:`_factorize_keys` splits the work into parts.
_PARTITION_MIN = 1 << 20


def _factorize_keys(keys: np.ndarray, min_size: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``pd.factorize`` of uint64 keys (codes by first appearance, uniques in that order), faster.

    One big hash table misses the cache at every lookup; here the keys are first split into 256
    parts by a hash (a radix sort, stable, so each part keeps the keys' order) and each part is
    factorized with a small table. Codes are int32 when they fit.

    >>> codes, uniques = _factorize_keys(np.array([7, 3, 7, 9, 3], dtype=np.uint64), min_size=0)
    >>> codes.tolist(), uniques.tolist()
    ([0, 1, 0, 2, 1], [7, 3, 9])
    """
    n = len(keys)
    if n < max(_PARTITION_MIN if min_size is None else min_size, 1):
        codes, uniques = pd.factorize(keys)
        return codes, np.asarray(uniques, dtype=np.uint64)
    part = keys * _MIX
    part >>= np.uint64(56)
    part = part.astype(np.uint8)
    perm = np.argsort(part, kind="stable")
    counts = np.bincount(part, minlength=256).tolist()
    del part
    grouped = keys[perm]
    code_type = np.int32 if n < 2**31 else np.int64
    local = np.empty(n, dtype=code_type)  # codes numbered across parts, part by part
    new = np.empty(n, dtype=bool)  # a key's first appearance (within its part, so overall)
    start = n_uniques = 0
    for count in counts:
        end = start + count
        if count:
            codes, uniques = pd.factorize(grouped[start:end])
            new[start] = True
            np.greater(codes[1:], np.maximum.accumulate(codes)[:-1], out=new[start + 1:end])
            codes += n_uniques
            local[start:end] = codes
            n_uniques += len(uniques)
        start = end
    del grouped
    first_position = perm[new]  # in part order, so in code order of ``local``
    del new
    is_first = np.zeros(n, dtype=bool)
    is_first[first_position] = True
    number = np.cumsum(is_first.view(np.int8), dtype=code_type)  # int8 view: a faster cumsum
    number -= 1
    renumber = number[first_position]
    del number, first_position
    out = np.empty(n, dtype=code_type)
    out[perm] = renumber[local]
    return out, keys[is_first]


def _unique_categorical(codes: np.ndarray, labels: list[str]) -> pd.Categorical:
    """Categorical of ``labels[codes]`` for labels known to be unique str: pandas' check is skipped."""
    categories = pd.Index(labels, dtype=object)
    dtype = None
    fast = getattr(pd.CategoricalDtype, "_from_fastpath", None)  # private: guarded, with fallback
    if fast is not None:
        try:
            dtype = fast(categories, False)
        except Exception:  # noqa: BLE001 - another pandas version: take the public, checked way
            dtype = None
    if not isinstance(dtype, pd.CategoricalDtype) or len(dtype.categories) != len(labels):
        dtype = pd.CategoricalDtype(categories, ordered=False)
    return pd.Categorical.from_codes(codes, dtype=dtype, validate=False)


def _labels_of_keys(keys: np.ndarray) -> list[str]:
    """The IDs behind 8-byte big-endian keys, as :func:`_decode` gives them, decoded in one piece.

    >>> _labels_of_keys(np.array([b"ab", b"\\xc3\\xa9t\\xc3\\xa9", b"12345678"], dtype="S8").view(">u8"))
    ['ab', 'été', '12345678']
    """
    raw = np.zeros((len(keys), 9), dtype=np.uint8)  # each ID, then a NUL
    raw[:, :8] = np.ascontiguousarray(keys.astype(">u8")).view(np.uint8).reshape(len(keys), 8)
    keep = raw != 0
    # Each ID a non-empty run of non-NUL bytes, then NUL padding: NUL-separated text splits back.
    if len(raw) and keep[:, 0].all() and not (keep[:, 1:] & ~keep[:, :-1]).any():
        keep[:, 8] = True
        try:
            labels = raw[keep].tobytes().decode("utf-8").split("\x00")
        except UnicodeDecodeError:
            labels = []
        if len(labels) == len(raw) + 1:
            labels.pop()  # after the last NUL
            return labels
    return _decode(np.ascontiguousarray(raw[:, :8]).view("S8").reshape(-1))


def _exact_rrf(pair_codes, which, rank, n_pairs, n_lists, p, q, first=None):
    """Exact fused scores as numerator / denominator per pair.

    Each contribution is 1 / (k + r) = q / (p + r q) for k = p / q; fractions are added as
    N / D + q / a = (N a + q D) / (D a). int64 when every value fits in 53 bits (so the float
    quotient is correctly rounded, as float(Fraction) is), Python ints otherwise.
    """
    biggest = p + (int(rank.max()) if len(rank) else 1) * q  # Python int: no overflow here
    exact_int64 = (biggest ** n_lists) * n_lists * q < 2**53
    kind = np.int64 if exact_int64 else object
    a = rank.astype(kind) * q + p
    if exact_int64 and first is not None and n_lists <= 2 and len(a):
        # Rows of one pair are consecutive and start at ``first``: at most two terms per pair.
        a1 = a[first]
        second = np.empty(len(first), dtype=bool)
        second[:-1] = first[1:] - first[:-1] == 2
        second[-1] = len(a) - first[-1] == 2
        a2 = a[np.minimum(first + 1, len(a) - 1)]
        a2[~second] = 0
        numerator = a1 + a2  # two terms: q (a1 + a2) / (a1 a2); one term: q / a1
        numerator[~second] = 1
        numerator *= q
        denominator = a1
        a2[~second] = 1
        denominator *= a2
        return numerator, denominator
    if pair_codes is None:
        pair_codes = np.repeat(np.arange(len(first)), np.diff(np.append(first, len(rank))))
    table = np.zeros((n_pairs, n_lists), dtype=kind)
    if not exact_int64:
        table[:] = 0
    table[pair_codes, which] = a
    numerator = np.zeros(n_pairs, dtype=kind)
    denominator = np.ones(n_pairs, dtype=kind)
    if not exact_int64:
        numerator[:] = 0
        denominator[:] = 1
    for j in range(n_lists):
        column = table[:, j]
        present = column > 0
        numerator = np.where(present, numerator * column + q * denominator, numerator)
        denominator = np.where(present, denominator * column, denominator)
    return numerator, denominator


def _true_divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    if numerator.dtype == object:  # int / int in Python is correctly rounded
        return np.array([n / d for n, d in zip(numerator.tolist(), denominator.tolist(), strict=True)],
                        dtype=np.float64)
    return numerator.astype(np.float64) / denominator.astype(np.float64)


def _exact_tie_fix(order, pair_q, score, numerator, denominator, ids):
    """Within runs of equal float scores, order by the exact fraction first, then by ID.

    ``order`` already sorts equal float scores by ID; only a run holding two different exact values
    (closer than one float step) is re-sorted, with Python fractions.
    """
    from fractions import Fraction

    q_sorted, s_sorted = pair_q[order], score[order]
    tie = (q_sorted[1:] == q_sorted[:-1]) & (s_sorted[1:] == s_sorted[:-1])
    if not tie.any():
        return order
    tied = np.flatnonzero(np.concatenate(([False], tie)) | np.concatenate((tie, [False])))
    rows = order[tied]
    num, den = numerator[rows], denominator[rows]
    group = np.cumsum(np.concatenate(([True], ~tie)))[tied]
    same = group[1:] == group[:-1]
    if num.dtype != object and int(num.max()) * int(den.max()) < 2**62:
        # exact equality of neighbours by cross-multiplication (no overflow at these sizes)
        differs = same & (num[1:] * den[:-1] != num[:-1] * den[1:])
    else:
        if num.dtype != object:
            g = np.gcd(num, den)
            num, den = num // g, den // g
        differs = same & ((num[1:] != num[:-1]) | (den[1:] != den[:-1]))
    if not differs.any():
        return order
    order = order.copy()
    for g_id in np.unique(group[1:][differs]):
        members = tied[group == g_id]
        rows_g = order[members]
        labels = ids[rows_g]
        labels = _decode(labels) if labels.dtype.kind == "S" else [str(x) for x in labels]
        keyed = sorted(
            zip(rows_g.tolist(), labels, strict=True),
            key=lambda item: (-Fraction(int(numerator[item[0]]), int(denominator[item[0]])), item[1]),
        )
        order[members] = [row for row, _ in keyed]
    return order


def _categorical(
    codes: np.ndarray, labels: list, all_str: bool = False
) -> pd.Categorical | np.ndarray:
    """Categorical of ``labels[codes]`` (labels unique); object array when labels are not all str."""
    if all_str or all(isinstance(label, str) for label in labels):
        return pd.Categorical.from_codes(codes, categories=pd.Index(labels, dtype=object),
                                         validate=False)
    out = np.empty(len(codes), dtype=object)
    out[:] = [labels[c] for c in codes]
    return out


# --------------------------------------------------------------------------- TREC files, in bulk

#: Bytes a TREC line may hold besides its text: tab and newline (CR only inside CRLF). numpy's
#: whitespace tokenizer also splits at these others, which the line-by-line reader keeps
#: inside a field; a file holding any of them is left to the line-by-line reader.
_OTHER_SPACE = bytes([0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
                      24, 25, 26, 27, 28, 29, 30, 31, 0x85, 0xA0])


#: UTF-8 forms of the characters other than space and tab that Python's str.split() (and so numpy's
#: text reader) takes as whitespace; the reference reader keeps them inside a field.
_UNICODE_SPACES = tuple(
    chr(c).encode("utf-8")
    for c in (0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029, 0x202F, 0x205F, 0x3000)
)


def _scan(path: Any, n_fields: int) -> dict | None:
    """Read ``path`` in chunks: check that numpy's whitespace split equals the reference's
    ``[ \\t]+`` split, and guess field widths from the first chunk. None: leave it to the reference.
    """
    allowed = np.zeros(32, dtype=bool)
    allowed[[9, 10, 13]] = True
    widths = None
    step = 1 << 24
    mask = np.empty(step, dtype=bool)
    tail = b""
    seen_any = False
    ascii_only = True
    decoder = codecs.getincrementaldecoder("utf-8")()
    with open(path, "rb") as handle:
        while True:
            chunk = handle.read(step)
            if not chunk:
                break
            seen_any = True
            buffer = np.frombuffer(chunk, dtype=np.uint8)
            low = mask[: buffer.size]
            np.less(buffer, 32, out=low)
            if low.any():
                control = np.bincount(buffer[low], minlength=32)
                if control[~allowed].any():
                    return None
                if control[13]:
                    joined = tail + chunk
                    if joined.count(b"\r") - tail.count(b"\r") != joined.count(b"\r\n") - tail.count(
                        b"\r\n"
                    ):
                        return None
            if not chunk.isascii():
                ascii_only = False
                joined = tail + chunk  # a separator cut in two by the chunk boundary is seen too
                if any(space in joined for space in _UNICODE_SPACES):
                    return None
                try:
                    decoder.decode(chunk, final=False)
                except UnicodeDecodeError:
                    return None
            if widths is None:
                fields = [line.split() for line in chunk[: 1 << 20].splitlines()[:-1]]
                longest = [max((len(f[i]) for f in fields if len(f) > i), default=1)
                           for i in range(n_fields)]
                widths = [max(8, -(-2 * w // 8) * 8) for w in longest]
            tail = chunk[-4:]
    if not seen_any:
        return None
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return None
    return {"widths": widths or [8] * n_fields, "ascii": ascii_only}


def _load_columns(
    path: Any, widths: dict[str, int], kinds: Sequence[tuple[str, str]], ascii_only: bool = True
):
    """np.loadtxt with growing field widths; None on any error or warning.

    ASCII files are read as bytes (dtype 'S'); other UTF-8 files as text (dtype 'U'), whose string
    columns are then encoded back to UTF-8 bytes.
    """
    import warnings

    text = "S" if ascii_only else "U"
    for _ in range(4):
        dtype = [(name, f"{text}{widths[name]}" if kind == "S" else kind) for name, kind in kinds]
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                table = np.loadtxt(path, dtype=dtype, comments=None,
                                   encoding="bytes" if ascii_only else "utf-8",
                                   quotechar=None, ndmin=1)
        except Exception:  # noqa: BLE001 - the line-by-line reader says what is wrong
            return None
        unit = 1 if ascii_only else 4
        raw = table.view(np.uint8).reshape(len(table), table.dtype.itemsize) if len(table) else None
        full = [name for name in widths
                if widths[name] > 1 and raw is not None and np.any(
                    raw[:, table.dtype.fields[name][1] + widths[name] * unit - 1] != 0)]
        if not full:
            if ascii_only:
                return table
            columns = {}
            for name, kind in kinds:
                column = np.ascontiguousarray(table[name])
                columns[name] = np.char.encode(column, "utf-8") if kind == "S" else column
            return columns
        for name in full:  # a value may have been cut to the width: read again, wider
            widths[name] *= 4
    return None


def _narrow(values: np.ndarray) -> np.ndarray:
    """A bytes column at the width of its longest value (rounded up to 8 bytes)."""
    width = values.dtype.itemsize
    if width <= 8 or len(values) == 0:
        return np.ascontiguousarray(values)
    m = np.ascontiguousarray(values).view(np.uint8).reshape(len(values), width)
    used = np.flatnonzero(m.any(axis=0))
    needed = int(used[-1]) + 1 if len(used) else 1
    return np.ascontiguousarray(values.astype(f"S{max(8, -(-needed // 8) * 8)}"))


def _decode(values: np.ndarray) -> list[str]:
    return [v.decode("utf-8") for v in values.tolist()]


def read_trec_run_flat(path: Any) -> FlatRun | None:
    """Read a TREC run file in bulk into a :class:`FlatRun`; None if any line needs the reference.

    Same data as :func:`ragmath.io.read_trec_run` (scores desc, ties by ID asc); anything unusual
    (a malformed line, a duplicate, a non-finite score, unusual whitespace) returns None so the
    line-by-line reader raises its precise error.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "run.trec"
    >>> _ = p.write_text("q1 Q0 b 1 0.5 t\\nq1 Q0 a 2 0.5 t\\nq1 Q0 c 3 0.9 t\\n")
    >>> flat = read_trec_run_flat(p)
    >>> flat.ids.tolist(), flat.rank.tolist()
    ([b'c', b'a', b'b'], [1, 2, 3])
    >>> _ = p.write_text("q1 Q0 b 1 high t\\n")
    >>> read_trec_run_flat(p) is None  # the line-by-line reader will name line 1, field 5
    True
    """
    columns = _trec_bulk.read_columns(path, "run")
    if columns is not None:
        return _run_from_columns(columns)
    scan = _scan(path, 6)
    if scan is None:
        return None
    # Integer columns parse as int64: numpy refuses "2.5", "2.0" and "1e2" there, as the reference does.
    kinds = [("q", "S"), ("z", "S"), ("d", "S"), ("r", "i8"), ("s", "f8"), ("t", "S")]
    widths = scan["widths"]
    table = _load_columns(path, {"q": widths[0], "z": 1, "d": widths[2], "t": 1}, kinds,
                          scan["ascii"])
    if table is None:
        return None
    score = np.ascontiguousarray(table["s"])
    if not np.isfinite(score).all():
        return None
    qbytes = _narrow(table["q"])
    ids = _narrow(table["d"])
    del table
    qcode, first = _factorize_ids(qbytes)
    questions = _decode(qbytes[first])
    del qbytes
    order = _order_or_none(qcode, -score, ids) if len(score) else None
    if order is not None:
        qcode, ids, score = qcode[order], ids[order], score[order]
    if _has_duplicates(qcode, ids):
        return None
    return FlatRun(questions, qcode, ids, _rank_from_sorted(qcode), score)


def _questions_from_heads(heads: np.ndarray, lengths: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Question keys and per-line codes from run-length encoded qids (see ragmath._trec_bulk)."""
    head_codes, head_first = _factorize_ids(heads)
    return _decode(heads[head_first]), np.repeat(head_codes, lengths)


def _run_from_columns(columns: dict[str, np.ndarray]) -> FlatRun | None:
    """A :class:`FlatRun` from :func:`ragmath._trec_bulk.read_columns`; None on a duplicate pair."""
    questions, qcode = _questions_from_heads(columns["q_heads"], columns["q_lengths"])
    ids, score = columns["d"], columns["s"]
    order = _order_or_none(qcode, -score, ids) if len(score) else None
    if order is not None:
        qcode, ids, score = qcode[order], ids[order], score[order]
    if _has_duplicates(qcode, ids):
        return None
    return FlatRun(questions, qcode, ids, _rank_from_sorted(qcode), score)


def _qrels_from_columns(columns: dict[str, np.ndarray]) -> FlatQrels | None:
    """A :class:`FlatQrels` from the bulk readers' columns; None on a negative grade or a duplicate."""
    grade = columns["i"]
    if (grade < 0).any():
        return None
    questions, qcode = _questions_from_heads(columns["q_heads"], columns["q_lengths"])
    if _has_duplicates(qcode, columns["d"]):
        return None
    return FlatQrels(questions, qcode, columns["d"], grade.astype(np.float64))


def flat_run_frame(run: FlatRun) -> pd.DataFrame:
    """A :class:`FlatRun` as a DataFrame: question, id (categorical), rank, and score if known.

    >>> flat_run_frame(prepare_run({"q1": ["x", "y"]}))
      question id  rank
    0       q1  x     1
    1       q1  y     2
    """
    id_codes, id_first = _factorize_ids(run.ids)
    labels = run.ids[id_first]
    labels = _decode(labels) if labels.dtype.kind == "S" else list(labels)
    frame = pd.DataFrame(
        {
            "question": _categorical(run.qcode, list(run.questions)),
            "id": _categorical(id_codes, labels),
            "rank": run.rank,
        }
    )
    if run.score is not None:
        frame["score"] = run.score
    return frame


def flat_qrels_frame(qrels: FlatQrels) -> pd.DataFrame:
    """A :class:`FlatQrels` as a DataFrame: question, id (categorical), grade (int64)."""
    id_codes, id_first = _factorize_ids(qrels.ids)
    labels = qrels.ids[id_first]
    labels = _decode(labels) if labels.dtype.kind == "S" else list(labels)
    return pd.DataFrame(
        {
            "question": _categorical(qrels.qcode, list(qrels.questions)),
            "id": _categorical(id_codes, labels),
            "grade": qrels.grade.astype(np.int64),
        }
    )


def read_trec_qrels_flat(path: Any) -> FlatQrels | None:
    """Read a TREC qrels file in bulk into a :class:`FlatQrels`; None if any line needs the reference."""
    columns = _trec_bulk.read_columns(path, "qrels")
    if columns is not None:
        return _qrels_from_columns(columns)
    scan = _scan(path, 4)
    if scan is None:
        return None
    kinds = [("q", "S"), ("z", "S"), ("d", "S"), ("g", "i8")]
    widths = scan["widths"]
    table = _load_columns(path, {"q": widths[0], "z": 1, "d": widths[2]}, kinds, scan["ascii"])
    if table is None:
        return None
    grade = np.ascontiguousarray(table["g"])
    if (grade < 0).any():
        return None
    qbytes = _narrow(table["q"])
    ids = _narrow(table["d"])
    qcode, first = _factorize_ids(qbytes)
    if _has_duplicates(qcode, ids):
        return None
    return FlatQrels(_decode(qbytes[first]), qcode, ids, grade.astype(np.float64))


def read_csv_run_flat(path: Any) -> FlatRun | None:
    """A plain CSV run (see :func:`ragmath._trec_bulk.read_csv_columns`) in bulk; None to defer."""
    columns = _trec_bulk.read_csv_columns(path, "run")
    return None if columns is None else _run_from_columns(columns)


def read_csv_qrels_flat(path: Any) -> FlatQrels | None:
    """Plain CSV qrels in bulk; None to defer to :func:`ragmath.io.read_qrels`."""
    columns = _trec_bulk.read_csv_columns(path, "qrels")
    return None if columns is None else _qrels_from_columns(columns)


def _jsonl_columns(path: Any, value: str) -> dict[str, list] | None:
    """Columns question, id, ``value`` (and rank, for a scored run) of a simple JSONL file, else None.

    Simple: UTF-8; every non-blank line a JSON object with the keys the general reader will ask
    for (those of the first object); questions and IDs non-empty strings without whitespace;
    ``value`` an int or a float (not a bool), a rank an int. Anything else is left to
    :func:`ragmath.io.read_run` / :func:`ragmath.io.read_qrels`, which name the line.
    """
    import json

    from ragmath.io import _WS

    names: list[str] = []
    columns: dict[str, list] = {}
    try:
        with open(path, "rb") as handle:
            for raw in handle:
                text = raw.decode("utf-8")
                if not text.strip():
                    continue
                obj = json.loads(text)
                if type(obj) is not dict:
                    return None
                if not names:  # the first object names the columns, as for the general reader
                    if not {"question", "id", value} <= set(obj):
                        return None
                    ranked = value == "score" and "rank" in obj
                    names = ["question", "id", value] + (["rank"] if ranked else [])
                    columns = {name: [] for name in names}
                for name in names:  # keep the values, not the objects
                    columns[name].append(obj[name])
    except (UnicodeDecodeError, ValueError, RecursionError, KeyError):
        return None
    if not names:
        return None
    for name in ("question", "id"):
        texts = columns[name]
        if set(map(type, texts)) != {str} or not all(texts) or _WS.search("\0".join(texts)):
            return None
    if not set(map(type, columns[value])) <= ({int, float} if value == "score" else {int}):
        return None
    if "rank" in columns and set(map(type, columns["rank"])) != {int}:
        return None
    return columns


def _utf8_column(texts: list[str]) -> np.ndarray:
    """UTF-8 bytes of each text as an 'S' array whose width is a multiple of 8 (as the file readers give)."""
    encoded = [text.encode("utf-8") for text in texts]
    longest = max(map(len, encoded), default=1)
    return np.array(encoded, dtype=f"S{max(8, -(-longest // 8) * 8)}")


def _jsonl_flat_columns(path: Any, value: str) -> dict[str, np.ndarray] | None:
    """:func:`_jsonl_columns` in the bulk readers' form (qids run-length encoded, IDs as bytes)."""
    columns = _jsonl_columns(path, value)
    if columns is None or any("\0" in "".join(columns[name]) for name in ("question", "id")):
        return None  # NUL would be taken for padding in a bytes array
    try:
        values = np.array(columns[value], dtype=np.float64 if value == "score" else np.int64)
    except OverflowError:  # an int beyond 64 bits: the general reader converts it
        return None
    questions = _utf8_column(columns["question"])
    heads = np.flatnonzero(np.concatenate(([True], questions[1:] != questions[:-1])))
    return {"q_heads": questions[heads], "q_lengths": np.diff(heads, append=len(questions)),
            "d": _utf8_column(columns["id"]), "s" if value == "score" else "i": values}


def read_jsonl_run_flat(path: Any) -> FlatRun | None:
    """A simple JSONL run with scores in bulk (see :func:`_jsonl_columns`); None to defer."""
    columns = _jsonl_flat_columns(path, "score")
    if columns is None or not np.isfinite(columns["s"]).all():
        return None
    return _run_from_columns(columns)


def read_jsonl_qrels_flat(path: Any) -> FlatQrels | None:
    """Simple JSONL qrels (int grades) in bulk; None to defer to :func:`ragmath.io.read_qrels`."""
    columns = _jsonl_flat_columns(path, "grade")
    return None if columns is None else _qrels_from_columns(columns)


def read_run_bulk(path: Any, fmt: str) -> FlatRun | None:
    """The bulk reader of run files in format ``fmt`` (trec, csv, jsonl); None when it defers."""
    readers = {"trec": read_trec_run_flat, "csv": read_csv_run_flat, "jsonl": read_jsonl_run_flat}
    return readers[fmt](path)


def read_qrels_bulk(path: Any, fmt: str) -> FlatQrels | None:
    """The bulk reader of qrels files in format ``fmt`` (trec, csv, jsonl); None when it defers."""
    readers = {"trec": read_trec_qrels_flat, "csv": read_csv_qrels_flat, "jsonl": read_jsonl_qrels_flat}
    return readers[fmt](path)


def read_run_flat(path: Any) -> FlatRun | None:
    """A run file as a :class:`FlatRun`: in bulk where it can, else through :mod:`ragmath.io`.

    None when a TREC file defers (the caller then reads it with :func:`ragmath.io.read_run`).
    """
    from ragmath.io import _format_of, read_run

    fmt = _format_of(path, None)
    flat = read_run_bulk(path, fmt)
    return flat if flat is not None or fmt == "trec" else prepare_run(read_run(path))


def read_qrels_flat(path: Any) -> FlatQrels | None:
    """A qrels file as a :class:`FlatQrels`: in bulk where it can, else through :mod:`ragmath.io`."""
    from ragmath.io import _format_of, read_qrels

    fmt = _format_of(path, None)
    flat = read_qrels_bulk(path, fmt)
    return flat if flat is not None or fmt == "trec" else prepare_qrels(read_qrels(path))
