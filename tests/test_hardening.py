"""Odd and hostile input, one class of trouble per test: each is refused clearly or read correctly.

The tests use the public names (``read_run``, ``read_qrels``, ``write_run``, the command line), so
the same file checks any version of ragmath.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
import threading

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragmath import io as rio
from ragmath.cli import main

BOM = "\ufeff"


def _cli(argv):
    out, err = io.StringIO(), io.StringIO()
    status = main([str(a) for a in argv], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def _refused(reader, path, *fragments):
    with pytest.raises(ValueError) as info:
        reader(path)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, message
    return message


# ---------------------------------------------------------------- byte-order marks


@pytest.mark.parametrize(
    "name, text",
    [
        ("run.trec", "q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 0.25 t\n"),
        ("run.csv", "question,id,score\nq1,d1,0.5\nq1,d2,0.25\n"),
        ("run.jsonl", '{"question": "q1", "id": "d1", "score": 0.5}\n'
                      '{"question": "q1", "id": "d2", "score": 0.25}\n'),
    ],
)
def test_byte_order_mark_is_stripped(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(BOM + text, encoding="utf-8")
    # one question "q1", not "\ufeffq1" and "q1"
    assert rio.read_run(path) == {"q1": {"d1": 0.5, "d2": 0.25}}


# ---------------------------------------------------------------- comment lines


def test_comment_lines_are_skipped_in_trec_files(tmp_path):
    qrels = tmp_path / "qrels.trec"
    qrels.write_text("# qid iter docno rel\nq1 0 d1 1\n  # judged again in May\nq1 0 d2 0\n")
    assert rio.read_qrels(qrels) == {"q1": {"d1": 1, "d2": 0}}
    run = tmp_path / "run.trec"
    run.write_text("# produced by bm25 k1 = 0.9\nq1 Q0 d1 1 0.5 t\n#\n")
    assert rio.read_run(run) == {"q1": {"d1": 0.5}}


def test_question_starting_with_hash_is_refused_by_the_trec_writer(tmp_path):
    with pytest.raises(ValueError, match="comment"):
        rio.write_qrels({"#1": {"d1": 1}}, tmp_path / "qrels.trec")
    assert not (tmp_path / "qrels.trec").exists()


# ---------------------------------------------------------------- overflow and too large K


@pytest.mark.parametrize("grade", ["1024", "100000000000000000000", "31"])
def test_overflowing_grade_is_refused_with_exit_2(tmp_path, grade):
    (tmp_path / "run.trec").write_text("q1 Q0 d1 1 0.5 t\n")
    (tmp_path / "qrels.trec").write_text(f"q1 0 d1 {grade}\n")
    status, out, err = _cli(["evaluate", tmp_path / "run.trec", tmp_path / "qrels.trec"])
    assert status == 2, err
    assert "line 1" in err and "grade" in err and "Traceback" not in out + err


@pytest.mark.parametrize("rank", ["100000000000000000000", "-99999999999999999999"])
def test_overflowing_rank_is_refused(tmp_path, rank):
    path = tmp_path / "run.trec"
    path.write_text(f"q1 Q0 d1 {rank} 0.5 t\n")
    _refused(rio.read_run, path, "line 1", "field 4 (rank)")


@pytest.mark.parametrize("metric", ["nDCG@100000000", "Recall@99999999999999999999"])
def test_too_large_k_is_refused_with_exit_2(tmp_path, metric):
    (tmp_path / "run.trec").write_text("q1 Q0 d1 1 0.5 t\n")
    (tmp_path / "qrels.trec").write_text("q1 0 d1 1\n")
    status, out, err = _cli(["evaluate", tmp_path / "run.trec", tmp_path / "qrels.trec", "-m", metric])
    assert status == 2, err
    assert "K" in err and "Traceback" not in out + err


def test_unexpected_error_is_one_line_and_exit_1(tmp_path, monkeypatch):
    import ragmath.evaluation

    def broken(*args, **kwargs):
        raise KeyError("a bug, not bad input")

    monkeypatch.setattr(ragmath.evaluation, "evaluate", broken)
    (tmp_path / "run.trec").write_text("q1 Q0 d1 1 0.5 t\n")
    (tmp_path / "qrels.trec").write_text("q1 0 d1 1\n")
    status, out, err = _cli(["evaluate", tmp_path / "run.trec", tmp_path / "qrels.trec"])
    assert status == 1
    assert err.count("\n") == 1 and "internal error" in err and "Traceback" not in err


# ---------------------------------------------------------------- memory follows the data


def test_memory_follows_the_data_not_the_longest_id(tmp_path):
    """One 64 KiB ID among 100,000 short lines must not size every row to 64 KiB (6 GiB)."""
    path = tmp_path / "run.trec"
    lines = [f"q{i // 100} Q0 d{i} {i % 100 + 1} {1 - (i % 100) / 100} t\n" for i in range(100_000)]
    lines[5] = f"q0 Q0 {'x' * 65536} 6 0.95 t\n"
    path.write_text("".join(lines))
    code = textwrap.dedent(
        f"""
        import resource, sys
        import ragmath
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        run = ragmath.fuse_runs([{str(path)!r}], as_frame=True)  # read, then text to pandas
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(len(run), (after - before) // 1024)
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    rows, grown_mib = map(int, done.stdout.split())
    assert rows == 100_000
    # the file is 3 MiB; a few hundred MiB of working memory is polars and Python, not 6 GiB
    assert grown_mib < 400, f"reading a 3 MiB run grew memory by {grown_mib} MiB"


# ---------------------------------------------------------------- short error messages


def test_error_messages_quote_at_most_200_characters_of_a_line(tmp_path):
    path = tmp_path / "run.trec"
    path.write_text("q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 " + "9" * 1_000_000 + "x t\n")
    message = _refused(rio.read_run, path, "line 2", "field 5 (score)")
    assert len(message) < len(str(path)) + 400
    path.write_text("q1 Q0 d1 1 0.5 t\n" + "y " * 500_000 + "\n")
    message = _refused(rio.read_run, path, "line 2")
    assert len(message) < len(str(path)) + 400


# ---------------------------------------------------------------- ASCII digits only


# Arabic-Indic, full-width and Devanagari digits
@pytest.mark.parametrize("digits", ["\u0661\u0662", "\uff11\uff12", "\u0967"])
def test_only_ascii_digits_are_numbers(tmp_path, digits):
    run = tmp_path / "run.trec"
    run.write_text(f"q1 Q0 d1 1 0.{digits} t\n", encoding="utf-8")
    _refused(rio.read_run, run, "line 1", "field 5 (score)")
    run.write_text(f"q1 Q0 d1 {digits} 0.5 t\n", encoding="utf-8")
    _refused(rio.read_run, run, "line 1", "field 4 (rank)")
    qrels = tmp_path / "qrels.csv"
    qrels.write_text(f"question,id,grade\nq1,d1,{digits}\n", encoding="utf-8")
    _refused(rio.read_qrels, qrels, "line 2", "grade")


def test_command_line_numbers_take_ascii_digits_only(tmp_path):
    (tmp_path / "run.trec").write_text("q1 Q0 d1 1 0.5 t\n")
    status, _, err = _cli(["fuse", tmp_path / "run.trec", "--k", "\u0666\u0660"])
    assert status == 2 and "k must be" in err
    status, _, err = _cli(["fuse", tmp_path / "run.trec", "--window", "\uff13"])
    assert status == 2 and "window" in err


# ---------------------------------------------------------------- control characters in IDs


@pytest.mark.parametrize("bad", ["\x00", "\r", "\xa0", "\x1b", "\u3000", "\x85"])
def test_control_characters_and_nul_in_ids_are_refused(tmp_path, bad):
    run = tmp_path / "run.trec"
    run.write_bytes(f"q1 Q0 d{bad}1 1 0.5 t\n".encode())
    _refused(rio.read_run, run, "line 1", "field 3 (docid)")
    qrels = tmp_path / "qrels.csv"
    qrels.write_bytes(f"question,id,grade\nq{bad}1,d1,1\n".encode())
    _refused(rio.read_qrels, qrels, "line 2")
    with pytest.raises(ValueError):
        rio.write_run({"q1": {f"d{bad}1": 0.5}}, tmp_path / "out.trec")
    assert not (tmp_path / "out.trec").exists()
    frame = pd.DataFrame({"question": ["q1"], "id": [f"d{bad}1"], "score": [0.5]})
    with pytest.raises(ValueError, match="row 1"):
        rio.run_table(frame)


# ---------------------------------------------------------------- repeated CSV columns


def test_repeated_csv_columns_are_refused(tmp_path):
    path = tmp_path / "run.csv"
    path.write_text("question,id,score,score\nq1,d1,0.5,0.9\n")
    _refused(rio.read_run, path, "score", "more than once")
    path = tmp_path / "qrels.csv"
    path.write_text("question,id,id,grade\nq1,d1,d2,1\n")
    _refused(rio.read_qrels, path, "id", "more than once")


# ---------------------------------------------------------------- IDs written exactly as read

_ID = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")),
    min_size=1,
    max_size=12,
).filter(lambda text: not text.startswith("#") and not any(c.isspace() for c in text))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    st.dictionaries(_ID, st.dictionaries(_ID, st.floats(allow_nan=False, allow_infinity=False), min_size=1,
                                         max_size=5), min_size=1, max_size=4),
    st.sampled_from(["trec", "csv", "jsonl"]),
)
def test_ids_written_exactly_as_read_round_trip(tmp_path, run, fmt):
    path = tmp_path / f"run.{fmt}"
    rio.write_run(run, path)
    back = rio.read_run(path)
    assert {q: dict(s) for q, s in back.items()} == run
    qrels = {q: {d: i % 4 for i, d in enumerate(s)} for q, s in run.items()}
    rio.write_qrels(qrels, tmp_path / f"qrels.{fmt}")
    assert rio.read_qrels(tmp_path / f"qrels.{fmt}") == qrels


