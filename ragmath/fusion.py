"""Reciprocal Rank Fusion: combine ranked lists by rank alone, never by their raw scores."""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from ragmath._validation import FAST_THRESHOLD, check_engine, check_k, check_ranking, run_rows

__all__ = ["rrf", "fuse_runs"]


def _check_rrf_k(k: Any) -> float:
    if isinstance(k, bool) or not isinstance(k, numbers.Real):
        raise TypeError(f"k must be a positive number (the RRF smoothing constant, 60 by default), got {k!r}")
    if math.isnan(k) or math.isinf(k):
        raise ValueError(f"k must be a finite positive number, got {k!r}")
    if k <= 0:
        raise ValueError(
            f"k must be > 0, got {k!r}: k is RRF's smoothing constant. With k = 0 the score is the plain "
            f"reciprocal rank, so a first place in one list (1/1) equals being second in two (1/2 + 1/2) "
            f"and the gap to rank 2 is huge; k <= 0 also divides by zero or flips signs. Use k = 60 "
            f"(common default) or tune k on a dev set"
        )
    return float(k)


def _named_lists(rankings: Any) -> dict[str, list[Hashable]]:
    if isinstance(rankings, (str, bytes)):
        raise TypeError(f"rankings must be a mapping name -> ranked IDs or a list of lists, got {rankings!r}")
    if isinstance(rankings, Mapping):
        named = dict(rankings)
    elif isinstance(rankings, Sequence):
        if rankings and not all(
            isinstance(r, Sequence) and not isinstance(r, (str, bytes)) for r in rankings
        ):
            raise TypeError(
                "rankings given as a list must be a list of ranked ID lists, e.g. "
                "[['4.2', '6.1'], ['5.3', '6.1']]; for one list write [ranking]"
            )
        named = {f"L{i}": ranking for i, ranking in enumerate(rankings, start=1)}
    else:
        raise TypeError(
            f"rankings must be a mapping name -> ranked IDs or a list of lists, got {type(rankings).__name__}"
        )
    if not named:
        raise ValueError("rankings is empty; give at least one ranked list to fuse")
    for name in named:
        if not isinstance(name, str):
            raise TypeError(f"list names must be strings, got {name!r}")
    return {name: check_ranking(ranking, f"rankings[{name!r}]") for name, ranking in named.items()}


def rrf(
    rankings: Mapping[str, Sequence[Hashable]] | Sequence[Sequence[Hashable]],
    k: float = 60,
    window: int | None = None,
) -> pd.DataFrame:
    """Fuse ranked lists with Reciprocal Rank Fusion; one row per item, best first.

    RRF(d) = Σ_{j : d ∈ L_j} 1 / (k + rank_j(d))

    where
      - L_j are the input lists (each cut to its top ``window`` first, when given),
      - rank_j(d) is the 1-based position of d in L_j; a list lacking d adds nothing for it,
      - k > 0 is the smoothing constant (60 by default; unrelated to the K of top-K).

    Ties in the fused score are broken by ID ascending (compared as strings), so the same table comes
    out on every run. Scores are summed exactly (as fractions), so they do not depend on list order and
    mathematically equal scores compare equal. The fused score orders items; it is not a probability
    of being relevant.

    Returns a DataFrame with columns ``id``, ``rrf_rank`` (1, 2, ...), ``rrf_score``, and for every
    list NAME ``rank[NAME]`` (NaN where absent) and ``contrib[NAME]`` (0.0 where absent). Lists given
    as a plain list of lists are named ``L1``, ``L2``, ...

    >>> table = rrf({"bm25": ["4.2", "6.1", "3.5"], "vector": ["5.3", "6.1", "4.2"]}, k=1)
    >>> table[["id", "rrf_score"]].round(4).values.tolist()
    [['4.2', 0.75], ['6.1', 0.6667], ['5.3', 0.5], ['3.5', 0.25]]

    Raises ``ValueError`` for k <= 0 (with the reason), a window below 1, an empty ``rankings`` or a
    list repeating an ID; ``TypeError`` for a string in place of a list or a non-numeric k.
    """
    smoothing = _check_rrf_k(k)
    if window is not None:
        window = check_k(window, "window")
    lists = _named_lists(rankings)
    if window is not None:
        lists = {name: ranking[:window] for name, ranking in lists.items()}

    ranks: dict[Hashable, dict[str, int]] = {}
    for name, ranking in lists.items():
        for position, item in enumerate(ranking, start=1):
            ranks.setdefault(item, {})[name] = position

    # Scores are summed exactly (a float k is an exact rational) so that mathematically equal scores
    # are equal here too and the tie rule decides, not a rounding residue of 1e-17.
    exact_k = Fraction(smoothing)
    rows, exact_scores = [], {}
    for item, item_ranks in ranks.items():
        contributions = {name: 1 / (exact_k + rank) for name, rank in item_ranks.items()}
        exact_scores[item] = sum(contributions.values(), Fraction(0))
        row: dict[str, Any] = {"id": item, "rrf_score": float(exact_scores[item])}
        for name in lists:
            row[f"rank[{name}]"] = float(item_ranks[name]) if name in item_ranks else np.nan
            row[f"contrib[{name}]"] = float(contributions[name]) if name in item_ranks else 0.0
        rows.append(row)
    rows.sort(key=lambda row: (-exact_scores[row["id"]], str(row["id"])))

    columns = ["id", "rrf_rank", "rrf_score"]
    for name in lists:
        columns += [f"rank[{name}]", f"contrib[{name}]"]
    table = pd.DataFrame(rows, columns=[c for c in columns if c != "rrf_rank"])
    table.insert(1, "rrf_rank", np.arange(1, len(table) + 1))
    return table.reindex(columns=columns)


