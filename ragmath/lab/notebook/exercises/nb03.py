"""Exercises for notebook 03 (MRR); every expected value is computed by ragmath."""

from __future__ import annotations

from ragmath import evaluate, recall_at_k, reciprocal_rank
from ragmath.lab.notebook.exercises import register

#: The article's three questions (section 2 and 3), used by exercise 03.2.
ARTICLE_QRELS = {"q1": {"A": 1, "B": 1, "C": 1}, "q2": {"D": 1}, "q3": {"E": 1, "F": 1}}
ARTICLE_RUN = {"q1": ["A", "X", "B"], "q2": ["Y", "Z", "D"], "q3": ["U", "V", "W"]}

# 03.1 — reciprocal rank at K = 5, exact.
EX1_RELEVANT = frozenset({"C", "F"})
EX1_RANKING = ("X", "Y", "Z", "F", "W", "C")

# 03.2 — MRR@3 once D moves from rank 3 to rank 1 for q2.
EX2_RUN = {**ARTICLE_RUN, "q2": ["D", "Y", "Z"]}

# 03.3 — MRR@5 of a run (labels: question -> {ID: grade}, grade 1 = relevant).
EX3_QRELS = {"a": {"P": 1}, "b": {"Q": 1, "R": 1}, "c": {"S": 1}, "d": {"T": 1, "U": 1}}
EX3_RUN = {"a": ["P", "x1", "x2", "x3", "x4"], "b": ["x1", "x2", "R", "Q", "x3"],
           "c": ["x1", "x2", "x3", "x4", "x5", "S"], "d": ["x1", "U", "x2", "x3", "T"]}

# 03.4 — rankings for q1 with the same RR@3 as "A X B" but a higher Recall@3.
EX4_RELEVANT = frozenset({"A", "B", "C"})
EX4_BASELINE = ("A", "X", "B")
EX4_RANKINGS = {"r1": ("A", "B", "C"), "r2": ("X", "A", "B"), "r3": ("A", "X", "Y"), "r4": ("B", "C", "X"),
                "r5": ("C", "X", "Y")}


def _mean(run, qrels, metric: str) -> float:
    return float(evaluate(run, qrels, metrics=(metric,)).means[metric])


def _ex4() -> set[str]:
    base_rr = reciprocal_rank(list(EX4_BASELINE), EX4_RELEVANT, 3, exact=True)
    base_recall = recall_at_k(list(EX4_BASELINE), EX4_RELEVANT, 3, exact=True)
    return {
        name
        for name, ranking in EX4_RANKINGS.items()
        if reciprocal_rank(list(ranking), EX4_RELEVANT, 3, exact=True) == base_rr
        and recall_at_k(list(ranking), EX4_RELEVANT, 3, exact=True) > base_recall
    }


register("03.1", lambda: reciprocal_rank(list(EX1_RANKING), EX1_RELEVANT, 5, exact=True), decimals=2)
register("03.2", lambda: _mean(EX2_RUN, ARTICLE_QRELS, "MRR@3"), decimals=2)
register("03.3", lambda: _mean(EX3_RUN, EX3_QRELS, "MRR@5"), decimals=2)
register("03.4", _ex4, kind="set")

# 03.5 — predict, then run: the article's run with q3's list extended to 5 items, scored at K = 5.
EX5_RUN = {**ARTICLE_RUN, "q3": ["U", "V", "W", "Q", "E"]}
EX5_K = 5

register("03.5", lambda: _mean(EX5_RUN, ARTICLE_QRELS, f"MRR@{EX5_K}"), decimals=2)
