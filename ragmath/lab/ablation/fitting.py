"""What a run fits on dev: the reranking stage and the refusal threshold. Used by notebooks 05b, 06 and 07.

``RerankStage`` holds each question's candidates and features and fits the ``LinearReranker`` out of
fold (grouped K-fold), as notebook 05b explains; ``fit_refusal_threshold`` picks the generator's
coverage threshold. ``run_ablation`` (``running.py``) uses both; the leakage experiments
(``leakage.py``) refit the stage on other splits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ragmath.lab.ablation.config import FOLDS
from ragmath.lab.workbook import FEATURES, LinearReranker, question_similarity


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


_SIMILARITY: dict[tuple[str, str], float] = {}


def _similarity(a: str, b: str) -> float:
    """``question_similarity``, memoised in this process (tuning asks for the same pairs often)."""
    if (a, b) not in _SIMILARITY:
        _SIMILARITY[a, b] = question_similarity(a, b)
    return _SIMILARITY[a, b]


class RerankStage:
    """The reranking stage of one run: base features, labels and fits, with or without a group.

    Holds, for every question of the run, its candidates (C's top M) and their feature matrix with
    the ``memory`` column left at 0; ``fit(train, bank)`` fits a ``LinearReranker`` on the dev
    questions ``train`` (their memory drawn from ``bank``, never from themselves) and
    ``rank(qid, model, bank)`` reorders one question's candidates. ``out_of_fold()`` ranks every
    dev question with a reranker fitted on the other folds (grouped K-fold, ``folds``).

    Raises ValueError when asked to fit on a question that is not dev.
    """

    def __init__(self, candidates: Mapping[str, Sequence[str]], matrices: Mapping[str, np.ndarray],
                 split: Mapping[str, str], group: Mapping[str, str], texts: Mapping[str, str],
                 labels: Mapping[str, Mapping[str, int]], l2: float):
        self.candidates = {q: list(c) for q, c in candidates.items()}
        self.split, self.group, self.labels, self.l2 = dict(split), dict(group), labels, l2
        self.dev = [q for q in self.candidates if self.split[q] == "dev"]
        self._matrix = dict(matrices)
        self._memory_col = FEATURES.index("memory")
        # for each (question, candidate): dev questions labelling the candidate, most similar first
        labelled_by: dict[str, list[str]] = {}
        for f in self.dev:
            for c, g in labels.get(f, {}).items():
                if g >= 1:
                    labelled_by.setdefault(c, []).append(f)
        self._sources: dict[str, list[list[tuple[float, str]]]] = {}
        for q, cands in self.candidates.items():
            per_candidate = []
            for c in cands:
                pairs = [(_similarity(texts[q], texts[f]), f)
                         for f in labelled_by.get(c, []) if f != q]
                per_candidate.append(sorted(pairs, key=lambda t: (-t[0], t[1])))
            self._sources[q] = per_candidate

    def _features(self, qid: str, bank: set[str]) -> np.ndarray:
        x = self._matrix[qid].copy()
        x[:, self._memory_col] = [next((sim for sim, f in pairs if f in bank), 0.0)
                                  for pairs in self._sources[qid]]
        return x

    def fit(self, train: Sequence[str], bank: Sequence[str] | None = None) -> LinearReranker:
        """Fit on ``train`` (dev only); memory from ``bank`` (default: ``train``)."""
        not_dev = [q for q in train if self.split.get(q) != "dev"]
        if not_dev:
            raise ValueError(f"the reranker is fitted on dev questions only; got {not_dev[:3]}")
        bank_set = set(train if bank is None else bank)
        xs = [self._features(q, bank_set) for q in train]
        ys = [np.array([1.0 if self.labels.get(q, {}).get(c, 0) >= 1 else 0.0
                        for c in self.candidates[q]]) for q in train]
        return LinearReranker.fit_matrix(np.vstack(xs), np.concatenate(ys), l2=self.l2,
                                         fitted_on=list(train))

    def features(self, qid: str, bank: Sequence[str]) -> pd.DataFrame:
        """The question's candidate features with its memory drawn from ``bank``."""
        return pd.DataFrame(self._features(qid, set(bank)),
                            index=pd.Index(self.candidates[qid], name="chunk_id"),
                            columns=list(FEATURES))

    def rank(self, qid: str, model: LinearReranker, bank: Sequence[str]) -> list[str]:
        """Reorder one question's candidates with ``model``, remembering only ``bank``'s labels."""
        return model.order(self.candidates[qid], self._features(qid, set(bank)))

    def folds(self) -> dict[str, int]:
        """Grouped K-fold assignment of the dev questions: group i (sorted by name) -> fold i mod F.

        F = ``FOLDS`` (5); a group's questions share one fold, so no near-duplicate of a scored
        question is ever in the fit that scores it.
        """
        groups = sorted({self.group[q] for q in self.dev})
        fold_of = {g: i % FOLDS for i, g in enumerate(groups)}
        return {q: fold_of[self.group[q]] for q in self.dev}

    def out_of_fold(self) -> dict[str, list[str]]:
        """Rank every dev question with a reranker fitted on the other folds (grouped K-fold)."""
        folds = self.folds()
        out: dict[str, list[str]] = {}
        for fold in sorted(set(folds.values())):
            train = [q for q in self.dev if folds[q] != fold]
            model = self.fit(train)
            for q in self.dev:
                if folds[q] == fold:
                    out[q] = self.rank(q, model, train)
        return {q: out[q] for q in self.dev}
