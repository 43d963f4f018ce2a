"""Notebook 08 (your own system): the readings after its tables, for the workbook's stand-in files
(``MY_FILES = None``: the four versions recorded by ``workbook_files``, the prepared judgements, nobody judging
in the widget). Each check recomputes its numbers through the public functions the notebook calls."""

# ruff: noqa: E501 - the sentences stand as the notebooks write them (Chinese characters count double)

from __future__ import annotations

import functools
import re

from claims import Claim, Shown, top


@functools.cache
def files():
    """The stand-in's files read, the groups, the split, the pool and the labels, as sections 1-5 make them."""
    import tempfile
    from pathlib import Path

    from ragmath import grouped_split
    from ragmath.comparison import pool
    from ragmath.io import read_qrels
    from ragmath.lab.notebook.own_system import (
        POOL_DEPTH,
        PREPARED_JUDGEMENTS,
        labels_from,
        load_own_files,
        question_groups,
        workbook_files,
    )

    mine = load_own_files(workbook_files(Path(tempfile.mkdtemp(prefix="claims-nb08-"))))
    group = question_groups(mine.questions)
    working, held = grouped_split(list(mine.questions["question_id"]), group, holdout=1 / 3, seed=0)
    to_label = pool(mine.runs, POOL_DEPTH, qrels=mine.labels)
    labels, sources = labels_from(to_label, {}, read_qrels(PREPARED_JUDGEMENTS))
    return mine, group, working, held, to_label, labels, sources


@functools.cache
def working_side():
    from ragmath.lab.notebook.own_system import labels_for, runs_for

    mine, _, working, _, _, labels, _ = files()
    return runs_for(mine.runs, working), labels_for(labels, working)


@functools.cache
def comparison():
    from ragmath import compare

    runs, labels = working_side()
    return compare(runs, labels, ["Recall@5", "nDCG@5"], baseline="bm25", seed=0)


def _rows():
    result = comparison()
    return result.comparisons[result.comparisons["metric"] == "nDCG@5"].set_index("system")


def check_split(shown: Shown) -> dict[str, str]:
    """"the 54 questions form 40 groups; your holdout is h questions in g groups (0 groups on both sides) … the other w"."""
    mine, group, working, held, _, _, _ = files()
    both = {group[q] for q in working} & {group[q] for q in held}
    assert not both
    shown.shows("8c2bf02e", f"{len(set(group.values()))} ")
    en = shown.language == "en"
    n, groups, held_groups = len(group), len(set(group.values())), len({group[q] for q in held})
    return {"n": f"the {n} questions form {groups} groups" if en else f"{n} 道问题分成 {groups} 个分组",
            "held": f"{len(held)} questions in {held_groups} groups" if en else f"{held_groups} 个分组中的 {len(held)} 道问题",
            "both": f"{len(both)} groups" if en else f"{len(both)} 个分组",
            "sections": "sections 6 to 8" if en else "第 6 到 8 节", "label": "section 5" if en else "第 5 节",
            "open": "section 9" if en else "第 9 节", "working": f"other {len(working)}" if en else f"其余 {len(working)} 道"}


def check_latency(shown: Shown) -> dict[str, str]:
    """"The four versions asked n questions each, and no question failed"; no latency number is written."""
    from ragmath.lab.notebook.own_system import latency_tables

    mine = files()[0]
    tables = latency_tables(mine.runs)
    assert len(tables) == len(mine.runs) == 4
    assert all(len(t) == len(mine.questions) and (t["error"] == "").all() for t in tables.values())
    rows = re.findall(r"^(\S+)\s+(\d+)\s+\S+\s+\S+\s+(\d+)\s*$", shown.output("9751eb54"), re.MULTILINE)
    assert {v: (int(n), int(f)) for v, n, f in rows} == {v: (len(mine.questions), 0) for v in mine.runs}
    return {"versions": "The four versions" if shown.language == "en" else "四个版本",
            "questions": f"{len(mine.questions)} "}


def check_pool(shown: Shown) -> dict[str, str]:
    """"The pool of the four versions' top 10: i items to label for q questions (lo to hi a question), h of them for the holdout"."""
    _, _, _, held, to_label, _, _ = files()
    per_question = to_label.groupby("question").size()
    en = shown.language == "en"
    return {"depth": "top 10" if en else "前 10 名", "items": f"{len(to_label)} ", "questions": f"{per_question.size} ",
            "range": f"{per_question.min()} to {per_question.max()}" if en else f"{per_question.min()} 到 {per_question.max()}",
            "held": f"{int(to_label['question'].isin(held).sum())} ", "four": "four" if en else "四个"}


