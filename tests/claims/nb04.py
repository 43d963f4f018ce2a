"""Notebook 04 (nDCG): the sentences that read its tables."""

# ruff: noqa: E501 - the sentences stand as the notebooks write them (Chinese characters count double)

from __future__ import annotations

from claims import Claim, Shown


def units_table() -> dict[str, dict[str, float]]:
    """Q07's run scored at chunk, clause and document level, as section 10's cell scores it."""
    from ragmath import evaluate, units
    from ragmath.lab.corpus import load_corpus, qrels_for

    corpus = load_corpus()
    q07 = qrels_for(["Q07"])["Q07"]
    run_q07 = ["TRV26-4.2-b", "TRV26-4.2-a", "TRV25-4.2-a", "TRV26-4.3", "TRV26-7.4", "ATT25-6"]
    out = {}
    for level in ("chunk", "clause", "document"):
        ranking, grades = units.at_level(run_q07, q07, level, corpus)
        scores = evaluate({"Q07": ranking}, {"Q07": grades}, metrics=("Recall@3", "MRR@3", "nDCG@3"))
        out[level] = {m: float(v) for m, v in scores.per_question.loc["Q07"].items()}
    return out


def _spread(table: dict[str, dict[str, float]], metric: str) -> float:
    values = [row[metric] for row in table.values()]
    return max(values) - min(values)


def _shown_number(value: float) -> str:
    """A score as section 10's table shows it (rounded to 3 decimals; the table shows 0.500 where this says 0.5)."""
    return str(round(value, 3))


def check_units_move_ndcg_not_mrr(shown: Shown) -> dict[str, str]:
    """"The choice of unit moves nDCG but, for this run, not MRR: a relevant unit comes first at every level".
    Today's notebooks said it "moves the numbers too" for MRR and nDCG: MRR@3 is 1.0 at every level."""
    table = units_table()
    assert _spread(table, "nDCG@3") > 0, f"nDCG@3 is the same at every level: {table}"
    assert all(row["MRR@3"] == 1.0 for row in table.values()), f"a level's first unit is not relevant: {table}"
    return {}


def check_units_recap(shown: Shown) -> dict[str, str]:
    """"The level moves Recall@3 (chunk, clause, document) and nDCG@3, while MRR@3 is 1.0 at every level".
    Today's notebooks said it "changes MRR and nDCG as much as Recall": MRR@3 does not move at all."""
    table = units_table()
    for metric in ("Recall@3", "nDCG@3"):
        assert _spread(table, metric) > 0, f"{metric} is the same at every level"
    assert {row["MRR@3"] for row in table.values()} == {1.0}, table
    values = {f"{metric} {level}": _shown_number(row[metric])
              for level, row in table.items() for metric in ("Recall@3", "nDCG@3")}
    shown.shows("d73be3e4", "Q07", *values.values())  # its labels' line names the question
    section = shown.section_of("d73be3e4")
    return {**values, "question": "Q07", "MRR@3": "MRR@3", "MRR": "1.0", "Recall@3": "Recall@3", "nDCG@3": "nDCG@3",
            "section": f"section {section}" if shown.language == "en" else f"第 {section} 节"}


def check_repairs(shown: Shown) -> dict[str, str]:
    """"Repaired alone, the missing C is worth c of nDCG@3 and X at rank 2 x: the missing C costs more, about
    c / x times as much"."""
    from claims import fmt
    from ragmath import ndcg_at_k

    grades = {"A": 2, "B": 1, "C": 2, "X": 0}
    run = ndcg_at_k(["A", "X", "B"], grades, 3)
    c_found = ndcg_at_k(["A", "X", "C"], grades, 3) - run
    x_moved = ndcg_at_k(["A", "B", "X"], grades, 3) - run
    assert c_found > x_moved > 0
    shown.shows("1af601f4", fmt(c_found, 6)[:5], fmt(x_moved, 6)[:5])
    return {"c": fmt(c_found), "x": fmt(x_moved), "ratio": f"{c_found / x_moved:.1f}", "metric": "nDCG@3",
            "rank": "rank 2" if shown.language == "en" else "第 2 名"}


CLAIMS = [
    Claim("repairs", "1af601f4-reading",
          en="Repaired alone (the other fault left in place), the missing C is worth 0.185 of nDCG@3 and X at rank 2 0.024: the missing C costs more, about 7.6 times as much as X at rank 2.",
          zh="单独修复一处、另一处保持不变时，修复“缺失的 C”让 nDCG@3 提高 0.185，修复“第 2 名的 X”提高 0.024：“缺失的 C”的代价更大，约为“第 2 名的 X”的 7.6 倍。",
          check=check_repairs, derived={"7.6": "0.185433 / 0.024279"}),
    Claim("units_move_ndcg_not_mrr", "a5d2c754",
          en="With MRR and nDCG, the choice of unit moves nDCG but, for this run, not MRR: a relevant unit comes "
             "first at\nevery level.",
          zh="换成 MRR 和 nDCG：对这份运行结果，评估单位的选择会让 nDCG 变化，却不会让 MRR 变化——"
             "每个层级上排第一的单位都是相关的。",
          check=check_units_move_ndcg_not_mrr,
          scope="'every level': the three unit levels (chunk, clause, document) of the run"),
    Claim("units_recap", "a6190860",
          en="Back to units (section 10): for Q07 the level moves Recall@3 (0.667, 0.5 and 1.0 at chunk, clause "
             "and document\n  level) and nDCG@3 (0.536, 0.613 and 1.0), while MRR@3 is 1.0 at every level: a "
             "relevant unit comes first at each.",
          zh="回到评估单位（第 10 节）：对 Q07，层级会改变 Recall@3（片段、条款、文档级依次为 0.667、0.5、1.0）"
             "和 nDCG@3（0.536、0.613、1.0），而 MRR@3 在每个层级都是 1.0：每个层级上排第一的单位都是相关的。",
          check=check_units_recap,
          scope="'every level': the three unit levels (chunk, clause, document) the sentence names"),
]
