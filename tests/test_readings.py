"""The readings' claims hold against the tables they read (hand-made tables and the real dev run)."""

from __future__ import annotations

import pandas as pd
import pytest

from ragmath.lab.ablation import paired_table, rate_intervals, run_ablation
from ragmath.lab.holdout import frozen_design
from ragmath.lab.readings import (
    Claim,
    as_markdown,
    compare,
    leader,
    read_ablation,
    read_first_ranks,
    read_intervals,
    read_leakage,
    read_paired,
)


@pytest.fixture(scope="module")
def dev():
    return run_ablation(frozen_design())


def test_leader_keeps_ties_and_skips_nan():
    assert leader({"A": 0.5, "B": float("nan"), "C": 0.5}) == ("A", "C")
    assert leader({"A": 0.2, "B": 0.9}) == ("B",)
    assert leader({"A": float("nan")}) == ()


def test_compare_on_a_hand_made_table():
    table = pd.DataFrame({"MRR@5": [0.50, 0.75]}, index=["C", "D"])
    claim = compare(table, "MRR@5", ["C", "D"], expected=["C"])
    assert claim.leaders == ("D",) and claim.matches is False
    assert "C 0.500, D 0.750" in claim.sentence and "does not match" in claim.sentence


def test_every_ablation_claim_agrees_with_the_dev_table(dev):
    table = dev.table
    claims = read_ablation(table, top_k=5, rerank_depth=5)
    assert len(claims) >= 7
    for claim in claims:
        for version, value in claim.values.items():
            if claim.metric in table.columns and version in table.index:
                assert value == pytest.approx(float(table.loc[version, claim.metric]))
        if claim.metric in table.columns and claim.leaders:
            column = table.loc[list(claim.values), claim.metric].astype(float)
            assert set(claim.leaders) == set(column[column.round(9) == round(column.max(), 9)].index)
            for version in claim.values:
                value = table.loc[version, claim.metric]
                shown = f"{value:.3f}" if table[claim.metric].dtype.kind == "f" else f"{value}/"
                assert shown in claim.sentence, (shown, claim.sentence)
        if claim.expected and claim.matches is not None and claim.metric in table.columns:
            assert claim.matches == bool(set(claim.leaders) & set(claim.expected))


def test_the_oracle_claim_counts_what_the_table_counts(dev):
    claim = next(c for c in read_ablation(dev.table, rerank_depth=5) if "Oracle" in c.values)
    oracle, d = int(dev.table.loc["Oracle", "answers correct"]), int(dev.table.loc["D", "answers correct"])
    n = int(dev.table.loc["D", "answerable"])
    assert claim.extra["retrieval headroom"] == oracle - d
    assert claim.extra["generator losses"] == n - oracle
    assert f"{oracle}/{n}" in claim.sentence and f"{d}/{n}" in claim.sentence


def test_recall_at_m_claim_is_true_for_c_and_d(dev):
    claim = next(c for c in read_ablation(dev.table, rerank_depth=5) if c.metric == "Recall@5"
                 and set(c.values) == {"C", "D"})
    assert claim.matches is True
    assert dev.table.loc["C", "Recall@5"] == dev.table.loc["D", "Recall@5"]


def test_first_rank_counts_by_hand():
    ranks = pd.DataFrame({"A": [1, 1, float("nan")], "B": [2, float("nan"), 1], "C": [1, 3, 4],
                          "D": [1, 1, 1]}, index=["q1", "q2", "q3"])
    at_one, top5, kept = read_first_ranks(ranks, expected=["A"])
    assert at_one.values == {"A": 2, "B": 1, "C": 1, "D": 3} and at_one.leaders == ("D",)
    assert at_one.matches is False
    assert top5.values == {"A": 2, "B": 2, "C": 3, "D": 3}
    assert "q2" in kept.sentence and kept.values == {"lost": 1}


def test_paired_reading_says_apart_only_when_zero_is_outside():
    boot = pd.DataFrame({"comparison": ["D − C", "C − A"], "mean diff": [0.05, 0.02],
                         "low": [0.01, -0.03], "high": [0.09, 0.07], "questions": [40, 40]})
    apart, close = read_paired(boot)
    assert apart.extra["excludes 0"] == 1.0 and "can be told apart" in apart.sentence
    assert close.extra["excludes 0"] == 0.0 and "cannot be told apart" in close.sentence


def test_paired_reading_of_the_dev_run(dev):
    pairs = paired_table(dev, [("C", "D")], "nDCG@5")
    (claim,) = read_paired(pairs)
    assert claim.values["mean diff"] == pytest.approx(
        float((dev.evaluations["D"].per_question["nDCG@5"]
               - dev.evaluations["C"].per_question["nDCG@5"]).mean()))


def test_interval_reading_finds_the_overlaps(dev):
    rates = rate_intervals(dev)
    for claim in read_intervals(rates):
        part = rates[rates["rate"] == claim.metric].set_index("version")
        top = part["value"].max()
        assert set(claim.leaders) == set(part.index[part["value"].round(9) == round(top, 9)])
        low_of_leader = part.loc[claim.leaders[0], "low"]
        overlapping = [v for v in part.index
                       if v not in claim.leaders and part.loc[v, "high"] >= low_of_leader]
        assert claim.extra["overlapping"] == len(overlapping)


def test_rate_intervals_count_questions(dev):
    rates = rate_intervals(dev).set_index(["version", "rate"])
    assert rates.loc[("D", "answer accuracy"), "N"] == dev.table.loc["D", "answerable"]
    assert rates.loc[("D", "citation support"), "N"] == dev.table.loc["D", "answers given"]
    assert rates.loc[("D", "Hit@5"), "x"] == int(dev.evaluations["D"].per_question["Hit@5"].sum())


def test_leakage_reading_by_hand():
    leak = pd.DataFrame({"random: nDCG@5": [0.8, 0.7, 0.9], "grouped: nDCG@5": [0.7, 0.75, 0.6],
                         "random: test questions with a twin in fitting": [3, 4, 5]})
    leak["difference (random − grouped)"] = leak["random: nDCG@5"] - leak["grouped: nDCG@5"]
    (claim,) = read_leakage(leak, "nDCG@5")
    assert claim.extra["seeds random higher"] == 2
    assert claim.extra["mean difference"] == pytest.approx((0.1 - 0.05 + 0.3) / 3)
    assert claim.leaders == ("random",) and "2 of 3 seeds" in claim.sentence


def test_as_markdown_lists_the_sentences():
    claims = [Claim("m", ("A",), {"A": 1.0}, "A leads."), Claim("n", (), {}, "Nothing.")]
    assert as_markdown(claims) == "- A leads.\n- Nothing."
