"""The readings in Chinese: the same claims (data, numbers) as in English, the sentences in Chinese.

Covers the top of ragmath/lab/readings.py and its section for notebooks 03, 04, 05b and 06. Each test
reads the same table in both languages: the Claim data must be equal, every decimal and every
"x/n" of the English sentence must be in the Chinese one, and no English word may be left (metric
names, version letters, IDs and tokenizer names stay as they are).
"""

from __future__ import annotations

import re

import pandas as pd
import pytest

from ragmath.lab import readings
from ragmath.lab.ablation import P_HOLM, P_SIGN_FLIP, paired_table, rate_intervals, run_ablation
from ragmath.lab.holdout import frozen_design
from ragmath.lab.messages import use_language
from ragmath.lab.readings import (
    Claim,
    as_markdown,
    compare,
    read_ablation,
    read_first_ranks,
    read_grid,
    read_intervals,
    read_knob,
    read_leakage,
    read_paired,
    read_paraphrase_cases,
    read_rank_one_changes,
    read_repairs,
    read_rerank_entries,
    read_rule_against_frozen,
    read_same_mrr,
    read_term_match,
    read_three_chunks,
    read_tokenizer_ranks,
    read_userdict,
)

NAN = float("nan")
#: Latin text a Chinese reading keeps: metric names, method names, tokenizers, IDs, a file name.
KEPT = re.compile(r"(Recall|Hit|MRR|nDCG)(@\d+)?|BM25|RRF|Oracle|Holm|bootstrap|jieba_plain|jieba|"
                  r"data/config\.json|TRV26-[\w.-]+|INV-\d+")
NUMBERS = re.compile(r"[+-]?\d+\.\d+|\d+/\d+")


@pytest.fixture(scope="module")
def dev():
    return run_ablation(frozen_design())


def _data(claim: Claim) -> str:
    """Everything a claim holds but its sentence (repr, so that NaN equals NaN)."""
    return repr((claim.metric, claim.leaders, dict(claim.values), claim.expected, claim.matches,
                 dict(claim.extra)))


def _both(read, *args, **kwargs) -> tuple[list[Claim], list[Claim]]:
    """The reading in English and in Chinese, checked to be the same claims in two languages."""
    use_language("en")
    en = read(*args, **kwargs)
    use_language("zh")
    zh = read(*args, **kwargs)
    use_language("en")
    en, zh = (x if isinstance(x, list) else [x] for x in (en, zh))
    assert len(en) == len(zh)
    for e, z in zip(en, zh, strict=True):
        assert _data(e) == _data(z)
        assert re.search(r"[\u4e00-\u9fff]", z.sentence), z.sentence
        assert re.findall(r"[A-Za-z]{3,}", KEPT.sub("", z.sentence)) == [], z.sentence
        assert sorted(NUMBERS.findall(z.sentence)) == sorted(NUMBERS.findall(e.sentence)), (e.sentence,
                                                                                              z.sentence)
        assert z.sentence.endswith("。"), z.sentence
    return en, zh


def test_compare_in_chinese_names_leaders_values_and_the_expectation():
    table = pd.DataFrame({"MRR@5": [0.50, 0.75, NAN]}, index=["B", "D", "C"])
    (en,), (zh,) = _both(compare, table, "MRR@5", ["B", "D", "C"], expected=["B"])
    assert zh.sentence == "MRR@5：D 领先（B 0.500、D 0.750、C 无）；文章预期 B 领先，结果不符。"
    assert en.sentence == ("On MRR@5, D leads (B 0.500, D 0.750, C n/a); the article expects B to lead: "
                           "this does not match.")


def test_compare_in_chinese_ties_and_adds_the_callers_reason():
    table = pd.DataFrame({"answer accuracy": [0.6, 0.6]}, index=["C", "D"])
    _, (zh,) = _both(compare, table, "answer accuracy", ["C", "D"], expected=["D"],
                     why={True: "理由。", False: "不会用到。"})
    assert zh.sentence == "答案准确率：C 和 D 并列领先（C 0.600、D 0.600）；文章预期 D 领先，结果相符。理由。"
    assert zh.metric == "answer accuracy"  # the data keeps the table's column


