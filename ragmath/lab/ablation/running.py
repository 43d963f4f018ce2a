"""Run the ablation: versions A, B, C, D and Oracle on one split. Used by notebooks 05b, 06 and 07.

The ablation: A (BM25), B (vector), C (BM25 + vector + RRF), D (C + reranker), Oracle.

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
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ragmath.evaluation import Evaluation, evaluate
from ragmath.lab.ablation.config import (
    ALPHA_DEFAULT,
    TUNED_KNOBS,
    VERSIONS,
    AblationConfig,
    versions_of,
)
from ragmath.lab.ablation.convex import alphas_for
from ragmath.lab.ablation.tables import by_type_table, caveats_of, metric_names, summary_table
from ragmath.lab.workbook import (
    FEATURES,
    FOLDS,
    Answer,
    BM25Retriever,
    ExtractiveAnswerer,
    FeatureExtractor,
    HybridRetriever,
    LinearReranker,
    RerankStage,
    VectorRetriever,
    answer_is_correct,
    as_chunk_records,
    convex_rankings,
    fit_refusal_threshold,
)


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


def dataset_or_default(dataset: Any):
    """The dataset as given (checked for its five parts), or ``load_dataset()`` for None."""
    if dataset is None:
        from ragmath.lab.corpus import load_dataset

        return load_dataset()
    for name in ("corpus", "questions", "qrels", "identities", "config"):
        if not hasattr(dataset, name):
            raise TypeError(f"dataset must have a {name!r} attribute (see ragmath.lab.corpus.load_dataset)")
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
        raise ValueError(f"{what} works on dev questions only, but the dataset holds holdout question(s) "
                         f"{held[:5]}; pass ragmath.lab.corpus.load_dataset() (dev only)")


def _roles(dataset: Any, identity: str) -> tuple[str, ...]:
    ids = dataset.identities
    if identity not in ids.index:
        raise ValueError(f"unknown identity {identity!r}; known: {sorted(ids.index)}")
    return tuple(ids.loc[identity, "roles"])


def _pipeline(dataset: Any, identity: str, as_of: Any, cfg: AblationConfig, corpus_key: str):
    key = (corpus_key, str(as_of), cfg.editions, identity, _roles(dataset, identity), cfg.tokenizer)
    pipe = _PIPELINES.get(key)
    if pipe is None:
        from ragmath.lab.workbook import in_index, permission_filter

        index = dataset.corpus[in_index(dataset.corpus, as_of, cfg.editions)]
        if index.empty:
            raise ValueError(f"no chunk is in the index on {as_of} with editions={cfg.editions!r}; "
                             f"the corpus starts on {min(dataset.corpus['effective_from'])}")
        view = permission_filter(index, _roles(dataset, identity))
        pipe = IdentityPipeline(view, identity=identity, as_of=as_of, tokenizer=cfg.tokenizer)
        _PIPELINES[key] = pipe
    return pipe


def _grades(dataset: Any) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {q: {} for q in dataset.questions["question_id"]}
    for qid, cid, grade in dataset.qrels[["question_id", "chunk_id", "grade"]].itertuples(index=False):
        out.setdefault(qid, {})[cid] = int(grade)
    return out


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


def run_ablation(
    config: AblationConfig | None = None,
    dataset: Any = None,
    *,
    answers: bool = True,
    generator: Any = None,
    reuse: bool = False,
) -> AblationResult:
    """Run versions A, B, C, D (and E with ``score_fusion``) and Oracle on the configured split.

    ``dataset``: ``ragmath.lab.corpus.load_dataset()`` by default (dev questions only; any object with
    corpus, questions, qrels, identities, config). ``answers=False`` skips generation (used while
    tuning). ``generator``: any ``Generator`` (used as given), or a factory called as
    ``factory(refuse_below=t, as_of=date, max_passages=context_k)`` with the threshold fitted on dev
    (a class such as ``MisreadLimitAnswerer``, or ``functools.partial(MisreadLimitAnswerer,
    remembered_limit=60)``); default ``ExtractiveAnswerer`` with the fitted threshold. ``reuse=True``
    reuses retrieval and fusion cached by earlier runs in this process (same results; the latency
    table then measures cache look-ups). The steps: ``_start``, ``_retrieve`` (A, B, C), ``_rerank``
    (D), ``_score_fusion`` (E), ``_generate``; notebook 06a writes rows A to E out the same way.

    The reranker and the refusal threshold are fitted on dev only: a dev question is scored by the
    ones fitted on the other folds (grouped 5-fold), a holdout question by the ones fitted on all dev.

    >>> result = run_ablation(AblationConfig(rerank_depth=5), answers=False)
    >>> list(result.table.index)
    ['A', 'B', 'C', 'D', 'Oracle']
    >>> set(result.per_question["split"])
    {'dev'}

    Raises ValueError for a question without a dev/holdout split, an unknown identity, an empty
    split (the holdout is sealed: only ``ragmath.lab.holdout.open_holdout`` loads it), or no dev
    question; TypeError for a config that is not an AblationConfig.
    """
    from ragmath.lab.corpus import corpus_hash

    files_hash = corpus_hash() if dataset is None else None
    run = _start(config, dataset_or_default(dataset), None, reuse)
    _retrieve(run, explain=True)
    stage, reranker = _rerank(run)
    qrels = {q["question_id"]: run.visible[q["question_id"]] for q in run.wanted}
    runs = _runs(run, ("A", "B", "C", "D"))
    alpha_note = None
    if run.cfg.score_fusion:
        alpha_note = _score_fusion(run, stage)
        runs |= _runs(run, ("E",))
    names, recall_m = metric_names(run.cfg)
    evaluations = {v: evaluate(runs[v], qrels, names) for v in runs}
    answers_of, gen_input, threshold_note = (_generate(run, stage, generator, qrels) if answers
                                             else _no_answers(run.cfg))
    per_q = _per_question(run.wanted, runs, evaluations, answers_of, gen_input, qrels, run.stage_out,
                          names, answers)
    table = summary_table(per_q, names, recall_m, answers)
    table["caveat"] = pd.Series(caveats_of(run.cfg))
    return AblationResult(
        table=table, by_type=by_type_table(per_q, names, answers), latency=_latency(run.timings),
        per_question=per_q, runs=runs, answers=answers_of, generator_input=gen_input,
        config=_config_record(run, files_hash, generator, threshold_note, alpha_note, reranker),
        trace=run.trace, evaluations=evaluations, reranker=reranker, qrels=qrels, rerank_stage=stage,
        fused=run.fused,
    )


def _no_answers(cfg: AblationConfig) -> tuple[dict, dict, Any]:
    """What a run without generation records: no answers, no generator input, the threshold as set."""
    return {v: {} for v in versions_of(cfg)}, {v: {} for v in versions_of(cfg)}, cfg.refuse_below


_HOLDOUT_SEALED = ("no holdout question in this dataset: the holdout is sealed; "
                   "ragmath.lab.holdout.open_holdout, given the frozen config, runs the frozen "
                   "design on it once")


def _config_record(run: _Run, files_hash: str | None, generator: Any, threshold_note: Any,
                   alpha_note: str | None, reranker: LinearReranker) -> dict:
    """The run's setting as it is shown beside its table (``AblationResult.config``)."""
    cfg = run.cfg
    record = {
        "snapshot_date": str(run.as_of),
        "editions": cfg.editions,
        "corpus_sha256": run.corpus_key,
        "data files hash (ragmath.lab.corpus.corpus_hash)": files_hash or "n/a (dataset passed in)",
        "identity": cfg.identity or "each question's own identity",
        "split": cfg.split,
        "questions": len(run.wanted),
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
        f"{len(run.dev)} dev questions",
        "generator": _generator_name(generator),
        "refuse_below": threshold_note,
    }
    if alpha_note is not None:
        record["α (E: weight on BM25)"] = alpha_note
    return record