def check_labels(shown: Shown) -> dict[str, str]:
    """"Nobody judged in the widget …, so all n come from the prepared judgements and 0 are left unjudged"."""
    sources = files()[6]
    assert sources["by hand"] == 0
    return {"n": f"{sources['prepared']} ", "left": f"{sources['not judged']} "}


CLAIMS = [
    Claim("split", "acab0eba",
          en="With the stand-in, the 54 questions form 40 groups; your holdout is 19 questions in 16 groups (0 groups on both sides). It is labelled with the others in section 5, sealed there, and opened once in section 9; sections 6 to 8 use the other 35 questions only.",
          zh="用替代文件时，54 道问题分成 40 个分组；你的保留集是 16 个分组中的 19 道问题（0 个分组两边都有）。它和其余问题一起在第 5 节标注、在那里封存，到第 9 节只启封一次；第 6 到 8 节只用其余 35 道问题。",
          check=check_split),
    Claim("latency", "13869096",
          en="The four versions asked 54 questions each, and no question failed.",
          zh="四个版本各回答了 54 道问题，没有问题失败。",
          check=check_latency,
          scope="'no question failed': every question of every version the latency table counts"),
    Claim("pool", "0963a636",
          en="The pool of the four versions' top 10: 967 items to label for 54 questions (10 to 31 a question), 321 of them for the holdout.",
          zh="四个版本各自前 10 名组成的池：54 道问题共有 967 个条目要标注（每道问题 10 到 31 个），其中 321 个属于保留集。",
          check=check_pool),
    Claim("labelling", "26386d72",
          en="Nobody judged in the widget (the notebook ran top to bottom without a person), so all 967 come from the prepared judgements and 0 are left unjudged.",
          zh="没有人在控件里做判断（笔记本在无人操作时从头运行到尾），所以全部 967 条都来自预先准备的判断，尚未判断的是 0 条。",
          check=check_labels),
]


@functools.cache
def bias_table():
    """Section 6's table: the four versions under the pool of bm25, of bm25 and vector, of every version, and
    under the workbook's relevant-only labels (English names)."""
    from ragmath.comparison import pool
    from ragmath.lab.corpus import load_dataset
    from ragmath.lab.notebook.own_system import POOL_DEPTH, labels_within, pooling_bias, relevant_only_labels

    runs, labels = working_side()
    working = files()[2]
    sets = {"bm25": labels_within(labels, pool({"bm25": runs["bm25"]}, POOL_DEPTH)),
            "bm25+vector": labels_within(labels, pool({v: runs[v] for v in ("bm25", "vector")}, POOL_DEPTH)),
            "every": labels, "relevant": relevant_only_labels(load_dataset(), working)}
    return pooling_bias(runs, sets, ["Recall@5", "nDCG@5"], baseline="bm25")


def _f(x: float) -> str:
    return f"{x:.3f}"


def _signed(x: float) -> str:
    return f"{x:+.3f}"


def check_bias_partial(shown: Shown) -> dict[str, str]:
    """Under the pool of bm25 and vector, bm25-bigram's Judged@5 is below 0.9 × bm25's (compare's warning); its
    nDCG@5 there and under every version's pool."""
    b = bias_table()
    j_base, j_new = b.loc[("bm25+vector", "bm25"), "Judged@5"], b.loc[("bm25+vector", "bm25-bigram"), "Judged@5"]
    assert j_new < 0.9 * j_base
    assert all(b.loc[("bm25+vector", v), "Judged@5"] >= 0.9 * j_base for v in ("vector", "rrf-k60"))
    partial, full = b.loc[("bm25+vector", "bm25-bigram"), "nDCG@5"], b.loc[("every", "bm25-bigram"), "nDCG@5"]
    return {"judged": f"Judged@5 is {_f(j_new)}" if shown.language == "en" else f"Judged@5 是 {_f(j_new)}",
            "threshold": f"0.9 × {_f(j_base)} = {_f(0.9 * j_base)}", "moves": f"{_f(partial)} → {_f(full)}",
            "metric": "nDCG@5"}


