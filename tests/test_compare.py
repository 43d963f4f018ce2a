"""ragmath.compare (ragmath.comparison): p-values against scipy, intervals against a hand-written
bootstrap, Holm by hand, ranx's compare where the conventions meet, Judged@K, the question-count plan,
groups and units, the command line."""

from __future__ import annotations

import io
import json
import math
import random
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from ragmath import evaluate
from ragmath.cli import main
from ragmath.comparison import (
    at_units,
    by_group,
    compare,
    holm,
    name_runs,
    plan_questions,
    pool,
    sign_flip_p,
)
from ragmath.metrics import judged_at_k
from ragmath.ranking import ranking_from_scores


def _mean_diff(x, y, axis=-1):
    return np.mean(x - y, axis=axis)


def _scipy_exact_p(b, a):
    """scipy's paired permutation test (swap within pairs = sign flips), every arrangement enumerated."""
    return stats.permutation_test((np.asarray(b), np.asarray(a)), _mean_diff, permutation_type="samples",
                                  alternative="two-sided", n_resamples=np.inf, vectorized=True).pvalue


def _ranking_with_first_relevant_at(rank: int, relevant: str, tag: str) -> list[str]:
    return [f"{tag}-filler{i}" for i in range(1, rank)] + [relevant]


# Twelve questions, each with one relevant item "r{q}"; A finds it at rank a, B at rank b (0 = never).
RANKS_A = [1, 2, 3, 1, 0, 2, 1, 3, 0, 1, 2, 1]
RANKS_B = [1, 1, 2, 1, 1, 3, 1, 1, 2, 1, 1, 0]
QRELS = {f"q{i}": {f"r{i}": 1, f"n{i}": 0} for i in range(12)}


def _run(ranks, tag):
    return {f"q{i}": (_ranking_with_first_relevant_at(r, f"r{i}", tag) if r else [f"{tag}-x{i}"])
            for i, r in enumerate(ranks)}


def _mrr(ranks, k=3):
    return np.array([1 / r if 0 < r <= k else 0.0 for r in ranks])


def test_sign_flip_p_agrees_with_scipy_permutation_test_exactly():
    rng = np.random.default_rng(3)
    for n in (5, 9, 13):
        a, b = rng.random(n), rng.random(n)
        b[:2] = a[:2]  # zero differences count but flip to themselves
        p, how = sign_flip_p(b - a)
        assert how.startswith("exact") and p == pytest.approx(_scipy_exact_p(b, a), abs=1e-12)


def test_compare_p_agrees_with_scipy_on_hand_computed_mrr():
    result = compare({"A": _run(RANKS_A, "A"), "B": _run(RANKS_B, "B")}, QRELS, ["MRR@3"])
    row = result.comparisons.iloc[0]
    a, b = _mrr(RANKS_A), _mrr(RANKS_B)
    assert row["diff"] == pytest.approx(np.mean(b - a))
    assert row["p"] == pytest.approx(_scipy_exact_p(b, a), abs=1e-12)
    assert row["test"].startswith("exact")
    assert (row["wins"], row["ties"], row["losses"]) == (
        int(np.sum(b > a)), int(np.sum(b == a)), int(np.sum(b < a)))
    assert row["effect_size"] == pytest.approx(np.mean(b - a) / np.std(b - a, ddof=1))


def test_many_questions_use_seeded_random_flips_close_to_scipy():
    rng = np.random.default_rng(7)
    a, b = rng.random(40), rng.random(40) + 0.08
    p, how = sign_flip_p(b - a, n_resamples=20_000, seed=1)
    assert how == "20,000 random sign flips (seed 1)"
    assert sign_flip_p(b - a, n_resamples=20_000, seed=1) == (p, how)  # seeded: the same p again
    reference = stats.permutation_test((b, a), _mean_diff, permutation_type="samples", vectorized=True,
                                       n_resamples=100_000, random_state=0).pvalue
    assert p == pytest.approx(reference, abs=0.01)