@dataclass
class _Run:
    """What the steps of one run share: the setting, its questions, and what each step adds."""

    cfg: AblationConfig
    ds: Any
    as_of: Any
    corpus_key: str
    labels: dict[str, dict[str, int]]
    wanted: list[dict]
    dev: list[dict]
    reuse: bool
    timings: dict[str, dict[str, list[float]]]
    stage_out: dict[str, dict[str, Any]] = field(default_factory=dict)
    trace: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    fused: dict[str, pd.DataFrame] = field(default_factory=dict)
    scored_lists: dict[str, dict[str, list[tuple[str, float]]]] = field(default_factory=dict)
    visible: dict[str, dict[str, int]] = field(default_factory=dict)
    out_of_fold: dict[str, list[str]] = field(default_factory=dict)

    @property
    def needed(self) -> dict[str, dict]:
        """The questions retrieved for: the ones scored, and every dev question (for fitting)."""
        return {q["question_id"]: q for q in self.wanted + self.dev}

    def timed(self, version: str, stage: str, fn, *args, pipe=None):
        """``fn(*args)``, its milliseconds kept under (version, stage); cached per pipeline with reuse."""
        t0 = time.perf_counter()
        if self.reuse and pipe is not None:
            key = (stage, *[a if isinstance(a, (str, int, float)) else repr(a) for a in args])
            out = pipe.cached(key, fn, *args)
        else:
            out = fn(*args)
        self.timings[version].setdefault(stage, []).append((time.perf_counter() - t0) * 1000)
        return out


