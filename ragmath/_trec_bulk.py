"""Bulk text for runs and qrels: plain TREC and CSV files read into columns, TREC lines written.

Plain means one separator byte between fields (a space in TREC, a comma in CSV), ``\\n`` or
``\\r\\n`` line ends, UTF-8 (ASCII for CSV). Most run and qrels files are written by programs
in exactly this shape. This reader splits lines and fields, and converts numbers, with
whole-array numpy operations on blocks of about 1 MiB (small enough to stay in the CPU cache),
without a Python object per line:

- field boundaries are the positions of separators and newlines; a block is accepted only if
  every line has exactly the layout's number of fields, none empty;
- an ID field becomes a fixed-width byte string (``dtype 'S'``, a multiple of 8 bytes, padded
  with NUL bytes): 8 bytes at a time are read as one integer from an overlapping view of the
  block and masked to the field's length;
- digits are converted 8 at a time: a little-endian 8-byte word of ASCII digits becomes its value
  in three multiply-and-shift steps (the same word is first checked to hold only digits);
- a score ``[+-]digits[.digits][e[+-]digits]`` is the integer ``M`` of its digits times
  ``10**e``. ``M / 10**d`` is computed in numpy's 80-bit extended precision (64-bit significand:
  ``M < 2**63`` and ``10**27`` are exact there, the quotient is rounded once), then rounded to a
  double. That double is the correctly rounded value -- the one Python's ``float()`` gives --
  unless the extended result lies within two of its own units of a point halfway between two
  doubles; those rare values, and any score outside the simple form, are converted by Python
  itself.

Anything else (a tab, several spaces, a ``\\r`` not before ``\\n``, a blank line, bytes that
are not UTF-8, a quote or a non-ASCII byte in a CSV, a malformed number, a platform whose
``long double`` is not the 80-bit format) makes :func:`read_columns` and
:func:`read_csv_columns` return ``None``; the caller then uses the general readers, which give
the same data or name the line that is wrong.

:func:`format_run_lines` goes the other way: it writes TREC run lines from columns, formatting
each distinct label, rank and score once.
"""

from __future__ import annotations

import os
import re
from typing import Any

import numpy as np

from ragmath import io as _io

__all__ = ["read_columns", "read_csv_columns", "parse_scores", "format_run_lines"]

#: Bytes read per block; blocks end at a line end.
BLOCK = 1 << 20
#: Zero bytes before and after a block, so 8-byte reads near its edges stay inside the buffer.
_FRONT, _BACK = 24, 8

_U = np.uint64
_KEEP = np.array([(1 << (8 * r)) - 1 for r in range(9)], dtype=np.uint64)  # low r bytes
_ZEROS = _U(0x3030303030303030)  # "00000000"
_HIGH_NIBBLES = _U(0xF0F0F0F0F0F0F0F0)
_SIX = _U(0x0606060606060606)
_THREES = _U(0x3333333333333333)
_POW10_U = np.array([10**i for i in range(20)], dtype=np.uint64)
_MAX_EXACT_DIGITS = 19  # 10**19 - 1 < 2**64
_MAX_POWER = 27  # 10**27 = 5**27 * 2**27 and 5**27 < 2**63: exact in a 64-bit significand


def _x87_extended() -> bool:
    """Whether ``long double`` is the x87 80-bit format stored in 16 bytes (significand first)."""
    if np.finfo(np.longdouble).nmant != 63 or np.dtype(np.longdouble).itemsize != 16:
        return False
    probe = np.array([1.5, 3.0], dtype=np.longdouble).view(np.uint64)[::2]
    return probe.tolist() == [0xC000000000000000, 0xC000000000000000]


_EXTENDED = _x87_extended()
_POW10_LD = np.array([10**i for i in range(_MAX_POWER + 1)], dtype=np.longdouble) if _EXTENDED else None

# The general readers' number syntax, for the values this reader leaves to Python. As bytes
# patterns, \d matches ASCII digits only: a field with other digits defers to the general reader.
_NUMBER = re.compile(_io._NUMBER.pattern.encode())
_INTEGER = re.compile(_io._INTEGER.pattern.encode())


def _windows(buf: np.ndarray) -> np.ndarray:
    """Overlapping little-endian 8-byte words: ``windows[p]`` holds ``buf[p:p + 8]``."""
    return np.ndarray(shape=(buf.size - 7,), dtype="<u8", buffer=buf, strides=(1,))


