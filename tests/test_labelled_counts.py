"""Partial labels are named, not averaged away (issue 36, item 3): beside Judged@K, every comparison says
how many of the questions each version was asked have labels, and a note says that the means and Judged@K
are over those only. Judged@K keeps its ir_measures definition (the mean over the labelled questions).

The hand-made case: six questions, labels for three of them (q1, q2, q3), K = 2.

    A: q1 [a, x]  q2 [y, b]  q3 [z, w]     B: q1 [a, z]  q2 [b, y]  q3 [c, x]     (q4-q6 in both, unlabelled)
    labels: q1 {a: 1}, q2 {b: 1}, q3 {c: 1, x: 0}

    Recall@2  A: 1, 1, 0 -> 2/3    B: 1, 1, 1 -> 1
    MRR@2     A: 1, 1/2, 0 -> 1/2  B: 1, 1, 1 -> 1
    Judged@2  A: 1/2, 1/2, 0 -> 1/3   B: 1/2, 1/2, 1 -> 2/3   (x is labelled for q3 only)
"""

from __future__ import annotations

import io
import json
import re

import pytest

from ragmath import compare
from ragmath.cli import main
from ragmath.io import write_qrels, write_run
from ragmath.lab.messages import use_language
from ragmath.lab.notebook.comparing import report_markdown, summary_table

LABELS = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1, "x": 0}}
UNLABELLED = {"q4": ["a"], "q5": ["b", "c"], "q6": ["c"]}
RUN_A = {"q1": ["a", "x"], "q2": ["y", "b"], "q3": ["z", "w"], **UNLABELLED}
RUN_B = {"q1": ["a", "z"], "q2": ["b", "y"], "q3": ["c", "x"], **UNLABELLED}
METRICS = ["Recall@2", "MRR@2"]

#: (version, metric) -> (mean, Judged@2), by hand (the module's docstring).
HAND = {("A", "Recall@2"): (2 / 3, 1 / 3), ("A", "MRR@2"): (1 / 2, 1 / 3),
        ("B", "Recall@2"): (1.0, 2 / 3), ("B", "MRR@2"): (1.0, 2 / 3)}

NOTE = ("A, B: 3 of 6 questions labelled; the means and Judged@K are over the labelled questions only; "
        "3 not labelled (unjudged, not scored): q4, q5, q6")
NOTE_ZH = ("A, B：6 个问题中有 3 个已标注；均值和 Judged@K 只基于已标注的问题；"
           "3 个没有标注（不打分）：q4, q5, q6")


def _result(runs=None, labels=None):
    return compare(runs or {"A": RUN_A, "B": RUN_B}, labels or LABELS, METRICS, seed=0, n_resamples=1_000)


def test_each_version_says_how_many_of_its_questions_are_labelled():
    result = _result()
    systems = result.systems.set_index(["name", "metric"])
    assert systems["labelled"].tolist() == [3, 3, 3, 3]
    assert systems["asked"].tolist() == [6, 6, 6, 6]
    assert result.comparisons[["system", "labelled", "asked"]].values.tolist() == [["B", 3, 6], ["B", 3, 6]]
    table = result.table()
    assert table["labelled"].tolist() == [3] * 4 and table["asked"].tolist() == [6] * 4
    assert result.summary()["labelled"].tolist() == ["3 of 6"] * 4


def test_judged_at_k_and_the_means_are_unchanged_and_over_the_labelled_questions_only():
    result = _result()
    systems = result.systems.set_index(["name", "metric"])
    for key, (mean, judged) in HAND.items():
        assert systems.loc[key, "mean"] == pytest.approx(mean, abs=1e-12)
        assert systems.loc[key, "judged"] == pytest.approx(judged, abs=1e-12)
        assert systems.loc[key, "questions"] == 3
    # the unlabelled questions change no number: the same comparison without them
    labelled_only = _result({"A": {q: RUN_A[q] for q in LABELS}, "B": {q: RUN_B[q] for q in LABELS}})
    numbers = ["mean", "low", "high", "questions", "judged"]
    assert result.systems[numbers].equals(labelled_only.systems[numbers])
    assert labelled_only.systems["labelled"].tolist() == labelled_only.systems["asked"].tolist() == [3] * 4


