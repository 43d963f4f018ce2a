"""Notebooks 07 and 08's readings in Chinese: the same claims as in English, only the sentences change.

Each case calls one public reading of the two sections in English and in Chinese and checks that the
claims' data (metric, leaders, values, expectation, extra) is the same, that the Chinese sentence holds the
same numbers as the English one (each at least once), and that no English word is left in it beyond metric
names, version letters, IDs, file names, the input's own labels and a few names kept in Latin letters (BM25,
Holm, Wilson, ...).
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import pandas as pd
import pytest

import ragmath.lab.readings as readings
from ragmath import compare
from ragmath.lab.ablation import P_HOLM, P_SIGN_FLIP
from ragmath.lab.messages import CATALOGUE, message, use_language
from ragmath.lab.notebook.own_system import latency_summary, plan_table, pooling_bias
from ragmath.lab.readings import CHART_TITLES_07, WORDS_08

#: Words the Chinese text keeps in Latin letters: names of methods, tools and formats, and the data labels
#: the cases below pass in (leak names, question types).
KEPT = {"Wilson", "Holm", "Oracle", "LLM", "CSV", "Markdown", "git", "compare", "ms", "ID",
        "paraphrase", "exact-id", "other", "memory", "tuning"}
METRIC = re.compile(r"\b(?:nDCG|Recall|Judged|MRR|m)@\d+")
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _english_left(text: str) -> list[str]:
    text = METRIC.sub(" ", re.sub(r"`[^`]*`|[\w/]+\.(?:csv|md|json)\b", " ", text))  # code, file names
    words = re.findall(r"(?<![A-Za-z0-9_])[A-Za-z][A-Za-z-]*[A-Za-z](?![A-Za-z0-9_])", text)  # not IDs
    return [w for w in words if w not in KEPT]


def _data(claim: readings.Claim) -> tuple:
    return claim.metric, claim.leaders, dict(claim.values), claim.expected, claim.matches, dict(claim.extra)


def _leak_rows() -> pd.DataFrame:
    index = pd.MultiIndex.from_product([[0, 1, 2], ["memory (M = 5)", "tuning (k, W, M)"]],
                                       names=["seed", "leak"])
    return pd.DataFrame({"difference": [0.1, 0.0, -0.05, 0.02, 0.03, -0.2],
                         "low": [0.02, -0.1, -0.2, 0.01, -0.1, -0.3],
                         "high": [0.2, 0.1, -0.01, 0.05, 0.2, -0.1],
                         "test questions": 13, "test questions with a twin in fitting": [3, 3, 4, 4, 5, 5],
                         "twins in fitting": [6, 6, 6, 6, 7, 7]}, index=index)


def _types(paraphrase: list[float], exact: list[float], spread: float) -> pd.DataFrame:
    means = {"paraphrase": paraphrase, "exact-id": exact, "other": [0.1, 0.9, 0.2, 0.3]}
    sizes = {"paraphrase": 10, "exact-id": 7, "other": 3}
    return pd.DataFrame([{"type": kind, "version": v, "mean": m, "low": m - spread, "high": m + spread,
                          "N": sizes[kind]}
                         for kind, ms in means.items() for v, m in zip("ABCD", ms, strict=True)])


PAIRS = pd.DataFrame({"comparison": ["D − C", "C − A", "B − A"], "mean diff": [0.05, 0.01, 0.04],
                      "low": [0.01, -0.03, 0.001], "high": [0.09, 0.05, 0.08],
                      P_SIGN_FLIP: [0.004, 0.3, 0.03],
                      P_HOLM: [0.008, 0.3, 0.09], "wins": [12, 8, 8], "losses": [1, 6, 3],
                      "questions": [43, 43, 43], "excludes 0": [True, False, True]})


def _closing(pairs: pd.DataFrame, holdout_mean: float) -> list[readings.Claim]:
    return readings.read_closing(
        questions=53, answerable=43, opened=1, holdout={"mean": holdout_mean, "low": 0.6, "high": 0.8},
        dev_value=0.75, accuracy={"x": 30, "N": 43, "value": 30 / 43, "low": 0.55, "high": 0.81},
        oracle={"x": 40, "N": 43, "value": 40 / 43, "low": 0.8, "high": 0.97}, pairs=pairs, smallest_type=3)


def _overlap(**more: object) -> dict:
    return {"shared with dev evidence": [("Q67", "TRV26-4.2-a"), ("Q70", "X-1")],
            "holdout positive labels": 40, "corpus chunks": 120, **more}


def _bias(three: bool) -> list[readings.Claim]:
    """Label sets named in the current language, as notebook 08 names them."""
    pool_of = WORDS_08["pool of"].format
    if three:
        runs = {"A": {"q1": ["a", "x"], "q2": ["b", "y"]}, "B": {"q1": ["n", "a"], "q2": ["b", "z"]},
                "C": {"q1": ["m", "n"], "q2": ["y", "b"]}}
        sets = {pool_of(names="A"): {"q1": {"a": 1}, "q2": {"b": 1}},
                pool_of(names="A, B"): {"q1": {"a": 1, "n": 1}, "q2": {"b": 1}},
                WORDS_08["complete"]: {"q1": {"a": 1, "n": 1, "m": 1}, "q2": {"b": 1}}}
        new = ["B", "C"]
    else:
        runs = {"A": {"q1": ["a", "x"]}, "B": {"q1": ["n", "a"]}}
        sets = {pool_of(names="A"): {"q1": {"a": 1}}, pool_of(names="A, B"): {"q1": {"a": 1, "n": 1}},
                WORDS_08["complete"]: {"q1": {"a": 1, "n": 1, "m": 1}}}
        new = ["B"]
    table = pooling_bias(runs, sets, ["Recall@1"], baseline="A")
    out = readings.read_pooling_bias(table, metric="Recall@1", baseline="A", partial=pool_of(names="A"),
                                     full=pool_of(names="A, B"), single=pool_of(names="A"),
                                     complete=WORDS_08["complete"], new=new)
    same = pool_of(names="A, B")  # every pool the same set: nothing moves, nobody is flattered
    return out + readings.read_pooling_bias(table, metric="Recall@1", baseline="A", partial=same, full=same,
                                            single=same, complete=same, new=new[-1:])


def _latency(failing: bool) -> list[readings.Claim]:
    errors = ["", "boom", "boom"] if failing else ["", "", ""]
    tables = {v: pd.DataFrame({"latency_ms": [1.0 + i, 2.5 * (i + 1), 9.0], "error": errors})
              for i, v in enumerate("ABC")}
    return readings.read_latency(latency_summary(tables))


def _comparison(level: float, versions: str = "ABCD") -> list[readings.Claim]:
    runs = {"A": {f"q{i}": ["x", "r"] for i in range(6)}, "B": {f"q{i}": ["r"] for i in range(6)},
            "C": {f"q{i}": ["r"] for i in range(6)}, "D": {f"q{i}": ["y", "x"] for i in range(6)}}
    result = compare({v: runs[v] for v in versions}, {f"q{i}": {"r": 1} for i in range(6)}, ["MRR@2"],
                     n_resamples=500)
    return readings.read_comparison(result, "MRR@2", level=level)


def _plan(version: str) -> list[readings.Claim]:
    per_question = {"A": pd.DataFrame({"m@1": [0.0, 0.0, 0.0, 0.0]}),
                    "C": pd.DataFrame({"m@1": [0.2, -0.1, 0.3, 0.0]}),
                    "D": pd.DataFrame({"m@1": [0.2, -0.2, 0.1, -0.1]})}
    plan = plan_table(SimpleNamespace(per_question=per_question, baseline="A"), "m@1", 0.1, questions=30)
    return readings.read_plan(plan, metric="m@1", d=0.1, version=version, questions=30, power=0.8,
                              resampled=0.79, draws=4_000)


def _opening(ran: bool, low: float) -> list[readings.Claim]:
    opening = SimpleNamespace(number=2, times_opened=2, ran=ran,
                              record={"opened_at": "2026-01-01", "commit": "0123456789012345",
                                      "design_sha256": "9" * 64})
    index = pd.MultiIndex.from_product([["q1", "q2"], ["A", "D"]], names=["question", "version"])
    scores = pd.DataFrame({"nDCG@5": [0.5, 0.7, 1.0, 1.0]}, index=index)
    return readings.read_opening(opening, scores, baseline="A", candidate="D", metric="nDCG@5",
                                 diff={"mean": 0.1, "low": low, "high": 0.3}, dev_diff=0.02)


CASES = {
    "generations, too precise": lambda: readings.read_generations([[1, 1, 1], [0, 1, 0], [0, 0, 0]],
                                                                  (0.3, 0.8), (0.1, 0.9)),
    "generations, not narrower": lambda: readings.read_generations([[1, 1], [0, 1]], (0.1, 0.9), (0.3, 0.5)),
    "fixed leaks": lambda: readings.read_fixed_leaks(_leak_rows(), "nDCG@5"),
    **{f"frozen choice [{low}, {high}]": (lambda low=low, high=high: readings.read_frozen_choice(
        {"diff vs default": 0.04, "low": low, "high": high, P_SIGN_FLIP: 0.219, "questions": 43}, knob="k",
        frozen=1, default=60, fixed="W = 40, M = 5")) for low, high in ((-0.006, 0.102), (0.01, 0.1))},
    "overlap, no history": lambda: readings.read_overlap(_overlap(**{"chunks added with the holdout": None})),
    "overlap, distractors": lambda: readings.read_overlap(_overlap(**{
        "chunks added with the holdout": ["a", "b"], "added chunks in the dev corpus": 2,
        "dev labels on added chunks": 0})),
    "overlap, labelled": lambda: readings.read_overlap(_overlap(**{
        "chunks added with the holdout": ["a", "b", "c"], "added chunks in the dev corpus": 3,
        "dev labels on added chunks": 2})),
    **{f"types {i}, spread {s}": (lambda p=p, e=e, s=s: readings.read_types(_types(p, e, s), "nDCG@5"))
       for i, (p, e) in enumerate((([0.5, 0.8, 0.7, 0.6], [0.9, 0.5, 0.6, 0.7]),
                                   ([0.9, 0.8, 0.85, 0.95], [0.5, 0.5, 0.6, 0.7])))
       for s in (0.05, 0.3)},
    "closing, with an edge row": lambda: _closing(PAIRS, 0.7),
    "closing, higher, none settled": lambda: _closing(PAIRS.iloc[1:2], 0.8),
    "split": lambda: readings.read_split(
        working=["q1", "q2", "q3"], holdout=["q4", "q5"],
        group={"q1": "a", "q2": "b", "q3": "c", "q4": "c", "q5": "d"},
        sealed={"date": "2026-01-01", "commit": "0123456789012345", "questions_sha256": "1" * 64,
                "labels_sha256": "2" * 64}),
    "latency": lambda: _latency(False),
    "latency, failures": lambda: _latency(True),
    "pool": lambda: readings.read_pool(
        pd.DataFrame({"question": ["q1", "q1", "q2"], "id": ["a", "b", "c"], "best rank": [1, 2, 1],
                      "versions": [["A", "B"], ["B"], ["A"]]}), depth=2, versions=["A", "B", "C"]),
    "labelling, nobody": lambda: readings.read_labelling({"by hand": 0, "prepared": 7}, prepared="p.csv"),
    "labelling, by hand": lambda: readings.read_labelling({"by hand": 2, "prepared": 5}, prepared="p.csv"),
    "pooling bias, three versions": lambda: _bias(True),
    "pooling bias, two versions": lambda: _bias(False),
    **{f"comparison at {level}": (lambda level=level: _comparison(level)) for level in (0.05, 0.1)},
    "comparison, one better": lambda: _comparison(0.5, "AB"),
    "report": lambda: readings.read_report("r.md", "| a | b |\n|---|---|\n| 1 | 2 |\n\n- one\n"),
    **{f"plan {v}": (lambda v=v: _plan(v)) for v in "CD"},
    **{f"opening, ran {ran}, low {low}": (lambda ran=ran, low=low: _opening(ran, low))
       for ran in (True, False) for low in (-0.1, 0.05)},
}


@pytest.mark.parametrize("case", CASES)
def test_chinese_reading_has_the_english_claims_numbers_and_no_english_words(case):
    english = CASES[case]()
    use_language("zh")
    chinese = CASES[case]()
    assert [_data(c) for c in chinese] == [_data(c) for c in english]
    for en, zh in zip(english, chinese, strict=True):
        assert re.search(r"[\u4e00-\u9fff]", zh.sentence), zh.sentence
        assert set(NUMBER.findall(zh.sentence)) == set(NUMBER.findall(en.sentence)), (en.sentence,
                                                                                       zh.sentence)
        assert _english_left(zh.sentence) == [], zh.sentence


def test_the_cases_reach_every_message_of_the_two_sections_in_chinese(monkeypatch):
    used = set()

    def spy(key, /, **fields):
        used.add(key)
        return message(key, **fields)

    monkeypatch.setattr(readings, "message", spy)
    use_language("zh")
    for case in CASES.values():
        case()
    dict(CHART_TITLES_07), dict(WORDS_08)
    assert {k for k in CATALOGUE if k.startswith(("readings.07.", "readings.08."))} - used == set()


def test_chart_titles_and_table_words_follow_the_language_chosen_when_read():
    english_titles, english_words = dict(CHART_TITLES_07), dict(WORDS_08)
    assert english_titles["seed"] == "seed" and english_words["version"] == "version"
    use_language("zh")
    assert CHART_TITLES_07["seed"] == "随机种子" and WORDS_08["version"] == "版本"
    assert set(CHART_TITLES_07) == set(english_titles) and set(WORDS_08) == set(english_words)
    assert CHART_TITLES_07["leak"].format(leak="memory (M = 5)").startswith("memory (M = 5)：泄漏 − 干净")
    assert WORDS_08["minus"].format(metric="nDCG@5", baseline="A") == "nDCG@5 − A"
    assert WORDS_08["questions for d"].format(d=0.05) == "检出 0.05 所需问题数"
    use_language("en")
    assert dict(CHART_TITLES_07) == english_titles and dict(WORDS_08) == english_words


def test_tables_built_in_chinese_are_read_by_their_chinese_words():
    use_language("zh")
    tables = {"A": pd.DataFrame({"latency_ms": [1.0, 3.0, 8.0], "error": ["", "", "x"]}),
              "B": pd.DataFrame({"latency_ms": [2.0, 2.0, 2.0], "error": ["", "", ""]})}
    summary = latency_summary(tables)
    assert list(summary.columns) == ["问题数", "中位数 ms", "95 分位数 ms", "失败数"]
    assert summary.index.name == "版本"
    (claim,) = readings.read_latency(summary)
    assert claim.values == {"A": 3.0, "B": 2.0} and claim.extra == {"failures": 1.0}
    assert "延迟中位数从 2.0 ms（B）到 3.0 ms（A）" in claim.sentence and "失败：A 1" in claim.sentence
    (plan,) = _plan("C")
    assert "需要 " in plan.sentence and plan.values["questions"] > 0
