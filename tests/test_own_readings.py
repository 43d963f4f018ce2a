# ruff: noqa: E501 - the patterns stand as the notebook prints its lines
"""Notebook 08's printed readings on a reader's files it has never seen, checked against the numbers.

Two made-up systems, written here and nowhere else (not the workbook's data, not ``test_own_files``'s):

- **A**: 45 questions, three versions recorded with ``record`` (``base``; ``better``, which puts the answer
  first far more often; ``wobbly``, ``base`` moved a little, whose service fails on one question), BM25-like
  tied scores, a question with no answer anywhere (q44) and one whose answer no version retrieves (q45),
  every pool item judged in the widget's file. On its working questions ``better − base`` has an interval
  that excludes 0.
- **B**: two versions that rank alike (``base`` and ``copy``), labelled through the spreadsheet template: a
  first run with nothing judged, a second with a few questions graded in the template, a third with the
  template filled and one pair graded otherwise in the widget's file.

Each reading line is parsed and its numbers and words checked against a recomputation through the public
functions the notebook calls; the Chinese edition prints the same numbers in the same reading cells. The
notebook runs with ``MY_FILES`` set and the workbook's data made unreadable (a first cell replaces its
readers by one that fails), so a Run All touches no workbook data.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import numpy as np
import pandas as pd
import pytest
from readings08 import (
    check_agreement_lines,
    check_bias_lines,
    check_comparison_lines,
    check_opening_lines,
    check_plan_lines,
    check_power_line,
    printed,
    shown_tables,
)

from ragmath import compare, grouped_split
from ragmath.agreement import agreement_sample
from ragmath.comparison import pool
from ragmath.io import read_run, write_qrels
from ragmath.lab.notebook.own_system import labels_for, labels_within, pooling_bias, question_groups, runs_for

ROOT = Path(__file__).resolve().parent.parent
POOL_DEPTH, METRICS = 10, ["Recall@5", "nDCG@5"]
READINGS = ["9751eb54", "ties0801", "8c2bf02e", "fe605f5a", "12aa9a5b", "82754829", "read0805", "min08060",
            "read0806", "read0810", "read0811", "read0807", "read0808", "10c86f69", "31091e18"]

NO_WORKBOOK_DATA = '''
import ragmath.lab.corpus, ragmath.lab.notebook.own_system
def _refuse(*args, **kwargs):
    raise AssertionError("the workbook's data was read although MY_FILES is set")
ragmath.lab.corpus.load_dataset = ragmath.lab.notebook.own_system.workbook_files = _refuse
ragmath.lab.notebook.own_system.PREPARED_JUDGEMENTS = "no such file: the workbook's prepared judgements"
ragmath.lab.notebook.own_system.SECOND_LABELS = "no such file: the workbook's blind second labels"
'''


def _text(rng: np.random.Generator, n: int) -> str:
    return "".join(rng.choice(list("abcdefghijklmnopqrstuvwxyz"), n))


def _system_a(folder: Path) -> dict:
    """System A's files: questions, chunks, three recorded runs (latency beside them), the full judgements."""
    from ragmath.lab.notebook.record import record

    rng = np.random.default_rng(36)
    qids = [f"q{i:02d}" for i in range(1, 46)]
    questions = pd.DataFrame({"question_id": qids, "text": [f"{_text(rng, 6)} {_text(rng, 7)}?" for _ in qids],
                              "about": [f"section {i // 2}" for i in range(len(qids))]})
    distractors = [f"x{j:03d}" for j in range(80)]
    chunks = [*(f"a{q[1:]}" for q in qids if q != "q44"), *(f"h{q[1:]}" for q in qids[:43]), *distractors]
    rankings: dict[str, dict[str, list[str]]] = {"base": {}, "better": {}, "wobbly": {}}
    for q in qids:
        filler = [str(d) for d in rng.choice(distractors, 10, replace=False)]
        if q in ("q44", "q45"):  # no answer anywhere; an answer no version finds
            for name in rankings:
                rankings[name][q] = filler
            continue
        answer, helps = f"a{q[1:]}", f"h{q[1:]}"
        base_rank = int(rng.integers(2, 14))  # beyond 10: base misses the answer
        better_rank = 1 if rng.random() < 0.8 else 3
        wobbly_rank = max(1, base_rank + int(rng.integers(-1, 2)))
        own_filler = [str(d) for d in rng.choice(distractors, 10, replace=False)]  # better finds other chunks
        for name, rank in (("base", base_rank), ("better", better_rank), ("wobbly", wobbly_rank)):
            ranked = (own_filler if name == "better" else filler)[:9]
            if rank <= 10:
                ranked.insert(rank - 1, answer)
            ranked.insert(min(len(ranked), 4 if name == "better" else 6), helps)
            rankings[name][q] = ranked[:10]
    text_of = dict(zip(questions["question_id"], questions["text"], strict=True))
    question_of = {t: q for q, t in text_of.items()}

    def scored(name: str):
        def system(text: str) -> list[tuple[str, float]]:
            q = question_of[text]
            if name == "wobbly" and q == "q07":
                raise ConnectionError("search service timed out")
            scores = [10.0 - r for r in range(10)]
            if int(q[1:]) % 4 == 0:  # BM25-like ties: ranks 2 and 3 score alike
                scores[2] = scores[1]
            return list(zip(rankings[name][q], scores, strict=True))

        return system

    folder.mkdir(parents=True)
    questions.to_csv(folder / "questions.csv", index=False)
    pd.DataFrame({"id": chunks, "text": [f"chunk {c}: {_text(rng, 20)}" for c in chunks]}).to_csv(
        folder / "chunks.csv", index=False)
    runs = []
    for name in rankings:
        record(scored(name), text_of, folder / f"{name}.trec", tag=name)
        runs.append(folder / f"{name}.trec")
    return {"questions": folder / "questions.csv", "runs": runs, "chunks": folder / "chunks.csv"}


