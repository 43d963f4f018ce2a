"""Readings: the sentences after each results table, built from the computed numbers.

Each function returns ``Claim`` objects (what is compared, who leads, the numbers, whether it
matches what the article expects) and each claim carries its sentence, so a reading cannot drift
from its table: the tests check every claim against the table it reads. ``as_markdown`` joins the
sentences for display in a notebook.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

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
                     *, what: str = "questions", expected: Sequence[str] = ()) -> list[Claim]:
    """Read a table of first-relevant ranks (rows: questions, columns: versions).

    Claims: how many questions each version answers at rank 1 and within the top 5 (the leader on
    each); whether C keeps every rank-1 hit A had.
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
    if "A" in ranks and "C" in ranks:
        lost = [q for q in ranks.index if ranks.loc[q, "A"] == 1 and ranks.loc[q, "C"] != 1]
        sentence = (f"C loses A's rank-1 hit on {', '.join(lost)}: fusion pushed an exact hit down "
                    "(the article's remedy: revisit k or W)." if lost else
                    "C keeps every rank-1 hit that A had: fusion did not push an exact hit down.")
        out.append(Claim("rank-1 hits of A kept by C", ("C",) if not lost else ("A",),
                         {"lost": float(len(lost))}, sentence))
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



