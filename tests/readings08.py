# ruff: noqa: E501 - the patterns stand as the notebook prints its lines
"""Notebook 08's printed readings (English), checked against numbers recomputed through the public functions.

Each ``check_*`` takes the text a reading cell printed and the numbers recomputed by the test, parses every
line and asserts its numbers and its words (``excludes``/``includes``, ``below``/``not below``, ``lower``...)
as the condition the line states, computed here. Used for the workbook's stand-in (``test_notebooks.py``) and
for files the notebook has never seen (``test_own_readings.py``).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
from outputs import cell_outputs, unwrapped

from ragmath import evaluate, paired_bootstrap
from ragmath.comparison import Comparison, plan_questions
from ragmath.lab.notebook.own_system import labels_for, runs_for

#: (z_0.975 + z_0.8), two-sided α = 0.05 at 80% power: 1.959964 + 0.841621.
Z_SUM = 2.8015852


def stand_in() -> tuple:
    """The workbook's stand-in as notebooks 08 and 09 form it, recomputed here: its files read, the working and
    holdout questions (the grouped split, seed 0) and every pool item's label from the prepared judgements.
    Returns ``(mine, working, held, labels)``."""
    import tempfile
    from pathlib import Path

    from ragmath import grouped_split
    from ragmath.comparison import pool
    from ragmath.io import read_qrels
    from ragmath.lab.notebook.own_system import (
        POOL_DEPTH,
        PREPARED_JUDGEMENTS,
        labels_from,
        load_own_files,
        question_groups,
        workbook_files,
    )

    mine = load_own_files(workbook_files(Path(tempfile.mkdtemp(prefix="stand-in-"))))
    working, held = grouped_split(list(mine.questions["question_id"]), question_groups(mine.questions),
                                  holdout=1 / 3, seed=0)
    labels, _ = labels_from(pool(mine.runs, POOL_DEPTH), {}, read_qrels(PREPARED_JUDGEMENTS))
    return mine, working, held, labels


def printed(nb, cell_id: str) -> str:
    """What a code cell printed (its stdout and stderr streams), joined as a reader sees it, each reading on
    one line (:func:`outputs.unwrapped`)."""
    cell = next(c for c in nb.cells if c.get("id") == cell_id)
    return unwrapped("".join(out.get("text", "") for out in cell_outputs(cell) if out.get("output_type") == "stream"))


def _f(x: float, spec: str) -> str:
    return format(float(x), spec)


def check_bias_lines(text: str, bias: pd.DataFrame, baseline: str, only_base: str, every: str) -> None:
    """Section 6's lines: per label set, the versions below 0.9 × the baseline's Judged@5; per version, the
    difference from the baseline under the baseline's pool alone and under every version's pool."""
    set_names = list(dict.fromkeys(bias.index.get_level_values(0)))
    others = [v for v in dict.fromkeys(bias.index.get_level_values(1)) if v != baseline]
    for name in set_names:
        base = bias.loc[(name, baseline), "Judged@5"]
        warned = [v for v in others if bias.loc[(name, v), "Judged@5"] < 0.9 * base]
        assert (f"{name}: Judged@5 below 0.9 × {baseline}'s {_f(base, '.3f')} = {_f(0.9 * base, '.3f')}: "
                f"{', '.join(warned) or 'none'}") in text, name
    for v in others:
        alone = bias.loc[(only_base, v), "nDCG@5"] - bias.loc[(only_base, baseline), "nDCG@5"]
        full = bias.loc[(every, v), "nDCG@5"] - bias.loc[(every, baseline), "nDCG@5"]
        found = re.search(rf"^{re.escape(v)} − {re.escape(baseline)} on nDCG@5: ([+-]\d\.\d{{3}}) under "
                          rf"{re.escape(baseline)}'s pool, ([+-]\d\.\d{{3}}) under every version's pool: (lower|not lower) "
                          rf"when only {re.escape(baseline)}'s pool is labelled$", text, re.M)
        assert found and found.groups() == (_f(alone, "+.3f"), _f(full, "+.3f"),
                                            "lower" if alone < full else "not lower"), v


def check_comparison_lines(text: str, result: Comparison) -> dict[str, tuple]:
    """Section 7's lines, one per version against the baseline on nDCG@5, the sign-flip floor where at most
    20 questions differ, and the rule's candidate; returns the parsed lines by version."""
    baseline = result.baseline
    rows = result.comparisons[result.comparisons["metric"] == "nDCG@5"].set_index("system")
    pattern = (rf"^(\S+) − {re.escape(baseline)}: ([+-]\d\.\d{{3}}) \[([+-]\d\.\d{{3}}), ([+-]\d\.\d{{3}})\], the "
               r"interval (excludes|includes) 0; Holm p (\d\.\d{3}) \((below|not below) 0\.05\); wins (\d+), losses (\d+)$")
    lines = {m[0]: m[1:] for m in re.findall(pattern, text, re.M)}
    assert set(lines) == set(rows.index)
    for name, row in rows.iterrows():
        excludes = row["low"] > 0 or row["high"] < 0
        assert lines[name] == (_f(row["diff"], "+.3f"), _f(row["low"], "+.3f"), _f(row["high"], "+.3f"),
                               "excludes" if excludes else "includes", _f(row["p_holm"], ".3f"),
                               "below" if row["p_holm"] < 0.05 else "not below", str(int(row["wins"])),
                               str(int(row["losses"]))), name
        differ = int(row["wins"] + row["losses"])
        floor = f"questions that differ: {differ}; the exact sign-flip p cannot go below 2/2^{differ} = {2 / 2**differ:.4f}"
        assert (floor in text) == (0 < differ <= 20), name
    candidate = str(rows["diff"].idxmax())
    assert (f"The rule written before the table sends {candidate} ({_f(rows.loc[candidate, 'diff'], '+.3f')}) to "
            f"the holdout against {baseline}.") in text
    return lines