def _named_runs(runs: Any) -> dict[str, Any]:
    if isinstance(runs, Mapping):
        named = dict(runs)
        for name in named:
            if not isinstance(name, str):
                raise TypeError(f"run names must be strings, got {name!r}")
    elif isinstance(runs, Sequence) and not isinstance(runs, (str, bytes)):
        named = {f"L{i}": run for i, run in enumerate(runs, start=1)}
    else:
        raise TypeError(
            f"runs must be a mapping name -> run or a list of runs, got {type(runs).__name__}"
        )
    if not named:
        raise ValueError("runs is empty; give at least one run to fuse")
    for name, run in named.items():
        if not isinstance(run, (Mapping, pd.DataFrame, str, os.PathLike)):
            raise TypeError(
                f"runs[{name!r}] must be a mapping question -> ranked IDs (or ID -> score), a "
                f"DataFrame with columns question, id, score, or a run file path, got "
                f"{type(run).__name__}"
            )
    return named


def fuse_runs(
    runs: Mapping[str, Any] | Sequence[Any],
    k: float = 60,
    window: int | None = None,
    *,
    engine: str = "auto",
    as_frame: bool = False,
) -> dict[Hashable, dict[Hashable, float]] | pd.DataFrame:
    """Fuse whole runs with RRF, question by question: question -> {ID: fused score}, best first.

    For each question, every run that has it contributes its ranking (a ``{ID: score}`` ranking
    is ordered score descending, then ID ascending, as in :func:`ragmath.evaluate`), and
    :func:`rrf` fuses them with the same ``k`` and ``window``; a run lacking the question adds
    nothing. Questions come in order of first appearance across the runs; within a question, best
    first, ties by ID ascending (as strings). ``runs`` is a mapping name -> run or a list of runs;
    a run is a mapping question -> ranking, a DataFrame (columns question, id, score or rank) or
    the path of a run file (TREC, CSV or JSONL, read as :func:`ragmath.io.read_run` reads it).

    ``engine="auto"`` uses the vectorised path in :mod:`ragmath._fast` above ``FAST_THRESHOLD``
    rows (same numbers, same errors: anything unusual defers to the reference); ``"reference"``
    always loops over :func:`rrf`; ``"fast"`` forces the vectorised path where it applies.
    ``as_frame=True`` returns a DataFrame with columns question, id, rank, score instead.

    >>> fuse_runs([{"q1": ["a", "b"]}, {"q1": ["b", "c"]}], k=1)
    {'q1': {'b': 0.8333333333333334, 'a': 0.5, 'c': 0.3333333333333333}}

    Raises like :func:`rrf` (k <= 0, window < 1, duplicate IDs) and ``TypeError`` when a run is
    neither a mapping nor a DataFrame.
    """
    smoothing = _check_rrf_k(k)
    if window is not None:
        window = check_k(window, "window")
    engine = check_engine(engine)
    named = _named_runs(runs)
    if engine == "fast" or (
        engine == "auto" and sum(run_rows(r) for r in named.values()) > FAST_THRESHOLD
    ):
        from ragmath import _fast

        flats = [
            _fast.read_run_flat(run) if isinstance(run, (str, os.PathLike)) else _fast.prepare_run(run)
            for run in named.values()
        ]
        if all(flat is not None for flat in flats):
            frame = _fast.fuse_flat(flats, smoothing, window, consume=True)
            return frame if as_frame else _frame_to_run(frame)
    return _fuse_reference(named, smoothing, window, as_frame)


def _frame_to_run(frame: pd.DataFrame) -> dict[Hashable, dict[Hashable, float]]:
    out: dict[Hashable, dict[Hashable, float]] = {q: {} for q in frame.attrs.get("questions", [])}
    questions = frame["question"].tolist()
    ids = frame["id"].tolist()
    scores = frame["score"].tolist()
    start = 0
    n = len(questions)
    while start < n:
        end = start
        q = questions[start]
        while end < n and questions[end] == q:
            end += 1
        out[q] = dict(zip(ids[start:end], scores[start:end], strict=False))
        start = end
    return out


def _fuse_reference(
    named: dict[str, Any], smoothing: float, window: int | None, as_frame: bool
) -> dict[Hashable, dict[Hashable, float]] | pd.DataFrame:
    from ragmath.evaluation import ranking_from_scores
    from ragmath.io import read_run, run_from_frame

    runs = {}
    for name, run in named.items():
        if isinstance(run, pd.DataFrame):
            run = run_from_frame(run, name=f"runs[{name!r}]")
        elif isinstance(run, (str, os.PathLike)):
            run = read_run(run)
        runs[name] = run
    questions: dict[Hashable, None] = {}
    for run in runs.values():
        questions.update(dict.fromkeys(run))
    fused: dict[Hashable, dict[Hashable, float]] = {}
    for question in questions:
        lists = {}
        for name, run in runs.items():
            if question in run:
                ranking = run[question]
                if isinstance(ranking, Mapping):
                    ranking = ranking_from_scores(ranking, name=f"runs[{name!r}][{question!r}]")
                lists[name] = ranking
        table = rrf(lists, k=smoothing, window=window)
        fused[question] = dict(zip(table["id"].tolist(), table["rrf_score"].tolist(), strict=False))
    if not as_frame:
        return fused
    rows = [
        (question, item, rank, score)
        for question, scores in fused.items()
        for rank, (item, score) in enumerate(scores.items(), start=1)
    ]
    return pd.DataFrame(
        {
            "question": pd.Series([r[0] for r in rows], dtype=object),
            "id": pd.Series([r[1] for r in rows], dtype=object),
            "rank": np.array([r[2] for r in rows], dtype=np.int64),
            "score": np.array([r[3] for r in rows], dtype=np.float64),
        }
    )
