"""Writers: runs and qrels to TREC, CSV or JSONL files, atomically."""

from __future__ import annotations

import io as _stdio
import os
import stat
import sys
import tempfile
from typing import Any

import polars as pl

from ragmath.io._checks import _FORBIDDEN_RE, _quote
from ragmath.io._sources import _format_of
from ragmath.io.frames import _ordered_for_writing, _ranked_only, qrels_table, run_table

# --------------------------------------------------------------------------- writers

def _check_tag(tag: Any) -> str:
    if not isinstance(tag, str) or tag == "" or _FORBIDDEN_RE.search(tag) or tag.startswith("#"):
        raise ValueError(f"tag {tag!r} must be non-empty text without whitespace, e.g. 'rrf'")
    return tag


def _refuse_comment_questions(table: pl.DataFrame) -> None:
    hashed = table.filter(pl.col("question").str.starts_with("#"))
    if hashed.height:
        raise ValueError(
            f"question {_quote(hashed['question'][0])} starts with '#', which a TREC file reads as a "
            "comment line; rename it or write CSV/JSONL"
        )


def _atomic_write(target: Any, data: bytes) -> None:
    """Write ``data`` to ``target``: a stream, ``"-"`` (standard output), or a path written atomically."""
    if hasattr(target, "write"):
        target.write(data.decode("utf-8") if isinstance(target, _stdio.TextIOBase) else data)
        return
    path = os.fspath(target)
    if path == "-":
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    folder = os.path.dirname(os.path.abspath(path))
    prefix = f".{os.path.basename(path)}."
    handle = tempfile.NamedTemporaryFile(dir=folder, prefix=prefix, suffix=".tmp", delete=False)
    try:
        with handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if os.path.exists(path):
            os.chmod(handle.name, stat.S_IMODE(os.stat(path).st_mode))
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(handle.name, 0o666 & ~umask)
        os.replace(handle.name, path)
    except BaseException:
        if os.path.exists(handle.name):
            os.unlink(handle.name)
        raise


def _table_bytes(table: pl.DataFrame, fmt: str, columns: list[str]) -> bytes:
    if fmt == "jsonl":
        return table.select(columns).write_ndjson().encode("utf-8")
    return table.select(columns).write_csv(quote_style="necessary").encode("utf-8")


def write_run(run: Any, path: Any, format: str | None = None, tag: str = "ragmath") -> None:
    """Write a run (mapping, DataFrame or run table) as TREC, CSV or JSONL, atomically.

    ``path`` may be a file path (format from its extension unless given), ``"-"`` for standard
    output, or an open stream (TREC unless ``format`` says otherwise). Raises ``ValueError`` or
    ``TypeError`` on a bad run before anything is written.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "run.trec"
    >>> write_run({"q1": {"a": 0.25, "b": 0.5}, "q2": ["x"]}, p, tag="demo")
    >>> print(p.read_text(), end="")
    q1 Q0 b 1 0.5 demo
    q1 Q0 a 2 0.25 demo
    q2 Q0 x 1 1.0 demo
    """
    fmt = _format_of(path if not hasattr(path, "write") else "", format)
    table = run_table(run)
    rows = _ordered_for_writing(table)
    if fmt == "trec":
        tag = _check_tag(tag)
        _refuse_comment_questions(rows)
        q0, tag_column = pl.lit("Q0").alias("q0"), pl.lit(tag).alias("tag")
        rows = rows.select("question", q0, "id", "rank", "score", tag_column)
        data = rows.write_csv(separator=" ", include_header=False, quote_style="never").encode("utf-8")
    else:  # a run of ranked lists keeps no score column, so it reads back as ranked lists
        columns = ["question", "id", "rank"] + ([] if _ranked_only(table) else ["score"])
        data = _table_bytes(rows, fmt, columns)
    _atomic_write(path, data)


def write_qrels(qrels: Any, path: Any, format: str | None = None) -> None:
    """Write labels (mapping, DataFrame or qrels table) as TREC qrels, CSV or JSONL, atomically.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "qrels.csv"
    >>> write_qrels({"q1": {"d1": 2}}, p)
    >>> print(p.read_text(), end="")
    question,id,grade
    q1,d1,2
    """
    fmt = _format_of(path if not hasattr(path, "write") else "", format)
    table = qrels_table(qrels)
    if fmt == "trec":
        _refuse_comment_questions(table)
        rows = table.select("question", pl.lit("0").alias("iteration"), "id", "grade")
        data = rows.write_csv(separator=" ", include_header=False, quote_style="never").encode("utf-8")
    else:
        data = _table_bytes(table, fmt, ["question", "id", "grade"])
    _atomic_write(path, data)


def write_trec_run(run: Any, path: Any, tag: str = "ragmath") -> None:
    """:func:`write_run` as a TREC run file."""
    write_run(run, path, "trec", tag=tag)


def write_trec_qrels(qrels: Any, path: Any) -> None:
    """:func:`write_qrels` as a TREC qrels file."""
    write_qrels(qrels, path, "trec")
