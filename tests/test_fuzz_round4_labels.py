"""The fourth fuzzing round on the labelling files and seals: variants of E1, E3, E7, E14 and the minor cases.

The third round's tests (``test_fuzz_round3.py``) hold; these are the variants that still failed. Each test
was written before its fix: 17 of 20 items failed on the code before this round; the three that passed are
guards kept on purpose (E3 on a template; a seal cut anywhere; seal() into a missing nested folder).
E7's choice: a lone carriage return outside quotes is refused, naming the file, the line and what to do
(save with \\n or \\r\\n line ends); one inside a quoted cell is text and is read and written back quoted.
Every file is synthetic, written in ``tmp_path``.
"""

from __future__ import annotations

import pandas as pd
import pytest

from ragmath.io import read_qrels
from ragmath.lab.notebook.judgements import JudgementFile, read_labels, write_template
from ragmath.lab.notebook.labelling import MESSAGES, LabellingWidget
from ragmath.seal import open_seal, read_results, seal, show_seal, write_results

POOL = pd.DataFrame({"question": ["q1", "q1", "q1"], "id": ["a", "b", "c"]})
QUESTIONS = {"q1": "how much is a taxi?"}
TEXTS = {"a": "taxi: 80 yuan", "b": "hotel: 300 yuan", "c": "bus: 2 yuan"}
FORMULA_START = ("=", "+", "-", "@")


def _cells(path):
    """The question and ID cells of a labels CSV, as written."""
    return [line.split(",")[:2] for line in path.read_text(encoding="utf-8").splitlines()[1:] if line]


# E1: a formula-looking cell written by another tool (not escaped) is escaped on the next save
def test_a_raw_formula_cell_in_the_file_is_escaped_on_the_next_save(tmp_path):
    path = tmp_path / "labels.csv"
    path.write_text("question,id,grade\nq1,=x,2\n=q,a,1\nq1,'+y,0\n", encoding="utf-8")
    before = JudgementFile(path).grades
    assert before == {("q1", "=x"): 2, ("=q", "a"): 1, ("q1", "+y"): 0}
    JudgementFile(path).set("q1", "b", 1)
    cells = _cells(path)
    assert all(not cell.startswith(FORMULA_START) for row in cells for cell in row), cells
    assert JudgementFile(path).grades == before | {("q1", "b"): 1}  # read -> save -> read: same IDs
    assert read_qrels(path) == {"q1": {"=x": 2, "+y": 0, "b": 1}, "=q": {"a": 1}}


# E14: a template whose header has spaces after the commas (as some tools write it) is read and kept
def test_a_template_with_spaced_header_names_is_read_and_kept(tmp_path):
    path = tmp_path / "template.csv"
    path.write_text("question, id, grade, text\nq1,a,2,taxi\nq1,b,,hotel\nq1,c,,bus\n", encoding="utf-8")
    assert read_labels(path) == {"q1": {"a": 2}}
    widget = LabellingWidget(POOL, path, questions=QUESTIONS, texts=TEXTS)
    assert widget.state["id"] == "b"  # resumes at the first item not yet judged
    widget.grade(1)
    assert path.read_text(encoding="utf-8").splitlines() == [
        "question, id, grade, text", "q1,a,2,taxi", "q1,b,1,hotel", "q1,c,,bus"]


# E14 / E7: a carriage return inside a quoted text cell (a spreadsheet's line break) in a filled template
def test_a_template_with_a_line_break_inside_a_text_cell_reads_its_grades(tmp_path):
    path = tmp_path / "template.csv"
    path.write_bytes(b'question,id,grade,text\nq1,a,2,"taxi\rfare"\nq1,b,,"hotel\r\nroom"\nq1,c,0,bus\n')
    assert read_labels(path) == {"q1": {"a": 2, "c": 0}}
    JudgementFile(path).set("q1", "b", 1)
    assert read_labels(path) == {"q1": {"a": 2, "b": 1, "c": 0}}
    assert path.read_bytes() == (b'question,id,grade,text\nq1,a,2,"taxi\rfare"\nq1,b,1,"hotel\r\nroom"\n'
                                 b'q1,c,0,bus\n')


