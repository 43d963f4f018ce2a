"""Notebook 07's readings: each claim is recomputed from the table (or the data files) it reads."""

from __future__ import annotations

import csv
import json
import re
import subprocess
from dataclasses import replace

import pandas as pd
import pytest

from ragmath import compare
from ragmath.lab.ablation import (
    P_HOLM,
    P_SIGN_FLIP,
    holdout_overlap,
    knob_against_default,
    leakage_on_fixed_questions,
    run_ablation,
    type_intervals,
)
from ragmath.lab.corpus import split_manifest
from ragmath.lab.holdout import frozen_design
from ragmath.lab.paths import DATA_DIR
from ragmath.lab.readings import (
    read_closing,
    read_fixed_leaks,
    read_frozen_choice,
    read_generations,
    read_leakage,
    read_overlap,
    read_types,
)

ROOT = DATA_DIR.parent
ONE_SETTING = {"k": (1,), "window": (40,), "rerank_depth": (5,)}


@pytest.fixture(scope="module")
def dev():
    return run_ablation(frozen_design(), answers=False)


def test_leakage_reading_counts_test_questions_with_a_twin_not_near_duplicates():
    # 07 c23 said "4.1 near-duplicates"; the column counts test questions that have a twin
    leak = pd.DataFrame({"random: nDCG@5": [0.8, 0.7, 0.9], "grouped: nDCG@5": [0.7, 0.75, 0.6],
                         "random: test questions": [13, 13, 13],
                         "random: test questions with a twin in fitting": [3, 4, 5]})
    leak["difference (random − grouped)"] = leak["random: nDCG@5"] - leak["grouped: nDCG@5"]
    (claim,) = read_leakage(leak, "nDCG@5")
    assert "4.0 of its 13 test questions have a near-duplicate" in claim.sentence


def test_fixed_leak_reading_by_hand():
    index = pd.MultiIndex.from_product([[0, 1, 2], ["memory (M = 5)"]], names=["seed", "leak"])
    rows = pd.DataFrame({"difference": [0.1, 0.0, -0.05], "low": [0.02, -0.1, -0.2],
                         "high": [0.2, 0.1, -0.01], "test questions": 13,
                         "test questions with a twin in fitting": [3, 4, 5],
                         "twins in fitting": [6, 6, 6]}, index=index)
    memory, seeds = read_fixed_leaks(rows, "nDCG@5")
    assert memory.extra == {"seeds higher": 1, "intervals above 0": 1, "intervals below 0": 1}
    assert memory.values["mean difference"] == pytest.approx(0.05 / 3)
    assert "higher in 1 of 3 seeds, by +0.017" in memory.sentence
    assert "from -0.050 to +0.100" in memory.sentence
    assert "4.0 of the 13 test questions" in seeds.sentence


def test_the_leak_arms_score_the_same_questions_and_tuning_never_loses(dev):
    rows = leakage_on_fixed_questions(config=frozen_design(), seeds=[0, 1], memory_depths=(5,), resamples=200,
                                      grid={"k": (1, 60), "window": (40,), "rerank_depth": (5, 20)})
    tuning = rows.xs("tuning (k, W, M)", level="leak")
    assert (tuning["difference"] >= -1e-12).all()
    # recompute seed 0's memory arms by hand through the reranker stage
    import math

    import numpy as np

    from ragmath import evaluate

    stage, qrels = dev.rerank_stage, dev.qrels
    answerable = [q for q in stage.dev if any(g > 0 for g in qrels[q].values())]
    drawn = [answerable[i] for i in np.random.default_rng(0).permutation(len(answerable))]
    cut = math.ceil(0.3 * len(drawn))
    test, rest = sorted(drawn[:cut]), sorted(drawn[cut:])
    clean = [q for q in rest if stage.group[q] not in {stage.group[t] for t in test}]

    def score(fit):
        model = stage.fit(fit)
        run = {q: stage.rank(q, model, fit) for q in test}
        return float(evaluate(run, {q: qrels[q] for q in test}, ["nDCG@5"]).means["nDCG@5"])

    row = rows.loc[(0, "memory (M = 5)")]
    assert row["clean: nDCG@5"] == pytest.approx(score(clean))
    assert row["leaky: nDCG@5"] == pytest.approx(score(rest))
    assert row["twins in fitting"] == len(rest) - len(clean)
    claims = read_fixed_leaks(rows, "nDCG@5")
    for claim in claims[:-1]:
        part = rows.xs(claim.metric.removeprefix("leak: "), level="leak")
        assert claim.extra["seeds higher"] == (part["difference"] > 0).sum()
        assert claim.extra["intervals above 0"] == (part["low"] > 0).sum()
        assert claim.values["mean difference"] == pytest.approx(part["difference"].mean())


