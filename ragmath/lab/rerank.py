"""A small linear reranker over the fused top M (the rerank depth), fitted on dev questions only.

Features of a (query, candidate chunk) pair, all computed inside one identity's index:

==================  ==========================================================================
``bm25``            BM25 score divided by the best BM25 score among the candidates (0 if none)
``cosine``          cosine similarity from the vector retriever
``rrf``             1 / fused rank (the order the reranker starts from)
``exact_id``        1 if the query names an ID (INV-102) and the chunk carries that ID, else 0
``title_overlap``   share of the query's evidence bigrams found in the chunk's title
``text_overlap``    share of the query's evidence bigrams found in title + text
``live``            1 if the chunk is in force on the snapshot date, else 0
``memory``          what the reranker remembers of its training labels: the highest similarity
                    between the query and a *training* question that labelled this chunk relevant
                    (``label_memory``; 0 when none did, and always 0 without a memory bank)
==================  ==========================================================================

``memory`` is the feature a query cache, few-shot examples or a fine-tuned model give a real
system: it is legitimate, and it is exactly what leaks when a near-duplicate of a test question
sits in the training set (notebook 07 measures it). A question never remembers itself.

``LinearReranker.fit`` standardises the features and fits an L2-regularised logistic regression
(label: grade >= 1; unlabelled candidates count as 0) by Newton's method: no random numbers, the
same weights on every run. It refuses any question whose split is not ``"dev"``. A reranker only
reorders its M candidates, so Recall@M is the same before and after it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ragmath.lab.generate import QUESTION_WORDS, is_live, support
from ragmath.lab.retrieval import BM25Retriever, VectorRetriever, as_chunk_records, rank_scores
from ragmath.lab.tokenize import ID_PATTERN, find_ids

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")

__all__ = ["FEATURES", "FeatureExtractor", "LinearReranker", "question_similarity", "label_memory"]

FEATURES: tuple[str, ...] = (
    "bm25", "cosine", "rrf", "exact_id", "title_overlap", "text_overlap", "live", "memory",
)


def question_similarity(a: str, b: str) -> float:
    """Jaccard similarity of two questions' evidence characters (invoice IDs kept whole).

    J(a, b) = |G(a) ∩ G(b)| / |G(a) ∪ G(b)|

    where G(x) is the set of Chinese characters of question x after removing question words
    (``generate.QUESTION_WORDS``: 多少, 怎么, 吗 ...), plus its invoice IDs. Characters rather than
    words, so that 打车 and 出租车 still share 车. Two questions naming different IDs score 0.

    >>> question_similarity("住宿标准是多少", "住宿标准怎么定")
    0.8
    >>> question_similarity("INV-102 能报多少", "INV-103 能报多少")
    0.0
    """
    ida, idb = set(find_ids(a)), set(find_ids(b))
    if ida != idb:
        return 0.0
    ga, gb = _evidence_chars(a) | ida, _evidence_chars(b) | idb
    if not ga | gb:
        return 0.0
    return len(ga & gb) / len(ga | gb)


def _evidence_chars(question: str) -> set[str]:
    text = ID_PATTERN.sub(" ", question)
    for word in QUESTION_WORDS:
        text = text.replace(word, " ")
    return set(_CJK.findall(text))


def label_memory(
    query_id: str,
    candidates: Sequence[str],
    bank: Sequence[str],
    similarity: Mapping[str, Mapping[str, float]],
    qrels: Mapping[str, Mapping[str, int]],
) -> list[float]:
    """The ``memory`` feature: for each candidate, max similarity to a bank question labelling it.

    memory(q, c) = max { sim(q, f) : f in bank, f ≠ q, grade(f, c) ≥ 1 }, or 0 if no such f

    where bank is the set of training questions whose labels the reranker may remember, and sim
    is ``similarity[q][f]`` (e.g. ``question_similarity``). The query itself is never in its own
    memory.

    >>> sims = {"q": {"f": 0.8, "g": 0.3}}
    >>> label_memory("q", ["a", "b", "c"], ["f", "g"], sims, {"f": {"a": 2}, "g": {"a": 1, "b": 1}})
    [0.8, 0.3, 0.0]
    """
    out = []
    for c in candidates:
        best = 0.0
        for f in bank:
            if f != query_id and qrels.get(f, {}).get(c, 0) >= 1:
                best = max(best, float(similarity[query_id][f]))
        out.append(best)
    return out


class FeatureExtractor:
    """Compute the reranker's features for candidates of one identity's index.

    >>> chunks = [{"chunk_id": "INV-102", "title": "单据", "text": "INV-102 可报销 1300 元"},
    ...           {"chunk_id": "INV-103", "title": "单据", "text": "INV-103 可报销 620 元"}]
    >>> fx = FeatureExtractor(chunks, BM25Retriever(chunks), VectorRetriever(chunks))
    >>> fx("INV-102 能报多少", ["INV-103", "INV-102"])["exact_id"].tolist()
    [0.0, 1.0]

    Raises ValueError if a retriever holds chunks outside ``chunks`` or a candidate is unknown.
    """

    def __init__(
        self, chunks: Any, bm25: BM25Retriever, vector: VectorRetriever, *, as_of: Any = None
    ) -> None:
        records = as_chunk_records(chunks)
        self._chunks = {r["chunk_id"]: r for r in records}
        self.chunk_ids = tuple(self._chunks)
        for name, r in (("bm25", bm25), ("vector", vector)):
            extra = set(r.chunk_ids) - set(self._chunks)
            if extra:
                raise ValueError(f"{name} retriever holds chunks outside chunks: {sorted(extra)[:3]}")
        self.bm25, self.vector, self.as_of = bm25, vector, as_of
        self._ids = {
            cid: set(find_ids(f"{cid} {r['text']}")) for cid, r in self._chunks.items()
        }
        self._cache: dict[str, dict[str, Any]] = {}
        self._in_bm25, self._in_vector = set(bm25.chunk_ids), set(vector.chunk_ids)

    def _per_chunk(self, query: str, candidates: Sequence[str]) -> dict[str, tuple[float, ...]]:
        """Features that do not depend on the candidate list (cached per query and chunk)."""
        if query not in self._cache:
            ids = list(self.chunk_ids)
            self._cache[query] = {
                "bm25": self.bm25.score_ids(query, [c for c in ids if c in self._in_bm25]),
                "cosine": self.vector.score_ids(query, [c for c in ids if c in self._in_vector]),
                "ids": set(find_ids(query)),
                "rows": {},
            }
        entry = self._cache[query]
        rows = entry["rows"]
        for c in candidates:
            if c not in rows:
                chunk = self._chunks[c]
                rows[c] = (
                    entry["bm25"].get(c, 0.0),
                    entry["cosine"].get(c, 0.0),
                    1.0 if entry["ids"] and entry["ids"] & self._ids[c] else 0.0,
                    support(query, str(chunk.get("title") or "")),
                    support(query, f"{chunk.get('title') or ''}\n{chunk['text']}"),
                    1.0 if is_live(chunk, self.as_of) else 0.0,
                )
        return rows

    def matrix(
        self, query: str, candidates: Sequence[str], memory: Sequence[float] | None = None
    ) -> np.ndarray:
        """The features as a plain array (rows = candidates, columns = ``FEATURES``)."""
        cands = list(candidates)
        unknown = [c for c in cands if c not in self._chunks]
        if unknown:
            raise ValueError(f"candidates not in this identity's index: {unknown[:3]}")
        if memory is not None and len(memory) != len(cands):
            raise ValueError(f"memory has {len(memory)} values for {len(cands)} candidates")
        out = np.zeros((len(cands), len(FEATURES)))
        if not cands:
            return out
        per = self._per_chunk(query, cands)
        top = max(per[c][0] for c in cands)
        for i, c in enumerate(cands):
            bm, cos, exact, title, text, live = per[c]
            out[i, :7] = (bm / top if top > 0 else 0.0, cos, 1.0 / (i + 1), exact, title, text, live)
        if memory is not None:
            out[:, 7] = memory
        return out

    def __call__(
        self, query: str, candidates: Sequence[str], memory: Sequence[float] | None = None
    ) -> pd.DataFrame:
        """Return one row per candidate (in the given order), one column per feature.

        ``memory``: the ``memory`` feature of each candidate (see ``label_memory``); all 0 if None.
        """
        x = self.matrix(query, candidates, memory)
        return pd.DataFrame(x, index=pd.Index(list(candidates), name="chunk_id"),
                            columns=list(FEATURES))


class LinearReranker:
    """Score = w · standardised features + bias; rerank by score desc, then chunk ID asc.

    Unfitted, the weights put everything on ``rrf`` (the fused order is kept).

    >>> r = LinearReranker()
    >>> X = pd.DataFrame([[0, 0, 1.0, 0, 0, 0, 1, 0], [0, 0, 0.5, 0, 0, 0, 1, 0]],
    ...                  index=["a", "b"], columns=FEATURES)
    >>> [cid for cid, _ in r.rerank(X)]
    ['a', 'b']
    """

    def __init__(
        self,
        weights: Mapping[str, float] | None = None,
        *,
        mean: Mapping[str, float] | None = None,
        scale: Mapping[str, float] | None = None,
        bias: float = 0.0,
    ) -> None:
        w = {f: 0.0 for f in FEATURES}
        if weights is None:
            w["rrf"] = 1.0
        else:
            unknown = set(weights) - set(FEATURES)
            if unknown:
                raise ValueError(f"unknown feature(s) {sorted(unknown)}; features are {FEATURES}")
            w.update({k: float(v) for k, v in weights.items()})
        self.weights = w
        self.mean = {f: 0.0 for f in FEATURES} | dict(mean or {})
        self.scale = {f: 1.0 for f in FEATURES} | dict(scale or {})
        self.bias = float(bias)
        self.fitted_on: tuple[str, ...] = ()

    def score(self, features: pd.DataFrame) -> pd.Series:
        """Return the linear score of each row of ``features``."""
        missing = [f for f in FEATURES if f not in features.columns]
        if missing:
            raise ValueError(f"features lacks column(s) {missing}; build them with FeatureExtractor")
        x = features[list(FEATURES)].to_numpy(dtype=float)
        mu = np.array([self.mean[f] for f in FEATURES])
        sd = np.array([self.scale[f] for f in FEATURES])
        w = np.array([self.weights[f] for f in FEATURES])
        return pd.Series((x - mu) / sd @ w + self.bias, index=features.index, name="score")

    def order(self, chunk_ids: Sequence[str], x: np.ndarray) -> list[str]:
        """Reorder ``chunk_ids`` by the score of their feature rows ``x``: desc, then ID asc."""
        mu = np.array([self.mean[f] for f in FEATURES])
        sd = np.array([self.scale[f] for f in FEATURES])
        w = np.array([self.weights[f] for f in FEATURES])
        scores = (np.asarray(x, dtype=float) - mu) / sd @ w + self.bias
        return [c for c, _ in rank_scores(dict(zip(map(str, chunk_ids), scores.tolist(), strict=True)))]

    def rerank(self, features: pd.DataFrame) -> list[tuple[str, float]]:
        """Reorder the candidates (the rows of ``features``): score desc, then chunk ID asc."""
        if features.index.has_duplicates:
            raise ValueError("features has duplicate chunk IDs; dedupe candidates first")
        s = self.score(features)
        return rank_scores(dict(zip(map(str, s.index), s.tolist(), strict=True)))

    @classmethod
    def fit(
        cls,
        questions: Any,
        features: Mapping[str, pd.DataFrame],
        qrels: Mapping[str, Mapping[str, int]],
        *,
        l2: float = 1.0,
        iterations: int = 50,
    ) -> LinearReranker:
        """Fit weights on dev questions (each a mapping with question_id and split).

        Raises ValueError if any question's split is not "dev" (the holdout is never used for
        fitting), if a question has no features, or if no relevant candidate is present at all.
        """
        rows = questions.to_dict("records") if isinstance(questions, pd.DataFrame) else list(questions)
        if not rows:
            raise ValueError("questions is empty: fit the reranker on the dev questions")
        xs, ys, qids = [], [], []
        for row in rows:
            qid, split = row.get("question_id"), row.get("split")
            if split != "dev":
                raise ValueError(f"question {qid!r} has split={split!r}: the reranker is fitted on the dev "
                                 "split only; pass only questions with split == 'dev'")
            if qid not in features:
                raise ValueError(f"features has no entry for question {qid!r}")
            table = features[qid]
            grades = qrels.get(qid, {})
            xs.append(table[list(FEATURES)].to_numpy(dtype=float))
            ys.append(np.array([1.0 if grades.get(c, 0) >= 1 else 0.0 for c in table.index]))
            qids.append(qid)
        return cls.fit_matrix(np.vstack(xs), np.concatenate(ys), l2=l2, iterations=iterations,
                              fitted_on=qids)

    @classmethod
    def fit_matrix(
        cls,
        x: np.ndarray,
        y: np.ndarray,
        *,
        l2: float = 1.0,
        iterations: int = 50,
        fitted_on: Sequence[str] = (),
    ) -> LinearReranker:
        """Fit on a feature matrix (rows = candidates, columns = ``FEATURES``) and 0/1 labels.

        L2-regularised logistic regression on standardised features, by Newton's method:

        minimise Σ_i [log(1 + e^{z_i·w}) − y_i z_i·w] + (λ/2) Σ_j w_j²   (the bias is not shrunk)

        where z_i are the standardised features of candidate i plus a constant 1, y_i = 1 for a
        relevant candidate (grade >= 1), λ = ``l2``. ``fit`` builds x and y from dev questions;
        callers that have checked the split themselves (out-of-fold scoring) call this directly.

        Raises ValueError for mismatched shapes or no relevant row.
        """
        x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        if x.ndim != 2 or x.shape[1] != len(FEATURES) or len(y) != len(x):
            raise ValueError(f"x must be (rows, {len(FEATURES)}) and y one label per row")
        if y.sum() == 0:
            raise ValueError("no relevant candidate among the dev features: nothing to learn from")
        mu = x.mean(axis=0)
        sd = x.std(axis=0)
        sd[sd < 1e-12] = 1.0
        z = np.hstack([(x - mu) / sd, np.ones((len(x), 1))])
        w = np.zeros(z.shape[1])
        penalty = np.full(z.shape[1], float(l2))
        penalty[-1] = 0.0  # the bias is not shrunk
        for _ in range(iterations):
            p = 1.0 / (1.0 + np.exp(-(z @ w)))
            grad = z.T @ (p - y) + penalty * w
            hess = (z * (p * (1 - p))[:, None]).T @ z + np.diag(penalty) + 1e-9 * np.eye(len(w))
            step = np.linalg.solve(hess, grad)
            w -= step
            if np.max(np.abs(step)) < 1e-10:
                break
        model = cls(
            dict(zip(FEATURES, w[:-1].tolist(), strict=True)),
            mean=dict(zip(FEATURES, mu.tolist(), strict=True)),
            scale=dict(zip(FEATURES, sd.tolist(), strict=True)),
            bias=float(w[-1]),
        )
        model.fitted_on = tuple(fitted_on)
        return model

    def weights_table(self) -> pd.Series:
        """The fitted weights (on standardised features), largest magnitude first."""
        s = pd.Series(self.weights, name="weight")
        return s.reindex(s.abs().sort_values(ascending=False).index)
