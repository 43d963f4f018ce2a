"""Exercises for notebook 05 (Reciprocal Rank Fusion); every expected value is computed by ragmath."""

from __future__ import annotations

from ragmath import rrf, units
from ragmath.lab.notebook.exercises import register
from ragmath.lab.notebook.widgets import ARTICLE_LISTS, lead_changes

# 05.1 — the fused score of one item at another k.
EX1_LISTS = ARTICLE_LISTS
EX1_K = 20
EX1_ITEM = "6.1"

# 05.2 — which item leads when each list is cut to its top 2 (the recall window).
EX2_LISTS = ARTICLE_LISTS
EX2_K = 60
EX2_WINDOW = 2

# 05.3 — a third retriever joins; the fused order of all items at k = 60.
EX3_LISTS = {"BM25": ["4.2", "6.1", "3.5"], "vector": ["5.3", "6.1", "4.2"], "title": ["6.1", "3.5", "5.3"]}
EX3_K = 60

# 05.4 — the first k (scanning 1, 2, 3, ...) at which the leader changes.
EX4_LISTS = {"BM25": ["7.1", "2.4", "3.5", "6.1"], "vector": ["7.1", "5.3", "4.2", "2.2", "6.1"],
             "title": ["1.1", "4.2", "2.4", "3.5", "6.1"]}
EX4_KS = range(1, 201)

# 05.5 — two retrievers name the same clauses differently; which clause leads once IDs are aligned?
EX5_BM25 = ["TRV-6.1", "TRV-4.2", "TRV-3.5"]
EX5_VECTOR = ["chunk-0420", "chunk-0530", "chunk-0350"]
EX5_TO_CLAUSE = {"TRV-6.1": "6.1", "TRV-4.2": "4.2", "TRV-3.5": "3.5",
                 "chunk-0420": "4.2", "chunk-0530": "5.3", "chunk-0350": "3.5"}
EX5_K = 60


def _ex1() -> float:
    table = rrf(EX1_LISTS, k=EX1_K)
    return float(table.loc[table["id"] == EX1_ITEM, "rrf_score"].iloc[0])


def _leader(lists, k: int, window: int | None = None) -> str:
    return str(rrf(lists, k=k, window=window)["id"].iloc[0])


def _ex3() -> list[str]:
    return [str(i) for i in rrf(EX3_LISTS, k=EX3_K)["id"]]


def _ex4() -> int:
    changes = lead_changes(EX4_LISTS, EX4_KS)
    if not changes:
        raise AssertionError("exercise 05.4 data: the lead never changes over the scanned k")
    return changes[0].k


def _ex5() -> str:
    return _leader({"BM25": units.to_units(EX5_BM25, EX5_TO_CLAUSE),
                    "vector": units.to_units(EX5_VECTOR, EX5_TO_CLAUSE)}, EX5_K)


register("05.1", _ex1, decimals=4)
register("05.2", lambda: _leader(EX2_LISTS, EX2_K, EX2_WINDOW), kind="exact")
register("05.3", _ex3, kind="exact")
register("05.4", _ex4, kind="exact")
register("05.5", _ex5, kind="exact")

# 05.6 — predict, then run: the vector list puts 6.1 first; which chunk leads the fused list at k = 60?
EX6_LISTS = {"BM25": list(ARTICLE_LISTS["BM25"]), "vector": ["6.1", "5.3", "4.2"]}
EX6_K = 60

register("05.6", lambda: _leader(EX6_LISTS, EX6_K), kind="exact")
