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

from ragmath.evaluation import evaluate
from ragmath.lab.ablation import (
    VERSIONS,
    AblationConfig,
    clear_cache,
    run_ablation,
)
from ragmath.lab.paths import DATA_DIR
from ragmath.lab.workbook import (
    fit_refusal_threshold,
    grid_edges,
    leakage_experiment,
    leakage_on_fixed_questions,
    tune,
)


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


def test_reranking_the_top_m_leaves_recall_at_m_unchanged():
    for m in (5, 10, 20):
        result = run_ablation(AblationConfig(rerank_depth=m), answers=False)
        for qid in result.runs["C"]:
            assert sorted(result.runs["D"][qid]) == sorted(result.runs["C"][qid])
        c = result.evaluations["C"].per_question
        d = result.evaluations["D"].per_question
        name = f"Recall@{m}"
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
    cfg = AblationConfig(k=30, window=20, rerank_depth=10, score_fusion=True)
    first = run_ablation(cfg)
    clear_cache()
    second = run_ablation(cfg)
    for a, b in zip(first.comparable(), second.comparable(), strict=True):
        pd.testing.assert_frame_equal(a, b)
    assert first.config == second.config
    assert not any("ms" in c for c in first.table.columns)  # latency lives in its own table
    assert list(first.latency.index) == list(VERSIONS)


def test_table_has_every_version_and_column():
    result = run_ablation(AblationConfig(rerank_depth=10, score_fusion=True))
    assert list(result.table.index) == list(VERSIONS)
    assert "E" not in run_ablation(AblationConfig(rerank_depth=10), answers=False).table.index
    for col in ("Recall@5", "Hit@5", "MRR@5", "nDCG@5", "Recall@10", "answer accuracy",
                "citation support", "answers given", "correct refusals", "no-answer",
                "context chars/q", "caveat"):
        assert col in result.table.columns
    for key in ("snapshot_date", "corpus_sha256", "identity", "k (RRF constant)",
                "W (recall window)", "M (rerank depth)", "seed", "tokenizer", "chosen on dev"):
        assert key in result.config
    # no-answer questions stay outside the retrieval means: recompute with evaluate directly
    ev = evaluate(result.runs["A"], result.qrels, ["MRR@5"])
    assert result.table.loc["A", "MRR@5"] == pytest.approx(float(ev.means["MRR@5"]))
    n_no_answer = sum(1 for g in result.qrels.values() if not any(v > 0 for v in g.values()))
    assert result.table.loc["A", "no-answer"] == n_no_answer


def test_citation_support_is_counted_per_question_not_per_citation():
    result = run_ablation(AblationConfig(rerank_depth=10, score_fusion=True))
    for version in VERSIONS:
        part = result.per_question.loc[version]
        given = part[~part["refused"]]
        # by hand: a question counts 1 when every chunk it cites is labelled >= 1 for it
        by_hand = [all(result.qrels[q].get(c, 0) >= 1 for c in row["citations"].split()) and
                   bool(row["citations"]) for q, row in given.iterrows()]
        assert result.table.loc[version, "answers given"] == len(given)
        assert result.table.loc[version, "supported answers"] == sum(by_hand)


def test_oracle_refuses_every_no_answer_question_by_construction():
    result = run_ablation(AblationConfig())
    row = result.table.loc["Oracle"]
    assert row["correct refusals"] == row["no-answer"] > 0
    # it is handed no evidence at all for them: that is why it refuses
    no_answer = [q for q, g in result.qrels.items() if not any(v > 0 for v in g.values())]
    assert all(result.generator_input["Oracle"][q] == [] for q in no_answer)
    assert "by construction" in row["caveat"]


def test_bad_config_is_refused_with_the_field_named():
    with pytest.raises(ValueError, match="rerank_depth=3 is smaller than top_k=5"):
        AblationConfig(rerank_depth=3)
    with pytest.raises(ValueError, match="split"):
        AblationConfig(split="test")
    with pytest.raises(ValueError, match="tokenizer"):
        replace(AblationConfig(), tokenizer="nltk")
    with pytest.raises(ValueError, match="tuned names unknown knobs"):
        AblationConfig(tuned=("N",))
    with pytest.raises(ValueError, match="unknown identity 'ceo'"):
        run_ablation(AblationConfig(identity="ceo"))


def test_refusal_threshold_is_never_fitted_on_holdout():
    with pytest.raises(ValueError, match="dev questions only"):
        fit_refusal_threshold([{"question_id": "Q1", "split": "holdout", "support": 0.5,
                                "answerable": True, "correct": True}])


def test_the_holdout_split_is_refused_without_opening_it():
    with pytest.raises(ValueError, match="the holdout is sealed"):
        run_ablation(AblationConfig(split="holdout"))


def test_dev_questions_are_reranked_out_of_fold_never_by_a_fit_that_saw_their_group():
    result = run_ablation(AblationConfig(rerank_depth=10), answers=False)
    stage = result.rerank_stage
    folds = stage.folds()
    group_folds: dict[str, set[int]] = {}
    for q, f in folds.items():
        group_folds.setdefault(stage.group[q], set()).add(f)
    assert all(len(f) == 1 for f in group_folds.values())  # a group sits in one fold
    assert len(set(folds.values())) == 5
    # D's ranking of each dev question equals the ranking by a model fitted without its fold
    for fold in sorted(set(folds.values())):
        train = [q for q in stage.dev if folds[q] != fold]
        model = stage.fit(train)
        assert not {q for q in model.fitted_on if folds[q] == fold}
        for q in (q for q in stage.dev if folds[q] == fold):
            assert result.runs["D"][q] == stage.rank(q, model, train)
    assert "out of fold" in result.table.loc["D", "caveat"]


