"""The fields' rules and messages: what an ID, a score, a rank and a grade may be, and where a mistake is."""

from __future__ import annotations

import math
import numbers
import re
from typing import Any

import numpy as np
import polars as pl

from ragmath.validation import DECIMAL, surrogate_problem

#: The largest grade accepted. nDCG's gain 2^g - 1 is then below 2^30, and sums of up to 2^23
#: such gains stay exact in float64 (53-bit mantissa); trec_eval itself keeps grades below 128.
MAX_GRADE = 30

#: At most this many characters of a line are quoted in an error message.
QUOTE_LIMIT = 200

FORMATS = ("trec", "csv", "jsonl")

SCHEMAS = {
    "run": {"question": pl.String, "id": pl.String, "score": pl.Float64, "rank": pl.Int64},
    "qrels": {"question": pl.String, "id": pl.String, "grade": pl.Int64},
}
#: The characters of a blank grade cell (a pair not judged yet): spaces and tabs, in both readers.
BLANK = " \t"
_LIMITS = {"rank": (-(2**63), 2**63 - 1), "grade": (0, MAX_GRADE)}

# One definition of each token, used by the line reader (Python re) and the bulk checks (polars).
_INTEGER = r"[+-]?[0-9]+"
_FORBIDDEN = r"[\x00-\x1f\x7f-\x9f\s]"  # control characters and every kind of whitespace
_NUMBER_RE, _INTEGER_RE, _FORBIDDEN_RE = map(re.compile, (DECIMAL, _INTEGER, _FORBIDDEN))
#: The same characters listed one by one, for polars' ``str.contains_any`` (faster than the pattern:
#: docs/design-notes.md); a test checks the list against ``_FORBIDDEN_RE``.
_FORBIDDEN_CHARS = [chr(c) for c in (*range(0x21), *range(0x7F, 0xA1), 0x1680, *range(0x2000, 0x200B),
                                     0x2028, 0x2029, 0x202F, 0x205F, 0x3000)]


#: A CSV cell a spreadsheet would run as a formula: one that begins with ``=``, ``+``, ``-``, ``@``, a tab or
#: a carriage return, after any apostrophes an earlier escape put in front (one rule for labels files, the
#: templates of the labelling route included).
FORMULA_START = r"'*[=+\-@\t\r]"
_FORMULA_RE = re.compile(FORMULA_START)


def escape_formula(cell: str) -> str:
    """The cell as a spreadsheet keeps it text: an apostrophe in front of one it would run as a formula.

    >>> escape_formula("=SUM(A1)"), escape_formula("'=x"), escape_formula("a-1")
    ("'=SUM(A1)", "''=x", 'a-1')
    """
    return "'" + cell if _FORMULA_RE.match(cell) else cell


def unescape_formula(cell: str) -> str:
    """The cell as it was before :func:`escape_formula`: one apostrophe taken off an escaped formula cell.

    >>> unescape_formula("'=SUM(A1)"), unescape_formula("''=x"), unescape_formula("'a")
    ('=SUM(A1)', "'=x", "'a")
    """
    return cell[1:] if cell.startswith("'") and _FORMULA_RE.match(cell, 1) else cell


def formulas_escaped(table: pl.DataFrame) -> pl.DataFrame:
    """A qrels table with its questions and IDs as a CSV labels file writes them (:func:`escape_formula`)."""
    return table.with_columns(
        pl.when(pl.col(c).str.contains(f"^{FORMULA_START}")).then(pl.lit("'") + pl.col(c))
        .otherwise(pl.col(c)).alias(c) for c in ("question", "id"))


def formulas_unescaped(table: pl.DataFrame) -> pl.DataFrame:
    """A qrels table read from a labels CSV, its questions and IDs as meant (:func:`unescape_formula`)."""
    return table.with_columns(pl.col(c).str.replace(f"^'({FORMULA_START})", "$1") for c in ("question", "id"))


