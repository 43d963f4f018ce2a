"""ragmath against an independent reference written here, in plain Python, from the formulas.

The package computes each metric and RRF once (:mod:`ragmath.metrics`, :func:`ragmath.fusion.fuse`),
for one question or a whole run. Every case here computes the same thing a second way, question by
question with sets, ``math.fsum`` and fractions (``_reference`` and ``_reference_fusion`` below), and
asks ``evaluate`` / ``fuse_runs`` / ``rrf`` for the same per-question values, means, question groups,
fused scores and order.
Ties are made on purpose (a handful of score values, small ID pools, several runs), and so are
questions that are missing, unjudged or without answer, K beyond every list and one-item lists.
Files go through the readers with tabs, runs of spaces, CRLF and UTF-8 IDs of many lengths.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from types import SimpleNamespace

import pandas as pd
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragmath import evaluate, fuse_runs, rrf
from ragmath.ranking import order_run_table, ranking_from_scores, tie_rule_order

METRICS = ["Recall@1", "Recall@5", "Hit@3", "MRR@4", "nDCG@2", "nDCG@10", "MRR@1000"]
TIED_SCORES = [0.1, 0.2, 0.5, 0.9, 1 / 3, 2.0]
# IDs of many lengths, ASCII and not (CJK, accents, an emoji), none with spaces or control characters.
ID_STEMS = ["d", "文档", "é", "x" * 40, "🙂", "Ω-Ω", "doc-0001", "ā" * 200]


def _random_case(rng: random.Random, *, stems=("d",)):
    docs = [f"{rng.choice(stems)}{i}" for i in range(rng.randint(1, 14))]
    run, qrels = {}, {}
    for q in range(rng.randint(0, 9)):
        name = f"q{q}"
        if rng.random() < 0.8:  # else: missing from the run
            ids = rng.sample(docs, rng.randint(1, len(docs)))  # one-item lists included
            run[name] = ids if rng.random() < 0.4 else {d: rng.choice(TIED_SCORES) for d in ids}
        if rng.random() < 0.85:  # else: unjudged (when in the run)
            labelled = rng.sample(docs, rng.randint(0, len(docs)))
            qrels[name] = {d: rng.choice([0, 0, 1, 2, 3]) for d in labelled}
        if not qrels.get(name, True):
            del qrels[name]  # a labelled question has at least one label in a table
    return run, qrels


def _tie_rule(scores: dict) -> list:
    """The tie rule, from its statement: score descending, then the ID's text in code-point order."""
    return sorted(scores, key=lambda d: (-scores[d], str(d)))


def _ranking(value):
    return _tie_rule(value) if isinstance(value, dict) else list(value)


def _metric(name: str, ranking: list, grades: dict, k: int, gain: str) -> float:
    """One metric of one question, straight from its formula (no code shared with ragmath)."""
    top = ranking[:k]
    relevant = {d for d, g in grades.items() if g > 0}
    if name == "Recall":
        return len(relevant & set(top)) / len(relevant)
    if name == "Hit":
        return float(bool(relevant & set(top)))
    if name == "MRR":
        return next((1 / i for i, d in enumerate(top, 1) if d in relevant), 0.0)
    if name == "Judged":
        return sum(1 for d in top if d in grades) / k

    def gained(g):
        return (2**g - 1) if gain == "exp" else g

    dcg = math.fsum(gained(grades.get(d, 0)) / math.log2(i + 1) for i, d in enumerate(top, 1))
    ideal = sorted(grades.values(), reverse=True)[:k]
    idcg = math.fsum(gained(g) / math.log2(i + 1) for i, g in enumerate(ideal, 1))
    return dcg / idcg


def _reference(run, qrels, names, gain="exp"):
    """What evaluate must give, computed question by question from the formulas (``_metric``)."""
    answerable = [q for q, grades in qrels.items() if any(g > 0 for g in grades.values())]
    rows = {}
    for question in answerable:
        ranking = _ranking(run.get(question, []))
        rows[question] = {name: _metric(name.split("@")[0], ranking, qrels[question], int(name.split("@")[1]),
                                        gain) for name in names}
    per_question = pd.DataFrame.from_dict(rows, orient="index", columns=list(names))
    per_question.index.name = "question"
    no_answer = [q for q in qrels if q not in answerable]
    return SimpleNamespace(
        per_question=per_question,
        means=pd.Series({n: math.fsum(per_question[n]) / len(rows) if rows else math.nan for n in names}),
        no_answer=no_answer,
        missing=[q for q in answerable if q not in run],
        unjudged=[q for q in run if q not in qrels],
        ndcg_undefined=no_answer if any(n.startswith("nDCG") for n in names) else [],
    )


