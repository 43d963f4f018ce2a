"""ragmath.seal: sealed before anything runs, opened once, then the stored result shown (hash-checked)."""

from __future__ import annotations

import ast
import hashlib
import json
import re
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ragmath
from ragmath.seal import content_sha256, git_output, open_seal, read_results, seal, show_seal, write_results

PACKAGE = Path(ragmath.__file__).resolve().parent


@pytest.fixture
def sealed(tmp_path):
    questions, labels = tmp_path / "questions.jsonl", tmp_path / "qrels.csv"
    questions.write_text('{"question_id": "h1"}\n{"question_id": "h2"}\n', encoding="utf-8")
    labels.write_text("question,id,grade\nh1,d1,2\nh2,d2,0\n", encoding="utf-8")
    record = tmp_path / "seal.json"
    seal(record, questions=questions, labels=labels, note="my holdout")
    return record, questions, labels


class Design:
    """A frozen design that counts how often it ran."""

    def __init__(self):
        self.calls = 0

    def __call__(self, design):
        self.calls += 1
        return pd.DataFrame({"question": ["h1", "h2"], "Hit@3": [1.0, np.nan], "found": [True, False],
                             "top": ["d1 d9", ""], "k": design["k"]}).set_index("question")


def test_the_seal_records_hashes_date_and_commit_before_anything_runs(sealed):
    record, questions, labels = sealed
    written = json.loads(record.read_text(encoding="utf-8"))
    assert written["openings"] == []
    assert written["sealed"]["questions_sha256"] == hashlib.sha256(questions.read_bytes()).hexdigest()
    assert written["sealed"]["labels_sha256"] == hashlib.sha256(labels.read_bytes()).hexdigest()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", written["sealed"]["date"])
    assert written["sealed"]["commit"] and written["sealed"]["note"] == "my holdout"
    with pytest.raises(FileExistsError, match="already sealed"):
        seal(record, questions=questions, labels=labels)


def test_opening_runs_once_and_showing_never_reruns(sealed):
    record, questions, labels = sealed
    design = Design()
    first = open_seal(record, design, {"k": 3}, questions=questions, labels=labels)
    assert first.ran and first.number == 1 and first.times_opened == 1 and design.calls == 1
    again = open_seal(record, design, {"k": 3}, questions=questions, labels=labels)
    shown = show_seal(record)
    assert design.calls == 1 and not again.ran and not shown.ran and shown.times_opened == 1
    pd.testing.assert_frame_equal(shown.results, design({"k": 3}))
    entry = json.loads(record.read_text(encoding="utf-8"))["openings"][0]
    assert entry["design"] == {"k": 3} and entry["design_sha256"] == content_sha256({"k": 3})
    stored = (record.parent / entry["results_file"]).read_bytes()
    assert entry["results_sha256"] == hashlib.sha256(stored).hexdigest()
    assert "stored result shown, nothing re-run" in str(shown)


def test_a_second_design_is_refused_unless_a_new_opening_is_asked_and_then_counted(sealed):
    record, questions, labels = sealed
    design = Design()
    open_seal(record, design, {"k": 3}, questions=questions, labels=labels)
    with pytest.raises(RuntimeError, match="second dev set"):
        open_seal(record, design, {"k": 5}, questions=questions, labels=labels)
    second = open_seal(record, design, {"k": 5}, questions=questions, labels=labels, new_opening=True)
    assert second.ran and second.number == 2 and second.times_opened == 2 and design.calls == 2
    assert str(second).endswith("; openings so far: 2")
    assert show_seal(record, 1).results["k"].tolist() == [3, 3]
    assert show_seal(record).number == 2


def test_changed_questions_or_labels_cannot_be_opened(sealed):
    record, questions, labels = sealed
    labels.write_text("question,id,grade\nh1,d1,2\nh2,d2,1\n", encoding="utf-8")
    with pytest.raises(ValueError, match="labels differ from the sealed ones"):
        open_seal(record, Design(), {"k": 3}, questions=questions, labels=labels)


def test_a_changed_stored_result_is_refused_when_shown(sealed):
    record, questions, labels = sealed
    opening = open_seal(record, Design(), {"k": 3}, questions=questions, labels=labels)
    stored = record.parent / opening.record["results_file"]
    stored.write_text(stored.read_text(encoding="utf-8").replace("1.0", "0.0"), encoding="utf-8")
    with pytest.raises(ValueError, match="changed after its opening"):
        show_seal(record)


def test_showing_an_unopened_seal_says_so(sealed):
    with pytest.raises(ValueError, match="never opened"):
        show_seal(sealed[0])
    with pytest.raises(FileNotFoundError, match="seal the questions"):
        show_seal(sealed[0].parent / "nothing.json")


def test_the_design_must_return_a_table(sealed):
    record, questions, labels = sealed
    with pytest.raises(TypeError, match="DataFrame"):
        open_seal(record, lambda design: [1, 2], {"k": 3}, questions=questions, labels=labels)


def test_results_round_trip_with_their_types(tmp_path):
    frame = pd.DataFrame({"version": ["A", "A", "B"], "question": ["q1", "q2", "q1"],
                          "score": [0.1 + 0.2, np.nan, 1 / 3], "ok": [True, False, True],
                          "n": [1, 2, 3], "text": ["x", "", "中文"]}).set_index(["version", "question"])
    digest = write_results(frame, tmp_path / "r.jsonl")
    back = read_results(tmp_path / "r.jsonl", digest)
    pd.testing.assert_frame_equal(back, frame)
    assert back.loc[("A", "q1"), "score"] == 0.1 + 0.2  # floats exactly, not rounded
    with pytest.raises(ValueError, match="differs from the recorded"):
        read_results(tmp_path / "r.jsonl", "0" * 64)