def _quote(text: str) -> str:
    """``repr`` of ``text``, cut to :data:`QUOTE_LIMIT` characters."""
    if len(text) <= QUOTE_LIMIT:
        return repr(text)
    return f"{text[:QUOTE_LIMIT]!r}... ({len(text)} characters)"


class _Where:
    """Where a value came from: a file line, a table row, or a mapping entry."""

    def __init__(self, source: str, kind: str = "line", number: int | None = None) -> None:
        self.source, self.kind, self.number = source, kind, number

    def fail(self, field: str | None, problem: str) -> ValueError:
        where = self.source if self.number is None else f"{self.source}, {self.kind} {self.number}"
        return ValueError(f"{where}, {field}: {problem}" if field else f"{where}: {problem}")


def _is_bool(value: Any) -> bool:
    return isinstance(value, (bool, np.bool_))


def _check_id(value: Any, where: _Where, field: str) -> str:
    """An ID as text: str, or an int written in decimal; refuse empty, whitespace, control chars."""
    if _is_bool(value):
        raise where.fail(field, f"{value!r} is a boolean, not an ID; IDs are text")
    if isinstance(value, numbers.Integral):
        value = str(int(value))
    if not isinstance(value, str):
        raise where.fail(field, f"{_quote(repr(value))} ({type(value).__name__}) is not an ID; IDs are text")
    if value == "":
        raise where.fail(field, "empty ID; every row needs a question and an ID")
    problem = surrogate_problem(value)
    if problem:
        raise where.fail(field, f"ID {_quote(value)} {problem}")
    bad = _FORBIDDEN_RE.search(value)
    if bad:
        what = ("a line break, e.g. inside a quoted CSV field" if bad.group() in "\r\n"
                else "whitespace or a control character")
        raise where.fail(
            field,
            f"ID {_quote(value)} holds U+{ord(bad.group()):04X} ({what}) at position {bad.start() + 1}; "
            "IDs may not contain whitespace, NUL or control characters",
        )
    return value


def _check_score(value: Any, where: _Where, field: str) -> float:
    """A finite score: a number, or text written as a decimal with ASCII digits."""
    if isinstance(value, str):
        if not _NUMBER_RE.fullmatch(value.strip(" ")):
            raise where.fail(field, f"{_quote(value)} is not a number; write a decimal such as 0.25 or 1e-3")
    elif _is_bool(value) or not isinstance(value, numbers.Real):
        raise where.fail(field, f"{_quote(repr(value))} is not a number; scores are decimals")
    out = float(value)
    if not math.isfinite(out):
        raise where.fail(field, f"{_quote(str(value))} is not a finite number; scores must be finite")
    return out


def _check_int(value: Any, where: _Where, field: str, what: str) -> int:
    """A rank (64-bit) or a grade (0 to :data:`MAX_GRADE`): an int, an integral float, or ASCII digits."""
    if isinstance(value, str):
        text = value.strip(" ")
        if not _INTEGER_RE.fullmatch(text):
            kind = "not an integer" if _NUMBER_RE.fullmatch(text) else "not a number"
            raise where.fail(field, f"{_quote(value)} is {kind}; {what}s are whole numbers written 0-9")
    elif _is_bool(value) or not isinstance(value, numbers.Real):
        raise where.fail(field, f"{_quote(repr(value))} is not a number; {what}s are whole numbers")
    elif not isinstance(value, numbers.Integral) and not float(value).is_integer():  # NaN, inf too
        raise where.fail(field, f"{value!r} is not an integer; {what}s are whole numbers")
    number = int(value) if isinstance(value, (str, numbers.Integral)) else int(float(value))
    low, high = _LIMITS[what]
    if what == "grade" and number < 0:
        problem = f"grade {_quote(str(value))} is negative; grades are 0 (not relevant) to {high}"
        raise where.fail(field, problem)
    if not low <= number <= high:
        limit = f"from {low} to {high}; 0 means not relevant" if what == "grade" else "that fits in 64 bits"
        problem = f"{what} {_quote(str(value))} is out of range; a {what} is an integer {limit}"
        raise where.fail(field, problem)
    return number