def _assert_same_evaluation(fast, ref):
    pd.testing.assert_frame_equal(fast.per_question, ref.per_question, check_exact=False,
                                  rtol=1e-12, atol=1e-15, check_index_type=False, check_dtype=False)
    assert list(fast.means.index) == list(ref.means.index)
    for name in ref.means.index:
        a, b = float(fast.means[name]), float(ref.means[name])
        assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, rel=1e-12, abs=1e-15)
    assert fast.no_answer == ref.no_answer
    assert fast.missing == ref.missing
    assert fast.unjudged == ref.unjudged
    assert fast.ndcg_undefined == ref.ndcg_undefined


# ---------------------------------------------------------------- evaluate


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), gain=st.sampled_from(["exp", "linear"]))
def test_evaluation_equals_the_definitions_on_random_runs_with_ties(seed, gain):
    run, qrels = _random_case(random.Random(seed))
    _assert_same_evaluation(evaluate(run, qrels, METRICS, gain=gain), _reference(run, qrels, METRICS, gain))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_recall_hit_mrr_equal_the_exact_fractions(seed):
    run, qrels = _random_case(random.Random(seed))
    names = ["Recall@3", "Hit@2", "MRR@5"]
    fast = evaluate(run, qrels, names)
    exact = evaluate(run, qrels, names, exact=True)
    assert list(fast.per_question.index) == list(exact.per_question.index)
    for name in names:  # a quotient of two small integers is rounded once, either way
        assert fast.per_question[name].tolist() == [float(v) for v in exact.per_question[name]]
        if len(exact.per_question):
            assert isinstance(exact.means[name], Fraction)


def _write_run_file(path, run, rng, *, crlf: bool) -> None:
    """A TREC run written by hand with random separators (tabs, runs of spaces)."""
    end = "\r\n" if crlf else "\n"
    lines = []
    for question, ranking in run.items():
        scores = ranking if isinstance(ranking, dict) else {d: float(len(ranking) - i)
                                                             for i, d in enumerate(ranking)}
        for rank, (doc, score) in enumerate(scores.items(), start=1):
            fields = [question, "Q0", doc, str(rank), repr(score), "tag"]
            line = ""
            for i, field in enumerate(fields):
                line += field if i == 0 else rng.choice([" ", "\t", "  ", " \t ", "\t\t"]) + field
            lines.append(line)
    rng.shuffle(lines)  # file order is not the tie rule's order: the engine must sort
    path.write_bytes((end.join(lines) + end).encode("utf-8"))


def _write_qrels_file(path, qrels, rng, *, crlf: bool) -> None:
    end = "\r\n" if crlf else "\n"
    lines = [
        rng.choice([" ", "\t", "   "]).join([question, "0", doc, str(grade)])
        for question, grades in qrels.items()
        for doc, grade in grades.items()
    ]
    path.write_bytes((end.join(lines) + end).encode("utf-8"))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), crlf=st.booleans())
def test_evaluation_of_odd_files_equals_the_definitions(tmp_path_factory, seed, crlf):
    rng = random.Random(seed)
    run, qrels = _random_case(rng, stems=ID_STEMS)
    run = {q: r for q, r in run.items() if r}
    folder = tmp_path_factory.mktemp("files")
    _write_run_file(folder / "run.trec", run, rng, crlf=crlf)
    _write_qrels_file(folder / "qrels.trec", qrels, rng, crlf=crlf)
    scored = {q: r if isinstance(r, dict) else {d: float(len(r) - i) for i, d in enumerate(r)}
              for q, r in run.items()}
    fast = evaluate(folder / "run.trec", folder / "qrels.trec", METRICS)
    ref = _reference(scored, qrels, METRICS)
    # The file lists unjudged questions in file order (shuffled here); compare them as sets.
    assert sorted(fast.unjudged) == sorted(ref.unjudged)
    ref.unjudged = fast.unjudged
    _assert_same_evaluation(fast, ref)


