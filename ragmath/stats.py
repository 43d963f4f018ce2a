"""Honest uncertainty: Wilson intervals, bootstrap over questions, and a grouped dev/holdout split.

The unit of sampling is the question. Three generations of one question are one sample, not three:
resample questions, never generations.
"""

from __future__ import annotations

import math
import numbers
import sys
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, TypeVar

import numpy as np

__all__ = ["wilson_interval", "bootstrap_interval", "paired_bootstrap", "PairedBootstrap", "grouped_split",
           "sign_flip_p", "holm", "plan_questions", "EXACT_UP_TO",
           "MAX_RESAMPLES", "check_resamples"]

T = TypeVar("T")

#: The most bootstrap resamples accepted: each resample's mean is kept, 8 bytes each (80 MB).
MAX_RESAMPLES = 10_000_000
_BLOCK = 1_000_000  # picks drawn at a time (8 MB), whatever the resamples and the questions


def _fraction(value: Any, name: str, example: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 < value < 1:
        raise ValueError(f"{name} must be a fraction strictly between 0 and 1, e.g. {example}, got {value!r}")
    return float(value)


def _whole(value: Any, name: str, low: int, high: int | None = None, why: str = "") -> int:
    """``value`` as an int from ``low`` to ``high`` (None: no limit), else an error stating the range."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a whole number, got {value!r} of type {type(value).__name__}")
    if value < low or (high is not None and value > high):
        limit = f"at least {low:,}" if high is None else f"from {low:,} to at most {high:,}{why}"
        raise ValueError(f"{name} must be {limit}, got {value!r}")
    return int(value)


def check_resamples(n_resamples: Any) -> int:
    """``n_resamples`` if it is a whole number from 1 to :data:`MAX_RESAMPLES`, else an error saying so.

    >>> check_resamples(10_000)
    10000
    """
    return _whole(n_resamples, "n_resamples", 1, MAX_RESAMPLES, " (the bootstrap keeps each resample's mean)")


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``successes / n``.

    centre = (p + z²/2n) / (1 + z²/n),  half-width = z √(p(1 − p)/n + z²/4n²) / (1 + z²/n)

    where
      - p = successes / n is the observed rate,
      - z is the standard normal quantile for the two-sided ``confidence`` (1.96 for 0.95).

    Unlike the normal (Wald) interval it stays inside [0, 1] and is usable for small n.

    >>> low, high = wilson_interval(24, 30)
    >>> round(low, 3), round(high, 3)
    (0.627, 0.905)

    Raises ``ValueError`` unless 0 <= successes <= n, n >= 1 (no upper limit) and 0 < confidence < 1.
    """
    n = _whole(n, "n", 1)
    successes = _whole(successes, "successes", 0, n, " (n, the number of trials)")
    z = NormalDist().inv_cdf(1 - (1 - _fraction(confidence, "confidence", "0.95")) / 2)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # At 0 or n successes the bound is exactly 0 or 1; floating point would leave a residue of 1e-17.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def _as_values(values: Any, name: str) -> np.ndarray:
    """A new float array of per-question values; NaN and ±inf refused with their position."""
    if isinstance(values, (str, bytes, Mapping)):
        raise TypeError(f"{name} must be a sequence of per-question numbers, got {type(values).__name__}")
    array = np.array(values if hasattr(values, "__array__") else list(values), dtype=float)
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D sequence of per-question numbers")
    bad = np.flatnonzero(~np.isfinite(array))
    if bad.size:
        at, word = int(bad[0]), "NaN" if math.isnan(array[bad[0]]) else repr(float(array[bad[0]]))
        label = "" if callable(getattr(values, "index", len)) else f" (question {values.index[at]!r})"
        raise ValueError(f"{name} holds {word} at position {at}{label}, counting from 0: each value must "
                         "be a finite number; drop undefined questions (e.g. no-answer ones) first, and say "
                         "so")
    return array


def _bootstrap(values: np.ndarray, n_resamples: Any, confidence: Any, seed: int) -> tuple:
    """The means of resamples with replacement (``default_rng(seed)``) and their percentile interval.

    Drawn a block of resamples at a time from one generator: the same numbers as one draw of
    ``(n_resamples, n)`` picks, in memory that does not grow with resamples × questions. The means
    returned are those of ``values / 2^p`` (:func:`_headroom`: no overflow, p = 0 unless a sum could
    overflow); low and high are in the values' own scale.
    """
    level = _fraction(confidence, "confidence", "0.95")
    total = check_resamples(n_resamples)
    power = _headroom(values)
    values = np.ldexp(values, -power)
    rng, means, step = np.random.default_rng(seed), np.empty(total), max(1, _BLOCK // values.size)
    for start in range(0, total, step):
        picks = rng.integers(0, values.size, size=(min(step, total - start), values.size))
        means[start:start + len(picks)] = values[picks].mean(axis=1)
    low, high = np.ldexp(np.quantile(means, [(1 - level) / 2, (1 + level) / 2]), power)
    return means, float(low), float(high)


def _power(values: np.ndarray) -> int:
    """The power of two p with max |v| / 2^p in [0.5, 1) (0 for all zeros).

    Means, quantiles and sums of ``values / 2^p`` cannot overflow (a mean of 1e308 and 1e308 is inf
    in float64), and scaling by a power of two is exact: for any values that did not overflow before,
    the results times 2^p are the same numbers, bit for bit.
    """
    largest = float(np.max(np.abs(values))) if values.size else 0.0
    return math.frexp(largest)[1]


def _headroom(values: np.ndarray) -> int:
    """The least power of two p >= 0 such that a sum of ``values / 2^p`` cannot overflow.

    With max |v| < 2^e and n values, every partial sum is below n · 2^e < 2^(e + bits(n)), so
    p = max(0, e + bits(n) − 1023). For any values whose sum fits in a float, p = 0 and means are
    numpy's own, bit for bit; scaling only where a sum would overflow keeps small values exact (scaling
    1e300, −1e300 and 1e-10 to [0.5, 1) would push 1e-10 into the subnormals and lose 14 digits of
    their mean).
    """
    largest = float(np.max(np.abs(values))) if values.size else 0.0
    return max(0, math.frexp(largest)[1] + int(values.size).bit_length() - 1023)


def _mean(values: np.ndarray) -> float:
    """The mean of finite values, itself finite (computed on values / 2^p, see :func:`_headroom`)."""
    power = _headroom(values)
    return math.ldexp(float(np.ldexp(values, -power).mean()), power)


def bootstrap_interval(
    values: Sequence[float],
    *,
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> tuple[float, float, float]:
    """Mean of per-question values and its percentile bootstrap interval, resampling questions.

    Returns (mean, low, high), where low and high are the (1 − c)/2 and (1 + c)/2 quantiles of the means
    of ``n_resamples`` resamples of the questions with replacement (numpy ``default_rng(seed)``).

    >>> mean, low, high = bootstrap_interval([1, 1, 0, 1], n_resamples=2000, seed=1)
    >>> mean, low <= mean <= high
    (0.75, True)

    Raises ``ValueError`` for an empty sequence, NaN or infinite values (naming the first's position),
    or more than :data:`MAX_RESAMPLES` resamples.
    """
    array = _as_values(values, "values")
    _, low, high = _bootstrap(array, n_resamples, confidence, seed)
    return _mean(array), low, high


@dataclass(frozen=True)
class PairedBootstrap:
    """Result of :func:`paired_bootstrap`: mean difference b − a, its interval and a two-sided p-value."""

    mean_diff: float
    low: float
    high: float
    p_value: float
    n: int

    def excludes_zero(self) -> bool:
        """Whether the interval leaves out 0 (the two versions can be told apart at this confidence)."""
        return self.low > 0 or self.high < 0


def paired_bootstrap(
    a: Sequence[float],
    b: Sequence[float],
    *,
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> PairedBootstrap:
    """Paired bootstrap of the difference b − a over the same questions.

    p_value = max(min(1, 2^(1 − m)), min(1, 2 · min(share ≤ 0, share ≥ 0)))

    where
      - each of ``n_resamples`` resamples draws questions with replacement and takes mean(b − a) over
        them; the interval is the percentile interval of those means, the shares are theirs,
      - m is the number of non-zero differences: 2^(1 − m) is the smallest p the paired sign-flip test
        (:func:`ragmath.comparison.sign_flip_p`) can give, so one question gives p = 1, never 0.

    ``a`` and ``b`` are per-question values in the same question order, or two pandas Series, aligned
    on their index (which must hold the same questions).

    >>> result = paired_bootstrap([0, 0, 1, 1], [1, 1, 1, 1], n_resamples=2000)
    >>> result.mean_diff, result.p_value
    (0.5, 0.5)

    Raises ``ValueError`` when the lengths or the Series' questions differ, for NaN or infinite values, or
    for a difference b − a beyond the largest float (e.g. 1e308 − (−1e308)), naming its position.
    """
    pandas = sys.modules.get("pandas")
    if pandas is not None and isinstance(a, pandas.Series) and isinstance(b, pandas.Series):
        if set(a.index) != set(b.index) or len(a) != len(b):
            raise ValueError("a and b must hold the same questions (their Series indexes differ)")
        b = b.loc[a.index]
    first, second = _as_values(a, "a"), _as_values(b, "b")
    if first.size != second.size:
        raise ValueError(f"a and b must score the same questions: {first.size} values vs {second.size}")
    with np.errstate(over="ignore"):
        diff = second - first
    beyond = np.flatnonzero(~np.isfinite(diff))
    if beyond.size:
        at = int(beyond[0])
        raise ValueError(f"b - a at position {at}, counting from 0, is {float(second[at])!r} - "
                         f"{float(first[at])!r}, beyond the largest float (1.8e308): the differences "
                         f"cannot be represented; put both on a smaller scale first (divide a and b by "
                         f"one constant: the p-value does not change)")
    means, low, high = _bootstrap(diff, n_resamples, confidence, seed)
    share = min(float(np.mean(means <= 0)), float(np.mean(means >= 0)))
    floor = min(1.0, math.ldexp(1.0, 1 - int(np.count_nonzero(diff))))
    return PairedBootstrap(_mean(diff), low, high, max(floor, min(1.0, 2 * share)), int(diff.size))


def grouped_split(
    items: Sequence[T],
    group: Callable[[T], Hashable] | Mapping[Any, Hashable],
    *,
    holdout: float = 0.3,
    seed: int = 0,
) -> tuple[list[T], list[T]]:
    """Split items into (dev, holdout) by whole groups, so no group is on both sides.

    Groups (e.g. where the answer lives: document + clause) are sorted, shuffled with numpy
    ``default_rng(seed)``, and taken into holdout one whole group at a time until holdout holds at least
    ``holdout`` × len(items) items. Both lists keep the input order.

    >>> questions = ["q1", "q2", "q3", "q4"]
    >>> where = {"q1": "4.2", "q2": "4.2", "q3": "5.1", "q4": "7.3"}
    >>> dev, hold = grouped_split(questions, where, holdout=0.25, seed=0)
    >>> sorted(dev + hold) == questions and not ({where[q] for q in dev} & {where[q] for q in hold})
    True

    ``group`` is a callable item -> group key or a mapping item -> group key. Raises ``ValueError`` for
    a holdout fraction outside (0, 1), fewer than two groups, or an item the mapping does not cover.
    """
    _fraction(holdout, "holdout", "0.3")
    members = list(items)
    if isinstance(group, Mapping):
        missing = [item for item in members if item not in group]
        if missing:
            raise ValueError(f"grouped_split: no group given for item {missing[0]!r}; map every item")
        key_of = group.__getitem__
    elif callable(group):
        key_of = group
    else:
        raise TypeError("group must be a callable item -> group key, or a mapping item -> group key")
    keys = [key_of(item) for item in members]
    groups = sorted(set(keys), key=str)
    if len(groups) < 2:
        raise ValueError(f"grouped_split needs at least two groups to split, got {len(groups)}")
    sizes = Counter(keys)
    order = np.random.default_rng(seed).permutation(len(groups))
    target = holdout * len(members)
    held: set[Hashable] = set()
    count = 0
    for index in order:
        if count >= target or len(held) == len(groups) - 1:
            break
        held.add(groups[index])
        count += sizes[groups[index]]
    dev = [item for item, key in zip(members, keys, strict=True) if key not in held]
    hold = [item for item, key in zip(members, keys, strict=True) if key in held]
    return dev, hold


#: Up to this many non-zero differences the sign-flip test enumerates every assignment (2^20 ≈ 10^6).
EXACT_UP_TO = 20


def sign_flip_p(diffs: Sequence[float], *, n_resamples: int = 10_000, seed: int = 0) -> tuple[float, str]:
    """Two-sided paired randomization test of mean difference 0: ``(p, how it was computed)``.

    p = |{s : |Σ s_i d_i| ≥ |Σ d_i|}| / |S|

    where
      - d_i is question i's difference (a zero flips to itself: it adds nothing but counts in n),
      - s runs over every sign vector in {-1, +1}^m of the m non-zero differences when m ≤ EXACT_UP_TO
        (exact; the identity counts, so p ≥ 2^-m), else over ``n_resamples`` seeded random sign
        vectors plus the observed one, p = (1 + hits) / (1 + n_resamples).

    >>> sign_flip_p([0.5, 0.25, 0.0])
    (0.5, 'exact: all 4 sign flips of 2 non-zero differences')

    With no non-zero difference, p is 1. Raises ``ValueError`` for a NaN or infinite difference,
    naming its position.
    """
    d = _as_values(diffs, "sign_flip_p: diffs") if len(diffs) else np.zeros(0)
    d = d[d != 0]
    d = np.ldexp(d, -_power(d))  # p does not change with the scale; exact, and no sum can overflow
    # A sum of m terms computed in floats is off by at most (m - 1)·eps·Σ|d_i|, so a flip's sum within
    # 2·m·eps·Σ|d_i| of the observed one counts as equal to it: a tolerance relative to the differences
    # (0.1 + 0.2 - 0.3 is 5.6e-17, not 0), never absolute (six differences of 1e-10 sum to 6e-10).
    observed = abs(d.sum()) - 2 * d.size * np.finfo(float).eps * float(np.abs(d).sum())
    if d.size <= EXACT_UP_TO:  # sums of both halves' sign vectors, combined: 2^m totals in 2 * 2^(m/2) work
        half = d.size // 2
        parts = [_all_sums(d[:half]), _all_sums(d[half:])]
        hits = int((np.abs(parts[0][:, None] + parts[1][None, :]) >= observed).sum())
        total = 2 ** d.size
        return hits / total, f"exact: all {total:,} sign flips of {d.size} non-zero differences"
    rng, hits = np.random.default_rng(seed), 0
    for start in range(0, check_resamples(n_resamples), 2_000):  # 2,000 sign vectors at a time
        signs = rng.choice([-1.0, 1.0], size=(min(2_000, n_resamples - start), d.size))
        hits += int((np.abs(signs @ d) >= observed).sum())
    return (1 + hits) / (1 + n_resamples), f"{n_resamples:,} random sign flips (seed {seed})"


def _all_sums(values: np.ndarray) -> np.ndarray:
    sums = np.zeros(1)
    for v in values:
        sums = np.concatenate([sums + v, sums - v])
    return sums


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the input order (family-wise error over all of them).

    p_holm(i) = max_{j ≤ i} min(1, (m − j + 1) · p_(j))

    where p_(1) ≤ ... ≤ p_(m) are the m p-values sorted (ties kept in input order).

    >>> [round(p, 6) for p in holm([0.01, 0.04, 0.03])]
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p_values, dtype=float)
    order = np.argsort(p, kind="stable")
    steps = np.minimum(1.0, (len(p) - np.arange(len(p))) * p[order])
    adjusted = np.empty_like(p)
    adjusted[order] = np.maximum.accumulate(steps)
    return [float(v) for v in adjusted]


def plan_questions(diffs: Sequence[float], d: float, *, power: float = 0.8, alpha: float = 0.05) -> int:
    """How many questions a paired comparison needs to detect a mean difference ``d``.

    n = ⌈((z_{1−α/2} + z_{power}) · σ_d / d)²⌉

    where
      - σ_d is the standard deviation (n − 1) of a pilot's per-question paired differences ``diffs``,
      - z_p is the standard normal quantile, α the two-sided level, ``power`` = 1 − β.

    Assumptions: new questions are drawn like the pilot's (σ_d carries over) and independently, and the
    mean difference is near normal (a z test with σ_d known; a t test needs a question or two more).
    Skewed differences (many zeros, a few large gains) can move the power reached by several points,
    and a pilot of a few dozen questions estimates σ_d loosely: read n as an order of magnitude.

    >>> plan_questions([0.2, -0.1, 0.3, 0.0, 0.1], 0.1)
    20

    Raises ``ValueError`` unless d ≠ 0, 0 < alpha, power < 1 and the pilot has two or more finite
    values that are not all equal (zero variance: the formula would answer 2 whatever d is), and when d
    is so small that n is beyond the largest float (about 1.8e308; a smaller n, however huge, is
    returned as the whole number it is). n depends on the pilot and d only through σ_d / d, and is
    computed so: σ_d of the pilot divided by 2^e (max |diff| < 2^e, exact), then σ_d / d as mantissa and
    exponent, so a pilot and d scaled together give the same n even where the pilot's squares would
    overflow (1e200) or underflow (1e-200).
    """
    values = _as_values(diffs, "plan_questions: diffs")
    if values.size < 2:
        raise ValueError("diffs must hold at least two per-question differences from a pilot")
    if not (0 < alpha < 1 and 0 < power < 1) or not d or not math.isfinite(d):
        raise ValueError(f"need d != 0 and 0 < alpha, power < 1; got d={d!r}, alpha={alpha!r}, "
                         f"power={power!r}")
    exponent = _power(values)
    scaled = float(np.ldexp(values, -exponent).std(ddof=1))  # σ_d / 2^e: squares of numbers in [0, 1)
    with np.errstate(over="ignore"):
        spread = float(np.ldexp(scaled, exponent))  # for messages only (inf beyond the largest float)
    if scaled == 0:
        raise ValueError(
            f"every difference of the pilot is {float(values[0])!r}: their standard deviation is 0, so this "
            f"formula would promise any difference with 2 questions. A pilot whose versions never disagree "
            f"says nothing about how they vary; run a larger pilot or questions where they differ")
    z = NormalDist().inv_cdf(1 - alpha / 2) + NormalDist().inv_cdf(power)
    mantissa, d_exponent = math.frexp(abs(d))
    try:  # ((z · σ_d / d))² = (z · (σ_d / 2^e) / m)² · 2^(2(e − k)) with |d| = m · 2^k, m in [0.5, 1)
        n = math.ldexp((z * scaled / mantissa) ** 2, 2 * (exponent - d_exponent))
    except OverflowError:
        n = math.inf
    if not math.isfinite(n):
        raise ValueError(
            f"d={d!r} is too small beside the pilot's spread (standard deviation {spread:.3g}): the number "
            f"of questions, ((z + z_power) · sd / d)^2, is beyond the largest float (1.8e308); no real "
            f"set of questions detects such a difference. Plan for the smallest difference that matters")
    return max(2, math.ceil(n))