def check_bias_single(shown: Shown) -> dict[str, str]:
    """Each version's nDCG@5 − bm25 under the pool of bm25 alone (and under every version's pool): every one lower;
    the one that drops the most, its Judged@5 under bm25's pool (below a half) and under every version's."""
    b = bias_table()
    en = shown.language == "en"
    sep = ", " if en else "、"
    parts, drops = [], {}
    for v in ("vector", "rrf-k60", "bm25-bigram"):
        single, full = b.loc[("bm25", v), "nDCG@5 − bm25"], b.loc[("every", v), "nDCG@5 − bm25"]
        assert single < full
        drops[v] = full - single
        parts.append(f"{v} {_signed(single)} ({_signed(full)})" if en else f"{v} {_signed(single)}（{_signed(full)}）")
    most = max(drops, key=drops.get)
    single_j, full_j = b.loc[("bm25", most), "Judged@5"], b.loc[("every", most), "Judged@5"]
    assert single_j < 0.5  # "more than half of its top 5 was never labelled"
    return {"list": sep.join(parts), "metric": "nDCG@5 − bm25", "top5": top(5, shown.language),
            "most": f"{most} pays the most" if en else f"吃亏最多的是 {most}",
            "judged": f"Judged@5 is {_f(single_j)} ({_f(full_j)} under every version's pool)" if en
            else f"Judged@5 是 {_f(single_j)}（所有版本的池下是 {_f(full_j)}）"}


def check_bias_relevant(shown: Shown) -> dict[str, str]:
    """Judged@5 under the relevant-only labels (lowest to highest) against every version's pool; nDCG@5 higher
    under the pool for every version; the differences from bm25 move by at most m."""
    b = bias_table()
    versions = ["bm25", "vector", "rrf-k60", "bm25-bigram"]
    rel = [b.loc[("relevant", v), "Judged@5"] for v in versions]
    pooled = [b.loc[("every", v), "Judged@5"] for v in versions]
    pairs = []
    for v in versions:
        p, r = b.loc[("every", v), "nDCG@5"], b.loc[("relevant", v), "nDCG@5"]
        assert p > r
        pairs.append(f"{v} {_f(p)} → {_f(r)}")
    assert max(rel) < 0.5  # "on average less than half of a top 5 is labelled"
    moved = max(abs(b.loc[("every", v), "nDCG@5 − bm25"] - b.loc[("relevant", v), "nDCG@5 − bm25"]) for v in versions)
    en = shown.language == "en"
    return {"rel": f"{_f(min(rel))} to {_f(max(rel))}" if en else f"{_f(min(rel))} 到 {_f(max(rel))}",
            "pooled": f"{_f(min(pooled))} to {_f(max(pooled))}" if en else f"{_f(min(pooled))} 到 {_f(max(pooled))}",
            "pairs": (", " if en else "、").join(pairs), "moved": _f(moved), "metric": "nDCG@5", "judged": "Judged@5",
            "top5": "top 5" if en else "前 5 名", "top10": "top 10" if en else "前 10 名"}


def check_comparison(shown: Shown) -> dict[str, str]:
    """Exactly one version better than bm25 on nDCG@5 after Holm at 0.05 (its difference, interval, Holm p, wins and
    losses); the others' intervals include 0 (their differences and Holm p); the rule's candidate."""
    rows = _rows()
    better = [str(v) for v, r in rows.iterrows() if r["diff"] > 0 and r["p_holm"] < 0.05 and r["low"] > 0]
    assert len(better) == 1  # "one version is better"
    (winner,), others = better, [str(v) for v in rows.index if v != better[0]]
    assert all(rows.loc[v, "low"] <= 0 <= rows.loc[v, "high"] for v in others)  # "include 0"
    w = rows.loc[winner]
    candidate = str(rows["diff"].idxmax())
    en = shown.language == "en"
    interval = f"{w['diff']:+.3f} [{w['low']:+.3f}, {w['high']:+.3f}]"
    holm = (" and " if en else " 和 ").join(f"{rows.loc[v, 'p_holm']:.3f}" for v in others)
    if en:
        said = f"{winner}, {interval} (Holm p {w['p_holm']:.3f}), with {int(w['wins'])} wins and {int(w['losses'])} losses"
        rest = " and ".join(f"{v} ({rows.loc[v, 'diff']:+.3f})" for v in others) + f" include 0 (Holm p {holm})"
    else:
        said = f"{winner}，{interval}（Holm 校正后的 p 为 {w['p_holm']:.3f}），{int(w['wins'])} 道变好、{int(w['losses'])} 道变差"
        rest = "和 ".join(f"{v}（{rows.loc[v, 'diff']:+.3f}）" for v in others) + f"的区间都包含 0（Holm 校正后的 p 为 {holm}）"
    return {"better": said, "rest": rest, "level": "5 % level" if en else "5% 水平", "metric": "nDCG@5",
            "candidate": f"That is {candidate} ({rows.loc[candidate, 'diff']:+.3f})" if en
            else f"那就是 {candidate}（{rows.loc[candidate, 'diff']:+.3f}）"}


