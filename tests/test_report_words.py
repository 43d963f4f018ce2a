"""compare's report in plain words: every column of the table explained in a note, no "question(s)" and no
"the 1 comparisons", in English and in the workbook's Chinese."""

from __future__ import annotations

import pytest

from ragmath import compare
from ragmath.comparison import SUMMARY_COLUMNS
from ragmath.lab.messages import use_language
from ragmath.lab.notebook.comparing import report_markdown

RUNS = {"A": {"q1": ["a", "x"], "q2": ["x", "b"], "q3": ["c"]}, "B": {"q1": ["a"], "q3": ["c"]}}
LABELS = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 0}}  # q2 missing from B; q3 has no relevant label


@pytest.fixture
def result():
    return compare(RUNS, LABELS, ["Recall@2"], baseline="A", n_resamples=200)


def test_every_column_is_explained_in_the_notes(result):
    columns = next(note for note in result.notes() if note.startswith("columns: "))
    assert all(f"{name} " in columns for name in SUMMARY_COLUMNS if name not in ("system", "metric"))
    assert "Cohen's d_z" in columns and columns in result.to_markdown()


def test_the_notes_say_one_comparison_and_one_question_plainly(result):
    notes = "\n".join(result.notes())
    assert "(s)" not in notes and "the 1 comparisons" not in notes
    assert "across this table's comparisons (1)" in notes
    assert "B: missing from the run, so scored 0 (1): q2" in notes
    assert "no relevant label, so outside every mean; Judged@K counts them (1): q3" in notes


def test_the_chinese_report_explains_its_columns_in_chinese(result):
    use_language("zh")
    try:
        report = report_markdown(result)
    finally:
        use_language("en")
    assert "各列：均值及区间是各题的均值及其 95% bootstrap 区间" in report
    assert "效应量是平均差值除以差值的标准差" in report
    assert "columns:" not in report
