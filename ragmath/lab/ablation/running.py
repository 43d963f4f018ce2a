"""Run the ablation with the generator: ``run_ablation`` and ``AblationResult``. Used by notebooks 05b–07.

The rows come from ``run_rows`` (notebook 06a, ``ragmath.lab.workbook``). ``run_ablation`` hands each
row's top passages, and the Oracle the labelled evidence, to the generator (refusal threshold fitted on
dev, out of fold), scores everything with ``ragmath.evaluate`` and assembles the tables; the holdout is
opened only through ``ragmath.lab.holdout.open_holdout``.

Conventions: no-answer questions (no label > 0 for the identity asked) are outside the retrieval means and
the answer accuracy and count as correct refusals or wrong answers. Answer accuracy: a numeric gold answer
within 0.01, otherwise the first citation labelled 2. Citation support: of the questions that gave an
answer, the share whose every citation is labelled >= 1. Cost: characters of passage text sent to the
generator. Latency is timed per stage on the calls ``run_rows`` makes, and kept in its own table, never in
``table``, ``by_type`` or ``per_question``, which are identical from run to run.
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
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ragmath import rrf
from ragmath.evaluation import Evaluation, evaluate
from ragmath.lab.ablation.config import TUNED_KNOBS, VERSIONS, AblationConfig, versions_of
from ragmath.lab.ablation.tables import by_type_table, caveats_of, metric_names, summary_table
from ragmath.lab.workbook import (
    ALPHA_DEFAULT,
    E5_MODEL,
    E5_PACKAGE,
    E5_VERSION,
    FEATURES,
    FOLDS,
    AblationRows,
    Answer,
    ExtractiveAnswerer,
    LinearReranker,
    RerankStage,
    answer_is_correct,
    convex_rankings,
    dataset_or_default,
    fit_refusal_threshold,
    identity_indexes,
    rankings,
    run_rows,
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


_INDEXES: dict[tuple, dict] = {}
#: Row B's embedder as the config table names it.
EMBEDDER_NAMES = {"e5": f"{E5_MODEL}, 4-bit ({E5_PACKAGE} {E5_VERSION}): the stored vectors of data/vectors",
                  "char-ngram": "CharNgramSVDEmbedder(ngram_range=(1, 3), dim=64), fitted on each index"}


def clear_cache() -> None:
    """Forget the per-identity indexes (and the rankings they keep) built so far in this process."""
    _INDEXES.clear()


def _roles(dataset: Any, identity: str) -> tuple[str, ...]:
    ids = dataset.identities
    if identity not in ids.index:
        raise ValueError(f"unknown identity {identity!r}; known: {sorted(ids.index)}")
    return tuple(ids.loc[identity, "roles"])


def indexes_for(run: _Run) -> dict[str, dict]:
    """``identity_indexes`` for the run's snapshot, editions, tokenizer, embedder; built once per process."""
    roles = tuple((identity, _roles(run.ds, identity)) for identity in run.ds.identities.index)
    vectors = tuple(str(v) for v in getattr(run.ds, "vectors", ()))
    key = (run.corpus_key, str(run.as_of), run.cfg.editions, run.cfg.tokenizer, run.cfg.embedder, vectors,
           roles)
    if key not in _INDEXES:
        _INDEXES[key] = identity_indexes(run.ds, run.as_of, run.cfg.editions, run.cfg.tokenizer,
                                         run.cfg.embedder)
    return _INDEXES[key]


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

    def comparable(self) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
        """The tables a rerun must reproduce exactly (latency excluded)."""
        return self.table, self.by_type, self.per_question

    def config_frame(self) -> pd.DataFrame:
        """The configuration as a one-column table, for display beside the results."""
        return pd.DataFrame({"value": {k: str(v) for k, v in self.config.items()}})


