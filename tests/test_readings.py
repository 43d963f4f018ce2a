"""The readings' claims hold against the tables they read (hand-made tables and the real dev run)."""

from __future__ import annotations

from dataclasses import replace
from math import log2

import numpy as np
import pandas as pd
import pytest

from ragmath import compare as ragmath_compare
from ragmath.lab.ablation import (
    P_HOLM,
    P_SIGN_FLIP,
    keep_default_rule,
    knob_against_default,
    paired_table,
    rate_intervals,
    rerank_entries,
    run_ablation,
    top_ranks_table,
)
from ragmath.lab.holdout import frozen_design
from ragmath.lab.readings import (
    Claim,
    as_markdown,
    compare,
    leader,
    read_ablation,
    read_first_ranks,
    read_intervals,
    read_knob,
    read_leakage,
    read_paired,
    read_rank_one_changes,
    read_repairs,
    read_rerank_entries,
    read_rule_against_frozen,
    read_same_mrr,
    read_three_chunks,
    read_userdict,
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


def test_compare_refuses_a_metric_no_version_has():
    table = pd.DataFrame({"MRR@5": [float("nan"), float("nan")]}, index=["C", "D"])
    with pytest.raises(ValueError, match=r"cannot compare C and D on MRR@5: no version has a value"):
        compare(table, "MRR@5", ["C", "D"], expected=["D"])


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
                         "low": [0.01, -0.03], "high": [0.09, 0.07], "questions": [40, 40],
                         "wins": [10, 9], "ties": [28, 25], "losses": [2, 6], P_SIGN_FLIP: [0.01, 0.4],
                         P_HOLM: [0.02, 0.4]})
    apart, close = read_paired(boot)
    assert apart.extra["excludes 0"] == 1.0 and "can be told apart" in apart.sentence
    assert close.extra["excludes 0"] == 0.0 and "cannot be told apart" in close.sentence
    assert "(10 better, 28 tied, 2 worse; sign-flip p = 0.010, Holm over the 2 comparisons 0.020)" in (
        apart.sentence)
    assert len(read_paired(boot, stored=True)) == 3  # a stored holdout's table says where its p comes from


def test_paired_reading_says_not_settled_when_interval_and_holm_disagree():
    boot = pd.DataFrame({"comparison": ["D − C", "C − A"], "mean diff": [0.05, 0.02],
                         "low": [0.01, -0.001], "high": [0.09, 0.07], "questions": [43, 43],
                         "wins": [8, 9], "ties": [32, 25], "losses": [3, 6], P_SIGN_FLIP: [0.03, 0.01],
                         P_HOLM: [0.09, 0.02]})
    edge, other = read_paired(boot)
    assert edge.extra["excludes 0"] == 1.0
    assert "leaves out 0 but Holm's p is not below 0.05" in edge.sentence and "not settled" in edge.sentence
    assert "holds 0 but Holm's p is below 0.05" in other.sentence and "told apart" not in other.sentence


def test_paired_table_shows_the_p_and_interval_of_compare(dev):
    """07 § 4: every number of the dev paired table is ``ragmath.compare``'s on the same runs."""
    pairs = [("A", "C"), ("B", "C"), ("C", "D")]
    table = paired_table(dev, pairs, "nDCG@5")
    for (a, b), (_, row) in zip(pairs, table.iterrows(), strict=True):
        found = ragmath_compare({a: dev.runs[a], b: dev.runs[b]}, dev.qrels, ["nDCG@5"], baseline=a)
        ref = found.comparisons.iloc[0]
        assert row["comparison"] == f"{b} − {a}"
        assert (row["mean diff"], row["low"], row["high"], row[P_SIGN_FLIP]) == (
            ref["diff"], ref["low"], ref["high"], ref["p"])
        assert (row["wins"], row["ties"], row["losses"], row["test"]) == (
            ref["wins"], ref["ties"], ref["losses"], ref["test"])
    # Holm over the table's three p-values, by hand: sorted p times 3, 2, 1, then running maximum
    p = table[P_SIGN_FLIP].to_numpy()
    order = np.argsort(p, kind="stable")
    steps = np.maximum.accumulate(np.minimum(1, p[order] * np.array([3, 2, 1])))
    assert table[P_HOLM].to_numpy()[order] == pytest.approx(steps)
    # the reading quotes exactly those numbers
    for claim, (_, row) in zip(read_paired(table), table.iterrows(), strict=True):
        assert (claim.values["p"], claim.values["p_holm"]) == (row[P_SIGN_FLIP], row[P_HOLM])
        assert f"sign-flip p = {row[P_SIGN_FLIP]:.3f}, Holm over the 3 comparisons {row[P_HOLM]:.3f}" in (
            claim.sentence)


