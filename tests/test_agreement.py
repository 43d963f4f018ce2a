"""Agreement between two label sets (ragmath.agreement): hand-worked κ, scikit-learn as the reference, the
bootstrap over questions, and what is refused or undefined."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from ragmath import label_agreement
from ragmath.agreement import agreement_sample, kappas


def _sets(cells: dict[tuple[int, int], int], questions: int = 5):
    """Two label sets whose confusion matrix is ``cells`` ((first grade, second grade) -> count), the pairs
    dealt round-robin over ``questions`` questions."""
    first, second, n = {}, {}, 0
    for (g1, g2), count in cells.items():
        for _ in range(count):
            q, item = f"q{n % questions}", f"d{n}"
            first.setdefault(q, {})[item] = g1
            second.setdefault(q, {})[item] = g2
            n += 1
    return first, second


def test_a_two_by_two_example_worked_by_hand():
    # O = [[20, 5], [10, 15]], N = 50 (rows: first set's grade 0, 1; columns: the second's)
    # p_o = (20 + 15) / 50 = 0.7
    # margins: first (rows) 25, 25; second (columns) 30, 20
    # p_e = (25 * 30 + 25 * 20) / 50² = 1250 / 2500 = 0.5
    # κ = (0.7 - 0.5) / (1 - 0.5) = 0.4; with two grades the quadratic weights are 0/1, so κ_w = κ = 0.4
    first, second = _sets({(0, 0): 20, (0, 1): 5, (1, 0): 10, (1, 1): 15})
    result = label_agreement(first, second, n_resamples=1000)
    assert result.confusion.tolist() == [[20, 5], [10, 15]] and result.grades == (0, 1)
    assert result.pairs == 50 and result.questions == 5
    assert result.raw == pytest.approx(0.7) and result.expected == pytest.approx(0.5)
    assert result.kappa == pytest.approx(0.4) and result.kappa_quadratic == pytest.approx(0.4)


def test_a_three_grade_example_worked_by_hand():
    # O = [[4, 1, 0], [1, 3, 1], [0, 1, 4]], N = 15; every margin is 5
    # p_o = (4 + 3 + 4) / 15 = 11/15; p_e = 3 * (5 * 5) / 15² = 1/3
    # κ = (11/15 - 5/15) / (10/15) = 6/10 = 0.6
    # quadratic weights w_ij = (i - j)² / 2²: 0.25 one grade apart, 1 two apart
    # Σ w O = 0.25 * (1 + 1 + 1 + 1) + 1 * (0 + 0) = 1
    # E_ij = 5 * 5 / 15 = 5/3 for every cell; Σ w E = 5/3 * (4 * 0.25 + 2 * 1) = 5
    # κ_w = 1 - 1/5 = 0.8
    cells = {(0, 0): 4, (0, 1): 1, (1, 0): 1, (1, 1): 3, (1, 2): 1, (2, 1): 1, (2, 2): 4}
    result = label_agreement(*_sets(cells, questions=3), n_resamples=1000)
    assert result.confusion.tolist() == [[4, 1, 0], [1, 3, 1], [0, 1, 4]]
    assert result.raw == pytest.approx(11 / 15) and result.expected == pytest.approx(1 / 3)
    assert result.kappa == pytest.approx(0.6) and result.kappa_quadratic == pytest.approx(0.8)
    assert kappas(result.confusion)[2:] == (pytest.approx(0.6), pytest.approx(0.8))


def _random_sets(seed: int):
    rng = np.random.default_rng(seed)
    first, second = {}, {}
    for q in range(int(rng.integers(3, 12))):
        for d in range(int(rng.integers(1, 15))):
            g = int(rng.integers(0, 4))
            first.setdefault(f"q{q}", {})[f"d{d}"] = g
            # the second labeller agrees often, else is off by a grade or two
            second.setdefault(f"q{q}", {})[f"d{d}"] = g if rng.random() < 0.6 else int(rng.integers(0, 4))
    return first, second


def _flat(first, second, questions=None):
    keys = [(q, d) for q in (questions or first) for d in first[q]]
    return [first[q][d] for q, d in keys], [second[q][d] for q, d in keys]


@pytest.mark.parametrize("seed", range(25))
def test_kappa_and_quadratic_kappa_agree_with_scikit_learn(seed):
    first, second = _random_sets(seed)
    y1, y2 = _flat(first, second)
    result = label_agreement(first, second, n_resamples=200, seed=seed)
    labels = sorted(set(y1) | set(y2))
    assert result.kappa == pytest.approx(cohen_kappa_score(y1, y2), abs=1e-12)
    assert result.kappa_quadratic == pytest.approx(cohen_kappa_score(y1, y2, weights="quadratic"), abs=1e-12)
    assert result.raw == pytest.approx(np.mean(np.array(y1) == np.array(y2)))
    assert result.grades == tuple(labels)


def test_the_interval_resamples_questions_as_a_hand_written_bootstrap_does():
    first, second = _random_sets(3)
    questions = list(first)
    picks = np.random.default_rng(11).integers(0, len(questions), size=(300, len(questions)))
    drawn = {"kappa": [], "kappa_quadratic": []}
    for row in picks:  # a question drawn twice counts twice
        y1, y2 = _flat(first, second, [questions[i] for i in row])
        drawn["kappa"].append(cohen_kappa_score(y1, y2))
        drawn["kappa_quadratic"].append(cohen_kappa_score(y1, y2, weights="quadratic"))
    result = label_agreement(first, second, n_resamples=300, seed=11, confidence=0.9)
    for name, values in drawn.items():
        assert result.intervals[name] == pytest.approx(tuple(np.quantile(values, [0.05, 0.95])), abs=1e-12)
    low, high = result.intervals["kappa"]
    assert low <= result.kappa <= high


def test_kappa_is_undefined_not_nan_when_chance_agreement_is_one():
    first = {"q1": {"a": 0, "b": 0}, "q2": {"c": 0}}
    result = label_agreement(first, first, n_resamples=100)
    assert result.raw == 1.0 and result.expected == 1.0
    assert result.kappa is None and result.kappa_quadratic is None
    assert result.intervals["kappa"] is None and result.undefined_resamples["kappa"] == 100
    assert any("kappa is undefined" in note and "p_e is 1" in note for note in result.notes)
    assert "undefined" in result.report()


def test_pairs_only_one_set_grades_are_refused_or_left_out_when_asked():
    first = {"q1": {"a": 1, "b": 0}, "q2": {"c": 1}}
    second = {"q1": {"a": 1, "x": 0}, "q2": {"c": 0}}
    with pytest.raises(ValueError, match=r"pairs: only in the first 1 \(\(q1, b\)\), "
                                         r"only in the second 1 \(\(q1, x\)\).*pairs='common'"):
        label_agreement(first, second)
    result = label_agreement(first, second, pairs="common", n_resamples=100)
    assert result.pairs == 2 and result.only_first == [("q1", "b")] and result.only_second == [("q1", "x")]
    assert any("left out the pairs only one set grades: 1 only in the first" in note for note in result.notes)


def test_bad_grades_and_settings_are_refused():
    with pytest.raises(ValueError, match="whole number"):
        label_agreement({"q1": {"a": 0.5}}, {"q1": {"a": 1}})
    with pytest.raises(ValueError, match="not among grades"):
        label_agreement({"q1": {"a": 3}}, {"q1": {"a": 1}}, grades=[0, 1, 2])
    with pytest.raises(ValueError, match="share no"):
        label_agreement({"q1": {"a": 1}}, {"q2": {"b": 1}}, pairs="common")
    with pytest.raises(ValueError, match="confidence"):
        label_agreement({"q1": {"a": 1}}, {"q1": {"a": 1}}, confidence=95)


def test_a_fixed_grade_scale_keeps_unused_grades_in_the_weights():
    # grades 0 and 3 only: by position they are one step apart, on the 0..3 scale three
    first, second = {"q1": {"a": 0, "b": 3, "c": 0}}, {"q1": {"a": 0, "b": 3, "c": 3}}
    y1, y2 = _flat(first, second)
    scaled = label_agreement(first, second, grades=range(4), n_resamples=50)
    assert scaled.confusion.shape == (4, 4)
    assert scaled.kappa_quadratic == pytest.approx(
        cohen_kappa_score(y1, y2, weights="quadratic", labels=[0, 1, 2, 3]))


def test_label_files_are_read_like_qrels(tmp_path):
    from ragmath.io import write_qrels

    first, second = _random_sets(5)
    write_qrels(first, tmp_path / "a.trec")
    write_qrels(second, tmp_path / "b.trec")
    from_files = label_agreement(tmp_path / "a.trec", tmp_path / "b.trec", n_resamples=100)
    assert from_files.kappa == pytest.approx(label_agreement(first, second, n_resamples=100).kappa)


# ------------------------------------------------------------------ the sample to label a second time

def _labels(relevant: int, zero: int) -> dict[str, dict[str, int]]:
    """``relevant`` pairs graded 1 or 2 and ``zero`` graded 0, spread over questions of five items."""
    grades = [1 + k % 2 for k in range(relevant)] + [0] * zero
    labels: dict[str, dict[str, int]] = {}
    for k, grade in enumerate(grades):
        labels.setdefault(f"q{k // 5:02d}", {})[f"d{k:03d}"] = grade
    return labels


def test_agreement_sample_follows_its_stated_rule():
    labels = _labels(30, 90)
    sample = agreement_sample(labels, 48, seed=0)
    pairs = sorted((q, i, g) for q, items in labels.items() for i, g in items.items())
    relevant = [(q, i) for q, i, g in pairs if g >= 1]
    zero = [(q, i) for q, i, g in pairs if g == 0]
    rng = np.random.default_rng(0)  # the rule written out: the relevant half, then the zeros, no replacement
    expected = [relevant[k] for k in rng.choice(len(relevant), 24, replace=False)]
    expected += [zero[k] for k in rng.choice(len(zero), 24, replace=False)]
    assert sample == sorted(expected) and len(set(sample)) == 48
    assert sum(labels[q][i] >= 1 for q, i in sample) == 24
    shuffled = {q: dict(reversed(list(labels[q].items()))) for q in reversed(list(labels))}
    assert agreement_sample(shuffled, 48, seed=0) == sample  # the order of the mapping does not count
    assert agreement_sample(labels, 48, seed=1) != sample


def test_agreement_sample_fills_a_short_half_from_the_other_kind():
    few_relevant = _labels(10, 90)
    sample = agreement_sample(few_relevant, 48, seed=0)
    assert len(sample) == 48 and sum(few_relevant[q][i] >= 1 for q, i in sample) == 10
    few_zeros = _labels(90, 6)
    sample = agreement_sample(few_zeros, 48, seed=0)
    assert sum(few_zeros[q][i] == 0 for q, i in sample) == 6
    assert len(agreement_sample(_labels(3, 2), 5)) == 5  # every pair


@pytest.mark.parametrize("n", [1, 121, 2.0, True])
def test_agreement_sample_refuses_a_size_it_cannot_draw(n):
    with pytest.raises(ValueError, match="n must be a whole number from 2 to the 120 labelled pairs"):
        agreement_sample(_labels(30, 90), n)
