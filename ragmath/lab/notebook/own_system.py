"""The workbook's retrievers as "your system" for notebook 08: plain functions question -> ranked list.

A real retriever gets a question's text and the asking user's identity and returns chunk IDs with scores,
best first. :func:`workbook_systems` gives four such functions over the workbook's corpus, each built on
the permission-filtered index of the identity that asks (the filter runs before any scoring):

- ``A``: BM25 over jieba tokens; ``B``: the offline vector retriever; ``C``: RRF of A and B
  (``k``, ``window``); ``D``: BM25 over character bigrams, a version built after the labels were made.

Each function takes a question record (``{"text": ..., "identity": ...}``, see :func:`question_records`),
so ``ragmath.record.record(systems["A"], question_records(ds), path)`` records it like any system.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ragmath.lab.index import build_index
from ragmath.lab.retrieval import BM25Retriever, HybridRetriever, VectorRetriever

__all__ = ["VERSIONS", "workbook_systems", "question_records"]

#: The four versions, by name.
VERSIONS = {"A": "BM25 (jieba)", "B": "vector", "C": "RRF of A and B", "D": "BM25 (character bigrams)"}

System = Callable[[dict], list[tuple[str, float]]]


def question_records(dataset: Any) -> dict[str, dict[str, str]]:
    """Question ID -> ``{"text", "identity"}`` for every question of ``dataset`` (dev only from
    ``load_dataset()``), what :func:`workbook_systems`' functions take."""
    rows = dataset.questions[["question_id", "text", "identity"]].itertuples(index=False)
    return {qid: {"text": text, "identity": identity} for qid, text, identity in rows}


def workbook_systems(dataset: Any, *, k: float = 60, window: int = 40, depth: int = 20) -> dict[str, System]:
    """The versions A-D as functions question record -> ``[(chunk ID, score)]``, best first, top ``depth``.

    Indexes are built on first use per identity, on the dataset's snapshot date with published editions.

    >>> from ragmath.lab.corpus import load_dataset
    >>> ds = load_dataset()
    >>> systems = workbook_systems(ds)
    >>> ask = question_records(ds)["Q01"]
    >>> systems["A"](ask)[0][0], len(systems["C"](ask))
    ('TRV26-3.3', 20)

    Raises ``ValueError`` (from the index) for an identity the dataset does not know.
    """
    snapshot = build_index(dataset.corpus, as_of=dataset.config["snapshot_date"], editions="published")
    built: dict[str, dict[str, Any]] = {}

    def retrievers(identity: str) -> dict[str, Any]:
        if identity not in built:
            chunks = snapshot.for_identity(identity, dataset.identities).chunks
            bm25, vector = BM25Retriever(chunks, "jieba"), VectorRetriever(chunks)
            built[identity] = {
                "A": bm25, "B": vector, "D": BM25Retriever(chunks, "bigram"),
                "C": HybridRetriever({"bm25": bm25, "vector": vector}, k=k, window=window),
            }
        return built[identity]

    def version(name: str) -> System:
        def system(question: dict) -> list[tuple[str, float]]:
            return retrievers(question["identity"])[name].retrieve(question["text"], depth)

        system.__name__ = f"version_{name}"
        return system

    return {name: version(name) for name in VERSIONS}
