"""Score a whole run against whole labels, keeping every question that cannot be scored in sight.

A *run* maps each question to its ranked IDs (best first) or to ``{ID: score}``; a *qrels* maps each
question to ``{ID: grade}``. Questions fall into exactly one of these groups:

==============  ===============================================  ===============================
group           what it is                                       what ragmath does
==============  ===============================================  ===============================
scored          labelled with at least one grade > 0, in run     per-question metrics, in means
missing         labelled with a grade > 0, absent from the run   scored 0 everywhere, in means,
                                                                 listed in ``.missing``
no-answer       labelled, but no grade > 0                       outside every mean, listed in
                                                                 ``.no_answer``
unjudged        in the run, not labelled at all                  not scored, listed in ``.unjudged``
==============  ===============================================  ===============================

nDCG is undefined where IDCG = 0, that is where no labelled grade is above 0: under these conventions
that is exactly the no-answer group, and ``.ndcg_undefined`` lists it when an nDCG metric was asked.
trec_eval drops missing questions silently (which inflates its mean); ranx raises or scores them 0.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pandas as pd
import polars as pl

from ragmath import io
from ragmath._validation import FAST_THRESHOLD, check_engine, check_grades, check_k, check_ranking, run_rows
from ragmath.engine import evaluate_tables
from ragmath.metrics import GAINS, hit_at_k, ndcg_at_k, recall_at_k, reciprocal_rank
from ragmath.ranking import ranking_from_scores

__all__ = ["evaluate", "Evaluation", "parse_metric", "KNOWN_METRICS", "ranking_from_scores"]

#: Metric names ``evaluate`` understands, each followed by ``@K`` (case-insensitive).
KNOWN_METRICS = {"recall": "Recall", "hit": "Hit", "mrr": "MRR", "ndcg": "nDCG"}

_METRIC_PATTERN = re.compile(r"^\s*([A-Za-z]+)\s*@\s*([0-9]+)\s*$")  # ASCII digits only


def parse_metric(name: str) -> tuple[str, int]:
    """Parse ``"Name@K"`` (case-insensitive) into the canonical name and K.

    >>> parse_metric("ndcg@10")
    ('nDCG', 10)
    >>> parse_metric("Hit@3")
    ('Hit', 3)

    Raises ``ValueError`` for an unknown name or a missing/invalid K, listing the known names.
    """
    known = ", ".join(f"{canonical}@K" for canonical in KNOWN_METRICS.values())
    if not isinstance(name, str):
        raise TypeError(f"metric names are strings like 'Recall@3', got {name!r}; known: {known}")
    match = _METRIC_PATTERN.match(name)
    if not match:
        raise ValueError(f"cannot parse metric {name!r}: write Name@K, e.g. 'nDCG@10'; known: {known}")
    key, cutoff = match.group(1).lower(), int(match.group(2))
    if key not in KNOWN_METRICS:
        raise ValueError(f"unknown metric {match.group(1)!r} in {name!r}; known: {known}")
    if cutoff < 1:
        raise ValueError(f"K in {name!r} must be at least 1, e.g. '{KNOWN_METRICS[key]}@10'; known: {known}")
    return KNOWN_METRICS[key], check_k(cutoff, f"K in {name!r}")


def _run_ranking(question: Hashable, value: Any) -> list[Hashable]:
    if isinstance(value, Mapping):
        return ranking_from_scores(value, name=f"run[{question!r}]")
    return check_ranking(value, name=f"run[{question!r}]")


@dataclass(frozen=True)
class Evaluation:
    """The result of :func:`evaluate`: per-question table, means, and the questions kept apart."""

    per_question: pd.DataFrame
    means: pd.Series
    metrics: tuple[str, ...]
    gain: str
    no_answer: list = field(default_factory=list)
    missing: list = field(default_factory=list)
    unjudged: list = field(default_factory=list)
    ndcg_undefined: list = field(default_factory=list)

    @property
    def n_scored(self) -> int:
        """How many questions enter the means (missing ones included, scored 0)."""
        return len(self.per_question)

    def table(self) -> pd.DataFrame:
        """Means with the count of questions behind each, one row per metric."""
        return pd.DataFrame(
            {"mean": [float(self.means[m]) for m in self.metrics], "questions": self.n_scored},
            index=pd.Index(self.metrics, name="metric"),
        )

    def report(self) -> str:
        """A plain-text summary: means, then every group of questions kept apart, by name."""
        lines = [f"{self.n_scored} questions in the means (gain for nDCG: {self.gain})"]
        for metric in self.metrics:
            value = float(self.means[metric])
            lines.append(f"  {metric:<10} {value:.4f}" if not math.isnan(value) else f"  {metric:<10} n/a")
        groups = [
            ("missing from the run (scored 0, in the means)", self.missing),
            ("no-answer (no relevant item; outside every mean)", self.no_answer),
            ("unjudged (in the run, not labelled; not scored)", self.unjudged),
        ]
        if any(m.startswith("nDCG") for m in self.metrics):
            groups.append(("nDCG undefined (IDCG = 0; outside the nDCG mean)", self.ndcg_undefined))
        for title, members in groups:
            shown = ", ".join(map(str, members[:20])) + (" ..." if len(members) > 20 else "")
            lines.append(f"{title}: {len(members)}" + (f" [{shown}]" if members else ""))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.report()


def evaluate(
    run: Mapping[Hashable, Sequence[Hashable] | Mapping[Hashable, float]],
    qrels: Mapping[Hashable, Mapping[Hashable, float]],
    metrics: Sequence[str] = ("Recall@3", "Hit@3", "MRR@3", "nDCG@3"),
    *,
    gain: str = "exp",
    exact: bool = False,
    engine: str = "auto",
) -> Evaluation:
    """Score every labelled question of ``run`` and average, listing the questions kept apart.

    mean(M) = (1 / |Q|) Σ_{q ∈ Q} M(q)

    where
      - Q is every question labelled with at least one grade > 0 (missing ones count, scored 0),
      - M(q) is the per-question metric from :mod:`ragmath.metrics`.

    ``metrics`` are ``Name@K`` strings (case-insensitive): Recall, Hit, MRR, nDCG. ``gain`` is the nDCG
    gain (``"exp"`` = 2^g - 1, ``"linear"`` = g). With ``exact=True`` Recall, Hit and MRR columns and
    means are ``fractions.Fraction``.

    >>> result = evaluate({"q1": ["A", "X", "B"], "q2": ["Y", "Z", "D"]},
    ...                   {"q1": {"A": 1, "B": 1, "C": 1}, "q2": {"D": 1}, "q3": {"E": 0}},
    ...                   ["Recall@3", "MRR@3"], exact=True)
    >>> result.means["Recall@3"], result.means["MRR@3"]
    (Fraction(5, 6), Fraction(2, 3))
    >>> result.no_answer
    ['q3']

    ``run`` and ``qrels`` may also be DataFrames (pandas or polars) with columns question, id and
    score (or rank), and question, id, grade, or run / qrels files (TREC, CSV or JSONL; a path, a named
    pipe or ``"-"``), read as :mod:`ragmath.io` reads them.

    How it computes (same numbers either way, checked in the tests): ``engine="auto"`` loops over the
    per-question definitions of :mod:`ragmath.metrics` for a mapping of at most ``FAST_THRESHOLD``
    (question, ID) rows, and otherwise turns both inputs into tables (:func:`ragmath.io.run_table`,
    :func:`ragmath.io.read_run_head`...) for the vectorised engine, :func:`ragmath.engine.evaluate_tables`;
    files and DataFrames always take the engine. ``"reference"`` always uses the definitions,
    ``"fast"`` always the engine. ``exact=True`` always uses the definitions. In the engine IDs are
    text, so a large mapping with integer question IDs is reported with their decimal text.

    Raises ``ValueError`` for an unknown metric (listing the known ones), a duplicate ID in a ranking, a
    negative or NaN grade, an unknown gain or engine; ``TypeError`` when run or qrels is not a mapping,
    a DataFrame or a file.
    """
    check_engine(engine)
    if exact and engine == "fast":
        raise ValueError("exact=True gives Fractions, which only the definitions compute; use engine='auto'")
    run_is_file, qrels_is_file = _is_source(run), _is_source(qrels)
    frames = (pd.DataFrame, pl.DataFrame)
    if not isinstance(run, (Mapping, *frames)) and not run_is_file:
        raise TypeError(
            f"run must be a mapping question -> ranked IDs (or ID -> score), got {type(run).__name__}"
            + (f" {run!r}, which is not a file either (a run file path is also accepted)"
               if isinstance(run, str) else "")
        )
    if not isinstance(qrels, (Mapping, *frames)) and not qrels_is_file:
        raise TypeError(
            f"qrels must be a mapping question -> {{ID: grade}}, got {type(qrels).__name__}"
            + (f" {qrels!r}, which is not a file either (a qrels file path is also accepted)"
               if isinstance(qrels, str) else "")
        )
    if isinstance(metrics, str):
        metrics = [metrics]
    if gain not in GAINS:
        raise ValueError(f"gain must be one of {GAINS}, got {gain!r}")
    parsed = [parse_metric(name) for name in metrics]
    names = tuple(f"{canonical}@{cutoff}" for canonical, cutoff in parsed)
    if len(set(names)) != len(names):
        raise ValueError(f"metrics repeats a name: {list(metrics)!r}; list each metric once")
    if not names:
        raise ValueError("metrics is empty; ask for at least one, e.g. ['Recall@10']")

    tables = run_is_file or qrels_is_file or isinstance(run, frames) or isinstance(qrels, frames)
    use_engine = not exact and (
        engine == "fast" or (engine == "auto" and (tables or run_rows(run) > FAST_THRESHOLD))
    )
    if use_engine:
        # A run file is read for its top max-K only (a slice at a time): metrics at K need no more.
        depth = max(cutoff for _, cutoff in parsed)
        run_table = io.read_run_head(run, depth) if run_is_file else io.run_table(run)
        qrels_table = io.read_qrels_table(qrels) if qrels_is_file else io.qrels_table(qrels)
        return _from_engine(evaluate_tables(run_table, qrels_table, parsed, gain), names, gain)
    if run_is_file:
        run = io.read_run(run)
    elif isinstance(run, frames):
        run = io.run_mapping(io.run_table(run))
    if qrels_is_file:
        qrels = io.read_qrels(qrels)
    elif isinstance(qrels, frames):
        qrels = io.qrels_mapping(io.qrels_table(qrels))
    return _from_definitions(run, qrels, parsed, names, gain, exact)


def _from_engine(table: pl.DataFrame, names: tuple[str, ...], gain: str) -> Evaluation:
    """An :class:`Evaluation` from :func:`ragmath.engine.evaluate_tables`' per-question table."""
    def members(group: str) -> list:
        return table.filter(pl.col("group") == group)["question"].to_list()

    in_means = table.filter(pl.col("group").is_in(["scored", "missing"]))
    per_question = pd.DataFrame(
        {name: in_means[name].to_numpy() for name in names},
        index=pd.Index(in_means["question"].to_list(), name="question", dtype=object),
        columns=list(names),
    )
    no_answer = members("no_answer")
    return Evaluation(
        per_question=per_question,
        means=pd.Series({name: _mean(per_question[name], False) for name in names}, dtype=float),
        metrics=names,
        gain=gain,
        no_answer=no_answer,
        missing=members("missing"),
        unjudged=members("unjudged"),
        ndcg_undefined=list(no_answer) if any(n.startswith("nDCG") for n in names) else [],
    )


