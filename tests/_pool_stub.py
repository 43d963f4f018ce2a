"""A stand-in for the core's ``pool(runs, depth, qrels=None)`` until it lands (the ``compare`` branch).

TREC pooling: the union of every version's top ``depth``, minus what ``qrels`` already labels; one row per
(question, id) with the best rank any version gave it and the versions that put it in their top ``depth``.
Used by the labelling tests only; they switch to ``ragmath``'s own ``pool`` once main has it.
"""

from __future__ import annotations

import polars as pl


def pool(runs: dict[str, dict[str, list[str]]], depth: int, qrels=None) -> pl.DataFrame:
    labelled = {(q, i) for q, labels in (qrels or {}).items() for i in labels}
    found: dict[tuple[str, str], list] = {}
    for name, run in runs.items():
        for question, ranking in run.items():
            for rank, item in enumerate(ranking[:depth], start=1):
                if (question, item) in labelled:
                    continue
                entry = found.setdefault((question, item), [rank, []])
                entry[0] = min(entry[0], rank)
                entry[1].append(name)
    rows = sorted(found.items(), key=lambda kv: (kv[0][0], kv[1][0], kv[0][1]))
    return pl.DataFrame({
        "question": [q for (q, _), _ in rows], "id": [i for (_, i), _ in rows],
        "first rank": [r for _, (r, _) in rows], "versions": [v for _, (_, v) in rows],
    })
