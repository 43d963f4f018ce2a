"""The column reader for plain TREC files (ragmath._trec_bulk) against Python's own conversions.

Every expected value here comes from Python: ``float(text)`` (correctly rounded) for scores, ``int``
for ranks and grades, and ``bytes.split`` for fields. The reader must give the same bits, or
return None so that the general reader takes over.
"""

from __future__ import annotations

import random
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragmath import _trec_bulk

pytestmark = pytest.mark.skipif(not _trec_bulk._EXTENDED, reason="needs the x87 80-bit long double")


def _same_bits(got: np.ndarray, texts: list[str]) -> None:
    expected = np.array([float(t) for t in texts], dtype=np.float64)
    mismatch = np.flatnonzero(got.view(np.uint64) != expected.view(np.uint64))
    assert mismatch.size == 0, [(texts[i], got[i], expected[i]) for i in mismatch[:5]]


def _random_decimal(rng: random.Random) -> str:
    sign = rng.choice(["", "", "-", "+"])
    whole = "".join(rng.choice("0123456789") for _ in range(rng.randint(0, 21)))
    frac = "".join(rng.choice("0123456789") for _ in range(rng.randint(0, 21)))
    if not whole and not frac:
        whole = "7"
    dot = "." if frac or rng.random() < 0.3 else ""
    exponent = rng.choice(["", "", f"e{rng.randint(-40, 40)}", f"E+{rng.randint(0, 30)}",
                           f"e-{rng.randint(0, 330):03d}"])
    return f"{sign}{whole}{dot}{frac}{exponent}"


def test_scores_match_python_float_on_random_decimals():
    rng = random.Random(20261129)
    texts = [_random_decimal(rng) for _ in range(40_000)]
    texts = [t for t in texts if np.isfinite(float(t))]
    _same_bits(_trec_bulk.parse_scores([t.encode() for t in texts]), texts)


def test_scores_match_python_float_on_shortest_reprs_at_every_magnitude():
    rng = random.Random(7)
    texts = [repr(rng.random() * 10.0 ** rng.randint(-30, 30)) for _ in range(30_000)]
    texts += [repr(-rng.random()) for _ in range(5_000)]
    _same_bits(_trec_bulk.parse_scores([t.encode() for t in texts]), texts)


def test_decimals_next_to_a_halfway_point_between_doubles_round_like_python():
    # The hard case for any float parser: the decimal is within 1e-19 or so of the exact
    # midpoint of two neighbouring doubles, so one more rounding step would flip the result.
    rng = random.Random(11)
    texts = []
    for _ in range(6_000):
        x = rng.random() * 10.0 ** rng.randint(-8, 8)
        halfway = Fraction(x) + Fraction(float(np.spacing(x))) / 2
        for digits in (16, 17, 18, 19, 20):
            with localcontext() as ctx:
                ctx.prec = digits
                texts.append(str(Decimal(halfway.numerator) / Decimal(halfway.denominator)))
    texts += ["9007199254740993", "9007199254740995", "1e23", "8.98846567431158e307"]
    _same_bits(_trec_bulk.parse_scores([t.encode() for t in texts]), texts)


def test_exact_halfway_decimals_round_to_even():
    # 2**53 + 1 and 1 + 2**-53 are exactly halfway: ties go to the even neighbour.
    texts = ["9007199254740993", str(Decimal(1) + Decimal(2) ** -53), "0.5", "-0", "-0.0", "0e5"]
    got = _trec_bulk.parse_scores([t.encode() for t in texts])
    _same_bits(got, texts)
    assert np.signbit(got[3]) and np.signbit(got[4])


@pytest.mark.parametrize("text", ["5.", ".5", "+.5e-3", "0000000000000000000000001.5", "1E5",
                                  "123456789012345678901234567890", "1e-320", "4.9e-324"])
def test_unusual_but_valid_numbers_are_converted_by_python_rules(text):
    _same_bits(_trec_bulk.parse_scores([text.encode()]), [text])


@pytest.mark.parametrize("text", ["high", "1e", ".", "e5", "1.2.3", "1e5.5", "nan", "inf", "-inf",
                                  "1_0", "0x10", "--1", "1-2", "1e400", "1,5"])
def test_a_score_that_is_not_a_finite_number_defers(text):
    assert _trec_bulk.parse_scores([b"0.5", text.encode()]) is None


