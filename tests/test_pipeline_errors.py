"""The toy pipeline's errors (``ragmath/lab/*.py``, ``ragmath/lab/ablation/``): the same bad call raises the
same exception type with an English text written where it is raised, naming what was wrong (the bad value,
the allowed range, the file and line) and how to fix it. Like the core's, they stay English whatever
language a notebook chose; the Chinese notebooks explain them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_corpus import copy_data  # tests/ is on the path (conftest.py)

from ragmath.lab import holdout
from ragmath.lab.ablation import AblationConfig
from ragmath.lab.corpus import load_config, load_corpus, load_qrels, parse_date, qrels_for
from ragmath.lab.messages import use_language
from ragmath.lab.workbook import (
    BM25Retriever,
    CharNgramSVDEmbedder,
    ExtractiveAnswerer,
    HybridRetriever,
    LinearReranker,
    VectorRetriever,
    get_tokenizer,
    in_index,
    keep_default_rule,
    leakage_experiment,
    leakage_on_fixed_questions,
    permission_filter,
    question_bigrams,
    roles_of,
)

ROOT = Path(__file__).resolve().parent.parent


def error_of(call: Callable[[], object], error: type[Exception]) -> str:
    """The text of the ``error`` that ``call()`` raises (that exact type, not a subclass)."""
    with pytest.raises(error) as info:
        call()
    assert type(info.value) is error
    return str(info.value)


# ------------------------------------------------------------------------------------ corpus.py
def test_corpus_unknown_chunk_kind_names_file_line_field_and_kinds(tmp_path):
    data = copy_data(tmp_path)
    lines = (data / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["kind"] = "video"
    (data / "corpus.jsonl").write_text("\n".join([json.dumps(first, ensure_ascii=False), *lines[1:]]) + "\n",
                                       encoding="utf-8")
    assert error_of(lambda: load_corpus(data), ValueError) == \
        "corpus.jsonl, line 1, field 'kind': 'video' is not one of ['text', 'table', 'record']"


def test_qrels_bad_grade_keeps_the_grade_and_the_allowed_values(tmp_path):
    data = copy_data(tmp_path)
    lines = (data / "qrels.csv").read_text(encoding="utf-8").splitlines()
    question, chunk, _grade = lines[1].split(",")
    lines[1] = f"{question},{chunk},3"
    (data / "qrels.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert error_of(lambda: load_qrels(data), ValueError) == (
        "qrels.csv, line 2, field 'grade': '3' is not a grade; use the integers 2 (answers), "
        "1 (helps) or 0 (checked, irrelevant)")


def test_a_data_file_error_names_the_file_then_the_line_and_field_it_knows(tmp_path):
    """Where a mistake is: the file alone, the file and a field, the file and a line."""
    data = copy_data(tmp_path)
    lines = (data / "qrels.csv").read_text(encoding="utf-8").splitlines()
    (data / "qrels.csv").write_text("\n".join([lines[0], lines[1] + ",2"]) + "\n", encoding="utf-8")
    assert error_of(lambda: load_qrels(data), ValueError) == \
        "qrels.csv, line 2: has 4 cells, the header has 3; quote cells that contain commas"
    (data / "config.json").write_text('{"split_rule": "by group"}\n', encoding="utf-8")
    assert error_of(lambda: load_config(data), ValueError) == \
        "config.json, field 'snapshot_date': missing; the date of the index evaluated, e.g. \"2026-06-30\""
    (data / "corpus.jsonl").write_text("\n", encoding="utf-8")
    assert error_of(lambda: load_corpus(data), ValueError) == \
        "corpus.jsonl: no chunks; the corpus needs at least one line"


def test_question_ids_as_a_bare_string_is_a_type_error():
    assert error_of(lambda: qrels_for("Q07"), TypeError) == \
        "question_ids must be a list of IDs, got the string 'Q07'; write ['Q07']"


def test_an_impossible_date_is_refused_with_its_value():
    assert error_of(lambda: parse_date("2026-13-01", "as_of"), ValueError) == \
        "as_of must be a date written YYYY-MM-DD, e.g. '2026-06-30', got '2026-13-01'"


def test_a_missing_data_file_is_named(tmp_path):
    missing = tmp_path / "nowhere.jsonl"
    assert error_of(lambda: load_corpus(missing), FileNotFoundError) == \
        f"{missing}: no such file; expected the workbook's corpus.jsonl"


# ------------------------------------------------------------------------------------ tokenizers (01)
def test_an_unknown_tokenizer_lists_the_known_ones():
    assert error_of(lambda: get_tokenizer("nope"), ValueError) == \
        "unknown tokenizer 'nope'; choose one of ['bigram', 'jieba', 'jieba_plain', 'jieba_search']"


def test_a_list_given_to_the_tokenizer_is_a_type_error_that_says_to_join_it():
    assert error_of(lambda: get_tokenizer("jieba")(["INV-102"]), TypeError) == \
        "text must be a str, got list: ['INV-102']; join lists first"


# ------------------------------------------------------------------------------------ index.py
def test_an_unknown_identity_lists_the_known_ones():
    assert error_of(lambda: roles_of("intern"), ValueError) == (
        "identity 'intern' is unknown; known identities: ['finance_officer', 'p6_employee'] "
        "(or pass the roles themselves, e.g. {'employee'})")


def test_an_unknown_editions_mode_lists_the_modes():
    corpus = load_corpus()
    assert error_of(lambda: in_index(corpus, "2026-06-30", editions="draft"), ValueError) == \
        "editions must be one of ['live', 'published'], got 'draft'"


def test_a_bare_chunk_id_string_is_a_type_error():
    assert error_of(lambda: permission_filter("INV-102", "p6_employee"), TypeError) == \
        "chunks must be a DataFrame or a list of chunk IDs, got the string 'INV-102'"


# ------------------------------------------------------------------------------------ retrieval.py
CHUNKS = [{"chunk_id": "a", "text": "市内交通每次 80 元"}, {"chunk_id": "b", "text": "年假 5 天"}]


def test_a_depth_below_one_is_refused_with_its_value():
    assert error_of(lambda: BM25Retriever(CHUNKS).retrieve("市内交通", depth=0), ValueError) == \
        "depth must be a positive int or None, got 0"


@pytest.mark.parametrize("k", [-1, 0, float("nan"), True])
def test_an_rrf_k_the_core_refuses_is_refused_when_the_hybrid_is_built(k):
    retrievers = {"bm25": BM25Retriever(CHUNKS), "vector": VectorRetriever(CHUNKS)}
    assert error_of(lambda: HybridRetriever(retrievers, k=k), ValueError) == \
        f"k must be a number > 0 (RRF constant), got {k!r}"


@pytest.mark.parametrize("window", [0, None, 2.5])
def test_a_bad_window_is_named_as_the_window_not_a_depth(window):
    retrievers = {"bm25": BM25Retriever(CHUNKS)}
    assert error_of(lambda: HybridRetriever(retrievers, window=window), ValueError) == \
        f"window must be a positive int (each retriever's top results fused), got {window!r}"


def test_a_duplicate_chunk_id_is_named():
    assert error_of(lambda: VectorRetriever([CHUNKS[0], CHUNKS[0]]), ValueError) == \
        "chunks: duplicate chunk_id 'a'; chunk IDs must be unique"


def test_an_unfitted_embedder_says_to_fit_it_first():
    assert error_of(lambda: CharNgramSVDEmbedder()(["市内交通"]), ValueError) == \
        "CharNgramSVDEmbedder is not fitted: call .fit(corpus_texts) first"


# ------------------------------------------------------------------------------------ rerank.py
def test_an_unknown_reranker_weight_lists_the_features():
    features = "('bm25', 'cosine', 'rrf', 'exact_id', 'title_overlap', 'text_overlap', 'live', 'memory')"
    assert error_of(lambda: LinearReranker({"bm25": 1.0, "freshness": 0.5}), ValueError) == \
        f"unknown features ['freshness']; features are {features}"


def test_fitting_the_reranker_on_a_holdout_question_is_refused():
    questions = [{"question_id": "Q99", "split": "holdout"}]
    assert error_of(lambda: LinearReranker.fit(questions, {}, {}), ValueError) == (
        "question 'Q99' has split='holdout': the reranker is fitted on the dev split only; "
        "pass only questions with split == 'dev'")


def test_mismatched_feature_matrix_names_the_column_count():
    assert error_of(lambda: LinearReranker.fit_matrix(np.zeros((2, 3)), np.zeros(2)), ValueError) == \
        "x must be (rows, 8) and y one label per row"


# ------------------------------------------------------------------------------------ generate.py
def test_a_refusal_share_outside_zero_one_is_refused_with_its_value():
    assert error_of(lambda: ExtractiveAnswerer(refuse_below=1.5), ValueError) == \
        "refuse_below must be a share in [0, 1], got 1.5"


def test_passages_given_as_one_mapping_is_a_type_error():
    passage = {"chunk_id": "a", "text": "80 元"}
    assert error_of(lambda: ExtractiveAnswerer()("住宿标准是多少", passage), TypeError) == \
        "passages must be a list of mappings with chunk_id and text, got dict"


def test_a_question_that_is_not_text_is_a_type_error():
    assert error_of(lambda: question_bigrams(42), TypeError) == "question must be a str, got int"


# ------------------------------------------------------------------------------------ ablation/
def test_a_rerank_depth_below_top_k_names_both_values():
    assert error_of(lambda: AblationConfig(rerank_depth=3, top_k=5), ValueError) == \
        "rerank_depth=3 is smaller than top_k=5: keep at least top_k candidates"


def test_a_zero_rrf_constant_is_refused_with_its_value():
    assert error_of(lambda: AblationConfig(k=0), ValueError) == "k must be a number > 0 (RRF constant), got 0"
    with pytest.raises(ValueError, match="got inf"):  # the core's rule: k is finite too
        AblationConfig(k=float("inf"))


def test_a_test_fraction_outside_zero_one_is_refused_with_its_value():
    config = AblationConfig()
    assert error_of(lambda: leakage_experiment(None, config, test_fraction=1.5), ValueError) == \
        "test_fraction must be strictly between 0 and 1, got 1.5"
    assert error_of(lambda: leakage_on_fixed_questions(None, config, test_fraction=0), ValueError) == \
        "test_fraction must be strictly between 0 and 1, got 0"


def test_a_leak_grid_with_an_empty_knob_is_refused_naming_the_knobs():
    grid = {"k": (1,), "window": (), "rerank_depth": (5,)}
    assert error_of(lambda: leakage_on_fixed_questions(None, AblationConfig(), grid=grid), ValueError) == \
        "grid needs at least one value for each of ['k', 'window', 'rerank_depth'], got " + str(grid)


def test_a_knob_table_without_its_default_row_is_refused():
    table = pd.DataFrame({"k": [1, 60], "default": [False, False], "diff vs default": [0.04, 0.0],
                          "low": [-0.006, 0.0], "high": [0.10, 0.0]})
    assert error_of(lambda: keep_default_rule(table), ValueError) == \
        "the table needs exactly one default row, got 0"


# ------------------------------------------------------------------------------------ holdout.py
def test_a_missing_frozen_design_says_to_tune_on_dev_first(monkeypatch):
    monkeypatch.setattr(holdout, "load_config", lambda *a, **k: {})
    assert error_of(holdout.frozen_design, ValueError) == (
        "config.json has no frozen_design: tune on dev (notebook 06b), then write the chosen k, window and "
        "rerank_depth there before opening the holdout")


# ------------------------------------------------------------------------------------ the language
@pytest.mark.parametrize("call", [
    lambda: parse_date("2026-13-01", "as_of"),
    lambda: roles_of("intern"),
    lambda: BM25Retriever(CHUNKS).retrieve("市内交通", depth=0),
    lambda: LinearReranker({"freshness": 0.5}),
    lambda: ExtractiveAnswerer(refuse_below=1.5),
    lambda: AblationConfig(rerank_depth=3, top_k=5),
], ids=["corpus", "index", "retrieval", "rerank", "generate", "ablation"])
def test_a_notebook_that_chose_chinese_gets_the_same_english_error(call):
    english = error_of(call, ValueError)
    use_language("zh")
    assert error_of(call, ValueError) == english


def test_the_pipeline_writes_its_errors_where_it_raises_them():
    """No module of the toy pipeline looks its words up in the catalogue (the notebook helpers do)."""
    lab = ROOT / "ragmath" / "lab"
    modules = [*lab.glob("*.py"), *(lab / "ablation").glob("*.py")]
    assert len(modules) > 10
    assert [p.name for p in modules if "ragmath.lab.messages" in p.read_text(encoding="utf-8")] == []
