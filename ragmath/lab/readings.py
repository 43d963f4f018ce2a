"""Readings: the sentences after each results table, built from the computed numbers.

Each function returns ``Claim`` objects (what is compared, who leads, the numbers, whether it
matches what the article expects) and each claim carries its sentence, so a reading cannot drift
from its table: the tests check every claim against the table it reads. ``as_markdown`` joins the
sentences for display in a notebook.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ragmath.lab.ablation import P_HOLM, P_SIGN_FLIP
from ragmath.lab.messages import join_names, language, message

__all__ = [
    "Claim",
    "leader",
    "compare",
    "read_ablation",
    "read_first_ranks",
    "read_grid",
    "read_paired",
    "read_leakage",
    "read_intervals",
    "as_markdown",
    # notebooks 03, 04, 05b and 06
    "read_rank_one_changes",
    "read_repairs",
    "read_rerank_entries",
    "read_paraphrase_cases",
    "read_knob",
    "read_rule_against_frozen",
    "read_term_match",
    "read_tokenizer_ranks",
    "read_three_chunks",
    "read_userdict",
    "read_same_mrr",
]


@dataclass(frozen=True)
class Claim:
    """One statement a reading makes: on ``metric``, ``leaders`` lead among ``values``.

    ``expected``: the version(s) the article expects to lead (empty: no expectation);
    ``matches``: whether the leaders include an expected one (None without expectation).
    """

    metric: str
    leaders: tuple[str, ...]
    values: Mapping[str, float]
    sentence: str
    expected: tuple[str, ...] = ()
    matches: bool | None = None
    extra: Mapping[str, float] = field(default_factory=dict)


def leader(values: Mapping[str, float], *, higher_is_better: bool = True) -> tuple[str, ...]:
    """The keys with the best value (all of them on a tie, to 9 decimals); NaN never leads.

    >>> leader({"C": 0.8, "D": 0.8, "A": 0.5})
    ('C', 'D')
    """
    clean = {k: round(float(v), 9) for k, v in values.items() if v == v}
    if not clean:
        return ()
    best = max(clean.values()) if higher_is_better else min(clean.values())
    return tuple(k for k, v in clean.items() if v == best)


def _fmt(value: float, digits: int = 3) -> str:
    return message("common.not_available") if value != value else f"{value:.{digits}f}"


def _names(keys: Sequence[str]) -> str:
    return join_names(keys)


def _listing(items: Sequence[str]) -> str:
    """Items of a listing joined with the reader's comma ("A 0.5, B 0.7" / "A 0.5、B 0.7")."""
    return message("common.list_separator").join(items)


def _end(text: str) -> str:
    """``text`` closed as a sentence, with the reader's full stop."""
    return message("readings.sentence_end", text=text)


def _shown(name: str) -> str:
    """A metric or split name as the reader sees it: the words translated, the rest (nDCG@5) as is."""
    words = {"answer accuracy": message("readings.metric.answer_accuracy"),
             "citation support": message("readings.metric.citation_support"),
             "correct refusals": message("readings.metric.correct_refusals"),
             "dev": message("readings.split.dev"), "holdout": message("readings.split.holdout")}
    return words.get(name, name)


def compare(table: pd.DataFrame, metric: str, versions: Sequence[str], *,
            expected: Sequence[str] = (), why: Mapping[bool, str] | None = None,
            digits: int = 3) -> Claim:
    """Compare ``versions`` on ``metric`` (a column of ``table``, one row per version).

    The sentence names the leader(s) with every value and, when the article expects a leader,
    says whether the table matches; ``why`` maps matches (True/False) to an explanation, a sentence
    in the reader's language (a ``message(...)``), added as it is.

    >>> t = pd.DataFrame({"MRR@5": [0.7, 0.8]}, index=["C", "D"])
    >>> compare(t, "MRR@5", ["C", "D"], expected=["D"]).sentence
    'On MRR@5, D leads (C 0.700, D 0.800); the article expects D to lead: this matches.'

    Raises ``ValueError`` when no version has a value (every one NaN): there is no leader to name.
    """
    values = {v: float(table.loc[v, metric]) for v in versions}
    leaders = leader(values)
    if not leaders:
        raise ValueError(message("readings.compare.no_values", names=_names(list(versions)),
                                 metric=_shown(metric)))
    listing = _listing([f"{v} {_fmt(x, digits)}" for v, x in values.items()])
    sentence = message("readings.compare.leads" if len(leaders) == 1 else "readings.compare.tie",
                       metric=_shown(metric), names=_names(leaders), listing=listing)
    matches = None
    if expected:
        matches = bool(set(leaders) & set(expected))
        sentence = message("readings.compare.expected_match" if matches
                           else "readings.compare.expected_mismatch",
                           text=sentence, expected=_names(expected))
    sentence = _end(sentence)
    if why and matches is not None and why.get(matches):
        sentence = message("readings.two_sentences", first=sentence, second=why[matches])
    return Claim(metric, leaders, values, sentence, tuple(expected), matches)


def read_ablation(table: pd.DataFrame, *, top_k: int = 5, rerank_depth: int | None = None) -> list[Claim]:
    """Read an ablation table (``AblationResult.table``) version by version, as the article asks.

    Claims: C against A and B on Recall@K (do the two retrievers complement each other?); D against
    C on MRR@K and nDCG@K (does the reranker move evidence up?); Recall@M of C and D (a reranker only
    reorders); answer accuracy and citation support of A–D; the Oracle's distance to D and to 100 %.
    """
    k = top_k
    rows = []
    n_ans = int(table.loc["D", "answerable"]) if "answerable" in table else 0
    rows.append(compare(table, f"Recall@{k}", ["A", "B", "C"], expected=["C"], why={
        True: message("readings.ablation.fusion_kept"),
        False: message("readings.ablation.fusion_no_gain"),
    }))
    for metric in (f"MRR@{k}", f"nDCG@{k}"):
        rows.append(compare(table, metric, ["C", "D"], expected=["D"], why={
            True: message("readings.ablation.rerank_up"),
            False: message("readings.ablation.rerank_not_up"),
        }))
    if rerank_depth is not None:
        metric = f"Recall@{rerank_depth}"
        c, d = float(table.loc["C", metric]), float(table.loc["D", metric])
        same = round(c, 12) == round(d, 12)
        sentence = (message("readings.ablation.recall_m_equal", metric=metric, c=_fmt(c), d=_fmt(d),
                            depth=rerank_depth) if same else
                    message("readings.ablation.recall_m_differ", metric=metric, c=_fmt(c), d=_fmt(d)))
        rows.append(Claim(metric, leader({"C": c, "D": d}), {"C": c, "D": d}, sentence, ("C", "D"), same))
    if "answer accuracy" in table:
        correct = {v: int(table.loc[v, "answers correct"]) for v in "ABCD"}
        claim = compare(table, "answer accuracy", list("ABCD"))
        spread = max(correct.values()) - min(correct.values())
        sentence = message(
            "readings.ablation.accuracy", reading=claim.sentence[:-1],  # its full stop left out
            correct=_listing([message("readings.ablation.correct_item", version=v, correct=x, n=n_ans)
                              for v, x in correct.items()]),
            spread=spread, n=n_ans, weight=100 / max(n_ans, 1))
        rows.append(Claim(claim.metric, claim.leaders, claim.values, sentence,
                          extra={"spread (questions)": spread}))
        rows.append(compare(table, "citation support", list("ABCD")))
        oracle = int(table.loc["Oracle", "answers correct"])
        d = correct["D"]
        rows.append(Claim(
            "answers correct", leader({"D": d, "Oracle": oracle}), {"D": d, "Oracle": oracle},
            message("readings.ablation.oracle", oracle=oracle, n=n_ans, d=d, headroom=oracle - d,
                    losses=n_ans - oracle),
            extra={"generator losses": n_ans - oracle, "retrieval headroom": oracle - d}))
    return rows


