"""Notebook 08's helpers: a reader's files read, the workbook's stand-in for them, and the tables 08 shows.

:func:`load_own_files` reads a reader's files (``MY_FILES``). Without them, :func:`workbook_files` writes
files of the same shape from the workbook's corpus and four versions (:data:`VERSIONS`, each a plain
function of :func:`workbook_systems`, recorded with :func:`ragmath.lab.notebook.record.record`). The other
helpers arrange ragmath's numbers into tables whose column words follow the notebook's language.
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np
import pandas as pd

from ragmath import evaluate
from ragmath.comparison import Comparison, name_runs, plan_questions, pool
from ragmath.io import read_qrels, read_run
from ragmath.lab.messages import message
from ragmath.lab.notebook.record import latency_path_for, record
from ragmath.lab.paths import DATA_DIR
from ragmath.lab.workbook import (
    BM25Retriever,
    E5Vectors,
    HybridRetriever,
    in_index,
    permission_filter,
    vector_retriever,
)

__all__ = ["VERSIONS", "BASELINE", "OWN_SPLIT", "POOL_DEPTH", "workbook_systems", "question_records",
           "relevant_only_labels", "workbook_files", "load_own_files", "OwnFiles", "question_groups",
           "runs_for", "labels_for", "prepared_judgements", "labels_from", "labels_within", "latency_summary",
           "latency_tables", "pooling_bias", "plan_table", "PREPARED_JUDGEMENTS", "SECOND_LABELS"]


class _InLanguage(Mapping[str, str]):
    """A mapping whose texts are read from the catalogue when asked for, in the language chosen then."""

    def __init__(self, texts: Callable[[], dict[str, str]]) -> None:
        self._texts = texts

    def __getitem__(self, name: str) -> str:
        return self._texts()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts())

    def __len__(self) -> int:
        return len(self._texts())

    def __repr__(self) -> str:
        return repr(self._texts())


def _words_08() -> dict[str, str]:
    """The words of notebook 08's tables (column and index names) in the language chosen; three are
    templates their users fill, their fields given back as themselves."""
    names = ["version", "questions", "median ms", "p95 ms", "failures", "labels", "pilot questions",
             "mean difference", "sd of differences", "questions for observed", "questions labelled"]
    words = {name: message("notebook.own_system.word." + name.replace(" ", "_")) for name in names}
    words["minus"] = message("notebook.own_system.word.minus", metric="{metric}", baseline="{baseline}")
    words["questions for d"] = message("notebook.own_system.word.questions_for_d", d="{d}")
    words["detectable with n"] = message("notebook.own_system.word.detectable_with_n", n="{n}")
    return words

#: Notebook 08's own holdout: a third of the questions, whole groups at a time (``ragmath.grouped_split``).
OWN_SPLIT = {"holdout": 1 / 3, "seed": 0}
#: How deep notebook 08 pools each version's ranking to list what to label.
POOL_DEPTH = 10
#: How deep the stand-in's versions are recorded (what each run file keeps per question).
RECORD_DEPTH = 20

#: The prepared judgements that stand in for a person in notebook 08 (committed beside the notebook).
PREPARED_JUDGEMENTS = DATA_DIR.parent / "notebooks" / "own_system" / "prepared_judgements.csv"
#: The stand-in's second label set for notebook 08's agreement sample, graded blind (``second_labels.md``).
SECOND_LABELS = DATA_DIR.parent / "notebooks" / "own_system" / "second_labels.csv"

#: The stand-in's four versions -> their descriptions, in the notebook's language; the first is the baseline.
#: Named by what they are: notebooks 06a, 06b and 07 use the letters A-D for other versions.
VERSIONS: Mapping[str, str] = _InLanguage(lambda: {
    name: message("notebook.own_system.version." + name.replace("-", "_"))
    for name in ("bm25", "vector", "rrf-k60", "bm25-bigram")})
#: The stand-in's baseline: the plain BM25 a reader usually starts from.
BASELINE = "bm25"

System = Callable[[dict], list[tuple[str, float]]]
Labels = Mapping[str, Mapping[str, int]]


def question_records(dataset: Any) -> dict[str, dict[str, str]]:
    """Question ID -> ``{"text", "identity"}`` for every question of ``dataset``: what a version takes."""
    rows = dataset.questions[["question_id", "text", "identity"]].itertuples(index=False)
    return {qid: {"text": text, "identity": identity} for qid, text, identity in rows}


def workbook_systems(dataset: Any, *, k: float = 60, window: int = 40,
                     depth: int = RECORD_DEPTH) -> dict[str, System]:
    """The stand-in's versions as functions question record -> ``[(chunk ID, score)]``, best first, top
    ``depth``: ``bm25`` (jieba tokens), ``vector`` (cosine over multilingual-e5-small vectors, as row B of
    notebook 06a), ``rrf-k60`` (RRF of the two at ``k``, ``window``) and ``bm25-bigram`` (BM25 over
    character bigrams). The e5 vectors are the stored ones (``data/vectors``, read once for every
    identity): every chunk and question of the workbook has one, so no model runs.

    Each searches only what the asking identity may read; its indexes are built on first use per identity,
    on the dataset's snapshot date with published editions. Raises ``ValueError`` (from the index) for an
    identity the dataset does not know, ``FileNotFoundError`` when ``data/vectors`` holds no manifest.

    >>> from ragmath.lab.corpus import load_dataset
    >>> ds = load_dataset()
    >>> systems = workbook_systems(ds)
    >>> ask = question_records(ds)["Q01"]
    >>> [systems[name](ask)[0][0] for name in ("bm25", "vector")], len(systems["rrf-k60"](ask))
    (['TRV26-3.3', 'TRV26-3.3'], 20)
    """
    published = dataset.corpus[in_index(dataset.corpus, dataset.config["snapshot_date"], "published")]
    built: dict[str, dict[str, Any]] = {}
    vectors = E5Vectors()  # the stored e5 vectors, shared by every identity's index

    def retrievers(identity: str) -> dict[str, Any]:
        if identity not in built:
            chunks = permission_filter(published, identity, identities=dataset.identities)
            bm25, vector = BM25Retriever(chunks, "jieba"), vector_retriever(chunks, "e5", vectors)
            built[identity] = {
                "bm25": bm25, "vector": vector, "bm25-bigram": BM25Retriever(chunks, "bigram"),
                "rrf-k60": HybridRetriever({"bm25": bm25, "vector": vector}, k=k, window=window),
            }
        return built[identity]

    def version(name: str) -> System:
        def system(question: dict) -> list[tuple[str, float]]:
            return retrievers(question["identity"])[name].retrieve(question["text"], depth)

        system.__name__ = "version_" + name.replace("-", "_")
        return system

    return {name: version(name) for name in VERSIONS}


def relevant_only_labels(dataset: Any, questions: Sequence[str] | None = None) -> dict[str, dict[str, int]]:
    """The dataset's labels (question -> {chunk: grade}), for ``questions`` only when given.

    They list the relevant chunks only (grade 1 or 2): every other chunk is unjudged, so their Judged@K
    is low although they miss no relevant chunk.

    >>> from ragmath.lab.corpus import load_dataset
    >>> relevant_only_labels(load_dataset(), ["Q01"])["Q01"]["TRV26-3.3"]
    2
    """
    keep = None if questions is None else set(questions)
    labels: dict[str, dict[str, int]] = {}
    for question, chunk, grade in dataset.qrels[["question_id", "chunk_id", "grade"]].itertuples(index=False):
        if keep is None or question in keep:
            labels.setdefault(question, {})[chunk] = int(grade)
    return labels


def workbook_files(folder: Any, dataset: Any = None) -> dict[str, Any]:
    """Write the workbook's stand-in for a reader's files into ``folder``; return them as ``MY_FILES``.

    ``questions.csv`` (``question_id``, ``text``, ``about``: the passage the question was written from,
    or its topic; ``identity``: who asks), ``chunks.csv`` (``id``, ``text``) and ``runs/<version>.trec``
    for each of :data:`VERSIONS`, recorded on every question (a latency CSV beside each run). Returns
    ``{"questions": path, "runs": [paths, baseline first], "chunks": path}``.
    """
    if dataset is None:
        from ragmath.lab.corpus import load_dataset

        dataset = load_dataset()
    folder = Path(folder)
    (folder / "runs").mkdir(parents=True, exist_ok=True)
    q = dataset.questions
    questions = pd.DataFrame({"question_id": q["question_id"], "text": q["text"], "about": list(q["group"]),
                              "identity": q["identity"]})
    questions.to_csv(folder / "questions.csv", index=False)
    chunks = pd.DataFrame({"id": dataset.corpus["chunk_id"], "text": dataset.corpus["text"]})
    chunks.to_csv(folder / "chunks.csv", index=False)
    records = question_records(dataset)
    for name, system in workbook_systems(dataset).items():
        record(system, records, folder / "runs" / f"{name}.trec", tag=name)
    return {"questions": folder / "questions.csv",
            "runs": [folder / "runs" / f"{name}.trec" for name in VERSIONS],
            "chunks": folder / "chunks.csv"}


@dataclass(frozen=True)
class OwnFiles:
    """A reader's files, read: ``questions`` (``question_id``, ``text`` and the file's other columns),
    ``runs`` (name -> run file, the baseline first), ``texts`` (chunk ID -> text) and ``labels``
    (question -> {ID: grade}); the last two empty without their file."""

    questions: pd.DataFrame
    runs: dict[str, Path]
    texts: dict[str, str]
    labels: dict[str, dict[str, int]]


def load_own_files(files: Mapping[str, Any]) -> OwnFiles:
    """Read notebook 08's ``MY_FILES``: ``{"questions": CSV, "runs": [run files], "chunks": CSV (optional),
    "labels": qrels file (optional)}``. Runs are named by their file name without the extension
    (:func:`ragmath.comparison.name_runs`; ``NAME=PATH`` names one yourself).

    The questions CSV needs ``question_id`` and ``text``; the chunks CSV ``id`` and ``text``. Raises
    ``ValueError`` naming what is missing: a key, a column, a file, or fewer than two runs.
    """
    unknown = sorted(set(files) - {"questions", "runs", "chunks", "labels"})
    missing = [key for key in ("questions", "runs") if key not in files]
    if unknown or missing:
        raise ValueError(message("notebook.own_system.files_keys", missing=missing, unknown=unknown))
    questions = pd.read_csv(files["questions"], dtype=str, keep_default_na=False)
    _need_columns(questions, ("question_id", "text"), files["questions"])
    runs = {name: Path(path) for name, path in name_runs([str(p) for p in files["runs"]]).items()}
    if len(runs) < 2:
        raise ValueError(message("notebook.own_system.two_runs", given=len(runs)))
    for path in [*runs.values(), *[files[k] for k in ("chunks", "labels") if files.get(k) is not None]]:
        if not Path(path).is_file():
            raise ValueError(message("notebook.own_system.no_file", path=str(path)))
    texts: dict[str, str] = {}
    if files.get("chunks") is not None:
        chunks = pd.read_csv(files["chunks"], dtype=str, keep_default_na=False)
        _need_columns(chunks, ("id", "text"), files["chunks"])
        texts = dict(zip(chunks["id"], chunks["text"], strict=True))
    labels = read_qrels(files["labels"]) if files.get("labels") is not None else {}
    return OwnFiles(questions, runs, texts, labels)


def _need_columns(table: pd.DataFrame, needed: Sequence[str], path: Any) -> None:
    lacking = [c for c in needed if c not in table.columns]
    if lacking:
        raise ValueError(message("notebook.own_system.columns", path=str(path), missing=lacking,
                                 columns=list(table.columns)))


def _bigrams(text: str) -> set[str]:
    chars = [c for c in str(text).lower() if c.isalnum()]
    return {a + b for a, b in zip(chars, chars[1:], strict=False)} or set(chars)


def question_groups(questions: pd.DataFrame, *, about: str = "about", near: float = 0.6) -> dict[str, str]:
    """Question ID -> group, by rules you can apply before anything is labelled: questions with the same
    ``about`` (the document, passage or topic a question was written about; the column may be absent) share
    a group, and so do near-duplicates (two texts whose character bigrams overlap by ``near`` or more,
    Jaccard), transitively. A group is named by its first question's ID. Why: a near-duplicate on each side
    of a split leaks (the holdout then scores what was tuned on).

    >>> table = pd.DataFrame({"question_id": ["q1", "q2", "q3", "q4"],
    ...                       "text": ["taxi over the limit", "taxi over the limit?", "hotel", "gym"],
    ...                       "about": ["travel 4.2", "", "travel 5.2", "travel 5.2"]})
    >>> question_groups(table)
    {'q1': 'q1', 'q2': 'q1', 'q3': 'q3', 'q4': 'q3'}
    """
    ids = [str(q) for q in questions["question_id"]]
    group = {q: q for q in ids}  # each group is named by its first question

    def join(a: str, b: str) -> None:
        first, second = sorted((group[a], group[b]), key=ids.index)
        for q in ids:
            if group[q] == second:
                group[q] = first

    if about in questions.columns:
        seen: dict[str, str] = {}
        for q, topic in zip(ids, questions[about], strict=True):
            if isinstance(topic, str) and topic.strip():
                join(seen.setdefault(topic.strip(), q), q)
    grams = [_bigrams(t) for t in questions["text"]]
    for i in range(len(ids)):
        for j in range(i + 1, len(ids)):
            union = len(grams[i] | grams[j])
            if union and len(grams[i] & grams[j]) / union >= near:
                join(ids[i], ids[j])
    return group


def runs_for(runs: Mapping[str, Any], questions: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Each run (a file or a mapping) with only ``questions``' rankings.

    >>> runs_for({"bm25": {"q1": ["a"], "q2": ["b"]}}, ["q2"])
    {'bm25': {'q2': ['b']}}
    """
    keep = set(questions)
    read = {name: read_run(run) if not isinstance(run, Mapping) else run for name, run in runs.items()}
    return {name: {q: r for q, r in run.items() if q in keep} for name, run in read.items()}


