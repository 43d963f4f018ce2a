"""Readers and writers: round trips, pytrec_eval reading our files, one test per malformed input."""

from __future__ import annotations

import json
import math
import random

import pandas as pd
import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

from ragmath import io as rio
from ragmath.cli import main
from ragmath.io._checks import _FORBIDDEN_CHARS, _FORBIDDEN_RE
from ragmath.io._lines import _line_reader
from ragmath.io._sources import _Source
from ragmath.ranking import ranking_from_scores

# ---------------------------------------------------------------- data


def _random_run(rng: random.Random, scored: bool = True) -> dict:
    run = {}
    for q in range(rng.randint(1, 6)):
        ids = rng.sample([f"d{i}" for i in range(30)], rng.randint(1, 12))
        if scored:
            # ties on purpose: a few repeated values, and awkward floats
            pool = [rng.random(), -rng.random() * 1e-300, 1e300 * rng.random(), 0.1, 0.1, 1 / 3]
            run[f"q{q}"] = {d: rng.choice(pool) for d in ids}
        else:
            run[f"q{q}"] = ids
    return run


def _random_qrels(rng: random.Random) -> dict:
    return {
        f"q{q}": {f"d{i}": rng.randint(0, 3) for i in rng.sample(range(30), rng.randint(1, 8))}
        for q in range(rng.randint(1, 6))
    }


def _ordered(run: dict) -> dict:
    return {q: {d: s[d] for d in ranking_from_scores(s)} for q, s in run.items()}


FORMATS = ["run.trec", "run.csv", "run.jsonl"]


# ---------------------------------------------------------------- round trips


@pytest.mark.parametrize("name", FORMATS)
@pytest.mark.parametrize("seed", range(15))
def test_scored_run_round_trip_is_exact_with_order(tmp_path, name, seed):
    run = _random_run(random.Random(seed))
    path = tmp_path / name
    rio.write_run(run, path)
    back = rio.read_run(path)
    expected = _ordered(run)
    assert back == expected
    assert {q: list(s) for q, s in back.items()} == {q: list(s) for q, s in expected.items()}
    assert all(
        math.copysign(1, back[q][d]) == math.copysign(1, run[q][d]) for q in run for d in run[q]
    )


@pytest.mark.parametrize("name", ["run.csv", "run.jsonl"])
def test_ranked_list_run_round_trip_keeps_lists(tmp_path, name):
    run = _random_run(random.Random(3), scored=False)
    path = tmp_path / name
    rio.write_run(run, path)
    assert rio.read_run(path) == run


def test_ranked_list_written_as_trec_reads_back_in_the_same_order(tmp_path):
    run = {"q1": ["z", "a", "m"], "q2": ["b"]}
    path = tmp_path / "run.trec"
    rio.write_run(run, path)
    back = rio.read_run(path)
    assert {q: list(s) for q, s in back.items()} == run


@pytest.mark.parametrize("name", ["qrels.trec", "qrels.csv", "qrels.jsonl"])
@pytest.mark.parametrize("seed", range(10))
def test_qrels_round_trip(tmp_path, name, seed):
    qrels = _random_qrels(random.Random(seed))
    path = tmp_path / name
    rio.write_qrels(qrels, path)
    assert rio.read_qrels(path) == qrels


def test_dataframe_round_trips(tmp_path):
    run, listed = _random_run(random.Random(7)), _random_run(random.Random(8), scored=False)
    rio.write_run(run, tmp_path / "run.csv")
    rio.write_run(listed, tmp_path / "listed.csv")
    assert rio.read_run(_pandas(rio.run_table(tmp_path / "run.csv"))) == _ordered(run)
    frame = _pandas(rio.run_table(tmp_path / "listed.csv")).drop(columns="score")
    assert rio.read_run(frame) == listed
    qrels = _random_qrels(random.Random(9))
    rio.write_qrels(qrels, tmp_path / "qrels.csv")
    assert rio.read_qrels(_pandas(rio.qrels_table(tmp_path / "qrels.csv"))) == qrels


def _pandas(table):
    """A polars table as pandas, as ragmath.io's docstring says to make one."""
    return pd.DataFrame(table.to_dict(as_series=False))


