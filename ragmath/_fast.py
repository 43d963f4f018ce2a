"""Vectorised (numpy/pandas) evaluation and fusion of whole runs, for large inputs.

The per-question functions in :mod:`ragmath.metrics` and :func:`ragmath.fusion.rrf` are the
definitions; this module computes the same numbers for many questions at once and is checked
against them in ``tests/test_fastpath.py``. Same conventions:

- a scored ranking is ordered by score descending, then ID ascending; a ranked list keeps its order;
- Recall/Hit/MRR/nDCG at K as in :mod:`ragmath.metrics`; IDCG from all labelled grades;
- RRF contributions 1 / (k + rank), ranks from 1, fused ties broken by ID ascending (as strings).

Sums of several terms (DCG, IDCG, fused scores of three or more lists) use compensated
(Neumaier) summation; the definitions use ``math.fsum``, so the two agree to the last bit in
practice and always to about 1e-15 relative. Means use ``math.fsum`` as the reference does.

Anything the fast path cannot handle exactly as the reference does (an ID that is not a string,
a NaN score, a duplicate ID, a malformed ranking) makes :func:`prepare_run` return ``None``; the
caller then runs the reference implementation, which raises the reference's error.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["FlatRun", "FlatQrels", "prepare_run", "prepare_qrels", "evaluate_flat", "fuse_flat"]

#: Largest number of matrix cells (questions x K) built at once.
_CHUNK_CELLS = 4_000_000


@dataclass
class FlatRun:
    """A run as parallel arrays, rows ordered by question, then rank (1-based)."""

    questions: list  # question keys, in the run's order
    qcode: np.ndarray  # int64, index into ``questions``, per row
    ids: np.ndarray  # object array of str IDs, per row
    rank: np.ndarray  # int64, 1-based rank within the question, per row

    def __len__(self) -> int:
        return len(self.ids)


@dataclass
class FlatQrels:
    """Labels as parallel arrays; ``questions`` in the labels' order."""

    questions: list
    qcode: np.ndarray
    ids: np.ndarray
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
    same_q = qcode[1:] == qcode[:-1]
    in_order = bool(np.all(qcode[1:] >= qcode[:-1])) and bool(
        np.all(~same_q | (primary[1:] >= primary[:-1]))
    )
    order = np.arange(n, dtype=np.int64) if in_order else np.lexsort((primary, qcode))
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
    uniques, inverse = np.unique(tie_ids.astype(object), return_inverse=True)
    del uniques  # np.unique sorts object strings by Python comparison: str order
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


def _has_duplicates(qcode: np.ndarray, ids: np.ndarray) -> bool:
    if len(ids) == 0:
        return False
    codes, _ = pd.factorize(ids)
    key = qcode.astype(np.int64) * (int(codes.max()) + 1) + codes
    return bool(pd.Index(key).has_duplicates)


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
    codes, _ = pd.factorize(np.concatenate([top_ids, lab_ids]))
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


def fuse_flat(runs: Sequence[FlatRun], k: float, window: int | None) -> pd.DataFrame:
    """RRF of whole runs: DataFrame (question, id, rank, score), best first within each question.

    Questions appear in order of first appearance across ``runs``; a run lacking a question adds
    nothing for it; ties in the fused score are broken by ID ascending.

    >>> a = prepare_run({"q1": ["x", "y"]}); b = prepare_run({"q1": ["y", "z"]})
    >>> fuse_flat([a, b], k=1, window=None)[["id", "rank"]].values.tolist()
    [['y', 1], ['x', 2], ['z', 3]]
    """
    q_index: dict[Hashable, int] = {}
    for run in runs:
        for q in run.questions:
            q_index.setdefault(q, len(q_index))
    parts_q, parts_ids, parts_contrib, parts_list = [], [], [], []
    for j, run in enumerate(runs):
        mapping = np.fromiter((q_index[q] for q in run.questions), dtype=np.int64,
                              count=len(run.questions))
        keep = run.rank <= window if window is not None else slice(None)
        parts_q.append(mapping[run.qcode[keep]] if len(run.qcode) else run.qcode)
        parts_ids.append(run.ids[keep])
        parts_contrib.append(1.0 / (k + run.rank[keep].astype(np.float64)))
        parts_list.append(np.full(len(parts_ids[-1]), j, dtype=np.int64))
    all_q = np.concatenate(parts_q) if parts_q else np.zeros(0, dtype=np.int64)
    all_ids = np.concatenate(parts_ids) if parts_ids else np.zeros(0, dtype=object)
    contrib = np.concatenate(parts_contrib) if parts_contrib else np.zeros(0)
    which = np.concatenate(parts_list) if parts_list else np.zeros(0, dtype=np.int64)
    id_codes, id_uniques = pd.factorize(all_ids)
    width = len(id_uniques) if len(id_uniques) else 1
    pair_codes, pair_uniques = pd.factorize(all_q * width + id_codes)
    n_pairs = len(pair_uniques)
    if len(runs) <= 2:
        score = np.bincount(pair_codes, weights=contrib, minlength=n_pairs)
    else:
        table = np.zeros((n_pairs, len(runs)), dtype=np.float64)
        table[pair_codes, which] = contrib
        score = _neumaier_rows(table)
    pair_q = (np.asarray(pair_uniques) // width).astype(np.int64)
    pair_id = np.asarray(id_uniques, dtype=object)[np.asarray(pair_uniques) % width] if n_pairs else (
        np.zeros(0, dtype=object))
    order = _order_rows(pair_q, -score, np.ones(n_pairs, dtype=bool), pair_id)
    q_sorted = pair_q[order]
    keys = list(q_index)
    return pd.DataFrame(
        {
            "question": pd.Series([keys[c] for c in q_sorted] if n_pairs else [], dtype=object),
            "id": pd.Series(pair_id[order], dtype=object),
            "rank": _rank_from_sorted(q_sorted),
            "score": score[order],
        }
    )
