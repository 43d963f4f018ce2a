"""Reciprocal Rank Fusion: combine ranked lists by rank alone, never by their raw scores.

The fusion is computed in one place, :func:`fuse`: exact fused scores (:func:`rrf_score`) and the
tie rule, over a matrix of ranks. :func:`rrf` fuses one question's lists with it, :func:`fuse_runs`
every question of whole runs (files, DataFrames or mappings), and the command line, the workbook's
hybrid retriever and the notebook's k explorer call one of the three.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from itertools import chain
from typing import TYPE_CHECKING, Any

import numpy as np

from ragmath.validation import (
    check_ranking,
    check_rrf_k,
    check_weights,
    check_window,
    is_source,
    named_lists,
)

if TYPE_CHECKING:
    import pandas as pd
    import polars as pl

__all__ = ["rrf", "fuse_runs", "fuse", "rrf_score", "fused_scores"]


def rrf_score(ranks: Iterable[int], k: float, weights: Sequence[float] | None = None) -> Fraction:
    """An item's exact fused score from its ranks in the lists that hold it (0 or None: a list lacking it).

    RRF(d) = Σ_{j : d ∈ L_j} w_j / (k + rank_j(d))

    where rank_j(d) is the 1-based position of d in list L_j, k > 0 the smoothing constant and w_j
    list j's weight (1 without ``weights``: plain RRF; weighted RRF as Elasticsearch 9.2's ``rrf``
    retriever). Summed as fractions (a float is an exact rational), so mathematically equal scores
    are equal and the tie rule decides, never a rounding residue of 1e-17.

    >>> rrf_score([1, 0, 3], 1)
    Fraction(3, 4)
    >>> rrf_score([1, 3], 1, weights=[0.5, 1])
    Fraction(1, 2)
    """
    exact_k, ranks = Fraction(k), [int(r or 0) for r in ranks]
    weight = [Fraction(1)] * len(ranks) if weights is None else [Fraction(w) for w in weights]
    return sum((weight[j] / (exact_k + r) for j, r in enumerate(ranks) if r), Fraction(0))


def fused_scores(ranks: np.ndarray, k: float,
                 weights: Sequence[float] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Every row's fused score as a tier of its exact value (:func:`rrf_score`) and as a float.

    ``ranks`` is an integer matrix items × lists, 0 where a list lacks the item. Tier 0 is the highest
    exact score and rows with mathematically equal scores share a tier. Each distinct combination of
    ranks is scored once: in floating point (Σ w / (k + rank), terms smallest first, so the float
    does not depend on the order of the lists; within a few ulps of the exact score),
    and, where two neighbouring floats lie within 1e-9 of each other, exactly as fractions, which
    decide their order. (Fractions for every combination cost 4.4 s for 200 values of k on 1,000
    items, the explorer's scan; the floats with fractions near ties 0.05 s: bench/bench_explorer.py.)

    >>> fused_scores(np.array([[1, 0], [0, 1], [2, 2]]), 1)
    (array([1, 1, 0]), array([0.5       , 0.5       , 0.66666667]))
    """
    n_rows, n_lists = ranks.shape
    base = int(ranks.max()) + 1 if n_rows else 1
    if base**n_lists <= min(4_000_000, 16 * n_rows):  # index every possible combination: no sort
        combo = np.zeros(n_rows, dtype=np.int64)
        for j in range(n_lists):
            combo = combo * base + ranks[:, j]
        present = np.flatnonzero(np.bincount(combo, minlength=base**n_lists))
        combos = np.stack([(present // base ** (n_lists - 1 - j)) % base for j in range(n_lists)], axis=1)
        lookup = np.zeros(base**n_lists, dtype=np.int64)
        lookup[present] = np.arange(len(present))
        inverse = lookup[combo]
    else:
        combos, inverse = np.unique(ranks, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
    with np.errstate(divide="ignore"):
        # terms summed smallest first: the float depends on the ranks, not on the order of the lists
        weight = np.ones(n_lists) if weights is None else np.asarray(weights, dtype=float)
        floats = np.sort(np.where(combos > 0, weight / (k + combos), 0.0), axis=1).sum(axis=1)
    order = np.argsort(-floats, kind="stable")
    near = np.flatnonzero(floats[order][:-1] - floats[order][1:] <= 1e-9 * floats[order][:-1])
    new_tier = np.ones(len(order), dtype=np.int64)
    if len(near):  # runs of near neighbours: order them by their exact scores
        run_start = np.concatenate(([True], np.diff(near) != 1))
        for run in np.split(near, np.flatnonzero(run_start)[1:]):
            members = order[run[0]: run[-1] + 2]
            exact = sorted(((rrf_score(row, k, weights), member) for row, member in
                            zip(combos[members].tolist(), members.tolist(), strict=True)), reverse=True)
            order[run[0]: run[-1] + 2] = [member for _, member in exact]
            values = [value for value, _ in exact]
            new_tier[run[0] + 1: run[-1] + 2] = [a != b for a, b in zip(values, values[1:], strict=False)]
    tiers = np.empty(len(order), dtype=np.int64)
    tiers[order] = np.cumsum(new_tier) - 1
    return tiers[inverse], floats[inverse]


def fuse(ranks: np.ndarray, ids: pl.Series, k: float, questions: np.ndarray | None = None,
         weights: Sequence[float] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """RRF of ranked lists given as ranks: the rows' order best first, their tiers and float scores.

    ``ranks`` is an integer matrix items × lists (0 where a list lacks the item; see :func:`fused_scores`),
    ``ids`` the items' IDs as text, ``questions`` (optional) an integer code per row: rows are ordered
    by question code, then by the tie rule (:func:`ragmath.ranking.tie_rule_order`) on the exact fused
    scores: score descending, then ID ascending in code-point order. Rows of one question with equal
    tiers (:func:`fused_scores`) are exactly tied. ``k`` and ``weights`` (one per list, or None) are
    assumed checked.

    >>> import polars as pl
    >>> fuse(np.array([[1, 0], [0, 1], [2, 2]]), pl.Series(["b", "a", "c"]), 1)[0].tolist()
    [2, 1, 0]
    """
    from ragmath.ranking import tie_rule_order

    tier, score = fused_scores(ranks, k, weights)
    return tie_rule_order(-tier, ids, questions), tier, score  # tier 0: the highest exact score


def rrf(
    rankings: Mapping[str, Sequence[Hashable]] | Sequence[Sequence[Hashable]],
    k: float = 60,
    window: int | None = None,
    weights: Sequence[float] | None = None,
) -> pd.DataFrame:
    """Fuse one question's ranked lists with Reciprocal Rank Fusion; one row per item, best first.

    RRF(d) = Σ_{j : d ∈ L_j} w_j / (k + rank_j(d))

    where
      - L_j are the input lists (each cut to its top ``window`` first, when given),
      - rank_j(d) is the 1-based position of d in L_j; a list lacking d adds nothing for it,
      - k > 0 is the smoothing constant (60 by default; unrelated to the K of top-K),
      - w_j is list j's weight, ``weights`` in the order of the lists (without it every w_j is 1).

    Items are ordered by :func:`fuse`: exact score descending, then ID ascending (IDs compare as text).
    The fused score orders items; it is not a probability of being relevant.

    Returns a DataFrame with columns ``id``, ``rrf_rank`` (1, 2, ...), ``rrf_score``, and for every
    list NAME ``rank[NAME]`` (NaN where absent) and ``contrib[NAME]`` (0.0 where absent). Lists given
    as a plain list of lists are named ``L1``, ``L2``, ...

    >>> table = rrf({"bm25": ["4.2", "6.1", "3.5"], "vector": ["5.3", "6.1", "4.2"]}, k=1)
    >>> table[["id", "rrf_score"]].round(4).values.tolist()
    [['4.2', 0.75], ['6.1', 0.6667], ['5.3', 0.5], ['3.5', 0.25]]

    Raises ``ValueError`` for k <= 0 (with the reason), a window below 1, an empty ``rankings``, a
    list repeating an ID or bad weights (:func:`ragmath.validation.check_weights`); ``TypeError`` for a
    string in place of a list or a non-numeric k.
    """
    import pandas as pd
    import polars as pl

    smoothing, window = check_rrf_k(k), check_window(window)
    lists = {name: check_ranking(ranking, f"rankings[{name!r}]")[:window]
             for name, ranking in named_lists(rankings).items()}
    weights = check_weights(weights, len(lists))
    row_of: dict[Hashable, int] = {}
    for ranking in lists.values():
        for item in ranking:
            row_of.setdefault(item, len(row_of))
    items = list(row_of)
    ranks = np.zeros((len(items), len(lists)), dtype=np.int64)
    for j, ranking in enumerate(lists.values()):
        ranks[[row_of[item] for item in ranking], j] = np.arange(1, len(ranking) + 1)
    ids = pl.Series([item if isinstance(item, str) else str(item) for item in items], dtype=pl.String)
    order, _, score = fuse(ranks, ids, smoothing, weights=weights)

    table = pd.DataFrame({"id": pd.Series([items[i] for i in order], dtype=object),
                          "rrf_rank": np.arange(1, len(order) + 1), "rrf_score": score[order]})
    for j, name in enumerate(lists):  # each list's rank and contribution, beside the fused score
        rank = ranks[order, j].astype(float)
        table[f"rank[{name}]"] = np.where(rank > 0, rank, np.nan)
        weight = None if weights is None else [weights[j]]
        list_ranks = ranks[order, j].tolist()
        table[f"contrib[{name}]"] = [float(rrf_score([r], smoothing, weight)) for r in list_ranks]
    return table


def fuse_runs(
    runs: Mapping[str, Any] | Sequence[Any],
    k: float | None = None,
    window: int | None = None,
    *,
    weights: Sequence[float] | None = None,
    norm: str | None = None,
    as_frame: bool | str = False,
) -> dict[Hashable, dict[Hashable, float]] | pd.DataFrame | pl.DataFrame:
    """Fuse whole runs with RRF, question by question: question -> {ID: fused score}, best first.

    Each question's rankings in the runs that have it (``{ID: score}`` ordered by the tie rule) are
    fused by :func:`fuse`, as :func:`rrf` fuses one question's lists, with the same ``k`` (60 when
    not given), ``window`` and ``weights`` (one per run, in their order: weighted RRF). With ``norm``
    (``"min-max"``, ``"z-score"`` or ``"l2"``) the runs' scores are fused instead, by a weighted sum
    of normalised scores (:func:`ragmath.score_fusion.fuse_score_tables`); ``k`` belongs to RRF and
    is refused there. Questions come in order of first appearance across the runs. ``runs`` is a mapping
    name -> run or a list of runs; a run is a mapping question -> ranking, a DataFrame (pandas or
    polars; columns question, id, score or rank) or a run file (TREC, CSV or JSONL; each question's
    top ``window`` is read: :func:`ragmath.io.run_table`). IDs are text (``1`` and ``"1"`` are one
    ID, returned as ``"1"``); a mapping's question with an empty ranking is returned with no items.
    ``as_frame=True`` (or ``"pandas"``) returns a DataFrame with columns question, id, rank, score
    instead, ``as_frame="polars"`` a polars one (for millions of rows the fastest).

    >>> fuse_runs([{"q1": ["a", "b"]}, {"q1": ["b", "c"]}], k=1)
    {'q1': {'b': 0.8333333333333333, 'a': 0.5, 'c': 0.3333333333333333}}

    Raises like :func:`rrf` (k <= 0, window < 1, duplicate IDs, bad weights), ``ValueError`` for ``k``
    given with ``norm`` or an unknown ``norm``, and ``TypeError`` when a run is neither a mapping, a
    DataFrame nor a file.
    """
    from ragmath.score_fusion import check_norm, fuse_score_tables

    if norm is not None and k is not None:
        raise ValueError("k is RRF's constant and score fusion (norm) has none: give k or norm, not both")
    smoothing, window = check_rrf_k(60 if k is None else k), check_window(window)
    if as_frame not in (False, True, "pandas", "polars"):
        raise ValueError(f"as_frame must be False, True, 'pandas' or 'polars', got {as_frame!r}")
    named = named_lists(runs, "runs")
    weights = check_weights(weights, len(named))
    # A generator, so each file is read, ordered and let go before the next one (memory).
    tables = (_read_run(name, run, window, scores=norm is not None) for name, run in named.items())
    if norm is not None:
        fused = fuse_score_tables(tables, check_norm(norm), weights, window)
    else:
        fused = _fuse_tables(tables, smoothing, window, weights)
    if as_frame == "polars":
        return fused
    if as_frame:  # text as Python strings, no pyarrow needed
        import pandas as pd

        return pd.DataFrame({name: fused[name].to_numpy() for name in fused.columns})
    out: dict[Hashable, dict[Hashable, float]] = {}
    if all(isinstance(run, Mapping) for run in named.values()):
        for run in named.values():  # every question in order, empty rankings (no rows) included
            out.update((str(q), {}) for q in run)
    for (question,), group in fused.group_by("question", maintain_order=True):
        out[question] = dict(zip(group["id"].to_list(), group["score"].to_list(), strict=True))
    return out


def _read_run(name: str, run: Any, window: int | None, scores: bool = False) -> pl.DataFrame:
    """One run as a table (a file: each question's top ``window``, or whole with its ``scores``),
    errors naming the run."""
    from ragmath import io

    try:
        if is_source(run) and not scores:  # a file: each question's top window, a slice at a time
            return io.run_table(run, top=window, ranked=True)
        return io.run_table(run)
    except ValueError as exc:
        raise ValueError(f"runs[{name!r}]: {exc}") from None
    except TypeError as exc:
        raise TypeError(f"runs[{name!r}]: {exc}") from None


def _fuse_tables(tables: Iterable[pl.DataFrame], k: float, window: int | None,
                 weights: Sequence[float] | None = None) -> pl.DataFrame:
    """The fused run (question, id, rank, score) of run tables, by :func:`fuse` on one rank matrix.

    Each table is ordered by the tie rule and cut to ``window`` (:func:`ragmath.ranking.order_run_table`),
    then let go; every (question, ID) pair becomes one row of ranks. Arrays are deleted as soon as they
    are used: this runs on tens of millions of rows.
    """
    import polars as pl

    from ragmath.ranking import order_run_table, tie_rule_order

    schema = {"question": pl.String, "id": pl.String, "rank": pl.Int64, "score": pl.Float64}
    parts = []
    for table in tables:
        parts.append(order_run_table(table, top=window))
        del table
    n_lists = len(parts)
    parts = [part for part in parts if part.height]
    if not parts:
        return pl.DataFrame(schema=schema)
    heads = [part.filter(pl.col("position") == 1)["question"] for part in parts]
    questions = list(dict.fromkeys(chain.from_iterable(head.to_list() for head in heads)))
    code_of = {question: code for code, question in enumerate(questions)}

    columns = []
    while parts:
        part, head = parts.pop(0), heads.pop(0)
        starts = np.flatnonzero(part["position"].to_numpy() == 1)
        lengths = np.diff(np.append(starts, part.height))
        codes = np.fromiter((code_of[q] for q in head.to_list()), dtype=np.int32, count=len(head))
        columns.append(part.select(  # narrow integers: tens of millions of rows
            pl.Series("question", np.repeat(codes, lengths)), "id", pl.col("position").cast(pl.Int32),
            which=pl.lit(len(columns), pl.Int16),
        ))
        del part
    rows = pl.concat(columns)
    del columns
    question, ids = rows["question"].to_numpy(), rows["id"]
    order, same = _group_pairs(question, ids)
    new_pair = np.concatenate(([True], ~same))
    pair = np.empty(len(order), dtype=np.int64)
    pair[order] = np.cumsum(new_pair) - 1
    ranks = np.zeros((int(pair.max()) + 1, n_lists), dtype=np.int32)
    ranks[pair, rows["which"].to_numpy()] = rows["position"].to_numpy()
    del pair, rows
    first = order[new_pair]  # one row of each pair, pairs by question
    del order, new_pair, same
    pair_question = question[first].astype(np.int64)
    pair_ids = ids.gather(first)
    del question, ids, first
    tier, score = fused_scores(ranks, k, weights)  # fuse's two steps, the ranks let go in between
    del ranks
    np.negative(tier, out=tier)  # tier 0 is the highest exact score: minus the tier orders as the score
    order = tie_rule_order(tier, pair_ids, pair_question)
    del tier
    pair_question = pair_question[order]
    starts = np.flatnonzero(np.concatenate(([True], pair_question[1:] != pair_question[:-1])))
    rank = np.arange(1, len(order) + 1)
    rank -= np.repeat(starts, np.diff(np.append(starts, len(order))))
    fused_ids = pair_ids.gather(order)
    del pair_ids
    fused_score = score[order]
    del score, order
    fused_question = pl.Series(questions, dtype=pl.String).gather(pair_question)
    del pair_question
    return pl.DataFrame(
        {"question": fused_question, "id": fused_ids, "rank": rank, "score": fused_score}, schema=schema
    )


def _group_pairs(question: np.ndarray, ids: pl.Series) -> tuple[np.ndarray, np.ndarray]:
    """An order of the rows that makes each (question, ID) pair a run of neighbours, by question.

    Returns the order and, for each neighbour pair in it, whether the two rows are the same pair.
    Rows are sorted on one 64-bit key: the question code in the high bits, a hash of the ID below.
    Every run of equal keys is then checked against the text; after a hash collision (two IDs of
    one question with equal keys) the next seed is tried, and in the end an exact sort on the text.
    """
    import polars as pl

    bits = max(int(question.max()).bit_length(), 1) if len(question) else 1
    high = question.astype(np.uint64)
    high <<= np.uint64(64 - bits)
    for seed in (0, 1, 2):
        key = ids.hash(seed=seed).to_numpy() >> np.uint64(bits)
        key |= high
        order = np.argsort(key)
        sorted_key = key[order]
        del key
        same = sorted_key[1:] == sorted_key[:-1]
        if (ids.gather(order[:-1][same]) == ids.gather(order[1:][same])).all():
            return order, same
    order = pl.DataFrame({"question": question, "id": ids}).select(
        pl.arg_sort_by(["question", "id"])).to_series().to_numpy()
    sorted_ids = ids.gather(order)
    same = (question[order][1:] == question[order][:-1]) & (sorted_ids.slice(1) == sorted_ids.slice(
        0, len(order) - 1)).to_numpy()
    return order, same
