"""Notebook 03 (MRR): the sentences that read its tables."""

# ruff: noqa: E501 - the sentences stand as the notebooks write them (Chinese characters count double)

from __future__ import annotations

from claims import Claim, Shown


def _two_systems() -> dict[str, dict[str, float]]:
    from ragmath import evaluate

    qrels_two = {"q1": {"A": 1, "B": 1, "C": 1}, "q2": {"D": 1, "E": 1}}
    systems = {"S1": {"q1": ["A", "X", "Y"], "q2": ["Y", "D", "Z"]},
               "S2": {"q1": ["A", "B", "C"], "q2": ["X", "D", "E"]}}
    means = {name: evaluate(run, qrels_two, metrics=("MRR@3", "Recall@3")).means
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


CLAIMS = [
    Claim("same_mrr_evidence", "8c24a92a",
          en="MRR can rank two systems equal while one of them hands the generator all the evidence and "
             "the other less\nthan half of it.",
          zh="两个系统可以 MRR 一样，其中一个却把全部证据都交给了生成模型，另一个交出的还不到一半。",
          check=check_same_mrr_evidence),
]
