"""Notebook 07 (honest numbers): the readings after its interval, paired, type and holdout tables."""

# ruff: noqa: E501 - the sentences stand as the notebooks write them (Chinese characters count double)

from __future__ import annotations

import functools

from claims import Claim, Shown, design_1_full, dev_ablation, fmt, table_columns, word
from claims.nb07 import holdout

PAIRS = [("A", "C"), ("B", "C"), ("C", "D")]
#: Holdout-2's comparisons (cell h2-pairs): each row against C, as design 3's rule asks, and C against A.
PAIRS_2 = [("C", "B"), ("C", "D"), ("C", "E"), ("A", "C")]


def _signed(x: float) -> str:
    return f"{x:+.3f}"


def _paired_row(result, comparison: str, pairs=PAIRS):
    from ragmath.lab.ablation import paired_table

    table = paired_table(result, pairs, "nDCG@5", label="x").set_index("comparison")
    return table.loc[comparison]


def holdout_2():
    """Holdout-2's stored result for design 3 (its one opening, from its record: nothing is re-run)."""
    return _opening_2().result


@functools.cache
def _opening_2():
    from ragmath.lab.holdout import show_opening_2

    return show_opening_2(1)


def check_paired(which: str, comparison: str):
    def check(shown: Shown) -> dict[str, str]:
        """"X − Y: +d [lo, hi] over n questions (w better, t tied, l worse; sign-flip p = p, Holm … h): the
        interval holds 0 / leaves out 0 (and Holm's p is or is not below 0.05)"."""
        pairs = PAIRS_2 if which == "holdout-2" else PAIRS
        result = {"dev": design_1_full, "holdout": holdout, "holdout-2": holdout_2}[which]()
        row = _paired_row(result, comparison, pairs)
        holds_zero = row["low"] <= 0 <= row["high"]
        said = shown.sentence  # the sentence of this language, set by the test
        if holds_zero:
            assert ("interval holds 0" in said) or ("区间包含 0" in said)
        else:
            assert ("leaves out 0" in said) or ("区间不含 0" in said)
            below = row["p (sign-flip, Holm)"] < 0.05
            assert (("Holm's p is below 0.05" in said or "Holm 校正后的 p 低于 0.05" in said) if below
                    else ("Holm's p is not below 0.05" in said or "Holm 校正后的 p 不低于 0.05" in said))
        en = shown.language == "en"
        verdict = {"zero": ("holds 0" if en else "包含 0") if holds_zero else ("leaves out 0" if en else "不含 0"),
                   "comparisons": f"{len(pairs)} comparisons" if en else f"{len(pairs)} 个比较"}
        if not holds_zero:
            verdict["level"] = "below 0.05" if en else "低于 0.05"
        if which == "holdout-2" and en:
            verdict["name"] = "(holdout-2)"
        if "5 % level" in said or "5% 水平" in said:
            verdict["5 %"] = "5 %" if en else "5%"
        return {**verdict, "diff": f"{_signed(row['mean diff'])} [{_signed(row['low'])}, {_signed(row['high'])}]",
                "n": f"{int(row['questions'])} ", "wins": f"{int(row['wins'])} ", "ties": f"{int(row['ties'])} ",
                "losses": f"{int(row['losses'])} ", "p": f"p = {row['p (sign-flip)']:.3f}",
                "holm": fmt(row["p (sign-flip, Holm)"])}
    return check


#: The code cells that display the rates with their intervals (one row per version and rate).
RATE_TABLES = {"dev": "ac446fdd", "holdout": "60027674"}


def check_rates(which: str, rate: str, leader: list[str]):
    def check(shown: Shown) -> dict[str, str]:
        """"rate: L lead(s) at v [lo, hi]; the intervals of … overlap it (or none does); the widest interval
        spans w"."""
        from ragmath.lab.ablation import rate_intervals

        rates = rate_intervals(design_1_full() if which == "dev" else holdout())
        part = rates[rates["rate"] == rate].set_index("version")
        cell = RATE_TABLES[which]
        label = shown.word(rate)
        displayed = [line.split()[1] for line in shown.output(cell).splitlines() if f" {label} " in f"{line} "]
        found = shown.leaders(cell, part["value"].to_dict(), displayed=displayed)
        assert found == leader, part["value"].to_dict()
        best = part.loc[leader[0]]
        overlapping = [v for v in part.index if v not in leader and part.loc[v, "high"] >= best["low"]]
        said = shown.sentence
        if overlapping:
            import re

            named = re.search(r"the intervals of (.+?) overlap it|；(.+?) 的区间与它重叠", said)
            assert named, said
            listed = set(re.split(r", | and |、| 和 ", next(g for g in named.groups() if g)))
            assert listed == set(overlapping), (listed, overlapping)
        else:
            assert "no other version's interval overlaps it" in said or "没有其他版本的区间与它重叠" in said
        widest = float((part["high"] - part["low"]).max())
        return {"at": f"{fmt(best['value'])} [{fmt(best['low'])}, {fmt(best['high'])}]", "widest": fmt(widest),
                "rate": word(rate, shown.language)}
    return check


def check_type_sizes(shown: Shown) -> dict[str, str]:
    """"Answerable questions per type: t n, …; one question moves a type's mean by up to 1/N, … at N = 7 and
    … at N = 3"."""
    from ragmath.lab.ablation import type_intervals

    types = type_intervals(holdout(), "nDCG@5")
    sizes = types[types["version"] == "D"].set_index("type")["N"].astype(int).to_dict()
    values = {t: f"{shown.word(t)} {n}" for t, n in sizes.items()}  # the Chinese sentence names the types
    big, small = max(sizes.values()), min(sizes.values())
    en = shown.language == "en"
    values |= {"big": f"{1 / big:.2f} at N = {big}" if en else f"N = {big} 时为 {1 / big:.2f}",
               "small": f"{1 / small:.2f} at N = {small}" if en else f"N = {small} 时为 {1 / small:.2f}",
               "1/N": "1/N"}
    return values


def _questions_of(kind: str) -> list[str]:
    """The holdout's answerable questions of one type (the N of its per-type intervals)."""
    from ragmath.lab.ablation import type_intervals

    types = type_intervals(holdout(), "nDCG@5")
    n = int(types[(types["type"] == kind) & (types["version"] == "D")]["N"].iloc[0])
    return [kind] * n


def _type_means(kind: str) -> dict[str, tuple[float, float, float]]:
    from ragmath.lab.ablation import type_intervals

    types = type_intervals(holdout(), "nDCG@5")
    part = types[types["type"] == kind].set_index("version")
    return {v: (float(r["mean"]), float(r["low"]), float(r["high"])) for v, r in part.iterrows()}


