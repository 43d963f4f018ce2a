"""Intervals and paired comparisons of an ablation result's versions. Used by notebooks 06a, 06b and 07.

The question is the sampling unit throughout.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd

from ragmath import compare
from ragmath.comparison import holm, sign_flip_p

# AblationConfig and run_ablation: the doctests' names (type_intervals, paired_table)
from ragmath.lab.ablation.config import AblationConfig  # noqa: F401
from ragmath.lab.ablation.running import AblationResult, run_ablation  # noqa: F401
from ragmath.lab.workbook import P_HOLM, P_SIGN_FLIP
from ragmath.stats import bootstrap_interval, paired_bootstrap


def type_intervals(result: AblationResult, metric: str, versions: Sequence[str] = ("A", "B", "C", "D"), *,
                   seed: int = 0, resamples: int = 10_000) -> pd.DataFrame:
    """Per question type and version: N answerable questions, the mean ``metric`` and its bootstrap interval.

    >>> t = type_intervals(run_ablation(AblationConfig(rerank_depth=5), answers=False), "nDCG@5", ["A"])
    >>> list(t.columns)
    ['type', 'version', 'N', 'mean', 'low', 'high']

    Raises KeyError for a metric or version the result does not hold.
    """
    rows = []
    for v in versions:
        part = result.per_question.xs(v, level="version")
        part = part[part["answerable"].astype(bool)]
        rows += [_interval(values, seed, resamples, type=kind, version=v)
                 for kind, values in part.groupby("type", sort=True)[metric]]
    return pd.DataFrame(rows)


def _interval(values: pd.Series, seed: int, resamples: int, **labels: str) -> dict:
    """``labels``, then N, the mean of ``values`` and its percentile bootstrap interval."""
    mean, low, high = bootstrap_interval(values, n_resamples=resamples, seed=seed)
    return {**labels, "N": len(values), "mean": mean, "low": low, "high": high}


def rate_intervals(result: AblationResult, confidence: float = 0.95) -> pd.DataFrame:
    """A Wilson interval for every rate of the table: x successes out of N questions.

    Rates (N in brackets): Hit@K (answerable questions), answer accuracy (answerable), citation
    support (questions answered), correct refusals (no-answer questions). The question is the
    sampling unit: each x counts questions, never citations or generations.
    """
    from ragmath.stats import wilson_interval

    top = next(c for c in result.table.columns if c.startswith("Hit@"))
    rows = []
    for v in result.table.index:
        r = result.table.loc[v]
        hits = int(result.evaluations[v].per_question[top].sum()) if v in result.evaluations else None
        for rate, x, n in ((top, hits, r["answerable"]),
                           ("answer accuracy", r["answers correct"], r["answerable"]),
                           ("citation support", r["supported answers"], r["answers given"]),
                           ("correct refusals", r["correct refusals"], r["no-answer"])):
            if x is None or not n > 0:
                continue
            low, high = wilson_interval(int(x), int(n), confidence)
            rows.append({"version": v, "rate": rate, "x": int(x), "N": int(n),
                         "value": int(x) / int(n), "low": low, "high": high})
    return pd.DataFrame(rows)


def bootstrap_table(result: AblationResult, metrics: Sequence[str], *, seed: int = 0,
                    resamples: int = 10_000) -> pd.DataFrame:
    """Mean and percentile bootstrap interval (B resamples of the questions) per version and metric."""
    return pd.DataFrame([_interval(ev.per_question[metric], seed, resamples, version=v, metric=metric)
                         for v, ev in result.evaluations.items() for metric in metrics])


def _compared(result: AblationResult, a: str, b: str, metric: str, seed: int, resamples: int) -> dict:
    """``ragmath.compare``'s comparison of b against a on ``metric`` (its ``comparisons`` row).

    A stored holdout result holds no runs: its per-question scores go through the functions ``compare``
    uses (the tests check that both ways give one table on dev).
    """
    if a in result.runs and b in result.runs:
        found = compare({a: result.runs[a], b: result.runs[b]}, result.qrels, [metric], baseline=a,
                        seed=seed, n_resamples=resamples)
        return found.comparisons.iloc[0].to_dict()
    base = result.evaluations[a].per_question[metric]
    other = result.evaluations[b].per_question[metric].reindex(base.index)
    diffs = (other - base).to_numpy()
    paired = paired_bootstrap(base, other, n_resamples=resamples, seed=seed)
    p, test = sign_flip_p(diffs, n_resamples=resamples, seed=seed)
    return {"diff": paired.mean_diff, "low": paired.low, "high": paired.high, "p": p, "test": test,
            "wins": int((diffs > 0).sum()), "ties": int((diffs == 0).sum()),
            "losses": int((diffs < 0).sum()), "questions": int(diffs.size)}


def paired_table(result: AblationResult, pairs: Sequence[tuple[str, str]], metric: str, *,
                 seed: int = 0, resamples: int = 10_000, label: str = "") -> pd.DataFrame:
    """b − a over the same questions for each (a, b) in ``pairs``, as ``ragmath.compare`` reports it.

    Per row: the mean paired difference with its percentile bootstrap interval over questions, the
    two-sided sign-flip p (``P_SIGN_FLIP``; exact up to 20 non-zero differences, else ``resamples``
    seeded flips, said in ``test``), Holm's p over the rows of this table (``P_HOLM``) and the
    questions b wins, ties and loses. A stored holdout result (no runs) is compared on its stored
    per-question scores: nothing is re-run.

    >>> from ragmath.lab.holdout import frozen_design
    >>> t = paired_table(run_ablation(frozen_design(), answers=False), [("C", "D")], "nDCG@5",
    ...                  resamples=200)
    >>> t.loc[0, "comparison"], t.loc[0, "test"][:6], bool(t.loc[0, P_HOLM] == t.loc[0, P_SIGN_FLIP])
    ('D − C', 'exact:', True)

    Raises KeyError for a version the result does not hold.
    """
    rows = []
    for a, b in pairs:
        row = _compared(result, a, b, metric, seed, resamples)
        rows.append({"split": label or result.config["split"], "comparison": f"{b} − {a}",
                     "metric": metric, "questions": int(row["questions"]), "mean diff": row["diff"],
                     "low": row["low"], "high": row["high"], P_SIGN_FLIP: row["p"], P_HOLM: math.nan,
                     "wins": int(row["wins"]), "ties": int(row["ties"]), "losses": int(row["losses"]),
                     "excludes 0": bool(row["low"] > 0 or row["high"] < 0), "test": row["test"]})
    table = pd.DataFrame(rows)
    if len(table):
        table[P_HOLM] = holm(table[P_SIGN_FLIP])
    return table
