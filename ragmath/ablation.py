"""The ablation: A (BM25), B (vector), C (BM25 + vector + RRF), D (C + reranker), Oracle.

``run_ablation(config)`` builds, for every identity, an index over the chunks that identity may read
on the snapshot date (the permission filter runs before any ranking), runs each question through
every version, hands the top passages to the generator and scores everything with
``ragmath.evaluate``. One change per row:

=========  ==================================================================================
A          BM25 (rank-bm25 over the configured tokenizer), top N
B          vector retriever (``CharNgramSVDEmbedder`` by default), top N
C          RRF (``ragmath.rrf``, constant k) of A's and B's top ``window``, top N
D          C's top N reordered by the ``LinearReranker`` fitted on the dev split
Oracle     no retrieval: the labelled evidence (grade >= 1) handed straight to the generator
=========  ==================================================================================

Conventions: no-answer questions (no label > 0 for the identity asked) are outside the retrieval
means and the answer accuracy; they are counted as correct refusals / wrong answers. Answer
accuracy: numeric gold -> the number within 0.01; otherwise the first citation labelled 2.
Citation support rate: cited chunks labelled >= 1 for the question, over all citations of all
answers given. Cost: characters of passage text sent to the generator per question. Latency is
measured per stage and kept in its own table (``AblationResult.latency``), never in ``table``,
``by_type`` or ``per_question``, which are identical from run to run.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import math
import statistics
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from ragmath.evaluation import Evaluation, evaluate
from ragmath.generate import Answer, ExtractiveAnswerer, answer_is_correct
from ragmath.rerank import FeatureExtractor, LinearReranker
from ragmath.retrieval import BM25Retriever, HybridRetriever, VectorRetriever, as_chunk_records
from ragmath.tokenize import find_ids, get_tokenizer

__all__ = [
    "VERSIONS",
    "AblationConfig",
    "AblationResult",
    "IdentityPipeline",
    "run_ablation",
    "tune",
    "fit_refusal_threshold",
    "leakage_demo",
    "clear_cache",
]

VERSIONS: tuple[str, ...] = ("A", "B", "C", "D", "Oracle")
VERSION_LABELS = {
    "A": "BM25 only",
    "B": "vector only",
    "C": "BM25 + vector + RRF",
    "D": "C + reranker",
    "Oracle": "gold evidence to the generator",
}
SPLITS = ("dev", "holdout", "all")


@dataclass(frozen=True)
class AblationConfig:
    """Everything a run depends on; recorded beside its table.

    ``snapshot_date`` None -> the data's ``config.json``; ``identity`` None -> every question is
    asked as its own identity; ``refuse_below`` None -> fitted on the dev split.
    ``n``: candidates kept per version (the reranker's depth, Recall@N); ``window``: each list's
    depth fed to RRF; ``top_k``: the K of the retrieval metrics; ``context_k``: passages sent to
    the generator. ``seed`` is recorded with the run and meant for any randomised step a reader
    plugs in; the default pipeline draws no random numbers (exact SVD, Newton fit, stated tie
    rules), so its results do not depend on it.

    Raises ValueError naming the field for a non-positive depth, ``n < top_k``, k <= 0, an unknown
    split, editions mode or tokenizer, or ``refuse_below`` outside [0, 1].

    >>> AblationConfig(k=1, window=40, n=20).n
    20
    """

    snapshot_date: Any = None
    editions: str = "published"
    identity: str | None = None
    split: str = "dev"
    k: float = 60
    window: int = 20
    n: int = 10
    top_k: int = 5
    context_k: int = 5
    seed: int = 0
    tokenizer: str = "jieba"
    refuse_below: float | None = None
    l2: float = 1.0

    def __post_init__(self) -> None:
        for name in ("window", "n", "top_k", "context_k"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive int, got {value!r}")
        if self.n < self.top_k:
            raise ValueError(
                f"n={self.n} is smaller than top_k={self.top_k}: keep at least top_k candidates"
            )
        if isinstance(self.k, bool) or not isinstance(self.k, (int, float)) or not self.k > 0:
            raise ValueError(f"k must be a number > 0 (RRF constant), got {self.k!r}")
        if self.split not in SPLITS:
            raise ValueError(f"split must be one of {SPLITS}, got {self.split!r}")
        if self.editions not in ("live", "published"):
            raise ValueError(f"editions must be 'live' or 'published', got {self.editions!r}")
        get_tokenizer(self.tokenizer)
        if self.refuse_below is not None and not 0 <= self.refuse_below <= 1:
            raise ValueError(f"refuse_below must be in [0, 1] or None, got {self.refuse_below!r}")


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
        from ragmath.corpus import load_dataset

        return load_dataset()
    for name in ("corpus", "questions", "qrels", "identities", "config"):
        if not hasattr(dataset, name):
            raise TypeError(f"dataset must have a {name!r} attribute (see ragmath.corpus.load_dataset)")
    return dataset


def _roles(dataset: Any, identity: str) -> tuple[str, ...]:
    ids = dataset.identities
    if identity not in ids.index:
        raise ValueError(f"unknown identity {identity!r}; known: {sorted(ids.index)}")
    return tuple(ids.loc[identity, "roles"])


def _pipeline(dataset: Any, identity: str, as_of: Any, cfg: AblationConfig, corpus_key: str):
    key = (corpus_key, str(as_of), cfg.editions, identity, _roles(dataset, identity), cfg.tokenizer)
    pipe = _PIPELINES.get(key)
    if pipe is None:
        from ragmath.index import build_index, permission_filter

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
        raise ValueError("rows is empty: fit the refusal threshold on the dev questions")
    for r in rows:
        if r.get("split") != "dev":
            raise ValueError(
                f"row {r.get('question_id', '?')!r} has split={r.get('split')!r}: the refusal "
                "threshold is fitted on dev questions only"
            )
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
    fused: dict[str, pd.DataFrame] = field(default_factory=dict)

    def comparable(self) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
        """The tables a rerun must reproduce exactly (latency excluded)."""
        return self.table, self.by_type, self.per_question

    def config_frame(self) -> pd.DataFrame:
        """The configuration as a one-column table, for display beside the results."""
        return pd.DataFrame({"value": {k: str(v) for k, v in self.config.items()}})


def _metric_names(cfg: AblationConfig) -> tuple[list[str], str]:
    k = cfg.top_k
    names = [f"Recall@{k}", f"Hit@{k}", f"MRR@{k}", f"nDCG@{k}"]
    recall_n = f"Recall@{cfg.n}"
    if cfg.n != k:
        names.append(recall_n)
    return names, recall_n


def run_ablation(
    config: AblationConfig | None = None,
    dataset: Any = None,
    *,
    answers: bool = True,
    generator: Any = None,
    reuse: bool = False,
) -> AblationResult:
    """Run versions A, B, C, D and Oracle on the configured split; return tables and traces.

    ``dataset``: ``ragmath.corpus.load_dataset()`` by default (any object with corpus, questions,
    qrels, identities, config). ``answers=False`` skips generation (used while tuning).
    ``generator``: any ``Generator``; default ``ExtractiveAnswerer`` with a dev-fitted threshold.
    ``reuse=True`` reuses retrieval results cached by earlier runs in this process (results are
    identical; the latency table then measures cache look-ups, so ``tune`` alone uses it).
    The reranker is always fitted on the dev questions, whatever split is evaluated.

    >>> result = run_ablation(AblationConfig(split="holdout"))
    >>> list(result.table.index)
    ['A', 'B', 'C', 'D', 'Oracle']
    >>> sorted(set(result.runs["A"]) & set(result.reranker.fitted_on))  # holdout never fitted on
    []

    Raises ValueError for a question without a dev/holdout split, an unknown identity or an
    empty split; TypeError for a config that is not an AblationConfig.
    """
    cfg = config if config is not None else AblationConfig()
    if not isinstance(cfg, AblationConfig):
        raise TypeError(f"config must be an AblationConfig, got {type(cfg).__name__}")
    files_hash = None
    if dataset is None:
        from ragmath.corpus import corpus_hash

        files_hash = corpus_hash()
    ds = _load_dataset(dataset)
    as_of = cfg.snapshot_date if cfg.snapshot_date is not None else ds.config["snapshot_date"]
    corpus_key = content_hash(ds.corpus)
    labels = _grades(ds)
    questions = _records(ds.questions)
    for q in questions:
        if q.get("split") not in ("dev", "holdout"):
            raise ValueError(
                f"questions: {q['question_id']!r} has split={q.get('split')!r}; every question "
                "needs split 'dev' or 'holdout' (see ragmath.corpus.recompute_split)"
            )
    if cfg.identity is not None:
        _roles(ds, cfg.identity)
    wanted = [q for q in questions if cfg.split == "all" or q["split"] == cfg.split]
    dev = [q for q in questions if q["split"] == "dev"]
    if not wanted:
        raise ValueError(f"no question has split {cfg.split!r}")

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
    depth = max(cfg.window, cfg.n)
    for qid, q in needed.items():
        pipe = _pipeline(ds, asked_as(q), as_of, cfg, corpus_key)
        text = q["text"]
        bm = [c for c, _ in timed("A", "bm25", pipe.bm25.retrieve, text, depth, pipe=pipe)]
        vec = [c for c, _ in timed("B", "vector", pipe.vector.retrieve, text, depth, pipe=pipe)]
        lists = {"bm25": bm[: cfg.window], "vector": vec[: cfg.window]}
        hybrid = HybridRetriever({"bm25": pipe.bm25, "vector": pipe.vector}, k=cfg.k,
                                 window=cfg.window)
        fused = timed("C", "fusion", hybrid.explain, text, lists)
        fused_ids = [str(c) for c in fused["id"]]
        stage_out[qid] = {"pipe": pipe, "A": bm[: cfg.n], "B": vec[: cfg.n], "C": fused_ids[: cfg.n]}
        fused_tables[qid] = fused
        trace[qid] = {
            "identity": (pipe.identity,),
            "index[bm25]": pipe.bm25.chunk_ids,
            "index[vector]": pipe.vector.chunk_ids,
            "index[features]": pipe.features.chunk_ids,
            "bm25": tuple(bm),
            "vector": tuple(vec),
            "fusion": tuple(fused_ids),
        }

    # ---- reranker: fitted on dev only ------------------------------------------------------
    def features(qid: str) -> pd.DataFrame:
        so = stage_out[qid]
        if reuse:
            key = ("features", needed[qid]["text"], tuple(so["C"]))
            return so["pipe"].cached(key, so["pipe"].features, needed[qid]["text"], so["C"])
        return so["pipe"].features(needed[qid]["text"], so["C"])

    dev_features = {q["question_id"]: features(q["question_id"]) for q in dev}
    dev_labels = {qid: _visible(labels.get(qid, {}), stage_out[qid]["pipe"]) for qid in dev_features}
    reranker = LinearReranker.fit(dev, dev_features, dev_labels, l2=cfg.l2)
    for q in wanted:
        qid = q["question_id"]
        t0 = time.perf_counter()
        feats = dev_features[qid] if qid in dev_features else features(qid)
        d_rank = [c for c, _ in reranker.rerank(feats)]
        timings["D"].setdefault("rerank", []).append((time.perf_counter() - t0) * 1000)
        stage_out[qid]["D"] = d_rank
        trace[qid]["reranker"] = tuple(feats.index)

    # ---- labels as the asked identity can see them ----------------------------------------
    qrels_eval = {
        q["question_id"]: _visible(labels.get(q["question_id"], {}), stage_out[q["question_id"]]["pipe"])
        for q in wanted
    }
    names, recall_n = _metric_names(cfg)
    runs = {v: {q["question_id"]: list(stage_out[q["question_id"]][v]) for q in wanted}
            for v in ("A", "B", "C", "D")}
    evaluations = {v: evaluate(runs[v], qrels_eval, names) for v in runs}

    # ---- generation --------------------------------------------------------------------------
    gen_input: dict[str, dict[str, list[str]]] = {v: {} for v in VERSIONS}
    all_answers: dict[str, dict[str, Answer]] = {v: {} for v in VERSIONS}
    threshold = cfg.refuse_below
    if answers:
        if generator is None and threshold is None:
            probe = ExtractiveAnswerer(refuse_below=0.0, as_of=as_of, max_passages=cfg.context_k)
            rows = []
            for q in dev:
                qid = q["question_id"]
                so = stage_out[qid]
                d_rank = so.get("D") or [c for c, _ in reranker.rerank(dev_features[qid])]
                ans = probe(q["text"], so["pipe"].passages(d_rank[: cfg.context_k]))
                grades = dev_labels[qid]
                answerable = any(g > 0 for g in grades.values())
                rows.append({
                    "question_id": qid, "split": q["split"], "support": ans.support,
                    "answerable": answerable,
                    "correct": answerable and answer_is_correct(
                        ans, gold_number=_number(q.get("answer_number")), grades=grades),
                })
            threshold = fit_refusal_threshold(rows)
        gen = generator or ExtractiveAnswerer(
            refuse_below=threshold, as_of=as_of, max_passages=cfg.context_k
        )
        for q in wanted:
            qid = q["question_id"]
            so = stage_out[qid]
            pipe = so["pipe"]
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
    table = _summary(per_q, names, recall_n, answers)
    by_type = _by_type(per_q, names, answers)
    latency = _latency(timings)
    config_out = {
        "snapshot_date": str(as_of),
        "editions": cfg.editions,
        "corpus_sha256": corpus_key,
        "data files hash (ragmath.corpus.corpus_hash)": files_hash or "n/a (dataset passed in)",
        "identity": cfg.identity or "each question's own identity",
        "split": cfg.split,
        "questions": len(wanted),
        "k (RRF)": cfg.k,
        "window": cfg.window,
        "N (candidates / rerank depth)": cfg.n,
        "top_k": cfg.top_k,
        "context passages": cfg.context_k,
        "seed": cfg.seed,
        "tokenizer": cfg.tokenizer,
        "embedder": "CharNgramSVDEmbedder(ngram_range=(1, 3), dim=64)",
        "reranker": f"LinearReranker (logistic, L2={cfg.l2:g}), fitted on "
        f"{len(reranker.fitted_on)} dev questions",
        "generator": getattr(generator, "name", type(generator).__name__) if generator
        else "ExtractiveAnswerer",
        "refuse_below": threshold if cfg.refuse_below is not None or not answers
        else f"{threshold} (fitted on dev)",
    }
    return AblationResult(
        table=table, by_type=by_type, latency=latency, per_question=per_q, config=config_out,
        runs=runs, answers=all_answers, generator_input=gen_input, trace=trace,
        evaluations=evaluations, reranker=reranker, qrels=qrels_eval, fused=fused_tables,
    )


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
                "version": v, "question_id": qid, "type": q["type"],
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
                row.update({
                    "refused": a.refused,
                    "number": a.number if a.number is not None else np.nan,
                    "citations": " ".join(cited),
                    "supported citations": sum(grades.get(c, 0) >= 1 for c in cited),
                    "citations n": len(cited),
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


def _summary(per_q: pd.DataFrame, names, recall_n, with_answers) -> pd.DataFrame:
    out = {}
    for v in VERSIONS:
        part = per_q.loc[v]
        ans = part[part["answerable"]]
        row: dict[str, Any] = {}
        for name in names:
            row[name] = float(ans[name].mean()) if v != "Oracle" and len(ans) else np.nan
        if recall_n not in names:
            row[recall_n] = row[names[0]]
        if with_answers:
            na = part[~part["answerable"]]
            cited = int(part.loc[~part["refused"], "citations n"].sum())
            supported = int(part.loc[~part["refused"], "supported citations"].sum())
            row.update({
                "answer accuracy": float(ans["correct"].mean()) if len(ans) else np.nan,
                "answers correct": int(ans["correct"].sum()),
                "answerable": len(ans),
                "citation support": supported / cited if cited else np.nan,
                "citations": cited,
                "correct refusals": int(na["refused"].sum()),
                "wrong answers": int((~na["refused"]).sum()),
                "no-answer": len(na),
                "context chars/q": float(part["context chars"].mean()),
            })
        out[v] = row
    table = pd.DataFrame.from_dict(out, orient="index")
    table.index.name = "version"
    return table


def _by_type(per_q: pd.DataFrame, names, with_answers) -> pd.DataFrame:
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


def tune(
    base: AblationConfig | None = None,
    dataset: Any = None,
    *,
    ks: Sequence[float] = (1, 10, 60),
    windows: Sequence[int] = (10, 20, 40),
    ns: Sequence[int] = (5, 10, 20),
) -> tuple[pd.DataFrame, AblationConfig]:
    """Grid over RRF k, window and N on the dev split only; return the grid and the chosen config.

    Choice: highest D nDCG@top_k, then D MRR@top_k, then C nDCG@top_k; remaining ties go to the
    smaller N, then the smaller window, then the smaller k (cheaper and listed first).

    >>> grid, chosen = tune(ks=(1, 60), windows=(10,), ns=(5,))
    >>> len(grid), chosen.split, chosen.window
    (2, 'dev', 10)
    """
    base = base if base is not None else AblationConfig()
    ds = _load_dataset(dataset)
    rows = []
    for k in ks:
        for w in windows:
            for n in ns:
                cfg = replace(base, k=k, window=w, n=n, split="dev")
                res = run_ablation(cfg, ds, answers=False, reuse=True)
                t = res.table
                top = base.top_k
                rows.append({
                    "k": k, "window": w, "N": n,
                    f"C nDCG@{top}": t.loc["C", f"nDCG@{top}"],
                    f"C MRR@{top}": t.loc["C", f"MRR@{top}"],
                    f"D nDCG@{top}": t.loc["D", f"nDCG@{top}"],
                    f"D MRR@{top}": t.loc["D", f"MRR@{top}"],
                    "D Recall@N": t.loc["D", f"Recall@{n}"],
                })
    grid = pd.DataFrame(rows)
    top = base.top_k
    order = grid.sort_values(
        [f"D nDCG@{top}", f"D MRR@{top}", f"C nDCG@{top}", "N", "window", "k"],
        ascending=[False, False, False, True, True, True], kind="mergesort",
    )
    best = order.iloc[0]
    chosen = replace(base, k=float(best["k"]) if not float(best["k"]).is_integer()
                     else int(best["k"]), window=int(best["window"]), n=int(best["N"]))
    return grid, chosen


def leakage_demo(
    dataset: Any = None,
    config: AblationConfig | None = None,
    *,
    seeds: Sequence[int] = tuple(range(20)),
    holdout: float = 0.3,
    similarity: float = 0.7,
) -> pd.DataFrame:
    """Random split vs grouped split, with a component that memorises dev labels.

    The "answer memory" puts the gold chunks of the most similar dev question (cosine of the
    questions' vectors >= ``similarity``, same IDs if any) in front of C's ranking: a stand-in for
    anything tuned on dev questions (few-shot examples, a query cache, a fine-tuned reranker). For
    each seed both splits are drawn (random: questions shuffled one by one; grouped:
    ``ragmath.grouped_split`` on ``group``), and we record how many groups straddle the two sides
    and nDCG@top_k of C + memory on dev and on holdout. Returns one row per (split kind, seed).

    >>> demo = leakage_demo(seeds=[0])
    >>> int(demo.loc[demo["split"] == "grouped", "groups on both sides"].iloc[0])
    0
    """
    from ragmath.stats import grouped_split

    cfg = replace(config or AblationConfig(), split="all")
    ds = _load_dataset(dataset)
    base = run_ablation(cfg, ds, answers=False, reuse=True)
    qrels = base.qrels
    answerable = [q for q, g in qrels.items() if any(v > 0 for v in g.values())]
    meta = {q["question_id"]: q for q in _records(ds.questions)}
    vectors = {}
    for q in answerable:
        pipe = _pipeline(ds, cfg.identity or meta[q]["identity"], base.config["snapshot_date"], cfg,
                         content_hash(ds.corpus))
        v = np.asarray(pipe.vector.embedder([meta[q]["text"]]), dtype=float)[0]
        vectors[q] = v / (np.linalg.norm(v) or 1.0)
    qids_of = {q: set(find_ids(meta[q]["text"])) for q in answerable}

    def similar(a: str, b: str) -> float:
        if qids_of[a] != qids_of[b]:
            return 0.0  # a different invoice is never the same question
        return float(vectors[a] @ vectors[b])

    group = {q: meta[q]["group"] for q in answerable}
    metric = f"nDCG@{cfg.top_k}"
    rows = []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        order = [answerable[i] for i in rng.permutation(len(answerable))]
        cut = math.ceil(holdout * len(order))
        random_split = (sorted(order[cut:]), sorted(order[:cut]))
        grouped = grouped_split(answerable, group, holdout=holdout, seed=seed)
        for kind, (dev, hold) in (("random", random_split), ("grouped", grouped)):
            straddle = len({group[q] for q in dev} & {group[q] for q in hold})
            scores = {}
            for side, members in (("dev", dev), ("holdout", hold)):
                run = {}
                for q in members:
                    pool = [d for d in dev if d != q] if side == "holdout" else list(dev)
                    sims = sorted(((similar(q, d), d) for d in pool), reverse=True)
                    memory: list[str] = []
                    if sims and sims[0][0] >= similarity:
                        twin = sims[0][1]
                        gold = qrels[twin]
                        visible = set(base.trace[q]["index[bm25]"])
                        memory = [c for c in sorted(gold, key=lambda c: (-gold[c], c))
                                  if gold[c] > 0 and c in visible]
                    ranking = list(dict.fromkeys(memory + base.runs["C"][q]))
                    run[q] = ranking
                ev = evaluate(run, {q: qrels[q] for q in members}, [metric])
                plain = evaluate({q: base.runs["C"][q] for q in members},
                                 {q: qrels[q] for q in members}, [metric])
                scores[side] = float(ev.means[metric])
                scores[f"{side} (no memory)"] = float(plain.means[metric])
                if side == "holdout":
                    dev_groups = {group[d] for d in dev}
                    twins = [q for q in members if group[q] in dev_groups]
                    per = ev.per_question[metric]
                    scores["twins"] = len(twins)
                    scores["twin score"] = float(per.loc[twins].mean()) if twins else np.nan
                    scores["other score"] = float(per.drop(twins).mean()) if len(
                        twins) < len(members) else np.nan
            rows.append({
                "split": kind, "seed": seed, "dev questions": len(dev),
                "holdout questions": len(hold), "groups on both sides": straddle,
                f"dev {metric}": scores["dev"], f"holdout {metric}": scores["holdout"],
                f"holdout {metric} without memory": scores["holdout (no memory)"],
                "gap (dev - holdout)": scores["dev"] - scores["holdout"],
                "holdout questions with a twin in dev": scores["twins"],
                f"their {metric}": scores["twin score"],
                f"other holdout {metric}": scores["other score"],
            })
    return pd.DataFrame(rows)


def config_dict(config: AblationConfig) -> dict:
    """The config as a plain dict (for JSON or display)."""
    return asdict(config)