def check_paraphrase_order(shown: Shown) -> dict[str, str]:
    """"On paraphrases nDCG@5 goes B … > C … > D … > A …: the vector list (design 1's character n-grams, no
    model) leads …; every interval overlaps the leader's" (over the versions the per-type table shows)."""
    from ragmath.lab.holdout import opened_design

    means = _type_means("paraphrase")
    leaders = shown.leaders("66a10825", {v: m for v, (m, _, _) in means.items()},
                            displayed=table_columns(shown.output("66a10825")))
    assert leaders == ["B"], means
    assert opened_design(1).embedder == "char-ngram"
    order = sorted(means, key=lambda v: -means[v][0])
    top_low = means["B"][1]
    assert all(means[v][2] >= top_low for v in order[1:]), "an interval lies below the leader's"
    chain = " > ".join(f"{v} {fmt(m)} [{fmt(lo)}, {fmt(hi)}]" for v, (m, lo, hi) in ((v, means[v]) for v in order))
    sep = ", " if shown.language == "en" else "，"
    return {"chain": chain, "N": f"N = {len(_questions_of('paraphrase'))}", "metric": "nDCG@5",
            "C and D": f"C {fmt(means['C'][0])}{sep}D {fmt(means['D'][0])}",
            "embedder": "character n-grams, no model" if shown.language == "en" else "字符 n-gram，没有模型",
            "design": "design 1" if shown.language == "en" else "设计 1"}


def check_exact_loss(shown: Shown) -> dict[str, str]:
    """"On exact-ID questions C … is below A …; the intervals overlap"."""
    means = _type_means("exact-id")
    c, a = means["C"], means["A"]
    assert c[0] < a[0] and c[2] >= a[1], (c, a)
    n = len(_questions_of("exact-id"))
    return {"N": f"N = {n}", "N questions": f"N = {n} questions" if shown.language == "en" else f"N = {n} 个问题","C": f"C {fmt(c[0])} [{fmt(c[1])}, {fmt(c[2])}]", "A": f"A {fmt(a[0])} [{fmt(a[1])}, {fmt(a[2])}]"}


def check_no_type_clears(shown: Shown) -> dict[str, str]:
    """"In 0 of 7 types the leading version's interval clears every other version's"."""
    from ragmath.lab.ablation import type_intervals

    types = type_intervals(holdout(), "nDCG@5")
    shown.over("66a10825", dict.fromkeys(types["version"], 0.0), displayed=table_columns(shown.output("66a10825")))
    clear = 0
    kinds = list(dict.fromkeys(types["type"]))
    for kind in kinds:
        part = types[types["type"] == kind].set_index("version")
        top = part["mean"].idxmax()
        if all(part.loc[top, "low"] > part.loc[v, "high"] for v in part.index if v != top):
            clear += 1
    return {"clear": f"{clear} ", "types": f"{len(kinds)} "}


def _times(count: int, language: str) -> str:
    """How often a holdout was opened, as the sentence says it: "opened once" (只启封过一次), "opened twice"."""
    if language == "en":
        return "opened " + {1: "once", 2: "twice"}.get(count, f"{count} times")
    return "只启封过" + {1: "一次", 2: "两次"}.get(count, f" {count} 次")


def check_closing_headline(shown: Shown) -> dict[str, str]:
    """"On the q sealed holdout questions (a answerable), opened once, … D nDCG@5 = m [lo, hi] (dev: d) and D
    answer accuracy c/a = r [lo, hi] (Oracle o/a [lo, hi])"."""
    from ragmath.lab.ablation import bootstrap_table, rate_intervals

    hold = holdout()
    table = hold.table
    answerable = int(table.loc["D", "answerable"])
    questions = answerable + int(table.loc["D", "no-answer"])
    boot = bootstrap_table(hold, ["nDCG@5"]).set_index("version").loc["D"]
    rates = rate_intervals(hold).set_index(["version", "rate"])
    d, o = rates.loc[("D", "answer accuracy")], rates.loc[("Oracle", "answer accuracy")]
    dev_value = float(design_1_full().table.loc["D", "nDCG@5"])
    from ragmath.lab.holdout import openings

    opened = len(openings())
    en = shown.language == "en"
    return {"opened": _times(opened, shown.language), "metric": "nDCG@5",
            "questions": f"{questions} ",
            "answerable": f"({answerable} answerable)" if en else f"（其中 {answerable} 个有答案）",
            "ndcg": f"{fmt(boot['mean'])} [{fmt(boot['low'])}, {fmt(boot['high'])}]", "dev": fmt(dev_value),
            "accuracy": f"{int(d['x'])}/{int(d['N'])} = {fmt(d['value'])} [{fmt(d['low'])}, {fmt(d['high'])}]",
            "oracle": f"{int(o['x'])}/{int(o['N'])} [{fmt(o['low'])}, {fmt(o['high'])}]"}


def check_closing_none_settled(shown: Shown) -> dict[str, str]:
    """"It supports statements whose interval excludes 0 and whose Holm-adjusted p is below 0.05: none of the
    compared differences"."""
    from ragmath.lab.ablation import paired_table

    table = paired_table(holdout(), PAIRS, "nDCG@5", label="x")
    settled = ((table["low"] > 0) | (table["high"] < 0)) & (table["p (sign-flip, Holm)"] < 0.05)
    in_scope = shown.over("134a6ab4", {str(i): float(x) for i, x in enumerate(settled)}, index=None)
    assert not any(in_scope.values()), table
    row = _paired_row(holdout(), "C − A")
    en = shown.language == "en"
    return {"zero": "excludes 0" if en else "不含 0", "level": "below 0.05" if en else "低于 0.05",
            "metric": "nDCG@5", "diff": f"{_signed(row['mean diff'])} [{_signed(row['low'])}, {_signed(row['high'])}]",
            "holds": "includes 0" if en else "包含 0", "p": f"p = {row['p (sign-flip)']:.3f}",
            "holm": f"Holm {row['p (sign-flip, Holm)']:.3f}"}


def check_closing_d_minus_c(shown: Shown) -> dict[str, str]:
    """"D − C's interval leaves out 0, but its Holm-adjusted sign-flip p is h, above 0.05, and only c of its n
    questions change"."""
    row = _paired_row(holdout(), "D − C")
    assert row["low"] > 0 and row["p (sign-flip, Holm)"] > 0.05
    changed = int(row["wins"] + row["losses"])
    en = shown.language == "en"
    return {"holm": fmt(row["p (sign-flip, Holm)"]), "changed": f"{changed} ", "n": f"{int(row['questions'])} ",
            "zero": "leaves out 0" if en else "不含 0", "level": "above 0.05" if en else "高于 0.05",
            "5 %": "5 %" if en else "5%"}


def check_closing_dev_gap(shown: Shown) -> dict[str, str]:
    """"The holdout's D nDCG@5 is higher than dev's … it does not show that the dev estimate was pessimistic
    by g"."""
    hold_value = float(holdout().table.loc["D", "nDCG@5"])
    dev_value = float(design_1_full().table.loc["D", "nDCG@5"])
    assert hold_value > dev_value
    return {"gap": fmt(hold_value - dev_value), "metric": "nDCG@5"}


