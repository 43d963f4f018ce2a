"""Cross-checks of ragmath against the reference tools, and the documented disagreements.

Agreement: on seeded random, tie-free runs (every question: distinct IDs with distinct scores, grades
0-3, at least one relevant item), per question and to 1e-9,

- Recall@K, Hit@K (trec_eval ``success``), RR@K (trec_eval ``recip_rank`` on the run cut to K) and
  linear-gain nDCG@K (trec_eval ``ndcg_cut``) against pytrec_eval (pytrec-eval-terrier);
- exponential-gain nDCG@K against ranx ``ndcg_burges@k`` (and linear gain against ranx ``ndcg@k``);
- ``ragmath.rrf`` against ``ranx.fuse(method="rrf", norm=None)`` for several k and windows.

Disagreements: each test at the end asserts what the tools actually do and says why it matters.

ranx compiles each numba function on first use (~20 s, then cached on disk), so every ranx call here
is batched over all questions; the module is marked ``slow``.
"""

from __future__ import annotations

import inspect
import math
from fractions import Fraction

import numpy as np
import pytest

pytrec_eval = pytest.importorskip("pytrec_eval")
ranx = pytest.importorskip("ranx")

from ragmath import (  # noqa: E402
    evaluate,
    hit_at_k,
    ndcg_at_k,
    recall_at_k,
    reciprocal_rank,
    rrf,
)
from ragmath.ranking import ranking_from_scores  # noqa: E402

pytestmark = pytest.mark.slow

TOL = 1e-9
N_QUESTIONS = 250
CUTOFFS = (1, 3, 5, 10, 20)
POOL = [f"d{i:02d}" for i in range(60)]


# ---------------------------------------------------------------------------------------------------
# Random tie-free data
# ---------------------------------------------------------------------------------------------------


def _random_question(rng: np.random.Generator) -> tuple[dict[str, float], dict[str, int]]:
    """One question: {ID: score} with distinct scores, and {ID: int grade 0-3} with a grade > 0."""
    n_retrieved = int(rng.integers(1, 21))
    retrieved = [str(x) for x in rng.choice(POOL, size=n_retrieved, replace=False)]
    # Distinct scores: distinct integers scaled, so no two IDs tie and neither tool's tie rule matters.
    raw = rng.choice(100_000, size=n_retrieved, replace=False)
    scores = {doc: float(value) / 97.0 for doc, value in zip(retrieved, raw, strict=True)}

    labelled_in_run = list(rng.choice(retrieved, size=int(rng.integers(0, min(5, n_retrieved) + 1)),
                                      replace=False))
    outside = [doc for doc in POOL if doc not in scores]
    labelled_outside = list(rng.choice(outside, size=int(rng.integers(0, 5)), replace=False))
    grades = {str(doc): int(rng.integers(0, 4)) for doc in labelled_in_run + labelled_outside}
    if not any(g > 0 for g in grades.values()):
        # Every question needs a relevant item: trec_eval and ragmath treat no-answer ones differently.
        pick = str(rng.choice(list(grades) or outside))
        grades[pick] = int(rng.integers(1, 4))
    return scores, grades


@pytest.fixture(scope="module")
def data() -> tuple[dict[str, dict[str, float]], dict[str, dict[str, int]]]:
    rng = np.random.default_rng(20260601)
    run: dict[str, dict[str, float]] = {}
    qrels: dict[str, dict[str, int]] = {}
    for i in range(N_QUESTIONS):
        run[f"q{i:03d}"], qrels[f"q{i:03d}"] = _random_question(rng)
    return run, qrels


@pytest.fixture(scope="module")
def rankings(data) -> dict[str, list[str]]:
    run, _ = data
    return {q: ranking_from_scores(scores) for q, scores in run.items()}


def test_random_data_is_tie_free_and_varied(data, rankings):
    """The generated data covers the cases the cross-checks are meant to exercise."""
    run, qrels = data
    assert len(run) >= 200 and set(run) == set(qrels)
    for q, scores in run.items():
        assert len(set(scores.values())) == len(scores), f"tied scores in {q}"
        assert all(isinstance(g, int) and 0 <= g <= 3 for g in qrels[q].values())
        assert any(g > 0 for g in qrels[q].values())
    relevant = {q: {d for d, g in qrels[q].items() if g > 0} for q in qrels}
    several = sum(len(r) >= 2 for r in relevant.values())
    unretrieved = sum(bool(r - set(run[q])) for q, r in relevant.items())
    none_retrieved = sum(not (r & set(run[q])) for q, r in relevant.items())
    some_found_late = sum(
        any(d in relevant[q] for d in rankings[q][5:]) for q in qrels
    )
    all_grades = {g for grades in qrels.values() for g in grades.values()}
    assert several >= 50, several
    assert unretrieved >= 50, unretrieved
    assert none_retrieved >= 20, none_retrieved
    assert some_found_late >= 20, some_found_late
    assert all_grades == {0, 1, 2, 3}


