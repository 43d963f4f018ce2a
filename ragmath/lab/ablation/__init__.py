"""The ablation (A BM25, B vector, C RRF, D reranker, E score fusion, Oracle). Used by notebooks 05b-07.

The old module ``ragmath/lab/ablation.py``, split by what each part does; every public name it had is
importable from here as before (``from ragmath.lab.ablation import run_ablation``).

=============  ==================================================================================
config.py      ``AblationConfig`` and the fixed names (``VERSIONS``, ``SPLITS``, ``TUNED_KNOBS``)
fitting.py     the refusal threshold a run fits on dev (``RerankStage``: notebook 05b, ragmath.lab.workbook)
running.py     ``run_ablation`` and ``AblationResult``: the per-identity pipelines, per-question rows, latency
tables.py      ``summary_table``, ``by_type_table``, ``caveats_of``, ``metric_names``; tables for reading
intervals.py   ``rate_intervals``, ``bootstrap_table``, ``type_intervals``, ``paired_table``
rule.py        the keep-the-default rule: ``against_default``, ``keep_default_rule``
convex.py      row E: ``alphas_for`` (``convex_rankings``: notebook 05a, ragmath.lab.workbook)
tuning.py      ``tune``, ``grid_edges``, ``knob_against_default``, ``tokenizer_ranks``
leakage.py     ``leakage_experiment``, ``leakage_on_fixed_questions``, ``holdout_overlap``
=============  ==================================================================================
"""

from __future__ import annotations

from ragmath.lab.ablation.config import (
    ALPHA_DEFAULT,
    ALPHA_GRID,
    SPLITS,
    TUNED_KNOBS,
    VERSIONS,
    AblationConfig,
)
from ragmath.lab.ablation.convex import alphas_for
from ragmath.lab.ablation.intervals import (
    P_HOLM,
    P_SIGN_FLIP,
    bootstrap_table,
    paired_table,
    rate_intervals,
    type_intervals,
)
from ragmath.lab.ablation.leakage import (
    LEAK_GRID,
    holdout_overlap,
    leakage_experiment,
    leakage_on_fixed_questions,
)
from ragmath.lab.ablation.rule import against_default, keep_default_rule
from ragmath.lab.ablation.running import (
    AblationResult,
    IdentityPipeline,
    clear_cache,
    content_hash,
    require_dev_only,
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
from ragmath.lab.ablation.tuning import (
    ARTICLE_DEFAULTS,
    DEFAULT_GRID,
    grid_edges,
    knob_against_default,
    tokenizer_ranks,
    tune,
)
from ragmath.lab.workbook import convex_rankings, fit_refusal_threshold

__all__ = [
    "VERSIONS",
    "AblationConfig",
    "AblationResult",
    "IdentityPipeline",
    "run_ablation",
    "tune",
    "grid_edges",
    "fit_refusal_threshold",
    "leakage_experiment",
    "leakage_on_fixed_questions",
    "holdout_overlap",
    "type_intervals",
    "rate_intervals",
    "bootstrap_table",
    "paired_table",
    "P_SIGN_FLIP",
    "P_HOLM",
    "knob_against_default",
    "keep_default_rule",
    "against_default",
    "convex_rankings",
    "alphas_for",
    "ALPHA_GRID",
    "ALPHA_DEFAULT",
    "ARTICLE_DEFAULTS",
    "rerank_entries",
    "top_ranks_table",
    "readable_table",
    "tokenizer_ranks",
    "require_dev_only",
    "clear_cache",
    # public in the old module too, outside its __all__ (ragmath.lab.holdout imports some)
    "SPLITS",
    "TUNED_KNOBS",
    "content_hash",
    "metric_names",
    "caveats_of",
    "summary_table",
    "by_type_table",
    "DEFAULT_GRID",
    "LEAK_GRID",
]
