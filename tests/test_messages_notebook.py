"""The notebook helpers speak the chosen language: the same numbers, the same data, Chinese words under
``use_language("zh")`` and today's English under ``use_language("en")``. (The toy pipeline's errors stay
English, as the core's do: tests/test_pipeline_errors.py.)"""

from __future__ import annotations

import re

import pytest

from ragmath.lab.messages import CATALOGUE, use_language
from ragmath.lab.notebook import selfcheck
from ragmath.lab.notebook.selfcheck import check, hint_key, known_exercises

#: Latin words a Chinese text keeps: metric names, code, IDs (what the glossary keeps in Latin letters).
KEPT = re.compile(r"Recall@\d|Hit@\d|MRR@\d|nDCG@\d|BM25|RRF|None|Fraction")


def english_words(text: str) -> list[str]:
    """The runs of three or more Latin letters left in ``text``, the kept names and ``{fields}`` removed."""
    return re.findall(r"[A-Za-z]{3,}", KEPT.sub("", re.sub(r"\{\w+\}", "", text)))


@pytest.fixture
def zh():
    use_language("zh")


# ------------------------------------------------------------------------------------ the exercises' hints
def test_every_registered_exercise_has_a_hint_in_the_catalogue():
    assert len(known_exercises()) >= 40
    assert [e for e in known_exercises() if hint_key(e) not in CATALOGUE] == []


def test_every_hint_in_the_catalogue_belongs_to_a_registered_exercise():
    hints = {key for key in CATALOGUE if key.startswith("exercises.")}
    assert hints == {hint_key(e) for e in known_exercises()}


def test_a_wrong_answer_gets_its_hint_in_chinese(zh, capsys):
    assert check("02.4", 0.5) is False
    out = capsys.readouterr().out
    assert "还不对（02.4）。提示：" in out and CATALOGUE["exercises.02.4.hint"]["zh"] in out
    assert english_words(out) == []


def test_the_hint_follows_the_language_at_check_time(capsys):
    check("03.1", 0.1)
    use_language("zh")
    check("03.1", 0.1)
    english, chinese = capsys.readouterr().out.splitlines()
    assert "Hint: find the rank of the FIRST relevant ID" in english
    assert "提示：找出前 5 个中第一个相关 ID 的名次" in chinese


@pytest.mark.parametrize(("answer", "words"), [
    (5 / 6, "正确（02.4）。"),
    (0.8, "差一点（02.4）：你的数很接近，方法看来是对的，但没有四舍五入到 2 位小数。"),
    (None, "尚未作答（02.4）：请把 None 换成你的答案。"),
    ("five sixths", "而不是文本 'five sixths'。"),
])
def test_every_verdict_speaks_chinese(zh, capsys, answer, words):
    check("02.4", answer)
    out = capsys.readouterr().out
    assert words in out
    assert english_words(out.replace("five sixths", "")) == []


def test_an_unregistered_exercise_says_not_yet_without_a_hint(capsys):
    selfcheck.register("99.8", lambda: 1, kind="exact")
    try:
        use_language("zh")
        assert check("99.8", 2) is False
    finally:
        selfcheck.REGISTRY.pop("99.8")
    assert capsys.readouterr().out.strip().endswith("还不对（99.8）。\x1b[0m")


def test_a_bad_exercise_id_is_refused_in_chinese(zh):
    with pytest.raises(ValueError, match=r"练习编号形如 '02\.1'.*'2'"):
        check("2", 1)
    with pytest.raises(ValueError, match=r"没有练习 '99\.99'；已有的练习：01\.1, "):
        check("99.99", 1)


# ------------------------------------------------------------------------------------ the labelling widget
def _pool():
    import polars as pl

    return pl.DataFrame({"question": ["q1", "q1"], "id": ["a", "b"]})


