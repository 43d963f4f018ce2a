"""Reciprocal Rank Fusion: combine ranked lists by rank alone, never by their raw scores.

:func:`rrf` is the definition, for one question's lists; whole runs are fused by
:func:`ragmath.run_fusion.fuse_runs` (also ``ragmath.fuse_runs``), which gives the same numbers.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from ragmath._validation import check_ranking, check_rrf_k, check_window
from ragmath.ranking import ranking_from_scores

__all__ = ["rrf", "rrf_score", "rrf_float_scores", "named_lists"]


def rrf_score(ranks: Iterable[int], k: float) -> Fraction:
    """An item's exact fused score from its ranks in the lists that hold it (0 or None: a list lacking it).

    RRF(d) = Σ_{j : d ∈ L_j} 1 / (k + rank_j(d))

    where rank_j(d) is the 1-based position of d in list L_j and k > 0 the smoothing constant.
    Summed as fractions (a float k is an exact rational), so mathematically equal scores are equal
    and the tie rule decides, never a rounding residue of 1e-17. :func:`rrf`, the engine and the
    explorer all score with it.

    >>> rrf_score([1, 0, 3], 1)
    Fraction(3, 4)
    """
    exact_k = Fraction(k)
    return sum((1 / (exact_k + int(r)) for r in ranks if r), Fraction(0))


def rrf_float_scores(ranks: np.ndarray, ks: Sequence[float]) -> np.ndarray:
    """The fused scores in floating point, for drawing: one row per k, one column per item.

    ``ranks`` is items × lists with ``inf`` where a list lacks the item (which adds 1/inf = 0).
    Orders are decided on :func:`rrf_score`, never on these floats.

    >>> rrf_float_scores(np.array([[1.0, np.inf]]), [1]).tolist()
    [[0.5]]
    """
    k_column = np.asarray(ks, dtype=float)[:, None, None]
    return (1.0 / (k_column + ranks[None, :, :])).sum(axis=2)


def named_lists(rankings: Any) -> dict[str, Any]:
    """Ranked lists as name -> list: a mapping keeps its names, a list of lists is named L1, L2, ...

    >>> named_lists([["a", "b"], ["b"]])
    {'L1': ['a', 'b'], 'L2': ['b']}

    Raises ``TypeError`` for a string or a list holding something else than lists, or a name that is
    not a string, ``ValueError`` for no list at all. The lists themselves are checked by :func:`rrf`.
    """
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
    return named


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

    Items are ordered by the tie rule of :mod:`ragmath.ranking` on the exact fused scores
    (:func:`rrf_score`): score descending, then ID ascending. The fused score orders items; it is not
    a probability of being relevant.

    Returns a DataFrame with columns ``id``, ``rrf_rank`` (1, 2, ...), ``rrf_score``, and for every
    list NAME ``rank[NAME]`` (NaN where absent) and ``contrib[NAME]`` (0.0 where absent). Lists given
    as a plain list of lists are named ``L1``, ``L2``, ...

    >>> table = rrf({"bm25": ["4.2", "6.1", "3.5"], "vector": ["5.3", "6.1", "4.2"]}, k=1)
    >>> table[["id", "rrf_score"]].round(4).values.tolist()
    [['4.2', 0.75], ['6.1', 0.6667], ['5.3', 0.5], ['3.5', 0.25]]

    Raises ``ValueError`` for k <= 0 (with the reason), a window below 1, an empty ``rankings`` or a
    list repeating an ID; ``TypeError`` for a string in place of a list or a non-numeric k.
    """
    smoothing, window = check_rrf_k(k), check_window(window)
    lists = {name: check_ranking(ranking, f"rankings[{name!r}]")[:window]
             for name, ranking in named_lists(rankings).items()}

    ranks: dict[Hashable, dict[str, int]] = {}
    for name, ranking in lists.items():
        for position, item in enumerate(ranking, start=1):
            ranks.setdefault(item, {})[name] = position

    exact_scores = {item: rrf_score(item_ranks.values(), smoothing) for item, item_ranks in ranks.items()}
    rows = []
    for item in ranking_from_scores(exact_scores, "fused scores"):
        row: dict[str, Any] = {"id": item, "rrf_score": float(exact_scores[item])}
        for name in lists:
            rank = ranks[item].get(name)
            row[f"rank[{name}]"] = np.nan if rank is None else float(rank)
            row[f"contrib[{name}]"] = 0.0 if rank is None else float(rrf_score([rank], smoothing))
        rows.append(row)
    columns = ["id", "rrf_score", *(f"{kind}[{name}]" for name in lists for kind in ("rank", "contrib"))]
    table = pd.DataFrame(rows, columns=columns)
    table.insert(1, "rrf_rank", np.arange(1, len(table) + 1))
    return table
