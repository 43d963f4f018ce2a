"""The workbook's retrievers as "your system" for notebook 08: plain functions question -> ranked list.

A real retriever gets a question's text and the asking user's identity and returns chunk IDs with scores,
best first. :func:`workbook_systems` gives four such functions over the workbook's corpus, each built on
the permission-filtered index of the identity that asks (the filter runs before any scoring):

- ``A``: BM25 over jieba tokens; ``B``: the offline vector retriever; ``C``: RRF of A and B
  (``k``, ``window``); ``D``: BM25 over character bigrams, a version built after the labels were made.

Each function takes a question record (``{"text": ..., "identity": ...}``, see :func:`question_records`),
so ``record(systems["A"], question_records(ds), path)`` (:mod:`ragmath.lab.notebook.record`) records it
like any system.

Notebook 08's other helpers arrange tables from ragmath's numbers (no sentence: the notebook writes
its own; the tables' column words are :data:`WORDS_08`, in the language chosen): the prepared
judgements that stand in for a person (:func:`prepared_judgements`, :func:`complete_labels`), labels
restricted to one pool (:func:`labels_within`), the latency summary, the pooling-bias table and the
question-count plan.
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ragmath import evaluate
from ragmath.comparison import Comparison, plan_questions, pool
from ragmath.io import read_run
from ragmath.lab.index import build_index
from ragmath.lab.messages import message
from ragmath.lab.notebook.record import record
from ragmath.lab.paths import DATA_DIR
from ragmath.lab.retrieval import BM25Retriever, HybridRetriever, VectorRetriever


class _Words(Mapping[str, str]):
    """Words a reader sees in a table (column and index names), looked up in the language chosen when
    they are read, not when the module was imported."""

    def __init__(self, words: Callable[[], dict[str, str]]) -> None:
        self._words = words

    def __getitem__(self, name: str) -> str:
        return self._words()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._words())

    def __len__(self) -> int:
        return len(self._words())

    def __repr__(self) -> str:
        return repr(self._words())


def _words_08() -> dict[str, str]:
    # two words are templates their users fill (``{metric}``/``{baseline}``, ``{d}``, ``{n}``): the fields
    # are given back as themselves
    names = ["version", "questions", "median ms", "p95 ms", "failures", "labels", "pilot questions",
             "mean difference", "sd of differences", "questions for observed"]
    words = {name: message("notebook.own_system.word." + name.replace(" ", "_")) for name in names}
    words["minus"] = message("notebook.own_system.word.minus", metric="{metric}", baseline="{baseline}")
    words["questions for d"] = message("notebook.own_system.word.questions_for_d", d="{d}")
    words["detectable with n"] = message("notebook.own_system.word.detectable_with_n", n="{n}")
    return words


#: The words of notebook 08's tables (column and index names), in the language chosen when one is read:
#: a table built in one language is indexed by the same language's words.
WORDS_08: Mapping[str, str] = _Words(_words_08)

__all__ = ["VERSIONS", "OWN_SPLIT", "POOL_DEPTH", "workbook_systems", "question_records", "dev_labels",
           "record_versions", "prepared_judgements", "complete_labels", "labels_within", "latency_summary",
           "pooling_bias", "plan_table", "PREPARED_JUDGEMENTS"]

#: Notebook 08's own holdout: a third of the dev questions' groups, drawn by ``ragmath.grouped_split``.
OWN_SPLIT = {"holdout": 1 / 3, "seed": 0}
#: How deep notebook 08 pools each version's ranking to list what to label.
POOL_DEPTH = 10

#: The prepared judgements that stand in for a person in notebook 08 (committed beside the notebook;
#: found from any working folder, so the Chinese edition in ``notebooks/zh/`` reads the same file).
PREPARED_JUDGEMENTS = DATA_DIR.parent / "notebooks" / "own_system" / "prepared_judgements.csv"

class _Described(Mapping[str, str]):
    """A mapping name -> description whose descriptions are read from the catalogue when asked for, so
    they speak the language the notebook chose after importing this module."""

    def __init__(self, texts: Mapping[str, Callable[[], str]]) -> None:
        self._texts = dict(texts)

    def __getitem__(self, name: str) -> str:
        return self._texts[name]()

    def __iter__(self):
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)

    def __repr__(self) -> str:
        return repr(dict(self))


#: The four versions, by name, each with its description (in the notebook's language).
VERSIONS: Mapping[str, str] = _Described({
    "A": lambda: message("notebook.own_system.version_a"),
    "B": lambda: message("notebook.own_system.version_b"),
    "C": lambda: message("notebook.own_system.version_c"),
    "D": lambda: message("notebook.own_system.version_d"),
})

System = Callable[[dict], list[tuple[str, float]]]


def question_records(dataset: Any) -> dict[str, dict[str, str]]:
    """Question ID -> ``{"text", "identity"}`` for every question of ``dataset`` (dev only from
    ``load_dataset()``), what :func:`workbook_systems`' functions take."""
    rows = dataset.questions[["question_id", "text", "identity"]].itertuples(index=False)
    return {qid: {"text": text, "identity": identity} for qid, text, identity in rows}


