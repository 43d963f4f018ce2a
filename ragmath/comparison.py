"""Compare versions on the same questions: intervals, paired tests, Holm, Judged@K, question counts.

Built on :func:`ragmath.evaluate`'s per-question scores and :mod:`ragmath.stats` (the bootstrap, the
sign-flip test, Holm and the question count, importable from here too).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from ragmath import io
from ragmath.evaluation import by_group, evaluate, json_numbers, mapping_questions, name_list
from ragmath.ranking import order_run_table
from ragmath.registry import METRICS, parse_metrics
from ragmath.stats import EXACT_UP_TO, bootstrap_interval, holm, paired_bootstrap, plan_questions, sign_flip_p
from ragmath.units import check_unit_map, lift_labels, to_units
from ragmath.validation import check_k

__all__ = ["compare", "Comparison", "pool", "sign_flip_p", "holm", "plan_questions", "name_runs", "at_units",
           "by_group", "markdown", "EXACT_UP_TO", "REPORT_WORDS", "report_words"]


def pool(runs: Mapping[str, Any], depth: int, qrels: Any = None) -> pd.DataFrame:
    """What to label next: the union of every version's top ``depth`` (TREC pooling), minus what is labelled.

    pool(q) = (∪_{v ∈ V} top_depth(v, q)) \\ L(q)

    where
      - V is the versions in ``runs`` (name -> a run: a mapping, a DataFrame or a run file), each ranking
        read with the tie rule (:mod:`ragmath.ranking`),
      - top_depth(v, q) is the first ``depth`` IDs version v ranks for question q,
      - L(q) is every ID ``qrels`` labels for q, grade 0 included (``None``: nothing is labelled yet).

    One row per (question, id) in the pool: ``best rank`` is the smallest rank any version gave it,
    ``versions`` the versions that put it in their top ``depth`` (in the order of ``runs``). Rows are
    ordered by question, best rank, then id (by code point): what some version ranks high comes first.

    >>> runs = {"A": {"q1": ["a", "b", "c"]}, "B": {"q1": ["c", "d"]}}
    >>> pool(runs, 2, {"q1": {"a": 2}}).values.tolist()
    [['q1', 'c', 1, ['B']], ['q1', 'b', 2, ['A']], ['q1', 'd', 2, ['B']]]

    Raises ``ValueError`` for no run or a ``depth`` below 1 (``TypeError`` if not an int), and as the run
    and qrels readers do (a repeated ID in one ranking, ...).
    """
    if not isinstance(runs, Mapping) or not runs:
        raise ValueError("pool needs a mapping of at least one version name -> run, e.g. {'A': run_a}")
    depth = check_k(depth, "depth")
    labels = {} if qrels is None else _labels(qrels)
    found: dict[tuple[str, str], tuple[int, list[str]]] = {}
    for name, run in runs.items():
        for question, ranking in _ranked(run).items():
            labelled = labels.get(question, {})
            for rank, item in enumerate(ranking[:depth], start=1):
                if item not in labelled:
                    best, versions = found.get((question, item), (rank, []))
                    found[(question, item)] = (min(best, rank), [*versions, str(name)])
    rows = sorted(((q, i, best, versions) for (q, i), (best, versions) in found.items()),
                  key=lambda row: (str(row[0]), row[2], str(row[1])))
    table = pd.DataFrame(rows, columns=["question", "id", "best rank", "versions"])
    return table.astype({"best rank": "int64"})


def _ranked(run: Any) -> dict[str, list[str]]:
    """A run (a mapping, a DataFrame or a file) as question -> ranked IDs (text), the tie rule applied."""
    table = order_run_table(io.run_table(run))
    ranked: dict[str, list[str]] = {q: [] for q in mapping_questions(run) or ()}  # empty ones too
    ranked.update(table.group_by("question", maintain_order=True).agg("id").iter_rows())
    return ranked


def _labels(qrels: Any) -> dict[str, dict[str, int]]:
    """Labels (a mapping, a DataFrame or a file) as question -> {ID: grade}, IDs as text."""
    labels: dict[str, dict[str, int]] = {q: {} for q in mapping_questions(qrels) or ()}
    labels.update(io.read_qrels(qrels))
    return labels


def at_units(run: Any, qrels: Any, unit_of: Mapping[Hashable, Hashable]) -> tuple[dict, dict]:
    """A run and its labels at a coarser unit: IDs mapped (first occurrence kept), labels lifted (max).

    >>> at_units({"q1": ["a1", "a2", "b1"]}, {"q1": {"a2": 2, "b1": 0}}, {"a1": "A", "a2": "A", "b1": "B"})
    ({'q1': ['A', 'B']}, {'q1': {'A': 2, 'B': 0}})

    Raises ``ValueError`` for an ID the unit map lacks (as :func:`ragmath.units.to_units` does) and for
    a chain in the map, an ID mapped to a unit that is itself mapped on
    (:func:`ragmath.units.check_unit_map`).
    """
    check_unit_map(unit_of)
    runs = {q: to_units(r, unit_of) for q, r in _ranked(run).items()}
    return runs, {q: lift_labels(g, unit_of) for q, g in _labels(qrels).items()}


def name_runs(paths: Sequence[str]) -> dict[str, str]:
    """Name run files by their stem, or ``NAME=PATH``; equal names are refused.

    >>> name_runs(["runs/bm25.trec", "hybrid=runs/v2/run.trec"])
    {'bm25': 'runs/bm25.trec', 'hybrid': 'runs/v2/run.trec'}
    """
    named: dict[str, str] = {}
    for text in paths:
        name, sep, path = text.partition("=")
        if not sep or os.path.exists(text):
            name, path = Path(text).stem, text
        if not name or not path:
            raise ValueError(f"cannot name the run {text!r}: give PATH or NAME=PATH with both parts")
        if name in named:
            raise ValueError(f"two runs are named {name!r} ({named[name]} and {path}); name them with "
                             f"NAME=PATH, e.g. {name}-v2={path}")
        named[name] = path
    return named


def markdown(table: pd.DataFrame, digits: int = 3) -> str:
    """A table as Markdown (index dropped; numbers to ``digits`` places; ``|`` and line breaks escaped).

    >>> print(markdown(pd.DataFrame({"a": [0.5], "b": ["x"]})), end="")
    | a | b |
    |---|---|
    | 0.500 | x |
    """
    def cell(value: Any) -> str:  # a | or a line break in a name must not end the cell or the row
        text = f"{value:.{digits}f}" if isinstance(value, float) else str(value)
        text = text.replace("\\", "\\\\").replace("|", "\\|")
        return text.replace("\r\n", "<br>").replace("\n", "<br>").replace("\r", "<br>")

    rows = [" | ".join(cell(v) for v in row) for row in table.itertuples(index=False)]
    head = ["| " + " | ".join(cell(c) for c in table.columns) + " |", "|" + "---|" * len(table.columns)]
    return "\n".join(head + [f"| {row} |" for row in rows]) + "\n"


#: The columns of :meth:`Comparison.summary`, in order.
SUMMARY_COLUMNS = ("system", "metric", "mean [CI]", "Judged@K", "labelled", "diff [CI]", "p", "p_holm",
                   "W/T/L", "effect")

#: Every word of a comparison's report (:meth:`Comparison.summary`, :meth:`~Comparison.notes`,
#: :meth:`~Comparison.to_markdown`), by name: the column names, the baseline's cell, the ``labelled`` cell
#: ("3 of 35": the version's questions with labels, of the questions it was asked), the notes' templates
#: (their ``{fields}`` filled in) and the sign-flip test's two descriptions. A caller passes ``words=``
#: with any of these names to say them otherwise (the workbook passes its Chinese); the core says English.
REPORT_WORDS: dict[str, str] = {
    **{column: column for column in SUMMARY_COLUMNS},
    "baseline": "baseline",
    "labelled.of": "{labelled} of {asked}",
    "note.baseline": "baseline {baseline}; {n} questions in every mean",
    "note.test": "p: two-sided paired sign-flip test ({tests}); p_holm: p adjusted by Holm's method across "
                 "this table's comparisons ({comparisons})",
    "note.missing": "{name}: missing from the run, so scored 0 ({n}): {questions}",
    "note.no_answer": "no relevant label, so outside every mean; Judged@K counts them ({n}): {questions}",
    "note.labelled": "{names}: {labelled} of {asked} questions labelled; the means and Judged@K are over the "
                     "labelled questions only; {unlabelled} not labelled (unjudged, not scored): {questions}",
    "note.warning": "warning: {system} Judged@{k} = {judged:.3f} is below 0.9 x the baseline's "
                    "{baseline:.3f}: its score rests on unlabelled items (label its pool)",
    "note.columns": "columns: mean [CI] is the mean over questions with its 95% bootstrap interval; "
                    "Judged@K the labelled share of each top K; labelled how many of the questions asked "
                    "have labels; diff [CI] the mean of the per-question differences from the baseline, "
                    "with its interval; p the two-sided paired sign-flip test's; p_holm that p adjusted by"
                    " Holm's method for every comparison in the table; W/T/L the questions where the "
                    "version is above, equal to and below the baseline; effect the mean difference over "
                    "the standard deviation of the differences (Cohen's d_z)",
    "test.exact": "exact: all {total} sign flips of {n} non-zero differences",
    "test.random": "{resamples} random sign flips (seed {seed})",
    "test.separator": "; ",
}

_TEST_FORMS = {"exact": re.compile(r"exact: all (?P<total>[\d,]+) sign flips of (?P<n>\d+) "
                                  r"non-zero differences"),
               "random": re.compile(r"(?P<resamples>[\d,]+) random sign flips \(seed (?P<seed>-?\d+)\)")}


def _test_kind(test: str) -> str:
    return next((kind for kind, form in _TEST_FORMS.items() if form.fullmatch(test)), "other")


def _test_fields(test: str) -> dict[str, str]:
    kind = _test_kind(test)
    return _TEST_FORMS[kind].fullmatch(test).groupdict() if kind != "other" else {}


def report_words(words: Mapping[str, str] | None = None) -> dict[str, str]:
    """:data:`REPORT_WORDS` with ``words`` put in their place.

    >>> report_words({"baseline": "基线"})["baseline"], report_words()["p"]
    ('基线', 'p')

    Raises ``ValueError`` for a name :data:`REPORT_WORDS` does not have (a typo would stay English unseen)
    and for a template whose ``{fields}`` differ from the English one's.
    """
    said = dict(REPORT_WORDS)
    if words is None:
        return said
    unknown = sorted(set(words) - set(REPORT_WORDS))
    if unknown:
        raise ValueError(f"words: no report word {unknown[0]!r}; the names are {sorted(REPORT_WORDS)}")
    for name, text in words.items():
        if not isinstance(text, str):
            raise TypeError(f"words[{name!r}] must be text, got {type(text).__name__}")
        if _fields(text) != _fields(REPORT_WORDS[name]):
            raise ValueError(f"words[{name!r}] fills {sorted(_fields(text))}, not the fields "
                             f"{sorted(_fields(REPORT_WORDS[name]))} of {REPORT_WORDS[name]!r}")
        said[name] = text
    return said


def _fields(template: str) -> set[str]:
    import string

    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@dataclass(frozen=True)
class Comparison:
    """The result of :func:`compare`: the systems' means and the comparisons against the baseline.

    ``systems`` has one row per version and metric: name, metric, mean, low, high, questions, judged,
    labelled, asked; ``comparisons`` one row per other version and metric: system, baseline, metric, diff,
    low, high, p, p_holm, wins, ties, losses, effect_size, questions, judged, judged_baseline,
    judged_warning, labelled, asked, test;

    where
      - mean, low, high are the version's mean over the answerable labelled questions and its interval,
        ``questions`` how many questions that mean is over,
      - judged is the version's mean Judged@K at the metric's K: the mean over its ``labelled`` questions
        only (ir_measures' definition), the no-answer ones included,
      - labelled is how many questions of the version's run have labels (the labels name the question:
        at least one grade, 0 included), asked how many questions its run holds: the asked - labelled
        others are unjudged, in no mean and in no Judged@K (a note names them),
      - in ``comparisons``: judged, labelled and asked are the version's, judged_baseline the baseline's.

    ``missing``, ``no_answer`` and ``unjudged`` list the questions kept apart (by version for the first
    and the last), as :func:`ragmath.evaluate` does.
    """

    systems: pd.DataFrame
    comparisons: pd.DataFrame
    per_question: dict[str, pd.DataFrame]
    baseline: str
    missing: dict[str, list] = field(default_factory=dict)
    no_answer: list = field(default_factory=list)
    unjudged: dict[str, list] = field(default_factory=dict)

    def changes(self, system: str, metric: str) -> pd.DataFrame:
        """Per question: the baseline's score, the system's and the change, largest loss first."""
        base, other = self.per_question[self.baseline][metric], self.per_question[system][metric]
        table = pd.DataFrame({self.baseline: base, system: other, "change": other - base})
        return table.sort_values(["change"], kind="stable")

    def table(self) -> pd.DataFrame:
        """One row per version and metric: its mean and interval, and (others) the comparison's columns."""
        paired = self.comparisons.rename(columns={"system": "name", "low": "diff_low", "high": "diff_high"})
        systems_own = ("baseline", "questions", "judged", "labelled", "asked")  # systems has them already
        keep = [c for c in paired.columns if c not in systems_own]
        table = self.systems.merge(paired[keep], on=["name", "metric"], how="left")
        for column in ("wins", "ties", "losses"):  # whole counts (the merge made them float)
            table[column] = table[column].astype("Int64")
        return table.rename(columns={"name": "system"})

    def summary(self, digits: int = 3, words: Mapping[str, str] | None = None) -> pd.DataFrame:
        """The :meth:`table` as text: ``mean [low, high]``, ``W/T/L``; ``!`` marks a Judged@K warning.

        Beside Judged@K, ``labelled`` reads "3 of 35": the version's questions with labels, of the questions
        it was asked (its run's); Judged@K and the means are over the labelled ones only.

        ``words``: replacements for the words of :data:`REPORT_WORDS` (the column names and the baseline's
        ``baseline`` cell), e.g. a translation; the rest stay English.
        """
        said = report_words(words)

        def num(v: float, sign: str = "") -> str:
            return "" if pd.isna(v) else f"{v:{sign}.{digits}f}"

        rows = [{
            "system": r.system, "metric": r.metric,
            "mean [CI]": f"{num(r.mean)} [{num(r.low)}, {num(r.high)}]",
            "Judged@K": num(r.judged) + ("!" if not pd.isna(r.diff) and bool(r.judged_warning) else ""),
            "labelled": said["labelled.of"].format(labelled=r.labelled, asked=r.asked),
            "diff [CI]": said["baseline"] if pd.isna(r.diff) else
            f"{num(r.diff, '+')} [{num(r.diff_low, '+')}, {num(r.diff_high, '+')}]",
            "p": num(r.p), "p_holm": num(r.p_holm), "W/T/L": "" if pd.isna(r.diff) else
            f"{r.wins}/{r.ties}/{r.losses}", "effect": num(r.effect_size),
        } for r in self.table().itertuples(index=False)]
        return pd.DataFrame(rows).rename(columns={c: said[c] for c in SUMMARY_COLUMNS})

    def to_markdown(self, digits: int = 3, words: Mapping[str, str] | None = None) -> str:
        """The :meth:`summary` as a Markdown table, then the :meth:`notes` (what it rests on); ``words`` as
        :meth:`summary` and :meth:`notes` take them."""
        return (markdown(self.summary(digits, words)) + "\n"
                + "".join(f"- {note}\n" for note in self.notes(words)))

    def notes(self, words: Mapping[str, str] | None = None) -> list[str]:
        """What the table rests on: the questions labelled, the test, Holm's family, the questions kept apart,
        Judged@K warnings, and last what each column says.

        When a version was asked questions that have no label, one line says how many of its questions are
        labelled, that the means and Judged@K are over those only, and which are not (versions with the
        same questions share the line).

        ``words``: replacements for the note templates of :data:`REPORT_WORDS` (``note.*``: the same
        ``{fields}``), e.g. a translation.
        """
        said = report_words(words)
        tests = said["test.separator"].join(said.get("test." + _test_kind(t), t).format(**_test_fields(t))
                          for t in dict.fromkeys(self.comparisons["test"]))
        out = [said["note.baseline"].format(baseline=self.baseline, n=len(self.per_question[self.baseline]))]
        out += self._labelled_notes(said)
        out.append(said["note.test"].format(tests=tests, comparisons=len(self.comparisons)))
        out += [said["note.missing"].format(name=name, n=len(qs), questions=name_list(qs))
                for name, qs in self.missing.items() if qs]
        if self.no_answer:
            out.append(said["note.no_answer"].format(n=len(self.no_answer),
                                                     questions=name_list(self.no_answer)))
        out += [said["note.warning"].format(system=r.system, k=r.metric.split("@")[1], judged=r.judged,
                                            baseline=r.judged_baseline)
                for r in self.comparisons.itertuples() if r.judged_warning]
        out.append(said["note.columns"])
        return list(dict.fromkeys(out))

    def _labelled_notes(self, said: Mapping[str, str]) -> list[str]:
        """One ``note.labelled`` line per set of versions asked the same questions, some unlabelled."""
        counts = self.systems.drop_duplicates("name").set_index("name")[["labelled", "asked"]]
        shared: dict[tuple, list[str]] = {}
        for name, row in counts.iterrows():
            unjudged = tuple(self.unjudged.get(name, ()))
            if row["labelled"] < row["asked"]:
                shared.setdefault((int(row["labelled"]), int(row["asked"]), unjudged), []).append(str(name))
        return [said["note.labelled"].format(names=", ".join(names), labelled=labelled, asked=asked,
                                             unlabelled=asked - labelled, questions=name_list(unjudged))
                for (labelled, asked, unjudged), names in shared.items()]

    def by_group(self, groups: Mapping[Hashable, Hashable]) -> pd.DataFrame:
        """Per group (:func:`by_group`): each version's mean and each difference from the baseline."""
        base, columns = self.per_question[self.baseline], {}
        for name, scores in self.per_question.items():
            for metric in scores.columns:
                columns[f"{name} {metric}"] = scores[metric]
                if name != self.baseline:
                    columns[f"{name} − {self.baseline} {metric}"] = scores[metric] - base[metric]
        return by_group(pd.DataFrame(columns), groups)

    def to_dict(self) -> dict:
        """The JSON form: ``{"systems": [...], "comparisons": [...], "missing", "no_answer", "unjudged"}``
        (each row's ``labelled`` and ``asked`` counts included; ``low``, ``high`` as ``ci``)."""
        def with_ci(row: dict) -> dict:
            row["ci"] = [row.pop("low"), row.pop("high")]
            return json_numbers(row)

        return {"systems": [with_ci(row) for row in self.systems.to_dict("records")],
                "comparisons": [with_ci(row) for row in self.comparisons.to_dict("records")],
                "missing": self.missing, "no_answer": self.no_answer, "unjudged": self.unjudged}


