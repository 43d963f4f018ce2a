"""The command line, end to end: python -m ragmath evaluate / fuse."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pandas as pd
import pytest
import pytrec_eval

from ragmath import __main__ as entry
from ragmath.cli import main
from ragmath.io import read_run, write_qrels, write_run

# The article's three questions (Recall@3 2/3, 1, 0; MRR@3 1, 1/3, 0), one no-answer question,
# one question missing from the run and one unjudged question in the run.
RUN = {"q1": ["A", "X", "B"], "q2": ["Y", "Z", "D"], "q3": ["P", "Q", "R"], "q9": ["A"]}
QRELS = {"q1": {"A": 1, "B": 1, "C": 1}, "q2": {"D": 1}, "q3": {"S": 1}, "q4": {"E": 0},
         "q5": {"F": 2}}


@pytest.fixture()
def files(tmp_path):
    write_run(RUN, tmp_path / "run.trec", tag="bm25")
    write_qrels(QRELS, tmp_path / "qrels.trec")
    return tmp_path


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    status = main(argv, stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_evaluate_prints_means_and_every_group(files):
    status, out, err = _run(["evaluate", str(files / "run.trec"), str(files / "qrels.trec"),
                             "-m", "Recall@3", "-m", "MRR@3"])
    assert status == 0 and err == ""
    # four questions in the means: q1, q2, q3 and the missing q5 (scored 0)
    # Recall@3 = (2/3 + 1 + 0 + 0) / 4 = 5/12; MRR@3 = (1 + 1/3 + 0 + 0) / 4 = 1/3
    assert "4 questions in the means" in out
    assert f"Recall@3   {5 / 12:.4f}" in out
    assert f"MRR@3      {1 / 3:.4f}" in out
    assert "missing from the run (scored 0, in the means): 1 [q5]" in out
    assert "no-answer (no relevant item; outside every mean but Judged@K's): 1 [q4]" in out
    assert "unjudged (in the run, not labelled; not scored): 1 [q9]" in out


def test_evaluate_json_has_means_groups_and_per_question_values(files):
    status, out, err = _run(["evaluate", str(files / "run.trec"), str(files / "qrels.trec"),
                             "-m", "recall@3", "-m", "nDCG@3", "--format", "json",
                             "--per-question"])
    assert status == 0
    payload = json.loads(out)
    assert payload["metrics"] == ["Recall@3", "nDCG@3"]
    assert payload["means"]["Recall@3"] == pytest.approx(5 / 12)
    assert payload["per_question"]["q1"]["Recall@3"] == pytest.approx(2 / 3)
    assert payload["missing"] == ["q5"] and payload["no_answer"] == ["q4"]
    assert payload["unjudged"] == ["q9"] and payload["ndcg_undefined"] == ["q4"]
    assert "missing from the run" in err  # the groups are also said on stderr


def test_evaluate_csv_per_question_is_a_table(files):
    status, out, _ = _run(["evaluate", str(files / "run.trec"), str(files / "qrels.trec"),
                           "-m", "Hit@1", "--format", "csv", "--per-question"])
    assert status == 0
    table = pd.read_csv(io.StringIO(out), keep_default_na=False)
    questions = table[table["row"] == "question"].set_index("question")
    assert questions["Hit@1"].to_dict() == {"q1": 1.0, "q2": 0.0, "q3": 0.0, "q5": 0.0}


def test_evaluate_csv_per_question_ends_with_the_means(files):
    status, out, _ = _run(["evaluate", str(files / "run.trec"), str(files / "qrels.trec"),
                           "-m", "Recall@3", "-m", "nDCG@3", "--format", "csv", "--per-question"])
    assert status == 0
    table = pd.read_csv(io.StringIO(out), keep_default_na=False)
    assert list(table["row"]) == ["question"] * 4 + ["mean"]
    mean = table.iloc[-1]
    # the means of the table format: Recall@3 = (2/3 + 1 + 0 + 0) / 4 = 5/12 (q4 has no answer)
    assert mean["question"] == "" and float(mean["Recall@3"]) == pytest.approx(5 / 12)
    _, report, _ = _run(["evaluate", str(files / "run.trec"), str(files / "qrels.trec"),
                         "-m", "nDCG@3", "--format", "json"])
    assert float(mean["nDCG@3"]) == pytest.approx(json.loads(report)["means"]["nDCG@3"])


def test_evaluate_linear_gain_matches_pytrec_eval(files):
    status, out, _ = _run(["evaluate", str(files / "run.trec"), str(files / "qrels.trec"),
                           "-m", "nDCG@3", "--gain", "linear", "--format", "json",
                           "--per-question"])
    assert status == 0
    ours = json.loads(out)["per_question"]
    with open(files / "run.trec") as r, open(files / "qrels.trec") as q:
        run, qrels = pytrec_eval.parse_run(r), pytrec_eval.parse_qrel(q)
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.3"}).evaluate(run)
    for question in ("q1", "q2", "q3"):
        assert ours[question]["nDCG@3"] == pytest.approx(theirs[question]["ndcg_cut_3"], abs=1e-12)


def test_fuse_writes_a_trec_run_equal_to_fuse_runs(files):
    other = {"q1": {"B": 0.9, "C": 0.8}, "q2": {"D": 0.3}}
    write_run(other, files / "dense.trec")
    out_path = files / "fused.trec"
    status, out, err = _run(["fuse", str(files / "run.trec"), str(files / "dense.trec"),
                             "--k", "60", "-o", str(out_path), "--tag", "hybrid"])
    assert status == 0 and out == ""
    assert "; runs: 2;" in err and "4 questions" in err
    fused = read_run(out_path)
    # q1: B = 1/(60+3) + 1/(60+1), A = 1/61, C = 1/62, X = 1/62 (C before X: ID ascending)
    assert list(fused["q1"]) == ["B", "A", "C", "X"]
    assert fused["q1"]["B"] == pytest.approx(1 / 63 + 1 / 61, abs=1e-15)
    assert out_path.read_text().splitlines()[0].endswith(" hybrid")
    with open(out_path) as handle:
        assert set(pytrec_eval.parse_run(handle)) == {"q1", "q2", "q3", "q9"}


def test_fuse_window_and_csv_output(files):
    write_run({"q1": ["C", "A"]}, files / "second.trec")
    status, out, _ = _run(["fuse", str(files / "run.trec"), str(files / "second.trec"),
                           "--k", "1", "--window", "1", "--format", "csv"])
    assert status == 0
    table = pd.read_csv(io.StringIO(out))
    q1 = table[table["question"] == "q1"]
    # window 1: only A (run) and C (second) count, 1/(1+1) each: a tie, ID ascending
    assert q1["id"].tolist() == ["A", "C"]
    assert q1["score"].tolist() == [0.5, 0.5]


def test_fuse_output_by_extension_is_read_back(files, tmp_path):
    target = tmp_path / "fused.jsonl"
    status, _, _ = _run(["fuse", str(files / "run.trec"), "-o", str(target)])
    assert status == 0
    assert list(read_run(target)["q1"]) == ["A", "X", "B"]


def test_help_explains_the_conventions_on_one_screen():
    status, out, _ = _run(["--help"])
    assert status == 0
    for phrase in ("qid Q0 docid rank score tag", "ties by ID ascending", "no-answer",
                   "missing", "unjudged", "1/(k + rank)", "exit status"):
        assert phrase in out
    assert len(out.splitlines()) <= 40
    status, out, _ = _run(["evaluate", "--help"])
    assert status == 0 and "--per-question" in out


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["evaluate", "{dir}/bad.trec", "{dir}/qrels.trec"], "bad.trec, line 2"),
        (["evaluate", "{dir}/nothere.trec", "{dir}/qrels.trec"], "No such file"),
        (["evaluate", "{dir}/run.trec", "{dir}/qrels.trec", "-m", "Precision@3"], "unknown metric"),
        (["fuse", "{dir}/run.trec", "--k", "0"], "k must be > 0"),
        (["fuse", "{dir}/run.trec", "--window", "0"], "window"),
        (["evaluate", "{dir}/run.trec"], "QRELS"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_exits_2_with_a_message_and_no_traceback(files, argv, fragment):
    (files / "bad.trec").write_text("q1 Q0 A 1 0.5 t\nq1 Q0 B 2 high t\n")
    status, out, err = _run([a.format(dir=files) for a in argv])
    assert status == 2
    assert fragment in err
    assert "Traceback" not in err + out


def test_no_command_prints_help_and_exits_2():
    status, out, _ = _run([])
    assert status == 2 and "evaluate" in out


def test_console_script_entry_point_returns_the_status(files, capsys):
    assert entry.main(["evaluate", str(files / "run.trec"), str(files / "qrels.trec")]) == 0
    assert "Recall@10" in capsys.readouterr().out


def test_python_dash_m_ragmath_in_a_subprocess(files):
    done = subprocess.run(
        [sys.executable, "-m", "ragmath", "evaluate", str(files / "run.trec"),
         str(files / "qrels.trec"), "-m", "Hit@3", "--format", "json"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    # Hit@3: q1 1, q2 1, q3 0, q5 (missing) 0 -> 2/4
    assert json.loads(done.stdout)["means"]["Hit@3"] == pytest.approx(0.5)
    bad = subprocess.run(
        [sys.executable, "-m", "ragmath", "evaluate", str(files / "qrels.trec"),
         str(files / "qrels.trec")],
        capture_output=True, text=True, timeout=120,
    )
    assert bad.returncode == 2
    assert "line 1" in bad.stderr and "Traceback" not in bad.stderr


def test_evaluate_judged_at_k_from_the_command_line(tmp_path):
    (tmp_path / "run.trec").write_text("q1 Q0 a 1 2 x\nq1 Q0 x 2 1 x\nq2 Q0 y 1 1 x\n")
    (tmp_path / "qrels.trec").write_text("q1 0 a 1\nq2 0 y 0\n")
    status, out, _ = _run(["evaluate", str(tmp_path / "run.trec"), str(tmp_path / "qrels.trec"),
                           "-m", "Judged@2", "--format", "json"])
    # by hand: q1 has 1 labelled item in its top 2 -> 1/2; q2 (no-answer) 1 labelled item over K = 2 -> 1/2
    assert status == 0 and json.loads(out)["means"] == {"Judged@2": 0.5}


def test_help_and_the_io_docstring_state_the_extra_fields_convention(files):
    import ragmath.io

    status, out, _ = _run(["evaluate", "--help"])
    assert status == 0
    said = " ".join(out.split())
    assert ("A TREC run line with more than six fields is refused (trec_eval ignores fields after the run "
            "tag)") in said
    assert "more than six fields is refused (trec_eval ignores" in " ".join(ragmath.io.__doc__.split())
    (files / "seven.trec").write_text("q1 Q0 A 1 2.0 tag extra\n", encoding="utf-8")
    status, _, err = _run(["evaluate", str(files / "seven.trec"), str(files / "qrels.trec")])
    assert status == 2 and "found 7" in err  # what the sentence says is what the reader does
