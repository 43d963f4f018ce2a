"""Row E of the ablation: C's two lists fused by the convex combination of min-max scores, α by the rule.

The expected values come from the formula computed here by hand (each list's top W scaled to [0, 1] within
itself, α on BM25 and 1 − α on the vector list, ties by ID), from ``ragmath.compare`` (the intervals the
rule reads) and from the folds recomputed from the questions' groups, not from the code under test.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from ragmath import compare, evaluate
from ragmath.lab.ablation import AblationConfig, run_ablation
from ragmath.lab.corpus import load_dataset
from ragmath.lab.paths import DATA_DIR
from ragmath.lab.workbook import (
    ALPHA_DEFAULT,
    ALPHA_GRID,
    against_default,
    convex_rankings,
    intervals_against_default,
    keep_default_rule,
)

LIVE = AblationConfig(editions="live", k=1, window=40, rerank_depth=5, score_fusion=True)


def _by_hand(lists: dict[str, list[tuple[str, float]]], alpha: float, window: int) -> list[str]:
    fused: dict[str, float] = {}
    for name, weight in (("bm25", alpha), ("vector", 1 - alpha)):
        top = lists[name][:window]
        low, high = min(s for _, s in top), max(s for _, s in top)
        for item, score in top:
            scaled = 0.0 if high == low else (score - low) / (high - low)
            fused[item] = fused.get(item, 0.0) + weight * scaled
    return sorted(fused, key=lambda item: (-fused[item], item))


@pytest.fixture(scope="module")
def live_dev():
    return run_ablation(LIVE, answers=False)


def test_a_convex_ranking_by_hand():
    lists = {"q": {"bm25": [("4.2", 12.7), ("6.1", 8.3), ("3.5", 5.0)],
                   "vector": [("5.3", 0.82), ("6.1", 0.80), ("4.2", 0.71)]}}
    # alpha 0.5: 6.1 = 0.5 * (8.3 - 5) / 7.7 + 0.5 * (0.80 - 0.71) / 0.11 = 0.2143 + 0.4091
    assert convex_rankings(lists, 0.5, 10) == {"q": ["6.1", "4.2", "5.3", "3.5"]}
    assert convex_rankings(lists, 1.0, 10) == {"q": ["4.2", "6.1", "3.5", "5.3"]}  # 5.3: 0, then by ID
    assert convex_rankings(lists, 0.0, 10) == {"q": ["5.3", "6.1", "3.5", "4.2"]}


def test_row_e_is_c_with_its_fusion_replaced(live_dev):
    """E fuses exactly the lists C fuses (the trace's top W of BM25 and vector), by the formula, cut at M."""
    for qid, ranking in live_dev.runs["E"].items():
        fused = live_dev.trace[qid]["score fusion"]
        assert list(fused)[:LIVE.rerank_depth] == ranking
        assert set(fused) == set(live_dev.trace[qid]["bm25"][:LIVE.window]) | set(
            live_dev.trace[qid]["vector"][:LIVE.window])
    for qid in list(live_dev.runs["E"])[:8]:  # the formula by hand, with one of the rule's values of α
        lists = _lists_by_hand(qid)
        assert any(list(live_dev.trace[qid]["score fusion"]) == _by_hand(lists, alpha, LIVE.window)
                   for alpha in ALPHA_GRID), qid


_RETRIEVERS: dict[str, tuple] = {}


@functools.cache
def _stored_rows() -> tuple[list[str], np.ndarray]:
    """data/vectors' manifest hashes, in row order, and its matrix (read once)."""
    manifest = json.loads((DATA_DIR / "vectors" / "manifest.json").read_text(encoding="utf-8"))
    return [r["sha256"] for r in manifest["rows"]], np.load(DATA_DIR / "vectors" / manifest["vectors"])


def _stored_e5(prefixed_text: str) -> np.ndarray:
    """The stored e5 vector of the exact string the model read, looked up here in data/vectors' manifest."""
    hashes, matrix = _stored_rows()
    return matrix[hashes.index(hashlib.sha256(prefixed_text.encode()).hexdigest())].astype(float)


def _lists_by_hand(qid: str) -> dict[str, list[tuple[str, float]]]:
    """The question's BM25 list from a retriever built here over what its identity may read, and its vector
    list as cosines of the stored e5 vectors (query: question, passage: chunk text), ties by ID."""
    from ragmath.lab.workbook import BM25Retriever, chunk_text, in_index, permission_filter

    ds = load_dataset()
    question = ds.questions.set_index("question_id").loc[qid]
    identity = question["identity"]
    if identity not in _RETRIEVERS:
        live = ds.corpus[in_index(ds.corpus, ds.config["snapshot_date"], "live")]
        view = permission_filter(live, tuple(ds.identities.loc[identity, "roles"]))
        chunks = {row["chunk_id"]: _stored_e5("passage: " + chunk_text(row))
                  for row in view.to_dict("records")}
        _RETRIEVERS[identity] = (BM25Retriever(view, "jieba"), chunks)
    bm25, chunks = _RETRIEVERS[identity]
    query = _stored_e5("query: " + question["text"])
    cosines = {cid: float(vector @ query) for cid, vector in chunks.items()}
    ranked = sorted(cosines.items(), key=lambda pair: (-pair[1], pair[0]))
    return {"bm25": bm25.retrieve(question["text"], LIVE.window), "vector": ranked[:LIVE.window]}


def _e_by_hand(qid: str, alpha: float) -> list[str]:
    return _by_hand(_lists_by_hand(qid), alpha, LIVE.window)


def test_a_set_alpha_fuses_every_question_with_it(live_dev):
    fixed = run_ablation(replace(LIVE, alpha=0.3), answers=False)
    assert fixed.config["α (E: weight on BM25)"] == "0.3 (set)"
    assert fixed.runs["C"] == live_dev.runs["C"] and fixed.runs["D"] == live_dev.runs["D"]
    qid = next(iter(fixed.runs["E"]))
    assert list(fixed.trace[qid]["score fusion"]) == _e_by_hand(qid, 0.3)


def test_the_rules_intervals_are_compares():
    """intervals_against_default (what the fold-by-fold choice reads) gives compare's interval bit for bit."""
    ds = load_dataset()
    result = run_ablation(LIVE, ds, answers=False)
    runs = {"C": result.runs["C"], "D": result.runs["D"], "E": result.runs["E"]}
    per_question = {name: evaluate(run, result.qrels, ["nDCG@5"]).per_question["nDCG@5"].dropna()
                    for name, run in runs.items()}
    mine = intervals_against_default(per_question, "version", "C").set_index("version")
    theirs = compare(runs, result.qrels, ["nDCG@5"], baseline="C", seed=0).comparisons.set_index("system")
    for name in ("D", "E"):
        assert mine.loc[name, "low"] == theirs.loc[name, "low"]
        assert mine.loc[name, "high"] == theirs.loc[name, "high"]
        assert mine.loc[name, "diff vs default"] == pytest.approx(theirs.loc[name, "diff"], abs=1e-15)
    full = against_default(runs, result.qrels, "version", "C", "nDCG@5", version="any")
    assert full.set_index("version")[["low", "high"]].equals(mine[["low", "high"]])


def test_alpha_is_chosen_out_of_fold_for_dev_questions(live_dev):
    """Each dev question's α is the rule's choice on the dev questions of the other folds (groups i mod 5)."""
    ds = load_dataset()
    groups = dict(zip(ds.questions["question_id"], ds.questions["group"], strict=True))
    fold_of_group = {g: i % 5 for i, g in enumerate(sorted(set(groups.values())))}
    fold = {q: fold_of_group[groups[q]] for q in groups}
    by_alpha = {alpha: run_ablation(replace(LIVE, alpha=alpha), ds, answers=False) for alpha in ALPHA_GRID}
    scores = {alpha: evaluate(r.runs["E"], r.qrels, ["nDCG@5"]).per_question["nDCG@5"].dropna()
              for alpha, r in by_alpha.items()}
    for held_out in range(5):
        train = [q for q in fold if fold[q] != held_out]
        table = compare({alpha: {q: by_alpha[alpha].runs["E"][q] for q in train} for alpha in ALPHA_GRID},
                        {q: live_dev.qrels[q] for q in train}, ["nDCG@5"], baseline=ALPHA_DEFAULT,
                        seed=0).comparisons.set_index("system")
        better = table[table["low"] > 0]
        chosen = ALPHA_DEFAULT if better.empty else better["diff"].idxmax()
        for qid in (q for q in fold if fold[q] == held_out):
            assert live_dev.runs["E"][qid] == by_alpha[chosen].runs["E"][qid], (qid, chosen)
    assert keep_default_rule(intervals_against_default(scores, "α", ALPHA_DEFAULT)) in ALPHA_GRID


@pytest.mark.parametrize("alpha", [-0.1, 1.5, True, "0.5"])
def test_bad_alpha_rejected(alpha):
    with pytest.raises(ValueError, match="alpha"):
        AblationConfig(alpha=alpha)


def test_a_stored_table_without_row_e_still_builds():
    from ragmath.lab.ablation import by_type_table, metric_names, summary_table

    result = run_ablation(replace(LIVE, alpha=0.5), answers=False)
    names, recall_m = metric_names(LIVE)
    without_e = result.per_question.drop(index="E", level="version")
    table = summary_table(without_e, names, recall_m, False)
    assert list(table.index) == ["A", "B", "C", "D", "Oracle"]
    pd.testing.assert_frame_equal(table, result.table.drop(index="E").drop(columns="caveat"))
    assert "E" not in by_type_table(without_e, names, False).index.get_level_values("version")