def _write(path, lines: list[str], newline: bool = True) -> None:
    path.write_bytes(("\n".join(lines) + ("\n" if newline else "")).encode("ascii"))


def _questions(columns: dict) -> list[bytes]:
    """One qid per line, from the run-length encoded columns."""
    return np.repeat(columns["q_heads"], columns["q_lengths"]).tolist()


def _random_id(rng: random.Random) -> str:
    return "".join(rng.choice("abcdeE0123456789.-+_:/") for _ in range(rng.randint(1, 30)))


@pytest.mark.parametrize("block", [64, 1000, 1 << 20])
def test_run_columns_equal_the_split_fields(tmp_path, monkeypatch, block):
    # Small blocks put line ends, words and numbers across block edges.
    monkeypatch.setattr(_trec_bulk, "BLOCK", block)
    rng = random.Random(block)
    lines = []
    for i in range(3_000):
        score = rng.choice([repr(rng.random()), f"{rng.uniform(-50, 50):.3f}", str(rng.randint(-9, 9)),
                            f"{rng.random():.2e}"])
        qid = f"q{i // 37}" if i % 500 else "x"
        lines.append(f"{qid} Q0 {_random_id(rng)} {rng.randint(0, 10**6)} {score} {_random_id(rng)}")
    path = tmp_path / "run.trec"
    _write(path, lines, newline=block != 64)  # also a file whose last line has no newline
    columns = _trec_bulk.read_columns(path, "run")
    fields = [line.split(" ") for line in lines]
    assert _questions(columns) == [f[0].encode() for f in fields]
    assert columns["d"].tolist() == [f[2].encode() for f in fields]
    assert "i" not in columns  # ranks are checked, not kept
    _same_bits(columns["s"], [f[4] for f in fields])


def test_qrels_columns_equal_the_split_fields(tmp_path):
    rng = random.Random(3)
    lines = [f"topic-{rng.randint(1, 50)} 0 {_random_id(rng)} {rng.choice(['0', '1', '+2', '-1', '3'])}"
             for _ in range(2_000)]
    path = tmp_path / "qrels.trec"
    _write(path, lines)
    columns = _trec_bulk.read_columns(path, "qrels")
    fields = [line.split(" ") for line in lines]
    assert set(columns) == {"q_heads", "q_lengths", "d", "i"}
    assert _questions(columns) == [f[0].encode() for f in fields]
    assert columns["d"].tolist() == [f[2].encode() for f in fields]
    assert columns["i"].tolist() == [int(f[3]) for f in fields]


@pytest.mark.parametrize(
    "text",
    [
        "q1 Q0 d1 1 0.5 t\tx\n",  # a tab
        "q1 Q0 d1 1 0.5 t\r\nq1 Q0 d2 2 0.4 t\rx\n",  # a CR not before a newline
        "q1 Q0  d1 1 0.5 t\n",  # two spaces
        " q1 Q0 d1 1 0.5 t\n",  # a leading space
        "q1 Q0 d1 1 0.5 t \n",  # a trailing space
        "q1 Q0 d1 1 0.5 t\n\nq1 Q0 d2 2 0.4 t\n",  # a blank line
        "q1 Q0 d1 1 0.5\n",  # five fields
        "q1 Q0 d1 1 0.5 t x\n",  # seven fields
        "q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 0.4\n",  # one short line after a good one
        "q1 Q0 d1 1 ٣ t\n",  # an Arabic-Indic digit: Python's float() takes it, the bulk path leaves it
        "q1 Q0 d1 1.0 0.5 t\n",  # a rank that is not an integer
        "q1 Q0 d1 99999999999999999999 0.5 t\n",  # a rank beyond 64 bits
        "",  # empty
    ],
)
def test_anything_but_a_plain_well_formed_file_defers(tmp_path, text):
    path = tmp_path / "run.trec"
    path.write_bytes(text.encode("utf-8"))
    assert _trec_bulk.read_columns(path, "run") is None


def test_ids_longer_than_a_word_keep_every_byte(tmp_path):
    ids = ["x" * n + str(n) for n in range(1, 60)]
    path = tmp_path / "run.trec"
    _write(path, [f"q Q0 {d} {i} 0.5 t" for i, d in enumerate(ids)])
    columns = _trec_bulk.read_columns(path, "run")
    assert columns["d"].tolist() == [d.encode() for d in ids]
    assert columns["d"].dtype.itemsize % 8 == 0


