"""The vectorised engine: evaluate and fuse whole run tables at once (polars, and numpy for fusion).

It computes the numbers of the per-question definitions (:mod:`ragmath.metrics`,
:func:`ragmath.fusion.rrf`) for every question of a table at once; ``tests/test_engine.py`` checks
the two against each other on random data. It takes the checked tables of :mod:`ragmath.io` and
orders runs by the tie rule of :mod:`ragmath.ranking`. How and why: docs/design-notes.md.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from itertools import chain

import numpy as np
import polars as pl

from ragmath.fusion import rrf_score
from ragmath.ranking import order_run_table
from ragmath.registry import METRICS

__all__ = ["evaluate_tables", "fuse_tables"]


def _discounts(max_k: int) -> pl.DataFrame:
    """log2(position + 1) for positions 1..max_k, computed as the definitions compute it."""
    return pl.DataFrame(
        {"position": range(1, max_k + 1), "discount": [math.log2(p + 1) for p in range(1, max_k + 1)]},
        schema={"position": pl.Int64, "discount": pl.Float64},
    )


def evaluate_tables(
    run: pl.DataFrame,
    qrels: pl.DataFrame,
    metrics: Sequence[tuple[str, int]],
    gain: str = "exp",
    *,
    run_questions: Sequence[str] | None = None,
    labelled: Sequence[str] | None = None,
) -> pl.DataFrame:
    """Per-question metrics of a run table against a qrels table, every question with its group.

    ``metrics`` holds (name, K) pairs, names from :data:`ragmath.registry.METRICS`; ``gain`` is
    ``"exp"`` (2^g - 1) or ``"linear"`` (g). Returns columns ``question``, ``group`` (``scored``,
    ``missing``, ``no_answer`` or ``unjudged``, as in :mod:`ragmath.evaluation`) and one Float64
    column per metric (``"Recall@10"``...), null outside the questions the metric is averaged over.
    Labelled questions come first, in the qrels' order, then unjudged ones in the run's. The run's
    questions are those with a row, or ``run_questions`` when given; the labelled ones those of
    ``qrels``, or ``labelled`` when given (a mapping's keys).

    Each metric is its registry entry's ``expression(k, gain)``, evaluated per question over its rows:
    one per *retrieved* labelled item in the top max-K (``retrieved`` true, ``position`` its 1-based
    place, ``grade`` its label, 0 included) and one per relevant label (``retrieved`` false,
    ``position`` its place in the ideal order, grades descending), each with ``discount`` =
    log2(position + 1). A null result (no row matched) counts as 0.

    >>> run = pl.DataFrame({"question": ["q1", "q1", "q1"], "id": ["A", "X", "B"],
    ...                     "score": [3.0, 2.0, 1.0], "rank": [1, 2, 3]})
    >>> qrels = pl.DataFrame({"question": ["q1", "q1", "q1"], "id": ["A", "B", "C"], "grade": [1, 1, 1]})
    >>> evaluate_tables(run, qrels, [("Recall", 3), ("MRR", 3)]).rows()
    [('q1', 'scored', 0.6666666666666666, 1.0)]
    """
    entries = [(METRICS[name.lower()], k, f"{METRICS[name.lower()].name}@{k}") for name, k in metrics]
    max_k = max(k for _, k, _ in entries)
    top = order_run_table(run, top=max_k)

    counts = qrels.group_by("question", maintain_order=True).agg(
        n_relevant=(pl.col("grade") > 0).sum().cast(pl.Int64)
    )
    if labelled is None:
        labelled = counts
    else:
        labelled = pl.DataFrame({"question": labelled}, schema={"question": pl.String}).join(
            counts, on="question", how="left", maintain_order="left").fill_null(0)
    if run_questions is None:
        run_questions = top.filter(pl.col("position") == 1).select("question")
    else:
        run_questions = pl.DataFrame({"question": run_questions}, schema={"question": pl.String})
    in_run = run_questions.with_columns(in_run=pl.lit(True))
    groups = labelled.join(in_run, on="question", how="left", maintain_order="left").select(
        "question",
        group=pl.when(pl.col("n_relevant") == 0).then(pl.lit("no_answer"))
        .when(pl.col("in_run").is_null()).then(pl.lit("missing"))
        .otherwise(pl.lit("scored")),
        in_run=pl.col("in_run").is_not_null(),
    )

    retrieved = top.join(qrels, on=["question", "id"], how="inner").select(
        "question", "position", "grade", retrieved=pl.lit(True))
    ideal = qrels.filter(pl.col("grade") > 0).select(
        "question",
        position=pl.col("grade").rank("ordinal", descending=True).over("question").cast(pl.Int64),
        grade="grade", retrieved=pl.lit(False),
    )
    rows = pl.concat([retrieved, ideal]).join(_discounts(max_k), on="position", how="left")
    values = rows.group_by("question").agg(
        metric.expression(k, gain).cast(pl.Float64).alias(column) for metric, k, column in entries
    )
    table = groups.join(values, on="question", how="left", maintain_order="left")
    averaged = {"answerable": pl.col("group").is_in(["scored", "missing"]), "labelled": pl.col("in_run")}
    table = table.select("question", "group", *(
        pl.when(averaged[metric.averaged_over]).then(pl.col(column).fill_null(0.0)).alias(column)
        for metric, _, column in entries
    ))

    unjudged = run_questions.join(labelled.select("question"), on="question", how="anti",
                                  maintain_order="left")
    unjudged = unjudged.select(
        "question", pl.lit("unjudged").alias("group"),
        *[pl.lit(None, pl.Float64).alias(column) for _, _, column in entries],
    )
    return pl.concat([table, unjudged], how="vertical")


def _exact_tiers(ranks: np.ndarray, k: float) -> tuple[np.ndarray, np.ndarray]:
    """For each row of ranks (0 = absent), the tier of its exact RRF score and the score as a float.

    Tier 0 is the highest exact score; rows with mathematically equal scores share a tier. The
    exact score of every distinct rank combination is computed once, as a fraction.
    """
    n_rows, n_lists = ranks.shape
    base = int(ranks.max()) + 1 if n_rows else 1
    if base**n_lists <= 4_000_000:  # index every possible combination directly: no sort
        combo = np.zeros(n_rows, dtype=np.int64)
        for j in range(n_lists):
            combo = combo * base + ranks[:, j]
        present = np.flatnonzero(np.bincount(combo, minlength=base**n_lists))
        digits = [(present // base ** (n_lists - 1 - j)) % base for j in range(n_lists)]
        combos = np.stack(digits, axis=1) if n_lists else np.zeros((0, 0), dtype=np.int64)
        lookup = np.zeros(base**n_lists, dtype=np.int64)
        lookup[present] = np.arange(len(present))
        inverse = lookup[combo]
    else:
        combos, inverse = np.unique(ranks, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
    exact_k = Fraction(k)
    exact = [rrf_score(row, exact_k) for row in combos.tolist()]
    distinct = sorted(set(exact), reverse=True)
    tier_of = {value: tier for tier, value in enumerate(distinct)}
    tiers = np.array([tier_of[value] for value in exact], dtype=np.int64)
    floats = np.array([float(value) for value in exact], dtype=np.float64)
    return tiers[inverse], floats[inverse]


def fuse_tables(tables: Iterable[pl.DataFrame], k: float = 60, window: int | None = None) -> pl.DataFrame:
    """RRF of whole run tables: (question, id, rank, score), best first within each question.

    RRF(d) = Σ_{j : d ∈ L_j} 1 / (k + rank_j(d))

    where L_j is question's ranking in table j (tie rule of :mod:`ragmath.ranking`, cut to its top
    ``window`` when given) and rank_j(d) the 1-based position of d in it. As in
    :func:`ragmath.fusion.rrf`, fused ties are decided on the exact (rational) scores: score
    descending, then ID ascending. Questions come in order of first appearance across the tables.
    ``k`` is assumed checked (> 0, finite), ``window`` too (>= 1 or None). ``tables`` may be a
    generator: each table is ordered and let go before the next is read, which keeps memory down.

    >>> a = pl.DataFrame({"question": ["q1", "q1"], "id": ["x", "y"], "score": None, "rank": [1, 2]})
    >>> b = pl.DataFrame({"question": ["q1", "q1"], "id": ["y", "z"], "score": None, "rank": [1, 2]})
    >>> fuse_tables([a, b], k=1).rows()
    [('q1', 'y', 1, 0.8333333333333334), ('q1', 'x', 2, 0.5), ('q1', 'z', 3, 0.3333333333333333)]
    """
    schema = {"question": pl.String, "id": pl.String, "rank": pl.Int64, "score": pl.Float64}
    parts = []  # each table as ranked lists: (question, id, position); a table is let go once ordered
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
    tier, score = _exact_tiers(ranks, k)
    del ranks

    first = order[new_pair]  # one row of each pair, pairs by question
    del order, new_pair, same
    pair_question = question[first].astype(np.int64)
    pair_ids = ids.gather(first)
    del question, ids, first  # each step below lets go of what it no longer needs: memory peaks here
    primary = pair_question * (int(tier.max()) + 1)
    primary += tier
    del tier
    order = _tie_rule_order(primary, pair_ids)
    del primary
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


def _tie_rule_order(primary: np.ndarray, ids: pl.Series) -> np.ndarray:
    """The order by ``primary`` ascending, then ID ascending (code-point order) among equal ones.

    Equal neighbours are put in ID order in bulk: pairs by one comparison, larger runs by a sort.
    """
    order = np.argsort(primary, kind="stable")
    sorted_primary = primary[order]
    tie = np.flatnonzero(sorted_primary[1:] == sorted_primary[:-1])  # positions i tied with i + 1
    if not len(tie):
        return order
    run_start = np.concatenate(([True], np.diff(tie) != 1))  # runs of consecutive tied positions
    run_id = np.cumsum(run_start) - 1
    run_length = np.bincount(run_id) + 1  # rows in each run of equal primary values
    two = run_length[run_id] == 2
    first = tie[two]  # runs of exactly two rows: swap when the IDs are out of order
    swap = (ids.gather(order[first]) > ids.gather(order[first + 1])).to_numpy()
    swapped = first[swap]
    order[swapped], order[swapped + 1] = order[swapped + 1], order[swapped].copy()
    longer = tie[~two]
    if len(longer):  # runs of three or more rows: sort each run's rows by ID
        positions = np.unique(np.concatenate((longer, longer + 1)))
        runs = pl.DataFrame({"primary": sorted_primary[positions], "id": ids.gather(order[positions])})
        within = runs.select(pl.arg_sort_by(["primary", "id"])).to_series().to_numpy()
        order[positions] = order[positions][within]
    return order