#: The code cells that display the holdout's table: its retrieval columns and its answer columns.
HOLDOUT_RETRIEVAL, HOLDOUT_ANSWERS = "ecebbb5e", "026c59c0"


def _holdout_leads(shown: Shown, metric: str, versions, leader: list[str]) -> dict[str, str]:
    import pandas as pd

    column = pd.to_numeric(holdout().table[metric], errors="coerce").astype(float).to_dict()
    cell = HOLDOUT_RETRIEVAL if "@" in metric else HOLDOUT_ANSWERS
    found = shown.leaders(cell, column)
    assert found == leader, f"over the rows of the table (cell {cell}) {found} lead(s) on {metric}, not {leader}: {column}"
    return {"metric": metric, **{v: f"{v} {fmt(column[v])}" for v in versions}}


def check_holdout_leader(metric: str, versions: str, leader: list[str]):
    def check(shown: Shown) -> dict[str, str]:
        values = _holdout_leads(shown, metric, versions, leader)
        values["metric"] = word(metric, shown.language)
        if metric == "answer accuracy":  # the reading adds the counts and their spread
            table = holdout().table
            correct = {v: int(table.loc[v, "answers correct"]) for v in versions}
            n = int(table.loc["D", "answerable"])
            values |= {f"{v} correct": f"{v} {c}/{n}" for v, c in correct.items()}
            values |= {"spread": f"{max(correct.values()) - min(correct.values())} ",
                       "n": f"out of {n}" if shown.language == "en" else f"共 {n} 道",
                       "weight": f"{100 / n:.1f}"}
        return values
    return check


def paired_by_type(result, a: str, b: str, metric: str = "nDCG@5") -> dict[str, dict[str, float]]:
    """b − a type by type on the answerable questions, recomputed from ragmath: per type N, both means, the
    paired bootstrap interval, the sign-flip p and Holm's p over the types, and the type's share of the sum."""
    from ragmath.comparison import holm, sign_flip_p
    from ragmath.stats import paired_bootstrap

    first = result.per_question.xs(a, level="version")
    first = first[first["answerable"].astype(bool)]
    second = result.per_question.xs(b, level="version").loc[first.index]
    total = float((second[metric] - first[metric]).sum())
    found = {}
    for kind, part in first.groupby("type", sort=True):
        x, y = part[metric], second.loc[part.index, metric]
        diffs = (y - x).to_numpy()
        paired = paired_bootstrap(x, y, seed=0)
        found[kind] = {"N": len(diffs), a: float(x.mean()), b: float(y.mean()), "diff": paired.mean_diff,
                       "low": paired.low, "high": paired.high, "p": sign_flip_p(diffs, seed=0)[0],
                       "share": float(diffs.sum()) / total}
    for kind, p in zip(found, holm([t["p"] for t in found.values()]), strict=True):
        found[kind]["holm"] = p
    return found


def check_rerank_moves_up(shown: Shown) -> dict[str, str]:
    """"By type (the D − C table above), s1 of the holdout's D − C sum comes from the n conflict questions (C c
    → D d) and s2 from the n table questions …, while D is below C on the n paraphrases …: the reranker's gain
    here is mostly the gain of two types, … and no type's Holm-adjusted p is below 0.05". Issue 35: the
    sentence it replaces ("the reranker moves relevant chunks up") read a gain that comes mostly from one type."""
    types = paired_by_type(holdout(), "C", "D")
    shown.one_output_above("D − C by question type", "D − C", *(shown.word(t) for t in types))
    holm_ps = shown.over("hold-dc-types", {str(i): t["holm"] for i, t in enumerate(types.values())}, index=None)
    assert all(p >= 0.05 for p in holm_ps.values()), holm_ps
    by_share = sorted(types, key=lambda t: -types[t]["share"])
    assert by_share[:2] == ["conflict", "table"], by_share
    assert types["conflict"]["share"] + types["table"]["share"] > 0.5  # "mostly"
    para = types["paraphrase"]
    assert para["D"] < para["C"]
    for kind in ("conflict", "table"):
        shown.shows("hold-dc-types", fmt(types[kind]["share"]))
    en = shown.language == "en"

    def group(kind: str) -> str:
        t = types[kind]
        moves = f"(C {fmt(t['C'])} → D {fmt(t['D'])})" if en else f"（C {fmt(t['C'])} → D {fmt(t['D'])}）"
        return (f"{t['N']} {kind} questions {moves}" if en else f"{t['N']} 个{shown.word(kind)}{moves}")

    pct = " %" if en else "%"
    return {"conflict share": f"{types['conflict']['share']:.0%}".replace("%", pct),
            "table share": f"{types['table']['share']:.0%}".replace("%", pct),
            "conflict": group("conflict"), "table": group("table"),
            "paraphrase": (f"{para['N']} paraphrases (C {fmt(para['C'])} → D {fmt(para['D'])})" if en
                           else f"{para['N']} 个{shown.word('paraphrase')}上 D 低于 C（C {fmt(para['C'])} → D "
                                f"{fmt(para['D'])}）"),
            "level": "below 0.05" if en else "低于 0.05"}


def check_holdout_oracle(shown: Shown) -> dict[str, str]:
    table = holdout().table
    oracle, d, n = (int(table.loc["Oracle", "answers correct"]), int(table.loc["D", "answers correct"]),
                    int(table.loc["D", "answerable"]))
    assert oracle >= d
    return {"oracle": f"{oracle}/{n}", "d": f"{d}/{n}", "headroom": f"{oracle - d} ", "lost": f"{n - oracle} "}



