"""Notebook 08 (your own system): the readings after its split, latency and pool tables, for the workbook's
own four versions and the prepared judgements (the notebook run top to bottom, nobody judging)."""

# ruff: noqa: E501 - the sentences stand as the notebooks write them (Chinese characters count double)

from __future__ import annotations

import functools
import re

from claims import Claim, Shown, dataset


@functools.cache
def split() -> tuple[list[str], list[str], dict[str, str]]:
    from ragmath import grouped_split
    from ragmath.lab.notebook.own_system import OWN_SPLIT

    q = dataset().questions
    group = dict(zip(q["question_id"], q["group"], strict=True))
    working, held = grouped_split(list(q["question_id"]), group, **OWN_SPLIT)
    return working, held, group


@functools.cache
def runs():
    import tempfile
    from pathlib import Path

    from ragmath.io import read_run
    from ragmath.lab.notebook.own_system import VERSIONS, record_versions

    folder = Path(tempfile.mkdtemp(prefix="claims-nb08-"))
    record_versions(dataset(), split()[0], folder)
    return {name: read_run(folder / f"{name}.trec") for name in VERSIONS}


def check_split(shown: Shown) -> dict[str, str]:
    """"Your holdout is h of the n dev questions, in g of G groups (0 groups on both sides) … the other w"."""
    working, held, group = split()
    held_groups, working_groups = {group[x] for x in held}, {group[x] for x in working}
    both = held_groups & working_groups
    assert not both
    shown.shows("5f4abcb8", f"{len(working)}", f"{len(held)}")
    en = shown.language == "en"
    n = len(group)
    return {"held": f"{len(held)} of the {n}" if en else f"{n} 个开发集问题中的 {len(held)} 个",
            "groups": f"{len(held_groups)} of {len(set(group.values()))}" if en else f"{len(set(group.values()))} 个分组中的 {len(held_groups)} 个",
            "both": f"{len(both)} groups" if en else f"{len(both)} 个分组", "working": f"other {len(working)}" if en else f"其余 {len(working)} 个",
            "section": f"section {shown.section_of('9c11a0d0')}" if en else f"第 {shown.section_of('9c11a0d0')} 节"}


def _latency_rows(shown: Shown) -> dict[str, tuple[int, int]]:
    """Questions asked and failures per version, as the latency table (cell 0f95ba80) shows them."""
    rows = re.findall(r"^([A-D])\s+(\d+)\s+\S+\s+\S+\s+(\d+)\s*$", shown.output("0f95ba80"), re.MULTILINE)
    return {v: (int(n), int(f)) for v, n, f in rows}


def check_latency(shown: Shown) -> dict[str, str]:
    """"4 versions asked w questions each, and no question failed"; no latency number is written."""
    from ragmath.lab.notebook.own_system import VERSIONS

    rows = _latency_rows(shown)
    working = split()[0]
    assert sorted(rows) == sorted(VERSIONS)
    assert all(n == len(working) and failed == 0 for n, failed in rows.values()), rows
    return {"versions": f"{len(VERSIONS)} ", "questions": f"{len(working)} "}


def check_pool(shown: Shown) -> dict[str, str]:
    """"The pool of A, B, C and D's top d: i items to label for q questions (lo to hi a question). Items only one
    version ranked there: A a, …"."""
    from ragmath.comparison import pool
    from ragmath.lab.notebook.own_system import POOL_DEPTH

    recorded = runs()
    table = pool(recorded, POOL_DEPTH)
    per_question = table.groupby("question").size()
    def names(versions) -> list[str]:
        return [v.strip() for v in versions.split(",")] if isinstance(versions, str) else list(versions)

    alone = [names(v)[0] for v in table["versions"] if len(names(v)) == 1]
    only = {name: alone.count(name) for name in recorded}
    en = shown.language == "en"
    sep = ", " if en else "、"
    return {"depth": f"top {POOL_DEPTH}" if en else f"前 {POOL_DEPTH} 名", "items": f"{len(table)} ",
            "questions": f"{per_question.size} ", "range": f"{per_question.min()} to {per_question.max()}" if en else f"{per_question.min()} 到 {per_question.max()}",
            "only": sep.join(f"{v} {c}" for v, c in only.items())}


