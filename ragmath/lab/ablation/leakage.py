"""How evaluation leaks: random vs grouped splits, tuning on the test, holdout overlap. Used by notebook 07.

``leakage_experiment`` compares a random and a grouped split per seed; ``leakage_on_fixed_questions``
measures two leaks (the reranker's memory of near-duplicates, tuning on the test questions, over
``LEAK_GRID``) on the same test questions with paired intervals; ``holdout_overlap`` says what the
sealed holdout shares with dev, from IDs only. Dev questions only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ragmath.evaluation import evaluate
from ragmath.lab.ablation.config import TUNED_KNOBS, AblationConfig
from ragmath.lab.ablation.running import run_ablation
from ragmath.lab.workbook import FOLDS, RerankStage, dataset_or_default, require_dev_only


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
        raise ValueError(f"test_fraction must be strictly between 0 and 1, got {test_fraction!r}")
    cfg = replace(config or AblationConfig(), split="dev")
    ds = dataset_or_default(dataset)
    require_dev_only(ds, "leakage_experiment")
    base = run_ablation(cfg, ds, answers=False)
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
    _check_leak_arguments(test_fraction, grid)
    cfg = replace(config or AblationConfig(), split="dev")
    ds = dataset_or_default(dataset)
    require_dev_only(ds, "leakage_on_fixed_questions")
    metric = f"nDCG@{cfg.top_k}"
    settings = [(k, w, m) for k in grid["k"] for w in grid["window"] for m in grid["rerank_depth"]]
    depths = sorted(set(memory_depths))
    stages = _leak_stages(cfg, ds, settings, depths)
    first = next(iter(stages.values()))
    qrels, group = first.qrels, first.rerank_stage.group
    answerable = [q for q in first.rerank_stage.dev if any(g > 0 for g in qrels[q].values())]
    rows = []
    for seed in seeds:
        test, rest = _draw_test_and_rest(answerable, seed, test_fraction)
        test_groups = {group[q] for q in test}
        clean_fit = [q for q in rest if group[q] not in test_groups]
        common = _common_columns(seed, test, rest, clean_fit, group)
        arms = _memory_arms(stages, depths, qrels, metric, clean_fit, rest, test)
        arms["tuning (k, W, M)"] = _tuning_arm(stages, settings, qrels, group, metric, clean_fit, test)
        rows += [_leak_row(common, leak, arm, metric, seed, resamples) for leak, arm in arms.items()]
    return pd.DataFrame(rows).set_index(["seed", "leak"])


def _check_leak_arguments(test_fraction: float, grid: Mapping[str, Sequence[Any]]) -> None:
    """Refuse a ``test_fraction`` outside (0, 1) or a grid with no value for a tuned knob."""
    if not 0 < test_fraction < 1:
        raise ValueError(f"test_fraction must be strictly between 0 and 1, got {test_fraction!r}")
    if any(not tuple(grid.get(knob, ())) for knob in TUNED_KNOBS):
        raise ValueError(f"grid needs at least one value for each of {list(TUNED_KNOBS)}, got {dict(grid)}")


def _leak_stages(cfg: AblationConfig, ds: Any, settings: list[tuple], depths: list[int]) -> dict[Any, Any]:
    """The ablation run of each grid setting, then of each memory depth (keyed ``("memory", m)``)."""
    configs = {s: replace(cfg, k=s[0], window=s[1], rerank_depth=s[2]) for s in settings}
    configs |= {("memory", m): replace(cfg, rerank_depth=m) for m in depths}
    return {key: run_ablation(c, ds, answers=False) for key, c in configs.items()}


def _per_question(stage: RerankStage, qrels: Mapping[str, Any], metric: str,
                  fit: list[str], test: list[str]) -> pd.Series:
    """The metric per test question, the reranker fitted on ``fit``."""
    model = stage.fit(fit)
    run = {q: stage.rank(q, model, fit) for q in test}
    return evaluate(run, {q: qrels[q] for q in test}, [metric]).per_question[metric].loc[test]


def _out_of_fold(stage: RerankStage, qrels: Mapping[str, Any], metric: str, group: Mapping[str, Any],
                 questions: list[str]) -> float:
    """The mean metric over ``questions``, each scored by a reranker fitted on the other folds of groups."""
    groups = sorted({group[q] for q in questions})
    fold = {g: i % FOLDS for i, g in enumerate(groups)}
    scores = [_per_question(stage, qrels, metric, [q for q in questions if fold[group[q]] != f],
                            [q for q in questions if fold[group[q]] == f])
              for f in sorted(set(fold.values()))]
    return float(pd.concat(scores).mean())


def _tie_order(s: tuple) -> tuple:
    """The tie rule between settings: the smaller M, then W, then the k closest to 60."""
    return (s[2], s[1], abs(math.log(s[0]) - math.log(60)))


def _draw_test_and_rest(answerable: list[str], seed: int,
                        test_fraction: float) -> tuple[list[str], list[str]]:
    """The seed's test part (``test_fraction`` of the questions, drawn at random) and the rest, sorted."""
    drawn = [answerable[i] for i in np.random.default_rng(seed).permutation(len(answerable))]
    cut = math.ceil(test_fraction * len(drawn))
    return sorted(drawn[:cut]), sorted(drawn[cut:])


