"""Retrieval metrics, each written once, next to its formula, over a questions × depth grade matrix.

A :class:`Grades` holds, for every question, the grade of the item at each position of its ranking
(``nan`` where the item carries no label or the ranking has ended) and its labelled grades in the
ideal order. Each metric below is one numpy expression over it, computed for all questions at once:
``recall_at_k(ranking, relevant, k)`` builds a one-row matrix, :func:`ragmath.evaluate` one row per
question of a whole run, and both run the same lines.

Rational metrics return integer numerators and denominators (a :data:`Ratio`); the caller divides
them into floats, or into ``fractions.Fraction`` with ``exact=True``. The cut-off ``k`` counts
positions as given: dedupe to the evaluation unit and apply the permission filter *before* scoring
(:mod:`ragmath.units`). Names in trec_eval and ranx: :data:`ragmath.registry.METRICS`.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ragmath.validation import check_grades, check_k, check_ranking, relevant_set

__all__ = [
    "Grades", "Ratio", "GAINS",
    "recall", "hit", "reciprocal_ranks", "dcg", "ideal_dcg", "ndcg", "judged",
    "as_numbers", "recall_at_k", "hit_at_k", "reciprocal_rank", "dcg_at_k", "ideal_dcg_at_k", "ndcg_at_k",
    "judged_at_k",
]

#: The two gain conventions: ``"exp"`` (2^g - 1, the article, ranx ``ndcg_burges``) and
#: ``"linear"`` (g, trec_eval ``ndcg_cut`` and ranx ``ndcg``).
GAINS = ("exp", "linear")

#: A rational metric per question: (numerators, denominators), integer arrays of one length.
Ratio = tuple[np.ndarray, np.ndarray]

Ranking = Sequence[Hashable]  # IDs, best first
Relevant = set[Hashable] | Mapping[Hashable, float]  # relevant IDs, or ID -> grade (relevant: grade > 0)


@dataclass(frozen=True)
class Grades:
    """The labels of ranked lists, one row per question.

    - ``ranked[q, i]``: the grade of question q's item at position i + 1; ``nan`` where that item has
      no label or the ranking is shorter (both count as not relevant and not judged),
    - ``ideal[q, i]``: q's labelled grades above 0, sorted descending, then 0,
    - ``n_relevant[q]``: how many labelled grades of q are above 0 (|R|).
    """

    ranked: np.ndarray
    ideal: np.ndarray
    n_relevant: np.ndarray

    @classmethod
    def of(cls, ranking: Ranking, labels: Mapping[Hashable, float], depth: int) -> Grades:
        """The one-row matrix of one ranking (its first ``depth`` IDs) against one question's labels.

        >>> Grades.of(["A", "X", "B"], {"A": 2, "B": 1, "C": 2}, 3).ranked.tolist()
        [[2.0, nan, 1.0]]
        """
        top = ranking[:depth]
        ranked = np.full((1, depth), np.nan)
        ranked[0, : len(top)] = [labels.get(item, np.nan) for item in top]
        relevant = sorted((grade for grade in labels.values() if grade > 0), reverse=True)
        ideal = np.zeros((1, depth))
        ideal[0, : min(len(relevant), depth)] = relevant[:depth]
        return cls(ranked, ideal, np.array([len(relevant)], dtype=np.int64))


def recall(grades: Grades, k: int) -> Ratio:
    """Recall@K: the share of the relevant items that appear in the top K.

    Recall@K = |R ∩ T_K| / |R|

    where
      - R is the set of relevant IDs (grade > 0),
      - T_K is the set of the first K IDs of the ranking.

    The denominator is |R|, not min(K, |R|) (as in trec_eval and ranx).
    """
    return (grades.ranked[:, :k] > 0).sum(axis=1), grades.n_relevant


def hit(grades: Grades, k: int) -> Ratio:
    """Hit@K: 1 if any relevant item appears in the top K, else 0.

    Hit@K = 1[ |R ∩ T_K| > 0 ]

    where R and T_K are as in :func:`recall`. Its mean is the Hit Rate (trec_eval ``success``, ranx
    ``hit_rate``).
    """
    found = (grades.ranked[:, :k] > 0).any(axis=1).astype(np.int64)
    return found, np.ones_like(found)


def reciprocal_ranks(grades: Grades, k: int) -> Ratio:
    """Reciprocal rank at K, per question: 1 / the rank of the first relevant item within the top K, else 0.

    RR@K = 1 / r   if r <= K, else 0

    where r is the 1-based position of the first ID of the ranking with grade > 0. Its mean is MRR@K.
    """
    relevant = grades.ranked[:, :k] > 0
    found = relevant.any(axis=1)
    return found.astype(np.int64), np.where(found, relevant.argmax(axis=1) + 1, 1)


def _gain(values: np.ndarray, gain: str) -> np.ndarray:
    if gain == "linear":
        return values
    if gain == "exp":
        # Below 1, 2.0**g - 1 loses digits (and is 0 for g < 1e-16, which would make a relevant item
        # worthless): expm1(g ln 2) keeps them. From 1 up, 2.0**g - 1 is exact for whole grades.
        with np.errstate(over="ignore"):
            return np.where(values >= 1, 2.0**values - 1.0, np.expm1(values * math.log(2.0)))
    raise ValueError(
        f"gain must be 'exp' (2^g - 1, the article's and ranx's ndcg_burges) or 'linear' (g, trec_eval's "
        f"ndcg_cut and ranx's ndcg), got {gain!r}"
    )


def _discounted_sum(values: np.ndarray, gain: str) -> np.ndarray:
    """Σ_i gain(g_i) / log2(i + 1) along each row (``nan``, no label, gains 0)."""
    positions = np.arange(1, values.shape[1] + 1)
    return (_gain(np.nan_to_num(values), gain) / np.log2(positions + 1)).sum(axis=1)


def dcg(grades: Grades, k: int, gain: str = "exp") -> np.ndarray:
    """DCG@K: the discounted cumulative gain of the top K.

    DCG@K = Σ_{i=1..K} gain(rel_i) / log2(i + 1)

    where
      - rel_i is the grade of the ID at position i (0 when it is not labelled),
      - gain(g) = 2^g - 1 for ``gain="exp"`` (the article; ranx's ``ndcg_burges``), g for
        ``gain="linear"`` (trec_eval's ``ndcg_cut``, ranx's ``ndcg``).
    """
    return _discounted_sum(grades.ranked[:, :k], gain)


def ideal_dcg(grades: Grades, k: int, gain: str = "exp") -> np.ndarray:
    """IDCG@K: the DCG of the ideal ordering of all labelled grades, never of the retrieved list.

    IDCG@K = Σ_{i=1..K} gain(g_(i)) / log2(i + 1)

    where g_(1) >= g_(2) >= ... are all labelled grades of the question, sorted descending.
    """
    return _discounted_sum(grades.ideal[:, :k], gain)


def ndcg(grades: Grades, k: int, gain: str = "exp") -> np.ndarray:
    """nDCG@K: DCG@K divided by IDCG@K; ``nan`` where IDCG@K is 0 (no grade above 0: undefined).

    nDCG@K = DCG@K / IDCG@K

    where DCG@K is :func:`dcg` and IDCG@K is :func:`ideal_dcg`.
    """
    ideal = ideal_dcg(grades, k, gain)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(ideal > 0, dcg(grades, k, gain) / ideal, np.nan)


def judged(grades: Grades, k: int) -> Ratio:
    """Judged@K: the share of the top K that carries a label (any grade, 0 included), over K.

    Judged@K = |L ∩ T_K| / K

    where
      - L is the set of labelled IDs of the question (every grade, 0 included),
      - T_K is the set of the first K IDs of the ranking; the divisor is K even for a shorter ranking.

    It measures the labels, not the retrieval: a low value says the other scores rest on items nobody
    judged (label the pool). ir_measures: ``Judged@k``; trec_eval and ranx have none.
    """
    count = (~np.isnan(grades.ranked[:, :k])).sum(axis=1)
    return count, np.full_like(count, k)


def as_numbers(ratio: Ratio, exact: bool = False) -> np.ndarray:
    """A :data:`Ratio` as floats, or as ``fractions.Fraction`` objects with ``exact=True``; ``nan`` where
    the denominator is 0 (Recall of a question with nothing relevant: undefined).

    >>> as_numbers((np.array([2, 0]), np.array([3, 0])), exact=True).tolist()
    [Fraction(2, 3), nan]
    """
    numerator, denominator = ratio
    if exact:
        pairs = zip(numerator.tolist(), denominator.tolist(), strict=True)
        return np.array([Fraction(n, d) if d else math.nan for n, d in pairs], dtype=object)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denominator > 0, numerator / denominator, np.nan)


def _first(ratio: Ratio, exact: bool) -> float | Fraction:
    return as_numbers(ratio, exact).tolist()[0]


def _one(ranking: Ranking, labels: Mapping[Hashable, float], k: int) -> Grades:
    return Grades.of(check_ranking(ranking), labels, check_k(k))


def recall_at_k(ranking: Ranking, relevant: Relevant, k: int, *, exact: bool = False) -> float | Fraction:
    """Recall@K of one ranking (:func:`recall`): relevant items in the top ``k`` / all relevant items.

    ``relevant`` is a set of IDs or a mapping ID -> grade (relevant: grade > 0).

    >>> recall_at_k(["A", "X", "B"], {"A", "B", "C"}, 3, exact=True)
    Fraction(2, 3)

    Raises ``ValueError`` when nothing is relevant (a no-answer question: count it apart), for a
    ranking repeating an ID or ``k`` < 1; ``TypeError`` for a string ranking or a non-int ``k``.
    """
    grades = _one(ranking, _relevance(relevant, "recall_at_k"), k)
    return _first(recall(grades, k), exact)


def hit_at_k(ranking: Ranking, relevant: Relevant, k: int, *, exact: bool = False) -> float | Fraction:
    """Hit@K of one ranking (:func:`hit`): 1 if any relevant item is in the top ``k``, else 0.

    >>> hit_at_k(["Y", "Z", "D"], {"D"}, 3)
    1.0
    >>> hit_at_k(["Y", "Z", "D"], {"D"}, 2, exact=True)
    Fraction(0, 1)

    Raises as :func:`recall_at_k`.
    """
    grades = _one(ranking, _relevance(relevant, "hit_at_k"), k)
    return _first(hit(grades, k), exact)


def reciprocal_rank(ranking: Ranking, relevant: Relevant, k: int, *, exact: bool = False) -> float | Fraction:
    """Reciprocal rank at ``k`` of one ranking (:func:`reciprocal_ranks`); its mean is MRR@K.

    trec_eval's ``recip_rank`` ignores any cut-off: cut the run to K first to compare (ranx: ``mrr@k``).

    >>> reciprocal_rank(["Y", "Z", "D"], {"D"}, 3, exact=True)
    Fraction(1, 3)
    >>> reciprocal_rank(["Y", "Z", "D"], {"D"}, 2)
    0.0

    Raises as :func:`recall_at_k`.
    """
    grades = _one(ranking, _relevance(relevant, "reciprocal_rank"), k)
    return _first(reciprocal_ranks(grades, k), exact)


def dcg_at_k(ranking: Ranking, grades: Mapping[Hashable, float], k: int, gain: str = "exp") -> float:
    """DCG@K of one ranking against one question's grades (:func:`dcg`).

    >>> dcg_at_k(["A", "X", "B"], {"A": 2, "B": 1, "C": 2, "X": 0}, 3)
    3.5

    Raises ``ValueError`` for a negative or NaN grade or an unknown ``gain``.
    """
    return float(dcg(_one(ranking, check_grades(grades), k), k, gain)[0])


def ideal_dcg_at_k(grades: Mapping[Hashable, float], k: int, gain: str = "exp") -> float:
    """IDCG@K of one question's grades (:func:`ideal_dcg`).

    >>> round(ideal_dcg_at_k({"A": 2, "B": 1, "C": 2, "X": 0}, 3), 3)
    5.393
    """
    return float(ideal_dcg(_one([], check_grades(grades), k), k, gain)[0])


def ndcg_at_k(ranking: Ranking, grades: Mapping[Hashable, float], k: int, gain: str = "exp") -> float:
    """nDCG@K of one ranking (:func:`ndcg`): DCG@K / IDCG@K.

    >>> round(ndcg_at_k(["A", "X", "B"], {"A": 2, "B": 1, "C": 2, "X": 0}, 3), 3)
    0.649
    >>> ndcg_at_k(["A", "C", "B"], {"A": 2, "B": 1, "C": 2}, 3)
    1.0

    Raises ``ValueError`` when IDCG@K is 0 (no labelled grade above 0): nDCG is undefined there, and
    :func:`ragmath.evaluate` lists such questions apart instead of scoring them.
    """
    value = float(ndcg(_one(ranking, check_grades(grades), k), k, gain)[0])
    if math.isnan(value):
        raise ValueError(
            "ndcg_at_k: IDCG is 0 because no labelled item has a grade above 0, so nDCG is undefined "
            "(0/0). Treat the question as a no-answer question and list it apart; evaluate() does"
        )
    return value


def judged_at_k(ranking: Ranking, grades: Mapping[Hashable, float], k: int, *,
                exact: bool = False) -> float | Fraction:
    """Judged@K of one ranking (:func:`judged`): labelled items (any grade) in the top ``k`` / ``k``.

    Defined for a no-answer question too, so its mean runs over every labelled question in the run.

    >>> judged_at_k(["a", "x", "b"], {"a": 2, "b": 0}, 4)
    0.5
    >>> judged_at_k(["x", "y"], {"b": 0}, 2, exact=True)
    Fraction(0, 1)

    Raises ``ValueError`` for a negative or NaN grade.
    """
    grades = _one(ranking, check_grades(grades), k)
    return _first(judged(grades, k), exact)


def _relevance(relevant: Relevant, function: str) -> dict[Hashable, float]:
    """The relevant IDs as ID -> grade (a set's IDs grade 1), refusing a no-answer question."""
    wanted = relevant_set(relevant, function)
    return dict(relevant) if isinstance(relevant, Mapping) else dict.fromkeys(wanted, 1)