def _eight_digits(words: np.ndarray, count: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Value and all-digits check of the last ``count`` (0..8) bytes of each word.

    The word's first ``8 - count`` bytes (its low bytes) are replaced by "0" first.
    """
    low = _KEEP[8 - count]
    words = (words & ~low) | (_ZEROS & low)
    ok = ((words & _HIGH_NIBBLES) | (((words + _SIX) & _HIGH_NIBBLES) >> _U(4))) == _THREES
    v = ((words & _U(0x0F0F0F0F0F0F0F0F)) * _U(2561)) >> _U(8)
    v = ((v & _U(0x00FF00FF00FF00FF)) * _U(6553601)) >> _U(16)
    v = ((v & _U(0x0000FFFF0000FFFF)) * _U(42949672960001)) >> _U(32)
    return v, ok


def _digit_runs(windows: np.ndarray, end: np.ndarray, count: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Value of the ``count`` (0..19) ASCII digits ending before ``end``; ok: all were digits."""
    value, ok = _eight_digits(windows[end - 8], np.minimum(count, 8))
    if count.size and int(count.max()) > 8:
        more, ok_more = _eight_digits(windows[end - 16], np.clip(count - 8, 0, 8))
        value += more * _U(10**8)
        ok &= ok_more
        if int(count.max()) > 16:
            most, ok_most = _eight_digits(windows[end - 24], np.clip(count - 16, 0, 8))
            value += most * _U(10**16)
            ok &= ok_most
    return value, ok


def _id_column(windows: np.ndarray, start: np.ndarray, length: np.ndarray) -> np.ndarray:
    """The bytes ``[start, start + length)`` of each row as a NUL-padded 'S' array (8-byte multiple)."""
    words = max(1, -(-int(length.max()) // 8))
    out = np.empty((start.size, words), dtype=np.uint64)
    out[:, 0] = windows[start] & _KEEP[np.minimum(length, 8)]
    for j in range(1, words):  # a shorter ID's later words are masked to 0: only keep reads in bounds
        word = windows[np.minimum(start + 8 * j, windows.size - 1)]
        out[:, j] = word & _KEEP[np.clip(length - 8 * j, 0, 8)]
    return out.view(f"S{8 * words}").reshape(start.size)


def _first_in_field(hits: np.ndarray, line_end: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Per line, the first position in ``hits`` (sorted) inside ``[start, end)``, else -1."""
    if hits.size == start.size and bool(((hits >= start) & (hits < end)).all()):
        return hits  # the usual block: one hit per line, each in its own field
    out = np.full(start.size, -1, dtype=np.int64)
    if hits.size:
        line = np.searchsorted(line_end, hits)
        inside = (hits >= start[line]) & (hits < end[line])
        hits, line = hits[inside], line[inside]
        if hits.size:
            first = np.ones(hits.size, dtype=bool)
            first[1:] = line[1:] != line[:-1]
            out[line[first]] = hits[first]
    return out


def _python_number(text: bytes) -> float | None:
    """The general reader's conversion of one score: None if it is not a finite number."""
    if not _NUMBER.fullmatch(text):
        return None
    value = float(text)
    return value if np.isfinite(value) else None


def _scores(buf: np.ndarray, windows: np.ndarray, start: np.ndarray, end: np.ndarray,
            line_end: np.ndarray, dots: np.ndarray, exps: np.ndarray) -> np.ndarray | None:
    """Correctly rounded doubles of the score fields ``[start, end)``; None if one is not a number."""
    first = buf[start]
    negative = first == 45
    int_start = start + (negative | (first == 43))
    e_pos = _first_in_field(exps, line_end, start, end) if exps.size else None
    has_e = None if e_pos is None else e_pos >= 0
    deferred = None
    if has_e is not None and np.count_nonzero(has_e) * 64 <= has_e.size:
        # A few exponents (a shortest repr below 1e-4, say): Python converts those rows.
        deferred, has_e = has_e, None
    mantissa_end = end if has_e is None else np.where(has_e, e_pos, end)
    dot = _first_in_field(dots, line_end, int_start, mantissa_end)
    has_dot = dot >= 0
    int_end = np.where(has_dot, dot, mantissa_end)
    int_len = int_end - int_start
    frac_len = mantissa_end - int_end - has_dot
    simple = (int_len + frac_len >= 1) & (int_len <= _MAX_EXACT_DIGITS) & (frac_len <= _MAX_EXACT_DIGITS)
    if deferred is not None:
        simple &= ~deferred
    if has_e is not None:
        exp_sign = buf[np.where(has_e, e_pos + 1, 0)]
        exp_len = np.where(has_e, end - e_pos - 1 - ((exp_sign == 45) | (exp_sign == 43)), 0)
        simple &= (exp_len <= 4) & (~has_e | (exp_len >= 1))
    int_len = np.where(simple, int_len, 0)
    frac_len = np.where(simple, frac_len, 0)
    int_value, ok = _digit_runs(windows, int_end, int_len)
    frac_value, ok_frac = _digit_runs(windows, mantissa_end, frac_len)
    simple &= ok & ok_frac & ((int_value == 0) | (int_len + frac_len <= _MAX_EXACT_DIGITS))
    mantissa = int_value * _POW10_U[frac_len] + frac_value
    simple &= mantissa < _U(1 << 63)
    shift = frac_len  # the value is mantissa / 10**shift
    if has_e is not None:
        exp_value, ok_exp = _digit_runs(windows, end, np.where(simple, exp_len, 0))
        exponent = exp_value.astype(np.int64)
        shift = np.where(exp_sign == 45, shift + exponent, shift - exponent)
        simple &= ok_exp & (np.abs(shift) <= _MAX_POWER)
        shift = np.where(simple, shift, 0)

    exact = mantissa.astype(np.longdouble)
    if has_e is None:
        extended = exact / _POW10_LD[shift]
    else:
        power = _POW10_LD[np.abs(shift)]
        extended = np.where(shift >= 0, exact / power, exact * power)
    rounded = extended.astype(np.float64)
    # The low 11 of the extended value's 64 significand bits are what rounding to 53 bits drops:
    # 0x400 is exactly halfway between two doubles. Within two units of it, the extended value
    # (itself rounded) may sit on the other side of halfway from the true value: leave it to Python.
    dropped = extended.view(np.uint64)[::2] & _U(0x7FF)
    simple &= (dropped < _U(0x400 - 2)) | (dropped > _U(0x400 + 2))
    score = np.where(negative, -rounded, rounded)

    for row in np.flatnonzero(~simple).tolist():
        value = _python_number(buf[start[row]:end[row]].tobytes())
        if value is None:
            return None
        score[row] = value
    return score


def _integers(buf: np.ndarray, windows: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray | None:
    """int64 values of the fields ``[start, end)`` (``[+-]digits``); None if one is not an integer."""
    first = buf[start]
    signed = (first == 45) | (first == 43)
    count = end - start - signed
    simple = (count >= 1) & (count <= 18)
    value, ok = _digit_runs(windows, end, np.where(simple, count, 0))
    simple &= ok
    out = np.where(first == 45, -value.astype(np.int64), value.astype(np.int64))
    for row in np.flatnonzero(~simple).tolist():
        text = buf[start[row]:end[row]].tobytes()
        if not _INTEGER.fullmatch(text) or not -(2**63) <= int(text) < 2**63:
            return None
        out[row] = int(text)
    return out


def _block(data: bytes, n_fields: int, ids: tuple[int, int], integer: int | None, score: int | None,
           keep_integers: bool = True, separator: int = 32):
    """Columns of one block of whole lines (``data`` ends with a newline); None to defer.

    Fields are separated by single ``separator`` bytes: a space (TREC) or a comma (plain CSV,
    which then may hold no byte below 33 but the newline).
    """
    buf = np.zeros(_FRONT + len(data) + _BACK, dtype=np.uint8)
    body = buf[_FRONT:_FRONT + len(data)]
    body[:] = np.frombuffer(data, dtype=np.uint8)
    if separator == 32:
        separators = np.flatnonzero(body < 33)  # spaces and newlines, if the block is plain
    else:
        if np.count_nonzero(body < 33) != data.count(b"\n"):  # a space, tab, CR...
            return None
        separators = np.flatnonzero((body == separator) | (body == 10))
    n = separators.size // n_fields
    if n == 0 or separators.size != n * n_fields:
        return None
    separators = separators.reshape(n, n_fields)
    # Every line ends at a newline after exactly n_fields - 1 separators; a tab, CR or other
    # control byte is a separator that is neither.
    kinds = body[separators]
    if not ((kinds[:, -1] == 10).all() and (kinds[:, :-1] == separator).all()):
        return None
    starts = np.empty((n, n_fields), dtype=np.int64)
    starts[0, 0] = 0
    starts[1:, 0] = separators[:-1, -1] + 1
    starts[:, 1:] = separators[:, :-1] + 1
    lengths = separators - starts
    if int(lengths.min()) <= 0:  # an empty field: several spaces, a blank line, a space at an end
        return None
    starts += _FRONT
    ends = separators + _FRONT
    windows = _windows(buf)
    columns: dict[str, Any] = {}
    # A question's lines usually come together: keep one question ID per stretch of lines.
    question = _id_column(windows, starts[:, ids[0]], lengths[:, ids[0]])
    words = question.view(np.uint64).reshape(n, -1)
    change = np.empty(n, dtype=bool)
    change[0] = True
    np.any(words[1:] != words[:-1], axis=1, out=change[1:])
    heads = np.flatnonzero(change)
    columns["q_heads"] = question[heads]
    columns["q_lengths"] = np.diff(heads, append=n)
    columns["d"] = _id_column(windows, starts[:, ids[1]], lengths[:, ids[1]])
    if integer is not None:
        values = _integers(buf, windows, starts[:, integer], ends[:, integer])
        if values is None:
            return None
        if keep_integers:
            columns["i"] = values
    if score is not None:
        line_end = ends[:, -1]
        dots = np.flatnonzero(body == 46) + _FRONT
        exps = np.flatnonzero((body | 32) == 101) + _FRONT if b"e" in data or b"E" in data else dots[:0]
        columns["s"] = _scores(buf, windows, starts[:, score], ends[:, score], line_end, dots, exps)
        if columns["s"] is None:
            return None
    return columns


def _blocks(path: Any, start: int = 0):
    """Yield blocks of whole lines from byte ``start`` on; the last line gets a newline if it has none."""
    pending = b""
    with open(path, "rb") as handle:
        handle.seek(start)
        while True:
            data = handle.read(BLOCK)
            if not data:
                if pending:
                    yield pending + b"\n"
                return
            data = pending + data if pending else data
            cut = data.rfind(b"\n") + 1
            if cut == 0:
                pending = data
                continue
            yield data[:cut] if cut < len(data) else data
            pending = data[cut:]


class _Columns:
    """Output columns, allocated once for the file's estimated line count (grown if it was low)."""

    def __init__(self, capacity: int, with_integers: bool, with_scores: bool) -> None:
        self.size = 0
        self.capacity = capacity
        self.ids = np.zeros((capacity, 1), dtype=np.uint64)
        self.numbers = {}
        if with_integers:
            self.numbers["i"] = np.empty(capacity, dtype=np.int64)
        if with_scores:
            self.numbers["s"] = np.empty(capacity, dtype=np.float64)
        self.heads: list[np.ndarray] = []
        self.lengths: list[np.ndarray] = []

    def _resize(self, capacity: int, words: int) -> None:
        ids = np.zeros((capacity, words), dtype=np.uint64)
        ids[: self.size, : self.ids.shape[1]] = self.ids[: self.size]
        self.ids = ids
        for name, old in self.numbers.items():
            new = np.empty(capacity, dtype=old.dtype)
            new[: self.size] = old[: self.size]
            self.numbers[name] = new
        self.capacity = capacity

    def add(self, columns: dict[str, np.ndarray]) -> None:
        n = len(columns["d"])
        words = columns["d"].view(np.uint64).reshape(n, -1)
        if self.size + n > self.capacity or words.shape[1] > self.ids.shape[1]:
            capacity = self.capacity
            if self.size + n > capacity:
                capacity = max(self.size + n, capacity + capacity // 2)
            self._resize(capacity, max(words.shape[1], self.ids.shape[1]))
        rows = slice(self.size, self.size + n)
        self.ids[rows, : words.shape[1]] = words
        for name, store in self.numbers.items():
            store[rows] = columns[name]
        self.heads.append(columns["q_heads"])
        self.lengths.append(columns["q_lengths"])
        self.size += n

    def result(self) -> dict[str, np.ndarray]:
        """The filled rows (views: the few spare rows are not worth a copy of every column)."""
        out = {"d": self.ids[: self.size].view(f"S{8 * self.ids.shape[1]}").reshape(self.size),
               "q_heads": np.concatenate(self.heads), "q_lengths": np.concatenate(self.lengths)}
        out.update((name, store[: self.size]) for name, store in self.numbers.items())
        return out


def read_columns(path: str | os.PathLike, layout: str) -> dict[str, np.ndarray] | None:
    """Columns of a plain TREC file, or None to leave the file to the general reader.

    ``layout`` is ``"run"`` (``qid Q0 docid rank score tag``) or ``"qrels"`` (``qid 0 docid grade``).
    The result holds ``d`` (the docid of each line, bytes), ``s`` (run: the score of each line)
    or ``i`` (qrels: the grade of each line), and the qids run-length encoded: ``q_heads[j]``
    is the qid of ``q_lengths[j]`` consecutive lines. A run's rank field is checked to be an
    integer and not kept (ragmath ranks by score). None when the file is not plain (see the
    module docstring) or holds anything malformed.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "run.trec"
    >>> _ = p.write_text("q1 Q0 doc-7 1 0.25 bm25\\nq1 Q0 d2 2 -1e-3 bm25\\nq2 Q0 d2 1 3 bm25\\n")
    >>> c = read_columns(p, "run")
    >>> c["q_heads"].tolist(), c["q_lengths"].tolist(), c["d"].tolist(), c["s"].tolist()
    ([b'q1', b'q2'], [2, 1], [b'doc-7', b'd2', b'd2'], [0.25, -0.001, 3.0])
    >>> _ = p.write_text("q1 Q0 d1 1 high bm25\\n")
    >>> read_columns(p, "run") is None
    True
    """
    if layout == "run":
        n_fields, integer, score = 6, 3, 4
    elif layout == "qrels":
        n_fields, integer, score = 4, 3, None
    else:
        raise ValueError(f"layout must be 'run' or 'qrels', not {layout!r}")
    return _read_blocks(path, 0, n_fields, (0, 2), integer, score, keep_integers=score is None)


def read_csv_columns(path: str | os.PathLike, layout: str) -> dict[str, np.ndarray] | None:
    """Columns of a plain CSV run (question, id, score; rank optional) or qrels (question, id, grade).

    Plain: an ASCII header of distinct names, then rows of comma-separated, non-empty, unquoted
    values with no space, tab or CR, one per ``\n`` line; other columns are allowed and skipped. A
    rank column is checked to hold integers, as the general reader does. Same result as
    :func:`read_columns`, or None for anything else (quotes, blank lines, a run without a score
    column, ...): the general CSV reader then reads the file or names what is wrong.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "run.csv"
    >>> _ = p.write_text("id,question,score\\nd1,q1,0.5\\nd2,q1,0.25\\n")
    >>> c = read_csv_columns(p, "run")
    >>> c["q_heads"].tolist(), c["d"].tolist(), c["s"].tolist()
    ([b'q1'], [b'd1', b'd2'], [0.5, 0.25])
    """
    if layout not in ("run", "qrels"):
        raise ValueError(f"layout must be 'run' or 'qrels', not {layout!r}")
    with open(path, "rb") as handle:
        header = handle.readline()
    line = header[:-2] if header.endswith(b"\r\n") else header[:-1]
    if not header.endswith(b"\n") or not line.isascii() or any(c in line for c in b'"\r'):
        return None
    names = [name.strip() for name in line.decode("ascii").split(",")]
    needed = ["question", "id", "score" if layout == "run" else "grade"]
    if len(set(names)) != len(names) or not set(needed) <= set(names):
        return None
    question, doc, value = (names.index(name) for name in needed)
    if layout == "run":
        integer = names.index("rank") if "rank" in names else None
        return _read_blocks(path, len(header), len(names), (question, doc), integer, value,
                            keep_integers=False, separator=44)
    return _read_blocks(path, len(header), len(names), (question, doc), value, None,
                        keep_integers=True, separator=44)


def _read_blocks(path: Any, start: int, n_fields: int, ids: tuple[int, int], integer: int | None,
                 score: int | None, keep_integers: bool, separator: int = 32) -> dict[str, np.ndarray] | None:
    """Read the blocks of ``path`` from byte ``start`` into :class:`_Columns`; None to defer."""
    if not _EXTENDED:
        return None
    size = os.path.getsize(path) - start
    out = None
    for data in _blocks(path, start):
        ascii_only = data.isascii()
        if separator != 32 and (b'"' in data or not ascii_only):
            return None  # CSV: quotes need the csv module; non-ASCII IDs its whitespace check
        if not ascii_only:
            try:  # UTF-8 IDs are kept as bytes, whose order is the text's code point order
                data.decode("utf-8")
            except UnicodeDecodeError:
                return None
        if b"\r" in data:  # Windows line ends (a block never splits "\r\n"); a lone CR defers
            if data.count(b"\r\n") != data.count(b"\r"):
                return None
            data = data.replace(b"\r\n", b"\n")
        columns = _block(data, n_fields, ids, integer, score, keep_integers, separator)
        if columns is None:
            return None
        if out is None:  # lines in the file, estimated from the first block
            n = len(columns["d"])
            out = _Columns(int(size / len(data) * n * 1.02) + n + 1024, keep_integers, score is not None)
        out.add(columns)
    return None if out is None else out.result()


def parse_scores(texts: list[bytes]) -> np.ndarray | None:
    """Scores as this reader converts them (one per line of a small block); for tests and checks.

    >>> parse_scores([b"0.1", b"-2.5e3", b"7"]).tolist()
    [0.1, -2500.0, 7.0]
    """
    data = b"".join(b"q Q0 d 1 " + text + b" t\n" for text in texts)
    columns = _block(data, 6, (0, 2), 3, 4) if _EXTENDED and data else None
    return None if columns is None else columns["s"]


# --------------------------------------------------------------------------- writing


def _text_table(texts: list[bytes]) -> np.ndarray:
    """Byte strings as a NUL-padded 'S' array (at least 1 byte wide)."""
    return np.array(texts, dtype=f"S{max(1, max(map(len, texts), default=1))}")


def _as_bytes(table: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """``table[codes]`` as a (rows, width) uint8 matrix."""
    picked = table[codes]
    return picked.view(np.uint8).reshape(len(codes), table.dtype.itemsize)


def format_run_lines(question_codes: np.ndarray, questions: list[str], id_codes: np.ndarray,
                     ids: list[str], rank: np.ndarray, score: np.ndarray, tag: str,
                     rows_per_block: int = 1 << 17):
    """Yield the TREC lines ``qid Q0 docid rank score tag`` of a run as UTF-8 bytes, block by block.

    Row ``i`` is ``questions[question_codes[i]]``, ``ids[id_codes[i]]``, ``rank[i]`` and
    ``repr(score[i])``: the same text as formatting each line in Python, which converts each
    distinct value only once. Each row is assembled from fixed-width fields in one byte matrix
    whose NUL padding is then dropped, so labels must not contain NUL (the caller checks).

    >>> b"".join(format_run_lines(np.array([0, 0]), ["q1"], np.array([1, 0]), ["a", "doc-2"],
    ...                           np.array([1, 2]), np.array([0.5, 1e-7]), "rrf")).decode()
    'q1 Q0 doc-2 1 0.5 rrf\\nq1 Q0 a 2 1e-07 rrf\\n'
    """
    import pandas as pd

    question_table = _text_table([q.encode("utf-8") for q in questions])
    id_table = _text_table([d.encode("utf-8") for d in ids])
    # Factorize the bit patterns, not the values: 0.0 and -0.0 print differently.
    score_codes, score_bits = pd.factorize(np.ascontiguousarray(score, dtype=np.float64).view(np.uint64))
    score_table = _text_table([repr(v).encode() for v in
                               np.asarray(score_bits, dtype=np.uint64).view(np.float64).tolist()])
    rank_codes, rank_values = pd.factorize(np.asarray(rank, dtype=np.int64))
    rank_table = _text_table([str(r).encode() for r in np.asarray(rank_values).tolist()])
    tail = f" {tag}\n".encode()
    parts = [(question_table, question_codes), (b" Q0 ", None), (id_table, id_codes), (b" ", None),
             (rank_table, rank_codes), (b" ", None), (score_table, score_codes), (tail, None)]
    width = sum(len(p) if c is None else p.dtype.itemsize for p, c in parts)
    for lo in range(0, len(score), rows_per_block):
        hi = min(lo + rows_per_block, len(score))
        matrix = np.empty((hi - lo, width), dtype=np.uint8)
        column = 0
        for part, codes in parts:
            if codes is None:
                matrix[:, column:column + len(part)] = np.frombuffer(part, dtype=np.uint8)
                column += len(part)
            else:
                matrix[:, column:column + part.dtype.itemsize] = _as_bytes(part, codes[lo:hi])
                column += part.dtype.itemsize
        flat = matrix.reshape(-1)
        yield flat[flat != 0].tobytes()
