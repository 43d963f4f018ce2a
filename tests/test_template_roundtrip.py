"""Both labelling routes round-trip (issue 36, Deliver 2): a filled template is read, kept and merged.

- A qrels CSV (or JSONL) row whose grade is blank is a pair not judged yet: the core reader leaves it out
  (``ragmath.io``, the bulk and the line reader alike), so ``evaluate`` and ``compare`` read a filled
  template; its question and ID are still checked, and every other refusal holds.
- :func:`write_template` writes a template once: on an existing template it keeps every row as it is and
  appends the pool's new pairs, and it refuses a file that is not a template.
- :func:`merge_labels` joins a judgement file and a template; a pair graded differently is listed, not
  resolved.
- The fuzz leftovers of round 4: a blank row with a spaced ID, a lone surrogate in a pool's column name,
  duplicate column names in an opening's results, and the explorer's emptied k box.

Every file is synthetic, written in ``tmp_path``.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragmath.cli import main
from ragmath.io import qrels_table, read_qrels
from ragmath.io._lines import _line_reader
from ragmath.io._sources import _Source
from ragmath.io.writers import locked
from ragmath.lab.notebook import judgements
from ragmath.lab.notebook.judgements import JudgementFile, read_labels, write_template
from ragmath.lab.notebook.widgets import build_explorer
from ragmath.seal import write_results

POOL = pd.DataFrame({"question": ["q1", "q1", "q2"], "id": ["a", "=b", "c"], "best rank": [1, 2, 1]})
QUESTIONS = {"q1": "how much is a taxi?", "q2": "where is the hotel?"}
TEXTS = {"a": "taxi: 80 yuan", "=b": "=SUM(A1)", "c": "hotel: Main St."}


def _cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    return main([str(a) for a in argv], stdout=out, stderr=err), out.getvalue(), err.getvalue()


def _filled(path, grades):
    """Fill the grade cells of a template's rows (1 = first data row) as a spreadsheet would."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for row, grade in grades.items():
        cells = lines[row].split(",")
        cells[2] = str(grade)
        lines[row] = ",".join(cells)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


# ----------------------------------------------------------------------------- 1. the core reader

BLANK_CSV = ("question,id,grade,text\n"
             "q1,a,2,taxi\n"
             "q1,'=b,,formula\n"
             'q1,c,"",quoted empty\n'
             "q1,d,   ,spaces\n"
             "q2,e,0,hotel\n"
             "q3,f,,nobody judged q3\n")


def test_a_blank_grade_in_a_labels_csv_means_not_judged_yet(tmp_path):
    path = tmp_path / "template.csv"
    path.write_text(BLANK_CSV, encoding="utf-8")
    assert read_qrels(path) == {"q1": {"a": 2}, "q2": {"e": 0}}
    assert read_labels(path) == {"q1": {"a": 2}, "q2": {"e": 0}}


@pytest.mark.parametrize("blank", ["null", '""', '"  "'])
def test_a_null_or_empty_grade_in_a_labels_jsonl_means_not_judged_yet(tmp_path, blank):
    path = tmp_path / "labels.jsonl"
    path.write_text(f'{{"question": "q1", "id": "a", "grade": {blank}}}\n'
                    '{"question": "q1", "id": "b", "grade": 1, "text": "x"}\n', encoding="utf-8")
    assert read_qrels(path) == {"q1": {"b": 1}}


@pytest.mark.parametrize("text", [
    BLANK_CSV,
    "question,id,grade\nq1,a,\nq1,b,\n",  # nothing judged yet
    "question,id,grade\r\nq1,a,\r\nq1,b,1\r\n",
    '\ufeffquestion, id, grade, note\nq1,a,,"two\nlines"\nq1,b,1,x\n',
])
def test_the_bulk_and_the_line_reader_leave_out_the_same_blank_rows(tmp_path, text):
    path = tmp_path / "labels.csv"
    path.write_bytes(text.encode("utf-8"))
    bulk = qrels_table(path)
    lines = _line_reader(_Source(path), "csv", "qrels")
    assert bulk.select("question", "id", "grade").rows() == lines.rows()


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["q1", "q2", "'=q", ""]),
                          st.sampled_from(["a", "b", "=c", " a", ""]),
                          st.sampled_from(["", " ", "\t", '""', "0", "2", " 1 ", "-1", "1.5", "x", None])),
                min_size=1, max_size=6))