def labels_for(labels: Labels, questions: Sequence[str]) -> dict[str, dict[str, int]]:
    """The labels of ``questions`` only.

    >>> labels_for({"q1": {"a": 1}, "q2": {"b": 0}}, ["q2"])
    {'q2': {'b': 0}}
    """
    keep = set(questions)
    return {q: dict(items) for q, items in labels.items() if q in keep}


def prepared_judgements(dataset: Any = None, *, depth: int = POOL_DEPTH) -> pd.DataFrame:
    """The judgements that stand in for a person in notebook 08 (:data:`PREPARED_JUDGEMENTS`): the pool of
    the top ``depth`` of :func:`workbook_files`' runs, each item with its grade in
    :func:`relevant_only_labels`, else 0. Columns ``question, id, grade``, in the pool's order."""
    if dataset is None:
        from ragmath.lab.corpus import load_dataset

        dataset = load_dataset()
    with tempfile.TemporaryDirectory() as folder:
        files = workbook_files(folder, dataset)
        runs = {Path(path).stem: read_run(path) for path in files["runs"]}
    table = pool(runs, depth)
    labels = relevant_only_labels(dataset)
    pairs = zip(table["question"], table["id"], strict=True)
    table["grade"] = [labels.get(q, {}).get(i, 0) for q, i in pairs]
    return table[["question", "id", "grade"]]


