"""ragmath: countable retrieval quality for RAG (the core: ``pip install ragmath``).

Per-question definitions (``recall_at_k``, ``hit_at_k``, ``reciprocal_rank``, ``dcg_at_k``, ``ndcg_at_k``,
``judged_at_k``; ``rrf`` for one question), whole runs (``evaluate``, ``fuse_runs``), evaluation units
(``units``), honest statistics (``wilson_interval``, ``bootstrap_interval``, ``paired_bootstrap``,
``grouped_split``), versions compared on the same questions (``compare``, :mod:`ragmath.comparison`), a
sealed holdout (:mod:`ragmath.seal`), the tie rule (``ragmath.ranking``), the metric registry
(``METRICS``: ``ragmath.registry``), the file formats (``ragmath.io``), the vectorised engine
(``ragmath.engine``) and the command line (``python -m ragmath``). The core needs numpy, pandas and polars
alone.

The workbook lives in sub-packages that import the core and that the core never imports (both need the
``[lab]`` extra): ``ragmath.lab``, the toy pipeline (corpus, tokenize, index, retrieval, rerank, generate,
ablation, holdout, readings), and ``ragmath.lab.notebook``, the notebooks' helpers (widgets, plotting,
diagram, selfcheck, exercises). Their 0.1 import paths (``ragmath.corpus``, ``ragmath.widgets``, ...)
are gone since 0.3.0: import them from ``ragmath.lab`` and ``ragmath.lab.notebook``.
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
    "METRICS",
    "Comparison",
    "Evaluation",
    "bootstrap_interval",
    "compare",
    "dcg_at_k",
    "evaluate",
    "fuse_runs",
    "grouped_split",
    "hit_at_k",
    "judged_at_k",
    "ndcg_at_k",
    "paired_bootstrap",
    "recall_at_k",
    "reciprocal_rank",
    "rrf",
    "units",
    "wilson_interval",
]
