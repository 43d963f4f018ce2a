"""The ablation: A (BM25), B (vector), C (BM25 + vector + RRF), D (C + reranker), Oracle.

``run_ablation(config)`` builds, for every identity, an index over the chunks that identity may read
on the snapshot date (the permission filter runs before any ranking), runs each question through
every version, hands the top passages to the generator and scores everything with
``ragmath.evaluate``. One change per row (notation: K the cut-off, k RRF's constant, W the recall
window, M the rerank depth):

=========  ==================================================================================
A          BM25 (rank-bm25 over the configured tokenizer), top M
B          vector retriever (``CharNgramSVDEmbedder`` by default), top M
C          RRF (``ragmath.rrf``, constant k) of A's and B's top W, top M
D          C's top M reordered by the ``LinearReranker``
Oracle     no retrieval: the labelled evidence (grade >= 1) handed straight to the generator
=========  ==================================================================================

Nothing is scored in sample. On dev, each question's D ranking comes from a reranker fitted on
the other folds of a grouped 5-fold split (whole groups per fold), and its refusal threshold
likewise; on the holdout
(opened only through ``ragmath.lab.holdout.open_holdout``) both are fitted on all dev questions. The
table's ``caveat`` column says, per row, which dev numbers were tuned on and so are optimistic.

Conventions: no-answer questions (no label > 0 for the identity asked) are outside the retrieval
means and the answer accuracy; they are counted as correct refusals / wrong answers. Answer
accuracy: numeric gold -> the number within 0.01; otherwise the first citation labelled 2.
Citation support: per question that gave an answer, 1 if every cited chunk is labelled >= 1 for
it, else 0; the table's rate is the share of those questions (the question is the sampling unit).
Cost: characters of passage text sent to the generator per question. Latency is measured per
stage and kept in its own table (``AblationResult.latency``), never in ``table``, ``by_type`` or
``per_question``, which are identical from run to run.
"""

from __future__ import annotations

import datetime as _dt
import functools
import hashlib
import json
import math
import statistics
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ragmath.evaluation import Evaluation, evaluate
from ragmath.lab.generate import Answer, ExtractiveAnswerer, answer_is_correct
from ragmath.lab.messages import message
from ragmath.lab.rerank import FEATURES, FeatureExtractor, LinearReranker, question_similarity
from ragmath.lab.retrieval import BM25Retriever, HybridRetriever, VectorRetriever, as_chunk_records
from ragmath.lab.tokenize import get_tokenizer
from ragmath.validation import check_rrf_k

__all__ = [
    "VERSIONS",
    "AblationConfig",
    "AblationResult",
    "IdentityPipeline",
    "RerankStage",
    "run_ablation",
    "tune",
    "grid_edges",
    "fit_refusal_threshold",
    "leakage_experiment",
    "leakage_on_fixed_questions",
    "holdout_overlap",
    "type_intervals",
    "rate_intervals",
    "bootstrap_table",
    "paired_table",
    "P_SIGN_FLIP",
    "P_HOLM",
    "knob_against_default",
    "keep_default_rule",
    "ARTICLE_DEFAULTS",
    "rerank_entries",
    "top_ranks_table",
    "readable_table",
    "tokenizer_ranks",
    "require_dev_only",
    "clear_cache",
]

VERSIONS: tuple[str, ...] = ("A", "B", "C", "D", "Oracle")
SPLITS = ("dev", "holdout", "all")
#: The knobs ``tune`` chooses on dev, by AblationConfig field name, with their workbook symbol.
TUNED_KNOBS = {"k": "k", "window": "W", "rerank_depth": "M"}
#: Folds of the grouped K-fold that scores dev questions out of fold.
FOLDS = 5


@dataclass(frozen=True)
class AblationConfig:
    """Everything a run depends on; recorded beside its table.

    ``snapshot_date`` None -> the data's ``config.json``; ``identity`` None -> every question is
    asked as its own identity; ``refuse_below`` None -> fitted on dev questions (out of fold on
    dev). ``k``: RRF's constant; ``window`` (W): each list's depth fed to RRF;
    ``rerank_depth`` (M): candidates kept per version and reordered by the reranker (Recall@M);
    ``top_k`` (K): the cut-off of the retrieval metrics; ``context_k``: passages sent to the
    generator. ``tuned``: the knobs that were chosen on dev (``tune`` fills it), so the dev table
    can say which of its numbers are optimistic. ``seed`` is recorded with the run and meant for
    any randomised step a reader plugs in; the default pipeline draws no random numbers (exact
    SVD, Newton fit, stated tie rules), so its results do not depend on it.

    Raises ValueError naming the field for a non-positive depth, ``rerank_depth < top_k``,
    k <= 0, an unknown split, editions mode, tokenizer or tuned knob, or ``refuse_below``
    outside [0, 1].

    >>> AblationConfig(k=1, window=40, rerank_depth=20).rerank_depth
    20
    """

    snapshot_date: Any = None
    editions: str = "published"
    identity: str | None = None
    split: str = "dev"
    k: float = 60
    window: int = 20
    rerank_depth: int = 10
    top_k: int = 5
    context_k: int = 5
    seed: int = 0
    tokenizer: str = "jieba"
    refuse_below: float | None = None
    l2: float = 1.0
    tuned: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("window", "rerank_depth", "top_k", "context_k"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(message("pipeline.ablation.not_positive", name=name, value=repr(value)))
        if self.rerank_depth < self.top_k:
            raise ValueError(message("pipeline.ablation.depth_below_top_k", depth=self.rerank_depth,
                                     top_k=self.top_k))
        try:  # the core's check decides; the words are the workbook's
            check_rrf_k(self.k)
        except (TypeError, ValueError):
            raise ValueError(message("pipeline.ablation.bad_k", value=repr(self.k))) from None
        if self.split not in SPLITS:
            raise ValueError(message("pipeline.ablation.bad_split", allowed=SPLITS, value=repr(self.split)))
        if self.editions not in ("live", "published"):
            raise ValueError(message("pipeline.ablation.bad_editions", value=repr(self.editions)))
        get_tokenizer(self.tokenizer)
        if self.refuse_below is not None and not 0 <= self.refuse_below <= 1:
            raise ValueError(message("pipeline.ablation.bad_refuse_below", value=repr(self.refuse_below)))
        unknown = set(self.tuned) - set(TUNED_KNOBS)
        if unknown:
            raise ValueError(message("pipeline.ablation.unknown_knobs", unknown=sorted(unknown),
                                     knobs=list(TUNED_KNOBS)))


def _records(frame: Any) -> list[dict]:
    return frame.to_dict("records") if isinstance(frame, pd.DataFrame) else [dict(r) for r in frame]


def _jsonable(value: Any) -> Any:
    if isinstance(value, (_dt.date, _dt.datetime)):
        return value.isoformat()
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, np.generic):
        return value.item()
    return value