def test_the_labelling_widget_takes_the_notebooks_language(zh, tmp_path):
    from ragmath.lab.notebook.labelling import MESSAGES, LabellingWidget

    w = LabellingWidget(_pool(), tmp_path / "l.csv", questions={"q1": "出租车？"},
                        texts={"a": "80 元", "b": "酒店"})
    assert w.text == MESSAGES["zh"]
    assert w.text["grade2"] == "2 能直接回答" and w.text["skip"] == "跳过 (s)"
    assert all(english_words(word) == [] for word in w.text.values())
    w.grade(2)
    w.back()
    w.no_answer()
    assert w.state["message"] == "这个问题已有片段的等级高于 0：请先返回，把它改为 0。"


def test_the_widgets_words_have_the_same_fields_in_both_languages():
    from ragmath.lab.notebook.labelling import MESSAGES

    assert MESSAGES["en"].keys() == MESSAGES["zh"].keys()
    fields = {name: set(re.findall(r"\{(\w+)\}", text)) for name, text in MESSAGES["en"].items()}
    assert fields["progress"] == {"labelled", "total", "item"} and fields["current"] == {"grade"}
    assert {name: set(re.findall(r"\{(\w+)\}", text)) for name, text in MESSAGES["zh"].items()} == fields


def test_an_english_widget_can_still_be_asked_for_in_a_chinese_notebook(zh, tmp_path):
    from ragmath.lab.notebook.labelling import LabellingWidget

    w = LabellingWidget(_pool(), tmp_path / "l.csv", questions={"q1": "taxi?"}, texts={"a": "x", "b": "y"},
                        language="en")
    assert w.text["grade0"] == "0 irrelevant"


@pytest.mark.parametrize(("change", "words"), [
    ({"texts": {}}, "片段 'a' 没有文本"),
    ({"questions": {}}, "问题 'q1' 没有文本"),
    ({"language": "xx"}, "没有语言 'xx' 的文字"),
])
def test_the_labelling_widgets_refusals_speak_chinese(zh, tmp_path, change, words):
    from ragmath.lab.notebook.labelling import LabellingWidget

    arguments = {"questions": {"q1": "问"}, "texts": {"a": "甲", "b": "乙"}, **change}
    with pytest.raises(ValueError, match=words):
        LabellingWidget(_pool(), tmp_path / "l.csv", **arguments)


def test_judgement_errors_speak_chinese(zh, tmp_path):
    import polars as pl

    from ragmath.lab.notebook.judgements import JudgementFile, pool_items

    with pytest.raises(ValueError, match="等级只能是 0、1 或 2，收到的是 3"):
        JudgementFile(tmp_path / "l.csv").set("q1", "a", 3)
    with pytest.raises(ValueError, match=r"池中问题 'q1'、id 'a' 出现了两次"):
        pool_items(pl.DataFrame({"question": ["q1", "q1"], "id": ["a", "a"]}))
    with pytest.raises(ValueError, match=r"缺少 \['id'\]"):
        pool_items(pl.DataFrame({"question": ["q1"]}))


# ------------------------------------------------------------------------------------ diagram, charts, tables
def test_the_diagram_in_chinese_keeps_its_drawing_and_drops_the_english_prose(zh):
    import xml.etree.ElementTree as ET

    from ragmath.lab.notebook.diagram import STAGES, pipeline_diagram

    svg = pipeline_diagram(highlight="rerank").svg
    root = ET.fromstring(svg)
    texts = [element.text for element in root.iter("{http://www.w3.org/2000/svg}text")]
    assert {"离线", "在线", "混合召回", "▲ 本节位置"} <= set(texts)
    assert "you are here" not in svg and "offline" not in svg
    assert root.get("aria-label") == "两阶段 RAG 流程"
    # a box shows its Chinese term alone (the English edition adds the English one beneath); under the
    # boxes of BM25 and RRF stands the name of their method
    assert STAGES["rerank"] == ("rerank", "重排") and "重排" in texts
    assert not ({english for english, _ in STAGES.values()} - {"BM25"}) & set(texts)
    assert texts.index("关键词召回") + 1 == texts.index("BM25")
    assert texts.index("倒数排名融合") + 1 == texts.index("RRF")
    assert repr(pipeline_diagram()) == "<RAG 流程图；标出的环节：无>"
    marked = pipeline_diagram(highlight=["bm25", "rerank"])
    assert repr(marked) == "<RAG 流程图；标出的环节：关键词召回、重排>"