def run_ablation(config: AblationConfig | None = None, dataset: Any = None, *, answers: bool = True,
                 generator: Any = None) -> AblationResult:
    """Run versions A, B, C, D (and E with ``score_fusion``) and Oracle on the configured split.

    ``dataset``: ``ragmath.lab.corpus.load_dataset()`` by default (dev questions only; any object with
    corpus, questions, qrels, identities, config). ``answers=False`` skips generation. ``generator``: any
    callable ``(question, passages) -> Answer`` (used as given), or a factory called as
    ``factory(refuse_below=t, as_of=date, max_passages=context_k)`` with the threshold fitted on dev (a
    class such as ``MisreadLimitAnswerer``, or ``functools.partial(MisreadLimitAnswerer,
    remembered_limit=60)``); default ``ExtractiveAnswerer`` with the fitted threshold. Each identity's
    index is built once per process (``clear_cache`` forgets them). The reranker and the refusal threshold
    are fitted on dev only: out of fold (grouped 5-fold) for a dev question, on all dev for a holdout one.

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
    run = _start(config, dataset_or_default(dataset))
    found = run_rows(run.cfg, run.ds, indexes_for(run))
    qrels = {q["question_id"]: found.labels[q["question_id"]] for q in run.wanted}
    names, recall_m = metric_names(run.cfg)
    evaluations = {v: evaluate(found.rows[v], qrels, names) for v in found.rows}
    timings = _stage_timings(run, found)
    if answers:
        answers_of, gen_input, threshold_note = _generate(run, found, generator, qrels, timings)
    else:  # no answers, no generator input, the threshold as set
        vs = versions_of(run.cfg)
        answers_of, gen_input, threshold_note = {v: {} for v in vs}, {v: {} for v in vs}, run.cfg.refuse_below
    per_q = _per_question(run, found, evaluations, answers_of, gen_input, qrels, names, answers)
    table = summary_table(per_q, names, recall_m, answers)
    table["caveat"] = pd.Series(caveats_of(run.cfg))
    return AblationResult(
        table=table, by_type=by_type_table(per_q, names, answers), latency=_latency(timings),
        per_question=per_q, runs=found.rows, answers=answers_of, generator_input=gen_input,
        config=_config_record(run, found, files_hash, generator, threshold_note),
        trace=_trace(run, found, gen_input), evaluations=evaluations, reranker=found.reranker, qrels=qrels,
        rerank_stage=found.stage)


def _config_record(run: _Run, found: AblationRows, files_hash: str | None, generator: Any,
                   threshold_note: Any) -> dict:
    """The run's setting as it is shown beside its table (``AblationResult.config``)."""
    cfg = run.cfg
    record = {
        "snapshot_date": str(run.as_of), "editions": cfg.editions, "corpus_sha256": run.corpus_key,
        "data files hash (ragmath.lab.corpus.corpus_hash)": files_hash or "n/a (dataset passed in)",
        "identity": cfg.identity or "each question's own identity", "split": cfg.split,
        "questions": len(run.wanted),
        "k (RRF constant)": cfg.k, "W (recall window)": cfg.window, "M (rerank depth)": cfg.rerank_depth,
        "K (metric cut-off)": cfg.top_k, "context passages": cfg.context_k,
        "chosen on dev": ", ".join(TUNED_KNOBS[t] for t in cfg.tuned) or "nothing",
        "seed": cfg.seed, "tokenizer": cfg.tokenizer,
        "embedder": EMBEDDER_NAMES[cfg.embedder],
        "reranker": f"LinearReranker (logistic, L2={cfg.l2:g}, features {', '.join(FEATURES)}); "
        f"dev questions scored out of fold (grouped {FOLDS}-fold), others by the fit on all "
        f"{len(run.dev)} dev questions",
        "generator": _generator_name(generator),
        "refuse_below": threshold_note,
    }
    alpha_note = _alpha_note(cfg, found)
    if alpha_note is not None:
        record["α (E: weight on BM25)"] = alpha_note
    return record


@dataclass
class _Run:
    """A run's checked setting and the questions it scores."""

    cfg: AblationConfig
    ds: Any
    as_of: Any
    corpus_key: str
    wanted: list[dict]
    dev: list[dict]

    def identity(self, question: Mapping[str, Any]) -> str:
        """The identity a question is asked as: the config's, or its own."""
        return self.cfg.identity or question["identity"]


def _start(config: Any, ds: Any) -> _Run:
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
    for identity in {cfg.identity} if cfg.identity is not None else {q["identity"] for q in questions}:
        _roles(ds, identity)
    wanted = [q for q in questions if cfg.split == "all" or q["split"] == cfg.split]
    dev = [q for q in questions if q["split"] == "dev"]
    if not wanted and cfg.split == "holdout":
        raise ValueError("no holdout question in this dataset: the holdout is sealed; ragmath.lab.holdout."
                         "open_holdout, given the frozen config, runs the frozen design on it once")
    if not wanted:
        raise ValueError(f"no question has split {cfg.split!r}")
    if not dev:
        raise ValueError("no dev question: the reranker and the refusal threshold are fitted on dev")
    return _Run(cfg, ds, as_of, content_hash(ds.corpus), wanted, dev)