def test_unknown_layout_is_refused(tmp_path):
    with pytest.raises(ValueError, match="layout must be 'run' or 'qrels'"):
        _trec_bulk.read_columns(tmp_path / "x", "ranking")


def _python_lines(questions, q_codes, ids, d_codes, rank, score, tag) -> str:
    return "".join(f"{questions[q]} Q0 {ids[d]} {r} {s!r} {tag}\n"
                   for q, d, r, s in zip(q_codes.tolist(), d_codes.tolist(), rank.tolist(),
                                         score.tolist(), strict=True))


@pytest.mark.parametrize("rows_per_block", [1, 7, 1 << 17])
def test_formatted_lines_equal_python_formatting(rows_per_block):
    rng = np.random.default_rng(rows_per_block)
    questions = ["q1", "问题-2", "topic_300000000000"]
    ids = ["a", "文档7", "msmarco_passage_00_123456", "x" * 40]
    n = 500
    q_codes = rng.integers(0, len(questions), n)
    d_codes = rng.integers(0, len(ids), n)
    rank = rng.integers(1, 10**9, n)
    pool = np.array([0.0, -0.0, 0.1, 1 / 3, -2.5e-300, 1.7976931348623157e308, 5e-324, 1e16, 123.0])
    spread = rng.normal(size=n) * 10.0 ** rng.integers(-20, 20, n)
    score = np.where(rng.random(n) < 0.5, rng.choice(pool, n), spread)
    got = b"".join(_trec_bulk.format_run_lines(q_codes, questions, d_codes, ids, rank, score, "run-α",
                                               rows_per_block=rows_per_block))
    assert got.decode("utf-8") == _python_lines(questions, q_codes, ids, d_codes, rank, score, "run-α")


def test_writing_a_frame_with_a_missing_id_is_refused(tmp_path):
    import pandas as pd

    from ragmath.io import write_run_frame

    frame = pd.DataFrame({"question": ["q1", "q1"], "id": ["d1", None], "rank": [1, 2], "score": [0.5, 0.4]})
    with pytest.raises(ValueError, match=r"frame row 2: column 'id' is empty"):
        write_run_frame(frame, tmp_path / "run.trec")
    assert not (tmp_path / "run.trec").exists()


def test_an_id_holding_a_nul_byte_is_written_as_it_is(tmp_path):
    import pandas as pd

    from ragmath.io import write_run_frame

    frame = pd.DataFrame({"question": ["q1"], "id": ["d\x001"], "rank": [1], "score": [0.5]})
    write_run_frame(frame, tmp_path / "run.trec", tag="t")
    assert (tmp_path / "run.trec").read_text(encoding="utf-8") == "q1 Q0 d\x001 1 0.5 t\n"


def _reference_or_its_error(reference, bulk_frame, path):
    """``reference(path)``; if it raises, check that ``bulk_frame(path)`` raises the same, give None."""
    try:
        return reference(path)
    except ValueError as exc:
        with pytest.raises(ValueError) as info:
            bulk_frame(path)
        assert str(info.value) == str(exc)
        return None


def _assert_frame_holds_run(frame, expected: dict) -> None:
    """The run frame holds ``expected``: same questions, IDs and scores, in the same order."""
    got: dict = {}
    for q, d, s in zip(frame["question"].astype(str), frame["id"].astype(str), frame["score"], strict=True):
        got.setdefault(q, {})[d] = s
    assert list(got) == list(expected)
    assert [list(v.items()) for v in got.values()] == [list(v.items()) for v in expected.values()]


_ASCII_POOLS = [
    ["q1", "q2", "topic.3", "q1"],  # qid
    ["Q0", "0"],  # ignored
    ["d1", "d2", "doc-e5", "d.1", "D+2", "d1"],  # docid (repeats make duplicate pairs)
    ["1", "2", "+3", "007", "-1", "2.5", "x", "99999999999999999999"],  # rank
    ["0.5", "1e5", "+.5", "5.", "-0", "1_0", "nan", "inf", "1e400", "0x1", "--1", "1e", ".",
     "0.30000000000000004", "123456789012345678901234", "-2.5E-3"],  # score
    ["run", "e", "t.1"],  # tag
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(*[st.sampled_from(pool) for pool in _ASCII_POOLS]), min_size=1, max_size=8),
       st.sampled_from(["\n", "\n", "\r\n"]), st.booleans())
