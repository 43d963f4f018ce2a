"""ragmath: countable retrieval quality for RAG.

Per-question metrics (``recall_at_k``, ``hit_at_k``, ``reciprocal_rank``, ``dcg_at_k``, ``ndcg_at_k``),
whole-run evaluation (``evaluate``), Reciprocal Rank Fusion (``rrf`` for one question, ``fuse_runs`` for
whole runs), the tie rule (``ragmath.ranking``), the vectorised engine behind ``evaluate`` and
``fuse_runs`` for large inputs (``ragmath.engine``), evaluation units (``units``) and honest
statistics (``wilson_interval``, ``bootstrap_interval``, ``paired_bootstrap``, ``grouped_split``).
File formats: ``ragmath.io``; the command line: ``python -m ragmath``; the workbook's corpus and
pipeline: ``ragmath.corpus``, ``ragmath.index``, ``ragmath.retrieval``, ``ragmath.rerank``,
``ragmath.generate``, ``ragmath.ablation``, the sealed holdout (``ragmath.holdout``) and the tables read
aloud (``ragmath.readings``); the RRF k explorer: ``ragmath.widgets``; charts and diagrams:
``ragmath.plotting`` (Chinese labels), ``ragmath.diagram`` (the two-stage pipeline).
"""

from ragmath import units
from ragmath.evaluation import Evaluation, evaluate
from ragmath.fusion import rrf
from ragmath.metrics import dcg_at_k, hit_at_k, ndcg_at_k, recall_at_k, reciprocal_rank
from ragmath.run_fusion import fuse_runs
from ragmath.stats import bootstrap_interval, grouped_split, paired_bootstrap, wilson_interval

__version__ = "0.1.0"

#: The metrics ``evaluate`` understands, by their ``Name@K`` name, with the per-question function.
METRICS = {
    "Recall@K": recall_at_k,
    "Hit@K": hit_at_k,
    "MRR@K": reciprocal_rank,
    "nDCG@K": ndcg_at_k,
}

__all__ = [
    "METRICS",
    "Evaluation",
    "bootstrap_interval",
    "dcg_at_k",
    "evaluate",
    "fuse_runs",
    "grouped_split",
    "hit_at_k",
    "ndcg_at_k",
    "paired_bootstrap",
    "recall_at_k",
    "reciprocal_rank",
    "rrf",
    "units",
    "wilson_interval",
]
