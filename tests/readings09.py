# ruff: noqa: E501 - the patterns stand as the notebook prints its lines
"""Notebook 09's printed readings (English), checked against numbers recomputed through the public functions.

Each ``check_*`` takes the text a reading cell printed and what the test recomputed (gates run again through
``ragmath.gate``, the question counts through ``ragmath.stats.plan_questions``, the simulation by a loop
written here), and asserts every line's numbers and its words (``above``/``not above``, the decision and
its reason) as the condition the line states, computed here.
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np

from ragmath.stats import plan_questions

REASON = {"non-inferior": "non-inferior", "worse": "worse by more than the margin",
          "too few": "too few questions to tell"}
DECISION = {"PASS": "PASS (exit 0)", "FAIL": "FAIL (exit 1)"}
METRIC, MARGIN = "nDCG@10", 0.02


def printed(nb, cell_id: str) -> str:
    """What a code cell printed (its stdout and stderr streams), joined as a reader sees it, each reading on
    one line (:func:`outputs.unwrapped`)."""
    from outputs import cell_outputs, unwrapped

    cell = next(c for c in nb.cells if c.get("id") == cell_id)
    return unwrapped("".join(out.get("text", "") for out in cell_outputs(cell) if out.get("output_type") == "stream"))


def check_gate_lines(text: str, gates: dict, baseline: str) -> None:
    """Section 2's lines: one per version against the baseline, its interval, where the lower end stands
    against −margin, and the decision with its reason."""
    assert len(text.strip().splitlines()) == len(gates)
    for name, r in gates.items():
        above = "above" if r.low > -MARGIN else "not above"
        assert (f"{name} − {baseline} on {METRIC}: {r.mean_diff:+.3f} [{r.low:+.3f}, {r.high:+.3f}] on "
                f"{r.questions} questions; the lower end is {above} −{MARGIN:g}: {DECISION[r.decision]}, "
                f"{REASON[r.reason]}\n") in text, name


def check_case_lines(text: str, cases: dict) -> None:
    """Section 3's lines: each case's decision, and the line that says why (above −margin and above 0 or
    not; the mean below −margin; the questions a pilot needs)."""
    for case, r in cases.items():
        assert (f"{case}: {r.candidate} − {r.baseline} = {r.mean_diff:+.3f} [{r.low:+.3f}, {r.high:+.3f}] on "
                f"{r.questions} questions → {DECISION[r.decision]}, {REASON[r.reason]}\n") in text, case
    for r in cases.values():
        if r.passed:
            assert (f"the lower end {r.low:+.3f} lies above −0.02; the interval "
                    f"{'lies above 0: better, too' if r.low > 0 else 'reaches 0 or below: no worse, not better'}"
                    ) in text
        elif r.reason == "worse":
            assert f"the mean {r.mean_diff:+.3f} lies below −0.02: more questions" in text
        elif r.needed is not None:
            assert r.needed == plan_questions(_diffs(r), MARGIN + r.mean_diff)
            assert (f"a pilot like this one needs about {r.needed} questions ({r.needed - r.questions} more "
                    f"than these {r.questions})") in text


def _diffs(result) -> np.ndarray:
    per_question = result.comparison.per_question
    return (per_question[result.candidate][METRIC] - per_question[result.baseline][METRIC]).to_numpy()


def check_own_counts(text: str, gates: dict, baseline: str) -> None:
    """Section 4's lines on the workbook's own paired differences: σ_d, and each count as plan_questions
    computes it from the same differences; what the questions detect."""
    z = NormalDist().inv_cdf
    for name, r in gates.items():
        diffs = _diffs(r)
        sd = diffs.std(ddof=1)
        gain5, gain3, margin = (plan_questions(diffs, d) for d in (0.05, 0.03, MARGIN))
        detect = (z(0.975) + z(0.8)) * sd / np.sqrt(diffs.size)
        assert (f"{name} − {baseline} on {METRIC}: σ_d = {sd:.3f} over {diffs.size} questions "
                f"({'above' if sd > 0.2 else 'not above'} 0.2); a gain of 0.05 needs {gain5}, 0.03 needs {gain3}; "
                f"the gate within 0.02 (true difference 0) needs {margin}; these {diffs.size} questions detect "
                f"{detect:.3f}") in text, name


def false_stop_rate(diffs: np.ndarray, start: int, every: int) -> float:
    """The share of trials that a two-sided z test at 5% rejects at some look, one trial and look at a time."""
    critical = NormalDist().inv_cdf(0.975)
    stopped = 0
    for trial in diffs:
        for n in range(start, trial.size + 1, every):
            head = trial[:n]
            if abs(head.mean() / (head.std(ddof=1) / np.sqrt(n))) > critical:
                stopped += 1
                break
    return stopped / len(diffs)


def check_peeking_lines(text: str) -> None:
    """Section 5's lines: the fixed-n rate and each peeking rate, recomputed by a plain loop on the same
    seeded draws; the fixed test near 5%, every peeking rate above it, growing with the looks."""
    diffs = np.random.default_rng(0).normal(0, 0.2, size=(2_000, 200))
    fixed = false_stop_rate(diffs, 200, 200)
    assert f"one test at a fixed n = 200: {fixed:.1%} significant" in text
    assert 0.03 < fixed < 0.08
    rates = []
    for every in (90, 30, 10, 5):
        rate = false_stop_rate(diffs, 20, every)
        looks = len(range(20, 201, every))
        assert (f"a look every {every} questions from 20 to 200 ({looks} looks): {rate:.1%} stop 'significant', "
                f"{rate / 0.05:.1f} × the 5% a single test promises") in text, every
        rates.append(rate)
    assert rates == sorted(rates) and rates[0] > fixed and rates[-1] > 2 * 0.05
