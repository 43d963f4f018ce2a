"""ragmath: countable retrieval quality for RAG (the core: numpy, pandas and polars alone).

Modules: metrics (each metric once, for one question or a whole run), fusion (RRF), evaluation,
units, stats, comparison, seal (a sealed holdout), ranking (the tie rule), registry (METRICS), io
(the file formats), cli (``python -m ragmath``), release_gate (a release gate), agreement (of two label sets).
The workbook (``ragmath.lab``, ``ragmath.lab.notebook``; the ``[lab]`` extra) imports the core; the core
never imports it.

``import ragmath`` loads numpy alone: the names that need pandas or polars (runs and tables) are
imported on first use.
"""

from __future__ import annotations

from typing import Any

from ragmath import units
from ragmath.fusion import fuse_runs, rrf
from ragmath.metrics import dcg_at_k, hit_at_k, judged_at_k, ndcg_at_k, recall_at_k, reciprocal_rank
from ragmath.registry import METRICS

__version__ = "0.4.0"

__all__ = [
    "METRICS", "Comparison", "Evaluation", "bootstrap_interval", "compare", "dcg_at_k", "evaluate",
    "fuse_runs", "grouped_split", "hit_at_k", "judged_at_k", "ndcg_at_k", "paired_bootstrap",
    "recall_at_k", "reciprocal_rank", "rrf", "units", "wilson_interval",
    "gate", "GateResult", "label_agreement", "Agreement",
]


def __getattr__(name: str) -> Any:
    """The names whose modules load pandas or polars, imported on first use."""
    if name in ("evaluate", "Evaluation"):
        from ragmath import evaluation as module
    elif name in ("compare", "Comparison"):
        from ragmath import comparison as module
    elif name in ("bootstrap_interval", "grouped_split", "paired_bootstrap", "wilson_interval"):
        from ragmath import stats as module
    elif name in ("gate", "GateResult"):
        from ragmath import release_gate as module
    elif name in ("label_agreement", "Agreement"):
        from ragmath import agreement as module
    else:
        raise AttributeError(f"module 'ragmath' has no attribute {name!r}")
    return getattr(module, name)