def test_type_intervals_hold_the_by_type_means(dev):
    table = type_intervals(dev, "nDCG@5", resamples=500)
    for _, r in table.iterrows():
        by_type = dev.by_type.loc[(r["type"], r["version"])]
        assert r["mean"] == pytest.approx(by_type["nDCG@5"])
        assert r["N"] == by_type["answerable"]
        assert r["low"] <= r["mean"] <= r["high"]


def test_type_reading_recomputes_sizes_order_and_separation(dev):
    table = type_intervals(dev, "nDCG@5", resamples=500)
    sizes, paraphrase, exact, separated = read_types(table, "nDCG@5")
    t = table.set_index(["type", "version"])
    assert sizes.values == {k: float(v) for k, v in table.groupby("type")["N"].max().items()}
    order = t.loc["paraphrase", "mean"].sort_values(ascending=False)
    listing = " > ".join(f"{v} {m:.3f}" for v, m in order.items())
    assert re.sub(r" \[[^]]*\]", "", paraphrase.sentence).count(listing) == 1, paraphrase.sentence
    assert paraphrase.matches == (order.index[0] == "B")
    a, c = t.loc[("exact-id", "A"), "mean"], t.loc[("exact-id", "C"), "mean"]
    assert exact.extra["C below A"] == float(c < a)
    assert ("is below A" in exact.sentence) == (c < a)
    apart = 0
    for _, part in table.groupby("type"):
        part = part.set_index("version")
        top = part["mean"].idxmax()
        apart += all(part.loc[top, "low"] > part.loc[v, "high"] or part.loc[v, "low"] > part.loc[top, "high"]
                     for v in part.index if v != top)
    assert separated.extra["separated"] == apart


def test_overlap_counts_recomputed_from_the_files():
    side = dict(zip(split_manifest()["question_id"], split_manifest()["split"], strict=True))
    with (DATA_DIR / "qrels.csv").open(encoding="utf-8", newline="") as handle:
        positive = [(r["question_id"], r["chunk_id"]) for r in csv.DictReader(handle) if int(r["grade"]) > 0]
    dev_chunks = {c for q, c in positive if side[q] == "dev"}
    held = [(q, c) for q, c in positive if side[q] == "holdout"]
    overlap = holdout_overlap()
    assert overlap["holdout positive labels"] == len(held)
    assert overlap["shared with dev evidence"] == [(q, c) for q, c in held if c in dev_chunks]
    assert ("Q67", "TRV26-4.2-a") in overlap["shared with dev evidence"]  # the example
    shared, added = read_overlap(overlap)
    n_shared = len(overlap["shared with dev evidence"])
    assert f"{n_shared} of the holdout's {len(held)} positive" in shared.sentence
    if overlap["chunks added with the holdout"] is None:
        pytest.skip("no git history: the added chunks cannot be listed")
    seal = subprocess.run(["git", "-C", str(ROOT), "log", "-n", "1", "--format=%H",
                           "--grep=^holdout: sealed"], capture_output=True, text=True, check=True)
    seal = seal.stdout.strip()

    def ids(rev):
        text = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:data/corpus.jsonl"],
                              capture_output=True, text=True, check=True).stdout
        return {json.loads(line)["chunk_id"] for line in text.splitlines() if line.strip()}

    new = ids(seal) - ids(f"{seal}^")
    assert overlap["chunks added with the holdout"] == sorted(new)
    assert overlap["dev labels on added chunks"] == sum(c in new for q, c in positive if side[q] == "dev")
    assert f"added {len(new)} chunks" in added.sentence


def _knob_row(diff: float, low: float, high: float, p: float = 0.2) -> dict:
    return {"diff vs default": diff, "low": low, "high": high, P_SIGN_FLIP: p, "questions": 43}


def test_frozen_choice_reading_follows_the_rule():
    keeps, why = read_frozen_choice(_knob_row(0.04, -0.006, 0.102, 0.219), knob="k", frozen=1,
                                    default=60, fixed="W = 40, M = 5")
    assert keeps.leaders == ("60",) and "keeps k = 60, not the frozen k = 1" in keeps.sentence
    assert "(sign-flip p = 0.219)" in keeps.sentence
    assert "data/config.json stay as they are" in why.sentence
    (agrees,) = read_frozen_choice(_knob_row(0.04, 0.01, 0.1), knob="k", frozen=1,
                                   default=60, fixed="W = 40, M = 5")
    assert agrees.leaders == ("1",) and "also picks k = 1" in agrees.sentence


