"""Readings: the sentences after each results table, built from the computed numbers.

Each function returns ``Claim`` objects (what is compared, who leads, the numbers, whether it
matches what the article expects) and each claim carries its sentence, so a reading cannot drift
from its table: the tests check every claim against the table it reads. ``as_markdown`` joins the
sentences for display in a notebook.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

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
    return "n/a" if value != value else f"{value:.{digits}f}"


def _names(keys: Sequence[str]) -> str:
    keys = list(keys)
    return keys[0] if len(keys) == 1 else ", ".join(keys[:-1]) + " and " + keys[-1]


def compare(table: pd.DataFrame, metric: str, versions: Sequence[str], *,
            expected: Sequence[str] = (), why: Mapping[bool, str] | None = None,
            digits: int = 3) -> Claim:
    """Compare ``versions`` on ``metric`` (a column of ``table``, one row per version).

    The sentence names the leader(s) with every value and, when the article expects a leader,
    says whether the table matches; ``why`` maps matches (True/False) to an explanation.

    >>> t = pd.DataFrame({"MRR@5": [0.7, 0.8]}, index=["C", "D"])
    >>> compare(t, "MRR@5", ["C", "D"], expected=["D"]).sentence
    'On MRR@5, D leads (C 0.700, D 0.800); the article expects D to lead: this matches.'
    """
    values = {v: float(table.loc[v, metric]) for v in versions}
    leaders = leader(values)
    listing = ", ".join(f"{v} {_fmt(x, digits)}" for v, x in values.items())
    verb = "leads" if len(leaders) == 1 else "tie for the lead"
    sentence = f"On {metric}, {_names(leaders)} {verb} ({listing})"
    matches = None
    if expected:
        matches = bool(set(leaders) & set(expected))
        sentence += (f"; the article expects {_names(expected)} to lead: "
                     f"{'this matches' if matches else 'this does not match'}")
    sentence += "."
    if why and matches is not None and why.get(matches):
        sentence += " " + why[matches]
    return Claim(metric, leaders, values, sentence, tuple(expected), matches)


def read_ablation(table: pd.DataFrame, *, top_k: int = 5, rerank_depth: int | None = None,
                  split: str = "dev") -> list[Claim]:
    """Read an ablation table (``AblationResult.table``) version by version, as the article asks.

    Claims: C against A and B on Recall@K (do the two retrievers complement each other?); D against
    C on MRR@K and nDCG@K (does the reranker move evidence up?); Recall@M of C and D (a reranker only
    reorders); answer accuracy and citation support of A–D; the Oracle's distance to D and to 100 %.
    """
    k = top_k
    rows = []
    n_ans = int(table.loc["D", "answerable"]) if "answerable" in table else 0
    rows.append(compare(table, f"Recall@{k}", ["A", "B", "C"], expected=["C"], why={
        True: "Fusion keeps what either list found, as the article expects.",
        False: "Fusion did not add recall here: one list already holds what the other finds, or "
               "RRF pushed a relevant chunk below the cut-off.",
    }))
    for metric in (f"MRR@{k}", f"nDCG@{k}"):
        rows.append(compare(table, metric, ["C", "D"], expected=["D"], why={
            True: "The reranker moves relevant chunks up, as the article expects.",
            False: "The reranker did not move relevant chunks up on average on these questions.",
        }))
    if rerank_depth is not None:
        metric = f"Recall@{rerank_depth}"
        c, d = float(table.loc["C", metric]), float(table.loc["D", metric])
        same = round(c, 12) == round(d, 12)
        rows.append(Claim(metric, leader({"C": c, "D": d}), {"C": c, "D": d},
                          f"{metric} is {_fmt(c)} for C and {_fmt(d)} for D: "
                          + ("equal, as it must be, since the reranker only reorders the top "
                             f"{rerank_depth}." if same else "they differ, which a reranker over "
                             "the top M cannot cause: a bug."), ("C", "D"), same))
    if "answer accuracy" in table:
        correct = {v: int(table.loc[v, "answers correct"]) for v in "ABCD"}
        claim = compare(table, "answer accuracy", list("ABCD"))
        spread = max(correct.values()) - min(correct.values())
        sentence = (claim.sentence[:-1] + f": {', '.join(f'{v} {x}/{n_ans}' for v, x in correct.items())}"
                    f" correct. The four versions are {spread} question(s) apart out of {n_ans}; one "
                    f"question weighs {100 / max(n_ans, 1):.1f} points, so read it with its interval "
                    "(notebook 07).")
        rows.append(Claim(claim.metric, claim.leaders, claim.values, sentence,
                          extra={"spread (questions)": spread}))
        rows.append(compare(table, "citation support", list("ABCD")))
        oracle = int(table.loc["Oracle", "answers correct"])
        d = correct["D"]
        rows.append(Claim(
            "answers correct", leader({"D": d, "Oracle": oracle}), {"D": d, "Oracle": oracle},
            f"The Oracle answers {oracle}/{n_ans} with the gold evidence in hand, D {d}/{n_ans}: "
            f"better retrieval could win at most {oracle - d} more here, and the other "
            f"{n_ans - oracle} are lost by the generator itself (no retrieval can fix those).",
            extra={"generator losses": n_ans - oracle, "retrieval headroom": oracle - d}))
    return rows


def read_first_ranks(ranks: pd.DataFrame, versions: Sequence[str] = ("A", "B", "C", "D"),
                     *, what: str = "questions", expected: Sequence[str] = (),
                     sources: Sequence[str] = ("A",)) -> list[Claim]:
    """Read a table of first-relevant ranks (rows: questions, columns: versions).

    Claims: how many questions each version answers at rank 1 and within the top 5 (the leader on
    each); then, for each of ``sources``, which of its rank-1 hits C keeps
    (``read_rank_one_changes``).
    """
    n = len(ranks)
    out = []
    for label, limit in (("rank 1", 1), ("top 5", 5)):
        counts = {v: float((ranks[v] <= limit).sum()) for v in versions}
        leaders = leader(counts)
        listing = ", ".join(f"{v} {int(x)}/{n}" for v, x in counts.items())
        sentence = f"Relevant chunk at {label} for the {n} {what}: {listing}; {_names(leaders)} lead(s)."
        matches = bool(set(leaders) & set(expected)) if expected else None
        if expected:
            sentence = sentence[:-1] + (f"; the article expects {_names(expected)}: "
                                        f"{'this matches' if matches else 'this does not match'}.")
        out.append(Claim(f"first relevant at {label}", leaders, counts, sentence, tuple(expected),
                         matches))
    if "C" in ranks:
        out.extend(read_rank_one_changes(ranks, sources=[v for v in sources if v in ranks],
                                         what=what))
    return out


def read_grid(edges: pd.DataFrame, grid: pd.DataFrame, metric: str) -> list[Claim]:
    """Read ``grid_edges``: where each chosen value sits, and how much the choice matters."""
    out = []
    for knob, row in edges.iterrows():
        profile = [float(x) for x in str(row[f"best {metric} at each value"]).split(", ")]
        spread = max(profile) - min(profile)
        position = row["position"]
        flat = spread < 1e-9
        if position == "inside":
            tail = "inside the grid"
        elif flat:
            tail = f"on the grid's {position.split()[0]} edge, but the profile is flat"
        else:
            tail = (f"on the grid's {position.split()[0]} edge: the best may lie beyond it, or the "
                    "knob cannot go further (M cannot be below K)")
        sentence = (f"{knob} = {row['chosen']:g} is {tail}; across its values the best {metric} "
                    f"moves by {spread:.3f}" + (" (it does not matter here)." if flat else "."))
        out.append(Claim(f"{knob} position", (str(row["chosen"]),), {"spread": spread}, sentence,
                         extra={"on edge": float(position != "inside")}))
    best = grid[metric].max()
    n_best = int((grid[metric].round(9) == round(best, 9)).sum())
    out.append(Claim(metric, (), {"best": float(best), "settings at best": float(n_best)},
                     f"{n_best} of {len(grid)} settings reach the best dev {metric} of {best:.3f}; "
                     f"the chosen one is optimistic by construction (the best of {len(grid)} tries "
                     "on the same questions)."))
    return out


def read_paired(boot: pd.DataFrame) -> list[Claim]:
    """Read paired-bootstrap rows (columns: comparison, mean diff, low, high, questions)."""
    out = []
    for _, r in boot.iterrows():
        apart = r["low"] > 0 or r["high"] < 0
        where = f" ({r['split']})" if "split" in r else ""
        sentence = (f"{r['comparison']}{where}: {r['mean diff']:+.3f} [{r['low']:+.3f}, "
                    f"{r['high']:+.3f}] over {int(r['questions'])} questions: "
                    + ("the interval leaves out 0, the two can be told apart."
                       if apart else "the interval holds 0, the two cannot be told apart."))
        out.append(Claim(str(r["comparison"]), (), {"mean diff": float(r["mean diff"]),
                                                    "low": float(r["low"]), "high": float(r["high"])},
                         sentence, extra={"excludes 0": float(apart)}))
    return out


def read_leakage(leak: pd.DataFrame, metric: str) -> list[Claim]:
    """Read ``leakage_experiment``: is the random split's estimate higher, and how often?"""
    diff = leak["difference (random − grouped)"]
    higher = int((diff > 0).sum())
    mean = float(diff.mean())
    random_mean = float(leak[f"random: {metric}"].mean())
    grouped_mean = float(leak[f"grouped: {metric}"].mean())
    twins = float(leak["random: test questions with a twin in fitting"].mean())
    sentence = (f"Over {len(leak)} seeds the random split estimates {metric} at {random_mean:.3f} on "
                f"average and the grouped split at {grouped_mean:.3f}: the random split is higher by "
                f"{mean:+.3f} on average, and higher in {higher} of {len(leak)} seeds. Its test "
                f"questions have on average {twins:.1f} near-duplicates (same group) among the "
                "questions the reranker was fitted on, and the reranker's memory feature uses them.")
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
        sentence = (f"{rate}: {_names(leaders)} lead(s) at {values[top]:.3f} "
                    f"[{part.loc[top, 'low']:.3f}, {part.loc[top, 'high']:.3f}]; "
                    + (f"the intervals of {_names(overlap)} overlap it" if overlap
                       else "no other version's interval overlaps it")
                    + f"; the widest interval spans {widest:.3f}.")
        out.append(Claim(rate, leaders, values, sentence,
                         extra={"overlapping": float(len(overlap)), "widest": widest}))
    return out


