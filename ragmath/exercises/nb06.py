"""Exercises for notebook 06 (the ablation); every expected value is computed by ragmath on data."""

from __future__ import annotations

import math

from ragmath.selfcheck import register
from ragmath.stats import grouped_split, wilson_interval

# 06.1 — the Wilson interval of 24 correct out of 30: the lower bound.
EX1_SUCCESSES, EX1_N = 24, 30

# 06.2 — the over-limit amount for a 95 元 fare, given clause 4.2-a of the 2026 edition.
EX2_QUESTION = "上海打车一次花了 95 元，超出标准多少？"
EX2_CHUNK = "TRV26-4.2-a"

# 06.3 — how many groups straddle dev and holdout when the questions are split one by one.
EX3_SEED = 3
EX3_HOLDOUT = 0.3

# 06.4 — the smallest n for which the Wilson interval of a 80 % rate is narrower than 0.2.
EX4_RATE = 0.8
EX4_WIDTH = 0.2


def _ex1() -> float:
    return wilson_interval(EX1_SUCCESSES, EX1_N)[0]


def _ex2() -> float:
    from ragmath.corpus import load_corpus
    from ragmath.generate import ExtractiveAnswerer

    corpus = load_corpus()
    chunk = corpus[corpus["chunk_id"] == EX2_CHUNK].to_dict("records")
    answer = ExtractiveAnswerer(refuse_below=0.0, as_of="2026-06-30")(EX2_QUESTION, chunk)
    if answer.number is None:
        raise AssertionError("exercise 06.2 data: the answerer found no amount")
    return answer.number


def ex3_split() -> tuple[list[str], list[str], dict[str, str]]:
    """The random (question-by-question) split of exercise 06.3 and each question's group."""
    import numpy as np

    from ragmath.corpus import load_questions

    questions = load_questions()
    ids = list(questions["question_id"])
    group = dict(zip(questions["question_id"], questions["group"], strict=True))
    order = [ids[i] for i in np.random.default_rng(EX3_SEED).permutation(len(ids))]
    cut = math.ceil(EX3_HOLDOUT * len(ids))
    return order[cut:], order[:cut], group


def _ex3() -> int:
    dev, hold, group = ex3_split()
    return len({group[q] for q in dev} & {group[q] for q in hold})


def _ex3_grouped() -> int:
    """The same count for ragmath.grouped_split (0 by construction), kept as a cross-check."""
    _, _, group = ex3_split()
    dev, hold = grouped_split(list(group), group, holdout=EX3_HOLDOUT, seed=EX3_SEED)
    return len({group[q] for q in dev} & {group[q] for q in hold})


def _ex4() -> int:
    n = 1
    while True:
        low, high = wilson_interval(round(EX4_RATE * n), n)
        if round(EX4_RATE * n) == EX4_RATE * n and high - low < EX4_WIDTH:
            return n
        n += 1


register(
    "06.1", _ex1, kind="close", tol=1e-3,
    hint="use wilson_interval(successes, n) and give the first of the two numbers",
)
register(
    "06.2", _ex2, kind="close", tol=1e-6,
    hint="the limit in clause 4.2-a is a number of 元 per trip; subtract it from the fare",
)
register(
    "06.3", _ex3, kind="exact",
    hint="collect the groups on each side and count the groups found on both (an int)",
)
register(
    "06.4", _ex4, kind="exact",
    hint="scan n = 5, 10, 15, ... (0.8 × n must be whole) and compare high − low with 0.2",
)