def read_first_ranks(ranks: pd.DataFrame, versions: Sequence[str] = ("A", "B", "C", "D"),
                     *, what: str | None = None, expected: Sequence[str] = (),
                     sources: Sequence[str] = ("A",)) -> list[Claim]:
    """Read a table of first-relevant ranks (rows: questions, columns: versions).

    Claims: how many questions each version answers at rank 1 and within the top 5 (the leader on
    each); then, for each of ``sources``, which of its rank-1 hits C keeps
    (``read_rank_one_changes``). ``what`` names the questions in the reader's language ("questions"
    when not given).
    """
    what = message("readings.what.questions") if what is None else what
    n = len(ranks)
    out = []
    for label, shown, limit in (("rank 1", message("readings.first_ranks.rank_1"), 1),
                                ("top 5", message("readings.first_ranks.top_5"), 5)):
        counts = {v: float((ranks[v] <= limit).sum()) for v in versions}
        leaders = leader(counts)
        listing = _listing([f"{v} {int(x)}/{n}" for v, x in counts.items()])
        sentence = message("readings.first_ranks.counts", label=shown, n=n, what=what, listing=listing,
                           names=_names(leaders))
        matches = bool(set(leaders) & set(expected)) if expected else None
        if expected:
            sentence = message("readings.first_ranks.expected_match" if matches
                               else "readings.first_ranks.expected_mismatch",
                               text=sentence, expected=_names(expected))
        out.append(Claim(f"first relevant at {label}", leaders, counts, _end(sentence), tuple(expected),
                         matches))
    if "C" in ranks:
        out.extend(read_rank_one_changes(ranks, sources=[v for v in sources if v in ranks],
                                         what=what))
    return out


def read_grid(edges: pd.DataFrame, grid: pd.DataFrame, metric: str) -> list[Claim]:
    """Read ``grid_edges``: where each chosen value sits, and how much the choice matters."""
    sides = {"lowest": message("readings.grid.side_lowest"), "highest": message("readings.grid.side_highest"),
             "only": message("readings.grid.side_only")}
    out = []
    for knob, row in edges.iterrows():
        profile = [float(x) for x in str(row[f"best {metric} at each value"]).split(", ")]
        spread = max(profile) - min(profile)
        position = row["position"]
        flat = spread < 1e-9
        side = sides.get(position.split()[0], position.split()[0])
        if position == "inside":
            tail = message("readings.grid.inside")
        elif flat:
            tail = message("readings.grid.edge_flat", side=side)
        else:
            tail = message("readings.grid.edge", side=side)
        sentence = message("readings.grid.position", knob=knob, chosen=row["chosen"], tail=tail,
                           metric=metric, spread=spread)
        sentence = message("readings.grid.flat_end", text=sentence) if flat else _end(sentence)
        out.append(Claim(f"{knob} position", (str(row["chosen"]),), {"spread": spread}, sentence,
                         extra={"on edge": float(position != "inside")}))
    best = grid[metric].max()
    n_best = int((grid[metric].round(9) == round(best, 9)).sum())
    out.append(Claim(metric, (), {"best": float(best), "settings at best": float(n_best)},
                     message("readings.grid.best", n_best=n_best, total=len(grid), metric=metric, best=best)))
    return out


def _p_text(row: Mapping[str, Any], family: int) -> str:
    """``sign-flip p = 0.004, Holm over the 3 comparisons 0.012`` (Holm left out for a family of one)."""
    text = message("readings.p.sign_flip", p=row[P_SIGN_FLIP])
    return message("readings.p.with_holm", text=text, family=family, holm=row[P_HOLM]) if family > 1 else text


def read_paired(boot: pd.DataFrame, *, stored: bool = False) -> list[Claim]:
    """Read ``ablation.paired_table`` rows: each difference with its interval, sign-flip p and Holm's p.

    "Told apart" needs both: the interval leaves out 0 and Holm's p (the p for a single row) is below
    0.05; when only one holds, the sentence says they disagree and the difference is not settled.

    ``stored``: the rows were recomputed from a stored holdout opening's per-question scores; a last
    claim says so and that the opening itself showed paired-bootstrap p-values.

    >>> t = pd.DataFrame({"comparison": ["D − C"], "mean diff": [0.07], "low": [0.03], "high": [0.12],
    ...                   "questions": [43], "wins": [17], "ties": [24], "losses": [2],
    ...                   P_SIGN_FLIP: [0.004], P_HOLM: [0.004]})
    >>> read_paired(t)[0].sentence[:60]
    'D − C: +0.070 [+0.030, +0.120] over 43 questions (17 better,'
    """
    out = []
    p_name = message("readings.paired.holm_p") if len(boot) > 1 else message("readings.paired.the_p")
    for _, r in boot.iterrows():
        apart, low_p = r["low"] > 0 or r["high"] < 0, r[P_HOLM] < 0.05
        where = message("readings.paired.where", split=_shown(str(r["split"]))) if "split" in r else ""
        if apart and low_p:
            verdict = message("readings.paired.apart", p_name=p_name)
        elif apart:
            verdict = message("readings.paired.apart_not_low", p_name=p_name)
        elif low_p:
            verdict = message("readings.paired.low_not_apart", p_name=p_name)
        else:
            verdict = message("readings.paired.not_apart")
        sentence = message("readings.paired.row", comparison=r["comparison"], where=where,
                           mean=r["mean diff"], low=r["low"], high=r["high"], n=int(r["questions"]),
                           wins=int(r["wins"]), ties=int(r["ties"]), losses=int(r["losses"]),
                           p=_p_text(r, len(boot)), verdict=verdict)
        out.append(Claim(str(r["comparison"]), (), {"mean diff": float(r["mean diff"]),
                                                    "low": float(r["low"]), "high": float(r["high"]),
                                                    "p": float(r[P_SIGN_FLIP]), "p_holm": float(r[P_HOLM])},
                         sentence, extra={"excludes 0": float(apart)}))
    if stored:
        out.append(Claim("stored", (), {"rows": float(len(boot))}, message("readings.paired.stored")))
    return out


def read_leakage(leak: pd.DataFrame, metric: str) -> list[Claim]:
    """Read ``leakage_experiment``: is the random split's estimate higher, and how often?"""
    diff = leak["difference (random − grouped)"]
    higher = int((diff > 0).sum())
    mean = float(diff.mean())
    random_mean = float(leak[f"random: {metric}"].mean())
    grouped_mean = float(leak[f"grouped: {metric}"].mean())
    twins = float(leak["random: test questions with a twin in fitting"].mean())
    numbers = {"seeds": len(leak), "metric": metric, "random": random_mean, "grouped": grouped_mean,
               "mean": mean, "higher": higher, "twins": twins}
    if "random: test questions" in leak:
        sentence = message("readings.leakage.sentence_of_total", total=leak["random: test questions"].mean(),
                           **numbers)
    else:
        sentence = message("readings.leakage.sentence", **numbers)
    return [Claim("difference (random − grouped)", ("random",) if mean > 0 else ("grouped",),
                  {"random": random_mean, "grouped": grouped_mean}, sentence,
                  extra={"mean difference": mean, "seeds random higher": float(higher)})]