def test_chinese_ids_survive_every_format(tmp_path):
    run = {"差旅-问题1": {"条款4.2-a": 0.9, "条款6.1": 0.4}}
    qrels = {"差旅-问题1": {"条款4.2-a": 2}}
    for suffix in ("trec", "csv", "jsonl"):
        rio.write_run(run, tmp_path / f"r.{suffix}")
        rio.write_qrels(qrels, tmp_path / f"q.{suffix}")
        assert rio.read_run(tmp_path / f"r.{suffix}") == run
        assert rio.read_qrels(tmp_path / f"q.{suffix}") == qrels


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=20))
def test_any_finite_float_score_survives_trec(tmp_path_factory, scores):
    path = tmp_path_factory.mktemp("floats") / "run.trec"
    run = {"q": {f"d{i}": s for i, s in enumerate(scores)}}
    rio.write_run(run, path)
    assert rio.read_run(path) == run
    table = rio.run_table(path)
    assert dict(zip(table["id"].to_list(), table["score"].to_list(), strict=True)) == run["q"]


def test_bulk_reader_gives_the_line_reader_table(tmp_path):
    run = _random_run(random.Random(11))
    path = tmp_path / "run.trec"
    rio.write_run(run, path)
    table = rio.run_table(path)
    assert table.equals(_line_reader(_Source(path), "trec", "run"))
    assert table.columns == ["question", "id", "score", "rank"]


def test_reader_accepts_tabs_runs_of_spaces_crlf_and_blank_lines(tmp_path):
    path = tmp_path / "run.trec"
    path.write_bytes(b"q1\tQ0  d2 1 0.5 t\r\n\n   \nq1 Q0 d1 2 0.75 t\r\n")
    assert rio.read_run(path) == {"q1": {"d1": 0.75, "d2": 0.5}}
    assert rio.run_table(path)["id"].to_list() == ["d2", "d1"]  # file order


def test_trec_ties_follow_score_desc_then_id_asc_not_the_rank_column(tmp_path):
    path = tmp_path / "run.trec"
    path.write_text("q1 Q0 b 1 0.5 t\nq1 Q0 c 2 0.9 t\nq1 Q0 a 3 0.5 t\n")
    assert list(rio.read_run(path)["q1"]) == ["c", "a", "b"]


# ---------------------------------------------------------------- pytrec_eval reads our files


def test_fused_run_file_is_read_by_pytrec_eval(tmp_path):
    rio.write_run({"q1": {"a": 0.9, "b": 0.5}, "q2": ["x", "y"]}, tmp_path / "one.trec")
    rio.write_run({"q1": {"b": 0.8, "c": 0.1}, "q3": ["z"]}, tmp_path / "two.trec")
    out = tmp_path / "fused.trec"
    status = main(["fuse", str(tmp_path / "one.trec"), str(tmp_path / "two.trec"), "-o", str(out)])
    assert status == 0
    with open(out) as handle:
        parsed = pytrec_eval.parse_run(handle)
    assert set(parsed) == {"q1", "q2", "q3"}
    # b: 1/(60+2) + 1/(60+1); a: 1/61; c: 1/62 (hand computed)
    assert parsed["q1"]["b"] == pytest.approx(1 / 62 + 1 / 61, abs=1e-15)
    assert parsed["q1"]["a"] == pytest.approx(1 / 61, abs=1e-15)
    with open(tmp_path / "one.trec") as handle:
        assert pytrec_eval.parse_run(handle)["q1"] == {"a": 0.9, "b": 0.5}


def test_qrels_file_is_read_by_pytrec_eval(tmp_path):
    qrels = {"q1": {"a": 2, "b": 0}, "q2": {"c": 1}}
    rio.write_qrels(qrels, tmp_path / "qrels.trec")
    with open(tmp_path / "qrels.trec") as handle:
        assert pytrec_eval.parse_qrel(handle) == qrels


# ---------------------------------------------------------------- malformed input, one case each


def _raises_at(reader, path, *fragments):
    with pytest.raises(ValueError) as info:
        reader(path)
    message = str(info.value)
    assert str(path) in message
    for fragment in fragments:
        assert fragment in message, message
    return message


GOOD_RUN = "q1 Q0 d1 1 0.5 t\n"