def _common_columns(seed: int, test: list[str], rest: list[str], clean_fit: list[str],
                    group: Mapping[str, Any]) -> dict[str, Any]:
    """The columns shared by a seed's rows: the seed, the test questions, their twins in the rest."""
    return {"seed": seed, "test questions": len(test),
            "test questions with a twin in fitting": sum(
                group[q] in {group[r] for r in rest} for q in test),
            "twins in fitting": len(rest) - len(clean_fit)}


def _memory_arms(stages: Mapping[Any, Any], depths: list[int], qrels: Mapping[str, Any], metric: str,
                 clean_fit: list[str], rest: list[str], test: list[str]) -> dict[str, tuple]:
    """Per memory depth: the test scores fitted without the twins, then with them, and no settings."""
    arms = {}
    for m in depths:
        stage = stages["memory", m].rerank_stage
        arms[f"memory (M = {m})"] = (_per_question(stage, qrels, metric, clean_fit, test),
                                     _per_question(stage, qrels, metric, rest, test), "", "")
    return arms


def _tuning_arm(stages: Mapping[Any, Any], settings: list[tuple], qrels: Mapping[str, Any],
                group: Mapping[str, Any], metric: str, clean_fit: list[str], test: list[str]) -> tuple:
    """The test scores of the setting chosen out of fold on the rest and of the one best on the test."""
    on_test = {s: _per_question(stages[s].rerank_stage, qrels, metric, clean_fit, test) for s in settings}
    on_rest = {s: _out_of_fold(stages[s].rerank_stage, qrels, metric, group, clean_fit) for s in settings}
    leaky = min(settings, key=lambda s: (-round(float(on_test[s].mean()), 12), _tie_order(s)))
    honest = min(settings, key=lambda s: (-round(on_rest[s], 12), _tie_order(s)))
    return on_test[honest], on_test[leaky], honest, leaky


def _leak_row(common: dict[str, Any], leak: str, arm: tuple, metric: str, seed: int,
              resamples: int) -> dict[str, Any]:
    """One row: a leak's clean and leaky means and their paired bootstrap difference and interval."""
    from ragmath.stats import paired_bootstrap

    clean, dirty, chosen_clean, chosen_leaky = arm
    res = paired_bootstrap(clean, dirty, n_resamples=resamples, seed=seed)
    return {**common, "leak": leak, f"clean: {metric}": float(clean.mean()),
            f"leaky: {metric}": float(dirty.mean()), "difference": res.mean_diff,
            "low": res.low, "high": res.high,
            "clean choice": "" if chosen_clean == "" else _setting(chosen_clean),
            "leaky choice": "" if chosen_leaky == "" else _setting(chosen_leaky)}


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

    from ragmath.lab.corpus import data_dir, load_corpus, split_manifest
    from ragmath.lab.holdout import added_with_holdout

    folder = data_dir() if data is None else Path(data)
    side = dict(zip(*(split_manifest(folder, with_answerable=False)[c] for c in ("question_id", "split")),
                    strict=True))
    with (folder / "qrels.csv").open(encoding="utf-8", newline="") as handle:
        positive = [(r["question_id"], r["chunk_id"]) for r in csv.DictReader(handle)
                    if int(r["grade"]) > 0]
    dev_evidence = {c for q, c in positive if side[q] == "dev"}
    held = [(q, c) for q, c in positive if side[q] == "holdout"]
    corpus_ids = set(load_corpus(folder / "corpus.jsonl")["chunk_id"])
    added = added_with_holdout("corpus.jsonl", "chunk_id", folder)
    return {
        "holdout positive labels": len(held),
        "shared with dev evidence": [(q, c) for q, c in held if c in dev_evidence],
        "chunks added with the holdout": added,
        "added chunks in the dev corpus": None if added is None else len(set(added) & corpus_ids),
        "dev labels on added chunks": None if added is None else sum(
            c in set(added) for q, c in positive if side[q] == "dev"),
        "corpus chunks": len(corpus_ids),
    }
