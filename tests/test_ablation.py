"""The ablation run: permissions at every stage, Recall@N under reranking, the oracle, determinism.

Readability and gold evidence are recomputed here straight from the data files (readers ∩ roles,
qrels.csv), not through the code under test.
"""

from __future__ import annotations

import csv
import json
from dataclasses import replace

import pandas as pd
import pytest

from ragmath.ablation import (
    VERSIONS,
    AblationConfig,
    clear_cache,
    fit_refusal_threshold,
    leakage_demo,
    run_ablation,
    tune,
)
from ragmath.evaluation import evaluate
from ragmath.paths import DATA_DIR


def _raw_readers() -> dict[str, set[str]]:
    with open(DATA_DIR / "corpus.jsonl", encoding="utf-8") as fh:
        return {row["chunk_id"]: set(row["readers"]) for row in map(json.loads, fh) if row}


def _raw_roles() -> dict[str, set[str]]:
    with open(DATA_DIR / "identities.csv", encoding="utf-8", newline="") as fh:
        return {row["identity"]: set(row["roles"].split(";")) for row in csv.DictReader(fh)}


def _raw_qrels() -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    with open(DATA_DIR / "qrels.csv", encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            out.setdefault(row["question_id"], {})[row["chunk_id"]] = int(row["grade"])
    return out


@pytest.fixture(scope="module")
def runs_by_identity() -> dict[str, object]:
    """Every question asked as every identity (split 'all')."""
    return {ident: run_ablation(AblationConfig(identity=ident, split="all"))
            for ident in sorted(_raw_roles())}


def test_no_stage_ever_holds_a_chunk_the_identity_may_not_read(runs_by_identity):
    readers, roles = _raw_readers(), _raw_roles()
    stages_seen = set()
    for ident, result in runs_by_identity.items():
        readable = {c for c, r in readers.items() if r & roles[ident]}
        assert result.trace, "the run recorded no trace"
        for qid, stages in result.trace.items():
            for stage, ids in stages.items():
                if stage == "identity":
                    assert ids == (ident,)
                    continue
                stages_seen.add(stage.split("[")[0])
                leaked = set(ids) - readable
                assert not leaked, f"{ident} {qid} stage {stage} held unreadable {sorted(leaked)}"
    expected = {"index", "bm25", "vector", "fusion", "reranker", "generator_input"}
    assert expected <= stages_seen


def test_the_trace_does_record_finance_only_chunks_for_finance(runs_by_identity):
    # guards the test above: the instrumentation sees restricted chunks when they are allowed
    readers = _raw_readers()
    finance_only = {c for c, r in readers.items() if r == {"finance"}}
    held = set()
    for stages in runs_by_identity["finance_officer"].trace.values():
        held |= set(stages["index[bm25]"]) | set(stages["bm25"])
    assert finance_only & held


def test_reranking_the_top_n_leaves_recall_at_n_unchanged():
    for n in (5, 10, 20):
        result = run_ablation(AblationConfig(split="all", n=n), answers=False)
        for qid in result.runs["C"]:
            assert sorted(result.runs["D"][qid]) == sorted(result.runs["C"][qid])
        c = result.evaluations["C"].per_question
        d = result.evaluations["D"].per_question
        name = f"Recall@{n}"
        pd.testing.assert_series_equal(c[name], d[name])
        assert result.table.loc["C", name] == result.table.loc["D", name]


def test_the_oracle_is_given_exactly_the_gold_evidence(runs_by_identity):
    readers, roles, qrels = _raw_readers(), _raw_roles(), _raw_qrels()
    for ident, result in runs_by_identity.items():
        for qid, ids in result.generator_input["Oracle"].items():
            gold = {c for c, g in qrels.get(qid, {}).items() if g > 0 and readers[c] & roles[ident]}
            assert sorted(ids) == sorted(gold), (ident, qid)
            assert len(ids) == len(set(ids))


def test_the_ablation_runs_twice_with_identical_tables():
    cfg = AblationConfig(split="holdout", k=30, window=20, n=10)
    first = run_ablation(cfg)
    clear_cache()
    second = run_ablation(cfg)
    for a, b in zip(first.comparable(), second.comparable(), strict=True):
        pd.testing.assert_frame_equal(a, b)
    assert first.config == second.config
    assert not any("ms" in c for c in first.table.columns)  # latency lives in its own table
    assert list(first.latency.index) == list(VERSIONS)


def test_table_has_every_version_and_column():
    result = run_ablation(AblationConfig(split="dev", n=10))
    assert list(result.table.index) == list(VERSIONS)
    for col in ("Recall@5", "Hit@5", "MRR@5", "nDCG@5", "Recall@10", "answer accuracy",
                "citation support", "correct refusals", "wrong answers", "context chars/q"):
        assert col in result.table.columns
    for key in ("snapshot_date", "corpus_sha256", "identity", "k (RRF)", "window", "seed",
                "N (candidates / rerank depth)", "tokenizer"):
        assert key in result.config
    # no-answer questions stay outside the retrieval means: recompute with evaluate directly
    ev = evaluate(result.runs["A"], result.qrels, ["MRR@5"])
    assert result.table.loc["A", "MRR@5"] == pytest.approx(float(ev.means["MRR@5"]))
    n_no_answer = sum(1 for g in result.qrels.values() if not any(v > 0 for v in g.values()))
    row = result.table.loc["A"]
    assert row["correct refusals"] + row["wrong answers"] == n_no_answer == row["no-answer"]


def test_oracle_refuses_every_no_answer_question():
    result = run_ablation(AblationConfig(split="all"))
    row = result.table.loc["Oracle"]
    assert row["correct refusals"] == row["no-answer"] > 0 and row["wrong answers"] == 0


def test_bad_config_is_refused_with_the_field_named():
    with pytest.raises(ValueError, match="n=3 is smaller than top_k=5"):
        AblationConfig(n=3)
    with pytest.raises(ValueError, match="split"):
        AblationConfig(split="test")
    with pytest.raises(ValueError, match="tokenizer"):
        replace(AblationConfig(), tokenizer="nltk")
    with pytest.raises(ValueError, match="unknown identity 'ceo'"):
        run_ablation(AblationConfig(identity="ceo"))


def test_refusal_threshold_is_never_fitted_on_holdout():
    with pytest.raises(ValueError, match="dev questions only"):
        fit_refusal_threshold([{"question_id": "Q1", "split": "holdout", "support": 0.5,
                                "answerable": True, "correct": True}])


def test_reranker_and_refusal_threshold_are_fitted_on_dev_questions_only():
    questions = pd.read_json(DATA_DIR / "questions.jsonl", lines=True)
    dev_ids = set(questions.loc[questions["split"] == "dev", "question_id"])
    result = run_ablation(AblationConfig(split="holdout"))
    assert set(result.reranker.fitted_on) == dev_ids
    assert not set(result.runs["A"]) & dev_ids
    assert "fitted on dev" in str(result.config["refuse_below"])


def test_tune_runs_on_dev_and_picks_a_setting_from_its_grid():
    grid, chosen = tune(AblationConfig(), ks=(1, 60), windows=(10,), ns=(5, 10))
    assert len(grid) == 4 and chosen.split == "dev"
    best = grid.sort_values(["D nDCG@5", "D MRR@5"], ascending=False).iloc[0]
    assert (chosen.k, chosen.window, chosen.n) in set(
        zip(grid["k"], grid["window"], grid["N"], strict=True)
    )
    picked = grid[(grid["k"] == chosen.k) & (grid["N"] == chosen.n)].iloc[0]
    assert picked["D nDCG@5"] == best["D nDCG@5"]


def test_leakage_demo_grouped_split_never_straddles_and_random_does():
    leak = leakage_demo(seeds=range(5))
    grouped = leak[leak["split"] == "grouped"]
    random = leak[leak["split"] == "random"]
    assert (grouped["groups on both sides"] == 0).all()
    assert (random["groups on both sides"] > 0).any()
    assert (grouped["holdout questions with a twin in dev"] == 0).all()
