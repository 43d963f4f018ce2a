"""Exercises for notebook 01 (the unit of evaluation); expected values computed by ragmath on the corpus."""

from __future__ import annotations

from ragmath import hit_at_k, recall_at_k, units
from ragmath.lab.corpus import load_corpus, load_questions, qrels_for
from ragmath.lab.notebook.exercises import register
from ragmath.lab.workbook import BM25Retriever, in_index, permission_filter

# 01.1 — Recall@3 at clause level for Q07 (its chunk labels lifted to clauses).
EX1_QUESTION = "Q07"
EX1_RUN = ("TRV26-4.2-a", "TRV26-4.2-b", "TRV26-4.3", "TRV26-7.4", "TRV26-5.3")

# 01.2 — number of distinct documents among the top 5 chunks.
EX2_RUN = ("XBR26-3", "XBR26-5", "TRV26-8.1", "XBR26-6", "TRV26-7.1", "LEV24-10")

# 01.3 — how many chunks of travel-policy clause 4.2 (any edition) a "published" index holds on this date.
EX3_AS_OF = "2025-12-15"
EX3_CLAUSE_SUFFIX = "§4.2"

# 01.4 — the top 3 after filtering an unfiltered run for a P6 employee.
EX4_IDENTITY = "p6_employee"
EX4_RUN = ("APR26-1", "APR26-2", "TRV26-7.4", "INV-127", "LEV24-9", "PRC25-2")

# 01.5 — predict, then run: Q21 retrieved by BM25 from a live index built before 2026, Hit@3 on the labels.
EX5_QUESTION = "Q21"
EX5_AS_OF = "2025-12-15"
EX5_DEPTH = 5

# 01.6 — change the data: one more clause labelled for Q07, the run scored at clause level.
EX6_RUN = ("TRV26-4.2-b", "TRV26-4.2-a", "TRV25-4.2-a", "TRV26-4.3", "TRV26-7.4", "ATT25-6")
EX6_EXTRA_LABEL = {"TRV26-4.1": 1}


def _ex1():
    ranking, grades = units.at_level(
        list(EX1_RUN), qrels_for([EX1_QUESTION])[EX1_QUESTION], "clause", load_corpus()
    )
    return recall_at_k(ranking, grades, 3, exact=True)


def _ex2() -> int:
    return len(units.to_level(list(EX2_RUN[:5]), "document", load_corpus()))


def _ex3() -> int:
    corpus = load_corpus()
    index = corpus[in_index(corpus, EX3_AS_OF, "published")]
    travel = index["doc_id"].str.startswith("TRV") & index["clause_id"].str.endswith(EX3_CLAUSE_SUFFIX)
    return int(travel.sum())


def _ex4() -> set[str]:
    return set(list(permission_filter(list(EX4_RUN), EX4_IDENTITY))[:3])


def _ex5() -> int:
    corpus = load_corpus()
    index = corpus[in_index(corpus, EX5_AS_OF, "live")]
    question = load_questions().set_index("question_id").loc[EX5_QUESTION, "text"]
    ranking = [chunk for chunk, _ in BM25Retriever(index).retrieve(question, EX5_DEPTH)]
    return hit_at_k(ranking, qrels_for([EX5_QUESTION])[EX5_QUESTION], 3, exact=True)


def _ex6():
    labels = {**qrels_for(["Q07"])["Q07"], **EX6_EXTRA_LABEL}
    ranking, grades = units.at_level(list(EX6_RUN), labels, "clause", load_corpus())
    return recall_at_k(ranking, grades, 3, exact=True)


register("01.1", _ex1, decimals=2)
register("01.2", _ex2, kind="exact")
register("01.3", _ex3, kind="exact")
register("01.4", _ex4, kind="set")
register("01.5", _ex5, kind="exact")
register("01.6", _ex6, decimals=2)