def _timed(timings: dict[str, list[float]], stage: str, fn, *args, **kwargs) -> Any:
    """``fn(*args, **kwargs)``, its milliseconds appended to ``timings[stage]``."""
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    timings.setdefault(stage, []).append((time.perf_counter() - t0) * 1000)
    return out


def _stage_timings(run: _Run, found: AblationRows) -> dict[str, dict[str, list[float]]]:
    """Milliseconds per scored question of each stage, timed on the calls ``run_rows`` makes."""
    cfg = run.cfg
    timings: dict[str, dict[str, list[float]]] = {v: {} for v in versions_of(cfg)}
    depth = max(cfg.window, cfg.rerank_depth)
    for q in run.wanted:
        qid, index = q["question_id"], found.index_of[q["question_id"]]
        _timed(timings["A"], "bm25", index["bm25"].retrieve, q["text"], depth)
        _timed(timings["B"], "vector", index["vector"].retrieve, q["text"], depth)
        ids = {name: [c for c, _ in pairs] for name, pairs in found.lists[qid].items()}
        _timed(timings["C"], "fusion", rrf, ids, k=cfg.k)
        _timed(timings["D"], "rerank", found.stage.rank, qid, found.reranker, found.stage.dev)
        if cfg.score_fusion:
            _timed(timings["E"], "score fusion", convex_rankings, {qid: found.lists[qid]},
                   found.alphas[qid], cfg.window)
    return timings


def _trace(run: _Run, found: AblationRows, gen_input: Mapping[str, Mapping[str, list[str]]]) -> dict:
    """What each scored question went through: its index, every stage's list, the generator's input."""
    depth = max(run.cfg.window, run.cfg.rerank_depth)
    trace = {}
    for q in run.wanted:
        qid, index = q["question_id"], found.index_of[q["question_id"]]
        ranked = rankings(index, q["text"])
        trace[qid] = {
            "identity": (run.identity(q),),
            **{f"index[{part}]": index[part].chunk_ids for part in ("bm25", "vector", "features")},
            **{name: tuple(c for c, _ in ranked[name][:depth]) for name in ("bm25", "vector")},
            "fusion": tuple(found.fused[qid]["id"]), "reranker": tuple(found.stage.candidates[qid]),
        }
        if qid in found.convex:
            trace[qid]["score fusion"] = tuple(found.convex[qid])
        for v, inputs in gen_input.items():
            if qid in inputs:
                trace[qid][f"generator_input[{v}]"] = tuple(inputs[qid])
    return trace


def _passages(index: Mapping[str, Any], chunk_ids: Sequence[str]) -> list[dict]:
    """Fresh copies of the index's chunk records, in the given order."""
    return [dict(index["chunks"][c]) for c in chunk_ids]


def _thresholds(run: _Run, found: AblationRows) -> tuple[dict[str, float], str]:
    """The refusal threshold each scored question's generator uses, fitted on dev (out of fold)."""
    cfg = run.cfg
    ranked_d = found.rows["D"]
    if not all(q["question_id"] in ranked_d for q in run.dev):
        ranked_d = found.stage.out_of_fold()
    probe = ExtractiveAnswerer(refuse_below=0.0, as_of=run.as_of, max_passages=cfg.context_k)
    rows = []
    for q in run.dev:
        qid = q["question_id"]
        ans = probe(q["text"], _passages(found.index_of[qid], ranked_d[qid][: cfg.context_k]))
        grades = found.labels[qid]
        answerable = any(g > 0 for g in grades.values())
        correct = answerable and answer_is_correct(ans, gold_number=_gold_number(q), grades=grades)
        rows.append({"question_id": qid, "split": "dev", "group": q["group"], "support": ans.support,
                     "answerable": answerable, "correct": correct})
    final = fit_refusal_threshold(rows)
    folds = found.stage.folds()
    by_fold = {f: fit_refusal_threshold([r for r in rows if folds[r["question_id"]] != f])
               for f in sorted(set(folds.values()))}
    thresholds = {q["question_id"]: (by_fold[folds[q["question_id"]]] if q["split"] == "dev" else final)
                  for q in run.wanted}
    note = (f"fitted on dev: out of fold for dev questions ({min(by_fold.values()):.3f}–"
            f"{max(by_fold.values()):.3f}), {final:.3f} on all dev")
    return thresholds, note


