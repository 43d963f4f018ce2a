"""The notebook helpers and the pipeline speak the chosen language: the same numbers, the same data,
Chinese words under ``use_language("zh")`` and today's English under ``use_language("en")``."""

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


@pytest.fixture(autouse=True)
def _english_afterwards():
    yield
    use_language("en")


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
    assert "提示：找出前 5 个中第一个相关 ID 的排名" in chinese


@pytest.mark.parametrize(("answer", "words"), [
    (5 / 6, "正确（02.4）。"),
    (0.8, "差一点（02.4）：你的数很接近，方法看来是对的，但没有四舍五入到 2 位小数。"),
    (None, "还不对（02.4）：请把 None 换成你的答案。"),
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
        selfcheck._REGISTRY.pop("99.8")
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
    assert w.text["grade2"] == "2 直接回答" and w.text["skip"] == "跳过 (s)"
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