@pytest.mark.parametrize("reader", [rio.read_run, rio.run_table])
def test_run_line_with_too_few_fields(tmp_path, reader):
    path = tmp_path / "run.trec"
    path.write_text(GOOD_RUN + "q1 Q0 d2 2 0.25\n")
    _raises_at(reader, path, "line 2", "expected 6 fields", "found 5")


@pytest.mark.parametrize("reader", [rio.read_run, rio.run_table])
def test_run_line_with_too_many_fields(tmp_path, reader):
    path = tmp_path / "run.trec"
    path.write_text(GOOD_RUN + GOOD_RUN.replace("d1", "d2").rstrip() + " extra\n")
    _raises_at(reader, path, "line 2", "found 7")


@pytest.mark.parametrize("reader", [rio.read_run, rio.run_table])
@pytest.mark.parametrize("score", ["abc", "0,5", "1_0", "nan", "inf", "1e400"])
def test_run_line_with_a_non_numeric_or_non_finite_score(tmp_path, reader, score):
    path = tmp_path / "run.trec"
    path.write_text(GOOD_RUN + f"q1 Q0 d2 2 {score} t\n")
    _raises_at(reader, path, "line 2", "field 5 (score)", repr(score))


@pytest.mark.parametrize("reader", [rio.read_run, rio.run_table])
@pytest.mark.parametrize("rank", ["2.5", "2.0", "two"])
def test_run_line_with_a_non_integer_rank(tmp_path, reader, rank):
    path = tmp_path / "run.trec"
    path.write_text(GOOD_RUN + f"q1 Q0 d2 {rank} 0.25 t\n")
    _raises_at(reader, path, "line 2", "field 4 (rank)")


@pytest.mark.parametrize("reader", [rio.read_run, rio.run_table])
def test_run_with_a_duplicate_question_id_pair(tmp_path, reader):
    path = tmp_path / "run.trec"
    path.write_text(GOOD_RUN + "q2 Q0 d1 1 0.5 t\nq1 Q0 d1 2 0.25 t\n")
    _raises_at(reader, path, "line 3", "duplicate", "'q1'", "'d1'", "line 1")


@pytest.mark.parametrize("reader", [rio.read_qrels, rio.qrels_table])
def test_qrels_line_with_too_few_fields(tmp_path, reader):
    path = tmp_path / "qrels.trec"
    path.write_text("q1 0 d1 1\nq1 d2 1\n")
    _raises_at(reader, path, "line 2", "expected 4 fields", "found 3")


@pytest.mark.parametrize("reader", [rio.read_qrels, rio.qrels_table])
def test_qrels_line_with_a_non_numeric_grade(tmp_path, reader):
    path = tmp_path / "qrels.trec"
    path.write_text("q1 0 d1 1\nq1 0 d2 high\n")
    _raises_at(reader, path, "line 2", "field 4 (grade)", "not a number")


@pytest.mark.parametrize("reader", [rio.read_qrels, rio.qrels_table])
def test_qrels_line_with_a_non_integer_grade(tmp_path, reader):
    path = tmp_path / "qrels.trec"
    path.write_text("q1 0 d1 1\nq1 0 d2 1.5\n")
    _raises_at(reader, path, "line 2", "field 4 (grade)", "not an integer")


@pytest.mark.parametrize("reader", [rio.read_qrels, rio.qrels_table])
def test_qrels_line_with_a_negative_grade(tmp_path, reader):
    path = tmp_path / "qrels.trec"
    path.write_text("q1 0 d1 1\nq1 0 d2 -1\n")
    _raises_at(reader, path, "line 2", "field 4 (grade)", "negative")


@pytest.mark.parametrize("reader", [rio.read_qrels, rio.qrels_table])
def test_qrels_with_a_duplicate_question_id_pair(tmp_path, reader):
    path = tmp_path / "qrels.trec"
    path.write_text("q1 0 d1 1\nq1 0 d1 2\n")
    _raises_at(reader, path, "line 2", "duplicate", "line 1")


def test_csv_run_with_a_non_numeric_score(tmp_path):
    path = tmp_path / "run.csv"
    path.write_text("question,id,score\nq1,d1,0.5\nq1,d2,high\n")
    _raises_at(rio.read_run, path, "line 3", "column 'score'", "'high'")


