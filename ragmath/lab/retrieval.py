"""Retrievers: BM25 over jieba tokens, an offline vector retriever, and RRF hybrid fusion.

Every retriever is built over the chunks it is given and nothing else. Build it on the
permission-filtered snapshot of one identity (``ragmath.lab.index.build_index(...).for_identity(...)``)
and no unreadable chunk can ever reach a ranking: the filter runs before any scoring.

All rankings are lists of ``(chunk_id, score)``, best first. Tie rule everywhere: score descending
(scores rounded to 12 decimals, so floating-point noise cannot reorder equal scores), then chunk ID
ascending.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ragmath.fusion import rrf
from ragmath.lab.tokenize import Tokenizer, get_tokenizer
from ragmath.validation import check_k, check_rrf_k

__all__ = [
    "Retriever",
    "Embedder",
    "as_chunk_records",
    "chunk_text",
    "rank_scores",
    "BM25Retriever",
    "CharNgramSVDEmbedder",
    "VectorRetriever",
    "HybridRetriever",
]

_ROUND = 12


@runtime_checkable
class Retriever(Protocol):
    """Anything that ranks the chunks it holds for a query."""

    name: str
    chunk_ids: tuple[str, ...]

    def retrieve(self, query: str, depth: int | None = None) -> list[tuple[str, float]]:
        """Return up to ``depth`` ``(chunk_id, score)`` pairs, best first."""
        ...


@runtime_checkable
class Embedder(Protocol):
    """Any callable mapping a list of texts to a 2-D array, one row per text."""

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts``."""
        ...


def as_chunk_records(chunks: Any, *, argument: str = "chunks") -> tuple[dict, ...]:
    """Return chunks (DataFrame or iterable of mappings) as a tuple of fresh dicts.

    Each chunk needs ``chunk_id`` and ``text``; duplicate IDs raise ValueError naming the ID.

    >>> as_chunk_records([{"chunk_id": "a", "text": "x"}])
    ({'chunk_id': 'a', 'text': 'x'},)
    """
    if hasattr(chunks, "to_dict") and hasattr(chunks, "columns"):
        rows = chunks.to_dict("records")
    elif isinstance(chunks, (str, bytes)) or not isinstance(chunks, Iterable):
        raise TypeError(f"{argument} must be a DataFrame or an iterable of mappings with chunk_id and text, "
                        f"got {type(chunks).__name__}")
    else:
        rows = list(chunks)
    out: list[dict] = []
    seen: set[str] = set()
    for i, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise TypeError(f"{argument}[{i}] must be a mapping, got {type(row).__name__}")
        for field in ("chunk_id", "text"):
            if field not in row or not isinstance(row[field], str):
                raise ValueError(f"{argument}[{i}] needs a string field {field!r}; got {row.get(field)!r}")
        cid = row["chunk_id"]
        if cid in seen:
            raise ValueError(f"{argument}: duplicate chunk_id {cid!r}; chunk IDs must be unique")
        seen.add(cid)
        out.append(dict(row))
    return tuple(out)


def chunk_text(chunk: Mapping[str, Any]) -> str:
    """Return the text a retriever indexes: document title, clause title and text, one per line.

    >>> chunk_text({"chunk_id": "c", "doc_title": "办法", "title": "4.2 市内交通", "text": "80 元"})
    '办法\\n4.2 市内交通\\n80 元'
    """
    parts = [chunk.get("doc_title"), chunk.get("title"), chunk.get("text")]
    return "\n".join(p for p in parts if isinstance(p, str) and p)


def rank_scores(scores: Mapping[str, float], depth: int | None = None) -> list[tuple[str, float]]:
    """Sort ``{chunk_id: score}`` by score descending, then chunk ID ascending; cut to ``depth``.

    >>> rank_scores({"b": 1.0, "a": 1.0, "c": 2.0})
    [('c', 2.0), ('a', 1.0), ('b', 1.0)]
    """
    _check_depth(depth)
    items = sorted(scores.items(), key=lambda kv: (-round(float(kv[1]), _ROUND), kv[0]))
    return items if depth is None else items[:depth]


