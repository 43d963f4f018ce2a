"""The ablation's tables: summary and per-type means, caveats, copies to read (notebooks 06a, 06b, 07).

``metric_names``, ``caveats_of``, ``summary_table`` and ``by_type_table`` build what ``run_ablation``
returns (and what ``ragmath.lab.holdout`` rebuilds from stored per-question scores).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ragmath.lab.ablation.config import TUNED_KNOBS, VERSIONS, AblationConfig


def metric_names(cfg: AblationConfig) -> tuple[list[str], str]:
    """The metric names of an ablation table (Recall, Hit, MRR, nDCG at K; Recall at M) and Recall@M's name.

    >>> metric_names(AblationConfig(top_k=5, rerank_depth=10))
    (['Recall@5', 'Hit@5', 'MRR@5', 'nDCG@5', 'Recall@10'], 'Recall@10')
    """
    k = cfg.top_k
    names = [f"Recall@{k}", f"Hit@{k}", f"MRR@{k}", f"nDCG@{k}"]
    recall_m = f"Recall@{cfg.rerank_depth}"
    if cfg.rerank_depth != k:
        names.append(recall_m)
    return names, recall_m


def caveats_of(cfg: AblationConfig) -> dict[str, str]:
    """Per row: how far its numbers can be trusted as an estimate (shown in the table)."""
    if cfg.split != "dev":
        frozen = "holdout: frozen design, fitted on dev, run once"
        return {v: frozen for v in VERSIONS} | {
            "Oracle": frozen + "; gold evidence, correct refusals hold by construction"}
    tuned = [TUNED_KNOBS[t] for t in TUNED_KNOBS if t in cfg.tuned]
    c_tuned = [t for t in tuned if t in ("k", "W")]
    c_note = (f"optimistic: {', '.join(c_tuned)} chosen on these questions" if c_tuned
              else "not tuned on these questions")
    d_note = (f"optimistic: {', '.join(tuned)} chosen on these questions; reranker out of fold"
              if tuned else "reranker out of fold")
    e_tuned = [t for t in tuned if t == "W"]
    e_alpha = "α set" if cfg.alpha is not None else "α by the rule, out of fold"
    e_note = (f"optimistic: {', '.join(e_tuned)} chosen on these questions; {e_alpha}" if e_tuned
              else e_alpha)
    untuned = "not tuned (refusal threshold out of fold)"
    return {"A": untuned, "B": untuned, "C": c_note, "D": d_note, "E": e_note,
            "Oracle": "gold evidence, no retrieval; correct refusals hold by construction"}


def summary_table(per_q: pd.DataFrame, names: list[str], recall_m: str, with_answers: bool) -> pd.DataFrame:
    """One row per version: each metric's mean over the answerable questions (and the answer rates)."""
    out = {}
    present = set(per_q.index.get_level_values("version"))
    for v in (v for v in VERSIONS if v in present):  # a stored opening may predate a version
        part = per_q.loc[v]
        ans = part[part["answerable"]]
        row: dict[str, Any] = {}
        for name in names:
            row[name] = float(ans[name].mean()) if v != "Oracle" and len(ans) else np.nan
        if recall_m not in names:
            row[recall_m] = row[names[0]]
        if with_answers:
            na = part[~part["answerable"]]
            answered = part.loc[~part["refused"], "citations supported"]
            row.update({
                "answer accuracy": float(ans["correct"].mean()) if len(ans) else np.nan,
                "answers correct": int(ans["correct"].sum()),
                "answerable": len(ans),
                "citation support": float(answered.mean()) if len(answered) else np.nan,
                "supported answers": int(answered.sum()),
                "answers given": len(answered),
                "correct refusals": int(na["refused"].sum()),
                "no-answer": len(na),
                "context chars/q": float(part["context chars"].mean()),
            })
        out[v] = row
    return pd.DataFrame.from_dict(out, orient="index").rename_axis("version")