def test_ablation_reading_in_chinese(dev):
    en, zh = _both(read_ablation, dev.table, top_k=5, rerank_depth=5)
    n = int(dev.table.loc["D", "answerable"])
    oracle, d = int(dev.table.loc["Oracle", "answers correct"]), int(dev.table.loc["D", "answers correct"])
    text = as_markdown(zh)
    assert f"Oracle（给定标准证据）答对 {oracle}/{n}，D 答对 {d}/{n}" in text
    assert f"其余 {n - oracle} 道是生成模型自己答错的" in text
    assert "重排模型只对前 5 名重新排序" in text and "答案准确率：" in text and "引用支撑：" in text


def test_ablation_reading_in_chinese_calls_a_recall_difference_a_bug():
    table = pd.DataFrame({"Recall@5": [0.6, 0.5, 0.7, 0.6], "MRR@5": [0.5, 0.4, 0.6, 0.5],
                          "nDCG@5": [0.5, 0.4, 0.6, 0.7]}, index=list("ABCD"))
    _, zh = _both(read_ablation, table, top_k=5, rerank_depth=5)
    assert zh[0].sentence.endswith("融合保留了两路召回各自找到的结果，与文章的预期一致。")
    assert zh[1].sentence.endswith("在这些问题上，重排模型平均而言没有把相关片段往前提。")  # C 0.6 > D 0.5
    assert zh[3].sentence == ("C 的 Recall@5 为 0.700，D 为 0.600：两者不同，而只在前 M 名内重排的重排模型"
                              "不可能造成这种差异，这说明代码有错误。")


def test_first_ranks_in_chinese_count_by_hand():
    ranks = pd.DataFrame({"A": [1, 1, NAN], "B": [2, NAN, 1], "C": [1, 3, 4], "D": [1, 1, 1]},
                         index=["q1", "q2", "q3"])
    _, (at_one, top5, kept) = _both(read_first_ranks, ranks, expected=["A"])
    assert at_one.sentence == ("3 个问题中相关片段排在第 1 名的数目：A 2/3、B 1/3、C 1/3、D 3/3；D 领先；"
                               "文章预期 A 领先，结果不符。")
    assert "排在前 5 名的数目：A 2/3、B 2/3、C 3/3、D 3/3；C 和 D 领先" in top5.sentence
    assert "C 保留了其中 1 个，丢掉了 q2" in kept.sentence


def test_rank_one_changes_in_chinese_when_the_source_has_no_hit():
    ranks = pd.DataFrame({"A": [NAN, 3.0], "C": [2.0, 1.0]}, index=["q1", "q2"])
    _, (claim,) = _both(read_rank_one_changes, ranks, sources=["A"], what="口语化问题")
    assert claim.sentence == ("在 2 个口语化问题中，A 没有把任何相关片段排在第 1 名，所以 C 没有 A 的第 1 名"
                              "命中可保留或丢失。")
    _, (all_kept,) = _both(read_rank_one_changes, ranks, into="A", sources=["C"])
    assert "C 有 1 个把相关片段排在第 1 名" in all_kept.sentence and "丢掉" in all_kept.sentence


def test_grid_reading_in_chinese():
    edges = pd.DataFrame({"best D nDCG@5 at each value": ["0.5, 0.6", "0.5, 0.5", "0.4, 0.5, 0.6"],
                          "position": ["lowest (edge)", "highest (edge)", "inside"], "chosen": [1, 60, 10]},
                         index=["k", "W", "M"])
    grid = pd.DataFrame({"D nDCG@5": [0.5, 0.6, 0.6, 0.4]})
    _, zh = _both(read_grid, edges, grid, "D nDCG@5")
    assert zh[0].sentence.startswith("k = 1 位于网格的最低边缘：最佳值可能在网格之外")
    assert zh[0].sentence.endswith("最佳 D nDCG@5 的变化幅度为 0.100。")
    assert zh[1].sentence.endswith("变化幅度为 0.000（这里它无关紧要）。")
    assert "最高边缘，但曲线是平的" in zh[1].sentence
    assert "M = 10 位于网格内部" in zh[2].sentence
    assert zh[3].sentence.startswith("4 组设置中有 2 组达到开发集上最佳的 D nDCG@5（0.600）")


