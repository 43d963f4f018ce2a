"""``ragmath.lab.notebook.record``: a callable becomes a run file and a latency CSV; a failure is recorded."""

from __future__ import annotations

import csv

import pytest

from ragmath.io import read_run
from ragmath.lab.notebook.record import latency_path_for, record


def _latency(path):
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_ranked_ids_become_a_trec_run_with_ranks(tmp_path):
    table = record(lambda text: ["b", "a"] if text == "x" else ["c"], {"q1": "x", "q2": "y"},
                   tmp_path / "run.trec", tag="t")
    assert (tmp_path / "run.trec").read_text() == "q1 Q0 b 1 2.0 t\nq1 Q0 a 2 1.0 t\nq2 Q0 c 1 1.0 t\n"
    assert list(table["results"]) == [2, 1]
    assert read_run(tmp_path / "run.trec") == {"q1": {"b": 2.0, "a": 1.0}, "q2": {"c": 1.0}}


def test_scored_pairs_keep_their_scores_in_csv_and_jsonl(tmp_path):
    system = {"q1": [("a", 3.5), ("b", 1.25)]}.get
    for name in ("run.csv", "run.jsonl"):
        record(system, {"q1": "q1"}, tmp_path / name)
        assert read_run(tmp_path / name) == {"q1": {"a": 3.5, "b": 1.25}}


def test_an_exception_for_one_question_is_recorded_and_the_others_are_asked(tmp_path):
    asked = []

    def system(text):
        asked.append(text)
        if text == "bad":
            raise KeyError("no index")
        return ["a"]

    record(system, {"q1": "ok", "q2": "bad", "q3": "ok too"}, tmp_path / "run.trec")
    assert asked == ["ok", "bad", "ok too"]
    rows = _latency(tmp_path / "run.latency.csv")
    assert [r["question"] for r in rows] == ["q1", "q2", "q3"]
    assert [r["error"] for r in rows] == ["", "KeyError: 'no index'", ""]
    assert [r["results"] for r in rows] == ["1", "0", "1"]
    assert all(float(r["latency_ms"]) >= 0 for r in rows)
    assert set(read_run(tmp_path / "run.trec")) == {"q1", "q3"}


@pytest.mark.parametrize("answer, message", [
    ("abc", "returned str"),
    ([("a", 1.0), ("b", 2.0)], "scores rise from rank 1"),
    (["a", ("b", 1.0)], "mixing IDs"),
    (["a", "a"], "twice|duplicate"),
    ([("a", float("nan"))], "finite"),
    (["a b"], "whitespace"),
])
def test_an_answer_that_is_not_a_ranking_is_that_questions_error(tmp_path, answer, message):
    import re

    table = record({"q1": answer, "q2": ["x"]}.get, {"q1": "q1", "q2": "q2"}, tmp_path / "run.trec")
    error = table.set_index("question").loc["q1", "error"]
    assert re.search(message, error), error
    assert read_run(tmp_path / "run.trec") == {"q2": {"x": 1.0}}


def test_depth_keeps_the_top_of_each_answer(tmp_path):
    record(lambda _: ["a", "b", "c"], {"q1": "x"}, tmp_path / "run.csv", depth=2)
    assert list(read_run(tmp_path / "run.csv")["q1"]) == ["a", "b"]


def test_every_question_failing_is_an_error_after_the_latency_file(tmp_path):
    def system(_):
        raise RuntimeError("down")

    with pytest.raises(ValueError, match=r"no question got a result.*2 failed.*q1: RuntimeError: down"):
        record(system, {"q1": "a", "q2": "b"}, tmp_path / "run.trec")
    assert len(_latency(tmp_path / "run.latency.csv")) == 2
    assert not (tmp_path / "run.trec").exists()


@pytest.mark.parametrize("kwargs, error", [
    ({"system": "not callable"}, TypeError),
    ({"questions": ["q1"]}, TypeError),
    ({"questions": {}}, ValueError),
    ({"questions": {1: "x"}}, TypeError),
    ({"depth": 0}, ValueError),
])
def test_bad_arguments_are_refused_before_anything_is_written(tmp_path, kwargs, error):
    arguments = {"system": lambda _: ["a"], "questions": {"q1": "x"}, **kwargs}
    with pytest.raises(error):
        record(arguments["system"], arguments["questions"], tmp_path / "run.trec",
               **{k: v for k, v in kwargs.items() if k == "depth"})
    assert list(tmp_path.iterdir()) == []


def test_latency_file_sits_beside_the_run():
    assert latency_path_for("a/b/vector.jsonl").as_posix() == "a/b/vector.latency.csv"