CLAIMS = [
    Claim("split", "5f4abcb8-reading",
          en="your holdout is 18 of the 54 dev questions, in 11 of 40 groups (0 groups on both sides), sealed by the cell above (its time and commit are printed there). Everything below runs on the other 36 questions; section 8 opens the holdout once.",
          zh="你的保留集是 54 个开发集问题中的 18 个，分属 40 个分组中的 11 个（0 个分组两边都有），由上面的单元格封存（封存时间和提交打印在那里）。下面的一切都只在其余 36 个问题上运行；第 8 节只启封一次保留集。",
          check=check_split),
    Claim("latency", "4b3d885c",
          en="4 versions asked 36 questions each, and no question failed.",
          zh="4 个版本各回答了 36 个问题，没有问题失败。",
          check=check_latency),
    Claim("pool", "b6318a5f",
          en="The pool of A, B, C and D's top 10: 601 items to label for 36 questions (10 to 29 a question). Items only one version ranked there: A 51, B 85, C 18, D 58",
          zh="A、B、C 和 D 各自前 10 名组成的池：36 个问题共有 601 个条目要标注（每个问题 10 到 29 个）。只有一个版本排进前 10 名的条目：A 51、B 85、C 18、D 58",
          check=check_pool),
]


@functools.cache
def comparison():
    """compare() on the four recorded versions with the prepared judgements, as section 5's cell runs it."""
    from ragmath import compare
    from ragmath.comparison import pool
    from ragmath.io import read_qrels
    from ragmath.lab.notebook.own_system import POOL_DEPTH, PREPARED_JUDGEMENTS, complete_labels

    recorded = runs()
    labels, sources = complete_labels(pool(recorded, POOL_DEPTH), {}, read_qrels(PREPARED_JUDGEMENTS))
    return compare(recorded, labels, ["Recall@5", "nDCG@5"], baseline="A", seed=0), sources


def check_comparison(shown: Shown) -> dict[str, str]:
    """Each version's nDCG@5 difference from A with its interval, p, Holm's p and wins/ties/losses; "No version is
    better than A after Holm's correction at 0.05"; the rule's candidate is the largest mean difference."""
    result, _ = comparison()
    rows = result.comparisons[result.comparisons["metric"] == "nDCG@5"].set_index("system")
    assert not any((r["diff"] > 0) and (r["p_holm"] < 0.05) for _, r in rows.iterrows())
    en = shown.language == "en"
    values = {"metric": "nDCG@5", "level": "0.05"}
    for v, r in rows.iterrows():
        values[f"{v} diff"] = f"{v} {r['diff']:+.3f} [{r['low']:+.3f}, {r['high']:+.3f}]"
        values[f"{v} p"] = f"p = {r['p']:.3f}"
        values[f"{v} holm"] = f"Holm {r['p_holm']:.3f}"
        values[f"{v} wtl"] = f"{int(r['wins'])}/{int(r['ties'])}/{int(r['losses'])}"
    candidate = str(rows["diff"].idxmax())
    values["candidate"] = (f"That is {candidate} ({rows.loc[candidate, 'diff']:+.3f})" if en
                           else f"那就是 {candidate}（{rows.loc[candidate, 'diff']:+.3f}）")
    return values


def check_labelling(shown: Shown) -> dict[str, str]:
    """"Nobody judged in the widget …, so all n come from the prepared judgements"."""
    _, sources = comparison()
    assert sources["by hand"] == 0
    return {"n": f"{sources['prepared']} "}


CLAIMS += [
    Claim("labelling", "be7ce1dd-reading",
          en="Nobody judged in the widget (the notebook ran top to bottom without a person), so all 601 come from the prepared judgements",
          zh="没有人在控件里做判断（笔记本在无人操作时从头运行到尾），所以全部 601 个来自预先准备的判断",
          check=check_labelling),
    Claim("comparison", "21e2fb72-reading",
          en="On nDCG@5 against A: B -0.114 [-0.308, +0.076], p = 0.272, Holm 1.000, 12/6/10 wins/ties/losses; C -0.022 [-0.125, +0.062], p = 0.693, Holm 1.000, 9/16/3 wins/ties/losses; D +0.003 [-0.061, +0.064], p = 0.932, Holm 1.000, 6/17/5 wins/ties/losses. No version is better than A after Holm's correction at 0.05.\n- The rule written before this table: the version with the largest mean difference on nDCG@5 goes to the holdout against A. That is D (+0.003)",
          zh="在 nDCG@5 上与 A 相比：B -0.114 [-0.308, +0.076]，p = 0.272，Holm 1.000，胜/平/负 12/6/10；C -0.022 [-0.125, +0.062]，p = 0.693，Holm 1.000，胜/平/负 9/16/3；D +0.003 [-0.061, +0.064]，p = 0.932，Holm 1.000，胜/平/负 6/17/5。经 Holm 校正（水平 0.05）后，没有版本优于 A。\n- 在这张表之前写下的规则：在 nDCG@5 上平均差值最大的版本进入保留集，与 A 对比。那就是 D（+0.003）",
          check=check_comparison),
]


