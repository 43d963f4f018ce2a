"""The own-system tools used as a careful user would misuse them (issue 23, item 4): seal, the judgements
file, record and the statistics. Each test names the behaviour; expected values are worked by hand or
taken from scipy, never from ragmath's own output."""

from __future__ import annotations

import hashlib
import json
import math
import multiprocessing
import os
import subprocess
import sys
import tempfile
import threading
import tracemalloc
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pytest
from scipy import stats as scipy_stats

from ragmath.io import write_run
from ragmath.lab.notebook.judgements import JudgementFile, read_labels, write_template
from ragmath.lab.notebook.record import record
from ragmath.seal import content_sha256, open_seal, seal, show_seal
from ragmath.stats import bootstrap_interval, paired_bootstrap, wilson_interval

ROOT = Path(__file__).resolve().parent.parent

#: The longest a test waits for another thread or process (a bound for a busy machine, never a measurement).
WAIT_S = 300


# ---------------------------------------------------------------- atomic writes


def test_another_writers_cleanup_cannot_delete_a_new_temporary_file(tmp_path, monkeypatch):
    import fcntl

    path = tmp_path / "run.trec"
    made = tempfile.mkstemp
    cleaned = []

    def mkstemp_then_cleanup(*args, **kwargs):  # another writer's stale-file cleanup, right after
        fd, name = made(*args, **kwargs)
        if not cleaned:
            other = os.open(name, os.O_RDONLY)
            try:
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
                os.unlink(name)
                cleaned.append(name)
            except OSError:
                pass
            finally:
                os.close(other)
        return fd, name

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp_then_cleanup)
    write_run({"q1": ["a"]}, path, tag="t")
    assert len(cleaned) == 1  # the first temporary file was taken away before its writer locked it
    assert path.read_text() == "q1 Q0 a 1 1.0 t\n"
    assert [p.name for p in tmp_path.iterdir()] == ["run.trec"]


@pytest.fixture
def sealed(tmp_path):
    questions, labels = tmp_path / "questions.jsonl", tmp_path / "qrels.csv"
    questions.write_text('{"question_id": "h1"}\n', encoding="utf-8")
    labels.write_text("question,id,grade\nh1,d1,2\n", encoding="utf-8")
    path = tmp_path / "seal.json"
    seal(path, questions=questions, labels=labels)
    return path, {"questions": questions, "labels": labels}


def _table(design):
    return pd.DataFrame({"question": ["h1"], "Hit@3": [1.0]}).set_index("question")


# ---------------------------------------------------------------- seal: recorded before it runs


def test_the_opening_is_on_record_while_the_design_runs(sealed):
    path, files = sealed
    seen = []

    def run(design):
        seen.append(json.loads(path.read_text(encoding="utf-8"))["openings"])
        return _table(design)

    open_seal(path, run, {"k": 3}, **files)
    assert len(seen[0]) == 1 and seen[0][0]["number"] == 1 and seen[0][0]["design"] == {"k": 3}


def test_a_design_that_cannot_be_recorded_is_refused_before_it_runs(sealed):
    path, files = sealed
    calls = []
    with pytest.raises(TypeError, match="object"):
        open_seal(path, lambda d: calls.append(d) or _table(d), {"k": object()}, **files)
    assert calls == [] and json.loads(path.read_text(encoding="utf-8"))["openings"] == []


def test_numpy_numbers_and_sets_in_a_design_are_recorded_and_opened_once(sealed):
    path, files = sealed
    calls = []

    def run(design):
        calls.append(design)
        return _table(design)

    design = {"k": np.int64(60), "split": {"holdout", "dev"}, "l2": np.float32(0.5)}
    for _ in range(3):
        open_seal(path, run, design, **files)
    entries = json.loads(path.read_text(encoding="utf-8"))["openings"]
    assert len(calls) == 1 and len(entries) == 1
    assert entries[0]["design"] == {"k": 60, "split": ["dev", "holdout"], "l2": 0.5}


def test_timestamps_in_the_results_are_stored_and_shown(sealed):
    path, files = sealed
    stamps = [pd.Timestamp("2026-01-02 03:04:05"), pd.Timestamp("2026-12-31 23:59:59.5")]
    frame = pd.DataFrame({"question": ["h1", "h2"], "asked": stamps}).set_index("question")
    open_seal(path, lambda d: frame, {"k": 3}, **files)
    pd.testing.assert_frame_equal(show_seal(path).results, frame)


