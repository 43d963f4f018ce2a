"""Exercises for notebook 08 (your own system); every expected value is computed by ragmath on data.

The notebook's path is recomputed here from the files a reader has: the dev questions
(``load_dataset()``), the workbook's versions recorded as run files, the prepared judgements.
"""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

from ragmath import compare, grouped_split
from ragmath.comparison import plan_questions, pool
from ragmath.io import read_qrels, read_run
from ragmath.lab.notebook.exercises import register
from ragmath.lab.notebook.own_system import (
    OWN_SPLIT,
    POOL_DEPTH,
    PREPARED_JUDGEMENTS,
    VERSIONS,
    labels_within,
    question_records,
    record_versions,
)
from ragmath.lab.notebook.record import record

PREPARED = PREPARED_JUDGEMENTS

# 08.1 — predict, then run: label only C's pool; C − A on nDCG@5 under those labels.
EX1_POOL, EX1_METRIC = ("C",), "nDCG@5"
# 08.2 — change the pipeline: the pool at depth 5 instead of 10, items to label.
EX2_DEPTH = 5
# 08.3 — a version that raises for every question the finance officer asks: rows with an error.
EX3_IDENTITY = "finance_officer"
# 08.4 — plan: questions to detect d = 0.03 on nDCG@5 at 80 % power from the C − A pilot.
EX4_D, EX4_VERSION, EX4_METRIC = 0.03, "C", "nDCG@5"


@functools.cache
def _setup():
    """The working questions, the four recorded runs and the labels (prepared), as the notebook has them."""
    from ragmath.lab.corpus import load_dataset

    ds = load_dataset()
    q = ds.questions
    working, _ = grouped_split(list(q["question_id"]), dict(zip(q["question_id"], q["group"], strict=True)),
                               **OWN_SPLIT)
    folder = Path(tempfile.mkdtemp(prefix="nb08-"))
    record_versions(ds, working, folder)
    runs = {name: read_run(folder / f"{name}.trec") for name in VERSIONS}
    return ds, working, runs, read_qrels(PREPARED)


def _ex1() -> float:
    _, _, runs, labels = _setup()
    only = labels_within(labels, pool({v: runs[v] for v in EX1_POOL}, POOL_DEPTH))
    result = compare(runs, only, [EX1_METRIC], baseline="A", n_resamples=1_000)
    return float(result.comparisons.set_index("system").loc["C", "diff"])


def _ex2() -> int:
    _, _, runs, _ = _setup()
    return len(pool(runs, EX2_DEPTH))


def _ex3() -> int:
    from ragmath.lab.notebook.own_system import workbook_systems

    ds, working, _, _ = _setup()
    version_a = workbook_systems(ds)["A"]

    def broken(question: dict) -> list:
        if question["identity"] == EX3_IDENTITY:
            raise RuntimeError("permission service unavailable")
        return version_a(question)

    records = question_records(ds)
    with tempfile.TemporaryDirectory() as folder:
        table = record(broken, {q: records[q] for q in working}, Path(folder) / "broken.trec")
    return int((table["error"] != "").sum())


def _ex4() -> int:
    _, _, runs, labels = _setup()
    result = compare(runs, labels, [EX4_METRIC], baseline="A", n_resamples=1_000)
    diffs = result.per_question[EX4_VERSION][EX4_METRIC] - result.per_question["A"][EX4_METRIC]
    return plan_questions(diffs.to_numpy(), EX4_D)


register("08.1", _ex1, kind="close", decimals=3)
register("08.2", _ex2, kind="exact")
register("08.3", _ex3, kind="exact")
register("08.4", _ex4, kind="exact")
