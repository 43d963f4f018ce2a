"""Whole-run evaluation: groups of questions kept apart, score runs, metric names."""

import math
from fractions import Fraction

import pandas as pd
import pytest

from ragmath import evaluate
from ragmath.ranking import ranking_from_scores
from ragmath.registry import parse_metric

QRELS = {
    "q1": {"A": 2, "B": 1, "C": 2, "X": 0},
    "q2": {"D": 1},
    "none": {"Z": 0},
    "missing": {"M": 1},
}
RUN = {"q1": ["A", "X", "B"], "q2": ["Y", "Z", "D"], "none": ["Z"], "extra": ["E"]}


def test_no_answer_question_outside_every_mean():
    result = evaluate(RUN, QRELS)
    assert result.no_answer == ["none"]
    assert "none" not in result.per_question.index


def test_missing_question_scored_zero_and_listed():
    result = evaluate(RUN, QRELS, ["Recall@3", "nDCG@3"])
    assert result.missing == ["missing"]
    assert result.per_question.loc["missing"].tolist() == [0.0, 0.0]
    # mean over q1, q2 and the missing one: (2/3 + 1 + 0) / 3
    assert result.means["Recall@3"] == pytest.approx((2 / 3 + 1 + 0) / 3)
    assert result.n_scored == 3


def test_unjudged_question_listed_not_scored():
    result = evaluate(RUN, QRELS)
    assert result.unjudged == ["extra"]
    assert "extra" not in result.per_question.index


def test_ndcg_undefined_listed_only_when_ndcg_asked():
    assert evaluate(RUN, QRELS, ["nDCG@3"]).ndcg_undefined == ["none"]
    assert evaluate(RUN, QRELS, ["Recall@3"]).ndcg_undefined == []


def test_report_names_every_group():
    text = evaluate(RUN, QRELS).report()
    assert "missing from the run (scored 0, in the means): 1 [missing]" in text
    assert "no-answer (no relevant item; outside every mean but Judged@K's): 1 [none]" in text
    assert "unjudged (in the run, not labelled; not scored): 1 [extra]" in text
    assert "nDCG undefined" in text


def test_metric_names_are_case_insensitive():
    result = evaluate(RUN, QRELS, ["recall@3", "HIT@3", "mrr@3", "NDCG@3"])
    assert list(result.per_question.columns) == ["Recall@3", "Hit@3", "MRR@3", "nDCG@3"]


def test_repeated_metric_rejected():
    with pytest.raises(ValueError, match="list each metric once"):
        evaluate(RUN, QRELS, ["Recall@3", "recall@3"])


def test_single_metric_string_accepted():
    assert evaluate(RUN, QRELS, "Hit@1").metrics == ("Hit@1",)


def test_parse_metric():
    assert parse_metric(" nDCG @ 10 ") == ("nDCG", 10)


def test_score_run_sorted_by_score_then_id():
    # B and A tie at 0.5: ID ascending puts A first, so the relevant A is at rank 2.
    result = evaluate({"q": {"B": 0.5, "A": 0.5, "C": 0.9}}, {"q": {"A": 1}}, ["MRR@3"], exact=True)
    assert result.means["MRR@3"] == Fraction(1, 2)


def test_ranking_from_scores_compares_integer_ids_as_their_text():
    # Code-point order of the decimal text: "10" < "9" (the engine's order for the same run).
    assert ranking_from_scores({10: 1.0, 9: 1.0, 2: 3.0}) == [2, 10, 9]
    assert ranking_from_scores({10: 1.0, "9": 1.0}) == [10, "9"]


def test_linear_gain_option():
    result = evaluate({"q1": ["A", "X", "B"]}, {"q1": {"A": 2, "B": 1, "C": 2}}, ["nDCG@3"], gain="linear")
    expected = (2 + 0 + 1 / 2) / (2 + 2 / math.log2(3) + 1 / 2)
    assert result.means["nDCG@3"] == pytest.approx(expected)
    assert result.gain == "linear"


def test_empty_evaluation_means_are_nan_not_zero():
    result = evaluate({}, {"none": {"A": 0}})
    assert result.n_scored == 0
    assert all(math.isnan(v) for v in result.means)
    assert "n/a" in result.report()


def test_table_has_means_and_counts():
    table = evaluate(RUN, QRELS, ["Hit@3"]).table()
    assert isinstance(table, pd.DataFrame)
    assert table.loc["Hit@3", "questions"] == 3
    assert table.loc["Hit@3", "mean"] == pytest.approx(2 / 3)


def test_inputs_are_not_modified():
    run = {"q": {"B": 0.5, "A": 0.9}}
    qrels = {"q": {"A": 1}}
    evaluate(run, qrels)
    assert run == {"q": {"B": 0.5, "A": 0.9}} and list(run["q"]) == ["B", "A"]
    assert qrels == {"q": {"A": 1}}


def test_a_cut_off_too_large_to_honour_is_refused():
    with pytest.raises(ValueError, match="larger than"):
        parse_metric("nDCG@100000000")


def test_only_ascii_digits_make_a_cut_off():
    for name in ("Recall@١٠", "Recall@１０"):  # Arabic-Indic and full-width digits
        with pytest.raises(ValueError, match="cannot parse"):
            parse_metric(name)