def test_a_failed_run_counts_as_an_opening_and_is_not_run_again(sealed):
    path, files = sealed
    calls = []

    def run(design):
        calls.append(design)
        raise ZeroDivisionError("bug in my design")

    with pytest.raises(ZeroDivisionError):
        open_seal(path, run, {"k": 3}, **files)
    with pytest.raises(RuntimeError, match=r"opening 1 .*failed.*ZeroDivisionError"):
        open_seal(path, run, {"k": 3}, **files)
    assert len(calls) == 1
    entry = json.loads(path.read_text(encoding="utf-8"))["openings"][0]
    assert entry["number"] == 1 and "ZeroDivisionError" in entry["state"]


# ---------------------------------------------------------------- seal: hashes of values


def _canonical_json_sha(value):
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode("utf-8")).hexdigest()


def test_plain_json_hashes_exactly_as_its_sorted_json():
    value = {"b": [1, 2.5, None, "中"], "a": True, "c": {"y": 0.1, "x": -3}}
    assert content_sha256(value) == _canonical_json_sha(value)


def test_the_workbooks_sealed_design_keeps_its_fingerprint():
    record = json.loads((ROOT / "data" / "holdout_openings.json").read_text(encoding="utf-8"))
    opening = record["openings"][0]
    assert content_sha256(opening["design"]) == opening["design_sha256"]


def test_a_frame_hashes_by_every_row_not_by_its_printout():
    frame = pd.DataFrame({"question": [f"q{i}" for i in range(200)], "grade": [1] * 200})
    changed = frame.copy()
    changed.loc[100, "grade"] = 2
    assert content_sha256(frame) != content_sha256(changed)
    before = content_sha256(frame)
    with pd.option_context("display.max_rows", 5):
        assert content_sha256(frame) == before
    polars = pl.DataFrame({"question": frame["question"].tolist(), "grade": frame["grade"].tolist()})
    assert content_sha256(polars) == before  # the same rows and columns: the same content
    assert content_sha256(polars.with_columns(pl.col("grade").shift(1, fill_value=1))) == before
    assert content_sha256(polars.with_columns(grade=changed["grade"].tolist())) != before
    assert content_sha256(frame.set_index("question")) == before  # a named index is a column


def test_a_set_hashes_the_same_in_every_process():
    code = ("from ragmath.seal import content_sha256; "
            "print(content_sha256({'q' + str(i) for i in range(50)}))")
    found = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2", "3")}
    assert found == {_canonical_json_sha(sorted(f"q{i}" for i in range(50))) + "\n"}


def test_numpy_scalars_and_timestamps_hash_as_their_values():
    numbers = {"k": np.int64(60), "on": np.bool_(True)}
    assert content_sha256(numbers) == _canonical_json_sha({"k": 60, "on": True})
    stamp = pd.Timestamp("2026-01-02 03:04:05")
    assert content_sha256([stamp]) == _canonical_json_sha(["2026-01-02T03:04:05"])


def test_what_has_no_value_to_hash_is_refused():
    with pytest.raises(TypeError, match="object"):
        content_sha256({"k": object()})


# ---------------------------------------------------------------- seal: one at a time


def test_two_openings_at_once_run_once_and_the_other_is_refused_naming_it(sealed):
    path, files = sealed
    started, finish = threading.Event(), threading.Event()
    runs = []

    def slow(design):
        runs.append(design)
        started.set()
        finish.wait(WAIT_S)  # set as soon as the other opening was refused
        return _table(design)

    first = threading.Thread(target=open_seal, args=(path, slow, {"k": 3}), kwargs=files)
    first.start()
    try:
        assert started.wait(WAIT_S)
        with pytest.raises(BlockingIOError, match=r"opening 1 .*in progress"):
            open_seal(path, slow, {"k": 5}, **files, new_opening=True)
    finally:
        finish.set()
        first.join(WAIT_S)
    assert runs == [{"k": 3}]
    assert show_seal(path).number == 1 and show_seal(path).times_opened == 1


def _open_and_hang(path, files):
    import time

    open_seal(path, lambda design: time.sleep(600), {"k": 3}, **files)


def test_an_opening_whose_process_died_counts_and_frees_the_seal(sealed):
    import time

    path, files = sealed
    child = multiprocessing.get_context("spawn").Process(target=_open_and_hang, args=(path, files))
    child.start()
    try:
        deadline = time.monotonic() + WAIT_S  # a spawned child imports pandas first: slow on a busy machine
        while not json.loads(path.read_text(encoding="utf-8"))["openings"]:  # until the opening is on record
            assert time.monotonic() < deadline, f"the child did not start its opening within {WAIT_S} s"
            assert child.is_alive(), f"the child exited ({child.exitcode}) before its opening was on record"
            time.sleep(0.1)
    finally:
        child.kill()
        child.join(20)
    with pytest.raises(RuntimeError, match=r"opening 1 of this design .*was interrupted.*new_opening=True"):
        open_seal(path, _table, {"k": 3}, **files)
    again = open_seal(path, _table, {"k": 3}, **files, new_opening=True)
    assert again.ran and again.number == 2 and again.times_opened == 2