def test_frozen_choice_on_the_dev_run_is_compare_of_the_two_runs(dev):
    """07 § 7: the row read is ``ragmath.compare`` of D at k = 60 against D at the frozen k = 1."""
    frozen = frozen_design()
    default = run_ablation(replace(frozen, k=60), answers=False)
    found = compare({"60": default.runs["D"], "1": dev.runs["D"]}, dev.qrels, ["nDCG@5"],
                    baseline="60").comparisons.iloc[0]
    table = knob_against_default(frozen, "k", (frozen.k,))
    row = table[~table["default"]].iloc[0]
    claim = read_frozen_choice(row, knob="k", frozen=1, default=60, fixed="W = 40, M = 5")[0]
    a = default.evaluations["D"].per_question["nDCG@5"]
    b = dev.evaluations["D"].per_question["nDCG@5"]
    assert claim.values["mean"] == pytest.approx(float((b - a.loc[b.index]).mean()))
    assert (claim.values["low"], claim.values["high"], claim.values["p"]) == pytest.approx(
        (found["low"], found["high"], found["p"]))
    assert f"(sign-flip p = {found['p']:.3f})" in claim.sentence
    assert claim.extra["rule picks frozen"] == float(found["low"] > 0 or found["high"] < 0)


def test_generation_reading_by_hand():
    (claim,) = read_generations([[1, 1, 1], [0, 1, 0], [0, 0, 0]], (0.3, 0.8), (0.1, 0.9))
    assert claim.extra["agree"] == pytest.approx(2 / 3)
    assert "0.500 wide" in claim.sentence and "0.800 wide" in claim.sentence
    assert "precision the 3 questions do not have" in claim.sentence


def _closing(pairs: pd.DataFrame) -> list:
    return read_closing(
        questions=53, answerable=43, opened=1, holdout={"mean": 0.7, "low": 0.6, "high": 0.8},
        dev_value=0.75, accuracy={"x": 30, "N": 43, "value": 30 / 43, "low": 0.55, "high": 0.81},
        oracle={"x": 40, "N": 43, "value": 40 / 43, "low": 0.8, "high": 0.97}, pairs=pairs,
        smallest_type=3)


CLOSING_PAIRS = pd.DataFrame({"comparison": ["D − C", "C − A"], "mean diff": [0.05, 0.01],
                              "low": [0.01, -0.03], "high": [0.09, 0.05], P_SIGN_FLIP: [0.004, 0.3],
                              P_HOLM: [0.008, 0.3], "wins": [12, 8], "losses": [1, 6],
                              "questions": [43, 43], "excludes 0": [True, False]})


def test_closing_reading_says_includes_or_excludes_as_the_intervals_do():
    head, supports, versus, limits = _closing(CLOSING_PAIRS)
    first, second = supports.sentence.split("It does not separate")
    assert "D − C on nDCG@5 is +0.050 [+0.010, +0.090] (excludes 0; sign-flip p = 0.004, Holm 0.008)" in first
    assert "C − A" not in first
    assert ("C − A on nDCG@5 is +0.010 [-0.030, +0.050] (includes 0; sign-flip p = 0.300, Holm 0.300)"
            in second)
    assert "lower than dev's" in versus.sentence and "optimistic by 0.050" in versus.sentence
    assert "30/43" in head.sentence and "as few as 3" in limits.sentence


def test_closing_reading_flags_an_interval_that_leaves_out_0_against_a_holm_p_above_005():
    pairs = CLOSING_PAIRS.assign(**{P_SIGN_FLIP: [0.03, 0.3], P_HOLM: [0.09, 0.3], "wins": [8, 8],
                                    "losses": [3, 6]})
    claims = _closing(pairs)
    (edge,) = [c for c in claims if c.metric == "interval against Holm"]
    assert edge.values == {"D − C": 0.09}
    assert "Holm-adjusted sign-flip p is 0.090" in edge.sentence and "only 11 of its 43" in edge.sentence
    supports = next(c for c in claims if c.metric == "supports")
    assert supports.values == {"apart": 0.0} and "below 0.05: none of the compared" in supports.sentence
    assert "D − C" not in supports.sentence  # neither settled nor among the intervals that hold 0
    assert len(_closing(CLOSING_PAIRS)) == len(claims) - 1  # with Holm's p below 0.05 nothing is flagged


def test_notebook_07_shows_sentences_and_titles_only_through_readings():
    nb = json.loads((ROOT / "notebooks" / "07_honest_numbers.ipynb").read_text(encoding="utf-8"))
    code = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    literal = r"""\(\s*f?["']"""
    for src in code:
        assert not re.search(r"Markdown" + literal, src), src
        assert not re.search(r"(set_title|suptitle|set_ylabel|set_xlabel)" + literal, src), src
        assert not re.search(r"plot_intervals\([^,()]+,\s*f?[\"']", src), src
