"""Score fusion and weighted RRF: against ranx's fuse, against the formulas by hand, on the command line."""

from __future__ import annotations

import io
import math
import random

import numpy as np
import pytest
from ranx import Run, fuse

from ragmath import fuse_runs, rrf
from ragmath.cli import main
from ragmath.io import write_run
from ragmath.score_fusion import fuse_scores


def _runs(seed: int, questions: int = 30):
    """Two tie-free runs of realistic shape: BM25-like scores (5-15) and cosines (0.6-0.9), half shared."""
    rng = random.Random(seed)
    bm25, dense = {}, {}
    for q in range(questions):
        docs = [f"d{i}" for i in rng.sample(range(200), 30)]
        bm25[f"q{q}"] = {d: round(rng.uniform(5, 15), 6) + i * 1e-7 for i, d in enumerate(docs[:20])}
        dense[f"q{q}"] = {d: round(rng.uniform(0.6, 0.9), 6) + i * 1e-8 for i, d in enumerate(docs[10:])}
    return bm25, dense


def _ranx(runs, norm, weights):
    fused = fuse([Run(r) for r in runs], norm=norm, method="wsum", params={"weights": weights})
    return {q: dict(sorted(scores.items(), key=lambda item: (-item[1], item[0])))
            for q, scores in fused.to_dict().items()}


@pytest.mark.parametrize(("norm", "ranx_norm"), [("min-max", "min-max"), ("z-score", "zmuv")])
@pytest.mark.parametrize("weights", [[0.5, 0.5], [0.3, 0.7], [1.0, 2.0]])
def test_weighted_sum_of_normalised_scores_equals_ranx_wsum(norm, ranx_norm, weights):
    bm25, dense = _runs(1)
    ours = fuse_runs([bm25, dense], norm=norm, weights=weights)
    theirs = _ranx([bm25, dense], ranx_norm, weights)
    assert list(ours) == list(bm25) and sorted(ours) == sorted(theirs)  # ranx sorts its questions
    for question, scores in theirs.items():
        assert list(ours[question]) == list(scores)  # same order
        assert list(ours[question].values()) == pytest.approx(list(scores.values()), rel=1e-9, abs=1e-12)


def test_l2_by_hand():
    # Hand: bm25 scores 3, 4 -> norm 5 -> 0.6, 0.8; dense 1, 0 -> norm 1 -> 1.0, 0.0.
    # a: 0.6 + 1.0 = 1.6; b: 0.8 + 0.0 = 0.8 (b is in both lists).
    table = fuse_scores({"bm25": {"a": 3.0, "b": 4.0}, "dense": {"a": 1.0, "b": 0.0}}, "l2")
    assert table["id"].tolist() == ["a", "b"]
    assert table["fused_score"].tolist() == pytest.approx([1.6, 0.8])


def test_elasticsearch_linear_retriever_minmax_example_by_hand():
    # Elasticsearch's linear retriever with the minmax normalizer and weights 2 (lexical) and 1.5
    # (semantic): each list is min-max normalised, then weight x score is summed; an item a list
    # lacks adds 0. Hand: lexical 10, 6, 2 -> 1, 0.5, 0; semantic 0.9, 0.5 -> 1, 0.
    # x: 2 * 1 + 0 = 2; y: 2 * 0.5 + 1.5 * 1 = 2.5; z: 2 * 0 + 1.5 * 0 = 0.
    table = fuse_scores({"lexical": {"x": 10.0, "y": 6.0, "z": 2.0}, "semantic": {"y": 0.9, "z": 0.5}},
                        "min-max", weights=[2.0, 1.5])
    assert table[["id", "fused_score"]].values.tolist() == [["y", 2.5], ["x", 2.0], ["z", 0.0]]


def test_opensearch_arithmetic_mean_keeps_the_order_of_the_plain_weighted_sum():
    # OpenSearch's arithmetic_mean divides the weighted sum by the total weight (0.3 + 0.7 = 1 here,
    # 3 with weights 1 and 2): the order is the same; only the scale differs.
    bm25, dense = _runs(2, questions=5)
    plain = fuse_runs([bm25, dense], norm="min-max", weights=[1.0, 2.0])
    scaled = fuse_runs([bm25, dense], norm="min-max", weights=[1 / 3, 2 / 3])
    for question in plain:
        assert list(plain[question]) == list(scaled[question])
        assert [v / 3 for v in plain[question].values()] == pytest.approx(list(scaled[question].values()))


def test_a_list_of_equal_scores_gives_zero_as_ranx():
    table = fuse_scores({"flat": {"a": 2.0, "b": 2.0}, "other": {"a": 1.0, "c": 3.0}}, "min-max")
    # Hand: flat -> 0, 0 (no order); other -> a 0, c 1. Fused: c 1, then a and b tied at 0: ID order.
    assert table[["id", "fused_score"]].values.tolist() == [["c", 1.0], ["a", 0.0], ["b", 0.0]]
    theirs = _ranx([{"q": {"a": 2.0, "b": 2.0}}, {"q": {"a": 1.0, "c": 3.0}}], "min-max", [1.0, 1.0])
    assert theirs["q"] == pytest.approx({"c": 1.0, "a": 0.0, "b": 0.0})


