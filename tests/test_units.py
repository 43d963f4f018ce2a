"""Evaluation units: the article's 4.2-a / 4.2-b example at chunk, clause and document level."""

import pytest

from ragmath import hit_at_k, recall_at_k, units

TABLE = units.UnitMap(
    {
        "1.1": ("TRV§1.1", "TRV"),
        "4.2-a": ("TRV§4.2", "TRV"),
        "4.2-b": ("TRV§4.2", "TRV"),
        "6.3": ("TRV§6.3", "TRV"),
        "7.2": ("TRV§7.2", "TRV"),
        "HR-1": ("HR§1", "HR"),
    }
)


def test_document_label_scores_useless_top3_as_hit():
    ranking, labels = TABLE.align(["1.1", "6.3", "7.2"], {"TRV": 2}, level="document", label_level="document")
    assert ranking == ["TRV"]
    assert hit_at_k(ranking, labels, 3) == 1.0


def test_chunk_label_calls_useful_neighbour_a_miss_until_lifted_to_clause():
    labels = {"4.2-a": 2}
    assert hit_at_k(["4.2-b", "6.3"], labels, 2) == 0.0
    ranking, lifted = TABLE.align(["4.2-b", "6.3"], labels, level="clause")
    assert ranking == ["TRV§4.2", "TRV§6.3"]
    assert lifted == {"TRV§4.2": 2}
    assert hit_at_k(ranking, lifted, 2) == 1.0


def test_dedupe_stops_adjacent_chunks_inflating_recall():
    ranking = ["4.2-a", "4.2-b", "6.3"]
    labels = {"4.2-a": 2, "4.2-b": 1, "HR-1": 2}
    # Chunk level: two of three relevant chunks, both from one clause.
    assert recall_at_k(ranking, labels, 3) == pytest.approx(2 / 3)
    clause_ranking, clause_labels = TABLE.align(ranking, labels, level="clause")
    assert clause_ranking == ["TRV§4.2", "TRV§6.3"]
    assert recall_at_k(clause_ranking, clause_labels, 3) == pytest.approx(1 / 2)


def test_lift_keeps_maximum_grade():
    assert units.lift_labels({"4.2-a": 1, "4.2-b": 2}, TABLE.mapping("clause")) == {"TRV§4.2": 2}


def test_clause_labels_lift_to_documents():
    ranking, labels = TABLE.align(["HR-1", "4.2-a"], {"TRV§4.2": 2, "HR§1": 0}, level="document",
                                  label_level="clause")
    assert ranking == ["HR", "TRV"]
    assert labels == {"TRV": 2, "HR": 0}


def test_same_level_keeps_labels():
    ranking, labels = TABLE.align(["4.2-a"], {"4.2-a": 2}, level="chunk")
    assert (ranking, labels) == (["4.2-a"], {"4.2-a": 2})


def test_to_units_without_dedupe_keeps_repeats():
    assert units.to_units(["4.2-a", "4.2-b"], TABLE.mapping("clause"), deduplicate=False) == [
        "TRV§4.2",
        "TRV§4.2",
    ]


def test_from_records_rejects_duplicate_chunk():
    rows = [{"chunk_id": "a", "clause_id": "c", "doc_id": "d"}] * 2
    with pytest.raises(ValueError, match="appears twice"):
        units.UnitMap.from_records(rows)


def test_dedupe_keeps_first_occurrence_and_input():
    ranking = ["b", "a", "b", "c", "a"]
    assert units.dedupe(ranking) == ["b", "a", "c"]
    assert ranking == ["b", "a", "b", "c", "a"]