def test_sign_flip_p_of_the_dev_table_by_enumeration(dev):
    """D − C on dev: the exact two-sided sign-flip p, every sign vector of the non-zero differences."""
    table = paired_table(dev, [("C", "D")], "nDCG@5")
    c, d = (dev.evaluations[v].per_question["nDCG@5"] for v in ("C", "D"))
    diffs = (d - c.loc[d.index]).to_numpy()
    diffs = diffs[diffs != 0]
    assert diffs.size <= 20
    signs = 1 - 2 * ((np.arange(2 ** diffs.size)[:, None] >> np.arange(diffs.size)) & 1)
    p = float(np.mean(np.abs(signs @ diffs) >= abs(diffs.sum()) - 1e-9))
    assert table.loc[0, P_SIGN_FLIP] == pytest.approx(p)


def test_stored_scores_give_the_same_paired_table_as_compare_on_the_runs(dev):
    """A stored holdout result has no runs: its table comes from the per-question scores, like compare's."""
    pairs = [("A", "C"), ("B", "C"), ("C", "D")]
    pd.testing.assert_frame_equal(paired_table(replace(dev, runs={}), pairs, "nDCG@5"),
                                  paired_table(dev, pairs, "nDCG@5"))


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


# ---- notebooks 03, 04 and 06 (issue 18): each claim recomputed from the data ---------------------

def _first_ranks(result, qtype):
    pq = result.per_question
    qids = [q for q in result.runs["A"] if pq.loc[("A", q), "type"] == qtype]
    return pd.DataFrame({v: [pq.loc[(v, q), "first relevant rank"] for q in qids] for v in "ABCD"},
                        index=qids)


def test_deeper_rerank_reading_counts_the_chunks_it_brings_in(dev):
    """06 § 4: at M = 20, what enters the top 5 and how much of it is relevant (was hand-written)."""
    deep = run_ablation(replace(frozen_design(), rerank_depth=20), answers=False)
    entered = relevant = pushed = pushed_relevant = 0
    for qid, c_run in deep.runs["C"].items():
        c_top, d_top = set(c_run[:5]), set(deep.runs["D"][qid][:5])
        grades = deep.qrels[qid]
        entered += len(d_top - c_top)
        relevant += sum(grades.get(x, 0) >= 1 for x in d_top - c_top)
        pushed += len(c_top - d_top)
        pushed_relevant += sum(grades.get(x, 0) >= 1 for x in c_top - d_top)
    (claim,) = read_rerank_entries(rerank_entries(deep.runs["C"], deep.runs["D"], deep.qrels, 5),
                                   depth=20, top_k=5)
    assert claim.values["entered"] == entered and claim.extra["entered relevant"] == relevant
    assert claim.extra["pushed out relevant"] == pushed_relevant and claim.extra["pushed out"] == pushed
    assert f"brings {entered} chunks" in claim.sentence and f"; {relevant} of them" in claim.sentence
    # the old sentence ("promoted wrong chunks about as often as right ones") needs relevant ≈ wrong
    assert relevant < (entered - relevant) / 2


def test_rank_one_changes_of_the_paraphrases_name_what_c_loses_from_b(dev):
    """06 § 8: the real change on the colloquial questions is B's rank-1 hits that C loses."""
    para = _first_ranks(dev, "paraphrase")
    b_hits = [q for q in para.index if para.loc[q, "B"] == 1]
    lost = [q for q in b_hits if para.loc[q, "C"] != 1]
    claim_a, claim_b = read_rank_one_changes(para, sources=["A", "B"], what="paraphrase questions")
    assert claim_b.extra["source hits"] == len(b_hits) and claim_b.values["lost"] == len(lost)
    assert f"first for {len(b_hits)} of the {len(para)}" in claim_b.sentence
    assert all(q in claim_b.sentence for q in lost)
    if not (para["A"] == 1).any():
        assert "no rank-1 hit of A" in claim_a.sentence and "keeps every" not in claim_a.sentence