def labels_from(pool_table: pd.DataFrame, by_hand: Labels,
                prepared: Labels | None = None) -> tuple[dict[str, dict[str, int]], dict[str, int]]:
    """Each pool item's grade, a person's where given, else the prepared file's; and how many came from
    each and how many are still not judged (left out of the labels).

    >>> table = pd.DataFrame({"question": ["q1", "q1", "q2"], "id": ["a", "b", "c"]})
    >>> labels_from(table, {"q1": {"a": 2}}, {"q1": {"b": 0}})
    ({'q1': {'a': 2, 'b': 0}}, {'by hand': 1, 'prepared': 1, 'not judged': 1})
    """
    prepared = {} if prepared is None else prepared
    labels: dict[str, dict[str, int]] = {}
    counts = {"by hand": 0, "prepared": 0, "not judged": 0}
    for question, item in zip(pool_table["question"], pool_table["id"], strict=True):
        if item in by_hand.get(question, {}):
            grade, source = by_hand[question][item], "by hand"
        elif item in prepared.get(question, {}):
            grade, source = prepared[question][item], "prepared"
        else:
            counts["not judged"] += 1
            continue
        labels.setdefault(question, {})[item] = int(grade)
        counts[source] += 1
    return labels, counts


def labels_within(labels: Labels, pool_table: pd.DataFrame) -> dict[str, dict[str, int]]:
    """The labels of the items in ``pool_table`` only: what you would have labelled from that pool alone.

    >>> labels_within({"q1": {"a": 2, "b": 0}}, pd.DataFrame({"question": ["q1"], "id": ["b"]}))
    {'q1': {'b': 0}}
    """
    return labels_from(pool_table, labels)[0]