def test_tune_runs_on_dev_and_picks_a_setting_from_its_grid():
    grid, chosen = tune(AblationConfig(), ks=(1, 60), windows=(10,), depths=(5, 10))
    assert len(grid) == 4 and chosen.split == "dev"
    assert chosen.tuned == ("k", "window", "rerank_depth")
    best = grid["D nDCG@5"].max()
    picked = grid[(grid["k"] == chosen.k) & (grid["W"] == chosen.window)
                  & (grid["M"] == chosen.rerank_depth)]
    assert len(picked) == 1 and picked["D nDCG@5"].iloc[0] == best
    # the grid's D scores are the out-of-fold scores of run_ablation
    again = run_ablation(replace(chosen, tuned=()), answers=False)
    assert again.table.loc["D", "nDCG@5"] == pytest.approx(best)


def test_tuned_dev_rows_are_labelled_optimistic_in_the_table():
    _, chosen = tune(AblationConfig(), ks=(60,), windows=(10,), depths=(5,))
    table = run_ablation(chosen, answers=False).table
    assert table.loc["C", "caveat"].startswith("optimistic: k, W")
    assert table.loc["D", "caveat"].startswith("optimistic: k, W, M")
    assert "optimistic" not in table.loc["A", "caveat"]


def test_grid_edges_finds_the_edge_by_hand():
    grid = pd.DataFrame({"k": [1, 10, 60, 1, 10, 60], "W": [5, 5, 5, 10, 10, 10],
                         "M": [5] * 6, "D nDCG@5": [0.5, 0.7, 0.6, 0.5, 0.6, 0.6]})
    edges = grid_edges(grid, AblationConfig(k=10, window=5, rerank_depth=5))
    assert edges.loc["k", "position"] == "inside"
    assert edges.loc["W", "position"] == "lowest (edge)"
    assert edges.loc["M", "position"] == "only value"
    assert edges.loc["k", "best D nDCG@5 at each value"] == "0.500, 0.700, 0.600"
    assert edges["chosen"].tolist() == ["10", "5", "5"]  # written as the grid writes them: no 5.0 beside 10


def test_tuning_and_leakage_refuse_a_dataset_holding_holdout_questions():
    from types import SimpleNamespace

    ds = SimpleNamespace(questions=pd.DataFrame({"question_id": ["Q99"], "split": ["holdout"]}),
                         corpus=None, qrels=None, identities=None, config={})
    with pytest.raises(ValueError, match="dev questions only"):
        tune(AblationConfig(), dataset=ds)
    with pytest.raises(ValueError, match="dev questions only"):
        leakage_experiment(ds, AblationConfig())
    with pytest.raises(ValueError, match="dev questions only"):
        leakage_on_fixed_questions(ds, AblationConfig())


def test_leakage_grouped_split_never_straddles_and_random_does():
    leak = leakage_experiment(None, AblationConfig(), seeds=range(5))
    assert (leak["grouped: groups on both sides"] == 0).all()
    assert (leak["grouped: test questions with a twin in fitting"] == 0).all()
    assert (leak["random: groups on both sides"] > 0).any()


def test_leaks_on_fixed_questions_score_the_same_test_part_in_every_arm():
    """One seed, one setting: a row per leak, the same test part, the twins left out of the clean fit only."""
    one = {"k": (1,), "window": (40,), "rerank_depth": (5,)}
    rows = leakage_on_fixed_questions(None, AblationConfig(), seeds=[0], grid=one, memory_depths=(5,),
                                      resamples=200)
    assert list(rows.index) == [(0, "memory (M = 5)"), (0, "tuning (k, W, M)")]
    assert rows["test questions"].nunique() == 1 and rows["twins in fitting"].nunique() == 1
    tuning = rows.xs("tuning (k, W, M)", level="leak").iloc[0]
    # one setting: the honest and the leaky pick are the same, so this arm cannot differ
    assert tuning["clean choice"] == tuning["leaky choice"] == "k=1, W=40, M=5" and tuning["difference"] == 0
    memory = rows.xs("memory (M = 5)", level="leak").iloc[0]
    assert memory["low"] <= memory["difference"] <= memory["high"]


@pytest.mark.slow
def test_random_split_estimate_is_optimistic_on_average():
    """Through the real reranker (M = 20, room for its memory): random minus grouped > 0 on average."""
    leak = leakage_experiment(None, AblationConfig(k=60, window=10, rerank_depth=20), seeds=range(40))
    diff = leak["difference (random − grouped)"]
    assert diff.mean() > 0
    assert (diff > 0).sum() > len(diff) / 2


def test_a_snapshot_before_the_corpus_is_refused_with_its_start_date():
    with pytest.raises(ValueError, match=r"no chunk is in the index on 2000-01-01 .*the corpus starts on"):
        run_ablation(AblationConfig(snapshot_date="2000-01-01"), answers=False)


def test_article_defaults_are_the_config_defaults():
    """06b's ARTICLE_DEFAULTS writes W and M as literals: they must stay AblationConfig's starting values."""
    from ragmath.lab.workbook import ALPHA_DEFAULT, ARTICLE_DEFAULTS

    config = AblationConfig()
    assert ARTICLE_DEFAULTS == {"k": 60, "W": config.window, "M": config.rerank_depth, "α": ALPHA_DEFAULT}