def test_a_version_without_rank_one_hits_is_not_said_to_keep_them():
    ranks = pd.DataFrame({"A": [float("nan"), 3.0], "B": [1.0, 1.0], "C": [2.0, 1.0], "D": [1.0, 1.0]},
                         index=["q1", "q2"])
    kept = read_first_ranks(ranks)[-1]
    assert "keeps every" not in kept.sentence and "no relevant chunk first" in kept.sentence
    assert kept.extra["source hits"] == 0


def test_top_ranks_table_leaves_unfilled_ranks_blank(dev):
    """06 § 7: a run shorter than 5 shows blanks, never its item repeated."""
    inv102 = next(q for q in dev.runs["A"] if dev.per_question.loc[("A", q), "type"] == "exact-id"
                  and "INV-102" in dev.trace[q]["bm25"][:1])
    table = top_ranks_table(dev.runs, inv102, ["A", "B", "C"])
    for v in "ABC":
        run = list(dev.runs[v][inv102][:5])
        assert list(table[v][: len(run)]) == run and set(table[v][len(run):]) <= {""}
    assert (table["A"] != "").sum() == len(dev.runs["A"][inv102][:5])


def test_repairs_reading_says_the_missing_c_costs_more():
    """04 § 6: grades A 2, B 1, C 2, X 0; gains 2^g − 1; discount log2(rank + 1); K = 3."""
    from ragmath import ndcg_at_k

    grades = {"A": 2, "B": 1, "C": 2, "X": 0}
    idcg = 3 + 3 / log2(3) + 1 / 2
    by_hand = {"X at rank 2": (3 + 1 / log2(3) - 3.5) / idcg, "the missing C": (4.5 - 3.5) / idcg}
    run = ndcg_at_k(["A", "X", "B"], grades, 3)
    computed = {"X at rank 2": ndcg_at_k(["A", "B", "X"], grades, 3) - run,
                "the missing C": ndcg_at_k(["A", "X", "C"], grades, 3) - run}
    assert computed == pytest.approx(by_hand)
    (claim,) = read_repairs(computed, "nDCG@3")
    assert claim.leaders == ("the missing C",)
    for value in by_hand.values():
        assert f"{value:.3f}" in claim.sentence


def test_keep_default_rule_by_hand():
    table = pd.DataFrame({"W": [20, 40, 80], "default": [True, False, False],
                          "diff vs default": [0.0, 0.009, 0.02], "low": [0.0, 0.0, 0.001],
                          "high": [0.0, 0.02, 0.04]})
    assert keep_default_rule(table) == 80  # only 80's interval lies wholly above 0
    assert keep_default_rule(table.assign(low=[0.0, 0.0, -0.001])) == 20  # an interval touching 0 keeps it
    with pytest.raises(ValueError, match="exactly one default"):
        keep_default_rule(table.assign(default=False))


def test_k_rule_reading_recomputes_the_paired_interval():
    """06 § 5: k = 1 against k = 60 at the frozen W and M, resampled here with numpy."""
    frozen = frozen_design()
    table = knob_against_default(frozen, "k", (1, 60))
    results = {k: run_ablation(replace(frozen, k=k), answers=False) for k in (1, 60)}
    per_q = {k: r.evaluations["D"].per_question["nDCG@5"] for k, r in results.items()}
    diff = (per_q[1] - per_q[60].loc[per_q[1].index]).to_numpy()
    picks = np.random.default_rng(0).integers(0, diff.size, size=(10_000, diff.size))
    low, high = np.quantile(diff[picks].mean(axis=1), [0.025, 0.975])
    row = table.set_index("k").loc[1]
    assert row["diff vs default"] == pytest.approx(diff.mean())
    assert (row["low"], row["high"]) == pytest.approx((low, high))
    # the p shown is compare's on the same runs, and with one value against the default Holm changes nothing
    found = ragmath_compare({60: results[60].runs["D"], 1: results[1].runs["D"]}, results[1].qrels,
                            ["nDCG@5"], baseline=60).comparisons.iloc[0]
    assert row[P_SIGN_FLIP] == found["p"] and row[P_HOLM] == found["p"]
    assert (row["wins"], row["ties"], row["losses"]) == (
        int((diff > 0).sum()), int((diff == 0).sum()), int((diff < 0).sum()))
    assert np.isnan(table.set_index("k").loc[60, P_SIGN_FLIP])  # the default is not tested against itself
    chosen = keep_default_rule(table)
    assert chosen == (1 if low > 0 else 60)
    (claim,) = read_knob(table, chosen, frozen=frozen.k)
    assert f"{diff.mean():+.3f} [{low:+.3f}, {high:+.3f}]" in claim.sentence
    assert f"sign-flip p = {found['p']:.3f})" in claim.sentence and claim.values["p"] == found["p"]
    assert claim.extra["rule differs from frozen"] == float(chosen != frozen.k)
    (against,) = read_rule_against_frozen({"k": chosen}, {"k": frozen.k})
    if chosen != frozen.k:
        assert f"k = {chosen:g} (frozen: {frozen.k:g})" in against.sentence
        assert "stand" in against.sentence and "fresh holdout" in against.sentence


