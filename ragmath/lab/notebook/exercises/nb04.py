"""Exercises for notebook 04 (nDCG); every expected value is computed by ragmath."""

from __future__ import annotations

from ragmath import dcg_at_k, evaluate, ndcg_at_k
from ragmath.lab.notebook.exercises import register

# 04.1 / 04.2 — DCG@3 and IDCG@3 (exponential gain).
EX1_GRADES = {"P": 1, "Q": 2, "R": 0, "S": 1, "T": 1}
EX1_RANKING = ("R", "P", "Q")

# 04.3 — q1's grades, another ranking, under the linear gain.
EX3_GRADES = {"A": 2, "B": 1, "C": 2, "X": 0}
EX3_RANKING = ("B", "C", "X")

# 04.4 — weighted mean over question types (weights per type, not per question).
EX4_QRELS = {"s1": {"D": 2}, "s2": {"G": 2}, "s3": {"H": 2},
             "m1": {"A": 2, "B": 1, "C": 2}, "m2": {"E": 2, "F": 1}}
EX4_RUN = {"s1": ["D", "Y", "Z"], "s2": ["Y", "G", "Z"], "s3": ["H", "Z", "Y"], "m1": ["A", "X", "B"],
           "m2": ["U", "F", "V"]}
EX4_TYPES = {"s1": "single-hop", "s2": "single-hop", "s3": "single-hop",
             "m1": "multi-hop", "m2": "multi-hop"}
EX4_TYPE_WEIGHTS = {"single-hop": 1, "multi-hop": 2}


def _ideal(grades: dict[str, int]) -> list[str]:
    return sorted(grades, key=lambda item: (-grades[item], item))


def _ex4() -> float:
    per_q = evaluate(EX4_RUN, EX4_QRELS, metrics=("nDCG@3",)).per_question["nDCG@3"]
    type_means = per_q.groupby(per_q.index.map(EX4_TYPES)).mean()
    total_weight = sum(EX4_TYPE_WEIGHTS.values())
    return float(sum(EX4_TYPE_WEIGHTS[t] * type_means[t] for t in EX4_TYPE_WEIGHTS) / total_weight)


register("04.1", lambda: dcg_at_k(list(EX1_RANKING), EX1_GRADES, 3), decimals=3)
register("04.2", lambda: dcg_at_k(_ideal(EX1_GRADES), EX1_GRADES, 3), decimals=3)
register("04.3", lambda: ndcg_at_k(list(EX3_RANKING), EX3_GRADES, 3, gain="linear"), decimals=3)
register("04.4", _ex4, decimals=3)

# 04.5 — predict, then run: q1's run with binary labels (every piece of evidence graded 1).
EX5_GRADES = {"A": 1, "B": 1, "C": 1, "X": 0}
EX5_RANKING = ("A", "X", "B")

# 04.6 — change the pipeline: the retriever returns five items and the run is scored at K = 5.
EX6_GRADES = {"A": 2, "B": 1, "C": 2, "X": 0}
EX6_RANKING = ("A", "X", "B", "Y", "C")
EX6_K = 5

register("04.5", lambda: ndcg_at_k(list(EX5_RANKING), EX5_GRADES, 3), decimals=3)
register("04.6", lambda: ndcg_at_k(list(EX6_RANKING), EX6_GRADES, EX6_K), decimals=3)