def _start(config: Any, ds: Any, corpus_key: str | None, reuse: bool) -> _Run:
    """Check the setting and the questions, and pick the questions this run scores."""
    cfg = config if config is not None else AblationConfig()
    if not isinstance(cfg, AblationConfig):
        raise TypeError(f"config must be an AblationConfig, got {type(cfg).__name__}")
    as_of = cfg.snapshot_date if cfg.snapshot_date is not None else ds.config["snapshot_date"]
    questions = _records(ds.questions)
    for q in questions:
        if q.get("split") not in ("dev", "holdout"):
            raise ValueError(f"questions: {q['question_id']!r} has split={q.get('split')!r}; every question "
                             "needs split 'dev' or 'holdout' (see data/README.md, 'The split')")
    if cfg.identity is not None:
        _roles(ds, cfg.identity)
    wanted = [q for q in questions if cfg.split == "all" or q["split"] == cfg.split]
    dev = [q for q in questions if q["split"] == "dev"]
    if not wanted:
        if cfg.split == "holdout":
            raise ValueError(_HOLDOUT_SEALED)
        raise ValueError(f"no question has split {cfg.split!r}")
    if not dev:
        raise ValueError("no dev question: the reranker and the refusal threshold are fitted on dev")
    return _Run(cfg, ds, as_of, corpus_key or content_hash(ds.corpus), _grades(ds), wanted, dev, reuse,
                {v: {} for v in versions_of(cfg)})


def _retrieve(run: _Run, explain: bool) -> None:
    """Rows A, B and C for every needed question: BM25, vectors, and their RRF (each list cut to W)."""
    cfg, m = run.cfg, run.cfg.rerank_depth
    depth = max(cfg.window, m)
    for qid, q in run.needed.items():
        pipe = _pipeline(run.ds, cfg.identity or q["identity"], run.as_of, cfg, run.corpus_key)
        text = q["text"]
        bm_scored = run.timed("A", "bm25", pipe.bm25.retrieve, text, depth, pipe=pipe)
        vec_scored = run.timed("B", "vector", pipe.vector.retrieve, text, depth, pipe=pipe)
        bm, vec = [c for c, _ in bm_scored], [c for c, _ in vec_scored]
        lists = {"bm25": bm[: cfg.window], "vector": vec[: cfg.window]}
        run.scored_lists[qid] = {"bm25": bm_scored[: cfg.window], "vector": vec_scored[: cfg.window]}
        hybrid = HybridRetriever({"bm25": pipe.bm25, "vector": pipe.vector}, k=cfg.k, window=cfg.window)

        def fuse(text: str, k: float, window: int, hybrid=hybrid, lists=lists) -> list[str]:
            return hybrid.fused_ids(lists)  # the fused order depends on (text, k, W) only

        fused_ids = run.timed("C", "fusion", fuse, text, cfg.k, cfg.window, pipe=pipe if run.reuse else None)
        if explain:
            run.fused[qid] = hybrid.explain(text, lists)
        run.stage_out[qid] = {"pipe": pipe, "A": bm[:m], "B": vec[:m], "C": fused_ids[:m]}
        run.trace[qid] = {
            "identity": (pipe.identity,), "index[bm25]": pipe.bm25.chunk_ids,
            "index[vector]": pipe.vector.chunk_ids, "index[features]": pipe.features.chunk_ids,
            "bm25": tuple(bm), "vector": tuple(vec), "fusion": tuple(fused_ids),
        }
        run.visible[qid] = _visible(run.labels.get(qid, {}), pipe)