def check_plan(shown: Shown) -> dict[str, str]:
    """C's row of the question-count plan (pilot sd, questions to detect 0.05 at 80 % power, what 30 questions
    detect, what the observed difference needs) and the pilot's resampled power at that size, computed as the
    cell computes it."""
    from statistics import NormalDist

    import numpy as np

    from ragmath.lab.notebook.own_system import plan_table

    result, _ = comparison()
    plan = plan_table(result, "nDCG@5", 0.05)
    row = plan.loc["C"]
    n = int(row["questions to detect 0.05"])
    pilot = (result.per_question["C"]["nDCG@5"] - result.per_question["A"]["nDCG@5"]).to_numpy()
    draws = (pilot - pilot.mean() + 0.05)[np.random.default_rng(0).integers(0, pilot.size, size=(4_000, n))]
    z = draws.mean(axis=1) / (draws.std(axis=1, ddof=1) / np.sqrt(n))
    power = float(np.mean(np.abs(z) > NormalDist().inv_cdf(0.975)))
    en = shown.language == "en"
    return {"sd": f"{row['sd of differences']:.3f}",
            "pilot": f"{int(row['pilot questions'])} ", "needs": f"{n} ", "detect": f"{row['smallest difference 30 questions detect']:.3f}",
            "observed": f"({row['mean difference']:.3f})" if en else f"（{row['mean difference']:.3f}）", "observed needs": f"{int(row['questions to detect the observed difference'])} ",
            "power": f"{power:.1%}", "draws": "4,000", "30": "30 questions" if en else "30 个问题", "d": "0.05", "80": "80%",
            "metric": "nDCG@5"}


CLAIMS += [
    Claim("plan", "795641ca-reading",
          en="with the spread of C's per-question differences on nDCG@5 (sd 0.255 over 28 pilot questions), detecting a difference of 0.05 with 80% power (two-sided α = 0.05) needs 205 answerable questions, and 30 questions detect only differences of 0.131 or more. The observed difference (-0.022) would need 1074 questions. Check by resampling the pilot: 4,000 draws of 205 questions, shifted to a true difference of 0.05, reject in 78.0% of the draws (the formula's 80%).",
          zh="按 C 在 nDCG@5 上逐问题差值的离散程度（28 个试点问题上的标准差为 0.255），要以 80% 的功效（双侧 α = 0.05）检出 0.05 的差值，需要 205 个有答案的问题，而 30 个问题只能检出 0.131 或更大的差值。观测到的差值（-0.022）需要 1074 个问题。用重抽样试点来核对：抽 4,000 次、每次 205 个问题，平移到真实差值 0.05，在 78.0% 的抽样中拒绝原假设（公式给出的是 80%）。",
          check=check_plan),
]


@functools.cache
def bias_table():
    """Section 4's pooling-bias table: the four versions scored under the pools of A, of A and B, of all four,
    and under the workbook's complete labels."""
    from ragmath.comparison import pool
    from ragmath.io import read_qrels
    from ragmath.lab.notebook.own_system import (
        POOL_DEPTH,
        PREPARED_JUDGEMENTS,
        complete_labels,
        dev_labels,
        labels_within,
        pooling_bias,
    )

    recorded = runs()
    labels, _ = complete_labels(pool(recorded, POOL_DEPTH), {}, read_qrels(PREPARED_JUDGEMENTS))
    sets = {"A": labels_within(labels, pool({"A": recorded["A"]}, POOL_DEPTH)),
            "AB": labels_within(labels, pool({v: recorded[v] for v in "AB"}, POOL_DEPTH)),
            "ABCD": labels, "complete": dev_labels(dataset(), split()[0])}
    return pooling_bias(recorded, sets, ["Recall@5", "nDCG@5"], baseline="A")


def _f(x: float) -> str:
    return f"{x:.3f}"


