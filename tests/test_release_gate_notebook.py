"""Notebook 09 (a release gate): its readings recomputed, its CI script run, its workflow file the one shown.

- The CI script ``tools/release_gate_ci.sh`` runs on small files made here: exit status 0 on PASS, 1 on FAIL,
  2 on bad input and on a wrong call, with the Markdown report shown and added to a GitHub job summary.
- The workflow the notebook shows (in both languages) is ``docs/release-gate.yml``, byte for byte.
- Executed (``-m notebooks``): the English notebook's printed readings against gates run again here
  (tests/readings09.py), the question counts of issue #38 written here by hand from the issue, the
  simulation recomputed by a plain loop, and the CI cell's exit statuses; the Chinese notebook prints the
  same numbers in Chinese words.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "09_release_gate.ipynb"
ZH_NOTEBOOK = ROOT / "notebooks" / "zh" / "09_release_gate.ipynb"
SCRIPT = ROOT / "tools" / "release_gate_ci.sh"
WORKFLOW = ROOT / "docs" / "release-gate.yml"


# --------------------------------------------------------------------------------------- the CI script
def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.fixture
def small_files(tmp_path):
    """Eight questions, each with one relevant chunk; a baseline that finds it first, the same run as a
    candidate, and a candidate that finds nothing."""
    questions = [f"q{i}" for i in range(1, 9)]
    qrels = _write(tmp_path / "qrels.csv", ["question,id,grade", *(f"{q},{q}-a,1" for q in questions)])
    base = _write(tmp_path / "base.trec", [f"{q} Q0 {q}-{d} {r} {3 - r} base" for q in questions
                                           for r, d in ((1, "a"), (2, "b"))])
    same = _write(tmp_path / "same.trec", [f"{q} Q0 {q}-{d} {r} {3 - r} same" for q in questions
                                           for r, d in ((1, "a"), (2, "b"))])
    worse = _write(tmp_path / "worse.trec", [f"{q} Q0 {q}-{d} {r} {3 - r} worse" for q in questions
                                             for r, d in ((1, "b"), (2, "c"))])
    return tmp_path, qrels, base, same, worse


def _run(*args: str, folder: Path, summary: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHON": sys.executable, "GATE_REPORT": str(folder / "report.md"),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    env.pop("GITHUB_STEP_SUMMARY", None)
    if summary is not None:
        env["GITHUB_STEP_SUMMARY"] = str(summary)
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True, env=env, cwd=folder,
                          timeout=300)


@pytest.mark.skipif(shutil.which("bash") is None, reason="the CI script is a bash script")
def test_the_ci_script_passes_fails_and_refuses_with_the_gates_exit_statuses(small_files):
    folder, qrels, base, same, worse = small_files
    summary = folder / "summary.md"
    passed = _run(str(base), str(same), str(qrels), "MRR@10", "0.02", folder=folder, summary=summary)
    assert passed.returncode == 0, passed.stderr
    assert "| decision | PASS: non-inferior" in passed.stdout
    report = (folder / "report.md").read_text(encoding="utf-8")
    assert summary.read_text(encoding="utf-8") == passed.stdout == report
    failed = _run(str(base), str(worse), str(qrels), folder=folder)  # nDCG@10 and 0.02 by default
    assert failed.returncode == 1, failed.stderr
    assert "| decision | FAIL: worse by more than the margin" in failed.stdout
    assert "| metric | nDCG@10 |" in failed.stdout and "| margin | 0.02 " in failed.stdout
    bad = _run(str(base), str(same), str(qrels), "nDCG@10", "0", folder=folder)
    assert bad.returncode == 2 and "margin" in bad.stderr
    missing = _run(str(base), str(folder / "no_such.trec"), str(qrels), folder=folder)
    assert missing.returncode == 2
    usage = _run(str(base), str(same), folder=folder)
    assert usage.returncode == 2 and usage.stderr.startswith("usage: ")


def test_the_ci_script_is_executable_and_says_its_exit_statuses():
    text = SCRIPT.read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env bash\n") and os.access(SCRIPT, os.X_OK)
    assert "0 PASS" in text and "1 FAIL" in text and "2 bad input" in text


@pytest.mark.parametrize("path", [NOTEBOOK, ZH_NOTEBOOK], ids=["en", "zh"])
def test_the_workflow_the_notebook_shows_is_the_committed_file(path):
    cells = nbformat.read(path, as_version=4).cells
    blocks = [m for c in cells if c.cell_type == "markdown"
              for m in re.findall(r"```yaml\n(.*?)```", c.source, re.S)]
    assert blocks == [WORKFLOW.read_text(encoding="utf-8")]
    assert "tools/release_gate_ci.sh" in blocks[0]


# ----------------------------------------------------------------------------------- executed readings
@pytest.fixture(scope="module")
def stand_in():
    """The working questions' runs and labels as notebook 09 forms them for the workbook's files."""
    from readings08 import stand_in

    from ragmath.lab.notebook.own_system import labels_for, runs_for

    mine, working, _, labels = stand_in()
    runs, work_labels = runs_for(mine.runs, working), labels_for(labels, working)
    answerable = [q for q in working if any(g > 0 for g in work_labels.get(q, {}).values())]
    return runs, work_labels, answerable


def _gates(stand_in):
    from ragmath import gate
    from ragmath.lab.notebook.own_system import labels_for, runs_for

    runs, labels, answerable = stand_in
    gates = {v: gate(runs["bm25"], runs[v], labels, "nDCG@10", 0.02, names=("bm25", v))
             for v in runs if v != "bm25"}
    best = max(gates, key=lambda v: gates[v].mean_diff)
    swapped = {}
    for q, ranking in runs["bm25"].items():  # ranks 5 and 6 swapped, written out here
        ids = list(ranking)
        swapped[q] = ids[:4] + [ids[5], ids[4]] + ids[6:] if len(ids) >= 6 else ids
    few = answerable[:12]
    few_runs = runs_for(runs, few)
    cases = {
        "better": gates[best],
        "within the margin": gate(runs["bm25"], swapped, labels, "nDCG@10", 0.02, names=("bm25", "bm25 5↔6")),
        "worse": gate(runs[best], runs["bm25"], labels, "nDCG@10", 0.02, names=(best, "bm25")),
        "too few questions": gate(few_runs["bm25"], few_runs[best], labels_for(labels, few), "nDCG@10", 0.02,
                                  names=("bm25", best)),
    }
    return gates, cases


@pytest.mark.notebooks
@pytest.mark.slow
def test_notebook_09_prints_its_gates_and_cases_as_recomputed(executed, stand_in):
    from readings09 import check_case_lines, check_gate_lines, check_own_counts, printed

    nb = executed(NOTEBOOK)
    gates, cases = _gates(stand_in)
    check_gate_lines(printed(nb, "read0902"), gates, "bm25")
    check_case_lines(printed(nb, "read0903"), cases)
    better, within, worse, few = cases.values()  # the stand-in lands in the four cases their names say
    assert better.passed and better.low > 0
    assert within.passed and -0.02 < within.low <= 0
    assert not worse.passed and worse.reason == "worse"
    assert not few.passed and few.reason == "too few" and few.needed > few.questions
    check_own_counts(printed(nb, "own0904"), gates, "bm25")
    statuses = re.findall(r"^(.+): .* → (?:PASS|FAIL) \(exit (\d)\)", printed(nb, "read0903"), re.M)
    assert statuses == [(case, str(r.exit_status)) for case, r in cases.items()]
    assert [s for _, s in statuses] == ["0", "0", "1", "1"]
    assert not any(out.output_type == "error" for c in nb.cells for out in c.get("outputs", []))


@pytest.mark.notebooks
@pytest.mark.slow
def test_notebook_09_recomputes_the_question_counts_of_issue_38(executed):
    from readings09 import printed

    text = printed(executed(NOTEBOOK), "plan0904")
    # Written by hand from issue #38 (normal approximation, alpha 0.05, power 0.8, sd 0.2).
    assert "detecting a gain of 0.05 needs about 126 questions" in text
    assert "detecting a gain of 0.03 needs about 349 questions" in text
    assert "non-inferiority within 0.05 needs about 99 questions at one-sided 5%" in text
    assert "non-inferiority within 0.02 needs about 619 questions at one-sided 5%" in text
    assert "with 50 questions the smallest detectable difference is about 0.079" in text


@pytest.mark.notebooks
@pytest.mark.slow
def test_notebook_09_simulates_peeking_and_runs_the_gate_as_ci_would(executed):
    from readings09 import check_peeking_lines, printed

    nb = executed(NOTEBOOK)
    check_peeking_lines(printed(nb, "peek0905"))
    ci = printed(nb, "ci0906")
    assert re.findall(r"exit status (\d)", ci) == ["0", "1", "2"]


@pytest.mark.notebooks
@pytest.mark.slow
def test_chinese_09_prints_the_same_numbers_in_chinese(executed):
    from readings09 import printed

    en, zh = executed(NOTEBOOK), executed(ZH_NOTEBOOK)
    for cell_id in ("read0902", "read0903", "plan0904", "own0904", "peek0905", "ci0906"):
        numbers = re.compile(r"[+-]?\d+(?:,\d{3})*(?:\.\d+)?%?")
        assert sorted(numbers.findall(printed(zh, cell_id).replace("−", "-"))) == \
            sorted(numbers.findall(printed(en, cell_id).replace("−", "-"))), cell_id  # Chinese word order
    assert "通过" in printed(zh, "read0903") and "不通过" in printed(zh, "read0903")


# ------------------------------------------------------------------------- a reader's own files (MY_FILES)
NO_WORKBOOK_DATA = '''
import ragmath.lab.corpus, ragmath.lab.notebook.own_system
def _refuse(*args, **kwargs):
    raise AssertionError("the workbook's data was read although MY_FILES is set")
ragmath.lab.corpus.load_dataset = ragmath.lab.notebook.own_system.workbook_files = _refuse
ragmath.lab.notebook.own_system.PREPARED_JUDGEMENTS = "no such file: the workbook's prepared judgements"
'''


def _reader_system(folder: Path) -> tuple[dict, dict]:
    """A made-up system of 48 questions, one relevant chunk each, and three versions (``base``; ``better``,
    which ranks the answer two places higher; ``shaky``, ``base`` with the answer moved at random), with
    every item of their top 8 labelled, as notebook 08 would have written them."""
    import numpy as np

    from ragmath.io import write_run

    rng = np.random.default_rng(38)
    folder.mkdir(parents=True)
    questions = [f"r{i:02d}" for i in range(1, 49)]
    texts = ["".join(rng.choice(list("abcdefghijklmnop"), 12)) for _ in questions]  # no two alike
    rows = [f"{q},{text},topic {i % 16}\n" for i, (q, text) in enumerate(zip(questions, texts, strict=True))]
    (folder / "questions.csv").write_text("question_id,text,about\n" + "".join(rows), encoding="utf-8")
    runs, labels = {"base": {}, "better": {}, "shaky": {}}, {}
    for q in questions:
        others = [f"{q}-x{j}" for j in range(1, 10)]
        rank = int(rng.integers(1, 9))  # the answer's rank in base, 1..8
        shaky = int(np.clip(rank + rng.integers(-2, 3), 1, 8))
        placed = {"base": rank, "better": max(1, rank - 2), "shaky": shaky}
        for name, at in placed.items():
            ids = others[:at - 1] + [f"{q}-a"] + others[at - 1:7]
            runs[name][q] = ids
        labels[q] = {f"{q}-a": 1, **{item: 0 for item in others[:8]}}
    paths = []
    for name, run in runs.items():
        write_run(run, folder / f"{name}.trec")
        paths.append(str(folder / f"{name}.trec"))
    return {"questions": str(folder / "questions.csv"), "runs": paths}, labels


def _run_09(files: dict, folder: Path, language: str):
    from nbclient import NotebookClient


    nb = nbformat.read(ZH_NOTEBOOK if language == "zh" else NOTEBOOK, as_version=4)
    cell = next(c for c in nb.cells if c.cell_type == "code" and c.source.startswith("MY_FILES = None"))
    cell.source = cell.source.replace("MY_FILES = None", f"MY_FILES = {files!r}", 1)
    guard = nbformat.v4.new_code_cell(NO_WORKBOOK_DATA.strip())
    guard.id = "guard-no-workbook-data"
    nb.cells.insert(1, guard)
    where = {"metadata": {"path": str(folder)}}
    NotebookClient(nb, timeout=600, kernel_name="python3", resources=where).execute()
    return nb


@pytest.mark.notebooks
@pytest.mark.slow
def test_notebook_09_gates_a_readers_own_files(tmp_path):
    """MY_FILES set, 08's labels.csv in its work folder, the workbook's data unreadable: every reading line
    holds for gates recomputed here, in English; the Chinese edition prints the same numbers."""
    from readings09 import check_case_lines, check_gate_lines, check_own_counts, printed

    from ragmath import gate, grouped_split
    from ragmath.io import read_qrels, read_run, write_qrels
    from ragmath.lab.notebook.own_system import labels_for, question_groups, runs_for

    files, labels = _reader_system(tmp_path / "my_rag")
    ran = {}
    for language in ("en", "zh"):
        folder = tmp_path / language
        (folder / "own_system_work" / "mine").mkdir(parents=True)
        write_qrels(labels, folder / "own_system_work" / "mine" / "labels.csv")
        ran[language] = _run_09(files, folder, language)
    import pandas as pd

    questions = pd.read_csv(files["questions"], dtype=str, keep_default_na=False)
    working, _ = grouped_split(list(questions["question_id"]), question_groups(questions), holdout=1 / 3,
                               seed=0)
    runs = runs_for({Path(p).stem: read_run(p) for p in files["runs"]}, working)
    work_labels = labels_for(read_qrels(tmp_path / "en" / "own_system_work" / "mine" / "labels.csv"), working)
    def gated(baseline, candidate, names, qrels=work_labels):
        return gate(baseline, candidate, qrels, "nDCG@10", 0.02, names=names)

    gates = {v: gated(runs["base"], runs[v], ("base", v)) for v in ("better", "shaky")}
    best = max(gates, key=lambda v: gates[v].mean_diff)
    answerable = [q for q in working if any(g > 0 for g in work_labels.get(q, {}).values())]
    few = runs_for(runs, answerable[:12])
    swapped = {}
    for q, ranking in runs["base"].items():
        ids = list(ranking)
        swapped[q] = ids[:4] + [ids[5], ids[4]] + ids[6:]
    cases = {
        "better": gates[best],
        "within the margin": gated(runs["base"], swapped, ("base", "base 5↔6")),
        "worse": gated(runs[best], runs["base"], (best, "base")),
        "too few questions": gated(few["base"], few[best], ("base", best),
                                   labels_for(work_labels, answerable[:12])),
    }
    nb = ran["en"]
    assert "files: yours; versions: base, better, shaky (baseline base)" in printed(nb, "files0901")
    check_gate_lines(printed(nb, "read0902"), gates, "base")
    check_case_lines(printed(nb, "read0903"), cases)
    check_own_counts(printed(nb, "own0904"), gates, "base")
    assert re.findall(r"exit status (\d)", printed(nb, "ci0906")) == [
        str(cases["better"].exit_status), str(cases["worse"].exit_status), "2"]
    number = re.compile(r"[+-]?\d+(?:,\d{3})*(?:\.\d+)?%?")
    for cell_id in ("read0902", "read0903", "own0904", "ci0906"):
        assert sorted(number.findall(printed(ran["zh"], cell_id).replace("−", "-"))) == \
            sorted(number.findall(printed(nb, cell_id).replace("−", "-"))), cell_id
