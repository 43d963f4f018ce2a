"""Exercises for notebook 05a (normalised score fusion); every expected value is computed by ragmath."""

from __future__ import annotations

from ragmath.lab.notebook.exercises import register
from ragmath.score_fusion import fuse_scores

ARTICLE_SCORES = {"BM25": {"4.2": 12.7, "6.1": 8.3, "3.5": 6.4},
                  "vector": {"5.3": 0.83, "6.1": 0.81, "4.2": 0.79}}

# 05a.1 — the z-score of 4.2 in the BM25 list with a fourth chunk.
EX1_SCORES = {**ARTICLE_SCORES["BM25"], "7.1": 4.6}
EX1_ITEM = "4.2"

# 05a.2 — the fused order at α = 0.3 (min-max).
EX2_LISTS = ARTICLE_SCORES
EX2_WEIGHTS = [0.3, 0.7]

# 05a.3 — the smallest α (steps of 0.01) from which a leads the convex combination of section 5's lists,
# a's cosine lowered to 0.79.
EX3_LISTS = {"BM25": {"a": 20.0, "b": 6.0, "c": 5.5, "d": 5.0},
             "vector": {"b": 0.82, "c": 0.815, "a": 0.79, "d": 0.60}}

# 05a.4 — the outlier under z-score, half and half.
EX4_LISTS = {"BM25": {"9.9": 40.0, **ARTICLE_SCORES["BM25"]}, "vector": ARTICLE_SCORES["vector"]}


def _z_score() -> float:
    table = fuse_scores({"list": EX1_SCORES}, "z-score")
    return float(table.loc[table["id"] == EX1_ITEM, "fused_score"].iloc[0])


def _first_alpha_a_leads() -> float:
    leads = [step / 100 for step in range(101)
             if fuse_scores(EX3_LISTS, "min-max", weights=[step / 100, 1 - step / 100])["id"].iloc[0] == "a"]
    return leads[0]


register("05a.1", _z_score, decimals=3)
register("05a.2", lambda: fuse_scores(EX2_LISTS, "min-max", weights=EX2_WEIGHTS)["id"].tolist(), kind="exact")
register("05a.3", _first_alpha_a_leads, decimals=2)
register("05a.4", lambda: fuse_scores(EX4_LISTS, "z-score", weights=[0.5, 0.5])["id"].tolist(), kind="exact")
