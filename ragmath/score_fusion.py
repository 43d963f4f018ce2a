"""Score fusion: put each list's scores on one scale, then add them with weights (the other way, beside RRF).

A weighted sum of normalised scores is what search engines fuse with by default (Elasticsearch's
``linear`` retriever, OpenSearch's normalization processor, Weaviate's ``relativeScoreFusion``);
RRF (:mod:`ragmath.fusion`) keeps only the ranks. Computed once, in :func:`fuse_score_tables`, on
whole run tables; :func:`fuse_scores` fuses one question's lists with it.

Conventions (where engines differ, said so):

- each list is cut to its top ``window`` by the tie rule first, then normalised over what is left;
- without ``weights`` every list weighs 1 (a plain sum, as Elasticsearch's linear retriever);
  weights are given in the order of the lists and need not sum to 1: OpenSearch's arithmetic mean
  divides the same sum by the total weight, which changes no order;
- an item missing from a list adds 0 after normalising (under z-score 0 is the list's mean: a
  missing item counts as an average one of that list, not as its worst);
- a list whose scores are all equal (min-max, z-score) or all 0 (l2) carries no order and gives 0 to
  each of its items, as ranx does (Elasticsearch's ``minmax`` keeps such raw scores, OpenSearch's
  ``min_max`` gives a one-result list 1.0);
- exactly equal fused scores are ordered by ID ascending, in code-point order, as everywhere.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd
    import polars as pl

__all__ = ["NORMS", "fuse_scores", "fuse_score_tables", "check_norm"]

#: The normalisers: ``min-max`` (ranx ``min-max``), ``z-score`` (ranx ``zmuv``) and ``l2``
#: (Elasticsearch's ``l2_norm``).
NORMS = ("min-max", "z-score", "l2")


def _normalised(table: pl.DataFrame, norm: str) -> pl.Series:
    """One list's scores on a common scale, within each question: a column beside ``table``'s rows.

    - min-max:  m = (s − min) / (max − min)
    - z-score:  (m − mean) / σ, σ the population standard deviation (ranx's zmuv); the same as
                (s − mean) / σ of the raw scores, since z-scores do not change when the scores are
                shifted and scaled
    - l2:       t / sqrt(Σ t²) with t = s / max |s|, the same as s / sqrt(Σ s²)

    where min, max, mean, σ and Σ run over the question's scores in this list (after the window);
    0 for every item of a list with no spread (equal scores, or all 0 for l2). Any finite scores give
    finite values in the scores' order, and a list times a positive constant gives the same values:
    max − min is taken as max/2 − min/2 where it would overflow (min-max on [1e308, −1e308]), the
    z-score is taken of m, whose spread is 1 (raw scores one ulp apart have a σ that rounds to 0 or
    below the deviations), and l2 divides by max |s| before squaring (squares of 1e200 overflow, of
    1e-200 underflow).
    """
    import polars as pl

    score = pl.col("score")
    low, high = score.min().over("question"), score.max().over("question")
    width = high - low
    unit = pl.when(width.is_finite()).then((score - low) / width).otherwise(
        (score / 2 - low / 2) / (high / 2 - low / 2))
    spread = high > low
    if norm == "min-max":
        return table.select(pl.when(spread).then(unit).otherwise(0.0)).to_series()
    if norm == "z-score":
        m = table.select("question", pl.when(spread).then(unit).alias("m"))
        centred = pl.col("m") - pl.col("m").mean().over("question")
        return m.select(pl.when(pl.col("m").is_not_null()).then(
            centred / pl.col("m").std(ddof=0).over("question")).otherwise(0.0)).to_series()
    largest = score.abs().max().over("question")  # l2 (the norm is checked: check_norm)
    t = table.select("question", pl.when(largest > 0).then(score / largest).alias("t"))
    length = (pl.col("t") * pl.col("t")).sum().sqrt().over("question")
    return t.select(pl.when(pl.col("t").is_not_null()).then(pl.col("t") / length).otherwise(0.0)).to_series()


def fuse_score_tables(tables: Iterable[pl.DataFrame], norm: str, weights: Sequence[float] | None = None,
                      window: int | None = None) -> pl.DataFrame:
    """The weighted sum of normalised scores of run tables: (question, id, rank, score), best first.

    fused(d) = Σ_{j : d ∈ L_j} w_j · norm_j(s_j(d))

    where
      - L_j is the question's list in table j, cut to its top ``window`` by the tie rule,
      - s_j(d) is d's score in L_j and norm_j the normaliser ``norm`` over L_j's scores,
      - w_j is table j's weight (``weights`` in the order of the tables; 1 each without them).

    Questions come in order of first appearance; within one, fused score descending, then ID
    ascending. ``weights`` and ``window`` are assumed checked. Raises ``ValueError`` for a table
    without scores (a run of ranks alone: fuse it with RRF), for an unknown ``norm``, and for weights so
    large that a fused score is beyond the largest float (only their ratios matter: scale them down).
    """
    import polars as pl

    from ragmath.ranking import order_run_table

    check_norm(norm)
    parts = []
    for j, table in enumerate(tables):
        if table["score"].null_count():
            raise ValueError(f"run {j + 1} gives ranks without scores: score fusion needs scores; "
                             f"fuse ranks with RRF (no norm)")
        top = order_run_table(table, top=window).join(
            table.select("question", "id", "score"), on=["question", "id"], how="left", maintain_order="left")
        weight = 1.0 if weights is None else weights[j]
        parts.append(top.select("question", "id", part=weight * _normalised(top, norm)))
    summed = pl.concat(parts).group_by("question", "id", maintain_order=True).agg(score=pl.col("part").sum())
    if not summed["score"].is_finite().all():  # normalised scores are finite: only weights near 1.8e308
        raise ValueError(f"the weights {list(weights or ())} make fused scores beyond the largest float "
                         f"(1.8e308), where distinct scores would tie; only the weights' ratios matter: "
                         f"divide them all by one constant, e.g. by the largest")
    ordered = order_run_table(summed.with_columns(rank=pl.lit(None, pl.Int64)))
    return ordered.rename({"position": "rank"}).join(
        summed, on=["question", "id"], how="left", maintain_order="left")


def fuse_scores(lists: Mapping[str, Mapping[Hashable, float]], norm: str = "min-max",
                weights: Sequence[float] | None = None, window: int | None = None) -> pd.DataFrame:
    """Fuse one question's scored lists by a weighted sum of normalised scores; one row per item, best first.

    The convex combination of two lists is ``weights=[α, 1 − α]``. Computed by
    :func:`fuse_score_tables` (the conventions are in this module's docstring).

    >>> table = fuse_scores({"bm25": {"4.2": 12.7, "6.1": 8.3, "3.5": 5.0},
    ...                      "vector": {"5.3": 0.82, "6.1": 0.80, "4.2": 0.71}}, "min-max")
    >>> table[["id", "fused_score"]].round(4).values.tolist()
    [['6.1', 1.2468], ['4.2', 1.0], ['5.3', 1.0], ['3.5', 0.0]]

    Returns columns ``id``, ``fused_rank``, ``fused_score``, then for every list NAME ``score[NAME]``
    (its raw score, NaN where absent). Raises ``ValueError`` for an unknown norm, bad weights
    (:func:`ragmath.validation.check_weights`) or window, an empty ``lists``; ``TypeError`` for a list
    that is not a mapping ID -> score.
    """
    import pandas as pd

    from ragmath.io import run_table
    from ragmath.validation import check_weights, check_window

    if not isinstance(lists, Mapping) or not lists:
        raise TypeError("lists must be a non-empty mapping name -> {ID: score}, e.g. {'bm25': {'4.2': 12.7}}")
    named, window = dict(lists), check_window(window)
    weights = check_weights(weights, len(named))
    for name, scores in named.items():
        if not isinstance(name, str) or not isinstance(scores, Mapping):
            raise TypeError(f"lists[{name!r}] must be a mapping ID -> score named by a string, got "
                            f"{type(scores).__name__}")
    tables = [run_table({"q": scores}) for scores in named.values()]
    fused = fuse_score_tables(tables, norm, weights, window)
    table = pd.DataFrame({"id": fused["id"].to_list(), "fused_rank": fused["rank"].to_numpy(),
                          "fused_score": fused["score"].to_numpy()})
    for name, part in zip(named, tables, strict=True):
        raw = dict(zip(part["id"].to_list(), part["score"].to_list(), strict=True))
        table[f"score[{name}]"] = [raw.get(item, float("nan")) for item in table["id"]]
    return table


def check_norm(norm: Any) -> str:
    """Return ``norm`` if it names a normaliser of :data:`NORMS`, else raise listing them."""
    if norm not in NORMS:
        raise ValueError(f"norm must be one of {', '.join(NORMS)}, got {norm!r}")
    return norm
