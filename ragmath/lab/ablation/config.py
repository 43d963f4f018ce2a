"""What an ablation run depends on (AblationConfig) and its fixed names. Used by notebooks 05b, 06 and 07.

``VERSIONS`` are the table's rows, ``SPLITS`` the question sets a run can score.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ragmath.lab.workbook import get_tokenizer
from ragmath.validation import check_rrf_k

VERSIONS: tuple[str, ...] = ("A", "B", "C", "D", "E", "Oracle")
SPLITS = ("dev", "holdout", "all")
#: Row B's embedders: multilingual-e5-small (stored vectors), and the character n-gram SVD of designs 1-2.
EMBEDDERS = ("e5", "char-ngram")
#: The knobs ``tune`` chooses on dev, by AblationConfig field name, with their workbook symbol.
TUNED_KNOBS = {"k": "k", "window": "W", "rerank_depth": "M"}


@dataclass(frozen=True)
class AblationConfig:
    """Everything a run depends on; recorded beside its table.

    ``snapshot_date`` None -> the data's ``config.json``; ``identity`` None -> every question is asked as
    its own identity; ``refuse_below`` None -> fitted on dev questions (out of fold on dev). ``k``: RRF's
    constant; ``window`` (W): each list's depth fed to RRF; ``rerank_depth`` (M): candidates kept per
    version and reordered by the reranker (Recall@M); ``score_fusion``: add row E (design 1 had none; a
    record without the field reads False); ``alpha`` (α): row E's weight on BM25 in α · min-max(BM25) +
    (1 − α) · min-max(vector) of each list's top W; None -> chosen on dev by the keep-the-default rule
    (notebook 06a; out of fold for dev questions, on all dev for the others). ``top_k`` (K): the cut-off
    of the retrieval metrics; ``context_k``: passages sent to the generator. ``tuned``: the knobs chosen
    on dev (``tune`` fills it), so the dev table can say which of its numbers are optimistic. ``embedder``:
    row B's vectors, ``"e5"`` (multilingual-e5-small, the stored vectors of ``data/vectors``) or
    ``"char-ngram"`` (TF-IDF over character n-grams reduced by SVD, fitted on the index: designs 1 and 2,
    so a record without the field reads ``"char-ngram"``). ``seed`` is
    recorded with the run for any randomised step a reader plugs in; the default pipeline draws no random
    numbers (exact SVD, Newton fit, stated tie rules), so its results do not depend on it.

    Raises ValueError naming the field for a non-positive depth, ``rerank_depth < top_k``, k <= 0, an
    unknown split, editions mode, tokenizer, embedder or tuned knob, or ``refuse_below`` or ``alpha``
    outside [0, 1].

    >>> AblationConfig(k=1, window=40, rerank_depth=20).rerank_depth
    20
    """

    snapshot_date: Any = None
    editions: str = "published"
    identity: str | None = None
    split: str = "dev"
    k: float = 60
    window: int = 20
    rerank_depth: int = 10
    top_k: int = 5
    context_k: int = 5
    seed: int = 0
    tokenizer: str = "jieba"
    refuse_below: float | None = None
    score_fusion: bool = False
    alpha: float | None = None
    l2: float = 1.0
    tuned: tuple[str, ...] = ()
    embedder: str = "e5"

    def __post_init__(self) -> None:
        for name in ("window", "rerank_depth", "top_k", "context_k"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive int, got {value!r}")
        if self.rerank_depth < self.top_k:
            raise ValueError(f"rerank_depth={self.rerank_depth} is smaller than top_k={self.top_k}: keep at "
                             "least top_k candidates")
        try:  # the core's check decides; the words are the workbook's
            check_rrf_k(self.k)
        except (TypeError, ValueError):
            raise ValueError(f"k must be a number > 0 (RRF constant), got {self.k!r}") from None
        if self.split not in SPLITS:
            raise ValueError(f"split must be one of {SPLITS}, got {self.split!r}")
        if self.editions not in ("live", "published"):
            raise ValueError(f"editions must be 'live' or 'published', got {self.editions!r}")
        get_tokenizer(self.tokenizer)
        if self.refuse_below is not None and not 0 <= self.refuse_below <= 1:
            raise ValueError(f"refuse_below must be in [0, 1] or None, got {self.refuse_below!r}")
        if not isinstance(self.score_fusion, bool):
            raise ValueError(f"score_fusion (add row E) must be True or False, got {self.score_fusion!r}")
        alpha = self.alpha
        if alpha is not None and (isinstance(alpha, bool) or not isinstance(alpha, (int, float))
                                  or not 0 <= alpha <= 1):
            raise ValueError("alpha (row E's weight on BM25) must be None (chosen on dev by the rule) or a "
                             f"number in [0, 1], got {self.alpha!r}")
        if self.embedder not in EMBEDDERS:
            raise ValueError(f"embedder must be one of {EMBEDDERS} (row B's vectors), got {self.embedder!r}")
        unknown = set(self.tuned) - set(TUNED_KNOBS)
        if unknown:
            raise ValueError(f"tuned names unknown knobs {sorted(unknown)}; knobs: {list(TUNED_KNOBS)}")


def versions_of(cfg: AblationConfig) -> tuple[str, ...]:
    """The rows a run of ``cfg`` has: ``VERSIONS``, without E unless ``cfg.score_fusion``.

    >>> versions_of(AblationConfig()), versions_of(AblationConfig(score_fusion=True))[4]
    (('A', 'B', 'C', 'D', 'Oracle'), 'E')
    """
    return tuple(v for v in VERSIONS if v != "E" or cfg.score_fusion)