def read_intervals(intervals: pd.DataFrame) -> list[Claim]:
    """Read Wilson intervals (columns: version, rate, x, N, value, low, high): overlaps per rate."""
    out = []
    for rate, part in intervals.groupby("rate", sort=False):
        part = part.set_index("version")
        values = part["value"].astype(float).to_dict()
        leaders = leader(values)
        top = leaders[0]
        overlap = [v for v in part.index if v not in leaders
                   and part.loc[v, "high"] >= part.loc[top, "low"]]
        widest = float((part["high"] - part["low"]).max())
        sentence = message(
            "readings.intervals.sentence", rate=_shown(rate), names=_names(leaders), value=values[top],
            low=part.loc[top, "low"], high=part.loc[top, "high"], widest=widest,
            overlap=(message("readings.intervals.overlap", names=_names(overlap)) if overlap
                     else message("readings.intervals.no_overlap")))
        out.append(Claim(rate, leaders, values, sentence,
                         extra={"overlapping": float(len(overlap)), "widest": widest}))
    return out


def as_markdown(claims: Sequence[Claim]) -> str:
    """The claims' sentences as a Markdown list.

    >>> as_markdown([Claim("m", ("A",), {"A": 1.0}, "A leads.")])
    '- A leads.'
    """
    return "\n".join(f"- {c.sentence}" for c in claims)


# ============================================================== notebook 07 (teach7): its readings
# Every sentence notebook 07 shows about a number is built here, from the table it reads.

__all__ += [  # the 07 section adds its names here, apart from the other sections'
    "CHART_TITLES_07",
    "read_generations",
    "read_fixed_leaks",
    "read_frozen_choice",
    "read_overlap",
    "read_types",
    "read_closing",
]


class _Words(Mapping[str, str]):
    """Words a reader sees (chart titles, table columns), looked up in the language chosen when they
    are read, not when the module was imported: ``words()`` gives them all, name -> text.

    >>> w = _Words(lambda: {"seed": message("readings.07.chart.seed")})
    >>> from ragmath.lab.messages import use_language
    >>> use_language("zh"); w["seed"]
    '随机种子'
    >>> use_language("en"); w["seed"]
    'seed'
    """

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


def _chart_titles_07() -> dict[str, str]:
    return {
        "dev intervals": message("readings.07.chart.dev_intervals"),
        "holdout intervals": message("readings.07.chart.holdout_intervals"),
        "leak": message("readings.07.chart.leak", leak="{leak}"),  # a template, filled by its user
        "leak y": message("readings.07.chart.leak_y"),
        "seed": message("readings.07.chart.seed"),
    }


#: Titles and axis labels of notebook 07's charts, in the language chosen when one is read
#: (``"leak"`` is a template with the field ``{leak}``).
CHART_TITLES_07: Mapping[str, str] = _Words(_chart_titles_07)


def read_generations(outcomes: Sequence[Sequence[float]], naive: tuple[float, float],
                     by_question: tuple[float, float]) -> list[Claim]:
    """Read repeated generations: how often a question's answers agree, and the two widths.

    ``outcomes``: one row per question, one 0/1 per generation; ``naive``: the Wilson interval
    counting every answer; ``by_question``: the bootstrap interval over questions.

    >>> (c,) = read_generations([[1, 1, 1], [0, 1, 0]], (0.3, 0.9), (0.2, 1.0))
    >>> c.extra["agree"]
    0.5
    """
    rows = [list(r) for r in outcomes]
    agree = sum(min(r) == max(r) for r in rows) / len(rows)
    naive_w, boot_w = naive[1] - naive[0], by_question[1] - by_question[0]
    answers = sum(len(r) for r in rows)
    verdict = (message("readings.07.generations.too_precise", questions=len(rows)) if naive_w < boot_w
               else message("readings.07.generations.not_narrower"))
    sentence = message("readings.07.generations", generations=len(rows[0]), agree=agree, questions=len(rows),
                       answers=answers, naive=naive_w, by_question=boot_w, verdict=verdict)
    return [Claim("interval width", ("questions",), {"answers": naive_w, "questions": boot_w}, sentence,
                  extra={"agree": agree})]


def read_fixed_leaks(rows: pd.DataFrame, metric: str) -> list[Claim]:
    """Read ``leakage_on_fixed_questions``: per leak, how often and by how much the leaky arm is
    higher on the same test questions, and how many per-seed intervals leave out 0."""
    out = []
    seeds = rows.index.get_level_values("seed").unique()
    for leak, part in rows.groupby(level="leak", sort=False):
        diff = part["difference"]
        higher = int((diff > 0).sum())
        above, below = int((part["low"] > 0).sum()), int((part["high"] < 0).sum())
        sentence = message("readings.07.fixed_leak", leak=leak, test_questions=part["test questions"].mean(),
                           metric=metric, higher=higher, seeds=len(part), mean=diff.mean(), low=diff.min(),
                           high=diff.max(), above=above, below=below)
        if leak.startswith("tuning"):
            sentence += message("readings.07.fixed_leak.tuning")
        out.append(Claim(f"leak: {leak}", ("leaky",) if diff.mean() > 0 else ("clean",),
                         {"mean difference": float(diff.mean())}, sentence,
                         extra={"seeds higher": float(higher), "intervals above 0": float(above),
                                "intervals below 0": float(below)}))
    twins = rows.groupby(level="seed").first()
    out.append(Claim("seeds", (), {"seeds": float(len(seeds))},
                     message("readings.07.fixed_leak.seeds",
                             with_twin=twins["test questions with a twin in fitting"].mean(),
                             test_questions=twins["test questions"].mean(),
                             twins=twins["twins in fitting"].mean(), seeds=len(seeds))))
    return out


def read_frozen_choice(row: Mapping[str, float], *, knob: str, frozen: float, default: float,
                       fixed: str) -> list[Claim]:
    """Read the frozen design against the rule "keep the default unless the paired interval
    excludes 0": ``row`` is the frozen value's row of ``ablation.knob_against_default`` on dev
    (``diff vs default``, ``low``, ``high``, the sign-flip p, ``questions``)."""
    mean, low, high = float(row["diff vs default"]), float(row["low"]), float(row["high"])
    p, questions = float(row[P_SIGN_FLIP]), int(row["questions"])
    excludes = low > 0 or high < 0
    chosen = frozen if excludes else default
    verdict = (message("readings.07.frozen_choice.picks_frozen", knob=knob, frozen=frozen) if excludes else
               message("readings.07.frozen_choice.keeps_default", knob=knob, default=default, frozen=frozen))
    sentence = message("readings.07.frozen_choice", knob=knob, frozen=frozen, default=default, fixed=fixed,
                       mean=mean, low=low, high=high, questions=questions, p=p, verdict=verdict)
    claims = [Claim(f"{knob}: frozen − default", (f"{chosen:g}",),
                    {"mean": mean, "low": low, "high": high, "p": p},
                    sentence, extra={"rule picks frozen": float(excludes)})]
    if not excludes:
        claims.append(Claim(
            "frozen design", (f"{frozen:g}",), {"frozen": float(frozen), "rule": float(default)},
            message("readings.07.frozen_choice.stands", knob=knob, frozen=frozen, default=default,
                    fixed=fixed)))
    return claims