def as_markdown(claims: Sequence[Claim]) -> str:
    """The claims' sentences as a Markdown list.

    >>> as_markdown([Claim("m", ("A",), {"A": 1.0}, "A leads.")])
    '- A leads.'
    """
    return "\n".join(f"- {c.sentence}" for c in claims)


# ==== notebooks 03, 04, 05b and 06 ===========================================================
# Each reading below takes the table a notebook shows and returns claims whose numbers are read
# from it; tests/test_readings.py recomputes every claim from the data.

def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def read_rank_one_changes(ranks: pd.DataFrame, *, into: str = "C", sources: Sequence[str] = ("A",),
                          what: str = "questions") -> list[Claim]:
    """Which rank-1 hits of each source version (a column of first-relevant ranks) ``into`` keeps.

    One claim per source: how many questions the source ranks first, how many of those ``into``
    also ranks first and which it loses; a source with no rank-1 hit is said to have none (so the
    claim is never vacuously "keeps every hit").

    >>> r = pd.DataFrame({"B": [1, 1, 3], "C": [1, 2, 1]}, index=["q1", "q2", "q3"])
    >>> claim = read_rank_one_changes(r, sources=["B"])[0]
    >>> claim.extra["source hits"], claim.extra["kept"], "loses q2" in claim.sentence
    (2.0, 1.0, True)
    """
    n = len(ranks)
    out = []
    for src in sources:
        hits = [q for q in ranks.index if ranks.loc[q, src] == 1]
        lost = [q for q in hits if ranks.loc[q, into] != 1]
        kept = len(hits) - len(lost)
        if not hits:
            sentence = (f"{src} ranks no relevant chunk first for any of the {n} {what}, so {into} has "
                        f"no rank-1 hit of {src} to keep or lose.")
        elif not lost:
            sentence = (f"{src} ranks a relevant chunk first for {len(hits)} of the {n} {what}; {into} "
                        f"keeps all {len(hits)}: fusion did not push {src}'s top hits down.")
        else:
            sentence = (f"{src} ranks a relevant chunk first for {len(hits)} of the {n} {what}; {into} "
                        f"keeps {kept} of them and loses {', '.join(map(str, lost))}: fusion pushed "
                        f"{src}'s top hit down there.")
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
    ratio = f", about {big_v / small_v:.1f} times as much as {small}" if small_v > 0 else ""
    sentence = (f"Repaired alone (the other fault left in place), {big} is worth {big_v:.3f} of {metric} "
                f"and {small} {small_v:.3f}: {big} costs more{ratio}.")
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
    sentence = (f"With M = {depth}, the reranker brings {_count(entered, 'chunk')} from ranks "
                f"{top_k + 1}–{depth} into the top {top_k} ({moved} of {len(entries)} questions); "
                f"{good} of them {'is' if good == 1 else 'are'} relevant. The {out} it pushes out "
                f"include {lost} relevant one(s). ")
    if good == 0:
        sentence += ("Going deeper only brought in wrong chunks on dev: nothing it promoted was "
                     "evidence.")
    elif good > lost:
        sentence += "It found more evidence below the top 5 than it pushed out."
    else:
        sentence += "It pushed out at least as much evidence as it brought in."
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

    easy = "easy" if row["A"] <= 5 else "hard"
    claims = [Claim("article query", (), {v: float(row[v]) for v in "ABCD"},
                    f"The article's query 「{article_text}」 is {easy} for BM25 here: A ranks a relevant "
                    f"chunk at {rank(row['A'])} (B {rank(row['B'])}, C {rank(row['C'])}, "
                    f"D {rank(row['D'])}).")]
    listing = "; ".join(f"「{t}」 (B at rank {rank(b)}, C {rank(c)})"
                        for t, b, c in zip(only_b["text"], only_b["B"], only_b["C"], strict=True))
    claims.append(Claim("only B finds", (), {"questions": float(len(only_b))},
                        f"{_count(len(only_b), 'paraphrase')} where BM25 finds nothing in its top "
                        f"{depth} but the vector retriever does" + (f": {listing}." if listing else ".")))
    claims.append(Claim("none finds", (), {"questions": float(len(none))},
                        f"{_count(len(none), 'paraphrase')} no version finds in its top {depth}: these "
                        "need a real embedding model or query rewriting, not a better k."))
    return claims