def test_paired_reading_in_chinese_tells_the_four_cases_apart():
    boot = pd.DataFrame({"comparison": ["D − C", "C − A", "B − A", "A − B"],
                         "mean diff": [0.05, 0.02, 0.01, -0.03], "low": [0.01, -0.03, 0.001, -0.05],
                         "high": [0.09, 0.07, 0.02, 0.01], "questions": [40] * 4, "wins": [10, 9, 3, 2],
                         "ties": [28, 25, 30, 30], "losses": [2, 6, 7, 8],
                         P_SIGN_FLIP: [0.01, 0.4, 0.3, 0.01], P_HOLM: [0.02, 0.4, 0.3, 0.03],
                         "split": ["dev", "dev", "holdout", "dev"]})
    _, zh = _both(read_paired, boot, stored=True)
    assert zh[0].sentence == ("D − C（开发集）：+0.050 [+0.010, +0.090]，共 40 个问题（10 个更好，28 个持平，"
                              "2 个更差；符号翻转检验 p = 0.010，对 4 个比较做 Holm 校正后为 0.020）：区间不"
                              "含 0，"
                              "且 Holm 校正后的 p 低于 0.05，两者可以区分开。")
    assert zh[1].sentence.endswith("区间包含 0，两者无法区分。")
    assert "（保留集）" in zh[2].sentence and "区间不含 0，但 Holm 校正后的 p 不低于 0.05" in zh[2].sentence
    assert "区间包含 0，但 Holm 校正后的 p 低于 0.05" in zh[3].sentence and "没有定论" in zh[3].sentence
    assert "启封" in zh[4].sentence
    _, (single,) = _both(read_paired, boot.iloc[:1].drop(columns="split"))
    assert "符号翻转检验 p = 0.010）：区间不含 0，且 p 低于 0.05" in single.sentence  # no Holm for one row


def test_paired_reading_of_the_dev_run_in_chinese(dev):
    table = paired_table(dev, [("A", "C"), ("C", "D")], "nDCG@5")
    _, zh = _both(read_paired, table)
    for claim, (_, row) in zip(zh, table.iterrows(), strict=True):
        assert f"符号翻转检验 p = {row[P_SIGN_FLIP]:.3f}，对 2 个比较做 Holm 校正后为 {row[P_HOLM]:.3f}" in (
            claim.sentence)


def test_leakage_reading_in_chinese():
    leak = pd.DataFrame({"random: nDCG@5": [0.8, 0.7, 0.9], "grouped: nDCG@5": [0.7, 0.75, 0.6],
                         "random: test questions with a twin in fitting": [3, 4, 5],
                         "random: test questions": [20, 21, 22]})
    leak["difference (random − grouped)"] = leak["random: nDCG@5"] - leak["grouped: nDCG@5"]
    _, (claim,) = _both(read_leakage, leak, "nDCG@5")
    # random mean 0.8, grouped (0.7 + 0.75 + 0.6) / 3 = 0.683, difference +0.117, 2 of 3 seeds higher
    assert "随机划分估计的 nDCG@5 平均为 0.800，分组划分为 0.683：随机划分平均高出 +0.117" in claim.sentence
    assert "3 个种子中有 2 个更高" in claim.sentence
    assert "随机划分的 21 个测试问题中，平均有 4.0 个" in claim.sentence
    _, (short,) = _both(read_leakage, leak.drop(columns="random: test questions"), "nDCG@5")
    assert "平均有 4.0 个测试问题" in short.sentence


def test_interval_reading_in_chinese(dev):
    _, zh = _both(read_intervals, rate_intervals(dev))
    assert {c.sentence.split("：")[0] for c in zh} == {"Hit@5", "答案准确率", "引用支撑", "正确拒答"}
    rates = pd.DataFrame({"version": list("ABC"), "rate": ["answer accuracy"] * 3, "value": [0.5, 0.9, 0.2],
                          "low": [0.4, 0.8, 0.1], "high": [0.85, 0.95, 0.3]})
    _, (claim,) = _both(read_intervals, rates)
    assert claim.sentence == ("答案准确率：B 领先，为 0.900 [0.800, 0.950]；A 的区间与它重叠；"
                              "最宽的区间跨度为 0.450。")


def test_as_markdown_lists_chinese_sentences():
    table = pd.DataFrame({"MRR@5": [0.5, 0.75]}, index=["C", "D"])
    use_language("zh")
    assert as_markdown([compare(table, "MRR@5", ["C", "D"])]) == "- MRR@5：D 领先（C 0.500、D 0.750）。"