def read_overlap(overlap: Mapping[str, object]) -> list[Claim]:
    """Read ``holdout_overlap``: positive labels shared with dev evidence, chunks added with it."""
    shared = list(overlap["shared with dev evidence"])
    total = int(overlap["holdout positive labels"])
    pairs = message("common.list_separator").join(f"{q} → {c}" for q, c in shared)
    claims = [Claim("shared labels", (), {"shared": float(len(shared)), "positive labels": float(total)},
                    message("readings.07.overlap.shared", shared=len(shared), total=total, pairs=pairs))]
    added = overlap["chunks added with the holdout"]
    if added is None:
        claims.append(Claim("added chunks", (), {}, message("readings.07.overlap.no_history")))
    else:
        n, seen = len(added), int(overlap["added chunks in the dev corpus"])
        labelled = int(overlap["dev labels on added chunks"])
        labels = (message("readings.07.overlap.added.unlabelled") if labelled == 0 else
                  message("readings.07.overlap.added.labelled", labelled=labelled))
        claims.append(Claim(
            "added chunks", (), {"added": float(n), "in dev corpus": float(seen),
                                 "dev labels": float(labelled)},
            message("readings.07.overlap.added", added=n, corpus=overlap["corpus chunks"], seen=seen,
                    labels=labels)))
    return claims


def read_types(intervals: pd.DataFrame, metric: str) -> list[Claim]:
    """Read per-type means with bootstrap intervals (``type_intervals``) against the article.

    Claims: the size of each type; paraphrases (the article: the vector list finds rewordings that
    BM25 misses); exact-ID questions (the article: fusion can push exact hits down, C below A); and
    how many types the intervals can separate, i.e. what such small groups can and cannot show.
    """
    t = intervals.set_index(["type", "version"])
    sizes = intervals.groupby("type", sort=True)["N"].max()
    listing = message("common.list_separator").join(f"{k} {v}" for k, v in sizes.items())
    out = [Claim("questions per type", (), {k: float(v) for k, v in sizes.items()},
                 message("readings.07.types.sizes", listing=listing, most=sizes.max(),
                         move_most=1 / sizes.max(), fewest=sizes.min(), move_fewest=1 / sizes.min()))]

    def shown(kind: str, v: str) -> str:
        r = t.loc[(kind, v)]
        return f"{v} {r['mean']:.3f} [{r['low']:.3f}, {r['high']:.3f}]"

    def overlap(kind: str, a: str, b: str) -> bool:
        return t.loc[(kind, a), "high"] >= t.loc[(kind, b), "low"] and \
            t.loc[(kind, b), "high"] >= t.loc[(kind, a), "low"]

    versions = list(dict.fromkeys(intervals["version"]))
    if "paraphrase" in sizes:
        values = {v: float(t.loc[("paraphrase", v), "mean"]) for v in versions}
        ranked = sorted(values, key=lambda v: (-values[v], v))
        together = all(overlap("paraphrase", ranked[0], v) for v in ranked[1:])
        vector_leads = ranked[0] == "B"
        lost = vector_leads and max(values["C"], values["D"]) < values["B"]
        out.append(Claim(
            f"paraphrase {metric}", leader(values), values,
            message("readings.07.types.paraphrase", n=sizes["paraphrase"], metric=metric,
                    order=" > ".join(shown("paraphrase", v) for v in ranked),
                    leader=(message("readings.07.types.paraphrase.vector_leads") if vector_leads else
                            message("readings.07.types.paraphrase.other_leads", leader=ranked[0])),
                    lost=(message("readings.07.types.paraphrase.lost", c=values["C"], d=values["D"])
                          if lost else ""),
                    separation=(message("readings.07.types.paraphrase.together") if together else
                                message("readings.07.types.paraphrase.clears"))),
            expected=("B",), matches=vector_leads))
    if "exact-id" in sizes:
        a, c = float(t.loc[("exact-id", "A"), "mean"]), float(t.loc[("exact-id", "C"), "mean"])
        pushed = c < a
        fields = {"n": sizes["exact-id"], "c": shown("exact-id", "C"), "a": shown("exact-id", "A")}
        if not pushed:
            sentence = message("readings.07.types.exact.not_below", **fields)
        elif overlap("exact-id", "A", "C"):
            sentence = message("readings.07.types.exact.below_overlapping", **fields)
        else:
            sentence = message("readings.07.types.exact.below", **fields)
        out.append(Claim(f"exact-id {metric}", leader({"A": a, "C": c}), {"A": a, "C": c}, sentence,
                         extra={"C below A": float(pushed)}))
    separated = []
    for kind in sizes.index:
        values = {v: float(t.loc[(kind, v), "mean"]) for v in versions if (kind, v) in t.index}
        top = leader(values)[0]
        if all(not overlap(kind, top, v) for v in values if v != top):
            separated.append(kind)
    which = message("readings.07.types.separated.which", names=join_names(separated)) if separated else ""
    out.append(Claim(
        "types separated", (), {"separated": float(len(separated)), "types": float(len(sizes))},
        message("readings.07.types.separated", separated=len(separated), types=len(sizes), which=which),
        extra={"separated": float(len(separated))}))
    return out


def read_closing(*, questions: int, answerable: int, opened: int, holdout: Mapping[str, float],
                 dev_value: float, accuracy: Mapping[str, float], oracle: Mapping[str, float],
                 pairs: pd.DataFrame, smallest_type: int) -> list[Claim]:
    """The closing note on the holdout: what its numbers support and what they do not.

    ``holdout``: D's nDCG@5 mean, low, high; ``accuracy``/``oracle``: x, N, value, low, high of the
    answer accuracy; ``pairs``: rows of ``ablation.paired_table`` (comparison, mean diff, low, high,
    the sign-flip p and Holm's p, wins, losses, questions, excludes 0).
    """
    out = [Claim("D nDCG@5", (), dict(holdout),
                 message("readings.07.closing.holdout", questions=questions, answerable=answerable,
                         opened=opened, mean=holdout["mean"], low=holdout["low"], high=holdout["high"],
                         dev=dev_value, x=int(accuracy["x"]), n=int(accuracy["N"]),
                         accuracy=accuracy["value"], accuracy_low=accuracy["low"],
                         accuracy_high=accuracy["high"], oracle_x=int(oracle["x"]), oracle_n=int(oracle["N"]),
                         oracle_low=oracle["low"], oracle_high=oracle["high"]))]

    def listed(rows: pd.DataFrame) -> str:
        def one(r: Mapping[str, Any]) -> str:
            fields = {"comparison": r["comparison"], "mean": r["mean diff"], "low": r["low"],
                      "high": r["high"], "p": r[P_SIGN_FLIP], "holm": r[P_HOLM]}
            return (message("readings.07.closing.pair_excludes", **fields) if r["excludes 0"] else
                    message("readings.07.closing.pair_includes", **fields))

        return (message("readings.07.semicolon").join(one(r) for _, r in rows.iterrows())
                or message("readings.07.closing.none"))

    apart = pairs["excludes 0"].astype(bool)
    settled = apart & (pairs[P_HOLM] < 0.05)
    out.append(Claim("supports", (), {"apart": float(settled.sum())},
                     message("readings.07.closing.supports", settled=listed(pairs[settled]),
                             unseparated=listed(pairs[~apart]))))
    edge = pairs[apart & ~settled]
    if len(edge):
        items = message("readings.07.semicolon").join(
            message("readings.07.closing.edge_item", comparison=r["comparison"], holm=r[P_HOLM],
                    changed=int(r["wins"] + r["losses"]), questions=int(r["questions"]))
            for _, r in edge.iterrows())
        out.append(Claim("interval against Holm", (), {r["comparison"]: float(r[P_HOLM])
                                                       for _, r in edge.iterrows()},
                         message("readings.07.closing.edge", items=items)))
    gap = abs(holdout["mean"] - dev_value)
    out.append(Claim("dev against holdout", (), {"holdout": holdout["mean"], "dev": dev_value},
                     message("readings.07.closing.holdout_higher", gap=gap) if holdout["mean"] > dev_value
                     else message("readings.07.closing.holdout_lower", gap=gap)))
    out.append(Claim("does not support", (), {"smallest type": float(smallest_type)},
                     message("readings.07.closing.does_not_support", smallest=smallest_type)))
    return out