def test_sign_flip_with_no_difference_gives_one():
    assert sign_flip_p([0.0, 0.0, 0.0]) == (1.0, "exact: all 1 sign flips of 0 non-zero differences")


def test_intervals_agree_with_a_hand_written_bootstrap():
    result = compare({"A": _run(RANKS_A, "A"), "B": _run(RANKS_B, "B")}, QRELS, ["MRR@3"],
                     seed=5, n_resamples=2_000)
    a, b = _mrr(RANKS_A), _mrr(RANKS_B)

    def percentile_bootstrap(values):
        rng = np.random.default_rng(5)
        means = []
        for _ in range(2_000):  # one resample of the 12 questions, with replacement, at a time
            means.append(values[rng.integers(0, len(values), size=len(values))].mean())
        return np.quantile(means, [0.025, 0.975])

    systems = result.systems.set_index("name")
    assert systems.loc["A", ["low", "high"]].tolist() == pytest.approx(percentile_bootstrap(a).tolist())
    assert systems.loc["B", ["low", "high"]].tolist() == pytest.approx(percentile_bootstrap(b).tolist())
    row = result.comparisons.iloc[0]
    assert [row["low"], row["high"]] == pytest.approx(percentile_bootstrap(b - a).tolist())


def test_holm_on_a_hand_worked_example():
    # m = 4. Sorted: 0.005 (4th given), 0.01 (1st), 0.03 (3rd), 0.04 (2nd).
    # Steps (m - j + 1) p_(j): 4 x 0.005 = 0.02, 3 x 0.01 = 0.03, 2 x 0.03 = 0.06, 1 x 0.04 = 0.04.
    # Running maximum: 0.02, 0.03, 0.06, 0.06 -> back in the given order: 0.03, 0.06, 0.06, 0.02.
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # Capped at 1: 2 x 0.5 = 1.0, then max(1.0, 1 x 0.6) = 1.0.
    assert holm([0.5, 0.6]) == pytest.approx([1.0, 1.0])


def test_holm_covers_every_comparison_in_the_table():
    runs = {"A": _run(RANKS_A, "A"), "B": _run(RANKS_B, "B"), "C": _run(RANKS_B[::-1], "C")}
    result = compare(runs, QRELS, ["MRR@3", "Recall@2"])
    assert len(result.comparisons) == 4
    assert result.comparisons["p_holm"].tolist() == pytest.approx(holm(result.comparisons["p"].tolist()))


def test_means_wins_and_p_agree_with_ranx_compare():
    from ranx import Qrels, Run
    from ranx import compare as ranx_compare

    def scored(ranked):
        return {q: {d: float(len(ids) - i) for i, d in enumerate(ids)} for q, ids in ranked.items()}

    a, b = scored(_run(RANKS_A, "A")), scored(_run(RANKS_B, "B"))
    report = ranx_compare(qrels=Qrels(QRELS), runs=[Run(a, name="A"), Run(b, name="B")],
                          metrics=["mrr@3", "recall@2"], stat_test="fisher", n_permutations=20_000,
                          random_seed=0).to_dict()
    ours = compare({"A": a, "B": b}, QRELS, ["MRR@3", "Recall@2"])
    systems = ours.systems.set_index(["name", "metric"])["mean"]
    for ranx_name, metric in (("mrr@3", "MRR@3"), ("recall@2", "Recall@2")):
        for name in ("A", "B"):
            assert systems[name, metric] == pytest.approx(report[name]["scores"][ranx_name])
        row = ours.comparisons.set_index("metric").loc[metric]
        wtl = report["B"]["win_tie_loss"]["A"][ranx_name]  # B's wins over A
        assert (row["wins"], row["ties"], row["losses"]) == (wtl["W"], wtl["T"], wtl["L"])
        # ranx: 20,000 random permutations, no +1; ours exact (12 questions): within sampling error
        assert row["p"] == pytest.approx(report["B"]["comparisons"]["A"][ranx_name], abs=0.02)