CLAIMS = [
    Claim("dev_hit_interval", "f0037781",
          en="Hit@5: C and D lead(s) at 0.884 [0.755, 0.949]; the intervals of A and B overlap it; the widest interval spans 0.246.",
          zh="Hit@5：C 和 D 领先，为 0.884 [0.755, 0.949]；A 和 B 的区间与它重叠；最宽的区间跨度为 0.246。",
          check=check_rates("dev", "Hit@5", ["C", "D"]),
          over=RATE_TABLES["dev"], derived={"0.246": "0.868 - 0.623"}),
    Claim("dev_accuracy_interval", "f0037781",
          en="answer accuracy: Oracle lead(s) at 0.651 [0.502, 0.776]; the intervals of A, B, C and D overlap it; the widest interval spans 0.286.",
          zh="答案准确率：Oracle 领先，为 0.651 [0.502, 0.776]；A、B、C 和 D 的区间与它重叠；最宽的区间跨度为 0.286。",
          check=check_rates("dev", "answer accuracy", ["Oracle"]),
          over=RATE_TABLES["dev"], derived={"0.286": "0.675 - 0.389"}),
    Claim("dev_support_interval", "f0037781",
          en="citation support: Oracle lead(s) at 1.000 [0.893, 1.000]; no other version's interval overlaps it; the widest interval spans 0.305.",
          zh="引用支持率：Oracle 领先，为 1.000 [0.893, 1.000]；没有其他版本的区间与它重叠；最宽的区间跨度为 0.305。",
          check=check_rates("dev", "citation support", ["Oracle"]),
          over=RATE_TABLES["dev"], derived={"0.305": "0.768 - 0.463"}),
    Claim("dev_refusal_interval", "f0037781",
          en="correct refusals: Oracle lead(s) at 1.000 [0.741, 1.000]; the intervals of A, B, C and D overlap it; the widest interval spans 0.495.",
          zh="正确拒答率：Oracle 领先，为 1.000 [0.741, 1.000]；A、B、C 和 D 的区间与它重叠；最宽的区间跨度为 0.495。",
          check=check_rates("dev", "correct refusals", ["Oracle"]),
          over=RATE_TABLES["dev"], derived={"0.495": "0.848 - 0.354"}),
    Claim("dev_c_minus_a", "b50fc4e7",
          en="C − A (dev (optimistic)): +0.055 [-0.008, +0.127] over 43 questions (14 better, 25 tied, 4 worse; sign-flip p = 0.128, Holm over the 3 comparisons 0.256): the interval holds 0, the two cannot be told apart.",
          zh="C − A（开发集（偏乐观））：+0.055 [-0.008, +0.127]，共 43 个问题（14 个变好，25 个持平，4 个变差；符号翻转检验 p = 0.128，对 3 个比较做 Holm 校正后为 0.256）：区间包含 0，两者无法区分。",
          check=check_paired("dev", "C − A")),
    Claim("dev_c_minus_b", "b50fc4e7",
          en="C − B (dev (optimistic)): +0.074 [-0.019, +0.175] over 43 questions (11 better, 18 tied, 14 worse; sign-flip p = 0.145, Holm over the 3 comparisons 0.256): the interval holds 0, the two cannot be told apart.",
          zh="C − B（开发集（偏乐观））：+0.074 [-0.019, +0.175]，共 43 个问题（11 个变好，18 个持平，14 个变差；符号翻转检验 p = 0.145，对 3 个比较做 Holm 校正后为 0.256）：区间包含 0，两者无法区分。",
          check=check_paired("dev", "C − B")),
    Claim("dev_d_minus_c", "b50fc4e7",
          en="D − C (dev (optimistic)): +0.071 [+0.027, +0.119] over 43 questions (17 better, 24 tied, 2 worse; sign-flip p = 0.004, Holm over the 3 comparisons 0.012): the interval leaves out 0 and Holm's p is below 0.05, the two can be told apart.",
          zh="D − C（开发集（偏乐观））：+0.071 [+0.027, +0.119]，共 43 个问题（17 个变好，24 个持平，2 个变差；符号翻转检验 p = 0.004，对 3 个比较做 Holm 校正后为 0.012）：区间不含 0，且 Holm 校正后的 p 低于 0.05，两者可以区分开。",
          check=check_paired("dev", "D − C")),
    Claim("holdout_recall_leader", "6e0db134",
          en="On Recall@5, C and D tie for the lead (A 0.760, B 0.798, C 0.845, D 0.845); the article expects fusion to lead: this matches",
          zh="Recall@5：C 和 D 并列领先（A 0.760、B 0.798、C 0.845、D 0.845）；文章预期融合领先，结果相符",
          check=check_holdout_leader("Recall@5", "ABCD", ["C", "D"]),
          over=HOLDOUT_RETRIEVAL),
    Claim("holdout_mrr_leader", "6e0db134",
          en="On MRR@5, D leads (C 0.786, D 0.852)",
          zh="MRR@5：D 领先（C 0.786、D 0.852）",
          check=check_holdout_leader("MRR@5", "CD", ["D"]),
          over=HOLDOUT_RETRIEVAL),
    Claim("holdout_ndcg_leader", "6e0db134",
          en="On nDCG@5, D leads (C 0.765, D 0.814)",
          zh="nDCG@5：D 领先（C 0.765、D 0.814）",
          check=check_holdout_leader("nDCG@5", "CD", ["D"]),
          over=HOLDOUT_RETRIEVAL),
    Claim("rerank_moves_up", "6e0db134",
          en="By type (the D − C table above), 63 % of the holdout's D − C sum comes from the 6 conflict questions (C 0.782 → D 1.000) and 31 % from the 6 table questions (C 0.749 → D 0.855), while D is below C on the 7 paraphrases (C 0.503 → D 0.474): the reranker's gain here is mostly the gain of two types, not a general move of relevant chunks up, and no type's Holm-adjusted p is below 0.05.",
          zh="按题型看（上面的 D − C 表），保留集 D − C 总和的 63% 来自 6 个冲突题（C 0.782 → D 1.000），31% 来自 6 个表格题（C 0.749 → D 0.855），而在 7 个同义改写题上 D 低于 C（C 0.503 → D 0.474）：这里重排模型的提升主要是两个题型的提升，并不是普遍把相关片段往前提；没有一个题型的 Holm 校正后 p 低于 0.05。",
          check=check_rerank_moves_up, over="hold-dc-types",
          derived={"63": "100 * 0.631", "31": "100 * 0.308"}),
    Claim("holdout_accuracy_leader", "6e0db134",
          en="On answer accuracy, A, C and D tie for the lead among A–D (A 0.419, B 0.372, C 0.419, D 0.419): A 18/43, B 16/43, C 18/43, D 18/43 correct. The four versions are 2 questions apart out of 43; one question weighs 2.3 points",
          zh="答案准确率：A–D 中 A、C 和 D 并列领先（A 0.419、B 0.372、C 0.419、D 0.419），答对的题数为 A 18/43、B 16/43、C 18/43、D 18/43。四个版本之间最多相差 2 道题（共 43 道）；一道题就占 2.3 个百分点",
          check=check_holdout_leader("answer accuracy", "ABCD", ["A", "C", "D"]),
          over=HOLDOUT_ANSWERS, derived={"2.3": "100 / 43"}),
    Claim("holdout_support_leader", "6e0db134",
          en="On citation support, A, C and D tie for the lead among A–D (A 0.711, B 0.686, C 0.711, D 0.711).",
          zh="引用支持率：A–D 中 A、C 和 D 并列领先（A 0.711、B 0.686、C 0.711、D 0.711）。",
          check=check_holdout_leader("citation support", "ABCD", ["A", "C", "D"]),
          over=HOLDOUT_ANSWERS),
    Claim("holdout_oracle_headroom", "6e0db134",
          en="The Oracle answers 20/43 with the gold evidence in hand, D 18/43: better retrieval could win at most 2 more here, and the other 23 are lost by the generator itself",
          zh="Oracle（给定标准证据）答对 20/43，D 答对 18/43：更好的召回在这里最多还能多答对 2 道，其余 23 道是生成器自己答错的",
          check=check_holdout_oracle,
          scope="'at most 2 more' bounds what better retrieval could win (the Oracle's correct answers minus D's): it ranges over no rows"),
    Claim("holdout_hit_interval", "0ea33a7b-reading",
          en="Hit@5: C and D lead(s) at 0.930 [0.814, 0.976]; the intervals of A and B overlap it; the widest interval spans 0.207.",
          zh="Hit@5：C 和 D 领先，为 0.930 [0.814, 0.976]；A 和 B 的区间与它重叠；最宽的区间跨度为 0.207。",
          check=check_rates("holdout", "Hit@5", ["C", "D"]),
          over=RATE_TABLES["holdout"], derived={"0.207": "0.934 - 0.727"}),
    Claim("holdout_accuracy_interval", "0ea33a7b-reading",
          en="answer accuracy: Oracle lead(s) at 0.465 [0.325, 0.611]; the intervals of A, B, C and D overlap it; the widest interval spans 0.286.",
          zh="答案准确率：Oracle 领先，为 0.465 [0.325, 0.611]；A、B、C 和 D 的区间与它重叠；最宽的区间跨度为 0.286。",
          check=check_rates("holdout", "answer accuracy", ["Oracle"]),
          over=RATE_TABLES["holdout"], derived={"0.286": "0.611 - 0.325"}),
    Claim("holdout_support_interval", "0ea33a7b-reading",
          en="citation support: Oracle lead(s) at 1.000 [0.886, 1.000]; no other version's interval overlaps it; the widest interval spans 0.294.",
          zh="引用支持率：Oracle 领先，为 1.000 [0.886, 1.000]；没有其他版本的区间与它重叠；最宽的区间跨度为 0.294。",
          check=check_rates("holdout", "citation support", ["Oracle"]),
          over=RATE_TABLES["holdout"], derived={"0.294": "0.814 - 0.520"}),
    Claim("holdout_refusal_interval", "0ea33a7b-reading",
          en="correct refusals: Oracle lead(s) at 1.000 [0.722, 1.000]; the intervals of A, B, C and D overlap it; the widest interval spans 0.527.",
          zh="正确拒答率：Oracle 领先，为 1.000 [0.722, 1.000]；A、B、C 和 D 的区间与它重叠；最宽的区间跨度为 0.527。",
          check=check_rates("holdout", "correct refusals", ["Oracle"]),
          over=RATE_TABLES["holdout"], derived={"0.527": "0.763 - 0.237"}),
    Claim("holdout_c_minus_a", "134a6ab4-reading",
          en="C − A (holdout): +0.041 [-0.013, +0.099] over 43 questions (7 better, 33 tied, 3 worse; sign-flip p = 0.162, Holm over the 3 comparisons 0.324): the interval holds 0, the two cannot be told apart.",
          zh="C − A（保留集）：+0.041 [-0.013, +0.099]，共 43 个问题（7 个变好，33 个持平，3 个变差；符号翻转检验 p = 0.162，对 3 个比较做 Holm 校正后为 0.324）：区间包含 0，两者无法区分。",
          check=check_paired("holdout", "C − A")),
    Claim("holdout_c_minus_b", "134a6ab4-reading",
          en="C − B (holdout): +0.028 [-0.052, +0.116] over 43 questions (8 better, 28 tied, 7 worse; sign-flip p = 0.522, Holm over the 3 comparisons 0.522): the interval holds 0, the two cannot be told apart.",
          zh="C − B（保留集）：+0.028 [-0.052, +0.116]，共 43 个问题（8 个变好，28 个持平，7 个变差；符号翻转检验 p = 0.522，对 3 个比较做 Holm 校正后为 0.522）：区间包含 0，两者无法区分。",
          check=check_paired("holdout", "C − B")),
    Claim("holdout_d_minus_c", "134a6ab4-reading",
          en="D − C (holdout): +0.048 [+0.010, +0.093] over 43 questions (8 better, 32 tied, 3 worse; sign-flip p = 0.030, Holm over the 3 comparisons 0.091): the interval leaves out 0 but Holm's p is not below 0.05: interval and p disagree at the edge, so the difference is not settled at the 5 % level.",
          zh="D − C（保留集）：+0.048 [+0.010, +0.093]，共 43 个问题（8 个变好，32 个持平，3 个变差；符号翻转检验 p = 0.030，对 3 个比较做 Holm 校正后为 0.091）：区间不含 0，但 Holm 校正后的 p 不低于 0.05：区间和 p 在边界上不一致，所以在 5% 水平上这个差异还没有定论。",
          check=check_paired("holdout", "D − C")),
    Claim("type_sizes", "42b8a359",
          en="Answerable questions per type: conflict 6, cross-permission 3, exact-id 7, multi-hop 7, paraphrase 7, single-hop 7, table 6; one question moves a type's mean by up to 1/N, 0.14 at N = 7 and 0.33 at N = 3.",
          zh="各题型的有答案的问题数：冲突题 6、跨权限题 3、编号题 7、多跳 7、同义改写题 7、单跳 7、表格题 6；一个问题最多能让一个题型的均值变动 1/N，N = 7 时为 0.14，N = 3 时为 0.33。",
          check=check_type_sizes),
    Claim("type_paraphrase_order", "42b8a359",
          en="On paraphrases (N = 7) nDCG@5 goes B 0.662 [0.286, 0.947] > C 0.503 [0.217, 0.786] > D 0.474 [0.198, 0.766] > A 0.286 [0.000, 0.571]: the vector list (design 1's character n-grams, no model) leads, and fusion and the reranker lose part of it (C 0.503, D 0.474); every interval overlaps the leader's, so this is a direction, not a finding.",
          zh="在同义改写题（N = 7）上，nDCG@5 依次为 B 0.662 [0.286, 0.947] > C 0.503 [0.217, 0.786] > D 0.474 [0.198, 0.766] > A 0.286 [0.000, 0.571]：向量检索（设计 1 的字符 n-gram，没有模型）领先，而融合和重排丢掉了其中一部分（C 0.503，D 0.474）；每个区间都与第一名的区间重叠，所以这只是一个方向，不是结论。",
          check=check_paraphrase_order,
          over="66a10825"),
    Claim("type_exact_loss", "42b8a359",
          en="On exact-ID questions (N = 7) C 0.898 [0.792, 0.975] is below A 0.950 [0.901, 1.000]: the article's warning that fusion can push exact hits down (revisit k or W); the intervals overlap, so N = 7 questions cannot tell how large the loss is.",
          zh="在编号题（N = 7）上，C 0.898 [0.792, 0.975] 低于 A 0.950 [0.901, 1.000]：这正是文章的警告，融合可能把精确命中往下推（需重新考虑 k 或 W）；区间相互重叠，所以 N = 7 个问题说不清损失有多大。",
          check=check_exact_loss),
    Claim("type_none_clears", "42b8a359",
          en="In 0 of 7 types the leading version's interval clears every other version's. Groups this small can show a direction worth a look and a failure large enough to clear the intervals; they cannot rank versions within a type, and a per-type difference inside overlapping intervals is not a finding (reading all types at once also multiplies the chances of a fluke).",
          zh="7 个题型中，有 0 个题型里领先版本的区间与其他每个版本的区间都不重叠。这么小的分组能显示值得一看的方向，也能显示大到越过区间的失败；它们无法在一个题型内给版本排序，落在相互重叠的区间内的逐题型差异也不是结论（一次看所有题型，还会成倍增加碰上偶然结果的机会）。",
          check=check_no_type_clears,
          over="66a10825"),
    Claim("closing_headline", "a5a900a5-reading",
          en="On the 53 sealed holdout questions (43 answerable), opened once, the frozen design scores D nDCG@5 = 0.814 [0.722, 0.896] (dev, optimistic: 0.716) and D answer accuracy 18/43 = 0.419 [0.284, 0.567] (Oracle 20/43 [0.325, 0.611]).",
          zh="在 53 个封存的保留集问题（其中 43 个有答案）上，保留集只启封过一次，冻结的设计得到 D 的 nDCG@5 = 0.814 [0.722, 0.896]（开发集上的值偏乐观：0.716），D 的答案准确率 18/43 = 0.419 [0.284, 0.567]（Oracle 20/43 [0.325, 0.611]）。",
          check=check_closing_headline),
    Claim("closing_none_settled", "a5a900a5-reading",
          en="It supports statements whose interval excludes 0 and whose Holm-adjusted p is below 0.05: none of the compared differences. It does not separate the others: C − A on nDCG@5 is +0.041 [-0.013, +0.099] (includes 0; sign-flip p = 0.162, Holm 0.324).",
          zh="能得出“区间不含 0 且 Holm 校正后 p 低于 0.05”这一结论的差值：一个也没有。其余的差值，保留集也区分不开：C − A 在 nDCG@5 上为 +0.041 [-0.013, +0.099]（包含 0；符号翻转检验 p = 0.162，Holm 0.324）。",
          check=check_closing_none_settled,
          over="134a6ab4"),
    Claim("closing_d_minus_c", "a5a900a5-reading",
          en="D − C's interval leaves out 0, but its Holm-adjusted sign-flip p is 0.091, above 0.05, and only 11 of its 43 questions change: tested with the table's other comparisons, the gain is not settled at the 5 % level; read it as a direction for fresh questions to confirm.",
          zh="D − C 的区间不含 0，但它经 Holm 校正的符号翻转检验 p 为 0.091，高于 0.05，而且它的 43 个问题中只有 11 个有变化：与表中其他比较一起检验时，这个提升在 5% 水平上并不确定；把它当作一个方向，留给新的问题去确认。",
          check=check_closing_d_minus_c),
    Claim("closing_dev_gap", "a5a900a5-reading",
          en="The holdout's D nDCG@5 is higher than dev's. The two sets hold different questions in different groups, so this compares question sets as much as systems: it does not show that the dev estimate was pessimistic by 0.098.",
          zh="保留集上 D 的 nDCG@5 高于开发集。两个集合装的是不同分组里的不同问题，所以这既是在比较系统，也是在比较问题集：它并不说明开发集的估计偏悲观了 0.098。",
          check=check_closing_dev_gap,
          derived={"0.098": "0.814 - 0.716"}),
]


