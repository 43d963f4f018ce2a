"""Tuning k, W and M on dev, and each knob against its default. Used by notebooks 06b and 07.

``tune`` scores a grid (``DEFAULT_GRID``) with D out of fold and ``grid_edges`` says where each choice
sits in it; ``knob_against_default`` compares each value of one knob with ``ARTICLE_DEFAULTS`` on
the same questions (notebook 06a's keep-the-default rule keeps the default unless an interval excludes 0);
``tokenizer_ranks`` reads best ranks under each tokenizer. Dev questions only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from ragmath.evaluation import evaluate
from ragmath.lab.ablation.config import TUNED_KNOBS, AblationConfig
from ragmath.lab.ablation.rule import against_default
from ragmath.lab.ablation.running import (
    content_hash,
    dataset_or_default,
    ranked_runs,
    require_dev_only,
    run_ablation,
)
from ragmath.lab.workbook import ALPHA_DEFAULT, ALPHA_GRID

#: The default tuning grid: wide enough that the chosen values sit inside it (see ``grid_edges``).
DEFAULT_GRID = {
    "k": (0.5, 1, 3, 10, 60, 240),
    "window": (5, 10, 20, 40, 80),
    "rerank_depth": (5, 10, 20),
    "alpha": ALPHA_GRID,
}


def tune(
    base: AblationConfig | None = None,
    dataset: Any = None,
    *,
    ks: Sequence[float] = DEFAULT_GRID["k"],
    windows: Sequence[int] = DEFAULT_GRID["window"],
    depths: Sequence[int] = DEFAULT_GRID["rerank_depth"],
) -> tuple[pd.DataFrame, AblationConfig]:
    """Grid over RRF's k, the window W and the rerank depth M on dev only; return grid and choice.

    Every setting is scored with D out of fold (``run_ablation`` on dev). Choice: highest D
    nDCG@K, then D MRR@K, then C nDCG@K; remaining ties go to the smaller M, then the smaller W
    (cheaper), then the k closest to 60 (the common default; on a plateau of k nothing is
    learned, so we keep the default). The chosen config has ``tuned`` set to the three knobs.

    >>> grid, chosen = tune(ks=(1, 60), windows=(10,), depths=(5,))
    >>> len(grid), chosen.split, chosen.window, chosen.tuned
    (2, 'dev', 10, ('k', 'window', 'rerank_depth'))

    Raises ValueError if the dataset holds a holdout question or a grid is empty.
    """
    base = base if base is not None else AblationConfig()
    ds = dataset_or_default(dataset)
    require_dev_only(ds, "tune")
    if not (ks and windows and depths):
        raise ValueError("ks, windows and depths must each hold at least one value")
    top = base.top_k
    key = content_hash(ds.corpus)
    rows = []
    for k in ks:
        for w in windows:
            for m in depths:
                cfg = replace(base, k=k, window=w, rerank_depth=m, split="dev", score_fusion=False)
                runs, qrels = ranked_runs(cfg, ds, corpus_key=key)
                c = evaluate(runs["C"], qrels, [f"nDCG@{top}"]).means
                d = evaluate(runs["D"], qrels, [f"nDCG@{top}", f"MRR@{top}", f"Recall@{m}"]).means
                rows.append({
                    "k": k, "W": w, "M": m,
                    f"C nDCG@{top}": float(c[f"nDCG@{top}"]),
                    f"D nDCG@{top}": float(d[f"nDCG@{top}"]),
                    f"D MRR@{top}": float(d[f"MRR@{top}"]),
                    "D Recall@M": float(d[f"Recall@{m}"]),
                })
    grid = pd.DataFrame(rows)
    order = grid.assign(_k_dist=(np.log(grid["k"].astype(float)) - math.log(60)).abs()).sort_values(
        [f"D nDCG@{top}", f"D MRR@{top}", f"C nDCG@{top}", "M", "W", "_k_dist"],
        ascending=[False, False, False, True, True, True], kind="mergesort",
    )
    best = order.iloc[0]
    k_best = float(best["k"])
    chosen = replace(base, k=int(k_best) if k_best.is_integer() else k_best, window=int(best["W"]),
                     rerank_depth=int(best["M"]), split="dev", tuned=tuple(TUNED_KNOBS))
    return grid, chosen


def grid_edges(grid: pd.DataFrame, chosen: AblationConfig, metric: str = "D nDCG@5") -> pd.DataFrame:
    """Where each chosen value sits in its grid, and the best ``metric`` at each value of the knob.

    One row per knob (k, W, M): the grid's values, the chosen one, whether it is the lowest or
    highest (an edge: the best may lie beyond the grid) and the profile, i.e. the best metric
    over the other knobs at each value. A flat profile at an edge means the metric stops changing
    there (a plateau), not that a better value lies beyond.

    >>> g = pd.DataFrame({"k": [1, 60], "W": [10, 10], "M": [5, 5], "D nDCG@5": [0.5, 0.6]})
    >>> grid_edges(g, AblationConfig(k=60, window=10, rerank_depth=5)).loc["k", "position"]
    'highest (edge)'
    """
    values = {"k": chosen.k, "W": chosen.window, "M": chosen.rerank_depth}
    rows = {}
    for knob, picked in values.items():
        grid_values = sorted(grid[knob].unique())
        if len(grid_values) == 1:
            position = "only value"
        elif picked == grid_values[0]:
            position = "lowest (edge)"
        elif picked == grid_values[-1]:
            position = "highest (edge)"
        else:
            position = "inside"
        profile = grid.groupby(knob)[metric].max()
        rows[knob] = {
            "grid": ", ".join(f"{v:g}" for v in grid_values), "chosen": f"{picked:g}",
            "position": position,
            f"best {metric} at each value": ", ".join(f"{v:.3f}" for v in profile.loc[grid_values]),
        }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "knob"
    return table


#: The value each tuned knob has before any tuning: the article's k = 60 (RRF's common default);
#: the article names no W or M, so those are ``AblationConfig``'s starting values.
ARTICLE_DEFAULTS = {"k": 60, "W": AblationConfig.window, "M": AblationConfig.rerank_depth, "α": ALPHA_DEFAULT}
_FIELD_OF = {symbol: name for name, symbol in TUNED_KNOBS.items()} | {"α": "alpha"}


def knob_against_default(
    base: AblationConfig,
    knob: str,
    values: Sequence[float] | None = None,
    dataset: Any = None,
    *,
    default: float | None = None,
    metric: str | None = None,
    version: str = "D",
    seed: int = 0,
    resamples: int = 10_000,
) -> pd.DataFrame:
    """One knob (``"k"``, ``"W"`` or ``"M"``) varied on dev, the others as in ``base``; each value
    against the default on the same questions, by ``ragmath.compare``.

    One row per value: ``version``'s mean ``metric`` (default nDCG@K) and the paired difference
    value − default with its percentile bootstrap interval, the sign-flip p (``P_SIGN_FLIP``), Holm's
    p over the values compared with the default (``P_HOLM``) and the questions the value wins, ties
    and loses, and how the p was computed (``test``); ``default`` marks the default's own row
    (difference 0, no test: its p columns are NaN).
    ``values`` defaults to the knob's ``DEFAULT_GRID``; ``default`` to ``ARTICLE_DEFAULTS[knob]``.

    >>> t = knob_against_default(AblationConfig(k=1, window=40, rerank_depth=5), "k", (1, 60),
    ...                          resamples=200)
    >>> list(t["k"]), bool(t.loc[t["k"] == 60, "default"].item())
    ([1, 60], True)

    Raises ValueError for an unknown knob, a dataset holding holdout questions, or values that
    the config refuses (e.g. M below K).
    """
    if knob not in _FIELD_OF:
        raise ValueError(f"knob must be one of {list(_FIELD_OF)}, got {knob!r}")
    field_name = _FIELD_OF[knob]
    default = ARTICLE_DEFAULTS[knob] if default is None else default
    values = list(DEFAULT_GRID[field_name] if values is None else values)
    if default not in values:
        values = sorted([*values, default])
    metric = metric or f"nDCG@{base.top_k}"
    ds = dataset_or_default(dataset)
    require_dev_only(ds, "knob_against_default")
    runs, qrels, key = {}, {}, content_hash(ds.corpus)
    for value in values:
        rows, qrels = ranked_runs(replace(base, **{field_name: value}, split="dev"), ds, corpus_key=key)
        runs[value] = rows[version]
    return against_default(runs, qrels, knob, default, metric, version=version, seed=seed,
                           resamples=resamples)


def tokenizer_ranks(base: AblationConfig, tokenizers: Sequence[str], questions: Sequence[str],
                    chunks: Mapping[str, Sequence[str]], dataset: Any = None,
                    version: str = "A") -> tuple[pd.DataFrame, pd.DataFrame]:
    """``version``'s best rank of the given chunks per question, under each tokenizer (dev only).

    ``chunks`` maps each question to the chunks whose best rank is read (NaN: not in the top M).
    Returns (ranks: questions x tokenizers, means: the version's nDCG@K and MRR@K per tokenizer).
    Raises ValueError for an unknown tokenizer or a dataset holding holdout questions.
    """
    ds = dataset_or_default(dataset)
    require_dev_only(ds, "tokenizer_ranks")
    ranks, means = {}, {}
    for name in tokenizers:
        result = run_ablation(replace(base, tokenizer=name, split="dev"), ds, answers=False)
        column = {}
        for qid in questions:
            ranking = result.runs[version][qid]
            found = [ranking.index(c) + 1 for c in chunks[qid] if c in ranking]
            column[qid] = float(min(found)) if found else np.nan
        ranks[name] = column
        means[name] = {m: float(result.table.loc[version, m])
                       for m in (f"nDCG@{base.top_k}", f"MRR@{base.top_k}")}
    ranks_table = pd.DataFrame(ranks)
    ranks_table.index.name = "question"
    return ranks_table, pd.DataFrame(means).T.rename_axis("tokenizer")
