"""Pipeline stages: tokenizer, BM25, vector retriever, reranker, extractive answerer.

Expected values are worked by hand from the chunk texts (e.g. 118.5 − 80 = 38.5), never copied
from what the code printed.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ragmath.lab.corpus import load_corpus
from ragmath.lab.workbook import (
    FEATURES,
    Answer,
    BM25Retriever,
    CharNgramSVDEmbedder,
    ExtractiveAnswerer,
    FeatureExtractor,
    HybridRetriever,
    LinearReranker,
    VectorRetriever,
    answer_is_correct,
    as_chunk_records,
    available_tokenizers,
    get_tokenizer,
    support,
)

TINY = [
    {"chunk_id": "INV-102", "title": "单据 INV-102", "text": "INV-102 可报销金额 1300 元"},
    {"chunk_id": "INV-103", "title": "单据 INV-103", "text": "INV-103 可报销金额 620 元"},
    {"chunk_id": "INV-120", "title": "单据 INV-120", "text": "INV-120 可报销金额 1500 元"},
    {"chunk_id": "T-4.2-a", "title": "市内交通", "text": "上海市内交通每次 80 元"},
    {"chunk_id": "T-4.2-b", "title": "超标处理", "text": "市内交通费用超出标准的，超出部分须主管审批"},
    {"chunk_id": "L-1", "title": "年假", "text": "年休假 5 天"},
]


@pytest.fixture(scope="module")
def corpus() -> pd.DataFrame:
    return load_corpus()


def _chunks(corpus: pd.DataFrame, *ids: str) -> list[dict]:
    by_id = {r["chunk_id"]: r for r in corpus.to_dict("records")}
    return [dict(by_id[i]) for i in ids]


# --- tokenizer ------------------------------------------------------------------------------


def test_jieba_tokenizer_keeps_invoice_id_whole():
    tokens = get_tokenizer("jieba")("INV-102 能报多少")
    assert "inv-102" in tokens
    assert "102" not in tokens and "inv" not in tokens


def test_plain_jieba_splits_the_invoice_id():
    tokens = get_tokenizer("jieba_plain")("INV-102 能报多少")
    assert "inv-102" not in tokens and "102" in tokens


def test_user_dictionary_makes_shanghai_local_transport_match_the_query():
    doc = get_tokenizer("jieba")("上海市内交通每次 80 元")
    query = get_tokenizer("jieba")("市内交通费用超出标准")
    assert set(doc) & set(query) == {"市内交通"}
    plain_doc = get_tokenizer("jieba_plain")("上海市内交通每次 80 元")
    plain_query = get_tokenizer("jieba_plain")("市内交通费用超出标准")
    assert "市内" not in plain_doc and "市内" in plain_query


def test_bigram_tokenizer_emits_overlapping_pairs():
    assert get_tokenizer("bigram")("超出标准") == ["超出", "出标", "标准"]


def test_unknown_tokenizer_is_named_in_the_error():
    with pytest.raises(ValueError, match="'spacy'.*bigram"):
        get_tokenizer("spacy")
    assert set(available_tokenizers()) == {"jieba", "jieba_search", "jieba_plain", "bigram"}


def test_tokenizer_rejects_non_string():
    with pytest.raises(TypeError, match="str"):
        get_tokenizer("jieba")(["INV-102"])


# --- retrievers -------------------------------------------------------------------------------


def test_bm25_finds_the_exact_invoice_first_and_only_matching_chunks():
    ranking = BM25Retriever(TINY).retrieve("INV-102 能报多少")
    assert [c for c, _ in ranking] == ["INV-102"]


def test_bm25_ties_break_by_chunk_id_ascending():
    twins = [{"chunk_id": "b", "text": "年假 5 天"}, {"chunk_id": "a", "text": "年假 5 天"},
             {"chunk_id": "c", "text": "出差 住宿"}]
    ranking = BM25Retriever(twins).retrieve("年假")
    assert [c for c, _ in ranking] == ["a", "b"]
    assert ranking[0][1] == ranking[1][1]


def test_duplicate_chunk_ids_are_refused():
    with pytest.raises(ValueError, match="duplicate chunk_id 'a'"):
        BM25Retriever([{"chunk_id": "a", "text": "x"}, {"chunk_id": "a", "text": "y"}])


def test_vector_retriever_ranks_every_chunk_and_repeats_itself():
    v1 = VectorRetriever(TINY)
    v2 = VectorRetriever(TINY)
    r1 = v1.retrieve("市内交通超出标准")
    assert sorted(c for c, _ in r1) == sorted(r["chunk_id"] for r in TINY)
    assert r1 == v2.retrieve("市内交通超出标准")
    assert r1[0][0] in {"T-4.2-a", "T-4.2-b"}


def test_embedder_must_be_fitted_first():
    with pytest.raises(ValueError, match="fit"):
        CharNgramSVDEmbedder()(["x"])


def test_custom_embedder_is_accepted_as_a_plain_callable():
    def one_hot(texts):  # a reader's "model": 1 if the text mentions 年假
        return np.array([[1.0, 0.0] if "年假" in t else [0.0, 1.0] for t in texts])

    v = VectorRetriever(TINY, embedder=one_hot)
    assert v.retrieve("年假", depth=1)[0][0] == "L-1"


def test_hybrid_retriever_holds_only_its_inputs_chunks():
    visible = [r for r in TINY if r["chunk_id"] != "INV-102"]
    hybrid = HybridRetriever({"bm25": BM25Retriever(visible), "vector": VectorRetriever(visible)},
                             k=60, window=5)
    ids = [c for c, _ in hybrid.retrieve("INV-102 能报多少")]
    assert "INV-102" not in ids and "INV-102" not in hybrid.chunk_ids


def test_as_chunk_records_does_not_mutate_input():
    rows = [dict(r) for r in TINY]
    recs = as_chunk_records(rows)
    recs[0]["text"] = "changed"
    assert rows[0]["text"] == TINY[0]["text"]


# --- generator ---------------------------------------------------------------------------------


def test_extractive_answerer_gets_38_5_for_the_118_5_fare_given_clause_4_2(corpus):
    question = "我在上海出差打车一次花了 118.5 元，超出标准多少？超出的部分怎么处理？"
    passages = _chunks(corpus, "TRV26-4.2-a", "TRV26-4.2-b")
    answer = ExtractiveAnswerer(refuse_below=0.1, as_of="2026-06-30")(question, passages)
    assert not answer.refused
    assert answer.number == pytest.approx(38.5)  # 118.5 − 80 (clause 4.2-a: 80 元 per trip)
    assert "TRV26-4.2-a" in answer.citations


def test_answerer_prefers_the_live_edition_over_the_2025_one(corpus):
    passages = _chunks(corpus, "TRV25-4.2-a", "TRV26-4.2-a")
    answer = ExtractiveAnswerer(refuse_below=0.1, as_of="2026-06-30")(
        "上海市内交通每次的报销标准是多少？", passages
    )
    assert answer.number == 80.0 and answer.citations[0] == "TRV26-4.2-a"


def test_answerer_reads_the_lodging_table_cell(corpus):
    answer = ExtractiveAnswerer(refuse_below=0.1, as_of="2026-06-30")(
        "P8 去成都出差，每晚住宿能报多少？", _chunks(corpus, "TRV26-5.2")
    )
    assert answer.number == 700.0  # 二线城市 (成都) × P8 及以上


def test_answerer_refuses_when_the_evidence_is_weak():
    answer = ExtractiveAnswerer(refuse_below=0.5)("公司食堂周末开不开？", [TINY[5]])
    assert answer.refused and answer.citations == () and answer.number is None


def test_answerer_refuses_an_invoice_question_given_only_a_neighbour():
    assert support("INV-102 能报多少", "INV-103 可报销金额 620 元") == 0.0
    answer = ExtractiveAnswerer(refuse_below=0.1)("INV-102 能报多少", [TINY[1]])
    assert answer.refused


def test_answer_judged_wrong_when_the_arithmetic_is_wrong():
    wrong = Answer("超出 18.5 元", 18.5, ("TRV26-4.2-a",), False)
    assert not answer_is_correct(wrong, gold_number=38.5, grades={"TRV26-4.2-a": 2})


def test_bad_passages_are_refused():
    with pytest.raises(ValueError, match=r"passages\[0\]"):
        ExtractiveAnswerer()("问题", [{"id": "x"}])


# --- reranker ----------------------------------------------------------------------------------


def _features_for(question: str) -> pd.DataFrame:
    fx = FeatureExtractor(TINY, BM25Retriever(TINY), VectorRetriever(TINY), as_of="2026-06-30")
    return fx(question, ["INV-103", "INV-102", "T-4.2-a"])


def test_reranker_refuses_holdout_questions_for_fitting():
    feats = {"q1": _features_for("INV-102 能报多少")}
    qrels = {"q1": {"INV-102": 2}}
    with pytest.raises(ValueError, match="q1.*holdout.*dev"):
        LinearReranker.fit([{"question_id": "q1", "split": "holdout"}], feats, qrels)


def test_reranker_fitted_on_dev_moves_the_exact_id_up():
    feats = {"q1": _features_for("INV-102 能报多少"), "q2": _features_for("INV-103 能报多少")}
    qrels = {"q1": {"INV-102": 2}, "q2": {"INV-103": 2}}
    dev = [{"question_id": "q1", "split": "dev"}, {"question_id": "q2", "split": "dev"}]
    model = LinearReranker.fit(dev, feats, qrels)
    assert model.rerank(feats["q1"])[0][0] == "INV-102"
    assert model.fitted_on == ("q1", "q2")


def test_reranking_keeps_the_same_candidates():
    feats = _features_for("市内交通超标")
    reranked = LinearReranker({"bm25": 1.0}).rerank(feats)
    assert sorted(c for c, _ in reranked) == sorted(feats.index)
    assert list(feats.columns) == list(FEATURES)


def test_jieba_cache_is_not_written_into_the_repository():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    get_tokenizer("jieba")("市内交通")
    get_tokenizer("jieba_plain")("市内交通")
    assert not list(root.glob("jieba*.cache")) and not list((root / "data").glob("*.cache"))


def test_memory_feature_by_hand_never_remembers_the_question_itself():
    """RerankStage's memory is max sim(q, f) over the bank's questions f != q labelling the candidate."""
    from ragmath.lab.workbook import RerankStage, question_similarity

    texts = {"q": "市内交通超标怎么办", "f": "市内交通超出标准多少", "g": "住宿超标了"}
    labels = {"q": {"a": 2}, "f": {"a": 1}, "g": {"b": 2}}
    candidates = {"q": ["a", "b", "c"], "f": ["a"], "g": ["b"]}
    matrices = {x: np.zeros((len(c), len(FEATURES))) for x, c in candidates.items()}
    stage = RerankStage(candidates, matrices, dict.fromkeys(texts, "dev"), {x: x for x in texts}, texts,
                        labels, 1.0)
    f_sim, g_sim = question_similarity(texts["q"], texts["f"]), question_similarity(texts["q"], texts["g"])
    assert 0 < g_sim < f_sim < 1
    # a: q itself labels it (never remembered), f at f_sim; b: g at g_sim; c: nobody
    assert stage.features("q", ["q", "f", "g"])["memory"].tolist() == [f_sim, g_sim, 0.0]
    assert stage.features("q", ["q", "g"])["memory"].tolist() == [0.0, g_sim, 0.0]
    assert stage.features("q", ["q"])["memory"].tolist() == [0.0, 0.0, 0.0]


def test_question_similarity_by_hand():
    from ragmath.lab.workbook import question_similarity

    # 打车超标 vs 出租车超标: characters {打, 车, 超, 标} and {出, 租, 车, 超, 标}: 3 shared of 6
    assert question_similarity("打车超标", "出租车超标") == pytest.approx(3 / 6)
    assert question_similarity("INV-102 能报多少", "INV-102 可以报销吗") > 0
    assert question_similarity("INV-102 能报多少", "INV-103 能报多少") == 0.0


def test_feature_matrix_equals_the_table_and_memory_fills_its_column():
    fx = FeatureExtractor(TINY, BM25Retriever(TINY), VectorRetriever(TINY), as_of="2026-06-30")
    cands = ["INV-103", "INV-102", "T-4.2-a"]
    table = fx("INV-102 能报多少", cands, memory=[0.0, 0.5, 0.25])
    assert table["memory"].tolist() == [0.0, 0.5, 0.25]
    assert table["rrf"].tolist() == [1.0, 0.5, pytest.approx(1 / 3)]
    assert (fx.matrix("INV-102 能报多少", cands, [0.0, 0.5, 0.25]) == table.to_numpy()).all()
    with pytest.raises(ValueError, match="memory has 1 values for 3 candidates"):
        fx("INV-102 能报多少", cands, memory=[0.1])


def test_fused_ids_agree_with_ragmath_rrf():
    from ragmath import rrf
    from ragmath.lab.workbook import HybridRetriever

    lists = {"bm25": ["a", "b", "c", "d"], "vector": ["c", "a", "e", "b"]}
    for k in (0.5, 1, 3, 60):
        for window in (1, 2, 3, 4):
            hybrid = HybridRetriever({"x": BM25Retriever(TINY)}, k=k, window=window)
            expected = list(rrf(lists, k=k, window=window)["id"])
            assert hybrid.fused_ids(lists) == expected, (k, window)