def _runs_git(source: str) -> bool:
    """Whether a module runs git: it imports subprocess and names the program ("git", or "git ..." text)."""
    nodes = list(ast.walk(ast.parse(source)))
    imports = any(isinstance(n, ast.Import) and any(a.name == "subprocess" for a in n.names)
                  or isinstance(n, ast.ImportFrom) and n.module == "subprocess" for n in nodes)
    names_git = any(isinstance(n, ast.Constant) and isinstance(n.value, str)
                    and n.value.split(" ")[0] == "git" for n in nodes)
    return imports and names_git


def test_only_the_seal_module_runs_git():
    runners = sorted(str(p.relative_to(PACKAGE.parent)) for p in PACKAGE.rglob("*.py")
                     if _runs_git(p.read_text(encoding="utf-8")))
    assert runners == ["ragmath/seal.py"], f"run git through ragmath.seal.git_output, not in {runners}"


def test_a_second_git_runner_would_be_found():
    assert _runs_git("import subprocess\nsubprocess.run(['git', '-C', '.', 'log'])\n")
    assert _runs_git("def f():\n    from subprocess import run\n    run('git show HEAD', shell=True)\n")
    assert not _runs_git("import subprocess\nsubprocess.run(['python', '-V'])\n")
    assert not _runs_git('"""Restore it (git checkout)."""\nimport json\nGIT = "git"\n')


def test_git_output_is_the_output_or_none(tmp_path, monkeypatch):
    assert git_output(tmp_path / "missing", "rev-parse", "HEAD") is None  # no such folder
    head = git_output(PACKAGE, "rev-parse", "HEAD")
    if head is None:
        pytest.skip("no git, or ragmath is not in a git repository")
    assert re.fullmatch(r"[0-9a-f]{40}\n", head)
    assert git_output(PACKAGE, "rev-parse", "no-such-revision") is None  # git fails

    def too_slow(*args, **kwargs):
        raise subprocess.TimeoutExpired(args[0], kwargs["timeout"])

    monkeypatch.setattr(subprocess, "run", too_slow)
    assert git_output(PACKAGE, "rev-parse", "HEAD", timeout=0.1) is None


# ------------------------------------------------- two ways around a seal, found by fuzzing (issue 35)
def test_a_record_without_its_hash_is_refused_so_stripping_its_openings_cannot_reopen_it(sealed):
    record, questions, labels = sealed
    open_seal(record, Design(), {"k": 3}, questions=questions, labels=labels)
    stripped = json.loads(record.read_text(encoding="utf-8"))
    stripped["openings"] = []
    del stripped["record_sha256"]
    record.write_text(json.dumps(stripped, indent=2) + "\n", encoding="utf-8")
    design = Design()
    with pytest.raises(ValueError, match=r"no record_sha256.*restore it"):
        open_seal(record, design, {"k": 5}, questions=questions, labels=labels)
    with pytest.raises(ValueError, match="no record_sha256"):
        show_seal(record)
    assert design.calls == 0


def test_a_folder_holds_one_seal_record_so_a_second_seal_beside_it_is_refused(sealed):
    record, questions, labels = sealed
    with pytest.raises(FileExistsError, match=r"already holds the seal record seal\.json"):
        seal(record.with_name("holdout_openings.json"), questions=questions, labels=labels)
    assert sorted(p.name for p in record.parent.glob("*.json")) == ["seal.json"]


def test_opening_or_showing_with_two_records_in_the_folder_is_refused(sealed):
    record, questions, labels = sealed
    open_seal(record, Design(), {"k": 3}, questions=questions, labels=labels)
    second = record.with_name("holdout_openings.json")
    second.write_text(json.dumps({"sealed": {"questions_sha256": content_sha256(questions)}, "openings": []}),
                      encoding="utf-8")
    design = Design()
    both = r"more than one seal record \(holdout_openings\.json, seal\.json\)"
    for path in (record, second):
        with pytest.raises(ValueError, match=both):
            open_seal(path, design, {"k": 5}, questions=questions, labels=labels, new_opening=True)
        with pytest.raises(ValueError, match="more than one seal record"):
            show_seal(path)
    assert design.calls == 0


def test_files_an_opening_writes_are_hashed_into_it_and_checked_when_shown(sealed):
    record, questions, labels = sealed

    def run(design, paths):
        paths[".vec"].write_bytes(b"0123")
        return Design()(design)

    opened = open_seal(record, run, {"k": 3}, questions=questions, labels=labels, files=[".vec"])
    written = record.with_name("seal.json.opening-1.vec")
    assert opened.record["files"] == {written.name: hashlib.sha256(b"0123").hexdigest()}
    assert show_seal(record, 1).record["files"] == opened.record["files"]
    written.write_bytes(b"0124")
    with pytest.raises(ValueError, match=r"seal\.json\.opening-1\.vec: SHA-256 .* differs"):
        show_seal(record, 1)
    written.unlink()
    with pytest.raises(ValueError, match="was changed or removed"):
        show_seal(record, 1)


def test_a_file_the_run_says_it_writes_but_does_not_fails_the_opening(sealed):
    record, questions, labels = sealed
    with pytest.raises(FileNotFoundError, match="did not write"):
        open_seal(record, lambda design, paths: Design()(design), {"k": 3}, questions=questions,
                  labels=labels, files=[".vec"])
    entry = json.loads(record.read_text(encoding="utf-8"))["openings"][0]
    assert entry["state"].startswith("failed: FileNotFoundError") and "files" not in entry