# ---------------------------------------------------------------------------------------------------
# pytrec_eval (trec_eval): Recall, success, recip_rank on the cut run, ndcg_cut (linear gain)
# ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def trec(data) -> dict[str, dict[str, float]]:
    run, qrels = data
    cuts = ",".join(map(str, CUTOFFS))
    evaluator = pytrec_eval.RelevanceEvaluator(
        qrels, {f"recall.{cuts}", f"success.{cuts}", f"ndcg_cut.{cuts}"}
    )
    result = evaluator.evaluate(run)
    # recip_rank ignores a cut-off, so cut every ranking to K (by score, tie-free) and evaluate again.
    rr_evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"})
    for k in CUTOFFS:
        cut_run = {q: dict(sorted(s.items(), key=lambda kv: -kv[1])[:k]) for q, s in run.items()}
        for q, values in rr_evaluator.evaluate(cut_run).items():
            result[q][f"rr_{k}"] = values["recip_rank"]
    return result


def test_trec_eval_scored_every_question(data, trec):
    run, _ = data
    assert set(trec) == set(run)


@pytest.mark.parametrize("k", CUTOFFS)
def test_recall_hit_rr_ndcg_linear_match_trec_eval_per_question(data, rankings, trec, k):
    _, qrels = data
    for q, grades in qrels.items():
        ranking = rankings[q]
        expected = trec[q]
        assert abs(recall_at_k(ranking, grades, k) - expected[f"recall_{k}"]) <= TOL, q
        assert abs(hit_at_k(ranking, grades, k) - expected[f"success_{k}"]) <= TOL, q
        assert abs(reciprocal_rank(ranking, grades, k) - expected[f"rr_{k}"]) <= TOL, q
        assert abs(ndcg_at_k(ranking, grades, k, gain="linear") - expected[f"ndcg_cut_{k}"]) <= TOL, q


def test_evaluate_on_score_dicts_matches_trec_eval_per_question_and_mean(data, trec):
    run, qrels = data
    names = [f"{m}@{k}" for k in CUTOFFS for m in ("Recall", "Hit", "MRR", "nDCG")]
    trec_key = {"Recall": "recall_{}", "Hit": "success_{}", "MRR": "rr_{}", "nDCG": "ndcg_cut_{}"}
    result = evaluate(run, qrels, names, gain="linear")
    assert result.missing == [] and result.no_answer == [] and result.unjudged == []
    assert set(result.per_question.index) == set(qrels)
    for name in names:
        metric, k = name.split("@")
        expected = {q: trec[q][trec_key[metric].format(k)] for q in qrels}
        got = result.per_question[name]
        worst = max(abs(float(got[q]) - expected[q]) for q in qrels)
        assert worst <= TOL, (name, worst)
        assert abs(float(result.means[name]) - math.fsum(expected.values()) / len(expected)) <= TOL


# ---------------------------------------------------------------------------------------------------
# ranx: nDCG with exponential gain (ndcg_burges) and linear gain (ndcg)
# ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ranx_ndcg(data) -> dict[str, dict[str, float]]:
    run, qrels = data
    ranx_run = ranx.Run({q: dict(s) for q, s in run.items()})
    metrics = [f"ndcg_burges@{k}" for k in CUTOFFS] + [f"ndcg@{k}" for k in CUTOFFS]
    # One call over all questions: one numba compilation, and >= 10 questions keeps its threads.
    ranx.evaluate(ranx.Qrels({q: dict(g) for q, g in qrels.items()}), ranx_run, metrics)
    return {m: {q: float(v) for q, v in ranx_run.scores[m].items()} for m in metrics}


@pytest.mark.parametrize("k", CUTOFFS)
def test_ndcg_exp_matches_ranx_ndcg_burges_per_question(data, rankings, ranx_ndcg, k):
    _, qrels = data
    expected = ranx_ndcg[f"ndcg_burges@{k}"]
    assert set(expected) == set(qrels)
    for q, grades in qrels.items():
        assert abs(ndcg_at_k(rankings[q], grades, k, gain="exp") - expected[q]) <= TOL, q


