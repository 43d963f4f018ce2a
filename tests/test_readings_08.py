"""Notebook 08's readings recomputed from hand-made tables, its prepared judgements from the dev labels,
and its code cells free of English sentences (every sentence comes from ragmath.lab.readings)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from ragmath import compare
from ragmath.lab.notebook.own_system import complete_labels, labels_within, plan_table, pooling_bias
from ragmath.lab.readings import (
    WORDS_08,
    read_comparison,
    read_labelling,
    read_opening,
    read_plan,
    read_pool,
    read_pooling_bias,
    read_report,
)

ROOT = Path(__file__).resolve().parent.parent


def test_pool_reading_counts_items_and_what_one_version_alone_brings():
    table = pd.DataFrame({"question": ["q1", "q1", "q2"], "id": ["a", "b", "c"], "best rank": [1, 2, 1],
                          "versions": [["A", "B"], ["B"], ["A"]]})
    (claim,) = read_pool(table, depth=2, versions=["A", "B"])
    assert claim.values == {"items": 3.0, "only A": 1.0, "only B": 1.0}
    assert "3 items to label for 2 questions (1 to 2 a question)" in claim.sentence


def test_labelling_reading_says_who_judged():
    (none,) = read_labelling({"by hand": 0, "prepared": 7}, prepared="p.csv")
    assert "Nobody judged" in none.sentence and "all 7 come from the prepared" in none.sentence
    (some,) = read_labelling({"by hand": 2, "prepared": 5}, prepared="p.csv")
    assert "You judged 2 item(s)" in some.sentence and "the other 5" in some.sentence


def test_complete_labels_prefer_the_person_and_refuse_an_unjudged_item():
    table = pd.DataFrame({"question": ["q1", "q1"], "id": ["a", "b"]})
    labels, counts = complete_labels(table, {"q1": {"b": 2}}, {"q1": {"a": 1, "b": 0}})
    assert labels == {"q1": {"a": 1, "b": 2}} and counts == {"by hand": 1, "prepared": 1}
    with pytest.raises(ValueError, match="has no judgement"):
        complete_labels(table, {}, {"q1": {"a": 1}})


def _bias_table():
    # q1: A ranks [a, x], B ranks [n, a]; a and n are relevant. A's pool (depth 1) labels only a.
    runs = {"A": {"q1": ["a", "x"]}, "B": {"q1": ["n", "a"]}}
    sets = {"pool of A": {"q1": {"a": 1}}, "pool of A, B": {"q1": {"a": 1, "n": 1}},
            "complete": {"q1": {"a": 1, "n": 1, "m": 1}}}
    return pooling_bias(runs, sets, ["Recall@1"], baseline="A")


def test_pooling_bias_table_by_hand():
    table = _bias_table()
    # Recall@1: under A's pool, A 1/1, B 0/1; under both pools A 1/2, B 1/2; complete A 1/3, B 1/3
    assert table["Recall@1"].tolist() == pytest.approx([1, 0, 0.5, 0.5, 1 / 3, 1 / 3])
    assert table["Judged@1"].tolist() == [1.0, 0.0, 1.0, 1.0, 1.0, 1.0]
    assert table[WORDS_08["minus"].format(metric="Recall@1", baseline="A")].tolist() == pytest.approx(
        [0, -1, 0, 0, 0, 0])


def test_pooling_bias_reading_recomputes_shift_warning_and_flattery():
    table = _bias_table()
    moved, single, complete = read_pooling_bias(table, metric="Recall@1", baseline="A", partial="pool of A",
                                                full="pool of A, B", single="pool of A", complete="complete",
                                                new=["B"])
    assert moved.values == {"B": pytest.approx(-0.5)}  # 0 under A's pool, 0.5 under both
    assert "B 0.000 under pool of A, 0.500 under pool of A, B (bias -0.500)" in moved.sentence
    assert "B below 0.9 × A's 1.000" in moved.sentence and "moved these scores" in moved.sentence
    assert single.matches is True and "B -1.000 (+0.000)" in single.sentence
    assert complete.values == pytest.approx({"A": 0.5 - 1 / 3, "B": 0.5 - 1 / 3})
    assert "higher for every version" in complete.sentence


def test_comparison_reading_uses_compare_numbers_and_names_the_candidate():
    runs = {"A": {f"q{i}": ["x", "r"] for i in range(4)}, "B": {f"q{i}": ["r"] for i in range(4)}}
    qrels = {f"q{i}": {"r": 1} for i in range(4)}
    result = compare(runs, qrels, ["MRR@2"], n_resamples=1_000)
    row = result.comparisons.iloc[0]  # B − A = 1 − 1/2 on every question: 4 wins, exact p = 2/16
    assert (row["diff"], row["p"]) == (0.5, 0.125)
    claim, candidate = read_comparison(result, "MRR@2")
    assert "B +0.500 [+0.500, +0.500], p = 0.125, Holm 0.125, 4/0/0" in claim.sentence
    assert "No version is better than A" in claim.sentence and candidate.leaders == ("B",)


def test_report_reading_counts_rows_and_notes():
    (claim,) = read_report("r.md", "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\n- one\n- two\n")
    assert claim.values == {"rows": 2.0, "notes": 2.0}


def test_plan_reading_and_table_follow_the_formula():
    import math
    from statistics import NormalDist

    per_question = {"A": pd.DataFrame({"m@1": [0.0, 0.0, 0.0, 0.0]}),
                    "C": pd.DataFrame({"m@1": [0.2, -0.1, 0.3, 0.0]})}
    result = SimpleNamespace(per_question=per_question, baseline="A")
    plan = plan_table(result, "m@1", 0.1, questions=30)
    sd = pd.Series([0.2, -0.1, 0.3, 0.0]).std()
    z = NormalDist().inv_cdf(0.975) + NormalDist().inv_cdf(0.8)
    assert plan.loc["C", WORDS_08["questions for d"].format(d=0.1)] == math.ceil((z * sd / 0.1) ** 2)
    assert plan.loc["C", WORDS_08["detectable with n"].format(n=30)] == pytest.approx(z * sd / math.sqrt(30))
    (claim,) = read_plan(plan, metric="m@1", d=0.1, version="C", questions=30, power=0.8, resampled=0.79,
                         draws=100)
    assert f"needs {math.ceil((z * sd / 0.1) ** 2)} answerable questions" in claim.sentence
    assert "reject in 79.0% of the draws" in claim.sentence


def test_opening_reading_says_ran_or_shown_and_includes_or_excludes():
    opening = SimpleNamespace(number=1, times_opened=1, ran=False,
                              record={"opened_at": "2026-01-01", "commit": "abc", "design_sha256": "f" * 64})
    index = pd.MultiIndex.from_product([["q1", "q2"], ["A", "D"]], names=["question", "version"])
    scores = pd.DataFrame({"nDCG@5": [0.5, 0.7, 1.0, 1.0]}, index=index)
    shown, numbers = read_opening(opening, scores, baseline="A", candidate="D", metric="nDCG@5",
                                  diff={"mean": 0.1, "low": -0.1, "high": 0.3}, dev_diff=0.02)
    assert "re-ran nothing" in shown.sentence and "opened 1 time(s)" in shown.sentence
    assert numbers.values == {"A": 0.75, "D": 0.85} and "includes 0" in numbers.sentence


def test_labels_within_keeps_only_the_pool_items():
    pool_table = pd.DataFrame({"question": ["q1", "q2"], "id": ["a", "z"]})
    assert labels_within({"q1": {"a": 2, "b": 1}, "q2": {"y": 0}}, pool_table) == {"q1": {"a": 2}}


def test_prepared_judgements_are_the_dev_grades_of_the_pool():
    from ragmath import grouped_split
    from ragmath.io import read_qrels_table
    from ragmath.lab.corpus import load_dataset
    from ragmath.lab.notebook.own_system import OWN_SPLIT, dev_labels, prepared_judgements

    ds = load_dataset()
    q = ds.questions
    group = dict(zip(q["question_id"], q["group"], strict=True))
    working, held = grouped_split(list(q["question_id"]), group, **OWN_SPLIT)
    committed = read_qrels_table(ROOT / "notebooks" / "own_system" / "prepared_judgements.csv")
    rebuilt = prepared_judgements(ds, working)
    assert [list(r) for r in committed.select("question", "id", "grade").rows()] == rebuilt.values.tolist()
    assert not set(committed["question"]) & set(held)  # the holdout's questions are never pooled
    labels = dev_labels(ds, working)
    for question, item, grade in rebuilt.values.tolist():
        assert grade == labels.get(question, {}).get(item, 0)


def test_notebook_08_shows_sentences_only_through_readings():
    nb = json.loads((ROOT / "notebooks" / "08_your_own_system.ipynb").read_text(encoding="utf-8"))
    code = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"][1:]  # after versions
    for src in code:
        without_comments = re.sub(r"WORDS_08\[[^]]*\]", "", re.sub(r"#.*", "", src))  # keys, not text
        for literal in re.findall(r"""(?<![\w])f?(["'])(.*?)\1""", without_comments.replace('\"\"\"', "")):
            text = literal[1]
            assert not re.search(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}", text), (text, src)
        assert "print(" not in src and not re.search(r"(set_title|suptitle|set_ylabel|set_xlabel)\(", src)