def test_plain_files_read_in_bulk_equal_the_line_reader_or_raise_its_error(
    tmp_path_factory, rows, newline, final_newline
):
    from ragmath import io as rio

    text = newline.join(" ".join(row) for row in rows) + (newline if final_newline else "")
    path = tmp_path_factory.mktemp("plain") / "run.trec"
    path.write_bytes(text.encode("ascii"))
    expected = _reference_or_its_error(rio.read_trec_run, rio.read_run_frame, path)
    if expected is None:
        return
    # A well-formed plain file is the bulk reader's to read (64-bit-overflowing ranks aside).
    plain = all(row[3] != "99999999999999999999" for row in rows)
    assert _trec_bulk.read_columns(path, "run") is not None or not plain
    _assert_frame_holds_run(rio.read_run_frame(path), expected)


# ---------------------------------------------------------------- plain CSV


def test_csv_columns_in_any_order_equal_the_csv_module(tmp_path):
    import csv

    rng = random.Random(5)
    header = ["tag", "score", "id", "rank", "question"]
    rows = [[_random_id(rng).replace(",", ";"), repr(rng.uniform(-5, 5)), f"d{rng.randint(0, 10**6)}",
             str(i + 1), f"q{i // 10}"] for i in range(2_000)]
    path = tmp_path / "run.csv"
    path.write_text("\n".join(",".join(r) for r in [header, *rows]) + "\n", encoding="ascii")
    columns = _trec_bulk.read_csv_columns(path, "run")
    with open(path, newline="") as handle:
        parsed = list(csv.DictReader(handle))
    assert _questions(columns) == [r["question"].encode() for r in parsed]
    assert columns["d"].tolist() == [r["id"].encode() for r in parsed]
    _same_bits(columns["s"], [r["score"] for r in parsed])


def test_csv_qrels_columns(tmp_path):
    path = tmp_path / "qrels.csv"
    path.write_text("question,id,grade\nq1,d1,2\nq1,d2,0\nq2,d1,+3\n", encoding="ascii")
    columns = _trec_bulk.read_csv_columns(path, "qrels")
    assert _questions(columns) == [b"q1", b"q1", b"q2"]
    assert columns["i"].tolist() == [2, 0, 3]


@pytest.mark.parametrize(
    "text",
    [
        'question,id,score\nq1,"d1",0.5\n',  # quotes
        "question,id,score\nq1, d1,0.5\n",  # a space
        "\ufeffquestion,id,score\nq1,d1,0.5\n",  # a byte order mark
        "question,id,rank\nq1,d1,1\n",  # ranks only: the general reader orders by rank
        "question,id,score,id\nq1,d1,0.5,d2\n",  # a repeated column name
        "question,id,score\nq1,d1,0.5\n\nq1,d2,0.4\n",  # a blank line
        "question,id,score\nq1,d1,0.5,x\n",  # a row with an extra field
        "question,id,score\nq1,,0.5\n",  # an empty ID
        "question,id,score\n",  # no rows
        "question,id\nq1,d1\n",  # no score column
    ],
)
def test_anything_but_a_plain_csv_run_defers(tmp_path, text):
    path = tmp_path / "run.csv"
    path.write_bytes(text.encode("utf-8"))
    assert _trec_bulk.read_csv_columns(path, "run") is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(*[st.sampled_from(pool) for pool in _ASCII_POOLS[:5]]), min_size=1, max_size=8),
       st.permutations(["question", "tag", "id", "rank", "score"]), st.booleans())
def test_plain_csv_read_in_bulk_equals_the_csv_reader_or_raises_its_error(
    tmp_path_factory, rows, header, with_rank
):
    from ragmath import io as rio

    header = [h for h in header if with_rank or h != "rank"]
    field = {"question": 0, "tag": 1, "id": 2, "rank": 3, "score": 4}
    lines = [",".join(header)] + [",".join(row[field[h]] for h in header) for row in rows]
    path = tmp_path_factory.mktemp("csv") / "run.csv"
    path.write_bytes(("\n".join(lines) + "\n").encode("ascii"))
    expected = _reference_or_its_error(rio.read_run, rio.read_run_frame, path)
    if expected is None:
        return
    plain = all(row[3] != "99999999999999999999" for row in rows) or not with_rank
    assert _trec_bulk.read_csv_columns(path, "run") is not None or not plain
    _assert_frame_holds_run(rio.read_run_frame(path), expected)