def _rerank(run: _Run) -> tuple[RerankStage, LinearReranker]:
    """Row D: C's top M reordered by the reranker, fitted on dev only; dev questions out of fold."""
    needed, out = run.needed, run.stage_out
    stage = RerankStage(
        {qid: out[qid]["C"] for qid in needed},
        {qid: out[qid]["pipe"].features.matrix(needed[qid]["text"], out[qid]["C"]) for qid in needed},
        {qid: needed[qid]["split"] for qid in needed},
        {qid: needed[qid]["group"] for qid in needed},
        {qid: needed[qid]["text"] for qid in needed},
        {qid: run.visible[qid] for qid in needed if needed[qid]["split"] == "dev"},
        run.cfg.l2,
    )
    dev_ids = [q["question_id"] for q in run.dev]
    reranker = stage.fit(dev_ids)
    out_of_fold = run.out_of_fold = stage.out_of_fold()
    for q in run.wanted:
        qid = q["question_id"]
        t0 = time.perf_counter()  # latency: scoring one question's candidates with a fitted model
        full_rank = stage.rank(qid, reranker, dev_ids)
        run.timings["D"].setdefault("rerank", []).append((time.perf_counter() - t0) * 1000)
        out[qid]["D"] = out_of_fold[qid] if q["split"] == "dev" else full_rank
        run.trace[qid]["reranker"] = tuple(stage.candidates[qid])
    return stage, reranker


def _runs(run: _Run, versions: Sequence[str]) -> dict[str, dict[str, list[str]]]:
    return {v: {q["question_id"]: list(run.stage_out[q["question_id"]][v]) for q in run.wanted}
            for v in versions}


def ranked_runs(config: AblationConfig, dataset: Any, corpus_key: str | None = None,
                ) -> tuple[dict[str, dict[str, list[str]]], dict[str, dict[str, int]]]:
    """Rows A to D's rankings and the labels as each question's identity sees them; nothing else.

    Used by ``tune``: retrieval and fusion are cached in this process (``reuse``), so a grid of
    settings retrieves each question once per (k, W); ``corpus_key`` skips re-hashing the corpus.
    """
    run = _start(config, dataset_or_default(dataset), corpus_key, reuse=True)
    _retrieve(run, explain=False)
    _rerank(run)
    return _runs(run, ("A", "B", "C", "D")), {q["question_id"]: run.visible[q["question_id"]]
                                               for q in run.wanted}


def _score_fusion(run: _Run, stage: RerankStage) -> float | None:
    """Row E: C's two lists fused by the convex combination of min-max scores, α by the rule."""
    cfg, m = run.cfg, run.cfg.rerank_depth
    dev_ids = [q["question_id"] for q in run.dev]
    targets = [q["question_id"] for q in run.wanted]
    alphas, alpha_on_dev = alphas_for(run.scored_lists, cfg, targets, stage.folds(),
                                      {qid: run.visible[qid] for qid in dev_ids})
    t0 = time.perf_counter()  # one fusion call per α for all its questions; each question its share
    e_ranks: dict[str, list[str]] = {}
    for alpha in sorted(set(alphas.values())):
        chosen = {qid: run.scored_lists[qid] for qid, a in alphas.items() if a == alpha}
        e_ranks |= convex_rankings(chosen, alpha, cfg.window)
    run.timings["E"]["score fusion"] = [(time.perf_counter() - t0) * 1000 / len(targets)] * len(targets)
    for qid in targets:
        run.stage_out[qid]["E"] = e_ranks[qid][:m]
        run.trace[qid]["score fusion"] = tuple(e_ranks[qid])
    return _alpha_note(cfg, alphas, alpha_on_dev)


