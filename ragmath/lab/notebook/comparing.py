"""Notebook views of a :func:`ragmath.compare` result: the per-question change table and its plot.

The numbers come from the core (:class:`ragmath.comparison.Comparison`); this module only arranges and
draws them (matplotlib, which the core never imports).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ragmath.comparison import Comparison

__all__ = ["change_table", "plot_paired_differences"]


def change_table(result: Comparison, system: str, metric: str) -> pd.DataFrame:
    """Per question: the baseline's score, the system's, the change and whether it is a win, tie or loss.

    Sorted largest loss first (:meth:`Comparison.changes`); questions missing from a run say so.

    >>> from ragmath import compare
    >>> result = compare({"A": {"q1": ["x", "a"], "q2": ["b"]}, "B": {"q1": ["a"]}},
    ...                  {"q1": {"a": 1}, "q2": {"b": 1}}, ["MRR@2"])
    >>> change_table(result, "B", "MRR@2")["outcome"].tolist()
    ['loss', 'win']
    """
    table = result.changes(system, metric)
    table["outcome"] = np.select([table["change"] > 0, table["change"] < 0], ["win", "loss"], "tie")
    missing = set(result.missing.get(system, ())) | set(result.missing.get(result.baseline, ()))
    table["note"] = ["missing from a run, scored 0" if q in missing else "" for q in table.index]
    return table


def plot_paired_differences(result: Comparison, system: str, metric: str, ax=None):
    """Bars of the per-question differences (system − baseline), sorted, with the mean and its interval.

    Returns the matplotlib Axes. Each bar is one question: the bars below 0 are the losses the mean hides.
    """
    changes = result.changes(system, metric)["change"].to_numpy()
    row = result.comparisons.set_index(["system", "metric"]).loc[(system, metric)]
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 2.8))
    colours = np.where(changes > 0, "#2f7d4f", np.where(changes < 0, "#b5483b", "#9aa3ab"))
    ax.bar(np.arange(len(changes)), changes, color=colours, width=0.9)
    ax.axhline(0, color="black", linewidth=0.6)
    ax.axhspan(row["low"], row["high"], color="#4a6fa5", alpha=0.18, label="95 % bootstrap interval")
    ax.axhline(row["diff"], color="#4a6fa5", linestyle="--", label=f"mean {row['diff']:+.3f}")
    ax.set_xlabel(f"questions, sorted ({row['wins']} wins / {row['ties']} ties / {row['losses']} losses)")
    ax.set_ylabel(f"{metric}: {system} − {result.baseline}")
    ax.legend(fontsize=8, loc="upper left")
    return ax