def test_a_question_missing_from_a_version_scores_zero_there_and_is_listed():
    b = _run(RANKS_B, "B")
    del b["q3"]
    result = compare({"A": _run(RANKS_A, "A"), "B": b}, QRELS, ["MRR@3"])
    assert result.missing == {"A": [], "B": ["q3"]}
    assert result.per_question["B"].loc["q3", "MRR@3"] == 0.0
    assert any("missing" in note and "q3" in note for note in result.notes())


def test_judged_at_k_divides_by_k_and_counts_grade_zero_labels():
    # top 4 of a 3-item ranking: a (grade 2) and b (grade 0) are labelled, x is not -> 2 / 4
    assert judged_at_k(["a", "x", "b"], {"a": 2, "b": 0}, 4) == 0.5
    assert judged_at_k([], {"a": 1}, 3) == 0.0
    assert judged_at_k(["a", "b", "c"], {"c": 1}, 2, exact=True) == Fraction(0)


def test_judged_mean_includes_no_answer_questions_and_skips_unlabelled_ones():
    run = {"q1": ["a", "x"], "q2": ["y", "z"], "q3": ["w"], "q5": []}
    qrels = {"q1": {"a": 1}, "q2": {"y": 0, "z": 0}, "q4": {"v": 1}, "q5": {}}
    result = evaluate(run, qrels, ["Judged@2", "Recall@2"])
    # by hand: q1 1/2, q2 (no-answer, two grade-0 labels) 2/2, q5 (no-answer, empty ranking) 0/2;
    # q3 is unlabelled and q4 is not in the run: neither counts
    assert result.per_question["Judged@2"].dropna().to_dict() == {"q1": 0.5, "q2": 1.0, "q5": 0.0}
    assert result.means["Judged@2"] == 0.5 and result.questions("Judged@2") == 3
    assert result.means["Recall@2"] == 0.5 and result.n_scored == 2  # q1 1, q4 missing 0
    exact = evaluate(run, qrels, ["Judged@2"], exact=True)
    assert exact.means["Judged@2"] == Fraction(1, 2)


def test_judged_through_the_engine_equals_the_definition_on_random_runs():
    rng = random.Random(5)
    for _ in range(60):
        docs = [f"d{i}" for i in range(rng.randint(1, 12))]
        run = {f"q{q}": {d: rng.choice([0.1, 0.5, 0.9]) for d in rng.sample(docs, rng.randint(0, len(docs)))}
               for q in range(6) if rng.random() < 0.8}
        qrels = {f"q{q}": {d: rng.choice([0, 0, 1, 2]) for d in rng.sample(docs, rng.randint(0, len(docs)))}
                 for q in range(6) if rng.random() < 0.8}
        k = rng.randint(1, 8)
        expected = {q: judged_at_k(ranking_from_scores(run[q]), qrels[q], k) for q in qrels if q in run}
        result = evaluate(run, qrels, [f"Judged@{k}"])
        assert result.per_question[f"Judged@{k}"].dropna().to_dict() == pytest.approx(expected)
        mean = float(result.means[f"Judged@{k}"])
        if expected:
            assert mean == pytest.approx(sum(expected.values()) / len(expected))
        else:
            assert math.isnan(mean)


def test_compare_shows_judged_and_refuses_to_compare_it():
    with pytest.raises(ValueError, match="Judged@K is shown beside every comparison"):
        compare({"A": {"q1": ["a"]}, "B": {"q1": ["b"]}}, {"q1": {"a": 1}}, ["Judged@3"])


