"""The bulk reader: polars parses the file and ragmath checks the table at once; a run's head at K.

:func:`ragmath.io.run_table` and :func:`ragmath.io.qrels_table` read files through it."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from itertools import chain
from typing import Any

import numpy as np
import polars as pl

from ragmath.io._checks import _FORBIDDEN_CHARS, _INTEGER, MAX_GRADE, SCHEMAS, _Where, formulas_unescaped
from ragmath.io._lines import _check_header, _line_reader
from ragmath.io._sources import _format_of, _Source
from ragmath.ranking import order_run_table
from ragmath.validation import DECIMAL, check_k


def _odd_rows(table: pl.DataFrame, kind: str, questions: pl.Series | None = None) -> bool:
    """True if any row breaks a rule: then the line reader (or the row checker) names it.

    Questions are checked once per block of equal neighbours, IDs one by one; pairs by their 64-bit
    hashes, a repeat (a duplicate, or a one-in-2^64 collision) going to the line reader's exact check.
    """
    if table.height == 0:
        return False
    if questions is None:  # the question of each block of equal neighbours (a caller may know them)
        questions = table["question"].rle().struct.field("value")
    if questions.null_count() or questions.str.len_bytes().eq(0).any():
        return True
    if questions.str.contains_any(_FORBIDDEN_CHARS).any():
        return True
    doc = pl.col("id")
    checks = [doc.is_null() | doc.str.len_bytes().eq(0) | doc.str.contains_any(_FORBIDDEN_CHARS)]
    if kind == "run":
        checks += [
            pl.col("score").is_not_null() & ~pl.col("score").is_finite(),
            pl.col("score").is_null() & pl.col("rank").is_null(),
        ]
    else:
        checks.append(pl.col("grade").is_null() | ~pl.col("grade").is_between(0, MAX_GRADE))
    if table.select(pl.any_horizontal(checks).any()).item():
        return True
    if _repeats(table, "id"):
        return True
    if kind == "run" and 0 < table["score"].null_count() < table.height:  # a question scored and not
        mixed = table.group_by("question").agg(pl.col("score").is_null().n_unique() > 1)
        if mixed["score"].any():
            return True
    if kind == "run" and table["score"].null_count() > 0:
        return _repeats(table.filter(pl.col("score").is_null()), "rank")
    return False


def _repeats(table: pl.DataFrame, column: str) -> bool:
    """True if two rows may share (question, ``column``): their 64-bit hashes repeat."""
    pair = pl.col("question").hash(seed=0).xor(pl.col(column).hash(seed=1))
    hashes = np.sort(table.select(pair).to_series().to_numpy())
    return bool(np.any(hashes[1:] == hashes[:-1]))


def _trec_schema(kind: str) -> dict[str, pl.DataType]:
    """The polars schema of a TREC line (the ignored fields start with ``_``)."""
    if kind == "run":
        return {"question": pl.String, "_iter": pl.String, "id": pl.String, "rank": pl.Int64,
                "score": pl.Float64, "_tag": pl.String}
    return {"question": pl.String, "_iter": pl.String, "id": pl.String, "grade": pl.Int64}


#: How polars reads a TREC file: fields split on one space, no quoting. A comment line shows up as
#: a missing field, too many fields, or a question "#..." (``comment_prefix`` slows every read).
_TREC_CSV = {"separator": " ", "has_header": False, "quote_char": None}


def _clean_trec(table: pl.DataFrame) -> pl.DataFrame | None:
    """A table as polars read it with :data:`_TREC_CSV` from a file without tabs, minus blank
    lines and ignored fields; None if a field is missing or a line is a comment."""
    if any(table.null_count().row(0)):
        table = table.filter(~pl.all_horizontal(pl.all().is_null()))  # blank lines
        if any(table.null_count().row(0)):
            return None
    if table["question"].str.starts_with("#").any():
        return None
    return table.drop([c for c in table.columns if c.startswith("_")])


def _bulk_trec(src: _Source, kind: str) -> pl.DataFrame | None:
    """Parse a TREC file with polars; None where it cannot (the caller then reads line by line)."""
    schema = _trec_schema(kind)
    table = None
    if not src.has_tab():  # one space between fields: the common case, parsed and typed by polars
        try:
            table = _clean_trec(pl.read_csv(src.polars_input(), schema=schema, **_TREC_CSV))
        except pl.exceptions.PolarsError:
            pass
    return table if table is not None else _bulk_trec_split(src, schema)


def _bulk_trec_split(src: _Source, types: dict[str, pl.DataType]) -> pl.DataFrame | None:
    """Tabs and runs of spaces: read whole lines, split each on ``[ \\t]+``, then type the fields."""
    try:
        lines = pl.read_csv(src.polars_input(), separator="\x1f", has_header=False, quote_char=None,
                            new_columns=["line"], schema={"line": pl.String})
    except pl.exceptions.PolarsError:
        return None
    text = pl.col("line").str.strip_chars(" \t\r")
    lines = lines.select(text.alias("line")).filter(
        pl.col("line").is_not_null() & (pl.col("line") != "") & ~pl.col("line").str.starts_with("#")
    )
    names = list(types)
    pattern = r"^" + r"[ \t]+".join([r"([^ \t]+)"] * len(names)) + r"$"
    fields = pl.col("line").str.extract_groups(pattern).struct.rename_fields(names)
    parts = lines.select(fields).unnest("line")
    if parts.select(pl.any_horizontal(pl.all().is_null()).any()).item():
        return None
    typed = parts.select(
        pl.col(c).str.strip_chars().cast(types[c], strict=False) if types[c].is_numeric() else pl.col(c)
        for c in names if not c.startswith("_")
    )
    if any(typed.null_count().row(0)):
        return None
    return typed


def _bulk_csv(src: _Source, kind: str) -> pl.DataFrame | None:
    first = next(src.lines(), (1, ""))[1]
    if "\r" in first.removesuffix("\r"):  # csv would raise its own error, which names no file
        raise _Where(src.name, "line", 1).fail(
            None, "a carriage return (\\r) inside the first line: the lines end in \\r alone (old Mac line "
                  "endings), which ragmath does not read; save the file with \\n (Unix) or \\r\\n (Windows) "
                  "line endings, e.g. from a spreadsheet as 'CSV UTF-8'")
    header = [name.strip() for name in next(csv.reader([first]), [])]
    _check_header(header, src.name, kind)  # a repeated or missing column is refused by name here
    try:
        raw = pl.read_csv(src.polars_input(), infer_schema=False)
    except pl.exceptions.PolarsError:
        return None
    if header != raw.columns:
        return None
    schema = SCHEMAS[kind]
    out = []
    for name, dtype in schema.items():
        if name not in raw.columns:
            out.append(pl.lit(None, dtype=dtype).alias(name))
        elif dtype == pl.String:
            out.append(pl.col(name))
        else:  # polars' number parser, then the ASCII pattern of the line reader
            text = pl.col(name).str.strip_chars(" ")
            pattern = _INTEGER if dtype == pl.Int64 else DECIMAL
            number = text.cast(dtype, strict=False)
            out.append(pl.when(text.str.contains(f"^{pattern}$")).then(number).alias(name))
    table = raw.select(out)
    # a missing value, a bad number, or a blank grade (a pair not judged yet): polars reads a short row's
    # missing fields as empty cells, so the line reader, which counts the fields, reads the file
    if any(table.select(c for c in schema if c in raw.columns).null_count().row(0)):
        return None
    return table


def _read_source(src: _Source, fmt: str, kind: str) -> pl.DataFrame:
    table = _read_as_given(src, fmt, kind)
    # a CSV labels file may have come from a spreadsheet: an escaped formula cell ('=x) means =x
    return formulas_unescaped(table) if fmt == "csv" and kind == "qrels" else table


def _read_as_given(src: _Source, fmt: str, kind: str) -> pl.DataFrame:
    if fmt == "jsonl" or src.is_empty():  # JSONL: the line reader (a JSON ID may be 1 or "1")
        return _line_reader(src, fmt, kind)
    table = _bulk_trec(src, kind) if fmt == "trec" else _bulk_csv(src, kind)
    if table is not None:
        table = table.select(list(SCHEMAS[kind]))
        if not _odd_rows(table, kind):
            return table
    return _line_reader(src, fmt, kind)


#: Bytes per slice when :func:`_read_run_head` reads a TREC run a slice at a time (the peak memory
#: against polars' own batches and the whole file: docs/design-notes.md).
HEAD_SLICE_BYTES = 1 << 24


class _OddSlice(Exception):
    """A slice that :func:`_read_run_head` leaves to the whole-file read."""


def _parsed_slices(src: _Source) -> Iterator[pl.DataFrame]:
    """Each slice of a TREC run as polars parses it; the next slice is parsed (in a thread, as
    polars releases the GIL) while the caller checks this one."""
    def parse(piece: bytes) -> pl.DataFrame:
        if b"\t" in piece:  # polars' one-byte separator cannot split it: the whole-file path can
            raise _OddSlice
        return pl.read_csv(piece, schema=_trec_schema("run"), **_TREC_CSV)

    with ThreadPoolExecutor(max_workers=1) as pool:
        pending = None
        for piece in src.slices(HEAD_SLICE_BYTES):
            ahead = pool.submit(parse, piece)
            if pending is not None:
                yield pending.result()
            pending = ahead
        if pending is not None:
            yield pending.result()


def _trec_head(src: _Source, k: int | None) -> pl.DataFrame | None:
    """:func:`_read_run_head` of a TREC run, a slice at a time; None where a slice is odd (a tab,
    a comment, a bad field...) or a question comes back after other questions (the caller then
    reads the whole file)."""
    seen: set[str] = set()
    heads, held = [], None  # held: the last question read so far, whose lines may go on
    try:
        for parsed in chain(_parsed_slices(src), [None]):
            if parsed is None:
                batch, held = held, None
                if batch is None:
                    break
            else:
                batch = _clean_trec(parsed)
                if batch is None:
                    return None
                if held is not None:
                    batch = pl.concat([held, batch])
            blocks = batch["question"].rle()  # (len, value) per block of equal questions
            questions = blocks.struct.field("value")
            if parsed is not None and len(blocks):  # hold the last question back
                last = blocks[-1]["len"]
                batch, held, questions = batch.head(batch.height - last), batch.tail(last), questions.head(-1)
            if batch.height == 0:
                continue
            names = questions.to_list()
            if len(set(names)) != len(names) or not seen.isdisjoint(names):
                return None
            seen.update(names)
            if _odd_rows(batch, "run", questions):
                return None
            heads.append(order_run_table(batch, top=k))
    except (pl.exceptions.PolarsError, _OddSlice):
        return None
    return pl.concat(heads) if heads else None


def _read_run_head(source: Any, top: int | None, format: str | None = None) -> pl.DataFrame:
    """Each question's first ``top`` results (all if None) in the tie rule's order, as ranked lists.

    What :func:`_read_run_table` then ``order_run_table(..., top=top)`` give: ``score`` null, ``rank``
    the position 1..top; metrics at K <= ``top`` are the same on it as on the whole run. A TREC run
    whose questions each come as one block of lines is read :data:`HEAD_SLICE_BYTES` bytes at a time,
    so memory follows ``top``, not the file; any other source is read whole. Raises as
    :func:`_read_run_table` does.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "run.trec"
    >>> _ = p.write_text("q1 Q0 d2 1 0.5 bm25\\nq1 Q0 d1 2 0.25 bm25\\nq1 Q0 d3 3 0.75 bm25\\n")
    >>> _read_run_head(p, 2).rows()
    [('q1', 'd3', None, 1), ('q1', 'd2', None, 2)]
    """
    top = None if top is None else check_k(top, "top")  # the one check of a cut-off
    fmt, src = _format_of(source, format), _Source(source)
    ordered = None
    if fmt == "trec" and not src.is_empty():
        ordered = _trec_head(src, top)
    if ordered is None:
        ordered = order_run_table(_read_source(src, fmt, "run"), top=top)
    return ordered.select(
        "question", "id", pl.lit(None, pl.Float64).alias("score"), pl.col("position").alias("rank")
    )


def _read_run_table(source: Any, format: str | None = None) -> pl.DataFrame:
    """Read a run file (TREC, CSV or JSONL) into a run table, one row per line in file order.

    ``format`` is taken from the extension unless given (``.csv``, ``.jsonl``/``.ndjson``, else
    TREC); ``source`` may be a path, a named pipe or ``"-"`` (standard input). Raises
    ``ValueError`` naming file, line and field for malformed input (the list: docs/design-notes.md).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "run.trec"
    >>> _ = p.write_text("q1 Q0 d2 1 0.5 bm25\\nq1\\tQ0\\td1  2 0.25 bm25\\n")
    >>> _read_run_table(p).rows()
    [('q1', 'd2', 0.5, 1), ('q1', 'd1', 0.25, 2)]
    """
    return _read_source(_Source(source), _format_of(source, format), "run")


def _read_qrels_table(source: Any, format: str | None = None) -> pl.DataFrame:
    """Read a qrels file (TREC, CSV or JSONL) into a qrels table (question, id, grade).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "qrels.trec"
    >>> _ = p.write_text("# judged by two people\\nq1 0 d1 2\\nq1 0 d7 0\\n")
    >>> _read_qrels_table(p).rows()
    [('q1', 'd1', 2), ('q1', 'd7', 0)]
    """
    return _read_source(_Source(source), _format_of(source, format), "qrels")
