"""The fuzzing pass of issue 16, one class per test: each was wrong before, and each is refused or
done right now. Devices and named pipes are made here in a temporary folder, never /dev/null."""

from __future__ import annotations

import fcntl
import io
import os
import resource
import signal
import stat
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pandas as pd
import polars as pl
import pytest

import ragmath
from ragmath import io as rio
from ragmath.cli import main
from ragmath.io._lines import _line_reader
from ragmath.io._sources import _Source

RUN_A = "q1 Q0 d1 1 0.5 a\nq1 Q0 d2 2 0.25 a\n"
RUN_B = "q1 Q0 d2 1 0.5 b\nq1 Q0 d3 2 0.25 b\n"
QRELS = "q1 0 d2 1\n"
#: RRF with k = 60 of RUN_A and RUN_B, by hand: d2 = 1/62 + 1/61, d1 = 1/61, d3 = 1/62.
FUSED_IDS = ["d2", "d1", "d3"]


@pytest.fixture
def files(tmp_path):
    (tmp_path / "a.trec").write_text(RUN_A)
    (tmp_path / "b.trec").write_text(RUN_B)
    (tmp_path / "qrels.trec").write_text(QRELS)
    return tmp_path


#: Child processes import the ragmath under test, whatever their working folder.
CHILD_ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(
    [str(Path(ragmath.__file__).parent.parent), os.environ.get("PYTHONPATH", "")])}


def _ragmath(*argv, cwd, env=None, **kwargs):
    return subprocess.run([sys.executable, "-m", "ragmath", *map(str, argv)], cwd=cwd,
                          env={**CHILD_ENV, **(env or {})}, capture_output=kwargs.pop("capture_output", True),
                          timeout=kwargs.pop("timeout", 300), **kwargs)


def _cli(argv):
    out, err = io.StringIO(), io.StringIO()
    return main([str(a) for a in argv], stdout=out, stderr=err), out.getvalue(), err.getvalue()


def _ids(trec_text: str) -> list[str]:
    return [line.split()[2] for line in trec_text.splitlines()]


# ---------------------------------------------------------------- -o onto a pipe, a device, a symlink


def test_output_into_a_named_pipe_writes_into_it_and_keeps_the_pipe(files):
    fifo = files / "out.fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()), daemon=True)
    reader.start()
    status, _, err = _cli(["fuse", files / "a.trec", files / "b.trec", "-o", fifo])
    reader.join(timeout=300)
    assert status == 0, err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still a named pipe, not a regular file
    assert _ids(got[0]) == FUSED_IDS


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod of a character device needs root")
def test_output_into_a_character_device_keeps_the_device(files):
    device = files / "null-device"
    os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # the null device, made here
    status, _, err = _cli(["fuse", files / "a.trec", files / "b.trec", "-o", device])
    assert status == 0, err
    info = os.lstat(device)
    assert stat.S_ISCHR(info.st_mode) and info.st_rdev == os.makedev(1, 3)


def test_output_through_a_symlink_writes_its_target(files):
    target, link = files / "target.trec", files / "link.trec"
    target.write_text("old\n")
    link.symlink_to(target.name)
    dangling_target, dangling = files / "later.trec", files / "dangling.trec"
    dangling.symlink_to(dangling_target.name)
    for output, written in ((link, target), (dangling, dangling_target)):
        status, _, err = _cli(["fuse", files / "a.trec", files / "b.trec", "-o", output])
        assert status == 0, err
        assert output.is_symlink()  # the link stays a link
        assert _ids(written.read_text()) == FUSED_IDS  # and its target has the fused run


@pytest.mark.parametrize("name", ["folder", "folder/", "missing/out.trec"])
def test_output_onto_a_folder_or_into_a_missing_folder_is_refused_by_name(files, name):
    (files / "folder").mkdir()
    status, _, err = _cli(["fuse", files / "a.trec", files / "b.trec", "-o", f"{files}/{name}"])
    assert status == 2
    assert ("is a folder" in err) if name.startswith("folder") else ("no such folder" in err)
    assert ".tmp" not in err and "ragmath-tmp" not in err  # the message names the user's path
    assert sorted(p.name for p in (files / "folder").iterdir()) == []


# ---------------------------------------------------------------- standard input: never an output, read once


