"""Each kind of bad input is refused with a message naming the argument, the bad value and the fix."""

import math

import pytest

from ragmath import (
    bootstrap_interval,
    dcg_at_k,
    evaluate,
    grouped_split,
    hit_at_k,
    ndcg_at_k,
    paired_bootstrap,
    recall_at_k,
    reciprocal_rank,
    rrf,
    units,
    wilson_interval,
)

PER_QUESTION = [recall_at_k, hit_at_k, reciprocal_rank]


@pytest.mark.parametrize("metric", PER_QUESTION + [dcg_at_k, ndcg_at_k])
@pytest.mark.parametrize("k", [0, -1])
def test_non_positive_k_rejected(metric, k):
    with pytest.raises(ValueError, match=rf"k must be a positive int.*got {k}"):
        metric(["A"], {"A": 1}, k)


@pytest.mark.parametrize("metric", PER_QUESTION + [dcg_at_k, ndcg_at_k])
@pytest.mark.parametrize("k", [True, 2.0, "3", None])
def test_k_that_is_not_an_int_rejected(metric, k):
    with pytest.raises(TypeError, match=r"k must be a positive int"):
        metric(["A"], {"A": 1}, k)


@pytest.mark.parametrize("metric", PER_QUESTION + [dcg_at_k, ndcg_at_k])
def test_duplicate_ids_rejected(metric):
    with pytest.raises(ValueError, match=r"'A' twice.*units\.dedupe"):
        metric(["A", "B", "A"], {"A": 1}, 3)


@pytest.mark.parametrize("metric", PER_QUESTION + [dcg_at_k, ndcg_at_k])
def test_string_ranking_rejected(metric):
    with pytest.raises(TypeError, match=r"got the string 'ABC'.*\['ABC'\]"):
        metric("ABC", {"A": 1}, 3)


@pytest.mark.parametrize("metric", PER_QUESTION + [dcg_at_k, ndcg_at_k])
def test_set_ranking_rejected_as_unordered(metric):
    with pytest.raises(TypeError, match=r"no order"):
        metric({"A", "B"}, {"A": 1}, 3)


@pytest.mark.parametrize("metric", PER_QUESTION + [dcg_at_k, ndcg_at_k])
@pytest.mark.parametrize("grade", [-1, math.nan, math.inf, "2", True])
def test_bad_grade_rejected(metric, grade):
    with pytest.raises((ValueError, TypeError), match=r"\['B'\]"):
        metric(["A"], {"A": 1, "B": grade}, 3)


def test_negative_grade_message_explains_zero():
    with pytest.raises(ValueError, match=r"negative grade; use 0"):
        dcg_at_k(["A"], {"A": -2}, 3)


@pytest.mark.parametrize("metric", PER_QUESTION)
@pytest.mark.parametrize("relevant", [set(), {}, {"A": 0}])
def test_empty_relevant_is_a_no_answer_question(metric, relevant):
    with pytest.raises(ValueError, match=r"no-answer question.*Count it apart"):
        metric(["A", "B"], relevant, 3)


@pytest.mark.parametrize("metric", [dcg_at_k, ndcg_at_k])
def test_unknown_gain_rejected(metric):
    with pytest.raises(ValueError, match=r"gain must be 'exp'.*or 'linear'.*got 'log'"):
        metric(["A"], {"A": 1}, 3, gain="log")


def test_ndcg_with_zero_idcg_is_undefined():
    with pytest.raises(ValueError, match=r"IDCG is 0.*undefined"):
        ndcg_at_k(["A"], {"A": 0, "B": 0}, 3)


def test_unknown_metric_name_lists_known_ones():
    with pytest.raises(ValueError, match=r"unknown metric 'MAP'.*Recall@K, Hit@K, MRR@K, nDCG@K"):
        evaluate({"q": ["A"]}, {"q": {"A": 1}}, ["MAP@3"])


@pytest.mark.parametrize("name", ["Recall", "Recall@", "Recall@0", "@3"])
def test_malformed_metric_name_rejected(name):
    with pytest.raises(ValueError, match=r"Recall@K"):
        evaluate({"q": ["A"]}, {"q": {"A": 1}}, [name])


def test_evaluate_names_the_question_with_a_duplicate():
    with pytest.raises(ValueError, match=r"run\['q7'\], rank 2, id: duplicate \(question 'q7', id 'A'\)"):
        evaluate({"q7": ["A", "A"]}, {"q7": {"A": 1}})


def test_evaluate_checks_rankings_of_unjudged_questions_too():
    with pytest.raises(ValueError, match=r"run\['extra'\]"):
        evaluate({"q": ["A"], "extra": ["B", "B"]}, {"q": {"A": 1}})