def test_evaluation_of_dataframes_equals_the_definitions():
    rng = random.Random(7)
    for _ in range(20):
        run, qrels = _random_case(rng)
        run = {q: r for q, r in run.items() if isinstance(r, dict)}
        rows = [(q, d, s) for q, r in run.items() for d, s in r.items()]
        labels = [(q, d, g) for q, g_ in qrels.items() for d, g in g_.items()]
        ref = _reference(run, qrels, METRICS)
        for frame_type in (pd.DataFrame, pl.DataFrame):
            run_frame = frame_type({"question": [r[0] for r in rows], "id": [r[1] for r in rows],
                                    "score": [r[2] for r in rows]})
            qrels_frame = frame_type({"question": [r[0] for r in labels], "id": [r[1] for r in labels],
                                      "grade": [r[2] for r in labels]})
            _assert_same_evaluation(evaluate(run_frame, qrels_frame, METRICS), ref)


def test_k_beyond_every_list_counts_what_is_there():
    # Hand calculation: q1 ranks a (grade 2) first and c (grade 1) third of three; R = {a, b, c}.
    run, qrels = {"q1": ["a", "x", "c"]}, {"q1": {"a": 2, "b": 1, "c": 1}}
    result = evaluate(run, qrels, ["Recall@100", "MRR@100", "nDCG@100"], gain="linear")
    assert result.means["Recall@100"] == pytest.approx(2 / 3)
    assert result.means["MRR@100"] == 1.0
    dcg = 2 / math.log2(2) + 1 / math.log2(4)
    idcg = 2 / math.log2(2) + 1 / math.log2(3) + 1 / math.log2(4)
    assert result.means["nDCG@100"] == pytest.approx(dcg / idcg, rel=1e-15)


def test_groups_of_questions_of_a_table():
    run = pl.DataFrame({"question": ["q1", "q2", "q9"], "id": ["a", "b", "c"], "score": [1.0, 1.0, 1.0]})
    qrels = pl.DataFrame({"question": ["q1", "q2", "q3"], "id": ["a", "b", "z"], "grade": [1, 0, 2]})
    result = evaluate(run, qrels, ["Hit@1", "Judged@1"])
    assert result.per_question.fillna(-1).to_dict("index") == {  # -1: outside the metric's mean
        "q1": {"Hit@1": 1.0, "Judged@1": 1.0}, "q2": {"Hit@1": -1, "Judged@1": 1.0},
        "q3": {"Hit@1": 0.0, "Judged@1": -1}}
    assert (result.no_answer, result.missing, result.unjudged) == (["q2"], ["q3"], ["q9"])


def test_one_question_and_a_whole_run_give_the_same_bits():
    from ragmath import metrics

    run, qrels = _random_case(random.Random(5))
    result = evaluate(run, qrels, METRICS)
    for question, row in result.per_question.iterrows():
        ranking = _ranking(run.get(question, []))
        for name, value in row.items():
            metric, k = name.split("@")
            function = {"Recall": metrics.recall_at_k, "Hit": metrics.hit_at_k,
                        "MRR": metrics.reciprocal_rank, "nDCG": metrics.ndcg_at_k}[metric]
            assert function(ranking, qrels[question], int(k)) == value


# ---------------------------------------------------------------- the tie rule on tables


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shuffle=st.booleans())
def test_order_run_table_follows_the_tie_rule(seed, shuffle):
    rng = random.Random(seed)
    run, _ = _random_case(rng, stems=ID_STEMS)
    rows = [(q, d, s, None) if isinstance(r, dict) else (q, d, None, i)
            for q, r in run.items()
            for i, (d, s) in enumerate((r.items() if isinstance(r, dict) else ((d, None) for d in r)), 1)]
    if shuffle:
        rng.shuffle(rows)
    table = pl.DataFrame(rows, schema={"question": pl.String, "id": pl.String, "score": pl.Float64,
                                       "rank": pl.Int64}, orient="row")
    expected = []
    for question in dict.fromkeys(r[0] for r in rows):
        ranking = run[question]
        expected += [(question, d, p) for p, d in enumerate(_ranking(ranking), start=1)]
    assert order_run_table(table).rows() == expected


