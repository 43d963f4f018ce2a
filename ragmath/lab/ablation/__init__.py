"""The ablation (A BM25, B vector, C RRF, D reranker, E score fusion, Oracle). Used by notebooks 05b-07.

The old module ``ragmath/lab/ablation.py``, split by what each part does; every public name it had is
importable from here as before (``from ragmath.lab.ablation import run_ablation``).

=============  ==================================================================================
config.py      ``AblationConfig`` and the fixed names (``VERSIONS``, ``SPLITS``, ``TUNED_KNOBS``)
running.py     ``run_ablation`` and ``AblationResult``: the per-identity pipelines, per-question rows, latency
tables.py      ``summary_table``, ``by_type_table``, ``caveats_of``, ``metric_names``; tables for reading
intervals.py   ``rate_intervals``, ``bootstrap_table``, ``type_intervals``, ``paired_table``
tuning.py      ``tokenizer_ranks`` (the tuning: notebook 06b, ragmath.lab.workbook)
=============  ==================================================================================
"""

from __future__ import annotations

from ragmath.lab.ablation.config import (
    SPLITS,
    TUNED_KNOBS,
    VERSIONS,
    AblationConfig,
)
from ragmath.lab.ablation.intervals import (
    bootstrap_table,
    paired_table,
    rate_intervals,
    type_intervals,
)
from ragmath.lab.ablation.running import (
    AblationResult,
    clear_cache,
    content_hash,
    run_ablation,
)
from ragmath.lab.ablation.tables import (
    by_type_table,
    caveats_of,
    metric_names,
    readable_table,
    rerank_entries,
    summary_table,
    top_ranks_table,
)
from ragmath.lab.ablation.tuning import tokenizer_ranks

__all__ = [
    "VERSIONS",
    "AblationConfig",
    "AblationResult",
    "run_ablation",
    "type_intervals",
    "rate_intervals",
    "bootstrap_table",
    "paired_table",
    "rerank_entries",
    "top_ranks_table",
    "readable_table",
    "tokenizer_ranks",
    "clear_cache",
    # public in the old module too, outside its __all__ (ragmath.lab.holdout imports some)
    "SPLITS",
    "TUNED_KNOBS",
    "content_hash",
    "metric_names",
    "caveats_of",
    "summary_table",
    "by_type_table",
]
