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
still work in 0.2.x with a ``DeprecationWarning`` (``ragmath._moved``).
"""

from typing import Any

from ragmath import _moved

__version__ = "0.2.0"

_moved.install()  # the old import paths of the workbook's modules, for 0.2.x


def __getattr__(name: str) -> Any:
    """Import the public names on the first use of one (PEP 562), then return it.

    So ``import ragmath.fusion`` (each RRF k explorer kernel's start) loads neither polars nor the
    evaluation, while ``from ragmath import evaluate`` and ``ragmath.evaluate`` work as before.
    """
    if name not in __all__:
        raise AttributeError(f"module 'ragmath' has no attribute {name!r}")
    from ragmath import comparison, evaluation, fusion, metrics, registry, run_fusion, stats, units

    for module in (comparison, evaluation, fusion, metrics, registry, run_fusion, stats):
        globals().update((public, getattr(module, public)) for public in module.__all__ if public in __all__)
    globals()["units"] = units
    return globals()[name]


def __dir__() -> list[str]:
    """The module's names, the public ones included before their first use."""
    return sorted(set(globals()) | set(__all__))


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