# E7: a lone carriage return ending a later line is named as such, with what to do
@pytest.mark.parametrize("reader", [read_qrels, read_labels, JudgementFile])
def test_a_lone_carriage_return_after_the_first_line_is_named_with_what_to_do(tmp_path, reader):
    path = tmp_path / "mixed.csv"
    path.write_bytes(b"question,id,grade\r\nq1,a,2\rq1,b,1\n")
    with pytest.raises(ValueError) as caught:
        reader(path)
    text = str(caught.value)
    assert type(caught.value) is ValueError and str(path) in text and "line 2" in text
    assert "carriage return" in text and "universal-newline" not in text
    assert "\\r\\n" in text  # what to do: save with \n or \r\n line endings


# minor: a judgement file that is not UTF-8 is named with its line
@pytest.mark.parametrize("reader", [read_labels, JudgementFile])
def test_a_judgement_file_not_in_utf8_names_the_file_and_line(tmp_path, reader):
    path = tmp_path / "labels.csv"
    path.write_bytes(b"question,id,grade\nq1,a,2\nq1,caf\xe9,1\n")
    with pytest.raises(ValueError) as caught:
        reader(path)
    assert type(caught.value) is ValueError
    assert str(path) in str(caught.value) and "line 3" in str(caught.value)


# minor: a lone surrogate in the pool or its texts, written as a template
@pytest.mark.parametrize("where", ["id", "question", "text", "question text", "other column"])
def test_a_lone_surrogate_in_a_template_is_refused_by_name(tmp_path, where):
    pool = pd.DataFrame({"question": ["q1", "q2"], "id": ["a", "b"], "note": ["x", "y"]})
    questions, texts = {"q1": "taxi?", "q2": "hotel?"}, {"a": "taxi", "b": "hotel"}
    if where == "id":
        pool.loc[1, "id"] = "b\ud800"
    elif where == "question":
        pool.loc[1, "question"] = "q2\ud800"
    elif where == "text":
        texts["b"] = "hotel\ud800"
    elif where == "question text":
        questions["q2"] = "hotel\ud800?"
    else:
        pool.loc[1, "note"] = "y\ud800"
    with pytest.raises(ValueError) as caught:
        write_template(pool, tmp_path / "template.csv", questions=questions, texts=texts)
    assert type(caught.value) is ValueError  # not UnicodeEncodeError
    assert "U+D800" in str(caught.value) and "row 2" in str(caught.value)
    assert list(tmp_path.iterdir()) == []


# E3: "no answer" after another writer judged the question's items 0, and one item above 0 in a template
def test_no_answer_on_a_template_keeps_another_writers_grades_and_columns(tmp_path):
    path = tmp_path / "template.csv"
    write_template(POOL, path, questions=QUESTIONS, texts=TEXTS)
    widget = LabellingWidget(POOL, path, questions=QUESTIONS, texts=TEXTS)
    JudgementFile(path).set("q1", "a", 0)  # another writer, after the widget loaded
    widget.no_answer()  # b and c get 0; a keeps the other writer's 0; the text column stays
    assert read_labels(path) == {"q1": {"a": 0, "b": 0, "c": 0}}
    assert path.read_text(encoding="utf-8").splitlines()[1:] == [
        "q1,a,0,how much is a taxi?,taxi: 80 yuan", "q1,b,0,how much is a taxi?,hotel: 300 yuan",
        "q1,c,0,how much is a taxi?,bus: 2 yuan"]
    other = LabellingWidget(POOL, path, questions=QUESTIONS, texts=TEXTS)
    JudgementFile(path).set("q1", "c", 2)
    other.no_answer()
    assert read_labels(path) == {"q1": {"a": 0, "b": 0, "c": 2}}
    assert other.state["message"] == MESSAGES["en"]["none_refused"]


