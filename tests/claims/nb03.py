"""Notebook 03 (MRR): the sentences that read its tables."""

# ruff: noqa: E501 - the sentences stand as the notebooks write them (Chinese characters count double)

from __future__ import annotations

from claims import Claim, Shown


def _two_systems() -> dict[str, dict[str, float]]:
    from ragmath import evaluate

    qrels_two = {"q1": {"A": 1, "B": 1, "C": 1}, "q2": {"D": 1, "E": 1}}
    systems = {"S1": {"q1": ["A", "X", "Y"], "q2": ["Y", "D", "Z"]},
               "S2": {"q1": ["A", "B", "C"], "q2": ["X", "D", "E"]}}
    means = {name: evaluate(run, qrels_two, metrics=("MRR@3", "Recall@3", "nDCG@3")).means
             for name, run in systems.items()}
    return {name: {m: float(v) for m, v in values.items()} for name, values in means.items()}


def check_same_mrr_evidence(shown: Shown) -> dict[str, str]:
    """The same MRR; one system hands over all the evidence (Recall@3 = 1), the other "less than half of it"
    (Recall@3 < 0.5). Today's notebooks said "almost none" (at most 10 %): S1's Recall@3 is 0.417."""
    scores = _two_systems()
    assert scores["S1"]["MRR@3"] == scores["S2"]["MRR@3"], "the two MRRs differ"
    recalls = sorted(s["Recall@3"] for s in scores.values())
    assert recalls[1] == 1.0, "neither system hands over all the evidence"
    assert recalls[0] < 0.5, f"the other system hands over {recalls[0]:.3f} of the evidence, not less than half"
    return {}


def check_same_mrr_reading(shown: Shown) -> dict[str, str]:
    """"S1 and S2 have the same MRR@3 (m), yet differ by r on Recall@3, n on nDCG@3"."""
    from claims import fmt

    scores = _two_systems()
    s1, s2 = scores["S1"], scores["S2"]
    assert s1["MRR@3"] == s2["MRR@3"]
    values = {"mrr": f"MRR@3 ({fmt(s1['MRR@3'])})" if shown.language == "en" else f"MRR@3 相同（{fmt(s1['MRR@3'])}）",
              "recall": f"{fmt(abs(s2['Recall@3'] - s1['Recall@3']))}", "ndcg": fmt(abs(s2["nDCG@3"] - s1["nDCG@3"])),
              "Recall@3": "Recall@3", "nDCG@3": "nDCG@3", "S1": "S1", "S2": "S2"}
    shown.shows("384c1b0f", "S1", "S2")
    return values


CLAIMS = [
    Claim("same_mrr_reading", "f8417ec1",
          en="S1 and S2 have the same MRR@3 (0.750), yet differ by 0.583 on Recall@3, 0.419 on nDCG@3: MRR sees only the first relevant item of each question and misses the rest.",
          zh="S1 和 S2 的 MRR@3 相同（0.750），但 Recall@3 相差 0.583、nDCG@3 相差 0.419：MRR 只看每个问题的第一条相关结果，看不到其余的。",
          check=check_same_mrr_reading,
          derived={"0.583": "1.000000 - 0.416667", "0.419": "0.846713 - 0.428066"}),
    Claim("same_mrr_evidence", "8c24a92a",
          en="MRR can rank two systems equal while one of them hands the generator all the evidence and "
             "the other less\nthan half of it.",
          zh="两个系统可以 MRR 一样，其中一个却把全部证据都交给了生成器，另一个交出的还不到一半。",
          check=check_same_mrr_evidence),
]