@pytest.mark.parametrize("k", CUTOFFS)
def test_ndcg_linear_matches_ranx_ndcg_per_question(data, rankings, ranx_ndcg, k):
    _, qrels = data
    expected = ranx_ndcg[f"ndcg@{k}"]
    for q, grades in qrels.items():
        assert abs(ndcg_at_k(rankings[q], grades, k, gain="linear") - expected[q]) <= TOL, q


def test_evaluate_exp_ndcg_matches_ranx(data, ranx_ndcg):
    run, qrels = data
    result = evaluate(run, qrels, [f"nDCG@{k}" for k in CUTOFFS], gain="exp")
    for k in CUTOFFS:
        expected = ranx_ndcg[f"ndcg_burges@{k}"]
        got = result.per_question[f"nDCG@{k}"]
        assert max(abs(float(got[q]) - expected[q]) for q in qrels) <= TOL
        assert abs(float(result.means[f"nDCG@{k}"]) - math.fsum(expected.values()) / len(qrels)) <= TOL


# ---------------------------------------------------------------------------------------------------
# RRF against ranx.fuse(method="rrf", norm=None)
# ---------------------------------------------------------------------------------------------------

N_LISTS = 3
RRF_KS = (1, 5, 60)
WINDOWS = (None, 1, 3, 8)


@pytest.fixture(scope="module")
def fusion_lists() -> dict[str, list[list[str]]]:
    """Per question, three ranked lists of distinct IDs (lengths 1-15) drawn from a shared pool."""
    rng = np.random.default_rng(7)
    pool = [f"c{i:02d}" for i in range(25)]
    lists = {}
    for i in range(N_QUESTIONS):
        lists[f"q{i:03d}"] = [
            [str(x) for x in rng.choice(pool, size=int(rng.integers(1, 16)), replace=False)]
            for _ in range(N_LISTS)
        ]
    return lists


def _as_ranx_runs(lists: dict[str, list[list[str]]], window: int | None) -> list:
    """One ranx Run per input list; scores n, n-1, ..., 1 follow the ranking (distinct, no ties)."""
    runs = []
    for j in range(N_LISTS):
        run = {}
        for q, per_question in lists.items():
            ranking = per_question[j][:window] if window is not None else per_question[j]
            run[q] = {doc: float(len(ranking) - pos) for pos, doc in enumerate(ranking)}
        runs.append(ranx.Run(run, name=f"L{j + 1}"))
    return runs


def _exact_rrf(lists: list[list[str]], k: int, window: int | None) -> dict[str, Fraction]:
    """RRF scores computed with fractions, to tell true ties from float noise."""
    scores: dict[str, Fraction] = {}
    for ranking in lists:
        for position, doc in enumerate(ranking[:window] if window else ranking, start=1):
            scores[doc] = scores.get(doc, Fraction(0)) + Fraction(1, k + position)
    return scores


@pytest.mark.parametrize("window", WINDOWS)
@pytest.mark.parametrize("k", RRF_KS)
def test_rrf_matches_ranx_fuse_per_question(fusion_lists, k, window):
    fused = ranx.fuse(_as_ranx_runs(fusion_lists, window), norm=None, method="rrf", params={"k": k})
    reference = fused.to_dict()
    for q, lists in fusion_lists.items():
        table = rrf(lists, k=k, window=window)
        expected = reference[q]
        assert sorted(table["id"]) == sorted(expected), q
        ours = dict(zip(table["id"], table["rrf_score"], strict=True))
        assert max(abs(ours[d] - expected[d]) for d in expected) <= TOL, q
        # Both orders follow the exact fused score: they give the same sequence of groups of truly
        # tied items (inside a group, ranx has its own tie order and ragmath the rule tested below).
        exact = _exact_rrf(lists, k, window)
        assert _tie_groups(list(table["id"]), exact) == _tie_groups(list(expected), exact), q