def workbook_systems(dataset: Any, *, k: float = 60, window: int = 40, depth: int = 20) -> dict[str, System]:
    """The versions A-D as functions question record -> ``[(chunk ID, score)]``, best first, top ``depth``.

    Indexes are built on first use per identity, on the dataset's snapshot date with published editions.

    >>> from ragmath.lab.corpus import load_dataset
    >>> ds = load_dataset()
    >>> systems = workbook_systems(ds)
    >>> ask = question_records(ds)["Q01"]
    >>> systems["A"](ask)[0][0], len(systems["C"](ask))
    ('TRV26-3.3', 20)

    Raises ``ValueError`` (from the index) for an identity the dataset does not know.
    """
    snapshot = build_index(dataset.corpus, as_of=dataset.config["snapshot_date"], editions="published")
    built: dict[str, dict[str, Any]] = {}

    def retrievers(identity: str) -> dict[str, Any]:
        if identity not in built:
            chunks = snapshot.for_identity(identity, dataset.identities).chunks
            bm25, vector = BM25Retriever(chunks, "jieba"), VectorRetriever(chunks)
            built[identity] = {
                "A": bm25, "B": vector, "D": BM25Retriever(chunks, "bigram"),
                "C": HybridRetriever({"bm25": bm25, "vector": vector}, k=k, window=window),
            }
        return built[identity]

    def version(name: str) -> System:
        def system(question: dict) -> list[tuple[str, float]]:
            return retrievers(question["identity"])[name].retrieve(question["text"], depth)

        system.__name__ = f"version_{name}"
        return system

    return {name: version(name) for name in VERSIONS}


def dev_labels(dataset: Any, questions: Sequence[str] | None = None) -> dict[str, dict[str, int]]:
    """The dataset's labels (question -> {chunk: grade}), for ``questions`` only when given.

    >>> from ragmath.lab.corpus import load_dataset
    >>> dev_labels(load_dataset(), ["Q01"])["Q01"]["TRV26-3.3"]
    2
    """
    keep = None if questions is None else set(questions)
    labels: dict[str, dict[str, int]] = {}
    for question, chunk, grade in dataset.qrels[["question_id", "chunk_id", "grade"]].itertuples(index=False):
        if keep is None or question in keep:
            labels.setdefault(question, {})[chunk] = int(grade)
    return labels


def record_versions(dataset: Any, questions: Sequence[str], folder: Any, *,
                    systems: Mapping[str, System] | None = None) -> dict[str, pd.DataFrame]:
    """Record every version on ``questions`` as ``folder/<name>.trec`` (and its latency CSV); the latency
    tables by version. ``systems`` defaults to :func:`workbook_systems` of ``dataset``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    systems = workbook_systems(dataset) if systems is None else systems
    records = question_records(dataset)
    return {name: record(system, {q: records[q] for q in questions}, folder / f"{name}.trec", tag=name)
            for name, system in systems.items()}


def prepared_judgements(dataset: Any, questions: Sequence[str], *, depth: int = POOL_DEPTH) -> pd.DataFrame:
    """The judgements that stand in for a person in notebook 08: the pool of the four versions (top
    ``depth`` of each, recorded as the notebook records them), each item graded with the dev labels'
    grade, 0 where the dev labels have none. Columns ``question, id, grade``, in the pool's order."""
    with tempfile.TemporaryDirectory() as folder:
        record_versions(dataset, questions, folder)
        runs = {name: read_run(Path(folder) / f"{name}.trec") for name in VERSIONS}
    table = pool(runs, depth)
    labels = dev_labels(dataset, questions)
    pairs = zip(table["question"], table["id"], strict=True)
    table["grade"] = [labels.get(q, {}).get(i, 0) for q, i in pairs]
    return table[["question", "id", "grade"]]