def check_plan_lines(text: str, result: Comparison) -> None:
    """Section 8's two lines for the candidate: its pilot's sd and size, the questions 0.05 needs, what 30
    questions detect, and where the observed difference stands."""
    rows = result.comparisons[result.comparisons["metric"] == "nDCG@5"].set_index("system")
    candidate, baseline = str(rows["diff"].idxmax()), result.baseline
    pilot = (result.per_question[candidate]["nDCG@5"] - result.per_question[baseline]["nDCG@5"]).to_numpy()
    sd, observed = pilot.std(ddof=1), pilot.mean()
    detect = Z_SUM * sd / np.sqrt(30)
    assert (f"{candidate} − {baseline} on nDCG@5: sd {sd:.3f} over {pilot.size} pilot questions; detecting 0.05 "
            f"(80% power, two-sided α = 0.05) needs {plan_questions(pilot, 0.05)} answerable questions, and 30 "
            f"questions detect only {detect:.3f} or more") in text
    assert (f"The observed difference ({observed:+.3f}) is {'above' if abs(observed) >= detect else 'below'} "
            f"that; detecting it needs {plan_questions(pilot, observed)} questions") in text


def check_opening_lines(text: str, runs: dict, labels: dict, held: list[str], result: Comparison) -> None:
    """Section 9's lines: the holdout's paired difference with its interval (seed 0), whether it excludes 0
    and holds the working questions' difference, and the few-questions warning exactly below 10."""
    rows = result.comparisons[result.comparisons["metric"] == "nDCG@5"].set_index("system")
    candidate, baseline = str(rows["diff"].idxmax()), result.baseline
    held_runs, held_labels = runs_for(runs, held), labels_for(labels, held)
    scores = {v: evaluate(held_runs[v], held_labels, ["nDCG@5"]).per_question["nDCG@5"]
              for v in (baseline, candidate)}
    joined = pd.concat(scores, axis=1).dropna()
    diff = paired_bootstrap(joined[baseline], joined[candidate], seed=0)
    working = rows.loc[candidate, "diff"]
    assert (f"on {len(joined)} answerable holdout questions, {candidate} − {baseline} on nDCG@5 = "
            f"{diff.mean_diff:+.3f} [{diff.low:+.3f}, {diff.high:+.3f}]") in text
    assert (f"The interval {'excludes' if diff.low > 0 or diff.high < 0 else 'includes'} 0 and "
            f"{'holds' if diff.low <= working <= diff.high else 'does not hold'} the working questions' "
            f"{working:+.3f}") in text
    assert ("fewer than 10: this interval rests on too few" in text) == (len(joined) < 10)


def check_power_line(text: str, result: Comparison) -> None:
    """Section 8's resampling check: the power found by 4,000 seeded draws of the planned number of questions
    (the candidate's pilot shifted to a true difference of 0.05), and "far apart" exactly when it is more
    than 5 points from the formula's 80%."""
    from statistics import NormalDist

    rows = result.comparisons[result.comparisons["metric"] == "nDCG@5"].set_index("system")
    candidate, baseline = str(rows["diff"].idxmax()), result.baseline
    pilot = (result.per_question[candidate]["nDCG@5"] - result.per_question[baseline]["nDCG@5"]).to_numpy()
    n = plan_questions(pilot, 0.05)
    rng = np.random.default_rng(0)
    draws = (pilot - pilot.mean() + 0.05)[rng.integers(0, pilot.size, size=(4_000, n))]
    z = draws.mean(axis=1) / (draws.std(axis=1, ddof=1) / np.sqrt(n))
    power = float(np.mean(np.abs(z) > NormalDist().inv_cdf(0.975)))
    assert f"resampled power at {n} questions (4,000 draws): {power:.1%}; the formula's: 80%" in text
    assert ("; far apart: the pilot's differences are far from normal" in text) == (abs(power - 0.8) > 0.05)


