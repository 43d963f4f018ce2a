"""A release gate: is a candidate no worse than the baseline by more than a margin (non-inferiority)?

:func:`gate` decides PASS or FAIL from the paired question-bootstrap interval that :func:`ragmath.compare`
reports for candidate − baseline (the same draws: it calls ``compare``), and says why a FAIL failed: the
candidate is worse by more than the margin, or the questions are too few to tell, with how many a pilot
like this one would need. ``python -m ragmath gate`` prints its report.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

import pandas as pd

from ragmath import io
from ragmath.comparison import Comparison, compare, markdown, report_words
from ragmath.evaluation import name_list
from ragmath.registry import METRICS, parse_metric
from ragmath.stats import plan_questions

__all__ = ["gate", "GateResult", "POWER", "FEW_QUESTIONS", "fewest_questions"]

#: The power the question count of a "too few" FAIL is planned for (1 − β).
POWER = 0.8
#: Below this many questions the report warns that a percentile bootstrap interval runs narrow.
FEW_QUESTIONS = 10

_REASONS = {
    "non-inferior": "non-inferior: the interval's lower end {low:+.4f} lies above -margin {neg:+.4f}",
    "worse": "worse by more than the margin: {why}",
    "too few": "too few questions to tell: the interval [{low:+.4f}, {high:+.4f}] straddles -margin "
               "{neg:+.4f}",
    "below the floor": "too few questions to tell: only {n}, and no paired test at alpha {alpha:g} "
                       "can decide on fewer than {floor} (the exact sign-flip p cannot go below 2/2^n = "
                       "{p_floor:.4f}), whatever the interval [{low:+.4f}, {high:+.4f}] says",
}


def fewest_questions(alpha: float) -> int:
    """The fewest questions on which a paired test at two-sided level ``alpha`` can reject at all.

    n_min = ⌈log2(2 / α)⌉

    where 2/2ⁿ is the smallest two-sided p an exact sign-flip test can give on n questions (every
    difference of one sign). Below n_min the gate passes no candidate, however narrow its bootstrap
    interval (a percentile interval over a handful of questions is far too narrow).

    >>> fewest_questions(0.05), fewest_questions(0.1), fewest_questions(0.01), fewest_questions(0.0625)
    (6, 5, 8, 5)
    """
    n = 1
    while 2 / 2**n > alpha:  # exact in floats: 2/2**n is a power of two
        n += 1
    return n


@dataclass(frozen=True)
class GateResult:
    """The result of :func:`gate`: the interval, the decision, its reason and what would settle it."""

    metric: str
    baseline: str
    candidate: str
    questions: int
    mean_diff: float
    low: float
    high: float
    sd_diff: float
    margin: float
    alpha: float
    seed: int
    resamples: int
    decision: str  # "PASS" or "FAIL"
    reason: str  # "non-inferior", "worse" or "too few"
    explanation: str
    needed: int | None  # questions a pilot like this one needs ("too few" only; None when undefined)
    needed_note: str
    smallest_margin: float | None  # -low when positive: margins above it pass with these questions
    notes: list[str] = field(default_factory=list)
    comparison: Comparison | None = field(default=None, repr=False, compare=False)

    @property
    def passed(self) -> bool:
        """Whether the candidate passed (exit status 0; a FAIL is 1)."""
        return self.decision == "PASS"

    @property
    def exit_status(self) -> int:
        """0 for PASS, 1 for FAIL: what ``python -m ragmath gate`` returns."""
        return 0 if self.passed else 1

    def _smallest_margin_text(self) -> str:
        if self.smallest_margin is None:
            return "any margin > 0 (the interval's lower end is not below 0)"
        return f"{self.smallest_margin:.4f} (margins above it pass with these {self.questions} questions)"

    def lines(self) -> list[tuple[str, str]]:
        """The report as (label, value) rows, in order: what :meth:`report` and :meth:`to_markdown` show."""
        rows = [
            ("decision", f"{self.decision}: {self.explanation}"),
            ("metric", self.metric),
            ("baseline", self.baseline),
            ("candidate", self.candidate),
            ("questions", str(self.questions)),
            ("mean difference", f"{self.mean_diff:+.4f} (candidate - baseline)"),
            (f"{(1 - self.alpha) * 100:g}% interval", f"[{self.low:+.4f}, {self.high:+.4f}] (percentile "
             f"bootstrap over questions, {self.resamples} resamples, seed {self.seed})"),
            ("margin", f"{self.margin:g} (PASS when the interval's lower end lies above {-self.margin:+g})"),
            ("smallest margin shown", self._smallest_margin_text()),
        ]
        if self.reason == "too few":
            rows.append(("questions needed", self.needed_note))
        return rows

    def report(self) -> str:
        """The text report: one ``label: value`` line each, then the notes."""
        width = max(len(label) for label, _ in self.lines())
        text = "".join(f"{label + ':':<{width + 1}} {value}\n" for label, value in self.lines())
        return text + "".join(f"note: {note}\n" for note in self.notes)

    def to_markdown(self) -> str:
        """The report as a two-column Markdown table, then the notes as a list."""
        table = markdown(pd.DataFrame(self.lines(), columns=["gate", "value"]))
        return table + ("\n" + "".join(f"- {note}\n" for note in self.notes) if self.notes else "")

    def to_dict(self) -> dict:
        """The JSON form: every field but the comparison; ``ci`` is ``[low, high]``, NaN is None."""
        def number(v: float | None) -> float | None:
            return None if v is None or not math.isfinite(v) else v

        return {"metric": self.metric, "baseline": self.baseline, "candidate": self.candidate,
                "questions": self.questions, "diff": self.mean_diff, "ci": [self.low, self.high],
                "confidence": 1 - self.alpha, "alpha": self.alpha, "sd_diff": number(self.sd_diff),
                "margin": self.margin, "decision": self.decision, "reason": self.reason,
                "explanation": self.explanation, "needed": self.needed, "needed_note": self.needed_note,
                "power": POWER, "smallest_margin": self.smallest_margin, "seed": self.seed,
                "resamples": self.resamples, "notes": list(self.notes)}

    def by_group(self, groups: Mapping[Hashable, Hashable]) -> pd.DataFrame:
        """Per group: each version's mean and the difference, with each group's question count
        (:meth:`ragmath.Comparison.by_group`); the decision stays the one over all questions."""
        if self.comparison is None:
            raise ValueError("this result holds no comparison to break down by group")
        return self.comparison.by_group(groups)


def _positive(value: Any, name: str, example: str, below: float) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value) \
            or not 0 < value < below:
        raise ValueError(f"{name} must be a finite number above 0 and below {below:g}, e.g. {example}; "
                         f"got {value!r}")
    return float(value)


def gate(baseline: Any, candidate: Any, qrels: Any, metric: str, margin: float, *, alpha: float = 0.05,
         seed: int = 0, n_resamples: int = 10_000, gain: str = "exp",
         names: tuple[str, str] = ("baseline", "candidate")) -> GateResult:
    """Non-inferiority of ``candidate`` to ``baseline`` on ``metric`` within ``margin``: PASS or FAIL, why.

    d̄ = (1/n) Σ_i (c_i − b_i),  [L, H] = the two-sided (1 − α) percentile bootstrap interval of d̄
    PASS  when L > −δ
    FAIL, worse by more than the margin  when L ≤ −δ and (d̄ < −δ or H < −δ)
    FAIL, too few questions  otherwise (L ≤ −δ ≤ H and d̄ ≥ −δ), or when n < n_min = ⌈log2(2/α)⌉
                             (:func:`fewest_questions`) and it would pass; a "too few" FAIL reports
    n_needed = ⌈((z_{1−α/2} + z_{power}) · σ_d / (δ + d̄))²⌉

    where
      - c_i, b_i are question i's ``metric`` for the candidate and the baseline, over the n labelled
        questions with a relevant item (as :func:`ragmath.compare` scores them: a question missing from a
        run scores 0 there),
      - [L, H] is exactly the ``diff`` interval ``compare`` reports with ``confidence = 1 − α``, the same
        ``seed`` and ``n_resamples`` (it is computed by ``compare``): the (α/2) and (1 − α/2) quantiles of
        the means of resamples of the questions with replacement,
      - δ is ``margin`` (in the metric's units, 0 < δ < 1),
      - σ_d is the standard deviation (n − 1) of the per-question differences c_i − b_i,
      - z_p is the standard normal quantile, power = :data:`POWER` = 0.8.

    Why the two-sided interval: it is the one ``compare`` reports, so the gate and the comparison table
    never disagree, and its lower end is a one-sided (1 − α/2) bound: the gate is a one-sided
    non-inferiority test at level α/2 (2.5% for α = 0.05, the usual convention of a two-sided 95%
    interval compared with a margin). For that reason n_needed uses z_{1−α/2}, as
    :func:`ragmath.stats.plan_questions` does (it computes n_needed, with d = δ + d̄): the questions at
    which, if the true difference were d̄ and σ_d carried over, the lower end would clear −δ with
    probability 0.8 (normal approximation; read it as an order of magnitude). n_needed is undefined when
    d̄ ≤ −δ (no number of questions shows non-inferiority of a candidate this much worse), when σ_d = 0,
    or with a single question; the report says so in a sentence.

    Rule (a), worse, holds when the point estimate d̄ or the whole interval (H < −δ) lies below −δ: then
    more questions are not expected to help. When H < −δ too, the loss exceeds the margin at this
    confidence; when only d̄ < −δ, the report says the interval still reaches above −δ.

    The smallest margin these questions can show is −L when L < 0 (every margin above it passes);
    when L ≥ 0 every margin > 0 passes.

    >>> base = {"q1": ["x", "a"], "q2": ["b"], "q3": ["c"]}
    >>> cand = {"q1": ["a"], "q2": ["b"], "q3": ["c"]}
    >>> labels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}}
    >>> gate(base, cand, labels, "MRR@2", 0.02, n_resamples=2000).explanation[:46]
    'too few questions to tell: only 3, and no pair'
    >>> more = {f"q{i}": [f"d{i}"] for i in range(4, 8)}
    >>> result = gate(base | more, cand | more, labels | {q: {r[0]: 1} for q, r in more.items()}, "MRR@2",
    ...               0.02, n_resamples=2000)
    >>> result.decision, result.reason, result.questions, round(result.mean_diff, 4), result.low >= 0
    ('PASS', 'non-inferior', 7, 0.0714, True)

    Raises ``ValueError`` for a margin not in (0, 1) or not finite, an alpha outside (0, 1), Judged@K or
    an unknown metric, no question scored by both, and as :func:`ragmath.compare` does.
    """
    delta = _positive(margin, "margin", "0.02 (in the metric's units)", 1)
    alpha = _positive(alpha, "alpha", "0.05", 1)
    if not isinstance(metric, str):
        raise TypeError(f"metric must be one name such as 'nDCG@10', got {type(metric).__name__}")
    base_name, cand_name = names
    if base_name == cand_name:
        raise ValueError(f"the baseline and the candidate are both named {base_name!r}; name them apart")
    if METRICS[parse_metric(metric)[0].lower()].averaged_over != "answerable":
        raise ValueError(f"gate decides on a retrieval metric such as nDCG@10, not {metric}: Judged@K says "
                         "how much of a ranking is labelled, not how good it is")
    labels = io.read_qrels(qrels)
    if not any(grade > 0 for graded in labels.values() for grade in graded.values()):
        raise ValueError("the labels hold no relevant item (grade > 0) for any question: there is nothing "
                         "to score; is this the qrels file of these runs?")
    result = compare({base_name: baseline, cand_name: candidate}, qrels, [metric], baseline=base_name,
                     seed=seed, n_resamples=n_resamples, confidence=1 - alpha, gain=gain)
    for name in names:
        if result.missing[name] and len(result.missing[name]) == len(result.per_question[base_name]):
            raise ValueError(f"the run {name!r} answers none of the {len(result.missing[name])} labelled "
                             f"questions ({name_list(result.missing[name], 5)}): are the run and the qrels "
                             "files for the same questions?")
    row = result.comparisons.iloc[0]
    metric = str(row["metric"])
    diffs = (result.per_question[cand_name][metric] - result.per_question[base_name][metric]).to_numpy()
    n = int(diffs.size)
    d, low, high = float(row["diff"]), float(row["low"]), float(row["high"])
    sd = float(diffs.std(ddof=1)) if n > 1 else math.nan
    neg = -delta
    floor, why = fewest_questions(alpha), ""
    if low > neg:
        reason, wording = ("too few", "below the floor") if n < floor else ("non-inferior", "non-inferior")
    elif d < neg or high < neg:
        reason = wording = "worse"
        why = (f"the whole interval [{low:+.4f}, {high:+.4f}] lies below -margin {neg:+.4f}"
               if high < neg else f"the mean difference {d:+.4f} lies below -margin {neg:+.4f} (the "
               f"interval's upper end {high:+.4f} reaches above it: the loss may be smaller, but more "
               f"questions are not expected to show non-inferiority)")
    else:
        reason = wording = "too few"
    explanation = _REASONS[wording].format(low=low, high=high, neg=neg, why=why, n=n, alpha=alpha,
                                           floor=floor, p_floor=min(1.0, 2 / 2**n))
    needed, needed_note = None, ""
    if reason == "too few":
        needed, needed_note = _needed(diffs, d, sd, delta, alpha, n)
    said = report_words()
    unused = (said["note.test"].split("{")[0], said["note.columns"])  # the p-values', the table's columns
    notes = [note for note in result.notes() if not note.startswith(unused)]
    if n < FEW_QUESTIONS:
        notes.append(f"only {n} questions: a percentile bootstrap interval over fewer than {FEW_QUESTIONS} "
                     "questions runs narrow, so a PASS rests on little")
    return GateResult(
        metric=metric, baseline=base_name, candidate=cand_name, questions=n, mean_diff=d, low=low, high=high,
        sd_diff=sd, margin=delta, alpha=alpha, seed=seed, resamples=n_resamples,
        decision="PASS" if reason == "non-inferior" else "FAIL", reason=reason, explanation=explanation,
        needed=needed, needed_note=needed_note, smallest_margin=-low if low < 0 else None, notes=notes,
        comparison=result)


def _needed(diffs: Any, d: float, sd: float, delta: float, alpha: float, n: int) -> tuple[int | None, str]:
    """The questions a pilot like this one needs to show non-inferiority within ``delta``; the sentence."""
    z_alpha, z_power = NormalDist().inv_cdf(1 - alpha / 2), NormalDist().inv_cdf(POWER)
    formula = (f"n = ceil(((z_{{1-alpha/2}} + z_{{power}}) * sd_d / (margin + diff))^2) with "
               f"z_{{1-alpha/2}} = {z_alpha:.3f}, power {POWER:g} (z = {z_power:.3f}), sd_d = {sd:.4f}, "
               f"margin + diff = {delta + d:.4f}")
    if n < 2:
        return None, ("undefined: one question has no spread of differences to plan from; label more "
                      "questions first")
    if not delta + d > 0:
        return None, (f"undefined: the mean difference {d:+.4f} is not above -margin {-delta:+g}, so no "
                      "number of questions would show non-inferiority if the candidate is truly this much "
                      "worse")
    if not sd > 0:
        return None, (f"undefined: every per-question difference is {d:+.4f}, so their spread is 0 and the "
                      "formula says nothing; label questions where the versions differ")
    needed = plan_questions(diffs, delta + d, power=POWER, alpha=alpha)
    more = (f"{needed - n} more than these {n}" if needed > n else
            f"no more than these {n}: the normal approximation and this bootstrap interval disagree; "
            "add questions and run the gate again")
    return needed, f"about {needed} questions ({more}); {formula}"
