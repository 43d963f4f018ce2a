"""Notebook 04 (nDCG): the sentences that read its tables."""

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


def check_units_move_mrr_and_ndcg(shown: Shown) -> dict[str, str]:
    """"The same choice of unit moves the numbers too" (MRR and nDCG): both change across the levels."""
    table = units_table()
    for metric in ("MRR@3", "nDCG@3"):
        assert _spread(table, metric) > 0, f"{metric} is the same at every level: {table}"
    return {}


def check_units_as_much_as_recall(shown: Shown) -> dict[str, str]:
    """"Changes MRR and nDCG as much as Recall": each moves across the levels at least as far as Recall@3."""
    table = units_table()
    recall = _spread(table, "Recall@3")
    for metric in ("MRR@3", "nDCG@3"):
        assert _spread(table, metric) >= recall, (
            f"{metric} moves by {_spread(table, metric):.3f} across the levels, Recall@3 by {recall:.3f}")
    return {}


CLAIMS = [
    Claim("units_move_mrr_and_ndcg", "a5d2c754",
          en="With MRR and nDCG the same choice of unit moves the numbers too.",
          zh="换成 MRR 和 nDCG，评估单位的选择同样会让数字变化。",
          check=check_units_move_mrr_and_ndcg),
    Claim("units_recap", "a6190860",
          en="Back to units: the level you score at changes MRR and nDCG as much as Recall (section 10).",
          zh="回到评估单位：评分所用的层级对 MRR 和 nDCG 的影响，不亚于对 Recall 的影响（第 10 节）。",
          check=check_units_as_much_as_recall),
]