def test_csv_row_with_too_few_fields(tmp_path):
    path = tmp_path / "qrels.csv"
    path.write_text("question,id,grade\nq1,d1,1\nq1,d2\n")
    _raises_at(rio.read_qrels, path, "line 3", "expected 3 fields")


def test_csv_qrels_with_a_duplicate_pair(tmp_path):
    path = tmp_path / "qrels.csv"
    path.write_text("question,id,grade\nq1,d1,1\nq1,d1,0\n")
    _raises_at(rio.read_qrels, path, "line 3", "duplicate", "line 2")


def test_csv_with_a_missing_column(tmp_path):
    path = tmp_path / "run.csv"
    path.write_text("question,doc,score\nq1,d1,0.5\n")
    _raises_at(rio.read_run, path, "missing column", "id")


def test_csv_run_with_a_repeated_rank(tmp_path):
    path = tmp_path / "run.csv"
    path.write_text("question,id,rank\nq1,d1,1\nq1,d2,1\n")
    _raises_at(rio.read_run, path, "line 3", "rank 1", "line 2")


def test_jsonl_qrels_with_a_non_integer_grade(tmp_path):
    path = tmp_path / "qrels.jsonl"
    lines = [{"question": "q1", "id": "d1", "grade": 1}, {"question": "q1", "id": "d2", "grade": 0.5}]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    _raises_at(rio.read_qrels, path, "line 2", "column 'grade'", "not an integer")


def test_jsonl_line_that_is_not_json(tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text('{"question": "q1", "id": "d1", "score": 1}\n{"question": "q1", \n')
    _raises_at(rio.read_run, path, "line 2", "not valid JSON")


def test_jsonl_line_missing_a_key(tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text('{"question": "q1", "id": "d1", "score": 1}\n{"question": "q1", "score": 2}\n')
    _raises_at(rio.read_run, path, "line 2", "'id'", "missing")


def test_dataframe_row_with_a_negative_grade_names_the_row():
    frame = pd.DataFrame({"question": ["q1", "q1"], "id": ["a", "b"], "grade": [1, -2]})
    with pytest.raises(ValueError, match=r"row 2, column 'grade'.*negative"):
        rio.qrels_table(frame)


def test_file_that_is_not_utf8_names_the_line(tmp_path):
    path = tmp_path / "run.trec"
    path.write_bytes(GOOD_RUN.encode() + b"q1 Q0 d\xff 2 0.25 t\n")
    _raises_at(rio.read_run, path, "line 2", "UTF-8")
    _raises_at(rio.run_table, path, "line 2", "UTF-8")


def test_writer_refuses_an_id_with_whitespace_before_writing(tmp_path):
    path = tmp_path / "run.trec"
    with pytest.raises(ValueError, match="whitespace"):
        rio.write_run({"q1": {"bad id": 1.0}}, path)
    assert not path.exists()


def test_writer_refuses_a_non_finite_score(tmp_path):
    with pytest.raises(ValueError, match="not a finite number"):
        rio.write_run({"q1": {"a": float("nan")}}, tmp_path / "run.trec")


def test_writers_do_not_modify_their_input(tmp_path):
    run = {"q1": {"b": 0.5, "a": 0.5}}
    snapshot = json.dumps(run)
    rio.write_run(run, tmp_path / "r.csv")
    rio.write_run(run, tmp_path / "r.trec")
    assert json.dumps(run) == snapshot


# ---------------------------------------------------------------- bulk reader == line reader

def _same_table_or_error(reader, path, kind):
    """The bulk reader returns the line reader's table, or raises the line reader's error."""
    try:
        expected = _line_reader(_Source(path), "trec", kind)
    except ValueError as exc:
        with pytest.raises(ValueError) as info:
            reader(path)
        assert str(info.value) == str(exc)
        return
    assert reader(path).equals(expected)


_FIELD_POOLS = [
    ["q1", "q2", "问题", "q1", "q2"],  # qid
    ["Q0", "0", "x"],  # ignored
    ["d1", "d2", "d3", "文档", "é", "d1"],  # docid
    ["1", "2", "+3", "007", "-1", "1", "2", "2.5", "x"],  # rank: an integer, else refused
    ["0.5", "0.25", "1e-3", ".5", "5.", "-0", "0.5", "nan", "1_0", "abc", "1e400"],  # score
    ["run", "t", "bm25"],  # tag
]
_SEPARATORS = [" "] * 60 + ["  ", "\t", "\u3000", "\xa0", "\x0b", "\r"]
_LINE = st.sampled_from([6, 6, 6, 6, 6, 6, 6, 5, 7, 0]).flatmap(
    lambda n: st.tuples(*[
        st.tuples(st.sampled_from(_FIELD_POOLS[min(i, 5)]), st.sampled_from(_SEPARATORS))
        for i in range(n)
    ])
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINE, min_size=1, max_size=6), st.sampled_from(["\n", "\r\n"]))
def test_bulk_reader_returns_what_the_line_reader_returns_or_the_same_error(
    tmp_path_factory, lines, newline
):
    text = newline.join("".join(tok + sep for tok, sep in line).rstrip(" ") for line in lines)
    path = tmp_path_factory.mktemp("weird") / "run.trec"
    path.write_bytes(text.encode("utf-8"))
    _same_table_or_error(rio.run_table, path, "run")


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["q1", "q2", "问"]), st.sampled_from(["0", "x"]),
                          st.sampled_from(["d1", "d2", "d3", "文档"]),
                          st.sampled_from(["0", "1", "3", "-1", "1.5", "2.0", "hi", "+2"])),
                min_size=1, max_size=8))