def test_a_version_with_fewer_judged_items_is_flagged():
    qrels = {f"q{i}": {f"r{i}": 1, f"s{i}": 0} for i in range(4)}
    base = {f"q{i}": [f"r{i}", f"s{i}"] for i in range(4)}  # Judged@2 = 1
    new = {f"q{i}": [f"r{i}", f"new{i}"] for i in range(4)}  # Judged@2 = 0.5 < 0.9 x 1
    result = compare({"base": base, "new": new}, qrels, ["Recall@2"])
    row = result.comparisons.iloc[0]
    assert (row["judged"], row["judged_baseline"], row["judged_warning"]) == (0.5, 1.0, True)
    assert result.summary()["Judged@K"].tolist() == ["1.000", "0.500!"]
    assert any(note.startswith("warning: new Judged@2 = 0.500") for note in result.notes())
    same = compare({"base": base, "again": base}, qrels, ["Recall@2"]).comparisons.iloc[0]
    assert not same["judged_warning"]


def test_pool_takes_each_top_depth_and_removes_labelled_items_grade_zero_included():
    runs = {"bm25": {"q1": ["a", "b", "c", "d"], "q2": ["x"]},
            "dense": {"q1": ["e", "a", "f"], "q3": ["y", "z"]}}
    # depth 2 by hand: q1 bm25 {a 1, b 2}, dense {e 1, a 2} -> a (best 1, both), e 1, b 2;
    # q2 x 1; q3 y 1, z 2. Labelled: q1's b (grade 0) and q3's z (grade 1) are taken out.
    table = pool(runs, 2, {"q1": {"b": 0}, "q3": {"z": 1}})
    assert table.values.tolist() == [["q1", "a", 1, ["bm25", "dense"]], ["q1", "e", 1, ["dense"]],
                                     ["q2", "x", 1, ["bm25"]], ["q3", "y", 1, ["dense"]]]
    assert list(table.columns) == ["question", "id", "best rank", "versions"]
    # depth 3, nothing labelled: q1 {a, b, c} ∪ {e, a, f} = 5 items, q2 1, q3 2
    assert pool(runs, 3).groupby("question").size().to_dict() == {"q1": 5, "q2": 1, "q3": 2}


def test_pool_reads_run_files_with_the_tie_rule(tmp_path):
    path = tmp_path / "run.trec"  # b and a tie on score: read back in ID order a, b
    path.write_text("q1 Q0 b 1 0.5 t\nq1 Q0 a 2 0.5 t\nq1 Q0 c 3 0.1 t\n", encoding="utf-8")
    assert pool({"v": path}, 1)["id"].tolist() == ["a"]
    assert pool({"v": path}, 3)[["id", "best rank"]].values.tolist() == [["a", 1], ["b", 2], ["c", 3]]


def test_pool_is_empty_when_everything_is_labelled():
    table = pool({"A": {"q1": ["a", "b"]}}, 5, {"q1": {"a": 1, "b": 0}})
    assert table.empty and list(table.columns) == ["question", "id", "best rank", "versions"]


def test_pool_refuses_no_runs_and_a_bad_depth():
    with pytest.raises(ValueError, match="at least one version"):
        pool({}, 3)
    with pytest.raises(ValueError, match="depth must be a positive int"):
        pool({"A": {"q1": ["a"]}}, 0)
    with pytest.raises(TypeError, match="depth must be a positive int"):
        pool({"A": {"q1": ["a"]}}, 2.5)


def test_plan_questions_follows_the_formula():
    diffs = [0.2, -0.1, 0.3, 0.0, 0.1]
    sd = np.std(diffs, ddof=1)  # 0.15811...
    z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)  # 1.95996 + 0.84162
    assert plan_questions(diffs, 0.1) == math.ceil((z * sd / 0.1) ** 2)  # (2.80158 x 1.5811)^2 = 19.6 -> 20
    assert plan_questions(diffs, -0.05, power=0.9, alpha=0.01) == math.ceil(
        ((stats.norm.ppf(0.995) + stats.norm.ppf(0.9)) * sd / 0.05) ** 2)