def _generate(run: _Run, found: AblationRows, generator: Any, qrels: Mapping[str, Mapping[str, int]],
              timings: dict[str, dict[str, list[float]]]):
    """Every version's top passages handed to the generator; the Oracle gets the labelled evidence."""
    cfg, versions = run.cfg, versions_of(run.cfg)
    gen_input: dict[str, dict[str, list[str]]] = {v: {} for v in versions}
    answers: dict[str, dict[str, Answer]] = {v: {} for v in versions}
    as_given = generator is not None and not _is_factory(generator)  # a generator object, not a factory
    thresholds, note = {}, cfg.refuse_below
    if not as_given and cfg.refuse_below is None:
        thresholds, note = _thresholds(run, found)
    built: dict[float, Any] = {}
    factory = generator if _is_factory(generator) else ExtractiveAnswerer
    for q in run.wanted:
        qid = q["question_id"]
        t = thresholds.get(qid, cfg.refuse_below)
        if not as_given and t not in built:
            built[t] = factory(refuse_below=t, as_of=run.as_of, max_passages=cfg.context_k)
        gen = generator if as_given else built[t]
        for v in versions:
            if v == "Oracle":
                gold = qrels[qid]
                ids = sorted((c for c, g in gold.items() if g > 0), key=lambda c: (-gold[c], c))
            else:
                ids = found.rows[v][qid][: cfg.context_k]
            gen_input[v][qid] = ids
            passages = _passages(found.index_of[qid], ids)
            answers[v][qid] = _timed(timings[v], "generate", gen, q["text"], passages)
    return answers, gen_input, note


def _alpha_note(cfg: AblationConfig, found: AblationRows) -> str | None:
    if not cfg.score_fusion:
        return None
    if found.alpha_on_dev is None:
        return f"{cfg.alpha:g} (set)"
    used = sorted(set(found.alphas.values()))
    return (f"by the keep-the-default rule (default {ALPHA_DEFAULT:g}): {found.alpha_on_dev:g} on all dev; "
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


def _gold_number(question: Mapping[str, Any]) -> float | None:
    """The question's numeric gold answer; None when it has none (missing, NaN or not a number)."""
    try:
        number = float(question.get("answer_number"))
    except (TypeError, ValueError):
        return None
    return None if math.isnan(number) else number


def _per_question(run: _Run, found: AblationRows, evaluations, answers, gen_input, qrels_eval, names,
                  with_answers) -> pd.DataFrame:
    """One row per (version, question): the scores, the first relevant rank, and the answer if any."""
    runs, rows = found.rows, []
    for v in (v for v in VERSIONS if v in runs or v == "Oracle"):
        for q in run.wanted:
            qid = q["question_id"]
            grades = qrels_eval[qid]
            answerable = any(g > 0 for g in grades.values())
            row: dict[str, Any] = {"version": v, "question_id": qid, "type": q["type"], "group": q["group"],
                                   "identity": run.identity(q), "split": q["split"], "answerable": answerable}
            for name in names:
                row[name] = (np.nan if v == "Oracle" or not answerable
                             else float(evaluations[v].per_question.loc[qid, name]))
            ranking = runs[v][qid] if v != "Oracle" else []  # the Oracle ranks nothing
            first = next((i for i, c in enumerate(ranking, 1) if grades.get(c, 0) > 0), None)
            row["first relevant rank"] = float(first) if first else np.nan
            row["top 5"] = " ".join(ranking[:5])
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
                    "correct": (answer_is_correct(a, gold_number=_gold_number(q), grades=grades)
                                if answerable else a.refused),
                    "context chars": sum(len(found.index_of[qid]["chunks"][c]["text"])
                                         for c in gen_input[v][qid]),
                    "support": round(a.support, 9),
                })
            rows.append(row)
    return pd.DataFrame(rows).set_index(["version", "question_id"])


def _latency(timings: dict[str, dict[str, list[float]]]) -> pd.DataFrame:
    """Median milliseconds per question per stage; a version's pipeline includes earlier stages."""
    med = {v: {s: statistics.median(t) for s, t in st.items()} for v, st in timings.items()}
    owner = {"bm25": "A", "vector": "B", "fusion": "C", "rerank": "D", "score fusion": "E"}  # who times it
    stages = {"A": ["bm25"], "B": ["vector"], "C": ["bm25", "vector", "fusion"], "Oracle": [],
              "D": ["bm25", "vector", "fusion", "rerank"], "E": ["bm25", "vector", "score fusion"]}
    rows = {}
    for v in (v for v in VERSIONS if v in timings):
        row = {s: med[owner[s]].get(s, np.nan) if s in stages[v] else np.nan for s in owner}
        row["generate"] = med[v].get("generate", np.nan)
        row["total"] = float(np.nansum(list(row.values())))
        rows[v] = row
    table = pd.DataFrame.from_dict(rows, orient="index").rename_axis("version")
    return table.rename(columns=lambda c: f"{c} ms")
