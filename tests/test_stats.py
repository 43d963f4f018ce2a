"""Intervals and the grouped split."""

import numpy as np
import pytest

from ragmath import bootstrap_interval, grouped_split, paired_bootstrap, wilson_interval


def test_wilson_all_successes_stays_below_one():
    low, high = wilson_interval(30, 30)
    assert high == 1.0 and 0.88 < low < 0.89  # z²/(n+z²) = 3.8415/33.8415 → low ≈ 0.8865


def test_wilson_zero_successes():
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(3.8414588 / 13.8414588, abs=1e-6)


def test_wilson_wider_at_higher_confidence():
    narrow = wilson_interval(24, 30, 0.90)
    wide = wilson_interval(24, 30, 0.99)
    assert wide[0] < narrow[0] and wide[1] > narrow[1]


def test_bootstrap_is_deterministic_for_a_seed():
    values = [1, 0, 1, 1, 0, 1, 1, 1]
    assert bootstrap_interval(values, seed=3) == bootstrap_interval(values, seed=3)


def test_bootstrap_of_constant_values_is_a_point():
    assert bootstrap_interval([0.5] * 10, n_resamples=100) == (0.5, 0.5, 0.5)


def test_paired_bootstrap_detects_a_clear_difference():
    rng = np.random.default_rng(0)
    a = rng.uniform(0, 0.5, 60)
    result = paired_bootstrap(a, a + 0.3, n_resamples=2000)
    assert result.mean_diff == pytest.approx(0.3)
    # no resampled mean reaches 0: p is the sign-flip floor of 60 non-zero differences, 2 / 2^60, not 0
    assert result.excludes_zero() and result.p_value == 2 / 2**60


def test_paired_bootstrap_of_identical_versions_cannot_tell_apart():
    a = [1, 0, 1, 0, 1]
    result = paired_bootstrap(a, a, n_resamples=500)
    assert (result.mean_diff, result.low, result.high, result.p_value) == (0.0, 0.0, 0.0, 1.0)
    assert not result.excludes_zero()


def test_paired_bootstrap_aligns_series_by_question():
    import pandas as pd

    a = pd.Series({"q1": 0.0, "q2": 1.0})
    b = pd.Series({"q2": 1.0, "q1": 1.0})
    assert paired_bootstrap(a, b, n_resamples=100).mean_diff == 0.5


def test_grouped_split_never_straddles_and_is_deterministic():
    items = [f"q{i}" for i in range(40)]
    group = {item: f"g{i // 3}" for i, item in enumerate(items)}
    dev, hold = grouped_split(items, group, holdout=0.3, seed=7)
    assert not {group[q] for q in dev} & {group[q] for q in hold}
    assert sorted(dev + hold) == sorted(items)
    assert len(hold) >= 12
    assert (dev, hold) == grouped_split(items, group, holdout=0.3, seed=7)


def test_grouped_split_accepts_a_callable():
    dev, hold = grouped_split(list(range(10)), lambda n: n % 5, holdout=0.4, seed=0)
    assert not {n % 5 for n in dev} & {n % 5 for n in hold}
    assert len(hold) == 4


def test_grouped_split_keeps_input_order():
    items = ["c", "a", "b", "d"]
    dev, hold = grouped_split(items, {"c": 1, "a": 2, "b": 1, "d": 3}, holdout=0.5, seed=1)
    assert dev == [i for i in items if i in dev] and hold == [i for i in items if i in hold]
