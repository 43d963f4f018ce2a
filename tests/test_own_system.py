"""The workbook's versions as "your system" (notebook 08): recorded like any callable, permission-filtered."""

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


def test_c_is_the_rrf_of_a_and_b(setup):
    ds, _, questions = setup
    systems = workbook_systems(ds, k=60, window=40, depth=40)
    for qid in ("Q01", "Q07", "Q30"):
        lists = {name: [c for c, _ in systems[name](questions[qid])] for name in ("A", "B")}
        fused = rrf(lists, k=60, window=40)
        assert [c for c, _ in systems["C"](questions[qid])] == list(fused["id"])[:40]
