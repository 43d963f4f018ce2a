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
import numbers
import os
import re
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pandas as pd

from ragmath._validation import FAST_THRESHOLD, check_engine, check_grades, check_ranking, run_rows
from ragmath.metrics import GAINS, hit_at_k, ndcg_at_k, recall_at_k, reciprocal_rank

__all__ = ["evaluate", "Evaluation", "parse_metric", "KNOWN_METRICS", "ranking_from_scores"]

#: Metric names ``evaluate`` understands, each followed by ``@K`` (case-insensitive).
KNOWN_METRICS = {"recall": "Recall", "hit": "Hit", "mrr": "MRR", "ndcg": "nDCG"}

_METRIC_PATTERN = re.compile(r"^\s*([A-Za-z]+)\s*@\s*(\d+)\s*$")


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
    return KNOWN_METRICS[key], cutoff


def _sort_key_for_ids(ids: Iterable[Hashable]):
    ids = list(ids)
    if all(isinstance(item, str) for item in ids):  # the common case: no trial sort needed
        return lambda item: item
    try:
        sorted(ids)
    except TypeError:
        return str
    return lambda item: item


def ranking_from_scores(scores: Mapping[Hashable, float], name: str = "scores") -> list[Hashable]:
    """Order ``{ID: score}`` best first: score descending, then ID ascending (the stated tie rule).

    >>> ranking_from_scores({"b": 0.5, "a": 0.5, "c": 0.9})
    ['c', 'a', 'b']

    trec_eval breaks ties by ID descending and ranx by its dicts' order; the rule here is stated so
    that the same table comes out on every run. Raises ``ValueError`` for a NaN score.
    """
    for item, score in scores.items():
        if isinstance(score, bool) or not isinstance(score, numbers.Real):
            raise TypeError(f"{name}[{item!r}] must be a number, got {score!r}")
        if math.isnan(float(score)):
            raise ValueError(f"{name}[{item!r}] is NaN; give every retrieved ID a real score")
    id_key = _sort_key_for_ids(scores)
    return sorted(scores, key=lambda item: (-float(scores[item]), id_key(item)))


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

    ``run`` and ``qrels`` may also be pandas DataFrames with columns question, id and score (or rank),
    and question, id, grade, or paths of run / qrels files (TREC, CSV or JSONL, read as
    :func:`ragmath.io.read_run` and :func:`ragmath.io.read_qrels` read them). ``engine="auto"`` computes
    with the vectorised path in :mod:`ragmath._fast` when the run has more than ``FAST_THRESHOLD`` rows
    or is a file (same numbers, same
    errors: anything unusual defers to the reference), ``"reference"`` always loops over the
    per-question functions of :mod:`ragmath.metrics` (the definitions), ``"fast"`` forces the
    vectorised path where it applies. ``exact=True`` always uses the reference.

    Raises ``ValueError`` for an unknown metric (listing the known ones), a duplicate ID in a ranking, a
    negative or NaN grade, an unknown gain or engine; ``TypeError`` when run or qrels is not a mapping.
    """
    check_engine(engine)
    if exact and engine == "fast":
        raise ValueError("exact=True gives Fractions, which only the reference computes; use engine='auto'")
    run_is_path = _is_file(run)
    qrels_is_path = _is_file(qrels)
    if not isinstance(run, (Mapping, pd.DataFrame)) and not run_is_path:
        raise TypeError(
            f"run must be a mapping question -> ranked IDs (or ID -> score), got {type(run).__name__}"
            + (f" {run!r}, which is not a file either (a run file path is also accepted)"
               if isinstance(run, str) else "")
        )
    if not isinstance(qrels, (Mapping, pd.DataFrame)) and not qrels_is_path:
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

    use_fast = engine == "fast" or (
        engine == "auto" and not exact and (run_is_path or run_rows(run) > FAST_THRESHOLD)
    )
    if use_fast:
        from ragmath import _fast

        flat_run = _fast.read_run_flat(run) if run_is_path else _fast.prepare_run(run)
        flat_qrels = None
        if flat_run is not None:
            flat_qrels = _fast.read_qrels_flat(qrels) if qrels_is_path else _fast.prepare_qrels(qrels)
        if flat_run is not None and flat_qrels is not None:
            fast = _fast.evaluate_flat(flat_run, flat_qrels, parsed, gain)
            return Evaluation(
                per_question=fast.per_question,
                means=fast.means,
                metrics=names,
                gain=gain,
                no_answer=fast.no_answer,
                missing=fast.missing,
                unjudged=fast.unjudged,
                ndcg_undefined=list(fast.no_answer) if any(c == "nDCG" for c, _ in parsed) else [],
            )
    if run_is_path or qrels_is_path or isinstance(run, pd.DataFrame) or isinstance(qrels, pd.DataFrame):
        from ragmath import io as _io

        if run_is_path:
            run = _io.read_run(run)
        elif isinstance(run, pd.DataFrame):
            run = _io.run_from_frame(run, name="run")
        if qrels_is_path:
            qrels = _io.read_qrels(qrels)
        elif isinstance(qrels, pd.DataFrame):
            qrels = _io.qrels_from_frame(qrels, name="qrels")

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
    ndcg_undefined = list(no_answer) if any(c == "nDCG" for c, _ in parsed) else []
    return Evaluation(
        per_question=per_question,
        means=means,
        metrics=names,
        gain=gain,
        no_answer=no_answer,
        missing=missing,
        unjudged=unjudged,
        ndcg_undefined=ndcg_undefined,
    )


def _is_file(value: Any) -> bool:
    """A path object, or a string naming an existing file (any other string is no path)."""
    if isinstance(value, os.PathLike):
        return True
    return isinstance(value, str) and os.path.isfile(value)


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
    return math.fsum(float(v) for v in values) / len(values)