def test_evaluate_names_the_question_with_a_bad_grade():
    with pytest.raises(ValueError, match=r"qrels\['q2'\], ID 'B', grade: .* negative"):
        evaluate({"q2": ["A"]}, {"q2": {"A": 1, "B": -1}})


def test_evaluate_rejects_nan_score():
    with pytest.raises(ValueError, match=r"run\['q'\], ID 'A', score: 'nan' is not a finite number"):
        evaluate({"q": {"A": math.nan}}, {"q": {"A": 1}})


def test_evaluate_rejects_unknown_gain():
    with pytest.raises(ValueError, match=r"gain must be one of"):
        evaluate({"q": ["A"]}, {"q": {"A": 1}}, gain="squared")


def test_evaluate_rejects_run_that_is_not_a_mapping():
    with pytest.raises(TypeError, match=r"run must be a mapping"):
        evaluate(["A"], {"q": {"A": 1}})


def test_evaluate_reads_a_string_as_a_path():
    with pytest.raises(FileNotFoundError, match="q1 A"):
        evaluate("q1 A", {"q": {"A": 1}})


def test_rrf_k_zero_refused_with_reason():
    with pytest.raises(ValueError, match=r"k must be > 0, got 0: k is RRF's smoothing constant"):
        rrf([["A", "B"]], k=0)


@pytest.mark.parametrize("k", [-5, math.nan, math.inf])
def test_rrf_bad_k_refused(k):
    with pytest.raises(ValueError, match=r"k must be"):
        rrf([["A"]], k=k)


@pytest.mark.parametrize("k", ["60", True, None])
def test_rrf_non_numeric_k_refused(k):
    with pytest.raises(TypeError, match=r"k must be a positive number"):
        rrf([["A"]], k=k)


@pytest.mark.parametrize("window", [0, -1])
def test_rrf_bad_window_refused(window):
    with pytest.raises(ValueError, match=r"window must be a positive int"):
        rrf([["A"]], window=window)


def test_rrf_string_list_refused():
    with pytest.raises(TypeError, match=r"list of ranked ID lists"):
        rrf(["ABC", "CBA"])


def test_rrf_duplicate_in_one_list_refused():
    with pytest.raises(ValueError, match=r"rankings\['vector'\] holds the ID '6.1' twice"):
        rrf({"bm25": ["6.1"], "vector": ["6.1", "6.1"]})


def test_rrf_empty_input_refused():
    with pytest.raises(ValueError, match=r"rankings is empty"):
        rrf({})


def test_unknown_unit_level_rejected():
    with pytest.raises(ValueError, match=r"unknown unit level 'paragraph'"):
        units.check_levels("paragraph", "chunk")


def test_scoring_finer_than_labels_is_explained():
    with pytest.raises(ValueError, match=r"cannot score at chunk level with document-level labels"):
        units.check_levels("chunk", "document")


def test_to_units_names_unknown_chunk():
    with pytest.raises(ValueError, match=r"'9.9'"):
        units.to_units(["4.2-a", "9.9"], {"4.2-a": "4.2"})


def test_dedupe_rejects_string():
    with pytest.raises(TypeError, match=r"string"):
        units.dedupe("TRV")


@pytest.mark.parametrize(("successes", "n"), [(31, 30), (-1, 30), (3, 0)])
def test_wilson_bad_counts_rejected(successes, n):
    with pytest.raises(ValueError):
        wilson_interval(successes, n)


@pytest.mark.parametrize("confidence", [0, 1, 95])
def test_wilson_bad_confidence_rejected(confidence):
    with pytest.raises(ValueError, match=r"confidence must be .* between 0 and 1"):
        wilson_interval(3, 10, confidence)


def test_bootstrap_rejects_nan_values():
    with pytest.raises(ValueError, match=r"NaN"):
        bootstrap_interval([1.0, math.nan])


def test_bootstrap_rejects_empty_values():
    with pytest.raises(ValueError, match=r"non-empty"):
        bootstrap_interval([])


def test_paired_bootstrap_rejects_unequal_lengths():
    with pytest.raises(ValueError, match=r"same questions: 2 values vs 3"):
        paired_bootstrap([1, 0], [1, 1, 0])


@pytest.mark.parametrize("holdout", [0, 1, 1.5, True])
def test_grouped_split_bad_fraction_rejected(holdout):
    with pytest.raises(ValueError, match=r"holdout must be a fraction"):
        grouped_split(["a", "b"], {"a": 1, "b": 2}, holdout=holdout)


def test_grouped_split_needs_two_groups():
    with pytest.raises(ValueError, match=r"at least two groups"):
        grouped_split(["a", "b"], {"a": 1, "b": 1})


def test_grouped_split_names_item_without_group():
    with pytest.raises(ValueError, match=r"no group given for item 'c'"):
        grouped_split(["a", "b", "c"], {"a": 1, "b": 2})