def test_bulk_qrels_reader_agrees_with_the_line_reader(tmp_path_factory, rows):
    path = tmp_path_factory.mktemp("qrels") / "qrels.trec"
    path.write_text("".join(" ".join(r) + "\n" for r in rows), encoding="utf-8")
    _same_table_or_error(rio.qrels_table, path, "qrels")


@pytest.mark.parametrize(
    "reader, text",
    [
        (rio.run_table, "q1 Q0 d1 1 0.5 run\trun\n"),  # a 7th field after a tab, in the tag
        (rio.qrels_table, "q1 0\tx d1 1\n"),  # a 5th field after a tab, in the iteration
    ],
)
def test_a_tab_inside_a_single_space_field_is_an_extra_field(tmp_path, reader, text):
    """Found by the bulk-vs-line-reader property: polars split on spaces only and took the tab as text."""
    path = tmp_path / "file.trec"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=r"line 1: expected \d fields .* found \d"):
        reader(path)


# ---------------------------------------------------------------- run_table(path, top=K): a slice at a time


def _head_of_whole_file(path, k):
    """The reference for run_table(path, top=k): the line reader's table, ordered and cut by the tie rule."""
    from ragmath.ranking import order_run_table

    table = order_run_table(_line_reader(_Source(path), "trec", "run"), top=k)
    return [(q, d, None, position) for q, d, position in table.rows()]


def _head_or_same_error(path, k):
    try:
        expected = _head_of_whole_file(path, k)
    except ValueError as exc:
        with pytest.raises(ValueError) as info:
            rio.run_table(path, top=k, ranked=True)
        assert str(info.value) == str(exc)
        return
    assert rio.run_table(path, top=k, ranked=True).rows() == expected


_HEAD_LINE = st.tuples(
    st.sampled_from(["q1", "q2", "q3", "问题", "#q"]),
    st.sampled_from(["d1", "d2", "d3", "d10", "文档", "é" * 13, "x" * 40, "d1"]),
    st.sampled_from(["0.5", "0.25", "0.5", "1e-3", "2", "0.5"]),  # ties on purpose
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(_HEAD_LINE, min_size=1, max_size=30),
    st.sampled_from([1, 2, 3, 5, None]),
    st.integers(8, 90),
    st.sampled_from(["\n", "\r\n"]),
    st.sampled_from(["", "\ufeff", "# a comment line\n", "\n"]),
)
def test_run_table_top_is_the_whole_files_top_k_in_any_slicing(
    tmp_path_factory, rows, k, slice_bytes, newline, opening
):
    """Questions in blocks or scattered, ties, UTF-8 IDs of many lengths, CRLF, a BOM, comments,
    duplicates, tiny slices that cut a question's lines in two: same rows or the same error."""
    rows = sorted(rows, key=lambda r: r[0]) if slice_bytes % 2 else rows  # blocks half the time
    lines = [f"{q} Q0 {d} {i} {s} run" for i, (q, d, s) in enumerate(rows, start=1)]
    path = tmp_path_factory.mktemp("head") / "run.trec"
    path.write_bytes((opening + newline.join(lines) + newline).encode("utf-8"))
    original = rio._bulk.HEAD_SLICE_BYTES
    rio._bulk.HEAD_SLICE_BYTES = slice_bytes
    try:
        _head_or_same_error(path, k)
    finally:
        rio._bulk.HEAD_SLICE_BYTES = original


