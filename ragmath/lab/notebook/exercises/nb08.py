"""Exercises for notebook 08 (your own system); every expected value is computed by ragmath on data.

The exercises use the workbook's stand-in files (``MY_FILES = None``): the notebook's path is recomputed
here from what a reader has there: the questions and run files :func:`workbook_files` writes, the groups
of :func:`question_groups`, the split, the pool and the prepared judgements.
"""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

from ragmath import compare, grouped_split
from ragmath.comparison import plan_questions, pool
from ragmath.io import read_qrels
from ragmath.lab.notebook.exercises import register, register_prediction, row_as_read
from ragmath.lab.notebook.own_system import (
    BASELINE,
    OWN_SPLIT,
    POOL_DEPTH,
    PREPARED_JUDGEMENTS,
    labels_for,
    labels_from,
    labels_within,
    load_own_files,
    question_groups,
    question_records,
    runs_for,
    workbook_files,
    workbook_systems,
)
from ragmath.lab.notebook.record import record

#: The notebook's split of its questions: a third of them, whole groups at a time.
SPLIT = OWN_SPLIT
METRIC = "nDCG@5"
# 08.1 — predict, then run: label only rrf-k60's pool; rrf-k60 − bm25 on nDCG@5 under those labels.
EX1_POOL, EX1_VERSION, EX1_SLACK = ("rrf-k60",), "rrf-k60", 0.03
# 08.2 — change the pipeline: the working questions' pool at depth 5 instead of 10, items to label.
EX2_DEPTH = 5
# 08.3 — bm25 raising for every question the finance officer asks: latency rows with an error.
EX3_IDENTITY = "finance_officer"
# 08.4 — plan: questions to detect d = 0.03 on nDCG@5 from the pilot (the candidate − bm25).
EX4_D = 0.03
# 08.5 — read the comparison table: rrf-k60 − bm25 on nDCG@5, its interval, wins and losses.
EX5_VERSION = "rrf-k60"


@functools.cache
def _setup():
    """The working questions, their runs and labels (prepared), and the comparison, as 08 has them."""
    folder = Path(tempfile.mkdtemp(prefix="nb08-"))
    mine = load_own_files(workbook_files(folder))
    group = question_groups(mine.questions)
    working, _ = grouped_split(list(mine.questions["question_id"]), group, **SPLIT)
    to_label = pool(mine.runs, POOL_DEPTH, qrels=mine.labels)
    labels, _ = labels_from(to_label, {}, read_qrels(PREPARED_JUDGEMENTS))
    runs, work_labels = runs_for(mine.runs, working), labels_for(labels, working)
    result = compare(runs, work_labels, ["Recall@5", METRIC], baseline=BASELINE, seed=0)
    return working, runs, work_labels, result


def _ex1() -> float:
    _, runs, labels, _ = _setup()
    only = labels_within(labels, pool({v: runs[v] for v in EX1_POOL}, POOL_DEPTH))
    result = compare(runs, only, [METRIC], baseline=BASELINE, n_resamples=1_000)
    return float(result.comparisons.set_index("system").loc[EX1_VERSION, "diff"])


def _ex2() -> int:
    _, runs, _, _ = _setup()
    return len(pool(runs, EX2_DEPTH))


def _ex3() -> int:
    from ragmath.lab.corpus import load_dataset

    working, _, _, _ = _setup()
    ds = load_dataset()
    bm25 = workbook_systems(ds)[BASELINE]

    def broken(question: dict) -> list:
        if question["identity"] == EX3_IDENTITY:
            raise RuntimeError("permission service unavailable")
        return bm25(question)

    asks = question_records(ds)
    with tempfile.TemporaryDirectory() as folder:
        table = record(broken, {q: asks[q] for q in working}, Path(folder) / "broken.trec")
    return int((table["error"] != "").sum())


def _rows_on_metric():
    """The comparison's rows on :data:`METRIC`, indexed by system."""
    _, _, _, result = _setup()
    return result.comparisons[result.comparisons["metric"] == METRIC].set_index("system")


def _candidate() -> str:
    return str(_rows_on_metric()["diff"].idxmax())


def _ex4() -> int:
    _, _, _, result = _setup()
    diffs = result.per_question[_candidate()][METRIC] - result.per_question[BASELINE][METRIC]
    return plan_questions(diffs.to_numpy(), EX4_D)


def _ex5() -> tuple:
    return row_as_read(_rows_on_metric().loc[EX5_VERSION], "diff")


register("08.1", _ex1, decimals=3)
register_prediction("08.1", EX1_SLACK)
register("08.2", _ex2, kind="exact")
register("08.3", _ex3, kind="exact")
register("08.4", _ex4, kind="exact")
register("08.5", _ex5, kind="exact")