def test_the_diagram_refuses_in_chinese(zh):
    from ragmath.lab.notebook.diagram import pipeline_diagram

    with pytest.raises(ValueError, match="没有环节 'reranker'；可选：parse, chunk"):
        pipeline_diagram(highlight="reranker")


def _comparison():
    from ragmath import compare

    # q1: A finds a at rank 2 (RR 1/2), B at rank 1 (RR 1): +0.5, a win;
    # q2: A finds b at rank 1 (RR 1), B misses q2 (0): -1, a loss
    return compare({"A": {"q1": ["x", "a"], "q2": ["b"]}, "B": {"q1": ["a"]}},
                   {"q1": {"a": 1}, "q2": {"b": 1}}, ["MRR@2"])


def test_the_change_table_shows_chinese_words_and_the_same_numbers(zh):
    from ragmath.lab.notebook.comparing import change_table

    table = change_table(_comparison(), "B", "MRR@2")
    assert list(table.columns) == ["A", "B", "变化", "结果", "备注"]
    assert table["变化"].tolist() == [-1.0, 0.5]
    assert table["结果"].tolist() == ["变差", "变好"]
    assert table["备注"].tolist() == ["某个运行结果（run）中缺失，记 0 分", ""]


def test_the_paired_differences_plot_is_labelled_in_chinese(zh):
    import matplotlib

    matplotlib.use("Agg")
    from ragmath.lab.notebook.comparing import plot_paired_differences

    ax = plot_paired_differences(_comparison(), "B", "MRR@2")
    assert ax.get_xlabel() == "问题（已排序；1 个变好 / 0 个持平 / 1 个变差）"
    assert ax.get_ylabel() == "MRR@2：B − A"
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["95% bootstrap 区间", "均值 -0.250"]  # (0.5 - 1) / 2


def test_the_versions_are_described_in_the_language_chosen_after_import():
    from ragmath.lab.notebook.own_system import VERSIONS

    assert VERSIONS["rrf-k60"] == "RRF of bm25 and vector, k = 60"
    use_language("zh")
    assert VERSIONS["rrf-k60"] == "bm25 与 vector 的倒数排名融合，k = 60"
    assert list(VERSIONS) == ["bm25", "vector", "rrf-k60", "bm25-bigram"]


def test_record_reports_a_system_failure_in_chinese(zh, tmp_path):
    from ragmath.lab.notebook.record import record

    table = record(lambda text: "not a list" if text == "坏" else ["a"], {"q1": "好", "q2": "坏"},
                   tmp_path / "r.trec")
    assert table["error"].tolist() == [
        "", "TypeError: 系统返回的是 str；请返回一个 ID 列表或 (id, score) 对的列表，最好的排在最前"]
    with pytest.raises(ValueError, match=r"没有一个问题得到结果.*（1 个失败；第一个：q2：TypeError"):
        record(lambda text: 3, {"q2": "坏"}, tmp_path / "s.trec")
    with pytest.raises(ValueError, match="depth 必须是正整数"):
        record(lambda text: ["a"], {"q1": "好"}, tmp_path / "t.trec", depth=0)
    with pytest.raises(ValueError, match=r"分数从第 1 位（0.1）升到第 2 位（0.9）"):
        from ragmath.lab.notebook.record import _ranking
        _ranking([("a", 0.1), ("b", 0.9)], None)


def test_item_colours_refuse_in_chinese(zh):
    from ragmath.lab.notebook.plotting import item_colours

    with pytest.raises(TypeError, match="lists：应当是 .*收到的是 str；例如传入 {'BM25'"):
        item_colours("4.2")
