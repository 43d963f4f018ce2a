"""Row E: C with RRF replaced by the convex combination of min-max scores, α by the rule (notebook 06a).

E fuses the same two lists C fuses (each list's top W) by ``ragmath.fuse_runs`` with ``norm="min-max"``
and ``weights=[α, 1 − α]``: one change from C, no reranker. With ``AblationConfig.alpha`` None, α is
chosen on dev by the keep-the-default rule (``ragmath.lab.ablation.rule``; default ``ALPHA_DEFAULT``,
values ``ALPHA_GRID``, on E's nDCG@K; intervals by ``intervals_against_default``): for a dev question
on the dev questions of the other folds (the reranker's grouped folds), for any other question on all
dev questions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from ragmath.evaluation import evaluate
from ragmath.lab.ablation.config import ALPHA_DEFAULT, ALPHA_GRID, AblationConfig
from ragmath.lab.ablation.rule import intervals_against_default, keep_default_rule
from ragmath.lab.workbook import convex_rankings


def choose_alpha(per_question: Mapping[float, pd.Series], questions: Sequence[str], seed: int = 0) -> float:
    """The α the keep-the-default rule keeps on ``questions``: ``ALPHA_DEFAULT`` unless a value's paired
    interval against it lies wholly above 0 (then the one with the largest mean difference).

    ``per_question``: each α's per-question scores (a Series indexed by question); ``questions``: the
    ones the choice is made on (those of them scored by every α's Series).
    """
    on = {alpha: scores.loc[scores.index.isin(questions)] for alpha, scores in per_question.items()}
    return keep_default_rule(intervals_against_default(on, "α", ALPHA_DEFAULT, seed=seed))


def alphas_for(lists: Mapping[str, Mapping[str, Sequence[tuple[str, float]]]], cfg: AblationConfig,
               targets: Sequence[str], folds: Mapping[str, int],
               dev_qrels: Mapping[str, Mapping[str, int]]) -> tuple[dict[str, float], float | None]:
    """The α row E fuses each target question with, and the α chosen on all dev questions (None if set).

    ``lists``: question -> {"bm25": pairs, "vector": pairs}, for the targets and every dev question;
    ``folds``: dev question -> fold; ``dev_qrels``: the dev questions' labels as their identity sees
    them. With ``cfg.alpha`` set, every question gets it; with None, the rule decides on E's nDCG@K
    over each list's top W, E cut at M: a dev target gets the α chosen on the other folds' dev
    questions (out of fold), any other target the α chosen on all dev questions.

    Raises KeyError naming a question that has no lists.
    """
    if cfg.alpha is not None:
        return dict.fromkeys(targets, float(cfg.alpha)), None
    depth, metric, dev = cfg.rerank_depth, f"nDCG@{cfg.top_k}", list(folds)
    on_dev = {q: lists[q] for q in dev}
    scores = {}
    for alpha in ALPHA_GRID:
        fused = {q: ranking[:depth] for q, ranking in convex_rankings(on_dev, alpha, cfg.window).items()}
        scores[alpha] = evaluate(fused, dev_qrels, [metric]).per_question[metric].dropna()
    on_all_dev = choose_alpha(scores, dev, cfg.seed)
    by_fold = {fold: choose_alpha(scores, [q for q in dev if folds[q] != fold], cfg.seed)
               for fold in sorted(set(folds.values()))}
    return {q: by_fold[folds[q]] if q in folds else on_all_dev for q in targets}, on_all_dev
