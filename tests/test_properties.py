"""Property tests (hypothesis): laws every metric, evaluate, rrf, units and grouped_split must obey.

Runs are deterministic: every test uses ``derandomize=True`` (examples derived from the test itself)
and no example database, with at most 200 examples.
"""

from __future__ import annotations

import copy
import math

import pandas as pd
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ragmath import (
    dcg_at_k,
    evaluate,
    grouped_split,
    hit_at_k,
    ndcg_at_k,
    recall_at_k,
    reciprocal_rank,
    rrf,
    units,
)
from ragmath.ranking import ranking_from_scores

PROPERTY = settings(
    max_examples=200,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

IDS = [f"d{i}" for i in range(12)]
ids = st.sampled_from(IDS)
rankings = st.lists(ids, unique=True, max_size=10)
cutoffs = st.integers(min_value=1, max_value=12)
# Whole grades and fractional ones in steps of 0.01 (tiny positive grades hit the bug tested at the end).
grade_values = st.one_of(
    st.integers(min_value=0, max_value=3),
    st.integers(min_value=0, max_value=300).map(lambda hundredths: hundredths / 100),
)
whole_grades = st.integers(min_value=0, max_value=3)
gains = st.sampled_from(["exp", "linear"])


@st.composite
def answerable_grades(draw, values=grade_values) -> dict[str, float]:
    """Grades of one question with at least one grade above 0 (not a no-answer question)."""
    grades = draw(st.dictionaries(ids, values, max_size=8))
    relevant = draw(ids)
    grades[relevant] = draw(st.integers(min_value=1, max_value=3))
    return grades


# ---------------------------------------------------------------------------------------------------
# Per-question metrics
# ---------------------------------------------------------------------------------------------------


@PROPERTY
@given(rankings, answerable_grades(), cutoffs, gains)
def test_every_metric_lies_in_zero_one(ranking, grades, k, gain):
    values = {
        "recall": recall_at_k(ranking, grades, k),
        "hit": hit_at_k(ranking, grades, k),
        "rr": reciprocal_rank(ranking, grades, k),
        "ndcg": ndcg_at_k(ranking, grades, k, gain=gain),
    }
    for name, value in values.items():
        assert 0.0 <= value <= 1.0, (name, value)
    assert dcg_at_k(ranking, grades, k, gain=gain) >= 0.0


@PROPERTY
@given(rankings, answerable_grades(), cutoffs)
def test_hit_is_at_least_recall_and_reciprocal_rank(ranking, grades, k):
    hit = hit_at_k(ranking, grades, k)
    assert hit >= recall_at_k(ranking, grades, k)
    assert hit >= reciprocal_rank(ranking, grades, k)
    # and all three are zero together: no relevant item in the top k
    assert (hit == 0) == (recall_at_k(ranking, grades, k) == 0) == (reciprocal_rank(ranking, grades, k) == 0)


@PROPERTY
@given(answerable_grades(), cutoffs, gains, st.lists(st.sampled_from(["v1", "v2"]), unique=True))
def test_ideal_ordering_has_ndcg_one(grades, k, gain, unlabelled_tail):
    ideal = sorted(grades, key=lambda item: -grades[item])
    assert abs(ndcg_at_k(ideal, grades, k, gain=gain) - 1.0) <= 1e-12
    # unlabelled items after every labelled one cannot take a better place
    assert abs(ndcg_at_k(ideal + unlabelled_tail, grades, k, gain=gain) - 1.0) <= 1e-12


@PROPERTY
@given(rankings, answerable_grades())
def test_recall_is_non_decreasing_in_k(ranking, grades):
    values = [recall_at_k(ranking, grades, k) for k in range(1, len(ranking) + 3)]
    assert all(a <= b for a, b in zip(values, values[1:], strict=False))
    hits = [hit_at_k(ranking, grades, k) for k in range(1, len(ranking) + 3)]
    assert all(a <= b for a, b in zip(hits, hits[1:], strict=False))


unlabelled_tails = st.lists(st.sampled_from(["u1", "u2", "u3"]), unique=True)


@PROPERTY
@given(rankings, answerable_grades(), cutoffs, gains, unlabelled_tails)
def test_appending_unlabelled_items_leaves_dcg_and_ndcg_unchanged(ranking, grades, k, gain, tail):
    longer = ranking + tail  # unlabelled IDs: gain 0 wherever they land, even inside the top k
    assert dcg_at_k(longer, grades, k, gain=gain) == dcg_at_k(ranking, grades, k, gain=gain)
    assert ndcg_at_k(longer, grades, k, gain=gain) == ndcg_at_k(ranking, grades, k, gain=gain)


@PROPERTY
@given(rankings, answerable_grades(), cutoffs, gains)
def test_items_beyond_k_do_not_change_dcg(ranking, grades, k, gain):
    assume(len(ranking) >= k)
    beyond = [item for item in IDS if item not in ranking]  # labelled or not, all land after rank k
    longer = ranking + beyond
    assert dcg_at_k(longer, grades, k, gain=gain) == dcg_at_k(ranking, grades, k, gain=gain)
    assert ndcg_at_k(longer, grades, k, gain=gain) == ndcg_at_k(ranking, grades, k, gain=gain)
    assert recall_at_k(longer, grades, k) == recall_at_k(ranking, grades, k)


# ---------------------------------------------------------------------------------------------------
# RRF
# ---------------------------------------------------------------------------------------------------

score_dicts = st.dictionaries(ids, st.integers(min_value=-1000, max_value=1000), min_size=1, max_size=10)
rrf_ks = st.one_of(st.integers(min_value=1, max_value=100), st.floats(min_value=0.01, max_value=100))
windows = st.one_of(st.none(), st.integers(min_value=1, max_value=12))

# Strictly increasing maps: each keeps every order and every tie of integer scores in [-1000, 1000].
MONOTONE = {
    "rescale": lambda x: 0.001 * x,
    "affine": lambda x: 3.5 * x - 7.0,
    "cube": lambda x: float(x) ** 3,
    "exp": lambda x: math.exp(x / 200.0),
    "arctan": lambda x: math.atan(x / 50.0),
}


@PROPERTY
@given(st.lists(score_dicts, min_size=1, max_size=4), rrf_ks, windows, st.sampled_from(sorted(MONOTONE)))
def test_rrf_depends_only_on_ranks(score_lists, k, window, transform_name):
    transform = MONOTONE[transform_name]
    before = {f"s{i}": ranking_from_scores(scores) for i, scores in enumerate(score_lists)}
    transformed = [{item: transform(s) for item, s in scores.items()} for scores in score_lists]
    after = {f"s{i}": ranking_from_scores(scores) for i, scores in enumerate(transformed)}
    pd.testing.assert_frame_equal(rrf(before, k=k, window=window), rrf(after, k=k, window=window))


@PROPERTY
@given(rankings.filter(bool), rrf_ks, windows)
def test_one_list_fused_alone_keeps_its_order(ranking, k, window):
    table = rrf([ranking], k=k, window=window)
    kept = ranking if window is None else ranking[:window]
    assert list(table["id"]) == kept
    assert list(table["rrf_rank"]) == list(range(1, len(kept) + 1))
    assert list(table["rank[L1]"]) == [float(r) for r in range(1, len(kept) + 1)]


@PROPERTY
@given(st.lists(rankings, min_size=2, max_size=4), rrf_ks, windows, st.randoms(use_true_random=False))
def test_rrf_scores_do_not_depend_on_the_order_of_the_lists(lists, k, window, random):
    named = {f"L{i}": ranking for i, ranking in enumerate(lists)}
    names = list(named)
    random.shuffle(names)
    shuffled = {name: named[name] for name in names}
    first, second = rrf(named, k=k, window=window), rrf(shuffled, k=k, window=window)
    assert list(first["id"]) == list(second["id"])
    assert list(first["rrf_score"]) == list(second["rrf_score"])  # fsum: exactly equal
    pd.testing.assert_frame_equal(first, second[first.columns])


# ---------------------------------------------------------------------------------------------------
# evaluate
# ---------------------------------------------------------------------------------------------------

QUESTIONS = [f"q{i}" for i in range(6)]


@st.composite
def runs_and_qrels(draw):
    """A run (ranked lists or score dicts) and qrels with missing, no-answer and unjudged questions.

    Grades are whole numbers, as every form of qrels requires (a file, a DataFrame, a mapping)."""
    run = {}
    for question in draw(st.lists(st.sampled_from(QUESTIONS), unique=True, max_size=6)):
        if draw(st.booleans()):
            run[question] = draw(rankings)
        else:
            run[question] = draw(st.dictionaries(ids, st.integers(-5, 5), max_size=10))  # ties allowed
    qrels = {}
    for question in draw(st.lists(st.sampled_from(QUESTIONS), unique=True, min_size=1, max_size=6)):
        if draw(st.booleans()):
            qrels[question] = draw(answerable_grades(whole_grades))
        else:
            qrels[question] = draw(st.dictionaries(ids, whole_grades, max_size=5))  # maybe no-answer
    return run, qrels


@PROPERTY
@given(runs_and_qrels(), st.lists(cutoffs, min_size=1, max_size=3, unique=True), gains)
def test_evaluate_means_equal_the_mean_of_per_question_metrics(run_qrels, ks, gain):
    run, qrels = run_qrels
    functions = {"Recall": recall_at_k, "Hit": hit_at_k, "MRR": reciprocal_rank}
    names = [f"{m}@{k}" for k in ks for m in ("Recall", "Hit", "MRR", "nDCG")]
    result = evaluate(run, qrels, names, gain=gain)

    answerable = [q for q, grades in qrels.items() if any(g > 0 for g in grades.values())]
    assert sorted(result.per_question.index) == sorted(answerable)
    assert sorted(result.missing) == sorted(q for q in answerable if q not in run)
    assert sorted(result.no_answer) == sorted(q for q in qrels if q not in answerable)
    assert sorted(result.unjudged) == sorted(q for q in run if q not in qrels)

    for name in names:
        metric, k = name.split("@")
        per_question = []
        for question in answerable:
            value = run.get(question, [])
            ranking = ranking_from_scores(value) if isinstance(value, dict) else value
            if metric == "nDCG":
                per_question.append(ndcg_at_k(ranking, qrels[question], int(k), gain=gain))
            else:
                per_question.append(functions[metric](ranking, qrels[question], int(k)))
            value = result.per_question.loc[question, name]  # a quotient of small integers: exact
            assert abs(value - per_question[-1]) <= 1e-12 if metric == "nDCG" else value == per_question[-1]
        if answerable:
            assert abs(result.means[name] - math.fsum(per_question) / len(per_question)) <= 1e-12
        else:
            assert math.isnan(result.means[name])


# ---------------------------------------------------------------------------------------------------
# Nothing passed in is modified
# ---------------------------------------------------------------------------------------------------


def _unchanged(function, *args, **kwargs):
    """Call ``function`` and assert that none of its arguments changed; return its result."""
    before = copy.deepcopy((args, kwargs))
    result = function(*args, **kwargs)
    assert (args, kwargs) == before, function.__name__
    return result


@PROPERTY
@given(rankings, answerable_grades(), cutoffs, gains)
def test_metrics_do_not_modify_their_inputs(ranking, grades, k, gain):
    for function in (recall_at_k, hit_at_k, reciprocal_rank):
        _unchanged(function, ranking, grades, k)
        _unchanged(function, ranking, set(item for item, g in grades.items() if g > 0), k)
    _unchanged(dcg_at_k, ranking, grades, k, gain=gain)
    _unchanged(ndcg_at_k, ranking, grades, k, gain=gain)
    _unchanged(ranking_from_scores, {item: float(i % 3) for i, item in enumerate(ranking)})


@PROPERTY
@given(runs_and_qrels())
def test_evaluate_does_not_modify_run_or_qrels(run_qrels):
    run, qrels = run_qrels
    _unchanged(evaluate, run, qrels, ["Recall@3", "Hit@3", "MRR@3", "nDCG@3"])


@PROPERTY
@given(st.lists(rankings, min_size=1, max_size=3), rrf_ks, windows)
def test_rrf_does_not_modify_its_lists(lists, k, window):
    _unchanged(rrf, lists, k=k, window=window)
    _unchanged(rrf, {f"n{i}": ranking for i, ranking in enumerate(lists)}, k=k, window=window)


CHUNK_TABLE = {f"c{i}": (f"s{i // 2}", f"D{i // 4}") for i in range(12)}


@PROPERTY
@given(
    st.lists(st.sampled_from(sorted(CHUNK_TABLE)), max_size=12),
    st.dictionaries(st.sampled_from(sorted(CHUNK_TABLE)), grade_values, max_size=8),
)
def test_units_do_not_modify_their_inputs(chunks, grades):
    clause_of = {chunk: clause for chunk, (clause, _) in CHUNK_TABLE.items()}
    deduped = _unchanged(units.dedupe, chunks)
    assert deduped == list(dict.fromkeys(chunks))
    _unchanged(units.to_units, deduped, clause_of)
    _unchanged(units.lift_labels, grades, clause_of)


# ---------------------------------------------------------------------------------------------------
# grouped_split
# ---------------------------------------------------------------------------------------------------


@st.composite
def grouped_items(draw):
    """Distinct items and a mapping item -> group with at least two groups."""
    items = draw(st.lists(st.text("abcdefgh", min_size=1, max_size=4), unique=True, min_size=2, max_size=30))
    groups = {item: draw(st.sampled_from(["g1", "g2", "g3", "g4", "g5"])) for item in items}
    assume(len(set(groups.values())) >= 2)
    return items, groups


@PROPERTY
@given(grouped_items(), st.floats(min_value=0.05, max_value=0.95), st.integers(0, 2**32 - 1), st.booleans())
def test_grouped_split_keeps_groups_whole_and_is_deterministic(items_groups, holdout, seed, as_callable):
    items, groups = items_groups
    group = groups.__getitem__ if as_callable else groups
    dev, hold = _unchanged(grouped_split, items, group, holdout=holdout, seed=seed)
    assert not ({groups[i] for i in dev} & {groups[i] for i in hold})  # no group on both sides
    assert sorted(dev + hold) == sorted(items)  # a partition: nothing lost, nothing doubled
    assert dev == [i for i in items if i in set(dev)]  # input order kept
    assert hold == [i for i in items if i in set(hold)]
    assert grouped_split(items, group, holdout=holdout, seed=seed) == (dev, hold)  # same seed, same split


def test_grouped_split_seed_changes_the_split():
    # Not a law for every input, but with ten equal groups the seed must matter somewhere.
    items = [f"q{i}" for i in range(40)]
    group = {item: f"g{int(item[1:]) % 10}" for item in items}
    holdouts = {tuple(grouped_split(items, group, holdout=0.3, seed=seed)[1]) for seed in range(5)}
    assert len(holdouts) > 1


def test_ndcg_scores_a_tiny_positive_grade():
    # d0 is relevant (grade > 0) and ranked first, so nDCG is 1 however small its grade.
    for grade in (1e-17, 5e-324):
        assert ndcg_at_k(["d0"], {"d0": grade}, 3, gain="exp") == 1.0