def check_overlap_shared(shown: Shown) -> dict[str, str]:
    """"s of the holdout's p positive labels point to chunks that are also evidence of a dev question (pairs)"."""
    from ragmath.lab.holdout import holdout_overlap

    overlap = holdout_overlap()
    shared = overlap["shared with dev evidence"]
    shown.shows("holdout-overlap", str(overlap["holdout positive labels"]), *(q for q, _ in shared))
    sep = ", " if shown.language == "en" else "、"
    return {"shared": f"{len(shared)} ", "labels": f"{overlap['holdout positive labels']} ",
            "pairs": sep.join(f"{q} → {c}" for q, c in shared)}


def check_overlap_added(shown: Shown) -> dict[str, str]:
    """"The sealing commit added a chunks to the corpus (now n). Dev tuning ran over d of them: … no dev question
    labels any of them"."""
    from ragmath.lab.holdout import holdout_overlap

    overlap = holdout_overlap()
    assert overlap["dev labels on added chunks"] == 0
    added, in_dev = len(overlap["chunks added with the holdout"]), overlap["added chunks in the dev corpus"]
    shown.shows("holdout-overlap", str(added), str(overlap["corpus chunks"]))
    en = shown.language == "en"
    return {"added": f"added {added} chunks" if en else f"加入了 {added} 个片段",
            "now": f"now {overlap['corpus chunks']}" if en else f"现共 {overlap['corpus chunks']} 个",
            "in dev": f"over {in_dev} of them" if en else f"其中 {in_dev} 个"}