def _grade(q: str, item: str) -> int:
    return 2 if item == f"a{q[1:]}" else 1 if item == f"h{q[1:]}" else 0


def _full_judgements(files: dict) -> dict[str, dict[str, int]]:
    runs = {Path(p).stem: read_run(p) for p in files["runs"]}
    table = pool(runs, POOL_DEPTH)
    judged: dict[str, dict[str, int]] = {}
    for q, item in zip(table["question"], table["id"], strict=True):
        judged.setdefault(q, {})[item] = _grade(q, item)
    return judged


def _second_pass(work_labels: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """A second pass over the notebook's agreement sample as a second person might leave it: every fifth pair
    graded otherwise (2 -> 1, 1 -> 0, 0 -> 1), every twelfth not judged yet."""
    second: dict[str, dict[str, int]] = {}
    for k, (q, item) in enumerate(agreement_sample(work_labels, 48, seed=0)):
        if k % 12 == 11:
            continue
        grade = work_labels[q][item]
        second.setdefault(q, {})[item] = (1 if grade != 1 else 0) if k % 5 == 0 else grade
    return second


def _run_08(files: dict, folder: Path, language: str, *, stops: bool = False):
    """Notebook 08 executed in ``folder`` with ``MY_FILES`` naming ``files`` and the workbook's data unreadable.
    With ``stops``, a cell that raises ends the run as Run All ends it in JupyterLab: the cells above keep
    their outputs, the failing cell shows its error, nothing below runs."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    path = ROOT / "notebooks" / ("zh" if language == "zh" else "") / "08_your_own_system.ipynb"
    nb = nbformat.read(path, as_version=4)
    cell = next(c for c in nb.cells if c.cell_type == "code" and c.source.startswith("MY_FILES = None"))
    given = {k: [str(p) for p in v] if isinstance(v, list) else str(v) for k, v in files.items()}
    cell.source = cell.source.replace("MY_FILES = None", f"MY_FILES = {given!r}", 1)
    guard = nbformat.v4.new_code_cell(NO_WORKBOOK_DATA.strip())
    guard.id = "guard-no-workbook-data"
    nb.cells.insert(1, guard)
    folder.mkdir(parents=True, exist_ok=True)
    try:
        NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(folder)}}).execute()
    except CellExecutionError:
        if not stops:
            raise
    return nb


def _error(nb) -> tuple[str, str] | None:
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                return cell.get("id"), f"{out['ename']}: {out['evalue']}"
    return None


@pytest.fixture(scope="module")
def system_a(tmp_path_factory):
    """System A run through 08 in English and in Chinese, with the numbers recomputed here."""
    root = tmp_path_factory.mktemp("system-a")
    files = _system_a(root / "my_rag")
    judged = _full_judgements(files)
    questions = pd.read_csv(files["questions"], dtype=str, keep_default_na=False)
    runs = {Path(p).stem: Path(p) for p in files["runs"]}
    group = question_groups(questions)
    working, held = grouped_split(list(questions["question_id"]), group, holdout=1 / 3, seed=0)
    second = _second_pass(labels_for(judged, working))
    executed = {}
    for language in ("en", "zh"):
        folder = root / language
        (folder / "own_system_work" / "mine").mkdir(parents=True)
        write_qrels(judged, folder / "own_system_work" / "mine" / "judgements.csv")
        write_qrels(second, folder / "own_system_work" / "mine" / "second_pass.csv")
        executed[language] = _run_08(files, folder, language)
    return {"nb": executed, "files": files, "judged": judged, "runs": runs, "working": working, "held": held,
            "questions": questions, "folder": root, "second": second}


@pytest.mark.notebooks
@pytest.mark.slow
def test_system_a_failures_and_ties_are_read_from_its_files(system_a):
    nb = system_a["nb"]["en"]
    latency = printed(nb, "9751eb54")
    assert "base: asked 45 questions, 0 failed" in latency and "better: asked 45 questions, 0 failed" in latency
    assert "wobbly: asked 45 questions, 1 failed (left out of its run: each scores 0)" in latency
    lines = dict(re.findall(r"^(\S+): (\d+ of \d+) questions have a tie in the top 5, ordered by ID", printed(nb, "ties0801"), re.M))
    for name, path in system_a["runs"].items():
        run = read_run(path)
        tied = sum(len(set(list(s.values())[:6])) < len(list(s.values())[:6]) for s in run.values())  # sorted: equal = adjacent
        assert lines[name] == f"{tied} of {len(run)}"
    assert lines["base"] != f"0 of {len(read_run(system_a['runs']['base']))}"  # the ties were made to be found


@pytest.mark.notebooks
@pytest.mark.slow
def test_system_a_split_pool_and_labels_are_read_from_its_files(system_a):
    nb, held, judged = system_a["nb"]["en"], system_a["held"], system_a["judged"]
    table = pool({n: read_run(p) for n, p in system_a["runs"].items()}, POOL_DEPTH)
    held_items = int(table["question"].isin(held).sum())
    assert (f"{len(table)} items to label for 45 questions" in printed(nb, "fe605f5a")
            and f"{held_items} of them for the holdout: section 5 seals it only when all {held_items} are judged"
            in printed(nb, "fe605f5a"))
    assert f"template.csv: {len(table)} rows, 0 with a grade; {len(table)} added by this run" in printed(nb, "12aa9a5b")
    assert (f"judged by hand (widget or template): {len(table)}; from the prepared judgements: 0; not judged yet: "
            f"0 of {len(table)}") in printed(nb, "82754829")
    answered = [q for q, items in judged.items() if any(g > 0 for g in items.values())]
    reading = printed(nb, "read0805")
    assert f"{len(answered)} of 45 questions have a relevant label (grade 1 or 2)" in reading
    assert "questions whose whole pool is judged with nothing relevant in it: 2 (q44, q45); they count as no-answer" in reading
    labelled = labels_for(judged, system_a["working"])
    answerable = [q for q in system_a["working"] if any(g > 0 for g in labelled.get(q, {}).values())]
    assert (f"{len(labelled)} of {len(system_a['working'])} working questions labelled; {len(answerable)} with a "
            "relevant label") in printed(nb, "min08060")


@pytest.mark.notebooks
@pytest.mark.slow
def test_system_a_pooling_bias_lines_follow_the_table(system_a):
    work_runs = runs_for(system_a["runs"], system_a["working"])
    work_labels = labels_for(system_a["judged"], system_a["working"])
    sets = {"pool of base": labels_within(work_labels, pool({"base": work_runs["base"]}, POOL_DEPTH)),
            "pool of base, better": labels_within(work_labels, pool({v: work_runs[v] for v in ("base", "better")}, POOL_DEPTH)),
            "pool of every version": work_labels}
    bias = pooling_bias(work_runs, sets, METRICS, baseline="base")
    text = printed(system_a["nb"]["en"], "read0806")
    check_bias_lines(text, bias, "base", "pool of base", "pool of every version")
    assert re.search(r"^pool of base: Judged@5 below .*: (better|wobbly)", text, re.M)  # a warning to read


@pytest.mark.notebooks
@pytest.mark.slow
def test_system_a_agreement_lines_follow_its_second_pass(system_a):
    work_runs = runs_for(system_a["runs"], system_a["working"])
    work_labels = labels_for(system_a["judged"], system_a["working"])
    second = system_a["second"]
    nb = system_a["nb"]["en"]
    text = printed(nb, "read0810") + printed(nb, "read0811")
    result = check_agreement_lines(text, shown_tables(nb, "read0810"), work_labels, work_runs, second,
                                   by_hand=sum(map(len, second.values())), blind=0)
    assert result.pairs == 44 and 0 < result.raw < 1  # four pairs left unjudged; the disagreements counted
    assert "not judged yet 4 of 48" in text


@pytest.fixture(scope="module")
def system_a_comparison(system_a):
    work_runs = runs_for(system_a["runs"], system_a["working"])
    work_labels = labels_for(system_a["judged"], system_a["working"])
    return compare(work_runs, work_labels, METRICS, baseline="base", seed=0)


@pytest.mark.notebooks
@pytest.mark.slow
def test_system_a_comparison_lines_follow_the_table(system_a, system_a_comparison):
    lines = check_comparison_lines(printed(system_a["nb"]["en"], "read0807"), system_a_comparison)
    assert lines["better"][3] == "excludes"  # the case the issue asks for: an interval that excludes 0
    assert lines["wobbly"][3] == "includes"


@pytest.mark.notebooks
@pytest.mark.slow
def test_system_a_plan_and_holdout_lines_follow_the_numbers(system_a, system_a_comparison):
    nb = system_a["nb"]["en"]
    check_plan_lines(printed(nb, "read0808"), system_a_comparison)
    check_power_line(printed(nb, "10c86f69"), system_a_comparison)
    check_opening_lines(printed(nb, "31091e18"), system_a["runs"], system_a["judged"], system_a["held"],
                        system_a_comparison)
    assert "opening 1 (openings in all: 1)" in printed(nb, "31091e18")


@pytest.mark.notebooks
@pytest.mark.slow
def test_system_a_in_chinese_prints_the_same_numbers_and_no_error(system_a):
    for language in ("en", "zh"):
        assert _error(system_a["nb"][language]) is None
    for cell_id in READINGS:
        en, zh = (re.findall(r"[+-]?\d+(?:\.\d+)?", printed(system_a["nb"][lang], cell_id)) for lang in ("en", "zh"))
        if cell_id == "9751eb54":
            en, zh = sorted(en), sorted(zh)
        assert sorted(en) == sorted(zh), f"{cell_id}: {en} against {zh}"
    assert not (system_a["folder"] / "en" / "own_system_work" / "workbook").exists()


@pytest.mark.notebooks
@pytest.mark.slow
def test_system_a_sealed_outside_git_says_so_in_each_language(system_a):
    """System A runs in a temporary folder, where the seal records no commit: each edition says so in its
    own words (the Chinese line printed the record's English phrase)."""
    from ragmath.seal import git_output

    assert git_output(system_a["folder"], "rev-parse", "HEAD") is None
    assert "commit unknown (no git); hashes:" in printed(system_a["nb"]["en"], "fe01255e")
    zh = printed(system_a["nb"]["zh"], "fe01255e")
    assert "提交 未知（不在 git 仓库里）；哈希：" in zh and "unknown" not in zh


def _system_b(folder: Path) -> dict:
    """System B: 30 questions, two runs that rank alike (``copy`` is ``base`` written again)."""
    rng = np.random.default_rng(8)
    qids = [f"b{i:02d}" for i in range(1, 31)]
    folder.mkdir(parents=True)
    pd.DataFrame({"question_id": qids, "text": [f"{_text(rng, 8)} {_text(rng, 5)}" for _ in qids],
                  "about": [f"part {i}" for i in range(len(qids))]}).to_csv(folder / "questions.csv", index=False)
    lines = []
    for q in qids:
        ranked = [f"a{q[1:]}", *(f"y{int(j):03d}" for j in rng.choice(60, 4, replace=False))]
        rng.shuffle(ranked)
        lines += [f"{q} Q0 {item} {r} {10 - r} run\n" for r, item in enumerate(ranked, start=1)]
    for name in ("base", "copy"):
        (folder / f"{name}.trec").write_text("".join(lines), encoding="utf-8")
    return {"questions": folder / "questions.csv", "runs": [folder / "base.trec", folder / "copy.trec"]}


def _fill_template(path: Path, questions: set[str] | None) -> None:
    """Grade the template's rows of ``questions`` (every row when None) as a person would, in a spreadsheet."""
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    chosen = table["question"].isin(questions) if questions is not None else table["question"].notna()
    table.loc[chosen, "grade"] = [str(2 if item == f"a{q[1:]}" else 0)
                                  for q, item in zip(table.loc[chosen, "question"], table.loc[chosen, "id"], strict=True)]
    table.to_csv(path, index=False)


@pytest.mark.notebooks
@pytest.mark.slow
def test_system_b_the_template_round_trips_and_partial_labels_are_refused(tmp_path):
    files = _system_b(tmp_path / "my_rag")
    work = tmp_path / "own_system_work" / "mine"
    template = work / "template.csv"

    first = _run_08(files, tmp_path, "en", stops=True)  # nothing judged yet
    questions = pd.read_csv(files["questions"], dtype=str)
    working, _ = grouped_split(list(questions["question_id"]), question_groups(questions), holdout=1 / 3, seed=0)
    assert _error(first) == ("min08060", "RuntimeError: only 0 working questions have a relevant label, and "
                             "comparing needs 10: label at least 10 more in section 5, then run the notebook again")
    assert f"0 of {len(working)} working questions labelled; 0 with a relevant label" in printed(first, "min08060")
    assert printed(first, "read0806") == printed(first, "read0807") == ""  # Run All stopped at the refusal
    rows = len(pd.read_csv(template))
    assert f"template.csv: {rows} rows, 0 with a grade; {rows} added by this run" in printed(first, "12aa9a5b")

    some = set(working[:4])  # a spreadsheet session: four working questions graded
    _fill_template(template, some)
    graded_before = template.read_bytes()
    second = _run_08(files, tmp_path, "en", stops=True)
    assert template.read_bytes() == graded_before  # kept as the person left it, not rewritten
    graded = int(pd.read_csv(template, dtype=str, keep_default_na=False)["grade"].ne("").sum())
    assert f"template.csv: {rows} rows, {graded} with a grade; 0 added by this run" in printed(second, "12aa9a5b")
    assert f"4 of {len(working)} working questions labelled; 4 with a relevant label" in printed(second, "min08060")
    assert _error(second)[1].startswith("RuntimeError: only 4 working questions have a relevant label, and comparing "
                                        "needs 10: label at least 6 more")

    _fill_template(template, None)
    first_item = pd.read_csv(template, dtype=str).iloc[0]
    disagree = {first_item["question"]: {first_item["id"]: 1}}  # graded otherwise in the widget's file
    write_qrels(disagree, work / "judgements.csv")
    third = _run_08(files, tmp_path, "en")
    labels_line = printed(third, "82754829")
    assert f"judged by hand (widget or template): {rows - 1}; from the prepared judgements: 0; not judged yet: 1 of {rows}" in labels_line
    assert "items graded differently in the widget and the template (unjudged until you change one of the two): 1" in labels_line
    assert ("The agreement needs the second pass: judge the sample's 48 pairs in the widget above, then run this "
            "cell again") in printed(third, "read0810")  # nothing judged a second time: said, not a crash
    assert printed(third, "read0811") == "No second pass yet: the versions' order under the second grades waits for it\n"
    plan = printed(third, "read0808") + printed(third, "10c86f69")
    assert "Every pilot difference of copy − base on nDCG@5 is +0.000: no spread, so no count can be planned" in plan
    assert "resampled power" not in plan