def compare(runs: Mapping[str, Any] | Sequence[str], qrels: Any, metrics: Sequence[str], *,
            baseline: str | None = None, seed: int = 0, n_resamples: int = 10_000,
            confidence: float = 0.95, gain: str = "exp") -> Comparison:
    """Compare every version with a baseline on the same labelled questions.

    For each version and metric: the mean with a percentile bootstrap interval over questions
    (:func:`ragmath.stats.bootstrap_interval`). Against the baseline: the mean paired difference
    d̄ = (1/n) Σ_i (s_i − b_i) with a percentile bootstrap interval (:func:`ragmath.stats.paired_bootstrap`),
    the two-sided sign-flip p (:func:`sign_flip_p`), Holm's p over every comparison in the table
    (:func:`holm`), wins / ties / losses (s_i > b_i, =, <), the effect size d̄ / sd(s − b), and each side's
    mean Judged@K (from :func:`ragmath.evaluate`, at each metric's K) with a warning when the version's
    is below 0.9 × the baseline's. Judged@K itself is shown, not compared: ask for retrieval metrics.
    Beside it, each version's ``labelled`` and ``asked`` counts: how many of the questions in its run have
    labels (Judged@K and the means are over those only; :class:`Comparison` says more).

    ``runs`` maps names to runs (anything :func:`ragmath.evaluate` accepts), or is a list of run files
    named by :func:`name_runs`; ``baseline`` defaults to the first. Questions missing from a version
    score 0 there and are listed in ``.missing``.

    >>> runs = {"A": {"q1": ["x", "a"], "q2": ["b"]}, "B": {"q1": ["a"], "q2": ["b"]}}
    >>> result = compare(runs, {"q1": {"a": 1}, "q2": {"b": 1}}, ["MRR@2"])
    >>> row = result.to_dict()["comparisons"][0]
    >>> row["diff"], row["ci"], row["p"], (row["wins"], row["ties"], row["losses"])
    (0.25, [0.0, 0.5], 1.0, (1, 1, 0))

    Raises ``ValueError`` for fewer than two runs, an unknown baseline, Judged@K among ``metrics``, and
    as ``evaluate`` does.
    """
    named = dict(runs) if isinstance(runs, Mapping) else name_runs(runs)
    if len(named) < 2:
        raise ValueError(f"compare needs a baseline and at least one other run, got {len(named)}")
    base = next(iter(named)) if baseline is None else baseline
    if base not in named:
        raise ValueError(f"baseline {base!r} is not among the runs {list(named)}")
    parsed = parse_metrics(metrics)
    if any(METRICS[c.lower()].averaged_over != "answerable" for c, _ in parsed):
        raise ValueError("Judged@K is shown beside every comparison (at each metric's K), not compared: "
                         "ask compare for retrieval metrics such as nDCG@10")
    names = [f"{c}@{k}" for c, k in parsed]
    judged_names = [f"Judged@{k}" for k in dict.fromkeys(k for _, k in parsed)]
    labels = _labels(qrels)
    evaluations = {name: evaluate(run, labels, names + judged_names, gain=gain)
                   for name, run in named.items()}
    judged_at = {(name, int(j.split("@")[1])): float(ev.means[j]) for name, ev in evaluations.items()
                 for j in judged_names}
    # Judged@K has a value for each labelled question of the run, and for no other question
    labelled = {name: int(ev.per_question[judged_names[0]].notna().sum()) for name, ev in evaluations.items()}
    asked = {name: labelled[name] + len(ev.unjudged) for name, ev in evaluations.items()}
    scored = {name: ev.per_question[names].dropna(how="all") for name, ev in evaluations.items()}
    per_question = {name: table.reindex(scored[base].index).astype(float) for name, table in scored.items()}
    systems, comparisons = [], []
    for name in [base, *[n for n in named if n != base]]:
        for metric in names:
            k, values = int(metric.split("@")[1]), per_question[name][metric]
            mean, low, high = bootstrap_interval(values, n_resamples=n_resamples, confidence=confidence,
                                                 seed=seed)
            systems.append({"name": name, "metric": metric, "mean": mean, "low": low, "high": high,
                            "questions": len(values), "judged": judged_at[name, k],
                            "labelled": labelled[name], "asked": asked[name]})
            if name == base:
                continue
            diffs = (values - per_question[base][metric]).to_numpy()
            paired = paired_bootstrap(per_question[base][metric], values, n_resamples=n_resamples,
                                      confidence=confidence, seed=seed)
            p, test = sign_flip_p(diffs, n_resamples=n_resamples, seed=seed)
            sd = float(diffs.std(ddof=1)) if diffs.size > 1 else math.nan
            comparisons.append({
                "system": name, "baseline": base, "metric": metric, "diff": paired.mean_diff,
                "low": paired.low, "high": paired.high, "p": p, "p_holm": math.nan,
                "wins": int((diffs > 0).sum()), "ties": int((diffs == 0).sum()),
                "losses": int((diffs < 0).sum()), "effect_size": paired.mean_diff / sd if sd else math.nan,
                "questions": int(diffs.size), "judged": judged_at[name, k],
                "judged_baseline": judged_at[base, k],
                "judged_warning": judged_at[name, k] < 0.9 * judged_at[base, k],
                "labelled": labelled[name], "asked": asked[name], "test": test,
            })
    table = pd.DataFrame(comparisons)  # never empty: two runs or more, one metric or more
    table["p_holm"] = holm(table["p"])
    return Comparison(
        systems=pd.DataFrame(systems), comparisons=table, per_question=per_question, baseline=base,
        missing={n: list(ev.missing) for n, ev in evaluations.items()},
        no_answer=list(evaluations[base].no_answer),
        unjudged={n: list(ev.unjudged) for n, ev in evaluations.items()},
    )
