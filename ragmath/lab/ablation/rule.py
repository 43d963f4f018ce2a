"""The keep-the-default rule: each value against the default on the same questions (notebooks 06a, 06b).

``against_default`` puts every value's run beside the default's by ``ragmath.compare`` (paired bootstrap
interval, sign-flip p, Holm); ``keep_default_rule`` leaves the default only for a value whose interval lies
wholly above 0. ``knob_against_default`` (k, W, M, α on dev) and row E's out-of-fold choice of α both
decide by these two functions.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np
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


def intervals_against_default(per_question: Mapping[Hashable, pd.Series], knob: str, default: Hashable, *,
                              seed: int = 0, resamples: int = 10_000) -> pd.DataFrame:
    """What the rule reads, without the tests: each value's paired difference from the default, its interval.

    ``per_question`` maps each value to its per-question scores (a Series indexed by question; every
    value's Series holds the same questions). One row per value, in that order: the value, ``default``,
    ``diff vs default`` (mean of value − default) and its percentile bootstrap interval ``low``,
    ``high`` by ``ragmath.stats.paired_bootstrap``, with the seed and resamples ``ragmath.compare``
    uses, so the numbers are :func:`against_default`'s (which adds the sign-flip and Holm p's). For a
    choice made many times (row E's α, fold by fold), where the p's are not read.

    >>> questions = ["q1", "q2"]
    >>> scores = {0.5: pd.Series([0.0, 1.0], index=questions), 0.3: pd.Series([1.0, 1.0], index=questions)}
    >>> table = intervals_against_default(scores, "α", 0.5, resamples=200)
    >>> table[["α", "diff vs default"]].values.tolist()
    [[0.5, 0.0], [0.3, 0.5]]

    Raises ValueError if ``default`` is not one of the values (and as ``paired_bootstrap`` does when the
    questions differ).
    """
    from ragmath.stats import paired_bootstrap

    if default not in per_question:
        raise ValueError(f"the default {default!r} must be one of the values compared, got "
                         f"{list(per_question)}")
    base = per_question[default]
    rows = []
    for value, scores in per_question.items():
        paired = (paired_bootstrap(base, scores, n_resamples=resamples, seed=seed) if value != default
                  else None)
        rows.append({knob: value, "default": value == default,
                     "diff vs default": paired.mean_diff if paired else 0.0,
                     "low": paired.low if paired else 0.0, "high": paired.high if paired else 0.0})
    return pd.DataFrame(rows)


def keep_default_rule(table: pd.DataFrame) -> Any:
    """The choice of the rule "keep the default unless a value's paired interval excludes 0".

    Among the values whose interval against the default lies wholly above 0, the one with the
    largest mean difference (ties: the first listed); if there is none, the default. The IR
    analogue of the one-standard-error rule: a difference the questions cannot resolve does not
    justify leaving the default.

    >>> t = pd.DataFrame({"k": [1, 60], "default": [False, True], "diff vs default": [0.04, 0.0],
    ...                   "low": [-0.006, 0.0], "high": [0.10, 0.0]})
    >>> keep_default_rule(t)
    60

    Raises ValueError unless exactly one row is marked ``default``.
    """
    knob = table.columns[0]
    defaults = table[table["default"].astype(bool)]
    if len(defaults) != 1:
        raise ValueError(f"the table needs exactly one default row, got {len(defaults)}")
    better = table[~table["default"].astype(bool) & (table["low"] > 0)]
    if better.empty:
        chosen = defaults[knob].iloc[0]
    else:
        chosen = better.sort_values("diff vs default", ascending=False, kind="mergesort")[knob].iloc[0]
    return chosen.item() if isinstance(chosen, np.generic) else chosen