@settings(max_examples=100, deadline=None)
@given(st.lists(_LINE, min_size=1, max_size=6), st.integers(1, 3))
def test_run_table_top_agrees_on_malformed_files(tmp_path_factory, lines, k):
    """Tabs, runs of spaces, odd whitespace, missing and extra fields: as the whole-file reader."""
    text = "\n".join("".join(tok + sep for tok, sep in line).rstrip(" ") for line in lines)
    path = tmp_path_factory.mktemp("weird") / "run.trec"
    path.write_bytes(text.encode("utf-8"))
    _head_or_same_error(path, k)


def test_run_table_top_reads_slices_and_carries_a_question_across_them(tmp_path, monkeypatch):
    lines = [f"q{q:02d} Q0 d{d} {d} {1 / d!r} run" for q in range(1, 21) for d in range(1, 31)]
    path = tmp_path / "run.trec"
    path.write_text("\n".join(lines) + "\n")
    pieces = []
    slices = _Source.slices

    def counted(self, size):
        for piece in slices(self, size):
            pieces.append(len(piece))
            yield piece

    monkeypatch.setattr(_Source, "slices", counted)
    monkeypatch.setattr(rio._bulk, "HEAD_SLICE_BYTES", 1000)  # about 40 lines: questions are cut in two
    head = rio.run_table(path, top=3)
    assert len(pieces) > 10
    assert head.height == 20 * 3
    assert head.rows()[:4] == [("q01", "d1", None, 1), ("q01", "d2", None, 2), ("q01", "d3", None, 3),
                               ("q02", "d1", None, 1)]
    assert head.rows() == _head_of_whole_file(path, 3)


def test_run_table_top_duplicate_across_two_slices_is_named(tmp_path, monkeypatch):
    lines = [f"q1 Q0 d{d} {d} {1 / d!r} run" for d in range(1, 60)] + ["q1 Q0 d7 60 0.0001 run"]
    path = tmp_path / "run.trec"
    path.write_text("\n".join(lines) + "\n")
    monkeypatch.setattr(rio._bulk, "HEAD_SLICE_BYTES", 200)
    with pytest.raises(ValueError, match=r"line 60, field 3 \(docid\): duplicate .* first seen on line 7"):
        rio.run_table(path, top=5)


def test_run_table_top_question_in_two_blocks(tmp_path, monkeypatch):
    """A question that comes back later is still one question: the whole file is read instead."""
    path = tmp_path / "run.trec"
    path.write_text("q1 Q0 a 1 0.5 r\nq2 Q0 b 1 0.5 r\nq1 Q0 c 2 0.9 r\n")
    monkeypatch.setattr(rio._bulk, "HEAD_SLICE_BYTES", 16)
    assert rio.run_table(path, top=5).rows() == [("q1", "c", None, 1), ("q1", "a", None, 2),
                                                 ("q2", "b", None, 1)]


@pytest.mark.parametrize("late_line, error", [
    ("q9 Q0 d1 1 0.5 run\textra", r"line 40: expected 6 fields"),  # a tab inside the ignored tag
    ("q9\tQ0\td1\t1\t0.5\trun", None),  # a tab-separated line is a good line
])
def test_run_table_top_tab_in_a_later_slice(tmp_path, monkeypatch, late_line, error):
    """Each slice is searched for a tab (polars cannot split on it): the whole file is read instead."""
    lines = [f"q{n // 10} Q0 d{n} {n} {1 / (n + 1)!r} run" for n in range(39)] + [late_line]
    path = tmp_path / "run.trec"
    path.write_text("\n".join(lines) + "\n")
    monkeypatch.setattr(rio._bulk, "HEAD_SLICE_BYTES", 100)
    if error:
        with pytest.raises(ValueError, match=error):
            rio.run_table(path, top=2)
    else:
        head = rio.run_table(path, top=2).rows()
        assert head[-1] == ("q9", "d1", None, 1)
        assert head == _head_of_whole_file(path, 2)