def test_repairs_reading_in_chinese():
    _, (claim,) = _both(read_repairs, {"X 排在第 2 名": 0.024, "缺失的 C": 0.185}, "nDCG@3")
    # 0.185 / 0.024 = 7.7
    assert claim.sentence == ("单独修复一处、另一处保持不变时，修复「缺失的 C」让 nDCG@3 提高 0.185，修复「X "
                              "排在第 2 名」"
                              "提高 0.024：「缺失的 C」的代价更大，约为「X 排在第 2 名」的 7.7 倍。")


def test_rerank_entries_in_chinese_count_chunks():
    entries = pd.DataFrame({"entered": [2, 1, 0], "entered relevant": [1, 1, 0], "pushed out": [2, 1, 0],
                            "pushed out relevant": [1, 0, 0]}, index=["q1", "q2", "q3"])
    _, (claim,) = _both(read_rerank_entries, entries, depth=20, top_k=5)
    assert claim.sentence == ("M = 20 时，重排模型把第 6–20 名中的 3 个片段带进了前 5 名（3 个问题中的 2 个）"
                              "；"
                              "其中 2 个是相关的。被它挤出去的 3 个里有 1 个相关的。它在前 5 名之外找到的证据"
                              "比它"
                              "挤出去的多。")
    none = entries.assign(**{"entered relevant": 0})
    _, (wrong,) = _both(read_rerank_entries, none, depth=20, top_k=5)
    assert wrong.sentence.endswith("它提上来的没有一个是证据。")


def test_paraphrase_cases_in_chinese():
    ranks = pd.DataFrame({"text": ["打车超出额度了咋办", "超标打车咋报", "出差买的书能报吗"],
                          "A": [2, NAN, NAN], "B": [1, 3, NAN], "C": [1, 4, NAN], "D": [1, NAN, NAN]})
    _, (article, only_b, none) = _both(read_paraphrase_cases, ranks, "打车超出额度了咋办", 20)
    assert "「打车超出额度了咋办」在这里对 BM25 来说很容易" in article.sentence
    assert only_b.sentence == ("有 1 条口语化改写的问题，BM25 在前 20 名里什么也没找到，向量召回却找到了："
                               "「超标打车咋报」（B 排在 3，C 4）。")
    assert none.sentence.startswith("有 1 条口语化改写的问题在前 20 名里哪个版本都没找到")


def _knob_table(low: float, high: float) -> pd.DataFrame:
    return pd.DataFrame({"k": [1, 60], "D nDCG@5": [0.716, 0.676], "default": [False, True],
                         "diff vs default": [0.04, 0.0], "low": [low, 0.0], "high": [high, 0.0],
                         "questions": [43, 43], "wins": [5, 0], "losses": [4, 0],
                         P_SIGN_FLIP: [0.219, NAN], P_HOLM: [0.219, NAN]})


def test_knob_reading_in_chinese():
    _, (kept,) = _both(read_knob, _knob_table(-0.006, 0.102), 60, frozen=60)
    assert kept.sentence == ("k：在 1、60 这些取值上，开发集 D nDCG@5 的变化幅度为 0.040；最佳的 k = 1（0.716"
                             "）"
                             "减去默认的 k = 60，差值为 +0.040 [-0.006, +0.102]，共 43 个问题（5 个更好，4 个"
                             "更差；"
                             "符号翻转检验 p = 0.219）：区间包含 0，所以规则保留默认值 k = 60。冻结的设计用的"
                             "是 "
                             "k = 60：两者相同。")
    _, (moved,) = _both(read_knob, _knob_table(0.01, 0.08), 1, frozen=60)
    assert "区间不含 0，所以规则放弃默认值，改用 k = 1。" in moved.sentence
    assert moved.sentence.endswith("规则的选择与之不同。")
    _, (edge,) = _both(read_knob, _knob_table(0.0, 0.08), 60)
    assert "区间的一端正好落在 0 上" in edge.sentence


