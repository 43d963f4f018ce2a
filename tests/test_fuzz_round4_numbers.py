"""The fourth fuzzing round, numbers: score fusion and the statistics at the ends of the float range.

A20-A23, D2, ``bootstrap_interval([1e308, 1e308])`` and ``plan_questions(d=1e-300)`` were fixed in
round 3 (tests/test_fuzz_round3.py); the tests here check the same properties against independent
references (exact integer arithmetic, numpy, scipy) and the cases round 3 left: a pilot or a pair of
runs whose squares or differences overflow or underflow, a mean of cancelling huge values, and
weights whose fused sum is beyond the largest float. Expected values are worked by hand or by the
reference named beside them, never copied from the code under test.

7 of 28 items failed on main before this round's fixes: the weights test, the bootstrap precision
test, the paired-differences test and plan_questions at scales 1e-200, 2^-1070, 1e200 and 1e308.
On the code before round 3's fixes (commit 39a4a7f) 19 of 28 fail. All 28 pass now.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats as scipy_stats

from ragmath.score_fusion import fuse_scores
from ragmath.stats import bootstrap_interval, paired_bootstrap, plan_questions, sign_flip_p

SCALES = [2.0 ** -1000, 1e-200, 2.0 ** -30, 1.0, 1e200, 2.0 ** 1000]


def _fused(lists, norm, weights=None):
    table = fuse_scores(lists, norm, weights)
    return dict(zip(table["id"], (float(v) for v in table["fused_score"]), strict=True))


# ----------------------------------------------------------------------------------- score fusion
# A20-A21: one list's normalised scores do not change when its scores are multiplied by a positive
# constant; the reference is numpy / scipy on the unscaled list.
RAW = np.array([3.0, -2.5, 1.25, 0.5, 7.0])
IDS = list("abcde")


@pytest.mark.parametrize("scale", SCALES)
def test_l2_of_a_scaled_list_is_the_unscaled_list_over_its_numpy_norm(scale):
    got = _fused({"x": dict(zip(IDS, RAW * scale, strict=True))}, "l2")
    expected = RAW / np.linalg.norm(RAW)
    assert [got[i] for i in IDS] == pytest.approx(list(expected), rel=1e-14)


@pytest.mark.parametrize("scale", SCALES)
def test_z_score_of_a_scaled_list_is_scipys_z_score_of_the_unscaled_list(scale):
    got = _fused({"x": dict(zip(IDS, RAW * scale, strict=True))}, "z-score")
    expected = scipy_stats.zscore(RAW)  # population sd (ddof=0), ranx's zmuv
    assert [got[i] for i in IDS] == pytest.approx(list(expected), rel=1e-14, abs=1e-15)


# A22: (s - min) / (max - min) over [1.5e308, 0, -1.5e308]: 1, 1/2, 0, although max - min is 3e308
def test_min_max_wider_than_the_float_range_is_finite():
    assert _fused({"x": {"a": 1.5e308, "b": 0.0, "c": -1.5e308}}, "min-max") == {"a": 1.0, "b": 0.5, "c": 0.0}


# A23: scores one ulp apart: (1 + 2u, 1 + u, 1) is (2, 1, 0)·u + 1, so its z-scores are those of
# (2, 1, 0): ±sqrt(3/2) and 0 (mean 1, population sd sqrt(2/3))
def test_z_score_of_three_consecutive_floats_is_that_of_0_1_2():
    one = 1.0
    ups = [one, float(np.nextafter(one, 2.0))]
    ups.append(float(np.nextafter(ups[1], 2.0)))
    got = _fused({"x": {"a": ups[2], "b": ups[1], "c": ups[0]}}, "z-score")
    assert got["a"] == pytest.approx(math.sqrt(1.5), rel=1e-14)
    assert got["b"] == pytest.approx(0.0, abs=1e-15)
    assert got["c"] == pytest.approx(-math.sqrt(1.5), rel=1e-14)


# Weights whose fused sum is beyond the largest float: with weights 1e308 and 1e308, a = 1e308·(1 + 1)
# and c = 1e308·(1 + 0.9) are both beyond 1.8e308; as inf they would tie and be ordered by ID, which
# is not their order. Only the weights' ratios matter, so a clear refusal is the answer.
def test_weights_whose_fused_scores_overflow_are_refused():
    lists = {"x": {"a": 1.0, "c": 1.0, "b": 0.0}, "y": {"a": 1.0, "c": 0.9, "b": 0.0}}
    with pytest.raises(ValueError, match="weights"):
        fuse_scores(lists, "min-max", weights=[1e308, 1e308])
    # the same ratios, scaled down, give the order a (2), c (1.9), b (0)
    assert list(fuse_scores(lists, "min-max", weights=[1.0, 1.0])["id"]) == ["a", "c", "b"]


# ----------------------------------------------------------------------------------- statistics
def _exact_sign_flip_p(ints):
    """p by enumerating every sign vector in exact integer arithmetic (zeros dropped, as documented)."""
    nonzero = [k for k in ints if k]
    observed = abs(sum(nonzero))
    flips = list(itertools.product((-1, 1), repeat=len(nonzero)))
    return sum(abs(sum(s * k for s, k in zip(signs, nonzero, strict=True))) >= observed
               for signs in flips) / len(flips)


# D2: differences k_i · 2^s with small integers k_i are exact floats, and so are all their signed sums;
# p must be the exact-arithmetic p whatever the scale 2^s (an absolute tolerance of 1e-9 counts
# every flip of differences of 2^-30 ≈ 9.3e-10 as reaching the observed sum).
@pytest.mark.parametrize("scale", [2.0 ** -1060, 2.0 ** -500, 2.0 ** -30, 1.0, 2.0 ** 30, 2.0 ** 1000])
def test_sign_flip_p_of_exact_differences_is_the_exact_p_at_any_scale(scale):
    rng = np.random.default_rng(36)
    for _ in range(40):
        ints = [int(k) for k in rng.integers(-4, 5, size=int(rng.integers(1, 9)))]
        expected = _exact_sign_flip_p(ints) if any(ints) else 1.0
        assert sign_flip_p([k * scale for k in ints])[0] == expected, (ints, scale)


# bootstrap_interval: the mean of 1e300, -1e300 and 1e-10 is 1e-10 / 3 (math.fsum is exact, then one
# rounding); a mean of finite values must be finite, and also no less exact than numpy's own mean
# where that one does not overflow
def test_bootstrap_mean_of_cancelling_huge_values_keeps_full_precision():
    values = [1e300, -1e300, 1e-10]
    assert bootstrap_interval(values)[0] == math.fsum(values) / 3 == 1e-10 / 3
    # the mean of three 1.7e308 is 1.7e308; (x + x + x) / 3 in floats may be an ulp off, as numpy's
    # mean of three 1.7 is, so within 2 ulps and finite
    mean = bootstrap_interval([1.7e308, 1.7e308, 1.7e308])[0]
    assert math.isfinite(mean) and mean == pytest.approx(1.7e308, rel=4.5e-16)


# paired_bootstrap: b - a of -1e308 and 1e308 is 2e308, beyond the largest float: an inf mean and a
# NaN bound are not an answer; refused naming the position, or answered finitely
def test_paired_bootstrap_whose_differences_overflow_is_refused_by_position():
    with pytest.raises(ValueError, match="position 1"):
        paired_bootstrap([0.0, -1e308, 0.0], [1.0, 1e308, 1.0])


# plan_questions: n = ⌈((z_.975 + z_.8) · sd / d)²⌉ does not change when the pilot and d are scaled
# together. Pilot (1, -1, 0): sd (n - 1) = 1; z = 1.959964 + 0.841621 = 2.801585; with d = 1,
# n = ⌈7.849⌉ = 8. Squares of 1e200 overflow and of 1e-200 underflow (the pilot is not constant).
@pytest.mark.parametrize("scale", [1e-200, 2.0 ** -1070, 1.0, 1e200, 1e308])
def test_plan_questions_of_a_pilot_and_d_scaled_together_is_the_same(scale):
    z = 1.959963984540054 + 0.8416212335729143
    assert math.ceil(z * z) == 8
    assert plan_questions([1.0 * scale, -1.0 * scale, 0.0], 1.0 * scale) == 8
