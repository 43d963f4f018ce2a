"""Score a whole run against whole labels, keeping every question that cannot be scored in sight.

A *run* maps each question to its ranked IDs (best first) or to ``{ID: score}``; a *qrels* maps each
question to ``{ID: grade}``. Questions fall into exactly one of these groups:

==============  ===============================================  ==========================================
group           what it is                                       what ragmath does
==============  ===============================================  ==========================================
scored          labelled with at least one grade > 0, in run     per-question metrics, in means
missing         labelled with a grade > 0, absent from the run   scored 0, in means, in ``.missing``
no-answer       labelled, but no grade > 0                       in Judged@K's mean only; in ``.no_answer``
unjudged        in the run, not labelled at all                  not scored, in ``.unjudged``
==============  ===============================================  ==========================================

A mapping lists its questions: one with an empty ranking is in the run (it retrieved nothing), one
labelled ``{}`` is a no-answer question. A file or a DataFrame holds only the questions of its rows.
nDCG is undefined where IDCG = 0, that is where no labelled grade is above 0: under these conventions
that is exactly the no-answer group, and ``.ndcg_undefined`` lists it when an nDCG metric was asked.
trec_eval drops missing questions silently (which inflates its mean); ranx raises or scores them 0.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd
import polars as pl

from ragmath import io
from ragmath.metrics import GAINS, Grades, as_numbers
from ragmath.ranking import order_run_table
from ragmath.registry import METRICS, parse_metrics

__all__ = ["evaluate", "Evaluation"]


_GROUP_TITLES = {
    "missing": "missing from the run (scored 0, in the means)",
    "no_answer": "no-answer (no relevant item; outside every mean but Judged@K's)",
    "unjudged": "unjudged (in the run, not labelled; not scored)",
    "ndcg_undefined": "nDCG undefined (IDCG = 0; outside the nDCG mean)",
}


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
        """How many questions enter the retrieval metrics' means (missing ones included, scored 0)."""
        return len(self.per_question.index.difference(self.no_answer).union(self.missing))

    def questions(self, metric: str) -> int:
        """How many questions enter ``metric``'s mean (Judged@K: the labelled ones in the run)."""
        return int(self.per_question[metric].notna().sum())

    def table(self) -> pd.DataFrame:
        """Means with the count of questions behind each, one row per metric."""
        return pd.DataFrame(
            {"mean": [float(self.means[m]) for m in self.metrics],
             "questions": [self.questions(m) for m in self.metrics]},
            index=pd.Index(self.metrics, name="metric"),
        )

    def report(self) -> str:
        """A plain-text summary: means, then every group of questions kept apart, by name."""
        lines = [f"{self.n_scored} questions in the means (gain for nDCG: {self.gain})"]
        for metric in self.metrics:
            value = float(self.means[metric])
            line = f"  {metric:<10} {value:.4f}" if not math.isnan(value) else f"  {metric:<10} n/a"
            n = self.questions(metric)
            lines.append(line + (f"  ({n} questions: labelled, in the run)" if n != self.n_scored else ""))
        return "\n".join(lines + [self.groups_text()])

    def groups(self) -> dict[str, list]:
        """The questions kept apart, by group: missing, no_answer, unjudged (and ndcg_undefined with nDCG)."""
        groups = {"missing": list(self.missing), "no_answer": list(self.no_answer),
                  "unjudged": list(self.unjudged)}
        if any(m.startswith("nDCG") for m in self.metrics):
            groups["ndcg_undefined"] = list(self.ndcg_undefined)
        return groups

    def groups_text(self) -> str:
        """One line per group of :meth:`groups`: what it is, how many, the first 20 members."""
        lines = []
        for key, members in self.groups().items():
            shown = f" [{name_list(members)}]" if members else ""
            lines.append(f"{_GROUP_TITLES[key]}: {len(members)}{shown}")
        return "\n".join(lines)

    def to_dict(self, per_question: bool = False) -> dict:
        """The JSON form: metrics, gain, questions_in_means, means, :meth:`groups` (and each question's
        values with ``per_question``); NaN, a mean over no question, as None."""
        out = {"metrics": list(self.metrics), "gain": self.gain, "questions_in_means": self.n_scored,
               "means": json_numbers(self.means), **self.groups()}
        if per_question:
            out["per_question"] = {str(q): json_numbers(row) for q, row in self.per_question.iterrows()}
        return out

    def by_group(self, groups: Mapping[Hashable, Hashable]) -> pd.DataFrame:
        """Per group (:func:`by_group`): each metric's mean and the question count."""
        return by_group(self.per_question, groups)

    def __str__(self) -> str:
        return self.report()


#: The group of the questions a group mapping does not name (a real group of that name is refused).
UNGROUPED = "(no group)"


