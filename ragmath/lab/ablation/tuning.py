"""The tokenizers side by side on the ablation: ``tokenizer_ranks`` (notebook 06a, section 3). Dev only.

The tuning itself (``tune``, ``grid_edges``...) is written in notebook 06b, in ``ragmath.lab.workbook``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from ragmath.lab.ablation.config import AblationConfig
from ragmath.lab.ablation.running import run_ablation
from ragmath.lab.workbook import dataset_or_default, require_dev_only


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
    return pd.DataFrame(ranks).rename_axis("question"), pd.DataFrame(means).T.rename_axis("tokenizer")
