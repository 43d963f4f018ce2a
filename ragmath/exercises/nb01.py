"""Exercises for notebook 01 (the unit of evaluation); expected values computed by ragmath on the corpus."""

from __future__ import annotations

from ragmath import recall_at_k, units
from ragmath.corpus import load_corpus, qrels_for
from ragmath.index import build_index, permission_filter
from ragmath.selfcheck import register

# 01.1 — Recall@3 at clause level for Q07 (its chunk labels lifted to clauses).
EX1_QUESTION = "Q07"
EX1_RUN = ("TRV26-4.2-a", "TRV26-4.2-b", "TRV26-4.3", "TRV26-7.4", "TRV26-5.3")

# 01.2 — number of distinct documents among the top 5 chunks.
EX2_RUN = ("XBR26-3", "XBR26-5", "TRV26-8.1", "XBR26-6", "TRV26-7.1", "LEV24-10")

# 01.3 — the clause-4.2-a chunk live on this date (the 2026 edition is published but not yet in force).
EX3_AS_OF = "2025-12-15"

# 01.4 — the top 3 after filtering an unfiltered run for a P6 employee.
EX4_IDENTITY = "p6_employee"
EX4_RUN = ("APR26-1", "APR26-2", "TRV26-7.4", "INV-127", "LEV24-9", "PRC25-2")


def _unit_map() -> units.UnitMap:
    return units.UnitMap.from_records(load_corpus().to_dict("records"))


def _ex1():
    ranking, grades = _unit_map().align(
        list(EX1_RUN), qrels_for([EX1_QUESTION])[EX1_QUESTION], level="clause"
    )
    return recall_at_k(ranking, grades, 3, exact=True)


def _ex2() -> int:
    return len(_unit_map().map(list(EX2_RUN[:5]), "document"))


def _ex3() -> str:
    corpus = load_corpus()
    snap = build_index(corpus, as_of=EX3_AS_OF, editions="live")
    clause_42a = set(
        corpus.loc[
            corpus["doc_id"].str.startswith("TRV") & corpus["chunk_id"].str.endswith("-4.2-a"),
            "chunk_id",
        ]
    )
    (chunk,) = [c for c in snap.chunk_ids if c in clause_42a]
    return chunk


def _ex4() -> set[str]:
    return set(list(permission_filter(list(EX4_RUN), EX4_IDENTITY))[:3])


register(
    "01.1",
    _ex1,
    kind="close",
    decimals=2,
    hint="map the run to clause IDs (4.2-a and 4.2-b become one clause), lift the labels, then count",
)
register(
    "01.2",
    _ex2,
    kind="exact",
    hint="map each of the first 5 chunks to its doc_id and count the different ones",
)
register(
    "01.3",
    _ex3,
    kind="exact",
    hint="'live' keeps chunks with effective_from <= date < effective_to; when does the 2026 edition start?",
)
register(
    "01.4",
    _ex4,
    kind="set",
    hint="remove every chunk the identity may not read, THEN take the first 3 (K counts after the filter)",
)
