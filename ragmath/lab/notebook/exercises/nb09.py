"""Exercises for notebook 09 (a release gate); every expected value is computed by ragmath on data.

The exercises use the workbook's stand-in files (``MY_FILES = None``): the working questions of notebook
08's split, their runs and the prepared judgements of the pool, as notebook 09 forms them.
"""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path
from statistics import NormalDist

import numpy as np

from ragmath import grouped_split
from ragmath.comparison import pool
from ragmath.io import read_qrels
from ragmath.lab.notebook.exercises import register, register_prediction
from ragmath.lab.notebook.own_system import (
    BASELINE,
    OWN_SPLIT,
    POOL_DEPTH,
    PREPARED_JUDGEMENTS,
    labels_for,
    labels_from,
    load_own_files,
    question_groups,
    runs_for,
    workbook_files,
)
from ragmath.release_gate import gate

METRIC, MARGIN = "nDCG@10", 0.02
# 09.1 — predict, then run: -low of bm25-bigram's gate against bm25 with a 90% interval (alpha 0.1).
EX1_VERSION, EX1_ALPHA, EX1_SLACK = "bm25-bigram", 0.1, 0.02
# 09.2 — change the data: the smallest k (from 6) at which the best version passes on answerable[:k].
EX2_FIRST = 6
# 09.3 — change the pipeline: the simulation of section 5 with a look after every question.
EX3_TRIALS, EX3_START, EX3_N_MAX, EX3_SD, EX3_EVERY = 2_000, 20, 200, 0.2, 1
# 09.4 — plan: the smallest difference 100 questions detect with rrf-k60 − bm25's sd on nDCG@10.
EX4_VERSION, EX4_N = "rrf-k60", 100


@functools.cache
def _setup():
    """The working questions' runs and labels, and the answerable working questions, as 09 forms them."""
    folder = Path(tempfile.mkdtemp(prefix="nb09-"))
    mine = load_own_files(workbook_files(folder))
    working, _ = grouped_split(list(mine.questions["question_id"]), question_groups(mine.questions),
                               **OWN_SPLIT)
    labels, _ = labels_from(pool(mine.runs, POOL_DEPTH), {}, read_qrels(PREPARED_JUDGEMENTS))
    runs, work_labels = runs_for(mine.runs, working), labels_for(labels, working)
    answerable = [q for q in working if any(g > 0 for g in work_labels.get(q, {}).values())]
    return runs, work_labels, answerable


def _gate(candidate: str, **options):
    runs, labels, _ = _setup()
    return gate(runs[BASELINE], runs[candidate], labels, METRIC, MARGIN, names=(BASELINE, candidate),
                **options)


def _ex1() -> float:
    return -_gate(EX1_VERSION, alpha=EX1_ALPHA).low


def _best() -> str:
    runs, _, _ = _setup()
    others = [name for name in runs if name != BASELINE]
    return max(others, key=lambda name: _gate(name).mean_diff)


def _ex2() -> int | None:
    runs, labels, answerable = _setup()
    best = _best()
    for k in range(EX2_FIRST, len(answerable) + 1):
        few = answerable[:k]
        few_runs = runs_for(runs, few)
        if gate(few_runs[BASELINE], few_runs[best], labels_for(labels, few), METRIC, MARGIN,
                names=(BASELINE, best)).passed:
            return k
    return None


def false_stops(diffs: np.ndarray, start: int, every: int, alpha: float = 0.05) -> float:
    """The share of rows whose two-sided z test rejects at some look n = start, start + every, ...."""
    z = NormalDist().inv_cdf(1 - alpha / 2)
    looks = np.arange(start, diffs.shape[1] + 1, every)
    mean = diffs.cumsum(axis=1)[:, looks - 1] / looks
    sd = np.sqrt(((diffs ** 2).cumsum(axis=1)[:, looks - 1] - looks * mean ** 2) / (looks - 1))
    return float((np.abs(mean / (sd / np.sqrt(looks))) > z).any(axis=1).mean())


def _ex3() -> float:
    diffs = np.random.default_rng(0).normal(0, EX3_SD, size=(EX3_TRIALS, EX3_N_MAX))
    return false_stops(diffs, EX3_START, EX3_EVERY)


def _ex4() -> float:
    z = NormalDist().inv_cdf
    return (z(0.975) + z(0.8)) * _gate(EX4_VERSION).sd_diff / np.sqrt(EX4_N)


register("09.1", _ex1, decimals=3)
register_prediction("09.1", EX1_SLACK)
register("09.2", _ex2, kind="exact")
register("09.3", _ex3, decimals=2)
register("09.4", _ex4, decimals=3)
