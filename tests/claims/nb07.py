"""Notebook 07 (honest numbers): the sentences that read its tables."""

# ruff: noqa: E501 - the sentences stand as the notebooks write them (Chinese characters count double)

from __future__ import annotations

import functools

from claims import Claim, Shown, fmt


@functools.cache
def holdout():
    """The holdout's stored result for the frozen design (its opening on record: nothing is re-run)."""
    from ragmath.lab.holdout import show_opening

    return show_opening(1).result


def recall_drops() -> list[str]:
    """Holdout questions where C's Recall@5 is below A's or B's: C lost a relevant chunk one of them found."""
    pq = holdout().per_question
    questions = sorted({x for _, x in pq.index})
    return [x for x in questions
            if pq.loc[("C", x), "Recall@5"] < max(pq.loc[("A", x), "Recall@5"], pq.loc[("B", x), "Recall@5"])]


def check_fusion_keeps_not_everything(shown: Shown) -> dict[str, str]:
    """"Yet fusion does not keep everything either list found: on N holdout questions (ids) C's Recall@5 is
    below A's or B's" (after "C leads" on Recall@5). Today's notebooks said "fusion keeps what either list
    found", which would make C's Recall@5 at least A's and B's on every question."""
    table = holdout().table
    assert table.loc[["A", "B", "C"], "Recall@5"].idxmax() == "C"
    drops = recall_drops()
    assert drops, "C's Recall@5 is at least A's and B's on every holdout question: the sentence would be wrong"
    shown.shows("hold-recall-drops", *drops)  # the questions, each with its row
    return {"count": f"{len(drops)} ", **{x: x for x in drops}, "metric": "Recall@5"}


CLAIMS = [
    Claim("fusion_keeps_holdout", "6e0db134",
          en="Yet fusion does not keep everything either list found: on 2 holdout questions (Q67, Q68) C's "
             "Recall@5 is below A's or B's.",
          zh="但融合并没有保留两路召回找到的全部结果：在 2 个保留集问题（Q67、Q68）上，C 的 Recall@5 低于 A 或 B。",
          check=check_fusion_keeps_not_everything),
]


@functools.cache
def leaks():
    """Section 6's leaks, as cell 8494121c measures them: 20 seeds, the frozen design 1, M = 5 and 20."""
    from claims import dataset
    from ragmath.lab.holdout import opened_design
    from ragmath.lab.workbook import LEAK_GRID, leakage_on_fixed_questions

    return leakage_on_fixed_questions(dataset(), opened_design(1), seeds=range(20), grid=LEAK_GRID,
                                      memory_depths=(5, 20))


def _leak_name(leak: str, language: str) -> str:
    """A leak's name as the table and the chart show it (the catalogue's word in Chinese)."""
    if language == "en":
        return leak
    from ragmath.lab.messages import reader_value, use_language

    use_language("zh")
    try:
        return reader_value(leak)
    finally:
        use_language("en")


def check_leak(leak: str):
    def check(shown: Shown) -> dict[str, str]:
        """"Leak through L: on the same q test questions per seed, the leaky estimate of nDCG@5 is higher in h of
        n seeds, by +m on average (per seed from lo to hi); a of the n per-seed 95 % intervals lie above 0 and b
        below" (for tuning: "this leak is 0 or more by construction"). The table of cell 8494121c shows the
        mean, smallest and largest difference, the seeds higher and the intervals above and below 0."""
        part = leaks().xs(leak, level="leak")
        diff = part["difference"]
        questions = int(part["test questions"].iloc[0])
        assert (part["test questions"] == questions).all()
        n, higher = len(part), int((diff > 0).sum())
        above, below = int((part["low"] > 0).sum()), int((part["high"] < 0).sum())
        shown.shows("8494121c", fmt(diff.mean()), fmt(diff.min()), fmt(diff.max()))
        en = shown.language == "en"
        values = {
            "leak": _leak_name(leak, shown.language), "metric": "nDCG@5",
            "questions": f"{questions} test questions" if en else f"{questions} 个测试问题",
            "higher": f"higher in {higher} of {n} seeds" if en else f"在 {n} 个种子中有 {higher} 个更高",
            "mean": f"by {diff.mean():+.3f} on average" if en else f"平均高 {diff.mean():+.3f}",
            "range": (f"per seed from {diff.min():+.3f} to {diff.max():+.3f}" if en
                      else f"各种子从 {diff.min():+.3f} 到 {diff.max():+.3f}"),
            "intervals": (f"{above} of the {n} per-seed 95 % intervals lie above 0 and {below} below" if en
                          else f"{n} 个逐种子的 95% 区间中，{above} 个整体高于 0，{below} 个整体低于 0"),
        }
        if leak.startswith("tuning"):
            assert (diff >= 0).all(), "a leaky pick scored below the honest one on its own test questions"
            values["zero"] = "0 or more by construction" if en else "按构造就不小于 0"
        return values
    return check