def test_knob_table_holm_runs_over_the_values_tried():
    frozen = frozen_design()
    table = knob_against_default(frozen, "M", (5, 10, 20)).set_index("M")
    tried = table.drop(index=10)
    p = tried[P_SIGN_FLIP].to_numpy()
    order = np.argsort(p, kind="stable")
    steps = np.maximum.accumulate(np.minimum(1, p[order] * np.array([2, 1])))
    assert tried[P_HOLM].to_numpy()[order] == pytest.approx(steps)
    flat = table.reset_index()
    (claim,) = read_knob(flat, keep_default_rule(flat), frozen=frozen.rerank_depth)
    best = tried.loc[5]
    assert f"Holm over the 2 comparisons {best[P_HOLM]:.3f}" in claim.sentence


def test_three_chunk_reading_against_rank_bm25_directly():
    """06 § 3.4: BM25Okapi on the tokens themselves (the reference), not through BM25Retriever."""
    from rank_bm25 import BM25Okapi

    from ragmath.lab.corpus import load_dataset
    from ragmath.lab.retrieval import BM25Retriever
    from ragmath.lab.tokenize import get_tokenizer

    corpus = load_dataset().corpus.set_index("chunk_id")
    ids = ["TRV26-4.2-a", "TRV26-4.3", "INV-110"]
    query = "市内交通超出标准"
    scores = {}
    for name in ("jieba_plain", "jieba"):
        tk = get_tokenizer(name)
        reference = BM25Okapi([tk(corpus.loc[c, "text"]) for c in ids]).get_scores(tk(query))
        ours = BM25Retriever([{"chunk_id": c, "text": corpus.loc[c, "text"]} for c in ids], name)
        assert [ours.score_ids(query, ids)[c] for c in ids] == pytest.approx(list(reference))
        scores[name] = dict(zip(ids, reference, strict=True))
    (claim,) = read_three_chunks(pd.DataFrame(scores), "TRV26-4.2-a", query)
    for name, col in scores.items():
        place = sorted(col, key=lambda c: -col[c]).index("TRV26-4.2-a") + 1
        assert claim.values[name] == place and f"{place} under {name}" in claim.sentence


def test_userdict_reading_counts_every_entry():
    from ragmath.lab.corpus import load_dataset
    from ragmath.lab.tokenize import userdict_path, userdict_table

    ds = load_dataset()
    entries = userdict_table(list(ds.corpus["text"]) + list(ds.questions["text"]))
    lines = [line for line in userdict_path().read_text(encoding="utf-8").splitlines() if line.strip()]
    assert list(entries.index) == [line.split()[0] for line in lines]
    (claim,) = read_userdict(entries)
    changing = int((entries["texts where the entry changes the cut"] > 0).sum())
    assert f"Of the {len(lines)} entries, {changing} change" in claim.sentence


def test_same_mrr_reading_by_hand():
    """03 § 7: S1 and S2 both rank the first evidence at 1 and 2; MRR@3 = (1 + 1/2) / 2 for both."""
    table = pd.DataFrame({"MRR@3": [0.75, 0.75], "Recall@3": [(1 / 3 + 1 / 2) / 2, 1.0]}, index=["S1", "S2"])
    (claim,) = read_same_mrr(table)
    assert "the same MRR@3 (0.750)" in claim.sentence
    assert claim.extra["Recall@3"] == pytest.approx(7 / 12) and "0.583 on Recall@3" in claim.sentence