def check_report(shown: Shown) -> dict[str, str]:
    """"The comparison, r table rows and n notes on what it rests on, is in …/compare_report.md"."""
    lines = comparison().to_markdown().splitlines()
    rows = sum(1 for line in lines if line.startswith("| ")) - 1  # the header row is not a row of the table
    notes = sum(1 for line in lines if line.startswith("- "))
    en = shown.language == "en"
    shown.shows("dbfe827e", f"{rows} table rows, {notes} notes" if en else f"{rows} 行表格，{notes} 条说明")
    return {"rows": f"{rows} table rows" if en else f"{rows} 行表格", "notes": f"{notes} notes" if en else f"{notes} 条"}


def check_plan(shown: Shown) -> dict[str, str]:
    """The candidate's row of the plan (pilot sd, questions for 0.05 at 80% power, what 30 detect, what the
    observed difference needs) and the resampled power, computed as the cells compute them."""
    from statistics import NormalDist

    import numpy as np

    from ragmath.lab.notebook.own_system import plan_table

    result = comparison()
    candidate = str(_rows()["diff"].idxmax())
    row = plan_table(result, "nDCG@5", 0.05).loc[candidate]
    n = int(row["questions to detect 0.05"])
    pilot = (result.per_question[candidate]["nDCG@5"] - result.per_question["bm25"]["nDCG@5"]).to_numpy()
    draws = (pilot - pilot.mean() + 0.05)[np.random.default_rng(0).integers(0, pilot.size, size=(4_000, n))]
    z = draws.mean(axis=1) / (draws.std(axis=1, ddof=1) / np.sqrt(n))
    power = float(np.mean(np.abs(z) > NormalDist().inv_cdf(0.975)))
    assert 0.8 < power < 0.85  # "close to the formula's 80%"
    assert row["mean difference"] > row["smallest difference 30 questions detect"]  # "above that"
    en = shown.language == "en"
    return {"sd": f"{row['sd of differences']:.3f}", "pilot": f"{int(row['pilot questions'])} ", "needs": f"{n} ",
            "detect": f"{row['smallest difference 30 questions detect']:.3f}",
            "observed": f"({row['mean difference']:+.3f})" if en else f"（{row['mean difference']:+.3f}）",
            "observed needs": f"{int(row['questions to detect the observed difference'])} ",
            "power": f"{power:.1%}", "draws": f"{len(draws):,}", "30": "30 questions" if en else "30 道问题", "d": "0.05",
            "80": "80%", "metric": "nDCG@5", "candidate": candidate, "start": "30 questions are only" if en else "30 题只够起步"}


def check_opening(shown: Shown) -> dict[str, str]:
    """The holdout opened once with the design (bm25 against the candidate, scored from the run files): on its
    answerable questions, the paired difference with its interval (seed 0), the working questions' difference,
    and "the interval includes 0"."""
    import pandas as pd

    from ragmath import evaluate, paired_bootstrap
    from ragmath.lab.notebook.own_system import labels_for, runs_for

    mine, _, _, held, _, labels, _ = files()
    candidate = str(_rows()["diff"].idxmax())
    held_runs, held_labels = runs_for(mine.runs, held), labels_for(labels, held)
    scores = {v: evaluate(held_runs[v], held_labels, ["nDCG@5"]).per_question["nDCG@5"] for v in ("bm25", candidate)}
    joined = pd.concat(scores, axis=1).dropna()
    diff = paired_bootstrap(joined["bm25"], joined[candidate], seed=0)
    assert diff.low <= 0 <= diff.high
    assert diff.low <= _rows().loc[candidate, "diff"] <= diff.high  # "it also holds the working questions' ..."
    en = shown.language == "en"
    return {"n": f"{len(joined)} ", "diff": f"{candidate} − bm25 on nDCG@5 = {diff.mean_diff:+.3f} [{diff.low:+.3f}, {diff.high:+.3f}]"
            if en else f"nDCG@5 上 {candidate} − bm25 = {diff.mean_diff:+.3f} [{diff.low:+.3f}, {diff.high:+.3f}]",
            "dev": f"{_rows().loc[candidate, 'diff']:+.3f}", "zero": "includes 0" if en else "包含 0",
            "opened": "opened 1 time in all" if en else "总共启封 1 次"}