def test_second_seal_on_same_path_refused_even_at_once(tmp_path, monkeypatch):
    import ragmath.seal as seal_module

    meet = threading.Barrier(2)
    stamp = seal_module._stamp

    def slow_stamp(path):  # both calls meet here when nothing keeps them apart
        try:
            meet.wait(1)
        except threading.BrokenBarrierError:
            pass
        return stamp(path)

    monkeypatch.setattr(seal_module, "_stamp", slow_stamp)
    path, outcomes = tmp_path / "seal.json", []

    def attempt(note):
        try:
            seal(path, questions={"q": note}, labels={}, note=note)
            outcomes.append(("sealed", note))
        except FileExistsError:
            outcomes.append(("refused", note))

    threads = [threading.Thread(target=attempt, args=(n,)) for n in ("one", "two")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(o for o, _ in outcomes) == ["refused", "sealed"]
    winner = next(n for o, n in outcomes if o == "sealed")
    assert json.loads(path.read_text(encoding="utf-8"))["sealed"]["note"] == winner


def test_results_files_are_named_after_the_whole_seal_name(tmp_path):
    files = {"questions": {"h1": "?"}, "labels": {"h1": {"d": 1}}}
    for name, value in (("hold.json", 1.0), ("hold.txt", 0.0)):  # a folder holds one record: one each
        (tmp_path / name).mkdir()
        seal(tmp_path / name / name, **files)
        frame = pd.DataFrame({"score": [value]})
        open_seal(tmp_path / name / name, lambda d, f=frame: f, {"k": 1}, **files)
        assert (tmp_path / name / f"{name}.opening-1.jsonl").is_file()
    assert show_seal(tmp_path / "hold.json" / "hold.json").results["score"].tolist() == [1.0]
    assert show_seal(tmp_path / "hold.txt" / "hold.txt").results["score"].tolist() == [0.0]


def test_an_existing_opening_under_the_old_results_name_is_still_shown(tmp_path):
    for name in ("holdout_openings.json", "holdout_openings.opening-1.jsonl"):
        (tmp_path / name).write_bytes((ROOT / "data" / name).read_bytes())
    shown = show_seal(tmp_path / "holdout_openings.json")
    assert shown.number == 1 and len(shown.results) > 0


def test_an_accidental_edit_of_the_record_is_detected(sealed):
    path, files = sealed
    open_seal(path, _table, {"k": 3}, **files)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"k": 3', '"k": 4'), encoding="utf-8")
    with pytest.raises(ValueError, match="edited"):
        show_seal(path)


# ---------------------------------------------------------------- the statistics


def test_a_paired_p_value_of_one_question_is_one():
    assert paired_bootstrap([0], [1]).p_value == 1.0  # n = 1 non-zero difference: 2 / 2^1


def test_a_paired_p_value_is_never_below_the_smallest_sign_flip_p():
    # three non-zero differences, all positive: 2 of the 2^3 sign flips reach |sum| >= 0.06
    exact = scipy_stats.permutation_test(([0.01, 0.02, 0.03],), np.mean, permutation_type="samples",
                                         alternative="two-sided").pvalue
    assert exact == pytest.approx(2 / 8)
    assert paired_bootstrap([0] * 3, [0.01, 0.02, 0.03]).p_value == pytest.approx(2 / 8)
    many = paired_bootstrap([0] * 40, [0.5] * 40)
    assert many.p_value == 2 / 2**40


def test_the_bootstrap_refuses_nan_and_inf_naming_their_position():
    with pytest.raises(ValueError, match=r"NaN at position 1"):
        bootstrap_interval([0.1, math.nan, 0.2])
    with pytest.raises(ValueError, match=r"inf at position 1"):
        bootstrap_interval([0.1, math.inf])
    with pytest.raises(ValueError, match=r"-inf at position 0"):
        paired_bootstrap([-math.inf, 0.0], [0.0, 0.0])


def test_wilson_interval_takes_counts_larger_than_any_ranking():
    expected = scipy_stats.binomtest(1_500_000, 2_000_000).proportion_ci(0.95, method="wilson")
    low, high = wilson_interval(1_500_000, 2_000_000)
    assert (low, high) == pytest.approx((expected.low, expected.high), abs=1e-12)


def test_each_size_check_states_the_limit_of_what_it_checks():
    with pytest.raises(ValueError, match=r"n_resamples.*at most 10,000,000.*resample.s mean"):
        bootstrap_interval([0.1, 0.2], n_resamples=10_000_001)


def _one_shot(values, n_resamples, seed, confidence=0.95):
    """The straightforward reference: every resample drawn at once, as the package drew them before."""
    values = np.asarray(values, dtype=float)
    picks = np.random.default_rng(seed).integers(0, values.size, size=(n_resamples, values.size))
    means = values[picks].mean(axis=1)
    low, high = np.quantile(means, [(1 - confidence) / 2, (1 + confidence) / 2])
    return means, float(low), float(high)


def test_resampling_in_blocks_reproduces_the_one_shot_draws():
    rng = np.random.default_rng(42)
    a, b = rng.uniform(0, 1, 137), rng.uniform(0, 1, 137)
    _, low, high = _one_shot(a, 30_000, 7)
    assert bootstrap_interval(a, n_resamples=30_000, seed=7) == (float(a.mean()), low, high)
    means, low, high = _one_shot(b - a, 30_000, 3, 0.9)
    result = paired_bootstrap(a, b, n_resamples=30_000, seed=3, confidence=0.9)
    p = min(1.0, 2 * min(float(np.mean(means <= 0)), float(np.mean(means >= 0))))
    assert (result.low, result.high, result.p_value) == (low, high, p)


def test_resampling_memory_does_not_grow_with_resamples_times_questions():
    a = np.linspace(0, 1, 100)
    tracemalloc.start()
    try:
        paired_bootstrap(a, a[::-1], n_resamples=200_000)
        bootstrap_interval(a, n_resamples=200_000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # all at once: 200,000 x 100 picks (160 MB) and as many values (160 MB); the means alone are 1.6 MB
    assert peak < 40 * 2**20


# ---------------------------------------------------------------- the judgements file


def test_two_judgement_files_on_one_path_keep_both_judgements(tmp_path):
    path = tmp_path / "labels.csv"
    a, b = JudgementFile(path), JudgementFile(path)
    a.set("q1", "a", 2)
    b.set("q1", "b", 1)
    assert read_labels(path) == {"q1": {"a": 2, "b": 1}}


def _judge_many(path, writer, count):
    store = JudgementFile(path)
    for i in range(count):
        store.set(f"q{i % 7}", f"{writer}-{i}", i % 3)


def test_two_processes_writing_200_judgements_each_leave_400(tmp_path):
    path = tmp_path / "labels.csv"
    spawn = multiprocessing.get_context("spawn")
    workers = [spawn.Process(target=_judge_many, args=(path, w, 200)) for w in ("x", "y")]
    for w in workers:
        w.start()
    for w in workers:
        w.join(300)
    assert [w.exitcode for w in workers] == [0, 0]
    labels = read_labels(path)
    assert sum(len(ids) for ids in labels.values()) == 400
    assert labels["q0"]["x-0"] == 0 and labels["q3"]["y-199"] == 199 % 3


def test_an_id_the_file_refuses_leaves_memory_and_later_saves_intact(tmp_path):
    store = JudgementFile(tmp_path / "labels.csv")
    store.set("q1", "a", 2)
    with pytest.raises(ValueError, match="b c"):
        store.set("q1", "b c", 1)
    assert store.grades == {("q1", "a"): 2}
    store.set("q1", "d", 0)
    assert read_labels(tmp_path / "labels.csv") == {"q1": {"a": 2, "d": 0}}


FORMULAS = ['=HYPERLINK("http://x.example","y")', "+1", "-2", "@a", "'=x", "plain"]


def test_template_cells_that_look_like_formulas_are_written_as_text_and_read_back_exactly(tmp_path):
    path = tmp_path / "template.csv"
    pool = pd.DataFrame({"question": ["=q"] * len(FORMULAS), "id": FORMULAS})
    write_template(pool, path, texts={i: "=1+1" for i in FORMULAS})
    import csv

    with open(path, encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    cells = [cell for row in rows[1:] for cell in row if cell]
    assert all(cell[0] not in "=+-@" for cell in cells)  # a spreadsheet shows each as text
    assert rows[1][:2] == ["'=q", "'" + FORMULAS[0]] and rows[5][1] == "''=x" and rows[6][1] == "plain"
    filled = [rows[0]] + [row[:2] + ["1"] + row[3:] for row in rows[1:]]
    with open(path, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(filled)
    assert read_labels(path) == {"=q": {item: 1 for item in FORMULAS}}


# ---------------------------------------------------------------- record


def test_a_latency_path_equal_to_the_run_path_is_refused(tmp_path):
    path, asked = tmp_path / "run.trec", []
    path.write_text("q1 Q0 old 1 1.0 t\n", encoding="utf-8")
    for latency in (path, tmp_path / "." / "run.trec"):
        with pytest.raises(ValueError, match="run.trec"):
            record(lambda q: asked.append(q) or ["a"], {"q1": "x"}, path, latency_path=latency)
    assert asked == [] and path.read_text(encoding="utf-8") == "q1 Q0 old 1 1.0 t\n"