def test_output_that_is_the_file_behind_standard_input_is_refused(files):
    before = (files / "a.trec").read_bytes()
    with open(files / "a.trec", "rb") as stdin:
        done = _ragmath("fuse", "-", "b.trec", "-o", "a.trec", cwd=files, stdin=stdin)
    assert done.returncode == 2, done.stderr
    assert b"also an input (standard input)" in done.stderr
    assert (files / "a.trec").read_bytes() == before


def test_output_hard_linked_to_an_input_is_refused(files):
    os.link(files / "a.trec", files / "same.trec")
    status, _, err = _cli(["fuse", files / "a.trec", files / "b.trec", "-o", files / "same.trec"])
    assert status == 2 and "also an input" in err
    assert (files / "a.trec").read_text() == RUN_A


@pytest.mark.parametrize("argv", [["fuse", "-", "/dev/stdin"], ["fuse", "/dev/stdin", "-"],
                                  ["evaluate", "-", "/dev/stdin"], ["fuse", "-", "/proc/self/fd/0"]])
def test_standard_input_named_twice_is_refused(files, argv):
    done = _ragmath(*argv, cwd=files, input=RUN_A.encode())  # a pipe: it can be read once
    assert done.returncode == 2, done.stderr
    assert b"standard input is given 2 times" in done.stderr and b"Traceback" not in done.stderr
    assert done.stdout == b""


def test_named_pipe_given_twice_is_refused_before_reading(files):
    os.mkfifo(files / "run.fifo")
    try:  # nobody writes: before, the second open waited for ever
        done = _ragmath("fuse", "run.fifo", "run.fifo", cwd=files, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("fuse waited on the named pipe given twice")
    assert done.returncode == 2 and b"run.fifo (a pipe) is given 2 times" in done.stderr


def test_standard_input_is_read_once_by_the_library(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(RUN_A.encode())))
    assert rio.read_run("-") == {"q1": {"d1": 0.5, "d2": 0.25}}
    with pytest.raises(ValueError, match="standard input was read already"):
        rio.read_run("-")  # before: an empty run, so every question "missing" and scored 0


@pytest.mark.parametrize("closed, fragment", [(0, b"standard input is closed"),
                                              (1, b"standard output is closed")])
def test_closed_standard_input_or_output_is_refused_with_a_message(files, closed, fragment):
    done = _ragmath("evaluate", "-" if closed == 0 else "a.trec", "qrels.trec", cwd=files,
                    preexec_fn=lambda: os.close(closed))
    assert done.returncode == 2, done.stderr
    assert fragment in done.stderr and b"internal error" not in done.stderr


# ---------------------------------------------------------------- writes to standard output


def _short_write_limit():
    resource.setrlimit(resource.RLIMIT_FSIZE, (40, 40))  # the 41st byte of a file is refused


COMMANDS = [
    ["fuse", "a.trec", "b.trec"],
    ["evaluate", "a.trec", "qrels.trec"],
    ["evaluate", "a.trec", "qrels.trec", "--format", "csv"],
    ["evaluate", "a.trec", "qrels.trec", "--format", "json"],
    ["--help"],
]


@pytest.mark.parametrize("unbuffered", ["", "1"])
@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: "-".join(a[:1] + a[3:]))
def test_short_write_to_standard_output_is_an_error(files, argv, unbuffered):
    """A file size limit makes the write short (40 of the bytes), as a disk that fills up does."""
    with open(files / "out.txt", "wb") as out:
        done = _ragmath(*argv, cwd=files, env={"PYTHONUNBUFFERED": unbuffered}, stdout=out,
                        stderr=subprocess.PIPE, capture_output=False, preexec_fn=_short_write_limit)
    assert (files / "out.txt").stat().st_size == 40
    assert done.returncode == 2, done.stderr  # before, with PYTHONUNBUFFERED=1: exit 0
    assert b"cannot write standard output" in done.stderr and b"Traceback" not in done.stderr


@pytest.mark.parametrize("unbuffered", ["", "1"])
@pytest.mark.parametrize("argv", COMMANDS[:4], ids=lambda a: "-".join(a[:1] + a[3:]))
def test_full_device_as_standard_output_is_an_error(files, argv, unbuffered):
    with open("/dev/full", "wb") as full:  # written to, never replaced
        done = _ragmath(*argv, cwd=files, env={"PYTHONUNBUFFERED": unbuffered}, stdout=full,
                        stderr=subprocess.PIPE, capture_output=False)
    assert done.returncode == 2 and b"No space left on device" in done.stderr