def _check_depth(depth: int | None) -> None:
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
        raise ValueError(f"depth must be a positive int or None, got {depth!r}")


def _check_query(query: Any) -> None:
    if not isinstance(query, str):
        raise TypeError(f"query must be a str, got {type(query).__name__}: {query!r}")


class BM25Retriever:
    """BM25 (rank-bm25's ``BM25Okapi``) over a named tokenizer.

    Only chunks that share at least one token with the query are returned (a chunk with no
    shared token has no lexical evidence at all, and ranking it would only pad the list).

    Negative-IDF pitfall: BM25Okapi's IDF, ``log(N - n + 0.5) - log(n + 0.5)``, is negative for a
    term found in more than half of the chunks; rank-bm25 replaces such values by
    ``epsilon * mean IDF``, and on a tiny corpus that mean can itself be negative, so a matching
    chunk may score below zero and below a non-matching one. ``idf_table()`` shows the values in use.
    Returning only matching chunks, ranked by score, keeps the order meaningful either way.

    >>> r = BM25Retriever([{"chunk_id": "a", "text": "INV-102 金额 300 元"},
    ...                    {"chunk_id": "b", "text": "INV-103 金额 120 元"},
    ...                    {"chunk_id": "c", "text": "年假 5 天"}])
    >>> [cid for cid, _ in r.retrieve("INV-102 能报多少")]
    ['a']
    """

    def __init__(
        self,
        chunks: Any,
        tokenizer: str | Tokenizer = "jieba",
        *,
        k1: float = 1.5,
        b: float = 0.75,
        epsilon: float = 0.25,
        name: str = "bm25",
    ) -> None:
        from rank_bm25 import BM25Okapi

        records = as_chunk_records(chunks)
        if not records:
            raise ValueError("chunks is empty: BM25 needs at least one chunk to index")
        self.name = name
        self.tokenizer = get_tokenizer(tokenizer)
        self.chunk_ids: tuple[str, ...] = tuple(r["chunk_id"] for r in records)
        self._pos = {cid: i for i, cid in enumerate(self.chunk_ids)}
        self._tokens = [self.tokenizer(chunk_text(r)) for r in records]
        # rank-bm25 divides by the mean length: give an empty chunk one placeholder token
        self._bm25 = BM25Okapi([t or ["\x00"] for t in self._tokens], k1=k1, b=b, epsilon=epsilon)
        self._token_sets = [set(t) for t in self._tokens]
        self.params = {"k1": k1, "b": b, "epsilon": epsilon, "tokenizer": self.tokenizer.name}

    def tokens(self, chunk_id: str) -> list[str]:
        """Return the tokens indexed for ``chunk_id`` (a copy)."""
        return list(self._tokens[self._index(chunk_id)])

    def _index(self, chunk_id: str) -> int:
        try:
            return self._pos[chunk_id]
        except KeyError:
            raise ValueError(f"chunk_id {chunk_id!r} is not in this index") from None

    def idf_table(self) -> dict[str, float]:
        """Return ``{term: idf}`` as rank-bm25 uses it (after its epsilon floor)."""
        return dict(self._bm25.idf)

    def score_ids(self, query: str, chunk_ids: Sequence[str]) -> dict[str, float]:
        """Return the BM25 score of each given chunk (all of them, matching or not)."""
        _check_query(query)
        idx = [self._index(c) for c in chunk_ids]
        if not idx:
            return {}
        scores = self._bm25.get_batch_scores(self.tokenizer(query), idx)
        return {c: float(s) for c, s in zip(chunk_ids, scores, strict=True)}

    def retrieve(self, query: str, depth: int | None = None) -> list[tuple[str, float]]:
        """Rank the chunks sharing a token with ``query``: score desc, then chunk ID asc."""
        _check_query(query)
        _check_depth(depth)
        q = self.tokenizer(query)
        qset = set(q)
        if not qset:
            return []
        scores = self._bm25.get_scores(q)
        matched = {
            cid: float(scores[i])
            for i, cid in enumerate(self.chunk_ids)
            if self._token_sets[i] & qset
        }
        return rank_scores(matched, depth)