def read_knob(table: pd.DataFrame, chosen: Any, *, frozen: Any = None) -> list[Claim]:
    """Read ``ablation.knob_against_default`` with the rule's choice (``keep_default_rule``).

    Claims: the best value's paired difference against the default with its interval, and what
    the rule "keep the default unless the interval excludes 0" chooses (against ``frozen``).
    """
    knob = table.columns[0]
    metric = next(c for c in table.columns if "@" in c)
    default = table.loc[table["default"].astype(bool), knob].iloc[0]
    best = table.sort_values([metric, "diff vs default"], ascending=False, kind="mergesort").iloc[0]
    spread = float(table[metric].max() - table[metric].min())
    inside = best["low"] <= 0 <= best["high"]
    where = ("holds 0" if best["low"] < 0 < best["high"] else
             "reaches 0 at its end" if inside else "leaves out 0")
    sentence = (f"{knob}: across {', '.join(f'{v:g}' for v in table[knob])} the dev {metric} moves by "
                f"{spread:.3f}; the best, {knob} = {best[knob]:g} ({best[metric]:.3f}), minus the "
                f"default {knob} = {default:g} is {best['diff vs default']:+.3f} "
                f"[{best['low']:+.3f}, {best['high']:+.3f}] (p = {best['p']:.3f}) over "
                f"{int(best['questions'])} questions: the interval {where}, so the rule ")
    sentence += (f"keeps the default {knob} = {chosen:g}." if chosen == default
                 else f"leaves the default for {knob} = {chosen:g}.")
    if frozen is not None:
        sentence += (f" The frozen design has {knob} = {frozen:g}: "
                     + ("the same." if chosen == frozen else "the rule chooses differently."))
    return [Claim(f"{knob} rule", (f"{chosen:g}",), {"best": float(best[metric]),
                                                     "diff": float(best["diff vs default"]),
                                                     "low": float(best["low"]),
                                                     "high": float(best["high"])},
                  sentence, extra={"spread": spread, "rule differs from frozen":
                                   float(frozen is not None and chosen != frozen)})]