def check_pooling_partial(shown: Shown) -> dict[str, str]:
    """C's and D's nDCG@5 under the pool of A and B and under all four (the bias between), their Judged@5 under
    both, D's below 0.9 × A's (compare's warning), and "moved no score here"."""
    b = bias_table()
    values = {"metric": "nDCG@5", "judged": "Judged@5", "factor": "0.9 ×", "top": "top 5" if shown.language == "en" else "前 5 名"}
    for v in "ABCD":  # "moved no score here": a relevant item added to some top 5 would move nDCG@5 or Recall@5
        for metric in ("nDCG@5", "Recall@5"):
            assert round(b.loc[("ABCD", v), metric] - b.loc[("AB", v), metric], 12) == 0, (v, metric)
    for v in "CD":
        partial, full = b.loc[("AB", v), "nDCG@5"], b.loc[("ABCD", v), "nDCG@5"]
        assert round(full - partial, 12) == 0, "labelling the rest of the pool moved a score"
        values |= {f"{v} partial": _f(partial), f"{v} full": _f(full), f"{v} bias": f"{full - partial:+.3f}",
                   f"{v} judged": f"{_f(b.loc[('AB', v), 'Judged@5'])} → {_f(b.loc[('ABCD', v), 'Judged@5'])}"}
    a_judged = b.loc[("AB", "A"), "Judged@5"]
    assert b.loc[("AB", "D"), "Judged@5"] < 0.9 * a_judged
    values |= {"A judged": _f(a_judged), "threshold": _f(0.9 * a_judged)}
    return values


def check_pooling_single(shown: Shown) -> dict[str, str]:
    """Each version's nDCG@5 − A under the pool of A alone (and under all four): every one is lower under A's."""
    b = bias_table()
    values = {"metric": "nDCG@5"}
    for v in "BCD":
        single, full = b.loc[("A", v), "nDCG@5 − A"], b.loc[("ABCD", v), "nDCG@5 − A"]
        assert single < full
        values[v] = f"{v} {single:+.3f} ({full:+.3f})".replace("+-", "-")
    return {k: v.replace("+-", "-") for k, v in values.items()}


def check_pooling_complete(shown: Shown) -> dict[str, str]:
    """Under the pool of all four, nDCG@5 is higher than under complete labels for every version; the
    differences from A move by at most m."""
    b = bias_table()
    sep = ", " if shown.language == "en" else "、"
    pairs = []
    for v in "ABCD":
        pooled, complete = b.loc[("ABCD", v), "nDCG@5"], b.loc[("complete", v), "nDCG@5"]
        assert pooled > complete
        pairs.append(f"{v} {_f(pooled)} → {_f(complete)}")
    moved = max(abs(b.loc[("ABCD", v), "nDCG@5 − A"] - b.loc[("complete", v), "nDCG@5 − A"]) for v in "ABCD")
    return {"metric": "nDCG@5", "pairs": sep.join(pairs), "moved": _f(moved)}


CLAIMS += [
    Claim("pooling_partial", "73845eca",
          en="On nDCG@5: C 0.647 under pool of A, B, 0.647 under pool of A, B, C, D (bias +0.000); D 0.672 under pool of A, B, 0.672 under pool of A, B, C, D (bias +0.000). Judged@5 under pool of A, B and then pool of A, B, C, D: C 0.994 → 1.000, D 0.828 → 0.944; D below 0.9 × A's 0.933 = 0.840, so compare warns that the score rests on unlabelled items. Labelling the rest of the pool moved no score here (every item it added that reaches the top 5 is irrelevant)",
          zh="在 nDCG@5 上：C 在“A, B 的池”下为 0.647，在“A, B, C, D 的池”下为 0.647（偏差 +0.000）；D 在“A, B 的池”下为 0.672，在“A, B, C, D 的池”下为 0.672（偏差 +0.000）。Judged@5 先在“A, B 的池”下、再在“A, B, C, D 的池”下：C 0.994 → 1.000、D 0.828 → 0.944；D 低于 0.9 × A 的 0.933 = 0.840，所以 compare 会警告：这个分数建立在未标注的条目上。在这里，把池的其余部分也标注并没有改变任何分数（新增条目中进入前 5 名的都不相关）",
          check=check_pooling_partial),
    Claim("pooling_single", "73845eca",
          en="nDCG@5 − A under pool of A (under pool of A, B, C, D): B -0.197 (-0.114), C -0.030 (-0.022), D -0.002 (+0.003). Each is lower",
          zh="nDCG@5 − A 在“A 的池”下（括号内在“A, B, C, D 的池”下）：B -0.197 (-0.114)、C -0.030 (-0.022)、D -0.002 (+0.003)。每一个都更低",
          check=check_pooling_single),
    Claim("pooling_complete", "73845eca",
          en="nDCG@5 under pool of A, B, C, D is higher for every version (A 0.669 → 0.604, B 0.555 → 0.510, C 0.647 → 0.584, D 0.672 → 0.607): a relevant chunk that no version ranks in the pooled top is in no pool, so pooled labels flatter every version's absolute score, while the differences from A move by at most 0.020.",
          zh="“A, B, C, D 的池”下的 nDCG@5 对每个版本都更高（A 0.669 → 0.604、B 0.555 → 0.510、C 0.647 → 0.584、D 0.672 → 0.607）：没有任何版本排进池化深度的相关片段不在任何池里，所以池化标注会抬高每个版本的绝对分数，而与 A 的差值最多只变动 0.020。",
          check=check_pooling_complete),
]