# ======================================================= end of the notebook 07 (teach7) section


# ==== notebooks 03, 04, 05b and 06 ====================================================


# Each reading below takes the table a notebook shows and returns claims whose numbers are read
# from it; tests/test_readings.py recomputes every claim from the data.

def _count(n: int, one: str, many: str | None = None) -> str:
    """``n`` and its noun, ``one`` or ``many`` as the reader's language says (nouns from the catalogue).

    Without ``many``, English adds an "s"; Chinese has no plural and uses ``one`` (with its measure word).
    """
    if many is None:
        many = one + "s" if language() == "en" else one
    return f"{n} {one if n == 1 else many}"


def read_rank_one_changes(ranks: pd.DataFrame, *, into: str = "C", sources: Sequence[str] = ("A",),
                          what: str | None = None) -> list[Claim]:
    """Which rank-1 hits of each source version (a column of first-relevant ranks) ``into`` keeps.

    One claim per source: how many questions the source ranks first, how many of those ``into``
    also ranks first and which it loses; a source with no rank-1 hit is said to have none (so the
    claim is never vacuously "keeps every hit"). ``what`` names the questions in the reader's
    language ("questions" when not given).

    >>> r = pd.DataFrame({"B": [1, 1, 3], "C": [1, 2, 1]}, index=["q1", "q2", "q3"])
    >>> claim = read_rank_one_changes(r, sources=["B"])[0]
    >>> claim.extra["source hits"], claim.extra["kept"], "loses q2" in claim.sentence
    (2.0, 1.0, True)
    """
    what = message("readings.what.questions") if what is None else what
    n = len(ranks)
    out = []
    for src in sources:
        hits = [q for q in ranks.index if ranks.loc[q, src] == 1]
        lost = [q for q in hits if ranks.loc[q, into] != 1]
        kept = len(hits) - len(lost)
        if not hits:
            sentence = message("readings.rank_one.none", src=src, n=n, what=what, into=into)
        elif not lost:
            sentence = message("readings.rank_one.all_kept", src=src, hits=len(hits), n=n, what=what,
                               into=into)
        else:
            sentence = message("readings.rank_one.some_lost", src=src, hits=len(hits), n=n, what=what,
                               into=into, kept=kept, lost=_listing([str(q) for q in lost]))
        out.append(Claim(f"rank-1 hits of {src} kept by {into}", (into,) if not lost else (src,),
                         {"lost": float(len(lost))}, sentence,
                         extra={"source hits": float(len(hits)), "kept": float(kept)}))
    return out


def read_repairs(changes: Mapping[str, float], metric: str) -> list[Claim]:
    """Which of two faults of a ranking costs more (``changes``: fault -> gain in ``metric`` when
    that fault alone is repaired).

    >>> claim = read_repairs({"X at rank 2": 0.024, "the missing C": 0.185}, "nDCG@3")[0]
    >>> claim.leaders, "about 7.7 times as much as X at rank 2" in claim.sentence
    (('the missing C',), True)
    """
    ordered = sorted(changes.items(), key=lambda kv: -kv[1])
    (big, big_v), (small, small_v) = ordered[0], ordered[-1]
    ratio = message("readings.repairs.ratio", ratio=big_v / small_v, small=small) if small_v > 0 else ""
    sentence = message("readings.repairs.sentence", big=big, big_value=big_v, metric=metric, small=small,
                       small_value=small_v, ratio=ratio)
    return [Claim(metric, (big,), dict(changes), sentence)]


def read_rerank_entries(entries: pd.DataFrame, *, depth: int, top_k: int) -> list[Claim]:
    """Read ``ablation.rerank_entries``: what a reranker over the top ``depth`` brings into the top K.

    >>> e = pd.DataFrame({"entered": [2, 1], "entered relevant": [0, 0], "pushed out": [2, 1],
    ...                   "pushed out relevant": [1, 0]}, index=["q1", "q2"])
    >>> read_rerank_entries(e, depth=20, top_k=5)[0].extra["entered relevant"]
    0.0
    """
    entered, good = int(entries["entered"].sum()), int(entries["entered relevant"].sum())
    out, lost = int(entries["pushed out"].sum()), int(entries["pushed out relevant"].sum())
    moved = int((entries["entered"] > 0).sum())
    if good == 0:
        verdict = message("readings.rerank.only_wrong")
    elif good > lost:
        verdict = message("readings.rerank.found_more")
    else:
        verdict = message("readings.rerank.pushed_out_more")
    sentence = message("readings.rerank.entries_one" if good == 1 else "readings.rerank.entries_many",
                       depth=depth, count=_count(entered, message("readings.noun.chunk"),
                                                 message("readings.noun.chunks")),
                       first=top_k + 1, k=top_k, moved=moved, total=len(entries), good=good, out=out,
                       lost=lost, verdict=verdict)
    return [Claim(f"entered top {top_k} at M = {depth}", (), {"entered": float(entered)}, sentence,
                  extra={"entered relevant": float(good), "pushed out": float(out),
                         "pushed out relevant": float(lost)})]


def read_paraphrase_cases(ranks: pd.DataFrame, article_text: str, depth: int) -> list[Claim]:
    """Read the paraphrase table: the article's query, the cases only B finds, the cases none finds.

    ``ranks``: first-relevant ranks of A–D (NaN: not in the top ``depth``) and a ``text`` column.
    """
    row = ranks.loc[ranks["text"] == article_text].iloc[0]
    only_b = ranks[ranks["A"].isna() & ranks["B"].le(5)]
    none = ranks[ranks[["A", "B", "C", "D"]].isna().all(axis=1)]

    def rank(x: float) -> str:
        return "—" if x != x else f"{x:g}"

    def count(n: int) -> str:
        return _count(n, message("readings.noun.paraphrase"), message("readings.noun.paraphrases"))

    shown = {"text": article_text, "a": rank(row["A"]), "b": rank(row["B"]), "c": rank(row["C"]),
             "d": rank(row["D"])}
    claims = [Claim("article query", (), {v: float(row[v]) for v in "ABCD"},
                    message("readings.paraphrase.article_easy", **shown) if row["A"] <= 5
                    else message("readings.paraphrase.article_hard", **shown))]
    listing = message("readings.list_semicolon").join(
        message("readings.paraphrase.case", text=t, b=rank(b), c=rank(c))
        for t, b, c in zip(only_b["text"], only_b["B"], only_b["C"], strict=True))
    claims.append(Claim("only B finds", (), {"questions": float(len(only_b))},
                        message("readings.paraphrase.only_b_listing", count=count(len(only_b)), depth=depth,
                                listing=listing) if listing else
                        message("readings.paraphrase.only_b", count=count(len(only_b)), depth=depth)))
    claims.append(Claim("none finds", (), {"questions": float(len(none))},
                        message("readings.paraphrase.none", count=count(len(none)), depth=depth)))
    return claims