def check_frozen_choice(shown: Shown) -> dict[str, str]:
    """"On dev, D's nDCG@5 at k = f minus at k = 60 (W, M) is +x [lo, hi] over n questions (sign-flip p): the
    interval holds 0, so the rule … keeps k = 60, not the frozen k = f"."""
    from ragmath.lab.holdout import opened_design
    from ragmath.lab.workbook import keep_default_rule, knob_against_default

    frozen = opened_design(1)
    rows = knob_against_default(frozen, "k", [frozen.k])
    row = rows[~rows["default"]].iloc[0]
    assert row["low"] <= 0 <= row["high"] and keep_default_rule(rows) == 60
    en = shown.language == "en"
    return {"frozen k": f"k = {frozen.k:g}", "default": "k = 60", "W": f"W = {frozen.window}", "M": f"M = {frozen.rerank_depth}",
            "diff": f"{row['diff vs default']:+.3f} [{row['low']:+.3f}, {row['high']:+.3f}]", "metric": "nDCG@5",
            "n": f"{int(row['questions'])} ", "p": f"p = {row['p (sign-flip)']:.3f}",
            "zero": "holds 0" if en else "包含 0", "rule": "excludes 0" if en else "不含 0",
            "not": f"not the frozen k = {frozen.k:g}" if en else f"而不是冻结的 k = {frozen.k:g}"}


