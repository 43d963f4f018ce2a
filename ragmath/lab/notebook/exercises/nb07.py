"""Exercises for notebook 07 (honest numbers); every expected value is computed by ragmath on data."""

from __future__ import annotations

import math

from ragmath.lab.notebook.exercises import register, register_prediction, row_as_read
from ragmath.stats import wilson_interval

# 07.1 — predict, then run: the Wilson interval of 30 correct out of 43, its lower bound.
EX1_SUCCESSES, EX1_N = 30, 43
# 07.2 — the smallest N for which the Wilson interval of an 80 % rate is narrower than 0.2.
EX2_RATE, EX2_WIDTH = 0.8, 0.2
# 07.3 — groups on both sides when the dev questions are split one by one at random.
EX3_SEED, EX3_HOLDOUT = 3, 0.3
# 07.4 — the memory leak at M = 10 on fixed test questions, seeds 0..9: seeds where leaky > clean.
EX4_DEPTH, EX4_SEEDS = 10, tuple(range(10))
#: A one-setting tuning grid (the frozen design's k, W, M), so the exercise runs in seconds.
EX4_GRID = {"k": (1,), "window": (40,), "rerank_depth": (5,)}


def _ex1() -> float:
    return wilson_interval(EX1_SUCCESSES, EX1_N)[0]


def _ex2() -> int:
    n = 1
    while True:
        x = EX2_RATE * n
        if x == round(x):
            low, high = wilson_interval(round(x), n)
            if high - low < EX2_WIDTH:
                return n
        n += 1


def ex3_split() -> tuple[list[str], list[str], dict[str, str]]:
    """The random (question-by-question) split of exercise 07.3 and each dev question's group."""
    import numpy as np

    from ragmath.lab.corpus import load_questions

    questions = load_questions()
    ids = list(questions["question_id"])
    group = dict(zip(questions["question_id"], questions["group"], strict=True))
    order = [ids[i] for i in np.random.default_rng(EX3_SEED).permutation(len(ids))]
    cut = math.ceil(EX3_HOLDOUT * len(ids))
    return order[cut:], order[:cut], group


def _ex3() -> int:
    dev, hold, group = ex3_split()
    return len({group[q] for q in dev} & {group[q] for q in hold})


def _ex4() -> int:
    from ragmath.lab.holdout import opened_design
    from ragmath.lab.workbook import leakage_on_fixed_questions

    leaks = leakage_on_fixed_questions(None, opened_design(1), seeds=EX4_SEEDS, grid=EX4_GRID,
                                       memory_depths=(EX4_DEPTH,))
    memory = leaks.xs(f"memory (M = {EX4_DEPTH})", level="leak")
    return int((memory["difference"] > 0).sum())


# 07.1's prediction counts as near within this much.
EX1_SLACK = 0.03
# 07.5 — read the dev paired table aloud: C − A on nDCG@5 (design 1), its interval, wins and losses.
EX5_PAIR, EX5_METRIC = ("A", "C"), "nDCG@5"


def _ex5() -> tuple:
    from ragmath.lab.ablation import paired_table, run_ablation
    from ragmath.lab.holdout import opened_design

    row = paired_table(run_ablation(opened_design(1), answers=False), [EX5_PAIR], EX5_METRIC).iloc[0]
    return row_as_read(row, "mean diff")


register("07.1", _ex1, decimals=3)
register_prediction("07.1", EX1_SLACK)
register("07.2", _ex2, kind="exact")
register("07.3", _ex3, kind="exact")
register("07.4", _ex4, kind="exact")
register("07.5", _ex5, kind="exact")