def check_report(shown: Shown) -> dict[str, str]:
    """"The comparison as Markdown, r table rows and n notes on what it rests on"."""
    result, _ = comparison()
    lines = result.to_markdown().splitlines()
    rows = sum(1 for line in lines if line.startswith("| ")) - 1  # the header row is not a row of the table
    notes = sum(1 for line in lines if line.startswith("- "))
    en = shown.language == "en"
    return {"rows": f"{rows} table rows" if en else f"{rows} 行表格", "notes": f"{notes} notes" if en else f"{notes} 条"}


def check_opening(shown: Shown) -> dict[str, str]:
    """The holdout opened once with the design (A against the candidate, k = 60, W = 40, M = 20): on its
    answerable questions A's and the candidate's nDCG@5, the paired difference with its interval (seed 0), the
    dev difference, and "the interval includes 0"."""
    import tempfile
    from pathlib import Path

    import pandas as pd

    from ragmath import evaluate, paired_bootstrap
    from ragmath.lab.notebook.own_system import dev_labels, record_versions, workbook_systems

    result, _ = comparison()
    rows = result.comparisons[result.comparisons["metric"] == "nDCG@5"].set_index("system")
    candidate = str(rows["diff"].idxmax())
    _, held, _ = split()
    ds = dataset()
    systems = workbook_systems(ds, k=60, window=40, depth=20)
    folder = Path(tempfile.mkdtemp(prefix="claims-nb08-holdout-"))
    record_versions(ds, held, folder, systems={v: systems[v] for v in ("A", candidate)})
    labels = dev_labels(ds, held)
    scores = {v: evaluate(folder / f"{v}.trec", labels, ["nDCG@5"]).per_question["nDCG@5"] for v in ("A", candidate)}
    joined = pd.concat(scores, axis=1).dropna()
    diff = paired_bootstrap(joined["A"], joined[candidate], seed=0)
    assert diff.low <= 0 <= diff.high
    en = shown.language == "en"
    sep = ", " if en else "、"
    return {"n": f"{len(joined)} ", "means": f"A {joined['A'].mean():.3f}{sep}{candidate} {joined[candidate].mean():.3f}",
            "diff": f"{candidate} − A = {diff.mean_diff:+.3f} [{diff.low:+.3f}, {diff.high:+.3f}]",
            "dev": f"{rows.loc[candidate, 'diff']:+.3f}", "metric": "nDCG@5",
            "zero": "includes 0" if en else "包含 0", "opened": "opened 1 time" if en else "总共启封 1 次"}


CLAIMS += [
    Claim("report", "b499d242-reading",
          en="The comparison as Markdown, 8 table rows and 3 notes on what it rests on, is in own_system_work/compare_report.md",
          zh="Markdown 格式的比较结果（8 行表格，外加 3 条关于其依据的说明）在 own_system_work/compare_report.md",
          check=check_report),
    Claim("opening", "3678a87f-reading",
          en="it was opened 1 time in all.\n- On its 13 answerable questions, nDCG@5: A 0.558, D 0.634. D − A = +0.076 [-0.005, +0.232] (dev: +0.003); the interval includes 0, so the holdout does not support a difference.",
          zh="总共启封 1 次。\n- 在它的 13 个有答案的问题上，nDCG@5：A 0.558、D 0.634。D − A = +0.076 [-0.005, +0.232]（开发集：+0.003）；区间包含 0，所以保留集不支持存在差异。",
          check=check_opening),
]