def _thresholds(run: _Run, stage: RerankStage) -> tuple[dict[str, float], str]:
    """The refusal threshold each scored question's generator uses, fitted on dev (out of fold)."""
    cfg = run.cfg
    probe = ExtractiveAnswerer(refuse_below=0.0, as_of=run.as_of, max_passages=cfg.context_k)
    rows = []
    for q in run.dev:
        qid = q["question_id"]
        ranking = run.out_of_fold[qid]
        ans = probe(q["text"], run.stage_out[qid]["pipe"].passages(ranking[: cfg.context_k]))
        grades = run.visible[qid]
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
    thresholds = {q["question_id"]: (by_fold[folds[q["question_id"]]] if q["split"] == "dev" else final)
                  for q in run.wanted}
    note = (f"fitted on dev: out of fold for dev questions ({min(by_fold.values()):.3f}–"
            f"{max(by_fold.values()):.3f}), {final:.3f} on all dev")
    return thresholds, note


def _generate(run: _Run, stage: RerankStage, generator: Any, qrels: Mapping[str, Mapping[str, int]]):
    """Every version's top passages handed to the generator; the Oracle gets the labelled evidence."""
    cfg, versions = run.cfg, versions_of(run.cfg)
    gen_input: dict[str, dict[str, list[str]]] = {v: {} for v in versions}
    answers: dict[str, dict[str, Answer]] = {v: {} for v in versions}
    thresholds, note = {}, cfg.refuse_below
    if (generator is None or _is_factory(generator)) and cfg.refuse_below is None:
        thresholds, note = _thresholds(run, stage)
    built: dict[float, Any] = {}
    factory = generator if _is_factory(generator) else ExtractiveAnswerer
    for q in run.wanted:
        qid = q["question_id"]
        if generator is not None and not _is_factory(generator):
            gen = generator
        else:
            t = thresholds.get(qid, cfg.refuse_below)
            if t not in built:
                built[t] = factory(refuse_below=t, as_of=run.as_of, max_passages=cfg.context_k)
            gen = built[t]
        for v in versions:
            if v == "Oracle":
                gold = qrels[qid]
                ids = sorted((c for c, g in gold.items() if g > 0), key=lambda c: (-gold[c], c))
            else:
                ids = run.stage_out[qid][v][: cfg.context_k]
            gen_input[v][qid] = ids
            run.trace[qid][f"generator_input[{v}]"] = tuple(ids)
            passages = run.stage_out[qid]["pipe"].passages(ids)
            answers[v][qid] = run.timed(v, "generate", gen, q["text"], passages)
    return answers, gen_input, note


def _alpha_note(cfg: AblationConfig, alphas: Mapping[str, float], on_all_dev: float | None) -> str:
    if on_all_dev is None:
        return f"{cfg.alpha:g} (set)"
    used = sorted(set(alphas.values()))
    return (f"by the keep-the-default rule (default {ALPHA_DEFAULT:g}): {on_all_dev:g} on all dev; "
            f"used here: {', '.join(f'{a:g}' for a in used)} (dev questions out of fold)")


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
    for v in (v for v in VERSIONS if v in runs or v == "Oracle"):
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


def _latency(timings: dict[str, dict[str, list[float]]]) -> pd.DataFrame:
    """Median milliseconds per question per stage; a version's pipeline includes earlier stages."""
    med = {v: {s: statistics.median(t) for s, t in st.items()} for v, st in timings.items()}
    versions = [v for v in VERSIONS if v in timings]
    stages = {
        "A": ["bm25"], "B": ["vector"], "C": ["bm25", "vector", "fusion"],
        "D": ["bm25", "vector", "fusion", "rerank"], "E": ["bm25", "vector", "score fusion"], "Oracle": [],
    }
    rows = {}
    for v in versions:
        row = {}
        for s in ("bm25", "vector", "fusion", "rerank", "score fusion"):
            row[s] = med[_owner(s)].get(s, np.nan) if s in stages[v] else np.nan
        row["generate"] = med[v].get("generate", np.nan)
        row["total"] = float(np.nansum(list(row.values())))
        rows[v] = row
    df = pd.DataFrame.from_dict(rows, orient="index")
    df.index.name = "version"
    return df.rename(columns=lambda c: f"{c} ms")


def _owner(stage: str) -> str:
    return {"bm25": "A", "vector": "B", "fusion": "C", "rerank": "D", "score fusion": "E"}[stage]