_SCORES = {
    "floats": st.sampled_from([0.5, 0.25, -0.0, 0.0, 1e300, -1e-300, 2.0]),
    "integers": st.sampled_from([0, 1, -1, 7, 2**62, -(2**63), 2**63 - 1]),  # too wide to fold, too
    "fractions": st.sampled_from([Fraction(1, 3), 1 / 3, Fraction(1, 2), 0.5, 2, Fraction(-7, 3)]),
}


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(sorted(_SCORES)), data=st.data(), grouped=st.booleans())
def test_tie_rule_order_is_the_rule_as_stated(kind, data, grouped):
    """The one tie-rule function against the rule written out here: by question code, then score
    descending, then ID in code-point order; ties on purpose (few scores, IDs such as "10" and "9")."""
    ids = data.draw(st.lists(st.sampled_from(["9", "10", "2", "a", "B", "é", "\uff5e", "\U0001f600", "d10",
                                              "d9"]), min_size=0, max_size=10, unique=True))
    scores = [data.draw(_SCORES[kind]) for _ in ids]
    questions = [data.draw(st.integers(0, 3)) for _ in ids] if grouped else None
    if kind == "fractions":
        score = pd.Series(scores, dtype=object).to_numpy()
    else:
        score = pd.Series(scores, dtype="float64" if kind == "floats" else "int64").to_numpy()
    got = tie_rule_order(score, pl.Series(ids, dtype=pl.String),
                         None if questions is None else pd.Series(questions, dtype="int64").to_numpy())
    rows = range(len(ids))
    expected = sorted(rows, key=lambda i: ((questions[i] if grouped else 0), -scores[i], ids[i]))
    assert got.tolist() == expected


def test_tie_rule_order_puts_10_before_9_and_keeps_a_ranked_list():
    equal = pd.Series([1.0, 1.0, 1.0]).to_numpy()
    assert tie_rule_order(equal, pl.Series(["9", "10", "2"])).tolist() == [1, 2, 0]
    assert ranking_from_scores({9: 1.0, 10: 1.0, "2": 1.0}) == [10, "2", 9]
    ranked = pl.DataFrame({"question": ["q"] * 3, "id": ["9", "2", "10"], "score": [None] * 3,
                           "rank": [1, 2, 3]}, schema_overrides={"score": pl.Float64})
    assert order_run_table(ranked)["id"].to_list() == ["9", "2", "10"]  # a ranked list keeps its order


def test_ids_order_by_code_point_not_by_locale():
    table = pl.DataFrame({"question": ["q"] * 4, "id": ["b", "B", "é", "z"], "score": [1.0] * 4,
                          "rank": [None] * 4}, schema_overrides={"rank": pl.Int64})
    assert order_run_table(table)["id"].to_list() == ["B", "b", "z", "é"] == sorted(["b", "B", "é", "z"])


# ---------------------------------------------------------------- fusion


def _random_runs(rng: random.Random, n_runs: int):
    pool = [f"{rng.choice(ID_STEMS)}{i}" for i in range(rng.randint(1, 12))]
    runs = []
    for _ in range(n_runs):
        run = {}
        for q in rng.sample(range(6), rng.randint(1, 6)):
            ids = rng.sample(pool, rng.randint(1, len(pool)))
            run[f"q{q}"] = ids if rng.random() < 0.5 else {d: rng.choice(TIED_SCORES) for d in ids}
        runs.append(run)
    return runs


def _reference_fusion(runs, k=60, window=None):
    """What fuse_runs must give: Σ 1/(k + rank) as fractions, score descending then ID as text."""
    fused = {}
    exact_k = Fraction(k)
    for question in dict.fromkeys(q for run in runs for q in run):
        scores: dict = {}
        for run in runs:
            if question in run:
                for rank, item in enumerate(_ranking(run[question])[:window], start=1):
                    scores[item] = scores.get(item, Fraction(0)) + 1 / (exact_k + rank)
        fused[question] = {d: float(scores[d]) for d in sorted(scores, key=lambda d: (-scores[d], str(d)))}
    return fused


def _same_fused(fast: dict, ref: dict) -> None:
    assert list(fast) == list(ref)
    for question in ref:  # same items, same order; scores within a few ulps of the exact sums
        assert list(fast[question]) == list(ref[question])
        assert list(fast[question].values()) == pytest.approx(list(ref[question].values()), rel=1e-14)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_runs=st.integers(1, 4),
       k=st.sampled_from([60, 1, 0.5, 2.5, 1e-3, 7, 1e9]), window=st.sampled_from([None, 1, 3, 100]))
def test_fusion_equals_rrf_with_its_exact_tie_rule(seed, n_runs, k, window):
    runs = _random_runs(random.Random(seed), n_runs)
    fast = fuse_runs(runs, k=k, window=window)
    ref = _reference_fusion(runs, k=k, window=window)
    _same_fused(fast, ref)
    frame = fuse_runs(runs, k=k, window=window, as_frame=True)
    assert frame[["question", "id", "rank"]].values.tolist() == [
        [q, d, rank] for q, scores in ref.items() for rank, d in enumerate(scores, start=1)]
    for question in ref:  # one question's lists through rrf: the same order and scores
        lists = {f"L{i}": _ranking(run[question]) for i, run in enumerate(runs) if question in run}
        table = rrf(lists, k=k, window=window)
        assert table["id"].tolist() == list(fast[question])
        assert table["rrf_score"].tolist() == list(fast[question].values())


