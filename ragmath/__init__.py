"""ragmath: countable retrieval quality for RAG (the core: numpy, pandas and polars alone).

Modules: metrics and fusion (the per-question definitions, RRF), evaluation, run_fusion and engine
(whole runs), units, stats, comparison, seal (a sealed holdout), ranking (the tie rule), registry
(METRICS), io (the file formats), cli (``python -m ragmath``). The workbook (``ragmath.lab``,
``ragmath.lab.notebook``; the ``[lab]`` extra) imports the core; the core never imports it.
"""

from ragmath import units
from ragmath.comparison import Comparison, compare
from ragmath.evaluation import Evaluation, evaluate
from ragmath.fusion import rrf
from ragmath.metrics import dcg_at_k, hit_at_k, judged_at_k, ndcg_at_k, recall_at_k, reciprocal_rank
from ragmath.registry import METRICS
from ragmath.run_fusion import fuse_runs
from ragmath.stats import bootstrap_interval, grouped_split, paired_bootstrap, wilson_interval

__version__ = "0.2.0"

__all__ = [
    "METRICS", "Comparison", "Evaluation", "bootstrap_interval", "compare", "dcg_at_k", "evaluate",
    "fuse_runs", "grouped_split", "hit_at_k", "judged_at_k", "ndcg_at_k", "paired_bootstrap",
    "recall_at_k", "reciprocal_rank", "rrf", "units", "wilson_interval",
]