def read_rule_against_frozen(choices: Mapping[str, Any], frozen: Mapping[str, Any]) -> list[Claim]:
    """Where the rule's choices differ from the frozen design, and what that means for the holdout."""
    differ = [k for k in choices if choices[k] != frozen[k]]
    if not differ:
        return [Claim("rule vs frozen", (), {}, "The rule chooses the frozen design on every knob.")]
    listing = ", ".join(f"{k} = {choices[k]:g} (frozen: {frozen[k]:g})" for k in differ)
    sentence = (f"The rule chooses differently from the frozen design on {_names(differ)}: {listing}. "
                "The frozen design and data/config.json stay as they are: the holdout was opened "
                "once with it, and its result stands for that design only. A fresh holdout, written "
                "blind like the first, would test the rule's design ("
                + ", ".join(f"{k} = {choices[k]:g}" for k in choices)
                + ") against the frozen one on questions neither was chosen on.")
    return [Claim("rule vs frozen", (), {k: float(choices[k]) for k in differ}, sentence,
                  extra={"knobs differing": float(len(differ))})]


def read_term_match(shared: pd.DataFrame, term: str, *, where: str = "the text") -> list[Claim]:
    """Read a table of tokens a query shares with a text, one row per tokenizer (column ``shared``).

    >>> t = pd.DataFrame({"shared": {"jieba_plain": ["交通"], "jieba": ["市内交通"]}})
    >>> read_term_match(t, "市内")[0].leaders
    ('jieba',)
    """
    yes = [t for t in shared.index if any(term in tok for tok in shared.loc[t, "shared"])]
    no = [t for t in shared.index if t not in yes]
    sentence = (f"Against {where}, {term} matches (a shared token contains it) under "
                f"{_names(yes) if yes else 'no tokenizer'}"
                + (f"; it does not under {_names(no)}" if no else "") + ".")
    return [Claim(f"{term} matches", tuple(yes), {t: float(t in yes) for t in shared.index}, sentence)]


