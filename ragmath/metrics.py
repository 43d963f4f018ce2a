"""Per-question retrieval metrics, each written next to its formula.

Every function takes ``ranking`` (a sequence of IDs, best first, each ID once) and the labels of one
question. The cut-off ``k`` counts positions in ``ranking`` as given: dedupe to the evaluation unit and
apply the permission filter *before* calling (see :mod:`ragmath.units`). Each raises ``TypeError`` for
a string ranking or a non-int ``k`` and ``ValueError`` for ``k`` < 1 or a ranking repeating an ID.

Their names in trec_eval and ranx, and the engine's version of each, are in the metric registry,
:mod:`ragmath.registry` (and the README's table of metrics).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction

from ragmath._validation import check_grades, check_k, check_ranking, relevant_set

__all__ = ["recall_at_k", "hit_at_k", "reciprocal_rank", "dcg_at_k", "ndcg_at_k", "judged_at_k", "GAINS"]

#: The two gain conventions: ``"exp"`` (2^g - 1, the article, ranx ``ndcg_burges``) and
#: ``"linear"`` (g, trec_eval ``ndcg_cut`` and ranx ``ndcg``).
GAINS = ("exp", "linear")

Ranking = Sequence[Hashable]  # IDs, best first
Relevant = set[Hashable] | Mapping[Hashable, float]  # relevant IDs, or ID -> grade (relevant: grade > 0)
Grades = Mapping[Hashable, float]  # ID -> grade


def _top_k(ranking: Ranking, k: int) -> list[Hashable]:
    return check_ranking(ranking)[: check_k(k)]


def recall_at_k(ranking: Ranking, relevant: Relevant, k: int, *, exact: bool = False) -> float | Fraction:
    """Share of the relevant items that appear in the top ``k``.

    Recall@K = |R ∩ T_K| / |R|

    where
      - R is the set of relevant IDs (grade > 0 when a mapping is given),
      - T_K is the set of the first K IDs of the ranking.

    The denominator is |R|, not min(K, |R|) (as in trec_eval and ranx).

    >>> recall_at_k(["A", "X", "B"], {"A", "B", "C"}, 3, exact=True)
    Fraction(2, 3)

    Raises ``ValueError`` when R is empty (a no-answer question: count it apart).
    """
    top, wanted = _top_k(ranking, k), relevant_set(relevant, "recall_at_k")
    value = Fraction(sum(1 for item in top if item in wanted), len(wanted))
    return value if exact else float(value)


def hit_at_k(ranking: Ranking, relevant: Relevant, k: int, *, exact: bool = False) -> float | Fraction:
    """1 if any relevant item appears in the top ``k``, else 0.

    Hit@K = 1[ |R ∩ T_K| > 0 ]

    where
      - R is the set of relevant IDs (grade > 0 when a mapping is given),
      - T_K is the set of the first K IDs of the ranking.

    Its mean over questions is the Hit Rate; trec_eval calls it ``success``, ranx ``hit_rate``.

    >>> hit_at_k(["Y", "Z", "D"], {"D"}, 3)
    1.0
    >>> hit_at_k(["Y", "Z", "D"], {"D"}, 2, exact=True)
    Fraction(0, 1)

    Raises ``ValueError`` when R is empty (a no-answer question).
    """
    top, wanted = _top_k(ranking, k), relevant_set(relevant, "hit_at_k")
    value = Fraction(int(any(item in wanted for item in top)))
    return value if exact else float(value)


def reciprocal_rank(ranking: Ranking, relevant: Relevant, k: int, *, exact: bool = False) -> float | Fraction:
    """1 / rank of the first relevant item within the top ``k``, else 0.

    RR@K = 1 / r   if r <= K, else 0

    where
      - r is the 1-based position of the first ID of the ranking that is in R,
      - R is the set of relevant IDs (grade > 0 when a mapping is given).

    Its mean over questions is MRR@K. trec_eval's ``recip_rank`` ignores any cut-off: cut the run to K
    first to compare (ranx: ``mrr@k``).

    >>> reciprocal_rank(["Y", "Z", "D"], {"D"}, 3, exact=True)
    Fraction(1, 3)
    >>> reciprocal_rank(["Y", "Z", "D"], {"D"}, 2)
    0.0

    Raises ``ValueError`` when R is empty (a no-answer question).
    """
    top, wanted = _top_k(ranking, k), relevant_set(relevant, "reciprocal_rank")
    for position, item in enumerate(top, start=1):
        if item in wanted:
            value = Fraction(1, position)
            return value if exact else float(value)
    return Fraction(0) if exact else 0.0


_LN2 = math.log(2.0)


def _gain_function(gain: str):
    if gain == "exp":
        # Below 1, 2.0**g - 1 loses digits (and is 0 for g < 1e-16, which would make a relevant item
        # worthless): expm1(g ln 2) keeps them. From 1 up, 2.0**g - 1 is exact for whole grades.
        return lambda grade: 2.0**grade - 1.0 if grade >= 1 else math.expm1(grade * _LN2)
    if gain == "linear":
        return float
    raise ValueError(
        f"gain must be 'exp' (2^g - 1, the article's and ranx's ndcg_burges) or 'linear' (g, trec_eval's "
        f"ndcg_cut and ranx's ndcg), got {gain!r}"
    )


def _dcg(grades: list[float], to_gain) -> float:
    """Σ gain(g_i) / log2(i + 1) over the grades in rank order."""
    return math.fsum(to_gain(grade) / math.log2(position + 1) for position, grade in enumerate(grades, 1))


def dcg_at_k(ranking: Ranking, grades: Grades, k: int, gain: str = "exp") -> float:
    """Discounted cumulative gain of the top ``k``.

    DCG@K = Σ_{i=1..K} gain(rel_i) / log2(i + 1)

    where
      - rel_i is the grade of the ID at position i (0 when it is not labelled),
      - gain(g) = 2^g - 1 for ``gain="exp"`` (the article; ranx's ``ndcg_burges``), g for
        ``gain="linear"`` (trec_eval's ``ndcg_cut``, ranx's ``ndcg``).

    >>> dcg_at_k(["A", "X", "B"], {"A": 2, "B": 1, "C": 2, "X": 0}, 3)
    3.5

    Raises ``ValueError`` for a negative or NaN grade or an unknown ``gain``.
    """
    top, checked = _top_k(ranking, k), check_grades(grades)
    return _dcg([checked.get(item, 0) for item in top], _gain_function(gain))


def ideal_dcg_at_k(grades: Grades, k: int, gain: str = "exp") -> float:
    """DCG of the ideal ordering of all labelled grades (IDCG), never of the retrieved list.

    IDCG@K = Σ_{i=1..K} gain(g_(i)) / log2(i + 1)

    where g_(1) >= g_(2) >= ... are all labelled grades of the question, sorted descending.

    >>> round(ideal_dcg_at_k({"A": 2, "B": 1, "C": 2, "X": 0}, 3), 3)
    5.393
    """
    ordered = sorted(check_grades(grades).values(), reverse=True)
    return _dcg(ordered[: check_k(k)], _gain_function(gain))


def ndcg_at_k(ranking: Ranking, grades: Grades, k: int, gain: str = "exp") -> float:
    """DCG@K divided by the DCG of the ideal ordering of the labels (IDCG@K).

    nDCG@K = DCG@K / IDCG@K

    where
      - DCG@K is :func:`dcg_at_k` of the ranking,
      - IDCG@K is :func:`ideal_dcg_at_k`: all labelled grades sorted descending, cut to K.

    >>> round(ndcg_at_k(["A", "X", "B"], {"A": 2, "B": 1, "C": 2, "X": 0}, 3), 3)
    0.649
    >>> ndcg_at_k(["A", "C", "B"], {"A": 2, "B": 1, "C": 2}, 3)
    1.0

    Raises ``ValueError`` when IDCG@K is 0 (no labelled grade above 0): nDCG is undefined there, and
    :func:`ragmath.evaluate` lists such questions apart instead of scoring them.
    """
    dcg, ideal = dcg_at_k(ranking, grades, k, gain), ideal_dcg_at_k(grades, k, gain)
    if ideal == 0:
        raise ValueError(
            "ndcg_at_k: IDCG is 0 because no labelled item has a grade above 0, so nDCG is undefined "
            "(0/0). Treat the question as a no-answer question and list it apart; evaluate() does"
        )
    return dcg / ideal


def judged_at_k(ranking: Ranking, grades: Grades, k: int, *, exact: bool = False) -> float | Fraction:
    """Share of the top ``k`` that carries a label (any grade, 0 included), over ``k``.

    Judged@K = |L ∩ T_K| / K

    where
      - L is the set of labelled IDs of the question (every grade, 0 included),
      - T_K is the set of the first K IDs of the ranking; the divisor is K even for a shorter ranking.

    It measures the labels, not the retrieval: a low value says this ranking's other scores rest on
    items nobody judged (label its pool). Defined for a no-answer question too, so its mean runs over
    every labelled question in the run. ir_measures: ``Judged@k``; trec_eval and ranx have none.

    >>> judged_at_k(["a", "x", "b"], {"a": 2, "b": 0}, 4)
    0.5
    >>> judged_at_k(["x", "y"], {"b": 0}, 2, exact=True)
    Fraction(0, 1)

    Raises ``ValueError`` for a negative or NaN grade.
    """
    top, labelled = _top_k(ranking, k), check_grades(grades)
    value = Fraction(sum(1 for item in top if item in labelled), k)
    return value if exact else float(value)