@pytest.mark.parametrize(("name", "layout", "text"), [
    ("run.trec", "run", "q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 0.25 t\nq2 Q0 d1 1 3 t\n"),
    ("qrels.trec", "qrels", "q1 0 d1 2\nq1 0 d2 0\n"),
    ("run.csv", "run", "question,id,score\nq1,d1,0.5\nq1,d2,0.25\n"),
    ("qrels.csv", "qrels", "question,id,grade\nq1,d1,2\n"),
])
def test_windows_line_ends_read_as_unix_ones(tmp_path, name, layout, text):
    reader = _trec_bulk.read_csv_columns if name.endswith(".csv") else _trec_bulk.read_columns
    unix, windows = tmp_path / f"unix-{name}", tmp_path / f"windows-{name}"
    unix.write_bytes(text.encode())
    windows.write_bytes(text.replace("\n", "\r\n").encode())
    expected, got = reader(unix, layout), reader(windows, layout)
    assert set(got) == set(expected)
    for column in expected:
        assert got[column].tolist() == expected[column].tolist()


def test_utf8_ids_are_kept_as_their_bytes(tmp_path):
    path = tmp_path / "run.trec"
    path.write_text("问题一 Q0 差旅-4.2 1 0.5 t\n问题一 Q0 文档\u3000x 2 0.25 t\n", encoding="utf-8")
    columns = _trec_bulk.read_columns(path, "run")
    assert [q.decode() for q in _questions(columns)] == ["问题一", "问题一"]
    assert [d.decode() for d in columns["d"].tolist()] == ["差旅-4.2", "文档\u3000x"]


def test_bytes_that_are_not_utf8_defer(tmp_path):
    path = tmp_path / "run.trec"
    path.write_bytes(b"q1 Q0 d\xff 1 0.5 t\n")
    assert _trec_bulk.read_columns(path, "run") is None


# ---------------------------------------------------------------- simple JSONL

_JSON_VALUES = {
    "question": ["q1", "q2", "问题", 5, "", "a b"],
    "id": ["d1", "d2", "文档", "d1", 7, "x\u3000y", None],
    "score": [0.5, 0.25, 1, -0.0, 2**70, True, "0.5", None, 1e300],
    "rank": [1, 2, 3, 2.0, "4", -1],
}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.fixed_dictionaries({key: st.sampled_from(pool) for key, pool in _JSON_VALUES.items()},
                                      optional={"tag": st.just("x")}), min_size=1, max_size=6),
       st.booleans(), st.sampled_from(["", "\n", "[1]\n", "{\"question\": \"q1\"}\n", "nan\n"]))
def test_simple_jsonl_read_in_bulk_equals_the_json_reader_or_raises_its_error(
    tmp_path_factory, rows, with_rank, extra_line
):
    import json

    from ragmath import _fast
    from ragmath import io as rio

    rows = [{k: v for k, v in row.items() if with_rank or k != "rank"} for row in rows]
    path = tmp_path_factory.mktemp("jsonl") / "run.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows) + extra_line,
                    encoding="utf-8")
    expected = _reference_or_its_error(rio.read_run, rio.read_run_frame, path)
    if expected is None:
        return
    simple = extra_line in ("", "\n") and all(
        type(r["question"]) is str and type(r["id"]) is str and type(r["score"]) in (int, float)
        and abs(r["score"]) < 2**63 and (not with_rank or type(r["rank"]) is int) for r in rows)
    assert (_fast.read_jsonl_run_flat(path) is not None) or not simple
    _assert_frame_holds_run(rio.read_run_frame(path), expected)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.fixed_dictionaries({"question": st.sampled_from(["q1", "q2", 3]),
                                       "id": st.sampled_from(["d1", "d2", "d3", ""]),
                                       "grade": st.sampled_from([0, 1, 2, -1, 2.0, "1", True])}),
                min_size=1, max_size=6))
def test_simple_jsonl_qrels_read_in_bulk_equal_the_json_reader(tmp_path_factory, rows):
    import json

    from ragmath import io as rio

    path = tmp_path_factory.mktemp("jsonl") / "qrels.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    expected = _reference_or_its_error(rio.read_qrels, rio.read_qrels_frame, path)
    if expected is None:
        return
    frame = rio.read_qrels_frame(path)
    got: dict = {}
    for q, d, g in zip(frame["question"].astype(str), frame["id"].astype(str), frame["grade"], strict=True):
        got.setdefault(q, {})[d] = int(g)
    assert got == expected
