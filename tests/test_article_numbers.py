"""Every worked number of the article (sections 2-4 and 5), computed by ragmath.

Expected values are the article's hand calculations, written here as fractions or as the arithmetic
itself (e.g. 1/61 + 1/63), never copied from ragmath's output.
"""

import math
from fractions import Fraction

import pytest

from ragmath import (
    dcg_at_k,
    evaluate,
    hit_at_k,
    ndcg_at_k,
    recall_at_k,
    reciprocal_rank,
    rrf,
    wilson_interval,
)
from ragmath.metrics import ideal_dcg_at_k

# Section 2: q1 taxi over the limit, q2 lodging standard, q3 cross-border claim.
RUN = {"q1": ["A", "X", "B"], "q2": ["Y", "Z", "D"], "q3": ["U", "V", "W"]}
RELEVANT = {"q1": {"A", "B", "C"}, "q2": {"D"}, "q3": {"E", "F"}}
Q1_GRADES = {"A": 2, "C": 2, "B": 1, "X": 0}


@pytest.mark.parametrize(
    ("question", "recall", "hit", "rr"),
    [
        ("q1", Fraction(2, 3), Fraction(1), Fraction(1)),
        ("q2", Fraction(1), Fraction(1), Fraction(1, 3)),
        ("q3", Fraction(0), Fraction(0), Fraction(0)),
    ],
)
def test_per_question_recall_hit_rr(question, recall, hit, rr):
    assert recall_at_k(RUN[question], RELEVANT[question], 3, exact=True) == recall
    assert hit_at_k(RUN[question], RELEVANT[question], 3, exact=True) == hit
    assert reciprocal_rank(RUN[question], RELEVANT[question], 3, exact=True) == rr


def test_recall_at_3_of_q1_is_two_thirds_as_float():
    assert recall_at_k(["A", "X", "B"], {"A", "B", "C"}, 3) == pytest.approx(0.6667, abs=5e-5)


def test_means_recall_five_ninths_hit_two_thirds_mrr_four_ninths():
    qrels = {q: {item: 1 for item in items} for q, items in RELEVANT.items()}
    result = evaluate(RUN, qrels, ["Recall@3", "Hit@3", "MRR@3"], exact=True)
    # (2/3 + 1 + 0) / 3 = 5/9; (1 + 1 + 0) / 3 = 2/3; (1 + 1/3 + 0) / 3 = 4/9
    assert result.means["Recall@3"] == Fraction(5, 9)
    assert result.means["Hit@3"] == Fraction(2, 3)
    assert result.means["MRR@3"] == Fraction(4, 9)
    assert round(float(result.means["Recall@3"]), 2) == 0.56
    assert round(float(result.means["Hit@3"]), 2) == 0.67
    assert round(float(result.means["MRR@3"]), 2) == 0.44


def test_dcg_of_q1_is_three_and_a_half():
    # 3/log2(2) + 0/log2(3) + 1/log2(4) = 3 + 0 + 0.5
    assert dcg_at_k(["A", "X", "B"], Q1_GRADES, 3) == pytest.approx(3.5, abs=1e-12)


def test_idcg_of_q1():
    expected = 3 / 1 + 3 / math.log2(3) + 1 / 2  # ideal order A, C, B
    assert ideal_dcg_at_k(Q1_GRADES, 3) == pytest.approx(expected, abs=1e-12)
    assert round(ideal_dcg_at_k(Q1_GRADES, 3), 3) == 5.393


def test_ndcg_of_q1():
    expected = 3.5 / (3 + 3 / math.log2(3) + 0.5)
    assert ndcg_at_k(["A", "X", "B"], Q1_GRADES, 3) == pytest.approx(expected, abs=1e-12)
    assert round(ndcg_at_k(["A", "X", "B"], Q1_GRADES, 3), 3) == 0.649


def test_discounts_of_ranks_one_to_three():
    # A single grade-1 item (gain 1) at rank i has DCG 1/log2(i+1): 1, 1/1.585, 1/2.
    for rank, divisor in [(1, 1.0), (2, 1.585), (3, 2.0)]:
        ranking = ["pad1", "pad2"][: rank - 1] + ["hit"]
        assert 1 / dcg_at_k(ranking, {"hit": 1}, 3) == pytest.approx(divisor, abs=5e-4)


def test_gains_of_grades_two_one_zero_are_three_one_zero():
    assert [dcg_at_k(["a"], {"a": grade}, 1) for grade in (2, 1, 0)] == [3.0, 1.0, 0.0]


ARTICLE_LISTS = {"bm25": ["4.2", "6.1", "3.5"], "vector": ["5.3", "6.1", "4.2"]}


def test_rrf_table_at_k_60():
    table = rrf(ARTICLE_LISTS, k=60).set_index("id")
    expected = {"4.2": 1 / 61 + 1 / 63, "6.1": 1 / 62 + 1 / 62, "5.3": 1 / 61, "3.5": 1 / 63}
    assert list(table.index) == ["4.2", "6.1", "5.3", "3.5"]
    for item, score in expected.items():
        assert table.loc[item, "rrf_score"] == pytest.approx(score, abs=1e-15)
    assert round(table.loc["4.2", "rrf_score"], 4) == round(table.loc["6.1", "rrf_score"], 4) == 0.0323
    assert round(table.loc["5.3", "rrf_score"], 4) == 0.0164
    assert round(table.loc["3.5", "rrf_score"], 4) == 0.0159
    # "differ only in the fifth decimal"
    gap = table.loc["4.2", "rrf_score"] - table.loc["6.1", "rrf_score"]
    assert 1e-6 < gap < 1e-5
    assert table.loc["4.2", "rank[bm25]"] == 1 and table.loc["4.2", "rank[vector]"] == 3
    assert math.isnan(table.loc["5.3", "rank[bm25]"]) and table.loc["5.3", "contrib[bm25]"] == 0


def test_rrf_table_at_k_1():
    table = rrf(ARTICLE_LISTS, k=1).set_index("id")
    expected = {"4.2": 1 / 2 + 1 / 4, "6.1": 1 / 3 + 1 / 3, "5.3": 1 / 2, "3.5": 1 / 4}
    assert list(table.index) == ["4.2", "6.1", "5.3", "3.5"]
    for item, score in expected.items():
        assert table.loc[item, "rrf_score"] == pytest.approx(score, abs=1e-15)
    assert table.loc["4.2", "rrf_score"] == 0.75


def test_wilson_24_of_30():
    low, high = wilson_interval(24, 30)
    # p = 0.8, z = 1.959964: centre = (p + z²/2n) / (1 + z²/n), half = z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n)
    z = 1.959963984540054
    denominator = 1 + z * z / 30
    centre = (0.8 + z * z / 60) / denominator
    half = z * math.sqrt(0.8 * 0.2 / 30 + z * z / 3600) / denominator
    assert low == pytest.approx(centre - half, abs=1e-12)
    assert high == pytest.approx(centre + half, abs=1e-12)
    assert (round(low, 2), round(high, 2)) == (0.63, 0.90)