def test_planned_question_count_gives_the_target_power_when_the_pilot_is_resampled():
    # A pilot of 30 per-question differences spread about evenly on both sides (the formula's
    # normal approximation holds for its mean); a strongly skewed pilot can miss the target by 5 points.
    pilot = np.array([0.0] * 10 + [0.5, -0.5, 1.0, -1.0, 0.33, -0.33, 0.25, -0.25, 0.2, -0.2, 0.6, -0.6,
                                   0.1, -0.1, 0.5, 0.33, 0.2, -0.25, 0.0, 0.1])
    d = 0.1
    n = plan_questions(pilot, d, power=0.8)
    centred = pilot - pilot.mean() + d  # the pilot's spread, shifted to the true difference d
    rng = np.random.default_rng(0)
    samples = centred[rng.integers(0, pilot.size, size=(4_000, n))]
    z = samples.mean(axis=1) / (samples.std(axis=1, ddof=1) / math.sqrt(n))
    power = float(np.mean(np.abs(z) > stats.norm.ppf(0.975)))
    assert power == pytest.approx(0.8, abs=0.04)


def test_plan_questions_refuses_what_it_cannot_plan():
    with pytest.raises(ValueError, match="at least two"):
        plan_questions([0.1], 0.1)
    with pytest.raises(ValueError, match="d != 0"):
        plan_questions([0.1, 0.2], 0)


def test_groups_give_counts_means_and_a_warning_below_ten():
    per_question = pd.DataFrame({"Hit@3": [1.0] * 10 + [0.0, 1.0, 0.0]}, index=[f"q{i}" for i in range(13)])
    groups = {f"q{i}": "big" for i in range(10)} | {"q10": "small", "q11": "small"}
    table = by_group(per_question, groups)
    assert table.loc["big"].tolist() == [10, 1.0, ""]
    assert table.loc["small"].tolist() == [2, 0.5, "fewer than 10 questions"]
    assert table.loc["(no group)", "questions"] == 1


def test_unit_map_keeps_each_unit_first_and_lifts_labels_to_their_best_grade():
    run, qrels = at_units({"q1": {"a2": 0.9, "b1": 0.8, "a1": 0.7}}, {"q1": {"a1": 2, "a2": 1}},
                          {"a1": "A", "a2": "A", "b1": "B"})
    assert run == {"q1": ["A", "B"]} and qrels == {"q1": {"A": 2}}
    with pytest.raises(ValueError, match="not in the unit table"):
        at_units({"q1": ["zz"]}, {}, {"a1": "A"})


def test_runs_are_named_by_stem_and_equal_stems_are_refused():
    assert name_runs(["x/bm25.trec", "v2=y/bm25.trec"]) == {"bm25": "x/bm25.trec", "v2": "y/bm25.trec"}
    with pytest.raises(ValueError, match="two runs are named 'bm25'"):
        name_runs(["x/bm25.trec", "y/bm25.csv"])


def test_compare_refuses_a_single_run_and_an_unknown_baseline():
    with pytest.raises(ValueError, match="at least one other run"):
        compare({"A": {}}, QRELS, ["MRR@3"])
    with pytest.raises(ValueError, match="baseline 'Z'"):
        compare({"A": {}, "B": {}}, QRELS, ["MRR@3"], baseline="Z")


def test_changes_list_each_question_largest_loss_first():
    result = compare({"A": _run(RANKS_A, "A"), "B": _run(RANKS_B, "B")}, QRELS, ["MRR@3"])
    changes = result.changes("B", "MRR@3")
    assert changes["change"].is_monotonic_increasing
    assert changes.loc["q11", "change"] == pytest.approx(0 - 1.0)  # A at rank 1, B never
    assert changes.loc["q4", "change"] == pytest.approx(1.0 - 0.0)


# ------------------------------------------------------------------ the command line

