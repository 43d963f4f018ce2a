"""Notebook views of a :func:`ragmath.compare` result: the per-question change table and its plot.

The numbers come from the core (:class:`ragmath.comparison.Comparison`); the words come from the message
catalogue (``notebook.comparing.*``), in the notebook's language.
"""

from __future__ import annotations

import string

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ragmath.comparison import REPORT_WORDS, SUMMARY_COLUMNS, Comparison
from ragmath.lab.messages import message

__all__ = ["change_table", "plot_paired_differences", "summary_table", "report_markdown", "report_words"]


def change_table(result: Comparison, system: str, metric: str) -> pd.DataFrame:
    """Per question: the baseline's score, the system's, the change and whether it is a win, tie or loss.

    Sorted largest loss first (:meth:`Comparison.changes`); questions missing from a run say so. The words
    of the columns ``change``, ``outcome``, ``note`` and of the outcomes follow the notebook's language.

    >>> from ragmath import compare
    >>> result = compare({"A": {"q1": ["x", "a"], "q2": ["b"]}, "B": {"q1": ["a"]}},
    ...                  {"q1": {"a": 1}, "q2": {"b": 1}}, ["MRR@2"])
    >>> change_table(result, "B", "MRR@2")["outcome"].tolist()
    ['loss', 'win']
    """
    table = result.changes(system, metric)
    outcomes = [message("notebook.comparing.win"), message("notebook.comparing.loss")]
    table["outcome"] = np.select([table["change"] > 0, table["change"] < 0], outcomes,
                                 message("notebook.comparing.tie"))
    missing = set(result.missing.get(system, ())) | set(result.missing.get(result.baseline, ()))
    table["note"] = [message("notebook.comparing.missing") if q in missing else "" for q in table.index]
    return table.rename(columns={"change": message("notebook.comparing.change"),
                                 "outcome": message("notebook.comparing.outcome"),
                                 "note": message("notebook.comparing.note")})


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
    ax.axhspan(row["low"], row["high"], color="#4a6fa5", alpha=0.18,
               label=message("notebook.comparing.interval"))
    ax.axhline(row["diff"], color="#4a6fa5", linestyle="--",
               label=message("notebook.comparing.mean", diff=row["diff"]))
    ax.set_xlabel(message("notebook.comparing.xlabel", wins=row["wins"], ties=row["ties"],
                          losses=row["losses"]))
    ax.set_ylabel(message("notebook.comparing.ylabel", metric=metric, system=system,
                          baseline=result.baseline))
    ax.legend(fontsize=8, loc="upper left")
    return ax


def report_words() -> dict[str, str]:
    """The words of a comparison's report (:data:`ragmath.comparison.REPORT_WORDS`) in the notebook's
    language, from the catalogue (``notebook.comparing.report.*``), their ``{fields}`` still to be filled;
    the column names stay the code's (:func:`report_markdown` writes both)."""
    return {name: message("notebook.comparing.report." + name, **_as_fields(REPORT_WORDS[name]))
            for name in REPORT_WORDS if name not in SUMMARY_COLUMNS}


def _as_fields(template: str) -> dict[str, _Field]:
    """Each ``{field}`` of ``template`` given back as itself, so a template comes out still to be filled."""
    return {name: _Field(name) for _, name, _, _ in string.Formatter().parse(template) if name}


class _Field(str):
    """A field's name that formats as ``{name}`` (with its format spec), to be filled later."""

    def __format__(self, spec: str) -> str:
        return "{" + self + (":" + spec if spec else "") + "}"


def summary_table(result: Comparison, digits: int = 3) -> pd.DataFrame:
    """:meth:`Comparison.summary` with its words in the notebook's language (the baseline's cell, the
    ``labelled`` cell: "3 of 35" or "35 题中 3 题"; the headers keep the code's names, which a Chinese
    notebook shows beside their Chinese words)."""
    return result.summary(digits, words=report_words())


def report_markdown(result: Comparison, digits: int = 3) -> str:
    """:meth:`Comparison.to_markdown` in the notebook's language: in Chinese the headers read "均值及区间
    （mean [CI]）", as the notebook's tables show them, and the notes are Chinese sentences (among them,
    when some questions have no label, that the means and Judged@K are over the labelled ones only)."""
    from ragmath.lab.messages import reader_headers

    words = report_words()
    words.update({column: str(reader_headers(pd.DataFrame(columns=[column])).columns[0])
                  for column in SUMMARY_COLUMNS})
    return result.to_markdown(digits, words=words)