CLAIMS += [
    Claim("overlap_shared", "17e3e266",
          en="7 of the holdout's 56 positive labels point to chunks that are also evidence of a dev question (Q62 → TRV26-6.1, Q63 → TRV26-5.2, Q63 → TRV26-5.1, Q64 → TRV26-7.1, Q67 → TRV26-4.2-a, Q97 → TRV26-7.2, Q100 → TRV26-3.1)",
          zh="保留集的 56 条正标注中，有 7 条指向同时也是某个开发集问题证据的片段（Q62 → TRV26-6.1、Q63 → TRV26-5.2、Q63 → TRV26-5.1、Q64 → TRV26-7.1、Q67 → TRV26-4.2-a、Q97 → TRV26-7.2、Q100 → TRV26-3.1）",
          check=check_overlap_shared),
    Claim("overlap_added", "17e3e266",
          en="The sealing commit added 47 chunks to the corpus (now 192). Dev tuning ran over 47 of them: the dev corpus holds them and no dev question labels any of them, so they were distractors.",
          zh="封存的那次提交向语料加入了 47 个片段（现共 192 个）。开发集调参时其中 47 个已在场：开发集语料包含它们，但没有任何开发集问题标注它们，所以它们是干扰项。",
          check=check_overlap_added,
          scope="the dev questions' labels, every one (the check counts the dev labels on the added chunks)"),
    Claim("frozen_choice", "d448080d-reading",
          en="On dev, D's nDCG@5 at k = 1 minus at k = 60 (W = 40, M = 5) is +0.040 [-0.006, +0.102] over 43 questions (sign-flip p = 0.219): the interval holds 0, so the rule (keep the default unless the paired interval excludes 0) keeps k = 60, not the frozen k = 1.",
          zh="在开发集上，D 在 k = 1 时的 nDCG@5 减去 k = 60（W = 40, M = 5）时的，在 43 个问题上为 +0.040 [-0.006, +0.102]（符号翻转检验 p = 0.219）：区间包含 0，所以规则（除非配对区间不含 0，否则保留默认值）保留 k = 60，而不是冻结的 k = 1。",
          check=check_frozen_choice),
]


def check_generations(shown: Shown) -> dict[str, str]:
    """Section 3's repeated generations, recomputed as its cell draws them: the share of questions whose three
    answers agree, the number of answers, and the widths of the naive Wilson interval (every answer a sample)
    and of the bootstrap over questions; the naive one is narrower."""
    import numpy as np

    from claims import dataset
    from ragmath import bootstrap_interval, wilson_interval
    from ragmath.lab.workbook import ExtractiveAnswerer, answer_is_correct

    dev, ds = design_1_full(), dataset()
    rng = np.random.default_rng(0)
    gen = ExtractiveAnswerer(refuse_below=0.0, as_of=ds.config["snapshot_date"])
    chunks_by_id = ds.corpus.set_index("chunk_id")
    questions = ds.questions.set_index("question_id")
    answerable = [x for x in dev.runs["D"] if any(g > 0 for g in dev.qrels[x].values())]
    outcomes = []
    for x in answerable:
        chunks = chunks_by_id.loc[dev.runs["D"][x][:5]].reset_index().to_dict("records")
        row = []
        for _ in range(3):
            order = list(rng.permutation(len(chunks)))
            if len(order) > 1 and rng.random() < 0.5:
                order = order[:-1]
            answer = gen(questions.loc[x, "text"], [chunks[i] for i in order])
            row.append(answer_is_correct(answer, gold_number=questions.loc[x, "answer_number"], grades=dev.qrels[x]))
        outcomes.append(row)
    outcomes = np.array(outcomes, dtype=float)
    agree = float(np.mean([len(set(r)) == 1 for r in outcomes]))
    naive = wilson_interval(int(outcomes.sum()), outcomes.size)
    _, low, high = bootstrap_interval(outcomes.mean(axis=1), seed=0)
    assert naive[1] - naive[0] < high - low
    en = shown.language == "en"
    return {"agree": f"{agree:.0%}", "n": f"{len(outcomes)} questions" if en else f"{len(outcomes)} 个问题",
            "answers": f"{outcomes.size} ", "naive": f"{naive[1] - naive[0]:.3f}", "boot": f"{high - low:.3f}",
            "three": f"The {outcomes.shape[1]} generations" if en else f"{outcomes.shape[1]} 次生成"}


CLAIMS += [
    Claim("generations", "417b6094",
          en="The 3 generations of a question all agree for 79% of the 43 questions; counting each of the 129 answers as a sample gives an interval 0.169 wide, resampling questions one 0.264 wide: the first claims a precision the 43 questions do not have.",
          zh="一个问题的 3 次生成完全一致的，占 43 个问题的 79%；把 129 个回答各当作一个样本，得到的区间宽 0.169，按问题重抽样得到的区间宽 0.264：前者声称的精度是这 43 个问题撑不起的。",
          check=check_generations),
]


# ---- holdout-2, opened once for design 3 (section 8's last subsection) ------------------------------------

def check_h2_record(shown: Shown) -> dict[str, str]:
    """"Holdout-2 was opened once, with design 3 as section 1 ran it on dev; its stored results and both
    vector files match the hashes of its record": show_opening_2 checks the hashes (it raises otherwise)."""
    from dataclasses import replace

    from ragmath.lab.holdout import frozen_design

    run = _opening_2()
    assert run.design == replace(frozen_design(), split="holdout")
    assert len(run.opening["files"]) == 2 and run.opening["results_sha256"]
    shown.shows("h2-record", run.opening["results_sha256"][:12],
                *(sha[:12] for sha in run.opening["files"].values()), "yes" if shown.language == "en" else "是")
    en = shown.language == "en"
    return {"opened": _times(run.times_opened, shown.language),
            "design": "design 3" if en else "设计 3", "section": "section 1" if en else "第 1 节",
            "function": "show_opening_2", **({"name": "Holdout-2"} if en else {})}


def check_h2_order(shown: Shown) -> dict[str, str]:
    """"On holdout-2 nDCG@5 is A …, E …: the hybrid rows C, D and E are above B, the reverse of dev, where B
    led (B …; C …, D …, E …, tuned on dev)" (over the rows of the dev-beside-holdout-2 table)."""
    hold = holdout_2().table["nDCG@5"].astype(float)
    dev = dev_ablation().table["nDCG@5"].astype(float)
    versions = list("ABCDE")
    shown.over("h2-ndcg", {v: float(dev[v]) for v in versions})
    assert max(versions, key=lambda v: dev[v]) == "B"
    assert all(hold[v] > hold["B"] for v in "CDE") and all(dev[v] < dev["B"] for v in "CDE")
    sep = ", " if shown.language == "en" else "、"
    return {"holdout-2": sep.join(f"{v} {fmt(hold[v])}" for v in versions), "metric": "nDCG@5",
            **({"name": "On holdout-2"} if shown.language == "en" else {}),
            "dev B": f"B {fmt(dev['B'])}", "dev CDE": sep.join(f"{v} {fmt(dev[v])}" for v in "CDE")}


