"""Fuse whole runs with Reciprocal Rank Fusion, question by question.

:func:`ragmath.fusion.rrf` is the definition, for one question; :func:`fuse_runs` applies it to
every question of whole runs, with the vectorised engine (:func:`ragmath.engine.fuse_tables`) for
files, DataFrames and large mappings, and :func:`rrf` itself for small mappings. Same numbers, same
order: checked in ``tests/test_engine.py``.
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import polars as pl

from ragmath import io
from ragmath._validation import FAST_THRESHOLD, check_engine, check_k, run_rows
from ragmath.engine import fuse_tables
from ragmath.fusion import check_rrf_k, rrf
from ragmath.ranking import ranking_from_scores

__all__ = ["fuse_runs"]


def _is_source(run: Any) -> bool:
    return isinstance(run, (str, os.PathLike))


def _named_runs(runs: Any) -> dict[str, Any]:
    if isinstance(runs, Mapping):
        named = dict(runs)
        for name in named:
            if not isinstance(name, str):
                raise TypeError(f"run names must be strings, got {name!r}")
    elif isinstance(runs, Sequence) and not isinstance(runs, (str, bytes)):
        named = {f"L{i}": run for i, run in enumerate(runs, start=1)}
    else:
        raise TypeError(f"runs must be a mapping name -> run or a list of runs, got {type(runs).__name__}")
    if not named:
        raise ValueError("runs is empty; give at least one run to fuse")
    for name, run in named.items():
        if not isinstance(run, (Mapping, pd.DataFrame, pl.DataFrame)) and not _is_source(run):
            raise TypeError(
                f"runs[{name!r}] must be a mapping question -> ranked IDs (or ID -> score), a "
                f"DataFrame with columns question, id, score (or rank), or a run file path, got "
                f"{type(run).__name__}"
            )
    return named


def fuse_runs(
    runs: Mapping[str, Any] | Sequence[Any],
    k: float = 60,
    window: int | None = None,
    *,
    engine: str = "auto",
    as_frame: bool | str = False,
) -> dict[Hashable, dict[Hashable, float]] | pd.DataFrame | pl.DataFrame:
    """Fuse whole runs with RRF, question by question: question -> {ID: fused score}, best first.

    For each question, every run that has it contributes its ranking (a ``{ID: score}`` ranking is
    ordered by the tie rule of :mod:`ragmath.ranking`), and :func:`ragmath.rrf` fuses them with the
    same ``k`` and ``window``; a run lacking the question adds nothing. Questions come in order of
    first appearance across the runs; within a question, best first (exact fused score descending,
    then ID ascending). ``runs`` is a mapping name -> run or a list of runs; a run is a mapping
    question -> ranking, a DataFrame (pandas or polars; columns question, id, score or rank) or a
    run file (TREC, CSV or JSONL), read as :func:`ragmath.io.read_run_table` reads it (a slice at a
    time, keeping each question's top ``window``: :func:`ragmath.io.read_run_head`).

    ``engine="auto"`` uses the vectorised engine (:func:`ragmath.engine.fuse_tables`) for files,
    DataFrames and mappings of more than ``FAST_THRESHOLD`` rows in all, and :func:`ragmath.rrf`
    question by question otherwise; ``"reference"`` always loops over :func:`ragmath.rrf`, ``"fast"``
    always uses the engine (where IDs are text: integer IDs come back as their decimal text).
    ``as_frame=True`` (or ``"pandas"``) returns a pandas DataFrame with columns question, id, rank,
    score instead; ``as_frame="polars"`` the same as a polars DataFrame, straight from the engine
    (for millions of rows the fastest: no Python object per ID).

    >>> fuse_runs([{"q1": ["a", "b"]}, {"q1": ["b", "c"]}], k=1)
    {'q1': {'b': 0.8333333333333334, 'a': 0.5, 'c': 0.3333333333333333}}

    Raises like :func:`ragmath.rrf` (k <= 0, window < 1, duplicate IDs) and ``TypeError`` when a
    run is neither a mapping, a DataFrame nor a file.
    """
    smoothing = check_rrf_k(k)
    if window is not None:
        window = check_k(window, "window")
    engine = check_engine(engine)
    if as_frame not in (False, True, "pandas", "polars"):
        raise ValueError(f"as_frame must be False, True, 'pandas' or 'polars', got {as_frame!r}")
    named = _named_runs(runs)
    tables = any(not isinstance(run, Mapping) for run in named.values())
    if engine == "fast" or (
        engine == "auto" and (tables or sum(run_rows(r) for r in named.values()) > FAST_THRESHOLD)
    ):
        # A generator: each file is read, ordered and let go before the next is read.
        read = (io.read_run_head(run, window) if _is_source(run) else io.run_table(run)
                for run in named.values())
        fused = fuse_tables(
            read,
            smoothing,
            window,
        )
        if as_frame == "polars":
            return fused
        if as_frame:  # text as Python strings, as the definitions give it (no pyarrow needed)
            return pd.DataFrame({name: fused[name].to_numpy() for name in fused.columns})
        out: dict[Hashable, dict[Hashable, float]] = {}
        if all(isinstance(run, Mapping) for run in named.values()):
            for run in named.values():  # every question in order, empty rankings (no rows) included
                out.update((str(q), {}) for q in run)
        for (question,), group in fused.group_by("question", maintain_order=True):
            out[question] = dict(zip(group["id"].to_list(), group["score"].to_list(), strict=True))
        return out
    return _fuse_with_rrf(named, smoothing, window, as_frame)


def _fuse_with_rrf(
    named: dict[str, Any], smoothing: float, window: int | None, as_frame: bool
) -> dict[Hashable, dict[Hashable, float]] | pd.DataFrame:
    runs = {name: io.read_run(run) if _is_source(run) else run for name, run in named.items()}
    for name, run in runs.items():
        if isinstance(run, (pd.DataFrame, pl.DataFrame)):
            runs[name] = io.run_mapping(io.run_table(run))
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
    frame = pd.DataFrame(
        {
            "question": pd.Series([r[0] for r in rows], dtype=object),
            "id": pd.Series([r[1] for r in rows], dtype=object),
            "rank": np.array([r[2] for r in rows], dtype=np.int64),
            "score": np.array([r[3] for r in rows], dtype=np.float64),
        }
    )
    return pl.from_pandas(frame) if as_frame == "polars" else frame