def read_knob(table: pd.DataFrame, chosen: Any, *, frozen: Any = None) -> list[Claim]:
    """Read ``ablation.knob_against_default`` with the rule's choice (``keep_default_rule``).

    Claims: the best value's paired difference against the default with its interval, wins and
    losses, sign-flip p and Holm's p over the values tried, and what the rule "keep the default
    unless the interval excludes 0" chooses (against ``frozen``).
    """
    knob = table.columns[0]
    metric = next(c for c in table.columns if "@" in c)
    default = table.loc[table["default"].astype(bool), knob].iloc[0]
    best = table.sort_values([metric, "diff vs default"], ascending=False, kind="mergesort").iloc[0]
    spread = float(table[metric].max() - table[metric].min())
    inside = best["low"] <= 0 <= best["high"]
    where = (message("readings.knob.holds_0") if best["low"] < 0 < best["high"] else
             message("readings.knob.reaches_0") if inside else message("readings.knob.leaves_out_0"))
    choice = (message("readings.knob.keeps_default", knob=knob, chosen=chosen) if chosen == default
              else message("readings.knob.leaves_default", knob=knob, chosen=chosen))
    sentence = message("readings.knob.sentence", knob=knob, values=_listing([f"{v:g}" for v in table[knob]]),
                       metric=metric, spread=spread, best=best[knob], best_value=best[metric],
                       default=default, diff=best["diff vs default"], low=best["low"], high=best["high"],
                       n=int(best["questions"]), wins=int(best["wins"]), losses=int(best["losses"]),
                       p=_p_text(best, int((~table["default"].astype(bool)).sum())), where=where,
                       choice=choice)
    if frozen is not None:
        sentence = message("readings.knob.frozen_same" if chosen == frozen
                           else "readings.knob.frozen_differs", text=sentence, knob=knob, frozen=frozen)
    return [Claim(f"{knob} rule", (f"{chosen:g}",), {"best": float(best[metric]),
                                                     "diff": float(best["diff vs default"]),
                                                     "low": float(best["low"]),
                                                     "high": float(best["high"]),
                                                     "p": float(best[P_SIGN_FLIP]),
                                                     "p_holm": float(best[P_HOLM])},
                  sentence, extra={"spread": spread, "rule differs from frozen":
                                   float(frozen is not None and chosen != frozen)})]


def read_rule_against_frozen(choices: Mapping[str, Any], frozen: Mapping[str, Any]) -> list[Claim]:
    """Where the rule's choices differ from the frozen design, and what that means for the holdout."""
    differ = [k for k in choices if choices[k] != frozen[k]]
    if not differ:
        return [Claim("rule vs frozen", (), {}, message("readings.rule.same"))]
    listing = _listing([message("readings.rule.item", knob=k, chosen=choices[k], frozen=frozen[k])
                        for k in differ])
    design = _listing([message("readings.rule.setting", knob=k, value=choices[k]) for k in choices])
    sentence = message("readings.rule.differs", names=_names(differ), listing=listing, design=design)
    return [Claim("rule vs frozen", (), {k: float(choices[k]) for k in differ}, sentence,
                  extra={"knobs differing": float(len(differ))})]


def read_term_match(shared: pd.DataFrame, term: str, *, where: str | None = None) -> list[Claim]:
    """Read a table of tokens a query shares with a text, one row per tokenizer (column ``shared``).

    ``where`` names the text in the reader's language ("the text" when not given).

    >>> t = pd.DataFrame({"shared": {"jieba_plain": ["交通"], "jieba": ["市内交通"]}})
    >>> read_term_match(t, "市内")[0].leaders
    ('jieba',)
    """
    where = message("readings.term.the_text") if where is None else where
    yes = [t for t in shared.index if any(term in tok for tok in shared.loc[t, "shared"])]
    no = [t for t in shared.index if t not in yes]
    sentence = (message("readings.term.matches", where=where, term=term, yes=_names(yes)) if yes
                else message("readings.term.matches_none", where=where, term=term))
    if no:
        sentence = message("readings.term.not_under", text=sentence, names=_names(no))
    return [Claim(f"{term} matches", tuple(yes), {t: float(t in yes) for t in shared.index}, _end(sentence))]


def read_tokenizer_ranks(ranks: pd.DataFrame, means: pd.DataFrame, *, what: str,
                         reference: str = "jieba") -> list[Claim]:
    """Read ``ablation.tokenizer_ranks``: which questions' best rank moves with the tokenizer.

    ``what`` names the questions read, in the reader's language (it also names the first claim).
    """
    same = [q for q in ranks.index if ranks.loc[q].nunique(dropna=False) == 1]
    moved = [q for q in ranks.index if q not in same]
    detail = message("readings.list_semicolon").join(
        message("readings.tokenizer.question", question=q, ranks=_listing(
            [message("readings.tokenizer.rank", tokenizer=t, rank="—" if v != v else f"{v:g}")
             for t, v in ranks.loc[q].items()]))
        for q in moved)
    sentence = (message("readings.tokenizer.same", what=what, names=_names(same)) if same
                else message("readings.tokenizer.same_none", what=what))
    sentence = message("readings.tokenizer.moved", text=sentence, detail=detail) if moved else _end(sentence)
    metric = means.columns[0]
    listing = _listing([f"{t} {v:.3f}" for t, v in means[metric].items()])
    claims = [Claim(f"{what} ranks", (), {"same": float(len(same)), "moved": float(len(moved))},
                    sentence)]
    claims.append(Claim(metric, leader(means[metric].to_dict()), means[metric].to_dict(),
                        message("readings.tokenizer.means", metric=metric, listing=listing,
                                spread=means[metric].max() - means[metric].min())))
    return claims


def read_three_chunks(scores: pd.DataFrame, target: str, query: str) -> list[Claim]:
    """Read BM25 scores of a few chunks (rows) under each tokenizer (columns): where ``target`` lands."""
    out = []
    places = {}
    for t in scores.columns:
        order = scores[t].sort_values(ascending=False, kind="mergesort")
        places[t] = list(order.index).index(target) + 1
    lowest = [t for t, r in places.items() if r == len(scores)]
    top = [t for t, r in places.items() if r == 1]
    sentence = message(
        "readings.three.ranks", query=query, n=len(scores), target=target,
        places=_listing([message("readings.three.place", rank=r, tokenizer=t) for t, r in places.items()]),
        lowest=(message("readings.three.lowest", names=_names(lowest)) if lowest
                else message("readings.three.never_lowest")),
        first=message("readings.three.first", names=_names(top)) if top else "")
    verdict = (message("readings.three.decides") if len(set(places.values())) > 1
               else message("readings.three.no_change"))
    out.append(Claim(f"rank of {target}", tuple(top), {t: float(r) for t, r in places.items()},
                     message("readings.two_sentences", first=sentence, second=verdict)))
    return out


def read_userdict(entries: pd.DataFrame) -> list[Claim]:
    """Read ``tokenize.userdict_table``: how many entries change plain jieba's cut, and where."""
    n = len(entries)
    changes = entries[entries["texts where the entry changes the cut"] > 0]
    inert = entries[entries["texts where the entry changes the cut"] == 0]
    sentence = message("readings.userdict.sentence", n=n, changing=len(changes),
                       changes=_listing(list(changes.index)), inert=len(inert))
    if len(inert):
        sentence = message("readings.userdict.inert", text=sentence, names=_listing(list(inert.index)))
    return [Claim("user dictionary", (), {"entries": float(n), "changing": float(len(changes))},
                  _end(sentence))]