def test_the_public_reader_gives_the_line_readers_table_or_error_on_blank_grades(tmp_path_factory, rows):
    """A labels CSV with blank grades, short rows (None: the grade cell missing), bad IDs and grades."""
    path = tmp_path_factory.mktemp("blank") / "labels.csv"
    body = "".join(f"{q},{i}\n" if g is None else f"{q},{i},{g}\n" for q, i, g in rows)
    path.write_text("question,id,grade\n" + body, encoding="utf-8")
    try:
        expected = _line_reader(_Source(path), "csv", "qrels").rows()
    except ValueError as error:
        with pytest.raises(ValueError) as caught:
            qrels_table(path)
        assert str(caught.value) == str(error)
        return
    unescaped = [(q[1:] if q.startswith("'=") else q, i, g) for q, i, g in expected]  # the public reader
    assert qrels_table(path).rows() == unescaped  # unescapes a CSV's formula cells; the line reader does not


@pytest.mark.parametrize("text, fragment", [
    ("question,id,grade\nq1,,\n", "line 2, column 'id': empty ID"),
    ("question,id,grade\n,a,\n", "line 2, column 'question': empty ID"),
    ("question,id,grade\nq1,a,-1\n", "line 2, column 'grade': grade '-1' is negative"),
    ("question,id,grade\nq1,a,1.5\n", "line 2, column 'grade': '1.5' is not an integer"),
    ("question,id,grade\nq1,a,two\n", "line 2, column 'grade': 'two' is not a number"),
    ("question,id,grade\nq1,a,1\nq1,a,2\n", "line 3, column 'id': duplicate"),
    ("question,id,grade\nq1,a,\nq1,a,2\n", "line 3, column 'id': duplicate"),  # a blank row counts
    ("question,id,grade\nq1,a b,\n", "line 2, column 'id': ID 'a b' holds U+0020"),
    ("question,id,grade,text\nq1,a\n", "line 2: expected 4 fields"),  # a short row is no blank grade
])
def test_a_blank_grade_keeps_every_other_refusal(tmp_path, text, fragment):
    path = tmp_path / "labels.csv"
    path.write_text(text, encoding="utf-8")
    for read in (read_qrels, read_labels, lambda p: _line_reader(_Source(p), "csv", "qrels")):
        with pytest.raises(ValueError) as caught:
            read(path)
        assert str(path) in str(caught.value) and fragment in str(caught.value), caught.value


def test_a_missing_grade_key_in_jsonl_is_still_refused(tmp_path):
    path = tmp_path / "labels.jsonl"
    path.write_text('{"question": "q1", "id": "a", "grade": 1}\n{"question": "q1", "id": "b"}\n',
                    encoding="utf-8")
    with pytest.raises(ValueError, match=r"line 2, field 'grade': missing"):
        read_qrels(path)


def test_a_blank_grade_in_a_dataframe_is_still_refused():
    frame = pd.DataFrame({"question": ["q1", "q1"], "id": ["a", "b"], "grade": [1, None]})
    with pytest.raises(ValueError):
        qrels_table(frame)


def test_evaluate_and_compare_read_a_filled_template(tmp_path):
    template = tmp_path / "template.csv"
    write_template(POOL, template, questions=QUESTIONS, texts=TEXTS)
    _filled(template, {1: 2, 3: 1})  # q1/a answers, q2/c helps; q1/=b not judged yet
    run = tmp_path / "run.trec"
    run.write_text("q1 Q0 =b 1 0.9 t\nq1 Q0 a 2 0.5 t\nq2 Q0 c 1 0.7 t\n", encoding="utf-8")
    other = tmp_path / "other.trec"
    other.write_text("q1 Q0 a 1 0.9 t\nq1 Q0 =b 2 0.5 t\nq2 Q0 c 1 0.7 t\n", encoding="utf-8")
    code, out, err = _cli("evaluate", run, template, "-m", "MRR@10")
    assert code == 0, err
    assert "MRR@10     0.7500" in out  # q1: a at rank 2 (=b unjudged counts as not relevant), q2: 1
    code, out, err = _cli("compare", run, other, "--qrels", template, "-m", "MRR@10")
    assert code == 0, err
    assert "MRR@10" in out


# ----------------------------------------------------------------------------- 2. write_template

def test_a_new_template_reports_its_rows(tmp_path):
    path = tmp_path / "template.csv"
    counts = write_template(POOL, path, questions=QUESTIONS, texts=TEXTS)
    assert counts == {"rows": 3, "graded": 0, "added": 3}
    assert path.read_text(encoding="utf-8").splitlines() == [
        "question,id,grade,question_text,text,best rank",
        "q1,a,,how much is a taxi?,taxi: 80 yuan,1",
        "q1,'=b,,how much is a taxi?,'=SUM(A1),2",
        "q2,c,,where is the hotel?,hotel: Main St.,1"]


