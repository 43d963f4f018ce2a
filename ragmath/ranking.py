"""The tie rule, stated once: how scores become a ranking.

**A run given as scores is ordered by score descending, then ID ascending; a run given as ranked
lists keeps its order.** IDs are text and compare in code-point order (UTF-8's byte order); an
integer ID is its decimal text, so ``"10"`` comes before ``"9"`` and ``2``. (trec_eval breaks ties
by ID descending, ranx by its dicts' order.)

:func:`tie_rule_order` is the rule, written once: every place that orders by score calls it, one
question's ``{ID: score}`` (:func:`ranking_from_scores`), a whole run table (:func:`order_run_table`:
``evaluate``, ``compare``, the writers, the readers of ``io``) and RRF's fused scores
(:func:`ragmath.fusion.fuse`). The explorer page's JavaScript (``explorer/explorer.js``) keeps its
own copy, which tests/test_explorer_page.py checks against this one.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np
import polars as pl

__all__ = ["tie_rule_order", "ranking_from_scores", "order_run_table"]


def tie_rule_order(score: np.ndarray, ids: pl.Series, question: np.ndarray | None = None) -> np.ndarray:
    """The tie rule: the order of the rows, best first, by score descending, then ID ascending.

    ``score`` holds one number per row (floats, integers, or exact numbers such as ``Fraction`` in an
    object array: compared as given, never rounded), ``ids`` the rows' IDs as text; IDs compare in
    code-point order, so ``"10"`` comes before ``"9"``. With ``question`` (an integer code per row)
    the rows are ordered by code first, and the rule applies within each question. Returns the row
    indices in that order.

    >>> tie_rule_order(np.array([0.5, 0.5, 0.9]), pl.Series(["b", "a", "c"])).tolist()
    [2, 1, 0]
    >>> tie_rule_order(np.array([1.0, 1.0, 1.0]), pl.Series(["9", "10", "2"])).tolist()
    [1, 2, 0]

    Rows already in that order (what programs usually write) are only checked, in bulk. Otherwise one
    integer sort orders them by (question, score), and the IDs then decide among equal neighbours
    only: pairs by one comparison, longer runs by a sort (tens of millions of rows come through here,
    and one sort of every row on question, score and ID was slower: docs/design-notes.md).
    """
    if len(score) < 2:
        return np.arange(len(score))
    if _in_order(score, ids, question):
        return np.arange(len(score))
    key = _sort_key(score, question)
    order = np.argsort(key, kind="stable")
    sorted_key = key[order]
    del key
    tie = np.flatnonzero(sorted_key[1:] == sorted_key[:-1])  # positions i tied with i + 1
    if not len(tie):
        return order
    run_start = np.concatenate(([True], np.diff(tie) != 1))  # runs of consecutive tied positions
    run_id = np.cumsum(run_start) - 1
    run_length = np.bincount(run_id) + 1  # rows in each run of equal keys
    two = run_length[run_id] == 2
    first = tie[two]  # runs of exactly two rows: swap when the IDs are out of order
    swap = (ids.gather(order[first]) > ids.gather(order[first + 1])).to_numpy()
    swapped = first[swap]
    order[swapped], order[swapped + 1] = order[swapped + 1], order[swapped].copy()
    longer = tie[~two]
    if len(longer):  # runs of three or more rows: sort each run's rows by ID
        in_run = np.zeros(len(order), dtype=bool)
        in_run[longer] = in_run[longer + 1] = True
        positions = np.flatnonzero(in_run)
        tied_to_previous = np.zeros(len(order), dtype=bool)
        tied_to_previous[longer + 1] = True
        run = np.cumsum(~tied_to_previous[positions])  # which run each position belongs to
        runs = pl.DataFrame({"run": run, "id": ids.gather(order[positions])})
        within = runs.select(pl.arg_sort_by(["run", "id"])).to_series().to_numpy()
        order[positions] = order[positions][within]
    return order


def _in_order(score: np.ndarray, ids: pl.Series, question: np.ndarray | None, head: int = 4096) -> bool:
    """True when the rows already follow the rule: questions in code order, in each one scores not
    increasing and, where two neighbours' scores are equal, IDs increasing. The first ``head`` rows
    are checked first: rows out of order (RRF's, always) are then told apart without a pass over all."""
    if len(score) > head and not _in_order(score[:head], ids.slice(0, head),
                                           None if question is None else question[:head], head):
        return False
    if question is None:
        same = np.ones(len(score) - 1, dtype=bool)
    else:
        if np.any(question[1:] < question[:-1]):
            return False
        same = question[1:] == question[:-1]
    if np.any(same & (score[1:] > score[:-1])):
        return False
    tied = np.flatnonzero(same & (score[1:] == score[:-1]))
    return bool((ids.gather(tied) < ids.gather(tied + 1)).all())


def _sort_key(score: np.ndarray, question: np.ndarray | None) -> np.ndarray:
    """One key per row whose ascending order is (question, score descending): equal keys, equal
    scores of one question."""
    if question is None:
        return ~score if score.dtype.kind in "iu" else -score  # ~s = -s - 1: never overflows
    codes = np.asarray(question, dtype=np.int64)
    n_questions = int(codes.max()) + 1
    if score.dtype.kind in "iu":  # integers (RRF's tiers, ranks): folded with the code as they are
        low, high = int(score.min()), int(score.max())
        if (high - low + 1) * n_questions < 2**63:
            key = codes * (high - low + 1)  # in place from here: tens of millions of rows
            key -= score  # may wrap around on the way; the result, below 2**63, is exact
            key += high
            return key
    # floats, exact numbers, integers too wide to fold: each distinct score numbered, the highest 0
    values, inverse = np.unique(score, return_inverse=True)
    key = (len(values) - 1) - inverse.reshape(-1).astype(np.int64)
    key += codes * len(values)
    return key


def ranking_from_scores(scores: Mapping[Hashable, Any], name: str = "scores") -> list[Hashable]:
    """Order ``{ID: score}`` best first by :func:`tie_rule_order`: score descending, then ID ascending.

    >>> ranking_from_scores({"b": 0.5, "a": 0.5, "c": 0.9})
    ['c', 'a', 'b']
    >>> ranking_from_scores({9: 1.0, 10: 1.0, 2: 1.0})  # IDs compare as text: "10" < "2" < "9"
    [10, 2, 9]

    Scores are compared as given, never rounded (``fractions.Fraction`` included). Raises
    ``TypeError`` for a score that is not a number, ``ValueError`` for NaN.
    """
    for item, score in scores.items():
        if isinstance(score, bool) or not isinstance(score, numbers.Real):
            raise TypeError(f"{name}[{item!r}] must be a number, got {score!r}")
        if math.isnan(score):
            raise ValueError(f"{name}[{item!r}] is NaN; give every retrieved ID a real score")
    items = list(scores)
    values = np.empty(len(items), dtype=object)  # Python's numbers, compared exactly
    values[:] = [scores[item] for item in items]
    ids = pl.Series([item if isinstance(item, str) else str(item) for item in items], dtype=pl.String)
    return [items[i] for i in tie_rule_order(values, ids)]


def _run_scores(table: pl.DataFrame) -> np.ndarray:
    """Each row's score for the tie rule; a ranked list's rank 1 scores highest (``~rank``, that is
    ``-rank - 1``), so the rule keeps a ranked list in its order (its ranks are distinct)."""
    score, missing = table["score"], table["score"].null_count()
    if missing == 0:  # scores everywhere (every TREC file)
        return score.to_numpy()
    if missing == table.height:  # ranked lists everywhere
        return ~table["rank"].to_numpy()
    # A mix (a mapping with some questions as {ID: score}, others as [IDs]): a question is one or the
    # other, so scores and ranks are numbered apart and never meet in one question.
    scored = score.is_not_null().to_numpy()
    out = np.empty(table.height, dtype=np.int64)
    out[scored] = np.unique(score.filter(scored).to_numpy(), return_inverse=True)[1].reshape(-1)
    ranks = ~table["rank"].filter(~scored).to_numpy()
    out[~scored] = np.unique(ranks, return_inverse=True)[1].reshape(-1)
    return out


def order_run_table(table: pl.DataFrame, top: int | None = None) -> pl.DataFrame:
    """A run table (question, id, score, rank) as ranked lists: (question, id, position), best first.

    Each question is ordered by the tie rule (:func:`tie_rule_order`; a ranked list, score null, keeps
    its ``rank`` order); ``position`` counts 1, 2, ... per question, up to ``top`` when given.
    Questions come out in order of first appearance, each as one block.

    >>> run = pl.DataFrame({"question": ["q1", "q1", "q1", "q2"], "id": ["b", "a", "c", "x"],
    ...                     "score": [0.5, 0.5, 0.9, None], "rank": [None, None, None, 1]})
    >>> order_run_table(run).rows()
    [('q1', 'c', 1), ('q1', 'a', 2), ('q1', 'b', 3), ('q2', 'x', 1)]

    A file written in this order (what programs usually write) is only checked, not sorted.
    """
    question = table["question"]
    new_block = (question != question.shift(1)).fill_null(True).to_numpy()
    heads = question.filter(pl.Series(new_block))
    if heads.n_unique() == len(heads):  # each question one block: numbered in order
        code = np.cumsum(new_block, dtype=np.int64) - 1
    else:  # a question in two blocks: numbered by first appearance
        first_row = pl.col("_row").min().over("question").rank("dense")
        code = table.with_row_index("_row").select(first_row).to_series().to_numpy().astype(np.int64) - 1
    order = tie_rule_order(_run_scores(table), table["id"], code)
    if not np.array_equal(order, np.arange(table.height)):  # not in order yet (two rows or more)
        table, code = table[order], code[order]
        new_block = np.concatenate(([True], code[1:] != code[:-1]))
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
