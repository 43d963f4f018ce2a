"""The toy pipeline's errors in the chosen language: the same bad call raises the same exception type,
with today's English under ``use_language("en")`` and a Chinese text carrying the same values (the bad
value, the allowed range, the file and line) under ``use_language("zh")``."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import numpy as np
import pandas as pd
import pytest
from test_corpus import copy_data  # tests/ is on the path (conftest.py)

from ragmath.lab.ablation import AblationConfig, keep_default_rule, leakage_experiment
from ragmath.lab.corpus import load_corpus, load_qrels, parse_date, qrels_for
from ragmath.lab.generate import ExtractiveAnswerer, question_bigrams
from ragmath.lab.messages import use_language
from ragmath.lab.workbook import (
    BM25Retriever,
    CharNgramSVDEmbedder,
    HybridRetriever,
    LinearReranker,
    VectorRetriever,
    in_index,
    permission_filter,
    roles_of,
)


def in_both(call: Callable[[], object], error: type[Exception]) -> tuple[str, str]:
    """The text of the ``error`` that ``call()`` raises, first in English, then in Chinese."""
    texts = []
    for code in ("en", "zh"):
        use_language(code)
        with pytest.raises(error) as info:
            call()
        assert type(info.value) is error
        texts.append(str(info.value))
    use_language("en")
    return texts[0], texts[1]


def english_left(text: str, *kept: str) -> list[str]:
    """Runs of three or more Latin letters left in a Chinese text once the values it quotes
    ('...', "...", [...], (...)), file names, code names (snake_case, dotted) and ``kept`` are removed."""
    for word in kept:
        text = text.replace(word, "")
    text = re.sub(r"'[^']*'|\"[^\"]*\"|\[[^\]]*\]|\([^()]*\)", "", text)
    text = re.sub(r"[\w.]+\.(jsonl|csv|json|py)\b|\b\w+_\w+\b|\b[\w.]+\.\w+\b", "", text)
    return re.findall(r"[A-Za-z]{3,}", text)


def is_chinese(text: str) -> bool:
    return re.search(r"[\u4e00-\u9fff]", text) is not None


# ------------------------------------------------------------------------------------ corpus.py
def test_corpus_unknown_chunk_kind_names_file_line_field_and_kinds(tmp_path):
    data = copy_data(tmp_path)
    lines = (data / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["kind"] = "video"
    (data / "corpus.jsonl").write_text("\n".join([json.dumps(first, ensure_ascii=False), *lines[1:]]) + "\n",
                                       encoding="utf-8")
    en, zh = in_both(lambda: load_corpus(data), ValueError)
    assert en == "corpus.jsonl, line 1, field 'kind': 'video' is not one of ['text', 'table', 'record']"
    assert zh == "corpus.jsonl 第 1 行，字段 'kind'：'video' 不在 ['text', 'table', 'record'] 之中"


def test_qrels_bad_grade_keeps_the_grade_and_the_allowed_values(tmp_path):
    data = copy_data(tmp_path)
    lines = (data / "qrels.csv").read_text(encoding="utf-8").splitlines()
    question, chunk, _grade = lines[1].split(",")
    lines[1] = f"{question},{chunk},3"
    (data / "qrels.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    en, zh = in_both(lambda: load_qrels(data), ValueError)
    assert en == ("qrels.csv, line 2, field 'grade': '3' is not a grade; use the integers 2 (answers), "
                  "1 (helps) or 0 (checked, irrelevant)")
    assert zh.startswith("qrels.csv 第 2 行，字段 'grade'：'3' ")
    assert all(f"{grade}（" in zh for grade in (2, 1, 0))
    assert is_chinese(zh) and english_left(zh) == []


def test_question_ids_as_a_bare_string_is_a_type_error_in_both_languages():
    en, zh = in_both(lambda: qrels_for("Q07"), TypeError)
    assert en == "question_ids must be a list of IDs, got the string 'Q07'; write ['Q07']"
    assert "'Q07'" in zh and "['Q07']" in zh and is_chinese(zh) and english_left(zh) == []


def test_an_impossible_date_is_refused_with_its_value():
    en, zh = in_both(lambda: parse_date("2026-13-01", "as_of"), ValueError)
    assert en == "as_of must be a date written YYYY-MM-DD, e.g. '2026-06-30', got '2026-13-01'"
    assert zh.startswith("as_of ") and "'2026-13-01'" in zh and is_chinese(zh)
    assert english_left(zh, "YYYY-MM-DD") == []


def test_a_missing_data_file_is_named(tmp_path):
    missing = tmp_path / "nowhere.jsonl"
    en, zh = in_both(lambda: load_corpus(missing), FileNotFoundError)
    assert en == f"{missing}: no such file; expected the workbook's corpus.jsonl"
    assert zh.startswith(f"{missing}：") and "corpus.jsonl" in zh and is_chinese(zh)


# ------------------------------------------------------------------------------------ index.py
def test_an_unknown_identity_lists_the_known_ones():
    en, zh = in_both(lambda: roles_of("intern"), ValueError)
    assert en == ("identity 'intern' is unknown; known identities: ['finance_officer', 'p6_employee'] "
                  "(or pass the roles themselves, e.g. {'employee'})")
    assert "'intern'" in zh and "['finance_officer', 'p6_employee']" in zh and "{'employee'}" in zh
    assert is_chinese(zh) and english_left(zh) == []


def test_an_unknown_editions_mode_lists_the_modes():
    corpus = load_corpus()
    en, zh = in_both(lambda: in_index(corpus, "2026-06-30", editions="draft"), ValueError)
    assert en == "editions must be one of ['live', 'published'], got 'draft'"
    assert zh.startswith("editions ") and "['live', 'published']" in zh and "'draft'" in zh
    assert is_chinese(zh) and english_left(zh, "editions") == []


def test_a_bare_chunk_id_string_is_a_type_error():
    en, zh = in_both(lambda: permission_filter("INV-102", "p6_employee"), TypeError)
    assert en == "chunks must be a DataFrame or a list of chunk IDs, got the string 'INV-102'"
    assert "'INV-102'" in zh and is_chinese(zh) and english_left(zh, "chunks", "DataFrame") == []


# ------------------------------------------------------------------------------------ retrieval.py
CHUNKS = [{"chunk_id": "a", "text": "市内交通每次 80 元"}, {"chunk_id": "b", "text": "年假 5 天"}]


def test_a_depth_below_one_is_refused_with_its_value():
    en, zh = in_both(lambda: BM25Retriever(CHUNKS).retrieve("市内交通", depth=0), ValueError)
    assert en == "depth must be a positive int or None, got 0"
    assert zh == "depth 必须是正整数或 None，收到的是 0"


@pytest.mark.parametrize("k", [-1, 0, float("nan"), True])
def test_an_rrf_k_the_core_refuses_is_refused_when_the_hybrid_is_built(k):
    retrievers = {"bm25": BM25Retriever(CHUNKS), "vector": VectorRetriever(CHUNKS)}
    en, zh = in_both(lambda: HybridRetriever(retrievers, k=k), ValueError)
    assert en == f"k must be a number > 0 (RRF constant), got {k!r}"
    assert zh.startswith("k ") and "> 0" in zh and zh.endswith(repr(k)) and is_chinese(zh)


@pytest.mark.parametrize("window", [0, None, 2.5])
def test_a_bad_window_is_named_as_the_window_not_a_depth(window):
    retrievers = {"bm25": BM25Retriever(CHUNKS)}
    en, zh = in_both(lambda: HybridRetriever(retrievers, window=window), ValueError)
    assert en.startswith("window must be a positive int") and en.endswith(f"got {window!r}")
    assert zh.startswith("window ") and zh.endswith(repr(window)) and is_chinese(zh)


def test_a_duplicate_chunk_id_is_named():
    en, zh = in_both(lambda: VectorRetriever([CHUNKS[0], CHUNKS[0]]), ValueError)
    assert en == "chunks: duplicate chunk_id 'a'; chunk IDs must be unique"
    assert zh.startswith("chunks：") and "'a'" in zh and is_chinese(zh) and english_left(zh, "chunks") == []


def test_an_unfitted_embedder_says_to_fit_it_first():
    en, zh = in_both(lambda: CharNgramSVDEmbedder()(["市内交通"]), ValueError)
    assert en == "CharNgramSVDEmbedder is not fitted: call .fit(corpus_texts) first"
    assert "CharNgramSVDEmbedder" in zh and ".fit(corpus_texts)" in zh and is_chinese(zh)
    assert english_left(zh, "CharNgramSVDEmbedder", ".fit(corpus_texts)") == []


# ------------------------------------------------------------------------------------ rerank.py
def test_an_unknown_reranker_weight_lists_the_features():
    en, zh = in_both(lambda: LinearReranker({"bm25": 1.0, "freshness": 0.5}), ValueError)
    features = "('bm25', 'cosine', 'rrf', 'exact_id', 'title_overlap', 'text_overlap', 'live', 'memory')"
    assert en == f"unknown feature(s) ['freshness']; features are {features}"
    assert "['freshness']" in zh and features in zh and is_chinese(zh) and english_left(zh) == []


def test_fitting_the_reranker_on_a_holdout_question_is_refused():
    questions = [{"question_id": "Q99", "split": "holdout"}]
    en, zh = in_both(lambda: LinearReranker.fit(questions, {}, {}), ValueError)
    assert en == ("question 'Q99' has split='holdout': the reranker is fitted on the dev split only; "
                  "pass only questions with split == 'dev'")
    assert "'Q99'" in zh and "split='holdout'" in zh and "split == 'dev'" in zh and is_chinese(zh)
    assert english_left(zh, "split") == []


def test_mismatched_feature_matrix_names_the_column_count():
    en, zh = in_both(lambda: LinearReranker.fit_matrix(np.zeros((2, 3)), np.zeros(2)), ValueError)
    assert en == "x must be (rows, 8) and y one label per row"
    assert "(rows, 8)" in zh and is_chinese(zh)


# ------------------------------------------------------------------------------------ generate.py
def test_a_refusal_share_outside_zero_one_is_refused_with_its_value():
    en, zh = in_both(lambda: ExtractiveAnswerer(refuse_below=1.5), ValueError)
    assert en == "refuse_below must be a share in [0, 1], got 1.5"
    assert zh.startswith("refuse_below ") and "[0, 1]" in zh and zh.endswith("1.5") and is_chinese(zh)
    assert english_left(zh) == []


def test_passages_given_as_one_mapping_is_a_type_error():
    passage = {"chunk_id": "a", "text": "80 元"}
    en, zh = in_both(lambda: ExtractiveAnswerer()("住宿标准是多少", passage), TypeError)
    assert en == "passages must be a list of mappings with chunk_id and text, got dict"
    assert zh.startswith("passages ") and zh.endswith("dict") and is_chinese(zh)
    assert english_left(zh, "passages", "text", "dict") == []


def test_a_question_that_is_not_text_is_a_type_error():
    en, zh = in_both(lambda: question_bigrams(42), TypeError)
    assert en == "question must be a str, got int"
    assert zh == "question 必须是 str，收到的是 int"


# ------------------------------------------------------------------------------------ ablation/
def test_a_rerank_depth_below_top_k_names_both_values():
    en, zh = in_both(lambda: AblationConfig(rerank_depth=3, top_k=5), ValueError)
    assert en == "rerank_depth=3 is smaller than top_k=5: keep at least top_k candidates"
    assert "rerank_depth=3" in zh and "top_k=5" in zh and is_chinese(zh) and english_left(zh) == []


def test_a_zero_rrf_constant_is_refused_with_its_value():
    en, zh = in_both(lambda: AblationConfig(k=0), ValueError)
    assert en == "k must be a number > 0 (RRF constant), got 0"
    with pytest.raises(ValueError, match="got inf"):  # the core's rule: k is finite too
        AblationConfig(k=float("inf"))
    assert zh.startswith("k ") and "> 0" in zh and "RRF" in zh and zh.endswith("0") and is_chinese(zh)
    assert english_left(zh, "RRF") == []


def test_a_test_fraction_outside_zero_one_is_refused_with_its_value():
    en, zh = in_both(lambda: leakage_experiment(test_fraction=1.5), ValueError)
    assert en == "test_fraction must be strictly between 0 and 1, got 1.5"
    assert zh.startswith("test_fraction ") and " 0 " in zh and " 1 " in zh and zh.endswith("1.5")
    assert is_chinese(zh) and english_left(zh) == []


def test_a_knob_table_without_its_default_row_is_refused():
    table = pd.DataFrame({"k": [1, 60], "default": [False, False], "diff vs default": [0.04, 0.0],
                          "low": [-0.006, 0.0], "high": [0.10, 0.0]})
    en, zh = in_both(lambda: keep_default_rule(table), ValueError)
    assert en == "the table needs exactly one default row, got 0"
    assert "default" in zh and zh.endswith("0 行") and is_chinese(zh) and english_left(zh, "default") == []
