"""The ablation (A BM25, B vector, C RRF, D reranker, E score fusion, Oracle). Used by notebooks 05b-07.

The rows, the tuning and the leakage measurement are written in notebooks 05b, 06a, 06b and 07: import
``run_rows``, ``RerankStage``, ``FOLDS``, ``tune``, ``leakage_experiment`` and the other names they save
from ``ragmath.lab.workbook`` (CHANGELOG.md, 0.4.0). This package runs the rows with the generator and
reads the results; every name below is importable from here (``from ragmath.lab.ablation import
run_ablation``).

=============  ==================================================================================
config.py      ``AblationConfig`` and the fixed names (``VERSIONS``, ``SPLITS``, ``TUNED_KNOBS``)
running.py     ``run_ablation``, ``AblationResult``, ``clear_cache``, ``content_hash``
tables.py      ``summary_table``, ``by_type_table``, ``caveats_of``, ``metric_names``; tables for reading
intervals.py   ``rate_intervals``, ``bootstrap_table``, ``type_intervals``, ``paired_table``
tuning.py      ``tokenizer_ranks``: the tokenizers side by side (notebook 06a)
=============  ==================================================================================
"""

from __future__ import annotations

from ragmath.lab.ablation.config import SPLITS, TUNED_KNOBS, VERSIONS, AblationConfig
from ragmath.lab.ablation.intervals import bootstrap_table, paired_table, rate_intervals, type_intervals
from ragmath.lab.ablation.running import AblationResult, clear_cache, content_hash, run_ablation
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
    "VERSIONS", "SPLITS", "TUNED_KNOBS", "AblationConfig", "AblationResult", "run_ablation", "clear_cache",
    "content_hash", "metric_names", "caveats_of", "summary_table", "by_type_table", "rerank_entries",
    "top_ranks_table", "readable_table", "type_intervals", "rate_intervals", "bootstrap_table",
    "paired_table", "tokenizer_ranks",
]
