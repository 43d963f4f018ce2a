"""Fuse whole runs with Reciprocal Rank Fusion, question by question, through the engine.

:func:`ragmath.fusion.rrf` is the definition, for one question; :func:`fuse_runs` gives its numbers
and order for every question of whole runs (``tests/test_engine.py`` checks).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import pandas as pd
import polars as pl

from ragmath import io
from ragmath._validation import check_rrf_k, check_window, is_source
from ragmath.engine import fuse_tables
from ragmath.io.frames import _to_pandas

__all__ = ["fuse_runs"]


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
    return named  # each run's form is checked where it is read (io.run_table), naming the run


def _table(name: str, run: Any, window: int | None) -> pl.DataFrame:
    """One run as a table (a file: each question's top ``window``), errors naming the run."""
    try:
        return io.read_run_head(run, window) if is_source(run) else io.run_table(run)
    except ValueError as exc:
        raise ValueError(f"runs[{name!r}]: {exc}") from None
    except TypeError as exc:
        raise TypeError(f"runs[{name!r}]: {exc}") from None


def fuse_runs(
    runs: Mapping[str, Any] | Sequence[Any],
    k: float = 60,
    window: int | None = None,
    *,
    as_frame: bool | str = False,
) -> dict[Hashable, dict[Hashable, float]] | pd.DataFrame | pl.DataFrame:
    """Fuse whole runs with RRF, question by question: question -> {ID: fused score}, best first.

    Each question's rankings in the runs that have it (``{ID: score}`` ordered by the tie rule) are
    fused as :func:`ragmath.rrf` fuses them, with the same ``k`` and ``window``. Questions come in
    order of first appearance across the runs. ``runs`` is a mapping name -> run or a list of runs; a
    run is a mapping question -> ranking, a DataFrame (pandas or polars; columns question, id, score
    or rank) or a run file (TREC, CSV or JSONL; each question's top ``window`` is read:
    :func:`ragmath.io.read_run_head`). IDs are text (``1`` and ``"1"`` are one ID, returned as
    ``"1"``); a mapping's question with an empty ranking is returned with no items.
    ``as_frame=True`` (or ``"pandas"``) returns a DataFrame with columns question, id, rank, score
    instead, ``as_frame="polars"`` the engine's polars one (for millions of rows the fastest).

    >>> fuse_runs([{"q1": ["a", "b"]}, {"q1": ["b", "c"]}], k=1)
    {'q1': {'b': 0.8333333333333334, 'a': 0.5, 'c': 0.3333333333333333}}

    Raises like :func:`ragmath.rrf` (k <= 0, window < 1, duplicate IDs) and ``TypeError`` when a
    run is neither a mapping, a DataFrame nor a file.
    """
    smoothing, window = check_rrf_k(k), check_window(window)
    if as_frame not in (False, True, "pandas", "polars"):
        raise ValueError(f"as_frame must be False, True, 'pandas' or 'polars', got {as_frame!r}")
    named = _named_runs(runs)
    # A generator, so each file is read, ordered and let go before the next one (memory).
    fused = fuse_tables((_table(name, run, window) for name, run in named.items()), smoothing, window)
    if as_frame == "polars":
        return fused
    if as_frame:
        return _to_pandas(fused)
    out: dict[Hashable, dict[Hashable, float]] = {}
    if all(isinstance(run, Mapping) for run in named.values()):
        for run in named.values():  # every question in order, empty rankings (no rows) included
            out.update((str(q), {}) for q in run)
    for (question,), group in fused.group_by("question", maintain_order=True):
        out[question] = dict(zip(group["id"].to_list(), group["score"].to_list(), strict=True))
    return out