def read_same_mrr(table: pd.DataFrame) -> list[Claim]:
    """Read a table of systems (rows) with MRR and other metrics: equal MRR, different the rest."""
    mrr = next(c for c in table.columns if c.startswith("MRR"))
    others = [c for c in table.columns if c != mrr]
    values = table[mrr].astype(float)
    same = bool(values.round(9).nunique() == 1)
    gaps = {c: float(table[c].astype(float).max() - table[c].astype(float).min()) for c in others}
    shown = _listing([message("readings.same_mrr.gap", gap=g, metric=c) for c, g in gaps.items()])
    names = _names(list(table.index))
    sentence = (message("readings.same_mrr.same", names=names, mrr=mrr, value=values.iloc[0], gaps=shown)
                if same else message("readings.same_mrr.different", names=names, mrr=mrr, gaps=shown))
    return [Claim(mrr, leader(values.to_dict()), values.to_dict(), sentence, extra=gaps)]


# ============================================================== notebook 08 (nb08): your own system
# Every sentence notebook 08 shows, and the words of its tables and charts, are built here.

__all__ += [  # the 08 section adds its names here, apart from the other sections'
    "WORDS_08",
    "read_split",
    "read_latency",
    "read_pool",
    "read_labelling",
    "read_pooling_bias",
    "read_comparison",
    "read_report",
    "read_plan",
    "read_opening",
]


def _words_08() -> dict[str, str]:
    # four words are templates their users fill (``{metric}``, ``{names}``, ``{d}``, ``{n}``): the fields
    # are given back as themselves
    return {
        "version": message("readings.08.word.version"),
        "questions": message("readings.08.word.questions"),
        "median ms": message("readings.08.word.median_ms"),
        "p95 ms": message("readings.08.word.p95_ms"),
        "failures": message("readings.08.word.failures"),
        "labels": message("readings.08.word.labels"),
        "minus": message("readings.08.word.minus", metric="{metric}", baseline="{baseline}"),
        "pool of": message("readings.08.word.pool_of", names="{names}"),
        "complete": message("readings.08.word.complete"),
        "pilot questions": message("readings.08.word.pilot_questions"),
        "mean difference": message("readings.08.word.mean_difference"),
        "sd of differences": message("readings.08.word.sd_of_differences"),
        "questions for d": message("readings.08.word.questions_for_d", d="{d}"),
        "questions for observed": message("readings.08.word.questions_for_observed"),
        "detectable with n": message("readings.08.word.detectable_with_n", n="{n}"),
    }


#: The words of notebook 08's tables (column and index names) and label sets, in the language chosen
#: when one is read: a table built in one language is indexed by the same language's words.
WORDS_08: Mapping[str, str] = _Words(_words_08)


def _signed(value: float) -> str:
    return message("common.not_available") if value != value else f"{value:+.3f}"


def read_split(*, working: Sequence[str], holdout: Sequence[str], group: Mapping[str, str],
               sealed: Mapping[str, str]) -> list[Claim]:
    """The reader's own holdout: its size in questions and groups, and the seal written before any run."""
    groups = {q: group[q] for q in [*working, *holdout]}
    held = {groups[q] for q in holdout}
    shared = held & {groups[q] for q in working}
    total = len(working) + len(holdout)
    return [Claim("own holdout", (), {"holdout": float(len(holdout)), "working": float(len(working)),
                                      "groups held": float(len(held)), "groups shared": float(len(shared))},
                  message("readings.08.split", holdout=len(holdout), total=total, held=len(held),
                          groups=len(set(groups.values())), shared=len(shared), date=sealed["date"],
                          commit=str(sealed["commit"])[:12], questions_sha=sealed["questions_sha256"][:12],
                          labels_sha=sealed["labels_sha256"][:12], working=len(working)))]


def read_latency(summary: pd.DataFrame) -> list[Claim]:
    """Read the latency summary: failures, and the range of median and 95th-percentile latencies."""
    w = dict(WORDS_08)
    median, p95, failed = summary[w["median ms"]], summary[w["p95 ms"]], summary[w["failures"]]
    asked = int(summary[w["questions"]].max())
    slow, fast = median.idxmax(), median.idxmin()
    failures = (message("readings.08.latency.no_failures") if failed.sum() == 0 else
                message("readings.08.latency.failures", listing=message("common.list_separator").join(
                    f"{v} {int(n)}" for v, n in failed.items() if n)))
    return [Claim("latency", (str(slow),), {str(v): float(m) for v, m in median.items()},
                  message("readings.08.latency", versions=len(summary), asked=asked, failures=failures,
                          fastest=median.min(), fast=fast, slowest=median.max(), slow=slow, p95=p95.max(),
                          p95_version=p95.idxmax()),
                  extra={"failures": float(failed.sum())})]


def read_pool(table: pd.DataFrame, *, depth: int, versions: Sequence[str]) -> list[Claim]:
    """Read a pool (:func:`ragmath.comparison.pool`): its size, per question, and what one version adds."""
    sizes = table.groupby("question").size()
    alone = {v: int(sum(1 for vs in table["versions"] if list(vs) == [v])) for v in versions}
    listing = message("common.list_separator").join(f"{v} {n}" for v, n in alone.items())
    values = {"items": float(len(table)), **{f"only {v}": float(n) for v, n in alone.items()}}
    return [Claim("pool", (), values,
                  message("readings.08.pool", names=join_names(versions), depth=depth, items=len(table),
                          questions=len(sizes), fewest=sizes.min(), most=sizes.max(), listing=listing))]


def read_labelling(counts: Mapping[str, int], *, prepared: str) -> list[Claim]:
    """Say how many judgements came from a person (the widget) and how many from the prepared file."""
    hand, filled = int(counts["by hand"]), int(counts["prepared"])
    who = (message("readings.08.labelling.by_hand", hand=hand, filled=filled) if hand else
           message("readings.08.labelling.nobody", filled=filled))
    return [Claim("labelling", (), {"by hand": float(hand), "prepared": float(filled)},
                  message("readings.08.labelling", who=who, file=prepared))]