@pytest.mark.parametrize("unbuffered", ["", "1"])
@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: "-".join(a[:1] + a[3:]))
def test_closed_pipe_exits_141_for_every_command_and_format(files, argv, unbuffered):
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first byte, as with `| head -c0`
    try:
        done = _ragmath(*argv, cwd=files, env={"PYTHONUNBUFFERED": unbuffered}, stdout=write_end,
                        stderr=subprocess.PIPE, capture_output=False)
    finally:
        os.close(write_end)
    assert done.returncode == 141, done.stderr  # before: 120 (buffered) or 0
    assert b"Broken pipe" not in done.stderr and b"Traceback" not in done.stderr


@pytest.mark.parametrize("unbuffered", ["", "1"])
@pytest.mark.parametrize("command", ["evaluate", "fuse"])
def test_pipe_closed_after_the_first_byte_exits_141(tmp_path, command, unbuffered):
    run, qrels = tmp_path / "run.trec", tmp_path / "qrels.trec"
    rio.write_run({f"q{i}": [f"d{j}" for j in range(50)] for i in range(2000)}, run)  # ~2.5 MB out
    rio.write_qrels({f"q{i}": {"d3": 1} for i in range(2000)}, qrels)
    argv = ["evaluate", run, qrels, "--per-question", "--format", "json"] if command == "evaluate" else \
        ["fuse", run]
    process = subprocess.Popen([sys.executable, "-m", "ragmath", *map(str, argv)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env={**CHILD_ENV, "PYTHONUNBUFFERED": unbuffered})
    assert process.stdout.read(1)
    process.stdout.close()  # what `| head -c1` does
    err = process.stderr.read().decode()
    process.wait(timeout=300)
    assert process.returncode == 141, err
    assert "Broken pipe" not in err and "Traceback" not in err


def test_output_is_utf8_whatever_the_locale(files):
    (files / "u.trec").write_text("qé Q0 d1 1 0.5 a\n", encoding="utf-8")
    (files / "uq.trec").write_text("qé 0 d1 1\nq2 0 d1 1\n", encoding="utf-8")
    for fmt in ("table", "json"):
        done = _ragmath("evaluate", "u.trec", "uq.trec", "--per-question", "--format", fmt, cwd=files,
                        env={"PYTHONIOENCODING": "ascii"})
        assert done.returncode == 0, done.stderr  # before: exit 2, "'ascii' codec can't encode"
        assert "qé".encode() in done.stdout


# ---------------------------------------------------------------- temporary files of a killed write


def test_stale_temporary_file_of_a_killed_write_is_removed_by_the_next_write(tmp_path):
    target = tmp_path / "out.trec"
    target.write_text("old\n")
    stale = tmp_path / ".out.trec.ragmath-tmp-k1ll3d00"  # as a killed write leaves it
    other = tmp_path / ".other.trec.ragmath-tmp-k1ll3d00"  # another target's: not ours to remove
    held = tmp_path / ".out.trec.ragmath-tmp-wr1t1ng0"  # a write in progress holds its lock
    for path in (stale, other, held):
        path.write_text("half a run")
    with open(held, "rb") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        rio.write_run({"q1": ["d1"]}, target)
        names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted(["out.trec", other.name, held.name])
    assert target.read_text() == "q1 Q0 d1 1 1.0 ragmath\n"


KILLED_WRITE = textwrap.dedent("""
    import os, signal, sys
    from ragmath.cli import main
    def killed(fd):  # the process dies in the middle of its write: every byte written, not renamed
        os.kill(os.getpid(), signal.SIGKILL)
    os.fsync = killed
    main(sys.argv[1:])
""")


def test_killed_write_leaves_the_target_whole_and_only_a_plain_temporary_file(files):
    target = files / "out.trec"
    target.write_text("old\n")
    argv = ["fuse", "a.trec", "b.trec", "-o", "out.trec"]
    done = subprocess.run([sys.executable, "-c", KILLED_WRITE, *argv], cwd=files, timeout=300,
                          capture_output=True, env=CHILD_ENV)
    assert done.returncode == -signal.SIGKILL
    assert target.read_text() == "old\n"
    left = sorted(p.name for p in files.iterdir() if p.name.startswith(".out.trec"))
    assert len(left) == 1 and left[0].startswith(".out.trec.ragmath-tmp-"), left
    assert Path(left[0]).suffix not in (".trec", ".csv", ".jsonl")  # never taken for an output
    assert _ragmath(*argv, cwd=files).returncode == 0
    assert [p.name for p in files.iterdir() if p.name.startswith(".")] == []
    assert _ids(target.read_text()) == FUSED_IDS


# ---------------------------------------------------------------- readers


def _both_readers(path, fmt, kind="run"):
    """The error of the public reader (bulk first) and of the line reader alone."""
    messages = []
    for read in (lambda: rio.run_table(path) if kind == "run" else rio.qrels_table(path),
                 lambda: _line_reader(_Source(path), fmt, kind)):
        with pytest.raises(ValueError) as info:
            read()
        messages.append(str(info.value))
    return messages


@pytest.mark.parametrize("kind, text", [
    ("run", 'question,id,score\nq1,"A\nB",0.5\nq1,C,0.25\n'),
    ("run", 'question,id,score\r\n"q\r\n1",A,0.5\r\n'),
    ("qrels", 'question,id,grade\nq1,"A\r\nB",1\n'),
])
def test_line_break_inside_a_quoted_csv_id_is_refused(tmp_path, kind, text):
    path = tmp_path / f"{kind}.csv"
    path.write_bytes(text.encode())
    bulk, lines = _both_readers(path, "csv", kind)
    assert bulk == lines  # before: the line reader read "A\nB" as "AB"
    assert "line 3" in bulk and "a line break" in bulk


@pytest.mark.parametrize("text, fragment", [
    ('{"question": "q1", "id": "a", "id": "b", "score": 1}\n', "key 'id': given twice"),
    ('{"question": "q1", "id": "a", "score": 1, "meta": {"x": 1, "x": 2}}\n', "key 'x': given twice"),
    ('{"question": "q1", "id": "a", "rank": 1}\n{"question": "q1", "id": "b", "rank": 2, "score": 0.5}\n',
     "line 2, field 'score': given here but not on the first line"),
    ('{"question": "q1", "id": "a", "rank": 1, "score": null}\n'
     '{"question": "q1", "id": "b", "rank": 2, "score": 0.5}\n', "line 1, field 'score': null"),
    ('{"question": "q1", "id": "a", "score": 0.5}\n{"question": "q1", "id": "b", "score": null}\n',
     "line 2, field 'score': null"),
    ('{"question": "q1", "id": "a", "score": 1, "x": ' + "[" * 100_000 + "]" * 100_000 + "}\n",
     "line 1: a value nested too deeply"),
    ('{"question": "q1", "id": "a", "score": ' + "1" * 5000 + "}\n", "line 1: not readable JSON"),
])
def test_odd_jsonl_is_refused_naming_the_line(tmp_path, text, fragment):
    path = tmp_path / "run.jsonl"
    path.write_text(text)
    bulk, lines = _both_readers(path, "jsonl")
    assert bulk == lines and fragment in bulk, bulk


def test_odd_jsonl_exits_2_on_the_command_line(files):
    (files / "deep.jsonl").write_text('{"question": "q1", "id": "a", "score": ' + "[" * 100_000 + "}\n")
    (files / "mixed.jsonl").write_text('{"question": "q1", "id": "d1", "rank": 1}\n'
                                       '{"question": "q1", "id": "d2", "rank": 2, "score": 0.5}\n')
    for run in ("deep.jsonl", "mixed.jsonl"):
        status, out, err = _cli(["evaluate", files / run, files / "qrels.trec"])
        assert status == 2 and f"{run}, line" in err, err  # before: exit 1 (RecursionError), or exit 0


def test_differential_bulk_and_line_reader_agree_on_accepted_odd_files(tmp_path):
    """Files the bulk read accepts give the line reader's table, row for row."""
    cases = {
        "quoted.csv": 'question,id,score,text\nq1,"a,b",0.5,"two\nlines"\nq1,c,0.25,x\n',
        "crlf.csv": "question,id,score\r\nq1,a,0.5\r\nq1,b,0.25\r\n",
        "tabs.trec": "q1\tQ0\td1\t1\t0.5\tt\n# note\nq1 Q0  d2 2 0.25 t\n",
        "ranked.csv": "question,id,rank\nq1,a,1\nq1,b,2\nq2,c,1\n",
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_bytes(text.encode())
        fmt = "csv" if name.endswith(".csv") else "trec"
        assert rio.run_table(path).rows() == _line_reader(_Source(path), fmt, "run").rows(), name


def test_corpus_jsonl_is_read_by_the_same_reader(tmp_path):
    from ragmath.lab.corpus import _jsonl_records

    path = tmp_path / "corpus.jsonl"
    path.write_text('{"chunk_id": "c1", "chunk_id": "c2"}\n')
    with pytest.raises(ValueError, match=r"^corpus\.jsonl, line 1, key 'chunk_id': given twice"):
        _jsonl_records(path)
    path.write_text('{"chunk_id": "c1"}\n{"text": ' + "[" * 100_000 + "}\n")
    with pytest.raises(ValueError, match=r"^corpus\.jsonl, line 2: a value nested too deeply"):
        _jsonl_records(path)
    path.write_text('{"chunk_id": "c1", "text": "a\u2028b"}\n')  # U+2028 is no line end in JSONL
    assert _jsonl_records(path) == [(1, {"chunk_id": "c1", "text": "a\u2028b"})]


# ---------------------------------------------------------------- frames


TEXT_TABLE = [("1", "10", 0.5, None), ("1", "9", 0.25, None)]


@pytest.mark.parametrize("frame_type", [pd.DataFrame, pl.DataFrame])
def test_integer_id_columns_become_their_decimal_text(frame_type):
    frame = frame_type({"question": [1, 1], "id": [10, 9], "score": [0.5, 0.25]})
    assert rio.run_table(frame).rows() == TEXT_TABLE  # before, pandas: polars ComputeError
    labels = frame_type({"question": [1], "id": [10], "grade": [2]})
    assert rio.qrels_table(labels).rows() == [("1", "10", 2)]


@pytest.mark.parametrize("frame_type", [pd.DataFrame, pl.DataFrame])
@pytest.mark.parametrize("column, values, fragment", [
    ("id", [True, False], "column 'id' is boolean"),
    ("question", [True, True], "column 'question' is boolean"),
    ("id", [1.0, 2.0], "column 'id' holds floats"),
    ("score", [True, False], "column 'score' is boolean"),
])
def test_boolean_and_float_id_columns_are_refused_by_name(frame_type, column, values, fragment):
    data = {"question": ["q1", "q1"], "id": ["a", "b"], "score": [0.5, 0.25], column: values}
    with pytest.raises(ValueError, match=fragment):  # before, polars: accepted ("true", 1.0...)
        rio.run_table(frame_type(data))


@pytest.mark.parametrize("frame_type", [pd.DataFrame, pl.DataFrame])
def test_boolean_grade_column_is_refused(frame_type):
    with pytest.raises(ValueError, match="column 'grade' is boolean"):
        rio.qrels_table(frame_type({"question": ["q1"], "id": ["a"], "grade": [True]}))


@pytest.mark.parametrize("frame", [
    pd.DataFrame({"question": ["q1", "q1"], "id": ["a", "b"], "score": [0.5, float("nan")], "rank": [1, 2]}),
    pd.DataFrame({"question": ["q1", "q1"], "id": ["a", "b"], "score": [0.5, None], "rank": [1, 2]}),
    pl.DataFrame({"question": ["q1", "q1"], "id": ["a", "b"], "score": [0.5, float("nan")], "rank": [1, 2]}),
    pl.DataFrame({"question": ["q1", "q1"], "id": ["a", "b"], "score": [0.5, None], "rank": [1, 2]}),
], ids=["pandas-nan", "pandas-none", "polars-nan", "polars-null"])
def test_null_or_nan_scores_in_frames_are_refused(frame):
    with pytest.raises(ValueError, match=r"row 2, column 'score'.*give every row a") as info:
        rio.run_table(frame)  # before: accepted, the row ranked as if scored 0.0
    assert "score" in str(info.value)


def test_run_table_with_a_question_of_ranks_beside_a_scored_one_still_reads():
    """A run table of a mapping mixing {ID: score} and ranked lists is taken back as it is."""
    table = rio.run_table({"q1": {"a": 0.5}, "q2": ["x", "y"]})
    assert rio.run_table(table).rows() == table.rows()


# ---------------------------------------------------------------- the explorer


def test_leader_by_k_refuses_lists_with_no_item():
    from ragmath.lab.notebook.widgets import leader_by_k

    for lists in ({"L1": []}, {"L1": [], "L2": []}):
        with pytest.raises(ValueError, match="no item"):  # before: IndexError
            leader_by_k(lists, [60])
