"""Notebook 02 (Recall and Hit): the sentences that read its tables and chart."""

# ruff: noqa: E501 - the sentences stand as the notebooks write them (Chinese characters count double)

from __future__ import annotations

import ast
from fractions import Fraction
from itertools import permutations

from claims import Claim, Shown


def section_3_data(shown: Shown) -> tuple[dict, dict]:
    """The labels and the run of section 3, read from the cell that defines them."""
    found = {}
    for node in ast.parse(shown.source("be31ed4f")).body:
        target = node.targets[0] if isinstance(node, ast.Assign) else None
        if isinstance(target, ast.Name) and target.id in ("qrels", "run"):
            found[target.id] = ast.literal_eval(node.value)
    return found["qrels"], found["run"]


def _per_question(shown: Shown) -> dict[str, tuple[Fraction, Fraction]]:
    from ragmath import hit_at_k, recall_at_k

    qrels, run = section_3_data(shown)
    return {q: (recall_at_k(run[q], qrels[q], 3, exact=True), hit_at_k(run[q], qrels[q], 3, exact=True))
            for q in qrels}


def check_mean_recall_lower(shown: Shown) -> dict[str, str]:
    """Mean Recall@3 is below the Hit Rate because q1 missed C; the Chinese adds the article's numbers: 2 of the
    3 questions were not empty-handed (67 %), Recall@3 56 %."""
    qrels, run = section_3_data(shown)
    scores = _per_question(shown)
    recall = sum(r for r, _ in scores.values()) / len(scores)
    hit = sum(h for _, h in scores.values()) / len(scores)
    assert recall < hit and "C" in qrels["q1"] and "C" not in run["q1"][:3]
    assert [q for q, (r, h) in scores.items() if r != h] == ["q1"]
    if shown.language == "en":
        return {"q1": "q1"}
    found = sum(h for _, h in scores.values())
    return {"found": f"{len(scores)} 道题有 {found} 道", "hit": f"{float(hit):.0%}", "recall": f"Recall@3 只有 {float(recall):.0%}",
            "q1": "q1"}


def check_differ_only_on_q1(shown: Shown) -> dict[str, str]:
    """The two metrics differ only on q1 (evidence found in part); q3 has two relevant items and finds neither."""
    qrels, run = section_3_data(shown)
    scores = _per_question(shown)
    assert [q for q, (r, h) in scores.items() if r != h] == ["q1"]
    assert 0 < scores["q1"][0] < 1
    assert len(qrels["q3"]) == 2 and scores["q3"] == (0, 0)
    ids = {"q1": "在 q1 上" if shown.language == "zh" else "only on q1", "q1 again": "q1 有" if shown.language == "zh" else "q1, the one",
           "q3": "q3 "}
    return {**ids, "zero": "都是 0"} if shown.language == "zh" else ids


def check_one_against_two(shown: Shown) -> dict[str, str]:
    """With one relevant item Recall@3 and Hit@3 never disagree over every top 3 of the pool; with two they do."""
    from ragmath import hit_at_k, recall_at_k

    pool = ["D", "E", "Y", "Z", "U", "V"]

    def disagreements(relevant):
        return sum(recall_at_k(list(p), relevant, 3, exact=True) != hit_at_k(list(p), relevant, 3, exact=True)
                   for p in permutations(pool, 3))

    assert disagreements({"D"}) == 0 < disagreements({"D", "E"})
    shown.shows("b8a02fe3", f"for 0 of {len(list(permutations(pool, 3)))}" if shown.language == "en" else "0")
    return {}


CLAIMS = [
    Claim("mean_recall_lower", "ed455b98",
          en="Mean Recall is lower here because q1 missed C.",
          zh="这里 3 道题有 2 道没有落空，就是 67%。同一批结果的 Recall@3 只有 56%，因为 q1 漏了 C。",
          check=check_mean_recall_lower, derived={"56": "100 * 5 / 9"}),
    Claim("differ_only_on_q1", "ab1661c6",
          en="the two metrics differ only on q1, the one question whose evidence was found only in\npart (q3 has two relevant items too, but finds neither).",
          zh="两个指标只在 q1 上不同——q1 有多条相关证据，而且只找回了一部分（q3 也有两条证据，但一条都没找到，两个指标都是 0）。",
          check=check_differ_only_on_q1),
    Claim("one_against_two", "4794b4ef",
          en="with one relevant item there is no disagreement at all (the `assert` checks it),\nwith two there is.",
          zh="只有一条相关证据时，两者完全没有分歧（`assert` 会检查这一点）；有两条时就有了分歧。",
          check=check_one_against_two,
          scope="'no disagreement': the toy runs with one relevant item, which the cell's assert checks"),
]
