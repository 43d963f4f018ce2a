"""The labelling widget's logic in the kernel (no browser), the judgement file, the spreadsheet template."""

from __future__ import annotations

import pytest

from ragmath.comparison import pool
from ragmath.io import read_qrels
from ragmath.lab.notebook.judgements import JudgementFile, read_labels, write_template
from ragmath.lab.notebook.labelling import MESSAGES, LabellingWidget

RUNS = {"A": {"q1": ["a", "b", "c"], "q2": ["x", "y"]}, "B": {"q1": ["c", "d"], "q2": ["y", "z"]}}
QUESTIONS = {"q1": "how much is a taxi?", "q2": "how many days of leave?"}
TEXTS = {i: f"text of {i}" for i in "abcdxyz"}


def _widget(path, labelled=None):
    return LabellingWidget(pool(RUNS, depth=2, qrels=labelled), path, questions=QUESTIONS, texts=TEXTS)


def test_the_pool_is_the_union_of_each_top_depth_minus_the_labelled():
    # by hand, depth 2: q1 gets A's a, b and B's c, d; a is labelled, so b (A rank 2), c (B rank 1),
    # d (B rank 2) remain, ordered by best rank then id: c, b, d. q2: x (A 1) and y (A 2, B 1) both at
    # best rank 1, x first by id, then z (B 2).
    table = pool(RUNS, depth=2, qrels={"q1": {"a": 2}})
    assert table[["question", "id"]].values.tolist() == [["q1", "c"], ["q1", "b"], ["q1", "d"],
                                                         ["q2", "x"], ["q2", "y"], ["q2", "z"]]
    assert table.set_index("id").loc["y", "best rank"] == 1
    versions = table.set_index("id")["versions"].to_dict()
    assert versions == {"c": ["B"], "b": ["A"], "d": ["B"], "y": ["A", "B"], "x": ["A"], "z": ["B"]}


def test_each_grade_is_in_the_file_at_once_and_a_new_widget_resumes(tmp_path):
    path = tmp_path / "labels.csv"
    w = _widget(path)
    order = [(s["question"], s["id"]) for s in [w.state]]
    w.grade(2)
    assert read_qrels(path) == {"q1": {order[0][1]: 2}}
    w.grade(0)
    again = _widget(path)  # as after a kernel restart
    assert again.judged == 2 and again.position == 2
    assert (again.state["question"], again.state["id"]) == again.items[2]


def test_skip_leaves_an_item_unjudged_and_back_returns_to_change_it(tmp_path):
    path = tmp_path / "labels.csv"
    w = _widget(path)
    first = w.items[0]
    w.skip()
    w.grade(1)  # the second item
    assert read_qrels(path) == {"q1": {w.items[1][1]: 1}}
    w.back()
    w.back()
    assert (w.state["question"], w.state["id"]) == first and w.state["grade"] is None
    w.grade(2)
    assert read_qrels(path)["q1"] == {w.items[1][1]: 1, first[1]: 2}
    assert _widget(path).position == 2  # resumes at the first item not judged


def test_no_answer_grades_the_rest_of_the_question_zero_and_moves_on(tmp_path):
    path = tmp_path / "labels.csv"
    w = _widget(path)
    w.grade(0)
    w.no_answer()
    assert read_qrels(path) == {"q1": {i: 0 for q, i in w.items if q == "q1"}}
    assert w.state["question"] == "q2"


def test_no_answer_is_refused_when_the_question_has_a_relevant_chunk(tmp_path):
    path = tmp_path / "labels.csv"
    w = _widget(path)
    w.grade(2)
    w.no_answer()
    assert w.state["message"] == MESSAGES["en"]["none_refused"]
    assert read_qrels(path) == {"q1": {w.items[0][1]: 2}}


def test_a_message_for_an_item_no_longer_shown_is_ignored(tmp_path):
    path = tmp_path / "labels.csv"
    w = _widget(path)
    shown = w.items[0]
    w._on_message(w, {"action": "grade", "grade": 2, "question": shown[0], "id": shown[1]}, [])
    double = {"action": "grade", "grade": 0, "question": shown[0], "id": shown[1]}  # a second, quick press
    w._on_message(w, double, [])
    assert read_qrels(path) == {"q1": {shown[1]: 2}}
    assert w.judged == 1


def test_when_everything_is_judged_the_widget_says_done(tmp_path):
    w = _widget(tmp_path / "labels.csv")
    for _ in w.items:
        w.grade(1)
    assert w.state["done"] and w.judged == len(w.items)


@pytest.mark.parametrize("change, message", [
    ({"texts": {}}, "no text for chunk"),
    ({"questions": {}}, "no text for question"),
    ({"language": "xx"}, "no messages for language"),
])
def test_missing_texts_or_language_are_refused(tmp_path, change, message):
    arguments = {"questions": QUESTIONS, "texts": TEXTS, **change}
    with pytest.raises(ValueError, match=message):
        LabellingWidget(pool(RUNS, depth=2), tmp_path / "l.csv", **arguments)


def test_a_bad_grade_is_refused_and_nothing_is_written(tmp_path):
    store = JudgementFile(tmp_path / "l.csv")
    with pytest.raises(ValueError, match="0, 1 or 2"):
        store.set("q1", "a", 3)
    assert not (tmp_path / "l.csv").exists()


def test_the_template_goes_to_a_spreadsheet_and_comes_back(tmp_path):
    path = tmp_path / "template.csv"
    table = pool(RUNS, depth=2)
    write_template(table, path, questions=QUESTIONS, texts=TEXTS)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "question,id,grade,question_text,text,best rank,versions"
    assert lines[1] == "q1,a,,how much is a taxi?,text of a,1,A"
    assert read_labels(path) == {}  # every grade blank: nothing labelled yet
    filled = [lines[0]] + [line.replace(",,", ",2,", 1) if i in (1, 5) else line
                           for i, line in enumerate(lines[1:], start=1)]
    path.write_text("\n".join(filled) + "\n", encoding="utf-8")
    assert read_labels(path) == {"q1": {"a": 2}, "q2": {"x": 2}}
    assert _widget(path).judged == 2  # the widget resumes from a filled-in template too


def test_a_bad_grade_in_the_template_names_the_file_and_its_line(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text('question,id,grade,text\nq1,a,,"two\nlines"\nq1,b,high,x\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"t\.csv, line 4, column 'grade': 'high'"):
        read_labels(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.csv"]  # no temporary file left
