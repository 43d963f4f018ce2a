"""Exercises for notebook 05b (tools for the ablation); every expected value is computed on the data."""

from __future__ import annotations

import numpy as np

from ragmath.lab.notebook.exercises import register

# 05b.1 — predict, then run: dev questions dealt into 5 folds at random (the permutation of seed 0,
# position i -> fold i mod 5) instead of by group: how many groups end up in more than one fold?
EX1_SEED = 0
EX1_FOLDS = 5
# 05b.2 — change the data: the percentile bootstrap interval (seed 0, 10,000 resamples) of D's nDCG@5
# on the first ten answerable dev questions only: its width (high − low).
EX2_QUESTIONS = 10
# 05b.3 — the bootstrap p by hand: the share of resampled mean differences D − C (nDCG@5, paired, seed 0,
# 10,000 resamples) that are <= 0.
EX3_RESAMPLES = 10_000
# 05b.4 — the sign-flip p by hand: the exact two-sided sign-flip p of D − C (nDCG@5) on the first ten
# answerable dev questions, every sign vector of the non-zero differences tried.
EX4_QUESTIONS = 10


def _dev():
    from ragmath.lab.ablation import run_ablation
    from ragmath.lab.holdout import frozen_design

    return run_ablation(frozen_design(), answers=False)


def random_folds(questions: list[str], folds: int = EX1_FOLDS, seed: int = EX1_SEED) -> dict[str, int]:
    """Question -> fold when the questions are dealt at random: the i-th of the seed's permutation
    goes to fold i mod ``folds``.

    >>> random_folds(["q1", "q2", "q3"], folds=2, seed=0)
    {'q3': 0, 'q1': 1, 'q2': 0}
    """
    order = [questions[i] for i in np.random.default_rng(seed).permutation(len(questions))]
    return {q: i % folds for i, q in enumerate(order)}


def _ex1() -> int:
    stage = _dev().rerank_stage
    fold_of = random_folds(list(stage.dev))
    folds_per_group: dict[str, set[int]] = {}
    for q, fold in fold_of.items():
        folds_per_group.setdefault(stage.group[q], set()).add(fold)
    return sum(len(f) > 1 for f in folds_per_group.values())


def _d_ndcg():
    return _dev().evaluations["D"].per_question["nDCG@5"]


def _ex2() -> float:
    from ragmath.stats import bootstrap_interval

    _, low, high = bootstrap_interval(_d_ndcg().iloc[:EX2_QUESTIONS], n_resamples=10_000, seed=0)
    return high - low


def _ex3() -> float:
    dev = _dev()
    c = dev.evaluations["C"].per_question["nDCG@5"]
    d = dev.evaluations["D"].per_question["nDCG@5"].loc[c.index]
    diff = (d - c).to_numpy()
    picks = np.random.default_rng(0).integers(0, diff.size, size=(EX3_RESAMPLES, diff.size))
    return float(np.mean(diff[picks].mean(axis=1) <= 0))


def _ex4() -> float:
    import itertools

    dev = _dev()
    d = dev.evaluations["D"].per_question["nDCG@5"].iloc[:EX4_QUESTIONS]
    diff = (d - dev.evaluations["C"].per_question["nDCG@5"].loc[d.index]).to_numpy()
    diff = diff[diff != 0]
    signs = np.array(list(itertools.product([1, -1], repeat=diff.size)))
    return float(np.mean(np.abs(signs @ diff) >= abs(diff.sum()) - 1e-9))


register("05b.1", _ex1, kind="exact")
register("05b.2", _ex2, decimals=3)
register("05b.3", _ex3, decimals=4)
register("05b.4", _ex4, decimals=5)