CLAIMS += [
    Claim("bias_partial", "504e9457", en="Under the pool of bm25, vector (bm25-bigram built later, its pool not labelled), bm25-bigram's Judged@5 is 0.766, below 0.9 × 0.929 = 0.836 (bm25's), so `compare` warns that its score rests on unlabelled items. Labelling the rest of the pool moves its nDCG@5 0.587 → 0.583: this time the warning marked a risk that cost little.", derived={"0.836": "0.9 * 0.929"}, zh="用 bm25、vector 的池得到的标注时（bm25-bigram 是后来才做的，它的池没有标注），bm25-bigram 的 Judged@5 是 0.766，低于 0.9 × 0.929 = 0.836（bm25 的），所以 `compare` 会警告：它的分数建立在未标注的条目上。把池的其余部分也标注后，它的 nDCG@5 从 0.587 → 0.583：这一次，警告标出的风险代价不大。", check=check_bias_partial),
    Claim("bias_single", "504e9457", en="Label only bm25's pool and every difference from bm25 is read against labels bm25 chose: nDCG@5 − bm25 under the pool of bm25 (under every version's pool): vector +0.042 (+0.210), rrf-k60 +0.033 (+0.080), bm25-bigram -0.008 (+0.030). Each is lower: the version whose pool was labelled is flattered, the others pay. vector pays the most: under bm25's pool its Judged@5 is 0.441 (1.000 under every version's pool), so more than half of its top 5 was never labelled and counts as irrelevant.", zh="只标注 bm25 的池时，与 bm25 的每个差值都是用 bm25 挑出的标注来衡量的：nDCG@5 − bm25 在 bm25 的池下（括号内是所有版本的池下）：vector +0.042（+0.210）、rrf-k60 +0.033（+0.080）、bm25-bigram -0.008（+0.030）。每一个都更低：池被标注的那个版本被抬高了，其他版本为此吃亏。吃亏最多的是 vector：在 bm25 的池下，它的 Judged@5 是 0.441（所有版本的池下是 1.000），所以它的前 5 名里有一半以上从未标注，都算作不相关。", check=check_bias_single,
          scope="'every difference', 'every version's pool' and 'pays the most': the three versions the pooling table compares with bm25, all of them"),
    Claim("bias_relevant", "504e9457", en="Under the workbook's relevant-only labels, Judged@5 is 0.253 to 0.377, against 0.929 to 1.000 under every version's pool: they list only the relevant chunks, so on average less than half of a top 5 is labelled (the rest counts as irrelevant, as it should). Their nDCG@5 is lower for every version (bm25 0.554 → 0.509, vector 0.764 → 0.705, rrf-k60 0.633 → 0.581, bm25-bigram 0.583 → 0.543): a relevant chunk that no version ranks in its top 10 is in no pool, so pooled labels flatter every version's absolute score, while the differences from bm25 move by at most 0.014. Pooled labels compare the pooled versions; they do not count the evidence that exists.", derived={"0.014": "0.210 - 0.196"}, zh="用本练习册只列相关片段的标注时，Judged@5 是 0.253 到 0.377，而用所有版本的池得到的标注时是 0.929 到 1.000：它只列出相关片段，所以平均而言，一个前 5 名里有标注的不到一半（其余的算作不相关，这本来就应当如此）。每个版本的 nDCG@5 都更低（bm25 0.554 → 0.509、vector 0.764 → 0.705、rrf-k60 0.633 → 0.581、bm25-bigram 0.583 → 0.543）：没有任何版本排进前 10 名的相关片段不在任何池里，所以池化得到的标注会抬高每个版本的绝对分数，而与 bm25 的差值最多只变动 0.014。池化得到的标注能比较参与池化的版本，却清点不了实际存在的证据。", check=check_bias_relevant,
          scope="'every version' and 'at most': the four versions of the pooling table, all of them"),
    Claim("comparison", "83c33763", en="After Holm's correction, at the 5 % level, one version is better than bm25 on nDCG@5: vector, +0.210 [+0.078, +0.350] (Holm p 0.034), with 16 wins and 5 losses. The intervals of rrf-k60 (+0.080) and bm25-bigram (+0.030) include 0 (Holm p 0.471 and 1.000).\n- The rule written before this table: the version with the largest mean difference on nDCG@5 goes to the holdout against bm25. That is vector (+0.210); the holdout will say whether it holds on questions that chose nothing.", zh="经 Holm 校正（5% 水平）后，在 nDCG@5 上有一个版本优于 bm25：vector，+0.210 [+0.078, +0.350]（Holm 校正后的 p 为 0.034），16 道变好、5 道变差。rrf-k60（+0.080）和 bm25-bigram（+0.030）的区间都包含 0（Holm 校正后的 p 为 0.471 和 1.000）。\n- 在这张表之前写下的规则：在 nDCG@5 上平均差值最大的版本进入保留集，与 bm25 对比。那就是 vector（+0.210）；它在没有参与任何选择的问题上是否依然成立，由保留集来回答。", check=check_comparison,
          scope="'one version is better' and 'largest': every comparison of the paired table against bm25, all of them"),
    Claim("report", "8d302ced", en="The comparison, 8 table rows and 4 notes on what it rests on, is in compare_report.md in the work folder, in the notebook's language: paste it into a review. `python -m ragmath compare` with `--format markdown` writes the same in English from the run files and the labels.", zh='这份比较（8 行表格，外加 4 条关于其依据的说明）在工作目录下的 compare_report.md 里，用的是本笔记本的语言：可以直接贴进评审。`python -m ragmath compare` 加上 `--format markdown`，也能从运行结果文件和标注写出同样的内容（英文）。', check=check_report),
    Claim("plan", "f5716a63", en="30 questions are only a start: with the spread of vector's per-question differences on nDCG@5 (sd 0.379 over 28 pilot questions), detecting a difference of 0.05 with 80% power (two-sided α = 0.05) needs 451 answerable questions, and 30 questions detect only differences of 0.194 or more. vector's observed difference (+0.210) is above that, which is why 28 questions could show it: detecting it needs only 26 questions. Check by resampling the pilot: 4,000 draws of 451 questions, shifted to a true difference of 0.05, reject in 83.1% of the draws, close to the formula's 80%; the pilot's sd is itself estimated from 28 questions, so read the formula's count as an order of magnitude.", zh="30 题只够起步：按 vector 在 nDCG@5 上逐题差值的离散程度（28 道试点问题上的标准差为 0.379），要以 80% 的检验功效（双侧 α = 0.05）检出 0.05 的差值，需要 451 道有答案的问题，而 30 道问题只能检出 0.194 或更大的差值。vector 观测到的差值（+0.210）比这更大，所以 28 道问题就能把它显示出来：检出它只需要 26 道问题。用重抽样试点来核对：抽 4,000 次、每次 451 道问题，平移到真实差值 0.05，在 83.1% 的抽样中拒绝原假设，接近公式的 80%；试点的标准差本身只是从 28 道问题估计出来的，所以公式给出的题数只能当作数量级来读。", check=check_plan,
          scope="'at most'/'most': the power analysis's sample size, not a quantifier over rows"),
    Claim("opening", "ef34ca8e", en="it was opened 1 time in all.\n- On its 15 answerable questions, vector − bm25 on nDCG@5 = +0.045 [-0.119, +0.227] (working questions: +0.210); the interval includes 0, so the holdout does not support a difference, and it also holds the working questions' +0.210: 15 questions are too few to tell the two apart. Report this number as it is: choosing again from it would make the holdout a second dev set.", zh='总共启封 1 次。\n- 在它的 15 道有答案的问题上，nDCG@5 上 vector − bm25 = +0.045 [-0.119, +0.227]（工作集：+0.210）；区间包含 0，所以保留集不支持存在差异，而区间同样包含工作集的 +0.210：15 道问题太少，分不清这两种情况。如实报告这个数字：根据它再做选择，会让保留集变成第二个开发集。', check=check_opening),
]