def check_h2_dc_types(shown: Shown) -> dict[str, str]:
    """"D − C by type (N = lo to hi questions each): every interval holds 0, the lowest mean t1's … and the
    highest t2's … (n questions)"."""
    types = paired_by_type(holdout_2(), "C", "D")
    intervals = shown.over("h2-dc-types", {str(i): (t["low"], t["high"]) for i, t in enumerate(types.values())},
                           index=None)
    assert all(lo <= 0 <= hi for lo, hi in intervals.values()), types
    low = min(types, key=lambda t: types[t]["diff"])
    high = max(types, key=lambda t: types[t]["diff"])
    sizes = [t["N"] for t in types.values()]
    en = shown.language == "en"

    def reading(kind: str) -> str:
        t = types[kind]
        return f"{_signed(t['diff'])} [{_signed(t['low'])}, {_signed(t['high'])}]"

    return {"N": f"N = {min(sizes)} to {max(sizes)}" if en else f"N = {min(sizes)} 到 {max(sizes)}",
            "zero": "holds 0" if en else "包含 0",
            "low": (f"{low}'s {reading(low)}" if en else f"{shown.word(low)} {reading(low)}"),
            "high": (f"{high}'s {reading(high)} ({types[high]['N']} questions)" if en
                     else f"{shown.word(high)} {reading(high)}（{types[high]['N']} 个问题）")}


def check_h2_inconclusive(shown: Shown) -> dict[str, str]:
    """"With n answerable questions, every paired interval of holdout-2 holds 0. It is inconclusive …"."""
    from ragmath.lab.ablation import paired_table

    table = paired_table(holdout_2(), PAIRS_2, "nDCG@5", label="x")
    holds = shown.over("h2-pairs", {str(i): bool(lo <= 0 <= hi) for i, (lo, hi)
                                    in enumerate(zip(table["low"], table["high"], strict=True))}, index=None)
    assert all(holds.values()), table
    n = int(holdout_2().table.loc["D", "answerable"])
    en = shown.language == "en"
    return {"n": f"{n} answerable questions" if en else f"{n} 个有答案的问题",
            "zero": "holds 0" if en else "包含 0", **({"name": "of holdout-2"} if en else {})}


CLAIMS += [
    Claim("h2_record", "h2-reading",
          en="Holdout-2 was opened once, with design 3 as section 1 ran it on dev; its stored results and both vector files match the hashes of its record (show_opening_2 refuses them otherwise).",
          zh="第二个保留集只启封过一次，用的就是第 1 节在开发集上运行的设计 3；存储的结果和两个向量文件都与记录中的哈希一致（否则 show_opening_2 会拒绝它们）。",
          check=check_h2_record),
    Claim("h2_order", "h2-reading",
          en="On holdout-2 nDCG@5 is A 0.775, B 0.793, C 0.815, D 0.823, E 0.824: the hybrid rows C, D and E are above B, the reverse of dev, where B led (B 0.809; C 0.796, D 0.797, E 0.798, tuned on dev).",
          zh="在第二个保留集上，nDCG@5 为 A 0.775、B 0.793、C 0.815、D 0.823、E 0.824：混合检索的 C、D、E 三行都高于 B，与开发集相反；开发集上 B 排第一（B 0.809；C 0.796、D 0.797、E 0.798，都是在开发集上调的参）。",
          check=check_h2_order, over="h2-ndcg"),
    Claim("h2_b_minus_c", "h2-reading",
          en="B − C (holdout-2): -0.022 [-0.091, +0.046] over 34 questions (7 better, 18 tied, 9 worse; sign-flip p = 0.541, Holm over the 4 comparisons 1.000): the interval holds 0, the two cannot be told apart.",
          zh="B − C（第二个保留集）：-0.022 [-0.091, +0.046]，共 34 个问题（7 个变好，18 个持平，9 个变差；符号翻转检验 p = 0.541，对 4 个比较做 Holm 校正后为 1.000）：区间包含 0，两者无法区分。",
          check=check_paired("holdout-2", "B − C")),
    Claim("h2_d_minus_c", "h2-reading",
          en="D − C (holdout-2): +0.007 [-0.009, +0.027] over 34 questions (5 better, 26 tied, 3 worse; sign-flip p = 0.555, Holm over the 4 comparisons 1.000): the interval holds 0, the two cannot be told apart.",
          zh="D − C（第二个保留集）：+0.007 [-0.009, +0.027]，共 34 个问题（5 个变好，26 个持平，3 个变差；符号翻转检验 p = 0.555，对 4 个比较做 Holm 校正后为 1.000）：区间包含 0，两者无法区分。",
          check=check_paired("holdout-2", "D − C")),
    Claim("h2_e_minus_c", "h2-reading",
          en="E − C (holdout-2): +0.008 [-0.030, +0.049] over 34 questions (5 better, 26 tied, 3 worse; sign-flip p = 0.703, Holm over the 4 comparisons 1.000): the interval holds 0, the two cannot be told apart.",
          zh="E − C（第二个保留集）：+0.008 [-0.030, +0.049]，共 34 个问题（5 个变好，26 个持平，3 个变差；符号翻转检验 p = 0.703，对 4 个比较做 Holm 校正后为 1.000）：区间包含 0，两者无法区分。",
          check=check_paired("holdout-2", "E − C")),
    Claim("h2_c_minus_a", "h2-reading",
          en="C − A (holdout-2): +0.040 [-0.015, +0.103] over 34 questions (9 better, 21 tied, 4 worse; sign-flip p = 0.209, Holm over the 4 comparisons 0.838): the interval holds 0, the two cannot be told apart.",
          zh="C − A（第二个保留集）：+0.040 [-0.015, +0.103]，共 34 个问题（9 个变好，21 个持平，4 个变差；符号翻转检验 p = 0.209，对 4 个比较做 Holm 校正后为 0.838）：区间包含 0，两者无法区分。",
          check=check_paired("holdout-2", "C − A")),
    Claim("h2_dc_types", "h2-reading",
          en="D − C by type (N = 3 to 6 questions each): every interval holds 0, the lowest mean single-hop's -0.028 [-0.071, +0.000] and the highest table's +0.049 [+0.000, +0.073] (3 questions).",
          zh="逐题型的 D − C（每个题型 N = 3 到 6 个问题）：每个区间都包含 0，均值最低的是单跳 -0.028 [-0.071, +0.000]，最高的是表格题 +0.049 [+0.000, +0.073]（3 个问题）。",
          check=check_h2_dc_types, over="h2-dc-types"),
    Claim("h2_inconclusive", "h2-reading",
          en="Read plainly: with 34 answerable questions, every paired interval of holdout-2 holds 0. It is inconclusive: it neither confirms dev's reading that vectors alone beat the hybrid nor shows the reverse, and it shows the reranker neither helping nor hurting.",
          zh="直白地说：第二个保留集只有 34 个有答案的问题，它的每个配对区间都包含 0。结果不确定：它既没有证实开发集上“单靠向量就胜过混合检索”的读法，也没有显示相反的结论；它也没有显示重排模型有帮助或有害处。",
          check=check_h2_inconclusive, over="h2-pairs"),
]
