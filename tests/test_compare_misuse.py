"""compare, groups, the unit map and the pilot statistics used as a careful user would misuse them.

Each test names the behaviour it checks; each failed on the code before issue 23's hardening (a wrong
number, a silent merge, a lost field or a traceback) and passes now.
"""

from __future__ import annotations

import io
import json
import math

import pandas as pd
import pytest

from ragmath import compare, evaluate
from ragmath.cli import main
from ragmath.comparison import at_units, markdown, plan_questions, sign_flip_p
from ragmath.evaluation import by_group
from ragmath.io import write_qrels, write_run
from ragmath.units import lift_labels


def _cli(argv):
    out, err = io.StringIO(), io.StringIO()
    status = main(argv, stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


# ------------------------------------------------------------------ compare names the questions apart


def test_compare_notes_name_the_no_answer_missing_and_unjudged_questions():
    runs = {"A": {"q1": ["a"], "q2": ["b"], "q8": ["z"]}, "B": {"q1": ["a"], "q8": ["z"]}}
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 0}}
    notes = "\n".join(compare(runs, qrels, ["Hit@1"]).notes())
    assert "B: missing from the run, so scored 0 (1): q2" in notes
    assert "no relevant label, so outside every mean; Judged@K counts them (1): q3" in notes
    assert ("A: 2 of 3 questions labelled; the means and Judged@K are over the labelled questions only; "
            "1 not labelled (unjudged, not scored): q8") in notes
    assert ("B: 1 of 2 questions labelled; the means and Judged@K are over the labelled questions only; "
            "1 not labelled (unjudged, not scored): q8") in notes


def test_compare_on_the_command_line_names_unjudged_questions(tmp_path):
    write_run({"q1": ["a"], "q8": ["z"]}, tmp_path / "a.trec")
    write_run({"q1": ["b"], "q8": ["z"]}, tmp_path / "b.trec")
    write_qrels({"q1": {"a": 1}}, tmp_path / "qrels.trec")
    status, out, _ = _cli(["compare", str(tmp_path / "a.trec"), str(tmp_path / "b.trec"),
                           "--qrels", str(tmp_path / "qrels.trec"), "-m", "Hit@1"])
    assert status == 0
    assert ("a, b: 1 of 2 questions labelled; the means and Judged@K are over the labelled questions only; "
            "1 not labelled (unjudged, not scored): q8") in out


# ------------------------------------------------------------------ groups


def test_groups_take_question_ids_by_the_rule_of_every_id():
    table = pd.DataFrame({"Hit@1": [1.0, 0.0]}, index=pd.Index(["1", "2"], name="question"))
    grouped = by_group(table, {1: "numbers", "2": "numbers"})
    assert grouped.loc["numbers", "questions"] == 2  # before: question '1' fell into "(no group)"
    assert "(no group)" not in grouped.index


def test_a_question_given_as_1_and_as_text_1_is_refused_in_groups():
    table = pd.DataFrame({"Hit@1": [1.0]}, index=["1"])
    with pytest.raises(ValueError, match="twice"):
        by_group(table, {1: "a", "1": "b"})


def test_a_real_group_named_no_group_is_never_merged_with_the_unmapped():
    table = pd.DataFrame({"Hit@1": [1.0, 0.0]}, index=["q1", "q2"])
    with pytest.raises(ValueError, match="rename that group"):
        by_group(table, {"q1": "(no group)"})  # before: q1 and the unmapped q2 averaged as one group


# ------------------------------------------------------------------ Markdown


def test_markdown_escapes_a_pipe_and_a_line_break_in_a_name():
    text = markdown(pd.DataFrame({"system": ["bm25|v2", "two\nlines"], "mean": [0.5, 0.25]}))
    rows = text.splitlines()
    assert len(rows) == 4  # header, rule, two rows: the line break did not end a row
    assert rows[2] == "| bm25\\|v2 | 0.500 |"  # two cells, the pipe shown as text
    assert rows[3] == "| two<br>lines | 0.250 |"


def test_compare_markdown_keeps_a_run_named_with_a_pipe_in_one_cell():
    runs = {"A": {"q1": ["a"]}, "B|x": {"q1": ["b"]}}
    table_rows = [r for r in compare(runs, {"q1": {"a": 1}}, ["Hit@1"]).to_markdown().splitlines()
                  if r.startswith("| B")]
    assert table_rows and all(r.count(" | ") == table_rows[0].count(" | ") for r in table_rows)
    assert table_rows[0].startswith("| B\\|x | Hit@1 |")


# ------------------------------------------------------------------ mapping files


def test_a_unit_map_row_with_extra_fields_is_refused(tmp_path):
    write_run({"q1": ["c1"]}, tmp_path / "run.trec")
    write_qrels({"q1": {"c1": 1}}, tmp_path / "qrels.trec")
    (tmp_path / "units.csv").write_text("id,unit\nc1,U1,U7\n", encoding="utf-8")
    status, _, err = _cli(["evaluate", str(tmp_path / "run.trec"), str(tmp_path / "qrels.trec"),
                           "--unit-map", str(tmp_path / "units.csv")])
    assert status != 0  # before: U1 kept, U7 dropped silently
    assert "line 2" in err and "3 fields where the header has 2" in err and "U7" in err