def test_fused_ties_are_decided_on_exact_scores_not_float_noise():
    # x has ranks (1, 2, 3) and y has (3, 1, 2) in three lists: equal sums of the same three fractions,
    # which floats added in list order need not give bit for bit. The tie rule then puts x first.
    lists = [["x", "z1", "y"], ["y", "x", "z2"], ["z3", "y", "x"]]
    runs = [{"q": lst} for lst in lists]
    for k in (0.1, 0.3, 60, 1e-3):
        table = rrf(lists, k=k)
        fused = fuse_runs(runs, k=k)["q"]
        assert list(fused) == table["id"].tolist()
        assert list(fused)[:2] == ["x", "y"]  # hand: both score 1/(k+1) + 1/(k+2) + 1/(k+3)


def test_fusion_through_files_equals_rrf(tmp_path):
    rng = random.Random(3)
    runs = _random_runs(rng, 3)
    paths = []
    for i, run in enumerate(runs):
        path = tmp_path / f"run{i}.trec"
        _write_run_file(path, run, rng, crlf=i == 1)
        paths.append(path)
    scored = [{q: r if isinstance(r, dict) else {d: float(len(r) - i) for i, d in enumerate(r)}
               for q, r in run.items()} for run in runs]
    fast = fuse_runs(paths, k=60)
    ref = _reference_fusion(scored, k=60)
    assert sorted(fast) == sorted(ref)
    _same_fused({q: fast[q] for q in ref}, ref)


def test_fusing_empty_tables_gives_an_empty_table():
    empty = pl.DataFrame(schema={"question": pl.String, "id": pl.String, "score": pl.Float64})
    assert fuse_runs([empty, empty], k=60, as_frame="polars").height == 0


def test_questions_with_empty_rankings_stay_in_the_fused_run():
    runs = [{"q1": [], "q2": ["a"]}, {"q2": ["b"], "q3": []}]
    assert fuse_runs(runs) == {
        "q1": {}, "q2": {"a": 1 / 61, "b": 1 / 61}, "q3": {}}


def test_hash_collisions_never_merge_two_items(monkeypatch):
    # Every ID hashes alike: each seed fails the check against the text, and the exact sort decides.
    runs = _random_runs(random.Random(11), 3)
    expected = _reference_fusion(runs, k=60)
    monkeypatch.setattr(pl.Series, "hash", lambda self, seed=0: pl.Series([7] * len(self), dtype=pl.UInt64))
    _same_fused(fuse_runs(runs, k=60), expected)


# ---------------------------------------------------------------- one place each


def _computations(predicate) -> dict[str, int]:
    """Files of the package (workbook included) with a code node matching ``predicate``, and how many."""
    import ast
    from pathlib import Path

    import ragmath

    root = Path(ragmath.__file__).parent
    found: dict[str, int] = {}
    for path in sorted(root.rglob("*.py")):
        hits = sum(1 for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if predicate(node))
        if hits:
            found[str(path.relative_to(root))] = hits
    return found


def test_the_position_discount_is_computed_in_metrics_only():
    import ast

    def is_log2(node) -> bool:
        called = getattr(node, "func", None)
        return isinstance(node, ast.Call) and getattr(called, "attr", getattr(called, "id", "")) == "log2"

    assert _computations(is_log2) == {"metrics.py": 1}  # _discounted_sum: DCG and IDCG alike


def test_the_rrf_sum_is_computed_in_fusion_only():
    import ast

    def names_k(node) -> bool:  # k, exact_k, self.k, rrf_k, ...
        name = getattr(node, "id", getattr(node, "attr", ""))
        return name == "k" or name.endswith("_k") or name == "smoothing"

    def is_reciprocal_of_a_sum(node) -> bool:  # 1 / (k + rank) or w / (k + rank), in any spelling
        return (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)
                and isinstance(node.right, ast.BinOp) and isinstance(node.right.op, ast.Add)
                and (names_k(node.right.left) or names_k(node.right.right)))

    assert _computations(is_reciprocal_of_a_sum) == {"fusion.py": 2}  # exact (rrf_score) and its float