def latency_tables(runs: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    """The latency CSV that :func:`~ragmath.lab.notebook.record.record` wrote beside each run file, by
    version; a run without one is left out."""
    found = {name: latency_path_for(path) for name, path in runs.items()}
    return {name: pd.read_csv(path, dtype={"question": str, "error": str}, keep_default_na=False)
            for name, path in found.items() if path.is_file()}


def latency_summary(tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Per version: questions asked, median and 95th-percentile latency (ms), failed questions."""
    words = _words_08()
    rows = {name: {words["questions"]: len(t), words["median ms"]: float(t["latency_ms"].median()),
                   words["p95 ms"]: float(np.percentile(t["latency_ms"], 95)),
                   words["failures"]: int((t["error"] != "").sum())} for name, t in tables.items()}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis(words["version"])


def pooling_bias(runs: Mapping[str, Any], label_sets: Mapping[str, Any], metrics: Sequence[str], *,
                 baseline: str) -> pd.DataFrame:
    """Each version scored under each set of labels: the metrics' means, Judged@K, how many of the run's
    questions have a label ("n of N": the means and Judged@K are over those n, as in ir_measures) and the
    difference from ``baseline`` on each metric. One row per (labels, version); K of Judged@K is the first
    metric's.

    >>> runs = {"A": {"q1": ["a", "x"]}, "B": {"q1": ["n", "a"]}}
    >>> table = pooling_bias(runs, {"A's": {"q1": {"a": 1}}, "all": {"q1": {"a": 1, "n": 1}}}, ["Recall@1"],
    ...                      baseline="A")
    >>> table["Recall@1"].tolist()
    [1.0, 0.0, 0.5, 0.5]
    >>> table["questions labelled"].tolist()
    ['1 of 1', '1 of 1', '1 of 1', '1 of 1']
    """
    words = _words_08()
    k = int(metrics[0].split("@")[1])
    rows = []
    for label_name, labels in label_sets.items():
        evaluations = {name: evaluate(run, labels, [*metrics, f"Judged@{k}"]) for name, run in runs.items()}
        means = {name: ev.means for name, ev in evaluations.items()}
        for name in runs:
            labelled = evaluations[name].questions(f"Judged@{k}")  # the run's questions with a label
            asked = labelled + len(evaluations[name].unjudged)
            row = {words["labels"]: label_name, words["version"]: name,
                   **{m: float(means[name][m]) for m in [*metrics, f"Judged@{k}"]},
                   words["questions labelled"]: message("notebook.comparing.report.labelled.of",
                                                        labelled=labelled, asked=asked)}
            row.update({words["minus"].format(metric=m, baseline=baseline):
                        float(means[name][m] - means[baseline][m]) for m in metrics})
            rows.append(row)
    return pd.DataFrame(rows).set_index([words["labels"], words["version"]])


def plan_table(result: Comparison, metric: str, d: float, *, questions: int = 30, power: float = 0.8,
               alpha: float = 0.05) -> pd.DataFrame:
    """Per version against the baseline on ``metric``: the pilot's mean difference and its spread, the
    questions needed to detect ``d`` (and the observed difference), and the smallest difference that
    ``questions`` questions detect, all at ``power`` and two-sided ``alpha``.

    smallest detectable difference = (z_{1−α/2} + z_{power}) · σ_d / √n

    where σ_d is the standard deviation of the pilot's per-question differences and n = ``questions``
    (the inverse of :func:`ragmath.comparison.plan_questions`).

    A version whose pilot differences are all equal (σ_d = 0, e.g. every one 0) gets NaN question counts:
    a pilot without spread says nothing about how many questions a difference needs. An observed
    difference of 0 needs infinitely many.

    >>> from ragmath import compare
    >>> same = compare({"A": {"q1": ["a"], "q2": ["b"]}, "B": {"q1": ["a"], "q2": ["b"]}},
    ...                {"q1": {"a": 1}, "q2": {"b": 1}}, ["nDCG@5"], baseline="A", n_resamples=10)
    >>> plan_table(same, "nDCG@5", 0.05).iloc[0, :4].tolist()
    [2.0, 0.0, 0.0, nan]
    """
    words = _words_08()
    z = NormalDist().inv_cdf(1 - alpha / 2) + NormalDist().inv_cdf(power)
    base = result.per_question[result.baseline][metric]
    rows = {}
    for name in result.per_question:
        if name == result.baseline:
            continue
        diffs = (result.per_question[name][metric] - base).to_numpy()
        observed, sd = float(diffs.mean()), float(diffs.std(ddof=1))
        if sd == 0:  # the versions never disagree in spread: nothing to plan from (plan_questions refuses)
            need = need_observed = math.nan
        else:
            need = plan_questions(diffs, d, power=power, alpha=alpha)
            need_observed = (plan_questions(diffs, observed, power=power, alpha=alpha) if observed
                             else math.inf)
        rows[name] = {words["pilot questions"]: diffs.size, words["mean difference"]: observed,
                      words["sd of differences"]: sd, words["questions for d"].format(d=d): need,
                      words["questions for observed"]: need_observed,
                      words["detectable with n"].format(n=questions): z * sd / math.sqrt(questions)}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis(words["version"])