def by_group(per_question: pd.DataFrame, groups: Mapping[Hashable, Hashable]) -> pd.DataFrame:
    """Per-group means of a per-question table, with each group's question count and a warning below 10.

    Questions are read from ``groups`` by the rule of every question ID (``1`` and ``"1"`` are one
    question); questions the mapping does not name form the group ``"(no group)"``.

    >>> table = pd.DataFrame({"Hit@3": [1.0, 0.0, 1.0]}, index=["q1", "q2", "q3"])
    >>> by_group(table, {"q1": "how", "q2": "how", "q3": "why"}).to_dict("index")["how"]
    {'questions': 2, 'Hit@3': 0.5, 'warning': 'fewer than 10 questions'}

    Raises ``ValueError`` for a question given twice (as ``1`` and ``"1"``) and for a group named
    ``"(no group)"``, which would merge with the unmapped questions; ``TypeError`` for a question that
    is neither text nor an integer.
    """
    named: dict[str, Hashable] = {}
    for question, group in groups.items():
        text = question_id(question)
        if text in named:
            raise ValueError(f"groups names question {text!r} twice (as {text} and {text!r}); name it once")
        if group == UNGROUPED:
            raise ValueError(f"groups: question {text!r} is in a group named {UNGROUPED!r}, the name of the "
                             f"questions no group names; rename that group")
        named[text] = group
    keys = pd.Series([named.get(str(q), UNGROUPED) for q in per_question.index], index=per_question.index)
    table = per_question.groupby(keys.rename("group"), sort=True).mean()
    table.insert(0, "questions", keys.value_counts().reindex(table.index).astype(int))
    table["warning"] = np.where(table["questions"] < 10, "fewer than 10 questions", "")
    return table


def question_id(value: Any) -> str:
    """A question or item ID as text: a string as it is, an integer in decimal (``1`` is ``"1"``).

    >>> question_id(7), question_id("q7")
    ('7', 'q7')

    Raises ``TypeError`` for anything else (a float, a boolean, None).
    """
    if isinstance(value, str):
        return value
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        return str(int(value))
    raise TypeError(f"an ID is text or an integer, got {value!r} ({type(value).__name__})")


def name_list(members: Sequence[Any], shown: int = 20) -> str:
    """The first ``shown`` names, comma-separated, then " ..." when there are more.

    >>> name_list(["q1", "q2", "q3"], shown=2)
    'q1, q2 ...'
    """
    return ", ".join(map(str, members[:shown])) + (" ..." if len(members) > shown else "")


def evaluate(
    run: Any,
    qrels: Any,
    metrics: Sequence[str] = ("Recall@3", "Hit@3", "MRR@3", "nDCG@3"),
    *,
    gain: str = "exp",
    exact: bool = False,
) -> Evaluation:
    """Score every labelled question of ``run`` and average, listing the questions kept apart.

    mean(M) = (1 / |Q|) Σ_{q ∈ Q} M(q)

    where
      - Q is every question labelled with at least one grade > 0 (missing ones count, scored 0); for
        Judged@K, which measures the labels, every labelled question in the run (no-answer ones too),
      - M(q) is the per-question metric, defined in :mod:`ragmath.metrics`.

    ``metrics`` are ``Name@K`` strings (case-insensitive) from :data:`ragmath.registry.METRICS`:
    Recall, Hit, MRR, nDCG, Judged. ``gain`` is the nDCG gain (``"exp"`` = 2^g - 1, ``"linear"`` = g).
    With ``exact=True`` the Recall, Hit, MRR and Judged columns and means are ``fractions.Fraction``,
    computed by the definitions; they equal the floats.

    >>> result = evaluate({"q1": ["A", "X", "B"], "q2": ["Y", "Z", "D"]},
    ...                   {"q1": {"A": 1, "B": 1, "C": 1}, "q2": {"D": 1}, "q3": {"E": 0}},
    ...                   ["Recall@3", "MRR@3"], exact=True)
    >>> result.means["Recall@3"], result.means["MRR@3"]
    (Fraction(5, 6), Fraction(2, 3))
    >>> result.no_answer
    ['q3']

    ``run`` is a mapping question -> ranked IDs (best first) or -> {ID: score}, a DataFrame (pandas
    or polars; columns question, id, score or rank) or a run file (TREC, CSV or JSONL; a path, a
    named pipe or ``"-"``); ``qrels`` a mapping question -> {ID: grade}, a DataFrame (question, id,
    grade) or a qrels file. Every form becomes a checked table of :mod:`ragmath.io`, then one
    :class:`ragmath.metrics.Grades` matrix (:func:`grade_matrix`) that each metric's function in
    :mod:`ragmath.metrics` scores for every question at once. IDs are text (``1`` and ``"1"``
    are one ID); tied scores order by ID in code-point order (``"10"`` before ``"9"``).

    Raises ``ValueError`` for an unknown metric (listing the known ones), a duplicate ID in a
    ranking, a grade that is not a whole number from 0 to :data:`ragmath.io.MAX_GRADE`, a score
    that is not finite, an empty ID, an unknown gain; ``TypeError`` when run or qrels is not a
    mapping, a DataFrame or a file; ``FileNotFoundError`` for a path that names no file.
    """
    parsed = parse_metrics(metrics)
    if gain not in GAINS:
        raise ValueError(f"gain must be one of {GAINS}, got {gain!r}")
    depth = max(cutoff for _, cutoff in parsed)  # a run file is read for its top max-K only
    top = order_run_table(io.run_table(run, top=depth), top=depth)
    qrels_table = io.qrels_table(qrels)
    labelled = mapping_questions(qrels) or qrels_table["question"].unique(maintain_order=True).to_list()
    run_order = mapping_questions(run) or top.filter(pl.col("position") == 1)["question"].to_list()
    in_run = set(run_order)
    grades = grade_matrix(top, qrels_table, labelled, depth)

    answerable = grades.n_relevant > 0
    ran = np.array([question in in_run for question in labelled], dtype=bool)
    averaged = {"answerable": answerable, "labelled": ran}
    names = tuple(f"{name}@{cutoff}" for name, cutoff in parsed)
    columns = {}
    for (name, cutoff), column in zip(parsed, names, strict=True):
        metric = METRICS[name.lower()]
        value = metric.compute(grades, cutoff, gain)
        if metric.exact:
            value = as_numbers(value, exact)
        columns[column] = np.where(averaged[metric.averaged_over], value, np.nan)
    kept = np.logical_or.reduce([averaged[METRICS[name.lower()].averaged_over] for name, _ in parsed])
    index = pd.Index([q for q, keep in zip(labelled, kept, strict=True) if keep], name="question")
    per_question = pd.DataFrame({column: values[kept] for column, values in columns.items()}, index=index)
    means = pd.Series({name: _mean(per_question[name].dropna()) for name in names},
                      dtype=object if exact else float)
    no_answer = [q for q, has in zip(labelled, answerable, strict=True) if not has]
    labelled_set = set(labelled)
    return Evaluation(
        per_question=per_question,
        means=means,
        metrics=names,
        gain=gain,
        no_answer=no_answer,
        missing=[q for q, has, r in zip(labelled, answerable, ran, strict=True) if has and not r],
        unjudged=[q for q in run_order if q not in labelled_set],
        ndcg_undefined=list(no_answer) if any(name == "nDCG" for name, _ in parsed) else [],
    )


