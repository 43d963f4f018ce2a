"""Evaluation units: the article's 4.2-a / 4.2-b example at chunk, clause and document level."""

import pandas as pd
import pytest

from ragmath import hit_at_k, recall_at_k, units

CORPUS = pd.DataFrame(
    [("1.1", "TRV§1.1", "TRV"), ("4.2-a", "TRV§4.2", "TRV"), ("4.2-b", "TRV§4.2", "TRV"),
     ("6.3", "TRV§6.3", "TRV"), ("7.2", "TRV§7.2", "TRV"), ("HR-1", "HR§1", "HR")],
    columns=["chunk_id", "clause_id", "doc_id"],
)
CLAUSE_OF = dict(zip(CORPUS["chunk_id"], CORPUS["clause_id"], strict=True))


def test_document_label_scores_useless_top3_as_hit():
    ranking, labels = units.at_level(["1.1", "6.3", "7.2"], {"TRV": 2}, "document", CORPUS,
                                     label_level="document")
    assert ranking == ["TRV"]
    assert hit_at_k(ranking, labels, 3) == 1.0


def test_chunk_label_calls_useful_neighbour_a_miss_until_lifted_to_clause():
    labels = {"4.2-a": 2}
    assert hit_at_k(["4.2-b", "6.3"], labels, 2) == 0.0
    ranking, lifted = units.at_level(["4.2-b", "6.3"], labels, "clause", CORPUS)
    assert ranking == ["TRV§4.2", "TRV§6.3"]
    assert lifted == {"TRV§4.2": 2}
    assert hit_at_k(ranking, lifted, 2) == 1.0


def test_dedupe_stops_adjacent_chunks_inflating_recall():
    ranking = ["4.2-a", "4.2-b", "6.3"]
    labels = {"4.2-a": 2, "4.2-b": 1, "HR-1": 2}
    # Chunk level: two of three relevant chunks, both from one clause.
    assert recall_at_k(ranking, labels, 3) == pytest.approx(2 / 3)
    clause_ranking, clause_labels = units.at_level(ranking, labels, "clause", CORPUS)
    assert clause_ranking == ["TRV§4.2", "TRV§6.3"]
    assert recall_at_k(clause_ranking, clause_labels, 3) == pytest.approx(1 / 2)


def test_lift_keeps_maximum_grade():
    assert units.lift_labels({"4.2-a": 1, "4.2-b": 2}, CLAUSE_OF) == {"TRV§4.2": 2}


def test_clause_labels_lift_to_documents():
    ranking, labels = units.at_level(["HR-1", "4.2-a"], {"TRV§4.2": 2, "HR§1": 0}, "document", CORPUS,
                                     label_level="clause")
    assert ranking == ["HR", "TRV"]
    assert labels == {"TRV": 2, "HR": 0}


def test_same_level_keeps_labels():
    ranking, labels = units.at_level(["4.2-a"], {"4.2-a": 2}, "chunk", CORPUS)
    assert (ranking, labels) == (["4.2-a"], {"4.2-a": 2})


def test_to_units_without_dedupe_keeps_repeats():
    assert units.to_units(["4.2-a", "4.2-b"], CLAUSE_OF, deduplicate=False) == [
        "TRV§4.2",
        "TRV§4.2",
    ]


def test_a_chunk_listed_twice_in_the_corpus_is_refused():
    rows = pd.DataFrame({"chunk_id": ["a", "a"], "clause_id": ["c", "e"], "doc_id": ["d", "d"]})
    with pytest.raises(ValueError, match="'a' appears twice"):
        units.to_level(["a"], "clause", rows)


def test_dedupe_keeps_first_occurrence_and_input():
    ranking = ["b", "a", "b", "c", "a"]
    assert units.dedupe(ranking) == ["b", "a", "c"]
    assert ranking == ["b", "a", "b", "c", "a"]


# --- the light functions notebook 01 uses: to_level / at_level on a corpus table ---------------

def _tiny_corpus():
    import pandas as pd

    return pd.DataFrame(
        {
            "chunk_id": ["4.2-a", "4.2-b", "7.4", "H-1"],
            "clause_id": ["T§4.2", "T§4.2", "T§7.4", "H§1"],
            "doc_id": ["T", "T", "T", "H"],
        }
    )


def test_to_level_maps_and_dedupes_keeping_the_best_rank():
    corpus = _tiny_corpus()
    assert units.to_level(["4.2-b", "H-1", "4.2-a", "7.4"], "clause", corpus) == ["T§4.2", "H§1", "T§7.4"]
    assert units.to_level(["4.2-b", "H-1", "4.2-a", "7.4"], "document", corpus) == ["T", "H"]
    assert units.to_level(["4.2-b", "4.2-a"], "chunk", corpus) == ["4.2-b", "4.2-a"]


def test_at_level_lifts_chunk_labels_to_the_highest_grade():
    ranking, grades = units.at_level(["4.2-b", "H-1"], {"4.2-a": 2, "4.2-b": 1, "7.4": 1}, "clause",
                                     _tiny_corpus())
    assert ranking == ["T§4.2", "H§1"]
    assert grades == {"T§4.2": 2, "T§7.4": 1}


def test_at_level_refuses_scoring_finer_than_the_labels():
    with pytest.raises(ValueError, match="cannot score at chunk level with document-level labels"):
        units.at_level(["4.2-a"], {"T": 1}, "chunk", _tiny_corpus(), label_level="document")


def test_to_level_names_an_unknown_chunk_and_a_missing_column():
    with pytest.raises(ValueError, match="'X-9'"):
        units.to_level(["X-9"], "clause", _tiny_corpus())
    with pytest.raises(ValueError, match="no column 'doc_id'"):
        units.to_level(["4.2-a"], "document", _tiny_corpus().drop(columns="doc_id"))
    with pytest.raises(ValueError, match="unknown level 'section'"):
        units.to_level(["4.2-a"], "section", _tiny_corpus())


def test_at_level_leaves_the_inputs_unchanged():
    corpus, labels, run = _tiny_corpus(), {"4.2-a": 2}, ["4.2-b", "4.2-a"]
    before = corpus.copy()
    units.at_level(run, labels, "document", corpus)
    assert labels == {"4.2-a": 2} and run == ["4.2-b", "4.2-a"] and corpus.equals(before)
