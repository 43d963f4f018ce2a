"""RRF behaviour beyond the article's tables: windows, absent items, ties, list input."""

import pytest

from ragmath import rrf


def test_window_keeps_each_lists_top():
    table = rrf({"a": ["x", "y", "z"], "b": ["z", "y"]}, k=60, window=1).set_index("id")
    assert set(table.index) == {"x", "z"}
    assert table.loc["x", "rrf_score"] == pytest.approx(1 / 61)


def test_absent_item_adds_nothing():
    table = rrf({"a": ["x"], "b": ["y"]}, k=10).set_index("id")
    assert table.loc["x", "contrib[b]"] == 0.0
    assert table.loc["x", "rrf_score"] == pytest.approx(1 / 11)


def test_ties_broken_by_id_ascending():
    table = rrf({"a": ["b-item", "a-item"], "b": ["a-item", "b-item"]}, k=60)
    assert table["id"].tolist() == ["a-item", "b-item"]
    assert table["rrf_score"].iloc[0] == table["rrf_score"].iloc[1]


def test_list_of_lists_named_l1_l2():
    table = rrf([["x"], ["y", "x"]])
    assert {"rank[L1]", "contrib[L1]", "rank[L2]", "contrib[L2]"} <= set(table.columns)


def test_fused_rank_starts_at_one():
    assert rrf([["x", "y"]])["rrf_rank"].tolist() == [1, 2]


def test_empty_list_contributes_nothing():
    table = rrf({"a": [], "b": ["x"]})
    assert table["id"].tolist() == ["x"]


def test_float_k_accepted():
    assert rrf([["x"]], k=0.5)["rrf_score"].iloc[0] == pytest.approx(1 / 1.5)


def test_input_lists_unchanged():
    lists = {"a": ["x", "y"], "b": ["y"]}
    rrf(lists, window=1)
    assert lists == {"a": ["x", "y"], "b": ["y"]}