def test_rrf_exact_ties_are_broken_by_id_ascending(fusion_lists):
    # k=1: b = 1/2 + 1/4 + 1/12 = 5/6 and a = 1/2 + 1/3 = 5/6, a true tie, so 'a' must come first.
    lists = {"L1": ["b"], "L2": ["a", "y", "b"], "L3": ["x", "a", *[f"f{i}" for i in range(8)], "b"]}
    assert list(rrf(lists, k=1)["id"][:2]) == ["a", "b"]
    # The same rule on the random lists: order = exact fused score descending, then ID ascending.
    for k in RRF_KS:
        for window in WINDOWS:
            for q, per_question in fusion_lists.items():
                exact = _exact_rrf(per_question, k, window)
                expected_order = sorted(exact, key=lambda d: (-exact[d], d))
                assert list(rrf(per_question, k=k, window=window)["id"]) == expected_order, (q, k)


def _tie_groups(order: list[str], exact: dict[str, Fraction]) -> list[tuple[Fraction, frozenset]]:
    """Consecutive runs of equal exact score in ``order``: [(score, {IDs}), ...]."""
    groups: list[tuple[Fraction, set]] = []
    for doc in order:
        if groups and groups[-1][0] == exact[doc]:
            groups[-1][1].add(doc)
        else:
            groups.append((exact[doc], {doc}))
    return [(score, frozenset(docs)) for score, docs in groups]


# ---------------------------------------------------------------------------------------------------
# Documented disagreements: what the reference tools actually do
# ---------------------------------------------------------------------------------------------------


def test_trec_eval_recip_rank_ignores_a_cutoff():
    # trec_eval accepts "recip_rank.1" and silently ignores the 1: the first relevant item sits at
    # rank 3 and it still reports 1/3. ragmath's RR@1 is 0; cutting the run to K first agrees.
    qrels = {"q": {"X": 1}}
    run = {"q": {"Y": 3.0, "W": 2.0, "X": 1.0}}
    with_cutoff = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank.1"}).evaluate(run)
    assert with_cutoff["q"]["recip_rank"] == pytest.approx(1 / 3, abs=TOL)
    assert reciprocal_rank(["Y", "W", "X"], {"X"}, 1) == 0.0
    cut = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate({"q": {"Y": 3.0}})
    assert cut["q"]["recip_rank"] == 0.0


def test_trec_eval_drops_a_labelled_question_missing_from_the_run():
    # q2 is labelled but absent from the run. trec_eval leaves it out (its mean is over q1 alone,
    # 1.0, inflated); ragmath scores it 0, keeps it in the mean (0.5) and lists it in .missing.
    qrels = {"q1": {"A": 1}, "q2": {"B": 1}}
    run = {"q1": {"A": 1.0}}
    trec = pytrec_eval.RelevanceEvaluator(qrels, {"success.1"}).evaluate(run)
    assert set(trec) == {"q1"}
    assert trec["q1"]["success_1"] == 1.0
    ours = evaluate(run, qrels, ["Hit@1"])
    assert ours.missing == ["q2"]
    assert ours.per_question.loc["q2", "Hit@1"] == 0.0
    assert ours.means["Hit@1"] == 0.5


def test_trec_eval_drops_an_unjudged_question_silently():
    # q9 is in the run but not labelled: trec_eval returns nothing for it, ragmath lists it apart.
    qrels = {"q1": {"A": 1}}
    run = {"q1": {"A": 1.0}, "q9": {"Z": 1.0}}
    trec = pytrec_eval.RelevanceEvaluator(qrels, {"success.1"}).evaluate(run)
    assert set(trec) == {"q1"}
    ours = evaluate(run, qrels, ["Hit@1"])
    assert ours.unjudged == ["q9"] and list(ours.per_question.index) == ["q1"]


def test_trec_eval_scores_a_no_answer_question_zero():
    # q2 is labelled but has no relevant item. trec_eval keeps it and scores 0 (pulling the mean
    # down); ragmath keeps it outside every mean and lists it in .no_answer.
    qrels = {"q1": {"A": 1}, "q2": {"B": 0}}
    run = {"q1": {"A": 1.0}, "q2": {"B": 1.0}}
    trec = pytrec_eval.RelevanceEvaluator(qrels, {"success.1", "recall.1"}).evaluate(run)
    assert set(trec) == {"q1", "q2"}
    assert trec["q2"]["success_1"] == 0.0 and trec["q2"]["recall_1"] == 0.0
    ours = evaluate(run, qrels, ["Hit@1", "Recall@1"])
    assert ours.no_answer == ["q2"] and list(ours.per_question.index) == ["q1"]
    assert ours.means["Hit@1"] == 1.0


