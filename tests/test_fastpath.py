"""The vectorised path (ragmath._fast) against the per-question definitions, on random runs.

Every case compares engine="fast" with engine="reference" (the loops over ragmath.metrics and
ragmath.fusion.rrf): same per-question values, means, question groups, fused scores and order,
and the same error messages. Ties are included on purpose.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from ragmath import _fast, evaluate
from ragmath.fusion import fuse_runs
from ragmath.io import write_trec_qrels, write_trec_run

METRICS = ["Recall@1", "Recall@5", "Hit@3", "MRR@4", "nDCG@2", "nDCG@10"]
TIED_SCORES = [0.1, 0.2, 0.2, 0.5, 0.5, 0.9, 1 / 3]


def _random_case(seed: int, *, float_grades: bool = False):
    rng = random.Random(seed)
    docs = [f"d{i}" for i in range(rng.randint(1, 16))]
    run, qrels = {}, {}
    for q in range(rng.randint(0, 9)):
        name = f"q{q}"
        if rng.random() < 0.8:  # else: missing from the run
            ids = rng.sample(docs, rng.randint(0, len(docs)))
            if rng.random() < 0.5:
                run[name] = ids
            else:
                run[name] = {d: rng.choice(TIED_SCORES) for d in ids}
        if rng.random() < 0.85:  # else: unjudged (if in the run)
            grades = [0, 0, 1, 2, 3] + ([0.5, 2.5] if float_grades else [])
            qrels[name] = {d: rng.choice(grades) for d in rng.sample(docs, rng.randint(0, len(docs)))}
    return run, qrels


def _assert_same_evaluation(fast, ref):
    pd.testing.assert_frame_equal(fast.per_question, ref.per_question, check_exact=False,
                                  rtol=1e-12, atol=1e-15)
    assert list(fast.means.index) == list(ref.means.index)
    for name in ref.means.index:
        a, b = float(fast.means[name]), float(ref.means[name])
        assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, rel=1e-12, abs=1e-15)
    assert fast.no_answer == ref.no_answer
    assert fast.missing == ref.missing
    assert fast.unjudged == ref.unjudged
    assert fast.ndcg_undefined == ref.ndcg_undefined
    assert fast.report() == ref.report()


@pytest.mark.parametrize("gain", ["exp", "linear"])
@pytest.mark.parametrize("seed", range(150))
def test_fast_evaluation_equals_the_definitions_on_random_runs(seed, gain):
    run, qrels = _random_case(seed, float_grades=seed % 3 == 0)
    fast = evaluate(run, qrels, METRICS, gain=gain, engine="fast")
    ref = evaluate(run, qrels, METRICS, gain=gain, engine="reference")
    _assert_same_evaluation(fast, ref)


@pytest.mark.parametrize("seed", range(60))
def test_fast_evaluation_from_trec_files_equals_the_definitions(tmp_path, seed):
    run, qrels = _random_case(1000 + seed)
    scored = {q: r if isinstance(r, dict) else {d: float(len(r) - i) for i, d in enumerate(r)}
              for q, r in run.items() if r}
    write_trec_run(scored, tmp_path / "run.trec")
    labels = {q: g for q, g in qrels.items() if g}
    write_trec_qrels(labels, tmp_path / "qrels.trec")
    fast = evaluate(tmp_path / "run.trec", tmp_path / "qrels.trec", METRICS, engine="fast")
    ref = evaluate(scored, labels, METRICS, engine="reference")
    _assert_same_evaluation(fast, ref)


def test_fast_evaluation_of_dataframes_equals_the_definitions():
    for seed in range(20):
        run, qrels = _random_case(2000 + seed)
        scored = {q: r for q, r in run.items() if isinstance(r, dict)}
        run_frame = pd.DataFrame(
            [(q, d, s) for q, r in scored.items() for d, s in r.items()],
            columns=["question", "id", "score"],
        )
        qrels_frame = pd.DataFrame(
            [(q, d, g) for q, r in qrels.items() for d, g in r.items()],
            columns=["question", "id", "grade"],
        )
        fast = evaluate(run_frame, qrels_frame, METRICS, engine="fast")
        # a frame cannot hold a question without rows: compare with the same questions
        labelled = {q: g for q, g in qrels.items() if g}
        ref = evaluate(scored, labelled, METRICS, engine="reference")
        assert fast.means.index.tolist() == ref.means.index.tolist()
        if not any(len(r) == 0 for r in scored.values()):
            _assert_same_evaluation(fast, ref)


def test_long_ids_and_unicode_ids_take_the_general_byte_path(tmp_path):
    rng = random.Random(5)
    docs = [f"文档-{i:04d}-长标识" for i in range(40)] + ["a" * 30, "b"]
    run = {f"问题{q}": {d: rng.choice(TIED_SCORES) for d in rng.sample(docs, 25)} for q in range(30)}
    qrels = {f"问题{q}": {d: rng.randint(0, 3) for d in rng.sample(docs, 10)} for q in range(32)}
    write_trec_run(run, tmp_path / "run.trec")
    write_trec_qrels(qrels, tmp_path / "qrels.trec")
    flat = _fast.read_trec_run_flat(tmp_path / "run.trec")
    assert flat is not None and flat.ids.dtype.itemsize > 8
    fast = evaluate(tmp_path / "run.trec", tmp_path / "qrels.trec", METRICS, engine="fast")
    _assert_same_evaluation(fast, evaluate(run, qrels, METRICS, engine="reference"))


# ---------------------------------------------------------------- same errors


BAD_INPUTS = [
    ({"q1": ["a", "b", "a"]}, {"q1": {"a": 1}}),  # duplicate ID in a ranking
    ({"q1": {"a": float("nan")}}, {"q1": {"a": 1}}),  # NaN score
    ({"q1": ["a"]}, {"q1": {"a": -1}}),  # negative grade
    ({"q1": "abc"}, {"q1": {"a": 1}}),  # a string instead of a ranking
    ({"q1": ["a"], "q9": ["x", "x"]}, {"q1": {"a": 1}}),  # duplicate in an unjudged question
    ({"q1": {"a": True}}, {"q1": {"a": 1}}),  # a boolean score
]


@pytest.mark.parametrize("run, qrels", BAD_INPUTS)
def test_fast_engine_raises_the_reference_error(run, qrels):
    with pytest.raises((ValueError, TypeError)) as ref:
        evaluate(run, qrels, METRICS, engine="reference")
    with pytest.raises(type(ref.value)) as fast:
        evaluate(run, qrels, METRICS, engine="fast")
    assert str(fast.value) == str(ref.value)


def test_exact_fractions_are_refused_by_the_fast_engine():
    with pytest.raises(ValueError, match="exact=True"):
        evaluate({"q1": ["a"]}, {"q1": {"a": 1}}, ["Recall@1"], exact=True, engine="fast")


def test_unknown_engine_is_refused():
    with pytest.raises(ValueError, match="engine"):
        evaluate({"q1": ["a"]}, {"q1": {"a": 1}}, ["Recall@1"], engine="turbo")


def test_auto_engine_uses_the_fast_path_only_above_the_threshold(monkeypatch):
    calls = []
    original = _fast.evaluate_flat

    def spy(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(_fast, "evaluate_flat", spy)
    small = {"q1": ["a", "b"]}
    evaluate(small, {"q1": {"a": 1}}, ["Recall@1"])
    assert calls == []
    big = {f"q{i}": [f"d{j}" for j in range(100)] for i in range(250)}  # 25,000 rows
    result = evaluate(big, {"q1": {"d3": 1}}, ["MRR@10"])
    assert calls == [1]
    assert result.means["MRR@10"] == pytest.approx(1 / 4)  # d3 is 4th for q1


# ---------------------------------------------------------------- fusion


def _random_runs(seed: int):
    rng = random.Random(seed)
    docs = [f"d{i}" for i in range(rng.randint(1, 14))]
    runs = []
    for _ in range(rng.randint(1, 4)):
        run = {}
        for q in range(rng.randint(0, 6)):
            ids = rng.sample(docs, rng.randint(0, len(docs)))
            run[f"q{q}"] = ids if rng.random() < 0.5 else {d: rng.choice(TIED_SCORES) for d in ids}
        runs.append(run)
    return runs, rng.choice([60, 1, 0.5, 2.5, 1e-3, 1 / 3]), rng.choice([None, 1, 2, 5])


def _same_fused(fast, ref):
    assert list(fast) == list(ref)
    for q in ref:
        assert list(fast[q].items()) == list(ref[q].items())  # same IDs, order and scores


@pytest.mark.parametrize("seed", range(200))
def test_fast_fusion_equals_rrf_question_by_question(seed):
    runs, k, window = _random_runs(seed)
    _same_fused(fuse_runs(runs, k=k, window=window, engine="fast"),
                fuse_runs(runs, k=k, window=window, engine="reference"))


@pytest.mark.parametrize("seed", range(40))
def test_fast_fusion_of_trec_files_equals_rrf(tmp_path, seed):
    runs, k, window = _random_runs(500 + seed)
    paths = []
    for j, run in enumerate(runs):
        scored = {q: r if isinstance(r, dict) else {d: float(len(r) - i) for i, d in enumerate(r)}
                  for q, r in run.items() if r}
        runs[j] = scored
        paths.append(tmp_path / f"run{j}.trec")
        write_trec_run(scored, paths[-1])
    fast = fuse_runs(paths, k=k, window=window, engine="fast")
    ref = fuse_runs(runs, k=k, window=window, engine="reference")
    _same_fused(fast, ref)


def test_fusion_ties_follow_the_exact_score_then_the_id():
    # b and c: 1/(60+1) in one list each (an exact tie): ID ascending. a: rank 2 in both.
    runs = [{"q": ["c", "a"]}, {"q": ["b", "a"]}]
    fused = fuse_runs(runs, k=60, engine="fast")["q"]
    assert list(fused) == ["a", "b", "c"]
    assert fused["a"] == pytest.approx(2 / 62)
    assert fused["b"] == fused["c"] == 1 / 61


def test_fusion_frame_has_every_question_even_without_results():
    frame = fuse_runs([{"q1": ["a"], "q2": []}, {"q3": ["b"]}], k=60, engine="fast", as_frame=True)
    assert frame.attrs["questions"] == ["q1", "q2", "q3"]
    assert frame["question"].astype(str).tolist() == ["q1", "q3"]


def test_fast_fusion_of_files_with_long_ids_equals_rrf(tmp_path):
    # IDs longer than 8 bytes take the hash-based path instead of the one-row-per-question one.
    rng = random.Random(11)
    docs = [f"document-{i:03d}-中文" for i in range(25)]
    runs = []
    for j in range(3):
        run = {f"q{q}": {d: rng.choice(TIED_SCORES) for d in rng.sample(docs, 12)} for q in range(8)}
        write_trec_run(run, tmp_path / f"long{j}.trec")
        runs.append(run)
    paths = [tmp_path / f"long{j}.trec" for j in range(3)]
    assert _fast.read_trec_run_flat(paths[0]).ids.dtype.itemsize > 8
    for k, window in ((60, None), (1, 5), (0.5, None)):
        _same_fused(fuse_runs(paths, k=k, window=window, engine="fast"),
                    fuse_runs(runs, k=k, window=window, engine="reference"))


# ---------------------------------------------------------------- fusion of short byte IDs
# TREC files with IDs of at most 8 bytes take the one-row-per-question path (_fuse_matrix).


def _as_trec_files(tmp_path, runs):
    """Write runs as TREC files (a ranked list scored by descending numbers); the scored runs."""
    paths, scored_runs = [], []
    for j, run in enumerate(runs):
        scored = {q: r if isinstance(r, dict) else {d: float(len(r) - i) for i, d in enumerate(r)}
                  for q, r in run.items() if r}
        scored_runs.append(scored)
        paths.append(tmp_path / f"run{j}.trec")
        write_trec_run(scored, paths[-1])
    return paths, scored_runs


@pytest.mark.parametrize("seed", range(40))
def test_fast_fusion_without_the_combination_table_equals_rrf(tmp_path, monkeypatch, seed):
    # Too many rank combinations: each item's fraction is summed on its own, near ties re-sorted.
    monkeypatch.setattr(_fast, "_COMBO_LIMIT", 0)
    runs, k, window = _random_runs(500 + seed)
    paths, scored = _as_trec_files(tmp_path, runs)
    _same_fused(fuse_runs(paths, k=k, window=window, engine="fast"),
                fuse_runs(scored, k=k, window=window, engine="reference"))


@pytest.mark.parametrize("seed", range(20))
def test_fast_fusion_with_partitioned_id_codes_gives_the_same_frame(tmp_path, monkeypatch, seed):
    runs, k, window = _random_runs(700 + seed)
    paths, scored = _as_trec_files(tmp_path, runs)
    whole = fuse_runs(paths, k=k, window=window, engine="fast", as_frame=True)
    monkeypatch.setattr(_fast, "_PARTITION_MIN", 0)
    parts = fuse_runs(paths, k=k, window=window, engine="fast", as_frame=True)
    pd.testing.assert_frame_equal(parts, whole)
    if isinstance(whole["id"].dtype, pd.CategoricalDtype):  # else the reference ran (no file to read)
        assert parts["id"].cat.categories.tolist() == whole["id"].cat.categories.tolist()
    _same_fused(fuse_runs(paths, k=k, window=window, engine="fast"),
                fuse_runs(scored, k=k, window=window, engine="reference"))


@pytest.mark.parametrize("seed", range(10))
def test_fast_fusion_of_equal_length_runs_equals_rrf(tmp_path, seed):
    # Every question has the same items in both runs: every row of the matrix is full.
    rng = random.Random(seed)
    docs = [f"d{i}" for i in range(12)]
    runs = [{f"q{q}": rng.sample(docs, 6) for q in range(5)} for _ in range(2)]
    for q in runs[0]:
        runs[1][q] = rng.sample(runs[0][q], 6)
    paths, scored = _as_trec_files(tmp_path, runs)
    for k in (60, 1, 0.5):
        _same_fused(fuse_runs(paths, k=k, engine="fast"), fuse_runs(scored, k=k, engine="reference"))


@pytest.mark.parametrize("combo_limit", [_fast._COMBO_LIMIT, 0])
def test_fusion_orders_different_fractions_that_round_to_one_float(tmp_path, monkeypatch, combo_limit):
    # k = 1e15: z (ranks 1 and 4) scores exactly more than y (ranks 2 and 3), by far less than
    # a float step, so the floats are equal; the exact score, not the ID, puts z first.
    monkeypatch.setattr(_fast, "_COMBO_LIMIT", combo_limit)
    k = 1e15
    z = 1 / (Fraction(k) + 1) + 1 / (Fraction(k) + 4)
    y = 1 / (Fraction(k) + 2) + 1 / (Fraction(k) + 3)
    assert z > y and float(z) == float(y)
    paths, scored = _as_trec_files(tmp_path, [{"q": ["z", "y", "a1", "a2"]}, {"q": ["b1", "b2", "y", "z"]}])
    fast = fuse_runs(paths, k=k, engine="fast")
    _same_fused(fast, fuse_runs(scored, k=k, engine="reference"))
    assert list(fast["q"])[:2] == ["z", "y"]


@pytest.mark.parametrize("seed", range(10))
def test_factorize_keys_equals_pandas_factorize(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 5000))
    keys = rng.integers(0, int(rng.integers(1, 3000)), size=n).astype(np.uint64) * np.uint64(0x100000001)
    codes, uniques = _fast._factorize_keys(keys, min_size=0)
    expected_codes, expected_uniques = pd.factorize(keys)
    assert codes.tolist() == expected_codes.tolist()
    assert uniques.tolist() == list(expected_uniques)


def test_labels_of_keys_decode_as_decode_does():
    rng = random.Random(5)
    alphabet = ["a", "Z", "0", "-", "é", "中", "\x7f"]
    ids = set()
    while len(ids) < 300:
        label = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4)))
        if len(label.encode()) <= 8:
            ids.add(label)
    raw = np.array([label.encode() for label in sorted(ids)], dtype="S8")
    keys = raw.view(">u8").astype(np.uint64)
    assert _fast._labels_of_keys(keys) == _fast._decode(raw) == sorted(ids)
    odd = np.array([b"a\x00b", b"c"], dtype="S8")  # a NUL inside an ID: the one-by-one decoding
    assert _fast._labels_of_keys(odd.view(">u8").astype(np.uint64)) == ["a\x00b", "c"]
    assert _fast._labels_of_keys(np.zeros(0, dtype=np.uint64)) == []
    with pytest.raises(UnicodeDecodeError):
        _fast._labels_of_keys(np.array([b"\xff"], dtype="S8").view(">u8").astype(np.uint64))


def test_unique_categorical_equals_the_checked_construction():
    labels = ["b", "a", "c"]
    codes = np.array([2, 0, 0, 1], dtype=np.int64)
    fast = _fast._unique_categorical(codes, labels)
    checked = pd.Categorical.from_codes(codes, categories=pd.Index(labels, dtype=object))
    assert fast.dtype == checked.dtype
    assert fast.categories.tolist() == labels and fast.categories.dtype == object
    assert fast.codes.dtype == checked.codes.dtype and fast.codes.tolist() == checked.codes.tolist()
    assert not fast.ordered


def test_long_ids_one_bit_apart_get_keys_apart_beyond_the_lowest_bit():
    # The duplicate check drops a key's lowest bit; IDs such as 文档12 / 文档13 (one bit apart in
    # their second 8-byte word) must not all look like duplicate candidates.
    ids = np.array([f"文档{n}".encode() for n in range(100, 400)], dtype="S16")
    key, exact = _fast._word_keys(ids)
    assert not exact
    assert len(np.unique(key >> np.uint64(1))) == len(ids)