# ----------------------------------------------------------------------------------- seals
# open_seal / read_results: integer columns stay integer, missing values included
def test_stored_results_keep_integer_and_nullable_columns(tmp_path):
    frame = pd.DataFrame({"n": [3, 4], "hits": pd.array([1, None], dtype="Int64"),
                          "ok": pd.array([True, None], dtype="boolean"), 0: [0.5, 0.25]})
    sha = write_results(frame, tmp_path / "r.jsonl")
    back = read_results(tmp_path / "r.jsonl", sha)
    assert list(back.columns) == ["n", "hits", "ok", 0]
    assert back["n"].tolist() == [3, 4] and str(back["n"].dtype) == "int64"
    assert str(back["hits"].dtype) == "Int64" and back["hits"].iloc[0] == 1 and back["hits"].isna().iloc[1]
    assert str(back["ok"].dtype) == "boolean" and back["ok"].isna().iloc[1]
    target = tmp_path / "hold" / "seal.json"
    target.parent.mkdir()
    seal(target, questions={"q1": "?"}, labels={"q1": {"d1": 1}})
    opened = open_seal(target, lambda design: frame, {"k": 1}, questions={"q1": "?"},
                       labels={"q1": {"d1": 1}})
    assert opened.ran and str(opened.results["hits"].dtype) == "Int64"
    assert show_seal(target).results["n"].tolist() == [3, 4]


# a seal record cut at any point is refused by name (ragmath.seal already did; kept by this test)
def test_a_seal_record_cut_anywhere_is_refused_naming_it(tmp_path):
    target = tmp_path / "seal.json"
    seal(target, questions={"q1": "?"}, labels={"q1": {"d1": 1}}, note="é" * 5)
    whole = target.read_bytes()
    for cut in range(len(whole) - 2):  # the last two bytes are "}\n": cut before them
        target.write_bytes(whole[:cut])
        with pytest.raises(ValueError) as caught:
            show_seal(target)
        assert type(caught.value) is ValueError and str(target) in str(caught.value), cut


# seal() into a missing folder names the folder (ragmath.seal already did; kept by this test)
def test_seal_into_a_missing_nested_folder_names_the_folder(tmp_path):
    folder = tmp_path / "a" / "b"
    with pytest.raises(FileNotFoundError) as caught:
        seal(folder / "seal.json", questions={"q1": "?"}, labels={"q1": {"d1": 1}})
    assert str(folder) in str(caught.value) and ".lock" not in str(caught.value)
    assert not (tmp_path / "a").exists()


# E14: a chunk text holding a lone carriage return is quoted in the template, so the row stays one row
def test_a_template_quotes_a_text_with_a_carriage_return(tmp_path):
    path = tmp_path / "template.csv"
    write_template(POOL, path, texts={"a": "taxi\rfare", "b": "hotel", "c": "bus"})
    assert b'"taxi\rfare"' in path.read_bytes()
    JudgementFile(path).set("q1", "a", 2)
    assert read_labels(path) == {"q1": {"a": 2}}
    assert b'q1,a,2,"taxi\rfare"\n' in path.read_bytes()


# E14: a template a spreadsheet saved with semicolons (a locale's "CSV") is refused saying so, not changed
@pytest.mark.parametrize("reader", [read_labels, JudgementFile])
def test_a_template_saved_with_semicolons_is_refused_naming_the_separator(tmp_path, reader):
    path = tmp_path / "template.csv"
    data = b"question;id;grade;text\nq1;a;2;taxi\nq1;b;;hotel\n"
    path.write_bytes(data)
    with pytest.raises(ValueError) as caught:
        reader(path)
    assert str(path) in str(caught.value) and "';'" in str(caught.value) and "comma" in str(caught.value)
    assert path.read_bytes() == data