def test_trec_eval_treats_a_negative_grade_as_zero_ragmath_refuses_it():
    # A grade of -1 gives exactly the numbers of a grade of 0 in trec_eval (no error, no warning);
    # ragmath raises, naming the ID and the value, because a negative label is usually a data bug.
    measures = {"ndcg_cut.3", "recall.3", "recip_rank"}
    run = {"q": {"a": 2.0, "b": 1.0}}
    negative = pytrec_eval.RelevanceEvaluator({"q": {"a": -1, "b": 2}}, measures).evaluate(run)
    zero = pytrec_eval.RelevanceEvaluator({"q": {"a": 0, "b": 2}}, measures).evaluate(run)
    assert negative == zero
    assert negative["q"]["ndcg_cut_3"] == pytest.approx(1 / math.log2(3), abs=TOL)  # b at rank 2
    with pytest.raises(ValueError, match=r"negative") as excinfo:
        ndcg_at_k(["a", "b"], {"a": -1, "b": 2}, 3, gain="linear")
    assert "'a'" in str(excinfo.value) and "-1" in str(excinfo.value)
    with pytest.raises(ValueError, match=r"negative"):
        evaluate(run, {"q": {"a": -1, "b": 2}}, ["nDCG@3"])


def test_score_ties_trec_eval_id_descending_ragmath_id_ascending():
    # a and b share the score 1.0. trec_eval puts b first (docid descending), so a relevant 'a' gets
    # RR 1/2; ragmath's ranking_from_scores puts 'a' first (ID ascending), so RR is 1.
    qrels = {"q": {"a": 1}}
    for run_scores in ({"a": 1.0, "b": 1.0}, {"b": 1.0, "a": 1.0}):  # dict order does not matter
        trec = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate({"q": run_scores})
        assert trec["q"]["recip_rank"] == 0.5
        assert ranking_from_scores(run_scores) == ["a", "b"]
        assert evaluate({"q": run_scores}, qrels, ["MRR@2"]).means["MRR@2"] == 1.0
    trec_b = pytrec_eval.RelevanceEvaluator({"q": {"b": 1}}, {"recip_rank"}).evaluate(
        {"q": {"a": 1.0, "b": 1.0}}
    )
    assert trec_b["q"]["recip_rank"] == 1.0


def test_ranx_fuse_normalises_min_max_by_default():
    # ranx.fuse's default is norm="min-max", applied whatever the method. For a score-based method
    # (CombSUM) it changes the fused scores; for RRF, which reads only each run's order, min-max keeps
    # the order and so (measured with ranx 0.3.21) leaves the RRF scores unchanged. Pass norm=None
    # anyway: it states the intent and does not depend on how a normaliser treats ties.
    assert inspect.signature(ranx.fuse).parameters["norm"].default == "min-max"
    first = {f"q{i}": {"a": 10.0 + i, "b": 4.0, "c": 1.0} for i in range(12)}
    second = {f"q{i}": {"b": 0.9, "c": 0.5, "d": 0.1} for i in range(12)}

    def fused(**kwargs):
        runs = [ranx.Run(first, name="one"), ranx.Run(second, name="two")]
        return ranx.fuse(runs, **kwargs).to_dict()

    summed_raw = fused(norm=None, method="sum")
    summed_default = fused(method="sum")
    assert summed_raw["q0"]["b"] == pytest.approx(4.9, abs=TOL)  # raw 4.0 + 0.9
    assert summed_default["q0"]["b"] == pytest.approx(1 / 3 + 1.0, abs=TOL)  # (4-1)/(10-1) + (0.9-0.1)/0.8
    rrf_raw = fused(norm=None, method="rrf", params={"k": 60})
    rrf_default = fused(method="rrf", params={"k": 60})
    assert rrf_raw["q0"]["b"] == pytest.approx(1 / 62 + 1 / 61, abs=TOL)
    for q in first:
        assert rrf_default[q] == pytest.approx(rrf_raw[q], abs=TOL)


def test_trec_eval_refuses_fractional_grades_ragmath_accepts_them():
    # pytrec_eval takes only int grades (hence the int grades of the random data above); ragmath
    # accepts any finite non-negative grade, e.g. 1.5 for a partly answering item.
    with pytest.raises(TypeError, match="integer"):
        pytrec_eval.RelevanceEvaluator({"q": {"a": 1.5}}, {"recall.3"})
    assert ndcg_at_k(["a"], {"a": 1.5}, 3, gain="linear") == 1.0