def test_int_and_text_ids_that_print_alike_are_refused(tmp_path):
    with pytest.raises(ValueError, match="duplicate"):
        rio.write_run({"q1": {1: 0.5, "1": 0.25}}, tmp_path / "run.jsonl")
    assert not (tmp_path / "run.jsonl").exists()


# ---------------------------------------------------------------- atomic writes


def test_writes_are_atomic(tmp_path, monkeypatch):
    path = tmp_path / "run.trec"
    rio.write_run({"q1": ["old"]}, path)
    before = path.read_bytes()

    def disk_full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError):
        rio.write_run({"q1": ["new", "newer"]}, path)
    with pytest.raises(OSError):
        rio.write_run({"q1": ["new"]}, tmp_path / "fresh.trec")
    assert path.read_bytes() == before  # the old file is whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.trec"]  # no partial file, no temp file


# ---------------------------------------------------------------- output equal to an input


def test_output_path_equal_to_an_input_is_refused(tmp_path):
    a, b = tmp_path / "a.trec", tmp_path / "b.trec"
    rio.write_run({"q1": {"d1": 0.5}}, a)
    rio.write_run({"q1": {"d2": 0.5}}, b)
    before = a.read_bytes()
    os.chdir(tmp_path)
    for output in (str(a), "a.trec", "./a.trec"):
        status, _, err = _cli(["fuse", a, b, "-o", output])
        assert status == 2 and "also an input" in err
    assert a.read_bytes() == before


