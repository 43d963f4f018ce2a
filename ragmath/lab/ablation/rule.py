"""Each knob value against the default on the same questions, with the tests (notebook 06b).

``against_default`` puts every value's run beside the default's by ``ragmath.compare`` (paired bootstrap
interval, sign-flip p, Holm); the keep-the-default rule that reads it, ``keep_default_rule``, is written in
notebook 06a (``ragmath.lab.workbook``), where row E's α is chosen by it.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence

import pandas as pd

from ragmath.lab.ablation.config import P_HOLM, P_SIGN_FLIP


def against_default(runs: Mapping[Hashable, Mapping[str, Sequence[str]]],
                    qrels: Mapping[str, Mapping[str, int]], knob: str, default: Hashable, metric: str,
                    *, version: str, seed: int = 0, resamples: int = 10_000) -> pd.DataFrame:
    """Each value's run against the default's on the same questions: one row per value, in ``runs``' order.

    Columns: the knob's value, ``default`` (marks the default's own row: difference 0, no test, its p
    columns NaN), ``version``'s mean ``metric``, the paired difference value − default (``diff vs
    default``) with its percentile bootstrap interval (``low``, ``high``), the sign-flip p
    (``P_SIGN_FLIP``), Holm's p over the values compared with the default (``P_HOLM``), the questions
    the value wins, ties and loses, their number and how the p was computed (``test``).

    >>> runs = {1: {"q1": ["a"], "q2": ["b"]}, 60: {"q1": ["b"], "q2": ["b"]}}
    >>> t = against_default(runs, {"q1": {"a": 1}, "q2": {"b": 1}}, "k", 60, "MRR@5", version="C",
    ...                     resamples=100)
    >>> t[["k", "default", "diff vs default", "wins", "losses"]].values.tolist()
    [[1, False, 0.5, 1, 0], [60, True, 0.0, 0, 0]]

    Raises ValueError if ``default`` is not one of the runs (and as ``ragmath.compare`` does).
    """
    from ragmath import compare

    if default not in runs:
        raise ValueError(f"the default {default!r} must be one of the values compared, got {list(runs)}")
    found = compare(dict(runs), qrels, [metric], baseline=default, seed=seed, n_resamples=resamples)
    means = found.systems.set_index("name")["mean"]
    against = found.comparisons.set_index("system")
    n = len(found.per_question[default])
    rows = []
    for value in runs:
        row = (against.loc[value] if value != default else
               {"diff": 0.0, "low": 0.0, "high": 0.0, "p": math.nan, "p_holm": math.nan,
                "wins": 0, "ties": n, "losses": 0, "test": ""})
        rows.append({knob: value, "default": value == default, f"{version} {metric}": float(means[value]),
                     "diff vs default": float(row["diff"]), "low": float(row["low"]),
                     "high": float(row["high"]), P_SIGN_FLIP: float(row["p"]), P_HOLM: float(row["p_holm"]),
                     "wins": int(row["wins"]), "ties": int(row["ties"]), "losses": int(row["losses"]),
                     "questions": n, "test": row["test"]})
    return pd.DataFrame(rows)