def shown_tables(nb, cell_id: str) -> str:
    """The plain text of the tables a code cell displayed (its display outputs), joined."""
    cell = next(c for c in nb.cells if c.get("id") == cell_id)
    return "\n".join(str(out.get("data", {}).get("text/plain", "")) for out in cell_outputs(cell)
                     if out.get("output_type") in ("display_data", "execute_result"))


def check_agreement_lines(text: str, table: str, work_labels: dict, work_runs: dict, second: dict, *,
                          by_hand: int, blind: int):
    """Section 6.1's lines: where the second pass's grades came from, raw agreement, Cohen's κ and the
    quadratic-weighted κ with their intervals (seed 0), the pairs relevant in one pass and 0 in the other, the
    displayed confusion matrix, and the versions' order on nDCG@5 under the first labels and with the sample's
    pairs regraded ("same order" exactly when it is the same). ``second``: the second pass's grades of the
    sample, as the test wrote or committed them. Returns the recomputed :class:`ragmath.agreement.Agreement`."""
    from sklearn.metrics import cohen_kappa_score

    from ragmath import label_agreement
    from ragmath.agreement import agreement_sample

    sample = agreement_sample(work_labels, min(48, sum(map(len, work_labels.values()))), seed=0)
    graded = [(q, i) for q, i in sample if i in second.get(q, {})]
    assert (f"second pass: judged in the widget {by_hand}; from the blind second labels {blind}; not judged yet "
            f"{len(sample) - len(graded)} of {len(sample)}") in text
    assert by_hand + blind == len(graded)
    first = {q: {i: work_labels[q][i] for i in items} for q, items in second.items()}
    result = label_agreement(first, second, seed=0)
    one, two = [work_labels[q][i] for q, i in graded], [second[q][i] for q, i in graded]
    assert result.pairs == len(graded) and result.raw == np.mean(np.array(one) == np.array(two))
    assert np.isclose(result.kappa, cohen_kappa_score(one, two))  # the reference implementation
    assert np.isclose(result.kappa_quadratic, cohen_kappa_score(one, two, weights="quadratic"))

    def shown(name: str, value: float) -> str:
        low, high = result.intervals[name]
        return f"{value:.3f} [{low:.3f}, {high:.3f}]"

    assert (f"{len(graded)} pairs over {len({q for q, _ in graded})} questions graded in both passes; 95% "
            "bootstrap intervals over questions (10,000 resamples, seed 0)") in text
    assert f"raw agreement {shown('raw', result.raw)}; chance alone gives {result.expected:.3f}" in text
    assert (f"Cohen's κ {shown('kappa', result.kappa)}; quadratic-weighted κ "
            f"{shown('kappa_quadratic', result.kappa_quadratic)}") in text
    down = sum(a >= 1 and b == 0 for a, b in zip(one, two, strict=True))
    up = sum(a == 0 and b >= 1 for a, b in zip(one, two, strict=True))
    assert (f"relevant in one pass and 0 in the other: {up + down} pairs (first relevant, second 0: {down}; "
            f"first 0, second relevant: {up})") in text
    grades = sorted({*one, *two})
    rows = [[int(n) for n in line.split()[1:]] for line in table.splitlines()[2:]]
    assert rows == [[sum(a == g and b == h for a, b in zip(one, two, strict=True)) for h in grades]
                    for g in grades], table
    regraded = {q: {**items, **second.get(q, {})} for q, items in work_labels.items()}
    orders = []
    for name, labels in (("the first labels", work_labels),
                         (f"the first labels with the {len(graded)} sample pairs regraded", regraded)):
        means = {v: evaluate(run, labels, ["nDCG@5"]).means["nDCG@5"] for v, run in work_runs.items()}
        order = sorted(means, key=lambda v: -means[v])
        assert f"nDCG@5 under {name}: " + ", ".join(f"{v} {means[v]:.3f}" for v in order) in text, name
        orders.append(order)
    assert ("\nsame order\n" in text) == (orders[0] == orders[1])
    assert ("order changes: " in text) == (orders[0] != orders[1])
    return result
