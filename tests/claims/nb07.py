"""Notebook 07 (honest numbers): the sentences that read its tables."""

# ruff: noqa: E501 - the sentences stand as the notebooks write them (Chinese characters count double)

from __future__ import annotations

import functools

from claims import Claim, Shown


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
    return {"count": f"{len(drops)} ", **{x: x for x in drops}, "metric": "Recall@5"}


CLAIMS = [
    Claim("fusion_keeps_holdout", "6e0db134",
          en="Yet fusion does not keep everything either list found: on 2 holdout questions (Q67, Q68) C's "
             "Recall@5 is below A's or B's.",
          zh="但融合并没有保留两路召回找到的全部结果：在 2 个保留集问题（Q67、Q68）上，C 的 Recall@5 低于 A 或 B。",
          check=check_fusion_keeps_not_everything),
]
