"""Agreement between two label sets over the same (question, item) pairs: raw agreement, the confusion
matrix of grades, Cohen's κ (unweighted and quadratic-weighted) and bootstrap intervals over questions.

Two labellers (or a labeller and a model, or a labeller twice) grade the same pairs; how far they agree
says how far a score built on either set can be trusted. numpy alone: files and tables are read through
:mod:`ragmath.io` on first use.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ragmath.stats import check_resamples

__all__ = ["label_agreement", "Agreement", "kappas", "agreement_sample"]

_BLOCK = 1_000_000  # question picks drawn at a time, as ragmath.stats draws them


@dataclass(frozen=True)
class Agreement:
    """The result of :func:`label_agreement`.

    ``confusion[i, j]`` counts the pairs graded ``grades[i]`` by the first set and ``grades[j]`` by the
    second. ``kappa`` and ``kappa_quadratic`` are None where κ is undefined (``notes`` says why), never NaN;
    an interval is None when every resample left κ undefined.
    """

    pairs: int
    questions: int
    grades: tuple[int, ...]
    confusion: np.ndarray
    raw: float
    expected: float
    kappa: float | None
    kappa_quadratic: float | None
    intervals: dict[str, tuple[float, float] | None]
    confidence: float
    seed: int
    resamples: int
    undefined_resamples: dict[str, int]
    only_first: list[tuple[str, str]] = field(default_factory=list)
    only_second: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        """The JSON form: numbers, lists and None (the confusion matrix as a list of rows)."""
        return {"pairs": self.pairs, "questions": self.questions, "grades": list(self.grades),
                "confusion": self.confusion.tolist(), "raw": self.raw, "expected": self.expected,
                "kappa": self.kappa, "kappa_quadratic": self.kappa_quadratic,
                "intervals": {k: None if v is None else list(v) for k, v in self.intervals.items()},
                "confidence": self.confidence, "seed": self.seed, "resamples": self.resamples,
                "undefined_resamples": dict(self.undefined_resamples),
                "only_first": [list(p) for p in self.only_first],
                "only_second": [list(p) for p in self.only_second], "notes": list(self.notes)}

    def report(self) -> str:
        """A short text report: the three numbers with their intervals, the confusion matrix, the notes."""
        def value(name: str, v: float | None) -> str:
            interval = self.intervals.get(name)
            ci = "" if interval is None else f" [{interval[0]:.3f}, {interval[1]:.3f}]"
            return ("undefined" if v is None else f"{v:.3f}") + ci

        width = max(len(str(g)) for g in self.grades) + 1
        head = " " * (width + 6) + "".join(f"{g:>{max(width, 6)}}" for g in self.grades)
        rows = [f"{'first ' + str(g):>{width + 6}}" + "".join(f"{c:>{max(width, 6)}}" for c in row)
                for g, row in zip(self.grades, self.confusion.tolist(), strict=True)]
        level = f"{self.confidence * 100:g}%"
        return (f"{self.pairs} pairs over {self.questions} questions; {level} percentile bootstrap intervals "
                f"over questions ({self.resamples} resamples, seed {self.seed})\n"
                f"raw agreement     {value('raw', self.raw)}\n"
                f"Cohen's kappa     {value('kappa', self.kappa)}\n"
                f"quadratic kappa   {value('kappa_quadratic', self.kappa_quadratic)}\n"
                f"confusion (rows: first set, columns: second set)\n{head}\n" + "\n".join(rows) + "\n"
                + "".join(f"note: {note}\n" for note in self.notes))


def kappas(confusion: Any) -> tuple[float, float, float | None, float | None]:
    """Raw agreement, chance agreement and Cohen's κ (unweighted, quadratic) of one confusion matrix.

    p_o = Σ_i O_ii / N,  p_e = Σ_i r_i c_i / N²,  κ = (p_o − p_e) / (1 − p_e)
    κ_w = 1 − Σ_ij w_ij O_ij / Σ_ij w_ij E_ij,  E_ij = r_i c_j / N,  w_ij = (i − j)² / (K − 1)²

    where
      - O is the K × K matrix of counts (rows: the first set's grade, columns: the second's), N = Σ O,
      - r_i = Σ_j O_ij and c_j = Σ_i O_ij are the two sets' counts of each grade (the margins),
      - i, j are positions in the sorted list of K grades (so w is the squared grade distance, scaled to
        [0, 1], when the grades are consecutive integers such as 0..3).

    Returns ``(p_o, p_e, κ, κ_w)``; κ is None when p_e = 1 and κ_w None when Σ w E = 0 (both sets give
    every pair one and the same grade: κ would be 0/0).

    >>> [round(v, 12) for v in kappas([[20, 5], [10, 15]])]
    [0.7, 0.5, 0.4, 0.4]
    """
    counts = np.asarray(confusion, dtype=float)
    if counts.ndim != 2 or counts.shape[0] != counts.shape[1] or counts.sum() <= 0 or (counts < 0).any():
        raise ValueError("confusion must be a square matrix of counts, not all zero")
    observed, expected, kappa, weighted = (float(v[0]) for v in _kappas(counts[None]))
    return (observed, expected, None if math.isnan(kappa) else kappa,
            None if math.isnan(weighted) else weighted)


def _kappas(counts: np.ndarray) -> tuple[np.ndarray, ...]:
    """p_o, p_e, κ and κ_w of a stack of confusion matrices (B × K × K); NaN where κ is undefined."""
    k = counts.shape[1]
    total = counts.sum(axis=(1, 2))
    rows, cols = counts.sum(axis=2), counts.sum(axis=1)
    observed = np.trace(counts, axis1=1, axis2=2) / total
    expected = np.einsum("bi,bi->b", rows, cols) / total**2
    defined = np.abs(1 - expected) > 1e-12
    kappa = np.full_like(observed, np.nan)
    kappa[defined] = (observed[defined] - expected[defined]) / (1 - expected[defined])
    position = np.arange(k)
    weights = (position[:, None] - position[None, :]) ** 2 / max(k - 1, 1) ** 2
    chance = np.einsum("ij,bi,bj->b", weights, rows, cols) / total
    weighted = np.full_like(observed, np.nan)
    fine = chance > 1e-12 * total
    weighted[fine] = 1 - np.einsum("ij,bij->b", weights, counts)[fine] / chance[fine]
    return observed, expected, kappa, weighted


def _as_labels(labels: Any, name: str) -> Mapping[Any, Mapping[Any, Any]]:
    if isinstance(labels, Mapping):
        return labels
    from ragmath import io

    return io.read_qrels(labels)


def _pairs(labels: Mapping[Any, Mapping[Any, Any]], name: str) -> dict[tuple[str, str], int]:
    pairs: dict[tuple[str, str], int] = {}
    for question, graded in labels.items():
        if not isinstance(graded, Mapping):
            raise TypeError(f"{name}[{question!r}] must map item -> grade, got {type(graded).__name__}")
        for item, grade in graded.items():
            if isinstance(grade, bool) or not isinstance(grade, numbers.Integral):
                raise ValueError(f"{name}: question {question!r}, item {item!r}: the grade must be a whole "
                                 f"number such as 0, 1 or 2, got {grade!r}")
            key = (str(question), str(item))
            if key in pairs:
                raise ValueError(f"{name}: question {question!r}, item {item!r} appears twice (as text); "
                                 "give each pair one grade")
            pairs[key] = int(grade)
    return pairs


def _shown(pairs: Sequence[tuple[str, str]], shown: int = 5) -> str:
    return ", ".join(f"({q}, {i})" for q, i in pairs[:shown]) + (" ..." if len(pairs) > shown else "")


def label_agreement(first: Any, second: Any, *, pairs: str = "same", grades: Sequence[int] | None = None,
                    n_resamples: int = 10_000, confidence: float = 0.95, seed: int = 0) -> Agreement:
    """How far two label sets agree on the same (question, item) pairs, with intervals over questions.

    p_o = Σ_i O_ii / N,  p_e = Σ_i r_i c_i / N²,  κ = (p_o − p_e) / (1 − p_e)
    κ_w = 1 − Σ_ij w_ij O_ij / Σ_ij w_ij E_ij,  E_ij = r_i c_j / N,  w_ij = (i − j)² / (K − 1)²

    where
      - O is the confusion matrix (``confusion``): O_ij counts the pairs graded ``grades[i]`` by ``first``
        and ``grades[j]`` by ``second``; N = Σ O is the number of pairs,
      - r_i = Σ_j O_ij, c_j = Σ_i O_ij are each set's counts of each grade,
      - p_o is the raw agreement (``raw``), p_e the agreement expected by chance from the margins
        (``expected``), κ Cohen's kappa, κ_w the quadratic-weighted kappa,
      - i, j are positions in ``grades`` (default: every grade either set uses, sorted), K = len(grades);
        pass ``grades=range(4)`` to keep the 0..3 scale when a grade goes unused.

    The intervals (``intervals["raw"]``, ``["kappa"]``, ``["kappa_quadratic"]``) are percentile bootstrap
    intervals over questions: each of ``n_resamples`` resamples draws the questions with replacement
    (numpy ``default_rng(seed)``, as :func:`ragmath.stats.bootstrap_interval` draws them), pools the pairs
    of the questions drawn (a question drawn twice counts twice) and recomputes the statistic; the
    interval is the (1 − c)/2 and (1 + c)/2 quantiles. Pairs of one question are not independent (one
    labeller, one reading of the question), so questions, not pairs, are resampled.

    κ undefined: when p_e = 1 (both sets give every pair the same single grade) κ is 0/0; it is None, not
    NaN, and ``notes`` says so (raw agreement is still given). Resamples in which κ is undefined are left
    out of its interval and counted in ``undefined_resamples`` (a note when any are).

    Pairs: ``pairs="same"`` (default) refuses two sets whose pairs differ, naming the pairs each lacks;
    ``pairs="common"`` scores the pairs both have and lists the others in ``only_first`` and
    ``only_second`` (and a note). A question appears once in each set's mapping.

    ``first`` and ``second`` map question -> {item: grade} (whole numbers), or are qrels files or tables
    (:func:`ragmath.io.read_qrels`).

    >>> a = {"q1": {"d1": 1, "d2": 0, "d3": 1}, "q2": {"d1": 0, "d4": 1}}
    >>> b = {"q1": {"d1": 1, "d2": 1, "d3": 1}, "q2": {"d1": 0, "d4": 1}}
    >>> result = label_agreement(a, b, n_resamples=2000)
    >>> result.raw, result.confusion.tolist(), round(result.kappa, 4)
    (0.8, [[1, 1], [0, 3]], 0.5455)

    Raises ``ValueError`` for pairs in one set but not the other (``pairs="same"``), no common pair, a
    grade that is not a whole number or not among ``grades``, confidence outside (0, 1), and
    ``n_resamples`` outside 1 .. :data:`ragmath.stats.MAX_RESAMPLES`.
    """
    if pairs not in ("same", "common"):
        raise ValueError(f"pairs must be 'same' (refuse pairs only one set has) or 'common' (score the pairs "
                         f"both have), got {pairs!r}")
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real) or not 0 < confidence < 1:
        raise ValueError(f"confidence must be a fraction strictly between 0 and 1, e.g. 0.95, "
                         f"got {confidence!r}")
    total = check_resamples(n_resamples)
    one, two = _pairs(_as_labels(first, "first"), "first"), _pairs(_as_labels(second, "second"), "second")
    only_first = sorted(set(one) - set(two))
    only_second = sorted(set(two) - set(one))
    notes = []
    if (only_first or only_second) and pairs == "same":
        raise ValueError(
            f"the two label sets grade different (question, item) pairs: only in the first {len(only_first)} "
            f"({_shown(only_first) or 'none'}), only in the second {len(only_second)} "
            f"({_shown(only_second) or 'none'}); agreement needs the same pairs: label the missing ones, "
            "or pass pairs='common' to score the pairs both have")
    if only_first or only_second:
        notes.append(f"scored the pairs both sets grade; left out the pairs only one set grades: "
                     f"{len(only_first)} only in the first, {len(only_second)} only in the second")
    common = [key for key in one if key in two]
    if not common:
        raise ValueError("the two label sets share no (question, item) pair: nothing to compare")
    used = sorted({one[k] for k in common} | {two[k] for k in common})
    scale = used if grades is None else [int(g) for g in grades]
    if len(set(scale)) != len(scale) or scale != sorted(scale):
        raise ValueError(f"grades must be distinct and ascending, e.g. range(4), got {list(scale)}")
    outside = [g for g in used if g not in scale]
    if outside:
        raise ValueError(f"grade {outside[0]} is used but not among grades={list(scale)}; add it")
    position = {g: i for i, g in enumerate(scale)}
    k = len(scale)
    questions = list(dict.fromkeys(q for q, _ in common))
    index = {q: i for i, q in enumerate(questions)}
    per_question = np.zeros((len(questions), k * k))
    for key in common:
        per_question[index[key[0]], position[one[key]] * k + position[two[key]]] += 1
    confusion = per_question.sum(axis=0).reshape(k, k)
    raw, expected, kappa, weighted = kappas(confusion)
    if kappa is None:
        notes.append(f"Cohen's kappa is undefined: both sets give all {len(common)} pairs the grade "
                     f"{used[0]}, so chance agreement p_e is 1 and kappa is 0/0 (raw agreement {raw:g})"
                     if len(used) == 1 else "Cohen's kappa is undefined: chance agreement p_e is 1")
    if weighted is None and kappa is not None:
        notes.append("the quadratic-weighted kappa is undefined: its expected disagreement is 0")

    rng, step = np.random.default_rng(seed), max(1, _BLOCK // len(questions))
    values: dict[str, list[np.ndarray]] = {"raw": [], "kappa": [], "kappa_quadratic": []}
    for start in range(0, total, step):
        picks = rng.integers(0, len(questions), size=(min(step, total - start), len(questions)))
        drawn = np.zeros((len(picks), len(questions)))
        np.add.at(drawn, (np.arange(len(picks))[:, None], picks), 1)
        r, _, kap, kw = _kappas((drawn @ per_question).reshape(len(picks), k, k))
        values["raw"].append(r)
        values["kappa"].append(kap)
        values["kappa_quadratic"].append(kw)
    intervals: dict[str, tuple[float, float] | None] = {}
    undefined: dict[str, int] = {}
    for name, drawn_values in values.items():
        every = np.concatenate(drawn_values)
        kept = every[~np.isnan(every)]
        undefined[name] = total - kept.size
        if kept.size:
            low, high = np.quantile(kept, [(1 - confidence) / 2, (1 + confidence) / 2])
            intervals[name] = (float(low), float(high))
        else:
            intervals[name] = None
        if undefined[name] and (name != "kappa" or kappa is not None) and \
                (name != "kappa_quadratic" or weighted is not None):
            notes.append(f"{name}: {undefined[name]} of {total} resamples gave every pair one grade (kappa "
                         f"undefined there); its interval is over the other {kept.size}")
    return Agreement(pairs=len(common), questions=len(questions), grades=tuple(scale),
                     confusion=confusion.astype(int), raw=raw, expected=expected, kappa=kappa,
                     kappa_quadratic=weighted, intervals=intervals, confidence=float(confidence), seed=seed,
                     resamples=total, undefined_resamples=undefined, only_first=only_first,
                     only_second=only_second, notes=notes)


def agreement_sample(labels: Mapping[str, Mapping[str, int]], n: int = 48, *,
                     seed: int = 0) -> list[tuple[str, str]]:
    """The (question, item) pairs to label a second time, drawn by a stated rule: half among the pairs the
    first labels grade relevant (grade ≥ 1), half among those graded 0, each half drawn without replacement
    by numpy ``default_rng(seed)``; sorted by question, then item.

    Why half and half: a pool is mostly 0s, and a uniform draw of 48 from it holds a handful of relevant
    pairs, too few for κ to say anything about the grades that decide a score. When one kind has fewer
    pairs than its half, all of them are taken and the other kind fills the rest.

    >>> agreement_sample({"q1": {"a": 2, "b": 0}, "q2": {"c": 0, "d": 1}}, 4)  # every pair, sorted
    [('q1', 'a'), ('q1', 'b'), ('q2', 'c'), ('q2', 'd')]
    >>> first = {f"q{k}": {"rel": 1, "x": 0, "y": 0, "z": 0} for k in range(10)}  # 10 relevant, 30 zeros
    >>> sample = agreement_sample(first, 12)
    >>> len(sample), sum(item == "rel" for _, item in sample)  # half and half
    (12, 6)
    >>> sum(item == "r" for _, item in agreement_sample({"q1": {"r": 1, "a": 0, "b": 0, "c": 0}}, 4))
    1

    Raises ``ValueError`` when ``n`` is not a whole number from 2 to the number of labelled pairs.
    """
    pairs = sorted((str(q), str(i), int(g)) for q, items in labels.items() for i, g in items.items())
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or not 2 <= n <= len(pairs):
        raise ValueError(f"agreement_sample: n must be a whole number from 2 to the {len(pairs)} labelled "
                         f"pairs; got {n!r}")
    relevant = [(q, i) for q, i, g in pairs if g >= 1]
    zero = [(q, i) for q, i, g in pairs if g < 1]
    take_relevant = min(len(relevant), max(n // 2, n - len(zero)))
    rng = np.random.default_rng(seed)
    chosen = [relevant[k] for k in rng.choice(len(relevant), take_relevant, replace=False)]
    chosen += [zero[k] for k in rng.choice(len(zero), n - take_relevant, replace=False)]
    return sorted(chosen)