def test_a_note_says_the_means_rest_on_the_labelled_questions_and_how_many_are_not():
    notes = _result().notes()
    assert NOTE in notes
    assert not any("unjudged question(s)" in note for note in notes)  # one line for both, not one each


def test_no_note_when_every_question_asked_is_labelled():
    result = _result({"A": {q: RUN_A[q] for q in LABELS}, "B": {q: RUN_B[q] for q in LABELS}})
    assert result.summary()["labelled"].tolist() == ["3 of 3"] * 4
    assert not any(" questions labelled; " in note for note in result.notes())  # no note.labelled


def test_versions_asked_different_questions_get_a_line_each():
    run_b = {q: r for q, r in RUN_B.items() if q != "q6"}
    result = _result({"A": RUN_A, "B": run_b})
    assert result.summary()["labelled"].tolist() == ["3 of 6", "3 of 6", "3 of 5", "3 of 5"]
    notes = result.notes()
    assert NOTE.replace("A, B:", "A:") in notes
    assert ("B: 3 of 5 questions labelled; the means and Judged@K are over the labelled questions only; "
            "2 not labelled (unjudged, not scored): q4, q5") in notes


def test_the_markdown_report_shows_the_count_beside_judged_at_k_and_the_note():
    text = _result().to_markdown()
    header, _, first = text.splitlines()[:3]
    assert "| Judged@K | labelled |" in header
    assert "| 0.333 | 3 of 6 |" in first  # A's Judged@2 = 1/3, then its count
    assert f"- {NOTE}\n" in text


def test_the_notebook_tables_speak_english_and_chinese():
    result = _result()
    assert summary_table(result)["labelled"].tolist() == ["3 of 6"] * 4
    assert f"- {NOTE}\n" in report_markdown(result)
    use_language("zh")
    assert summary_table(result)["labelled"].tolist() == ["6 题中 3 题"] * 4  # the header stays the code's
    report = report_markdown(result)
    assert "| Judged@K | 已标注（labelled） |" in report.splitlines()[0]
    assert "| 6 题中 3 题 |" in report and f"- {NOTE_ZH}\n" in report


# ------------------------------------------------------------------ the command line


@pytest.fixture()
def files(tmp_path):
    write_run(RUN_A, tmp_path / "A.trec")
    write_run(RUN_B, tmp_path / "B.trec")
    write_qrels(LABELS, tmp_path / "labels.trec")
    return tmp_path


def _compare(files, *options):
    out, err = io.StringIO(), io.StringIO()
    status = main(["compare", str(files / "A.trec"), str(files / "B.trec"), "--qrels",
                   str(files / "labels.trec"), "-m", "Recall@2", "-m", "MRR@2", *options],
                  stdout=out, stderr=err)
    assert status == 0, err.getvalue()
    return out.getvalue()


def test_compare_prints_the_counts_and_the_note_as_text(files):
    out = _compare(files)
    header, first = out.splitlines()[:2]
    assert header.split()[:7] == ["system", "metric", "mean", "[CI]", "Judged@K", "labelled", "diff"]
    assert re.search(r"\s0\.333\s+3 of 6\s", first)  # A's Judged@2 = 1/3, then its count
    assert NOTE in out


def test_compare_prints_the_counts_and_the_note_as_markdown(files):
    out = _compare(files, "--format", "markdown")
    assert "| Judged@K | labelled |" in out.splitlines()[0]
    assert f"- {NOTE}\n" in out


def test_compare_json_carries_the_counts_and_the_note(files):
    payload = json.loads(_compare(files, "--format", "json"))
    assert [(r["name"], r["labelled"], r["asked"]) for r in payload["systems"]] == [
        ("A", 3, 6), ("A", 3, 6), ("B", 3, 6), ("B", 3, 6)]
    assert [(r["labelled"], r["asked"]) for r in payload["comparisons"]] == [(3, 6), (3, 6)]
    assert [r["judged"] for r in payload["systems"]] == pytest.approx([1 / 3, 1 / 3, 2 / 3, 2 / 3], abs=1e-12)
    assert NOTE in payload["notes"]