# ------------------------------------------------------------------ --unit-map: labels on documents


# The article's section 1: the annotator labelled the whole travel policy (a document); the system
# returns three of its chunks in the top 3. After dedup to documents they are one item.
CHUNK_OF_POLICY = {"TRV-1.1": "TRV", "TRV-6.3": "TRV", "TRV-7.2": "TRV", "HR-2.1": "HR"}


def test_labels_on_documents_and_a_run_of_chunks_score_one_document_hit(tmp_path):
    write_run({"q1": ["TRV-1.1", "TRV-6.3", "TRV-7.2", "HR-2.1"]}, tmp_path / "run.trec")
    write_qrels({"q1": {"TRV": 1}}, tmp_path / "qrels.trec")
    units = tmp_path / "units.csv"
    rows = "".join(f"{chunk},{document}\n" for chunk, document in CHUNK_OF_POLICY.items())
    units.write_text("id,unit\n" + rows, encoding="utf-8")
    status, out, err = _cli(["evaluate", str(tmp_path / "run.trec"), str(tmp_path / "qrels.trec"),
                             "--unit-map", str(units), "-m", "Hit@3", "-m", "Recall@3", "-m", "MRR@3",
                             "--format", "json"])
    assert status == 0, err  # before: "labelled ID 'TRV' is not in the unit table"
    means = json.loads(out)["means"]
    # Hand: after dedup the top 3 is [TRV, HR]: one relevant document found at rank 1.
    assert means == {"Hit@3": 1.0, "Recall@3": 1.0, "MRR@3": 1.0}


def test_an_identity_row_gives_the_same_answer_as_a_unit_label():
    run = {"q1": ["TRV-1.1", "TRV-6.3", "HR-2.1"]}
    plain = at_units(run, {"q1": {"TRV": 2}}, CHUNK_OF_POLICY)
    with_identity = at_units(run, {"q1": {"TRV": 2}}, {**CHUNK_OF_POLICY, "TRV": "TRV"})
    assert plain == with_identity == ({"q1": ["TRV", "HR"]}, {"q1": {"TRV": 2}})


def test_chunk_labels_are_still_lifted_to_their_unit():
    assert lift_labels({"TRV-1.1": 1, "TRV-6.3": 2}, CHUNK_OF_POLICY) == {"TRV": 2}


def test_labels_mixing_units_and_chunks_are_refused_naming_which_is_which():
    with pytest.raises(ValueError) as caught:
        lift_labels({"TRV": 1, "HR-2.1": 2}, CHUNK_OF_POLICY)
    assert "['TRV'] are units" in str(caught.value) and "['HR-2.1'] are IDs it maps" in str(caught.value)


def test_a_label_neither_mapped_nor_a_unit_is_refused():
    with pytest.raises(ValueError, match="neither in the unit table nor one of its units"):
        lift_labels({"FIN": 1}, CHUNK_OF_POLICY)


# ------------------------------------------------------------------ the pilot statistics


def test_sign_flip_p_refuses_nan_with_its_position():
    with pytest.raises(ValueError, match="NaN at position 1"):  # before: p = 0.0
        sign_flip_p([0.1, math.nan, 0.2])


def test_sign_flip_p_refuses_an_infinite_difference():
    with pytest.raises(ValueError, match="inf at position 0"):
        sign_flip_p([math.inf, 0.2])


def test_sign_flip_p_is_never_below_two_in_two_to_the_n():
    # Hand: 3 non-zero differences of one sign; of the 2^3 sign vectors only all-plus and all-minus
    # reach |sum| >= 0.06, so p = 2/8.
    assert sign_flip_p([0.01, 0.02, 0.03])[0] == 2 / 8
    assert sign_flip_p([1.0])[0] == 1.0  # one question: both signs reach it
    assert sign_flip_p([0.0, 0.0])[0] == 1.0  # nothing differs


def test_plan_questions_with_zero_variance_says_what_it_means():
    with pytest.raises(ValueError, match="standard deviation is 0"):  # before: 2
        plan_questions([0.0] * 10, 0.1)


def test_plan_questions_refuses_nan_with_its_position():
    with pytest.raises(ValueError, match="NaN at position 2"):
        plan_questions([0.1, 0.2, math.nan], 0.1)


def test_evaluate_groups_read_ids_as_text_too():
    result = evaluate({"1": ["a"], "2": ["b"]}, {"1": {"a": 1}, "2": {"a": 1}}, ["Hit@1"])
    grouped = result.by_group({1: "g", 2: "g"})
    assert grouped.loc["g", "questions"] == 2 and grouped.loc["g", "Hit@1"] == 0.5