def read_tokenizer_ranks(ranks: pd.DataFrame, means: pd.DataFrame, *, what: str,
                         reference: str = "jieba") -> list[Claim]:
    """Read ``ablation.tokenizer_ranks``: which questions' best rank moves with the tokenizer."""
    same = [q for q in ranks.index if ranks.loc[q].nunique(dropna=False) == 1]
    moved = [q for q in ranks.index if q not in same]
    detail = "; ".join(f"{q}: " + ", ".join(f"{t} {'—' if v != v else f'{v:g}'}"
                                           for t, v in ranks.loc[q].items()) for q in moved)
    sentence = (f"{what}: the best rank under A is the same under every tokenizer for "
                f"{_names(same) if same else 'no question'}"
                + (f"; it moves for {detail}." if moved else "."))
    metric = means.columns[0]
    listing = ", ".join(f"{t} {v:.3f}" for t, v in means[metric].items())
    claims = [Claim(f"{what} ranks", (), {"same": float(len(same)), "moved": float(len(moved))},
                    sentence)]
    claims.append(Claim(metric, leader(means[metric].to_dict()), means[metric].to_dict(),
                        f"A's dev {metric} by tokenizer: {listing} (spread "
                        f"{means[metric].max() - means[metric].min():.3f})."))
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
    sentence = (f"For 「{query}」 over these {len(scores)} chunks, BM25 ranks {target} "
                + ", ".join(f"{r} under {t}" for t, r in places.items()) + ": "
                + (f"lowest under {_names(lowest)}" if lowest else "never lowest")
                + (f", first under {_names(top)}" if top else "") + "."
                + (" Here the tokenizer decides." if len(set(places.values())) > 1 else
                   " The tokenizer does not change its place here."))
    out.append(Claim(f"rank of {target}", tuple(top), {t: float(r) for t, r in places.items()},
                     sentence))
    return out


def read_userdict(entries: pd.DataFrame) -> list[Claim]:
    """Read ``tokenize.userdict_table``: how many entries change plain jieba's cut, and where."""
    n = len(entries)
    changes = entries[entries["texts where the entry changes the cut"] > 0]
    inert = entries[entries["texts where the entry changes the cut"] == 0]
    sentence = (f"Of the {n} entries, {len(changes)} change how jieba cuts at least one chunk or "
                f"question of this corpus ({', '.join(changes.index)}); the other {len(inert)} change "
                "nothing here" + (f" ({', '.join(inert.index)}): plain jieba already cuts those texts "
                                  "the same way, or no text holds the word" if len(inert) else "")
                + ".")
    return [Claim("user dictionary", (), {"entries": float(n), "changing": float(len(changes))},
                  sentence)]


def read_same_mrr(table: pd.DataFrame) -> list[Claim]:
    """Read a table of systems (rows) with MRR and other metrics: equal MRR, different the rest."""
    mrr = next(c for c in table.columns if c.startswith("MRR"))
    others = [c for c in table.columns if c != mrr]
    values = table[mrr].astype(float)
    same = bool(values.round(9).nunique() == 1)
    gaps = {c: float(table[c].astype(float).max() - table[c].astype(float).min()) for c in others}
    sentence = (f"{_names(list(table.index))} have "
                + (f"the same {mrr} ({values.iloc[0]:.3f})" if same else f"different {mrr}")
                + ", yet differ by " + ", ".join(f"{g:.3f} on {c}" for c, g in gaps.items())
                + (": MRR sees only the first relevant item of each question and misses the rest."
                   if same else "."))
    return [Claim(mrr, leader(values.to_dict()), values.to_dict(), sentence, extra=gaps)]