class CharNgramSVDEmbedder:
    """Dense vectors from the corpus itself: character n-gram TF-IDF reduced by truncated SVD.

    A latent-semantic-analysis embedder that needs no download: ``fit(texts)`` learns the n-gram
    vocabulary, IDF weights and the top ``dim`` singular directions of the chunk matrix; calling the
    fitted embedder maps any texts into that space. It captures shared character sequences and
    their co-occurrence in this corpus (so 超出/超标/标准 pull toward the same clauses); it knows
    no synonyms the corpus does not exhibit (打车 and 市内交通 share no characters and may never
    co-occur) and has no world knowledge. Deterministic: exact SVD, each component's sign fixed so
    its largest-magnitude loading is positive; no random numbers are drawn.

    >>> e = CharNgramSVDEmbedder(dim=2).fit(["市内交通 80 元", "住宿 500 元", "市内交通超标"])
    >>> e(["市内交通"]).shape
    (1, 2)
    """

    def __init__(self, ngram_range: tuple[int, int] = (1, 3), dim: int = 64) -> None:
        lo, hi = ngram_range
        if not (isinstance(lo, int) and isinstance(hi, int) and 1 <= lo <= hi):
            raise ValueError(f"ngram_range must be (lo, hi) with 1 <= lo <= hi, got {ngram_range!r}")
        if isinstance(dim, bool) or not isinstance(dim, int) or dim < 1:
            raise ValueError(f"dim must be a positive int, got {dim!r}")
        self.ngram_range = (lo, hi)
        self.dim = dim
        self.vocab: dict[str, int] | None = None

    def _ngrams(self, text: str) -> dict[str, int]:
        t = " ".join(unicodedata.normalize("NFKC", text).lower().split())
        counts: dict[str, int] = {}
        lo, hi = self.ngram_range
        for n in range(lo, hi + 1):
            for i in range(len(t) - n + 1):
                g = t[i : i + n]
                if g.strip() == "":
                    continue
                counts[g] = counts.get(g, 0) + 1
        return counts

    def _sparse(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """Column indices and unit-normalised TF-IDF weights of one text (known n-grams only)."""
        assert self.vocab is not None
        idx, val = [], []
        for g, c in self._ngrams(text).items():
            j = self.vocab.get(g)
            if j is not None:
                idx.append(j)
                val.append((1.0 + math.log(c)) * self.idf[j])
        v = np.array(val, dtype=float)
        norm = float(np.linalg.norm(v))
        return np.array(idx, dtype=int), (v / norm if norm > 0 else v)

    def fit(self, texts: Sequence[str]) -> CharNgramSVDEmbedder:
        """Learn vocabulary, IDF and SVD directions from ``texts``; returns self."""
        texts = _check_texts(texts)
        if not texts:
            raise ValueError("texts is empty: fit needs at least one text")
        grams = [self._ngrams(t) for t in texts]
        df: dict[str, int] = {}
        for g in grams:
            for key in g:
                df[key] = df.get(key, 0) + 1
        self.vocab = {g: i for i, g in enumerate(sorted(df))}
        n = len(texts)
        dfv = np.array([df[g] for g in sorted(df)], dtype=float)
        self.idf = np.log((1.0 + n) / (1.0 + dfv)) + 1.0
        x = np.zeros((len(texts), len(self.vocab)))
        for r, text in enumerate(texts):
            idx, val = self._sparse(text)
            x[r, idx] = val
        # truncated SVD through the small Gram matrix X Xᵀ (n x n): its eigenvectors are the left
        # singular vectors U, eigenvalues s²; the right singular vectors are Vᵀ = diag(1/s) Uᵀ X
        evals, u = np.linalg.eigh(x @ x.T)
        order = np.argsort(evals)[::-1]
        evals, u = evals[order], u[:, order]
        s = np.sqrt(np.clip(evals, 0.0, None))
        keep = min(self.dim, int(np.sum(s > 1e-8)) or 1)
        s, u = s[:keep], u[:, :keep]
        vt = (u.T @ x) / s[:, None]
        signs = np.sign(vt[np.arange(keep), np.argmax(np.abs(vt), axis=1)])
        signs[signs == 0] = 1.0
        self.components = vt * signs[:, None]
        self.singular_values = s[:keep]
        return self

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` (after ``fit``) into the SVD space; one row per text."""
        if self.vocab is None:
            raise ValueError("CharNgramSVDEmbedder is not fitted: call .fit(corpus_texts) first")
        texts = _check_texts(texts)
        out = np.zeros((len(texts), self.components.shape[0]))
        for r, text in enumerate(texts):
            idx, val = self._sparse(text)
            if len(idx):
                out[r] = self.components[:, idx] @ val
        return out


def _check_texts(texts: Any) -> list[str]:
    if isinstance(texts, str) or not isinstance(texts, Iterable):
        raise TypeError(f"texts must be a list of str, got {type(texts).__name__}")
    texts = list(texts)
    for i, t in enumerate(texts):
        if not isinstance(t, str):
            raise TypeError(f"texts[{i}] must be a str, got {type(t).__name__}")
    return texts


class VectorRetriever:
    """Cosine similarity between the query's and each chunk's embedding; every chunk is ranked.

    ``embedder`` is any callable ``list[str] -> ndarray``; by default a ``CharNgramSVDEmbedder``
    fitted on exactly these chunks (so nothing outside the permitted snapshot shapes the space).

    >>> v = VectorRetriever([{"chunk_id": "a", "text": "市内交通每次 80 元"},
    ...                      {"chunk_id": "b", "text": "年假 5 天"}])
    >>> v.retrieve("市内交通超标", depth=1)[0][0]
    'a'
    """

    def __init__(self, chunks: Any, embedder: Embedder | None = None, *, name: str = "vector"):
        records = as_chunk_records(chunks)
        if not records:
            raise ValueError("chunks is empty: the vector retriever needs at least one chunk")
        texts = [chunk_text(r) for r in records]
        if embedder is None:
            embedder = CharNgramSVDEmbedder().fit(texts)
        if not callable(embedder):
            raise TypeError(f"embedder must be callable (list[str] -> ndarray), got {embedder!r}")
        self.name = name
        self.embedder = embedder
        self.chunk_ids: tuple[str, ...] = tuple(r["chunk_id"] for r in records)
        self._pos = {cid: i for i, cid in enumerate(self.chunk_ids)}
        self._matrix = self._unit(np.asarray(embedder(texts), dtype=float), len(texts))

    @staticmethod
    def _unit(m: np.ndarray, rows: int) -> np.ndarray:
        if m.ndim != 2 or m.shape[0] != rows:
            raise ValueError(f"embedder must return a 2-D array with {rows} rows, got {m.shape}")
        norms = np.linalg.norm(m, axis=1, keepdims=True)
        return np.divide(m, norms, out=np.zeros_like(m), where=norms > 0)

    def _cosines(self, query: str) -> np.ndarray:
        _check_query(query)
        q = self._unit(np.asarray(self.embedder([query]), dtype=float), 1)[0]
        return self._matrix @ q

    def score_ids(self, query: str, chunk_ids: Sequence[str]) -> dict[str, float]:
        """Return the cosine of each given chunk with the query."""
        cos = self._cosines(query)
        out = {}
        for c in chunk_ids:
            if c not in self._pos:
                raise ValueError(f"chunk_id {c!r} is not in this index")
            out[c] = float(cos[self._pos[c]])
        return out

    def retrieve(self, query: str, depth: int | None = None) -> list[tuple[str, float]]:
        """Rank every chunk by cosine: descending, then chunk ID ascending."""
        _check_depth(depth)
        cos = self._cosines(query)
        return rank_scores(dict(zip(self.chunk_ids, cos.tolist(), strict=True)), depth)


class HybridRetriever:
    """Reciprocal Rank Fusion (``ragmath.rrf``) of several retrievers' top ``window`` results.

    Each input retriever is asked for its top ``window``; ``rrf(lists, k=k, window=window)`` fuses
    them (ties: ID ascending). The fused score orders results; it is not a probability.

    >>> chunks = [{"chunk_id": "INV-102", "text": "INV-102 可报销 1300 元"},
    ...           {"chunk_id": "T-4.2", "text": "市内交通每次 80 元"}]
    >>> h = HybridRetriever({"bm25": BM25Retriever(chunks), "vector": VectorRetriever(chunks)},
    ...                     k=60, window=2)
    >>> h.retrieve("INV-102 能报多少")[0][0]
    'INV-102'

    Raises ValueError for an empty mapping, k <= 0 or a window that is not a positive int.
    """

    def __init__(
        self,
        retrievers: Mapping[str, Retriever],
        *,
        k: float = 60,
        window: int = 50,
        name: str = "hybrid",
    ) -> None:
        if not isinstance(retrievers, Mapping) or not retrievers:
            raise ValueError("retrievers must be a non-empty mapping name -> Retriever")
        for key, r in retrievers.items():
            if not hasattr(r, "retrieve"):
                raise TypeError(f"retrievers[{key!r}] has no retrieve(query, depth) method")
        try:  # the core's checks decide (one rule per argument); the words are the workbook's
            check_rrf_k(k)
        except (TypeError, ValueError):
            raise ValueError(f"k must be a number > 0 (RRF constant), got {k!r}") from None
        try:
            check_k(window, "window")
        except (TypeError, ValueError):
            raise ValueError("window must be a positive int (each retriever's top results fused), got "
                             f"{window!r}") from None
        self.retrievers = dict(retrievers)
        self.k = k
        self.window = window
        self.name = name
        ids: list[str] = []
        for r in self.retrievers.values():
            ids.extend(c for c in r.chunk_ids if c not in ids)
        self.chunk_ids = tuple(ids)

    def lists(self, query: str) -> dict[str, list[str]]:
        """Return each input retriever's top ``window`` chunk IDs."""
        return {
            name: [cid for cid, _ in r.retrieve(query, depth=self.window)]
            for name, r in self.retrievers.items()
        }

    def explain(self, query: str, lists: Mapping[str, list[str]] | None = None):
        """Return ``ragmath.rrf``'s DataFrame for ``query`` (per-list ranks and contributions)."""
        if lists is None:
            lists = self.lists(query)
        return rrf(dict(lists), k=self.k, window=self.window)

    def fused_ids(self, lists: Mapping[str, Sequence[str]]) -> list[str]:
        """The fused order alone: the IDs of ``ragmath.rrf``'s table, best first.

        >>> h = HybridRetriever({"a": BM25Retriever([{"chunk_id": "x", "text": "x"}])}, k=1, window=2)
        >>> h.fused_ids({"bm25": ["4.2", "6.1"], "vector": ["6.1", "4.2"]})
        ['4.2', '6.1']
        """
        return rrf({name: list(ranking) for name, ranking in lists.items()}, k=self.k,
                   window=self.window)["id"].tolist()

    def retrieve(
        self, query: str, depth: int | None = None, *, lists: Mapping[str, list[str]] | None = None
    ) -> list[tuple[str, float]]:
        """Return the fused ranking ``[(chunk_id, rrf_score)]``; pass ``lists`` to reuse inputs."""
        _check_query(query)
        _check_depth(depth)
        df = self.explain(query, lists)
        out = [(str(i), float(s)) for i, s in zip(df["id"], df["rrf_score"], strict=True)]
        return out if depth is None else out[:depth]
