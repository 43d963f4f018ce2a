"""The tie rule, stated once: how scores become a ranking.

**A run given as scores is ordered by score descending, then ID ascending; a run given as ranked
lists keeps its order.** IDs are text and compare in code-point order (UTF-8's byte order); an
integer ID is its decimal text, so ``"10"`` comes before ``"9"`` and ``2``. (trec_eval breaks ties
by ID descending, ranx by its dicts' order.) :func:`ranking_from_scores` applies it to one question,
:func:`order_run_table` to a whole run table.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np
import polars as pl

__all__ = ["ranking_from_scores", "order_run_table"]


def ranking_from_scores(scores: Mapping[Hashable, Any], name: str = "scores") -> list[Hashable]:
    """Order ``{ID: score}`` best first: score descending, then ID ascending (the tie rule).

    >>> ranking_from_scores({"b": 0.5, "a": 0.5, "c": 0.9})
    ['c', 'a', 'b']
    >>> ranking_from_scores({9: 1.0, 10: 1.0, 2: 1.0})  # IDs compare as text: "10" < "2" < "9"
    [10, 2, 9]

    Scores are compared as given, never rounded (``fractions.Fraction`` included: :func:`ragmath.rrf`
    passes exact fused scores). Raises ``TypeError`` for a score that is not a number, ``ValueError``
    for NaN.
    """
    for item, score in scores.items():
        if isinstance(score, bool) or not isinstance(score, numbers.Real):
            raise TypeError(f"{name}[{item!r}] must be a number, got {score!r}")
        if math.isnan(score):
            raise ValueError(f"{name}[{item!r}] is NaN; give every retrieved ID a real score")
    return sorted(scores, key=lambda item: (-scores[item], item if isinstance(item, str) else str(item)))


def _order_keys(table: pl.DataFrame) -> tuple[list[pl.Expr], list[bool]]:
    """Sort keys (after the question) that put each question's rows in the tie rule's order."""
    missing_scores = table["score"].null_count()
    if missing_scores == 0:  # scores everywhere (every TREC file)
        return [pl.col("score"), pl.col("id")], [True, False]
    if missing_scores == table.height:  # ranked lists everywhere
        return [pl.col("rank")], [False]
    # A mix (a mapping with some questions as {ID: score}, others as [IDs]): within a scored
    # question the rank is null and never decides; within a ranked one score and ID key are constant.
    scored = pl.col("score").is_not_null()
    return [pl.col("score").fill_null(0.0), pl.when(scored).then(pl.col("id")).otherwise(pl.lit("")),
            pl.col("rank").fill_null(0)], [True, False, False]


def _in_order(table: pl.DataFrame, new_block: np.ndarray) -> bool:
    """True when every question is one block of rows already in the tie rule's order.

    Checked in bulk: each row against the one before it, IDs compared only where scores tie.
    """
    if table.height < 2:
        return True
    heads = table["question"].filter(pl.Series(new_block))
    if heads.n_unique() != len(heads):  # a question in two blocks
        return False
    within = ~new_block[1:]
    missing_scores = table["score"].null_count()
    if missing_scores == table.height:  # ranked lists
        rank = table["rank"].to_numpy()
        return bool(np.all((rank[1:] > rank[:-1]) | ~within))
    if missing_scores:  # a mix of scored questions and ranked lists: sort
        return False
    score = table["score"].to_numpy()
    if np.any(within & (score[1:] > score[:-1])):
        return False
    tied = np.flatnonzero(within & (score[1:] == score[:-1]))
    ids = table["id"]
    return bool((ids.gather(tied) < ids.gather(tied + 1)).all())


def order_run_table(table: pl.DataFrame, top: int | None = None) -> pl.DataFrame:
    """A run table (question, id, score, rank) as ranked lists: (question, id, position), best first.

    Each question is ordered by the tie rule (a ranked list, score null, keeps its ``rank`` order);
    ``position`` counts 1, 2, ... per question, up to ``top`` when given. Questions come out in order
    of first appearance, each as one block.

    >>> run = pl.DataFrame({"question": ["q1", "q1", "q1", "q2"], "id": ["b", "a", "c", "x"],
    ...                     "score": [0.5, 0.5, 0.9, None], "rank": [None, None, None, 1]})
    >>> order_run_table(run).rows()
    [('q1', 'c', 1), ('q1', 'a', 2), ('q1', 'b', 3), ('q2', 'x', 1)]

    A file written in this order (what programs usually write) is only checked, not sorted.
    """
    question = table["question"]
    new_block = (question != question.shift(1)).fill_null(True).to_numpy()
    if not _in_order(table, new_block):
        keys, descending = _order_keys(table)
        first_row = pl.col("_row").min().over("question").alias("_first_row")
        table = (
            table.lazy().with_row_index("_row").with_columns(first_row)
            .sort([pl.col("_first_row"), *keys], descending=[False, *descending])
            .drop("_row", "_first_row").collect()
        )
        question = table["question"]
        new_block = (question != question.shift(1)).fill_null(True).to_numpy()
    starts = np.flatnonzero(new_block)
    lengths = np.diff(np.append(starts, table.height))
    if top is not None and top < lengths.max(initial=0):  # keep the first `top` rows of each block
        lengths = np.minimum(lengths, top)
        rows = np.repeat(starts, lengths)
        position = np.arange(1, len(rows) + 1) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        rows = rows + position - 1
        table = table[rows]
    else:
        position = np.arange(1, table.height + 1) - np.repeat(starts, lengths)
    return table.select("question", "id").with_columns(position=pl.Series(position, dtype=pl.Int64))