Labels = Mapping[str, Mapping[str, int]]


def complete_labels(pool_table: pd.DataFrame, by_hand: Labels,
                    prepared: Labels) -> tuple[dict[str, dict[str, int]], dict[str, int]]:
    """Every pool item's grade, a person's where given, else the prepared file's; and how many came from each.

    >>> table = pd.DataFrame({"question": ["q1", "q1"], "id": ["a", "b"]})
    >>> complete_labels(table, {"q1": {"a": 2}}, {"q1": {"a": 0, "b": 1}})
    ({'q1': {'a': 2, 'b': 1}}, {'by hand': 1, 'prepared': 1})
    """
    labels: dict[str, dict[str, int]] = {}
    counts = {"by hand": 0, "prepared": 0}
    for question, item in zip(pool_table["question"], pool_table["id"], strict=True):
        if item in by_hand.get(question, {}):
            grade, source = by_hand[question][item], "by hand"
        elif item in prepared.get(question, {}):
            grade, source = prepared[question][item], "prepared"
        else:
            raise ValueError(message("notebook.own_system.unjudged", question=repr(question),
                                     item=repr(item)))
        labels.setdefault(question, {})[item] = int(grade)
        counts[source] += 1
    return labels, counts


def labels_within(labels: Labels, pool_table: pd.DataFrame) -> dict[str, dict[str, int]]:
    """The labels of the items in ``pool_table`` only: what you would have labelled from that pool alone.

    >>> labels_within({"q1": {"a": 2, "b": 0}}, pd.DataFrame({"question": ["q1"], "id": ["b"]}))
    {'q1': {'b': 0}}
    """
    out: dict[str, dict[str, int]] = {}
    for question, item in zip(pool_table["question"], pool_table["id"], strict=True):
        if item in labels.get(question, {}):
            out.setdefault(question, {})[item] = int(labels[question][item])
    return out


def latency_summary(tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Per version: questions asked, median and 95th-percentile latency (ms), failed questions."""
    words = WORDS_08
    rows = {name: {words["questions"]: len(t), words["median ms"]: float(t["latency_ms"].median()),
                   words["p95 ms"]: float(np.percentile(t["latency_ms"], 95)),
                   words["failures"]: int((t["error"] != "").sum())} for name, t in tables.items()}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis(words["version"])


def pooling_bias(runs: Mapping[str, Any], label_sets: Mapping[str, Any], metrics: Sequence[str], *,
                 baseline: str) -> pd.DataFrame:
    """Each version scored under each set of labels: the metrics' means, Judged@K and the difference
    from ``baseline`` on each metric. One row per (labels, version); K of Judged@K is the first metric's.

    >>> runs = {"A": {"q1": ["a", "x"]}, "B": {"q1": ["n", "a"]}}
    >>> table = pooling_bias(runs, {"A's": {"q1": {"a": 1}}, "all": {"q1": {"a": 1, "n": 1}}}, ["Recall@1"],
    ...                      baseline="A")
    >>> table["Recall@1"].tolist()
    [1.0, 0.0, 0.5, 0.5]
    """
    words = WORDS_08
    k = int(metrics[0].split("@")[1])
    rows = []
    for label_name, labels in label_sets.items():
        means = {name: evaluate(run, labels, [*metrics, f"Judged@{k}"]).means for name, run in runs.items()}
        for name in runs:
            row = {words["labels"]: label_name, words["version"]: name,
                   **{m: float(means[name][m]) for m in [*metrics, f"Judged@{k}"]}}
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
    """
    from statistics import NormalDist

    words = WORDS_08
    z = NormalDist().inv_cdf(1 - alpha / 2) + NormalDist().inv_cdf(power)
    base = result.per_question[result.baseline][metric]
    rows = {}
    for name in result.per_question:
        if name == result.baseline:
            continue
        diffs = (result.per_question[name][metric] - base).to_numpy()
        observed, sd = float(diffs.mean()), float(diffs.std(ddof=1))
        need = plan_questions(diffs, d, power=power, alpha=alpha)
        need_observed = plan_questions(diffs, observed, power=power, alpha=alpha) if observed else math.inf
        rows[name] = {words["pilot questions"]: diffs.size, words["mean difference"]: observed,
                      words["sd of differences"]: sd, words["questions for d"].format(d=d): need,
                      words["questions for observed"]: need_observed,
                      words["detectable with n"].format(n=questions): z * sd / math.sqrt(questions)}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis(words["version"])