def content_hash(chunks: Any) -> str:
    """SHA-256 of the chunk records as canonical JSON (sorted keys, corpus order).

    >>> len(content_hash([{"chunk_id": "a", "text": "x"}]))
    64
    """
    rows = [{k: _jsonable(v) for k, v in sorted(r.items())} for r in _records(chunks)]
    blob = json.dumps(rows, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class IdentityPipeline:
    """The indexes one identity gets on one snapshot: built only from the chunks it may read.

    >>> pipe = IdentityPipeline([{"chunk_id": "a", "text": "年假 5 天"},
    ...                          {"chunk_id": "b", "text": "市内交通 80 元"}],
    ...                         identity="p6_employee", as_of="2026-06-30")
    >>> pipe.bm25.chunk_ids == pipe.vector.chunk_ids == ("a", "b")
    True
    """

    def __init__(self, chunks: Any, *, identity: str, as_of: Any, tokenizer: str = "jieba"):
        self.records = as_chunk_records(chunks)
        self.identity = identity
        self.as_of = as_of
        self.by_id = {r["chunk_id"]: r for r in self.records}
        self.chunk_ids = tuple(self.by_id)
        self.bm25 = BM25Retriever(self.records, tokenizer)
        self.vector = VectorRetriever(self.records)
        self.features = FeatureExtractor(self.records, self.bm25, self.vector, as_of=as_of)
        self.memo: dict[tuple, Any] = {}

    def cached(self, key: tuple, fn, *args):
        """Return ``fn(*args)``, computed once per key (used by ``tune``; never for latency)."""
        if key not in self.memo:
            self.memo[key] = fn(*args)
        return self.memo[key]

    def passages(self, chunk_ids: Sequence[str]) -> list[dict]:
        """Fresh copies of the chunk records, in the given order."""
        return [dict(self.by_id[c]) for c in chunk_ids]


_PIPELINES: dict[tuple, IdentityPipeline] = {}


def clear_cache() -> None:
    """Forget the per-identity indexes built so far in this process."""
    _PIPELINES.clear()


def _load_dataset(dataset: Any):
    if dataset is None:
        from ragmath.lab.corpus import load_dataset

        return load_dataset()
    for name in ("corpus", "questions", "qrels", "identities", "config"):
        if not hasattr(dataset, name):
            raise TypeError(message("pipeline.ablation.not_a_dataset", name=repr(name)))
    return dataset


def require_dev_only(dataset: Any, what: str) -> None:
    """Refuse a dataset that holds any holdout question: tuning, fitting and leakage are dev-only.

    >>> from types import SimpleNamespace
    >>> held = SimpleNamespace(questions=pd.DataFrame({"question_id": ["q9"], "split": ["holdout"]}))
    >>> try:
    ...     require_dev_only(held, "tune")
    ... except ValueError as error:
    ...     print(str(error)[:60])
    tune works on dev questions only, but the dataset holds hold
    """
    questions = dataset.questions
    held = list(questions.loc[questions["split"] != "dev", "question_id"])
    if held:
        raise ValueError(message("pipeline.ablation.dev_only", what=what, held=held[:5]))


def _roles(dataset: Any, identity: str) -> tuple[str, ...]:
    ids = dataset.identities
    if identity not in ids.index:
        raise ValueError(message("pipeline.ablation.unknown_identity", name=repr(identity),
                                 known=sorted(ids.index)))
    return tuple(ids.loc[identity, "roles"])


def _pipeline(dataset: Any, identity: str, as_of: Any, cfg: AblationConfig, corpus_key: str):
    key = (corpus_key, str(as_of), cfg.editions, identity, _roles(dataset, identity), cfg.tokenizer)
    pipe = _PIPELINES.get(key)
    if pipe is None:
        from ragmath.lab.index import build_index, permission_filter

        snap = build_index(dataset.corpus, as_of=as_of, editions=cfg.editions)
        view = permission_filter(snap.chunks, _roles(dataset, identity))
        pipe = IdentityPipeline(view, identity=identity, as_of=as_of, tokenizer=cfg.tokenizer)
        _PIPELINES[key] = pipe
    return pipe


def _grades(dataset: Any) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {q: {} for q in dataset.questions["question_id"]}
    for qid, cid, grade in dataset.qrels[["question_id", "chunk_id", "grade"]].itertuples(index=False):
        out.setdefault(qid, {})[cid] = int(grade)
    return out


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
        raise ValueError(message("pipeline.ablation.no_rows"))
    for r in rows:
        if r.get("split") != "dev":
            raise ValueError(message("pipeline.ablation.threshold_not_dev",
                                     question=repr(r.get("question_id", "?")), split=repr(r.get("split"))))
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
            raise ValueError(message("pipeline.ablation.reranker_not_dev", questions=not_dev[:3]))
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


@dataclass
class AblationResult:
    """One run: the table, per-type table, latency (apart), per-question rows and the config."""

    table: pd.DataFrame
    by_type: pd.DataFrame
    latency: pd.DataFrame
    per_question: pd.DataFrame
    config: dict
    runs: dict[str, dict[str, list[str]]]
    answers: dict[str, dict[str, Answer]]
    generator_input: dict[str, dict[str, list[str]]]
    trace: dict[str, dict[str, tuple[str, ...]]]
    evaluations: dict[str, Evaluation]
    reranker: LinearReranker
    qrels: dict[str, dict[str, int]]
    rerank_stage: RerankStage
    fused: dict[str, pd.DataFrame] = field(default_factory=dict)

    def comparable(self) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
        """The tables a rerun must reproduce exactly (latency excluded)."""
        return self.table, self.by_type, self.per_question

    def config_frame(self) -> pd.DataFrame:
        """The configuration as a one-column table, for display beside the results."""
        return pd.DataFrame({"value": {k: str(v) for k, v in self.config.items()}})


def metric_names(cfg: AblationConfig) -> tuple[list[str], str]:
    """The metric names of an ablation table (Recall, Hit, MRR, nDCG at top_k; Recall at the rerank
    depth) and that Recall's name (also used by :mod:`ragmath.lab.holdout`)."""
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
    return {
        "A": "not tuned (refusal threshold out of fold)",
        "B": "not tuned (refusal threshold out of fold)",
        "C": c_note,
        "D": d_note,
        "Oracle": "gold evidence, no retrieval; correct refusals hold by construction",
    }


def run_ablation(
    config: AblationConfig | None = None,
    dataset: Any = None,
    *,
    answers: bool = True,
    generator: Any = None,
    reuse: bool = False,
) -> AblationResult:
    """Run versions A, B, C, D and Oracle on the configured split; return tables and traces.

    ``dataset``: ``ragmath.lab.corpus.load_dataset()`` by default (dev questions only; any object with
    corpus, questions, qrels, identities, config). ``answers=False`` skips generation (used while
    tuning). ``generator``: any ``Generator`` (used as given), or a factory called as
    ``factory(refuse_below=t, as_of=date, max_passages=context_k)`` with the threshold fitted on dev
    (a class such as ``MisreadLimitAnswerer``, or ``functools.partial(MisreadLimitAnswerer,
    remembered_limit=60)``); default ``ExtractiveAnswerer`` with the fitted threshold.
    ``reuse=True`` reuses retrieval and fusion results cached by
    earlier runs in this process (results are identical; the latency table then measures cache
    look-ups, so ``tune`` alone uses it).

    The reranker and the refusal threshold are fitted on dev questions only: a dev question is
    scored by the ones fitted on the other folds of a grouped 5-fold split; a holdout question by the
    ones fitted on all dev questions.

    >>> result = run_ablation(AblationConfig(rerank_depth=5), answers=False)
    >>> list(result.table.index)
    ['A', 'B', 'C', 'D', 'Oracle']
    >>> set(result.per_question["split"])
    {'dev'}

    Raises ValueError for a question without a dev/holdout split, an unknown identity, an empty
    split (the holdout is sealed: only ``ragmath.lab.holdout.open_holdout`` loads it), or no dev
    question; TypeError for a config that is not an AblationConfig.
    """
    return _run(config, dataset, answers=answers, generator=generator, reuse=reuse)


def _run(config, dataset, *, answers, generator, reuse, scores_only=False, corpus_key=None):
    """The body of ``run_ablation``; ``scores_only`` stops after retrieval and reranking and
    returns ``(runs, qrels)`` (used by ``tune``); ``corpus_key`` skips re-hashing the corpus."""
    cfg = config if config is not None else AblationConfig()
    if not isinstance(cfg, AblationConfig):
        raise TypeError(message("pipeline.ablation.not_a_config", kind=type(cfg).__name__))
    files_hash = None
    if dataset is None and not scores_only:
        from ragmath.lab.corpus import corpus_hash

        files_hash = corpus_hash()
    ds = _load_dataset(dataset)
    as_of = cfg.snapshot_date if cfg.snapshot_date is not None else ds.config["snapshot_date"]
    corpus_key = corpus_key or content_hash(ds.corpus)
    labels = _grades(ds)
    questions = _records(ds.questions)
    for q in questions:
        if q.get("split") not in ("dev", "holdout"):
            raise ValueError(message("pipeline.ablation.question_without_split",
                                     question=repr(q["question_id"]), split=repr(q.get("split"))))
    if cfg.identity is not None:
        _roles(ds, cfg.identity)
    wanted = [q for q in questions if cfg.split == "all" or q["split"] == cfg.split]
    dev = [q for q in questions if q["split"] == "dev"]
    if not wanted:
        if cfg.split == "holdout":
            raise ValueError(message("pipeline.ablation.holdout_sealed"))
        raise ValueError(message("pipeline.ablation.no_question_in_split", split=repr(cfg.split)))
    if not dev:
        raise ValueError(message("pipeline.ablation.no_dev_question"))

    def asked_as(q: Mapping[str, Any]) -> str:
        return cfg.identity or q["identity"]

    timings: dict[str, dict[str, list[float]]] = {v: {} for v in VERSIONS}

    def timed(version: str, stage: str, fn, *args, pipe=None):
        t0 = time.perf_counter()
        if reuse and pipe is not None:
            out = pipe.cached((stage, *[a if isinstance(a, (str, int, float)) else repr(a)
                                        for a in args]), fn, *args)
        else:
            out = fn(*args)
        timings[version].setdefault(stage, []).append((time.perf_counter() - t0) * 1000)
        return out

    # ---- retrieval for every question we need (evaluated + dev for fitting) ----------------
    needed = {q["question_id"]: q for q in wanted + dev}
    stage_out: dict[str, dict[str, Any]] = {}
    trace: dict[str, dict[str, tuple[str, ...]]] = {}
    fused_tables: dict[str, pd.DataFrame] = {}
    depth = max(cfg.window, cfg.rerank_depth)
    m = cfg.rerank_depth
    for qid, q in needed.items():
        pipe = _pipeline(ds, asked_as(q), as_of, cfg, corpus_key)
        text = q["text"]
        bm = [c for c, _ in timed("A", "bm25", pipe.bm25.retrieve, text, depth, pipe=pipe)]
        vec = [c for c, _ in timed("B", "vector", pipe.vector.retrieve, text, depth, pipe=pipe)]
        lists = {"bm25": bm[: cfg.window], "vector": vec[: cfg.window]}
        def hybrid(pipe=pipe) -> HybridRetriever:
            return HybridRetriever({"bm25": pipe.bm25, "vector": pipe.vector}, k=cfg.k,
                                   window=cfg.window)

        def fuse(text: str, k: float, window: int, hybrid=hybrid, lists=lists) -> list[str]:
            return hybrid().fused_ids(lists)  # the fused order depends on (text, k, W) only

        fused_ids = timed("C", "fusion", fuse, text, cfg.k, cfg.window, pipe=pipe if reuse else None)
        if not scores_only:
            fused_tables[qid] = hybrid().explain(text, lists)
        stage_out[qid] = {"pipe": pipe, "A": bm[:m], "B": vec[:m], "C": fused_ids[:m]}
        trace[qid] = {
            "identity": (pipe.identity,),
            "index[bm25]": pipe.bm25.chunk_ids,
            "index[vector]": pipe.vector.chunk_ids,
            "index[features]": pipe.features.chunk_ids,
            "bm25": tuple(bm),
            "vector": tuple(vec),
            "fusion": tuple(fused_ids),
        }

    # ---- reranker: fitted on dev only; dev questions out of fold ----------------------------
    visible = {qid: _visible(labels.get(qid, {}), stage_out[qid]["pipe"]) for qid in needed}
    stage = RerankStage(
        {qid: stage_out[qid]["C"] for qid in needed},
        {qid: stage_out[qid]["pipe"].features.matrix(needed[qid]["text"], stage_out[qid]["C"])
         for qid in needed},
        {qid: needed[qid]["split"] for qid in needed},
        {qid: needed[qid]["group"] for qid in needed},
        {qid: needed[qid]["text"] for qid in needed},
        {qid: visible[qid] for qid in needed if needed[qid]["split"] == "dev"},
        cfg.l2,
    )
    dev_ids = [q["question_id"] for q in dev]
    reranker = stage.fit(dev_ids)
    out_of_fold = stage.out_of_fold()
    for q in wanted:
        qid = q["question_id"]
        t0 = time.perf_counter()  # latency: scoring one question's candidates with a fitted model
        full_rank = stage.rank(qid, reranker, dev_ids)
        timings["D"].setdefault("rerank", []).append((time.perf_counter() - t0) * 1000)
        d_rank = out_of_fold[qid] if q["split"] == "dev" else full_rank
        stage_out[qid]["D"] = d_rank
        trace[qid]["reranker"] = tuple(stage.candidates[qid])

    # ---- labels as the asked identity can see them ----------------------------------------
    qrels_eval = {q["question_id"]: visible[q["question_id"]] for q in wanted}
    names, recall_m = metric_names(cfg)
    runs = {v: {q["question_id"]: list(stage_out[q["question_id"]][v]) for q in wanted}
            for v in ("A", "B", "C", "D")}
    if scores_only:
        return runs, qrels_eval
    evaluations = {v: evaluate(runs[v], qrels_eval, names) for v in runs}

    # ---- generation --------------------------------------------------------------------------
    gen_input: dict[str, dict[str, list[str]]] = {v: {} for v in VERSIONS}
    all_answers: dict[str, dict[str, Answer]] = {v: {} for v in VERSIONS}
    threshold_note: Any = cfg.refuse_below
    if answers:
        thresholds: dict[str, float] = {}
        if (generator is None or _is_factory(generator)) and cfg.refuse_below is None:
            probe = ExtractiveAnswerer(refuse_below=0.0, as_of=as_of, max_passages=cfg.context_k)
            rows = []
            for q in dev:
                qid = q["question_id"]
                ranking = out_of_fold[qid]
                ans = probe(q["text"], stage_out[qid]["pipe"].passages(ranking[: cfg.context_k]))
                grades = visible[qid]
                answerable = any(g > 0 for g in grades.values())
                rows.append({
                    "question_id": qid, "split": "dev", "group": q["group"], "support": ans.support,
                    "answerable": answerable,
                    "correct": answerable and answer_is_correct(
                        ans, gold_number=_number(q.get("answer_number")), grades=grades),
                })
            final = fit_refusal_threshold(rows)
            folds = stage.folds()
            by_fold = {f: fit_refusal_threshold([r for r in rows if folds[r["question_id"]] != f])
                       for f in sorted(set(folds.values()))}
            for q in wanted:
                thresholds[q["question_id"]] = (by_fold[folds[q["question_id"]]]
                                                if q["split"] == "dev" else final)
            threshold_note = (f"fitted on dev: out of fold for dev questions "
                              f"({min(by_fold.values()):.3f}–{max(by_fold.values()):.3f}), "
                              f"{final:.3f} on all dev")
        generators: dict[float, Any] = {}
        factory = generator if _is_factory(generator) else ExtractiveAnswerer

        def generator_for(qid: str):
            if generator is not None and not _is_factory(generator):
                return generator
            t = thresholds.get(qid, cfg.refuse_below)
            if t not in generators:
                generators[t] = factory(refuse_below=t, as_of=as_of, max_passages=cfg.context_k)
            return generators[t]

        for q in wanted:
            qid = q["question_id"]
            so = stage_out[qid]
            pipe = so["pipe"]
            gen = generator_for(qid)
            for v in VERSIONS:
                if v == "Oracle":
                    gold = qrels_eval[qid]
                    ids = sorted((c for c, g in gold.items() if g > 0), key=lambda c: (-gold[c], c))
                else:
                    ids = so[v][: cfg.context_k]
                passages = pipe.passages(ids)
                gen_input[v][qid] = ids
                trace[qid][f"generator_input[{v}]"] = tuple(ids)
                all_answers[v][qid] = timed(v, "generate", gen, q["text"], passages)

    # ---- tables ------------------------------------------------------------------------------
    per_q = _per_question(wanted, runs, evaluations, all_answers, gen_input, qrels_eval, stage_out,
                          names, answers)
    table = summary_table(per_q, names, recall_m, answers)
    table["caveat"] = pd.Series(caveats_of(cfg))
    by_type = by_type_table(per_q, names, answers)
    latency = _latency(timings)
    config_out = {
        "snapshot_date": str(as_of),
        "editions": cfg.editions,
        "corpus_sha256": corpus_key,
        "data files hash (ragmath.lab.corpus.corpus_hash)": files_hash or "n/a (dataset passed in)",
        "identity": cfg.identity or "each question's own identity",
        "split": cfg.split,
        "questions": len(wanted),
        "k (RRF constant)": cfg.k,
        "W (recall window)": cfg.window,
        "M (rerank depth)": cfg.rerank_depth,
        "K (metric cut-off)": cfg.top_k,
        "context passages": cfg.context_k,
        "chosen on dev": ", ".join(TUNED_KNOBS[t] for t in cfg.tuned) or "nothing",
        "seed": cfg.seed,
        "tokenizer": cfg.tokenizer,
        "embedder": "CharNgramSVDEmbedder(ngram_range=(1, 3), dim=64)",
        "reranker": f"LinearReranker (logistic, L2={cfg.l2:g}, features {', '.join(FEATURES)}); "
        f"dev questions scored out of fold (grouped {FOLDS}-fold), others by the fit on all "
        f"{len(dev_ids)} dev questions",
        "generator": _generator_name(generator),
        "refuse_below": threshold_note,
    }
    return AblationResult(
        table=table, by_type=by_type, latency=latency, per_question=per_q, config=config_out,
        runs=runs, answers=all_answers, generator_input=gen_input, trace=trace,
        evaluations=evaluations, reranker=reranker, qrels=qrels_eval, rerank_stage=stage,
        fused=fused_tables,
    )


def _is_factory(generator: Any) -> bool:
    """A class or functools.partial that builds a generator from the fitted threshold."""
    return isinstance(generator, (type, functools.partial))


def _generator_name(generator: Any) -> str:
    if generator is None:
        return "ExtractiveAnswerer"
    if _is_factory(generator):
        base = generator.func if isinstance(generator, functools.partial) else generator
        extra = "".join(f", {k}={v!r}" for k, v in getattr(generator, "keywords", {}).items())
        return f"{base.__name__}(refuse_below fitted on dev{extra})"
    return getattr(generator, "name", type(generator).__name__)


def _number(value: Any) -> float | None:
    if value is None:
        return None
    try:
        f = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(f) else f


def _visible(grades: Mapping[str, int], pipe: IdentityPipeline) -> dict[str, int]:
    """Labels restricted to the chunks the asked identity holds on this snapshot."""
    return {c: g for c, g in grades.items() if c in pipe.by_id}


def _per_question(wanted, runs, evaluations, answers, gen_input, qrels_eval, stage_out, names,
                  with_answers) -> pd.DataFrame:
    rows = []
    for v in VERSIONS:
        for q in wanted:
            qid = q["question_id"]
            grades = qrels_eval[qid]
            answerable = any(g > 0 for g in grades.values())
            row: dict[str, Any] = {
                "version": v, "question_id": qid, "type": q["type"], "group": q["group"],
                "identity": stage_out[qid]["pipe"].identity, "split": q["split"],
                "answerable": answerable,
            }
            for name in names:
                if v == "Oracle" or not answerable:
                    row[name] = np.nan
                else:
                    row[name] = float(evaluations[v].per_question.loc[qid, name])
            if v != "Oracle":
                ranking = runs[v][qid]
                first = next((i for i, c in enumerate(ranking, 1) if grades.get(c, 0) > 0), None)
                row["first relevant rank"] = float(first) if first else np.nan
                row["top 5"] = " ".join(ranking[:5])
            else:
                row["first relevant rank"] = np.nan
                row["top 5"] = ""
            if with_answers:
                a = answers[v][qid]
                cited = list(a.citations)
                supported = sum(grades.get(c, 0) >= 1 for c in cited)
                row.update({
                    "refused": a.refused,
                    "number": a.number if a.number is not None else np.nan,
                    "citations": " ".join(cited),
                    "citations supported": float(bool(cited) and supported == len(cited))
                    if not a.refused else np.nan,
                    "correct": (answer_is_correct(a, gold_number=_number(q.get("answer_number")),
                                                  grades=grades) if answerable else a.refused),
                    "context chars": sum(len(p) for p in _texts(stage_out[qid]["pipe"],
                                                                  gen_input[v][qid])),
                    "support": round(a.support, 9),
                })
            rows.append(row)
    return pd.DataFrame(rows).set_index(["version", "question_id"])


def _texts(pipe: IdentityPipeline, ids: Sequence[str]) -> list[str]:
    return [pipe.by_id[c]["text"] for c in ids]


def summary_table(per_q: pd.DataFrame, names, recall_m, with_answers) -> pd.DataFrame:
    """One row per version: each metric's mean over the answerable questions (and the answer rates)."""
    out = {}
    for v in VERSIONS:
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
    table = pd.DataFrame.from_dict(out, orient="index")
    table.index.name = "version"
    return table


def by_type_table(per_q: pd.DataFrame, names, with_answers) -> pd.DataFrame:
    """One row per (version, question type): the means of that type's questions and their count."""
    rows = []
    k_names = names[:4]
    for (v, qtype), part in per_q.groupby([per_q.index.get_level_values("version"), "type"],
                                          sort=False):
        ans = part[part["answerable"]]
        row = {"type": qtype, "version": v, "questions": len(part), "answerable": len(ans)}
        for name in (k_names[0], k_names[2], k_names[3]):
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
    df = df.sort_values(["type", "version"], key=lambda s: s.map(order) if s.name == "version"
                        else s).set_index(["type", "version"])
    return df


def _latency(timings: dict[str, dict[str, list[float]]]) -> pd.DataFrame:
    """Median milliseconds per question per stage; a version's pipeline includes earlier stages."""
    med = {v: {s: statistics.median(t) for s, t in st.items()} for v, st in timings.items()}
    stages = {
        "A": ["bm25"], "B": ["vector"], "C": ["bm25", "vector", "fusion"],
        "D": ["bm25", "vector", "fusion", "rerank"], "Oracle": [],
    }
    rows = {}
    for v in VERSIONS:
        row = {}
        for s in ("bm25", "vector", "fusion", "rerank"):
            row[s] = med[_owner(s)].get(s, np.nan) if s in stages[v] else np.nan
        row["generate"] = med[v].get("generate", np.nan)
        row["total"] = float(np.nansum(list(row.values())))
        rows[v] = row
    df = pd.DataFrame.from_dict(rows, orient="index")
    df.index.name = "version"
    return df.rename(columns=lambda c: f"{c} ms")


def _owner(stage: str) -> str:
    return {"bm25": "A", "vector": "B", "fusion": "C", "rerank": "D"}[stage]


#: The default tuning grid: wide enough that the chosen values sit inside it (see ``grid_edges``).
DEFAULT_GRID = {
    "k": (0.5, 1, 3, 10, 60, 240),
    "window": (5, 10, 20, 40, 80),
    "rerank_depth": (5, 10, 20),
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
    ds = _load_dataset(dataset)
    require_dev_only(ds, "tune")
    if not (ks and windows and depths):
        raise ValueError(message("pipeline.ablation.empty_grid"))
    top = base.top_k
    key = content_hash(ds.corpus)
    rows = []
    for k in ks:
        for w in windows:
            for m in depths:
                cfg = replace(base, k=k, window=w, rerank_depth=m, split="dev")
                runs, qrels = _run(cfg, ds, answers=False, generator=None, reuse=True,
                                   scores_only=True, corpus_key=key)
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
            "grid": ", ".join(f"{v:g}" for v in grid_values), "chosen": picked,
            "position": position,
            f"best {metric} at each value": ", ".join(f"{v:.3f}" for v in profile.loc[grid_values]),
        }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "knob"
    return table


def leakage_experiment(
    dataset: Any = None,
    config: AblationConfig | None = None,
    *,
    seeds: Sequence[int] = tuple(range(20)),
    test_fraction: float = 0.3,
) -> pd.DataFrame:
    """Estimate D's nDCG@K on unseen questions under a random and a grouped split, per seed.

    The real pipeline, dev questions only: for each seed the answerable dev questions are split
    into a fitting part and a test part twice, question by question at random and by whole
    groups (``ragmath.grouped_split`` on ``group``); the reranker is fitted on the fitting part
    (its ``memory`` feature remembers only those questions' labels) and D's nDCG@K is measured
    on the test part. A random split lets near-duplicates of test questions into the fitting
    part, so its estimate is optimistic; the difference (random − grouped) per seed is the leak.
    Returns one row per seed.

    >>> demo = leakage_experiment(seeds=[0])
    >>> int(demo.loc[0, "grouped: groups on both sides"])
    0

    Raises ValueError if the dataset holds a holdout question or ``test_fraction`` is outside (0, 1).
    """
    from ragmath.stats import grouped_split

    if not 0 < test_fraction < 1:
        raise ValueError(message("pipeline.ablation.bad_test_fraction", value=repr(test_fraction)))
    cfg = replace(config or AblationConfig(), split="dev")
    ds = _load_dataset(dataset)
    require_dev_only(ds, "leakage_experiment")
    base = run_ablation(cfg, ds, answers=False, reuse=True)
    stage, qrels = base.rerank_stage, base.qrels
    answerable = [q for q in stage.dev if any(g > 0 for g in qrels[q].values())]
    group = {q: stage.group[q] for q in answerable}
    metric = f"nDCG@{cfg.top_k}"

    def estimate(fit: list[str], test: list[str]) -> float:
        model = stage.fit(fit)
        run = {q: stage.rank(q, model, fit) for q in test}
        return float(evaluate(run, {q: qrels[q] for q in test}, [metric]).means[metric])

    rows = []
    for seed in seeds:
        order = [answerable[i] for i in np.random.default_rng(seed).permutation(len(answerable))]
        cut = math.ceil(test_fraction * len(order))
        splits = {"random": (sorted(order[cut:]), sorted(order[:cut])),
                  "grouped": grouped_split(answerable, group, holdout=test_fraction, seed=seed)}
        row: dict[str, Any] = {"seed": seed}
        for kind, (fit, test) in splits.items():
            fit_groups = {group[q] for q in fit}
            row[f"{kind}: test questions"] = len(test)
            row[f"{kind}: groups on both sides"] = len(fit_groups & {group[q] for q in test})
            row[f"{kind}: test questions with a twin in fitting"] = sum(
                group[q] in fit_groups for q in test)
            row[f"{kind}: {metric}"] = estimate(fit, test)
        row["difference (random − grouped)"] = row[f"random: {metric}"] - row[f"grouped: {metric}"]
        rows.append(row)
    return pd.DataFrame(rows).set_index("seed")


# ---------------------------------------------------------------- notebook 07 (teach7): leaks, caveats
#: The settings over which ``leakage_on_fixed_questions`` tunes (k, W, M); the frozen design is one of them.
LEAK_GRID = {"k": (1, 60), "window": (20, 40), "rerank_depth": (5, 10, 20)}


def leakage_on_fixed_questions(
    dataset: Any = None,
    config: AblationConfig | None = None,
    *,
    seeds: Sequence[int] = tuple(range(20)),
    test_fraction: float = 0.3,
    grid: Mapping[str, Sequence[Any]] = LEAK_GRID,
    memory_depths: Sequence[int] = (5, 20),
    resamples: int = 2000,
) -> pd.DataFrame:
    """Two leaks measured on the same test questions, per seed, each with a paired interval.

    The real pipeline, answerable dev questions only. For each seed a test part T (``test_fraction``
    of the questions, drawn one by one at random) is fixed; the rest R holds some near-duplicates
    of T (``twins``: questions of R in a group that T also has). Every arm scores the same T, so a
    difference is the leak, not a change of questions:

    - ``memory (M = m)``: D at ``config`` with rerank depth m, reranker fitted on R (twins
      included, so its memory feature remembers their labels) minus fitted on R without the twins.
    - ``tuning (k, W, M)``: the setting of ``grid`` that scores best on T itself minus the one an
      out-of-fold score on R without the twins picks (both fitted on R without the twins, ties to
      the smaller M, W, then k). Never below 0 by construction: its size is the lesson.

    Returns one row per (seed, leak): ``clean`` and ``leaky`` mean nDCG@K on T, ``difference``
    (leaky − clean) with its paired percentile bootstrap interval over the T questions
    (``low``, ``high``, ``resamples`` draws, seed = the row's seed), the test questions, how many
    have a twin in R, and the settings chosen.

    >>> rows = leakage_on_fixed_questions(seeds=[0], grid={"k": (1,), "window": (40,),
    ...                                   "rerank_depth": (5,)}, memory_depths=(5,), resamples=200)
    >>> list(rows.index.get_level_values("leak"))
    ['memory (M = 5)', 'tuning (k, W, M)']

    Raises ValueError if the dataset holds a holdout question, ``test_fraction`` is outside (0, 1)
    or a grid knob is empty.
    """
    from ragmath.stats import paired_bootstrap

    if not 0 < test_fraction < 1:
        raise ValueError(message("pipeline.ablation.bad_test_fraction", value=repr(test_fraction)))
    if any(not tuple(grid.get(knob, ())) for knob in TUNED_KNOBS):
        raise ValueError(message("pipeline.ablation.grid_knob_empty", knobs=list(TUNED_KNOBS),
                                 grid=dict(grid)))
    cfg = replace(config or AblationConfig(), split="dev")
    ds = _load_dataset(dataset)
    require_dev_only(ds, "leakage_on_fixed_questions")
    metric = f"nDCG@{cfg.top_k}"
    settings = [(k, w, m) for k in grid["k"] for w in grid["window"] for m in grid["rerank_depth"]]
    depths = sorted(set(memory_depths))
    configs = {s: replace(cfg, k=s[0], window=s[1], rerank_depth=s[2]) for s in settings}
    configs |= {("memory", m): replace(cfg, rerank_depth=m) for m in depths}
    stages = {key: run_ablation(c, ds, answers=False, reuse=True) for key, c in configs.items()}
    first = next(iter(stages.values()))
    qrels, group = first.qrels, first.rerank_stage.group
    answerable = [q for q in first.rerank_stage.dev if any(g > 0 for g in qrels[q].values())]

    def per_question(stage: RerankStage, fit: list[str], test: list[str]) -> pd.Series:
        model = stage.fit(fit)
        run = {q: stage.rank(q, model, fit) for q in test}
        return evaluate(run, {q: qrels[q] for q in test}, [metric]).per_question[metric].loc[test]

    def out_of_fold(stage: RerankStage, questions: list[str]) -> float:
        groups = sorted({group[q] for q in questions})
        fold = {g: i % FOLDS for i, g in enumerate(groups)}
        scores = [per_question(stage, [q for q in questions if fold[group[q]] != f],
                               [q for q in questions if fold[group[q]] == f])
                  for f in sorted(set(fold.values()))]
        return float(pd.concat(scores).mean())

    def order(s: tuple) -> tuple:  # ties: the smaller M, then W, then the k closest to 60
        return (s[2], s[1], abs(math.log(s[0]) - math.log(60)))

    rows = []
    for seed in seeds:
        drawn = [answerable[i] for i in np.random.default_rng(seed).permutation(len(answerable))]
        cut = math.ceil(test_fraction * len(drawn))
        test, rest = sorted(drawn[:cut]), sorted(drawn[cut:])
        test_groups = {group[q] for q in test}
        clean_fit = [q for q in rest if group[q] not in test_groups]
        common = {"seed": seed, "test questions": len(test),
                  "test questions with a twin in fitting": sum(
                      group[q] in {group[r] for r in rest} for q in test),
                  "twins in fitting": len(rest) - len(clean_fit)}
        arms = {}
        for m in depths:
            stage = stages["memory", m].rerank_stage
            arms[f"memory (M = {m})"] = (per_question(stage, clean_fit, test),
                                         per_question(stage, rest, test), "", "")
        on_test = {s: per_question(stages[s].rerank_stage, clean_fit, test) for s in settings}
        on_rest = {s: out_of_fold(stages[s].rerank_stage, clean_fit) for s in settings}
        leaky = min(settings, key=lambda s: (-round(float(on_test[s].mean()), 12), order(s)))
        honest = min(settings, key=lambda s: (-round(on_rest[s], 12), order(s)))
        arms["tuning (k, W, M)"] = (on_test[honest], on_test[leaky], honest, leaky)
        for leak, (clean, dirty, chosen_clean, chosen_leaky) in arms.items():
            res = paired_bootstrap(clean, dirty, n_resamples=resamples, seed=seed)
            rows.append({**common, "leak": leak, f"clean: {metric}": float(clean.mean()),
                         f"leaky: {metric}": float(dirty.mean()), "difference": res.mean_diff,
                         "low": res.low, "high": res.high,
                         "clean choice": "" if chosen_clean == "" else _setting(chosen_clean),
                         "leaky choice": "" if chosen_leaky == "" else _setting(chosen_leaky)})
    return pd.DataFrame(rows).set_index(["seed", "leak"])


def type_intervals(result: AblationResult, metric: str, versions: Sequence[str] = ("A", "B", "C", "D"), *,
                   seed: int = 0, resamples: int = 10_000) -> pd.DataFrame:
    """Per question type and version: N answerable questions, the mean ``metric`` and its bootstrap
    interval over those questions (the ``by_type`` table's value with its uncertainty).

    >>> t = type_intervals(run_ablation(AblationConfig(rerank_depth=5), answers=False), "nDCG@5", ["A"])
    >>> list(t.columns)
    ['type', 'version', 'N', 'mean', 'low', 'high']

    Raises KeyError for a metric or version the result does not hold.
    """
    from ragmath.stats import bootstrap_interval

    rows = []
    table = result.per_question
    for v in versions:
        part = table.xs(v, level="version")
        part = part[part["answerable"].astype(bool)]
        for kind, values in part.groupby("type", sort=True)[metric]:
            mean, low, high = bootstrap_interval(values, n_resamples=resamples, seed=seed)
            rows.append({"type": kind, "version": v, "N": len(values), "mean": mean, "low": low,
                         "high": high})
    return pd.DataFrame(rows)

def _setting(s: tuple) -> str:
    return f"k={s[0]:g}, W={s[1]}, M={s[2]}"


def holdout_overlap(data: Any = None) -> dict[str, Any]:
    """What the holdout shares with dev, from chunk IDs and the split manifest only.

    Reads ``qrels.csv``'s (question ID, chunk ID, grade) rows and each question's side from
    ``ragmath.lab.corpus.split_manifest`` (IDs, types, groups; no question text or answer), and the
    corpus's chunk IDs. Returns: the holdout's positive labels (grade > 0), those whose chunk is
    also positive evidence of a dev question (as question → chunk pairs), the chunks the sealing
    commit added to ``corpus.jsonl`` (from git; None without git), how many of them the dev
    corpus holds (tuning ran over them) and how many a dev question labels > 0 (0: distractors).

    >>> overlap = holdout_overlap()
    >>> overlap["dev labels on added chunks"]
    0

    Raises the loaders' ValueError for a bad row.
    """
    import csv
    import subprocess

    from ragmath.lab.corpus import data_dir, load_corpus, split_manifest

    folder = data_dir() if data is None else Path(data)
    side = dict(zip(*(split_manifest(folder, with_answerable=False)[c] for c in ("question_id", "split")),
                    strict=True))
    with (folder / "qrels.csv").open(encoding="utf-8", newline="") as handle:
        positive = [(r["question_id"], r["chunk_id"]) for r in csv.DictReader(handle)
                    if int(r["grade"]) > 0]
    dev_evidence = {c for q, c in positive if side[q] == "dev"}
    held = [(q, c) for q, c in positive if side[q] == "holdout"]
    corpus_ids = set(load_corpus(folder / "corpus.jsonl")["chunk_id"])
    added = None
    sealing = subprocess.run(["git", "-C", str(folder), "log", "-n", "1", "--format=%H",
                              "--grep=^holdout: sealed", "--", "."], capture_output=True, text=True,
                             check=False).stdout.strip()
    if sealing:
        def ids(rev: str) -> set[str]:
            text = subprocess.run(["git", "-C", str(folder), "show", f"{rev}:./corpus.jsonl"],
                                  capture_output=True, text=True, check=False).stdout
            return {json.loads(line)["chunk_id"] for line in text.splitlines() if line.strip()}

        added = sorted(ids(sealing) - ids(f"{sealing}^"))
    return {
        "holdout positive labels": len(held),
        "shared with dev evidence": [(q, c) for q, c in held if c in dev_evidence],
        "chunks added with the holdout": added,
        "added chunks in the dev corpus": None if added is None else len(set(added) & corpus_ids),
        "dev labels on added chunks": None if added is None else sum(
            c in set(added) for q, c in positive if side[q] == "dev"),
        "corpus chunks": len(corpus_ids),
    }
# ------------------------------------------------------------ end of the notebook 07 (teach7) block


def rate_intervals(result: AblationResult, confidence: float = 0.95) -> pd.DataFrame:
    """A Wilson interval for every rate of the table: x successes out of N questions.

    Rates (N in brackets): Hit@K (answerable questions), answer accuracy (answerable), citation
    support (questions answered), correct refusals (no-answer questions). The question is the
    sampling unit: each x counts questions, never citations or generations.
    """
    from ragmath.stats import wilson_interval

    top = next(c for c in result.table.columns if c.startswith("Hit@"))
    rows = []
    for v in result.table.index:
        r = result.table.loc[v]
        hits = (int(result.evaluations[v].per_question[top].sum()) if v in result.evaluations
                else None)
        for rate, x, n in ((top, hits, r["answerable"]),
                           ("answer accuracy", r["answers correct"], r["answerable"]),
                           ("citation support", r["supported answers"], r["answers given"]),
                           ("correct refusals", r["correct refusals"], r["no-answer"])):
            if x is None or not n > 0:
                continue
            low, high = wilson_interval(int(x), int(n), confidence)
            rows.append({"version": v, "rate": rate, "x": int(x), "N": int(n),
                         "value": int(x) / int(n), "low": low, "high": high})
    return pd.DataFrame(rows)


def bootstrap_table(result: AblationResult, metrics: Sequence[str], *, seed: int = 0,
                    resamples: int = 10_000) -> pd.DataFrame:
    """Mean and percentile bootstrap interval (B resamples of the questions) per version and metric."""
    from ragmath.stats import bootstrap_interval

    rows = []
    for v, ev in result.evaluations.items():
        for metric in metrics:
            values = ev.per_question[metric]
            mean, low, high = bootstrap_interval(values, n_resamples=resamples, seed=seed)
            rows.append({"version": v, "metric": metric, "N": len(values), "mean": mean,
                         "low": low, "high": high})
    return pd.DataFrame(rows)


#: The p columns of every paired table of the workbook: ``ragmath.compare``'s two-sided paired sign-flip
#: (randomization) test, and Holm's adjustment over the comparisons of the same table.
P_SIGN_FLIP = "p (sign-flip)"
P_HOLM = "p (sign-flip, Holm)"


def _compared(result: AblationResult, a: str, b: str, metric: str, seed: int, resamples: int) -> dict:
    """``ragmath.compare``'s comparison of b against a on ``metric`` (its ``comparisons`` row).

    On the result's runs when it holds them (dev); a stored holdout result holds only per-question
    scores, so there the same statistics are computed from them with the functions ``compare`` uses
    (the tests check that both ways give one table on dev).
    """
    if a in result.runs and b in result.runs:
        from ragmath import compare

        found = compare({a: result.runs[a], b: result.runs[b]}, result.qrels, [metric], baseline=a,
                        seed=seed, n_resamples=resamples)
        return found.comparisons.iloc[0].to_dict()
    from ragmath.comparison import sign_flip_p
    from ragmath.stats import paired_bootstrap

    base = result.evaluations[a].per_question[metric]
    other = result.evaluations[b].per_question[metric].reindex(base.index)
    diffs = (other - base).to_numpy()
    paired = paired_bootstrap(base, other, n_resamples=resamples, seed=seed)
    p, test = sign_flip_p(diffs, n_resamples=resamples, seed=seed)
    return {"diff": paired.mean_diff, "low": paired.low, "high": paired.high, "p": p, "test": test,
            "wins": int((diffs > 0).sum()), "ties": int((diffs == 0).sum()),
            "losses": int((diffs < 0).sum()), "questions": int(diffs.size)}


def paired_table(result: AblationResult, pairs: Sequence[tuple[str, str]], metric: str, *,
                 seed: int = 0, resamples: int = 10_000, label: str = "") -> pd.DataFrame:
    """b − a over the same questions for each (a, b) in ``pairs``, as ``ragmath.compare`` reports it.

    Per row: the mean paired difference with its percentile bootstrap interval over questions, the
    two-sided sign-flip p (``P_SIGN_FLIP``; exact up to 20 non-zero differences, else ``resamples``
    seeded flips, said in ``test``), Holm's p over the rows of this table (``P_HOLM``) and the
    questions b wins, ties and loses. A stored holdout result (no runs) is compared on its stored
    per-question scores: nothing is re-run.

    >>> from ragmath.lab.holdout import frozen_design
    >>> t = paired_table(run_ablation(frozen_design(), answers=False), [("C", "D")], "nDCG@5",
    ...                  resamples=200)
    >>> t.loc[0, "comparison"], t.loc[0, "test"][:6], bool(t.loc[0, P_HOLM] == t.loc[0, P_SIGN_FLIP])
    ('D − C', 'exact:', True)

    Raises KeyError for a version the result does not hold.
    """
    from ragmath.comparison import holm

    rows = []
    for a, b in pairs:
        row = _compared(result, a, b, metric, seed, resamples)
        rows.append({"split": label or result.config["split"], "comparison": f"{b} − {a}",
                     "metric": metric, "questions": int(row["questions"]), "mean diff": row["diff"],
                     "low": row["low"], "high": row["high"], P_SIGN_FLIP: row["p"], P_HOLM: math.nan,
                     "wins": int(row["wins"]), "ties": int(row["ties"]), "losses": int(row["losses"]),
                     "excludes 0": bool(row["low"] > 0 or row["high"] < 0), "test": row["test"]})
    table = pd.DataFrame(rows)
    if len(table):
        table[P_HOLM] = holm(table[P_SIGN_FLIP])
    return table


# ---- tuning as a choice, and tables for reading (notebooks 06 and 07) -------------------------

#: The value each tuned knob has before any tuning: the article's k = 60 (RRF's common default);
#: the article names no W or M, so those are ``AblationConfig``'s starting values.
ARTICLE_DEFAULTS = {"k": 60, "W": AblationConfig.window, "M": AblationConfig.rerank_depth}
_FIELD_OF = {symbol: name for name, symbol in TUNED_KNOBS.items()}


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
    from ragmath import compare

    if knob not in _FIELD_OF:
        raise ValueError(message("pipeline.ablation.unknown_knob", allowed=list(_FIELD_OF), value=repr(knob)))
    field_name = _FIELD_OF[knob]
    default = ARTICLE_DEFAULTS[knob] if default is None else default
    values = list(DEFAULT_GRID[field_name] if values is None else values)
    if default not in values:
        values = sorted([*values, default])
    metric = metric or f"nDCG@{base.top_k}"
    ds = _load_dataset(dataset)
    require_dev_only(ds, "knob_against_default")
    runs, qrels = {}, {}
    for value in values:
        cfg = replace(base, **{field_name: value}, split="dev")
        result = run_ablation(cfg, ds, answers=False, reuse=True)
        runs[value], qrels = result.runs[version], result.qrels
    found = compare(runs, qrels, [metric], baseline=default, seed=seed, n_resamples=resamples)
    means = found.systems.set_index("name")["mean"]
    against = found.comparisons.set_index("system")
    n = len(found.per_question[default])
    rows = []
    for value in values:
        row = (against.loc[value] if value != default else
               {"diff": 0.0, "low": 0.0, "high": 0.0, "p": math.nan, "p_holm": math.nan,
                "wins": 0, "ties": n, "losses": 0, "test": ""})
        rows.append({knob: value, "default": value == default, f"{version} {metric}": float(means[value]),
                     "diff vs default": float(row["diff"]), "low": float(row["low"]),
                     "high": float(row["high"]), P_SIGN_FLIP: float(row["p"]), P_HOLM: float(row["p_holm"]),
                     "wins": int(row["wins"]), "ties": int(row["ties"]), "losses": int(row["losses"]),
                     "questions": n, "test": row["test"]})
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
        raise ValueError(message("pipeline.ablation.one_default_row", count=len(defaults)))
    better = table[~table["default"].astype(bool) & (table["low"] > 0)]
    if better.empty:
        chosen = defaults[knob].iloc[0]
    else:
        chosen = better.sort_values("diff vs default", ascending=False, kind="mergesort")[knob].iloc[0]
    return chosen.item() if isinstance(chosen, np.generic) else chosen


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
        rows[qid] = {"entered": len(entered),
                     "entered relevant": sum(grades.get(x, 0) >= 1 for x in entered),
                     "pushed out": len(out),
                     "pushed out relevant": sum(grades.get(x, 0) >= 1 for x in out)}
    return pd.DataFrame.from_dict(rows, orient="index")


def top_ranks_table(runs: Mapping[str, Mapping[str, Sequence[str]]], qid: str,
                    versions: Sequence[str], depth: int = 5) -> pd.DataFrame:
    """The top ``depth`` of one question under each version; ranks a run does not fill are blank.

    (A DataFrame built from lists of unequal length would repeat a short list's item.)

    >>> top_ranks_table({"A": {"q": ["x"]}, "B": {"q": ["y", "z"]}}, "q", ["A", "B"], 2).to_dict("list")
    {'A': ['x', ''], 'B': ['y', 'z']}
    """
    columns = {v: [*list(runs[v][qid])[:depth], *[""] * max(0, depth - len(runs[v][qid]))]
               for v in versions}
    return pd.DataFrame(columns, index=pd.Index(range(1, depth + 1), name="rank"))


def readable_table(table: pd.DataFrame, *, rows: Sequence[str] = ("Oracle",), digits: int = 3,
                   missing: str = "not applicable") -> pd.DataFrame:
    """A display copy: floats to ``digits`` decimals, and ``missing`` for the NaN cells of ``rows``.

    The Oracle is handed the gold evidence and ranks nothing, so its retrieval metrics do not
    exist; they read "not applicable" instead of NaN. The table itself is left unchanged.

    >>> t = pd.DataFrame({"MRR@5": [0.5, float("nan")]}, index=["D", "Oracle"])
    >>> readable_table(t)["MRR@5"].tolist()
    ['0.500', 'not applicable']
    """
    out = table.copy().astype(object)
    for column in table.columns:
        if table[column].dtype.kind == "f":
            out[column] = [("n/a" if v != v else f"{v:.{digits}f}") for v in table[column]]
            for row in rows:
                if row in table.index and table.loc[row, column] != table.loc[row, column]:
                    out.loc[row, column] = missing
    return out


def tokenizer_ranks(base: AblationConfig, tokenizers: Sequence[str], questions: Sequence[str],
                    chunks: Mapping[str, Sequence[str]], dataset: Any = None,
                    version: str = "A") -> tuple[pd.DataFrame, pd.DataFrame]:
    """``version``'s best rank of the given chunks per question, under each tokenizer (dev only).

    ``chunks`` maps each question to the chunks whose best rank is read (NaN: not in the top M).
    Returns (ranks: questions x tokenizers, means: the version's nDCG@K and MRR@K per tokenizer).
    Raises ValueError for an unknown tokenizer or a dataset holding holdout questions.
    """
    ds = _load_dataset(dataset)
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