@pytest.fixture
def files(tmp_path):
    qrels = tmp_path / "qrels.csv"
    qrels.write_text("question,id,grade\n" + "".join(
        f"{q},{d},{g}\n" for q, grades in QRELS.items() for d, g in grades.items()), encoding="utf-8")
    paths = {}
    for name, ranks in (("base", RANKS_A), ("new", RANKS_B)):
        path = tmp_path / f"{name}.csv"
        path.write_text("question,id,rank\n" + "".join(
            f"{q},{d},{i}\n" for q, ids in _run(ranks, name).items() for i, d in enumerate(ids, 1)),
            encoding="utf-8")
        paths[name] = path
    return tmp_path, qrels, paths


def _cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    return main([str(a) for a in argv], stdout=out, stderr=err), out.getvalue(), err.getvalue()


def test_cli_compare_json_has_systems_and_comparisons(files):
    _, qrels, paths = files
    status, out, _ = _cli("compare", paths["base"], paths["new"], "--qrels", qrels, "-m", "MRR@3",
                          "--format", "json")
    assert status == 0
    payload = json.loads(out)
    assert [(s["name"], s["metric"]) for s in payload["systems"]] == [("base", "MRR@3"), ("new", "MRR@3")]
    row = payload["comparisons"][0]
    assert {"system", "baseline", "metric", "diff", "ci", "p", "p_holm", "wins", "ties", "losses"} <= set(row)
    assert row["p"] == pytest.approx(_scipy_exact_p(_mrr(RANKS_B), _mrr(RANKS_A)), abs=1e-12)
    assert any("exact" in note for note in payload["notes"])


def test_cli_compare_table_markdown_and_csv(files):
    _, qrels, paths = files
    status, table, _ = _cli("compare", paths["base"], paths["new"], "--qrels", qrels, "-m", "MRR@3")
    assert status == 0 and "baseline" in table and "W/T/L" in table and "sign-flip" in table
    status, markdown, _ = _cli("compare", paths["base"], paths["new"], "--qrels", qrels, "-m", "MRR@3",
                               "--format", "markdown")
    assert status == 0 and markdown.startswith("| system | metric |")
    status, csv_text, err = _cli("compare", paths["base"], paths["new"], "--qrels", qrels, "-m", "MRR@3",
                                 "--format", "csv")
    frame = pd.read_csv(io.StringIO(csv_text))
    assert status == 0 and frame["system"].tolist() == ["base", "new"] and "sign-flip" in err


def test_cli_compare_refuses_equal_stems(files):
    tmp, qrels, paths = files
    other = tmp / "sub"
    other.mkdir()
    (other / "base.csv").write_text(paths["new"].read_text(encoding="utf-8"), encoding="utf-8")
    status, _, err = _cli("compare", paths["base"], other / "base.csv", "--qrels", qrels)
    assert status == 2 and "NAME=PATH" in err
    status, out, _ = _cli("compare", paths["base"], f"v2={other / 'base.csv'}", "--qrels", qrels,
                          "-m", "MRR@3", "--format", "json")
    assert status == 0 and json.loads(out)["comparisons"][0]["system"] == "v2"


def test_cli_groups_and_unit_map_for_evaluate_and_compare(files):
    tmp, qrels, paths = files
    groups = tmp / "groups.csv"
    groups.write_text("question,group\n" + "".join(f"q{i},{'even' if i % 2 == 0 else 'odd'}\n"
                                                   for i in range(12)), encoding="utf-8")
    status, out, err = _cli("evaluate", paths["new"], qrels, "-m", "MRR@3", "--groups", groups,
                            "--format", "json")
    assert status == 0 and "fewer than 10" in err
    per_group = json.loads(out)["groups"]
    assert per_group["even"]["questions"] == 6
    assert per_group["even"]["MRR@3"] == pytest.approx(np.mean(_mrr(RANKS_B)[::2]))
    status, out, _ = _cli("compare", paths["base"], paths["new"], "--qrels", qrels, "-m", "MRR@3",
                          "--groups", groups, "--format", "json")
    assert json.loads(out)["groups"]["odd"]["new − base MRR@3"] == pytest.approx(
        np.mean((_mrr(RANKS_B) - _mrr(RANKS_A))[1::2]))