def by_type_table(per_q: pd.DataFrame, names: list[str], with_answers: bool) -> pd.DataFrame:
    """One row per (version, question type): the means of that type's questions and their count."""
    rows = []
    for (v, qtype), part in per_q.groupby([per_q.index.get_level_values("version"), "type"], sort=False):
        ans = part[part["answerable"]]
        row = {"type": qtype, "version": v, "questions": len(part), "answerable": len(ans)}
        for name in (names[0], names[2], names[3]):  # Recall, MRR and nDCG at K
            row[name] = float(ans[name].mean()) if len(ans) and v != "Oracle" else np.nan
        if with_answers:
            na = part[~part["answerable"]]
            row["answers correct"] = int(ans["correct"].sum())
            row["answer accuracy"] = float(ans["correct"].mean()) if len(ans) else np.nan
            row["correct refusals"] = int(na["refused"].sum())
            row["no-answer"] = len(na)
        rows.append(row)
    df = pd.DataFrame(rows)
    order = {v: i for i, v in enumerate(VERSIONS)}
    return df.sort_values(["type", "version"], key=lambda s: s.map(order) if s.name == "version"
                          else s).set_index(["type", "version"])


def rerank_entries(c_runs: Mapping[str, Sequence[str]], d_runs: Mapping[str, Sequence[str]],
                   qrels: Mapping[str, Mapping[str, int]], top_k: int = 5) -> pd.DataFrame:
    """Per question: the chunks the reranker brings into the top K (from below it) and pushes out.

    Columns: ``entered``, ``entered relevant`` (grade >= 1), ``pushed out``, ``pushed out relevant``.

    >>> rerank_entries({"q": ["a", "b", "c"]}, {"q": ["c", "a", "b"]}, {"q": {"b": 1}}, top_k=2)
       entered  entered relevant  pushed out  pushed out relevant
    q        1                 0           1                    1
    """
    rows = {}
    for qid, c in c_runs.items():
        c_top, d_top, grades = list(c)[:top_k], list(d_runs[qid])[:top_k], qrels.get(qid, {})
        entered = [x for x in d_top if x not in c_top]
        out = [x for x in c_top if x not in d_top]
        rows[qid] = {"entered": len(entered), "entered relevant": sum(grades.get(x, 0) >= 1 for x in entered),
                     "pushed out": len(out), "pushed out relevant": sum(grades.get(x, 0) >= 1 for x in out)}
    return pd.DataFrame.from_dict(rows, orient="index")


def top_ranks_table(runs: Mapping[str, Mapping[str, Sequence[str]]], qid: str,
                    versions: Sequence[str], depth: int = 5) -> pd.DataFrame:
    """The top ``depth`` of one question under each version; ranks a run does not fill are blank.

    >>> top_ranks_table({"A": {"q": ["x"]}, "B": {"q": ["y", "z"]}}, "q", ["A", "B"], 2).to_dict("list")
    {'A': ['x', ''], 'B': ['y', 'z']}
    """
    columns = {v: [*list(runs[v][qid])[:depth], *[""] * max(0, depth - len(runs[v][qid]))]
               for v in versions}
    return pd.DataFrame(columns, index=pd.Index(range(1, depth + 1), name="rank"))


def readable_table(table: pd.DataFrame, *, rows: Sequence[str] = ("Oracle",), digits: int = 3,
                   missing: str = "—") -> pd.DataFrame:
    """A display copy: floats to ``digits`` decimals, and ``missing`` for the NaN cells of ``rows``.

    The Oracle ranks nothing, so its retrieval metrics do not exist; every other NaN and every empty text
    cell reads "—" (does not apply). The table itself is left unchanged.

    >>> t = pd.DataFrame({"MRR@5": [0.5, float("nan")], "test": ["exact", ""]}, index=["D", "Oracle"])
    >>> readable_table(t).to_dict("list")
    {'MRR@5': ['0.500', '—'], 'test': ['exact', '—']}
    """
    out = table.copy().astype(object)
    for column in table.columns:
        if table[column].dtype.kind == "f":
            out[column] = [("—" if v != v else f"{v:.{digits}f}") for v in table[column]]
            for row in rows:
                if row in table.index and table.loc[row, column] != table.loc[row, column]:
                    out.loc[row, column] = missing
        else:
            out[column] = ["—" if isinstance(v, str) and v == "" else v for v in table[column]]
    return out