def grade_matrix(top: pl.DataFrame, qrels: pl.DataFrame, questions: Sequence[str], depth: int) -> Grades:
    """The :class:`ragmath.metrics.Grades` of a whole run, one row per question of ``questions``.

    ``top`` is the run as ranked lists (question, id, position: :func:`ragmath.ranking.order_run_table`),
    ``qrels`` the labels table (question, id, grade); a question of ``questions`` absent from ``top``
    gets a row with no item (nothing retrieved). Built by joins, so 100,000 questions cost one pass.

    >>> top = pl.DataFrame({"question": ["q1", "q1"], "id": ["A", "X"], "position": [1, 2]})
    >>> qrels = pl.DataFrame({"question": ["q1", "q1"], "id": ["A", "C"], "grade": [2, 1]})
    >>> grade_matrix(top, qrels, ["q1"], 3).ranked.tolist()
    [[2.0, nan, nan]]
    """
    rows = pl.DataFrame({"question": list(questions)}, schema={"question": pl.String}).with_row_index("row")
    found = top.filter(pl.col("position") <= depth).join(qrels, on=["question", "id"])
    found = found.join(rows, on="question")
    ranked = np.full((rows.height, depth), np.nan)
    ranked[found["row"].to_numpy(), found["position"].to_numpy() - 1] = found["grade"].to_numpy()
    relevant = qrels.filter(pl.col("grade") > 0).join(rows, on="question")
    place = relevant.select(pl.col("grade").rank("ordinal", descending=True).over("row").cast(pl.Int64))
    in_depth = (place.to_series() <= depth).to_numpy()
    ideal = np.zeros((rows.height, depth))
    ideal[relevant["row"].to_numpy()[in_depth], place.to_series().to_numpy()[in_depth] - 1] = (
        relevant["grade"].to_numpy()[in_depth])
    n_relevant = np.bincount(relevant["row"].to_numpy(), minlength=rows.height).astype(np.int64)
    return Grades(ranked, ideal, n_relevant)


def mapping_questions(value: Any) -> list[str] | None:
    """A mapping's questions as text, in order (None for a table or a file: its questions are its rows').

    The mapping has been read by :mod:`ragmath.io` first, which refuses an ID that is neither text
    nor an integer and a question given as both (``1`` and ``"1"``).

    >>> mapping_questions({1: [], "q2": []})
    ['1', 'q2']
    """
    if not isinstance(value, Mapping):
        return None
    return [question_id(q) for q in value]


def json_numbers(values: Mapping) -> dict:
    """A row of numbers for JSON, keys as text: NaN and infinities (no number) become None.

    >>> json_numbers({"Hit@1": 0.5, "nDCG@1": float("nan")})
    {'Hit@1': 0.5, 'nDCG@1': None}
    """
    return {str(k): None if isinstance(v, float) and not math.isfinite(v) else v for k, v in values.items()}


def _mean(values: pd.Series):
    if len(values) == 0:
        return math.nan
    if all(isinstance(v, Fraction) for v in values):
        return sum(values, Fraction(0)) / len(values)
    return math.fsum(values.to_numpy(dtype=float).tolist()) / len(values)