# ---------------------------------------------------------------- a closed pipe


@pytest.mark.parametrize("command", ["evaluate", "fuse"])
def test_closed_pipe_ends_quietly(tmp_path, command):
    run, qrels = tmp_path / "run.trec", tmp_path / "qrels.trec"
    rio.write_run({f"q{i}": [f"d{j}" for j in range(50)] for i in range(2000)}, run)  # ~2.5 MB out
    rio.write_qrels({f"q{i}": {"d3": 1} for i in range(2000)}, qrels)
    argv = ["evaluate", run, qrels, "--per-question"] if command == "evaluate" else ["fuse", run]
    process = subprocess.Popen(
        [sys.executable, "-m", "ragmath", *map(str, argv)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    process.stdout.readline()
    process.stdout.close()  # what `| head -1` does
    err = process.stderr.read().decode()
    process.wait(timeout=300)
    assert "Broken pipe" not in err and "Traceback" not in err and "error" not in err
    assert process.returncode in (0, 141)


# ---------------------------------------------------------------- named pipes and standard input


def test_named_pipe_is_read(tmp_path):
    fifo = tmp_path / "run.fifo"
    os.mkfifo(fifo)

    def feed():
        with open(fifo, "w") as handle:
            handle.write("q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 0.75 t\n")

    qrels = tmp_path / "qrels.trec"
    qrels.write_text("q1 0 d1 1\n")
    readers = (
        lambda: rio.read_run(fifo, format="trec"),
        lambda: _cli(["evaluate", fifo, qrels, "-m", "MRR@10"]),
    )
    for read in readers:
        writer = threading.Thread(target=feed)
        writer.start()
        try:
            result = read()
        finally:
            writer.join(timeout=300)
        if isinstance(result, dict):
            assert result == {"q1": {"d2": 0.75, "d1": 0.5}}
        else:  # d1 is second by score: MRR@10 = 1/2
            status, out, err = result
            assert status == 0, err
            assert "MRR@10     0.5000" in out


def test_dash_reads_standard_input(tmp_path):
    qrels = tmp_path / "qrels.trec"
    qrels.write_text("q1 0 d2 1\n")
    done = subprocess.run(
        [sys.executable, "-m", "ragmath", "evaluate", "-", str(qrels), "-m", "MRR@10", "--format", "json"],
        input="q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 0.25 t\n", capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["means"]["MRR@10"] == pytest.approx(0.5)  # d2 at rank 2