def check_leak_twins(shown: Shown) -> dict[str, str]:
    """"On average t of the q test questions have a near-duplicate in the fitting part (w such twins …). The n
    seeds reuse the same dev questions …"; cell 8494121c prints t and w."""
    part = leaks().xs("tuning (k, W, M)", level="leak")
    with_twin, twins = part["test questions with a twin in fitting"].mean(), part["twins in fitting"].mean()
    shown.shows("8494121c", f"{with_twin:.2f}", f"{twins:.2f}")
    en = shown.language == "en"
    return {"with twin": f"{with_twin:.2f}", "twins": f"{twins:.2f}",
            "questions": f"{int(part['test questions'].iloc[0])} test questions" if en
            else f"{int(part['test questions'].iloc[0])} 个测试问题",
            "seeds": f"{len(part)} seeds" if en else f"{len(part)} 个种子"}


CLAIMS += [
    Claim("leak_memory_5", "ab1bdd19",
          en="Leak through memory (M = 5): on the same 13 test questions per seed, the leaky estimate of nDCG@5 is "
             "higher in 15 of 20 seeds, by +0.012 on average (per seed from -0.009 to +0.057); 0 of the 20 per-seed "
             "95 % intervals lie above 0 and 0 below.",
          zh="经由记忆特征（M = 5）的泄漏：每个种子都在同样的 13 个测试问题上比较，有泄漏的一组对 nDCG@5 的估计"
             "在 20 个种子中有 15 个更高，平均高 +0.012（各种子从 -0.009 到 +0.057）；20 个逐种子的 95% 区间中，0 个"
             "整体高于 0，0 个整体低于 0。",
          check=check_leak("memory (M = 5)")),
    Claim("leak_memory_20", "ab1bdd19",
          en="Leak through memory (M = 20): on the same 13 test questions per seed, the leaky estimate of nDCG@5 is "
             "higher in 18 of 20 seeds, by +0.049 on average (per seed from -0.001 to +0.120); 4 of the 20 per-seed "
             "95 % intervals lie above 0 and 0 below.",
          zh="经由记忆特征（M = 20）的泄漏：每个种子都在同样的 13 个测试问题上比较，有泄漏的一组对 nDCG@5 的估计"
             "在 20 个种子中有 18 个更高，平均高 +0.049（各种子从 -0.001 到 +0.120）；20 个逐种子的 95% 区间中，4 个"
             "整体高于 0，0 个整体低于 0。",
          check=check_leak("memory (M = 20)")),
    Claim("leak_tuning", "ab1bdd19",
          en="Leak through tuning (k, W, M): on the same 13 test questions per seed, the leaky estimate of nDCG@5 is "
             "higher in 15 of 20 seeds, by +0.020 on average (per seed from +0.000 to +0.080); 1 of the 20 per-seed "
             "95 % intervals lie above 0 and 0 below. Picking the setting on the test questions themselves can never "
             "score lower on them than an honest pick, so this leak is 0 or more by construction",
          zh="经由调参（k、W、M）的泄漏：每个种子都在同样的 13 个测试问题上比较，有泄漏的一组对 nDCG@5 的估计"
             "在 20 个种子中有 15 个更高，平均高 +0.020（各种子从 +0.000 到 +0.080）；20 个逐种子的 95% 区间中，1 个"
             "整体高于 0，0 个整体低于 0。直接在测试问题上挑选设置，在这些问题上的得分不可能低于诚实挑选的设置，"
             "所以这种泄漏按构造就不小于 0",
          check=check_leak("tuning (k, W, M)")),
    Claim("leak_twins", "ab1bdd19",
          en="On average 3.90 of the 13 test questions have a near-duplicate in the fitting part (5.85 such twins, "
             "which the clean arms leave out). The 20 seeds reuse the same dev questions",
          zh="平均而言，13 个测试问题中有 3.90 个在拟合部分有近重复的问题（这样的近重复问题平均 5.85 个，无泄漏的一组"
             "把它们排除在外）。这 20 个种子复用同一批开发集问题",
          check=check_leak_twins),
]
