# ruff: noqa: E501 - hand calculations and sentences stand on one line each
"""Notebook 08 on files that are not the workbook's: a made-up corpus of six questions, two TREC runs and a
chunks file written here. The steps run through the public functions the notebook calls (load_own_files,
question_groups, grouped_split, pool, the labelling widget, labels_from, runs_for, compare, report_markdown,
seal, open_seal), and their numbers are checked against a hand calculation; then the notebook itself runs
top to bottom with ``MY_FILES`` naming these files."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pandas as pd
import pytest
from outputs import plain_texts, unwrapped

from ragmath import compare, evaluate, grouped_split
from ragmath.comparison import pool
from ragmath.io import read_qrels, write_qrels
from ragmath.lab.messages import use_language
from ragmath.lab.notebook.comparing import report_markdown
from ragmath.lab.notebook.labelling import LabellingWidget
from ragmath.lab.notebook.own_system import labels_for, labels_from, load_own_files, question_groups, runs_for
from ragmath.seal import open_seal, seal

ROOT = Path(__file__).resolve().parent.parent

QUESTIONS = [("q1", "taxi fare limit in Shanghai", "travel 4.2"),
             ("q2", "hotel limit for grade P6", "travel 5.2"),
             ("q3", "how many days of annual leave", ""),
             ("q4", "how many days of annual leave do I get", ""),  # a near-duplicate of q3, no `about`
             ("q5", "lost my laptop in a taxi", "it 5"),
             ("q6", "meal allowance per day", "travel 6.1")]
#: Each version's ranking, best first (written as a TREC run with falling scores).
BASE = {"q1": ["d1", "d2", "d3"], "q2": ["d4", "d5"], "q3": ["d6", "d7"], "q4": ["d7", "d6"],
        "q5": ["d9", "d10"], "q6": ["d11", "d12"]}
NEW = {"q1": ["d2", "d1"], "q2": ["d5", "d8"], "q3": ["d6", "d8"], "q4": ["d6", "d7"],
       "q5": ["d9", "d10"], "q6": ["d12", "d11"]}
#: What a person grades in the widget (every item a version ranks).
GRADES = {("q1", "d1"): 2, ("q1", "d2"): 0, ("q1", "d3"): 0, ("q2", "d4"): 0, ("q2", "d5"): 1, ("q2", "d8"): 2,
          ("q3", "d6"): 2, ("q3", "d7"): 0, ("q3", "d8"): 0, ("q4", "d6"): 2, ("q4", "d7"): 0,
          ("q5", "d9"): 1, ("q5", "d10"): 0, ("q6", "d11"): 0, ("q6", "d12"): 2}


def _trec(path: Path, run: dict[str, list[str]], tag: str) -> None:
    path.write_text("".join(f"{q} Q0 {d} {r} {10 - r} {tag}\n" for q, ids in run.items()
                            for r, d in enumerate(ids, start=1)), encoding="utf-8")


@pytest.fixture
def my_files(tmp_path):
    folder = tmp_path / "my_rag"
    folder.mkdir()
    pd.DataFrame(QUESTIONS, columns=["question_id", "text", "about"]).to_csv(folder / "questions.csv", index=False)
    ids = sorted({d for run in (BASE, NEW) for ids in run.values() for d in ids}, key=lambda d: int(d[1:]))
    pd.DataFrame({"id": ids, "text": [f"chunk {d}" for d in ids]}).to_csv(folder / "chunks.csv", index=False)
    _trec(folder / "base.trec", BASE, "base")
    _trec(folder / "new.trec", NEW, "new")
    return {"questions": folder / "questions.csv", "runs": [folder / "base.trec", folder / "new.trec"],
            "chunks": folder / "chunks.csv"}


def _label_in_the_widget(to_label, path, mine) -> None:
    widget = LabellingWidget(to_label, path, questions=dict(zip(mine.questions["question_id"],
                                                                 mine.questions["text"], strict=True)),
                             texts=mine.texts)
    while not widget.state["done"]:
        widget.grade(GRADES[(widget.state["question"], widget.state["id"])])


def test_the_steps_on_foreign_files_give_the_hand_calculated_numbers(my_files, tmp_path):
    mine = load_own_files(my_files)
    assert list(mine.runs) == ["base", "new"] and len(mine.texts) == 12 and mine.labels == {}

    # groups a reader forms without the answers: the same `about`, or near-duplicate texts (q3, q4)
    group = question_groups(mine.questions)
    assert group == {"q1": "q1", "q2": "q2", "q3": "q3", "q4": "q3", "q5": "q5", "q6": "q6"}
    working, held = grouped_split(list(mine.questions["question_id"]), group, holdout=1 / 3, seed=0)
    assert sorted(working + held) == [q for q, _, _ in QUESTIONS] and len(held) >= 2
    assert not {group[q] for q in working} & {group[q] for q in held}

    # the pool at depth 2: q1 {d1, d2}, q2 {d4, d5, d8}, q3 {d6, d7, d8}, q4 {d6, d7}, q5 {d9, d10}, q6 {d11, d12}
    to_label = pool(mine.runs, 2)
    assert len(to_label) == 2 + 3 + 3 + 2 + 2 + 2 == 14
    assert to_label[to_label["question"] == "q2"]["id"].tolist() == ["d4", "d5", "d8"]  # best rank, then ID

    judgements = tmp_path / "judgements.csv"
    _label_in_the_widget(to_label, judgements, mine)
    labels, sources = labels_from(to_label, read_qrels(judgements))
    assert sources == {"by hand": 14, "prepared": 0, "not judged": 0}

    # on every question: Recall@2 base (1 + 1/2 + 1 + 1 + 1 + 1) / 6 = 11/12, new 6/6 (only q2 wins);
    # MRR@2 base (1 + 1/2 + 1 + 1/2 + 1 + 1/2) / 6 = 3/4, new (1/2 + 1 + 1 + 1 + 1 + 1) / 6 = 11/12
    result = compare(runs_for(mine.runs, [q for q, _, _ in QUESTIONS]), labels, ["Recall@2", "MRR@2"],
                     baseline="base", seed=0)
    means = result.systems.set_index(["name", "metric"])["mean"]
    assert means[("base", "Recall@2")] == pytest.approx(11 / 12) and means[("new", "Recall@2")] == 1.0
    assert means[("base", "MRR@2")] == pytest.approx(3 / 4) and means[("new", "MRR@2")] == pytest.approx(11 / 12)
    rows = result.comparisons.set_index("metric")
    assert rows.loc["Recall@2", "diff"] == pytest.approx(1 / 12)
    assert (rows.loc["Recall@2", "wins"], rows.loc["Recall@2", "ties"], rows.loc["Recall@2", "losses"]) == (1, 5, 0)
    assert rows.loc["MRR@2", "diff"] == pytest.approx(1 / 6)  # q2, q4, q6 gain 1/2; q1 loses 1/2
    assert (rows.loc["MRR@2", "wins"], rows.loc["MRR@2", "ties"], rows.loc["MRR@2", "losses"]) == (3, 2, 1)
    assert rows.loc["MRR@2", "judged"] == 1.0 and not rows["judged_warning"].any()  # the pool is every top 2

    # labels of base's pool only: new's d8 (q2, q3) is unjudged, Judged@2 (1 + 1/2 + 1/2 + 1 + 1 + 1) / 6 = 5/6,
    # below 0.9 x base's 1.0, and q2's relevant d8 no longer counts: Recall@2 new − base falls from 1/12 to 0
    base_only = {q: {d: g for d, g in items.items() if d in BASE[q][:2]} for q, items in labels.items()}
    flattered = compare(mine.runs, base_only, ["Recall@2"], baseline="base", seed=0).comparisons.iloc[0]
    assert flattered["judged"] == pytest.approx(5 / 6) and bool(flattered["judged_warning"])
    assert flattered["diff"] == 0

    # the report in Chinese: Chinese words, the code's names beside them, the baseline's cell "基线"
    use_language("zh")
    try:
        report = report_markdown(result)
    finally:
        use_language("en")
    assert "| 基线 |" in report and "均值及区间（mean [CI]）" in report and "基线 base；每个均值都基于 6 个问题" in report
    assert "baseline" not in report and "question(s)" not in report

    # seal the holdout's questions and labels, then open it once with the frozen design
    held_questions, held_labels = tmp_path / "held.csv", tmp_path / "held_labels.csv"
    mine.questions[mine.questions["question_id"].isin(held)].to_csv(held_questions, index=False)
    write_qrels(labels_for(labels, held), held_labels)
    seal(tmp_path / "seal.json", questions=held_questions, labels=held_labels)

    def run_design(design):
        held_runs = runs_for(design["runs"], held)
        return pd.concat([evaluate(held_runs[v], read_qrels(held_labels), design["metrics"]).per_question
                          .assign(version=v).set_index("version", append=True) for v in design["runs"]])

    design = {"metrics": ["Recall@2"], "runs": {v: str(p) for v, p in mine.runs.items()}}
    opening = open_seal(tmp_path / "seal.json", run_design, design, questions=held_questions, labels=held_labels)
    again = open_seal(tmp_path / "seal.json", run_design, design, questions=held_questions, labels=held_labels)
    assert opening.ran and not again.ran and again.times_opened == 1
    assert len(opening.results) == 2 * len(held)


@pytest.mark.notebooks
@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "zh"])
def test_notebook_08_runs_top_to_bottom_on_foreign_files(my_files, tmp_path, language):
    """The notebook with MY_FILES naming the made-up files (and a person's judgements already in the widget's
    file): every cell up to section 6 runs on the files' own numbers, the workbook's data is not used, and
    section 6 refuses to compare six questions (fewer than 10 working questions with a relevant label),
    saying how many more to label."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    path = ROOT / "notebooks" / ("zh" if language == "zh" else "") / "08_your_own_system.ipynb"
    nb = nbformat.read(path, as_version=4)
    cell = next(c for c in nb.cells if c.cell_type == "code" and c.source.startswith("MY_FILES = None"))
    given = {k: str(v) if not isinstance(v, list) else [str(p) for p in v] for k, v in my_files.items()}
    cell.source = cell.source.replace("MY_FILES = None", f"MY_FILES = {given!r}", 1)
    work = tmp_path / "own_system_work" / "mine"
    work.mkdir(parents=True)
    judged = {}
    for (q, d), g in GRADES.items():
        judged.setdefault(q, {})[d] = g
    write_qrels(judged, work / "judgements.csv")
    with pytest.raises(CellExecutionError):  # Run All stops at section 6's refusal, as in JupyterLab
        NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [(c.id, out["evalue"]) for c in nb.cells if c.cell_type == "code" for out in c.get("outputs", [])
              if out.get("output_type") == "error"]
    text = unwrapped("\n".join(text for c in nb.cells if c.cell_type == "code" for text in plain_texts(c)))
    assert not (tmp_path / "own_system_work" / "workbook").exists()  # the stand-in was not written
    mine = load_own_files(my_files)
    working, _ = grouped_split(list(mine.questions["question_id"]), question_groups(mine.questions),
                               holdout=1 / 3, seed=0)
    answerable = [q for q in working if any(g > 0 for (w, _), g in GRADES.items() if w == q)]
    refusal = (f"only {len(answerable)} working questions have a relevant label, and comparing needs 10: label at "
               f"least {10 - len(answerable)} more in section 5, then run the notebook again" if language == "en" else
               f"只有 {len(answerable)} 道工作集问题有相关标注，而比较至少需要 10 道：请在第 5 节至少再标注 "
               f"{10 - len(answerable)} 道，然后重新运行本笔记本")
    assert errors == [("min08060", refusal)]
    if language == "en":
        assert "files: yours; 6 questions; versions: base, new (baseline base); 12 chunk texts" in text
        assert "15 items to label for 6 questions (2 to 3 a question)" in text  # depth 10: q1 adds d3
        assert "judged by hand (widget or template): 15; from the prepared judgements: 0; not judged yet: 0 of 15" in text
        assert "No latency CSV beside the run files" in text
        assert f"{len(working)} of {len(working)} working questions labelled" in text
    else:
        assert "文件：你自己的；6 道题；版本：base、new（基线 base）；12 个片段文本" in text
        assert "人工判断（控件或模板）：15 条；来自预先准备的判断：0 条；尚未标注：15 条中的 0 条" in text