def test_a_filled_template_is_kept_and_the_new_pairs_are_appended(tmp_path):
    path = tmp_path / "template.csv"
    # a filled template as a spreadsheet saved it: BOM, CRLF, a note column, a quoted cell, a raw formula
    before = ("\ufeffquestion,id,grade,question_text,text,best rank,note\r\n"
              "q1,a,2,how much is a taxi?,taxi: 80 yuan,1,checked\r\n"
              'q1,\'=b,,how much is a taxi?,"=SUM(A1), two",2,\r\n'
              "q0,z,1,old question,gone from the pool,3,keep me\r\n").encode("utf-8")
    path.write_bytes(before)
    pool = pd.DataFrame({"question": ["q1", "q1", "q2", "q2"], "id": ["a", "=b", "c", "d"],
                         "best rank": [1, 2, 1, 2], "versions": ["x", "x", "y", "y"]})
    counts = write_template(pool, path, questions=QUESTIONS, texts=TEXTS | {"d": "-1 stop"})
    after = path.read_bytes()
    assert after.startswith(before)  # every row as it was, in its order, the row the pool lacks too
    assert after[len(before):].decode("utf-8").split("\r\n") == [
        "q2,c,,where is the hotel?,hotel: Main St.,1,",
        "q2,d,,where is the hotel?,'-1 stop,2,", ""]  # the file's columns; versions is not one of them
    assert counts == {"rows": 5, "graded": 2, "added": 2}
    assert read_labels(path) == {"q1": {"a": 2}, "q0": {"z": 1}}
    again = write_template(pool, path, questions=QUESTIONS, texts=TEXTS)
    assert again == {"rows": 5, "graded": 2, "added": 0} and path.read_bytes() == after


def test_running_the_labelling_cell_again_loses_no_grade(tmp_path):
    """The issue's case: a filled template of many rows became 50 blank rows on the next run of the cell."""
    path = tmp_path / "template.csv"
    pool = pd.DataFrame({"question": [f"q{i // 10}" for i in range(538)],
                         "id": [f"d{i}" for i in range(538)]})
    write_template(pool, path)
    _filled(path, {row: row % 3 for row in range(1, 51)})
    labels = read_labels(path)
    assert sum(map(len, labels.values())) == 50
    counts = write_template(pool.head(50), path)
    assert counts == {"rows": 538, "graded": 50, "added": 0}
    assert read_labels(path) == labels


def test_a_template_without_a_final_line_end_gets_one_before_the_new_rows(tmp_path):
    path = tmp_path / "template.csv"
    path.write_bytes(b"question,id,grade\nq1,a,1")
    assert write_template(POOL.head(2), path) == {"rows": 2, "graded": 1, "added": 1}
    assert path.read_bytes() == b"question,id,grade\nq1,a,1\nq1,'=b,\n"


@pytest.mark.parametrize("text", [
    "question,id,score\nq1,a,0.5\n",  # a run, not a template
    "qid,docid,rel\nq1,a,1\n",
    "id,text\na,taxi\n",
])
def test_a_file_that_is_not_a_template_is_refused_and_kept(tmp_path, text):
    path = tmp_path / "template.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError) as caught:
        write_template(POOL, path)
    assert str(path) in str(caught.value) and "template" in str(caught.value)
    assert path.read_text(encoding="utf-8") == text