@pytest.mark.parametrize("k", [0, -1, 2.5, True, "3"])
def test_run_table_top_bad_k_refused(tmp_path, k):
    path = tmp_path / "run.trec"
    path.write_text("q1 Q0 a 1 0.5 r\n")
    with pytest.raises((TypeError, ValueError), match="top must be a positive int"):  # the one check of K
        rio.run_table(path, top=k)


def test_run_table_ranked_keeps_every_result_and_without_it_the_file_as_written(tmp_path):
    path = tmp_path / "run.trec"
    path.write_text("q1 Q0 a 1 0.5 r\nq1 Q0 b 2 0.9 r\nq1 Q0 c 3 0.5 r\n")
    ranked = [("q1", "b", None, 1), ("q1", "a", None, 2), ("q1", "c", None, 3)]
    assert rio.run_table(path, ranked=True).rows() == rio.run_table(path, top=5).rows() == ranked
    assert rio.run_table(path).rows() == [("q1", "a", 0.5, 1), ("q1", "b", 0.9, 2), ("q1", "c", 0.5, 3)]


@pytest.mark.parametrize("run", [
    {"q1": {"a": 0.5, "b": 0.9, "c": 0.5}, "q2": ["y", "x"]},
    pd.DataFrame({"question": ["q1", "q1", "q1", "q2", "q2"], "id": ["a", "b", "c", "y", "x"],
                  "score": [0.5, 0.9, 0.5, 2.0, 1.0]}),
])
def test_run_table_top_of_a_mapping_or_a_frame_is_what_a_file_gives(tmp_path, run):
    """One answer per input: top=K cuts a run in memory as it cuts a file."""
    path = tmp_path / "run.trec"
    rio.write_run(run, path)
    assert rio.run_table(run, top=2).rows() == rio.run_table(path, top=2).rows() == [
        ("q1", "b", None, 1), ("q1", "a", None, 2), ("q2", "y", None, 1), ("q2", "x", None, 2)]
    assert rio.run_table(run, ranked=True).rows() == rio.run_table(path, ranked=True).rows()
    assert rio.run_table(run, ranked=True).height == 5
    with pytest.raises(ValueError, match="format='csv' names a file's format"):
        rio.run_table(run, format="csv")


def test_run_table_top_of_csv_and_stdin(tmp_path, monkeypatch):
    path = tmp_path / "run.csv"
    path.write_text("question,id,score\nq1,a,0.5\nq1,b,0.9\n")
    assert rio.run_table(path, top=1).rows() == [("q1", "b", None, 1)]
    import io as stdio
    import sys

    lines = b"q1 Q0 a 1 0.5 r\nq1 Q0 b 2 0.9 r\n"
    monkeypatch.setattr(sys, "stdin", stdio.TextIOWrapper(stdio.BytesIO(lines)))
    assert rio.run_table("-", top=1).rows() == [("q1", "b", None, 1)]


def test_forbidden_character_list_matches_the_pattern():
    """The bulk check (polars contains_any on a list) and the line reader (a regex) refuse the same."""
    by_pattern = [chr(c) for c in range(0x110000) if _FORBIDDEN_RE.match(chr(c))]
    assert _FORBIDDEN_CHARS == by_pattern


class _Stuck:
    """A binary stream whose ``write`` takes nothing (returns 0, or None as a duck-typed writer may)."""

    def __init__(self, result):
        self.result, self.calls = result, 0

    def write(self, data):
        self.calls += 1
        return self.result

    def flush(self):
        pass


@pytest.mark.timeout(300)  # a hang fails here, not after the suite's 15 minutes; 300 s for a busy machine
@pytest.mark.parametrize("result", [0, None])
def test_a_stream_that_takes_no_bytes_is_an_error_not_a_hang(result):
    stream = _Stuck(result)
    with pytest.raises(OSError, match="the output took no bytes"):
        rio.write_run({"q1": ["a", "b"]}, stream)
    assert stream.calls == 1
