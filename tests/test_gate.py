"""The release gate (ragmath.release_gate, python -m ragmath gate): PASS, two kinds of FAIL, bad input.

Every run below puts one relevant item ("rel") at a chosen rank for each of ten questions, so MRR@20 of a
question is 1 / rank and each per-question difference is known by hand. Where every difference is the
same, every bootstrap resample has that mean: the interval is [d, d] exactly, whatever the seed.
"""

from __future__ import annotations

import io
import json
import math
from statistics import NormalDist

import pytest

from ragmath import compare, gate
from ragmath.cli import main
from ragmath.io import write_qrels, write_run

QUESTIONS = [f"q{i}" for i in range(10)]
QRELS = {q: {"rel": 1} for q in QUESTIONS}


def _ranking(rank: int) -> list[str]:
    return [f"x{j}" for j in range(1, rank)] + ["rel"]


def _run(ranks: list[int]) -> dict[str, list[str]]:
    return {q: _ranking(r) for q, r in zip(QUESTIONS, ranks, strict=True)}


def _cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    status = main([str(a) for a in argv], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture()
def files(tmp_path):
    """base.trec and the candidates of the four cases, with qrels.trec."""
    write_qrels(QRELS, tmp_path / "qrels.trec")
    runs = {
        "base": [2] * 10,        # MRR 1/2 everywhere
        "better": [1] * 10,      # +1/2 on every question
        "worse": [4] * 10,       # 1/4 - 1/2 = -1/4 on every question
        "base10": [10] * 10,     # MRR 1/10
        "close11": [11] * 10,    # 1/11 - 1/10 = -1/110 on every question
        "mixed": [1] * 5 + [4] * 5,  # +1/2 on five questions, -1/4 on five
    }
    for name, ranks in runs.items():
        write_run(_run(ranks), tmp_path / f"{name}.trec")
    return tmp_path


def _gate(files, baseline, candidate, *more):
    return _cli("gate", files / f"{baseline}.trec", files / f"{candidate}.trec", "--qrels",
                files / "qrels.trec", "--metric", "MRR@20", "--margin", "0.02", *more)


def _line(report: str, label: str) -> str:
    return next(line for line in report.splitlines() if line.startswith(label + ":")).split(":", 1)[1].strip()


# ---------------------------------------------------------------- the four cases


def test_a_clearly_better_candidate_passes_with_exit_0(files):
    status, out, err = _gate(files, "base", "better")
    assert status == 0, err
    # every difference is 1 - 1/2 = +0.5: the interval is [0.5, 0.5], far above -0.02
    assert _line(out, "decision") == ("PASS: non-inferior: the interval's lower end +0.5000 lies above "
                                      "-margin -0.0200")
    assert _line(out, "mean difference") == "+0.5000 (candidate - baseline)"
    assert _line(out, "95% interval").startswith("[+0.5000, +0.5000]")
    assert _line(out, "questions") == "10"
    assert _line(out, "smallest margin shown").startswith("any margin > 0")
    assert "questions needed" not in out


def test_a_candidate_within_the_margin_passes_and_says_the_smallest_margin_it_shows(files):
    status, out, err = _gate(files, "base10", "close11")
    assert status == 0, err
    # every difference is 1/11 - 1/10 = -1/110 = -0.00909..., above -0.02; so is the (degenerate) interval
    result = gate(files / "base10.trec", files / "close11.trec", files / "qrels.trec", "MRR@20", 0.02)
    assert result.mean_diff == pytest.approx(-1 / 110)
    assert result.low == pytest.approx(-1 / 110) and result.high == pytest.approx(-1 / 110)
    assert result.smallest_margin == pytest.approx(1 / 110)
    assert _line(out, "decision").startswith("PASS: non-inferior: the interval's lower end -0.0091")
    assert _line(out, "smallest margin shown").startswith("0.0091 (margins above it pass")


def test_a_clearly_worse_candidate_fails_with_exit_1_worse_by_more_than_the_margin(files):
    status, out, err = _gate(files, "base", "worse")
    assert status == 1, err
    # every difference is 1/4 - 1/2 = -0.25: the whole interval [-0.25, -0.25] lies below -0.02
    assert _line(out, "decision") == ("FAIL: worse by more than the margin: the whole interval "
                                      "[-0.2500, -0.2500] lies below -margin -0.0200")
    assert "questions needed" not in out and err == ""


def test_too_few_questions_fails_with_exit_1_and_the_questions_needed(files):
    status, out, err = _gate(files, "base", "mixed")
    assert status == 1, err
    # differences: +1/2 five times, -1/4 five times. Mean d = (5 * 0.5 - 5 * 0.25) / 10 = 0.125.
    # sd (n - 1): deviations +0.375 and -0.375, so sd² = 10 * 0.375² / 9 = 0.15625, sd = 0.395285.
    # n = ceil(((z_0.975 + z_0.8) * sd / (margin + d))²) = ceil((2.801585 * 0.395285 / 0.145)²)
    #   = ceil(7.63707²) = ceil(58.325) = 59
    z = NormalDist().inv_cdf(0.975) + NormalDist().inv_cdf(0.8)
    assert math.ceil((z * math.sqrt(0.15625) / 0.145) ** 2) == 59
    assert _line(out, "decision").startswith("FAIL: too few questions to tell: the interval [-")
    assert "straddles -margin -0.0200" in _line(out, "decision")
    assert _line(out, "mean difference") == "+0.1250 (candidate - baseline)"
    needed = _line(out, "questions needed")
    assert needed.startswith("about 59 questions (49 more than these 10)")
    assert "power 0.8" in needed and "sd_d = 0.3953" in needed and "margin + diff = 0.1450" in needed
    payload = json.loads(_gate(files, "base", "mixed", "--format", "json")[1])
    assert (payload["decision"], payload["reason"], payload["needed"], payload["power"]) == \
        ("FAIL", "too few", 59, 0.8)
    assert payload["ci"][0] < -0.02 < payload["ci"][1]


def test_the_gates_interval_is_compares_interval_with_the_same_seed_and_resamples(files):
    for seed in (0, 7):
        status, out, _ = _cli("compare", files / "base.trec", files / "mixed.trec", "--qrels",
                              files / "qrels.trec", "-m", "MRR@20", "--format", "json", "--seed", seed,
                              "--resamples", 20_000)
        assert status == 0
        compared = json.loads(out)["comparisons"][0]
        status, out, _ = _gate(files, "base", "mixed", "--format", "json", "--seed", seed,
                               "--resamples", 20_000)
        gated = json.loads(out)
        assert gated["ci"] == compared["ci"] and gated["diff"] == compared["diff"]  # identical, not close
    # alpha is compare's 1 - confidence
    runs = {"base": files / "base.trec", "mixed": files / "mixed.trec"}
    row = compare(runs, files / "qrels.trec", ["MRR@20"], seed=3, confidence=0.9).comparisons.iloc[0]
    result = gate(runs["base"], runs["mixed"], files / "qrels.trec", "MRR@20", 0.02, alpha=0.1, seed=3)
    assert (result.low, result.high) == (row["low"], row["high"])


def test_a_mean_below_minus_margin_fails_as_worse_even_when_the_interval_reaches_above_it():
    # differences: +1/2 on three questions, -1/2 on seven (ranks 2 -> 1 and 1 -> 2): mean -0.2 < -0.02
    base = _run([2] * 3 + [1] * 7)
    cand = _run([1] * 3 + [2] * 7)
    result = gate(base, cand, QRELS, "MRR@20", 0.02)
    assert result.mean_diff == pytest.approx(-0.2) and result.high > -0.02
    assert (result.decision, result.reason, result.exit_status) == ("FAIL", "worse", 1)
    assert "the mean difference -0.2000 lies below -margin -0.0200" in result.explanation


def test_the_questions_needed_are_undefined_when_the_mean_is_exactly_minus_margin():
    # differences -1/2 (ranks 1 -> 2) on five questions and 0 on five: mean -0.25 = -margin
    base = _run([1] * 10)
    cand = _run([2] * 5 + [1] * 5)
    result = gate(base, cand, QRELS, "MRR@20", 0.25)
    assert result.mean_diff == -0.25 and result.reason == "too few" and result.needed is None
    assert result.needed_note.startswith("undefined: the mean difference -0.2500 is not above -margin")


def test_few_questions_are_noted_and_the_markdown_report_holds_the_same_rows(files):
    short = {q: QRELS[q] for q in QUESTIONS[:6]}
    result = gate(_run([2] * 10), _run([1] * 10), short, "MRR@20", 0.02)
    assert result.passed and any("only 6 questions:" in note for note in result.notes)
    markdown = result.to_markdown()
    assert markdown.startswith("| gate | value |") and "| decision | PASS: non-inferior" in markdown


@pytest.mark.parametrize(("n", "alpha", "passes"), [(5, 0.05, False), (6, 0.05, True), (4, 0.1, False),
                                                     (5, 0.1, True)])
def test_no_candidate_passes_on_fewer_questions_than_any_paired_test_can_decide(n, alpha, passes):
    # every difference is +1/2 (rank 2 -> rank 1): the bootstrap interval is [0.5, 0.5] whatever n is, but
    # the exact sign-flip p of n equal signs is 2/2^n: 2/32 = 0.0625 > 0.05, 2/64 = 0.03125 <= 0.05;
    # at alpha 0.1, 2/16 = 0.125 > 0.1 and 2/32 = 0.0625 <= 0.1
    short = {q: QRELS[q] for q in QUESTIONS[:n]}
    result = gate(_run([2] * 10), _run([1] * 10), short, "MRR@20", 0.02, alpha=alpha)
    assert (result.low, result.high) == (0.5, 0.5)
    assert result.passed is passes
    if not passes:
        assert result.reason == "too few" and result.exit_status == 1
        assert result.explanation.startswith(f"too few questions to tell: only {n}, and no paired test")
        assert f"can decide on fewer than {n + 1}" in result.explanation


def test_groups_and_unit_map_are_taken_as_compare_takes_them(files):
    (files / "groups.csv").write_text("question,group\n" + "".join(
        f"{q},{'a' if i < 5 else 'b'}\n" for i, q in enumerate(QUESTIONS)), encoding="utf-8")
    status, out, err = _gate(files, "base", "mixed", "--groups", files / "groups.csv")
    assert status == 1 and "per group:" in out
    assert "fewer than 10 questions in these groups, so their means are loose: a, b" in err
    units = "id,unit\nrel,R\n" + "".join(f"x{j},X\n" for j in range(1, 12))
    (files / "units.csv").write_text(units, encoding="utf-8")
    # at units every x* is one unit X: rank 2 for ranks 2..11, so base10 -> close11 is no change at all
    status, out, _ = _gate(files, "base10", "close11", "--unit-map", files / "units.csv")
    assert status == 0 and _line(out, "mean difference") == "+0.0000 (candidate - baseline)"


# ---------------------------------------------------------------- bad input: exit 2 with a message


@pytest.mark.parametrize("more, fragment", [
    (["--margin", "0"], "margin must be a finite number above 0 and below 1"),
    (["--margin", "-0.02"], "margin must be a finite number above 0 and below 1"),
    (["--margin", "1.5"], "margin must be a finite number above 0 and below 1"),
    (["--margin", "nan"], "--margin must be a number such as 0.02"),
    (["--margin", "inf"], "--margin must be a number such as 0.02"),
    (["--alpha", "0"], "alpha must be a finite number above 0 and below 1"),
    (["--alpha", "1"], "alpha must be a finite number above 0 and below 1"),
    (["--alpha", "1.5"], "alpha must be a finite number above 0 and below 1"),
    (["--metric", "Precision@10"], "unknown metric 'Precision'"),
    (["--metric", "Judged@10"], "gate decides on a retrieval metric"),
    (["--metric", "nDCG@10"], "gate decides on one metric, got 2"),
    (["--resamples", "100"], "--resamples must be at least 10000"),
])
def test_bad_numbers_and_metrics_exit_2_with_a_message(files, more, fragment):
    argv = ["gate", files / "base.trec", files / "mixed.trec", "--qrels", files / "qrels.trec",
            "--metric", "MRR@20", "--margin", "0.02"]
    if more[0] == "--margin":
        argv = argv[:-2]
    if more[0] == "--metric" and more[1] != "nDCG@10":
        argv = argv[:5] + argv[7:]
    status, out, err = _cli(*argv, *more)
    assert status == 2 and fragment in err and out == "" and "Traceback" not in err


def test_mismatched_files_exit_2_with_a_message(files):
    write_run({"z1": ["a"], "z2": ["b"]}, files / "other.trec")
    status, _, err = _gate(files, "base", "other")
    assert status == 2 and "the run 'other' answers none of the 10 labelled questions" in err
    status, _, err = _cli("gate", files / "base.trec", files / "qrels.trec", "--qrels", files / "qrels.trec",
                          "--metric", "MRR@20", "--margin", "0.02")
    assert status == 2 and "qrels.trec, line 1: expected 6 fields" in err
    write_qrels({"q0": {"rel": 0}}, files / "none.trec")
    status, _, err = _cli("gate", files / "base.trec", files / "mixed.trec", "--qrels", files / "none.trec",
                          "--metric", "MRR@20", "--margin", "0.02")
    assert status == 2 and "no relevant item" in err
    status, _, err = _cli("gate", files / "base.trec", files / "base.trec", "--qrels", files / "qrels.trec",
                          "--metric", "MRR@20", "--margin", "0.02")
    assert status == 2 and "two runs are named 'base'" in err and "NAME=PATH" in err


def test_the_command_lines_help_lists_gate_and_its_exit_statuses():
    status, out, _ = _cli("--help")
    assert status == 0 and "gate" in out and len(out.splitlines()) <= 40
    status, out, _ = _cli("gate", "--help")
    assert status == 0 and "(exit 0)" in out and "(exit 1)" in out and "power 0.8" in out


def test_ragmath_gate_stays_the_function_once_its_module_is_imported():
    import ragmath
    import ragmath.release_gate

    assert ragmath.gate is ragmath.release_gate.gate and ragmath.GateResult is ragmath.release_gate.GateResult


def test_the_notes_keep_the_labelled_note_and_drop_the_p_and_columns_notes():
    # q9 is in both runs but has no label: compare adds its "labelled" note after the baseline's, which moved
    # the p-value's note from the second place (the gate dropped the second note, whatever it was)
    labels = {q: g for q, g in QRELS.items() if q != "q9"}
    result = gate(_run([2] * 10), _run([1] * 10), labels, "MRR@20", 0.02, n_resamples=200)
    notes = "\n".join(result.notes)
    assert "9 of 10 questions labelled" in notes
    assert "sign-flip" not in notes and "columns:" not in notes