def test_a_template_with_a_bad_grade_is_refused_naming_its_line_and_kept(tmp_path):
    path = tmp_path / "template.csv"
    path.write_text("question,id,grade\nq1,a,high\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"template\.csv, line 2, column 'grade': 'high'"):
        write_template(POOL, path)
    assert path.read_text(encoding="utf-8") == "question,id,grade\nq1,a,high\n"


def test_write_template_waits_for_the_files_lock(tmp_path):
    path = tmp_path / "template.csv"
    path.write_text("question,id,grade\nq1,a,2\n", encoding="utf-8")
    done = threading.Event()
    with locked(path):
        thread = threading.Thread(target=lambda: (write_template(POOL, path), done.set()))
        thread.start()
        time.sleep(0.3)
        assert not done.is_set()  # the writer waits while another holds the lock
        JudgementFile(path).grades  # a reader does not need it  # noqa: B018
        path.write_text("question,id,grade\nq1,a,2\nq2,c,1\n", encoding="utf-8")  # what the holder wrote
    thread.join(10)
    assert done.is_set()
    assert read_labels(path) == {"q1": {"a": 2}, "q2": {"c": 1}}  # appended to the file as the holder left it
    assert path.read_text(encoding="utf-8").splitlines()[-1] == "q1,'=b,"


def test_the_widget_and_write_template_share_one_file(tmp_path):
    path = tmp_path / "template.csv"
    write_template(POOL, path, questions=QUESTIONS, texts=TEXTS)
    JudgementFile(path).set("q1", "=b", 1)
    pool = pd.concat([POOL, pd.DataFrame({"question": ["q2"], "id": ["e"], "best rank": [2]})])
    assert write_template(pool, path, questions=QUESTIONS, texts=TEXTS | {"e": "bus"}) == {
        "rows": 4, "graded": 1, "added": 1}
    JudgementFile(path).set("q2", "e", 2)
    assert read_labels(path) == {"q1": {"=b": 1}, "q2": {"e": 2}}
    assert len(path.read_text(encoding="utf-8").splitlines()) == 5  # the header and four rows: none twice


# ----------------------------------------------------------------------------- 3. merge_labels

def test_merge_labels_keeps_agreement_once_and_lists_conflicts():
    widget = {"q1": {"a": 2, "b": 0}, "q2": {"x": 1}}
    template = {"q1": {"a": 2, "b": 1, "c": 0}, "q0": {"z": 2}}
    extra = {"q1": {"b": 1}, "q2": {"x": 2}}
    snapshot = json.dumps([widget, template, extra])
    labels, conflicts = judgements.merge_labels({"widget": widget, "template": template, "extra": extra})
    assert labels == {"q1": {"a": 2, "c": 0}, "q0": {"z": 2}}
    assert list(conflicts.columns) == ["question", "id", "widget", "template", "extra"]
    assert conflicts[["question", "id"]].values.tolist() == [["q1", "b"], ["q2", "x"]]
    assert conflicts["widget"].tolist() == [0, 1]
    assert conflicts["template"].tolist()[0] == 1 and conflicts["template"].isna().tolist() == [False, True]
    assert conflicts["extra"].tolist() == [1, 2]
    assert str(conflicts["widget"].dtype) == "Int64"
    assert json.dumps([widget, template, extra]) == snapshot  # inputs not mutated


def test_merge_labels_without_conflicts_gives_an_empty_table():
    sources = {"widget": {"q1": {"a": 2}}, "template": {"q1": {"a": 2, "b": 0}}}
    labels, conflicts = judgements.merge_labels(sources)
    assert labels == {"q1": {"a": 2, "b": 0}}
    assert conflicts.empty and list(conflicts.columns) == ["question", "id", "widget", "template"]
    assert "merge_labels" in judgements.__all__


def test_merge_labels_refuses_a_bad_source_by_name():
    with pytest.raises(ValueError, match=r"'template'.*grade"):
        judgements.merge_labels({"widget": {"q1": {"a": 2}}, "template": {"q1": {"a": -1}}})
    with pytest.raises(ValueError, match="question"):
        judgements.merge_labels({"question": {"q1": {"a": 2}}})


def test_merge_labels_reads_a_judgement_file_and_a_template(tmp_path):
    judged, template = tmp_path / "judgements.csv", tmp_path / "template.csv"
    JudgementFile(judged).set("q1", "a", 2)
    JudgementFile(judged).set("q2", "c", 0)
    write_template(POOL, template)
    _filled(template, {1: 2, 3: 1})
    sources = {"widget": read_labels(judged), "template": read_labels(template)}
    labels, conflicts = judgements.merge_labels(sources)
    assert labels == {"q1": {"a": 2}}
    assert conflicts.to_dict("list") == {"question": ["q2"], "id": ["c"], "widget": [0], "template": [1]}


# ----------------------------------------------------------------------------- 4. fuzz leftovers

# (a) a blank template row with a spaced ID: the reader and JudgementFile agree (both refuse, naming it)
def test_a_blank_row_with_a_spaced_id_is_refused_by_the_reader_and_the_judgement_file_alike(tmp_path):
    path = tmp_path / "template.csv"
    text = "question,id,grade,text\nq1, a ,,x\n"
    path.write_text(text, encoding="utf-8")
    for read in (read_qrels, read_labels, JudgementFile):
        with pytest.raises(ValueError) as caught:
            read(path)
        assert f"{path}, line 2, column 'id': ID ' a ' holds U+0020" in str(caught.value)
    with pytest.raises(ValueError):
        JudgementFile(tmp_path / "other.csv").set("q1", " a ", 2)
    assert path.read_text(encoding="utf-8") == text  # no second row for "a"


def test_write_template_refuses_an_id_the_reader_would_refuse(tmp_path):
    pool = pd.DataFrame({"question": ["q1", "q1"], "id": ["a", " b"]})
    with pytest.raises(ValueError, match=r"' b'.*U\+0020"):
        write_template(pool, tmp_path / "template.csv")
    assert list(tmp_path.iterdir()) == []


# (b) a lone surrogate in a pool's column name
def test_a_lone_surrogate_in_a_pool_column_name_is_refused_by_name(tmp_path):
    pool = pd.DataFrame({"question": ["q1"], "id": ["a"], "note\ud800": ["x"]})
    with pytest.raises(ValueError) as caught:
        write_template(pool, tmp_path / "template.csv")
    assert type(caught.value) is ValueError  # not UnicodeEncodeError
    assert "U+D800" in str(caught.value) and "column" in str(caught.value) and "header" in str(caught.value)
    assert list(tmp_path.iterdir()) == []


# (c) an opening's results with a column name given twice
def test_results_with_a_column_named_twice_are_refused_by_name(tmp_path):
    frame = pd.DataFrame([[0.5, 0.25, 1]], columns=["nDCG@10", "nDCG@10", "n"])
    with pytest.raises(ValueError, match=r"'nDCG@10'.*more than once"):
        write_results(frame, tmp_path / "results.jsonl")
    assert list(tmp_path.iterdir()) == []


def test_results_with_an_index_named_as_a_column_are_refused_by_name(tmp_path):
    frame = pd.DataFrame({"question": ["q1"], "nDCG@10": [0.5]}).set_index(pd.Index(["q1"], name="question"))
    with pytest.raises(ValueError, match=r"'question'.*more than once"):
        write_results(frame, tmp_path / "results.jsonl")
    assert list(tmp_path.iterdir()) == []


# (d) the ipywidgets explorer's k box (the slider's readout) emptied: the last k stays, as on the static page
def test_the_notebook_explorer_keeps_its_last_k_when_the_box_is_emptied_or_wrong():
    import traitlets

    explorer = build_explorer(k=60)
    table = explorer.table_html.value
    for typed in ("", "   ", None, "abc"):
        with pytest.raises(traitlets.TraitError):
            explorer.k_slider.value = typed
        assert explorer.k_slider.value == 60 and explorer.table_html.value == table  # nothing recomputed
    explorer.k_slider.value = 250  # held at the slider's end, as the page holds it at 200
    assert explorer.k_slider.value == 200 and 'data-k="200"' in explorer.table_html.value


def _slider_text_handler() -> str | None:
    """The installed JupyterLab widgets' IntSlider readout handler (what runs when the box is edited)."""
    folder = Path(sys.prefix) / "share/jupyter/labextensions/@jupyter-widgets/jupyterlab-manager/static"
    pattern = re.compile(r"handleTextChange\(\)\{(var e;let t=this\.stringToValue\(.*?)\}"
                         r"handleSliderChangeEvent")
    for bundle in sorted(folder.glob("*.js")):
        found = pattern.search(bundle.read_text(encoding="utf-8", errors="replace"))
        if found:
            return found.group(1)
    return None


def test_the_notebook_explorers_box_puts_the_last_k_back_in_jupyterlab():
    """The readout box of ipywidgets' IntSlider, as JupyterLab runs it (node, no browser): an emptied,
    blank or non-numeric box shows the last k again and sends nothing; 250 is held at 200."""
    node, body = shutil.which("node"), _slider_text_handler()
    if node is None or body is None:
        pytest.skip("node or the JupyterLab widgets bundle is not installed")
    script = ("const view = { readout: { textContent: '' }, sent: [], _parse_value: parseInt,\n"
              "  model: { values: { value: 60, min: 1, max: 200 }, get(k) { return this.values[k]; },\n"
              "           set(k, v) { this.values[k] = v; view.sent.push(v); } },\n"
              "  touch() {}, stringToValue(e) { return this._parse_value(e); },\n"
              "  valueToString(e) { return String(e); },\n"
              "  handleTextChange() {" + body + "} };\n"
              "const seen = JSON.parse(require('fs').readFileSync(0, 'utf8')).map((typed) => {\n"
              "  view.readout.textContent = typed; view.handleTextChange();\n"
              "  return [view.model.values.value, view.readout.textContent]; });\n"
              "console.log(JSON.stringify({ seen, sent: view.sent }));")
    done = subprocess.run([node, "-e", script], input=json.dumps(["", "   ", "abc", "7", "", "250"]),
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["seen"] == [[60, "60"], [60, "60"], [60, "60"], [7, "7"], [7, "7"], [200, "200"]]
    assert got["sent"] == [7, 200]