def _from_definitions(run, qrels, parsed, names, gain: str, exact: bool) -> Evaluation:
    """An :class:`Evaluation` computed question by question with :mod:`ragmath.metrics`."""
    if not isinstance(run, Mapping):
        raise TypeError(f"run must be a mapping question -> ranked IDs (or ID -> score), got {run!r}")
    if not isinstance(qrels, Mapping):
        raise TypeError(f"qrels must be a mapping question -> {{ID: grade}}, got {qrels!r}")
    labels = {question: check_grades(grades, f"qrels[{question!r}]") for question, grades in qrels.items()}
    no_answer = [q for q, grades in labels.items() if not any(g > 0 for g in grades.values())]
    no_answer_set = set(no_answer)
    unjudged = [q for q in run if q not in labels]
    missing = [q for q in labels if q not in run and q not in no_answer_set]

    rows: dict[Hashable, dict[str, Any]] = {}
    for question, grades in labels.items():
        if question in no_answer_set:
            continue
        ranking = _run_ranking(question, run[question]) if question in run else []
        rows[question] = {
            name: _score(canonical, ranking, grades, cutoff, gain, exact)
            for name, (canonical, cutoff) in zip(names, parsed, strict=True)
        }
    # Rankings of questions kept apart are still checked: a malformed run is an error wherever it is.
    for question in list(no_answer_set & set(run)) + unjudged:
        _run_ranking(question, run[question])

    per_question = pd.DataFrame.from_dict(rows, orient="index", columns=list(names))
    per_question.index.name = "question"
    means = pd.Series({name: _mean(per_question[name], exact) for name in names}, dtype=object)
    if not exact:
        means = means.astype(float)
    return Evaluation(
        per_question=per_question,
        means=means,
        metrics=names,
        gain=gain,
        no_answer=no_answer,
        missing=missing,
        unjudged=unjudged,
        ndcg_undefined=list(no_answer) if any(c == "nDCG" for c, _ in parsed) else [],
    )


def _is_source(value: Any) -> bool:
    """A path object, ``"-"`` (standard input), or a string naming an existing file or named pipe."""
    if isinstance(value, os.PathLike):
        return True
    return isinstance(value, str) and (value == "-" or os.path.exists(value))


def _score(canonical: str, ranking, grades, cutoff: int, gain: str, exact: bool):
    if canonical == "Recall":
        return recall_at_k(ranking, grades, cutoff, exact=exact)
    if canonical == "Hit":
        return hit_at_k(ranking, grades, cutoff, exact=exact)
    if canonical == "MRR":
        return reciprocal_rank(ranking, grades, cutoff, exact=exact)
    return ndcg_at_k(ranking, grades, cutoff, gain=gain)


def _mean(values: pd.Series, exact: bool):
    if len(values) == 0:
        return math.nan
    if exact and all(isinstance(v, Fraction) for v in values):
        return sum(values, Fraction(0)) / len(values)
    return math.fsum(values.to_numpy(dtype=float).tolist()) / len(values)
