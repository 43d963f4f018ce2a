"""Exercises for notebook 02 (Recall vs Hit); every expected value is computed by ragmath."""

from __future__ import annotations

from ragmath import evaluate, hit_at_k, recall_at_k
from ragmath.lab.notebook.exercises import register

# 02.1 — Recall@3 of one ranking, as an exact fraction.
EX1_RELEVANT = frozenset({"G", "H", "J", "K"})
EX1_RANKING = ("H", "Q", "K", "G")

# 02.2 — Hit Rate (mean Hit@3) of a small run (labels: question -> {ID: grade}, grade 1 = relevant).
EX2_QRELS = {"q1": {"A": 1, "B": 1, "C": 1}, "q2": {"D": 1}, "q3": {"E": 1, "F": 1}, "q4": {"G": 1}}
EX2_RUN = {"q1": ["X", "Y", "C"], "q2": ["D", "Y", "Z"], "q3": ["U", "V", "W"], "q4": ["Q", "R", "S", "G"]}

# 02.3 — smallest K at which Recall@K reaches 1 for q1 (relevant A, B, C).
EX3_RELEVANT = frozenset({"A", "B", "C"})
EX3_RANKING = ("A", "X", "B", "Y", "Z", "C", "W")

# 02.4 — mean Recall@3 with no-answer questions left out.
EX4_QRELS = {"q1": {"A": 1, "B": 1, "C": 1}, "q2": {"D": 1}, "q3": {"E": 1, "F": 1},
             "q4": {}, "q5": {"G": 0}}  # q4 and q5 have no relevant item
EX4_RUN = {"q1": ["A", "C", "B"], "q2": ["Y", "D", "Z"], "q3": ["E", "V", "W"], "q4": ["G", "H", "J"],
           "q5": ["K", "L", "M"]}


def _ex2() -> float:
    hits = [hit_at_k(EX2_RUN[q], EX2_QRELS[q], 3) for q in EX2_QRELS]
    return sum(hits) / len(hits)


def _ex3() -> int:
    ranking = list(EX3_RANKING)
    for k in range(1, len(ranking) + 1):
        if recall_at_k(ranking, EX3_RELEVANT, k, exact=True) == 1:
            return k
    raise AssertionError("exercise 02.3 data: the ranking never reaches Recall 1")


def _mean_recall(run, qrels) -> float:
    return float(evaluate(run, qrels, metrics=("Recall@3",)).means["Recall@3"])


register("02.1", lambda: recall_at_k(list(EX1_RANKING), EX1_RELEVANT, 3, exact=True), decimals=2)
register("02.2", _ex2, decimals=2)
register("02.3", _ex3, kind="exact")
register("02.4", lambda: _mean_recall(EX4_RUN, EX4_QRELS), decimals=2)


# 02.5 — predict, then run: q3's retriever finds F at rank 3 (the article's run otherwise unchanged).
ARTICLE_QRELS = {"q1": {"A": 1, "B": 1, "C": 1}, "q2": {"D": 1}, "q3": {"E": 1, "F": 1}}
ARTICLE_RUN = {"q1": ["A", "X", "B"], "q2": ["Y", "Z", "D"], "q3": ["U", "V", "W"]}
EX5_RUN = {**ARTICLE_RUN, "q3": ["U", "V", "F"]}

# 02.6 — change the data: the annotator adds the lodging clause X to q1's evidence.
EX6_QRELS = {**ARTICLE_QRELS, "q1": {**ARTICLE_QRELS["q1"], "X": 1}}

register("02.5", lambda: _mean_recall(EX5_RUN, ARTICLE_QRELS), decimals=2)
register("02.6", lambda: _mean_recall(ARTICLE_RUN, EX6_QRELS), decimals=2)
