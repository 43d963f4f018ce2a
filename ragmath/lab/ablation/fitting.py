"""What a run fits on dev besides the reranker: the refusal threshold. Used by notebooks 06 and 07.

The reranking stage (``RerankStage``: candidates, features, out-of-fold fits) is written in notebook
05b and collected into ``ragmath.lab.workbook``; ``fit_refusal_threshold`` picks the generator's
coverage threshold, and ``run_ablation`` (``running.py``) uses both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def fit_refusal_threshold(rows: Sequence[Mapping[str, Any]]) -> float:
    """Pick the coverage threshold that maximises correct outcomes on dev questions.

    Each row: ``split`` (must be "dev"), ``support`` (best coverage), ``answerable`` (bool) and
    ``correct`` (the answer, if given, is right). Outcome at threshold t: an answerable question
    scores when support >= t and correct; a no-answer question scores when support < t. Ties go to
    the lowest threshold. Raises ValueError for a non-dev row or no rows.

    >>> fit_refusal_threshold([
    ...     {"split": "dev", "support": 0.9, "answerable": True, "correct": True},
    ...     {"split": "dev", "support": 0.2, "answerable": False, "correct": False}])
    0.9
    """
    rows = list(rows)
    if not rows:
        raise ValueError("rows is empty: fit the refusal threshold on the dev questions")
    for r in rows:
        if r.get("split") != "dev":
            raise ValueError(f"row {r.get('question_id', '?')!r} has split={r.get('split')!r}: the refusal "
                             "threshold is fitted on dev questions only")
    candidates = sorted({0.0} | {round(float(r["support"]), 9) for r in rows})
    best_t, best_score = 0.0, -1
    for t in candidates:
        score = sum(
            (r["support"] >= t and r["correct"]) if r["answerable"] else (r["support"] < t)
            for r in rows
        )
        if score > best_score:
            best_t, best_score = t, score
    return best_t