def read_pooling_bias(table: pd.DataFrame, *, metric: str, baseline: str, partial: str, full: str,
                      single: str, complete: str, new: Sequence[str]) -> list[Claim]:
    """Read the pooling-bias table (:func:`ragmath.lab.notebook.own_system.pooling_bias`).

    ``partial``: the label set of some versions' pools (here A's and B's); ``full``: every version's pool;
    ``single``: the baseline's pool alone; ``complete``: the workbook's complete labels; ``new``: the
    versions whose pools ``partial`` leaves out (here C and D).
    """
    k = metric.split("@")[1]
    judged_col, diff_col = f"Judged@{k}", WORDS_08["minus"].format(metric=metric, baseline=baseline)
    comma = message("common.list_separator")

    def at(labels: str, version: str, column: str = metric) -> float:
        return float(table.loc[(labels, version), column])

    out = []
    shift = {v: at(partial, v) - at(full, v) for v in new}
    scores = message("readings.07.semicolon").join(
        message("readings.08.pooling.score", version=v, partial_value=at(partial, v), partial=partial,
                full_value=at(full, v), full=full, bias=_signed(shift[v])) for v in new)
    base_judged = at(partial, baseline, judged_col)
    warned = [v for v in new if at(partial, v, judged_col) < 0.9 * base_judged]
    judged_text = comma.join(f"{v} {at(partial, v, judged_col):.3f} → {at(full, v, judged_col):.3f}"
                             for v in new)
    moved = any(abs(x) > 1e-9 for x in shift.values())
    warning = (message("readings.08.pooling.warned", names=join_names(warned), baseline=baseline,
                       judged=base_judged, threshold=0.9 * base_judged) if warned else "")
    outcome = (message("readings.08.pooling.moved") if moved else
               message("readings.08.pooling.not_moved", k=k))
    out.append(Claim(f"pooling bias: {metric}", (), {v: shift[v] for v in new},
                     message("readings.08.pooling.bias", metric=metric, scores=scores, k=k, partial=partial,
                             full=full, judged=judged_text, warning=warning, outcome=outcome),
                     extra={"warned": float(len(warned))}))
    others = [v for v in dict.fromkeys(table.index.get_level_values(1)) if v != baseline]
    single_diff = {v: at(single, v, diff_col) for v in others}
    full_diff = {v: at(full, v, diff_col) for v in others}
    flattered = all(single_diff[v] < full_diff[v] for v in others)
    listing = comma.join(f"{v} {_signed(single_diff[v])} ({_signed(full_diff[v])})" for v in others)
    verdict = (message("readings.08.pooling.flattered") if flattered else
               message("readings.08.pooling.not_flattered"))
    out.append(Claim(f"single pool: {diff_col}", (), single_diff,
                     message("readings.08.pooling.single", single=single, baseline=baseline, column=diff_col,
                             full=full, listing=listing, verdict=verdict),
                     matches=flattered))
    drop = {v: at(full, v) - at(complete, v) for v in [baseline, *others]}
    gap = max(abs(at(full, v, diff_col) - at(complete, v, diff_col)) for v in others)
    higher = all(x > 0 for x in drop.values())
    direction = (message("readings.08.pooling.higher") if higher else
                 message("readings.08.pooling.not_higher"))
    pairs = comma.join(f"{v} {at(full, v):.3f} → {at(complete, v):.3f}" for v in drop)
    out.append(Claim(f"complete labels: {metric}", (), drop,
                     message("readings.08.pooling.complete", complete=complete, metric=metric, full=full,
                             direction=direction, pairs=pairs, baseline=baseline, gap=gap),
                     matches=higher, extra={"largest difference shift": gap}))
    return out


def read_comparison(result: Any, metric: str, *, level: float = 0.05) -> list[Claim]:
    """Read a :class:`ragmath.comparison.Comparison` on one metric: each difference with its interval, p and
    Holm's p; which versions are better than the baseline after Holm; the holdout's candidate (largest
    mean difference)."""
    rows = result.comparisons[result.comparisons["metric"] == metric].set_index("system")
    listing = message("readings.07.semicolon").join(
        message("readings.08.comparison.row", version=v, diff=_signed(r["diff"]), low=_signed(r["low"]),
                high=_signed(r["high"]), p=r["p"], holm=r["p_holm"], wins=r["wins"], ties=r["ties"],
                losses=r["losses"]) for v, r in rows.iterrows())
    better = [v for v, r in rows.iterrows() if r["diff"] > 0 and r["p_holm"] < level]
    candidate = str(rows["diff"].idxmax())
    if not better:
        verdict = message("readings.08.comparison.none_better", baseline=result.baseline, level=level)
    elif len(better) == 1:
        verdict = message("readings.08.comparison.one_better", names=join_names(better),
                          baseline=result.baseline, level=level)
    else:
        verdict = message("readings.08.comparison.many_better", names=join_names(better),
                          baseline=result.baseline, level=level)
    return [Claim(metric, tuple(better), {v: float(r["diff"]) for v, r in rows.iterrows()},
                  message("readings.08.comparison", metric=metric, baseline=result.baseline, listing=listing,
                          verdict=verdict)),
            Claim("candidate", (candidate,), {candidate: float(rows.loc[candidate, "diff"])},
                  message("readings.08.comparison.candidate", metric=metric, baseline=result.baseline,
                          candidate=candidate, diff=_signed(rows.loc[candidate, "diff"])))]


def read_report(path: str, text: str) -> list[Claim]:
    """Say where the Markdown report is and what it holds (its table rows and notes)."""
    lines = text.splitlines()
    rows = sum(1 for line in lines if line.startswith("| ")) - 1
    notes = sum(1 for line in lines if line.startswith("- "))
    return [Claim("report", (), {"rows": float(rows), "notes": float(notes)},
                  message("readings.08.report", rows=rows, notes=notes, path=path))]


def read_plan(plan: pd.DataFrame, *, metric: str, d: float, version: str, questions: int,
              power: float, resampled: float, draws: int) -> list[Claim]:
    """Read the question-count plan (:func:`ragmath.lab.notebook.own_system.plan_table`) for one version,
    with the power the pilot's resampling reached at the planned size."""
    w = dict(WORDS_08)
    row = plan.loc[version]
    need = int(row[w["questions for d"].format(d=d)])
    smallest = float(row[w["detectable with n"].format(n=questions)])
    observed = row[w["questions for observed"]]
    pilot = int(row[w["pilot questions"]])
    difference = _signed(row[w["mean difference"]])
    observed_text = (message("readings.08.plan.observed", diff=difference, observed=int(observed))
                     if math.isfinite(observed) else
                     message("readings.08.plan.observed_never", diff=difference))
    return [Claim("plan", (), {"questions": float(need), "smallest": smallest, "resampled power": resampled},
                  message("readings.08.plan", questions=questions, version=version, metric=metric,
                          sd=row[w["sd of differences"]], pilot=pilot, d=d, power=power, need=need,
                          smallest=smallest, observed=observed_text, draws=draws, resampled=resampled))]


def read_opening(opening: Any, scores: pd.DataFrame, *, baseline: str, candidate: str, metric: str,
                 diff: Mapping[str, float], dev_diff: float) -> list[Claim]:
    """Read an opening of the reader's seal (:class:`ragmath.seal.Opening`): when, whether this run ran it,
    the holdout's scores and the candidate's paired difference, beside dev's."""
    record = opening.record
    done = (message("readings.08.opening.ran") if opening.ran else message("readings.08.opening.shown"))
    apart = diff["low"] > 0 or diff["high"] < 0
    mean = scores.groupby(level="version")[metric].mean()
    n = scores.index.get_level_values("question").nunique()
    fields = {"n": n, "metric": metric,
              "scores": message("common.list_separator").join(f"{v} {x:.3f}" for v, x in mean.items()),
              "candidate": candidate, "baseline": baseline, "mean": _signed(diff["mean"]),
              "low": _signed(diff["low"]), "high": _signed(diff["high"]), "dev": _signed(dev_diff)}
    return [Claim("opening", (), {"times opened": float(opening.times_opened)},
                  message("readings.08.opening", number=opening.number, opened_at=record["opened_at"],
                          commit=str(record["commit"])[:12], design=record["design_sha256"][:12], done=done,
                          times=opening.times_opened)),
            Claim(f"holdout {metric}", (), {v: float(x) for v, x in mean.items()},
                  message("readings.08.opening.supports", **fields) if apart else
                  message("readings.08.opening.not_supported", **fields),
                  extra={"excludes 0": float(apart)})]
# ======================================================= end of the notebook 08 (nb08) section