def test_rule_against_frozen_in_chinese():
    _, (same,) = _both(read_rule_against_frozen, {"k": 60, "M": 5}, {"k": 60, "M": 5})
    assert same.sentence == "在每个参数上，规则选的都和冻结的设计一样。"
    _, (differs,) = _both(read_rule_against_frozen, {"k": 1, "M": 10}, {"k": 60, "M": 5})
    assert differs.sentence.startswith(
        "规则在 k 和 M 上的选择与冻结的设计不同：k = 1（冻结值：60）、M = 10（冻结值：5）。")
    assert "规则选出的设计（k = 1、M = 10）" in differs.sentence


def test_term_match_in_chinese():
    shared = pd.DataFrame({"shared": {"jieba_plain": ["交通"], "jieba": ["市内交通"]}})
    _, (claim,) = _both(read_term_match, shared, "市内")
    assert claim.sentence == ("对照文本，「市内」在 jieba 下能匹配上（有一个共有的词包含它）；在 jieba_plain "
                              "下则不能。")
    _, (nowhere,) = _both(read_term_match, shared.loc[["jieba_plain"]], "市内", where="条款正文")
    assert nowhere.sentence.startswith("对照条款正文，「市内」在哪个分词器下都匹配不上")


def test_tokenizer_ranks_in_chinese():
    ranks = pd.DataFrame({"jieba_plain": [1.0, 2.0, NAN], "jieba": [1.0, 1.0, 3.0]}, index=["q1", "q2", "q3"])
    means = pd.DataFrame({"MRR@5": [0.5, 0.625]}, index=["jieba_plain", "jieba"])
    _, (moved, by_tokenizer) = _both(read_tokenizer_ranks, ranks, means, what="条款 4.2")
    assert moved.sentence == ("条款 4.2：对 q1，A 下的最佳名次在每个分词器下都一样；名次有变化的是 "
                              "q2：jieba_plain 2、jieba 1；q3：jieba_plain —、jieba 3。")
    assert by_tokenizer.sentence == ("A 在开发集上按分词器的 MRR@5：jieba_plain 0.500、jieba 0.625（极差 0.12"
                                     "5）。")


def test_three_chunks_in_chinese():
    scores = pd.DataFrame({"jieba_plain": [1.0, 2.0, 3.0], "jieba": [3.0, 2.0, 1.0]},
                          index=["TRV26-4.2-a", "TRV26-4.3", "INV-110"])
    _, (claim,) = _both(read_three_chunks, scores, "TRV26-4.2-a", "市内交通超出标准")
    assert claim.sentence == ("对查询「市内交通超出标准」，在这 3 个片段中，BM25 对 TRV26-4.2-a 的名次："
                              "在 jieba_plain 下排第 3、在 jieba 下排第 1；在 jieba_plain 下垫底，在 jieba 下"
                              "排第一。"
                              "这里由分词器决定。")


def test_userdict_in_chinese():
    entries = pd.DataFrame({"texts where the entry changes the cut": [2, 0, 1]},
                           index=["市内交通", "超标", "INV-102"])
    _, (claim,) = _both(read_userdict, entries)
    assert claim.sentence == ("在 3 个词条中，有 2 个改变了 jieba 对本语料中至少一个片段或问题的切分（市内交"
                              "通、INV-102）；"
                              "其余 1 个在这里什么也没改变（超标）：不带用户词典的 jieba 本来就这样切分这些文"
                              "本，"
                              "或者没有文本含有这个词。")


def test_same_mrr_in_chinese():
    """S1 and S2 both rank the first evidence at 1 and 2: MRR@3 = 0.75; Recall@3 7/12 against 1."""
    table = pd.DataFrame({"MRR@3": [0.75, 0.75], "Recall@3": [7 / 12, 1.0]}, index=["S1", "S2"])
    _, (claim,) = _both(read_same_mrr, table)
    assert claim.sentence == ("S1 和 S2 的 MRR@3 相同（0.750），但 Recall@3 相差 0.417：MRR 只看每个问题的"
                              "第一条相关结果，看不到其余的。")


def test_shared_helpers_follow_the_language():
    """_fmt, _names and _count are used by the 07 and 08 sections too."""
    assert (readings._fmt(NAN), readings._names(["C", "D"]), readings._count(2, "chunk")) == (
        "n/a", "C and D", "2 chunks")
    use_language("zh")
    assert (readings._fmt(NAN), readings._names(["A", "B", "C"]), readings._count(2, "个片段")) == (
        "无", "A、B 和 C", "2 个片段")
    assert readings._fmt(0.12345, 2) == "0.12"