def test_z_score_of_a_missing_item_is_the_lists_mean():
    # Hand: list A: a 1, b 3 -> mean 2, population sd 1 -> a -1, b +1. List B has only c (no spread: 0).
    # c is missing from A: it adds 0 there, A's mean, so it sits above a and below b.
    table = fuse_scores({"A": {"a": 1.0, "b": 3.0}, "B": {"c": 5.0}}, "z-score")
    assert table[["id", "fused_score"]].values.tolist() == [["b", 1.0], ["c", 0.0], ["a", -1.0]]


def test_the_window_applies_before_normalising():
    # Hand: the top 2 of bm25 are a 9, b 5 -> 1, 0 (c 1 is cut before min and max are taken).
    table = fuse_scores({"bm25": {"a": 9.0, "b": 5.0, "c": 1.0}}, "min-max", window=2)
    assert table[["id", "fused_score"]].values.tolist() == [["a", 1.0], ["b", 0.0]]


def test_weighted_rrf_by_hand_and_on_whole_runs():
    # Hand, k = 1: x ranks 1 in A (weight 2) -> 2/2 = 1; y ranks 2 in A and 1 in B (weight 1) -> 2/3 + 1/2.
    table = rrf({"A": ["x", "y"], "B": ["y"]}, k=1, weights=[2, 1])
    assert table["id"].tolist() == ["y", "x"]
    assert table["rrf_score"].tolist() == pytest.approx([2 / 3 + 1 / 2, 1.0])
    assert table["contrib[A]"].tolist() == pytest.approx([2 / 3, 1.0])
    fused = fuse_runs([{"q": ["x", "y"]}, {"q": ["y"]}], k=1, weights=[2, 1])
    assert list(fused["q"].items()) == list(zip(table["id"], table["rrf_score"], strict=True))


def test_weights_of_one_give_plain_rrf():
    lists = {"A": ["a", "b", "c"], "B": ["c", "a", "d"]}
    assert rrf(lists, k=60, weights=[1, 1]).equals(rrf(lists, k=60))


@pytest.mark.parametrize(("weights", "error"), [([1.0], "1 weights for 2 lists"), ([1.0, -1.0], ">= 0"),
                                                 ([0.0, 0.0], "every weight is 0"),
                                                 ([1.0, math.nan], ">= 0")])
def test_bad_weights_are_refused(weights, error):
    with pytest.raises(ValueError, match=error):
        rrf({"A": ["a"], "B": ["b"]}, weights=weights)


def test_k_with_norm_is_refused_saying_why():
    with pytest.raises(ValueError, match="k is RRF's constant"):
        fuse_runs([{"q": {"a": 1.0}}, {"q": {"a": 2.0}}], k=60, norm="min-max")


def test_a_run_of_ranks_alone_cannot_be_score_fused():
    with pytest.raises(ValueError, match="needs scores"):
        fuse_runs([{"q": ["a", "b"]}, {"q": {"a": 1.0}}], norm="min-max")


def test_an_unknown_norm_is_refused_listing_the_known_ones():
    with pytest.raises(ValueError, match="min-max, z-score, l2"):
        fuse_runs([{"q": {"a": 1.0}}], norm="max")


# ---------------------------------------------------------------- the command line


def _cli(argv):
    out, err = io.StringIO(), io.StringIO()
    return main(argv, stdout=out, stderr=err), out.getvalue(), err.getvalue()


def test_fuse_command_with_norm_and_weights_equals_ranx(tmp_path):
    bm25, dense = _runs(3, questions=10)
    write_run(bm25, tmp_path / "bm25.trec")
    write_run(dense, tmp_path / "dense.trec")
    status, out, err = _cli(["fuse", str(tmp_path / "bm25.trec"), str(tmp_path / "dense.trec"),
                             "--norm", "min-max", "--weights", "0.3,0.7"])
    assert status == 0, err
    lines = [line.split() for line in out.splitlines()]
    assert {line[5] for line in lines} == {"min-max"}  # the run tag says how it was fused
    theirs = _ranx([bm25, dense], "min-max", [0.3, 0.7])
    for question, scores in theirs.items():
        ours = [(line[2], float(line[4])) for line in lines if line[0] == question]
        assert [d for d, _ in ours] == list(scores)
        assert np.allclose([s for _, s in ours], list(scores.values()), rtol=1e-9)


def test_fuse_command_refuses_k_with_norm(tmp_path):
    write_run({"q": {"a": 1.0}}, tmp_path / "a.trec")
    status, _, err = _cli(["fuse", str(tmp_path / "a.trec"), str(tmp_path / "a.trec"), "--norm", "l2",
                           "--k", "60"])
    assert status == 2 and "--k is RRF's constant" in err


def test_fuse_command_weighted_rrf(tmp_path):
    write_run({"q": ["x", "y"]}, tmp_path / "a.trec")
    write_run({"q": ["y"]}, tmp_path / "b.trec")
    status, out, _ = _cli(["fuse", str(tmp_path / "a.trec"), str(tmp_path / "b.trec"), "--k", "1",
                           "--weights", "2,1"])
    assert status == 0
    assert [line.split()[2] for line in out.splitlines()] == ["y", "x"]  # hand: 2/3 + 1/2 > 2/2