def test_cli_unit_map_scores_units_for_evaluate_and_compare(tmp_path):
    # chunks a1, a2 belong to document A, b1 to B; only a2 is labelled relevant
    (tmp_path / "units.csv").write_text("id,unit\na1,A\na2,A\nb1,B\n", encoding="utf-8")
    (tmp_path / "qrels.csv").write_text("question,id,grade\nq1,a2,1\nq1,b1,0\n", encoding="utf-8")
    (tmp_path / "chunks.csv").write_text("question,id,rank\nq1,a1,1\nq1,b1,2\nq1,a2,3\n", encoding="utf-8")
    (tmp_path / "other.csv").write_text("question,id,rank\nq1,b1,1\nq1,a1,2\n", encoding="utf-8")
    args = [tmp_path / "chunks.csv", tmp_path / "qrels.csv", "-m", "Hit@1", "--format", "json"]
    status, out, _ = _cli("evaluate", *args)
    assert status == 0 and json.loads(out)["means"]["Hit@1"] == 0.0  # a1 is not the labelled chunk
    status, out, _ = _cli("evaluate", *args, "--unit-map", tmp_path / "units.csv")
    assert status == 0 and json.loads(out)["means"]["Hit@1"] == 1.0  # document A holds a2 (grade 1)
    status, out, _ = _cli("compare", tmp_path / "other.csv", tmp_path / "chunks.csv", "--qrels",
                          tmp_path / "qrels.csv", "-m", "Hit@1", "--unit-map", tmp_path / "units.csv",
                          "--format", "json")
    row = json.loads(out)["comparisons"][0]
    assert status == 0 and (row["diff"], row["wins"]) == (1.0, 1)  # [B, A] vs [A, B] at document level


def test_cli_unit_map_refuses_a_repeated_id(tmp_path):
    (tmp_path / "units.csv").write_text("id,unit\na1,A\na1,B\n", encoding="utf-8")
    (tmp_path / "qrels.csv").write_text("question,id,grade\nq1,a1,1\n", encoding="utf-8")
    (tmp_path / "run.csv").write_text("question,id,rank\nq1,a1,1\n", encoding="utf-8")
    status, _, err = _cli("evaluate", tmp_path / "run.csv", tmp_path / "qrels.csv", "--unit-map",
                          tmp_path / "units.csv")
    assert status == 2 and "line 3" in err and "appears twice" in err


def test_cli_compare_refuses_fewer_than_ten_thousand_resamples(files):
    _, qrels, paths = files
    status, _, err = _cli("compare", paths["base"], paths["new"], "--qrels", qrels, "--resamples", "500")
    assert status == 2 and "at least 10000" in err


def test_cli_help_lists_compare():
    status, out, _ = _cli("compare", "--help")
    assert status == 0 and "--qrels" in out and "sign-flip" in out and "--unit-map" in out


def test_the_notebook_plot_draws_one_bar_per_question_sorted():
    import matplotlib

    matplotlib.use("Agg")
    from ragmath.lab.notebook.comparing import change_table, plot_paired_differences

    result = compare({"A": _run(RANKS_A, "A"), "B": _run(RANKS_B, "B")}, QRELS, ["MRR@3"])
    ax = plot_paired_differences(result, "B", "MRR@3")
    heights = [bar.get_height() for bar in ax.patches if bar.get_width() == pytest.approx(0.9)]
    assert heights == pytest.approx(sorted(_mrr(RANKS_B) - _mrr(RANKS_A)))
    table = change_table(result, "B", "MRR@3")
    assert table["outcome"].value_counts().to_dict() == {
        "win": int(np.sum(_mrr(RANKS_B) > _mrr(RANKS_A))), "tie": int(np.sum(_mrr(RANKS_B) == _mrr(RANKS_A))),
        "loss": int(np.sum(_mrr(RANKS_B) < _mrr(RANKS_A)))}
