"""The metric registry: every metric ragmath computes, stated once.

Each :class:`Metric` holds its function over a :class:`ragmath.metrics.Grades` matrix (the one
computation, used for one question and for whole runs alike), the per-question function a reader
calls, its names in trec_eval and ranx and a one-line description. :func:`ragmath.evaluate`, the
command line and the documented table of metrics (a test compares them) all read :data:`METRICS`.
Adding a metric is adding an entry.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ragmath import metrics
from ragmath.validation import check_k

__all__ = ["METRICS", "Metric", "parse_metric", "parse_metrics", "known_names"]


@dataclass(frozen=True)
class Metric:
    """One metric: its name (used as ``Name@K``), its computation, its names elsewhere.

    ``compute(grades, k, gain)`` returns a :data:`ragmath.metrics.Ratio` when ``exact`` (a rational
    metric), else floats. ``averaged_over`` says which questions its mean runs over: ``"answerable"``
    (labelled with a grade > 0, missing ones scored 0: the retrieval metrics) or ``"labelled"``
    (every labelled question in the run, no-answer ones included: Judged@K, which measures the labels).
    """

    name: str
    compute: Callable[..., Any]
    definition: Callable[..., Any]
    trec_eval: str
    ranx: str
    description: str
    exact: bool = True
    averaged_over: str = "answerable"


#: The metrics, by lower-case name.
METRICS: dict[str, Metric] = {metric.name.lower(): metric for metric in (
    Metric("Recall", lambda grades, k, gain: metrics.recall(grades, k), metrics.recall_at_k,
           "recall_K", "recall@K",
           "relevant items in the top K / all relevant items (not / min(K, their number))"),
    Metric("Hit", lambda grades, k, gain: metrics.hit(grades, k), metrics.hit_at_k,
           "success_K", "hit_rate@K",
           "1 if any relevant item is in the top K, else 0"),
    Metric("MRR", lambda grades, k, gain: metrics.reciprocal_ranks(grades, k), metrics.reciprocal_rank,
           "recip_rank on the run cut to K", "mrr@K",
           "1 / rank of the first relevant item within the top K, else 0"),
    Metric("nDCG", metrics.ndcg, metrics.ndcg_at_k,
           "ndcg_cut_K (linear gain)", "ndcg_burges@K (exp), ndcg@K (linear)",
           "DCG of the top K / DCG of all labels in the ideal order; gain 2^g - 1 (exp) or g (linear)",
           exact=False),
    Metric("Judged", lambda grades, k, gain: metrics.judged(grades, k), metrics.judged_at_k,
           "none", "none",
           "labelled items (any grade) in the top K / K, over every labelled question in the run",
           averaged_over="labelled"),
)}

_PATTERN = re.compile(r"^\s*([A-Za-z]+)\s*@\s*([0-9]+)\s*$")  # ASCII digits only


def known_names() -> str:
    """The metric names as ``Name@K``, for messages and help texts.

    >>> known_names()
    'Recall@K, Hit@K, MRR@K, nDCG@K, Judged@K'
    """
    return ", ".join(f"{metric.name}@K" for metric in METRICS.values())


def parse_metric(name: str) -> tuple[str, int]:
    """Parse ``"Name@K"`` (case-insensitive, K in ASCII digits) into the registry's name and K.

    >>> parse_metric("ndcg@10")
    ('nDCG', 10)
    >>> parse_metric("Hit@3")
    ('Hit', 3)

    Raises ``ValueError`` for an unknown name or a missing/invalid K, listing the known names.
    """
    known = known_names()
    if not isinstance(name, str):
        raise TypeError(f"metric names are strings like 'Recall@3', got {name!r}; known: {known}")
    match = _PATTERN.match(name)
    if not match:
        raise ValueError(f"cannot parse metric {name!r}: write Name@K, e.g. 'nDCG@10'; known: {known}")
    metric = METRICS.get(match.group(1).lower())
    if metric is None:
        raise ValueError(f"unknown metric {match.group(1)!r} in {name!r}; known: {known}")
    cutoff = int(match.group(2))
    if cutoff < 1:
        raise ValueError(f"K in {name!r} must be at least 1, e.g. '{metric.name}@10'; known: {known}")
    return metric.name, check_k(cutoff, f"K in {name!r}")


def parse_metrics(names: str | Sequence[str]) -> list[tuple[str, int]]:
    """Parse a list of ``Name@K`` (or one), refusing an empty list and a repeated metric.

    >>> parse_metrics(["recall@3", "MRR@10"])
    [('Recall', 3), ('MRR', 10)]
    """
    parsed = [parse_metric(name) for name in ([names] if isinstance(names, str) else names)]
    if not parsed:
        raise ValueError("metrics is empty; ask for at least one, e.g. ['Recall@10']")
    if len(set(parsed)) != len(parsed):
        raise ValueError(f"metrics repeats a name: {list(names)!r}; list each metric once")
    return parsed
