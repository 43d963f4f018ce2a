"""Notebook 07 (honest numbers): the sentences that read its tables."""

from __future__ import annotations

import functools

from claims import Claim, Shown


@functools.cache
def holdout():
    """The holdout's stored result for the frozen design (its opening on record: nothing is re-run)."""
    from ragmath.lab.holdout import frozen_design, open_holdout

    return open_holdout(frozen_design()).result


def recall_drops() -> list[str]:
    """Holdout questions where C's Recall@5 is below A's or B's: C lost a relevant chunk one of them found."""
    pq = holdout().per_question
    questions = sorted({x for _, x in pq.index})
    return [x for x in questions
            if pq.loc[("C", x), "Recall@5"] < max(pq.loc[("A", x), "Recall@5"], pq.loc[("B", x), "Recall@5"])]


def check_fusion_keeps(shown: Shown) -> dict[str, str]:
    """"Fusion keeps what either list found": then C's Recall@5 is at least A's and B's on every question."""
    drops = recall_drops()
    assert not drops, f"C's Recall@5 is below A's or B's on {drops}"
    return {}


CLAIMS = [
    Claim("fusion_keeps_holdout", "6e0db134",
          en="Fusion keeps what either list found, as the article expects.",
          zh="融合保留了两路召回各自找到的结果，与文章的预期一致。",
          check=check_fusion_keeps),
]
