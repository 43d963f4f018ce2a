"""One answer per input: a run gets the same numbers and report groups whatever its form and size.

The same run and labels are given as a dict of scores, a dict of ranked lists, a pandas and a polars
DataFrame, and TREC, CSV and JSONL files; integer IDs in the mappings are the decimal text in the
tables and files. Every form must give the same per-question values, means and groups, and
``exact=True`` fractions equal to the floats. Expected values in the named tests are worked by hand.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pandas as pd
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragmath import evaluate, fuse_runs

SETTINGS = settings(max_examples=60, derandomize=True, database=None, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
NAMES = ["Recall@1", "Recall@3", "Hit@2", "MRR@3", "nDCG@2", "nDCG@10"]
# Integer IDs and text IDs that never spell an integer, so no two of them are one ID.
ids = st.one_of(st.integers(0, 25), st.sampled_from(["a", "B", "d9", "d10", "é", "文", "Z1"]))
questions = st.one_of(st.integers(0, 12), st.sampled_from(["q1", "q10", "q9"]))
scores = st.sampled_from([0.5, 1.0, 2.0, 0.25])  # few values: many ties


def _text(value) -> str:
    return value if isinstance(value, str) else str(value)


@st.composite
def cases(draw):
    """A run {question: {ID: score}} and qrels {question: {ID: grade}}, neither with an empty entry."""
    run = draw(st.dictionaries(questions, st.dictionaries(ids, scores, min_size=1, max_size=8), max_size=6))
    qrels = draw(st.dictionaries(questions, st.dictionaries(ids, st.integers(0, 3), min_size=1, max_size=6),
                                 max_size=6))
    for mapping in (run, qrels):  # 1 and "1" are one question: keep one spelling
        for question in [q for q in mapping if isinstance(q, int) and str(q) in mapping]:
            del mapping[question]
    return run, qrels


def _rows(mapping, value_name):
    return [(_text(q), _text(d), v) for q, entries in mapping.items() for d, v in entries.items()]


def _frame(rows, value_name, kind):
    columns = {"question": [r[0] for r in rows], "id": [r[1] for r in rows], value_name: [r[2] for r in rows]}
    if kind == "polars":
        dtype = pl.Float64 if value_name == "score" else pl.Int64
        return pl.DataFrame(columns, schema={"question": pl.String, "id": pl.String, value_name: dtype})
    return pd.DataFrame(columns).astype({value_name: float if value_name == "score" else int})


def _write(folder, stem, rows, value_name, fmt):
    path = folder / f"{stem}.{fmt}"
    if fmt == "trec":
        if value_name == "score":
            lines = [f"{q} Q0 {d} {i} {v!r} tag" for i, (q, d, v) in enumerate(rows, start=1)]
        else:
            lines = [f"{q} 0 {d} {v}" for q, d, v in rows]
    elif fmt == "csv":
        lines = [f"question,id,{value_name}"] + [f"{q},{d},{v!r}" for q, d, v in rows]
    else:
        lines = [json.dumps({"question": q, "id": d, value_name: v}, ensure_ascii=False) for q, d, v in rows]
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def _forms(mapping, value_name, folder, stem):
    """The same run (or qrels) in every form ragmath reads, by name."""
    rows = _rows(mapping, value_name)
    forms = {"dict": mapping}
    if value_name == "score":  # ranked lists in the tie rule's order: score descending, then ID text
        forms["lists"] = {q: sorted(e, key=lambda d: (-e[d], _text(d))) for q, e in mapping.items()}
    forms["pandas"] = _frame(rows, value_name, "pandas")
    forms["polars"] = _frame(rows, value_name, "polars")
    for fmt in ("trec", "csv", "jsonl"):
        forms[fmt] = _write(folder, stem, rows, value_name, fmt)
    return forms


def _summary(result):
    per_question = result.per_question
    return (list(per_question.index), {n: [float(v) for v in per_question[n]] for n in result.metrics},
            {n: float(result.means[n]) for n in result.metrics},
            result.no_answer, result.missing, result.unjudged, result.ndcg_undefined)


def _same(a, b):
    # Means of nothing are NaN, which equals nothing; compare them as "both NaN".
    fix = [{n: ("nan" if math.isnan(v) else v) for n, v in a[2].items()},
           {n: ("nan" if math.isnan(v) else v) for n, v in b[2].items()}]
    return a[:2] + a[3:] == b[:2] + b[3:] and fix[0] == fix[1]


@SETTINGS
@given(cases(), st.sampled_from(["exp", "linear"]))
def test_every_form_of_a_run_gets_the_same_evaluation(tmp_path, case, gain):
    run, qrels = case
    runs = _forms(run, "score", tmp_path, "run")
    labels = _forms(qrels, "grade", tmp_path, "qrels")
    expected = _summary(evaluate(run, qrels, NAMES, gain=gain))
    for name, form in runs.items():
        assert _same(_summary(evaluate(form, qrels, NAMES, gain=gain)), expected), f"run as {name}"
    for name, form in labels.items():
        assert _same(_summary(evaluate(run, form, NAMES, gain=gain)), expected), f"qrels as {name}"
    assert _same(_summary(evaluate(runs["trec"], labels["csv"], NAMES, gain=gain)), expected)


@SETTINGS
@given(cases())
def test_exact_fractions_equal_the_floats_in_every_form(tmp_path, case):
    run, qrels = case
    names = ["Recall@2", "Hit@1", "MRR@4", "nDCG@3"]
    floats = evaluate(run, qrels, names)
    for name, form in _forms(run, "score", tmp_path, "run").items():
        exact = evaluate(form, qrels, names, exact=True)
        assert list(exact.per_question.index) == list(floats.per_question.index), name
        for metric in ("Recall@2", "Hit@1", "MRR@4"):
            assert all(isinstance(v, Fraction) for v in exact.per_question[metric])
            assert [float(v) for v in exact.per_question[metric]] == floats.per_question[metric].tolist()
            if len(floats.per_question):
                assert float(exact.means[metric]) == pytest.approx(floats.means[metric], rel=1e-15)
        assert exact.per_question["nDCG@3"].tolist() == floats.per_question["nDCG@3"].tolist()


@settings(max_examples=40, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(cases(), min_size=1, max_size=3), st.sampled_from([60, 1, 0.5]),
       st.sampled_from([None, 1, 3]))
def test_every_form_of_the_runs_gets_the_same_fusion(tmp_path, many, k, window):
    runs = [run for run, _ in many if run]
    if not runs:
        return
    expected = fuse_runs(runs, k=k, window=window, as_frame="polars")
    for name in ("lists", "pandas", "polars", "trec", "csv", "jsonl"):
        forms = [_forms(run, "score", tmp_path, f"run{i}")[name] for i, run in enumerate(runs)]
        got = fuse_runs(forms, k=k, window=window, as_frame="polars")
        assert got.rows() == expected.rows(), name
    mapping = fuse_runs(runs, k=k, window=window)
    assert [(q, d, s) for q, items in mapping.items() for d, s in items.items()] == \
        expected.select("question", "id", "score").rows()


# Unjudged questions of 100 results each: 25,100 rows, past the old size threshold of 20,000.
PADDING = {f"pad{i}": [f"x{j}" for j in range(100)] for i in range(251)}


@settings(max_examples=12, derandomize=True, database=None, deadline=None)
@given(cases())
def test_padding_a_mapping_past_the_old_threshold_changes_nothing(case):
    run, qrels = case
    small = _summary(evaluate(run, qrels, NAMES))
    lists = {q: sorted(e, key=lambda d: (-e[d], _text(d))) for q, e in run.items()}
    for form in (run, lists):
        padded = _summary(evaluate({**form, **PADDING}, qrels, NAMES))
        assert padded[5][-len(PADDING):] == list(PADDING)  # the padding: unjudged, listed last
        assert _same(padded[:5] + (padded[5][:-len(PADDING)],) + padded[6:], small)


# ----------------------------------------------------------------- the reproductions of issue 16


@pytest.mark.parametrize("padded", [False, True])
def test_integer_ids_with_tied_scores_get_one_answer_at_every_size(padded):
    # IDs are text: "10" < "2" in code-point order, so the tie at 0.5 puts 10 first and the relevant
    # 2 second; MRR@1 = 0 and MRR@2 = 1/2 (by hand). The old code said 1.0 small and 0.0 padded.
    run = {"q1": {2: 0.5, 10: 0.5, 3: 0.1}, **(PADDING if padded else {})}
    result = evaluate(run, {"q1": {2: 1}}, ["MRR@1", "MRR@2"])
    assert result.means["MRR@1"] == 0.0
    assert result.means["MRR@2"] == 0.5
    assert list(fuse_runs([run])["q1"]) == ["10", "2", "3"]


def test_integer_and_text_ids_are_one_id(tmp_path):
    # Run ID 1, label ID "1": the same ID (README), so Hit@1 = 1 in a mapping as in a file.
    assert evaluate({"q1": [1]}, {"q1": {"1": 1}}, ["Hit@1"]).means["Hit@1"] == 1.0
    assert evaluate({1: {1: 0.5}}, {"1": {"1": 1}}, ["Hit@1"]).means["Hit@1"] == 1.0
    (tmp_path / "qrels.trec").write_text("q1 0 1 1\n")
    assert evaluate({"q1": [1]}, tmp_path / "qrels.trec", ["Hit@1"]).means["Hit@1"] == 1.0


@pytest.mark.parametrize("run, qrels, message", [
    ({"q1": ["a"]}, {"q1": {"a": 2.5}}, r"qrels\['q1'\], ID 'a', grade: 2.5 is not an integer"),
    ({"q1": ["a"]}, {"q1": {"a": 100}}, r"grade '100' is out of range; a grade is an integer from 0 to 30"),
    ({"q1": ["a"]}, {"q1": {"a": 1024}}, r"grade '1024' is out of range"),
    ({"q1": {"a": math.inf}}, {"q1": {"a": 1}}, r"run\['q1'\], ID 'a', score: 'inf' is not a finite number"),
    ({"q1": [""]}, {"q1": {"a": 1}}, r"run\['q1'\], rank 1, id: empty ID"),
    ({"q1": ["a"]}, {"": {"a": 1}}, r"qrels, question: empty ID"),
    ({"q1": [1, "1"]}, {"q1": {"1": 1}}, r"duplicate \(question 'q1', id '1'\), first seen on rank 1"),
])
def test_a_mapping_gets_the_checks_a_file_gets(run, qrels, message):
    with pytest.raises(ValueError, match=message):
        evaluate(run, qrels, ["Recall@3"])


def test_a_question_twice_as_integer_and_text_is_refused():
    with pytest.raises(ValueError, match="run holds a question twice"):
        evaluate({1: {"a": 0.5}, "1": {"b": 0.5}}, {"1": {"a": 1}}, ["Hit@1"])
    with pytest.raises(ValueError, match="qrels holds a question twice"):
        evaluate({"1": ["a"]}, {1: {"a": 1}, "1": {"b": 1}}, ["Hit@1"])


def test_every_reader_of_a_mapping_refuses_a_question_as_integer_and_text():
    from ragmath import io
    from ragmath.comparison import at_units, compare, pool

    twice = {1: {"a": 1}, "1": {"b": 1}}
    runs = {"A": {"1": ["a", "b"]}, "B": {"1": ["b"]}}
    with pytest.raises(ValueError, match="qrels holds a question twice"):
        io.qrels_table(twice)
    with pytest.raises(ValueError, match="run holds a question twice"):
        io.run_table({1: ["a"], "1": ["b"]})
    with pytest.raises(ValueError, match="qrels holds a question twice"):
        compare(runs, twice, ["Hit@1"])
    with pytest.raises(ValueError, match="qrels holds a question twice"):
        pool(runs, 2, twice)
    with pytest.raises(ValueError, match="run holds a question twice"):
        at_units({1: ["a"], "1": ["b"]}, {"1": {"a": 1}}, {"a": "A", "b": "B"})


@pytest.mark.parametrize("padded", [False, True])
def test_an_empty_ranking_is_in_the_run_at_every_size(padded):
    # q1 retrieved nothing: scored (0), not missing; q2 has no labels at all ({}): no-answer.
    run = {"q1": [], "q3": ["a"], **(PADDING if padded else {})}
    result = evaluate(run, {"q1": {"a": 1}, "q2": {}, "q3": {"a": 1}}, ["Recall@3"])
    assert list(result.per_question.index) == ["q1", "q3"]
    assert result.per_question["Recall@3"].tolist() == [0.0, 1.0]
    assert result.missing == [] and result.no_answer == ["q2"]
